"""The levels and nodes of a movement graph (rules ``rules/KT24.md`` 3.3, 4.7, 7.2, 9.3):
each level's regions (:func:`_make_level`), the nodes at reflex corners and portals
(:class:`_Builder`), the ladders and what they stand against (:func:`_ladders`), and what a
graph being derived shares with the graph it comes from (:class:`_Shared`). The model is
described in :mod:`engine.geometry.movement`; :meth:`engine.geometry.move_graph.MoveGraph.
build` puts them together.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any, cast

import attrs
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from engine.geometry.model import Killzone, TerrainType, quantise
from engine.geometry.move_base import GraphBase
from engine.geometry.move_values import (
    _GRID,
    _MITRE_LIMIT,
    _PORTAL_GAP,
    _PORTAL_INSET,
    _PORTAL_SPACING,
    _SOLID_INSET,
    _TOL,
    LADDER_TOUCH,
    XY,
    FloatArray,
    Level,
    _bevel_buffer,
)


def _reflex_vertices(region: BaseGeometry) -> list[XY]:
    """Corners of ``region`` where its interior angle exceeds 180 degrees (the nodes of a
    visibility graph)."""
    out: list[XY] = []
    for poly in shapely.get_parts(shapely.orient_polygons(region)):
        if not isinstance(poly, Polygon):
            continue
        for ring in (poly.exterior, *poly.interiors):
            c = np.asarray(ring.coords)[:-1]
            if len(c) < 3:
                continue
            prev = np.roll(c, 1, axis=0)
            nxt = np.roll(c, -1, axis=0)
            e0 = c - prev
            e1 = nxt - c
            cross = e0[:, 0] * e1[:, 1] - e0[:, 1] * e1[:, 0]
            for k in np.nonzero(cross < -1e-12)[0]:
                out.append((float(c[k, 0]), float(c[k, 1])))
    return out


def _portals(poly: BaseGeometry) -> list[tuple[XY, XY]]:
    """Points every inch (at most) around the exterior of ``poly`` with their outward unit
    normals."""
    out: list[tuple[XY, XY]] = []
    for part in shapely.get_parts(shapely.orient_polygons(poly)):
        if not isinstance(part, Polygon):
            continue
        c = np.asarray(part.exterior.coords)[:-1]
        n = len(c)
        edges = np.roll(c, -1, axis=0) - c
        lengths = np.hypot(edges[:, 0], edges[:, 1])
        # CCW exterior: the outward normal of edge (dx, dy) is (dy, -dx).
        normals = (
            np.stack([edges[:, 1], -edges[:, 0]], axis=1) / np.maximum(lengths, 1e-12)[:, None]
        )
        for k in range(n):
            if lengths[k] <= 1e-9:
                continue
            bis = normals[k] + normals[k - 1]
            norm = math.hypot(bis[0], bis[1])
            if norm > 1e-9:
                out.append(((float(c[k, 0]), float(c[k, 1])), (bis[0] / norm, bis[1] / norm)))
            steps = max(1, math.ceil(lengths[k] / _PORTAL_SPACING - 1e-9))
            for s in range(1, steps):
                p = c[k] + edges[k] * (s / steps)
                out.append(((float(p[0]), float(p[1])), (normals[k][0], normals[k][1])))
    return out


def _ladders(kz: Killzone) -> tuple[tuple[int, frozenset[int]], ...]:
    """Each Ladder part (7.2) with the features it stands against: those of the other
    non-Ladder parts its footprint is within :data:`LADDER_TOUCH` of."""
    out: list[tuple[int, frozenset[int]]] = []
    ladder = kz.flags[TerrainType.LADDER]
    for i in np.flatnonzero(ladder).tolist():
        near = kz.parts_near(kz.parts[i].polygon, LADDER_TOUCH)
        against = frozenset(kz.parts[int(j)].feature for j in near if not ladder[int(j)])
        out.append((i, against - {kz.parts[i].feature}))
    return tuple(out)


def _make_level(
    kz: Killzone,
    index: int,
    height: float,
    parts: tuple[int, ...],
    footprint: BaseGeometry,
    passable: NDArray[np.bool_],
    board_in: BaseGeometry,
    reff: float,
    old: _Shared | None = None,
) -> Level:
    """One level: its strict and passage regions (module docstring); ``old``'s level of
    the same index when it is made of the same parts (:meth:`_Shared.level`)."""
    member = set(parts)
    near = kz.parts_near(footprint, reff + _TOL) if parts else np.arange(len(kz.parts))
    wall = kz.flags[TerrainType.WALL]
    blockers = tuple(
        int(i)
        for i in near
        if int(i) not in member
        and not passable[i]
        and (kz.heights[i] > height + 1e-6 or (not parts and wall[i]))
    )
    accessible = tuple(
        int(i)
        for i in near
        if int(i) not in member
        and kz.flags[TerrainType.ACCESSIBLE][i]
        and not kz.flags[TerrainType.WALL][i]
        and kz.heights[i] > height + 1e-6
    )
    if old is not None:
        same = old.level(index, float(height), parts, blockers, accessible)
        if same is not None:
            return same
    base_region = footprint.intersection(board_in) if parts else board_in

    def make(kind: str, i: int) -> BaseGeometry:
        poly = kz.parts[i].polygon
        if kind == "bevel":
            return _bevel_buffer(poly, reff)
        if kind == "band":
            return poly.buffer(reff)
        return poly.buffer(-_SOLID_INSET, join_style="mitre")

    grown = make if old is None else old.buffers(make)
    if blockers:
        strict = base_region.difference(shapely.union_all([grown("bevel", i) for i in blockers]))
    else:
        strict = base_region
    passage = strict
    if accessible:
        band = shapely.union_all([grown("band", i) for i in accessible])
        band = band.intersection(base_region)
        if blockers:
            band = band.difference(shapely.union_all([kz.parts[i].polygon for i in blockers]))
        passage = shapely.union_all([strict, band])
    strict_tol = strict.buffer(_TOL, join_style="mitre")
    passage_tol = passage.buffer(_TOL, join_style="mitre")
    footprint_tol = footprint.buffer(_TOL, join_style="mitre")
    solid = shapely.union_all([grown("solid", i) for i in blockers])
    for geom in (strict_tol, passage_tol, footprint_tol, solid):
        shapely.prepare(geom)
    return Level(
        index=index,
        height=float(height),
        parts=parts,
        footprint=footprint,
        strict=strict,
        passage=passage,
        blockers=blockers,
        accessible=accessible,
        strict_tol=strict_tol,
        passage_tol=passage_tol,
        footprint_tol=footprint_tol,
        solid=solid,
    )


def _covered(region: BaseGeometry, points: list[tuple[float, float]]) -> list[bool]:
    """Whether ``region`` covers each point (inches), in one vectorised call."""
    if not points:
        return []
    pts = shapely.points(np.asarray(points, dtype=float))
    return cast(list[bool], np.asarray(shapely.covers(region, pts), dtype=bool).tolist())


@attrs.frozen(slots=True)
class _Shared:
    """What a graph being built shares with ``base``, a graph of the same layout and base
    size (:meth:`MoveGraph.derive`): ``shared``, the number of leading parts both killzones
    have (the same objects), given both have the same board and the same Vantage parts
    (all shared), so that the vantage levels' footprints are the same unions."""

    base: GraphBase
    shared: int

    @classmethod
    def of(cls, kz: Killzone, base: GraphBase | None, vantage: NDArray[np.bool_]) -> _Shared | None:
        if base is None or not kz.board.equals_exact(base.kz.board, 0.0):
            return None
        shared = 0
        for p, q in zip(kz.parts, base.kz.parts, strict=False):
            if p is not q:
                break
            shared += 1
        base_vantage = sorted(i for lvl in base.levels for i in lvl.parts)
        if np.flatnonzero(vantage).tolist() != base_vantage or any(
            i >= shared for i in base_vantage
        ):
            return None
        return cls(base, shared)

    def level(
        self,
        index: int,
        height: float,
        parts: tuple[int, ...],
        blockers: tuple[int, ...],
        accessible: tuple[int, ...],
    ) -> Level | None:
        """``base``'s level ``index`` when it has the same height, parts, blockers and
        Accessible parts, all shared: every region of a level is made of those polygons
        alone (:func:`_make_level`), so the level is the same."""
        if index >= len(self.base.levels):
            return None
        lvl = self.base.levels[index]
        if (lvl.height, lvl.parts, lvl.blockers, lvl.accessible) != (
            height,
            parts,
            blockers,
            accessible,
        ):
            return None
        if max((*parts, *blockers, *accessible), default=-1) >= self.shared:
            return None
        return lvl

    def buffers(
        self, make: Callable[[str, int], BaseGeometry]
    ) -> Callable[[str, int], BaseGeometry]:
        """``make`` (a part's polygon grown some way, by kind and part index) remembered on
        ``base`` for the shared parts: the same polygon grown the same way (the base size is
        the same) is the same geometry."""
        cache = self.base._part_buffers
        shared = self.shared

        def grown(kind: str, i: int) -> BaseGeometry:
            if i >= shared:
                return make(kind, i)
            geom = cache.get((kind, i))
            if geom is None:
                geom = cache[(kind, i)] = make(kind, i)
            return geom

        return grown


