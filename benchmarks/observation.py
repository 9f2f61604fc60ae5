"""The tensor observations (:mod:`engine.envs.observation`): microseconds per encode.

Run: ``python benchmarks/observation.py [--battles N] [--killzone NAME]``.

Plays ``N`` random battles (random agents, seeded dice; battle ``i`` rotates over the pairs
of built-in teams, default rosters) and records every state, with its legal actions listed
(as a learner's environment lists them for the mask anyway, so their cost is not counted);
then encodes every recorded state from both players' views with one warm encoder per battle
(its static board layers built once per killzone state before timing). Prints the median,
the 90th percentile and the mean time per :meth:`ObservationEncoder.encode` call, wall clock
in microseconds, and the number of encodes. Nothing is asserted: the figures go in the issue
note.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

from engine.agents import RandomAgent
from engine.envs.observation import ObservationEncoder
from engine.game import GameState
from engine.game.drivers import SeededDice
from engine.game.state import Decision
from engine.geometry import load_killzone
from engine.rulesets import new_game
from engine.teams import builtin_teams, load_builtin_team


def states_of(seed: int, a: str, b: str, killzone: str) -> list[GameState]:
    """Every state of one random battle, legal actions listed at decisions."""
    s = new_game(
        load_killzone(killzone), load_builtin_team(a).default(), load_builtin_team(b).default()
    )
    agents = {"A": RandomAgent(seed), "B": RandomAgent(seed + 1)}
    dice = SeededDice(seed)
    out = [s]
    while not s.is_terminal:
        node = s.node
        action = agents[node.player].act(s) if isinstance(node, Decision) else dice.roll(s)
        s, _ = s.apply(action)
        if isinstance(s.node, Decision):
            len(s.legal_actions())
        out.append(s)
    return out


def main() -> None:
    """Print microseconds per encode (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=4)
    parser.add_argument("--killzone", default="open_ruins")
    args = parser.parse_args()
    pairs = list(itertools.permutations(sorted(builtin_teams()), 2))
    times: list[float] = []
    for i in range(args.battles):
        a, b = pairs[i % len(pairs)]
        states = states_of(i, a, b, args.killzone)
        enc = ObservationEncoder.for_state(states[0])
        for s in states:  # warm: the static layers of every killzone state
            enc.encode(s, "A")
        for s in states:
            for player in ("A", "B"):
                t0 = time.perf_counter()
                enc.encode(s, player)
                times.append(time.perf_counter() - t0)
    times.sort()
    us = [t * 1e6 for t in times]
    print(
        f"{args.killzone}: {len(us)} encodes over {args.battles} random battles: "
        f"median {statistics.median(us):.0f} us, p90 {us[int(0.9 * (len(us) - 1))]:.0f} us, "
        f"mean {statistics.fmean(us):.0f} us"
    )


if __name__ == "__main__":
    main()
