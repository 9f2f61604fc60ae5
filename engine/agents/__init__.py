"""Agents: anything with ``act(observation) -> Action`` (the
:class:`engine.game.drivers.Agent` and :class:`~engine.game.drivers.ObservingAgent` protocols
shared by scripts, the CLI and search or learning agents). :func:`engine.game.drivers.play`
hands an agent its player's :class:`~engine.game.observation.Observation` (the opponent's
secrets hidden); the agents here also act on a whole :class:`~engine.game.state.GameState`
when called with one (search code, tests).

- :class:`RandomAgent`: uniform over the listed legal actions, from its own seeded generator.
- :class:`~engine.agents.heuristic.HeuristicAgent`: a rules-aware player that scores shots
  and fights with the exact dice core and moves for cover and objectives.

What outcomes are worth (damage, healing, VP, the best shot now, a re-roll's gain) lives below
the rules in :mod:`engine.advice`, shared with the advice of rule code; it is re-exported here
as part of the agents' public API.

:func:`make_agent` builds one by name (``"random"`` or ``"heuristic"``) for a seed.
"""

from __future__ import annotations

import numpy as np

from engine.advice import (
    DAMAGE_WEIGHT,
    STUN_GAIN,
    VP_VALUE,
    DecisionView,
    best_shot_now,
    defence_value,
    fight_value,
    heal_value,
    shoot_reroll_gain,
    shot_value,
    starting_wounds,
    stun_value,
)
from engine.game.actions import Action
from engine.game.drivers import Agent
from engine.game.observation import Observation
from engine.game.state import GameState

__all__ = [
    "AGENT_NAMES",
    "DAMAGE_WEIGHT",
    "STUN_GAIN",
    "VP_VALUE",
    "Agent",
    "DecisionView",
    "HeuristicAgent",
    "RandomAgent",
    "best_shot_now",
    "defence_value",
    "fight_value",
    "heal_value",
    "make_agent",
    "reproducible",
    "shoot_reroll_gain",
    "shot_value",
    "starting_wounds",
    "stun_value",
]


class RandomAgent:
    """Uniform over the listed legal actions (deterministic for a seed): an
    :class:`~engine.game.observation.Observation`'s ``legal_actions`` or a state's
    ``legal_actions()``, the same list."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def act(self, state: GameState | Observation) -> Action:
        """A uniformly random legal action at ``state`` (a decision node, or the deciding
        player's observation of it).

        Raises:
            ValueError: when there is no legal action (a terminal or chance node, or an
                observation by a player who is not deciding).
        """
        legal = state.legal_actions if isinstance(state, Observation) else state.legal_actions()
        n = len(legal)
        if n == 0:
            raise ValueError(f"no legal action at {state.node!r}")
        return legal[int(self.rng.integers(n))]


from engine.agents.heuristic import HeuristicAgent  # noqa: E402
from engine.agents.mcts import MCTSAgent, parse_mcts_spec  # noqa: E402


class _AgentNames(tuple[str, ...]):
    """The agent names (a tuple), where ``in`` also accepts an MCTS spec with a budget
    (``"mcts:1s"``, ``"mcts:400"``: :func:`engine.agents.mcts.parse_mcts_spec`)."""

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        if tuple.__contains__(self, name):
            return True
        key = name.strip().lower()
        if not key.startswith("mcts:"):
            return False
        try:
            parse_mcts_spec(key)
        except ValueError:
            return False
        return True


#: The agent names; ``"mcts"`` also takes a budget: ``mcts:<seconds>s`` or ``mcts:<iterations>``.
AGENT_NAMES = _AgentNames(("heuristic", "mcts", "random"))


def reproducible(name: str) -> bool:
    """Whether the agent ``name`` (in :data:`AGENT_NAMES`) makes the same choices every run
    for a seed: ``random``, ``heuristic`` and ``mcts:<iterations>`` do; an MCTS agent with a
    time budget (``mcts``, ``mcts:<seconds>s``) searches as far as the machine gets in that
    time, so its records cannot be verified by playing its decisions again."""
    key = name.strip().lower()
    if key in ("random", "heuristic"):
        return True
    if key not in AGENT_NAMES:
        return False
    _, iterations = parse_mcts_spec(key)
    return iterations is not None


def make_agent(name: str, seed: int = 0) -> Agent:
    """A new agent by name for a seed.

    Args:
        name: ``"heuristic"``, ``"random"`` or an MCTS spec (case-insensitive): ``"mcts"``
            (1 s per decision), ``"mcts:<seconds>s"`` (``"mcts:0.25s"``, wall clock, not
            bit-reproducible) or ``"mcts:<iterations>"`` (``"mcts:400"``, deterministic for
            a seed) (:class:`~engine.agents.mcts.MCTSAgent`).
        seed: the agent's own seed (only agents that break ties at random use it).

    Raises:
        ValueError: an unknown name (the message lists the known ones), or an MCTS spec
            whose budget is not a positive number of seconds or iterations.
    """
    key = name.strip().lower()
    if key == "random":
        return RandomAgent(seed)
    if key == "heuristic":
        return HeuristicAgent(seed)
    if key == "mcts" or key.startswith("mcts:"):
        seconds, iterations = parse_mcts_spec(key)
        return MCTSAgent(seed, budget_seconds=seconds, iterations=iterations)
    raise ValueError(
        f"unknown agent {name!r}: choose one of {', '.join(AGENT_NAMES)} "
        "(mcts:<seconds>s or mcts:<iterations> for a search budget)"
    )
