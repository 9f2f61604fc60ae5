"""The integer action codec (issue 30, ``engine.envs.codec``).

Random playouts of every built-in team (each at least once as player A and once as B, on
both killzone layouts) check, at every decision node, that the listed legal actions get
distinct indices in range, that decoding an index gives back the very action, that the mask is
True exactly at those indices, and that illegal indices raise :class:`CodecError` and change
nothing; at every chance node, that outcomes round-trip and their probabilities sum to 1.
Unit tests pin the published layout (sizes, cells, offsets) by hand-computed values.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Iterator

import attrs
import numpy as np
import pytest

import engine.envs.codec as codec_module
from engine.envs.codec import (
    ACTION_SPACE_SIZE,
    ALLOCATION_WORDS,
    CHANCE_SPACE_SIZE,
    FAMILIES,
    FIXED_WORDS,
    KT24_ACTION_SPACE_SIZE,
    ActionCodec,
    CodecError,
    cell_of,
    chance_outcome,
    chance_outcome_index,
    chance_probabilities,
)
from engine.errors import KillTeamError
from engine.game.actions import MOVE_VERBS, Action, parse_action
from engine.game.drivers import SeededDice
from engine.game.state import Chance, Decision, GameState
from engine.geometry import load_killzone
from engine.rulesets import new_game
from engine.teams import builtin_teams, load_builtin_team

LAYOUTS = ("open_ruins", "close_quarters")
TEAMS = sorted(builtin_teams())
# Each team once as A and once as B: (t0, t1), (t1, t2), ..., (t5, t0); layouts alternate.
GAMES = [
    (TEAMS[i], TEAMS[(i + 1) % len(TEAMS)], LAYOUTS[i % 2], 100 + i) for i in range(len(TEAMS))
]


@functools.cache
def _start(a: str, b: str, layout: str) -> GameState:
    return new_game(
        load_killzone(layout), load_builtin_team(a).default(), load_builtin_team(b).default()
    )


@functools.cache
def _playout(a: str, b: str, layout: str, seed: int) -> tuple[GameState, ...]:
    """Every state of one seeded random playout (random legal choices, seeded dice)."""
    state = _start(a, b, layout)
    rng, dice = random.Random(seed), SeededDice(seed)
    states = [state]
    while not state.is_terminal:
        if isinstance(state.node, Chance):
            action = dice.roll(state)
        else:
            action = rng.choice(list(state.legal_actions()))
        state, _ = state.apply(action)
        states.append(state)
    return tuple(states)


def _decisions(game: tuple[str, str, str, int]) -> Iterator[GameState]:
    return (s for s in _playout(*game) if isinstance(s.node, Decision))


def _first(kind: str) -> GameState:
    """The first decision of ``kind`` in the playouts."""
    for game in GAMES:
        for s in _decisions(game):
            if s.node.kind == kind:  # type: ignore[union-attr]
                return s
    raise AssertionError(f"no {kind} decision in the playouts")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-vs-{g[1]}-{g[2]}")
def test_every_listed_action_round_trips_with_an_exact_mask(
    game: tuple[str, str, str, int],
) -> None:
    """At every decision of a random playout: the listed legal actions get distinct indices
    in ``range(ACTION_SPACE_SIZE)``; ``decode(encode(a)) == a``; the mask is True exactly at
    those indices and ``legal_indices`` lists them sorted; a few masked indices raise
    :class:`CodecError` and leave the state (its hash and listed actions) unchanged. The
    engine lists the actions, so this is the codec's contract: it is exact on what the
    engine lists. Every KT24 index is below ``KT24_ACTION_SPACE_SIZE``: no KT24 action falls
    in the KT21 families appended after ``allocate``, so each keeps its index."""
    rng = random.Random(game[3])
    states = _playout(*game)
    codec = ActionCodec.for_state(states[0])
    for state in states:
        if not isinstance(state.node, Decision):
            continue
        legal = list(state.legal_actions())
        indices = [codec.encode(state, a) for a in legal]
        assert len(set(indices)) == len(indices)
        assert all(0 <= i < KT24_ACTION_SPACE_SIZE for i in indices)
        assert [codec.decode(state, i) for i in indices] == legal
        mask = codec.mask(state)
        assert mask.shape == (ACTION_SPACE_SIZE,) and mask.dtype == np.bool_
        assert set(np.flatnonzero(mask).tolist()) == set(indices)
        assert codec.legal_indices(state).tolist() == sorted(indices)
        before = state.hash()
        for _ in range(3):
            bad = rng.randrange(ACTION_SPACE_SIZE)
            if mask[bad]:
                continue
            with pytest.raises(CodecError, match=rf"index {bad} .* is not legal"):
                codec.decode(state, bad)
        assert state.hash() == before and list(state.legal_actions()) == legal


@pytest.mark.parametrize("game", GAMES[:3], ids=lambda g: f"{g[0]}-vs-{g[1]}-{g[2]}")
def test_chance_outcomes_round_trip_and_probabilities_sum_to_one(
    game: tuple[str, str, str, int],
) -> None:
    """At every chance node: every outcome's index is in ``range(CHANCE_SPACE_SIZE)``,
    distinct, and decodes back to it; the probabilities are the weights over ``6 ** dice``
    (``chance_outcomes`` weights sum to that), so they sum to 1."""
    for state in _playout(*game):
        if not isinstance(state.node, Chance):
            continue
        outcomes = state.chance_outcomes()
        indices = [chance_outcome_index(state, a) for a, _ in outcomes]
        assert len(set(indices)) == len(indices)
        assert all(0 <= i < CHANCE_SPACE_SIZE for i in indices)
        assert [chance_outcome(state, i) for i in indices] == [a for a, _ in outcomes]
        probs = chance_probabilities(state)
        assert sorted(i for i, _ in probs) == sorted(indices)
        assert math.isclose(math.fsum(p for _, p in probs), 1.0, rel_tol=1e-12)
        total = 6**state.node.request.dice
        weight = dict(zip(indices, (w for _, w in outcomes), strict=True))
        assert all(p == weight[i] / total for i, p in probs)


def test_a_destination_decision_lists_one_operative_and_one_move_verb() -> None:
    """The ``destination`` family has no operative or verb field: they are implied by the
    move action chosen just before (1.5, 3.2). Checked at every destination decision of the
    playouts (one that has no destination lists only ``Back``)."""
    seen = 0
    for game in GAMES:
        for s in _decisions(game):
            if s.node.kind == "destination":  # type: ignore[union-attr]
                moves = {(a.verb, a.op) for a in s.legal_actions() if a.point is not None}
                assert len(moves) <= 1 and all(verb in MOVE_VERBS for verb, _ in moves)
                seen += len(moves)
    assert seen > 0


def test_published_sizes_follow_the_factored_layout() -> None:
    """The flat size is the sum of the families' radix products, computed here by hand from
    the published bounds: 52 fixed words (6 operand-free verbs, 2+2 initiative/drop zone,
    7 cards, 2 strikes, 6 blocks, 3 same-feature, 3 apply, 5 cover saves, 10 Accurate, 6
    command re-rolls); C(8+6, 6) - 1 = 3002 multisets of 1-8 faces; 12 operative verbs x 32
    slots; 3 x 32 x 12 x 32 attacks; 32 x 12 retaliations; 660 cells x 8 destinations;
    32 x 660 x 2 deployments; 3 x 64 x 33 x 8 named with target; 4 x 64 x 8 named; 4 x 660
    x 16 named at a point; 46 allocations of saves: ``none`` and, for s = 1 to 4 saves used,
    every k crit>crit, j crit>normal, y normals>crit (two saves each), x normal>normal with
    k + j + 2y + x = s: m = k + j critical saves split m + 1 ways, the other r = s - m normal
    saves floor(r / 2) + 1 ways, so s = 1: 1 + 2 = 3; s = 2: 2 + 2 + 3 = 7; s = 3: 2 + 4 + 3 +
    4 = 13; s = 4: 3 + 4 + 6 + 4 + 5 = 22; 1 + 45 = 46. Chance: 36 ordered pairs + C(12+6, 6)
    - 1 multisets of 1-12."""
    assert len(FIXED_WORDS) == 52
    expected = (
        52
        + (math.comb(14, 6) - 1)
        + 12 * 32
        + 3 * 32 * 12 * 32
        + 32 * 12
        + 660 * 8
        + 32 * 660 * 2
        + 3 * 64 * 33 * 8
        + 4 * 64 * 8
        + 4 * 660 * 16
        + 46
    )
    assert len(ALLOCATION_WORDS) == 46
    assert KT24_ACTION_SPACE_SIZE == expected == 183228
    assert math.comb(18, 6) - 1 + 36 == CHANCE_SPACE_SIZE
    assert [f.offset for f in FAMILIES][:3] == [0, 52, 52 + 3002]
    kt24 = [f.name for f in FAMILIES if f.offset < KT24_ACTION_SPACE_SIZE]
    assert kt24 == [
        "fixed",
        "reroll",
        "operative",
        "attack",
        "retaliate",
        "destination",
        "deploy",
        "named_target",
        "named",
        "named_point",
        "allocate",
    ]
    assert ACTION_SPACE_SIZE > KT24_ACTION_SPACE_SIZE


def test_cell_of_maps_points_to_a_30_by_22_grid() -> None:
    """On a 30" x 22" killzone the cells are 1" squares, ``row * 30 + column``: (12.5, 8)
    is column 12, row 8, cell 252; the far corner (30, 22) is in the last cell 659; a point
    off the board falls in the nearest edge cell. On a killzone twice as large the same grid
    has 2" cells: (12.5, 8) is column 6, row 4, cell 126."""
    assert cell_of(12.5, 8.0, 30.0, 22.0) == 252
    assert cell_of(0.0, 0.0, 30.0, 22.0) == 0
    assert cell_of(30.0, 22.0, 30.0, 22.0) == 659
    assert cell_of(-1.0, 5.2, 30.0, 22.0) == 150
    assert cell_of(29.999, 0.5, 30.0, 22.0) == 29
    assert cell_of(12.5, 8.0, 60.0, 44.0) == 126


