"""The choose-or-pass alternation of the KT18 Shooting and Fight phases (``rules/KT18.md``
5.1, 7.2, 7.3), shared by :class:`~engine.rules.kt18.shooting.ShootingPhaseFrame` and
:class:`~engine.rules.kt18.fight.FightPhaseFrame`.

A phase is made of sections (Ready, Fire! then Fire at Will; Hammer of Wrath then Fight For
Your Lives). In each section, in initiative order, the player whose turn it is chooses one of
its models (which then shoots or fights) or passes; the turn goes to the other player either
way; the section ends when both players pass in succession (5.1 reading (b): a pass only skips
that turn). A player with no model to choose passes without being asked. The frames keep
their place in the alternation in four fields (:class:`Alternation`): ``section``, ``turn``
(0 for the player with the initiative, 1 for the other), ``passes`` (in succession) and
``started`` (the section's start is told, ``kt18_section_started``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from engine.game.state import other
from engine.game.work import Work

__all__ = ["Alternation", "choose_model", "pass_turn", "run_section", "whose_turn"]


class Alternation(Protocol):
    """A phase frame in the alternation (module docstring)."""

    @property
    def section(self) -> str: ...

    @property
    def turn(self) -> int: ...

    @property
    def passes(self) -> int: ...

    @property
    def started(self) -> bool: ...


def whose_turn(w: Work, turn: int) -> str:
    """The player whose ``turn`` it is: 0 the player with the initiative, 1 the other (2.2)."""
    return w.initiative if turn == 0 else other(w.initiative)


def run_section(
    w: Work,
    frame: Alternation,
    *,
    phase: str,
    sections: Sequence[str],
    can_choose: Callable[[], bool],
    decision: str,
) -> None:
    """One step of ``frame`` (on top of the stack) in ``phase``'s ``sections`` (module
    docstring): tell the section's start; after two passes in succession go on to the next
    section, or end the phase (the frame is popped); a player who cannot choose
    (``can_choose()`` False: it has no model that may shoot or fight) passes without being
    asked; else ask it (``decision``)."""
    if not frame.started:
        w.emit("kt18_section_started", phase=phase, section=frame.section)
        w.replace_top(started=True)
        return
    if frame.passes >= 2:
        nxt = sections.index(frame.section) + 1
        if nxt < len(sections):
            w.replace_top(section=sections[nxt], turn=0, passes=0, started=False)
        else:
            w.stack.pop()
        return
    if not can_choose():
        w.replace_top(turn=1 - frame.turn, passes=frame.passes + 1)
        return
    w.decide(whose_turn(w, frame.turn), decision)


def pass_turn(w: Work, frame: Alternation, *, phase: str) -> None:
    """The player whose turn it is passes (``kt18_passed``): the turn goes to the other
    player, one more pass in succession."""
    player = whose_turn(w, frame.turn)
    w.emit("kt18_passed", phase=phase, player=player, section=frame.section)
    w.replace_top(turn=1 - frame.turn, passes=frame.passes + 1)


def choose_model(w: Work, frame: Alternation, op: str, *, phase: str) -> None:
    """The player whose turn it is chose the model ``op`` (``kt18_model_chosen``): the turn
    goes to the other player and the passes in succession start again. The caller marks the
    model's token before and pushes its shooting or fight after."""
    w.emit("kt18_model_chosen", op=op, phase=phase, section=frame.section)
    w.replace_top(turn=1 - frame.turn, passes=0)
