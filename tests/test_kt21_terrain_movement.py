"""KT21 movement through terrain (rules/KT21.md 7.3, 7.4; DC 16.10-16.15): the movement
search's :class:`~engine.geometry.movement.MovementRules` parameter with KT21's values
(increments, climbing in 2" steps, Scalable, drops rounded down, the 6" drop limit, traverse,
the jump's 3" gap and its D6 test, FLY), KT24's left as they were.

The fixture killzone is ``scenarios/killzones/kt21_terrain.toml`` (its header lists the
terrain); operatives have 28 mm bases (radius 0.551") and Move 6"."""

from __future__ import annotations

from typing import Any

import pytest

from engine.game.context import GameOptions
from engine.game.state import Chance, GameState
from engine.geometry import Placement, load_killzone
from engine.geometry.movement import (
    KT21_MOVEMENT,
    KT24_MOVEMENT,
    MoveError,
    MovePath,
    check_path,
    shortest_path,
)
from engine.rulesets import position
from engine.teams.io import load_team
from engine.teams.model import Roster

KZ = load_killzone("scenarios/killzones/kt21_terrain.toml")
PROBE = Roster.from_entries(load_team("scenarios/teams/kt21_probe.json"), ["Probe Trooper"] * 2)
TARGET = Roster.from_entries(load_team("scenarios/teams/kt21_target.json"), ["Target Trooper"] * 2)


def _at(x: float, y: float, z: float = 0.0) -> Placement:
    return Placement(x, y, 28.0, z, 1.3)


def _path(
    start: tuple[float, ...], end: tuple[float, ...], rules: Any = KT21_MOVEMENT, **kw: Any
) -> MovePath | None:
    return shortest_path(KZ, _at(*start), end, rules=rules, **kw)


def _cost(start: tuple[float, ...], end: tuple[float, ...], **kw: Any) -> float:
    path = _path(start, end, **kw)
    assert path is not None
    return path.cost


# -------------------------------------------------------------------------------------------
# Increments (7.3)
# -------------------------------------------------------------------------------------------


def test_increment_shorter_than_one_inch_counts_one_inch() -> None:
    """7.3: an increment shorter than 1" counts as 1"."""
    assert _cost((10, 20), (10.5, 20)) == pytest.approx(1.0)


def test_increment_longer_than_one_inch_counts_its_length() -> None:
    """7.3: a longer increment counts its own length (KT24 would round 3.3" up to 4")."""
    assert _cost((10, 20), (13.3, 20)) == pytest.approx(3.3)
    assert _cost((10, 20), (13.3, 20), rules=KT24_MOVEMENT) == pytest.approx(4.0)


# -------------------------------------------------------------------------------------------
# Climbing and Scalable (7.4)
# -------------------------------------------------------------------------------------------


def test_climb_counts_vertical_in_two_inch_steps_rounded_up() -> None:
    """7.4: the 2.5" tower's vertical distance counts 4" (two 2" steps), plus the 1.5" of
    horizontal distance (16.12): 5.5". KT24 counts 1.5 + 2.5 = 4"."""
    assert _cost((8, 17), (6.5, 17, 2.5)) == pytest.approx(5.5)
    assert _cost((8, 17), (6.5, 17, 2.5), rules=KT24_MOVEMENT) == pytest.approx(4.0)


def test_scalable_terrain_ignores_the_last_vertical_step_under_two_inches() -> None:
    """7.4 Scalable: the 5" roof is taller than 4", so climbing its 3" from the 2" ledge
    counts 2" (the last 1" under 2" is ignored), plus 2.2" across: 4.2"."""
    assert _cost((19.8, 4, 2), (22, 4, 5)) == pytest.approx(4.2)


