"""Checks of the command line's output paths, made before any work is done.

Every option that names a file or folder the command will write (``play --record``,
``--picture``, ``--picture-each-tp``, ``batch --output``, ``render --output``, ``teams import
--output``) is checked when the arguments are parsed, before a battle is played or a dataset
read, so a bad path fails at once with exit status 2 and one line, and nothing is created:

- an output **file**: the path is not a folder; its folder exists, is a folder (not a regular
  file: ``file.txt/board.png`` is refused) and is writable; an existing file there is
  writable; pictures end in ``.png`` or ``.svg``. JSON Lines outputs (records, batch lines)
  accept any suffix.
- an output **folder** (created when the command writes into it, with its missing parents):
  it is a writable folder if it exists; otherwise its nearest existing ancestor is a writable
  folder.

A path holding NUL, or too long for the file system, is refused the same way.

An **input** path a command reads as a file or a folder (``teams import PATH``, ``teams
compare``) is checked the same way by :func:`input_path`: a missing path, and anything that
is neither a folder nor a regular file (a device, a FIFO, a socket: a FIFO would block the
reader), are refused at once. Input files are otherwise checked where they are read
(:func:`engine.inputs.open_input`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from engine.inputs import file_kind, kind_message

__all__ = [
    "PICTURE_SUFFIXES",
    "check_input_path",
    "check_output_file",
    "check_output_folder",
    "input_path",
    "output_file",
    "output_folder",
]

#: Picture formats (as in :data:`engine.geometry.render.SUFFIXES`; matplotlib is imported only
#: when a picture is drawn, so the other commands start faster).
PICTURE_SUFFIXES = (".png", ".svg")


def _fail(option: str, message: str) -> click.BadParameter:
    return click.BadParameter(message, param_hint=option)


def _stat_kind(path: Path) -> str:
    """``"missing"``, ``"folder"`` or ``"file"`` (anything that is not a folder)."""
    try:
        if path.is_dir():
            return "folder"
        return "file" if path.exists() else "missing"
    except OSError as exc:  # e.g. a name too long for the file system
        raise ValueError(exc.strerror or type(exc).__name__) from None


def _nearest_existing(path: Path) -> tuple[Path, str]:
    """The nearest existing ancestor of ``path`` (``path`` itself excluded) and its kind."""
    for parent in path.parents:
        kind = _stat_kind(parent)
        if kind != "missing":
            return parent, kind
    return Path("."), "folder"  # pragma: no cover - the root always exists


def _writable_folder(option: str, value: str, folder: Path) -> None:
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _fail(option, f"{value}: cannot write into the folder {str(folder)!r}")


def _created(folder: Path, created: Sequence[Path]) -> bool:
    """Whether ``folder`` is one of ``created`` (compared as absolute paths)."""
    here = os.path.abspath(folder)
    return any(here == os.path.abspath(c) for c in created)


def check_output_file(
    value: str,
    option: str,
    suffixes: Sequence[str] | None = None,
    created: Sequence[Path] = (),
) -> Path:
    """Check that ``value`` can be written as a file, without creating anything.

    Args:
        value: the path given on the command line.
        option: the option's name for the message (``"--picture"``).
        suffixes: the accepted suffixes of a picture (lower case, e.g. ``(".png", ".svg")``),
            or ``None`` for any.
        created: folders the command creates (checked with :func:`check_output_folder`)
            before it writes this file: a file directly inside one of them may have a missing
            folder, as long as its nearest existing ancestor is a writable folder.

    Returns:
        ``Path(value)``.

    Raises:
        click.BadParameter: naming the option, the path and what is wrong.
    """
    if "\0" in value or not value:
        raise _fail(option, f"{value!r} is not a file path")
    if value.endswith(("/", os.sep)):
        raise _fail(option, f"{value} names a folder, not a file")
    path = Path(value)
    if suffixes is not None and path.suffix.lower() not in suffixes:
        shown = path.suffix.lower() or "no suffix"
        raise _fail(option, f"{value}: cannot render to {shown!r} (use {' or '.join(suffixes)})")
    try:
        kind = _stat_kind(path)
        if kind == "folder":
            raise _fail(option, f"{value} is a folder, not a file")
        parent = path.parent
        parent_kind = _stat_kind(parent)
        if parent_kind == "missing":
            ancestor, ancestor_kind = _nearest_existing(path)
            if ancestor_kind == "file":
                raise _fail(option, f"{value}: {str(ancestor)!r} is a file, not a folder")
            if not _created(parent, created):
                raise _fail(option, f"{value}: no such folder {str(parent)!r}")
            parent = ancestor  # the folder the command creates its folders in
        if parent_kind == "file":
            raise _fail(option, f"{value}: {str(parent)!r} is a file, not a folder")
    except ValueError as exc:
        raise _fail(option, f"{value[:80]}: not a usable path ({exc})") from None
    _writable_folder(option, value, parent)
    if kind == "file" and not os.access(path, os.W_OK):
        raise _fail(option, f"{value}: the file exists and is not writable")
    return path


def check_output_folder(value: str, option: str) -> Path:
    """Check that ``value`` is, or can be created as, a writable folder, creating nothing.

    Raises:
        click.BadParameter: naming the option, the path and what is wrong (a regular file on
            the way, a folder that is not writable, an unusable path).
    """
    if "\0" in value or not value:
        raise _fail(option, f"{value!r} is not a folder path")
    path = Path(value)
    try:
        kind = _stat_kind(path)
        if kind == "file":
            raise _fail(option, f"{value} is a file, not a folder")
        if kind == "folder":
            existing = path
        else:
            existing, existing_kind = _nearest_existing(path)
            if existing_kind == "file":
                raise _fail(option, f"{value}: {str(existing)!r} is a file, not a folder")
    except ValueError as exc:
        raise _fail(option, f"{value[:80]}: not a usable path ({exc})") from None
    _writable_folder(option, value, existing)
    return path


def check_input_path(value: str | Path, option: str, what: str = "file or folder") -> Path:
    """Check that ``value`` is an existing folder or regular file, opening nothing.

    Args:
        value: the path given on the command line.
        option: the option's or argument's name for the message (``"PATH"``).
        what: what the path should be, for the message.

    Returns:
        ``Path(value)``.

    Raises:
        click.BadParameter: ``"x: no such file or folder"``, ``"/dev/null: is not a regular
            file (a character device), not a file or folder"`` (also a block device, a FIFO,
            a socket), or an unusable path (NUL, too long).
    """
    text = str(value)
    if "\0" in text or not text:
        raise _fail(option, f"{text!r} is not a path")
    try:
        kind = file_kind(text)
    except (OSError, ValueError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise _fail(option, f"{text[:80]}: not a usable path ({why})") from None
    if kind not in ("file", "folder"):
        raise _fail(option, f"{text}: {kind_message(kind, what)}")
    return Path(text)


def input_path(_ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """A click callback running :func:`check_input_path` on a value (``None`` passes)."""
    if value is not None:
        name = param.human_readable_name if isinstance(param, click.Argument) else _hint(param)
        check_input_path(value, name)
    return value


def output_file(
    suffixes: Sequence[str] | None = None,
) -> Callable[[click.Context, click.Parameter, str | None], str | None]:
    """A click callback running :func:`check_output_file` on an option's value (``None``
    passes)."""

    def callback(_ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        if value is not None:
            check_output_file(value, _hint(param), suffixes)
        return value

    return callback


def output_folder(_ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A click callback running :func:`check_output_folder` on an option's value."""
    if value is not None:
        check_output_folder(str(value), _hint(param))
    return value


def _hint(param: click.Parameter) -> str:
    opts = getattr(param, "opts", None) or [param.name or "value"]
    return str(max(opts, key=len))
