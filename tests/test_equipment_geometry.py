"""Universal equipment on the killzone (rules/KT24.md 7.2): the terrain features' shapes,
added terrain and its caches, Obstructing and ladder movement costs, the placement
restrictions, candidate spots, and the smoke grenade's area."""

from __future__ import annotations

import math

import pytest
import shapely

from engine.geometry import Killzone, KillzoneError, Placement, TerrainType, load_killzone
from engine.geometry.extra_terrain import MAX_TERRAIN_VARIANTS, FeatureSpec, PartSpec
from engine.geometry.graph_cache import layout_digest, move_graph
from engine.geometry.move_graph import MoveGraph
from engine.geometry.move_paths import _increments
from engine.geometry.move_values import _Link
from engine.geometry.movement import check_path, reachable_with_costs, shortest_path
from engine.geometry.sight import obscured, visible
from engine.rules.equipment.restrictions import (
    equipment_placement_problem,
    equipment_spots,
)
from engine.rules.equipment.shapes import (
    KINDS,
    SHAPES,
    equipment_feature,
    equipment_parts,
    wholly_in_smoke,
)


def _ring(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]


def _bare() -> Killzone:
    """A 30" x 22" board with one Vantage platform 3" high at x 20-24, y 10-14, and one
    Heavy block 3" high at x 20-24, y 2-5; drop zones along the short edges."""
    return Killzone.from_dict(
        {
            "name": "bare",
            "features": [
                {
                    "name": "platform",
                    "parts": [
                        {"polygon": _ring(20, 10, 24, 14), "height": 3, "types": ["Vantage"]}
                    ],
                },
                {
                    "name": "block",
                    "parts": [{"polygon": _ring(20, 2, 24, 5), "height": 3, "types": ["Heavy"]}],
                },
            ],
            "drop_zones": {"A": _ring(0, 0, 6, 22), "B": _ring(24, 0, 30, 22)},
            "territories": {"A": _ring(0, 0, 15, 22), "B": _ring(15, 0, 30, 22)},
            "objectives": [{"name": "centre", "position": [15, 18]}],
        }
    )


BARE = _bare()
CQ = load_killzone("close_quarters")
RUINS = load_killzone("open_ruins")


# -------------------------------------------------------------------------------------------
# Shapes


def test_equipment_parts_are_hashable_values_on_the_position_grid() -> None:
    # A light barricade is 3" x 0.5" (the project's dimensions): at angle 90 its length runs
    # along y, so its corners are x 10 +- 0.25, y 5 +- 1.5, all on the 0.001" grid.
    (part,) = equipment_parts("light_barricade", 10, 5, 90)
    xs = sorted({x for x, _ in part.polygon})
    ys = sorted({y for _, y in part.polygon})
    assert xs == [9.75, 10.25] and ys == [3.5, 6.5]
    assert part.polygon[0] == part.polygon[-1]  # a closed ring
    assert equipment_parts("light_barricade", 10, 5, 90) == (part,)
    assert hash(equipment_feature("razor_wire", 3, 4)) == hash(
        equipment_feature("razor_wire", 3, 4)
    )
    # Rounded to the grid: a tiny rotation noise does not make another value.
    (tilted,) = equipment_parts("ladder", 1.0000001, 2, 0)
    assert tilted == equipment_parts("ladder", 1, 2, 0)[0]


def test_equipment_terrain_types_are_those_of_the_rules() -> None:
    # 7.2: Light / Heavy barricades, Razor Wire Exposed + Obstructing, Ladders Insignificant +
    # Exposed, Portable Barricade Light + Protective + Portable (same shape as a light one).
    T = TerrainType
    assert SHAPES["light_barricade"].types == (T.LIGHT,)
    assert SHAPES["heavy_barricade"].types == (T.HEAVY,)
    assert set(SHAPES["razor_wire"].types) == {T.EXPOSED, T.OBSTRUCTING}
    assert {T.INSIGNIFICANT, T.EXPOSED} <= set(SHAPES["ladder"].types)
    assert set(SHAPES["portable_barricade"].types) == {T.LIGHT, T.PROTECTIVE, T.PORTABLE}
    light, portable = SHAPES["light_barricade"], SHAPES["portable_barricade"]
    assert (light.length, light.depth, light.height) == (
        portable.length,
        portable.depth,
        portable.height,
    )


def test_equipment_parts_reject_bad_input() -> None:
    with pytest.raises(ValueError, match="unknown equipment terrain 'moat'"):
        equipment_parts("moat", 1, 1)
    with pytest.raises(ValueError, match="angle must be a finite number"):
        equipment_parts("ladder", 1, 1, math.nan)


# -------------------------------------------------------------------------------------------
# Added terrain and its caches


