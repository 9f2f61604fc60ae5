"""``killteam view RECORD.jsonl|SCENARIO.toml -o game.html``: one self-contained HTML page that
steps through a battle record or a scenario file (:mod:`engine.play.viewer`, imported only when
the command runs): the board, the operatives and their moves, the dice, the narration with the
rule section of each event, the VP; buttons, a slider and the arrow keys step, ``#step=N`` in
the address opens step N. The page loads nothing from the network.
"""

from __future__ import annotations

import click

from engine.cli.options import ruleset_of_file_option
from engine.cli.paths import output_file
from engine.terminal import echo

__all__ = ["view_command"]


@click.command("view")
@click.argument("source", metavar="RECORD.jsonl|SCENARIO.toml")
@click.option(
    "-o",
    "--output",
    required=True,
    callback=output_file((".html", ".htm")),
    help="Output page: an .html file.",
)
@ruleset_of_file_option
def view_command(source: str, output: str, ruleset: str | None) -> None:
    """Write one self-contained HTML page that steps through a game record (.jsonl) or a
    scenario file (.toml): board, moves, dice, narration with rule sections, VP."""
    from engine.play.viewer import view_data, view_html

    data = view_data(source, ruleset)
    with open(output, "w", encoding="utf-8") as fh:
        fh.write(view_html(data))
    echo(f"wrote {output} ({len(data['frames'])} frames)")
