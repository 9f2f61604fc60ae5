"""Pictures of a killzone: terrain by type, areas, markers, operatives and targeting lines.

:func:`render_killzone` draws a killzone (``rules/KT24.md`` sections 4.6-4.8 and 9) with
matplotlib's non-interactive backends (Agg for PNG, the SVG backend for SVG); no display is
needed and no global pyplot state is touched. :func:`load_operatives` reads the operatives
file the ``killteam render --operatives`` option takes.

Operatives file (JSON)::

    {"operatives": [
        {"name": "A1", "player": "A", "x": 5, "y": 3, "base_mm": 32,
         "elevation": 0, "model_height": 1.25}
    ]}

``name`` (unique, non-empty), ``player`` (``"A"`` or ``"B"``), ``x`` and ``y`` (centre of the
base, inches) are required; ``base_mm`` (base diameter in millimetres, default 32),
``elevation`` (inches above the killzone floor, default 0: the height of the Vantage part the
operative stands on) and ``model_height`` (inches from the base to the head, default
:data:`~engine.geometry.model.DEFAULT_MODEL_HEIGHT`) are optional.

Limits (:func:`load_operatives`): at most :data:`MAX_OPERATIVES` operatives; ``x`` and ``y``
from 0 to :data:`~engine.geometry.model.MAX_BOARD_INCHES`; ``base_mm`` above 0 and at most
:data:`MAX_BASE_MM`; ``elevation`` from 0 to
:data:`~engine.geometry.model.MAX_HEIGHT_INCHES`; ``model_height`` above 0 and at most
:data:`MAX_MODEL_HEIGHT`; names at most :data:`~engine.geometry.model.MAX_NAME_CHARS`
characters; and the limits of :mod:`engine.inputs` on the file (size, nesting, numbers).

Names (of the killzone, its features and markers, operatives) are drawn as written: never
read as matplotlib mathtext (``$x^{$`` is text, not a formula that fails to parse), and their
control characters shown as escapes (:func:`engine.terminal.printable`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Circle
from matplotlib.patches import Polygon as PolygonPatch
from matplotlib.patheffects import withStroke
from matplotlib.text import Text
from shapely.geometry import Polygon

from engine.errors import KillTeamError
from engine.geometry.model import Killzone, Placement
from engine.geometry.render_labels import Box, place_labels
from engine.geometry.render_legend import (
    _EXPENDED_ALPHA,
    _INJURED_COLOUR,
    _READY_ALPHA,
    PLAYER_COLOURS,
    TERRAIN_STYLES,
    _legend_handles,
    sight_caption,
    terrain_category,
)
from engine.geometry.render_marks import (
    TokenMark,
    draw_casualties,
    draw_marker_control,
    draw_tokens,
    marks_legend_handles,
)
from engine.geometry.render_operatives import (
    MAX_BASE_MM,
    MAX_MODEL_HEIGHT,
    MAX_OPERATIVES,
    OperativesError,
    load_operatives,
)
from engine.terminal import printable

__all__ = [
    "MAX_BASE_MM",
    "MAX_MODEL_HEIGHT",
    "MAX_OPERATIVES",
    "PLAYER_COLOURS",
    "SUFFIXES",
    "TERRAIN_STYLES",
    "Box",
    "OperativeMarks",
    "OperativesError",
    "RenderError",
    "TokenMark",
    "load_operatives",
    "place_labels",
    "render_killzone",
    "sight_caption",
    "terrain_category",
]

#: Output formats, chosen from the file suffix.
SUFFIXES = (".png", ".svg")
#: Resolution of PNG output (dots per inch).
PNG_DPI = 150

_FLOOR_COLOUR = "#f7f4ec"
_TEXT_HALO = [withStroke(linewidth=2.2, foreground="white")]


@attrs.frozen(slots=True)
class OperativeMarks:
    """What a battle picture shows on an operative's base besides its player.

    Attributes:
        order: ``"engage"`` or ``"conceal"`` (1.5), written as ``E`` or ``C`` on the base;
            ``""`` writes nothing.
        injured: fewer than half its starting wounds (2.3): a black ring.
        expended: it has no activation left this turning point: a faded fill.
    """

    order: str = ""
    injured: bool = False
    expended: bool = False


class RenderError(KillTeamError, ValueError):
    """A picture cannot be drawn as asked (unknown output suffix, unknown operative name)."""


# -------------------------------------------------------------------------------------------
# Drawing
# -------------------------------------------------------------------------------------------


def _ring_xy(poly: Polygon) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in poly.exterior.coords]


def _label_point(poly: Polygon) -> tuple[float, float]:
    """The part's centroid, or a point inside it when the centroid is outside (an L)."""
    c = poly.centroid
    if not poly.covers(c):
        c = poly.representative_point()
    return float(c.x), float(c.y)


