"""The answers the movement queries keep on their graph (``MoveGraph.memo``) and the cheaper
checks of issue 29 give exactly the answers computed afresh.

Why they must agree: every memo holds a pure function of the values in its key (the graph's
killzone and base size, points, placements, the action and its distance), so a later query
asking the same question gets the same answer; the quick checks (a link clear of a zone's
disc, the plain cost of a straight move) only skip work whose answer they already know. The
tests ask the same random questions on both shipped killzones with every memo emptied first
(the answers of a fresh graph) and then again in another order with the memos shared, and
compare the shortcuts with the computations they replace.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest

from engine.geometry import Killzone, Placement, load_killzone
from engine.geometry.move_destinations import _plain_cost, reachable_with_costs
from engine.geometry.move_paths import shortest_path
from engine.geometry.move_query import MoveError, _Query, max_move
from engine.geometry.move_values import FREE_DROP, _Link
from engine.geometry.movement import move_graph
from tests.test_move_destinations import _queries, _random_place, _spots

LAYOUTS = ["open_ruins", "close_quarters"]


def _fresh(kz: Killzone, base_mm: float) -> None:
    """Empty every memo of the killzone's graph for ``base_mm`` bases."""
    move_graph(kz, base_mm)._memo.clear()


def _questions(seed: int, kz: Killzone, count: int) -> Iterator[dict[str, object]]:
    """Random movement questions (keyword arguments of the queries): a mover, enemies (some
    close), friends, an action and its distance, and listing spots."""
    for q, spots in _queries(seed, kz, count):
        yield {
            "mover": q.mover,
            "spots": spots,
            "action": q.action,
            "enemies": list(q.enemies),
            "friends": list(q.friends),
            "max_cost": q.limit,
        }


def _path_answer(kz: Killzone, ask: dict[str, object], point: tuple[float, ...]) -> object:
    """``shortest_path`` to ``point`` as a comparable value (the path, ``None`` or the
    error's message)."""
    try:
        return shortest_path(
            kz,
            ask["mover"],  # type: ignore[arg-type]
            point,
            action=ask["action"],  # type: ignore[arg-type]
            enemies=ask["enemies"],  # type: ignore[arg-type]
            friends=ask["friends"],  # type: ignore[arg-type]
            max_cost=ask["max_cost"],  # type: ignore[arg-type]
        )
    except MoveError as exc:
        return ("refused", str(exc))


