"""The shared battle context is read-only (issue 27, finding 5).

Every state of a battle shares one :class:`~engine.game.context.GameContext`, which is not
part of a state's equality or hash: a change made to it through any public attribute would
silently change every state of the battle, past ones included. These tests walk every public
attribute of the context and of what it holds (found dynamically, so an attribute added later
is covered too) and try to change each one; they also check the ways the engine still
changes a battle's hooks on purpose (:meth:`GameState.with_hooks`) leave the battle alone.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Iterator, Mapping
from types import FunctionType, MethodType
from typing import Any

import attrs
import numpy as np
import pytest

from engine.agents import RandomAgent
from engine.game import GameState
from engine.game.context import Hooks
from engine.game.drivers import SeededDice, play
from engine.geometry import load_killzone
from engine.rulesets import new_game
from engine.teams import load_builtin_team

OURS = ("engine.", "teams.", "tests.")
"""Modules whose objects the walk enters (their public attributes are tried one by one);
other libraries' objects (shapely, the STRtree) are checked for writeable arrays only."""

_MUTATORS = (
    "setdefault",
    "update",
    "pop",
    "popitem",
    "clear",
    "append",
    "extend",
    "insert",
    "remove",
    "add",
    "discard",
    "sort",
    "reverse",
)
"""Methods of the standard mutable containers (dict, list, set): a built-in value having
one is mutable."""


@functools.cache
def _battle() -> GameState:
    """A close-quarters battle (hatchways, walls) of two built-in teams, played to its end
    with random agents so that every lazily filled cache of the context has been used (made
    once: the tests here never change it)."""
    kz = load_killzone("close_quarters")
    s = new_game(
        kz, load_builtin_team("kasrkin").default(), load_builtin_team("kommandos").default()
    )
    final = play(s, {"A": RandomAgent(3), "B": RandomAgent(4)}, SeededDice(3))
    assert final.is_terminal
    return s


