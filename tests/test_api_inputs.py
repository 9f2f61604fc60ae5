"""The Python API's doors (issue: hardened inputs): creating a battle, game options, and
applying Action objects built in Python; whatever they are given, they either work or raise
the engine's documented error naming what is wrong.

Every operative id the engine makes is one the action notation reads back (issue: hardened
inputs, class 6). Ids are made from the team id (engine.game.setup): a team id without ASCII
letters or digits (``ñandu``'s first letter, ``---``) once gave ids such as ``ÑAN-1`` or
``-1`` that the notation cannot parse, so a record of that battle never replayed."""

from __future__ import annotations

import contextlib
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.agents import RandomAgent
from engine.game.actions import (
    MOVE_VERBS,
    Action,
    AmbiguousActionError,
    IllegalActionError,
    InvalidActionError,
    format_action,
    parse_action,
)
from engine.game.drivers import SeededDice
from engine.game.setup import operative_ids
from engine.game.state import Chance, GameState


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
    from engine.game.context import GameOptions, GameOptionsError
    from engine.game.setup import SetupError
    from engine.geometry import load_killzone
    from engine.rulesets import new_game
    from engine.teams import load_builtin_team

    kz = load_killzone("close_quarters")
    a = load_builtin_team("kasrkin").default()
    with pytest.raises(SetupError, match="roster of player B must be a Roster, not NoneType"):
        new_game(kz, a, None)
    with pytest.raises(SetupError, match="killzone must be a Killzone, not str"):
        new_game("close_quarters", a, a)
    with pytest.raises(SetupError, match="options must be GameOptions, not dict"):
        new_game(kz, a, a, {"ruleset": "kt24"})
    refused = "'ruleset' must be one of kt24, kt21, kt18, got 'kt99'"
    with pytest.raises(GameOptionsError, match=refused):
        GameOptions(ruleset="kt99")
    with pytest.raises(GameOptionsError, match="'max_steps' must be a whole number"):
        GameOptions(max_steps=-1)
    with pytest.raises(GameOptionsError, match="'close_quarters' must be true, false or null"):
        GameOptions(close_quarters="yes")


# -------------------------------------------------------------------------------------------
# Actions built in Python (not parsed from notation) reach apply() with any field values
# -------------------------------------------------------------------------------------------

_VERBS = [
    "roll", "Pass", "Deploy", "Activate", "Shoot", "Fight", "Accurate", "Place marker",
    "Use", "Re-roll", "Strike", "Block", *MOVE_VERBS,
]  # fmt: skip


def _states() -> list[GameState]:
    """A set-up decision and a Firefight decision of one seeded random battle."""
    from engine.geometry import load_killzone
    from engine.rulesets import new_game
    from engine.teams import load_builtin_team

    s = new_game(
        load_killzone("close_quarters"),
        load_builtin_team("kasrkin").default(),
        load_builtin_team("legionaries").default(),
    )
    dice, agent, out = SeededDice(4), RandomAgent(4), []
    while len(out) < 2:
        if isinstance(s.node, Chance):
            s, _ = s.apply(dice.roll(s))
            continue
        verbs = {a.verb for a in s.legal_actions()}
        if (not out and "Deploy" in verbs) or (out and "Reposition" in verbs):
            out.append(s)
        s, _ = s.apply(agent.act(s))
    return out


_STATES = _states()
_number = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0.0, 5.0, 11.0, -1.0, 1e300]),
)
_anything = st.one_of(st.none(), st.text(max_size=8), _number, st.booleans())
_actions = st.builds(
    Action,
    verb=st.one_of(st.sampled_from(_VERBS), _anything),
    op=st.one_of(st.sampled_from(["KAS-1", "LEG-2", "KAS-99", ""]), _anything),
    weapon=st.one_of(st.just(""), _anything),
    target=st.one_of(st.sampled_from(["LEG-1", ""]), _anything),
    point=st.one_of(
        st.none(),
        st.tuples(_number, _number, _number),
        st.lists(_number, max_size=4),
        _anything,
    ),
    values=st.one_of(st.tuples(), st.lists(st.integers(-3, 9), max_size=6).map(tuple), _anything),
    text=st.one_of(st.sampled_from(["engage", "conceal", "A", ""]), _anything),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(action=_actions, which=st.sampled_from([0, 1]))
def test_any_action_object_applies_or_raises_an_action_error(action: Action, which: int) -> None:
    """apply() is a door of the Python API: whatever an Action holds, it either applies or
    raises the documented errors (malformed, illegal, ambiguous), never another exception,
    and the state is unchanged (states are immutable; the hash shows it)."""
    state = _STATES[which]
    before = state.hash()
    with contextlib.suppress(InvalidActionError, IllegalActionError, AmbiguousActionError):
        state.apply(action)
    assert state.hash() == before


@pytest.mark.parametrize(
    ("point", "why"),
    [
        ((float("nan"), 1.0, 0.0), "finite"),
        ((float("inf"), 1.0, 0.0), "finite"),
        ((1e300, 1.0, 0.0), "finite"),
        ((1.0, 2.0), r"\(x, y, elevation\)"),
        (("a", 1.0, 0.0), "numbers"),
        (None, "Deploy needs a 'point'"),
    ],
)
def test_malformed_point_is_an_invalid_action(point: object, why: str) -> None:
    with pytest.raises(InvalidActionError, match=why):
        _STATES[0].apply(Action("Deploy", op="KAS-1", point=point))


def test_new_game_checks_a_team_built_in_code_like_a_loaded_one() -> None:
    """A team made in Python (not read from a file) meets the same limits at new_game: a
    datacard with 0 wounds could never be incapacitated properly (2.1: wounds at least 1)."""
    import attrs

    from engine.game.setup import SetupError
    from engine.geometry import load_killzone
    from engine.rulesets import new_game
    from engine.teams import Roster, load_builtin_team

    team = load_builtin_team("legionaries")
    bad_card = attrs.evolve(team.operatives[0], wounds=0)
    bad = attrs.evolve(team, operatives=(bad_card, *team.operatives[1:]))
    roster = Roster(bad, team.default().operatives)
    with pytest.raises(SetupError, match=r"team of player B .*field 'wounds'"):
        new_game(load_killzone("close_quarters"), team.default(), roster)


def test_apply_after_is_legal_gives_what_apply_alone_gives() -> None:
    """``is_legal`` keeps the outcome of the input it checked, for the ``apply`` that usually
    follows; states are immutable values, so handing that outcome over must give exactly what
    a fresh ``apply`` of the same input gives (equal state hash and events), once: a second
    ``apply`` works it out again and gets an equal, separate events list."""
    from engine.geometry import load_killzone
    from engine.rulesets import new_game
    from engine.teams import load_builtin_team

    kz = load_killzone("open_ruins")
    state = new_game(kz, *[load_builtin_team(t).default() for t in ("kasrkin", "legionaries")])
    agents, dice = {"A": RandomAgent(1), "B": RandomAgent(2)}, SeededDice(1)
    for _ in range(60):
        if isinstance(state.node, Chance):
            action = dice.roll(state)
        else:
            action = agents[state.node.player].act(state)
        fresh = state.apply(action)
        assert state.is_legal(action)
        handed = state.apply(action)
        again = state.apply(action)
        assert handed[0].hash() == fresh[0].hash() == again[0].hash()
        assert handed[1] == fresh[1] == again[1]
        assert handed[1] is not again[1]
        state = handed[0]
    # An illegal input keeps nothing: the next apply of a legal one is worked out afresh.
    assert not state.is_legal(Action("Pass", op="NOBODY-9"))
