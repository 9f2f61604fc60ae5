"""``killteam view``: a battle record or a scenario file as ONE self-contained HTML page that
steps through it: the board (terrain, drop zones, objective markers with their controller,
tokens, operatives with wounds and orders, casualties where they fell, each move as an
arrow), the dice of each step, its narration with the rule section of each event, the
turning point, VP and CP.

The page (:mod:`engine.play.viewer_page`) has no external resource: its SVG is drawn by an
inline script from the data embedded as JSON (``<`` ``>`` ``&`` written as ``\\u003c``...,
so no ``</script>`` can close the block; every text is put on the page as text, never as
markup). Buttons, a slider and the keys Left/Right (a step), Home/End, Space (play/pause) step
through it; the URL fragment ``#step=N`` opens step N and follows the step shown. An error in
the script is written into the page (``<pre id="errors">``, ``body[data-status=error]``);
once a step is drawn the body has ``data-status="ok"`` and ``data-step="N"``.

**Labels.** Each frame's labels (operatives, casualties, tokens, markers) are placed here,
by the same collision-free placement as the pictures (:mod:`engine.play.viewer_labels`):
none covers another label, a base or a height, all inside the killzone; the page only draws
them.

**Size.** The board is written once; each frame carries only what changed since the frame
before (operatives, markers, tokens, hatchways, labels, turning point and scores), plus its own
action, dice and narration: about 0.3 KB a step for a whole battle (a battle of 400 steps is
about 150 KB). At most :data:`MAX_FRAMES` frames are written (a record is at most
:data:`engine.game.record_format.MAX_STEPS` steps; more is refused).

Rule sections come from the vocabulary (:class:`engine.game.vocabulary.EventKind`: each
declared event kind's contract ends ``Rules: <sections>``), refined by the event's own data
where it names a weapon rule or a ploy.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.board import in_firefight, marker_control, marker_notes
from engine.game.events import Event, narrate
from engine.game.state import GameState
from engine.game.tokens import Token
from engine.game.vocabulary import EventKind
from engine.game.work import Work
from engine.geometry.render import PLAYER_COLOURS, TERRAIN_STYLES, terrain_category
from engine.play.timeline import Frame, TimelineError, walk
from engine.play.viewer_labels import LABEL_FONT, LINE_HEIGHT, PAD, frame_labels, height_boxes

__all__ = ["MAX_FRAMES", "event_section", "view_data", "view_html", "write_view"]

#: The most frames a page holds (a record of more steps is refused).
MAX_FRAMES = 20_000

_RULES = re.compile(r"Rules:\s*(.*?)\.?\s*$", re.S)
_SECTIONS: dict[str, str] = {}
for _kind in EventKind:
    _m = _RULES.search(_kind.contract)
    _SECTIONS[_kind.value] = " ".join(_m.group(1).split()) if _m else ""


def event_section(e: Event) -> str:
    """The rule behind event ``e``: the ``rules/KT24.md`` section its kind's contract names
    (``"5.1 step 4, 5.2 step 3"``, ``"team rules (teams/kasrkin)"``), with the weapon rule
    (``rule``) or ploy (``ploy``) the event's data names; ``""`` when none is declared."""
    section = _SECTIONS.get(e.kind, "")
    extra = [f"{key} {e.get(key)}" for key in ("rule", "ploy") if isinstance(e.get(key), str)]
    return "; ".join(x for x in (section, *extra) if x)


def _r(v: float) -> float:
    return round(float(v), 3)


def _ring(poly: Any) -> list[list[float]]:
    return [[_r(x), _r(y)] for x, y in list(poly.exterior.coords)[:-1]]


