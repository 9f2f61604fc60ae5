"""The Pathfinders' team equipment (``rules/KT24.md`` 7.2; registered by rule id in
``engine.rules.registry``): High-Intensity Markerlight, Orbital Survey Uplink, Photon Grenade
and Target Analysis Optic, each in play once its player selected it (``has_equipment``).
They build on the Markerlight token API of :mod:`teams.pathfinders.markerlights`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.dice.rules import Blast, Torrent
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.choices import RuleRollFrame, on_roll
from engine.rules.equipment.selection import has_equipment
from engine.rules.registry import register, register_equipment_value
from teams.pathfinders.markerlights import KIND, MAX_MARKERLIGHTS, can_markerlight, markerlights
from teams.pathfinders.support import (
    has_keyword,
    is_trooper,
    shoot_frame,
)

HIGH_INTENSITY = "High-Intensity Markerlight"
ORBITAL_UPLINK = "Orbital Survey Uplink"
PHOTON_GRENADE = "Photon Grenade"
TARGET_OPTIC = "Target Analysis Optic"
MV7_MARKER = "MV7 MARKER"


def _active(w: Work) -> str:
    """The operative whose activation is in progress (``""`` outside one)."""
    from engine.game.universal import ActivationFrame

    for f in reversed(w.stack):
        if isinstance(f, ActivationFrame) and f.mode == "activation":
            return str(f.op)
    return ""


# -- High-Intensity Markerlight ----------------------------------------------------------------

HIML_USES = 2
_HIML_USED = "pf_himl_used"
_UPLINK_USED = "pf_uplink_used"


def uplinked(w: Work, op: str, target: str) -> bool:
    """``op``'s Markerlight on ``target`` uses the Orbital Survey Uplink: its player selected
    it and ``target`` is not visible to ``op`` (only the uplink allows that)."""
    player = w.ctx.owner.get(op)
    if player is None or not w.pl(player).equipment:
        return False
    if not has_equipment(w, player, ORBITAL_UPLINK) or not target:
        return False
    return not w.ctx.visible(w.kz, w.place(w.op(op)), w.place(w.op(target)))


HIML_MODE = "high-intensity"
"""The word of the Markerlight action that uses it: ``Act PAT-1 markerlight high-intensity
on BLU-1``."""


def install_high_intensity_markerlight(hooks: Hooks, players: tuple[str, ...]) -> None:
    """High-Intensity Markerlight (equipment): up to twice per turning point, when a friendly
    PATHFINDER operative (not the MV7 Marker Drone, which has its own rule) performs the
    Markerlight action, its player may use it: the enemy selected gains two tokens instead
    of one. Chosen as the action is performed (in or out of its activation: a counteraction,
    a free Markerlight of Kauyon or Remote Pilot): the action's variant ``Act <op>
    markerlight high-intensity on <enemy>`` (the team's ``would_pathfinder_markerlight_modes``
    hook offers it; ``would_pathfinder_markerlight_gain`` gives the two tokens; a use is
    counted when that action is performed). Not offered on an enemy selected through the
    Orbital Survey Uplink (out of sight: not cumulative)."""

    def offered(w: Work, got: tuple[str, ...], **info: Any) -> tuple[str, ...]:
        op, target = str(info.get("op", "")), str(info.get("target", ""))
        player = w.ctx.owner.get(op)
        if player not in players or not w.pl(str(player)).equipment:
            return got
        if not has_equipment(w, str(player), HIGH_INTENSITY) or has_keyword(w, op, MV7_MARKER):
            return got
        if w.count(str(player), _HIML_USED) >= HIML_USES or uplinked(w, op, target):
            return got
        return (*got, HIML_MODE)

    def gain(w: Work, n: int, **info: Any) -> int:
        op = str(info.get("op", ""))
        if w.ctx.owner.get(op) not in players or info.get("mode") != HIML_MODE:
            return n
        return max(int(n), 2)

    def performed(w: Work, ev: Event) -> None:
        op = str(ev.get("op", ""))
        if w.ctx.owner.get(op) not in players or ev.get("mode") != HIML_MODE:
            return
        w.count(w.ctx.owner[op], _HIML_USED, add=1)
        w.emit(
            "equipment_used",
            player=w.ctx.owner[op],
            op=op,
            item=HIGH_INTENSITY,
            why="two tokens",
        )

    hooks.transform("would_pathfinder_markerlight_modes", offered)
    hooks.transform("would_pathfinder_markerlight_gain", gain)
    hooks.on("markerlight_performed", performed)
    hooks.on("turning_point_started", _reset(players, _HIML_USED))


def _reset(players: tuple[str, ...], key: str) -> Any:
    """A ``turning_point_started`` handler that zeroes the counter ``key`` of ``players``."""

    def reset(w: Work, ev: Event) -> None:
        for p in players:
            used = w.count(p, key)
            if used:
                w.count(p, key, add=-used)

    return reset


# -- Orbital Survey Uplink ---------------------------------------------------------------------


def install_orbital_survey_uplink(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Orbital Survey Uplink (equipment): once per turning point, when a friendly PATHFINDER
    operative performs the Markerlight action, it may select any enemy operative in the
    killzone, visible or not (the ``would_pathfinder_markerlight_target`` hook lifts the
    visibility reason). Selecting an enemy that is not visible is using it (so the choice is
    the player's, by the enemy it selects: :func:`uplinked`); that action then gives one
    token (not cumulative with High-Intensity Markerlight, the equipment or the MV7's).
    Not cumulative with Analyse either (the team's ``would_pathfinder_analyse`` hook turns it
    off for that action). Limits: once per turning point; the other conditions of the action
    (control range, the Shoot's target) still apply."""

    def target(w: Work, why: str | None, **info: Any) -> str | None:
        op, enemy = str(info.get("op", "")), str(info.get("target", ""))
        player = w.ctx.owner.get(op)
        if why is None or player not in players or not uplinked(w, op, enemy):
            return why
        if w.count(str(player), _UPLINK_USED) or not why.startswith(f"{enemy} is not visible"):
            return why
        return None

    def one(w: Work, n: int, **info: Any) -> int:
        op = str(info.get("op", ""))
        if w.ctx.owner.get(op) not in players or not uplinked(w, op, str(info.get("target", ""))):
            return n
        return 1

    def performed(w: Work, ev: Event) -> None:
        op = str(ev.get("op", ""))
        if w.ctx.owner.get(op) not in players or not uplinked(w, op, str(ev.get("target", ""))):
            return
        w.count(w.ctx.owner[op], _UPLINK_USED, add=1)
        w.emit(
            "equipment_used",
            player=w.ctx.owner[op],
            op=op,
            item=ORBITAL_UPLINK,
            why="an enemy out of sight",
        )

    def no_analyse(w: Work, allowed: bool, **info: Any) -> bool:
        op = str(info.get("op", ""))
        if not allowed or w.ctx.owner.get(op) not in players:
            return allowed
        return not uplinked(w, op, str(info.get("target", "")))

    hooks.transform("would_pathfinder_markerlight_target", target)
    hooks.transform("would_pathfinder_markerlight_gain", one)
    hooks.transform("would_pathfinder_analyse", no_analyse)
    hooks.on("markerlight_performed", performed)
    hooks.on("turning_point_started", _reset(players, _UPLINK_USED))


