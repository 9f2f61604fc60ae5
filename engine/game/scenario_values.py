"""The values of a scenario file (the format: :mod:`engine.game.scenario_file`): its errors,
its limits and the checkers of its basic values (texts, lists, whole numbers, points,
players), each naming the file and the field's path in its errors.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import Any

from engine.errors import KillTeamError
from engine.geometry.model import MAX_BOARD_INCHES, MAX_HEIGHT_INCHES
from engine.inputs import excerpt, shown

__all__ = [
    "MAX_COUNT",
    "MAX_DESCRIPTION_CHARS",
    "MAX_LIST_ITEMS",
    "MAX_POSITION_OPERATIVES",
    "MAX_STEPS",
    "MAX_TEXT_CHARS",
    "OPERATIVE_KEYS",
    "POSITION_TOLERANCE",
    "ExpectationError",
    "ScenarioFileError",
    "ScenarioFileProblem",
    "ScenarioScriptError",
    "bool_",
    "carrying",
    "fail",
    "keys",
    "list_",
    "pair",
    "player",
    "point",
    "str_list",
    "text",
    "whole",
]

OPERATIVE_KEYS = frozenset(
    {
        "at",
        "order",
        "wounds",
        "ready",
        "counteracted",
        "on_guard",
        "carrying",
        "interrupted",
        "ap",
        "limited",
        "incapacitated",
        "tokens",
    }
)
"""The fields of an operative in ``[position.operatives.ID]`` (engine.game.scenario_file)."""


class ScenarioFileProblem(KillTeamError):
    """Base class of the errors of scenario files (module docstring)."""


class ScenarioFileError(ScenarioFileProblem, ValueError):
    """The scenario file is unreadable or malformed (names the file and the field)."""


class ScenarioScriptError(ScenarioFileProblem, ValueError):
    """A step of the script was rejected or its dice do not fit (names file, step, action)."""


class ExpectationError(ScenarioFileProblem, AssertionError):
    """An expectation of the scenario differs from the engine's result."""


POSITION_TOLERANCE = 0.01
"""How close (inches) an operative must be to an expected position."""

MAX_STEPS = 200
"""The most steps (``[[steps]]``) a scenario may have."""

MAX_LIST_ITEMS = 500
"""The most entries of any list of a scenario file (a step's actions or rolls, ``rules``,
``legal``, ``illegal``, ``options``, ``events``, ``no_events``, a roster's operatives)."""

MAX_POSITION_OPERATIVES = 100
"""The most operatives ``[position.operatives]`` or an ``operatives`` expectation may list."""

MAX_TEXT_CHARS = 500
"""The longest action, roll, name, rule reference or other short string."""

MAX_DESCRIPTION_CHARS = 20_000
"""The longest ``description``."""

MAX_COUNT = 1000
"""The largest wounds, command points or victory points a scenario may give."""


def fail(source: str, where: str, message: str) -> ScenarioFileError:
    """The error naming ``source`` and ``where``, on one line (line breaks in names or in
    quoted texts are written as ``\\n``)."""
    text = f"{source}: {where}: {message}"
    return ScenarioFileError(text.replace("\r", "\\r").replace("\n", "\\n"))


def keys(
    source: str, where: str, table: Any, allowed: AbstractSet[str] | None
) -> Mapping[str, Any]:
    """``table`` checked to be a table whose fields are among ``allowed`` (``None``: any
    fields, at most :data:`MAX_POSITION_OPERATIVES` of them, each a short name)."""
    if not isinstance(table, Mapping):
        raise fail(source, where, f"expected a table, not {shown(table)}")
    if allowed is None:
        if len(table) > MAX_POSITION_OPERATIVES:
            raise fail(source, where, f"{len(table)} entries; at most {MAX_POSITION_OPERATIVES}")
        for key in table:
            text(source, where, key, "a name")
        return table
    extra = sorted(str(k) for k in table if k not in allowed)
    if extra:
        raise fail(
            source,
            where,
            f"unknown field {excerpt(extra[0])} (allowed: {', '.join(sorted(allowed))})",
        )
    return table


