"""The Shoot and Fight actions (``rules/KT24.md`` 3.2): their entry into the Shoot and Fight
frames (:mod:`engine.game.shoot`, :mod:`engine.game.fight`)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.game import fight, shoot, shoot_targets
from engine.game.actions import Action
from engine.game.bookkeeping import Listing, UniversalAction, declare, precheck
from engine.game.state import OperativeState
from engine.game.work import Work

__all__ = [
    "FIGHT",
    "SHOOT",
    "FightAction",
    "ShootAction",
]


class ShootAction(UniversalAction):
    """Shoot (3.2, 5.1): listed and begun by :mod:`engine.game.shoot`; an On Guard interrupt
    within an enemy's control range lists its point-blank shots here too (9.3)."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        fights = "Fight" not in at.ruled_out
        if precheck(w, o, self.verb, mode, at.in_cr) is None or (
            mode == "interrupt" and fights and precheck(w, o, "Fight", mode, at.in_cr) is None
        ):
            yield from shoot_targets.iter_shoot_options(w, o, mode)

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
