"""Crit op **Transmission** (``rules/KT24.md`` 8.3, Approved Ops 2025).

- *Initiate Transmission* (mission action, 1AP; not in the first turning point nor within
  control range of an enemy operative): an objective marker the active operative controls
  is transmitting until the start of the next turning point. A marker transmits for
  whoever controls it, not for the player who started it.
- *Scoring*, at the end of each turning point after the first: 1VP if your operatives
  control any transmitting marker, and 1VP more if they control more transmitting markers
  than the enemy's do; at most 2VP per turning point.

A marker that is already transmitting may be made to transmit again (the pack prints no such
condition): the action is legal and changes nothing (it would end at the same time), so it
is not offered (:class:`engine.missions.actions.MarkerAction`).

Facts: ``"Transmission:<marker>"`` = the turning point the marker is transmitting in
(removed at the start of the next turning point).
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import OperativeState, other
from engine.game.work import Work
from engine.missions.actions import MarkerAction
from engine.missions.markers import controlled_by, marker_names
from engine.missions.pack import OpSpec, crit_active, register
from engine.missions.scoring import CRIT, fact, initiative_first, score, set_fact

__all__ = ["INITIATE", "NAME", "TP_CAP", "transmitting"]

NAME = "Transmission"
TP_CAP = 2
"""The most VP Transmission gives a player in one turning point."""


def transmitting(w: Work) -> list[str]:
    """The objective markers transmitting now, in the layout's order."""
    return [m for m in marker_names(w) if fact(w, f"{NAME}:{m}") == w.tp]


def _initiate(w: Work, o: OperativeState, marker: str) -> None:
    set_fact(w, f"{NAME}:{marker}", w.tp)
    w.emit("transmission_initiated", player=o.player, op=o.id, marker=marker)


def _idle(w: Work, o: OperativeState, marker: str) -> str | None:
    if marker in transmitting(w):
        return f"objective marker {marker} is already transmitting (Transmission)"
    return None


INITIATE = MarkerAction(
    "Initiate Transmission", "initiate transmission", NAME, CRIT, _initiate, idle=_idle
)
"""The mission action: ``Act <operative> initiate transmission <marker>``."""


def _tp_started(w: Work, ev: Event) -> None:
    if not crit_active(w, NAME):
        return
    for m in marker_names(w):
        if fact(w, f"{NAME}:{m}") is not None:
            set_fact(w, f"{NAME}:{m}", None)


def _score(w: Work, ev: Event) -> None:
    if not crit_active(w, NAME) or w.tp < 2:
        return
    live = transmitting(w)
    for p in initiative_first(w):
        mine, theirs = len(controlled_by(w, p, live)), len(controlled_by(w, other(p), live))
        if mine:
            score(w, p, CRIT, 1, "Transmission: a transmitting objective marker", tp_cap=TP_CAP)
        if mine > theirs:
            score(w, p, CRIT, 1, "Transmission: more transmitting objective markers", tp_cap=TP_CAP)


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the Initiate Transmission action, the end of transmissions at the start of each
    turning point and the end-of-turning-point scoring."""
    hooks.action(INITIATE, players)
    hooks.on("turning_point_started", _tp_started)
    hooks.on("turning_point_ending", _score)


add_template(
    "transmission_initiated",
    lambda e: f"  {e['op']} makes objective marker {e['marker']} transmit",
)

SPEC = register(
    OpSpec(
        NAME,
        CRIT,
        install,
        summary="Make markers you control transmit for the turning point; score for "
        "controlling any transmitting marker and for controlling more.",
    )
)
