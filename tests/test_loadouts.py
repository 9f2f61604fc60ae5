"""Wargear options (rules/KT24.md 1.2, 2.2): loadout options on datacards, roster entries that
name them, selection limits on options, the built-in teams' options and default rosters, and
battles in which an operative carries exactly its loadout's weapons."""

from __future__ import annotations

import copy
import json
from typing import Any

import attrs
import pytest

from engine.agents import RandomAgent
from engine.game import IllegalActionError
from engine.game.drivers import SeededDice, play
from engine.game.record import GameRecorder, ReplayError, make_header, replay
from engine.game.setup import operative_ids
from engine.game.universal import weapon_name
from engine.geometry import load_killzone
from engine.play.matchup import auto_roster, auto_roster_note
from engine.rulesets import KT24, new_game, position
from engine.teams import (
    Roster,
    Selection,
    TeamFileError,
    builtin_teams,
    load_builtin_team,
    team_from_dict,
    team_to_dict,
)
from engine.teams.model import Team, format_entry, parse_entry
from tests.test_game_rules_common import LAB, with_attacks

KASRKIN = load_builtin_team("kasrkin")
LEGIONARIES = load_builtin_team("legionaries")
GUNNER_OPTIONS = (
    "Flamer; Gun Butt | Grenade Launcher; Gun Butt | Hot-Shot Volley Gun; Gun Butt | "
    "Meltagun; Gun Butt | Plasma Gun; Gun Butt"
)


def kasrkin(**replace: str) -> Roster:
    """The Kasrkin default roster with entries replaced by position (``op4="..."``: the
    fourth operative)."""
    entries = list(KASRKIN.default_roster)
    for key, entry in replace.items():
        entries[int(key[2:]) - 1] = entry
    return Roster.from_entries(KASRKIN, entries)


# -------------------------------------------------------------------------------------------
# Roster entries
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "parsed"),
    [
        ("Kasrkin Trooper", ("Kasrkin Trooper", None)),
        ("Kasrkin Gunner [Meltagun; Gun Butt]", ("Kasrkin Gunner", ("Meltagun; Gun Butt",))),
        (
            "Legionary Aspiring Champion [Plasma Pistol + Power Fist]",
            ("Legionary Aspiring Champion", ("Plasma Pistol", "Power Fist")),
        ),
    ],
)
def test_roster_entry_round_trip(entry: str, parsed: tuple[str, Any]) -> None:
    # 1.2: an entry is the type, with one option per slot in brackets joined by " + ".
    assert parse_entry(entry) == parsed
    assert format_entry(*parsed) == entry
    assert parse_entry(f"  {entry}  ") == parsed  # surrounding blanks are not part of it


@pytest.mark.parametrize(
    "entry",
    [
        "Kasrkin Gunner [Meltagun; Gun Butt",
        "Kasrkin Gunner Meltagun]",
        "Kasrkin Gunner [Meltagun] [Flamer]",
        "Kasrkin Gunner [Meltagun] extra",
        "[Meltagun]",
        "Legionary Aspiring Champion [Plasma Pistol + ]",
    ],
)
def test_malformed_roster_entry_is_refused(entry: str) -> None:
    with pytest.raises(ValueError, match="roster entry"):
        parse_entry(entry)
    with pytest.raises(ValueError, match="roster entry"):
        Roster.from_entries(KASRKIN, [entry])


# -------------------------------------------------------------------------------------------
# Roster.validate names every broken option rule
# -------------------------------------------------------------------------------------------


def test_loadout_unknown_option_is_named() -> None:
    # The Gunner's options are the five weapon sets of the composition; a lascannon is none.
    problems = kasrkin(op4="Kasrkin Gunner [Lascannon]").validate()
    assert problems == [
        f"loadout: operative 4: 'Kasrkin Gunner' has no option 'Lascannon' "
        f"(options: {', '.join(repr(o) for o in GUNNER_OPTIONS.split(' | '))})"
    ]


def test_loadout_missing_choice_for_a_type_with_options() -> None:
    # A Gunner must pick one of its options; the plain type name does not say which.
    problems = kasrkin(op4="Kasrkin Gunner").validate()
    assert problems == [
        f"loadout: operative 4 ('Kasrkin Gunner') needs a loadout chosen (options: "
        f"{GUNNER_OPTIONS})"
    ]


