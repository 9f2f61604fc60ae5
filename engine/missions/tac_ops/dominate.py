"""Tac op **Dominate** (Seek & Destroy; ``rules/KT24.md`` 8.4, Approved Ops 2025).

- *Dominate tokens*: each time a friendly operative incapacitates an enemy operative, that
  friendly operative gains one of the player's Dominate tokens.
- *Reveal*: the first time an enemy operative is incapacitated by a friendly operative.
- *Scoring*, at the end of the third and fourth turning points: the player may remove
  Dominate tokens from friendly operatives that are not incapacitated, 1VP each. At most 3VP
  a turning point.

Choices:

- The incapacitating operative is the event's ``by`` (``operative_incapacitated``), as for
  Rout: an enemy's own Hot weapon or Mines give no token.
- The removal is not asked: the player removes tokens while they score (in roster order),
  and keeps the rest (for the fourth turning point). Tokens on an operative that is
  incapacitated can no longer be removed.

Facts: ``"Dominate:<player>"`` = ``(operative, tokens)`` pairs, in roster order.
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import other
from engine.game.work import Work
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import TAC, fact, score, set_fact

__all__ = ["NAME", "SCORING_TPS", "TP_CAP", "install", "tokens"]

NAME = "Dominate"
TP_CAP = 3
"""The most VP Dominate gives a player in one turning point."""
SCORING_TPS = (3, 4)
"""The turning points at whose end Dominate scores."""


def tokens(w: Work, player: str) -> dict[str, int]:
    """``player``'s Dominate tokens by operative id (only operatives with some)."""
    return dict(fact(w, f"{NAME}:{player}", ()))


def _set_tokens(w: Work, player: str, held: dict[str, int]) -> None:
    order = w.ctx.index
    pairs = tuple(sorted(((k, v) for k, v in held.items() if v > 0), key=lambda t: order[t[0]]))
    set_fact(w, f"{NAME}:{player}", pairs or None)


def _on_incapacitated(w: Work, ev: Event) -> None:
    by = str(ev.get("by") or "")
    if by not in w.ctx.index:
        return
    victim, attacker = w.op(ev["op"]), w.op(by)
    p = attacker.player
    if p == victim.player or not tac_active(w, p, NAME):
        return
    reveal_tac_op(w, p, f"{by} incapacitated an enemy operative")
    held = tokens(w, p)
    held[by] = held.get(by, 0) + 1
    _set_tokens(w, p, held)
    w.emit("dominate_token", player=p, op=by, tokens=held[by])


def _cash_in(w: Work, p: str) -> None:
    """Remove ``p``'s tokens from its operatives that are not incapacitated while they score
    (module docstring)."""
    held = tokens(w, p)
    for op in list(held):
        if w.op(op).incapacitated:
            continue
        while held.get(op, 0):
            if not score(w, p, TAC, 1, f"{NAME}: a token removed from {op}", tp_cap=TP_CAP):
                _set_tokens(w, p, held)
                return
            held[op] -= 1
            w.emit("dominate_token_removed", player=p, op=op, tokens=held[op])
    _set_tokens(w, p, held)


def _score(w: Work, ev: Event) -> None:
    if w.tp not in SCORING_TPS:
        return
    first = w.initiative or "A"
    for p in (first, other(first)):
        if tac_active(w, p, NAME):
            _cash_in(w, p)


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Subscribe the Dominate tokens to ``operative_incapacitated`` and the scoring to
    ``turning_point_ending``."""
    hooks.on("operative_incapacitated", _on_incapacitated)
    hooks.on("turning_point_ending", _score)


SPEC = register(
    OpSpec(
        NAME,
        TAC,
        install,
        archetype="Seek & Destroy",
        summary="Your killers gain tokens; keep them alive to cash the tokens in late.",
        reveal="the first time a friendly operative incapacitates an enemy operative",
    )
)
