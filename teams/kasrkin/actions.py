"""The Kasrkin's unique actions (Battle Comms, Medikit, Auspex Scan)."""

from __future__ import annotations

from typing import Any

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.effects import cannot_be_obscured, unobscure
from engine.rules.medic import Medikit, heal_2d3
from engine.rules.registry import register
from engine.rules.unique_actions import PlainAction, SelectingAction
from teams.kasrkin.common import (
    RECON_TROOPER,
    SCAN_RANGE,
    SCANNING,
    is_kasrkin,
    medic_saved,
    scanned,
)

# -- Battle Comms (Vox-Trooper unique action) ---------------------------------------------------

VOX_TROOPER = "VOX-TROOPER"
APL_MAX = 3


@attrs.frozen(slots=True)
class BattleComms(SelectingAction):
    """Battle Comms (Vox-Trooper, 1AP; a :class:`engine.game.rule_actions.RuleActionLike`):
    another friendly KASRKIN operative gets APL +1 until the end of its next activation (not
    above 3 after all changes: not offered on one whose APL is already 3 or more, though it
    may be selected: no printed condition forbids it, and the +1 counts if its APL drops
    meanwhile). Not while within control range of an enemy operative. Twice per activation,
    as its datacard allows (the core's ``would_repeat_action`` hook,
    :func:`install_battle_comms`). Notation ``Act <vox> battle comms on <friend>``."""

    name: str = "Battle Comms"
    text: str = "battle comms"
    ap: int = 1
    family: str = ""

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """Other friendly KASRKIN operatives."""
        return [f.id for f in w.friends_of(o.id) if is_kasrkin(w, f.id)]

    def idle_target(self, w: Work, o: OperativeState, target: str) -> str | None:
        """A friend whose APL is already 3 gains nothing now (the cap)."""
        if w.apl(w.op(target)) >= APL_MAX:
            return f"{target}'s APL is already {APL_MAX} (Battle Comms)"
        return None

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects."""
        return "Battle Comms selects another friendly KASRKIN operative"

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """Only a Vox-Trooper performs it."""
        if VOX_TROOPER not in w.ctx.datacards[o.id].keywords:
            return f"{o.id} is not a Vox-Trooper: only it performs Battle Comms"
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: an action point for a friend worth 0.15 operatives while it is
        still to activate this turning point, 0.05 when it must wait for the next."""
        return 0.15 if w.op(a.target).ready else 0.05

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """APL +1 on the selected friend until the end of its next activation."""
        w.add_effect(Effect("apl", a.target, "end_next_activation", source=o.id, value=1))


BATTLE_COMMS = BattleComms()


BATTLE_COMMS_PER_ACTIVATION = 2
"""How many times a Vox-Trooper may perform Battle Comms in one activation (its datacard)."""