def test_with_terrain_is_memoised_by_value() -> None:
    wire = equipment_feature("razor_wire", 10, 5, 90, "wire")
    kz = BARE.with_terrain((wire,))
    assert kz is BARE.with_terrain([equipment_feature("razor_wire", 10, 5, 90, "wire")])
    assert kz.terrain_root is BARE and kz.extra_terrain == (wire,)
    assert len(kz.parts) == len(BARE.parts) + 1
    assert kz.parts[: len(BARE.parts)] == BARE.parts
    assert kz.features[-1] == "wire" and kz.has_type(len(kz.parts) - 1, TerrainType.OBSTRUCTING)
    # The spatial index is the new value's: it finds the wire, the layout's does not.
    probe = shapely.box(9.9, 4.9, 10.1, 5.1)
    assert kz.parts_near(probe).tolist() == [len(BARE.parts)]
    assert BARE.parts_near(probe).tolist() == []
    # Terrain replaces, never accumulates; no terrain is the layout itself.
    assert kz.with_terrain(()) is BARE
    other = equipment_feature("razor_wire", 10, 15, 90, "wire")
    assert kz.with_terrain((other,)).extra_terrain == (other,)
    assert layout_digest(kz) != layout_digest(BARE)
    assert layout_digest(kz) != layout_digest(kz.with_terrain((other,)))


def test_with_terrain_keeps_the_hatchway_state_and_hatch_states_keep_the_terrain() -> None:
    hatches = sorted(CQ.hatchways)
    feature = equipment_feature("light_barricade", 3, 3, 0, "lb")
    state = CQ.with_open_hatchways(hatches[:1])
    kz = state.with_terrain((feature,))
    assert kz.open_hatchways == frozenset(hatches[:1]) and kz.extra_terrain == (feature,)
    assert kz is CQ.with_terrain((feature,)).with_open_hatchways(hatches[:1])
    other = kz.with_open_hatchways(hatches[1:3])
    assert other.extra_terrain == (feature,) and other.parts is kz.parts
    assert other.with_terrain(()) is CQ.with_open_hatchways(hatches[1:3])


def test_with_terrain_rejects_bad_features() -> None:
    with pytest.raises(KillzoneError, match="already a feature"):
        BARE.with_terrain((equipment_feature("razor_wire", 10, 5, 0, "platform"),))
    wire = equipment_feature("razor_wire", 10, 5, 0, "w")
    with pytest.raises(KillzoneError, match="already a feature"):
        BARE.with_terrain((wire, wire))
    with pytest.raises(KillzoneError, match="not wholly on the board"):
        BARE.with_terrain((equipment_feature("razor_wire", 0.5, 5, 0, "edge"),))
    with pytest.raises(KillzoneError, match="must be a FeatureSpec"):
        BARE.with_terrain(("wire",))


def test_terrain_variants_are_bounded() -> None:
    kz = _bare()
    first = kz.with_terrain((equipment_feature("ladder", 5, 5, 0, "l"),))
    for k in range(MAX_TERRAIN_VARIANTS):
        kz.with_terrain((equipment_feature("ladder", 5, 6 + k * 0.1, 0, "l"),))
    again = kz.with_terrain((equipment_feature("ladder", 5, 5, 0, "l"),))
    # Evicted: an equal value, rebuilt (the memo keeps the most recent ones only).
    assert again is not first and again.parts[-1].polygon.equals(first.parts[-1].polygon)


def test_moving_a_barricade_updates_sight_and_movement_and_old_answers_stay() -> None:
    """A Heavy Barricade 2" high between two operatives on the floor blocks every sight line
    from the head (1.25" up) to the target (4.3 Visible); moved aside, it no longer does. The
    same holds for the move across it (3.3: climbing over costs more than the straight 4")."""
    a, b = Placement(8, 16), Placement(12, 16)
    a_far, b_far = Placement(3, 11), Placement(13, 11)
    assert visible(BARE, a, b) and not obscured(BARE, b_far, a_far)
    assert shortest_path(BARE, a, (12, 16)).cost == 4  # type: ignore[union-attr]
    between = BARE.with_terrain((equipment_feature("heavy_barricade", 10, 16, 90, "hb"),))
    assert not visible(between, a, b)
    # Heavy terrain more than 1" from both intervenes: obscured (4.5).
    far = BARE.with_terrain((equipment_feature("heavy_barricade", 8, 11, 90, "hb"),))
    assert visible(far, a_far, Placement(13, 11, model_height=3.0))
    assert obscured(far, b_far, a_far)
    path = shortest_path(between, a, (12, 16))
    assert path is not None and path.cost > 4
    moved = between.with_terrain((equipment_feature("heavy_barricade", 10, 20, 0, "hb"),))
    assert visible(moved, a, b)
    assert shortest_path(moved, a, (12, 16)).cost == 4  # type: ignore[union-attr]
    # The layout's answers are untouched.
    assert visible(BARE, a, b) and not obscured(BARE, b_far, a_far)
    assert shortest_path(BARE, a, (12, 16)).cost == 4  # type: ignore[union-attr]
    assert move_graph(between, 32) is not move_graph(BARE, 32)
    assert move_graph(moved, 32) is not move_graph(between, 32)


