"""Fast single-pair sight queries: the tests of
:func:`engine.geometry.sight_lines._lowest_crossings` in plain Python, one line and one part at a
time, stopping as soon as the answer is known.

Rules: ``rules/KT24.md`` sections 4.3 (visible), 4.4 (intervening), 4.5 (cover, obscured),
9.3 (wall ends); the modelling choices are those of :mod:`engine.geometry.sight` (its module
docstring), which keeps the numpy core as the reference these functions are tested against
(``tests/test_sight_fast_path.py``).

Why: a single pair is 19 sight lines (or 25 targeting lines) against a few parts, far too small
for numpy to pay off. Here a sight query stops at the first clear line (an operative is
visible) and a line stops at the first part that blocks it. The answers are the reference's,
bit for bit: the same bounding-box, slab and edge tests with the same floating-point
expressions and tolerances, the same shapely calls (``contains_xy``, ``distance``) on the same
polygons, and the same numpy calls where the reference uses numpy trigonometry on data.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
import shapely
from numpy.typing import NDArray

from engine.geometry.model import Killzone, Placement

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]


@attrs.frozen(slots=True, eq=False)
class Parts:
    """Per-killzone arrays of part edges and bounding boxes (built once by
    :mod:`engine.geometry.sight` and cached on the killzone).

    Rows ``0..P-1`` are the killzone's parts; on a killzone with Wall terrain, further rows
    are **wall ends** (close quarters, section 9.3; module docstring): the part of a Wall part
    within 1" of one of the walls' corners, with the part's height, feature and types. Wall
    ends never block sight (the Wall parts do); for intervening they stand in for the Wall
    parts, which never intervene themselves.
    """

    bbox: FloatArray  # (P, 4) minx, miny, maxx, maxy
    edge_start: FloatArray  # (M, 2)
    edge_end: FloatArray  # (M, 2)
    edge_offset: IntArray  # (P,) first edge of each part
    edge_count: IntArray  # (P,)
    polygons: NDArray[np.object_]  # (P,) shapely polygons (prepared)
    heights: FloatArray  # (P,)
    feature: IntArray  # (P,)
    sight_mask: BoolArray  # parts that can block sight (not Insignificant, not a wall end)
    always_block: BoolArray  # Blocking or Wall: block any line crossing the footprint
    intervene_mask: BoolArray  # parts that can intervene (not Exposed, not a Wall part)
    cover: BoolArray  # gives cover (Heavy, Light, Vantage, Blocking, Wall)
    light_only: BoolArray  # its cover is only Light (Light or Vantage, nothing heavier)
    heavy: BoolArray  # Heavy: can obscure
    corner: FloatArray  # (P, 2) the corner of a wall end; NaN for the killzone's parts
    owner: IntArray  # (P,) the killzone part a row is (itself) or is the end of


_EPS = 1e-6  # as in sight.py
_TOL = 1e-12  # the edge and slab tolerances of sight_lines._lowest_crossings
_ONE_TOL = 1 + 1e-12
_INF = math.inf
_CONTROL_RANGE = 1.0  # inches (section 4.2), sight.CONTROL_RANGE
_COVER_MIN_DISTANCE = 2.0  # inches (section 4.5), sight.COVER_MIN_DISTANCE

# The 19 sample points of a target model (sight_lines._target_points, same constants): three on the
# axis, then eight around it at 0.8 of the radius at two heights (fractions of the model
# height); ``math.cos`` of the same float64 angles as the reference.
_RING_ANGLES = np.linspace(0.0, 2 * np.pi, 8, endpoint=False)
_AXIS_H = (1.0, 0.5, 0.15)
_RING_H = (0.9, 0.4)
_RING_FRAC = 0.8
_TRIG = tuple((math.cos(a), math.sin(a)) for a in _RING_ANGLES)

#: A part as the kernel sees it: ``(minx, miny, maxx, maxy, edges, limit, always, row)``;
#: ``edges`` are ``(ax, ay, ex, ey)`` (start and start-to-end vector), ``limit`` is the
#: part's height less 1e-6" (a line lower than that over the footprint crosses it),
#: ``always`` whether any line over the footprint crosses it (Blocking, Wall), ``row`` its row
#: in :class:`~engine.geometry.sight.Parts`.
Rec = tuple[
    float, float, float, float, tuple[tuple[float, float, float, float], ...], float, bool, int
]

_TABLE_KEY = "sight.kernel"


@attrs.frozen(slots=True, eq=False)
class SightTable:
    """Per-killzone tables of the fast path, built from the reference's ``Parts`` (cached on
    the killzone value, one per hatchway state).

    Attributes:
        sight: the parts that can block sight (``Parts.sight_mask``), as :data:`Rec`.
        intervene: the parts (and wall ends) that can intervene (``Parts.intervene_mask``).
        polygons: every row's shapely polygon (the reference's objects).
        cover, light_only, heavy: per row, as in ``Parts``.
        feature, owner: per row, the feature index and the killzone part it belongs to.
        corner: per row, the corner of a wall end, else ``None``.
        frames: per row and edge, the unit normal and length ``(nx, ny, length)``.
    """

    sight: tuple[Rec, ...]
    intervene: tuple[Rec, ...]
    polygons: tuple[shapely.Geometry, ...]
    cover: tuple[bool, ...]
    light_only: tuple[bool, ...]
    heavy: tuple[bool, ...]
    feature: tuple[int, ...]
    owner: tuple[int, ...]
    corner: tuple[tuple[float, float] | None, ...]
    frames: tuple[tuple[tuple[float, float, float], ...], ...]


def sight_table(kz: Killzone, parts: Parts) -> SightTable:
    """The killzone's :class:`SightTable` for its ``Parts`` (built once, cached on ``kz``)."""
    cached = kz._cache.get(_TABLE_KEY)
    if cached is None:
        cached = kz._cache[_TABLE_KEY] = _build(parts)
    assert isinstance(cached, SightTable)
    return cached


