"""Tunnels, result 5 of the Sector Imperialis environment table (``rules/KT18.md`` 11.3, with
3.16, 8.2, 8.4, 8.5, 9.6), in play when the battle's environment is ``"Tunnels"``
(:func:`engine.rules.kt18.environment.environment`) and the killzone has manholes (the
layout field ``kt18_manholes``, points in inches on the floor).

- **Going down** (a ``movement_turn_start`` step, :class:`TunnelEntryFrame`): at the start of
  its player's Movement-phase turn, a model on the battlefield whose base is within 1" of a
  manhole, more than 1" from every enemy model and not shaken (8.5) may enter the tunnels;
  its player picks such models one at a time (``Act RED-1 enter the tunnels at 4,4``, the
  point naming the manhole; decision ``kt18_tunnels_enter``, offered only when a model may)
  or ``Pass``. The model is removed from the battlefield (``placed`` false) without being out
  of action: an ``Effect("kt18_tunnels", op, "end_battle", value=<battle round>,
  detail=<manhole index>)`` records the round it went down and its entry manhole.
- **Coming up** (a ``movement_turn_end`` step, :class:`TunnelExitFrame`): at the end of its
  player's Movement-phase turn in the *next* battle round, its player may place it (``Act
  RED-1 leave the tunnels at 4.5,4``; decision ``kt18_tunnels_leave``) with its base within
  1" of any manhole within 24" of its entry manhole (the entry manhole itself included),
  more than 1" from every enemy model, where its base can stand (on the battlefield, not
  overlapping a base, not in impassable terrain, 10.5). The listed spots are bounded (each
  manhole's centre and eight directions at two distances); any legal spot typed is
  accepted. The model counts as having made a normal move (the ``moved`` token: Heavy, 5.9)
  and cannot move further that battle round (the ``reinforced`` token, 3.16 reading (b)).
  ``Pass`` leaves the models not placed in the tunnels for the rest of the battle (11.3
  reading chosen: that turn is the only window).
- **While in the tunnels** a model counts as out of action for the broken check (8.2) and
  Nerve tests (8.4): :func:`in_tunnels`, read by :mod:`engine.rules.kt18.morale`. It takes no
  Nerve test (it is not on the battlefield) and controls no objective (9.4).
- **At the end of the battle** (the ``battle_ending`` event, 9.6) a model still in the
  tunnels is out of action: ``kt18_tunnels_lost``, ``kt18_out_of_action``, then it is
  incapacitated.

The engine's readings (``docs/rulings/kt18_tunnels.md``): distances to a manhole are from
the manhole's point to the closest point of the base (its elevation counted); entering the
tunnels is not one of the Movement-phase moves of 3.1, so the rule's own conditions are the
only ones.
"""

from __future__ import annotations

import math

import attrs

from engine.errors import KillTeamError
from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.deployment import check_deployment
from engine.game.events import Event, add_template
from engine.game.flow import expect
from engine.game.frame_skeleton import NoChoiceFrame
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.geometry.kt18_terrain import terrain_under
from engine.geometry.primitives import Placement
from engine.rules.kt18.environment import environment
from engine.rules.kt18.models import TOLERANCE, enemies_within, is_shaken
from engine.rules.kt18.tokens import add_token

__all__ = [
    "ENTER",
    "EXIT_RANGE",
    "LEAVE",
    "MANHOLE_RANGE",
    "TUNNELS",
    "TunnelEntryFrame",
    "TunnelExitFrame",
    "entry_manholes",
    "entry_refusal",
    "exit_problem",
    "exit_spots",
    "in_tunnels",
    "install_tunnels",
    "manhole_distance",
    "tunnel_entry",
    "waiting_to_leave",
]

TUNNELS = "kt18_tunnels"
"""The effect kind of a model in the tunnels (``value``: the battle round it went down;
``detail``: the index of its entry manhole in the layout's ``kt18_manholes``)."""
MANHOLE_RANGE = 1.0
"""Inches: a model goes down, and comes up, within this of a manhole (11.3)."""
EXIT_RANGE = 24.0
"""Inches: it comes up at a manhole within this of its entry manhole (11.3)."""
ENEMY_GAP = 1.0
"""Inches: going down and coming up, more than this from every enemy model (11.3)."""
ENTER = "enter the tunnels"
"""The ``Act`` text of going down (``Act RED-1 enter the tunnels at <manhole x,y>``)."""
LEAVE = "leave the tunnels"
"""The ``Act`` text of coming up (``Act RED-1 leave the tunnels at x,y``)."""
_RULE = "rules/KT18.md 11.3"
_ENVIRONMENT = "Tunnels"
_RINGS = (0.5, 0.95)
"""Inches between the base's edge and the manhole of the listed spots around a manhole."""


