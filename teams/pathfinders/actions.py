"""The Pathfinders' unique actions (registered by rule id in ``engine.rules.registry``):
Signal (Comms Specialist) and Medikit (Medical Technician)."""

from __future__ import annotations

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.choices import RuleRollFrame, on_roll
from engine.rules.registry import register
from teams.pathfinders.support import has_keyword, is_pathfinder, is_trooper

# -- Signal (Comms Specialist unique action) ---------------------------------------------------

COMMS_SPECIALIST = "COMMS SPECIALIST"
SIGNAL_RANGE = 6.0


@attrs.frozen(slots=True)
class Signal:
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

    def _targets(self, w: Work, o: OperativeState) -> list[str]:
        me = w.place(o)
        out = []
        for f in w.friends_of(o.id):
            if not is_pathfinder(w, f.id) or w.apl(f) > w.ctx.datacards[f.id].apl:
                continue
            there = w.place(f)
            if w.distance(me, there) <= SIGNAL_RANGE + 1e-6 and w.ctx.visible(w.kz, me, there):
                out.append(f.id)
        return out

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        if not has_keyword(w, o.id, COMMS_SPECIALIST) or not is_pathfinder(w, o.id):
            return f"{o.id} is not the Comms Specialist: only it performs Signal"
        if w.in_enemy_control_range(o):
            return f"{o.id} is within control range of an enemy operative (Signal)"
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> signal on <friend>`` for each friend it may select."""
        if self._why_not(w, o) is not None:
            return []
        return [Action("Act", op=o.id, text=self.text, target=f) for f in self._targets(w, o)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        why = self._why_not(w, o)
        if why is not None:
            return why
        if a.target not in self._targets(w, o):
            return (
                f"{a}: Signal selects another friendly PATHFINDER operative visible to and "
                f'within 6" of {o.id} whose APL is not already raised'
            )
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
    from teams.pathfinders.specialists import MEDIC_SAVED

    return any(e.op == op and e.detail.startswith(MEDIC_SAVED) for e in w.effects)


@attrs.frozen(slots=True)
class Medikit:
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

    def _targets(self, w: Work, o: OperativeState) -> list[str]:
        return [
            f.id
            for f in w.alive(o.player)
            if is_trooper(w, f.id)
            and f.wounds < w.ctx.datacards[f.id].wounds
            and (f.id == o.id or w.control_range(o, f))
            and not medic_saved(w, f.id)
        ]

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        if not has_keyword(w, o.id, MEDICAL_TECHNICIAN) or not is_pathfinder(w, o.id):
            return f"{o.id} is not the Medical Technician: only it performs Medikit"
        if w.in_enemy_control_range(o):
            return f"{o.id} is within control range of an enemy operative (Medikit)"
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> medikit on <friend>`` for each wounded friend it may select."""
        if self._why_not(w, o) is not None:
            return []
        return [Action("Act", op=o.id, text=self.text, target=f) for f in self._targets(w, o)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        why = self._why_not(w, o)
        if why is not None:
            return why
        if a.target not in self._targets(w, o):
            return (
                f"{a}: Medikit selects a friendly PATHFINDER operative (not a DRONE, not one "
                f"Medic! was used on this turning point) within {o.id}'s control range that "
                "has lost wounds"
            )
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """The wounds expected back (2D3, 4 on average, at most those lost) valued as wounds
        dealt are (``DAMAGE_WEIGHT`` of one wound's share of its starting wounds)."""
        from engine.agents.values import DAMAGE_WEIGHT

        t = w.op(a.target)
        most = w.ctx.datacards[t.id].wounds
        return float(DAMAGE_WEIGHT * min(4, most - t.wounds) / most)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Roll the 2D3 (:func:`_medikit_rolled` heals)."""
        w.stack.append(
            RuleRollFrame(
                player=o.player,
                rule=self.name,
                key=_MEDIKIT_ROLL,
                op=o.id,
                dice=2,
                label=f"Medikit 2D3 ({a.target})",
                data=(("target", a.target),),
            )
        )


def _medikit_rolled(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    """The target regains 2D3 wounds, never above its Wounds stat."""
    target = str(frame.get("target"))
    t = w.op(target)
    most = w.ctx.datacards[target].wounds
    regained = min(most - t.wounds, sum((v + 1) // 2 for v in values))
    if t.alive and regained > 0:
        w.set_op(target, wounds=t.wounds + regained)
    w.emit("wounds_regained", op=target, by=frame.op, rule=frame.rule, wounds=regained)


on_roll(_MEDIKIT_ROLL, _medikit_rolled)

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
