"""``killteam render KILLZONE -o FILE``: a killzone drawn to a PNG or SVG picture, with
operatives, hatchways opened and the targeting lines between two operatives
(:mod:`engine.geometry.render`, imported only when the command runs).
"""

from __future__ import annotations

import click

from engine.cli.paths import PICTURE_SUFFIXES, output_file
from engine.terminal import echo

__all__ = ["render_command"]


@click.command("render")
@click.argument("killzone")
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
def render_command(
    killzone: str,
    output: str,
    operatives: str | None,
    sight: tuple[str, str] | None,
    open_hatchways: tuple[str, ...],
) -> None:
    """Draw KILLZONE (a shipped layout name, or a layout file: a .toml or .json path) to a PNG
    or SVG picture."""
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
