"""The Hierotek Circle's strategy ploys (``rules/KT24.md`` 7.1), registered by rule id
(``engine.rules.registry``); the firefight ploys: :mod:`teams.hierotek_circle.firefight_ploys`.
Each ploy's docstring (on its ``use``/installer) says its effect in our words, its trigger and
its limits; each carries an ``advice`` for the heuristic agent (:mod:`engine.agents.advice`): a
rule of thumb stated in its docstring, or the dice core where it changes one attack whose
profile is known.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.dice.rules import (
    Accurate,
    WeaponRules,
    parse_weapon_rules,
)
from engine.game import universal
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.choices import RuleChoiceFrame, on_choice
from engine.rules.equipment.markers import support_distance
from engine.rules.ploys import GainToken, Ploy, player_token, ploy_installer
from engine.rules.registry import register
from teams.hierotek_circle.common import (
    drop_effects,
    has_kw,
    op_effect,
    visible_within,
)


def _ready_friends(w: Work, player: str, *keywords: str) -> list[str]:
    return [o.id for o in w.alive(player) if o.ready and has_kw(w, o.id, *keywords)]


# -- Command Underlings -------------------------------------------------------------------------

COMMAND_UNDERLINGS = "Command Underlings"
CU_KEY = "hierotek_command_underlings"
CU_CRYPTEK = 6.0
CU_APPRENTEK = 3.0


def underlings(w: Work, source: str) -> list[str]:
    """The operatives that may Dash for Command Underlings used through ``source``: each
    other friendly HIEROTEK CIRCLE operative visible to and within 6" of it when it is a
    CRYPTEK; within 3" (and not a CRYPTEK) when it is an APPRENTEK. SUPPORT: the distance
    after :func:`engine.rules.equipment.markers.support_distance` (Comms Device, Cortical
    Control's hook does not apply: it is no unique action)."""
    cryptek = has_kw(w, source, "CRYPTEK")
    reach = support_distance(w, source, CU_CRYPTEK if cryptek else CU_APPRENTEK)
    out = []
    for o in w.friends_of(source):
        if not has_kw(w, o.id) or (not cryptek and has_kw(w, o.id, "CRYPTEK")):
            continue
        if visible_within(w, source, o.id, reach):
            out.append(o.id)
    return sorted(out, key=lambda i: w.ctx.index[i])


def _cu_eligible(w: Work, player: str, op: str, info: Mapping[str, Any]) -> bool:
    return (has_kw(w, op, "CRYPTEK") or has_kw(w, op, "APPRENTEK")) and bool(underlings(w, op))


def _cu_next(w: Work, player: str, source: str, left: tuple[str, ...]) -> None:
    """Offer the next Dash of Command Underlings: the player picks which of ``left`` dashes
    next, or declines (the others do not dash)."""
    alive = tuple(op for op in left if w.op(op).alive)
    if not alive:
        return
    w.stack.append(
        RuleChoiceFrame(
            player=player, rule=COMMAND_UNDERLINGS, key=CU_KEY, op=source, candidates=alive
        )
    )


def _cu_chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    if not chosen:
        return
    left = tuple(op for op in frame.candidates if op != chosen)
    _cu_next(w, frame.player, frame.op, left)  # below: offered once this Dash is done
    universal.start_free_action(w, chosen, ("Dash",))


on_choice(CU_KEY, _cu_chosen)


def _cu_use(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """Command Underlings (strategy ploy, 1CP; SUPPORT). Used on a friendly CRYPTEK (the
    first option) or APPRENTEK (the second): each operative of :func:`underlings` may at
    once perform a free Dash, in an order of the player's choice (``Use command underlings
    on <operative>`` for the next one, ``Decline`` to end: the rest do not dash). Who may
    dash is judged when the ploy is used. Once per turning point (7.1)."""
    _cu_next(w, player, action.target, tuple(underlings(w, action.target)))


def _cu_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: 0.05 operatives per operative that may dash (a free 3" each)."""
    return 0.05 * len(underlings(w, action.target))


COMMAND_UNDERLINGS_PLOY = Ploy(
    COMMAND_UNDERLINGS,
    "strategy",
    target="friendly",
    eligible=_cu_eligible,
    use_hook=_cu_use,
    rule_id="hierotek_circle/strategy_ploy/command_underlings",
    advice=_cu_advice,
)


# -- Methodical Elimination -------------------------------------------------------------------

METHODICAL = "methodical_elimination"
MOVED = "hierotek_moved"  # effect: value = inches op moved in its activation in progress


def _fighter_side(w: Work, op: str) -> str:
    """``"a"`` when ``op`` performs the Fight action in progress, ``"d"`` when it
    retaliates, ``""`` when it is in no fight."""
    for f in reversed(w.stack):
        if hasattr(f, "attacker") and hasattr(f, "defender"):
            return "a" if f.attacker == op else "d" if f.defender == op else ""
    return ""


def _in_activation(w: Work) -> bool:
    """An activation or counteraction (of any operative) is in progress."""
    return any(
        isinstance(f, universal.ActivationFrame) and f.mode in ("activation", "counteract")
        for f in w.stack
    )


def moved_this_activation(w: Work, op: str) -> float:
    """Inches ``op`` moved during the activation (or counteraction) in progress, whichever
    operative's it is (its own moves, or free moves it made in another's)."""
    e = op_effect(w, op, MOVED)
    return e.value / 1000 if e is not None else 0.0


def install_methodical(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Methodical Elimination (strategy ploy, 1CP): until the end of the turning point the
    melee weapons of friendly HIEROTEK CIRCLE operatives have Accurate 1; Accurate 2 instead
    while retaliating, or while fighting during an activation (or counteraction, its own or
    another operative's, e.g. a Guard interrupt) in which it has moved no more than its Move
    stat (the inches of its moves during that activation, as the movement cost counts them).
    A fight outside any activation has Accurate 1. Trigger: the Gambit step; once per
    turning point."""

    def track(w: Work, ev: Event) -> None:
        op = ev["op"]
        if w.ctx.owner[op] not in players or not player_token(w, w.ctx.owner[op], METHODICAL):
            return
        before = op_effect(w, op, MOVED)
        drop_effects(w, MOVED, op)
        total = (before.value if before is not None else 0) + round(float(ev["cost"]) * 1000)
        w.effects.append(Effect(MOVED, op, "end_tp", source=op, value=total))

    def reset(w: Work, ev: Event) -> None:
        # A new activation: no operative has moved during it yet.
        if any(e.kind == MOVED for e in w.effects):
            drop_effects(w, MOVED)

    def accurate(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
        op = str(info.get("op", ""))
        if info.get("kind") != "melee" or not op or w.ctx.owner[op] not in players:
            return rules
        if not has_kw(w, op) or not player_token(w, w.ctx.owner[op], METHODICAL):
            return rules
        side = _fighter_side(w, op)
        two = side == "d" or (
            side == "a"
            and _in_activation(w)
            and moved_this_activation(w, op) <= w.move_stat(w.op(op)) + 1e-6
        )
        return rules.with_rules(Accurate(2 if two else 1))

    hooks.on("moved", track)
    hooks.on("activated", reset)
    hooks.on("counteracted", reset)
    hooks.transform("would_use_weapon_rules", accurate)


def _methodical_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: 0.06 operatives per ready friendly HIEROTEK CIRCLE operative within
    6" of an enemy (a fight likely, one or two dice retained unrolled), at most 0.4."""
    n = 0
    for op in _ready_friends(w, player):
        here = w.place(w.op(op))
        if any(w.distance(here, w.place(e)) <= 6.0 for e in w.enemies_of(op)):
            n += 1
    return min(0.4, 0.06 * n)


METHODICAL_PLOY = Ploy(
    "Methodical Elimination",
    "strategy",
    effects=(GainToken(METHODICAL, "end_tp"),),
    rule_id="hierotek_circle/strategy_ploy/methodical_elimination",
    advice=_methodical_advice,
)


# -- Relentless Onslaught ------------------------------------------------------------------------

RELENTLESS = "relentless_onslaught"
ONSLAUGHT_RANGE = 8.0
_BALANCED = parse_weapon_rules("Balanced").rules


def install_relentless(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Relentless Onslaught (strategy ploy, 1CP): until the end of the turning point, a
    friendly HIEROTEK CIRCLE operative shooting an operative within 8" of it has Balanced on
    its ranged weapons. Measured from the shooter itself, also when Magnify* lets another
    operative be treated as the shooter. Trigger: the Gambit step; once per turning point."""

    def balanced(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
        op, target = str(info.get("op", "")), str(info.get("target", ""))
        if info.get("kind") != "ranged" or not op or not target:
            return rules
        if w.ctx.owner[op] not in players or not has_kw(w, op):
            return rules
        if not player_token(w, w.ctx.owner[op], RELENTLESS):
            return rules
        if w.distance(w.place(w.op(op)), w.place(w.op(target))) > ONSLAUGHT_RANGE + 1e-6:
            return rules
        return rules.with_rules(*_BALANCED)

    hooks.transform("would_use_weapon_rules", balanced)


def _relentless_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: Balanced on one shot is worth 0.04 operatives; one per ready friendly
    HIEROTEK CIRCLE operative with an enemy within 8"."""
    n = 0
    for op in _ready_friends(w, player):
        here = w.place(w.op(op))
        if any(w.distance(here, w.place(e)) <= ONSLAUGHT_RANGE for e in w.enemies_of(op)):
            n += 1
    return 0.04 * n


RELENTLESS_PLOY = Ploy(
    "Relentless Onslaught",
    "strategy",
    effects=(GainToken(RELENTLESS, "end_tp"),),
    rule_id="hierotek_circle/strategy_ploy/relentless_onslaught",
    advice=_relentless_advice,
)


# -- Undying Androids ------------------------------------------------------------------------

UNDYING = "undying_androids"


def install_undying(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Undying Androids (strategy ploy, 1CP): until the end of the turning point, when an
    operative is shooting a friendly HIEROTEK CIRCLE operative that cannot retain any cover
    save (not in cover, Saturate, no defence dice to spare), its player may retain one
    defence die as a normal success without rolling it: offered as the cover-save choice
    ``normal`` (the core's ``would_save_without_cover`` hook). Trigger: the Gambit step;
    once per turning point."""

    def free_save(w: Work, n: int, **info: Any) -> int:
        target = str(info.get("target", ""))
        if not target or w.ctx.owner[target] not in players or not has_kw(w, target):
            return n
        return max(n, 1) if player_token(w, w.ctx.owner[target], UNDYING) else n

    hooks.transform("would_save_without_cover", free_save)


def _undying_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: a free normal save against one shot is worth 0.03 operatives; one
    shot per ready enemy operative, at most 0.3."""
    enemy = "B" if player == "A" else "A"
    return min(0.3, 0.03 * sum(1 for o in w.alive(enemy) if o.ready))


UNDYING_PLOY = Ploy(
    "Undying Androids",
    "strategy",
    effects=(GainToken(UNDYING, "end_tp"),),
    rule_id="hierotek_circle/strategy_ploy/undying_androids",
    advice=_undying_advice,
)


register(
    "hierotek_circle/strategy_ploy/command_underlings",
    ploy_installer(COMMAND_UNDERLINGS_PLOY),
    'Friendly Hierotek operatives near a cryptek (6") or apprentek (3") each take a free '
    "Dash, in an order of the player's choice.",
)
register(
    "hierotek_circle/strategy_ploy/methodical_elimination",
    ploy_installer(METHODICAL_PLOY, install_methodical),
    "Hierotek melee weapons have Accurate 1; Accurate 2 retaliating or fighting without "
    "having moved more than Move this activation.",
)
register(
    "hierotek_circle/strategy_ploy/relentless_onslaught",
    ploy_installer(RELENTLESS_PLOY, install_relentless),
    'Hierotek operatives shooting a target within 8" of them have Balanced.',
)
register(
    "hierotek_circle/strategy_ploy/undying_androids",
    ploy_installer(UNDYING_PLOY, install_undying),
    "Shot without any cover save to retain, a Hierotek operative may retain one defence "
    "die as a normal success unrolled.",
)
