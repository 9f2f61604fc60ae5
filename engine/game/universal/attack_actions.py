"""The Shoot and Fight actions (``rules/KT24.md`` 3.2): their listing and their entry into the
Shoot and Fight frames (:mod:`engine.game.shoot`, :mod:`engine.game.fight`).

At an action decision the Shoot action is listed as its header, ``Shoot KAS-1`` (no weapon,
no target), when its conditions hold and at least one weapon has a valid target: the listing
stops at the first valid (weapon, target) pair. Choosing the header opens the
``attack_target`` decision, whose options are the complete actions (:func:`attack_options`).
Fight is listed complete (only within an enemy's control range, a few melee weapons at the
enemies there: nothing to save)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.game import fight, shoot, shoot_targets
from engine.game.actions import Action
from engine.game.bookkeeping import (
    IN_CR_REFUSED,
    OUT_OF_CR_REFUSED,
    Listing,
    UniversalAction,
    declare,
    precheck,
)
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.geometry.movement import ReachMemo

__all__ = [
    "FIGHT",
    "SHOOT",
    "FightAction",
    "ShootAction",
    "attack_options",
]


class ShootAction(UniversalAction):
    """Shoot (3.2, 5.1): listed as its header (``Action("Shoot", op="KAS-1")``) when its
    conditions hold and a weapon has a valid target (the first such pair found, the others
    not computed); with ``Listing.destinations`` (the complete listing) at each usable ranged
    weapon and each primary target it may take
    (:func:`engine.game.shoot_targets.iter_shoot_options`, in its order). An On Guard
    interrupt within an enemy's control range lists its point-blank shots here too (9.3).
    Begun by :mod:`engine.game.shoot`."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        fights = "Fight" not in at.ruled_out
        if precheck(w, o, self.verb, mode, at.in_cr) is None or (
            mode == "interrupt" and fights and precheck(w, o, "Fight", mode, at.in_cr) is None
        ):
            found = shoot_targets.iter_shoot_options(w, o, mode)
            if at.destinations:
                yield from found
            elif next(found, None) is not None:
                yield Action(self.verb, op=o.id)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        shoot.start_shoot(w, o, a, mode)


class FightAction(UniversalAction):
    """Fight (3.2, 5.2): listed and begun by :mod:`engine.game.fight`."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        if self.verb not in at.ruled_out and precheck(w, o, self.verb, mode, at.in_cr) is None:
            yield from fight.fight_options(w, o)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        fight.start_fight(w, o, a, mode)


SHOOT = declare(ShootAction("Shoot", 1))
FIGHT = declare(FightAction("Fight", 1))


def attack_options(w: Work, o: OperativeState, verb: str, mode: str) -> Iterator[Action]:
    """The complete ``verb`` actions (``"Shoot"`` or ``"Fight"``) of ``o`` in ``mode``
    (``"activation"``, ``"counteract"``, ``"interrupt"`` or ``"free"``), exactly as the
    complete listing of its action decision has them (its conditions checked, then each
    weapon at each valid target, in the listing's order): the options of the
    ``attack_target`` decision its header opens (3.2, 5.1, 5.2, 9.3). A generator: a caller
    may stop at the first.

    Raises:
        ValueError: ``verb`` is not an attack action."""
    if verb not in ("Shoot", "Fight"):
        raise ValueError(f"{verb!r} is not an attack action (Shoot or Fight)")
    in_cr = w.in_enemy_control_range(o)
    at = Listing(
        in_cr, IN_CR_REFUSED if in_cr else OUT_OF_CR_REFUSED, ReachMemo(), destinations=True
    )
    return (SHOOT if verb == "Shoot" else FIGHT).options(w, o, mode, at)
