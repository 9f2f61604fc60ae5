"""The heuristic agent: its speed, and its win rate against the random agent.

Run: ``python benchmarks/agents.py --speed N [--killzone NAME]`` for the speed: ``N`` battles
of the default matchup (heuristic agents on both sides), seeded like ``killteam batch``
(game ``i`` plays :func:`engine.play.battle.play_battle` with seed ``game_seed(1, i)``, as
``killteam batch --workers 1``), on one core, after the movement graphs are built (as a
batch's forked workers start warm). Prints battles per second and seconds per battle, wall
and CPU (the CPU figure is steadier on a shared machine). Goal (issue 13): at least 3
battles per second per core.

Run: ``python benchmarks/agents.py [--games N] [--workers W] [--killzone NAME]`` for the win
rate with a 95% confidence interval.

Plays ``N`` games with the heuristic agent as player A and ``N`` as player B, rotating over
every ordered pair of built-in teams (default rosters), seeded dice (game ``i`` uses seed
``i``). Prints wins, draws and losses of the heuristic agent per side and overall, the win
rate with its Wilson score 95% interval (draws count as not won), mean VP and mean enemy
operatives incapacitated per game. Nothing is asserted: the figures go in the issue note.
"""

from __future__ import annotations

import argparse
import itertools
import time
from concurrent.futures import ProcessPoolExecutor

from engine.agents import HeuristicAgent, RandomAgent
from engine.batch import wilson_interval
from engine.game.drivers import Agent, SeededDice, play
from engine.geometry import load_killzone
from engine.play import game_seed
from engine.play.battle import play_battle
from engine.play.matchup import MatchupChoice, make_matchup
from engine.rulesets import new_game
from engine.teams import builtin_teams, load_builtin_team


def one(job: tuple[int, str, str, str, str]) -> tuple[int, str, str, int, int, int]:
    seed, side, a, b, kz_name = job
    kz = load_killzone(kz_name)
    s = new_game(kz, load_builtin_team(a).default(), load_builtin_team(b).default())
    agents: dict[str, Agent] = {side: HeuristicAgent(seed)}
    agents["B" if side == "A" else "A"] = RandomAgent(seed)
    final = play(s, agents, SeededDice(seed))
    r = final.node.result  # type: ignore[union-attr]
    mine = 0 if side == "A" else 1
    enemy = "B" if side == "A" else "A"
    kills = sum(1 for o in final.operatives if o.player == enemy and not o.alive)
    return seed, side, r.winner, r.vp[mine], r.vp[1 - mine], kills


def speed(games: int, killzone: str) -> None:
    """Print heuristic battles per second on one core (module docstring)."""
    matchup = make_matchup(MatchupChoice(killzone=killzone, agents="heuristic"))
    matchup.warm()
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(games):
        play_battle(matchup, game_seed(1, i))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(
        f"{games} heuristic battles on {killzone} (one core, base seed 1) in {wall:.2f} s: "
        f"{games / wall:.2f} battles/s, {wall / games:.3f} s per battle "
        f"(CPU {cpu:.2f} s: {games / cpu:.2f} battles per CPU second)"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200, help="games per side")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--killzone", default="open_ruins")
    ap.add_argument("--speed", type=int, default=0, metavar="N", help="time N battles instead")
    args = ap.parse_args()
    if args.speed:
        speed(args.speed, args.killzone)
        return
    pairs = list(itertools.permutations(builtin_teams(), 2))
    jobs = []
    for side in ("A", "B"):
        for i in range(args.games):
            a, b = pairs[i % len(pairs)]
            jobs.append((i, side, a, b, args.killzone))
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as ex:
        results = list(ex.map(one, jobs, chunksize=4))
    wall = time.perf_counter() - t0
    print(f"{len(results)} games on {args.killzone} in {wall:.0f} s ({args.workers} workers)")
    for label, rows in (
        ("heuristic as A", [r for r in results if r[1] == "A"]),
        ("heuristic as B", [r for r in results if r[1] == "B"]),
        ("overall", results),
    ):
        n = len(rows)
        won = sum(1 for r in rows if r[2] == r[1])
        drawn = sum(1 for r in rows if r[2] == "")
        lost = n - won - drawn
        lo, hi = wilson_interval(won, n)
        vp_h = sum(r[3] for r in rows) / n
        vp_r = sum(r[4] for r in rows) / n
        kills = sum(r[5] for r in rows) / n
        print(
            f"{label:15s} n={n} won {won} drawn {drawn} lost {lost}: win rate "
            f"{won / n:.3f} (95% CI {lo:.3f}-{hi:.3f}); mean VP {vp_h:.2f} v {vp_r:.2f}; "
            f"enemy operatives incapacitated {kills:.2f}"
        )


if __name__ == "__main__":
    main()
