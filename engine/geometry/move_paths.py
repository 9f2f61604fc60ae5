"""Move paths: the cheapest legal path of a move action, explicit paths and their cost.

Rules: ``rules/KT24.md`` 3.2, 3.3, 4.1-4.2, 4.6, 9.3; the model and its approximations are
described in :mod:`engine.geometry.movement`.
"""

from __future__ import annotations

import copy
import heapq
import itertools
import math
from collections.abc import Callable, Sequence
from typing import cast

import attrs
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Point

from engine.errors import KillTeamError
from engine.geometry.graph_cache import move_graph
from engine.geometry.model import Killzone, Placement, quantise
from engine.geometry.move_graph import MoveGraph
from engine.geometry.move_links import (
    _ACTION_NAMES,
    _GRID,
    _ROUND_TOL,
    _SAMPLE_STEP,
    _TOL,
    ACCESSIBLE_COST,
    CHARGE_BONUS,
    CLIMB_RANGE,
    CONTROL_RANGE,
    DASH_DISTANCE,
    FREE_DROP,
    JUMP_MAX,
    OBSTRUCTING_COST,
    XY,
    FloatArray,
    Level,
    MoveAction,
    Point3,
    _lerp,
    _Link,
)
from engine.geometry.sight import CONTROL_RANGE_TOLERANCE, within_control_range


class MoveError(KillTeamError, ValueError):
    """A move is illegal; the message names the rule broken (``rules/KT24.md`` section)."""


# -------------------------------------------------------------------------------------------
# Results
# -------------------------------------------------------------------------------------------


@attrs.frozen(slots=True)
class Increment:
    """One straight increment of a move (3.3).

    Attributes:
        start, end: ``(x, y, elevation)`` in inches.
        kind: ``"move"``, ``"climb"``, ``"drop"``, ``"jump"`` or ``"over"`` (module docstring).
        horizontal: horizontal length (inches).
        climb: height climbed (inches, 0 if none; a jump landing at most 1" higher is 0).
        drop: height dropped (inches, 0 if none).
        crossings: Accessible parts entered (+1" each).
        cost: inches of movement used: ``horizontal`` + climb (at least 2", or 1" up a
            ladder) + the part of the drop beyond the action's free 2", rounded up to a whole
            inch, + crossings + obstructing.
        obstructing: Obstructing features crossed over (+1" each, 4.6, 7.2 Razor Wire).
        ladder: whether the climb counted 1" for a ladder (7.2 Ladders; the first such climb
            of the action only).
    """

    start: Point3
    end: Point3
    kind: str
    horizontal: float
    climb: float
    drop: float
    crossings: int
    cost: float
    obstructing: int = 0
    ladder: bool = False


@attrs.frozen(slots=True)
class MovePath:
    """A legal move.

    Attributes:
        action: ``"reposition"``, ``"dash"``, ``"fall_back"`` or ``"charge"``.
        points: ``(x, y, elevation)`` in inches, from the start to the end (quantised).
        increments: the straight increments between consecutive points.
        length: Euclidean length of the polyline through ``points`` (inches, 3D).
        cost: inches of movement used (the sum of the increments' costs, 3.3).
        final: the operative's placement at the end.
    """

    action: str
    points: tuple[Point3, ...]
    increments: tuple[Increment, ...]
    length: float
    cost: float
    final: Placement


# -------------------------------------------------------------------------------------------
# Actions
# -------------------------------------------------------------------------------------------


def _action(action: str) -> MoveAction:
    if action not in _ACTION_NAMES:
        raise MoveError(
            f"unknown move action {action!r} (known: {', '.join(_ACTION_NAMES)}; KT24 3.2)"
        )
    return cast(MoveAction, action)


def max_move(action: str, move: float = 6.0) -> float:
    """The most inches of movement ``action`` allows an operative with Move ``move`` (3.2):
    Reposition and Fall Back: Move; Dash: 3" (whatever the Move); Charge: Move + 2".

    Raises:
        MoveError: for an unknown action.
    """
    act = _action(action)
    if act == "dash":
        return DASH_DISTANCE
    if act == "charge":
        return move + CHARGE_BONUS
    return move


