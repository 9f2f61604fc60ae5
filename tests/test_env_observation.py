"""Tensor observations for learners (:mod:`engine.envs.observation`, issue 30 part 2).

Golden tests use hand-made positions on the LAB killzone of
:mod:`tests.test_game_rules_common` (30" x 22"; a 1" Heavy ruin at x 10-11, y 8-12; a 5"
Heavy wall at x 10-11, y 17-21.5; 0.75" Light rubble at x 15-R to 15.5-R, y 2-6; drop
zones x 0-6 (A) and x 24-30 (B); objective marker ``obj`` at (20, 14.5)) with Troopers (APL
2, Move 6", Save 4+, 10 wounds, 32 mm base; Gun 4 attacks 3+ 3/4, Knife 3 attacks 3+ 2/3),
so every expected number comes from those figures, not from the encoder.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np
import pytest
from numpy.typing import NDArray

from engine.agents import RandomAgent
from engine.envs.observation import (
    BOARD_LAYERS,
    ELEVATION_SCALE,
    GLOBAL_FEATURES,
    GRID_COLUMNS,
    GRID_ROWS,
    MAX_OPERATIVES_PER_SIDE,
    OPERATIVE_FEATURES,
    TAC_OPS,
    ObservationEncoder,
    ObservationError,
    encode,
)
from engine.game import GameState
from engine.game.drivers import SeededDice
from engine.game.state import Decision
from engine.game.work import Work
from engine.geometry import Killzone, load_killzone
from engine.rulesets import new_game
from engine.teams import load_builtin_team
from tests.test_game_rules_common import LAB, R, lab_data, pos

TROOPERS = ("Trooper", "Trooper")

# A Trooper's datacard columns (tests/test_game_rules_common.py team_data): APL 2, Move 6",
# Save 4+, 10 wounds, 32 mm base = 32 / 25.4 inches; Gun (ranged, 4 attacks, Hit 3+,
# Damage 3/4) in weapon slot 0, Knife (melee, 3 attacks, Hit 3+, Damage 2/3) in slot 1.
TROOPER_CARD: dict[str, float] = {
    "present": 1,
    "max_wounds": 10,
    "apl": 2,
    "move": 6,
    "save": 4,
    "base": 32 / 25.4,
    "w0_present": 1,
    "w0_ranged": 1,
    "w0_attacks": 4,
    "w0_hit": 3,
    "w0_normal_damage": 3,
    "w0_crit_damage": 4,
    "w1_present": 1,
    "w1_melee": 1,
    "w1_attacks": 3,
    "w1_hit": 3,
    "w1_normal_damage": 2,
    "w1_crit_damage": 3,
}


def _row(values: Mapping[str, float]) -> NDArray[np.float32]:
    """An ``"operatives"`` row with these named columns set, every other column zero."""
    row = np.zeros(len(OPERATIVE_FEATURES), dtype=np.float32)
    for name, v in values.items():
        row[OPERATIVE_FEATURES.index(name)] = v
    return row


def _globals(values: Mapping[str, float]) -> NDArray[np.float32]:
    """A ``"globals"`` vector with these named entries set, every other entry zero."""
    g = np.zeros(len(GLOBAL_FEATURES), dtype=np.float32)
    for name, v in values.items():
        g[GLOBAL_FEATURES.index(name)] = v
    return g


def _layer(obs: Mapping[str, NDArray[np.float32]], name: str) -> NDArray[np.float32]:
    return obs["board"][BOARD_LAYERS.index(name)]


def _two_troopers(**kw: Any) -> GameState:
    """RED-1 (A) at (3, 4.5) Engage; BLU-2 (B) at (27, 11) Conceal with 4 wounds left; RED-2
    and BLU-1 not on the killzone; A's turn in turning point 1."""
    return pos(
        {
            "RED-1": {"at": (3, 4.5), "order": "engage"},
            "BLU-2": {"at": (27, 11), "order": "conceal", "wounds": 4},
        },
        red=TROOPERS,
        blu=TROOPERS,
        **kw,
    )


