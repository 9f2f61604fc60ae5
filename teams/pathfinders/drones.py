"""The Pathfinders' drone rules (lane pf-core): Drone, Drone Controller, Analyse (MB3),
Grav-Inhibitor (MV33), High-Intensity Markerlight (MV7), Shield Generator (MV4).

Drones count for the kill op like any operative (the dataslate says nothing else); only
marker control treats them apart (APL 1 lower).
"""

from __future__ import annotations

import math
from typing import Any

from engine.dice.rules import Piercing, PiercingCrits, WeaponRules
from engine.game import universal
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import Effect
from engine.game.work import Work
from engine.geometry.move_paths import AvoidZone, MoveError, shortest_path
from engine.rules.choices import RuleChoiceFrame, on_choice
from engine.rules.registry import register
from teams.pathfinders.common import (
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
_SHIELD_PENDING = "pf_shield_generator_pending:"
"""Token detail prefix (on the MV4) of a Normal Dmg withheld until its player has chosen
whether Shield Generator ignores it: ``pf_shield_generator_pending:<damage>``."""
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
    its datacard (equipment weapons); its APL counts 1 lower for control of an objective
    marker (only: not of a mission marker nor of a flank). Triggers: the core's
    would_refuse_action, would_refuse_weapon and would_control_apl hooks.
    Its head being the disc on top of the miniature needs no rule of its own: the geometry
    draws every operative's sight from its head, a point one model height above the centre
    of its base (:data:`engine.geometry.DEFAULT_MODEL_HEIGHT`, the same for every datacard:
    no datacard has a height of its own, and the dataslate gives no height for the disc),
    so a drone sees from the top of its model like any operative."""

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
        if info.get("what") != universal.OBJECTIVE_MARKER:
            return apl  # (objective markers only: not a mission marker nor a flank)
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


def _shield_pending(w: Work, op: str) -> Effect | None:
    return next((e for e in w.effects if e.op == op and e.detail.startswith(_SHIELD_PENDING)), None)


def _shield_chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    """Shield Generator used (the withheld Normal Dmg ignored, used for the turning point)
    or declined (that damage inflicted now; the rule kept for a later die)."""
    op = frame.op
    dmg = int(frame.get("damage"))
    if chosen:
        w.effects.append(Effect("token", op, "end_tp", source=op, detail=_SHIELD_USED))
        w.emit("shield_generator", op=op, ignored=dmg)
        return
    from engine.game import universal

    universal.inflict(w, op, dmg, str(frame.get("weapon")), by=str(frame.get("by")))


on_choice(_SHIELD_KEY, _shield_chosen)


def install_shield_generator(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Shield Generator (MV4 Shield Drone): attacks on it ignore Piercing (and Piercing
    Crits); once per turning point, when an attack die inflicts Normal Dmg on it, its
    player may ignore that damage; Saviour Protocols costs 0CP when it is the specified
    drone (the ploy's ``target``). Trigger: the Normal Dmg of an attack die on it in a
    Shoot or Fight (the core's ``would_shot_damage``, per unblocked die, normals first, and
    ``would_strike_damage`` per strike) is withheld, then, when that attack's dice are
    resolved (``attack_dice_resolved``), its player decides (``Use shield generator``: it
    is ignored and the rule used for the turning point; ``Decline``: it is inflicted then,
    and the next Normal Dmg die asks again). So in a Fight the player picks the strike; in a
    Shoot the unblocked normal dice are alike and inflicted at once (one choice per shot).
    Not asked if the drone was incapacitated by the other dice of that shot (ignoring one
    die would not have saved it). Limits: once per turning point (taken only when used);
    critical damage is never ignored. Also the would_use_weapon_rules and would_cost_ploy
    hooks."""

    def rules(w: Work, value: Any, **info: Any) -> Any:
        if not _shielded(w, players, str(info.get("target", ""))):
            return value
        if not value.has(Piercing) and not value.has(PiercingCrits):
            return value
        kept = tuple(r for r in value if not isinstance(r, (Piercing, PiercingCrits)))
        return WeaponRules(kept)

    def withhold(w: Work, dmg: int, **info: Any) -> int:
        target = str(info.get("target", ""))
        if info.get("crit") or dmg <= 0 or not _shielded(w, players, target):
            return dmg
        if _shield_used(w, target) or _shield_pending(w, target):
            return dmg
        from engine.game.fight import FightFrame
        from engine.game.shoot import ShootFrame

        if not isinstance(w.top, ShootFrame | FightFrame):
            return dmg  # not an attack die of a Shoot or Fight in progress
        source = str(info.get("op", ""))
        w.effects.append(
            Effect("token", target, "end_tp", source=source, detail=f"{_SHIELD_PENDING}{dmg}")
        )
        return 0

    def resolved(w: Work, ev: Event) -> None:
        target = str(ev.get("target", ""))
        pending = _shield_pending(w, target) if w.effects else None
        if pending is None:
            return
        w.effects = [e for e in w.effects if e is not pending]
        if w.op(target).incapacitated or not w.op(target).alive:
            return
        dmg = int(pending.detail.removeprefix(_SHIELD_PENDING))
        w.stack.append(
            RuleChoiceFrame(
                player=w.ctx.owner[target],
                rule="Shield Generator",
                key=_SHIELD_KEY,
                op=target,
                candidates=(),
                data=(("damage", dmg), ("by", pending.source), ("weapon", str(ev["weapon"]))),
                targeted=False,
            )
        )

    def cost(w: Work, cp: int, **info: Any) -> int:
        target = str(info.get("target", ""))
        return 0 if info.get("ploy") == SAVIOUR_PROTOCOLS and _shielded(w, players, target) else cp

    # Last: the drone ignores Piercing whichever rule gave it (an enemy ploy's Piercing 1),
    # whichever seat the shooter's team plays.
    hooks.transform("would_use_weapon_rules", rules, last=True)
    hooks.transform("would_shot_damage", withhold)
    hooks.transform("would_strike_damage", withhold)
    hooks.transform("would_cost_ploy", cost)
    hooks.on("attack_dice_resolved", resolved)


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


def _grav_zones(w: Work, players: tuple[str, ...], op: str) -> list[AvoidZone]:
    """The regions of the killzone where ``op``'s centre would be visible to and within 6"
    of an MV33 of ``players`` (:data:`~engine.geometry.move_paths.AvoidZone`: a disc around
    each drone as a prefilter, :func:`_near_grav` as the exact test)."""
    r = w.place(w.op(op)).radius

    def test(x: float, y: float, z: float) -> bool:
        return _near_grav(w, players, op, w.ctx.placement(op, x, y, z))

    return [
        (d.x, d.y, GRAV_RANGE + d.radius + r + 0.01, test) for d in _grav_drones(w, players, op)
    ]


def install_grav_inhibitor(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Grav-Inhibitor (MV33 Grav-Inhibitor Drone): an enemy operative's move action other
    than Dash counts 2" more when it would move visible to and within 6" of it, ignoring the
    Obstructing and Accessible extra distances, and the enemy's melee weapons' Hit is
    worsened by 1 while it fights or retaliates visible to and within 6" of it. A move
    starting near it has a distance 2" shorter and its search leaves out those extras (the
    destinations listed too). Otherwise a destination is reachable when a route keeping out
    of every such region (visible to and within 6" of an MV33: :func:`_grav_zones`, passed to
    the movement search as regions to avoid) fits the full distance, or the cheapest route
    counted without those extras (the movement search's ``terrain_extras=False``: the route
    around terrain, not the straight line) fits the distance less 2". Triggers: the core's
    would_move_distance, would_ignore_terrain_extras, would_refuse_destination and
    would_change_hit hooks."""

    def distance(w: Work, limit: float, **info: Any) -> float:
        op, action = str(info.get("op", "")), info.get("action")
        if action == "Dash" or not op or not _near_grav(w, players, op):
            return limit
        return max(0.0, limit - GRAV_PENALTY)

    def extras(w: Work, ignore: bool, **info: Any) -> bool:
        op = str(info.get("op", ""))
        if ignore or info.get("action") == "Dash" or not op or not _near_grav(w, players, op):
            return ignore
        return True  # a move starting near it: the Obstructing and Accessible inches go

    def destination(w: Work, why: Any, **info: Any) -> Any:
        op, action, point = str(info.get("op", "")), info.get("action"), info.get("point")
        if why is not None or action == "Dash" or not op or point is None:
            return why
        if not _grav_drones(w, players, op) or _near_grav(w, players, op):
            return why  # no MV33 against it, or its distance is already 2" shorter
        from engine.game import universal

        o = w.op(op)
        me = w.place(o)
        frame = activation_frame(w, op)
        mode = str(getattr(frame, "mode", "activation"))
        args = universal.move_args(w, o, str(action), mode)
        limit = float(args["max_cost"])
        zones = [
            z
            for z in _grav_zones(w, players, op)
            if math.hypot(z[0] - o.x, z[1] - o.y) < limit + z[2]
        ]
        if not zones:
            return why  # no route within the distance can come near an MV33
        kz = w.move_kz(o)  # with the terrain a rule opens for its movement only
        try:
            if shortest_path(kz, me, point, **args, avoid=zones) is not None:
                return why  # a route keeping away from it fits the full distance
            near_args = {**args, "max_cost": limit - GRAV_PENALTY, "terrain_extras": False}
            if limit >= GRAV_PENALTY and shortest_path(kz, me, point, **near_args) is not None:
                return why  # a route near it, counting 2" more but no terrain extras, fits
        except MoveError:
            return why  # an illegal move anyway: the movement code says why
        return f'{op} moves within 6" of an MV33: the move counts 2" more (Grav-Inhibitor)'

    def hit(w: Work, change: int, **info: Any) -> int:
        op = str(info.get("op", ""))
        if info.get("kind") != "melee" or not op or not _near_grav(w, players, op):
            return change
        return change + 1

    hooks.transform("would_move_distance", distance)
    hooks.transform("would_ignore_terrain_extras", extras)
    hooks.transform("would_refuse_destination", destination)
    hooks.transform("would_change_hit", hit)


add_template(
    "shield_generator", lambda e: f"  {e['op']}'s Shield Generator ignores {e['ignored']} damage"
)

register(
    "pathfinders/ability/drone",
    install_drone,
    "Drones: few actions, own weapons, APL -1 for markers.",
)
register(
    "pathfinders/ability/drone_controller",
    install_drone_controller,
    'Drones +2" Move and Saviour Protocols free while the controller is on the killzone.',
)
register(
    "pathfinders/ability/analyse",
    install_analyse,
    'MB3 Markerlight also marks enemies within 3".',
)
register(
    "pathfinders/ability/high_intensity_markerlight",
    install_high_intensity_markerlight,
    "MV7 Markerlight gives two tokens.",
)
register(
    "pathfinders/ability/shield_generator",
    install_shield_generator,
    "MV4 ignores Piercing and once per TP one Normal Dmg die; Saviour Protocols free.",
)
register(
    "pathfinders/ability/grav_inhibitor",
    install_grav_inhibitor,
    'Enemies within 6" of the MV33 move 2" less and hit worse in melee.',
)
