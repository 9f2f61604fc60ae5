"""Mission markers that operatives carry (``rules/KT24.md`` 3.2 Pick Up Marker and Place
Marker, 4.8 markers and control, 8.4 tac ops): the Retrieval and Intelligence markers of
the tac ops, kept as op facts.

A :class:`MissionMarker` belongs to a player and an op. It is either on the killzone (a
20 mm marker at ``x, y, elevation``) or carried by an operative (``carrier``; its position
is then the carrier's). The markers of an op live in the op fact ``"<op>:markers"`` (a tuple
sorted by owner and name), so they are public like every marker on the killzone.

- **Control** (4.8): operatives contest a marker on the killzone within their control range
  (as a 20 mm marker, like the equipment markers); the player whose contesting operatives
  have the greater total APL controls it; a carried marker is contested and controlled by
  its carrier alone.
- **Pick Up Marker** on a mission marker is the rule action :data:`PICK_UP` (notation
  ``Act KAS-1 pick up intelligence 1``), which counts as the universal Pick Up Marker
  (family ``"Pick up"``: once per activation, not with Place Marker). Only the owner's
  operatives may pick up its markers (what the ops print); the operative must control the
  marker, must not be within control range of an enemy operative, and must not already be
  carrying a marker, where the first carried marker of a kind that says so
  (:attr:`MissionMarker.first_free`, the Intelligence markers) is ignored.
- **Place Marker** on a carried mission marker is :data:`PLACE` (``Act KAS-1 place
  intelligence 1 at 8,4``; family ``"Place marker"``): within the carrier's control range.
- A carrier that is incapacitated puts its mission markers down where it stands (2.3).
- A carried mission marker also forbids the universal Pick Up Marker of an objective
  marker (the core's ``would_forbid_pick_up`` hook), the first free one excepted.

:func:`install` adds all this once per battle, however many ops use it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.geometry import Placement, sight
from engine.geometry.equipment import MARKER_DIAMETER_MM
from engine.missions.scoring import set_fact

__all__ = [
    "PICK_UP",
    "PLACE",
    "MissionMarker",
    "add_marker",
    "carried",
    "carrying_any",
    "contests",
    "controller",
    "drop_carried",
    "install",
    "markers_of",
    "mission_markers",
    "operative_controls",
    "pick_up_problem",
]

MARKER_HEIGHT = 0.05
"""How tall a mission marker is, for sight to a marker above the floor (inches)."""

_EPS = 1e-6


@attrs.frozen(slots=True)
class MissionMarker:
    """One mission marker (module docstring).

    Attributes:
        name: its notation name, unique among its owner's markers of its op
            (``"intelligence 1"``).
        op: the op it belongs to (``"Steal Intelligence"``).
        owner: the player whose marker it is (``"A"``/``"B"``).
        x, y, elevation: where it lies (inches); the carrier's position while carried.
        carrier: the operative carrying it, or ``""``.
        first_free: the first marker of this op an operative carries is ignored for the
            conditions of Pick Up Marker (Steal Intelligence).
    """

    name: str
    op: str
    owner: str
    x: float
    y: float
    elevation: float = 0.0
    carrier: str = ""
    first_free: bool = False


def _key(op: str) -> str:
    return f"{op}:markers"


def markers_of(w: Work, op: str, owner: str | None = None) -> list[MissionMarker]:
    """The mission markers of ``op`` (of ``owner`` if given), by owner then name."""
    found: tuple[MissionMarker, ...] = w.mission.fact(_key(op), ())
    return [m for m in found if owner is None or m.owner == owner]


def mission_markers(w: Work) -> Iterator[MissionMarker]:
    """Every mission marker of the battle, op by op (facts in key order)."""
    for _, value in w.mission.facts:
        if isinstance(value, tuple) and value and isinstance(value[0], MissionMarker):
            yield from value


def _store(w: Work, op: str, found: list[MissionMarker]) -> None:
    set_fact(w, _key(op), tuple(sorted(found, key=lambda m: (m.owner, m.name))) or None)


def _replace(w: Work, old: MissionMarker, new: MissionMarker) -> None:
    _store(w, old.op, [new if m == old else m for m in markers_of(w, old.op)])


def add_marker(
    w: Work,
    op: str,
    owner: str,
    kind: str,
    at: tuple[float, float, float],
    *,
    carrier: str = "",
    first_free: bool = False,
) -> MissionMarker:
    """Put a new mission marker of ``op`` owned by ``owner`` on the killzone at ``at``
    (``x, y, elevation`` in inches), or into the hands of ``carrier``. Its name is ``kind``
    and its number among the owner's markers of that op (``"intelligence 2"``). Emits
    ``mission_marker_placed`` (``player``, ``marker``, ``op``, ``carrier``, ``x``, ``y``).

    Returns:
        The new marker.
    """
    mine = markers_of(w, op, owner)
    x, y, z = at
    m = MissionMarker(f"{kind} {len(mine) + 1}", op, owner, x, y, z, carrier, first_free)
    _store(w, op, [*markers_of(w, op), m])
    w.emit("mission_marker_placed", player=owner, marker=m.name, op=op, carrier=carrier, x=x, y=y)
    return m


def carried(w: Work, op_id: str) -> list[MissionMarker]:
    """The mission markers operative ``op_id`` carries."""
    return [m for m in mission_markers(w) if m.carrier == op_id]


def carrying_any(w: Work, o: OperativeState) -> bool:
    """Whether ``o`` carries any marker: an objective marker or a mission marker."""
    return bool(o.carrying) or any(m.carrier == o.id for m in mission_markers(w))


def _counted(w: Work, o: OperativeState) -> int:
    """Markers ``o`` carries as the conditions of Pick Up Marker count them: the first
    carried marker of each op whose markers are ``first_free`` is ignored."""
    mine = carried(w, o.id)
    free = {m.op for m in mine if m.first_free}
    return int(bool(o.carrying)) + len(mine) - len(free)


def _placement(m: MissionMarker) -> Placement:
    return Placement(
        m.x, m.y, base_mm=MARKER_DIAMETER_MM, elevation=m.elevation, model_height=MARKER_HEIGHT
    )


def contests(w: Work, o: OperativeState, m: MissionMarker) -> bool:
    """``o`` contests ``m`` (4.8): it carries it, or ``m`` lies on the killzone within
    ``o``'s control range (a 20 mm marker: within 1" and visible; one above the floor as a
    thin disc on its level)."""
    if m.carrier:
        return m.carrier == o.id
    if not o.alive:
        return False
    p = w.place(o)
    reach = p.radius + MARKER_DIAMETER_MM / 25.4 / 2 + sight.CONTROL_RANGE + 2 * _EPS
    if abs(p.x - m.x) > reach or abs(p.y - m.y) > reach:
        return False
    kz = w.kz
    if not m.elevation:
        return sight.marker_in_control_range(kz, p, (m.x, m.y), MARKER_DIAMETER_MM)
    disc = _placement(m)
    if sight.distance(p, disc) > sight.CONTROL_RANGE + _EPS:
        return False
    return sight.visible(kz, p, disc) and (
        sight.distance_around_walls(kz, p, disc) <= sight.CONTROL_RANGE + _EPS
    )


def controller(w: Work, m: MissionMarker) -> str:
    """The player controlling ``m`` (4.8): its carrier's, else the greater total APL of the
    operatives contesting it; ``""`` on a tie or when nobody contests it."""
    if m.carrier:
        return w.ctx.owner[m.carrier]
    total = {"A": 0, "B": 0}
    for o in w.alive():
        if contests(w, o, m):
            total[o.player] += w.apl(o)
    if total["A"] == total["B"]:
        return ""
    return "A" if total["A"] > total["B"] else "B"


def operative_controls(w: Work, o: OperativeState, m: MissionMarker) -> bool:
    """``o`` controls ``m``: it contests it and its player controls it (4.8)."""
    return contests(w, o, m) and controller(w, m) == o.player


def pick_up_problem(w: Work, o: OperativeState, m: MissionMarker) -> str | None:
    """Why ``o`` cannot pick up ``m`` now (module docstring; 3.2), or ``None``."""
    if m.owner != o.player:
        return f"only player {m.owner}'s operatives can pick up {m.name} ({m.op})"
    if m.carrier:
        return f"{m.name} is carried by {m.carrier}"
    if w.in_enemy_control_range(o):
        return "Pick Up Marker cannot be performed within control range of an enemy operative (3.2)"
    if _counted(w, o):
        return f"{o.id} already carries a marker (3.2)"
    if not operative_controls(w, o, m):
        return f"{o.id} must control {m.name} to pick it up (3.2, 4.8)"
    return None


def _named(w: Work, o: OperativeState, text: str) -> MissionMarker | None:
    """The mission marker called ``text`` that ``o``'s player owns (``None`` if none)."""
    return next((m for m in mission_markers(w) if m.owner == o.player and m.name == text), None)


