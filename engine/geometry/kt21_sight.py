"""KT21 Line of Sight geometry: Engagement Range, Cover lines, Obscured, in Cover and Vantage
Points (``rules/KT21.md`` 7.2, 8.1-8.6, 9; decision 4; Designer's Commentary rulings 16.1-16.5).

Pure geometry on the shared killzone (inches; 2.5D parts extruded from the floor to their
height, as :mod:`engine.geometry.sight` models them). The game-side questions (which
operatives, which order, valid targets) are :mod:`engine.rules.kt21.sight`'s.

Terrain traits (9). The killzones are written with KT24 terrain *types*; KT21 reads them as
these traits (:func:`part_traits`):

- ``Heavy``, ``Blocking``, ``Wall`` -> **Heavy**: provides Cover and is **Obscuring**;
- ``Light`` -> **Light**: provides Cover; a Light part that is not a Vantage part and at most
  2" high is also **Traversable** (a barricade: Light + Traversable);
- ``Vantage`` -> **Vantage Point** (an operative may stand on it), providing Cover as
  **Light** unless it is also Heavy;
- ``Insignificant`` and ``Exposed`` -> no cover and not Obscuring (Insignificant: no rules);
- every other KT24 type (Accessible, Ceiling, Obstructing, Protective, Portable, Ladder) has
  no KT21 cover or obscuring meaning;
- a **hatchway** (Close Quarters, 13): closed, its access point is Wall + Heavy (Heavy here);
  open, the killzone data makes the access point Accessible + Insignificant + Exposed (the
  KT24 reading, where the raised hatch is not a part), but under KT21 the hatch of an open
  hatchway gives Cover and is Obscuring, and a Cover line passing under the hatch crosses it
  (13, DC 16.40): the access point of an open hatchway (the killzone's ``hatchways`` and
  ``open_hatchways``) has :data:`OPEN_HATCH_TRAITS`, over its full height. Visible (8.1) is
  unchanged: an operative can be seen through an open hatchway.

Modelling (documented approximations of the tabletop):

- **Visible** (8.1) is the KT24 test, the same rule: :func:`engine.geometry.sight.visible`.
- **Engagement Range** (7.2): visible (either way) and within 1": KT24's control range test,
  :func:`engine.geometry.sight.within_control_range`.
- **Cover lines** (8.2, decision 4): from one *origin* point of the shooter's base (its
  centre, then eight points round its edge) to every part of the target's base (its centre
  and twelve points round its edge), 3D segments between the two bases' elevations. A line
  crosses a part where it passes over the part's footprint below its top (16.3: a line above
  a feature does not cross it). The *crossing points* of a part are those pieces of lines.
- **Obscured** (8.3): some cover line crosses an Obscuring part at a point more than 2"
  (horizontally) from the target's base, counting only the crossing points more than 1" from
  the shooter's base (16.2: the parts within 1" of the shooter are not Obscuring; the rest of
  the same feature still is). Any crossing point counts, not only the closest (16.1).
- **In Cover** (8.4): the bases are more than 2" apart and some cover line crosses a part
  providing Cover, or another operative's base (its cylinder up to its model height), at a
  point within 1" (horizontally) of the target's base. The caller says which operatives give
  cover (those in the shooter's Line of Sight).
- **Vantage Points** (8.6): a target standing on a Vantage part does not use the parts of
  that feature at or below its own elevation for Cover or Obscured; a part of that feature
  higher than the target (a rampart) within 1" of the target gives it Cover when a cover line
  passes over its footprint, even under it (16.5). A shooter on a Vantage part does not have
  its cover lines cross the feature it stands on at or below its elevation (the lines start
  on that surface). A Conceal target in Cover only from Light parts or operatives, at least
  2" lower than a shooter standing on a Vantage part, counts as Engage for that attack
  (:attr:`OriginVerdict.light_only`).
- **Origin** (decision 4): every origin is evaluated; the shooter uses the one that best
  favours it (:func:`best_origin`), and the same origin serves the cover save.

Speed: every cover line of a pair is measured at once by the numpy kernel
:mod:`engine.geometry.kt21_cover_lines` (convex parts clipped by their edges' half-planes,
shapely for the rest and for the lines it could not tell apart from a miss by rounding); the
straightforward line-by-line version, :func:`_evaluate_reference`, is kept as the reference
the tests hold it to (``tests/test_kt21_sight_fast.py``). The parts are those meeting the
convex hull of the two bases (the killzone's index), their traits kept on the killzone.
Verdicts are cached on the killzone per positions (the shooter, the target and the operatives
that may give cover), at most :data:`CACHE_ENTRIES` answers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np
import shapely
from shapely.geometry import Point

from engine.geometry import sight
from engine.geometry.distances import distance
from engine.geometry.kt21_cover_lines import (
    LinePart,
    convex_edges,
    cover_line_hits,
    z_window,
)
from engine.geometry.kt21_cover_lines import pieces_many as _pieces_many
from engine.geometry.model import Killzone, Placement, TerrainType

__all__ = [
    "CACHE_ENTRIES",
    "COVER_RANGE",
    "ENGAGEMENT_RANGE",
    "NEAR_SHOOTER",
    "NO_COVER_DISTANCE",
    "OBSCURING_DISTANCE",
    "OPEN_HATCH_TRAITS",
    "TRAVERSABLE_MAX_HEIGHT",
    "VANTAGE_DROP",
    "Kt21Verdict",
    "OriginVerdict",
    "best_origin",
    "cover_origins",
    "engagement_range",
    "evaluate",
    "may_give_cover",
    "part_traits",
    "vantage_engage",
    "visible",
]

ENGAGEMENT_RANGE = 1.0
"""Engagement Range, inches (▲, 7.2)."""
COVER_RANGE = 1.0
"""In Cover: within ▲ (1") of a crossing point (8.4)."""
NO_COVER_DISTANCE = 2.0
"""In Cover only when the bases are more than ● (2") apart (8.4)."""
OBSCURING_DISTANCE = 2.0
"""Obscured: more than ● (2") from a crossing point of an Obscuring part (8.3)."""
NEAR_SHOOTER = 1.0
"""Obscuring parts within ▲ (1") of the shooter do not obscure (8.3, 16.2)."""
VANTAGE_DROP = 2.0
"""A Conceal target at least ● (2") lower than a shooter on a Vantage Point (8.6)."""
TRAVERSABLE_MAX_HEIGHT = 2.0
"""A Light, non-Vantage part at most this high (inches) reads as a barricade (Traversable)."""
CACHE_ENTRIES = 32_768
"""Verdicts a killzone keeps (:func:`evaluate`); the memo is emptied when full."""

_EPS = 1e-6
_TARGET_RIM = 12
_ORIGIN_RIM = 8
_RIM = 0.999  # sample points just inside the base's edge


OPEN_HATCH_TRAITS = frozenset({"Heavy", "Obscuring", "Cover"})
"""The KT21 traits of the access point of an open hatchway (13, DC 16.40: the open hatch gives
Cover and is Obscuring; Cover lines under it cross it)."""


def part_traits(kz: Killzone, index: int) -> frozenset[str]:
    """The KT21 traits of part ``index`` (9; the module docstring's mapping): a subset of
    ``{"Heavy", "Obscuring", "Light", "Cover", "Traversable", "Vantage Point",
    "Insignificant"}``; a part of an open hatchway has :data:`OPEN_HATCH_TRAITS` (13)."""
    if kz.features[kz.parts[index].feature] in kz.open_hatchways:
        return OPEN_HATCH_TRAITS
    types = kz.part_types(index)
    out: set[str] = set()
    if TerrainType.INSIGNIFICANT in types:
        out.add("Insignificant")
    if TerrainType.VANTAGE in types:
        out.add("Vantage Point")
    if TerrainType.INSIGNIFICANT in types or TerrainType.EXPOSED in types:
        return frozenset(out)
    if types & {TerrainType.HEAVY, TerrainType.BLOCKING, TerrainType.WALL}:
        out |= {"Heavy", "Obscuring", "Cover"}
    elif TerrainType.LIGHT in types or TerrainType.VANTAGE in types:
        out |= {"Light", "Cover"}
        if (
            TerrainType.VANTAGE not in types
            and kz.parts[index].height <= TRAVERSABLE_MAX_HEIGHT + _EPS
        ):
            out.add("Traversable")
    return frozenset(out)


def visible(kz: Killzone, a: Placement, b: Placement) -> bool:
    """Whether ``b`` is Visible to ``a`` (8.1; the same rule as KT24's, 16.4: an operative is
    Visible to itself): :func:`engine.geometry.sight.visible`, remembered on the killzone
    per pair of placements."""
    memo: dict[tuple[Placement, Placement], bool] | None = kz._cache.get("kt21_visible")
    if memo is None:
        memo = kz._cache["kt21_visible"] = {}
    key = (a, b)
    got = memo.get(key)
    if got is None:
        if len(memo) >= CACHE_ENTRIES:
            memo.clear()
        got = memo[key] = bool(sight.visible(kz, a, b))
    return got


def engagement_range(kz: Killzone, a: Placement, b: Placement) -> bool:
    """Whether ``a`` and ``b`` are within each other's Engagement Range (7.2): one Visible to
    the other and within 1" (mutual), the KT24 control range test
    (:func:`engine.geometry.sight.within_control_range`)."""
    return sight.within_control_range(kz, a, b)


def cover_origins(shooter: Placement) -> list[tuple[float, float, float]]:
    """The origin points of the shooter's cover lines (decision 4): its base's centre, then
    eight points round its edge, ``(x, y, z)`` in inches at its elevation."""
    r = _RIM * shooter.radius
    z = shooter.elevation
    out = [(shooter.x, shooter.y, z)]
    for k in range(_ORIGIN_RIM):
        a = 2 * math.pi * k / _ORIGIN_RIM
        out.append((shooter.x + r * math.cos(a), shooter.y + r * math.sin(a), z))
    return out


def _target_points(target: Placement) -> list[tuple[float, float, float]]:
    r = _RIM * target.radius
    z = target.elevation
    out = [(target.x, target.y, z)]
    for k in range(_TARGET_RIM):
        a = 2 * math.pi * k / _TARGET_RIM
        out.append((target.x + r * math.cos(a), target.y + r * math.sin(a), z))
    return out


@attrs.frozen(slots=True)
class OriginVerdict:
    """The verdicts of one origin point (8.2-8.4, 8.6).

    Attributes:
        origin: the point ``(x, y, z)``, inches.
        obscured: the target is Obscured from it (8.3).
        in_cover: the target is in Cover from it (8.4).
        light_only: in Cover, and only from Light parts or operatives (8.6).
        cover_parts: the part indices giving Cover (ascending).
        cover_operatives: the indices (in the ``others`` given) of operatives giving Cover.
        obscuring_parts: the part indices obscuring (ascending).
    """

    origin: tuple[float, float, float]
    obscured: bool
    in_cover: bool
    light_only: bool
    cover_parts: tuple[int, ...] = ()
    cover_operatives: tuple[int, ...] = ()
    obscuring_parts: tuple[int, ...] = ()


@attrs.frozen(slots=True)
class Kt21Verdict:
    """What the shooter sees of the target (8.1-8.4), origin by origin.

    Attributes:
        visible: the target is Visible to the shooter (8.1).
        distance: between the bases (inches, :func:`engine.geometry.distances.distance`).
        height_drop: how much lower the target stands (shooter elevation less target's).
        shooter_on_vantage: the shooter stands on a Vantage part (8.6).
        origins: one :class:`OriginVerdict` per :func:`cover_origins` point, centre first.
    """

    visible: bool
    distance: float
    height_drop: float
    shooter_on_vantage: bool
    origins: tuple[OriginVerdict, ...]


def _standing_feature(kz: Killzone, p: Placement) -> int:
    part = kz.standing_part(p)
    return -1 if part is None else kz.parts[part].feature


def _clip_below(
    pieces: list[list[float]], z0: float, z1: float, top: float, low: float = -math.inf
) -> list[list[float]]:
    """The parts of ``pieces`` where the line's height ``z0 + t (z1 - z0)`` is above ``low``
    and below ``top`` (less 1e-6")."""
    dz = z1 - z0
    lo, hi = 0.0, 1.0
    for bound, below in ((top - _EPS, True), (low, False)):
        if math.isinf(bound):
            continue
        if abs(dz) < 1e-12:
            if (z0 >= bound) if below else (z0 < bound):
                return []
            continue
        t = (bound - z0) / dz
        if (dz > 0) == below:
            hi = min(hi, t)
        else:
            lo = max(lo, t)
    out = []
    for t0, t1 in pieces:
        a, b = max(t0, lo), min(t1, hi)
        if a <= b + 1e-12:
            out.append([a, b])
    return out


def _disc_interval(
    a: tuple[float, float], b: tuple[float, float], c: tuple[float, float], r: float
) -> tuple[float, float] | None:
    """The parameter interval of the segment ``a -> b`` (2D) within ``r`` of ``c``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    fx, fy = a[0] - c[0], a[1] - c[1]
    qa = dx * dx + dy * dy
    qb = 2 * (fx * dx + fy * dy)
    qc = fx * fx + fy * fy - r * r
    if qa < 1e-18:
        return (0.0, 1.0) if qc <= 0 else None
    disc = qb * qb - 4 * qa * qc
    if disc < 0:
        return None
    s = math.sqrt(disc)
    t0, t1 = (-qb - s) / (2 * qa), (-qb + s) / (2 * qa)
    t0, t1 = max(0.0, t0), min(1.0, t1)
    return (t0, t1) if t0 <= t1 else None


def _point(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))


def _gap(p: tuple[float, float], c: Placement) -> float:
    """Horizontal distance from point ``p`` to the base ``c`` (0 inside it)."""
    return max(0.0, math.hypot(p[0] - c.x, p[1] - c.y) - c.radius)


def _seg_gap(a: tuple[float, float], b: tuple[float, float], c: Placement) -> float:
    """Horizontal distance from the segment ``a -> b`` to the base ``c``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d2 = dx * dx + dy * dy
    t = 0.0 if d2 < 1e-18 else ((c.x - a[0]) * dx + (c.y - a[1]) * dy) / d2
    t = min(1.0, max(0.0, t))
    return _gap(_point(a, b, t), c)


def _minus(pieces: list[list[float]], cut: tuple[float, float] | None) -> list[list[float]]:
    if cut is None:
        return pieces
    out = []
    for t0, t1 in pieces:
        if t1 < cut[0] or t0 > cut[1]:
            out.append([t0, t1])
            continue
        if t0 < cut[0]:
            out.append([t0, cut[0]])
        if t1 > cut[1]:
            out.append([cut[1], t1])
    return out


def _evaluate_reference(
    kz: Killzone, s: Placement, t: Placement, others: tuple[Placement, ...]
) -> Kt21Verdict:
    """The straightforward version of :func:`_evaluate` (line by line, shapely for every
    crossing): the reference the fast one is tested against."""
    seen = sight.visible(kz, s, t)
    gap = distance(s, t)
    s_feature = _standing_feature(kz, s)
    t_feature = _standing_feature(kz, t)
    if not seen:  # 8.5: no Line of Sight whatever the cover lines
        centre = OriginVerdict((s.x, s.y, s.elevation), False, False, False)
        return Kt21Verdict(False, gap, s.elevation - t.elevation, s_feature >= 0, (centre,))
    hull = shapely.convex_hull(shapely.union(s.footprint(), t.footprint()))
    parts = []
    for i in kz.parts_near(hull):
        i = int(i)
        traits = part_traits(kz, i)
        if "Cover" not in traits:
            continue
        part = kz.parts[i]
        if part.feature == t_feature and part.height <= t.elevation + _EPS:
            continue  # 8.6: a target on a Vantage Point does not use its floor
        if part.feature == s_feature and part.height <= s.elevation + _EPS:
            continue  # the shooter's lines start on the surface it stands on
        rampart = part.feature == t_feature and t_feature >= 0
        near_target = part.polygon.distance(Point(t.x, t.y)) <= t.radius + COVER_RANGE + _EPS
        parts.append((i, part, "Obscuring" in traits, "Light" in traits, rampart and near_target))
    near_ops = [
        (k, o)
        for k, o in enumerate(others)
        if o != s and o != t and shapely.intersects(hull, o.footprint())
    ]
    far_enough = gap > NO_COVER_DISTANCE + _EPS
    verdicts = []
    origins = cover_origins(s)
    points = _target_points(t)
    starts = [(o[0], o[1]) for o in origins for _ in points]
    ends = [(p[0], p[1]) for _ in origins for p in points]
    inside_of = [_pieces_many(starts, ends, part.polygon) for _, part, *_ in parts]
    n_points = len(points)
    for k_origin, origin in enumerate(origins):
        a2 = (origin[0], origin[1])
        obscuring: set[int] = set()
        cover: set[int] = set()
        light_only = True
        ops: set[int] = set()
        for k_point, tp in enumerate(points):
            line = k_origin * n_points + k_point
            b2 = (tp[0], tp[1])
            near_cut = _disc_interval(a2, b2, (s.x, s.y), s.radius + NEAR_SHOOTER + _EPS)
            for (i, part, obscures, light, rampart), inside_all in zip(
                parts, inside_of, strict=True
            ):
                inside = inside_all[line]
                if not inside:
                    continue
                # 16.5: a line passing under a rampart still crosses it
                crossing = inside if rampart else _clip_below(inside, origin[2], tp[2], part.height)
                if not crossing:
                    continue
                if obscures and i not in obscuring:
                    for t0, t1 in _minus(crossing, near_cut):
                        far = max(_gap(_point(a2, b2, t0), t), _gap(_point(a2, b2, t1), t))
                        if far > OBSCURING_DISTANCE + _EPS:
                            obscuring.add(i)
                            break
                if far_enough and i not in cover:
                    for t0, t1 in crossing:
                        seg = _seg_gap(_point(a2, b2, t0), _point(a2, b2, t1), t)
                        if seg <= COVER_RANGE + _EPS:
                            cover.add(i)
                            if not light:
                                light_only = False
                            break
            if not far_enough:
                continue
            for k, o in near_ops:
                if k in ops:
                    continue
                hit = _disc_interval(a2, b2, (o.x, o.y), o.radius)
                if hit is None:
                    continue
                crossing = _clip_below(
                    [list(hit)], origin[2], tp[2], o.elevation + o.model_height, o.elevation
                )
                for t0, t1 in crossing:
                    if _seg_gap(_point(a2, b2, t0), _point(a2, b2, t1), t) <= COVER_RANGE + _EPS:
                        ops.add(k)
                        break
        in_cover = bool(cover or ops)
        verdicts.append(
            OriginVerdict(
                origin,
                bool(obscuring),
                in_cover,
                in_cover and light_only,
                tuple(sorted(cover)),
                tuple(sorted(ops)),
                tuple(sorted(obscuring)),
            )
        )
    return Kt21Verdict(
        seen,
        gap,
        s.elevation - t.elevation,
        s_feature >= 0,
        tuple(verdicts),
    )


def _part_info(kz: Killzone) -> list[tuple[frozenset[str], tuple[Any, Any] | None]]:
    """Per part of ``kz``: its KT21 traits and its :func:`convex_edges` (kept on the
    killzone, whose parts and hatchway state never change)."""
    info = kz._cache.get("kt21_parts")
    if info is None:
        info = kz._cache["kt21_parts"] = [
            (part_traits(kz, i), convex_edges(part.polygon)) for i, part in enumerate(kz.parts)
        ]
    assert isinstance(info, list)
    return info


def _evaluate(
    kz: Killzone, s: Placement, t: Placement, others: tuple[Placement, ...]
) -> Kt21Verdict:
    """The verdicts of :func:`evaluate` (the module docstring's model), every cover line
    measured at once (:func:`engine.geometry.kt21_cover_lines.cover_line_hits`); the same
    answers as :func:`_evaluate_reference`."""
    seen = sight.visible(kz, s, t)
    gap = distance(s, t)
    s_feature = _standing_feature(kz, s)
    t_feature = _standing_feature(kz, t)
    if not seen:  # 8.5: no Line of Sight whatever the cover lines
        centre = OriginVerdict((s.x, s.y, s.elevation), False, False, False)
        return Kt21Verdict(False, gap, s.elevation - t.elevation, s_feature >= 0, (centre,))
    hull = shapely.convex_hull(shapely.union(s.footprint(), t.footprint()))
    info = _part_info(kz)
    z0, z1 = s.elevation, t.elevation
    parts: list[LinePart] = []
    indices: list[int] = []
    light: list[bool] = []
    centre_t = Point(t.x, t.y)
    for i in kz.parts_near(hull):
        i = int(i)
        traits, edges = info[i]
        if "Cover" not in traits:
            continue
        part = kz.parts[i]
        if part.feature == t_feature and part.height <= t.elevation + _EPS:
            continue  # 8.6: a target on a Vantage Point does not use its floor
        if part.feature == s_feature and part.height <= s.elevation + _EPS:
            continue  # the shooter's lines start on the surface it stands on
        rampart = part.feature == t_feature and t_feature >= 0
        if rampart and part.polygon.distance(centre_t) <= t.radius + COVER_RANGE + _EPS:
            window: tuple[float, float] | None = (-math.inf, math.inf)  # 16.5: even under it
        else:
            window = z_window(z0, z1, part.height - _EPS)
        parts.append(LinePart(part.polygon, edges, window, "Obscuring" in traits))
        indices.append(i)
        light.append("Light" in traits)
    near_ops = [
        (k, o)
        for k, o in enumerate(others)
        if o != s and o != t and shapely.intersects(hull, o.footprint())
    ]
    origins = cover_origins(s)
    hits = cover_line_hits(
        np.array([o[:2] for o in origins]),
        np.array([p[:2] for p in _target_points(t)]),
        parts,
        (s.x, s.y, s.radius),
        (t.x, t.y, t.radius),
        [
            (o.x, o.y, o.radius, z_window(z0, z1, o.elevation + o.model_height - _EPS, o.elevation))
            for _, o in near_ops
        ],
        far_enough=gap > NO_COVER_DISTANCE + _EPS,
        near_shooter=s.radius + NEAR_SHOOTER + _EPS,
        obscuring_distance=OBSCURING_DISTANCE + _EPS,
        cover_range=COVER_RANGE + _EPS,
    )
    verdicts = []
    cover_of = hits.cover.T.tolist()
    obscuring_of = hits.obscuring.T.tolist()
    ops_of = hits.operatives.T.tolist()
    for k_origin, origin in enumerate(origins):
        cover = [indices[j] for j, hit in enumerate(cover_of[k_origin]) if hit]
        obscuring = [indices[j] for j, hit in enumerate(obscuring_of[k_origin]) if hit]
        ops = [near_ops[j][0] for j, hit in enumerate(ops_of[k_origin]) if hit]
        light_only = all(light[j] for j, hit in enumerate(cover_of[k_origin]) if hit)
        in_cover = bool(cover or ops)
        verdicts.append(
            OriginVerdict(
                origin,
                bool(obscuring),
                in_cover,
                in_cover and light_only,
                tuple(sorted(cover)),
                tuple(sorted(ops)),
                tuple(sorted(obscuring)),
            )
        )
    return Kt21Verdict(seen, gap, s.elevation - t.elevation, s_feature >= 0, tuple(verdicts))


def evaluate(
    kz: Killzone, shooter: Placement, target: Placement, others: Sequence[Placement] = ()
) -> Kt21Verdict:
    """What ``shooter`` sees of ``target`` (8.1-8.4, 8.6; module docstring), with the
    operatives ``others`` (the shooter and target among them are ignored) giving Cover.

    Args:
        kz: the killzone (its hatchway state).
        shooter, target: the two operatives' placements.
        others: the operatives that may give Cover (the caller keeps only those in the
            shooter's Line of Sight, 8.4).

    Returns:
        A :class:`Kt21Verdict`, remembered on the killzone per positions.
    """
    memo = kz._cache.get("kt21_sight")
    if memo is None:
        memo = kz._cache["kt21_sight"] = {}
    key = (shooter, target, tuple(others))
    got = memo.get(key)
    if got is None:
        if len(memo) >= CACHE_ENTRIES:
            memo.clear()
        got = memo[key] = _evaluate(kz, shooter, target, tuple(others))
    assert isinstance(got, Kt21Verdict)
    return got


def may_give_cover(shooter: Placement, target: Placement, other: Placement) -> bool:
    """Whether ``other``'s base can lie across a cover line from ``shooter`` to ``target``
    (it meets the convex hull of their two bases): a cheap filter before asking whether it is
    in the shooter's Line of Sight (8.4)."""
    if other in (shooter, target):
        return False
    # The hull lies within max(radius) of the segment between the two centres: a base
    # farther than that (plus its own radius) cannot meet it (no shapely work needed).
    ax, ay, bx, by = shooter.x, shooter.y, target.x, target.y
    dx, dy = bx - ax, by - ay
    span = dx * dx + dy * dy
    u = 0.0 if span <= 0 else max(0.0, min(1.0, ((other.x - ax) * dx + (other.y - ay) * dy) / span))
    gap = math.hypot(other.x - (ax + u * dx), other.y - (ay + u * dy))
    if gap > max(shooter.radius, target.radius) + other.radius + 1e-6:
        return False
    hull = shapely.convex_hull(shapely.union(shooter.footprint(), target.footprint()))
    return bool(shapely.intersects(hull, other.footprint()))


def best_origin(verdict: Kt21Verdict, conceal: bool) -> OriginVerdict:
    """The origin the shooter uses (decision 4): the first (centre first) from which the
    target is in Line of Sight (8.5: not Obscured; for a Conceal target also not in Cover,
    or in Cover only from Light parts or operatives while :func:`vantage_engage` makes it
    Engage), preferring one where it is not in Cover (no cover save); the centre if none
    gives Line of Sight."""
    ranked = sorted(
        range(len(verdict.origins)),
        key=lambda k: (
            not _in_los(verdict, verdict.origins[k], conceal),
            verdict.origins[k].in_cover,
            k,
        ),
    )
    return verdict.origins[ranked[0]]


def vantage_engage(verdict: Kt21Verdict, o: OriginVerdict) -> bool:
    """8.6: the shooter stands on a Vantage Point and the target, at least 2" lower, is in
    Cover only from Light parts or operatives from origin ``o``: a Conceal target counts
    as Engage for the attack."""
    return (
        verdict.shooter_on_vantage and o.light_only and verdict.height_drop >= VANTAGE_DROP - _EPS
    )


def _in_los(verdict: Kt21Verdict, o: OriginVerdict, conceal: bool) -> bool:
    if not verdict.visible or o.obscured:
        return False
    return not (conceal and o.in_cover and not vantage_engage(verdict, o))
