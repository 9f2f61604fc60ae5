"""Tac op **Rout** (Seek & Destroy; ``rules/KT24.md`` 8.4, Approved Ops 2025).

- *Scoring*, whenever a friendly operative incapacitates an enemy operative: if that
  friendly operative is within 6" of the opponent's drop zone, 1VP; 2VP when the enemy
  operative's Wounds stat is 12 or more. At most 2VP a turning point.
- *Reveal*: the first time the player scores VP from this op.

Choices:

- The incapacitating operative is the event's ``by`` (``operative_incapacitated``): the
  attacker of a Shoot or Fight, or of Devastating damage. Damage without an enemy attacker
  (an operative's own Hot weapon, Mines) incapacitates nobody's way to VP here.
- "Within 6\"" is from the operative's base to the drop zone's area on the board's plan,
  where the operative is as the enemy is incapacitated (0 when it is in it).
- The Wounds stat is the enemy's datacard value (its starting wounds).
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import other
from engine.game.work import Work
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import TAC, score
from engine.missions.territory import distance_to_drop_zone

__all__ = ["BIG_WOUNDS", "NAME", "REACH", "TP_CAP", "install"]

NAME = "Rout"
REACH = 6.0
"""How near (inches) the opponent's drop zone the incapacitating operative must be."""
BIG_WOUNDS = 12
"""An enemy with at least this Wounds stat scores 2VP."""
TP_CAP = 2
"""The most VP Rout gives a player in one turning point."""


def _on_incapacitated(w: Work, ev: Event) -> None:
    by = str(ev.get("by") or "")
    if by not in w.ctx.index:
        return
    victim, attacker = w.op(ev["op"]), w.op(by)
    p = attacker.player
    if p == victim.player or not tac_active(w, p, NAME):
        return
    if distance_to_drop_zone(w, attacker, other(p)) > REACH + 1e-6:
        return
    big = w.ctx.datacards[victim.id].wounds >= BIG_WOUNDS
    why = f"{NAME}: {by} incapacitated {victim.id} near the enemy drop zone" + (
        f" (Wounds {BIG_WOUNDS}+)" if big else ""
    )
    if score(w, p, TAC, 2 if big else 1, why, tp_cap=TP_CAP):
        reveal_tac_op(w, p, "the first VP from Rout")


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Subscribe the scoring to ``operative_incapacitated``."""
    hooks.on("operative_incapacitated", _on_incapacitated)


SPEC = register(
    OpSpec(
        NAME,
        TAC,
        install,
        archetype="Seek & Destroy",
        summary="Score for kills made near the enemy drop zone, more for big targets.",
        reveal="the first time the player scores VP from Rout",
    )
)
