"""Covert War's victory points and result (``rules/KT18.md`` 9.6, 9.7).

At the end of the battle (the ``battle_ending`` event, after the fifth battle round) each
objective marker's control is counted (9.4, ``kt18_objective_control``) and the primary
objective scores, under the op name :data:`OBJECTIVE` (``vp_scored``):

- Secure the Battlefield: 2 VP per marker a player controls;
- Retrieve the Cache: 6 VP to the controller of the one marker left;
- Infiltrate: 2 VP per marker a player controls inside an opponent's deployment zone (its
  own zone and no zone score nothing: the digest's reading).

The result (:func:`covert_war_victory`, the ``kt18_victory`` transform): most VP is a major
victory; equal VP: among the tied players the one with the least strategic advantage wins a
minor victory (no draws, 9.6).
"""

from __future__ import annotations

from typing import Any

from engine.game.events import Event
from engine.game.work import Work
from engine.missions.kt18.objectives import (
    INFILTRATE,
    RETRIEVE_THE_CACHE,
    SECURE_THE_BATTLEFIELD,
    advantage_order,
    counts_near,
    marker_zone,
    primary_objective,
)
from engine.missions.scoring import add_vp

__all__ = [
    "CACHE_VP",
    "INFILTRATE_VP",
    "OBJECTIVE",
    "SECURE_VP",
    "covert_war_victory",
    "score_at_end",
]

OBJECTIVE = "objective"
"""The op name (``vp_by_op``) of the VP the primary objective scores."""
SECURE_VP = 2
"""VP per marker controlled (Secure the Battlefield, 9.7)."""
CACHE_VP = 6
"""VP for controlling the cache (Retrieve the Cache, 9.7)."""
INFILTRATE_VP = 2
"""VP per marker controlled in an opponent's deployment zone (Infiltrate, 9.7)."""


def _controller(counts: dict[str, int]) -> str:
    total = sum(counts.values())
    return next((p for p, n in counts.items() if n > total - n), "")


def score_at_end(w: Work, ev: Event) -> None:
    """Count each marker's control (9.4) and score the primary objective (9.7; module
    docstring) at ``battle_ending``."""
    del ev
    objective = primary_objective(w)
    kz = w.kz
    for m in list(w.markers):
        counts = counts_near(w, m.name)
        holder = _controller(counts)
        w.emit(
            "kt18_objective_control",
            a=counts["A"],
            b=counts["B"],
            marker=m.name,
            player=holder,
        )
        if not holder:
            continue
        if objective == SECURE_THE_BATTLEFIELD:
            add_vp(w, holder, OBJECTIVE, SECURE_VP, f"Secure the Battlefield: controls {m.name}")
        elif objective == RETRIEVE_THE_CACHE:
            add_vp(w, holder, OBJECTIVE, CACHE_VP, f"Retrieve the Cache: controls {m.name}")
        elif objective == INFILTRATE:
            owner = marker_zone(w, kz, m.x, m.y)
            if owner and owner != holder:
                add_vp(
                    w,
                    holder,
                    OBJECTIVE,
                    INFILTRATE_VP,
                    f"Infiltrate: controls {m.name} in the enemy deployment zone",
                )


def covert_war_victory(w: Work, value: Any, **info: Any) -> Any:
    """The ``kt18_victory`` transform of Covert War (9.6): ``value`` is ``(winner, kind)`` by
    VP; a draw becomes a minor victory of the tied player with the least strategic advantage
    (with two players: the player who rolled lower); a win by VP stays a major victory. Left
    unchanged when no strategic advantage was rolled (a scripted position)."""
    del info
    winner = value[0]
    order = advantage_order(w)
    if winner or not order:
        return value
    return (order[-1], "minor")
