"""A sweep of bad, hostile and oversized inputs through every door of the command line.

Issue 27 reported an audit that tried hostile inputs through every door of ``killteam`` and
found some not handled cleanly. We do not have its inputs, so this file builds its own: it
takes real inputs (a record, a team file, a roster, a killzone layout, a scenario file, the
options of every command) and changes one thing at a time to a wrong type, null, a huge
number, a deep nest, markup, control characters, an empty string, a path of the wrong kind.

Every run must be *clean* (the contract of ``README.md``, "Input limits"): exit status 0, 1 or
2 (never an uncaught exception), a failure is exactly one line on standard error with no
traceback, and an output path given to a command that fails with status 2 is not created.
Each case is small (random agents, one game, one worker, short records), so the whole file
runs in well under a minute.

A last part mutates a real record's header field by field through the API
(:func:`engine.game.record.replay`): every failure must be a ``ReplayError`` (a
``KillTeamError``), never another exception.
"""

from __future__ import annotations

import copy
import json
import math
import os
import re
import shutil
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import engine.geometry.model
import engine.teams.io
from engine.cli import main
from engine.errors import KillTeamError
from engine.game import record_format
from engine.game.record import RecordFormatError, ReplayError, replay
from engine.game.record_format import dumps_line
from engine.rulesets import KT24
from engine.teams import TeamFileError
from engine.teams.io import team_from_dict
from tests.test_import_killteamjson import _fixture as _ktjson_fixture

TEAMS_DIR = Path(str(engine.teams.io._teams_dir()))
KILLZONES_DIR = Path(str(engine.geometry.model._shipped_dir()))
SCENARIOS_DIR = Path(__file__).resolve().parent.parent / "scenarios"

#: Fast, small battles: random agents, a fixed seed.
FAST = ["--agents", "random", "--seed", "1", "--quiet"]


class Nest:
    """A value wrapped in ``levels`` JSON arrays (written as text, so no recursion)."""

    def __init__(self, levels: int) -> None:
        self.levels = levels


#: One field at a time becomes each of these (JSON documents): a wrong type, null, huge and
#: out-of-range numbers, a deep nest, markup, control characters, an empty string.
MUTANTS: dict[str, Any] = {
    "list": [1, "x"],
    "object": {"x": 1},
    "null": None,
    "bool": True,
    "huge": 10**30,
    "negative": -(10**12),
    "nan": math.nan,
    "float": 0.5,
    "deep": Nest(200),
    "markup": "[bold red]x[/][link=file:///etc/passwd]y[/link]",
    "control": "\x1b[31mX\x07\r\x9b2J\u202ex\x00",
    "empty": "",
    "long": "w" * 20_000,
}


def _json_text(value: Any) -> str:
    """``value`` as JSON text, with :class:`Nest` written as nested arrays (NaN as ``NaN``)."""
    if isinstance(value, Nest):
        return "[" * value.levels + "]" * value.levels
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{_json_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_json_text(v) for v in value) + "]"
    return json.dumps(value)


