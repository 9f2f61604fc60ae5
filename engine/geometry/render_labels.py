"""Where the labels of a picture go (:mod:`engine.geometry.render`): beside each base,
covering no other label, base or obstacle (:func:`place_labels`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["Box", "place_labels"]

#: A rectangle ``(x0, y0, x1, y1)`` in inches on the board.
Box = tuple[float, float, float, float]


def _overlap(a: Box, b: Box) -> float:
    """Area of the intersection of two boxes (0 when they are disjoint or only touch, to
    1e-6")."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 1e-6 and h > 1e-6 else 0.0


def _meets(t: Box, x: float, y: float, reach: float) -> bool:
    """Box ``t`` reaches within ``reach`` inches of ``(x, y)`` along both axes."""
    return t[0] <= x + reach and t[2] >= x - reach and t[1] <= y + reach and t[3] >= y - reach


#: Directions tried around a base, in order: above, below, right, left, the diagonals, then
#: above and below shifted half a label's width right or left (``x`` 0.5: see _label_box).
_DIRECTIONS = (
    (0.0, 1.0),
    (0.0, -1.0),
    (1.0, 0.0),
    (-1.0, 0.0),
    (1.0, 1.0),
    (-1.0, 1.0),
    (1.0, -1.0),
    (-1.0, -1.0),
    (0.5, 1.0),
    (-0.5, 1.0),
    (0.5, -1.0),
    (-0.5, -1.0),
)
#: Gaps (inches) between a base's edge and its label, nearest first.
_GAPS = (0.08, 0.5, 1.0, 1.6, 2.4, 3.2, 4.0)
#: Clearance (inches) a label keeps from other labels, bases and obstacles.
_CLEAR = 0.04


def _label_box(
    x: float, y: float, r: float, w: float, h: float, d: tuple[float, float], gap: float
) -> Box:
    """The box of a ``w`` x ``h`` label beside a base at ``(x, y)`` of radius ``r``, towards
    direction ``d`` (unit steps), ``gap`` inches from the base's edge. ``d = (+-0.5, +-1)``:
    above or below, shifted half the label's width."""
    dx, dy = d
    reach = r + gap
    if abs(dx) == 1 and dy:  # diagonal: the label's near corner on the 45-degree line
        reach = r * math.sqrt(0.5) + gap
    cx = x + dx * w if abs(dx) == 0.5 else x + dx * reach + dx * w / 2
    cy = y + dy * reach + dy * h / 2
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def place_labels(
    bases: Sequence[tuple[float, float, float]],
    sizes: Sequence[tuple[float, float]],
    obstacles: Sequence[Box] = (),
    bounds: Box | None = None,
    soft: Sequence[Box] = (),
) -> list[tuple[Box, bool]]:
    """Boxes for the labels of operatives' bases, so that no label covers another label, a
    base or an obstacle (deterministic: the same input gives the same boxes).

    Each label tries positions around its base (above, below, right, left, then diagonals)
    at growing gaps from the base's edge (:data:`_GAPS`), inside ``bounds``, and takes the
    one of least cost: first the area it covers (with a clearance of :data:`_CLEAR`) of other
    labels, bases and obstacles; then the area it covers of ``soft`` boxes (terrain) plus
    0.25 per step away from the base; the first tried wins a tie. Labels are placed most
    crowded base first (most other bases within 3", then input order).

    Args:
        bases: ``(x, y, radius)`` of each base, inches.
        sizes: ``(width, height)`` of each label, inches (same order as ``bases``).
        obstacles: boxes labels should not cover (objective markers, other text).
        bounds: the box labels must stay inside (default: none).
        soft: boxes a label may cover at a small cost (terrain).

    Returns:
        Per base (input order): its label's box and whether it stands away from the base
        (so a leader line should join them).

    Raises:
        ValueError: ``bases`` and ``sizes`` differ in length.
    """
    if len(bases) != len(sizes):
        raise ValueError(f"{len(bases)} bases but {len(sizes)} label sizes")
    base_boxes = [(x - r, y - r, x + r, y + r) for x, y, r in bases]

    def crowd(i: int) -> int:
        x, y, _ = bases[i]
        return sum(
            1 for j, (u, v, _) in enumerate(bases) if j != i and math.hypot(u - x, v - y) < 3
        )

    order = sorted(range(len(bases)), key=lambda i: (-crowd(i), i))
    placed: dict[int, tuple[Box, bool]] = {}
    taken: list[Box] = [*obstacles, *base_boxes]
    for i in order:
        x, y, r = bases[i]
        w, h = sizes[i]
        best: tuple[tuple[float, float], Box, bool] | None = None
        # Only boxes within the farthest reach of this label can be covered (a box left out
        # would add 0.0 to a sum: the same costs, fewer sums).
        reach = r + _GAPS[-1] + w + h + _CLEAR
        near = [t for t in taken if _meets(t, x, y, reach)]
        near_soft = [t for t in soft if _meets(t, x, y, reach)]
        for k, gap in enumerate(_GAPS):
            if best is not None and best[0][0] == 0 and 0.25 * k >= best[0][1]:
                break  # nothing covered already: a farther gap costs at least as much
            for d in _DIRECTIONS:
                box = _label_box(x, y, r, w, h, d, gap)
                if bounds is not None and (
                    box[0] < bounds[0]
                    or box[1] < bounds[1]
                    or box[2] > bounds[2]
                    or box[3] > bounds[3]
                ):
                    continue
                clear = (box[0] - _CLEAR, box[1] - _CLEAR, box[2] + _CLEAR, box[3] + _CLEAR)
                hard = sum(_overlap(clear, t) for t in near)
                if best is not None and (hard, 0.25 * k) >= best[0]:
                    continue  # soft cover only adds: this one cannot win
                cost = (hard, 0.25 * k + sum(_overlap(box, t) for t in near_soft))
                if best is None or cost < best[0]:
                    best = (cost, box, k > 0)
        if best is None:  # nothing fits inside the bounds: above the base
            best = ((0.0, 0.0), _label_box(x, y, r, w, h, (0.0, 1.0), _GAPS[0]), False)
        placed[i] = (best[1], best[2])
        taken.append(best[1])
    return [placed[i] for i in range(len(bases))]
