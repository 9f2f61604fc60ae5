"""The movement graph: levels, links and their classifier, the graph build and its caches.

The model is described in :mod:`engine.geometry.movement` (rules ``rules/KT24.md`` 3.3, 4.6,
4.7, 9.3). This module builds, per killzone hatchway state and base size, the graph of
straight increments that the path search (:mod:`engine.geometry.move_paths`) runs on.
"""

from __future__ import annotations

import math
from typing import Any, Literal, cast

import attrs
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from engine.geometry import graph_cache
from engine.geometry.model import MM_PER_INCH, Killzone, TerrainType, quantise

#: +1" each time an increment's centre line enters an Accessible part (4.6).
ACCESSIBLE_COST = 1.0
#: A climb starts with the base within 1" horizontally of the terrain (3.3).
CLIMB_RANGE = 1.0
#: The most one climb may rise, in inches (3.3 "within 3" vertically").
CLIMB_MAX = 3.0
#: Each climb counts at least 2" vertically (3.3).
CLIMB_MIN_COST = 2.0
#: The first 2" of vertical drop per action are free (3.3).
FREE_DROP = 2.0
#: A jump covers at most 4" horizontally from the edge (3.3).
JUMP_MAX = 4.0
#: Jumping onto terrain at most 1" higher costs nothing vertically (3.3).
JUMP_FREE_RISE = 1.0
#: Dash moves at most 3" whatever the Move stat (3.2, decision 7).
DASH_DISTANCE = 3.0
#: Charge moves Move + 2" (3.2).
CHARGE_BONUS = 2.0
CONTROL_RANGE = 1.0
#: Ceiling parts let round bases of 50 mm or less move underneath (4.6).
CEILING_MAX_BASE_MM = 50.0

MoveAction = Literal["reposition", "dash", "fall_back", "charge"]
_ACTION_NAMES: dict[str, str] = {
    "reposition": "Reposition",
    "dash": "Dash",
    "fall_back": "Fall Back",
    "charge": "Charge",
}

_TOL = 0.002  # geometric tolerance of containment tests (inches)
_GRID = 0.001  # obstacles grow by the position grid so quantised nodes stay clear
_ROUND_TOL = 0.001  # an increment 0.001" over a whole inch still rounds down (grid noise)
_TIE = 1e-4  # cost-first A*: weight = cost + _TIE * length
_PORTAL_SPACING = 1.0
_MITRE_LIMIT = 2.0  # corners sharper than ~60 degrees get no mitre node
_PORTAL_INSET = 0.05
_PORTAL_GAP = 0.01
_SAMPLE_STEP = 0.05  # sampling step of explicit paths for control range (inches)
_BLOCKED = "blocked"
_SOLID_INSET = 0.01  # Level.solid: blockers shrunk by this much (well beyond _TOL)

FloatArray = NDArray[np.float64]
XY = tuple[float, float]
Point3 = tuple[float, float, float]


# -------------------------------------------------------------------------------------------
# Levels and links
# -------------------------------------------------------------------------------------------


@attrs.frozen(slots=True, eq=False)
class Level:
    """A surface a base can stand on: the floor (index 0) or a group of Vantage parts.

    Attributes:
        index: position in :attr:`MoveGraph.levels`.
        height: elevation of the surface (inches).
        parts: the Vantage parts forming it (empty for the floor).
        footprint: the board (floor) or the union of the parts (inches).
        strict: where the centre of a base may finish (module docstring).
        passage: where the centre may pass.
        blockers: parts that block this level (part indices).
        accessible: Accessible parts above this level (+1" when entered).
        strict_tol, passage_tol, footprint_tol: the same regions grown by 0.002" and prepared
            (the containment tests use them).
        solid: the union of the blockers' footprints shrunk by 0.01" (prepared): a centre
            line that meets it is never in the passage region (a cheap first test).
    """

    index: int
    height: float
    parts: tuple[int, ...]
    footprint: BaseGeometry
    strict: BaseGeometry
    passage: BaseGeometry
    blockers: tuple[int, ...]
    accessible: tuple[int, ...]
    strict_tol: BaseGeometry = attrs.field(repr=False)
    passage_tol: BaseGeometry = attrs.field(repr=False)
    footprint_tol: BaseGeometry = attrs.field(repr=False)
    solid: BaseGeometry = attrs.field(repr=False)

    @property
    def is_floor(self) -> bool:
        """Whether this is the killzone floor."""
        return self.index == 0


