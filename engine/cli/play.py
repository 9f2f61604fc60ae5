"""``killteam play``: one whole battle (the embedded default without arguments: Kasrkin v
Legionaries, default rosters, open ruins, heuristic agents, seed 1), narrated per turning
point (:class:`engine.narration.Narrator`), then a summary: VP per mission op and player,
operatives left with their wounds, the winner or a draw.

``--record`` writes the engine's record, ``--picture`` the final board, ``--picture-each-tp``
one board per turning point, ``--json`` prints only a JSON summary (with the ploys each player
used and the equipment it selected), ``-q``/``--quiet`` only the summary. The matchup options
are those of :mod:`engine.cli.options`: ``--ruleset kt21`` plays Kill Team 2021 (its default
teams, :data:`engine.play.RULESET_TEAMS`, and Critical Operations 2022 unless ``--mission``
names another game sequence); the record's header names the ruleset. Seeds are documented in
:mod:`engine.play`.

The same options and seed give the same output, byte for byte: nothing printed depends on
time, the machine or the number of workers (tables: :func:`engine.cli.common.console`). Names
and paths from files, records and the command line are printed as written, never as ``rich``
markup or terminal control sequences (:mod:`engine.terminal`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from engine.cli.common import console, json_option, quiet_option
from engine.cli.common import table as new_table
from engine.cli.options import (
    MAX_SEED,
    choice_of,
    matchup_of,
    matchup_options,
    report_rules,
    strict_rules_option,
    versus,
)
from engine.cli.paths import PICTURE_SUFFIXES, check_output_file, output_folder
from engine.play import DEFAULT_SEED, op_title
from engine.terminal import add_row, echo, markup

if TYPE_CHECKING:
    from rich.console import Console

    from engine.game.actions import Action
    from engine.game.events import Event
    from engine.game.state import GameState
    from engine.play.summary import BattleSummary

__all__ = ["play_command", "print_summary"]


def print_summary(out: Console, s: BattleSummary) -> None:
    """The end-of-battle summary: result, VP per op and player, operatives left.

    Team, operative and agent names are printed as written (:mod:`engine.terminal`)."""
    if not s.finished:
        outcome = f"Unfinished after {s.steps} steps (turning point {s.turning_point})"
    elif s.winner:
        k = 0 if s.winner == "A" else 1
        outcome = f"{s.winner} ({s.teams[k]}) wins, {s.vp[k]}VP to {s.vp[1 - k]}VP"
    else:
        outcome = f"Draw, {s.vp[0]}VP each"
    out.print(f"[bold]{markup(outcome)}[/bold]")
    vp = new_table()
    vp.add_column("player")
    for op, _ in s.vp_by_op:
        vp.add_column(markup(op_title(s.ruleset, op)), justify="right")
    vp.add_column("total", justify="right")
    vp.add_column("kills", justify="right")
    vp.add_column("operatives left", justify="right")
    for k, p in enumerate(("A", "B")):
        mine = [o for o in s.operatives if o.player == p]
        add_row(
            vp,
            f"{p} {s.teams[k]} ({s.agents[k]})",
            *[str(v[k]) for _, v in s.vp_by_op],
            str(s.vp[k]),
            str(s.kills[k]),
            f"{len(s.left(p))}/{len(mine)}",
        )
    out.print("Victory points")
    out.print(vp)
    left = new_table()
    columns = []
    for k, p in enumerate(("A", "B")):
        left.add_column(markup(f"{p} {s.teams[k]}"))
        columns.append(
            [
                f"{o.id} {o.name} {o.wounds}/{o.max_wounds}"
                + (
                    f", {o.flesh_wounds} flesh wound{'s' * (o.flesh_wounds > 1)}"
                    * (o.flesh_wounds > 0)
                )
                for o in s.left(p)
            ]
            or ["none"]
        )
    for row in range(max(len(c) for c in columns)):
        add_row(left, *[c[row] if row < len(c) else "" for c in columns])
    out.print("Operatives left (wounds left/starting wounds)")
    out.print(left)


@click.command("play")
@matchup_options
@click.option(
    "--seed",
    type=click.IntRange(0, MAX_SEED),
    default=DEFAULT_SEED,
    show_default=True,
    help="Decides the whole battle: dice SeededDice(seed), agent seeds 2*seed (A) and "
    "2*seed+1 (B).",
)
@click.option(
    "--record",
    default=None,
    metavar="FILE",
    help="Write the game record (JSON Lines).",
)
@click.option(
    "--picture",
    default=None,
    metavar="FILE",
    help="Draw the final board to a .png or .svg file.",
)
@click.option(
    "--picture-each-tp",
    default=None,
    callback=output_folder,
    metavar="DIR",
    help="Draw the board at the end of each turning point to DIR/tp1.png ... (.svg when "
    "--picture is an .svg).",
)
@click.option(
    "--explain",
    is_flag=True,
    default=False,
    help="After each decision of an agent that explains itself (heuristic), print its top "
    '5 alternatives with their scores (with --json: an "explain" list in the JSON).',
)
@strict_rules_option
@json_option("the summary")
@quiet_option
def play_command(
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
    seed: int,
    record: str | None,
    picture: str | None,
    picture_each_tp: str | None,
    explain: bool,
    strict_rules: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    """Play one whole battle and narrate it (default: the embedded default battle)."""
    from engine.agents import make_agent
    from engine.agents.explain import EXPLAIN_TOP, Explaining, explanation_lines
    from engine.game.record import GameRecorder, make_header, write_record
    from engine.game.state import Decision
    from engine.narration import Narrator
    from engine.play import agent_seeds
    from engine.play.battle import play_battle

    # Output paths are checked before anything else is done (the folder of --picture-each-tp
    # when the options were parsed; a file may go inside it); that folder is created only once
    # every input is known to be good.
    created = [Path(picture_each_tp)] if picture_each_tp is not None else []
    if record is not None:
        check_output_file(record, "--record", created=created)
    if picture is not None:
        check_output_file(picture, "--picture", PICTURE_SUFFIXES, created=created)
    tp_suffix = ".svg" if picture is not None and picture.lower().endswith(".svg") else ".png"
    matchup = matchup_of(
        choice_of(
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
    )
    report_rules(matchup, strict_rules)
    tp_dir = None
    if picture_each_tp is not None:
        tp_dir = Path(picture_each_tp)
        try:
            tp_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise click.BadParameter(
                f"{picture_each_tp}: cannot create folder: {exc.strerror}",
                param_hint="--picture-each-tp",
            ) from None
    start = matchup.new_game()
    if picture is not None or tp_dir is not None:
        from engine.board import board_title, render_state
    narrate = not (as_json or quiet)
    if narrate:
        crit = f", crit op {start.mission.crit_op}" if start.mission.crit_op else ""
        echo(f"{versus(matchup)}, seed {seed}{crit}")
    narrator = Narrator(echo)
    recorder = (
        GameRecorder(
            make_header(start, seed=seed, agents={"A": matchup.agents[0], "B": matchup.agents[1]})
        )
        if record is not None
        else None
    )
    written: list[str] = []
    sa, sb = agent_seeds(seed)
    players = {"A": make_agent(matchup.agents[0], sa), "B": make_agent(matchup.agents[1], sb)}
    explained: list[dict[str, object]] = []  # for --json

    def on_step(
        before: GameState, action: Action, actor: str, after: GameState, events: list[Event]
    ) -> None:
        if recorder is not None:
            recorder.on_step(before, action, actor, after, events)
        if narrate:
            narrator.on_step(before, action, actor, after, events)
        node = before.node
        agent = players.get(actor)
        if explain and isinstance(node, Decision) and isinstance(agent, Explaining):
            alternatives = agent.explain()[:EXPLAIN_TOP]
            if narrate:
                narrator.aside(explanation_lines(actor, alternatives))
            elif as_json and alternatives:
                explained.append(
                    {
                        "step": before.step,
                        "player": actor,
                        "kind": node.kind,
                        "alternatives": [a.to_json() for a in alternatives],
                    }
                )
        if tp_dir is not None:
            for e in events:
                if e.kind == "turning_point_ended":
                    tp = int(e["tp"])
                    out = tp_dir / f"tp{tp}{tp_suffix}"
                    render_state(after, out, title=board_title(after, f"end of turning point {tp}"))
                    written.append(str(out))

    final, summary = play_battle(matchup, seed, on_step=on_step, start=start, agents=players)
    if narrate:
        narrator.close()
    if recorder is not None and record is not None:
        recorder.finish(final)
        write_record(record, recorder.lines)
        written.append(record)
    if picture is not None:
        render_state(final, picture)
        written.append(picture)
    if as_json:
        out = summary.to_json()
        if explain:
            out = {**out, "explain": explained}
        click.echo(json.dumps(out, indent=2))
        return
    print_summary(console(), summary)
    for path in written:
        echo(f"wrote {path}")
