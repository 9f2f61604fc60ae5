"""Roster files: a small JSON selection from a built-in team or a team file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.teams import TeamFileError, load_builtin_team, load_roster, save_team


def write(tmp_path: Path, data: object, name: str = "roster.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_roster_file_from_builtin_team_default_is_legal(tmp_path: Path) -> None:
    team = load_builtin_team("kasrkin")
    roster = load_roster(
        write(tmp_path, {"team": "kasrkin", "operatives": list(team.default_roster)})
    )
    assert roster.team == team and roster.legal


def test_roster_file_with_a_team_file_path(tmp_path: Path) -> None:
    team = load_builtin_team("legionaries")
    save_team(team, tmp_path / "my_team.json")
    roster = load_roster(
        write(tmp_path, {"team": "my_team.json", "operatives": list(team.default_roster)})
    )
    assert roster.team == team


def test_illegal_roster_file_names_every_broken_rule(tmp_path: Path) -> None:
    sergeant = "Kasrkin Sergeant [Plasma Pistol; Chainsword]"
    ops = [sergeant, sergeant, "Ogryn"]
    path = write(tmp_path, {"team": "kasrkin", "operatives": ops})
    with pytest.raises(TeamFileError) as info:
        load_roster(path)
    message = str(info.value)
    assert message.startswith(f"{path}: field 'operatives': ")
    assert "unknown operative 'Ogryn'" in message and "size:" in message and "leader:" in message
    # Without validation the roster loads and lists the same problems.
    assert len(load_roster(path, validate=False).validate()) == 3


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"team": "kasrkin", "operatives": [], "colour": "red"}, "unknown field 'colour'"),
        ({"operatives": []}, "field 'team' must be"),
        (
            {"team": "kasrkin", "operatives": "Kasrkin Sergeant"},
            "field 'operatives' must be a list",
        ),
        (
            {"team": "no_such_team", "operatives": []},
            "field 'team': no built-in team 'no_such_team'",
        ),
    ],
    ids=["unknown-field", "missing-team", "operatives-not-a-list", "unknown-team"],
)
def test_bad_roster_file_names_the_field(tmp_path: Path, data: object, message: str) -> None:
    with pytest.raises(TeamFileError, match=message):
        load_roster(write(tmp_path, data))


def test_leader_chosen_from_several_types_is_required_exactly_once() -> None:
    # Legionaries are led by an Aspiring Champion or a Chosen: exactly one of them.
    from engine.teams import Roster

    team = load_builtin_team("legionaries")
    assert team.selection.leader == ("Legionary Aspiring Champion", "Legionary Chosen")
    others = [n for n in team.default_roster if not n.startswith(team.selection.leader)]
    no_leader = Roster.from_entries(team, (*others, "Legionary Warrior [Boltgun; Fists]"))
    assert no_leader.validate() == [
        "leader: select exactly one 'Legionary Aspiring Champion' or 'Legionary Chosen' "
        "(selected 0)"
    ]
    two = Roster.from_entries(
        team,
        (
            "Legionary Aspiring Champion [Tainted Bolt Pistol + Power Maul]",
            "Legionary Chosen [Plasma Pistol; Daemon Blade]",
            *others[:4],
        ),
    )
    assert two.validate() == [
        "leader: select exactly one 'Legionary Aspiring Champion' or 'Legionary Chosen' "
        "(selected 2)"
    ]
    assert team.default().legal


def test_combined_limit_counts_several_types_together() -> None:
    # Kasrkin: at most four Gunners and Sharpshooters together; four Gunners (each with a
    # different option, so each option once) plus the Sharpshooter is one too many, though
    # each selector alone is within its own limit.
    from engine.teams import Roster

    team = load_builtin_team("kasrkin")
    ops = (
        "Kasrkin Sergeant [Bolt Pistol; Power Weapon]",
        "Kasrkin Gunner [Flamer; Gun Butt]",
        "Kasrkin Gunner [Grenade Launcher; Gun Butt]",
        "Kasrkin Gunner [Meltagun; Gun Butt]",
        "Kasrkin Gunner [Plasma Gun; Gun Butt]",
        "Kasrkin Sharpshooter",
        "Kasrkin Combat Medic",
        "Kasrkin Vox-Trooper",
        "Kasrkin Trooper",
        "Kasrkin Trooper",
    )
    problems = Roster.from_entries(team, ops).validate()
    assert problems == [
        "combined limit: at most 4 of 'Kasrkin Gunner', 'Kasrkin Sharpshooter' together "
        "(selected 5)"
    ]
