"""Which code paths answer the queries of a battle: one :class:`Queries` per ruleset, found
by the name the battle's ruleset gives (:data:`EDITIONS`), never by asking "is this KT21?"
in a query (DESIGN.md "Rulesets": what differs lives in modules the ruleset names).

``control`` and ``attack`` have one explanation each for every ruleset
(:func:`engine.explain.control.explain_control`,
:func:`engine.explain.attack.explain_attack`: the query's reading, the verdict, the steps and
the ruling); the table gives each what differs as a value (:class:`Queries` ``control`` and
``attack``: the edition's distance, dice and sight functions and its rule sections).

- ``kt24``: :mod:`engine.explain.target`, :mod:`~engine.explain.can`,
  :data:`~engine.explain.control.KT24_CONTROL`,
  :data:`~engine.explain.kt24_attack.KT24_ATTACK`, :mod:`~engine.explain.events`
  (``rules/KT24.md``).
- ``kt21``: :mod:`engine.explain.kt21_target` (the KT21 Line of Sight,
  :func:`engine.rules.kt21.sight.kt21_line_of_sight`), :mod:`~engine.explain.kt21_can` (the
  KT21 actions' refusals), :data:`~engine.explain.kt21_control.KT21_CONTROL` (2" from the
  centre), :data:`~engine.explain.kt21_attack.KT21_ATTACK` (the KT21 dice core) and
  :mod:`~engine.explain.kt21_events` (``rules/KT21.md``).

The modules are imported when a query of their ruleset is asked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs

from engine.explain.attack import AttackRules
from engine.explain.control import ControlRules
from engine.explain.ruling import QueryError, Ruling
from engine.game.events import Event
from engine.game.state import GameState
from engine.game.work import Work

__all__ = ["EDITIONS", "Queries", "queries_of", "ruleset_name"]


@attrs.frozen(slots=True)
class Queries:
    """How each query kind is answered under one ruleset.

    Attributes:
        target: ``target(w, words, text) -> Ruling``.
        can: ``can(state, w, words, text) -> Ruling``.
        control: what the one ``control`` explanation reads under this ruleset
            (:class:`~engine.explain.control.ControlRules`).
        attack: what the one ``attack`` explanation reads under this ruleset
            (:class:`~engine.explain.attack.AttackRules`).
        event: ``event(events, words, text, where) -> Ruling``.
    """

    target: Callable[[Work, tuple[str, ...], str], Ruling]
    can: Callable[[GameState, Work, tuple[str, ...], str], Ruling]
    control: ControlRules
    attack: AttackRules
    event: Callable[[Sequence[Event], tuple[str, ...], str, str], Ruling]


def _kt24() -> Queries:
    from engine.explain.can import explain_can
    from engine.explain.control import KT24_CONTROL
    from engine.explain.events import explain_event
    from engine.explain.kt24_attack import KT24_ATTACK
    from engine.explain.target import explain_target

    return Queries(explain_target, explain_can, KT24_CONTROL, KT24_ATTACK, explain_event)


def _kt21() -> Queries:
    from engine.explain.kt21_attack import KT21_ATTACK
    from engine.explain.kt21_can import explain_can21
    from engine.explain.kt21_control import KT21_CONTROL
    from engine.explain.kt21_events import explain_event21
    from engine.explain.kt21_target import explain_target21

    return Queries(explain_target21, explain_can21, KT21_CONTROL, KT21_ATTACK, explain_event21)


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
            f"(known: {', '.join(sorted(EDITIONS))}; the exact odds of an attack under any "
            "ruleset: killteam calc --ruleset NAME)"
        )
    return make()
