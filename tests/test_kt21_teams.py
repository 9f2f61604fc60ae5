"""KT21 teams (``rules/KT21.md`` 4.1, decision 8): team files with the KT21 datacard values,
the two built-in KT21 teams, the edition check of the two rulesets and the ``teams`` command."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.game.context import GameOptions, GameOptionsError, Hooks
from engine.geometry import load_killzone
from engine.rules.registry import team_rules
from engine.rulesets import kt21, kt24, new_game
from engine.teams.io import (
    TeamFileError,
    builtin_teams,
    load_builtin_team,
    team_from_dict,
    team_to_dict,
)
from engine.teams.model import Operative

KT21_TEAMS = ("kt21_kasrkin", "kt21_legionaries")


def _kt21_dict() -> dict[str, Any]:
    """The file structure of the built-in KT21 Kasrkin (a fresh copy to edit)."""
    return copy.deepcopy(team_to_dict(load_builtin_team("kt21_kasrkin")))


def _card(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(op for op in data["operatives"] if op["name"] == name)


# -------------------------------------------------------------------------------------------
# Team files (rules/KT21.md 4.1)
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("team_id", KT21_TEAMS)
def test_kt21_team_file_round_trips_with_its_edition(team_id: str) -> None:
    """A KT21 team file loads, dumps and loads to an equal team, and the dump is the shipped
    file itself: the file says ``"edition": "kt21"`` and every datacard shows its DF and GA
    (4.1: the KT21 datacard has both columns)."""
    team = load_builtin_team(team_id)
    assert team.edition == "kt21"
    data = team_to_dict(team)
    assert team_from_dict(data) == team
    shipped = json.loads((Path("teams") / f"{team_id}.json").read_text(encoding="utf-8"))
    assert data == shipped
    assert data["edition"] == "kt21"
    assert all("defence" in op and "group_activation" in op for op in data["operatives"])


def test_kt24_team_files_are_unchanged_by_the_kt21_fields() -> None:
    """KT24 files round-trip to exactly their shipped contents: no ``edition``, ``defence``,
    ``group_activation``, ``invulnerable`` or ``kt21_rules`` key is added (KT24 is the
    default edition, and its datacards have none of these, ``rules/KT21.md`` 4.1)."""
    for team_id in builtin_teams():
        data = team_to_dict(load_builtin_team(team_id))
        shipped = json.loads((Path("teams") / f"{team_id}.json").read_text(encoding="utf-8"))
        assert data == shipped, team_id
        text = json.dumps(data)
        for key in ('"edition"', '"defence"', '"group_activation"', '"kt21_rules"'):
            assert key not in text, (team_id, key)


def test_kt21_move_written_with_shapes_is_held_in_inches() -> None:
    """Move ``3⬤`` is three circles of 2" (4.1, 7.1: ● = 2"), so 6"; ``2● ▲`` is 5"; and it
    is written back in inches."""
    data = _kt21_dict()
    _card(data, "Kasrkin Trooper")["move"] = "3⬤"
    _card(data, "Kasrkin Vox-Trooper")["move"] = "2● ▲"
    team = team_from_dict(data)
    assert team.operative("Kasrkin Trooper").move == 6.0
    assert team.operative("Kasrkin Vox-Trooper").move == 5.0
    assert _card(team_to_dict(team), "Kasrkin Vox-Trooper")["move"] == '5"'


def test_kt21_bad_move_shape_is_refused_naming_the_field() -> None:
    """A Move of shapes the digest does not know (4.1: ▲ ● ■ ⬟) is an error naming the
    operative and the field."""
    data = _kt21_dict()
    _card(data, "Kasrkin Trooper")["move"] = "3★"
    with pytest.raises(TeamFileError, match=r"operative 'Kasrkin Trooper': field 'move'"):
        team_from_dict(data, "x.json")


def test_kt21_invulnerable_save_read_written_and_checked() -> None:
    """An Invulnerable Save is written ``"4+"`` (10.3: x+) and read as 4; ``"7+"`` is no
    dice threshold (4.3: a D6) and is refused naming the operative and the field."""
    data = _kt21_dict()
    _card(data, "Kasrkin Trooper")["invulnerable"] = "4+"
    team = team_from_dict(data)
    assert team.operative("Kasrkin Trooper").invulnerable == 4
    assert _card(team_to_dict(team), "Kasrkin Trooper")["invulnerable"] == "4+"
    _card(data, "Kasrkin Trooper")["invulnerable"] = "7+"
    with pytest.raises(
        TeamFileError, match=r"operative 'Kasrkin Trooper': field 'invulnerable'.*7\+"
    ):
        team_from_dict(data, "x.json")


def test_kt21_weapon_rules_parse_shapes_and_refuse_unknown_rules() -> None:
    """``kt21_rules`` holds the SR and ! columns (12): ``Rng ⬟`` is a range of 6" (⬟ = 6");
    a name that is no common rule and no ``*`` team rule is refused naming operative, weapon,
    profile and field."""
    data = _kt21_dict()
    gun = _card(data, "Kasrkin Trooper")["weapons"][0]
    gun["profiles"][0].pop("rules", None)
    gun["profiles"][0]["kt21_rules"] = "Rng ⬟, AP1, MW2"
    team = team_from_dict(data)
    rules = team.operative("Kasrkin Trooper").weapons[0].profiles[0].kt21_rules
    assert rules.value("Rng") == 6.0 and rules.value("AP") == 1 and rules.value("MW") == 2
    gun["profiles"][0]["kt21_rules"] = "Rng ⬟, Sparkly"
    with pytest.raises(
        TeamFileError,
        match=r"operative 'Kasrkin Trooper': weapon 'Hot-shot lasgun': profile 0: "
        r"field 'kt21_rules'.*Sparkly",
    ):
        team_from_dict(data, "x.json")


def test_a_kt24_team_with_kt21_values_is_refused() -> None:
    """A KT24 datacard has no DF (KT24 always rolls three defence dice) and no KT21 weapon
    rules: a KT24 file giving them is refused, naming the operative, the field and the fix."""
    data = copy.deepcopy(team_to_dict(load_builtin_team("kasrkin")))
    data["operatives"][0]["defence"] = 2
    with pytest.raises(TeamFileError, match=r"field 'defence' is a KT21 datacard value"):
        team_from_dict(data, "x.json")
    data = copy.deepcopy(team_to_dict(load_builtin_team("kasrkin")))
    data["operatives"][0]["weapons"][0]["profiles"][0]["kt21_rules"] = "AP1"
    with pytest.raises(TeamFileError, match=r"field 'kt21_rules' holds KT21 weapon rules"):
        team_from_dict(data, "x.json")


def test_a_kt21_team_with_kt24_weapon_rules_is_refused() -> None:
    """KT21 names its rules differently (12: APx is KT24's Piercing x): KT24 ``rules`` on a
    KT21 team are refused, pointing at ``kt21_rules``."""
    data = _kt21_dict()
    gun = _card(data, "Kasrkin Trooper")["weapons"][0]["profiles"][0]
    gun.pop("kt21_rules", None)
    gun["rules"] = "Piercing 1"
    with pytest.raises(TeamFileError, match=r"field 'rules' holds KT24 weapon rules.*kt21_rules"):
        team_from_dict(data, "x.json")


def test_an_unknown_edition_is_refused() -> None:
    """A team's edition is one of the rulesets that play datacards (kt24, kt21, kt18)."""
    data = _kt21_dict()
    data["edition"] = "kt20"
    with pytest.raises(TeamFileError, match=r"field 'edition': must be kt24 or kt21 or kt18"):
        team_from_dict(data, "x.json")


def test_kt21_out_of_range_defence_is_refused() -> None:
    """DF is a number of defence dice (4.1): 0 dice or 9 dice is not a datacard."""
    data = _kt21_dict()
    _card(data, "Kasrkin Trooper")["defence"] = 0
    with pytest.raises(TeamFileError, match=r"field 'defence': must be a whole number from 1"):
        team_from_dict(data, "x.json")


# -------------------------------------------------------------------------------------------
# The built-in KT21 teams
# -------------------------------------------------------------------------------------------


def test_builtin_team_lists_by_edition() -> None:
    """``builtin_teams()`` lists the KT24 teams (what every KT24 caller plays), ``"kt21"`` the
    KT21 ones, ``None`` every built-in team; each KT21 team loads by its id."""
    kt24_ids = builtin_teams()
    assert not set(KT21_TEAMS) & set(kt24_ids)
    assert builtin_teams("kt21") == list(KT21_TEAMS)
    assert builtin_teams(None) == sorted([*kt24_ids, *KT21_TEAMS, *builtin_teams("kt18")])


@pytest.mark.parametrize("team_id", KT21_TEAMS)
def test_kt21_default_roster_is_legal_with_exactly_one_leader(team_id: str) -> None:
    """Matched play needs exactly one LEADER (4.1); the default roster is legal under the
    team's selection rules."""
    team = load_builtin_team(team_id)
    roster = team.default()
    assert roster.validate() == []
    leaders = [
        roster.datacard(i).name
        for i in range(len(roster.entries))
        if "LEADER" in roster.datacard(i).keywords
    ]
    assert len(leaders) == 1


def test_kt21_kasrkin_datacards_follow_the_kt21_catalogue() -> None:
    """The Kasrkin Sergeant's KT21 card prints M 3⬤ (6"), APL 2, GA 1, DF 3, SV 4+, W 9, and a
    Trooper's hot-shot lasgun BS 4+ (the 2021 catalogue's numbers); ten operatives, one of
    them the Sergeant, Gunners and the Sharpshooter at most four together."""
    team = load_builtin_team("kt21_kasrkin")
    sgt: Operative = team.operative("Kasrkin Sergeant")
    assert (sgt.move, sgt.apl, sgt.group_activation, sgt.defence, sgt.save, sgt.wounds) == (
        6.0,
        2,
        1,
        3,
        4,
        9,
    )
    lasgun = team.operative("Kasrkin Trooper").weapon("Hot-shot lasgun").profiles[0]
    assert (lasgun.attacks, lasgun.hit, lasgun.normal_damage, lasgun.critical_damage) == (
        4,
        4,
        3,
        4,
    )
    assert team.selection.size == (10, 10)
    assert team.selection.combined_limits == ((("Kasrkin Gunner", "Kasrkin Sharpshooter"), 4),)


def test_kt21_legionary_datacards_follow_the_kt21_catalogue() -> None:
    """A KT21 Legionary Warrior prints APL 3, SV 3+, W 12 (the 2021 catalogue); the team is
    six operatives led by an Aspiring Champion or a Chosen."""
    team = load_builtin_team("kt21_legionaries")
    warrior = team.operative("Legionary Warrior")
    assert (warrior.apl, warrior.save, warrior.wounds, warrior.defence) == (3, 3, 12, 3)
    assert team.selection.size == (6, 6)
    assert set(team.selection.leader) == {"Legionary Aspiring Champion", "Legionary Chosen"}


@pytest.mark.parametrize("team_id", KT21_TEAMS)
def test_kt21_team_rules_are_reported_not_silently_played(team_id: str) -> None:
    """Every faction rule, ability, unique action and ``*`` weapon rule of a KT21 team is
    declared with an id under the team's own identity, and none is played through a KT24
    team's implementation of the same name (a KT21 rule is another text)."""
    decls = team_rules(load_builtin_team(team_id))
    assert decls
    assert all(d.id.startswith(f"{team_id}/") for d in decls)
    assert all(d.played_by is None or d.played_by.startswith(f"{team_id}/") for d in decls)


def test_kt21_team_weapon_rules_are_declared() -> None:
    """A KT21 ``Name*`` weapon rule is a team rule the registry lists (12: ``*`` rules are
    explained on the datacard): the Butcher's chain axe has Vicious Blows*."""
    decls = team_rules(load_builtin_team("kt21_legionaries"))
    assert "kt21_legionaries/weapon_rule/vicious_blows" in {d.id for d in decls}


# -------------------------------------------------------------------------------------------
# The rulesets refuse a team of the other edition
# -------------------------------------------------------------------------------------------


def test_a_kt21_battle_refuses_a_kt24_team() -> None:
    """KT21 rolls DF defence dice and reads KT21 weapon rules (4.1, 12): a KT24 team has
    neither, so the KT21 installer refuses it, naming the team and both editions."""
    kt21_roster = load_builtin_team("kt21_kasrkin").default()
    kt24_roster = load_builtin_team("kasrkin").default()
    with pytest.raises(
        GameOptionsError, match=r"player B's team 'kasrkin' .*KT24 datacards: a KT21 battle"
    ):
        kt21.install(Hooks(), GameOptions(ruleset="kt21"), {"A": kt21_roster, "B": kt24_roster})


def test_a_kt24_battle_refuses_a_kt21_team() -> None:
    """The KT24 installer refuses a KT21 team in the same words, and ``new_game`` with KT24
    options does too (the check is at the top of the installer)."""
    kt21_roster = load_builtin_team("kt21_legionaries").default()
    kt24_roster = load_builtin_team("kasrkin").default()
    with pytest.raises(
        GameOptionsError,
        match=r"player A's team 'kt21_legionaries' .*KT21 datacards: a KT24 battle",
    ):
        kt24.install(Hooks(), GameOptions(), {"A": kt21_roster, "B": kt24_roster})
    with pytest.raises(GameOptionsError, match=r"KT21 datacards: a KT24 battle"):
        new_game(load_killzone("close_quarters"), kt21_roster, kt24_roster)


def test_a_kt21_battle_accepts_two_kt21_teams() -> None:
    """Two KT21 teams pass the edition check: a KT21 battle starts."""
    a = load_builtin_team("kt21_kasrkin").default()
    b = load_builtin_team("kt21_legionaries").default()
    state = new_game(load_killzone("close_quarters"), a, b, GameOptions(ruleset="kt21"))
    assert state.legal_actions()


# -------------------------------------------------------------------------------------------
# killteam teams
# -------------------------------------------------------------------------------------------


def test_teams_list_names_the_kt21_teams_with_their_edition(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``teams list`` prints the KT24 table as before, then the KT21 teams with an edition
    column."""
    assert main(["teams", "list"]) == 0
    out = capsys.readouterr().out
    assert "Kill Team 2021" in out
    for team_id in KT21_TEAMS:
        line = next(line for line in out.splitlines() if team_id in line)
        assert "kt21" in line.replace(team_id, "")


def test_teams_show_prints_the_kt21_datacard_columns(capsys: pytest.CaptureFixture[str]) -> None:
    """A KT21 team is shown with its datacard columns (M, APL, GA, DF, SV, W, 4.1) and its
    KT21 weapon rules."""
    assert main(["teams", "show", "kt21_kasrkin"]) == 0
    out = capsys.readouterr().out
    for column in ("GA", "DF", "SV", "Edition: kt21"):
        assert column in out
    assert "AP2, Hot" in out