@attrs.frozen(slots=True)
class PickUpMissionMarker:
    """Pick Up Marker on a mission marker (module docstring): ``Act KAS-1 pick up <name>``."""

    name: str = "Pick Up Marker"
    text: str = "pick up"
    ap: int = 1
    family: str = "Pick up"

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """One action per mission marker of ``o``'s player that ``o`` may pick up now."""
        return [
            Action("Act", op=o.id, text=f"{self.text} {m.name}")
            for m in mission_markers(w)
            if m.owner == o.player and not m.carrier and pick_up_problem(w, o, m) is None
        ]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` is not allowed now (naming the rule), or ``None``."""
        if a.target or a.point is not None:
            return f"{self.name} names a mission marker: 'Act {o.id} pick up <marker>'"
        m = _named(w, o, a.text[len(self.text) :].strip())
        if m is None:
            names = ", ".join(x.name for x in mission_markers(w) if x.owner == o.player)
            return f"{o.id} has no mission marker of its own called that ({names or 'none'})"
        return pick_up_problem(w, o, m)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """``o`` now carries the marker."""
        m = _named(w, o, a.text[len(self.text) :].strip())
        assert m is not None  # checked
        _replace(w, m, attrs.evolve(m, carrier=o.id, x=o.x, y=o.y, elevation=o.elevation))
        w.emit("marker_picked_up", op=o.id, marker=m.name, mission_op=m.op)


@attrs.frozen(slots=True)
class PlaceMissionMarker:
    """Place Marker with a carried mission marker (module docstring):
    ``Act KAS-1 place <name> at x,y``."""

    name: str = "Place Marker"
    text: str = "place"
    ap: int = 1
    family: str = "Place marker"

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """Placing each carried mission marker where ``o`` stands."""
        return [
            Action("Act", op=o.id, text=f"{self.text} {m.name}", point=(o.x, o.y, 0.0))
            for m in carried(w, o.id)
        ]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` is not allowed now (naming the rule), or ``None``."""
        if a.point is None or a.target:
            return f"{self.name} needs a point: 'Act {o.id} place <marker> at x,y'"
        text = a.text[len(self.text) :].strip()
        m = next((m for m in carried(w, o.id) if m.name == text), None)
        if m is None:
            names = ", ".join(x.name for x in carried(w, o.id))
            return f"{o.id} carries no mission marker called {text!r} ({names or 'none'}) (3.2)"
        x, y, _ = a.point
        if not sight.marker_in_control_range(w.kz, w.place(o), (x, y), MARKER_DIAMETER_MM):
            return f"the marker must be placed within {o.id}'s control range (3.2)"
        return None

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Put the marker down at the point (on the killzone floor)."""
        text = a.text[len(self.text) :].strip()
        m = next(m for m in carried(w, o.id) if m.name == text)
        assert a.point is not None
        x, y, _ = a.point
        _replace(w, m, attrs.evolve(m, carrier="", x=x, y=y, elevation=0.0))
        w.emit("marker_placed", op=o.id, marker=m.name, x=x, y=y, mission_op=m.op)


