"""The operatives file of ``killteam render --operatives`` (its format and limits:
:mod:`engine.geometry.render`): :func:`load_operatives`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.errors import KillTeamError
from engine.geometry.model import (
    DEFAULT_MODEL_HEIGHT,
    MAX_BOARD_INCHES,
    MAX_HEIGHT_INCHES,
    MAX_NAME_CHARS,
    Placement,
)
from engine.geometry.render_legend import PLAYER_COLOURS
from engine.inputs import excerpt, read_document, shown

__all__ = [
    "MAX_BASE_MM",
    "MAX_MODEL_HEIGHT",
    "MAX_OPERATIVES",
    "OperativesError",
    "load_operatives",
]


class OperativesError(KillTeamError, ValueError):
    """An operatives file is invalid; the message names the file, the operative index and
    the field."""


# -------------------------------------------------------------------------------------------
# Operatives file
# -------------------------------------------------------------------------------------------

MAX_OPERATIVES = 200
"""The most operatives an operatives file may list (a battle has at most about 30)."""

MAX_BASE_MM = 200.0
"""The largest base diameter (mm) an operatives file may give (Kill Team bases are 25-60 mm)."""

MAX_MODEL_HEIGHT = 20.0
"""The tallest model (inches from its base to its head) an operatives file may give."""

_OPERATIVE_FIELDS = {"name", "player", "x", "y", "base_mm", "elevation", "model_height"}


def _number(
    entry: Mapping[str, Any],
    where: str,
    field: str,
    default: float | None,
    bounds: tuple[float, float],
    strict: bool,
) -> float:
    """Field ``field`` of an operatives-file entry as a number within ``bounds`` (``strict``:
    above the lower bound)."""
    value = entry.get(field, default)
    if value is None:
        raise OperativesError(f"{where}: field {field!r} is required")
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or (isinstance(value, float) and not math.isfinite(value))
    ):
        raise OperativesError(f"{where}: field {field!r} must be a number, not {shown(value)}")
    minimum, maximum = bounds
    if value < minimum or (strict and value == minimum):
        bound = "greater than" if strict else "at least"
        raise OperativesError(
            f"{where}: field {field!r} must be {bound} {minimum:g}, not {shown(value)}"
        )
    if value > maximum:
        raise OperativesError(
            f"{where}: field {field!r} must be at most {maximum:g}, not {shown(value)}"
        )
    return float(value)


def load_operatives(path: str | Path) -> dict[str, tuple[str, Placement]]:
    """Read an operatives file (JSON, format and limits in the module docstring).

    Args:
        path: the file.

    Returns:
        operative name -> (player ``"A"``/``"B"``, :class:`Placement`), in file order.
        Positions are in inches (quantised to 0.001"), base sizes in millimetres.

    Raises:
        OperativesError: for a missing, unreadable, non-UTF-8 or too large file, bad JSON,
            nesting too deep, a number out of range, or an invalid entry; the message names
            the file, the operative (index and name) and the field.
    """
    p = Path(path)
    data = read_document(p, OperativesError, "operatives file")
    if not isinstance(data, Mapping) or set(data) != {"operatives"}:
        raise OperativesError(f"{p}: must be an object with the single field 'operatives'")
    entries = data["operatives"]
    if not isinstance(entries, list):
        raise OperativesError(f"{p}: field 'operatives' must be a list")
    if len(entries) > MAX_OPERATIVES:
        raise OperativesError(
            f"{p}: field 'operatives' lists {len(entries)} operatives; at most {MAX_OPERATIVES}"
        )
    out: dict[str, tuple[str, Placement]] = {}
    for k, entry in enumerate(entries):
        where = f"{p}: operative {k}"
        if not isinstance(entry, Mapping):
            raise OperativesError(f"{where}: must be an object, not {shown(entry)}")
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            raise OperativesError(f"{where}: field 'name' must be a non-empty string")
        if len(name) > MAX_NAME_CHARS:
            raise OperativesError(
                f"{where}: field 'name' is longer than {MAX_NAME_CHARS} characters "
                f"({excerpt(name)})"
            )
        where = f"{where} ({name!r})"
        extra = sorted(str(f) for f in entry if f not in _OPERATIVE_FIELDS)
        if extra:
            allowed = ", ".join(sorted(_OPERATIVE_FIELDS))
            raise OperativesError(
                f"{where}: unknown field {excerpt(extra[0])} (allowed: {allowed})"
            )
        if name in out:
            raise OperativesError(f"{where}: field 'name': duplicate operative name")
        player = entry.get("player")
        if not isinstance(player, str) or player not in PLAYER_COLOURS:
            raise OperativesError(
                f"{where}: field 'player' must be 'A' or 'B', not {shown(player)}"
            )

        placement = Placement(
            x=_number(entry, where, "x", None, (0.0, MAX_BOARD_INCHES), False),
            y=_number(entry, where, "y", None, (0.0, MAX_BOARD_INCHES), False),
            base_mm=_number(entry, where, "base_mm", 32.0, (0.0, MAX_BASE_MM), True),
            elevation=_number(entry, where, "elevation", 0.0, (0.0, MAX_HEIGHT_INCHES), False),
            model_height=_number(
                entry,
                where,
                "model_height",
                DEFAULT_MODEL_HEIGHT,
                (0.0, MAX_MODEL_HEIGHT),
                True,
            ),
        )
        out[name] = (str(player), placement)
    return out