def _build(parts: Parts) -> SightTable:
    n = parts.bbox.shape[0]
    bbox = parts.bbox.tolist()
    start = parts.edge_start.tolist()
    vec = (parts.edge_end - parts.edge_start).tolist()  # the reference's ``edge_end - a``
    limit = (parts.heights - _EPS).tolist()
    recs: list[Rec] = []
    for i in range(n):
        lo = int(parts.edge_offset[i])
        hi = lo + int(parts.edge_count[i])
        edges = tuple((start[k][0], start[k][1], vec[k][0], vec[k][1]) for k in range(lo, hi))
        b = bbox[i]
        recs.append((b[0], b[1], b[2], b[3], edges, limit[i], bool(parts.always_block[i]), i))
    corner = parts.corner.tolist()
    frames = []
    for r in recs:
        f = []
        for _, _, ex, ey in r[4]:
            length = math.hypot(ex, ey)
            f.append((-ey / length, ex / length, length) if length else (0.0, 0.0, 0.0))
        frames.append(tuple(f))
    return SightTable(
        sight=tuple(r for r in recs if parts.sight_mask[r[7]]),
        intervene=tuple(r for r in recs if parts.intervene_mask[r[7]]),
        polygons=tuple(parts.polygons.tolist()),
        cover=tuple(parts.cover.tolist()),
        light_only=tuple(parts.light_only.tolist()),
        heavy=tuple(parts.heavy.tolist()),
        feature=tuple(parts.feature.tolist()),
        owner=tuple(parts.owner.tolist()),
        corner=tuple(None if math.isnan(c[0]) else (c[0], c[1]) for c in corner),
        frames=tuple(frames),
    )


