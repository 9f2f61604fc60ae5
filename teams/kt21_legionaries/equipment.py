"""The KT21 Legionaries' equipment (``rules/KT21.md`` 1.2 step 6): each item's EP and limit
(:func:`engine.rules.kt21.equipment.register_equipment`, the 2021 catalogue's costs), and
the items the engine plays:

- **Frag Grenade** (2EP, once per kill team), **Krak Grenade** (3EP, once per kill team):
  the operative carrying it has the grenade's ranged weapon profile.

Not played (selectable, reported when selected): Aggression Stimulants (3EP, once), Warded
Armour (3EP, once), Suspensor System (3EP), Malign Scripture (2EP), Tainted Rounds (3EP,
once), Grisly Trophy (3EP, once).
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.rules.kt21.equipment import give_equipment_weapons, register_equipment
from engine.rules.registry import register

__all__ = ["install_frag_grenade", "install_krak_grenade"]

TEAM = "kt21_legionaries"
register_equipment(TEAM, "Aggression Stimulants", 3, once_per_team=True)
register_equipment(TEAM, "Warded Armour", 3, once_per_team=True)
register_equipment(TEAM, "Suspensor System", 3)
register_equipment(TEAM, "Frag Grenade", 2, once_per_team=True)
register_equipment(TEAM, "Krak Grenade", 3, once_per_team=True)
register_equipment(TEAM, "Malign Scripture", 2)
register_equipment(TEAM, "Tainted Rounds", 3, once_per_team=True)
register_equipment(TEAM, "Grisly Trophy", 3, once_per_team=True)


def install_frag_grenade(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Frag Grenade (module docstring): its weapon for the operative carrying it."""
    give_equipment_weapons(hooks, players, "Frag Grenade")


def install_krak_grenade(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Krak Grenade (module docstring): its weapon for the operative carrying it."""
    give_equipment_weapons(hooks, players, "Krak Grenade")


register(
    "kt21_legionaries/equipment/frag_grenade",
    install_frag_grenade,
    "The operative carrying it has the frag grenade's ranged weapon (once per battle).",
)
register(
    "kt21_legionaries/equipment/krak_grenade",
    install_krak_grenade,
    "The operative carrying it has the krak grenade's ranged weapon (once per battle).",
)
