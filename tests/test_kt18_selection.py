"""KT18 kill team selection (``engine.teams.kt18_selection``; ``rules/KT18.md`` 1.6, 1.7, 9.3):
the roster notation with a model's specialism, and each selection rule checked by
``Roster.validate`` for a KT18 team.

The team is the KT18 test team (``tests/data/kt18_test_team.json``) given three datasheets
here: a Boss that may lead or be a Combat specialist (Max 1), a Boy that may be a Combat,
Heavy, Veteran, Comms or Demolitions specialist, and a Gunner (Heavy only, Max 2)."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from engine.teams.io import load_builtin_team, load_team
from engine.teams.kt18_selection import (
    MAX_OTHER_SPECIALISTS,
    format_specialism,
    kt18_roster_problems,
    may_take,
    split_specialism,
)
from engine.teams.model import Roster, Team

DATA = Path(__file__).parent / "data" / "kt18_test_team.json"


@pytest.fixture(scope="module")
def team() -> Team:
    base = load_team(DATA)
    trooper = base.operatives[0]
    assert trooper.kt18 is not None

    def card(name: str, specialists: tuple[str, ...], leader: bool, most: int) -> object:
        assert trooper.kt18 is not None
        profile = attrs.evolve(trooper.kt18, specialists=specialists, leader=leader, maximum=most)
        return attrs.evolve(trooper, name=name, kt18=profile)

    ops = (
        card("Boss Nob (Boyz)", ("Leader", "Combat"), True, 1),
        card("Boy", ("Combat", "Heavy", "Veteran", "Comms", "Demolitions"), False, 0),
        card("Gunner", ("Heavy",), False, 2),
    )
    return attrs.evolve(base, operatives=ops, default_roster=())


def test_notation_splits_a_trailing_specialism() -> None:
    """The last parenthesised group is a specialism only when it names one: ``(Leader)`` is,
    ``(Boyz)`` is part of the type's name (module docstring of kt18_selection)."""
    known = ("Leader", "Heavy")
    assert split_specialism("Boss Nob (Boyz) [Slugga + Choppa] (Leader)", known) == (
        "Boss Nob (Boyz) [Slugga + Choppa]",
        "Leader",
    )
    assert split_specialism("Boss Nob (Boyz)", known) == ("Boss Nob (Boyz)", None)
    assert split_specialism("Gunner (heavy)", known) == ("Gunner", "Heavy")
    assert format_specialism("Gunner [Big Shoota]", "Heavy") == "Gunner [Big Shoota] (Heavy)"


def test_roster_reads_and_writes_specialisms(team: Team) -> None:
    """``Roster.from_entries`` keeps one specialism per model, ``specialism_of`` gives it to
    the game, and ``entries`` writes it back (records and roster files name it)."""
    entries = ["Boss Nob (Boyz) (Leader)", "Boy (Heavy)", "Boy", "Gunner"]
    roster = Roster.from_entries(team, entries)
    assert roster.operatives == ("Boss Nob (Boyz)", "Boy", "Boy", "Gunner")
    assert [roster.specialism_of(i) for i in range(4)] == ["Leader", "Heavy", None, None]
    assert list(roster.entries) == entries
    assert roster.validate() == []


def test_kt24_rosters_are_unchanged() -> None:
    """A KT24 roster has no specialisms, its entries and repr are as before (a KT24 entry
    never loses a parenthesised ending)."""
    kasrkin = load_builtin_team("kasrkin")
    roster = kasrkin.default()
    assert roster.specialisms == ()
    assert roster.specialism_of(0) is None
    assert "specialisms" not in repr(roster)
    assert roster.entries == Roster.from_entries(kasrkin, list(roster.entries)).entries


def test_specialism_must_be_on_the_datasheet_rules_kt18_1_6(team: Team) -> None:
    """A model may be chosen only as a specialism its datasheet lists (1.6 part 6): the
    Gunner lists only Heavy, so a Sniper Gunner breaks the ``specialism`` rule."""
    assert may_take(team, "Gunner", "Heavy") and not may_take(team, "Gunner", "Sniper")
    roster = Roster.from_entries(team, ["Boss Nob (Boyz) (Leader)", "Gunner (Sniper)", "Boy"])
    problems = roster.validate()
    assert len(problems) == 1 and problems[0].startswith("specialism: model 2 ('Gunner')")


