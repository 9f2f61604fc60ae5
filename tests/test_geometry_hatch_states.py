"""Hatchway states are cheap for movement (rules/KT24.md 9.3): memoised killzone values and
movement graphs derived from another state's graph that answer exactly as a full build."""

from __future__ import annotations

import functools
import itertools
import math
import random

import numpy as np
import pytest

from engine.geometry import Killzone, Placement, load_killzone
from engine.geometry.movement import (
    MoveError,
    MoveGraph,
    MovePath,
    candidate_destinations,
    check_path,
    move_graph,
    shortest_path,
)

CQ = load_killzone("close_quarters")
HATCHES = sorted(CQ.hatchways)


@functools.cache
def full_build(kz: Killzone, base_mm: float) -> MoveGraph:
    """``MoveGraph.build(kz, base_mm)``, built once per test process: a full build is a pure
    function of the killzone value and base size, and graphs are never changed once built, so
    the tests that compare derived graphs with a full build share one build per state (the
    killzone values of close quarters' hatchway states are memoised and live as long as CQ).
    """
    return MoveGraph.build(kz, base_mm)


def signature(g: MoveGraph) -> tuple[list[tuple[int, float, float]], list[list[tuple]]]:
    """Nodes (level, x, y) in order and every node's links in order, with their costs."""
    nodes = [(int(lv), float(x), float(y)) for lv, (x, y) in zip(g.node_level, g.xy, strict=True)]
    links = [
        [(v, w, lk.kind, lk.horizontal, lk.climb, lk.drop, lk.crossings) for v, w, lk in out]
        for out in g._out
    ]
    return nodes, links


# -------------------------------------------------------------------------------------------
# Memoised hatchway states


def test_same_open_hatchways_give_the_same_killzone_object() -> None:
    a = CQ.with_open_hatchways(HATCHES[:1])
    assert CQ.with_open_hatchways(HATCHES[:1]) is a
    assert a.hatch_root is CQ and CQ.hatch_root is None
    # From another state, the same set of names gives the same object again.
    b = CQ.with_open_hatchways(HATCHES[1:3])
    assert b.with_open_hatchways(HATCHES[:1]) is a
    assert a.with_open_hatchways([]) is CQ  # the layout as loaded
    assert a.with_open_hatchways(HATCHES[:1]) is a


def test_hatchway_states_keep_their_own_types() -> None:
    a = CQ.with_open_hatchways(HATCHES[:1])
    index = next(p.index for p in CQ.parts if CQ.features[p.feature] == HATCHES[0])
    assert a.part_types(index) != CQ.part_types(index)
    assert a._cache is not CQ._cache


def test_move_graph_is_cached_per_state_and_base_size() -> None:
    a = CQ.with_open_hatchways(HATCHES[:2])
    assert move_graph(a, 32) is move_graph(CQ.with_open_hatchways(HATCHES[:2]), 32)
    assert move_graph(a, 40) is not move_graph(a, 32)
    assert move_graph(a, 32).kz is a


# -------------------------------------------------------------------------------------------
# Derived graphs are the graphs a full build gives


@pytest.mark.parametrize("base_mm", [32.0, 40.0, 50.0])
@pytest.mark.parametrize(
    "opened",
    [HATCHES[:1], HATCHES[1:2], HATCHES[:2], HATCHES],
    ids=["one", "another", "two", "all"],
)
def test_derived_graph_is_the_full_build(base_mm: float, opened: list[str]) -> None:
    kz = CQ.with_open_hatchways(opened)
    derived = MoveGraph.derive(full_build(CQ, base_mm), kz)
    assert signature(derived) == signature(full_build(kz, base_mm))


def test_derived_from_another_derived_state_and_back() -> None:
    one = CQ.with_open_hatchways(HATCHES[:1])
    three = CQ.with_open_hatchways(HATCHES[:3])
    g_one = MoveGraph.derive(full_build(CQ, 32), one)
    g_three = MoveGraph.derive(g_one, three)
    assert signature(g_three) == signature(full_build(three, 32))
    back = MoveGraph.derive(g_three, CQ)
    assert signature(back) == signature(full_build(CQ, 32))


def test_every_state_of_close_quarters_derives_exactly() -> None:
    base = full_build(CQ, 32)
    for r in range(len(HATCHES) + 1):
        for names in itertools.combinations(HATCHES, r):
            kz = CQ.with_open_hatchways(names)
            assert signature(MoveGraph.derive(base, kz)) == signature(full_build(kz, 32))