def test_terrain_four_inches_tall_is_not_scalable() -> None:
    """7.4: the 4" block is not taller than 4": its 3" climb from the 1" step counts 4"
    (rounded up), 2.2 + 4 = 6.2" is more than a Move of 6" but within 7"."""
    assert _path((19.8, 11, 1), (22, 11, 4)) is None
    assert _cost((19.8, 11, 1), (22, 11, 4), move=7) == pytest.approx(6.2)


def test_climb_gives_no_free_horizontal_move() -> None:
    """16.12: the horizontal distance of a climb counts: the same 2.5" climb from 0.5"
    further away costs 0.5" more."""
    assert _cost((8.5, 17), (6.5, 17, 2.5)) - _cost((8, 17), (6.5, 17, 2.5)) == pytest.approx(0.5)


# -------------------------------------------------------------------------------------------
# Dropping (7.4)
# -------------------------------------------------------------------------------------------


def test_drop_counts_vertical_in_two_inch_steps_rounded_down() -> None:
    """7.4: dropping 2.5" off the tower counts 2" (rounded down), + 1.5" across: 3.5"."""
    assert _cost((6.5, 17, 2.5), (8, 17)) == pytest.approx(3.5)


def test_drop_under_two_inches_is_free() -> None:
    """7.4: a drop under 2" counts nothing: off the 1" step, only the 3.3" across count."""
    assert _cost((20.3, 11, 1), (17, 11)) == pytest.approx(3.3)


def test_drop_of_more_than_six_inches_is_refused() -> None:
    """7.4 (UNCONFIRMED 18.5: 3 x 2"): the 6.5" spire is too high to drop from, even with
    Move 8" (KT24 has no limit: 3" + 4.5" counted = 8")."""
    assert _path((27.5, 10.5, 6.5), (27.5, 13.5), move=8) is None
    assert _cost((27.5, 10.5, 6.5), (27.5, 13.5), rules=KT24_MOVEMENT, move=8) == 8.0
    with pytest.raises(MoveError, match="a drop falls at most 6"):
        check_path(KZ, _at(27.5, 10.5, 6.5), [(27.5, 13.5, 0)], move=8, rules=KT21_MOVEMENT)


# -------------------------------------------------------------------------------------------
# Traverse (7.4, 9)
# -------------------------------------------------------------------------------------------


def test_traverse_of_a_traversable_part_costs_two_inches() -> None:
    """7.4: the 2" Light wall is Traversable (9): going over it costs 2" on top of the 2.5"
    across: 4.5"."""
    assert _cost((7, 4), (9.5, 4)) == pytest.approx(4.5)


def test_heavy_part_is_climbed_over_not_traversed() -> None:
    """7.4: the 2" Heavy wall is not Traversable: climbing up (2") and dropping 2" down (2"
    rounded down is 2") add 4" to the 2.5" across: 6.5", out of a 6" Move."""
    assert _path((7, 10), (9.5, 10)) is None
    assert _cost((7, 10), (9.5, 10), move=7) == pytest.approx(6.5)


# -------------------------------------------------------------------------------------------
# Jumping (7.4)
# -------------------------------------------------------------------------------------------


def test_jump_counts_only_its_horizontal_distance() -> None:
    """7.4: jumping the 2" gap between the 3" roofs counts the 3" across, nothing vertical;
    the increment is a jump (the game rules roll its test)."""
    path = _path((14.5, 17, 3), (17.5, 17, 3))
    assert path is not None and path.cost == pytest.approx(3.0)
    assert [i.kind for i in path.increments] == ["jump"]


def test_jump_over_a_gap_wider_than_three_inches_is_refused() -> None:
    """7.4 (UNCONFIRMED 18.5: a 3" gap at most): the 3.5" gap between the middle and east
    roofs cannot be jumped (KT24 allows 4")."""
    assert _path((19.5, 17, 3), (24, 17, 3)) is None
    assert _path((19.5, 17, 3), (24, 17, 3), rules=KT24_MOVEMENT) is not None


# -------------------------------------------------------------------------------------------
# FLY (7.3)
# -------------------------------------------------------------------------------------------


