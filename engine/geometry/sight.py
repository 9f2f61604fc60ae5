"""Distances, visibility, control range, targeting lines, cover, obscured and valid targets.

Rules: ``rules/KT24.md`` sections 4.1 (distances), 4.2 (control range), 4.3 (visible), 4.4
(intervening, targeting lines), 4.5 (cover, obscured, valid target), 4.6 (terrain types),
4.7 (Vantage), 9.3 (close quarters: walls); ``EDGE_CASES.md`` 1 and 2; project decision 10
(3D distances between levels).

The killzone is 2.5D: every terrain part is a footprint polygon extruded from the floor to its
height. One numpy core (:func:`_lowest_crossings`) intersects many 3D segments with every part
at once; all queries are defined by it, so the single-pair functions and the vectorised
:func:`all_pairs` give the same answers. The single-pair queries (:func:`visible`,
:func:`targeting`, :func:`valid_target`, objective markers) run the same tests in plain Python
(:mod:`engine.geometry.sight_kernel`), line by line with early exits, because numpy on a
single pair's 19 or 25 lines costs more than it saves; the numpy versions stay as the reference
(:func:`_visible_reference`, :func:`_targeting_reference`, :func:`_valid_target_reference`)
and ``tests/test_sight_fast_path.py`` checks both agree exactly.

Modelling choices (documented approximations of tabletop judgement):

- **Visible** (4.3): a sight line runs from the viewer's head (centre of its base, model height
  above it) to one of 19 points on the target model (its base's cylinder up to the target's
  model height: three on the axis, eight around it at two heights). A part blocks a line where
  the line passes over its footprint below its top; Blocking and Wall parts block any line
  that crosses their footprint; Insignificant parts never block. Operatives never block.
- **Targeting lines** (4.4): from one of five points of the shooter's base (centre and four
  around the edge, at the shooter's elevation) to five points spread over the half of the
  target's base facing the shooter (at its elevation); lines are 3D, so when both are on the
  same level this is the top-down drawing, and between levels a line crosses a part only where
  it passes below the part's top. A feature intervenes if a line crosses one of its parts;
  Exposed parts never intervene. The shooter picks the origin point that favours it: first
  the target not in cover, then not obscured (centre first on ties).
- **In cover** (4.5): an intervening part giving cover (Heavy, Light, Vantage (as Light),
  Blocking, Wall) within 1" horizontally of the target's base; never when the operatives are
  within 2" of each other. The terrain's visibility to the target is not checked.
- **Obscured** (4.5, 4.7): an intervening Heavy part more than 1" (horizontally) from both
  operatives' bases, not part of the feature whose Vantage either operative stands on.
- **Distances around walls** (9.3): on a killzone with Wall terrain
  (:attr:`Killzone.close_quarters`), :func:`distance_around_walls` measures between two bases
  along the shortest route that does not pass through a Wall (or off the board), like a tape
  bent around the walls' corners; it is :func:`distance` when no wall is in the way. Control
  range (of operatives and objective markers) and :attr:`AllPairs.distance` use it; plain
  :func:`distance` and :func:`distance_to_area` (areas are measured straight, 9.3) do not
  change. The route is worked out on the floor plan (walls as full-height footprints).
- **Walls for cover and obscured** (9.3: "only the corners and ends of walls intervene
  (minor protrusions don't count), unless the active operative has passed them"). On a
  killzone with Wall terrain, the *corners* are the convex corners of the union of its Wall
  parts in the current hatchway state (:func:`wall_corners`; a closed hatchway joins the walls
  either side, an open one leaves an end on each side), except corners on the killzone edge
  and those of minor protrusions (next to a face shorter than 0.5" leading into a re-entrant
  corner). A wall's *end* is the part of a Wall part within 1" of one of its corners. A Wall
  part never intervenes itself (it still blocks sight); a targeting line that crosses one of
  its ends makes the wall intervene, unless the shooter has passed that corner (the corner is
  no further toward the target than the front of the shooter's base). The wall gives cover
  when a crossed end is within 1" of the target (the other cover conditions as above); it
  obscures when a crossed end is more than 1" from both operatives and none of that Wall
  part's crossed ends is within 1" of either (so a pillar or a wall beside the target gives
  cover rather than obscuring, like a Heavy part within 1"). A line through the middle of a
  wall, more than 1" from its corners, is not intervened by it. With the shooter's free
  choice of origin point, the "passed" condition seldom changes a verdict.
- **Same feature** (``EDGE_CASES.md`` 2): for the attack, a feature that would give both cover
  and obscured counts as obscuring only in :attr:`Targeting.in_cover` (the default; the game
  asks the defender, who may take cover from it instead, from :attr:`Targeting.cover_features`
  and :attr:`Targeting.obscuring_features`); for target selection, cover always counts, so
  a Conceal operative in cover is not a valid target.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

import attrs
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from engine.geometry import sight_kernel
from engine.geometry.model import (
    MM_PER_INCH,
    OBJECTIVE_DIAMETER_MM,
    Killzone,
    Objective,
    Placement,
    TerrainType,
)
from engine.geometry.sight_kernel import Parts as _Parts

__all__ = [
    "AllPairs",
    "Targeting",
    "all_pairs",
    "distance",
    "distance_around_walls",
    "distance_to_area",
    "improved_cover",
    "in_cover",
    "intervening",
    "marker_in_control_range",
    "objective_in_control_range",
    "obscured",
    "targeting",
    "valid_target",
    "vantage_accuracy",
    "vantage_improves_cover",
    "visible",
    "wall_corners",
    "within_control_range",
]

CONTROL_RANGE = 1.0  # inches (section 4.2)
COVER_MIN_DISTANCE = 2.0  # no cover within 2" of the shooter (section 4.5)
_EPS = 1e-6
#: How far past 1" (inches) a distance still counts as within control range: rounding only.
CONTROL_RANGE_TOLERANCE = _EPS
_INF = math.inf

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

# Sample points on a target model: (radius fraction, height fraction) around its axis.
_AXIS = ((0.0, 1.0), (0.0, 0.5), (0.0, 0.15))
_RING_ANGLES = np.linspace(0.0, 2 * np.pi, 8, endpoint=False)
_RING = tuple((0.8, h) for h in (0.9, 0.4))
# Shooter origins: centre then eight around the edge; target facing points: seven over 180°.
_ORIGIN_ANGLES = np.linspace(0.0, 2 * np.pi, 4, endpoint=False) + np.pi / 4
_FACING_OFFSETS = np.linspace(-np.pi / 2, np.pi / 2, 5)
_N_ORIGINS = 1 + _ORIGIN_ANGLES.size
_N_FACING = _FACING_OFFSETS.size


# -------------------------------------------------------------------------------------------
# Distances
# -------------------------------------------------------------------------------------------


def distance(a: Placement, b: Placement) -> float:
    """Distance between two operatives, in inches (section 4.1, decision 10).

    Measured between the closest points of the bases: horizontally when both are at the same
    elevation, in 3D (horizontal gap and height difference) when their elevations differ.
    """
    gap = max(0.0, math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius)
    dz = a.elevation - b.elevation
    return math.hypot(gap, dz) if dz else gap


def distance_to_area(p: Placement, area: Polygon) -> float:
    """Horizontal distance in inches from an operative's base to a killzone area (drop zone,
    territory): 0 when the base touches or overlaps it (section 4.1, decision 10)."""
    return max(0.0, float(area.distance(shapely.Point(p.x, p.y))) - p.radius)


# -------------------------------------------------------------------------------------------
# Close quarters: distances around walls (section 9.3)
# -------------------------------------------------------------------------------------------

_WALLS_KEY = "sight.walls"
_WALL_INSET = 1e-6  # a route may run along a wall's edge or touch its corner (inches)


@attrs.frozen(slots=True, eq=False)
class _Walls:
    """Per-killzone data for routes around walls (built once per hatchway state, cached).

    Attributes:
        solid: the Wall parts and everything off the board, united then shrunk by 1e-6"
            (prepared): a straight leg of a route may not meet it.
        nodes: corners of Wall parts a route can bend at, array (N, 2), inches.
        between: shortest route between every two nodes, array (N, N), inches (``inf`` when
            there is none).
    """

    solid: BaseGeometry
    nodes: FloatArray
    between: FloatArray


def _walls(kz: Killzone) -> _Walls | None:
    """The killzone's :class:`_Walls`, or ``None`` when it has no Wall part in its current
    hatchway state."""
    if _WALLS_KEY in kz._cache:
        return cast("_Walls | None", kz._cache[_WALLS_KEY])
    wall = kz.flags[TerrainType.WALL]
    value: _Walls | None = None
    if wall.any():
        polys = [kz.parts[i].polygon for i in np.flatnonzero(wall)]
        frame = shapely.box(-1, -1, kz.width + 1, kz.depth + 1).difference(kz.board)
        union = shapely.union_all([*polys, frame])
        solid = union.buffer(-_WALL_INSET, join_style="mitre")
        shapely.prepare(solid)
        corners = np.unique(
            np.concatenate([np.asarray(p.exterior.coords, dtype=float)[:-1] for p in polys]),
            axis=0,
        )
        # Corners inside the walls (where parts meet) or off the board are never bent at.
        keep = ~shapely.contains_xy(union, corners[:, 0], corners[:, 1])
        nodes = corners[keep]
        n = nodes.shape[0]
        between = np.full((n, n), math.inf)
        if n:
            iu, ju = np.triu_indices(n, k=1)
            legs = shapely.linestrings(np.stack([nodes[iu], nodes[ju]], axis=1))
            clear = ~shapely.intersects(solid, legs)
            length = np.hypot(*(nodes[iu] - nodes[ju]).T)
            between[iu[clear], ju[clear]] = length[clear]
            between[ju[clear], iu[clear]] = length[clear]
            np.fill_diagonal(between, 0.0)
            for k in range(n):  # Floyd-Warshall
                np.minimum(between, between[:, k, None] + between[None, k, :], out=between)
        value = _Walls(solid=solid, nodes=nodes, between=between)
    kz._cache[_WALLS_KEY] = value
    return value


def _routes(walls: _Walls, centres: FloatArray) -> tuple[FloatArray, BoolArray]:
    """Shortest routes around walls between every two points ``centres`` (array (n, 2),
    inches): matrix (n, n), ``inf`` where no route exists, symmetric by construction; and
    which pairs the straight line joins (no wall in the way; True on the diagonal)."""
    n = centres.shape[0]
    routes = np.full((n, n), math.inf)
    np.fill_diagonal(routes, 0.0)
    straight = np.eye(n, dtype=bool)
    if n < 2:
        return routes, straight
    iu, ju = np.triu_indices(n, k=1)
    legs = shapely.linestrings(np.stack([centres[iu], centres[ju]], axis=1))
    clear = ~shapely.intersects(walls.solid, legs)
    direct = np.hypot(*(centres[iu] - centres[ju]).T)
    routes[iu[clear], ju[clear]] = direct[clear]
    m = walls.nodes.shape[0]
    if m and not clear.all():
        # Straight legs from every centre to every node, then node to node.
        a = np.repeat(np.arange(n), m)
        k = np.tile(np.arange(m), n)
        to_nodes = shapely.linestrings(np.stack([centres[a], walls.nodes[k]], axis=1))
        reach = np.where(
            shapely.intersects(walls.solid, to_nodes),
            math.inf,
            np.hypot(*(centres[a] - walls.nodes[k]).T),
        ).reshape(n, m)
        via = (reach[:, :, None] + walls.between[None, :, :]).min(axis=1)  # (n, m)
        around = (via[:, None, :] + reach[None, :, :]).min(axis=2)  # (n, n)
        around = np.minimum(around, around.T)
        blocked = ~clear
        routes[iu[blocked], ju[blocked]] = around[iu[blocked], ju[blocked]]
    routes[ju, iu] = routes[iu, ju]
    straight[iu, ju] = straight[ju, iu] = clear
    return routes, straight


def _gap(route: float, a: Placement, b: Placement) -> float:
    """:func:`distance`'s formula with the centre-to-centre route ``route`` (inches)."""
    gap = max(0.0, route - a.radius - b.radius)
    dz = a.elevation - b.elevation
    return math.hypot(gap, dz) if dz else gap


