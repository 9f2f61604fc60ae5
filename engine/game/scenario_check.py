"""Playing the steps of a scenario file and checking its expectations (the format and the
rules of a run: :mod:`engine.game.scenario_file`): :func:`play_step`, :func:`check`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from engine.errors import KillTeamError
from engine.game.actions import Action, IllegalActionError, format_action, parse_action
from engine.game.allocation import least_damage_choice
from engine.game.events import Event
from engine.game.fight import FightFrame
from engine.game.markers import controller
from engine.game.observation import observe
from engine.game.scenario_fields import (
    POSITION_TOLERANCE,
    ExpectationError,
    ScenarioScriptError,
    Step,
)
from engine.game.setup import start_battle
from engine.game.shoot import ShootFrame
from engine.game.state import Chance, Decision, Effect, GameState, Terminal
from engine.game.work import Work
from engine.inputs import shown

__all__ = ["ATTACK_CHOICE_KINDS", "ChoicePolicy", "Chooser", "check", "play_step"]

Chooser = Callable[[GameState], Action]
"""``chooser(state) -> action``: the best answer at an attack choice (a decision node of one
of :data:`ATTACK_CHOICE_KINDS`), by the dice core's values
(:func:`engine.agents.scenario_choices.best_choice`)."""

ATTACK_CHOICE_KINDS = frozenset(
    {
        "reroll",
        "dice_ploy",
        "same_feature",
        "accurate",
        "retention_rule",
        "cover_save",
        "team_rule",
        "allocate_saves",
    }
)
"""The decision kinds a ``choices`` policy answers (:mod:`engine.game.attacks`: re-rolls,
ploys on dice, cover or obscured from one feature, Accurate, Punishing/Rending/Severe, the
cover save, a rule's "use it?", the defender's allocation of saves), and ploy windows
(``ploy``) while an attack is under way."""

_DECLINES = tuple(
    parse_action(t) for t in ("Keep", "Decline", "Pass", "Accurate 0", "Cover save none")
)
"""What declining is at each attack choice (the first legal one is taken)."""


@attrs.frozen(slots=True)
class ChoicePolicy:
    """How a run answers the attack choices its script does not name
    (:mod:`engine.game.scenario_file`, ``choices``).

    Attributes:
        kind: ``"ask"`` (the script names every decision), ``"best"`` (``chooser``'s
            answer) or ``"decline"`` (keep the dice, decline the rule or ploy, Accurate 0,
            no cover save, the least-damage allocation of saves, listed first: what the
            engine does when the allocation cannot change the outcome; a choice with no way
            to decline is left to the script).
        chooser: the best answer (:data:`Chooser`), for ``"best"``.
    """

    kind: str = "ask"
    chooser: Chooser | None = None

    def applies(self, state: GameState) -> bool:
        """Whether the node of ``state`` is an attack choice this policy answers."""
        node = state.node
        if self.kind == "ask" or not isinstance(node, Decision):
            return False
        if node.kind in ATTACK_CHOICE_KINDS:
            return True
        return node.kind == "ploy" and any(
            isinstance(f, ShootFrame | FightFrame) for f in state.stack
        )

    def answer(self, state: GameState) -> Action | None:
        """The policy's answer at an attack choice (``None``: the script must answer)."""
        if self.kind == "best" and self.chooser is not None:
            return self.chooser(state)
        if self.kind == "decline":
            legal = state.legal_actions()
            node = state.node
            if isinstance(node, Decision) and node.kind == "allocate_saves":
                return least_damage_choice(state)
            return next((a for a in _DECLINES if a in legal), None)
        return None


def _request_text(state: GameState) -> str:
    node = state.node
    assert isinstance(node, Chance)
    r = node.request
    return f"{r.dice} dice for player {r.player} ({r.label or r.kind})"


