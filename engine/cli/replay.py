"""``killteam replay RECORD``: re-play a record, narrate it and check that it reproduces the
recorded states; status 1 at the first divergence (the message names the line and the step),
2 for a record that cannot be read or is malformed
(:class:`~engine.game.record.RecordFormatError`: the message names the line and the field).

Its summary says what a replay does not check (the dice against the seed, the agents'
decisions, the built-in team data); ``--verify`` checks those too
(:func:`engine.verify.verify_record`, strict), says what it verified, and exits with status 1
at the first difference or when a part cannot be verified.

A record is replayed under the ruleset its header names, a scenario file under the one its
``ruleset`` field names (:mod:`engine.rulesets.sources`); ``--ruleset``, when given, must be
that one (a record of one ruleset never replays under another: status 2).

A scenario file (``.toml``, :mod:`engine.game.scenario_file`) is run instead: each step
narrated, its expectations checked; status 1 when a step is rejected or an expectation
differs, 2 when the file is unreadable or malformed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import click

from engine.cli.common import console, json_option, quiet_option
from engine.cli.options import ruleset_of_file_option
from engine.cli.play import print_summary
from engine.terminal import echo

if TYPE_CHECKING:
    from engine.game.actions import Action
    from engine.game.events import Event
    from engine.game.state import GameState

__all__ = ["replay_command"]


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
@ruleset_of_file_option
@json_option("the summary")
@quiet_option
def replay_command(
    record_file: str, verify: bool, ruleset: str | None, as_json: bool, quiet: bool
) -> None:
    """Re-play a game record, narrate it and check it reproduces the recorded states (with
    --verify: also its dice, its agents' decisions and its built-in team data, so a record
    from another player can be trusted); or run a scenario file (.toml), narrate each step
    and check its expectations."""
    import attrs

    from engine.game.record import (
        RecordFormatError,
        RecordVerificationError,
        ReplayError,
        replay_record,
    )
    from engine.narration import Narrator
    from engine.play.summary import PloyTally, VpTally, summarise
    from engine.rulesets.sources import record_ruleset
    from engine.verify import NOT_CHECKED_BY_REPLAY, verify_record

    if record_file.lower().endswith(".toml"):
        if verify:
            raise click.UsageError(
                "--verify checks game records; a scenario file has no seed or agents to verify"
            )
        _run_scenario_file(record_file, as_json, quiet, ruleset)
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
            options = start.ctx.options
            echo(
                f"Replaying {record_file}: {teams[0]} (A, {agents['A']}) v {teams[1]} "
                f"(B, {agents['B']}) on {start.ctx.killzone.name}, {options.ruleset} "
                f"{options.mission}, seed {header['seed']}"
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
            checked = verify_record(
                record_file, on_start=on_start, on_step=on_step, ruleset=ruleset
            )
            outcome, verified, not_verified = checked.outcome, checked.verified, ()
        else:
            outcome = replay_record(
                record_file,
                ruleset=record_ruleset(record_file, ruleset),
                on_start=on_start,
                on_step=on_step,
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
    print_summary(console(), summary)
    end = "and the result match the record" if outcome.complete else "match (no result line)"
    trust = (
        f"verified: {', '.join(verified)}"
        if verify
        else f"not verified: {', '.join(not_verified)} (use --verify)"
    )
    echo(f"replay OK: {outcome.steps} steps, {outcome.hashes_checked} state hashes {end}; {trust}")


def _run_scenario_file(path: str, as_json: bool, quiet: bool, ruleset: str | None) -> None:
    """``killteam replay FILE.toml``: run a scenario file (module docstring) under the
    ruleset its options name (``ruleset``, when given, must be that one). A malformed or
    unreadable file raises its :class:`~engine.game.scenario_file.ScenarioFileError` (a
    :class:`~engine.errors.KillTeamError`: status 2), as does a scenario of another ruleset
    than ``ruleset`` (:class:`~engine.rulesets.sources.RulesetMismatchError`); a rejected
    step or a failed expectation is a :class:`click.ClickException` (status 1)."""
    from engine.agents.scenario_choices import best_choice
    from engine.game.events import narrate as narrate_event
    from engine.game.scenario_file import (
        ExpectationError,
        ScenarioScriptError,
        Step,
        load_scenario,
    )
    from engine.narration import generic_text
    from engine.rulesets.sources import scenario_ruleset

    scenario = load_scenario(path)
    under = scenario_ruleset(scenario.options.ruleset, ruleset, path)
    narrate = not (as_json or quiet)
    if narrate:
        echo(f"Scenario {path}: {scenario.name}")

    def on_step(number: int, step: Step, events: list[Event]) -> None:
        if narrate:
            echo(f"-- step {number}: {step.name}")
            if step.actions:
                echo("   script: " + "; ".join(str(a) for a in step.actions))
            for e in events:
                try:
                    line = narrate_event(e)
                except (KeyError, TypeError, ValueError, AttributeError, IndexError):
                    line = generic_text(e)  # data its kind's line does not read
                if line:
                    echo(line)

    try:
        result = scenario.run(on_step, ruleset=under, chooser=best_choice)
    except (ScenarioScriptError, ExpectationError) as exc:
        raise click.ClickException(str(exc)) from None  # status 1
    steps = len(result.events)
    if as_json:
        summary = {"scenario": scenario.name, "file": path, "steps": steps, "ok": True}
        click.echo(json.dumps(summary, indent=2))
        return
    echo(f"scenario OK: {steps} steps, every expectation met")
