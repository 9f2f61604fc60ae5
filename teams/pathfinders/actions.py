"""The Pathfinders' unique actions (registered by rule id in ``engine.rules.registry``):
Signal (Comms Specialist) and Medikit (Medical Technician)."""

from __future__ import annotations

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.medic import Medikit, heal_2d3
from engine.rules.registry import register
from engine.rules.unique_actions import SelectingAction, visible_friends_within
from teams.pathfinders.support import has_keyword, is_pathfinder, is_trooper

# -- Signal (Comms Specialist unique action) ---------------------------------------------------

COMMS_SPECIALIST = "COMMS SPECIALIST"
SIGNAL_RANGE = 6.0


@attrs.frozen(slots=True)
class Signal(SelectingAction):
    """Signal (Comms Specialist, 1AP, SUPPORT; a
    :class:`engine.game.rule_actions.RuleActionLike`): another friendly PATHFINDER operative
    visible to and within 6" of it gets APL +1 until the end of that operative's next
    activation. Not while within control range of an enemy operative. Offered only on a friend
    whose APL is not already raised (APL changes are clamped at +1, 2.1: a second +1 does
    nothing now); one whose APL is raised may still be selected (no printed condition forbids
    it). Notation ``Act <comms> signal on <friend>``."""

    name: str = "Signal"
    text: str = "signal"
    ap: int = 1
    family: str = ""

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """Other friendly PATHFINDER operatives visible to and within 6"."""
        return [f.id for f in visible_friends_within(w, o, SIGNAL_RANGE) if is_pathfinder(w, f.id)]

    def idle_target(self, w: Work, o: OperativeState, target: str) -> str | None:
        """A friend whose APL is already raised gains nothing now."""
        if w.apl(w.op(target)) > w.ctx.datacards[target].apl:
            return f"{target}'s APL is already raised (Signal)"
        return None

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects."""
        return (
            "Signal selects another friendly PATHFINDER operative visible to and "
            f'within 6" of {o.id}'
        )

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """Only the Comms Specialist performs it."""
        if not has_keyword(w, o.id, COMMS_SPECIALIST) or not is_pathfinder(w, o.id):
            return f"{o.id} is not the Comms Specialist: only it performs Signal"
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: an action point for a friend, worth 0.15 operatives while it is
        still to activate this turning point, 0.05 when it must wait for the next."""
        return 0.15 if w.op(a.target).ready else 0.05

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """APL +1 on the selected friend until the end of its next activation."""
        w.add_effect(Effect("apl", a.target, "end_next_activation", source=o.id, value=1))


SIGNAL = Signal()


def install_signal(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Signal (class docstring)."""
    hooks.action(SIGNAL, players)


# -- Medikit (Medical Technician unique action) ------------------------------------------------

MEDICAL_TECHNICIAN = "MEDICAL TECHNICIAN"
_MEDIKIT_ROLL = "pathfinders_medikit"


def medic_saved(w: Work, op: str) -> bool:
    """Medic! was used on ``op`` this turning point (:mod:`teams.pathfinders.specialists`)."""
    from teams.pathfinders.specialists import MEDIC

    return MEDIC.saved(w, op)


def _medical_technician(w: Work, op: str) -> bool:
    """``op`` is the Pathfinders' Medical Technician."""
    return has_keyword(w, op, MEDICAL_TECHNICIAN) and is_pathfinder(w, op)


heal_2d3(_MEDIKIT_ROLL)

MEDIKIT = Medikit(
    ap=1,
    roll=_MEDIKIT_ROLL,
    medic=_medical_technician,
    medic_name="the Medical Technician",
    patient=is_trooper,
    patients=(
        "a friendly PATHFINDER operative (not a DRONE, not one Medic! was used on this "
        "turning point)"
    ),
    saved=medic_saved,
)
"""Medikit (Medical Technician, 1AP; :class:`engine.rules.medic.Medikit`): one wounded
friendly PATHFINDER operative, not a DRONE, within its control range (itself too) regains up
to 2D3 wounds."""


def install_medikit(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Medikit (class docstring)."""
    hooks.action(MEDIKIT, players)


register(
    "pathfinders/unique_action/signal",
    install_signal,
    'Comms Specialist, 1AP: another Pathfinder visible and within 6" gets APL +1 until the end '
    "of its next activation.",
)
register(
    "pathfinders/unique_action/medikit",
    install_medikit,
    "Medical Technician, 1AP: a wounded non-drone Pathfinder in its control range regains up "
    "to 2D3 wounds.",
)