def test_loadout_wrong_number_of_slot_choices() -> None:
    # The Aspiring Champion has two slots (ranged, melee): one choice is too few; a Trooper
    # has no slots, so any bracketed choice is too many.
    champion = Roster.from_entries(
        LEGIONARIES,
        ["Legionary Aspiring Champion [Plasma Pistol]", *LEGIONARIES.default_roster[1:]],
    )
    assert champion.validate() == [
        "loadout: operative 1: 'Legionary Aspiring Champion' takes 2 loadout choice(s), "
        "got 1 (Plasma Pistol)"
    ]
    trooper = kasrkin(op10="Kasrkin Trooper [Hot-Shot Lasgun; Gun Butt]")
    assert trooper.validate() == [
        "loadout: operative 10: 'Kasrkin Trooper' takes 0 loadout choice(s), "
        "got 1 (Hot-Shot Lasgun; Gun Butt)"
    ]


def test_each_gunner_option_only_once() -> None:
    # "Other than TROOPER operatives ... each operative on this list once": each Gunner
    # option is a line of the list, so a second meltagun Gunner is one too many, while
    # three Gunners with different options are legal.
    assert kasrkin().validate() == []
    problems = kasrkin(op4="Kasrkin Gunner [Meltagun; Gun Butt]").validate()
    assert problems == ["limit: at most 1 'Kasrkin Gunner [Meltagun; Gun Butt]' (selected 2)"]


def test_no_more_than_four_gunners_and_sharpshooter_combined() -> None:
    # Four Gunners (four different options) plus the Sharpshooter make five of the starred
    # operatives, over "no more than four of these combined"; without the Sharpshooter, four
    # are legal.
    four = kasrkin(op10="Kasrkin Gunner [Flamer; Gun Butt]")
    assert four.validate() == [
        "combined limit: at most 4 of 'Kasrkin Gunner', 'Kasrkin Sharpshooter' together "
        "(selected 5)"
    ]
    assert kasrkin(op10="Kasrkin Gunner [Flamer; Gun Butt]", op8="Kasrkin Trooper").legal


def test_combined_limit_over_option_selectors() -> None:
    # A combined limit may name options: at most one of the meltagun and plasma gun Gunners
    # together; the default roster has one of each (2), the volley gun does not count.
    sel = attrs.evolve(
        KASRKIN.selection,
        combined_limits=(
            (("Kasrkin Gunner [Meltagun; Gun Butt]", "Kasrkin Gunner [Plasma Gun; Gun Butt]"), 1),
        ),
    )
    team = attrs.evolve(KASRKIN, selection=sel, default_roster=())
    roster = Roster.from_entries(team, KASRKIN.default_roster)
    assert roster.validate() == [
        "combined limit: at most 1 of 'Kasrkin Gunner [Meltagun; Gun Butt]', "
        "'Kasrkin Gunner [Plasma Gun; Gun Butt]' together (selected 2)"
    ]


def test_leader_options() -> None:
    # Leaders choose wargear too. The Assault Intercessor Sergeant takes a pistol and a
    # melee weapon, or the plasma pistol with a chainsword only: a plasma pistol with a power
    # fist is no option of the composition.
    aod = load_builtin_team("angels_of_death")
    rest = list(aod.default_roster[1:])
    legal = Roster.from_entries(
        aod, ["Assault Intercessor Sergeant [Plasma Pistol; Chainsword]", *rest]
    )
    assert legal.validate() == []
    bad = Roster.from_entries(
        aod, ["Assault Intercessor Sergeant [Plasma Pistol; Power Fist]", *rest]
    )
    (problem,) = bad.validate()
    assert problem.startswith(
        "loadout: operative 1: 'Assault Intercessor Sergeant' has no option "
        "'Plasma Pistol; Power Fist'"
    )
    # A leader without a loadout is named as such, and the leader rule is still checked.
    none = Roster.from_entries(KASRKIN, ["Kasrkin Sergeant", *KASRKIN.default_roster[1:]])
    assert none.validate() == [
        "loadout: operative 1 ('Kasrkin Sergeant') needs a loadout chosen (options: "
        "Bolt Pistol; Power Weapon | Hot-Shot Lasgun; Gun Butt | Hot-Shot Laspistol; Power "
        "Weapon | Plasma Pistol; Chainsword)"
    ]


def test_loadouts_of_the_wrong_length_are_named() -> None:
    roster = Roster(KASRKIN, ("Kasrkin Trooper",) * 2, (None,))
    assert roster.validate() == ["loadouts: 1 given for 2 operatives"]


