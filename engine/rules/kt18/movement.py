"""The KT18 Movement phase (``rules/KT18.md`` 3.1-3.8, 3.16): each player's whole turn in
initiative order (3.1; not an alternation of single models).

In its turn (decision ``kt18_movement``) the player picks its models one at a time, each at
most once per phase (3.1), and for each one of:

- ``Move X`` (its destination decided next, ``kt18_destination``; or ``Move X to x,y`` at
  once): a normal move of 0 to M inches (3.4) never within 1" of an enemy (3.5); not for a
  model within 1" of an enemy now or at the start of the phase (3.5, 3.6).
- ``Advance X``: the Advance roll (a D6, ``kt18_advance``) added to M, then a move of 0 to
  M + D6 with the normal move's limits (3.7; ``Pass`` at the destination decision stays).
- ``Fall Back X``: only for a model within 1" of an enemy at the start of the phase (3.6;
  reading chosen: fixed at the start of the phase), and not if an enemy ended a charge move
  within 1" of it this phase (the ``was_charged`` token); 0 to M inches, ending more than 1"
  from every enemy.
- ``Ready X``: not within 1" of an enemy; no move at all (3.8).
- ``Charge X at T``: a charge (:mod:`engine.rules.kt18.charge`, 3.9-3.13): not within 1" of
  an enemy (nor at the start of the phase) and at least one enemy within 12".
- staying where it is: simply not picking it. ``Pass`` ends the player's turn.

A model that is shaken does nothing (8.5); a model out of action or not on the battlefield
is not picked. The tokens of :mod:`engine.rules.kt18.tokens` are marked as each happens.

When a player's turn begins, the steps rule modules add with
``Hooks.phase_step("movement_turn_start", fn)`` are pushed (going down into the Tunnels,
11.3: :mod:`engine.rules.kt18.tunnels`); when it ends, those added with
``Hooks.phase_step("movement_turn_end", fn)`` (Reinforcements, 3.16, set up at the end of
the Movement phase; coming up from the Tunnels, 11.3). ``fn(w)`` is called with the player's
:class:`MovementTurnFrame` on top of the stack, so ``w.top.player`` is the player whose turn
begins or ends; it returns a frame or ``None``. No built-in model arrives as reinforcements.
"""

from __future__ import annotations

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.events import MOVE_WORDS, Event, add_template
from engine.game.flow import expect
from engine.game.frame_skeleton import NoChoiceFrame, push_steps
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.rules.kt18.charge import CHARGE_RANGE, ChargeFrame, charge_refusal
from engine.rules.kt18.destinations import (
    ENEMY_RANGE,
    Spot,
    destinations,
    find_path,
    make_move,
    plain_end_refusal,
)
from engine.rules.kt18.falling import JUMP_DOWN, jump_down, jump_down_actions
from engine.rules.kt18.initiative import push_next_turn
from engine.rules.kt18.models import enemies_within, is_shaken
from engine.rules.kt18.terrain_play import after_move
from engine.rules.kt18.tokens import ACTED, add_token, has, remove_token

__all__ = [
    "MoveFrame",
    "MovementPhaseFrame",
    "MovementTurnFrame",
    "move_refusal",
]

_VERBS = ("Move", "Advance", "Fall Back", "Ready", "Charge", "Act", "Pass")
_MOVE_OF = {"Move": "move", "Fall Back": "fall_back"}
_RULE = {
    "move": "rules/KT18.md 3.4, 3.5",
    "advance": "rules/KT18.md 3.7",
    "fall_back": "rules/KT18.md 3.6",
}


def _cite(move: str) -> str:
    return _RULE.get(move, "rules/KT18.md 3.1")


def move_refusal(w: Work, o: OperativeState, verb: str, engaged: tuple[str, ...]) -> str | None:
    """Why ``o`` may not be picked for ``verb`` (``"Move"``, ``"Advance"``, ``"Fall Back"``,
    ``"Ready"``, ``"Charge"``) now, or ``None`` (module docstring).

    Args:
        engaged: the models within 1" of an enemy at the start of the phase (3.6)."""
    if not o.alive:
        return f"{o.id} is not on the battlefield"
    if is_shaken(w, o.id):
        return f"{o.id} is shaken and can do nothing (rules/KT18.md 8.5)"
    if any(has(o, t) for t in ACTED):
        return f"{o.id} has already moved this phase: each model once (rules/KT18.md 3.1)"
    if verb == "Fall Back":
        if o.id not in engaged:
            return (
                f'{o.id} did not start the Movement phase within 1" of an enemy: only such a '
                "model Falls Back (rules/KT18.md 3.6)"
            )
        if has(o, "was_charged"):
            return (
                f'an enemy ended a charge move within 1" of {o.id} this phase: it cannot '
                "Fall Back (rules/KT18.md 3.6)"
            )
        return None
    if o.id in engaged:
        return (
            f'{o.id} started the Movement phase within 1" of an enemy: it may only stay or '
            "Fall Back (rules/KT18.md 3.6)"
        )
    if enemies_within(w, o, ENEMY_RANGE):
        return f'{o.id} is within 1" of an enemy model: it cannot {verb} (rules/KT18.md 3.5)'
    if verb == "Charge":
        return charge_refusal(w, o)
    return None


