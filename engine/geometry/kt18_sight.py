"""KT18 sight geometry: visibility, obscured, the Injury roll's cover and intervening terrain
(``rules/KT18.md`` 5.3, 6.3, 6.9, 7.6).

Pure geometry on the shared killzone (inches; 2.5D parts extruded from the floor to their
height, as :mod:`engine.geometry.sight` models them). The game-side questions (which models,
which are friends) are :mod:`engine.rules.kt18.sight`'s.

Modelling (the engine's readings of the tabletop, stated once; ``docs/rulings/kt18_sight.md``):

- **Main body** (6.3): a model's main body is the vertical cylinder over its base, of 0.8 x
  the base radius, from the top of its base (its elevation) to its model height
  (:attr:`~engine.geometry.model.Placement.model_height`); it is sampled at the shared
  kernel's 19 points (:func:`engine.geometry.sight_kernel.target_points`: three on the axis,
  eight round it at two heights). The base, weapons and other protrusions are not part of it.
- **Terrain** blocks a sight line as it does for KT24 (:mod:`engine.geometry.sight`, the
  shared kernel): where the line passes over a part's footprint below its top; Blocking and
  Wall parts block any line over their footprint; Insignificant parts never block (too small
  to hide a model's body).
- **Visible** (5.3): some part of the target can be seen from some part of the viewer: some
  line from one of the viewer's 19 points to one of the target's 19 points that no terrain
  blocks. Models never block visibility (5.3 names terrain only; they obscure, 6.3). A model
  is visible to itself.
- **Obscured** (6.3, reading (a)): the firer picks its best point of view, one of its own 19
  points; the target is *not* obscured when, from some such point, every one of the target's
  19 points is seen: no terrain blocks the line and no other model's body (the cylinder of
  its whole base radius, from its elevation to its model height) is crossed by it. Otherwise
  (some part hidden from every point of view) it is obscured. A target that is not visible is
  obscured.
- **Injury cover** (6.9, the -1): the target is obscured from the shooter *and* within 1"
  (horizontally, base edge to footprint) of a terrain part or another model lying between the
  two. *Lying between*: its footprint (a model's base) meets the corridor between the two
  bases (the line between their centres grown by the larger base radius: the convex hull of
  the two bases when they are the same size); a terrain part counts only if its top is higher
  than the lower of the two bases (a floor the two stand on, or a platform under both, is not
  between them) and it is not Insignificant.
- **Intervening terrain** (7.6, reading (b)): the straight line between the centres of the two
  bases passes over the footprint of a terrain part (not Insignificant) whose top is higher than
  the lower of the two bases: a wall, barricade or the side of a platform separates them, so no
  base-to-base position joins them. Two models on the same level with only open ground (or the
  level's own floor) between them never have it.

Speed: each answer is kept on the killzone (its private cache, per positions: the two models
and, for obscured, every other model's placement), at most :data:`CACHE_ENTRIES` answers; the
line tests are the shared kernel's (:func:`engine.geometry.sight_kernel._clear`) on the parts
near the two models.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import shapely
from shapely.geometry import LineString, Point

from engine.geometry import sight_kernel
from engine.geometry.model import Killzone, Placement, TerrainType
from engine.geometry.sight_lines import _parts as _sight_parts

__all__ = [
    "CACHE_ENTRIES",
    "COVER_DISTANCE",
    "body_points",
    "injury_cover",
    "intervening_terrain",
    "obscured",
    "visible",
]

COVER_DISTANCE = 1.0
"""The Injury roll's cover: within 1" of a model or terrain piece between the two (6.9)."""
CACHE_ENTRIES = 50_000
"""At most this many answers are kept per killzone (the cache is emptied when full)."""

_CACHE_KEY = "kt18.sight"
_EPS = 1e-6  # a line must enter a model's body by more than this to be hidden by it
_LEVEL_TOL = 0.01  # a part higher than a base by at most this is at the base's level (inches)

Point3 = tuple[float, float, float]


def _cache(kz: Killzone) -> dict[Any, bool]:
    cache: dict[Any, bool] | None = kz._cache.get(_CACHE_KEY)
    if cache is None or len(cache) >= CACHE_ENTRIES:
        cache = kz._cache[_CACHE_KEY] = {}
    return cache


def _table(kz: Killzone) -> sight_kernel.SightTable:
    return sight_kernel.sight_table(kz, _sight_parts(kz))