class _Builder:
    """Collects the nodes of a :class:`MoveGraph` (reflex corners and portals)."""

    def __init__(
        self,
        kz: Killzone,
        radius: float,
        reff: float,
        levels: list[Level],
        old: _Shared | None = None,
    ) -> None:
        self.kz = kz
        self.old = old
        self.radius = radius
        self.reff = reff
        self.levels = levels
        self.nodes: list[tuple[int, float, float]] = []
        self.levels_of: list[int] = []
        self._seen: set[tuple[int, float, float]] = set()

    def add(self, level: int, x: float, y: float) -> None:
        """Add the node ``(x, y)`` (inches, on the 0.001" grid: :func:`quantise`d) on the
        level ``level`` unless it is there already."""
        key = (level, x, y)
        if key in self._seen:
            return
        self._seen.add(key)
        self.nodes.append(key)
        self.levels_of.append(level)

    def xy_array(self) -> FloatArray:
        if not self.nodes:
            return np.zeros((0, 2))
        return np.asarray([(x, y) for _, x, y in self.nodes], dtype=float)

    def add_nodes(self, over_parts: NDArray[np.bool_]) -> None:
        # Each point test is one vectorised call over a level's candidates (the same GEOS
        # predicate on the same points as one by one); the nodes are added in the same order.
        # The candidates of a level or part shared with the base graph (:class:`_Shared`)
        # are remembered there: the same polygon gives the same points.
        old = self.old
        outward = self.reff + _PORTAL_GAP

        def memo(key: tuple[str, int], shared: bool, make: Callable[[], Any]) -> Any:
            if old is None or not shared:
                return make()
            cache = old.base._part_buffers
            got = cache.get(key)
            if got is None:
                got = cache[key] = make()
            return got

        def same_level(lvl: Level) -> bool:
            levels = old.base.levels if old is not None else ()
            return lvl.index < len(levels) and levels[lvl.index] is lvl

        def reflex_points(lvl: Level) -> list[XY]:
            return [(quantise(x), quantise(y)) for x, y in _reflex_vertices(lvl.passage)]

        def mitre_points(i: int) -> list[XY]:
            grown = self.kz.parts[i].polygon.buffer(
                self.reff + _GRID, join_style="mitre", mitre_limit=_MITRE_LIMIT
            )
            return [
                (quantise(float(x)), quantise(float(y)))
                for x, y in np.asarray(grown.exterior.coords)[:-1]
            ]

        def level_portals(lvl: Level) -> tuple[list[XY], list[XY]]:
            inner: list[XY] = []
            outer: list[XY] = []
            for (px, py), (nx_, ny_) in _portals(lvl.footprint):
                inner.append(
                    (quantise(px - nx_ * _PORTAL_INSET), quantise(py - ny_ * _PORTAL_INSET))
                )
                outer.append((quantise(px + nx_ * outward), quantise(py + ny_ * outward)))
            return inner, outer

        def part_portals(part: int) -> list[XY]:
            return [
                (quantise(px + nx_ * outward), quantise(py + ny_ * outward))
                for (px, py), (nx_, ny_) in _portals(self.kz.parts[part].polygon)
            ]

        shared = old.shared if old is not None else 0
        for lvl in self.levels:
            corners: list[XY] = memo(
                ("reflex", lvl.index), same_level(lvl), functools.partial(reflex_points, lvl)
            )
            for (x, y), ok in zip(corners, _covered(lvl.passage_tol, corners), strict=True):
                if ok:
                    self.add(lvl.index, x, y)
            # Mitre points of obstacle corners: turning a corner there takes one bend (one
            # rounded increment fewer than the two corners of the bevel).
            mitres: list[XY] = []
            for i in lvl.blockers:
                mitres += memo(("mitre", i), i < shared, functools.partial(mitre_points, i))
            if mitres:
                xy = np.asarray(mitres, dtype=float)
                hits = shapely.intersects_xy(lvl.strict_tol, xy[:, 0], xy[:, 1]).tolist()
                for (x, y), ok in zip(mitres, hits, strict=True):
                    if ok:
                        self.add(lvl.index, x, y)
        for lvl in self.levels[1:]:
            inner, outer = memo(
                ("portals", lvl.index), same_level(lvl), functools.partial(level_portals, lvl)
            )
            inside = _covered(lvl.strict_tol, inner)
            below = self._levels_below(outer, lvl.height)
            for (ix, iy), ok, (ox, oy), li in zip(inner, inside, outer, below, strict=True):
                if ok:
                    self.add(lvl.index, ix, iy)
                if li >= 0:
                    self.add(li, ox, oy)
        floor_tol = self.levels[0].strict_tol
        for part in np.nonzero(over_parts)[0].tolist():
            around: list[XY] = memo(
                ("around", part), part < shared, functools.partial(part_portals, part)
            )
            for (ox, oy), ok in zip(around, _covered(floor_tol, around), strict=True):
                if ok:
                    self.add(0, ox, oy)

    def _levels_below(self, points: list[tuple[float, float]], height: float) -> list[int]:
        """For each point, the highest level below ``height`` where a base can stand there
        (its strict region covers it), or -1: what :meth:`_add_below` picks."""
        found = np.full(len(points), -1, dtype=np.int64)
        if not points:
            return []
        pts = cast(NDArray[np.object_], shapely.points(np.asarray(points, dtype=float)))
        for lvl in sorted(self.levels, key=lambda lv: -lv.height):
            if lvl.height >= height - 1e-6:
                continue
            open_ = np.flatnonzero(found < 0)
            if not open_.size:
                break
            hit = np.asarray(shapely.covers(lvl.strict_tol, pts[open_]), dtype=bool)
            found[open_[hit]] = lvl.index
        return [int(v) for v in found.tolist()]
