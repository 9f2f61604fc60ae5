"""Every door for team data checks its input (issue 12, classes 2, 4, 6, 7 and the roster and
team limits of 11): team files, roster files, ``--teams`` files, killteamjson team files and
BattleScribe catalogues either load or raise the loader's documented error class (a
:class:`~engine.errors.KillTeamError`), naming the file (and team, operative and field),
never another exception; nonsense datacards are rejected at load; team ids are ASCII so that
every operative id the engine makes reads back through the action notation."""

from __future__ import annotations

import contextlib
import copy
import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.errors import KillTeamError
from engine.game.actions import parse_action
from engine.game.setup import operative_ids
from engine.play import BattleError
from engine.play.matchup import load_team_ref
from engine.teams import TeamFileError, load_builtin_team, load_roster, load_team
from engine.teams.importers.bsdata import BsDataError, import_bsdata
from engine.teams.importers.killteamjson import KillTeamJsonError, import_killteamjson
from engine.teams.io import builtin_teams, check_team, team_from_dict, team_to_dict
from engine.teams.model import (
    MAX_NAME_CHARS,
    MAX_OPERATIVE_TYPES,
    MAX_ROSTER_OPERATIVES,
    MAX_WEAPONS,
    STAT_LIMITS,
    Roster,
    safe_team_id,
    team_problem,
)
from tests.test_import_bsdata import fixture_catalogue, write_bsdata_fixture
from tests.test_import_killteamjson import _fixture as ktjson_fixture

PROPERTY = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# Values a careless or hostile file may put anywhere: zero, negative, fractional, huge,
# not finite (as Python values; JSON files get the text forms below), wrong types, long text.
NASTY: list[Any] = [
    0,
    -1,
    -(10**9),
    2.5,
    10**15,
    10**400,
    1e300,
    float("nan"),
    float("inf"),
    "",
    " ",
    "7+",
    "0/0",
    '0"',
    "9" * 400,
    "x" * 5000,
    "ñandu",
    "a\nb",
    None,
    True,
    [],
    {},
    [[[[]]]],
    {"a": {"b": 1}},
]

JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(NASTY),
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path (keys and indexes) to a value inside ``data``, containers included."""
    out = [prefix] if prefix else []
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, (*prefix, i))
    return out


def _replace(data: Any, path: tuple[Any, ...], value: Any, delete: bool = False) -> Any:
    """A deep copy of ``data`` with the value at ``path`` replaced (or deleted)."""
    out = copy.deepcopy(data)
    node = out
    for step in path[:-1]:
        node = node[step]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


def _deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


@st.composite
def _mutation(draw: st.DrawFn, base: Any) -> Any:
    """``base`` with one value replaced by a nasty or random one, deleted, or nested deep."""
    paths = _paths(base)
    path = draw(st.sampled_from(paths))
    how = draw(st.sampled_from(["nasty", "random", "delete", "deep"]))
    if how == "delete":
        return _replace(base, path, None, delete=True)
    if how == "deep":
        return _replace(base, path, _deep(draw(st.sampled_from([63, 70, 300]))))
    value = draw(st.sampled_from(NASTY) if how == "nasty" else JSON_VALUES)
    return _replace(base, path, value)


def _kasrkin() -> dict[str, Any]:
    return team_to_dict(load_builtin_team("kasrkin"))


KASRKIN = _kasrkin()


def _write(folder: Path, name: str, data: Any) -> Path:
    path = folder / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


# --------------------------------------------------------------------------------------------
# Team files: nonsense datacards name the file, team, operative and field
# --------------------------------------------------------------------------------------------

OP_STATS = [
    ("apl", 0, "from 1 to 6"),
    ("apl", 7, "from 1 to 6"),
    ("apl", -2, "from 1 to 6"),
    ("wounds", 0, "from 1 to 50"),
    ("wounds", 51, "from 1 to 50"),
    ("wounds", 10**15, "from 1 to 50"),
    ("move", 0, "inches from 1 to 20"),
    ("move", '0"', "inches from 1 to 20"),
    ("move", -3, "inches from 1 to 20"),
    ("move", 1000, "inches from 1 to 20"),
    ("move", "9" * 30, "inches"),
    ("base_mm", 0, "millimetres from 20 to 200"),
    ("base_mm", 1e9, "millimetres from 20 to 200"),
]


@pytest.mark.parametrize(("field", "value", "words"), OP_STATS)
def test_nonsense_operative_stat_is_rejected_naming_everything(
    tmp_path: Path, field: str, value: Any, words: str
) -> None:
    # Zero, negative and absurd stats used to load and fail later (or play silently);
    # the message names the file, the team, the operative (the first datacard, the
    # Sergeant) and the field.
    data = _kasrkin()
    data["operatives"][0][field] = value
    path = _write(tmp_path, "x.json", data)
    with pytest.raises(TeamFileError) as info:
        load_team(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    assert "'Kasrkin Sergeant'" in message and f"field '{field}'" in message
    assert words in message and "\n" not in message


def test_wounds_message_reads_as_documented(tmp_path: Path) -> None:
    data = _kasrkin()
    data["operatives"][0]["wounds"] = 0
    path = _write(tmp_path, "x.json", data)
    with pytest.raises(TeamFileError) as info:
        load_team(path)
    assert str(info.value) == (
        f"{path}: team 'kasrkin': operative 'Kasrkin Sergeant': field 'wounds': must be a "
        "whole number from 1 to 50, got 0"
    )


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("attacks", 0, "from 1 to 20"),
        ("attacks", 21, "from 1 to 20"),
        ("attacks", -1, "from 1 to 20"),
        ("damage", "21/3", "normal_damage"),
        ("damage", "3/99", "critical_damage"),
        ("hit", "1+", "thresholds run from 2+ to 6+"),
        ("rules", 'Range 999"', "Range: must be from 0 to 100 inches"),
        ("rules", "Piercing 99", "Piercing: must be from 0 to 20"),
        ("rules", "Range 1" + "0" * 400 + '"', "field 'rules'"),
    ],
)
def test_nonsense_weapon_profile_is_rejected(field: str, value: Any, words: str) -> None:
    data = _kasrkin()
    data["operatives"][0]["weapons"][0]["profiles"][0][field] = value
    with pytest.raises(TeamFileError) as info:
        team_from_dict(data, "k.json")
    message = str(info.value)
    assert message.startswith("k.json: ") and "'Kasrkin Sergeant'" in message
    assert "'Bolt Pistol'" in message and words in message


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["ploys"][0].update(cp=10), "field 'cp': must be a whole number from 0 to 9"),
        (lambda d: d["ploys"][0].update(cp=-1), "field 'cp'"),
        (
            lambda d: d["operatives"][0]["actions"].append({"name": "Nap", "ap": 7}),
            "field 'ap': must be a whole number from 0 to 6",
        ),
        (lambda d: d["selection"].update(size=[0, 10]), "field 'size'"),
        (lambda d: d["selection"].update(size=[10, 5]), "minimum first"),
        (lambda d: d["selection"].update(size=[10, 10**6]), "from 1 to 50"),
        (
            lambda d: d["selection"]["limits"].update({"Kasrkin Sergeant": -1}),
            "must be from 0 to 50",
        ),
    ],
    ids=[
        "cp-10",
        "cp-negative",
        "action-ap-7",
        "size-0",
        "size-reversed",
        "size-huge",
        "limit-neg",
    ],
)
def test_nonsense_team_values_are_rejected(change: Callable[[Any], Any], words: str) -> None:
    data = _kasrkin()
    change(data)
    with pytest.raises(TeamFileError, match=re.escape(words)):
        team_from_dict(data, "k.json")


def test_stat_limits_hold_every_real_team() -> None:
    # The bounds are far above real use: every built-in team and every team of both
    # community datasets (when the samples are present) is within them.
    teams = [load_builtin_team(t) for t in builtin_teams()]
    samples = Path(__file__).resolve().parents[2] / "shared" / "data_samples"
    if (samples / "killteamjson").is_dir():
        teams += import_killteamjson(samples / "killteamjson").teams
    if (samples / "bsdata").is_dir():
        teams += import_bsdata(samples / "bsdata").teams
    for team in teams:
        assert team_problem(team) is None, team.id
        for op in team.operatives:
            assert STAT_LIMITS["wounds"][0] <= op.wounds <= STAT_LIMITS["wounds"][1]


# --------------------------------------------------------------------------------------------
# Team files: nesting, numbers, encodings, limits
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested more than 64 levels"),
        ('{"id": ' + "[" * 5000 + "]" * 5000 + "}", "nested more than 64 levels"),
        ('{"id": "kasrkin", "x": 1e400}', "too large"),
        ('{"id": "kasrkin", "x": ' + "9" * 400 + "}", "too large"),
        ('{"id": "kasrkin", "x": NaN}', "x: the number nan is not finite"),
        ('{"id": "kasrkin", "x": -Infinity}', "x: the number -inf is not finite"),
        ("", "not valid JSON"),
        ("[]", "one JSON object"),
    ],
    ids=["deep-array", "deep-field", "1e400", "400-digits", "nan", "-inf", "empty", "array"],
)
def test_team_file_bad_documents(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "t.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TeamFileError, match=words) as info:
        load_team(path)
    assert str(info.value).startswith(str(path))


def test_team_file_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_bytes(b'{"id": "\xff\xfe"}')
    with pytest.raises(TeamFileError, match="not UTF-8"):
        load_team(path)


def test_team_from_dict_checks_python_values_too() -> None:
    # The Python API gets the same checks: a NaN, a 10**400 or a list nested 5,000 deep in
    # a dict raises the documented error, not OverflowError or RecursionError.
    for value in (float("nan"), 10**400, _deep(5000)):
        data = _kasrkin()
        data["operatives"][0]["wounds"] = value
        with pytest.raises(TeamFileError, match="operatives"):
            team_from_dict(data, "api")


def test_team_limits_are_enforced() -> None:
    data = _kasrkin()
    card = data["operatives"][-1]
    data["operatives"] = [
        {**copy.deepcopy(card), "name": f"Clone {i}"} for i in range(MAX_OPERATIVE_TYPES + 1)
    ]
    with pytest.raises(TeamFileError, match=f"at most {MAX_OPERATIVE_TYPES} operative types"):
        team_from_dict(data, "k.json")
    data = _kasrkin()
    weapon = data["operatives"][0]["weapons"][0]
    data["operatives"][0]["weapons"] = [
        {**copy.deepcopy(weapon), "name": f"Gun {i}"} for i in range(MAX_WEAPONS + 1)
    ]
    data["operatives"][0].pop("loadouts", None)
    with pytest.raises(TeamFileError, match=f"at most {MAX_WEAPONS} weapons"):
        team_from_dict(data, "k.json")
    data = _kasrkin()
    data["name"] = "K" * (MAX_NAME_CHARS + 1)
    with pytest.raises(TeamFileError, match=f"1 to {MAX_NAME_CHARS} characters"):
        team_from_dict(data, "k.json")
    data = _kasrkin()
    data["operatives"][0]["weapons"][0]["name"] = "Bolt\nPistol"
    with pytest.raises(TeamFileError, match="control characters"):
        team_from_dict(data, "k.json")


# --------------------------------------------------------------------------------------------
# Team ids and operative ids (class 6)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("team_id", ["ñandu", "---", "Kasrkin", "1st", "kas-rkin", "", "a" * 41])
def test_team_id_outside_ascii_lower_case_is_rejected(team_id: str) -> None:
    data = _kasrkin()
    data["id"] = team_id
    with pytest.raises(TeamFileError, match="field 'id': must be a lower-case ASCII letter"):
        team_from_dict(data, "k.json")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Ñandú Riders", "nandu_riders"),
        ("---", "team"),
        ("2024 - Kasrkin", "team_2024_kasrkin"),
        ("Angels of Death", "angels_of_death"),
        ("東京", "team"),
    ],
)
def test_safe_team_id(name: str, expected: str) -> None:
    assert safe_team_id(name) == expected


@given(st.text(max_size=60))
@PROPERTY
def test_every_derived_team_id_gives_operative_ids_the_notation_reads(name: str) -> None:
    # An importer's id for any dataset name is legal, and the operative ids made from it
    # (both players, same prefix or not) parse back unchanged through the notation.
    team_id = safe_team_id(name)
    assert team_problem(_kasrkin_team_with_id(team_id)) is None
    for other in (team_id, "kasrkin"):
        rosters = {
            "A": Roster.from_entries(_kasrkin_team_with_id(team_id), ["x"]),
            "B": Roster.from_entries(_kasrkin_team_with_id(other), ["x"]),
        }
        for ids in operative_ids(rosters).values():
            for op_id in ids:
                assert parse_action(f"Counteract {op_id}").op == op_id


_KASRKIN_TEAM = load_builtin_team("kasrkin")


def _kasrkin_team_with_id(team_id: str) -> Any:
    return attrs.evolve(_KASRKIN_TEAM, id=team_id)


# --------------------------------------------------------------------------------------------
# Roster files
# --------------------------------------------------------------------------------------------


def test_roster_file_limits_and_documents(tmp_path: Path) -> None:
    too_many = ["Kasrkin Trooper"] * (MAX_ROSTER_OPERATIVES + 1)
    path = _write(tmp_path, "r.json", {"team": "kasrkin", "operatives": too_many})
    with pytest.raises(TeamFileError, match=f"at most {MAX_ROSTER_OPERATIVES} operatives"):
        load_roster(path)
    path = _write(tmp_path, "r.json", {"team": "kasrkin", "operatives": ["K" * 5000]})
    with pytest.raises(TeamFileError, match="entry 1: at most 400 characters"):
        load_roster(path)
    path = _write(tmp_path, "r.json", {"team": "x" * 5000 + ".json", "operatives": []})
    with pytest.raises(TeamFileError, match="field 'team'"):
        load_roster(path)
    path = tmp_path / "deep.json"
    path.write_text('{"team": "kasrkin", "operatives": ' + "[" * 9000 + "]" * 9000 + "}")
    with pytest.raises(TeamFileError, match="nested more than 64"):
        load_roster(path)
    path.write_text('{"team": "kasrkin", "operatives": [1e400]}')
    with pytest.raises(TeamFileError, match="too large"):
        load_roster(path)
    path.write_bytes(b'{"team": "\xc3\x28"}')
    with pytest.raises(TeamFileError, match="not UTF-8"):
        load_roster(path)


def test_roster_naming_a_nonsense_team_file(tmp_path: Path) -> None:
    data = _kasrkin()
    data["operatives"][2]["apl"] = 0
    name = data["operatives"][2]["name"]
    _write(tmp_path, "mine.json", data)
    path = _write(tmp_path, "r.json", {"team": "mine.json", "operatives": []})
    with pytest.raises(TeamFileError, match=f"operative '{name}': field 'apl'"):
        load_roster(path)


# --------------------------------------------------------------------------------------------
# killteamjson
# --------------------------------------------------------------------------------------------


def _ktjson_file(folder: Path, data: Any) -> Path:
    path = folder / "TEST-BW.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("field", "value"),
    [("WOUNDS", 0), ("WOUNDS", 10**6), ("APL", 0), ("APL", 2.5), ("MOVE", '0"'), ("SAVE", "9+")],
)
def test_killteamjson_nonsense_operative_is_skipped_and_reported(
    tmp_path: Path, field: str, value: Any
) -> None:
    data = ktjson_fixture()
    name = data["opTypes"][0]["opTypeName"]
    data["opTypes"][0][field] = value
    result = import_killteamjson(_ktjson_file(tmp_path, data))
    (team,) = result.teams
    assert name not in [o.name for o in team.operatives]
    assert any(
        i.kind == "skipped" and name in i.where and "operative skipped" in i.message
        for i in result.issues
    )
    assert team_problem(team) is None


def test_killteamjson_nonsense_profile_is_skipped(tmp_path: Path) -> None:
    data = ktjson_fixture()
    data["opTypes"][0]["weapons"][0]["profiles"][0]["ATK"] = "0"
    result = import_killteamjson(_ktjson_file(tmp_path, data))
    assert any(
        "field 'attacks': must be a whole number from 1 to 20, got 0" in i.message
        for i in result.issues
    )


def test_killteamjson_team_with_nothing_usable_names_the_file(tmp_path: Path) -> None:
    data = ktjson_fixture()
    for op in data["opTypes"]:
        op["WOUNDS"] = 0
    path = _ktjson_file(tmp_path, data)
    with pytest.raises(KillTeamJsonError, match="at least one operative type") as info:
        import_killteamjson(path)
    assert str(info.value).startswith(str(path))


@pytest.mark.parametrize(
    ("name", "team_id"), [("Ñandú", "nandu"), ("---", "team"), ("3rd Company", "team_3rd_company")]
)
def test_killteamjson_derives_a_safe_team_id(tmp_path: Path, name: str, team_id: str) -> None:
    data = ktjson_fixture()
    data["killteamName"] = name
    (team,) = import_killteamjson(_ktjson_file(tmp_path, data)).teams
    assert team.id == team_id


@pytest.mark.parametrize(
    "text",
    ["[" * 50_000, '{"opTypes": 1e999, "killteamName": "x"}', '{"x": ' + "1" * 500 + "}"],
    ids=["deep", "1e999", "500-digits"],
)
def test_killteamjson_bad_documents(tmp_path: Path, text: str) -> None:
    path = tmp_path / "TEST-BW.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(KillTeamJsonError) as info:
        import_killteamjson(path)
    assert str(info.value).startswith(str(path))


# --------------------------------------------------------------------------------------------
# BattleScribe
# --------------------------------------------------------------------------------------------

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<catalogue name="2024 - Laughs">&lol3;</catalogue>"""


