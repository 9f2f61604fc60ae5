"""Tac op **Steal Intelligence** (Infiltration; ``rules/KT24.md`` 8.4, Approved Ops 2025).

- *Intelligence markers*: whenever an enemy operative is incapacitated (by anything, in any
  turning point), one of your Intelligence mission markers is put within its control range
  before it is removed. The pack lets the player choose the spot; this engine puts it at the
  centre of the incapacitated operative's base (always within its control range), and on its
  level.
- Friendly operatives may Pick Up Marker on your Intelligence markers; for that action's
  conditions the first Intelligence marker an operative carries is ignored, so an operative
  may carry two Intelligence markers, or one and then one other marker
  (:mod:`engine.missions.mission_markers`, ``first_free``).
- *Scoring*: at the end of each turning point after the first, 1VP if any friendly
  operative carries any of your Intelligence markers (at most 2VP per turning point); at the
  end of the battle, 1VP for each of your Intelligence markers friendly operatives carry.
  The pack prints the 2VP cap between the two; this engine applies it to the
  end-of-turning-point VP only (:data:`BATTLE_END_TP_CAP` is ``None``: give it a number to
  make the end-of-battle VP count towards turning point 4's cap instead).
- *Reveal*: the first time an enemy operative is incapacitated.

Facts: the Intelligence markers in ``"Steal Intelligence:markers"``.
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import other
from engine.game.work import Work
from engine.missions import mission_markers
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import TAC, score

__all__ = ["BATTLE_END_TP_CAP", "NAME", "SPEC", "carried_intelligence", "install"]

NAME = "Steal Intelligence"
TP_CAP = 2
"""The most VP the op scores at the end of a turning point."""

BATTLE_END_TP_CAP: int | None = None
"""The per-turning-point cap applied to the end-of-battle VP (module docstring)."""


def carried_intelligence(w: Work, player: str) -> list[mission_markers.MissionMarker]:
    """``player``'s Intelligence markers that friendly operatives carry."""
    return [m for m in mission_markers.markers_of(w, NAME, player) if m.carrier]


def _incapacitated(w: Work, ev: Event) -> None:
    victim = w.op(ev["op"])
    p = other(victim.player)
    if not tac_active(w, p, NAME):
        return
    reveal_tac_op(w, p, "an enemy operative was incapacitated")
    at = (victim.x, victim.y, victim.elevation)
    mission_markers.add_marker(w, NAME, p, "intelligence", at, first_free=True)


def _score(w: Work, ev: Event) -> None:
    if w.tp < 2:
        return
    first = w.initiative or "A"
    for p in (first, other(first)):
        if tac_active(w, p, NAME) and carried_intelligence(w, p):
            score(w, p, TAC, 1, f"{NAME}: Intelligence carried", tp_cap=TP_CAP)


def _battle_ending(w: Work, ev: Event) -> None:
    first = w.initiative or "A"
    for p in (first, other(first)):
        held = carried_intelligence(w, p) if tac_active(w, p, NAME) else []
        if held:
            why = f"{NAME}: {len(held)} Intelligence markers carried"
            score(w, p, TAC, len(held), why, tp_cap=BATTLE_END_TP_CAP)


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the Intelligence markers, the mission markers' Pick Up and Place Marker actions,
    and the scoring."""
    mission_markers.install(hooks)
    hooks.on("operative_incapacitated", _incapacitated)
    hooks.on("turning_point_ending", _score)
    hooks.on("battle_ending", _battle_ending)


SPEC = register(
    OpSpec(
        NAME,
        TAC,
        install,
        archetype="Infiltration",
        summary="Pick up the Intelligence enemies drop when they fall; carry it to score.",
        reveal="the first time an enemy operative is incapacitated",
    )
)
