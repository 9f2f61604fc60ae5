"""The Kommandos' strategy ploys (``rules/KT24.md`` 7.1), registered by rule id
(``engine.rules.registry``).

Strategy ploys (the Gambit step), each until the end of the turning point:

- **DAKKA! DAKKA! DAKKA!**: friendly KOMMANDO operatives' ranged weapons have Punishing.
- **Skulk About**: a friendly KOMMANDO operative with a Conceal order that an enemy is
  shooting keeps one defence die as a normal save without rolling it, besides any cover save
  (the ``would_retain_defence_normal`` hook of the Shoot sequence); not when a friendly
  operative is shooting it (the Bomb Squig's Explosives' Blast).
- **SSSSHHHH!** (not in the first turning point): every friendly KOMMANDO operative that is
  not a valid target for any enemy, or has a Conceal order and is more than 6" from every
  enemy, may make a free Dash at once (the operatives qualifying when the ploy is used).
- **WAAAGH!**: friendly KOMMANDO operatives' melee weapons have Balanced.

Firefight ploys: :mod:`teams.kommandos.firefight_ploys`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.dice.rules import WeaponRules, parse_weapon_rules
from engine.game import universal
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.work import Work
from engine.rules.ploys import GainToken, Ploy, player_token, ploy_installer
from engine.rules.registry import register
from teams.kommandos.common import is_kommando


def _kommandos(w: Work, player: str) -> list[str]:
    return [o.id for o in w.alive(player) if is_kommando(w, o.id)]


def _near_enemy(w: Work, op: str, reach: float) -> bool:
    here = w.place(w.op(op))
    return any(w.distance(here, w.place(e)) <= reach for e in w.enemies_of(op))


_install = ploy_installer


# -- DAKKA! DAKKA! DAKKA! and WAAAGH! ---------------------------------------------------------

DAKKA = "kommandos_dakka_dakka_dakka"
WAAAGH = "kommandos_waaagh"
_PUNISHING = parse_weapon_rules("Punishing").rules
_BALANCED = parse_weapon_rules("Balanced").rules
SHOT_PUNISHING = 0.03  # Punishing on one operative's shots in a turning point
FIGHT_BALANCED = 0.05  # Balanced on one fight
NEAR = 6.0
SHOOTING_REACH = 12.0


def _gain_rule(token: str, kind: str, extra: tuple[Any, ...]) -> Any:
    """An installer: while its player holds ``token``, friendly KOMMANDO operatives' weapons
    of ``kind`` have the weapon rules ``extra`` (``would_use_weapon_rules``)."""

    def install(hooks: Hooks, players: tuple[str, ...]) -> None:
        def gain(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
            op = str(info.get("op", ""))
            if info.get("kind") != kind or not op or not w.effects or not is_kommando(w, op):
                return rules
            player = w.ctx.owner[op]
            if player not in players or not player_token(w, player, token):
                return rules
            if all(rules.has(type(r)) for r in extra):
                return rules
            return rules.with_rules(*extra)

        hooks.transform("would_use_weapon_rules", gain)

    return install


def _dakka_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: 0.03 operatives per friendly KOMMANDO operative with a ranged weapon
    within 12" of an enemy (Punishing on its shots this turning point), at most 0.3."""
    n = sum(
        1
        for op in _kommandos(w, player)
        if universal.weapons_of(w, op, "ranged") and _near_enemy(w, op, SHOOTING_REACH)
    )
    return min(0.3, SHOT_PUNISHING * n)


def _waaagh_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: 0.05 operatives per friendly KOMMANDO operative within 6" of an enemy
    (Balanced in the fight it is likely to have), at most 0.4."""
    n = sum(1 for op in _kommandos(w, player) if _near_enemy(w, op, NEAR))
    return min(0.4, FIGHT_BALANCED * n)


DAKKA_PLOY = Ploy(
    "DAKKA! DAKKA! DAKKA!",
    "strategy",
    effects=(GainToken(DAKKA, "end_tp"),),
    rule_id="kommandos/strategy_ploy/dakka_dakka_dakka",
    advice=_dakka_advice,
)
"""DAKKA! DAKKA! DAKKA! (strategy, 1CP): until the end of the turning point, friendly
KOMMANDO operatives' ranged weapons have Punishing."""

WAAAGH_PLOY = Ploy(
    "WAAAGH!",
    "strategy",
    effects=(GainToken(WAAAGH, "end_tp"),),
    rule_id="kommandos/strategy_ploy/waaagh",
    advice=_waaagh_advice,
)
"""WAAAGH! (strategy, 1CP): until the end of the turning point, friendly KOMMANDO
operatives' melee weapons have Balanced."""


# -- Skulk About -------------------------------------------------------------------------------

SKULK = "kommandos_skulk_about"
SKULK_EACH = 0.04  # one sure save on a concealed operative that is shot


