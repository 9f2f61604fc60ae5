"""The fast candidate-spot search for universal equipment (rules ``rules/KT24.md`` 7.2)
gives exactly the spots of the first, slow implementation (``tests/equipment_spots_reference``)
on both shipped layouts, for every kind, with several sets of equipment already set up."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from engine.geometry import Killzone, load_killzone
from engine.geometry.extra_terrain import FeatureSpec
from engine.geometry.model import quantise
from engine.rules.equipment.restrictions import (
    _footprints,
    _grid,
    _ladder_candidates,
    _quantised,
    equipment_footprint,
    equipment_spots,
)
from engine.rules.equipment.shapes import KINDS, MARKER_KINDS, equipment_feature
from tests.equipment_spots_reference import reference_footprints, reference_spots

LAYOUTS = {name: load_killzone(name) for name in ("open_ruins", "close_quarters")}


def _placed(
    kz: Killzone, count: int
) -> tuple[tuple[FeatureSpec, ...], tuple[tuple[float, float], ...]]:
    """``count`` items set up alternately by A and B at their reference spots (a spread of
    indices), and two equipment markers."""
    feats: list[FeatureSpec] = []
    kinds = ("light_barricade", "razor_wire", "heavy_barricade", "ladder", "portable_barricade")
    k = 0
    while len(feats) < count and k < 20:
        player = "AB"[k % 2]
        kind = kinds[k % len(kinds)]
        k += 1
        terr, dz = kz.territories[player], kz.drop_zones[player]
        spots = reference_spots(kz, kind, terr, dz, tuple(feats))
        if spots:
            x, y, a = spots[(5 * k) % len(spots)]
            feats.append(equipment_feature(kind, x, y, a, f"{player} {kind} {k}"))
    markers = ((4.5, 6.5), (25.5, 14.5)) if count else ()
    return tuple(feats), markers


@pytest.mark.parametrize("name", sorted(LAYOUTS))
@pytest.mark.parametrize("count", [0, 2, 5])
def test_equipment_spots_are_those_of_the_reference_search(name: str, count: int) -> None:
    """7.2 placement restrictions: the vectorised search must choose the very spots the
    one-footprint-at-a-time search chose (same candidates, same checks, same spread), so
    the agents' choices and every recorded game stay the same."""
    kz = LAYOUTS[name]
    others, markers = _placed(kz, count)
    for player in ("A", "B"):
        terr, dz = kz.territories[player], kz.drop_zones[player]
        for kind in KINDS:
            fast = equipment_spots(kz, kind, terr, dz, others, markers)
            slow = reference_spots(kz, kind, terr, dz, others, markers)
            assert fast == slow, (name, count, player, kind)
            few = equipment_spots(kz, kind, terr, dz, others, markers, limit=3)
            assert few == reference_spots(kz, kind, terr, dz, others, markers, limit=3)


@pytest.mark.parametrize("kind", KINDS)
def test_candidate_footprints_are_the_placement_footprints(kind: str) -> None:
    """Each footprint built at once is the polygon ``equipment_footprint`` builds (the same
    corners, in the same order, as the same floats), so every check answers the same."""
    kz = LAYOUTS["open_ruins"]
    if kind == "ladder":
        cands = _ladder_candidates(kz)
    else:
        angles = (0.0,) if kind in MARKER_KINDS else (0.0, 90.0)
        cands = [(x, y, a) for x, y in _grid(kz.board, 0.5) for a in angles]
        cands += [(x + 0.0005, y + 0.0015, a) for x, y, a in cands[::7]]  # off the grid
    fast = [shapely.to_wkb(s) for s in _footprints(kind, cands)]
    slow = [shapely.to_wkb(s) for s in reference_footprints(kind, cands)]
    assert fast == slow
    assert shapely.to_wkb(equipment_footprint(kind, *cands[0])) == fast[0]


def test_quantised_arrays_round_as_quantise() -> None:
    """The array rounding to the 0.001" grid gives the floats ``quantise`` gives, ties
    included (half to even, as ``round``)."""
    rng = np.random.default_rng(14)
    values = np.concatenate(
        [
            rng.uniform(-40, 40, 20_000),
            [-1e-17, -0.0004, 0.0004, -0.0],
            np.arange(-30_000, 30_001) * 0.001,
            (np.arange(-3_000, 3_001) + 0.5) * 0.001,
        ]
    )
    assert [repr(v) for v in _quantised(values).tolist()] == [
        repr(quantise(v)) for v in values.tolist()
    ]  # repr tells -0.0 from 0.0
