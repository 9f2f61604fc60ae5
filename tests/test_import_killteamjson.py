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


# --------------------------------------------------------------------------------------------
# Wargear options and selection limits from the composition text (1.2, 2.2, 7)
# --------------------------------------------------------------------------------------------


def _op_record(name: str, keywords: str, weapons: list[tuple[str, str]]) -> dict[str, Any]:
    """An operative record with one plain profile per weapon (kind "R" or "M")."""
    return {
        "opTypeName": name,
        "MOVE": '6"',
        "APL": 2,
        "SAVE": "4+",
        "WOUNDS": 8,
        "keywords": keywords,
        "basesize": 32,
        "weapons": [
            {"wepName": w, "wepType": kind, "profiles": [_profile("4", "4+", "3/4", [])]}
            for w, kind in weapons
        ],
    }


# Every composition pattern of the real data, in an invented team, with the real data's
# messiness: a mis-indented type line, an over-indented option line, a plural and a hyphen
# the datacard spells differently, a line that names nothing.
OPTIONS_COMPOSITION = """A BRASS WARDEN KillTeam is composed of:

- 1 BRASS WARDEN operative selected from the following list:
  - WARDEN CAPTAIN with one option from each of the following:
    - Brass cannon or lamp pistol
    - Polishing stick or power mop
  - LIEUTENANT with one option from each of the following:
    - Lamp pistol or flare gun
    - Polishing stick
    - Or the following option:
      - Flare gun; power mop
- 7 BRASS WARDEN operatives selected from the following list:
  - TROOPER
  - GUNNER with steam flamer and gun butt*
  - GUNNER with rivet gun and gun butt*
  - SNIPER*
  - GRENADIER with grenade launcher and one of the following options:
    - Lamp rifle; fist
      - Lamp carbine; fists
  - BRASS HOUND (X)
  - BRASS PUP (X)
    - BRASS WALKER (counts as two selections)
  - ENGINEER
  - MYSTERY MAN

Other than TROOPER and ENGINEER operatives, your kill team can only include each operative on this list once.

Your kill team can only include up to two ENGINEER operatives.

*You cannot select more than two of these operatives combined.

(X) These operatives count as half a selection each.

Bring a towel.
"""  # noqa: E501


def _options_fixture() -> dict[str, Any]:
    data = _fixture()
    data["composition"] = OPTIONS_COMPOSITION
    bw = "BRASS WARDEN"
    data["opTypes"] = [
        _op_record(
            "Warden Captain",
            f"{bw}, LEADER, CAPTAIN",
            [
                ("Brass Cannon", "R"),
                ("Lamp Pistol", "R"),
                ("Polishing Stick", "M"),
                ("Power Mop", "M"),
            ],
        ),
        _op_record(
            "Warden Lieutenant",
            f"{bw}, LEADER, LIEUTENANT",
            [
                ("Lamp Pistol", "R"),
                ("Flare Gun", "R"),
                ("Polishing Stick", "M"),
                ("Power Mop", "M"),
            ],
        ),
        _op_record("Warden Trooper", f"{bw}, TROOPER", [("Lamp Rifle", "R"), ("Gun Butt", "M")]),
        _op_record(
            "Warden Gunner",
            f"{bw}, GUNNER",
            [("Steam Flamer", "R"), ("Rivet-Gun", "R"), ("Gun Butt", "M")],
        ),
        _op_record("Warden Sniper", f"{bw}, SNIPER", [("Long Lamp", "R"), ("Gun Butt", "M")]),
        _op_record(
            "Warden Grenadier",
            f"{bw}, GRENADIER",
            [("Lamp Rifle", "R"), ("Lamp Carbine", "R"), ("Grenade Launcher", "R"), ("Fists", "M")],
        ),
        _op_record("Brass Hound", f"{bw}, BRASS HOUND", [("Bite", "M")]),
        _op_record("Brass Pup", f"{bw}, BRASS PUP", [("Nip", "M")]),
        _op_record("Brass Walker", f"{bw}, BRASS WALKER", [("Big Lamp", "R"), ("Stomp", "M")]),
        _op_record("Warden Engineer", f"{bw}, ENGINEER", [("Wrench", "M")]),
        _op_record("Warden Ghost", f"{bw}, GHOST", [("Chill", "M")]),
    ]
    return data