def test_destination_index_is_cell_and_rank_by_z_y_x() -> None:
    """A listed destination's index is the destination family's offset + cell * 8 + k, with
    the cell of its (x, y) on the 1" grid and k its rank among the listed destinations of the
    same cell ordered by (z, y, x): computed here from the published formula."""
    state = _first("destination")
    codec = ActionCodec.for_state(state)
    offset = next(f.offset for f in FAMILIES if f.name == "destination")
    listed = [a for a in state.legal_actions() if a.point is not None]
    for a in listed:
        assert a.point is not None
        cell = math.floor(a.point[1]) * 30 + math.floor(a.point[0])
        same = sorted(
            (b.point[2], b.point[1], b.point[0])
            for b in listed
            if b.point is not None and math.floor(b.point[1]) * 30 + math.floor(b.point[0]) == cell
        )
        k = same.index((a.point[2], a.point[1], a.point[0]))
        assert codec.encode(state, a) == offset + cell * 8 + k


def test_initiative_and_activation_indices_are_the_published_ones() -> None:
    """``Initiative A`` is fixed word 6 (:data:`FIXED_WORDS` order), index 6; ``Activate
    <op> engage`` is in the operative family (offset 52 + 3002 = 3054) at verb 0 and the
    operative's position in ``state.operatives``: 3054 + slot."""
    state = _first("initiative")
    codec = ActionCodec.for_state(state)
    assert codec.encode(state, parse_action("Initiative A")) == 6
    state = _first("activate")
    codec = ActionCodec.for_state(state)
    for a in state.legal_actions():
        if a.verb == "Activate" and a.text == "engage":
            slot = [o.id for o in state.operatives].index(a.op)
            assert codec.encode(state, a) == 3054 + slot
            assert codec.fields(3054 + slot) == ("operative", (0, slot))
            assert codec.describe(3054 + slot) == f"Activate engage {a.op}"


