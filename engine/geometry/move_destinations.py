"""Move destinations for listing and for agents: which candidate end points a move action
reaches, and the deterministic candidates themselves.

Rules: ``rules/KT24.md`` 3.2, 3.3 (see :mod:`engine.geometry.movement` for the model).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from engine.geometry.graph_cache import move_graph
from engine.geometry.model import Killzone, Placement, TerrainType, quantise
from engine.geometry.move_graph import MoveGraph
from engine.geometry.move_paths import _search
from engine.geometry.move_query import (
    AvoidZone,
    MoveError,
    _action,
    _columns_where,
    _Query,
    max_move,
    near_zones,
)
from engine.geometry.move_values import (
    _GRID,
    _ROUND_TOL,
    _TOL,
    CONTROL_RANGE,
    KT24_MOVEMENT,
    XY,
    Level,
    MoveAction,
    MovementRules,
    Point3,
    _bevel_buffer,
    _Link,
)
from engine.geometry.sight import CONTROL_RANGE_TOLERANCE, within_control_range

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
    reaches = _straight_reach_fast(g, start_level, s, units, full)
    for (ux, uy), ray in zip(units, reaches, strict=True):
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


class ReachMemo:
    """Answers shared by the move queries of one operative from one position, among the same
    operatives and on the same movement graph: the listing of its Reposition, Dash and Charge
    destinations. It keeps which spots are legal places to finish (for a Charge and for the
    other actions), which straight lines from the start are plain moves that keep out of every
    zone (per kind of zones) and the query of Reposition and Dash (:meth:`_Query.variant`).
    Pass one to :func:`reachable_with_costs` for the queries of one listing; a query from
    another position, operative set or graph starts it afresh, so a stale answer is never
    used."""

    def __init__(self) -> None:
        self._key: tuple[object, ...] | None = None
        self._query: _Query | None = None
        self._finals: dict[tuple[bool, Point3], bool] = {}
        self._plain: dict[tuple[str, XY], float | None] = {}

    def _use(
        self,
        g: MoveGraph,
        mover: Placement,
        enemies: Sequence[Placement],
        friends: Sequence[Placement],
        rules: MovementRules = KT24_MOVEMENT,
    ) -> None:
        key = (g, mover, tuple(enemies), tuple(friends), rules)
        if key != self._key:
            self._key = key
            self._query = None
            self._finals.clear()
            self._plain.clear()

    def query(
        self,
        kz: Killzone,
        g: MoveGraph,
        mover: Placement,
        act: MoveAction,
        enemies: Sequence[Placement],
        friends: Sequence[Placement],
        limit: float,
        leave_control_range: bool = False,
        rules: MovementRules = KT24_MOVEMENT,
    ) -> _Query:
        """The query of ``act`` (a shared variant for Reposition and Dash) under ``rules``.

        Raises:
            MoveError: as :class:`_Query` does."""
        self._use(g, mover, enemies, friends, rules)
        if act in ("reposition", "dash"):
            if self._query is None:
                self._query = _Query(kz, g, mover, act, enemies, friends, limit, rules=rules)
            return self._query.variant(act, limit)
        return _Query(kz, g, mover, act, enemies, friends, limit, leave_control_range, rules=rules)


def _spot_keys(q: _Query, spots: Sequence[Sequence[float]]) -> list[Point3]:
    """The spots quantised to the position grid, deduplicated (first seen kept) and within
    the action's distance of the start as the crow flies."""
    s = q.start
    keys: list[Point3] = []
    tried: set[Point3] = set()
    reach = q.limit + _ROUND_TOL
    for x, y, z in spots:
        key = (quantise(x), quantise(y), quantise(z))
        if key in tried or math.hypot(key[0] - s[0], key[1] - s[1]) > reach:
            continue
        tried.add(key)
        keys.append(key)
    return keys


def _reachable_each(q: _Query, spots: Sequence[Sequence[float]]) -> list[tuple[Placement, float]]:
    """The reference for :func:`_reachable_costs`: each spot checked by
    :meth:`_Query.final_reason` and one :func:`_search` (the same answers, spot by spot;
    kept for the tests)."""
    g = q.g
    seen: dict[Point3, tuple[Placement, float]] = {}
    for key in _spot_keys(q, spots):
        spot_level = g.level_at(key[0], key[1], key[2])
        if spot_level is None or q.final_reason(spot_level, *key) is not None:
            continue
        path = _search(q, spot_level.index, (key[0], key[1]))
        if path is not None:
            seen[key] = (path.final, path.cost)
    return [seen[k] for k in sorted(seen)]


