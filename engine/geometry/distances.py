"""Distances on the killzone (rules ``rules/KT24.md`` 4.1, project decision 10) and, on a
close quarters killzone, distances around walls (9.3): the shortest route between two bases
that does not pass through a Wall or off the board (:func:`distance_around_walls`; the
modelling is described in :mod:`engine.geometry.sight`).
"""

import math
from collections.abc import Sequence
from typing import cast

import attrs
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from engine.geometry.model import (
    Killzone,
    Placement,
    TerrainType,
)

__all__ = ["distance", "distance_around_walls", "distance_to_area"]

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]


# -------------------------------------------------------------------------------------------
# Distances
# -------------------------------------------------------------------------------------------


def distance(a: Placement, b: Placement) -> float:
    """Distance between two operatives, in inches (section 4.1, decision 10).

    Measured between the closest points of the bases: horizontally when both are at the same
    elevation, in 3D (horizontal gap and height difference) when their elevations differ.
    """
    gap = max(0.0, math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius)
    dz = a.elevation - b.elevation
    return math.hypot(gap, dz) if dz else gap


def distance_to_area(p: Placement, area: Polygon) -> float:
    """Horizontal distance in inches from an operative's base to a killzone area (drop zone,
    territory): 0 when the base touches or overlaps it (section 4.1, decision 10)."""
    return max(0.0, float(area.distance(shapely.Point(p.x, p.y))) - p.radius)


# -------------------------------------------------------------------------------------------
# Close quarters: distances around walls (section 9.3)
# -------------------------------------------------------------------------------------------

_WALLS_KEY = "sight.walls"
_WALL_INSET = 1e-6  # a route may run along a wall's edge or touch its corner (inches)


@attrs.frozen(slots=True, eq=False)
class _Walls:
    """Per-killzone data for routes around walls (built once per hatchway state, cached).

    Attributes:
        solid: the Wall parts and everything off the board, united then shrunk by 1e-6"
            (prepared): a straight leg of a route may not meet it.
        nodes: corners of Wall parts a route can bend at, array (N, 2), inches.
        between: shortest route between every two nodes, array (N, N), inches (``inf`` when
            there is none).
    """

    solid: BaseGeometry
    nodes: FloatArray
    between: FloatArray


def _walls(kz: Killzone) -> _Walls | None:
    """The killzone's :class:`_Walls`, or ``None`` when it has no Wall part in its current
    hatchway state."""
    if _WALLS_KEY in kz._cache:
        return cast("_Walls | None", kz._cache[_WALLS_KEY])
    wall = kz.flags[TerrainType.WALL]
    value: _Walls | None = None
    if wall.any():
        polys = [kz.parts[i].polygon for i in np.flatnonzero(wall)]
        frame = shapely.box(-1, -1, kz.width + 1, kz.depth + 1).difference(kz.board)
        union = shapely.union_all([*polys, frame])
        solid = union.buffer(-_WALL_INSET, join_style="mitre")
        shapely.prepare(solid)
        corners = np.unique(
            np.concatenate([np.asarray(p.exterior.coords, dtype=float)[:-1] for p in polys]),
            axis=0,
        )
        # Corners inside the walls (where parts meet) or off the board are never bent at.
        keep = ~shapely.contains_xy(union, corners[:, 0], corners[:, 1])
        nodes = corners[keep]
        n = nodes.shape[0]
        between = np.full((n, n), math.inf)
        if n:
            iu, ju = np.triu_indices(n, k=1)
            legs = shapely.linestrings(np.stack([nodes[iu], nodes[ju]], axis=1))
            clear = ~shapely.intersects(solid, legs)
            length = np.hypot(*(nodes[iu] - nodes[ju]).T)
            between[iu[clear], ju[clear]] = length[clear]
            between[ju[clear], iu[clear]] = length[clear]
            np.fill_diagonal(between, 0.0)
            for k in range(n):  # Floyd-Warshall
                np.minimum(between, between[:, k, None] + between[None, k, :], out=between)
        value = _Walls(solid=solid, nodes=nodes, between=between)
    kz._cache[_WALLS_KEY] = value
    return value


def _routes(walls: _Walls, centres: FloatArray) -> tuple[FloatArray, BoolArray]:
    """Shortest routes around walls between every two points ``centres`` (array (n, 2),
    inches): matrix (n, n), ``inf`` where no route exists, symmetric by construction; and
    which pairs the straight line joins (no wall in the way; True on the diagonal)."""
    n = centres.shape[0]
    routes = np.full((n, n), math.inf)
    np.fill_diagonal(routes, 0.0)
    straight = np.eye(n, dtype=bool)
    if n < 2:
        return routes, straight
    iu, ju = np.triu_indices(n, k=1)
    legs = shapely.linestrings(np.stack([centres[iu], centres[ju]], axis=1))
    clear = ~shapely.intersects(walls.solid, legs)
    direct = np.hypot(*(centres[iu] - centres[ju]).T)
    routes[iu[clear], ju[clear]] = direct[clear]
    m = walls.nodes.shape[0]
    if m and not clear.all():
        # Straight legs from every centre to every node, then node to node.
        a = np.repeat(np.arange(n), m)
        k = np.tile(np.arange(m), n)
        to_nodes = shapely.linestrings(np.stack([centres[a], walls.nodes[k]], axis=1))
        reach = np.where(
            shapely.intersects(walls.solid, to_nodes),
            math.inf,
            np.hypot(*(centres[a] - walls.nodes[k]).T),
        ).reshape(n, m)
        via = (reach[:, :, None] + walls.between[None, :, :]).min(axis=1)  # (n, m)
        around = (via[:, None, :] + reach[None, :, :]).min(axis=2)  # (n, n)
        around = np.minimum(around, around.T)
        blocked = ~clear
        routes[iu[blocked], ju[blocked]] = around[iu[blocked], ju[blocked]]
    routes[ju, iu] = routes[iu, ju]
    straight[iu, ju] = straight[ju, iu] = clear
    return routes, straight