def _cat(folder: Path, text: str, name: str = "2024 - Gloomwardens.cat") -> Path:
    write_bsdata_fixture(folder)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _nested_catalogue(levels: int) -> str:
    inner = "".join("<selectionEntries><selectionEntry name='n' id='n'>" for _ in range(levels))
    outer = "</selectionEntry></selectionEntries>" * levels
    return f"<catalogue name='2024 - Deep' xmlns='x'>{inner}{outer}</catalogue>"


def _linked_catalogue(links: int) -> str:
    # A chain of shared entries, each linking the next: nesting stays shallow, but following
    # the links would recurse ``links`` deep.
    first = fixture_catalogue()
    chain = "".join(
        f'<selectionEntry type="upgrade" name="c{i}" id="chain-{i}"><entryLinks>'
        f'<entryLink name="c" id="cl-{i}" type="selectionEntry" targetId="chain-{i + 1}"/>'
        "</entryLinks></selectionEntry>"
        for i in range(links)
    )
    hook = (
        '<entryLinks><entryLink name="c" id="hook" type="selectionEntry" '
        'targetId="chain-0"/></entryLinks>'
    )
    text = first.replace("<sharedSelectionEntries>", f"<sharedSelectionEntries>{chain}", 1)
    chief = '<selectionEntry type="model" name="Chief" id="se-chief">'
    return text.replace(chief, chief + hook, 1)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (BILLION_LAUGHS, "document type declarations"),
        (_nested_catalogue(3000), "nested more than 100 levels"),
        ("<catalogue", "not readable XML"),
    ],
    ids=["entities", "deep-xml", "not-xml"],
)
def test_bsdata_hostile_catalogue_raises_naming_the_file(
    tmp_path: Path, text: str, words: str
) -> None:
    path = _cat(tmp_path, text)
    with pytest.raises(BsDataError, match=words) as info:
        import_bsdata(path)
    assert str(info.value).startswith(str(path))