def install_battle_comms(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Battle Comms (class docstring): the action, and its second performance in an
    activation (``would_repeat_action``; never a third)."""

    def repeat(w: Work, allowed: bool, **info: Any) -> bool:
        op = str(info.get("op", ""))
        if allowed or info.get("action") != BATTLE_COMMS.text or info.get("mode") != "activation":
            return allowed
        if w.ctx.owner.get(op) not in players or BATTLE_COMMS.performer_problem(w, w.op(op)):
            return allowed
        done = sum(1 for d in info.get("done", ()) if d == BATTLE_COMMS.text)
        return done < BATTLE_COMMS_PER_ACTIVATION

    hooks.action(BATTLE_COMMS, players)
    hooks.transform("would_repeat_action", repeat)


# -- Medikit (Combat Medic unique action) -------------------------------------------------------

COMBAT_MEDIC = "COMBAT MEDIC"
_MEDIKIT_ROLL = "kasrkin_medikit"


def _combat_medic(w: Work, op: str) -> bool:
    """``op`` is a Combat Medic (its datacard keyword)."""
    return COMBAT_MEDIC in w.ctx.datacards[op].keywords


heal_2d3(_MEDIKIT_ROLL)
add_template("auspex_scan_ended", lambda e: f"  {e['op']}'s Auspex Scan ends")

MEDIKIT = Medikit(
    ap=0,
    roll=_MEDIKIT_ROLL,
    medic=_combat_medic,
    medic_name="a Combat Medic",
    patient=is_kasrkin,
    patients="a friendly KASRKIN operative",
    saved=medic_saved,
)
"""Medikit (Combat Medic, 0AP; :class:`engine.rules.medic.Medikit`): a wounded friendly
KASRKIN operative within the Medic's control range (itself too) regains up to 2D3 wounds."""


def install_medikit(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Medikit (class docstring)."""
    hooks.action(MEDIKIT, players)


# -- Auspex Scan (Recon-Trooper unique action) --------------------------------------------------


@attrs.frozen(slots=True)
class AuspexScan(PlainAction):
    """Auspex Scan (Recon-Trooper, 1AP; a :class:`engine.game.rule_actions.RuleActionLike`):
    until the start of its next activation or until it is incapacitated, enemy operatives
    within 8" of it are being scanned; a friendly KASRKIN operative shooting a scanned enemy
    ignores its being obscured (Elimination Pattern and Neutralise Target also apply against
    it). Not while within control range of an enemy operative. Notation
    ``Act <recon> auspex scan``. "Cannot be obscured" covers terrain (``would_target``) and
    the rules that obscure beyond it, such as a Smoke Grenade (``would_be_obscured``, after
    every rule that obscures: ``engine.rules.effects.cannot_be_obscured``)."""

    name: str = "Auspex Scan"
    text: str = "auspex scan"
    ap: int = 1
    family: str = ""

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """Only a Recon-Trooper performs it."""
        if RECON_TROOPER not in w.ctx.datacards[o.id].keywords:
            return f"{o.id} is not a Recon-Trooper: only it performs Auspex Scan"
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: 0.05 operatives per enemy operative within 8" (each may be shot
        through obscuring and loses its cover for the team's ploys), at most 0.25."""
        me = w.place(o)
        near = sum(1 for e in w.enemies_of(o.id) if w.distance(me, w.place(e)) <= SCAN_RANGE)
        return min(0.25, 0.05 * near)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Begin the scan (a token on the operative, removed at its next activation)."""
        w.add_effect(Effect("token", o.id, "end_battle", source=o.id, detail=SCANNING))


AUSPEX_SCAN = AuspexScan()


def install_auspex_scan(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Auspex Scan (class docstring)."""

    def stop(w: Work, ev: Event) -> None:
        op = str(ev.get("op", ""))
        if w.effects and any(e.op == op and e.detail == SCANNING for e in w.effects):
            w.effects = [e for e in w.effects if not (e.op == op and e.detail == SCANNING)]
            w.emit("auspex_scan_ended", op=op)

    def unobscured(w: Work, tg: Any, **info: Any) -> Any:
        op, target = str(info.get("op", "")), str(info.get("target", ""))
        if not tg.obscured or w.ctx.owner.get(op) not in players or not is_kasrkin(w, op):
            return tg
        if not scanned(w, target):
            return tg
        return unobscure(tg)

    hooks.action(AUSPEX_SCAN, players)
    hooks.on("activated", stop)
    hooks.on("operative_incapacitated", stop)
    # "Cannot be obscured": by terrain, and by a rule that obscures beyond it (smoke),
    # after every rule that obscures.
    cannot_be_obscured(hooks, unobscured)


# -- Adaptive Equipment (Kasrkin Trooper ability) -----------------------------------------------

TROOPER = "TROOPER"
_ADAPTIVE = "kasrkin_adaptive"


def _adaptive_why_not(w: Work, o: OperativeState, grenade: str, name: str) -> str | None:
    """Why ``o`` cannot throw ``grenade`` ("smoke"/"stun") through Adaptive Equipment now."""
    from teams.kasrkin.common import player_token

    if TROOPER not in w.ctx.datacards[o.id].keywords or not is_kasrkin(w, o.id):
        return f"{o.id} is not a Kasrkin Trooper: only Troopers have Adaptive Equipment"
    if player_token(w, o.player, f"{_ADAPTIVE}:{grenade}"):
        return f"{o.player} already used Adaptive Equipment for a {grenade} grenade this TP"
    if f"{grenade} grenade" in o.done:
        return f"{o.id} already performed {name} this activation: once per activation (1.5)"
    if w.in_enemy_control_range(o):
        return f"{o.id} cannot perform {name} within control range of an enemy operative (7.2)"
    return None


def _adaptive_used(w: Work, o: OperativeState, grenade: str) -> None:
    w.add_effect(
        Effect("token", "", "end_tp", source=o.id, detail=f"{_ADAPTIVE}:{grenade}", player=o.player)
    )


@attrs.frozen(slots=True)
class AdaptiveSmokeGrenade:
    """Adaptive Equipment, smoke (Kasrkin Trooper; a
    :class:`engine.game.rule_actions.RuleActionLike`): once per turning point, one friendly
    KASRKIN TROOPER operative performs the Smoke Grenade action (1AP, universal equipment
    rules: :mod:`engine.rules.equipment.grenades`), not counted against the Utility Grenades
    selected. Notation ``Act <trooper> adaptive smoke grenade at x,y``."""

    name: str = "Smoke Grenade (Adaptive Equipment)"
    text: str = "adaptive smoke grenade"
    ap: int = 1
    family: str = "smoke grenade"  # the same action: once per activation with the other

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """One action per listed smoke spot."""
        from engine.rules.equipment.grenades import smoke_spots

        if _adaptive_why_not(w, o, "smoke", self.name) is not None:
            return []
        return [Action("Act", op=o.id, text=self.text, point=p) for p in smoke_spots(w, o)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        from engine.rules.equipment.grenades import smoke_spot_problem

        why = _adaptive_why_not(w, o, "smoke", self.name)
        if why is not None:
            return why
        if a.target or a.point is None:
            return "a smoke grenade is placed at a point: 'Act <op> adaptive smoke grenade at x,y'"
        return smoke_spot_problem(w, o, a.point)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Place the smoke marker (the Smoke Grenade's), no Utility Grenades use spent."""
        from engine.game.tokens import Token

        assert a.point is not None
        x, y, z = a.point
        name = f"{o.player} adaptive smoke {w.tp}"
        w.tokens.append(Token("smoke", o.player, name, x, y, z))
        w.emit("smoke_placed", op=o.id, marker=name, x=x, y=y, z=z)
        _adaptive_used(w, o, "smoke")

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: a tenth of an operative when an enemy could shoot the thrower
        now and the smoke would cover it (on its own spot), else nothing."""
        if a.point is None or (a.point[0], a.point[1]) != (o.x, o.y):
            return 0.0
        threatened = any(w.ctx.visible(w.kz, w.place(e), w.place(o)) for e in w.enemies_of(o.id))
        return 0.1 if threatened else 0.0


@attrs.frozen(slots=True)
class AdaptiveStunGrenade:
    """Adaptive Equipment, stun (Kasrkin Trooper; a
    :class:`engine.game.rule_actions.RuleActionLike`): once per turning point, one friendly
    KASRKIN TROOPER operative performs the Stun Grenade action (1AP: an enemy visible to and
    within 6"; stun tests as in :mod:`engine.rules.equipment.grenades`), not counted against
    the Utility Grenades selected. Notation ``Act <trooper> adaptive stun grenade on
    <enemy>``."""

    name: str = "Stun Grenade (Adaptive Equipment)"
    text: str = "adaptive stun grenade"
    ap: int = 1
    family: str = "stun grenade"  # the same action: once per activation with the other

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """One action per enemy it may select."""
        from engine.rules.equipment.grenades import stun_candidates

        if _adaptive_why_not(w, o, "stun", self.name) is not None:
            return []
        return [Action("Act", op=o.id, text=self.text, target=e.id) for e in stun_candidates(w, o)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        from engine.rules.equipment.grenades import stun_candidates

        why = _adaptive_why_not(w, o, "stun", self.name)
        if why is not None:
            return why
        if a.target not in [e.id for e in stun_candidates(w, o)] or a.point is not None:
            return f'{a}: a stun grenade selects an enemy visible to and within 6" of {o.id}'
        return None

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Roll the stun tests (the Stun Grenade's), no Utility Grenades use spent."""
        from engine.rules.equipment.grenades import StunTestFrame, stun_tested

        _adaptive_used(w, o, "stun")
        w.stack.append(StunTestFrame(ops=stun_tested(w, a.target), source=o.id, player=o.player))

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """The heuristic's own stun value for that enemy (:func:`engine.advice.stun_value`)."""
        from engine.advice.values import stun_value
        from engine.rules.equipment.grenades import STUN_TEST, stun_tested

        return float(stun_value(w, o.player, stun_tested(w, a.target), STUN_TEST))


ADAPTIVE_SMOKE = AdaptiveSmokeGrenade()
ADAPTIVE_STUN = AdaptiveStunGrenade()


def install_adaptive_equipment(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Adaptive Equipment (the two action classes' docstrings)."""
    hooks.action(ADAPTIVE_SMOKE, players)
    hooks.action(ADAPTIVE_STUN, players)


register(
    "kasrkin/unique_action/battle_comms",
    install_battle_comms,
    "Vox-Trooper, 1AP: another friendly Kasrkin gets APL +1 (max 3) until the end of its next "
    "activation.",
)
register(
    "kasrkin/unique_action/medikit",
    install_medikit,
    "Combat Medic, 0AP: a wounded friendly Kasrkin in its control range regains up to 2D3 wounds.",
)
register(
    "kasrkin/unique_action/auspex_scan",
    install_auspex_scan,
    'Recon-Trooper, 1AP: until its next activation, enemies within 8" are scanned: Kasrkin '
    "shooting them ignore obscuring.",
)
register(
    "kasrkin/ability/adaptive_equipment",
    install_adaptive_equipment,
    "Once per TP each, a Kasrkin Trooper may perform the Smoke Grenade and the Stun Grenade "
    "action, not counted against grenades selected.",
)
