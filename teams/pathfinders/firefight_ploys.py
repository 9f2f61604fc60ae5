"""The Pathfinders' firefight ploys (``rules/KT24.md`` 7.1; registered by rule id in
``engine.rules.registry``): A Worthy Cause, Supporting Fire, Saviour Protocols, Point-Blank
Fusillade."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.dice.rules import WeaponRules
from engine.game import universal
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.ploys import GainToken, Ploy
from engine.rules.registry import register
from teams.pathfinders.common import FUSILLADE, active_op
from teams.pathfinders.support import (
    is_pathfinder,
    is_trooper,
    op_token,
    ploy_installer,
    shoot_frame,
)

_EPS = 1e-6


# -- A Worthy Cause ----------------------------------------------------------------------------


def mission_action_texts(w: Work, o: OperativeState) -> tuple[str, ...]:
    """The notation names (with their argument) of the mission actions ``o`` may perform now
    as a free action, in the order listed."""
    from engine.game.rule_actions import actions_of, is_mission_action

    out: list[str] = []
    for act in actions_of(w, o):
        if is_mission_action(act) and universal.rule_precheck(w, o, act, "free") is None:
            out += [a.text for a in act.options(w, o, "free") if a.text not in out]
    return tuple(out)


def _awc_eligible(w: Work, player: str, op: str, info: Mapping[str, Any]) -> bool:
    return is_trooper(w, op) and bool(mission_action_texts(w, w.op(op)))


def _awc_use(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    op = action.target
    universal.start_free_action(w, op, mission_action_texts(w, w.op(op)))


def _awc_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: a free mission action is worth 0.3 operatives (most score or set up
    VP)."""
    return 0.3


A_WORTHY_CAUSE_PLOY = Ploy(
    "A Worthy Cause",
    "firefight",
    triggers=("firefight_start",),
    target="friendly",
    eligible=_awc_eligible,
    use_hook=_awc_use,
    rule_id="pathfinders/firefight_ploy/a_worthy_cause",
    advice=_awc_advice,
)
"""A Worthy Cause (firefight, 1CP): at the start of the Firefight phase, one friendly
PATHFINDER operative (excluding DRONE) performs a free mission action at once (any mission
action of the mission's ops it may perform now; offered only on an operative that has one).
Notation ``Ploy a worthy cause on <operative>``."""


# -- Supporting Fire ---------------------------------------------------------------------------

SUPPORTING_FIRE = "pf_supporting_fire"
SUPPORT_RANGE = 6.0


def _only_engaged(w: Work, o: OperativeState, t: OperativeState, name: str, prof: Any) -> bool:
    """``t`` is visible, in range and within 6" of ``o``, and only a friend of ``o`` within its
    control range keeps it from being a valid target for ``o``'s weapon ``name`` (Seek and
    Range as the weapon has them for that shot, ``universal.weapon_rules``)."""
    from engine.game.shoot_targets import engaged_reason, range_reason, seek_kind, sight_reason

    if w.distance(w.place(o), w.place(t)) > SUPPORT_RANGE + _EPS:
        return False
    if engaged_reason(w, o, t) is None:
        return False
    rules = universal.weapon_rules(w, o.id, name, prof, "ranged", t.id)
    return sight_reason(w, o, t, seek_kind(rules)) is None and (
        range_reason(w, o, t, name, prof, rules) is None
    )


def _sf_eligible(w: Work, player: str, op: str, info: Mapping[str, Any]) -> bool:
    """A friendly PATHFINDER that could shoot an enemy within 6" but for a friend within that
    enemy's control range."""
    o = w.op(op)
    if not is_pathfinder(w, op) or op_token(w, op, SUPPORTING_FIRE):
        return False
    if "Shoot" in o.done or o.ap <= 0:
        return False
    weapons = universal.weapons_of(w, op, "ranged")
    return any(
        _only_engaged(w, o, t, name, prof) for t in w.enemies_of(op) for name, _, prof in weapons
    )