def _in_play(w: Work) -> bool:
    return environment(w) == _ENVIRONMENT and bool(w.kz.kt18_manholes)


def manhole_distance(p: Placement, manhole: tuple[float, float]) -> float:
    """The distance in inches from ``manhole`` (a point on the floor) to the closest point of
    the base at ``p`` (its elevation counted; 1.1, 11.3)."""
    flat = max(0.0, math.hypot(p.x - manhole[0], p.y - manhole[1]) - p.radius)
    return math.hypot(flat, p.elevation)


def tunnel_entry(w: Work, op_id: str) -> Effect | None:
    """The ``kt18_tunnels`` effect of ``op_id`` when it is in the tunnels, else ``None``."""
    for e in w.effects:
        if e.kind == TUNNELS and e.op == op_id:
            return e
    return None


def in_tunnels(w: Work, op_id: str) -> bool:
    """Whether ``op_id`` is in the tunnels (11.3): off the battlefield, counted as out of
    action for the broken check (8.2) and Nerve tests (8.4)."""
    return any(e.kind == TUNNELS and e.op == op_id for e in w.effects)


def entry_manholes(w: Work, o: OperativeState) -> list[int]:
    """The indexes of the manholes within 1" of ``o``'s base (11.3)."""
    p = w.place(o)
    return [
        i
        for i, m in enumerate(w.kz.kt18_manholes)
        if manhole_distance(p, m) <= MANHOLE_RANGE + TOLERANCE
    ]


def entry_refusal(w: Work, o: OperativeState, player: str) -> str | None:
    """Why ``o`` may not go down into the tunnels at the start of ``player``'s
    Movement-phase turn, or ``None`` (11.3, 8.5; module docstring)."""
    if not _in_play(w):
        return (
            f"the tunnels are not in play: the environment is not Tunnels with manholes ({_RULE})"
        )
    if o.player != player:
        return f"{o.id} is not a model of player {player}'s kill team ({_RULE})"
    if not o.alive:
        return f"{o.id} is not on the battlefield ({_RULE})"
    if is_shaken(w, o.id):
        return f"{o.id} is shaken: it cannot enter the tunnels (rules/KT18.md 8.5, 11.3)"
    if not entry_manholes(w, o):
        return f'{o.id} is not within 1" of a manhole ({_RULE})'
    near = enemies_within(w, o, ENEMY_GAP)
    if near:
        return (
            f'{o.id} is within 1" of the enemy model {near[0].id}: it cannot enter the tunnels '
            f"({_RULE})"
        )
    return None


def _manhole_at(w: Work, point: tuple[float, float, float] | None) -> int | None:
    if point is None:
        return None
    for i, (mx, my) in enumerate(w.kz.kt18_manholes):
        if abs(mx - point[0]) <= 1e-3 and abs(my - point[1]) <= 1e-3:
            return i
    return None


def _exit_manholes(w: Work, entry: int) -> list[int]:
    ex, ey = w.kz.kt18_manholes[entry]
    return [
        i
        for i, (mx, my) in enumerate(w.kz.kt18_manholes)
        if math.hypot(mx - ex, my - ey) <= EXIT_RANGE + TOLERANCE
    ]


def exit_problem(
    w: Work, o: OperativeState, entry: int, point: tuple[float, float, float]
) -> str | None:
    """Why ``o``, which went down at the manhole ``entry``, may not come up at ``point``
    (x, y, elevation in inches), or ``None`` (11.3; module docstring)."""
    x, y, z = point
    p = w.ctx.placement(o.id, x, y, z)
    if not any(
        manhole_distance(p, w.kz.kt18_manholes[i]) <= MANHOLE_RANGE + TOLERANCE
        for i in _exit_manholes(w, entry)
    ):
        ex, ey = w.kz.kt18_manholes[entry]
        return (
            f'{o.id} at ({x:g}, {y:g}) would not be within 1" of a manhole within 24" of its '
            f"entry manhole at ({ex:g}, {ey:g}) ({_RULE})"
        )
    for e in w.enemies_of(o.id):
        if w.distance(p, w.place(e)) <= ENEMY_GAP + TOLERANCE:
            return (
                f'{o.id} at ({x:g}, {y:g}) would be within 1" of the enemy model {e.id} ({_RULE})'
            )
    if "impassable" in terrain_under(w.kz, p):
        return f"{o.id} cannot be placed in impassable terrain (rules/KT18.md 10.5, 11.3)"
    try:
        check_deployment(w, o, point, drop_zone=False)
    except KillTeamError as exc:
        return f"{exc}; coming up from the tunnels ({_RULE})"
    return None


