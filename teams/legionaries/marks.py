"""The Marks of Chaos' faction rules (package docstring)."""

from __future__ import annotations

from typing import Any

from engine.dice.rules import WeaponRules, parse_weapon_rules
from engine.game import universal
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.choices import RuleRollFrame, on_roll
from engine.rules.registry import register
from teams.legionaries.common import (
    UNLEASHED_DMG,
    _is,
    dmg_stats,
    legionary,
    mark_of,
    unleashed,
)

_SEVERE = parse_weapon_rules("Severe").rules
_CEASELESS = parse_weapon_rules("Ceaseless").rules
REAVERS_REACH = 6.0


def _mark_rule(mark: str, kind: str, gained: tuple[Any, ...], reach: float = 0.0) -> Any:
    """The installer of a mark's weapon rule: the weapons of ``kind`` (``""`` both) of the
    friendly LEGIONARY operatives with ``mark`` gain ``gained``; with ``reach``, only against
    an enemy operative within that distance of the operative."""

    def install(hooks: Hooks, players: tuple[str, ...]) -> None:
        def gain(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
            op = info.get("op", "")
            if not op or w.ctx.owner[op] not in players or (kind and info.get("kind") != kind):
                return rules
            if mark_of(w, op) != mark or not legionary(w, op):
                return rules
            if reach:
                target = info.get("target", "")
                if not target or w.ctx.owner[target] == w.ctx.owner[op]:
                    return rules
                if w.distance(w.place(w.op(op)), w.place(w.op(target))) > reach + 1e-6:
                    return rules
            return rules.with_rules(*gained)

        hooks.transform("would_use_weapon_rules", gain)

    return install


register(
    "legionaries/faction_rule/khorne_wrathful_onslaught",
    _mark_rule("KHORNE", "melee", _SEVERE),
    "Khorne Legionaries' melee weapons have Severe.",
)
register(
    "legionaries/faction_rule/tzeentch_empyreal_guidance",
    _mark_rule("TZEENTCH", "ranged", _SEVERE),
    "Tzeentch Legionaries' ranged weapons have Severe.",
)
register(
    "legionaries/faction_rule/undivided_vicious_reavers",
    _mark_rule("UNDIVIDED", "", _CEASELESS, REAVERS_REACH),
    "Undivided Legionaries' weapons have Ceaseless against enemies within 6\".",
)


def install_unnatural_agility(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Slaanesh - Unnatural Agility (package docstring)."""

    def faster(w: Work, change: float, **info: Any) -> float:
        op = info["op"]
        if w.ctx.owner[op] in players and mark_of(w, op) == "SLAANESH" and legionary(w, op):
            return change + 1.0
        return change

    hooks.transform("would_change_move", faster)


register(
    "legionaries/faction_rule/slaanesh_unnatural_agility",
    install_unnatural_agility,
    "Slaanesh Legionaries' Move is 1\" more.",
)


VIGOUR = "Nurgle - Disgusting Vigour"
VIGOUR_ROLLS = "disgusting_vigour"  # effect: op = the NURGLE operative, detail = the D6, in order
VIGOUR_DMG = 3


def vigour_rolls(w: Work, op: str) -> list[int]:
    """The Disgusting Vigour D6 rolled for ``op`` and not yet used, in order."""
    for e in w.effects:
        if e.kind == VIGOUR_ROLLS and e.op == op:
            return [int(v) for v in e.detail.split(",") if v]
    return []


def _set_vigour_rolls(w: Work, op: str, rolls: list[int], source: str = "") -> None:
    w.effects = [e for e in w.effects if not (e.kind == VIGOUR_ROLLS and e.op == op)]
    if rolls:
        detail = ",".join(str(v) for v in rolls)
        w.effects.append(Effect(VIGOUR_ROLLS, op, "end_tp", source=source, detail=detail))


def install_disgusting_vigour(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Nurgle - Disgusting Vigour (package docstring)."""

    def mine(w: Work, op: str) -> bool:
        return bool(op) and w.ctx.owner.get(op) in players and _is(w, op, "NURGLE")

    def resolve(w: Work, ev: Event) -> None:
        target, attacker = str(ev["target"]), str(ev["op"])
        if not mine(w, target):
            return
        _set_vigour_rolls(w, target, [])
        stats = dmg_stats(w, attacker)
        if stats is None:
            _, _, prof = universal.find_weapon(w, w.op(attacker), ev["weapon"], ev["weapon_kind"])
            stats = prof.normal_damage, prof.critical_damage
        normal_dmg = stats[0]
        if normal_dmg < VIGOUR_DMG or not ev["normals"]:
            return
        if unleashed(w, target) and normal_dmg >= UNLEASHED_DMG:
            return  # Unleash Daemon already takes 1 from each such die: never more than 1
        owner = w.ctx.owner[target]
        for i in range(int(ev["normals"])):
            w.stack.append(
                RuleRollFrame(
                    player=owner,
                    rule=VIGOUR,
                    key=VIGOUR_ROLLS,
                    op=target,
                    dice=1,
                    label=f"Disgusting Vigour ({target}, die {int(ev['normals']) - i})",
                    data=(("source", attacker),),
                )
            )

    def reduce(w: Work, dmg: int, **info: Any) -> int:
        target = str(info.get("target", ""))
        if info.get("crit") or not target or not w.effects:
            return dmg
        rolls = vigour_rolls(w, target)
        if not rolls:
            return dmg
        _set_vigour_rolls(w, target, rolls[1:])
        if dmg >= VIGOUR_DMG and rolls[0] >= 5:
            w.emit("team_rule_used", op=target, rule=VIGOUR, on=target)
            return dmg - 1
        return dmg

    def ended(w: Work, ev: Event) -> None:
        if w.effects:
            w.effects = [e for e in w.effects if e.kind != VIGOUR_ROLLS]

    hooks.on("resolve_step_started", resolve)
    hooks.transform("would_shot_damage", reduce)
    hooks.transform("would_strike_damage", reduce)
    hooks.on("fight_ended", ended)
    hooks.on("shoot_ended", ended)


def _vigour_rolled(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    _set_vigour_rolls(w, frame.op, [*vigour_rolls(w, frame.op), *values], frame.get("source"))


on_roll(VIGOUR_ROLLS, _vigour_rolled)
register(
    "legionaries/faction_rule/nurgle_disgusting_vigour",
    install_disgusting_vigour,
    "Nurgle Legionaries: each Normal Dmg of 3+ inflicted on them is 1 less on a D6 of 5+.",
)


def install_mark_of_chaos(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Mark Of Chaos (package docstring): the roster-time choice (``Mark of Chaos``, declared
    in ``common``) that :func:`teams.legionaries.common.mark_of` reads; its effects are the
    five marks' faction rules and the marked halves of the ploys, so it installs nothing."""


register(
    "legionaries/faction_rule/mark_of_chaos",
    install_mark_of_chaos,
    "Each Legionary has a Mark of Chaos chosen with the roster (Undivided by default).",
)
