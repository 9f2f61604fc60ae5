"""Tac op **Steal Intelligence** (Infiltration; ``rules/KT24.md`` 8.4, Approved Ops 2025).

- *Intelligence markers*: whenever an enemy operative is incapacitated (by anything, in any
  turning point), one of your Intelligence mission markers is put within its control range
  before it is removed. The pack lets the player choose the spot; this engine puts it at the
  centre of the incapacitated operative's base (always within its control range), and on its
  level.
- The Intelligence markers (:mod:`engine.missions.mission_markers`, kind
  :data:`INTELLIGENCE`) are 20 mm markers named ``"<player> intelligence <n>"``. Friendly
  operatives may pick them up with the universal Pick Up Marker action (``Pick up KAS-1 a
  intelligence 2``); for that action's conditions the first Intelligence marker an
  operative carries is ignored, so an operative may carry two Intelligence markers, or one
  and then one other marker (``first_ignored``). One carrying two names the one it puts
  down (``Place marker KAS-1 a intelligence 2 at 8,4``).
- *Scoring*: at the end of each turning point after the first, 1VP if any friendly
  operative carries any of your Intelligence markers (at most 2VP per turning point); at the
  end of the battle, 1VP for each of your Intelligence markers friendly operatives carry.
  The pack prints the 2VP cap between the two; this engine applies it to the
  end-of-turning-point VP only (:data:`BATTLE_END_TP_CAP` is ``None``: give it a number to
  make the end-of-battle VP count towards turning point 4's cap instead).
- *Reveal*: the first time an enemy operative is incapacitated.

Facts: none (the Intelligence markers are tokens on the state).
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import other
from engine.game.tokens import Token
from engine.game.work import Work
from engine.missions import mission_markers
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import TAC, initiative_first, score

__all__ = ["BATTLE_END_TP_CAP", "INTELLIGENCE", "NAME", "SPEC", "carried_intelligence", "install"]

NAME = "Steal Intelligence"
INTELLIGENCE = mission_markers.register_kind(
    mission_markers.MarkerKind("intelligence", NAME, first_ignored=True)
)
"""The Intelligence mission markers (friendly operatives carry two, or one and one other)."""
TP_CAP = 2
"""The most VP the op scores at the end of a turning point."""

BATTLE_END_TP_CAP: int | None = None
"""The per-turning-point cap applied to the end-of-battle VP (module docstring)."""


def carried_intelligence(w: Work, player: str) -> list[Token]:
    """``player``'s Intelligence markers that friendly operatives carry."""
    return mission_markers.carried_by(w, INTELLIGENCE, player)


def _incapacitated(w: Work, ev: Event) -> None:
    victim = w.op(ev["op"])
    p = other(victim.player)
    if not tac_active(w, p, NAME):
        return
    reveal_tac_op(w, p, "an enemy operative was incapacitated")
    at = (victim.x, victim.y, victim.elevation)
    mission_markers.add_marker(w, INTELLIGENCE, p, at)


def _score(w: Work, ev: Event) -> None:
    if w.tp < 2:
        return
    for p in initiative_first(w):
        if tac_active(w, p, NAME) and carried_intelligence(w, p):
            score(w, p, TAC, 1, f"{NAME}: Intelligence carried", tp_cap=TP_CAP)


def _battle_ending(w: Work, ev: Event) -> None:
    for p in initiative_first(w):
        held = carried_intelligence(w, p) if tac_active(w, p, NAME) else []
        if held:
            why = f"{NAME}: {len(held)} Intelligence markers carried"
            score(w, p, TAC, len(held), why, tp_cap=BATTLE_END_TP_CAP)


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the Intelligence markers (picked up and put down with the universal actions) and
    the scoring."""
    mission_markers.install(hooks, INTELLIGENCE)
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
