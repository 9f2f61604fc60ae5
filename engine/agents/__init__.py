"""Agents: anything with ``act(state) -> Action`` (see :class:`engine.game.drivers.Agent`).

- :class:`RandomAgent`: uniform over the listed legal actions, from its own seeded generator.
"""

from __future__ import annotations

import numpy as np

from engine.game.actions import Action
from engine.game.state import GameState

__all__ = ["RandomAgent"]


class RandomAgent:
    """Uniform over ``state.legal_actions()`` (deterministic for a seed)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def act(self, state: GameState) -> Action:
        """A uniformly random legal action.

        Raises:
            ValueError: when the state has no legal action (a terminal or chance node).
        """
        legal = state.legal_actions()
        n = len(legal)
        if n == 0:
            raise ValueError(f"no legal action at {state.node!r}")
        return legal[int(self.rng.integers(n))]  # type: ignore[no-any-return]
