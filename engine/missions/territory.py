"""Areas of the killzone the tac ops name (``rules/KT24.md`` 8.4, 9.1): each player's
territory and drop zone, the neutral killzone edges, and tests of "wholly within".

- A player's **territory** is the layout's territory named after the drop zone that player
  took; a layout without territories splits the board along the centreline, the half on the
  drop zone's side being that player's (the pack's territories are the two halves).
- The **neutral killzone edges** are the board edges along which neither drop zone lies
  (:meth:`engine.geometry.Killzone.drop_zone_edge`).
- Every test here is on the board's plan (inches, x east, y north): an operative on Vantage
  terrain is where its base is seen from above.
"""

from __future__ import annotations

import shapely
from shapely.geometry import Point, Polygon

from engine.game.state import OperativeState, other
from engine.game.work import Work

__all__ = [
    "EDGES",
    "distance_to_drop_zone",
    "drop_zone",
    "edge_distance",
    "enemy_territory",
    "neutral_edges",
    "operative_wholly_within",
    "territory",
    "wholly_within",
]

EDGES = ("west", "east", "south", "north")
"""The killzone edges, as :meth:`engine.geometry.Killzone.drop_zone_edge` names them."""


def drop_zone(w: Work, player: str) -> Polygon | None:
    """The drop zone ``player`` took (``None`` before drop zones are chosen)."""
    zone = w.pl(player).drop_zone
    return w.ctx.killzone.drop_zones.get(zone) if zone else None


def territory(w: Work, player: str) -> Polygon | None:
    """``player``'s territory (module docstring); ``None`` before drop zones are chosen."""
    zone = w.pl(player).drop_zone
    kz = w.ctx.killzone
    if not zone or zone not in kz.drop_zones:
        return None
    if zone in kz.territories:
        return kz.territories[zone]
    edge = kz.drop_zone_edge(zone)
    half_w, half_d = kz.width / 2, kz.depth / 2
    box = {
        "west": (0.0, 0.0, half_w, kz.depth),
        "east": (half_w, 0.0, kz.width, kz.depth),
        "south": (0.0, 0.0, kz.width, half_d),
        "north": (0.0, half_d, kz.width, kz.depth),
    }.get(edge)
    return shapely.box(*box) if box is not None else None


def enemy_territory(w: Work, player: str) -> Polygon | None:
    """The territory of ``player``'s opponent."""
    return territory(w, other(player))


def wholly_within(area: Polygon | None, x: float, y: float, radius: float) -> bool:
    """Whether a disc of ``radius`` inches centred on ``(x, y)`` (a base or a marker) is
    wholly within ``area`` (its edge counts as within; ``None`` contains nothing)."""
    if area is None:
        return False
    return bool(area.buffer(1e-6).covers(Point(x, y).buffer(radius, quad_segs=16)))


def operative_wholly_within(w: Work, o: OperativeState, area: Polygon | None) -> bool:
    """Whether ``o``'s base is wholly within ``area``."""
    return wholly_within(area, o.x, o.y, w.place(o).radius)


def distance_to_drop_zone(w: Work, o: OperativeState, player: str) -> float:
    """The distance in inches from ``o``'s base to ``player``'s drop zone (0 when they
    overlap; infinite before drop zones are chosen), on the board's plan."""
    zone = drop_zone(w, player)
    if zone is None:
        return float("inf")
    return max(0.0, float(zone.distance(Point(o.x, o.y))) - w.place(o).radius)


def neutral_edges(w: Work) -> tuple[str, ...]:
    """The killzone edges along which no drop zone lies (module docstring), in
    :data:`EDGES` order."""
    kz = w.ctx.killzone
    taken = {kz.drop_zone_edge(z) for z in kz.drop_zones}
    return tuple(e for e in EDGES if e not in taken)


def edge_distance(w: Work, edge: str, x: float, y: float, radius: float) -> float:
    """The distance in inches from a disc of ``radius`` at ``(x, y)`` to the killzone edge
    ``edge`` (one of :data:`EDGES`).

    Raises:
        ValueError: an unknown edge name.
    """
    kz = w.ctx.killzone
    centre = {"west": x, "east": kz.width - x, "south": y, "north": kz.depth - y}.get(edge)
    if centre is None:
        raise ValueError(f"edge_distance: no killzone edge {edge!r} ({', '.join(EDGES)})")
    return centre - radius