@attrs.frozen(slots=True)
class _Zone:
    """A disc the mover's centre may not enter: an enemy's base (grown by the mover's) or its
    control range. ``final_only`` (Charge, an enemy no other friendly engages): it may be
    entered, but then never left.

    A control-range zone names its enemy (``enemy``, an index into the query's enemies); the
    disc is then only a prefilter: with ``exact`` (terrain near the enemy) a point of the disc
    is within the enemy's control range only if it is visible and within 1" as
    :func:`~engine.geometry.sight.within_control_range` says (4.2), see
    :meth:`_Query.zone_contains` and :meth:`_Query.zone_crosses`. An extra region a query
    avoids (:data:`AvoidZone`) has ``test``: the disc is then a prefilter and a point of it is
    inside only where ``test(x, y, z)`` says so (checked as an ``exact`` zone is)."""

    x: float
    y: float
    radius: float
    level: int
    final_only: bool
    what: str
    enemy: int = -1
    exact: bool = False
    test: Callable[[float, float, float], bool] | None = None

    def hits(self, a: XY, b: XY) -> bool:
        return _seg_point_distance(a, b, (self.x, self.y)) < self.radius - 1e-6

    def inside(self, p: XY) -> bool:
        return math.hypot(p[0] - self.x, p[1] - self.y) < self.radius - 1e-6


AvoidZone = tuple[float, float, float, Callable[[float, float, float], bool]]
"""An extra region one movement query keeps out of (``avoid=`` of :func:`shortest_path`):
``(x, y, radius, test)``: the mover's centre is inside where it is within ``radius`` of
``(x, y)`` horizontally (on any level) and ``test(x, y, z)`` (its centre there) is true; a
rule's region, e.g. where an operative would be visible to and within some distance of
another. ``test`` is only asked inside the disc, every 0.05" along a link as an enemy's
exact control range is."""