def _signature(g: MoveGraph) -> tuple[list[tuple[int, float, float]], list[list[object]]]:
    nodes = [(int(lv), float(x), float(y)) for lv, (x, y) in zip(g.node_level, g.xy, strict=True)]
    links = [[(v, w, lk) for v, w, lk in out] for out in g._out]
    return nodes, links


def test_added_terrain_graph_is_derived_exactly() -> None:
    """The graph of a killzone with added terrain is derived from the layout's graph
    (only links near the new features computed) and equals a full build."""
    feats = (
        equipment_feature("light_barricade", 3.5, 12.5, 90, "lb"),
        equipment_feature("razor_wire", 12.5, 7.5, 0, "rw"),
        equipment_feature("ladder", 20.5, 9.87, 0, "ld"),
    )
    kz = BARE.with_terrain(feats)
    derived = move_graph(kz, 32)
    assert _signature(derived) == _signature(MoveGraph.build(kz, 32))
    hatches = sorted(CQ.hatchways)
    cq = CQ.with_terrain((equipment_feature("razor_wire", 3.5, 3.5, 0, "rw"),))
    state = cq.with_open_hatchways(hatches[:2])
    assert _signature(move_graph(state, 40)) == _signature(MoveGraph.build(state, 40))
    # And from one terrain layout to another.
    moved = BARE.with_terrain((*feats[:2], equipment_feature("ladder", 22, 9.87, 0, "ld")))
    g = MoveGraph.derive(derived, moved)
    assert _signature(g) == _signature(MoveGraph.build(moved, 32))


def test_equipment_on_open_ruins_derives_exactly() -> None:
    """Both players' barricades, razor wire, ladders and portable barricade on the open ruins
    (at candidate spots): the derived graph is the full build, node for node and link for
    link in the same order, and so is the graph after one item is taken away again."""
    feats: list[FeatureSpec] = []
    for player in ("A", "B"):
        terr, dz = RUINS.territories[player], RUINS.drop_zones[player]
        for kind in ("heavy_barricade", "razor_wire", "ladder", "ladder", "portable_barricade"):
            spots = equipment_spots(RUINS, kind, terr, dz, tuple(feats))
            x, y, a = spots[(len(feats) * 7) % len(spots)]
            feats.append(equipment_feature(kind, x, y, a, f"{player} {kind} {len(feats)}"))
    kz = RUINS.with_terrain(tuple(feats))
    derived = move_graph(kz, 40)
    assert _signature(derived) == _signature(MoveGraph.build(kz, 40))
    fewer = RUINS.with_terrain(tuple(feats[1:]))
    assert _signature(MoveGraph.derive(derived, fewer)) == _signature(MoveGraph.build(fewer, 40))


# -------------------------------------------------------------------------------------------
# Obstructing (razor wire) and ladders in movement


def test_obstructing_crossing_over_razor_wire_counts_an_additional_inch() -> None:
    """4.6 / 7.2 Razor Wire: crossing over it within 1" counts 1" more. Over the 1" high
    wire from x 8.5 to 11.5: 3" horizontal + the climb counted as 2" (3.3) + a 1" drop
    (free) = 5", + 1" for Obstructing = 6". The same shape without Obstructing costs 5"."""
    wire = BARE.with_terrain((equipment_feature("razor_wire", 10, 5, 90, "wire"),))
    (spec,) = equipment_parts("razor_wire", 10, 5, 90)
    plain = BARE.with_terrain(
        (FeatureSpec("plain", (PartSpec(spec.polygon, spec.height, ["Exposed"]),)),)
    )
    mover = Placement(8.5, 5)
    over = check_path(wire, mover, [(11.5, 5)], move=7)
    assert over.cost == 6 and over.increments[0].kind == "over"
    assert over.increments[0].obstructing == 1
    assert check_path(plain, mover, [(11.5, 5)], move=7).cost == 5


def test_obstructing_straight_line_answers_agree_with_the_path_search() -> None:
    """The straight-line shortcuts (a plain move) never apply across the wire: the spots
    beyond it cost what the full search finds, the extra inch included."""
    wire = BARE.with_terrain((equipment_feature("razor_wire", 10, 5, 90, "wire"),))
    mover = Placement(8.5, 5)
    spots = [(11.5, 5.0, 0.0), (11.5, 4.0, 0.0), (12.0, 5.5, 0.0), (8.0, 3.0, 0.0)]
    found = dict(((p.x, p.y), cost) for p, cost in reachable_with_costs(wire, mover, spots, move=7))
    for x, y, _ in spots:
        path = shortest_path(wire, mover, (x, y), move=7)
        assert (path.cost if path else None) == found.get((x, y))
    assert found[(11.5, 5.0)] == 6


