"""The ruleset of a file: a game record names its ruleset in its header, a scenario file in
its options; the front doors (``killteam replay|render|view|explain``, record verification)
replay each under the ruleset it names (DESIGN.md "Rulesets": a record of one ruleset never
replays under another).

- :func:`record_ruleset`: the ruleset to replay a record under: the one its header names, or
  the one the caller was given (``--ruleset``), which the replay then checks against the
  header (:func:`engine.game.record_format.game_from_header` refuses a record of another).
- :func:`scenario_ruleset`: likewise for a scenario file, whose options name its ruleset
  (``[options] ruleset = "kt21"``, :mod:`engine.game.scenario_fields`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from engine import RULESET
from engine.errors import KillTeamError
from engine.game.record_format import RecordFormatError, RecordSource, iter_record
from engine.rulesets import RULESETS, Ruleset, get

__all__ = ["RulesetMismatchError", "header_ruleset", "record_ruleset", "scenario_ruleset"]


class RulesetMismatchError(KillTeamError, ValueError):
    """A ruleset was asked for a file of another ruleset (the message names both)."""


def header_ruleset(source: RecordSource) -> str | None:
    """The ruleset name a record's header gives (its ``ruleset`` field), or ``None`` when it
    cannot be read without consuming the source (a file object, an iterator) or the header
    is not an object with a text ``ruleset`` (the replay reports what is wrong with it).

    Only the header line is read: ``source`` is a path, or a list or tuple of lines
    (:data:`~engine.game.record_format.RecordSource`)."""
    if not isinstance(source, str | os.PathLike | Sequence) or isinstance(source, bytes):
        return None
    try:
        first = next(iter_record(source), None)  # the generator closes the file as it goes
    except RecordFormatError:
        return None
    header = first[1] if first is not None else None
    value: Any = header.get("ruleset") if isinstance(header, dict) else None
    return value if isinstance(value, str) else None


def record_ruleset(source: RecordSource, given: str | None = None) -> Ruleset:
    """The ruleset to replay the record ``source`` under (module docstring).

    Args:
        source: a record (a path, or a list of its lines; another source is replayed under
            ``given`` or the default ruleset, :data:`engine.RULESET`).
        given: a ruleset name the caller asks for (``--ruleset``), or ``None``: the one the
            header names (the default ruleset when the header names none the engine plays:
            the replay then reports the header's field).

    Raises:
        UnknownRulesetError: ``given`` names no ruleset the engine plays.
    """
    if given is not None:
        return get(given)
    name = header_ruleset(source)
    return RULESETS[name] if name is not None and name in RULESETS else get(RULESET)


def scenario_ruleset(named: str, given: str | None, where: str) -> Ruleset:
    """The ruleset to run a scenario file under: the one its options name (``named``).

    Args:
        named: the scenario's ``options.ruleset``.
        given: a ruleset name the caller asks for (``--ruleset``), or ``None``.
        where: the file, for messages.

    Raises:
        RulesetMismatchError: ``given`` is not ``named`` (a scenario never runs under another
            ruleset).
        UnknownRulesetError: ``given`` names no ruleset the engine plays.
    """
    if given is not None and get(given).name != named:
        raise RulesetMismatchError(
            f"--ruleset {given}: {where} is a scenario of the ruleset {named} (its options' "
            "ruleset); a scenario never runs under another ruleset"
        )
    return get(named)
