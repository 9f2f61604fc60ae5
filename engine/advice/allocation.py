"""What each allocation of the defender's saves is worth (``rules/KT24.md`` 5.1 step 5;
:mod:`engine.game.allocation`).

At the ``allocate_saves`` decision every attack and defence die is rolled: each allocation
leads to one outcome, which is resolved on a scratch copy by the Shoot sequence's own code
(:meth:`engine.game.shoot.ShootFrame.inflict_unblocked`, team rules included). Its
distribution is therefore a point mass: the damage the target suffers now and whether it is
incapacitated. Damage a rule withholds pending its player's choice (a shield generator) is
not counted as suffered: that player can still ignore it. Without team rules the least
damage is the dice core's own allocation (:func:`engine.dice.shoot.unblocked`), which the
decision lists first.
"""

from __future__ import annotations

import attrs

from engine.advice.values import DAMAGE_WEIGHT
from engine.game.actions import Action
from engine.game.shoot import ShootFrame
from engine.game.work import Work

__all__ = ["AllocationValue", "allocation_values"]


@attrs.frozen(slots=True)
class AllocationValue:
    """The outcome of one allocation of saves.

    Attributes:
        action: the defender's action (``Allocate saves ...``).
        unblocked: ``(normal, critical)`` attack successes it leaves unblocked.
        damage: expected wounds the target loses now (capped at the wounds it has).
        incapacitated: the probability that the target is incapacitated (0 or 1 here).
        value: the outcome's worth to the attacker, in operatives (the incapacitation
            probability plus :data:`~engine.advice.values.DAMAGE_WEIGHT` of the share of
            its starting wounds lost): the defender wants it least.
    """

    action: Action
    unblocked: tuple[int, int]
    damage: float
    incapacitated: float
    value: float


def allocation_values(w: Work) -> list[AllocationValue]:
    """Every listed allocation of the shot at the ``allocate_saves`` decision, in listing
    order, with its outcome (module docstring).

    Raises:
        ValueError: the innermost frame is not a Shoot waiting for that decision.
    """
    f = w.top if w.stack else None
    if not isinstance(f, ShootFrame) or f.stage != "allocate":
        raise ValueError("no allocation of saves is being decided (5.1 step 5)")
    t = f.target(w)
    most = max(1, w.ctx.datacards[t.id].wounds)
    out = []
    for a in f.allocation_options(w, *f.retained_saves(w)):
        left = a.left(f.normals, f.crits)
        c = w.scratch_copy()
        c.top.inflict_unblocked(c, *left)
        after = c.op(t.id)
        lost = float(max(0, t.wounds - after.wounds))
        dead = 1.0 if after.incapacitated and not t.incapacitated else 0.0
        value = dead + DAMAGE_WEIGHT * lost / most
        out.append(AllocationValue(a.action, left, lost, dead, value))
    return out
