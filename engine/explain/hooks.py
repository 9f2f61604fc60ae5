"""Which rule changed a value: the *would* hooks of one event run one by one, in the order and
with the arguments the game passes (:meth:`engine.game.work.Work.would`), noting each that
changed the value and where it comes from (:func:`engine.explain.ruling.source_of_module`)."""

from __future__ import annotations

from typing import Any

import attrs

from engine.explain.ruling import source_of_module
from engine.game.work import Work

__all__ = ["Change", "hook_names", "trace_would"]


@attrs.frozen(slots=True)
class Change:
    """One hook that changed a value: its name (``module.function``), source, the value
    before and after."""

    by: str
    source: str
    before: Any
    after: Any


def _name(fn: Any) -> tuple[str, str]:
    target = getattr(fn, "__wrapped__", fn)
    module = str(getattr(target, "__module__", "") or "")
    qual = str(getattr(target, "__qualname__", getattr(target, "__name__", repr(target))))
    return f"{module}.{qual}" if module else qual, module


def hook_names(w: Work, event: str) -> list[tuple[str, str]]:
    """``(name, source)`` of every *would* hook of ``event`` in this battle, in order."""
    fns = w.ctx.hooks.would_table.get(event, ())
    out = []
    for fn in fns:
        name, module = _name(fn)
        out.append((name, source_of_module(module)))
    return out


def trace_would(w: Work, event: str, value: Any, **info: Any) -> tuple[Any, list[Change]]:
    """``w.would(event, value, **info)``, hook by hook: the final value (the same as the
    game's) and the hooks that changed it."""
    changes = []
    for fn in w.ctx.hooks.would_table.get(event, ()):
        before = value
        value = fn(w, value, **info)
        if value != before:
            name, module = _name(fn)
            changes.append(Change(name, source_of_module(module), before, value))
    return value, changes
