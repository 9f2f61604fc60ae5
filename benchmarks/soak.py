"""The soak, timed: random playouts with every check of the conformance tests, beyond the
games of the ordinary suite (``tests/test_soak.py``; issue 29).

Run from the checkout: ``python benchmarks/soak.py [--games 2000] [--mission-games 50]
[--seed 100000] [--jobs 2]``.

- ``--games`` games of ``tests/test_game_conformance.py`` (every node-level check, the
  result and the record's replay), seeds ``--seed`` on, rotating over every ordered pair of
  built-in teams on both layouts;
- ``--mission-games`` games per crit op of ``tests/test_mission_conformance.py``, each with
  every check (``full``), seeds ``--seed + 1000 * k`` on for the ``k``-th crit op;
- ``--jobs`` processes share the games (each game is independent and seeded).

The same games as ``python -m pytest -m soak`` with the defaults. A failed check stops the
run with the assertion and the seed. Printed: games, inputs checked (nodes), processor
seconds (all processes), wall seconds, and processor milliseconds per input.

Measured (issue 29, a loaded 2-core machine): ``--games 20 --mission-games 1`` took 20.2s of
processor time for the 20 games (8,795 inputs, 2.3ms an input) and 8.1s for the 9 mission
games; the defaults (2,000 + 450 games) take some 2,400s of processor time, about 20 minutes
with ``--jobs 2``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the ``tests`` package

from engine.missions.pack import CRIT_ORDER, find_op
from engine.missions.scoring import CRIT


def _game(seed: int) -> tuple[int, float]:
    """Play and check the conformance game of ``seed``: (inputs, processor seconds)."""
    from tests.test_game_conformance import _play_checked

    t = time.process_time()
    state, _ = _play_checked(seed)
    return state.step, time.process_time() - t


def _mission(job: tuple[str, int]) -> tuple[int, float]:
    """Play and check (``full``) the mission game ``(crit op, seed)``: (1 game, seconds);
    the mission harness returns VP by op, not its inputs, so a mission game counts once."""
    from tests.test_mission_conformance import _play_mission

    crit, seed = job
    t = time.process_time()
    _play_mission(crit, seed, full=True)
    return 0, time.process_time() - t


def main(argv: list[str] | None = None) -> int:
    """Run the soak (module docstring); 0 when every game passed its checks."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--mission-games", type=int, default=50, help="per crit op")
    ap.add_argument("--seed", type=int, default=100_000)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    if args.games < 0 or args.mission_games < 0 or args.jobs < 1:
        ap.error("--games and --mission-games must be >= 0 and --jobs >= 1")
    seeds = range(args.seed, args.seed + args.games)
    missions = [
        (spec.name, args.seed + 1000 * k + g)
        for k, crit in enumerate(CRIT_ORDER)
        if (spec := find_op(crit, CRIT)) is not None
        for g in range(args.mission_games)
    ]
    wall = time.perf_counter()
    if args.jobs == 1:
        games = [_game(s) for s in seeds]
        mission = [_mission(j) for j in missions]
    else:
        with multiprocessing.Pool(args.jobs) as pool:
            games = pool.map(_game, seeds, chunksize=4)
            mission = pool.map(_mission, missions, chunksize=2)
    wall = time.perf_counter() - wall
    inputs = sum(n for n, _ in games)
    cpu_games = sum(t for _, t in games)
    cpu_mission = sum(t for _, t in mission)
    print(
        f"conformance games: {len(games)}, inputs checked: {inputs}, CPU {cpu_games:.1f}s", end=""
    )
    print(f" ({1000 * cpu_games / max(inputs, 1):.2f} ms an input)")
    print(f"mission games (every check): {len(mission)}, CPU {cpu_mission:.1f}s")
    print(f"wall {wall:.1f}s with {args.jobs} process(es); every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
