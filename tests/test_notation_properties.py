"""The action notation (``engine.game.actions``) as a door for input (issue 12, classes 6
and 7): every action the engine lists and every chance outcome round-trips through
``format_action``/``parse_action``; any text either parses or raises ``InvalidActionError``
(the documented class), never another exception; a coordinate that parses formats back to
itself, and huge, infinite or not-a-number coordinates are refused; every operative id the
engine makes parses, and ids outside ASCII letters and digits are refused.
"""

from __future__ import annotations

import itertools

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.agents import RandomAgent
from engine.game.actions import (
    MAX_COORDINATE,
    MAX_NOTATION_CHARS,
    Action,
    InvalidActionError,
    format_action,
    parse_action,
)
from engine.game.drivers import SeededDice
from engine.game.setup import operative_ids
from engine.game.state import Chance, Decision
from engine.geometry import load_killzone
from engine.rulesets import new_game
from engine.teams import builtin_teams, load_builtin_team

_KZ = {name: load_killzone(name) for name in ("open_ruins", "close_quarters")}
_TEAMS = {t: load_builtin_team(t) for t in builtin_teams()}
_PAIRS = list(itertools.permutations(sorted(_TEAMS), 2))


def _round_trips(action: Action) -> None:
    text = format_action(action)
    assert parse_action(text) == action, text
    # Case and spacing are not part of an action: a shouted, spread-out copy reads the same
    # (for ASCII text: upper-casing some other letters is not undone by lower-casing, the
    # micro sign becomes a Greek capital mu).
    if text.isascii():
        assert parse_action("  " + text.upper().replace(" ", "   ") + " ") == action, text


# -------------------------------------------------------------------------------------------
# Every action of random states of random playouts round-trips
# -------------------------------------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(
    pair=st.sampled_from(_PAIRS),
    layout=st.sampled_from(sorted(_KZ)),
    seed=st.integers(0, 2**16),
    steps=st.integers(1, 220),
)
def test_every_listed_action_and_chance_outcome_round_trips(
    pair: tuple[str, str], layout: str, seed: int, steps: int
) -> None:
    # DESIGN.md principle 5: each legal action has a notation that parses back. Every node
    # of a random battle prefix is checked, so one example covers set-up, strategy and
    # firefight decisions and the rolls between them.
    a, b = pair
    state = new_game(_KZ[layout], _TEAMS[a].default(), _TEAMS[b].default())
    agents = {"A": RandomAgent(seed), "B": RandomAgent(seed + 1)}
    dice = SeededDice(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        node = state.node
        if isinstance(node, Chance):
            if node.request.dice <= 3:  # 6^3 outcomes at most; larger pools are sampled
                for outcome, _ in state.chance_outcomes():
                    _round_trips(outcome)
            action = dice.roll(state)
        else:
            assert isinstance(node, Decision)
            for act in state.legal_actions():
                _round_trips(act)
            action = agents[node.player].act(state)
        _round_trips(action)
        state, _ = state.apply(action)


# -------------------------------------------------------------------------------------------
# Any text: an Action or InvalidActionError, and what parses round-trips
# -------------------------------------------------------------------------------------------

_TEMPLATES = (
    "roll {d}",
    "Initiative {w}",
    "Drop zone {w}",
    "Play {w}",
    "Deploy {op} at {pt}",
    "Activate {op} {w}",
    "Counteract {op}",
    "Reposition {op} to {pt}",
    "Fall back {op} to {pt}",
    "Shoot {op} {w} at {op2}",
    "Fight {op} {w} at {op2}",
    "Hatchway fight {op} {w} at {op2}",
    "Retaliate {op} with {w}",
    "Retaliate {op}",
    "Pick up {op} {w}",
    "Place marker {op} at {pt}",
    "Place marker {op} {w} at {pt}",
    "Operate hatch {op} {w}",
    "Also {op}",
    "Re-roll {d}",
    "Command re-roll {d}",
    "Strike {w}",
    "Block {w} with {w}",
    "Same feature {w}",
    "Accurate {n}",
    "Apply {w}",
    "Cover save {w}",
    "Use {w} on {op2}",
    "Use {w}",
)

_words = st.one_of(
    st.sampled_from(["A", "b", "engage", "conceal", "crit", "normal", "re-roll", "+1", "severe"]),
    st.text(min_size=0, max_size=12),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz -()'", min_size=1, max_size=20),
)
_ids = st.one_of(
    st.from_regex(r"[A-Za-z0-9]{1,5}-[0-9]{1,3}", fullmatch=True),
    st.text(min_size=0, max_size=8),
    st.sampled_from(["ÑAN-1", "-1", "KAS_1-2", "K\u212aS-1", "KAS-\u0663", "a_b2-1"]),
)
_numbers = st.one_of(
    st.from_regex(r"-?[0-9]{1,6}(\.[0-9]{1,8})?", fullmatch=True),
    st.sampled_from(["9" * 400, "1e400", "nan", "inf", "-Infinity", "1" + "0" * 20, "-0"]),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)
_points = st.lists(_numbers, min_size=1, max_size=4).map(",".join)
_dice = st.lists(st.integers(-1, 8).map(str), min_size=0, max_size=6).map(",".join)


@st.composite
def _notation_like(draw: st.DrawFn) -> str:
    template = draw(st.sampled_from(_TEMPLATES))
    return template.format(
        d=draw(_dice),
        w=draw(_words),
        op=draw(_ids),
        op2=draw(_ids),
        pt=draw(_points),
        n=draw(st.integers(-2, 12)),
    )


def _parses_or_invalid(text: str) -> None:
    try:
        action = parse_action(text)
    except InvalidActionError:
        return
    _round_trips(action)
    if action.point is not None:
        assert all(abs(c) <= MAX_COORDINATE for c in action.point)
    for ident in (action.op, action.target):
        assert ident == "" or (ident.isascii() and ident[0] != "-"), ident


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_any_text_is_an_action_or_invalid(text: str) -> None:
    _parses_or_invalid(text)


@settings(max_examples=200, deadline=None)
@given(_notation_like())
def test_text_near_the_notation_is_an_action_or_invalid(text: str) -> None:
    _parses_or_invalid(text)


@settings(max_examples=50, deadline=None)
@given(st.one_of(st.integers(), st.floats(), st.none(), st.binary(), st.lists(st.text())))
def test_a_value_that_is_not_text_is_invalid(value: object) -> None:
    with pytest.raises(InvalidActionError, match="must be text"):
        parse_action(value)  # type: ignore[arg-type]


# -------------------------------------------------------------------------------------------
# Coordinates
# -------------------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.decimals(min_value=-MAX_COORDINATE, max_value=MAX_COORDINATE, allow_nan=False, places=6),
    st.decimals(min_value=-MAX_COORDINATE, max_value=MAX_COORDINATE, allow_nan=False, places=3),
)
def test_a_coordinate_in_range_parses_and_formats_back_exactly(x: object, y: object) -> None:
    # A coordinate is rounded to the 0.001" grid (DESIGN.md principle 2); the formatted
    # text of the rounded value reads back to the very same float.
    action = parse_action(f"Reposition KAS-1 to {x},{y}")
    assert action.point is not None
    assert action.point[0] == round(float(str(x)), 3) + 0.0
    assert action.point[1] == float(str(y)) + 0.0
    text = format_action(action)
    assert parse_action(text) == action
    assert format_action(parse_action(text)) == text