PICK_UP = PickUpMissionMarker()
"""The Pick Up Marker action on mission markers."""

PLACE = PlaceMissionMarker()
"""The Place Marker action with a carried mission marker."""


def drop_carried(w: Work, op_id: str) -> None:
    """Put down every mission marker ``op_id`` carries where it stands (2.3)."""
    o = w.op(op_id)
    for m in carried(w, op_id):
        _replace(w, m, attrs.evolve(m, carrier="", x=o.x, y=o.y, elevation=o.elevation))
        w.emit("marker_placed", op=op_id, marker=m.name, x=o.x, y=o.y, mission_op=m.op)


def _on_incapacitated(w: Work, ev: Event) -> None:
    if w.mission.facts and any(m.carrier == ev["op"] for m in mission_markers(w)):
        drop_carried(w, ev["op"])


def _forbid_pick_up(w: Work, why: str | None, **info: Any) -> str | None:
    """The core's Pick Up Marker on an objective marker: a carried mission marker (the
    first free one aside) forbids it (3.2)."""
    if why is not None or not w.mission.facts:
        return why
    o: OperativeState = info["op"]
    if _counted(w, o) > 0:
        return f"{o.id} already carries a marker (3.2)"
    return None


def install(hooks: Hooks) -> None:
    """Add the Pick Up and Place Marker actions on mission markers for both players, the
    drop of a casualty's markers and the core's Pick Up check; once per battle (a second
    call does nothing)."""
    if any(act is PICK_UP for act, _ in hooks.actions):
        return
    hooks.action(PICK_UP, ("A", "B"))
    hooks.action(PLACE, ("A", "B"))
    hooks.on("operative_incapacitated", _on_incapacitated)
    hooks.transform("would_forbid_pick_up", _forbid_pick_up)