def _ladder_kz(x: float = 22.0) -> Killzone:
    # A ladder against the platform's south side (y = 10), centred at x.
    return BARE.with_terrain((equipment_feature("ladder", x, 9.87, 0, "ladder"),))


def test_ladder_climb_counts_one_inch() -> None:
    """7.2 Ladders: climbing the platform (3" high) with the ladder within control range for
    the whole climb counts 1" vertically instead of 3" (3.3). From (22, 9) to (22, 11, 3):
    2" horizontal + 1" = 3" with the ladder; 2" + 3" = 5" without."""
    mover = Placement(22, 9)
    with_ladder = check_path(_ladder_kz(), mover, [(22, 11, 3)])
    assert with_ladder.cost == 3 and with_ladder.increments[0].ladder
    assert check_path(BARE, mover, [(22, 11, 3)]).cost == 5
    path = shortest_path(_ladder_kz(), mover, (22, 11, 3))
    assert path is not None and path.cost == 3


def test_ladder_must_be_within_control_range_for_the_whole_climb() -> None:
    """7.2: a ladder at x = 20.6 is more than 1" from a base climbing at x = 23.5 (radius
    0.63": 23.5 - 0.63 - 21.1 = 1.77"), so that climb counts 3" as usual."""
    mover = Placement(23.5, 9)
    assert check_path(_ladder_kz(20.6), mover, [(23.5, 11, 3)]).cost == 5


def test_ladder_helps_only_the_feature_it_stands_against() -> None:
    """7.2: the ladder against the platform does not help climbing over the block."""
    kz = BARE.with_terrain((equipment_feature("ladder", 22, 9.87, 0, "ladder"),))
    feats = [kz.features[i] for i in sorted({p.feature for p in kz.parts})]
    assert feats[-1] == "ladder"
    g = move_graph(kz, 32)
    (_, against) = g._ladders[0]
    assert against == frozenset({kz.features.index("platform")})


def test_ladder_counts_once_per_action() -> None:
    """7.2: once per action. Two ladder climbs of 3" in one action: the first counts 1",
    the second 3" (each with 1" horizontal: 2" then 4")."""
    climb = _Link("climb", 1.0, climb=3.0, ladder=True)
    incs, total = _increments([(0, 0, 0), (1, 0, 3), (2, 0, 6)], [climb, climb])
    assert [i.cost for i in incs] == [2.0, 4.0] and total == 6.0
    assert [i.ladder for i in incs] == [True, False]


# -------------------------------------------------------------------------------------------
# Placement restrictions (7.2)

TERR_A = BARE.territories["A"]
DZ_A = BARE.drop_zones["A"]


def _problem(kind: str, x: float, y: float, angle: float = 0.0, **kw: object) -> str | None:
    kw.setdefault("territory", TERR_A)
    kw.setdefault("drop_zone", DZ_A)
    return equipment_placement_problem(BARE, kind, x, y, angle, **kw)  # type: ignore[arg-type]


def test_placement_wholly_within_territory() -> None:
    # Territory A ends at x = 15; a 3" barricade centred at x 14 reaches 15.5.
    assert _problem("light_barricade", 13, 8) is None
    assert "wholly within its player's territory" in (_problem("light_barricade", 14, 8) or "")
    assert "territory" in (_problem("ammo_cache", 14.9, 8) or "")
    assert _problem("comms_device", 14, 8) is None


def test_placement_on_the_killzone_floor() -> None:
    kz = BARE.with_terrain(())
    reason = equipment_placement_problem(kz, "razor_wire", 21, 12, territory=None)
    assert reason is not None and "killzone floor" in reason and "platform" in reason


def test_placement_more_than_2_inches_from_other_equipment_terrain() -> None:
    # The other barricade's edge is at x 10.25; ours at angle 90 is 0.5" deep: edges 2" apart
    # at x = 12.5 (not more than 2"), 2.001" at x = 12.501.
    other = equipment_feature("light_barricade", 10, 8, 90, "other")
    assert 'more than 2"' in (_problem("light_barricade", 12.5, 8, 90, others=[other]) or "")
    assert _problem("light_barricade", 12.501, 8, 90, others=[other]) is None


def _hatch_kz() -> Killzone:
    return Killzone.from_dict(
        {
            "name": "hatch",
            "features": [
                {
                    "name": "door",
                    "hatchway": True,
                    "parts": [
                        {
                            "polygon": _ring(11, 5, 12, 6),
                            "height": 3,
                            "types": ["Heavy", "Wall"],
                            "open_types": ["Accessible", "Insignificant", "Exposed"],
                        }
                    ],
                },
                {
                    "name": "hole",
                    "parts": [
                        {"polygon": _ring(5, 15, 6, 16), "height": 1, "types": ["Accessible"]}
                    ],
                },
                {
                    "name": "tower",
                    "parts": [{"polygon": _ring(2, 9, 4, 11), "height": 2, "types": ["Heavy"]}],
                },
            ],
            "drop_zones": {"A": _ring(0, 0, 6, 22), "B": _ring(24, 0, 30, 22)},
            "territories": {"A": _ring(0, 0, 15, 22), "B": _ring(15, 0, 30, 22)},
        }
    )


