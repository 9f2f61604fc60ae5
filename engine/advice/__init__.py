"""What outcomes are worth to the agents: damage, healing, VP, stuns, the best shot now and the
gain of a re-roll, in *operatives* (an enemy operative incapacitated is worth 1).

This package sits below the rules (issue 28's layers: it imports only :mod:`engine.game`,
:mod:`engine.dice`, :mod:`engine.geometry` and :mod:`engine.teams`), so rule code (``teams/``,
:mod:`engine.rules`) values what a rule enables through it without importing the agents, and
the heuristic agent (:mod:`engine.agents`, which re-exports these names) values its choices
with the very same functions.

- :mod:`engine.advice.values`: exact values of attacks from the dice core, heal and stun
  rules of thumb, :data:`DAMAGE_WEIGHT` and :data:`VP_VALUE`.
- :mod:`engine.advice.shots`: the best shot an operative has now or from a spot.
- :mod:`engine.advice.rerolls`: what re-rolling one die of a shooting attack is worth.
- :mod:`engine.advice.view`: :class:`DecisionView`, a working copy for one decision whose
  read-only queries are memoised (:func:`once`).
"""

from __future__ import annotations

from engine.advice.rerolls import shoot_reroll_gain
from engine.advice.shots import best_shot_from, best_shot_now
from engine.advice.values import (
    DAMAGE_WEIGHT,
    STUN_GAIN,
    VP_VALUE,
    defence_value,
    fight_value,
    heal_value,
    shot_value,
    starting_wounds,
    stun_value,
)
from engine.advice.view import DecisionView, once

__all__ = [
    "DAMAGE_WEIGHT",
    "STUN_GAIN",
    "VP_VALUE",
    "DecisionView",
    "best_shot_from",
    "best_shot_now",
    "defence_value",
    "fight_value",
    "heal_value",
    "once",
    "shoot_reroll_gain",
    "shot_value",
    "starting_wounds",
    "stun_value",
]
