"""Candidate spots for universal equipment (rules ``rules/KT24.md`` 7.2) on the terrain and
hatchway variants of a layout: the checks against the layout's own parts are remembered on
the layout and shared by its variants, those against added parts are computed each time, and
the spots are still exactly those of the one-footprint-at-a-time reference search."""

from __future__ import annotations

import pytest

from engine.geometry import load_killzone
from engine.rules.equipment.restrictions import equipment_spots
from engine.rules.equipment.shapes import KINDS
from tests.equipment_spots_reference import reference_spots
from tests.test_equipment_spots_fast import _placed

LAYOUTS = {name: load_killzone(name) for name in ("open_ruins", "close_quarters")}


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_spots_on_variants_are_those_of_the_reference_search(name: str) -> None:
    """7.2: equipment set up earlier is terrain of the killzone the next item is placed on
    (its parts after the layout's), and a hatchway's state moves no part; the same
    restrictions give the same spots whichever variant was searched first, with the placed
    equipment named as other equipment or not."""
    layout = LAYOUTS[name]
    placed, markers = _placed(layout, 5)
    cases = [(layout, placed)]
    for feats in (placed[:2], placed):
        kz = layout.with_terrain(feats)
        cases += [(kz, feats), (kz, ())]
        if layout.hatchways:
            cases.append((kz.with_open_hatchways(sorted(layout.hatchways)[:2]), feats))
    for kz, others in cases:
        for player in ("A", "B"):
            terr, dz = kz.territories[player], kz.drop_zones[player]
            for kind in KINDS:
                fast = equipment_spots(kz, kind, terr, dz, others, markers)
                slow = reference_spots(kz, kind, terr, dz, others, markers)
                assert fast == slow, (name, len(kz.parts), len(others), player, kind)
