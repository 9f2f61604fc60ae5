"""``killteam batch``: many seeded battles of one matchup in parallel processes
(:func:`engine.batch.run_batch`), then A's win/draw/loss rates with 95% Wilson score
intervals, mean VP per op and mean kills.

Game ``i`` is the battle of seed :func:`engine.play.game_seed` ``(BASE, i)``, so the output is
the same, byte for byte, whatever the backend (``--backend process|ray``) and the number of
workers. The progress goes to standard error (:mod:`engine.cli.running`: a bar on a terminal,
else a plain line every ``--progress-every`` games); ``-q``/``--quiet`` hides it. ``--out``
is written game by game.

Ctrl-C stops the batch: the games not finished are cancelled, the statistics of those
finished are printed under ``stopped after 37 of 100 battles`` (``--json``: with
``"interrupted": true`` and ``"planned"``), ``--out`` holds the finished games (whole lines, by
index), and the exit status is 130.
"""

from __future__ import annotations

import json
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
from engine.cli.running import BattleProgress, OrderedLines, backend_options
from engine.play import DEFAULT_SEED, op_title
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
        means.add_column(markup(f"{op_title(m.options.ruleset, op)} VP"), justify="right")
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
@backend_options
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
    ruleset: str | None,
    mission: str | None,
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
    backend: str,
    workers: int | None,
    progress_every: int,
    seed: int,
    out: str | None,
    strict_rules: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    """Play many seeded battles of one matchup in parallel and report A's win rate."""
    from engine.batch import BatchInterrupted, batch_stats, default_workers, run_batch
    from engine.play.matchup import unimplemented_rule_ids

    choice = choice_of(
        teams,
        rosters,
        killzone,
        agents,
        equipment_a,
        equipment_b,
        crit_op,
        tac_ops,
        primary_ops,
        ruleset,
        mission,
    )
    matchup = matchup_of(choice)
    report_rules(matchup, strict_rules)
    n_workers = workers or default_workers()
    progress = BattleProgress("batch", games, quiet=quiet, every=progress_every)
    writer = OrderedLines(out)

    def on_game(line: dict[str, Any]) -> None:
        writer.add(int(line["index"]), line)
        progress.advance()

    stopped: BatchInterrupted | None = None
    try:
        lines = run_batch(
            choice,
            games,
            base_seed=seed,
            workers=n_workers,
            backend=backend,
            on_game=on_game,
        )
    except BatchInterrupted as stop:
        stopped, lines = stop, stop.lines
    finally:
        progress.stop()
    writer.finish((int(line["index"]), line) for line in lines)
    if stopped is not None and not lines:
        echo(f"{versus(matchup)}: {stopped.message}, base seed {seed}")
        raise stopped
    stats = batch_stats(lines, matchup.options.ruleset)
    if as_json:
        data: dict[str, Any] = {
            "ruleset": matchup.options.ruleset,
            "mission": matchup.options.mission,
            "teams": {"A": matchup.rosters[0].team.name, "B": matchup.rosters[1].team.name},
            "killzone": matchup.killzone.name,
            "agents": {"A": matchup.agents[0], "B": matchup.agents[1]},
            "base_seed": seed,
            **stats.to_json(),
            "unimplemented_rules": unimplemented_rule_ids(matchup),
        }
        if stopped is not None:
            data.update(interrupted=True, planned=games)
        click.echo(json.dumps(data, indent=2))
    else:
        played = f"{games} games" if stopped is None else stopped.message
        echo(f"{versus(matchup)}: {played}, base seed {seed}")
        print_stats(console(), matchup, stats)
        if out is not None:
            echo(f"wrote {out}")
    if stopped is not None:
        raise stopped
