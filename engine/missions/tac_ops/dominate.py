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
- The player *can* remove its tokens. Removing one while it scores is never worse than
  keeping it (a token kept scores 1VP at most, under the same cap, in the fourth turning
  point), so ``Decline`` is not offered. Which tokens stay can matter: in the third turning
  point, when the cap leaves more tokens than it lets score and they are on more than one
  operative, the player chooses which operative loses each token (``Op dominate
  <operative>``, :mod:`engine.missions.tac_ops.removal`), the rest staying for the fourth.
  Otherwise the player removes them while they score, in roster order (which ones does not
  matter). Tokens on an operative that is incapacitated can no longer be removed.

Facts: ``"Dominate:<player>"`` = ``(operative, tokens)`` pairs, in roster order.
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.work import Work
from engine.missions.kill_op import enemy_incapacitator
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import OP_CAP, TAC, fact, initiative_first, op_vp, score, set_fact
from engine.missions.tac_ops.removal import Removal, TokenRemovalFrame, declare_removal

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
    attacker = enemy_incapacitator(w, ev)
    if attacker is None or not tac_active(w, attacker.player, NAME):
        return
    by, p = attacker.id, attacker.player
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


def _room(w: Work, p: str) -> int:
    """The VP Dominate can still score ``p`` this turning point (its cap and the battle's)."""
    return min(TP_CAP - op_vp(w, TAC, p, this_tp=True), OP_CAP - op_vp(w, TAC, p))


def _removable(w: Work, p: str) -> dict[str, int]:
    """``p``'s tokens on its operatives that are not incapacitated."""
    return {op: n for op, n in tokens(w, p).items() if not w.op(op).incapacitated}


def _asked_key(player: str) -> str:
    return f"{NAME}:asked:{player}"


def _choice_matters(w: Work, p: str) -> bool:
    """Whether which tokens stay can matter (module docstring): the third turning point,
    more removable tokens than the caps let score, on more than one operative."""
    if w.tp != SCORING_TPS[0] or not tac_active(w, p, NAME):
        return False
    held = _removable(w, p)
    return len(held) > 1 and 0 < _room(w, p) < sum(held.values())


def _places(w: Work, p: str) -> tuple[str, ...]:
    """The operatives (roster order) one of ``p``'s tokens can be removed from and score."""
    return tuple(_removable(w, p)) if _room(w, p) > 0 else ()


def _remove_chosen(w: Work, p: str, op: str) -> None:
    held = tokens(w, p)
    if not score(w, p, TAC, 1, f"{NAME}: a token removed from {op}", tp_cap=TP_CAP):
        return
    held[op] -= 1
    _set_tokens(w, p, held)
    w.emit("dominate_token_removed", player=p, op=op, tokens=held[op])


def _advice(w: Work, p: str, op: str) -> float:
    """Remove first the tokens of the operative likeliest to be incapacitated before the
    fourth turning point ends (its tokens would be lost): the one with the fewest wounds
    left (the heuristic agent's rule of thumb)."""
    return -float(w.op(op).wounds)


declare_removal(Removal(NAME, _places, _remove_chosen, optional=False, advice=_advice))


def _step(w: Work) -> TokenRemovalFrame | None:
    """The scoring step: the players whose removal is their decision, initiative first."""
    asked = tuple(p for p in initiative_first(w) if _choice_matters(w, p))
    for p in asked:
        set_fact(w, _asked_key(p), True)
    return TokenRemovalFrame(NAME, asked) if asked else None


def _score(w: Work, ev: Event) -> None:
    if w.tp not in SCORING_TPS:
        return
    for p in initiative_first(w):
        if fact(w, _asked_key(p), None):  # removed by the player's own choices
            set_fact(w, _asked_key(p), None)
            continue
        if tac_active(w, p, NAME):
            _cash_in(w, p)


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Subscribe the Dominate tokens to ``operative_incapacitated``, the removal choice to the
    end of the turning point (:meth:`~engine.game.context.Hooks.scoring_step`) and the
    scoring to ``turning_point_ending``."""
    hooks.on("operative_incapacitated", _on_incapacitated)
    hooks.scoring_step(_step)
    hooks.on("turning_point_ending", _score)


add_template(
    "dominate_token",
    lambda e: f"  {e['op']} gains a Dominate token of {e['player']} ({e['tokens']} on it)",
)
add_template(
    "dominate_token_removed",
    lambda e: f"  {e['player']} removes a Dominate token from {e['op']} ({e['tokens']} left)",
)

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
