"""What a battle picture shows besides terrain and living operatives
(:mod:`engine.geometry.render`): casualties where they fell, the tokens and markers rule
modules and missions put on the killzone, and who controls each objective marker
(``rules/KT24.md`` 2.3 incapacitated, 4.8 markers and control, 7.2 equipment, 8 mission ops).

- A casualty (:func:`draw_casualties`) is a faded base with an X in its player's colour at the
  last place it stood.
- A token (:class:`TokenMark`, :func:`draw_tokens`) is a small disc of its diameter (20 mm for
  a marker, 4.8) in its owner's colour with a white edge, dashed when carried.
- A controlled objective marker (:func:`draw_marker_control`) has a ring in the controlling
  player's colour; notes from the mission (``"Secure: A"``) are written under its name.

Every label these draw goes through the same collision-free placement as the operatives'
labels (:func:`engine.geometry.render.place_labels`), so the callers here only draw shapes
and return the obstacles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Circle

from engine.geometry.model import MARKER_DIAMETER_MM, MM_PER_INCH, Killzone, Placement
from engine.geometry.render_legend import _EXPENDED_ALPHA, PLAYER_COLOURS

__all__ = [
    "CASUALTY_ALPHA",
    "TokenMark",
    "draw_casualties",
    "draw_marker_control",
    "draw_tokens",
    "marks_legend_handles",
]

#: Fill opacity of a casualty's faded base.
CASUALTY_ALPHA = 0.22
_NEUTRAL = "#555555"
#: A rectangle ``(x0, y0, x1, y1)`` in inches on the board.
Box = tuple[float, float, float, float]


@attrs.frozen(slots=True)
class TokenMark:
    """One token or marker to draw (not terrain: equipment terrain is part of the killzone).

    Attributes:
        name: unique among the tokens (``"B mines"``, ``"A retrieval 1"``).
        label: the short text written beside it (default: ``name``).
        owner: ``"A"``, ``"B"`` or ``""`` (drawn grey).
        x, y: its centre (inches).
        diameter_mm: its size (default 20 mm, a marker's, 4.8).
        carried: it is carried by an operative (drawn dashed, on its carrier).
    """

    name: str
    owner: str
    x: float
    y: float
    label: str = ""
    diameter_mm: float = MARKER_DIAMETER_MM
    carried: bool = False

    @property
    def radius(self) -> float:
        """Half its diameter, in inches."""
        return self.diameter_mm / MM_PER_INCH / 2

    @property
    def text(self) -> str:
        """The label written beside it."""
        return self.label or self.name


def _box(x: float, y: float, r: float) -> Box:
    return (x - r, y - r, x + r, y + r)


def draw_casualties(ax: Axes, casualties: Mapping[str, tuple[str, Placement]]) -> list[Box]:
    """Draw each incapacitated operative (2.3) where it last stood: a faded base and an X in
    its player's colour. Returns the boxes of the bases drawn (obstacles for labels)."""
    boxes: list[Box] = []
    for _name, (player, p) in casualties.items():
        colour = PLAYER_COLOURS.get(player, _NEUTRAL)
        ax.add_patch(
            Circle(
                (p.x, p.y),
                p.radius,
                facecolor=colour,
                edgecolor=colour,
                linewidth=0.8,
                linestyle=(0, (2, 2)),
                alpha=CASUALTY_ALPHA,
                zorder=5.6,
            )
        )
        d = p.radius * 0.62
        for sx in (-1.0, 1.0):
            ax.plot(
                [p.x - d, p.x + d],
                [p.y - sx * d, p.y + sx * d],
                color=colour,
                linewidth=2.0,
                alpha=0.8,
                solid_capstyle="round",
                zorder=5.7,
            )
        boxes.append(_box(p.x, p.y, p.radius))
    return boxes


def draw_tokens(ax: Axes, tokens: Sequence[TokenMark]) -> list[Box]:
    """Draw each token as a disc of its diameter in its owner's colour (dashed edge when
    carried). Returns the boxes of the discs (obstacles for labels)."""
    boxes: list[Box] = []
    for t in tokens:
        colour = PLAYER_COLOURS.get(t.owner, _NEUTRAL)
        ax.add_patch(
            Circle(
                (t.x, t.y),
                t.radius,
                facecolor=colour,
                edgecolor="white",
                linewidth=1.4,
                linestyle=(0, (2, 1.5)) if t.carried else "solid",
                alpha=0.75,
                zorder=6.8 if t.carried else 5.8,
            )
        )
        ax.add_patch(
            Circle(
                (t.x, t.y),
                t.radius * 0.35,
                facecolor="white",
                edgecolor="none",
                zorder=6.9 if t.carried else 5.9,
            )
        )
        boxes.append(_box(t.x, t.y, t.radius))
    return boxes


def draw_marker_control(
    ax: Axes,
    kz: Killzone,
    markers: Mapping[str, tuple[float, float]] | None,
    control: Mapping[str, str],
) -> None:
    """Ring each objective marker ``control`` names (marker name -> ``"A"``/``"B"``) in the
    controlling player's colour (4.8); a marker not named (or ``""``) is left as drawn."""
    for obj in kz.objectives:
        player = control.get(obj.name, "")
        if not player:
            continue
        x, y = obj.position if markers is None or obj.name not in markers else markers[obj.name]
        ax.add_patch(
            Circle(
                (x, y),
                obj.radius + 0.12,
                fill=False,
                edgecolor=PLAYER_COLOURS.get(player, _NEUTRAL),
                linewidth=3.2,
                zorder=4.05,
            )
        )


def marks_legend_handles(
    casualties: bool, tokens: bool, control: Sequence[str], players: Sequence[str]
) -> list[Artist]:
    """Legend entries for what this module drew: casualties, tokens and the control rings of
    ``control`` (the players controlling some marker)."""
    colour = PLAYER_COLOURS.get(players[0] if players else "A", _NEUTRAL)
    handles: list[Artist] = []
    if casualties:
        handles.append(
            Line2D(
                [],
                [],
                linestyle="none",
                marker="X",
                markersize=9,
                color=colour,
                alpha=0.8,
                label="X: incapacitated (where it fell)",
            )
        )
    if tokens:
        handles.append(
            Line2D(
                [],
                [],
                linestyle="none",
                marker="o",
                markersize=7,
                markerfacecolor=colour,
                markeredgecolor="white",
                alpha=_EXPENDED_ALPHA + 0.25,
                label="Token or marker (owner's colour)",
            )
        )
    for player in sorted(set(control)):
        handles.append(
            Line2D(
                [],
                [],
                linestyle="none",
                marker="o",
                markersize=11,
                markerfacecolor="#fff6d5",
                markeredgecolor=PLAYER_COLOURS.get(player, _NEUTRAL),
                markeredgewidth=3,
                label=f"Objective controlled by {player}",
            )
        )
    return handles
