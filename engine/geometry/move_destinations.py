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
from shapely.ops import nearest_points

from engine.geometry.model import Killzone, Placement, TerrainType, quantise
from engine.geometry.move_graph import (
    _GRID,
    _ROUND_TOL,
    CONTROL_RANGE,
    XY,
    Level,
    MoveGraph,
    _bevel_buffer,
    move_graph,
)
from engine.geometry.move_paths import MoveError, _action, _Query, _search, max_move

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
    for (ux, uy), ray in zip(units, _straight_reach(start_level, s, units, full), strict=True):
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


def _reachable(q: _Query, spots: Sequence[Sequence[float]]) -> list[Placement]:
    """The final placements of the spots (``(x, y, elevation)``, quantised, deduplicated)
    that are legal places to finish and that a legal path reaches, sorted."""
    g = q.g
    s = q.start
    seen: dict[tuple[float, float, float], Placement] = {}
    tried: set[tuple[float, float, float]] = set()
    for x, y, z in spots:
        key = (quantise(x), quantise(y), quantise(z))
        if key in tried or math.hypot(key[0] - s[0], key[1] - s[1]) > q.limit + _ROUND_TOL:
            continue
        tried.add(key)
        spot_level = g.level_at(key[0], key[1], key[2])
        if spot_level is None or q.final_reason(spot_level, *key) is not None:
            continue
        path = _search(q, spot_level.index, (key[0], key[1]))
        if path is not None:
            seen[key] = path.final
    return [seen[k] for k in sorted(seen)]


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
    act = _action(action)
    limit = max_move(act, move) if max_cost is None else float(max_cost)
    g = graph if graph is not None else move_graph(kz, mover.base_mm)
    try:
        q = _Query(kz, g, mover, act, enemies, friends, limit)
    except MoveError:
        return []
    return _reachable(q, spots)


def _straight_reach(
    level: Level, start: XY, directions: Sequence[XY], length: float
) -> list[float]:
    """For each unit direction, how far (inches, at most ``length``, pulled back 0.01") a
    straight line from ``start`` stays where a base can stand on ``level``."""
    if length <= 0:
        return [0.0] * len(directions)
    rays = [
        LineString([start, (start[0] + ux * length, start[1] + uy * length)])
        for ux, uy in directions
    ]
    origin = Point(start)
    out: list[float] = []
    for part in shapely.intersection(rays, level.strict_tol):
        reach = 0.0
        for piece in shapely.get_parts(part):
            if not piece.is_empty and piece.distance(origin) <= 1e-6:
                reach = max(reach, float(piece.length) - 0.01)
        out.append(max(0.0, reach))
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
    return _straight_reach(lvl, (mover.x, mover.y), directions, length)
