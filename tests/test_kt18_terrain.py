"""KT18 terrain categories, movement over terrain, dangerous terrain and falling geometry
(rules/KT18.md 3.3, 10.1-10.9, 11.3): engine.geometry.kt18_terrain and KT18_MOVEMENT.

Every board is built inline: a flat 30" x 22" killzone with the features a test needs; models
have 32 mm bases (radius 0.630"). Moves go along y = 11 from x 5 to x 12 (7" horizontally)
unless a test says otherwise."""

from __future__ import annotations

from typing import Any

import pytest

from engine.geometry import Placement
from engine.geometry import kt18_terrain as t
from engine.geometry.model import Killzone, KillzoneError, load_killzone
from engine.geometry.move_paths import shortest_path
from engine.geometry.move_values import KT18_MOVEMENT, KT21_MOVEMENT, MovementRules

R = 32 / 25.4 / 2  # a 32 mm base's radius in inches


def _box(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]


def _layout(*parts: tuple[list[list[float]], float, list[str], dict[str, Any]]) -> dict[str, Any]:
    return {
        "name": "kt18_terrain_test",
        "version": "1",
        "drop_zones": {"A": _box(0, 0, 3, 22), "B": _box(27, 0, 30, 22)},
        "objectives": [],
        "features": [
            {"name": f"f{k}", "parts": [{"polygon": poly, "height": h, "types": ty, **extra}]}
            for k, (poly, h, ty, extra) in enumerate(parts)
        ],
    }


def _kz(*parts: tuple[list[list[float]], float, list[str], dict[str, Any]]) -> Killzone:
    return Killzone.from_dict(_layout(*parts))


def _p(x: float, y: float = 11.0, z: float = 0.0) -> Placement:
    return Placement(x, y, 32.0, z)


def _cost(
    kz: Killzone, start: Placement, goal: tuple[float, ...], rules: MovementRules = KT18_MOVEMENT
) -> float | None:
    path = shortest_path(kz, start, goal, move=20.0, rules=rules)
    return None if path is None else round(path.cost, 3)


OPEN = _kz((_box(0.2, 0.2, 0.4, 0.4), 0.5, ["Light"], {}))


# --- categories (10.1) ---------------------------------------------------------------------


def test_terrain_category_from_the_layout_field_and_kt24_types() -> None:
    """10.1 and the module's mapping: the part's own field wins; a Wall is impassable, an
    Obstructing part (razor wire) difficult, everything else (here Light and Insignificant)
    open ground."""
    kz = _kz(
        (_box(1, 1, 2, 2), 0.0, [], {"kt18_terrain": "dangerous"}),
        (_box(3, 1, 4, 2), 3.0, ["Wall"], {}),
        (_box(5, 1, 6, 2), 1.0, ["Obstructing"], {}),
        (_box(7, 1, 8, 2), 1.0, ["Light"], {}),
        (_box(9, 1, 10, 2), 0.5, ["Insignificant"], {}),
        (_box(11, 1, 12, 2), 3.0, ["Wall"], {"kt18_terrain": "open"}),
    )
    assert t.categories(kz) == ("dangerous", "impassable", "difficult", "open", "open", "open")
    assert t.part_category(kz, 0) == "dangerous"


def test_an_unknown_category_is_refused_naming_the_part_and_field() -> None:
    """Bad input gets a clear error naming the part and the field."""
    with pytest.raises(KillzoneError, match=r"feature 'f0' part 0: field 'kt18_terrain'"):
        _kz((_box(1, 1, 2, 2), 0.0, [], {"kt18_terrain": "lava"}))


def test_the_category_is_kept_when_the_layout_is_written_back() -> None:
    """The layout field round-trips (to_dict -> from_dict); a part without it writes none."""
    kz = _kz(
        (_box(1, 1, 2, 2), 0.0, [], {"kt18_terrain": "difficult"}),
        (_box(3, 1, 4, 2), 1.0, ["Light"], {}),
    )
    data = kz.to_dict()
    parts = [f["parts"][0] for f in data["features"]]
    assert parts[0]["kt18_terrain"] == "difficult"
    assert "kt18_terrain" not in parts[1]
    assert t.categories(Killzone.from_dict(data)) == ("difficult", "open")


# --- movement (3.3, 10.3-10.6) ---------------------------------------------------------------


def test_open_ground_counts_the_exact_distance() -> None:
    """3.3: a move counts the distance moved, no rounding: 5.3" straight costs 5.3"."""
    assert _cost(OPEN, _p(5), (10.3, 11)) == 5.3


def test_difficult_terrain_costs_two_inches_per_inch_and_fly_ignores_it() -> None:
    """10.3: a pool 1" wide (x 8-9, across the board) on the 7" move: 6" of open ground +
    1" x 2 = 8". FLY ignores the penalty: 7"."""
    pool = _kz((_box(8, 0, 9, 22), 0.0, [], {"kt18_terrain": "difficult"}))
    assert _cost(pool, _p(5), (12, 11)) == 8.0
    assert _cost(pool, _p(5), (12, 11), KT18_MOVEMENT.with_fly(True)) == 7.0


