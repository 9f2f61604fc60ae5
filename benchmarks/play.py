"""Benchmarks of ``killteam play`` and ``killteam batch``; prints figures (nothing is asserted).

Run: ``python benchmarks/play.py [--runs 5] [--games 20]``.

- ``killteam play`` wall time on the embedded default battle (Kasrkin v Legionaries, open
  ruins, heuristic agents, seed 1), as a user sees it: a fresh process each run, start-up
  included (``python -m engine.cli play --quiet``), median and range over ``--runs`` runs.
  Goal (issue 6): under 5 s.
- The first battle of a process against a later one: the default battle (seed 1) played
  twice in one fresh process, each timed from the call (the first loads or builds the movement
  graphs, the later one finds them on the killzone). Goal (the speed issue): the first at most
  1.5 times the later, with the graph cache on disk warm (after any earlier run); the figure
  with an empty cache (the very first run after installing) is printed too.
- ``killteam batch`` games per second on the default matchup with random and with heuristic
  agents, 1 and 2 worker processes (``engine.batch.run_batch``, ``--games`` games each, timed
  from the call: worker start-up and cold caches included).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.batch import run_batch
from engine.play.matchup import MatchupChoice

ROOT = Path(__file__).resolve().parents[1]


def play_wall_times(runs: int) -> list[float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "engine.cli", "play", "--quiet"],
            check=True,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,  # the unimplemented-rules line
        )
        times.append(time.perf_counter() - t0)
    return times


_FIRST_AND_LATER = """
import time
from engine.play.battle import play_battle
from engine.play.matchup import MatchupChoice, make_matchup
times = []
for _ in range(2):
    t0 = time.perf_counter()
    play_battle(make_matchup(MatchupChoice()), 1)
    times.append(time.perf_counter() - t0)
print(times[0], times[1])
"""


def first_and_later(cache: str | None) -> tuple[float, float]:
    """(first battle, later battle) seconds in one fresh process; ``cache``: the graph cache
    folder (``KILLTEAM_GRAPH_CACHE``), ``None`` for the default one."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if cache is not None:
        env["KILLTEAM_GRAPH_CACHE"] = cache
    out = subprocess.run(
        [sys.executable, "-c", _FIRST_AND_LATER],
        check=True,
        env=env,
        capture_output=True,
        text=True,
    ).stdout.split()
    return float(out[0]), float(out[1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5, help="killteam play runs")
    ap.add_argument("--games", type=int, default=20, help="games per batch")
    args = ap.parse_args()
    print(f"CPUs available: {len(os.sched_getaffinity(0))}")

    times = play_wall_times(args.runs)
    print(
        f"killteam play (default battle, fresh process): median {statistics.median(times):.2f} s"
        f" (min {min(times):.2f}, max {max(times):.2f}; {args.runs} runs)"
    )

    first_and_later(None)  # the default cache holds the graphs from here on
    for label, cache in (("graph cache warm", None), ("graph cache empty", "EMPTY")):
        with tempfile.TemporaryDirectory() as empty:
            first, later = first_and_later(empty if cache else None)
        print(
            f"first battle of a process {first:.2f} s, a later one {later:.2f} s: "
            f"{first / later:.2f} times ({label}; goal: at most 1.5 with the cache warm)"
        )

    for agents in ("random", "heuristic"):
        for workers in (1, 2):
            t0 = time.perf_counter()
            lines = run_batch(MatchupChoice(agents=agents), args.games, workers=workers)
            dt = time.perf_counter() - t0
            steps = sum(int(line["steps"]) for line in lines)
            print(
                f"killteam batch, {agents} agents, {workers} worker(s): {args.games} games in "
                f"{dt:.1f} s = {args.games / dt:.2f} games/s ({steps / args.games:.0f} inputs/game)"
            )


if __name__ == "__main__":
    main()