def test_codec_is_one_per_battle_and_equal_for_equal_battles() -> None:
    """A battle's codec is built once and kept (the same object at every state), and two
    battles of the same teams and killzone get equal codecs (they hold the same slots)."""
    a, b, layout, seed = GAMES[0]
    states = _playout(a, b, layout, seed)
    codec = ActionCodec.for_state(states[0])
    assert ActionCodec.for_state(states[-1]) is codec
    other = new_game(
        load_killzone(layout), load_builtin_team(a).default(), load_builtin_team(b).default()
    )
    assert ActionCodec.for_state(other) == codec
    assert codec.size == ACTION_SPACE_SIZE


@pytest.mark.parametrize(
    ("index", "message"),
    [
        (-1, "out of range"),
        (ACTION_SPACE_SIZE, "out of range"),
        ("3", "must be an integer, not str"),
        (2.0, "must be an integer, not float"),
        (True, "must be an integer, not bool"),
    ],
)
def test_bad_indices_raise_a_codec_error_naming_them(index: object, message: str) -> None:
    """An index that is not an integer in range is refused with a :class:`CodecError`
    (a ``KillTeamError`` and ``ValueError``) naming what is wrong; the state is unchanged."""
    state = _first("activate")
    codec = ActionCodec.for_state(state)
    before = state.hash()
    with pytest.raises(CodecError, match=message) as err:
        codec.decode(state, index)  # type: ignore[arg-type]
    assert isinstance(err.value, KillTeamError) and isinstance(err.value, ValueError)
    assert state.hash() == before