def text(source: str, where: str, value: Any, what: str, limit: int = MAX_TEXT_CHARS) -> str:
    """``value`` checked to be a string of at most ``limit`` characters."""
    if not isinstance(value, str):
        raise fail(source, where, f"expected {what} (a string), not {shown(value)}")
    if len(value) > limit:
        raise fail(source, where, f"longer than {limit} characters ({excerpt(value)})")
    return value


def carrying(source: str, where: str, value: Any) -> tuple[str, ...]:
    """The markers an operative carries: a marker's name (``""``: none) or a list of names."""
    if isinstance(value, str):
        return (text(source, where, value, "a marker's name"),) if value else ()
    names = list_(source, where, value, "marker names")
    return tuple(text(source, f"{where}[{k}]", v, "a marker's name") for k, v in enumerate(names))


def list_(source: str, where: str, value: Any, what: str) -> list[Any]:
    """``value`` checked to be a list of at most :data:`MAX_LIST_ITEMS` entries."""
    if not isinstance(value, list):
        raise fail(source, where, f"expected a list of {what}, not {shown(value)}")
    if len(value) > MAX_LIST_ITEMS:
        raise fail(source, where, f"{len(value)} entries; a list may have at most {MAX_LIST_ITEMS}")
    return value


def str_list(source: str, where: str, value: Any) -> list[str]:
    """``value`` checked to be a list of short strings."""
    items = list_(source, where, value, "strings")
    if not all(isinstance(v, str) for v in items):
        raise fail(source, where, f"expected a list of strings, not {shown(value)}")
    return [text(source, f"{where}[{i + 1}]", v, "a string") for i, v in enumerate(items)]


def whole(source: str, where: str, value: Any, lo: int = 0, hi: int = MAX_COUNT) -> int:
    """``value`` checked to be a whole number from ``lo`` to ``hi``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise fail(source, where, f"a whole number, not {shown(value)}")
    if not lo <= value <= hi:
        raise fail(source, where, f"a whole number from {lo} to {hi}, not {shown(value)}")
    return value


def pair(source: str, where: str, value: Any) -> tuple[int, int]:
    """``value`` checked to be ``[A, B]``, two whole numbers from 0 to :data:`MAX_COUNT`."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise fail(source, where, f"expected [A, B] whole numbers, not {shown(value)}")
    for k, v in enumerate(value):
        whole(source, f"{where}[{k}]", v)
    return (value[0], value[1])


def point(source: str, where: str, value: Any) -> tuple[float, ...]:
    """``value`` checked to be ``[x, y]`` or ``[x, y, z]`` in inches, on the board."""
    if (
        not isinstance(value, list)
        or len(value) not in (2, 3)
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        or not all(math.isfinite(v) for v in value)
    ):
        raise fail(source, where, f"expected [x, y] or [x, y, z] in inches, not {shown(value)}")
    limits = (MAX_BOARD_INCHES, MAX_BOARD_INCHES, MAX_HEIGHT_INCHES)
    for k, (v, hi) in enumerate(zip(value, limits, strict=False)):
        if not 0 <= v <= hi:
            raise fail(source, f"{where}[{k}]", f"must be from 0 to {hi:g} inches, not {v:g}")
    return tuple(float(v) for v in value)


def bool_(source: str, where: str, value: Any) -> bool:
    """``value`` checked to be ``true`` or ``false``."""
    if not isinstance(value, bool):
        raise fail(source, where, f"expected true or false, not {shown(value)}")
    return value


def player(source: str, where: str, value: Any) -> str:
    """``value`` checked to be a player, ``"A"`` or ``"B"``."""
    if not isinstance(value, str) or value not in ("A", "B"):
        raise fail(source, where, f'expected "A" or "B", not {shown(value)}')
    return str(value)
