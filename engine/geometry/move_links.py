"""The link classifier of the movement graph: whether a straight line between two positions
is one legal increment and of which kind (the values it works with, levels and links, are
:mod:`engine.geometry.move_values`) (rules ``rules/KT24.md`` 3.3, 4.6, 4.7, 9.3; the model is
described in :mod:`engine.geometry.movement`).
"""

from __future__ import annotations

import math
from typing import Any, cast

import attrs
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from engine.geometry.kt18_terrain import ground_along
from engine.geometry.kt21_sight import part_traits
from engine.geometry.model import Killzone, TerrainType
from engine.geometry.move_ramparts import rampart_traversable, ramparts_by_level
from engine.geometry.move_stairs import stairs_by_level, stairs_link
from engine.geometry.move_values import (
    _BLOCKED,
    _GRID,
    _TOL,
    CLIMB_MAX,
    CLIMB_RANGE,
    CONTROL_RANGE,
    JUMP_FREE_RISE,
    JUMP_MAX,
    XY,
    FloatArray,
    Level,
    MovementRules,
    _bevel_buffer,
    _describe,
    _first_t,
    _lerp,
    _Link,
    _pieces,
    _sub,
)

# -------------------------------------------------------------------------------------------
# The link classifier
# -------------------------------------------------------------------------------------------


