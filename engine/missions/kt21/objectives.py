"""The objective markers of a KT21 battle (``rules/KT21.md`` 1.2 step 2, 15.1, 15.2;
decision 7): the project's six-marker map, set up at the very start of the battle.

KT21 matched play puts **six** objective markers on the killzone (15.2, from [GH] and [SIM]);
the map cards that place them are not sourced (18.13), so the project draws its own map on the
30" x 22" killzone, point-symmetric through the centre (every marker has its mirror image
through (15, 11)) and mirror-symmetric across both centre lines:

- ``a-home`` (8, 11): drop zone A's side, on the long centre line;
- ``a-flank`` (11.5, 5.5): drop zone A's half, towards the y = 0 edge;
- ``mid-south`` (15, 7.5) and ``mid-north`` (15, 14.5): the short centre line, 3.5" either
  side of the centre;
- ``b-flank`` (18.5, 16.5): drop zone B's half, towards the y = 22 edge;
- ``b-home`` (22, 11): drop zone B's side, on the long centre line.

Every marker lies outside both drop zones of the shipped killzones (A at x < 6, B at x > 24)
and at least 1" from every terrain part of ``open_ruins`` and ``close_quarters``, so bases
can reach it. A killzone of another size gets the map scaled to its width and depth. A
killzone whose own layout holds exactly six objective markers is a KT21 map: its markers are
used as they are. The KT24 layouts keep their three markers; only a KT21 battle's state
plays on the layout with the six (:func:`battle_killzone`, the ruleset's ``layout``; the
killzone data is not changed). Lite open play (1.4) has no mission, hence
no objective marker.
"""

from __future__ import annotations

import math

from engine.game.context import GameOptions
from engine.game.state import MarkerState, OperativeState
from engine.game.work import Work
from engine.geometry import Killzone, KillzoneError
from engine.geometry.primitives import Objective

__all__ = [
    "BOARD",
    "MAP",
    "MAP_NAME",
    "battle_killzone",
    "distance_to_centre",
    "mission_markers",
    "set_up_markers",
]

MAP_NAME = "KT21 project map"
"""The name of the project's six-marker map (``objective_markers_set_up`` events)."""

BOARD = (30.0, 22.0)
"""The killzone size (width, depth, inches) the map's positions are written for."""

MAP: tuple[tuple[str, float, float], ...] = (
    ("a-home", 8.0, 11.0),
    ("a-flank", 11.5, 5.5),
    ("mid-south", 15.0, 7.5),
    ("mid-north", 15.0, 14.5),
    ("b-flank", 18.5, 16.5),
    ("b-home", 22.0, 11.0),
)
"""The project's six objective markers, ``(name, x, y)`` in inches on a :data:`BOARD`
killzone (module docstring)."""

KT21_MARKERS = 6
"""How many objective markers a KT21 mission sets up (15.2)."""


def mission_markers(width: float, depth: float, pickup: bool = False) -> tuple[MarkerState, ...]:
    """The project's six objective markers (:data:`MAP`) on a killzone ``width`` x ``depth``
    inches: the positions scaled from :data:`BOARD`.

    Args:
        width, depth: the killzone's size in inches (positive).
        pickup: whether the markers can be picked up (the game option
            ``objectives_pickup``).

    Raises:
        ValueError: a width or depth that is not positive.
    """
    if not (width > 0 and depth > 0):
        raise ValueError(
            f"mission_markers: the killzone size must be positive, not {width} x {depth}"
        )
    sx, sy = width / BOARD[0], depth / BOARD[1]
    return tuple(MarkerState(n, x * sx, y * sy, pickup=pickup) for n, x, y in MAP)


def battle_killzone(killzone: Killzone, options: GameOptions) -> Killzone:
    """The killzone a KT21 battle of ``options`` is played on (1.2 step 2): ``killzone`` with
    the mission's objective markers (module docstring: its own when it has six, else the
    project's map scaled to it; none for Lite open play). Every query on the battle (control,
    movement towards markers, pictures, records, observations) then sees those markers."""
    if options.mission == "lite":
        return killzone.with_objectives(())
    if len(killzone.objectives) == KT21_MARKERS:
        return killzone
    sx, sy = killzone.width / BOARD[0], killzone.depth / BOARD[1]
    markers = [_placeable(killzone, Objective(n, (x * sx, y * sy))) for n, x, y in MAP]
    return killzone.with_objectives(markers)


def _placeable(killzone: Killzone, marker: Objective) -> Objective:
    """``marker``, or where it would be moved on this layout when its spot is off the board or
    in Heavy terrain: the nearest spot on rings every 0.25" out to 6" (12 directions each,
    from the east anticlockwise), so any layout gets its six markers (1.2 step 2 sets the
    markers up where the map shows; the project's map may meet terrain a map card would
    have avoided).

    Raises:
        KillzoneError: no such spot within 6"."""
    if killzone.objective_problem(marker) is None:
        return marker
    x, y = marker.position
    for step in range(1, 25):
        r = step * 0.25
        for k in range(12):
            a = k * math.pi / 6
            moved = Objective(
                marker.name, (round(x + r * math.cos(a), 3), round(y + r * math.sin(a), 3))
            )
            if killzone.objective_problem(moved) is None:
                return moved
    raise KillzoneError(
        f'{killzone.source}: no room for the KT21 objective marker {marker.name!r} within 6" '
        f"of ({x:g}, {y:g}) (rules/KT21.md 1.2 step 2)"
    )


def set_up_markers(w: Work) -> None:
    """The start step of a KT21 mission (1.2 step 2): announce the objective markers the
    battle's killzone holds (:func:`battle_killzone`) with ``objective_markers_set_up``.
    Returns ``None`` (no frame: nothing is asked)."""
    kz = w.kz
    if w.ctx.options.mission == "lite":
        name = "none (Lite open play has no mission)"
    elif tuple(n for n, _x, _y in MAP) == tuple(o.name for o in kz.objectives):
        name = MAP_NAME
    else:
        name = f"killzone {kz.name}"
    w.emit(
        "objective_markers_set_up",
        map=name,
        markers=tuple((m.name, round(m.x, 3), round(m.y, 3)) for m in w.markers),
    )


def distance_to_centre(w: Work, o: OperativeState, marker: str) -> float:
    """The distance in inches from operative ``o`` to the centre of the objective marker
    ``marker`` (15.1: measured to the centre): from the closest point of its base, in three
    dimensions (a marker lies on the killzone floor; 18.9: operative distances in 3D); 0 for
    the marker's carrier.

    Raises:
        KeyError: there is no marker ``marker``.
    """
    m = next((m for m in w.markers if m.name == marker), None)
    if m is None:
        raise KeyError(f"there is no objective marker {marker!r}")
    if m.carrier == o.id:
        return 0.0
    p = w.place(o)
    flat = max(0.0, math.hypot(p.x - m.x, p.y - m.y) - p.radius)
    return math.hypot(flat, p.elevation)
