"""The heuristic's KT18 valuations (``rules/KT18.md``), read from the exact odds of the KT18
mode of the dice core (:mod:`engine.dice.kt18`): what one weapon's attacks against one model
are worth, what a model is worth, and the chance that a charge roll covers a gap.

Values are in models (1.0 = one enemy model of one wound taken out of action), the unit the
KT18 choices (:mod:`engine.agents.kt18_choices`) compare:

- a model's worth (:func:`model_worth`): 1 plus a quarter per wound above the first (a model
  of more wounds takes more attacks to take out of action, 6.8-6.12);
- an attack's value (:func:`attack_value`): P(out of action) x the target's worth, plus a
  flesh wound's share (:data:`FLESH_WOUND_SHARE`: it makes the model's next Injury roll
  worse and its hit rolls too, 6.2, 6.9), plus the share of the expected wounds lost
  (:data:`WOUND_SHARE` of the worth per wound left, 6.8).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from engine.dice.kt18 import Kt18Attack, Kt18Target, kt18_attack

__all__ = [
    "FLESH_WOUND_SHARE",
    "WOUND_SHARE",
    "attack_value",
    "charge_odds",
    "model_worth",
]

FLESH_WOUND_SHARE = 0.3
"""The share of a model's worth a new flesh wound is valued at (6.9, 6.11)."""

WOUND_SHARE = 0.2
"""The share of a model's worth all its wounds lost (short of 0) are valued at (6.8)."""


def model_worth(wounds: int) -> float:
    """What taking a model of ``wounds`` starting wounds out of action is worth, in models:
    ``1 + 0.25 * (wounds - 1)`` (module docstring). ``wounds`` below 1 counts as 1."""
    return 1.0 + 0.25 * (max(1, wounds) - 1)


@lru_cache(maxsize=4096)
def attack_value(attack: Kt18Attack, target: Kt18Target, worth: float) -> float:
    """The value, in models, of ``attack`` (one weapon's attacks, ``rules/KT18.md`` 5.4-5.10,
    7.5) at ``target`` (6.5-6.12) whose worth is ``worth`` (module docstring), from the
    exact outcome distribution of :func:`engine.dice.kt18.kt18_attack`.

    Raises:
        ProfileError: from the dice core, for values outside their ranges."""
    result = kt18_attack(attack, target)
    lost = float(result.expected_wounds_lost) / target.wounds
    return worth * (
        float(result.out_of_action)
        + FLESH_WOUND_SHARE * float(result.flesh_wound)
        + WOUND_SHARE * lost
    )


def charge_odds(gap: float) -> Fraction:
    """P(a 2D6 charge roll is at least ``gap`` inches, ``rules/KT18.md`` 3.13): 1 for a gap
    of 2" or less, 0 above 12"."""
    need = max(2, int(-(-gap // 1)))  # whole inches rolled: the least total >= gap
    if need > 12:
        return Fraction(0)
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= need)
    return Fraction(ways, 36)