@pytest.fixture
def options_team(tmp_path: Path) -> Any:
    en = tmp_path / "kt" / "en"
    (en / "teams").mkdir(parents=True)
    (en / "teams" / "TEST-BW.json").write_text(json.dumps(_options_fixture()), encoding="utf-8")
    return import_killteamjson(tmp_path / "kt")


def _slots(team: Any, name: str) -> list[list[str]]:
    return [[o.name for o in slot.options] for slot in team.operative(name).loadouts]


def test_composition_one_option_from_each_line_is_one_slot_per_line(options_team: Any) -> None:
    """'with one option from each of the following' gives one slot per line (1.2)."""
    (team,) = options_team.teams
    assert _slots(team, "Warden Captain") == [
        ["Brass Cannon", "Lamp Pistol"],
        ["Polishing Stick", "Power Mop"],
    ]


def test_composition_or_the_following_option_flattens_to_whole_sets(options_team: Any) -> None:
    """Per-line choices *or* another whole set cannot be slots: they become one slot of every
    combination (2 x 1) plus the alternative, and the report says so."""
    (team,) = options_team.teams
    assert _slots(team, "Warden Lieutenant") == [
        ["Lamp Pistol; Polishing Stick", "Flare Gun; Polishing Stick", "Flare Gun; Power Mop"]
    ]
    assert any(
        "'Warden Lieutenant'" in i.message and "3 whole sets" in i.message
        for i in options_team.issues
    )


def test_composition_inline_options_of_one_type_share_a_slot(options_team: Any) -> None:
    """'GUNNER with steam flamer and gun butt' lines are options of one type; 'rivet gun'
    matches the datacard's 'Rivet-Gun' (hyphen ignored)."""
    (team,) = options_team.teams
    assert _slots(team, "Warden Gunner") == [["Steam Flamer; Gun Butt", "Rivet-Gun; Gun Butt"]]


def test_composition_fixed_weapon_is_folded_into_each_option(options_team: Any) -> None:
    """'with grenade launcher and one of the following options': every option also gives the
    grenade launcher; 'fist' matches 'Fists'; the over-indented line is still an option."""
    (team,) = options_team.teams
    assert _slots(team, "Warden Grenadier") == [
        ["Lamp Rifle; Grenade Launcher; Fists", "Lamp Carbine; Grenade Launcher; Fists"]
    ]


def test_composition_types_without_options_carry_their_whole_card(options_team: Any) -> None:
    (team,) = options_team.teams
    assert team.operative("Warden Trooper").loadouts == ()
    assert team.operative("Brass Walker").loadouts == ()


def test_composition_leader_size_and_limits(options_team: Any) -> None:
    """Leader: the first group of one. Size 1 + 7 = 8 selections, the walker counting as two
    and the two (X) operatives as half each (selection weights). Each listed line once except
    TROOPER and ENGINEER; ENGINEER up to two; the starred lines (all Gunner options and the
    Sniper) at most two together."""
    (team,) = options_team.teams
    sel = team.selection
    assert sel.leader == ("Warden Captain", "Warden Lieutenant")
    assert sel.size == (8, 8)
    assert dict(sel.weights) == {"Brass Hound": 0.5, "Brass Pup": 0.5, "Brass Walker": 2.0}
    assert dict(sel.limits) == {
        "Warden Gunner [Steam Flamer; Gun Butt]": 1,
        "Warden Gunner [Rivet-Gun; Gun Butt]": 1,
        "Warden Sniper": 1,
        "Warden Grenadier": 1,
        "Brass Hound": 1,
        "Brass Pup": 1,
        "Brass Walker": 1,
        "Warden Engineer": 2,
    }
    assert sel.combined_limits == ((("Warden Gunner", "Warden Sniper"), 2),)


def test_composition_limits_are_enforced_by_roster_validate(options_team: Any) -> None:
    """The limits read are the roster's: two rivet-gun Gunners break 'each once'; two Gunners
    and the Sniper break 'no more than two combined'."""
    (team,) = options_team.teams
    from engine.teams.model import Roster

    base = [
        "Warden Captain [Lamp Pistol + Power Mop]",
        "Warden Trooper",
        "Warden Trooper",
        "Warden Trooper",
        "Warden Trooper",
        "Warden Trooper",
    ]
    ok = Roster.from_entries(team, [*base, "Warden Gunner [Rivet-Gun; Gun Butt]", "Warden Sniper"])
    assert ok.validate() == []
    twice = Roster.from_entries(
        team, [*base, "Warden Gunner [Rivet-Gun; Gun Butt]", "Warden Gunner [Rivet-Gun; Gun Butt]"]
    )
    assert any("Rivet-Gun" in p and "at most 1" in p for p in twice.validate())
    three = Roster.from_entries(
        team,
        [
            *base[:-1],
            "Warden Gunner [Rivet-Gun; Gun Butt]",
            "Warden Gunner [Steam Flamer; Gun Butt]",
            "Warden Sniper",
        ],
    )
    assert any(p.startswith("combined limit: at most 2") for p in three.validate())


