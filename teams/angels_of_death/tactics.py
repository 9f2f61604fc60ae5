"""The Chapter Tactics of the Angels of Death: the faction rule (a primary and a secondary
tactic chosen when the roster is built, a roster-time choice), the eight tactics, the
Sergeants' Chapter Veteran (one more tactic, a per-operative roster choice) and the strategy
ploy Adaptive Tactics (another secondary tactic for the turning point).

Which tactics an operative has is asked of :func:`has_tactic` alone; it reads the roster
choices (``w.ctx.choice`` / ``w.ctx.op_choice``), the Adaptive Tactics token and the Eliminator
Sniper's Camo Cloak (which gives it Stealthy). Multiple instances of a tactic are not
cumulative: an operative has a tactic or not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.dice.rules import (
    Accurate,
    Rending,
    Saturate,
    Severe,
    Shock,
    WeaponRules,
    parse_weapon_rules,
)
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.registry import ChoiceSpec, register, register_choice, rule_id
from teams.angels_of_death.advice import adaptive_tactics_advice
from teams.angels_of_death.common import TEAM, has_ability, is_bolt

TACTICS = (
    "Aggressive",
    "Dueller",
    "Hardy",
    "Mobile",
    "Resolute",
    "Sharpshooter",
    "Siege Specialist",
    "Stealthy",
)
"""The eight CHAPTER TACTICS, in printed order."""

CHOICE = "Chapter Tactics"
"""The team-level roster choice: two tactics, the primary then the secondary. The faction rule
forbids no repeat (it says only that instances of one tactic are not cumulative), so the two
may be the same (docs/RULINGS.md)."""

VETERAN = "Chapter Veteran"
"""The per-operative roster choice of the Sergeants (their ability Chapter Veteran): any
tactic, one of the team's two included (the text forbids none; having it twice adds nothing,
but the Sergeant keeps it when Adaptive Tactics changes the team's secondary)."""

SERGEANTS = ("Intercessor Sergeant", "Assault Intercessor Sergeant")

register_choice(
    TEAM,
    ChoiceSpec(
        CHOICE,
        TACTICS,
        count=2,
        distinct=False,
        default=("Hardy", "Sharpshooter"),
        summary="Primary and secondary Chapter Tactic of every operative (may be the same).",
    ),
)
register_choice(
    TEAM,
    ChoiceSpec(
        VETERAN,
        TACTICS,
        per_operative=True,
        default=("Aggressive",),
        operatives=SERGEANTS,
        summary="The Sergeant's additional Chapter Tactic (any, even one of the team's two).",
    ),
)

_ADAPTIVE = "adaptive_tactics:"


def team_tactics(w: Work, player: str) -> tuple[str, ...]:
    """``player``'s primary and secondary tactics now: the roster's, the secondary replaced
    by Adaptive Tactics this turning point; ``()`` for a team without the choice."""
    try:
        primary, secondary = w.ctx.cached(
            ("aod_tactics", player), lambda: w.ctx.choice(player, CHOICE)
        )
    except KeyError:
        return ()
    for e in w.effects:
        if e.kind == "token" and e.player == player and e.detail.startswith(_ADAPTIVE):
            secondary = e.detail.removeprefix(_ADAPTIVE)
    return (primary, secondary)


def _veteran(w: Work, op: str) -> tuple[str, ...]:
    def read() -> tuple[str, ...]:
        if not has_ability(w, op, VETERAN):
            return ()
        try:
            return tuple(w.ctx.op_choice(op, VETERAN))
        except (KeyError, ValueError, IndexError):
            return ()

    return tuple(w.ctx.cached(("aod_veteran", op), read))


def has_tactic(w: Work, op: str, tactic: str) -> bool:
    """Whether operative ``op`` has the CHAPTER TACTIC ``tactic`` now (module docstring)."""
    player = w.ctx.owner.get(op)
    if player is None:
        return False
    if tactic in team_tactics(w, player) or tactic in _veteran(w, op):
        return True
    return tactic == "Stealthy" and has_ability(w, op, "Camo Cloak")


def _mine(players: tuple[str, ...], w: Work, op: str) -> bool:
    return bool(op) and w.ctx.owner.get(op) in players


def _install_aggressive(hooks: Hooks, players: tuple[str, ...]) -> None:
    """[CT] Aggressive: this operative's melee weapons have Rending. Trigger: the weapon
    rules of its melee attacks (``would_use_weapon_rules``). Limits: none."""

    def rules(w: Work, value: WeaponRules, **info: Any) -> WeaponRules:
        op = str(info.get("op", ""))
        if info.get("kind") != "melee" or not _mine(players, w, op) or value.has(Rending):
            return value
        if not has_tactic(w, op, "Aggressive"):
            return value
        return value.with_rules(*parse_weapon_rules("Rending"))

    hooks.transform("would_use_weapon_rules", rules)