def _toml_value(value: Any) -> str:
    """``value`` as a TOML value (inline tables, ``nan``, nested arrays for :class:`Nest`)."""
    if isinstance(value, Nest):
        return "[" * value.levels + "]" * value.levels
    if value is None:
        return '""'  # TOML has no null: caught by the "empty" mutant too; never written
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string takes JSON's escapes
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A deep copy of ``doc`` with the field at ``path`` replaced by ``value``."""
    out = copy.deepcopy(doc)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


#: Python's own words for a failure inside the engine (an exception's text passed on): an
#: error line must say what is wrong with the input instead.
PYTHON_WORDS = re.compile(
    r"object is not iterable|is not iterable|has no attribute|unknown error|"
    r"argument must be|could not convert|NoneType|not subscriptable|unhashable type|"
    r"positional argument|object is not callable|invalid literal for"
)


#: Characters that drive a terminal or reorder text (every control character but the newline,
#: the 8-bit controls, the bidirectional overrides and isolates): text from an input is
#: printed with these as escapes (engine.terminal), so none reaches the output as is.
TERMINAL_CONTROLS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _clean(
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    outputs: tuple[Path, ...] = (),
) -> int:
    """Run ``killteam argv`` in-process and check the run was clean; return its status.

    Clean: ``main`` returns (an exception other than ``SystemExit`` fails the test) a status
    0, 1 or 2; nothing printed holds a raw terminal control character; when the status is
    not 0, standard error is exactly one line without a traceback or Python's own words for
    an internal failure; when it is 2, none of ``outputs`` exists.
    """
    try:
        code = main(argv)
    except SystemExit as exc:  # click's own exits are clean too
        code = exc.code if isinstance(exc.code, int) else 2
    captured = capsys.readouterr()
    assert code in (0, 1, 2), (code, captured.err[-2000:])
    assert "Traceback" not in captured.err
    raw = TERMINAL_CONTROLS.search(captured.out + captured.err)
    assert raw is None, f"{raw.group()!r} printed as is"
    if code != 0:
        assert captured.err.count("\n") == 1 and captured.err.endswith("\n"), captured.err
        assert "\x1b" not in captured.err and "\x9b" not in captured.err, captured.err
        assert PYTHON_WORDS.search(captured.err) is None, captured.err
    if code == 2:
        for out in outputs:
            assert not out.exists(), f"{out} created by a command that failed"
    return code


# -------------------------------------------------------------------------------------------
# Files of the wrong kind, given to every door that reads a file
# -------------------------------------------------------------------------------------------


def _bad_files(folder: Path, suffix: str) -> dict[str, Path]:
    """Files that are no valid input of any kind, each ending in ``suffix``."""
    files = {
        "missing": folder / f"missing{suffix}",
        "folder": folder / f"folder{suffix}",
        "empty": folder / f"empty{suffix}",
        "binary": folder / f"binary{suffix}",
        "not_utf8": folder / f"latin1{suffix}",
        "truncated": folder / f"truncated{suffix}",
        "array": folder / f"array{suffix}",
        "deep": folder / f"deep{suffix}",
        "huge_number": folder / f"number{suffix}",
        "duplicate_key": folder / f"dup{suffix}",
        "dev_null": Path("/dev/null"),
    }
    files["folder"].mkdir()
    files["empty"].write_bytes(b"")
    files["binary"].write_bytes(bytes(range(256)) * 8)
    files["not_utf8"].write_bytes(b'{"name": "caf\xe9"}')
    files["truncated"].write_text('{"id": "x", "operatives": [{"name": ', encoding="utf-8")
    files["array"].write_text("[1, 2, 3]", encoding="utf-8")
    files["deep"].write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    files["huge_number"].write_text('{"id": ' + "9" * 5000 + "}", encoding="utf-8")
    files["duplicate_key"].write_text('{"id": "x", "id": "y"}', encoding="utf-8")
    if suffix == ".toml":
        files["truncated"].write_text('name = "x"\n[features\n', encoding="utf-8")
        files["array"].write_text("x = [1, 2, 3]\n", encoding="utf-8")
        files["deep"].write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
        files["huge_number"].write_text("width = " + "9" * 5000 + "\n", encoding="utf-8")
        files["duplicate_key"].write_text("width = 1\nwidth = 2\n", encoding="utf-8")
    return files


_KINDS = [
    "missing",
    "folder",
    "empty",
    "binary",
    "not_utf8",
    "truncated",
    "array",
    "deep",
    "huge_number",
    "duplicate_key",
    "dev_null",
]


def _doors(bad: Path, out: Path) -> dict[str, list[str]]:
    """Every door that reads a file, given ``bad`` (``out``: an output path)."""
    return {
        "play --teams": ["play", "--teams", str(bad), "kasrkin", "--record", str(out), *FAST],
        "play --rosters": ["play", "--rosters", str(bad), str(bad), "--record", str(out), *FAST],
        "batch --teams": [
            "batch",
            "--teams",
            "kasrkin",
            str(bad),
            "-n",
            "1",
            "--workers",
            "1",
            "--out",
            str(out),
            "--agents",
            "random",
            "--quiet",
        ],
        "teams show": ["teams", "show", str(bad)],
        "teams rules": ["teams", "rules", str(bad), "--json"],
        "render --operatives": [
            "render",
            "open_ruins",
            "-o",
            str(out.with_suffix(".svg")),
            "--operatives",
            str(bad),
        ],
        "replay": ["replay", str(bad)],
    }


@pytest.mark.parametrize("door", list(_doors(Path("x"), Path("y"))))
@pytest.mark.parametrize("kind", _KINDS)
def test_every_door_refuses_a_file_of_the_wrong_kind_cleanly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, door: str, kind: str
) -> None:
    """A missing file, a folder, an empty, binary, non-UTF-8, truncated, deeply nested or
    duplicate-key document, or a device is not a team, roster, operatives file or record:
    each door exits 2 with one line, and the output path it was given is not created."""
    bad = _bad_files(tmp_path, ".json")[kind]
    out = tmp_path / "out.jsonl"
    argv = _doors(bad, out)[door]
    assert _clean(capsys, argv, (out, out.with_suffix(".svg"))) == 2


@pytest.mark.parametrize("door", ["play", "render", "scenario"])
@pytest.mark.parametrize("kind", _KINDS)
def test_every_toml_door_refuses_a_file_of_the_wrong_kind_cleanly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, door: str, kind: str
) -> None:
    """The same files as TOML: a killzone layout (play, render) and a scenario (replay)."""
    bad = _bad_files(tmp_path, ".toml")[kind]
    out = tmp_path / "out.svg"
    argv = {
        "play": ["play", "--killzone", str(bad), "--picture", str(out), *FAST],
        "render": ["render", str(bad), "-o", str(out)],
        "scenario": ["replay", str(bad)],
    }[door]
    if kind == "dev_null" and door == "scenario":
        argv = ["replay", "/dev/null.toml"]  # a .toml path that is not there
    assert _clean(capsys, argv, (out,)) == 2


# -------------------------------------------------------------------------------------------
# Options with bad values: every option of every command
# -------------------------------------------------------------------------------------------

_HOSTILE_STRINGS = {
    "empty": "",
    "markup": "[bold]x[/bold][/]",
    "control": "\x1b[2J\x07\r",
    "csi8": "\x9b31m",
    "bidi": "\u202eevil",
    "nul": "a\x00b",
    "long": "y" * 100_000,
    "emoji": "🐉💀",
    "combining": "e\u0301\u0301\u0301",
    "path": "../../etc/passwd",
}

_PLAY_OPTIONS: dict[str, list[str]] = {
    "seed_negative": ["--seed", "-1"],
    "seed_too_large": ["--seed", str(2**53)],
    "seed_huge": ["--seed", "9" * 400],
    "seed_float": ["--seed", "1.5"],
    "seed_exp": ["--seed", "1e3"],
    "seed_text": ["--seed", "one"],
    "agents_three": ["--agents", "random,random,random"],
    "agents_unknown": ["--agents", "human"],
    "agents_trailing_comma": ["--agents", "random,"],
    "equipment_unknown": ["--equipment-a", "Laser Sword"],
    "equipment_twice": ["--equipment-a", "Mines,Mines"],
    "equipment_five": ["--equipment-b", "Mines,Ladders,Portable Barricade,Razor Wire,Ammo Cache"],
    "equipment_none_and": ["--equipment-a", "none,Mines"],
    "equipment_commas": ["--equipment-a", ",,,"],
    "equipment_other_team": ["--equipment-a", "Warded Armour"],
    "crit_op_unknown": ["--crit-op", "Nope"],
    "tac_ops_unknown": ["--tac-ops", "Nope", "Nope"],
    "tac_ops_other_archetype": ["--tac-ops", "Flank", "Flank"],
    "primary_ops_unknown": ["--primary-ops", "foo", "bar"],
    "teams_one": ["--teams", "kasrkin"],
    "teams_both_and_rosters": ["--teams", "kasrkin", "kasrkin", "--rosters", "a.json", "b.json"],
    "killzone_unknown": ["--killzone", "moon"],
    "killzone_path_no_suffix": ["--killzone", "../killzones/open_ruins"],
    "unknown_option": ["--colour", "red"],
}
for _name, _text in _HOSTILE_STRINGS.items():
    _PLAY_OPTIONS[f"teams_{_name}"] = ["--teams", _text, "kasrkin"]
    _PLAY_OPTIONS[f"agents_{_name}"] = ["--agents", _text]
    _PLAY_OPTIONS[f"equipment_{_name}"] = ["--equipment-b", _text]
    _PLAY_OPTIONS[f"crit_op_{_name}"] = ["--crit-op", _text]
    _PLAY_OPTIONS[f"tac_ops_{_name}"] = ["--tac-ops", _text, _text]
    _PLAY_OPTIONS[f"killzone_{_name}"] = ["--killzone", _text]
    _PLAY_OPTIONS[f"primary_ops_{_name}"] = ["--primary-ops", _text, "kill"]


@pytest.mark.parametrize("options", list(_PLAY_OPTIONS.values()), ids=list(_PLAY_OPTIONS))
def test_play_refuses_every_bad_option_before_writing_anything(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, options: list[str]
) -> None:
    """Each of these options is wrong (out of range, unknown, a wrong count, hostile text
    where a name is expected): play exits 2 with one line and writes neither its record nor
    its picture nor its picture folder."""
    record, picture, folder = tmp_path / "g.jsonl", tmp_path / "b.svg", tmp_path / "tps"
    argv = ["play", "--record", str(record), "--picture", str(picture)]
    argv += ["--picture-each-tp", str(folder), "--agents", "random", "--quiet", *options]
    assert _clean(capsys, argv, (record, picture, folder)) == 2


_BATCH_OPTIONS: dict[str, list[str]] = {
    "games_zero": ["-n", "0"],
    "games_too_many": ["-n", "1000001"],
    "games_huge": ["-n", "9" * 400],
    "games_text": ["-n", "many"],
    "workers_zero": ["--workers", "0"],
    "workers_too_many": ["--workers", "513"],
    "workers_negative": ["--workers", "-4"],
    "seed_negative": ["--seed", "-5"],
    "seed_too_large": ["--seed", str(2**64)],
    "agents_bad": ["--agents", "random,\x1b"],
    "teams_bad": ["--teams", "kasrkin", "[red]orks"],
    "equipment_bad": ["--equipment-a", "\u202eMines"],
    "crit_op_bad": ["--crit-op", "Orb\x00"],
}


@pytest.mark.parametrize("options", list(_BATCH_OPTIONS.values()), ids=list(_BATCH_OPTIONS))
def test_batch_refuses_every_bad_option_before_writing_anything(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, options: list[str]
) -> None:
    """Each option is wrong: batch exits 2 with one line and does not create ``--out``."""
    out = tmp_path / "games.jsonl"
    argv = ["batch", "--out", str(out), "--quiet", "-n", "1", "--workers", "1", *options]
    assert _clean(capsys, argv, (out,)) == 2


def _output_paths(tmp_path: Path) -> dict[str, str]:
    """Output paths that cannot be written: a folder, under a regular file, in a missing
    folder, a device, an empty path, a wrong suffix for a picture."""
    (tmp_path / "dir.svg").mkdir()
    (tmp_path / "file").write_text("x", encoding="utf-8")
    return {
        "folder": str(tmp_path / "dir.svg"),
        "under_a_file": str(tmp_path / "file" / "x.svg"),
        "missing_folder": str(tmp_path / "no" / "such" / "x.svg"),
        "empty": "",
        "nul": str(tmp_path / "a\x00.svg"),
        "long_name": str(tmp_path / ("n" * 300 + ".svg")),
        "wrong_suffix": str(tmp_path / "x.gif"),
    }


@pytest.mark.parametrize(
    "kind",
    ["folder", "under_a_file", "missing_folder", "empty", "nul", "long_name", "wrong_suffix"],
)
@pytest.mark.parametrize("door", ["play --record", "play --picture", "batch --out", "render -o"])
def test_an_output_path_that_cannot_be_written_is_refused_first(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, door: str, kind: str
) -> None:
    """An output path that cannot be written is refused (status 2, one line) before any work,
    and nothing is created next to it."""
    path = _output_paths(tmp_path)[kind]
    if kind == "wrong_suffix" and door in ("play --record", "batch --out"):
        pytest.skip("records and batch output take any suffix")
    before = sorted(p.name for p in tmp_path.iterdir())
    argv = {
        "play --record": ["play", "--record", path, *FAST],
        "play --picture": ["play", "--picture", path, *FAST],
        "batch --out": ["batch", "--out", path, "-n", "1", "--workers", "1", "--quiet"],
        "render -o": ["render", "open_ruins", "-o", path],
    }[door]
    assert _clean(capsys, argv) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_picture_each_tp_under_a_file_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A ``--picture-each-tp`` folder under a regular file or at a file cannot be made."""
    (tmp_path / "file").write_text("x", encoding="utf-8")
    for folder in (tmp_path / "file", tmp_path / "file" / "tps"):
        assert _clean(capsys, ["play", "--picture-each-tp", str(folder), *FAST]) == 2
    assert (tmp_path / "file").read_text(encoding="utf-8") == "x"


