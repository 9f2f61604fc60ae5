"""Smaller input-handling defects (issue 27, finding 6).

- **What a path is.** Every file the engine reads (team, roster, killzone, scenario, record
  and operatives files, the team a roster or a scenario names, the dataset path of ``teams
  import``) is opened only when it is a regular file: a missing path, a folder, a device and
  a FIFO each get their own one-line message (``engine.inputs.open_input``), and a FIFO is
  refused without ever being opened (opening one for reading blocks until a writer comes).
- **A roster's ``.json`` team** is a file: a missing one is "no such team file", never "no
  built-in team".
- **Entries the engine cannot tell apart** are refused naming both: two operative types,
  weapons of one kind, profiles, loadout options, abilities, unique actions, ploys or
  equipment of a team file with one name (``engine.teams.model.duplicate_problem``); two
  features or objective markers of a layout; and a JSON object naming a key twice (Python's
  ``json`` would keep only the last value, silently).
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import stat
import threading
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import engine.geometry.model
import engine.teams.io
from engine.cli import main
from engine.errors import KillTeamError
from engine.game.record_format import RecordFormatError, iter_record
from engine.game.scenario_file import ScenarioFileError, load_scenario, shipped_scenarios
from engine.geometry import Killzone, KillzoneError, load_killzone
from engine.geometry.render import OperativesError, load_operatives
from engine.play import BattleError
from engine.play.matchup import load_team_ref
from engine.teams import TeamFileError, load_roster, load_team, team_from_dict

TEAMS_DIR = Path(str(engine.teams.io._teams_dir()))
KILLZONES_DIR = Path(str(engine.geometry.model._shipped_dir()))


def _team_data(team_id: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((TEAMS_DIR / f"{team_id}.json").read_text("utf-8"))
    return data


def _one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run ``killteam argv``: it exits 2 with exactly one line on standard error."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err, err
    return err.strip()


# -------------------------------------------------------------------------------------------
# What a path is: missing, a folder, a device, a FIFO
# -------------------------------------------------------------------------------------------

needs_dev_null = pytest.mark.skipif(
    not (os.path.exists("/dev/null") and stat.S_ISCHR(os.stat("/dev/null").st_mode)),
    reason="needs /dev/null as a character device",
)
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs os.mkfifo")


@contextmanager
def _fifo(path: Path) -> Iterator[Path]:
    """A FIFO at ``path`` with a writer waiting in a thread, so that a reader that (wrongly)
    opens it gets an empty file instead of blocking the test forever; on leaving, the FIFO
    is opened without blocking, which releases the writer if nobody opened it."""
    os.mkfifo(path)
    writer = threading.Thread(target=lambda: open(path, "wb").close(), daemon=True)
    writer.start()
    try:
        yield path
    finally:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        writer.join()
        os.close(fd)


@contextmanager
def _path_of_kind(folder: Path, kind: str, name: str) -> Iterator[Path]:
    """``folder / name`` made into ``kind``: nothing (missing), a folder, a character device
    (a link to /dev/null) or a FIFO."""
    path = folder / name
    if kind == "missing":
        yield path
    elif kind == "folder":
        path.mkdir()
        yield path
    elif kind == "device":
        path.symlink_to("/dev/null")
        yield path
    else:
        with _fifo(path):
            yield path


#: kind -> what the message says the path is (before "not a <what>").
KIND_WORDS = {
    "missing": "no such",
    "folder": "is a folder, not",
    "device": "is not a regular file (a character device), not",
    "fifo": "is not a regular file (a FIFO), not",
}


def _said(kind: str, what: str) -> str:
    """What the message says of a path of ``kind`` given as a ``what``."""
    article = "" if kind == "missing" else ("an " if what[0] in "aeiou" else "a ")
    return f"{KIND_WORDS[kind]} {article}{what}"


KINDS = [
    "missing",
    "folder",
    pytest.param("device", marks=needs_dev_null),
    pytest.param("fifo", marks=needs_fifo),
]


def _load_team_ref(path: Path) -> Any:
    return load_team_ref(str(path))


def _read_record(path: Path) -> Any:
    return list(iter_record(path))


#: (loader, error class, file name, what the message calls the file)
LOADERS: list[tuple[Callable[[Path], Any], type[KillTeamError], str, str]] = [
    (load_team, TeamFileError, "team.json", "team file"),
    (_load_team_ref, BattleError, "team.json", "team file"),
    (load_roster, TeamFileError, "roster.json", "roster file"),
    (load_killzone, KillzoneError, "layout.toml", "killzone file"),
    (load_scenario, ScenarioFileError, "scenario.toml", "scenario file"),
    (_read_record, RecordFormatError, "game.jsonl", "record file"),
    (load_operatives, OperativesError, "ops.json", "operatives file"),
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("load", "error", "name", "what"), LOADERS)
def test_every_loader_says_what_a_path_that_is_not_a_regular_file_is(
    tmp_path: Path,
    kind: str,
    load: Callable[[Path], Any],
    error: type[KillTeamError],
    name: str,
    what: str,
) -> None:
    """A folder used to be "no such killzone file" (or an OS message "Is a directory"), a
    device was read as an empty file and a FIFO blocked the reader; each kind now gets its own
    message naming the path and what was expected, and the FIFO is never opened (the test's
    writer would otherwise turn it into an empty file and the message into a parse error)."""
    with _path_of_kind(tmp_path, kind, name) as path, pytest.raises(error) as info:
        load(path)
    message = str(info.value)
    assert message.startswith(str(path)), message
    assert _said(kind, what) in message, message
    assert "\n" not in message


@pytest.mark.parametrize("kind", KINDS)
def test_a_roster_team_file_is_named_as_missing_a_folder_or_not_a_regular_file(
    tmp_path: Path, kind: str
) -> None:
    """A roster's ``team`` ending in ``.json`` is a team file (engine.names): when the file is
    missing the message must say so, not "no built-in team" (the file name was looked up as
    a built-in id before), and a folder or a device is named as such."""
    roster = tmp_path / "roster.json"
    roster.write_text(json.dumps({"team": "my_team.json", "operatives": []}), "utf-8")
    with (
        _path_of_kind(tmp_path, kind, "my_team.json") as team_path,
        pytest.raises(TeamFileError) as info,
    ):
        load_roster(roster, validate=False)
    message = str(info.value)
    assert message == f"{roster}: field 'team': {team_path}: {_said(kind, 'team file')}"
    assert "built-in" not in message


def test_a_roster_team_file_that_exists_still_loads(tmp_path: Path) -> None:
    """The fix keeps the documented behaviour: a ``.json`` team next to the roster loads."""
    shutil.copy(TEAMS_DIR / "kasrkin.json", tmp_path / "my_team.json")
    roster = tmp_path / "roster.json"
    roster.write_text(json.dumps({"team": "my_team.json", "operatives": []}), "utf-8")
    assert load_roster(roster, validate=False).team.id == "kasrkin"


def _commands(path: Path, out: Path) -> dict[str, list[str]]:
    p = str(path)
    return {
        "teams show": ["teams", "show", p + ".json"],
        "teams rules": ["teams", "rules", p + ".json"],
        "play --teams": ["play", "--teams", p + ".json", "kasrkin"],
        "play --rosters": ["play", "--rosters", p + ".json", p + ".json"],
        "play --killzone": ["play", "--killzone", p + ".toml"],
        "batch --killzone": ["batch", "-n", "1", "--killzone", p + ".toml"],
        "render": ["render", p + ".toml", "-o", str(out / "board.png")],
        "render --operatives": [
            "render",
            "open_ruins",
            "-o",
            str(out / "board.png"),
            "--operatives",
            p + ".json",
        ],
        "replay record": ["replay", p + ".jsonl"],
        "replay scenario": ["replay", p + ".toml"],
    }


WHAT = {
    "teams show": "team file",
    "teams rules": "team file",
    "play --teams": "team file",
    "play --rosters": "roster file",
    "play --killzone": "killzone file",
    "batch --killzone": "killzone file",
    "render": "killzone file",
    "render --operatives": "operatives file",
    "replay record": "record file",
    "replay scenario": "scenario file",
}


@pytest.mark.parametrize("kind", ["folder", pytest.param("device", marks=needs_dev_null)])
@pytest.mark.parametrize("command", sorted(WHAT))
def test_every_file_argument_of_the_command_line_names_a_folder_or_a_device(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, command: str
) -> None:
    """Through the command line: exit status 2 and one line naming the path and what it is
    (a folder or a character device), instead of "no such killzone file", "not a built-in
    team ... or a team file", "the record is empty" or an OS error text."""
    argv = _commands(tmp_path / "x", tmp_path)[command]
    given = next(a for a in argv if a.startswith(str(tmp_path / "x")))
    with _path_of_kind(tmp_path, kind, Path(given).name):
        err = _one_line_error(capsys, argv)
    assert f"{given}: {_said(kind, WHAT[command])}" in err, err


