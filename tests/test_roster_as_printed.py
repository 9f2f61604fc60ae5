"""Roster rules as printed (issue 31, readings group C): selections that count as two or as
half, operatives a team must include, and repeated roster choices the dataslate does not
forbid (``docs/RULINGS.md``, Readings chosen: Roster rules).

The counts come from the teams' composition texts: Pathfinders are one Shas'Ui and eleven
selections, the MB3 Recon Drone counting as two; Kommandos are one Boss Nob and nine
selections, the Grot and the Bomb Squig counting as half a selection each; a Hierotek Circle
has exactly one Plasmacyte Accelerator and one Plasmacyte Reanimator.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.teams import load_builtin_team
from engine.teams.io import TeamFileError, load_team, team_to_dict
from engine.teams.model import Roster

PATHFINDERS = load_builtin_team("pathfinders")
KOMMANDOS = load_builtin_team("kommandos")
HIEROTEK = load_builtin_team("hierotek_circle")
AOD = load_builtin_team("angels_of_death")


def swap(team_roster: Roster, out: str, *new: str) -> Roster:
    """``team_roster`` with the first ``out`` entry replaced by the entries ``new`` (none:
    removed)."""
    entries = list(team_roster.entries)
    i = next(k for k, e in enumerate(entries) if e == out)
    return Roster.from_entries(team_roster.team, [*entries[:i], *new, *entries[i + 1 :]])


def test_pathfinders_mb3_recon_drone_counts_as_two_selections() -> None:
    """One Shas'Ui and eleven selections make twelve. The default roster (twelve operatives,
    no MB3) is legal. Swapping a Shas'La for the MB3 gives twelve operatives but thirteen
    selections (too many); dropping one more Shas'La gives eleven operatives and twelve
    selections (legal); eleven operatives without the MB3 are eleven selections (too few)."""
    default = PATHFINDERS.default()
    assert len(default.operatives) == 12 and default.legal
    with_drone = swap(default, "Shas'La Pathfinder", "MB3 Recon Drone")
    problems = with_drone.validate()
    assert problems == [
        "size: team 'Pathfinders' selects 12 selections; these 12 operatives make 13 "
        "('MB3 Recon Drone' counts as 2)"
    ]
    assert swap(with_drone, "Shas'La Pathfinder").legal
    short = swap(default, "Shas'La Pathfinder")
    assert len(short.operatives) == 11
    assert any("these 11 operatives make 11" in p for p in short.validate())


def test_kommandos_grot_and_bomb_squig_count_as_half_a_selection_each() -> None:
    """One Boss Nob and nine selections make ten. Grot and Bomb Squig together are one
    selection, so swapping a Boy for both gives eleven operatives and ten selections
    (legal); adding both to the default ten gives eleven selections (too many); eleven
    operatives of whole selections are eleven (too many: the roster the old size of 10-11
    let through)."""
    default = KOMMANDOS.default()
    assert len(default.operatives) == 10 and default.legal
    pair = swap(default, "Kommando Boy", "Kommando Boy", "Kommando Grot", "Kommando Bomb Squig")
    assert not pair.legal  # both added: 10 + 1 = 11 selections
    assert swap(default, "Kommando Boy", "Kommando Grot", "Kommando Bomb Squig").legal
    eleven = swap(default, "Kommando Boy", "Kommando Boy", "Kommando Boy")
    assert len(eleven.operatives) == 11
    assert any("these 11 operatives make 11" in p for p in eleven.validate())


def test_kommandos_lone_half_selection_takes_a_whole_one() -> None:
    """The reading chosen (docs/RULINGS.md): two halves share one selection, a lone half still
    takes one. A Grot in place of a Boy: ten operatives, 9.5 selections, rounded up to ten
    (legal); a Grot added to the default ten: 10.5, rounded up to eleven (too many)."""
    default = KOMMANDOS.default()
    assert swap(default, "Kommando Boy", "Kommando Grot").legal
    added = swap(default, "Kommando Boy", "Kommando Boy", "Kommando Grot")
    assert any("these 11 operatives make 11" in p for p in added.validate())
    assert KOMMANDOS.selection.selections(["Kommando Grot"]) == 1
    assert KOMMANDOS.selection.selections(["Kommando Grot", "Kommando Bomb Squig"]) == 1


@pytest.mark.parametrize("required", ["Plasmacyte Accelerator", "Plasmacyte Reanimator"])
def test_hierotek_circle_must_include_each_plasmacyte(required: str) -> None:
    """The composition lists "1 PLASMACYTE ACCELERATOR operative" and "1 PLASMACYTE
    REANIMATOR operative" as fixed parts of the team, not picks from a list: a roster of
    eight without one of them (a Deathmark in its place) is illegal, and the error names
    the team, the rule and the count."""
    roster = swap(HIEROTEK.default(), required, "Deathmark")
    assert roster.validate() == [
        f"minimum: team 'Hierotek Circle' must select at least 1 {required!r} (selected 0)"
    ]


def test_chapter_tactics_primary_and_secondary_may_be_the_same() -> None:
    """The faction rule asks for a primary and a secondary CHAPTER TACTIC and says multiple
    instances are not cumulative: an effect of a repeat, not a ban on it."""
    roster = AOD.default().with_choices({"Chapter Tactics": ["Hardy", "Hardy"]})
    assert roster.legal and roster.choice("Chapter Tactics") == ("Hardy", "Hardy")


def test_chapter_veteran_may_select_one_of_the_team_tactics() -> None:
    """Chapter Veteran selects "one additional CHAPTER TACTIC" with no restriction: the
    Sergeant may take the team's secondary (he keeps it when Adaptive Tactics changes the
    team's secondary for a turning point)."""
    roster = AOD.default()
    per = [
        {"Chapter Veteran": "Sharpshooter"} if "Sergeant" in n else {} for n in roster.operatives
    ]
    chosen = roster.with_choices({"Chapter Tactics": ["Hardy", "Sharpshooter"]}, per)
    assert chosen.legal
    assert chosen.operative_choice(0, "Chapter Veteran") == ("Sharpshooter",)


def test_selection_weights_and_minimums_round_trip_and_are_checked(tmp_path: Path) -> None:
    """A team file's ``weights`` and ``minimums`` load, dump and load again unchanged; a
    weight that is not a whole or half number, or one naming a type the team lacks, is
    refused naming the field and the value."""
    data = team_to_dict(KOMMANDOS)
    assert data["selection"]["weights"] == {"Kommando Bomb Squig": 0.5, "Kommando Grot": 0.5}
    path = tmp_path / "k.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_team(path).selection == KOMMANDOS.selection
    data["selection"]["weights"] = {"Kommando Grot": 0.3}
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(TeamFileError, match=r"field 'weights': 'Kommando Grot'.*got 0\.3"):
        load_team(path)
    data["selection"]["weights"] = {"Kommando Gretchin": 0.5}
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(TeamFileError, match=r"unknown operative 'Kommando Gretchin'"):
        load_team(path)
    data = team_to_dict(HIEROTEK)
    assert data["selection"]["minimums"] == {
        "Plasmacyte Accelerator": 1,
        "Plasmacyte Reanimator": 1,
    }
