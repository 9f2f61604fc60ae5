"""Where a KT18 model may move (``rules/KT18.md`` 3.2-3.7, 3.12, 3.13): the shared movement
graph (:mod:`engine.geometry.movement`) with KT18's movement parameters
(:data:`engine.geometry.move_values.KT18_MOVEMENT`; FLY when the datasheet has the keyword,
3.3), and the KT18 conditions on where a move ends.

Path rules, by kind of move (the movement graph's path kinds):

- a normal move, an Advance, a Retreat and a failed charge's move: ``"reposition"`` (never
  into an enemy's 1" along the path, 3.5, 3.12, 3.13);
- a Fall Back: ``"fall_back"`` (it may pass close to enemies, 3.6), or ``"reposition"`` when
  no enemy is within 1" of it any more;
- a charge move: ``"charge"`` (it ends within 1" of an enemy; once within 1" of an enemy it
  stays within it, 3.13).

The graph's 1" zones are the KT24 control range (1", visible); the KT18 1" rule has no
visibility (1.1) and no exception for an enemy a friend is already near, so each move also
keeps out of regions of its own (:func:`avoid_zones`, the graph's ``avoid``): every point of
the path of a normal move, Advance, Retreat or failed charge's move is more than 1" from
every enemy, measured between the bases (3.5 reading (b), 3.12, 3.13), even behind a wall;
every point of a charge path is more than 1" from every enemy that is not a target (3.13
reading (b)). A Fall Back and a pile-in have no such region (3.6: only the end counts; 7.7).
The tests of where a move ends are made here on base distances too: a normal move, Advance
and Fall Back end more than 1" from every enemy (3.5, 3.6); a Retreat ends further from the
charger than it started and more than 1" from every other enemy (3.12); a charge move ends
within 1" of a target and more than 1" from every enemy that is not a target (3.13).

Listed destinations (the decisions' options): eight directions at the full and half
distance, plus for a charge three points 0.3" outside base contact with each target and for
a failed charge the points of :func:`closest_to_targets`; each kept only when a legal path
reaches it and the KT18 end condition holds. Scripted input may name any other point.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from engine.game.actions import IllegalActionError
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.geometry import Placement
from engine.geometry.distances import distance as base_distance
from engine.geometry.move_query import AvoidZone
from engine.geometry.move_values import KT18_MOVEMENT, MovementRules
from engine.geometry.movement import (
    MoveError,
    move_graph,
    reachable_with_costs,
    shortest_path,
    straight_reach,
)
from engine.rules.kt18.models import TOLERANCE
from engine.rules.kt18.tokens import add_token, remove_token

__all__ = [
    "ENEMY_RANGE",
    "EndCheck",
    "Spot",
    "avoid_zones",
    "charge_end_refusal",
    "closest_to_targets",
    "destinations",
    "find_path",
    "make_move",
    "movement_rules",
    "path_kind",
    "pile_in_path",
    "plain_end_refusal",
]

ENEMY_RANGE = 1.0
"""Inches: the 1" rule (3.5)."""

Spot = tuple[float, float, float]
EndCheck = Callable[[Placement], "str | None"]

_DIRS = tuple((math.cos(2 * math.pi * k / 8), math.sin(2 * math.pi * k / 8)) for k in range(8))


def movement_rules(w: Work, o: OperativeState) -> MovementRules:
    """How ``o``'s moves count (3.2, 3.3): :data:`KT18_MOVEMENT`, with FLY when its
    datasheet has the keyword."""
    keywords = w.ctx.datacards[o.id].keywords
    return KT18_MOVEMENT.with_fly(any(k.upper() == "FLY" for k in keywords))


def path_kind(w: Work, o: OperativeState, move: str) -> str:
    """The movement graph's path rules of ``o``'s KT18 ``move`` (``"move"``, ``"advance"``,
    ``"fall_back"``, ``"retreat"``, ``"charge"``, ``"failed_charge"``; module docstring; a
    pile-in: :func:`pile_in_path`)."""
    if move == "charge":
        return "charge"
    if move == "fall_back" and w.in_enemy_control_range(o):
        return "fall_back"
    return "reposition"


def _within_test(enemy: Placement, radius: float) -> Callable[[float, float, float], bool]:
    """Whether a base of ``radius`` inches centred at ``(x, y, z)`` is within 1" of
    ``enemy``'s base (1.1: closest points, in three dimensions between levels)."""

    def test(x: float, y: float, z: float) -> bool:
        gap = max(0.0, math.hypot(x - enemy.x, y - enemy.y) - radius - enemy.radius)
        return math.hypot(gap, z - enemy.elevation) <= ENEMY_RANGE + TOLERANCE

    return test


