"""The KT21 Kasrkin's equipment (``rules/KT21.md`` 1.2 step 6): each item's EP and limit
(:func:`engine.rules.kt21.equipment.register_equipment`, the 2021 catalogue's costs), and
the items the engine plays:

- **Frag Grenade** (2EP, once per kill team), **Krak Grenade** (3EP, once per kill team):
  the operative carrying it has the grenade's ranged weapon profile (Rng 6", Indirect,
  Limited...; the team file's ``weapons`` of the item).

Not played (selectable, reported when selected): Adrenaline Shot (1EP), Long-range Scope
(2EP), Foregrip (1EP), Stun Grenade (3EP), Decoy Grenade (2EP).
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.rules.kt21.equipment import give_equipment_weapons, register_equipment
from engine.rules.registry import register

__all__ = ["install_frag_grenade", "install_krak_grenade"]

TEAM = "kt21_kasrkin"
register_equipment(TEAM, "Adrenaline Shot", 1)
register_equipment(TEAM, "Long-range Scope", 2)
register_equipment(TEAM, "Foregrip", 1)
register_equipment(TEAM, "Krak Grenade", 3, once_per_team=True)
register_equipment(TEAM, "Frag Grenade", 2, once_per_team=True)
register_equipment(TEAM, "Stun Grenade", 3)
register_equipment(TEAM, "Decoy Grenade", 2)


def install_frag_grenade(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Frag Grenade (module docstring): its weapon for the operative carrying it."""
    give_equipment_weapons(hooks, players, "Frag Grenade")


def install_krak_grenade(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Krak Grenade (module docstring): its weapon for the operative carrying it."""
    give_equipment_weapons(hooks, players, "Krak Grenade")


register(
    "kt21_kasrkin/equipment/frag_grenade",
    install_frag_grenade,
    "The operative carrying it has the frag grenade's ranged weapon (once per battle).",
)
register(
    "kt21_kasrkin/equipment/krak_grenade",
    install_krak_grenade,
    "The operative carrying it has the krak grenade's ranged weapon (once per battle).",
)