def test_operative_rows_are_the_viewers_then_the_opponents_with_exact_features() -> None:
    """RED-1 at (3, 4.5) on a 30" x 22" killzone: x = 3/30 = 0.1, y = 4.5/22 = 0.2045...;
    full wounds (10/10), Engage, ready. BLU-2 at (27, 11): x 0.9, y 0.5, 4 of 10 wounds
    (fraction 0.4, injured: 2 * 4 < 10, rules 2.3), Conceal. Operatives not set up (RED-2,
    BLU-1) keep their datacard columns and wounds, with the engine's default Conceal order,
    and are neither placed nor alive. The viewer's operatives fill rows 0.., the opponent's
    rows MAX_OPERATIVES_PER_SIDE..; the other rows are zero."""
    s = _two_troopers()
    red1 = {
        **TROOPER_CARD,
        "alive": 1,
        "placed": 1,
        "x": 3 / 30,
        "y": 4.5 / 22,
        "wounds": 10,
        "wounds_frac": 1,
        "engage": 1,
        "ready": 1,
    }
    unplaced = {**TROOPER_CARD, "wounds": 10, "wounds_frac": 1, "conceal": 1, "ready": 1}
    blu2 = {
        **TROOPER_CARD,
        "alive": 1,
        "placed": 1,
        "x": 27 / 30,
        "y": 11 / 22,
        "wounds": 4,
        "wounds_frac": 0.4,
        "conceal": 1,
        "ready": 1,
        "injured": 1,
    }
    for viewer, mine, theirs in (
        ("A", (red1, unplaced), (unplaced, blu2)),
        ("B", (unplaced, blu2), (red1, unplaced)),
    ):
        expected = np.zeros(
            (2 * MAX_OPERATIVES_PER_SIDE, len(OPERATIVE_FEATURES)), dtype=np.float32
        )
        for k, values in enumerate(mine):
            expected[k] = _row({**values, "viewer": 1})
        for k, values in enumerate(theirs):
            expected[MAX_OPERATIVES_PER_SIDE + k] = _row(values)
        got = encode(s, viewer)["operatives"]
        np.testing.assert_array_equal(got, expected, err_msg=f"viewer {viewer}")


def test_globals_give_turning_point_phase_resources_and_the_viewers_decision() -> None:
    """Turning point 1 of the Firefight phase, CP 3 (A) and 1 (B), VP 2 (A) and 0 (B), A has
    initiative and must activate: its only ready operative on the killzone is RED-1 (Activate
    RED-1 engage / conceal), so the single operative its options name is RED-1 (slot 0). No
    mission ops are in play in a scenario position. B sees the same battle mirrored: the
    decision is its opponent's, and it is given no options."""
    s = _two_troopers(cp=(3, 1), vp=(2, 0))
    common = {"tp_1": 1, "phase_firefight": 1, "decision_activate": 1}
    want_a = {
        **common,
        "cp_viewer": 3,
        "cp_opponent": 1,
        "vp_viewer": 2,
        "initiative_viewer": 1,
        "decision_viewer": 1,
        "named_op_0": 1,
    }
    want_b = {
        **common,
        "cp_viewer": 1,
        "cp_opponent": 3,
        "vp_opponent": 2,
        "initiative_opponent": 1,
        "decision_opponent": 1,
    }
    np.testing.assert_array_equal(encode(s, "A")["globals"], _globals(want_a))
    np.testing.assert_array_equal(encode(s, "B")["globals"], _globals(want_b))


def test_board_terrain_layers_are_the_fraction_of_each_1_inch_cell_covered() -> None:
    """LAB's parts, on 1" cells (cell [r, c] covers x c..c+1, y r..r+1):

    - ruin, Heavy, 1" tall, x 10-11, y 8-12: cells [8..11, 10] fully covered; height 1/6
      (heights are divided by ELEVATION_SCALE = 6");
    - wall, Heavy, 5" tall, x 10-11, y 17-21.5: cells [17..20, 10] fully, [21, 10] half;
      height 5/6 in all five;
    - rubble, Light, 0.75" tall, x 15-R to 15.5-R (R = 0.63": 14.37 to 14.87, inside column
      14), y 2-6: cells [2..5, 14] half covered; height 0.75/6.

    Every cell of the 30" x 22" killzone is on the board; no other terrain type is present."""
    assert ELEVATION_SCALE == 6.0
    assert 15 - R > 14 and 15.5 - R < 15
    obs = encode(_two_troopers(), "A")
    heavy = np.zeros((GRID_ROWS, GRID_COLUMNS), dtype=np.float32)
    heavy[8:12, 10] = 1
    heavy[17:21, 10] = 1
    heavy[21, 10] = 0.5
    light = np.zeros_like(heavy)
    light[2:6, 14] = 0.5
    height = np.zeros_like(heavy)
    height[8:12, 10] = 1 / 6
    height[17:22, 10] = 5 / 6
    height[2:6, 14] = 0.75 / 6
    np.testing.assert_array_equal(_layer(obs, "on_board"), np.ones_like(heavy))
    np.testing.assert_array_equal(_layer(obs, "terrain_heavy"), heavy)
    np.testing.assert_array_equal(_layer(obs, "terrain_light"), light)
    np.testing.assert_array_equal(_layer(obs, "height"), height)
    for name in BOARD_LAYERS:
        if name.startswith("terrain_") and name not in ("terrain_heavy", "terrain_light"):
            assert not _layer(obs, name).any(), name


