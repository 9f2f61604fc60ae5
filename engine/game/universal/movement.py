"""The move actions (``rules/KT24.md`` 3.2, 3.3, 1.6): Reposition, Dash, Fall Back and Charge,
their distances and listed destinations, the move itself, the route a move took (for rules
judging it afterwards) and a rule ending an action in the middle (:func:`cut_action`)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import attrs

from engine.game.actions import (
    Action,
    IllegalActionError,
)
from engine.game.bookkeeping import (
    Listing,
    UniversalAction,
    charge_in_control_range,
    cite,
    declare,
    precheck,
    spend,
    wording,
)
from engine.game.events import Event
from engine.game.markers import carry_along
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.geometry import Killzone, Placement
from engine.geometry.movement import (
    MoveError,
    MovementRules,
    MovePath,
    ReachMemo,
    max_move,
    move_graph,
    reachable_with_costs,
    shortest_path,
    straight_reach,
)
from engine.geometry.sight import CONTROL_RANGE

__all__ = [
    "ACTION_CUT",
    "CHARGE",
    "COUNTERACT_MOVE",
    "DASH",
    "FALL_BACK",
    "MOVE_ACTION",
    "REPOSITION",
    "MoveAction",
    "action_cut",
    "charge_possible",
    "charge_spots",
    "counteract_left",
    "cut_action",
    "destination_refused",
    "do_move",
    "header_refusal",
    "move_args",
    "move_candidates",
    "move_destinations",
    "move_limit",
    "move_route",
    "note_counteract_move",
    "route_distance",
    "route_key",
]


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


COUNTERACT_MOVE = 2.0  # inches (1.6)


def _counteraction(w: Work, op: str) -> int:
    """The index in the stack of ``op``'s counteraction in progress (its activation frame
    with mode ``"counteract"``, under any free action a rule gives it meanwhile), or -1."""
    for i in range(len(w.stack) - 1, -1, -1):
        f = w.stack[i]
        if getattr(f, "mode", "") == "counteract" and getattr(f, "op", "") == op:
            return i
    return -1


def counteract_left(w: Work, op: str) -> float | None:
    """The inches ``op`` may still move in its counteraction in progress, or ``None`` when
    it is not counteracting (1.6: it cannot move more than 2" during the counteraction, in
    all: a budget across every move made in it, its action's and any a rule adds, a free
    Dash, a team rule's move, a set-up elsewhere; this takes precedence over all other
    rules)."""
    i = _counteraction(w, op)
    if i < 0:
        return None
    return max(0.0, COUNTERACT_MOVE - float(getattr(w.stack[i], "travelled", 0.0)))


def note_counteract_move(w: Work, op: str, inches: float) -> None:
    """Count ``inches`` moved by ``op`` against its counteraction's 2" (1.6), when it is
    counteracting (nothing otherwise). :func:`do_move` counts each move action's (a free
    one's too); a rule that moves an operative its own way (a move of its own, a set-up
    elsewhere) counts the distance itself, as it checks it against
    :func:`counteract_left`."""
    i = _counteraction(w, op)
    if i < 0 or inches <= 0:
        return
    f = w.stack[i]
    w.stack[i] = attrs.evolve(f, travelled=round(float(f.travelled) + float(inches), 6))


MOVE_ACTION = {
    "Reposition": "reposition",
    "Dash": "dash",
    "Fall Back": "fall_back",
    "Charge": "charge",
    "Normal Move": "reposition",  # KT21's (rules/KT21.md 6.1): KT24's Reposition's path
}
"""The movement query's action (distance and path rules) of each move verb."""


