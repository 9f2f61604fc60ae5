"""``can OPERATIVE ACTION...``: can the operative perform the action now, and if not, every
rule that forbids it (``rules/KT24.md`` 1.5, 1.6, 3.1, 3.2, 9.3 and the rules whose hooks
refuse actions).

The verdict is the game's own: the action applied to the state
(:meth:`engine.game.state.GameState.apply`, on a copy: the state does not change). The reasons
are every failed condition of the universal action's precheck
(:func:`engine.game.bookkeeping.precheck_reasons`, the same conditions the game checks, which
stops at the first) or of a rule action's bookkeeping
(:func:`~engine.game.bookkeeping.rule_precheck_reasons`) and its own check; for a Shoot or a
Fight with its weapon and target, every check of its declaration that fails, one by one in
the game's order (:func:`shoot_reasons`: order and Silent, the weapon, control range, the
target's sight, engaged and Range checks of :mod:`engine.game.shoot_targets`, the rules that
allow or refuse a target; :func:`fight_reasons`); then the refusal ``apply`` gives when it
is not among them (a destination, a rule's own refusal).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from engine.explain.common import find_op
from engine.explain.hooks import Change, hook_names, trace_would
from engine.explain.ruling import QueryError, Ruling, Step, source_of_module
from engine.game.actions import (
    Action,
    AmbiguousActionError,
    IllegalActionError,
    InvalidActionError,
    format_action,
    parse_action,
)
from engine.game.bookkeeping import (
    ACTION_COST,
    enemy_operative,
    precheck_reasons,
    rule_precheck_reasons,
)
from engine.game.rule_actions import find_rule_action
from engine.game.shoot_targets import (
    engaged_reason,
    fixed_target,
    own_target_reason,
    point_blank_shot,
    range_reason,
    seek_kind,
    shoot_target_reason,
    sight_reason,
)
from engine.game.state import Chance, Decision, GameState, OperativeState, Terminal
from engine.game.weapons import find_weapon, shoots_in_control_range, silent, weapon_usable
from engine.game.work import Work

__all__ = [
    "KT24_SECTIONS",
    "Reasons",
    "explain_can",
    "fight_reasons",
    "rule_section",
    "shoot_reasons",
]

_SECTION = re.compile(r"\(([^()]*\d[^()]*)\)\s*$")


def rule_section(reason: str) -> str:
    """The rule section a refusal names in its closing brackets (``"(1.5, 3.2)"`` ->
    ``"1.5, 3.2"``), or ``""``."""
    m = _SECTION.search(reason)
    return m.group(1) if m else ""


def _action(op: str, words: tuple[str, ...]) -> Action:
    """The action ``words`` name for ``op``: read as given when the operative's id follows
    the verb (one or two words: ``Fall Back``), else with the id put after the verb."""
    rest = list(words)
    tries = [rest] if op in (w.upper() for w in rest[1:3]) else []
    tries += [[*rest[:k], op, *rest[k:]] for k in (1, 2) if k <= len(rest)]
    first: InvalidActionError | None = None
    for words_ in tries:
        try:
            a = parse_action(" ".join(words_))
        except InvalidActionError as exc:
            first = first or exc
            continue
        if a.op and a.op != op:
            raise QueryError(f"action {' '.join(words)!r} is not {op}'s")
        return a
    raise QueryError(f"action {' '.join(words)!r} is not an action: {first}") from None


def _activity(w: Work, op: str) -> Any:
    """The activation frame of ``op`` on top of the stack (waiting for its action), or
    ``None``."""
    if not w.stack:
        return None
    top = w.stack[-1]
    if getattr(top, "op", None) == op and isinstance(getattr(top, "mode", None), str):
        return top
    return None


Reasons = Callable[[Work, OperativeState, Action, str], list[tuple[str, str, str]]]
"""``reasons(w, operative, action, mode)``: every check of an attack's declaration that
refuses ``action``, as ``(reason, source, hook)`` (:func:`shoot_reasons`)."""

KT24_SECTIONS = {"over": "1.8", "acting": "1.5, 1.6", "legal": "3.2"}
"""The sections of the steps :func:`explain_can` names itself (``rules/KT24.md``)."""


def explain_can(
    state: GameState,
    w: Work,
    words: tuple[str, ...],
    text: str,
    *,
    attack_reasons: Mapping[str, Reasons] | None = None,
    sections: Mapping[str, str] = KT24_SECTIONS,
) -> Ruling:
    """The ruling of ``can OPERATIVE ACTION...`` (module docstring).

    ``attack_reasons`` maps an attack verb to its declaration's checks (default: KT24's
    ``Shoot`` :func:`shoot_reasons` and ``Fight`` :func:`fight_reasons`); ``sections`` the
    rule sections of the steps this function names (:data:`KT24_SECTIONS`): a ruleset's
    explain passes its own (:mod:`engine.explain.kt21_can`).

    Raises:
        QueryError: an unknown or absent operative, an action that cannot be read."""
    o = find_op(w, words[0])
    a = _action(o.id, words[1:])
    notation = format_action(a)
    steps: list[Step] = []
    reasons: list[tuple[str, str, str]] = []  # (reason, source, by)
    node = state.node
    if isinstance(node, Terminal):
        steps.append(
            Step("battle", "over", "the battle is over: no more actions", sections["over"])
        )
    elif isinstance(node, Chance):
        steps.append(
            Step("node", "dice", f"dice are rolled now ({node.request.label}), not an action")
        )
    elif isinstance(node, Decision):
        steps.append(
            Step(
                "decision now",
                f"{node.player} {node.kind}",
                f"now player {node.player} decides ({node.kind})",
            )
        )
    frame = _activity(w, o.id)
    mode = str(frame.mode) if frame is not None else ""
    if frame is not None:
        steps.append(
            Step(
                "acting", mode, f"{o.id} is acting ({mode}) with {o.ap}AP left", sections["acting"]
            )
        )
        refusal: Any = ""
        changes: list[Change] = []
        if a.verb == "Act":
            act = find_rule_action(w, o, a.text)
            if act is None:
                reasons.append((f"{o.id} has no action called {a.text!r} (3.1)", "core", ""))
            else:
                refusal, changes = trace_would(
                    w, "would_refuse_action", None, op=o.id, action=act.text, rule_action=act
                )
                for why in rule_precheck_reasons(w, o, act, mode):
                    reasons.append((why, *_by(why, refusal, changes)))
                if not reasons:
                    own = act.check(w, o, a, mode)
                    if own:
                        reasons.append((own, _src(act), type(act).__module__))
        elif a.verb in ACTION_COST:
            refusal, changes = trace_would(w, "would_refuse_action", None, op=o.id, action=a.verb)
            for why in precheck_reasons(w, o, a.verb, mode):
                reasons.append((why, *_by(why, refusal, changes)))
            checks = attack_reasons if attack_reasons is not None else _KT24_ATTACKS
            if a.verb in checks and a.weapon and a.target:
                reasons += checks[a.verb](w, o, a, mode)
    try:
        state.apply(a)
        legal, final = True, ""
    except (IllegalActionError, InvalidActionError, AmbiguousActionError, ValueError) as exc:
        legal, final = False, str(exc)
    if not legal and final and all(final != r for r, _, _ in reasons):
        reasons.append((final, "core", ""))
    for why, source, by in reasons:
        steps.append(Step("forbidden", "yes", why, rule_section(why), source, by))
    if legal:
        steps.append(Step("legal", "yes", f"{notation} is legal now", sections["legal"]))
    answer = (
        f"{o.id} can perform {notation} now"
        if legal
        else f"{o.id} cannot perform {notation} now: " + "; ".join(r for r, _, _ in reasons)
    )
    return Ruling(
        query=text,
        kind="can",
        answer=answer,
        verdict=legal,
        steps=tuple(steps),
        data={
            "operative": o.id,
            "action": notation,
            "legal": legal,
            "mode": mode,
            "reasons": [
                {"reason": r, "rule": rule_section(r), "source": s, "by": b} for r, s, b in reasons
            ],
        },
    )


def _by(why: str, refusal: Any, changes: list[Any]) -> tuple[str, str]:
    """The source and hook of a precheck reason: a rule's refusal if it is that rule's
    (the ``would_refuse_action`` hook that gave it), else the core."""
    if refusal and why == refusal and changes:
        return changes[-1].source, changes[-1].by
    return "core", ""


def _src(act: Any) -> str:
    if getattr(act, "mission", False):
        return "mission"
    return source_of_module(type(act).__module__)


def _weapon(w: Work, o: OperativeState, name: str, kind: str) -> tuple[str, Any] | None:
    try:
        found, _, prof = find_weapon(w, o, name, kind)
    except (IllegalActionError, AmbiguousActionError):
        return None  # (apply's own refusal names it)
    return found, prof


def _enemy(w: Work, o: OperativeState, target: str) -> OperativeState | None:
    try:
        return enemy_operative(w, target, o.player)
    except IllegalActionError:
        return None  # (apply's own refusal names it)


def shoot_reasons(w: Work, o: OperativeState, a: Action, mode: str) -> list[tuple[str, str, str]]:
    """Every check of the Shoot action's declaration
    (:func:`engine.game.shoot.start_shoot`, 5.1 steps 1-2) that refuses ``a``, in its order,
    all of them (the game stops at the first): the order and Silent (1.5, 6), the weapon's
    usability (6), within an enemy's control range (3.2), a fixed primary target, and the
    target's checks one by one (:mod:`engine.game.shoot_targets`: visible and not a Conceal
    operative in cover, a friendly operative within its control range, the Range; 4.5, 6),
    then the rules that allow a target the checks refuse or refuse one they allow (the
    ``would_allow_target`` / ``would_refuse_target`` hooks, named).

    Returns:
        ``(reason, source, hook)`` per failed check (``hook`` empty for the core's)."""
    got = _weapon(w, o, a.weapon, "ranged")
    if got is None:
        return []
    name, prof = got
    out: list[tuple[str, str, str]] = []
    if o.order != "engage" and not silent(prof):
        out.append(
            (
                f"{o.id} has a Conceal order: it can only Shoot with Silent weapons (1.5, 6)",
                "core",
                "",
            )
        )
    why = weapon_usable(w, o, name, prof)
    if why:
        out.append((why, "weapon rule", ""))
    if (
        mode != "interrupt"
        and w.in_enemy_control_range(o)
        and not shoots_in_control_range(w, o, prof)
    ):
        out.append(
            (
                f"{name} cannot be used within control range of an enemy operative (3.2)",
                "core",
                "",
            )
        )
    fixed = fixed_target(w, o, name, prof)
    if fixed is not None:
        if a.target != fixed:
            out.append(
                (
                    f"{name}: its primary target is always {fixed} (a team weapon rule)",
                    "team rule",
                    "",
                )
            )
        return out
    t = _enemy(w, o, a.target)
    if t is None:
        return out
    pb = point_blank_shot(w, o, mode)
    if pb:
        own = [own_target_reason(w, o, t, name, prof, pb)]
    else:
        seek = seek_kind(prof.rules)
        own = [
            sight_reason(w, o, t, seek),
            engaged_reason(w, o, t),
            range_reason(w, o, t, name, prof),
        ]
    failed = [r for r in own if r]
    final = shoot_target_reason(w, o, t, name, prof, pb)
    if failed and final is None:
        return out  # a rule allows this target: the step list of ``target`` names it
    out += [(r, "weapon rule" if r.endswith("(6)") else "core", "") for r in failed]
    if final is not None and final not in failed:
        hooked = hook_names(w, "would_refuse_target" if not failed else "would_allow_target")
        out.append((final, hooked[0][1] if hooked else "rule", ", ".join(n for n, _ in hooked)))
    return out


def fight_reasons(
    w: Work, o: OperativeState, a: Action, mode: str = ""
) -> list[tuple[str, str, str]]:
    """Every check of the Fight action's declaration (:func:`engine.game.fight.start_fight`,
    5.2 step 1) that refuses ``a``, all of them: the weapon's usability (6) and the target
    within control range (5.2).

    Returns:
        ``(reason, source, hook)`` per failed check (``mode``: unused, for the
        :data:`Reasons` shape)."""
    del mode
    got = _weapon(w, o, a.weapon, "melee")
    if got is None:
        return []
    name, prof = got
    out: list[tuple[str, str, str]] = []
    why = weapon_usable(w, o, name, prof)
    if why:
        out.append((why, "weapon rule", ""))
    t = _enemy(w, o, a.target)
    if t is not None and not w.control_range(o, t):
        out.append(
            (f"{t.id} is not within {o.id}'s control range: Fight needs one (5.2)", "core", "")
        )
    return out


_KT24_ATTACKS: Mapping[str, Reasons] = {"Shoot": shoot_reasons, "Fight": fight_reasons}
