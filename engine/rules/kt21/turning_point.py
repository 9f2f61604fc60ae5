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
"""

from __future__ import annotations

import attrs

from engine.game import ploys
from engine.game.actions import Action, IllegalActionError
from engine.game.flow import GambitFrame, end_battle, expect
from engine.game.state import PLAYERS, other
from engine.game.work import Work
from engine.rules.kt21.firefight import FirefightFrame

__all__ = ["LAST_TP", "InitiativeFrame", "TurningPointFrame", "ready_operatives"]

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
class TurningPointFrame:
    """One turning point (module docstring).

    Attributes:
        stage: ``"start"``, ``"strategy"`` (initiative decided: the Strategy phase next),
            ``"reveal"`` (the strategic ploys done: Target Reveal next), ``"firefight"``,
            ``"end"``, ``"tp_end"``, ``"over"`` / ``"scored"`` (the end of the turning
            point).
    """

    stage: str = "start"

    def run(self, w: Work) -> None:
        if self.stage == "start":
            w.tp += 1
            w.phase = "strategy"
            for p in PLAYERS:  # each ploy at most once per turning point (2.2, 14)
                if w.pl(p).ploys_used:
                    w.set_pl(p, ploys_used=())
            w.emit("turning_point_started", tp=w.tp)
            w.replace_top(stage="strategy")
            ready_operatives(w)
            w.stack.append(InitiativeFrame())
            ploys.open_window(w, "turning_point_start", tp=w.tp)
        elif self.stage == "strategy":
            for p in PLAYERS:  # 2.2 step 1: each player gains 1CP, every turning point
                w.set_pl(p, cp=w.pl(p).cp + 1)
                w.emit("cp_gained", player=p, cp=1, total=w.pl(p).cp)
            w.replace_top(stage="reveal")
            w.stack.append(GambitFrame(turn=w.initiative))
        elif self.stage == "reveal":
            w.replace_top(stage="firefight")
            for step in reversed(w.ctx.hooks.gambit_steps):
                frame = step(w)
                if frame is not None:
                    w.stack.append(frame)
        elif self.stage == "firefight":
            w.phase = "firefight"
            w.replace_top(stage="end")
            w.stack.append(FirefightFrame(turn=w.initiative))
            ploys.open_window(w, "firefight_start", tp=w.tp)
        elif self.stage == "end":
            w.replace_top(stage="tp_end")
            ploys.open_window(w, "firefight_end", tp=w.tp)
        elif self.stage == "tp_end":
            w.replace_top(stage="over")
            ploys.open_window(w, "turning_point_end", tp=w.tp)
        else:
            if self.stage == "over":
                frames = [f for step in w.ctx.hooks.scoring_steps if (f := step(w)) is not None]
                if frames:
                    w.replace_top(stage="scored")
                    w.stack.extend(reversed(frames))
                    return
            w.emit("turning_point_ending", tp=w.tp)
            w.effects = [e for e in w.effects if e.until != "end_tp"]
            vp = (w.players[0].vp, w.players[1].vp)
            w.emit("turning_point_ended", tp=w.tp, vp=vp)
            w.stack.pop()
            if w.tp >= LAST_TP:
                end_battle(w)
            else:
                w.stack.append(TurningPointFrame())

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise _illegal("no dice here")

    def options(self, w: Work) -> list[Action]:  # pragma: no cover
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover
        raise _illegal("no decision here")


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
        a, b = values
        w.emit("roll_off", purpose=f"initiative TP{w.tp}", a=a, b=b)
        if a != b:
            w.replace_top(stage="choose", winner="A" if a > b else "B")
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
