"""KT18 Falling tests, falls, falling damage and jumping down in play (``rules/KT18.md``
10.7-10.9).

Where a model could fall and where it lands is geometry
(:mod:`engine.geometry.kt18_terrain`: the Vantage parts are the features a model can fall
from; within 1" of an edge; over the nearest edge, then straight down).

- **After an attack** (10.7, reading (a): hit = a successful hit roll): a model within 1" of
  an edge that an attacking model's hit roll hits gets one :class:`FallingTestFrame`, run
  once all the attacks of that model against it are made: the frame is put beneath the
  attacking model's frames (its shooting, with every weapon; its close combat attacks,
  before it consolidates; its Overwatch). At most one test per attacking model; none for a
  model out of action by then.
- **After a wound lost to something that is not an attack** (mortal wounds: Perils of the
  Warp, Psybolt, dangerous terrain): the test comes after the wound is lost and any Injury
  roll is made. The mortal wounds of a fall do not call for another test (the engine's
  reading: the fall's own damage is part of that fall).
- **The test**: a D6 by the model's controller; on a 1 it falls (:func:`start_fall`).
- **Falling damage** (10.8): 1 D6 per full 3" (one fewer for a jump down, 10.9), each 5+ a
  mortal wound; a model it lands on (a base overlapping its base at the landing point on the
  landing level) takes as many dice; the falling model's controller makes every Injury roll.
  Then the falling model is placed as close as possible to its landing point
  (:func:`engine.geometry.kt18_landing.landing_spot`; it may end within 1" of an enemy).
  A fall moves the model: a Readied model that falls is Readied no more (3.8); it is no
  Movement-phase move (no ``moved`` token for Heavy, 5.9), unlike a jump down.
- **Jumping down** (10.9): a pick of the Movement phase (``Act X jump down at x,y,z``) for a
  model that could make a normal move: one listed landing per edge within 1"
  (:func:`jump_down_landings`), never onto a model nor within 1" of an enemy; it counts as
  the model's move (the vertical distance does not count, 10.9 reading). The charge's own
  jump down onto a charge target is not offered (the charge move is the movement graph's).
"""

from __future__ import annotations

import math

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.events import MOVE_WORDS, Event, add_template
from engine.game.frame_skeleton import NoChoiceFrame
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.geometry.distances import distance as base_distance
from engine.geometry.kt18_landing import landing_spot
from engine.geometry.kt18_terrain import (
    FallLanding,
    fall_dice,
    fall_landing,
    jump_down_dice,
    jump_down_options,
)
from engine.rules.kt18.environment import install_environment
from engine.rules.kt18.terrain_play import after_move
from engine.rules.kt18.tokens import add_token, remove_token
from engine.rules.kt18.wounds import push_mortal_wounds

__all__ = [
    "FALL_SOURCE",
    "JUMP_DOWN",
    "FallFrame",
    "FallingTestFrame",
    "install_terrain",
    "jump_down",
    "jump_down_actions",
    "jump_down_landings",
    "note_hit",
    "note_mortal_wounds",
    "start_fall",
]

FALL_SOURCE = "a fall"
"""The ``source`` of falling damage's mortal wounds."""
JUMP_DOWN = "jump down"
"""The ``Act`` text of a jump down (``Act X jump down at x,y,z``)."""
DAMAGE_FACE = 5
"""Each falling-damage die of 5+ is a mortal wound (10.8)."""
_WITHIN = 1e-6


def _attacker_frame(frame: object, attacker: str) -> bool:
    return getattr(frame, "attacker", None) == attacker or getattr(frame, "shooter", None) == (
        attacker
    )


def note_hit(w: Work, e: Event) -> None:
    """The ``kt18_hit_roll`` *did* hook (10.7): a hit model within 1" of an edge gets a
    Falling test after all the attacks of that attacking model (module docstring)."""
    if not e["hits"]:
        return
    target, attacker = str(e["target"]), str(e["op"])
    t = w.op(target)
    if not t.alive or fall_landing(w.kz, w.place(t)) is None:
        return
    test = FallingTestFrame(target, attacker)
    if test in w.stack:
        return
    at = len(w.stack)
    while at > 0 and _attacker_frame(w.stack[at - 1], attacker):
        at -= 1
    w.stack.insert(at, test)


def note_mortal_wounds(w: Work, e: Event) -> None:
    """The ``kt18_mortal_wounds`` *did* hook (10.7): a model within 1" of an edge losing a
    wound to something that is not an attack tests after the wound and any Injury roll (the
    Injury frame is pushed above this test); a fall's own damage excepted."""
    if e["source"] == FALL_SOURCE:
        return
    t = w.op(str(e["op"]))
    if t.alive and fall_landing(w.kz, w.place(t)) is not None:
        w.stack.append(FallingTestFrame(t.id, ""))


