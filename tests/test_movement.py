"""Movement: shortest legal paths and their costs (rules/KT24.md 3.2, 3.3, 4.2, 4.6, 9.3;
EDGE_CASES.md 12, 14, 15).

Every case is a small hand-built killzone whose answer is obvious from the drawing; the
comment above each gives the drawing. Bases are 32 mm (radius R = 0.63") unless stated.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point

from engine.geometry import Killzone, Placement
from engine.geometry.movement import (
    MoveError,
    MovePath,
    candidate_destinations,
    check_path,
    max_move,
    move_cost,
    move_graph,
    reachable_with_costs,
    shortest_path,
)

R = 32 / 25.4 / 2


def rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]


Part = tuple[list[list[float]], float, list[str]]


def killzone(
    *features: tuple[str, list[Part]], hatchways: Any = (), objectives: Any = ()
) -> Killzone:
    feats: list[dict[str, Any]] = [
        {
            "name": name,
            "parts": [{"polygon": poly, "height": h, "types": types} for poly, h, types in parts],
        }
        for name, parts in features
    ]
    for name, poly, open_ in hatchways:
        feats.append(
            {
                "name": name,
                "hatchway": True,
                "open": open_,
                "parts": [
                    {
                        "polygon": poly,
                        "height": 5,
                        "types": ["Heavy", "Wall"],
                        "open_types": ["Accessible", "Insignificant", "Exposed"],
                    }
                ],
            }
        )
    return Killzone.from_dict(
        {
            "name": "test",
            "features": feats,
            "drop_zones": {"A": rect(0, 0, 2, 22), "B": rect(28, 0, 30, 22)},
            "objectives": [{"name": n, "position": list(p)} for n, p in objectives],
        }
    )


def segments_clear(path: MovePath, polygons: list[Any], clearance: float) -> bool:
    """Every straight increment stays ``clearance`` from every polygon."""
    for p, q in zip(path.points, path.points[1:], strict=False):
        seg = LineString([p[:2], q[:2]]) if p[:2] != q[:2] else Point(p[:2])
        if any(seg.distance(poly) < clearance for poly in polygons):
            return False
    return True


EMPTY = killzone()
# A 5" Heavy wall from (10, 5) to (11, 15): too high to climb over.
WALL = killzone(("wall", [(rect(10, 5, 11, 15), 5.0, ["Heavy"])]))


# -------------------------------------------------------------------------------------------
# Increments (3.3)
# -------------------------------------------------------------------------------------------


def test_open_ground_move_cost_is_the_distance_rounded_up_to_the_inch() -> None:
    # Open floor: a 2.75" straight move is one increment and costs 3".
    path = shortest_path(EMPTY, Placement(5, 5), (7.75, 5))
    assert path is not None
    assert path.points == ((5.0, 5.0, 0.0), (7.75, 5.0, 0.0))
    assert path.length == pytest.approx(2.75)
    assert path.cost == 3
    assert path.final == Placement(7.75, 5)
    # Exactly 6" costs 6" (a Reposition with Move 6 reaches it); 6.2" is too far.
    assert shortest_path(EMPTY, Placement(5, 5), (11, 5)) is not None
    assert shortest_path(EMPTY, Placement(5, 5), (11.2, 5)) is None


def test_each_increment_of_an_explicit_path_is_rounded_up_separately() -> None:
    # Two increments of 1.5" cost 2" + 2" = 4", though the path is only 3" long.
    assert move_cost(EMPTY, Placement(5, 5), [(6.5, 5), (8, 5)]) == 4
    assert move_cost(EMPTY, Placement(5, 5), [(8, 5)]) == 3


def test_max_move_per_action() -> None:
    # Reposition and Fall Back: Move; Dash: 3" whatever the Move; Charge: Move + 2" (3.2).
    assert max_move("reposition", 6) == 6
    assert max_move("fall_back", 7) == 7
    assert max_move("dash", 7) == 3
    assert max_move("charge", 6) == 8
    with pytest.raises(MoveError, match="unknown move action"):
        max_move("teleport")


def test_going_around_a_wall_follows_the_shortest_route() -> None:
    # From (8, 10) to (13, 10) past the 10" wall WALL: around one end. The shortest route
    # hugs the corners: two tangents to the corner circles (radius R), two arcs and the 1"
    # top of the wall. Turning each corner at its mitre point (R out from both sides) instead
    # is 5.79" + 2.26" + 5.79" = 13.85" long and costs 6" + 3" + 6" = 15".
    mover = Placement(8, 10)
    path = shortest_path(WALL, mover, (13, 10), move=20)
    assert path is not None
    d = math.hypot(2, 5)
    tangent = math.sqrt(d * d - R * R)
    arc = math.pi / 2 + math.atan2(5, 2) - math.acos(R / d)
    exact = 2 * (tangent + R * arc) + 1
    mitre = 2 * math.hypot(2 - R, 5 + R) + 1 + 2 * R
    assert exact - 1e-6 <= path.length <= mitre + 0.01
    # No path costs less: the cheapest is chosen (then the shortest of those).
    assert path.cost == 15
    assert segments_clear(path, [WALL.parts[0].polygon], R - 0.005)
    # The straight line is illegal and says why.
    with pytest.raises(MoveError, match="path crosses Heavy terrain 'wall'"):
        move_cost(WALL, mover, [(13, 10)], move=20)


def test_a_move_is_none_when_the_detour_is_longer_than_the_move() -> None:
    # The detour around WALL is ~13.4": out of reach of a 6" Reposition.
    assert shortest_path(WALL, Placement(8, 10), (13, 10)) is None


def test_avoid_regions_send_the_route_around_the_other_end() -> None:
    # A rule's extra region to keep out of (avoid=, e.g. near a Grav-Inhibitor drone): with a
    # region over the north end of WALL the route goes around the south end (every point at
    # y < 10); a region whose exact test is false everywhere changes nothing; regions over
    # both ends leave no route within 16" (the way around them costs 20").
    mover = Placement(8, 10)
    free = shortest_path(WALL, mover, (13, 10), move=20)
    assert free is not None

    def always(x: float, y: float, z: float) -> bool:
        return True

    def never(x: float, y: float, z: float) -> bool:
        return False

    north = (10.5, 16.0, 2.0, always)
    south = (10.5, 4.0, 2.0, always)
    path = shortest_path(WALL, mover, (13, 10), move=20, avoid=[north])
    assert path is not None
    assert all(p[1] <= 10 for p in path.points)
    path = shortest_path(WALL, mover, (13, 10), move=20, avoid=[south])
    assert path is not None
    assert all(p[1] >= 10 for p in path.points)
    same = shortest_path(WALL, mover, (13, 10), move=20, avoid=[(10.5, 16.0, 2.0, never)])
    assert same is not None and same.cost == free.cost
    assert shortest_path(WALL, mover, (13, 10), move=16) is not None
    assert shortest_path(WALL, mover, (13, 10), move=16, avoid=[north, south]) is None


def test_cannot_pass_through_heavy_terrain() -> None:
    # A 4" Heavy block from (10, 0) to (11, 22) spans the board: nothing gets past it (too
    # high to climb).
    kz = killzone(("block", [(rect(10, 0, 11, 22), 4.0, ["Heavy"])]))
    assert shortest_path(kz, Placement(8, 10), (13, 10), move=20) is None
    with pytest.raises(MoveError, match=r"Heavy terrain 'block' \(4\" high"):
        move_cost(kz, Placement(8, 10), [(13, 10)], move=20)


def test_a_path_never_leaves_the_board() -> None:
    # A 5" wall from the bottom edge up to y = 15: the route to the other side goes over the
    # top end, never below the board edge.
    kz = killzone(("wall", [(rect(10, 0, 11, 15), 5.0, ["Heavy"])]))
    path = shortest_path(kz, Placement(8, 1), (13, 1), move=40)
    assert path is not None
    assert max(p[1] for p in path.points) > 15
    for x, y, _ in path.points:
        assert R - 0.002 <= x <= kz.width - R + 0.002
        assert R - 0.002 <= y <= kz.depth - R + 0.002
    with pytest.raises(MoveError, match="path leaves the board"):
        move_cost(kz, Placement(8, 1), [(8, -0.5), (13, -0.5), (13, 1)], move=40)
    with pytest.raises(MoveError, match="not wholly on the board"):
        shortest_path(kz, Placement(8, 1), (0.3, 5))


# -------------------------------------------------------------------------------------------
# Accessible terrain (4.6, EDGE_CASES 15) and hatchways (9.3)
# -------------------------------------------------------------------------------------------

# A 5" wall across the board at x 10-10.5, with a 1" Accessible doorway at y 10-11: narrower
# than a 32 mm base (1.26"). Without the doorway part, the same gap cannot be passed.
DOOR = killzone(
    (
        "bulkhead",
        [
            (rect(10, 0, 10.5, 10), 5.0, ["Heavy"]),
            (rect(10, 10, 10.5, 11), 5.0, ["Accessible"]),
            (rect(10, 11, 10.5, 22), 5.0, ["Heavy"]),
        ],
    )
)
GAP = killzone(
    (
        "bulkhead",
        [(rect(10, 0, 10.5, 10), 5.0, ["Heavy"]), (rect(10, 11, 10.5, 22), 5.0, ["Heavy"])],
    )
)


def test_accessible_doorway_crossing_costs_one_more_inch() -> None:
    # Straight through the doorway: 4.5" rounds to 5", +1" for the Accessible part.
    path = shortest_path(DOOR, Placement(8, 10.5), (12.5, 10.5))
    assert path is not None
    assert len(path.points) == 2
    assert path.increments[0].crossings == 1
    assert path.cost == 6
    assert move_cost(DOOR, Placement(8, 10.5), [(12.5, 10.5)]) == 6


def test_accessible_doorway_lets_only_the_base_centre_pass() -> None:
    # The base is wider than the doorway: only its centre has to pass (4.6). The same 1" gap
    # without an Accessible part is impassable.
    assert shortest_path(DOOR, Placement(8, 10.5), (12.5, 10.5)) is not None
    assert shortest_path(GAP, Placement(8, 10.5), (12.5, 10.5), move=30) is None
    with pytest.raises(MoveError, match="Heavy terrain 'bulkhead'"):
        move_cost(GAP, Placement(8, 10.5), [(12.5, 10.5)])


def test_accessible_crossing_is_counted_once_per_entry() -> None:
    # Bending inside the doorway still enters it once.
    cost = move_cost(DOOR, Placement(8, 10.5), [(10.25, 10.5), (12.5, 10.5)], move=8)
    assert cost == 3 + 3 + 1


def test_terrain_extras_false_drops_the_accessible_inch_for_one_query() -> None:
    # A rule may drop the Accessible extra for one move: through the doorway, 4.5" rounds to
    # 5" and the +1" goes, so the path costs 5" (6" with the extra, above); within a 5"
    # distance it is found only without the extra. The listing agrees, and the next query
    # (the option off) counts the extra again (no cached answer leaks between them).
    start, goal = Placement(8, 10.5), (12.5, 10.5)
    path = shortest_path(DOOR, start, goal, terrain_extras=False)
    assert path is not None
    assert path.cost == 5
    assert path.increments[0].crossings == 1  # still recorded: only its cost goes
    assert shortest_path(DOOR, start, goal, max_cost=5, terrain_extras=False) is not None
    assert shortest_path(DOOR, start, goal, max_cost=5) is None
    listed = reachable_with_costs(DOOR, start, [(*goal, 0.0)], max_cost=5, terrain_extras=False)
    assert [cost for _, cost in listed] == [5]
    assert reachable_with_costs(DOOR, start, [(*goal, 0.0)], max_cost=5) == []
    again = shortest_path(DOOR, start, goal)
    assert again is not None and again.cost == 6


# Close quarters: a 0.5" Wall across the board at x 10-10.5 with a 2" hatchway at y 10-12.
HATCH = killzone(
    (
        "wall",
        [
            (rect(10, 0, 10.5, 10), 5.0, ["Wall", "Heavy"]),
            (rect(10, 12, 10.5, 22), 5.0, ["Wall", "Heavy"]),
        ],
    ),
    hatchways=[("hatch", rect(10, 10, 10.5, 12), False)],
)


def test_closed_hatchway_is_a_wall_and_open_one_is_accessible() -> None:
    mover = Placement(8, 11)
    assert shortest_path(HATCH, mover, (12.5, 11), move=30) is None
    with pytest.raises(MoveError, match="Wall terrain 'hatch'"):
        move_cost(HATCH, mover, [(12.5, 11)], move=30)
    opened = HATCH.with_open_hatchways(["hatch"])
    path = shortest_path(opened, mover, (12.5, 11))
    assert path is not None
    assert path.cost == 5 + 1  # 4.5" rounded up, +1" for the Accessible access point


def test_wall_can_never_be_climbed_even_when_low() -> None:
    # A 1" Wall (close quarters) is not climbed over, unlike a 1" barricade.
    kz = killzone(("low wall", [(rect(10, 0, 10.4, 22), 1.0, ["Wall"])]))
    assert shortest_path(kz, Placement(9, 10), (11.4, 10), move=30) is None
    with pytest.raises(MoveError, match="Wall terrain can never be moved through"):
        move_cost(kz, Placement(9, 10), [(11.4, 10)])


def test_ceiling_lets_bases_of_50mm_or_less_move_underneath() -> None:
    # A 3" upper floor (Vantage + Ceiling) across the board at x 10-12.
    kz = killzone(("gantry", [(rect(10, 0, 12, 22), 3.0, ["Vantage", "Ceiling"])]))
    path = shortest_path(kz, Placement(8, 10), (14, 10))
    assert path is not None
    assert [i.kind for i in path.increments] == ["move"] and path.cost == 6
    # A 60 mm base must climb over it instead: 6" + the 3" climb + 1" of the 3" drop.
    big = Placement(8, 10, base_mm=60)
    assert shortest_path(kz, big, (14, 10)) is None
    path = shortest_path(kz, big, (14, 10), move=20)
    assert path is not None
    assert [i.kind for i in path.increments] == ["over"] and path.cost == 10


# -------------------------------------------------------------------------------------------
# Bases (3.3)
# -------------------------------------------------------------------------------------------


def test_cannot_end_overlapping_another_base() -> None:
    friend = Placement(8, 5)
    with pytest.raises(MoveError, match="overlaps the friendly operative"):
        shortest_path(EMPTY, Placement(5, 5), (7, 5), friends=[friend])
    # Touching is allowed: centres 2R apart.
    assert shortest_path(EMPTY, Placement(5, 5), (8 - 2 * R, 5), friends=[friend]) is not None


def test_friendly_bases_are_passable_enemy_bases_are_not() -> None:
    # A friendly operative in the middle of the line: moved through (straight path).
    mover = Placement(5, 10)
    path = shortest_path(EMPTY, mover, (10, 10), friends=[Placement(7.5, 10)])
    assert path is not None and len(path.points) == 2
    # An enemy there (Fall Back lets it move within control range, not through the base).
    near = Placement(5, 11.8)  # within the mover's control range: Fall Back is allowed
    enemy = Placement(7.5, 10)
    path = shortest_path(EMPTY, mover, (11, 10), action="fall_back", enemies=[near, enemy], move=10)
    assert path is not None and len(path.points) > 2
    for e in (near, enemy):
        assert segments_clear(path, [Point(e.x, e.y)], 2 * R - 0.005)
    with pytest.raises(MoveError, match="passes through the enemy operative"):
        move_cost(EMPTY, mover, [(11, 10)], action="fall_back", enemies=[near, enemy], move=10)


# -------------------------------------------------------------------------------------------
# Control range (3.2, 4.2)
# -------------------------------------------------------------------------------------------


def test_reposition_and_dash_cannot_move_within_enemy_control_range() -> None:
    # The enemy at (8, 11.5) is 1.5" from the straight line y = 10: its control range (base
    # gap 1") reaches the line, so the path goes around it.
    enemy = Placement(8, 11.5)
    mover = Placement(5, 10)
    with pytest.raises(MoveError, match="moves within control range"):
        move_cost(EMPTY, mover, [(11, 10)], enemies=[enemy], move=8)
    path = shortest_path(EMPTY, mover, (11, 10), enemies=[enemy], move=8)
    assert path is not None and len(path.points) > 2
    assert segments_clear(path, [Point(enemy.x, enemy.y)], 2 * R + 1 - 0.005)
    # Nor can a Dash finish within it.
    with pytest.raises(MoveError, match="path ends within control range of an enemy"):
        shortest_path(EMPTY, mover, (6.5, 10.3), action="dash", enemies=[enemy])


def test_reposition_within_enemy_control_range_cannot_be_performed() -> None:
    with pytest.raises(MoveError, match="cannot be performed while within control range"):
        shortest_path(EMPTY, Placement(5, 10), (2, 10), enemies=[Placement(6.5, 10)])
    with pytest.raises(MoveError, match="Dash cannot be performed"):
        shortest_path(EMPTY, Placement(5, 10), (2, 10), action="dash", enemies=[Placement(6.5, 10)])


def test_charge_leave_control_range_starts_within_an_enemy_control_range() -> None:
    # A rule (leave_control_range) lets a Charge start within the control range of the
    # enemy at (5, 11.5) and leave it to finish within that of the enemy at (11, 10).
    near, far = Placement(5, 11.5), Placement(11, 10)
    mover = Placement(5, 10)
    kw: dict[str, Any] = {"action": "charge", "enemies": [near, far]}
    with pytest.raises(MoveError, match="Charge cannot be performed while within control"):
        shortest_path(EMPTY, mover, (5, 13), **kw)
    # Straight away from the near enemy to finish 0.5" from the far one's base.
    dest = (11 - 2 * R - 0.5, 10)
    path = shortest_path(EMPTY, mover, dest, leave_control_range=True, **kw)
    assert path is not None and path.final.x == pytest.approx(dest[0], abs=0.001)
    assert path.cost == 5  # 4.24" rounded up (3.3)
    # An explicit path leaving the near enemy's control range is legal too.
    assert check_path(EMPTY, mover, [dest], leave_control_range=True, **kw).cost == 5
    # It must still finish within an enemy's control range.
    with pytest.raises(MoveError, match="Charge must finish within control range"):
        shortest_path(EMPTY, mover, (2, 10), leave_control_range=True, **kw)
    # The flag changes nothing for a Reposition.
    with pytest.raises(MoveError, match="Reposition cannot be performed"):
        shortest_path(EMPTY, mover, (2, 10), enemies=[near], leave_control_range=True)


def test_charge_leave_control_range_cannot_enter_it_again_and_leave_it_again() -> None:
    # A Charge a rule lets leave the control range of the enemy at (10, 10) it starts
    # within (centres 1.8" apart, control range up to 2.26"): out to (12.5, 7.5) (3.5"
    # away), then back in at (12, 10) (2" away) and out again to finish near the enemy at
    # (16, 10): refused, the Charge's normal requirement (3.2) holds again once it has left.
    # Going straight on from (12.5, 7.5) to the finish is legal; coming back to finish
    # within the first enemy's control range is too (it does not leave it again).
    near, far = Placement(10, 10), Placement(16, 10)
    mover = Placement(10, 8.2)
    kw: dict[str, Any] = {
        "action": "charge",
        "enemies": [near, far],
        "move": 10,
        "leave_control_range": True,
    }
    with pytest.raises(MoveError, match="enters it again and leaves it"):
        check_path(EMPTY, mover, [(12.5, 7.5), (12, 10), (14.2, 10)], **kw)
    assert check_path(EMPTY, mover, [(12.5, 7.5), (14.2, 10)], **kw).cost == 7  # 3" + 4"
    assert check_path(EMPTY, mover, [(12.5, 7.5), (12, 10)], **kw).cost == 6  # 3" + 3"


def test_reposition_may_pass_through_control_range_of_an_engaged_enemy_but_not_finish() -> None:
    # A friendly operative is already within the enemy's control range: the mover may pass
    # through that range in a straight line, but not stop in it.
    enemy = Placement(8, 11.5)
    friend = Placement(8, 13.3)
    mover = Placement(5, 10)
    path = shortest_path(EMPTY, mover, (11, 10), enemies=[enemy], friends=[friend])
    assert path is not None and len(path.points) == 2
    assert move_cost(EMPTY, mover, [(11, 10)], enemies=[enemy], friends=[friend]) == 6
    with pytest.raises(MoveError, match="path ends within control range of an enemy"):
        shortest_path(EMPTY, mover, (8, 10), enemies=[enemy], friends=[friend])


def test_fall_back_may_pass_through_control_range_but_not_finish_there() -> None:
    enemy = Placement(5, 11.8)  # within the mover's control range
    other = Placement(8, 11.5)  # its control range crosses the line y = 10
    mover = Placement(5, 10)
    path = shortest_path(EMPTY, mover, (11, 10), action="fall_back", enemies=[enemy, other])
    assert path is not None
    assert len(path.points) == 2 and path.cost == 6
    with pytest.raises(MoveError, match="Fall Back cannot finish there"):
        shortest_path(EMPTY, mover, (8, 10), action="fall_back", enemies=[enemy, other])
    with pytest.raises(MoveError, match="Fall Back can only be performed"):
        shortest_path(EMPTY, mover, (2, 10), action="fall_back", enemies=[other])


def test_charge_must_finish_within_enemy_control_range() -> None:
    enemy = Placement(12, 10)
    mover = Placement(5, 10)
    # Move 6 + 2: base-to-base gap 0.5" at (10.24, 10) is 5.24" away.
    path = shortest_path(EMPTY, mover, (12 - 2 * R - 0.5, 10), action="charge", enemies=[enemy])
    assert path is not None and path.cost == 6
    with pytest.raises(MoveError, match="Charge must finish within control range"):
        shortest_path(EMPTY, mover, (8, 10), action="charge", enemies=[enemy])
    # Charge reaches further than Reposition: Move + 2".
    far = Placement(14.5, 10)
    assert shortest_path(EMPTY, mover, (14.5 - 2 * R - 0.5, 10), action="charge", enemies=[far])


def test_charge_cannot_leave_the_control_range_it_entered() -> None:
    # Charging to the far side of the enemy: the path enters its control range and then goes
    # around its base inside that range, never leaving it.
    enemy = Placement(9, 10)
    mover = Placement(5, 10)
    goal = (9 + 2 * R + 0.5, 10)
    path = shortest_path(EMPTY, mover, goal, action="charge", enemies=[enemy], move=8)
    assert path is not None
    entered = False
    for x, y, _ in path.points:
        inside = math.hypot(x - enemy.x, y - enemy.y) < 2 * R + 1 + 1e-3
        assert inside or not entered
        entered = entered or inside
    # An explicit path that dips in and out of the range is refused.
    with pytest.raises(MoveError, match="leaves the control range"):
        move_cost(
            EMPTY,
            mover,
            [(7.5, 11), (7.5, 13), (goal[0], 13), goal],
            action="charge",
            enemies=[enemy],
            move=20,
        )


# -------------------------------------------------------------------------------------------
# Dash (3.2)
# -------------------------------------------------------------------------------------------


def test_dash_is_limited_to_three_inches() -> None:
    mover = Placement(5, 5)
    path = shortest_path(EMPTY, mover, (8, 5), action="dash", move=7)
    assert path is not None and path.cost == 3
    assert shortest_path(EMPTY, mover, (8.5, 5), action="dash", move=7) is None
    with pytest.raises(MoveError, match="Dash allows at most 3"):
        move_cost(EMPTY, mover, [(8.5, 5)], action="dash", move=7)


# A 1" high Vantage platform from (10, 5) to (14, 15).
LOW_PLATFORM = killzone(("crate", [(rect(10, 5, 14, 15), 1.0, ["Vantage"])]))


def test_dash_cannot_climb() -> None:
    mover = Placement(9, 10)
    assert shortest_path(LOW_PLATFORM, mover, (10.5, 10), action="dash") is None
    with pytest.raises(MoveError, match="Dash cannot climb"):
        move_cost(LOW_PLATFORM, mover, [(10.5, 10, 1)], action="dash")
    # A Reposition can.
    assert shortest_path(LOW_PLATFORM, mover, (10.5, 10)) is not None


# -------------------------------------------------------------------------------------------
# Climbing and dropping (3.3, EDGE_CASES 14)
# -------------------------------------------------------------------------------------------


def test_a_climb_of_one_inch_costs_two() -> None:
    # From (9, 10), base 0.37" from the 1" platform, onto it at (10, 10): 1" horizontal + the
    # 1" climb counted as 2" = 3".
    mover = Placement(9, 10)
    path = shortest_path(LOW_PLATFORM, mover, (10, 10))
    assert path is not None
    assert path.final.elevation == 1.0
    assert [i.kind for i in path.increments] == ["climb"]
    assert path.cost == 3
    assert move_cost(LOW_PLATFORM, mover, [(10, 10, 1)]) == 3
    # A 3" platform: the climb counts 3" (4" in all).
    high = killzone(("crate", [(rect(10, 5, 14, 15), 3.0, ["Vantage"])]))
    assert move_cost(high, mover, [(10, 10, 3)]) == 4


def test_climb_starts_within_one_inch_and_rises_at_most_three() -> None:
    # From 2" away (base 1.37" from the platform) the climb cannot start.
    with pytest.raises(MoveError, match='within 1" horizontally'):
        move_cost(LOW_PLATFORM, Placement(8, 10), [(10.5, 10, 1)])
    tall = killzone(("tower", [(rect(10, 5, 14, 15), 3.5, ["Vantage"])]))
    with pytest.raises(MoveError, match='exceeds the 3"'):
        move_cost(tall, Placement(9, 10), [(10.5, 10, 3.5)])


def test_a_move_cannot_start_overlapping_terrain() -> None:
    with pytest.raises(MoveError, match="moving operative's base overlaps Heavy terrain 'wall'"):
        shortest_path(WALL, Placement(9.8, 10), (5, 10))


def test_the_first_two_inches_of_drop_per_action_are_free() -> None:
    # Off a 2" platform: the drop is free; 2" horizontal -> 2".
    two = killzone(("crate", [(rect(10, 5, 14, 15), 2.0, ["Vantage"])]))
    top = Placement(11, 10, elevation=2)
    assert move_cost(two, top, [(9, 10, 0)]) == 2
    path = shortest_path(two, top, (9, 10))
    assert path is not None and path.cost == 2 and path.increments[-1].kind == "drop"
    # Off a 3" platform: 1" of the drop counts.
    three = killzone(("crate", [(rect(10, 5, 14, 15), 3.0, ["Vantage"])]))
    assert move_cost(three, Placement(11, 10, elevation=3), [(9, 10, 0)]) == 3


def test_the_free_drop_is_per_action_not_per_drop() -> None:
    # Steps: a 3" platform (x 10-14) next to a 1.5" one (x 14-18). Dropping 1.5" then 1.5":
    # the first drop is free, the second only for its first 0.5".
    steps = killzone(
        ("upper", [(rect(10, 5, 14, 15), 3.0, ["Vantage"])]),
        ("lower", [(rect(14, 5, 18, 15), 1.5, ["Vantage"])]),
    )
    start = Placement(13, 10, elevation=3)
    path = check_path(steps, start, [(15, 10, 1.5), (19, 10, 0)], move=10)
    assert [i.kind for i in path.increments] == ["drop", "drop"]
    assert [i.cost for i in path.increments] == [2, 5]  # 2"; 4" + 1" counted drop
    assert path.cost == 7


def test_climbing_over_a_low_barricade_costs_the_climb() -> None:
    # A 1" Light barricade, 0.4" thick, across the board: over it in one increment, the base
    # 0.5" away on each side: 2.66" horizontal + 2" (the 1" climb) = 4.66" -> 5"; the 1" drop
    # is free.
    kz = killzone(("barricade", [(rect(10, 0, 10.4, 22), 1.0, ["Light"])]))
    mover = Placement(10 - R - 0.5, 10)
    goal = (10.4 + R + 0.5, 10)
    path = shortest_path(kz, mover, goal)
    assert path is not None
    assert [i.kind for i in path.increments] == ["over"]
    assert path.cost == math.ceil(goal[0] - mover.x + 2)
    assert shortest_path(kz, mover, goal, action="dash") is None


def test_jump_between_vantage_levels_within_four_inches() -> None:
    # Two 3" platforms 3" apart: jump across (no vertical cost).
    kz = killzone(
        ("west", [(rect(5, 5, 9, 15), 3.0, ["Vantage"])]),
        ("east", [(rect(12, 5, 16, 15), 3.0, ["Vantage"])]),
    )
    path = check_path(kz, Placement(8.5, 10, elevation=3), [(12.5, 10, 3)])
    assert path.increments[0].kind == "jump"
    assert path.cost == 4
    far = killzone(
        ("west", [(rect(5, 5, 9, 15), 3.0, ["Vantage"])]),
        ("east", [(rect(13.5, 5, 17, 15), 3.0, ["Vantage"])]),
    )
    with pytest.raises(MoveError, match="jump covers at most 4"):
        check_path(far, Placement(8.5, 10, elevation=3), [(14, 10, 3)], move=10)


# -------------------------------------------------------------------------------------------
# Graph and candidates
# -------------------------------------------------------------------------------------------


def test_move_graph_is_cached_per_killzone_and_base() -> None:
    assert move_graph(WALL, 32) is move_graph(WALL, 32)
    assert move_graph(WALL, 40) is not move_graph(WALL, 32)
    assert move_graph(WALL, 32).graph.number_of_nodes() > 0


def test_candidate_destinations_are_legal_sorted_and_unique() -> None:
    kz = killzone(
        ("wall", [(rect(10, 5, 11, 15), 5.0, ["Heavy"])]),
        ("rubble", [(rect(4, 14, 6, 15), 1.0, ["Light"])]),
        objectives=[("centre", (7, 7))],
    )
    mover = Placement(6, 10)
    out = candidate_destinations(kz, mover)
    assert out == sorted(out, key=lambda p: (p.x, p.y, p.elevation))
    assert len({(p.x, p.y, p.elevation) for p in out}) == len(out)
    assert len(out) >= 16
    for p in out:
        assert shortest_path(kz, mover, p) is not None
    # Deterministic.
    assert candidate_destinations(kz, mover) == out
    # The objective marker itself is a candidate (an operative may stand over it).
    assert Placement(7, 7) in out
    # Charge candidates all end within control range of the enemy.
    enemy = Placement(9, 4)
    charges = candidate_destinations(kz, mover, action="charge", enemies=[enemy])
    assert charges
    for p in charges:
        assert math.hypot(p.x - enemy.x, p.y - enemy.y) <= 2 * R + 1 + 1e-6
    # An action that cannot be performed has no candidates.
    assert candidate_destinations(kz, mover, action="fall_back", enemies=[enemy]) == []


# -------------------------------------------------------------------------------------------
# Property: paths never cross impassable terrain or an enemy base
# -------------------------------------------------------------------------------------------

# Tall (5") Heavy blocks, none climbable, and two enemies.
BLOCKS = killzone(
    ("a", [(rect(6, 4, 9, 7), 5.0, ["Heavy"])]),
    ("b", [(rect(12, 9, 13, 17), 5.0, ["Heavy"])]),
    ("c", [([[17, 3], [21, 4], [19, 7], [17, 3]], 5.0, ["Heavy"])]),
    ("d", [(rect(22, 12, 26, 13), 5.0, ["Heavy"])]),
    ("e", [(rect(4, 15, 5, 20), 5.0, ["Heavy"])]),
)
ENEMIES = [Placement(15, 6), Placement(9, 14)]
coord = st.tuples(st.floats(1, 29), st.floats(1, 21))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(start=coord, goal=coord)
def test_property_shortest_paths_avoid_terrain_and_enemy_bases(
    start: tuple[float, float], goal: tuple[float, float]
) -> None:
    graph = move_graph(BLOCKS, 32)
    floor = graph.levels[0]
    assume(floor.strict.contains(Point(start)) and floor.strict.contains(Point(goal)))
    mover = Placement(*start)
    try:
        path = shortest_path(BLOCKS, mover, goal, enemies=ENEMIES, move=20)
    except MoveError:
        assume(False)
        return
    if path is None:
        return
    parts = [p.polygon for p in BLOCKS.parts]
    assert segments_clear(path, parts, R - 0.005)
    # Reposition: not even within the enemies' control range.
    assert segments_clear(path, [Point(e.x, e.y) for e in ENEMIES], 2 * R + 1 - 0.005)
    board = shapely.box(R - 0.005, R - 0.005, 30 - R + 0.005, 22 - R + 0.005)
    assert all(board.covers(Point(p[:2])) for p in path.points)
    # The same path passes the explicit checker at the same cost.
    again = check_path(BLOCKS, mover, [p for p in path.points[1:]], enemies=ENEMIES, move=20)
    assert again.cost == path.cost
