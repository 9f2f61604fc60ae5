"""Crit op **Secure** (``rules/KT24.md`` 8.3, Approved Ops 2025).

- *Secure* (mission action, 1AP; not in the first turning point nor within control range
  of an enemy operative): an objective marker the active operative controls becomes secured
  by its kill team, until the enemy kill team secures it. Securing a marker already
  secured by one's own kill team is legal (the pack prints no such condition) and changes
  nothing, so it is not offered (:class:`engine.missions.actions.MarkerAction`).
- *Scoring*, at the end of each turning point after the first: 1VP if any marker is
  secured by your kill team, and 1VP more if more markers are secured by your kill team
  than by your opponent's.

Facts: ``"Secure:<marker>"`` = the player that secured it last.
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import OperativeState, other
from engine.game.work import Work
from engine.missions.actions import MarkerAction
from engine.missions.markers import marker_names
from engine.missions.pack import OpSpec, crit_active, register
from engine.missions.scoring import CRIT, fact, initiative_first, score, set_fact

NAME = "Secure"


def secured_by(w: Work, player: str) -> list[str]:
    """The objective markers secured by ``player``'s kill team."""
    return [m for m in marker_names(w) if fact(w, f"{NAME}:{m}") == player]


def _secure(w: Work, o: OperativeState, marker: str) -> None:
    set_fact(w, f"{NAME}:{marker}", o.player)
    w.emit("marker_secured", player=o.player, marker=marker)


def _idle(w: Work, o: OperativeState, marker: str) -> str | None:
    if fact(w, f"{NAME}:{marker}") == o.player:
        return f"objective marker {marker} is already secured by {o.player}'s kill team (Secure)"
    return None


SECURE = MarkerAction("Secure", "secure", NAME, CRIT, _secure, idle=_idle)


def _score(w: Work, ev: Event) -> None:
    if not crit_active(w, NAME) or w.tp < 2:
        return
    for p in initiative_first(w):
        mine, theirs = len(secured_by(w, p)), len(secured_by(w, other(p)))
        if mine:
            score(w, p, CRIT, 1, "Secure: a secured objective marker")
        if mine > theirs:
            score(w, p, CRIT, 1, "Secure: more secured objective markers")


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the Secure action and the end-of-turning-point scoring."""
    hooks.action(SECURE, players)
    hooks.on("turning_point_ending", _score)


add_template("marker_secured", lambda e: f"  {e['player']} secures objective marker {e['marker']}")

SPEC = register(
    OpSpec(
        NAME,
        CRIT,
        install,
        summary="Secure markers you control; score for holding any and for holding more.",
    )
)
