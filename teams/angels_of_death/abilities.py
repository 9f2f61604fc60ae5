"""The Angels of Death operative abilities."""

from __future__ import annotations

from typing import Any

from engine.dice.rules import Saturate, WeaponRules
from engine.game import universal
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.fight import FightFrame
from engine.game.shoot import ShootFrame
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.choices import RuleChoiceFrame, on_choice
from engine.rules.registry import register
from teams.angels_of_death.common import (
    DOCTRINES,
    has_ability,
)
from teams.angels_of_death.ploys import COMBAT_DOCTRINE
from teams.angels_of_death.tactics import team_tactics


def _camo_cloak(w: Work, rules: WeaponRules, players: tuple[str, ...], **info: Any) -> WeaponRules:
    """Camo Cloak (ability of the Eliminator Sniper): whenever an operative is shooting this
    operative, the Saturate weapon rule is ignored. Trigger: the weapon rules of a ranged
    attack whose target has the ability (``would_use_weapon_rules``). Limits: none (the
    ability's second sentence: :func:`_install_camo_cloak`)."""
    target = str(info.get("target", ""))
    if info.get("kind") != "ranged" or not target or not rules.has(Saturate):
        return rules
    if w.ctx.owner.get(target) not in players:
        return rules
    if not has_ability(w, target, "Camo Cloak"):
        return rules
    return WeaponRules(tuple(r for r in rules if not isinstance(r, Saturate)))