def _distance_matrices(kz: Killzone, ops: Sequence[Placement]) -> tuple[FloatArray, FloatArray]:
    """:func:`distance` and :func:`distance_around_walls` for every pair of ``ops`` (two
    matrices (n, n), inches; the same array twice without walls)."""
    n = len(ops)
    dist = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            dist[i, j] = dist[j, i] = distance(ops[i], ops[j])
    walls = _walls(kz) if n > 1 else None
    if walls is None:
        return dist, dist
    around = dist.copy()
    routes, clear = _routes(walls, np.asarray([(p.x, p.y) for p in ops], dtype=float))
    for i, j in zip(*np.nonzero(np.triu(~clear, k=1)), strict=True):
        around[i, j] = around[j, i] = _gap(float(routes[i, j]), ops[i], ops[j])
    return dist, around


def distance_around_walls(kz: Killzone, a: Placement, b: Placement) -> float:
    """Distance between two operatives measured around walls, in inches (section 9.3, close
    quarters: "distances (except to killzone areas) are measured around walls by the
    shortest route").

    The route is the shortest line, as a tape measure would lie, from the centre of one base
    to the centre of the other that does not pass through Wall terrain (closed hatchways
    included, open ones not) nor off the board; it may run along a wall's edge and bend at
    its corners. The distance is that route less both base radii (so between the closest
    points of the bases along it), at least 0. When no wall is in the way it is exactly
    :func:`distance` (always so on a killzone without Wall terrain).

    Floor-level model: the route is found in the horizontal plane around the walls'
    footprints (walls are taken as full height: they cannot be moved or seen over); when the
    elevations differ, the horizontal route is combined with the height difference as in
    :func:`distance` (decision 10).

    Args:
        kz: the killzone, in its hatchway state.
        a, b: the two operatives (a marker can be given as a Placement of its size).

    Returns:
        Inches; ``math.inf`` when no route exists (a room sealed by walls and closed
        hatchways, or a base centred inside a Wall).
    """
    straight = distance(a, b)
    walls = _walls(kz)
    if walls is None or a == b:
        return straight
    leg = shapely.linestrings(np.asarray([(a.x, a.y), (b.x, b.y)], dtype=float))
    if not shapely.intersects(walls.solid, leg):
        return straight
    if not walls.nodes.shape[0]:
        return math.inf
    reach_a, via_a = _from_point(kz, walls, a.x, a.y)
    reach_b, via_b = _from_point(kz, walls, b.x, b.y)
    # As _routes finds it: the route a -> nodes -> b and the one b -> nodes -> a.
    route = min(float((via_a + reach_b).min()), float((via_b + reach_a).min()))
    return _gap(route, a, b)