@attrs.frozen(slots=True)
class _Link:
    kind: str
    horizontal: float
    climb: float = 0.0
    drop: float = 0.0
    crossings: int = 0
    #: The A* weight: the cost with the free 2" of drop applied to this link alone, + 1e-4 x
    #: length (computed once).
    weight: float = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "weight", self.cost(FREE_DROP)[0] + _TIE * self.horizontal)

    @property
    def climbs(self) -> bool:
        return self.climb > 0

    def cost(self, free_drop: float) -> tuple[float, float]:
        """(cost in inches, free drop left) for this increment (3.3)."""
        vertical = max(CLIMB_MIN_COST, self.climb) if self.climb > 0 else 0.0
        counted_drop = max(0.0, self.drop - free_drop)
        free_left = max(0.0, free_drop - self.drop)
        total = self.horizontal + vertical + counted_drop
        rounded = float(math.ceil(total - _ROUND_TOL)) if total > _ROUND_TOL else 0.0
        return rounded + ACCESSIBLE_COST * self.crossings, free_left


def _bevel_buffer(geom: BaseGeometry, distance: float) -> BaseGeometry:
    """``geom`` grown by ``distance`` with corners bevelled tangentially (contains the exact
    rounded offset)."""
    return geom.buffer(distance, join_style="mitre", mitre_limit=1.0)


def _passable(kz: Killzone, i: int, base_mm: float) -> bool:
    """Whether part ``i`` can be moved through/under (4.6, 9.3)."""
    types = kz.part_types(i)
    if TerrainType.WALL in types:
        return False
    if TerrainType.ACCESSIBLE in types or TerrainType.INSIGNIFICANT in types:
        return True
    return TerrainType.CEILING in types and base_mm <= CEILING_MAX_BASE_MM


_TYPE_ORDER = (
    TerrainType.WALL,
    TerrainType.HEAVY,
    TerrainType.BLOCKING,
    TerrainType.LIGHT,
    TerrainType.VANTAGE,
    TerrainType.ACCESSIBLE,
    TerrainType.INSIGNIFICANT,
    TerrainType.EXPOSED,
    TerrainType.CEILING,
)


def _describe(kz: Killzone, i: int) -> str:
    """``Heavy terrain 'north ruin'``: the part's main type and its feature's name."""
    types = kz.part_types(i)
    kind = next((t.value for t in _TYPE_ORDER if t in types), "untyped")
    return f"{kind} terrain {kz.features[kz.parts[i].feature]!r}"


def _pieces(a: XY, b: XY, geom: BaseGeometry) -> list[tuple[float, float]]:
    """Parameter intervals ``[t0, t1]`` (0 at ``a``, 1 at ``b``) of the segment inside
    ``geom`` (closed), sorted."""
    if a == b:
        return [(0.0, 1.0)] if geom.covers(Point(a)) else []
    inter = shapely.intersection(LineString([a, b]), geom)
    if inter.is_empty:
        return []
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    d2 = dx * dx + dy * dy
    out: list[tuple[float, float]] = []
    for part in shapely.get_parts(shapely.get_parts(inter)):
        c = shapely.get_coordinates(part)
        if c.size == 0:
            continue
        t = ((c[:, 0] - ax) * dx + (c[:, 1] - ay) * dy) / d2
        out.append((float(t.min()), float(t.max())))
    out.sort()
    return out


def _lerp(a: XY, b: XY, t: float) -> XY:
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))


def _sub(a: XY, b: XY, t0: float, t1: float) -> LineString | None:
    """The sub-segment between parameters ``t0`` and ``t1`` (``None`` if it is a point)."""
    if t1 - t0 <= 1e-9:
        return None
    return LineString([_lerp(a, b, t0), _lerp(a, b, t1)])


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


# -------------------------------------------------------------------------------------------
# The move graph
# -------------------------------------------------------------------------------------------