def _reachable_costs(
    q: _Query, spots: Sequence[Sequence[float]], memo: ReachMemo | None = None
) -> list[tuple[Placement, float]]:
    """The final placements of the spots (``(x, y, elevation)``, quantised, deduplicated)
    that are legal places to finish and that a legal path reaches, sorted, each with the cost
    of the cheapest path (inches, as :func:`shortest_path` gives it).

    The same answers as :func:`_reachable_each`, faster: where a spot is on the start's
    level, the straight line to it is a plain move (inside the level's passage region, no
    Accessible part entered) and it keeps out of every zone, that line is the cheapest path
    (its cost is its length rounded up, 3.3), so the spot is reached exactly when that cost
    is within the action's distance; these checks run for all the spots at once. Every other
    spot gets its own :func:`_search`. With ``memo`` (the same operatives and position), the
    finish and straight-line answers of earlier queries are reused."""
    g = q.g
    keys = _spot_keys(q, spots)
    if not keys:
        return []
    levels = [g.level_at(x, y, z) for x, y, z in keys]
    finals = _finals_memo(q, keys, levels, memo)
    la = q.start_level
    same = [
        i
        for i, (key, lvl) in enumerate(zip(keys, levels, strict=True))
        if finals[i] and lvl is not None and lvl.index == la and key[:2] != q.start
    ]
    costs = _straight_costs(q, [(keys[i][0], keys[i][1]) for i in same], memo)
    decided = dict(zip(same, costs, strict=True))
    seen: dict[Point3, tuple[Placement, float]] = {}
    for i, key in enumerate(keys):
        lvl = levels[i]
        if not finals[i] or lvl is None:
            continue
        cost = decided.get(i)
        if cost is None:
            path = _search(q, lvl.index, (key[0], key[1]))
            if path is not None:
                seen[key] = (path.final, path.cost)
        elif cost >= 0:
            seen[key] = (_moved(q.mover, key[0], key[1], lvl.height), cost)
    return [seen[k] for k in sorted(seen)]


def _moved(mover: Placement, x: float, y: float, elevation: float) -> Placement:
    """``mover.moved(x, y, elevation)`` (the same value), made directly."""
    return Placement(x, y, mover.base_mm, elevation, mover.model_height)


def _reachable(q: _Query, spots: Sequence[Sequence[float]]) -> list[Placement]:
    """:func:`_reachable_costs` without the costs."""
    return [final for final, _ in _reachable_costs(q, spots)]


def _finals_memo(
    q: _Query, keys: Sequence[Point3], levels: Sequence[Level | None], memo: ReachMemo | None
) -> list[bool]:
    """:func:`_finals_ok`, computed only for the spots ``memo`` has no answer for (the
    answer depends on the spot and on whether the action is a Charge)."""
    if memo is None:
        return _finals_ok(q, keys, levels)
    charge = q.action == "charge"
    known = memo._finals
    todo = [i for i, k in enumerate(keys) if (charge, k) not in known]
    if todo:
        fresh = _finals_ok(q, [keys[i] for i in todo], [levels[i] for i in todo])
        for i, ok in zip(todo, fresh, strict=True):
            known[(charge, keys[i])] = ok
    return [known[(charge, k)] for k in keys]


