"""The Kasrkin's faction rules (Skill At Arms, Rapid Fire) and abilities (Veteran
Leadership, Camo Cloak)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.dice.rules import Saturate, Severe, WeaponRules
from engine.game.actions import MOVE_VERBS, Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.ploys import GainToken
from engine.rules.registry import register
from teams.kasrkin.common import MEDIC, is_kasrkin
from teams.kasrkin.ploys import place_sweep_marker, sweep_marker, sweep_spots

SWEEP = "clearance sweep"

# -- Skill At Arms (faction rule) --------------------------------------------------------------

SKILL_AT_ARMS = "skill_at_arms"
LIGHT_EM_UP = "light 'em up"
STRIKE_FAST = "strike fast"
ICE_IN_YOUR_VEINS = "ice in your veins"
FOR_CADIA = "for cadia!"
DRILLS = (LIGHT_EM_UP, STRIKE_FAST, ICE_IN_YOUR_VEINS, FOR_CADIA)
"""The four drills."""
STRIKE_FAST_INCHES = 1.0
CADIA_MAX_ATK = 4
_ICE_SPENT = "kasrkin_ice_spent"
_CADIA_SPENT = "kasrkin_cadia_spent"


def op_drills(w: Work, op: str) -> tuple[str, ...]:
    """The drills operative ``op`` has: its player's, then those Tactical Command gave it."""
    own = tuple(
        e.detail.split(":", 1)[1]
        for e in w.effects_on(op, "token")
        if e.op == op and e.detail.startswith(SKILL_AT_ARMS + ":")
    )
    return drills(w, w.ctx.owner[op]) + own


def drills(w: Work, player: str) -> tuple[str, ...]:
    """The Skill At Arms drills ``player`` selected this turning point."""
    out = []
    for e in w.effects:
        mine = e.kind == "token" and not e.op and e.player == player
        if mine and e.detail.startswith(SKILL_AT_ARMS + ":"):
            out.append(e.detail.split(":", 1)[1])
    return tuple(out)


def drill_limit(w: Work, player: str) -> int:
    """How many drills ``player`` may select (1; Veteran Leadership adds one through the
    team's ``would_count_kasrkin_drills`` hook)."""
    return int(w.would("would_count_kasrkin_drills", 1, player=player))


DRILL_JOIN = " and "
"""Joins the drills of one use that selects several (Veteran Leadership)."""


def _use_drills(action: Action) -> tuple[str, ...]:
    """The drills a ``Use skill at arms <drill>[ and <drill>]`` action selects."""
    return tuple(action.text.removeprefix("skill at arms ").split(DRILL_JOIN))


@attrs.frozen(slots=True)
class SkillAtArms:
    """Skill At Arms, a strategic gambit (a rule option of the Gambit step, free, not a
    ploy): select one drill for friendly KASRKIN operatives until the end of the turning
    point (the Ready step of the next Strategy phase). Once per Strategy phase. Its actions
    are ``Use skill at arms <drill>``; when Veteran Leadership lets the player select one
    additional drill, the same use may select two different ones, ``Use skill at arms
    <drill> and <drill>`` (one gambit: the opponent cannot act in between)."""

    name: str = "Skill At Arms"
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("gambit",)
    repeatable: bool = True

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """One action per choice of 1 up to :func:`drill_limit` different drills (in
        :data:`DRILLS` order), while the player has not used it this Strategy phase."""
        from itertools import combinations

        if drills(w, player):
            return []
        limit = max(1, drill_limit(w, player))
        return [
            Action("Use", text=f"skill at arms {DRILL_JOIN.join(pick)}")
            for k in range(1, min(limit, len(DRILLS)) + 1)
            for pick in combinations(DRILLS, k)
        ]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Use skill at arms <drill>[ and <drill>]``."""
        return action.verb == "Use" and action.text.startswith("skill at arms ")

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        if drills(w, player):
            return f"{player} already selected its Skill At Arms this turning point"
        limit = max(1, drill_limit(w, player))
        return (
            f"{action}: select up to {limit} different drill(s), joined by 'and', among "
            f"{', '.join(DRILLS)}"
        )

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """Rule of thumb (:data:`_DRILL_VALUE`), summed over the drills selected: Light 'Em
        Up (Severe on every ranged weapon) 0.3 operatives, Ice In Your Veins 0.2, Strike
        Fast 0.12, For Cadia! 0.08."""
        return sum(_DRILL_VALUE.get(d, 0.1) for d in _use_drills(action))

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Begin the drills (a player token ``skill_at_arms:<drill>`` each)."""
        for chosen in _use_drills(action):
            GainToken(f"{SKILL_AT_ARMS}:{chosen}", "end_tp").apply(w, player, "", self.name)


