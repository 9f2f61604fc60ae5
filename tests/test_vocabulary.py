"""One vocabulary for every rule (issue 28, item 1): every event kind, *would* hook, ploy
trigger, decision kind and chance kind is declared once in :mod:`engine.game.vocabulary` with
its contract, and an undeclared name is an error, never a hook that silently never fires.

The runtime checks catch a wrong name when it is registered or fired; the source scan here
catches it before any battle runs, in code no test reaches: it reads every call shape that
names a vocabulary word in ``engine/`` and ``teams/`` (``w.emit("...")``, ``hooks.on("...")``,
``w.would("...")``, ``"..." in hooks.would``, ``w.decide(p, "...")``, ``open_window(w, "...")``
and the others below) and checks each name against the catalogue, and each declared name
against the code that uses it.
"""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from engine.game.context import Hooks
from engine.game.events import _TEMPLATES, Event, add_template
from engine.game.ploys import TRIGGERS
from engine.game.vocabulary import (
    CHANCE_KINDS,
    DECISION_KINDS,
    EVENT_KINDS,
    PLOY_TRIGGERS,
    WOULD_HOOKS,
    ChanceKind,
    DecisionKind,
    EventKind,
    PloyTrigger,
    UndeclaredNameError,
    Would,
)
from engine.game.work import Work
from engine.geometry import load_killzone
from engine.rules.medic import Medic
from engine.rulesets import new_game
from engine.teams import load_builtin_team

ROOT = Path(__file__).resolve().parent.parent
VOCABULARIES = {
    "event": EVENT_KINDS,
    "would": WOULD_HOOKS,
    "trigger": PLOY_TRIGGERS,
    "decision": DECISION_KINDS,
    "chance": CHANCE_KINDS,
}

# Call shapes: method or function name -> (vocabulary, index of the name among the positional
# arguments, least number of positional arguments for the call to be one of ours).
CALLS: dict[str, tuple[str, int, int]] = {
    "emit": ("event", 0, 1),
    "on": ("event", 0, 2),
    "add_template": ("event", 0, 2),
    "would": ("would", 0, 2),
    "transform": ("would", 0, 2),
    "has_would": ("would", 0, 1),
    "has_did": ("event", 0, 1),
    "decide": ("decision", 1, 2),
    "Decision": ("decision", 1, 2),
    "roll": ("chance", 0, 3),
    "defer_window": ("trigger", 0, 1),
    "open_window": ("trigger", 1, 2),
    "window_wanted": ("trigger", 1, 3),
    "ploy_options": ("trigger", 2, 4),
    "use_ploy": ("trigger", 2, 5),
}
# ``X.would.get("...")``, ``X.did.get("...")``, ``X.ploys.get("...")``, ``X.would["..."]``,
# ``"..." in X.would``: the hook set's mappings read by name.
MAPPINGS = {"would": "would", "did": "event", "ploys": "trigger"}

DYNAMIC: dict[tuple[str, str], frozenset[str]] = {
    # (call, argument as written) -> the names it can take: a name passed through a variable
    # the scan cannot follow. Each is checked against the catalogue here, and at run time.
    ("emit", "self.event"): frozenset({"medic_used", "pathfinders_medic_used"}),
    ("add_template", "self.event"): frozenset({"medic_used", "pathfinders_medic_used"}),
    (
        "decide",
        "'action' if self.mode == 'activation' else f'{self.mode}_action' if self.mode == "
        "'free' else self.mode",
    ): frozenset({"action", "free_action", "counteract", "interrupt"}),
    ("open_window", "trigger"): frozenset(),  # from w.deferred (defer_window checks it)
    ("ploy_options", "trigger"): frozenset({"attack_dice", "defence_dice"}),
    ("use_ploy", "trigger"): frozenset({"attack_dice", "defence_dice"}),
    ("ploy_options", "self.trigger"): frozenset(),  # a PloyWindowFrame's (open_window's)
    ("use_ploy", "self.trigger"): frozenset(),
    # The plumbing that passes a name it was given on (checked where it was named).
    ("get", "trigger"): frozenset(),
    ("window_wanted", "trigger"): frozenset(),
    ("Decision", "str.__str__(kind)"): frozenset(),
    # The KT18 choose-or-pass alternation of the Shooting and Fight phases (its callers').
    ("decide", "decision"): frozenset({"kt18_choose_shooter", "kt18_choose_fighter"}),
}
"""Arguments the scan cannot resolve to string constants, with the names they take. A new
one fails :func:`test_every_name_the_code_uses_is_declared` until it is listed here."""


@attrs.frozen
class Use:
    """One use of a vocabulary word in the source: ``kind`` (a key of :data:`VOCABULARIES`),
    the names it can take (``None``: the scan could not resolve the argument), where it is,
    and for ``emit``/``would`` calls the keywords passed."""

    kind: str
    call: str
    names: frozenset[str] | None
    where: str
    text: str
    keywords: frozenset[str] = frozenset()


