"""Distances around walls (rules ``rules/KT24.md`` 9.3, close quarters) taken one pair at a
time reuse each point's legs to the wall corners (cached per point on the killzone value):
the answers are those of the all-pairs computation, which computes every leg afresh."""

from __future__ import annotations

import random

import pytest

from engine.geometry import Placement, load_killzone
from engine.geometry.distances import _distance_matrices, distance_around_walls
from engine.geometry.sight_lines import _find_wall_ends, _wall_ends
from engine.rules.equipment.shapes import equipment_feature

CQ = load_killzone("close_quarters")


@pytest.mark.parametrize("opened", [0, 2, 4])
def test_distance_around_walls_equals_the_all_pairs_routes(opened: int) -> None:
    """9.3: the shortest route around walls between base centres, less both radii; the
    same float whichever way it is computed (the same legs, sums and minima), asked twice
    (the second time from the per-point cache) and in both directions."""
    kz = CQ.with_open_hatchways(sorted(CQ.hatchways)[:opened])
    rng = random.Random(opened)
    ops = [
        Placement(rng.uniform(0.5, kz.width - 0.5), rng.uniform(0.5, kz.depth - 0.5))
        for _ in range(14)
    ]
    ops += [ops[0], Placement(ops[1].x, ops[1].y, elevation=2.0)]
    dist, around = _distance_matrices(kz, ops)
    for _ in range(2):
        for i, a in enumerate(ops):
            for j, b in enumerate(ops):
                if i != j:
                    assert distance_around_walls(kz, a, b) == around[i, j]
    assert (around > dist + 1).any()  # some routes bend around walls


def test_wall_ends_of_terrain_variants_are_the_layouts() -> None:
    """9.3 wall ends are made of the Wall parts alone; equipment terrain is never Wall
    (7.2), so a killzone with equipment has the wall ends of its hatchway state, shared from
    the layout, and they are those computed afresh."""
    feats = (equipment_feature("razor_wire", 3.5, 3.5, 0, "rw"),)
    opened = sorted(CQ.hatchways)[:1]
    for kz in (
        CQ.with_terrain(feats),
        CQ.with_terrain(feats).with_open_hatchways(opened),
        CQ.with_open_hatchways(opened),
        CQ,
    ):
        got = _wall_ends(kz)
        want = _find_wall_ends(kz)
        assert [(i, c, p.wkb) for i, p, c in got] == [(i, c, p.wkb) for i, p, c in want]
    assert len(_wall_ends(CQ)) != len(_wall_ends(CQ.with_open_hatchways(opened)))