@attrs.frozen(slots=True, eq=False)
class MoveGraph:
    """The movement graph of one killzone (in its hatchway state) for one base size.

    Build it with :meth:`build`, derive it from another hatchway state's graph with
    :meth:`derive`, or get the cached one with :func:`move_graph`.

    Attributes:
        kz: the killzone.
        base_mm: base diameter (mm).
        radius: base radius (inches).
        levels: the floor then every Vantage level (:class:`Level`).
        xy: node positions, array (N, 2), inches.
        node_level: level index of each node, array (N,).
    """

    kz: Killzone
    base_mm: float
    radius: float
    levels: tuple[Level, ...]
    xy: FloatArray = attrs.field(repr=False)
    node_level: NDArray[np.int64] = attrs.field(repr=False)
    _out: list[list[tuple[int, float, _Link]]] = attrs.field(repr=False)
    _near: tuple[NDArray[np.int64], ...] = attrs.field(repr=False)
    _over_parts: NDArray[np.bool_] = attrs.field(repr=False)
    _over_near: dict[int, NDArray[np.int64]] = attrs.field(repr=False)
    _blocks_floor: NDArray[np.bool_] = attrs.field(repr=False)
    _board_tol: BaseGeometry = attrs.field(repr=False)
    _keys: dict[tuple[int, float, float], int] = attrs.field(factory=dict, repr=False)
    _grown: dict[int, BaseGeometry] = attrs.field(factory=dict, repr=False)
    _xy_list: list[XY] = attrs.field(factory=list, repr=False)
    _lvl_list: list[int] = attrs.field(factory=list, repr=False)
    _fp_dist: FloatArray = attrs.field(factory=lambda: np.zeros((0, 0)), repr=False)
    _links: dict[tuple[int, int], _Link] = attrs.field(factory=dict, repr=False)
    _move_index: list[tuple[NDArray[np.int64], list[_Link]]] = attrs.field(factory=list, repr=False)
    _nx: list[Any] = attrs.field(factory=list, repr=False)
    _terrain_near: dict[tuple[float, float, float], bool] = attrs.field(factory=dict, repr=False)
    _edges: dict[int, tuple[FloatArray, FloatArray]] = attrs.field(factory=dict, repr=False)

    def reprepare(self) -> None:
        """Prepare this graph's shapely geometries again (a graph loaded from the disk cache:
        pickling keeps geometries exactly but not their prepared state)."""
        geoms = [self._board_tol, *self._grown.values()]
        for lvl in self.levels:
            geoms += [lvl.strict_tol, lvl.passage_tol, lvl.footprint_tol, lvl.solid]
        for geom in geoms:
            if geom is not None and not shapely.is_prepared(geom):
                shapely.prepare(geom)

    def strict_edges(self, lvl: Level) -> tuple[FloatArray, FloatArray]:
        """The edges of ``lvl``'s strict region (:attr:`Level.strict_tol`), every ring in its
        own order: arrays (E, 2) of start and end points in inches (cached)."""
        edges = self._edges.get(lvl.index)
        if edges is None:
            starts: list[FloatArray] = []
            stops: list[FloatArray] = []
            for ring in shapely.get_rings(shapely.get_parts(lvl.strict_tol)):
                xy = np.asarray(shapely.get_coordinates(ring), dtype=float)
                starts.append(xy[:-1])
                stops.append(xy[1:])
            edges = (
                np.concatenate(starts) if starts else np.zeros((0, 2)),
                np.concatenate(stops) if stops else np.zeros((0, 2)),
            )
            self._edges[lvl.index] = edges
        return edges

    def terrain_near(self, x: float, y: float, distance: float) -> bool:
        """Whether any terrain part's footprint lies within ``distance`` inches of the point
        ``(x, y)`` (inches), cached per point: enemies stand still while many moves are
        searched around them."""
        key = (x, y, distance)
        hit = self._terrain_near.get(key)
        if hit is None:
            if len(self._terrain_near) > 50_000:
                self._terrain_near.clear()
            hit = self._terrain_near[key] = bool(len(self.kz.parts_near(Point(x, y), distance)))
        return hit

    @property
    def graph(self) -> Any:
        """The graph as a ``networkx.DiGraph`` (built on first use): nodes are ints with
        attributes ``level``, ``x``, ``y``, ``z`` (inches); edges have ``kind``,
        ``horizontal``, ``climb``, ``drop``, ``crossings`` and ``weight`` (the cost in inches
        with the free 2" of drop applied to that link alone, + 1e-4 x length)."""
        if not self._nx:
            import networkx as nx  # type: ignore[import-untyped]  # slow to import: on demand

            g = nx.DiGraph()
            for k, (li, (x, y)) in enumerate(zip(self._lvl_list, self._xy_list, strict=True)):
                g.add_node(k, level=li, x=x, y=y, z=self.levels[li].height)
            g.add_edges_from(
                (
                    u,
                    v,
                    {
                        "kind": link.kind,
                        "horizontal": link.horizontal,
                        "climb": link.climb,
                        "drop": link.drop,
                        "crossings": link.crossings,
                        "weight": w,
                    },
                )
                for u, out in enumerate(self._out)
                for v, w, link in out
            )
            self._nx.append(g)
        return self._nx[0]

    # ---------------------------------------------------------------------------------------
    # Construction
    # ---------------------------------------------------------------------------------------

    @classmethod
    def build(cls, kz: Killzone, base_mm: float) -> MoveGraph:
        """Build the graph for bases of ``base_mm`` millimetres on ``kz`` (module docstring).

        Takes a fraction of a second for a 30" x 22" killzone with ~25 parts.
        """
        graph, builder = cls._skeleton(kz, base_mm)
        graph._finish(builder, None)
        return graph

    @classmethod
    def derive(cls, base: MoveGraph, kz: Killzone) -> MoveGraph:
        """The graph of ``kz`` for ``base``'s base size, derived from ``base``, the graph of
        the same layout in another hatchway state (section 9.3).

        The result is the graph :meth:`build` would give (the same nodes in the same order,
        the same links): the levels and nodes are rebuilt (a few ms), and only the links whose
        centre line passes near a hatchway whose state differs (within 1.5 base radii + 0.05",
        the reach of a state change into the levels' regions) or that end on a node ``base``
        does not have are computed again; every other link is ``base``'s. On close_quarters,
        from a state one hatchway away, it takes about a third of a full build, ~20-25 ms
        (``benchmarks/geometry_movement.py``); the more hatchways differ, the less it saves.
        Falls back
        to a full build when ``kz`` is not a hatchway state of ``base``'s layout or a changed
        hatchway part is Vantage terrain in either state (the levels would differ).

        Args:
            base: a graph of the same layout (``kz.parts`` is ``base.kz.parts``), e.g. the
                cached graph of the layout as loaded.
            kz: the killzone in the wanted hatchway state.
        """
        graph, builder = cls._skeleton(kz, base.base_mm)
        reuse = _Reuse.make(base, graph)
        graph._finish(builder, reuse)
        return graph

    @classmethod
    def _skeleton(cls, kz: Killzone, base_mm: float) -> tuple[MoveGraph, _Builder]:
        """The levels and nodes of the graph (no links yet)."""
        radius = base_mm / MM_PER_INCH / 2
        reff = radius + _GRID
        n_parts = len(kz.parts)
        passable = np.array([_passable(kz, i, base_mm) for i in range(n_parts)], dtype=bool)
        heights = kz.heights
        board_in = kz.board.buffer(-reff, join_style="mitre")
        board_tol = board_in.buffer(_TOL, join_style="mitre")
        shapely.prepare(board_tol)
        levels: list[Level] = [
            _make_level(kz, 0, 0.0, (), kz.board, passable, board_in, reff),
        ]
        vantage = (
            kz.flags[TerrainType.VANTAGE] & ~kz.flags[TerrainType.INSIGNIFICANT] & (heights > 0)
        )
        groups: dict[float, list[int]] = {}
        for i in np.nonzero(vantage)[0]:
            groups.setdefault(round(float(heights[i]), 6), []).append(int(i))
        comps: list[tuple[float, tuple[int, ...], BaseGeometry]] = []
        for h, idx in sorted(groups.items()):
            union = shapely.union_all([kz.parts[i].polygon for i in idx])
            for comp in shapely.get_parts(union):
                members = tuple(i for i in idx if kz.parts[i].polygon.intersects(comp))
                comps.append((h, members, comp))
        comps.sort(key=lambda c: (c[0], c[2].bounds))
        for h, members, comp in comps:
            levels.append(_make_level(kz, len(levels), h, members, comp, passable, board_in, reff))
        blocks_floor = (~passable & (heights > 0)) | kz.flags[TerrainType.WALL]
        over_parts = (
            blocks_floor & ~kz.flags[TerrainType.WALL] & ~vantage & (heights <= CLIMB_MAX + 1e-9)
        )
        builder = _Builder(kz, radius, reff, levels)
        builder.add_nodes(over_parts)
        graph = cls(
            kz=kz,
            base_mm=float(base_mm),
            radius=radius,
            levels=tuple(levels),
            xy=builder.xy_array(),
            node_level=np.asarray(builder.levels_of, dtype=np.int64),
            out=[[] for _ in builder.nodes],
            near=(),
            over_parts=over_parts,
            over_near={},
            blocks_floor=blocks_floor,
            board_tol=board_tol,
            keys={key: k for k, key in enumerate(builder.nodes)},
        )
        return graph, builder

    def _finish(self, builder: _Builder, reuse: _Reuse | None) -> None:
        """Compute the links of the static graph (visibility, over, climb, drop, jump); with
        ``reuse``, take those a hatchway state change cannot affect from another graph."""
        pts = cast(NDArray[np.object_], shapely.points(self.xy))
        self._xy_list.extend((float(x), float(y)) for x, y in self.xy)
        self._lvl_list.extend(int(v) for v in self.node_level)
        fp_dist = np.zeros((len(self.levels), len(pts)))
        for lvl in self.levels[1:]:
            fp_dist[lvl.index] = shapely.distance(lvl.footprint, pts)
        object.__setattr__(self, "_fp_dist", fp_dist)
        # Nodes near each level's footprint (for climb/drop/jump links) and near each
        # climbable part (for over links).
        near: list[NDArray[np.int64]] = [np.zeros(0, dtype=np.int64)]
        reach = self.radius + JUMP_MAX + _TOL
        for lvl in self.levels[1:]:
            close = shapely.dwithin(lvl.footprint, pts, reach) & (self.node_level != lvl.index)
            near.append(np.nonzero(close)[0].astype(np.int64))
        object.__setattr__(self, "_near", tuple(near))
        floor_nodes = self.node_level == 0
        over_near: dict[int, NDArray[np.int64]] = {}
        for i in np.nonzero(self._over_parts)[0]:
            poly = self.kz.parts[int(i)].polygon
            close = shapely.dwithin(poly, pts, self.radius + CLIMB_RANGE + _TOL) & floor_nodes
            over_near[int(i)] = np.nonzero(close)[0].astype(np.int64)
        object.__setattr__(self, "_over_near", over_near)
        links = self._links

        def add(u: int, v: int, link: _Link) -> None:
            self._out[u].append((v, link.weight, link))
            links[(u, v)] = link

        def reused(a_ids: NDArray[np.int64], b_ids: NDArray[np.int64]) -> NDArray[np.bool_]:
            """Pairs whose link (or its absence) is the same as in the reused graph."""
            if reuse is None:
                return np.zeros(a_ids.size, dtype=bool)
            return reuse.same(self.xy[a_ids], self.xy[b_ids], a_ids, b_ids)

        # Same-level visibility.
        for lvl in self.levels:
            ids = np.nonzero(self.node_level == lvl.index)[0]
            if ids.size < 2:
                continue
            iu, ju = np.triu_indices(ids.size, k=1)
            a_ids, b_ids = ids[iu], ids[ju]
            same = reused(a_ids, b_ids)
            fresh = np.flatnonzero(~same)
            seen = np.zeros(a_ids.size, dtype=bool)
            lines = cast(
                NDArray[np.object_],
                shapely.linestrings(
                    np.stack([self.xy[a_ids[fresh]], self.xy[b_ids[fresh]]], axis=1)
                ),
            )
            # Lines through the inside of a blocker are out at once; covers() for the rest.
            clear = np.flatnonzero(~shapely.intersects(lvl.solid, lines))
            seen[fresh[clear]] = shapely.covers(lvl.passage_tol, lines[clear])
            pos_ab = np.full(a_ids.size, -1, dtype=np.int64)
            pos_ba = np.full(a_ids.size, -1, dtype=np.int64)
            if reuse is not None:
                kept = np.flatnonzero(same)
                pos_ab[kept] = reuse.moves(a_ids[kept], b_ids[kept])
                pos_ba[kept] = reuse.moves(b_ids[kept], a_ids[kept])
                seen[kept] = pos_ab[kept] >= 0
            c_ab = np.zeros(a_ids.size, dtype=np.int64)
            c_ba = np.zeros(a_ids.size, dtype=np.int64)
            acc = self._accessible_union(lvl)
            if acc is not None:
                touch = np.zeros(a_ids.size, dtype=bool)
                touch[fresh] = shapely.intersects(acc, lines)
                t = np.flatnonzero(touch & seen)
                pa, pb = self.xy[a_ids[t]], self.xy[b_ids[t]]
                c_ab[t] = self._crossings_many(lvl, pa, pb)
                c_ba[t] = self._crossings_many(lvl, pb, pa)
            ok = np.flatnonzero(seen)
            moved = reuse.move_links if reuse is not None else []
            out, xy_list = self._out, self._xy_list
            for a, b, pab, pba, cab, cba in zip(
                a_ids[ok].tolist(),
                b_ids[ok].tolist(),
                pos_ab[ok].tolist(),
                pos_ba[ok].tolist(),
                c_ab[ok].tolist(),
                c_ba[ok].tolist(),
                strict=True,
            ):
                if pab >= 0:
                    ab, ba = moved[pab], moved[pba]
                else:
                    h = math.dist(xy_list[a], xy_list[b])
                    ab = _Link("move", h, crossings=cab)
                    ba = _Link("move", h, crossings=cba)
                out[a].append((b, ab.weight, ab))
                out[b].append((a, ba.weight, ba))
                links[(a, b)] = ab
                links[(b, a)] = ba
        # Climbing over low parts on the floor. A link over terrain crosses some climbable
        # part with both ends within reach of it, so it is among that part's pairs whose
        # segment meets the part's interior: test that in one vectorised call first.
        for part_index, ids in over_near.items():
            if ids.size < 2:
                continue
            iu, ju = np.nonzero(~np.eye(ids.size, dtype=bool))
            a_ids, b_ids = ids[iu], ids[ju]
            over_lines = shapely.linestrings(np.stack([self.xy[a_ids], self.xy[b_ids]], axis=1))
            poly = self.kz.parts[part_index].polygon
            meets = np.asarray(shapely.relate_pattern(over_lines, poly, "T********"), dtype=bool)
            a_ids, b_ids = a_ids[meets], b_ids[meets]
            same = reused(a_ids, b_ids).tolist()
            for u, v, keep in zip(a_ids.tolist(), b_ids.tolist(), same, strict=True):
                if (u, v) in links:
                    continue
                if keep:
                    assert reuse is not None
                    link: _Link | str | None = reuse.link(u, v)
                else:
                    link = self.classify(0, self._xy(u), 0, self._xy(v), explain=False)
                if isinstance(link, _Link):
                    add(u, v, link)
        # Climbs, drops and jumps between levels.
        link_reach = JUMP_MAX + 2 * self.radius + CLIMB_RANGE
        for lvl in self.levels[1:]:
            mine = np.nonzero(self.node_level == lvl.index)[0]
            for o in near[lvl.index]:
                po = self._xy(int(o))
                lo = int(self.node_level[o])
                for m in mine:
                    pm = self._xy(int(m))
                    if math.dist(po, pm) > link_reach:
                        continue
                    keep = bool(reused(np.array([o]), np.array([m]))[0])
                    for u, pu, lu, v, pv, lv in (
                        (int(o), po, lo, int(m), pm, lvl.index),
                        (int(m), pm, lvl.index, int(o), po, lo),
                    ):
                        if (u, v) in links:
                            continue
                        if keep:
                            assert reuse is not None
                            link = reuse.link(u, v)
                        else:
                            link = self.classify(lu, pu, lv, pv, explain=False)
                        if isinstance(link, _Link):
                            add(u, v, link)

    # ---------------------------------------------------------------------------------------
    # Small helpers
    # ---------------------------------------------------------------------------------------

    def _xy(self, node: int) -> XY:
        return (float(self.xy[node, 0]), float(self.xy[node, 1]))

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
            return _Link("climb", h, climb=rise, crossings=crossings)
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
        return _Link("climb", h, climb=rise, crossings=crossings)

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
        crossed: list[int] = []
        for i in sorted(int(i) for i in self.kz.tree.query(seg, predicate="intersects")):
            if self._blocks_floor[i] and shapely.relate_pattern(
                seg, self.kz.parts[i].polygon, "T********"
            ):
                crossed.append(i)
        if not crossed:
            return self._blocked_reason(floor, a, b) if explain else _BLOCKED
        pa, pb = Point(a), Point(b)
        # Name the first offending part along the line.
        crossed.sort(key=lambda i: pa.distance(self.kz.parts[i].polygon))
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
        grown = (
            self._grown_part(crossed[0])
            if len(crossed) == 1
            else shapely.union_all([self._grown_part(i) for i in crossed])
        )
        rest = seg.difference(grown)
        if not rest.is_empty and rest.length > 1e-6 and not floor.passage_tol.covers(rest):
            return self._blocked_reason_geom(floor, rest, a) if explain else _BLOCKED
        height = max(self.kz.parts[i].height for i in crossed)
        return _Link(
            "over",
            math.dist(a, b),
            climb=height,
            drop=height,
            crossings=self._crossings(floor, a, b),
        )

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


