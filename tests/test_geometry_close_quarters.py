"""Close quarters rules (rules/KT24.md 9.3): distances measured around walls.

Every case is a small hand-built killzone whose answer follows from the drawing in the
comment above it. Bases are 32 mm (radius R = 0.63") unless stated; walls are 0.5" thick.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.geometry import Killzone, Placement, load_killzone
from engine.geometry.model import MM_PER_INCH, OBJECTIVE_DIAMETER_MM
from engine.geometry.sight import (
    all_pairs,
    distance,
    distance_around_walls,
    in_cover,
    objective_in_control_range,
    obscured,
    targeting,
    visible,
    wall_corners,
    within_control_range,
)

R = 32 / MM_PER_INCH / 2
WALL_TYPES = ["Wall", "Heavy"]


def rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]


def killzone(*walls: list[list[float]], hatch: Any = None, objectives: Any = ()) -> Killzone:
    """Walls (Wall + Heavy, 5" tall), and optionally one closed hatchway part."""
    features: list[dict[str, Any]] = [
        {"name": f"wall {k}", "parts": [{"polygon": poly, "height": 5, "types": WALL_TYPES}]}
        for k, poly in enumerate(walls)
    ]
    if hatch is not None:
        features.append(
            {
                "name": "hatch",
                "hatchway": True,
                "parts": [
                    {
                        "polygon": hatch,
                        "height": 5,
                        "types": WALL_TYPES,
                        "open_types": ["Accessible", "Insignificant", "Exposed"],
                    }
                ],
            }
        )
    return Killzone.from_dict(
        {
            "name": "cq-test",
            "features": features,
            "drop_zones": {"A": rect(0, 0, 2, 22), "B": rect(28, 0, 30, 22)},
            "objectives": [{"name": n, "position": list(p)} for n, p in objectives],
        }
    )


# A straight wall from (10, 5) to (10.5, 15), in the middle of the board.
STRAIGHT = killzone(rect(10, 5, 10.5, 15))
OPEN_RUINS = load_killzone("open_ruins")
CQ = load_killzone("close_quarters")


# -------------------------------------------------------------------------------------------
# Which killzones use the close quarters rules


def test_close_quarters_is_a_killzone_with_wall_terrain() -> None:
    assert CQ.close_quarters
    assert STRAIGHT.close_quarters
    assert not OPEN_RUINS.close_quarters


def test_a_hatchway_alone_makes_a_close_quarters_killzone_open_or_closed() -> None:
    kz = killzone(hatch=rect(10, 10, 10.5, 12))
    assert kz.close_quarters
    assert kz.with_open_hatchways(["hatch"]).close_quarters


# -------------------------------------------------------------------------------------------
# Distances around walls


def test_distance_either_side_of_a_wall_is_the_route_around_its_end() -> None:
    # a (8, 10) | wall x 10-10.5, y 5-15 | b (12.5, 10). Straight: 4.5 - 2R. Around the end:
    # (8, 10) -> corner (10, 15) -> corner (10.5, 15) -> (12.5, 10): 2 x sqrt(2² + 5²) + 0.5
    # (the same round the other end).
    a, b = Placement(8, 10), Placement(12.5, 10)
    assert distance(a, b) == pytest.approx(4.5 - 2 * R)
    want = 2 * math.sqrt(29) + 0.5 - 2 * R
    assert distance_around_walls(STRAIGHT, a, b) == pytest.approx(want, abs=1e-9)
    assert distance_around_walls(STRAIGHT, b, a) == pytest.approx(want, abs=1e-9)


def test_distance_past_the_end_of_a_wall_bends_at_one_corner() -> None:
    # a (8, 13) and b (12, 16): the straight line passes (10, 14.5), inside the wall. From a
    # the far corner (10.5, 15) is hidden too (the line passes (10, 14.6)), so the route bends
    # at the near corner (10, 15): sqrt(2² + 2²) + sqrt(2² + 1²) (it clears (10.5, 15.25)).
    a, b = Placement(8, 13), Placement(12, 16)
    want = math.hypot(2, 2) + math.hypot(2, 1) - 2 * R
    assert want > distance(a, b)
    assert distance_around_walls(STRAIGHT, a, b) == pytest.approx(want, abs=1e-9)


def test_distance_with_no_wall_in_the_way_is_the_plain_distance() -> None:
    for a, b in [
        (Placement(8, 10), Placement(8, 16)),  # same side of the wall
        (Placement(8, 17), Placement(13, 17)),  # past its end
        (Placement(3, 3), Placement(25, 4, base_mm=50)),  # below its end
    ]:
        assert distance_around_walls(STRAIGHT, a, b) == distance(a, b)


def test_distance_around_walls_is_plain_distance_without_walls() -> None:
    rng = np.random.default_rng(4)
    for _ in range(200):
        x0, y0, x1, y1 = rng.uniform([1, 1, 1, 1], [29, 21, 29, 21])
        a, b = Placement(x0, y0), Placement(x1, y1, base_mm=40)
        assert distance_around_walls(OPEN_RUINS, a, b) == distance(a, b)


def test_a_wall_against_the_board_edge_cannot_be_passed_along_the_edge() -> None:
    # Wall x 10-10.5 from the board edge y 0 up to y 15: the only route is round its top end.
    kz = killzone(rect(10, 0, 10.5, 15))
    a, b = Placement(8, 2), Placement(12.5, 2)
    want = 2 * math.hypot(2, 13) + 0.5 - 2 * R
    assert distance_around_walls(kz, a, b) == pytest.approx(want, abs=1e-9)


def test_two_walls_meeting_leave_no_gap_between_them() -> None:
    # Two walls side by side (x 10-10.5, y 5-10 and y 10-15) measure like one wall.
    kz = killzone(rect(10, 5, 10.5, 10), rect(10, 10, 10.5, 15))
    a, b = Placement(8, 10), Placement(12.5, 10)
    assert distance_around_walls(kz, a, b) == pytest.approx(
        distance_around_walls(STRAIGHT, a, b), abs=1e-9
    )


def test_closed_hatchway_is_a_wall_open_one_is_not() -> None:
    # Wall across the board at x 10-10.5 with a hatchway at y 10-12: closed, nothing crosses
    # from one side to the other; open, the straight line through it is the distance.
    kz = killzone(rect(10, 0, 10.5, 10), rect(10, 12, 10.5, 22), hatch=rect(10, 10, 10.5, 12))
    a, b = Placement(8, 11), Placement(12.5, 11)
    assert distance_around_walls(kz, a, b) == math.inf
    opened = kz.with_open_hatchways(["hatch"])
    assert distance_around_walls(opened, a, b) == distance(a, b)


def test_different_elevations_combine_the_route_with_the_height() -> None:
    a, b = Placement(8, 10), Placement(12.5, 10, elevation=3)
    route = 2 * math.sqrt(29) + 0.5 - 2 * R
    assert distance_around_walls(STRAIGHT, a, b) == pytest.approx(math.hypot(route, 3))


def test_close_quarters_layout_rooms_sealed_and_opened() -> None:
    # The north store room (x 11-19, y 18.5-22) is closed by the north bulkhead and hatch.
    inside, outside = Placement(15, 20), Placement(15, 16)
    assert distance_around_walls(CQ, inside, outside) == math.inf
    opened = CQ.with_open_hatchways(["north hatch"])
    assert distance_around_walls(opened, inside, outside) == distance(inside, outside)


# -------------------------------------------------------------------------------------------
# Control range uses it


# a (9, 14.8) and b (11.25, 14.75) either side of the wall's top end: the bases are 0.99"
# apart in a straight line over the corner and b is visible to a, but around the end the
# route is sqrt(1² + 0.2²) + 0.5 + sqrt(0.75² + 0.25²) - 2R = 1.05".
CORNER_A, CORNER_B = Placement(9, 14.8), Placement(11.25, 14.75)


def test_control_range_is_measured_around_walls() -> None:
    assert distance(CORNER_A, CORNER_B) <= 1
    assert visible(STRAIGHT, CORNER_A, CORNER_B)
    want = math.hypot(1, 0.2) + 0.5 + math.hypot(0.75, 0.25) - 2 * R
    assert distance_around_walls(STRAIGHT, CORNER_A, CORNER_B) == pytest.approx(want)
    assert want > 1
    assert not within_control_range(STRAIGHT, CORNER_A, CORNER_B)
    near = Placement(11.1, 15.1)  # past the corner: in range
    assert within_control_range(STRAIGHT, CORNER_A, near)


def test_objective_marker_control_range_is_measured_around_walls() -> None:
    # A marker (40 mm) at (11.3, 14.25) just round the wall's top end from an operative at
    # (9.1, 15.1), who sees it over the corner. Straight: sqrt(2.2² + 0.85²) - R - r = 0.94";
    # around the corner (10.5, 15): sqrt(1.4² + 0.1²) + sqrt(0.8² + 0.75²) - R - r = 1.08".
    where = (11.3, 14.25)
    kz = killzone(rect(10, 5, 10.5, 15), objectives=[("m", where)])
    no_wall = killzone(rect(25, 1, 25.5, 2), objectives=[("m", where)])
    marker = kz.objective("m")
    op = Placement(9.1, 15.1)
    r_marker = OBJECTIVE_DIAMETER_MM / MM_PER_INCH / 2
    straight = math.hypot(2.2, 0.85) - R - r_marker
    around = math.hypot(1.4, 0.1) + math.hypot(0.8, 0.75) - R - r_marker
    assert straight <= 1 < around
    as_base = Placement(*where, base_mm=OBJECTIVE_DIAMETER_MM)
    assert distance_around_walls(kz, op, as_base) == pytest.approx(around)
    assert objective_in_control_range(no_wall, op, marker)
    assert not objective_in_control_range(kz, op, marker)
    # Closer, round the corner: in control range.
    assert objective_in_control_range(kz, Placement(10.3, 15.7), marker)


def test_all_pairs_distances_are_measured_around_walls() -> None:
    ops = [Placement(8, 10), Placement(12.5, 10), CORNER_A, CORNER_B, Placement(20, 3)]
    ap = all_pairs(STRAIGHT, ops)
    for i, a in enumerate(ops):
        for j, b in enumerate(ops):
            if i != j:
                assert ap.distance[i, j] == distance_around_walls(STRAIGHT, a, b)
                assert ap.control_range[i, j] == within_control_range(STRAIGHT, a, b)


cq_coords = st.tuples(st.floats(1, 29), st.floats(1, 21))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(cq_coords, min_size=2, max_size=6), st.sampled_from([(), ("west hatch",)]))
def test_all_pairs_matches_single_pair_queries_on_close_quarters(
    points: list[tuple[float, float]], opened: tuple[str, ...]
) -> None:
    kz = CQ.with_open_hatchways(opened)
    ops = [Placement(x, y) for x, y in points]
    assume(
        all(
            math.hypot(a.x - b.x, a.y - b.y) >= 2 * a.radius
            for i, a in enumerate(ops)
            for b in ops[i + 1 :]
        )
    )
    # Operatives stand where they can be placed: not on a Wall.
    assume(all(not kz.parts_near(p.footprint()).size for p in ops))
    ap = all_pairs(kz, ops)
    for i, a in enumerate(ops):
        for j, b in enumerate(ops):
            if i == j:
                continue
            assert ap.distance[i, j] == distance_around_walls(kz, a, b)
            assert ap.visible[i, j] == visible(kz, a, b)
            assert ap.control_range[i, j] == within_control_range(kz, a, b)
            if ap.visible[i, j]:
                t = targeting(kz, a, b)
                assert ap.in_cover[i, j] == t.in_cover == in_cover(kz, b, a)
                assert ap.obscured[i, j] == t.obscured == obscured(kz, b, a)


