"""The Hierotek Circle's operatives' abilities (registered by rule id in
``engine.rules.registry``): Scuttler (Plasmacytes), Steadfast (Immortals), Deathmarked
(Deathmark) and Apprentek Assistance (Apprentek)."""

from __future__ import annotations

from typing import Any

from engine.dice.rules import WeaponRules, parse_weapon_rules
from engine.game import universal
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.universal import weapon_name
from engine.game.work import Work
from engine.rules.registry import register
from teams.hierotek_circle.common import (
    cryptek_action,
    has_keyword,
    own_actions,
)

# -- Scuttler (Plasmacyte Accelerator and Reanimator) -----------------------------------------

PLASMACYTE = "PLASMACYTE"
SCUTTLER_CLEAR = 2.0
SCUTTLER_ACTIONS = ("Accelerate", "Reanimate")


def _scuttler(w: Work, op: str) -> bool:
    return has_keyword(w, op, PLASMACYTE)


def _team_unique_actions(w: Work, player: str) -> set[str]:
    """Every unique action printed on a datacard of ``player``'s operatives."""
    return {name for o in w.ops if o.player == player for name in own_actions(w, o.id)}


def install_scuttler(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Scuttler (Plasmacytes; our words): while it has a Conceal order and is in cover it
    is never a valid target, whatever other rules say (Seek, Vantage, Magnify...), unless
    the shooter is within 2" of it; it performs Fall Back for 1 less AP; it uses only the
    weapons on its datacard and performs no unique action but its own (Accelerate or
    Reanimate). Trigger: the core's ``would_refuse_target`` (cover judged from the shooter
    by the terrain alone, before Seek or Vantage), ``would_cost_action``,
    ``would_refuse_weapon`` and ``would_refuse_action`` hooks."""

    def mine(w: Work, op: str) -> bool:
        return w.ctx.owner.get(op) in players and _scuttler(w, op)

    def hidden(w: Work, why: str | None, **info: Any) -> str | None:
        o, t = info["op"], info["target"]
        if why is not None or not mine(w, t.id) or t.order != "conceal":
            return why
        here, there = w.place(o), w.place(t)
        if w.distance(here, there) <= SCUTTLER_CLEAR + 1e-6:
            return why
        tg = w.ctx.targeting(w.kz, here, there)
        if tg.in_cover or tg.cover_features:  # cover from any intervening feature
            return f"{t.id} has a Conceal order and is in cover: Scuttler, not a valid target"
        return why

    def fall_back(w: Work, ap: int, **info: Any) -> int:
        o = info.get("op")
        if o is not None and info.get("action") == "Fall Back" and mine(w, o.id):
            return ap - 1
        return ap

    def weapon(w: Work, why: str | None, **info: Any) -> str | None:
        o = info["op"]
        if why is not None or not mine(w, o.id):
            return why
        name = info["weapon"]
        card = w.ctx.datacards[o.id]
        if any(weapon_name(wp, p) == name for wp in card.weapons for p in wp.profiles):
            return why
        return f"{o.id} uses only the weapons on its datacard (Scuttler)"

    def action(w: Work, why: str | None, **info: Any) -> str | None:
        op = str(info.get("op", ""))
        act = info.get("rule_action")
        if why is not None or act is None or not mine(w, op):
            return why
        name = act.name
        if name in own_actions(w, op) or name not in _team_unique_actions(w, w.ctx.owner[op]):
            return why
        return f"{op} performs no unique action but its own (Scuttler)"

    hooks.transform("would_refuse_target", hidden)
    hooks.transform("would_cost_action", fall_back)
    hooks.transform("would_refuse_weapon", weapon)
    hooks.transform("would_refuse_action", action)


# -- Steadfast (Immortal Despotek and Guardian) ------------------------------------------------

IMMORTAL = "IMMORTAL"
STEADFAST_APL = 3


def install_steadfast(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Steadfast (Immortals; our words): when determining control of a marker (any marker,
    objective or mission marker; not a flank or other area), its APL
    counts as 3, whatever changes its APL stat has. The player may choose to; counting 3
    is never worse than its own APL (at most 3 after changes, 2.1), so the engine always
    does (no decision). Trigger: the core's ``would_control_apl`` hook."""

    def apl(w: Work, value: int, **info: Any) -> int:
        op = str(info.get("op", ""))
        if not universal.is_marker(info.get("what")):
            return value  # (control of a marker only: not a flank)
        if w.ctx.owner.get(op) in players and has_keyword(w, op, IMMORTAL):
            return max(value, STEADFAST_APL)
        return value

    hooks.transform("would_control_apl", apl)


# -- Deathmarked (Deathmark) ------------------------------------------------------------------

DEATHMARK = "DEATHMARK"
DEATHMARKED = "deathmarked"  # effect kind; detail = the player whose token it is
_AIM = "deathmark_aim"  # effect kind on the shooter: detail = its primary target
_SEEK = parse_weapon_rules("Seek").rules


