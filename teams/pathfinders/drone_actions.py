"""The Pathfinders' drone unique actions (lane pf-core): Remote Pilot (Drone Controller),
Pulse Accelerator (MV31 Pulse Accelerator Drone)."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from engine.dice.rules import Lethal, Severe, WeaponRule
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.rule_actions import actions_of
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.registry import register
from engine.rules.unique_actions import PlainAction, SelectingAction
from teams.pathfinders.common import has_keyword, is_drone, is_pathfinder, is_pulse_weapon
from teams.pathfinders.drones import REMOTE_PILOTED, remote_piloted

DRONE_CONTROLLER = "DRONE CONTROLLER"
MV31 = "MV31 PULSE ACCELERATOR"
REMOTE_PILOT_MOVE = 2.0
UNIVERSAL_VERBS = (
    "Guard",
    "Reposition",
    "Dash",
    "Fall Back",
    "Charge",
    "Shoot",
    "Fight",
    "Pick up",
    "Place marker",
    "Operate hatch",
)
PULSE_RANGE = 3.0
ACCELERATING = "pf_pulse_accelerator"
_PILOTED_DONE = "pf_piloted:"


# -- Remote Pilot (Drone Controller) ------------------------------------------------------------


@attrs.frozen(slots=True)
class RemotePilot(SelectingAction):
    """Remote Pilot (Drone Controller, 1AP; a
    :class:`engine.game.rule_actions.RuleActionLike`): one friendly PATHFINDER DRONE
    operative at once performs one free action (any action, even one its Drone rule forbids),
    moving at most 2" in it; the player chooses the action in the drone's free-action
    decision (``End activation`` declines). Not while the controller is within control range
    of an enemy operative. It may be performed more than once in an activation (the core's
    ``would_repeat_action`` hook), but the same drone never performs the same free action
    twice in one activation of the controller (the drone's free actions are noted when each
    ends, ``action_ended``, and refused again through ``would_refuse_action``). Notation
    ``Act <controller> remote pilot on <drone>``."""

    name: str = "Remote Pilot"
    text: str = "remote pilot"
    ap: int = 1
    family: str = ""

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """The friendly drones."""
        return [f.id for f in w.friends_of(o.id) if is_drone(w, f.id)]

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects."""
        return "Remote Pilot selects a friendly PATHFINDER DRONE operative"

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """Only a Drone Controller performs it."""
        if not has_keyword(w, o.id, DRONE_CONTROLLER):
            return f"{o.id} is not a Drone Controller: only it performs Remote Pilot"
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: the drone's best shot where it stands when it has an Engage
        order (a free Shoot), else 0.09 when it can mark a visible enemy (a free
        Markerlight: one token), else 0.02 (a 2" move)."""
        from engine.advice.shots import best_shot_now
        from teams.pathfinders.markerlights import can_markerlight

        d = w.op(a.target)
        shot = best_shot_now(w, d, as_engage=False) if d.order == "engage" else 0.0
        kz, here = w.kz, w.place(d)
        marks = can_markerlight(w, d.id) and any(
            w.ctx.visible(kz, here, w.place(e)) for e in w.enemies_of(d.id)
        )
        return max(shot, 0.09 if marks else 0.0, 0.02)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Push the drone's free action (at most 2" of movement)."""
        from engine.game import universal

        d = w.op(a.target)
        allowed = UNIVERSAL_VERBS + tuple(act.text for act in actions_of(w, d))
        w.effects.append(Effect("token", d.id, "end_tp", source=o.id, detail=REMOTE_PILOTED))
        universal.start_free_action(w, d.id, allowed, max_move=REMOTE_PILOT_MOVE)


REMOTE_PILOT = RemotePilot()


def _piloted_done(w: Work, drone: str) -> set[str]:
    """The free actions Remote Pilot already had ``drone`` perform in the activation in
    progress of its controller."""
    return {
        e.detail[len(_PILOTED_DONE) :]
        for e in w.effects
        if e.kind == "token" and e.op == drone and e.detail.startswith(_PILOTED_DONE)
    }


def install_remote_pilot(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Remote Pilot (class docstring). The drone's token that lifts its Drone rule ends with
    its free action (``free_action_ended``)."""

    def repeat(w: Work, allowed: bool, **info: Any) -> bool:
        op = str(info.get("op", ""))
        if allowed or info.get("action") != REMOTE_PILOT.text or info.get("mode") != "activation":
            return allowed
        return w.ctx.owner.get(op) in players and has_keyword(w, op, DRONE_CONTROLLER)

    def note(w: Work, ev: Event) -> None:
        op = str(ev.get("op", ""))
        if ev.get("mode") != "free" or not op or not remote_piloted(w, op):
            return
        controller = next(e.source for e in w.effects if e.op == op and e.detail == REMOTE_PILOTED)
        for done in w.op(op).done:
            if done not in _piloted_done(w, op):
                w.effects.append(
                    Effect(
                        "token",
                        op,
                        "end_activation",
                        source=controller,
                        detail=_PILOTED_DONE + done,
                    )
                )

    def refuse(w: Work, why: Any, **info: Any) -> Any:
        op, action = str(info.get("op", "")), str(info.get("action", ""))
        if why is not None or not op or not remote_piloted(w, op):
            return why
        if action in _piloted_done(w, op):
            return f"{op} already performed {action} through Remote Pilot in this activation"
        return why

    hooks.transform("would_repeat_action", repeat)
    hooks.on("action_ended", note)
    hooks.transform("would_refuse_action", refuse)

    def ended(w: Work, ev: Event) -> None:
        op = str(ev.get("op", ""))
        if w.effects:
            w.effects = [
                e
                for e in w.effects
                if not (e.kind == "token" and e.op == op and e.detail == REMOTE_PILOTED)
            ]

    hooks.action(REMOTE_PILOT, players)
    hooks.on("free_action_ended", ended)


# -- Pulse Accelerator (MV31) ---------------------------------------------------------------------


def accelerating(w: Work, op: str) -> bool:
    """The MV31 ``op`` has performed Pulse Accelerator and its next activation has not
    begun."""
    return any(e.kind == "token" and e.op == op and e.detail == ACCELERATING for e in w.effects)


@attrs.frozen(slots=True)
class PulseAccelerator(PlainAction):
    """Pulse Accelerator (MV31 Pulse Accelerator Drone, 1AP; a
    :class:`engine.game.rule_actions.RuleActionLike`): until the start of its next
    activation or until it is incapacitated, whenever another friendly PATHFINDER operative
    within 3" of it is shooting with a pulse weapon (burst cannon, pulse carbine, suppressed
    pulse carbine, twin pulse carbine), that weapon has Lethal 5+ and Severe. Notation
    ``Act <mv31> pulse accelerator``. Trigger: the core's would_use_weapon_rules hook while
    the drone has its token (removed when it is next activated)."""

    name: str = "Pulse Accelerator"
    text: str = "pulse accelerator"
    ap: int = 1
    family: str = ""

    engaged_ok: ClassVar[bool] = True

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """Only an MV31 drone performs it."""
        if not has_keyword(w, o.id, MV31):
            return f"{o.id} is not an MV31 drone: only it performs Pulse Accelerator"
        return None

    def idle(self, w: Work, o: OperativeState, mode: str) -> str | None:
        """While its Pulse Accelerator is active, performing it again changes nothing (the
        same effect, until the same time): legal (no printed condition), not offered."""
        if accelerating(w, o.id):
            return f"{o.id}'s Pulse Accelerator is already active"
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: 0.06 operatives per friendly PATHFINDER with a pulse weapon
        within 3" of the drone (each shot gains Lethal 5+ and Severe), counting those still
        to activate fully and the others at a third (they may counteract)."""
        from engine.game.universal import weapons_of

        here = w.place(o)
        value = 0.0
        for f in w.friends_of(o.id):
            if not is_pathfinder(w, f.id) or w.distance(here, w.place(f)) > PULSE_RANGE:
                continue
            if any(is_pulse_weapon(n) for n, _, _ in weapons_of(w, f.id, "ranged")):
                value += 0.06 if f.ready else 0.02
        return value

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """The drone's token, until the start of its next activation (already there when
        it is active: nothing more)."""
        if self.idle(w, o, mode) is not None:
            return
        w.effects.append(Effect("token", o.id, "end_battle", source=o.id, detail=ACCELERATING))
        w.emit("pulse_accelerator", op=o.id)


PULSE_ACCELERATOR = PulseAccelerator()


def install_pulse_accelerator(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Pulse Accelerator (class docstring)."""

    def stop(w: Work, ev: Event) -> None:
        op = str(ev.get("op", ""))
        if w.effects and accelerating(w, op):
            w.effects = [
                e
                for e in w.effects
                if not (e.kind == "token" and e.op == op and e.detail == ACCELERATING)
            ]

    def rules(w: Work, value: Any, **info: Any) -> Any:
        op, weapon = str(info.get("op", "")), str(info.get("weapon", ""))
        if info.get("kind") != "ranged" or not w.effects or not is_pulse_weapon(weapon):
            return value
        if w.ctx.owner.get(op) not in players or not is_pathfinder(w, op):
            return value
        here = w.place(w.op(op))
        for d in w.friends_of(op):
            if accelerating(w, d.id) and w.distance(here, w.place(d)) <= PULSE_RANGE + 1e-6:
                extra: list[WeaponRule] = []
                if not value.has(Lethal):
                    extra.append(Lethal(5))
                if not value.has(Severe):
                    extra.append(Severe())
                return value.with_rules(*extra) if extra else value
        return value

    hooks.action(PULSE_ACCELERATOR, players)
    hooks.on("activated", stop)
    hooks.on("operative_incapacitated", stop)
    hooks.transform("would_use_weapon_rules", rules)


add_template("pulse_accelerator", lambda e: f"  {e['op']}'s Pulse Accelerator is active")

register(
    "pathfinders/unique_action/remote_pilot",
    install_remote_pilot,
    'Drone Controller, 1AP: a friendly drone takes one free action (moving at most 2").',
)
register(
    "pathfinders/unique_action/pulse_accelerator",
    install_pulse_accelerator,
    "MV31, 1AP: friends' pulse weapons within 3\" get Lethal 5+ and Severe till it next activates.",
)
