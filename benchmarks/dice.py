"""Benchmarks of the dice core; prints figures (nothing is asserted).

Run: ``python benchmarks/dice.py`` (add ``--quick`` for fewer repetitions).

1. Exact shoot distribution, 4 attack dice vs 3 defence dice, each single weapon rule:
   median microseconds per call, cold (every cache emptied before each call), with warm
   combinatorial tables (only the per-profile attack-roll memo emptied; no result cache), and
   with the result cache for a repeated profile.
2. Exact optimal fight, NvN with every die able to succeed (Hit 2+), 24 wounds each, a fresh
   resolver per call: median milliseconds.
3. Sampling: shooting attacks resolved per second, vectorised, one million at a time.
"""

from __future__ import annotations

import importlib
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

from engine.dice import AttackProfile, Fighter, Target, clear_caches, fight, shoot
from engine.dice.sample import sample_fight, sample_shoot

attack = importlib.import_module("engine.dice.attack")

RULES = [
    "",
    "Accurate 1",
    "Balanced",
    "Brutal",
    "Ceaseless",
    "Devastating 2",
    "Lethal 5+",
    "Piercing 1",
    "Piercing Crits 1",
    "Punishing",
    "Relentless",
    "Rending",
    "Saturate",
    "Severe",
    "Stun",
    "Hot",
    "Ceaseless, Balanced",
]


def median_time(
    fn: Callable[[], object], repeats: int, setup: Callable[[], None] | None = None
) -> float:
    samples = []
    for _ in range(repeats):
        if setup is not None:
            setup()
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def once(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def bench_shoot(repeats: int) -> None:
    print("Exact shoot, 4 attack dice (Hit 3+, 3/4) vs Save 3+ in cover, 12 wounds: median µs/call")
    print(f"{'rule':24s} {'cold':>8s} {'warm tables':>12s} {'cached':>8s}")
    target = Target(save=3, wounds=12, in_cover=True)
    colds, warms = [], []
    for rules in RULES:
        profile = AttackProfile.parse(4, "3+", "3/4", rules)

        def call(profile: AttackProfile = profile) -> object:
            return shoot(profile, target, cache=False)

        def cached(profile: AttackProfile = profile) -> object:
            return shoot(profile, target)

        cold = median_time(call, repeats, clear_caches)
        warm = median_time(call, repeats, attack._attack_roll.cache_clear)
        hot = median_time(cached, repeats)
        colds.append(cold)
        warms.append(warm)
        print(f"{rules or '(none)':24s} {cold * 1e6:8.0f} {warm * 1e6:12.0f} {hot * 1e6:8.0f}")
    cold_median, warm_median = statistics.median(colds) * 1e6, statistics.median(warms) * 1e6
    print(f"{'median over rules':24s} {cold_median:8.0f} {warm_median:12.0f}")
    print()


def bench_fight(repeats: int) -> None:
    print(
        "Exact optimal fight (Hit 2+, damage 4/5 vs 3/4, 24 wounds each, fresh resolver): median ms"
    )
    for n in (4, 6, 8):
        a = Fighter(AttackProfile.parse(n, "2+", "4/5"), 24)
        b = Fighter(AttackProfile.parse(n, "2+", "3/4"), 24)
        t = median_time(lambda a=a, b=b: fight(a, b, reuse=False), repeats, clear_caches)
        print(f"  {n}v{n}: {t * 1e3:8.2f} ms")
    # The game reuses one resolver per pair of damage profiles: a later fight with other
    # wounds finds most positions already solved.
    a = Fighter(AttackProfile.parse(8, "2+", "4/5"), 24)
    b = Fighter(AttackProfile.parse(8, "2+", "3/4"), 24)
    fight(a, b)
    c = Fighter(AttackProfile.parse(8, "2+", "3/4"), 23)
    t = once(lambda: fight(a, c))
    print(f"  8v8 after an 8v8 with one wound more (shared resolver): {t * 1e3:8.2f} ms")
    a = Fighter(AttackProfile.parse(8, "2+", "4/5", "Shock"), 24)
    b = Fighter(AttackProfile.parse(8, "2+", "3/4", "Brutal"), 24)
    t = median_time(lambda: fight(a, b, reuse=False), repeats, clear_caches)
    print(f"  8v8 Shock vs Brutal: {t * 1e3:8.2f} ms")
    print()


def bench_sampling(repeats: int) -> None:
    rng = np.random.default_rng(1)
    n = 1_000_000
    print(f"Sampling, {n:,} attacks per call: attacks resolved per second")
    target = Target(save=3, wounds=12, in_cover=True)
    for rules in ("", "Ceaseless, Balanced", "Lethal 5+, Rending, Piercing Crits 1"):
        profile = AttackProfile.parse(4, "3+", "3/4", rules)
        t = median_time(lambda profile=profile: sample_shoot(profile, target, n, rng), repeats)
        print(f"  shoot {rules or '(none)':38s} {n / t / 1e6:6.2f} M/s")
    a = Fighter(AttackProfile.parse(4, "3+", "4/5"), 12)
    b = Fighter(AttackProfile.parse(4, "3+", "3/4"), 12)
    t = median_time(lambda: sample_fight(a, b, n, rng), repeats)
    print(f"  fight 4v4 optimal{'':29s} {n / t / 1e6:6.2f} M/s")


def main() -> None:
    quick = "--quick" in sys.argv
    bench_shoot(21 if quick else 201)
    bench_fight(3 if quick else 9)
    bench_sampling(3 if quick else 7)


if __name__ == "__main__":
    main()