def _board(state: GameState) -> dict[str, Any]:
    """The killzone, written once: parts with their category closed and (hatchways) open."""
    ctx = state.ctx
    kz = ctx.killzone
    categories = list(TERRAIN_STYLES)
    every = tuple(sorted(set(kz.hatchways))) if kz.hatchways else ()
    opened = ctx.killzone_for(every) if every else kz
    parts = []
    for i in sorted(range(len(kz.parts)), key=lambda i: (kz.parts[i].height, i)):
        part = kz.parts[i]
        entry: dict[str, Any] = {
            "p": _ring(part.polygon),
            "c": categories.index(terrain_category(kz, i)),
            "h": _r(part.height),
        }
        if every:
            alt = categories.index(terrain_category(opened, i))
            if alt != entry["c"]:
                entry["oc"] = alt
                entry["f"] = kz.features[part.feature]
        parts.append(entry)
    # Heights: one label per feature and height, on its largest part of that height.
    largest: dict[tuple[int, float], int] = {}
    for i, part in enumerate(kz.parts):
        key = (part.feature, part.height)
        best = largest.get(key)
        if best is None or part.polygon.area > kz.parts[best].polygon.area:
            largest[key] = i
    heights = []
    for i in sorted(largest.values()):
        point = kz.parts[i].polygon.representative_point()
        heights.append([_r(point.x), _r(point.y), _r(kz.parts[i].height)])
    return {
        "heights": heights,
        "name": kz.name,
        "width": _r(kz.width),
        "depth": _r(kz.depth),
        "styles": [[c, TERRAIN_STYLES[c][0]] for c in categories],
        "parts": parts,
        "zones": {z: _ring(p) for z, p in sorted(kz.drop_zones.items())},
        "territories": {z: _ring(p) for z, p in sorted(kz.territories.items())},
        "objectives": {o.name: _r(o.radius) for o in kz.objectives},
    }


def _operatives(state: GameState) -> dict[str, Any]:
    ctx = state.ctx
    out: dict[str, Any] = {}
    for o in state.operatives:
        card = ctx.datacards[o.id]
        p = ctx.placement(o.id, o.x, o.y, o.elevation)
        out[o.id] = {"p": o.player, "r": _r(p.radius), "w": card.wounds, "n": card.name}
    return out


def _op_row(o: Any, firefight: bool) -> list[Any]:
    flags = (
        (1 if o.placed else 0)
        | (2 if o.ready else 0)
        | (4 if o.incapacitated else 0)
        | (8 if firefight and o.alive and not o.ready else 0)
    )
    return [_r(o.x), _r(o.y), _r(o.elevation), o.wounds, (o.order or "?")[0].upper(), flags]


def _snapshot(state: GameState) -> dict[str, Any]:
    """What the page draws of ``state``, whole (frames keep only what changed)."""
    w = Work(state)
    firefight = in_firefight(state)
    control = marker_control(state, w)
    notes = marker_notes(state)
    zones = {pl.drop_zone: p for p, pl in zip("AB", state.players, strict=True) if pl.drop_zone}
    tokens = [
        [t.name or t.kind, t.owner, _r(t.x), _r(t.y), 1 if t.carrier else 0]
        for t in state.tokens
        if isinstance(t, Token)
    ]
    return {
        "o": {o.id: _op_row(o, firefight) for o in state.operatives},
        "m": [
            [m.name, _r(m.x), _r(m.y), control.get(m.name, ""), notes.get(m.name, "")]
            for m in state.markers
        ],
        "t": tokens,
        "h": list(state.open_hatchways),
        "g": [
            state.tp,
            state.phase,
            state.initiative,
            state.players[0].vp,
            state.players[1].vp,
            state.players[0].cp,
            state.players[1].cp,
            zones,
            _result(state),
        ],
    }


def _result(state: GameState) -> str:
    if not state.is_terminal:
        return ""
    r = state.node.result  # type: ignore[union-attr]
    return f"{r.winner} wins" if r.winner else "draw"


def _diff(now: Mapping[str, Any], before: Mapping[str, Any] | None) -> dict[str, Any]:
    if before is None:
        return dict(now)
    out: dict[str, Any] = {}
    ops = {k: v for k, v in now["o"].items() if before["o"].get(k) != v}
    if ops:
        out["o"] = ops
    # Labels: the changed ones, and null for one that is gone.
    labels: dict[str, Any] = {k: v for k, v in now["L"].items() if before["L"].get(k) != v}
    labels.update({k: None for k in before["L"] if k not in now["L"]})
    if labels:
        out["L"] = labels
    for key in ("m", "t", "h", "g"):
        if now[key] != before[key]:
            out[key] = now[key]
    return out