def test_board_drop_zones_follow_the_viewer() -> None:
    """Drop zone A is x 0-6 (columns 0-5), B x 24-30 (columns 24-29); in a scenario position
    player A has drop zone A. A sees A's as its own, B sees B's as its own."""
    s = _two_troopers()
    zone_a = np.zeros((GRID_ROWS, GRID_COLUMNS), dtype=np.float32)
    zone_a[:, 0:6] = 1
    zone_b = np.zeros_like(zone_a)
    zone_b[:, 24:30] = 1
    a, b = encode(s, "A"), encode(s, "B")
    np.testing.assert_array_equal(_layer(a, "drop_zone_viewer"), zone_a)
    np.testing.assert_array_equal(_layer(a, "drop_zone_opponent"), zone_b)
    np.testing.assert_array_equal(_layer(b, "drop_zone_viewer"), zone_b)
    np.testing.assert_array_equal(_layer(b, "drop_zone_opponent"), zone_a)


def _only(cell: tuple[int, int]) -> NDArray[np.float32]:
    out = np.zeros((GRID_ROWS, GRID_COLUMNS), dtype=np.float32)
    out[cell] = 1
    return out


def test_board_marks_objectives_their_control_and_operatives_in_their_cells() -> None:
    """The marker ``obj`` at (20, 14.5) is in cell [14, 20]. RED-1 at (20, 16) is 1.5" from
    its centre: base edge to marker edge 1.5 - 0.63 - 0.79 = 0.08" (40 mm marker), within
    control range (4.8); BLU-1 at (25, 4) is far. RED-1 alone contests it, so A controls it:
    control_viewer for A, control_opponent for B. Operatives count in the cell of their
    centre: RED-1 in [16, 20], BLU-1 in [4, 25]."""
    s = pos(
        {"RED-1": {"at": (20, 16)}, "BLU-1": {"at": (25, 4)}},
        red=TROOPERS,
        blu=TROOPERS,
    )
    a, b = encode(s, "A"), encode(s, "B")
    empty = np.zeros((GRID_ROWS, GRID_COLUMNS), dtype=np.float32)
    np.testing.assert_array_equal(_layer(a, "objective"), _only((14, 20)))
    np.testing.assert_array_equal(_layer(a, "control_viewer"), _only((14, 20)))
    np.testing.assert_array_equal(_layer(a, "control_opponent"), empty)
    np.testing.assert_array_equal(_layer(a, "contested"), empty)
    np.testing.assert_array_equal(_layer(b, "control_opponent"), _only((14, 20)))
    np.testing.assert_array_equal(_layer(b, "control_viewer"), empty)
    np.testing.assert_array_equal(_layer(a, "operatives_viewer"), _only((16, 20)))
    np.testing.assert_array_equal(_layer(a, "operatives_opponent"), _only((4, 25)))
    np.testing.assert_array_equal(_layer(b, "operatives_viewer"), _only((4, 25)))


def test_a_marker_contested_by_equal_apl_is_contested_and_controlled_by_nobody() -> None:
    """RED-1 at (20, 16) and BLU-1 at (20, 13) are each 1.5" from the marker at (20, 14.5),
    both within control range; both are Troopers with APL 2, a tie: nobody controls it
    (4.8), and operatives of both players contest it."""
    s = pos(
        {"RED-1": {"at": (20, 16)}, "BLU-1": {"at": (20, 13)}},
        red=TROOPERS,
        blu=TROOPERS,
    )
    obs = encode(s, "A")
    empty = np.zeros((GRID_ROWS, GRID_COLUMNS), dtype=np.float32)
    np.testing.assert_array_equal(_layer(obs, "contested"), _only((14, 20)))
    np.testing.assert_array_equal(_layer(obs, "control_viewer"), empty)
    np.testing.assert_array_equal(_layer(obs, "control_opponent"), empty)