# -------------------------------------------------------------------------------------------
# Cover and obscured: only the corners and ends of walls intervene


def test_wall_corners_are_the_convex_corners_of_the_walls() -> None:
    assert wall_corners(STRAIGHT) == [(10, 5), (10, 15), (10.5, 5), (10.5, 15)]
    assert wall_corners(OPEN_RUINS) == []


def test_wall_corners_leave_out_the_killzone_edge_and_where_walls_meet() -> None:
    # A wall from the board edge (y 0) to y 15: its only end is the top one.
    assert wall_corners(killzone(rect(10, 0, 10.5, 15))) == [(10, 15), (10.5, 15)]
    # A T: a wall x 4-16 at y 14.5-15 on top of STRAIGHT's wall. The joints (10, 14.5) and
    # (10.5, 14.5) are re-entrant: not corners.
    tee = killzone(rect(10, 5, 10.5, 14.5), rect(4, 14.5, 16, 15))
    assert wall_corners(tee) == [(4, 14.5), (4, 15), (10, 5), (10.5, 5), (16, 14.5), (16, 15)]


def test_minor_protrusions_have_no_corners() -> None:
    # A 0.25" deep pilaster on the face of a long wall: its corners are a minor protrusion's;
    # a 1" deep buttress has corners.
    wall = rect(5, 11, 25, 11.5)
    pilaster = killzone(wall, rect(14, 10.75, 14.5, 11))
    assert wall_corners(pilaster) == wall_corners(killzone(wall))
    buttress = killzone(wall, rect(14, 10, 14.5, 11))
    assert set(wall_corners(buttress)) - set(wall_corners(killzone(wall))) == {
        (14, 10),
        (14.5, 10),
    }


