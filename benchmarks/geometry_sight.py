"""Benchmarks of the killzone sight queries; prints figures (nothing is asserted).

Run: ``python benchmarks/geometry_sight.py [--battles N]``.

- All pairs (visible, control range, in cover, obscured) for 10 vs 10 operatives on the
  ``open_ruins`` layout: median ms over every ordered pair of the 20 operatives.
- Single queries on open ground: ``visible``, ``targeting`` (cover + obscured), median µs.
- **The battle distribution**: the arguments of every ``visible``, ``within_control_range``,
  ``targeting`` and ``valid_target`` call made while playing a few seeded battles (random and
  heuristic agents, the default matchup, open ruins and close quarters), replayed and timed
  on the fast path (the functions the engine calls) and on the numpy reference
  (``sight._visible_reference`` and the others): mean µs per call, and a check that both give
  the same answers.

Operatives of the first two parts are placed at seeded random points on open ground (no base
over terrain).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import shapely

from engine.agents import make_agent
from engine.game.drivers import SeededDice, play
from engine.geometry import (
    Killzone,
    Placement,
    load_killzone,
    move_destinations,
    move_paths,
    move_query,
    sight,
)
from engine.geometry.sight import _parts, all_pairs, targeting, visible
from engine.rulesets import new_game
from engine.teams import load_builtin_team

LAYOUTS = ("open_ruins", "close_quarters")
TEAMS = ("kasrkin", "legionaries")
_MOVE_MODULES = (move_query, move_paths, move_destinations)
QUERIES = ("visible", "within_control_range", "targeting", "valid_target")


def open_ground(kz: Killzone, n: int, seed: int) -> list[Placement]:
    rng = random.Random(seed)
    out: list[Placement] = []
    while len(out) < n:
        p = Placement(rng.uniform(1, kz.width - 1), rng.uniform(1, kz.depth - 1))
        base = p.footprint()
        if len(kz.parts_near(base, 0.05)):
            continue
        if any(shapely.distance(base, q.footprint()) < 0.1 for q in out):
            continue
        out.append(p)
    return out


def median(fn: Callable[[], object], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


REFERENCE: dict[str, Callable[..., Any]] = {
    "visible": sight._visible_reference,
    "within_control_range": sight._within_control_range_reference,
    "targeting": sight._targeting_reference,
    "valid_target": sight._valid_target_reference,
}


def record_battle_calls(battles: int) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    """Play ``battles`` seeded battles per agent kind (random, heuristic), alternating the
    layouts, and return the sight calls the engine made: ``(query, args, kwargs)``."""
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    originals = {name: getattr(sight, name) for name in QUERIES}

    def recorder(name: str) -> Callable[..., Any]:
        fn = originals[name]

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            calls.append((name, args, kwargs))
            return fn(*args, **kwargs)

        return wrapped

    wrappers = {name: recorder(name) for name in QUERIES}
    kzs = {name: load_killzone(name) for name in LAYOUTS}
    rosters = [load_builtin_team(t).default() for t in TEAMS]
    for name, w in wrappers.items():
        setattr(sight, name, w)
    for module in _MOVE_MODULES:  # the movement code calls it by its own name
        module.within_control_range = wrappers["within_control_range"]  # type: ignore[attr-defined]
    try:
        for agent in ("random", "heuristic"):
            for seed in range(battles):
                kz = kzs[LAYOUTS[seed % len(LAYOUTS)]]
                s = new_game(kz, rosters[0], rosters[1])
                agents = {"A": make_agent(agent, 2 * seed), "B": make_agent(agent, 2 * seed + 1)}
                play(s, agents, SeededDice(seed))
    finally:
        for name, fn in originals.items():
            setattr(sight, name, fn)
        for module in _MOVE_MODULES:
            module.within_control_range = originals["within_control_range"]  # type: ignore[attr-defined]
    return calls


def battle_distribution(battles: int) -> None:
    calls = record_battle_calls(battles)
    by_query: dict[str, list[tuple[tuple[Any, ...], dict[str, Any]]]] = defaultdict(list)
    for name, args, kwargs in calls:
        by_query[name].append((args, kwargs))
    print(
        f"battle distribution: {len(calls)} sight calls recorded in {battles} random and "
        f"{battles} heuristic battles (kasrkin v legionaries, {', '.join(LAYOUTS)})"
    )
    for name in QUERIES:
        todo = by_query[name]
        fast, ref = getattr(sight, name), REFERENCE[name]
        same = all(fast(*a, **k) == ref(*a, **k) for a, k in todo)
        times = {}
        for label, fn in (("fast", fast), ("reference", ref)):
            best = float("inf")
            for _ in range(3):
                t = time.perf_counter()
                for a, k in todo:
                    fn(*a, **k)
                best = min(best, time.perf_counter() - t)
            times[label] = best / max(len(todo), 1) * 1e6
        print(
            f"  {name}: {len(todo)} calls, fast {times['fast']:.0f} µs, reference "
            f"{times['reference']:.0f} µs per call ({times['reference'] / times['fast']:.1f}x), "
            f"same answers: {same}"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=2, help="battles per agent kind")
    args = ap.parse_args()
    kz = load_killzone("open_ruins")
    _parts(kz)  # the per-killzone arrays are built once, like the STRtree
    print(f"layout {kz.name}: {len(kz.parts)} parts in {len(kz.features)} features")
    for seed in (1, 2, 3):
        ops = open_ground(kz, 20, seed)
        ap_ = all_pairs(kz, ops)
        t = median(lambda ops=ops: all_pairs(kz, ops), 31)
        seen = int(ap_.visible.sum()) - 20
        print(
            f"all pairs, 10 vs 10 (380 ordered pairs, {seen} visible), seed {seed}: "
            f"median {t * 1e3:.2f} ms"
        )
    ops = open_ground(kz, 20, 1)
    for label, vis, tgt in (
        ("fast", visible, targeting),
        ("reference", sight._visible_reference, sight._targeting_reference),
    ):
        tv = median(lambda vis=vis: [vis(kz, ops[0], o) for o in ops[1:]], 31) / 19
        tt = median(lambda tgt=tgt: [tgt(kz, ops[0], o) for o in ops[1:]], 31) / 19
        print(
            f"open ground, {label}: visible median {tv * 1e6:.0f} µs per call; "
            f"targeting: {tt * 1e6:.0f} µs per call"
        )
    battle_distribution(args.battles)


if __name__ == "__main__":
    main()
