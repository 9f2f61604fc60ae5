"""The conventions every ``killteam`` command shares (``engine.cli``): a misspelled name is
answered with the closest known names, a flag means one thing on every command, help text is
plain text that points to no file outside the repository, errors are one line with status 2,
tables share one width rule, and ``--help`` imports no part of the game."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from engine.cli import COMMANDS, cli, main
from engine.cli.common import QUIET_HELP, WIDTH, console, report_error
from engine.errors import KillTeamError
from engine.names import did_you_mean

ROOT = Path(__file__).resolve().parents[1]


def _commands() -> Iterator[tuple[str, click.Command]]:
    """Every command and group of ``killteam`` with its path (``killteam teams show``)."""

    def walk(path: str, command: click.Command) -> Iterator[tuple[str, click.Command]]:
        yield path, command
        if isinstance(command, click.Group):
            ctx = click.Context(command)
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None
                yield from walk(f"{path} {name}", sub)

    yield from walk("killteam", cli)


def _error(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line ``killteam ARGS`` prints on standard error (status 2, nothing else)."""
    assert main(args) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    return lines[0]


@pytest.mark.parametrize(
    ("args", "suggestion"),
    [
        (["ply"], "'play'"),
        (["teams", "shw", "kasrkin"], "'show'"),
        (["calc", "shot"], "'shoot'"),
        (["play", "--teams", "kasrkn", "legionaries"], "'kasrkin'"),
        (["batch", "--teams", "kasrkin", "legionnaires"], "'legionaries'"),
        (["teams", "show", "kommando"], "'kommandos'"),
        (["teams", "rules", "pathfinder"], "'pathfinders'"),
        (["play", "--killzone", "open_ruin"], "'open_ruins'"),
        (["render", "close_quarter", "-o", "x.png"], "'close_quarters'"),
        (["play", "--crit-op", "Secur"], "'Secure'"),
        (["play", "--crit-op", "energy cell"], "'Energy Cells'"),
        (["play", "--tac-ops", "Rout", "Martyr"], "'Martyrs'"),
        (["play", "--equipment-a", "Mine"], "'Mines'"),
        (["play", "--teams", "kasrkin", "legionaries", "--equipment-b", "Malefic Blade"], None),
        (["batch", "--agents", "heuristc"], "'heuristic'"),
        (
            [
                *[
                    "calc",
                    "shoot",
                    "-a",
                    "4",
                    "--hit",
                    "3+",
                    "-d",
                    "3/4",
                    "--save",
                    "3+",
                    "-w",
                    "8",
                    "-r",
                ],
                "Pierce 1",
            ],
            "'Piercing'",
        ),
    ],
)
def test_misspelled_name_gets_did_you_mean(
    args: list[str], suggestion: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    """A misspelled command, team, killzone, op, equipment, agent or weapon rule name is
    refused with one line that names the closest known names (so a typo is fixed at once);
    the equipment of the other team's own is only suggested for that team."""
    line = _error(args, capsys)
    if suggestion is None:
        assert "did you mean 'Malefic Blades'?" in line, line
    else:
        assert f"did you mean {suggestion}" in line, line


def test_far_name_gets_no_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    """A name close to nothing gets no "did you mean" (never a random guess)."""
    line = _error(["play", "--teams", "zzzzzzzz", "legionaries"], capsys)
    assert "did you mean" not in line
    assert did_you_mean("zzzzzzzz", ["kasrkin"]) == ""
    assert did_you_mean("Kasrkn", ["kasrkin", "kommandos"]) == "; did you mean 'kasrkin'?"


def test_quiet_means_one_thing() -> None:
    """``-q`` is ``--quiet`` with one meaning (only the results: no narration, no progress
    bar) on every command that has it; before, it was "no narration" on play and replay but
    "no progress bar" on batch."""
    seen = []
    for path, command in _commands():
        for param in command.params:
            if isinstance(param, click.Option) and ("-q" in param.opts or "--quiet" in param.opts):
                assert sorted(param.opts) == ["--quiet", "-q"], path
                assert param.help == QUIET_HELP, path
                seen.append(path.split()[-1])
    assert sorted(seen) == ["batch", "play", "replay", "tournament"]


def test_short_flags_mean_one_thing() -> None:
    """Each short flag stands for the same long option on every command (``-o`` is always
    ``--output``, ``-n`` always ``--games``...), and ``--json`` is always a flag."""
    long_of: dict[str, tuple[str, str]] = {}
    for path, command in _commands():
        for param in command.params:
            if not isinstance(param, click.Option):
                continue
            longs = [o for o in param.opts if o.startswith("--")]
            if "--json" in longs:
                assert param.is_flag, path
            for short in (o for o in param.opts if not o.startswith("--")):
                assert longs, (path, short)
                first = long_of.setdefault(short, (longs[0], path))
                assert first[0] == longs[0], (short, first, path, longs[0])


def _help(path: str) -> str:
    result = CliRunner().invoke(cli, [*path.split()[1:], "--help"])
    assert result.exit_code == 0, result.output
    return result.output


#: Text of the documentation's markup that must not reach a terminal.
MARKUP = re.compile(r"``|:(func|mod|class|data|meth):|\[/?(b|bold|i|italic|link)[\] =]")


def test_help_is_plain_text_without_missing_files() -> None:
    """No command's ``--help`` shows reStructuredText or ``rich`` markup, or points to a file
    that is not in the repository (``rules/KT24.md``, ``../shared``, ``DESIGN.md``...)."""
    for path, _command in _commands():
        text = _help(path)
        assert MARKUP.search(text) is None, (path, MARKUP.search(text))
        assert "../" not in text, path
        for ref in re.findall(r"[\w./-]+\.md\b", text):
            assert (ROOT / ref).is_file(), (path, ref)


def test_command_list_is_each_command_help() -> None:
    """``killteam --help`` lists the commands without loading them (:data:`COMMANDS`): each
    line must be the command's own first sentence, and every command is listed."""
    ctx = click.Context(cli)
    assert sorted(cli.list_commands(ctx)) == sorted(COMMANDS)
    for name, (_module, _attr, summary) in COMMANDS.items():
        command = cli.get_command(ctx, name)
        assert command is not None
        assert command.get_short_help_str(limit=10_000) == summary, name


HEAVY = (
    "engine.agents",
    "engine.rules",
    "engine.game",
    "engine.geometry",
    "engine.missions",
    "engine.play.matchup",
    "engine.batch",
    "engine.verify",
    "shapely",
    "numpy",
    "matplotlib",
)


@pytest.mark.parametrize("args", [["--help"], ["play", "--help"], ["batch", "--help"]])
def test_help_imports_no_part_of_the_game(args: list[str]) -> None:
    """``killteam --help`` and a battle command's ``--help`` import none of the game, rules,
    agents or geometry (and neither numpy nor shapely): help answers at once."""
    code = (
        "import json, sys\n"
        "from engine.cli import main\n"
        f"status = main({args!r})\n"
        f"print(json.dumps([status, [m for m in {HEAVY!r} if m in sys.modules]]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    status, loaded = json.loads(out.splitlines()[-1])
    assert status == 0
    assert loaded == []


def test_report_error_is_one_line_with_status() -> None:
    """Every error reaches the user through one function: one line on standard error, status
    2 for bad input (1 for a replay that diverges, 130 when interrupted)."""
    runner = CliRunner()

    def report(exc: BaseException) -> tuple[int, str]:
        with runner.isolation() as (_out, err, *_rest):
            status = report_error(exc)
            return status, err.getvalue().decode()

    assert report(KillTeamError("bad\nname \x1b[2J")) == (
        2,
        "killteam: error: bad name \\x1b[2J\n",
    )
    assert report(FileNotFoundError(2, "No such file or directory", "x.json")) == (
        2,
        "killteam: error: x.json: No such file or directory\n",
    )
    assert report(click.UsageError("no such option")) == (2, "killteam: error: no such option\n")
    assert report(click.ClickException("does not replay")) == (
        1,
        "killteam: error: does not replay\n",
    )
    assert report(click.exceptions.Abort()) == (130, "killteam: aborted\n")


def test_tables_share_one_width_rule() -> None:
    """Every command draws its tables on :func:`engine.cli.common.console`: the terminal's
    width on a terminal, else :data:`engine.cli.common.WIDTH` columns (so output to a file is
    the same everywhere); no command module makes its own ``rich`` console."""
    assert console().width == WIDTH  # standard output is captured: not a terminal
    for path in (ROOT / "engine" / "cli").glob("*.py"):
        if path.name == "common.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = [
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.Call) and getattr(n.func, "id", "") in ("Console", "Table")
        ]
        assert calls == [], path.name


def test_nothing_below_the_command_line_imports_it() -> None:
    """The command line is the top layer: no module of the engine outside ``engine/cli/`` nor
    any team rule module imports ``engine.cli`` (not even inside a function)."""
    for folder in (ROOT / "engine", ROOT / "teams"):
        for path in folder.rglob("*.py"):
            if (ROOT / "engine" / "cli") in path.parents:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else []
                )
                for name in names:
                    assert not name.startswith("engine.cli"), (path, name)