def _make_level(
    kz: Killzone,
    index: int,
    height: float,
    parts: tuple[int, ...],
    footprint: BaseGeometry,
    passable: NDArray[np.bool_],
    board_in: BaseGeometry,
    reff: float,
) -> Level:
    """One level: its strict and passage regions (module docstring)."""
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
    base_region = footprint.intersection(board_in) if parts else board_in
    if blockers:
        grown = shapely.union_all([_bevel_buffer(kz.parts[i].polygon, reff) for i in blockers])
        strict = base_region.difference(grown)
    else:
        strict = base_region
    passage = strict
    if accessible:
        band = shapely.union_all([kz.parts[i].polygon.buffer(reff) for i in accessible])
        band = band.intersection(base_region)
        if blockers:
            band = band.difference(shapely.union_all([kz.parts[i].polygon for i in blockers]))
        passage = shapely.union_all([strict, band])
    strict_tol = strict.buffer(_TOL, join_style="mitre")
    passage_tol = passage.buffer(_TOL, join_style="mitre")
    footprint_tol = footprint.buffer(_TOL, join_style="mitre")
    solid = shapely.union_all(
        [kz.parts[i].polygon.buffer(-_SOLID_INSET, join_style="mitre") for i in blockers]
    )
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


class _Builder:
    """Collects the nodes of a :class:`MoveGraph` (reflex corners and portals)."""

    def __init__(self, kz: Killzone, radius: float, reff: float, levels: list[Level]) -> None:
        self.kz = kz
        self.radius = radius
        self.reff = reff
        self.levels = levels
        self.nodes: list[tuple[int, float, float]] = []
        self.levels_of: list[int] = []
        self._seen: set[tuple[int, float, float]] = set()

    def add(self, level: int, x: float, y: float) -> None:
        key = (level, quantise(x), quantise(y))
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
        for lvl in self.levels:
            for x, y in _reflex_vertices(lvl.passage):
                if lvl.passage_tol.covers(Point(quantise(x), quantise(y))):
                    self.add(lvl.index, x, y)
            # Mitre points of obstacle corners: turning a corner there takes one bend (one
            # rounded increment fewer than the two corners of the bevel).
            for i in lvl.blockers:
                grown = self.kz.parts[i].polygon.buffer(
                    self.reff + _GRID, join_style="mitre", mitre_limit=_MITRE_LIMIT
                )
                for x, y in np.asarray(grown.exterior.coords)[:-1]:
                    qx, qy = quantise(float(x)), quantise(float(y))
                    if shapely.intersects_xy(lvl.strict_tol, qx, qy):
                        self.add(lvl.index, qx, qy)
        outward = self.reff + _PORTAL_GAP
        for lvl in self.levels[1:]:
            for (px, py), (nx_, ny_) in _portals(lvl.footprint):
                ix, iy = quantise(px - nx_ * _PORTAL_INSET), quantise(py - ny_ * _PORTAL_INSET)
                if lvl.strict_tol.covers(Point(ix, iy)):
                    self.add(lvl.index, ix, iy)
                ox, oy = quantise(px + nx_ * outward), quantise(py + ny_ * outward)
                self._add_below(ox, oy, lvl.height)
        for part in np.nonzero(over_parts)[0].tolist():
            for (px, py), (nx_, ny_) in _portals(self.kz.parts[part].polygon):
                ox, oy = quantise(px + nx_ * outward), quantise(py + ny_ * outward)
                if self.levels[0].strict_tol.covers(Point(ox, oy)):
                    self.add(0, ox, oy)

    def _add_below(self, x: float, y: float, height: float) -> None:
        """Add ``(x, y)`` on the highest level below ``height`` where a base can stand."""
        pt = Point(x, y)
        for lvl in sorted(self.levels, key=lambda lv: -lv.height):
            if lvl.height >= height - 1e-6:
                continue
            if lvl.strict_tol.covers(pt):
                self.add(lvl.index, x, y)
                return


