"""The killzone: shapely geometry for terrain, distances, visibility, cover, obscured and
movement (``rules/KT24.md`` sections 3.3, 4 and 9).

- :mod:`engine.geometry.model`: :class:`Killzone`, :class:`TerrainPart`, :class:`Placement`,
  layout loading and validation.
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
