"""Pictures of a battle: the board of a :class:`~engine.game.state.GameState`.

:func:`render_state` draws the killzone in the state's hatch state (``rules/KT24.md`` 9.3) with
:func:`engine.geometry.render.render_killzone`: terrain, drop zones, objective markers where
they are now, and every operative still on the killzone as its base, coloured by player and
labelled with its id and wounds left (``KAS-3 5/8``; a Markerlight count as ``ML2``), with its
order (E or C), faded when expended during the Firefight phase (at the end of a turning point,
in the Strategy phase and once the battle is over nothing is faded: every operative is
expended then, which says nothing) and ringed black when injured (2.3). An incapacitated
operative is drawn where it fell, as a faded base with an X (:func:`casualties`). Tokens and
markers that rule modules and missions put on the killzone are drawn in their owner's colour
(:func:`token_marks`), each objective marker ringed in the colour of the player controlling it
(4.8, :func:`marker_control`) with the mission's notes under its name (:func:`marker_notes`).
Each drop zone and territory takes the colour of the player who set up there. The title names
the teams, the turning point and the VP. PNG (with a 256-colour palette, to keep files small)
or SVG by the file's suffix; both are deterministic (the SVG has a fixed hash salt and no date),
so the same state gives the same file.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from engine.game.flow import FirefightFrame
from engine.game.markers import controller
from engine.game.state import GameState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.geometry import Placement
from engine.geometry.render import Box, OperativeMarks, TokenMark, render_killzone

__all__ = [
    "board_title",
    "casualties",
    "in_firefight",
    "marker_control",
    "marker_notes",
    "render_state",
    "token_marks",
]

#: Effects shown beside an operative's wounds: effect kind -> format of its ``value``.
_BADGES = {"markerlight": "ML{value}"}


def in_firefight(state: GameState) -> bool:
    """The Firefight phase is in progress (1.5): its frame is on the stack. Operatives are
    drawn faded when expended only then."""
    return any(isinstance(f, FirefightFrame) for f in state.stack)


def casualties(state: GameState) -> dict[str, tuple[str, Placement]]:
    """The operatives incapacitated in the battle (2.3), each with its player and the
    placement where it last stood (its position is kept when it is removed)."""
    ctx = state.ctx
    return {
        o.id: (o.player, ctx.placement(o.id, o.x, o.y, o.elevation))
        for o in state.operatives
        if o.incapacitated
    }


def token_marks(state: GameState) -> list[TokenMark]:
    """The tokens and markers on the killzone that are not terrain (equipment terrain is
    drawn as terrain): mines, smoke, mission markers, team markers (4.8, 7.2), in state
    order, each labelled with its name."""
    out: list[TokenMark] = []
    for t in state.tokens:
        if not isinstance(t, Token) or t.feature is not None:
            continue
        out.append(TokenMark(t.name or t.kind, t.owner, t.x, t.y, carried=bool(t.carrier)))
    return out


def marker_control(state: GameState, w: Work | None = None) -> dict[str, str]:
    """Objective marker name -> the player controlling it now (4.8; ``""`` when nobody
    does), as the engine decides it (:func:`engine.game.markers.controller`; ``w`` a
    :class:`~engine.game.work.Work` of ``state`` when the caller has one)."""
    w = Work(state) if w is None else w
    return {m.name: controller(w, m.name) for m in state.markers}


def marker_notes(state: GameState) -> dict[str, str]:
    """Objective marker name -> what the mission's facts say about it, one line per fact
    (``"Secure: A"``, ``"Orb token"``, ``"Loot: TP2"``): every fact ``"<op>:<marker>"``
    whose value is a player or a turning point, every fact ``"<op>:<what>"`` whose value
    names a marker, or a tuple of markers. Secret facts (``"secret:..."``) are left out."""
    names = {m.name for m in state.markers}
    notes: dict[str, list[str]] = {}
    for key, value in state.mission.facts:
        if key.startswith("secret:") or ":" not in key or value is None:
            continue
        op, _, rest = key.partition(":")
        if rest in names:
            if value in ("A", "B"):
                notes.setdefault(rest, []).append(f"{op}: {value}")
            elif isinstance(value, int) and not isinstance(value, bool):
                notes.setdefault(rest, []).append(f"{op}: TP{value}")
            continue
        *what, last = rest.split(":")
        if last in names and what:
            notes.setdefault(last, []).append(f"{op} {' '.join(what)}: {value}")
            continue
        hit = [value] if isinstance(value, str) else list(value) if isinstance(value, tuple) else []
        for name in hit:
            if isinstance(name, str) and name in names:
                notes.setdefault(name, []).append(f"{op} {rest}")
    return {name: "\n".join(lines) for name, lines in sorted(notes.items())}


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


def render_state(
    state: GameState,
    path: str | Path,
    *,
    title: str | None = None,
    label_boxes: list[Box] | None = None,
) -> Path:
    """Draw the board of ``state`` to a PNG or SVG file (module docstring).

    Args:
        path: the output file; its suffix (``.png`` or ``.svg``) picks the format.
        title: the first line of the title (default: :func:`board_title`).
        label_boxes: a list the boxes of the labels placed are appended to (board inches;
            :func:`engine.geometry.render.render_killzone`).

    Returns:
        The path written.

    Raises:
        RenderError: for another suffix.
    """
    ctx = state.ctx
    operatives: dict[str, tuple[str, Placement]] = {}
    labels: dict[str, str] = {}
    marks: dict[str, OperativeMarks] = {}
    firefight = in_firefight(state)
    w = Work(state)
    badges: dict[str, list[str]] = {}
    for e in state.effects:
        if e.kind in _BADGES and e.op and not e.pending:
            badges.setdefault(e.op, []).append(_BADGES[e.kind].format(value=e.value))
    for o in state.operatives:
        if not o.alive:
            continue
        operatives[o.id] = (o.player, ctx.placement(o.id, o.x, o.y, o.elevation))
        starting = ctx.datacards[o.id].wounds
        labels[o.id] = " ".join([o.id, f"{o.wounds}/{starting}", *badges.get(o.id, ())])
        marks[o.id] = OperativeMarks(
            order=o.order,
            injured=2 * o.wounds < starting,
            expended=firefight and not o.ready,
        )
    markers = {m.name: (m.x, m.y) for m in state.markers}
    zones = {
        pl.drop_zone: p for p, pl in zip(("A", "B"), state.players, strict=True) if pl.drop_zone
    }
    out = render_killzone(
        w.kz,  # the hatchways open and the equipment terrain on it, as the engine sees it
        path,
        operatives=operatives,
        labels=labels,
        markers=markers,
        title=board_title(state) if title is None else title,
        drop_zone_players=zones,
        marks=marks,
        casualties=casualties(state),
        tokens=token_marks(state),
        control=marker_control(state, w),
        marker_notes=marker_notes(state),
        label_boxes=label_boxes,
    )
    if out.suffix.lower() == ".png":
        _to_palette(out)
    return out


def _to_palette(path: Path) -> None:
    """Rewrite a PNG with a 256-colour palette (a third of the size; flat colours survive)."""
    with Image.open(path) as im:
        rgb = im.convert("RGB")
    rgb.quantize(colors=256, dither=Image.Dither.NONE).save(path, optimize=True)