def test_exactly_one_leader_when_specialisms_are_chosen(team: Team) -> None:
    """A Battle-forged roster (one naming specialisms) has exactly one Leader: none, or a
    Leader that may not lead, break the ``leader`` rule."""
    none = Roster.from_entries(team, ["Boss Nob (Boyz)", "Boy (Heavy)", "Boy"])
    assert [p.split(":")[0] for p in none.validate()] == ["leader"]
    wrong = Roster.from_entries(team, ["Boy (Leader)", "Boy", "Boy"])
    assert sorted(p.split(":")[0] for p in wrong.validate()) == ["specialism"]


def test_two_leaders_break_the_leader_rule(team: Team) -> None:
    """Two Leaders: ``leader`` counts 2 (and the Boss's Max 1 is broken as well)."""
    roster = Roster.from_entries(
        team, ["Boss Nob (Boyz) (Leader)", "Boss Nob (Boyz) (Leader)", "Boy"]
    )
    problems = roster.validate()
    assert any(p.startswith("leader:") and "selected 2" in p for p in problems)
    assert any(p.startswith("Max: at most 1 'Boss Nob (Boyz)'") for p in problems)


def test_at_most_three_other_specialists(team: Team) -> None:
    """Four specialists besides the Leader break ``specialists`` (at most
    MAX_OTHER_SPECIALISTS = 3, the game system's Specialist count)."""
    assert MAX_OTHER_SPECIALISTS == 3
    four = ["Boy (Combat)", "Boy (Heavy)", "Boy (Veteran)", "Boy (Comms)"]
    roster = Roster.from_entries(team, ["Boss Nob (Boyz) (Leader)", *four])
    assert [p.split(":")[0] for p in roster.validate()] == ["specialists"]
    ok = Roster.from_entries(team, ["Boss Nob (Boyz) (Leader)", *four[:3]])
    assert ok.validate() == []


def test_each_specialism_at_most_once(team: Team) -> None:
    """Two Heavy specialists break ``specialism`` (each specialism at most once)."""
    roster = Roster.from_entries(
        team, ["Boss Nob (Boyz) (Leader)", "Boy (Heavy)", "Gunner (Heavy)"]
    )
    problems = roster.validate()
    assert problems == [
        "specialism: at most 1 Heavy specialist in a kill team (selected 2; rules/KT18.md 1.12)"
    ]


def test_max_characteristic_rules_kt18_1_7(team: Team) -> None:
    """Max is how many of a datasheet a kill team may hold (1.7): three Gunners (Max 2)
    break ``Max``, with or without specialisms; Max 0 (printed ``-``) is no limit."""
    roster = Roster.from_entries(team, ["Gunner", "Gunner", "Gunner", *["Boy"] * 10])
    assert roster.validate() == [
        "Max: at most 2 'Gunner' in a kill team (selected 3; rules/KT18.md 1.7)"
    ]


def test_open_play_roster_needs_no_leader_rules_kt18_9_3(team: Team) -> None:
    """A roster naming no specialism is an open-play kill team (Covert War takes any models,
    9.1, 9.3): no Leader is required."""
    assert Roster.from_entries(team, ["Boy", "Boy", "Gunner"]).validate() == []


def test_size_rule_is_the_teams(team: Team) -> None:
    """The kill team's size is the team's ``selection.size`` (the test team: 1 to 20): 21
    models break ``size``."""
    roster = Roster.from_entries(team, ["Boy"] * 21)
    assert [p.split(":")[0] for p in roster.validate()] == ["size"]


def test_specialisms_length_must_match(team: Team) -> None:
    """A roster built with a specialism list of the wrong length is reported, not read."""
    assert kt18_roster_problems(team, ("Boy", "Boy"), ("Combat",)) == [
        "specialisms: 1 given for 2 models"
    ]


def test_max_reported_once_when_the_team_caps_the_type(team: Team) -> None:
    """An imported team also caps each type at its Max in ``selection.limits``: three
    Gunners are then reported once, by that ``limit`` rule, not twice."""
    capped = attrs.evolve(team, selection=attrs.evolve(team.selection, limits=(("Gunner", 2),)))
    roster = Roster.from_entries(capped, ["Gunner", "Gunner", "Gunner"])
    assert roster.validate() == ["limit: at most 2 'Gunner' (selected 3)"]