def _install_camo_cloak(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Camo Cloak (:func:`_camo_cloak`); its second sentence: the operative has the Stealthy
    Chapter Tactic (:func:`teams.angels_of_death.tactics.has_tactic`), and if the player
    selected Stealthy it may do both of its options, one normal and one critical cover save
    (the core's ``would_retain_both_cover_saves`` hook)."""

    def hook(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
        return _camo_cloak(w, rules, players, **info)

    def both(w: Work, value: bool, **info: Any) -> bool:
        target = str(info.get("target", ""))
        player = w.ctx.owner.get(target)
        if value or player not in players or not has_ability(w, target, "Camo Cloak"):
            return value
        return "Stealthy" in team_tactics(w, str(player))

    # Last: after any rule of the shooter's team that gives its weapon Saturate.
    hooks.transform("would_use_weapon_rules", hook, last=True)
    hooks.transform("would_retain_both_cover_saves", both)


def _warfare_doctrines(w: Work, op: str) -> tuple[str, ...]:
    """The doctrines an operative's Doctrine Warfare covers: Assault and Tactical for the
    Assault Intercessor Sergeant, Devastator and Tactical for the Intercessor Sergeant."""
    if not has_ability(w, op, "Doctrine Warfare"):
        return ()
    if "ASSAULT INTERCESSOR" in w.ctx.datacards[op].keywords:
        return ("assault", "tactical")
    return ("devastator", "tactical")


def _warfare_sergeant(w: Work, player: str, doctrine: str) -> str:
    """The first of ``player``'s Sergeants in the killzone whose Doctrine Warfare makes
    Combat Doctrine selecting ``doctrine`` free now (not used for that doctrine yet this
    battle), or ``""``."""
    for o in w.alive(player):
        if doctrine in _warfare_doctrines(w, o.id) and not w.count(
            player, _warfare_key(o.id, doctrine)
        ):
            return o.id
    return ""


def _warfare_key(op: str, doctrine: str) -> str:
    return f"doctrine_warfare_{doctrine}:{op}"


def _install_doctrine_warfare(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Doctrine Warfare (ability of the Sergeants): once per battle each, Combat Doctrine
    selecting Tactical, and selecting Assault (Assault Intercessor Sergeant) or Devastator
    (Intercessor Sergeant), costs 0CP while the Sergeant is in the killzone. Trigger: the
    core's ``would_cost_ploy`` hook on the ``Ploy combat doctrine <doctrine>`` action (so it
    is offered and used with 0CP in hand), the use spent at the ``combat_doctrine_selected``
    event. Limits: once per battle per doctrine per Sergeant (counter
    ``doctrine_warfare_<doctrine>:<operative>``; with two Sergeants covering Tactical, the
    first in the killzone is spent first)."""

    def cost(w: Work, value: int, **info: Any) -> int:
        player = str(info.get("player", ""))
        if value <= 0 or player not in players or info.get("ploy") != COMBAT_DOCTRINE.name:
            return value
        doctrine = str(info.get("text", "")).rsplit(" ", 1)[-1]
        return 0 if doctrine in DOCTRINES and _warfare_sergeant(w, player, doctrine) else value

    def spend(w: Work, ev: Any) -> None:
        player, doctrine = str(ev["player"]), str(ev["doctrine"])
        if player not in players or ev["ploy"] != COMBAT_DOCTRINE.name:
            return
        op = _warfare_sergeant(w, player, doctrine)
        if op:
            w.count(player, _warfare_key(op, doctrine), add=1)

    hooks.transform("would_cost_ploy", cost)
    hooks.on("combat_doctrine_selected", spend)


def _install_stealthy(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Stealthy (ability of the Eliminator Sniper): whenever an operative is shooting it and
    it can retain a cover save, it may retain one additional cover save or retain one as a
    critical success instead. Trigger: the core's ``would_improve_cover_save`` hook (the
    same options as improved cover from Vantage, with which it is not cumulative). Limits:
    only in cover; with Stealthy selected as a Chapter Tactic, Camo Cloak gives both options
    (:func:`_install_camo_cloak`)."""

    def improve(w: Work, value: bool, **info: Any) -> bool:
        target = str(info.get("target", ""))
        if value or not target or w.ctx.owner.get(target) not in players:
            return value
        return has_ability(w, target, "Stealthy")

    hooks.transform("would_improve_cover_save", improve)


register(
    "angels_of_death/ability/camo_cloak",
    _install_camo_cloak,
    "Ability: shooting at this operative ignores the Saturate weapon rule.",
)
register(
    "angels_of_death/ability/doctrine_warfare",
    _install_doctrine_warfare,
    "Ability: once per battle each, Combat Doctrine for Tactical and one other doctrine is free.",
)
register(
    "angels_of_death/ability/stealthy",
    _install_stealthy,
    "Ability: in cover, retain two cover saves or one as a critical success.",
)


_IRON_HALO = "iron_halo"
_HALO_PENDING = "iron_halo_pending:"
"""Token detail prefix (on the Captain) of a normal damage withheld until its player has
chosen whether Iron Halo ignores it: ``iron_halo_pending:<damage>``."""


def _halo_key(op: str) -> str:
    return f"{_IRON_HALO}:{op}"


def _halo_pending(w: Work, op: str) -> Effect | None:
    return next((e for e in w.effects if e.op == op and e.detail.startswith(_HALO_PENDING)), None)


def _striking_weapon(w: Work, op: str) -> str:
    """The weapon ``op`` attacks with in the innermost Shoot or Fight (for the record)."""
    for f in reversed(w.stack):
        if hasattr(f, "aweapon"):
            return str(f.aweapon if f.attacker == op else f.dweapon)
        if hasattr(f, "shooter") and hasattr(f, "weapon"):
            return str(f.weapon)
    return "attack"


def _install_iron_halo(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Iron Halo (ability of the Space Marine Captain): once per battle, when an attack die
    inflicts Normal Dmg on it, its player may ignore that damage. Trigger: the first normal
    damage of an attack die on it in a Shoot or Fight (the core's ``would_shot_damage``,
    per unblocked die, normals first, and ``would_strike_damage`` per strike) is withheld,
    then, when the attack dice are resolved (``attack_dice_resolved``), its player decides
    (``Use iron halo``: ignored, Iron Halo used up; ``Decline``: the damage is inflicted
    then). Not asked if the Captain was incapacitated by the shot's other dice (ignoring
    one die would not have saved it). Limits: once per battle per Captain (counter
    ``iron_halo:<operative>``); critical damage is never ignored; a declined die leaves it
    for a later one (in a Shoot the unblocked normal dice are alike: one choice per
    shot)."""

    def ready(w: Work, target: str) -> bool:
        player = w.ctx.owner.get(target)
        return (
            player in players
            and has_ability(w, target, "Iron Halo")
            and not w.count(str(player), _halo_key(target))
        )

    def withhold(w: Work, dmg: int, **info: Any) -> int:
        target = str(info.get("target", ""))
        if info.get("crit") or dmg <= 0 or not ready(w, target) or _halo_pending(w, target):
            return dmg
        if not isinstance(w.top, ShootFrame | FightFrame):
            return dmg  # not an attack die of a Shoot or Fight in progress
        w.effects.append(
            Effect(
                "token",
                target,
                "end_tp",
                source=str(info.get("op", "")),
                detail=f"{_HALO_PENDING}{dmg}",
            )
        )
        return 0

    def resolved(w: Work, ev: Event) -> None:
        target = str(ev["target"])
        pending = _halo_pending(w, target) if w.effects else None
        if pending is None:
            return
        w.effects = [e for e in w.effects if e is not pending]
        if w.op(target).incapacitated or not w.op(target).alive:
            return
        dmg = int(pending.detail.removeprefix(_HALO_PENDING))
        w.stack.append(
            RuleChoiceFrame(
                player=w.ctx.owner[target],
                rule="Iron Halo",
                key=_IRON_HALO,
                op=target,
                candidates=(),
                data=(("damage", dmg), ("by", pending.source), ("weapon", str(ev["weapon"]))),
                targeted=False,
            )
        )

    hooks.transform("would_strike_damage", withhold)
    hooks.transform("would_shot_damage", withhold)
    hooks.on("attack_dice_resolved", resolved)


def _iron_halo_chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    """Iron Halo used (the damage ignored, used up for the battle) or declined (the
    withheld damage inflicted now)."""
    op = frame.op
    if chosen:
        w.count(w.ctx.owner[op], _halo_key(op), add=1)
        w.emit("iron_halo_used", op=op, damage=int(frame.get("damage")))
        return
    universal.inflict(w, op, int(frame.get("damage")), str(frame.get("weapon")), by=frame.get("by"))


on_choice(_IRON_HALO, _iron_halo_chosen)


def _install_grenadier(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Grenadier (ability of the Assault Intercessor Grenadier): it uses frag and krak
    grenades without spending the kill team's grenade uses, with Hit improved by 1. Trigger:
    none of its own: the team data gives its datacard its own Frag Grenade and Krak Grenade
    (Hit 3+, the universal grenades' 4+ improved), and an operative's own weapon of a
    grenade's name never spends a use of Explosive Grenades
    (:mod:`engine.rules.equipment.grenades`). Limits: none."""


register(
    "angels_of_death/ability/iron_halo",
    _install_iron_halo,
    "Ability: once per battle, its player may have the Captain ignore the damage of one "
    "normal success.",
)
register(
    "angels_of_death/ability/grenadier",
    _install_grenadier,
    "Ability: its own frag and krak grenades, Hit 3+, spend no grenade uses.",
)