def test_fly_ignores_vertical_distance_and_gaps() -> None:
    """7.3 FLY: over the Heavy wall only the 2.5" across counts; the 6.5" drop is allowed
    and counts only its 3" across; the 3.5" gap is crossed without a jump limit."""
    fly = KT21_MOVEMENT.with_fly(True)
    assert _cost((7, 10), (9.5, 10), rules=fly) == pytest.approx(2.5)
    assert _cost((27.5, 10.5, 6.5), (27.5, 13.5), rules=fly) == pytest.approx(3.0)
    assert _cost((19.5, 17, 3), (24, 17, 3), rules=fly) == pytest.approx(4.5)


# -------------------------------------------------------------------------------------------
# In a battle: the jump test, Dash and Charge
# -------------------------------------------------------------------------------------------


def _battle(ops: dict[str, dict[str, Any]]) -> GameState:
    options = GameOptions(ruleset="kt21")
    s = position(KZ, PROBE, TARGET, options=options, operatives=ops)
    s, _ = s.apply("Activate PRO-1 engage")
    return s


FAR = {"TAR-1": {"at": (28.5, 20)}, "TAR-2": {"at": (28.5, 2)}, "PRO-2": {"at": (1, 1)}}


def _roll(s: GameState, face: int) -> tuple[GameState, list[Any]]:
    assert isinstance(s.node, Chance) and s.node.request.kind == "jump_test"
    return s.apply(f"roll {face}")


def test_jump_test_passed_on_two_or_more() -> None:
    """7.4: a jump needs a D6 test; on a 2+ the operative crosses the gap."""
    s = _battle({"PRO-1": {"at": (14.5, 17, 3)}, **FAR})
    s, _ = s.apply("Normal Move PRO-1 to 17.5,17,3")
    outcomes = [a.values for a, _ in s.chance_outcomes()]
    assert sorted(outcomes) == [(f,) for f in range(1, 7)]  # one D6
    s, events = _roll(s, 2)
    assert any(e.kind == "jump_test" and e["passed"] for e in events)
    o = s.operative("PRO-1")
    assert (o.x, o.y, o.elevation) == (17.5, 17, 3)
    assert o.ap == 1  # the Normal Move's 1AP


def test_jump_test_failed_on_one_operative_stays_and_action_ends() -> None:
    """7.4: on a 1 the operative stays where it is and the action ends: its AP is spent and
    it cannot Normal Move again this activation."""
    s = _battle({"PRO-1": {"at": (14.5, 17, 3)}, **FAR})
    s, _ = s.apply("Normal Move PRO-1 to 17.5,17,3")
    s, events = _roll(s, 1)
    assert any(e.kind == "jump_test" and not e["passed"] for e in events)
    o = s.operative("PRO-1")
    assert (o.x, o.y, o.elevation) == (14.5, 17, 3)
    assert o.ap == 1 and "Normal Move" in o.done
    assert not any(a.verb == "Normal Move" for a in s.legal_actions())


def test_move_without_a_jump_needs_no_test() -> None:
    """7.4: only a jump is tested: a climb onto the tower is made at once."""
    s = _battle({"PRO-1": {"at": (8, 17)}, **FAR})
    s, _ = s.apply("Normal Move PRO-1 to 6.5,17,2.5")
    assert not isinstance(s.node, Chance)
    assert s.operative("PRO-1").elevation == 2.5


def test_dash_action_may_climb() -> None:
    """6.1, 16.15: the Dash action itself may climb: onto the 1" step from 0.4" away (1"
    across counted 1", + the 1" climb counted 2" = 3")."""
    s = _battle({"PRO-1": {"at": (17.05, 11)}, **FAR})
    s, events = s.apply("Dash PRO-1 to 18.05,11,1")
    moved = next(e for e in events if e.kind == "moved")
    assert moved["cost"] == pytest.approx(3.0)