def test_placement_more_than_2_inches_from_access_points_and_accessible_terrain() -> None:
    """7.2: barricades, razor wire and mines more than 2" from access points (the hatchway
    'door', x 11-12, y 5-6) and Accessible terrain (the 'hole', x 5-6, y 15-16)."""
    kz = _hatch_kz()
    # A mine's radius is 10 mm = 0.394": centred at x 8.5 its edge is 2.106" from x 11.
    assert equipment_placement_problem(kz, "mines", 8.5, 5.5, territory=TERR_A) is None
    assert "access points" in (
        equipment_placement_problem(kz, "mines", 8.7, 5.5, territory=TERR_A) or ""
    )
    # A light barricade at angle 0 is 3" long: centred at x 7.6 its end is 1.9" from x 11.
    assert "access points" in (
        equipment_placement_problem(kz, "light_barricade", 7.6, 5.5, territory=TERR_A) or ""
    )
    assert equipment_placement_problem(kz, "light_barricade", 7.4, 5.5, territory=TERR_A) is None
    assert "Accessible terrain" in (
        equipment_placement_problem(kz, "razor_wire", 5.5, 13, territory=TERR_A) or ""
    )
    assert "Accessible terrain" in (
        equipment_placement_problem(kz, "mines", 5.5, 13.5, territory=TERR_A) or ""
    )
    # Comms Device and Ammo Cache have no such restriction.
    assert equipment_placement_problem(kz, "comms_device", 5.5, 13.5, territory=TERR_A) is None


def test_heavy_barricade_wholly_within_4_inches_of_the_drop_zone() -> None:
    # Drop zone A ends at x = 6: a 4" x 1" barricade at angle 90 centred at x 9.5 reaches
    # x 10 (4" away, within); at x 9.6 it reaches 10.1 (not wholly within). Its territory is
    # not checked (a Heavy Barricade uses the drop zone instead).
    assert _problem("heavy_barricade", 9.5, 8, 90) is None
    assert 'within 4"' in (_problem("heavy_barricade", 9.6, 8, 90) or "")
    with pytest.raises(ValueError, match="drop zone"):
        _problem("heavy_barricade", 9.5, 8, 90, drop_zone=None)


def test_ladder_upright_against_terrain_at_least_2_inches_tall() -> None:
    """7.2 Ladders: against the 2" tower (x 2-4, y 9-11) yes; in the open no; against the
    1" hole no (too low)."""
    kz = _hatch_kz()
    assert equipment_placement_problem(kz, "ladder", 3, 8.875, territory=TERR_A) is None
    assert "against terrain" in (
        equipment_placement_problem(kz, "ladder", 3, 7, territory=TERR_A) or ""
    )
    assert "against terrain" in (
        equipment_placement_problem(kz, "ladder", 5.5, 14.875, territory=TERR_A) or ""
    )


def test_ladder_more_than_1_inch_from_access_points_and_2_from_equipment() -> None:
    """7.2 Ladders: more than 1" (not 2") from doors and access points; more than 2" from
    other equipment terrain."""
    kz = Killzone.from_dict(
        {
            "name": "hatch wall",
            "features": [
                {
                    "name": "door",
                    "hatchway": True,
                    "parts": [
                        {
                            "polygon": _ring(8, 5, 9, 6),
                            "height": 3,
                            "types": ["Heavy", "Wall"],
                            "open_types": ["Accessible", "Insignificant", "Exposed"],
                        }
                    ],
                },
                {
                    "name": "wall",
                    "parts": [{"polygon": _ring(2, 5, 8, 6), "height": 3, "types": ["Heavy"]}],
                },
            ],
            "drop_zones": {"A": _ring(0, 0, 6, 22), "B": _ring(24, 0, 30, 22)},
            "territories": {"A": _ring(0, 0, 15, 22), "B": _ring(15, 0, 30, 22)},
        }
    )
    # Ladder 1" long: centred at x 6.4 its end is 1.1" from the door (x 8): fine (a
    # barricade would need 2"); at x 6.6, 0.9": too close.
    assert equipment_placement_problem(kz, "ladder", 6.4, 4.875, territory=TERR_A) is None
    assert "access points" in (
        equipment_placement_problem(kz, "ladder", 6.6, 4.875, territory=TERR_A) or ""
    )
    other = equipment_feature("light_barricade", 3.5, 3, 0, "lb")
    assert "equipment terrain" in (
        equipment_placement_problem(kz, "ladder", 4, 4.875, territory=TERR_A, others=[other]) or ""
    )


