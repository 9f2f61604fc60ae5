"""The heuristic agent (work in progress: see issue 6)."""

from __future__ import annotations

from engine.game.actions import Action
from engine.game.state import GameState

__all__ = ["HeuristicAgent"]


class HeuristicAgent:
    """A rules-aware player (being written)."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, state: GameState) -> Action:
        """The chosen action."""
        legal = state.legal_actions()
        if len(legal) == 0:
            raise ValueError(f"no legal action at {state.node!r}")
        return legal[0]  # type: ignore[no-any-return]