@attrs.frozen(slots=True)
class FallingTestFrame(NoChoiceFrame):
    """A Falling test (module docstring; ``rules/KT18.md`` 10.7).

    Attributes:
        op: the model tested. by: the attacking model whose hits call for it (``""``: a
            wound lost to something that is not an attack).
    """

    op: str
    by: str = ""

    def run(self, w: Work) -> None:
        """Roll the D6 (the model's controller); nothing when it is out of action or no longer
        within 1" of an edge."""
        o = w.op(self.op)
        if not o.alive or fall_landing(w.kz, w.place(o)) is None:
            w.stack.pop()
            return
        w.roll("kt18_falling_test", o.player, 1, label=f"Falling test ({o.id})")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """2+ passes; a 1 falls (10.7)."""
        w.stack.pop()
        o = w.op(self.op)
        roll = int(values[0])
        w.emit("kt18_falling_test", op=o.id, roll=roll, falls=roll == 1, by=self.by)
        landing = fall_landing(w.kz, w.place(o))
        if roll == 1 and landing is not None:
            start_fall(w, o, landing, jump=False)


def _landed_on(w: Work, o: OperativeState, landing: FallLanding) -> str:
    """The model whose base overlaps ``o``'s at the landing point, on the landing level (the
    nearest one), or ``""``."""
    me = w.ctx.placement(o.id, landing.point[0], landing.point[1], landing.level)
    best = ""
    best_d = math.inf
    for other in w.alive():
        if other.id == o.id or abs(other.elevation - landing.level) > 0.01:
            continue
        p = w.place(other)
        d = math.hypot(p.x - me.x, p.y - me.y)
        if d < p.radius + me.radius - _WITHIN and d < best_d:
            best, best_d = other.id, d
    return best


def start_fall(w: Work, o: OperativeState, landing: FallLanding, *, jump: bool) -> None:
    """``o`` falls (``jump``: jumps down) to ``landing`` (10.7-10.9): the ``kt18_fell`` event,
    then a :class:`FallFrame` for its damage and its placement."""
    dice = jump_down_dice(landing.height) if jump else fall_dice(landing.height)
    onto = "" if jump else _landed_on(w, o, landing)
    x, y = landing.point
    w.emit(
        "kt18_fell",
        op=o.id,
        height=round(landing.height, 3),
        dice=dice,
        jump=jump,
        onto=onto,
        x=x,
        y=y,
        z=landing.level,
    )
    w.stack.append(FallFrame(o.id, x, y, landing.level, dice, onto, jump=jump))


@attrs.frozen(slots=True)
class FallFrame(NoChoiceFrame):
    """A fall's damage and placement (module docstring; ``rules/KT18.md`` 10.8, 10.9).

    Attributes:
        op: the falling model. x, y, level: its landing point (inches). dice: falling-damage
            dice. onto: the model it lands on, or ``""``. jump: a jump down (a move).
        stage: ``"faller"``, ``"onto"`` (the dice for the model landed on) or ``"place"``.
    """

    op: str
    x: float
    y: float
    level: float
    dice: int
    onto: str = ""
    jump: bool = False
    stage: str = "faller"

    def run(self, w: Work) -> None:
        """Roll the next damage dice, or place the model."""
        me = w.op(self.op)
        if self.stage == "faller":
            if self.dice > 0 and me.alive:
                w.roll(
                    "kt18_falling_damage", me.player, self.dice, label=f"falling damage ({me.id})"
                )
            else:
                w.replace_top(stage="onto")
        elif self.stage == "onto":
            if self.dice > 0 and self.onto and w.op(self.onto).alive:
                w.roll(
                    "kt18_falling_damage",
                    me.player,
                    self.dice,
                    label=f"falling damage ({self.onto}, landed on)",
                )
            else:
                w.replace_top(stage="place")
        else:
            w.stack.pop()
            if me.alive:
                self._place(w, me)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """Each 5+ is a mortal wound on the model the dice were rolled for (10.8); the falling
        model's controller makes the Injury rolls."""
        target = self.op if self.stage == "faller" else self.onto
        wounds = sum(1 for v in values if v >= DAMAGE_FACE)
        w.emit("kt18_falling_damage", op=target, dice=tuple(values), wounds=wounds, by=self.op)
        w.replace_top(stage="onto" if self.stage == "faller" else "place")
        if wounds:
            roller = w.ctx.owner[self.op]
            by = "" if target == self.op else self.op
            push_mortal_wounds(w, target, wounds, roller=roller, source=FALL_SOURCE, by=by)

    def _place(self, w: Work, me: OperativeState) -> None:
        start = w.place(me)
        others = [w.place(o) for o in w.alive() if o.id != me.id]
        x, y = landing_spot(w.kz, start, (self.x, self.y), self.level, others)
        w.set_op(me.id, x=x, y=y, elevation=self.level)
        remove_token(w, me.id, "readied")  # a model that moves for any reason (3.8)
        if self.jump:
            add_token(w, me.id, "moved")
            w.emit(
                "moved",
                op=me.id,
                action=JUMP_DOWN,
                x=x,
                y=y,
                z=self.level,
                cost=0.0,
                x0=start.x,
                y0=start.y,
                z0=start.elevation,
            )
            after_move(w, me.id, start)
        else:
            w.emit("kt18_placed_after_fall", op=me.id, x=x, y=y, z=self.level)


