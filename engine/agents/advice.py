"""How a rule tells the heuristic agent what using it is worth (issue 16: team ploys,
abilities and unique actions through the ordinary legal actions).

The heuristic agent (:mod:`engine.agents.heuristic`) cannot value code it has never seen, so
a rule may carry an *advice*: a function returning the value of one of its legal actions now,
in the agent's unit, *operatives* (:mod:`engine.advice.values`: an enemy operative
incapacitated is worth 1, a wound dealt ``DAMAGE_WEIGHT`` of one wound's share of its
starting wounds; a friendly operative lost is worth -1). A rule that changes an attack values
itself with the dice core (the exact value with the change minus the value without it, e.g.
:func:`engine.advice.values.shot_value`); any other rule uses a rule of thumb its docstring
states. The advice reads the state and must not change it.

- A ploy (:class:`engine.rules.ploys.Ploy`) carries ``advice(w, player, action, info) ->
  float``: ``action`` is its ``Ploy ...`` action, ``info`` what the window was told. The agent
  uses the ploy of greatest advised value when that value is above :data:`PLOY_THRESHOLD` times
  its CP cost and it can pay the cost while keeping a CP for Command Re-roll; a ploy without
  advice follows the older rule of thumb (:mod:`engine.agents.ploy_choices`).
- A rule action (:class:`engine.game.rule_actions.RuleActionLike`) may have an attribute
  ``advice(w, o, action, mode) -> float``: the agent scores the action as the value of staying
  where the operative is plus the advice; a 0AP action of positive advice in an activation
  is scored as the best other action plus the advice (it costs nothing, so it comes first).
  Without one, the action is scored just below standing still (taken only when nothing
  else is), as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.game.actions import Action
from engine.game.state import OperativeState
from engine.game.work import Work

__all__ = ["PLOY_THRESHOLD", "PloyAdvice", "RuleActionAdvice", "action_advice", "ploy_advice"]

PloyAdvice = Callable[[Work, str, Action, Mapping[str, Any]], float]
"""``advice(w, player, action, info) -> value`` of using a ploy now (module docstring)."""

RuleActionAdvice = Callable[[Work, OperativeState, Action, str], float]
"""``advice(w, o, action, mode) -> value`` of performing a rule action now."""

PLOY_THRESHOLD = 0.1
"""The value (operatives) one CP must buy before the agent spends it on an advised ploy: a
tenth of an operative, so a ploy is not spent on a negligible gain."""


def action_advice(act: Any) -> RuleActionAdvice | None:
    """The advice of rule action ``act``, or ``None`` when it has none."""
    advice = getattr(act, "advice", None)
    return advice if callable(advice) else None


def ploy_advice(ploy: Any) -> PloyAdvice | None:
    """The advice of ``ploy``, or ``None`` when it has none."""
    advice = getattr(ploy, "advice", None)
    return advice if callable(advice) else None
