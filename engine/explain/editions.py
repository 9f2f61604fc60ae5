"""Which code paths answer the queries of a battle: one :class:`Queries` per ruleset, found
by the name the battle's ruleset gives (:data:`EDITIONS`), never by asking "is this KT21?"
in a query (DESIGN.md "Rulesets": what differs lives in modules the ruleset names).

- ``kt24``: :mod:`engine.explain.target`, :mod:`~engine.explain.can`,
  :mod:`~engine.explain.control`, :mod:`~engine.explain.attack`,
  :mod:`~engine.explain.events` (``rules/KT24.md``).
- ``kt21``: :mod:`engine.explain.kt21_target` (the KT21 Line of Sight,
  :func:`engine.rules.kt21.sight.kt21_line_of_sight`), :mod:`~engine.explain.kt21_can` (the
  KT21 actions' refusals), :mod:`~engine.explain.kt21_control` (2" from the centre),
  :mod:`~engine.explain.kt21_attack` (the KT21 dice core) and
  :mod:`~engine.explain.kt21_events` (``rules/KT21.md``).

The modules are imported when a query of their ruleset is asked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs

from engine.explain.ruling import QueryError, Ruling
from engine.game.events import Event
from engine.game.state import GameState
from engine.game.work import Work

__all__ = ["EDITIONS", "Queries", "queries_of", "ruleset_name"]


@attrs.frozen(slots=True)
class Queries:
    """The functions answering each query kind under one ruleset.

    Attributes:
        target: ``target(w, words, text) -> Ruling``.
        can: ``can(state, w, words, text) -> Ruling``.
        control: ``control(w, words, text) -> Ruling``.
        attack: ``attack(w, words, text, state) -> Ruling``.
        event: ``event(events, words, text, where) -> Ruling``.
    """

    target: Callable[[Work, tuple[str, ...], str], Ruling]
    can: Callable[[GameState, Work, tuple[str, ...], str], Ruling]
    control: Callable[[Work, tuple[str, ...], str], Ruling]
    attack: Callable[[Work, tuple[str, ...], str, GameState], Ruling]
    event: Callable[[Sequence[Event], tuple[str, ...], str, str], Ruling]


def _kt24() -> Queries:
    from engine.explain.attack import explain_attack
    from engine.explain.can import explain_can
    from engine.explain.control import explain_control
    from engine.explain.events import explain_event
    from engine.explain.target import explain_target

    return Queries(explain_target, explain_can, explain_control, explain_attack, explain_event)


def _kt21() -> Queries:
    from engine.explain.kt21_attack import explain_attack21
    from engine.explain.kt21_can import explain_can21
    from engine.explain.kt21_control import explain_control21
    from engine.explain.kt21_events import explain_event21
    from engine.explain.kt21_target import explain_target21

    return Queries(
        explain_target21, explain_can21, explain_control21, explain_attack21, explain_event21
    )


EDITIONS: Mapping[str, Callable[[], Queries]] = MappingProxyType({"kt24": _kt24, "kt21": _kt21})
"""Ruleset name -> the :class:`Queries` of its battles (built on first use)."""


def ruleset_name(state: GameState) -> str:
    """The name of the ruleset ``state``'s battle plays (``"kt24"`` for a battle built
    without one)."""
    rules: Any = state.ctx.rules
    ruleset = getattr(rules, "ruleset", None)
    return str(getattr(ruleset, "name", "kt24"))


def queries_of(state: GameState) -> Queries:
    """The :class:`Queries` of ``state``'s ruleset.

    Raises:
        QueryError: a ruleset ``killteam explain`` has no queries for (names it)."""
    name = ruleset_name(state)
    make = EDITIONS.get(name)
    if make is None:
        raise QueryError(
            f"killteam explain has no queries for the ruleset {name!r} "
            f"(known: {', '.join(sorted(EDITIONS))})"
        )
    return make()