def test_dangerous_terrain_costs_as_difficult() -> None:
    """10.4: dangerous terrain costs 2" per 1" like difficult terrain: 1.5" of tar pit on the
    7" move = 5.5" + 3" = 8.5"."""
    tar = _kz((_box(8, 0, 9.5, 22), 0.0, [], {"kt18_terrain": "dangerous"}))
    assert _cost(tar, _p(5), (12, 11)) == 8.5


def test_impassable_terrain_is_never_entered_not_even_flying() -> None:
    """10.5, 3.3: an impassable strip across the board leaves no legal path, FLY included;
    the same strip as open ground is crossed at its length."""
    chasm = _kz((_box(8, 0, 9, 22), 0.0, [], {"kt18_terrain": "impassable"}))
    assert _cost(chasm, _p(5), (12, 11)) is None
    assert _cost(chasm, _p(5), (12, 11), KT18_MOVEMENT.with_fly(True)) is None
    flat = _kz((_box(8, 0, 9, 22), 0.0, [], {}))
    assert _cost(flat, _p(5), (12, 11)) == 7.0


def test_climbing_counts_the_vertical_distance_in_full() -> None:
    """3.3, 10.6: onto a 3" platform (x 8-14) then 4" across it from x 5: 7" + 3" = 10"
    (KT21 counts the 3" climb as 4": 2" steps rounded up, 11"). Climbing down the same 3"
    also counts: 10"."""
    platform = _kz((_box(8, 0, 14, 22), 3.0, ["Vantage"], {}))
    assert _cost(platform, _p(5), (12, 11, 3)) == 10.0
    assert _cost(platform, _p(5), (12, 11, 3), KT21_MOVEMENT) == 11.0
    assert _cost(platform, _p(12, z=3.0), (5, 11, 0)) == 10.0


def test_leaping_over_a_low_barrier_is_free_but_a_high_one_is_climbed() -> None:
    """10.6: a barrier under 1.5" high is leapt with no vertical distance counted: over a 1"
    barrier (x 8-8.5) the move costs its 7". A 2" barrier is climbed up and down: 7" + 2" +
    2" = 11"."""
    low = _kz((_box(8, 0, 8.5, 22), 1.0, ["Light"], {}))
    high = _kz((_box(8, 0, 8.5, 22), 2.0, ["Light"], {}))
    assert _cost(low, _p(5), (12, 11)) == 7.0
    assert _cost(high, _p(5), (12, 11)) == 11.0


def test_the_kt18_rules_values() -> None:
    """10.6's numbers as the movement values: gaps under 2", landing under 1" higher and
    under 6" lower, leaps under 1.5" free, 2" per 1" of difficult terrain."""
    m = KT18_MOVEMENT
    assert m.name == "kt18" and m.exact_vertical and m.impassable
    assert m.free_leap == 1.5 and m.rough_factor == 2.0
    assert 1.99 < m.jump_gap < 2.0 and 0.99 < m.jump_rise < 1.0
    assert m.jump_drop is not None and 5.99 < m.jump_drop < 6.0
    assert m.short_increment == 0.0 and not m.jump_test and not m.ramparts
    assert m.climb_cost(3.0) == 3.0 and m.climb_cost(1.4) == 0.0 and m.drop_cost(2.5) == 2.5


def test_kt24_and_kt21_values_are_unchanged_by_the_new_parameters() -> None:
    """The new parameters default to the old behaviour: KT21 counts a 3" climb as 4" and a
    3" drop as 2" (2" steps), with no terrain categories read."""
    assert MovementRules().rough_factor == 1.0 and not MovementRules().impassable
    assert KT21_MOVEMENT.climb_cost(3.0) == 4.0 and KT21_MOVEMENT.drop_cost(3.0) == 2.0
    assert KT21_MOVEMENT.jump_drop is None and KT21_MOVEMENT.free_leap == 0.0


# --- dangerous terrain (10.4, 11.3) ----------------------------------------------------------

POOL = _kz(
    (_box(8, 8, 12, 14), 0.0, [], {"kt18_terrain": "dangerous"}),
    (_box(20, 6, 26, 16), 3.0, ["Vantage"], {}),
)


def test_a_base_overlapping_a_dangerous_pool_is_in_dangerous_terrain() -> None:
    """10.4: the base at x 7.5 reaches x 8.13, 0.13" into the pool (x 8-12): in it. At x 7.3
    its edge is at 7.93, short of the pool: not in it."""
    assert t.in_dangerous_terrain(POOL, _p(7.5))
    assert not t.in_dangerous_terrain(POOL, _p(7.3))
    assert t.terrain_under(POOL, _p(10)) == frozenset({"dangerous"})
    assert t.in_difficult_terrain(POOL, _p(10))


def test_traps_make_upper_floors_dangerous() -> None:
    """11.3 Traps, reading (a): every level above the ground floor is dangerous terrain. A
    model on the 3" platform is in dangerous terrain only with Traps; on the floor, never."""
    assert not t.in_dangerous_terrain(POOL, _p(23, z=3.0))
    assert t.in_dangerous_terrain(POOL, _p(23, z=3.0), traps=True)
    assert not t.in_dangerous_terrain(POOL, _p(17), traps=True)