# -------------------------------------------------------------------------------------------
# Team files
# -------------------------------------------------------------------------------------------


def _kasrkin_dict() -> dict[str, Any]:
    return copy.deepcopy(team_to_dict(KASRKIN))


def _gunner(data: dict[str, Any]) -> dict[str, Any]:
    (op,) = [o for o in data["operatives"] if o["name"] == "Kasrkin Gunner"]
    return op


def test_team_file_option_naming_a_missing_weapon() -> None:
    data = _kasrkin_dict()
    _gunner(data)["loadouts"][0]["options"][3]["weapons"] = ["Lascannon", "Gun Butt"]
    with pytest.raises(TeamFileError) as info:
        team_from_dict(data, "k.json")
    assert str(info.value) == (
        "k.json: operative 'Kasrkin Gunner': loadouts[0]: option 'Meltagun; Gun Butt': "
        "no weapon 'Lascannon' on the datacard"
    )


def test_team_file_limit_naming_a_missing_option() -> None:
    data = _kasrkin_dict()
    data["selection"]["limits"]["Kasrkin Gunner [Lascannon]"] = 1
    with pytest.raises(TeamFileError, match="'Kasrkin Gunner' has no option 'Lascannon'"):
        team_from_dict(data, "k.json")


def test_team_file_illegal_default_roster_names_the_option_rule() -> None:
    data = _kasrkin_dict()
    data["default_roster"][3] = "Kasrkin Gunner [Meltagun; Gun Butt]"  # a second meltagun
    with pytest.raises(TeamFileError) as info:
        team_from_dict(data, "k.json")
    assert str(info.value) == (
        "k.json: field 'default_roster': limit: at most 1 'Kasrkin Gunner [Meltagun; Gun Butt]' "
        "(selected 2)"
    )


def test_team_file_loadouts_round_trip() -> None:
    for team_id in builtin_teams():
        team = load_builtin_team(team_id)
        again = team_from_dict(json.loads(json.dumps(team_to_dict(team))), team_id)
        assert again == team


# -------------------------------------------------------------------------------------------
# Built-in teams
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("team_id", builtin_teams())
def test_builtin_default_roster_is_legal_and_names_every_loadout(team_id: str) -> None:
    team = load_builtin_team(team_id)
    roster = team.default()
    assert roster.validate() == []
    for k, name in enumerate(roster.operatives):
        card = team.operative(name)
        # Every type that has a choice names it; types with a fixed loadout stay plain.
        assert (roster.loadout_of(k) is None) == (card.fixed_loadout is not None), name
        # Each operative carries the weapons of its options, and only those.
        chosen = roster.resolved_loadout(k)
        if card.loadouts:
            expected = {
                w
                for slot, opt in zip(card.loadouts, chosen, strict=True)
                for w in slot.option(opt).weapons
            }
        else:
            expected = {w.name for w in card.weapons}
        assert {w.name for w in roster.datacard(k).weapons} == expected, name


def test_builtin_default_rosters_pick_recognised_loadouts() -> None:
    # The loadouts a competitive player would field (teams/README.md).
    assert list(KASRKIN.default_roster[:6]) == [
        "Kasrkin Sergeant [Plasma Pistol; Chainsword]",
        "Kasrkin Combat Medic",
        "Kasrkin Demo Trooper",
        "Kasrkin Gunner [Plasma Gun; Gun Butt]",
        "Kasrkin Gunner [Meltagun; Gun Butt]",
        "Kasrkin Gunner [Hot-Shot Volley Gun; Gun Butt]",
    ]
    assert "Kasrkin Sharpshooter" in KASRKIN.default_roster
    roster = LEGIONARIES.default()
    heavy = roster.datacard(roster.operatives.index("Legionary Heavy Gunner"))
    # One heavy weapon, not all three.
    assert [w.name for w in heavy.weapons] == ["Bolt Pistol", "Heavy Bolter", "Fists"]
    warrior = roster.datacard(roster.operatives.index("Legionary Warrior"))
    assert [w.name for w in warrior.weapons] == ["Boltgun", "Fists"]


