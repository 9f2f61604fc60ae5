"""Crit op **Data** (``rules/KT24.md`` 8.3, Approved Ops 2025).

- *Compile Data* (mission action, 1AP; not in the first turning point nor within control
  range of an enemy operative): an objective marker the active operative controls gains a
  Data point. A marker gains at most one Data point per turning point (whichever kill team
  compiles it). Data points belong to the marker, not to a kill team.
- *Send Data* (mission action, 1AP; fourth turning point only, not within control range of
  an enemy operative): every Data point is removed from an objective marker the active
  operative controls that has any, and its player scores that many VP at once.
- *Scoring*: at the end of the second and third turning points, a player whose operatives
  performed more Compile Data actions in that turning point than the enemy's scores 1VP.
- Limits: the 6VP cap of the op (8.1); the pack prints no cap per turning point, so none is
  applied (Send Data in turning point 4 may score up to 3VP per marker).

Facts: ``"Data:points:<marker>"`` = its Data points (unset at 0);
``"Data:gained:<marker>"`` = the turning point it last gained a Data point;
``"Data:compiled:<player>"`` = ``(turning point, Compile Data actions in it)``.
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import OperativeState, other
from engine.game.work import Work
from engine.missions.actions import MarkerAction
from engine.missions.pack import OpSpec, crit_active, register
from engine.missions.scoring import CRIT, fact, initiative_first, score, set_fact

__all__ = ["COMPILE_DATA", "NAME", "SEND_DATA", "compiled", "data_points", "install"]

NAME = "Data"


def data_points(w: Work, marker: str) -> int:
    """The Data points on ``marker``."""
    return int(fact(w, f"{NAME}:points:{marker}", 0))


def compiled(w: Work, player: str) -> int:
    """How many Compile Data actions ``player``'s operatives performed this turning point."""
    tp, count = fact(w, f"{NAME}:compiled:{player}", (0, 0))
    return int(count) if tp == w.tp else 0


def _compile_problem(w: Work, o: OperativeState, marker: str) -> str | None:
    if fact(w, f"{NAME}:gained:{marker}") == w.tp:
        return (
            f"objective marker {marker} has already gained a Data point this turning point "
            "(Compile Data)"
        )
    return None


def _compile(w: Work, o: OperativeState, marker: str) -> None:
    points = data_points(w, marker) + 1
    set_fact(w, f"{NAME}:points:{marker}", points)
    set_fact(w, f"{NAME}:gained:{marker}", w.tp)
    set_fact(w, f"{NAME}:compiled:{o.player}", (w.tp, compiled(w, o.player) + 1))
    w.emit("data_compiled", player=o.player, op=o.id, marker=marker, points=points)


def _send_problem(w: Work, o: OperativeState, marker: str) -> str | None:
    if data_points(w, marker) <= 0:
        return f"objective marker {marker} has no Data points to remove (Send Data)"
    return None


def _send(w: Work, o: OperativeState, marker: str) -> None:
    points = data_points(w, marker)
    set_fact(w, f"{NAME}:points:{marker}", None)
    w.emit("data_sent", player=o.player, op=o.id, marker=marker, points=points)
    score(w, o.player, CRIT, points, f"Send Data: {points} Data point(s) from {marker}")


COMPILE_DATA = MarkerAction("Compile Data", "compile data", NAME, CRIT, _compile, _compile_problem)
"""The Compile Data mission action (``Act <operative> compile data <marker>``)."""

SEND_DATA = MarkerAction("Send Data", "send data", NAME, CRIT, _send, _send_problem, min_tp=4)
"""The Send Data mission action (``Act <operative> send data <marker>``)."""


def _score(w: Work, ev: Event) -> None:
    if not crit_active(w, NAME) or w.tp not in (2, 3):
        return
    for p in initiative_first(w):
        if compiled(w, p) > compiled(w, other(p)):
            score(w, p, CRIT, 1, f"Data: more Compile Data actions in turning point {w.tp}")


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add Compile Data, Send Data and the end-of-turning-point scoring (module docstring)."""
    hooks.action(COMPILE_DATA, players)
    hooks.action(SEND_DATA, players)
    hooks.on("turning_point_ending", _score)


add_template(
    "data_compiled",
    lambda e: (
        f"  {e['op']} compiles data: objective marker {e['marker']} has {e['points']} Data point(s)"
    ),
)
add_template(
    "data_sent",
    lambda e: f"  {e['op']} sends {e['points']} Data point(s) from objective marker {e['marker']}",
)

SPEC = register(
    OpSpec(
        NAME,
        CRIT,
        install,
        summary="Compile Data on markers each turning point, send it in the last for its VP.",
    )
)
