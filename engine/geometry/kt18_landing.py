"""KT18 geometry of dangerous-terrain routes, landings after a fall and manholes
(``rules/KT18.md`` 10.4, 10.8, 11.3 Tunnels).

Pure geometry on the shared killzone (inches), next to :mod:`engine.geometry.kt18_terrain`
(which says where a model is and where it would fall):

- :func:`route_in_dangerous`: whether a move *moves into* dangerous terrain. The engine's
  reading of "moves into" (10.4): the straight centre line from the move's start to its end
  crosses a dangerous part whose top is the level of the start or of the end (as
  :func:`~engine.geometry.kt18_terrain.ground_along` counts difficult terrain), or the base
  ends in dangerous terrain. The movement graph has no nodes around a floor area of
  dangerous terrain (docs/rulings/kt18_sight.md), so the path over such an area is the
  straight line the engine tests.
- :func:`landing_spot`: where a fallen model is placed "as close as possible" to its landing
  point (10.8): the landing point itself when its base fits there, else the nearest point
  of a search in rings of 0.1" (up to :data:`MAX_SHIFT`) where the base stands on the same
  level, on the board, overlapping no other base and no part rising above that level.
- :func:`manholes_near`: the manholes within a distance of a base (11.3 Tunnels).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import shapely
from shapely.geometry import LineString, Point

from engine.geometry.kt18_terrain import categories, in_dangerous_terrain
from engine.geometry.model import Killzone, Placement, TerrainType

__all__ = [
    "MAX_SHIFT",
    "landing_spot",
    "level_under",
    "manholes_near",
    "route_in_dangerous",
]

MAX_SHIFT = 6.0
"""The furthest (inches) a fallen model is moved from its landing point to find room for its
base (bounds the search; a landing with no room within it keeps the landing point)."""

_TOL = 0.01
_STEP = 0.1
_ANGLES = 24


def route_in_dangerous(
    kz: Killzone, start: Placement, end: Placement, *, traps: bool = False
) -> bool:
    """Whether the move from ``start`` to ``end`` moves into dangerous terrain (module
    docstring; ``rules/KT18.md`` 10.4): the end is in it, or the centre line crosses a
    dangerous part (with ``traps``, a Vantage level above the floor too, 11.3 Traps) whose
    top is the start's or the end's level."""
    if in_dangerous_terrain(kz, end, traps=traps):
        return True
    if (start.x, start.y) == (end.x, end.y):
        return False
    cats = categories(kz)
    vantage = kz.flags[TerrainType.VANTAGE]
    line = LineString([(start.x, start.y), (end.x, end.y)])
    levels = (start.elevation, end.elevation)
    for i in kz.tree.query(line, predicate="intersects"):
        i = int(i)
        h = float(kz.heights[i])
        if not any(abs(h - lv) <= _TOL for lv in levels):
            continue
        dangerous = cats[i] == "dangerous" or (traps and bool(vantage[i]) and h > _TOL)
        if dangerous and line.intersection(kz.parts[i].polygon).length > _TOL:
            return True
    return False


def level_under(kz: Killzone, x: float, y: float, below: float) -> float:
    """The level a model falling at ``(x, y)`` from ``below`` inches lands on: the highest
    Vantage part under the point lower than ``below``, else the floor (0; as
    :func:`~engine.geometry.kt18_terrain.fall_landing`)."""
    level = 0.0
    vantage = kz.flags[TerrainType.VANTAGE]
    for i in kz.tree.query(Point(x, y), predicate="intersects"):
        i = int(i)
        h = float(kz.heights[i])
        if vantage[i] and level < h < below - _TOL:
            level = h
    return level


def _fits(
    kz: Killzone, p: Placement, level: float, above: float, others: Sequence[Placement]
) -> bool:
    r = p.radius
    if not (r - 1e-9 <= p.x <= kz.width - r + 1e-9 and r - 1e-9 <= p.y <= kz.depth - r + 1e-9):
        return False
    if abs(level_under(kz, p.x, p.y, above) - level) > _TOL:
        return False
    base = p.footprint()
    for i in kz.tree.query(base, predicate="intersects"):
        i = int(i)
        h = float(kz.heights[i])
        if h > level + _TOL and shapely.intersection(base, kz.parts[i].polygon).area > 1e-6:
            return False  # a part rising above the level: the base cannot stand there
    for o in others:
        if abs(o.elevation - level) <= 1.5 and math.hypot(o.x - p.x, o.y - p.y) < (
            r + o.radius - 1e-6
        ):
            return False
    return True


def landing_spot(
    kz: Killzone,
    p: Placement,
    point: tuple[float, float],
    level: float,
    others: Sequence[Placement],
) -> tuple[float, float]:
    """Where the model ``p`` (its base; ``p.elevation`` the level it fell from) is placed
    after landing at ``point`` on ``level`` (``rules/KT18.md`` 10.8; module docstring): the
    nearest point found where its base fits among ``others`` (the other models' placements),
    ``point`` itself when it fits or when nothing fits within :data:`MAX_SHIFT`."""
    x0, y0 = point
    above = p.elevation
    if _fits(kz, p.moved(x0, y0, level), level, above, others):
        return x0, y0
    steps = int(MAX_SHIFT / _STEP)
    for k in range(1, steps + 1):
        d = k * _STEP
        for j in range(_ANGLES):
            a = 2 * math.pi * j / _ANGLES
            x, y = round(x0 + d * math.cos(a), 3), round(y0 + d * math.sin(a), 3)
            if _fits(kz, p.moved(x, y, level), level, above, others):
                return x, y
    return x0, y0


def manholes_near(
    manholes: Sequence[tuple[float, float]], p: Placement, reach: float
) -> list[tuple[float, float]]:
    """The manholes (points, inches) within ``reach`` inches of the base ``p``, nearest first
    (``rules/KT18.md`` 11.3 Tunnels: within 1" of a manhole to enter; a manhole within 24" of
    the entry one to come out)."""
    found = [
        (math.hypot(m[0] - p.x, m[1] - p.y) - p.radius, m)
        for m in manholes
        if math.hypot(m[0] - p.x, m[1] - p.y) - p.radius <= reach + 1e-9
    ]
    return [m for _, m in sorted(found)]
