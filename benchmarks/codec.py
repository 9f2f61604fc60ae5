"""The action codec's cost per decision (``engine.envs.codec``, issue 30).

Run: ``python benchmarks/codec.py [--games N]``: ``N`` seeded random playouts rotating over the
ordered pairs of built-in teams and the two killzone layouts (game ``i`` seeds its agent and
dice with ``i``). At every decision node it times, in microseconds:

- ``list``: ``state.legal_actions()`` listed by the engine (what any agent pays anyway);
- ``mask (first)``: the first :meth:`ActionCodec.mask` call at the node, after the listing:
  encoding every listed action and building the array;
- ``mask (again)``: a second call at the same node (the table is memoised on the state);
- ``encode+decode``: one encode and one decode of the action played.

Prints the mean and median of each, the largest decision, and the number of decisions.
Nothing is asserted: the figures go in the issue note.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time

from engine.envs.codec import ACTION_SPACE_SIZE, ActionCodec
from engine.game.drivers import SeededDice
from engine.game.state import Chance
from engine.geometry import load_killzone
from engine.rulesets import new_game
from engine.teams import builtin_teams, load_builtin_team


def main() -> None:
    """Play the playouts and print the figures (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    args = parser.parse_args()
    teams = {t: load_builtin_team(t).default() for t in builtin_teams()}
    layouts = [load_killzone(n) for n in ("open_ruins", "close_quarters")]
    pairs = list(itertools.permutations(sorted(teams), 2))
    times: dict[str, list[float]] = {"list": [], "mask (first)": [], "mask (again)": []}
    times["encode+decode"] = []
    largest = 0
    clock = time.perf_counter
    for g in range(args.games):
        a, b = pairs[g % len(pairs)]
        state = new_game(layouts[g % 2], teams[a], teams[b])
        codec = ActionCodec.for_state(state)
        rng, dice = random.Random(g), SeededDice(g)
        while not state.is_terminal:
            if isinstance(state.node, Chance):
                state, _ = state.apply(dice.roll(state))
                continue
            t0 = clock()
            legal = list(state.legal_actions())
            t1 = clock()
            codec.mask(state)
            t2 = clock()
            codec.mask(state)
            t3 = clock()
            action = rng.choice(legal)
            codec.decode(state, codec.encode(state, action))
            t4 = clock()
            for key, dt in zip(times, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
                times[key].append(dt * 1e6)
            largest = max(largest, len(legal))
            state, _ = state.apply(action)
    n = len(times["list"])
    print(f"{args.games} playouts, {n} decisions, action space {ACTION_SPACE_SIZE}")
    print(f"largest decision: {largest} listed actions")
    for key, values in times.items():
        print(
            f"{key:>14}: mean {statistics.mean(values):8.1f} us, "
            f"median {statistics.median(values):8.1f} us"
        )


if __name__ == "__main__":
    main()