def _fmt_inches(value: float) -> str:
    return f'{value:g}"'


def _draw_board(ax: Axes, kz: Killzone, owners: Mapping[str, str]) -> None:
    ax.add_patch(
        PolygonPatch(
            _ring_xy(kz.board), closed=True, facecolor=_FLOOR_COLOUR, edgecolor="none", zorder=0
        )
    )
    for zone, poly in sorted(kz.drop_zones.items()):
        player = owners.get(zone, zone)
        colour = PLAYER_COLOURS.get(player, "#777777")
        ax.add_patch(
            PolygonPatch(
                _ring_xy(poly),
                closed=True,
                facecolor=colour,
                alpha=0.13,
                edgecolor="none",
                zorder=1,
            )
        )
        c = poly.centroid
        ax.text(
            float(c.x),
            float(c.y),
            player,
            ha="center",
            va="center",
            fontsize=44,
            fontweight="bold",
            color=colour,
            alpha=0.22,
            zorder=1.1,
        )
        if zone in owners:  # the zone's own name, under the letter of the player set up there
            ax.text(
                float(c.x),
                float(c.y) - 1.6,
                f"drop zone {zone}",
                ha="center",
                va="top",
                fontsize=8,
                color=colour,
                alpha=0.55,
                zorder=1.1,
            )
    for zone, poly in sorted(kz.territories.items()):
        colour = PLAYER_COLOURS.get(owners.get(zone, zone), "#777777")
        # Inset a little so the outlines of adjacent territories stay visible side by side.
        shown = poly.buffer(-0.12, join_style="mitre")
        if shown.is_empty or not isinstance(shown, Polygon):
            shown = poly
        ax.add_patch(
            PolygonPatch(
                _ring_xy(shown),
                closed=True,
                fill=False,
                edgecolor=colour,
                linestyle=(0, (5, 3)),
                linewidth=1.3,
                alpha=0.8,
                zorder=1.2,
            )
        )
    ax.add_patch(
        PolygonPatch(
            _ring_xy(kz.board), closed=True, fill=False, edgecolor="black", linewidth=2, zorder=8
        )
    )


def _draw_terrain(ax: Axes, kz: Killzone, texts: list[Text]) -> list[str]:
    """Draw every part (lower parts first); return the categories used. The height labels
    are appended to ``texts``."""
    used: list[str] = []
    order = sorted(range(len(kz.parts)), key=lambda i: (kz.parts[i].height, i))
    for i in order:
        part = kz.parts[i]
        category = terrain_category(kz, i)
        if category not in used:
            used.append(category)
        colour, hatch = TERRAIN_STYLES[category]
        ax.add_patch(
            PolygonPatch(
                _ring_xy(part.polygon),
                closed=True,
                facecolor=colour,
                edgecolor="#1d1d1d",
                linewidth=0.7,
                hatch=hatch or None,
                zorder=3 + part.height / 100,
            )
        )
    # Heights: one label per feature and height (on its largest part of that height), so a
    # wall made of several segments is labelled once.
    labelled: dict[tuple[int, float], int] = {}
    for i, part in enumerate(kz.parts):
        key = (part.feature, part.height)
        best = labelled.get(key)
        if best is None or part.polygon.area > kz.parts[best].polygon.area:
            labelled[key] = i
    for i in labelled.values():
        part = kz.parts[i]
        x, y = _label_point(part.polygon)
        minx, miny, maxx, maxy = part.polygon.bounds
        rotation = 90 if (maxy - miny) > 2.5 * (maxx - minx) and (maxx - minx) < 1.0 else 0
        t = ax.text(
            x,
            y,
            _fmt_inches(part.height),
            ha="center",
            va="center",
            fontsize=7,
            rotation=rotation,
            color="black",
            path_effects=_TEXT_HALO,
            zorder=5,
        )
        texts.append(t)
    return [c for c in TERRAIN_STYLES if c in used]