class LinkClassifier:
    """The link classifier of :class:`~engine.geometry.move_graph.MoveGraph` (a base class:
    the graph provides the killzone, base radius, levels and caches it reads): whether a
    straight line between two positions is one legal increment, and of which kind."""

    __slots__ = ()

    kz: Killzone
    radius: float
    levels: tuple[Level, ...]
    _grown: dict[int | tuple[int, ...], BaseGeometry]
    _blocks_floor: NDArray[np.bool_]
    _board_tol: BaseGeometry

    def memo(self, kind: str, limit: int = 50_000) -> dict[Any, Any]:
        """A bounded dict of answers of ``kind`` kept on the graph (the graph's)."""
        raise NotImplementedError

    _ladders: tuple[tuple[int, frozenset[int]], ...]

    def _accessible_union(self, lvl: Level) -> BaseGeometry | None:
        if not lvl.accessible:
            return None
        return shapely.union_all([self.kz.parts[i].polygon for i in lvl.accessible])

    def level_at(self, x: float, y: float, elevation: float) -> Level | None:
        """The level at elevation ``elevation`` (inches) whose footprint covers ``(x, y)``:
        the floor at elevation 0; ``None`` if there is no such Vantage level."""
        if abs(elevation) <= 1e-6:
            return self.levels[0]
        pt = Point(x, y)
        for lvl in self.levels[1:]:
            if abs(lvl.height - elevation) <= 1e-6 and lvl.footprint_tol.covers(pt):
                return lvl
        return None

    def _crossings(self, lvl: Level, a: XY, b: XY) -> int:
        """Accessible parts the centre line ``a -> b`` enters on ``lvl`` (4.6): one per piece
        of the line inside a part, except the piece the line starts in when ``a`` is already
        strictly inside that part (:meth:`_crossings_many` for one line)."""
        if not lvl.accessible or a == b:
            return 0
        hits = self.kz.tree.query(LineString([a, b]), predicate="intersects")
        if not set(lvl.accessible).intersection(hits.tolist()):
            return 0
        return int(self._crossings_many(lvl, np.asarray([a]), np.asarray([b]))[0])

    def _crossings_many(self, lvl: Level, a: FloatArray, b: FloatArray) -> NDArray[np.int64]:
        """:meth:`_crossings` for the lines ``a[k] -> b[k]`` (arrays (n, 2), inches), in a few
        vectorised shapely calls per Accessible part: the pieces of a line inside a part are
        the parts of their intersection; a piece counts unless it is shorter than 1e-6", runs
        along the part's boundary only (its middle is not inside), or is the one the line
        starts in when ``a`` is strictly inside the part (more than 0.002" from its edge)."""
        n = a.shape[0]
        out = np.zeros(n, dtype=np.int64)
        if not lvl.accessible or n == 0:
            return out
        d = b - a
        d2 = d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]
        length = np.hypot(d[:, 0], d[:, 1])
        lines = cast(NDArray[np.object_], shapely.linestrings(np.stack([a, b], axis=1)))
        moving = d2 > 0
        for i in lvl.accessible:
            poly = self.kz.parts[i].polygon
            hit = np.flatnonzero(moving & shapely.intersects(lines, poly))
            if hit.size == 0:
                continue
            inter = shapely.intersection(lines[hit], poly)
            level1, idx1 = shapely.get_parts(inter, return_index=True)
            pieces, idx2 = shapely.get_parts(level1, return_index=True)
            if pieces.size == 0:
                continue
            row = hit[idx1[idx2]]
            coords, cidx = shapely.get_coordinates(pieces, return_index=True)
            if coords.size == 0:
                continue
            rc = row[cidx]
            t = ((coords[:, 0] - a[rc, 0]) * d[rc, 0] + (coords[:, 1] - a[rc, 1]) * d[rc, 1]) / d2[
                rc
            ]
            t0 = np.full(pieces.size, math.inf)
            t1 = np.full(pieces.size, -math.inf)
            np.minimum.at(t0, cidx, t)
            np.maximum.at(t1, cidx, t)
            ax, ay = a[hit, 0], a[hit, 1]
            start_inside = shapely.contains_xy(poly, ax, ay) & (
                shapely.distance(poly.exterior, shapely.points(ax, ay)) > _TOL
            )
            starts_in = np.zeros(n, dtype=bool)
            starts_in[hit] = start_inside
            tm = (t0 + t1) / 2
            mx = a[row, 0] + tm * (b[row, 0] - a[row, 0])
            my = a[row, 1] + tm * (b[row, 1] - a[row, 1])
            with np.errstate(invalid="ignore"):
                counted = (
                    np.isfinite(t0)
                    & ((t1 - t0) * length[row] > 1e-6)
                    & ~((t0 <= 1e-9) & starts_in[row])
                )
            mx, my = np.where(counted, mx, 0.0), np.where(counted, my, 0.0)
            counted &= shapely.contains_xy(poly, mx, my)
            np.add.at(out, row[counted], 1)
        return out

    # ---------------------------------------------------------------------------------------
    # The link classifier: is a -> b one legal straight increment, and of which kind?
    # ---------------------------------------------------------------------------------------

    def classify(self, la: int, a: XY, lb: int, b: XY, *, explain: bool = True) -> _Link | str:
        """The straight increment from ``a`` on level ``la`` to ``b`` on level ``lb``
        (horizontal positions in inches), ignoring operatives (module docstring).

        Returns:
            The link, or why it is not one (naming the rule; with ``explain=False`` just
            ``"blocked"``, which is faster).
        """
        A, B = self.levels[la], self.levels[lb]
        if la == lb:
            if a == b or A.passage_tol.covers(LineString([a, b])):
                return _Link("move", math.dist(a, b), crossings=self._crossings(A, a, b))
            if A.is_floor:
                return self._over(a, b, explain)
            return self._blocked_reason(A, a, b) if explain else _BLOCKED
        if stairs_by_level(self):
            stairs = stairs_link(self, la, a, lb, b)
            if stairs is not None:
                return stairs
        if not shapely.intersects_xy(A.passage_tol, a[0], a[1]):
            return f"the start ({a[0]:g}, {a[1]:g}) is not a position on that level"
        if not shapely.intersects_xy(B.passage_tol, b[0], b[1]):
            return self._end_reason(B, b) if explain else _BLOCKED
        h = math.dist(a, b)
        rise = B.height - A.height
        if rise > CLIMB_MAX + 1e-6:
            return (
                f'climbing {rise:g}" onto {self._level_name(B)} exceeds the 3" an '
                "operative can climb (KT24 3.3)"
            )
        # Portion on A (from a to where the line leaves A's footprint) and on B.
        t_exit = 0.0
        if not A.is_floor:
            pieces = _pieces(a, b, A.footprint_tol)
            t_exit = pieces[0][1] if pieces and pieces[0][0] <= 1e-9 else 0.0
            on_a = _sub(a, b, 0.0, t_exit)
            if on_a is not None and not self._covers_near(A, on_a, B if rise > 0 else None):
                return self._blocked_reason(A, a, _lerp(a, b, t_exit)) if explain else _BLOCKED
        t_entry = 1.0
        if not B.is_floor:
            pieces = _pieces(a, b, B.footprint_tol)
            t_entry = pieces[-1][0] if pieces and pieces[-1][1] >= 1 - 1e-9 else 1.0
            on_b = _sub(a, b, t_entry, 1.0)
            if on_b is not None and not self._covers_near(B, on_b, A if rise < 0 else None):
                return self._blocked_reason(B, _lerp(a, b, t_entry), b) if explain else _BLOCKED
        crossings = self._crossings(A, a, b) if A.is_floor else 0
        crossings += self._crossings(B, a, b) if B.is_floor else 0
        climb_start_ok = rise <= 1e-6 or (
            float(B.footprint.distance(Point(a))) <= self.radius + CLIMB_RANGE + _TOL
        )
        if A.is_floor:
            if not climb_start_ok:
                return (
                    f'a climb onto {self._level_name(B)} must start within 1" horizontally '
                    "of it (KT24 3.3)"
                )
            approach = _sub(a, b, 0.0, t_entry)
            if approach is not None:
                reason = self._approach_reason(A, B, approach, a, explain)
                if reason:
                    return reason
            ladder = self._ladder_climb(B.parts, a, b, self._grown_level(B), t_entry)
            return _Link("climb", h, climb=rise, crossings=crossings, ladder=ladder)
        gap = _sub(a, b, t_exit, t_entry)
        gap_len = 0.0 if gap is None else float(gap.length)
        if gap_len > JUMP_MAX + _TOL + (self.radius if B.is_floor else 0.0):
            return (
                f'a jump covers at most 4" horizontally from the edge (KT24 3.3); this one '
                f'covers {gap_len:.2f}"'
            )
        if gap is not None:
            over = self._tall_part(gap, A.height, exclude=A.parts + B.parts)
            if over is not None:
                return f"the jump passes through {_describe(self.kz, over)} (KT24 3.3)"
        if B.is_floor or rise < -1e-6:
            kind = "jump" if gap_len > _TOL and not B.is_floor else "drop"
            return _Link(kind, h, drop=-rise, crossings=crossings)
        # Level with or up onto another Vantage level.
        if gap_len > _TOL:
            if rise <= JUMP_FREE_RISE + 1e-6:
                return _Link("jump", h, crossings=crossings)
            return _Link("jump", h, climb=rise, crossings=crossings)
        if rise <= 1e-6:
            return _Link("move", h, crossings=crossings)
        if not climb_start_ok:
            return (
                f'a climb onto {self._level_name(B)} must start within 1" horizontally of it '
                "(KT24 3.3)"
            )
        ladder = self._ladder_climb(B.parts, a, b, self._grown_level(B), t_entry)
        return _Link("climb", h, climb=rise, crossings=crossings, ladder=ladder)

    def ruled_cost(
        self, rules: MovementRules, la: int, a: XY, lb: int, b: XY, link: _Link
    ) -> float | str:
        """What the increment ``link`` from ``a`` on level ``la`` to ``b`` on level ``lb``
        counts under ``rules`` when they are not KT24's (:meth:`MovementRules.increment_cost`;
        ``rules/KT21.md`` 7.3, 7.4), or why it is not a legal increment under them: the jump's
        gap (the part of the centre line between the two levels' footprints) and whether the
        parts an ``over`` link crosses are all Traversable
        (:func:`engine.geometry.kt21_sight.part_traits`) are measured here, kept on the graph
        by the increment's end points."""
        memo = self.memo("ruled", 200_000)
        key = (rules, la, a, lb, b, link)
        known: float | str | None = memo.get(key)
        if known is not None:
            return known
        gap = 0.0
        traversable = False
        if link.kind == "rampart":
            level = lb if la == 0 else la
            line = LineString([a, b])
            crossed = [
                i
                for i in ramparts_by_level(self).get(level, ())
                if shapely.relate_pattern(line, self.kz.parts[i].polygon, "T********")
            ]
            traversable = all(rampart_traversable(self, i) for i in crossed)
            known = memo[key] = rules.rampart_cost(
                link, level=self.levels[level].height, traversable=traversable, up=la == 0
            )
            return known
        if link.kind == "jump":
            A, B = self.levels[la], self.levels[lb]
            t0, t1 = 0.0, 1.0
            if not A.is_floor:
                pieces = _pieces(a, b, A.footprint)
                t0 = pieces[0][1] if pieces and pieces[0][0] <= 1e-9 else 0.0
            if not B.is_floor:
                pieces = _pieces(a, b, B.footprint)
                t1 = pieces[-1][0] if pieces and pieces[-1][1] >= 1 - 1e-9 else 1.0
            gap = max(0.0, t1 - t0) * math.dist(a, b)
        elif link.kind == "over":
            crossed = self._floor_crossed(LineString([a, b]), a)
            traversable = bool(crossed) and all(
                "Traversable" in part_traits(self.kz, i) for i in crossed
            )
        top = self.levels[lb].height if link.kind != "over" else link.climb
        rough = 0.0
        if rules.impassable or rules.rough_factor != 1.0:
            refused, rough = ground_along(
                self.kz,
                self.radius,
                a,
                self.levels[la].height,
                b,
                self.levels[lb].height,
                impassable=rules.impassable,
            )
            if refused:
                known = memo[key] = refused
                return known
        known = memo[key] = rules.increment_cost(
            link, gap=gap, traversable=traversable, top=top, rough=rough
        )
        return known

    def _ladder_climb(
        self, parts: tuple[int, ...], a: XY, b: XY, grown: BaseGeometry, t_on: float
    ) -> bool:
        """Whether the climb of the centre line ``a -> b`` up ``parts`` uses a ladder (7.2):
        a Ladder part stands against the feature of one of ``parts`` and lies within control
        range (1") of the base for the whole climb, from where the base first touches the
        terrain (the line enters ``grown``, the parts grown by the base radius) to where the
        centre is over it (parameter ``t_on``). The ladder is a convex footprint, so checking
        both ends checks the whole climb. The ladder's visibility is not checked (it stands
        against the terrain being climbed, next to the base)."""
        polys = self._ladders_near(parts, a, b)
        if not polys:
            return False
        pieces = _pieces(a, b, grown)
        t_touch = pieces[0][0] if pieces else t_on
        ends = (Point(_lerp(a, b, min(t_touch, t_on))), Point(_lerp(a, b, t_on)))
        reach = self.radius + CONTROL_RANGE + _TOL
        return any(all(float(poly.distance(p)) <= reach for p in ends) for poly in polys)

    def _ladders_near(self, parts: tuple[int, ...], a: XY, b: XY) -> list[BaseGeometry]:
        """The footprints of the ladders standing against the features of ``parts`` whose
        bounding boxes, grown by control range, meet the segment's (a quick first test)."""
        if not self._ladders:
            return []
        features = {self.kz.parts[i].feature for i in parts}
        reach = self.radius + CONTROL_RANGE + _TOL
        lo_x, hi_x = min(a[0], b[0]) - reach, max(a[0], b[0]) + reach
        lo_y, hi_y = min(a[1], b[1]) - reach, max(a[1], b[1]) + reach
        out: list[BaseGeometry] = []
        for ladder, against in self._ladders:
            if features.isdisjoint(against):
                continue
            poly = self.kz.parts[ladder].polygon
            x0, y0, x1, y1 = poly.bounds
            if x0 <= hi_x and x1 >= lo_x and y0 <= hi_y and y1 >= lo_y:
                out.append(poly)
        return out

    def _covers_near(self, lvl: Level, seg: LineString, higher: Level | None) -> bool:
        """Whether the centre line ``seg`` lies in ``lvl``'s passage region, except within a
        base's radius of the ``higher`` Vantage level being climbed onto or dropped from."""
        if lvl.passage_tol.covers(seg):
            return True
        if higher is None or higher.is_floor:
            return False
        rest = seg.difference(self._grown_level(higher))
        return bool(rest.is_empty or rest.length <= 1e-6 or lvl.passage_tol.covers(rest))

    def _level_name(self, lvl: Level) -> str:
        if lvl.is_floor:
            return "the killzone floor"
        return f"Vantage terrain {self.kz.features[self.kz.parts[lvl.parts[0]].feature]!r}"

    def _tall_part(self, seg: LineString, height: float, exclude: tuple[int, ...]) -> int | None:
        """The first non-passable part taller than ``height`` whose footprint's interior the
        centre line ``seg`` passes through (excluding ``exclude``), or ``None``."""
        a = Point(seg.coords[0])
        best: tuple[float, int] | None = None
        for i in self.kz.tree.query(seg, predicate="intersects"):
            i = int(i)
            if i in exclude or not self._blocks_floor[i]:
                continue
            if self.kz.parts[i].height <= height + 1e-6:
                continue
            poly = self.kz.parts[i].polygon
            if not shapely.relate_pattern(seg, poly, "T********"):
                continue  # touches an edge or a corner only
            d = float(a.distance(poly))
            if best is None or d < best[0]:
                best = (d, i)
        return None if best is None else best[1]

    def _approach_reason(
        self, A: Level, B: Level, approach: LineString, a: XY, explain: bool
    ) -> str | None:
        """Why the floor part of a climb (``approach``, ending at B's edge) is illegal."""
        near_b = self._grown_level(B)
        rest = approach.difference(near_b)
        if not rest.is_empty and rest.length > 1e-6 and not A.passage_tol.covers(rest):
            if not explain:
                return _BLOCKED
            return self._blocked_reason(A, a, cast(XY, tuple(approach.coords[-1])))
        # The centre line itself must not pass through other terrain on the way.
        p0 = cast(XY, tuple(approach.coords[0]))
        p1 = cast(XY, tuple(approach.coords[-1]))
        shorter = _sub(p0, p1, 0.0, max(0.0, 1 - 1e-4 / max(approach.length, 1e-9)))
        if shorter is not None:
            hit = self._tall_part(shorter, A.height, exclude=B.parts)
            if hit is not None:
                return f"the climb passes through {_describe(self.kz, hit)} (KT24 3.3)"
        return None

    def _grown_level(self, lvl: Level) -> BaseGeometry:
        """A Vantage level's footprint grown by the base radius (cached)."""
        geom = self._grown.get(-1 - lvl.index)
        if geom is None:
            geom = _bevel_buffer(lvl.footprint, self.radius + _GRID + _TOL)
            shapely.prepare(geom)
            self._grown[-1 - lvl.index] = geom
        return geom

    def _grown_part(self, i: int) -> BaseGeometry:
        """Part ``i``'s footprint grown by the base radius (cached)."""
        geom = self._grown.get(i)
        if geom is None:
            geom = _bevel_buffer(self.kz.parts[i].polygon, self.radius + _GRID + _TOL)
            shapely.prepare(geom)
            self._grown[i] = geom
        return geom

    def _over(self, a: XY, b: XY, explain: bool = True) -> _Link | str:
        """Climbing over low terrain on the floor in one increment (3.3)."""
        floor = self.levels[0]
        seg = LineString([a, b])
        if not self._board_tol.covers(seg):
            return "path leaves the board: no base may cross the killzone edge (KT24 3.3)"
        if not shapely.intersects_xy(floor.passage_tol, b[0], b[1]):
            if not explain:
                return _BLOCKED
            for i in self.kz.parts_near(Point(b)):
                if self.kz.has_type(int(i), TerrainType.VANTAGE):
                    return (
                        f"the increment ends inside {_describe(self.kz, int(i))} on the floor; "
                        "give (x, y, elevation) to climb onto it (KT24 3.3)"
                    )
            return self._end_reason(floor, b)
        crossed = self._floor_crossed(seg, a)
        if not crossed:
            return self._blocked_reason(floor, a, b) if explain else _BLOCKED
        pa, pb = Point(a), Point(b)
        for i in crossed:
            types = self.kz.part_types(i)
            if TerrainType.WALL in types:
                return (
                    f"path crosses {_describe(self.kz, i)}: Wall terrain can never be moved "
                    "through (KT24 9.3)"
                )
            height = self.kz.parts[i].height
            if height > CLIMB_MAX + 1e-6:
                return (
                    f'path crosses {_describe(self.kz, i)} ({height:g}" high: an operative '
                    'cannot climb more than 3", KT24 3.3)'
                )
        polys = [self.kz.parts[i].polygon for i in crossed]
        union = polys[0] if len(polys) == 1 else shapely.union_all(polys)
        if len(polys) > 1 and len(shapely.get_parts(union)) > 1:
            return (
                f"path crosses {_describe(self.kz, crossed[0])} and other terrain in one "
                "increment: climb over one obstacle per straight increment (KT24 3.3)"
            )
        reach = self.radius + CLIMB_RANGE + _TOL
        if union.distance(pa) > reach:
            return (
                f'path crosses {_describe(self.kz, crossed[0])}: a climb must start within 1" '
                "horizontally of the terrain (KT24 3.3)"
            )
        if union.distance(pb) > reach:
            return (
                f"path crosses {_describe(self.kz, crossed[0])}: after climbing over it the "
                'operative must drop within 1" of it (KT24 3.3)'
            )
        grown = self._grown_parts(crossed)
        rest = seg.difference(grown)
        if not rest.is_empty and rest.length > 1e-6 and not floor.passage_tol.covers(rest):
            return self._blocked_reason_geom(floor, rest, a) if explain else _BLOCKED
        height = max(self.kz.parts[i].height for i in crossed)
        obstructing = len(
            {
                self.kz.parts[i].feature
                for i in crossed
                if self.kz.has_type(i, TerrainType.OBSTRUCTING)
            }
        )
        ladder = self._over_ladder(crossed, a, b, grown)
        return _Link(
            "over",
            math.dist(a, b),
            climb=height,
            drop=height,
            crossings=self._crossings(floor, a, b),
            obstructing=obstructing,
            ladder=ladder,
        )

    def _floor_crossed(self, seg: LineString, a: XY) -> list[int]:
        """The parts blocking the floor whose interior the centre line ``seg`` (from ``a``)
        crosses, nearest to ``a`` first (ties: by index)."""
        crossed: list[int] = []
        for i in sorted(int(i) for i in self.kz.tree.query(seg, predicate="intersects")):
            if self._blocks_floor[i] and shapely.relate_pattern(
                seg, self.kz.parts[i].polygon, "T********"
            ):
                crossed.append(i)
        pa = Point(a)
        # Name the first offending part along the line.
        crossed.sort(key=lambda i: pa.distance(self.kz.parts[i].polygon))
        return crossed

    def _grown_parts(self, crossed: list[int]) -> BaseGeometry:
        """The parts ``crossed`` grown by the base radius, as one geometry (cached by the
        list, in its order)."""
        if len(crossed) == 1:
            return self._grown_part(crossed[0])
        key = tuple(crossed)
        geom = self._grown.get(key)
        if geom is None:
            geom = self._grown[key] = shapely.union_all([self._grown_part(i) for i in crossed])
        return geom

    def _over_ladder(self, crossed: list[int], a: XY, b: XY, grown: BaseGeometry | None) -> bool:
        """Whether the climb over ``crossed`` along ``a -> b`` uses a ladder (7.2,
        :meth:`_ladder_climb`); ``grown`` is :meth:`_grown_parts` of them (``None``: made
        here when needed)."""
        if not self._ladders_near(tuple(crossed), a, b):
            return False
        t_on = min(
            (t0 for i in crossed for t0, _ in _pieces(a, b, self.kz.parts[i].polygon)),
            default=0.0,
        )
        if grown is None:
            grown = self._grown_parts(crossed)
        return self._ladder_climb(tuple(crossed), a, b, grown, t_on)

    def _over_ladders(
        self, crossed: tuple[int, ...], pa: FloatArray, pb: FloatArray
    ) -> NDArray[np.bool_]:
        """:meth:`_over_ladder` of the lines ``pa[k] -> pb[k]`` (arrays (n, 2), inches, no
        line a point) that cross the interiors of the floor blockers ``crossed`` (in the
        order :meth:`_floor_crossed` gives) and no other's, in a few vectorised calls: the
        same GEOS operations and the same arithmetic as :func:`_pieces` and
        :meth:`_ladder_climb`, so the same answers."""
        n = pa.shape[0]
        out = np.zeros(n, dtype=bool)
        features = {self.kz.parts[i].feature for i in crossed}
        polys = [
            self.kz.parts[i].polygon
            for i, against in self._ladders
            if not features.isdisjoint(against)
        ]
        if not polys or n == 0:
            return out
        reach = self.radius + CONTROL_RANGE + _TOL
        lo, hi = np.minimum(pa, pb) - reach, np.maximum(pa, pb) + reach
        near = np.zeros((len(polys), n), dtype=bool)
        for j, poly in enumerate(polys):  # the bounding-box test of _ladders_near
            x0, y0, x1, y1 = poly.bounds
            near[j] = (x0 <= hi[:, 0]) & (x1 >= lo[:, 0]) & (y0 <= hi[:, 1]) & (y1 >= lo[:, 1])
        rows = np.flatnonzero(near.any(axis=0))
        if not rows.size:
            return out
        a, b = pa[rows], pb[rows]
        lines = cast(NDArray[np.object_], shapely.linestrings(np.stack([a, b], axis=1)))
        # Both points tested lie on the line: a line farther than reach from every ladder
        # (beyond float noise) has no ladder within reach of them.
        for j, poly in enumerate(polys):
            near[j, rows] &= np.asarray(shapely.distance(poly, lines), dtype=float) <= reach + 1e-9
        keep = near[:, rows].any(axis=0)
        rows, a, b, lines = rows[keep], a[keep], b[keep], lines[keep]
        if not rows.size:
            return out
        t_on = np.full(rows.size, math.inf)
        for i in crossed:
            t_on = np.minimum(t_on, _first_t(lines, a, b, self.kz.parts[i].polygon, math.inf))
        t_on = np.where(np.isinf(t_on), 0.0, t_on)
        t_touch = _first_t(lines, a, b, self._grown_parts(list(crossed)), math.nan)
        t_touch = np.where(np.isnan(t_touch), t_on, t_touch)
        d = b - a
        t_in = np.minimum(t_touch, t_on)[:, None]
        first = shapely.points(a + t_in * d)
        last = shapely.points(a + t_on[:, None] * d)
        ok = np.zeros(rows.size, dtype=bool)
        for j, poly in enumerate(polys):
            ok |= (
                near[j, rows]
                & (np.asarray(shapely.distance(poly, first), dtype=float) <= reach)
                & (np.asarray(shapely.distance(poly, last), dtype=float) <= reach)
            )
        out[rows] = ok
        return out

    def over_ladder_flags(self, part: int, pa: FloatArray, pb: FloatArray) -> NDArray[np.bool_]:
        """The ladder flag (7.2) :meth:`classify` gives the ``over`` links ``pa[k] -> pb[k]``
        (arrays (n, 2), inches) that cross the interior of the floor part ``part``
        (:meth:`_over_ladders`, the lines grouped by the blockers they cross)."""
        n = pa.shape[0]
        lines = cast(NDArray[np.object_], shapely.linestrings(np.stack([pa, pb], axis=1)))
        crossed: list[list[int]] = [[part] for _ in range(n)]
        li, pi = self.kz.tree.query(lines, predicate="intersects")
        pick = (pi != part) & self._blocks_floor[pi]
        li, pi = li[pick], pi[pick]
        if li.size:
            polys = np.asarray([self.kz.parts[int(i)].polygon for i in pi], dtype=object)
            hit = np.asarray(shapely.relate_pattern(lines[li], polys, "T********"), dtype=bool)
            for k, i in zip(li[hit].tolist(), pi[hit].tolist(), strict=True):
                crossed[k].append(i)
        groups: dict[tuple[int, ...], list[int]] = {}
        for k, parts in enumerate(crossed):
            if len(parts) > 1:  # in the order of _floor_crossed: by index, then distance
                pa_k = shapely.points(pa[k])
                parts.sort()
                dist = [float(shapely.distance(pa_k, self.kz.parts[i].polygon)) for i in parts]
                parts = [i for _, i in sorted(zip(dist, parts, strict=True), key=lambda t: t[0])]
            groups.setdefault(tuple(parts), []).append(k)
        flags = np.zeros(n, dtype=bool)
        for key in sorted(groups):
            rows = np.asarray(groups[key], dtype=np.int64)
            flags[rows] = self._over_ladders(key, pa[rows], pb[rows])
        return flags

    def ladder_again(self, link: _Link, lb: int, a: XY, b: XY) -> _Link:
        """``link`` from ``a`` to ``b`` on level ``lb`` (a link of another state of this
        layout whose increment nothing changed around but the ladders, 7.2) with its ladder
        flag as :meth:`classify` sets it here: an ``over`` link's by the parts it crosses, a
        ``climb``'s by the level it climbs onto; every other link is unchanged."""
        if link.kind == "over":
            ladder = self._over_ladder(self._floor_crossed(LineString([a, b]), a), a, b, None)
        elif link.kind == "climb":
            B = self.levels[lb]
            ladder = False
            if self._ladders_near(B.parts, a, b):
                pieces = _pieces(a, b, B.footprint_tol)
                t_entry = pieces[-1][0] if pieces and pieces[-1][1] >= 1 - 1e-9 else 1.0
                ladder = self._ladder_climb(B.parts, a, b, self._grown_level(B), t_entry)
        else:
            return link
        return link if ladder == link.ladder else attrs.evolve(link, ladder=ladder)

    def _blocked_reason(self, lvl: Level, a: XY, b: XY) -> str:
        return self._blocked_reason_geom(lvl, LineString([a, b]) if a != b else Point(a), a)

    def _blocked_reason_geom(self, lvl: Level, geom: BaseGeometry, a: XY) -> str:
        """Why the centre cannot pass along ``geom`` on ``lvl`` (naming terrain and rule)."""
        if not self._board_tol.covers(geom):
            return "path leaves the board: no base may cross the killzone edge (KT24 3.3)"
        if not lvl.is_floor and not lvl.footprint_tol.covers(geom):
            return (
                f"path leaves {self._level_name(lvl)} without climbing down, dropping or "
                "jumping (KT24 3.3)"
            )
        sweep = geom.buffer(self.radius)
        best: tuple[float, int] | None = None
        for i in self.kz.tree.query(sweep, predicate="intersects"):
            i = int(i)
            if i not in lvl.blockers:
                continue
            poly = self.kz.parts[i].polygon
            if sweep.intersection(poly).area <= 1e-6:
                continue
            d = float(Point(a).distance(poly))
            if best is None or d < best[0]:
                best = (d, i)
        if best is not None:
            i = best[1]
            types = self.kz.part_types(i)
            if TerrainType.WALL in types:
                return (
                    f"path crosses {_describe(self.kz, i)}: Wall terrain can never be moved "
                    "through (KT24 9.3)"
                )
            return (
                f"path crosses {_describe(self.kz, i)}: operatives cannot move through "
                "terrain, only around it, over it (climbing) or off it (KT24 3.3)"
            )
        return "path is blocked by terrain (KT24 3.3)"

    def _placement_reason(self, lvl: Level, p: XY, subject: str = "the destination base") -> str:
        """Why a base centred on ``p`` cannot stand on ``lvl`` (without the rule tag)."""
        x, y = p
        r = self.radius
        if min(x - r, y - r, self.kz.width - x - r, self.kz.depth - y - r) < -_TOL:
            return f"{subject} is not wholly on the board"
        if not lvl.is_floor and not shapely.intersects_xy(lvl.footprint_tol, x, y):
            return f"{subject} is not over {self._level_name(lvl)}"
        base = Point(p).buffer(r - _TOL)
        for i in self.kz.parts_near(base):
            i = int(i)
            if i in lvl.blockers:
                return (
                    f"{subject} overlaps {_describe(self.kz, i)}: an operative must be where it "
                    "can be placed"
                )
        return f"{subject} is not where an operative can be placed"

    def _end_reason(self, lvl: Level, p: XY) -> str:
        """Why a base centred on ``p`` cannot stand on ``lvl``."""
        return self._blocked_reason_geom(lvl, Point(p), p)