def move_args(
    w: Work,
    o: OperativeState,
    verb: str,
    mode: str,
    kind: str | None = None,
    rules: MovementRules | None = None,
) -> dict[str, Any]:
    """Keyword arguments of the movement queries for ``o``'s move action (``max_cost`` is
    the action's distance, at most 2" in a counteraction, 1.6; ``action`` the path rules of
    ``kind`` when given (a ruleset's move with another move's path rules: KT21's Dash climbs
    like a Normal Move, ``rules/KT21.md`` 6.1), else of ``verb``; ``leave_control_range`` for
    a Charge a rule lets start within an enemy's control range,
    :func:`charge_in_control_range`; ``terrain_extras=False`` when a rule drops the
    Accessible and Obstructing extra inches for this move, the
    ``would_ignore_terrain_extras`` hooks: ``fn(w, False, op=, action=) -> bool``; ``rules``
    the ruleset's :class:`~engine.geometry.move_values.MovementRules` when given, e.g.
    KT21's, ``rules/KT21.md`` 7.3, 7.4: absent, the queries count KT24's 3.3)."""
    enemies = [w.place(e) for e in w.enemies_of(o.id)]
    friends = [w.place(f) for f in w.friends_of(o.id)]
    move = w.move_stat(o)
    args: dict[str, Any] = {
        "action": kind or MOVE_ACTION[verb],
        "enemies": enemies,
        "friends": friends,
        "move": move,
        "max_cost": _limit(w, o, verb, mode, move),
    }
    if verb == "Charge" and charge_in_control_range(w, o) and w.in_enemy_control_range(o):
        args["leave_control_range"] = True
    if w.ctx.hooks.would.get("would_ignore_terrain_extras") and w.would(
        "would_ignore_terrain_extras", False, op=o.id, action=verb
    ):
        args["terrain_extras"] = False
    if rules is not None:
        args["rules"] = rules
    return args


def _limit(w: Work, o: OperativeState, verb: str, mode: str, move: float) -> float:
    """The distance of ``o``'s move action ``verb`` in ``mode`` (:func:`move_args`)."""
    limit = max_move(MOVE_ACTION[verb], move)
    if w.ctx.hooks.would.get("would_move_distance"):
        # Rules that lengthen one move action only (a team's +1" to Reposition).
        limit = w.would("would_move_distance", limit, op=o.id, action=verb)
    if mode == "free":
        cap = next(
            (f.max_move for f in reversed(w.stack) if getattr(f, "mode", "") == "free"), -1.0
        )
        if cap >= 0:
            limit = min(cap, limit)
    if mode in ("counteract", "free"):
        # In a counteraction, whatever move it is (its action, a free action a rule gives
        # it meanwhile): what is left of its 2" (1.6).
        left = counteract_left(w, o.id)
        if left is not None:
            limit = min(left, limit)
    return float(limit)


def move_limit(w: Work, o: OperativeState, verb: str, mode: str) -> float:
    """The most ``o`` may move, in inches, with the move action ``verb`` (3.2) in ``mode``
    (``"activation"``, ``"counteract"``: at most 2", 1.6; ``"free"``: at most what the free
    action allows): the ``max_cost`` of :func:`move_args`, without placing anyone."""
    return _limit(w, o, verb, mode, w.move_stat(o))


def charge_possible(w: Work, o: OperativeState, mode: str) -> bool:
    """A cheap sufficient test that ``o``'s Charge (3.2) has no destination when false: no
    enemy operative's base centre is within the Charge's distance plus both base radii plus
    the control range (1") of ``o``'s (a Charge ends within an enemy's control range and a
    move covers at least the straight distance). When true a destination may still lack (the
    destination decision then offers ``Back``)."""
    enemies = w.enemies_of(o.id)
    if not enemies:
        return False
    me = w.place(o)
    reach = move_limit(w, o, "Charge", mode) + me.radius + CONTROL_RANGE + 0.05
    for e in enemies:
        ep = w.place(e)
        if math.hypot(ep.x - me.x, ep.y - me.y) <= reach + ep.radius:
            return True
    return False


_DIRS = tuple((math.cos(2 * math.pi * k / 8), math.sin(2 * math.pi * k / 8)) for k in range(8))


_REACH_RAY = 9.0  # inches: longer than any move (Charge: Move + 2")


def charge_spots(
    w: Work, o: OperativeState, me: Placement, limit: float
) -> list[tuple[float, float, float]]:
    """The Charge destinations listed for ``o`` at ``me`` against each enemy operative whose
    base is within ``limit`` inches (plus the ring) of it: three points (straight towards
    ``o`` and 45 degrees either side) on a ring 0.3" outside base contact with the enemy,
    ``(x, y, elevation)`` in inches, in enemy order (3.2 Charge; the candidates
    :func:`move_candidates` lists, and what a rule that charges on another killzone must
    offer too, e.g. the Kommandos' Breach)."""
    spots: list[tuple[float, float, float]] = []
    for e in w.enemies_of(o.id):
        ep = w.place(e)
        ring = ep.radius + me.radius + 0.3
        if math.hypot(ep.x - me.x, ep.y - me.y) > limit + ring:
            continue
        ang0 = math.atan2(me.y - ep.y, me.x - ep.x)
        for k in (0, 1, -1):
            ang = ang0 + k * math.pi / 4
            spots.append((ep.x + ring * math.cos(ang), ep.y + ring * math.sin(ang), ep.elevation))
    return spots