def _draw_objectives(
    ax: Axes,
    kz: Killzone,
    markers: Mapping[str, tuple[float, float]] | None,
    texts: list[Text],
    boxes: list[Box],
    notes: Mapping[str, str] | None = None,
) -> None:
    """Draw the objective markers; their name labels (with the marker's ``notes`` on the
    lines below) go to ``texts``, their discs to ``boxes`` (obstacles for the operatives'
    labels)."""
    for obj in kz.objectives:
        x, y = obj.position if markers is None or obj.name not in markers else markers[obj.name]
        ax.add_patch(
            Circle(
                (x, y),
                obj.radius,
                facecolor="#fff6d5",
                edgecolor="#b8860b",
                linewidth=2,
                zorder=4,
            )
        )
        ax.add_patch(Circle((x, y), obj.radius * 0.3, facecolor="#b8860b", zorder=4.1))
        r = obj.radius
        boxes.append((x - r, y - r, x + r, y + r))
        t = ax.text(
            x,
            y - obj.radius - 0.15,
            obj.name + (f"\n{notes[obj.name]}" if notes and notes.get(obj.name) else ""),
            ha="center",
            va="top",
            fontsize=8,
            fontweight="bold",
            color="#6b4e00",
            path_effects=_TEXT_HALO,
            zorder=4.2,
        )
        texts.append(t)


def _text_size(ax: Axes, text: Text) -> tuple[float, float]:
    """Width and height (inches on the board) of ``text`` as the figure draws it now."""
    renderer = ax.figure.canvas.get_renderer()  # type: ignore[attr-defined]
    bb = text.get_window_extent(renderer)
    inv = ax.transData.inverted()
    (x0, y0), (x1, y1) = inv.transform([(bb.x0, bb.y0), (bb.x1, bb.y1)])
    return float(abs(x1 - x0)), float(abs(y1 - y0))


def _text_box(ax: Axes, text: Text) -> Box:
    renderer = ax.figure.canvas.get_renderer()  # type: ignore[attr-defined]
    bb = text.get_window_extent(renderer)
    inv = ax.transData.inverted()
    (x0, y0), (x1, y1) = inv.transform([(bb.x0, bb.y0), (bb.x1, bb.y1)])
    return (float(min(x0, x1)), float(min(y0, y1)), float(max(x0, x1)), float(max(y0, y1)))


def _draw_operatives(
    ax: Axes,
    operatives: Mapping[str, tuple[str, Placement]],
    marks: Mapping[str, OperativeMarks],
) -> None:
    """The bases: player colour, faded when expended, a black ring when injured, and the
    order's letter (E or C) on the base."""
    for name, (player, p) in operatives.items():
        colour = PLAYER_COLOURS.get(player, "#555555")
        m = marks.get(name, OperativeMarks())
        ax.add_patch(
            Circle(
                (p.x, p.y),
                p.radius,
                facecolor=colour,
                edgecolor="white",
                linewidth=1.2,
                alpha=_EXPENDED_ALPHA if m.expended else _READY_ALPHA,
                zorder=6,
            )
        )
        if m.injured:  # drawn on its own so that it does not fade with the fill
            ax.add_patch(
                Circle(
                    (p.x, p.y),
                    p.radius,
                    fill=False,
                    edgecolor=_INJURED_COLOUR,
                    linewidth=2.2,
                    zorder=6.1,
                )
            )
        if m.order:
            ax.text(
                p.x,
                p.y,
                m.order[0].upper(),
                ha="center",
                va="center_baseline",
                fontsize=7,
                fontweight="bold",
                color="white",
                zorder=6.2,
            )