def _corridor(
    recs: tuple[Rec, ...], x0: float, y0: float, x1: float, y1: float, reach: float
) -> list[Rec]:
    """The parts a segment from within ``reach`` of ``(x0, y0)`` to within ``reach`` of
    ``(x1, y1)`` (inches) can meet: those whose bounding box, grown by ``reach`` (and 1e-6"),
    the centre segment meets. A superset of the parts that pass the reference's
    bounding-box and slab tests for any such segment (every point of such a segment lies
    within ``reach`` of the centre segment)."""
    m = reach + _EPS
    lox, hix = (x0 - m, x1 + m) if x0 <= x1 else (x1 - m, x0 + m)
    loy, hiy = (y0 - m, y1 + m) if y0 <= y1 else (y1 - m, y0 + m)
    near = [r for r in recs if not (lox > r[2] or hix < r[0] or loy > r[3] or hiy < r[1])]
    dx = x1 - x0
    dy = y1 - y0
    if not near or (abs(dx) < 2 * m and abs(dy) < 2 * m):
        return near
    out = []
    for r in near:
        t_lo, t_hi = 0.0, 1.0
        if dx != 0:
            ta = (r[0] - m - x0) / dx
            tb = (r[2] + m - x0) / dx
            if ta > tb:
                ta, tb = tb, ta
            if ta > t_lo:
                t_lo = ta
            if tb < t_hi:
                t_hi = tb
        if dy != 0:
            ta = (r[1] - m - y0) / dy
            tb = (r[3] + m - y0) / dy
            if ta > tb:
                ta, tb = tb, ta
            if ta > t_lo:
                t_lo = ta
            if tb < t_hi:
                t_hi = tb
        if t_lo <= t_hi + 1e-9:
            out.append(r)
    return out


def _crosses(
    table: SightTable,
    rec: Rec,
    x0: float,
    y0: float,
    z0: float,
    x1: float,
    y1: float,
    z1: float,
    dx: float,
    dy: float,
) -> bool:
    """Whether the 3D segment ``(x0, y0, z0) -> (x1, y1, z1)`` (``dx, dy = x1 - x0, y1 - y0``),
    whose bounding box meets the part's, crosses the part: the reference's slab and edge tests
    and endpoint containment (``sight_lines._lowest_crossings``), then its ``always_block ?
    low < inf : low < height - 1e-6`` verdict, with the same expressions."""
    bx0, by0, bx1, by1, edges, limit, always, row = rec
    # Slab test of the segment against the bounding box (the smaller of the two parameters
    # on each axis is the one of the nearer side).
    if dx > 0:
        t_lo = (bx0 - x0) / dx
        t_hi = (bx1 - x0) / dx
    elif dx < 0:
        t_lo = (bx1 - x0) / dx
        t_hi = (bx0 - x0) / dx
    else:
        t_lo, t_hi = -_INF, _INF
    if dy > 0:
        ta = (by0 - y0) / dy
        tb = (by1 - y0) / dy
    elif dy < 0:
        ta = (by1 - y0) / dy
        tb = (by0 - y0) / dy
    else:
        ta, tb = -_INF, _INF
    if ta > t_lo:
        t_lo = ta
    if tb < t_hi:
        t_hi = tb
    if (t_lo if t_lo > 0.0 else 0.0) > (t_hi if t_hi < 1.0 else 1.0) + _TOL:
        return False
    dz = z1 - z0
    for ax, ay, ex, ey in edges:
        denom = dx * ey - dy * ex
        if denom == 0:
            continue
        wx = ax - x0
        wy = ay - y0
        t = (wx * ey - wy * ex) / denom
        if t < -_TOL or t > _ONE_TOL:
            continue
        u = (wx * dy - wy * dx) / denom
        if u < -_TOL or u > _ONE_TOL:
            continue
        if always:
            return True
        if z0 + (0.0 if t < 0.0 else 1.0 if t > 1.0 else t) * dz < limit:
            return True
    # An end inside the footprint counts at its own height.
    if (
        (always or z0 < limit)
        and bx0 <= x0 <= bx1
        and by0 <= y0 <= by1
        and shapely.contains_xy(table.polygons[row], x0, y0)
    ):
        return True
    return bool(
        (always or z1 < limit)
        and bx0 <= x1 <= bx1
        and by0 <= y1 <= by1
        and shapely.contains_xy(table.polygons[row], x1, y1)
    )


