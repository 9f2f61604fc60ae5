"""Pictures of a battle: the board of a :class:`~engine.game.state.GameState`.

:func:`render_state` draws the killzone in the state's hatch state (``rules/KT24.md`` 9.3) with
:func:`engine.geometry.render.render_killzone`: terrain, drop zones, objective markers where
they are now, and every operative still on the killzone as its base, coloured by player and
labelled with its id and wounds left (``KAS-3 5/8``), with its order (E or C), faded when
expended and ringed black when injured (2.3); incapacitated operatives are left out.
Each drop zone and territory takes the colour of the player who set up there. The title names
the teams, the turning point and the VP. PNG (with a 256-colour palette, to keep files small)
or SVG by the file's suffix; both are deterministic (the SVG has a fixed hash salt and no date),
so the same state gives the same file.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from engine.game.state import GameState
from engine.geometry import Placement
from engine.geometry.render import OperativeMarks, render_killzone

__all__ = ["board_title", "render_state"]


def board_title(state: GameState, when: str = "") -> str:
    """``"Kasrkin (A) v Legionaries (B), end of turning point 2: VP A 1, B 0"``.

    Args:
        when: what moment the picture shows (default: the turning point, or the result when
            the battle is over).
    """
    ctx = state.ctx
    vp = (state.players[0].vp, state.players[1].vp)
    teams = f"{ctx.rosters['A'].team.name} (A) v {ctx.rosters['B'].team.name} (B)"
    if not when:
        if state.is_terminal:
            result = state.node.result  # type: ignore[union-attr]
            outcome = f"{result.winner} wins" if result.winner else "draw"
            when = f"battle over, {outcome}"
        elif state.tp == 0:
            when = "set-up"
        else:
            when = f"turning point {state.tp}"
    return f"{teams}, {when}: VP A {vp[0]}, B {vp[1]}"


def render_state(state: GameState, path: str | Path, *, title: str | None = None) -> Path:
    """Draw the board of ``state`` to a PNG or SVG file (module docstring).

    Args:
        path: the output file; its suffix (``.png`` or ``.svg``) picks the format.
        title: the first line of the title (default: :func:`board_title`).

    Returns:
        The path written.

    Raises:
        RenderError: for another suffix.
    """
    ctx = state.ctx
    operatives: dict[str, tuple[str, Placement]] = {}
    labels: dict[str, str] = {}
    marks: dict[str, OperativeMarks] = {}
    for o in state.operatives:
        if not o.alive:
            continue
        operatives[o.id] = (o.player, ctx.placement(o.id, o.x, o.y, o.elevation))
        starting = ctx.datacards[o.id].wounds
        labels[o.id] = f"{o.id} {o.wounds}/{starting}"
        marks[o.id] = OperativeMarks(
            order=o.order,
            injured=2 * o.wounds < starting,
            expended=state.tp > 0 and not o.ready,
        )
    markers = {m.name: (m.x, m.y) for m in state.markers}
    zones = {
        pl.drop_zone: p for p, pl in zip(("A", "B"), state.players, strict=True) if pl.drop_zone
    }
    out = render_killzone(
        ctx.killzone_for(state.open_hatchways),
        path,
        operatives=operatives,
        labels=labels,
        markers=markers,
        title=board_title(state) if title is None else title,
        drop_zone_players=zones,
        marks=marks,
    )
    if out.suffix.lower() == ".png":
        _to_palette(out)
    return out


def _to_palette(path: Path) -> None:
    """Rewrite a PNG with a 256-colour palette (a third of the size; flat colours survive)."""
    with Image.open(path) as im:
        rgb = im.convert("RGB")
    rgb.quantize(colors=256, dither=Image.Dither.NONE).save(path, optimize=True)
