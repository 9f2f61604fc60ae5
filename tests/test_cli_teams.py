"""The ``killteam teams`` commands end to end through ``engine.cli.main``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.teams import load_builtin_team, load_team, save_team
from tests.test_import_killteamjson import _fixture


def test_teams_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["teams", "list"]) == 0
    out = capsys.readouterr().out
    for name in ("kasrkin", "Angels of Death", "Hierotek Circle", "Kommandos", "Pathfinders"):
        assert name in out
    assert "LEGIONARY" in out


def test_teams_show_builtin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["teams", "show", "kasrkin"]) == 0
    out = capsys.readouterr().out
    for text in (
        "Kasrkin Sergeant",
        "Plasma Pistol (Supercharge)",
        "Lethal 5+",
        "Rapid Fire",
        "Tactical Command",
        "0AP",
        "Clearance Sweep",
        "strategy",
        "Foregrip",
        "Selection",
        "GUNNER",
    ):
        assert text in out, text


def test_teams_show_lists_wargear_options_and_limits(capsys: pytest.CaptureFixture[str]) -> None:
    # Kasrkin (1.2): the Sergeant picks one of four sets; each Gunner option is a line of
    # the list, so each is taken at most once; Gunners and the Sharpshooter are at most four
    # together.
    assert main(["teams", "show", "kasrkin"]) == 0
    lines = [line.strip("│ ") for line in capsys.readouterr().out.splitlines()]
    text = "\n".join(lines)
    assert "Wargear options: choose one" in text
    assert any(
        line.startswith("wargear │ Meltagun; Gun Butt") and line.endswith("at most 1")
        for line in lines
    )
    assert any(
        line.startswith("wargear │ Plasma Pistol; Chainsword") and line.endswith("-")
        for line in lines
    )
    assert "Roster entry, e.g.: Kasrkin Sergeant [Bolt Pistol; Power Weapon]" in text
    assert any(
        line.startswith("at most (option)") and "1 Kasrkin Gunner [Plasma Gun; Gun Butt]" in line
        for line in lines
    )
    assert any(
        line.startswith("at most (combined)")
        and "4 of Kasrkin Gunner, Kasrkin Sharpshooter together" in line
        for line in lines
    )
    # A type that carries every weapon on its card has no options table.
    assert text.count("Wargear options") == 2  # Sergeant and Gunner only


def test_teams_show_slot_per_line_options(capsys: pytest.CaptureFixture[str]) -> None:
    # Legionary Aspiring Champion: "one option from each of the following" is a slot per
    # line, so the entry names one option per slot joined by " + ".
    assert main(["teams", "show", "legionaries"]) == 0
    out = capsys.readouterr().out
    assert "Wargear options: one from each slot" in out
    assert "Roster entry, e.g.: Legionary Aspiring Champion [Plasma Pistol + Power Fist]" in out
    assert "│ melee  │ Tainted Chainsword  │ Tainted Chainsword  │ -     │" in out


def test_teams_show_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = save_team(load_builtin_team("kommandos"), tmp_path / "mine.json")
    assert main(["teams", "show", str(path)]) == 0
    assert "Kommando Boss Nob" in capsys.readouterr().out


def test_teams_import_killteamjson(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    en = tmp_path / "ds" / "en" / "teams"
    en.mkdir(parents=True)
    (en / "TEST-BW.json").write_text(json.dumps(_fixture()), encoding="utf-8")
    out_dir = tmp_path / "out"
    code = main(
        ["teams", "import", str(tmp_path / "ds"), "--format", "killteamjson", "-o", str(out_dir)]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "wrote" in out and "import report" in out and "Rusty" in out
    team = load_team(out_dir / "brass_wardens.json")
    assert team.operative("Warden Captain").wounds == 13


def _one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err and "Traceback" not in err
    return err


def test_teams_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "no built-in team 'nobody'" in _one_line_error(capsys, ["teams", "show", "nobody"])
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    assert str(bad) in _one_line_error(capsys, ["teams", "show", str(bad)])
    empty = tmp_path / "empty"
    empty.mkdir()
    err = _one_line_error(capsys, ["teams", "import", str(empty), "--format", "killteamjson"])
    assert "not a killteamjson checkout" in err
    err = _one_line_error(capsys, ["teams", "import", str(empty), "--format", "xml"])
    assert "--format" in err


def test_teams_import_bsdata_and_compare_fail_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whether or not the BSData importer exists yet, bad input gives one line, no traceback."""
    empty = tmp_path / "empty"
    empty.mkdir()
    for argv in (
        ["teams", "import", str(empty), "--format", "bsdata"],
        ["teams", "compare", str(empty), str(empty)],
    ):
        code = main(argv)
        captured = capsys.readouterr()
        assert "Traceback" not in captured.err
        if code != 0:
            assert len(captured.err.strip().splitlines()) == 1
