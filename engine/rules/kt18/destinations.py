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

The graph's 1" zones are the KT24 control range (1", visible); the KT18 tests of where a move
ends are made here on base distances alone (1.1: no visibility in the 1" rule): a normal
move, Advance and Fall Back end more than 1" from every enemy (3.5, 3.6); a Retreat ends
further from the charger than it started and more than 1" from every other enemy (3.12); a
charge move ends within 1" of a target and more than 1" from every enemy that is not a
target (3.13). Not expressed: a path passing within 1" of an enemy it cannot see (behind a
wall) — the graph's zones only hold visible enemies; a charge path passing within 1" of a
non-target enemy it leaves again.

Listed destinations (the decisions' options): eight directions at the full and half
distance, plus for a charge three points 0.3" outside base contact with each target and for
a failed charge the points towards each target; each kept only when a legal path reaches it
and the KT18 end condition holds. Scripted input may name any other point.
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
from engine.geometry.move_values import KT18_MOVEMENT, MovementRules
from engine.geometry.movement import MoveError, move_graph, reachable_with_costs, shortest_path
from engine.rules.kt18.models import TOLERANCE
from engine.rules.kt18.tokens import add_token, remove_token

__all__ = [
    "ENEMY_RANGE",
    "EndCheck",
    "Spot",
    "charge_end_refusal",
    "closest_to_targets",
    "destinations",
    "find_path",
    "make_move",
    "movement_rules",
    "path_kind",
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
    ``"fall_back"``, ``"retreat"``, ``"charge"``, ``"failed_charge"``; module docstring)."""
    if move == "charge":
        return "charge"
    if move == "fall_back" and w.in_enemy_control_range(o):
        return "fall_back"
    return "reposition"


def _args(w: Work, o: OperativeState, kind: str, max_cost: float) -> dict[str, Any]:
    return {
        "action": kind,
        "enemies": [w.place(e) for e in w.enemies_of(o.id)],
        "friends": [w.place(f) for f in w.friends_of(o.id)],
        "move": float(w.ctx.datacards[o.id].move),
        "max_cost": float(max_cost),
        "rules": movement_rules(w, o),
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


def _spots(w: Work, o: OperativeState, limit: float, extra: Sequence[Spot]) -> list[Spot]:
    me = w.place(o)
    full = math.floor(limit + 1e-9)
    spots: list[Spot] = []
    for ux, uy in _DIRS:
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
) -> list[tuple[Spot, float]]:
    """The listed destinations of ``o``'s ``move`` of at most ``max_cost`` inches (module
    docstring): ``((x, y, elevation), cost)`` pairs, in listing order, each reached by a legal
    path and accepted by ``end_ok`` (``end -> why not or None``)."""
    if max_cost <= 0:
        return []
    kz = w.move_kz(o)
    me = w.place(o)
    args = _args(w, o, path_kind(w, o, move), max_cost)
    try:
        found = reachable_with_costs(
            kz, me, _spots(w, o, max_cost, extra), **args, graph=move_graph(kz, me.base_mm)
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
) -> tuple[Placement, float]:
    """Where ``o``'s ``move`` to ``point`` ends and what it costs (inches).

    Args:
        why: the rule cited when the move is refused (``"rules/KT18.md 3.4"``).

    Raises:
        IllegalActionError: no legal path within ``max_cost`` inches, or the end refused by
            ``end_ok`` (the message names the model, the point and the rule)."""
    kz = w.move_kz(o)
    args = _args(w, o, path_kind(w, o, move), max_cost)
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


def closest_to_targets(
    w: Work, o: OperativeState, targets: Sequence[str], reach: float
) -> list[tuple[Spot, float, float]]:
    """A failed charge's listed moves (3.13): the reachable points within ``reach`` inches
    (a normal move's path rules, ending more than 1" from every enemy) that bring ``o`` as
    close as the listing finds to a target: ``((x, y, elevation), cost, distance to the
    nearest target)`` triples, all at that least distance (reading chosen in 3.13: the move
    is optional; if made it must be the closest)."""
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

    found = destinations(w, o, "failed_charge", reach, end_ok, extra)
    if not found:
        return []
    scored = [
        (
            spot,
            cost,
            min(base_distance(w.ctx.placement(o.id, *spot), w.place(w.op(t))) for t in targets),
        )
        for spot, cost in found
    ]
    best = min(s[2] for s in scored)
    start = min(base_distance(me, w.place(w.op(t))) for t in targets)
    if best >= start - 0.01:
        return []  # no listed point is closer than where it stands
    return [s for s in scored if s[2] <= best + 0.01]


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