def _clear(
    table: SightTable,
    cands: list[Rec],
    x0: float,
    y0: float,
    z0: float,
    x1: float,
    y1: float,
    z1: float,
) -> bool:
    """Whether no part of ``cands`` blocks the sight line; a blocking part moves to the front of
    ``cands`` (neighbouring lines are usually blocked by the same part)."""
    lox, hix = (x0, x1) if x0 <= x1 else (x1, x0)
    loy, hiy = (y0, y1) if y0 <= y1 else (y1, y0)
    dx = x1 - x0
    dy = y1 - y0
    for k, rec in enumerate(cands):
        if lox > rec[2] or hix < rec[0] or loy > rec[3] or hiy < rec[1]:
            continue
        if _crosses(table, rec, x0, y0, z0, x1, y1, z1, dx, dy):
            if k:
                cands.insert(0, cands.pop(k))
            return False
    return True


#: Safety margin of :func:`_shadows` (inches): far above the rounding errors of the
#: reference's tests (about 1e-13"), so what it proves holds for them too.
_MARGIN = 1e-5


def _shadows(table: SightTable, rec: Rec, hx: float, hy: float, hz: float, b: Placement) -> bool:
    """A sufficient condition, with margins, for the part to block every sight line from the
    head ``(hx, hy, hz)`` to the 19 points of ``b`` in the reference's tests: one edge of the
    part crosses all of them well inside both the edge and the lines (the head and the
    target's points within ``0.8 * radius`` of its axis lie on opposite sides of the edge's
    line, and both tangents from the head to that disc meet the edge inside it), and the part
    blocks any line crossing it (Blocking, Wall) or stands higher than the head and the top
    of the target's model. ``False`` means "not proved", not "not blocked"."""
    edges, limit, always, row = rec[4], rec[5], rec[6], rec[7]
    m = _MARGIN
    if not always and not (hz < limit - m and b.elevation + b.model_height < limit - m):
        return False
    bx, by = b.x, b.y
    rho = _RING_FRAC * b.radius + m
    vx, vy = bx - hx, by - hy
    dist = math.hypot(vx, vy)
    if dist <= rho + 2 * m:
        return False
    alpha = math.asin(rho / dist)
    theta = math.atan2(vy, vx)
    rays = (
        (math.cos(theta - alpha), math.sin(theta - alpha)),
        (math.cos(theta + alpha), math.sin(theta + alpha)),
    )
    for (ax, ay, ex, ey), (nx, ny, length) in zip(edges, table.frames[row], strict=True):
        if length < 4 * m:
            continue
        s_head = (hx - ax) * nx + (hy - ay) * ny
        s_target = (bx - ax) * nx + (by - ay) * ny
        if s_head > m:
            if s_target >= -(rho + m):
                continue
        elif s_head < -m:
            if s_target <= rho + m:
                continue
        else:
            continue
        lo, hi = m / length, 1 - m / length
        for cx, cy in rays:
            cn = cx * nx + cy * ny
            if cn == 0:
                break
            k = -s_head / cn
            if k <= 0:
                break
            u = ((hx + k * cx - ax) * ex + (hy + k * cy - ay) * ey) / (length * length)
            if not lo < u < hi:
                break
        else:
            return True
    return False


def target_points(t: Placement) -> list[tuple[float, float, float]]:
    """The 19 sample points of a target model, as ``sight_lines._target_points`` computes them."""
    x, y, z, h = t.x, t.y, t.elevation, t.model_height
    pts = [(x, y, z + f * h) for f in _AXIS_H]
    r = _RING_FRAC * t.radius
    for f in _RING_H:
        zz = z + f * h
        pts.extend((x + r * c, y + r * s, zz) for c, s in _TRIG)
    return pts


