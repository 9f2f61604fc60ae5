"""The ``killteam play``, ``killteam replay`` and ``killteam batch`` commands.

- ``killteam play``: one whole battle (the embedded default without arguments: Kasrkin v
  Legionaries, default rosters, open ruins, heuristic agents, seed 1), narrated per turning
  point (:class:`engine.narration.Narrator`), then a summary: VP per mission op and player,
  operatives left with their wounds, the winner or a draw. ``--record`` writes the engine's
  record, ``--picture`` the final board, ``--picture-each-tp`` one board per turning point,
  ``--json`` prints only a JSON summary (with the ploys each player used and the equipment
  it selected), ``--quiet`` only the summary. ``--equipment-a``/``--equipment-b`` (also on
  ``batch``) fix a player's equipment (``rules/KT24.md`` 7.2: universal options and the
  team's own, :func:`engine.play.parse_equipment`, checked per team); without them the
  player's agent chooses.
- ``killteam replay RECORD``: re-plays a record, narrates it and checks that it reproduces
  the recorded states; status 1 at the first divergence (the message names the line and the
  step), 2 for a record that cannot be read or is malformed
  (:class:`~engine.game.record.RecordFormatError`: the message names the line and the field).
  Its summary says what a replay does not check (the dice against the seed, the agents'
  decisions, the built-in team data); ``--verify`` checks those too
  (:func:`engine.verify.verify_record`, strict), says what it verified, and exits with
  status 1 at the first difference or when a part cannot be verified.
  A scenario file (``.toml``, :mod:`engine.game.scenario_file`) is run instead: each step
  narrated, its expectations checked; status 1 when a step is rejected or an expectation
  differs, 2 when the file is unreadable or malformed.
- ``killteam batch``: many seeded battles of one matchup in parallel processes, then A's
  win/draw/loss rates with 95% Wilson score intervals, mean VP per op and mean kills.

Names and paths from files, records and the command line are printed as written, never as
``rich`` markup or terminal control sequences (:mod:`engine.terminal`).

Seeds are documented in :mod:`engine.play` and :mod:`engine.batch`. The same options and seed
give the same output, byte for byte: nothing printed depends on time, the machine or the
number of workers, and tables are drawn 100 columns wide unless standard output is a
terminal.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from engine import RULESET
from engine.batch import BatchStats, batch_stats, default_workers, run_batch
from engine.cli_paths import PICTURE_SUFFIXES, check_output_file, output_file, output_folder
from engine.errors import KillTeamError
from engine.game.actions import Action
from engine.game.events import Event
from engine.game.record import (
    GameRecorder,
    RecordFormatError,
    RecordVerificationError,
    ReplayError,
    dumps_line,
    make_header,
    replay_record,
    write_record,
)
from engine.game.state import GameState
from engine.inputs import EXCERPT_CHARS, excerpt
from engine.names import TEAM_FILE_SUFFIXES, check_builtin_name, is_file_ref
from engine.narration import Narrator
from engine.play import (
    DEFAULT_AGENTS,
    DEFAULT_KILLZONE,
    DEFAULT_SEED,
    DEFAULT_TEAMS,
    NO_EQUIPMENT,
    OP_TITLES,
    BattleError,
    BattleSummary,
    Matchup,
    MatchupChoice,
    PloyTally,
    VpTally,
    builtin_team_equipment,
    make_matchup,
    parse_agents,
    parse_equipment,
    play_battle,
    summarise,
    unimplemented_rule_ids,
    unimplemented_rules_line,
)
from engine.rulesets import get as get_ruleset
from engine.teams.io import builtin_teams
from engine.terminal import add_row, echo, markup
from engine.verify import NOT_CHECKED_BY_REPLAY, verify_record

__all__ = ["RecordFormatError", "batch_command", "play_command", "register", "replay_command"]

#: Width of rich output when standard output is not a terminal (deterministic tables).
WIDTH = 100


def _console(stderr: bool = False) -> Console:
    stream = sys.stderr if stderr else sys.stdout
    tty = stream.isatty()
    return Console(
        file=stream,
        width=None if tty else WIDTH,
        highlight=False,
        soft_wrap=False,
        emoji=False,
    )


def _agents_option(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        parse_agents(value)
    except BattleError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


def _equipment_option(
    _ctx: click.Context, _param: click.Parameter, value: str | None
) -> str | None:
    if value is None:
        return None
    try:
        parse_equipment(value, builtin_team_equipment())  # checked per team by make_matchup
    except BattleError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


#: The largest seed: every seed is kept in records and JSON output, and JSON integers are exact
#: in every reader (JavaScript's included) only up to 2**53 - 1.
MAX_SEED = 2**53 - 1

#: The most games ``killteam batch`` plays in one run (far above real use: a battle takes
#: seconds).
MAX_GAMES = 1_000_000


def _teams_option(
    _ctx: click.Context, _param: click.Parameter, value: tuple[str, str] | None
) -> tuple[str, str] | None:
    """``--teams A B``: each a built-in team id or a ``.json`` team file
    (:mod:`engine.names`: anything else must be a built-in id; a name is never a path)."""
    if not value:
        return value
    known = builtin_teams()
    for player, ref in zip(("A", "B"), value, strict=True):
        if not is_file_ref(ref, TEAM_FILE_SUFFIXES):
            shown = ref if len(ref) <= EXCERPT_CHARS and ref.isprintable() else excerpt(ref)
            shown = shown.replace("{", "{{").replace("}", "}}")  # literal in the template
            try:
                check_builtin_name(
                    ref,
                    known,
                    f"team of player {player}: {shown}: "
                    "not a built-in team ({known}) or a team file",
                    BattleError,
                )
            except BattleError as exc:
                raise click.UsageError(str(exc)) from None
    return value


def _matchup(choice: MatchupChoice) -> Matchup:
    """The matchup of ``choice``; its notes (a roster chosen automatically and the rules it
    was checked against) go to standard error."""
    try:
        matchup = make_matchup(choice)
    except BattleError as exc:
        raise click.UsageError(str(exc)) from None
    for note in matchup.notes:
        echo(note, err=True)
    return matchup


def _choice(
    teams: tuple[str, str] | None,
    rosters: tuple[str, str] | None,
    killzone: str | None,
    agents: str | None,
    equipment_a: str | None = None,
    equipment_b: str | None = None,
    crit_op: str | None = None,
    tac_ops: tuple[str, str] | None = None,
    primary_ops: tuple[str, str] | None = None,
) -> MatchupChoice:
    return MatchupChoice(
        teams=teams or None,
        rosters=rosters or None,
        killzone=killzone,
        agents=agents,
        equipment=(equipment_a, equipment_b),
        crit_op=crit_op,
        tac_ops=(tac_ops[0], tac_ops[1]) if tac_ops else (None, None),
        primary_ops=(primary_ops[0], primary_ops[1]) if primary_ops else (None, None),
    )


def _matchup_options(f: Any) -> Any:
    options = (
        click.option(
            "--teams",
            nargs=2,
            default=None,
            callback=_teams_option,
            metavar="A B",
            help="Teams of players A and B: built-in ids (killteam teams list), team files, or "
            "killteamjson team files (a file is a .json path; anything else must be a built-in "
            "id); default rosters (or one chosen from the selection rules). "
            f"Default: {' '.join(DEFAULT_TEAMS)}.",
        ),
        click.option(
            "--rosters",
            nargs=2,
            default=None,
            metavar="FILE FILE",
            help='Roster files of A and B: {"team": ID_OR_FILE, "operatives": [...]}.',
        ),
        click.option(
            "--killzone",
            default=None,
            metavar="NAME|FILE",
            help="A shipped layout name or a layout file (a .toml or .json path). "
            f"Default: {DEFAULT_KILLZONE}.",
        ),
        click.option(
            "--agents",
            default=None,
            callback=_agents_option,
            metavar="A[,B]",
            help=f"heuristic or random, for both players or as A,B. Default: {DEFAULT_AGENTS[0]}.",
        ),
        click.option(
            "--equipment-a",
            default=None,
            callback=_equipment_option,
            metavar="NAMES",
            help="Player A's equipment: up to four options separated by commas, universal or "
            "A's team's own (killteam teams show TEAM lists them), e.g. "
            f'"Explosive Grenades (2 frag),Mines", or {NO_EQUIPMENT}; the grenade options with '
            "their split (2 smoke, 2 stun, smoke and stun; 2 frag, 2 krak, frag and krak). "
            "Default: A's agent chooses.",
        ),
        click.option(
            "--equipment-b",
            default=None,
            callback=_equipment_option,
            metavar="NAMES",
            help="Player B's equipment, as --equipment-a. Default: B's agent chooses.",
        ),
        click.option(
            "--crit-op",
            default=None,
            metavar="NAME",
            help="The crit op (Approved Ops 2025): Secure, Loot, Transmission, Orb, Stake Claim, "
            "Energy Cells, Download, Data or Reboot. Default: rolled at the start of the battle.",
        ),
        click.option(
            "--tac-ops",
            nargs=2,
            default=None,
            metavar="A B",
            help="The tac ops of A and B (quote names with spaces), each of its kill team's "
            "archetypes. Default: each player's agent selects, in secret.",
        ),
        click.option(
            "--primary-ops",
            nargs=2,
            default=None,
            type=click.Choice(["crit", "tac", "kill"], case_sensitive=False),
            metavar="OP OP",
            help="The primary ops of A and B: crit, tac or kill. Default: each player's agent "
            "selects, in secret.",
        ),
    )
    for option in reversed(options):
        f = option(f)
    return f


def _versus(m: Matchup | BattleSummary, agents: tuple[str, str]) -> str:
    if isinstance(m, Matchup):
        teams = (m.rosters[0].team.name, m.rosters[1].team.name)
        kz = m.killzone.name
    else:
        teams, kz = m.teams, m.killzone
    return f"{teams[0]} (A, {agents[0]}) v {teams[1]} (B, {agents[1]}) on {kz}"


def print_summary(console: Console, s: BattleSummary) -> None:
    """The end-of-battle summary: result, VP per op and player, operatives left.

    Team, operative and agent names are printed as written (:mod:`engine.terminal`)."""
    if not s.finished:
        outcome = f"Unfinished after {s.steps} steps (turning point {s.turning_point})"
    elif s.winner:
        k = 0 if s.winner == "A" else 1
        outcome = f"{s.winner} ({s.teams[k]}) wins, {s.vp[k]}VP to {s.vp[1 - k]}VP"
    else:
        outcome = f"Draw, {s.vp[0]}VP each"
    console.print(f"[bold]{markup(outcome)}[/bold]")
    vp = Table()
    vp.add_column("player")
    for op, _ in s.vp_by_op:
        vp.add_column(markup(OP_TITLES.get(op, op)), justify="right")
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
    console.print("Victory points")
    console.print(vp)
    left = Table()
    columns = []
    for k, p in enumerate(("A", "B")):
        left.add_column(markup(f"{p} {s.teams[k]}"))
        columns.append(
            [f"{o.id} {o.name} {o.wounds}/{o.max_wounds}" for o in s.left(p)] or ["none"]
        )
    for row in range(max(len(c) for c in columns)):
        add_row(left, *[c[row] if row < len(c) else "" for c in columns])
    console.print("Operatives left (wounds left/starting wounds)")
    console.print(left)


def _report_rules(matchup: Matchup, strict: bool) -> None:
    """Print one line on standard error naming the unimplemented team rules of the teams in
    play, when there is any; with ``strict`` and any such rule, refuse to play (exit status
    2)."""
    ids = unimplemented_rule_ids(matchup)
    if any(ids.values()):
        echo(unimplemented_rules_line(matchup), err=True)
    if strict and any(ids.values()):
        raise KillTeamError(
            "--strict-rules: refusing to play, "
            f"{len(ids['A']) + len(ids['B'])} team rules are not implemented (listed above)"
        )


# -------------------------------------------------------------------------------------------
# killteam play
# -------------------------------------------------------------------------------------------


@click.command("play")
@_matchup_options
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
    "--strict-rules",
    is_flag=True,
    help="Refuse to play (exit status 2) when a team in play has rules the engine does not "
    "implement (killteam teams rules TEAM lists them).",
)
@click.option("--json", "as_json", is_flag=True, help="Print only a JSON summary.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary (no narration).")
def play_command(
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
    strict_rules: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    """Play one whole battle and narrate it (default: the embedded default battle)."""
    # Output paths are checked before anything else is done (the folder of --picture-each-tp
    # when the options were parsed; a file may go inside it); that folder is created only once
    # every input is known to be good.
    created = [Path(picture_each_tp)] if picture_each_tp is not None else []
    if record is not None:
        check_output_file(record, "--record", created=created)
    if picture is not None:
        check_output_file(picture, "--picture", PICTURE_SUFFIXES, created=created)
    tp_suffix = ".svg" if picture is not None and picture.lower().endswith(".svg") else ".png"
    matchup = _matchup(
        _choice(
            teams,
            rosters,
            killzone,
            agents,
            equipment_a,
            equipment_b,
            crit_op,
            tac_ops,
            primary_ops,
        )
    )
    _report_rules(matchup, strict_rules)
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
        echo(f"{_versus(matchup, matchup.agents)}, seed {seed}{crit}")
    narrator = Narrator(echo)
    recorder = (
        GameRecorder(
            make_header(start, seed=seed, agents={"A": matchup.agents[0], "B": matchup.agents[1]})
        )
        if record is not None
        else None
    )
    written: list[str] = []

    def on_step(
        before: GameState, action: Action, actor: str, after: GameState, events: list[Event]
    ) -> None:
        if recorder is not None:
            recorder.on_step(before, action, actor, after, events)
        if narrate:
            narrator.on_step(before, action, actor, after, events)
        if tp_dir is not None:
            for e in events:
                if e.kind == "turning_point_ended":
                    tp = int(e["tp"])
                    out = tp_dir / f"tp{tp}{tp_suffix}"
                    render_state(after, out, title=board_title(after, f"end of turning point {tp}"))
                    written.append(str(out))

    final, summary = play_battle(matchup, seed, on_step=on_step, start=start)
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
        click.echo(json.dumps(summary.to_json(), indent=2))
        return
    console = _console()
    print_summary(console, summary)
    for path in written:
        echo(f"wrote {path}")


# -------------------------------------------------------------------------------------------
# killteam replay
# -------------------------------------------------------------------------------------------


@click.command("replay")
@click.argument("record_file", metavar="RECORD")
@click.option(
    "--verify",
    is_flag=True,
    help="Also check that every roll is the recorded seed's, every decision of a built-in "
    "agent (heuristic, random) is that agent's with its seed, and every built-in team id "
    "carries this engine's built-in team data; status 1 at the first difference, or when "
    "a part cannot be verified (no seed, another agent, a team that is not built in).",
)
@click.option("--json", "as_json", is_flag=True, help="Print only a JSON summary.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary (no narration).")
def replay_command(record_file: str, verify: bool, as_json: bool, quiet: bool) -> None:
    """Re-play a game record, narrate it and check it reproduces the recorded states (with
    --verify: also its dice, its agents' decisions and its built-in team data, so a record
    from another player can be trusted); or run a scenario file (.toml), narrate each step
    and check its expectations."""
    if record_file.lower().endswith(".toml"):
        if verify:
            raise click.UsageError(
                "--verify checks game records; a scenario file has no seed or agents to verify"
            )
        _run_scenario_file(record_file, as_json, quiet)
        return
    narrate = not (as_json or quiet)
    narrator = Narrator(echo)
    tally = VpTally()
    ploys = PloyTally()
    started: list[Mapping[str, Any]] = []

    def on_start(header: Mapping[str, Any], start: GameState) -> None:
        started.append(header)
        if narrate:
            agents = header["agents"]
            teams = (start.ctx.rosters["A"].team.name, start.ctx.rosters["B"].team.name)
            echo(
                f"Replaying {record_file}: {teams[0]} (A, {agents['A']}) v {teams[1]} "
                f"(B, {agents['B']}) on {start.ctx.killzone.name}, seed {header['seed']}"
                + (f", crit op {start.mission.crit_op}" if start.mission.crit_op else "")
            )

    def on_step(
        before: GameState, action: Action, actor: str, after: GameState, events: list[Event]
    ) -> None:
        tally.on_step(before, action, actor, after, events)
        ploys.on_step(before, action, actor, after, events)
        if narrate:
            narrator.on_step(before, action, actor, after, events)

    verified: tuple[str, ...] = ()
    not_verified: tuple[str, ...] = NOT_CHECKED_BY_REPLAY
    try:
        if verify:
            checked = verify_record(record_file, on_start=on_start, on_step=on_step)
            outcome, verified, not_verified = checked.outcome, checked.verified, ()
        else:
            outcome = replay_record(
                record_file, ruleset=get_ruleset(RULESET), on_start=on_start, on_step=on_step
            )
    except ReplayError as exc:
        if narrate and started:
            narrator.close()
        text = str(exc)
        if isinstance(exc, RecordFormatError):  # a malformed record: status 2
            raise RecordFormatError(
                text if text.startswith(record_file) else f"{record_file}: {text}"
            ) from None
        if isinstance(exc, RecordVerificationError):  # status 1
            raise click.ClickException(f"{record_file} does not verify: {text}") from None
        raise click.ClickException(f"{record_file} does not replay: {text}") from None  # 1
    if narrate:
        narrator.close()
    header = outcome.header
    agents = (header["agents"]["A"], header["agents"]["B"])
    summary = summarise(outcome.final, tally, ploys=ploys, seed=header["seed"], agents=agents)
    if "agent_seeds" in header:  # the seeds the header gives, not the rule of `play`
        seeds = header["agent_seeds"]
        summary = attrs.evolve(summary, agent_seeds=(seeds["A"], seeds["B"]))
    if as_json:
        data = summary.to_json()
        data["replay"] = {
            "steps": outcome.steps,
            "hashes_checked": outcome.hashes_checked,
            "complete": outcome.complete,
            "verified": list(verified),
            "not_verified": list(not_verified),
        }
        click.echo(json.dumps(data, indent=2))
        return
    print_summary(_console(), summary)
    end = "and the result match the record" if outcome.complete else "match (no result line)"
    trust = (
        f"verified: {', '.join(verified)}"
        if verify
        else f"not verified: {', '.join(not_verified)} (use --verify)"
    )
    echo(f"replay OK: {outcome.steps} steps, {outcome.hashes_checked} state hashes {end}; {trust}")


def _run_scenario_file(path: str, as_json: bool, quiet: bool) -> None:
    """``killteam replay FILE.toml``: run a scenario file (module docstring). A malformed or
    unreadable file raises its :class:`~engine.game.scenario_file.ScenarioFileError` (a
    :class:`~engine.errors.KillTeamError`: status 2); a rejected step or a failed expectation
    is a :class:`click.ClickException` (status 1)."""
    from engine.game.events import narrate as narrate_event
    from engine.game.scenario_file import (
        ExpectationError,
        ScenarioScriptError,
        Step,
        load_scenario,
    )

    scenario = load_scenario(path)
    narrate = not (as_json or quiet)
    if narrate:
        echo(f"Scenario {path}: {scenario.name}")

    def on_step(number: int, step: Step, events: list[Event]) -> None:
        if narrate:
            echo(f"-- step {number}: {step.name}")
            if step.actions:
                echo("   script: " + "; ".join(str(a) for a in step.actions))
            for e in events:
                line = narrate_event(e)
                if line:
                    echo(line)

    try:
        result = scenario.run(on_step, ruleset=get_ruleset(scenario.options.ruleset))
    except (ScenarioScriptError, ExpectationError) as exc:
        raise click.ClickException(str(exc)) from None  # status 1
    steps = len(result.events)
    if as_json:
        summary = {"scenario": scenario.name, "file": path, "steps": steps, "ok": True}
        click.echo(json.dumps(summary, indent=2))
        return
    echo(f"scenario OK: {steps} steps, every expectation met")


# -------------------------------------------------------------------------------------------
# killteam batch
# -------------------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def print_stats(console: Console, m: Matchup, stats: BatchStats) -> None:
    """Win/draw/loss rates of A with their Wilson intervals, and the means per player.

    Team and agent names are printed as written (:mod:`engine.terminal`)."""
    table = Table()
    for col, justify in (("result", "left"), ("games", "right"), ("rate", "right")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    table.add_column("95% CI (Wilson)", justify="right")
    for name, r in (("win", stats.win), ("draw", stats.draw), ("loss", stats.loss)):
        table.add_row(name, str(r.count), _pct(r.rate), f"{_pct(r.ci[0])} - {_pct(r.ci[1])}")
    console.print(f"Results of player A over {stats.games} games")
    console.print(table)
    means = Table()
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
    console.print("Means per game")
    console.print(means)
    if stats.unfinished:
        console.print(f"{stats.unfinished} games hit the step limit (counted as draws)")


@click.command("batch")
@_matchup_options
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
    "--out",
    default=None,
    callback=output_file(),
    metavar="FILE",
    help="Write one JSON line per game (by index).",
)
@click.option(
    "--strict-rules",
    is_flag=True,
    help="Refuse to play (exit status 2) when a team in play has rules the engine does not "
    "implement (killteam teams rules TEAM lists them).",
)
@click.option("--json", "as_json", is_flag=True, help="Print only the statistics as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
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
    choice = _choice(
        teams, rosters, killzone, agents, equipment_a, equipment_b, crit_op, tac_ops, primary_ops
    )
    matchup = _matchup(choice)
    _report_rules(matchup, strict_rules)
    n_workers = workers or default_workers()
    show = not quiet and sys.stderr.isatty()
    progress = Progress(
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=_console(stderr=True),
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
    echo(f"{_versus(matchup, matchup.agents)}: {games} games, base seed {seed}")
    print_stats(_console(), matchup, stats)
    if out is not None:
        echo(f"wrote {out}")


def register(cli_group: click.Group) -> None:
    """Add ``play``, ``replay`` and ``batch`` to ``cli_group`` (the ``killteam`` group)."""
    cli_group.add_command(play_command)
    cli_group.add_command(replay_command)
    cli_group.add_command(batch_command)
