"""The picture of a ruling (``killteam explain --picture``): the killzone's terrain, and over
it the operatives, markers, lines, terrain parts and distances a ruling used
(:class:`engine.explain.Drawing`, passed here as plain values: this layer knows no ruling).

Parts are drawn by their terrain category (:data:`engine.geometry.render_legend.TERRAIN_STYLES`)
and the parts the ruling used outlined in the colour of their role (cover, obscuring,
blocking, vetoed: within 1" of an operative, so not obscuring); lines are solid where clear
and dashed where terrain blocks or intervenes; each distance is a dotted line with its label at
its middle. PNG (150 dpi) or SVG, from the suffix, with matplotlib's non-interactive backends;
names are drawn as written (no mathtext, control characters escaped).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Circle
from matplotlib.patches import Polygon as PolygonPatch
from matplotlib.text import Text

from engine.geometry.model import MM_PER_INCH, OBJECTIVE_DIAMETER_MM, Killzone
from engine.geometry.render_legend import PLAYER_COLOURS, TERRAIN_STYLES, terrain_category
from engine.terminal import printable

__all__ = ["ROLE_COLOURS", "render_why"]

#: Outline colour of a terrain part by the role it plays in a ruling.
ROLE_COLOURS = {
    "cover": "#1a9850",
    "obscuring": "#d73027",
    "blocking": "#111111",
    "intervening": "#e4007c",
    "vetoed": "#7f7f7f",
}
PNG_DPI = 150


def render_why(
    kz: Killzone,
    path: str | Path,
    *,
    operatives: Sequence[tuple[str, float, float, float]] = (),
    players: dict[str, str] | None = None,
    lines: Sequence[tuple[float, float, float, float, bool]] = (),
    parts: Sequence[tuple[int, str]] = (),
    distances: Sequence[tuple[float, float, float, float, str]] = (),
    markers: Sequence[tuple[str, float, float]] = (),
    title: str = "",
) -> Path:
    """Draw a ruling's picture (module docstring).

    Args:
        kz: the killzone (in the hatchway state of the position).
        path: a ``.png`` or ``.svg`` file.
        operatives: ``(id, x, y, radius)`` (inches); ``players`` id -> ``"A"``/``"B"``.
        lines: ``(x0, y0, x1, y1, clear)``. parts: ``(part index, role)`` (a key of
            :data:`ROLE_COLOURS`). distances: ``(x0, y0, x1, y1, label)``.
        markers: ``(name, x, y)``. title: a line above the picture (the ruling).

    Returns:
        The path written.

    Raises:
        ValueError: another suffix.
    """
    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise ValueError(f"{out}: a picture is a .png or .svg file, not {out.suffix!r}")
    fig = Figure(figsize=(11.0, 7.6), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_aspect("equal")
    ax.set_xlim(-0.4, kz.width + 0.4)
    ax.set_ylim(-0.4, kz.depth + 0.4)
    ax.grid(color="#e6e1d6", linewidth=0.5)
    ax.set_axisbelow(True)
    ax.add_patch(
        PolygonPatch(
            [(0, 0), (kz.width, 0), (kz.width, kz.depth), (0, kz.depth)],
            closed=True,
            facecolor="#f7f4ec",
            edgecolor="#555555",
            zorder=0.6,
        )
    )
    for part in kz.parts:
        colour, hatch = TERRAIN_STYLES.get(terrain_category(kz, part.index), ("#ffffff", ""))
        ax.add_patch(
            PolygonPatch(
                list(part.polygon.exterior.coords),
                closed=True,
                facecolor=colour,
                hatch=hatch or None,
                edgecolor="#444444",
                linewidth=0.5,
                alpha=0.55,
                zorder=1,
            )
        )
    for index, role in parts:
        poly = kz.parts[index].polygon
        ax.add_patch(
            PolygonPatch(
                list(poly.exterior.coords),
                closed=True,
                fill=False,
                edgecolor=ROLE_COLOURS.get(role, "#e4007c"),
                linewidth=2.4,
                zorder=5,
                label=role,
            )
        )
    radius = OBJECTIVE_DIAMETER_MM / MM_PER_INCH / 2
    for name, x, y in markers:
        ax.add_patch(Circle((x, y), radius, facecolor="#fff3b0", edgecolor="#8a6d00", zorder=3))
        ax.text(x, y - radius - 0.35, name, ha="center", va="top", fontsize=8, zorder=8)
    for x0, y0, x1, y1, clear in lines:
        ax.plot(
            [x0, x1],
            [y0, y1],
            color="#e4007c",
            linewidth=0.9,
            linestyle="-" if clear else "--",
            alpha=0.9,
            zorder=6,
        )
    for x0, y0, x1, y1, label in distances:
        ax.plot([x0, x1], [y0, y1], color="#333333", linewidth=0.8, linestyle=":", zorder=6)
        ax.text(
            (x0 + x1) / 2,
            (y0 + y1) / 2 + 0.3,
            label,
            ha="center",
            fontsize=8,
            zorder=8,
            bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.8, "pad": 1},
        )
    owner = players or {}
    for op, x, y, r in operatives:
        colour = PLAYER_COLOURS.get(owner.get(op, ""), "#555555")
        ax.add_patch(Circle((x, y), r, facecolor=colour, edgecolor="black", zorder=7))
        ax.text(x, y + r + 0.25, op, ha="center", va="bottom", fontsize=9, zorder=8)
    used = sorted({role for _, role in parts})
    if used:
        handles = [
            PolygonPatch([(0, 0)], closed=True, fill=False, edgecolor=ROLE_COLOURS[r], label=r)
            for r in used
            if r in ROLE_COLOURS
        ]
        ax.legend(handles=handles, loc="upper right", fontsize=8, title="terrain used")
    ax.set_title(title, fontsize=10, loc="left")
    for t in fig.findobj(Text):
        assert isinstance(t, Text)
        t.set_parse_math(False)
        text = t.get_text()
        if printable(text) != text:
            t.set_text(printable(text))
    if suffix == ".png":
        fig.savefig(out, format="png", dpi=PNG_DPI)
    else:
        fig.savefig(out, format="svg")
    return out