def jump_down_landings(w: Work, o: OperativeState) -> list[FallLanding]:
    """Where ``o`` may jump down to now (10.9): the landings of
    :func:`~engine.geometry.kt18_terrain.jump_down_options` whose base overlaps no model and
    is more than 1" from every enemy."""
    out = []
    for landing in jump_down_options(w.kz, w.place(o)):
        p = w.ctx.placement(o.id, landing.point[0], landing.point[1], landing.level)
        clear = True
        for other in w.alive():
            if other.id == o.id:
                continue
            q = w.place(other)
            d = base_distance(p, q)
            if d <= _WITHIN and abs(q.elevation - p.elevation) < 1.5:
                clear = False  # onto a model
            elif other.player != o.player and d <= 1.0 + _WITHIN:
                clear = False  # within 1" of an enemy
        if clear:
            out.append(landing)
    return out


def jump_down_actions(w: Work, o: OperativeState) -> list[Action]:
    """The Movement-phase picks ``Act X jump down at x,y,z``, one per landing (10.9)."""
    return [
        Action("Act", op=o.id, text=JUMP_DOWN, point=(lnd.point[0], lnd.point[1], lnd.level))
        for lnd in jump_down_landings(w, o)
    ]


def jump_down(w: Work, o: OperativeState, point: tuple[float, float, float] | None) -> None:
    """``o`` jumps down to ``point`` (10.9): a listed landing (within 0.01").

    Raises:
        IllegalActionError: no point, or not a landing ``o`` may jump down to (naming the
            rule and the landings)."""
    landings = jump_down_landings(w, o)
    if point is not None:
        for landing in landings:
            lx, ly = landing.point
            if (
                math.hypot(lx - point[0], ly - point[1]) <= 0.01
                and abs(landing.level - point[2]) <= 0.01
            ):
                start_fall(w, o, landing, jump=True)
                return
    where = (
        ", ".join(f"{lnd.point[0]:g},{lnd.point[1]:g},{lnd.level:g}" for lnd in landings) or "none"
    )
    raise IllegalActionError(
        f'{o.id} cannot jump down to that point: it jumps over an edge within 1" to a landing '
        f'free of models and more than 1" from enemies (landings: {where}) (rules/KT18.md 10.9)'
    )


def install_terrain(hooks: Hooks) -> None:
    """Add the KT18 terrain rules in play to a battle's ``hooks`` (``rules/KT18.md`` 10, 11):
    the environment (:func:`~engine.rules.kt18.environment.install_environment`) and the
    Falling tests after hits and after mortal wounds (module docstring). The Dangerous terrain
    tests and jumping down are called by the moves themselves
    (:func:`~engine.rules.kt18.terrain_play.after_move`, :func:`jump_down_actions`)."""
    install_environment(hooks)
    hooks.on("kt18_hit_roll", note_hit)
    hooks.on("kt18_mortal_wounds", note_mortal_wounds)


def _fell(e: Event) -> str:
    verb = "jumps down" if e["jump"] else "falls"
    onto = f", onto {e['onto']}" if e["onto"] else ""
    return f'{e["op"]} {verb} {e["height"]:g}"{onto}: {e["dice"]} falling-damage dice'


def _test(e: Event) -> str:
    result = "falls" if e["falls"] else "holds on"
    return f"{e['op']} takes a Falling test: rolls {e['roll']}, {result}"


def _damage(e: Event) -> str:
    return f"falling damage on {e['op']}: {list(e['dice'])}, {e['wounds']} mortal wound(s)"


MOVE_WORDS.setdefault(JUMP_DOWN, "jumps down")
add_template("kt18_fell", _fell)
add_template("kt18_falling_test", _test)
add_template("kt18_falling_damage", _damage)
add_template(
    "kt18_placed_after_fall",
    lambda e: f"{e['op']} is placed at {e['x']:g},{e['y']:g} (elevation {e['z']:g})",
)
