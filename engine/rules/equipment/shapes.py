"""The universal equipment's terrain features and markers on the killzone (rules
``rules/KT24.md`` 7.2): their shapes, their placement restrictions, deterministic candidate
placements for agents (in :mod:`engine.rules.equipment.restrictions`), and the smoke
grenade's area.

Shapes (:data:`SHAPES`) are the project's choice, roughly the size of the plastic pieces,
each a rectangle ``length`` x ``depth`` inches centred on the placement point, its length
along the x axis at angle 0 and turned anticlockwise by the placement angle (degrees):

========================  ========  =======  ======  ======================================
kind                      length    depth    height  terrain types
========================  ========  =======  ======  ======================================
``light_barricade``       3"        0.5"     1"      Light
``heavy_barricade``       4"        1"       2"      Heavy
``razor_wire``            4"        1"       1"      Exposed, Obstructing
``ladder``                1"        0.25"    3"      Insignificant, Exposed, Ladder
``portable_barricade``    3"        0.5"     1"      Light, Protective, Portable
========================  ========  =======  ======  ======================================

The barricades' feet (Insignificant + Exposed in 7.2) are not modelled: a barricade is one
part, its shield. A ladder is a part standing on the floor against the terrain it is placed
against (:data:`LADDER_AGAINST_TOUCH`); being Insignificant it never blocks a move or a line
of sight, and being Exposed it never intervenes.

Markers (Ammo Cache, Comms Device, Mines) are 20 mm across: "all other markers" than the
40 mm objective markers are 20 mm (4.8).
"""

from __future__ import annotations

import itertools
import math

import attrs
from shapely.geometry import Point, Polygon

from engine.geometry.extra_terrain import FeatureSpec, PartSpec
from engine.geometry.model import (
    MARKER_DIAMETER_MM,
    MM_PER_INCH,
    Killzone,
    Placement,
    TerrainType,
    quantise,
)
from engine.geometry.move_query import MovePath
from engine.geometry.sight import CONTROL_RANGE, marker_in_control_range

__all__ = [
    "ACCESS_POINT_DISTANCE",
    "CONNECTED_GAP",
    "DROP_ZONE_REACH",
    "EQUIPMENT_DISTANCE",
    "KINDS",
    "LADDER_ACCESS_POINT_DISTANCE",
    "LADDER_AGAINST_TOUCH",
    "LADDER_MIN_TERRAIN_HEIGHT",
    "MARKER_KINDS",
    "MINE_DISTANCE",
    "SHAPES",
    "SMOKE_RADIUS",
    "TERRAIN_KINDS",
    "EquipmentShape",
    "connected",
    "equipment_feature",
    "equipment_parts",
    "equipment_shape",
    "first_within_marker_range",
    "marker_disc",
    "wholly_in_smoke",
]


@attrs.frozen(slots=True)
class EquipmentShape:
    """The shape of an equipment terrain feature (the project's dimensions, module
    docstring).

    Attributes:
        label: the item's name in the rules (7.2).
        length, depth: the rectangle's sides (inches); length along x at angle 0.
        height: the part's height above the floor (inches).
        types: its terrain types.
    """

    label: str
    length: float
    depth: float
    height: float
    types: tuple[TerrainType, ...]


SHAPES: dict[str, EquipmentShape] = {
    "light_barricade": EquipmentShape("Light Barricade", 3.0, 0.5, 1.0, (TerrainType.LIGHT,)),
    "heavy_barricade": EquipmentShape("Heavy Barricade", 4.0, 1.0, 2.0, (TerrainType.HEAVY,)),
    "razor_wire": EquipmentShape(
        "Razor Wire", 4.0, 1.0, 1.0, (TerrainType.EXPOSED, TerrainType.OBSTRUCTING)
    ),
    "ladder": EquipmentShape(
        "Ladder",
        1.0,
        0.25,
        3.0,
        (TerrainType.INSIGNIFICANT, TerrainType.EXPOSED, TerrainType.LADDER),
    ),
    "portable_barricade": EquipmentShape(
        "Portable Barricade",
        3.0,
        0.5,
        1.0,
        (TerrainType.LIGHT, TerrainType.PROTECTIVE, TerrainType.PORTABLE),
    ),
}
"""Every equipment terrain kind's shape (module docstring)."""