def body_points(p: Placement) -> list[Point3]:
    """The 19 sample points of a model's main body (module docstring), inches: the top of the
    axis first (the usual best point of view)."""
    return sight_kernel.target_points(p)


def _candidates(table: sight_kernel.SightTable, a: Placement, b: Placement) -> list[Any]:
    """The sight-blocking parts near the corridor between the two models' bodies."""
    reach = max(a.radius, b.radius) + _EPS
    return sight_kernel._corridor(table.sight, a.x, a.y, b.x, b.y, reach)


def _terrain_clear(table: sight_kernel.SightTable, cands: list[Any], p: Point3, q: Point3) -> bool:
    if not cands:
        return True
    return sight_kernel._clear(table, cands, p[0], p[1], p[2], q[0], q[1], q[2])


def _crosses_body(p: Point3, q: Point3, m: Placement) -> bool:
    """Whether the segment ``p -> q`` enters the cylinder of ``m``'s base radius, from its
    elevation to the top of its model (by more than 1e-6")."""
    r = m.radius - _EPS
    dx, dy = q[0] - p[0], q[1] - p[1]
    fx, fy = p[0] - m.x, p[1] - m.y
    a = dx * dx + dy * dy
    c = fx * fx + fy * fy - r * r
    if a <= 1e-18:
        if c > 0:
            return False
        t0, t1 = 0.0, 1.0
    else:
        b = 2 * (fx * dx + fy * dy)
        disc = b * b - 4 * a * c
        if disc <= 0:
            return False
        root = math.sqrt(disc)
        t0 = max(0.0, (-b - root) / (2 * a))
        t1 = min(1.0, (-b + root) / (2 * a))
        if t0 >= t1:
            return False
    z0 = p[2] + t0 * (q[2] - p[2])
    z1 = p[2] + t1 * (q[2] - p[2])
    lo, hi = min(z0, z1), max(z0, z1)
    return hi > m.elevation + _EPS and lo < m.elevation + m.model_height - _EPS


def visible(kz: Killzone, viewer: Placement, target: Placement) -> bool:
    """Whether some part of ``target``'s body can be seen from some part of ``viewer``'s
    (``rules/KT18.md`` 5.3; module docstring): terrain blocks, models never do.

    Args:
        kz: the killzone.
        viewer, target: the two models' placements (inches).
    """
    if viewer == target:
        return True
    key = ("visible", viewer, target)
    cache = _cache(kz)
    known = cache.get(key)
    if known is None:
        known = cache[key] = _visible(kz, viewer, target)
    return known


def _visible(kz: Killzone, viewer: Placement, target: Placement) -> bool:
    table = _table(kz)
    # The viewer's head first: KT24's test (the same lines, with its quick proofs).
    if sight_kernel.visible(table, viewer, target):
        return True
    cands = _candidates(table, viewer, target)
    if not cands:
        return True
    pts = body_points(target)
    for v in body_points(viewer)[1:]:
        # The part that blocked the last line (moved first by _clear) often hides the whole
        # target from this point too: the kernel's sufficient proof saves its 19 lines.
        if sight_kernel._shadows(table, cands[0], v[0], v[1], v[2], target):
            continue
        if any(_terrain_clear(table, cands, v, q) for q in pts):
            return True
    return False


def obscured(
    kz: Killzone, shooter: Placement, target: Placement, others: Sequence[Placement] = ()
) -> bool:
    """Whether ``target`` is obscured from ``shooter`` (``rules/KT18.md`` 6.3, reading (a);
    module docstring): from every point of view of the shooter's body, some part of the
    target's body is hidden by terrain or by one of ``others``.

    Args:
        kz: the killzone.
        shooter, target: the firing model and its target (inches).
        others: every other model on the battlefield, friend or foe (the shooter and the
            target themselves are ignored if given).
    """
    blockers = tuple(sorted({o for o in others if o != shooter and o != target}, key=repr))
    key = ("obscured", shooter, target, blockers)
    cache = _cache(kz)
    known = cache.get(key)
    if known is None:
        known = cache[key] = _obscured(kz, shooter, target, blockers)
    return known


def _near_blockers(
    blockers: Sequence[Placement], shooter: Placement, target: Placement
) -> list[Placement]:
    """The models whose base can meet a line between the two bodies (a quick filter)."""
    ax, ay, bx, by = shooter.x, shooter.y, target.x, target.y
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    reach = max(shooter.radius, target.radius)
    out = []
    for m in blockers:
        t = (
            0.0
            if length2 == 0
            else max(0.0, min(1.0, ((m.x - ax) * dx + (m.y - ay) * dy) / length2))
        )
        if math.hypot(ax + t * dx - m.x, ay + t * dy - m.y) <= m.radius + reach + _EPS:
            out.append(m)
    return out


