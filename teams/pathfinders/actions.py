"""The Pathfinders' unique actions (registered by rule id in ``engine.rules.registry``):
Signal (Comms Specialist) and Medikit (Medical Technician)."""

from __future__ import annotations

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.medic import heal_2d3, heal_roll
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
    nothing). Notation ``Act <comms> signal on <friend>``."""

    name: str = "Signal"
    text: str = "signal"
    ap: int = 1
    family: str = ""

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """Other friendly PATHFINDER operatives visible to and within 6" whose APL is not
        raised."""
        return [
            f.id
            for f in visible_friends_within(w, o, SIGNAL_RANGE)
            if is_pathfinder(w, f.id) and w.apl(f) <= w.ctx.datacards[f.id].apl
        ]

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects."""
        return (
            "Signal selects another friendly PATHFINDER operative visible to and "
            f'within 6" of {o.id} whose APL is not already raised'
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


@attrs.frozen(slots=True)
class Medikit(SelectingAction):
    """Medikit (Medical Technician, 1AP; a :class:`engine.game.rule_actions.RuleActionLike`):
    one friendly PATHFINDER operative (excluding DRONE) within its control range (itself
    included: the rule does not say "another") that has lost wounds regains up to 2D3 of
    them; not one the Medic! rule was used on this turning point. Not while within control
    range of an enemy operative. Notation ``Act <medic> medikit on <friend>``; the 2D3 is a
    team-rule roll of 2D6 (each D6 halved, rounded up)."""

    name: str = "Medikit"
    text: str = "medikit"
    ap: int = 1
    family: str = ""

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """Wounded friendly PATHFINDER troopers in its control range (itself too)."""
        return [
            f.id
            for f in w.alive(o.player)
            if is_trooper(w, f.id)
            and f.wounds < w.ctx.datacards[f.id].wounds
            and (f.id == o.id or w.control_range(o, f))
            and not medic_saved(w, f.id)
        ]

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects."""
        return (
            "Medikit selects a friendly PATHFINDER operative (not a DRONE, not one "
            f"Medic! was used on this turning point) within {o.id}'s control range that "
            "has lost wounds"
        )

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """Only the Medical Technician performs it."""
        if not has_keyword(w, o.id, MEDICAL_TECHNICIAN) or not is_pathfinder(w, o.id):
            return f"{o.id} is not the Medical Technician: only it performs Medikit"
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """The wounds expected back (2D3, 4 on average, at most those lost) valued as
        wounds dealt are (:func:`engine.advice.values.heal_value`)."""
        from engine.advice.values import heal_value

        return heal_value(w, a.target)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Roll the 2D3 (:func:`engine.rules.medic.heal_roll`)."""
        heal_roll(w, o, self.name, _MEDIKIT_ROLL, a.target)


heal_2d3(_MEDIKIT_ROLL)

MEDIKIT = Medikit()


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