def _finals_ok(q: _Query, keys: Sequence[Point3], levels: Sequence[Level | None]) -> list[bool]:
    """For each spot, whether :meth:`_Query.final_reason` has nothing against finishing
    there (the same answer, computed with the cheap tests first: the board's edges, the
    strict region of each level in one vectorised call, bases, and the exact control range
    only for enemies within 1" as :func:`~engine.geometry.sight.distance` measures)."""
    g = q.g
    kz = q.kz
    r = g.radius
    mover = q.mover
    mr = mover.radius
    n = len(keys)
    ok = [lvl is not None for lvl in levels]
    width, depth = kz.width, kz.depth
    for i, (x, y, _) in enumerate(keys):
        if x - r < -_TOL or y - r < -_TOL or x + r > width + _TOL or y + r > depth + _TOL:
            ok[i] = False
    by_level: dict[int, list[int]] = {}
    for i in range(n):
        lvl = levels[i]
        if ok[i] and lvl is not None:
            by_level.setdefault(lvl.index, []).append(i)
    for index, rows in by_level.items():
        xs = np.asarray([keys[i][0] for i in rows], dtype=float)
        ys = np.asarray([keys[i][1] for i in rows], dtype=float)
        inside = shapely.intersects_xy(g.levels[index].strict_tol, xs, ys).tolist()
        for i, hit in zip(rows, inside, strict=True):
            ok[i] = bool(hit)
    rows = [i for i in range(n) if ok[i]]
    if not rows:
        return ok
    xs = np.asarray([keys[i][0] for i in rows], dtype=float)[:, None]
    ys = np.asarray([keys[i][1] for i in rows], dtype=float)[:, None]
    zs = np.asarray([keys[i][2] for i in rows], dtype=float)[:, None]
    # Bases may touch but never overlap: (spot, other) pairs clearly apart need no exact test.
    others = (*q.friends, *q.enemies)
    if others:
        ox = np.asarray([o.x for o in others], dtype=float)
        oy = np.asarray([o.y for o in others], dtype=float)
        oz = np.asarray([o.elevation for o in others], dtype=float)
        orad = np.asarray([o.radius for o in others], dtype=float)
        apart = (np.abs(oz - zs) > 1e-6) | (np.hypot(ox - xs, oy - ys) >= orad + r - _TOL + 1e-9)
        unsure_others = _columns_where(~apart)
    else:
        unsure_others = [[] for _ in rows]
    # Enemies clearly more than 1" away (sight.distance) cannot be within control range.
    enemies = q.enemies
    limit = CONTROL_RANGE + CONTROL_RANGE_TOLERANCE
    if enemies:
        ex = np.asarray([e.x for e in enemies], dtype=float)
        ey = np.asarray([e.y for e in enemies], dtype=float)
        ez = np.asarray([e.elevation for e in enemies], dtype=float)
        erad = np.asarray([e.radius for e in enemies], dtype=float)
        gap = np.maximum(0.0, np.hypot(xs - ex, ys - ey) - mr - erad)
        far = np.hypot(gap, zs - ez) > limit + 1e-9
        unsure_enemies = _columns_where(~far)
    else:
        unsure_enemies = [[] for _ in rows]
    charge = q.action == "charge"
    for row, i in enumerate(rows):
        x, y, z = keys[i]
        overlap = False
        for col in unsure_others[row]:
            other = others[col]
            if abs(other.elevation - z) > 1e-6:
                continue
            if math.hypot(other.x - x, other.y - y) < other.radius + r - _TOL:
                overlap = True
                break
        if overlap:
            ok[i] = False
            continue
        in_range = False
        final: Placement | None = None
        for col in unsure_enemies[row]:
            e = enemies[col]
            # sight.distance(final, e), then the exact control range only when within 1".
            gap_ = max(0.0, math.hypot(x - e.x, y - e.y) - mr - e.radius)
            dz = z - e.elevation
            if (math.hypot(gap_, dz) if dz else gap_) > limit:
                continue
            if final is None:
                final = mover.moved(x, y, z)
            if within_control_range(kz, final, e):
                in_range = True
                break
        ok[i] = in_range if charge else not in_range
    return ok


def _straight_costs(
    q: _Query, goals: Sequence[XY], memo: ReachMemo | None = None
) -> list[float | None]:
    """For spots on the start's level (legal places to finish, not the start itself): the
    cost of the straight line from the start when it reaches the spot, ``-1.0`` when it does
    not, or ``None`` when the line is not a plain move that keeps out of every zone (then only
    a search can tell).

    The same answer as the straight-line step of :func:`_search`; whether the line is plain
    (:func:`_straight_plain`) does not depend on the action's distance, so ``memo`` keeps it
    for the other actions with the same zones."""
    if memo is None:
        plain = _straight_plain(q, goals)
    else:
        kind: str = q.action if q.action in ("charge", "fall_back") else "move"
        kind += ":leave" if q.leave else ""
        known = memo._plain
        todo = [g for g in goals if (kind, g) not in known]
        if todo:
            for goal, cost in zip(todo, _straight_plain(q, todo), strict=True):
                known[(kind, goal)] = cost
        plain = [known[(kind, g)] for g in goals]
    s = q.start
    limit = q.limit
    out: list[float | None] = []
    for goal, cost in zip(goals, plain, strict=True):
        if math.dist(s, goal) > limit + _ROUND_TOL:
            out.append(-1.0)
        elif cost is None:
            out.append(None)
        else:
            out.append(cost if cost <= limit + 1e-9 else -1.0)
    return out


