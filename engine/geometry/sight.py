"""Distances, visibility, control range, targeting lines, cover, obscured and valid targets.

Rules: ``rules/KT24.md`` sections 4.1 (distances), 4.2 (control range), 4.3 (visible), 4.4
(intervening, targeting lines), 4.5 (cover, obscured, valid target), 4.6 (terrain types),
4.7 (Vantage), 9.3 (close quarters: walls); ``EDGE_CASES.md`` 1 and 2; project decision 10
(3D distances between levels).

The killzone is 2.5D: every terrain part is a footprint polygon extruded from the floor to its
height. One numpy core (:mod:`engine.geometry.sight_lines`) intersects many 3D segments with
every part at once; all queries are defined by it, so the single-pair functions and the vectorised
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
- **Distances around walls** (9.3, :mod:`engine.geometry.distances`): on a killzone with Wall
  terrain (:attr:`Killzone.close_quarters`), :func:`distance_around_walls` measures between two
  bases along the shortest route that does not pass through a Wall (or off the board), like a tape
  bent around the walls' corners; it is :func:`distance` when no wall is in the way. Control range
  (of operatives and objective markers) and :attr:`AllPairs.distance` use it; plain :func:`distance`
  and :func:`distance_to_area` (areas are measured straight, 9.3) do not change. The route is worked
  out on the floor plan (walls as full-height footprints).
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

import attrs
import numpy as np
import shapely

from engine.geometry import sight_kernel
from engine.geometry.distances import (
    _distance_matrices,
    distance,
    distance_around_walls,
    distance_to_area,
)
from engine.geometry.model import (
    MM_PER_INCH,
    OBJECTIVE_DIAMETER_MM,
    Killzone,
    Objective,
    Placement,
)
from engine.geometry.sight_kernel import Parts as _Parts
from engine.geometry.sight_lines import (
    _EPS,
    _INF,
    _N_TARGET_POINTS,
    _RING_ANGLES,
    BoolArray,
    FloatArray,
    IntArray,
    _blocked,
    _lowest_crossings,
    _parts,
    _target_points,
    wall_corners,
)

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
    "selection_targetings",
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
#: How far past 1" (inches) a distance still counts as within control range: rounding only.
CONTROL_RANGE_TOLERANCE = _EPS


# Shooter origins: centre then eight around the edge; target facing points: seven over 180°.
_ORIGIN_ANGLES = np.linspace(0.0, 2 * np.pi, 4, endpoint=False) + np.pi / 4
_FACING_OFFSETS = np.linspace(-np.pi / 2, np.pi / 2, 5)
_N_ORIGINS = 1 + _ORIGIN_ANGLES.size
_N_FACING = _FACING_OFFSETS.size


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


MARKER_CACHE_ENTRIES = 65_536
"""Answers of :func:`marker_in_control_range` a killzone keeps (a pure function of the
killzone, the placement, the marker's centre and size); the memo is emptied when full."""


def marker_in_control_range(
    kz: Killzone, operative: Placement, position: tuple[float, float], diameter_mm: float
) -> bool:
    """Whether a marker on the killzone floor, ``diameter_mm`` millimetres across and centred
    on ``position`` (inches), is within an operative's control range: the rule of
    :func:`objective_in_control_range` for any marker (4.8: objective markers are 40 mm,
    others 20 mm, e.g. the equipment's, 7.2).

    The answer is remembered on the killzone (a value: its layout never changes), keyed by
    the placement's fields, the centre and the size, at most :data:`MARKER_CACHE_ENTRIES`
    answers."""
    memo = kz._cache.get("marker_in_control_range")
    if memo is None:
        memo = kz._cache["marker_in_control_range"] = {}
    key = (
        operative.x,
        operative.y,
        operative.base_mm,
        operative.elevation,
        operative.model_height,
        float(position[0]),
        float(position[1]),
        float(diameter_mm),
    )
    got = memo.get(key)
    if got is None:
        if len(memo) >= MARKER_CACHE_ENTRIES:
            memo.clear()
        got = memo[key] = _marker_in_control_range(kz, operative, position, diameter_mm)
    return got


def _marker_in_control_range(
    kz: Killzone, operative: Placement, position: tuple[float, float], diameter_mm: float
) -> bool:
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
    return _origin_targeting(pv, best, chosen)


def _origin_targeting(
    pv: sight_kernel.PairVerdicts, best: int, chosen: sight_kernel.OriginVerdict
) -> Targeting:
    """The :class:`Targeting` from origin ``best`` whose verdicts are ``chosen``."""
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


def selection_targetings(
    kz: Killzone,
    target: Placement,
    shooter: Placement,
    *,
    seek: str | None = None,
    vantage: bool = True,
) -> tuple[tuple[Targeting, frozenset[int]], ...]:
    """What :func:`valid_target` decides a Conceal target's validity from, origin by origin
    (sections 4.5, 4.7): for each of the shooter's origin points (the centre first), the
    :class:`Targeting` from it and the features whose cover counts for target selection
    (every cover feature; only those whose cover is not Light only when Light terrain does
    not count: Seek Light, or a shooter on Vantage 2" or more above the target unless
    ``vantage`` is ``False``). A visible Conceal target is valid when, from some origin, no
    feature counts; a game rule that changes the targeting (e.g. 7.2 Portable) is applied
    to each origin's :class:`Targeting` by the caller.

    Args:
        seek: as :func:`valid_target` (``"all"``: no feature counts from any origin).

    Raises:
        ValueError: for an unknown seek value.
    """
    if seek not in (None, "all", "light"):
        raise ValueError(f"seek must be None, 'all' or 'light', not {seek!r}")
    pv = _pair_verdicts(kz, shooter, target)
    ignore_light = seek == "light" or (
        vantage and _height_advantage(kz, shooter, target) >= 2 - _EPS
    )
    out = []
    for k in range(_N_ORIGINS):
        v = pv.origin(k)
        if seek == "all":
            counts: frozenset[int] = frozenset()
        else:
            counts = frozenset(v.cover_heavy_features if ignore_light else v.cover_features)
        out.append((_origin_targeting(pv, k, v), counts))
    return tuple(out)


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
