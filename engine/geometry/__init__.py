"""The killzone: shapely geometry for terrain, distances, visibility, cover, obscured and
movement (``rules/KT24.md`` sections 3.3, 4 and 9).

- :mod:`engine.geometry.model`: :class:`Killzone`, :class:`TerrainPart`, :class:`Placement`,
  layout loading and validation (the values in :mod:`~engine.geometry.primitives`, the
  layout's checks and limits in :mod:`~engine.geometry.layout`).
- :mod:`engine.geometry.sight`: distances, visibility, control range, targeting lines, cover,
  obscured, valid targets, the Vantage rules, and the vectorised all-pairs query (distances
  in :mod:`~engine.geometry.distances`, the numpy core in :mod:`~engine.geometry.sight_lines`,
  the single-pair fast path in :mod:`~engine.geometry.sight_kernel`).
- :mod:`engine.geometry.movement`: the movement graph, shortest legal paths and their cost for
  Reposition, Dash, Fall Back and Charge, and candidate destinations for agents (its modules
  are listed there).
- :mod:`engine.geometry.render`: pictures of a killzone with operatives and sight lines (the
  legend in :mod:`~engine.geometry.render_legend`, the operatives file in
  :mod:`~engine.geometry.render_operatives`, label placement in
  :mod:`~engine.geometry.render_labels`, casualties, tokens and marker control in
  :mod:`~engine.geometry.render_marks`).
- :mod:`engine.geometry.extra_terrain`: terrain features added to a layout as hashable values
  (:meth:`Killzone.with_terrain`).

The geometry is the bottom layer: it imports no rule, game or team module, and its modules
import each other without a circle (``tests/test_geometry_layers.py``). The universal
equipment's shapes, placement restrictions, candidate spots and smoke area (7.2) are rules
built on it (:mod:`engine.rules.equipment.shapes`, :mod:`engine.rules.equipment.restrictions`).
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