def play_step(
    state: GameState, step: Step, where: str, policy: ChoicePolicy | None = None
) -> tuple[GameState, list[Event]]:
    """Play one step of a script from ``state`` (the rules: :mod:`engine.game.scenario_file`,
    "Running"); ``where`` names the file and the step in errors; ``policy`` answers the
    attack choices the step's script does not name (default: none, the script names all).

    Returns:
        The state reached and the events of the step.

    Raises:
        ScenarioScriptError: an action rejected, a roll missing, of the wrong size or left
            over, the battle over before an action.
    """
    events: list[Event] = []
    dice = list(step.dice)
    used = 0
    k = 0
    policy = policy or ChoicePolicy()
    empty = not step.actions and not step.dice

    def policy_answer(state: GameState) -> Action | None:
        """The policy's answer here, when the script does not name this choice (its next
        action is not legal here)."""
        if empty or not policy.applies(state):
            return None
        if k < len(step.actions) and state.is_legal(step.actions[k]):
            return None
        return policy.answer(state)

    def roll(state: GameState, before: str) -> tuple[GameState, list[Event]]:
        nonlocal used
        if used >= len(dice):
            raise ScenarioScriptError(
                f"{where}: {before}the engine asks for a roll of {_request_text(state)} but "
                f"the step has no roll left ({len(dice)} scripted)"
            )
        a = dice[used]
        try:
            out = state.apply(a)
        except KillTeamError as exc:
            raise ScenarioScriptError(
                f"{where}: scripted roll {used + 1} ({format_action(a)}): {exc}"
            ) from None
        used += 1
        return out

    while True:
        if isinstance(state.node, Chance):
            if k >= len(step.actions) and used >= len(dice):
                break
            before = f"before action {k + 1} ({step.actions[k]}): " if k < len(step.actions) else ""
            state, ev = roll(state, before)
            events += ev
            continue
        auto = policy_answer(state)
        if auto is not None:
            try:
                state, ev = state.apply(auto)
            except KillTeamError as exc:
                raise ScenarioScriptError(
                    f"{where}: the {policy.kind!r} choice {format_action(auto)} was rejected: {exc}"
                ) from None
            events += ev
            continue
        if k >= len(step.actions):
            break
        a = step.actions[k]
        if state.is_terminal:
            raise ScenarioScriptError(f"{where}: the battle ended before action {k + 1} ({a})")
        try:
            state, ev = state.apply(a)
        except KillTeamError as exc:
            raise ScenarioScriptError(
                f"{where}: action {k + 1} ({a}) rejected: {type(exc).__name__}: {exc}"
            ) from None
        events += ev
        k += 1
    if used < len(dice):
        raise ScenarioScriptError(
            f"{where}: {len(dice) - used} scripted roll(s) not used (first unused: "
            f"{format_action(dice[used])}); the engine is at {_node_text(state)}"
        )
    return state, events


def _node_text(state: GameState) -> str:
    node = state.node
    if isinstance(node, Decision):
        return f"decision {node.player} {node.kind}"
    if isinstance(node, Chance):
        return f"chance {node.request.kind}"
    assert isinstance(node, Terminal)
    return "terminal"


def _norm(v: Any) -> Any:
    if isinstance(v, tuple | list):
        return [_norm(x) for x in v]
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def _matches(event: Event, spec: Mapping[str, Any]) -> bool:
    if event.kind != spec["kind"]:
        return False
    data = dict(event.data)
    for k, v in spec.items():
        if k in ("kind", "count"):
            continue
        if k not in data or _norm(data[k]) != _norm(v):
            return False
    return True


def _effect_matches(effect: Effect, spec: Mapping[str, Any]) -> bool:
    return all(k in ("count",) or _norm(getattr(effect, k)) == _norm(v) for k, v in spec.items())


def _effects_text(effects: Sequence[Effect], kind: str) -> str:
    same = [e for e in effects if e.kind == kind]
    if not same:
        kinds = sorted({e.kind for e in effects})
        return f"no {kind} effect at all (kinds active: {', '.join(kinds) or 'none'})"
    return "; ".join(
        f"{{op={e.op!r}, player={e.player!r}, value={e.value}, detail={e.detail!r}, "
        f"until={e.until!r}, source={e.source!r}}}"
        for e in same[:8]
    )


def _spec_text(spec: Mapping[str, Any]) -> str:
    inner = ", ".join(f"{k} = {shown(v)}" for k, v in spec.items() if k != "kind")
    return f"{spec['kind']}" + (f" {{{inner}}}" if inner else "")