def _move_cost_limit(w: Work, o: OperativeState) -> float:
    """M in inches (1.7: the datasheet's Move)."""
    return float(w.ctx.datacards[o.id].move)


@attrs.frozen(slots=True)
class MovementPhaseFrame(NoChoiceFrame):
    """The Movement phase: each player's turn in initiative order (module docstring).

    Attributes:
        engaged: the models within 1" of an enemy when the phase began (3.6).
        done: how many players have had their turn.
    """

    engaged: tuple[str, ...] = ()
    done: int = 0

    @classmethod
    def begin(cls, w: Work) -> MovementPhaseFrame:
        """The phase as it begins: which models start it within 1" of an enemy (3.6)."""
        return cls(engaged=tuple(o.id for o in w.alive() if enemies_within(w, o, ENEMY_RANGE)))

    def run(self, w: Work) -> None:
        """Push the next player's turn, or end the phase."""
        engaged = self.engaged
        if not push_next_turn(w, self.done, lambda p: MovementTurnFrame(p, engaged)):
            w.stack.pop()


@attrs.frozen(slots=True)
class MovementTurnFrame:
    """One player's Movement-phase turn (module docstring).

    Attributes:
        player: whose turn it is.
        engaged: the models within 1" of an enemy when the phase began (3.6).
        stage: ``"start"`` (the turn-start steps are pushed next), ``"turn"``, or ``"end"``
            (the turn-end steps pushed; popped next).
    """

    player: str
    engaged: tuple[str, ...] = ()
    stage: str = "start"

    def run(self, w: Work) -> None:
        """Ask the player to pick a model (or end the turn when none can do anything)."""
        if self.stage == "start":
            w.replace_top(stage="turn")
            push_steps(w, w.ctx.hooks.phase_steps.get("movement_turn_start", ()))
            return
        if self.stage == "end":
            w.stack.pop()
            return
        if any(a.verb != "Pass" for a in self.options(w)):
            w.decide(self.player, "kt18_movement")
        else:
            self._end(w)

    def _end(self, w: Work) -> None:
        w.replace_top(stage="end")
        push_steps(w, w.ctx.hooks.phase_steps.get("movement_turn_end", ()))

    def options(self, w: Work) -> list[Action]:
        """What each of the player's models may do (module docstring), and ``Pass``."""
        out = [Action("Pass")]
        for o in w.alive(self.player):
            if move_refusal(w, o, "Fall Back", self.engaged) is None:
                out.append(Action("Fall Back", op=o.id))
                continue
            if move_refusal(w, o, "Move", self.engaged) is not None:
                continue
            out += [Action("Move", op=o.id), Action("Advance", op=o.id), Action("Ready", op=o.id)]
            out += jump_down_actions(w, o)  # rules/KT18.md 10.9
            if charge_refusal(w, o) is None:
                out += [
                    Action("Charge", op=o.id, target=e.id)
                    for e in enemies_within(w, o, CHARGE_RANGE)
                ]
        return out

    def act(self, w: Work, a: Action) -> None:
        """Apply the player's pick (module docstring).

        Raises:
            IllegalActionError: a model of the other player, or one the rules forbid that
                (the message names the rule)."""
        expect(a, _VERBS, "the player's Movement-phase turn (rules/KT18.md 3.1)")
        if a.verb == "Pass":
            self._end(w)
            return
        if a.op not in w.ctx.index or w.ctx.owner[a.op] != self.player:
            raise IllegalActionError(
                f"{a.op or 'that'} is not a model of player {self.player}'s kill team "
                "(rules/KT18.md 3.1)"
            )
        o = w.op(a.op)
        if a.verb == "Act" and a.text != JUMP_DOWN:
            raise IllegalActionError(
                f"'{a}' is not a Movement-phase pick: 'Act {o.id} {JUMP_DOWN} at x,y,z' jumps "
                "down (rules/KT18.md 10.9)"
            )
        why = move_refusal(w, o, "Move" if a.verb == "Act" else a.verb, self.engaged)
        if why is not None:
            raise IllegalActionError(why)
        if a.verb == "Act":
            jump_down(w, o, a.point)
        elif a.verb == "Ready":
            add_token(w, o.id, "readied")
            w.emit("kt18_readied", op=o.id)
        elif a.verb == "Advance":
            w.stack.append(MoveFrame(self.player, o.id, "advance"))
        elif a.verb == "Charge":
            if a.point is not None or not a.target:
                raise IllegalActionError(
                    f"a charge is declared at a target: 'Charge {o.id} at X' (rules/KT18.md 3.10)"
                )
            ChargeFrame.declare(w, o, a.target)
        else:
            move = _MOVE_OF[a.verb]
            frame = MoveFrame(self.player, o.id, move, _move_cost_limit(w, o))
            if a.point is None:
                w.stack.append(frame)
            else:
                frame.perform(w, a.point)


