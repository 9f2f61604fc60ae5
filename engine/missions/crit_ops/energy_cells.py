"""Crit op **Energy Cells** (``rules/KT24.md`` 3.2, 4.8, 8.3, Approved Ops 2025).

- *Pick-up*: from the second turning point on, operatives may perform the universal Pick Up
  Marker action on the objective markers (``Pick up KAS-1 centre``; 3.2: the operative
  controls the marker, is not within control range of an enemy operative and carries no
  other marker). It costs 2AP more in turning point 2 and 1AP more in turning point 3 (the
  printed 1AP in turning point 4); while it costs more, it cannot be free (so not in a
  counteraction nor as a free action) and its AP cannot be reduced. The added AP are for
  the objective markers only (a tac op's mission marker is picked up as usual). The
  carried marker is put down with the universal Place Marker action, or at once when its
  carrier is incapacitated (2.3). A carried marker is contested and controlled by its
  carrier alone (4.8). Through the core hooks ``would_allow_pick_up`` and
  ``would_add_action_ap`` (:mod:`engine.game.universal`).
- *Scoring*, at the end of each turning point after the first: 1VP if your operatives
  control more objective markers than the enemy's do. At the end of the battle: 1VP for
  each objective marker your operatives are carrying. The pack prints no per-turning-point
  cap (the 6VP cap of the op applies, 8.1).

Limitation: the pack forbids removing an operative carrying an objective marker and setting
it up again more than 6" away. No rule of the engine does that yet (team rules that
reposition operatives are not implemented), so nothing checks it; such a rule must check
the operative's ``carrying`` field against :data:`SET_UP_AGAIN_LIMIT` itself.

Facts: none (the markers' carriers are on the state).
"""

from __future__ import annotations

from typing import Any

from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import OperativeState, other
from engine.game.work import Work
from engine.missions.markers import controlled_by, marker_names
from engine.missions.pack import OpSpec, crit_active, register
from engine.missions.scoring import CRIT, score

__all__ = ["ADDED_AP", "NAME", "SET_UP_AGAIN_LIMIT", "carried_by"]

NAME = "Energy Cells"
ADDED_AP = {2: 2, 3: 1}
"""The AP Pick Up Marker costs more, by turning point (none in turning point 4)."""
SET_UP_AGAIN_LIMIT = 6.0
"""Inches: the farthest a carrier may be set up again after being removed (not enforced,
module docstring)."""
_PICK_UP = "Pick up"


def carried_by(w: Work, player: str) -> list[str]:
    """The objective markers ``player``'s operatives are carrying, in the layout's order."""
    return [m.name for m in w.markers if m.carrier and w.ctx.owner[m.carrier] == player]


def _allow(w: Work, why: str | None, *, op: OperativeState, marker: str) -> str | None:
    if why is not None and crit_active(w, NAME) and 2 <= w.tp <= 4:
        return None
    return why


def _added_ap(w: Work, extra: int, *, op: OperativeState, action: str, target: str) -> Any:
    # Only on an objective marker: a tac op's mission marker is picked up as usual.
    if action == _PICK_UP and crit_active(w, NAME) and target in marker_names(w):
        return extra + ADDED_AP.get(w.tp, 0)
    return extra


def _score(w: Work, ev: Event) -> None:
    if not crit_active(w, NAME) or w.tp < 2:
        return
    first = w.initiative or "A"
    for p in (first, other(first)):
        if len(controlled_by(w, p)) > len(controlled_by(w, other(p))):
            score(w, p, CRIT, 1, "Energy Cells: more objective markers")


def _battle_ending(w: Work, ev: Event) -> None:
    if not crit_active(w, NAME):
        return
    first = w.initiative or "A"
    for p in (first, other(first)):
        held = carried_by(w, p)
        if held:
            score(w, p, CRIT, len(held), f"Energy Cells: carrying {', '.join(held)}")


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Allow Pick Up Marker on the objective markers from turning point 2 with its added AP,
    and add the end-of-turning-point and end-of-battle scoring."""
    hooks.transform("would_allow_pick_up", _allow)
    hooks.transform("would_add_action_ap", _added_ap)
    hooks.on("turning_point_ending", _score)
    hooks.on("battle_ending", _battle_ending)


SPEC = register(
    OpSpec(
        NAME,
        CRIT,
        install,
        summary="Pick up objective markers (2AP more in turning point 2, 1AP more in 3); "
        "score for controlling more markers and for each marker carried at the end.",
    )
)