def _sf_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: 0.3 operatives (a shot at an enemy fighting a friend, who otherwise
    could not be shot)."""
    return 0.3


SUPPORTING_FIRE_PLOY = Ploy(
    "Supporting Fire",
    "firefight",
    # Between the actions of its activation, or as its counteraction begins: before it
    # selects the target of a Shoot, whichever activity it is in (4.5, 1.6).
    triggers=("during_activation", "counteract_start"),
    target="self",
    eligible=_sf_eligible,
    effects=(GainToken(SUPPORTING_FIRE, "end_activation"),),
    rule_id="pathfinders/firefight_ploy/supporting_fire",
    advice=_sf_advice,
)


def install_supporting_fire(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Supporting Fire (firefight, 1CP): during a friendly PATHFINDER operative's activation
    or as its counteraction begins (before it selects the target of a Shoot), for that
    Shoot, an enemy operative within 6" of it may be selected as a valid target though other
    friendly PATHFINDER operatives are within that enemy's control range. Triggers
    ``during_activation`` and ``counteract_start`` (offered only when such an enemy exists);
    the ``would_allow_target`` hook lifts that one reason. Limits: one
    Shoot action (the token ends with it, or with the activation); the target must still be
    visible, in range, not concealed in cover and within 6"."""

    def allow(w: Work, why: str | None, **info: Any) -> str | None:
        o, t = info.get("op"), info.get("target")
        if why is None or not isinstance(o, OperativeState) or not isinstance(t, OperativeState):
            return why
        if o.player not in players or not op_token(w, o.id, SUPPORTING_FIRE):
            return why
        weapon = str(info.get("weapon", ""))
        return None if _only_engaged(w, o, t, weapon, info["profile"]) else why

    def shot(w: Work, ev: Event) -> None:
        op = str(ev.get("op", ""))
        if w.effects and op_token(w, op, SUPPORTING_FIRE):
            w.effects = [e for e in w.effects if not (e.op == op and e.detail == SUPPORTING_FIRE)]

    hooks.ploy(SUPPORTING_FIRE_PLOY, players)
    hooks.transform("would_allow_target", allow)
    hooks.on("shoot_ended", shot)


# -- Saviour Protocols -------------------------------------------------------------------------

SAVIOUR_RANGE = 3.0


def _frame_index(w: Work, kind: type) -> int:
    """The index in the stack of the top-most frame of class ``kind`` (-1: none)."""
    for i in range(len(w.stack) - 1, -1, -1):
        if isinstance(w.stack[i], kind):
            return i
    return -1


def _sp_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    """A ranged Shoot (not Blast nor Torrent) selected a friendly PATHFINDER (excluding
    DRONE) as its target."""
    from engine.dice.rules import Blast, Torrent

    target = str(info.get("target", ""))
    if info.get("kind") != "ranged" or w.ctx.owner.get(target) != player:
        return False
    if not is_trooper(w, target):
        return False
    f = shoot_frame(w)
    if f is None or f.targets[:1] != (target,) or f.primary_set:
        return False
    rules = f.profile(w).rules
    return not (rules.has(Blast) or rules.has(Torrent))


def _sp_eligible(w: Work, player: str, op: str, info: Mapping[str, Any]) -> bool:
    """A friendly PATHFINDER DRONE visible to and within 3" of the original target."""
    from teams.pathfinders.support import is_drone

    if not is_pathfinder(w, op) or not is_drone(w, op):
        return False
    me, there = w.place(w.op(op)), w.place(w.op(str(info["target"])))
    return w.distance(me, there) <= SAVIOUR_RANGE + _EPS and bool(w.ctx.visible(w.kz, there, me))


