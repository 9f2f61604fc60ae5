"""KT18 datasheet values in team files (rules/KT18.md 1.2, 1.7-1.9): read, written back,
and refused with the field named."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from engine.dice.kt18_values import parse_random_value
from engine.teams.io import TeamFileError, team_from_dict, team_to_dict
from engine.teams.kt18_cards import Kt18Weapon

_TEAM: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "kt18_test_team.json").read_text(encoding="utf-8")
)


def _team() -> dict[str, Any]:
    return copy.deepcopy(_TEAM)


def test_kt18_team_file_round_trip() -> None:
    """Loading, dumping and loading again gives an equal team; the characteristics are the
    datasheet's (WS 4+ is 4, S 3, A "1", Sv 5+ is 5; rules/KT18.md 1.7)."""
    team = team_from_dict(_team(), "x.json")
    card = team.operatives[0]
    assert card.kt18 is not None
    assert (card.kt18.ws, card.kt18.strength, card.kt18.attacks, card.kt18.save) == (4, 3, "1", 5)
    assert card.weapons[0].profiles[0].kt18 == Kt18Weapon(24.0, "Rapid Fire", "1", "3", 0, "1")
    assert team_from_dict(team_to_dict(team), "y.json") == team


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("kt18", "sv"), "9+", "field 'sv': expected a threshold"),
        (("kt18", "s"), 0, "field 'strength': must be a whole number from 1 to 20"),
        (("weapons", 0, "kt18", "ap"), 2, "field 'ap': must be 0 or a negative"),
        (("weapons", 1, "kt18", "shots"), "D7", "expected a number or dice"),
        (("weapons", 2, "kt18", "type"), "Assault", "only a Melee weapon has"),
    ],
)
def test_kt18_bad_values_are_refused_naming_the_field(
    path: tuple[Any, ...], value: Any, message: str
) -> None:
    """Each characteristic has the bounds of rules/KT18.md 1.7-1.8 (thresholds 2+ to 6+, S and
    T at least 1, AP never positive, dice values D3/D6 only, Range "Melee" only for Melee)."""
    data = _team()
    node: Any = data["operatives"][0]
    for key in path[:-1]:
        node = node[key]
        if isinstance(node, dict) and "profiles" in node:
            node = node["profiles"][0]
    node[path[-1]] = value
    with pytest.raises(TeamFileError, match=message):
        team_from_dict(data, "x.json")


def test_kt18_characteristics_need_the_kt18_edition() -> None:
    """A KT24 team (no edition) carrying KT18 characteristics is refused (rules/KT18.md 1.6)."""
    data = _team()
    del data["edition"]
    with pytest.raises(TeamFileError, match='give the team "edition": "kt18"'):
        team_from_dict(data, "x.json")


def test_kt18_d3_is_a_halved_d6() -> None:
    """A D3 is a D6 halved rounding up (rules/KT18.md 1.2): each of 1, 2, 3 has 2 faces in 6;
    D3+1 is 2..4, each 1/3."""
    assert parse_random_value("D3").pmf() == {v: Fraction(1, 3) for v in (1, 2, 3)}
    assert parse_random_value("D3+1").pmf() == {v: Fraction(1, 3) for v in (2, 3, 4)}
    assert parse_random_value("D3").value((5,)) == 3


def test_kt18_two_d6_sums_two_dice() -> None:
    """2D6 is the sum of two dice (rules/KT18.md 1.2): 7 has 6 ways in 36."""
    pmf = parse_random_value("2D6").pmf()
    assert pmf[7] == Fraction(6, 36) and pmf[2] == Fraction(1, 36) and sum(pmf.values()) == 1


def test_kt18_weapon_strength_modifies_the_user() -> None:
    """S "User" is the wielder's S, "+1" adds, "x2" doubles (rules/KT18.md 1.8: S 6 with x2
    is S 12); a fixed S ignores the wielder."""

    def s(text: str, user: int) -> int:
        return Kt18Weapon(0, "Melee", "", text, 0, "1").strength_for(user)

    assert (s("User", 4), s("+1", 4), s("x2", 6), s("5", 3)) == (4, 5, 12, 5)