def _straight_plain(q: _Query, goals: Sequence[XY]) -> list[float | None]:
    """For spots on the start's level, the cost of the straight line from the start when it
    is a plain move that keeps out of every zone, else ``None``: a ``move`` link when the
    level's passage region covers it (one vectorised call for all spots) and it enters no
    Accessible part (as :meth:`MoveGraph.classify` says); :meth:`_Query.zones_ok` runs only for
    lines that come within ``1e-9`` of a zone's disc on this level. The cost is the length
    rounded up (3.3)."""
    if not goals:
        return []
    g = q.g
    s = q.start
    la = q.start_level
    lvl = g.levels[la]
    pts = np.asarray(goals, dtype=float)
    lines = shapely.linestrings(
        np.stack([np.broadcast_to(np.asarray(s, dtype=float), pts.shape), pts], axis=1)
    )
    covered: list[bool] = np.asarray(shapely.covers(lvl.passage_tol, lines)).tolist()
    near = near_zones(s, pts, [z for z in q.zones if z.level == la])
    near_list: list[bool] = near.tolist()
    out: list[float | None] = []
    for goal, cov, close in zip(goals, covered, near_list, strict=True):
        if (
            not cov
            or g._crossings(lvl, s, goal) != 0
            or (close and not q.zones_ok(la, s, la, goal))
        ):
            out.append(None)
        else:
            length = math.dist(s, goal)
            rules = q.rules
            if rules.is_kt24:
                out.append(_plain_cost(length))
            elif rules.impassable or rules.rough_factor != 1.0:
                # KT18 terrain categories (kt18_terrain.ground_along): as the search counts it.
                cost = g.ruled_cost(rules, la, s, la, goal, _Link("move", length))
                out.append(None if isinstance(cost, str) else cost)
            else:
                out.append(rules.horizontal(length))
    return out


def _plain_cost(length: float) -> float:
    """The cost (inches, 3.3) of a straight ``move`` increment of ``length`` inches that
    climbs, drops and crosses nothing: ``_Link("move", length).cost(FREE_DROP)[0]``, its
    length rounded up to a whole inch (an increment 0.001" over stays at the inch below),
    computed without making the link (the same float)."""
    return float(math.ceil(length - _ROUND_TOL)) if length > _ROUND_TOL else 0.0


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
    found = reachable_with_costs(
        kz,
        mover,
        spots,
        action=action,
        enemies=enemies,
        friends=friends,
        move=move,
        max_cost=max_cost,
        graph=graph,
    )
    return [final for final, _ in found]


def reachable_with_costs(
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
    memo: ReachMemo | None = None,
    leave_control_range: bool = False,
    terrain_extras: bool = True,
    rules: MovementRules = KT24_MOVEMENT,
    avoid: Sequence[AvoidZone] = (),
) -> list[tuple[Placement, float]]:
    """:func:`reachable` with the cost of each move: the cost (inches, 3.3) of the path
    :func:`shortest_path` would take to that placement.

    Args:
        kz, mover, action, enemies, friends, move, max_cost, graph, leave_control_range,
        terrain_extras, rules, avoid: as for :func:`shortest_path` (without the extras, or
            with regions to avoid, ``memo`` is not used and the answer is not kept).
        spots: ``(x, y, elevation)`` points in inches.
        memo: answers shared with the other queries of one listing (:class:`ReachMemo`).

    Returns:
        ``(final placement, cost)`` pairs in the order of :func:`reachable`.

    Raises:
        MoveError: for an unknown action.
    """
    act = _action(action)
    limit = max_move(act, move) if max_cost is None else float(max_cost)
    g = graph if graph is not None else move_graph(kz, mover.base_mm)
    args = (kz, g, mover, spots, act, enemies, friends, limit, memo, leave_control_range)
    if avoid or g.kz is not kz:  # a rule's regions to avoid: computed afresh, never kept
        return _reachable_with_costs(*args, terrain_extras, rules, avoid)
    # The answer is a function of these values: kept on the graph for the same question.
    key: tuple[object, ...] = (mover, tuple(tuple(p) for p in spots), act, limit)
    key += (tuple(enemies), tuple(friends), leave_control_range, terrain_extras, rules)
    answers = g.memo("reachable", _REACHABLE_KEPT)
    known = answers.get(key)
    if known is None:
        known = answers[key] = tuple(_reachable_with_costs(*args, terrain_extras, rules))
    return list(known)


_REACHABLE_KEPT = 10_000  # reachable_with_costs answers a graph keeps (MoveGraph.memo)


