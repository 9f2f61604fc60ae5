"""A KT18 battle round as frames (``rules/KT18.md`` 2.1): its six phases in order.

:class:`BattleRoundFrame` sets ``state.tp`` to the round (1-5) and ``state.phase`` to the
phase under way (``"initiative"``, ``"movement"``, ``"psychic"``, ``"shooting"``,
``"fight"``, ``"morale"``), emitting ``kt18_phase_started`` as each begins:

1. ``"start"``: ``kt18_round_started``; then the start steps rule modules add
   (``Hooks.start_step``: Covert War's Retrieve the Cache in round 1, 9.7), before the
   Initiative phase. (The core also runs these steps once when the battle is created, with
   ``state.tp`` 0 and ``state.phase`` ``"setup"``; here ``state.tp`` is the round and
   ``state.phase`` is ``"initiative"``, so a step can tell the two apart.)
2. Initiative (:class:`~engine.rules.kt18.initiative.InitiativeFrame`, 2.2).
3. Movement (:class:`~engine.rules.kt18.movement.MovementPhaseFrame`, 3).
4. Psychic, Shooting, Fight: the frames of the phase steps rule modules add for the phase
   (``Hooks.phase_step("psychic", fn)``..., run in the order added, 4-7); a phase nobody
   installs passes with nothing done.
5. Morale (:class:`~engine.rules.kt18.morale.MoralePhaseFrame`, 8), which ends by removing
   every model's tokens.
6. ``kt18_round_ended``.
"""

from __future__ import annotations

import attrs

from engine.game.frame_skeleton import NoChoiceFrame, push_steps
from engine.game.work import Work
from engine.rules.kt18.initiative import InitiativeFrame
from engine.rules.kt18.morale import MoralePhaseFrame
from engine.rules.kt18.movement import MovementPhaseFrame

__all__ = ["PHASES", "STEP_PHASES", "BattleRoundFrame"]

PHASES = ("initiative", "movement", "psychic", "shooting", "fight", "morale")
"""The phases of a battle round in order (2.1)."""

STEP_PHASES = ("psychic", "shooting", "fight")
"""The phases made of the steps rule modules add (``Hooks.phase_step``)."""

_NEXT = {
    "start": "initiative",
    "initiative": "movement",
    "movement": "psychic",
    "psychic": "shooting",
    "shooting": "fight",
    "fight": "morale",
    "morale": "end",
}


@attrs.frozen(slots=True)
class BattleRoundFrame(NoChoiceFrame):
    """One battle round (module docstring).

    Attributes:
        round: the battle round (1-5).
        stage: ``"start"``, then the phase that begins next, then ``"end"``.
    """

    round: int
    stage: str = "start"

    def run(self, w: Work) -> None:
        """Begin the next phase (module docstring)."""
        stage = self.stage
        if stage == "start":
            w.tp = self.round
            w.phase = "initiative"
            w.emit("kt18_round_started", round=self.round)
            w.replace_top(stage="initiative")
            push_steps(w, w.ctx.hooks.start_steps)
            return
        if stage == "end":
            w.emit("kt18_round_ended", round=self.round)
            w.stack.pop()
            return
        w.phase = stage
        w.replace_top(stage=_NEXT[stage])
        w.emit("kt18_phase_started", phase=stage, round=self.round)
        if stage == "initiative":
            w.stack.append(InitiativeFrame())
        elif stage == "movement":
            w.stack.append(MovementPhaseFrame.begin(w))
        elif stage == "morale":
            w.stack.append(MoralePhaseFrame())
        else:
            push_steps(w, w.ctx.hooks.phase_steps.get(stage, ()))