def visible(table: SightTable, a: Placement, b: Placement) -> bool:
    """``sight.visible`` for ``a != b`` (section 4.3): a line from a's head to one of b's 19
    points that no part blocks. Stops at the first clear line."""
    hx, hy, hz = a.x, a.y, a.elevation + a.model_height
    cands = _corridor(table.sight, hx, hy, b.x, b.y, b.radius)
    if not cands:
        return True
    # The top of the target's axis first (target_points(b)[0]): the most often clear line.
    if _clear(table, cands, hx, hy, hz, b.x, b.y, b.elevation + _AXIS_H[0] * b.model_height):
        return True
    # The part blocking it (now first) often hides the whole target.
    if _shadows(table, cands[0], hx, hy, hz, b):
        return False
    pts = target_points(b)
    return any(_clear(table, cands, hx, hy, hz, px, py, pz) for px, py, pz in pts[1:])


def any_clear(
    table: SightTable, head: tuple[float, float, float], points: list[tuple[float, float, float]]
) -> bool:
    """Whether some line from ``head`` to one of ``points`` (inches) is not blocked."""
    hx, hy, hz = head
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    reach = max(math.hypot(x - cx, y - cy) for x, y in zip(xs, ys, strict=True)) + _EPS
    cands = _corridor(table.sight, hx, hy, cx, cy, reach)
    if not cands:
        return True
    return any(_clear(table, cands, hx, hy, hz, px, py, pz) for px, py, pz in points)


@attrs.frozen(slots=True)
class OriginVerdict:
    """The reference ``_evaluate``'s verdicts for one origin point of one pair.

    Attributes:
        cover: in cover for the attack (a feature giving both cover and obscured counts as
            obscuring).
        cover_any: some feature gives cover (target selection).
        cover_heavy: some feature gives cover that is not Light only.
        obscured: some feature obscures.
        crossed, cover_features, obscuring_features: the feature indices (ascending tuples).
        cover_heavy_features: the cover features whose cover is not Light only (those
            behind ``cover_heavy``; ascending).
    """

    cover: bool
    cover_any: bool
    cover_heavy: bool
    obscured: bool
    crossed: tuple[int, ...]
    cover_features: tuple[int, ...]
    obscuring_features: tuple[int, ...]
    cover_heavy_features: tuple[int, ...] = ()


# Targeting lines (sight._pair_lines): origins at the centre and four around the base's edge,
# five facing points over the half of the target's base facing the shooter.
_ORIGIN_ANGLES = np.linspace(0.0, 2 * np.pi, 4, endpoint=False) + np.pi / 4
_ORIGIN_TRIG = tuple(
    zip(np.cos(_ORIGIN_ANGLES).tolist(), np.sin(_ORIGIN_ANGLES).tolist(), strict=True)
)
_FACING_OFFSETS = np.linspace(-np.pi / 2, np.pi / 2, 5)
N_ORIGINS = 5
N_FACING = 5


def targeting_lines(s: Placement, t: Placement) -> tuple[list[list[float]], list[list[float]]]:
    """The 25 targeting lines of shooter ``s`` and target ``t`` as ``sight._targeting_lines``
    gives them (the same numpy trigonometry on arrays of the same shapes, the rest in plain
    floats): ``(p0, p1)``, lists of ``[x, y, z]``, origin-major (the centre first)."""
    sx, sy, sz = s.x, s.y, s.elevation
    tx, ty, tz = t.x, t.y, t.elevation
    ks = 0.999 * s.radius
    kt = 0.999 * t.radius
    toward = (
        np.arctan2(np.asarray([sy - ty]), np.asarray([sx - tx]))[:, None] + _FACING_OFFSETS[None, :]
    )
    facing = [
        [tx + kt * c, ty + kt * n, tz]
        for c, n in zip(np.cos(toward)[0].tolist(), np.sin(toward)[0].tolist(), strict=True)
    ]
    origins = [[sx, sy, sz]] + [[sx + ks * c, sy + ks * n, sz] for c, n in _ORIGIN_TRIG]
    p0 = [o for o in origins for _ in range(N_FACING)]
    p1 = facing * N_ORIGINS
    return p0, p1