def exit_spots(w: Work, o: OperativeState, entry: int) -> list[tuple[float, float, float]]:
    """The listed spots where ``o`` (gone down at the manhole ``entry``) may come up: around
    each manhole within 24" of the entry one, its centre and eight directions with the base's
    edge 0.5" and 0.95" from it, on the floor, where :func:`exit_problem` finds nothing."""
    r = w.ctx.placement(o.id, o.x, o.y, 0.0).radius
    out: list[tuple[float, float, float]] = []
    for i in _exit_manholes(w, entry):
        mx, my = w.kz.kt18_manholes[i]
        candidates = [(mx, my)]
        for gap in _RINGS:
            candidates += [
                (
                    mx + (r + gap) * math.cos(k * math.pi / 4),
                    my + (r + gap) * math.sin(k * math.pi / 4),
                )
                for k in range(8)
            ]
        for cx, cy in candidates:
            spot = (round(cx, 3) + 0.0, round(cy, 3) + 0.0, 0.0)
            if spot not in out and exit_problem(w, o, entry, spot) is None:
                out.append(spot)
    return out


def waiting_to_leave(w: Work, player: str) -> list[str]:
    """The ids of ``player``'s models that went down into the tunnels in the previous battle
    round: they may come up at the end of the player's Movement-phase turn now (11.3)."""
    return [
        e.op
        for e in w.effects
        if e.kind == TUNNELS and w.ctx.owner.get(e.op) == player and e.value == w.tp - 1
    ]


@attrs.frozen(slots=True)
class TunnelEntryFrame(NoChoiceFrame):
    """The start of ``player``'s Movement-phase turn: its models that may go down into the
    tunnels, one at a time, or ``Pass`` (module docstring; decision ``kt18_tunnels_enter``)."""

    player: str

    def run(self, w: Work) -> None:
        """Ask the player while a model may go down; else the turn goes on."""
        if len(self.options(w)) > 1:
            w.decide(self.player, "kt18_tunnels_enter")
        else:
            w.stack.pop()

    def options(self, w: Work) -> list[Action]:
        """``Pass`` and ``Act X enter the tunnels at <manhole>`` for each model that may
        and each manhole within 1" of it."""
        out = [Action("Pass")]
        for o in w.alive(self.player):
            if entry_refusal(w, o, self.player) is None:
                for i in entry_manholes(w, o):
                    mx, my = w.kz.kt18_manholes[i]
                    point = (round(mx, 3) + 0.0, round(my, 3) + 0.0, 0.0)
                    out.append(Action("Act", op=o.id, text=ENTER, point=point))
        return out

    def act(self, w: Work, a: Action) -> None:
        """Send a model down (or stop).

        Raises:
            IllegalActionError: not a model that may go down, or not a manhole within 1" of
                it (the message names the rule); the state is unchanged."""
        expect(a, ("Act", "Pass"), f"which model enters the tunnels ({_RULE})")
        if a.verb == "Pass":
            w.stack.pop()
            return
        if a.text != ENTER or a.op not in w.ctx.index:
            raise IllegalActionError(
                f"'{a}' is not possible now: 'Act X {ENTER} at <manhole x,y>' or 'Pass' ({_RULE})"
            )
        o = w.op(a.op)
        why = entry_refusal(w, o, self.player)
        if why is not None:
            raise IllegalActionError(why)
        manhole = _manhole_at(w, a.point)
        if manhole is None or manhole not in entry_manholes(w, o):
            raise IllegalActionError(
                f'{a.op} enters at a manhole within 1" of its base: '
                + ", ".join(_point_text(w.kz.kt18_manholes[i]) for i in entry_manholes(w, o))
                + f" ({_RULE})"
            )
        mx, my = w.kz.kt18_manholes[manhole]
        w.set_op(o.id, placed=False)
        w.add_effect(Effect(TUNNELS, o.id, "end_battle", value=w.tp, detail=str(manhole)))
        w.emit("kt18_tunnels_entered", op=o.id, manhole=manhole, x=mx, y=my)


def _point_text(point: tuple[float, float]) -> str:
    return f"{point[0]:g},{point[1]:g}"