_POINTS_KEY = "sight.around_walls_points"


def _from_point(kz: Killzone, walls: _Walls, x: float, y: float) -> tuple[FloatArray, FloatArray]:
    """From the point ``(x, y)`` (inches): the straight leg to each node of ``walls``
    (``inf`` where a wall is in the way) and the shortest route to each node through the
    others, arrays (N,), as :func:`_routes` computes them (the same arithmetic), cached per
    point on the killzone value (operatives stand still while many distances are taken)."""
    cache: dict[tuple[float, float], tuple[FloatArray, FloatArray]] = kz._cache.setdefault(
        _POINTS_KEY, {}
    )
    hit = cache.get((x, y))
    if hit is None:
        if len(cache) > 20_000:
            cache.clear()
        centre = np.asarray([x, y], dtype=float)
        nodes = walls.nodes
        legs = shapely.linestrings(np.stack([np.broadcast_to(centre, nodes.shape), nodes], axis=1))
        reach = np.where(
            shapely.intersects(walls.solid, legs),
            math.inf,
            np.hypot(*(centre - nodes).T),
        )
        via = (reach[:, None] + walls.between).min(axis=0)
        hit = cache[(x, y)] = (reach, via)
    return hit


# -------------------------------------------------------------------------------------------
# The numpy core: lowest crossing height of segments over part footprints
# -------------------------------------------------------------------------------------------


_PARTS_KEY = "sight.parts"
#: The end of a wall: the part of it within 1" of one of its corners (section 9.3).
WALL_END_REACH = 1.0
#: A corner of a wall next to a face shorter than 0.5" that leads into a re-entrant corner
#: belongs to a minor protrusion and is not a corner (section 9.3).
MINOR_PROTRUSION = 0.5


def _parts(kz: Killzone) -> _Parts:
    """The killzone's :class:`_Parts`, built on first use and cached on the killzone value
    (one per hatchway state, :meth:`Killzone.with_open_hatchways`)."""
    cached = kz._cache.get(_PARTS_KEY)
    if cached is None:
        cached = kz._cache[_PARTS_KEY] = _build_parts(kz)
    return cast(_Parts, cached)


def wall_corners(kz: Killzone) -> list[tuple[float, float]]:
    """The corners of the walls of a close quarters killzone, in its hatchway state (section
    9.3: "only the corners and ends of walls intervene; minor protrusions don't count").

    The corners are the convex corners of the union of the Wall parts (closed hatchways are
    Wall, so a closed hatchway joins the walls either side of it; an open one leaves an end on
    each side), except those on the killzone edge (a wall against the edge has no end there)
    and those of minor protrusions (next to a face shorter than 0.5" that leads into a
    re-entrant corner).

    Returns:
        ``(x, y)`` in inches, sorted; empty on a killzone without Wall terrain.
    """
    wall = np.flatnonzero(kz.flags[TerrainType.WALL])
    if not wall.size:
        return []
    union = shapely.union_all([kz.parts[int(i)].polygon for i in wall])
    out: set[tuple[float, float]] = set()
    for poly in shapely.get_parts(shapely.orient_polygons(union)):
        if not isinstance(poly, Polygon):
            continue
        for ring in (poly.exterior, *poly.interiors):
            c = np.asarray(ring.coords, dtype=float)[:-1]
            if len(c) < 3:
                continue
            prev, nxt = np.roll(c, 1, axis=0), np.roll(c, -1, axis=0)
            e0, e1 = c - prev, nxt - c
            # Oriented rings keep the walls on the left: a left turn is a convex corner.
            turn = e0[:, 0] * e1[:, 1] - e0[:, 1] * e1[:, 0]
            convex, reflex = turn > 1e-12, turn < -1e-12
            len0, len1 = np.hypot(e0[:, 0], e0[:, 1]), np.hypot(e1[:, 0], e1[:, 1])
            minor = ((len0 < MINOR_PROTRUSION) & np.roll(reflex, 1)) | (
                (len1 < MINOR_PROTRUSION) & np.roll(reflex, -1)
            )
            x, y = c[:, 0], c[:, 1]
            on_edge = (
                (np.abs(x) < 1e-9)
                | (np.abs(y) < 1e-9)
                | (np.abs(x - kz.width) < 1e-9)
                | (np.abs(y - kz.depth) < 1e-9)
            )
            for k in np.flatnonzero(convex & ~minor & ~on_edge):
                out.add((float(x[k]), float(y[k])))
    return sorted(out)


def _wall_ends(kz: Killzone) -> list[tuple[int, Polygon, tuple[float, float]]]:
    """The wall ends: (Wall part index, the part within 1" of the corner, the corner).

    They depend on the Wall parts alone (and the board's size): remembered on the layout as
    loaded for each set of Wall parts (the same part objects at the same indices), so the
    terrain variants of a hatchway state (equipment is never Wall, 7.2) share them."""
    root = kz.hatch_root if kz.hatch_root is not None else kz
    root = root.terrain_root if root.terrain_root is not None else root
    wall_idx = tuple(np.flatnonzero(kz.flags[TerrainType.WALL]).tolist())
    memo: dict[tuple[object, ...], tuple[tuple[object, ...], list[Any]]] = root._cache.setdefault(
        _WALL_ENDS_KEY, {}
    )
    key = (kz.width, kz.depth, wall_idx)
    parts = tuple(kz.parts[i] for i in wall_idx)
    hit = memo.get(key)
    if (
        hit is not None
        and len(hit[0]) == len(parts)
        and all(a is b for a, b in zip(hit[0], parts, strict=True))
    ):
        return list(hit[1])
    ends = _find_wall_ends(kz)
    if len(memo) > 64:
        memo.clear()
    memo[key] = (parts, ends)
    return list(ends)


