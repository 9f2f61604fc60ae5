"""Benchmarks of movement queries; prints figures (nothing is asserted).

Run: ``python benchmarks/geometry_movement.py`` (``... listing`` for the listing figures
alone).

- Graph build time (:meth:`MoveGraph.build`) for 32 mm and 40 mm bases on ``open_ruins``.
- ``shortest_path`` for a 6" Reposition across the killzone once the graph is built: median
  and 90th percentile µs over seeded random start/destination pairs 3"-6" apart on open
  ground (both legal places to finish), split into straight (the direct line is free), detour
  and unreachable (no path within 6") queries.
- ``candidate_destinations`` for a 6" Reposition: median ms.
- The same with enemies near: 20 starts on ``open_ruins`` and on ``close_quarters``, each
  with three enemies 2"-4" away (control range limits the move; near terrain it is checked
  exactly, with sight, rules 4.2): median ms.
- Hatchway states on ``close_quarters`` (rules 9.3): the movement graph of a state built from
  scratch, derived (:meth:`MoveGraph.derive`) from the graph of a state one hatchway away
  (what a game toggling one hatch at a time pays on first use of a state) and from the
  loaded layout with every hatchway toggled; and a repeated ``with_open_hatchways`` +
  ``move_graph`` (memoised).

- Equipment terrain (rules 7.2) on both layouts: the graph with eight equipment features
  derived from the layout's graph (:meth:`MoveGraph.derive`: levels and nodes, each node's
  links computed on first use; and with every link computed) against a full build, and
  ``equipment_spots``.

- Listing destinations as a battle does (issue 29): on both layouts, 40 starts with six
  enemies and four friends standing still around the board, each listing its Reposition,
  Dash and Charge destinations (:func:`straight_reach` of 8 rays, then
  :func:`reachable_with_costs` of the listing's spots sharing one :class:`ReachMemo`) and
  searching :func:`shortest_path` to four of the spots twice (agents ask again): median
  and total ms per start, CPU time.

Goals: a 6" Reposition query under 500 µs; a hatch-state graph well under 50 ms.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import random
import statistics
import time
from collections.abc import Callable

from engine.geometry import Killzone, Placement, load_killzone
from engine.geometry.extra_terrain import FeatureSpec
from engine.geometry.movement import (
    MoveError,
    MoveGraph,
    ReachMemo,
    candidate_destinations,
    move_graph,
    reachable_with_costs,
    shortest_path,
    straight_reach,
)
from engine.rules.equipment.restrictions import equipment_spots
from engine.rules.equipment.shapes import equipment_feature


def pairs(kz: Killzone, graph: MoveGraph, n: int, seed: int) -> list[tuple[Placement, Placement]]:
    """``n`` (start, destination) pairs 3"-6" apart, both where a base can stand on the
    floor."""
    rng = random.Random(seed)
    floor = graph.levels[0]
    out: list[tuple[Placement, Placement]] = []
    while len(out) < n:
        x, y = rng.uniform(1, kz.width - 1), rng.uniform(1, kz.depth - 1)
        ang = rng.uniform(0, 2 * math.pi)
        d = rng.uniform(3, 6)
        a = Placement(x, y)
        b = Placement(x + d * math.cos(ang), y + d * math.sin(ang))
        if all(floor.strict.contains(p.footprint().centroid) for p in (a, b)):
            out.append((a, b))
    return out


def timed(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    kz = load_killzone("open_ruins")
    print(f"layout {kz.name}: {len(kz.parts)} parts in {len(kz.features)} features")
    for base in (32.0, 40.0):
        builds = [timed(functools.partial(MoveGraph.build, kz, base)) for _ in range(3)]
        g = MoveGraph.build(kz, base)
        print(
            f"graph build, {base:g} mm base: median {statistics.median(builds) * 1e3:.0f} ms "
            f"({g.graph.number_of_nodes()} nodes, {g.graph.number_of_edges()} links, "
            f"{len(g.levels)} levels)"
        )
    graph = move_graph(kz, 32.0)
    samples: dict[str, list[float]] = {"straight": [], "detour": [], "unreachable": []}
    for a, b in pairs(kz, graph, 400, seed=1):
        try:
            path = shortest_path(kz, a, b, graph=graph)
        except MoveError:
            continue
        kind = (
            "unreachable" if path is None else ("straight" if len(path.points) == 2 else "detour")
        )
        query = functools.partial(shortest_path, kz, a, b, graph=graph)
        best = min(timed(query) for _ in range(5))
        samples[kind].append(best)
    every = [t for ts in samples.values() for t in ts]
    print(
        f'shortest_path, 6" Reposition, {len(every)} queries: median '
        f"{statistics.median(every) * 1e6:.0f} µs, 90th percentile "
        f"{statistics.quantiles(every, n=10)[-1] * 1e6:.0f} µs"
    )
    for kind, ts in samples.items():
        if ts:
            print(
                f"  {kind:11s} {len(ts):4d} queries: median {statistics.median(ts) * 1e6:.0f} µs, "
                f"max {max(ts) * 1e6:.0f} µs"
            )
    starts = [a for a, _ in pairs(kz, graph, 20, seed=2)]
    counts: list[int] = []
    times: list[float] = []
    for a in starts:
        t = time.perf_counter()
        counts.append(len(candidate_destinations(kz, a, graph=graph)))
        times.append(time.perf_counter() - t)
    print(
        f'candidate_destinations, 6" Reposition, {len(starts)} starts: median '
        f"{statistics.median(times) * 1e3:.1f} ms, median {statistics.median(counts):.0f} "
        "destinations"
    )


def hatch_states() -> None:
    kz = load_killzone("close_quarters")
    names = sorted(kz.hatchways)
    states = [frozenset(c) for r in range(len(names) + 1) for c in itertools.combinations(names, r)]
    print(f"layout {kz.name}: {len(names)} hatchways, {len(states)} states")
    for base in (32.0, 40.0, 50.0):
        graphs = {s: MoveGraph.build(kz.with_open_hatchways(s), base) for s in states}
        full: list[float] = []
        one: list[float] = []
        for s in states:
            variant = kz.with_open_hatchways(s)
            full.append(
                min(timed(functools.partial(MoveGraph.build, variant, base)) for _ in range(2))
            )
            for h in names:
                other = graphs[s ^ {h}]
                one.append(
                    min(
                        timed(functools.partial(MoveGraph.derive, other, variant)) for _ in range(2)
                    )
                )
        every = kz.with_open_hatchways(names)
        all_toggled = min(
            timed(functools.partial(MoveGraph.derive, graphs[frozenset()], every)) for _ in range(3)
        )
        ms = 1e3
        print(
            f"hatch-state graph, {base:g} mm base: full build median "
            f"{statistics.median(full) * ms:.0f} ms (max {max(full) * ms:.0f}); derived from a "
            f"state one hatchway away median {statistics.median(one) * ms:.0f} ms (max "
            f"{max(one) * ms:.0f}, {len(one)} cases); all {len(names)} toggled "
            f"{all_toggled * ms:.0f} ms"
        )
    move_graph(kz.with_open_hatchways(names[:1]), 32.0)
    again = min(
        timed(lambda: move_graph(kz.with_open_hatchways(names[:1]), 32.0)) for _ in range(100)
    )
    print(f"memoised with_open_hatchways + move_graph: {again * 1e6:.0f} µs")


def with_enemies() -> None:
    for name in ("open_ruins", "close_quarters"):
        kz = load_killzone(name)
        graph = move_graph(kz, 32.0)
        rng = random.Random(3)
        floor = graph.levels[0]
        times: list[float] = []
        counts: list[int] = []
        for a, _ in pairs(kz, graph, 20, seed=4):
            enemies: list[Placement] = []
            while len(enemies) < 3:
                ang, d = rng.uniform(0, 2 * math.pi), rng.uniform(2, 4) + 2 * a.radius
                e = Placement(a.x + d * math.cos(ang), a.y + d * math.sin(ang))
                if floor.strict.contains(e.footprint().centroid) and all(
                    math.dist((e.x, e.y), (f.x, f.y)) > 2 * e.radius for f in enemies
                ):
                    enemies.append(e)
            t = time.perf_counter()
            try:
                counts.append(len(candidate_destinations(kz, a, enemies=enemies, graph=graph)))
            except MoveError:
                counts.append(0)
            times.append(time.perf_counter() - t)
        print(
            f'candidate_destinations, 6" Reposition, 3 enemies 2"-4" away, {name}, '
            f"{len(times)} starts: median {statistics.median(times) * 1e3:.1f} ms, max "
            f"{max(times) * 1e3:.0f} ms, {sum(counts)} destinations in all"
        )


def _derive_all(layout: MoveGraph, kz: Killzone) -> None:
    """Derive ``kz``'s graph from ``layout`` and compute every link."""
    MoveGraph.derive(layout, kz).complete()


