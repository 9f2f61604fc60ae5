"""The Demo Trooper's Melta Mine and Proximity Mine abilities.

The Melta Mine marker is a :class:`~engine.game.tokens.Token` of kind ``"melta_mine"`` named
``"<player> melta mine"`` (20 mm, 4.8). The Demo Trooper carries it from its deployment (a
scripted position gives it with ``tokens`` and ``carrying``); only it can pick it up again
(Pick Up Marker, ``Pick up KAS-3 a melta mine``) and put it down (Place Marker), never
within an enemy operative's control range; after placing it, it may Dash for free. Once on
the killzone, the first time the marker is within the control range of an operative other
than the Demo Trooper (along the route a move took, as the universal Mines read it; when set
up there, or when a hatchway operated or equipment set up changes sight), it is removed and
that operative suffers 2D6+3 damage; a mover stops where the marker came within its control
range (the minimum amount away if it cannot be placed there) and its action ends (even if
its effects are not fulfilled).
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from engine.game import universal
from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.geometry import sight
from engine.geometry.model import MARKER_DIAMETER_MM
from engine.rules.choices import RuleRollFrame, on_roll
from engine.rules.equipment.markers import operative_controls, token_contests
from engine.rules.equipment.shapes import first_within_marker_range
from engine.rules.registry import register
from teams.kasrkin.common import is_kasrkin

MELTA_MINE = "melta_mine"
DEMO_TROOPER = "DEMO-TROOPER"
MINE_DAMAGE = 3
_ROLL = "kasrkin_proximity_mine"


def mine_name(player: str) -> str:
    return f"{player} melta mine"


def is_demo(w: Work, op: str) -> bool:
    """``op`` is a Kasrkin Demo Trooper."""
    return is_kasrkin(w, op) and DEMO_TROOPER in w.ctx.datacards[op].keywords


def melta_mines(w: Work) -> list[Token]:
    return [t for t in w.tokens if isinstance(t, Token) and t.kind == MELTA_MINE]


def _demo_of(w: Work, player: str) -> str:
    return next((o.id for o in w.alive(player) if is_demo(w, o.id)), "")


def _enemy_near_spot(w: Work, player: str, x: float, y: float) -> bool:
    """An enemy of ``player`` would have a marker put down at ``(x, y)`` within its control
    range."""
    kz = w.kz
    return any(
        sight.marker_in_control_range(kz, w.place(e), (x, y), MARKER_DIAMETER_MM)
        for e in w.alive("B" if player == "A" else "A")
    )


# -- Melta Mine ---------------------------------------------------------------------------------


@attrs.frozen(slots=True)
class _FreeDash:
    """Start the Demo Trooper's free Dash once the Place Marker is done (a deferred frame)."""

    op: str

    def run(self, w: Work) -> None:
        w.stack.pop()
        if w.op(self.op).alive:
            universal.start_free_action(w, self.op, ("Dash",))

    def options(self, w: Work) -> list[Action]:  # pragma: no cover - never a decision
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover - never a decision
        raise IllegalActionError("nothing to decide here")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("no dice here")


def _maker(w: Work, owner: str, x: float, y: float, z: float, angle: int) -> Token:
    """A Melta Mine marker for a scripted position (``Hooks.token_maker``)."""
    if any(t.owner == owner for t in melta_mines(w)):
        raise ValueError(f"player {owner} already has its Melta Mine marker")
    return Token(MELTA_MINE, owner, mine_name(owner), x, y, z)


