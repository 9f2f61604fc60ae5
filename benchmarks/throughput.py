"""Random-playout throughput against a yardstick: random KT24 battles and, interleaved in the
same run, random chess games (python-chess); prints "chess games per KT battle".

Run: ``pip install -e ".[bench]"`` then ``python benchmarks/throughput.py [--rounds N]``.

- KT battles: the default matchup (Kasrkin v Legionaries, default rosters), random agents and
  seeded dice, alternating the open ruins and close quarters layouts. Movement graphs are
  built (or loaded from the disk cache) before timing, as a batch keeps them for its whole
  run; everything else, including ``new_game``, is timed.
- Chess games: random legal moves from the start position until the game is over
  (checkmate, stalemate, insufficient material, the 75-move rule or fivefold repetition),
  seeded.
- Each round plays ``--battles`` KT battles then ``--chess`` chess games, so both see the same
  machine load; the ratio is (time per KT battle) / (time per chess game).
- Then ``legal_actions()`` (computed fresh, without the per-state memo) and ``apply``
  medians over every decision and input of a few battles.

Goal (the speed issue): at most 4 chess games per KT battle; ``legal_actions()`` median at
most 150 µs, ``apply`` at most 60 µs. Figures are printed, not asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from game import time_calls  # benchmarks/game.py (this script's folder is on sys.path)

from engine.agents import RandomAgent
from engine.game.drivers import SeededDice, play
from engine.geometry import load_killzone
from engine.geometry.movement import move_graph
from engine.rulesets import new_game
from engine.teams import load_builtin_team

LAYOUTS = ("open_ruins", "close_quarters")
TEAMS = ("kasrkin", "legionaries")


def chess_game(seed: int) -> int:
    """One random chess game; returns its number of plies."""
    import chess

    rng = random.Random(seed)
    board = chess.Board()
    plies = 0
    while not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
        plies += 1
    return plies


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--battles", type=int, default=2, help="KT battles per round")
    ap.add_argument("--chess", type=int, default=20, help="chess games per round")
    args = ap.parse_args()
    try:
        import chess  # noqa: F401
    except ImportError:
        sys.exit('python-chess is missing: pip install -e ".[bench]"')

    kzs = {name: load_killzone(name) for name in LAYOUTS}
    rosters = [load_builtin_team(t).default() for t in TEAMS]
    for kz in kzs.values():
        for r in rosters:
            for k in range(len(r.operatives)):
                move_graph(kz, r.datacard(k).base_mm)

    kt_time = chess_time = 0.0
    battles = games = kt_steps = plies = 0
    seed = 0
    for _ in range(args.rounds):
        t0 = time.perf_counter()
        for _ in range(args.battles):
            kz = kzs[LAYOUTS[seed % len(LAYOUTS)]]
            s = new_game(kz, rosters[0], rosters[1])
            agents = {"A": RandomAgent(2 * seed), "B": RandomAgent(2 * seed + 1)}
            kt_steps += play(s, agents, SeededDice(seed)).step
            battles += 1
            seed += 1
        t1 = time.perf_counter()
        for _ in range(args.chess):
            plies += chess_game(games)
            games += 1
        t2 = time.perf_counter()
        kt_time += t1 - t0
        chess_time += t2 - t1

    per_battle, per_chess = kt_time / battles, chess_time / games
    print(
        f"KT: {battles} random battles ({', '.join(LAYOUTS)}), {per_battle * 1e3:.0f} ms each "
        f"= {1 / per_battle:.2f} battles/s ({kt_steps / battles:.0f} inputs per battle)"
    )
    print(
        f"chess: {games} random games, {per_chess * 1e3:.1f} ms each "
        f"= {1 / per_chess:.1f} games/s ({plies / games:.0f} plies per game)"
    )
    print(f"chess games per KT battle: {per_battle / per_chess:.1f} (goal: at most 4)")

    starts = [
        (new_game(kzs[LAYOUTS[k % len(LAYOUTS)]], rosters[0], rosters[1]), k)
        for k in range(min(4, battles))
    ]
    legal_us, _, apply_us = time_calls(starts)
    print(
        f"legal_actions(): median {statistics.median(legal_us):.0f} µs over {len(legal_us)} "
        f"decisions (goal: at most 150); apply: median {statistics.median(apply_us):.0f} µs "
        f"over {len(apply_us)} inputs (goal: at most 60)"
    )


if __name__ == "__main__":
    main()