_WALL_ENDS_KEY = "sight.wall_ends"


def _find_wall_ends(kz: Killzone) -> list[tuple[int, Polygon, tuple[float, float]]]:
    """:func:`_wall_ends` computed."""
    wall = kz.flags[TerrainType.WALL]
    out: list[tuple[int, Polygon, tuple[float, float]]] = []
    for corner in wall_corners(kz):
        pt = shapely.Point(corner)
        disc = pt.buffer(WALL_END_REACH, quad_segs=4)
        for i in kz.parts_near(pt, 1e-9):
            if not wall[i]:
                continue
            piece = kz.parts[int(i)].polygon.intersection(disc)
            for poly in shapely.get_parts(piece):
                if isinstance(poly, Polygon) and poly.area > 1e-9:
                    out.append((int(i), poly, corner))
    return out


def _build_parts(kz: Killzone) -> _Parts:
    ends = _wall_ends(kz)
    rows = np.concatenate([np.arange(len(kz.parts)), [i for i, _, _ in ends]]).astype(np.int64)
    polygons = [p.polygon for p in kz.parts] + [poly for _, poly, _ in ends]
    for poly in polygons[len(kz.parts) :]:
        shapely.prepare(poly)
    is_end = np.arange(rows.size) >= len(kz.parts)
    starts: list[FloatArray] = []
    stops: list[FloatArray] = []
    counts: list[int] = []
    for poly in polygons:
        n = 0
        for ring in (poly.exterior, *poly.interiors):
            xy = np.asarray(ring.coords, dtype=float)
            starts.append(xy[:-1])
            stops.append(xy[1:])
            n += len(xy) - 1
        counts.append(n)
    count = np.asarray(counts, dtype=np.int64)
    f = {t: v[rows] for t, v in kz.flags.items()}
    heavy = f[TerrainType.HEAVY] | f[TerrainType.BLOCKING] | f[TerrainType.WALL]
    lightish = f[TerrainType.LIGHT] | f[TerrainType.VANTAGE]
    intervene = ~f[TerrainType.EXPOSED]
    if ends:
        intervene &= is_end | ~f[TerrainType.WALL]
    corner = np.full((rows.size, 2), np.nan)
    if ends:
        corner[len(kz.parts) :] = [c for _, _, c in ends]
    return _Parts(
        bbox=np.asarray([p.bounds for p in polygons], dtype=float).reshape(-1, 4),
        edge_start=np.concatenate(starts) if starts else np.zeros((0, 2)),
        edge_end=np.concatenate(stops) if stops else np.zeros((0, 2)),
        edge_offset=np.cumsum(count) - count,
        edge_count=count,
        polygons=np.asarray(polygons, dtype=object).reshape(-1),
        heights=kz.heights[rows],
        feature=kz.part_feature[rows],
        sight_mask=~f[TerrainType.INSIGNIFICANT] & ~is_end,
        always_block=f[TerrainType.BLOCKING] | f[TerrainType.WALL],
        intervene_mask=intervene,
        cover=heavy | lightish,
        light_only=lightish & ~heavy,
        heavy=f[TerrainType.HEAVY] & ~f[TerrainType.EXPOSED],
        corner=corner,
        owner=rows,
    )


