"""The Pathfinders' drone rules (lane pf-core): Drone, Drone Controller, Analyse (MB3),
Grav-Inhibitor (MV33), High-Intensity Markerlight (MV7), Shield Generator (MV4).

Drones count for the kill op like any operative (the dataslate says nothing else); only
marker control treats them apart (APL 1 lower).
"""

from __future__ import annotations

import math
from typing import Any

from engine.dice.rules import Piercing, PiercingCrits, WeaponRules
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.choices import RuleChoiceFrame, on_choice
from engine.rules.registry import register, rule_id
from teams.pathfinders.common import (
    TEAM,
    activation_frame,
    from_datacard,
    has_keyword,
    is_drone,
    mine,
)
from teams.pathfinders.markerlights import MB3_RECON, MV7_MARKER, add_markerlights, analyse_targets

DRONE_ACTIONS = ("Charge", "Dash", "Fall Back", "Fight", "Reposition", "Shoot", "markerlight")
"""The actions the Drone rule allows (universal verbs; ``markerlight`` the unique action)."""
REMOTE_PILOTED = "pf_remote_piloted"
"""Token on a drone performing Remote Pilot's free action (the Drone rule does not limit it)."""
DRONE_CONTROLLER = "DRONE CONTROLLER"
MV4_SHIELD = "MV4 SHIELD"
MV33_GRAV = "MV33 GRAV-INHIBITOR"
SAVIOUR_PROTOCOLS = "Saviour Protocols"
CONTROLLER_MOVE = 2.0
GRAV_RANGE = 6.0
GRAV_PENALTY = 2.0
_SHIELD_USED = "pf_shield_generator_used"
_SHIELD_ARMED = "pf_shield_generator_armed"
_SHIELD_KEY = "pathfinders_shield_generator"


def remote_piloted(w: Work, op: str) -> bool:
    """``op`` is performing the free action Remote Pilot gave it."""
    frame = activation_frame(w, op)
    if frame is None or getattr(frame, "mode", "") != "free":
        return False
    return any(e.kind == "token" and e.op == op and e.detail == REMOTE_PILOTED for e in w.effects)


# -- Drone ---------------------------------------------------------------------------------


