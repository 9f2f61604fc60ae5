"""User text printed by every command is shown as written and never drives the terminal.

Team, operative, weapon, ploy and killzone names, summaries, scenario and step names, a
record's agent names and file paths come from files the user (or anyone who sent them a
file) wrote. Each test feeds one command such text, made to pass input validation, holding
``rich`` markup (``[/bold]``, a ``[link=...]`` hyperlink, ``[blink]``) and, where the field
allows control characters, terminal escape sequences (an OSC window-title sequence ending in
BEL, a CSI clear-screen, an 8-bit CSI). The command must succeed, print the markup as literal
text, and print no control character: each is shown as its escape (``\\x1b``), as
:mod:`engine.terminal` documents.

Standard output is not a terminal here, so ``click.echo`` would strip plain CSI sequences on
its own; the OSC sequence and the 8-bit CSI are what it leaves, and what these tests look for.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import engine.cli.teams as cli_teams
from engine.cli import main
from engine.teams import load_builtin_team
from engine.teams.io import load_team
from engine.terminal import echo, markup, printable
from tests.test_import_killteamjson import _fixture

ROOT = Path(__file__).resolve().parents[1]

MARKUP = "[/bold] [link=http://x]y[/link] [blink]z[/blink]"
"""Markup that raises ``MarkupError`` (an unmatched closing tag), makes a hyperlink and
blinks when ``rich`` parses it."""

ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x9b31m"
"""Set the window title (OSC ... BEL), clear the screen (CSI 2J), turn text red (8-bit CSI)."""

ESCAPES_SHOWN = r"\x1b]0;pwned\x07\x1b[2J\x9b31m"
"""How :func:`engine.terminal.printable` shows :data:`ESCAPES`: each control character as
its Python escape."""

CONTROLS = ("\x1b", "\x07", "\x9b")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _assert_literal(text: str, *, escapes: bool = True) -> None:
    """``text`` shows :data:`MARKUP` as written, (with ``escapes``) :data:`ESCAPES` as its
    visible escapes, and holds no control character but newlines."""
    for part in ("[/bold]", "[link=http://x]y[/link]", "[blink]z[/blink]"):
        assert part in text, part
    if escapes:
        assert ESCAPES_SHOWN in text
    _assert_no_controls(text)


def _assert_no_controls(text: str) -> None:
    """``text`` holds none of :data:`CONTROLS` (each control character shown as an escape)."""
    for ch in CONTROLS:
        assert ch not in text, repr(ch)


def _hostile_team(path: Path) -> Path:
    """A copy of the built-in Kasrkin (same id, so its rules still apply) whose team name,
    a weapon name and a ploy name hold :data:`MARKUP` and whose faction and a ploy summary
    hold :data:`ESCAPES` (names may not hold control characters, other text may)."""
    data: dict[str, Any] = json.loads((ROOT / "teams" / "kasrkin.json").read_text("utf-8"))
    data["name"] = f"Kas {MARKUP}"
    data["faction"] = f"F {ESCAPES}"
    data["ploys"][0]["name"] = f"Ploy {MARKUP}"
    data["ploys"][0]["summary"] = f"S {ESCAPES}"
    medic = next(op for op in data["operatives"] if op["name"] == "Kasrkin Combat Medic")
    assert not medic.get("loadouts")  # its weapon names are not named by loadout options
    medic["weapons"][0]["name"] += f" {MARKUP}"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _hostile_killzone(path: Path) -> Path:
    """A copy of the shipped open ruins whose layout name and an objective marker's name hold
    :data:`MARKUP` and :data:`ESCAPES` (layout names may hold any text)."""
    text = (ROOT / "killzones" / "open_ruins.toml").read_text("utf-8")
    text = text.replace('name = "open_ruins"', f"name = {json.dumps('KZ ' + MARKUP + ESCAPES)}")
    text = text.replace('name = "centre"', f"name = {json.dumps('centre ' + ESCAPES)}")
    path.write_text(text, encoding="utf-8")
    return path


# -------------------------------------------------------------------------------------------
# the helper
# -------------------------------------------------------------------------------------------


def test_printable_shows_control_characters_as_escapes_and_keeps_newlines() -> None:
    """ESC, BEL, the 8-bit CSI, tab, carriage return, DEL and a bidi override each become
    their Python escape (so nothing reaches the terminal as a control), the newline stays,
    and text without them is returned as it is."""
    assert printable(ESCAPES) == ESCAPES_SHOWN
    assert printable("a\tb\rc\x7fd\u202ee\nf") == "a\\tb\\rc\\x7fd\\u202ee\nf"
    plain = "Kasrkin Gunner [Meltagun] 3/4 é 😀"
    assert printable(plain) is plain
    assert printable(7) == "7"


def test_markup_is_read_back_by_rich_as_the_text_given() -> None:
    """:func:`markup` escapes markup, so ``rich`` prints the text given, even a trailing
    backslash next to a closing tag of ours."""
    from rich.console import Console

    console = Console(width=200, emoji=False, color_system=None)
    for text in (MARKUP, "tail\\", "[bold]x[/]", "a [b] c"):
        with console.capture() as captured:
            console.print(f"[bold]{markup(text)}[/bold]")
        assert captured.get() == text + "\n"


def test_echo_prints_printable_text(capsys: pytest.CaptureFixture[str]) -> None:
    """:func:`echo` is ``click.echo`` of :func:`printable` text, to standard output or
    error."""
    echo(f"x{ESCAPES}")
    echo(f"y{ESCAPES}", err=True)
    out, err = capsys.readouterr()
    assert out == f"x{ESCAPES_SHOWN}\n" and err == f"y{ESCAPES_SHOWN}\n"


# -------------------------------------------------------------------------------------------
# killteam teams
# -------------------------------------------------------------------------------------------


def test_teams_show_prints_hostile_team_text_literally(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The team name is printed inside our bold markup, the weapon and ploy names in table
    cells, the faction and a ploy summary hold escape sequences: all are printed as written
    (before, the unmatched ``[/bold]`` raised ``MarkupError``)."""
    team = _hostile_team(tmp_path / "kas.json")
    code, out, _ = _run(capsys, "teams", "show", str(team))
    assert code == 0
    _assert_literal(out)
    assert f"Kas {MARKUP} (kasrkin) - F {ESCAPES_SHOWN}" in out
    assert f"Hot-Shot Lasgun {MARKUP}" in out
    assert f"Ploy {MARKUP}" in out


