"""``killteam render WHAT -o FILE``: a picture (PNG or SVG) of a killzone, of a scenario's
position or of a battle record's position.

WHAT is dispatched on (:func:`engine.play.timeline.source_kind`):

- a **game record** (``.jsonl``): the position after record step ``--at N`` (default: the
  last; 0 is the start), replayed and checked as ``killteam replay`` does;
- a **scenario file** (``.toml`` with ``[teams]`` or ``[steps]``): the position after
  scenario step ``--step N`` (default 0: the starting position, as ``killteam explain``);
  its expectations are not checked (``killteam replay`` does);
- anything else is a **killzone**: a shipped layout name or a layout file (``.toml`` or
  ``.json``), drawn with the operatives of ``--operatives``, hatchways opened and the
  targeting lines between two operatives (:mod:`engine.geometry.render`).

A position is drawn by :func:`engine.board.render_state`: terrain in its state, drop zones,
objective markers ringed in the colour of the player controlling them, tokens and markers,
operatives with their wounds and orders, casualties where they fell; the title names the
teams, the turning point, the VP and the step. ``--step`` and ``--at`` are one option (either
name works for either file). A step out of range is an error naming the steps the file has;
the drawing modules are imported only when the command runs.
"""

from __future__ import annotations

import click

from engine.cli.options import ruleset_of_file_option
from engine.cli.paths import PICTURE_SUFFIXES, output_file
from engine.terminal import echo

__all__ = ["render_command"]


@click.command("render")
@click.argument("killzone", metavar="KILLZONE|SCENARIO.toml|RECORD.jsonl")
@click.option(
    "-o",
    "--output",
    required=True,
    callback=output_file(PICTURE_SUFFIXES),
    help="Output picture: a .png or .svg file.",
)
@click.option(
    "--operatives",
    default=None,
    metavar="PATH",
    help='JSON file {"operatives": [{"name", "player", "x", "y", "base_mm"?, "elevation"?, '
    '"model_height"?}]} (inches, mm).',
)
@click.option(
    "--sight",
    nargs=2,
    default=None,
    metavar="SHOOTER TARGET",
    help="Draw the targeting lines and verdicts between two named operatives.",
)
@click.option(
    "--open-hatchways",
    multiple=True,
    metavar="NAME",
    help="Draw this hatchway open (repeatable).",
)
@click.option(
    "--step",
    "--at",
    "step",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Scenario file: the position after its step N (default 0, the start). Record: "
    "after its step N (default: the last).",
)
@ruleset_of_file_option
def render_command(
    killzone: str,
    output: str,
    operatives: str | None,
    sight: tuple[str, str] | None,
    open_hatchways: tuple[str, ...],
    step: int | None,
    ruleset: str | None,
) -> None:
    """Draw KILLZONE (a shipped layout name, or a layout file: a .toml or .json path) to a PNG
    or SVG picture; or the position of a scenario file (.toml, --step N) or of a game record
    (.jsonl, --at N)."""
    from engine.play.timeline import source_kind

    kind = source_kind(killzone)
    if kind != "killzone":
        used = [
            name
            for name, value in (
                ("--operatives", operatives),
                ("--sight", sight),
                ("--open-hatchways", open_hatchways),
            )
            if value
        ]
        if used:
            raise click.UsageError(
                f"{', '.join(used)} draw a killzone; {killzone} is a {kind} file, drawn as its "
                "position"
            )
        at = step if step is not None or kind == "record" else 0
        _render_position(killzone, output, at, ruleset)
        return
    if ruleset is not None:
        raise click.UsageError(
            f"--ruleset chooses the ruleset of a scenario (.toml) or record (.jsonl); {killzone} "
            "is a killzone, drawn the same under every ruleset"
        )
    if step is not None:
        raise click.UsageError(
            f"--step/--at choose a step of a scenario (.toml) or record (.jsonl); {killzone} is "
            "a killzone"
        )
    from engine.geometry import load_killzone
    from engine.geometry.render import load_operatives, render_killzone

    kz = load_killzone(killzone)
    if open_hatchways:
        kz = kz.with_open_hatchways(open_hatchways)
    ops = load_operatives(operatives) if operatives else None
    if sight and ops is None:
        raise click.BadParameter("--sight needs --operatives", param_hint="--sight")
    written = render_killzone(kz, output, operatives=ops, sight=sight or None)
    echo(f"wrote {written}")


def _render_position(path: str, output: str, step: int | None, ruleset: str | None) -> None:
    """Draw the position of a scenario or record after ``step`` (``None``: the last), under
    the ruleset the file names (``ruleset``, when given, must be that one)."""
    from engine.board import board_title, render_state
    from engine.play.timeline import frame_at

    frame = frame_at(path, step, ruleset)
    title = f"{board_title(frame.state)}\n{frame.label}"
    written = render_state(frame.state, output, title=title)
    echo(f"wrote {written} ({frame.label})")