def test_bsdata_link_chains_are_bounded(tmp_path: Path) -> None:
    text = _linked_catalogue(3000)
    assert "<sharedSelectionEntries>" in fixture_catalogue()
    path = _cat(tmp_path, text)
    with pytest.raises(BsDataError, match="linked more than 100 deep"):
        import_bsdata(path)


def test_bsdata_bad_catalogue_among_good_ones_is_reported(tmp_path: Path) -> None:
    folder = write_bsdata_fixture(tmp_path)
    (folder / "2024 - Laughs.cat").write_text(BILLION_LAUGHS, encoding="utf-8")
    result = import_bsdata(folder)
    assert [t.name for t in result.teams] == ["Gloomwardens"]
    assert any(i.kind == "skipped" and "document type" in i.message for i in result.issues)


def test_bsdata_nonsense_wounds_skip_the_operative(tmp_path: Path) -> None:
    folder = tmp_path / "bs"
    write_bsdata_fixture(folder, chief_wounds=0)
    result = import_bsdata(folder)
    (team,) = result.teams
    assert "Gloomwarden Chief" not in [o.name for o in team.operatives]
    assert any("field 'wounds': must be a whole number from 1 to 50" in i.message
               for i in result.issues)  # fmt: skip


# --------------------------------------------------------------------------------------------
# Property tests: any input loads or raises the documented error class
# --------------------------------------------------------------------------------------------