#: A label to place beside a round thing that is not a living operative (a casualty, a
#: token): ``(x, y, radius, text, colour)``, inches.
ExtraLabel = tuple[float, float, float, str, str]


def _draw_labels(
    ax: Axes,
    operatives: Mapping[str, tuple[str, Placement]],
    labels: Mapping[str, str] | None,
    obstacles: list[Box],
    bounds: Box,
    soft: list[Box],
    extra: Sequence[ExtraLabel] = (),
) -> list[Box]:
    """The operatives' labels, then the ``extra`` labels (casualties, tokens), all placed
    together by :func:`place_labels` so that none covers another (call once the layout is
    fixed: sizes are measured in board inches). Returns the boxes of the labels placed."""
    names = list(operatives)
    items: list[tuple[float, float, float, str, str, float]] = []
    for name in names:
        player, p = operatives[name]
        text = labels.get(name, name) if labels is not None else name
        label = text if p.elevation <= 0 else f"{text} ({_fmt_inches(p.elevation)} up)"
        colour = PLAYER_COLOURS.get(player, "#555555")
        items.append((p.x, p.y, p.radius, label, colour, 8.0))
    items += [(x, y, r, text, colour, 7.0) for x, y, r, text, colour in extra]
    texts: list[Text] = []
    for x, y, _r, label, colour, size in items:
        texts.append(
            ax.text(
                x,
                y,
                printable(label),
                parse_math=False,
                ha="center",
                va="center",
                fontsize=size,
                fontweight="bold",
                color=colour,
                path_effects=_TEXT_HALO,
                zorder=6.5,
            )
        )
    pad = 0.05
    sizes = [(w + 2 * pad, h + 2 * pad) for w, h in (_text_size(ax, t) for t in texts)]
    bases = [(x, y, r) for x, y, r, *_ in items]
    spots = place_labels(bases, sizes, obstacles, bounds, soft)
    for (x, y, r, _label, colour, _size), t, (box, away) in zip(items, texts, spots, strict=True):
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        t.set_position((cx, cy))
        if away:  # a leader line from the base's edge to the label's nearest point
            nx = min(max(x, box[0]), box[2])
            ny = min(max(y, box[1]), box[3])
            dist = math.hypot(nx - x, ny - y)
            if dist > r:
                ex = x + (nx - x) * r / dist
                ey = y + (ny - y) * r / dist
                ax.plot(
                    [ex, nx],
                    [ey, ny],
                    color=colour,
                    linewidth=0.7,
                    alpha=0.8,
                    zorder=5.9,  # under the bases
                )
    return [box for box, _ in spots]


def _draw_sight(ax: Axes, kz: Killzone, shooter: Placement, target: Placement) -> None:
    from engine.geometry import sight

    result = sight.targeting(kz, shooter, target)
    for (x0, y0, _z0), (x1, y1, _z1) in result.lines:
        ax.plot([x0, x1], [y0, y1], color="#e4007c", linewidth=0.9, alpha=0.85, zorder=7)
    ox, oy = result.origin
    ax.plot([ox], [oy], marker="o", markersize=3.5, color="#e4007c", zorder=7.1)
    for i in sorted(result.intervening):
        for part in kz.parts:
            if part.feature == i:
                ax.add_patch(
                    PolygonPatch(
                        _ring_xy(part.polygon),
                        closed=True,
                        fill=False,
                        edgecolor="#e4007c",
                        linewidth=1.8,
                        zorder=5.5,
                    )
                )


def _literal_texts(fig: Figure) -> None:
    """Make every text of ``fig`` drawn as written (module docstring): no mathtext, control
    characters as escapes. Markers such as ``$E$`` are not texts and keep their mathtext."""
    for t in fig.findobj(Text):
        assert isinstance(t, Text)
        t.set_parse_math(False)
        text = t.get_text()
        if printable(text) != text:
            t.set_text(printable(text))