def _seg_point_distance(a: XY, b: XY, c: XY) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d2 = dx * dx + dy * dy
    t = 0.0 if d2 == 0 else max(0.0, min(1.0, ((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / d2))
    return math.hypot(a[0] + t * dx - c[0], a[1] + t * dy - c[1])


def _engaged(
    kz: Killzone, enemies: Sequence[Placement], friends: Sequence[Placement]
) -> list[bool]:
    """For each enemy, whether one of ``friends`` is within its control range (4.2). Pairs
    whose bases are more than 1" apart horizontally (with a 1e-9" margin) are never within
    control range, so only the others get the exact test."""
    if not enemies or not friends:
        return [False] * len(enemies)
    fx = np.asarray([f.x for f in friends], dtype=float)[:, None]
    fy = np.asarray([f.y for f in friends], dtype=float)[:, None]
    fr = np.asarray([f.radius for f in friends], dtype=float)[:, None]
    ex = np.asarray([e.x for e in enemies], dtype=float)
    ey = np.asarray([e.y for e in enemies], dtype=float)
    er = np.asarray([e.radius for e in enemies], dtype=float)
    near = np.hypot(fx - ex, fy - ey) - fr - er <= CONTROL_RANGE + CONTROL_RANGE_TOLERANCE + 1e-9
    cols: list[list[bool]] = near.T.tolist()
    return [
        any(within_control_range(kz, f, e) for f, close in zip(friends, col, strict=True) if close)
        for e, col in zip(enemies, cols, strict=True)
    ]


def near_zones(start: XY, ends: FloatArray, zones: Sequence[_Zone]) -> NDArray[np.bool_]:
    """For straight links from ``start`` to each of ``ends`` (array (N, 2), inches) on the
    level of ``zones``: whether the link comes within 1e-9" of a zone's disc. A link that does
    not keeps out of every zone (:meth:`_Query.zones_ok` holds for it, whatever the zone);
    the others need the exact check."""
    if not zones or ends.shape[0] == 0:
        return np.zeros(ends.shape[0], dtype=bool)
    # Distance from each zone's centre (rows) to each link (columns), all at once.
    zx = np.asarray([z.x for z in zones], dtype=float)[:, None]
    zy = np.asarray([z.y for z in zones], dtype=float)[:, None]
    zr = np.asarray([z.radius for z in zones], dtype=float)[:, None]
    dx, dy = ends[:, 0] - start[0], ends[:, 1] - start[1]
    d2 = dx * dx + dy * dy
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(d2 > 0, ((zx - start[0]) * dx + (zy - start[1]) * dy) / d2, 0.0)
    t = np.clip(t, 0.0, 1.0)
    dist = np.hypot(start[0] + t * dx - zx, start[1] + t * dy - zy)
    near: NDArray[np.bool_] = (dist < zr - 1e-6 + 1e-9).any(axis=0)
    return near


class _Query:
    """The operatives' side of a move: start checks, zones, final checks."""

    def __init__(
        self,
        kz: Killzone,
        graph: MoveGraph,
        mover: Placement,
        action: MoveAction,
        enemies: Sequence[Placement],
        friends: Sequence[Placement],
        limit: float,
        leave_control_range: bool = False,
        avoid: Sequence[AvoidZone] = (),
        terrain_extras: bool = True,
    ) -> None:
        self.kz = kz
        #: Whether the Accessible and Obstructing extra inches count (4.6; a rule may drop
        #: them for one move).
        self.terrain_extras = terrain_extras
        self.g = graph
        self.mover = mover
        self.action = action
        self.name = _ACTION_NAMES[action]
        self.enemies = tuple(enemies)
        self.friends = tuple(f for f in friends if f != mover)
        self.limit = limit
        lvl = graph.level_at(mover.x, mover.y, mover.elevation)
        if lvl is None:
            raise MoveError(
                f'the operative at ({mover.x:g}, {mover.y:g}) is {mover.elevation:g}" up but '
                "not standing on Vantage terrain (KT24 4.7)"
            )
        if not shapely.intersects_xy(lvl.passage_tol, mover.x, mover.y):
            reason = graph._placement_reason(lvl, (mover.x, mover.y), "the moving operative's base")
            raise MoveError(f"{reason} at the start of the move (KT24 3.3)")
        self.start_level = lvl.index
        self.start: XY = (mover.x, mover.y)
        # classify() results of dynamic links, shared by the searches of one query (the
        # candidate generator searches many destinations from one start).
        self.links: dict[tuple[int, XY, int, XY], _Link | str] = {}
        in_range = [e for e in self.enemies if within_control_range(kz, mover, e)]
        if action == "fall_back":
            if not in_range:
                raise MoveError(
                    "Fall Back can only be performed by an operative within control range of "
                    "an enemy (KT24 3.2)"
                )
        elif in_range and not (leave_control_range and action == "charge"):
            raise MoveError(
                f"{self.name} cannot be performed while within control range of an enemy (KT24 3.2)"
            )
        # Enemies a friendly operative is already engaging: their control range may be
        # passed through (Reposition, Dash) or entered and left (Charge).
        self.engaged = (
            [True] * len(self.enemies)
            if action == "fall_back"
            else _engaged(kz, self.enemies, self.friends)
        )
        self.leave = bool(in_range) and leave_control_range and action == "charge"
        # The enemies whose control range only that rule makes passable: once left, it may
        # be entered again only to finish there (:meth:`left_ok`).
        left_from = [
            self.leave and not en and any(e is i for i in in_range)
            for e, en in zip(self.enemies, self.engaged, strict=True)
        ]
        self.left: list[_Zone] = []
        if self.leave:
            # A rule lets this Charge start within the control range of enemies and leave
            # it: their control range is passable as an engaged enemy's is.
            self.engaged = [
                en or any(e is i for i in in_range)
                for e, en in zip(self.enemies, self.engaged, strict=True)
            ]
        self.zones: list[_Zone] = []
        # Exact control range checks along links and at nodes, keyed by (enemy, levels,
        # points): shared by the searches of one query.
        self.in_range: dict[tuple[int, int, XY], bool] = {}
        self.crosses: dict[tuple[int, int, XY, int, XY], bool] = {}
        r = graph.radius
        for j, (e, engaged) in enumerate(zip(self.enemies, self.engaged, strict=True)):
            where = f"({e.x:g}, {e.y:g})"
            for lvl in graph.levels:
                dz = abs(lvl.height - e.elevation)
                if dz <= 1e-6:
                    self.zones.append(
                        _Zone(
                            e.x,
                            e.y,
                            e.radius + r + _GRID,
                            lvl.index,
                            False,
                            f"the enemy operative at {where}",
                        )
                    )
                if (engaged and not left_from[j]) or dz >= CONTROL_RANGE:
                    continue
                reach = e.radius + r + math.sqrt(CONTROL_RANGE**2 - dz * dz) + _GRID
                # Without terrain in the disc nothing can block sight nor lengthen the 1" around
                # a wall: the disc is the control range (4.2) and needs no exact check.
                exact = graph.terrain_near(e.x, e.y, reach)
                (self.left if left_from[j] else self.zones).append(
                    _Zone(
                        e.x,
                        e.y,
                        reach,
                        lvl.index,
                        action == "charge",
                        f"the control range of the enemy operative at {where}",
                        enemy=j,
                        exact=exact,
                    )
                )
        for k, (ax, ay, radius, test) in enumerate(avoid):
            for lvl in graph.levels:
                self.zones.append(
                    _Zone(
                        ax,
                        ay,
                        radius,
                        lvl.index,
                        False,
                        f"a region the move must avoid ({k})",
                        exact=True,
                        test=test,
                    )
                )

    def variant(self, action: MoveAction, limit: float) -> _Query:
        """This query for another of Reposition and Dash (or another distance): the start
        checks, engaged enemies and zones of those two actions are the same (3.2), so they and
        the caches of exact checks are shared instead of computed again.

        Raises:
            ValueError: either action is not Reposition or Dash."""
        if action not in ("reposition", "dash") or self.action not in ("reposition", "dash"):
            raise ValueError(f"no shared query between {self.action} and {action}")
        other = copy.copy(self)
        other.action = action
        other.name = _ACTION_NAMES[action]
        other.limit = limit
        return other

    def zone_contains(self, zone: _Zone, p: XY) -> bool:
        """Whether the mover's centre at ``p`` (on the zone's level) is inside ``zone``: for
        a base zone, inside the disc; for a control-range zone, within the enemy's control
        range: inside the disc and, when ``exact``, visible and within 1" (4.2)."""
        if not zone.inside(p):
            return False
        if zone.test is not None:
            return zone.test(p[0], p[1], self.g.levels[zone.level].height)
        if zone.enemy < 0 or not zone.exact:
            return True
        key = (zone.enemy, zone.level, p)
        hit = self.in_range.get(key)
        if hit is None:
            z = self.g.levels[zone.level].height
            e = self.enemies[zone.enemy]
            hit = self.in_range[key] = within_control_range(
                self.kz, self.mover.moved(p[0], p[1], z), e
            )
        return hit

    def zone_crosses(self, zone: _Zone, lu: int, pu: XY, lv: int, pv: XY) -> bool:
        """Whether the straight link ``pu`` -> ``pv`` enters ``zone`` (any point of it; the
        end points included). A control-range zone with ``exact`` on a same-level link is
        checked as :func:`check_path` checks explicit paths: every 0.05" of the part of the
        link inside the disc, with the exact control range (4.2); a link between levels keeps
        the disc (conservative)."""
        if not zone.hits(pu, pv):
            return False
        if (zone.test is None and (zone.enemy < 0 or not zone.exact)) or lu != lv:
            return True
        key = (zone.enemy, lu, pu, lv, pv)
        hit = self.crosses.get(key) if zone.test is None else None
        if hit is not None:
            return hit
        # The chord of the link inside the disc: t in [t0, t1] along pu -> pv.
        dx, dy = pv[0] - pu[0], pv[1] - pu[1]
        fx, fy = pu[0] - zone.x, pu[1] - zone.y
        a = dx * dx + dy * dy
        t0, t1 = 0.0, 1.0
        if a > 0:
            b = fx * dx + fy * dy
            c = fx * fx + fy * fy - zone.radius * zone.radius
            root = math.sqrt(max(0.0, b * b - a * c))
            t0, t1 = max(0.0, (-b - root) / a), min(1.0, (-b + root) / a)
        steps = max(1, math.ceil(math.sqrt(a) * (t1 - t0) / _SAMPLE_STEP))
        z = self.g.levels[lu].height
        test = zone.test
        e = self.enemies[zone.enemy] if test is None else self.mover
        hit = False
        # Nearest the enemy first: where the link is most likely within its control range.
        tc = min(t1, max(t0, -(fx * dx + fy * dy) / a)) if a > 0 else t0
        ts = sorted(
            (t0 + (t1 - t0) * k / steps for k in range(steps + 1)), key=lambda t: abs(t - tc)
        )
        for t in ts:
            x, y = pu[0] + t * dx, pu[1] + t * dy
            if (
                test(x, y, z)
                if test is not None
                else within_control_range(self.kz, self.mover.moved(x, y, z), e)
            ):
                hit = True
                break
        if test is None:
            self.crosses[key] = hit
        return hit

    def zones_ok(self, lu: int, pu: XY, lv: int, pv: XY) -> bool:
        """Whether the straight link ``pu`` (level ``lu``) -> ``pv`` (level ``lv``) keeps out
        of every zone the action forbids (3.2): it enters no enemy base and no control range
        the action may not enter; for a Charge, once within a control range it may not
        leave it (``final_only`` zones)."""
        in_zone, crosses_zone = self.zone_contains, self.zone_crosses
        for zone in self.zones:
            if zone.final_only:
                # Charge: once within this enemy's control range, stay within it (3.2).
                in_v = zone.level == lv and in_zone(zone, pv)
                if not in_v and (
                    (zone.level == lu and in_zone(zone, pu))
                    or (
                        (zone.level == lu or zone.level == lv)
                        and crosses_zone(zone, lu, pu, lv, pv)
                    )
                ):
                    return False
            elif (zone.level == lu or zone.level == lv) and crosses_zone(zone, lu, pu, lv, pv):
                return False
        return True

    def left_ok(self, steps: Sequence[tuple[int, XY]]) -> bool:
        """Whether the path through ``steps`` (``(level, point)`` from the start) keeps the
        requirement of a Charge that a rule let leave the control range it starts within
        (``leave``): once it has left that control range, entering it again is only allowed
        to finish there (as any Charge entering an enemy's control range, 3.2). Judged at the
        path's points and along its links (a link that leaves and comes back within itself
        is not seen)."""
        for zone in self.left:
            left = again = False
            for (lu, pu), (lv, pv) in itertools.pairwise(steps):
                in_v = zone.level == lv and self.zone_contains(zone, pv)
                if not left:
                    left = not in_v
                elif again:
                    if not in_v:
                        return False  # entered again, then left again
                elif in_v or (zone.level in (lu, lv) and self.zone_crosses(zone, lu, pu, lv, pv)):
                    again = True
                    if not in_v:
                        return False  # passed through it again
        return True

    def final_reason(self, level: Level | None, x: float, y: float, elevation: float) -> str | None:
        """Why the operative cannot finish at ``(x, y, elevation)`` (3.2, 3.3), or ``None``."""
        g = self.g
        if level is None:
            return (
                f'there is no Vantage terrain at elevation {elevation:g}" under '
                f"({x:g}, {y:g}) to finish on (KT24 3.3)"
            )
        r = g.radius
        if x - r < -_TOL or y - r < -_TOL or x + r > self.kz.width + _TOL:
            return "the destination base is not wholly on the board (KT24 3.3)"
        if y + r > self.kz.depth + _TOL:
            return "the destination base is not wholly on the board (KT24 3.3)"
        if not shapely.intersects_xy(level.strict_tol, x, y):
            return f"{g._placement_reason(level, (x, y))} (KT24 3.3)"
        final = self.mover.moved(x, y, elevation)
        for other in (*self.friends, *self.enemies):
            if abs(other.elevation - final.elevation) > 1e-6:
                continue
            if math.hypot(other.x - x, other.y - y) < other.radius + r - _TOL:
                side = "enemy" if other in self.enemies else "friendly"
                return (
                    f"the destination base overlaps the {side} operative at "
                    f"({other.x:g}, {other.y:g}): bases may touch but never overlap (KT24 3.3)"
                )
        in_range = [e for e in self.enemies if within_control_range(self.kz, final, e)]
        if self.action == "charge":
            if not in_range:
                return "Charge must finish within control range of an enemy (KT24 3.2)"
        elif in_range:
            e = in_range[0]
            return (
                f"path ends within control range of an enemy (the operative at "
                f"({e.x:g}, {e.y:g})): {self.name} cannot finish there (KT24 3.2)"
            )
        return None


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


def _increments(
    points: Sequence[Point3], links: Sequence[_Link], terrain_extras: bool = True
) -> tuple[tuple[Increment, ...], float]:
    free = FREE_DROP
    ladder_left = True  # a ladder helps once per action (7.2)
    out: list[Increment] = []
    total = 0.0
    for (p, q), link in zip(itertools.pairwise(points), links, strict=True):
        cost, free = link.cost(free, ladder_left)
        if not terrain_extras:
            cost -= _terrain_extra(link)
        used_ladder = link.ladder and link.climb > 0 and ladder_left
        ladder_left = ladder_left and not used_ladder
        total += cost
        out.append(
            Increment(
                start=p,
                end=q,
                kind=link.kind,
                horizontal=link.horizontal,
                climb=link.climb,
                drop=link.drop,
                crossings=link.crossings,
                cost=cost,
                obstructing=link.obstructing,
                ladder=used_ladder,
            )
        )
    return tuple(out), total


def _terrain_extra(link: _Link) -> float:
    """The Accessible and Obstructing extra inches of ``link`` (4.6)."""
    return ACCESSIBLE_COST * link.crossings + OBSTRUCTING_COST * link.obstructing


def _make_path(q: _Query, points: Sequence[Point3], links: Sequence[_Link]) -> MovePath:
    incs, cost = _increments(points, links, q.terrain_extras)
    length = sum(math.dist(p, r) for p, r in itertools.pairwise(points))
    end = points[-1]
    return MovePath(
        action=q.action,
        points=tuple(points),
        increments=incs,
        length=length,
        cost=cost,
        final=q.mover.moved(end[0], end[1], end[2]),
    )


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
    q = _Query(
        kz, g, mover, act, enemies, friends, limit, leave_control_range, avoid, terrain_extras
    )
    lvl_d, dx, dy, dz = _destination(g, destination)
    reason = q.final_reason(lvl_d, dx, dy, dz)
    if reason is not None:
        raise MoveError(reason)
    assert lvl_d is not None
    return _search(q, lvl_d.index, (dx, dy))


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

    def classify(lu: int, pu: XY, lv: int, pv: XY) -> _Link | str:
        key = (lu, pu, lv, pv)
        link = q.links.get(key)
        if link is None:
            link = q.links[key] = g.classify(lu, pu, lv, pv, explain=False)
        return link

    def usable(link: _Link | str) -> _Link | None:
        if isinstance(link, str) or (dash and link.climbs):
            return None
        return link

    # The straight line, when it is a plain move, is the cheapest path.
    direct = usable(g.classify(la, s, goal_level, goal, explain=False))
    if direct is not None and not zones_ok(la, s, goal_level, goal):
        direct = None
    if direct is not None and direct.kind == "move" and direct.crossings == 0:
        pts = [(s[0], s[1], z_of[la]), (goal[0], goal[1], z_of[goal_level])]
        path = _make_path(q, pts, [direct])
        return path if path.cost <= limit + 1e-9 else None

    # Static nodes in the ellipse of reachable points, outside every zone.
    xy = g.xy
    n = xy.shape[0]
    allowed = (
        np.hypot(xy[:, 0] - s[0], xy[:, 1] - s[1])
        + np.hypot(xy[:, 0] - goal[0], xy[:, 1] - goal[1])
        <= limit + _ROUND_TOL
    )
    for zone in zones:
        if zone.final_only:
            continue
        inside = np.hypot(xy[:, 0] - zone.x, xy[:, 1] - zone.y) < zone.radius - 1e-6
        inside &= g.node_level == zone.level
        if zone.exact and (zone.enemy >= 0 or zone.test is not None):
            for v in np.flatnonzero(inside & allowed).tolist():
                inside[v] = in_zone(zone, g._xy_list[v])
        allowed &= ~inside
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

    def link_dyn(u: int, v: int, link: _Link | None, clear: bool = False) -> None:
        # clear: the link is known to keep away from every zone (zones_ok holds).
        if link is None or (u, v) in linked:
            return
        lu, pu = pos[u] if u >= n else (g._lvl_list[u], g._xy_list[u])
        lv, pv = pos[v] if v >= n else (g._lvl_list[v], g._xy_list[v])
        if not clear and not zones_ok(lu, pu, lv, pv):
            return
        linked.add((u, v))
        extra.setdefault(u, []).append((v, link.weight, link))

    # Same-level visibility between the dynamic nodes and every candidate.
    for u, (lu, pu) in pos.items():
        lvl = g.levels[lu]
        ids = np.nonzero(allowed & (g.node_level == lu))[0].tolist()
        ids += [v for v, (lv, _) in pos.items() if lv == lu and v != u]
        if not ids:
            continue
        arr = np.asarray([g._xy_list[v] if v < n else pos[v][1] for v in ids], dtype=float)
        lines = shapely.linestrings(
            np.stack([np.broadcast_to(np.asarray(pu, dtype=float), arr.shape), arr], axis=1)
        )
        seen: list[bool] = np.asarray(shapely.covers(lvl.passage_tol, lines)).tolist()
        near: list[bool] = near_zones(pu, arr, [z for z in zones if z.level == lu]).tolist()
        for v, ok, close in zip(ids, seen, near, strict=True):
            if not ok:
                continue
            pv = g._xy_list[v] if v < n else pos[v][1]
            if u != goal_node and v != start_node:
                link_dyn(
                    u,
                    v,
                    _Link("move", math.dist(pu, pv), crossings=g._crossings(lvl, pu, pv)),
                    clear=not close,
                )
            if v < n and u != start_node:
                link_dyn(
                    v,
                    u,
                    _Link("move", math.dist(pv, pu), crossings=g._crossings(lvl, pv, pu)),
                    clear=not close,
                )
    # Climbing over, onto and off terrain from the start and into the goal.
    reach = r + CLIMB_RANGE + _TOL
    far = JUMP_MAX + 2 * r + CLIMB_RANGE
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
                # Vantage levels.
                if not (d_fp <= reach or (lu != 0 and d_fp <= JUMP_MAX + r + _TOL)):
                    continue
            elif d_fp > JUMP_MAX + r + _TOL:
                continue
            cands.update(np.nonzero(g.node_level == lvl.index)[0].tolist())
        if lu != 0:
            # Off the level u is on (start) / onto it (goal): nodes within 1" of it.
            near_ids = g._near[lu]
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
            for v, w, link in out[u]:
                if not allowed_list[v] or (dash and link.climbs):
                    continue
                nd = d + w
                if plain:
                    nd -= _terrain_extra(link)
                if nd >= best.get(v, math.inf) - 1e-12:
                    continue
                if zones and not zones_ok(lu, pu, lvl_list[v], xy_list[v]):
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
    path = _make_path(q, points, links)
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
) -> MovePath:
    """Check an explicit path of a move action and cost it (3.2, 3.3, 4.6, 9.3).

    Args:
        kz, mover, action, enemies, friends, move, max_cost, graph, leave_control_range:
            as for :func:`shortest_path`.
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
    q = _Query(kz, g, mover, act, enemies, friends, limit, leave_control_range)
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
    path = _make_path(q, pts, links)
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
) -> float:
    """The inches of movement an explicit path uses (3.3): :func:`check_path`'s cost.

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
    ).cost
