"""Benchmark of KT21 battles (``--ruleset kt21``); prints figures (nothing is asserted).

Run: ``python benchmarks/kt21_game.py [--games N] [--killzone NAME]``.

- Random full KT21 games per second on one core: random agents, seeded dice, the open ruins
  layout (with the KT21 mission's six markers), the built-in ``kt21_kasrkin`` against
  ``kt21_legionaries`` (sides alternating by seed; the movement graphs of the battles'
  killzone, the layout with the mission's markers, are built once before timing, as a
  batch run keeps them for the whole batch).
- ``legal_actions()`` median and 90th percentile µs over every decision node of those games
  (computed fresh, without the per-state memo), also split by decision kind.
- ``apply`` median and 90th percentile µs over every input.
- The KT21 sight: how many cover-line verdicts were computed and the time they took.
"""

from __future__ import annotations

import argparse
import time

from game import report_node_timings  # benchmarks/game.py (this script's folder is on sys.path)

from engine.agents import RandomAgent
from engine.game.context import GameOptions
from engine.game.drivers import SeededDice, play
from engine.geometry import kt21_sight, load_killzone
from engine.geometry.movement import move_graph
from engine.rulesets import new_game
from engine.teams import load_builtin_team

TEAMS = ("kt21_kasrkin", "kt21_legionaries")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--killzone", default="open_ruins")
    args = ap.parse_args()
    kz = load_killzone(args.killzone)
    options = GameOptions(ruleset="kt21")
    rosters = {t: load_builtin_team(t).default() for t in TEAMS}
    # The battles' killzone is the layout with the mission's six markers, the same value for
    # every battle of the batch (Killzone.with_objectives keeps it): its graphs are built
    # once, as a batch run keeps them.
    battle_kz = new_game(kz, rosters[TEAMS[0]], rosters[TEAMS[1]], options).ctx.killzone
    for r in rosters.values():
        for name in r.operatives:
            move_graph(kz, r.team.operative(name).base_mm)
            move_graph(battle_kz, r.team.operative(name).base_mm)
    print(f"{args.killzone}, KT21, random agents, {TEAMS[0]} v {TEAMS[1]}")

    # Count and time the sight verdicts actually computed (cache misses).
    spent = [0.0, 0]
    inner = kt21_sight._evaluate

    def timed(*a: object, **k: object) -> kt21_sight.Kt21Verdict:
        t = time.perf_counter()
        try:
            return inner(*a, **k)  # type: ignore[arg-type]
        finally:
            spent[0] += time.perf_counter() - t
            spent[1] += 1

    kt21_sight._evaluate = timed  # type: ignore[assignment]

    def pairing(seed: int) -> tuple[str, str]:
        return TEAMS if seed % 2 == 0 else (TEAMS[1], TEAMS[0])

    t0 = time.perf_counter()
    steps = 0
    for seed in range(args.games):
        a, b = pairing(seed)
        s = new_game(kz, rosters[a], rosters[b], options)
        final = play(s, {"A": RandomAgent(seed), "B": RandomAgent(seed + 1000)}, SeededDice(seed))
        steps += final.step
    wall = time.perf_counter() - t0
    print(
        f"full games: {args.games} in {wall:.2f} s = {args.games / wall:.2f} games/s "
        f"({steps / args.games:.0f} inputs per game, {1e6 * wall / steps:.0f} µs per input)"
    )
    print(
        f"KT21 sight verdicts computed: {spent[1]} in {spent[0]:.2f} s "
        f"({1e6 * spent[0] / max(1, spent[1]):.0f} µs each, {100 * spent[0] / wall:.0f}% of the "
        "games)"
    )

    starts = []
    for k in range(min(args.games, 10)):
        a, b = pairing(k)
        starts.append((new_game(kz, rosters[a], rosters[b], options), k))
    report_node_timings(starts)


if __name__ == "__main__":
    main()