def test_composition_unreadable_parts_are_reported(options_team: Any) -> None:
    """A line naming no type, a sentence that is no selection rule and a datacard type the
    text never names each give a report line; nothing is silently dropped."""
    messages = [i.message for i in options_team.issues if i.where == "composition"]
    assert any("'MYSTERY MAN' not read" in m and "names no operative type" in m for m in messages)
    assert any("'Bring a towel.'" in m and "not a selection rule" in m for m in messages)
    assert any("'Warden Ghost' is not named" in m for m in messages)
    assert not any("per-type limits" in m for m in messages)


def test_composition_marker_without_footnote_and_missing_weapon_are_reported(
    tmp_path: Path,
) -> None:
    data = _options_fixture()
    data["composition"] = (
        "- 1 WARDEN CAPTAIN operative with one of the following options:\n"
        "  - Brass cannon; power mop\n"
        "  - Death ray; power mop\n"
        "- 2 WARDEN TROOPER operatives\n"
        "- 1 SNIPER operative*\n"
    )
    en = tmp_path / "kt" / "en"
    (en / "teams").mkdir(parents=True)
    (en / "teams" / "TEST-BW.json").write_text(json.dumps(data), encoding="utf-8")
    result = import_killteamjson(tmp_path / "kt")
    (team,) = result.teams
    messages = [i.message for i in result.issues if i.where == "composition"]
    # The captain's readable option is kept, the unreadable one reported; the datacard
    # weapons no option gives are named.
    assert _slots(team, "Warden Captain") == [["Brass Cannon; Power Mop"]]
    assert any("'Death ray; power mop' not read" in m for m in messages)
    assert any("'Lamp Pistol', 'Polishing Stick'" in m and "never carried" in m for m in messages)
    assert any("marker '*'" in m and "no footnote" in m for m in messages)
    # One-type groups give exact counts: leader + 2 troopers + 1 sniper.
    assert team.selection.size == (4, 4)
    assert dict(team.selection.limits) == {"Warden Trooper": 2, "Warden Sniper": 1}


# --- the real composition texts (skipped when the samples are absent) -----------------------


def _sample(code: str) -> tuple[Any, list[str]]:
    result = import_killteamjson(SAMPLES, team=code)
    (team,) = result.teams
    return team, [i.message for i in result.issues if i.where == "composition"]


def legal_roster_from_loadouts(team: Any) -> Any:
    """A roster built greedily from the imported options: the first leader type with its
    first loadout, then, until the smallest legal size, the first entry (type and loadout,
    in datacard order) that breaks no limit."""
    import itertools

    from engine.teams.model import Roster, format_entry

    def entries(name: str) -> list[str]:
        op = team.operative(name)
        if not op.loadouts:
            return [name]
        choices = itertools.product(*[[o.name for o in s.options] for s in op.loadouts])
        return [format_entry(name, combo) for combo in choices]

    sel = team.selection
    picked = entries(sel.leader[0])[:1]
    others = [e for op in team.operatives if op.name not in sel.leader for e in entries(op.name)]
    while len(picked) < sel.size[0]:
        for entry in others:
            trial = Roster.from_entries(team, [*picked, entry])
            if not any(p.startswith(("limit", "combined limit")) for p in trial.validate()):
                picked.append(entry)
                break
        else:
            break
    return Roster.from_entries(team, picked)


@needs_samples
@pytest.mark.parametrize("code", sorted(BUILTIN_IDS))
def test_sample_options_name_only_datacard_weapons(code: str) -> None:
    """Every option gives weapons of its own datacard, and every weapon on a card with
    options is in some option (the real texts name them all: nothing 'never carried')."""
    team, messages = _sample(code)
    for op in team.operatives:
        names = {w.name for w in op.weapons}
        given = set()
        for slot in op.loadouts:
            for option in slot.options:
                assert option.weapons and set(option.weapons) <= names, (op.name, option)
                assert option.name == "; ".join(option.weapons)
                given |= set(option.weapons)
        if op.loadouts:
            assert given == names, op.name
    assert not any("never carried" in m for m in messages)


