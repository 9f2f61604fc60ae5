"""Benchmarks of the killzone sight queries; prints figures (nothing is asserted).

Run: ``python benchmarks/geometry_sight.py``.

- All pairs (visible, control range, in cover, obscured) for 10 vs 10 operatives on the
  ``open_ruins`` layout: median ms over every ordered pair of the 20 operatives.
- Single queries: ``visible``, ``targeting`` (cover + obscured), median µs.

Operatives are placed at seeded random points on open ground (no base over terrain).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

import shapely

from engine.geometry import Killzone, Placement, load_killzone
from engine.geometry.sight import _parts, all_pairs, targeting, visible


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


def main() -> None:
    kz = load_killzone("open_ruins")
    _parts(kz)  # the per-killzone arrays are built once, like the STRtree
    print(f"layout {kz.name}: {len(kz.parts)} parts in {len(kz.features)} features")
    for seed in (1, 2, 3):
        ops = open_ground(kz, 20, seed)
        ap = all_pairs(kz, ops)
        t = median(lambda ops=ops: all_pairs(kz, ops), 31)
        seen = int(ap.visible.sum()) - 20
        print(
            f"all pairs, 10 vs 10 (380 ordered pairs, {seen} visible), seed {seed}: "
            f"median {t * 1e3:.2f} ms"
        )
    ops = open_ground(kz, 20, 1)
    tv = median(lambda: [visible(kz, ops[0], o) for o in ops[1:]], 31) / 19
    tt = median(lambda: [targeting(kz, ops[0], o) for o in ops[1:]], 31) / 19
    print(f"visible: median {tv * 1e6:.0f} µs per call; targeting: {tt * 1e6:.0f} µs per call")


if __name__ == "__main__":
    main()