def test_mines_more_than_2_inches_from_other_markers() -> None:
    """7.2 Mines: more than 2" from other markers, edge to edge: the objective marker (40 mm,
    radius 0.787") at (15, 18) and an equipment marker (20 mm, radius 0.394")."""
    terr = shapely.box(0, 0, 30, 22)
    # Centre 3.2" from the objective's centre: 3.2 - 0.787 - 0.394 = 2.019" (fine); 3.1":
    # 1.919" (too close).
    assert equipment_placement_problem(BARE, "mines", 15, 14.8, territory=terr) is None
    assert "objective marker" in (
        equipment_placement_problem(BARE, "mines", 15, 14.9, territory=terr) or ""
    )
    # Another equipment marker: 2.8" apart is 2.012" edge to edge; 2.7" is 1.912".
    assert (
        equipment_placement_problem(BARE, "mines", 5, 5, territory=terr, markers=[(5, 7.8)]) is None
    )
    assert "equipment marker" in (
        equipment_placement_problem(BARE, "mines", 5, 5, territory=terr, markers=[(5, 7.7)]) or ""
    )
    # An Ammo Cache has no distance from markers to keep.
    assert equipment_placement_problem(BARE, "ammo_cache", 15, 15.5, territory=terr) is None


def test_placement_problem_rejects_unknown_kinds() -> None:
    with pytest.raises(ValueError, match="unknown equipment 'moat'"):
        equipment_placement_problem(BARE, "moat", 1, 1, territory=TERR_A)


# -------------------------------------------------------------------------------------------
# Candidate spots


@pytest.mark.parametrize("kind", KINDS)
def test_equipment_spots_pass_every_check_and_are_stable(kind: str) -> None:
    others = (equipment_feature("light_barricade", 8.5, 11.5, 0, "lb"),)
    spots = equipment_spots(RUINS, kind, RUINS.territories["A"], RUINS.drop_zones["A"], others)
    assert spots, kind
    assert len(spots) <= 24 and spots == sorted(spots)
    assert spots == equipment_spots(
        RUINS, kind, RUINS.territories["A"], RUINS.drop_zones["A"], others
    )
    for x, y, angle in spots:
        assert angle in (0.0, 90.0)
        assert (
            equipment_placement_problem(
                RUINS,
                kind,
                x,
                y,
                angle,
                territory=RUINS.territories["A"],
                drop_zone=RUINS.drop_zones["A"],
                others=others,
            )
            is None
        )


def test_equipment_spots_spread_over_the_territory() -> None:
    spots = equipment_spots(RUINS, "ammo_cache", RUINS.territories["A"])
    xs, ys = [s[0] for s in spots], [s[1] for s in spots]
    # Territory A is x 0-15, y 0-22: the spots reach into every quarter of it.
    assert max(xs) - min(xs) > 10 and max(ys) - min(ys) > 15


# -------------------------------------------------------------------------------------------
# Smoke


def test_smoke_wholly_within_area() -> None:
    """7.2 Smoke Grenade: the area is within 1" horizontally of the marker's centre, from its
    elevation up without limit. A 25 mm base (radius 0.492") centred 0.5" away is wholly
    within (0.992"); 0.51" away is not (1.002")."""
    smoke = (10.0, 10.0, 0.0)
    assert wholly_in_smoke(Placement(10.5, 10, base_mm=25), smoke)
    assert not wholly_in_smoke(Placement(10.51, 10, base_mm=25), smoke)
    assert wholly_in_smoke(Placement(10, 10, base_mm=25, elevation=3), smoke)  # above
    assert not wholly_in_smoke(Placement(10, 10, base_mm=25), (10.0, 10.0, 3.0))  # below
    assert not wholly_in_smoke(Placement(10, 10, base_mm=60), smoke)  # too wide


@pytest.mark.parametrize("kind", KINDS)
def test_spot_prefilter_agrees_with_the_placement_checks(kind: str) -> None:
    """The vectorised prefilter of equipment_spots never rejects a placement the checks
    accept, and for the kinds it checks fully it accepts exactly those."""
    from engine.rules.equipment.restrictions import _grid, _ladder_candidates, _prefilter

    kz = _hatch_kz().with_terrain((equipment_feature("razor_wire", 9.5, 12.5, 0, "rw"),))
    others = (equipment_feature("light_barricade", 8.5, 11.5, 0, "lb"),)
    dz = kz.drop_zones["A"]
    if kind == "ladder":
        cands = _ladder_candidates(kz)
    else:
        cands = [(x, y, a) for x, y in _grid(TERR_A, 1.0) for a in (0.0, 90.0)]
    keep = _prefilter(kz, kind, cands, TERR_A, dz, others).tolist()
    exact = [
        equipment_placement_problem(
            kz, kind, x, y, a, territory=TERR_A, drop_zone=dz, others=others, markers=[(3, 3)]
        )
        is None
        for x, y, a in cands
    ]
    assert all(k for k, e in zip(keep, exact, strict=True) if e)
    if kind not in ("ladder", "mines"):
        assert keep == exact
    assert any(exact)