def _gap(route: float, a: Placement, b: Placement) -> float:
    """:func:`distance`'s formula with the centre-to-centre route ``route`` (inches)."""
    gap = max(0.0, route - a.radius - b.radius)
    dz = a.elevation - b.elevation
    return math.hypot(gap, dz) if dz else gap


def _distance_matrices(kz: Killzone, ops: Sequence[Placement]) -> tuple[FloatArray, FloatArray]:
    """:func:`distance` and :func:`distance_around_walls` for every pair of ``ops`` (two
    matrices (n, n), inches; the same array twice without walls)."""
    n = len(ops)
    dist = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            dist[i, j] = dist[j, i] = distance(ops[i], ops[j])
    walls = _walls(kz) if n > 1 else None
    if walls is None:
        return dist, dist
    around = dist.copy()
    routes, clear = _routes(walls, np.asarray([(p.x, p.y) for p in ops], dtype=float))
    for i, j in zip(*np.nonzero(np.triu(~clear, k=1)), strict=True):
        around[i, j] = around[j, i] = _gap(float(routes[i, j]), ops[i], ops[j])
    return dist, around


def distance_around_walls(kz: Killzone, a: Placement, b: Placement) -> float:
    """Distance between two operatives measured around walls, in inches (section 9.3, close
    quarters: "distances (except to killzone areas) are measured around walls by the
    shortest route").

    The route is the shortest line, as a tape measure would lie, from the centre of one base
    to the centre of the other that does not pass through Wall terrain (closed hatchways
    included, open ones not) nor off the board; it may run along a wall's edge and bend at
    its corners. The distance is that route less both base radii (so between the closest
    points of the bases along it), at least 0. When no wall is in the way it is exactly
    :func:`distance` (always so on a killzone without Wall terrain).

    Floor-level model: the route is found in the horizontal plane around the walls'
    footprints (walls are taken as full height: they cannot be moved or seen over); when the
    elevations differ, the horizontal route is combined with the height difference as in
    :func:`distance` (decision 10).

    Args:
        kz: the killzone, in its hatchway state.
        a, b: the two operatives (a marker can be given as a Placement of its size).

    Returns:
        Inches; ``math.inf`` when no route exists (a room sealed by walls and closed
        hatchways, or a base centred inside a Wall).
    """
    straight = distance(a, b)
    walls = _walls(kz)
    if walls is None or a == b:
        return straight
    leg = shapely.linestrings(np.asarray([(a.x, a.y), (b.x, b.y)], dtype=float))
    if not shapely.intersects(walls.solid, leg):
        return straight
    if not walls.nodes.shape[0]:
        return math.inf
    reach_a, via_a = _from_point(kz, walls, a.x, a.y)
    reach_b, via_b = _from_point(kz, walls, b.x, b.y)
    # As _routes finds it: the route a -> nodes -> b and the one b -> nodes -> a.
    route = min(float((via_a + reach_b).min()), float((via_b + reach_a).min()))
    return _gap(route, a, b)


_POINTS_KEY = "sight.around_walls_points"


def _from_point(kz: Killzone, walls: _Walls, x: float, y: float) -> tuple[FloatArray, FloatArray]:
    """From the point ``(x, y)`` (inches): the straight leg to each node of ``walls``
    (``inf`` where a wall is in the way) and the shortest route to each node through the
    others, arrays (N,), as :func:`_routes` computes them (the same arithmetic), cached per
    point on the killzone value (operatives stand still while many distances are taken)."""
    cache: dict[tuple[float, float], tuple[FloatArray, FloatArray]] = kz._cache.setdefault(
        _POINTS_KEY, {}
    )
    hit = cache.get((x, y))
    if hit is None:
        if len(cache) > 20_000:
            cache.clear()
        centre = np.asarray([x, y], dtype=float)
        nodes = walls.nodes
        legs = shapely.linestrings(np.stack([np.broadcast_to(centre, nodes.shape), nodes], axis=1))
        reach = np.where(
            shapely.intersects(walls.solid, legs),
            math.inf,
            np.hypot(*(centre - nodes).T),
        )
        via = (reach[:, None] + walls.between).min(axis=0)
        hit = cache[(x, y)] = (reach, via)
    return hit
