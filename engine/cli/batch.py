"""``killteam batch``: many seeded battles of one matchup in parallel processes
(:func:`engine.batch.run_batch`), then A's win/draw/loss rates with 95% Wilson score
intervals, mean VP per op and mean kills.

Game ``i`` is the battle of seed :func:`engine.play.game_seed` ``(BASE, i)``, so the output is
the same, byte for byte, whatever the number of workers. ``-q``/``--quiet`` hides the progress
bar (shown only on a terminal, on standard error).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from engine.cli.common import console, json_option, quiet_option
from engine.cli.common import table as new_table
from engine.cli.options import (
    MAX_GAMES,
    MAX_SEED,
    choice_of,
    matchup_of,
    matchup_options,
    report_rules,
    strict_rules_option,
    versus,
)
from engine.cli.paths import output_file
from engine.play import DEFAULT_SEED, OP_TITLES
from engine.terminal import add_row, echo, markup

if TYPE_CHECKING:
    from rich.console import Console

    from engine.batch import BatchStats
    from engine.play.matchup import Matchup

__all__ = ["batch_command", "print_stats"]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def print_stats(out: Console, m: Matchup, stats: BatchStats) -> None:
    """Win/draw/loss rates of A with their Wilson intervals, and the means per player.

    Team and agent names are printed as written (:mod:`engine.terminal`)."""
    table = new_table()
    for col, justify in (("result", "left"), ("games", "right"), ("rate", "right")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    table.add_column("95% CI (Wilson)", justify="right")
    for name, r in (("win", stats.win), ("draw", stats.draw), ("loss", stats.loss)):
        table.add_row(name, str(r.count), _pct(r.rate), f"{_pct(r.ci[0])} - {_pct(r.ci[1])}")
    out.print(f"Results of player A over {stats.games} games")
    out.print(table)
    means = new_table()
    means.add_column("player")
    for op, _ in stats.mean_vp_by_op:
        means.add_column(markup(f"{OP_TITLES.get(op, op)} VP"), justify="right")
    means.add_column("total VP", justify="right")
    means.add_column("kills", justify="right")
    for k, p in enumerate(("A", "B")):
        add_row(
            means,
            f"{p} {m.rosters[k].team.name} ({m.agents[k]})",
            *[f"{v[k]:.2f}" for _, v in stats.mean_vp_by_op],
            f"{stats.mean_vp[k]:.2f}",
            f"{stats.mean_kills[k]:.2f}",
        )
    out.print("Means per game")
    out.print(means)
    if stats.unfinished:
        out.print(f"{stats.unfinished} games hit the step limit (counted as draws)")


@click.command("batch")
@matchup_options
@click.option(
    "-n",
    "--games",
    type=click.IntRange(1, MAX_GAMES),
    default=100,
    show_default=True,
    help="Games.",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 512),
    default=None,
    help="Worker processes (default: the CPUs available). Results never depend on it.",
)
@click.option(
    "--seed",
    type=click.IntRange(0, MAX_SEED),
    default=DEFAULT_SEED,
    show_default=True,
    help="Base seed: game i uses the seed SeedSequence([BASE, i]).generate_state(1)[0].",
)
@click.option(
    "-o",
    "--output",
    "--out",
    "out",
    default=None,
    callback=output_file(),
    metavar="FILE",
    help="Write one JSON line per game (by index) to FILE (--out: the same option).",
)
@strict_rules_option
@json_option("the statistics")
@quiet_option
def batch_command(
    teams: tuple[str, str] | None,
    rosters: tuple[str, str] | None,
    killzone: str | None,
    agents: str | None,
    equipment_a: str | None,
    equipment_b: str | None,
    crit_op: str | None,
    tac_ops: tuple[str, str] | None,
    primary_ops: tuple[str, str] | None,
    games: int,
    workers: int | None,
    seed: int,
    out: str | None,
    strict_rules: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    """Play many seeded battles of one matchup in parallel and report A's win rate."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from engine.batch import batch_stats, default_workers, run_batch
    from engine.game.record import dumps_line
    from engine.play.matchup import unimplemented_rule_ids

    choice = choice_of(
        teams, rosters, killzone, agents, equipment_a, equipment_b, crit_op, tac_ops, primary_ops
    )
    matchup = matchup_of(choice)
    report_rules(matchup, strict_rules)
    n_workers = workers or default_workers()
    show = not quiet and sys.stderr.isatty()
    progress = Progress(
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console(stderr=True),
        disable=not show,
        transient=True,
    )
    task = progress.add_task("games", total=games)

    def on_game(_line: dict[str, Any]) -> None:
        # Started on the first result, once the worker processes exist (never fork while the
        # progress bar's refresh thread runs).
        if not progress.live.is_started:
            progress.start()
        progress.advance(task)

    try:
        lines = run_batch(choice, games, base_seed=seed, workers=n_workers, on_game=on_game)
    finally:
        progress.stop()
    stats = batch_stats(lines)
    if out is not None:
        Path(out).write_text("".join(dumps_line(line) + "\n" for line in lines), encoding="utf-8")
    if as_json:
        data: dict[str, Any] = {
            "teams": {"A": matchup.rosters[0].team.name, "B": matchup.rosters[1].team.name},
            "killzone": matchup.killzone.name,
            "agents": {"A": matchup.agents[0], "B": matchup.agents[1]},
            "base_seed": seed,
            **stats.to_json(),
            "unimplemented_rules": unimplemented_rule_ids(matchup),
        }
        click.echo(json.dumps(data, indent=2))
        return
    echo(f"{versus(matchup)}: {games} games, base seed {seed}")
    print_stats(console(), matchup, stats)
    if out is not None:
        echo(f"wrote {out}")