def test_teams_rules_prints_hostile_team_and_rule_names_literally(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The table title names the team and a row names the renamed ploy (a rule): both as
    written."""
    team = _hostile_team(tmp_path / "kas.json")
    code, out, _ = _run(capsys, "teams", "rules", str(team))
    assert code == 0
    _assert_literal(out, escapes=False)
    assert f"Kas {MARKUP}: team rules" in out
    assert "Ploy [/bold] [link=http://x]y[/link]" in out  # the column is cut after that


def test_teams_list_prints_hostile_team_text_literally(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``teams list`` prints built-in teams only; with one replaced by the hostile team (the
    package data a user could edit in place), its name and faction are printed as written."""
    hostile = load_team(_hostile_team(tmp_path / "kas.json"))
    monkeypatch.setattr(cli_teams, "builtin_teams", lambda: ["kasrkin"])
    monkeypatch.setattr(cli_teams, "load_builtin_team", lambda _id: hostile)
    code, out, _ = _run(capsys, "teams", "list")
    assert code == 0
    # The table wraps the long cells (and folds the escapes): each part is intact.
    for part in ("[/bold]", "[link=http://x]y[/link]", "[blink]z[/blink]", r"\x1b]0;pwned\x07"):
        assert part in out, part
    _assert_no_controls(out)


def test_teams_import_prints_hostile_dataset_text_and_paths_literally(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A dataset's weapon rule name (quoted by the import report) and the output folder (a
    path in the ``wrote`` lines) hold escape sequences: printed as their escapes."""
    data = _fixture()
    data["weapon_rules"][0]["name"] = f"Rusty {ESCAPES}"
    en = tmp_path / "ds" / "en" / "teams"
    en.mkdir(parents=True)
    (en / "TEST-BW.json").write_text(json.dumps(data), encoding="utf-8")
    out_dir = tmp_path / f"out{ESCAPES}"
    code, out, _ = _run(
        capsys,
        "teams",
        "import",
        str(tmp_path / "ds"),
        "--format",
        "killteamjson",
        "-o",
        str(out_dir),
    )
    assert code == 0
    assert f"wrote {printable(out_dir / 'brass_wardens.json')}" in out
    assert f"Rusty {ESCAPES_SHOWN}" in out
    _assert_no_controls(out)


def test_an_error_naming_a_hostile_path_is_one_printable_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An error message quoting a path (here a team file that does not exist) is one line
    on standard error with the path's control characters shown as escapes."""
    missing = tmp_path / f"no{ESCAPES}such.json"
    code, _, err = _run(capsys, "teams", "show", str(missing))
    assert code == 2
    assert err.startswith("killteam: error: ") and err.count("\n") == 1
    assert ESCAPES_SHOWN in err
    _assert_no_controls(err)


# -------------------------------------------------------------------------------------------
# killteam play / replay / batch
# -------------------------------------------------------------------------------------------


def test_play_prints_hostile_team_and_killzone_text_literally(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole battle with the hostile team on the hostile killzone: the notes on standard
    error (the renamed ploy is a rule the engine does not know), the header, the narration
    and the summary tables print the names as written, the ``wrote`` line the record's path
    as its escapes (before, the summary raised ``MarkupError`` after the whole battle)."""
    monkeypatch.chdir(tmp_path)
    team = _hostile_team(tmp_path / "kas.json")
    kz = _hostile_killzone(tmp_path / "kz.toml")
    record = f"rec{ESCAPES}.jsonl"
    code, out, err = _run(
        capsys,
        "play",
        "--teams",
        str(team),
        "legionaries",
        "--killzone",
        str(kz),
        "--agents",
        "random",
        "--record",
        record,
    )
    assert code == 0, err
    _assert_literal(out)
    assert out.splitlines()[0].startswith(
        f"Kas {MARKUP} (A, random) v Legionaries (B, random) on KZ {MARKUP}{ESCAPES_SHOWN}, "
    )
    summary = out[out.index("Victory points") :]
    assert f"A Kas {MARKUP}" in summary  # the operatives-left table's column header
    assert f"wrote {printable(record)}" in out
    assert f"Ploy {MARKUP}" in err
    _assert_no_controls(err)


def test_replay_of_an_edited_record_prints_its_text_literally(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record of the hostile battle whose header's agent names were edited (they are in no
    content hash) to hold markup and escape sequences replays: the header line and the
    summary print the team, killzone and agent names as written."""
    team = _hostile_team(tmp_path / "kas.json")
    kz = _hostile_killzone(tmp_path / "kz.toml")
    record = tmp_path / "rec.jsonl"
    code, _, err = _run(
        capsys,
        "play",
        "--teams",
        str(team),
        "legionaries",
        "--killzone",
        str(kz),
        "--agents",
        "random",
        "--quiet",
        "--record",
        str(record),
    )
    assert code == 0, err
    lines = record.read_text("utf-8").splitlines()
    header = json.loads(lines[0])
    agent = f"[/bold][blink]z[/blink]{ESCAPES}"  # at most 64 characters
    header["agents"] = {"A": agent, "B": "random"}
    lines[0] = json.dumps(header, sort_keys=True, separators=(",", ":"))
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = _run(capsys, "replay", str(record))
    assert code == 0, err
    _assert_literal(out)
    shown = f"[/bold][blink]z[/blink]{ESCAPES_SHOWN}"
    assert f"Kas {MARKUP} (A, {shown}) v Legionaries (B, random)" in out
    assert "replay OK" in out


def test_replay_of_a_scenario_file_prints_its_names_literally(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A scenario's title and a step's name hold markup and escape sequences: the narration
    prints them as written and the scenario still passes."""
    text = (ROOT / "scenarios" / "edge_05_counteract_eligibility.toml").read_text("utf-8")
    for rel in ("killzones/range.toml", "teams/probe.json", "teams/target.json"):
        text = text.replace(f'"{rel}"', json.dumps(str(ROOT / "scenarios" / rel)))
    text = text.replace(
        'name = "Counteract: who', f"name = {json.dumps('Title ' + MARKUP + ESCAPES)[:-1]}", 1
    )
    text = text.replace(
        'name = "PRO-1 activates and shoots"', f"name = {json.dumps('Step ' + ESCAPES)}", 1
    )
    path = tmp_path / "hostile.toml"
    path.write_text(text, encoding="utf-8")
    code, out, err = _run(capsys, "replay", str(path))
    assert code == 0, err
    _assert_literal(out)
    assert f"Title {MARKUP}{ESCAPES_SHOWN}" in out
    assert f"-- step 1: Step {ESCAPES_SHOWN}" in out
    assert "scenario OK" in out


def test_batch_prints_hostile_team_and_killzone_text_literally(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``batch``'s header line and its means table print the hostile names as written."""
    team = _hostile_team(tmp_path / "kas.json")
    kz = _hostile_killzone(tmp_path / "kz.toml")
    code, out, err = _run(
        capsys,
        "batch",
        "--teams",
        str(team),
        "legionaries",
        "--killzone",
        str(kz),
        "--agents",
        "random",
        "--games",
        "1",
        "--workers",
        "1",
    )
    assert code == 0, err
    _assert_literal(out)
    assert out.startswith(f"Kas {MARKUP} (A, random) v Legionaries (B, random) on KZ {MARKUP}")
    means = out[out.index("Means per game") :]
    assert "[/bold]" in means


# -------------------------------------------------------------------------------------------
# killteam calc / render
# -------------------------------------------------------------------------------------------


def test_calc_prints_a_team_weapon_rule_literally(capsys: pytest.CaptureFixture[str]) -> None:
    """A team weapon rule (``*``) is free text: ``calc shoot`` echoes it in its bold header
    as written (before, ``[blink]`` made it blink and ``[/bold]`` raised ``MarkupError``)."""
    for rule in ("[blink]z[/blink]*", "[/bold]*"):
        code, out, err = _run(
            capsys, "calc", "shoot", "-a", "4", "--hit", "3+", "-d", "3/4", "--save", "3+",
            "-w", "10", "-r", rule,
        )  # fmt: skip
        assert code == 0, err
        assert out.startswith(f"4 attacks, Hit 3+, damage 3/4, {rule} against Save 3+")


def test_render_prints_a_hostile_output_path_as_escapes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``render`` of the hostile killzone to a file whose name holds escape sequences: the
    ``wrote`` line shows the path with its control characters as escapes."""
    kz = _hostile_killzone(tmp_path / "kz.toml")
    picture = tmp_path / f"board{ESCAPES}.svg"
    code, out, err = _run(capsys, "render", str(kz), "-o", str(picture))
    assert code == 0, err
    assert picture.exists()
    assert out == f"wrote {printable(picture)}\n"


def test_render_draws_names_as_written_not_as_mathtext(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Killzone and operative names holding matplotlib mathtext that does not parse
    (``$x^{$``) and control characters are drawn as text: the picture is written (before,
    mathtext raised a parse error and the command ended in a traceback)."""
    text = (ROOT / "killzones" / "open_ruins.toml").read_text("utf-8")
    text = text.replace('name = "open_ruins"', 'name = "KZ $\\\\frac{1}$ $x^{$"')
    text = text.replace('name = "centre"', f"name = {json.dumps('centre $x^{$' + ESCAPES)}")
    kz = tmp_path / "kz.toml"
    kz.write_text(text, encoding="utf-8")
    ops = tmp_path / "ops.json"
    entries = [
        {"name": "$x^{$", "player": "A", "x": 3, "y": 3},
        {"name": f"b{ESCAPES}", "player": "B", "x": 27, "y": 19},
    ]
    ops.write_text(json.dumps({"operatives": entries}), encoding="utf-8")
    picture = tmp_path / "board.svg"
    code, out, err = _run(
        capsys, "render", str(kz), "-o", str(picture), "--operatives", str(ops),
        "--sight", "$x^{$", f"b{ESCAPES}",
    )  # fmt: skip
    assert code == 0, err
    assert out == f"wrote {picture}\n"
    svg = (tmp_path / "board.svg").read_text("utf-8")
    assert "KZ $\\frac{1}$ $x^{$" in svg  # the title, drawn as text (fonttype none)
    assert f"$x^{{$ -&gt; b{ESCAPES_SHOWN}:" in svg  # the sight caption
    _assert_no_controls(svg)


def test_hostile_team_file_is_a_valid_team(tmp_path: Path) -> None:
    """The hostile team passes every check of the team loader (so the tests above exercise
    the printing, not an input error), and keeps the built-in team's operatives."""
    team = load_team(_hostile_team(tmp_path / "kas.json"))
    assert team.name == f"Kas {MARKUP}" and team.faction == f"F {ESCAPES}"
    assert [o.name for o in team.operatives] == [
        o.name for o in load_builtin_team("kasrkin").operatives
    ]