def deathmarked(w: Work, op: str, player: str) -> bool:
    """Whether ``op`` has one of ``player``'s Deathmarked tokens."""
    return any(e.detail == player for e in w.effects_on(op, DEATHMARKED))


def install_deathmarked(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Deathmarked (Deathmark; our words): when it ends a Shoot action, the (primary) target
    gains one of its player's Deathmarked tokens unless incapacitated; friendly DEATHMARK
    operatives' ranged weapons have Seek when shooting an enemy with such a token. Trigger:
    ``shoot_started`` (the primary target), ``shoot_ended``, ``would_use_weapon_rules``
    (read by target selection too: Seek when selecting a valid target, 4.5).
    Limits: one token per player on an operative; the token lasts the battle (removed with
    the operative's effects when it is removed)."""

    def mine(w: Work, op: str) -> bool:
        return w.ctx.owner.get(op) in players and has_keyword(w, op, DEATHMARK)

    def started(w: Work, ev: Event) -> None:
        op = str(ev["op"])
        if mine(w, op):
            w.effects = [e for e in w.effects if not (e.kind == _AIM and e.op == op)]
            w.effects.append(Effect(_AIM, op, "end_tp", source=op, detail=str(ev["target"])))

    def ended(w: Work, ev: Event) -> None:
        op = str(ev["op"])
        aim = [e for e in w.effects if e.kind == _AIM and e.op == op]
        if not aim:
            return
        w.effects = [e for e in w.effects if not (e.kind == _AIM and e.op == op)]
        target, player = aim[0].detail, w.ctx.owner[op]
        t = w.op(target)
        if t.incapacitated or not t.placed or deathmarked(w, target, player):
            return
        w.effects.append(Effect(DEATHMARKED, target, "end_battle", source=op, detail=player))
        w.emit("token_gained", op=target, token="Deathmarked", by=op)

    def seek(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
        op, target = str(info.get("op", "")), str(info.get("target") or "")
        if not target or info.get("kind") != "ranged" or not mine(w, op):
            return rules
        if deathmarked(w, target, w.ctx.owner[op]) and not rules.has(type(_SEEK[0])):
            return rules.with_rules(*_SEEK)
        return rules

    hooks.on("shoot_started", started)
    hooks.on("shoot_ended", ended)
    # (Seek counts when selecting a valid target too: the core's target selection reads
    # the weapon's rules as this hook gives them, engine.game.weapons.weapon_rules.)
    hooks.transform("would_use_weapon_rules", seek)


# -- Apprentek Assistance (Apprentek) ---------------------------------------------------------

_APPRENTEK_TP = "apprentek_cryptek_tp"  # player count: the TP it last did a CRYPTEK action


def install_apprentek_assistance(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Apprentek Assistance (Apprentek; our words): it has the unique actions of its
    player's CRYPTEK operative selected for the battle, but performs at most one such
    CRYPTEK unique action per turning point. The actions themselves ask
    :func:`teams.hierotek_circle.common.performs`; this rule enforces the limit. Trigger:
    ``would_refuse_action`` and the ``rule_action`` event."""

    def refuse(w: Work, why: str | None, **info: Any) -> str | None:
        op = str(info.get("op", ""))
        act = info.get("rule_action")
        if why is not None or act is None or w.ctx.owner.get(op) not in players:
            return why
        o: OperativeState = w.op(op)
        if cryptek_action(w, o, act.name) and w.count(o.player, _APPRENTEK_TP) == w.tp:
            return (
                f"{op} already performed a CRYPTEK unique action this turning point "
                "(Apprentek Assistance)"
            )
        return why

    def used(w: Work, ev: Event) -> None:
        op = str(ev["op"])
        if w.ctx.owner.get(op) not in players:
            return
        o = w.op(op)
        if cryptek_action(w, o, str(ev["action"])):
            w.count(o.player, _APPRENTEK_TP, w.tp - w.count(o.player, _APPRENTEK_TP))

    hooks.transform("would_refuse_action", refuse)
    hooks.on("rule_action", used)


register(
    "hierotek_circle/ability/scuttler",
    install_scuttler,
    'Plasmacyte: Conceal in cover, never a valid target beyond 2"; Fall Back 1AP less; only '
    "its own weapons and unique action.",
)
register(
    "hierotek_circle/ability/steadfast",
    install_steadfast,
    "Immortal: counts as APL 3 when determining control of a marker.",
)
register(
    "hierotek_circle/ability/deathmarked",
    install_deathmarked,
    "Deathmark: its target gains a Deathmarked token; Deathmarks shooting a marked enemy have "
    "Seek.",
)
register(
    "hierotek_circle/ability/apprentek_assistance",
    install_apprentek_assistance,
    "Apprentek: performs its CRYPTEK's unique actions, one per turning point.",
)