TERRAIN_KINDS: tuple[str, ...] = tuple(SHAPES)
"""The equipment items that are terrain features (7.2)."""

MARKER_KINDS: tuple[str, ...] = ("ammo_cache", "comms_device", "mines")
"""The equipment items that are markers (7.2)."""

KINDS: tuple[str, ...] = TERRAIN_KINDS + MARKER_KINDS
"""Every kind :func:`equipment_placement_problem` checks."""

EQUIPMENT_DISTANCE = 2.0
"""Equipment terrain is set up more than 2" from other equipment terrain (7.2)."""

ACCESS_POINT_DISTANCE = 2.0
"""Barricades, razor wire and mines: more than 2" from access points and Accessible terrain
(7.2)."""

LADDER_ACCESS_POINT_DISTANCE = 1.0
"""Ladders: more than 1" from doors and access points (7.2)."""

LADDER_MIN_TERRAIN_HEIGHT = 2.0
"""Ladders are set up against terrain at least 2" tall (7.2)."""

LADDER_AGAINST_TOUCH = 0.02
"""A ladder stands against a part its footprint is within this distance of (inches): the
0.001" grid and rotated corners leave a hair's gap."""

MINE_DISTANCE = 2.0
"""Mines: more than 2" from other markers (7.2)."""

DROP_ZONE_REACH = 4.0
"""The Heavy Barricade is set up wholly within 4" of its player's drop zone (7.2)."""

SMOKE_RADIUS = 1.0
"""A smoke grenade's area: 1" horizontally from the centre of its marker (7.2)."""

_OVERLAP_AREA = 1e-6  # square inches: less is touching, not overlapping


def equipment_shape(kind: str) -> EquipmentShape:
    """The shape of equipment terrain ``kind`` (a key of :data:`SHAPES`).

    Raises:
        ValueError: for an unknown kind (naming the known ones).
    """
    shape = SHAPES.get(kind)
    if shape is None:
        raise ValueError(f"unknown equipment terrain {kind!r} (known: {', '.join(TERRAIN_KINDS)})")
    return shape


def _rectangle(
    x: float, y: float, angle: float, length: float, depth: float
) -> tuple[tuple[float, float], ...]:
    for name, value in (("x", x), ("y", y), ("angle", angle)):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise ValueError(f"equipment {name} must be a finite number, not {value!r}")
    rad = math.radians(angle)
    c, s = math.cos(rad), math.sin(rad)
    hl, hd = length / 2, depth / 2
    corners = ((-hl, -hd), (hl, -hd), (hl, hd), (-hl, hd), (-hl, -hd))
    return tuple((quantise(x + u * c - v * s), quantise(y + u * s + v * c)) for u, v in corners)


def equipment_parts(kind: str, x: float, y: float, angle: float = 0.0) -> tuple[PartSpec, ...]:
    """The parts of equipment terrain ``kind`` centred on ``(x, y)`` (inches), turned
    ``angle`` degrees anticlockwise from its length along x: hashable values (corners on the
    0.001" grid, a closed ring) the game state can keep (module docstring for the shapes).

    Raises:
        ValueError: an unknown kind, or a coordinate or angle that is not a finite number.
    """
    shape = equipment_shape(kind)
    ring = _rectangle(x, y, angle, shape.length, shape.depth)
    return (PartSpec(ring, shape.height, shape.types),)


def equipment_feature(
    kind: str, x: float, y: float, angle: float = 0.0, name: str | None = None
) -> FeatureSpec:
    """Equipment terrain ``kind`` at ``(x, y)`` turned ``angle`` degrees, as a feature for
    :meth:`engine.geometry.model.Killzone.with_terrain`.

    Args:
        kind: a key of :data:`SHAPES`.
        x, y: the centre (inches).
        angle: degrees anticlockwise.
        name: the feature's name, unique in the killzone (default: the item's label and the
            position, e.g. ``"Light Barricade at (3, 4) 90"``).

    Raises:
        ValueError: as :func:`equipment_parts`.
    """
    parts = equipment_parts(kind, x, y, angle)
    if name is None:
        name = f"{SHAPES[kind].label} at ({quantise(x):g}, {quantise(y):g}) {angle:g}"
    return FeatureSpec(name, parts, kind)