def _reach_answer(kz: Killzone, ask: dict[str, object]) -> object:
    return reachable_with_costs(
        kz,
        ask["mover"],  # type: ignore[arg-type]
        ask["spots"],  # type: ignore[arg-type]
        action=ask["action"],  # type: ignore[arg-type]
        enemies=ask["enemies"],  # type: ignore[arg-type]
        friends=ask["friends"],  # type: ignore[arg-type]
        max_cost=ask["max_cost"],  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("layout", LAYOUTS)
def test_queries_sharing_graph_memos_answer_as_fresh_graphs_do(layout: str) -> None:
    """Listing destinations and searching paths to a few of the spots, first each with the
    graph's memos emptied, then all again in reverse order with the memos kept (and a third
    time, every answer now from the memos): the same reached spots and costs, the same paths
    (points, increments, cost) and the same refusals."""
    kz = load_killzone(layout)
    asks = list(_questions(29, kz, 24))
    fresh: list[tuple[object, list[object]]] = []
    for ask in asks:
        _fresh(kz, ask["mover"].base_mm)  # type: ignore[attr-defined]
        reach = _reach_answer(kz, ask)
        paths = []
        for spot in ask["spots"][::5]:  # type: ignore[index]
            _fresh(kz, ask["mover"].base_mm)  # type: ignore[attr-defined]
            paths.append(_path_answer(kz, ask, spot))
        fresh.append((reach, paths))
    for _ in range(2):
        for ask, (reach, paths) in reversed(list(zip(asks, fresh, strict=True))):
            assert _reach_answer(kz, ask) == reach
            got = [_path_answer(kz, ask, spot) for spot in ask["spots"][::5]]  # type: ignore[index]
            assert got == paths
    found = sum(isinstance(p, tuple) is False and p is not None for _, ps in fresh for p in ps)
    assert found > 10  # paths were found, not only refusals
    assert sum(len(r) for r, _ in fresh) > 30  # type: ignore[arg-type]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_same_search_from_another_start_keeps_its_own_answers(layout: str) -> None:
    """Memos are keyed by value: an operative moved 0.001" or an enemy moved asks another
    question, whose answer is its own (equal to a fresh graph's), never the earlier one's."""
    kz = load_killzone(layout)
    rng = random.Random(5)
    checked = 0
    for _ in range(12):
        me = _random_place(rng, kz, 32.0)
        enemy = Placement(round(me.x + 2.2, 3), round(me.y + 0.4, 3), 32.0, me.elevation)
        for mover, foe in (
            (me, enemy),
            (me.moved(me.x + 0.001, me.y), enemy),
            (me, enemy.moved(enemy.x + 0.5, enemy.y)),
        ):
            ask = {
                "mover": mover,
                "spots": _spots(rng, mover, 6.0, kz),
                "action": "reposition",
                "enemies": [foe],
                "friends": [],
                "max_cost": 6.0,
            }
            warm = _reach_answer(kz, ask)
            _fresh(kz, 32.0)
            assert _reach_answer(kz, ask) == warm
            checked += 1
    assert checked == 36


@pytest.mark.parametrize("layout", LAYOUTS)
def test_zone_checks_skipping_clear_zones_agree_with_checking_every_zone(layout: str) -> None:
    """``_Query.zones_ok`` first skips the zones on neither of the link's levels and those
    whose disc the link keeps clear of (by 1e-9" more than the disc's own test): such a zone
    can neither be entered nor hold either end, so the answer is the one of checking every
    zone in turn (the loop it replaced, below), for Charges (zones that may be entered only
    to finish there) as for the other actions."""
    kz = load_killzone(layout)
    refused = allowed = 0
    for q, spots in _queries(41, kz, 30):
        rng = random.Random(len(spots))
        points = [(q.start_level, q.start)]
        for x, y, z in spots:
            lvl = q.g.level_at(x, y, z)
            if lvl is not None:
                points.append((lvl.index, (round(x, 3), round(y, 3))))
        for _ in range(40):
            (lu, pu), (lv, pv) = rng.choice(points), rng.choice(points)
            want = _zones_ok_every_zone(q, lu, pu, lv, pv)
            assert q.zones_ok(lu, pu, lv, pv) == want
            refused += not want
            allowed += want
    assert refused > 20 and allowed > 20


def _zones_ok_every_zone(
    q: _Query, lu: int, pu: tuple[float, float], lv: int, pv: tuple[float, float]
) -> bool:
    """The zone check as it was: every zone tested in turn (the reference)."""
    in_zone, crosses_zone = q.zone_contains, q.zone_crosses
    for zone in q.zones:
        if zone.final_only:
            in_v = zone.level == lv and in_zone(zone, pv)
            if not in_v and (
                (zone.level == lu and in_zone(zone, pu))
                or ((zone.level == lu or zone.level == lv) and crosses_zone(zone, lu, pu, lv, pv))
            ):
                return False
        elif (zone.level == lu or zone.level == lv) and crosses_zone(zone, lu, pu, lv, pv):
            return False
    return True


def test_plain_move_cost_is_the_cost_of_its_link() -> None:
    """A straight move that climbs, drops and crosses nothing costs its length rounded up to
    a whole inch, 0.001" over an inch staying at the inch below (3.3): ``_plain_cost`` gives
    the very float a ``move`` link's cost gives, including at and around whole inches."""
    rng = random.Random(3)
    lengths = [0.0, 0.0005, 0.001, 0.0011, 1.0, 1.001, 1.0011, 2.999, 3.0, 6.0011, 9.0]
    lengths += [rng.uniform(0.0, 10.0) for _ in range(2000)]
    lengths += [k + d for k in range(10) for d in (-1e-9, 0.0, 1e-9, 0.001, 0.001 + 1e-12)]
    for length in lengths:
        if length < 0:
            continue
        assert _plain_cost(length) == _Link("move", length).cost(FREE_DROP)[0], length


def test_charge_zones_come_from_each_enemys_kept_zones() -> None:
    """The zones of a query are assembled from each enemy's zones kept on the graph: the
    same zones, in the same order, as a fresh graph makes them, for a Reposition (bases and
    control ranges) and a Charge (control ranges that may be entered to finish)."""
    kz = load_killzone("open_ruins")
    rng = random.Random(8)
    g = move_graph(kz, 32.0)
    for _ in range(10):
        me = _random_place(rng, kz, 32.0)
        enemies = [_random_place(rng, kz, 32.0) for _ in range(4)]
        enemies = [e for e in enemies if math.dist((e.x, e.y), (me.x, me.y)) > 3.0]
        for action in ("reposition", "charge"):
            try:
                warm = _Query(kz, g, me, action, enemies, [], max_move(action)).zones
            except MoveError:
                continue
            g._memo.clear()
            assert _Query(kz, g, me, action, enemies, [], max_move(action)).zones == warm
