"""The query language of ``killteam explain`` and :func:`engine.explain.explain`
(``docs/EXPLAIN.md``). One query per call; words are separated by spaces, operative ids
are case-insensitive:

``target SHOOTER TARGET [WEAPON]``
    Is TARGET a valid target for SHOOTER (with WEAPON: its Range, Seek and the team rules
    that read it)?
``can OPERATIVE ACTION...``
    Can OPERATIVE perform the action now? ACTION is the action's notation
    (:func:`engine.game.actions.parse_action`), with or without the operative's id after
    the verb: ``can KAS-1 Dash``, ``can KAS-1 Shoot bolt pistol at LEG-1``,
    ``can KAS-1 Reposition KAS-1 to 8,4``.
``control MARKER``
    Who controls the marker (its name, spaces allowed)?
``attack ATTACKER WEAPON TARGET [with DEFWEAPON]`` (or ``... WEAPON at TARGET ...``)
    What will this shot or fight do (WEAPON ranged or melee, spaces allowed; for a fight,
    DEFWEAPON the melee weapon the defender retaliates with, else its first usable one)?
``event N``
    Why did event N (from 1, the events of the scenario's steps up to ``--step``, or of a
    record) happen?
"""

from __future__ import annotations

import attrs

from engine.explain.ruling import QueryError

__all__ = ["KINDS", "Query", "parse_query"]

#: The query words and their forms (for messages).
KINDS = {
    "target": "target SHOOTER TARGET [WEAPON]",
    "can": "can OPERATIVE ACTION...",
    "control": "control MARKER",
    "attack": "attack ATTACKER WEAPON TARGET [with DEFWEAPON]",
    "event": "event N",
}

MAX_QUERY_CHARS = 300


@attrs.frozen(slots=True)
class Query:
    """A parsed query.

    Attributes:
        kind: one of :data:`KINDS`. words: the words after the kind, as typed (spaces
            normalised). text: the whole query, normalised.
    """

    kind: str
    words: tuple[str, ...]
    text: str


def parse_query(text: str) -> Query:
    """Read a query (module docstring): its kind and the right number of words.

    Raises:
        QueryError: empty, too long, an unknown kind or a missing word (the message names
            the bad word and the expected form).
    """
    if not isinstance(text, str):
        raise QueryError(f"a query is text, not {type(text).__name__}")
    if len(text) > MAX_QUERY_CHARS:
        raise QueryError(f"the query is longer than {MAX_QUERY_CHARS} characters")
    words = tuple(text.split())
    if not words:
        raise QueryError("empty query: expected one of " + "; ".join(KINDS.values()))
    kind = words[0].lower()
    if kind not in KINDS:
        raise QueryError(
            f"unknown query {words[0]!r}: expected one of " + "; ".join(KINDS.values())
        )
    rest = words[1:]
    need = {"target": 2, "can": 2, "control": 1, "attack": 3, "event": 1}[kind]
    if len(rest) < need:
        raise QueryError(f"{kind!r} needs more words: {KINDS[kind]}")
    if kind == "target" and len(rest) > 2 and rest[2].lower() == "with":
        rest = rest[:2] + rest[3:]
    if kind == "event" and (len(rest) != 1 or not rest[0].isdigit() or int(rest[0]) < 1):
        raise QueryError(f"event number {' '.join(rest)!r} is not a whole number from 1")
    return Query(kind, rest, " ".join((kind, *rest)))