def avoid_zones(
    w: Work, o: OperativeState, move: str, targets: Sequence[str] = ()
) -> list[AvoidZone]:
    """The regions every point of ``o``'s ``move`` keeps out of (module docstring): within
    1" of an enemy's base (of an enemy that is not one of ``targets`` for a ``"charge"``);
    none for a ``"fall_back"`` or ``"pile_in"`` (3.5, 3.6, 3.12, 3.13, 7.7)."""
    if move in ("fall_back", "pile_in"):
        return []
    me = w.place(o)
    out: list[AvoidZone] = []
    for e in w.enemies_of(o.id):
        if move == "charge" and e.id in targets:
            continue
        ep = w.place(e)
        reach = ep.radius + me.radius + ENEMY_RANGE + 0.01
        out.append((ep.x, ep.y, reach, _within_test(ep, me.radius)))
    return out


def _args(
    w: Work, o: OperativeState, move: str, max_cost: float, targets: Sequence[str] = ()
) -> dict[str, Any]:
    kind = path_kind(w, o, move)
    return {
        "action": kind,
        "enemies": [w.place(e) for e in w.enemies_of(o.id)],
        "friends": [w.place(f) for f in w.friends_of(o.id)],
        "move": float(w.ctx.datacards[o.id].move),
        "max_cost": float(max_cost),
        "rules": movement_rules(w, o),
        "avoid": avoid_zones(w, o, move, targets),
    }


def plain_end_refusal(w: Work, o: OperativeState, end: Placement) -> str | None:
    """Why a normal move, Advance or Fall Back of ``o`` may not end at ``end`` (3.5, 3.6:
    within 1" of an enemy), or ``None``."""
    for e in w.enemies_of(o.id):
        if base_distance(end, w.place(e)) <= ENEMY_RANGE + TOLERANCE:
            return f'it would end within 1" of the enemy model {e.id}'
    return None


def charge_end_refusal(
    w: Work, o: OperativeState, targets: Sequence[str], end: Placement
) -> str | None:
    """Why a charge move of ``o`` may not end at ``end`` (3.13): not within 1" of a target,
    or within 1" of an enemy that is not a target; ``None`` when it may."""
    near = [
        e.id
        for e in w.enemies_of(o.id)
        if base_distance(end, w.place(e)) <= ENEMY_RANGE + TOLERANCE
    ]
    if not any(t in near for t in targets):
        return f'it would not end within 1" of a target ({", ".join(targets)})'
    others = [e for e in near if e not in targets]
    if others:
        return f'it would end within 1" of {others[0]}, an enemy model it did not charge'
    return None


def _spots(
    w: Work, o: OperativeState, limit: float, extra: Sequence[Spot], directions: bool = True
) -> list[Spot]:
    me = w.place(o)
    full = math.floor(limit + 1e-9)
    spots: list[Spot] = []
    for ux, uy in _DIRS if directions else ():
        for dist in sorted({float(full), max(1.0, full / 2)}):
            if 0.05 < dist <= limit + 1e-9:
                spots.append((round(me.x + ux * dist, 3), round(me.y + uy * dist, 3), me.elevation))
    kz = w.move_kz(o)
    return [s for s in (*spots, *extra) if 0 <= s[0] <= kz.width and 0 <= s[1] <= kz.depth]


def destinations(
    w: Work,
    o: OperativeState,
    move: str,
    max_cost: float,
    end_ok: EndCheck,
    extra: Sequence[Spot] = (),
    targets: Sequence[str] = (),
    *,
    directions: bool = True,
) -> list[tuple[Spot, float]]:
    """The listed destinations of ``o``'s ``move`` of at most ``max_cost`` inches (module
    docstring): ``((x, y, elevation), cost)`` pairs, in listing order, each reached by a legal
    path and accepted by ``end_ok`` (``end -> why not or None``); ``targets``: a charge's;
    ``directions``: with the eight directions (else only ``extra``)."""
    if max_cost <= 0:
        return []
    kz = w.move_kz(o)
    me = w.place(o)
    args = _args(w, o, move, max_cost, targets)
    try:
        found = reachable_with_costs(
            kz,
            me,
            _spots(w, o, max_cost, extra, directions),
            **args,
            graph=move_graph(kz, me.base_mm),
        )
    except MoveError:
        return []
    out: dict[Spot, float] = {}
    for f, cost in found:
        spot = (f.x, f.y, f.elevation)
        if (f.x, f.y, f.elevation) != (me.x, me.y, me.elevation) and end_ok(f) is None:
            out.setdefault(spot, cost)
    return list(out.items())