@given(_mutation(KASRKIN))
@PROPERTY
def test_property_team_dict_mutations(data: Any) -> None:
    try:
        team = team_from_dict(data, "k.json")
    except TeamFileError as exc:
        assert str(exc).startswith("k.json: ") and "\n" not in str(exc)
    else:
        assert team_problem(team) is None


@given(JSON_VALUES)
@PROPERTY
def test_property_team_file_any_document(data: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.json"
        try:
            path.write_text(json.dumps(data), encoding="utf-8")
        except ValueError:
            return
        with contextlib.suppress(TeamFileError):
            load_team(path)


@given(
    st.fixed_dictionaries(
        {
            "team": st.one_of(
                st.sampled_from(["kasrkin", "t.json", "../x", "", "r.json"]), JSON_VALUES
            ),
            "operatives": st.one_of(
                st.lists(
                    st.one_of(
                        st.sampled_from(list(load_builtin_team("kasrkin").default_roster)),
                        st.text(max_size=30),
                    ),
                    max_size=14,
                ),
                JSON_VALUES,
            ),
        },
        optional={"extra": JSON_VALUES},
    ),
    _mutation(KASRKIN),
)
@PROPERTY
def test_property_roster_file(roster: dict[str, Any], team: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _write(Path(folder), "t.json", team)
        path = _write(Path(folder), "r.json", roster)
        try:
            load_roster(path)
        except TeamFileError as exc:
            assert "\n" not in str(exc)


KTJSON = ktjson_fixture()


@given(_mutation(KTJSON))
@PROPERTY
def test_property_killteamjson_team_file(data: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = _ktjson_file(Path(folder), data)
        try:
            result = import_killteamjson(path)
        except KillTeamJsonError:
            return
        for team in result.teams:
            # What an importer returns is within the team limits (and so saves as a team
            # file that loads again).
            assert team_problem(team) is None
            check_team(team)


CATALOGUE = fixture_catalogue()
_SLOTS = [
    m.start()
    for m in re.finditer(r'(?<=">)[^<]*(?=</characteristic>)|(?<=value=")[^"]*', CATALOGUE)
]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(_SLOTS),
            st.one_of(
                st.sampled_from(["0", "-1", "0+", "0/0", "9" * 400, "1e999", "nan", "2.5", ""]),
                st.text(alphabet='0123456789+/.-"x ', max_size=12),
            ),
        ),
        min_size=1,
        max_size=4,
    )
)
@PROPERTY
def test_property_bsdata_catalogue_values(changes: list[tuple[int, str]]) -> None:
    text = CATALOGUE
    for start, value in sorted(changes, reverse=True):
        end = start + len(re.match(r'[^<"]*', text[start:]).group(0))  # type: ignore[union-attr]
        text = text[:start] + value.replace('"', "&quot;") + text[end:]
    with tempfile.TemporaryDirectory() as folder:
        path = _cat(Path(folder), text)
        try:
            result = import_bsdata(path)
        except BsDataError:
            return
        for team in result.teams:
            assert team_problem(team) is None