def _public_names(obj: Any) -> list[str]:
    """The public data attributes of ``obj``, read from its class (attrs fields, slots) and
    its instance dict: never a fixed list."""
    names: list[str] = []
    if attrs.has(type(obj)):
        names += [f.name for f in attrs.fields(type(obj))]
    for klass in type(obj).__mro__:
        slots = getattr(klass, "__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    names += list(getattr(obj, "__dict__", {}))
    return [n for n in dict.fromkeys(names) if not n.startswith("_") and hasattr(obj, n)]


def _ours(obj: Any) -> bool:
    return type(obj).__module__.startswith(OURS) and not isinstance(obj, type)


def _changed(action: Any) -> bool:
    """Whether ``action()`` went through (it should raise)."""
    try:
        action()
    except (AttributeError, TypeError, ValueError):
        return False
    return True


def _try_container(value: Any, path: str) -> Iterator[str]:
    """Try to change a container in place (an attempt that succeeds writes the value already
    there, so a failing run changes nothing), and report a built-in value that has a
    mutating method (``append``, ``setdefault``...)."""
    if isinstance(value, np.ndarray):
        if _changed(lambda: value.__setitem__(..., value.copy())):
            yield f"{path}: numpy array is writeable"
        return
    if isinstance(value, (str, bytes)):
        return
    if isinstance(value, Mapping):
        key = next(iter(value), None)
        if key is not None and _changed(lambda: value.__setitem__(key, value[key])):
            yield f"{path}[{key!r}] = ... went through"
    elif (
        isinstance(value, (list, tuple))
        and value
        and _changed(lambda: value.__setitem__(0, value[0]))
    ):
        yield f"{path}[0] = ... went through"
    if type(value).__module__ == "builtins":
        for name in _MUTATORS:
            if callable(getattr(value, name, None)):
                yield f"{path}.{name}() exists ({type(value).__name__})"


def _walk(obj: Any, path: str, seen: set[int]) -> Iterator[str]:
    """Every change that went through, reaching ``obj`` and what it holds."""
    if id(obj) in seen or obj is None or isinstance(obj, (str, bytes, int, float, frozenset)):
        return
    if isinstance(obj, (FunctionType, MethodType, type)):
        return  # hook functions: code, not data
    seen.add(id(obj))
    yield from _try_container(obj, path)
    if isinstance(obj, Mapping):
        for k, v in obj.items():
            yield from _walk(v, f"{path}[{k!r}]", seen)
        return
    if isinstance(obj, (list, tuple, set)):
        for i, v in enumerate(obj):
            yield from _walk(v, f"{path}[{i}]", seen)
        return
    if not _ours(obj):
        for name in dir(obj):
            if name.startswith("_"):
                continue
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # deprecated properties of shapely
                    value = getattr(obj, name)
            except Exception:  # a property of a foreign object that refuses
                continue
            if isinstance(value, np.ndarray) and getattr(obj, name) is value:
                yield from _try_container(value, f"{path}.{name}")
        return
    if _changed(lambda: setattr(obj, "probe_attribute", 1)):
        delattr(obj, "probe_attribute")
        yield f"{path}.probe_attribute: a new attribute could be added"
    for name in _public_names(obj):
        value = getattr(obj, name)
        if _changed(lambda name=name, value=value: setattr(obj, name, value)):
            yield f"{path}.{name}: reassigned ({type(obj).__name__})"
        yield from _walk(value, f"{path}.{name}", seen)


def test_every_public_attribute_of_the_battle_context_refuses_changes() -> None:
    """The context, its options, hooks, rosters, datacards and killzone (the layout and one
    of its hatchway states, with their arrays and spatial index), after a whole battle has
    filled the lazy caches: no attribute can be reassigned or added, no mapping, list or
    array changed in place. Each change tried would change every state of the battle at
    once (they share the context, outside their hash), so every one must raise."""
    s = _battle()
    ctx = s.ctx
    assert _public_names(ctx)  # the walk sees the attributes (a broken walk proves nothing)
    hatch = sorted(ctx.killzone.hatchways)[0]
    roots = {"ctx": ctx, "ctx.killzone_for((hatch,))": ctx.killzone_for((hatch,))}
    seen: set[int] = set()
    found = [msg for path, root in roots.items() for msg in _walk(root, path, seen)]
    assert found == []
    assert {"options", "hooks", "killzone", "rosters", "datacards"} <= set(_public_names(ctx))


def test_options_of_a_battle_cannot_be_reassigned_or_changed() -> None:
    """``ctx.options = ...`` and ``ctx.options.max_steps = ...`` both raise: the options
    decide rules of the whole battle (the named example of the finding)."""
    ctx = _battle().ctx
    with pytest.raises(AttributeError):
        ctx.options = attrs.evolve(ctx.options, max_steps=5)  # type: ignore[misc]
    with pytest.raises(AttributeError):
        ctx.options.max_steps = 5  # type: ignore[misc]
    assert ctx.options.max_steps == 100_000


def test_the_context_copies_the_mappings_it_is_given() -> None:
    """A caller's dict given to :class:`GameContext` and changed afterwards does not change
    the context: the context keeps a read-only view of its own copy."""
    s = _battle()
    index = dict(s.ctx.index)
    ctx = attrs.evolve(s.ctx, index=index)
    index["KAS-1"] = 99
    assert ctx.index["KAS-1"] == 0


def test_with_hooks_adds_hooks_to_a_new_state_and_leaves_the_battle_unchanged() -> None:
    """:meth:`GameState.with_hooks` gives a state equal to the old one whose context has the
    added hook (after the battle's own), while the old state's hooks are what they were:
    the states already made keep their rules."""
    s = _battle()
    before = s.ctx.hooks.would.get("would_pathfinder_analyse", ())

    def added(w: Any, value: int, **info: Any) -> int:
        return value + 1

    s2 = s.with_hooks(lambda h: h.transform("would_pathfinder_analyse", added))
    assert s2 == s and s2.ctx is not s.ctx
    assert s2.ctx.hooks.would["would_pathfinder_analyse"] == (*before, added)
    assert s.ctx.hooks.would.get("would_pathfinder_analyse", ()) == before
    assert s2.ctx.killzone is s.ctx.killzone and s2.ctx.datacards == s.ctx.datacards


def test_frozen_hooks_keep_their_order_and_last_hooks_through_a_builder() -> None:
    """``Hooks.freeze`` keeps the order hooks run in, and a builder made from the frozen
    hooks still puts a ``last`` hook after the ones added later (as the battle's own builder
    does: ``Hooks.transform``)."""

    def a(w: Any, v: Any) -> Any:
        return v

    def b(w: Any, v: Any) -> Any:
        return v

    def c(w: Any, v: Any) -> Any:
        return v

    hooks = Hooks()
    hooks.transform("would_magnify_through", a)
    hooks.transform("would_magnify_through", b, last=True)
    frozen = hooks.freeze()
    assert frozen.would["would_magnify_through"] == (a, b)
    more = frozen.builder()
    more.transform("would_magnify_through", c)
    assert more.freeze().would["would_magnify_through"] == (a, c, b)
    assert frozen.would["would_magnify_through"] == (a, b)