def _sp_use(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """The drone becomes the target of the Shoot: in cover only if the original target was
    (and it is itself), obscured as it is from the shooter."""
    from engine.game.shoot import ShootFrame
    from engine.game.shoot_targets import targeting

    i = _frame_index(w, ShootFrame)
    f = w.stack[i]
    drone = action.target
    tg = targeting(w, w.op(f.shooter), w.op(drone))
    w.stack[i] = attrs.evolve(
        f,
        targets=(drone,),
        primary_cover=bool(f.primary_cover and tg.in_cover),
        primary_obscured=bool(tg.obscured),
        primary_set=True,
    )
    w.emit("saviour_protocols", op=drone, original=str(info["target"]), shooter=f.shooter)


def _sp_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: 0.3 operatives when the original target has 5 wounds or fewer left
    (the shot may well kill it), else 0.1 (the drone takes the damage instead)."""
    return 0.3 if w.op(str(info["target"])).wounds <= 5 else 0.1


SAVIOUR_PROTOCOLS_PLOY = Ploy(
    "Saviour Protocols",
    "firefight",
    triggers=("target_selected",),
    target="friendly",
    condition=_sp_condition,
    eligible=_sp_eligible,
    use_hook=_sp_use,
    rule_id="pathfinders/firefight_ploy/saviour_protocols",
    advice=_sp_advice,
)
"""Saviour Protocols (firefight, 1CP): when a friendly PATHFINDER operative (excluding DRONE)
is selected as the valid target of a Shoot (trigger ``target_selected``), a friendly
PATHFINDER DRONE visible to and within 3" of it becomes the target instead, valid or not; it
is in cover only if the original target was (and it is itself from the shooter). Not against
a weapon with Blast or Torrent. Notation ``Ploy saviour protocols on <drone>``. (Its cost is
the ``would_cost_ploy`` hooks' business: Drone Controller, Shield Generator.)"""

add_template(
    "saviour_protocols",
    lambda e: f"  Saviour Protocols: {e['op']} takes {e['shooter']}'s shot at {e['original']}",
)


# -- Point-Blank Fusillade ---------------------------------------------------------------------

PULSE_WEAPONS = ("burst cannon", "pulse carbine", "suppressed pulse carbine", "twin pulse carbine")
"""The pulse weapons (the team's composition note)."""
_ENGAGED_AT_START = "pf_engaged_at_start"
_ENGAGED_AT_FREE = "pf_engaged_at_free_start"
"""Token: within control range of an enemy when a free action outside any activation or
counteraction began (that free action is the activity whose start the ploy judges)."""
NO_EFFECT_IN_FUSILLADE = ("Devastating", "Piercing", "Torrent", "Range")
"""The rules a ranged weapon loses when used in melee through Point-Blank Fusillade (Range
has no meaning in a fight)."""


def is_pulse_weapon(name: str) -> bool:
    """``name`` (a weapon's notation name) is a pulse weapon."""
    base = name.lower().split(" (")[0]
    return base in PULSE_WEAPONS


def _fight_frame(w: Work) -> Any:
    from engine.game.fight import FightFrame

    i = _frame_index(w, FightFrame)
    return w.stack[i] if i >= 0 else None


def _fusillade_weapons(w: Work, op: str) -> list[str]:
    """The ranged weapons (notation names) ``op`` may use in melee: not grenades."""
    return [n for n, _, _ in universal.weapons_of(w, op, "ranged") if "grenade" not in n]


@attrs.frozen(slots=True)
class PointBlankFusillade:
    """Point-Blank Fusillade (firefight, 1CP; a :class:`engine.game.ploys.PloyLike`): when a
    friendly PATHFINDER operative (excluding DRONE) is retaliating (the ``target_selected``
    window of a Fight against it), if it was not within control range of an enemy operative
    at the start of that activation or counteraction (outside any: at the start of the free
    action in progress, e.g. one given at the start of the Firefight phase), it retaliates
    with one of its ranged
    weapons (not a grenade) as a melee weapon; it cannot block in that sequence
    (``would_allow_block``), and that weapon loses Devastating, Piercing and Torrent. If it is
    ready, has an Engage order and the weapon is a pulse weapon, it resolves the first
    success (``would_resolve_first``). Notation ``Ploy point-blank fusillade <weapon>``."""

    name: str = "Point-Blank Fusillade"
    kind: str = "firefight"
    cp: int = 1
    triggers: tuple[str, ...] = ("target_selected",)
    repeatable: bool = False
    rule_id: str = "pathfinders/firefight_ploy/point_blank_fusillade"

    def _defender(self, w: Work, player: str, info: Mapping[str, Any]) -> str:
        target = str(info.get("target", ""))
        if info.get("kind") != "melee" or w.ctx.owner.get(target) != player:
            return ""
        if not is_trooper(w, target) or op_token(w, target, _ENGAGED_AT_START):
            return ""
        if op_token(w, target, _ENGAGED_AT_FREE):
            return ""
        if any(e.kind == "no_retaliate" and e.op == target for e in w.effects):
            return ""
        f = _fight_frame(w)
        if f is None or f.defender != target:
            return ""
        return target

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """One action per ranged weapon (not a grenade) of the retaliating operative."""
        op = self._defender(w, player, info)
        if not op:
            return []
        return [
            Action("Ploy", text=f"point-blank fusillade {n}") for n in _fusillade_weapons(w, op)
        ]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Ploy point-blank fusillade <weapon>``."""
        return action.verb == "Ploy" and action.text.startswith("point-blank fusillade ")

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        return (
            f"{action}: Point-Blank Fusillade is used when a friendly PATHFINDER (not a DRONE) "
            "that was not within control range of an enemy at the start of the activation is "
            "retaliating, with one of its ranged weapons that is not a grenade"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """The defender's retaliating weapon becomes that ranged weapon (a melee weapon for
        the sequence, :func:`install_point_blank_fusillade`)."""
        from engine.game.fight import FightFrame

        op = str(info["target"])
        weapon = action.text.removeprefix("point-blank fusillade ")
        w.effects.append(
            Effect("token", op, "end_tp", source=self.name, detail=f"{FUSILLADE}:{weapon}")
        )
        i = _frame_index(w, FightFrame)
        f = w.stack[i]
        stage = "a_accurate" if f.stage == "retaliate" else f.stage
        w.stack[i] = attrs.evolve(f, dweapon=weapon, stage=stage)
        w.emit("retaliation_weapon", op=op, weapon=weapon)

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """Rule of thumb: 0.25 operatives with a pulse weapon when it would resolve first
        (ready, Engage order); else 0.1 when the ranged weapon's attacks times normal damage
        beat its best melee weapon's, else nothing."""
        op = str(info["target"])
        weapon = action.text.removeprefix("point-blank fusillade ")
        o = w.op(op)
        if is_pulse_weapon(weapon) and o.ready and o.order == "engage":
            return 0.25
        _, _, ranged = universal.find_weapon(w, o, weapon, "ranged")
        melee = [p.attacks * p.normal_damage for _, _, p in universal.weapons_of(w, op, "melee")]
        return 0.1 if ranged.attacks * ranged.normal_damage > max(melee, default=0) else 0.0


POINT_BLANK_FUSILLADE_PLOY = PointBlankFusillade()


def _melee_copy(name: str, weapon: Any, prof: Any) -> Any:
    """The ranged ``weapon``'s profile ``prof`` as a melee weapon without the rules
    :data:`NO_EFFECT_IN_FUSILLADE`."""
    from engine.teams.model import Weapon

    rules = WeaponRules(tuple(r for r in prof.rules.rules if r.name not in NO_EFFECT_IN_FUSILLADE))
    return Weapon(weapon.name, "melee", (attrs.evolve(prof, rules=rules),))


def install_point_blank_fusillade(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Point-Blank Fusillade (class docstring): a token names the ranged weapon used in
    melee (a ``weapon_source`` gives it as a melee weapon) until the fight ends; whether the
    operative was within control range of an enemy at the start of each activation and
    counteraction is noted then (``activated``, ``counteracted``)."""

    def fusillade(w: Work, op: str) -> str:
        for e in w.effects:
            if e.kind == "token" and e.op == op and e.detail.startswith(f"{FUSILLADE}:"):
                return e.detail.split(":", 1)[1]
        return ""

    def source(w: Work, op: str, kind: str) -> tuple[Any, ...]:
        if kind != "melee" or not w.effects or w.ctx.owner.get(op) not in players:
            return ()
        name = fusillade(w, op)
        if not name:
            return ()
        for n, weapon, prof in universal.weapons_of(w, op, "ranged"):
            if n == name:
                return (_melee_copy(n, weapon, prof),)
        return ()

    def engaged_at_start(w: Work, ev: Event) -> None:
        active = str(ev["op"])
        for p in players:
            for o in w.alive(p):
                if is_trooper(w, o.id) and w.in_enemy_control_range(o):
                    # A fact of the activation's start, not a stat change: kept quietly.
                    w.effects.append(
                        Effect(
                            "token", o.id, "end_activation", source=active, detail=_ENGAGED_AT_START
                        )
                    )

    def no_block(w: Work, allowed: bool, **info: Any) -> bool:
        op = str(info.get("op", ""))
        if not allowed or w.ctx.owner.get(op) not in players:
            return allowed
        f = _fight_frame(w)
        return not (f is not None and f.defender == op and fusillade(w, op) == f.dweapon)

    def first(w: Work, side: str, **info: Any) -> str:
        op = str(info.get("target", ""))
        if side == "d" or w.ctx.owner.get(op) not in players:
            return side
        weapon = str(info.get("weapon", ""))
        o = w.op(op)
        if fusillade(w, op) != weapon or not is_pulse_weapon(weapon):
            return side
        return "d" if o.ready and o.order == "engage" else side

    def ended(w: Work, ev: Event) -> None:
        if not w.effects:
            return
        for op in (str(ev.get("op", "")), str(ev.get("target", ""))):
            if fusillade(w, op):
                w.effects = [
                    e for e in w.effects if not (e.op == op and e.detail.startswith(FUSILLADE))
                ]

    hooks.ploy(POINT_BLANK_FUSILLADE_PLOY, players)
    hooks.weapon_source(source)

    def free_started(w: Work, ev: Event) -> None:
        # A free action outside any activation or counteraction (e.g. at the start of the
        # Firefight phase): its own start is "the start" the ploy judges.
        if active_op(w):
            return
        op = str(ev["op"])
        for p in players:
            for o in w.alive(p):
                if is_trooper(w, o.id) and w.in_enemy_control_range(o):
                    w.effects.append(
                        Effect("token", o.id, "end_tp", source=op, detail=_ENGAGED_AT_FREE)
                    )

    def free_ended(w: Work, ev: Event) -> None:
        op = str(ev["op"])
        if w.effects and not active_op(w):
            w.effects = [
                e for e in w.effects if not (e.detail == _ENGAGED_AT_FREE and e.source == op)
            ]

    hooks.on("activated", engaged_at_start)
    hooks.on("counteracted", engaged_at_start)
    hooks.on("free_action_granted", free_started)
    hooks.on("free_action_ended", free_ended)
    hooks.transform("would_allow_block", no_block)
    hooks.transform("would_resolve_first", first)
    hooks.on("fight_ended", ended)


register(
    "pathfinders/firefight_ploy/a_worthy_cause",
    ploy_installer(A_WORTHY_CAUSE_PLOY),
    "At the start of the Firefight phase, a non-drone Pathfinder performs a free mission action.",
)
register(
    "pathfinders/firefight_ploy/saviour_protocols",
    ploy_installer(SAVIOUR_PROTOCOLS_PLOY),
    'When a non-drone Pathfinder is selected as a Shoot target: a drone within 3" becomes the '
    "target (not vs Blast/Torrent).",
)
register(
    "pathfinders/firefight_ploy/point_blank_fusillade",
    install_point_blank_fusillade,
    "A non-drone Pathfinder retaliates with a ranged weapon (no block; pulse weapons may "
    "resolve first).",
)
register(
    "pathfinders/firefight_ploy/supporting_fire",
    install_supporting_fire,
    'For one Shoot, an enemy within 6" may be targeted though friends are in its control range.',
)