@needs_samples
@pytest.mark.parametrize("code", sorted(BUILTIN_IDS))
def test_sample_roster_built_from_imported_loadouts_is_legal(code: str) -> None:
    """A roster of the imported options that respects the limits read exists and validates:
    the limits read are consistent with each other and with the size."""
    team, _ = _sample(code)
    roster = legal_roster_from_loadouts(team)
    assert roster.validate() == []
    assert len(roster.operatives) == team.selection.size[0]


@needs_samples
def test_sample_kasrkin_options_and_limits() -> None:
    """Kasrkin: 1 Sergeant (four whole sets) + 9; five Gunner lines each an option of one
    type, each once; no more than four of the starred Gunners and Sharpshooter combined;
    Troopers unlimited."""
    team, messages = _sample("IMP-KAS")
    assert team.selection.leader == ("Kasrkin Sergeant",)
    assert team.selection.size == (10, 10)
    assert _slots(team, "Kasrkin Sergeant") == [
        [
            "Bolt Pistol; Power Weapon",
            "Hot-Shot Lasgun; Gun Butt",
            "Hot-Shot Laspistol; Power Weapon",
            "Plasma Pistol; Chainsword",
        ]
    ]
    gunner = [
        "Flamer; Gun Butt",
        "Grenade Launcher; Gun Butt",
        "Hot-Shot Volley Gun; Gun Butt",
        "Meltagun; Gun Butt",
        "Plasma Gun; Gun Butt",
    ]
    assert _slots(team, "Kasrkin Gunner") == [gunner]
    limits = dict(team.selection.limits)
    for option in gunner:
        assert limits[f"Kasrkin Gunner [{option}]"] == 1
    assert limits["Kasrkin Sharpshooter"] == 1
    assert "Kasrkin Trooper" not in limits
    assert team.selection.combined_limits == ((("Kasrkin Gunner", "Kasrkin Sharpshooter"), 4),)
    assert len([m for m in messages if "not a selection rule" in m]) == 1  # the hot-shot note


@needs_samples
def test_sample_legionaries_options_and_limits() -> None:
    """Legionaries: the Aspiring Champion picks one option from each of two lines (two
    slots), the Chosen one of two whole sets; the mis-indented WARRIOR line is still a type;
    other than Warriors each operative once."""
    team, _ = _sample("CHAOS-LEG")
    assert team.selection.leader == ("Legionary Aspiring Champion", "Legionary Chosen")
    assert team.selection.size == (6, 6)
    assert _slots(team, "Legionary Aspiring Champion") == [
        ["Plasma Pistol", "Tainted Bolt Pistol"],
        ["Power Fist", "Power Maul", "Power Weapon", "Tainted Chainsword"],
    ]
    assert _slots(team, "Legionary Chosen") == [
        ["Plasma Pistol; Daemon Blade", "Tainted Bolt Pistol; Daemon Blade"]
    ]
    assert _slots(team, "Legionary Warrior") == [["Boltgun; Fists", "Bolt Pistol; Chainsword"]]
    assert _slots(team, "Legionary Heavy Gunner") == [
        [
            "Bolt Pistol; Heavy Bolter; Fists",
            "Bolt Pistol; Missile Launcher; Fists",
            "Bolt Pistol; Reaper Chaincannon; Fists",
        ]
    ]
    limits = dict(team.selection.limits)
    assert "Legionary Warrior" not in limits
    assert limits["Legionary Heavy Gunner"] == limits["Legionary Shrivetalon"] == 1


@needs_samples
def test_sample_angels_of_death_options_and_limits() -> None:
    """Angels of Death: the Intercessor Sergeant has two slots; the Assault Intercessor
    Sergeant's two lines *or* a whole set become 2 x 4 + 1 = 9 whole sets; the Intercessor
    Gunner always has its auxiliary grenade launcher; 'Other than WARRIOR' spares both
    WARRIOR types; the two '*' markers have no footnote and are reported."""
    team, messages = _sample("IMP-AOD")
    assert [len(s) for s in _slots(team, "Intercessor Sergeant")] == [3, 5]
    (assault,) = _slots(team, "Assault Intercessor Sergeant")
    assert len(assault) == 9 and "Plasma Pistol; Chainsword" in assault
    (gunner,) = _slots(team, "Intercessor Gunner")
    assert all("Auxiliary Grenade Launcher" in o for o in gunner) and len(gunner) == 3
    limits = dict(team.selection.limits)
    assert "Intercessor Warrior" not in limits and "Assault Intercessor Warrior" not in limits
    assert limits["Eliminator Sniper"] == 1
    assert len([m for m in messages if "no footnote" in m]) == 2
    assert team.selection.size == (6, 6)