def move_candidates(
    w: Work,
    o: OperativeState,
    verb: str,
    mode: str,
    memo: ReachMemo | None = None,
    kind: str | None = None,
    rules: MovementRules | None = None,
) -> list[tuple[float, float, float]]:
    """Deterministic destinations for listing: 8 directions at the full and half distance,
    objective markers in reach, and for a Charge spots around enemies in reach; each kept
    only if a legal path reaches it. Scripted input may name any other exact point.

    Args:
        memo: shared by the move actions listed from one position (:class:`ReachMemo`).
        kind, rules: the path rules (:func:`move_args`)."""
    kz = w.move_kz(o)
    args = move_args(w, o, verb, mode, kind, rules)
    limit = args["max_cost"]
    full = math.floor(limit + 1e-9)
    me = w.place(o)
    spots: list[tuple[float, float, float]] = []
    reaches = w.ctx.cached(
        ("reach", id(kz), me), lambda: tuple(straight_reach(kz, me, _DIRS, _REACH_RAY))
    )
    for (ux, uy), reach in zip(_DIRS, reaches, strict=True):
        far = min(full, reach)
        for dist in sorted({far, min(far, max(1.0, full / 2))}):
            if dist > 0.05:
                spots.append((me.x + ux * dist, me.y + uy * dist, me.elevation))
    for m in w.markers:
        if m.carrier:
            continue
        d = math.hypot(m.x - me.x, m.y - me.y)
        if d <= limit + 1.5 and d > 0.5:
            spots.append((m.x, m.y, 0.0))
    if verb == "Charge":
        spots += charge_spots(w, o, me, limit)
    found = reachable_with_costs(kz, me, spots, **args, graph=move_graph(kz, me.base_mm), memo=memo)
    # do_move of a listed destination finds its outcome here instead of searching again.
    outcomes = {(f.x, f.y, f.elevation): (f, cost) for f, cost in found}
    w.ctx.remember(_moves_key(kz, me, args), outcomes)
    return list(outcomes)


def _moves_key(kz: Killzone, me: Placement, args: dict[str, Any]) -> tuple[Any, ...]:
    """The battle-cache key of the listed outcomes of one move action from one position:
    everything :func:`shortest_path` reads but the destination."""
    return (
        "moves",
        id(kz),
        me,
        args["action"],
        args["max_cost"],
        args["move"],
        tuple(args["enemies"]),
        tuple(args["friends"]),
        bool(args.get("leave_control_range")),
        bool(args.get("terrain_extras", True)),
        args.get("rules"),
    )


def destination_refused(
    w: Work, o: OperativeState, verb: str, point: tuple[float, float, float]
) -> str | None:
    """Why a rule forbids ``o`` to end its move action ``verb`` at ``point`` (the
    ``would_refuse_destination`` hooks: ``fn(w, None, op=, action=, point=) -> why``; e.g. a
    free Dash that must end near another operative), or ``None``."""
    if not w.ctx.hooks.would.get("would_refuse_destination"):
        return None
    why: str | None = w.would("would_refuse_destination", None, op=o.id, action=verb, point=point)
    return why


