"""A KT21 turning point as frames (``rules/KT21.md`` 1.1, 2): the Initiative phase (ready
every operative, then initiative), the Strategy phase (each player gains 1CP, strategic
ploys, Target Reveal), the Firefight phase (:mod:`engine.rules.kt21.firefight`), and the
end of the turning point; the battle ends after the fourth.

The state's ``phase`` is ``"strategy"`` through the Initiative and Strategy phases (the
phases before the Firefight phase; the events tell them apart) and ``"firefight"`` after.

- Strategic ploys are the core's Gambit step (:class:`engine.game.flow.GambitFrame`, ploys
  of the ``gambit`` trigger): players alternate using one or passing, starting with the
  initiative player, until both pass in succession; each ploy at most once per turning
  point, so once per Strategy phase (2.2, 14).
- Target Reveal (2.2 step 3) is the steps rule modules add with ``Hooks.gambit_step`` (the
  tac ops revealed there), run after the strategic ploys.
- The ploy windows of the core open as in KT24: ``turning_point_start``, ``firefight_start``,
  ``firefight_end``, ``turning_point_end``.

The turning point is the core's skeleton (:func:`engine.game.frame_skeleton.run_turning_point`:
the start, the Firefight phase, its ploy windows, the scoring steps and the end) with the KT21
steps (:data:`KT21_TURNING_POINT`).
"""

from __future__ import annotations

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.flow import GambitFrame, expect
from engine.game.frame_skeleton import (
    NoChoiceFrame,
    TurningPointSteps,
    push_steps,
    roll_off_winner,
    run_turning_point,
)
from engine.game.state import PLAYERS, other
from engine.game.work import Work
from engine.rules.kt21.firefight import FirefightFrame

__all__ = [
    "KT21_TURNING_POINT",
    "LAST_TP",
    "InitiativeFrame",
    "TurningPointFrame",
    "ready_operatives",
]

LAST_TP = 4
"""A battle is four turning points (1.1)."""


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


def ready_operatives(w: Work) -> None:
    """The Initiative phase's first step (2.1): every operative on the killzone is readied
    (its token flipped to ready)."""
    for o in list(w.ops):
        if o.alive:
            w.set_op(o.id, ready=True, counteracted=False, interrupted=False, on_guard=False)
    w.emit("ready_step", tp=w.tp)


@attrs.frozen(slots=True)
class TurningPointFrame(NoChoiceFrame):
    """One turning point (module docstring).

    Attributes:
        stage: ``"start"``, ``"strategy"`` (initiative decided: the Strategy phase next),
            ``"reveal"`` (the strategic ploys done: Target Reveal next), ``"firefight"``,
            ``"end"``, ``"tp_end"``, ``"over"`` / ``"scored"`` (the end of the turning
            point).
    """

    stage: str = "start"

    def run(self, w: Work) -> None:
        run_turning_point(w, self.stage, KT21_TURNING_POINT)


def _initiative_phase(w: Work) -> None:
    """The Initiative phase (2.1): ready every operative, then initiative."""
    ready_operatives(w)
    w.stack.append(InitiativeFrame())


def _strategic_ploys(w: Work) -> None:
    """The Strategy phase's first steps (2.2 steps 1-2): each player gains 1CP, every
    turning point; then the strategic ploys."""
    for p in PLAYERS:
        w.set_pl(p, cp=w.pl(p).cp + 1)
        w.emit("cp_gained", player=p, cp=1, total=w.pl(p).cp)
    w.replace_top(stage="reveal")
    w.stack.append(GambitFrame(turn=w.initiative))


def _target_reveal(w: Work) -> None:
    """Target Reveal (2.2 step 3): the steps rule modules add (run in the order they were
    added); then the Firefight phase."""
    w.replace_top(stage="firefight")
    push_steps(w, w.ctx.hooks.gambit_steps)


@attrs.frozen(slots=True)
class InitiativeFrame:
    """Determine initiative (2.1 step 2). The first turning point keeps the initiative the
    set-up gave (:mod:`engine.rules.kt21.setup`), except in Lite, which rolls off (a tie is
    rolled again) and whose winner decides. Turning points 2-4: a roll-off whose winner
    decides who has initiative; on a tie the player who did not have initiative in the
    previous turning point has it (no decision, no re-roll).

    Attributes:
        stage: ``"roll"`` or ``"choose"``; ``winner``: the roll-off winner.
    """

    stage: str = "roll"
    winner: str = ""

    def run(self, w: Work) -> None:
        if self.stage == "choose":
            w.decide(self.winner, "initiative")
            return
        if w.tp == 1 and w.initiative and w.ctx.options.mission != "lite":
            self._has(w, w.initiative)
            return
        w.roll("roll_off", "A", 2, ordered=True, label="initiative roll-off")

    def _has(self, w: Work, player: str) -> None:
        w.initiative = player
        w.emit("initiative_decided", player=player, tp=w.tp)
        w.stack.pop()

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        winner = roll_off_winner(w, values, f"initiative TP{w.tp}")
        if winner:
            w.replace_top(stage="choose", winner=winner)
        elif w.tp > 1 and w.initiative:
            self._has(w, other(w.initiative))  # the tie rule (2.1)
        # else: the first turning point's tie is rolled again (1.4)

    def options(self, w: Work) -> list[Action]:
        return [Action("Initiative", text=p) for p in PLAYERS]

    def act(self, w: Work, a: Action) -> None:
        expect(a, ("Initiative",), "the roll-off winner's choice (rules/KT21.md 2.1)")
        if a.text not in PLAYERS:
            raise _illegal(f"initiative goes to A or B, not {a.text!r}")
        self._has(w, a.text)


KT21_TURNING_POINT = TurningPointSteps(
    begin=_initiative_phase,
    first="strategy",
    steps={"strategy": _strategic_ploys, "reveal": _target_reveal},
    firefight_stage="firefight",
    firefight=FirefightFrame,
    next_turning_point=TurningPointFrame,
    last_tp=LAST_TP,
)
"""The KT21 turning point (1.1, 2): the skeleton's parameters."""