_CALC_BASE = ["--attacks", "4", "--hit", "3+", "--damage", "3/4"]
_CALC_BAD: dict[str, tuple[str, str]] = {
    "attacks_negative": ("--attacks", "-1"),
    "attacks_too_many": ("--attacks", "31"),
    "attacks_huge": ("--attacks", "9" * 400),
    "attacks_text": ("--attacks", "four"),
    "hit_7": ("--hit", "7+"),
    "hit_1": ("--hit", "1+"),
    "hit_text": ("--hit", "three"),
    "hit_huge": ("--hit", "9" * 400 + "+"),
    "damage_one_part": ("--damage", "3"),
    "damage_negative": ("--damage", "-3/4"),
    "damage_huge": ("--damage", "9" * 400 + "/4"),
    "damage_three_parts": ("--damage", "3/4/5"),
    "damage_nan": ("--damage", "nan/nan"),
    "rules_unknown": ("--rules", "Laser 4+"),
    "rules_bad_number": ("--rules", "Lethal 9+"),
    "rules_huge": ("--rules", "Piercing " + "9" * 400),
    "rules_many": ("--rules", ", ".join(["Piercing 1"] * 500)),
    "rules_markup": ("--rules", "[bold]Lethal 5+"),
    "rules_control": ("--rules", "Lethal 5+\x1b[2J"),
    "rules_unicode_digits": ("--rules", "Lethal ５+"),
    "rules_range_huge": ("--rules", 'Blast 99999999"'),
    "rules_torrent_neg": ("--rules", 'Torrent -1"'),
    "rules_commas": ("--rules", ",,,,"),
}


@pytest.mark.parametrize("command", ["shoot", "fight"])
@pytest.mark.parametrize("bad", list(_CALC_BAD.values()), ids=list(_CALC_BAD))
def test_calc_refuses_every_bad_value_cleanly(
    capsys: pytest.CaptureFixture[str], command: str, bad: tuple[str, str]
) -> None:
    """Each bad value of an attack option is refused (status 2, one line); a value the dice
    core accepts (an odd but valid rule) prints odds (status 0). Never a traceback."""
    rest = (
        ["--save", "3+", "--wounds", "12"]
        if command == "shoot"
        else [
            "--wounds",
            "12",
            "--enemy-attacks",
            "4",
            "--enemy-hit",
            "3+",
            "--enemy-damage",
            "4/5",
            "--enemy-wounds",
            "12",
        ]
    )
    base = dict(zip(_CALC_BASE[::2], _CALC_BASE[1::2], strict=True))
    base[bad[0]] = bad[1]
    argv = ["calc", command, *[x for kv in base.items() for x in kv], *rest, "--json"]
    assert _clean(capsys, argv) in (0, 2)