def _strings(node: ast.AST, assigned: dict[str, list[ast.AST]]) -> frozenset[str] | None:
    """The string constants ``node`` can evaluate to (a constant, ``a if c else b`` of such,
    a local name assigned only such), or ``None``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return frozenset({node.value})
    if isinstance(node, ast.IfExp):
        a, b = _strings(node.body, assigned), _strings(node.orelse, assigned)
        return None if a is None or b is None else a | b
    if isinstance(node, ast.Name) and node.id in assigned:
        out: frozenset[str] = frozenset()
        for value in assigned[node.id]:
            got = _strings(value, {})
            if got is None:
                return None
            out |= got
        return out
    return None


def _callee(node: ast.Call) -> str:
    f = node.func
    if isinstance(f, ast.Attribute):
        return f.attr
    if isinstance(f, ast.Name):
        return f.id
    return ""


def _mapping(node: ast.AST) -> str | None:
    """The vocabulary of ``X.would``/``X.did``/``X.ploys`` when ``X`` is a hook set
    (``hooks``, ``w.ctx.hooks``...), else ``None``."""
    if isinstance(node, ast.Attribute) and node.attr in MAPPINGS:
        owner = node.value
        name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
        if name == "hooks":
            return MAPPINGS[node.attr]
    return None


def scan(source: str, where: str) -> Iterator[Use]:
    """Every use of a vocabulary word in ``source`` (module docstring)."""
    tree = ast.parse(source)
    scopes: list[ast.AST] = [tree] + [
        n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    seen: set[int] = set()
    for scope in scopes:
        assigned: dict[str, list[ast.AST]] = defaultdict(list)
        for n in ast.walk(scope):
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    if isinstance(t, ast.Name):
                        assigned[t.id].append(n.value)
        for n in ast.walk(scope):
            if id(n) in seen:
                continue
            at = f"{where}:{getattr(n, 'lineno', 0)}"
            if isinstance(n, ast.Call):
                call = _callee(n)
                if call in CALLS:
                    kind, i, least = CALLS[call]
                    if len(n.args) >= least and len(n.args) > i:
                        arg = n.args[i]
                        if isinstance(arg, (ast.List, ast.Tuple, ast.Dict)):
                            continue  # not one of ours (a geometry transform...)
                        seen.add(id(n))
                        keywords = frozenset(k.arg for k in n.keywords if k.arg)
                        text = ast.unparse(arg)
                        yield Use(kind, call, _strings(arg, assigned), at, text, keywords)
                elif call == "get" and isinstance(n.func, ast.Attribute) and n.args:
                    kind_ = _mapping(n.func.value)
                    if kind_ is not None:
                        seen.add(id(n))
                        arg = n.args[0]
                        names = _strings(arg, assigned)
                        yield Use(kind_, "get", names, at, ast.unparse(arg))
                for k in n.keywords:
                    if k.arg == "triggers" and isinstance(k.value, (ast.Tuple, ast.List)):
                        seen.add(id(n))
                        for e in k.value.elts:
                            names = _strings(e, assigned)
                            yield Use("trigger", "triggers=", names, at, ast.unparse(e))
            elif isinstance(n, ast.Subscript):
                kind_ = _mapping(n.value)
                if kind_ is not None:
                    seen.add(id(n))
                    names = _strings(n.slice, assigned)
                    yield Use(kind_, "[]", names, at, ast.unparse(n.slice))
            elif (
                isinstance(n, ast.Compare)
                and len(n.ops) == 1
                and isinstance(n.ops[0], (ast.In, ast.NotIn))
            ):
                kind_ = _mapping(n.comparators[0])
                if kind_ is not None:
                    seen.add(id(n))
                    names = _strings(n.left, assigned)
                    yield Use(kind_, "in", names, at, ast.unparse(n.left))


@functools.cache
def _uses() -> tuple[Use, ...]:
    """Every use in ``engine/`` and ``teams/`` (the vocabulary module itself aside)."""
    out: list[Use] = []
    for folder in ("engine", "teams"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel == "engine/game/vocabulary.py":
                continue
            out.extend(scan(path.read_text(encoding="utf-8"), rel))
    return tuple(out)


def _names(use: Use) -> frozenset[str]:
    if use.names is not None:
        return use.names
    return DYNAMIC.get((use.call, use.text), frozenset())


def _problems(uses: tuple[Use, ...]) -> list[str]:
    problems = []
    for use in uses:
        if use.names is None and (use.call, use.text) not in DYNAMIC:
            problems.append(
                f"{use.where}: {use.call}({use.text}) names a {use.kind} the scan cannot "
                "resolve: pass a declared name, or list the names it takes in DYNAMIC"
            )
            continue
        for name in sorted(_names(use) - VOCABULARIES[use.kind]):
            problems.append(f"{use.where}: {use.call} uses the undeclared {use.kind} {name!r}")
    return problems


def test_every_name_the_code_uses_is_declared() -> None:
    """Every event kind, hook, trigger, decision kind and chance kind named in engine/ and
    teams/ is declared: a typo or a new name without its contract fails here, before a
    battle reaches the code."""
    uses = _uses()
    assert len(uses) > 400  # the scan finds the call shapes (not silently nothing)
    assert _problems(uses) == []


def test_the_scan_finds_an_undeclared_name_in_each_call_shape() -> None:
    """The scan itself: adding ``w.emit("new_kind")`` (or any other shape) without declaring
    the name must fail the test above."""
    source = """