# -- Target Analysis Optic ---------------------------------------------------------------------

_OPTIC_USED = "pf_optic_used"
_OPTIC = "Target Analysis Optic"


@attrs.frozen(slots=True)
class TargetAnalysisOptic:
    """Target Analysis Optic (equipment; a rule option of the ``target_selected`` window of
    a Shoot, free): once per turning point, when a friendly PATHFINDER operative (excluding
    DRONE) has selected a valid target that has at least one of its player's Markerlight
    tokens, until the end of that Shoot the target is treated as having one more (a
    temporary token, removed when the Shoot ends; never more than four count). With Blast or
    Torrent only the primary target is affected. Notation ``Use target analysis optic``."""

    name: str = TARGET_OPTIC
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("target_selected",)
    repeatable: bool = True

    def _applies(self, w: Work, player: str, info: Mapping[str, Any]) -> bool:
        op, target = str(info.get("op", "")), str(info.get("target", ""))
        if info.get("kind") != "ranged" or not optic_ready(w, player, op):
            return False
        n = markerlights(w, target, player)
        return 0 < n < MAX_MARKERLIGHTS

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use target analysis optic`` while it applies."""
        if not w.pl(player).equipment or not self._applies(w, player, info):
            return []
        return [Action("Use", text="target analysis optic")]

    def owns(self, action: Action) -> bool:
        """Its action is ``Use target analysis optic``."""
        return action.verb == "Use" and action.text == "target analysis optic"

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        return (
            f"{action}: Target Analysis Optic (once per turning point) needs a friendly "
            "PATHFINDER (not a DRONE) shooting a target with 1-3 of its Markerlight tokens"
        )

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """Rule of thumb: 0.12 operatives (one more token's rule for this shot: Hit +1 at two,
        no obscuring at three, Seek Light at four)."""
        return 0.12

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """A temporary token on the primary target, removed when the Shoot ends."""
        f = shoot_frame(w)
        target = f.targets[0] if f is not None else str(info["target"])
        w.count(player, _OPTIC_USED, add=1)
        w.effects.append(_optic_token(target, player))
        w.emit(
            "equipment_used",
            player=player,
            op=str(info["op"]),
            item=TARGET_OPTIC,
            why="one more token",
        )


TARGET_OPTIC_RULE = TargetAnalysisOptic()


def optic_ready(w: Work, player: str, op: str) -> bool:
    """``op`` is a friendly PATHFINDER (not a DRONE) of ``player``, who selected the Target
    Analysis Optic and has not used it this turning point."""
    if w.ctx.owner.get(op) != player or not w.pl(player).equipment or not is_trooper(w, op):
        return False
    return has_equipment(w, player, TARGET_OPTIC) and not w.count(player, _OPTIC_USED)


def _optic_token(target: str, player: str) -> Effect:
    """The Target Analysis Optic's temporary Markerlight token on ``target``."""
    return Effect(KIND, target, "end_tp", source=_OPTIC, value=1, player=player)