def _with_mission(s: GameState, **changes: Any) -> GameState:
    """``s`` with its mission's fields changed (the node kept)."""
    w = Work(s)
    w.mission = attrs.evolve(w.mission, **changes)
    w.node = s.node
    return w.freeze()


def _same(x: Mapping[str, NDArray[np.float32]], y: Mapping[str, NDArray[np.float32]]) -> bool:
    return all(np.array_equal(x[k], y[k]) for k in ("operatives", "board", "globals"))


def test_the_opponents_unrevealed_tac_op_primary_op_and_secret_picks_never_show() -> None:
    """Two states differing only in B's unrevealed tac op, B's primary op or B's secret op
    facts (rules 8.1, 8.4: secret until revealed) give A identical arrays. The same changes
    do show to B (its own ops), and B's tac op shows to A once revealed: the arrays are not
    blind to them."""
    base = _two_troopers()
    first, second = TAC_OPS[0], TAC_OPS[1]
    s1 = _with_mission(base, tac_ops=(first, first), primary_ops=("kill", "crit"))
    s2 = _with_mission(base, tac_ops=(first, second), primary_ops=("kill", "tac"))
    s3 = _with_mission(s1, facts=(("secret:B:Reboot pick", 3),))
    s4 = _with_mission(s1, facts=(("secret:B:Reboot pick", 5),))
    assert _same(encode(s1, "A"), encode(s2, "A"))
    assert _same(encode(s3, "A"), encode(s4, "A"))
    assert _same(encode(s1, "A"), encode(s3, "A"))
    assert not _same(encode(s1, "B"), encode(s2, "B"))
    revealed = {"tac_revealed": (False, True)}
    assert not _same(
        encode(_with_mission(s1, **revealed), "A"), encode(_with_mission(s2, **revealed), "A")
    )


def _equipment_decision() -> GameState:
    """The first state of a random kasrkin v legionaries battle where a player selects
    equipment after the opponent has selected some (the selection stays secret until both
    are revealed, 7.2)."""
    s = new_game(
        load_killzone("open_ruins"),
        load_builtin_team("kasrkin").default(),
        load_builtin_team("legionaries").default(),
    )
    agents = {"A": RandomAgent(5), "B": RandomAgent(6)}
    dice = SeededDice(7)
    while not s.is_terminal:
        node = s.node
        if isinstance(node, Decision):
            opp = 1 if node.player == "A" else 0
            if node.kind == "equipment" and s.players[opp].equipment:
                return s
            s, _ = s.apply(agents[node.player].act(s))
        else:
            s, _ = s.apply(dice.roll(s))
    raise AssertionError("no equipment decision after the opponent's selection")


def test_the_opponents_equipment_selection_never_shows_before_it_is_revealed() -> None:
    """At an equipment decision after the opponent has selected, a state where the opponent
    selected other equipment gives the deciding player identical arrays (7.2: selections are
    revealed together); the opponent itself sees the difference."""
    s = _equipment_decision()
    assert isinstance(s.node, Decision)
    viewer = s.node.player
    k = 1 if viewer == "A" else 0
    w = Work(s)
    changed = attrs.evolve(w.players[k], equipment=(*w.players[k].equipment, "extra item"))
    w.players[k] = changed
    w.node = s.node
    t = w.freeze()
    assert _same(encode(s, viewer), encode(t, viewer))
    assert not _same(
        encode(s, "B" if viewer == "A" else "A"), encode(t, "B" if viewer == "A" else "A")
    )


def test_every_observation_of_a_random_battle_has_the_published_shapes() -> None:
    """A random battle, both views at every step: float32 arrays of the published shapes,
    finite; positions of operatives on the killzone normalised into [0, 1]; at a decision
    node exactly one decision kind is set."""
    s = new_game(
        load_killzone("close_quarters"),
        load_builtin_team("pathfinders").default(),
        load_builtin_team("hierotek_circle").default(),
    )
    enc = ObservationEncoder.for_state(s)
    agents = {"A": RandomAgent(11), "B": RandomAgent(12)}
    dice = SeededDice(13)
    kinds = [
        i
        for i, n in enumerate(GLOBAL_FEATURES)
        if n.startswith("decision_") and n not in ("decision_viewer", "decision_opponent")
    ]
    x, y = OPERATIVE_FEATURES.index("x"), OPERATIVE_FEATURES.index("y")
    steps = 0
    while True:
        for viewer in ("A", "B"):
            obs = enc.encode(s, viewer)
            for name, shape in enc.shapes.items():
                assert obs[name].shape == shape and obs[name].dtype == np.float32, name
                assert np.isfinite(obs[name]).all(), name
            ops = obs["operatives"]
            assert ((ops[:, [x, y]] >= 0) & (ops[:, [x, y]] <= 1)).all()
            assert obs["globals"][kinds].sum() == (1 if isinstance(s.node, Decision) else 0)
        if s.is_terminal:
            break
        node = s.node
        action = agents[node.player].act(s) if isinstance(node, Decision) else dice.roll(s)
        s, _ = s.apply(action)
        steps += 1
    assert steps > 50


