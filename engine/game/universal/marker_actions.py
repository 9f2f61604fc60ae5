"""The Pick Up Marker and Place Marker actions (``rules/KT24.md`` 3.2, 4.8); control and
carrying are in :mod:`engine.game.markers`."""

from __future__ import annotations

from collections.abc import Iterator

from engine.game.actions import (
    Action,
    IllegalActionError,
)
from engine.game.bookkeeping import (
    Listing,
    UniversalAction,
    added_ap_problem,
    declare,
    precheck,
    spend,
)
from engine.game.markers import (
    _marker,
    contests,
    controller,
    counted_carried,
    marker_token,
    place_marker,
    rule_markers,
    start_carrying,
)
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.geometry import Objective, sight
from engine.geometry.model import MARKER_DIAMETER_MM

__all__ = [
    "PICK_UP",
    "PLACE_MARKER",
    "PickUpAction",
    "PlaceMarkerAction",
]


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


def _carry_problem(w: Work, o: OperativeState) -> str | None:
    """Why ``o`` cannot pick up one more marker (3.2), or ``None``."""
    if counted_carried(w, o):
        return f"{o.id} already carries a marker (3.2)"
    return None


def _can_pick_up(w: Work, o: OperativeState, name: str) -> str | None:
    """Why ``o`` cannot pick up the objective marker ``name`` (3.2), or ``None``. Whether
    markers can be picked up at all comes from the marker's flag and the game option
    ``objectives_pickup``, then the ``would_allow_pick_up`` hooks (``op``, ``marker``), which
    receive that reason (or ``None``) and return it, or ``None`` to allow it, or another
    reason (the crit op Energy Cells, 8.3)."""
    name = _marker(w, name)
    m = next(m for m in w.markers if m.name == name)
    why: str | None = None
    if not m.pickup or not w.ctx.options.objectives_pickup:
        why = f"marker {name} cannot be picked up in this mission (3.2 Pick Up Marker)"
    if "would_allow_pick_up" in w.ctx.hooks.would:
        why = w.would("would_allow_pick_up", why, op=o, marker=name)
    if why is not None:
        return why
    if m.carrier:
        return f"marker {name} is carried by {m.carrier}"
    why = _carry_problem(w, o)
    if why is not None:
        return why
    if not contests(w, o, name) or controller(w, name) != o.player:
        return f"{o.id} must control marker {name} to pick it up (3.2, 4.8)"
    return None


def _rule_marker(w: Work, o: OperativeState, text: str) -> tuple[str, str | None] | None:
    """The ``(name, why)`` pair of :func:`rule_markers` whose name is ``text`` (any case)."""
    wanted = " ".join(text.lower().split())
    return next((p for p in rule_markers(w, o) if p[0].lower() == wanted), None)


def _rule_marker_problem(w: Work, o: OperativeState, name: str, why: str | None) -> str | None:
    """Why ``o`` cannot pick up the rule module's marker ``name`` (its module's ``why``
    first, then 3.2), or ``None``."""
    if why is not None:
        return why
    t = marker_token(w, name)
    if t is None:
        return f"there is no marker {name!r} on the killzone (3.2)"
    if t.carrier:
        return f"marker {name} is carried by {t.carrier}"
    return _carry_problem(w, o)


def _pick_up(w: Work, o: OperativeState, a: Action, mode: str) -> None:
    """Pick Up Marker (3.2) on an objective marker or a rule module's marker."""
    found = _rule_marker(w, o, a.text)
    if found is not None:
        name = found[0]
        why = _rule_marker_problem(w, o, name, found[1])
    else:
        name = _marker(w, a.text)
        why = _can_pick_up(w, o, name)
    why = why or added_ap_problem(w, o, "Pick up", mode, name)
    if why:
        raise _illegal(why)
    spend(w, o, "Pick up", mode, target=name)
    start_carrying(w, o.id, name)
    w.emit("marker_picked_up", op=o.id, marker=name)


def _placed_marker(w: Work, o: OperativeState, text: str) -> str:
    """The carried marker a Place Marker names (``text``; ``""``: the only one ``o``
    carries)."""
    if not o.carrying:
        raise _illegal(f"{o.id} carries no marker (3.2 Place Marker)")
    wanted = " ".join(text.lower().split())
    if not wanted:
        if len(o.carrying) > 1:
            names = ", ".join(n.lower() for n in o.carrying)
            raise _illegal(
                f"{o.id} carries {names}: name the marker to place "
                f"('Place marker {o.id} <marker> at x,y', 3.2)"
            )
        return o.carrying[0]
    name = next((n for n in o.carrying if n.lower() == wanted), None)
    if name is None:
        names = ", ".join(n.lower() for n in o.carrying)
        raise _illegal(f"{o.id} carries no marker {text!r} (it carries {names}; 3.2)")
    return name


def _check_marker_spot(
    w: Work, o: OperativeState, name: str, point: tuple[float, float, float]
) -> None:
    x, y, _ = point
    if any(m.name == name for m in w.markers):
        within = sight.objective_in_control_range(w.kz, w.place(o), Objective(name, (x, y)))
    else:  # a marker of a rule module (rule_markers): 20 mm (4.8)
        within = sight.marker_in_control_range(w.kz, w.place(o), (x, y), MARKER_DIAMETER_MM)
    if not within:
        raise _illegal(f"the marker must be placed within {o.id}'s control range (3.2)")


class PickUpAction(UniversalAction):
    """Pick Up Marker (3.2): an objective marker it controls, or a marker a rule module
    offers (:func:`engine.game.markers.rule_markers`)."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        if self.verb in at.ruled_out or precheck(w, o, self.verb, mode, at.in_cr) is not None:
            return
        for m in w.markers:
            if (
                _can_pick_up(w, o, m.name) is None
                and added_ap_problem(w, o, "Pick up", mode, m.name) is None
            ):
                yield Action("Pick up", op=o.id, text=m.name.lower())  # notation: lower case
        if _carry_problem(w, o) is None:
            for name, why in rule_markers(w, o):
                if (
                    _rule_marker_problem(w, o, name, why) is None
                    and added_ap_problem(w, o, "Pick up", mode, name) is None
                ):
                    yield Action("Pick up", op=o.id, text=name.lower())

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        _pick_up(w, o, a, mode)


class PlaceMarkerAction(UniversalAction):
    """Place Marker (3.2): a marker it carries, within its control range; an operative
    carrying several names the one it places."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        if not o.carrying or precheck(w, o, self.verb, mode, at.in_cr) is not None:
            return
        here = (o.x, o.y, 0.0)
        if len(o.carrying) == 1:
            yield Action("Place marker", op=o.id, point=here)
        else:  # several: the notation names the marker
            for name in o.carrying:
                yield Action("Place marker", op=o.id, text=name.lower(), point=here)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        assert a.point is not None
        name = _placed_marker(w, o, a.text)
        _check_marker_spot(w, o, name, a.point)
        spend(w, o, self.verb, mode)
        place_marker(w, o, a.point[0], a.point[1], name)


PICK_UP = declare(PickUpAction("Pick up", 1, excludes=("Place marker",)))
PLACE_MARKER = declare(PlaceMarkerAction("Place marker", 1, excludes=("Pick up",)))
