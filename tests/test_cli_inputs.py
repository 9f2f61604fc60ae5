"""The command line's doors (issue 12, classes 8-10 and the option checks).

- Built-in names are names (``engine.names``): a team id or shipped layout name is looked up
  only in the package's own data, never joined to a folder, so ``../x``, ``a/b``, absolute
  paths and NUL are refused with a message listing the built-in names, and a decoy file
  placed next to (or above) the data folder is never read. A ``.json`` / ``.toml`` path stays
  a file, as the docs say.
- Output paths (``engine.cli.paths``) are checked when the options are parsed: a bad one
  fails with exit status 2 and one line before any battle is played, and nothing is created.
- Both importers exit 2 for a ``--team`` that matches nothing.
- Every numeric option is bounded.
- A sweep over every subcommand: malformed arguments give exit status 2 and exactly one line
  on standard error, never a traceback.
"""

from __future__ import annotations

import json
import shutil
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.batch
import engine.cli.options
import engine.cli.paths
import engine.cli.teams
import engine.geometry.model
import engine.play.battle
import engine.play.matchup
import engine.teams.io
from engine.cli import main
from engine.errors import KillTeamError
from engine.game.scenario_file import ScenarioFileError, scenario_from_dict, shipped_scenarios
from engine.geometry import KillzoneError, load_killzone
from engine.geometry.model import shipped_killzones
from engine.names import check_builtin_name, is_file_ref
from engine.teams import TeamFileError, builtin_teams, load_builtin_team, load_roster
from tests.test_import_bsdata import write_bsdata_fixture
from tests.test_import_killteamjson import _fixture
from tests.test_team_rules import _with_a_rule_left

TEAMS_DIR = Path(str(engine.teams.io._teams_dir()))
KILLZONES_DIR = Path(str(engine.geometry.model._shipped_dir()))

#: Names that are not built-in names: paths of every shape, NUL, near misses.
BAD_NAMES = [
    "../x",
    "../decoy",
    "..",
    ".",
    "a/b",
    "a\\b",
    "/etc/passwd",
    "kasrkin\0",
    "kasrkin/",
    "./kasrkin",
    "KASRKIN",
    " kasrkin",
    "",
    "x" * 5000,
]


def _one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str], code: int = 2) -> str:
    """Run ``killteam argv``: it exits ``code`` with exactly one line on standard error."""
    assert main(argv) == code
    captured = capsys.readouterr()
    err = captured.err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err
    return err.strip()