def _reachable_with_costs(
    kz: Killzone,
    g: MoveGraph,
    mover: Placement,
    spots: Sequence[Sequence[float]],
    act: MoveAction,
    enemies: Sequence[Placement],
    friends: Sequence[Placement],
    limit: float,
    memo: ReachMemo | None,
    leave_control_range: bool,
    terrain_extras: bool,
    rules: MovementRules = KT24_MOVEMENT,
    avoid: Sequence[AvoidZone] = (),
) -> list[tuple[Placement, float]]:
    """:func:`reachable_with_costs` computed (its arguments resolved)."""
    if not terrain_extras or avoid:
        memo = None
    try:
        if memo is None:
            q = _Query(
                kz,
                g,
                mover,
                act,
                enemies,
                friends,
                limit,
                leave_control_range,
                avoid,
                terrain_extras,
                rules,
            )
        else:
            q = memo.query(kz, g, mover, act, enemies, friends, limit, leave_control_range, rules)
    except MoveError:
        return []
    return _reachable_costs(q, spots, memo)


def _straight_reach(
    level: Level, start: XY, directions: Sequence[XY], length: float
) -> list[float]:
    """For each unit direction, how far (inches, at most ``length``, pulled back 0.01") a
    straight line from ``start`` stays where a base can stand on ``level``: the length of
    the piece of the ray inside the level's strict region that starts at ``start``, less
    0.01" (the reference for :func:`_straight_reach_fast`)."""
    if length <= 0:
        return [0.0] * len(directions)
    rays = [
        LineString([start, (start[0] + ux * length, start[1] + uy * length)])
        for ux, uy in directions
    ]
    return _reach_of(rays, level.strict_tol, start)


def _reach_of(rays: Sequence[LineString], region: BaseGeometry, start: XY) -> list[float]:
    """For each ray from ``start``, the length of its piece inside ``region`` that touches
    ``start`` (the longest such), less 0.01", at least 0."""
    origin = Point(start)
    out: list[float] = []
    for part in shapely.intersection(rays, region):
        reach = 0.0
        for piece in shapely.get_parts(part):
            if not piece.is_empty and piece.distance(origin) <= 1e-6:
                reach = max(reach, float(piece.length) - 0.01)
        out.append(max(0.0, reach))
    return out


_RAY_CLEAR = 1e-6  # inches: closer calls (a vertex, an edge along the ray) go to the overlay


