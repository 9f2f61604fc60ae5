"""Move paths: the cheapest legal path of a move action, explicit paths and their cost.

Rules: ``rules/KT24.md`` 3.2, 3.3, 4.1-4.2, 4.6, 9.3; the model and its approximations are
described in :mod:`engine.geometry.movement`; what a move asks and the results
(:class:`~engine.geometry.move_query.MovePath`) are :mod:`engine.geometry.move_query`, named
here again with the queries of this module.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import shapely
from shapely.geometry import Point

from engine.geometry.graph_cache import move_graph
from engine.geometry.model import Killzone, Placement, quantise
from engine.geometry.move_costs import _increments as _increments  # (tests use it from here)
from engine.geometry.move_costs import _make_path, _terrain_extra
from engine.geometry.move_graph import MoveGraph
from engine.geometry.move_query import (
    AvoidZone,
    Increment,
    MoveError,
    MovePath,
    _action,
    _Query,
    _seg_point_distance,
    _Zone,
    max_move,
    near_zone_matrix,
)
from engine.geometry.move_ramparts import (
    rampart_link,
    rampart_out,
    ramparts_by_level,
    ramparts_near,
)
from engine.geometry.move_stairs import stairs_by_level, stairs_near
from engine.geometry.move_values import (
    _ROUND_TOL,
    _SAMPLE_STEP,
    _TIE,
    _TOL,
    CLIMB_RANGE,
    CONTROL_RANGE,
    JUMP_MAX,
    KT24_MOVEMENT,
    XY,
    FloatArray,
    Level,
    MoveAction,
    MovementRules,
    Point3,
    _lerp,
    _Link,
)
from engine.geometry.sight import within_control_range

__all__ = [
    "AvoidZone",
    "Increment",
    "MoveError",
    "MovePath",
    "check_path",
    "max_move",
    "move_cost",
    "shortest_path",
]


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
    leave_control_range: bool = False,
    avoid: Sequence[AvoidZone] = (),
    terrain_extras: bool = True,
    rules: MovementRules = KT24_MOVEMENT,
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
        leave_control_range: a Charge that a rule lets start within the control range of
            enemy operatives and leave it: their control range is passable until the path
            leaves it; after that it may be entered again only to finish there (the search
            checks the cheapest path it finds and returns ``None`` when that path enters it
            again and leaves it: a dearer path that would not is not looked for), the Charge
            still finishing within an enemy's control range.
        avoid: extra regions the path keeps out of (:data:`AvoidZone`; a rule's, for this
            one query): no path is found whose start or destination is inside one.
        terrain_extras: ``False`` when a rule drops the Accessible and Obstructing extra
            inches (4.6) for this move: the search and the path's cost leave them out (the
            increments still count what they cross).
        rules: how the increments count (:class:`MovementRules`; KT24's by default, KT21's
            ``rules/KT21.md`` 7.3, 7.4 with :data:`KT21_MOVEMENT`).

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

    def search() -> MovePath | None:
        return _shortest(
            kz,
            g,
            mover,
            destination,
            act,
            enemies,
            friends,
            limit,
            leave_control_range,
            avoid,
            terrain_extras,
            rules,
        )

    if avoid or g.kz is not kz:
        return search()
    # The answer is a function of these values: kept on the graph for the same question.
    where = destination if isinstance(destination, Placement) else tuple(destination)
    key = (
        mover,
        where,
        act,
        limit,
        tuple(enemies),
        tuple(friends),
        leave_control_range,
        terrain_extras,
        rules,
    )
    memo = g.memo("paths", _PATHS_KEPT)
    known = memo.get(key)
    if known is None:
        try:
            known = (True, search())
        except MoveError as exc:
            known = (False, str(exc))
        memo[key] = known
    ok, answer = known
    if not ok:
        raise MoveError(answer)
    return cast("MovePath | None", answer)


_PATHS_KEPT = 20_000  # shortest_path answers a graph keeps (MoveGraph.memo)


def _shortest(
    kz: Killzone,
    g: MoveGraph,
    mover: Placement,
    destination: Placement | Sequence[float],
    act: MoveAction,
    enemies: Sequence[Placement],
    friends: Sequence[Placement],
    limit: float,
    leave_control_range: bool,
    avoid: Sequence[AvoidZone],
    terrain_extras: bool,
    rules: MovementRules = KT24_MOVEMENT,
) -> MovePath | None:
    """:func:`shortest_path` computed (its arguments resolved).

    Raises:
        MoveError: as :func:`shortest_path`."""
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
    lvl_d, dx, dy, dz = _destination(g, destination)
    reason = q.final_reason(lvl_d, dx, dy, dz)
    if reason is not None:
        raise MoveError(reason)
    assert lvl_d is not None
    return _search(q, lvl_d.index, (dx, dy))


_SIGHT_KEPT = 4_000  # points whose passage answers a graph keeps (MoveGraph.memo)
_MOVES_KEPT = 200_000  # move links a graph keeps


def _sight_of(
    g: MoveGraph, lvl: Level, p: XY, ids: list[int], arr: FloatArray, n: int
) -> list[bool]:
    """For each node of ``ids`` (static nodes below ``n``, the others at ``arr``'s rows),
    whether the straight line from ``p`` to it lies in ``lvl``'s passage region (one
    vectorised ``covers``); the answers for static nodes are kept on the graph per
    ``(level, p)`` and only the missing ones are computed."""
    memo = g.memo("sight", _SIGHT_KEPT)
    known: dict[int, bool] | None = memo.get((lvl.index, p))
    if known is None:
        known = memo[(lvl.index, p)] = {}
    todo = [k for k, v in enumerate(ids) if v >= n or v not in known]
    if not todo:
        return [known[v] for v in ids]
    pts = arr[todo] if len(todo) < len(ids) else arr
    lines = shapely.linestrings(
        np.stack([np.broadcast_to(np.asarray(p, dtype=float), pts.shape), pts], axis=1)
    )
    fresh: list[bool] = np.asarray(shapely.covers(lvl.passage_tol, lines)).tolist()
    dyn: dict[int, bool] = {}
    for k, ok in zip(todo, fresh, strict=True):
        v = ids[k]
        if v < n:
            known[v] = ok
        else:
            dyn[v] = ok
    return [known[v] if v < n else dyn[v] for v in ids]


def _move_link(g: MoveGraph, moves: dict[Any, _Link], lvl: Level, a: XY, b: XY) -> _Link:
    """The ``move`` link ``a`` -> ``b`` on ``lvl`` (a line in its passage region), with the
    Accessible parts it enters; kept in ``moves`` (a memo of the graph)."""
    key = (lvl.index, a, b)
    link = moves.get(key)
    if link is None:
        link = moves[key] = _Link("move", math.dist(a, b), crossings=g._crossings(lvl, a, b))
    return link


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

    in_zone = q.zone_contains
    zones_ok = q.zones_ok
    static_ok = q.static_ok
    link_ok = q.link_ok
    rules = q.rules
    ruled = not rules.is_kt24

    def weigh(lu: int, pu: XY, lv: int, pv: XY, link: _Link) -> float | None:
        # The A* weight of a link: KT24's precomputed one, or its cost under the query's
        # rules (None: they refuse it), + 1e-4 x length for ties.
        if not ruled:
            return link.weight
        cost = g.ruled_cost(rules, lu, pu, lv, pv, link)
        if isinstance(cost, str):
            return None
        return cost + _TIE * link.horizontal

    # Ramparts crossed (KT21 7.4, DC 16.10: move_ramparts): their links are kept apart from
    # the shared classification (a KT24 query on the same graph never sees them).
    ramps = rules.ramparts and bool(ramparts_by_level(g))
    ramp_links: dict[Any, _Link | None] = g.memo("rampart_links", 50_000) if ramps else {}

    def classify(lu: int, pu: XY, lv: int, pv: XY) -> _Link | str:
        key = (lu, pu, lv, pv)
        link = q.links.get(key)
        if link is None:
            link = q.links[key] = g.classify(lu, pu, lv, pv, explain=False)
        if ramps and isinstance(link, str):
            if key in ramp_links:
                over = ramp_links[key]
            else:
                over = ramp_links[key] = rampart_link(g, lu, pu, lv, pv)
            if over is not None:
                return over
        return link

    def usable(link: _Link | str) -> _Link | None:
        if isinstance(link, str) or (dash and link.climbs):
            return None
        return link

    # The straight line, when it is a plain move, is the cheapest path.
    direct = usable(classify(la, s, goal_level, goal))
    if direct is not None and not zones_ok(la, s, goal_level, goal):
        direct = None
    if direct is not None and weigh(la, s, goal_level, goal, direct) is None:
        direct = None
    if direct is not None and direct.kind == "move" and direct.crossings == 0:
        pts = [(s[0], s[1], z_of[la]), (goal[0], goal[1], z_of[goal_level])]
        path = _make_path(q, pts, [direct], [la, goal_level])
        return path if path.cost <= limit + 1e-9 else None

    # Static nodes in the ellipse of reachable points, outside every zone.
    xy = g.xy
    n = xy.shape[0]
    allowed = (
        np.hypot(xy[:, 0] - s[0], xy[:, 1] - s[1])
        + np.hypot(xy[:, 0] - goal[0], xy[:, 1] - goal[1])
        <= limit + _ROUND_TOL
    )
    # Only the nodes in the ellipse can be allowed: the zones are tested on those alone.
    cand = np.flatnonzero(allowed)
    cx, cy, cl = xy[cand, 0], xy[cand, 1], g.node_level[cand]
    keep = np.ones(cand.shape[0], dtype=bool)
    for zone in zones:
        if zone.final_only:
            continue
        inside = np.hypot(cx - zone.x, cy - zone.y) < zone.radius - 1e-6
        inside &= cl == zone.level
        if zone.exact and (zone.enemy >= 0 or zone.test is not None):
            for k in np.flatnonzero(inside & keep).tolist():
                inside[k] = in_zone(zone, g._xy_list[int(cand[k])])
        keep &= ~inside
    allowed[cand] = keep
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

    def link_dyn(
        u: int,
        v: int,
        link: _Link | None,
        clear: bool = False,
        among: Sequence[_Zone] | None = None,
    ) -> None:
        # clear: the link is known to keep away from every zone (zones_ok holds); among:
        # the only zones that may refuse it.
        if link is None or (u, v) in linked:
            return
        lu, pu = pos[u] if u >= n else (g._lvl_list[u], g._xy_list[u])
        lv, pv = pos[v] if v >= n else (g._lvl_list[v], g._xy_list[v])
        if not clear:
            key = (lu, pu, lv, pv)
            ok = link_ok.get(key)
            if ok is None:
                ok = link_ok[key] = zones_ok(lu, pu, lv, pv, among)
            if not ok:
                return
        w = weigh(lu, pu, lv, pv, link)
        if w is None:
            return
        linked.add((u, v))
        extra.setdefault(u, []).append((v, w, link))

    # Same-level visibility between the dynamic nodes and every candidate. What depends on
    # the points alone (whether the line is in the passage region, the move links) is kept
    # on the graph per dynamic point (:func:`_sight_of`), for the next searches from it.
    moves = g.memo("moves", _MOVES_KEPT)
    for u, (lu, pu) in pos.items():
        lvl = g.levels[lu]
        ids = np.nonzero(allowed & (g.node_level == lu))[0].tolist()
        ids += [v for v, (lv, _) in pos.items() if lv == lu and v != u]
        if not ids:
            continue
        arr = np.asarray([g._xy_list[v] if v < n else pos[v][1] for v in ids], dtype=float)
        seen = _sight_of(g, lvl, pu, ids, arr, n)
        # The zones each link comes within 1e-9" of: the only ones that may refuse it.
        here = [z for z in zones if z.level == lu]
        near: list[list[_Zone]] = [[] for _ in ids]
        if here:
            rows, cols = np.nonzero(near_zone_matrix(pu, arr, here))
            for j, k in zip(rows.tolist(), cols.tolist(), strict=True):
                near[k].append(here[j])
        for v, ok, close in zip(ids, seen, near, strict=True):
            if not ok:
                continue
            pv = g._xy_list[v] if v < n else pos[v][1]
            if u != goal_node and v != start_node:
                link_dyn(u, v, _move_link(g, moves, lvl, pu, pv), not close, close)
            if v < n and u != start_node:
                link_dyn(v, u, _move_link(g, moves, lvl, pv, pu), not close, close)
    # Climbing over, onto and off terrain from the start and into the goal.
    reach = r + CLIMB_RANGE + _TOL
    far = JUMP_MAX + 2 * r + CLIMB_RANGE
    stairs = stairs_by_level(g)
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
                # Vantage levels; up or down its stairs (move_stairs).
                if not (
                    d_fp <= reach
                    or (lu != 0 and d_fp <= JUMP_MAX + r + _TOL)
                    or (stairs and lu == 0 and stairs_near(g, lvl.index, pu, reach))
                    or (ramps and lu == 0 and ramparts_near(g, lvl.index, pu, reach))
                ):
                    continue
            elif d_fp > JUMP_MAX + r + _TOL:
                continue
            cands.update(np.nonzero(g.node_level == lvl.index)[0].tolist())
        if lu != 0:
            # Off the level u is on (start) / onto it (goal): nodes within 1" of it, or
            # near it when it has stairs.
            near_ids = g._near[lu]
            if lu in stairs or (ramps and lu in ramparts_by_level(g)):
                cands.update(near_ids.tolist())
            else:
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
    plain = not q.terrain_extras  # a rule drops the Accessible and Obstructing inches
    ramp_out = rampart_out(g) if ramps else None
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
            edges = out[u]
            if ramp_out is not None and u in ramp_out:
                edges = [*edges, *((v, 0.0, link) for v, link in ramp_out[u])]
            for v, w, link in edges:
                if not allowed_list[v] or (dash and link.climbs):
                    continue
                if ruled:
                    ruled_w = weigh(lu, pu, lvl_list[v], xy_list[v], link)
                    if ruled_w is None:
                        continue
                    w = ruled_w
                nd = d + w
                if plain:
                    nd -= _terrain_extra(link)
                if nd >= best.get(v, math.inf) - 1e-12:
                    continue
                if zones:
                    clear = static_ok.get((u, v))
                    if clear is None:
                        clear = static_ok[(u, v)] = zones_ok(lu, pu, lvl_list[v], xy_list[v])
                    if not clear:
                        continue
                best[v] = nd
                parent[v] = (u, link)
                heapq.heappush(heap, (nd + math.dist(xy_list[v], goal), nd, v))
        for v, w, link in extra.get(u, ()):
            nd = d + w
            if plain:
                nd -= _terrain_extra(link)
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
    steps = [pos[v] if v >= n else (lvl_list[v], xy_list[v]) for v in nodes]
    if q.left and not q.left_ok(steps):
        return None  # its cheapest path goes back through the control range it left
    points: list[Point3] = [(pv[0], pv[1], z_of[lv]) for lv, pv in steps]
    path = _make_path(q, points, links, [lv for lv, _ in steps])
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
    leave_control_range: bool = False,
    rules: MovementRules = KT24_MOVEMENT,
) -> MovePath:
    """Check an explicit path of a move action and cost it (3.2, 3.3, 4.6, 9.3).

    Args:
        kz, mover, action, enemies, friends, move, max_cost, graph, leave_control_range,
            rules: as for :func:`shortest_path`.
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
    q = _Query(kz, g, mover, act, enemies, friends, limit, leave_control_range, rules=rules)
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
        if isinstance(link, str) and rules.ramparts:
            link = rampart_link(g, levels[k - 1], a, levels[k], b) or link
        if isinstance(link, str):
            raise MoveError(f"{where}: {link}")
        if act == "dash" and link.climbs:
            raise MoveError(f"{where}: Dash cannot climb (KT24 3.2)")
        _check_operatives(q, a, levels[k - 1], b, levels[k], where, locked, k == len(pts) - 1)
        links.append(link)
    if q.left and not q.left_ok([(lv, p[:2]) for lv, p in zip(levels, pts, strict=True)]):
        raise MoveError(
            "after leaving the control range it started within, the Charge enters it again "
            "and leaves it (KT24 3.2)"
        )
    end = pts[-1]
    reason = q.final_reason(g.levels[levels[-1]], end[0], end[1], end[2])
    if reason is not None:
        raise MoveError(reason)
    path = _make_path(q, pts, links, levels)
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
    rules: MovementRules = KT24_MOVEMENT,
) -> float:
    """The inches of movement an explicit path uses (3.3): :func:`check_path`'s cost
    (``rules``: as for :func:`shortest_path`).

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
        rules=rules,
    ).cost