def _lowest_crossings(
    parts: _Parts, p0: FloatArray, p1: FloatArray, mask: BoolArray
) -> tuple[IntArray, IntArray, FloatArray]:
    """For 3D segments ``p0[i] -> p1[i]`` (arrays (N, 3), inches) and the parts allowed by
    ``mask``, the pairs (segment, part) whose top-down projections meet, with the lowest
    height the segment has over the part's footprint.

    Returns:
        ``(segment index, part index, lowest z)``, ``z = inf`` where the projections' bounding
        boxes overlap but the segment does not meet the footprint.
    """
    n = p0.shape[0]
    if n == 0 or parts.bbox.shape[0] == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0)
    lo = np.minimum(p0[:, :2], p1[:, :2])
    hi = np.maximum(p0[:, :2], p1[:, :2])
    b = parts.bbox
    near = (
        (lo[:, None, 0] <= b[None, :, 2])
        & (hi[:, None, 0] >= b[None, :, 0])
        & (lo[:, None, 1] <= b[None, :, 3])
        & (hi[:, None, 1] >= b[None, :, 1])
        & mask[None, :]
    )
    seg, part = np.nonzero(near)
    if seg.size == 0:
        return seg, part, np.zeros(0)
    # Exact segment-versus-box (slab) test on the candidates before expanding their edges.
    q0 = p0[seg, :2]
    dq = p1[seg, :2] - q0
    bb = b[part]
    with np.errstate(divide="ignore", invalid="ignore"):
        ta = (bb[:, :2] - q0) / dq
        tb = (bb[:, 2:] - q0) / dq
    flat = dq == 0  # parallel to an axis: the bounding-box overlap already holds on it
    t_lo = np.where(flat, -_INF, np.minimum(ta, tb)).max(axis=1)
    t_hi = np.where(flat, _INF, np.maximum(ta, tb)).min(axis=1)
    keep = np.maximum(t_lo, 0.0) <= np.minimum(t_hi, 1.0) + 1e-12
    seg, part = seg[keep], part[keep]
    if seg.size == 0:
        return seg, part, np.zeros(0)
    counts = parts.edge_count[part]
    first = np.cumsum(counts) - counts
    total = int(counts.sum())
    row_pair = np.repeat(np.arange(seg.size), counts)
    edge = np.repeat(parts.edge_offset[part] - first, counts) + np.arange(total)
    a = parts.edge_start[edge]
    e = parts.edge_end[edge] - a
    row_seg = seg[row_pair]
    s0 = p0[row_seg]
    s1 = p1[row_seg]
    d = s1[:, :2] - s0[:, :2]
    w = a - s0[:, :2]
    denom = d[:, 0] * e[:, 1] - d[:, 1] * e[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (w[:, 0] * e[:, 1] - w[:, 1] * e[:, 0]) / denom
        u = (w[:, 0] * d[:, 1] - w[:, 1] * d[:, 0]) / denom
    hit = (denom != 0) & (t >= -1e-12) & (t <= 1 + 1e-12) & (u >= -1e-12) & (u <= 1 + 1e-12)
    z = np.where(hit, s0[:, 2] + np.clip(t, 0.0, 1.0) * (s1[:, 2] - s0[:, 2]), _INF)
    lowest = np.minimum.reduceat(z, first)
    polys = parts.polygons[part]
    ps0, ps1 = p0[seg], p1[seg]
    inside0 = shapely.contains_xy(polys, ps0[:, 0], ps0[:, 1])
    inside1 = shapely.contains_xy(polys, ps1[:, 0], ps1[:, 1])
    lowest = np.minimum(lowest, np.where(inside0, ps0[:, 2], _INF))
    lowest = np.minimum(lowest, np.where(inside1, ps1[:, 2], _INF))
    return seg, part, lowest


def _blocked(parts: _Parts, p0: FloatArray, p1: FloatArray) -> BoolArray:
    """Which sight segments (N, 3) -> (N, 3) are blocked by terrain (module docstring)."""
    seg, part, low = _lowest_crossings(parts, p0, p1, parts.sight_mask)
    blocks = np.where(parts.always_block[part], low < _INF, low < parts.heights[part] - _EPS)
    return np.bincount(seg[blocks], minlength=p0.shape[0]) > 0


def _target_points(t: Placement) -> FloatArray:
    """The 19 sample points (19, 3) on a target model (module docstring)."""
    pts = [(t.x, t.y, t.elevation + h * t.model_height) for _, h in _AXIS]
    for frac, h in _RING:
        r = frac * t.radius
        for ang in _RING_ANGLES:
            pts.append(
                (t.x + r * math.cos(ang), t.y + r * math.sin(ang), t.elevation + h * t.model_height)
            )
    return np.asarray(pts, dtype=float)


_N_TARGET_POINTS = len(_AXIS) + len(_RING) * _RING_ANGLES.size


# -------------------------------------------------------------------------------------------
# Visibility and control range
# -------------------------------------------------------------------------------------------


def visible(kz: Killzone, a: Placement, b: Placement) -> bool:
    """Whether ``b`` is visible to ``a`` (section 4.3): an unobstructed sight line from a's
    head to some part of b's model. An operative is always visible to itself.

    Computed line by line, stopping at the first clear one (:mod:`sight_kernel`); the answer
    is :func:`_visible_reference`'s."""
    if a == b:
        return True
    return sight_kernel.visible(sight_kernel.sight_table(kz, _parts(kz)), a, b)


def _visible_reference(kz: Killzone, a: Placement, b: Placement) -> bool:
    """:func:`visible` on the numpy core, all 19 lines at once (the reference)."""
    if a == b:
        return True
    pts = _target_points(b)
    head = np.broadcast_to(np.asarray(a.head, dtype=float), pts.shape)
    return not bool(_blocked(_parts(kz), head, pts).all())


def within_control_range(kz: Killzone, a: Placement, b: Placement) -> bool:
    """Whether two operatives are within each other's control range (section 4.2): within 1"
    and one visible to the other; mutual by definition. The 1" is :func:`distance`, measured
    around walls on a close quarters killzone (:func:`distance_around_walls`, section 9.3)."""
    # Most pairs are far apart: a centre gap along x or y past both radii, the 1" and a margin
    # well above rounding means :func:`distance` is past 1" (as tested next).
    reach = (a.base_mm + b.base_mm) / (2 * MM_PER_INCH) + CONTROL_RANGE + 2 * _EPS
    dx, dy = a.x - b.x, a.y - b.y
    if dx > reach or -dx > reach or dy > reach or -dy > reach:
        return False
    if distance(a, b) > CONTROL_RANGE + _EPS:
        return False
    if not (visible(kz, a, b) or visible(kz, b, a)):
        return False
    return distance_around_walls(kz, a, b) <= CONTROL_RANGE + _EPS


def _within_control_range_reference(kz: Killzone, a: Placement, b: Placement) -> bool:
    """:func:`within_control_range` as it was before the fast path: the distance first, then
    the numpy reference of :func:`visible` (kept for the tests and benchmarks)."""
    if distance(a, b) > CONTROL_RANGE + _EPS:
        return False
    if not (_visible_reference(kz, a, b) or _visible_reference(kz, b, a)):
        return False
    return distance_around_walls(kz, a, b) <= CONTROL_RANGE + _EPS


def objective_in_control_range(kz: Killzone, operative: Placement, marker: Objective) -> bool:
    """Whether an objective marker is within an operative's control range (section 4.8):
    within 1" horizontally of the operative's base (markers lie on the floor) and visible to
    it (a sight line from its head to the marker's centre or edge, just above the floor). On a
    close quarters killzone the 1" is measured around walls (section 9.3,
    :func:`distance_around_walls`)."""
    return marker_in_control_range(kz, operative, marker.position, OBJECTIVE_DIAMETER_MM)


def marker_in_control_range(
    kz: Killzone, operative: Placement, position: tuple[float, float], diameter_mm: float
) -> bool:
    """Whether a marker on the killzone floor, ``diameter_mm`` millimetres across and centred
    on ``position`` (inches), is within an operative's control range: the rule of
    :func:`objective_in_control_range` for any marker (4.8: objective markers are 40 mm,
    others 20 mm, e.g. the equipment's, 7.2)."""
    mx, my = position
    radius = diameter_mm / MM_PER_INCH / 2
    gap = math.hypot(operative.x - mx, operative.y - my) - operative.radius - radius
    if max(0.0, gap) > CONTROL_RANGE + _EPS and operative.elevation == 0:
        return False
    if math.hypot(max(0.0, gap), operative.elevation) > CONTROL_RANGE + _EPS:
        return False
    pts = [(mx, my, 0.01)]
    for ang in _RING_ANGLES:
        pts.append(
            (
                mx + 0.9 * radius * math.cos(ang),
                my + 0.9 * radius * math.sin(ang),
                0.01,
            )
        )
    if not sight_kernel.any_clear(sight_kernel.sight_table(kz, _parts(kz)), operative.head, pts):
        return False
    as_base = Placement(mx, my, base_mm=diameter_mm)
    return distance_around_walls(kz, operative, as_base) <= CONTROL_RANGE + _EPS


# -------------------------------------------------------------------------------------------
# Targeting: intervening, cover, obscured
# -------------------------------------------------------------------------------------------


def _pair_lines(
    sx: FloatArray,
    sy: FloatArray,
    sr: FloatArray,
    sz: FloatArray,
    tx: FloatArray,
    ty: FloatArray,
    tr: FloatArray,
    tz: FloatArray,
    n_origins: int = _N_ORIGINS,
) -> tuple[FloatArray, FloatArray]:
    """Targeting lines for k pairs (arrays of shape (k,)): segments (k * n_origins * 5, 3),
    pair-major, then origin (the centre first), then facing point."""
    k = sx.size
    ox = np.concatenate(
        [sx[:, None], sx[:, None] + 0.999 * sr[:, None] * np.cos(_ORIGIN_ANGLES)], axis=1
    )
    oy = np.concatenate(
        [sy[:, None], sy[:, None] + 0.999 * sr[:, None] * np.sin(_ORIGIN_ANGLES)], axis=1
    )
    toward = np.arctan2(sy - ty, sx - tx)[:, None] + _FACING_OFFSETS[None, :]
    fx = tx[:, None] + 0.999 * tr[:, None] * np.cos(toward)
    fy = ty[:, None] + 0.999 * tr[:, None] * np.sin(toward)
    shape = (k, n_origins, _N_FACING)
    p0 = np.empty((*shape, 3))
    p1 = np.empty((*shape, 3))
    p0[..., 0] = ox[:, :n_origins, None]
    p0[..., 1] = oy[:, :n_origins, None]
    p0[..., 2] = sz[:, None, None]
    p1[..., 0] = fx[:, None, :]
    p1[..., 1] = fy[:, None, :]
    p1[..., 2] = tz[:, None, None]
    return p0.reshape(-1, 3), p1.reshape(-1, 3)


def _columns(ops: Sequence[Placement]) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """x, y, radius and elevation of the operatives as arrays (inches)."""
    arr = np.asarray([(p.x, p.y, p.radius, p.elevation) for p in ops], dtype=float).reshape(-1, 4)
    return arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3]