def _tree(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


# -------------------------------------------------------------------------------------------
# Built-in names are names
# -------------------------------------------------------------------------------------------


@pytest.fixture
def team_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the package's ``teams/`` at ``tmp/pkg/teams`` with valid decoy team files one
    and two levels above it (``tmp/pkg/decoy.json``, ``tmp/decoy.json`` and the same without
    suffix); ``load_builtin_team`` looks in the copy."""
    pkg = tmp_path / "pkg"
    (pkg / "teams").mkdir(parents=True)
    shutil.copy(TEAMS_DIR / "kasrkin.json", pkg / "teams" / "kasrkin.json")
    for decoy in (pkg / "decoy.json", pkg / "decoy", tmp_path / "decoy.json", tmp_path / "decoy"):
        shutil.copy(TEAMS_DIR / "legionaries.json", decoy)
    monkeypatch.setattr(engine.teams.io, "_teams_dir", lambda: pkg / "teams")
    return pkg / "teams"


@pytest.mark.parametrize("name", [*BAD_NAMES, "../decoy", "../../decoy", "kasrkin.json"])
def test_builtin_team_names_never_read_outside_the_data(team_data: Path, name: str) -> None:
    # The decoys are valid team files: had the name been joined to the folder, a team would
    # load. The message lists the built-in teams of the (copied) data folder.
    assert builtin_teams() == ["kasrkin"]
    with pytest.raises(TeamFileError, match=r"no built-in team .*\(built-in: kasrkin\)"):
        load_builtin_team(name)
    assert load_builtin_team("kasrkin").id == "kasrkin"


def test_builtin_team_of_another_type_is_refused() -> None:
    with pytest.raises(TeamFileError, match="no built-in team"):
        load_builtin_team(None)  # type: ignore[arg-type]


def test_roster_team_with_a_path_is_refused_but_a_json_file_loads(team_data: Path) -> None:
    # A roster's 'team' is a built-in id or a .json team file (relative to the roster).
    rosters = team_data.parent / "rosters"
    rosters.mkdir()
    bad = rosters / "bad.json"
    for ref in ("../decoy", "../../decoy", str(team_data.parent / "decoy")):
        bad.write_text(json.dumps({"team": ref, "operatives": []}), encoding="utf-8")
        with pytest.raises(TeamFileError, match=r"field 'team': no built-in team"):
            load_roster(bad, validate=False)
    good = rosters / "good.json"
    good.write_text(json.dumps({"team": "../decoy.json", "operatives": []}), encoding="utf-8")
    assert load_roster(good, validate=False).team.id == "legionaries"


@pytest.fixture
def layout_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of ``killzones/`` holding only open_ruins, with valid decoy layouts above it."""
    pkg = tmp_path / "pkg"
    (pkg / "killzones").mkdir(parents=True)
    shutil.copy(KILLZONES_DIR / "open_ruins.toml", pkg / "killzones" / "open_ruins.toml")
    for decoy in (pkg / "decoy.toml", pkg / "decoy", tmp_path / "decoy.toml", tmp_path / "decoy"):
        shutil.copy(KILLZONES_DIR / "close_quarters.toml", decoy)
    monkeypatch.setattr(engine.geometry.model, "_shipped_dir", lambda: pkg / "killzones")
    return pkg / "killzones"


@pytest.mark.parametrize("name", [*BAD_NAMES, "../../decoy", "open_ruins.txt"])
def test_killzone_names_never_read_outside_the_data(layout_data: Path, name: str) -> None:
    assert shipped_killzones() == ["open_ruins"]
    with pytest.raises(KillzoneError, match=r"no such killzone file .*open_ruins"):
        load_killzone(name)
    with pytest.raises(KillzoneError):
        load_killzone(str(layout_data.parent / "decoy"))  # absolute, but not a layout file
    assert load_killzone("open_ruins").name == "open_ruins"


def test_killzone_files_given_as_files_still_load(layout_data: Path) -> None:
    # The docs accept a layout FILE: a .toml path that exists loads, wherever it is.
    assert load_killzone(str(layout_data.parent / "decoy.toml")).name == "close_quarters"
    assert load_killzone(layout_data.parent / "decoy.toml").name == "close_quarters"
    with pytest.raises(KillzoneError, match="no such killzone file"):
        load_killzone(str(layout_data / "missing.toml"))
    with pytest.raises(KillzoneError, match="no such killzone file"):
        load_killzone("x" * 5000 + ".toml")  # too long for the file system: still one error


def test_scenario_killzone_and_team_names_are_names(layout_data: Path) -> None:
    source = shipped_scenarios()[0]
    data: dict[str, Any] = tomllib.loads(source.read_text(encoding="utf-8"))
    for value in ("../decoy", "../../decoy", str(layout_data.parent / "decoy")):
        bad = dict(data, killzone=value)
        with pytest.raises(ScenarioFileError, match=r"killzone.*no such killzone file"):
            scenario_from_dict(bad, "scenario.toml", source.parent)
    teams = dict(data["teams"], A=dict(data["teams"]["A"], team="../decoy"))
    with pytest.raises(ScenarioFileError, match=r"teams.A.team.*no built-in team"):
        scenario_from_dict(dict(data, teams=teams), "scenario.toml", source.parent)


@given(st.text(max_size=40))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_text_is_a_builtin_name_or_the_documented_error(text: str) -> None:
    # Either one of the names shipped or TeamFileError / KillzoneError; never another error,
    # and never a file outside the package data.
    if text in builtin_teams():
        assert load_builtin_team(text).id == text
    else:
        with pytest.raises(TeamFileError):
            load_builtin_team(text)
    if not is_file_ref(text, (".toml", ".json")):
        if text in shipped_killzones():
            assert load_killzone(text).name == text
        else:
            with pytest.raises(KillzoneError):
                load_killzone(text)


def test_the_name_rule() -> None:
    assert is_file_ref("a.json", (".json",)) and is_file_ref("../a.json", (".json",))
    assert not is_file_ref("../a", (".json",)) and not is_file_ref("a.json\0", (".json",))
    assert not is_file_ref("a.JSON", (".json",))  # suffixes are compared as written
    with pytest.raises(KillTeamError, match=r"^no 'x' \(a, b\)$"):
        check_builtin_name("x", ["a", "b"], "no {name} ({known})", KillTeamError)
    with pytest.raises(KillTeamError) as info:
        check_builtin_name("y" * 5000, ["a"], "{name}", KillTeamError)
    assert len(str(info.value)) < 80  # a long name is quoted as a short excerpt


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--teams", "../x", "kasrkin"], "player A: ../x: not a built-in team (angels"),
        (["play", "--teams", "kasrkin", "/etc/passwd"], "B: /etc/passwd: not a built-in team"),
        (["batch", "--teams", "a\\b", "kasrkin"], "a\\b: not a built-in team"),
        (["play", "--teams", "x\0", "kasrkin"], "'x\\x00': not a built-in team"),
        (["play", "--teams", "x" * 5000, "kasrkin"], "xxx...': not a built-in team"),
        (["play", "--teams", "kasrkin", "{0}{known}"], "B: {0}{known}: not a built-in team"),
        (["teams", "show", "{name}"], "no built-in team '{name}' (built-in: angels"),
        (["render", "{0}", "-o", "b.png"], "'{0}': no such killzone file or shipped layout"),
        (["play", "--killzone", "../x"], "no such killzone file or shipped layout"),
        (["batch", "--killzone", "/etc/passwd"], "shipped layouts: close_quarters, open_ruins"),
        (["render", "../open_ruins", "-o", "b.png"], "no such killzone file or shipped layout"),
        (["teams", "show", "../x"], "no built-in team '../x'"),
        (["teams", "rules", "../kasrkin"], "no built-in team '../kasrkin'"),
        (["teams", "show", "kasrkin/"], "a team file must end in .json"),
    ],
)
def test_cli_names_with_paths_are_refused(
    argv: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert message in _one_line_error(capsys, argv)
    assert _tree(tmp_path) == []


def test_cli_team_file_paths_still_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(TEAMS_DIR / "kommandos.json", tmp_path / "mine.json")
    assert main(["teams", "show", str(tmp_path / "mine.json")]) == 0
    assert "Kommando Boss Nob" in capsys.readouterr().out


# -------------------------------------------------------------------------------------------
# Output paths are checked before the battle
# -------------------------------------------------------------------------------------------


def _never(what: str) -> Any:
    def called(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError(f"{what} before the bad input was reported")

    return called


@pytest.fixture
def no_battle(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail the test if a battle or a batch would be played."""
    monkeypatch.setattr(engine.play.battle, "play_battle", _never("a battle was played"))
    monkeypatch.setattr(engine.batch, "run_batch", _never("a batch was played"))
    yield


@pytest.fixture
def no_work(no_battle: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Also fail if the matchup (teams, rosters, killzone) would be loaded."""
    monkeypatch.setattr(engine.play.matchup, "make_matchup", _never("the matchup was loaded"))
    yield


def _paths(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    return {
        "under_file": str(tmp_path / "file.txt" / "out"),
        "deep_under_file": str(tmp_path / "file.txt" / "a" / "b" / "out"),
        "missing_folder": str(tmp_path / "nowhere" / "out"),
        "folder": str(tmp_path / "folder"),
        "slash": str(tmp_path / "out") + "/",
        "nul": str(tmp_path / "o\0ut"),
        "too_long": str(tmp_path / ("x" * 5000)),
    }


# (command, option, suffix for the file, which bad paths apply, expected words per bad path)
FILE_OPTIONS = [
    (["play"], "--record", ".jsonl"),
    (["play"], "--picture", ".png"),
    (["batch", "-n", "2"], "--out", ".jsonl"),
    (["render", "open_ruins"], "--output", ".svg"),
]
FILE_EXPECT = {
    "under_file": "is a file, not a folder",
    "deep_under_file": "is a file, not a folder",
    "missing_folder": "no such folder",
    "folder": "is a folder, not a file",
    "slash": "names a folder, not a file",
    "nul": "is not a file path",
    "too_long": "not a usable path",
}


@pytest.mark.parametrize(("command", "option", "suffix"), FILE_OPTIONS)
@pytest.mark.parametrize("case", sorted(FILE_EXPECT))
def test_bad_output_files_fail_before_anything_runs(
    command: list[str],
    option: str,
    suffix: str,
    case: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    no_work: None,
) -> None:
    paths = _paths(tmp_path)
    before = _tree(tmp_path)
    value = paths[case]
    if case == "folder":
        value += suffix
        Path(value).mkdir()
        before = _tree(tmp_path)
    elif case in ("under_file", "deep_under_file", "missing_folder", "too_long"):
        value += suffix
    monkeypatch.chdir(tmp_path)
    err = _one_line_error(capsys, [*command, option, value])
    assert option in err and FILE_EXPECT[case] in err
    assert _tree(tmp_path) == before  # nothing created


@pytest.mark.parametrize(("command", "option"), [(["play"], "--picture"), (["render", "x"], "-o")])
@pytest.mark.parametrize("name", ["board.jpg", "board", "board.png.txt"])
def test_picture_suffix_is_checked_first(
    command: list[str],
    option: str,
    name: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    no_battle: None,
) -> None:
    monkeypatch.chdir(tmp_path)
    err = _one_line_error(capsys, [*command, option, name])
    assert "cannot render to" in err and "(use .png or .svg)" in err
    assert _tree(tmp_path) == []


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["play", "--record", "g.jsonl"], "--record"),
        (["play", "--picture", "b.png"], "--picture"),
        (["play", "--picture-each-tp", "boards"], "--picture-each-tp"),
        (["batch", "--out", "r.jsonl"], "--out"),
        (["render", "open_ruins", "-o", "b.png"], "--output"),
        (["teams", "import", ".", "--format", "bsdata", "-o", "teams"], "--output"),
    ],
)
def test_unwritable_output_folder_fails_at_once(
    argv: list[str],
    option: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    no_battle: None,
) -> None:
    # Simulated with os.access, since the tests may run as root (who may write anywhere).
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(engine.cli.paths.os, "access", lambda *_a, **_k: False)
    err = _one_line_error(capsys, argv)
    assert option in err and "cannot write into the folder" in err
    assert _tree(tmp_path) == []


def test_unwritable_existing_file_fails_at_once(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    no_battle: None,
) -> None:
    (tmp_path / "g.jsonl").write_text("old", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    real = engine.cli.paths.os.access
    monkeypatch.setattr(
        engine.cli.paths.os, "access", lambda p, mode: Path(p).name != "g.jsonl" and real(p, mode)
    )
    err = _one_line_error(capsys, ["play", "--record", "g.jsonl"])
    assert "the file exists and is not writable" in err
    assert (tmp_path / "g.jsonl").read_text(encoding="utf-8") == "old"


@pytest.mark.parametrize("case", ["under_file", "deep_under_file", "nul", "too_long"])
def test_bad_picture_folder_fails_before_the_battle(
    case: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    no_battle: None,
) -> None:
    paths = _paths(tmp_path)
    before = _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    err = _one_line_error(capsys, ["play", "--picture-each-tp", paths[case]])
    assert "--picture-each-tp" in err
    assert _tree(tmp_path) == before


def test_picture_folder_is_not_created_when_another_input_is_bad(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The folder is created only once the matchup is known to be good.
    monkeypatch.chdir(tmp_path)
    argv = ["play", "--killzone", "nowhere", "--picture-each-tp", "new/boards", "--quiet"]
    assert "nowhere" in _one_line_error(capsys, argv)
    # Team files declaring a rule no module implements: --strict-rules refuses.
    teams = ["--teams", _with_a_rule_left(tmp_path, "pathfinders")]
    teams.append(_with_a_rule_left(tmp_path, "kommandos"))
    argv = [
        "play",
        *teams,
        "--strict-rules",
        "--picture-each-tp",
        "new/boards",
        "--record",
        "g.jsonl",
    ]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "--strict-rules: refusing to play" in err and "Traceback" not in err
    assert _tree(tmp_path) == ["kommandos.json", "pathfinders.json"]  # (the team files)


def test_good_output_paths_pass_the_checks(tmp_path: Path) -> None:
    (tmp_path / "old.jsonl").write_text("", encoding="utf-8")
    check = engine.cli.paths.check_output_file
    assert check(str(tmp_path / "new.jsonl"), "--record") == tmp_path / "new.jsonl"
    assert check(str(tmp_path / "old.jsonl"), "--record") == tmp_path / "old.jsonl"
    assert check("b.PNG", "--picture", (".png", ".svg")) == Path("b.PNG")
    folder = engine.cli.paths.check_output_folder
    assert folder(str(tmp_path / "a" / "b"), "--picture-each-tp") == tmp_path / "a" / "b"
    assert folder(str(tmp_path), "--picture-each-tp") == tmp_path
    assert _tree(tmp_path) == ["old.jsonl"]  # the checks create nothing


# -------------------------------------------------------------------------------------------
# Importer exit codes agree
# -------------------------------------------------------------------------------------------


@pytest.fixture
def datasets(tmp_path: Path) -> dict[str, Path]:
    en = tmp_path / "ktjson" / "en" / "teams"
    en.mkdir(parents=True)
    (en / "TEST-BW.json").write_text(json.dumps(_fixture()), encoding="utf-8")
    return {"killteamjson": tmp_path / "ktjson", "bsdata": write_bsdata_fixture(tmp_path / "bs")}


@pytest.mark.parametrize("fmt", ["killteamjson", "bsdata"])
def test_importers_exit_2_for_an_unknown_team(
    fmt: str, datasets: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = ["teams", "import", str(datasets[fmt]), "--format", fmt, "--team", "nobody"]
    err = _one_line_error(capsys, [*argv, "-o", str(out)])
    assert "no team 'nobody'" in err
    assert not out.exists()  # nothing written, no folder created
    # The same dataset imports its one team by name, in both formats.
    assert (
        main([*argv[:-1], "Brass Wardens" if fmt == "killteamjson" else "gloom", "-o", str(out)])
        == 0
    )
    assert len(list(out.glob("*.json"))) == 1


@pytest.mark.parametrize("fmt", ["killteamjson", "bsdata"])
def test_importer_output_under_a_file_fails_before_importing(
    fmt: str,
    datasets: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "file.txt").write_text("x", encoding="utf-8")

    def imported(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the dataset was read before the output folder was checked")

    monkeypatch.setattr(engine.cli.teams, "import_killteamjson", imported)
    monkeypatch.setattr(engine.cli.teams, "import_bsdata", imported)
    argv = ["teams", "import", str(datasets[fmt]), "--format", fmt]
    err = _one_line_error(capsys, [*argv, "-o", str(tmp_path / "file.txt" / "out")])
    assert "--output" in err and "is a file, not a folder" in err


# -------------------------------------------------------------------------------------------
# Numeric options are bounded
# -------------------------------------------------------------------------------------------

HUGE = "9" * 400


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--seed", "-1"],
        ["play", "--seed", str(2**53)],
        ["play", "--seed", HUGE],
        ["play", "--seed", "1e3"],
        ["play", "--seed", "1.5"],
        ["play", "--seed", "nan"],
        ["play", "--seed", ""],
        ["batch", "--seed", "-1"],
        ["batch", "--seed", str(2**53)],
        ["batch", "-n", "0"],
        ["batch", "-n", "-5"],
        ["batch", "-n", str(engine.cli.options.MAX_GAMES + 1)],
        ["batch", "-n", HUGE],
        ["batch", "--workers", "0"],
        ["batch", "--workers", "-1"],
        ["batch", "--workers", "513"],
        ["batch", "--workers", HUGE],
        ["calc", "shoot", "-a", "-1", "--hit", "3+", "-d", "3/4", "--save", "3+", "-w", "9"],
        ["calc", "shoot", "-a", "31", "--hit", "3+", "-d", "3/4", "--save", "3+", "-w", "9"],
        ["calc", "shoot", "-a", HUGE, "--hit", "3+", "-d", "3/4", "--save", "3+", "-w", "9"],
        ["calc", "shoot", "-a", "4", "--hit", "3+", "-d", "3/4", "--save", "3+", "-w", "0"],
        ["calc", "shoot", "-a", "4", "--hit", "3+", "-d", "3/4", "--save", "3+", "-w", "4001"],
        ["calc", "shoot", "-a", "4", "--hit", "9+", "-d", "3/4", "--save", "3+", "-w", "9"],
        ["calc", "shoot", "-a", "4", "--hit", "3+", "-d", f"{HUGE}/4", "--save", "3+", "-w", "9"],
        ["calc", "shoot", "-a", "4", "--hit", "3+", "-d", "3/4", "--save", HUGE, "-w", "9"],
    ],
)
def test_numeric_options_are_bounded(
    argv: list[str], capsys: pytest.CaptureFixture[str], no_battle: None
) -> None:
    _one_line_error(capsys, argv)


def test_seed_bounds_are_the_documented_ones(
    capsys: pytest.CaptureFixture[str], no_battle: None
) -> None:
    # 2**53 - 1 is the largest seed: JSON integers are exact in every reader up to it.
    assert engine.cli.options.MAX_SEED == 2**53 - 1
    err = _one_line_error(capsys, ["play", "--seed", str(2**53)])
    assert f"0<=x<={2**53 - 1}" in err


# -------------------------------------------------------------------------------------------
# Every subcommand: malformed arguments give exit 2 and one line
# -------------------------------------------------------------------------------------------

SHOOT = ["calc", "shoot", "-a", "4", "--hit", "3+", "-d", "3/4", "--save", "3+", "-w", "9"]
FIGHT = [
    *("calc", "fight", "-a", "4", "--hit", "3+", "-d", "3/4", "-w", "9"),
    *("--enemy-attacks", "4", "--enemy-hit", "3+", "--enemy-damage", "3/4", "--enemy-wounds", "9"),
]
MALFORMED = {
    "calc": [["calc", "nope"], ["calc", "--nope"]],
    "calc shoot": [
        ["calc", "shoot"],
        [*SHOOT, "--rules", "Lethal 9+"],
        [*SHOOT, "--rules", "Sparkly"],
        [*SHOOT, "--improved-cover", "sometimes"],
        [*SHOOT, "extra"],
        [*SHOOT[:-1]],
        [*SHOOT, "-d", "3"],
        [*SHOOT, "-d", "0/-1"],
        [*SHOOT, "--hit", "\0"],
    ],
    "calc fight": [
        ["calc", "fight", "-a", "4"],
        [*FIGHT, "--policy", "bravely"],
        [*FIGHT, "--first", "nobody"],
        [*FIGHT, "--enemy-rules", "Piercing"],
        [*FIGHT, "--enemy-wounds", "-3"],
    ],
    "render": [
        ["render"],
        ["render", "open_ruins"],
        ["render", "nowhere", "-o", "b.png"],
        ["render", "open_ruins", "-o", "b.bmp"],
        ["render", "open_ruins", "-o", "b.png", "--operatives", "missing.json"],
        ["render", "open_ruins", "-o", "b.png", "--sight", "A1", "B1"],
        ["render", "open_ruins", "-o", "b.png", "--open-hatchways", "nope"],
        ["render", "bad.toml", "-o", "b.png"],
        ["render", "../killzones/open_ruins", "-o", "b.png"],
    ],
    "play": [
        ["play", "--teams", "kasrkin"],
        ["play", "--teams", "nobody", "kasrkin"],
        ["play", "--teams", "bad.json", "kasrkin"],
        ["play", "--rosters", "missing.json", "missing.json"],
        ["play", "--rosters", "bad.json", "bad.json"],
        ["play", "--killzone", "nowhere"],
        ["play", "--killzone", "bad.toml"],
        ["play", "--agents", "clever"],
        ["play", "--agents", "random,random,random"],
        ["play", "--seed", "x"],
        ["play", "--record", "file.txt/g.jsonl"],
        ["play", "--picture", "file.txt/b.png"],
        ["play", "--picture-each-tp", "file.txt/boards"],
        ["play", "--nope"],
        ["play", "extra"],
    ],
    "replay": [
        ["replay"],
        ["replay", "missing.jsonl"],
        ["replay", "bad.json"],
        ["replay", "file.txt"],
        ["replay", "."],
        ["replay", "g.jsonl", "extra"],
    ],
    "batch": [
        ["batch", "-n", "0"],
        ["batch", "--workers", "0"],
        ["batch", "--teams", "../x", "kasrkin"],
        ["batch", "--killzone", "../open_ruins"],
        ["batch", "--out", "file.txt/r.jsonl"],
        ["batch", "--out", "."],
        ["batch", "--agents", ""],
    ],
    "teams": [["teams", "nope"], ["teams", "list", "extra"]],
    "teams show": [
        ["teams", "show"],
        ["teams", "show", "nobody"],
        ["teams", "show", "bad.json"],
        ["teams", "show", "missing.json"],
        ["teams", "show", "file.txt"],
    ],
    "teams rules": [["teams", "rules"], ["teams", "rules", "../x"], ["teams", "rules", "bad.json"]],
    "teams import": [
        ["teams", "import", "missing"],
        ["teams", "import", "."],  # click lists the --format choices over several lines
        ["teams", "import", ".", "--format", "csv"],
        ["teams", "import", ".", "--format", "bsdata"],
        ["teams", "import", ".", "--format", "killteamjson"],
        ["teams", "import", "file.txt", "--format", "bsdata"],
        ["teams", "import", ".", "--format", "bsdata", "-o", "file.txt"],
        ["teams", "import", ".", "--format", "bsdata", "-o", "file.txt/out"],
    ],
    "teams compare": [
        ["teams", "compare", "missing", "missing"],
        ["teams", "compare", ".", "."],
        ["teams", "compare", "file.txt", "file.txt"],
    ],
    "killteam": [["nope"], ["--nope"]],
}


@pytest.mark.parametrize(
    "argv",
    [argv for cases in MALFORMED.values() for argv in cases],
    ids=[f"{name}-{k}" for name, cases in MALFORMED.items() for k in range(len(cases))],
)
def test_every_subcommand_rejects_malformed_arguments_in_one_line(
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    no_battle: None,
) -> None:
    # Every one of these is caught before a battle would be played (no_battle), so the sweep
    # is fast; the malformed files are a JSON list, broken TOML and plain text.
    (tmp_path / "file.txt").write_text("not json", encoding="utf-8")
    (tmp_path / "bad.json").write_text("[1, 2", encoding="utf-8")
    (tmp_path / "bad.toml").write_text("name = [", encoding="utf-8")
    (tmp_path / "g.jsonl").write_text("{}\n", encoding="utf-8")
    before = _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    _one_line_error(capsys, argv)
    assert _tree(tmp_path) == before  # nothing created or removed


def test_the_sweep_covers_every_subcommand() -> None:
    from engine.cli import cli

    names = {"killteam"}
    for name, command in cli.commands.items():
        names.add(name)
        for sub in getattr(command, "commands", {}):
            names.add(f"{name} {sub}")
    names.discard("teams list")  # takes no arguments: covered by "teams list extra"
    assert names <= set(MALFORMED), sorted(names - set(MALFORMED))


def test_a_file_may_go_inside_the_folder_the_command_creates(tmp_path: Path) -> None:
    # `play --picture-each-tp out --picture out/final.png`: out/ is created before the final
    # picture is drawn, so its absence is no error; a folder nobody creates still is.
    check = engine.cli.paths.check_output_file
    out = tmp_path / "out"
    assert check(str(out / "final.png"), "--picture", (".png",), created=[out])
    assert check(str(out) + "/../out/g.jsonl", "--record", created=[out])
    for elsewhere in (out / "sub", tmp_path / "other"):  # sub/ would not be created
        with pytest.raises(click.BadParameter, match="no such folder"):
            check(str(elsewhere / "g.jsonl"), "--record", created=[out])
    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    under = tmp_path / "file.txt" / "out"
    with pytest.raises(click.BadParameter, match="is a file, not a folder"):
        check(str(under / "g.jsonl"), "--record", created=[under])
    assert _tree(tmp_path) == ["file.txt"]


def test_picture_folder_that_is_a_file_is_refused(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    no_work: None,
) -> None:
    (tmp_path / "boards").write_text("x", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    err = _one_line_error(capsys, ["play", "--picture-each-tp", "boards"])
    assert "--picture-each-tp" in err and "boards is a file, not a folder" in err


def test_a_file_error_after_the_checks_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Whatever the checks cannot foresee (a full disk, a file removed meanwhile) still ends in
    # one line and status 2, never a traceback.
    import engine.geometry.render

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied", "b.png")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(engine.geometry.render, "render_killzone", refuse)
    err = _one_line_error(capsys, ["render", "open_ruins", "-o", "b.png"])
    assert err == "killteam: error: b.png: Permission denied"


def test_picture_under_a_file_fails_at_once_in_a_real_process(tmp_path: Path) -> None:
    # The reported case: `--picture file.txt/board.png` used to play the whole battle and then
    # crash with a traceback. Run as the console script would, it now stops at once.
    import os
    import subprocess
    import sys

    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    proc = subprocess.run(
        [sys.executable, "-m", "engine.cli", "play", "--picture", "file.txt/board.png"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "'file.txt' is a file, not a folder" in proc.stderr
    assert _tree(tmp_path) == ["file.txt"]
