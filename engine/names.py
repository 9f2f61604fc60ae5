"""Built-in names versus file paths: the one rule every door applies; and :func:`slug`, the
one spelling of a name inside an id (team rule ids, team keys).

A team, killzone or roster argument is either a **file** or a **built-in name**:

- it is a file when its suffix is one of the file suffixes of its kind
  (``.json`` for team files; ``.toml`` or ``.json`` for killzone layouts); it is then opened as
  the path given (relative to the working folder, or to the file that names it);
- anything else is a built-in name, and it must be exactly one of the names shipped with the
  package (``killteam teams list``; the layouts in ``killzones/``). A name is only ever looked
  up in the list of shipped data files, never joined to a folder, so ``../x``, ``a/b``,
  ``a\\b``, absolute paths and names holding NUL are refused with an error listing the
  built-in names, and nothing outside the package data is opened.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import PurePath

from engine.errors import KillTeamError
from engine.inputs import excerpt

__all__ = [
    "KILLZONE_FILE_SUFFIXES",
    "TEAM_FILE_SUFFIXES",
    "check_builtin_name",
    "did_you_mean",
    "is_file_ref",
    "slug",
]

TEAM_FILE_SUFFIXES = (".json",)
"""Suffixes that make a team argument a file path (team files, killteamjson team files)."""

KILLZONE_FILE_SUFFIXES = (".toml", ".json")
"""Suffixes that make a killzone argument a file path (layout files)."""


def is_file_ref(ref: str, suffixes: Sequence[str]) -> bool:
    """Whether ``ref`` names a file: its suffix (``PurePath(ref).suffix``, case-sensitive) is
    one of ``suffixes``.

    A reference holding NUL is never a file (no file system accepts it); it is then checked
    as a name, which refuses it.
    """
    if "\0" in ref:
        return False
    return PurePath(ref).suffix in suffixes


def did_you_mean(name: object, known: Iterable[str]) -> str:
    """The suggestion to append to an "unknown name" message: ``"; did you mean 'X'?"`` (or
    ``'X' or 'Y'``) naming the known names closest to ``name`` (:func:`difflib.get_close_matches`,
    case and extra spaces ignored, at most three), or ``""`` when none is close or ``name``
    is not a string.

    ``did_you_mean("kasrkn", ["kasrkin", "legionaries"])`` is ``"; did you mean 'kasrkin'?"``.
    """
    if not isinstance(name, str) or not name.strip():
        return ""
    by_key: dict[str, str] = {}
    for k in known:
        by_key.setdefault(" ".join(k.lower().split()), k)
    key = " ".join(name.lower().split())
    close = difflib.get_close_matches(key, list(by_key), n=3, cutoff=0.6)
    if not close:
        return ""
    return "; did you mean " + " or ".join(f"'{by_key[c]}'" for c in close) + "?"


def check_builtin_name(
    name: str,
    known: Sequence[str],
    message: str,
    error: Callable[[str], KillTeamError],
) -> str:
    """``name`` itself when it is one of ``known`` (exact match); else raise.

    Args:
        name: the name given.
        known: the built-in names (sorted, as listed to the user).
        message: the error message, a template with ``{name}`` (replaced by ``name`` quoted
            and cut to a short excerpt) and ``{known}`` (the names, comma-separated).
        error: the error class to raise (a :class:`~engine.errors.KillTeamError` subclass).

    Raises:
        KillTeamError: (``error``) with ``message`` filled in, followed by the closest known
            names (:func:`did_you_mean`) when some are close.
    """
    if isinstance(name, str) and name in known:
        return name
    shown = excerpt(name) if isinstance(name, str) else repr(name)[:60]
    text = message.format(name=shown, known=", ".join(known) or "none")
    raise error(text + did_you_mean(name, known))


def slug(text: str) -> str:
    """``text`` in lower case with every run of other characters than ``a-z0-9`` one ``_``
    (``"Dark Gods' Favour"`` -> ``"dark_gods_favour"``; apostrophes are dropped; ``"_"`` when
    nothing is left). Team rule ids (:mod:`engine.rules.registry`) and team keys are made of
    slugs."""
    text = text.lower().replace("'", "").replace("\u2019", "")
    return re.sub(r"[^a-z0-9]+", "_", text).strip("_") or "_"
