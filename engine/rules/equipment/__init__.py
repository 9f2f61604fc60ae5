"""Universal equipment (``rules/KT24.md`` 7.2): the eleven options, their selection and
pre-battle set-up, and one module per item.

Each player selects up to :data:`MAX_OPTIONS` options, each at most once (1.2 step 2,
secretly, then revealed), then players alternate setting up their pre-battle items one item
at a time, starting with the player with initiative (1.2 step 3). The two grenade options
are selected with their split (two smoke, two stun, or one of each; two frag, two krak, or
one of each), which is part of the option's name in the notation (:data:`SELECTIONS`).

Modules: :mod:`.selection` (the set-up steps), :mod:`.markers` (Ammo Cache, Comms Device,
Mines), :mod:`.grenades` (Utility and Explosive Grenades), :mod:`.terrain` (barricades,
razor wire, ladders, the portable barricade), :mod:`.breaching` (Breaching Charge),
:mod:`.placement` (setting up pre-battle items); built on the geometry: :mod:`.shapes` (the
items' shapes, the smoke area, a mine along a move) and :mod:`.restrictions` (where each
item may be set up, candidate spots for agents).
"""

from __future__ import annotations

__all__ = [
    "ITEMS",
    "ITEM_KINDS",
    "MAX_OPTIONS",
    "OPTIONS",
    "SELECTIONS",
    "grenade_uses",
    "install",
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


def install(hooks: object) -> None:
    """Subscribe every universal equipment module to a battle's hooks
    (:class:`engine.game.context.Hooks`): the set-up steps and each item's rules (an item a
    player did not select does nothing)."""
    from engine.rules.equipment import breaching, grenades, markers, selection, terrain

    selection.install(hooks)  # type: ignore[arg-type]
    terrain.install(hooks)  # type: ignore[arg-type]
    grenades.install(hooks)  # type: ignore[arg-type]
    markers.install(hooks)  # type: ignore[arg-type]
    breaching.install(hooks)  # type: ignore[arg-type]
