"""User text made safe to print on a terminal: the one rule every command's output follows.

Team, operative, weapon, rule and ploy names, summaries, killzone, feature and marker names,
scenario titles and step names, a record's agent names, file paths: anything that comes from
a file, a record or the command line is *user text*. Printed as it is, it could drive the
terminal. Every command therefore prints user text through this module:

- :func:`printable` replaces every character that is not printable text by its visible
  escape: the C0 and C1 control characters and DEL (``ESC`` of an ANSI escape sequence, the
  8-bit ``CSI``, ``BEL``, backspace, carriage return, tab...) and the Unicode bidirectional
  embeddings, overrides and isolates (which reorder the text shown around them); only the
  newline is kept. ``"\\x1b[2J"`` is printed as the eight characters ``\\x1b[2J``, so a name
  can neither clear the screen, set the window title, open a hyperlink nor hide text.
- :func:`markup` also escapes ``rich`` markup (:func:`rich.markup.escape`), for user text put
  inside a string that ``rich`` parses: ``console.print`` text, table titles and table cells
  given as strings. ``[/bold]`` in a team name is then printed as ``[/bold]`` (instead of a
  ``MarkupError``), ``[link=...]`` is no hyperlink and ``[blink]`` does not blink.
- :func:`add_row` adds a table row of text cells, each through :func:`markup`.
- :func:`echo` is :func:`click.echo` of :func:`printable` text (plain lines: narration,
  notes, reports, error messages).

The consoles of the commands are made with ``emoji=False``, so ``:smile:`` in a name stays
text too.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from rich.table import Table

__all__ = ["add_row", "echo", "markup", "printable"]

# C0 controls but the newline, DEL, C1 controls; the bidi embeddings/overrides (U+202A-U+202E)
# and isolates (U+2066-U+2069).
_UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _visible(match: re.Match[str]) -> str:
    ch = match.group()
    return ch.encode("unicode_escape").decode("ascii")  # "\x1b", "\t", "\u202e"


def printable(text: object) -> str:
    """``str(text)`` with every control character but the newline, and every bidirectional
    embedding, override or isolate, replaced by its Python escape (``ESC`` -> ``\\x1b``,
    tab -> ``\\t``, U+202E -> ``\\u202e``; module docstring).

    Text without such characters is returned unchanged (one regular-expression search).
    """
    s = str(text)
    if _UNSAFE.search(s) is None:
        return s
    return _UNSAFE.sub(_visible, s)


def markup(text: object) -> str:
    """:func:`printable` text with ``rich`` markup escaped, to put user text inside a string
    ``rich`` parses as markup (``console.print``, ``Table`` titles and string cells).

    ``"[/bold]"`` -> ``"\\[/bold]"``; printed, it reads ``[/bold]`` again.
    """
    from rich.markup import escape  # only here: a command that prints no markup loads no rich

    return escape(printable(text))


def echo(text: object, err: bool = False) -> None:
    """Print :func:`printable` ``text`` and a newline with :func:`click.echo` (to standard
    error when ``err``)."""
    click.echo(printable(text), err=err)


def add_row(table: Table, *cells: object) -> None:
    """Add a row to ``table`` whose cells are texts printed as written: each cell is
    ``str(cell)`` through :func:`markup` (a ``rich`` table parses string cells as markup)."""
    table.add_row(*(markup(c) for c in cells))
