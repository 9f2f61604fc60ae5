"""The best answer to an attack choice, for scenario files with ``choices = "best"``
(:mod:`engine.game.scenario_file`).

Scenario files run in :mod:`engine.game`, below the agents; the dice core's valuation of
the choices inside an attack lives in the heuristic agent's attack choices
(:mod:`engine.agents.attack_choices`, by exact values from :mod:`engine.advice` and
:mod:`engine.dice`). This module hands that valuation down as a plain function
(:data:`engine.game.scenario_check.Chooser`) the runner calls: ``killteam replay`` and the
tests pass :func:`best_choice` to :meth:`engine.game.scenario_file.Scenario.run`.
"""

from __future__ import annotations

from engine.agents.heuristic import HeuristicAgent
from engine.game.actions import Action
from engine.game.state import Decision, GameState

__all__ = ["best_choice"]


def best_choice(state: GameState) -> Action:
    """The heuristic agent's answer at the attack choice ``state`` is at (a re-roll, a
    dice ploy, cover or obscured from one feature, Accurate, a retention rule, the cover
    save, a rule's "use it?", a ploy window during an attack): the option of best exact
    value for the deciding player by the dice core (:mod:`engine.agents.attack_choices`,
    :mod:`engine.agents.ploy_choices`). Deterministic.

    Raises:
        ValueError: ``state`` is not at a decision node, or it has no legal action.
    """
    if not isinstance(state.node, Decision):
        raise ValueError(f"best_choice: not a decision node: {state.node!r}")
    return HeuristicAgent(seed=0).act(state)
