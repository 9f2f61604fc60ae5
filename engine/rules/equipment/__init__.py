"""Universal equipment (``rules/KT24.md`` 7.2): the eleven options, their selection and
pre-battle set-up, and one module per item.

Each player selects up to :data:`MAX_OPTIONS` options, each at most once (1.2 step 2,
secretly, then revealed), then players alternate setting up their pre-battle items one item
at a time, starting with the player with initiative (1.2 step 3). The two grenade options
are selected with their split (two smoke, two stun, or one of each; two frag, two krak, or
one of each), which is part of the option's name in the notation (:data:`SELECTIONS`).

Modules: :mod:`.options` (the options and their items), :mod:`.selection` (the set-up
steps), :mod:`.markers` (Ammo Cache, Comms Device, Mines), :mod:`.grenades` (Utility and
Explosive Grenades), :mod:`.terrain` (barricades, razor wire, ladders, the portable
barricade), :mod:`.breaching` (Breaching Charge),
:mod:`.placement` (setting up pre-battle items); built on the geometry: :mod:`.shapes` (the
items' shapes, the smoke area, a mine along a move) and :mod:`.restrictions` (where each
item may be set up, candidate spots for agents).
"""

from __future__ import annotations

from engine.rules.equipment.options import (
    ITEM_KINDS,
    ITEMS,
    MAX_OPTIONS,
    OPTIONS,
    SELECTIONS,
    grenade_uses,
    option_of,
)

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
