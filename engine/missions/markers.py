"""The objective markers as the ops see them (``rules/KT24.md`` 4.8, 8.3): each player's
marker and the centre one, who contests and who controls a marker.

Approved Ops 2025 uses three objective markers: one in each player's half and one in the
centre. A layout names them after the drop zones (``"A"``, ``"B"``) and ``"centre"``; a
player's objective marker is the one named after the drop zone that player took. Control
follows 4.8 (:func:`engine.game.universal.controller`): the player whose contesting
operatives have the greater total APL; a carried marker is controlled by its carrier's
player.
"""

from __future__ import annotations

from engine.game import universal
from engine.game.state import OperativeState, other
from engine.game.work import Work

__all__ = [
    "CENTRE",
    "contested_by",
    "contested_markers",
    "controlled_by",
    "controller",
    "marker_names",
    "operative_controls",
    "opponent_marker",
    "player_marker",
]

CENTRE = "centre"
"""The name of the centre objective marker."""


def marker_names(w: Work) -> list[str]:
    """The objective markers' names, in the layout's order."""
    return [m.name for m in w.markers]


def player_marker(w: Work, player: str) -> str:
    """The name of ``player``'s objective marker: the one named after the drop zone the
    player took (``""`` before drop zones are chosen or when the layout has none)."""
    zone = w.pl(player).drop_zone
    return zone if zone and zone in marker_names(w) else ""


def controller(w: Work, marker: str, rule: str = "") -> str:
    """The player controlling ``marker`` (``""`` when neither does, 4.8); ``rule`` the rule
    determining it (:func:`engine.game.universal.controller`)."""
    return universal.controller(w, marker, rule)


def controlled_by(w: Work, player: str, markers: list[str] | None = None) -> list[str]:
    """The markers (of ``markers``, default all) that ``player``'s operatives control."""
    names = marker_names(w) if markers is None else markers
    return [m for m in names if controller(w, m) == player]


def contested_by(w: Work, player: str, marker: str) -> bool:
    """Whether an operative of ``player`` contests ``marker`` (4.8)."""
    return any(universal.contests(w, o, marker) for o in w.alive(player))


def contested_markers(w: Work, o: OperativeState) -> list[str]:
    """The objective markers ``o`` contests, in the layout's order (4.8)."""
    return [m for m in marker_names(w) if universal.contests(w, o, m)]


def operative_controls(w: Work, o: OperativeState, marker: str) -> bool:
    """Whether ``o`` controls ``marker``: it contests it and its player controls it (4.8)."""
    return universal.contests(w, o, marker) and controller(w, marker) == o.player


def opponent_marker(w: Work, player: str) -> str:
    """The name of ``player``'s opponent's objective marker."""
    return player_marker(w, other(player))
