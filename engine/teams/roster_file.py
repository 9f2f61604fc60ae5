"""Roster files (``rules/KT24.md`` 7; :func:`load_roster`) and the tables of roster-time
choices they and records carry (:func:`choice_table`). Split from :mod:`engine.teams.io` (the
team files), which re-exports both names.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.inputs import parse_json, read_text
from engine.names import TEAM_FILE_SUFFIXES, is_file_ref
from engine.teams.io import TeamFileError, load_builtin_team, load_team
from engine.teams.model import (
    MAX_NAME_CHARS,
    MAX_ROSTER_OPERATIVES,
    MAX_TEXT_CHARS,
    Roster,
    brief,
)

__all__ = ["choice_table", "load_roster"]


def load_roster(path: str | Path, *, validate: bool = True) -> Roster:
    """Load a roster file: ``{"team": ID_OR_PATH, "operatives": ["Type", "Type [Option]", ...]}``
    with, optionally, the team's roster-time choices: ``"choices": {"Chapter Tactics":
    ["Aggressive", "Hardy"]}`` and ``"operative_choices": [{"Mark of Chaos": "Khorne"}, {},
    ...]`` (one object per operative, in order; :func:`choice_table`). A choice not given
    takes its default (:class:`engine.rules.registry.ChoiceSpec`).

    ``team`` is a built-in team id (``"kasrkin"``) or a team file path ending in ``.json``
    (relative paths are resolved from the roster file's folder; a missing file, a folder or
    anything but a regular file is refused as such, never looked up as a built-in id);
    ``operatives`` lists one roster entry per operative selected: its type, with its loadout
    in brackets when the type has options (``"Kasrkin Gunner [Meltagun]"``, one option per
    slot joined by ``" + "``; :func:`engine.teams.model.parse_entry`).

    Args:
        validate: raise when the roster breaks a selection rule (default); with ``False`` the
            roster is returned as is and :meth:`Roster.validate` lists the problems.

    Raises:
        TeamFileError: naming the file and the field, for a missing or unreadable file (read
            through :mod:`engine.inputs`: UTF-8 JSON, at most 64 MiB, nesting and numbers
            checked), an unknown field, a bad team, more than
            :data:`~engine.teams.model.MAX_ROSTER_OPERATIVES` operatives, an entry longer
            than 400 characters, or (with ``validate``) every broken selection rule.
    """
    p = Path(path)
    data = parse_json(read_text(p, TeamFileError, "roster file"), str(p), TeamFileError)
    if not isinstance(data, Mapping):
        raise TeamFileError(f"{p}: a roster file holds one JSON object")
    extra = sorted(set(data) - {"team", "operatives", "choices", "operative_choices"})
    if extra:
        raise TeamFileError(
            f"{p}: unknown field {brief(extra[0])} "
            "(allowed: choices, operative_choices, operatives, team)"
        )
    team_ref = data.get("team")
    if not isinstance(team_ref, str) or not team_ref or len(team_ref) > MAX_TEXT_CHARS:
        raise TeamFileError(f"{p}: field 'team' must be a built-in team id or a team file path")
    ops = data.get("operatives")
    if not isinstance(ops, list) or not all(isinstance(o, str) for o in ops):
        raise TeamFileError(f"{p}: field 'operatives' must be a list of operative type names")
    if len(ops) > MAX_ROSTER_OPERATIVES:
        raise TeamFileError(
            f"{p}: field 'operatives': at most {MAX_ROSTER_OPERATIVES} operatives, got {len(ops)}"
        )
    for i, entry in enumerate(ops):
        if len(entry) > 2 * MAX_NAME_CHARS:
            raise TeamFileError(
                f"{p}: field 'operatives': entry {i + 1}: at most {2 * MAX_NAME_CHARS} "
                f"characters, got {len(entry)}"
            )
    try:
        if is_file_ref(team_ref, TEAM_FILE_SUFFIXES):  # a file, never a built-in name
            team = load_team(p.parent / team_ref)
        else:
            team = load_builtin_team(team_ref)
    except TeamFileError as exc:
        raise TeamFileError(f"{p}: field 'team': {exc}") from None
    try:
        roster = Roster.from_entries(team, ops)
    except ValueError as exc:
        raise TeamFileError(f"{p}: field 'operatives': {exc}") from None
    try:
        choices = choice_table(data.get("choices", {}), "choices")
        per_op = data.get("operative_choices", [])
        if not isinstance(per_op, list):
            raise ValueError("field 'operative_choices': one object per operative, in order")
        op_choices = [choice_table(v, f"operative_choices[{k}]") for k, v in enumerate(per_op)]
    except ValueError as exc:
        raise TeamFileError(f"{p}: {exc}") from None
    roster = roster.with_choices(choices, op_choices)
    if validate:
        problems = roster.validate()
        if problems:
            field = "choices" if all(x.startswith("choice:") for x in problems) else "operatives"
            raise TeamFileError(f"{p}: field {field!r}: " + "; ".join(problems))
    return roster


def choice_table(value: Any, field: str) -> dict[str, tuple[str, ...]]:
    """A table of roster-time choices as a file gives it (``{"Mark of Chaos": "Khorne"}``,
    ``{"Chapter Tactics": ["Aggressive", "Hardy"]}``): choice name -> option names.

    Raises:
        ValueError: naming ``field``, when it is not an object of text or lists of text.
    """
    if not isinstance(value, Mapping):
        raise ValueError(f"field {field!r}: an object of choice name -> option name(s)")
    out: dict[str, tuple[str, ...]] = {}
    for k, v in value.items():
        vals = (v,) if isinstance(v, str) else v
        if (
            not isinstance(k, str)
            or not isinstance(vals, list | tuple)
            or not all(isinstance(x, str) and len(x) <= MAX_NAME_CHARS for x in vals)
            or len(vals) > MAX_ROSTER_OPERATIVES
            or len(k) > MAX_NAME_CHARS
        ):
            raise ValueError(
                f"field {field!r}: choice {brief(k)}: an option name or a list of option names"
            )
        out[k] = tuple(vals)
    return out