@attrs.frozen(slots=True, eq=False)
class _Reuse:
    """What :meth:`MoveGraph.derive` takes from the graph of another hatchway state.

    Attributes:
        base: that graph.
        old: for each node of the new graph, the same node (level and position) in ``base``,
            or -1.
        boxes: bounding boxes (minx, miny, maxx, maxy; inches) of the parts of the hatchways
            whose state differs, grown by the reach of a state change (1.5 base radii +
            0.05": the bevelled buffers of blockers, the band around Accessible parts and the
            0.002" tolerances all lie within it).
    """

    base: MoveGraph
    old: NDArray[np.int64]
    boxes: FloatArray
    move_keys: NDArray[np.int64]
    move_links: list[_Link]

    @classmethod
    def make(cls, base: MoveGraph, graph: MoveGraph) -> _Reuse | None:
        """``None`` when ``graph`` is not the same layout as ``base`` in another hatchway
        state with the same levels (then every link is computed)."""
        kz, bkz = graph.kz, base.kz
        if kz.parts is not bkz.parts or (kz.width, kz.depth) != (bkz.width, bkz.depth):
            return None
        if graph.base_mm != base.base_mm or len(graph.levels) != len(base.levels):
            return None
        for lv, bl in zip(graph.levels, base.levels, strict=True):
            if lv.parts != bl.parts or lv.height != bl.height:
                return None
        toggled = kz.open_hatchways ^ bkz.open_hatchways
        parts = [p for p in kz.parts if kz.features[p.feature] in toggled]
        for p in parts:
            if TerrainType.VANTAGE in p.types | (p.open_types or frozenset()):
                return None
        keys = base._keys
        old = np.full(len(graph._keys), -1, dtype=np.int64)
        for key, k in graph._keys.items():
            old[k] = keys.get(key, -1)
        margin = 1.5 * (graph.radius + _GRID + _TOL) + 0.05
        boxes = np.asarray([p.polygon.bounds for p in parts], dtype=float).reshape(-1, 4)
        boxes = boxes + np.array([-margin, -margin, margin, margin])
        if not base._move_index:
            n = max(len(base._keys), 1)
            moves = sorted(
                (u * n + v, link) for (u, v), link in base._links.items() if link.kind == "move"
            )
            base._move_index.append(
                (np.asarray([k for k, _ in moves], dtype=np.int64), [m for _, m in moves])
            )
        keys_sorted, move_links = base._move_index[0]
        return cls(base, old, boxes, keys_sorted, move_links)

    def moves(self, a_ids: NDArray[np.int64], b_ids: NDArray[np.int64]) -> NDArray[np.int64]:
        """For each pair of nodes of the new graph (both in ``base``), the index in
        ``move_links`` of ``base``'s same-level ``move`` link from a to b, or -1."""
        keys = self.old[a_ids] * max(len(self.base._keys), 1) + self.old[b_ids]
        pos = np.searchsorted(self.move_keys, keys)
        pos = np.minimum(pos, max(self.move_keys.size - 1, 0))
        found = (self.move_keys.size > 0) & (self.move_keys[pos] == keys)
        return np.where(found, pos, -1)

    def same(
        self, p: FloatArray, q: FloatArray, a_ids: NDArray[np.int64], b_ids: NDArray[np.int64]
    ) -> NDArray[np.bool_]:
        """Which node pairs (segments ``p[k] -> q[k]``) keep ``base``'s link: both nodes are
        in ``base`` and the segment misses every box."""
        keep = (self.old[a_ids] >= 0) & (self.old[b_ids] >= 0)
        if not self.boxes.size or not p.size:
            return keep
        lo, hi = self.boxes[None, :, :2], self.boxes[None, :, 2:]
        p0 = p[:, None, :]
        d = (q - p)[:, None, :]
        flat = d == 0
        with np.errstate(divide="ignore", invalid="ignore"):
            ta = (lo - p0) / d
            tb = (hi - p0) / d
        inside = (p0 >= lo) & (p0 <= hi)
        t_lo = np.where(flat, np.where(inside, -math.inf, math.inf), np.minimum(ta, tb))
        t_hi = np.where(flat, np.where(inside, math.inf, -math.inf), np.maximum(ta, tb))
        enter = np.maximum(t_lo.max(axis=2), 0.0)
        leave = np.minimum(t_hi.min(axis=2), 1.0)
        near = (enter <= leave).any(axis=1)
        return np.asarray(keep & ~near, dtype=bool)

    def link(self, u: int, v: int) -> _Link | None:
        """``base``'s link between the nodes ``u`` and ``v`` of the new graph, if any."""
        return self.base._links.get((int(self.old[u]), int(self.old[v])))


