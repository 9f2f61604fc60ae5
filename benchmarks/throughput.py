"""Battle throughput against a yardstick: random and heuristic KT24 battles and, interleaved
in the same run, random chess games (python-chess); prints "chess games per KT battle".

Run: ``pip install -e ".[bench]"`` then
``python benchmarks/throughput.py [--rounds 5] [--battles 2] [--heuristic 1] [--chess 20]``.

- KT battles: the default matchup (Kasrkin v Legionaries, default rosters), seeded dice,
  alternating the open ruins and close quarters layouts; ``--battles`` random battles
  (random agents) and ``--heuristic`` heuristic battles (heuristic agents) per round.
  Movement graphs are built (or loaded from the disk cache) before timing, as a batch keeps
  them for its whole run; everything else, including ``new_game``, is timed.
- Chess games: random legal moves from the start position until the game is over
  (checkmate, stalemate, insufficient material, the 75-move rule or fivefold repetition),
  seeded.
- Each round plays its KT battles then ``--chess`` chess games, so both see the same machine
  load; a round's ratio is (CPU time per KT battle) / (CPU time per chess game), CPU time
  being ``time.process_time``. Printed: min / median / max over the rounds.
- Then ``legal_actions()`` (computed fresh, without the per-state memo) and ``apply``
  medians over every decision and input of a few random battles.

Goals (the speed issue): a random battle in at most 4 chess games, a heuristic battle in at
most 25; ``legal_actions()`` median at most 150 µs, ``apply`` at most 60 µs. Figures are
printed, not asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from game import time_calls  # benchmarks/game.py (this script's folder is on sys.path)

from engine.agents import HeuristicAgent, RandomAgent
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


def spread(values: list[float]) -> str:
    """``min / median / max`` of ``values``, one decimal."""
    return f"{min(values):.1f} / {statistics.median(values):.1f} / {max(values):.1f}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--battles", type=int, default=2, help="random KT battles per round")
    ap.add_argument("--heuristic", type=int, default=1, help="heuristic KT battles per round")
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

    def battle(seed: int, agent: type[RandomAgent] | type[HeuristicAgent]) -> int:
        kz = kzs[LAYOUTS[seed % len(LAYOUTS)]]
        s = new_game(kz, rosters[0], rosters[1])
        agents = {"A": agent(2 * seed), "B": agent(2 * seed + 1)}
        return play(s, agents, SeededDice(seed)).step

    ratios: dict[str, list[float]] = {"random": [], "heuristic": []}
    per_battle: dict[str, list[float]] = {"random": [], "heuristic": []}
    steps = {"random": 0, "heuristic": 0}
    per_chess: list[float] = []
    games = plies = 0
    seeds = {"random": 0, "heuristic": 0}  # each kind alternates the layouts on its own
    for _ in range(args.rounds):
        cpu: dict[str, float] = {}
        for kind, n, agent in (
            ("random", args.battles, RandomAgent),
            ("heuristic", args.heuristic, HeuristicAgent),
        ):
            if n <= 0:
                continue
            t0 = time.process_time()
            for _ in range(n):
                steps[kind] += battle(seeds[kind], agent)
                seeds[kind] += 1
            cpu[kind] = (time.process_time() - t0) / n
        t0 = time.process_time()
        for _ in range(args.chess):
            plies += chess_game(games)
            games += 1
        chess_cpu = (time.process_time() - t0) / args.chess
        per_chess.append(chess_cpu)
        for kind, t in cpu.items():
            per_battle[kind].append(t)
            ratios[kind].append(t / chess_cpu)

    print(
        f"chess: {games} random games, median {statistics.median(per_chess) * 1e3:.1f} ms CPU "
        f"each ({plies / games:.0f} plies per game)"
    )
    for kind, goal, n in (("random", 4, args.battles), ("heuristic", 25, args.heuristic)):
        if not ratios[kind]:
            continue
        count = n * args.rounds
        print(
            f"{kind} battle ({', '.join(LAYOUTS)} alternately): {count} battles, median "
            f"{statistics.median(per_battle[kind]) * 1e3:.0f} ms CPU each "
            f"({steps[kind] / count:.0f} inputs per battle); chess games per battle "
            f"min / median / max: {spread(ratios[kind])} (goal: at most {goal})"
        )

    starts = [
        (new_game(kzs[LAYOUTS[k % len(LAYOUTS)]], rosters[0], rosters[1]), k) for k in range(4)
    ]
    legal_us, _, apply_us = time_calls(starts)
    print(
        f"legal_actions(): median {statistics.median(legal_us):.0f} µs over {len(legal_us)} "
        f"decisions (goal: at most 150); apply: median {statistics.median(apply_us):.0f} µs "
        f"over {len(apply_us)} inputs (goal: at most 60)"
    )


if __name__ == "__main__":
    main()