def test_hatchways_open_leave_wall_ends_either_side() -> None:
    # Wall across the board at x 10-10.5 with a hatchway at y 10-12 (9.3: when open, "use the
    # walls either side for cover").
    kz = killzone(rect(10, 0, 10.5, 10), rect(10, 12, 10.5, 22), hatch=rect(10, 10, 10.5, 12))
    assert wall_corners(kz) == []  # closed: one wall from edge to edge
    opened = kz.with_open_hatchways(["hatch"])
    assert wall_corners(opened) == [(10, 10), (10, 12), (10.5, 10), (10.5, 12)]
    # A target just past the opening, beside the end of the wall at (10.5, 12), seen through
    # the opening: in cover from that wall end.
    shooter, target = Placement(5, 9), Placement(11.2, 12.6)
    assert not visible(kz, shooter, target)
    assert visible(opened, shooter, target)
    t = targeting(opened, shooter, target)
    assert t.in_cover and not t.obscured
    assert t.cover_features == {opened.features.index("wall 1")}


def test_target_behind_the_end_of_a_wall_is_in_cover() -> None:
    # Shooter (4, 13), target (11.2, 15.4) just round the top end of the wall x 10-10.5,
    # y 5-15: the line between their centres passes the corner (10, 15); the target's base is
    # 0.18" from the corner (10.5, 15), so the wall's end is within 1" of it.
    shooter, target = Placement(4, 13), Placement(11.2, 15.4)
    assert visible(STRAIGHT, shooter, target)
    t = targeting(STRAIGHT, shooter, target)
    assert t.intervening == {0} and t.in_cover and not t.obscured
    assert in_cover(STRAIGHT, target, shooter)


