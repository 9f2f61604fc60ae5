"""The numpy core of the sight queries (rules ``rules/KT24.md`` 4.3 to 4.7, 9.3): the
killzone's parts as arrays (:func:`_parts`, with the corners and ends of walls,
:func:`wall_corners`), the lowest height at which many 3D segments cross each part's
footprint (:func:`_lowest_crossings`), whether a segment is blocked (:func:`_blocked`) and
the sample points of a target model (:func:`_target_points`). Every query of
:mod:`engine.geometry.sight` is defined by these; the modelling choices are described there.
"""

import math
from typing import Any, cast

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Polygon

from engine.geometry.model import (
    Killzone,
    Placement,
    TerrainType,
)
from engine.geometry.sight_kernel import Parts as _Parts

__all__ = ["MINOR_PROTRUSION", "WALL_END_REACH", "wall_corners"]

_EPS = 1e-6
_INF = math.inf

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

# Sample points on a target model: (radius fraction, height fraction) around its axis.
_AXIS = ((0.0, 1.0), (0.0, 0.5), (0.0, 0.15))
_RING_ANGLES = np.linspace(0.0, 2 * np.pi, 8, endpoint=False)
_RING = tuple((0.8, h) for h in (0.9, 0.4))


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