def _install_siege_specialist(hooks: Hooks, players: tuple[str, ...]) -> None:
    """[CT] Siege Specialist: this operative's ranged weapons have Saturate. Trigger: the
    weapon rules of its ranged attacks (``would_use_weapon_rules``). Limits: none."""

    def rules(w: Work, value: WeaponRules, **info: Any) -> WeaponRules:
        op = str(info.get("op", ""))
        if info.get("kind") != "ranged" or not _mine(players, w, op) or value.has(Saturate):
            return value
        if not has_tactic(w, op, "Siege Specialist"):
            return value
        return value.with_rules(*parse_weapon_rules("Saturate"))

    hooks.transform("would_use_weapon_rules", rules)


_SHARP_MOVES = ("Charge", "Fall Back", "Reposition")


def _install_sharpshooter(hooks: Hooks, players: tuple[str, ...]) -> None:
    """[CT] Sharpshooter: whenever this operative shoots during an activation in which it
    has not performed Charge, Fall Back or Reposition, its bolt weapons have Accurate 1 and
    Severe. Trigger: the weapon rules of its ranged attacks (``would_use_weapon_rules``; a
    bolt weapon is one whose name says bolt). Limits: Dash does not prevent it; a weapon
    that has Accurate already keeps its own."""

    def rules(w: Work, value: WeaponRules, **info: Any) -> WeaponRules:
        op = str(info.get("op", ""))
        if info.get("kind") != "ranged" or not _mine(players, w, op):
            return value
        if not is_bolt(str(info.get("weapon", ""))) or not has_tactic(w, op, "Sharpshooter"):
            return value
        if any(a in w.op(op).done for a in _SHARP_MOVES):
            return value
        extra: list[Any] = []
        if not value.has(Accurate):
            extra += parse_weapon_rules("Accurate 1")
        if not value.has(Severe):
            extra += parse_weapon_rules("Severe")
        return value.with_rules(*extra) if extra else value

    hooks.transform("would_use_weapon_rules", rules)


def _install_stealthy_tactic(hooks: Hooks, players: tuple[str, ...]) -> None:
    """[CT] Stealthy: whenever an operative shoots this operative and it can retain cover
    saves, it may retain one more cover save or retain one as a critical success (not
    cumulative with Vantage's improved cover saves). Trigger: the core's
    ``would_improve_cover_save`` hook (the same options as improved cover). Limits: only in
    cover; with the tactic selected, Camo Cloak gives both options (one normal and one
    critical cover save, ``angels_of_death/ability/camo_cloak``)."""

    def improve(w: Work, value: bool, **info: Any) -> bool:
        target = str(info.get("target", ""))
        if value or not _mine(players, w, target):
            return value
        return has_tactic(w, target, "Stealthy")

    hooks.transform("would_improve_cover_save", improve)


def _fight_frame(w: Work) -> Any:
    return next((f for f in reversed(w.stack) if hasattr(f, "aweapon")), None)


_HARDY = "hardy_blunted"
HARDY_MIN_DMG = 3
"""Hardy: an attack die inflicting Normal Dmg of this or more (the weapon's stat)."""


def _install_hardy(hooks: Hooks, players: tuple[str, ...]) -> None:
    """[CT] Hardy: whenever an operative shoots this operative, its defence dice of 5+ are
    critical successes; whenever it retaliates, the first attack die that inflicts Normal
    Dmg of 3 or more on it in that sequence (the attacker's weapon's Normal Dmg stat, with
    its stat changes; not a strike's damage as other rules change it) inflicts 1 less.
    Trigger: the core's
    ``would_crit_save`` hook and, in a Fight where it is the defender, ``would_strike_damage``
    (a token until the end of the activation marks the sequence; a new Fight clears it).
    Limits: once per Fight."""

    def crit_at(w: Work, at: int, **info: Any) -> int:
        target = str(info.get("target", ""))
        if _mine(players, w, target) and has_tactic(w, target, "Hardy"):
            return min(at, 5)
        return at

    def strike(w: Work, dmg: int, **info: Any) -> int:
        target = str(info.get("target", ""))
        if info.get("crit") or not _mine(players, w, target):
            return dmg
        fight = _fight_frame(w)
        if fight is None or fight.defender != target or not has_tactic(w, target, "Hardy"):
            return dmg
        if fight.prof(w, "a").normal_damage < HARDY_MIN_DMG:
            return dmg  # the striking weapon's Normal Dmg stat, not the damage as changed
        if any(e.kind == "token" and e.op == target and e.detail == _HARDY for e in w.effects):
            return dmg
        w.add_effect(
            Effect("token", target, "end_activation", source=fight.attacker, detail=_HARDY)
        )
        return dmg - 1

    def fight_started(w: Work, ev: Any) -> None:
        target = str(ev["target"])
        w.effects[:] = [
            e
            for e in w.effects
            if not (e.kind == "token" and e.op == target and e.detail == _HARDY)
        ]

    hooks.transform("would_crit_save", crit_at)
    hooks.transform("would_strike_damage", strike)
    hooks.on("fight_started", fight_started)