def test_target_seen_past_a_wall_end_far_from_both_is_obscured() -> None:
    # Shooter (4, 13), target (16, 17): the lines pass the wall's top end (10-10.5, 15), more
    # than 1" from both (the wall is Heavy as well as Wall).
    shooter, target = Placement(4, 13), Placement(16, 17)
    assert visible(STRAIGHT, shooter, target)
    t = targeting(STRAIGHT, shooter, target)
    assert t.obscured and not t.in_cover and t.obscuring_features == {0}


def test_target_beside_the_middle_of_a_long_wall_is_not_in_cover() -> None:
    # A long wall x 5-25, y 11-11.5; the target (15, 10.37) stands against its middle; the
    # shooter is on the same side, below it: the wall is within 1" of the target but does not
    # lie between them.
    wall = killzone(rect(5, 11, 25, 11.5))
    target = Placement(15, 11 - R)
    for shooter in (Placement(8, 6), Placement(3, 10.3), Placement(24, 9)):
        t = targeting(wall, shooter, target)
        assert visible(wall, shooter, target)
        assert not t.in_cover and not t.intervening


def test_a_minor_protrusion_on_the_middle_of_a_wall_gives_no_cover() -> None:
    # The long wall with a 0.45" deep ledge along x 12-18 (a minor protrusion). The target
    # (19, 10.37) stands against the wall just past the ledge; from (6, 10) every targeting
    # line to the upper half of its base crosses the ledge, 7" from the nearest wall corner:
    # not intervening, so no cover (a Heavy part there would give cover).
    ledge = killzone(rect(5, 11, 25, 11.5), rect(12, 10.55, 18, 11))
    shooter, target = Placement(6, 10), Placement(19, 11 - R)
    assert visible(ledge, shooter, target)
    t = targeting(ledge, shooter, target)
    assert not t.intervening and not t.in_cover and not t.obscured
    heavy = Killzone.from_dict(
        {
            "name": "heavy ledge",
            "features": [
                {
                    "name": "wall",
                    "parts": [{"polygon": rect(5, 11, 25, 11.5), "height": 5, "types": WALL_TYPES}],
                },
                {
                    "name": "ledge",
                    "parts": [
                        {"polygon": rect(12, 10.55, 18, 11), "height": 5, "types": ["Heavy"]}
                    ],
                },
            ],
            "drop_zones": {"A": rect(0, 0, 2, 22), "B": rect(28, 0, 30, 22)},
        }
    )
    assert targeting(heavy, shooter, target).in_cover


