"""KT21 attack actions (``rules/KT21.md`` 6.1, 10, 11, 3.5): Shoot, Fight and Overwatch as
:class:`~engine.game.bookkeeping.UniversalAction` objects, and the Heavy rule's bar on moving
after a Heavy shot (:func:`install`).

Shoot and Fight keep the verbs and AP of the shared bookkeeping (1AP each; Unwieldy makes a
Shoot 2AP); they are listed complete (``Shoot RED-1 gun at BLU-1``: each usable profile at
each valid target), never as a header. Overwatch (0AP) is not offered in activations: the
flow (:mod:`engine.rules.kt21.firefight`) gives it as a free action in the overwatch turn of
a player with no ready operatives (3.3, 3.5), to an operative :func:`overwatch_options` lists
shots for; it is one shooting attack with BS 1 worse, not a Shoot action. :func:`install`
adds :data:`OVERWATCH` to the battle's universal actions (the ``universal_actions`` hook),
listed only in a free action (``Overwatch RED-1 gun at BLU-1``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.game.actions import Action, IllegalActionError
from engine.game.bookkeeping import Listing, UniversalAction, declare, precheck
from engine.game.context import Hooks
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.rules.kt21 import fight, shoot

__all__ = [
    "ATTACK_ACTIONS",
    "FIGHT",
    "OVERWATCH",
    "SHOOT",
    "Kt21FightAction",
    "Kt21OverwatchAction",
    "Kt21ShootAction",
    "install",
    "overwatch_options",
    "overwatch_refusal",
]


class Kt21ShootAction(UniversalAction):
    """Shoot (1AP; 10.1): listed at each usable ranged profile and valid target
    (:func:`engine.rules.kt21.shoot.shoot_options`), begun by
    :func:`engine.rules.kt21.shoot.start_shoot`."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        if "Shoot" in at.ruled_out and at.in_cr:
            return
        if precheck(w, o, self.verb, mode, at.in_cr) is None:
            yield from shoot.shoot_options(w, o, "Shoot", mode)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        shoot.start_shoot(w, o, a, mode, overwatch=False)


class Kt21FightAction(UniversalAction):
    """Fight (1AP; 11): listed at each melee weapon and each enemy within Engagement Range
    (:func:`engine.rules.kt21.fight.fight_options`)."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        if self.verb not in at.ruled_out and precheck(w, o, self.verb, mode, at.in_cr) is None:
            yield from fight.fight_options(w, o)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        fight.start_fight(w, o, a, mode)


def overwatch_refusal(w: Work, o: OperativeState) -> str | None:
    """Why ``o`` cannot Overwatch now whatever the weapon (3.5), or ``None``: it overwatched
    this turning point already (the ``overwatched`` effect, until the end of the TP). The
    order, Engagement Range and weapon checks are the shooting attack's
    (:func:`engine.rules.kt21.shoot.shoot_refusal`)."""
    if any(e.kind == "overwatched" and e.op == o.id for e in w.effects):
        return f"{o.id} has already made an Overwatch this turning point (rules/KT21.md 3.5)"
    return None


def overwatch_options(w: Work, o: OperativeState) -> list[Action]:
    """The Overwatch shots ``o`` may make now (3.5): each usable ranged profile (no Blast,
    no Unwieldy) at each valid target, as :class:`Kt21OverwatchAction` lists them in a free
    action; empty when it overwatched this turning point, has a Conceal order or is within
    Engagement Range of an enemy."""
    if overwatch_refusal(w, o) is not None:
        return []
    return shoot.shoot_options(w, o, "Overwatch", "free")


class Kt21OverwatchAction(UniversalAction):
    """Overwatch (0AP; 3.5): one shooting attack with BS worsened by 1 by an operative with
    an Engage order, not within Engagement Range of an enemy, once per turning point, with a
    profile that has neither Blast nor Unwieldy. Not a Shoot action and not an activation:
    performed only as the free action the flow's overwatch turn gives (``mode`` ``"free"``:
    nothing is spent); never listed nor accepted in an activation (3.5: not during the
    operative's own activation)."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        del at
        if mode == "free":
            yield from overwatch_options(w, o)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        if mode == "activation":
            raise IllegalActionError(
                f"{o.id} cannot Overwatch during its own activation: an Overwatch is made in "
                "its player's turn when it has no ready operatives (rules/KT21.md 3.3, 3.5)"
            )
        why = overwatch_refusal(w, o)
        if why:
            raise IllegalActionError(why)
        shoot.start_shoot(w, o, a, mode, overwatch=True)


SHOOT = Kt21ShootAction("Shoot", 1)
"""The KT21 Shoot (its verb and AP are the shared bookkeeping's Shoot: 1AP)."""
FIGHT = Kt21FightAction("Fight", 1)
"""The KT21 Fight (1AP)."""
OVERWATCH: UniversalAction = declare(Kt21OverwatchAction("Overwatch", 0))
"""The KT21 Overwatch action (0AP, 3.5), performed outside activations in the overwatch turn
the flow gives a player without ready operatives."""

ATTACK_ACTIONS: tuple[UniversalAction, ...] = (SHOOT, FIGHT)
"""The KT21 Shoot and Fight actions in listing order."""


def _refuse_after_heavy(w: Work, refused: Any, *, op: str, action: str, **_info: Any) -> Any:
    """Heavy (12): an operative that shot with a Heavy weapon this activation cannot then
    Normal Move, Charge or Fall Back (the ``would_refuse_action`` hook)."""
    if refused or action not in shoot.MOVES_BARRING_HEAVY:
        return refused
    if shoot.HEAVY_MARK in w.op(op).done:
        return (
            f"{op} shot with a Heavy weapon this activation: no {action} (rules/KT21.md 12 Heavy)"
        )
    return refused


def _with_overwatch(_w: Work, actions: tuple[Any, ...]) -> tuple[Any, ...]:
    """The battle's rule universal actions and :data:`OVERWATCH` (the ``universal_actions``
    hook)."""
    return (*actions, OVERWATCH)


def install(hooks: Hooks) -> None:
    """Add the attack actions' hooks to a KT21 battle: :data:`OVERWATCH` among the
    universal actions (listed only in a free action), and Heavy's bar on moving after a
    Heavy shot (the shot's own bar on Heavy after a move is in
    :func:`engine.rules.kt21.shoot.shoot_refusal`)."""
    hooks.transform("universal_actions", _with_overwatch)
    hooks.transform("would_refuse_action", _refuse_after_heavy)