def test_derive_from_another_layout_is_a_full_build() -> None:
    other = load_killzone("open_ruins")
    g = MoveGraph.derive(full_build(other, 32), CQ)
    assert signature(g) == signature(full_build(CQ, 32))


def test_graph_view_lists_every_link() -> None:
    g = MoveGraph.derive(full_build(CQ, 32), CQ.with_open_hatchways(HATCHES))
    nxg = g.graph
    assert nxg.number_of_nodes() == len(g.xy)
    assert nxg.number_of_edges() == sum(len(out) for out in g._out)
    u = next(k for k, out in enumerate(g._out) if out)
    v, w, link = g._out[u][0]
    assert nxg.edges[u, v]["weight"] == w and nxg.edges[u, v]["kind"] == link.kind


# -------------------------------------------------------------------------------------------
# Same answers on random queries


def _outcome(fn: object, *args: object, **kwargs: object) -> object:
    """A comparable result: the path's points and cost, None, or the error message."""
    try:
        result = fn(*args, **kwargs)  # type: ignore[operator]
    except MoveError as exc:
        return ("error", str(exc))
    if isinstance(result, MovePath):
        return (result.points, result.cost, [i.kind for i in result.increments])
    if isinstance(result, list):
        return [(p.x, p.y, p.elevation) for p in result]
    return result


def _floor_spots(g: MoveGraph, rng: random.Random, n: int) -> list[Placement]:
    out: list[Placement] = []
    floor = g.levels[0]
    while len(out) < n:
        x, y = rng.uniform(1, 29), rng.uniform(1, 21)
        if floor.strict.contains(Placement(x, y).footprint().centroid):
            out.append(Placement(x, y, base_mm=g.base_mm))
    return out


@pytest.mark.parametrize(
    ("opened", "base_mm", "seed"),
    [(HATCHES[:1], 32.0, 1), (HATCHES[2:], 40.0, 2), (HATCHES, 32.0, 3)],
)
def test_derived_and_fresh_graphs_answer_alike(
    opened: list[str], base_mm: float, seed: int
) -> None:
    kz = CQ.with_open_hatchways(opened)
    derived = MoveGraph.derive(full_build(CQ, base_mm), kz)
    fresh = full_build(kz, base_mm)
    rng = random.Random(seed)
    spots = _floor_spots(fresh, rng, 60)
    for a, b in itertools.pairwise(spots):
        ang = rng.uniform(0, 2 * math.pi)
        near = (a.x + 5 * math.cos(ang), a.y + 5 * math.sin(ang))
        for dest in ((b.x, b.y), near):
            for action, move in (("reposition", 12.0), ("dash", 6.0)):
                kw = {"action": action, "move": move}
                got = _outcome(shortest_path, kz, a, dest, graph=derived, **kw)
                assert got == _outcome(shortest_path, kz, a, dest, graph=fresh, **kw)
        # An explicit straight path, legal or not, and an enemy in the way.
        enemy = Placement((a.x + b.x) / 2, (a.y + b.y) / 2)
        for g_kwargs in ({}, {"enemies": [enemy]}):
            got = _outcome(check_path, kz, a, [(b.x, b.y)], move=30, graph=derived, **g_kwargs)
            want = _outcome(check_path, kz, a, [(b.x, b.y)], move=30, graph=fresh, **g_kwargs)
            assert got == want
    for a in spots[:6]:
        got = _outcome(candidate_destinations, kz, a, graph=derived)
        assert got == _outcome(candidate_destinations, kz, a, graph=fresh)
        assert got  # a 6" Reposition reaches somewhere


def test_move_graph_of_a_state_uses_the_nearest_cached_state() -> None:
    # A fresh copy of the layout, so that no graph is cached yet.
    kz = Killzone.from_dict(_layout_data(), source="cq-copy")
    one = kz.with_open_hatchways(HATCHES[:1])
    two = kz.with_open_hatchways(HATCHES[:2])
    g_one = move_graph(one, 32)
    assert kz._cache["movement.graphs"][32.0] is not None  # the layout's graph came first
    g_two = move_graph(two, 32)
    assert signature(g_two) == signature(full_build(two, 32))
    assert signature(g_one) == signature(full_build(one, 32))
    assert np.array_equal(g_two.xy, full_build(two, 32).xy)


def _layout_data() -> dict[str, object]:
    import tomllib

    from engine.geometry.model import _shipped_dir

    return tomllib.loads((_shipped_dir() / "close_quarters.toml").read_text(encoding="utf-8"))
