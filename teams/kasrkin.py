"""The Kasrkin's team rules that the engine plays, registered by rule id
(``engine.rules.registry``).

- **Concealed Position*** (Sharpshooter): :mod:`engine.rules.team_weapon_rules`.
- Strategy ploys: Engage From Cover, Elimination Pattern, Relocate.
- Firefight ploys: Neutralise Target, Seize The Initiative.
- Faction rule Rapid Fire (two Shoot actions without moving).
- Faction rule Skill At Arms (strategic gambit), with two of its four drills: Light 'Em Up
  and Strike Fast (Ice In Your Veins and For Cadia! need damage and Atk hooks); the
  Sergeant's Veteran Leadership (one more drill).
- Ability Camo Cloak (Sharpshooter).
- Unique actions Battle Comms (Vox-Trooper), Medikit (Combat Medic) and Auspex Scan
  (Recon-Trooper; scanned targets count for Elimination Pattern and Neutralise Target).

"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.dice.rules import Piercing, PiercingCrits, Saturate, Severe, WeaponRules
from engine.game import universal
from engine.game.actions import MOVE_VERBS, Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.ploys import Reroll
from engine.game.state import Effect, OperativeState, other
from engine.game.work import Work
from engine.rules.choices import RuleRollFrame, on_roll
from engine.rules.ploys import GainToken, Ploy
from engine.rules.registry import Installer, register
from engine.rules.team_weapon_rules import install_concealed_position

KASRKIN = "KASRKIN"


def is_kasrkin(w: Work, op: str) -> bool:
    """``op`` has the KASRKIN keyword."""
    return bool(op) and KASRKIN in w.ctx.datacards[op].keywords


def _player_token(w: Work, player: str, name: str) -> bool:
    """``player`` holds the player-wide token ``name`` (:class:`GainToken` with no
    operative)."""
    return any(
        e.kind == "token" and not e.op and e.player == player and e.detail == name
        for e in w.effects
    )


def _shoot_frame(w: Work) -> Any:
    """The Shoot frame in progress (the top-most one), or None."""
    from engine.game.shoot import ShootFrame

    for f in reversed(w.stack):
        if isinstance(f, ShootFrame):
            return f
    return None


def _no_cover_saves(w: Work) -> bool:
    """The target of the Shoot in progress cannot retain any cover saves (it is not in cover,
    or the weapon has Saturate, read from the weapon's own rules) or is being scanned
    (Auspex Scan)."""
    f = _shoot_frame(w)
    if f is None or f.idx >= len(f.targets):
        return False
    if not f.cover or scanned(w, f.targets[f.idx]):
        return True
    _, _weapon, prof = universal.find_weapon(w, w.op(f.shooter), f.weapon, "ranged")
    return bool(prof.rules.has(Saturate))


def _ploy_installer(ploy: Ploy) -> Installer:
    def install(hooks: Hooks, players: tuple[str, ...]) -> None:
        hooks.ploy(ploy, players)

    return install


# -- Engage From Cover -------------------------------------------------------------------------

ENGAGE_FROM_COVER = "engage_from_cover"
_EFC_USED = "kasrkin_engage_from_cover_used"

ENGAGE_FROM_COVER_PLOY = Ploy(
    "Engage From Cover",
    "strategy",
    effects=(GainToken(ENGAGE_FROM_COVER, "end_tp"),),
    rule_id="kasrkin/strategy_ploy/engage_from_cover",
)


@attrs.frozen(slots=True)
class EngageFromCoverReroll:
    """The re-roll Engage From Cover gives in the defence dice window of a Shoot against a
    friendly Kasrkin in cover (a rule option, free: the ploy was paid in the Gambit step).
    Its actions are ``Use engage from cover <face>``; one per defence roll."""

    name: str = "Engage From Cover (re-roll)"
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("defence_dice",)
    repeatable: bool = True

    def _applies(self, w: Work, player: str, info: Mapping[str, Any]) -> bool:
        target = str(info.get("target", ""))
        if info.get("kind") != "ranged" or not target or w.ctx.owner.get(target) != player:
            return False
        if not is_kasrkin(w, target) or not _player_token(w, player, ENGAGE_FROM_COVER):
            return False
        if w.count(player, _EFC_USED):
            return False
        f = _shoot_frame(w)
        return f is not None and bool(f.cover)

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use engage from cover <face>`` for each face of a die not re-rolled yet."""
        if not w.effects or not self._applies(w, player, info):
            return []
        dice, flags = info.get("dice", ()), info.get("flags", ())
        faces = sorted({v for v, f in zip(dice, flags, strict=True) if not f}, reverse=True)
        return [Action("Use", text=f"engage from cover {v}") for v in faces]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Use engage from cover <face>``."""
        return action.verb == "Use" and action.text.startswith("engage from cover ")

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        return (
            f"{action}: Engage From Cover re-rolls one defence die of a friendly KASRKIN "
            "operative in cover, once per defence roll"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> Reroll:
        """Re-roll the one die chosen."""
        w.count(player, _EFC_USED, add=1)
        return Reroll((int(action.text.rsplit(" ", 1)[1]),))


ENGAGE_FROM_COVER_REROLL = EngageFromCoverReroll()


def install_engage_from_cover(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Engage From Cover (strategy, 1CP): until the end of the turning point, whenever a
    friendly KASRKIN operative in cover is shot, its player may re-roll one defence die
    (once per defence roll)."""

    def fresh_defence(w: Work, ev: Event) -> None:
        if ev.get("label") != "defence":
            return
        player = ev["player"]
        used = w.count(player, _EFC_USED) if w.pl(player).uses else 0
        if used:
            w.count(player, _EFC_USED, add=-used)

    hooks.ploy(ENGAGE_FROM_COVER_PLOY, players)
    hooks.ploy(ENGAGE_FROM_COVER_REROLL, players)
    hooks.on("dice_rolled", fresh_defence)


# -- Elimination Pattern -----------------------------------------------------------------------

ELIMINATION_PATTERN = "elimination_pattern"
HOT_SHOT = "hot-shot"
VOLLEY_GUN = "hot-shot volley gun"

ELIMINATION_PATTERN_PLOY = Ploy(
    "Elimination Pattern",
    "strategy",
    effects=(GainToken(ELIMINATION_PATTERN, "end_tp"),),
    rule_id="kasrkin/strategy_ploy/elimination_pattern",
)


def install_elimination_pattern(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Elimination Pattern (strategy, 1CP): until the end of the turning point, a friendly
    KASRKIN operative's hot-shot weapons have Piercing Crits 1 (the hot-shot volley gun
    Piercing 1) when shooting a target that cannot retain any cover saves."""

    def rules(w: Work, value: Any, **info: Any) -> Any:
        op = str(info.get("op", ""))
        if info.get("kind") != "ranged" or not w.effects or not is_kasrkin(w, op):
            return value
        player = w.ctx.owner[op]
        if player not in players or not _player_token(w, player, ELIMINATION_PATTERN):
            return value
        name = str(info.get("weapon", "")).lower()
        if HOT_SHOT not in name or not info.get("target") or not _no_cover_saves(w):
            return value
        if name.startswith(VOLLEY_GUN):
            return value.with_rules(Piercing(1))
        return value.with_rules(PiercingCrits(1))

    hooks.ploy(ELIMINATION_PATTERN_PLOY, players)
    hooks.transform("would_use_weapon_rules", rules)


# -- Relocate ----------------------------------------------------------------------------------

RELOCATE_DISTANCE = 3.0


def _clear_of_enemies(w: Work, op: str) -> bool:
    """``op`` is more than 3" from every enemy operative."""
    me = w.place(w.op(op))
    return all(w.distance(me, w.place(e)) > RELOCATE_DISTANCE for e in w.enemies_of(op))


def _relocate_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    return w.tp > 1


def _relocate_eligible(w: Work, player: str, op: str, info: Mapping[str, Any]) -> bool:
    return is_kasrkin(w, op) and _clear_of_enemies(w, op)


def _relocate(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """The chosen operative and each friendly KASRKIN within 3" of it and more than 3" from
    enemies perform a free Dash (pushed so that the chosen one dashes first, then the
    others in roster order)."""
    chosen = action.target
    me = w.place(w.op(chosen))
    others = [
        o.id
        for o in w.friends_of(chosen)
        if is_kasrkin(w, o.id)
        and w.distance(me, w.place(o)) <= RELOCATE_DISTANCE
        and _clear_of_enemies(w, o.id)
    ]
    for op in reversed([chosen, *others]):
        universal.start_free_action(w, op, ("Dash",))


RELOCATE_PLOY = Ploy(
    "Relocate",
    "strategy",
    target="friendly",
    condition=_relocate_condition,
    eligible=_relocate_eligible,
    use_hook=_relocate,
    rule_id="kasrkin/strategy_ploy/relocate",
)


# -- Neutralise Target -------------------------------------------------------------------------


def _neutralise_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    op = str(info.get("op", ""))
    if info.get("kind") != "ranged" or not op or w.ctx.owner.get(op) != player:
        return False
    if not is_kasrkin(w, op) or not _no_cover_saves(w):
        return False
    return bool(_failed(w, info))


def _failed(w: Work, info: Mapping[str, Any]) -> tuple[int, ...]:
    """The faces of the attack dice that failed and were not re-rolled yet."""
    f = _shoot_frame(w)
    if f is None:
        return ()
    hit = f.profile(w).hit
    dice, flags = info.get("dice", ()), info.get("flags", ())
    return tuple(v for v, r in zip(dice, flags, strict=True) if not r and v < hit)


def _neutralise(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> Reroll:
    """Re-roll every failed attack die not re-rolled yet."""
    return Reroll(_failed(w, info))


NEUTRALISE_TARGET_PLOY = Ploy(
    "Neutralise Target",
    "firefight",
    triggers=("attack_dice",),
    condition=_neutralise_condition,
    use_hook=_neutralise,
    rule_id="kasrkin/firefight_ploy/neutralise_target",
)


# -- Seize The Initiative ----------------------------------------------------------------------

SEIZE_VERBS = ("Shoot", "Fight", "Pick up", "Place marker", "Operate hatch")
"""The 1AP actions Seize The Initiative grants that involve no move."""


def _seize_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    return w.initiative == other(player)


def _seize_eligible(w: Work, player: str, op: str, info: Mapping[str, Any]) -> bool:
    return is_kasrkin(w, op)


def _seize(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    universal.start_free_action(w, action.target, SEIZE_VERBS)


SEIZE_THE_INITIATIVE_PLOY = Ploy(
    "Seize The Initiative",
    "firefight",
    triggers=("firefight_start",),
    target="friendly",
    condition=_seize_condition,
    eligible=_seize_eligible,
    use_hook=_seize,
    rule_id="kasrkin/firefight_ploy/seize_the_initiative",
)


# -- Skill At Arms (faction rule) --------------------------------------------------------------

SKILL_AT_ARMS = "skill_at_arms"
LIGHT_EM_UP = "light 'em up"
STRIKE_FAST = "strike fast"
DRILLS = (LIGHT_EM_UP, STRIKE_FAST)
"""The drills played so far (Ice In Your Veins and For Cadia! need damage and Atk hooks the
core does not have yet)."""
STRIKE_FAST_INCHES = 1.0


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


@attrs.frozen(slots=True)
class SkillAtArms:
    """Skill At Arms, a strategic gambit (a rule option of the Gambit step, free, not a
    ploy): select one drill for friendly KASRKIN operatives until the end of the turning
    point (the Ready step of the next Strategy phase). Once per Strategy phase. Its actions
    are ``Use skill at arms <drill>``."""

    name: str = "Skill At Arms"
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("gambit",)
    repeatable: bool = True

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """One action per drill not selected yet, while the player may select one more."""
        chosen = drills(w, player)
        if len(chosen) >= drill_limit(w, player):
            return []
        return [Action("Use", text=f"skill at arms {d}") for d in DRILLS if d not in chosen]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Use skill at arms <drill>``."""
        return action.verb == "Use" and action.text.startswith("skill at arms ")

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        if len(drills(w, player)) >= drill_limit(w, player):
            return f"{player} already selected its Skill At Arms this turning point"
        return f"{action}: the drills are {', '.join(DRILLS)}"

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Begin the drill (a player token ``skill_at_arms:<drill>``)."""
        chosen = action.text.removeprefix("skill at arms ")
        GainToken(f"{SKILL_AT_ARMS}:{chosen}", "end_tp").apply(w, player, "", self.name)


SKILL_AT_ARMS_RULE = SkillAtArms()


def install_skill_at_arms(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Skill At Arms (faction rule, strategic gambit): Light 'Em Up gives friendly KASRKIN
    operatives' ranged weapons Severe; Strike Fast adds 1" to their Reposition moves."""

    def severe(w: Work, value: Any, **info: Any) -> Any:
        op = str(info.get("op", ""))
        if info.get("kind") != "ranged" or not w.effects or not is_kasrkin(w, op):
            return value
        player = w.ctx.owner[op]
        if player in players and LIGHT_EM_UP in drills(w, player) and not value.has(Severe):
            return value.with_rules(Severe())
        return value

    def reposition(w: Work, limit: float, **info: Any) -> float:
        op = str(info.get("op", ""))
        if info.get("action") != "Reposition" or not w.effects or not is_kasrkin(w, op):
            return limit
        player = w.ctx.owner[op]
        if player in players and STRIKE_FAST in drills(w, player):
            return limit + STRIKE_FAST_INCHES
        return limit

    hooks.ploy(SKILL_AT_ARMS_RULE, players)
    hooks.transform("would_use_weapon_rules", severe)
    hooks.transform("would_move_distance", reposition)


SERGEANT = "SERGEANT"


def install_veteran_leadership(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Veteran Leadership (Sergeant's ability): whenever the Sergeant is in the killzone and
    its player uses Skill At Arms, it selects one additional drill (a second, different
    one, in the same Gambit step)."""

    def more(w: Work, limit: int, **info: Any) -> int:
        player = str(info.get("player", ""))
        if player in players and any(
            SERGEANT in w.ctx.datacards[o.id].keywords and is_kasrkin(w, o.id)
            for o in w.alive(player)
        ):
            return limit + 1
        return limit

    hooks.transform("would_count_kasrkin_drills", more)


# -- Battle Comms (Vox-Trooper unique action) ---------------------------------------------------

VOX_TROOPER = "VOX-TROOPER"
APL_MAX = 3


@attrs.frozen(slots=True)
class BattleComms:
    """Battle Comms (Vox-Trooper, 1AP; a :class:`engine.game.rule_actions.RuleActionLike`):
    another friendly KASRKIN operative gets APL +1 until the end of its next activation (not
    above 3: not offered on one whose APL is already 3 or more). Not while within control
    range of an enemy operative. Notation ``Act <vox> battle comms on <friend>``. (Its
    datacard allows it twice per activation; the core allows a rule action once.)"""

    name: str = "Battle Comms"
    text: str = "battle comms"
    ap: int = 1
    family: str = ""

    def _targets(self, w: Work, o: OperativeState) -> list[str]:
        return [f.id for f in w.friends_of(o.id) if is_kasrkin(w, f.id) and w.apl(f) < APL_MAX]

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        if VOX_TROOPER not in w.ctx.datacards[o.id].keywords:
            return f"{o.id} is not a Vox-Trooper: only it performs Battle Comms"
        if w.in_enemy_control_range(o):
            return f"{o.id} is within control range of an enemy operative (Battle Comms)"
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> battle comms on <friend>`` for each friend it may select."""
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
                f"{a}: Battle Comms selects another friendly KASRKIN operative whose APL is below 3"
            )
        return None

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """APL +1 on the selected friend until the end of its next activation."""
        w.add_effect(Effect("apl", a.target, "end_next_activation", source=o.id, value=1))


BATTLE_COMMS = BattleComms()


def install_battle_comms(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Battle Comms (class docstring)."""
    hooks.action(BATTLE_COMMS, players)


# -- Medikit (Combat Medic unique action) -------------------------------------------------------

COMBAT_MEDIC = "COMBAT MEDIC"
_MEDIKIT_ROLL = "kasrkin_medikit"


@attrs.frozen(slots=True)
class Medikit:
    """Medikit (Combat Medic, 0AP; a :class:`engine.game.rule_actions.RuleActionLike`): a
    friendly KASRKIN operative within the Medic's control range that has lost wounds regains
    up to 2D3 of them. Not while the Medic is within control range of an enemy operative.
    Notation ``Act <medic> medikit on <friend>``; the 2D3 is a team-rule roll of 2D6
    (each D6 halved, rounded up)."""

    name: str = "Medikit"
    text: str = "medikit"
    ap: int = 0
    family: str = ""

    def _targets(self, w: Work, o: OperativeState) -> list[str]:
        return [
            f.id
            for f in w.friends_of(o.id)
            if is_kasrkin(w, f.id)
            and f.wounds < w.ctx.datacards[f.id].wounds
            and w.control_range(o, f)
        ]

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        if COMBAT_MEDIC not in w.ctx.datacards[o.id].keywords:
            return f"{o.id} is not a Combat Medic: only it performs Medikit"
        if w.in_enemy_control_range(o):
            return f"{o.id} is within control range of an enemy operative (Medikit)"
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> medikit on <friend>`` for each wounded friend in control range."""
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
                f"{a}: Medikit selects a friendly KASRKIN operative within {o.id}'s control "
                "range that has lost wounds"
            )
        return None

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

    hooks.transform("would_use_weapon_rules", no_saturate)
    hooks.transform("would_improve_cover", improve)


# -- Auspex Scan (Recon-Trooper unique action) --------------------------------------------------

RECON_TROOPER = "RECON-TROOPER"
SCAN_RANGE = 8.0
_SCANNING = "auspex_scan"


def _scanners(w: Work, player: str) -> list[str]:
    """``player``'s operatives whose Auspex Scan is in effect."""
    return [
        e.op
        for e in w.effects
        if e.kind == "token" and e.detail == _SCANNING and e.op and not e.pending
        if w.ctx.owner.get(e.op) == player and w.op(e.op).alive
    ]


def scanned(w: Work, target: str) -> bool:
    """``target`` is being scanned: within 8" of an enemy operative whose Auspex Scan is in
    effect."""
    if not w.effects or not target:
        return False
    scanners = _scanners(w, other(w.ctx.owner[target]))
    if not scanners:
        return False
    me = w.place(w.op(target))
    return any(w.distance(me, w.place(w.op(s))) <= SCAN_RANGE for s in scanners)


@attrs.frozen(slots=True)
class AuspexScan:
    """Auspex Scan (Recon-Trooper, 1AP; a :class:`engine.game.rule_actions.RuleActionLike`):
    until the start of its next activation or until it is incapacitated, enemy operatives
    within 8" of it are being scanned; a friendly KASRKIN operative shooting a scanned enemy
    ignores its being obscured (Elimination Pattern and Neutralise Target also apply against
    it). Not while within control range of an enemy operative. Notation
    ``Act <recon> auspex scan``. (Smoke that obscures still obscures.)"""

    name: str = "Auspex Scan"
    text: str = "auspex scan"
    ap: int = 1
    family: str = ""

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        if RECON_TROOPER not in w.ctx.datacards[o.id].keywords:
            return f"{o.id} is not a Recon-Trooper: only it performs Auspex Scan"
        if w.in_enemy_control_range(o):
            return f"{o.id} is within control range of an enemy operative (Auspex Scan)"
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> auspex scan`` when it may."""
        if self._why_not(w, o) is not None:
            return []
        return [Action("Act", op=o.id, text=self.text)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        if a.point is not None or a.target:
            return f"{a}: Auspex Scan takes no point or operative"
        return self._why_not(w, o)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Begin the scan (a token on the operative, removed at its next activation)."""
        w.add_effect(Effect("token", o.id, "end_battle", source=o.id, detail=_SCANNING))


AUSPEX_SCAN = AuspexScan()


def install_auspex_scan(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Auspex Scan (class docstring)."""

    def stop(w: Work, ev: Event) -> None:
        op = str(ev.get("op", ""))
        if w.effects and any(e.op == op and e.detail == _SCANNING for e in w.effects):
            w.effects = [e for e in w.effects if not (e.op == op and e.detail == _SCANNING)]
            w.emit("auspex_scan_ended", op=op)

    def unobscured(w: Work, tg: Any, **info: Any) -> Any:
        op, target = str(info.get("op", "")), str(info.get("target", ""))
        if not tg.obscured or w.ctx.owner.get(op) not in players or not is_kasrkin(w, op):
            return tg
        if not scanned(w, target):
            return tg
        return attrs.evolve(
            tg, obscured=False, obscuring_features=frozenset(), in_cover=bool(tg.cover_features)
        )

    hooks.action(AUSPEX_SCAN, players)
    hooks.on("activated", stop)
    hooks.on("operative_incapacitated", stop)
    hooks.transform("would_target", unobscured)


register(
    "kasrkin/weapon_rule/concealed_position",
    install_concealed_position,
    "The weapon can only be used in the operative's first Shoot action of the battle.",
)
register(
    "kasrkin/strategy_ploy/engage_from_cover",
    install_engage_from_cover,
    "Until the end of the TP, a friendly Kasrkin in cover that is shot re-rolls one defence die.",
)
register(
    "kasrkin/strategy_ploy/elimination_pattern",
    install_elimination_pattern,
    "Until the end of the TP, hot-shot weapons get Piercing Crits 1 (volley gun Piercing 1) "
    "against targets that cannot retain cover saves.",
)
register(
    "kasrkin/strategy_ploy/relocate",
    _ploy_installer(RELOCATE_PLOY),
    'From TP2: a Kasrkin more than 3" from enemies, and friends within 3" of it also clear '
    "of enemies, each make a free Dash.",
)
register(
    "kasrkin/firefight_ploy/neutralise_target",
    _ploy_installer(NEUTRALISE_TARGET_PLOY),
    "After a Kasrkin's attack dice against a target that cannot retain cover saves: re-roll "
    "the failed dice.",
)
register(
    "kasrkin/firefight_ploy/seize_the_initiative",
    _ploy_installer(SEIZE_THE_INITIATIVE_PLOY),
    "At the start of the Firefight phase, the player without initiative: one Kasrkin performs "
    "a free 1AP action that involves no move.",
)
register(
    "kasrkin/ability/veteran_leadership",
    install_veteran_leadership,
    "While the Sergeant is in the killzone, Skill At Arms selects one additional drill.",
)
register(
    "kasrkin/faction_rule/skill_at_arms",
    install_skill_at_arms,
    "Strategic gambit: a drill for the TP: Light 'Em Up (ranged Severe) or Strike Fast (+1\" "
    "Reposition); Ice In Your Veins and For Cadia! not played yet.",
)
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
    "kasrkin/unique_action/auspex_scan",
    install_auspex_scan,
    'Recon-Trooper, 1AP: until its next activation, enemies within 8" are scanned: Kasrkin '
    "shooting them ignore obscuring.",
)
