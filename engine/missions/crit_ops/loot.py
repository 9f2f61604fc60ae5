"""Crit op **Loot** (``rules/KT24.md`` 8.3, Approved Ops 2025).

- *Loot* (mission action, 1AP; not in the first turning point nor within control range of
  an enemy operative): an objective marker the active operative controls is looted. A
  marker can be looted once per turning point, by either kill team: once one player has
  looted it, neither player may loot it again until the next turning point.
- *Scoring*: each Loot action scores 1VP for its player at once, at most 2VP per turning
  point (and 6VP in the battle, 8.1). A Loot beyond the turning point's cap scores nothing
  but still loots the marker (the opponent cannot loot it this turning point), so it stays
  legal.

Facts: ``"Loot:<marker>"`` = the turning point in which the marker was last looted.
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import add_template
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.missions.actions import MarkerAction
from engine.missions.pack import OpSpec, register
from engine.missions.scoring import CRIT, fact, score, set_fact

__all__ = ["LOOT", "NAME", "TP_CAP", "looted"]

NAME = "Loot"
TP_CAP = 2
"""The most VP Loot gives a player in one turning point."""


def looted(w: Work, marker: str) -> bool:
    """Whether ``marker`` has been looted (by either player) during this turning point."""
    return bool(fact(w, f"{NAME}:{marker}") == w.tp)


def _loot(w: Work, o: OperativeState, marker: str) -> None:
    set_fact(w, f"{NAME}:{marker}", w.tp)
    w.emit("marker_looted", player=o.player, op=o.id, marker=marker)
    score(w, o.player, CRIT, 1, f"Loot: objective marker {marker} looted", tp_cap=TP_CAP)


def _problem(w: Work, o: OperativeState, marker: str) -> str | None:
    if looted(w, marker):
        return f"objective marker {marker} has already been looted this turning point (Loot)"
    return None


LOOT = MarkerAction("Loot", "loot", NAME, CRIT, _loot, _problem)
"""The Loot mission action: ``Act <operative> loot <marker>``."""


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the Loot action (it scores as it is performed)."""
    hooks.action(LOOT, players)


add_template("marker_looted", lambda e: f"  {e['op']} loots objective marker {e['marker']}")

SPEC = register(
    OpSpec(
        NAME,
        CRIT,
        install,
        summary="Loot markers you control, each once per turning point: 1VP a Loot, 2VP a "
        "turning point.",
    )
)