def _log(events: Sequence[Event]) -> list[list[str]]:
    lines: list[list[str]] = []
    for e in events:
        text = narrate(e).strip()
        if text:
            lines.append([text, event_section(e)])
    return lines


def view_data(path: str | Path, ruleset: str | None = None) -> dict[str, Any]:
    """The page's data for a record or scenario file (module docstring): ``board``,
    ``players``, ``ops``, ``frames`` (each ``{"s": step, "l": label, "a": actor, "x":
    actions, "d": dice, "n": [[line, section]], ...changes}``; the changes include ``L``,
    the labels placed (:func:`engine.play.viewer_labels.frame_labels`) by key, ``None`` for
    one gone). The file is replayed under the ruleset it names (``ruleset``, when given,
    must be that one: :func:`engine.play.timeline.walk`).

    Raises:
        TimelineError: as :func:`engine.play.timeline.walk`, or more than :data:`MAX_FRAMES`
            frames.
    """
    frames: list[dict[str, Any]] = []
    head: dict[str, Any] = {}
    last: list[dict[str, Any]] = []
    obstacles: dict[str, list[Any]] = {}

    def on_frame(frame: Frame) -> None:
        state = frame.state
        if not head:
            ctx = state.ctx
            head["board"] = _board(state)
            head["ops"] = _operatives(state)
            head["players"] = {
                p: {"team": ctx.rosters[p].team.name, "colour": PLAYER_COLOURS[p]} for p in "AB"
            }
            head["rules"] = list(frame.rules)
            head["label"] = {"font": LABEL_FONT, "pad": PAD, "line": LINE_HEIGHT}
            obstacles["fixed"] = height_boxes(head["board"])
            obstacles["soft"] = [
                tuple(float(v) for v in part.polygon.bounds) for part in ctx.killzone.parts
            ]
        if len(frames) >= MAX_FRAMES:
            raise TimelineError(f"{path}: more than {MAX_FRAMES} steps to view")
        snap = _snapshot(state)
        before = last[0] if last else None
        if before is not None and all(snap[k] == before[k] for k in ("o", "m", "t")):
            snap["L"] = before["L"]  # nothing labelled changed: the same placement
        else:
            snap["L"] = frame_labels(
                snap, head["ops"], head["board"], obstacles["fixed"], obstacles["soft"]
            )
        entry: dict[str, Any] = {"s": frame.step, "l": frame.label}
        if frame.actor:
            entry["a"] = frame.actor
        if frame.actions:
            entry["x"] = list(frame.actions)
        if frame.dice:
            entry["d"] = [list(d) for d in frame.dice]
        log = _log(frame.events)
        if log:
            entry["n"] = log
        entry.update(_diff(snap, before))
        last[:] = [snap]
        frames.append(entry)

    walk(path, on_frame, ruleset)
    return {"source": Path(path).name, **head, "frames": frames}


def _json_for_script(data: Any) -> str:
    """JSON safe inside a ``<script>`` element: ``<``, ``>``, ``&`` and the line separators
    escaped, so nothing in it can end the element or be read as markup."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
    for char, code in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(char, code)
    return text


def view_html(data: Mapping[str, Any]) -> str:
    """The self-contained page for ``data`` (:func:`view_data`)."""
    from engine.play.viewer_page import PAGE

    players = data.get("players", {})
    teams = " v ".join(f"{players[p]['team']} ({p})" for p in ("A", "B") if p in players)
    title = f"{teams}: {data.get('source', '')}"
    fill = {"{{TITLE}}": html.escape(title, quote=True), "{{DATA}}": _json_for_script(data)}
    # One pass, so that a title holding "{{DATA}}" stays text.
    return re.sub(r"\{\{(?:TITLE|DATA)\}\}", lambda m: fill[m.group(0)], PAGE)


def write_view(path: str | Path, out: str | Path) -> Path:
    """Write the page for the record or scenario file ``path`` to ``out`` (UTF-8).

    Raises:
        TimelineError: as :func:`view_data`.
    """
    target = Path(out)
    target.write_text(view_html(view_data(path)), encoding="utf-8")
    return target