@needs_samples
def test_sample_hierotek_options_and_limits() -> None:
    """Hierotek Circle: 1 leader + 1 Accelerator + 1 Reanimator + 5 from a list: the groups
    are kept apart by a combined limit of 5 on the list; Deathmarks and Guardians are
    unlimited; the Chronomancer's 'Aeonstave' option gives both Aeonstave profiles."""
    team, _ = _sample("NEC-HIER")
    assert team.selection.size == (8, 8)
    limits = dict(team.selection.limits)
    assert limits["Plasmacyte Accelerator"] == limits["Plasmacyte Reanimator"] == 1
    assert "Deathmark" not in limits and "Immortal Guardian" not in limits
    assert team.selection.combined_limits == (
        (("Apprentek", "Deathmark", "Immortal Despotek", "Immortal Guardian"), 5),
    )
    assert _slots(team, "Chronomancer") == [["Aeonstave", "Entropic Lance"]]
    carried = team.operative("Chronomancer").with_loadout(("Aeonstave",)).weapons
    assert [(w.name, w.kind) for w in carried] == [("Aeonstave", "ranged"), ("Aeonstave", "melee")]


@needs_samples
def test_sample_kommandos_options_and_limits() -> None:
    """Kommandos: the Boss Nob (first group of one) leads without a LEADER keyword (reported);
    Boys unlimited; the two (X) operatives count as half a selection each: 1 + 9 = 10
    selections, the Grot and the Bomb Squig weighing 0.5."""
    team, messages = _sample("ORK-KOM")
    assert team.selection.leader == ("Kommando Boss Nob",)
    assert _slots(team, "Kommando Boss Nob") == [["Slugga; Big Choppa", "Slugga; Power Klaw"]]
    assert team.selection.size == (10, 10)
    assert dict(team.selection.weights) == {"Kommando Bomb Squig": 0.5, "Kommando Grot": 0.5}
    limits = dict(team.selection.limits)
    assert "Kommando Boy" not in limits and limits["Kommando Grot"] == 1
    assert any("LEADER keyword" in m for m in messages)


@needs_samples
def test_sample_pathfinders_options_and_limits() -> None:
    """Pathfinders: Weapons Experts (two options) up to two; Shas'La unlimited; the MB3
    drone counts as two selections (1 + 11 = 12 selections, the MB3 weighing 2)."""
    team, messages = _sample("TAU-PF")
    assert _slots(team, "Weapons Expert Pathfinder") == [
        ["Ion Rifle; Gun Butt", "Rail Rifle; Gun Butt"]
    ]
    limits = dict(team.selection.limits)
    assert limits["Weapons Expert Pathfinder"] == 2
    assert "Shas'La Pathfinder" not in limits
    assert limits["MV1 Gun Drone"] == 1
    assert team.selection.size == (12, 12)
    assert dict(team.selection.weights) == {"MB3 Recon Drone": 2.0}
    assert not [m for m in messages if "MB3" in m]  # read: nothing left to report


@needs_samples
@pytest.mark.parametrize("code", sorted(BUILTIN_IDS))
def test_builtin_team_options_agree_with_imported_options(code: str) -> None:
    """The built-in teams' wargear options were written by hand from the rules; the importer
    reads them from the dataset's prose: both must give the same slots and option names."""
    (imported,) = import_killteamjson(SAMPLES, team=code).teams
    builtin = load_builtin_team(BUILTIN_IDS[code])
    if not any(op.loadouts for op in builtin.operatives):
        pytest.skip("the built-in team states no wargear options")
    for mine in builtin.operatives:
        theirs = imported.operative(mine.name)
        assert [[o.name for o in s.options] for s in mine.loadouts] == [
            [o.name for o in s.options] for s in theirs.loadouts
        ], mine.name
        assert [[o.weapons for o in s.options] for s in mine.loadouts] == [
            [o.weapons for o in s.options] for s in theirs.loadouts
        ], mine.name
