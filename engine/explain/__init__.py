"""Rulings you can read: ``explain(state, query)`` answers a rules lawyer's question about a
position ("what happens here, and why?") with the ruling and the rule behind each step, read
from the code paths the engine plays with (never a second implementation): the sight
queries' evidence (:mod:`engine.geometry.sight_why`), the game's own target, action and
control checks, the attack code's profile and the exact dice core.

Queries (:mod:`engine.explain.query`, ``docs/EXPLAIN.md``): ``target SHOOTER TARGET
[WEAPON]``, ``can OPERATIVE ACTION...``, ``control MARKER``, ``attack ATTACKER WEAPON
TARGET``, ``event N``. ``killteam explain SCENARIO.toml [--step N] QUERY`` prints a
:class:`Ruling` (rich tables, ``--json``, ``--picture``).

The queries of a battle are answered by the code paths of its ruleset
(:mod:`engine.explain.editions`: KT24's, or KT21's with ``rules/KT21.md`` sections); one
``control`` and one ``attack`` explanation serve both, given the edition's differences by
that table.

Layer: between :mod:`engine.agents` and :mod:`engine.rulesets` (``pyproject.toml``'s
import contract); it reads :mod:`engine.game`, :mod:`engine.geometry` and :mod:`engine.dice`
only: the battle's rule modules reach it through the state's hooks.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.explain.attack import explain_attack
from engine.explain.control import explain_control
from engine.explain.editions import EDITIONS, queries_of
from engine.explain.query import KINDS, Query, parse_query
from engine.explain.ruling import SCHEMA, SOURCES, Drawing, QueryError, Ruling, Step
from engine.game.events import Event
from engine.game.state import GameState
from engine.game.work import Work

__all__ = [
    "EDITIONS",
    "KINDS",
    "SCHEMA",
    "SOURCES",
    "Drawing",
    "Query",
    "QueryError",
    "Ruling",
    "Step",
    "explain",
    "parse_query",
]


def explain(
    state: GameState, query: str | Query, *, events: Sequence[Event] = (), where: str = ""
) -> Ruling:
    """The ruling of ``query`` (text or a parsed :class:`Query`) in ``state``; the state is
    not changed.

    Args:
        state: the position.
        query: see :mod:`engine.explain.query`.
        events: for ``event N``, the events numbered from 1 (those of a scenario's steps or
            a record up to the position); ``where`` names them in messages.

    Raises:
        QueryError: the query cannot be read, or names an operative, weapon, marker or event
            that is not there (the message names the bad word).
    """
    q = query if isinstance(query, Query) else parse_query(query)
    table = queries_of(state)
    if q.kind == "event":
        return table.event(events, q.words, q.text, where)
    w = Work(state)
    if q.kind == "target":
        return table.target(w, q.words, q.text)
    if q.kind == "can":
        return table.can(state, w, q.words, q.text)
    if q.kind == "control":
        return explain_control(w, q.words, q.text, table.control)
    return explain_attack(w, q.words, q.text, state, table.attack)