class PairVerdicts:
    """Targeting verdicts of one shooter and target, origin by origin, computed on demand.

    Args:
        table: the killzone's :class:`SightTable`.
        s, t: shooter and target.
        stand: gives the features the shooter and the target stand on (``-1``: the floor);
            called at most once, when a Heavy part may obscure.
    """

    __slots__ = (
        "_cands",
        "_close",
        "_gaps",
        "_norm",
        "_points",
        "_s",
        "_stand",
        "_stood",
        "_t",
        "_table",
        "lines",
    )

    def __init__(
        self,
        table: SightTable,
        s: Placement,
        t: Placement,
        stand: Callable[[], tuple[int, int]],
    ) -> None:
        self._table = table
        # x, y, radius, elevation (inches), as the reference's columns.
        self._s = (s.x, s.y, s.radius, s.elevation)
        self._t = (t.x, t.y, t.radius, t.elevation)
        #: The targeting lines ``(p0, p1)`` (:func:`targeting_lines`).
        self.lines = targeting_lines(s, t)
        self._stand = stand
        self._stood: tuple[int, int] | None = None
        self._close: bool | None = None
        self._norm: float | None = None
        self._points: Any = None
        self._cands = _corridor(table.intervene, s.x, s.y, t.x, t.y, max(self._s[2], self._t[2]))
        self._gaps: dict[int, tuple[float, float]] = {}

    def _stands(self) -> tuple[int, int]:
        if self._stood is None:
            self._stood = self._stand()
        return self._stood

    def _is_close(self) -> bool:
        """The operatives are within 2" of each other: no cover (4.5). The reference's
        expressions (``np.hypot`` as it calls it, the rest in plain floats)."""
        if self._close is None:
            sx, sy, sr, sz = self._s
            tx, ty, tr, tz = self._t
            centre_gap = float(np.hypot(sx - tx, sy - ty)) - sr - tr
            centre_gap = centre_gap if centre_gap > 0.0 else 0.0
            close = float(np.hypot(centre_gap, sz - tz)) <= _COVER_MIN_DISTANCE + _EPS
            self._close = close
        return self._close

    def _passed(self, corner: tuple[float, float]) -> bool:
        """A wall end whose corner the shooter has passed (no further toward the target than
        the front of the shooter's base) does not intervene (9.3)."""
        sx, sy, sr, _ = self._s
        tx, ty, _, _ = self._t
        dx, dy = tx - sx, ty - sy
        if self._norm is None:
            self._norm = max(float(np.hypot(dx, dy)), _EPS)
        ahead = ((corner[0] - sx) * dx + (corner[1] - sy) * dy) / self._norm
        return not ahead > sr + _EPS

    def _fill_gaps(self, rows: list[int]) -> None:
        """Horizontal gaps (inches) from the parts' footprints to the target's and shooter's
        bases, as the reference's ``_gap_matrix`` computes them."""
        todo = [row for row in rows if row not in self._gaps]
        if not todo:
            return
        if self._points is None:
            self._points = np.asarray(
                shapely.points(
                    np.asarray([self._t[0], self._s[0]]), np.asarray([self._t[1], self._s[1]])
                ),
                dtype=object,
            ).reshape(1, 2)
        polys = np.asarray([self._table.polygons[row] for row in todo], dtype=object)
        d = np.asarray(shapely.distance(polys[:, None], self._points), dtype=np.float64)
        g = np.maximum(d - np.asarray([self._t[2], self._s[2]])[None, :], 0.0).tolist()
        for row, (gt, gs) in zip(todo, g, strict=True):
            self._gaps[row] = (gt, gs)

    def crossed_rows(self, o: int) -> list[int]:
        """Rows crossed by a line of origin ``o`` (wall ends the shooter has passed left out),
        ascending."""
        table = self._table
        p0, p1 = self.lines
        rows: set[int] = set()
        x0, y0, z0 = p0[N_FACING * o]
        for k in range(N_FACING * o, N_FACING * o + N_FACING):
            x1, y1, z1 = p1[k]
            lox, hix = (x0, x1) if x0 <= x1 else (x1, x0)
            loy, hiy = (y0, y1) if y0 <= y1 else (y1, y0)
            dx = x1 - x0
            dy = y1 - y0
            for rec in self._cands:
                if lox > rec[2] or hix < rec[0] or loy > rec[3] or hiy < rec[1]:
                    continue
                if rec[7] not in rows and _crosses(table, rec, x0, y0, z0, x1, y1, z1, dx, dy):
                    rows.add(rec[7])
        out = []
        for row in sorted(rows):
            corner = table.corner[row]
            if corner is None or not self._passed(corner):
                out.append(row)
        return out

    def origin(self, o: int, *, keep_sets: bool = True) -> OriginVerdict:
        """The verdicts for origin ``o`` (0 the centre, 1-4 around the edge)."""
        table = self._table
        rows = self.crossed_rows(o)
        if not rows:
            return _NOTHING
        self._fill_gaps(rows)
        gaps = self._gaps
        reach = _CONTROL_RANGE + _EPS
        vetoed = {table.owner[row] for row in rows if min(gaps[row]) <= reach}
        cov: set[int] = set()
        cov_h: set[int] = set()
        obs: set[int] = set()
        for row in rows:
            f = table.feature[row]
            if table.cover[row] and gaps[row][0] <= reach and not self._is_close():
                cov.add(f)
                if not table.light_only[row]:
                    cov_h.add(f)
            if table.heavy[row] and table.owner[row] not in vetoed and f not in self._stands():
                obs.add(f)
        crossed = sorted({table.feature[row] for row in rows}) if keep_sets else []
        return OriginVerdict(
            cover=bool(cov - obs),
            cover_any=bool(cov),
            cover_heavy=bool(cov_h),
            obscured=bool(obs),
            crossed=tuple(crossed),
            cover_features=tuple(sorted(cov)),
            obscuring_features=tuple(sorted(obs)),
            cover_heavy_features=tuple(sorted(cov_h)),
        )

    def evidence(self, o: int) -> OriginEvidence:
        """What :meth:`origin` decided for origin ``o`` and from what (the ``why`` variant,
        ``tests/test_sight_why.py`` checks it agrees with :meth:`origin` on many random
        pairs): every row a line of this origin crosses (before the wall ends the shooter has
        passed are left out, 9.3), which of the five lines cross it, its horizontal gaps to
        the target's and the shooter's bases (inches) and its part in the verdict (cover,
        obscuring, or vetoed: within 1" of either base, 4.5). ``verdict`` is :meth:`origin`'s
        own answer."""
        table = self._table
        p0, p1 = self.lines
        crossed: dict[int, list[int]] = {}
        x0, y0, z0 = p0[N_FACING * o]
        for line in range(N_FACING):
            x1, y1, z1 = p1[N_FACING * o + line]
            lox, hix = (x0, x1) if x0 <= x1 else (x1, x0)
            loy, hiy = (y0, y1) if y0 <= y1 else (y1, y0)
            dx = x1 - x0
            dy = y1 - y0
            for rec in self._cands:
                if lox > rec[2] or hix < rec[0] or loy > rec[3] or hiy < rec[1]:
                    continue
                if _crosses(table, rec, x0, y0, z0, x1, y1, z1, dx, dy):
                    crossed.setdefault(rec[7], []).append(line)
        rows = sorted(crossed)
        self._fill_gaps(rows)
        reach = _CONTROL_RANGE + _EPS
        passed = {r for r in rows if (c := table.corner[r]) is not None and self._passed(c)}
        kept = [r for r in rows if r not in passed]
        vetoed = {table.owner[r] for r in kept if min(self._gaps[r]) <= reach}
        close = self._is_close() if kept else False
        out = []
        for row in rows:
            corner = table.corner[row]
            is_passed = row in passed
            gap_t, gap_s = self._gaps[row]
            cover = not is_passed and table.cover[row] and gap_t <= reach and not close
            obscures = (
                not is_passed
                and table.heavy[row]
                and table.owner[row] not in vetoed
                and table.feature[row] not in self._stands()
            )
            out.append(
                RowEvidence(
                    row=row,
                    part=table.owner[row],
                    feature=table.feature[row],
                    lines=tuple(crossed[row]),
                    gap_target=gap_t,
                    gap_shooter=gap_s,
                    wall_end=corner is not None,
                    passed=is_passed,
                    cover=cover,
                    light_only=table.light_only[row],
                    heavy=table.heavy[row],
                    vetoed=not is_passed and table.owner[row] in vetoed,
                    obscures=obscures,
                )
            )
        return OriginEvidence(origin=o, rows=tuple(out), close=close, verdict=self.origin(o))