SKILL_AT_ARMS_RULE = SkillAtArms()

_DRILL_VALUE = {LIGHT_EM_UP: 0.3, ICE_IN_YOUR_VEINS: 0.2, STRIKE_FAST: 0.12, FOR_CADIA: 0.08}
"""Rule-of-thumb values of the drills (operatives) for the agent's advice."""


def install_skill_at_arms(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Skill At Arms (faction rule, strategic gambit): Light 'Em Up gives friendly KASRKIN
    operatives' ranged weapons Severe; Strike Fast adds 1" to their Reposition moves; Ice In
    Your Veins: the first attack die that inflicts Normal Dmg of 3 or more (the weapon's
    Normal Dmg stat, not a strike's damage as other rules change it, e.g. For Cadia!'s +1)
    on one of them in a fight (fighting or retaliating) or a shooting sequence inflicts 1
    less (the Shoot's unblocked damage is resolved at once: 1 less when a normal success of
    Dmg 3+ got through); For Cadia!: +1 Atk to their melee weapons (to at most 4), and the
    first strike when fighting (not retaliating) inflicts 1 more damage."""

    def severe(w: Work, value: Any, **info: Any) -> Any:
        op = str(info.get("op", ""))
        if info.get("kind") != "ranged" or not w.effects or not is_kasrkin(w, op):
            return value
        player = w.ctx.owner[op]
        if player in players and LIGHT_EM_UP in op_drills(w, op) and not value.has(Severe):
            return value.with_rules(Severe())
        return value

    def reposition(w: Work, limit: float, **info: Any) -> float:
        op = str(info.get("op", ""))
        if info.get("action") != "Reposition" or not w.effects or not is_kasrkin(w, op):
            return limit
        player = w.ctx.owner[op]
        if player in players and STRIKE_FAST in op_drills(w, op):
            return limit + STRIKE_FAST_INCHES
        return limit

    def drilled(w: Work, op: str, drill: str) -> bool:
        if not op or not w.effects or w.ctx.owner.get(op) not in players:
            return False
        return is_kasrkin(w, op) and drill in op_drills(w, op)

    def fight_begins(w: Work, ev: Event) -> None:
        # A new fight sequence: Ice In Your Veins and For Cadia! apply once more in it.
        ops = {str(ev.get("op", "")), str(ev.get("target", ""))}
        if w.effects and any(
            e.op in ops and e.detail in (_ICE_SPENT, _CADIA_SPENT) for e in w.effects
        ):
            w.effects = [
                e for e in w.effects if not (e.op in ops and e.detail in (_ICE_SPENT, _CADIA_SPENT))
            ]

    def spent(w: Work, op: str, key: str) -> bool:
        return any(e.op == op and e.detail == key for e in w.effects)

    def spend(w: Work, op: str, key: str) -> None:
        w.add_effect(Effect("token", op, "end_tp", source=op, detail=key))

    def strike(w: Work, dmg: int, **info: Any) -> int:
        op, target = str(info.get("op", "")), str(info.get("target", ""))
        if drilled(w, op, FOR_CADIA) and _fighting(w, op) and not spent(w, op, _CADIA_SPENT):
            spend(w, op, _CADIA_SPENT)
            dmg += 1
        if (
            not info.get("crit")
            and drilled(w, target, ICE_IN_YOUR_VEINS)
            and not spent(w, target, _ICE_SPENT)
            and _strike_normal_dmg(w, op) >= ICE_MIN_DMG
        ):
            spend(w, target, _ICE_SPENT)
            dmg -= 1
        return dmg

    def shot(w: Work, damage: int, **info: Any) -> int:
        target = str(info.get("target", ""))
        big = bool(info.get("normals")) and int(info.get("normal_damage", 0)) >= 3
        return damage - 1 if big and drilled(w, target, ICE_IN_YOUR_VEINS) else damage

    def attacks(w: Work, atk: int, **info: Any) -> int:
        op = str(info.get("op", ""))
        if info.get("kind") == "melee" and atk < CADIA_MAX_ATK and drilled(w, op, FOR_CADIA):
            return atk + 1
        return atk

    hooks.ploy(SKILL_AT_ARMS_RULE, players)
    hooks.transform("would_use_weapon_rules", severe)
    hooks.transform("would_move_distance", reposition)
    hooks.on("fight_declared", fight_begins)
    hooks.transform("would_strike_damage", strike)
    hooks.transform("would_shot_total_damage", shot)
    hooks.transform("would_change_attacks", attacks)


ICE_MIN_DMG = 3
"""Ice In Your Veins: an attack die inflicting Normal Dmg of this or more."""


def _strike_normal_dmg(w: Work, op: str) -> int:
    """The Normal Dmg stat of the weapon ``op`` strikes with in the Fight in progress (its
    profile with stat changes, not the damage other rules add to a strike), or 0."""
    from engine.game.fight import FightFrame

    for f in reversed(w.stack):
        if isinstance(f, FightFrame):
            side = "a" if f.attacker == op else "d"
            return int(f.prof(w, side).normal_damage)
    return 0


def _fighting(w: Work, op: str) -> bool:
    """``op`` is the attacker of the Fight in progress (fighting, not retaliating)."""
    from engine.game.fight import FightFrame

    for f in reversed(w.stack):
        if isinstance(f, FightFrame):
            return bool(f.attacker == op)
    return False


SERGEANT = "SERGEANT"


def install_veteran_leadership(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Veteran Leadership (Sergeant's ability): whenever the Sergeant is in the killzone and
    its player uses Skill At Arms, it may select one additional drill (a second, different
    one, in the same use: ``Use skill at arms <drill> and <drill>``)."""

    def more(w: Work, limit: int, **info: Any) -> int:
        player = str(info.get("player", ""))
        if player in players and any(
            SERGEANT in w.ctx.datacards[o.id].keywords and is_kasrkin(w, o.id)
            for o in w.alive(player)
        ):
            return limit + 1
        return limit

    hooks.transform("would_count_kasrkin_drills", more)


# -- Rapid Fire (faction rule) -----------------------------------------------------------------

RAPID_FIRE_WEAPONS = ("bolt pistol", "hot-shot lasgun", "hot-shot laspistol")
_RAPID_FIRE = "rapid_fire"


def _rapid_fire_weapon(name: str) -> bool:
    """The weapon (notation name, a profile's name in brackets) may be used for both
    Shoot actions of Rapid Fire."""
    return name.split(" (", 1)[0].lower() in RAPID_FIRE_WEAPONS


def _in_own_activation(w: Work, op: str) -> bool:
    """``op``'s activation (not a counteraction, interrupt or free action) is the top-most
    activation frame."""
    from engine.game.universal import ActivationFrame

    for f in reversed(w.stack):
        if isinstance(f, ActivationFrame):
            return bool(f.op == op and f.mode == "activation")
    return False


def _rapid_fire_ready(w: Work, op: str) -> bool:
    """``op``'s first Shoot action of this activation used a Rapid Fire weapon."""
    return any(e.detail == _RAPID_FIRE for e in w.effects_on(op, "token"))


def install_rapid_fire(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Rapid Fire (faction rule): a friendly KASRKIN operative that performs no move action
    in its activation may perform two Shoot actions in it, both with a bolt pistol, hot-shot
    lasgun or hot-shot laspistol. After the second, it cannot move in that activation."""

    def mine(w: Work, op: str) -> bool:
        return w.ctx.owner.get(op) in players and is_kasrkin(w, op)

    def declared(w: Work, ev: Event) -> None:
        op = str(ev["op"])
        if not mine(w, op) or not _rapid_fire_weapon(str(ev["weapon"])):
            return
        o = w.op(op)
        if o.done.count("Shoot") == 1 and _in_own_activation(w, op):
            w.add_effect(Effect("token", op, "end_activation", source=op, detail=_RAPID_FIRE))

    def repeat(w: Work, allowed: bool, **info: Any) -> bool:
        op = str(info.get("op", ""))
        if allowed or info.get("action") != "Shoot" or info.get("mode") != "activation":
            return allowed
        if not mine(w, op) or not w.effects:
            return allowed
        o = w.op(op)
        moved = any(d in MOVE_VERBS for d in o.done)
        return o.done.count("Shoot") == 1 and not moved and _rapid_fire_ready(w, op)

    def no_move(w: Work, why: str | None, **info: Any) -> str | None:
        op = str(info.get("op", ""))
        if why or info.get("action") not in MOVE_VERBS or not mine(w, op):
            return why
        if w.op(op).done.count("Shoot") >= 2:
            return f"{op} performed two Shoot actions (Rapid Fire): it cannot move this activation"
        return why

    def weapon(w: Work, why: str | None, **info: Any) -> str | None:
        o = info["op"]
        if why or not mine(w, o.id) or not w.effects or not _rapid_fire_ready(w, o.id):
            return why
        name = str(info.get("weapon", ""))
        if "Shoot" in o.done and not _rapid_fire_weapon(name):
            return (
                f"{o.id}'s second Shoot action (Rapid Fire) must use a bolt pistol, hot-shot "
                f"lasgun or hot-shot laspistol, not {name}"
            )
        return why

    hooks.on("shoot_declared", declared)
    hooks.transform("would_repeat_action", repeat)
    hooks.transform("would_refuse_action", no_move)
    hooks.transform("would_refuse_weapon", weapon)


# -- Camo Cloak (Sharpshooter ability) ---------------------------------------------------------

SHARPSHOOTER = "SHARPSHOOTER"


def install_camo_cloak(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Camo Cloak (Sharpshooter): whenever an operative is shooting it, the shooter's weapon
    loses Saturate, and when it can retain cover saves it has improved cover saves (one more,
    or one as a critical success; not cumulative with Vantage's)."""

    def cloaked(w: Work, op: str) -> bool:
        return (
            bool(op)
            and w.ctx.owner.get(op) in players
            and is_kasrkin(w, op)
            and SHARPSHOOTER in w.ctx.datacards[op].keywords
        )

    def no_saturate(w: Work, rules: Any, **info: Any) -> Any:
        if info.get("kind") != "ranged" or not cloaked(w, str(info.get("target", ""))):
            return rules
        if not rules.has(Saturate):
            return rules
        return WeaponRules(tuple(r for r in rules.rules if not isinstance(r, Saturate)))

    def improve(w: Work, improved: bool, **info: Any) -> bool:
        return improved or cloaked(w, str(info.get("target", "")))

    # Last: after any rule of the shooter's team that gives its weapon Saturate.
    hooks.transform("would_use_weapon_rules", no_saturate, last=True)
    hooks.transform("would_improve_cover_save", improve)


# -- Medic! (Combat Medic ability) ---------------------------------------------------------------

COMBAT_MEDIC = "COMBAT MEDIC"
MEDIC_RANGE = MEDIC.inches
medic_for = MEDIC.medic_for
"""The friendly Combat Medic that may use Medic! on an operative now, or ``""``."""


def install_medic(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Medic! (Combat Medic; :class:`engine.rules.medic.Medic` with the keyword COMBAT
    MEDIC, for KASRKIN operatives, 3"): the first time in a turning point that another
    friendly KASRKIN operative would be incapacitated while visible to and within 3" of the
    Medic, its player may use the rule; it stays at 1 wound, both get APL -1, and it may
    Dash for free to end within the Medic's control range. Once per turning point."""
    MEDIC.install(hooks, players)


# -- Reconnoitre Killzone (Recon-Trooper ability) ------------------------------------------------


def install_reconnoitre_killzone(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Reconnoitre Killzone (Recon-Trooper): the Relocate strategy ploy costs 0CP when this
    operative is the friendly KASRKIN operative selected (``would_cost_ploy``: the use's
    target)."""
    from teams.kasrkin.common import RECON_TROOPER

    def free(w: Work, cost: int, **info: Any) -> int:
        target = str(info.get("target", ""))
        if info.get("ploy") != "Relocate" or not target or info.get("player") not in players:
            return cost
        if w.ctx.owner.get(target) != info.get("player") or not is_kasrkin(w, target):
            return cost
        return 0 if RECON_TROOPER in w.ctx.datacards[target].keywords else cost

    hooks.transform("would_cost_ploy", free)


# -- Tactical Command (Sergeant unique action) ---------------------------------------------------


@attrs.frozen(slots=True)
class TacticalCommand:
    """Tactical Command (Sergeant, 0AP; a :class:`engine.game.rule_actions.RuleActionLike`):
    one friendly KASRKIN operative gets one more Skill At Arms drill, different from those it
    has, until the end of the turning point. Not while within control range of an enemy
    operative. Notation ``Act <sergeant> tactical command <drill> on <friend>``. Instead, when
    its player's Clearance Sweep marker is in the killzone, it may remove it and place it
    again (``Act <sergeant> tactical command clearance sweep at <x>,<y>``, one of the
    ploy's spots)."""

    name: str = "Tactical Command"
    text: str = "tactical command"
    ap: int = 0
    family: str = ""

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        if SERGEANT not in w.ctx.datacards[o.id].keywords or not is_kasrkin(w, o.id):
            return f"{o.id} is not the Kasrkin Sergeant: only it performs Tactical Command"
        if w.in_enemy_control_range(o):
            return f"{o.id} is within control range of an enemy operative (Tactical Command)"
        return None

    def _choices(self, w: Work, o: OperativeState) -> list[Action]:
        out = []
        for f in w.alive(o.player):
            if not is_kasrkin(w, f.id):
                continue
            has = op_drills(w, f.id)
            out += [
                Action("Act", op=o.id, text=f"{self.text} {d}", target=f.id)
                for d in DRILLS
                if d not in has
            ]
        if sweep_marker(w, o.player) is not None:
            out += [
                Action("Act", op=o.id, text=f"{self.text} {SWEEP}", point=(x, y, 0.0))
                for x, y in sweep_spots(w)
            ]
        return out

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> tactical command <drill> on <friend>`` for each drill a friend lacks."""
        if self._why_not(w, o) is not None:
            return []
        return self._choices(w, o)

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        why = self._why_not(w, o)
        if why is not None:
            return why
        if a not in self._choices(w, o):
            return (
                f"{a}: Tactical Command gives a friendly KASRKIN operative a drill it does not "
                f"have ({', '.join(DRILLS)})"
            )
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: Light 'Em Up for a friend still to activate this turning point
        0.05 operatives, Strike Fast 0.02, nothing for one already expended; the marker
        placed again: Clearance Sweep's own advice there less its advice where it is."""
        chosen = a.text.removeprefix(self.text + " ")
        if chosen == SWEEP and a.point is not None:
            from teams.kasrkin.ploys import CLEARANCE_SWEEP_PLOY

            t = sweep_marker(w, o.player)
            here = (t.x, t.y) if t is not None else (a.point[0], a.point[1])

            def at(x: float, y: float) -> float:
                act = Action("Ploy", text=f"clearance sweep at {x:g},{y:g}")
                return CLEARANCE_SWEEP_PLOY.advice(w, o.player, act, {})

            return at(a.point[0], a.point[1]) - at(*here)
        if not w.op(a.target).ready:
            return 0.0
        return 0.05 if chosen == LIGHT_EM_UP else 0.02

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """The drill token on the friend until the end of the turning point; or the
        Clearance Sweep marker placed again."""
        chosen = a.text.removeprefix(self.text + " ")
        if chosen == SWEEP and a.point is not None:
            place_sweep_marker(w, o.player, (a.point[0], a.point[1]))
            return
        w.add_effect(
            Effect("token", a.target, "end_tp", source=o.id, detail=f"{SKILL_AT_ARMS}:{chosen}")
        )


TACTICAL_COMMAND = TacticalCommand()


def install_tactical_command(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Tactical Command (class docstring)."""
    hooks.action(TACTICAL_COMMAND, players)


register(
    "kasrkin/ability/veteran_leadership",
    install_veteran_leadership,
    "While the Sergeant is in the killzone, Skill At Arms selects one additional drill.",
)
register(
    "kasrkin/faction_rule/skill_at_arms",
    install_skill_at_arms,
    "Strategic gambit: a drill for the TP: Light 'Em Up (ranged Severe), Strike Fast (+1\" "
    "Reposition), Ice In Your Veins (-1 on the first big hit) or For Cadia! (+1 melee Atk, "
    "+1 first strike).",
)
register(
    "kasrkin/faction_rule/rapid_fire",
    install_rapid_fire,
    "A Kasrkin that does not move in its activation may Shoot twice in it, with a bolt pistol "
    "or hot-shot lasgun/laspistol both times.",
)
register(
    "kasrkin/ability/camo_cloak",
    install_camo_cloak,
    "Shooting the Sharpshooter: ignore Saturate; in cover it has improved cover saves (not "
    "cumulative with Vantage).",
)
register(
    "kasrkin/unique_action/tactical_command",
    install_tactical_command,
    "Sergeant, 0AP: one friendly Kasrkin gets one more Skill At Arms drill until the end of "
    "the TP.",
)
register(
    "kasrkin/ability/reconnoitre_killzone",
    install_reconnoitre_killzone,
    "Relocate costs 0CP when the Recon-Trooper is the operative selected.",
)
register(
    "kasrkin/ability/medic",
    install_medic,
    'Once per TP, a friendly Kasrkin within 3" of the Medic that would be incapacitated stays '
    "at 1 wound; both get APL -1.",
)