def _obscured(
    kz: Killzone, shooter: Placement, target: Placement, blockers: Sequence[Placement]
) -> bool:
    if shooter == target:
        return False
    table = _table(kz)
    cands = _candidates(table, shooter, target)
    near = _near_blockers(blockers, shooter, target)
    pts = body_points(target)
    for v in body_points(shooter):
        if all(
            _terrain_clear(table, cands, v, q) and not any(_crosses_body(v, q, m) for m in near)
            for q in pts
        ):
            return False
    return True


def injury_cover(
    kz: Killzone, shooter: Placement, target: Placement, others: Sequence[Placement] = ()
) -> bool:
    """Whether the Injury roll of ``target`` gets the -1 for cover (``rules/KT18.md`` 6.9;
    module docstring): it is obscured from ``shooter`` and within 1" of a terrain part or
    another model lying between the two.

    Args:
        kz: the killzone.
        shooter, target: the shooter (or psyker) and the injured model (inches).
        others: every other model on the battlefield.
    """
    blockers = tuple(sorted({o for o in others if o != shooter and o != target}, key=repr))
    key = ("cover", shooter, target, blockers)
    cache = _cache(kz)
    known = cache.get(key)
    if known is None:
        known = cache[key] = obscured(kz, shooter, target, blockers) and _near_between(
            kz, shooter, target, blockers
        )
    return known


def _segment_distance(px: float, py: float, a: Placement, b: Placement) -> float:
    """The distance from ``(px, py)`` to the segment between the two centres (inches)."""
    dx, dy = b.x - a.x, b.y - a.y
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - a.x) * dx + (py - a.y) * dy) / length2))
    return math.hypot(a.x + t * dx - px, a.y + t * dy - py)


def _near_between(
    kz: Killzone, shooter: Placement, target: Placement, blockers: Sequence[Placement]
) -> bool:
    """Whether a model of ``blockers`` or a terrain part lies between the two and within 1"
    of the target (module docstring)."""
    reach = COVER_DISTANCE + 1e-6
    grow = max(shooter.radius, target.radius)
    for m in blockers:
        if (
            _segment_distance(m.x, m.y, shooter, target) <= m.radius + grow + 1e-9
            and math.hypot(m.x - target.x, m.y - target.y) - m.radius - target.radius <= reach
        ):
            return True
    corridor = LineString([(shooter.x, shooter.y), (target.x, target.y)]).buffer(grow)
    low = min(shooter.elevation, target.elevation)
    insignificant = kz.flags[TerrainType.INSIGNIFICANT]
    centre = Point(target.x, target.y)
    for i in kz.tree.query(corridor, predicate="intersects"):
        i = int(i)
        if insignificant[i] or kz.heights[i] <= low + _LEVEL_TOL:
            continue
        if kz.parts[i].polygon.distance(centre) - target.radius <= reach:
            return True
    return False


def intervening_terrain(kz: Killzone, attacker: Placement, target: Placement) -> bool:
    """Whether terrain intervenes between two models in close combat (``rules/KT18.md`` 7.6,
    reading (b); module docstring): the line between their base centres passes over a part
    (not Insignificant) whose top is higher than the lower of the two bases.

    Args:
        kz: the killzone.
        attacker, target: the two models (inches).
    """
    key = ("intervening", attacker, target)
    cache = _cache(kz)
    known = cache.get(key)
    if known is None:
        known = cache[key] = _intervening(kz, attacker, target)
    return known


def _intervening(kz: Killzone, attacker: Placement, target: Placement) -> bool:
    if (attacker.x, attacker.y) == (target.x, target.y):
        return False
    line = LineString([(attacker.x, attacker.y), (target.x, target.y)])
    low = min(attacker.elevation, target.elevation)
    insignificant = kz.flags[TerrainType.INSIGNIFICANT]
    for i in kz.tree.query(line, predicate="intersects"):
        i = int(i)
        if insignificant[i] or kz.heights[i] <= low + _LEVEL_TOL:
            continue
        if shapely.relate_pattern(line, kz.parts[i].polygon, "T********"):
            return True
    return False
