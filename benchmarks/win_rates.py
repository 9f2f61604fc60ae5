"""Win-rate matrix of the built-in teams: every ordered pair, the heuristic agent on both sides.

Run: ``python benchmarks/win_rates.py [--games N] [--teams T ...] [--killzones K ...]
[--seed BASE] [--workers W] [--out DIR]`` (default 50 games per ordered pair, every built-in
team, both shipped killzone layouts, base seed 17, 2 workers, results in ``win_rates/``).

- Each ordered pair (A, B) of distinct teams plays ``N`` battles of
  :func:`engine.batch.run_batch` with the default rosters and ``--agents heuristic``, split
  evenly over the killzones (the first gets the odd game); the killzone ``k`` of pair ``p``
  uses the base seed ``BASE + 1000 * k``, so every game is ``killteam play --teams A B
  --killzone K --seed <game_seed(BASE + 1000 * k, i)>``.
- The games of a pair are written to ``DIR/<A>-<B>.jsonl`` (one :func:`engine.batch.batch_line`
  per game, as ``killteam batch --out`` writes them); a pair whose file already holds ``N``
  games is read back instead of played again, so an interrupted run resumes.
- Prints a Markdown table: one row per ordered pair, with A's wins, draws and losses, A's win
  rate with its Wilson score 95% interval (:func:`engine.batch.wilson_interval`; a draw is
  not a win) and the mean VP of A and B; then the matrix of A's win rates (rows A, columns B).

Several hours of CPU for the full 30 pairs at 50 games on one core (about 2 s a battle):
use ``--workers`` and ``--games`` to suit the machine.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.batch import run_batch, wilson_interval
from engine.play.matchup import MatchupChoice
from engine.teams import builtin_teams, load_builtin_team

LAYOUTS = ("open_ruins", "close_quarters")


def pair_games(
    a: str, b: str, games: int, killzones: list[str], base: int, workers: int, out: Path
) -> list[dict[str, Any]]:
    """The ``games`` battles of ``a`` (player A) against ``b``, played or read back from
    ``out`` (module docstring)."""
    path = out / f"{a}-{b}.jsonl"
    if path.exists():
        lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
        if len(lines) == games:
            return lines
    lines = []
    for k, kz in enumerate(killzones):
        n = games // len(killzones) + (1 if k < games % len(killzones) else 0)
        if n == 0:
            continue
        choice = MatchupChoice(teams=(a, b), killzone=kz, agents="heuristic")
        for line in run_batch(choice, n, base_seed=base + 1000 * k, workers=workers):
            lines.append({**line, "killzone": kz})
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return lines


def main() -> None:
    """Play (or read back) every ordered pair and print the tables (module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50, help="battles per ordered pair")
    ap.add_argument("--teams", nargs="+", default=builtin_teams(), help="built-in team ids")
    ap.add_argument("--killzones", nargs="+", default=list(LAYOUTS), help="killzone layouts")
    ap.add_argument("--seed", type=int, default=17, help="base seed")
    ap.add_argument("--workers", type=int, default=2, help="worker processes per batch")
    ap.add_argument("--out", type=Path, default=Path("win_rates"), help="folder of results")
    args = ap.parse_args()
    if args.games < 1:
        sys.exit(f"--games must be at least 1, not {args.games}")
    args.out.mkdir(parents=True, exist_ok=True)
    names = {t: load_builtin_team(t).name for t in args.teams}
    rate: dict[tuple[str, str], str] = {}
    print("| A v B | A wins / draws / losses | A's win rate (95% CI) | mean VP A-B |")
    print("|---|---|---|---|")
    for a in args.teams:
        for b in args.teams:
            if a == b:
                continue
            lines = pair_games(a, b, args.games, args.killzones, args.seed, args.workers, args.out)
            n = len(lines)
            wins = sum(1 for x in lines if x["winner"] == "A")
            draws = sum(1 for x in lines if not x["winner"])
            lo, hi = wilson_interval(wins, n)
            vp_a = sum(x["vp"]["A"] for x in lines) / n
            vp_b = sum(x["vp"]["B"] for x in lines) / n
            rate[a, b] = f"{100 * wins / n:.0f}% ({100 * lo:.0f}-{100 * hi:.0f})"
            print(
                f"| {names[a]} v {names[b]} | {wins} / {draws} / {n - wins - draws} of {n} | "
                f"{rate[a, b]} | {vp_a:.1f}-{vp_b:.1f} |",
                flush=True,
            )
    print()
    print("| A \\ B | " + " | ".join(names[b] for b in args.teams) + " |")
    print("|---|" + "---|" * len(args.teams))
    for a in args.teams:
        cells = ["-" if a == b else rate[a, b] for b in args.teams]
        print(f"| {names[a]} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
