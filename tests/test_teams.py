"""Team files, built-in teams and roster validation (``rules/KT24.md`` sections 2, 7)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import attrs
import pytest

from engine.dice import Target, shoot
from engine.teams import (
    Roster,
    Selection,
    TeamFileError,
    builtin_teams,
    load_builtin_team,
    load_team,
    save_team,
    team_from_dict,
    team_to_dict,
)

BUILTIN = [
    "angels_of_death",
    "hierotek_circle",
    "kasrkin",
    "kommandos",
    "legionaries",
    "pathfinders",
]


def test_all_six_builtin_teams_ship() -> None:
    assert builtin_teams() == BUILTIN


@pytest.mark.parametrize("team_id", BUILTIN)
def test_round_trip_load_dump_load(team_id: str, tmp_path: Path) -> None:
    team = load_builtin_team(team_id)
    assert team_from_dict(team_to_dict(team)) == team
    path = save_team(team, tmp_path / f"{team_id}.json")
    assert load_team(path) == team


@pytest.mark.parametrize("team_id", BUILTIN)
def test_default_roster_is_legal(team_id: str) -> None:
    team = load_builtin_team(team_id)
    assert team.default().validate() == []
    assert team.default().legal


@pytest.mark.parametrize("team_id", BUILTIN)
def test_builtin_team_is_fully_described(team_id: str) -> None:
    team = load_builtin_team(team_id)
    assert team.provenance.source == "built-in"
    # Each team follows the dataslate its source record names (the killteamjson sample's
    # per-team "version": Legionaries and Kommandos are still "October '25").
    expected = {"kommandos": "October '25", "legionaries": "October '25"}.get(
        team_id, "January '26"
    )
    assert team.provenance.dataslate == expected
    assert "killteamjson fe6d04b7" in team.provenance.checked_against
    assert len(team.ploys) == 8
    assert {p.kind for p in team.ploys} == {"strategy", "firefight"}
    items = [*team.abilities, *team.ploys, *team.equipment]
    for op in team.operatives:
        items += [*op.abilities, *op.actions]
        assert all(a.ap is not None for a in op.actions)
    for item in items:
        assert item.summary and "\n" not in item.summary, item.name


def test_bsdata_checked_teams() -> None:
    for team_id in ("kasrkin", "kommandos", "legionaries"):
        assert "bsdata bee230c4" in load_builtin_team(team_id).provenance.checked_against


def test_roster_validate_names_each_broken_rule() -> None:
    team = load_builtin_team("kasrkin")
    sel = Selection(
        size=(3, 3),
        leader="Kasrkin Sergeant",
        limits=(("Kasrkin Sharpshooter", 1),),
        keyword_limits=(("GUNNER", 1),),
    )
    team = attrs.evolve(team, selection=sel)
    roster = Roster(
        team,
        (
            "Kasrkin Sharpshooter",
            "Kasrkin Sharpshooter",
            "Kasrkin Gunner",
            "Kasrkin Gunner",
            "Kasrkin Nobody",
        ),
    )
    problems = roster.validate()
    text = "\n".join(problems)
    assert any(p.startswith("size:") for p in problems)
    assert any(p.startswith("leader:") and "Kasrkin Sergeant" in p for p in problems)
    assert any(p.startswith("limit:") and "Kasrkin Sharpshooter" in p for p in problems)
    assert any(p.startswith("keyword limit:") and "GUNNER" in p for p in problems)
    assert "unknown operative 'Kasrkin Nobody'" in text
    assert not roster.legal


def test_kasrkin_selection_caps_gunners() -> None:
    team = load_builtin_team("kasrkin")
    roster = list(team.default_roster)
    roster[roster.index("Kasrkin Trooper")] = "Kasrkin Gunner [Flamer; Gun Butt]"
    roster[roster.index("Kasrkin Vox-Trooper")] = "Kasrkin Gunner [Meltagun; Gun Butt]"
    problems = Roster.from_entries(team, roster).validate()
    # The default has gunners with plasma gun, meltagun and volley gun plus the Sharpshooter;
    # a second meltagun breaks "each option only once", and five Gunners plus the
    # Sharpshooter (6) break "no more than four of these combined".
    assert "limit: at most 1 'Kasrkin Gunner [Meltagun; Gun Butt]' (selected 2)" in problems
    assert (
        "combined limit: at most 4 of 'Kasrkin Gunner', 'Kasrkin Sharpshooter' together "
        "(selected 6)"
    ) in problems


def _kasrkin_dict() -> dict[str, Any]:
    return copy.deepcopy(team_to_dict(load_builtin_team("kasrkin")))


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "bad_team.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _error(tmp_path: Path, data: dict[str, Any]) -> str:
    path = _write(tmp_path, data)
    with pytest.raises(TeamFileError) as info:
        load_team(path)
    message = str(info.value)
    assert str(path) in message
    assert "\n" not in message
    return message


def test_bad_file_unknown_field(tmp_path: Path) -> None:
    data = _kasrkin_dict()
    data["operatives"][0]["weapons"][0]["profiles"][0]["colour"] = "red"
    message = _error(tmp_path, data)
    assert "operative 'Kasrkin Sergeant'" in message
    assert "weapon 'Bolt Pistol'" in message
    assert "unknown field 'colour'" in message


def test_bad_file_save_out_of_range(tmp_path: Path) -> None:
    data = _kasrkin_dict()
    data["operatives"][1]["save"] = "7+"
    message = _error(tmp_path, data)
    assert "operative 'Kasrkin Combat Medic'" in message
    assert "field 'save'" in message and "7+" in message


def test_bad_file_damage_without_critical(tmp_path: Path) -> None:
    data = _kasrkin_dict()
    data["operatives"][0]["weapons"][1]["profiles"][0]["damage"] = "3"
    message = _error(tmp_path, data)
    assert "operative 'Kasrkin Sergeant'" in message
    assert "weapon 'Hot-Shot Lasgun'" in message
    assert "field 'damage'" in message


def test_bad_file_unknown_weapon_rule(tmp_path: Path) -> None:
    data = _kasrkin_dict()
    data["operatives"][0]["weapons"][0]["profiles"][0]["rules"] = 'Rang 8"'
    message = _error(tmp_path, data)
    assert "weapon 'Bolt Pistol'" in message
    assert "field 'rules'" in message
    assert "Rang 8" in message


def test_bad_file_wrong_type(tmp_path: Path) -> None:
    data = _kasrkin_dict()
    data["operatives"][0]["weapons"][0]["profiles"][0]["attacks"] = "four"
    message = _error(tmp_path, data)
    assert "operative 'Kasrkin Sergeant'" in message
    assert "weapon 'Bolt Pistol'" in message
    assert "field 'attacks'" in message


def test_missing_builtin_team_lists_the_others() -> None:
    with pytest.raises(TeamFileError, match="kasrkin"):
        load_builtin_team("no_such_team")


@pytest.mark.parametrize("team_id", BUILTIN)
def test_attack_profiles_feed_the_dice_core(team_id: str) -> None:
    team = load_builtin_team(team_id)
    op = team.operatives[0]
    ranged = [w for w in op.weapons if w.kind == "ranged"]
    assert ranged, op.name
    profile = ranged[0].profile()
    result = shoot(profile.attack_profile(), Target(save=3, wounds=12))
    assert (
        0
        < result.expected_damage
        <= profile.attacks * max(profile.normal_damage, profile.critical_damage)
        + 6 * profile.attacks
    )
    assert result.damage.mean() == result.expected_damage
