"""The killteamjson importer: an invented fixture (always runs) and the real sample data
(skipped when ``../shared/data_samples/killteamjson`` is absent)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.dice.rules import (
    Devastating,
    Heavy,
    Lethal,
    Piercing,
    PiercingCrits,
    Range,
    SeekLight,
    TeamRule,
    Torrent,
)
from engine.teams import load_builtin_team
from engine.teams.importers.killteamjson import KillTeamJsonError, import_killteamjson

# ``../shared/data_samples`` next to the repository, used only when it exists.
SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "data_samples" / "killteamjson"


def _profile(atk: str, hit: str, dmg: str, wr: list[dict[str, Any]], name: str = "") -> dict:
    return {"profileName": name, "ATK": atk, "HIT": hit, "DMG": dmg, "WR": wr}


def _fixture() -> dict[str, Any]:
    """An invented team ("Brass Wardens") in the killteamjson schema."""
    return {
        "factionId": "TEST",
        "killteamId": "TEST-BW",
        "version": "Test '99",
        "season": "Nowhere",
        "killteamName": "Brass Wardens",
        "archetypes": ["Recon"],
        "composition": "A BRASS WARDEN KillTeam is composed of:\n\n"
        "- 1 WARDEN CAPTAIN operative\n- 4 WARDEN operatives chosen freely\n",
        "description": "invented for the tests",
        "teamAbilities": [
            {"abilityId": "TEST-BW-TA-1", "abilityName": "Polish", "description": "x"}
        ],
        "ploys": [
            {"ployId": "TEST-BW-S-1", "ployType": "S", "ployName": "Shine", "description": "x"},
            {"ployId": "TEST-BW-F-1", "ployType": "F", "ployName": "Glint", "description": "x"},
            {"ployId": "TEST-BW-T-1", "ployType": "T", "ployName": "Gleam", "description": "x"},
        ],
        "equipments": [
            {"eqId": "TEST-BW-EQ-1", "eqName": "Rag", "description": "x"},
            {
                "eqId": "TEST-BW-EQ-2",
                "eqName": "Brass knuckles",
                "description": "x",
                "weapons": [
                    {
                        "wepId": "TEST-BW-EQ-2-W",
                        "wepName": "Knuckle",
                        "wepType": "M",
                        "profiles": [
                            {"profileName": "", "ATK": "3", "HIT": "4+", "DMG": "2/3", "WR": []}
                        ],
                    }
                ],
            },
        ],
        "weapon_rules": [{"id": "WR-TEST-BW-RUST", "name": "Rusty"}],
        "opTypes": [
            {
                "opTypeId": "TEST-BW-CPT",
                "opTypeName": "Warden Captain",
                "MOVE": '7"',
                "APL": 3,
                "SAVE": "3+",
                "WOUNDS": 13,
                "keywords": "BRASS WARDEN, LEADER, CAPTAIN",
                "basesize": 40,
                "abilities": [{"abilityId": "TEST-BW-CPT-A", "abilityName": "Gleaming"}],
                "actions": [{"id": "TEST-BW-CPT-X", "name": "Buff", "AP": 2, "effects": ["x"]}],
                "weapons": [
                    {
                        "wepName": "Brass Cannon",
                        "wepType": "R",
                        "profiles": [
                            _profile(
                                "5",
                                "4+",
                                "4/5",
                                [
                                    {"id": "WR-UNIV-RANGE", "number": 9},
                                    {"id": "WR-UNIV-PIERCING", "number": 1, "details": "Crits"},
                                    {"id": "WR-UNIV-HEAVY", "details": "RepoOnly"},
                                    {"id": "WR-UNIV-DEVASTATING", "number": 2, "prefix_num": 1},
                                ],
                                "Focused",
                            ),
                            _profile(
                                "4",
                                "4+",
                                "3/3",
                                [
                                    {"id": "WR-UNIV-PIERCING-CRITS", "number": 2},
                                    {"id": "WR-UNIV-SEEK", "details": "Light"},
                                    {"id": "WR-UNIV-TORRENT", "number": 2},
                                    {"id": "WR-UNIV-HEAVY", "details": "(Dash)"},
                                ],
                                "Spray",
                            ),
                        ],
                    },
                    {
                        "wepName": "Polishing Stick",
                        "wepType": "M",
                        "profiles": [
                            _profile(
                                "4",
                                "3+",
                                "4/6",
                                [
                                    {"id": "WR-UNIV-LETHAL", "number": 5},
                                    {"id": "WR-TEST-BW-RUST"},
                                    {"id": "WR-NOWHERE-GHOST"},
                                    {"id": "WR-UNIV-SEEK-LIGHT"},
                                ],
                            )
                        ],
                    },
                ],
            },
            {
                "opTypeId": "TEST-BW-WAR",
                "opTypeName": "Warden",
                "MOVE": '6"',
                "APL": 2,
                "SAVE": "4+",
                "WOUNDS": 8,
                "keywords": "BRASS WARDEN, TROOPER",
                "basesize": 28,
                "abilities": [],
                "actions": [],
                "weapons": [
                    {
                        "wepName": "Lamp",
                        "wepType": "R",
                        "profiles": [
                            _profile(
                                "4",
                                "4+",
                                "2/3",
                                [
                                    {"id": "WR-UNIV-HEAVY", "details": "Reposition only"},
                                    {"id": "WR-UNIV-HEAVY", "details": "(Repos)"},
                                    {"id": "WR-UNIV-HEAVY", "details": "Dash only"},
                                ],
                            )
                        ],
                    }
                ],
                "sparkle": True,
            },
        ],
    }


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    en = tmp_path / "killteamjson" / "en"
    (en / "teams").mkdir(parents=True)
    (en / "teams" / "TEST-BW.json").write_text(json.dumps(_fixture()), encoding="utf-8")
    glossary = {"weapon_rules": [{"id": "WR-UNIV-LETHAL", "name": "Lethal", "team": None}]}
    (en / "weapon_rules.json").write_text(json.dumps(glossary), encoding="utf-8")
    return tmp_path / "killteamjson"


def test_fixture_numbers_and_names(checkout: Path) -> None:
    result = import_killteamjson(checkout)
    (team,) = result.teams
    assert team.id == "brass_wardens" and team.name == "Brass Wardens"
    assert team.faction == "BRASS WARDEN"
    assert team.provenance.source == "killteamjson"
    assert team.provenance.dataslate == "Test '99"
    cpt = team.operative("Warden Captain")
    assert (cpt.apl, cpt.move, cpt.save, cpt.wounds, cpt.base_mm) == (3, 7.0, 3, 13, 40.0)
    assert cpt.keywords == ("BRASS WARDEN", "LEADER", "CAPTAIN")
    cannon = cpt.weapon("Brass Cannon")
    assert cannon.kind == "ranged"
    focused = cannon.profile("Focused")
    assert (focused.attacks, focused.hit, focused.normal_damage, focused.critical_damage) == (
        5,
        4,
        4,
        5,
    )
    assert focused.rules.rules == (
        Range(9.0),
        PiercingCrits(1),
        Heavy("Reposition"),
        Devastating(2, 1.0),
    )
    assert (
        focused.rules.format()
        == 'Range 9", Piercing Crits 1, Heavy (Reposition only), 1" Devastating 2'
    )
    spray = cannon.profile("Spray")
    assert spray.rules.rules == (PiercingCrits(2), SeekLight(), Torrent(2.0), Heavy("Dash"))
    stick = cpt.weapon("Polishing Stick")
    assert stick.kind == "melee"
    assert stick.profile().rules.rules == (
        Lethal(5),
        TeamRule("Rusty"),
        TeamRule("WR-NOWHERE-GHOST"),
        SeekLight(),
    )
    lamp = team.operative("Warden").weapon("Lamp").profile()
    assert lamp.rules.rules == (Heavy("Reposition"), Heavy("Reposition"), Heavy("Dash"))
    assert not any(isinstance(r, Piercing) for r in focused.rules)


def test_fixture_abilities_ploys_equipment_have_refs_and_no_text(checkout: Path) -> None:
    (team,) = import_killteamjson(checkout).teams
    assert [(a.name, a.source_ref, a.summary) for a in team.abilities] == [
        ("Polish", "TEST-BW-TA-1", "")
    ]
    assert [(p.name, p.kind, p.cp, p.source_ref, p.summary) for p in team.ploys] == [
        ("Shine", "strategy", 1, "TEST-BW-S-1", ""),
        ("Glint", "firefight", 1, "TEST-BW-F-1", ""),
        ("Gleam", "firefight", 1, "TEST-BW-T-1", ""),
    ]
    assert [(e.name, e.source_ref, e.summary) for e in team.equipment] == [
        ("Rag", "TEST-BW-EQ-1", ""),
        ("Brass knuckles", "TEST-BW-EQ-2", ""),
    ]
    cpt = team.operative("Warden Captain")
    assert cpt.abilities[0].source_ref == "TEST-BW-CPT-A" and cpt.abilities[0].summary == ""
    assert (cpt.actions[0].name, cpt.actions[0].ap, cpt.actions[0].summary) == ("Buff", 2, "")


def test_fixture_selection_from_composition(checkout: Path) -> None:
    (team,) = import_killteamjson(checkout).teams
    assert team.selection.size == (5, 5)
    assert team.selection.leader == ("Warden Captain",)


def test_fixture_report(checkout: Path) -> None:
    result = import_killteamjson(checkout)
    report = result.report()
    kinds = {(i.kind, i.message) for i in result.issues}
    assert any(k == "unsupported" and "'Rusty'" in m for k, m in kinds)
    assert any(k == "unsupported" and "WR-NOWHERE-GHOST" in m and "nowhere" in m for k, m in kinds)
    assert any(k == "recovered" and "Crits" in m for k, m in kinds)
    assert any(k == "recovered" and "Light" in m for k, m in kinds)
    assert any(k == "recovered" and "'RepoOnly'" in m for k, m in kinds)
    assert any(k == "skipped" and "'sparkle'" in m for k, m in kinds)
    assert "Brass Wardens: operative 'Warden Captain': weapon 'Polishing Stick'" in report
    assert "invented for the tests" not in report


def test_fixture_paths_team_filter_and_errors(checkout: Path, tmp_path: Path) -> None:
    one = checkout / "en" / "teams" / "TEST-BW.json"
    assert import_killteamjson(checkout / "en").teams == import_killteamjson(checkout).teams
    assert import_killteamjson(one).teams == import_killteamjson(checkout).teams
    assert len(import_killteamjson(checkout, team="brass_wardens").teams) == 1
    assert len(import_killteamjson(checkout, team="TEST-BW").teams) == 1
    with pytest.raises(KillTeamJsonError, match="no team 'kasrkin'"):
        import_killteamjson(checkout, team="kasrkin")
    with pytest.raises(KillTeamJsonError, match="not a killteamjson checkout"):
        import_killteamjson(tmp_path / "nothing")
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(KillTeamJsonError, match=r"broken\.json"):
        import_killteamjson(broken)


def test_fixture_unparsable_composition_is_reported(checkout: Path) -> None:
    data = _fixture()
    data["composition"] = "Pick some wardens."
    path = checkout / "en" / "teams" / "TEST-BW.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = import_killteamjson(checkout)
    assert result.teams[0].selection.size == (1, 20)
    assert any("cannot count" in i.message for i in result.issues)


# --------------------------------------------------------------------------------------------
# The real sample data (skipped when absent)
# --------------------------------------------------------------------------------------------

needs_samples = pytest.mark.skipif(not SAMPLES.is_dir(), reason="sample data not present")
BUILTIN_IDS = {
    "IMP-KAS": "kasrkin",
    "IMP-AOD": "angels_of_death",
    "CHAOS-LEG": "legionaries",
    "TAU-PF": "pathfinders",
    "ORK-KOM": "kommandos",
    "NEC-HIER": "hierotek_circle",
}


@needs_samples
def test_all_six_sample_teams_load() -> None:
    result = import_killteamjson(SAMPLES)
    assert sorted(t.id for t in result.teams) == sorted(BUILTIN_IDS.values())
    for team in result.teams:
        assert team.operatives and team.ploys and team.equipment


@needs_samples
@pytest.mark.parametrize("code", ["IMP-KAS", "CHAOS-LEG", "ORK-KOM", "NEC-HIER"])
def test_team_rules_are_reported(code: str) -> None:
    result = import_killteamjson(SAMPLES, team=code)
    unsupported = [i for i in result.issues if i.kind == "unsupported" and "team rule" in i.message]
    assert unsupported


@needs_samples
@pytest.mark.parametrize("code", sorted(BUILTIN_IDS))
def test_builtin_team_agrees_with_imported_numbers(code: str) -> None:
    (imported,) = import_killteamjson(SAMPLES, team=code).teams
    builtin = load_builtin_team(BUILTIN_IDS[code])
    assert [op.name for op in builtin.operatives] == [op.name for op in imported.operatives]
    for mine, theirs in zip(builtin.operatives, imported.operatives, strict=True):
        assert (mine.apl, mine.move, mine.save, mine.wounds, mine.base_mm) == (
            theirs.apl,
            theirs.move,
            theirs.save,
            theirs.wounds,
            theirs.base_mm,
        ), mine.name
        assert mine.keywords == theirs.keywords
        assert len(mine.weapons) == len(theirs.weapons)
        for w1, w2 in zip(mine.weapons, theirs.weapons, strict=True):
            assert (w1.name, w1.kind) == (w2.name, w2.kind)
            for p1, p2 in zip(w1.profiles, w2.profiles, strict=True):
                assert (
                    p1.name,
                    p1.attacks,
                    p1.hit,
                    p1.normal_damage,
                    p1.critical_damage,
                    p1.rules,
                ) == (
                    p2.name,
                    p2.attacks,
                    p2.hit,
                    p2.normal_damage,
                    p2.critical_damage,
                    p2.rules,
                ), f"{mine.name}: {w1.name}"
    assert [p.name for p in builtin.ploys] == [p.name for p in imported.ploys]
    assert [e.name for e in builtin.equipment] == [e.name for e in imported.equipment]


def test_equipment_weapons_are_kept(checkout: Path) -> None:
    team = import_killteamjson(checkout).teams[0]
    knuckles = next(e for e in team.equipment if e.name == "Brass knuckles")
    (weapon,) = knuckles.weapons
    assert (weapon.name, weapon.kind) == ("Knuckle", "melee")
    p = weapon.profiles[0]
    assert (p.attacks, p.hit, p.normal_damage, p.critical_damage) == (3, 4, 2, 3)
