"""The numeric kernel of the KT21 cover lines (``rules/KT21.md`` 8.2-8.4, 8.6; decision 4):
every cover line of one shooter and one target against every terrain part and operative's
base that may matter, at once, with numpy.

:mod:`engine.geometry.kt21_sight` chooses the parts and the bases (which provide Cover, which
are Obscuring, the Vantage Point readings) and turns the answers into verdicts; this module
only measures. It answers exactly what the straightforward line-by-line version
(:func:`engine.geometry.kt21_sight._evaluate_reference`) answers:

- A line ``a -> b`` (2D; the heights of every line run from the shooter's elevation to the
  target's) meets a *convex* part (a polygon without holes whose corners all turn the same
  way) in one closed interval of its parameter ``t`` in ``[0, 1]``, found by clipping the
  line by the half-planes of the part's edges (Cyrus-Beck). The cases that clipping could
  answer differently from shapely by a rounding error (a line along an edge, touching a
  corner, ending on the boundary: the interval shorter than 1e-9, or an edge parallel to the
  line within 1e-9") are handed to shapely, as are parts that are not convex.
- The heights, the near-shooter cut, the gaps to the target's base and the bases of other
  operatives are the reference's formulas, applied to arrays.

All lengths are inches.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Polygon
from shapely.geometry.polygon import orient

__all__ = ["Hits", "LinePart", "convex_edges", "cover_line_hits", "pieces_many", "z_window"]

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

_DEGENERATE = 1e-9
"""Below this (in ``t``, or in inches from an edge parallel to the line), shapely decides."""
_PARALLEL = 1e-12


def pieces_many(
    starts: Sequence[tuple[float, float]] | FloatArray,
    ends: Sequence[tuple[float, float]] | FloatArray,
    geom: Polygon,
) -> list[list[list[float]]]:
    """For each 2D segment ``starts[k] -> ends[k]`` (never a point), the parameter intervals
    ``[t0, t1]`` of it inside ``geom`` (one vectorised shapely intersection)."""
    a = np.asarray(starts, dtype=float)
    b = np.asarray(ends, dtype=float)
    lines = shapely.linestrings(np.stack([a, b], axis=1))
    out: list[list[list[float]]] = [[] for _ in range(len(a))]
    inter = shapely.intersection(lines, geom)
    pieces, owner = shapely.get_parts(inter, return_index=True)
    if len(pieces) == 0:
        return out
    pieces2, owner2 = shapely.get_parts(pieces, return_index=True)
    coords, idx = shapely.get_coordinates(pieces2, return_index=True)
    if coords.size == 0:
        return out
    line_of = owner[owner2[idx]]
    ax, ay = a[line_of, 0], a[line_of, 1]
    dx, dy = b[line_of, 0] - ax, b[line_of, 1] - ay
    t = ((coords[:, 0] - ax) * dx + (coords[:, 1] - ay) * dy) / (dx * dx + dy * dy)
    lo: dict[int, float] = {}
    hi: dict[int, float] = {}
    lines_of: dict[int, int] = {}
    for piece, line, tv in zip(idx.tolist(), line_of.tolist(), t.tolist(), strict=True):
        lines_of[piece] = line
        lo[piece] = min(lo.get(piece, tv), tv)
        hi[piece] = max(hi.get(piece, tv), tv)
    for piece, line in lines_of.items():
        out[line].append([lo[piece], hi[piece]])
    return out


def convex_edges(polygon: Polygon) -> tuple[FloatArray, FloatArray] | None:
    """The edges of ``polygon`` as half-planes ``(normals, corners)`` (unit outward normals
    and one corner of each edge, ``(E, 2)`` arrays; inside: ``normal . (p - corner) <= 0``),
    or ``None`` when it has holes or is not convex (a corner turning the other way)."""
    if polygon.is_empty or len(polygon.interiors) > 0:
        return None
    ring = np.asarray(orient(polygon, sign=1.0).exterior.coords, dtype=float)
    edges = ring[1:] - ring[:-1]
    keep = np.hypot(edges[:, 0], edges[:, 1]) > 1e-12
    corners, edges = ring[:-1][keep], edges[keep]
    if len(edges) < 3:
        return None
    nxt = np.roll(edges, -1, axis=0)
    if np.any(edges[:, 0] * nxt[:, 1] - edges[:, 1] * nxt[:, 0] < 0):
        return None
    length = np.hypot(edges[:, 0], edges[:, 1])
    normals = np.stack([edges[:, 1] / length, -edges[:, 0] / length], axis=1)
    return normals, corners


@attrs.frozen(slots=True)
class LinePart:
    """One terrain part the cover lines are measured against.

    Attributes:
        polygon: its footprint.
        edges: :func:`convex_edges` of it (``None``: shapely measures it).
        window: the ``t`` interval of every line below the part's top (:func:`z_window`;
            ``None``: none), ``(-inf, inf)`` for a rampart (16.5: crossed even under it).
        obscures: it is Obscuring (8.3).
    """

    polygon: Polygon = attrs.field(eq=False)
    edges: tuple[FloatArray, FloatArray] | None = attrs.field(eq=False)
    window: tuple[float, float] | None
    obscures: bool


@attrs.frozen(slots=True)
class Hits:
    """What the cover lines cross, origin by origin (``O`` origins).

    Attributes:
        obscuring: ``(P, O)``: part ``p`` obscures the target from origin ``o`` (8.3).
        cover: ``(P, O)``: part ``p`` gives the target Cover from origin ``o`` (8.4).
        operatives: ``(K, O)``: base ``k`` gives the target Cover from origin ``o`` (8.4).
    """

    obscuring: BoolArray
    cover: BoolArray
    operatives: BoolArray


def _clip_convex(
    a: FloatArray, d: FloatArray, edges: tuple[FloatArray, FloatArray]
) -> tuple[FloatArray, FloatArray, BoolArray, BoolArray]:
    """Cyrus-Beck: per line ``a + t d`` (``(L, 2)``), ``(t0, t1, hit, unsure)``: the interval
    inside the convex part, whether there is one, and whether shapely must decide."""
    normals, corners = edges
    # num[l, e] = n_e . (a_l - c_e); den[l, e] = n_e . d_l
    num = (a[:, None, 0] - corners[None, :, 0]) * normals[None, :, 0] + (
        a[:, None, 1] - corners[None, :, 1]
    ) * normals[None, :, 1]
    den = d[:, None, 0] * normals[None, :, 0] + d[:, None, 1] * normals[None, :, 1]
    parallel = np.abs(den) < _PARALLEL
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = np.where(parallel, 0.0, -num / np.where(parallel, 1.0, den))
    entering = np.where(~parallel & (den < 0), bound, -np.inf).max(axis=1)
    leaving = np.where(~parallel & (den > 0), bound, np.inf).min(axis=1)
    t0 = np.maximum(0.0, entering)
    t1 = np.minimum(1.0, leaving)
    outside = np.any(parallel & (num > _DEGENERATE), axis=1)
    unsure = np.any(parallel & (np.abs(num) <= _DEGENERATE), axis=1) | (
        np.abs(t1 - t0) <= _DEGENERATE
    )
    unsure &= ~outside
    hit = ~outside & ~unsure & (t1 > t0)
    return t0, t1, hit, unsure


def _points(a: FloatArray, b: FloatArray, t: FloatArray) -> tuple[FloatArray, FloatArray]:
    return a[:, 0] + t * (b[:, 0] - a[:, 0]), a[:, 1] + t * (b[:, 1] - a[:, 1])


def _gap(px: FloatArray, py: FloatArray, c: tuple[float, float, float]) -> FloatArray:
    out: FloatArray = np.maximum(0.0, np.hypot(px - c[0], py - c[1]) - c[2])
    return out


def _seg_gap(
    a: FloatArray, b: FloatArray, t0: FloatArray, t1: FloatArray, c: tuple[float, float, float]
) -> FloatArray:
    """Horizontal distance from the pieces ``t0..t1`` of the lines ``a -> b`` to the base
    ``c = (x, y, radius)``."""
    px, py = _points(a, b, t0)
    qx, qy = _points(a, b, t1)
    dx, dy = qx - px, qy - py
    d2 = dx * dx + dy * dy
    small = d2 < 1e-18
    with np.errstate(divide="ignore", invalid="ignore"):
        u = np.where(small, 0.0, ((c[0] - px) * dx + (c[1] - py) * dy) / np.where(small, 1.0, d2))
    u = np.minimum(1.0, np.maximum(0.0, u))
    return _gap(px + u * dx, py + u * dy, c)


def _disc(
    a: FloatArray, b: FloatArray, c: tuple[float, float], r: float
) -> tuple[FloatArray, FloatArray, BoolArray]:
    """Per line ``a -> b``, the interval within ``r`` of ``c`` and whether there is one (the
    reference's quadratic, term by term)."""
    dx, dy = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    fx, fy = a[:, 0] - c[0], a[:, 1] - c[1]
    qa = dx * dx + dy * dy
    qb = 2 * (fx * dx + fy * dy)
    qc = fx * fx + fy * fy - r * r
    disc = qb * qb - 4 * qa * qc
    point = qa < 1e-18
    s = np.sqrt(np.maximum(disc, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        t0 = np.maximum(0.0, (-qb - s) / (2 * qa))
        t1 = np.minimum(1.0, (-qb + s) / (2 * qa))
    ok = (disc >= 0) & (t0 <= t1)
    t0 = np.where(point, 0.0, t0)
    t1 = np.where(point, 1.0, t1)
    ok = np.where(point, qc <= 0, ok)
    return t0, t1, ok


def cover_line_hits(
    origins: FloatArray,
    points: FloatArray,
    parts: Sequence[LinePart],
    shooter: tuple[float, float, float],
    target: tuple[float, float, float],
    operatives: Sequence[tuple[float, float, float, tuple[float, float] | None]],
    *,
    far_enough: bool,
    near_shooter: float,
    obscuring_distance: float,
    cover_range: float,
) -> Hits:
    """Measure every cover line from each of ``origins`` (``(O, 2)``) to each of ``points``
    (``(T, 2)``; line ``o * T + k`` runs from origin ``o`` to point ``k``).

    Args:
        origins, points: the 2D ends of the lines (inches).
        parts: the parts that provide Cover (:class:`LinePart`).
        shooter, target: ``(x, y, radius)`` of the two bases.
        operatives: ``(x, y, radius, window)`` of the other bases that may give Cover,
            ``window`` the ``t`` interval of the lines between the base and the model's top
            (``None``: none).
        far_enough: the bases are more than 2" apart (8.4: Cover is possible).
        near_shooter: the radius (from the shooter's centre) within which Obscuring parts
            are ignored (its base's radius plus 1", 8.3).
        obscuring_distance: a crossing obscures farther than this from the target's base.
        cover_range: a crossing gives Cover within this of the target's base.

    Returns:
        :class:`Hits`, one column per origin.
    """
    n_o, n_t = len(origins), len(points)
    a = np.repeat(origins, n_t, axis=0)
    b = np.tile(points, (n_o, 1))
    d = b - a
    n_parts = len(parts)
    obscuring = np.zeros((n_parts, n_o), dtype=bool)
    cover = np.zeros((n_parts, n_o), dtype=bool)
    lines = np.arange(len(a))
    # The crossing pieces, flattened: (part slot, line, t0, t1).
    slots: list[NDArray[np.int64]] = []
    owners: list[NDArray[np.int64]] = []
    lows: list[FloatArray] = []
    highs: list[FloatArray] = []
    for j, part in enumerate(parts):
        if part.window is None:
            continue
        if part.edges is not None:
            t0, t1, hit, unsure = _clip_convex(a, d, part.edges)
            ask = lines[unsure]
        else:
            hit = np.zeros(len(a), dtype=bool)
            t0 = t1 = np.zeros(len(a))
            ask = lines
        owners.append(lines[hit])
        lows.append(t0[hit])
        highs.append(t1[hit])
        if len(ask):
            got = pieces_many(a[ask], b[ask], part.polygon)
            more = [(int(ask[k]), p0, p1) for k, ps in enumerate(got) for p0, p1 in ps]
            if more:
                owners.append(np.array([m[0] for m in more], dtype=np.int64))
                lows.append(np.array([m[1] for m in more]))
                highs.append(np.array([m[2] for m in more]))
        slots.extend(np.full(len(o), j, dtype=np.int64) for o in owners[len(slots) :])
    if owners:
        slot = np.concatenate(slots)
        line = np.concatenate(owners)
        w0 = np.array([p.window[0] if p.window else 0.0 for p in parts])[slot]
        w1 = np.array([p.window[1] if p.window else 0.0 for p in parts])[slot]
        c0 = np.maximum(np.concatenate(lows), w0)
        c1 = np.minimum(np.concatenate(highs), w1)
        keep = c0 <= c1 + 1e-12
        slot, line, c0, c1 = slot[keep], line[keep], c0[keep], c1[keep]
        pa, pb = a[line], b[line]
        origin = line // n_t
        obs = np.array([p.obscures for p in parts], dtype=bool)[slot]
        if obs.any():
            n0, n1, cut = _disc(pa, pb, shooter[:2], near_shooter)

            def far(u0: FloatArray, u1: FloatArray) -> BoolArray:
                g0 = _gap(*_points(pa, pb, u0), target)
                g1 = _gap(*_points(pa, pb, u1), target)
                out: BoolArray = np.maximum(g0, g1) > obscuring_distance
                return out

            whole = ~cut | (c1 < n0) | (c0 > n1)
            left = ~whole & (c0 < n0)
            right = ~whole & (c1 > n1)
            seen = (whole & far(c0, c1)) | (left & far(c0, n0)) | (right & far(n1, c1))
            seen &= obs
            obscuring[slot[seen], origin[seen]] = True
        if far_enough:
            near = _seg_gap(pa, pb, c0, c1, target) <= cover_range
            cover[slot[near], origin[near]] = True
    ops = np.zeros((len(operatives), n_o), dtype=bool)
    if far_enough:
        for k, (x, y, r, window) in enumerate(operatives):
            if window is None:
                continue
            h0, h1, ok = _disc(a, b, (x, y), r)
            c0 = np.maximum(h0, window[0])
            c1 = np.minimum(h1, window[1])
            ok &= c0 <= c1 + 1e-12
            if not ok.any():
                continue
            near = np.zeros(len(a), dtype=bool)
            near[ok] = _seg_gap(a[ok], b[ok], c0[ok], c1[ok], target) <= cover_range
            ops[k] = near.reshape(n_o, n_t).any(axis=1)
    return Hits(obscuring, cover, ops)


def z_window(
    z0: float, z1: float, top: float, low: float = -math.inf
) -> tuple[float, float] | None:
    """The ``t`` interval (within ``[0, 1]``) of a line rising from ``z0`` to ``z1`` where it
    is above ``low`` and below ``top`` (the caller subtracts its tolerance from ``top``), or
    ``None`` when it is never there (the reference's ``_clip_below``, once for all lines)."""
    dz = z1 - z0
    lo, hi = 0.0, 1.0
    for bound, below in ((top, True), (low, False)):
        if math.isinf(bound):
            continue
        if abs(dz) < 1e-12:
            if (z0 >= bound) if below else (z0 < bound):
                return None
            continue
        t = (bound - z0) / dz
        if (dz > 0) == below:
            hi = min(hi, t)
        else:
            lo = max(lo, t)
    return lo, hi