def test_the_encoder_is_built_once_per_battle() -> None:
    """States of one battle share their context, so they share the encoder; another battle
    gets its own."""
    s = _two_troopers()
    t, _ = s.apply(s.legal_actions()[0])
    assert ObservationEncoder.for_state(s) is ObservationEncoder.for_state(t)
    assert ObservationEncoder.for_state(_two_troopers()) is not ObservationEncoder.for_state(s)


def test_bad_arguments_raise_a_clear_error_and_change_nothing() -> None:
    """A player other than A or B, or a state of another battle, is refused naming the
    problem; the state is untouched (same hash)."""
    s = _two_troopers()
    before = s.hash()
    enc = ObservationEncoder.for_state(s)
    with pytest.raises(ObservationError, match="player must be 'A' or 'B'"):
        enc.encode(s, "C")
    with pytest.raises(ObservationError, match="not a state of this encoder's battle"):
        enc.encode(_two_troopers(), "A")
    with pytest.raises(ObservationError, match="expected a GameState"):
        ObservationEncoder.for_state("a state")  # type: ignore[arg-type]
    assert s.hash() == before


def test_a_killzone_larger_than_the_grid_is_refused() -> None:
    """The grid covers 30" x 22" in 1" cells: a 40" wide killzone cannot be represented."""
    data = {**lab_data(), "width": 40.0}
    big = Killzone.from_dict(data, "big")
    s = pos({"RED-1": {"at": (3, 4)}}, kz=big, red=TROOPERS, blu=TROOPERS)
    with pytest.raises(ObservationError, match='40" x 22"'):
        ObservationEncoder.for_state(s)


def test_an_operative_with_more_weapon_profiles_than_slots_is_refused() -> None:
    """The test Gunner carries 15 weapon profiles (14 special guns and a knife), more than
    the 6 weapon slots: refused, naming it, rather than dropping weapons silently."""
    s = pos({"RED-1": {"at": (3, 4)}}, red=("Gunner",), blu=TROOPERS)
    with pytest.raises(ObservationError, match="RED-1 carries 15 weapon profiles"):
        ObservationEncoder.for_state(s)


def test_the_lab_killzone_is_the_one_the_golden_numbers_describe() -> None:
    """The golden tests' expected numbers are worked out from LAB's layout (module
    docstring): check the figures they rely on."""
    assert (LAB.width, LAB.depth) == (30.0, 22.0)
    assert [o.position for o in LAB.objectives] == [(20.0, 14.5)]


def test_equipment_terrain_on_the_killzone_shows_in_the_terrain_layers() -> None:
    """B's light barricade set up at (20, 5), angle 0, is a Light part 1" tall, 3" x 0.5"
    centred on that point (x 18.5-21.5, y 4.75-5.25; checked on the token below). Its cells:
    rows 4 and 5 each hold 0.25" of its depth; columns 18 and 21 hold 0.5" of its length,
    19 and 20 a full inch: coverage 0.125, 0.25, 0.25, 0.125 in each row, on top of LAB's
    rubble (0.5 in [2..5, 14]); height 1/6 there. The token counts for the opponent in the
    cell of its centre, [5, 20]."""
    s = pos(
        {"RED-1": {"at": (3, 4.5)}},
        red=("Trooper",),
        blu=("Trooper",),
        tokens=[{"kind": "light_barricade", "owner": "B", "at": (20, 5), "angle": 0}],
    )
    (part,) = s.tokens[0].feature.parts
    assert part.polygon == ((18.5, 4.75), (21.5, 4.75), (21.5, 5.25), (18.5, 5.25), (18.5, 4.75))
    assert part.height == 1.0
    obs = encode(s, "A")
    light = np.zeros((GRID_ROWS, GRID_COLUMNS), dtype=np.float32)
    light[2:6, 14] = 0.5
    light[4:6, 18:22] = (0.125, 0.25, 0.25, 0.125)
    np.testing.assert_array_equal(_layer(obs, "terrain_light"), light)
    height = _layer(obs, "height")
    np.testing.assert_array_equal(height[4:6, 18:22], np.full((2, 4), 1 / 6, dtype=np.float32))
    np.testing.assert_array_equal(_layer(obs, "tokens_opponent"), _only((5, 20)))
    assert not _layer(obs, "tokens_viewer").any()


