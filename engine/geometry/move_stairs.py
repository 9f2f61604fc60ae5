"""Stairs and slopes in the movement graph (``rules/KT21.md`` 7.4 and Designer's Commentary
16.14: an operative moves across stairs or an angled slope freely, without climbing;
``rules/KT24.md`` decision 7 carries the same principle over to KT24).

A stair part (:attr:`engine.geometry.model.TerrainPart.stairs`, layout field
``stairs = true``) leads from the killzone floor up to a Vantage part of its own height that
its footprint touches: that side is its **head**; the side of its footprint farthest from the
head is its **foot**. A ``stairs`` link is one straight increment between a point on the floor
and a point on that Vantage level whose centre line crosses the stair from its foot to its
head (entering it at the foot, leaving it over the head, never off its sides). It counts as
horizontal movement (no climb, no drop): its length is measured along the slope, the floor
and level stretches flat and the stretch over the stair as the hypotenuse of its horizontal
length and the stair's rise. KT24 rounds that length up like any increment (3.3), KT21
counts it as 7.3 does. A base may overlap the stair while it steps on or off it (its centre
is on the stair or on the ground either side); it never finishes on the stair (the stair
blocks the floor like any part taller than it, 9).

Used by the link classifier (:meth:`engine.geometry.move_links.LinkClassifier.classify`),
so the same links are in every ruleset's graph; a killzone without stairs is untouched (the
checks stop at an empty table).
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import attrs
import shapely
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from engine.geometry.layout import STAIRS_TOUCH
from engine.geometry.model import Killzone
from engine.geometry.move_values import (
    _GRID,
    _TOL,
    XY,
    Level,
    _bevel_buffer,
    _lerp,
    _Link,
    _pieces,
    _sub,
)


class StairGraph(Protocol):
    """What this module reads of a movement graph (the link classifier's attributes,
    :class:`engine.geometry.move_links.LinkClassifier`)."""

    @property
    def kz(self) -> Killzone: ...

    @property
    def radius(self) -> float: ...

    @property
    def levels(self) -> tuple[Level, ...]: ...

    def memo(self, kind: str, limit: int = 50_000) -> dict[Any, Any]: ...

    def _crossings(self, lvl: Level, a: XY, b: XY) -> int: ...


__all__ = ["Stair", "StairGraph", "stairs_by_level", "stairs_link", "stairs_near"]

_FOOT_TOL = 0.02
"""How far from the foot (inches) a centre line may enter the stair and still start at its
foot."""


@attrs.frozen(slots=True, eq=False)
class Stair:
    """A stair part as the graph uses it.

    Attributes:
        part: the part's index in the killzone.
        level: the index of the Vantage level its head touches.
        polygon: its footprint (inches).
        grown: the footprint grown by the base radius (prepared): where a base overlaps it.
        head: the part of its outline touching the level (inches).
        run: the farthest any point of it lies from its head (inches): its foot is there.
        rise: its height, the level's (inches).
    """

    part: int
    level: int
    polygon: BaseGeometry
    grown: BaseGeometry
    head: BaseGeometry
    run: float
    rise: float


def stairs_by_level(g: StairGraph) -> dict[int, tuple[Stair, ...]]:
    """The stair parts of ``g``'s killzone by the Vantage level each leads up to (empty for a
    killzone without stairs; computed once per graph)."""
    memo = g.memo("stairs", 4)
    known: dict[int, tuple[Stair, ...]] | None = memo.get("by_level")
    if known is not None:
        return known
    out: dict[int, list[Stair]] = {}
    for part in g.kz.parts:
        if not part.stairs:
            continue
        for lvl in g.levels[1:]:
            if abs(lvl.height - part.height) > 1e-6:
                continue
            if float(lvl.footprint.distance(part.polygon)) > STAIRS_TOUCH + _TOL:
                continue
            head = part.polygon.boundary.intersection(
                lvl.footprint.buffer(STAIRS_TOUCH + _TOL, join_style="mitre")
            )
            if head.is_empty:
                continue
            run = max(float(head.distance(Point(c))) for c in part.polygon.exterior.coords)
            grown = _bevel_buffer(part.polygon, g.radius + _GRID + _TOL)
            shapely.prepare(grown)
            out.setdefault(lvl.index, []).append(
                Stair(part.index, lvl.index, part.polygon, grown, head, run, lvl.height)
            )
            break
    known = {k: tuple(v) for k, v in out.items()}
    memo["by_level"] = known
    return known


def stairs_near(g: StairGraph, level: int, p: XY, reach: float) -> bool:
    """Whether a stair leading up to ``level`` lies within ``reach`` inches of ``p``."""
    pt = Point(p)
    return any(float(s.polygon.distance(pt)) <= reach for s in stairs_by_level(g).get(level, ()))


def stairs_link(g: StairGraph, la: int, a: XY, lb: int, b: XY) -> _Link | None:
    """The ``stairs`` link from ``a`` on level ``la`` to ``b`` on level ``lb`` (module
    docstring), or ``None`` when the line is not one (the other kinds are then tried).

    Args:
        g: the graph (its killzone, levels, base radius).
        la, lb: level indices (one the floor, the other a Vantage level with stairs).
        a, b: the centre's start and end (inches).
    """
    if la != 0 and lb != 0:
        return None
    level = lb if la == 0 else la
    stairs = stairs_by_level(g).get(level)
    if not stairs or a == b:
        return None
    low, high = (a, b) if la == 0 else (b, a)
    floor, lvl = g.levels[0], g.levels[level]
    if not shapely.intersects_xy(floor.passage_tol, low[0], low[1]):
        return None
    if not shapely.intersects_xy(lvl.passage_tol, high[0], high[1]):
        return None
    line = LineString([low, high])
    for stair in stairs:
        if not shapely.intersects(stair.polygon, line):
            continue
        pieces = _pieces(low, high, stair.polygon)
        if len(pieces) != 1:
            continue
        t0, t1 = pieces[0]
        if t0 <= 1e-9 or t1 >= 1 - 1e-9:
            continue  # the centre starts or ends on the stair
        entry, exit_ = _lerp(low, high, t0), _lerp(low, high, t1)
        if float(stair.head.distance(Point(entry))) < stair.run - _FOOT_TOL:
            continue  # onto the stair from its side, not its foot
        if not lvl.footprint_tol.covers(Point(exit_)):
            continue  # off the stair's side, not over its head
        on_level = _sub(low, high, t1, 1.0)
        if on_level is not None:
            if not lvl.footprint_tol.covers(on_level):
                continue
            rest = on_level.difference(stair.grown)
            if not (rest.is_empty or rest.length <= 1e-6 or lvl.passage_tol.covers(rest)):
                continue
        on_floor = _sub(low, high, 0.0, t0)
        if on_floor is not None:
            # The centre stays in the floor's passage region (so clear of other terrain)
            # except where the base steps onto the stair.
            rest = on_floor.difference(stair.grown)
            if not (rest.is_empty or rest.length <= 1e-6 or floor.passage_tol.covers(rest)):
                continue
        length = math.dist(low, high)
        on_stair = float(shapely.intersection(line, stair.polygon).length)
        along = length - on_stair + math.hypot(on_stair, stair.rise)
        crossings = g._crossings(floor, a, b)
        return _Link("stairs", along, crossings=crossings)
    return None