def _events_text(events: Sequence[Event], kind: str) -> str:
    same = [e for e in events if e.kind == kind]
    if not same:
        kinds = sorted({e.kind for e in events})
        return f"no {kind} event at all (kinds seen: {', '.join(kinds) or 'none'})"
    return "; ".join(str(dict(e.data)) for e in same[:8])


def check(state: GameState, expect: Mapping[str, Any], events: Sequence[Event], where: str) -> None:
    """Check the expectations ``expect`` (a validated table, :mod:`engine.game.scenario_file`)
    against ``state`` and the ``events`` that led there; ``where`` names the file and step.

    Raises:
        ExpectationError: naming every expectation that differs.
    """
    problems: list[str] = []
    for k, idx in (("cp", "cp"), ("vp", "vp"), ("kill_grade", "kill_grade")):
        if k in expect:
            pair = (getattr(state.players[0], idx), getattr(state.players[1], idx))
            if tuple(expect[k]) != pair:
                problems.append(
                    f"{k}: expected A {expect[k][0]}, B {expect[k][1]}; got A {pair[0]}, "
                    f"B {pair[1]}"
                )
    for op, want_vp in expect.get("vp_by_op", {}).items():
        got_vp = (state.mission.op_vp(op, "A"), state.mission.op_vp(op, "B"))
        if tuple(want_vp) != got_vp:
            problems.append(
                f"vp_by_op.{op}: expected A {want_vp[0]}, B {want_vp[1]}; got A {got_vp[0]}, "
                f"B {got_vp[1]}"
            )
    if "tokens" in expect:
        names = [t.name for t in state.tokens]
        if sorted(names) != sorted(expect["tokens"]):
            problems.append(
                f"tokens: expected {sorted(expect['tokens'])}, on the killzone {sorted(names)}"
            )
    if "node" in expect:
        got_node = _node_text(state)
        want = " ".join(expect["node"].split())
        if got_node != want and not got_node.startswith(want + " "):
            problems.append(f"node: expected {want!r}, the engine is at {got_node!r}")
    for op_id, checks in expect.get("operatives", {}).items():
        try:
            o = state.operative(op_id)
        except KeyError:
            problems.append(f"operatives.{op_id}: no such operative ({', '.join(state.ctx.ids)})")
            continue
        for key, want in checks.items():
            if key == "at":
                got_pt = (o.x, o.y, o.elevation)
                wx, wy = want[0], want[1]
                wz = want[2] if len(want) == 3 else 0.0
                if not o.placed or not all(
                    math.isclose(a, b, abs_tol=POSITION_TOLERANCE)
                    for a, b in zip(got_pt, (wx, wy, wz), strict=True)
                ):
                    found = f"({o.x:g}, {o.y:g}, {o.elevation:g})" if o.placed else "not placed"
                    problems.append(
                        f"operatives.{op_id}.at: expected ({wx:g}, {wy:g}, {wz:g}), got {found}"
                    )
                continue
            got: Any = o.alive if key == "on_killzone" else getattr(o, key)
            if got != want:
                problems.append(f"operatives.{op_id}.{key}: expected {want!r}, got {got!r}")
    for text, a in expect.get("legal", []):
        if isinstance(state.node, Chance | Terminal):
            problems.append(f"legal: {text!r}: the engine is at {_node_text(state)}")
            continue
        try:
            state.apply(a)
        except KillTeamError as exc:
            problems.append(f"legal: {text!r} was rejected: {exc}")
    for text, a, reason in expect.get("illegal", []):
        try:
            state.apply(a)
        except IllegalActionError as exc:
            if reason not in str(exc):
                problems.append(
                    f"illegal: {text!r} was rejected, but the message does not contain "
                    f"{reason!r}: {exc}"
                )
        except KillTeamError as exc:
            problems.append(
                f"illegal: {text!r} raised {type(exc).__name__} (not an illegal action): {exc}"
            )
        else:
            problems.append(f"illegal: {text!r} was accepted (expected it to be illegal)")
    if "options" in expect:
        listed = [format_action(a) for a in state.legal_actions()]
        wanted = [format_action(a) for _, a in expect["options"]]
        if sorted(listed) != sorted(wanted):
            missing = [t for t in wanted if t not in listed]
            extra = [t for t in listed if t not in wanted]
            problems.append(
                f"options: expected exactly {wanted}; missing {missing}, unexpected {extra}"
            )
    for spec in expect.get("events", []):
        n = sum(1 for e in events if _matches(e, spec))
        if "count" in spec and n != spec["count"]:
            problems.append(
                f"events: expected {spec['count']} x {_spec_text(spec)}, found {n} "
                f"({_events_text(events, spec['kind'])})"
            )
        elif "count" not in spec and n == 0:
            problems.append(
                f"events: expected {_spec_text(spec)}, found none "
                f"({_events_text(events, spec['kind'])})"
            )
    for spec in expect.get("no_events", []):
        hits = [e for e in events if _matches(e, spec)]
        if hits:
            problems.append(f"no_events: {_spec_text(spec)} occurred: {dict(hits[0].data)}")
    for spec in expect.get("effects", []):
        n = sum(1 for e in state.effects if _effect_matches(e, spec))
        if ("count" in spec and n != spec["count"]) or ("count" not in spec and n == 0):
            want = f"{spec['count']} x " if "count" in spec else ""
            problems.append(
                f"effects: expected {want}{_spec_text(spec)}, found {n} "
                f"({_effects_text(state.effects, spec['kind'])})"
            )
    for spec in expect.get("no_effects", []):
        hit = next((e for e in state.effects if _effect_matches(e, spec)), None)
        if hit is not None:
            problems.append(f"no_effects: {_spec_text(spec)} is active: {hit}")
    problems += _state_problems(state, expect)
    if problems:
        raise ExpectationError(f"{where}: " + "; ".join(problems))