def _install_dueller(hooks: Hooks, players: tuple[str, ...]) -> None:
    """[CT] Dueller: whenever this operative fights or retaliates, each of its normal
    successes can block one unresolved critical success, unless the enemy's weapon has
    Brutal. Trigger: the core's ``would_block_crit_with_normal`` hook (``Block crit with
    normal``; the core already refuses it against Brutal). Limits: none."""

    def block(w: Work, value: bool, **info: Any) -> bool:
        op = str(info.get("op", ""))
        if value or not _mine(players, w, op):
            return value
        return has_tactic(w, op, "Dueller")

    hooks.transform("would_block_crit_with_normal", block)


def _install_mobile(hooks: Hooks, players: tuple[str, ...]) -> None:
    """[CT] Mobile: this operative performs Fall Back for 1 less AP, and may perform the
    Charge action while within control range of an enemy operative, leaving that control
    range to do so. Trigger: the core's ``would_cost_action`` hook (Fall Back) and
    ``would_allow_charge_in_control_range`` hook (the Charge: the movement then treats the
    control range of the enemies it starts within as passable, as an engaged enemy's; once
    the path has left it, it may enter it again only to finish there, the Charge's normal
    requirement). Simplified: when the cheapest path found would enter it again and leave
    it, the destination is refused rather than another, dearer path looked for (the path
    search keeps no memory of having left; it checks the path it found).
    Limits: never below 0AP; the Charge keeps its other requirements (an Engage order, not
    in the same activation as Fall Back, Reposition or Dash, Move +2", finishing within an
    enemy's control range, entering another enemy's control range without leaving it)."""

    def cost(w: Work, ap: int, **info: Any) -> int:
        o = info.get("op")
        if info.get("action") != "Fall Back" or o is None or not _mine(players, w, o.id):
            return ap
        return max(0, ap - 1) if has_tactic(w, o.id, "Mobile") else ap

    def charge(w: Work, value: bool, **info: Any) -> bool:
        op = str(info.get("op", ""))
        if value or not _mine(players, w, op):
            return value
        return has_tactic(w, op, "Mobile")

    hooks.transform("would_cost_action", cost)
    hooks.transform("would_allow_charge_in_control_range", charge)


def _install_resolute(hooks: Hooks, players: tuple[str, ...]) -> None:
    """[CT] Resolute: this operative ignores changes to its APL (played as ignoring the
    negative ones: ignoring a gain is never wanted) and enemy weapons' Shock does not affect
    it. Trigger: the core's ``would_change_apl`` hook, and the weapon rules of an enemy's
    melee attack on it (``would_use_weapon_rules``: Shock removed). Limits: none."""

    def apl(w: Work, change: int, **info: Any) -> int:
        op = str(info.get("op", ""))
        if change >= 0 or not _mine(players, w, op) or not has_tactic(w, op, "Resolute"):
            return change
        return 0

    def rules(w: Work, value: WeaponRules, **info: Any) -> WeaponRules:
        target = str(info.get("target", ""))
        if not value.has(Shock) or not _mine(players, w, target):
            return value
        if w.ctx.owner.get(str(info.get("op", ""))) == w.ctx.owner.get(target):
            return value
        if not has_tactic(w, target, "Resolute"):
            return value
        return WeaponRules(tuple(r for r in value if not isinstance(r, Shock)))

    hooks.transform("would_change_apl", apl)
    # Last: after any rule of the opponent's team that gives its weapon Shock.
    hooks.transform("would_use_weapon_rules", rules, last=True)


