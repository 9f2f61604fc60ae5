"""A move's query (rules ``rules/KT24.md`` 3.2, 3.3, 4.2, 9.3): the move actions and their
distances (:func:`max_move`), the control range of enemies and the zones a move keeps out
of (:data:`AvoidZone`), and :class:`_Query`, the checks a path search
(:func:`engine.geometry.move_paths.shortest_path`), an explicit path
(:func:`~engine.geometry.move_paths.check_path`) and the candidate destinations
(:mod:`engine.geometry.move_destinations`) share; and the results, :class:`MovePath` and its
:class:`Increment` values. The model is described in :mod:`engine.geometry.movement`.
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable, Sequence
from typing import cast

import attrs
import numpy as np
import shapely
from numpy.typing import NDArray

from engine.errors import KillTeamError
from engine.geometry.model import Killzone, Placement
from engine.geometry.move_graph import MoveGraph
from engine.geometry.move_values import (
    _ACTION_NAMES,
    _GRID,
    _SAMPLE_STEP,
    _TOL,
    CHARGE_BONUS,
    CONTROL_RANGE,
    DASH_DISTANCE,
    KT24_MOVEMENT,
    XY,
    FloatArray,
    Level,
    MoveAction,
    MovementRules,
    Point3,
    _Link,
)
from engine.geometry.sight import CONTROL_RANGE_TOLERANCE, within_control_range

__all__ = [
    "AvoidZone",
    "Increment",
    "MoveError",
    "MovePath",
    "max_move",
    "near_zone_matrix",
    "near_zones",
]


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


_LINKS_KEPT = 100_000  # classify() answers kept on a graph (MoveGraph.memo)
_CHECKS_KEPT = 100_000  # exact control range checks kept on a graph
_ZONES_KEPT = 2_000  # zone lists and engaged enemies kept on a graph


def _zones(
    graph: MoveGraph,
    enemies: Sequence[Placement],
    engaged: Sequence[bool],
    left_from: Sequence[bool],
    charge: bool,
) -> tuple[tuple[_Zone, ...], tuple[_Zone, ...]]:
    """The zones of a query (:class:`_Query`): each enemy's base on the levels at its height
    and, unless it is engaged (and not one the move left), its control range on the levels
    within 1" of its height (a prefilter disc, ``exact`` when terrain is near it); those of
    the enemies in ``left_from`` apart (the second tuple, :meth:`_Query.left_ok`). Each
    enemy's zones are kept on the graph (:func:`_enemy_zones`)."""
    zones: list[_Zone] = []
    left: list[_Zone] = []
    memo = graph.memo("enemy_zones", _ZONES_KEPT)
    for j, (e, en) in enumerate(zip(enemies, engaged, strict=True)):
        key = (e, j, en, left_from[j], charge)
        made = memo.get(key)
        if made is None:
            made = memo[key] = _enemy_zones(graph, e, j, en, left_from[j], charge)
        zones += made[0]
        left += made[1]
    return tuple(zones), tuple(left)


def _enemy_zones(
    graph: MoveGraph, e: Placement, j: int, engaged: bool, left_from: bool, charge: bool
) -> tuple[tuple[_Zone, ...], tuple[_Zone, ...]]:
    """The zones of enemy ``e`` (index ``j`` in the query's enemies), level by level, as
    :func:`_zones` orders them: its base, then its control range (in the second tuple when
    the move left it)."""
    zones: list[_Zone] = []
    left: list[_Zone] = []
    r = graph.radius
    where = f"({e.x:g}, {e.y:g})"
    for lvl in graph.levels:
        dz = abs(lvl.height - e.elevation)
        if dz <= 1e-6:
            zones.append(
                _Zone(
                    e.x,
                    e.y,
                    e.radius + r + _GRID,
                    lvl.index,
                    False,
                    f"the enemy operative at {where}",
                )
            )
        if (engaged and not left_from) or dz >= CONTROL_RANGE:
            continue
        reach = e.radius + r + math.sqrt(CONTROL_RANGE**2 - dz * dz) + _GRID
        # Without terrain in the disc nothing can block sight nor lengthen the 1" around
        # a wall: the disc is the control range (4.2) and needs no exact check.
        exact = graph.terrain_near(e.x, e.y, reach)
        (left if left_from else zones).append(
            _Zone(
                e.x,
                e.y,
                reach,
                lvl.index,
                charge,
                f"the control range of the enemy operative at {where}",
                enemy=j,
                exact=exact,
            )
        )
    return tuple(zones), tuple(left)


def near_zones(start: XY, ends: FloatArray, zones: Sequence[_Zone]) -> NDArray[np.bool_]:
    """For straight links from ``start`` to each of ``ends`` (array (N, 2), inches) on the
    level of ``zones``: whether the link comes within 1e-9" of a zone's disc. A link that does
    not keeps out of every zone (:meth:`_Query.zones_ok` holds for it, whatever the zone);
    the others need the exact check."""
    if not zones or ends.shape[0] == 0:
        return np.zeros(ends.shape[0], dtype=bool)
    near: NDArray[np.bool_] = np.asarray(near_zone_matrix(start, ends, zones).any(axis=0))
    return near


def near_zone_matrix(start: XY, ends: FloatArray, zones: Sequence[_Zone]) -> NDArray[np.bool_]:
    """:func:`near_zones` zone by zone: array (Z, N), whether the link to ``ends[k]`` comes
    within 1e-9" of the disc of ``zones[j]`` (only those zones can refuse it,
    :meth:`_Query.zones_ok` with ``among``)."""
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
    near: NDArray[np.bool_] = dist < zr - 1e-6 + 1e-9
    return near