def _targeting_lines(s: Placement, t: Placement) -> tuple[FloatArray, FloatArray]:
    """Targeting lines for one pair: (origins x facing points) segments, each (25, 3)."""
    x, y, r, z = _columns((s, t))
    return _pair_lines(x[:1], y[:1], r[:1], z[:1], x[1:], y[1:], r[1:], z[1:])


def _standing_feature(kz: Killzone, p: Placement) -> int:
    part = kz.standing_part(p)
    return -1 if part is None else int(kz.part_feature[part])


def _gap_matrix(parts: _Parts, x: FloatArray, y: FloatArray, r: FloatArray) -> FloatArray:
    """Horizontal gap (inches) from every part footprint to every operative base, (P, n)."""
    points = np.asarray(shapely.points(x, y), dtype=object).reshape(-1)
    d = shapely.distance(parts.polygons[:, None], points[None, :])
    return np.maximum(np.asarray(d, dtype=float) - r[None, :], 0.0)


@attrs.frozen(slots=True)
class _Verdicts:
    """Per (pair, origin) verdicts from :func:`_evaluate` (arrays of shape (pairs, origins))."""

    cover: BoolArray  # in cover for the attack (same-feature cover counted as obscuring)
    cover_any: BoolArray  # any cover feature (target selection)
    cover_heavy: BoolArray  # a cover feature that is not Light-only (selection ignoring Light)
    obscured: BoolArray
    crossed: list[list[frozenset[int]]]  # intervening features per pair and origin
    cover_features: list[list[frozenset[int]]]
    obscuring_features: list[list[frozenset[int]]]


def _evaluate(
    kz: Killzone,
    ops: Sequence[Placement],
    shooters: IntArray,
    targets: IntArray,
    keep_sets: bool,
    n_origins: int = _N_ORIGINS,
) -> _Verdicts:
    """Targeting verdicts for the ordered pairs ``(shooters[k], targets[k])`` of ``ops``, for
    the first ``n_origins`` origin points (the centre first)."""
    parts = _parts(kz)
    npairs = shooters.size
    per = n_origins * _N_FACING
    x, y, r, z = _columns(ops)
    p0, p1 = _pair_lines(
        x[shooters],
        y[shooters],
        r[shooters],
        z[shooters],
        x[targets],
        y[targets],
        r[targets],
        z[targets],
        n_origins,
    )
    seg, part, low = _lowest_crossings(parts, p0, p1, parts.intervene_mask)
    crosses = np.where(parts.always_block[part], low < _INF, low < parts.heights[part] - _EPS)
    seg, part = seg[crosses], part[crosses]
    pair = seg // per
    shooter, target = shooters[pair], targets[pair]
    end = ~np.isnan(parts.corner[part, 0])
    if end.any():
        # Close quarters (9.3): a wall end the shooter has passed (its corner no further
        # toward the target than the front of the shooter's base) does not intervene.
        dx, dy = x[target] - x[shooter], y[target] - y[shooter]
        norm = np.maximum(np.hypot(dx, dy), _EPS)
        cx, cy = parts.corner[part, 0], parts.corner[part, 1]
        ahead = ((cx - x[shooter]) * dx + (cy - y[shooter]) * dy) / norm
        keep = ~end | (ahead > r[shooter] + _EPS)
        seg, part, pair = seg[keep], part[keep], pair[keep]
        shooter, target = shooter[keep], target[keep]
    origin = (seg % per) // _N_FACING
    gaps = _gap_matrix(parts, x, y, r)
    gap_t = gaps[part, target]
    gap_s = gaps[part, shooter]
    stand = np.asarray([_standing_feature(kz, p) for p in ops], dtype=np.int64)
    feature = parts.feature[part]
    centre_gap = np.maximum(
        np.hypot(x[shooters] - x[targets], y[shooters] - y[targets]) - r[shooters] - r[targets], 0.0
    )
    close = np.hypot(centre_gap, z[shooters] - z[targets]) <= COVER_MIN_DISTANCE + _EPS
    gives_cover = parts.cover[part] & (gap_t <= CONTROL_RANGE + _EPS) & ~close[pair]
    # A part within 1" of either operative does not obscure; for a wall, none of the wall
    # part's crossed ends may be (module docstring).
    near_either = (gap_t <= CONTROL_RANGE + _EPS) | (gap_s <= CONTROL_RANGE + _EPS)
    n_real = int(parts.owner.max()) + 1 if parts.owner.size else 1
    whole = ((pair * n_origins + origin) * n_real + parts.owner[part]).astype(np.int64)
    vetoed = np.bincount(whole[near_either], minlength=npairs * n_origins * n_real) > 0
    obscures = (
        parts.heavy[part]
        & ~vetoed[whole]
        & (feature != stand[shooter])
        & (feature != stand[target])
    )
    nf = max(len(kz.features), 1)
    cell = (pair * n_origins + origin) * nf + feature
    size = npairs * n_origins * nf
    cov_f = (np.bincount(cell[gives_cover], minlength=size) > 0).reshape(npairs, n_origins, nf)
    heavy_cov = gives_cover & ~parts.light_only[part]
    cov_h = (np.bincount(cell[heavy_cov], minlength=size) > 0).reshape(npairs, n_origins, nf)
    obs_f = (np.bincount(cell[obscures], minlength=size) > 0).reshape(npairs, n_origins, nf)
    crossed_sets: list[list[frozenset[int]]] = []
    cover_sets: list[list[frozenset[int]]] = []
    obs_sets: list[list[frozenset[int]]] = []
    if keep_sets:
        crs_f = (np.bincount(cell, minlength=size) > 0).reshape(npairs, n_origins, nf)
        for k in range(npairs):
            crossed_sets.append(
                [frozenset(np.flatnonzero(crs_f[k, o]).tolist()) for o in range(n_origins)]
            )
            cover_sets.append(
                [frozenset(np.flatnonzero(cov_f[k, o]).tolist()) for o in range(n_origins)]
            )
            obs_sets.append(
                [frozenset(np.flatnonzero(obs_f[k, o]).tolist()) for o in range(n_origins)]
            )
    return _Verdicts(
        cover=np.asarray((cov_f & ~obs_f).any(axis=2), dtype=bool),
        cover_any=np.asarray(cov_f.any(axis=2), dtype=bool),
        cover_heavy=np.asarray(cov_h.any(axis=2), dtype=bool),
        obscured=np.asarray(obs_f.any(axis=2), dtype=bool),
        crossed=crossed_sets,
        cover_features=cover_sets,
        obscuring_features=obs_sets,
    )