def _skulk_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: 0.04 operatives per friendly KOMMANDO operative with a Conceal order
    (a sure defence save if it is shot this turning point), at most 0.3."""
    n = sum(1 for op in _kommandos(w, player) if w.op(op).order == "conceal")
    return min(0.3, SKULK_EACH * n)


SKULK_ABOUT_PLOY = Ploy(
    "Skulk About",
    "strategy",
    effects=(GainToken(SKULK, "end_tp"),),
    rule_id="kommandos/strategy_ploy/skulk_about",
    advice=_skulk_advice,
)
"""Skulk About (strategy, 1CP): until the end of the turning point, whenever an enemy is
shooting a friendly KOMMANDO operative with a Conceal order, one of its defence dice is
retained as a normal save without being rolled (besides any cover save)."""


def install_skulk_about(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Skulk About (:data:`SKULK_ABOUT_PLOY`): the ``would_retain_defence_normal`` hook."""

    def skulk(w: Work, extra: int, **info: Any) -> int:
        target = str(info.get("target", ""))
        if not target or not w.effects or not is_kommando(w, target):
            return extra
        player = w.ctx.owner[target]
        if player not in players or w.op(target).order != "conceal":
            return extra
        if w.ctx.owner.get(str(info.get("op", ""))) == player:
            return extra  # shot by a friend (the Bomb Squig's own Explosives), not an enemy
        return extra + 1 if player_token(w, player, SKULK) else extra

    hooks.ploy(SKULK_ABOUT_PLOY, players)
    hooks.transform("would_retain_defence_normal", skulk)


# -- SSSSHHHH! ---------------------------------------------------------------------------------

SHHH_RANGE = 6.0
DASH_VALUE = 0.05  # a free 3" move


def _unseen(w: Work, op: str) -> bool:
    """``op`` is not a valid target for any enemy operative (4.5: from where each stands;
    a rule's ``would_refuse_target`` hook counts, e.g. the Grot's Sneaky Zogger)."""
    o = w.op(op)
    me = w.place(o)
    hooked = "would_refuse_target" in w.ctx.hooks.would
    for e in w.enemies_of(op):
        if not w.ctx.valid_target(w.kz, me, w.place(e), o.order, None):
            continue
        if hooked and w.would("would_refuse_target", None, op=e, target=o):
            continue
        return False
    return True


def shhh_eligible(w: Work, op: str) -> bool:
    """``op`` is a friendly KOMMANDO operative that is not a valid target for enemy
    operatives, or has a Conceal order and is more than 6" from every enemy operative."""
    if not is_kommando(w, op):
        return False
    o = w.op(op)
    if o.order == "conceal" and not _near_enemy(w, op, SHHH_RANGE):
        return True
    return _unseen(w, op)


def _shhh_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    return w.tp > 1 and any(shhh_eligible(w, op) for op in _kommandos(w, player))


def _shhh(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """Each eligible operative (judged now) may make a free Dash, in roster order (pushed
    in reverse so the first dashes first)."""
    ops = [op for op in _kommandos(w, player) if shhh_eligible(w, op)]
    for op in reversed(ops):
        universal.start_free_action(w, op, ("Dash",))


def _shhh_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: 0.05 operatives per operative that may dash (a free 3"), at most
    0.4."""
    n = sum(1 for op in _kommandos(w, player) if shhh_eligible(w, op))
    return min(0.4, DASH_VALUE * n)


SSSSHHHH_PLOY = Ploy(
    "SSSSHHHH!",
    "strategy",
    condition=_shhh_condition,
    use_hook=_shhh,
    rule_id="kommandos/strategy_ploy/sssshhhh",
    advice=_shhh_advice,
)
"""SSSSHHHH! (strategy, 1CP, not in the first turning point): each friendly KOMMANDO
operative not a valid target for enemies, or with a Conceal order and more than 6" from
them, may make a free Dash (:func:`shhh_eligible`)."""


__all__ = [
    "DAKKA_PLOY",
    "SKULK_ABOUT_PLOY",
    "SSSSHHHH_PLOY",
    "WAAAGH_PLOY",
]


def _install_dakka(hooks: Hooks, players: tuple[str, ...]) -> None:
    hooks.ploy(DAKKA_PLOY, players)
    _gain_rule(DAKKA, "ranged", _PUNISHING)(hooks, players)


def _install_waaagh(hooks: Hooks, players: tuple[str, ...]) -> None:
    hooks.ploy(WAAAGH_PLOY, players)
    _gain_rule(WAAAGH, "melee", _BALANCED)(hooks, players)


register(
    "kommandos/strategy_ploy/dakka_dakka_dakka",
    _install_dakka,
    "Until the end of the TP, friendly Kommandos' ranged weapons have Punishing.",
)
register(
    "kommandos/strategy_ploy/waaagh",
    _install_waaagh,
    "Until the end of the TP, friendly Kommandos' melee weapons have Balanced.",
)
register(
    "kommandos/strategy_ploy/skulk_about",
    install_skulk_about,
    "Until the end of the TP, a concealed Kommando that is shot keeps one defence die as a "
    "normal save unrolled.",
)
register(
    "kommandos/strategy_ploy/sssshhhh",
    _install(SSSSHHHH_PLOY),
    'From TP2: Kommandos no enemy can target, or concealed and more than 6" from enemies, '
    "make a free Dash.",
)