# -------------------------------------------------------------------------------------------
# Portable barricade


def test_portable_barricade_connected_to_an_operative() -> None:
    """7.2 Portable: an operative is connected to the barricade when its base touches it. A
    32 mm base (radius 0.63") centred 0.88" from the middle of the 0.5" deep barricade
    touches it (0.88 - 0.25 = 0.63); 0.9" away it does not."""
    from engine.rules.equipment.shapes import connected

    barricade = equipment_feature("portable_barricade", 10, 10, 0, "pb")
    assert connected(Placement(10, 10.88), barricade)
    assert not connected(Placement(10, 10.9), barricade)
    assert not connected(Placement(10, 10.88, elevation=3), barricade)


def test_move_with_barricade_replaces_it_connected() -> None:
    """7.2 Move with Barricade: re-placed connected to the operative, not within 2" of other
    equipment terrain, access points or Accessible terrain; no territory restriction."""
    from engine.rules.equipment.restrictions import portable_barricade_spots
    from engine.rules.equipment.shapes import connected

    op = Placement(18, 8)  # in territory B: still allowed
    spots = portable_barricade_spots(BARE, op)
    assert len(spots) == 4 and spots == sorted(spots)
    for x, y, a in spots:
        assert connected(op, equipment_feature("portable_barricade", x, y, a, "pb"))
    # Other equipment terrain 1" east of the base rules out the spots near it.
    wire = equipment_feature("razor_wire", 20.5, 8, 90, "wire")
    near = portable_barricade_spots(BARE, op, [wire])
    assert len(near) < 4 and all(x < 18.5 for x, _, _ in near)
    # Against the Vantage platform's edge the barricade would overlap terrain.
    assert len(portable_barricade_spots(BARE, Placement(22, 9.3))) < 4


def test_render_shows_equipment_categories() -> None:
    from engine.geometry.render import terrain_category

    kz = BARE.with_terrain(
        (
            equipment_feature("razor_wire", 10, 5, 90, "wire"),
            equipment_feature("ladder", 22, 9.87, 0, "ladder"),
        )
    )
    n = len(BARE.parts)
    assert terrain_category(kz, n) == "Obstructing (razor wire)"
    assert terrain_category(kz, n + 1) == "Ladder"


# -------------------------------------------------------------------------------------------
# Terrain behaviour of each item (4.5, 4.6)


def _behind(kind: str) -> tuple[Killzone, Placement, Placement]:
    """``kind`` across the line between a shooter at (3, 16) and a target at (10, 16), 0.5"
    in front of the target's base (radius 0.63")."""
    kz = BARE.with_terrain((equipment_feature(kind, 8.87, 16, 90, "item"),))
    return kz, Placement(3, 16), Placement(10, 16)


def test_light_barricade_gives_cover() -> None:
    # 4.5: intervening terrain within the target's control range puts it in cover.
    from engine.geometry.sight import in_cover

    kz, shooter, target = _behind("light_barricade")
    assert in_cover(kz, target, shooter) and not in_cover(BARE, target, shooter)
    assert not obscured(kz, target, shooter)  # Light never obscures (4.6)


def test_portable_barricade_is_light_protective_and_portable() -> None:
    # 7.2: Light + Protective + Portable; as Light terrain it gives cover like a light one
    # (Protective and Portable are carried for the attack rules).
    from engine.geometry.sight import in_cover

    kz, shooter, target = _behind("portable_barricade")
    n = len(BARE.parts)
    assert kz.has_type(n, TerrainType.PROTECTIVE) and kz.has_type(n, TerrainType.PORTABLE)
    assert in_cover(kz, target, shooter)


def test_razor_wire_is_exposed_never_cover() -> None:
    # 4.6 Exposed: never intervening for cover or obscured.
    from engine.geometry.sight import in_cover

    kz, shooter, target = _behind("razor_wire")
    assert not in_cover(kz, target, shooter) and not obscured(kz, target, shooter)


def test_ladder_is_insignificant_and_exposed() -> None:
    """4.6: an Insignificant + Exposed ladder blocks no sight line, gives no cover, and a base
    moves over it as over open floor (straight 4" cost 4")."""
    from engine.geometry.sight import in_cover

    kz, shooter, target = _behind("ladder")
    assert visible(kz, shooter, target) and not in_cover(kz, target, shooter)
    path = shortest_path(kz, Placement(7, 16), (11, 16))
    assert path is not None and path.cost == 4 and len(path.increments) == 1