@pytest.mark.parametrize("team_id", builtin_teams())
def test_auto_roster_without_a_default_respects_every_limit(team_id: str) -> None:
    # An imported team has no default roster: the automatic one must satisfy every rule the
    # team holds, option limits included (Kasrkin: never two Gunners with the same option).
    team = attrs.evolve(load_builtin_team(team_id), default_roster=())
    roster = auto_roster(team)
    assert roster.validate() == []
    assert auto_roster(team) == roster  # deterministic
    lo, hi = team.selection.size
    assert team.selection.selections(roster.operatives) == max(lo, (lo + hi) // 2)  # in selections
    if team_id == "kasrkin":
        gunners = [e for e in roster.entries if e.startswith("Kasrkin Gunner")]
        assert len(gunners) == len(set(gunners)) >= 2


def test_auto_roster_note_says_which_rules_were_checked() -> None:
    assert auto_roster_note(KASRKIN, KASRKIN.default()) is None
    team = attrs.evolve(KASRKIN, default_roster=())
    note = auto_roster_note(team, auto_roster(team))
    assert note is not None
    assert (
        "size 10-10, one leader, 5 limits on types, 5 limits on options, 1 combined limits" in note
    )
    assert "it holds no keyword limits: any such rule of its source was not read" in note
    # A team whose file holds only a size and a leader (an importer that could read no more).
    bare = attrs.evolve(
        team,
        selection=Selection(size=(10, 10), leader="Kasrkin Sergeant"),
        operatives=tuple(attrs.evolve(op, loadouts=()) for op in team.operatives),
    )
    note = auto_roster_note(bare, auto_roster(bare))
    assert note is not None
    assert (
        "it holds no limits on types, no limits on options, no keyword limits, no combined "
        "limits and no wargear options"
    ) in note
    assert "every operative carries every weapon on its datacard" in note


# -------------------------------------------------------------------------------------------
# Battles use the loadout's weapons only
# -------------------------------------------------------------------------------------------


def _notation_names(team: Team, entry: str) -> set[str]:
    """The weapon notation names an operative of roster ``entry`` may use, from the team's
    options (not from the battle's datacards)."""
    name, loadout = parse_entry(entry)
    card = team.operative(name)
    allowed = (
        {
            w
            for slot, o in zip(card.loadouts, loadout or (), strict=True)
            for w in slot.option(o).weapons
        }
        if card.loadouts
        else {w.name for w in card.weapons}
    )
    return {weapon_name(w, p) for w in card.weapons if w.name in allowed for p in w.profiles}


def test_meltagun_gunner_cannot_shoot_a_plasma_gun() -> None:
    # KAS-5 is the Gunner [Meltagun; Gun Butt]: only the meltagun is listed, and a plasma gun
    # shot is refused with the state unchanged (1.2).
    state = position(
        LAB,
        KASRKIN.default(),
        LEGIONARIES.default(),
        operatives={"KAS-5": {"at": (5, 14.5)}, "LEG-6": {"at": (9, 14.5)}},
        cp=(0, 0),
    )
    assert [w.name for w in state.ctx.datacards["KAS-5"].weapons] == ["Meltagun", "Gun Butt"]
    s, _ = state.apply("Activate KAS-5 engage")
    shots = [a for a in with_attacks(s) if a.verb == "Shoot"]
    assert {a.weapon for a in shots} == {"meltagun"}
    before = s.hash()
    with pytest.raises(IllegalActionError):
        s.apply("Shoot KAS-5 plasma gun at LEG-6")
    assert s.hash() == before


def test_sergeant_fights_only_with_its_loadout_melee_weapon() -> None:
    # KAS-1 is the Sergeant [Plasma Pistol; Chainsword]: its card also prints a power weapon
    # and a gun butt, but it fights with the chainsword only.
    state = position(
        LAB,
        KASRKIN.default(),
        LEGIONARIES.default(),
        operatives={"KAS-1": {"at": (5, 14.5)}, "LEG-6": {"at": (6.3, 14.5)}},
        cp=(0, 0),
    )
    s, _ = state.apply("Activate KAS-1 engage")
    fights = [a for a in s.legal_actions() if a.verb == "Fight"]
    assert fights and {a.weapon for a in fights} == {"chainsword"}
    with pytest.raises(IllegalActionError):
        s.apply("Fight KAS-1 power weapon at LEG-6")


def _playout(seed: int, a: str, b: str) -> tuple[dict[str, set[str]], str, list[str]]:
    """A seeded random battle of ``a``'s and ``b``'s default rosters: the weapons each
    operative may use (from its roster entry), the record text and every weapon use as
    ``"OP weapon"``."""
    rosters = {"A": load_builtin_team(a).default(), "B": load_builtin_team(b).default()}
    ids = operative_ids(rosters)
    allowed = {
        op_id: _notation_names(rosters[p].team, entry)
        for p in ("A", "B")
        for op_id, entry in zip(ids[p], rosters[p].entries, strict=True)
    }
    state = new_game(load_killzone("open_ruins"), rosters["A"], rosters["B"])
    rec = GameRecorder(make_header(state, seed=seed, agents={"A": "random", "B": "random"}))
    uses: list[str] = []

    def on_step(before: Any, action: Any, actor: str, after: Any, events: Any) -> None:
        rec.on_step(before, action, actor, after, events)
        for e in events:
            if e.kind in ("shoot_declared", "fight_declared", "retaliation_weapon"):
                uses.append(f"{e['op']} {e['weapon']}")

    final = play(
        state,
        {"A": RandomAgent(2 * seed + 1), "B": RandomAgent(2 * seed + 2)},
        SeededDice(seed),
        on_step=on_step,
    )
    rec.finish(final)
    return allowed, rec.text(), uses


@pytest.fixture(scope="module")
def playout_records() -> list[tuple[dict[str, set[str]], str, list[str]]]:
    """One seeded random battle, Kasrkin v Legionaries (the random-playout conformance games
    check the weapons of every battle, every built-in team pair: test_game_conformance)."""
    return [_playout(0, "kasrkin", "legionaries")]


def test_random_playouts_use_only_loadout_weapons(
    playout_records: list[tuple[dict[str, set[str]], str, list[str]]],
) -> None:
    # Every Shoot, Fight and retaliation names a weapon of the operative's own loadout (1.2).
    # (This battle; the conformance games check it for 200 battles of every team pair.)
    total = 0
    for allowed, _, uses in playout_records:
        for use in uses:
            op, _, weapon = use.partition(" ")
            assert weapon in allowed[op], f"{op} used {weapon!r}, loadout: {sorted(allowed[op])}"
        total += len(uses)
    assert total > 0  # the battle did shoot or fight


def test_record_header_carries_loadouts(
    playout_records: list[tuple[dict[str, set[str]], str, list[str]]],
) -> None:
    _, text, _ = playout_records[0]
    head = json.loads(text.splitlines()[0])
    assert head["rosters"]["A"]["operatives"] == list(KASRKIN.default_roster)
    gunner = KASRKIN.default_roster.index("Kasrkin Gunner [Meltagun; Gun Butt]")
    assert head["rosters"]["A"]["weapons"][gunner] == ["Meltagun", "Gun Butt"]
    assert replay(text.splitlines(), ruleset=KT24).is_terminal


@pytest.mark.parametrize(
    ("field", "index", "value", "message"),
    [
        (
            "operatives",
            4,
            "Kasrkin Gunner [Flamer; Gun Butt]",
            "record line 1: header field 'rosters.A.weapons[4]': operative 5 (Kasrkin Gunner "
            "[Flamer; Gun Butt]): the record lists weapons ['Meltagun', 'Gun Butt'], its "
            "loadout gives ['Flamer', 'Gun Butt']",
        ),
        (
            "operatives",
            4,
            "Kasrkin Gunner [Plasma Gun; Gun Butt]",
            "record line 1: header field 'rosters.A.operatives': roster not legal: limit: at "
            "most 1 'Kasrkin Gunner [Plasma Gun; Gun Butt]' (selected 2)",
        ),
        (
            "weapons",
            4,
            ["Meltagun", "Plasma Gun", "Gun Butt"],
            "record line 1: header field 'rosters.A.weapons[4]': operative 5 (Kasrkin Gunner "
            "[Meltagun; Gun Butt]): the record lists weapons ['Meltagun', 'Plasma Gun', 'Gun "
            "Butt'], its loadout gives ['Meltagun', 'Gun Butt']",
        ),
    ],
    ids=["other-option", "illegal-option", "weapons-list"],
)
def test_replay_rejects_a_tampered_loadout(
    playout_records: list[tuple[dict[str, set[str]], str, list[str]]],
    field: str,
    index: int,
    value: Any,
    message: str,
) -> None:
    _, text, _ = playout_records[0]
    lines = text.splitlines()
    head = json.loads(lines[0])
    head["rosters"]["A"][field][index] = value
    with pytest.raises(ReplayError) as info:
        replay([json.dumps(head), *lines[1:]], ruleset=KT24)
    assert str(info.value) == message