def optic_makes_valid(w: Work, o: OperativeState, t: OperativeState, seek: Any) -> bool:
    """``t`` is not a valid target for ``o`` by sight alone (a Conceal operative in cover,
    4.5) with the weapon's Seek ``seek`` now, and would be with the Target Analysis Optic's
    one more Markerlight token: ``t`` has three of them, so four (Seek Light: light terrain
    cannot make it invalid, Markerlight) once the optic is used (its rule is used "when
    selecting a valid target": before the target is selected, so a target it makes valid
    can be selected)."""
    player = o.player
    if not optic_ready(w, player, o.id) or markerlights(w, t.id, player) != MAX_MARKERLIGHTS - 1:
        return False
    if seek in ("all", "light"):
        return False  # (Seek Light would change nothing)
    kz = w.kz
    if w.ctx.valid_target(kz, w.place(t), w.place(o), t.order, seek):
        return False
    return bool(w.ctx.valid_target(kz, w.place(t), w.place(o), t.order, "light"))


def install_target_analysis_optic(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Target Analysis Optic (class docstring). With Blast, the secondary targets are not
    affected: the temporary token is taken off when the primary's sequence is done
    (``attack_dice_resolved``) and in any case when the Shoot ends."""

    def drop(w: Work) -> None:
        if any(e.source == _OPTIC and e.kind == KIND for e in w.effects):
            w.effects = [e for e in w.effects if not (e.source == _OPTIC and e.kind == KIND)]

    def resolved(w: Work, ev: Event) -> None:
        f = shoot_frame(w)
        if f is not None and ev.get("target") == f.targets[0]:
            rules = f.profile(w).rules  # (as rules give them: a Blast a rule gives, 6)
            if rules.has(Blast) or rules.has(Torrent):
                drop(w)

    def allow(w: Work, why: str | None, **info: Any) -> str | None:
        # Before the target is selected: a Conceal target in light cover the optic's fourth
        # token (Seek Light) makes valid may be selected; selecting it uses the optic.
        o, t = info.get("op"), info.get("target")
        if why is None or not isinstance(o, OperativeState) or not isinstance(t, OperativeState):
            return why
        if o.player not in players or not _optic_sight(w, o, t, info):
            return why
        from engine.game import shoot_targets

        weapon, prof = str(info.get("weapon", "")), info["profile"]
        return shoot_targets.engaged_reason(w, o, t) or shoot_targets.range_reason(
            w, o, t, weapon, prof
        )

    def declared(w: Work, ev: Event) -> None:
        o, t = w.op(str(ev["op"])), w.op(str(ev["target"]))
        if ev.get("point_blank") or o.player not in players:
            return
        if not _optic_sight(w, o, t, {"weapon": ev.get("weapon", "")}):
            return
        w.count(o.player, _OPTIC_USED, add=1)
        w.effects.append(_optic_token(t.id, o.player))
        w.emit("equipment_used", player=o.player, op=o.id, item=TARGET_OPTIC, why="one more token")

    hooks.ploy(TARGET_OPTIC_RULE, players)
    hooks.transform("would_allow_target", allow)
    hooks.on("shoot_declared", declared)
    hooks.on("shoot_ended", lambda w, ev: drop(w))
    hooks.on("attack_dice_resolved", resolved)
    hooks.on("turning_point_started", _reset(players, _OPTIC_USED))


def _optic_sight(w: Work, o: OperativeState, t: OperativeState, info: Mapping[str, Any]) -> bool:
    """:func:`optic_makes_valid` for ``o``'s shot with ``info``'s weapon at ``t`` (a weapon
    from its datacard: the Markerlight rules apply to those only)."""
    if not w.effects or not w.pl(o.player).equipment:
        return False
    from engine.game import universal
    from engine.game.shoot_targets import seek_kind
    from teams.pathfinders.common import from_datacard

    name = str(info.get("weapon", ""))
    if not name or not from_datacard(w, o.id, name) or "grenade" in name.lower():
        return False
    _, _, prof = universal.find_weapon(w, o, name, "ranged")
    seek = seek_kind(universal.weapon_rules(w, o.id, name, prof, "ranged", t.id))
    return optic_makes_valid(w, o, t, seek)


# -- Photon Grenade ----------------------------------------------------------------------------

_PHOTON_USED = "pf_photon_used"
_PHOTON_ROLL = "pathfinders_photon_grenade"
PHOTON_SUCCESS = 3
PHOTON_MOVE = -2


@attrs.frozen(slots=True)
class PhotonGrenade:
    """Photon Grenade (equipment unique action, 1AP; a
    :class:`engine.game.rule_actions.RuleActionLike`): once per turning point, a friendly
    PATHFINDER operative (excluding DRONE) that has the Markerlight action on its datacard
    selects an enemy operative visible to it and rolls a D6: on a 3+, until the end of that
    enemy's next activation, its Move is 2" lower (never below 4", 2.1). Not while within
    control range of an enemy operative. Notation ``Act <op> photon grenade on <enemy>``."""

    name: str = PHOTON_GRENADE
    text: str = "photon grenade"
    ap: int = 1
    family: str = ""

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        if not has_equipment(w, o.player, PHOTON_GRENADE):
            return f"{o.player} did not select the Photon Grenade"
        if not is_trooper(w, o.id) or not can_markerlight(w, o.id):
            return (
                f"{o.id} cannot throw the Photon Grenade: only a PATHFINDER (not a DRONE) with "
                "the Markerlight action"
            )
        if w.count(o.player, _PHOTON_USED):
            return f"{o.player} already used the Photon Grenade this turning point"
        if w.in_enemy_control_range(o):
            return f"{o.id} is within control range of an enemy operative (Photon Grenade)"
        return None

    def _targets(self, w: Work, o: OperativeState) -> list[str]:
        me = w.place(o)
        return [e.id for e in w.enemies_of(o.id) if w.ctx.visible(w.kz, me, w.place(e))]

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> photon grenade on <enemy>`` for each visible enemy."""
        if not w.pl(o.player).equipment or self._why_not(w, o) is not None:
            return []
        return [Action("Act", op=o.id, text=self.text, target=e) for e in self._targets(w, o)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        why = self._why_not(w, o)
        if why is not None:
            return why
        if a.target not in self._targets(w, o):
            return f"{a}: the Photon Grenade selects an enemy operative visible to {o.id}"
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: two thirds of 0.08 operatives against a ready enemy (2" less to
        move in its coming activation), a third of that against an expended one."""
        return (2 / 3) * (0.08 if w.op(a.target).ready else 0.03)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Count the use; roll the D6 (:func:`_photon_rolled`)."""
        w.count(o.player, _PHOTON_USED, add=1)
        w.stack.append(
            RuleRollFrame(
                player=o.player,
                rule=self.name,
                key=_PHOTON_ROLL,
                op=o.id,
                dice=1,
                label=f"Photon Grenade ({a.target})",
                data=(("target", a.target),),
            )
        )


def _photon_rolled(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    """On a 3+ the enemy's Move is 2" lower until the end of its next activation."""
    target = str(frame.get("target"))
    hit = values[0] >= PHOTON_SUCCESS
    if hit and w.op(target).alive:
        w.add_effect(
            Effect("move", target, "end_next_activation", source=frame.op, value=PHOTON_MOVE)
        )
    w.emit("photon_grenade", op=frame.op, target=target, roll=values[0], blinded=hit)


on_roll(_PHOTON_ROLL, _photon_rolled)
add_template(
    "photon_grenade",
    lambda e: (
        f"  Photon Grenade on {e['target']}: {e['roll']}"
        + (' (Move -2")' if e["blinded"] else " (no effect)")
    ),
)

PHOTON_GRENADE_ACTION = PhotonGrenade()


def install_photon_grenade(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Photon Grenade (class docstring)."""
    hooks.action(PHOTON_GRENADE_ACTION, players)
    hooks.on("turning_point_started", _reset(players, _PHOTON_USED))


register(
    "pathfinders/equipment/high_intensity_markerlight",
    install_high_intensity_markerlight,
    "Twice per TP, a Pathfinder's (not the MV7's) Markerlight action gives two tokens.",
)
register(
    "pathfinders/equipment/orbital_survey_uplink",
    install_orbital_survey_uplink,
    "Once per TP, a Pathfinder's Markerlight action may select an enemy that is not visible.",
)
register(
    "pathfinders/equipment/target_analysis_optic",
    install_target_analysis_optic,
    "Once per TP, a non-drone Pathfinder's Shoot target with a Markerlight token counts one more.",
)
register(
    "pathfinders/equipment/photon_grenade",
    install_photon_grenade,
    "Once per TP, a non-drone Pathfinder with Markerlight: 1AP, on a 3+ a visible enemy has Move "
    '-2" until the end of its next activation.',
)
register_equipment_value("pathfinders/equipment/high_intensity_markerlight", 3.0)
register_equipment_value("pathfinders/equipment/target_analysis_optic", 2.5)
register_equipment_value("pathfinders/equipment/orbital_survey_uplink", 2.0)
register_equipment_value("pathfinders/equipment/photon_grenade", 1.5)
