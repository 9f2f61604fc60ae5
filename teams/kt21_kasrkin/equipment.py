"""The KT21 Kasrkin's equipment (``rules/KT21.md`` 1.2 step 6): each item's EP and limit
(:func:`engine.rules.kt21.equipment.register_equipment`, the 2021 catalogue's costs), and
the items the engine plays:

- **Frag Grenade** (2EP, once per kill team), **Krak Grenade** (3EP, once per kill team):
  the operative carrying it has the grenade's ranged weapon profile (Rng 6", Indirect,
  Limited...; the team file's ``weapons`` of the item).
- **Long-range Scope** (2EP): the carrier's hot-shot lasgun or hot-shot marksman rifle (every
  profile) gains No Cover for a shooting attack at a target more than 6" away once a critical
  hit is retained in its Roll Attack Dice step (the ``kt21_weapon_rules`` hook: the cover
  save is decided after the attack dice are retained, 10.1 step 4).

- **Foregrip** (1EP): in the carrier's Overwatch, its hot-shot lasgun's BS is not worsened
  by the Overwatch (a GUNNER's or SHARPSHOOTER's: any ranged weapon of its datacard); the
  ``would_change_hit`` hook gives back the Overwatch's 1.

Adrenaline Shot (1EP): :mod:`.adrenaline`; Stun Grenade (3EP) and Decoy Grenade (2EP):
:mod:`.grenades`.
"""

from __future__ import annotations

from typing import Any

from engine.dice.kt21_rules import Kt21Rule, Kt21WeaponRules
from engine.game.context import Hooks
from engine.game.work import Work
from engine.rules.kt21.equipment import carried, give_equipment_weapons, register_equipment
from engine.rules.kt21.shoot import Kt21ShootFrame
from engine.rules.registry import register, register_equipment_value

__all__ = [
    "SCOPED_WEAPONS",
    "SCOPE_RANGE",
    "install_foregrip",
    "install_frag_grenade",
    "install_krak_grenade",
    "install_long_range_scope",
]

FOREGRIP_ANY_WEAPON = ("GUNNER", "SHARPSHOOTER")
"""Keywords whose Foregrip serves any ranged weapon of their datacard."""
SCOPE_RANGE = 6.0
"""Long-range Scope: targets more than this far (inches, ⬟) from the shooter."""
SCOPED_WEAPONS = ("hot-shot lasgun", "hot-shot marksman rifle")
"""The weapons a Long-range Scope improves (any of their profiles)."""

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
register_equipment_value("kt21_kasrkin/equipment/frag_grenade", 3.0)
register(
    "kt21_kasrkin/equipment/krak_grenade",
    install_krak_grenade,
    "The operative carrying it has the krak grenade's ranged weapon (once per battle).",
)
register_equipment_value("kt21_kasrkin/equipment/krak_grenade", 3.5)


def install_long_range_scope(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Long-range Scope (module docstring)."""

    def hook(w: Work, rules: Kt21WeaponRules, *, op: str, weapon: str, **_: Any) -> Any:
        if w.ctx.owner.get(op) not in players or rules.has("No Cover"):
            return rules
        if not weapon.lower().startswith(SCOPED_WEAPONS):
            return rules
        if "Long-range Scope" not in carried(w, op):
            return rules
        f = next((f for f in reversed(w.stack) if isinstance(f, Kt21ShootFrame)), None)
        if f is None or f.shooter != op or not f.crits or f.idx >= len(f.targets):
            return rules
        shooter, target = w.op(op), w.op(f.targets[f.idx])
        if w.distance(w.place(shooter), w.place(target)) <= SCOPE_RANGE + 1e-6:
            return rules
        return Kt21WeaponRules((*rules.rules, Kt21Rule("No Cover")))

    hooks.transform("kt21_weapon_rules", hook)


register(
    "kt21_kasrkin/equipment/long_range_scope",
    install_long_range_scope,
    "Its carrier's hot-shot lasgun or marksman rifle gains No Cover against a target more "
    'than 6" away once a critical hit is retained.',
)
register_equipment_value("kt21_kasrkin/equipment/long_range_scope", 1.5)


def install_foregrip(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Foregrip (module docstring)."""

    def hook(w: Work, change: int, *, op: str, weapon: str, kind: str, **_: Any) -> int:
        if kind != "ranged" or w.ctx.owner.get(op) not in players:
            return change
        if "Foregrip" not in carried(w, op):
            return change
        f = next((f for f in reversed(w.stack) if isinstance(f, Kt21ShootFrame)), None)
        if f is None or not f.overwatch or f.shooter != op:
            return change
        card = w.ctx.datacards[op]
        on_card = weapon.lower().split(" (")[0] in {x.name.lower() for x in card.weapons}
        any_weapon = any(k in card.keywords for k in FOREGRIP_ANY_WEAPON)
        if weapon.lower().startswith("hot-shot lasgun") or (any_weapon and on_card):
            return change - 1
        return change

    hooks.transform("would_change_hit", hook)


register(
    "kt21_kasrkin/equipment/foregrip",
    install_foregrip,
    "In its Overwatch, its hot-shot lasgun (a Gunner's or Sharpshooter's: any ranged weapon "
    "of its card) keeps its BS.",
)
register_equipment_value("kt21_kasrkin/equipment/foregrip", 1.0)
