"""KT21 markers and the marker actions (``rules/KT21.md`` 15.1, 6.1; decision 6; DC 16.34):
control within 2" of a marker's centre, Pick Up, the free drop, and Pass.

- **Control** (15.1, decision 6): an operative contests a marker when its base is within 2"
  of the marker's centre (3D from a raised operative, as other distances; no visibility is
  asked); the player whose contesting operatives have the greater total APL controls it, a
  carrier always controls what it carries (:mod:`engine.game.markers`, with the test
  :func:`within_control_distance` this module gives the battle: :func:`install`).
- **Pick Up** (1AP): a marker that can be picked up, its centre within 1" of the operative's
  base, controlled by the operative's player; not within an enemy's Engagement Range (the
  shared check); not while carrying one. The operative carries it.
- **Drop marker** (free, 0AP): during its activation, the carrier puts the marker down with
  its centre within 1" of and Visible to it (listed at its own position). The core puts a
  carried marker down where its carrier was when it is removed (its "drop before removal").
- **Pass** (0AP): no effect; the engine reads "spends AP the player does not want to use" as
  spending all the AP left, so it is listed while the operative has AP (it may be chosen
  again whenever it has AP, which is never after it), never looping.

- **Losing Pick Up** (DC 16.34): an operative under an effect of kind :data:`NO_PICK_UP` (what
  a rule that takes the Pick Up action away from an operative gives it) cannot Pick Up, and
  when it carries a marker it must drop it: the marker is put down at the carrier's position
  (the same place the core uses for the drop before removal) as soon as the effect is in
  force: when the effect begins outside an action, else when the carrier's activation starts
  or ends (an effect begun during an action applies once it is complete, DC 16.8; the
  activation's end is the first check point after it). No KT21 team rule in the engine gives
  the effect yet: scenario positions can (``kind = "no_pick_up"``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from engine.game.actions import Action, IllegalActionError
from engine.game.bookkeeping import Listing, UniversalAction, declare, precheck, spend
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.markers import (
    _marker,
    controller,
    counted_carried,
    place_marker,
    start_carrying,
)
from engine.game.state import OperativeState
from engine.game.universal.marker_actions import PickUpAction
from engine.game.work import Work
from engine.geometry import Killzone, Placement, sight

__all__ = [
    "CONTROL_DISTANCE",
    "DROP_MARKER",
    "MARKER_ACTIONS",
    "NO_PICK_UP",
    "PASS",
    "PICK_UP",
    "PICK_UP_DISTANCE",
    "DropMarkerAction",
    "Kt21PickUpAction",
    "PassAction",
    "drop_if_barred",
    "install",
    "within_control_distance",
]

CONTROL_DISTANCE = 2.0
"""An operative contests a marker within ● (2") of its centre (15.1, decision 6)."""
PICK_UP_DISTANCE = 1.0
"""Pick Up and drop: within ▲ (1") of the marker's centre (15.1, decision 6)."""
NO_PICK_UP = "no_pick_up"
"""The effect kind of a rule that takes the Pick Up action away from an operative (16.34)."""
_EPS = 1e-6


def _gap_to_centre(p: Placement, centre: tuple[float, float]) -> float:
    """Distance from ``p``'s base to a point on the floor (inches; 3D from a raised base)."""
    flat = max(0.0, math.hypot(p.x - centre[0], p.y - centre[1]) - p.radius)
    return math.hypot(flat, p.elevation)


def within_control_distance(
    kz: Killzone, p: Placement, centre: tuple[float, float], diameter_mm: float
) -> bool:
    """KT21's test of an operative contesting a marker (15.1, decision 6): its base within 2"
    of the marker's centre (the marker's size and visibility do not matter). The
    ``marker_contest`` test of :func:`engine.game.markers.contest_test`."""
    del kz, diameter_mm
    return _gap_to_centre(p, centre) <= CONTROL_DISTANCE + _EPS


def _kt21_contest(_w: Work, _test: object) -> object:
    return within_control_distance


def drop_if_barred(w: Work, op_id: str) -> None:
    """DC 16.34: when the operative ``op_id`` (alive and placed) cannot Pick Up (an effect of
    kind :data:`NO_PICK_UP` in force on it) and carries markers, it drops each of them at its
    position (emits ``marker_placed``). Does nothing otherwise."""
    o = w.op(op_id)
    if not o.carrying or not o.alive or not o.placed or not w.effects_on(op_id, NO_PICK_UP):
        return
    for name in o.carrying:
        place_marker(w, w.op(op_id), o.x, o.y, name)


def _check_carrier(w: Work, event: Event) -> None:
    """The did hook of DC 16.34 (:func:`drop_if_barred`) on the events naming an operative."""
    op_id = event.get("op")
    if op_id and op_id in w.ctx.owner:
        drop_if_barred(w, str(op_id))


def install(hooks: Hooks) -> None:
    """Give the battle KT21's marker control (15.1): the ``marker_contest`` would hook; and
    DC 16.34's drop by a carrier that can no longer Pick Up (module docstring): did hooks on
    ``effect_began``, ``activated`` and ``activation_ended`` (events every battle emits)."""
    hooks.transform("marker_contest", _kt21_contest)
    hooks.on("effect_began", _check_carrier)
    hooks.on("activated", _check_carrier)
    hooks.on("activation_ended", _check_carrier)


def _pick_up_problem(w: Work, o: OperativeState, name: str) -> str | None:
    """Why ``o`` cannot Pick Up the objective marker ``name`` (15.1), or ``None``."""
    m = next(m for m in w.markers if m.name == name)
    if not m.pickup or not w.ctx.options.objectives_pickup:
        return f"marker {name} cannot be picked up in this mission (rules/KT21.md 15.1)"
    if m.carrier:
        return f"marker {name} is carried by {m.carrier}"
    if counted_carried(w, o):
        return f"{o.id} already carries a marker (rules/KT21.md 15.1)"
    if w.effects_on(o.id, NO_PICK_UP):
        return f"{o.id} cannot perform the Pick Up action now (rules/KT21.md 15.1, 16.34)"
    if _gap_to_centre(w.place(o), (m.x, m.y)) > PICK_UP_DISTANCE + _EPS:
        return f'{o.id} must be within 1" of the centre of marker {name} (rules/KT21.md 15.1)'
    if controller(w, name) != o.player:
        return f"{o.id}'s player must control marker {name} to pick it up (rules/KT21.md 15.1)"
    return None


class Kt21PickUpAction(PickUpAction):
    """Pick Up (1AP, 15.1; module docstring) of an objective marker: ``Pick up KAS-1 <name>``."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        if self.verb in at.ruled_out or precheck(w, o, self.verb, mode, at.in_cr) is not None:
            return
        for m in w.markers:
            if _pick_up_problem(w, o, m.name) is None:
                yield Action("Pick up", op=o.id, text=m.name.lower())

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        name = _marker(w, a.text)
        why = _pick_up_problem(w, o, name)
        if why is not None:
            raise IllegalActionError(why)
        spend(w, o, "Pick up", mode, target=name)
        start_carrying(w, o.id, name)
        w.emit("marker_picked_up", op=o.id, marker=name)


class DropMarkerAction(UniversalAction):
    """The free drop (0AP, 15.1): ``Drop marker KAS-1 at x,y`` (``Drop marker KAS-1 <name>
    at x,y`` for one of several), the centre within 1" of and Visible to the carrier."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        if not o.carrying or mode != "activation":
            return
        if precheck(w, o, self.verb, mode, at.in_cr) is not None:
            return
        here = (o.x, o.y, 0.0)
        if len(o.carrying) == 1:
            yield Action(self.verb, op=o.id, point=here)
        else:
            for name in o.carrying:
                yield Action(self.verb, op=o.id, text=name.lower(), point=here)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        if a.point is None:
            raise IllegalActionError(
                f"Drop marker {o.id} needs a point: 'at x,y' (rules/KT21.md 15.1)"
            )
        if mode != "activation":
            raise IllegalActionError(
                "a marker is dropped during its carrier's activation (rules/KT21.md 15.1)"
            )
        if not o.carrying:
            raise IllegalActionError(f"{o.id} carries no marker (rules/KT21.md 15.1)")
        wanted = " ".join(a.text.lower().split())
        if wanted:
            name = next((n for n in o.carrying if n.lower() == wanted), "")
            if not name:
                raise IllegalActionError(
                    f"{o.id} carries no marker {a.text!r} (rules/KT21.md 15.1)"
                )
        elif len(o.carrying) > 1:
            raise IllegalActionError(f"{o.id} carries several markers: name the one to drop")
        else:
            name = o.carrying[0]
        x, y = a.point[0], a.point[1]
        me = w.place(o)
        if _gap_to_centre(me, (x, y)) > PICK_UP_DISTANCE + _EPS or not sight.visible(
            w.kz, me, Placement(x, y, 0.5, 0.0, 0.01)
        ):
            raise IllegalActionError(
                f"the marker's centre must be within 1\" of and Visible to {o.id} "
                "(rules/KT21.md 15.1)"
            )
        spend(w, o, self.verb, mode)
        place_marker(w, o, x, y, name)


class PassAction(UniversalAction):
    """Pass (0AP, 6.1; module docstring): ``Pass`` spends the active operative's AP left."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        if mode == "activation" and o.ap > 0:
            yield Action(self.verb)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        if mode != "activation" or o.ap <= 0:
            raise IllegalActionError(f"{o.id} has no AP to Pass with (rules/KT21.md 6.1)")
        w.set_op(o.id, ap=0)


PICK_UP = Kt21PickUpAction("Pick up", 1, excludes=("Place marker",))
"""Pick Up (1AP; the verb, cost and exclusions are KT24's, declared there)."""
DROP_MARKER = declare(DropMarkerAction("Drop marker", 0))
"""The free drop of a carried marker (0AP, 15.1)."""
PASS = declare(PassAction("Pass", 0))
"""Pass (0AP, 6.1)."""

MARKER_ACTIONS: tuple[UniversalAction, ...] = (PICK_UP, DROP_MARKER, PASS)
"""The KT21 marker actions (and Pass) in listing order."""
