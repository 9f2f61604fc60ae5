"""What every ``killteam`` command shares: one console and table style, one error line, and a
command group that suggests the closest command for a misspelled one.

- :func:`console`: the ``rich`` console of every command's tables: as wide as the terminal
  when the stream is one, else :data:`WIDTH` columns (so output that goes to a file or a pipe
  is the same, byte for byte, on every machine); no highlighting, no soft wrap, no emoji
  codes (user text is printed as written, :mod:`engine.terminal`).
- :func:`table`: a ``rich`` table with the shared settings.
- :func:`report_error`: the one place an error becomes output: one line on standard error,
  ``<command>: error: <message>``, and the exit status (2 for bad input).
- :func:`quiet_option` and :func:`json_option`: ``-q``/``--quiet`` and ``--json``, with the
  same meaning on every command that has them.
- :class:`SuggestingGroup`: a :class:`click.Group` whose "no such command" error names the
  closest commands (:func:`engine.names.did_you_mean`).

This module imports neither ``rich`` nor any part of the engine until a command needs it, so
``killteam --help`` stays fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from engine.errors import KillTeamError
from engine.names import did_you_mean
from engine.terminal import printable

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

__all__ = [
    "QUIET_HELP",
    "WIDTH",
    "SuggestingGroup",
    "console",
    "converter",
    "error_line",
    "json_option",
    "quiet_option",
    "report_error",
    "table",
]

#: Width of ``rich`` output when the stream is not a terminal (deterministic tables).
WIDTH = 140

#: The exit status of bad input (a usage error, a file that cannot be read, a bad name).
BAD_INPUT = 2


#: What ``-q``/``--quiet`` means on every command that has it (play, replay, batch).
QUIET_HELP = "Print only the results: no narration, no progress bar."


def quiet_option(f: Any) -> Any:
    """Add ``-q``/``--quiet`` (:data:`QUIET_HELP`) as the ``quiet`` argument."""
    return click.option("--quiet", "-q", is_flag=True, help=QUIET_HELP)(f)


def json_option(what: str) -> Callable[[Any], Any]:
    """``--json`` (the ``as_json`` argument): print only ``what`` as one JSON object."""
    option: Callable[[Any], Any] = click.option(
        "--json", "as_json", is_flag=True, help=f"Print only {what} as JSON."
    )
    return option


def console(stderr: bool = False) -> Console:
    """The ``rich`` console of a command, on standard output (standard error when ``stderr``):
    the terminal's width on a terminal, else :data:`WIDTH` columns (module docstring)."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    return Console(
        file=stream,
        width=None if stream.isatty() else WIDTH,
        highlight=False,
        soft_wrap=False,
        emoji=False,
    )


def table(title: str | None = None, **settings: Any) -> Table:
    """A ``rich`` table with the shared settings; ``title`` (``rich`` markup: put user text
    through :func:`engine.terminal.markup`) and ``settings`` as :class:`rich.table.Table`."""
    from rich.table import Table

    return Table(title=title, **settings)


def error_line(message: str, where: str = "killteam") -> str:
    """``<where>: error: <message>`` on one line: runs of white space (click words some
    messages over several lines) become one space, and control characters of the names and
    paths it quotes are shown as escapes (:func:`engine.terminal.printable`)."""
    return printable(f"{where}: error: {' '.join(message.split())}")


def report_error(exc: BaseException) -> int:
    """Print the one line of ``exc`` on standard error and return the exit status.

    - a usage error (bad option, argument or name): ``killteam <command>: error: ...``, 2;
    - :class:`~engine.errors.KillTeamError` (bad input found by the library), or an
      :class:`OSError` (a file named on the command line that cannot be read or written,
      ``killteam: error: <file>: <reason>``): 2;
    - any other :class:`click.ClickException`: its own status (1: a record that does not
      replay, a scenario whose expectations fail);
    - :class:`click.exceptions.Abort` (interrupted): ``killteam: aborted``, 130.

    Raises:
        BaseException: ``exc`` itself, when it is none of these (a bug: its traceback).
    """
    if isinstance(exc, click.exceptions.UsageError):
        where = exc.ctx.command_path if exc.ctx is not None else "killteam"
        click.echo(error_line(exc.format_message(), where), err=True)
        return BAD_INPUT
    if isinstance(exc, click.ClickException):
        click.echo(error_line(exc.format_message()), err=True)
        return exc.exit_code
    if isinstance(exc, KillTeamError):
        click.echo(error_line(str(exc)), err=True)
        return BAD_INPUT
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename is not None else ""
        click.echo(error_line(f"{where}{exc.strerror or exc}"), err=True)
        return BAD_INPUT
    if isinstance(exc, click.exceptions.Abort):
        click.echo("killteam: aborted", err=True)
        return 130
    raise exc


class SuggestingGroup(click.Group):
    """A command group whose "no such command" error names the closest commands."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """As :meth:`click.Group.resolve_command`; an unknown command's usage error ends with
        ``did you mean 'X'?`` when some command is close (:func:`engine.names.did_you_mean`)."""
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            name = args[0] if args else ""
            hint = did_you_mean(name, self.list_commands(ctx))
            if not hint or not exc.message.startswith("No such command"):
                raise
            raise click.UsageError(exc.message.rstrip(".") + hint, ctx) from None


_T = TypeVar("_T")


def converter(
    parse: Callable[[str], _T], errors: type[Exception] = KillTeamError
) -> Callable[[click.Context, click.Parameter, str], _T]:
    """A click option callback reading the option's text with ``parse``; an ``errors``
    exception it raises becomes a :class:`click.BadParameter` with its message (exit status
    2, one line naming the option)."""

    def convert(_ctx: click.Context, _param: click.Parameter, value: str) -> _T:
        try:
            return parse(value)
        except errors as exc:
            raise click.BadParameter(str(exc)) from None

    return convert
