"""``killteam explain SCENARIO.toml|RECORD.jsonl [--step N] QUERY...``: the ruling of a
query about a position and the rule behind each step (:func:`engine.explain.explain`;
queries and output in ``docs/EXPLAIN.md``).

The position is the scenario's start, or the state after its step N (its script played as
``killteam replay`` plays it, expectations not checked); for a record, the state after its
N-th input (default: the start). ``event N`` numbers the events of the steps played, from 1.
Output: a table (the answer, then each step: check, result, rule section, source, why), or
with ``--json`` one JSON object (schema ``killteam-explain/1``); ``--picture FILE`` also
draws the lines, terrain parts and distances the ruling used
(:func:`engine.geometry.render_why.render_why`). A query that cannot be read, or names
something that is not there, exits with status 2 and one line naming the bad word.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from engine.cli.common import console, json_option, table
from engine.cli.options import ruleset_of_file_option
from engine.cli.paths import PICTURE_SUFFIXES, output_file
from engine.errors import KillTeamError
from engine.terminal import echo, markup

if TYPE_CHECKING:
    from engine.explain import Ruling
    from engine.game.events import Event
    from engine.game.state import GameState

__all__ = ["explain_command", "load_position"]


class PositionError(KillTeamError, ValueError):
    """``--step`` past the end of the scenario or record."""


def load_position(
    path: str, step: int, ruleset: str | None = None
) -> tuple[GameState, list[Event], str]:
    """The position of a scenario file (``.toml``) after its step ``step`` (0: the start),
    or of a record after its ``step``-th input, with the events of the steps played and a
    phrase saying where they come from. The file is played under the ruleset it names
    (:mod:`engine.rulesets.sources`); ``ruleset``, when given, must be that one.

    Raises:
        ScenarioFileError, ScenarioScriptError, RecordFormatError: the file cannot be read
            or its script does not play (a record of a ruleset other than ``ruleset``);
        RulesetMismatchError: a scenario of a ruleset other than ``ruleset``;
        PositionError: ``step`` is past its end."""
    from engine.rulesets.sources import record_ruleset, scenario_ruleset

    if step < 0:
        raise PositionError(f"--step {step}: a step is 0 (the start) or more")
    if path.lower().endswith(".toml"):
        from engine.agents.scenario_choices import best_choice
        from engine.game.scenario_file import load_scenario

        scenario = load_scenario(path)
        if step > len(scenario.steps):
            raise PositionError(
                f"{path}: --step {step}, but the scenario has {len(scenario.steps)} steps"
            )
        events: list[Event] = []
        under = scenario_ruleset(scenario.options.ruleset, ruleset, path)
        walk = scenario.walk(ruleset=under, chooser=best_choice, stop=step)
        state = None
        for _k, _s, reached, got in walk:
            state = reached
            events += got if step else []
        assert state is not None  # walk yields the start first
        return state, events, f"in steps 1-{step} of {path}" if step else f"at the start of {path}"
    from engine.game.record import replay_record

    found: list[GameState] = []
    seen: list[Event] = []
    count = [0]

    def on_start(header: Any, start: GameState) -> None:
        if step == 0:
            found.append(start)

    def on_step(before: Any, action: Any, actor: Any, after: GameState, events: Any) -> None:
        count[0] += 1
        if count[0] <= step:
            seen.extend(events)
        if count[0] == step:
            found.append(after)

    replay_record(path, ruleset=record_ruleset(path, ruleset), on_start=on_start, on_step=on_step)
    if not found:
        raise PositionError(f"{path}: --step {step}, but the record has {count[0]} inputs")
    return found[0], seen, f"in inputs 1-{step} of {path}"


@click.command("explain")
@click.argument("position_file", metavar="SCENARIO")
@click.argument("query", nargs=-1, required=True)
@click.option(
    "--step",
    type=int,
    default=0,
    show_default=True,
    help="The position after this step of the scenario (input of a record); 0 the start.",
)
@click.option(
    "--picture",
    default=None,
    callback=output_file(PICTURE_SUFFIXES),
    metavar="FILE",
    help="Also draw the lines, terrain parts and distances used to a .png or .svg file.",
)
@ruleset_of_file_option
@json_option("the ruling")
def explain_command(
    position_file: str,
    query: tuple[str, ...],
    step: int,
    picture: str | None,
    ruleset: str | None,
    as_json: bool,
) -> None:
    """Explain a ruling: what happens here and why, with the rule section of each step
    (queries: target SHOOTER TARGET [WEAPON]; can OPERATIVE ACTION...; control MARKER;
    attack ATTACKER WEAPON TARGET [with DEFWEAPON]; event N)."""
    from engine.explain import explain

    state, events, where = load_position(position_file, step, ruleset)
    ruling = explain(state, " ".join(query), events=events, where=where)
    if picture:
        from engine.game.work import Work
        from engine.geometry.render_why import render_why

        d = ruling.drawing
        render_why(
            Work(state).kz,
            picture,
            operatives=d.operatives,
            players={o.id: o.player for o in state.operatives},
            lines=d.lines,
            parts=d.parts,
            distances=d.distances,
            markers=d.markers,
            title=ruling.answer,
        )
    if as_json:
        click.echo(json.dumps(ruling.to_json(), indent=2))
        return
    _print(ruling)
    if picture:
        echo(f"wrote {picture}")


def _print(ruling: Ruling) -> None:
    """The ruling as a rich table, user text escaped."""
    out = console()
    out.print(f"[bold]{markup(ruling.answer)}[/bold]")
    t = table(markup(f"explain {ruling.query}"), title_justify="left")
    for col in ("#", "check", "result", "rule", "source", "why"):
        t.add_column(col, overflow="fold")
    for k, s in enumerate(ruling.steps, 1):
        why = s.detail + (f" [{s.by}]" if s.by else "")
        t.add_row(
            str(k),
            markup(s.check),
            markup(s.result),
            markup(s.rule),
            markup(s.source),
            markup(why),
        )
    out.print(t)