def do_move(
    w: Work,
    o: OperativeState,
    a: Action,
    mode: str,
    kind: str | None = None,
    rules: MovementRules | None = None,
) -> None:
    """Reposition, Dash, Fall Back or Charge to ``a.point`` along the shortest legal path
    (``kind``, ``rules``: the path rules, :func:`move_args`).

    Raises:
        IllegalActionError: the destination or path is illegal (the message names the rule).
    """
    assert a.point is not None
    args = move_args(w, o, a.verb, mode, kind, rules)
    kz = w.move_kz(o)
    listed = (w.ctx.peek(_moves_key(kz, w.place(o), args)) or {}).get(a.point)
    if listed is not None:
        f, cost = listed
    else:
        # (shortest_path keeps its answers, refusals too, on the movement graph: an agent
        # checking the same unlisted spot again does not search again.)
        try:
            path = shortest_path(kz, w.place(o), a.point, **args)
        except MoveError as exc:
            raise _illegal(f"{a.verb} {o.id}: {wording(w).geometry_text(str(exc))}") from None
        if path is None:
            limit = args["max_cost"]
            raise _illegal(
                f"{a.verb} {o.id}: no legal path reaches ({a.point[0]:g}, {a.point[1]:g}) "
                f'within {limit:g}" of movement ({cite(w, "no_path")})'
                + (" (Dash cannot climb)" if args["action"] == "dash" else "")
            )
        f, cost = path.final, path.cost
        # The route taken, for rules judging it after the move (move_route).
        w.ctx.remember(route_key(kz, w.place(o), a.verb, (f.x, f.y, f.elevation), args), path)
    why = destination_refused(w, o, a.verb, (f.x, f.y, f.elevation))
    if why is not None:
        raise _illegal(why)
    spend(w, o, a.verb, mode)
    note_counteract_move(w, o.id, cost)
    w.set_op(o.id, x=f.x, y=f.y, elevation=f.elevation, moved=True)
    if w.op(o.id).on_guard:
        w.set_op(o.id, on_guard=False)
        w.emit("guard_ended", op=o.id, why="it moved")
    carry_along(w, o.id)
    w.emit(
        "moved",
        op=o.id,
        action=a.verb.lower(),
        x=f.x,
        y=f.y,
        z=f.elevation,
        cost=cost,
        x0=o.x,
        y0=o.y,
        z0=o.elevation,
    )
    if action_cut(w, o.id):
        # A rule ended the action where it stopped (a mine set off mid-move): the rest of
        # it (the ploy window after the move) does not happen.
        w.effects = [e for e in w.effects if not (e.kind == ACTION_CUT and e.op == o.id)]
        return
    if w.ctx.hooks.ploys.get("moved"):
        w.defer_window("moved", op=o.id, action=a.verb, x0=o.x, y0=o.y, z0=o.elevation)


def route_key(
    kz: Killzone, start: Placement, verb: str, end: tuple[float, float, float], args: dict[str, Any]
) -> tuple[Any, ...]:
    """The battle-cache key of the route of one move (:func:`move_route`)."""
    others = (tuple(args["enemies"]), tuple(args["friends"]))
    extras = bool(args.get("terrain_extras", True))
    return ("route", id(kz), start, verb.lower(), end, others, extras)


def move_route(w: Work, ev: Event) -> MovePath:
    """The route the move of the ``moved`` event ``ev`` took (for rules that judge where a
    move went, e.g. mines passed on the way): the movement search's path from its start
    (``x0``, ``y0``, ``z0``) to where the operative now is, for its action, within the
    distance it used (``cost``), with the other operatives where they are; the straight
    segment when the event is not a move action's (a rule's set-up, a move with a
    barricade) or no path is found. Call it from a ``moved`` hook, before the mover is
    moved again. Kept for the battle (the search is done again only for a listed move)."""
    o = w.op(str(ev["op"]))
    end = w.place(o)
    data = ev.as_dict()
    z0 = float(data["z0"]) if "z0" in data else end.elevation
    start = end.moved(float(data.get("x0", end.x)), float(data.get("y0", end.y)), z0)
    here = (end.x, end.y, end.elevation)
    verb = str(data.get("action", ""))
    act = {v.lower(): m for v, m in MOVE_ACTION.items()}.get(verb)
    others: dict[str, Any] = {
        "enemies": [w.place(e) for e in w.enemies_of(o.id)],
        "friends": [w.place(f) for f in w.friends_of(o.id)],
    }
    kz = w.move_kz(o)
    key = route_key(kz, start, verb, here, others)
    path: MovePath | None = w.ctx.peek(key)
    if path is None:  # a move a rule let drop the Accessible and Obstructing inches
        path = w.ctx.peek(route_key(kz, start, verb, here, {**others, "terrain_extras": False}))
    if path is None and act is not None and (start.x, start.y) != (end.x, end.y):

        def search(leave: bool, extras: bool = True) -> MovePath | None:
            return shortest_path(
                kz,
                start,
                here,
                action=act,
                **others,
                move=w.move_stat(o),
                max_cost=float(data.get("cost", 0.0)) + 1e-6,
                leave_control_range=leave,
                terrain_extras=extras,
            )

        try:
            path = search(False)
        except MoveError:
            try:  # a Charge a rule let start within an enemy's control range
                path = search(True)
            except MoveError:
                path = None
        if path is None:  # a move a rule let drop the Accessible and Obstructing inches
            try:
                path = search(False, False)
            except MoveError:
                path = None
        if path is not None:
            w.ctx.remember(key, path)
    if path is None:
        length = math.dist((start.x, start.y, start.elevation), here)
        points = ((start.x, start.y, start.elevation), here)
        path = MovePath(verb, points, (), length, length, end)
    return path


