"""Setting up operatives (``rules/KT24.md`` 1.2, 3.3): the set-up points of a drop zone,
whether a drop zone can take a roster, and the checks of one placement; the pieces of
deployment both editions' deployment frames share (``rules/KT21.md`` 1.2 step 8): the turns
in alternating thirds (:func:`alternating_thirds`), the listed set-up points
(:func:`deploy_options`) and the setting up of one operative (:func:`deploy_operative`).

Set-up points are a 2" grid in the drop zone (:func:`zone_spots`), cached on the killzone
value they describe (never in a process-wide cache keyed by ``id()``: a later layout at a
reused address would get this one's points).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import shapely

from engine.game.actions import Action, IllegalActionError
from engine.game.bookkeeping import own_operative
from engine.game.state import OperativeState, other
from engine.game.work import Work
from engine.geometry import Killzone, Placement
from engine.geometry.movement import move_graph

__all__ = [
    "SETUP_GRID",
    "alternating_thirds",
    "check_deployment",
    "deploy_operative",
    "deploy_options",
    "deployment_spots",
    "drop_zone_problems",
    "thirds",
    "zone_spots",
]


_SPOTS_KEY = "setup.deployment_spots"


def _standable_on(kz: Killzone, base_mm: float, x: float, y: float, z: float) -> bool:
    g = move_graph(kz, base_mm)
    lvl = g.level_at(x, y, z)
    return lvl is not None and bool(shapely.intersects_xy(lvl.strict_tol, x, y))


SETUP_GRID = 2.0
"""Spacing of the set-up points offered in a drop zone (inches)."""


def zone_spots(kz: Killzone, zone: str, base_mm: float) -> list[tuple[float, float, float]]:
    """The set-up points of drop zone ``zone`` of ``kz`` for a base of ``base_mm`` mm, before
    any operative is set up: a :data:`SETUP_GRID` grid on the floor (starting 0.5" plus the
    base's radius in from the zone's bounding box), bases wholly within the drop zone and
    where a base can stand (not on terrain) (1.2). Cached on the killzone value (so a later
    layout never sees this one's points, and the cache dies with the layout).

    Returns:
        ``(x, y, 0.0)`` points in inches, row by row.
    """
    per_kz: dict[tuple[str, float], list[tuple[float, float, float]]] = kz._cache.setdefault(
        _SPOTS_KEY, {}
    )
    key = (zone, float(base_mm))
    spots = per_kz.get(key)
    if spots is None and kz.terrain_root is not None and kz.hatch_root is None:
        spots = _variant_spots(kz, zone, base_mm)
        per_kz[key] = spots
    if spots is None:
        spots = per_kz[key] = _scan_spots(kz, zone, base_mm)
    return spots


def _scan_spots(kz: Killzone, zone: str, base_mm: float) -> list[tuple[float, float, float]]:
    """:func:`zone_spots` computed point by point on ``kz`` (uncached)."""
    poly = kz.drop_zones[zone]
    inside = poly.buffer(1e-6)
    shapely.prepare(inside)
    r = base_mm / 25.4 / 2
    minx, miny, maxx, maxy = poly.bounds
    spots = []
    y = miny + r + 0.5
    while y <= maxy - r:
        x = minx + r + 0.5
        while x <= maxx - r:
            p = Placement(x, y, base_mm)
            if inside.covers(p.footprint()) and _standable_on(kz, base_mm, x, y, 0.0):
                spots.append((p.x, p.y, 0.0))
            x += SETUP_GRID
        y += SETUP_GRID
    return spots


_NEAR_ADDED = 0.05
"""Margin (inches) beyond a base's diameter within which an added terrain part can change
whether a base stands at a point: the floor loses the part's footprint grown by the radius
with bevelled corners, which reach at most about 1.42 radii from the part, plus the
geometry's 0.001" tolerances."""


def _variant_spots(kz: Killzone, zone: str, base_mm: float) -> list[tuple[float, float, float]]:
    """:func:`zone_spots` of a killzone with added terrain (:meth:`Killzone.with_terrain`, in
    the layout's hatchway state), from the layout's own points: added terrain only takes floor
    away (its footprint grown by the base's radius), so a layout point farther than the base's
    diameter (plus :data:`_NEAR_ADDED`) from every added part keeps its answer, and only the
    points near an added part are checked again on ``kz``. Equal to the full grid scan."""
    root = kz.terrain_root
    assert root is not None
    base = zone_spots(root, zone, base_mm)
    first_added = len(root.parts)
    added = [part.polygon for part in kz.parts[first_added:]]
    if not base or not added:
        return list(base)
    reach = base_mm / 25.4 + _NEAR_ADDED
    near_added = shapely.union_all(added).buffer(reach)
    xs = [x for x, _, _ in base]
    ys = [y for _, y, _ in base]
    near = shapely.intersects_xy(near_added, xs, ys).tolist()
    if not any(near):
        return list(base)
    floor = move_graph(kz, base_mm).levels[0].strict_tol
    return [
        spot
        for spot, close in zip(base, near, strict=True)
        if not close or bool(shapely.intersects_xy(floor, spot[0], spot[1]))
    ]


def _grid_block(base_mm: float, other_mm: float) -> int:
    """At most how many set-up points for bases of ``base_mm`` one operative with a base of
    ``other_mm`` set up on its own grid can take (points closer than the two radii): both
    grids have the spacing :data:`SETUP_GRID` and are offset by the difference of the radii
    (:func:`zone_spots`); a 0.002" margin covers the 0.001" position grid."""
    r, q = base_mm / 50.8, other_mm / 50.8
    reach = r + q - 1e-6 + 0.002
    d = q - r
    span = int(reach // SETUP_GRID) + 2
    return sum(
        1
        for i in range(-span, span + 1)
        for j in range(-span, span + 1)
        if math.hypot(SETUP_GRID * i - d, SETUP_GRID * j - d) < reach
    )


def _any_grid_block(base_mm: float, other_mm: float) -> int:
    """An upper bound on the set-up points for bases of ``base_mm`` an operative with a base
    of ``other_mm`` can take when it stands anywhere (an opponent set up on another zone's
    grid): the grid points within the square around its reach."""
    reach = (base_mm + other_mm) / 50.8 + 0.002
    per_side = int(2 * reach // SETUP_GRID) + 1
    return per_side * per_side


def drop_zone_problems(kz: Killzone, rosters: Mapping[str, Sequence[float]]) -> list[str]:
    """Why each player's operatives might not all be set up in each drop zone (1.2): for
    every drop zone and roster (either player may set up in either zone), every operative must
    find a set-up point (:func:`zone_spots`) however the other operatives of its roster were
    set up before it (and the opponent's too when the two drop zones lie close enough for
    bases to overlap). A sufficient condition: the points for its base outnumber the points
    the others can take (exactly :func:`_grid_block` for its own roster, on the same grid;
    at most :func:`_any_grid_block` for an opponent's operative on another grid).

    Args:
        kz: the killzone (hatchways as at the start of the battle).
        rosters: player -> the base sizes (mm) of its operatives.

    Returns:
        One message per drop zone and roster that fails, naming the zone, the base size and
        the counts; empty when set-up can always complete.
    """
    out = []
    zones = sorted(kz.drop_zones)
    widest = max((b for bases in rosters.values() for b in bases), default=0.0) / 25.4
    for zone in zones:
        others = [z for z in zones if z != zone]
        near = any(kz.drop_zones[zone].distance(kz.drop_zones[z]) < widest for z in others)
        for player in sorted(rosters):
            bases = list(rosters[player])
            rivals = [b for p in sorted(rosters) if p != player for b in rosters[p]] if near else []
            for base in sorted(set(bases)):
                have = len(zone_spots(kz, zone, base))
                need = 1 + sum(_grid_block(base, b) for b in bases) - _grid_block(base, base)
                need += sum(_any_grid_block(base, b) for b in rivals)
                if have < need:
                    out.append(
                        f"drop zone {zone} of killzone {kz.name!r} has {have} set-up point"
                        f"{'s' if have != 1 else ''} for {base:g}mm bases; player {player}'s "
                        f"{len(bases)} operatives need {need} to be sure every one can be set "
                        "up (1.2: the zone is covered by terrain, too thin or too small)"
                    )
    return out


def deployment_spots(w: Work, o: OperativeState) -> list[tuple[float, float, float]]:
    """Candidate set-up points for ``o`` in its player's drop zone (:func:`zone_spots`, less
    the points where its base would overlap an operative already set up)."""
    zone = w.pl(o.player).drop_zone
    base = w.ctx.datacards[o.id].base_mm
    spots = zone_spots(w.kz, zone, base)
    r = base / 25.4 / 2
    placed = [
        (q.x, q.y, w.ctx.datacards[q.id].base_mm / 50.8 + r - 1e-6)
        for q in w.alive()
        if abs(q.elevation) <= 1e-6  # set-up points are on the floor
    ]
    if not placed or not spots:
        return list(spots)
    xy = _spot_array(w.kz, zone, base, spots)
    q = np.asarray(placed, dtype=float)
    gap = np.hypot(xy[:, None, 0] - q[None, :, 0], xy[:, None, 1] - q[None, :, 1])
    free = (gap >= q[None, :, 2]).all(axis=1)
    return [spots[k] for k in np.flatnonzero(free).tolist()]


def _spot_array(
    kz: Killzone, zone: str, base_mm: float, spots: list[tuple[float, float, float]]
) -> np.ndarray:
    """``spots`` (the :func:`zone_spots` of ``zone`` and ``base_mm``) as an (n, 2) array of
    their ``(x, y)``, cached beside them."""
    per_kz: dict[tuple[str, float], np.ndarray] = kz._cache.setdefault(_ARRAY_KEY, {})
    key = (zone, float(base_mm))
    xy = per_kz.get(key)
    if xy is None:
        xy = per_kz[key] = np.asarray([(x, y) for x, y, _ in spots], dtype=float).reshape(-1, 2)
    return xy


_ARRAY_KEY = "setup.deployment_spot_array"


def _zone_area(kz: Killzone, zone: str) -> Any:
    """Drop zone ``zone`` of ``kz`` grown by 1e-6" (what a base wholly within it covers),
    cached on the killzone value."""
    per_kz: dict[str, Any] = kz._cache.setdefault(_AREA_KEY, {})
    area = per_kz.get(zone)
    if area is None:
        area = per_kz[zone] = kz.drop_zones[zone].buffer(1e-6)
    return area


_AREA_KEY = "setup.drop_zone_area"


def check_deployment(
    w: Work, o: OperativeState, point: tuple[float, float, float], *, drop_zone: bool = True
) -> None:
    """Raise unless ``o`` can be set up at ``point`` (1.2, 3.3); ``drop_zone=False`` skips
    the drop-zone condition (scenario positions).

    Raises:
        IllegalActionError: not wholly within its drop zone, not a place a base can stand,
            or overlapping another operative.
    """
    x, y, z = point
    p = w.ctx.placement(o.id, x, y, z)
    zone = w.pl(o.player).drop_zone
    if drop_zone and not _zone_area(w.kz, zone).covers(p.footprint()):
        raise IllegalActionError(f"{o.id} must be set up wholly within drop zone {zone} (1.2)")
    if not _standable_on(w.kz, p.base_mm, p.x, p.y, p.elevation):
        raise IllegalActionError(
            f"{o.id} cannot be placed at ({x:g}, {y:g}, {z:g}): not a place its base can stand "
            "(3.3)"
        )
    if not (p.radius - 1e-6 <= p.x <= w.kz.width - p.radius + 1e-6) or not (
        p.radius - 1e-6 <= p.y <= w.kz.depth - p.radius + 1e-6
    ):
        raise IllegalActionError(f"{o.id}'s base must be wholly on the killzone (3.3)")
    for q in w.alive():
        if q.id == o.id or abs(q.elevation - p.elevation) > 1e-6:
            continue
        qp = w.place(q)
        if math.hypot(qp.x - p.x, qp.y - p.y) < qp.radius + p.radius - 1e-6:
            raise IllegalActionError(f"{o.id} would overlap {q.id}: bases never overlap (3.3)")


def thirds(n: int) -> tuple[int, ...]:
    """Deployment groups of one third of a kill team of ``n`` operatives, rounded up, fixed
    once (``rules/KT24.md`` 1.2: 10 -> 4/3/3, 11 -> 4/4/3; ``rules/KT21.md`` 1.2 step 8, the
    three numerically even groups of Critical Operations 2022)."""
    groups: list[int] = []
    left = n
    for k in (3, 2, 1):
        g = math.ceil(left / k) if left else 0
        groups.append(g)
        left -= g
    return tuple(g for g in groups if g)


def alternating_thirds(first: str, n_first: int, n_second: int) -> tuple[tuple[str, int], ...]:
    """The deployment turns ``(player, operatives)`` of two kill teams of ``n_first`` and
    ``n_second`` operatives set up in thirds (:func:`thirds`), alternating, player ``first``
    (``"A"``/``"B"``) first (``rules/KT24.md`` 1.2; ``rules/KT21.md`` 1.2 step 8); a team whose
    thirds run out lets the other set up its remaining groups in turn."""
    second = other(first)
    g1, g2 = thirds(n_first), thirds(n_second)
    turns: list[tuple[str, int]] = []
    for i in range(max(len(g1), len(g2))):
        if i < len(g1):
            turns.append((first, g1[i]))
        if i < len(g2):
            turns.append((second, g2[i]))
    return tuple(turns)


def deploy_options(w: Work, player: str) -> list[Action]:
    """The ``Deploy`` actions of ``player``: each of its operatives still to be set up (not
    placed, not incapacitated) at each of its :func:`deployment_spots` (worked out once per
    base size: the same points), in operative order (``rules/KT24.md`` 1.2; ``rules/KT21.md``
    1.2 step 8)."""
    out: list[Action] = []
    spots: dict[float, list[tuple[float, float, float]]] = {}
    for o in w.ops:
        if o.player != player or o.placed or o.incapacitated:
            continue
        base = w.ctx.datacards[o.id].base_mm
        if base not in spots:
            spots[base] = deployment_spots(w, o)
        out += [Action("Deploy", op=o.id, point=pt) for pt in spots[base]]
    return out


def deploy_operative(w: Work, a: Action, player: str) -> OperativeState:
    """Set up ``player``'s operative ``a.op`` at ``a.point`` (x, y, elevation in inches) with
    a Conceal order and emit ``deployed`` (``rules/KT24.md`` 1.2; ``rules/KT21.md`` 1.2 step 8,
    whose player then gives it its order). Returns the operative as it was before.

    Raises:
        IllegalActionError: not an operative of ``player``, already set up, or a point
            :func:`check_deployment` refuses (``w`` unchanged).
    """
    o = own_operative(w, a.op, player)
    if o.placed:
        raise IllegalActionError(f"{o.id} is already set up")
    assert a.point is not None  # check_action_shape: a Deploy has a point
    check_deployment(w, o, a.point)
    x, y, z = a.point
    w.set_op(o.id, x=x, y=y, elevation=z, placed=True, order="conceal")
    w.emit("deployed", op=o.id, x=x, y=y, z=z)
    return o