@pytest.mark.parametrize(
    "number",
    ["9" * 400, "-" + "9" * 400, "1" + "0" * 20, "10000.001", "-10001"],
)
def test_a_coordinate_out_of_range_is_refused_not_infinity(number: str) -> None:
    with pytest.raises(InvalidActionError, match="out of range") as info:
        parse_action(f"Deploy KAS-1 at {number},4")
    assert len(str(info.value)) < 300  # the message quotes an excerpt, not 400 digits


@pytest.mark.parametrize(
    "number", ["1e400", "1e3", "nan", "NaN", "inf", "-inf", "Infinity", "0x10", "1_000", "+1"]
)
def test_a_coordinate_that_is_not_a_decimal_number_is_refused(number: str) -> None:
    with pytest.raises(InvalidActionError, match="not an action"):
        parse_action(f"Reposition KAS-1 to {number},4")


def test_the_largest_coordinate_is_accepted() -> None:
    action = parse_action(f"Reposition KAS-1 to -{MAX_COORDINATE:.3f},{MAX_COORDINATE:g}")
    assert action.point == (-MAX_COORDINATE, MAX_COORDINATE, 0.0)


def test_overlong_notation_is_refused_with_an_excerpt() -> None:
    text = "Use " + "x" * MAX_NOTATION_CHARS
    with pytest.raises(InvalidActionError, match="longer than") as info:
        parse_action(text)
    assert len(str(info.value)) < 200


def test_formatting_an_action_without_its_fields_is_invalid() -> None:
    with pytest.raises(InvalidActionError, match="needs a point"):
        format_action(Action("Deploy", op="KAS-1"))
    with pytest.raises(InvalidActionError, match="exactly one value"):
        format_action(Action("Accurate"))
    with pytest.raises(InvalidActionError, match="unknown action verb"):
        format_action(Action("Teleport", op="KAS-1"))


# -------------------------------------------------------------------------------------------
# Operative ids
# -------------------------------------------------------------------------------------------


def _check_ids(ids: list[str]) -> None:
    for op in ids:
        for text in (f"Activate {op} engage", f"Shoot {op} bolt gun at {op}", f"Also {op}"):
            action = parse_action(text)
            assert op in (action.op, action.target), text
            _round_trips(action)


@pytest.mark.parametrize(("a", "b"), [(t, t) for t in sorted(_TEAMS)] + _PAIRS[:6])
def test_operative_ids_of_every_built_in_team_parse(a: str, b: str) -> None:
    # Against itself the two prefixes collide and get the player letter (KASA-1, KASB-1).
    ids = operative_ids({"A": _TEAMS[a].default(), "B": _TEAMS[b].default()})
    assert len(set(ids["A"]) | set(ids["B"])) == len(ids["A"]) + len(ids["B"])
    _check_ids(ids["A"] + ids["B"])


@pytest.mark.parametrize("team_id", ["a_b2", "x", "z9_", "ab_cd_ef_12"])
def test_operative_ids_of_a_safe_team_id_parse(team_id: str) -> None:
    # Team ids are ASCII [a-z][a-z0-9_]* (checked when a team loads); the underscore is left
    # out of the operative ids, which stay ASCII letters and digits.
    team = attrs.evolve(_TEAMS["kasrkin"], id=team_id)
    roster = attrs.evolve(_TEAMS["kasrkin"].default(), team=team)
    ids = operative_ids({"A": roster, "B": _TEAMS["legionaries"].default()})
    assert all(op.split("-")[0].isalnum() and op.isascii() for op in ids["A"])
    _check_ids(ids["A"])


@pytest.mark.parametrize(
    "op", ["ÑAN-1", "-1", "KAS_1-2", "K\u212aS-1", "KAS-\u0663", "KAS 1", "KAS-", "ÅSA-3"]
)
def test_an_operative_id_outside_ascii_letters_and_digits_is_refused(op: str) -> None:
    with pytest.raises(InvalidActionError, match="not an action"):
        parse_action(f"Activate {op} engage")