# --- falling (10.7-10.9) ---------------------------------------------------------------------

TOWER = _kz((_box(10, 8, 16, 14), 3.0, ["Vantage"], {}))


def test_a_model_within_one_inch_of_an_upper_edge_can_fall() -> None:
    """10.7: on the 3" platform (x 10-16) at x 15 the base's edge (15.63) is 0.37" from the
    east edge: within 1", a fall of 3". At x 13 it is 2.37" from every edge: none. On the
    floor: none."""
    assert t.fall_edge(TOWER, _p(15, z=3.0)) == pytest.approx(3.0)
    assert t.fall_edge(TOWER, _p(13, z=3.0)) is None
    assert t.fall_edge(TOWER, _p(5)) is None


def test_a_fall_goes_over_the_nearest_edge_then_straight_down() -> None:
    """10.7: the shortest route over the edge from x 15 is east, to x 16; the base is moved
    until wholly past it (centre at 16 + 0.63, plus the 0.001" grid) and lands on the floor,
    3" down."""
    landing = t.fall_landing(TOWER, _p(15, z=3.0))
    assert landing is not None
    (x, y), level, height = landing
    assert x == pytest.approx(16 + R + 0.001) and y == pytest.approx(11)
    assert level == 0.0 and height == pytest.approx(3.0)


def test_a_fall_lands_on_the_next_lower_level() -> None:
    """10.7 'straight down to the next lower level': a 1.5" platform adjoins the tower's
    east side (x 16-20): a model falling east from the tower lands on it, 1.5" down."""
    kz = _kz(
        (_box(10, 8, 16, 14), 3.0, ["Vantage"], {}),
        (_box(16, 8, 20, 14), 1.5, ["Vantage"], {}),
    )
    landing = t.fall_landing(kz, _p(15, z=3.0))
    assert landing is not None
    assert landing.level == 1.5 and landing.height == pytest.approx(1.5)


def test_no_fall_where_a_wall_rises_above_the_level() -> None:
    """10.7: an edge is where the ground beyond is lower. A 5" Heavy wall along the tower's
    east side (x 16-16.3) leaves no drop there; the model at x 15 is 2.37" from the other
    edges: no fall."""
    kz = _kz(
        (_box(10, 8, 16, 14), 3.0, ["Vantage"], {}),
        (_box(16, 7, 16.3, 15), 5.0, ["Heavy"], {}),
    )
    assert t.fall_edge(kz, _p(15, z=3.0)) is None


def test_falling_damage_dice_per_full_three_inches() -> None:
    """10.8: one die per full 3" fallen; 10.9: a jump down rolls one fewer, the seed's own
    examples: 5" -> 0, 6" -> 1, 9" -> 2."""
    assert [t.fall_dice(h) for h in (2.9, 3.0, 5.9, 6.0, 9.0)] == [0, 1, 1, 2, 3]
    assert [t.jump_down_dice(h) for h in (5.0, 6.0, 9.0)] == [0, 1, 2]


def test_the_kt18_terrain_fixture_killzone() -> None:
    """The scenario fixture reads as its comment says: the pool difficult, the tar pit
    dangerous, the chasm impassable, the ruin and tower open ground; a model 0.37" from the
    ruin's east edge (x 16 on the 3" floor, x 13-17) would fall 3", one from the tower's
    (6.5") would fall 6.5", two dice (one per full 3", 10.8)."""
    kz = load_killzone("scenarios/killzones/kt18_terrain.toml")
    assert t.categories(kz) == ("difficult", "dangerous", "impassable", "open", "open", "open")
    assert t.fall_edge(kz, _p(16, 11, 3.0)) == pytest.approx(3.0)
    tower = t.fall_edge(kz, _p(24, 16.5, 6.5))
    assert tower == pytest.approx(6.5) and t.fall_dice(tower) == 2
    assert t.in_dangerous_terrain(kz, _p(9, 17)) and t.in_difficult_terrain(kz, _p(9, 5))


def test_jump_down_offers_one_landing_per_near_edge() -> None:
    """10.9: a model near the tower's north-east corner (x 15.5, y 13.5; the tower x 10-16,
    y 8-14, 3" high) is 0.5 - 0.63 < 1" from both the east and the north edges: it may jump
    down over either, straight out from its centre (to x 16 + 0.631, y 13.5, or x 15.5,
    y 14 + 0.631), both 3" down (0 dice: one fewer than the fall's 1). In the middle of the
    tower it may not jump down."""
    options = t.jump_down_options(TOWER, _p(15.5, 13.5, 3.0))
    points = sorted((round(o.point[0], 3), round(o.point[1], 3)) for o in options)
    assert points == [(15.5, round(14 + R + 0.001, 3)), (round(16 + R + 0.001, 3), 13.5)]
    assert all(o.height == pytest.approx(3.0) for o in options)
    assert t.jump_down_dice(options[0].height) == 0
    assert t.jump_down_options(TOWER, _p(13, 11, 3.0)) == ()