def find_path(
    w: Work,
    o: OperativeState,
    move: str,
    max_cost: float,
    point: Spot,
    end_ok: EndCheck,
    why: str,
    targets: Sequence[str] = (),
) -> tuple[Placement, float]:
    """Where ``o``'s ``move`` to ``point`` ends and what it costs (inches).

    Args:
        why: the rule cited when the move is refused (``"rules/KT18.md 3.4"``).
        targets: a charge's targets (the 1" rule along its path spares them, 3.13).

    Raises:
        IllegalActionError: no legal path within ``max_cost`` inches, or the end refused by
            ``end_ok`` (the message names the model, the point and the rule)."""
    kz = w.move_kz(o)
    args = _args(w, o, move, max_cost, targets)
    where = f"({point[0]:g}, {point[1]:g})"
    refusal = end_ok(w.ctx.placement(o.id, *point))
    if refusal is not None:  # the KT18 end condition first: it names the KT18 rule
        raise IllegalActionError(f"{o.id} cannot move to {where}: {refusal} ({why})")
    try:
        path = shortest_path(kz, w.place(o), point, **args)
    except MoveError as exc:
        raise IllegalActionError(f"{o.id} cannot move to {where}: {exc} ({why})") from None
    if path is None:
        raise IllegalActionError(
            f'{o.id} cannot move to {where}: no legal path within {max_cost:g}" ({why})'
        )
    refusal = end_ok(path.final)
    if refusal is not None:
        raise IllegalActionError(f"{o.id} cannot move to {where}: {refusal} ({why})")
    return path.final, path.cost


RING_STEP = 0.25
"""Inches between the rings of points around a target a failed charge's listing tries."""
RING_POINTS = 24
"""Points on each ring (every 15 degrees)."""
MAX_RINGS = 24
"""The most rings a failed charge's listing tries (bounds its work: 6" of rings)."""


def _ring(w: Work, o: OperativeState, target: str, gap: float, reach: float) -> list[Spot]:
    """Points where ``o``'s base would be ``gap`` inches from ``target``'s (horizontally, on
    ``o``'s level and the target's), kept when within ``reach`` of ``o`` in a straight line
    (no path is shorter)."""
    me = w.place(o)
    tp = w.place(w.op(target))
    r = tp.radius + me.radius + gap
    levels = sorted({me.elevation, tp.elevation})
    out: list[Spot] = []
    for k in range(RING_POINTS):
        a = 2 * math.pi * k / RING_POINTS
        x, y = round(tp.x + r * math.cos(a), 3), round(tp.y + r * math.sin(a), 3)
        if math.hypot(x - me.x, y - me.y) <= reach + TOLERANCE:
            out += [(x, y, z) for z in levels]
    return out


def closest_to_targets(
    w: Work, o: OperativeState, targets: Sequence[str], reach: float
) -> list[tuple[Spot, float, float]]:
    """A failed charge's listed moves (3.13): the reachable points within ``reach`` inches
    (a normal move's path rules, every point of the path more than 1" from every enemy, and
    ending so) that bring ``o`` as close as it can get to a target: ``((x, y, elevation),
    cost, distance to the nearest target)`` triples, all at that least distance (reading
    chosen in 3.13: the move is optional; if made it must be the closest); empty when no
    point is closer than where it stands.

    The search: the eight directions, the straight line to each target (as far as the roll
    or to just outside 1" of it); when that is not provably the closest (not ``reach``
    inches nearer, nor at the 1" limit), rings of points around each target from the 1"
    limit outward every :data:`RING_STEP` inches (at most :data:`MAX_RINGS`), the first
    ring with a reachable point giving the answer (to within ``RING_STEP``)."""
    me = w.place(o)
    extra: list[Spot] = []
    for t in targets:
        tp = w.place(w.op(t))
        d = math.hypot(tp.x - me.x, tp.y - me.y)
        gap = d - (tp.radius + me.radius + ENEMY_RANGE + 0.05)
        if d <= 1e-9 or gap <= 0.05:
            continue
        step = min(reach, gap)
        extra.append(
            (
                round(me.x + (tp.x - me.x) * step / d, 3),
                round(me.y + (tp.y - me.y) * step / d, 3),
                me.elevation,
            )
        )
    me_o = o

    def end_ok(end: Placement) -> str | None:
        return plain_end_refusal(w, me_o, end)

    def scored(spots: Sequence[Spot], directions: bool) -> list[tuple[Spot, float, float]]:
        found = destinations(w, o, "failed_charge", reach, end_ok, spots, directions=directions)
        return [
            (
                spot,
                cost,
                min(base_distance(w.ctx.placement(o.id, *spot), w.place(w.op(t))) for t in targets),
            )
            for spot, cost in found
        ]

    out = scored(extra, True)
    start = min(base_distance(me, w.place(w.op(t))) for t in targets)
    best = min((s[2] for s in out), default=math.inf)
    lower = max(start - reach, ENEMY_RANGE)  # no move of ``reach`` inches ends closer
    gap = lower + 0.02
    for _ in range(MAX_RINGS):
        if best <= lower + 0.06 or gap >= best - 0.01:
            break
        ring = [p for t in targets for p in _ring(w, o, t, gap, reach)]
        found = [s for s in scored(ring, False) if s[2] < best - 0.01]
        if found:
            out += found
            best = min(s[2] for s in found)
            break
        gap += RING_STEP
    if best >= start - 0.01:
        return []  # no point found is closer than where it stands
    return [s for s in out if s[2] <= best + 0.01]


