"""The Hierotek Circle's strategy and firefight ploys (``rules/KT24.md`` 7.1), registered by
rule id (``engine.rules.registry``). Each ploy's docstring (on its ``use``/installer) says
its effect in our words, its trigger and its limits; each carries an ``advice`` for the
heuristic agent (:mod:`engine.agents.advice`): a rule of thumb stated in its docstring, or
the dice core where it changes one attack whose profile is known.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.dice.rules import (
    Accurate,
    Blast,
    Devastating,
    WeaponRule,
    WeaponRules,
    parse_weapon_rules,
)
from engine.game import universal
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.choices import RuleChoiceFrame, on_choice
from engine.rules.equipment.markers import support_distance
from engine.rules.ploys import GainToken, Ploy, player_token, ploy_installer
from engine.rules.registry import register

FACTION = "HIEROTEK CIRCLE"
TEAM = "hierotek_circle"


def has_kw(w: Work, op: str, *keywords: str) -> bool:
    """``op`` is a HIEROTEK CIRCLE operative with every one of ``keywords``."""
    kw = w.ctx.datacards[op].keywords
    return FACTION in kw and all(k in kw for k in keywords)


def op_effect(w: Work, op: str, kind: str) -> Effect | None:
    """The first effect of ``kind`` on ``op`` (``e.op == op``), or ``None``."""
    for e in w.effects:
        if e.kind == kind and e.op == op:
            return e
    return None


def drop_effects(w: Work, kind: str, op: str | None = None) -> None:
    """Remove the effects of ``kind`` (on ``op`` only, when given)."""
    w.effects = [e for e in w.effects if not (e.kind == kind and (op is None or e.op == op))]


def visible_within(w: Work, a: str, b: str, inches: float) -> bool:
    """``b`` is visible to ``a`` and within ``inches`` of it."""
    pa, pb = w.place(w.op(a)), w.place(w.op(b))
    return w.distance(pa, pb) <= inches + 1e-6 and bool(w.ctx.visible(w.kz, pa, pb))


def _rule_id(kind: str, name: str) -> str:
    return f"{TEAM}/{kind}/{'_'.join(name.lower().split())}"


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
    rule_id=_rule_id("strategy_ploy", COMMAND_UNDERLINGS),
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


def _in_own_activation(w: Work, op: str) -> bool:
    for f in reversed(w.stack):
        if isinstance(f, universal.ActivationFrame) and f.mode in ("activation", "counteract"):
            return bool(f.op == op)
    return False


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
    rule_id=_rule_id("strategy_ploy", "Methodical Elimination"),
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
    rule_id=_rule_id("strategy_ploy", "Relentless Onslaught"),
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
    rule_id=_rule_id("strategy_ploy", "Undying Androids"),
    advice=_undying_advice,
)


# -- Living Lightning -------------------------------------------------------------------------

LIVING_LIGHTNING = "living_lightning"  # effect on the shooter until its Shoot action ends
TESLA = "tesla carbine"
LIGHTNING_BLAST = 2.0


def _shoot_frame(w: Work) -> Any:
    for f in reversed(w.stack):
        if hasattr(f, "shooter") and hasattr(f, "targets"):
            return f
    return None


def _ll_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    op = str(info.get("op", ""))
    if info.get("kind") != "ranged" or not op or w.ctx.owner.get(op) != player:
        return False
    f = _shoot_frame(w)
    return (
        has_kw(w, op, "IMMORTAL")
        and str(info.get("weapon", "")).startswith(TESLA)
        and f is not None
        and f.idx == 0
        and len(f.targets) == 1
    )


def blast_secondaries(w: Work, shooter: str, primary: str) -> tuple[str, ...]:
    """Blast 2" secondaries of a shot at ``primary``: every other operative visible to and
    within 2" of it (6), in id order."""
    tp = w.place(w.op(primary))
    sec = [
        q.id
        for q in w.alive()
        if q.id not in (primary, shooter)
        and w.distance(tp, w.place(q)) <= LIGHTNING_BLAST + 1e-6
        and w.ctx.visible(w.kz, tp, w.place(q))
    ]
    return tuple(sorted(sec, key=lambda i: w.ctx.index[i]))