@attrs.frozen(slots=True)
class MoveFrame:
    """A model's normal move, Advance or Fall Back: its destination decided
    (``kt18_destination``), after the Advance roll for an Advance (3.4-3.7).

    Attributes:
        player, op: the moving model and its player.
        move: ``"move"``, ``"advance"`` or ``"fall_back"``.
        limit: the most it may move, in inches (0 until an Advance is rolled).
    """

    player: str
    op: str
    move: str
    limit: float = 0.0

    def run(self, w: Work) -> None:
        """Roll the Advance (a chance node), then ask for the destination."""
        if self.move == "advance" and self.limit <= 0:
            w.roll("kt18_advance", self.player, 1, label=f"Advance ({self.op})")
            return
        w.decide(self.player, "kt18_destination")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """The Advance roll: a D6 added to M for this phase (3.7)."""
        o = w.op(self.op)
        roll = int(values[0])
        limit = _move_cost_limit(w, o) + roll
        w.emit("dice_rolled", player=self.player, label=f"Advance ({self.op})", values=values)
        add_token(w, o.id, "advanced")
        add_token(w, o.id, "moved")
        remove_token(w, o.id, "readied")
        w.emit("kt18_advanced", op=o.id, roll=roll, move=limit)
        w.replace_top(limit=float(limit))

    def _listed(self, w: Work) -> list[tuple[Spot, float]]:
        o = w.op(self.op)
        return destinations(w, o, self.move, self.limit, lambda end: plain_end_refusal(w, o, end))

    def options(self, w: Work) -> list[Action]:
        """The listed destinations (``Move X to x,y``; ``Fall Back X to x,y``); ``Pass``
        after an Advance (it stays where it is); ``Back`` when a move or Fall Back has no
        destination (the player picks again)."""
        verb = "Fall Back" if self.move == "fall_back" else "Move"
        out = [Action(verb, op=self.op, point=spot) for spot, _ in self._listed(w)]
        if self.move == "advance":
            out.append(Action("Pass"))
        elif not out:
            out.append(Action("Back"))
        return out

    def act(self, w: Work, a: Action) -> None:
        """Make the move to the chosen destination (or stay, or go back).

        Raises:
            IllegalActionError: a destination no legal path reaches within the distance, or
                within 1" of an enemy (the message names the rule)."""
        verb = "Fall Back" if self.move == "fall_back" else "Move"
        expect(a, (verb, "Pass", "Back"), f"where {self.op} moves ({_cite(self.move)})")
        if a.verb == "Pass":
            if self.move != "advance":
                raise IllegalActionError(
                    f"only an Advancing model may stay here (rules/KT18.md 3.7); 'Back' to "
                    f"pick another model or action for {self.op}"
                )
            w.stack.pop()
            return
        if a.verb == "Back":
            if self.move == "advance":
                raise IllegalActionError(
                    f"{self.op} has Advanced (rules/KT18.md 3.7): it moves or stays ('Pass')"
                )
            w.stack.pop()
            return
        if a.op != self.op or a.point is None:
            raise IllegalActionError(f"{self.op} is the model moving: '{verb} {self.op} to x,y'")
        w.stack.pop()
        self.perform(w, a.point)

    def perform(self, w: Work, point: Spot) -> None:
        """Move the model to ``point`` (checked: a legal path within the limit, the end more
        than 1" from every enemy; ``rules/KT18.md`` 3.4-3.7).

        Raises:
            IllegalActionError: as :meth:`act`."""
        o = w.op(self.op)
        start = w.place(o)
        end, cost = find_path(
            w,
            o,
            self.move,
            self.limit,
            point,
            lambda e: plain_end_refusal(w, o, e),
            _cite(self.move),
        )
        make_move(w, o, self.move, end, cost)
        if self.move == "fall_back":
            add_token(w, o.id, "fell_back")
        after_move(w, o.id, start)  # rules/KT18.md 10.4


def _advanced(e: Event) -> str:
    return f'{e["op"]} Advances: rolls {e["roll"]}, may move {e["move"]:g}"'


for _action, _words in (
    ("move", "moves"),
    ("advance", "advances"),
    ("retreat", "retreats"),
    ("failed charge", "makes a failed charge move"),
):
    MOVE_WORDS.setdefault(_action, _words)
add_template("kt18_advanced", _advanced)
add_template("kt18_readied", lambda e: f"{e['op']} is Readied")