@attrs.frozen(slots=True)
class RowEvidence:
    """One part (or wall end) a targeting line of one origin crosses
    (:meth:`PairVerdicts.evidence`).

    Attributes:
        row: its row in the sight table. part: the killzone part it is or is the end of
            (an index into ``Killzone.parts``). feature: that part's feature index.
        lines: which of the origin's five lines cross it (0-4, the facing points in order).
        gap_target, gap_shooter: horizontal gaps from its footprint to the bases (inches).
        wall_end: a wall end (close quarters, 9.3). passed: a wall end whose corner the
            shooter has passed: it does not intervene (9.3).
        cover: it gives the target cover (4.5: cover terrain within 1" of the target, the
            operatives more than 2" apart). light_only: its cover is Light only.
        heavy: Heavy terrain. vetoed: its part is within 1" of either base, so it cannot
            obscure (4.5). obscures: it obscures the target (4.5, 4.7).
    """

    row: int
    part: int
    feature: int
    lines: tuple[int, ...]
    gap_target: float
    gap_shooter: float
    wall_end: bool
    passed: bool
    cover: bool
    light_only: bool
    heavy: bool
    vetoed: bool
    obscures: bool


@attrs.frozen(slots=True)
class OriginEvidence:
    """The evidence behind one origin's verdict (:meth:`PairVerdicts.evidence`).

    Attributes:
        origin: 0 the centre of the shooter's base, 1-4 around its edge.
        rows: the crossed parts, ascending by row. close: the operatives are within 2" of
            each other (no cover, 4.5). verdict: :meth:`PairVerdicts.origin`'s answer.
    """

    origin: int
    rows: tuple[RowEvidence, ...]
    close: bool
    verdict: OriginVerdict


