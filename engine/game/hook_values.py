"""The converters of :class:`engine.game.context.HookSet` and
:class:`engine.game.context.GameContext` fields: read-only copies of the mappings and
sequences a battle is given (so nothing the caller keeps can change a battle)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["frozen_lists", "frozenset_of", "pairs_of", "plain", "read_only", "tuple_of"]


def plain(name: str) -> str:
    """``name`` as a plain ``str`` (a vocabulary member is a ``str`` subclass): the keys of the
    hook tables stay exact strings, so look-ups by literal names take the fast path."""
    return name if name.__class__ is str else str.__str__(name)


def frozen_lists(lists: Mapping[str, Iterable[Any]]) -> Mapping[str, tuple[Any, ...]]:
    """A read-only mapping of tuples (name -> the hooks in their order)."""
    return MappingProxyType({k: tuple(v) for k, v in lists.items()})


def read_only(value: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only copy of ``value``."""
    return MappingProxyType(dict(value))


def tuple_of(value: Iterable[Any]) -> tuple[Any, ...]:
    """``value`` as a tuple."""
    return tuple(value)


def frozenset_of(value: Iterable[Any]) -> frozenset[Any]:
    """``value`` as a frozenset."""
    return frozenset(value)


def pairs_of(value: Any) -> Any:
    """``value`` (a mapping, or a list or tuple of pairs) as a tuple of 2-tuples, each pair's
    list value made a tuple (a game option's pairs, e.g. ``ploy_costs``); anything else as
    given (its validator names what is wrong)."""
    if isinstance(value, Mapping):
        value = sorted(value.items())
    if isinstance(value, list):
        value = tuple(value)
    if isinstance(value, tuple):
        value = tuple(
            (
                (p[0], tuple(p[1]) if isinstance(p[1], list) else p[1])
                if isinstance(p, (tuple, list)) and len(p) == 2
                else p
            )
            for p in value
        )
    return value
