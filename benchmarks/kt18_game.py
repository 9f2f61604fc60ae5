"""Benchmark of KT18 battles (``--ruleset kt18``, Covert War); prints figures (nothing is
asserted).

Run: ``python benchmarks/kt18_game.py [--games N] [--killzone NAME]``.

- Random full KT18 games per second on one core: random agents, seeded dice, the open ruins
  layout, the built-in ``kt18_space_marines`` against ``kt18_orks`` (sides alternating by
  seed; the movement graphs of the layout are built once before timing, as a batch run keeps
  them for the whole batch).
- Heuristic games per second (the heuristic agent against the random one).
- ``legal_actions()`` median and 90th percentile µs over every decision node of those random
  games (computed fresh, without the per-state memo), also split by decision kind.
- ``apply`` median and 90th percentile µs over every input.
"""

from __future__ import annotations

import argparse
import time

from game import report_node_timings  # benchmarks/game.py (this script's folder is on sys.path)

from engine.agents import RandomAgent, make_agent
from engine.game.context import GameOptions
from engine.game.drivers import SeededDice, play
from engine.geometry import load_killzone
from engine.geometry.movement import move_graph
from engine.rulesets import new_game
from engine.teams import load_builtin_team

TEAMS = ("kt18_space_marines", "kt18_orks")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--killzone", default="open_ruins")
    args = ap.parse_args()
    kz = load_killzone(args.killzone)
    options = GameOptions(ruleset="kt18")
    rosters = {t: load_builtin_team(t).default() for t in TEAMS}
    battle_kz = new_game(kz, rosters[TEAMS[0]], rosters[TEAMS[1]], options).ctx.killzone
    for r in rosters.values():
        for name in r.operatives:
            move_graph(kz, r.team.operative(name).base_mm)
            move_graph(battle_kz, r.team.operative(name).base_mm)
    print(f"{args.killzone}, KT18 Covert War, {TEAMS[0]} v {TEAMS[1]}")

    def pairing(seed: int) -> tuple[str, str]:
        return TEAMS if seed % 2 == 0 else (TEAMS[1], TEAMS[0])

    for label, agent in (("random", "random"), ("heuristic v random", "heuristic")):
        t0 = time.perf_counter()
        steps = 0
        for seed in range(args.games):
            a, b = pairing(seed)
            s = new_game(kz, rosters[a], rosters[b], options)
            agents = {"A": make_agent(agent, seed), "B": RandomAgent(seed + 1000)}
            final = play(s, agents, SeededDice(seed))
            steps += final.step
        wall = time.perf_counter() - t0
        print(
            f"full games ({label}): {args.games} in {wall:.2f} s = {args.games / wall:.2f} "
            f"games/s ({steps / args.games:.0f} inputs per game, {1e6 * wall / steps:.0f} µs "
            "per input)"
        )

    starts = []
    for k in range(min(args.games, 10)):
        a, b = pairing(k)
        starts.append((new_game(kz, rosters[a], rosters[b], options), k))
    report_node_timings(starts, kind_width=22)


if __name__ == "__main__":
    main()
