"""Pickling and copying game states (issue 29, item 4); prints figures (nothing is asserted).

Run: ``python benchmarks/pickle_state.py [--battles N] [--repeat R]``.

Random battles (Kasrkin v Legionaries, default rosters, random inputs from a seeded random
source), alternating the open ruins and close quarters layouts. At several points of each
battle (the start, 25/50/75 % of its inputs, the end) it measures, with CPU time
(``time.process_time``), medians over ``--repeat`` runs:

- the size of ``pickle.dumps(state)`` (bytes, highest protocol);
- ``pickle.dumps`` then ``pickle.loads`` of the state (µs, in this process: the context is
  shared by its key; the first pickle of a battle, which writes its recipe, is excluded and
  reported apart);
- ``copy.deepcopy(state)`` (µs; the context is shared, not copied);
- rebuilding the context from its recipe, as another process does on its first state of a
  battle (ms, reported apart).

Goal (issue 29): the pickle round trip under 1 ms and under 20 KB mid-battle; deep copy cheap
(it was 0.9-2.2 s when it copied the whole context, and ``pickle.dumps`` failed).
"""

from __future__ import annotations

import argparse
import copy
import pickle
import random
import statistics
import time

from engine.game import context as context_module
from engine.game.state import Chance, GameState
from engine.geometry import load_killzone
from engine.geometry.movement import move_graph
from engine.rulesets import new_game
from engine.teams import load_builtin_team

LAYOUTS = ("open_ruins", "close_quarters")
TEAMS = ("kasrkin", "legionaries")
POINTS = (0.0, 0.25, 0.5, 0.75, 1.0)


def battle(kz_name: str, seed: int) -> list[GameState]:
    """Every state of one random battle, in order."""
    rosters = [load_builtin_team(t).default() for t in TEAMS]
    s = new_game(load_killzone(kz_name), rosters[0], rosters[1])
    rng = random.Random(seed)
    states = [s]
    while not s.is_terminal:
        if isinstance(s.node, Chance):
            outcomes = s.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            action = rng.choice(list(s.legal_actions()))
        s, _ = s.apply(action)
        states.append(s)
    return states


def cpu_us(fn: object, repeat: int) -> float:
    """Median CPU µs of ``fn()`` over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()  # type: ignore[operator]
        times.append(1e6 * (time.process_time() - t))
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args()
    for name in LAYOUTS:  # movement graphs built (or loaded) before timing
        kz = load_killzone(name)
        for t in TEAMS:
            r = load_builtin_team(t).default()
            for k in range(len(r.operatives)):
                move_graph(kz, r.datacard(k).base_mm)
    rows: dict[float, dict[str, list[float]]] = {p: {} for p in POINTS}
    first_us, rebuild_ms = [], []
    for b in range(args.battles):
        states = battle(LAYOUTS[b % len(LAYOUTS)], b)
        t = time.process_time()
        pickle.dumps(states[0], protocol=pickle.HIGHEST_PROTOCOL)
        first_us.append(1e6 * (time.process_time() - t))
        key, recipe = states[0].ctx.pickle_key()
        t = time.process_time()
        recipe.build()
        rebuild_ms.append(1e3 * (time.process_time() - t))
        assert context_module._LIVE.get(key) is states[0].ctx
        for p in POINTS:
            s = states[min(len(states) - 1, int(p * len(states)))]
            blob = pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL)
            row = rows[p]
            row.setdefault("bytes", []).append(len(blob))
            row.setdefault("dumps", []).append(
                cpu_us(lambda s=s: pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL), args.repeat)
            )
            row.setdefault("loads", []).append(
                cpu_us(lambda blob=blob: pickle.loads(blob), args.repeat)
            )
            row.setdefault("round", []).append(
                cpu_us(
                    lambda s=s: pickle.loads(pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL)),
                    args.repeat,
                )
            )
            row.setdefault("deepcopy", []).append(cpu_us(lambda s=s: copy.deepcopy(s), args.repeat))
            back = pickle.loads(blob)
            assert back == s and back.hash() == s.hash() and back.ctx is s.ctx
    print(f"{args.battles} random battles, medians over {args.repeat} runs (CPU time)")
    heads = ("bytes", 7), ("dumps µs", 9), ("loads µs", 9), ("round µs", 9), ("deepcopy µs", 12)
    print(f"{'point':>6} " + " ".join(f"{h:>{w}}" for h, w in heads))
    for p, row in rows.items():
        med = {k: statistics.median(v) for k, v in row.items()}
        print(
            f"{p:>6.0%} {med['bytes']:>7.0f} {med['dumps']:>9.0f} {med['loads']:>9.0f} "
            f"{med['round']:>9.0f} {med['deepcopy']:>12.0f}"
        )
    print(f"first pickle of a battle (writes its recipe): {statistics.median(first_us):.0f} µs")
    print(
        f"context rebuilt from its recipe (another process): {statistics.median(rebuild_ms):.1f} ms"
    )


if __name__ == "__main__":
    main()
