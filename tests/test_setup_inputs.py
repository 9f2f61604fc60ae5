"""Creating a battle from the Python API (issue: hardened inputs).

Every operative id the engine makes is one the action notation reads back (issue: hardened
inputs, class 6). Ids are made from the team id (engine.game.setup): a team id without ASCII
letters or digits (``ñandu``'s first letter, ``---``) once gave ids such as ``ÑAN-1`` or
``-1`` that the notation cannot parse, so a record of that battle never replayed."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine.game.actions import Action, format_action, parse_action
from engine.game.setup import operative_ids


def _rosters(a: str, b: str, n: int = 3) -> dict[str, SimpleNamespace]:
    return {
        p: SimpleNamespace(team=SimpleNamespace(id=t), operatives=["x"] * n)
        for p, t in (("A", a), ("B", b))
    }


@pytest.mark.parametrize(
    ("team_a", "team_b"),
    [
        ("kasrkin", "legionaries"),
        ("ñandu", "kasrkin"),
        ("---", "___"),
        ("", "x"),
        ("日本", "ünter"),
        ("a_b2", "a-b-2"),
        ("2nd", "9"),
    ],
)
def test_every_operative_id_parses_back(team_a: str, team_b: str) -> None:
    ids = operative_ids(_rosters(team_a, team_b))
    all_ids = ids["A"] + ids["B"]
    assert len(set(all_ids)) == len(all_ids)  # the two players' ids never collide
    for op in all_ids:
        for act in (Action("Guard", op=op), Action("Counteract", op=op)):
            assert parse_action(format_action(act)) == act, op


def test_ids_keep_ascii_letters_of_the_team_id() -> None:
    # The prefix is the first three ASCII letters or digits, upper case; none gives "OP".
    assert operative_ids(_rosters("ñandu", "---"))["A"][0] == "AND-1"
    assert operative_ids(_rosters("ñandu", "---"))["B"][0] == "OP-1"
    assert operative_ids(_rosters("---", "!!!"))["A"][0] == "OPA-1"


def test_new_game_names_an_argument_of_the_wrong_type() -> None:
    """The Python API is a door too: a wrong argument gives the engine's error naming it,
    not an AttributeError from deep inside."""
    from engine.game import new_game
    from engine.game.context import GameOptions, GameOptionsError
    from engine.game.setup import SetupError
    from engine.geometry import load_killzone
    from engine.teams import load_builtin_team

    kz = load_killzone("close_quarters")
    a = load_builtin_team("kasrkin").default()
    with pytest.raises(SetupError, match="roster of player B must be a Roster, not NoneType"):
        new_game(kz, a, None)
    with pytest.raises(SetupError, match="killzone must be a Killzone, not str"):
        new_game("close_quarters", a, a)
    with pytest.raises(SetupError, match="options must be GameOptions, not dict"):
        new_game(kz, a, a, {"ruleset": "kt24"})
    with pytest.raises(GameOptionsError, match="'ruleset' must be one of kt24"):
        GameOptions(ruleset="kt21")
    with pytest.raises(GameOptionsError, match="'max_steps' must be a whole number"):
        GameOptions(max_steps=-1)
    with pytest.raises(GameOptionsError, match="'close_quarters' must be true, false or null"):
        GameOptions(close_quarters="yes")
