"""The ``killteam`` command line: thin over the library, one module per command.

- ``killteam play`` / ``replay`` / ``batch`` (:mod:`engine.cli.play`, :mod:`engine.cli.replay`,
  :mod:`engine.cli.batch`, sharing the matchup options of :mod:`engine.cli.options`): whole
  battles, over :mod:`engine.play`, :mod:`engine.batch` and :mod:`engine.verify`.
- ``killteam calc shoot|fight`` (:mod:`engine.cli.calc`): exact dice odds (:mod:`engine.dice`).
- ``killteam render`` (:mod:`engine.cli.render`): a picture of a killzone, or of a scenario's
  or a record's position.
- ``killteam view`` (:mod:`engine.cli.view`): one HTML page stepping through a record or a
  scenario file (:mod:`engine.play.viewer`).
- ``killteam explain`` (:mod:`engine.cli.explain`): a ruling and the rules behind it
  (:mod:`engine.explain`).
- ``killteam teams ...`` (:mod:`engine.cli.teams`): team data and dataset importers.
- ``killteam tournament`` (:mod:`engine.cli.tournament`): a round robin of agents or teams,
  rated (:mod:`engine.play.tournament`).

The group loads a command's module only when that command runs (or its help is shown), so
``killteam --help`` imports no part of the game and ``killteam play --help`` none of the rules.
Every command follows the same conventions (:mod:`engine.cli.common`): bad input exits with
status 2 and one line on standard error naming what is wrong, never a traceback; a misspelled
name (command, team, killzone, op, equipment, agent, weapon rule) is answered with the
closest known names; ``-q``/``--quiet`` prints only the results (no narration, no progress
bar) and ``--json`` only a JSON object; tables are as wide as the terminal, or 140 columns
when the output is not a terminal.

No module below the command line imports this package.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

import click

from engine import __version__
from engine.cli.common import SuggestingGroup, report_error
from engine.errors import KillTeamError

__all__ = ["COMMANDS", "cli", "main"]

#: The commands: name -> (module, attribute, one-line help). The help line is the first
#: sentence of the command's own help (a test checks it), written here so that listing the
#: commands loads none of them.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "batch": (
        "engine.cli.batch",
        "batch_command",
        "Play many seeded battles of one matchup in parallel and report A's win rate.",
    ),
    "calc": (
        "engine.cli.calc",
        "calc",
        "Exact dice odds for one shooting attack or one fight.",
    ),
    "explain": (
        "engine.cli.explain",
        "explain_command",
        "Explain a ruling: what happens here and why, with the rule section of each step "
        "(queries: target SHOOTER TARGET [WEAPON]; can OPERATIVE ACTION...; control MARKER; "
        "attack ATTACKER WEAPON TARGET [with DEFWEAPON]; event N).",
    ),
    "play": (
        "engine.cli.play",
        "play_command",
        "Play one whole battle and narrate it (default: the embedded default battle).",
    ),
    "render": (
        "engine.cli.render",
        "render_command",
        "Draw KILLZONE (a shipped layout name, or a layout file: a .toml or .json path) to a "
        "PNG or SVG picture; or the position of a scenario file (.toml, --step N) or of a "
        "game record (.jsonl, --at N).",
    ),
    "replay": (
        "engine.cli.replay",
        "replay_command",
        "Re-play a game record, narrate it and check it reproduces the recorded states (with "
        "--verify: also its dice, its agents' decisions and its built-in team data, so a "
        "record from another player can be trusted); or run a scenario file (.toml), narrate "
        "each step and check its expectations.",
    ),
    "view": (
        "engine.cli.view",
        "view_command",
        "Write one self-contained HTML page that steps through a game record (.jsonl) or a "
        "scenario file (.toml): board, moves, dice, narration with rule sections, VP.",
    ),
    "tournament": (
        "engine.cli.tournament",
        "tournament_command",
        "Play a seat-balanced round robin of agents or teams and rate them (Bradley-Terry, Elo "
        "scale, 95% intervals).",
    ),
    "teams": (
        "engine.cli.teams",
        "teams",
        "Built-in teams, team files and dataset importers.",
    ),
}


class CommandGroup(SuggestingGroup):
    """The ``killteam`` group: its commands are loaded from :data:`COMMANDS` on demand."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The command names, sorted."""
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command called ``cmd_name`` (its module imported now), or ``None``."""
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        command = getattr(importlib.import_module(entry[0]), entry[1])
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The "Commands" section of the help, from :data:`COMMANDS` (no command loaded)."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = [(n, click.Command(n, help=COMMANDS[n][2]).get_short_help_str(limit)) for n in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=CommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="killteam")
def cli() -> None:
    """Kill Team (2024) rules engine: whole battles (play, replay, batch), exact dice odds,
    killzone pictures and team data."""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``killteam`` console script.

    Returns the exit status: 0 on success, 2 on bad input or a file that cannot be read or
    written (one line on standard error, never a traceback; control characters of the names
    and paths it quotes shown as escapes, :func:`engine.terminal.printable`), 1 when a record
    does not replay or a scenario's expectations fail, 130 when interrupted
    (:func:`engine.cli.common.report_error`).
    """
    try:
        cli.main(
            args=list(argv) if argv is not None else None,
            prog_name="killteam",
            standalone_mode=False,
        )
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        return 0
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except (click.ClickException, click.exceptions.Abort, KillTeamError, OSError) as exc:
        return report_error(exc)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