@needs_fifo
@pytest.mark.parametrize("command", ["teams show", "play --killzone", "replay record"])
def test_a_fifo_on_the_command_line_is_refused_without_blocking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """A FIFO given as an input file is named as such; it is never opened (the waiting
    writer of :func:`_fifo` would otherwise give an empty file and another message)."""
    argv = _commands(tmp_path / "x", tmp_path)[command]
    given = next(a for a in argv if a.startswith(str(tmp_path / "x")))
    with _path_of_kind(tmp_path, "fifo", Path(given).name):
        err = _one_line_error(capsys, argv)
    assert f"{given}: {_said('fifo', WHAT[command])}" in err, err


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("missing", "no such file or folder"),
        pytest.param("device", "is not a regular file (a character device)", marks=needs_dev_null),
        pytest.param("fifo", "is not a regular file (a FIFO)", marks=needs_fifo),
    ],
)
@pytest.mark.parametrize("fmt", ["killteamjson", "bsdata"])
def test_teams_import_names_a_dataset_path_that_is_missing_or_a_device(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, expected: str, fmt: str
) -> None:
    """``teams import PATH`` takes a dataset folder or file: a device or a FIFO was taken for
    a folder and reported as "not a killteamjson checkout" / "no BSData checkout"; it is now
    named for what it is, and nothing is written."""
    out = tmp_path / "out"
    with _path_of_kind(tmp_path, kind, "data") as path:
        err = _one_line_error(
            capsys, ["teams", "import", str(path), "--format", fmt, "-o", str(out)]
        )
    assert f"{path}: {expected}" in err, err
    assert not out.exists()