_GRAPHS_KEY = "movement.graphs"


def move_graph(kz: Killzone, base_mm: float) -> MoveGraph:
    """The :class:`MoveGraph` of ``kz`` (in its hatchway state) for bases of ``base_mm`` mm,
    built on first use and cached on the killzone value (:attr:`Killzone.cache`).

    A hatchway state made by :meth:`Killzone.with_open_hatchways` (section 9.3) gets its graph
    derived (:meth:`MoveGraph.derive`) from the cached graph of the state nearest to it (the
    fewest hatchways toggled; the layout as built, whose graph is built first if needed):
    the same graph as a full build, in a fraction of the time when one hatchway differs.
    """
    per_kz: dict[float, MoveGraph] = kz.cache.setdefault(_GRAPHS_KEY, {})
    key = float(base_mm)
    graph = per_kz.get(key)
    if graph is None:
        root = kz.hatch_root
        if root is not None and root is not kz:
            base: MoveGraph | None = None
            toggled = len(kz.hatchways) + 1
            for other in (root, *root._variants.values()):
                cached = other.cache.get(_GRAPHS_KEY, {}).get(key)
                diff = len(other.open_hatchways ^ kz.open_hatchways)
                if cached is not None and other is not kz and diff < toggled:
                    base, toggled = cached, diff
            graph = MoveGraph.derive(base if base is not None else move_graph(root, key), kz)
        else:
            graph = _load_or_build(kz, key)
        per_kz[key] = graph
    return graph


def _load_or_build(kz: Killzone, base_mm: float) -> MoveGraph:
    """The graph from the disk cache (:mod:`engine.geometry.graph_cache`, keyed by the
    layout's content and this code), else built and stored there."""
    cached = graph_cache.load(kz, base_mm)
    if isinstance(cached, MoveGraph) and cached.kz is kz and cached.base_mm == base_mm:
        cached.reprepare()
        return cached
    graph = MoveGraph.build(kz, base_mm)
    graph_cache.store(kz, base_mm, graph)
    return graph