# A 3" thick wall (x 10-13, y 5-15); the target (15.19, 14.43) stands east of it, just below
# its top; the shooter looks across the top of the wall from the north-west.
BLOCK = killzone(rect(10, 5, 13, 15))
BLOCK_TARGET = Placement(15.19, 14.43)


def test_a_wall_end_the_shooter_has_not_passed_stops_the_far_corner_obscuring() -> None:
    # Shooter (9.2, 15.5): the corner (10, 15) is 0.88" ahead of its centre toward the target,
    # beyond the front of its base (0.63"): not passed. The lines cross that end, within 1" of
    # the shooter, so the wall does not obscure (like a Heavy part within 1").
    shooter = Placement(9.2, 15.5)
    assert visible(BLOCK, shooter, BLOCK_TARGET)
    t = targeting(BLOCK, shooter, BLOCK_TARGET)
    assert t.intervening == {0} and not t.obscured and not t.in_cover


def test_a_wall_end_the_shooter_has_passed_does_not_intervene() -> None:
    # Shooter (9.8, 15.7): the corner (10, 15) is only 0.36" ahead of its centre, within its
    # base: passed. Only the far end, round (13, 15), more than 1" from both, intervenes: the
    # target is obscured.
    shooter = Placement(9.8, 15.7)
    assert visible(BLOCK, shooter, BLOCK_TARGET)
    t = targeting(BLOCK, shooter, BLOCK_TARGET)
    assert t.intervening == {0} and t.obscured and not t.in_cover


def test_walls_still_block_sight() -> None:
    assert not visible(STRAIGHT, Placement(8, 10), Placement(12.5, 10))
    assert not visible(BLOCK, Placement(8, 10), Placement(15, 10))


def test_open_layouts_have_no_wall_ends() -> None:
    from engine.geometry.sight import _parts

    assert len(_parts(OPEN_RUINS).polygons) == len(OPEN_RUINS.parts)
    assert len(_parts(STRAIGHT).polygons) > len(STRAIGHT.parts)
