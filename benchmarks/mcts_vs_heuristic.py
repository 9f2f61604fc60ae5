"""The search agent against the heuristic: seat-balanced battles across the built-in teams;
prints figures (nothing is asserted).

Run: ``python benchmarks/mcts_vs_heuristic.py [--battles N] [--budget S | --iterations K]
[--teams T ...] [--killzone K] [--seed BASE] [--workers W] [--out FILE]`` (default 20
battles, 1 s per decision, every built-in team, the default killzone, base seed 1, 2
workers).

- The battles come in couples: couple ``j`` is the ordered team pair ``j`` (cycling over
  every ordered pair of distinct teams, shuffled by ``random.Random(BASE)`` so that a short
  run sees many teams) with the battle seed ``BASE + j``, played twice:
  :class:`~engine.agents.mcts.MCTSAgent` as player A against the heuristic as B, then the
  heuristic as A against MCTS as B, with the same dice seed (``SeededDice(BASE + j)``) and
  the agents' seeds of :func:`engine.play.agent_seeds`. So MCTS plays A in half of the
  battles and B in the other half, on the same pairs (an odd ``N`` plays the last couple's
  first battle only).
- Prints MCTS's win / draw / loss counts and rates with Wilson score 95% intervals
  (:func:`engine.batch.wilson_interval`; a draw is not a win), the mean VP of MCTS and of
  the heuristic, and MCTS's mean wall-clock seconds and iterations per searched decision.
  ``--out`` writes one JSON line per battle.

The issue's target: at least 65% wins against the heuristic over 200 battles at 1 s per
decision (several hours of CPU: a battle has about 75 searched MCTS decisions, 60 to 130 s
of wall time at 1 s per decision). The mean iterations per decision is skewed by the last
decisions of a turning point, where the search reaches its horizon at once and runs many
cheap iterations (``benchmarks/mcts_speed.py`` times iterations on fixed positions).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import permutations
from pathlib import Path
from typing import Any

from engine.agents import HeuristicAgent
from engine.agents.mcts import MCTSAgent
from engine.batch import wilson_interval
from engine.game.drivers import SeededDice, play
from engine.game.state import Terminal
from engine.play import DEFAULT_KILLZONE, agent_seeds
from engine.play.matchup import Matchup, MatchupChoice, make_matchup
from engine.teams import builtin_teams

_MATCHUPS: dict[tuple[str, str, str], Matchup] = {}


def battle(
    a: str, b: str, killzone: str, seed: int, mcts_side: str, seconds: float | None, its: int | None
) -> dict[str, Any]:
    """One battle of team ``a`` (player A) against ``b``, MCTS playing ``mcts_side``."""
    key = (a, b, killzone)
    if key not in _MATCHUPS:
        m = make_matchup(MatchupChoice(teams=(a, b), killzone=killzone, agents="heuristic"))
        m.warm()
        _MATCHUPS[key] = m
    m = _MATCHUPS[key]
    sa, sb = agent_seeds(seed)
    mcts = MCTSAgent(sa if mcts_side == "A" else sb, budget_seconds=seconds, iterations=its)
    heur = HeuristicAgent(sb if mcts_side == "A" else sa)
    agents = {"A": mcts, "B": heur} if mcts_side == "A" else {"A": heur, "B": mcts}
    t0 = time.perf_counter()
    final = play(m.new_game(), agents, SeededDice(seed), max_steps=m.options.max_steps)
    node = final.node
    vp = [p.vp for p in final.players]
    winner = node.result.winner if isinstance(node, Terminal) else ""
    k = 0 if mcts_side == "A" else 1
    return {
        "teams": [a, b],
        "seed": seed,
        "mcts": mcts_side,
        "vp": {"A": vp[0], "B": vp[1]},
        "mcts_vp": vp[k],
        "heuristic_vp": vp[1 - k],
        "result": "draw" if not winner else ("win" if winner == mcts_side else "loss"),
        "finished": isinstance(node, Terminal),
        "decisions": mcts.decisions,
        "iterations": mcts.iterations_run,
        "search_seconds": round(mcts.seconds_spent, 3),
        "seconds": round(time.perf_counter() - t0, 3),
    }


def main() -> None:
    """Play the battles and print the figures (module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--battles", type=int, default=20, help="battles (MCTS A in half)")
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--budget", type=float, help="seconds per decision (default 1)")
    budget.add_argument("--iterations", type=int, help="iterations per decision")
    ap.add_argument("--teams", nargs="+", default=builtin_teams(), help="built-in team ids")
    ap.add_argument("--killzone", default=DEFAULT_KILLZONE, help="killzone layout")
    ap.add_argument("--seed", type=int, default=1, help="base battle seed")
    ap.add_argument("--workers", type=int, default=2, help="worker processes")
    ap.add_argument("--out", type=Path, help="JSON lines, one per battle")
    args = ap.parse_args()
    if args.battles < 1:
        sys.exit(f"--battles must be at least 1, not {args.battles}")
    if len(args.teams) < 2:
        sys.exit("--teams needs at least two teams")
    seconds = args.budget if args.iterations is None else None
    if seconds is None and args.iterations is None:
        seconds = 1.0
    pairs = list(permutations(args.teams, 2))
    random.Random(args.seed).shuffle(pairs)  # short runs see many teams
    jobs = []
    for i in range(args.battles):
        j = i // 2
        a, b = pairs[j % len(pairs)]
        side = "A" if i % 2 == 0 else "B"
        jobs.append((a, b, args.killzone, args.seed + j, side, seconds, args.iterations))
    budget_text = f"{seconds} s" if seconds is not None else f"{args.iterations} iterations"
    print(f"{args.battles} battles, MCTS at {budget_text} per decision, {args.workers} workers")
    lines: list[dict[str, Any]] = []
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(battle, *job) for job in jobs]
        for f in futures:
            x = f.result()
            lines.append(x)
            print(
                f"  {x['teams'][0]} v {x['teams'][1]} seed {x['seed']} MCTS as {x['mcts']}: "
                f"{x['result']} {x['mcts_vp']}-{x['heuristic_vp']} ({x['seconds']:.0f} s)",
                flush=True,
            )
    if args.out is not None:
        args.out.write_text("".join(json.dumps(x) + "\n" for x in lines))
    n = len(lines)
    for what, plural in (("win", "wins"), ("draw", "draws"), ("loss", "losses")):
        k = sum(1 for x in lines if x["result"] == what)
        lo, hi = wilson_interval(k, n)
        rate = f"{100 * k / n:.0f}% (95% CI {100 * lo:.0f}-{100 * hi:.0f}%)"
        print(f"MCTS {plural}: {k} of {n} = {rate}")
    print(
        f"mean VP: MCTS {sum(x['mcts_vp'] for x in lines) / n:.2f}, "
        f"heuristic {sum(x['heuristic_vp'] for x in lines) / n:.2f}"
    )
    decisions = sum(x["decisions"] for x in lines)
    if decisions:
        spent = sum(x["search_seconds"] for x in lines)
        print(
            f"per searched MCTS decision: {spent / decisions:.3f} s, "
            f"{sum(x['iterations'] for x in lines) / decisions:.0f} iterations "
            f"({decisions / n:.0f} searched decisions a battle)"
        )


if __name__ == "__main__":
    main()