def sight_line_blockers(
    table: SightTable, a: Placement, b: Placement
) -> list[tuple[tuple[float, float, float], tuple[int, ...]]]:
    """Every sight line of :func:`visible` (a's head to each of b's 19 points, in the order
    of :func:`target_points`) with the rows that block it (empty: the line is clear), the
    ``why`` variant of :func:`visible` (``b`` is visible exactly when some line is clear,
    checked on many random pairs by ``tests/test_sight_why.py``)."""
    hx, hy, hz = a.x, a.y, a.elevation + a.model_height
    cands = _corridor(table.sight, hx, hy, b.x, b.y, b.radius)
    out = []
    for px, py, pz in target_points(b):
        dx, dy = px - hx, py - hy
        lox, hix = (hx, px) if hx <= px else (px, hx)
        loy, hiy = (hy, py) if hy <= py else (py, hy)
        rows = tuple(
            rec[7]
            for rec in cands
            if not (lox > rec[2] or hix < rec[0] or loy > rec[3] or hiy < rec[1])
            and _crosses(table, rec, hx, hy, hz, px, py, pz, dx, dy)
        )
        out.append(((px, py, pz), rows))
    return out


_NOTHING = OriginVerdict(
    cover=False,
    cover_any=False,
    cover_heavy=False,
    obscured=False,
    crossed=(),
    cover_features=(),
    obscuring_features=(),
)