def make_move(w: Work, o: OperativeState, move: str, end: Placement, cost: float) -> None:
    """Move ``o`` to ``end`` (``cost`` inches of movement) as its ``move`` (``"move"``,
    ``"advance"``, ``"fall_back"``, ``"retreat"``, ``"charge"``, ``"failed_charge"``): the
    ``moved`` event, the ``moved`` token (Heavy, ``rules/KT18.md`` 5.9), and a Readied model
    stops being Readied (3.8)."""
    w.set_op(o.id, x=end.x, y=end.y, elevation=end.elevation)
    add_token(w, o.id, "moved")
    remove_token(w, o.id, "readied")
    w.emit(
        "moved",
        op=o.id,
        action=move.replace("_", " "),
        x=end.x,
        y=end.y,
        z=end.elevation,
        cost=cost,
        x0=o.x,
        y0=o.y,
        z0=o.elevation,
    )


def _crosses_a_base(w: Work, o: OperativeState, end: Placement) -> str | None:
    """The id of a model whose base the straight line from ``o`` to ``end`` passes across on
    its level (3.2: never across other models), or ``None``."""
    me = w.place(o)
    ax, ay, bx, by = me.x, me.y, end.x, end.y
    dx, dy = bx - ax, by - ay
    d2 = dx * dx + dy * dy
    for other in w.ops:
        if other.id == o.id or not other.alive or abs(other.elevation - o.elevation) > 1e-6:
            continue
        p = w.place(other)
        t = 0.0 if d2 == 0 else max(0.0, min(1.0, ((p.x - ax) * dx + (p.y - ay) * dy) / d2))
        if math.hypot(ax + t * dx - p.x, ay + t * dy - p.y) < p.radius + me.radius - 1e-3:
            return other.id
    return None


def pile_in_path(
    w: Work, o: OperativeState, point: Spot, max_cost: float, why: str
) -> tuple[Placement, float]:
    """Where ``o``'s pile-in or consolidation (``rules/KT18.md`` 7.7) to ``point`` ends and
    what it costs (inches, at most ``max_cost``), over the terrain (3.2, 3.3: terrain costs
    apply, 7.7): a straight move on its level when the base can stand all along the line
    and crosses no model; else the shared movement graph's cheapest path (a charge path that
    may leave the 1" it starts in, else a Fall Back path, else a normal one: the first the
    graph finds; the KT18 1" rule does not apply to these moves).

    Raises:
        IllegalActionError: no such path (naming the model, the point and ``why``)."""
    kz = w.move_kz(o)
    me = w.place(o)
    end = w.ctx.placement(o.id, *point)
    where = f"({point[0]:g}, {point[1]:g})"
    length = math.hypot(end.x - me.x, end.y - me.y)
    if abs(end.elevation - me.elevation) <= 1e-6 and length <= max_cost + TOLERANCE:
        if length <= 1e-9:
            return end, 0.0
        ux, uy = (end.x - me.x) / length, (end.y - me.y) / length
        (room,) = straight_reach(
            kz, me, [(ux, uy)], length + 0.02, graph=move_graph(kz, me.base_mm)
        )
        if room >= length - 1e-6 and _crosses_a_base(w, o, end) is None:
            return end, length
    base: dict[str, Any] = {
        "enemies": [w.place(e) for e in w.enemies_of(o.id)],
        "friends": [w.place(f) for f in w.friends_of(o.id)],
        "move": float(w.ctx.datacards[o.id].move),
        "max_cost": float(max_cost),
        "rules": movement_rules(w, o),
    }
    problem = f'no path within {max_cost:g}" over the terrain'
    for kind in ("charge", "fall_back", "reposition"):
        try:
            path = shortest_path(kz, me, point, action=kind, leave_control_range=True, **base)
        except MoveError as exc:
            problem = str(exc)
            continue
        if path is not None:
            return path.final, path.cost
    raise IllegalActionError(f"{o.id} cannot move to {where}: {problem} ({why})")
