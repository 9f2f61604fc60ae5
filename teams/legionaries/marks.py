"""The Marks of Chaos' faction rules (package docstring)."""

from __future__ import annotations

from typing import Any

from engine.dice.rules import WeaponRules, parse_weapon_rules
from engine.game.context import Hooks
from engine.game.work import Work
from engine.rules.registry import register
from teams.legionaries.common import (
    legionary,
    mark_of,
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