_CALC_OTHER: dict[str, list[str]] = {
    "shoot_save_0": ["calc", "shoot", *_CALC_BASE, "--save", "0+", "--wounds", "5"],
    "shoot_wounds_0": ["calc", "shoot", *_CALC_BASE, "--save", "3+", "--wounds", "0"],
    "shoot_wounds_huge": ["calc", "shoot", *_CALC_BASE, "--save", "3+", "--wounds", "9" * 99],
    "shoot_improved_bad": [
        *["calc", "shoot", *_CALC_BASE, "--save", "3+", "-w", "5", "--improved-cover", "x"]
    ],
    "shoot_cover_save_bad": [
        *["calc", "shoot", *_CALC_BASE, "--save", "3+", "-w", "5", "--cover-save", "\x1b"]
    ],
    "fight_policy_bad": [
        *["calc", "fight", *_CALC_BASE, "-w", "9", "--enemy-attacks", "3", "--enemy-hit"],
        *["4+", "--enemy-damage", "3/4", "--enemy-wounds", "9", "--policy", "[red]x"],
    ],
    "fight_first_bad": [
        *["calc", "fight", *_CALC_BASE, "-w", "9", "--enemy-attacks", "3", "--enemy-hit"],
        *["4+", "--enemy-damage", "3/4", "--enemy-wounds", "9", "--first", "both"],
    ],
    "fight_enemy_rules_bad": [
        *["calc", "fight", *_CALC_BASE, "-w", "9", "--enemy-attacks", "3", "--enemy-hit"],
        *["4+", "--enemy-damage", "3/4", "--enemy-wounds", "9", "--enemy-rules", "Shock 2+"],
    ],
    "fight_too_large": [
        *["calc", "fight", "-a", "30", "--hit", "2+", "-d", "1/1", "-r", "Brutal, Shock"],
        *["-w", "4000", "--enemy-attacks", "30", "--enemy-hit", "2+", "--enemy-damage", "1/1"],
        *["--enemy-wounds", "4000", "--enemy-rules", "Brutal, Shock, Lethal 5+"],
    ],
    "fight_missing": ["calc", "fight", *_CALC_BASE],
    "calc_unknown": ["calc", "melee"],
}


@pytest.mark.parametrize("argv", list(_CALC_OTHER.values()), ids=list(_CALC_OTHER))
def test_calc_refuses_other_bad_options_cleanly(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """Out-of-range targets, unknown choices, missing options and a fight too large to solve
    exactly are each refused with status 2 and one line."""
    assert _clean(capsys, argv) == 2


# -------------------------------------------------------------------------------------------
# Team files, rosters, layouts and scenarios changed one field at a time
# -------------------------------------------------------------------------------------------


def _team() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((TEAMS_DIR / "kasrkin.json").read_text(encoding="utf-8"))
    return data


_TEAM = _team()
_TEAM_PATHS: list[tuple[Any, ...]] = [(k,) for k in _TEAM] + [
    ("operatives", 0, k) for k in _TEAM["operatives"][0]
]
_TEAM_PATHS += [("operatives", 0, "weapons", 0, k) for k in _TEAM["operatives"][0]["weapons"][0]]
_TEAM_PATHS += [("operatives", 0, "weapons", 0, "profiles", 0, k) for k in ("rules", "atk")]
_TEAM_PATHS += [("selection", k) for k in _TEAM["selection"]]
_TEAM_MUTANTS = ["list", "null", "huge", "nan", "deep", "markup", "control", "empty"]


def _team_cases() -> Iterator[Any]:
    for path in _TEAM_PATHS:
        try:
            _set(_TEAM, path, None)
        except (KeyError, IndexError, TypeError):
            continue
        for m in _TEAM_MUTANTS:
            yield pytest.param(path, m, id="/".join(map(str, path)) + f"={m}")


@pytest.mark.parametrize(("path", "mutant"), list(_team_cases()))
def test_a_team_file_changed_in_one_field_is_shown_or_refused_cleanly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, path: tuple[Any, ...], mutant: str
) -> None:
    """``teams show`` and ``teams rules`` of the built-in Kasrkin file with one field made a
    wrong type, null, huge, NaN, deep, markup, control characters or empty: the file is shown
    (its text printed as written) or refused in one line, never a traceback."""
    team = tmp_path / "team.json"
    team.write_text(_json_text(_set(_TEAM, path, MUTANTS[mutant])), encoding="utf-8")
    _clean(capsys, ["teams", "show", str(team)])
    _clean(capsys, ["teams", "rules", str(team)])


_ROSTER = {"team": "kasrkin", "operatives": list(_TEAM["default_roster"])}


@pytest.mark.parametrize("mutant", ["list", "null", "huge", "deep", "markup", "control", "empty"])
@pytest.mark.parametrize(
    "path",
    [("team",), ("operatives",), ("operatives", 0), ("choices",), ("operative_choices",), ("x",)],
    ids=str,
)
def test_a_roster_changed_in_one_field_is_refused_before_the_battle(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, path: tuple[Any, ...], mutant: str
) -> None:
    """A roster whose team, operatives list, one operative, roster-time choices or an
    unknown field is a wrong value: ``play --rosters`` exits 2 in one line and writes no
    record (choices that are no choice at all, such as null, may play)."""
    roster = tmp_path / "roster.json"
    roster.write_text(_json_text(_set(_ROSTER, path, MUTANTS[mutant])), encoding="utf-8")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_ROSTER), encoding="utf-8")
    record = tmp_path / "g.jsonl"
    argv = ["play", "--rosters", str(roster), str(good), "--record", str(record), *FAST]
    code = _clean(capsys, argv, (record,))
    if path[0] not in ("choices", "operative_choices"):
        assert code == 2


def _layout() -> dict[str, Any]:
    data: dict[str, Any] = tomllib.loads(
        (KILLZONES_DIR / "open_ruins.toml").read_text(encoding="utf-8")
    )
    return data


_LAYOUT = _layout()
_LAYOUT_PATHS: list[tuple[Any, ...]] = [(k,) for k in _LAYOUT]
_LAYOUT_PATHS += [("features", 0, k) for k in _LAYOUT["features"][0]]
_LAYOUT_PATHS += [("features", 0, "parts", 0, k) for k in _LAYOUT["features"][0]["parts"][0]]
_LAYOUT_PATHS += [("features", 0, "parts", 0, "polygon", 0)]
_LAYOUT_MUTANTS = ["list", "object", "null", "huge", "negative", "nan", "deep", "control", "empty"]