def install_melta_mine(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Melta Mine (Demo Trooper, module docstring)."""

    def deployed(w: Work, ev: Event) -> None:
        op = str(ev.get("op", ""))
        player = w.ctx.owner.get(op, "")
        if player not in players or not is_demo(w, op):
            return
        if any(t.owner == player for t in melta_mines(w)):
            return
        o = w.op(op)
        w.tokens = [*w.tokens, Token(MELTA_MINE, player, mine_name(player), o.x, o.y)]
        universal.start_carrying(w, op, mine_name(player))

    def offer(w: Work, pairs: tuple[Any, ...], **info: Any) -> tuple[Any, ...]:
        o: OperativeState = info["op"]
        found = [t for t in melta_mines(w) if not t.carrier and t.owner in players]
        out: list[tuple[str, str | None]] = []
        for t in found:
            if t.owner != o.player or not is_demo(w, o.id):
                out.append((t.name, f"only {t.owner}'s Demo Trooper picks up {t.name}"))
            elif not operative_controls(w, o, t):
                out.append((t.name, f"{o.id} must control {t.name} to pick it up (3.2, 4.8)"))
            else:
                out.append((t.name, None))
        return (*pairs, *out)

    def refuse(w: Work, why: str | None, **info: Any) -> str | None:
        if why or info.get("action") != "Place marker" or not w.tokens:
            return why
        o = w.op(str(info.get("op", "")))
        if o.player not in players or o.carrying != (mine_name(o.player),):
            return why
        if _enemy_near_spot(w, o.player, o.x, o.y):
            return (
                f"the Melta Mine marker cannot be placed within an enemy operative's control "
                f"range ({o.id}, Melta Mine)"
            )
        return why

    def placed(w: Work, ev: Event) -> None:
        op, name = str(ev.get("op", "")), str(ev.get("marker", ""))
        player = w.ctx.owner.get(op, "")
        if player not in players or name != mine_name(player):
            return
        o = w.op(op)
        if o.incapacitated:
            # Put down by an incapacitated carrier: removed with it if it cannot be placed.
            if _enemy_near_spot(w, player, float(ev["x"]), float(ev["y"])):
                w.tokens = [t for t in w.tokens if t.name != name]
                w.emit("melta_mine_removed", player=player, marker=name)
            return
        w.defer_frame(_FreeDash(op))

    hooks.token_maker(MELTA_MINE, _maker)
    hooks.on("deployed", deployed)
    hooks.transform("pick_up_markers", offer)
    hooks.transform("would_refuse_action", refuse)
    hooks.on("marker_placed", placed)


# -- Proximity Mine -----------------------------------------------------------------------------


def _set_off(w: Work, t: Token, op: str) -> None:
    """Remove the marker and roll its 2D6+3 damage on ``op``."""
    w.tokens = [x for x in w.tokens if x is not t]
    w.emit("melta_mine_triggered", op=op, marker=t.name, player=t.owner)
    demo = _demo_of(w, t.owner)
    w.defer_frame(
        RuleRollFrame(
            player=t.owner,
            rule="Proximity Mine",
            key=_ROLL,
            op=demo,
            dice=2,
            label=f"Proximity Mine 2D6+3 ({op})",
            data=(("target", op),),
        )
    )


def _rolled(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    """Inflict 2D6+3 damage; the operative's action is not otherwise cut short here."""
    target = str(frame.get("target"))
    damage = sum(values) + MINE_DAMAGE
    w.emit("melta_mine_damage", op=target, damage=damage, values=values)
    universal.inflict(w, target, damage, "Proximity Mine", by=frame.op)
    if not w.in_action():
        universal.remove_casualties(w)


on_roll(_ROLL, _rolled)


def _exempt(w: Work, t: Token, op: str) -> bool:
    """The Demo Trooper of the marker's owner never sets it off."""
    return w.ctx.owner.get(op) == t.owner and is_demo(w, op)


_NUDGE_STEP = 0.05
"""Rings (inches) searched around a stopping point a base cannot be placed at."""
_NUDGE_MAX = 6.0
_NUDGE_DIRECTIONS = 72


def placeable(w: Work, op: str, x: float, y: float, z: float) -> bool:
    """``op``'s base can be placed centred on ``(x, y)`` at elevation ``z``: wholly on the
    killzone, where a base can stand (not in terrain), overlapping no other operative's
    base."""
    from engine.game.deployment import _standable_on

    me = w.place(w.op(op))
    r = me.radius
    if x - r < -1e-6 or y - r < -1e-6 or x + r > w.kz.width + 1e-6 or y + r > w.kz.depth + 1e-6:
        return False
    if not _standable_on(w.kz, me.base_mm, x, y, z):
        return False
    for other_op in w.alive():
        if other_op.id == op:
            continue
        p = w.place(other_op)
        if abs(p.elevation - z) < 1.0 and math.hypot(p.x - x, p.y - y) < p.radius + r - 1e-6:
            return False
    return True


def placeable_near(
    w: Work, op: str, x: float, y: float, z: float, fallback: tuple[float, float]
) -> tuple[float, float]:
    """Proximity Mine's "if it cannot be placed, move it the minimum amount to do so": the
    point nearest ``(x, y)`` where ``op`` can be placed at elevation ``z``
    (:func:`placeable`): rings every 0.05" and 72 directions find the first ring with room,
    then each direction with room there is refined by bisection to 0.001" and the shortest
    kept (ties: the first direction from +x anticlockwise); ``(x, y)`` itself when it can
    be placed there; ``fallback`` (where its move legally ended) when nothing is within
    6"."""
    if placeable(w, op, x, y, z):
        return x, y

    def at(d: float, a: float) -> tuple[float, float]:
        return round(x + d * math.cos(a), 3), round(y + d * math.sin(a), 3)

    k = 1
    while k * _NUDGE_STEP <= _NUDGE_MAX:
        d = k * _NUDGE_STEP
        angles = [2 * math.pi * i / _NUDGE_DIRECTIONS for i in range(_NUDGE_DIRECTIONS)]
        fits = [a for a in angles if placeable(w, op, *at(d, a), z)]
        if fits:
            best: tuple[float, float] | None = None
            for a in fits:
                lo, hi = d - _NUDGE_STEP, d
                while hi - lo > 0.001:
                    mid = (lo + hi) / 2
                    if placeable(w, op, *at(mid, a), z):
                        hi = mid
                    else:
                        lo = mid
                if best is None or hi < best[0] - 1e-9:
                    best = (hi, a)
            assert best is not None
            return at(*best)
        k += 1
    return fallback


def install_proximity_mine(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Proximity Mine (Demo Trooper, module docstring): checked after each move along its
    path (the first marker met; the mover is put back where the marker came within its
    control range, or the minimum amount away where its base cannot be placed there
    (:func:`placeable_near`), and its action ends there (:func:`universal.cut_action`: no
    window after the move, e.g. no Cover Retreat), whether or not the damage incapacitates
    it), and when an operative is set up or a marker placed, a hatchway operated or
    equipment set up (sight changes, as the universal Mines). The path is the route the move
    took, as the universal Mines read it (:func:`engine.game.universal.move_route`: the
    movement search's path from where the move started to where it ended)."""

    def live(w: Work) -> list[Token]:
        return [t for t in melta_mines(w) if not t.carrier and t.owner in players]

    def moved(w: Work, ev: Event) -> None:
        if not w.tokens:
            return
        mines = live(w)
        o = w.op(str(ev["op"]))
        mines = [t for t in mines if not _exempt(w, t, o.id)]
        if not mines or not o.alive:
            return
        route = universal.move_route(w, ev)
        length = route.length
        met: list[tuple[float, int, Token, Any]] = []
        for k, t in enumerate(mines):
            if t.elevation:
                if token_contests(w, o, t):
                    met.append((length, k, t, None))
                continue
            here = first_within_marker_range(w.kz, route, (t.x, t.y), MARKER_DIAMETER_MM)
            if here is not None:
                met.append((universal.route_distance(route, here.x, here.y), k, t, here))
        if not met:
            return
        _, _, t, here = min(met, key=lambda m: (m[0], m[1]))
        if here is not None and (here.x, here.y) != (o.x, o.y):
            # Its move stops where the marker came within its control range; where a base
            # cannot be placed there, the minimum amount away.
            x, y = placeable_near(w, o.id, here.x, here.y, here.elevation, (o.x, o.y))
            w.set_op(o.id, x=x, y=y, elevation=here.elevation)
            universal.carry_along(w, o.id)
            w.emit("melta_mine_stopped", op=o.id, x=x, y=y)
        _set_off(w, t, o.id)
        # "End its action (if any)": the rest of the action (the window after the move, e.g.
        # Cover Retreat's free Shoot before a Fall Back ends) does not happen. Incapacitated,
        # nothing of it happens either.
        universal.cut_action(w, o.id)

    def check_all(w: Work, ev: Event) -> None:
        if not w.tokens:
            return
        for t in live(w):
            for o in w.alive():
                if not _exempt(w, t, o.id) and token_contests(w, o, t):
                    _set_off(w, t, o.id)
                    break

    hooks.on("moved", moved)
    hooks.on("deployed", check_all)
    hooks.on("operative_set_up", check_all)
    hooks.on("marker_placed", check_all)
    # Control range needs sight (4.2): a hatchway operated or equipment set up may bring the
    # marker within an operative's control range without anyone moving.
    hooks.on("hatch_operated", check_all)
    hooks.on("equipment_set_up", check_all)


add_template("melta_mine_triggered", lambda e: f"  {e['op']} sets off {e['marker']}")
add_template(
    "melta_mine_damage",
    lambda e: (
        f"  {e['op']}: Proximity Mine {'+'.join(map(str, e['values']))} + 3 = {e['damage']} damage"
    ),
)
add_template(
    "melta_mine_stopped",
    lambda e: f"  {e['op']} stops at ({e['x']:g}, {e['y']:g}): its action ends (Proximity Mine)",
)
add_template("melta_mine_removed", lambda e: f"  {e['marker']} is removed (it cannot be placed)")

register(
    "kasrkin/ability/melta_mine",
    install_melta_mine,
    "The Demo Trooper carries the Melta Mine marker; only it picks it up; placing it (never in "
    "enemy control range) gives a free Dash.",
)
register(
    "kasrkin/ability/proximity_mine",
    install_proximity_mine,
    "The first time the Melta Mine is within another operative's control range: removed, "
    "2D6+3 damage to that operative.",
)