def _best_origin(cover: BoolArray, obscured: BoolArray) -> IntArray:
    """Per pair, the origin the shooter prefers: not in cover first, then not obscured."""
    rank = cover.astype(np.int64) * 2 + obscured.astype(np.int64)
    return np.asarray(np.argmin(rank, axis=1), dtype=np.int64)


@attrs.frozen(slots=True)
class Targeting:
    """How a shooter sees a target (section 4.4-4.5), from the origin point it chose.

    Attributes:
        origin: the point of the shooter's base the lines start from (x, y inches).
        lines: the targeting lines as 3D segments ``((x0, y0, z0), (x1, y1, z1))``.
        intervening: indices (into ``Killzone.features``) of the features crossed by a line
            (a wall only where a line crosses one of its ends, on close quarters: module
            docstring).
        cover_features: intervening features giving the target cover.
        obscuring_features: intervening features obscuring the target.
        in_cover: the target is in cover for this attack (a feature in both sets counts as
            obscuring: the defender's default choice, ``EDGE_CASES.md`` 2).
        obscured: the target is obscured.
    """

    origin: tuple[float, float]
    lines: tuple[tuple[tuple[float, float, float], tuple[float, float, float]], ...]
    intervening: frozenset[int]
    cover_features: frozenset[int]
    obscuring_features: frozenset[int]
    in_cover: bool
    obscured: bool


def _pair_verdicts(kz: Killzone, s: Placement, t: Placement) -> sight_kernel.PairVerdicts:
    """The fast path's per-origin verdicts of one pair (:class:`sight_kernel.PairVerdicts`)."""
    return sight_kernel.PairVerdicts(
        sight_kernel.sight_table(kz, _parts(kz)),
        s,
        t,
        lambda: (_standing_feature(kz, s), _standing_feature(kz, t)),
    )


def targeting(kz: Killzone, shooter: Placement, target: Placement) -> Targeting:
    """Targeting lines, intervening features, cover and obscured for one shooter and target
    (sections 4.4, 4.5; module docstring for the sampling of points).

    Computed origin by origin in :mod:`sight_kernel`, stopping at the first origin that sees
    the target neither in cover nor obscured (the shooter's first choice); the answer is
    :func:`_targeting_reference`'s."""
    pv = _pair_verdicts(kz, shooter, target)
    best = -1
    best_rank = 4
    chosen: sight_kernel.OriginVerdict | None = None
    for o in range(_N_ORIGINS):
        v = pv.origin(o)
        rank = 2 * v.cover + v.obscured
        if rank < best_rank:
            best, best_rank, chosen = o, rank, v
            if rank == 0:
                break
    assert chosen is not None
    p0, p1 = pv.lines
    sl = slice(best * _N_FACING, (best + 1) * _N_FACING)
    return Targeting(
        origin=(p0[best * _N_FACING][0], p0[best * _N_FACING][1]),
        lines=tuple(
            ((a[0], a[1], a[2]), (b[0], b[1], b[2])) for a, b in zip(p0[sl], p1[sl], strict=True)
        ),
        intervening=frozenset(chosen.crossed),
        cover_features=frozenset(chosen.cover_features),
        obscuring_features=frozenset(chosen.obscuring_features),
        in_cover=chosen.cover,
        obscured=chosen.obscured,
    )


def _targeting_reference(kz: Killzone, shooter: Placement, target: Placement) -> Targeting:
    """:func:`targeting` on the numpy core, every origin at once (the reference)."""
    ops = (shooter, target)
    v = _evaluate(kz, ops, np.array([0]), np.array([1]), keep_sets=True)
    o = int(_best_origin(v.cover, v.obscured)[0])
    p0, p1 = _targeting_lines(shooter, target)
    sl = slice(o * _N_FACING, (o + 1) * _N_FACING)
    lines = tuple(
        ((float(a[0]), float(a[1]), float(a[2])), (float(b[0]), float(b[1]), float(b[2])))
        for a, b in zip(p0[sl], p1[sl], strict=True)
    )
    return Targeting(
        origin=(float(p0[o * _N_FACING, 0]), float(p0[o * _N_FACING, 1])),
        lines=lines,
        intervening=v.crossed[0][o],
        cover_features=v.cover_features[0][o],
        obscuring_features=v.obscuring_features[0][o],
        in_cover=bool(v.cover[0, o]),
        obscured=bool(v.obscured[0, o]),
    )


def intervening(kz: Killzone, shooter: Placement, target: Placement) -> frozenset[int]:
    """Indices of the terrain features intervening between shooter and target (section 4.4),
    from the shooter's chosen origin point."""
    return targeting(kz, shooter, target).intervening


def in_cover(kz: Killzone, target: Placement, shooter: Placement) -> bool:
    """Whether ``target`` is in cover from ``shooter`` for the attack (section 4.5)."""
    return targeting(kz, shooter, target).in_cover


def obscured(kz: Killzone, target: Placement, shooter: Placement) -> bool:
    """Whether ``target`` is obscured from ``shooter`` (sections 4.5, 4.7)."""
    return targeting(kz, shooter, target).obscured


# -------------------------------------------------------------------------------------------
# Valid targets and the Vantage rules
# -------------------------------------------------------------------------------------------


def _height_advantage(kz: Killzone, shooter: Placement, target: Placement) -> float:
    """How much higher the shooter stands than the target, if the shooter is on Vantage."""
    if kz.standing_part(shooter) is None:
        return 0.0
    return shooter.elevation - target.elevation


def vantage_accuracy(kz: Killzone, shooter: Placement, target: Placement, order: str) -> int:
    """Accurate x gained from Vantage (section 4.7 rule 1): a shooter on Vantage shooting an
    Engage-order target 2" or more lower gains Accurate 1, 4" or more lower Accurate 2."""
    if order.lower() != "engage":
        return 0
    drop = _height_advantage(kz, shooter, target)
    return 2 if drop >= 4 - _EPS else 1 if drop >= 2 - _EPS else 0


def vantage_improves_cover(kz: Killzone, shooter: Placement, target: Placement, order: str) -> bool:
    """Whether a cover save of ``target`` against ``shooter`` would be improved (section 4.7
    rule 2): a Conceal target 2" or more lower than a shooter on Vantage, whatever gives it
    cover (for a defender that takes cover from a feature that also obscures, 4.5)."""
    return order.lower() == "conceal" and _height_advantage(kz, shooter, target) >= 2 - _EPS