# -------------------------------------------------------------------------------------------
# Entries the engine cannot tell apart
# -------------------------------------------------------------------------------------------


def _op(data: dict[str, Any], name: str) -> dict[str, Any]:
    op: dict[str, Any] = next(o for o in data["operatives"] if o["name"] == name)
    return op


def _twice_type(d: dict[str, Any]) -> None:
    d["operatives"].append(copy.deepcopy(_op(d, "Kasrkin Gunner")))


def _twice_type_other_case(d: dict[str, Any]) -> None:
    d["operatives"].append(dict(copy.deepcopy(_op(d, "Kasrkin Gunner")), name="kasrkin GUNNER"))


def _twice_weapon(d: dict[str, Any]) -> None:
    weapons = _op(d, "Kasrkin Combat Medic")["weapons"]
    weapons.append(dict(copy.deepcopy(weapons[0]), name="hot-shot lasgun"))


def _twice_profile(d: dict[str, Any]) -> None:
    profiles = _op(d, "Kasrkin Gunner")["weapons"][1]["profiles"]  # Grenade Launcher
    profiles[1]["name"] = profiles[0]["name"]


def _twice_option(d: dict[str, Any]) -> None:
    options = _op(d, "Kasrkin Sergeant")["loadouts"][0]["options"]
    options.append(copy.deepcopy(options[0]))


def _twice_ability(d: dict[str, Any]) -> None:
    abilities = _op(d, "Kasrkin Combat Medic")["abilities"]
    abilities.append(dict(copy.deepcopy(abilities[0]), name="medic"))