def _columns_where(mask: NDArray[np.bool_]) -> list[list[int]]:
    """For each row of the 2-D ``mask``, the indices of its true columns, in order."""
    out: list[list[int]] = [[] for _ in range(mask.shape[0])]
    rows, cols = np.nonzero(mask)
    for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
        out[r].append(c)
    return out


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
        rules: MovementRules = KT24_MOVEMENT,
    ) -> None:
        self.kz = kz
        #: How the increments count (:class:`MovementRules`; KT24's by default).
        self.rules = rules
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
        # Answers shared by the searches of this query and, kept on the graph (its bounded
        # memos, keyed by value) when the graph is the killzone's, by later queries:
        # classify() of dynamic links (a pure function of the graph) and the exact control
        # range checks (of the killzone, the mover's base and height and the enemy).
        shared = graph.kz is kz
        self.links: dict[tuple[int, XY, int, XY], _Link | str] = (
            graph.memo("links", _LINKS_KEPT) if shared else {}
        )
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
        if action == "fall_back":
            self.engaged = [True] * len(self.enemies)
        elif shared:
            memo = graph.memo("engaged", _ZONES_KEPT)
            key = (self.enemies, self.friends)
            engaged = memo.get(key)
            if engaged is None:
                engaged = memo[key] = _engaged(kz, self.enemies, self.friends)
            self.engaged = list(engaged)
        else:
            self.engaged = _engaged(kz, self.enemies, self.friends)
        self.leave = bool(in_range) and leave_control_range and action == "charge"
        # The enemies whose control range only that rule makes passable: once left, it may
        # be entered again only to finish there (:meth:`left_ok`).
        left_from = [
            self.leave and not en and any(e is i for i in in_range)
            for e, en in zip(self.enemies, self.engaged, strict=True)
        ]
        if self.leave:
            # A rule lets this Charge start within the control range of enemies and leave
            # it: their control range is passable as an engaged enemy's is.
            self.engaged = [
                en or any(e is i for i in in_range)
                for e, en in zip(self.enemies, self.engaged, strict=True)
            ]
        # Exact control range checks along links and at nodes, keyed by (mover's base and
        # height, enemy, levels, points).
        self.shape = (mover.base_mm, mover.model_height)
        # zones_ok() of the graph's own links (node to node), for the searches of this
        # query (Reposition and Dash share it, :meth:`variant`: their zones are the same).
        self.static_ok: dict[tuple[int, int], bool] = {}
        # zones_ok() of the links to, from and between the points a search adds (the start,
        # the goal, corners around zones), by their levels and points.
        self.link_ok: dict[tuple[int, XY, int, XY], bool] = {}
        self.in_range: dict[tuple[object, ...], bool] = (
            graph.memo("in_range", _CHECKS_KEPT) if shared else {}
        )
        self.crosses: dict[tuple[object, ...], bool] = (
            graph.memo("crosses", _CHECKS_KEPT) if shared else {}
        )
        zones_key = (self.enemies, tuple(self.engaged), tuple(left_from), action == "charge")
        zones_memo = graph.memo("zones", _ZONES_KEPT) if shared else {}
        made = zones_memo.get(zones_key)
        if made is None:
            made = zones_memo[zones_key] = _zones(
                graph, self.enemies, self.engaged, left_from, action == "charge"
            )
        self.zones: list[_Zone] = list(made[0])
        self.left: list[_Zone] = list(made[1])
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
        e = self.enemies[zone.enemy]
        key = (self.shape, e, zone.level, p)
        hit = self.in_range.get(key)
        if hit is None:
            z = self.g.levels[zone.level].height
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
        key: tuple[object, ...] = ()
        if zone.test is None:
            key = (self.shape, self.enemies[zone.enemy], zone.radius, lu, pu, pv)
            hit = self.crosses.get(key)
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

    def zones_ok(
        self, lu: int, pu: XY, lv: int, pv: XY, among: Sequence[_Zone] | None = None
    ) -> bool:
        """Whether the straight link ``pu`` (level ``lu``) -> ``pv`` (level ``lv``) keeps out
        of every zone the action forbids (3.2): it enters no enemy base and no control range
        the action may not enter; for a Charge, once within a control range it may not
        leave it (``final_only`` zones). With ``among``, only those of the zones are
        checked (the others known to keep clear of the link, :func:`near_zone_matrix`)."""
        in_zone, crosses_zone = self.zone_contains, self.zone_crosses
        ax, ay = pu
        dx, dy = pv[0] - ax, pv[1] - ay
        d2 = dx * dx + dy * dy
        hypot = math.hypot
        for zone in self.zones if among is None else among:
            zl = zone.level
            if zl != lu and zl != lv:
                continue
            # The link's distance from the disc's centre, as zone.hits() computes it: a link
            # clear of the disc (with a 1e-9" margin for the ends, measured on their own by
            # zone.inside()) neither enters it nor starts or ends in it.
            cx, cy = zone.x, zone.y
            t = 0.0 if d2 == 0 else max(0.0, min(1.0, ((cx - ax) * dx + (cy - ay) * dy) / d2))
            if hypot(ax + t * dx - cx, ay + t * dy - cy) >= zone.radius - 1e-6 + 1e-9:
                continue
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