def install_drone(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Drone (every PATHFINDER DRONE operative): it performs no actions but Charge, Dash,
    Fall Back, Fight, Markerlight, Reposition and Shoot (and the unique actions of its own
    datacard: the MV31's Pulse Accelerator, read as allowed since its datacard gives it), and
    none at all limits it during Remote Pilot's free action; it uses no weapon that is not on
    its datacard (equipment weapons); its APL counts 1 lower for marker control. Triggers:
    the core's would_refuse_action, would_refuse_weapon and would_control_apl hooks. (Its
    sight from the disc on top of the miniature is not modelled: sight is drawn from the
    base as for every operative.)"""

    def refuse(w: Work, why: Any, **info: Any) -> Any:
        op, action = str(info.get("op", "")), str(info.get("action", ""))
        if why is not None or not mine(w, op, players) or not is_drone(w, op):
            return why
        if action in DRONE_ACTIONS or remote_piloted(w, op):
            return why
        own = {a.name.lower() for a in w.ctx.datacards[op].actions}
        if action in own:
            return why
        return f"{op} is a DRONE: it cannot perform {action} (Drone)"

    def weapon(w: Work, why: Any, **info: Any) -> Any:
        o = info.get("op")
        if why is not None or o is None or not mine(w, o.id, players) or not is_drone(w, o.id):
            return why
        name = str(info.get("weapon", ""))
        if not from_datacard(w, o.id, name):
            return f"{o.id} is a DRONE: it uses only the weapons on its datacard (Drone)"
        return why

    def control(w: Work, apl: int, **info: Any) -> int:
        op = str(info.get("op", ""))
        if mine(w, op, players) and is_drone(w, op):
            return apl - 1
        return apl

    hooks.transform("would_refuse_action", refuse)
    hooks.transform("would_refuse_weapon", weapon)
    hooks.transform("would_control_apl", control)


# -- Drone Controller ------------------------------------------------------------------------


def _controller_in_killzone(w: Work, player: str) -> bool:
    return any(has_keyword(w, o.id, DRONE_CONTROLLER) for o in w.alive(player))


def install_drone_controller(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Drone Controller: while it is on the killzone, friendly PATHFINDER DRONE operatives
    have +2" Move, and the Saviour Protocols firefight ploy costs 0CP. Triggers: the core's
    would_change_move and would_cost_ploy hooks."""

    def move(w: Work, change: float, **info: Any) -> float:
        op = str(info.get("op", ""))
        if mine(w, op, players) and is_drone(w, op) and _controller_in_killzone(w, w.ctx.owner[op]):
            return change + CONTROLLER_MOVE
        return change

    def cost(w: Work, cp: int, **info: Any) -> int:
        player = str(info.get("player", ""))
        free = info.get("ploy") == SAVIOUR_PROTOCOLS and player in players
        return 0 if free and _controller_in_killzone(w, player) else cp

    hooks.transform("would_change_move", move)
    hooks.transform("would_cost_ploy", cost)


# -- Analyse (MB3 Recon Drone) ----------------------------------------------------------------


def install_analyse(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Analyse (MB3 Recon Drone): whenever it performs the Markerlight action, each other
    enemy operative visible to it and within 3" of the selected enemy gains one Markerlight
    token too. Trigger: the team's ``markerlight_performed`` event; the team hook
    ``would_pathfinder_analyse`` (``fn(w, True, op=, target=) -> bool``) may turn it off for
    one action (a rule that is not cumulative with it)."""

    def performed(w: Work, ev: Event) -> None:
        op = str(ev.get("op", ""))
        if not mine(w, op, players) or not has_keyword(w, op, MB3_RECON):
            return
        target = str(ev.get("target", ""))
        if not w.would("would_pathfinder_analyse", True, op=op, target=target):
            return  # a rule not cumulative with Analyse was used (Orbital Survey Uplink)
        o = w.op(op)
        for e in analyse_targets(w, o, target):
            add_markerlights(w, e, 1, o.player, source=op)

    hooks.on("markerlight_performed", performed)


# -- High-Intensity Markerlight (MV7 Marker Drone) ------------------------------------------


def install_high_intensity_markerlight(hooks: Hooks, players: tuple[str, ...]) -> None:
    """High-Intensity Markerlight (MV7 Marker Drone): its Markerlight action gives the
    selected enemy two tokens instead of one. Trigger: the team's
    ``would_pathfinder_markerlight_gain`` hook."""

    def gain(w: Work, n: int, **info: Any) -> int:
        op = str(info.get("op", ""))
        if mine(w, op, players) and has_keyword(w, op, MV7_MARKER):
            return n + 1
        return n

    hooks.transform("would_pathfinder_markerlight_gain", gain)


# -- Shield Generator (MV4 Shield Drone) -------------------------------------------------------


def _shielded(w: Work, players: tuple[str, ...], target: str) -> bool:
    return mine(w, target, players) and has_keyword(w, target, MV4_SHIELD)


def _shield_used(w: Work, op: str) -> bool:
    return any(e.kind == "token" and e.op == op and e.detail == _SHIELD_USED for e in w.effects)


def _disarm(w: Work) -> None:
    if any(e.detail == _SHIELD_ARMED for e in w.effects):
        w.effects = [e for e in w.effects if not (e.kind == "token" and e.detail == _SHIELD_ARMED)]


def _shield_chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    """Armed for this attack sequence: its first Normal Dmg die inflicts nothing."""
    if chosen:
        w.effects.append(Effect("token", chosen, "end_tp", source=chosen, detail=_SHIELD_ARMED))


on_choice(_SHIELD_KEY, _shield_chosen)


def install_shield_generator(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Shield Generator (MV4 Shield Drone): attacks on it ignore Piercing (and Piercing
    Crits); once per turning point, the player may ignore the damage of one attack die that
    inflicts Normal Dmg on it; Saviour Protocols costs 0CP when it is the specified drone
    (the ploy's ``target``). The choice (``Use shield generator`` or ``Decline``, a
    :class:`engine.rules.choices.RuleChoiceFrame`) is asked once per attack sequence, before
    damage: in a Shoot when its defence dice are rolled and the attacker retained a normal
    success, in a fight when it starts; used, the first Normal Dmg die of that sequence
    inflicts nothing (the once per turning point is spent only then; the engine does not
    let the player pick a later die of the same sequence). Triggers: the core's
    ``resolve_step_started`` and ``fight_started`` events; would_use_weapon_rules,
    would_shot_damage, would_strike_damage and would_cost_ploy hooks."""

    def rules(w: Work, value: Any, **info: Any) -> Any:
        if not _shielded(w, players, str(info.get("target", ""))):
            return value
        if not value.has(Piercing) and not value.has(PiercingCrits):
            return value
        kept = tuple(r for r in value if not isinstance(r, (Piercing, PiercingCrits)))
        return WeaponRules(kept)

    def ask(w: Work, op: str) -> None:
        if not _shielded(w, players, op) or _shield_used(w, op) or not w.op(op).alive:
            return
        w.stack.append(
            RuleChoiceFrame(
                player=w.ctx.owner[op],
                rule="Shield Generator",
                key=_SHIELD_KEY,
                op=op,
                candidates=(),
                targeted=False,
            )
        )

    def resolving(w: Work, ev: Event) -> None:
        target = str(ev.get("target", ""))
        if any(e.op == target and e.detail == _SHIELD_ARMED for e in w.effects):
            return
        if int(ev.get("normals", 0)) > 0:
            ask(w, target)

    def ended(w: Work, ev: Event) -> None:
        _disarm(w)

    def damage(w: Work, dmg: int, **info: Any) -> int:
        target = str(info.get("target", ""))
        if info.get("crit") or dmg <= 0 or not _shielded(w, players, target):
            return dmg
        armed = [e for e in w.effects if e.op == target and e.detail == _SHIELD_ARMED]
        if not armed or _shield_used(w, target):
            return dmg
        _disarm(w)
        w.effects.append(Effect("token", target, "end_tp", source=target, detail=_SHIELD_USED))
        w.emit("shield_generator", op=target, ignored=dmg)
        return 0

    def cost(w: Work, cp: int, **info: Any) -> int:
        target = str(info.get("target", ""))
        return 0 if info.get("ploy") == SAVIOUR_PROTOCOLS and _shielded(w, players, target) else cp

    hooks.transform("would_use_weapon_rules", rules)
    hooks.transform("would_shot_damage", damage)
    hooks.transform("would_strike_damage", damage)
    hooks.transform("would_cost_ploy", cost)
    hooks.on("resolve_step_started", resolving)
    hooks.on("attack_dice_resolved", ended)
    hooks.on("fight_ended", ended)


# -- Grav-Inhibitor (MV33 Grav-Inhibitor Drone) ------------------------------------------------


def _grav_drones(w: Work, players: tuple[str, ...], op: str) -> list[Any]:
    """The placements of the MV33 drones of ``players`` that are enemies of ``op``."""
    owner = w.ctx.owner.get(op)
    return [
        w.place(d)
        for player in players
        if player != owner
        for d in w.alive(player)
        if has_keyword(w, d.id, MV33_GRAV) and mine(w, d.id, players)
    ]


def _near_grav(w: Work, players: tuple[str, ...], op: str, at: Any = None) -> bool:
    """``op`` (at its placement ``at``, by default where it is) is an enemy of one of
    ``players`` visible to and within 6" of one of their MV33 drones."""
    kz, me = w.kz, at if at is not None else w.place(w.op(op))
    return any(
        w.distance(there, me) <= GRAV_RANGE + 1e-6 and w.ctx.visible(kz, there, me)
        for there in _grav_drones(w, players, op)
    )


def install_grav_inhibitor(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Grav-Inhibitor (MV33 Grav-Inhibitor Drone): an enemy operative's move action other
    than Dash counts 2" more when it would move visible to and within 6" of it, and the
    enemy's melee weapons' Hit is worsened by 1 while it fights or retaliates visible to
    and within 6" of it. Simplified: the move is judged where it starts (its distance is
    then 2" shorter) and where it ends (a destination there must be within the distance
    less 2" in a straight line; the path is not checked between them), and the Obstructing
    and Accessible terrain distances it would ignore are still counted. Triggers: the core's
    would_move_distance, would_refuse_destination and would_change_hit hooks."""

    def distance(w: Work, limit: float, **info: Any) -> float:
        op, action = str(info.get("op", "")), info.get("action")
        if action == "Dash" or not op or not _near_grav(w, players, op):
            return limit
        return max(0.0, limit - GRAV_PENALTY)

    def destination(w: Work, why: Any, **info: Any) -> Any:
        op, action, point = str(info.get("op", "")), info.get("action"), info.get("point")
        if why is not None or action == "Dash" or not op or point is None:
            return why
        if not _grav_drones(w, players, op) or _near_grav(w, players, op):
            return why  # no MV33 against it, or its distance is already 2" shorter
        o = w.op(op)
        there = w.ctx.placement(op, *point)
        if not _near_grav(w, players, op, there):
            return why
        from engine.game import universal

        frame = activation_frame(w, op)
        mode = str(getattr(frame, "mode", "activation"))
        limit = float(universal._move_args(w, o, str(action), mode)["max_cost"])
        moved = math.dist((o.x, o.y, o.elevation), point)
        if moved + GRAV_PENALTY > limit + 1e-6:
            return f'{op} moves within 6" of an MV33: the move counts 2" more (Grav-Inhibitor)'
        return why

    def hit(w: Work, change: int, **info: Any) -> int:
        op = str(info.get("op", ""))
        if info.get("kind") != "melee" or not op or not _near_grav(w, players, op):
            return change
        return change + 1

    hooks.transform("would_move_distance", distance)
    hooks.transform("would_refuse_destination", destination)
    hooks.transform("would_change_hit", hit)


add_template(
    "shield_generator", lambda e: f"  {e['op']}'s Shield Generator ignores {e['ignored']} damage"
)

for _kind, _name, _installer, _summary in (
    ("ability", "Drone", install_drone, "Drones: few actions, own weapons, APL -1 for markers."),
    (
        "ability",
        "Drone Controller",
        install_drone_controller,
        'Drones +2" Move and Saviour Protocols free while the controller is on the killzone.',
    ),
    ("ability", "Analyse", install_analyse, 'MB3 Markerlight also marks enemies within 3".'),
    (
        "ability",
        "High-Intensity Markerlight",
        install_high_intensity_markerlight,
        "MV7 Markerlight gives two tokens.",
    ),
    (
        "ability",
        "Shield Generator",
        install_shield_generator,
        "MV4 ignores Piercing and once per TP one Normal Dmg die; Saviour Protocols free.",
    ),
    (
        "ability",
        "Grav-Inhibitor",
        install_grav_inhibitor,
        'Enemies within 6" of the MV33 move 2" less and hit worse in melee.',
    ),
):
    register(rule_id(TEAM, _kind, _name), _installer, _summary)