def f(w, hooks, p, fn):
    w.emit("new_kind", op="x")
    hooks.on("new_event", fn)
    w.would("would_new", 0, op="x")
    hooks.transform("would_new_too", fn)
    w.decide(p, "new_decision")
    w.roll("new_chance", p, 2)
    w.defer_window("new_trigger")
    open_window(w, "new_window")
    if "would_new_in" in w.ctx.hooks.would:
        pass
    hook = "would_new_name"
    w.would(hook, 0)
    Ploy(name="x", triggers=("new_ploy_trigger",))
    w.emit(some_variable)
"""
    problems = _problems(tuple(scan(source, "x.py")))
    for name in (
        "new_kind",
        "new_event",
        "would_new'",
        "would_new_too",
        "new_decision",
        "new_chance",
        "new_trigger",
        "new_window",
        "would_new_in",
        "would_new_name",
        "new_ploy_trigger",
        "emit(some_variable)",
    ):
        assert any(name in p for p in problems), name
    assert len(problems) == 12


def test_every_declared_name_is_used_somewhere() -> None:
    """No dead entries: each declared event kind is emitted, each *would* hook asked, each
    decision and chance kind made somewhere in engine/ or teams/ (a name left behind by a
    removed rule would mislead whoever reads the catalogue); each trigger is one the core
    opens windows at (``engine.game.ploys.TRIGGERS``)."""
    fired: dict[str, set[str]] = defaultdict(set)
    firing = {"emit": "event", "would": "would", "[]": "would", "decide": "decision"}
    for use in _uses():
        if firing.get(use.call) == use.kind or use.call in ("Decision", "roll"):
            fired[use.kind] |= _names(use)
    assert sorted(EVENT_KINDS - fired["event"]) == []
    assert sorted(WOULD_HOOKS - fired["would"]) == []
    assert sorted(DECISION_KINDS - fired["decision"]) == []
    assert sorted(CHANCE_KINDS - fired["chance"]) == []
    assert set(TRIGGERS) == PLOY_TRIGGERS


def test_every_member_has_a_contract() -> None:
    """Each member says what it carries, when and which rule: the contract is the only
    place a rule author learns what an event's data or a hook's value is."""
    for vocabulary in (EventKind, Would, PloyTrigger, DecisionKind, ChanceKind):
        for member in vocabulary:
            assert member.contract.strip(), member
            assert member.__doc__ == member.contract
            assert "Rules: " in member.contract, member
            assert type(member.value) is str and member == member.value


def test_contracts_name_every_keyword_passed() -> None:
    """An event's data keys and a *would* hook's keywords, as the code passes them, are all
    named in the contract (``Data:`` / ``Keywords:``): the contract stays true when a call
    site adds a key."""
    members = {**{m.value: m for m in EventKind}, **{m.value: m for m in Would}}
    for use in _uses():
        if use.call not in ("emit", "would") or not use.keywords:
            continue
        for name in _names(use):
            head = "Data: " if use.call == "emit" else "Keywords: "
            listed = members[name].contract.split(head, 1)[1].split(".", 1)[0]
            keys = {k.strip() for k in listed.split(",")}
            assert use.keywords <= keys, (use.where, name, sorted(use.keywords - keys))


def test_narration_templates_and_medic_events_are_declared() -> None:
    """Narration is keyed by event kind too (``add_template``), and a Medic! rule names its
    event in data: both are in the catalogue."""
    assert set(_TEMPLATES) <= EVENT_KINDS
    assert attrs.fields(Medic).event.default in EVENT_KINDS


# -- the runtime checks --------------------------------------------------------------------


def _noop(*_args: Any, **_kwargs: Any) -> Any:
    return None


def test_registering_an_undeclared_name_raises_naming_the_closest() -> None:
    """Hooks.on/transform/ploy and add_template refuse an undeclared name at once, and the
    message points at the declared name that was probably meant."""
    hooks = Hooks()
    with pytest.raises(UndeclaredNameError, match=r"'moevd'.*'moved'"):
        hooks.on("moevd", _noop)
    with pytest.raises(UndeclaredNameError, match=r"'would_change_mvoe'.*'would_change_move'"):
        hooks.transform("would_change_mvoe", _noop)
    with pytest.raises(UndeclaredNameError, match="ploy trigger 'atack_dice'"):
        hooks.ploy(attrs.make_class("P", {"triggers": attrs.field()})(("atack_dice",)), ("A",))
    with pytest.raises(UndeclaredNameError, match="event kind 'no_such_event'"):
        add_template("no_such_event", lambda e: "")
    assert hooks.did == {} and hooks.would == {} and hooks.ploys == {}


def test_a_declared_member_or_its_plain_name_registers_the_same_hook() -> None:
    """A StrEnum member and its plain name are the same key, and the tables keep plain
    strings (events and nodes keep plain names: records and hashes are unchanged)."""
    hooks = Hooks()
    hooks.on(EventKind.MOVED, _noop)
    hooks.on("moved", _noop)
    hooks.transform(Would.WOULD_CHANGE_APL, _noop)
    frozen = hooks.freeze()
    assert frozen.did["moved"] == (_noop, _noop)
    assert all(type(k) is str for k in (*frozen.did, *frozen.would))
    assert frozen.has_did(EventKind.MOVED) and frozen.has_would("would_change_apl")
    assert not frozen.has_would(Would.WOULD_CHANGE_MOVE)
    with pytest.raises(UndeclaredNameError):
        frozen.has_would("would_nothing")


@functools.cache
def _start() -> Any:
    kz = load_killzone("open_ruins")
    return new_game(
        kz, load_builtin_team("kasrkin").default(), load_builtin_team("kommandos").default()
    )


def test_firing_an_undeclared_name_raises() -> None:
    """emit, would, decide, roll and defer_window refuse an undeclared name: a typo at a
    call site fails at once instead of never reaching its hooks."""
    w = Work(_start())
    for fire in (
        lambda: w.emit("moevd", op="x"),
        lambda: w.would("would_chagne_apl", 0),
        lambda: w.decide("A", "activate_now"),
        lambda: w.roll("atack", "A", 2),
        lambda: w.defer_window("moevd"),
    ):
        with pytest.raises(UndeclaredNameError):
            fire()
    assert w.events == [] and w.deferred == [] and w.node is None


def test_firing_keeps_plain_names_in_events_nodes_and_windows() -> None:
    """Firing with a vocabulary member stores the plain name (a str, not the member): the
    records, hashes and equality of states do not depend on how the call site spelt it."""
    w = Work(_start())
    ev = w.emit(EventKind.PASSED, player="A", step="test")
    assert type(ev.kind) is str and ev == Event.make("passed", player="A", step="test")
    w.decide("A", DecisionKind.ACTIVATE)
    assert type(w.node.kind) is str  # type: ignore[union-attr]
    w.roll(ChanceKind.HOT, "A", 1)
    assert type(w.node.request.kind) is str  # type: ignore[union-attr]
    w.defer_window(PloyTrigger.MOVED, op="x")
    assert type(w.deferred[-1][0]) is str


def test_would_runs_hooks_in_order_and_returns_the_value_when_nobody_listens() -> None:
    """The per-battle dispatch tables give the same results in the same order as the
    mappings: hooks added with ``last`` after the others, the value itself (the same
    object) when no hook is subscribed; every declared name has an entry."""
    s = _start()
    unheard = [n for n in sorted(WOULD_HOOKS) if n not in s.ctx.hooks.would]
    calls: list[str] = []

    def hook(tag: str) -> Any:
        def fn(w: Work, value: Any, **info: Any) -> Any:
            calls.append(tag)
            return (*value, tag)

        return fn

    def add(hooks: Hooks) -> None:
        hooks.transform(unheard[0], hook("late"), last=True)
        hooks.transform(unheard[0], hook("first"))
        hooks.transform(unheard[0], hook("second"))

    w = Work(s.with_hooks(add))
    table = w.ctx.hooks.would_table
    assert set(table) == WOULD_HOOKS and set(w.ctx.hooks.did_table) == EVENT_KINDS
    assert all(table[k] == v for k, v in w.ctx.hooks.would.items())
    assert w.would(unheard[0], (), op="x") == ("first", "second", "late")
    assert calls == ["first", "second", "late"]
    value = object()
    assert Work(s).would(unheard[0], value, op="x") is value
    assert w.would(unheard[1], value, op="x") is value


def test_a_hook_set_with_an_undeclared_name_is_refused() -> None:
    """A hook table filled without Hooks (``hooks.did[...] = ...``) is checked when frozen:
    nothing reaches a battle under a name no event has."""
    hooks = Hooks()
    hooks.did["moevd"] = [_noop]
    with pytest.raises(UndeclaredNameError, match="moevd"):
        hooks.freeze()
