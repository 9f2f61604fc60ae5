"""Derived movement graphs compute each node's links on first use
(:mod:`engine.geometry.move_fill`); a node's links depend only on the pairs it belongs to, so
whatever order the nodes are asked for in, every node's list is the one a full build gives,
and so are the answers of path searches (rules 3.3, 7.2, 9.3)."""

from __future__ import annotations

import functools
import itertools
import math
import random

import pytest

from engine.geometry import Killzone, Placement, load_killzone
from engine.geometry.extra_terrain import FeatureSpec
from engine.geometry.graph_cache import move_graph
from engine.geometry.move_base import LazyOut
from engine.geometry.move_graph import MoveGraph
from engine.geometry.movement import MoveError, MovePath, shortest_path
from engine.rules.equipment.restrictions import equipment_spots
from engine.rules.equipment.shapes import equipment_feature

RUINS = load_killzone("open_ruins")
CQ = load_killzone("close_quarters")
KINDS = ("light_barricade", "razor_wire", "heavy_barricade", "ladder")


def _random_kit(kz: Killzone, seed: int) -> Killzone:
    """``kz`` with each player's barricades, razor wire and ladder at random legal spots
    (7.2), as agents choosing at random set them up."""
    rng = random.Random(seed)
    feats: list[FeatureSpec] = []
    for player in ("A", "B"):
        terr, dz = kz.territories[player], kz.drop_zones[player]
        for kind in KINDS:
            spots = equipment_spots(kz, kind, terr, dz, tuple(feats))
            if spots:
                x, y, a = spots[rng.randrange(len(spots))]
                feats.append(equipment_feature(kind, x, y, a, f"{player} {kind}"))
    return kz.with_terrain(tuple(feats))


@functools.cache
def _built(kz: Killzone, base_mm: float) -> MoveGraph:
    return MoveGraph.build(kz, base_mm)


def _rows(out: list[list[tuple[int, float, object]]], order: list[int]) -> dict[int, object]:
    """Each node's links, asked for one node at a time in ``order``."""
    return {u: list(out[u]) for u in order}


CASES = [
    ("open_ruins", 1, 32.0),
    ("open_ruins", 2, 40.0),
    ("close_quarters", 3, 32.0),
    ("close_quarters", 4, 50.0),
]


@pytest.mark.parametrize(("layout", "seed", "base_mm"), CASES)
def test_lazily_filled_links_equal_a_full_build_node_by_node(
    layout: str, seed: int, base_mm: float
) -> None:
    """Asking for the nodes one by one in a random order gives, for each node, the links of
    a full build in the same order (the path search breaks ties by that order)."""
    layout_kz = RUINS if layout == "open_ruins" else CQ
    kz = _random_kit(layout_kz, seed)
    derived = MoveGraph.derive(move_graph(layout_kz, base_mm), kz)
    assert isinstance(derived._out, LazyOut) and not derived._out.is_complete()
    built = _built(kz, base_mm)
    order = list(range(len(built._out)))
    random.Random(seed).shuffle(order)
    assert _rows(derived._out, order) == _rows(built._out, order)
    assert derived._out.is_complete()
    assert derived._links == built._links


def test_lazily_filled_links_of_a_hatch_state_with_equipment() -> None:
    """A hatchway state (9.3) of a killzone with equipment terrain (7.2) is derived from a
    complete graph (the layout's), leaving the lazily filled graph of the killzone with
    equipment as it was; derived from that graph instead, it is filled first. Either way the
    result equals a full build node by node."""
    kz = _random_kit(CQ, 5)
    with_kit = move_graph(kz, 32.0)
    some = list(range(0, len(with_kit.xy), 7))
    _rows(with_kit._out, some)  # part of it filled, as a game leaves it
    state = kz.with_open_hatchways(sorted(CQ.hatchways)[:2])
    derived = move_graph(state, 32.0)
    assert not with_kit.links_complete
    built = _built(state, 32.0)
    order = list(range(len(built._out)))[::-1]
    assert _rows(derived._out, order) == _rows(built._out, order)
    from_lazy = MoveGraph.derive(with_kit, state)
    assert with_kit.links_complete
    assert with_kit._out == _built(kz, 32.0)._out
    assert _rows(from_lazy._out, order) == _rows(built._out, order)


def _outcome(kz: Killzone, a: Placement, dest: tuple[float, float], g: MoveGraph) -> object:
    try:
        path = shortest_path(kz, a, dest, move=12.0, graph=g)
    except MoveError as exc:
        return ("error", str(exc))
    assert path is None or isinstance(path, MovePath)
    return None if path is None else (path.points, path.cost)


@pytest.mark.parametrize(("layout", "seed", "base_mm"), CASES)
def test_paths_on_a_lazily_filled_graph_equal_a_full_build(
    layout: str, seed: int, base_mm: float
) -> None:
    """Shortest paths (3.3) over random pairs of spots, searched on a freshly derived graph
    (its links filled as the searches reach them), equal those on a full build."""
    layout_kz = RUINS if layout == "open_ruins" else CQ
    kz = _random_kit(layout_kz, seed + 10)
    derived = MoveGraph.derive(move_graph(layout_kz, base_mm), kz)
    built = _built(kz, base_mm)
    rng = random.Random(seed)
    floor = built.levels[0]
    spots: list[Placement] = []
    while len(spots) < 50:
        x, y = rng.uniform(1, kz.width - 1), rng.uniform(1, kz.depth - 1)
        if floor.strict.contains(Placement(x, y).footprint().centroid):
            spots.append(Placement(x, y, base_mm=base_mm))
    for a, b in itertools.pairwise(spots):
        ang = rng.uniform(0, 2 * math.pi)
        for dest in ((b.x, b.y), (a.x + 6 * math.cos(ang), a.y + 6 * math.sin(ang))):
            assert _outcome(kz, a, dest, derived) == _outcome(kz, a, dest, built)
    assert not derived._out.is_complete()  # type: ignore[attr-defined]


def test_levels_added_terrain_leaves_alone_are_the_layouts() -> None:
    """A derived graph takes the layout graph's Vantage levels that no added part comes near
    (the same parts, blockers and Accessible parts make the same regions), rebuilds the
    floor (the new parts block it), and still equals a full build (7.2)."""
    kz = RUINS.with_terrain((equipment_feature("razor_wire", 15.0, 2.5, 0, "rw"),))
    layout = move_graph(RUINS, 32.0)
    derived = MoveGraph.derive(layout, kz)
    assert derived.levels[0] is not layout.levels[0]
    assert all(a is b for a, b in zip(derived.levels[1:], layout.levels[1:], strict=True))
    built = _built(kz, 32.0)
    assert list(derived._out) == list(built._out)
    assert [lvl.strict.wkb for lvl in derived.levels] == [lvl.strict.wkb for lvl in built.levels]