def _ll_use(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """Living Lightning (firefight ploy, 1CP): when a friendly HIEROTEK CIRCLE IMMORTAL
    operative performs the Shoot action with a tesla carbine (the ``target_selected``
    window), until the end of that action the weapon's ``2" Devastating 1`` loses its 2"
    (plain Devastating 1) and it has Blast 2": the secondaries are added to the action now."""
    op = str(info["op"])
    f = _shoot_frame(w)
    i = w.stack.index(f)
    sec = blast_secondaries(w, op, f.targets[0])
    w.stack[i] = attrs.evolve(f, targets=(*f.targets, *sec))
    w.effects.append(Effect(LIVING_LIGHTNING, op, "end_tp", source=op))


def install_living_lightning(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Living Lightning's weapon change (:func:`_ll_use`), ended with the Shoot action."""

    def lightning(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
        op = str(info.get("op", ""))
        if info.get("kind") != "ranged" or not op or op_effect(w, op, LIVING_LIGHTNING) is None:
            return rules
        if not str(info.get("weapon", "")).startswith(TESLA):
            return rules
        kept: list[WeaponRule] = []
        for r in rules:
            if isinstance(r, Devastating) and r.distance is not None:
                kept.append(Devastating(r.damage))
            elif not isinstance(r, Blast):
                kept.append(r)
        return WeaponRules.of((*kept, Blast(LIGHTNING_BLAST)))

    def ended(w: Work, ev: Event) -> None:
        if op_effect(w, ev["op"], LIVING_LIGHTNING) is not None:
            drop_effects(w, LIVING_LIGHTNING, ev["op"])

    hooks.transform("would_use_weapon_rules", lightning)
    hooks.on("shoot_ended", ended)


def _ll_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: each enemy secondary target is a second shot worth 0.15 operatives,
    each friendly one costs as much; minus the 2" Devastating splash lost (0.03 per other
    operative within 2" of the primary, whatever its side, counted against the enemy)."""
    f = _shoot_frame(w)
    op = str(info.get("op", ""))
    if f is None or not op:
        return 0.0
    value = 0.0
    for q in blast_secondaries(w, op, f.targets[0]):
        value += 0.15 if w.ctx.owner[q] != player else -0.15
        value -= 0.03 if w.ctx.owner[q] != player else -0.03
    return value


LIVING_LIGHTNING_PLOY = Ploy(
    "Living Lightning",
    "firefight",
    triggers=("target_selected",),
    condition=_ll_condition,
    use_hook=_ll_use,
    rule_id=_rule_id("firefight_ploy", "Living Lightning"),
    advice=_ll_advice,
)


# -- Cortical Control --------------------------------------------------------------------------

CORTICAL = "cortical_control"  # effect on the operative until its next action ends
UNLIMITED = 1000.0


def _cc_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    op = str(info.get("op", ""))
    if not op or w.ctx.owner.get(op) != player or w.op(op).ap < 1:
        return False
    return has_kw(w, op, "CRYPTEK") or has_kw(w, op, "APPRENTEK")


def _cc_use(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """Cortical Control (firefight ploy, 1CP): used during the activation of a friendly
    HIEROTEK CIRCLE APPRENTEK or CRYPTEK operative, between its actions (the core's
    ``during_activation`` window), or as it starts a counteraction (``counteract_start``:
    its one action follows), the engine's reading of "when it performs a SUPPORT unique
    action" (used just before the action is chosen, so the action may select an operative
    beyond the distance): until the end of its next action, its SUPPORT rules that select
    another friendly operative ignore their distance requirement (visibility still counts;
    every SUPPORT rule that measures with ``support_distance``). Ends with that action, or
    with the activation if no action follows. Offered only while the operative has an action
    point left (a SUPPORT unique action costs 1AP). Once per turning point."""
    op = str(info["op"])
    w.effects.append(Effect(CORTICAL, op, "end_tp", source=op))


def install_cortical(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Cortical Control's reach (:func:`_cc_use`), ended with the operative's next action."""

    def reach(w: Work, inches: float, **info: Any) -> float:
        op = str(info.get("op", ""))
        if op and op_effect(w, op, CORTICAL) is not None:
            return UNLIMITED
        return inches

    def ended(w: Work, ev: Event) -> None:
        if op_effect(w, ev["op"], CORTICAL) is not None:
            drop_effects(w, CORTICAL, ev["op"])

    hooks.transform("would_support_distance", reach)
    hooks.on("action_ended", ended)
    hooks.on("activation_ended", ended)


def _cc_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: worth 0.1 operatives when a friendly HIEROTEK CIRCLE operative is
    visible to the operative but more than 6" away (a SUPPORT action can now reach it) and
    the operative has an action point left; nothing otherwise."""
    op = str(info.get("op", ""))
    if not op or w.op(op).ap < 1:
        return 0.0
    here = w.place(w.op(op))
    for o in w.friends_of(op):
        there = w.place(o)
        if w.distance(here, there) > 6.0 and w.ctx.visible(w.kz, here, there):
            return 0.1
    return 0.0


CORTICAL_PLOY = Ploy(
    "Cortical Control",
    "firefight",
    triggers=("during_activation", "counteract_start"),
    condition=_cc_condition,
    use_hook=_cc_use,
    rule_id=_rule_id("firefight_ploy", "Cortical Control"),
    advice=_cc_advice,
)


# -- Reanimated Function ----------------------------------------------------------------------

REANIMATED_FUNCTION = "Reanimated Function"
RAF = "hierotek_reanimated_function"  # effect: detail = the marker's token name, player
RAF_CHANGES = ("moved", "incapacitated", "stat_changed")
"""The windows after a change mid-activation at which Reanimated Function is offered only
when one of the player's Reanimation markers contests a marker (class docstring)."""


@attrs.frozen(slots=True)
class ReanimatedFunction:
    """Reanimated Function (firefight ploy, 1CP): select one of the player's Reanimation
    markers; until the start of the next turning point, whenever control of a marker is
    determined (an objective marker, or any other marker on the killzone whose control the
    core determines: mission and equipment markers), that Reanimation marker counts as a
    friendly HIEROTEK CIRCLE operative with APL 1 contesting it when it is within the
    marker's control range (as an operative would be: the ``would_control_totals`` hook,
    with the marker's name). Ends early if the marker is removed (its operative
    REANIMATED).

    Trigger ("when determining control of a marker"): control is determined inside actions
    and scoring, where no window opens, so the ploy is offered at every window after which
    control may be determined with something changed, its effect lasting to the next
    turning point (so using it there is using it for the next determination): between the
    actions of a friendly operative's activation (``during_activation``), as any operative's
    activation starts or ends (``activation_start``, ``activation_end``) or a counteraction
    starts (``counteract_start``), at the end of the turning point before the ops score
    (``turning_point_end``), and, when one of the player's Reanimation markers contests a
    marker then, as soon as what decides control changed mid-activation: an operative moved
    (``moved``: an enemy operative that moved onto an objective marker may be denied its
    Pick Up or mission action before it chooses it), was incapacitated (``incapacitated``)
    or had a stat changed (``stat_changed``: its APL); and as any operative declares an
    action (``action_declared``; not the player's own in its activation, offered between
    its actions already) while within control range of a marker one of the player's
    Reanimation markers contests: that action may determine control (Pick Up Marker, a
    mission action), so the ploy is used as control is determined for it, and if the
    action is then illegal it is refused and the opponent chooses again (no AP spent).
    Notation ``Ploy
    reanimated function on <operative>``, naming the operative the marker was placed for.
    Once per turning point (7.1). No effect when the Martyrs tac op determines control (the
    hook's ``rule="Martyrs"``, which the tac op passes)."""

    name: str = REANIMATED_FUNCTION
    kind: str = "firefight"
    cp: int = 1
    triggers: tuple[str, ...] = (
        "during_activation",
        "activation_start",
        "activation_end",
        "counteract_start",
        "action_declared",
        "turning_point_end",
        *RAF_CHANGES,
    )
    repeatable: bool = False
    rule_id: str = _rule_id("firefight_ploy", REANIMATED_FUNCTION)
    text: str = "reanimated function"

    def _markers(self, w: Work, player: str) -> list[Any]:
        from teams.hierotek_circle.reanimation import reanimation_markers

        return reanimation_markers(w, player)

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """One action per Reanimation marker of ``player`` (``info["op"]`` must be its own
        operative between actions)."""
        from teams.hierotek_circle.reanimation import marker_operative

        if info.get("trigger") == "during_activation":
            op = str(info.get("op", ""))
            if not op or w.ctx.owner.get(op) != player:
                return []
        toks = self._markers(w, player)
        if info.get("trigger") == "action_declared":
            toks = [t for t in toks if _raf_declared(w, player, t, info)]
        elif info.get("trigger") in RAF_CHANGES:
            toks = [t for t in toks if _raf_contests_any(w, t)]
        ops = [marker_operative(t) for t in toks]
        return [Action("Ploy", text=self.text, target=op) for op in sorted(ops)]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Ploy reanimated function on <operative>``."""
        return action.verb == "Ploy" and action.text == self.text

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Select the marker (class docstring)."""
        from teams.hierotek_circle.reanimation import marker_name

        name = marker_name(action.target)
        w.effects.append(
            Effect(RAF, "", "end_tp", source=action.target, detail=name, player=player)
        )

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """Rule of thumb: 0.3 operatives (about 1VP) when the marker contests an objective
        marker whose control it would change now (a tie broken or a loss made a tie),
        else nothing."""
        tok = _marker_token(w, action.target)
        if tok is None:
            return 0.0
        for m in w.markers:
            if not _raf_contests(w, tok, m.name):
                continue
            now = universal.controller(w, m.name)
            if now != player:
                return 0.3
        return 0.0


def _marker_token(w: Work, op: str) -> Any:
    from teams.hierotek_circle.reanimation import marker_of

    return marker_of(w, op)


def _raf_contests(w: Work, tok: Any, marker: str) -> bool:
    """The Reanimation marker ``tok`` is within control range of the marker named ``marker``
    (an objective marker, or another marker on the killzone: a token of ``w.tokens``), as an
    operative there would be (4.8); never of a carried marker."""
    from teams.hierotek_circle.reanimation import marker_place

    return _place_contests(w, marker_place(tok), marker, tok)


def _place_contests(w: Work, place: Any, marker: str, skip: Any = None) -> bool:
    """Something placed at ``place`` is within control range of the marker named ``marker``
    (not carried; never the token ``skip`` itself)."""
    from engine.geometry import sight
    from engine.rules.equipment.markers import _in_range

    m = next((m for m in w.markers if m.name == marker), None)
    if m is None:
        t = next((t for t in w.tokens if t.name == marker), None)
        if t is None or t.carrier or t is skip:
            return False
        return _in_range(w, place, t)
    if m.carrier:
        return False
    return bool(
        sight.objective_in_control_range(w.kz, place, universal.marker_objective(w, marker))
    )


def _raf_declared(w: Work, player: str, tok: Any, info: Mapping[str, Any]) -> bool:
    """At ``action_declared``: the acting operative (not ``player``'s own in its activation,
    where ``during_activation`` offers the ploy) is within control range of a marker that
    the Reanimation marker ``tok`` contests: its action may depend on that marker's
    control."""
    op = str(info.get("op", ""))
    if not op or (w.ctx.owner.get(op) == player and info.get("mode") == "activation"):
        return False
    here = w.place(w.op(op))
    names = [m.name for m in w.markers] + [t.name for t in w.tokens if t.kind != tok.kind]
    return any(_raf_contests(w, tok, n) and _place_contests(w, here, n) for n in names)


def _raf_contests_any(w: Work, tok: Any) -> bool:
    """The Reanimation marker ``tok`` contests some marker now (an objective marker, or a
    marker on the killzone that is not a Reanimation marker)."""
    if any(_raf_contests(w, tok, m.name) for m in w.markers):
        return True
    return any(t.kind != tok.kind and _raf_contests(w, tok, t.name) for t in w.tokens)


REANIMATED_FUNCTION_PLOY = ReanimatedFunction()
MARTYRS = "Martyrs"  # the tac op on which the ploy has no effect (its ``rule=``)


def install_reanimated_function(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Reanimated Function's count (class docstring)."""

    def totals(w: Work, total: dict[str, int], **info: Any) -> dict[str, int]:
        marker = str(info.get("marker", ""))
        if not marker or not w.effects or not w.tokens or info.get("rule") == MARTYRS:
            return total
        for e in w.effects:
            if e.kind != RAF or e.player not in players:
                continue
            tok = _marker_token(w, e.source)
            if tok is not None and tok.owner == e.player and _raf_contests(w, tok, marker):
                total[e.player] += 1
        return total

    hooks.transform("would_control_totals", totals)


# -- Dimensional Ambush -----------------------------------------------------------------------

DIMENSIONAL_AMBUSH = "dimensional_ambush"  # token on the Deathmark for its activation
DA_GUARD = "hierotek_dimensional_guard"  # effect: on guard through the ploy (Engage to act)


def _da_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    op = str(info.get("op", ""))
    if not op or w.ctx.owner.get(op) != player or not has_kw(w, op, "DEATHMARK"):
        return False
    return w.op(op).order == "conceal" and _in_own_activation(w, op)


def _da_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: 0.15 operatives (an interrupting shot with the synaptic disintegrator
    while staying concealed until then) when a ready enemy operative is visible to the
    Deathmark and it has an action point left, else nothing."""
    op = str(info.get("op", ""))
    if not op or w.op(op).ap < 1:
        return 0.0
    here = w.place(w.op(op))
    seen = any(e.ready and w.ctx.visible(w.kz, here, w.place(e)) for e in w.enemies_of(op))
    return 0.15 if seen else 0.0


DIMENSIONAL_AMBUSH_PLOY = Ploy(
    "Dimensional Ambush",
    "firefight",
    triggers=("during_activation",),
    target="self",
    condition=_da_condition,
    effects=(GainToken(DIMENSIONAL_AMBUSH, "end_activation"),),
    rule_id=_rule_id("firefight_ploy", "Dimensional Ambush"),
    advice=_da_advice,
)
"""Dimensional Ambush (firefight ploy, 1CP): during the activation of a friendly HIEROTEK
CIRCLE DEATHMARK operative with a Conceal order (between its actions, the
``during_activation`` window), it may perform the Guard action (9.3) on any killzone and
with its Conceal order for the rest of that activation (:class:`DimensionalGuard`, ``Act
<op> guard``); when it interrupts, its order changes to Engage (the core's
``would_interrupt_order`` hook), so it may then Shoot or Fight. Once per turning point."""


@attrs.frozen(slots=True)
class DimensionalGuard:
    """The Guard action (9.3, 1AP) as Dimensional Ambush allows it: performed by the
    DEATHMARK with the ploy's token this activation, on any killzone, with a Conceal (or
    Engage) order; not within control range of an enemy operative. Notation ``Act <op>
    guard``. Counts as the Guard action (``family``) for once per activation."""

    name: str = "Guard"
    text: str = "guard"
    ap: int = 1
    family: str = "Guard"

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        if not any(e.detail == DIMENSIONAL_AMBUSH for e in w.effects_on(o.id, "token")):
            return f"{o.id} may Guard this way only after Dimensional Ambush in its activation"
        if w.in_enemy_control_range(o):
            return "Guard cannot be performed within control range of an enemy (9.3)"
        if o.on_guard:
            return f"{o.id} is already on guard"
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> guard`` while allowed."""
        if mode != "activation" or self._why_not(w, o) is not None:
            return []
        return [Action("Act", op=o.id, text=self.text)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why it cannot be performed now, or ``None``."""
        return self._why_not(w, o)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """On guard (the core's On Guard interrupt then applies, 9.3)."""
        w.set_op(o.id, on_guard=True)
        w.effects.append(Effect(DA_GUARD, o.id, "end_tp", source=o.id))
        w.emit("guard", op=o.id)

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: 0.15 operatives when a ready enemy operative is visible to it (an
        interrupting shot later), else 0.02."""
        here = w.place(o)
        seen = any(e.ready and w.ctx.visible(w.kz, here, w.place(e)) for e in w.enemies_of(o.id))
        return 0.15 if seen else 0.02


def install_dimensional_ambush(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Dimensional Ambush's Guard action and order change (ploy docstring)."""

    def engage(w: Work, order: str, **info: Any) -> str:
        op = str(info.get("op", ""))
        if op and w.ctx.owner[op] in players and op_effect(w, op, DA_GUARD) is not None:
            return "engage"
        return order

    def unguarded(w: Work, ev: Event) -> None:
        if op_effect(w, ev["op"], DA_GUARD) is not None:
            drop_effects(w, DA_GUARD, ev["op"])

    hooks.action(DimensionalGuard(), players)
    hooks.transform("would_interrupt_order", engage)
    hooks.on("guard_ended", unguarded)
    hooks.on("interrupt", unguarded)


PLOYS: tuple[tuple[Any, Any, str], ...] = (
    (
        COMMAND_UNDERLINGS_PLOY,
        None,
        'Friendly Hierotek operatives near a cryptek (6") or apprentek (3") each take a free '
        "Dash, in an order of the player's choice.",
    ),
    (
        METHODICAL_PLOY,
        install_methodical,
        "Hierotek melee weapons have Accurate 1; Accurate 2 retaliating or fighting without "
        "having moved more than Move this activation.",
    ),
    (
        RELENTLESS_PLOY,
        install_relentless,
        'Hierotek operatives shooting a target within 8" of them have Balanced.',
    ),
    (
        UNDYING_PLOY,
        install_undying,
        "Shot without any cover save to retain, a Hierotek operative may retain one defence "
        "die as a normal success unrolled.",
    ),
    (
        LIVING_LIGHTNING_PLOY,
        install_living_lightning,
        "An Immortal's tesla carbine shot has Blast 2\" and plain Devastating 1 for that action.",
    ),
    (
        REANIMATED_FUNCTION_PLOY,
        install_reanimated_function,
        "A chosen Reanimation marker counts as a friendly APL 1 operative for marker control "
        "until the next turning point.",
    ),
    (
        DIMENSIONAL_AMBUSH_PLOY,
        install_dimensional_ambush,
        "A concealed Deathmark may Guard on any killzone this activation; it turns to Engage "
        "when it interrupts.",
    ),
    (
        CORTICAL_PLOY,
        install_cortical,
        "A cryptek's or apprentek's next SUPPORT action selects friendly operatives at any "
        "distance (visibility still needed).",
    ),
)

for _ploy, _extra, _summary in PLOYS:
    register(_ploy.rule_id, ploy_installer(_ploy, _extra), _summary)