# -------------------------------------------------------------------------------------------
# Mines along a move


def test_mines_go_off_at_the_first_place_within_control_range_mid_move() -> None:
    """7.2 Mines: the first time the mine is within an operative's control range, also in
    the middle of a move. A 32 mm base (radius 0.63") moving east along y = 5 from x 5 meets
    the 1" control range of a 20 mm mine (radius 0.394") at (10, 5) when its centre is
    2.024" from the mine's: x = 7.976, so at the first checked position past it, x = 8.0
    (positions every 0.05")."""
    from engine.rules.equipment.shapes import first_within_marker_range

    path = check_path(BARE, Placement(5, 5), [(14, 5)], move=10)
    hit = first_within_marker_range(BARE, path, (10, 5))
    assert hit is not None and (hit.x, hit.y, hit.elevation) == (8.0, 5.0, 0.0)
    # A move that keeps more than 1" away never sets it off.
    away = check_path(BARE, Placement(5, 8), [(14, 8)], move=10)
    assert first_within_marker_range(BARE, away, (10, 5)) is None


def test_marker_control_range_matches_objective_rule_for_40mm() -> None:
    """The general marker rule gives the objective-marker answer for a 40 mm marker (4.8)."""
    from engine.geometry.sight import marker_in_control_range, objective_in_control_range

    marker = BARE.objectives[0]
    for x in (12.0, 13.0, 13.2, 13.3):
        op = Placement(x, 18)
        assert marker_in_control_range(BARE, op, marker.position, 40.0) == (
            objective_in_control_range(BARE, op, marker)
        )


def _random_equipment(kz: Killzone, seed: int, count: int) -> tuple[FeatureSpec, ...]:
    """``count`` equipment terrain items set up by A and B in turn at candidate spots picked
    with ``seed`` (ladders included: they stand against the low parts they may climb)."""
    import random

    rng = random.Random(seed)
    kinds = ("light_barricade", "heavy_barricade", "razor_wire", "ladder", "portable_barricade")
    feats: list[FeatureSpec] = []
    for k in range(count * 3):
        if len(feats) == count:
            break
        player = "AB"[k % 2]
        kind = rng.choice(kinds)
        spots = equipment_spots(
            kz, kind, kz.territories[player], kz.drop_zones[player], tuple(feats)
        )
        if spots:
            x, y, a = rng.choice(spots)
            feats.append(equipment_feature(kind, x, y, a, f"{player} {kind} {k}"))
    return tuple(feats)


@pytest.mark.parametrize(
    ("name", "seed", "count", "base"),
    [
        ("open_ruins", 1, 4, 32.0),
        ("open_ruins", 2, 8, 40.0),
        ("open_ruins", 3, 10, 25.0),
        ("close_quarters", 4, 6, 32.0),
    ],
)
def test_equipment_graphs_derive_exactly_at_random_spots(
    name: str, seed: int, count: int, base: float
) -> None:
    """7.2 equipment terrain at random candidate spots: the graph derived from the layout's
    (only the links near the items computed again, the rest kept with their ladder flags
    set again near a new ladder) is the full build, node for node and link for link in the
    same order; so is a graph derived from that one with one item taken away."""
    kz = load_killzone(name)
    feats = _random_equipment(kz, seed, count)
    assert len(feats) == count
    with_kit = kz.with_terrain(feats)
    derived = MoveGraph.derive(move_graph(kz, base), with_kit)
    assert _signature(derived) == _signature(MoveGraph.build(with_kit, base))
    fewer = kz.with_terrain(feats[:-1])
    again = MoveGraph.derive(derived, fewer)
    assert _signature(again) == _signature(MoveGraph.build(fewer, base))


def test_ladders_against_low_terrain_derive_exactly() -> None:
    """7.2 Ladders against climbable terrain on the open ruins (each player's barricades,
    razor wire and a ladder at the middle of their candidate spots, as the movement benchmark
    sets them up): the links over the terrain a ladder stands against keep their geometry
    and get the ladder flag, exactly as a full build gives them."""
    feats: list[FeatureSpec] = []
    for player in ("A", "B"):
        terr, dz = RUINS.territories[player], RUINS.drop_zones[player]
        for kind in ("light_barricade", "razor_wire", "heavy_barricade", "ladder"):
            spots = equipment_spots(RUINS, kind, terr, dz, tuple(feats))
            x, y, a = spots[len(spots) // 2]
            feats.append(equipment_feature(kind, x, y, a, f"{player} {kind}"))
    kz = RUINS.with_terrain(tuple(feats))
    for base in (32.0, 40.0):
        derived = MoveGraph.derive(move_graph(RUINS, base), kz)
        built = MoveGraph.build(kz, base)
        assert _signature(derived) == _signature(built)
        assert any(link.ladder for out in built._out for _, _, link in out)