def _twice_action(d: dict[str, Any]) -> None:
    actions = _op(d, "Kasrkin Combat Medic")["actions"]
    actions.append(copy.deepcopy(actions[0]))


def _twice_ploy(d: dict[str, Any]) -> None:
    d["ploys"].append(dict(copy.deepcopy(d["ploys"][0]), kind="firefight"))


def _twice_equipment(d: dict[str, Any]) -> None:
    d["equipment"].append(dict(copy.deepcopy(d["equipment"][0]), name="FOREGRIP"))


def _twice_team_ability(d: dict[str, Any]) -> None:
    d["abilities"].append(copy.deepcopy(d["abilities"][0]))


def _twice_equipment_weapon(d: dict[str, Any]) -> None:
    weapons = d["equipment"][3]["weapons"]  # Combat Daggers
    weapons.append(copy.deepcopy(weapons[0]))


DUPLICATES = [
    (_twice_type, "operatives[3] and operatives[8] are both named 'Kasrkin Gunner'"),
    (
        _twice_type_other_case,
        "operatives[3] and operatives[8] are both named 'Kasrkin Gunner' and "
        "'kasrkin GUNNER', the same name to the engine (case and spacing ignored)",
    ),
    (
        _twice_weapon,
        "operative 'Kasrkin Combat Medic': weapons[0] and weapons[2] are both ranged and "
        "named 'Hot-Shot Lasgun' and 'hot-shot lasgun'",
    ),
    (
        _twice_profile,
        "operative 'Kasrkin Gunner': weapon 'Grenade Launcher': profiles[0] and profiles[1] "
        "are both named 'Frag'",
    ),
    (
        _twice_option,
        "operative 'Kasrkin Sergeant': loadouts[0]: options[0] and options[4] are both "
        "named 'Bolt Pistol; Power Weapon'",
    ),
    (
        _twice_ability,
        "operative 'Kasrkin Combat Medic': abilities[0] and abilities[1] are both named "
        "'Medic!' and 'medic', the same name to the engine (case, spacing and punctuation "
        "ignored)",
    ),
    (
        _twice_action,
        "operative 'Kasrkin Combat Medic': actions[0] and actions[1] are both named 'Medikit'",
    ),
    (_twice_ploy, "ploys[0] and ploys[8] are both named 'Clearance Sweep'"),
    (_twice_equipment, "equipment[0] and equipment[4] are both named 'Foregrip' and 'FOREGRIP'"),
    (_twice_team_ability, "abilities[0] and abilities[2] are both named 'Skill At Arms'"),
    (
        _twice_equipment_weapon,
        "equipment 'Combat Daggers': weapons[0] and weapons[1] are both melee and named "
        "'Combat Dagger'",
    ),
]


@pytest.mark.parametrize(("change", "expected"), DUPLICATES)
def test_a_team_file_defining_an_entry_twice_is_refused_naming_both(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: Callable[[dict[str, Any]], None],
    expected: str,
) -> None:
    """Every lookup of these entries takes the first match (by name as the notation reads it:
    case and spacing ignored; rules by the slug of their rule id), so the second definition
    was silently unreachable. It is now refused, naming the file, the team and both entries by
    their index in the file's list (the indices are those of the shipped kasrkin.json plus the
    entry appended)."""
    data = _team_data("kasrkin")
    change(data)
    with pytest.raises(TeamFileError) as info:
        team_from_dict(data, source="teams/x.json")
    assert str(info.value).startswith("teams/x.json: team 'kasrkin': ")
    assert expected in str(info.value)
    path = tmp_path / "x.json"
    path.write_text(json.dumps(data), "utf-8")
    err = _one_line_error(capsys, ["teams", "show", str(path)])
    assert expected in err


def test_a_ranged_and_a_melee_weapon_may_share_a_name() -> None:
    """Shooting picks among ranged weapons and fighting among melee ones, so both stay
    reachable (the shipped Chronomancer has a ranged and a melee Aeonstave)."""
    team = team_from_dict(_team_data("hierotek_circle"))
    card = next(op for op in team.operatives if op.name == "Chronomancer")
    assert sorted(w.kind for w in card.weapons if w.name == "Aeonstave") == ["melee", "ranged"]