# --------------------------------------------------------------------------------------------
# The command line: exit 2, one line on stderr, no traceback
# --------------------------------------------------------------------------------------------


def _one_line_error(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(args)
    _, err = capsys.readouterr()
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["operatives"][0].update(wounds=0),
        lambda d: d.update(id="ñandu"),
        lambda d: d["operatives"][0].update(move=1e300),
    ],
    ids=["wounds-0", "bad-id", "move-1e300"],
)
def test_cli_play_teams_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Callable[[Any], Any]
) -> None:
    data = _kasrkin()
    change(data)
    path = _write(tmp_path, "bad.json", data)
    err = _one_line_error(["play", "--teams", str(path), "kasrkin"], capsys)
    assert str(path) in err


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000, '{"id": 1e400}', "\udcff"],
    ids=["deep", "1e400", "not-utf8"],
)
def test_cli_play_teams_bad_documents(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    err = _one_line_error(["play", "--teams", str(path), "kasrkin"], capsys)
    assert str(path) in err


def test_cli_play_teams_unusable_path(capsys: pytest.CaptureFixture[str]) -> None:
    _one_line_error(["play", "--teams", "x" * 5000, "kasrkin"], capsys)


def test_cli_play_rosters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _write(
        tmp_path, "good.json",
        {"team": "kasrkin", "operatives": list(load_builtin_team("kasrkin").default_roster)},
    )  # fmt: skip
    bad = tmp_path / "bad.json"
    bad.write_text('{"team": "kasrkin", "operatives": ' + "[" * 10_000 + "}")
    err = _one_line_error(["play", "--rosters", str(bad), str(good)], capsys)
    assert "nested more than 64" in err
    huge = _write(
        tmp_path, "huge.json", {"team": "kasrkin", "operatives": ["Kasrkin Trooper"] * 60}
    )
    err = _one_line_error(["play", "--rosters", str(huge), str(good)], capsys)
    assert "at most 50 operatives" in err


def test_cli_teams_import_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ktjson = tmp_path / "TEST-BW.json"
    ktjson.write_text("[" * 100_000, encoding="utf-8")
    out = tmp_path / "out"
    err = _one_line_error(
        ["teams", "import", str(ktjson), "--format", "killteamjson", "-o", str(out)], capsys
    )
    assert str(ktjson) in err
    cat = _cat(tmp_path / "bs", BILLION_LAUGHS)
    err = _one_line_error(
        ["teams", "import", str(cat), "--format", "bsdata", "-o", str(out)], capsys
    )
    assert "document type declarations" in err
    assert not out.exists()


def test_load_team_ref_errors_are_battle_errors(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("{" * 10_000, encoding="utf-8")
    with pytest.raises(BattleError, match="nested"):
        load_team_ref(str(path))
    assert issubclass(BattleError, KillTeamError)
