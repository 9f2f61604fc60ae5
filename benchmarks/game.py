"""Benchmarks of the game engine; prints figures (nothing is asserted).

Run: ``python benchmarks/game.py [--games N]``.

- Random full games per second on one core: random agents, seeded dice, the open ruins
  layout, rotating over built-in team pairs with 6 to 10 operatives (movement graphs are built
  once before timing, as a batch run keeps them for the whole batch).
- ``legal_actions()`` median and 90th percentile µs over every decision node of those games
  (computed fresh, without the per-state memo), also split by decision kind.
- ``apply`` median and 90th percentile µs over every input.

Goals (issue 5): at least 20 games/s; ``legal_actions()`` under 300 µs; ``apply`` under 100 µs.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from engine.agents import RandomAgent
from engine.game.drivers import SeededDice, ask, play
from engine.game.flow import list_actions
from engine.game.state import Chance, Decision, GameState
from engine.geometry import load_killzone
from engine.geometry.movement import move_graph
from engine.rulesets import new_game
from engine.teams import load_builtin_team

PAIRS = [
    ("kasrkin", "legionaries"),
    ("kommandos", "angels_of_death"),
    ("legionaries", "hierotek_circle"),
    ("kasrkin", "kommandos"),
]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def time_calls(
    starts: list[tuple[GameState, int]],
) -> tuple[list[float], dict[str, list[float]], list[float]]:
    """Play each ``(new battle, seed)`` to its end with random agents and seeded dice, timing
    every ``legal_actions()`` listing (computed fresh, without the per-state memo) and every
    ``apply``; returns (listing µs, listing µs by decision kind, apply µs)."""
    legal_us: list[float] = []
    by_kind: dict[str, list[float]] = defaultdict(list)
    apply_us: list[float] = []
    for s, seed in starts:
        agents = {"A": RandomAgent(seed), "B": RandomAgent(seed + 1000)}
        dice = SeededDice(seed)
        while not s.is_terminal:
            if isinstance(s.node, Decision):
                t = time.perf_counter()
                list_actions(s)
                us = 1e6 * (time.perf_counter() - t)
                legal_us.append(us)
                by_kind[s.node.kind].append(us)
                action = ask(agents[s.node.player], s)
            else:
                assert isinstance(s.node, Chance)
                action = dice.roll(s)
            t = time.perf_counter()
            s, _ = s.apply(action)
            apply_us.append(1e6 * (time.perf_counter() - t))
    return legal_us, by_kind, apply_us


def report_node_timings(starts: list[tuple[GameState, int]], kind_width: int = 15) -> None:
    """Print the per-node timings of :func:`time_calls` over ``starts``: the median and 90th
    percentile of ``legal_actions()`` (µs), the median per decision kind (names padded to
    ``kind_width``), and the same for ``apply``."""
    legal_us, by_kind, apply_us = time_calls(starts)
    print(
        f"legal_actions(): median {statistics.median(legal_us):.0f} µs, "
        f"90th percentile {pct(legal_us, 0.9):.0f} µs over {len(legal_us)} decisions"
    )
    for kind, vals in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
        name = f"{kind:{kind_width}s}"
        print(f"  {name} {len(vals):6d} nodes, median {statistics.median(vals):7.0f} µs")
    print(
        f"apply: median {statistics.median(apply_us):.0f} µs, 90th percentile "
        f"{pct(apply_us, 0.9):.0f} µs over {len(apply_us)} inputs"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()
    kz = load_killzone("open_ruins")
    rosters = {t: load_builtin_team(t).default() for pair in PAIRS for t in pair}
    for r in rosters.values():
        for name in r.operatives:
            move_graph(kz, r.team.operative(name).base_mm)
    sizes = sorted({len(r.operatives) for r in rosters.values()})
    print(f"open_ruins, random agents, team sizes {sizes}")

    t0 = time.perf_counter()
    steps = 0
    for seed in range(args.games):
        a, b = PAIRS[seed % len(PAIRS)]
        s = new_game(kz, rosters[a], rosters[b])
        final = play(s, {"A": RandomAgent(seed), "B": RandomAgent(seed + 1000)}, SeededDice(seed))
        steps += final.step
    wall = time.perf_counter() - t0
    print(
        f"full games: {args.games} in {wall:.2f} s = {args.games / wall:.2f} games/s "
        f"({steps / args.games:.0f} inputs per game, {1e6 * wall / steps:.0f} µs per input)"
    )

    starts = [
        (new_game(kz, rosters[PAIRS[k % len(PAIRS)][0]], rosters[PAIRS[k % len(PAIRS)][1]]), k)
        for k in range(min(args.games, 10))
    ]
    report_node_timings(starts)


if __name__ == "__main__":
    main()