def test_a_json_key_given_twice_is_refused_naming_where() -> None:
    """Python's json keeps the last of two equal keys: an operative's second "wounds" (or a
    team's second "operatives" list) silently replaced the first. The key and the path of its
    object are named instead."""
    text = json.dumps(_team_data("kasrkin"))
    twice = text.replace('"wounds": 8,', '"wounds": 8, "wounds": 9,', 1)
    assert twice != text
    path_data = json.loads(text)
    index = next(i for i, op in enumerate(path_data["operatives"]) if op["wounds"] == 8)
    with pytest.raises(TeamFileError) as info:
        engine.teams.io.parse_json(twice, "teams/x.json", TeamFileError)
    assert str(info.value).startswith(
        f"teams/x.json: operatives[{index}]: the key 'wounds' is given twice"
    )


def test_a_roster_file_naming_its_team_twice_is_refused(tmp_path: Path) -> None:
    """``{"team": "kasrkin", "team": "legionaries"}`` loaded the Legionaries without a word."""
    path = tmp_path / "roster.json"
    path.write_text('{"team": "kasrkin", "team": "legionaries", "operatives": []}', "utf-8")
    with pytest.raises(TeamFileError, match=r"roster\.json: the key 'team' is given twice"):
        load_roster(path, validate=False)


def test_a_json_layout_giving_a_drop_zone_twice_is_refused(tmp_path: Path) -> None:
    """A JSON layout's second ``"A"`` drop zone silently replaced the first."""
    data = tomllib.loads((KILLZONES_DIR / "open_ruins.toml").read_text("utf-8"))
    ring = json.dumps(data["drop_zones"]["A"])
    text = json.dumps(data).replace('"drop_zones": {', f'"drop_zones": {{"A": {ring}, ', 1)
    path = tmp_path / "layout.json"
    path.write_text(text, "utf-8")
    with pytest.raises(KillzoneError, match=r"layout\.json: drop_zones: the key 'A' is given"):
        load_killzone(path)


def _layout() -> dict[str, Any]:
    data: dict[str, Any] = tomllib.loads((KILLZONES_DIR / "open_ruins.toml").read_text("utf-8"))
    return data


def test_layout_features_the_notation_cannot_tell_apart_are_refused() -> None:
    """``Operate hatch KAS-1 west hatch`` matches hatchway names ignoring case, so features
    'north ruin' and 'North  Ruin' could not both be named; the exact duplicate was already
    refused, the near one was not."""
    data = _layout()
    data["features"][1]["name"] = "North  Ruin"
    with pytest.raises(KillzoneError) as info:
        Killzone.from_dict(data, source="x.toml")
    assert str(info.value) == (
        "x.toml: layout: features[0] and features[1] are both named 'north ruin' and "
        "'North  Ruin', the same name to the engine (case and spacing ignored)"
    )


def test_layout_objectives_the_notation_cannot_tell_apart_are_refused() -> None:
    """``Pick up KAS-1 centre`` reads marker names in lower case: 'centre' and 'Centre' would
    make every pick-up ambiguous."""
    data = _layout()
    data["objectives"].append(dict(copy.deepcopy(data["objectives"][1]), name="Centre"))
    with pytest.raises(KillzoneError, match=r"objectives\[1\] and objectives\[3\] are both"):
        Killzone.from_dict(data, source="x.toml")


def test_a_scenario_placing_an_operative_twice_is_refused(tmp_path: Path) -> None:
    """Scenario files are TOML, which refuses a table declared twice: the second placement of
    an operative can never silently win (kept as a guard of that property)."""
    source = shipped_scenarios()[0]
    text = source.read_text("utf-8")
    first = text.index("[position.operatives.")
    header = text[first : text.index("]", first) + 1]
    path = tmp_path / "twice.toml"
    path.write_text(text + "\n" + header + "\nat = [1, 1]\n", "utf-8")
    with pytest.raises(ScenarioFileError, match="twice"):
        load_scenario(path)