def equipment() -> None:
    """Equipment terrain (7.2): each player's light barricade, razor wire, heavy barricade and
    ladder at the middle one of their candidate spots; the movement graph of the killzone
    with them derived from the layout's graph, against a full build; and the candidate spots
    of one item (memoised per killzone value after the first call)."""
    for name in ("open_ruins", "close_quarters"):
        kz = load_killzone(name)
        feats: list[FeatureSpec] = []
        spot_times: list[float] = []
        for player in ("A", "B"):
            terr, dz = kz.territories[player], kz.drop_zones[player]
            for kind in ("light_barricade", "razor_wire", "heavy_barricade", "ladder"):
                t = time.perf_counter()
                spots = equipment_spots(kz, kind, terr, dz, tuple(feats))
                spot_times.append(time.perf_counter() - t)
                if spots:
                    x, y, a = spots[len(spots) // 2]
                    feats.append(equipment_feature(kind, x, y, a, f"{player} {kind}"))
        with_kit = kz.with_terrain(tuple(feats))
        for base in (32.0, 40.0):
            layout = move_graph(kz, base)
            derive = functools.partial(MoveGraph.derive, layout, with_kit)
            build = functools.partial(MoveGraph.build, with_kit, base)
            derived = [timed(derive) for _ in range(3)]
            complete = [timed(functools.partial(_derive_all, layout, with_kit)) for _ in range(3)]
            full = [timed(build) for _ in range(3)]
            print(
                f"{name} + {len(feats)} equipment features, {base:g} mm base: graph derived "
                f"median {statistics.median(derived) * 1e3:.0f} ms (links on first use; "
                f"every link: {statistics.median(complete) * 1e3:.0f} ms), full build "
                f"{statistics.median(full) * 1e3:.0f} ms"
            )
        print(
            f"equipment_spots, {name}: median {statistics.median(spot_times) * 1e3:.1f} ms, "
            f"max {max(spot_times) * 1e3:.0f} ms"
        )


def _listing(
    kz: Killzone, me: Placement, enemies: list[Placement], friends: list[Placement]
) -> int:
    """One start's listing (see :func:`listing`); returns the number of destinations."""
    dirs = [(math.cos(2 * math.pi * k / 8), math.sin(2 * math.pi * k / 8)) for k in range(8)]
    graph = move_graph(kz, me.base_mm)
    reaches = straight_reach(kz, me, dirs, 9.0, graph=graph)
    memo = ReachMemo()
    found = 0
    for action, limit in (("reposition", 6.0), ("dash", 3.0), ("charge", 8.0)):
        spots = []
        for (ux, uy), reach in zip(dirs, reaches, strict=True):
            for d in sorted({min(limit, reach), min(reach, max(1.0, limit / 2))}):
                if d > 0.05:
                    spots.append((me.x + ux * d, me.y + uy * d, me.elevation))
        for e in enemies:
            ring = e.radius + me.radius + 0.3
            if math.hypot(e.x - me.x, e.y - me.y) <= limit + ring:
                ang = math.atan2(me.y - e.y, me.x - e.x)
                spots += [
                    (
                        e.x + ring * math.cos(ang + k * math.pi / 4),
                        e.y + ring * math.sin(ang + k * math.pi / 4),
                        e.elevation,
                    )
                    for k in (0, 1, -1)
                ]
        found += len(
            reachable_with_costs(
                kz,
                me,
                spots,
                action=action,
                enemies=enemies,
                friends=friends,
                max_cost=limit,
                graph=graph,
                memo=memo,
            )
        )
        if action == "reposition":
            for _ in range(2):
                for spot in spots[::4][:4]:
                    with contextlib.suppress(MoveError):
                        shortest_path(
                            kz,
                            me,
                            spot,
                            action=action,
                            enemies=enemies,
                            friends=friends,
                            max_cost=limit,
                            graph=graph,
                        )
    return found


def listing() -> None:
    """Destinations listed as in a battle (module docstring), CPU time per start."""
    for name in ("open_ruins", "close_quarters"):
        kz = load_killzone(name)
        graph = move_graph(kz, 32.0)
        rng = random.Random(29)
        floor = graph.levels[0]
        others: list[Placement] = []
        while len(others) < 10:
            x, y = rng.uniform(1, kz.width - 1), rng.uniform(1, kz.depth - 1)
            p = Placement(round(x, 3), round(y, 3))
            if floor.strict.contains(p.footprint().centroid) and all(
                math.dist((p.x, p.y), (o.x, o.y)) > 2 * p.radius for o in others
            ):
                others.append(p)
        enemies, friends = others[:6], others[6:]
        times: list[float] = []
        found = 0
        for a, _ in pairs(kz, graph, 40, seed=5):
            t = time.process_time()
            with contextlib.suppress(MoveError):
                found += _listing(kz, a, enemies, friends)
            times.append(time.process_time() - t)
        print(
            f"listing Reposition, Dash and Charge destinations (+ 8 path searches), {name}, "
            f"{len(times)} starts: median {statistics.median(times) * 1e3:.2f} ms, total "
            f"{sum(times) * 1e3:.0f} ms, {found} destinations"
        )


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["listing"]:
        listing()
        raise SystemExit
    main()
    hatch_states()
    with_enemies()
    equipment()
    listing()
