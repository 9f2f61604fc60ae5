"""The Hierotek Circle's firefight ploys (``rules/KT24.md`` 7.1; registered by rule id in
``engine.rules.registry``): Living Lightning, Cortical Control, Reanimated Function,
Dimensional Ambush. Each ploy's advice for the heuristic agent is a rule of thumb stated in
its docstring."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.dice.rules import (
    Blast,
    Devastating,
    WeaponRule,
    WeaponRules,
)
from engine.game import universal
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.ploys import GainToken, Ploy, ploy_installer
from engine.rules.registry import register
from teams.hierotek_circle.common import (
    drop_effects,
    has_kw,
    in_own_activation,
    op_effect,
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
    rule_id="hierotek_circle/firefight_ploy/living_lightning",
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
    rule_id="hierotek_circle/firefight_ploy/cortical_control",
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
    rule_id: str = "hierotek_circle/firefight_ploy/reanimated_function"
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
    return w.op(op).order == "conceal" and in_own_activation(w, op)


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
    rule_id="hierotek_circle/firefight_ploy/dimensional_ambush",
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


# @@FIRE@@
register(
    "hierotek_circle/firefight_ploy/living_lightning",
    ploy_installer(LIVING_LIGHTNING_PLOY, install_living_lightning),
    "An Immortal's tesla carbine shot has Blast 2\" and plain Devastating 1 for that action.",
)
register(
    "hierotek_circle/firefight_ploy/reanimated_function",
    ploy_installer(REANIMATED_FUNCTION_PLOY, install_reanimated_function),
    "A chosen Reanimation marker counts as a friendly APL 1 operative for marker control "
    "until the next turning point.",
)
register(
    "hierotek_circle/firefight_ploy/dimensional_ambush",
    ploy_installer(DIMENSIONAL_AMBUSH_PLOY, install_dimensional_ambush),
    "A concealed Deathmark may Guard on any killzone this activation; it turns to Engage "
    "when it interrupts.",
)
register(
    "hierotek_circle/firefight_ploy/cortical_control",
    ploy_installer(CORTICAL_PLOY, install_cortical),
    "A cryptek's or apprentek's next SUPPORT action selects friendly operatives at any "
    "distance (visibility still needed).",
)
