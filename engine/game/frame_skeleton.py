"""The pieces of the battle's frames that every edition shares, each taking the edition's
parameters (DESIGN.md: rulesets as composition roots; the core never asks which edition is in
play).

- :func:`run_turning_point`: one turning point as a skeleton of stages (``rules/KT24.md``
  1.3-1.5, 1.8; ``rules/KT21.md`` 1.1, 2): its start (turning point count, each ploy usable
  again, the ``turning_point_start`` ploy window), the edition's Strategy phase stages
  (:class:`TurningPointSteps`), the Firefight phase with its ploy windows, the scoring steps
  of the ops and the end of the turning point (effects "until the end of the turning point"
  end; the battle ends after the last one, :func:`end_battle`).
- :func:`roll_off_winner`: the winner of a two-dice roll-off (``rules/KT24.md`` 2.4,
  ``rules/KT21.md`` 2.1).
- :func:`push_steps`: the frames of the steps rule modules add at a point of the sequence
  (``Hooks.setup_step``, ``gambit_step``...), run in the order they were added.
- :class:`NoChoiceFrame`: the ``rolled``/``options``/``act`` of a frame that only runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from engine.game import ploys
from engine.game.actions import Action, IllegalActionError
from engine.game.state import PLAYERS, Result, Terminal
from engine.game.work import Work

__all__ = [
    "NoChoiceFrame",
    "TurningPointSteps",
    "end_battle",
    "push_steps",
    "roll_off_winner",
    "run_turning_point",
]


class NoChoiceFrame:
    """The :class:`~engine.game.work.Frame` methods of a frame that never rolls dice nor asks
    for a decision (it only runs): a base of ``attrs`` frames (no slots of its own, so a
    slotted frame stays slotted)."""

    __slots__ = ()

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        """Never called: the frame sets no chance node.

        Raises:
            IllegalActionError: always."""
        raise IllegalActionError("no dice here")

    def options(self, w: Work) -> list[Action]:  # pragma: no cover
        """No decision here: nothing to list."""
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover
        """Never called: the frame sets no decision node.

        Raises:
            IllegalActionError: always."""
        raise IllegalActionError("no decision here")


def roll_off_winner(w: Work, values: tuple[int, ...], purpose: str) -> str:
    """Emit the ``roll_off`` event of a roll-off for ``purpose`` whose ordered dice are
    ``values`` (player A's die, player B's die) and return its winner, ``"A"`` or ``"B"``
    (the higher die), or ``""`` on a tie (``rules/KT24.md`` 2.4, ``rules/KT21.md`` 2.1: what a
    tie does is the caller's rule)."""
    a, b = values
    w.emit("roll_off", purpose=purpose, a=a, b=b)
    if a == b:
        return ""
    return "A" if a > b else "B"


def push_steps(w: Work, steps: Sequence[Callable[[Work], Any]]) -> None:
    """Call each step (``fn(w) -> frame or None``, a list of ``Hooks``: ``setup_steps``,
    ``gambit_steps``...) in reverse order and push the frames they return, so that the frames
    run in the order the steps were added."""
    for step in reversed(steps):
        frame = step(w)
        if frame is not None:
            w.stack.append(frame)


@attrs.frozen(slots=True, eq=False)
class TurningPointSteps:
    """An edition's parameters of the turning point skeleton (:func:`run_turning_point`).

    Attributes:
        begin: run at the start of every turning point, after the ``turning_point_started``
            event and before the ``turning_point_start`` ploy window opens: pushes the
            edition's initiative frame (and does what the edition does first: KT21 readies
            every operative, ``rules/KT21.md`` 2.1).
        first: the frame's stage once the turning point has started (the first of ``steps``).
        steps: the edition's Strategy phase stages by name, in any order: each moves the
            frame to its next stage (``w.replace_top(stage=...)``) and pushes the frames of
            its step; the last moves it to ``firefight_stage``.
        firefight_stage: the stage that starts the Firefight phase.
        firefight: the Firefight phase frame, given the initiative player (``"A"``/``"B"``).
        next_turning_point: a new turning point frame (stage ``"start"``).
        last_tp: the battle's last turning point (4 in both editions: ``rules/KT24.md`` 1.8,
            ``rules/KT21.md`` 1.1).
    """

    begin: Callable[[Work], None]
    first: str
    steps: Mapping[str, Callable[[Work], None]]
    firefight_stage: str
    firefight: Callable[[str], Any]
    next_turning_point: Callable[[], Any]
    last_tp: int = 4


def run_turning_point(w: Work, stage: str, steps: TurningPointSteps) -> None:
    """Run the turning point frame on top of ``w``'s stack at ``stage`` (module docstring).

    Stages: ``"start"``; the edition's (``steps.steps``); ``steps.firefight_stage``; ``"end"``
    (the ``firefight_end`` window); ``"tp_end"`` (the ``turning_point_end`` window);
    ``"over"`` (the ops' scoring steps, ``Hooks.scoring_step``: their frames run first, the
    frame waiting at ``"scored"``); ``"scored"`` (the ``turning_point_ending`` event the ops
    score at, effects until the end of the turning point end, ``turning_point_ended``, then
    the next turning point or the end of the battle)."""
    if stage == "start":
        w.tp += 1
        w.phase = "strategy"
        for p in PLAYERS:  # each ploy at most once per turning point (KT24 7.1, KT21 2.2, 14)
            if w.pl(p).ploys_used:
                w.set_pl(p, ploys_used=())
        w.emit("turning_point_started", tp=w.tp)
        w.replace_top(stage=steps.first)
        steps.begin(w)
        ploys.open_window(w, "turning_point_start", tp=w.tp)
        return
    edition_step = steps.steps.get(stage)
    if edition_step is not None:
        edition_step(w)
    elif stage == steps.firefight_stage:
        w.phase = "firefight"
        w.replace_top(stage="end")
        w.stack.append(steps.firefight(w.initiative))
        ploys.open_window(w, "firefight_start", tp=w.tp)
    elif stage == "end":
        w.replace_top(stage="tp_end")
        ploys.open_window(w, "firefight_end", tp=w.tp)
    elif stage == "tp_end":
        w.replace_top(stage="over")
        ploys.open_window(w, "turning_point_end", tp=w.tp)
    else:
        if stage == "over":
            # Choices the ops' scoring asks for (tokens a player can remove, KT24 8.4), after
            # the last ploy window; none asked: the turning point ends at once.
            frames = [f for step in w.ctx.hooks.scoring_steps if (f := step(w)) is not None]
            if frames:
                w.replace_top(stage="scored")
                w.stack.extend(reversed(frames))
                return
        # The ops score (at turning_point_ending), then effects "until the end of the
        # turning point" end (KT24 7.1).
        w.emit("turning_point_ending", tp=w.tp)
        w.effects = [e for e in w.effects if e.until != "end_tp"]
        vp = (w.players[0].vp, w.players[1].vp)
        w.emit("turning_point_ended", tp=w.tp, vp=vp)
        w.stack.pop()
        if w.tp >= steps.last_tp:
            end_battle(w)
        else:
            w.stack.append(steps.next_turning_point())


def end_battle(w: Work) -> None:
    """End the battle after the last turning point (``rules/KT24.md`` 1.8;
    ``rules/KT21.md`` 1.1): most VP wins, equal VP is a draw; emits ``battle_ending`` (the
    ops' end-of-battle scoring) and ``battle_ended``, then sets the terminal node."""
    w.tp = 5
    w.phase = "over"
    w.emit("battle_ending")
    vp = (w.players[0].vp, w.players[1].vp)
    winner = "" if vp[0] == vp[1] else ("A" if vp[0] > vp[1] else "B")
    grades = (w.players[0].kill_grade, w.players[1].kill_grade)
    w.emit("battle_ended", vp=vp, winner=winner)
    w.finish(Terminal(Result(vp=vp, winner=winner, kill_grades=grades)))