def render_killzone(
    killzone: Killzone,
    path: str | Path,
    *,
    operatives: Mapping[str, tuple[str, Placement]] | None = None,
    sight: tuple[str, str] | None = None,
    labels: Mapping[str, str] | None = None,
    markers: Mapping[str, tuple[float, float]] | None = None,
    title: str | None = None,
    drop_zone_players: Mapping[str, str] | None = None,
    marks: Mapping[str, OperativeMarks] | None = None,
    casualties: Mapping[str, tuple[str, Placement]] | None = None,
    tokens: Sequence[TokenMark] = (),
    control: Mapping[str, str] | None = None,
    marker_notes: Mapping[str, str] | None = None,
    label_boxes: list[Box] | None = None,
) -> Path:
    """Draw ``killzone`` to a PNG (150 dpi) or SVG file.

    The picture shows the board outline with a 1" grid; each terrain part filled by its
    category (:func:`terrain_category`, key in the legend right of the board) with its
    height (inches) written at its centroid, once per feature and height; drop zones
    (translucent, labelled with the player), territories (dashed outlines), objective
    markers (40 mm circles with their names); operatives as circles of their base diameter
    (mm converted to inches), coloured by player and labelled with their names (and their
    elevation when above the floor), each label placed beside its base where it covers no
    other label, base or marker (:func:`place_labels`; a thin leader line joins a label set
    further away); with ``marks``, each base's order letter (E or C), a faded fill when
    expended and a black ring when injured; and, with ``sight``, the targeting lines of
    :func:`engine.geometry.sight.targeting` from the shooter's chosen origin, the
    intervening features outlined, and a caption of the verdicts (:func:`sight_caption`;
    sections 4.3-4.5). Hatchways are drawn in the killzone's current state (section 9.3).

    Args:
        killzone: the layout (with the hatchways open that should be shown open).
        path: output file; its suffix (``.png`` or ``.svg``) picks the format.
        operatives: name -> (player ``"A"``/``"B"``, placement), as returned by
            :func:`load_operatives`.
        sight: ``(shooter name, target name)``, both keys of ``operatives``.
        labels: operative name -> the text written beside it (default: its name), e.g.
            ``"KAS-3 5/8"`` for a battle picture.
        markers: objective marker name -> ``(x, y)`` where it is now (default: where the
            layout puts it; a carried marker moves with its carrier, section 4.8).
        title: a line written above the layout's own title (e.g. the turning point and VP).
        drop_zone_players: drop zone name -> the player who set up there (1.2); the zone, its
            territory and its label take that player's colour (default: the zone's own name).
        marks: operative name -> :class:`OperativeMarks` (order, injured, expended).
        casualties: operative name -> (player, the placement where it fell): drawn as a
            faded base with an X, labelled (2.3;
            :func:`~engine.geometry.render_marks.draw_casualties`).
        tokens: tokens and markers rule modules put on the killzone (4.8, 7.2), each a
            disc in its owner's colour, labelled
            (:class:`~engine.geometry.render_marks.TokenMark`).
        control: objective marker name -> the player controlling it (4.8): a ring in that
            player's colour.
        marker_notes: objective marker name -> a line written under its name (mission
            facts, e.g. ``"Secure: A"``).
        label_boxes: a list the boxes of every label placed (operatives, casualties,
            tokens; board inches) are appended to, for checks: no two overlap.

    Returns:
        The path written.

    Raises:
        RenderError: for another suffix, or a ``sight`` name that is not an operative.
    """
    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in SUFFIXES:
        raise RenderError(
            f"{out}: cannot render to {out.suffix or 'a file without a suffix'!r} "
            f"(use {' or '.join(SUFFIXES)})"
        )
    ops: Mapping[str, tuple[str, Placement]] = operatives or {}
    if sight is not None:
        for role, name in zip(("shooter", "target"), sight, strict=True):
            if name not in ops:
                known = ", ".join(ops) or "none"
                raise RenderError(f"sight {role} {name!r} is not an operative (known: {known})")

    fig = Figure(figsize=(11.6, 7.2), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_aspect("equal")
    margin = 0.4
    ax.set_xlim(-margin, killzone.width + margin)
    ax.set_ylim(-margin, killzone.depth + margin)
    step = 2.0
    ax.set_xticks([step * k for k in range(int(killzone.width // step) + 1)])
    ax.set_yticks([step * k for k in range(int(killzone.depth // step) + 1)])
    ax.set_xticks([float(k) for k in range(int(killzone.width) + 1)], minor=True)
    ax.set_yticks([float(k) for k in range(int(killzone.depth) + 1)], minor=True)
    ax.tick_params(labelsize=8)
    ax.grid(which="major", color="#d9d4c7", linewidth=0.6, zorder=0.5)
    ax.grid(which="minor", color="#ebe7dd", linewidth=0.4, zorder=0.5)
    ax.set_axisbelow(True)
    for spine in ax.spines.values():
        spine.set_visible(False)

    owners: Mapping[str, str] = drop_zone_players or {}
    marks = marks or {}
    _draw_board(ax, killzone, owners)
    texts: list[Text] = []
    obstacles: list[Box] = []
    categories = _draw_terrain(ax, killzone, texts)
    _draw_objectives(ax, killzone, markers, texts, obstacles, marker_notes)
    draw_marker_control(ax, killzone, markers, control or {})
    dead: Mapping[str, tuple[str, Placement]] = casualties or {}
    obstacles += draw_casualties(ax, dead)
    obstacles += draw_tokens(ax, tokens)
    _draw_operatives(ax, ops, marks)
    caption = ""
    if sight is not None:
        (_, shooter), (_, target) = ops[sight[0]], ops[sight[1]]
        _draw_sight(ax, killzone, shooter, target)
        caption = sight_caption(killzone, sight[0], shooter, sight[1], target)

    heading = (
        f'{killzone.name} (version {killzone.version}), {killzone.width:g}" x {killzone.depth:g}"'
    )
    if killzone.hatchways:
        opened = sorted(killzone.open_hatchways)
        heading += f"; hatchways open: {', '.join(opened) if opened else 'none'}"
    if title is not None:
        heading = f"{title}\n{heading}"
    ax.set_title(heading, fontsize=11, loc="left")
    if caption:
        fig.supxlabel(caption, fontsize=10, x=0.02, ha="left")
    players = {player for player, _ in ops.values()}
    handles = _legend_handles(categories, killzone, players, sight is not None, owners, bool(marks))
    handles += marks_legend_handles(
        bool(dead), bool(tokens), [p for p in (control or {}).values() if p], sorted(players)
    )
    fig.legend(
        handles=handles,
        loc="outside right upper",
        fontsize=8.5,
        title="Key (heights in inches)",
        title_fontsize=9,
        frameon=False,
        handlelength=2.2,
        handleheight=1.4,
    )
    _literal_texts(fig)
    # Fix the layout, then place the labels in board inches measured in it.
    engine = fig.get_layout_engine()
    if engine is not None:
        engine.execute(fig)
    fig.set_layout_engine("none")
    obstacles += [_text_box(ax, t) for t in texts]
    bounds = (0.0, 0.0, killzone.width, killzone.depth)
    soft: list[Box] = []
    for part in killzone.parts:
        x0, y0, x1, y1 = (float(v) for v in part.polygon.bounds)
        soft.append((x0, y0, x1, y1))
    extra: list[ExtraLabel] = [
        (p.x, p.y, p.radius, f"{name} (out)", PLAYER_COLOURS.get(player, "#555555"))
        for name, (player, p) in dead.items()
    ]
    extra += [(t.x, t.y, t.radius, t.text, PLAYER_COLOURS.get(t.owner, "#555555")) for t in tokens]
    placed = _draw_labels(ax, ops, labels, obstacles, bounds, soft, extra)
    if label_boxes is not None:
        label_boxes.extend(placed)
    out.parent.mkdir(parents=True, exist_ok=True)
    metadata: dict[str, Any] = {"Date": None} if suffix == ".svg" else {"Software": None}
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "killteam", "hatch.linewidth": 0.6}):
        fig.savefig(out, format=suffix[1:], dpi=PNG_DPI, metadata=metadata)
    return out