@attrs.frozen(slots=True)
class TunnelExitFrame(NoChoiceFrame):
    """The end of ``player``'s Movement-phase turn: its models that went down in the previous
    battle round may come up, one at a time; ``Pass`` leaves the others in the tunnels for the
    rest of the battle (module docstring; decision ``kt18_tunnels_leave``)."""

    player: str

    def run(self, w: Work) -> None:
        """Ask the player while a model may come up; otherwise the others stay down."""
        if len(self.options(w)) > 1:
            w.decide(self.player, "kt18_tunnels_leave")
        else:
            self._stay(w)

    def _stay(self, w: Work) -> None:
        left = tuple(waiting_to_leave(w, self.player))
        if left:
            w.emit("kt18_tunnels_stayed", player=self.player, ops=left)
        w.stack.pop()

    def options(self, w: Work) -> list[Action]:
        """``Pass`` and ``Act X leave the tunnels at x,y`` for each listed spot
        (:func:`exit_spots`) of each model that may come up."""
        out = [Action("Pass")]
        for op in waiting_to_leave(w, self.player):
            entry = self._entry(w, op)
            out += [
                Action("Act", op=op, text=LEAVE, point=spot)
                for spot in exit_spots(w, w.op(op), entry)
            ]
        return out

    @staticmethod
    def _entry(w: Work, op: str) -> int:
        effect = tunnel_entry(w, op)
        assert effect is not None  # listed by waiting_to_leave
        return int(effect.detail)

    def act(self, w: Work, a: Action) -> None:
        """Place a model (or leave the rest down).

        Raises:
            IllegalActionError: not a model that may come up now, or a spot the rule forbids
                (the message names the rule); the state is unchanged."""
        expect(a, ("Act", "Pass"), f"which model leaves the tunnels, and where ({_RULE})")
        if a.verb == "Pass":
            self._stay(w)
            return
        if a.text != LEAVE or a.point is None:
            raise IllegalActionError(
                f"'{a}' is not possible now: 'Act X {LEAVE} at x,y' or 'Pass' ({_RULE})"
            )
        if a.op not in waiting_to_leave(w, self.player):
            raise IllegalActionError(
                f"{a.op} cannot come up now: only a model of player {self.player} that went "
                "down in the previous battle round comes up, at the end of its player's "
                f"Movement-phase turn ({_RULE})"
            )
        o = w.op(a.op)
        why = exit_problem(w, o, self._entry(w, o.id), a.point)
        if why is not None:
            raise IllegalActionError(why)
        x, y, z = a.point
        w.effects = [e for e in w.effects if not (e.kind == TUNNELS and e.op == o.id)]
        w.set_op(o.id, x=x, y=y, elevation=z, placed=True)
        add_token(w, o.id, "moved")  # a normal move (Heavy, 5.9)
        add_token(w, o.id, "reinforced")  # no further move this round (3.16 reading (b))
        w.emit("kt18_tunnels_left", op=o.id, x=x, y=y, z=z)


def entry_step(w: Work) -> TunnelEntryFrame | None:
    """The ``movement_turn_start`` step: going down, when a model of the player whose turn
    begins (``w.top.player``) may."""
    if not _in_play(w):
        return None
    frame = TunnelEntryFrame(w.top.player)
    return frame if len(frame.options(w)) > 1 else None


def exit_step(w: Work) -> TunnelExitFrame | None:
    """The ``movement_turn_end`` step: coming up, when the player whose turn ends
    (``w.top.player``) has models that went down in the previous battle round."""
    if not _in_play(w) or not waiting_to_leave(w, w.top.player):
        return None
    return TunnelExitFrame(w.top.player)


def lost_in_tunnels(w: Work, e: Event) -> None:
    """At the end of the battle a model still in the tunnels is out of action (11.3, 3.16):
    ``kt18_tunnels_lost``, ``kt18_out_of_action``, then it is incapacitated."""
    del e
    for effect in [x for x in w.effects if x.kind == TUNNELS]:
        o = w.op(effect.op)
        w.effects = [x for x in w.effects if x is not effect]
        if o.incapacitated:  # pragma: no cover - a model in the tunnels is never hurt
            continue
        w.emit("kt18_tunnels_lost", op=o.id, player=o.player)
        w.emit("kt18_out_of_action", op=o.id, player=o.player, by="")
        w.set_op(o.id, wounds=0, incapacitated=True, placed=False)


def install_tunnels(hooks: Hooks) -> None:
    """Add the Tunnels steps (module docstring) to a KT18 battle's ``hooks``: going down at
    the start of each Movement-phase turn, coming up at its end, and out of action at the end
    of the battle."""
    hooks.phase_step("movement_turn_start", entry_step)
    hooks.phase_step("movement_turn_end", exit_step)
    hooks.on("battle_ending", lost_in_tunnels)


def _entered(e: Event) -> str:
    return f"{e['op']} goes down the manhole at ({e['x']:g}, {e['y']:g}) into the tunnels"


def _left(e: Event) -> str:
    return (
        f"{e['op']} comes up from the tunnels at ({e['x']:g}, {e['y']:g}): it counts as having "
        "made a normal move and moves no further this round"
    )


def _stayed(e: Event) -> str:
    ops = ", ".join(e["ops"])
    return f"{ops} of {e['player']} stay in the tunnels for the rest of the battle"


def _lost(e: Event) -> str:
    return f"{e['op']} is still in the tunnels as the battle ends: out of action"


add_template("kt18_tunnels_entered", _entered)
add_template("kt18_tunnels_left", _left)
add_template("kt18_tunnels_stayed", _stayed)
add_template("kt18_tunnels_lost", _lost)
