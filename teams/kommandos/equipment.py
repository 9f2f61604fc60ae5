"""The Kommandos' team equipment (``rules/KT24.md`` 7.2), each in play once its player
selected it (``has_equipment``):

- **Choppas**: friendly KOMMANDO operatives other than the BOMB SQUIG and the GROT have the
  choppa (melee 3/3+/4/5); an operative whose datacard has a better choppa keeps its own.
- **Collapsible Stocks**: the slugga and shokka pistol of friendly KOMMANDO operatives lose
  their Range (through ``would_use_weapon_rules``, which target selection and the attack
  both read). The dataslate names a "Shokka Pistol"; our Comms Boy's
  weapon is called "Shokka": both names are matched.
- **Dynamite**: once per battle, one friendly KOMMANDO operative (not the BOMB SQUIG or the
  GROT) may shoot the dynamite (5/4+/4/5, Range 4", Blast 1", Heavy (Reposition only),
  Saturate); a use is counted when that Shoot ends, as for the universal grenades
  (``engine.rules.equipment.grenades``), and the weapon is refused afterwards.
- **Harpoon**: once per turning point, one friendly KOMMANDO operative (not the BOMB SQUIG or
  the GROT) may shoot the harpoon (4/4+/4/5, Range 8", Lethal 5+, Stun); counted and refused
  the same way, per turning point.
"""

from __future__ import annotations

from typing import Any

from engine.dice.rules import Range, WeaponRules
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.rules.equipment.selection import give_weapons, has_equipment
from engine.rules.registry import register, register_equipment_value
from teams.kommandos.common import is_kommando, is_kommando_boy

CHOPPAS = "Choppas"
COLLAPSIBLE_STOCKS = "Collapsible Stocks"
DYNAMITE = "Dynamite"
HARPOON = "Harpoon"
STOCK_WEAPONS = ("slugga", "shokka", "shokka pistol")


def _boy(w: Work, op: str) -> bool:
    return is_kommando_boy(w, op)


# -- Choppas -----------------------------------------------------------------------------------


def install_choppas(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Choppas (module docstring)."""
    give_weapons(hooks, players, CHOPPAS, who=_boy)


# -- Collapsible Stocks ------------------------------------------------------------------------


def _stocked(w: Work, op: str, weapon: str, players: tuple[str, ...]) -> bool:
    """``op`` is a friendly KOMMANDO operative of ``players`` whose player selected
    Collapsible Stocks, using a slugga or a shokka (pistol)."""
    if not op or weapon.split(" (")[0] not in STOCK_WEAPONS or not is_kommando(w, op):
        return False
    player = w.ctx.owner[op]
    return player in players and has_equipment(w, player, COLLAPSIBLE_STOCKS)


def _no_range(rules: WeaponRules) -> WeaponRules:
    return WeaponRules.of(tuple(r for r in rules if not isinstance(r, Range)))


def install_collapsible_stocks(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Collapsible Stocks (module docstring)."""

    def rules(w: Work, value: WeaponRules, **info: Any) -> WeaponRules:
        op = str(info.get("op", ""))
        if info.get("kind") != "ranged" or not op or not value.has(Range):
            return value
        if not w.pl(w.ctx.owner[op]).equipment:
            return value
        if not _stocked(w, op, str(info.get("weapon", "")), players):
            return value
        return _no_range(value)

    # (Target selection reads Range as this hook leaves it: engine.game.weapons.weapon_rules.)
    hooks.transform("would_use_weapon_rules", rules)


# -- Dynamite and Harpoon ----------------------------------------------------------------------


def _use_key(item: str, w: Work) -> str:
    """The player counter of ``item``'s uses: per battle for Dynamite, per turning point for
    the Harpoon."""
    return f"kommandos {item.lower()} used" + (f" tp{w.tp}" if item == HARPOON else "")


def _limited_item(item: str, weapon: str, how: str) -> Any:
    """An installer for a team weapon usable ``how`` often (Dynamite, Harpoon)."""

    def install(hooks: Hooks, players: tuple[str, ...]) -> None:
        give_weapons(hooks, players, item, who=_boy)

        def refuse(w: Work, value: Any, **info: Any) -> Any:
            o = info.get("op")
            if value is not None or info.get("weapon") != weapon:
                return value
            if not isinstance(o, OperativeState) or o.player not in players:
                return value
            if not has_equipment(w, o.player, item) or not _boy(w, o.id):
                return value
            if any(x.name.lower() == weapon for x in w.ctx.datacards[o.id].weapons):
                return value
            if w.count(o.player, _use_key(item, w)):
                return f"{item}: a friendly KOMMANDO operative can use it {how} (team equipment)"
            return value

        def ended(w: Work, ev: Event) -> None:
            if ev["weapon"] != weapon:
                return
            op = str(ev["op"])
            player = w.ctx.owner[op]
            if player in players and has_equipment(w, player, item):
                w.count(player, _use_key(item, w), add=1)

        hooks.transform("would_refuse_weapon", refuse)
        hooks.on("shoot_ended", ended)

    return install


install_dynamite = _limited_item(DYNAMITE, "dynamite", "once per battle")
"""Dynamite (module docstring)."""

install_harpoon = _limited_item(HARPOON, "harpoon", "once per turning point")
"""Harpoon (module docstring)."""


register(
    "kommandos/equipment/choppas",
    install_choppas,
    "Kommandos (not the squig or grot) have a choppa (melee 3/3+/4/5).",
)
register(
    "kommandos/equipment/collapsible_stocks",
    install_collapsible_stocks,
    "Kommandos' sluggas and shokka pistols lose their Range.",
)
register(
    "kommandos/equipment/dynamite",
    install_dynamite,
    'Once per battle, a Kommando (not the squig or grot) may shoot dynamite (Range 4", '
    'Blast 1", Saturate).',
)
register(
    "kommandos/equipment/harpoon",
    install_harpoon,
    'Once per TP, a Kommando (not the squig or grot) may shoot a harpoon (Range 8", Lethal '
    "5+, Stun).",
)
register_equipment_value("kommandos/equipment/choppas", 2.5)  # a better melee weapon for the fists
register_equipment_value("kommandos/equipment/collapsible_stocks", 2.0)
register_equipment_value("kommandos/equipment/dynamite", 2.0)
register_equipment_value("kommandos/equipment/harpoon", 3.0)