def improved_cover(kz: Killzone, shooter: Placement, target: Placement, order: str) -> bool:
    """Whether the target's cover save is improved (section 4.7 rule 2): a Conceal target 2"
    or more lower than a shooter on Vantage and in cover. (If Heavy terrain gives it cover it
    is not a valid target at all; see :func:`valid_target`.)"""
    if not vantage_improves_cover(kz, shooter, target, order):
        return False
    t = targeting(kz, shooter, target)
    return t.in_cover


def valid_target(
    kz: Killzone,
    target: Placement,
    shooter: Placement,
    order: str,
    *,
    seek: str | None = None,
    vantage: bool = True,
) -> bool:
    """Whether ``target`` is a valid target for ``shooter`` (section 4.5, 4.7).

    Args:
        order: the target's order, ``"engage"`` or ``"conceal"`` (case-insensitive).
        seek: ``"all"`` for Seek (no terrain gives cover for selection), ``"light"`` for Seek
            Light (Light terrain gives none), else ``None``.
        vantage: ``False`` when a rule says the shooter's Vantage does not remove the
            target's cover (its Light terrain then counts as for any shooter).

    Engage: valid if visible. Conceal: valid if visible and not in cover from the shooter's
    best origin point, where Light terrain does not count for a shooter on Vantage 2" or more
    above the target (section 4.7 rule 2), nor against Seek Light; no terrain counts against
    Seek. Obscured never affects validity. The Shoot action's extra condition (no friendly
    operative within the target's control range) is the game's, not this function's.

    Raises:
        ValueError: for an unknown order or seek value.
    """
    o = order.lower()
    if o not in ("engage", "conceal"):
        raise ValueError(f"order must be 'engage' or 'conceal', not {order!r}")
    if seek not in (None, "all", "light"):
        raise ValueError(f"seek must be None, 'all' or 'light', not {seek!r}")
    if not visible(kz, shooter, target):
        return False
    if o == "engage" or seek == "all":
        return True
    pv = _pair_verdicts(kz, shooter, target)
    ignore_light = seek == "light" or (
        vantage and _height_advantage(kz, shooter, target) >= 2 - _EPS
    )
    for k in range(_N_ORIGINS):
        v = pv.origin(k, keep_sets=False)
        if not (v.cover_heavy if ignore_light else v.cover_any):
            return True
    return False


def _valid_target_reference(
    kz: Killzone, target: Placement, shooter: Placement, order: str, *, seek: str | None = None
) -> bool:
    """:func:`valid_target` on the numpy core (the reference)."""
    o = order.lower()
    if o not in ("engage", "conceal"):
        raise ValueError(f"order must be 'engage' or 'conceal', not {order!r}")
    if seek not in (None, "all", "light"):
        raise ValueError(f"seek must be None, 'all' or 'light', not {seek!r}")
    if not _visible_reference(kz, shooter, target):
        return False
    if o == "engage" or seek == "all":
        return True
    v = _evaluate(kz, (shooter, target), np.array([0]), np.array([1]), keep_sets=False)
    ignore_light = seek == "light" or _height_advantage(kz, shooter, target) >= 2 - _EPS
    blocking = v.cover_heavy if ignore_light else v.cover_any
    return bool((~blocking[0]).any())


# -------------------------------------------------------------------------------------------
# All pairs at once
# -------------------------------------------------------------------------------------------


@attrs.frozen(slots=True)
class AllPairs:
    """Pairwise verdicts for operatives ``0..n-1`` (arrays of shape (n, n)).

    ``visible[i, j]``: j is visible to i (True on the diagonal). ``control_range[i, j]``: i and
    j within each other's control range (symmetric, False on the diagonal). ``in_cover[i, j]``
    and ``obscured[i, j]``: j is in cover from / obscured from shooter i (False on the
    diagonal and where j is not visible to i). ``distance[i, j]``:
    :func:`distance_around_walls` in inches (:func:`distance` on a killzone without Wall
    terrain; ``inf`` where no route exists).
    """

    visible: BoolArray
    control_range: BoolArray
    in_cover: BoolArray
    obscured: BoolArray
    distance: FloatArray


def all_pairs(kz: Killzone, placements: Sequence[Placement]) -> AllPairs:
    """Visible, control range, in cover and obscured for every ordered pair of operatives, in
    one vectorised pass (same rules and sampling as the single-pair functions).

    Args:
        placements: n operatives.
    """
    ops = tuple(placements)
    n = len(ops)
    parts = _parts(kz)
    straight, dist = _distance_matrices(kz, ops)
    ii, jj = np.nonzero(~np.eye(n, dtype=bool))
    vis = np.eye(n, dtype=bool)
    if ii.size:
        targets = np.stack([_target_points(p) for p in ops])  # (n, 19, 3)
        heads = np.asarray([p.head for p in ops], dtype=float)
        # Head to head first; only pairs that line does not clear need the other 18 points.
        clear = ~_blocked(parts, heads[ii], targets[jj, 0])
        # Then a few points at a time (the stages partition points 1..18).
        for lo, hi in ((1, 7), (7, _N_TARGET_POINTS)):
            rest = np.flatnonzero(~clear)
            if not rest.size:
                break
            k = hi - lo
            p1 = targets[jj[rest], lo:hi].reshape(-1, 3)
            p0 = np.repeat(heads[ii[rest]], k, axis=0)
            clear[rest] = ~_blocked(parts, p0, p1).reshape(rest.size, k).all(axis=1)
        vis[ii, jj] = clear
    near = (straight <= CONTROL_RANGE + _EPS) & (dist <= CONTROL_RANGE + _EPS)
    control = near & (vis | vis.T)
    np.fill_diagonal(control, False)
    cover = np.zeros((n, n), dtype=bool)
    obsc = np.zeros((n, n), dtype=bool)
    seen = vis[ii, jj]
    si, sj = ii[seen].astype(np.int64), jj[seen].astype(np.int64)
    if si.size:  # cover and obscured matter only for visible targets
        # The centre origin first: where it sees the target neither in cover nor obscured it
        # is the shooter's best choice; only the others need all origins.
        v = _evaluate(kz, ops, si, sj, keep_sets=False, n_origins=1)
        cover[si, sj] = v.cover[:, 0]
        obsc[si, sj] = v.obscured[:, 0]
        again = np.flatnonzero(v.cover[:, 0] | v.obscured[:, 0])
        if again.size:
            ai, aj = si[again], sj[again]
            w = _evaluate(kz, ops, ai, aj, keep_sets=False)
            best = _best_origin(w.cover, w.obscured)
            rows = np.arange(again.size)
            cover[ai, aj] = w.cover[rows, best]
            obsc[ai, aj] = w.obscured[rows, best]
    return AllPairs(
        visible=vis, control_range=control, in_cover=cover, obscured=obsc, distance=dist
    )
