"""``killteam tournament``: a seat-balanced round robin of agents and/or teams
(:mod:`engine.play.tournament`), with Bradley-Terry ratings on the Elo scale and 95% bootstrap
intervals (:mod:`engine.play.ratings`).

Entrants: ``--agents random,heuristic`` (agents, on the default teams or ``--teams ONE`` in a
mirror match), ``--teams kasrkin,legionaries`` (teams played by one agent), or both lists
(every (team, agent) pair). Every pair plays ``-n`` battles in each seat; battle ``k`` of
every pair has the seed :func:`engine.play.game_seed` ``(BASE, k)``, so each replays alone
with ``killteam play``.

Outputs: the ratings table and the pairs' W/D/L (user text printed as written), ``--json``
(only the results, as JSON, on standard output), ``--json-out FILE`` (the same JSON to a
file), ``--csv FILE`` (one row per entrant, and the pairs in ``FILE``'s ``.pairs.csv``),
``--plot FILE.png`` (ratings with their intervals) and ``--out FILE`` (one JSON line per
battle, as ``killteam batch --out`` with the game's number, entrants and teams). Backends,
progress and Ctrl-C as ``killteam batch`` (:mod:`engine.cli.running`): Ctrl-C rates the
battles finished, says ``stopped after 37 of 100 battles`` and exits with status 130.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from engine.cli.common import console, json_option, quiet_option
from engine.cli.common import table as new_table
from engine.cli.options import MAX_GAMES, MAX_SEED, ruleset_option
from engine.cli.paths import PICTURE_SUFFIXES, output_file
from engine.cli.running import BattleProgress, OrderedLines, backend_options
from engine.play import DEFAULT_KILLZONE, DEFAULT_SEED, DEFAULT_TEAMS
from engine.terminal import add_row, echo, markup

if TYPE_CHECKING:
    from rich.console import Console

    from engine.play.tournament import TournamentResult

__all__ = ["print_result", "tournament_command"]


def print_result(out: Console, result: TournamentResult) -> None:
    """The ratings table (best first) and the pairs' results; entrant names printed as
    written (:mod:`engine.terminal`)."""
    ratings = new_table()
    for col, justify in (
        ("#", "right"),
        ("entrant", "left"),
        ("rating", "right"),
        ("95% interval", "right"),
        ("games", "right"),
        ("W", "right"),
        ("D", "right"),
        ("L", "right"),
        ("score", "right"),
    ):
        ratings.add_column(col, justify=justify)  # type: ignore[arg-type]
    for rank, s in enumerate(result.standings, 1):
        add_row(
            ratings,
            rank,
            s.entrant.name,
            f"{s.rating:.0f}",
            f"{s.low:.0f} - {s.high:.0f}",
            s.games,
            s.wins,
            s.draws,
            s.losses,
            f"{100 * s.score:.1f}%",
        )
    out.print(markup(f"Ratings: {result.method}"))  # two lines
    out.print(ratings)
    pairs = new_table()
    for col, justify in (
        ("entrant", "left"),
        ("opponent", "left"),
        ("games", "right"),
        ("W", "right"),
        ("D", "right"),
        ("L", "right"),
        ("score", "right"),
    ):
        pairs.add_column(col, justify=justify)  # type: ignore[arg-type]
    for p in result.pairs:
        add_row(pairs, p.a, p.b, p.games, p.wins, p.draws, p.losses, f"{100 * p.score:.1f}%")
    out.print("Pairs (both seats; W/D/L of the entrant)")
    out.print(pairs)


@click.command("tournament")
@click.option(
    "--agents",
    default="random,heuristic",
    show_default=True,
    metavar="A,B,...",
    help="Agents separated by commas (killteam play --agents takes each). With no --teams or "
    "one team, each agent is an entrant.",
)
@click.option(
    "--teams",
    default=None,
    metavar="T,U,...",
    help="Teams separated by commas (built-in ids or .json team files). One team: every "
    "battle is that team against itself. Two or more: each team is an entrant (with one "
    "agent), or each (team, agent) pair (with several). Default: the entrant in seat A plays "
    f"{DEFAULT_TEAMS[0]}, the one in seat B {DEFAULT_TEAMS[1]} (the ruleset's defaults under "
    "--ruleset).",
)
@click.option(
    "--killzone",
    default=None,
    metavar="NAME|FILE",
    help=f"A shipped layout name or a layout file. Default: {DEFAULT_KILLZONE}.",
)
@click.option(
    "--crit-op",
    default=None,
    metavar="NAME",
    help="The crit op of every battle. Default: rolled at the start of each battle.",
)
@click.option(
    "-n",
    "--games",
    type=click.IntRange(1, MAX_GAMES),
    default=10,
    show_default=True,
    help="Battles of every pair of entrants in each seat.",
)
@click.option(
    "--seed",
    type=click.IntRange(0, MAX_SEED),
    default=DEFAULT_SEED,
    show_default=True,
    help="Base seed: battle k of every pair uses the seed SeedSequence([BASE, k]).",
)
@backend_options
@click.option(
    "--anchor",
    default=None,
    metavar="ENTRANT",
    help="Rate this entrant 0 (default: the mean rating is 1500).",
)
@click.option(
    "--prior",
    type=click.FloatRange(0, 1000, min_open=True),
    default=1.0,
    show_default=True,
    help="Virtual games of each entrant against an average one, half won: keeps the "
    "ratings finite when an entrant wins or loses every game.",
)
@click.option(
    "--bootstrap",
    type=click.IntRange(1, 100_000),
    default=1000,
    show_default=True,
    metavar="N",
    help="Bootstrap replicates of the 95% intervals (seed 0: the same results give the same "
    "intervals).",
)
@click.option(
    "-o",
    "--output",
    "--out",
    "out",
    default=None,
    callback=output_file(),
    metavar="FILE",
    help="Write one JSON line per battle (in schedule order) to FILE.",
)
@click.option(
    "--csv",
    "csv_path",
    default=None,
    callback=output_file(),
    metavar="FILE",
    help="Write the ratings (one row per entrant) to FILE and the pairs to FILE's .pairs.csv.",
)
@click.option(
    "--json-out",
    default=None,
    callback=output_file(),
    metavar="FILE",
    help="Write the results as JSON (what --json prints) to FILE.",
)
@click.option(
    "--plot",
    default=None,
    callback=output_file(PICTURE_SUFFIXES),
    metavar="FILE",
    help="Draw the ratings with their intervals to a .png or .svg picture.",
)
@ruleset_option
@json_option("the results")
@quiet_option
def tournament_command(
    ruleset: str | None,
    agents: str,
    teams: str | None,
    killzone: str | None,
    crit_op: str | None,
    games: int,
    seed: int,
    backend: str,
    workers: int | None,
    progress_every: int,
    anchor: str | None,
    prior: float,
    bootstrap: int,
    out: str | None,
    csv_path: str | None,
    json_out: str | None,
    plot: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Play a seat-balanced round robin of agents or teams and rate them (Bradley-Terry, Elo
    scale, 95% intervals)."""
    from engine.batch import BatchInterrupted, default_workers
    from engine.play import BattleError
    from engine.play.matchup import parse_agents
    from engine.play.tournament import (
        make_entrants,
        plot_ratings,
        run_tournament,
        schedule,
        tournament_result,
        write_csv,
    )

    try:
        entrants = make_entrants(agents, teams or ())
        for agent in dict.fromkeys(e.agent for e in entrants):
            parse_agents(agent)
    except BattleError as exc:
        raise click.UsageError(str(exc)) from None
    names = [e.name for e in entrants]
    if anchor is not None and anchor not in names:
        raise click.BadParameter(
            f"{anchor!r} is not an entrant ({', '.join(names)})", param_hint="--anchor"
        )
    try:
        pairings = schedule(
            entrants, games, base_seed=seed, killzone=killzone, crit_op=crit_op, ruleset=ruleset
        )
    except BattleError as exc:
        raise click.UsageError(str(exc)) from None
    progress = BattleProgress("tournament", len(pairings), quiet=quiet, every=progress_every)
    writer = OrderedLines(out)

    def on_line(k: int, line: dict[str, Any]) -> None:
        writer.add(k, line)
        progress.advance()

    stopped: BatchInterrupted | None = None
    try:
        lines = run_tournament(
            entrants,
            pairings,
            backend=backend,
            workers=workers or default_workers(),
            on_line=on_line,
        )
    except BatchInterrupted as stop:
        stopped, lines = stop, stop.lines
    finally:
        progress.stop()
    writer.finish((int(line["game"]), line) for line in lines)
    header = (
        f"{len(entrants)} entrants ({', '.join(names)}), {games} battles per seat per pair, "
        f"base seed {seed}"
    )
    if stopped is not None:
        header += f": {stopped.message}"
    if stopped is not None and not lines:
        echo(f"Tournament of {header}")
        raise stopped
    result = tournament_result(
        entrants,
        lines,
        planned=len(pairings),
        prior=prior,
        anchor=anchor,
        replicates=bootstrap,
    )
    data = {
        "entrant_names": names,
        "games_per_seat": games,
        "base_seed": seed,
        "killzone": killzone or DEFAULT_KILLZONE,
        "backend": backend,
        **result.to_json(),
    }
    if json_out is not None:
        Path(json_out).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    written = [p for p in (out, json_out) if p is not None]
    if csv_path is not None:
        written += [str(p) for p in write_csv(result, csv_path)]
    if plot is not None:
        plot_ratings(result, plot)
        written.append(plot)
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        echo(f"Tournament of {header}")
        print_result(console(), result)
        for path in written:
            echo(f"wrote {path}")
    if stopped is not None:
        raise stopped
