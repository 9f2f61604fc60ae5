"""Where a random battle's time goes: the share of each part of the engine (cProfile,
cumulative time). The profiler inflates small Python functions, so the shares are indicative.

Run: ``python benchmarks/profile_battle.py [--battles 6] [FILE:FUNCTION ...]`` (default parts:
listing, move destinations and their steps, Shoot and Fight options, sight queries,
apply).

The battles are those of ``benchmarks/throughput.py``: Kasrkin v Legionaries, default rosters,
random agents and seeded dice, alternating the open ruins and close quarters layouts, movement
graphs built before profiling.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats

from engine.agents import RandomAgent
from engine.game.drivers import SeededDice, play
from engine.geometry import load_killzone
from engine.geometry.movement import move_graph
from engine.rulesets import new_game
from engine.teams import load_builtin_team

PARTS = (
    "flow.py:list_actions",
    "movement.py:move_destinations",
    "movement.py:move_candidates",
    "move_destinations.py:_reachable_costs",
    "move_destinations.py:_straight_costs",
    "move_destinations.py:_finals_memo",
    "move_destinations.py:query",
    "move_paths.py:_search",
    "move_destinations.py:_straight_reach_fast",
    "shoot_targets.py:iter_shoot_options",
    "fight.py:fight_options",
    "sight.py:visible",
    "sight.py:valid_target",
    "close_quarters.py:options",
    "flow.py:apply",
)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=6)
    ap.add_argument("parts", nargs="*", default=list(PARTS), help="FILE:FUNCTION names")
    args = ap.parse_args()
    kzs = [load_killzone(n) for n in ("open_ruins", "close_quarters")]
    rosters = [load_builtin_team(t).default() for t in ("kasrkin", "legionaries")]
    for kz in kzs:
        for r in rosters:
            for k in range(len(r.operatives)):
                move_graph(kz, r.datacard(k).base_mm)
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(args.battles):
        agents = {"A": RandomAgent(2 * seed), "B": RandomAgent(2 * seed + 1)}
        play(new_game(kzs[seed % 2], *rosters), agents, SeededDice(seed))
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = max(v[3] for v in stats.values())
    found: dict[str, tuple[float, int]] = {}
    for (path, _, name), v in stats.items():
        key = f"{path.replace(chr(92), '/').split('/')[-1]}:{name}"
        if key in args.parts:
            share, calls = found.get(key, (0.0, 0))
            found[key] = (share + v[3] / total, calls + v[1])
    print(f"{args.battles} random battles, {total:.2f} s profiled")
    for part in args.parts:
        share, calls = found.get(part, (0.0, 0))
        print(f"  {part:45s} {share * 100:5.1f}%  ({calls} calls)")


if __name__ == "__main__":
    main()