@pytest.mark.parametrize("mutant", _LAYOUT_MUTANTS)
@pytest.mark.parametrize("path", _LAYOUT_PATHS, ids=lambda p: "/".join(map(str, p)))
def test_a_layout_changed_in_one_field_is_drawn_or_refused_cleanly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, path: tuple[Any, ...], mutant: str
) -> None:
    """The shipped open_ruins layout (as JSON) with one field made a wrong value: ``render``
    draws it or refuses it in one line, and a refused layout leaves no picture."""
    layout = tmp_path / "kz.json"
    layout.write_text(_json_text(_set(_LAYOUT, path, MUTANTS[mutant])), encoding="utf-8")
    out = tmp_path / "kz.svg"
    _clean(capsys, ["render", str(layout), "-o", str(out)], (out,))


_RENDER_OPTIONS: dict[str, list[str]] = {
    "hatchway_unknown": ["--open-hatchways", "nope"],
    "hatchway_markup": ["--open-hatchways", "[blink]x"],
    "sight_without_operatives": ["--sight", "a", "b"],
    "sight_unknown_names": ["--sight", "\x1bx", "y", "--operatives", "OPS"],
}


@pytest.mark.parametrize("options", list(_RENDER_OPTIONS.values()), ids=list(_RENDER_OPTIONS))
@pytest.mark.parametrize("killzone", ["open_ruins", "close_quarters"])
def test_render_refuses_bad_options_cleanly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, options: list[str], killzone: str
) -> None:
    """Unknown hatchways and sight between operatives that are not there: status 2, one line,
    no picture."""
    ops = tmp_path / "ops.json"
    placed = [
        {"name": "a", "player": "A", "x": 3, "y": 3},
        {"name": "b", "player": "B", "x": 9, "y": 9},
    ]
    ops.write_text(json.dumps({"operatives": placed}), encoding="utf-8")
    out = tmp_path / "kz.svg"
    options = [str(ops) if o == "OPS" else o for o in options]
    argv = ["render", killzone, "-o", str(out), *options]
    assert _clean(capsys, argv, (out,)) == 2


_OPERATIVE = {"name": "a", "player": "A", "x": 3, "y": 3, "base_mm": 32, "elevation": 0}


@pytest.mark.parametrize("mutant", ["list", "null", "huge", "negative", "nan", "deep", "control"])
@pytest.mark.parametrize("field", list(_OPERATIVE))
def test_an_operatives_file_changed_in_one_field_is_drawn_or_refused_cleanly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, field: str, mutant: str
) -> None:
    """``render --operatives`` with one operative's field a wrong value: drawn or refused in
    one line, and a refused file leaves no picture."""
    ops = tmp_path / "ops.json"
    ops.write_text(
        _json_text({"operatives": [_set(_OPERATIVE, (field,), MUTANTS[mutant])]}),
        encoding="utf-8",
    )
    out = tmp_path / "kz.svg"
    _clean(capsys, ["render", "open_ruins", "-o", str(out), "--operatives", str(ops)], (out,))


_SCENARIO = SCENARIOS_DIR / "edge_09_blast_bookkeeping.toml"
_SCENARIO_DOC = tomllib.loads(_SCENARIO.read_text(encoding="utf-8"))
_SCENARIO_MUTANTS = ["list", "object", "huge", "nan", "deep", "markup", "control", "empty"]


def _scenario_text(path: tuple[Any, ...], value: Any) -> str:
    """The scenario file with the field at ``path`` replaced by ``value`` (TOML text)."""
    doc = _set(_SCENARIO_DOC, path, value)

    def table(name: str, d: dict[str, Any], header: str) -> list[str]:
        # ``name``: the table's full dotted name; ``header``: its header line (or none).
        lines = [header] if header else []
        subs = []
        for k, v in d.items():
            if isinstance(v, dict) or (
                isinstance(v, list) and v and all(isinstance(x, dict) for x in v)
            ):
                subs.append((k, v))
            else:
                lines.append(f"{json.dumps(k)} = {_toml_value(v)}")
        for k, v in subs:
            full = f"{name}.{json.dumps(k)}" if name else json.dumps(k)
            if isinstance(v, dict):
                lines += table(full, v, f"[{full}]")
            else:
                for item in v:
                    lines += table(full, item, f"[[{full}]]")
        return lines

    return "\n".join(table("", doc, "")) + "\n"


_SCENARIO_PATHS: list[tuple[Any, ...]] = [(k,) for k in _SCENARIO_DOC]
_SCENARIO_PATHS += [("teams", "A", k) for k in _SCENARIO_DOC["teams"]["A"]]
_SCENARIO_PATHS += [("position", k) for k in _SCENARIO_DOC["position"]]
_SCENARIO_PATHS += [("steps", 0, k) for k in _SCENARIO_DOC["steps"][0]]
_SCENARIO_PATHS += [("steps", 0, "expect", k) for k in _SCENARIO_DOC["steps"][0]["expect"]]
_SCENARIO_PATHS += [("steps", 0, "dice", 0), ("steps", 0, "actions", 0)]


@pytest.mark.parametrize("mutant", _SCENARIO_MUTANTS)
@pytest.mark.parametrize("path", _SCENARIO_PATHS, ids=lambda p: "/".join(map(str, p)))
def test_a_scenario_changed_in_one_field_runs_or_is_refused_cleanly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, path: tuple[Any, ...], mutant: str
) -> None:
    """A shipped scenario with one field a wrong value (written with copies of the team and
    killzone files it names, so its relative paths still resolve): ``replay FILE.toml`` runs
    it (status 0, or 1 for an expectation not met) or refuses it in one line (status 2)."""
    for sub in ("teams", "killzones"):
        shutil.copytree(SCENARIOS_DIR / sub, tmp_path / sub)
    scenario = tmp_path / "scenario.toml"
    scenario.write_text(_scenario_text(path, MUTANTS[mutant]), encoding="utf-8")
    _clean(capsys, ["replay", str(scenario), "--quiet"])


def test_the_scenario_writer_round_trips() -> None:
    """The TOML writer of this sweep writes the shipped scenario back as the same document, so
    a mutated scenario differs from the original in the one field changed."""
    text = _scenario_text(("name",), _SCENARIO_DOC["name"])
    assert tomllib.loads(text) == _SCENARIO_DOC


# -------------------------------------------------------------------------------------------
# Records: truncated, binary, huge lines, each header field and step field mutated
# -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def full_record(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The lines of a real record of a whole battle between random agents."""
    folder = tmp_path_factory.mktemp("record")
    path = folder / "g.jsonl"
    assert main(["play", "--record", str(path), *FAST]) == 0
    return path.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def record_lines(full_record: list[str]) -> list[str]:
    """The real record cut after its 30th step (no result line: it replays as far as it
    goes)."""
    return full_record[:31]


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_short_record_replays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record_lines: list[str]
) -> None:
    """The base of the record mutations replays (status 0): a refused mutant is refused for
    its change."""
    assert _clean(capsys, ["replay", str(_write(tmp_path, record_lines)), "--quiet"]) == 0


