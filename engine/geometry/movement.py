"""Movement: the shortest legal path of a move action and its KT24 cost.

Rules: ``rules/KT24.md`` sections 3.2 (Reposition, Dash, Fall Back, Charge), 3.3 (increments
rounded up, climbing, dropping, jumping, bases), 4.1-4.2 (distances, control range), 4.6
(Accessible, Insignificant, Ceiling, Vantage), 9.3 (walls, hatchways); decisions 2 (anyone may
jump off terrain) and 10 (3D distances between levels); ``EDGE_CASES.md`` 12, 14 and 15.
All lengths are in inches, base sizes in millimetres.

Model
-----
The killzone is cut into **levels**: the floor, and one level per connected group of Vantage
parts of equal height (Vantage parts that are Insignificant are not levels: an operative on
them is on the floor). On each level the centre of a base of radius ``r`` may be

- in the level's **strict** region (where a base may finish): on the board with the whole
  base (board shrunk by ``r``); for a Vantage level, the centre over the level's footprint
  (the criterion of :meth:`Killzone.standing_part`); and at least ``r`` from every part that
  blocks the level (a part taller than the level that is not Accessible, not Insignificant
  and not a Ceiling a base of 50 mm or less can move under; Wall parts always block);
- in its **passage** region (where the centre may pass): the strict region, plus the band
  within ``r`` of an Accessible part outside the blocking footprints. Only the base's centre
  needs to pass through an Accessible part (4.6), so a base crosses a doorway narrower than
  itself; every increment whose centre line *enters* an Accessible part pays +1".

Obstacles are buffered with a mitre join bevelled at the buffer distance (a polygon that
contains the exact rounded offset, so paths are never closer than ``r`` to terrain; around a
90-degree corner a path is at most about 0.09 x r longer than the exact one) and one
thousandth of an inch more, to absorb the 0.001" position grid.

:class:`MoveGraph` (built once per killzone, hatchway state and base size, cached by
:func:`move_graph`; a hatchway state's graph is derived from a nearby state's, recomputing only
the links that pass near a toggled hatchway, :meth:`MoveGraph.derive`) is a directed graph
(viewable as a ``networkx.DiGraph``). Its nodes are the reflex corners of
every level's passage region (a visibility graph); the mitre points of obstacle corners
(turning a corner there is one bend instead of two, so one rounded increment fewer); and
**portal** points every inch around Vantage levels and climbable parts (just outside, on the
level below, and just inside, on the level itself). Its edges are **links**, each one
straight increment:

- ``move``: a straight line inside one level's passage region; cost: the length rounded up to
  the next whole inch, +1" per Accessible part entered (3.3, 4.6).
- ``climb``: from a lower level onto a Vantage level, starting with the base within 1"
  horizontally of it, at most 3" up (the 3.3 "within 3" vertically" read as the most one
  climb can rise); cost: horizontal length + the rise counted as at least 2", rounded up.
- ``drop``: off a Vantage level onto a lower level, landing at most 4" horizontally beyond
  the edge (jumping off, decision 2); the first 2" of vertical drop per action are free
  (the allowance is shared by every drop of the action).
- ``jump``: between Vantage levels whose footprints are apart, the gap at most 4"
  horizontally, in one increment; landing at most 1" higher is free, higher is a climb,
  lower a drop.
- ``over``: on the floor, climbing over non-Vantage, non-Wall parts at most 3" high (one
  connected group per increment) and dropping on the other side; the base starts and lands
  within 1" of them; cost: horizontal + the climb (at least 2") + the counted drop.

A query (:func:`shortest_path`) adds the start, the destination and, around enemies, the
corners of octagons circumscribing their **zones** (their base grown by the mover's base; when
the action forbids it, their control range: 1" more, or less between levels, decision 10),
prunes every node outside the ellipse of points reachable within the action's distance, and
runs A* on the cost (ties broken by length). Friendly bases are passable.

Simplifications (documented approximations):

- Paths bend only at graph nodes; with per-increment rounding a path bending in open ground
  can occasionally be 1" cheaper than the one found.
- The search charges the free 2" of drop to every drop link; the returned cost is exact (the
  allowance is per action). A path whose exact cost exceeds the allowance is not returned.
- During the search, an enemy's control range is first a disc around it (a prefilter);
  when terrain lies within that disc, nodes and links inside it are checked with the exact
  :func:`~engine.geometry.sight.within_control_range` (visible and within 1", 4.2), links
  every 0.05" as :func:`check_path` does, so an operative beside an enemy behind a wall or
  a closed hatchway moves freely. A link between levels keeps the disc (conservative). The
  start and the destination always use the exact check.
- A Charge that enters the control range of an enemy no other friendly engages cannot leave
  it (3.2): a link out of, or across, such a range (a disc) is refused, so the rest of the
  path stays inside it.
- Climbing over parts is modelled on the floor only; climbing a Vantage level uses the 1"
  start rule but not the "terrain visible to the operative" condition; ladders, ramparts,
  stairs, Obstructing and Hazardous terrain are not modelled.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Sequence
from typing import Any, Literal, cast

import attrs
import networkx as nx  # type: ignore[import-untyped]
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from engine.errors import KillTeamError
from engine.geometry import graph_cache
from engine.geometry.model import MM_PER_INCH, Killzone, Placement, TerrainType, quantise
from engine.geometry.sight import within_control_range

__all__ = [
    "ACCESSIBLE_COST",
    "CHARGE_BONUS",
    "CLIMB_MAX",
    "CLIMB_MIN_COST",
    "CLIMB_RANGE",
    "DASH_DISTANCE",
    "FREE_DROP",
    "JUMP_FREE_RISE",
    "JUMP_MAX",
    "Increment",
    "Level",
    "MoveAction",
    "MoveError",
    "MoveGraph",
    "MovePath",
    "candidate_destinations",
    "check_path",
    "max_move",
    "move_cost",
    "move_graph",
    "reachable",
    "shortest_path",
    "straight_reach",
]

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


class MoveError(KillTeamError, ValueError):
    """A move is illegal; the message names the rule broken (``rules/KT24.md`` section)."""


# -------------------------------------------------------------------------------------------
# Results
# -------------------------------------------------------------------------------------------


@attrs.frozen(slots=True)
class Increment:
    """One straight increment of a move (3.3).

    Attributes:
        start, end: ``(x, y, elevation)`` in inches.
        kind: ``"move"``, ``"climb"``, ``"drop"``, ``"jump"`` or ``"over"`` (module docstring).
        horizontal: horizontal length (inches).
        climb: height climbed (inches, 0 if none; a jump landing at most 1" higher is 0).
        drop: height dropped (inches, 0 if none).
        crossings: Accessible parts entered (+1" each).
        cost: inches of movement used: ``horizontal`` + climb (at least 2") + the part of the
            drop beyond the action's free 2", rounded up to a whole inch, + crossings.
    """

    start: Point3
    end: Point3
    kind: str
    horizontal: float
    climb: float
    drop: float
    crossings: int
    cost: float


@attrs.frozen(slots=True)
class MovePath:
    """A legal move.

    Attributes:
        action: ``"reposition"``, ``"dash"``, ``"fall_back"`` or ``"charge"``.
        points: ``(x, y, elevation)`` in inches, from the start to the end (quantised).
        increments: the straight increments between consecutive points.
        length: Euclidean length of the polyline through ``points`` (inches, 3D).
        cost: inches of movement used (the sum of the increments' costs, 3.3).
        final: the operative's placement at the end.
    """

    action: str
    points: tuple[Point3, ...]
    increments: tuple[Increment, ...]
    length: float
    cost: float
    final: Placement


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

    def reprepare(self) -> None:
        """Prepare this graph's shapely geometries again (a graph loaded from the disk cache:
        pickling keeps geometries exactly but not their prepared state)."""
        geoms = [self._board_tol, *self._grown.values()]
        for lvl in self.levels:
            geoms += [lvl.strict_tol, lvl.passage_tol, lvl.footprint_tol, lvl.solid]
        for geom in geoms:
            if geom is not None and not shapely.is_prepared(geom):
                shapely.prepare(geom)

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


# -------------------------------------------------------------------------------------------
# Actions
# -------------------------------------------------------------------------------------------


def _action(action: str) -> MoveAction:
    if action not in _ACTION_NAMES:
        raise MoveError(
            f"unknown move action {action!r} (known: {', '.join(_ACTION_NAMES)}; KT24 3.2)"
        )
    return cast(MoveAction, action)


def max_move(action: str, move: float = 6.0) -> float:
    """The most inches of movement ``action`` allows an operative with Move ``move`` (3.2):
    Reposition and Fall Back: Move; Dash: 3" (whatever the Move); Charge: Move + 2".

    Raises:
        MoveError: for an unknown action.
    """
    act = _action(action)
    if act == "dash":
        return DASH_DISTANCE
    if act == "charge":
        return move + CHARGE_BONUS
    return move


@attrs.frozen(slots=True)
class _Zone:
    """A disc the mover's centre may not enter: an enemy's base (grown by the mover's) or its
    control range. ``final_only`` (Charge, an enemy no other friendly engages): it may be
    entered, but then never left.

    A control-range zone names its enemy (``enemy``, an index into the query's enemies); the
    disc is then only a prefilter: with ``exact`` (terrain near the enemy) a point of the disc
    is within the enemy's control range only if it is visible and within 1" as
    :func:`~engine.geometry.sight.within_control_range` says (4.2), see
    :meth:`_Query.zone_contains` and :meth:`_Query.zone_crosses`."""

    x: float
    y: float
    radius: float
    level: int
    final_only: bool
    what: str
    enemy: int = -1
    exact: bool = False

    def hits(self, a: XY, b: XY) -> bool:
        return _seg_point_distance(a, b, (self.x, self.y)) < self.radius - 1e-6

    def inside(self, p: XY) -> bool:
        return math.hypot(p[0] - self.x, p[1] - self.y) < self.radius - 1e-6


def _seg_point_distance(a: XY, b: XY, c: XY) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d2 = dx * dx + dy * dy
    t = 0.0 if d2 == 0 else max(0.0, min(1.0, ((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / d2))
    return math.hypot(a[0] + t * dx - c[0], a[1] + t * dy - c[1])


class _Query:
    """The operatives' side of a move: start checks, zones, final checks."""

    def __init__(
        self,
        kz: Killzone,
        graph: MoveGraph,
        mover: Placement,
        action: MoveAction,
        enemies: Sequence[Placement],
        friends: Sequence[Placement],
        limit: float,
    ) -> None:
        self.kz = kz
        self.g = graph
        self.mover = mover
        self.action = action
        self.name = _ACTION_NAMES[action]
        self.enemies = tuple(enemies)
        self.friends = tuple(f for f in friends if f != mover)
        self.limit = limit
        lvl = graph.level_at(mover.x, mover.y, mover.elevation)
        if lvl is None:
            raise MoveError(
                f'the operative at ({mover.x:g}, {mover.y:g}) is {mover.elevation:g}" up but '
                "not standing on Vantage terrain (KT24 4.7)"
            )
        if not shapely.intersects_xy(lvl.passage_tol, mover.x, mover.y):
            reason = graph._placement_reason(lvl, (mover.x, mover.y), "the moving operative's base")
            raise MoveError(f"{reason} at the start of the move (KT24 3.3)")
        self.start_level = lvl.index
        self.start: XY = (mover.x, mover.y)
        # classify() results of dynamic links, shared by the searches of one query (the
        # candidate generator searches many destinations from one start).
        self.links: dict[tuple[int, XY, int, XY], _Link | str] = {}
        in_range = [e for e in self.enemies if within_control_range(kz, mover, e)]
        if action == "fall_back":
            if not in_range:
                raise MoveError(
                    "Fall Back can only be performed by an operative within control range of "
                    "an enemy (KT24 3.2)"
                )
        elif in_range:
            raise MoveError(
                f"{self.name} cannot be performed while within control range of an enemy (KT24 3.2)"
            )
        # Enemies a friendly operative is already engaging: their control range may be
        # passed through (Reposition, Dash) or entered and left (Charge).
        self.engaged = [
            any(within_control_range(kz, f, e) for f in self.friends)
            if action != "fall_back"
            else True
            for e in self.enemies
        ]
        self.zones: list[_Zone] = []
        # Exact control range checks along links and at nodes, keyed by (enemy, levels,
        # points): shared by the searches of one query.
        self.in_range: dict[tuple[int, int, XY], bool] = {}
        self.crosses: dict[tuple[int, int, XY, int, XY], bool] = {}
        r = graph.radius
        for j, (e, engaged) in enumerate(zip(self.enemies, self.engaged, strict=True)):
            where = f"({e.x:g}, {e.y:g})"
            for lvl in graph.levels:
                dz = abs(lvl.height - e.elevation)
                if dz <= 1e-6:
                    self.zones.append(
                        _Zone(
                            e.x,
                            e.y,
                            e.radius + r + _GRID,
                            lvl.index,
                            False,
                            f"the enemy operative at {where}",
                        )
                    )
                if engaged or dz >= CONTROL_RANGE:
                    continue
                reach = e.radius + r + math.sqrt(CONTROL_RANGE**2 - dz * dz) + _GRID
                # Without terrain in the disc nothing can block sight nor lengthen the 1" around
                # a wall: the disc is the control range (4.2) and needs no exact check.
                exact = graph.terrain_near(e.x, e.y, reach)
                self.zones.append(
                    _Zone(
                        e.x,
                        e.y,
                        reach,
                        lvl.index,
                        action == "charge",
                        f"the control range of the enemy operative at {where}",
                        enemy=j,
                        exact=exact,
                    )
                )

    def zone_contains(self, zone: _Zone, p: XY) -> bool:
        """Whether the mover's centre at ``p`` (on the zone's level) is inside ``zone``: for
        a base zone, inside the disc; for a control-range zone, within the enemy's control
        range: inside the disc and, when ``exact``, visible and within 1" (4.2)."""
        if not zone.inside(p):
            return False
        if zone.enemy < 0 or not zone.exact:
            return True
        key = (zone.enemy, zone.level, p)
        hit = self.in_range.get(key)
        if hit is None:
            z = self.g.levels[zone.level].height
            e = self.enemies[zone.enemy]
            hit = self.in_range[key] = within_control_range(
                self.kz, self.mover.moved(p[0], p[1], z), e
            )
        return hit

    def zone_crosses(self, zone: _Zone, lu: int, pu: XY, lv: int, pv: XY) -> bool:
        """Whether the straight link ``pu`` -> ``pv`` enters ``zone`` (any point of it; the
        end points included). A control-range zone with ``exact`` on a same-level link is
        checked as :func:`check_path` checks explicit paths: every 0.05" of the part of the
        link inside the disc, with the exact control range (4.2); a link between levels keeps
        the disc (conservative)."""
        if not zone.hits(pu, pv):
            return False
        if zone.enemy < 0 or not zone.exact or lu != lv:
            return True
        key = (zone.enemy, lu, pu, lv, pv)
        hit = self.crosses.get(key)
        if hit is not None:
            return hit
        # The chord of the link inside the disc: t in [t0, t1] along pu -> pv.
        dx, dy = pv[0] - pu[0], pv[1] - pu[1]
        fx, fy = pu[0] - zone.x, pu[1] - zone.y
        a = dx * dx + dy * dy
        t0, t1 = 0.0, 1.0
        if a > 0:
            b = fx * dx + fy * dy
            c = fx * fx + fy * fy - zone.radius * zone.radius
            root = math.sqrt(max(0.0, b * b - a * c))
            t0, t1 = max(0.0, (-b - root) / a), min(1.0, (-b + root) / a)
        steps = max(1, math.ceil(math.sqrt(a) * (t1 - t0) / _SAMPLE_STEP))
        z = self.g.levels[lu].height
        e = self.enemies[zone.enemy]
        hit = False
        # Nearest the enemy first: where the link is most likely within its control range.
        tc = min(t1, max(t0, -(fx * dx + fy * dy) / a)) if a > 0 else t0
        ts = sorted(
            (t0 + (t1 - t0) * k / steps for k in range(steps + 1)), key=lambda t: abs(t - tc)
        )
        for t in ts:
            x, y = pu[0] + t * dx, pu[1] + t * dy
            if within_control_range(self.kz, self.mover.moved(x, y, z), e):
                hit = True
                break
        self.crosses[key] = hit
        return hit

    def final_reason(self, level: Level | None, x: float, y: float, elevation: float) -> str | None:
        """Why the operative cannot finish at ``(x, y, elevation)`` (3.2, 3.3), or ``None``."""
        g = self.g
        if level is None:
            return (
                f'there is no Vantage terrain at elevation {elevation:g}" under '
                f"({x:g}, {y:g}) to finish on (KT24 3.3)"
            )
        r = g.radius
        if x - r < -_TOL or y - r < -_TOL or x + r > self.kz.width + _TOL:
            return "the destination base is not wholly on the board (KT24 3.3)"
        if y + r > self.kz.depth + _TOL:
            return "the destination base is not wholly on the board (KT24 3.3)"
        if not shapely.intersects_xy(level.strict_tol, x, y):
            return f"{g._placement_reason(level, (x, y))} (KT24 3.3)"
        final = self.mover.moved(x, y, elevation)
        for other in (*self.friends, *self.enemies):
            if abs(other.elevation - final.elevation) > 1e-6:
                continue
            if math.hypot(other.x - x, other.y - y) < other.radius + r - _TOL:
                side = "enemy" if other in self.enemies else "friendly"
                return (
                    f"the destination base overlaps the {side} operative at "
                    f"({other.x:g}, {other.y:g}): bases may touch but never overlap (KT24 3.3)"
                )
        in_range = [e for e in self.enemies if within_control_range(self.kz, final, e)]
        if self.action == "charge":
            if not in_range:
                return "Charge must finish within control range of an enemy (KT24 3.2)"
        elif in_range:
            e = in_range[0]
            return (
                f"path ends within control range of an enemy (the operative at "
                f"({e.x:g}, {e.y:g})): {self.name} cannot finish there (KT24 3.2)"
            )
        return None


# -------------------------------------------------------------------------------------------
# Shortest path
# -------------------------------------------------------------------------------------------


def _destination(
    g: MoveGraph, destination: Placement | Sequence[float]
) -> tuple[Level | None, float, float, float]:
    if isinstance(destination, Placement):
        x, y, z = destination.x, destination.y, destination.elevation
        return g.level_at(x, y, z), x, y, z
    coords = tuple(float(c) for c in destination)
    if len(coords) == 3:
        x, y, z = quantise(coords[0]), quantise(coords[1]), quantise(coords[2])
        return g.level_at(x, y, z), x, y, z
    if len(coords) != 2:
        raise MoveError(
            f"a destination is (x, y), (x, y, elevation) or a Placement, not {destination!r}"
        )
    x, y = quantise(coords[0]), quantise(coords[1])
    pt = Point(x, y)
    if g.levels[0].strict_tol.covers(pt):
        return g.levels[0], x, y, 0.0
    for lvl in g.levels[1:]:
        if lvl.strict_tol.covers(pt):
            return lvl, x, y, lvl.height
    return g.levels[0], x, y, 0.0


def _increments(
    points: Sequence[Point3], links: Sequence[_Link]
) -> tuple[tuple[Increment, ...], float]:
    free = FREE_DROP
    out: list[Increment] = []
    total = 0.0
    for (p, q), link in zip(itertools.pairwise(points), links, strict=True):
        cost, free = link.cost(free)
        total += cost
        out.append(
            Increment(
                start=p,
                end=q,
                kind=link.kind,
                horizontal=link.horizontal,
                climb=link.climb,
                drop=link.drop,
                crossings=link.crossings,
                cost=cost,
            )
        )
    return tuple(out), total


def _make_path(q: _Query, points: Sequence[Point3], links: Sequence[_Link]) -> MovePath:
    incs, cost = _increments(points, links)
    length = sum(math.dist(p, r) for p, r in itertools.pairwise(points))
    end = points[-1]
    return MovePath(
        action=q.action,
        points=tuple(points),
        increments=incs,
        length=length,
        cost=cost,
        final=q.mover.moved(end[0], end[1], end[2]),
    )


def shortest_path(
    kz: Killzone,
    mover: Placement,
    destination: Placement | Sequence[float],
    *,
    action: str = "reposition",
    enemies: Sequence[Placement] = (),
    friends: Sequence[Placement] = (),
    move: float = 6.0,
    max_cost: float | None = None,
    graph: MoveGraph | None = None,
) -> MovePath | None:
    """The cheapest legal path of a move action from ``mover`` to ``destination``.

    Rules: 3.2 (what each action allows), 3.3 (increments, climbing, dropping, jumping, bases),
    4.6 (Accessible +1"), 9.3 (walls). The path minimises the cost in inches (ties: the
    shorter); see the module docstring for the model and its simplifications.

    Args:
        kz: the killzone (its hatchway state is used).
        mover: the moving operative (its base size picks the graph; its elevation its level).
        destination: a :class:`Placement` (its x, y, elevation), ``(x, y, elevation)`` or
            ``(x, y)`` in inches; ``(x, y)`` is on the floor if a base can stand there, else on
            the lowest Vantage level where it can.
        action: ``"reposition"``, ``"dash"``, ``"fall_back"`` or ``"charge"``.
        enemies: enemy operatives (their bases cannot be crossed; their control range limits
            the move as the action says).
        friends: other friendly operatives (passable; the destination may not overlap them;
            the mover itself is ignored if listed).
        move: the operative's Move stat (inches).
        max_cost: overrides the action's distance (inches), e.g. a counteraction's 2".
        graph: a prebuilt :class:`MoveGraph` for this killzone and base size (default: the
            cached :func:`move_graph`).

    Returns:
        The :class:`MovePath`, or ``None`` when the destination is a legal place to finish
        but no legal path reaches it within the action's distance.

    Raises:
        MoveError: an unknown action; the action cannot be performed from the start
            (Reposition, Dash and Charge within an enemy's control range, Fall Back outside
            any); the destination is not a legal place to finish (off the board, overlapping
            terrain or another base, within an enemy's control range for Reposition, Dash and
            Fall Back, outside every enemy's control range for Charge).
    """
    act = _action(action)
    limit = max_move(act, move) if max_cost is None else float(max_cost)
    g = graph if graph is not None else move_graph(kz, mover.base_mm)
    q = _Query(kz, g, mover, act, enemies, friends, limit)
    lvl_d, dx, dy, dz = _destination(g, destination)
    reason = q.final_reason(lvl_d, dx, dy, dz)
    if reason is not None:
        raise MoveError(reason)
    assert lvl_d is not None
    return _search(q, lvl_d.index, (dx, dy))


def _search(q: _Query, goal_level: int, goal: XY) -> MovePath | None:
    """A* from the query's start to ``goal`` on level ``goal_level`` (module docstring)."""
    g = q.g
    s, la = q.start, q.start_level
    limit = q.limit
    if math.dist(s, goal) > limit + _ROUND_TOL:
        return None
    dash = q.action == "dash"
    zones = q.zones
    z_of = [lvl.height for lvl in g.levels]
    r = g.radius

    in_zone, crosses_zone = q.zone_contains, q.zone_crosses

    def zones_ok(lu: int, pu: XY, lv: int, pv: XY) -> bool:
        for zone in zones:
            if zone.final_only:
                # Charge: once within this enemy's control range, stay within it (3.2).
                in_v = zone.level == lv and in_zone(zone, pv)
                if not in_v and (
                    (zone.level == lu and in_zone(zone, pu))
                    or (
                        (zone.level == lu or zone.level == lv)
                        and crosses_zone(zone, lu, pu, lv, pv)
                    )
                ):
                    return False
            elif (zone.level == lu or zone.level == lv) and crosses_zone(zone, lu, pu, lv, pv):
                return False
        return True

    def classify(lu: int, pu: XY, lv: int, pv: XY) -> _Link | str:
        key = (lu, pu, lv, pv)
        link = q.links.get(key)
        if link is None:
            link = q.links[key] = g.classify(lu, pu, lv, pv, explain=False)
        return link

    def usable(link: _Link | str) -> _Link | None:
        if isinstance(link, str) or (dash and link.climbs):
            return None
        return link

    # The straight line, when it is a plain move, is the cheapest path.
    direct = usable(g.classify(la, s, goal_level, goal, explain=False))
    if direct is not None and not zones_ok(la, s, goal_level, goal):
        direct = None
    if direct is not None and direct.kind == "move" and direct.crossings == 0:
        pts = [(s[0], s[1], z_of[la]), (goal[0], goal[1], z_of[goal_level])]
        path = _make_path(q, pts, [direct])
        return path if path.cost <= limit + 1e-9 else None

    # Static nodes in the ellipse of reachable points, outside every zone.
    xy = g.xy
    n = xy.shape[0]
    allowed = (
        np.hypot(xy[:, 0] - s[0], xy[:, 1] - s[1])
        + np.hypot(xy[:, 0] - goal[0], xy[:, 1] - goal[1])
        <= limit + _ROUND_TOL
    )
    for zone in zones:
        if zone.final_only:
            continue
        inside = np.hypot(xy[:, 0] - zone.x, xy[:, 1] - zone.y) < zone.radius - 1e-6
        inside &= g.node_level == zone.level
        if zone.exact and zone.enemy >= 0:
            for v in np.flatnonzero(inside & allowed).tolist():
                inside[v] = in_zone(zone, g._xy_list[v])
        allowed &= ~inside
    allowed_list: list[bool] = allowed.tolist()

    # Dynamic nodes: the start (n), the goal (n + 1), corners of octagons around zones.
    start_node, goal_node = n, n + 1
    pos: dict[int, tuple[int, XY]] = {start_node: (la, s), goal_node: (goal_level, goal)}
    k = n + 2
    for zone in zones:
        if (
            math.hypot(zone.x - s[0], zone.y - s[1])
            + math.hypot(zone.x - goal[0], zone.y - goal[1])
            > limit + 2 * zone.radius + 1
        ):
            continue
        lvl = g.levels[zone.level]
        rr = (zone.radius + _TOL) / math.cos(math.pi / 8)
        for j in range(8):
            ang = j * math.pi / 4 + math.pi / 8
            p = (quantise(zone.x + rr * math.cos(ang)), quantise(zone.y + rr * math.sin(ang)))
            if math.dist(s, p) + math.dist(p, goal) > limit + _ROUND_TOL:
                continue
            if not shapely.intersects_xy(lvl.passage_tol, p[0], p[1]):
                continue
            if any(z.level == zone.level and not z.final_only and in_zone(z, p) for z in zones):
                continue
            pos[k] = (zone.level, p)
            k += 1
    extra: dict[int, list[tuple[int, float, _Link]]] = {}
    linked: set[tuple[int, int]] = set()

    def link_dyn(u: int, v: int, link: _Link | None) -> None:
        if link is None or (u, v) in linked:
            return
        lu, pu = pos[u] if u >= n else (g._lvl_list[u], g._xy_list[u])
        lv, pv = pos[v] if v >= n else (g._lvl_list[v], g._xy_list[v])
        if not zones_ok(lu, pu, lv, pv):
            return
        linked.add((u, v))
        extra.setdefault(u, []).append((v, link.weight, link))

    # Same-level visibility between the dynamic nodes and every candidate.
    for u, (lu, pu) in pos.items():
        lvl = g.levels[lu]
        ids = np.nonzero(allowed & (g.node_level == lu))[0].tolist()
        ids += [v for v, (lv, _) in pos.items() if lv == lu and v != u]
        if not ids:
            continue
        arr = np.asarray([g._xy_list[v] if v < n else pos[v][1] for v in ids], dtype=float)
        lines = shapely.linestrings(
            np.stack([np.broadcast_to(np.asarray(pu, dtype=float), arr.shape), arr], axis=1)
        )
        seen: list[bool] = np.asarray(shapely.covers(lvl.passage_tol, lines)).tolist()
        for v, ok in zip(ids, seen, strict=True):
            if not ok:
                continue
            pv = g._xy_list[v] if v < n else pos[v][1]
            if u != goal_node and v != start_node:
                link_dyn(
                    u, v, _Link("move", math.dist(pu, pv), crossings=g._crossings(lvl, pu, pv))
                )
            if v < n and u != start_node:
                link_dyn(
                    v, u, _Link("move", math.dist(pv, pu), crossings=g._crossings(lvl, pv, pu))
                )
    # Climbing over, onto and off terrain from the start and into the goal.
    reach = r + CLIMB_RANGE + _TOL
    far = JUMP_MAX + 2 * r + CLIMB_RANGE
    for u in (start_node, goal_node):
        lu, pu = pos[u]
        pt = Point(pu)
        cands: set[int] = set()
        if lu == 0:
            # Over low parts: only nodes whose line from/to u crosses the part.
            for i in g.kz.parts_near(pt, reach):
                ids = [
                    v
                    for v in g._over_near.get(int(i), ())
                    if allowed_list[v] and ((u, v) if u == start_node else (v, u)) not in linked
                ]
                if not ids:
                    continue
                arr = np.asarray([g._xy_list[v] for v in ids], dtype=float)
                lines = shapely.linestrings(
                    np.stack([np.broadcast_to(np.asarray(pu, dtype=float), arr.shape), arr], 1)
                )
                crosses: list[bool] = np.asarray(
                    shapely.intersects(g.kz.parts[int(i)].polygon, lines)
                ).tolist()
                cands.update(v for v, c in zip(ids, crosses, strict=True) if c)
        for lvl in g.levels[1:]:
            if lvl.index == lu:
                continue
            d_fp = float(lvl.footprint.distance(pt))
            if lvl.height > z_of[lu]:
                # Climbing onto it (from u) or dropping off it (into u); jumping between
                # Vantage levels.
                if not (d_fp <= reach or (lu != 0 and d_fp <= JUMP_MAX + r + _TOL)):
                    continue
            elif d_fp > JUMP_MAX + r + _TOL:
                continue
            cands.update(np.nonzero(g.node_level == lvl.index)[0].tolist())
        if lu != 0:
            # Off the level u is on (start) / onto it (goal): nodes within 1" of it.
            near_ids = g._near[lu]
            cands.update(near_ids[g._fp_dist[lu, near_ids] <= reach].tolist())
        for v in sorted(cands):
            if not allowed_list[v]:
                continue
            lv, pv = g._lvl_list[v], g._xy_list[v]
            if math.dist(pu, pv) > far:
                continue
            if u == start_node:
                if (u, v) not in linked:
                    link_dyn(u, v, usable(classify(lu, pu, lv, pv)))
            elif (v, u) not in linked:
                link_dyn(v, u, usable(classify(lv, pv, lu, pu)))
    link_dyn(start_node, goal_node, direct)

    # A* on cost (ties: length); heuristic: straight-line distance (cost >= length).
    out = g._out
    lvl_list = g._lvl_list
    xy_list = g._xy_list
    best: dict[int, float] = {start_node: 0.0}
    parent: dict[int, tuple[int, _Link]] = {}
    heap: list[tuple[float, float, int]] = [(math.dist(s, goal), 0.0, start_node)]
    done: set[int] = set()
    bound = limit + 0.5
    while heap:
        f, d, u = heapq.heappop(heap)
        if u in done:
            continue
        if u == goal_node:
            break
        if f > bound:
            return None
        done.add(u)
        if u < n:
            pu, lu = xy_list[u], lvl_list[u]
            for v, w, link in out[u]:
                if not allowed_list[v] or (dash and link.climbs):
                    continue
                nd = d + w
                if nd >= best.get(v, math.inf) - 1e-12:
                    continue
                if zones and not zones_ok(lu, pu, lvl_list[v], xy_list[v]):
                    continue
                best[v] = nd
                parent[v] = (u, link)
                heapq.heappush(heap, (nd + math.dist(xy_list[v], goal), nd, v))
        for v, w, link in extra.get(u, ()):
            nd = d + w
            if nd >= best.get(v, math.inf) - 1e-12:
                continue
            best[v] = nd
            parent[v] = (u, link)
            pv = pos[v][1] if v >= n else xy_list[v]
            heapq.heappush(heap, (nd + math.dist(pv, goal), nd, v))
    if goal_node not in parent:
        return None
    nodes = [goal_node]
    links: list[_Link] = []
    while nodes[-1] != start_node:
        prev, link = parent[nodes[-1]]
        links.append(link)
        nodes.append(prev)
    nodes.reverse()
    links.reverse()
    points: list[Point3] = []
    for v in nodes:
        lv, pv = pos[v] if v >= n else (lvl_list[v], xy_list[v])
        points.append((pv[0], pv[1], z_of[lv]))
    path = _make_path(q, points, links)
    return path if path.cost <= limit + 1e-9 else None


# -------------------------------------------------------------------------------------------
# Explicit paths
# -------------------------------------------------------------------------------------------


def check_path(
    kz: Killzone,
    mover: Placement,
    points: Sequence[Sequence[float]],
    *,
    action: str = "reposition",
    enemies: Sequence[Placement] = (),
    friends: Sequence[Placement] = (),
    move: float = 6.0,
    max_cost: float | None = None,
    graph: MoveGraph | None = None,
) -> MovePath:
    """Check an explicit path of a move action and cost it (3.2, 3.3, 4.6, 9.3).

    Args:
        kz, mover, action, enemies, friends, move, max_cost, graph: as for
            :func:`shortest_path`.
        points: the ends of the straight increments after the start, each ``(x, y)`` (same
            elevation as the point before) or ``(x, y, elevation)`` (inches); a first point
            equal to the mover's position is skipped.

    Returns:
        The :class:`MovePath` (its ``cost`` is the inches of movement used).

    Raises:
        MoveError: naming the rule: an unknown action, or one that cannot be performed here;
            an increment that leaves the board, crosses terrain it cannot (a Wall, a part too
            high to climb, a climb not started within 1"), a jump longer than 4"; a Dash that
            climbs; passing through an enemy's base; moving within an enemy's control range
            when the action forbids it (checked exactly, every 0.05"); a Charge leaving the
            control range of an enemy no other friendly engages; an end that is not a legal
            place to finish; a cost above the action's distance.
    """
    act = _action(action)
    limit = max_move(act, move) if max_cost is None else float(max_cost)
    g = graph if graph is not None else move_graph(kz, mover.base_mm)
    q = _Query(kz, g, mover, act, enemies, friends, limit)
    pts: list[Point3] = [(mover.x, mover.y, g.levels[q.start_level].height)]
    levels = [q.start_level]
    for k, raw in enumerate(points):
        c = tuple(float(v) for v in raw)
        if len(c) not in (2, 3):
            raise MoveError(f"path point {k} must be (x, y) or (x, y, elevation), not {raw!r}")
        x, y = quantise(c[0]), quantise(c[1])
        z = quantise(c[2]) if len(c) == 3 else pts[-1][2]
        if k == 0 and len(points) > 1 and (x, y, z) == pts[0]:
            continue
        lvl = g.level_at(x, y, z)
        if lvl is None:
            raise MoveError(
                f'path point {k} ({x:g}, {y:g}) at elevation {z:g}" is not on the floor or on '
                "Vantage terrain (KT24 3.3: an operative cannot end an increment mid-climb)"
            )
        pts.append((x, y, lvl.height))
        levels.append(lvl.index)
    if len(pts) < 2:
        raise MoveError("the path has no increment")
    links: list[_Link] = []
    locked: set[int] = set()  # Charge: enemies whose control range the mover has entered
    for k in range(1, len(pts)):
        a, b = pts[k - 1][:2], pts[k][:2]
        where = f"increment {k} ({a[0]:g}, {a[1]:g}) -> ({b[0]:g}, {b[1]:g})"
        link = g.classify(levels[k - 1], a, levels[k], b)
        if isinstance(link, str):
            raise MoveError(f"{where}: {link}")
        if act == "dash" and link.climbs:
            raise MoveError(f"{where}: Dash cannot climb (KT24 3.2)")
        _check_operatives(q, a, levels[k - 1], b, levels[k], where, locked, k == len(pts) - 1)
        links.append(link)
    end = pts[-1]
    reason = q.final_reason(g.levels[levels[-1]], end[0], end[1], end[2])
    if reason is not None:
        raise MoveError(reason)
    path = _make_path(q, pts, links)
    if path.cost > limit + 1e-9:
        raise MoveError(
            f'the path costs {path.cost:g}" but {q.name} allows at most {limit:g}" (KT24 3.2, 3.3)'
        )
    return path


def _check_operatives(
    q: _Query, a: XY, la: int, b: XY, lb: int, where: str, locked: set[int], last: bool
) -> None:
    """Enemy bases and control range along one increment of an explicit path (3.2, 3.3).

    Control range is checked exactly every 0.05" (and at the increment's end, except for the
    path's end, which :meth:`_Query.final_reason` checks)."""
    g = q.g
    r = g.radius
    steps = max(1, math.ceil(math.dist(a, b) / _SAMPLE_STEP))
    for j, e in enumerate(q.enemies):
        same_level = any(abs(g.levels[lv].height - e.elevation) <= 1e-6 for lv in (la, lb))
        gap = _seg_point_distance(a, b, (e.x, e.y))
        if same_level and gap < e.radius + r - _TOL:
            raise MoveError(
                f"{where}: passes through the enemy operative at ({e.x:g}, {e.y:g}): operatives "
                "cannot move through enemy operatives (KT24 3.3)"
            )
        if q.engaged[j] and q.action != "charge":
            continue  # Fall Back, or an enemy a friendly already engages: may pass through
        if gap > e.radius + r + CONTROL_RANGE + _TOL:
            if j in locked:
                raise MoveError(
                    f"{where}: leaves the control range of the enemy operative at "
                    f"({e.x:g}, {e.y:g}) it charged into (KT24 3.2)"
                )
            continue
        for k in range(1, steps + 1):
            t = k / steps
            p = _lerp(a, b, t)
            z = g.levels[lb if t > 0.5 else la].height
            inside = within_control_range(q.kz, q.mover.moved(p[0], p[1], z), e)
            if q.action == "charge":
                if inside and not q.engaged[j]:
                    locked.add(j)
                elif not inside and j in locked:
                    raise MoveError(
                        f"{where}: leaves the control range of the enemy operative at "
                        f"({e.x:g}, {e.y:g}) it charged into (KT24 3.2)"
                    )
            elif inside and not (last and k == steps):
                raise MoveError(
                    f"{where}: moves within control range of an enemy (the operative at "
                    f"({e.x:g}, {e.y:g})): {q.name} cannot (KT24 3.2)"
                )


def move_cost(
    kz: Killzone,
    mover: Placement,
    points: Sequence[Sequence[float]],
    *,
    action: str = "reposition",
    enemies: Sequence[Placement] = (),
    friends: Sequence[Placement] = (),
    move: float = 6.0,
    max_cost: float | None = None,
    graph: MoveGraph | None = None,
) -> float:
    """The inches of movement an explicit path uses (3.3): :func:`check_path`'s cost.

    Raises:
        MoveError: when the path is illegal, naming the rule (see :func:`check_path`).
    """
    return check_path(
        kz,
        mover,
        points,
        action=action,
        enemies=enemies,
        friends=friends,
        move=move,
        max_cost=max_cost,
        graph=graph,
    ).cost


# -------------------------------------------------------------------------------------------
# Candidate destinations (for agents)
# -------------------------------------------------------------------------------------------


def candidate_destinations(
    kz: Killzone,
    mover: Placement,
    *,
    action: str = "reposition",
    enemies: Sequence[Placement] = (),
    friends: Sequence[Placement] = (),
    objectives: bool = True,
    move: float = 6.0,
    max_cost: float | None = None,
    directions: int = 16,
    graph: MoveGraph | None = None,
) -> list[Placement]:
    """A deterministic list of places the move action can reach, for agents.

    Candidates: for each of ``directions`` directions, the point at the action's full
    distance and at half of it (pulled back along the ray to the last point a base can stand
    on the mover's level); spots just outside Heavy and Light parts (their corners and the
    middles of their sides, a base's width away); on Vantage levels in reach, the point
    nearest the mover; around objective markers in reach, the marker's centre and 8 spots
    whose bases are 0.5" from it (``objectives=True``); for a Charge, 8 spots around each
    enemy in reach, 0.5" from its base. Each is kept only if :func:`shortest_path` finds a
    legal path; results are deduplicated and sorted by (x, y, elevation).

    Args:
        kz, mover, action, enemies, friends, move, max_cost, graph: as for
            :func:`shortest_path`.
        objectives: include the objective-marker spots.
        directions: number of ring directions.

    Returns:
        The final placements (empty when the action cannot be performed from here).

    Raises:
        MoveError: for an unknown action.
    """
    act = _action(action)
    limit = max_move(act, move) if max_cost is None else float(max_cost)
    g = graph if graph is not None else move_graph(kz, mover.base_mm)
    try:
        q = _Query(kz, g, mover, act, enemies, friends, limit)
    except MoveError:
        return []
    r = g.radius
    s = q.start
    start_level = g.levels[q.start_level]
    spots: list[tuple[float, float, float]] = []
    z0 = start_level.height
    # A straight increment costs its length rounded up: the full ring is at whole inches.
    full = math.floor(limit + _ROUND_TOL) if limit >= 1 else limit
    units = [
        (math.cos(2 * math.pi * j / directions), math.sin(2 * math.pi * j / directions))
        for j in range(directions)
    ]
    for (ux, uy), ray in zip(units, _straight_reach(start_level, s, units, full), strict=True):
        reach = min(full, ray)
        for dist_ in sorted({reach, min(reach, full / 2)}):
            if dist_ > 0.05:
                spots.append((s[0] + ux * dist_, s[1] + uy * dist_, z0))
    reach_zone = Point(s).buffer(limit + r + 1.0)
    for i in kz.parts_near(reach_zone):
        types = kz.part_types(int(i))
        if TerrainType.HEAVY not in types and TerrainType.LIGHT not in types:
            continue
        if int(i) not in g.levels[0].blockers:
            continue
        ring = _bevel_buffer(kz.parts[int(i)].polygon, r + _GRID + 0.05)
        coords = np.asarray(shapely.get_coordinates(shapely.get_exterior_ring(ring)))[:-1]
        for m, c in enumerate(coords):
            spots.append((float(c[0]), float(c[1]), 0.0))
            nxt = coords[(m + 1) % len(coords)]
            if math.dist(c, nxt) > 1.5:
                spots.append((float(c[0] + nxt[0]) / 2, float(c[1] + nxt[1]) / 2, 0.0))
    for lvl in g.levels:
        if lvl.index == start_level.index or lvl.strict.is_empty:
            continue
        if lvl.footprint.distance(Point(s)) > limit:
            continue
        near = nearest_points(lvl.strict, Point(s))[0]
        c = lvl.strict.centroid
        spots.append((float(near.x), float(near.y), lvl.height))
        inward = (c.x - near.x, c.y - near.y)
        norm = math.hypot(*inward)
        if norm > 0.2:
            spots.append(
                (near.x + inward[0] / norm * 0.2, near.y + inward[1] / norm * 0.2, lvl.height)
            )
    if objectives:
        for obj in kz.objectives:
            ox, oy = obj.position
            if math.hypot(ox - s[0], oy - s[1]) > limit + obj.radius + r + CONTROL_RANGE:
                continue
            spots.append((ox, oy, 0.0))
            ring_r = obj.radius + r + 0.5
            for j in range(8):
                ang = j * math.pi / 4
                spots.append((ox + ring_r * math.cos(ang), oy + ring_r * math.sin(ang), 0.0))
    if act == "charge":
        for e in q.enemies:
            ring_r = e.radius + r + 0.5
            if math.hypot(e.x - s[0], e.y - s[1]) > limit + ring_r:
                continue
            for j in range(8):
                ang = j * math.pi / 4
                spots.append(
                    (e.x + ring_r * math.cos(ang), e.y + ring_r * math.sin(ang), e.elevation)
                )
    return _reachable(q, spots)


def _reachable(q: _Query, spots: Sequence[Sequence[float]]) -> list[Placement]:
    """The final placements of the spots (``(x, y, elevation)``, quantised, deduplicated)
    that are legal places to finish and that a legal path reaches, sorted."""
    g = q.g
    s = q.start
    seen: dict[tuple[float, float, float], Placement] = {}
    tried: set[tuple[float, float, float]] = set()
    for x, y, z in spots:
        key = (quantise(x), quantise(y), quantise(z))
        if key in tried or math.hypot(key[0] - s[0], key[1] - s[1]) > q.limit + _ROUND_TOL:
            continue
        tried.add(key)
        spot_level = g.level_at(key[0], key[1], key[2])
        if spot_level is None or q.final_reason(spot_level, *key) is not None:
            continue
        path = _search(q, spot_level.index, (key[0], key[1]))
        if path is not None:
            seen[key] = path.final
    return [seen[k] for k in sorted(seen)]


def reachable(
    kz: Killzone,
    mover: Placement,
    spots: Sequence[Sequence[float]],
    *,
    action: str = "reposition",
    enemies: Sequence[Placement] = (),
    friends: Sequence[Placement] = (),
    move: float = 6.0,
    max_cost: float | None = None,
    graph: MoveGraph | None = None,
) -> list[Placement]:
    """Of the candidate end points ``spots``, those the move action can reach (3.2, 3.3):
    legal places to finish that a legal path reaches within the action's distance. One
    query serves every spot, so this is much cheaper than a :func:`shortest_path` per spot.

    Args:
        kz, mover, action, enemies, friends, move, max_cost, graph: as for
            :func:`shortest_path`.
        spots: ``(x, y, elevation)`` points in inches.

    Returns:
        The final placements, deduplicated (positions quantised to 0.001") and sorted by
        (x, y, elevation); empty when the action cannot be performed from here.

    Raises:
        MoveError: for an unknown action.
    """
    act = _action(action)
    limit = max_move(act, move) if max_cost is None else float(max_cost)
    g = graph if graph is not None else move_graph(kz, mover.base_mm)
    try:
        q = _Query(kz, g, mover, act, enemies, friends, limit)
    except MoveError:
        return []
    return _reachable(q, spots)


def _straight_reach(
    level: Level, start: XY, directions: Sequence[XY], length: float
) -> list[float]:
    """For each unit direction, how far (inches, at most ``length``, pulled back 0.01") a
    straight line from ``start`` stays where a base can stand on ``level``."""
    if length <= 0:
        return [0.0] * len(directions)
    rays = [
        LineString([start, (start[0] + ux * length, start[1] + uy * length)])
        for ux, uy in directions
    ]
    origin = Point(start)
    out: list[float] = []
    for part in shapely.intersection(rays, level.strict_tol):
        reach = 0.0
        for piece in shapely.get_parts(part):
            if not piece.is_empty and piece.distance(origin) <= 1e-6:
                reach = max(reach, float(piece.length) - 0.01)
        out.append(max(0.0, reach))
    return out


def straight_reach(
    kz: Killzone,
    mover: Placement,
    directions: Sequence[XY],
    length: float,
    *,
    graph: MoveGraph | None = None,
) -> list[float]:
    """How far the mover's base can go in a straight line on its level in each direction
    before leaving the places it can stand (3.3), for candidate generators.

    Args:
        directions: unit vectors ``(ux, uy)``.
        length: the longest distance asked for (inches).

    Returns:
        One distance per direction in inches, at most ``length``, pulled back 0.01" (0 when
        the mover does not stand on a level of the graph).
    """
    g = graph if graph is not None else move_graph(kz, mover.base_mm)
    lvl = g.level_at(mover.x, mover.y, mover.elevation)
    if lvl is None:
        return [0.0] * len(directions)
    return _straight_reach(lvl, (mover.x, mover.y), directions, length)
