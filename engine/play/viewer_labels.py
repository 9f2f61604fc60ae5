"""Where the labels of a ``killteam view`` frame go (:mod:`engine.play.viewer`): placed in
Python by the same collision-free placement as the pictures
(:func:`engine.geometry.render_labels.place_labels`), so the page's script only draws them.

Every labelled thing is a round base: a living operative (``"KAS-1 2/9"``, with ``(2" up)``
when it stands on terrain), a casualty where it fell (``"KAS-1 (out)"``), a token
(``"A melta mine"``) and an objective marker (its name, the mission's notes on the lines
below). A label covers no other label, no base of these and no height label of the terrain,
and stays inside the killzone; terrain is a soft obstacle (covered only when nothing else
fits), as in the pictures.

Sizes are measured in the page's font (DejaVu Sans Bold, the font matplotlib ships, so the
measure is the same on every machine); the page shrinks a text that its own font draws wider
than its box (``textLength``), so a drawn label never leaves its box.

A label is ``[text, colour, size, x0, y0, x1, y1]`` (inches, y north; ``text`` lines split by
``"\\n"``; ``colour`` ``"A"``/``"B"`` a player, ``"m"`` a marker, ``""`` nobody), followed by
``x, y, r`` of its base when it stands away from it (the page joins them by a leader line).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from engine.geometry.model import MARKER_DIAMETER_MM, MM_PER_INCH
from engine.geometry.render_labels import Box, place_labels

__all__ = [
    "LABEL_FONT",
    "LINE_HEIGHT",
    "MARKER_RADIUS",
    "PAD",
    "TOKEN_RADIUS",
    "frame_labels",
    "height_boxes",
    "text_width",
]

#: The font family the page draws labels in (first choice; the measure's font).
LABEL_FONT = "DejaVu Sans"
#: Font sizes (inches) of an operative's and a marker's label, of a casualty's and a token's,
#: and of a terrain height.
OP_SIZE = 0.42
SMALL_SIZE = 0.36
HEIGHT_SIZE = 0.34
#: A text line's height, in font sizes.
LINE_HEIGHT = 1.2
#: Space (inches) left around a label's text inside its box.
PAD = 0.05
#: A token's radius (a 20 mm marker, rules/KT24.md 4.8), inches.
TOKEN_RADIUS = MARKER_DIAMETER_MM / MM_PER_INCH / 2
#: The radius (inches) of a marker the killzone does not list (a 40 mm objective marker).
MARKER_RADIUS = 0.787


@lru_cache(maxsize=1)
def _measurer() -> Any:
    from matplotlib.textpath import TextToPath

    return TextToPath()


@lru_cache(maxsize=8192)
def text_width(text: str, size: float) -> float:
    """Width (inches) of one line of ``text`` in :data:`LABEL_FONT` bold at font size ``size``
    (inches): the glyphs' advances, unhinted (matplotlib's text-to-path measure)."""
    from matplotlib.font_manager import FontProperties

    prop = FontProperties(family=LABEL_FONT, weight="bold", size=1)
    width, _height, _descent = _measurer().get_text_width_height_descent(text, prop, ismath=False)
    return float(width) * size


def _size(lines: Sequence[str], size: float) -> tuple[float, float]:
    width = max(text_width(line, size) for line in lines)
    return width + 2 * PAD, len(lines) * size * LINE_HEIGHT + 2 * PAD


def height_boxes(board: Mapping[str, Any]) -> list[Box]:
    """The boxes (inches) of the terrain's height labels the page writes (``board["heights"]``
    rows ``[x, y, height]``, the text ``3"`` centred on the point)."""
    out: list[Box] = []
    for x, y, h in board.get("heights", ()):
        w, hh = _size([f'{h}"'], HEIGHT_SIZE)
        out.append((x - w / 2, y - hh / 2, x + w / 2, y + hh / 2))
    return out


def _fmt(value: float) -> str:
    return f"{value:g}"


def _r(v: float) -> float:
    return round(float(v), 2)


def frame_labels(
    snap: Mapping[str, Any],
    ops: Mapping[str, Mapping[str, Any]],
    board: Mapping[str, Any],
    fixed: Sequence[Box] = (),
    soft: Sequence[Box] = (),
) -> dict[str, list[Any]]:
    """The labels of one frame, by key (an operative's id; ``"t<i>"`` the i-th token;
    ``"m:<name>"`` a marker), each as in the module docstring.

    Args:
        snap: the frame's whole state as the page draws it (``o`` operative rows ``[x, y,
            elevation, wounds, order, flags]``, flags 1 placed, 4 incapacitated; ``m`` marker
            rows ``[name, x, y, controller, notes]``; ``t`` token rows ``[name, owner, x, y,
            carried]``), inches.
        ops: per operative id, ``p`` its player, ``r`` its base's radius, ``w`` its wounds.
        board: the killzone as the page has it (``width``, ``depth``, ``objectives`` name ->
            radius).
        fixed: boxes no label may cover (the terrain's height labels, :func:`height_boxes`).
        soft: boxes a label covers only when nothing else fits (terrain parts' bounds).
    """
    keys: list[str] = []
    bases: list[tuple[float, float, float]] = []
    texts: list[tuple[list[str], str, float]] = []
    for op_id, row in snap["o"].items():
        x, y, elevation, wounds, _order, flags = row
        info = ops[op_id]
        if flags & 4:
            if not (x or y):
                continue  # never placed: it fell nowhere
            lines, size = [f"{op_id} (out)"], SMALL_SIZE
        elif flags & 1:
            up = f' ({_fmt(elevation)}" up)' if elevation > 0 else ""
            lines, size = [f"{op_id} {wounds}/{info['w']}{up}"], OP_SIZE
        else:
            continue
        keys.append(op_id)
        bases.append((x, y, info["r"]))
        texts.append((lines, info["p"], size))
    for i, (name, owner, x, y, _carried) in enumerate(snap["t"]):
        keys.append(f"t{i}")
        bases.append((x, y, TOKEN_RADIUS))
        texts.append(([name], owner, SMALL_SIZE))
    radii = board.get("objectives", {})
    for name, x, y, _controller, notes in snap["m"]:
        keys.append(f"m:{name}")
        bases.append((x, y, radii.get(name, MARKER_RADIUS)))
        lines = [name, *(line for line in str(notes).split("\n") if line.strip())]
        texts.append((lines, "m", OP_SIZE))
    sizes = [_size(lines, size) for lines, _colour, size in texts]
    bounds = (0.0, 0.0, float(board["width"]), float(board["depth"]))
    spots = place_labels(bases, sizes, fixed, bounds, soft)
    out: dict[str, list[Any]] = {}
    for key, (x, y, r), (lines, colour, size), (box, away) in zip(
        keys, bases, texts, spots, strict=True
    ):
        entry: list[Any] = ["\n".join(lines), colour, size, *(_r(v) for v in box)]
        if away:
            entry += [x, y, r]
        out[key] = entry
    return out