def _straight_reach_fast(
    g: MoveGraph, level: Level, start: XY, directions: Sequence[XY], length: float
) -> list[float]:
    """:func:`_straight_reach` with the same answers, faster: the region's edges
    (:meth:`MoveGraph.edge_table`, once per level) are tested against every ray at once
    (numpy) to find where each ray first leaves the region; the exit point itself is computed
    by GEOS from that ray and that edge, as the overlay of the reference computes it, and the
    piece's length as GEOS measures a segment (``sqrt(dx * dx + dy * dy)``, the same float). A
    ray whose answer the quick test cannot settle beyond doubt (the start within 1e-6" of an
    edge, the ray within 1e-6" of a vertex or along an edge, two exits closer than that) gets
    the reference's overlay."""
    if length <= 0:
        return [0.0] * len(directions)
    x0, y0 = start
    n_rays = len(directions)
    ends = np.asarray([(x0 + ux * length, y0 + uy * length) for ux, uy in directions])
    origin = np.asarray(start, dtype=float)

    def rays_of(ks: Sequence[int]) -> list[LineString]:
        pts = ends[np.asarray(ks, dtype=np.intp)]
        made: list[LineString] = np.asarray(
            shapely.linestrings(np.stack([np.broadcast_to(origin, pts.shape), pts], 1))
        ).tolist()
        return made

    table = g.edge_table(level)
    a, e, e_len, lo, hi = table.a, table.e, table.length, table.lo, table.hi
    if a.shape[0] == 0:
        return _reach_of(rays_of(range(n_rays)), level.strict_tol, start)
    # Only edges whose bounding box meets the square around the rays can cross them (or
    # come within 1e-6" of the start).
    reach = length + _RAY_CLEAR
    near = (lo[:, 0] <= x0 + reach) & (hi[:, 0] >= x0 - reach)
    near &= (lo[:, 1] <= y0 + reach) & (hi[:, 1] >= y0 - reach)
    idx = np.flatnonzero(near)
    ea, ee, el = a[idx], e[idx], e_len[idx]
    # The start must lie inside, clear of every edge (a zero-length edge makes the distance
    # NaN: then, as in the reference's test over all edges, the start counts as clear).
    wx, wy = x0 - ea[:, 0], y0 - ea[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.clip((wx * ee[:, 0] + wy * ee[:, 1]) / (el * el), 0.0, 1.0)
    gap = np.hypot(wx - s * ee[:, 0], wy - s * ee[:, 1])
    close_start = bool(gap.size) and not table.degenerate and bool(gap.min() <= _RAY_CLEAR)
    if close_start or not shapely.contains_xy(level.strict_tol, x0, y0):
        return _reach_of(rays_of(range(n_rays)), level.strict_tol, start)
    eb = table.b[idx]
    d = ends - origin  # (R, 2)
    dx, dy = d[:, :1], d[:, 1:]  # (R, 1)
    d_len = np.hypot(dx, dy)
    ax, ay = ea[:, 0] - x0, ea[:, 1] - y0  # edge starts relative to the start (E,)
    denom = dx * ee[:, 1] - dy * ee[:, 0]  # (R, E)
    parallel = np.abs(denom) <= 1e-9 * d_len * el
    with np.errstate(divide="ignore", invalid="ignore"):
        # Distances along each ray (t * |d|) and along each edge (u * |e|), in inches.
        along = (ax * ee[:, 1] - ay * ee[:, 0]) * d_len / denom
        on_edge = (ax * dy - ay * dx) * el / denom
        hit = (along >= -_RAY_CLEAR) & (along <= d_len + _RAY_CLEAR) & ~parallel
        hit &= (on_edge >= -_RAY_CLEAR) & (on_edge <= el + _RAY_CLEAR)
        # Doubt: a hit near a vertex of the edge or near the ray's far end.
        doubt = (
            hit
            & (
                (on_edge <= _RAY_CLEAR)
                | (on_edge >= el - _RAY_CLEAR)
                | (along >= d_len - _RAY_CLEAR)
            )
        ).any(axis=1)
        # The first exit of each ray (the first edge in order among equal distances), and
        # doubt when the next exit is too close to tell apart.
        firsts = np.where(hit, along, math.inf)
        if firsts.shape[1] > 1:
            two = np.partition(firsts, 1, axis=1)[:, :2]
            doubt |= two[:, 1] - two[:, 0] <= _RAY_CLEAR
        first_col = np.argmin(firsts, axis=1) if firsts.shape[1] else np.zeros(n_rays, np.intp)
        t1 = firsts.min(axis=1) if firsts.shape[1] else np.full(n_rays, math.inf)
    # Doubt: an edge parallel to a ray and within 1e-6" of its line.
    pr, pc = np.nonzero(parallel)
    if pr.size:
        ux, uy = dx[pr, 0] / d_len[pr, 0], dy[pr, 0] / d_len[pr, 0]
        bx, by = eb[pc, 0] - x0, eb[pc, 1] - y0
        close = (np.abs(ax[pc] * uy - ay[pc] * ux) <= _RAY_CLEAR) | (
            np.abs(bx * uy - by * ux) <= _RAY_CLEAR
        )
        doubt[pr[close]] = True
    out: list[float] = [0.0] * n_rays
    exits: list[int] = []
    redo: list[int] = []
    whole: list[float] = np.sqrt(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]).tolist()
    for k, (unsure, t_exit) in enumerate(zip(doubt.tolist(), t1.tolist(), strict=True)):
        if unsure:
            redo.append(k)
        elif math.isinf(t_exit):
            # Never leaves the region: the whole ray is the piece.
            out[k] = max(0.0, whole[k] - 0.01)
        else:
            exits.append(k)
    if exits:
        rows = np.asarray(exits, dtype=np.intp)
        edges = table.lines[idx[first_col[rows]]]
        points = shapely.intersection(rays_of(exits), edges)
        single = (shapely.get_type_id(points) == 0).tolist()  # one point, else the overlay
        xy = shapely.get_coordinates(points[np.asarray(single, dtype=bool)]) - origin
        lengths = iter(np.sqrt(xy[:, 0] * xy[:, 0] + xy[:, 1] * xy[:, 1]).tolist())
        for k, one in zip(exits, single, strict=True):
            if one:
                out[k] = max(0.0, next(lengths) - 0.01)
            else:
                redo.append(k)
    if redo:
        redo.sort()
        redone = _reach_of(rays_of(redo), level.strict_tol, start)
        for k, reach_k in zip(redo, redone, strict=True):
            out[k] = reach_k
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
    return _straight_reach_fast(g, lvl, (mover.x, mover.y), directions, length)