_RAW_RECORDS: dict[str, Any] = {
    "header_truncated": lambda lines: [lines[0][: len(lines[0]) // 2]],
    "step_truncated": lambda lines: [*lines[:3], lines[3][:10]],
    "header_only": lambda lines: lines[:1],
    "header_not_object": lambda lines: ["[1,2]", *lines[1:]],
    "header_string": lambda lines: ['"killteam-game"', *lines[1:]],
    "blank_lines": lambda lines: [lines[0], "", "", *lines[1:]],
    "nul_line": lambda lines: [lines[0], "\x00" * 50, *lines[1:]],
    "huge_step_line": lambda lines: [lines[0], '{"x":"' + "a" * (1 << 20) + '"}', *lines[1:]],
    "deep_step_line": lambda lines: [lines[0], "[" * 10_000 + "]" * 10_000, *lines[1:]],
    "two_headers": lambda lines: [lines[0], lines[0], *lines[1:]],
    "steps_swapped": lambda lines: [lines[0], lines[2], lines[1], *lines[3:]],
    "step_repeated": lambda lines: [*lines[:3], lines[2], *lines[3:]],
    "result_early": lambda lines: [
        lines[0],
        '{"hash":"0","result":{"kill_grades":[0,0],"vp":[0,0],"winner":null},"steps":0}',
        *lines[1:],
    ],
    "crlf": lambda lines: [line + "\r" for line in lines],
}


@pytest.mark.parametrize("change", list(_RAW_RECORDS.values()), ids=list(_RAW_RECORDS))
def test_a_record_damaged_as_text_is_refused_cleanly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record_lines: list[str], change: Any
) -> None:
    """Truncated, reordered, repeated or overlong lines: ``replay`` exits 1 (a divergence) or
    2 (malformed), in one line. (A record with CRLF line ends may replay.)"""
    path = _write(tmp_path, change(record_lines))
    _clean(capsys, ["replay", str(path), "--quiet"])
    _clean(capsys, ["replay", str(path), "--verify", "--json"])


def test_a_binary_record_is_refused_cleanly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Random bytes with and without newlines are no record: status 2, one line."""
    path = tmp_path / "r.jsonl"
    for data in (os.urandom(5000), b"\n".join(os.urandom(100) for _ in range(50)), b"\xff\n"):
        path.write_bytes(data)
        assert _clean(capsys, ["replay", str(path)]) == 2


def _header_paths(head: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every field of the header down to the rosters' own fields (not inside team data)."""
    paths: list[tuple[Any, ...]] = []
    for k, v in head.items():
        paths.append((k,))
        if isinstance(v, dict):
            for k2, v2 in v.items():
                paths.append((k, k2))
                if k == "rosters" and isinstance(v2, dict):
                    paths += [(k, k2, k3) for k3 in v2]
    return paths


_HEADER_MUTANTS = ["list", "null", "huge", "negative", "nan", "deep", "markup", "control", "empty"]


def _record_header_cases() -> Iterator[Any]:
    head = {
        "agents": {"A": 0, "B": 0},
        "engine": 0,
        "format": 0,
        "hash_every": 0,
        "killzone": {"hash": 0, "layout": 0, "name": 0, "version": 0},
        "options": {
            k: 0
            for k in (
                "close_quarters",
                "crit_op",
                "equipment",
                "initiative_cards",
                "max_steps",
                "mission",
                "objectives_pickup",
                "open_windows",
                "ploy_costs",
                "primary_ops",
                "ruleset",
                "tac_ops",
            )
        },
        "record": 0,
        "rosters": {
            p: {
                k: 0
                for k in (
                    "data_version",
                    "hash",
                    "operative_choices",
                    "operatives",
                    "team",
                    "team_id",
                    "weapons",
                )
            }
            for p in ("A", "B")
        },
        "ruleset": 0,
        "seed": 0,
    }
    for path in _header_paths(head):
        if path[0] == "rosters" and len(path) == 3 and path[1] == "B":
            continue  # the same checks as A's
        for m in _HEADER_MUTANTS:
            yield pytest.param(path, m, id="/".join(path) + f"={m}")


@pytest.mark.parametrize(("path", "mutant"), list(_record_header_cases()))
def test_a_record_header_field_changed_is_replayed_or_refused_cleanly(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    record_lines: list[str],
    path: tuple[Any, ...],
    mutant: str,
) -> None:
    """Each header field made a wrong type, null, huge, negative, NaN, deep, markup, control
    characters or empty (content hashes made to match, so the change itself is checked):
    ``replay`` replays the record or exits 1 or 2 in one line."""
    head = json.loads(record_lines[0])
    head = _rehash(_set(head, path, MUTANTS[mutant]))
    path_ = _write(tmp_path, [_json_text(head), *record_lines[1:]])
    _clean(capsys, ["replay", str(path_), "--quiet"])


def _rehash(head: dict[str, Any]) -> dict[str, Any]:
    """Content hashes made to match the (changed) data, when the data can be hashed."""
    try:
        kz = head.get("killzone")
        if isinstance(kz, dict) and "layout" in kz and not isinstance(kz["layout"], Nest):
            kz["hash"] = record_format.digest(dumps_line(kz["layout"]))
        rosters = head.get("rosters")
        if isinstance(rosters, dict):
            for r in rosters.values():
                if isinstance(r, dict) and "team" in r and not isinstance(r["team"], Nest):
                    r["hash"] = record_format.digest(dumps_line(r["team"]))
    except (ValueError, TypeError):
        pass
    return head


_STEP_FIELDS = ["action", "actor", "step", "hash"]
_NOTATIONS = [
    "Deploy KAS-1 at 1e400,0",
    "Deploy KAS-1 at nan,nan",
    "Deploy KAS-1 at 99999999999,1",
    "Deploy \x1b[31mKAS-1 at 1,1",
    "Deploy KAS-1 at 1,1 " + "9" * 2000,
    "Op tac " + "x" * 900,
    "Op tac [bold]x",
    "Equip " + ",".join(["Mines"] * 300),
    "Shoot KAS-1 \u202e at LEG-1",
    "roll " + ",".join(["6"] * 400),
    "roll 7,0",
    "roll -1",
    "",
    " ",
]


def _step_cases() -> Iterator[Any]:
    for k in (1, 5, 25):
        for field in _STEP_FIELDS:
            for m in ("list", "null", "huge", "negative", "nan", "deep", "control", "empty"):
                yield pytest.param(k, field, MUTANTS[m], id=f"line{k}/{field}={m}")
        yield pytest.param(k, "extra", 1, id=f"line{k}/extra")
    for n, text in enumerate(_NOTATIONS):
        yield pytest.param(20, "action", text, id=f"notation{n}")


@pytest.mark.parametrize(("k", "field", "value"), list(_step_cases()))
def test_a_record_step_field_changed_is_refused_cleanly(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    record_lines: list[str],
    k: int,
    field: str,
    value: Any,
) -> None:
    """A step line with one field a wrong value, or bogus notation: ``replay`` exits 1 (the
    input is refused by the rules or a hash differs) or 2 (a malformed line), in one line."""
    step = json.loads(record_lines[k])
    step[field] = value
    lines = [*record_lines[:k], _json_text(step), *record_lines[k + 1 :]]
    assert _clean(capsys, ["replay", str(_write(tmp_path, lines)), "--quiet"]) in (1, 2)


_RESULT_CHANGES: dict[str, tuple[str, Any]] = {
    "result_null": ("result", None),
    "winner_c": ("result", {"kill_grades": [0, 0], "vp": [0, 0], "winner": "C\x1b"}),
    "vp_huge": ("result", {"kill_grades": [0, 0], "vp": [10**14, -1], "winner": "A"}),
    "steps_text": ("steps", "\u202e379"),
}


@pytest.mark.parametrize("change", list(_RESULT_CHANGES.values()), ids=list(_RESULT_CHANGES))
def test_an_edited_result_line_is_refused_cleanly(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    full_record: list[str],
    change: tuple[str, Any],
) -> None:
    """The result line of a whole battle's record with one field a wrong value: the battle
    replays, then the result is refused as malformed (2) or as not the battle's (1), in one
    line."""
    result = json.loads(full_record[-1])
    result[change[0]] = change[1]
    lines = [*full_record[:-1], json.dumps(result)]
    assert _clean(capsys, ["replay", str(_write(tmp_path, lines)), "--quiet"]) in (1, 2)


def test_an_edited_hash_is_a_divergence(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record_lines: list[str]
) -> None:
    """A state hash edited to another well-formed hash is a divergence: status 1."""
    k = next(i for i, line in enumerate(record_lines) if i and '"hash"' in line)
    step = json.loads(record_lines[k])
    step["hash"] = "0" * len(step["hash"])
    lines = [*record_lines[:k], json.dumps(step), *record_lines[k + 1 :]]
    assert _clean(capsys, ["replay", str(_write(tmp_path, lines))]) == 1


# -------------------------------------------------------------------------------------------
# teams list / import / compare
# -------------------------------------------------------------------------------------------

_TEAMS_ARGV: dict[str, list[str]] = {
    "list_extra": ["teams", "list", "x"],
    "show_unknown": ["teams", "show", "orks"],
    "show_markup": ["teams", "show", "[bold]kasrkin"],
    "show_control": ["teams", "show", "\x1b]0;pwned\x07"],
    "rules_path": ["teams", "rules", "../teams/kasrkin"],
    "import_bad_format": ["teams", "import", ".", "--format", "xml"],
    "import_missing": ["teams", "import", "/no/such/data", "--format", "killteamjson"],
    "import_file": ["teams", "import", "/dev/null", "--format", "bsdata"],
    "compare_missing": ["teams", "compare", "/no/such", "/no/such/either"],
    "teams_unknown": ["teams", "delete", "kasrkin"],
}


@pytest.mark.parametrize("argv", list(_TEAMS_ARGV.values()), ids=list(_TEAMS_ARGV))
def test_the_teams_commands_refuse_bad_arguments_cleanly(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """Unknown teams, paths that are names, hostile text, missing datasets: status 2, one
    line."""
    assert _clean(capsys, argv) == 2


@pytest.mark.parametrize("fmt", ["killteamjson", "bsdata"])
@pytest.mark.parametrize("kind", ["empty", "junk", "team_markup"])
def test_teams_import_of_a_hostile_dataset_is_clean(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str, kind: str
) -> None:
    """An empty dataset folder, one of junk files and a team whose only file is garbage in
    the places the importers read: import exits 0 or 2 in one line, and a failed import
    writes no team file."""
    data = tmp_path / "data"
    out = tmp_path / "out"
    for sub in ("en/teams", "data"):
        (data / sub).mkdir(parents=True)
    if kind == "junk":
        (data / "en" / "teams" / "X.json").write_bytes(b"\xff\xfe{{")
        (data / "x.cat").write_bytes(b"<catalogue" + b"<a>" * 5000)
    elif kind == "team_markup":
        (data / "en" / "teams" / "X.json").write_text(
            json.dumps({"factionId": "[bold]x\x1b", "killteamName": "\x1b[2J", "opTypes": 5}),
            encoding="utf-8",
        )
        (data / "x.cat").write_text(
            '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">'
            '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><catalogue name="&b;"/>',
            encoding="utf-8",
        )
    code = _clean(capsys, ["teams", "import", str(data), "--format", fmt, "-o", str(out)])
    if code == 2:
        assert not out.exists() or not any(out.iterdir())
    _clean(capsys, ["teams", "compare", str(data), str(data)])


# -------------------------------------------------------------------------------------------
# The API: a real record header mutated field by field
# -------------------------------------------------------------------------------------------


def _leaf_paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into ``value`` (objects and the first element of lists), itself included."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaf_paths(v, (*prefix, k))
    elif isinstance(value, list) and value:
        yield from _leaf_paths(value[0], (*prefix, 0))


HEADER_MUTANTS = ("list", "null", "huge", "nan", "markup", "control", "empty")
"""The mutants every header field is changed to (one test each, so that parallel workers
share the sweep)."""


def _header_paths(head: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The header fields the sweep changes: every path of at most 7 steps (down to each
    roster's first operative type, weapon and profile, and the layout's first feature and
    part), but player B's roster (the same shape as A's)."""
    paths = [p for p in _leaf_paths(head) if p and len(p) <= 7]
    return [p for p in paths if p[:2] != ("rosters", "B")]


def test_the_header_sweep_tries_over_a_thousand_changes(record_lines: list[str]) -> None:
    """The sweep below changes enough fields to each mutant: over a thousand replays in all
    (each header field the sweep reaches, times each mutant)."""
    assert len(_header_paths(json.loads(record_lines[0]))) * len(HEADER_MUTANTS) > 1000


@pytest.mark.parametrize("mutant", HEADER_MUTANTS)
def test_any_header_field_changed_replays_or_raises_a_replay_error(
    record_lines: list[str], mutant: str
) -> None:
    """Every field of a real header (:func:`_header_paths`), changed to ``mutant`` with
    content hashes rehashed: :func:`replay` either replays the record or raises a
    ``ReplayError`` (``RecordFormatError`` for a malformed header), never another
    exception."""
    head = json.loads(record_lines[0])
    failures: list[str] = []
    for path in _header_paths(head):
        changed = _rehash(_set(head, path, MUTANTS[mutant]))
        lines = [_json_text(changed), *record_lines[1:6]]
        try:
            replay(lines, ruleset=KT24)
        except ReplayError as exc:
            assert isinstance(exc, KillTeamError)
        except Exception as exc:  # the defect this test looks for
            failures.append(f"{'/'.join(map(str, path))}={mutant}: {type(exc).__name__}: {exc}")
    assert failures == []


# -------------------------------------------------------------------------------------------
# A killteamjson team file changed one field at a time (teams import, imported on the fly)
# -------------------------------------------------------------------------------------------

_KTJSON = _ktjson_fixture()
_KTJSON_PATHS: list[tuple[Any, ...]] = [(k,) for k in _KTJSON]
_KTJSON_PATHS += [("opTypes", 0, k) for k in _KTJSON["opTypes"][0]]
_KTJSON_PATHS += [("opTypes", 0, "weapons", 0, k) for k in _KTJSON["opTypes"][0]["weapons"][0]]
_KTJSON_PATHS += [
    ("opTypes", 0, "weapons", 0, "profiles", 0, k)
    for k in _KTJSON["opTypes"][0]["weapons"][0]["profiles"][0]
]
_KTJSON_PATHS += [("ploys", 0, k) for k in _KTJSON["ploys"][0]]


@pytest.mark.parametrize("mutant", ["list", "null", "huge", "markup", "control", "empty"])
@pytest.mark.parametrize("path", _KTJSON_PATHS, ids=lambda p: "/".join(map(str, p)))
def test_a_killteamjson_file_changed_in_one_field_imports_or_is_refused_cleanly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, path: tuple[Any, ...], mutant: str
) -> None:
    """The importers' invented killteamjson team with one field a wrong value: ``teams
    import`` of that one file imports it (reporting what it could not read) or refuses it in
    one line, and a refused import writes no team file."""
    team = tmp_path / "TEST-BW.json"
    team.write_text(_json_text(_set(_KTJSON, path, MUTANTS[mutant])), encoding="utf-8")
    out = tmp_path / "out"
    argv = ["teams", "import", str(team), "--format", "killteamjson", "-o", str(out)]
    if _clean(capsys, argv) == 2:
        assert not out.exists() or not any(out.iterdir())


# -------------------------------------------------------------------------------------------
# The defects this sweep found, each pinned by a direct test
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("archetypes",), "Security"),
        (("default_roster",), ""),
        (("operatives", 0, "keywords"), "KASRKIN, LEADER"),
        (("operatives", 0, "weapons", 0, "profiles"), "4/5"),
    ],
    ids=["archetypes", "default_roster", "keywords", "profiles"],
)
def test_a_string_where_a_team_file_wants_a_list_is_refused(
    path: tuple[Any, ...], value: str
) -> None:
    """A JSON string is not a list: before, the loader took it as the list of its characters
    (archetypes ``S, e, c, u, ...``, keywords ``K, A, S, ...``, so the operative silently
    lost its real keywords), and an empty string as an empty list. The file is refused,
    naming the field and the value."""
    data = _set(_TEAM, path, value)
    with pytest.raises(TeamFileError, match=rf"field '{path[-1]}': must be a list, not "):
        team_from_dict(data, "x.json")


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("operatives",), None, r"field 'operatives': must be a list, not None$"),
        (("ploys",), [5], r"ploy 0: must be an object, not 5$"),
        (("provenance",), "x", r"field 'provenance': must be an object, not 'x'$"),
        (
            ("operatives", 0, "weapons"),
            ["Bolt Pistol"],
            r"operative 'Kasrkin Sergeant': weapon 0: must be an object, not 'Bolt Pistol'$",
        ),
        (
            ("operatives", 0, "base_mm"),
            None,
            r"operative 'Kasrkin Sergeant': field 'base_mm': expected a number, not None$",
        ),
        (
            ("operatives", 0, "base_mm"),
            "32",
            r"operative 'Kasrkin Sergeant': field 'base_mm': expected a number, not '32'$",
        ),
        (
            ("selection", "limits"),
            ["Kasrkin Gunner"],
            r"field 'selection': field 'limits' must be an object of selector -> at most, "
            r"not \['Kasrkin Gunner'\]$",
        ),
        (
            ("selection", "combined_limits"),
            None,
            r"field 'selection': field 'combined_limits' must be a list, not None$",
        ),
    ],
    ids=["list", "object", "provenance", "weapon", "base_null", "base_text", "limits", "combined"],
)
def test_a_team_field_of_the_wrong_type_is_named_in_plain_words(
    path: tuple[Any, ...], value: Any, message: str
) -> None:
    """A value of the wrong type is named with what was expected and what was found, in
    the words of the file format. Before, Python's own text leaked out (``'NoneType' object
    is not iterable``, ``unknown error ('str' object has no attribute 'keys')``,
    ``float() argument must be a string or a real number``), which names neither."""
    with pytest.raises(TeamFileError, match=message) as caught:
        team_from_dict(_set(_TEAM, path, value), "x.json")
    assert PYTHON_WORDS.search(str(caught.value)) is None


@pytest.mark.parametrize(("option", "what"), [("--crit-op", "crit op"), ("--killzone", "killzone")])
def test_an_empty_name_is_refused_not_taken_for_the_default(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, option: str, what: str
) -> None:
    """``--crit-op ""`` and ``--killzone ""`` name no crit op and no layout: before, the
    empty value silently played the default (a rolled crit op, open_ruins); like any other
    unknown name it is refused with status 2, and nothing is written."""
    record = tmp_path / "g.jsonl"
    assert _clean(capsys, ["play", option, "", "--record", str(record), *FAST], (record,)) == 2
    assert _clean(capsys, ["batch", option, "", "-n", "1", "--workers", "1", "--quiet"]) == 2
    assert main(["play", option, "", *FAST]) == 2
    assert what in capsys.readouterr().err


@pytest.mark.parametrize(
    ("field", "value", "shown"),
    [("agents", 5, "5"), ("hash_every", -7, "-7"), ("format", 2.5, "2.5")],
)
def test_a_number_in_a_record_header_is_named_as_a_number(
    record_lines: list[str], field: str, value: Any, shown: str
) -> None:
    """A header field holding a number of the wrong kind is named with the number as
    written (``not 5``): before, it was quoted like a string (``not '5'``), which names
    another mistake (the string ``"5"``)."""
    head = json.loads(record_lines[0])
    head[field] = value
    with pytest.raises(RecordFormatError, match=rf"header field '{field}': ") as caught:
        replay([json.dumps(head), *record_lines[1:3]], ruleset=KT24)
    assert re.search(rf"(?<!')(?<![\d.]){re.escape(shown)}(?!')", str(caught.value))
    assert f"'{shown}'" not in str(caught.value)