@functools.cache
def _kt21_battle(seed: int) -> tuple[GameState, ...]:
    """Every state of a random KT21 battle (Kasrkin v Legionaries, open ruins, Critical
    Operations 2022): random agents, seeded dice."""
    from engine.game.context import GameOptions

    s = new_game(
        load_killzone("open_ruins"),
        load_builtin_team("kt21_kasrkin").default(),
        load_builtin_team("kt21_legionaries").default(),
        GameOptions(ruleset="kt21"),
    )
    agents = {"A": RandomAgent(seed), "B": RandomAgent(seed + 1)}
    dice = SeededDice(seed)
    states = [s]
    while not s.is_terminal:
        node = s.node
        action = agents[node.player].act(s) if isinstance(node, Decision) else dice.roll(s)
        s, _ = s.apply(action)
        states.append(s)
    return tuple(states)


def test_a_kt21_battle_has_the_kt24_shapes_and_neutral_values_for_what_kt21_lacks() -> None:
    """Every state of a KT21 battle, both views: the arrays have the KT24 shapes, finite;
    what KT21 has no counterpart for keeps its neutral 0 (rules/KT21.md 1.4 "Delta KT24":
    no kill op, crit op of the Approved Ops pack, primary op or KT24 tac op; no
    counteraction); during the Firefight phase the board shows the mission's six objective
    markers (15.1); the one-hot decision kind covers every KT21 decision."""
    states = _kt21_battle(3)
    enc = ObservationEncoder.for_state(states[0])
    neutral = [
        i
        for i, n in enumerate(GLOBAL_FEATURES)
        if n.startswith(("kill_grade_", "crit_op_", "tac_", "primary_"))
        or n.startswith(("op_vp_viewer_kill", "op_vp_opponent_kill", "op_vp_viewer_primary"))
        or n.startswith("op_vp_opponent_primary")
    ]
    kinds = [
        i
        for i, n in enumerate(GLOBAL_FEATURES)
        if n.startswith("decision_") and n not in ("decision_viewer", "decision_opponent")
    ]
    counteracted = OPERATIVE_FEATURES.index("counteracted")
    firefight = 0
    for s in states[::3]:
        for viewer in ("A", "B"):
            obs = enc.encode(s, viewer)
            for name, shape in enc.shapes.items():
                assert obs[name].shape == shape and obs[name].dtype == np.float32, name
                assert np.isfinite(obs[name]).all(), name
            assert not obs["globals"][neutral].any()
            assert not obs["operatives"][:, counteracted].any()
            assert obs["globals"][kinds].sum() == (1 if isinstance(s.node, Decision) else 0)
            if s.phase == "firefight":
                assert _layer(obs, "objective").sum() == 6
                firefight += 1
    assert firefight > 20


def test_a_kt21_overwatch_shows_as_the_interrupt_made_this_turning_point() -> None:
    """3.5: an operative that performed an Overwatch (the effect ``overwatched`` until the
    end of the turning point) has ``interrupted`` = 1 in its row, as a KT24 operative that
    made its On Guard interrupt; the others 0."""
    for s in _kt21_battle(3):
        done = {e.op for e in s.effects if e.kind == "overwatched"}
        if not done:
            continue
        obs = ObservationEncoder.for_state(s).encode(s, "A")
        ops = obs["operatives"]
        column = OPERATIVE_FEATURES.index("interrupted")
        mine = [o.id for o in s.operatives if o.player == "A"]
        theirs = [o.id for o in s.operatives if o.player == "B"]
        rows = {op: k for k, op in enumerate(mine)} | {
            op: MAX_OPERATIVES_PER_SIDE + k for k, op in enumerate(theirs)
        }
        for op, row in rows.items():
            assert ops[row, column] == (1.0 if op in done else 0.0)
        return
    raise AssertionError("no Overwatch in the battles")