def _state_problems(state: GameState, expect: Mapping[str, Any]) -> list[str]:
    """What differs from the expectations about the position's state (``tp``, ``phase``,
    ``initiative``, ``control``, ``sees``, ``rejected_option``;
    :mod:`engine.game.scenario_tables`)."""
    problems: list[str] = []
    for k in ("tp", "phase", "initiative"):
        if k in expect and getattr(state, k) != expect[k]:
            problems.append(f"{k}: expected {expect[k]!r}, got {getattr(state, k)!r}")
    if "control" in expect:
        w = Work(state)
        names = [m.name for m in state.markers]
        for name, want in expect["control"].items():
            if name not in names:
                problems.append(
                    f"control.{name}: no such marker (markers: {', '.join(names) or 'none'})"
                )
                continue
            got = controller(w, name)
            if got != want:
                problems.append(
                    f"control.{name}: expected {want or 'nobody'!r}, controlled by "
                    f"{got or 'nobody'!r}"
                )
    for viewer, seen in expect.get("sees", {}).items():
        view = observe(state, viewer)
        m = view.mission
        got_seen: dict[str, Any] = {
            "tac_ops": list(m.tac_ops),
            "primary_ops": list(m.primary_ops),
            "tac_revealed": list(m.tac_revealed),
            "crit_op": m.crit_op,
            "hidden": sorted(view.hidden),
            "facts": sorted(k for k, _ in m.facts),
        }
        for key, want in seen.items():
            wanted = sorted(want) if key in ("hidden", "facts") else want
            if got_seen[key] != wanted:
                problems.append(
                    f"sees.{viewer}.{key}: expected {wanted!r}, {viewer} sees {got_seen[key]!r}"
                )
    for opts, reason in expect.get("rejected_option", []):
        ctx = state.ctx
        try:
            options = attrs.evolve(ctx.options, **opts)
            start_battle(
                ctx.killzone, ctx.rosters["A"], ctx.rosters["B"], options, ctx.rules.ruleset
            )
        except KillTeamError as exc:
            if reason not in str(exc):
                problems.append(
                    f"rejected_option {opts!r}: refused, but the message does not contain "
                    f"{reason!r}: {exc}"
                )
        else:
            problems.append(f"rejected_option {opts!r}: accepted (expected it to be refused)")
    return problems
