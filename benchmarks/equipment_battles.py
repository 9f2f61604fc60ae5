"""Random battles with universal equipment: wall time of ``engine.play.battle.play_battle`` on the
default matchup with random agents (which select and set up equipment, rules 7.2), seeds 1
to ``--battles``; prints each battle's time and the total (nothing is asserted).

Run: ``python benchmarks/equipment_battles.py [--battles 10]``. The movement graphs of the
layout as loaded come from the disk cache or are built before the first battle is timed; the
graphs of each battle's killzone with its equipment terrain are derived inside the timing, as
a game does.
"""

from __future__ import annotations

import argparse
import time

from engine.play.battle import play_battle
from engine.play.matchup import MatchupChoice, make_matchup


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=10)
    args = ap.parse_args()
    matchup = make_matchup(MatchupChoice(agents="random"))
    play_battle(matchup, 0)  # warm up: layout graphs, imports
    total = 0.0
    for seed in range(1, args.battles + 1):
        start = time.perf_counter()
        play_battle(matchup, seed)
        took = time.perf_counter() - start
        total += took
        print(f"battle {seed}: {took:.2f} s")
    print(f"{args.battles} random battles with equipment: {total:.1f} s in all")


if __name__ == "__main__":
    main()
