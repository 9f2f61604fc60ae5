"""The universal equipment options and what each sets up (``rules/KT24.md`` 7.2): the names
the selection, the set-up and the item modules share (re-exported by
:mod:`engine.rules.equipment`)."""

from __future__ import annotations

__all__ = [
    "ITEMS",
    "ITEM_KINDS",
    "MAX_OPTIONS",
    "OPTIONS",
    "SELECTIONS",
    "grenade_uses",
    "option_of",
]

OPTIONS = (
    "Ammo Cache",
    "Razor Wire",
    "Comms Device",
    "Mines",
    "Light Barricades",
    "Heavy Barricade",
    "Ladders",
    "Breaching Charge",
    "Portable Barricade",
    "Utility Grenades",
    "Explosive Grenades",
)
"""The universal equipment options, in the order of the equipment sheet (7.2)."""

MAX_OPTIONS = 4
"""Options a player may select (Approved Ops, 7.2)."""

SELECTIONS = (
    "Ammo Cache",
    "Razor Wire",
    "Comms Device",
    "Mines",
    "Light Barricades",
    "Heavy Barricade",
    "Ladders",
    "Breaching Charge",
    "Portable Barricade",
    "Utility Grenades (2 smoke)",
    "Utility Grenades (2 stun)",
    "Utility Grenades (smoke and stun)",
    "Explosive Grenades (2 frag)",
    "Explosive Grenades (2 krak)",
    "Explosive Grenades (frag and krak)",
)
"""What a player may select: the options, the grenade options with their split."""

ITEMS = {
    "Ammo Cache": ("Ammo Cache",),
    "Razor Wire": ("Razor Wire",),
    "Comms Device": ("Comms Device",),
    "Mines": ("Mines",),
    "Light Barricades": ("Light Barricade", "Light Barricade"),
    "Heavy Barricade": ("Heavy Barricade",),
    "Ladders": ("Ladder", "Ladder"),
    "Portable Barricade": ("Portable Barricade",),
}
"""The pre-battle items each option sets up (the others set up nothing)."""

ITEM_KINDS = {
    "Ammo Cache": "ammo_cache",
    "Comms Device": "comms_device",
    "Mines": "mines",
    "Razor Wire": "razor_wire",
    "Light Barricade": "light_barricade",
    "Heavy Barricade": "heavy_barricade",
    "Ladder": "ladder",
    "Portable Barricade": "portable_barricade",
}
"""The :class:`~engine.game.tokens.Token` kind of each pre-battle item."""


def option_of(selection: str) -> str:
    """The option a selection belongs to (``"Utility Grenades (2 smoke)"`` -> ``"Utility
    Grenades"``)."""
    return selection.split(" (", 1)[0]


def grenade_uses(selection: str) -> dict[str, int]:
    """The uses of each grenade a grenade selection gives (``{"smoke": 1, "stun": 1}``);
    ``{}`` for any other selection."""
    inner = selection.partition(" (")[2].rstrip(")")
    if not inner:
        return {}
    if inner.startswith("2 "):
        return {inner[2:]: 2}
    a, _, b = inner.partition(" and ")
    return {a: 1, b: 1}
