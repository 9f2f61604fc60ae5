"""Astartes, the faction rule shared by the kill teams of Space Marines (Angels of Death,
Legionaries...): code both team modules can install, registering no rule itself (each team
registers its own rule id with :func:`astartes_installer`).

The rule, in our words: during its activation, each friendly operative (of the team's
keyword) may perform two Shoot actions or two Fight actions (not both twice); when it shoots
twice, one of the two shots must use one of the team's bolt weapons. Each such operative can
counteract whatever its order.

A team's version may add a cost: the Angels of Death's second Shoot with the same heavy
weapon (bolt sniper rifle, heavy bolter) as the first costs 1 additional AP
(``extra_ap``: refused with fewer than 2AP left, the AP taken when it is declared).

Played through the core's ``would_repeat_action`` (activations only: a counteraction is
still one action, 1.6), ``would_refuse_weapon`` (the second Shoot's weapon) and
``would_counteract_regardless_of_order`` hooks, and the ``shoot_declared`` event (the first
shot's weapon, a token until the end of the activation).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.universal import weapons_of
from engine.game.work import Work
from engine.rules.registry import Installer

FIRST_SHOT = "astartes_first_shot:"
"""The prefix of the token naming the weapon of an operative's first Shoot this activation."""

REPEATABLE = ("Shoot", "Fight")

Member = Callable[[Work, str], bool]
"""``member(w, op)``: the rule applies to the friendly operative ``op``."""


def weapon_base(name: str) -> str:
    """A weapon's notation name without its profile (``"plasma pistol (standard)"`` ->
    ``"plasma pistol"``), lower case."""
    return name.split(" (", 1)[0].strip().lower()


def bolt_by_name(name: str) -> bool:
    """A bolt weapon when its name says bolt (bolt rifle, heavy bolter, bolt sniper rifle...)."""
    return "bolt" in name.lower()


def bolt_among(*names: str) -> Callable[[str], bool]:
    """A bolt-weapon test accepting exactly the weapons ``names`` (any case; a weapon's
    profile name is ignored)."""
    wanted = {n.lower() for n in names}
    return lambda name: weapon_base(name) in wanted


def first_shot(w: Work, op: str) -> str | None:
    """The weapon of ``op``'s first Shoot in this activation, or None."""
    for e in w.effects:
        if e.kind == "token" and e.op == op and e.detail.startswith(FIRST_SHOT):
            return e.detail.removeprefix(FIRST_SHOT)
    return None


def astartes_installer(
    member: Member | None = None,
    bolt: Callable[[str], bool] = bolt_by_name,
    may_repeat: Member | None = None,
    extra_ap: Callable[[str, str], bool] | None = None,
) -> Installer:
    """The installer of Astartes (module docstring) for a team.

    Args:
        member: the friendly operatives the rule covers (default: all of them).
        bolt: whether a weapon (its notation name) counts as a bolt weapon.
        may_repeat: a further condition to perform Shoot or Fight twice (e.g. a ploy that
            forbids repeating actions this activation); default always.
        extra_ap: ``extra_ap(first, weapon)``: a second Shoot with ``weapon`` after a first
            with ``first`` costs 1 additional AP (default never).
    """

    def install(hooks: Hooks, players: tuple[str, ...]) -> None:
        def mine(w: Work, op: str) -> bool:
            if not op or w.ctx.owner.get(op) not in players:
                return False
            return member is None or member(w, op)

        def repeat(w: Work, value: bool, **info: Any) -> bool:
            op, action = str(info.get("op", "")), info.get("action", "")
            if value or info.get("mode") != "activation" or action not in REPEATABLE:
                return value
            if not mine(w, op) or (may_repeat is not None and not may_repeat(w, op)):
                return value
            done = tuple(info.get("done", ()))
            return not any(done.count(a) >= 2 for a in REPEATABLE)

        def refuse(w: Work, why: str | None, **info: Any) -> str | None:
            o = info.get("op")
            name = str(info.get("weapon", ""))
            if why is not None or o is None or o.done.count("Shoot") != 1 or not mine(w, o.id):
                return why
            first = first_shot(w, o.id)
            if first is not None and extra_ap is not None and extra_ap(first, name) and o.ap < 2:
                return (
                    f"Astartes: a second Shoot with the same {name} costs 1 additional AP "
                    f"({o.id} has {o.ap}AP)"
                )
            if first is None or bolt(first) or bolt(name):
                return why
            if name not in {n for n, _, _ in weapons_of(w, o.id, "ranged")}:
                return why
            return (
                f"Astartes: {o.id} shot with {first} (not a bolt weapon), so its second Shoot "
                "must use a bolt weapon"
            )

        def record(w: Work, ev: Event) -> None:
            op = str(ev["op"])
            if not mine(w, op):
                return
            first = first_shot(w, op)
            if first is not None:
                if extra_ap is not None and extra_ap(first, str(ev["weapon"])):
                    w.set_op(op, ap=max(0, w.op(op).ap - 1))
                    w.emit("astartes_extra_ap", op=op, weapon=str(ev["weapon"]))
                return
            w.add_effect(
                Effect("token", op, "end_activation", source=op, detail=FIRST_SHOT + ev["weapon"])
            )

        def any_order(w: Work, value: bool, **info: Any) -> bool:
            return value or mine(w, str(info.get("op", "")))

        hooks.transform("would_repeat_action", repeat)
        hooks.transform("would_refuse_weapon", refuse)
        hooks.transform("would_counteract_regardless_of_order", any_order)
        hooks.on("shoot_declared", record)

    return install