CONNECTED_GAP = 0.01
"""An operative is connected to a feature when its base is within this distance of it
(inches): touching, with room for the 0.001" position grid."""


def connected(placement: Placement, feature: FeatureSpec) -> bool:
    """Whether the operative's base touches the feature (7.2 Portable: a portable barricade
    gives cover only to an operative connected to it; Move with Barricade re-places it
    connected): the base is within :data:`CONNECTED_GAP` of one of its parts, at the same
    level (an operative above the floor is not connected to a feature on the floor)."""
    if placement.elevation > 1e-6:
        return False
    base = placement.footprint()
    return any(base.distance(p.shape()) <= CONNECTED_GAP for p in feature.parts)


def marker_disc(x: float, y: float, diameter_mm: float = MARKER_DIAMETER_MM) -> Polygon:
    """A marker's footprint: a disc of ``diameter_mm`` millimetres centred on ``(x, y)``
    (inches)."""
    return Point(x, y).buffer(diameter_mm / MM_PER_INCH / 2, quad_segs=16)


def wholly_in_smoke(placement: Placement, smoke: tuple[float, float, float]) -> bool:
    """Whether an operative is wholly within a smoke grenade's area (7.2 Smoke Grenade).

    The area is every point within 1" horizontally of the centre of the marker at
    ``smoke = (x, y, elevation)`` (inches), from the marker's elevation upwards without limit
    (nothing below it). The operative is the base: wholly within when its whole base is within
    1" of the marker's centre (centre distance + base radius <= 1") and the base is not below
    the marker's elevation.

    Args:
        placement: the operative.
        smoke: the smoke marker's centre and elevation (inches).
    """
    sx, sy, sz = (float(v) for v in smoke)
    if placement.elevation < sz - 1e-6:
        return False
    d = math.hypot(placement.x - sx, placement.y - sy)
    return d + placement.radius <= SMOKE_RADIUS + 1e-6


PATH_STEP = 0.05
"""Spacing (inches) of the positions along a move checked by
:func:`first_within_marker_range`."""


def first_within_marker_range(
    kz: Killzone,
    path: MovePath,
    position: tuple[float, float],
    diameter_mm: float = MARKER_DIAMETER_MM,
) -> Placement | None:
    """The first place along a move where a marker on the floor comes within the moving
    operative's control range (7.2 Mines: the mine goes off the first time it is within an
    operative's control range, also in the middle of a move), or ``None``.

    Positions every :data:`PATH_STEP` inches along each increment after the start (the start
    is not checked: a mine within control range there went off before) are tested with
    :func:`engine.geometry.sight.marker_in_control_range` (within 1" and visible; around
    walls on a close quarters killzone). Increments that keep farther than control range from
    the marker are skipped at once. An increment between levels (a climb, drop or jump) is at
    its start's elevation for its first half and at its end's for the second (the project's
    approximation of where the vertical part of it happens).

    Args:
        kz: the killzone (with its added terrain and hatchway state).
        path: the move (:func:`engine.geometry.movement.shortest_path` or
            :func:`~engine.geometry.movement.check_path`).
        position: the marker's centre (inches).
        diameter_mm: its diameter (20 mm for equipment markers).

    Returns:
        The operative's placement at the first such position.
    """
    mover = path.final
    mx, my = (float(v) for v in position)
    reach = CONTROL_RANGE + mover.radius + diameter_mm / MM_PER_INCH / 2 + 1e-6
    for (px, py, pz), (qx, qy, qz) in itertools.pairwise(path.points):
        if min(pz, qz) > reach:
            continue
        dx, dy = qx - px, qy - py
        length = math.hypot(dx, dy)
        t_near = 0.0
        if length > 0:
            t_near = min(1.0, max(0.0, ((mx - px) * dx + (my - py) * dy) / (length * length)))
        if math.hypot(px + t_near * dx - mx, py + t_near * dy - my) > reach:
            continue
        steps = max(1, math.ceil(length / PATH_STEP))
        for k in range(1, steps + 1):
            t = k / steps
            z = pz if pz == qz or t < 0.5 else qz
            here = mover.moved(px + t * dx, py + t * dy, z)
            if marker_in_control_range(kz, here, (mx, my), diameter_mm):
                return here
    return None