def route_distance(path: MovePath, x: float, y: float) -> float:
    """How far along ``path`` (horizontally, from its start) the point ``(x, y)`` on it is
    (its first segment passing within 0.01"; the whole length if none does)."""
    done = 0.0
    for (px, py, _), (qx, qy, _) in zip(path.points, path.points[1:], strict=False):
        dx, dy = qx - px, qy - py
        length = math.hypot(dx, dy)
        t = 0.0
        if length > 0:
            t = min(1.0, max(0.0, ((x - px) * dx + (y - py) * dy) / (length * length)))
        if math.hypot(px + t * dx - x, py + t * dy - y) <= 0.01:
            return done + t * length
        done += length
    return done


ACTION_CUT = "action_cut"
"""The effect kind :func:`cut_action` leaves on the operative whose action it ends."""


def cut_action(w: Work, op: str) -> None:
    """A rule ends ``op``'s action in progress now, even if its effects are not fulfilled
    (e.g. a mine set off in the middle of a move, from a ``moved`` hook): the rest of the
    action does not happen (after a move: its ``moved`` ploy window). The mark is cleared
    when the move ends or when the activation's action is complete."""
    if not action_cut(w, op):
        w.effects.append(Effect(ACTION_CUT, op, "end_tp", source=op))


def action_cut(w: Work, op: str) -> bool:
    """:func:`cut_action` ended ``op``'s action in progress."""
    return bool(w.effects) and any(e.kind == ACTION_CUT and e.op == op for e in w.effects)


def move_destinations(
    w: Work,
    o: OperativeState,
    verb: str,
    mode: str,
    memo: ReachMemo | None = None,
    kind: str | None = None,
    rules: MovementRules | None = None,
) -> list[Action]:
    """The listed destinations of ``o``'s move action ``verb`` (3.2, 3.3) in ``mode``, as
    complete actions (``Reposition KAS-1 to x,y[,z]``): the points :func:`move_candidates`
    finds, in its order, less those a rule refuses (:func:`destination_refused`). Its
    conditions (:func:`~engine.game.bookkeeping.precheck`) are the caller's to check.

    Args:
        memo: shared by the move actions listed from one position (:class:`ReachMemo`).
        kind, rules: the path rules (:func:`move_args`)."""
    refused = bool(w.ctx.hooks.would.get("would_refuse_destination"))
    return [
        Action(verb, op=o.id, point=p)
        for p in move_candidates(w, o, verb, mode, memo, kind, rules)
        if not refused or destination_refused(w, o, verb, p) is None
    ]


def header_refusal(
    w: Work, o: OperativeState, verb: str, mode: str, in_cr: bool | None
) -> str | None:
    """Why the move action ``verb`` of ``o`` is not offered as a header now (its
    :func:`~engine.game.bookkeeping.precheck`, and for a Charge no enemy close enough,
    :func:`charge_possible`), or ``None``. Destinations are not computed."""
    why = precheck(w, o, verb, mode, in_cr)
    if why is None and verb == "Charge" and not charge_possible(w, o, mode):
        why = f"{o.id} has no enemy operative within reach of a Charge ({cite(w, 'charge_reach')})"
    return why


class MoveAction(UniversalAction):
    """Reposition, Dash, Fall Back and Charge (3.2, 3.3). Listed as a header
    (``Action("Reposition", op="KAS-1")``, no point) when its conditions hold
    (:func:`header_refusal`), without computing a destination: choosing it opens the
    destination decision, whose options are :func:`move_destinations`. With
    ``Listing.destinations`` (the listing before factoring, for rules that ask whether a
    destination exists) the complete actions are listed instead. Performed along the
    shortest legal path (:func:`do_move`)."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        if self.verb in at.ruled_out or self.verb in at.unavailable:
            return
        if at.destinations:
            if precheck(w, o, self.verb, mode, at.in_cr) is None:
                yield from move_destinations(w, o, self.verb, mode, at.memo)
            return
        if header_refusal(w, o, self.verb, mode, at.in_cr) is None:
            yield Action(self.verb, op=o.id)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        do_move(w, o, a, mode)


REPOSITION = declare(
    MoveAction("Reposition", 1, excludes=("Fall Back", "Charge"), keeps_guard=True)
)
DASH = declare(MoveAction("Dash", 1, excludes=("Charge",), keeps_guard=True))
FALL_BACK = declare(MoveAction("Fall Back", 2, excludes=("Reposition", "Charge"), keeps_guard=True))
CHARGE = declare(
    MoveAction("Charge", 1, excludes=("Reposition", "Dash", "Fall Back"), keeps_guard=True)
)
