"""The killzone: shapely geometry for terrain, distances, visibility, cover, obscured and
movement (``rules/KT24.md`` sections 3.3, 4 and 9).

- :mod:`engine.geometry.model`: :class:`Killzone`, :class:`TerrainPart`, :class:`Placement`,
  layout loading and validation.
- :mod:`engine.geometry.sight`: distances, visibility, control range, targeting lines, cover,
  obscured, valid targets, the Vantage rules, and the vectorised all-pairs query.
- :mod:`engine.geometry.movement`: the movement graph, shortest legal paths and their cost for
  Reposition, Dash, Fall Back and Charge, and candidate destinations for agents.
- :mod:`engine.geometry.render`: pictures of a killzone with operatives and sight lines.
- :mod:`engine.geometry.extra_terrain`: terrain features added to a layout as hashable values
  (:meth:`Killzone.with_terrain`).

The geometry is the bottom layer: it knows no rule module. The universal equipment's shapes,
placement restrictions, candidate spots and smoke area (7.2) are rules built on it
(:mod:`engine.rules.equipment.shapes`, :mod:`engine.rules.equipment.restrictions`).
"""

from engine.geometry.model import (
    DEFAULT_MODEL_HEIGHT,
    Killzone,
    KillzoneError,
    Objective,
    Placement,
    TerrainPart,
    TerrainType,
    load_killzone,
    shipped_killzones,
)

__all__ = [
    "DEFAULT_MODEL_HEIGHT",
    "Killzone",
    "KillzoneError",
    "Objective",
    "Placement",
    "TerrainPart",
    "TerrainType",
    "load_killzone",
    "shipped_killzones",
]
