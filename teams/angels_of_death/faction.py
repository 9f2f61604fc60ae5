"""The Angels of Death faction rule Astartes (the Chapter Tactics: :mod:`.tactics`)."""

from __future__ import annotations

from typing import Any

from engine.game.context import Hooks
from engine.game.state import Effect
from engine.game.universal import weapons_of
from engine.game.work import Work
from engine.rules.registry import register, rule_id
from teams.angels_of_death.common import (
    TEAM,
    is_bolt,
)

_FIRST_SHOT = "astartes_first_shot:"


def _first_shot(w: Work, op: str) -> str | None:
    """The weapon of ``op``'s first Shoot in this activation (Astartes), or None."""
    for e in w.effects:
        if e.kind == "token" and e.op == op and e.detail.startswith(_FIRST_SHOT):
            return e.detail.removeprefix(_FIRST_SHOT)
    return None


_HEAVY_BOLT = ("bolt sniper rifle", "heavy bolter")


def _heavy_again(first: str, weapon: str) -> bool:
    """A second shot with the same bolt sniper rifle or heavy bolter as the first (any
    profile: ``"heavy bolter (focused)"`` and ``"Heavy Bolter"`` are the same weapon)."""
    a, b = (n.split(" (")[0].casefold().strip() for n in (first, weapon))
    return a == b and b in _HEAVY_BOLT


def _install_astartes(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Astartes (faction rule): during its activation, each friendly operative may perform
    two Shoot actions or two Fight actions (not both twice); when it shoots twice, a bolt
    weapon must be used for at least one of them. Each friendly operative can counteract
    regardless of its order. Trigger: the core's ``would_repeat_action``,
    ``would_refuse_weapon`` and ``would_counteract_regardless_of_order`` hooks, and the
    ``shoot_declared`` event (the first shot's weapon, until the end of the activation).
    Limits: activations only (a counteraction is still one action, 1.6); a second shot with
    the same bolt sniper rifle or heavy bolter costs 1 additional AP (refused with fewer
    than 2AP left; the AP taken when it is declared)."""

    def mine(w: Work, op: str) -> bool:
        return bool(op) and w.ctx.owner.get(op) in players

    def repeat(w: Work, value: bool, **info: Any) -> bool:
        op, action = str(info.get("op", "")), info.get("action", "")
        if value or info.get("mode") != "activation" or not mine(w, op):
            return value
        if action not in ("Shoot", "Fight"):
            return value
        done = tuple(info.get("done", ()))
        twice = [a for a in ("Shoot", "Fight") if done.count(a) >= 2]
        return not twice

    def refuse(w: Work, why: str | None, **info: Any) -> str | None:
        o = info.get("op")
        name = str(info.get("weapon", ""))
        if why is not None or o is None or not mine(w, o.id) or o.done.count("Shoot") != 1:
            return why
        first = _first_shot(w, o.id)
        if first is not None and _heavy_again(first, name) and o.ap < 2:
            return (
                f"Astartes: a second Shoot with the same {name} costs 1 additional AP "
                f"({o.id} has {o.ap}AP)"
            )
        if first is None or is_bolt(first) or is_bolt(name):
            return why
        if name not in {n for n, _, _ in weapons_of(w, o.id, "ranged")}:
            return why
        return (
            f"Astartes: {o.id} shot with {first} (not a bolt weapon), so its second Shoot "
            "must use a bolt weapon"
        )

    def record(w: Work, ev: Any) -> None:
        op = str(ev["op"])
        if not mine(w, op):
            return
        first = _first_shot(w, op)
        if first is not None:
            if _heavy_again(first, str(ev["weapon"])):
                o = w.op(op)
                w.set_op(op, ap=max(0, o.ap - 1))
                w.emit("astartes_extra_ap", op=op, weapon=str(ev["weapon"]))
            return
        w.add_effect(
            Effect("token", op, "end_activation", source=op, detail=_FIRST_SHOT + ev["weapon"])
        )

    def any_order(w: Work, value: bool, **info: Any) -> bool:
        return value or mine(w, str(info.get("op", "")))

    hooks.transform("would_repeat_action", repeat)
    hooks.transform("would_refuse_weapon", refuse)
    hooks.transform("would_counteract_regardless_of_order", any_order)
    hooks.on("shoot_declared", record)


register(
    rule_id(TEAM, "faction_rule", "Astartes"),
    _install_astartes,
    "Faction rule: two Shoot (one with a bolt weapon) or two Fight actions per activation; "
    "counteract whatever the order.",
)