def test_numpy_integers_are_accepted() -> None:
    """An index drawn from a numpy array (``np.int64``) decodes like the Python int."""
    state = _first("activate")
    codec = ActionCodec.for_state(state)
    i = codec.legal_indices(state)[0]
    assert codec.decode(state, i) == codec.decode(state, int(i))


def test_unlisted_actions_and_wrong_nodes_are_refused() -> None:
    """Encoding an action not listed at the decision, a non-action, or any decision call
    at a chance node raises :class:`CodecError` naming the problem; chance helpers refuse a
    decision node."""
    state = _first("activate")
    codec = ActionCodec.for_state(state)
    with pytest.raises(CodecError, match=r"'Pass' is not among the .* listed legal actions"):
        codec.encode(state, Action("Pass"))
    with pytest.raises(CodecError, match="expected an Action, not str"):
        codec.encode(state, "Pass")  # type: ignore[arg-type]
    with pytest.raises(CodecError, match="chance node"):
        chance_probabilities(state)
    chance = next(
        s for s in _playout(*GAMES[0]) if isinstance(s.node, Chance) and not s.node.request.ordered
    )
    with pytest.raises(CodecError, match="encodes decisions"):
        codec.mask(chance)
    with pytest.raises(CodecError, match="is not an outcome"):
        chance_outcome(chance, CHANCE_SPACE_SIZE + 5)
    assert isinstance(chance.node, Chance)
    one_more = Action("roll", values=(6,) * (chance.node.request.dice + 1))
    with pytest.raises(CodecError, match="is not an outcome of this chance node"):
        chance_outcome_index(chance, one_more)


def test_roll_off_pairs_are_ordered() -> None:
    """A roll-off's outcome ``(a, b)`` (A's die first) is index ``(a - 1) * 6 + b - 1``:
    ``roll 6,1`` is 30 and ``roll 1,6`` is 5 (different winners, different indices)."""
    state = _start(*GAMES[0][:3])
    assert isinstance(state.node, Chance) and state.node.request.ordered
    assert chance_outcome_index(state, parse_action("roll 6,1")) == 30
    assert chance_outcome_index(state, parse_action("roll 1,6")) == 5
    assert chance_outcome(state, 30) == parse_action("roll 6,1")


def test_sub_slot_overflow_names_the_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for only one destination per cell, a destination decision listing two in
    one cell cannot be encoded exactly: :class:`CodecError` names the cell and the bound
    instead of letting two actions share an index."""
    state = next(
        s
        for game in GAMES
        for s in _decisions(game)
        if s.node.kind == "destination"  # type: ignore[union-attr]
        and len({cell_of(a.point[0], a.point[1], 30, 22) for a in s.legal_actions() if a.point})
        < sum(1 for a in s.legal_actions() if a.point)
    )
    fams = tuple(
        attrs.evolve(f, radices=(f.radices[0], 1)) if f.name == "destination" else f
        for f in FAMILIES
    )
    monkeypatch.setattr(codec_module, "FAMILIES", fams)
    state._memo.pop("envs.codec", None)
    with pytest.raises(CodecError, match=r"fall in move destination cell \(column \d+, row \d+"):
        ActionCodec.for_state(state).mask(state)
    state._memo.pop("envs.codec", None)