def _install_chapter_tactics(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Chapter Tactics (faction rule): every friendly operative has the primary and the
    secondary tactic chosen with the roster (roster choice ``Chapter Tactics``, default
    Hardy and Sharpshooter). The choice itself needs no hook: each tactic is its own rule
    (``angels_of_death/faction_rule/ct_<tactic>``) that asks :func:`has_tactic`."""


@attrs.frozen(slots=True)
class AdaptiveTactics:
    """Adaptive Tactics (strategy ploy, 1CP): change the secondary CHAPTER TACTIC until the
    end of the turning point (then the roster's returns). Trigger: the Gambit step,
    ``Ploy adaptive tactics <tactic>`` for each tactic other than the primary and the
    secondary now (a token of the player until the end of the turning point). Limits: once
    per turning point (7.1). A :class:`engine.game.ploys.PloyLike`."""

    name: str = "Adaptive Tactics"
    kind: str = "strategy"
    triggers: tuple[str, ...] = ("gambit",)
    cp: int = 1
    repeatable: bool = False
    rule_id: str = rule_id(TEAM, "strategy_ploy", "Adaptive Tactics")

    def _choices(self, w: Work, player: str) -> list[str]:
        now = team_tactics(w, player)
        return [t for t in TACTICS if now and t not in now]

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """One action per tactic it may select."""
        return [
            Action("Ploy", text=f"adaptive tactics {t.lower()}") for t in self._choices(w, player)
        ]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Ploy adaptive tactics <tactic>``."""
        return action.verb == "Ploy" and action.text.startswith("adaptive tactics ")

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """:func:`teams.angels_of_death.advice.adaptive_tactics_advice`."""
        return adaptive_tactics_advice(w, player, action, info)

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """The named tactic becomes the secondary until the end of the turning point."""
        name = action.text.removeprefix("adaptive tactics ")
        tactic = next(t for t in TACTICS if t.lower() == name)
        w.add_effect(
            Effect(
                "token",
                "",
                "end_tp",
                source=self.name,
                detail=_ADAPTIVE + tactic,
                player=player,
            )
        )


ADAPTIVE_TACTICS = AdaptiveTactics()


def _install_adaptive(hooks: Hooks, players: tuple[str, ...]) -> None:
    hooks.ploy(ADAPTIVE_TACTICS, players)


def _install_veteran(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Chapter Veteran (ability of the Sergeants): the operative has one more CHAPTER
    TACTIC, chosen with the roster (per-operative choice ``Chapter Veteran``, default
    Aggressive, else the first tactic the team does not have). Trigger: none of its own;
    :func:`has_tactic` reads the choice. Limits: not one of the team's two tactics (the
    roster is refused otherwise)."""


register(
    "angels_of_death/faction_rule/chapter_tactics",
    _install_chapter_tactics,
    "Faction rule: every operative has the roster's primary and secondary Chapter Tactic.",
)
register(
    "angels_of_death/ability/chapter_veteran",
    _install_veteran,
    "Ability: the Sergeant has one more Chapter Tactic, chosen with the roster.",
)
register(
    "angels_of_death/strategy_ploy/adaptive_tactics",
    _install_adaptive,
    "Strategy ploy: another secondary Chapter Tactic until the end of the turning point.",
)
register(
    "angels_of_death/faction_rule/ct_aggressive",
    _install_aggressive,
    "Chapter Tactic Aggressive: melee weapons have Rending.",
)
register(
    "angels_of_death/faction_rule/ct_dueller",
    _install_dueller,
    "Chapter Tactic Dueller: in melee, a normal success can block a critical one.",
)
register(
    "angels_of_death/faction_rule/ct_hardy",
    _install_hardy,
    "Chapter Tactic Hardy: shot, defence dice of 5+ are criticals; retaliating, -1 damage.",
)
register(
    "angels_of_death/faction_rule/ct_mobile",
    _install_mobile,
    "Chapter Tactic Mobile: Fall Back costs 1AP less; may Charge while within an enemy's "
    "control range.",
)
register(
    "angels_of_death/faction_rule/ct_resolute",
    _install_resolute,
    "Chapter Tactic Resolute: ignores APL losses and the enemy's Shock.",
)
register(
    "angels_of_death/faction_rule/ct_sharpshooter",
    _install_sharpshooter,
    "Chapter Tactic Sharpshooter: bolt weapons have Accurate 1 and Severe unmoved.",
)
register(
    "angels_of_death/faction_rule/ct_siege_specialist",
    _install_siege_specialist,
    "Chapter Tactic Siege Specialist: ranged weapons have Saturate.",
)
register(
    "angels_of_death/faction_rule/ct_stealthy",
    _install_stealthy_tactic,
    "Chapter Tactic Stealthy: in cover, two cover saves or one critical.",
)
