"""The KT21 Legionary Aspiring Champion's **In the Eyes of the Gods** (``rules/KT21.md`` 6.2
free actions, 11, 10):

Once per turning point, when the operative incapacitates an enemy operative during its own
activation (by its shooting attack or in a fight, as either side), it gains one free action
for the rest of that activation: the next action it performs in that activation costs no AP
(the core's ``would_cost_action`` hook; the action is still that action, so it cannot be one
already performed in the activation, 6.2). Reading: the free action is the next one
performed (the player loses nothing by it, an action never costs less than 0AP); unused when
the activation ends, it is lost. The once-per-turning-point allowance is taken when the
enemy is incapacitated.
"""

from __future__ import annotations

from typing import Any

from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.universal import ActivationFrame
from engine.game.work import Work
from engine.rules.registry import register
from teams.kt21_legionaries.common import owned_by

__all__ = ["EYES_OF_THE_GODS", "install_in_the_eyes_of_the_gods"]

EYES_OF_THE_GODS = "In the Eyes of the Gods"
_USED = "kt21 in the eyes of the gods used"
_FREE = "kt21 in the eyes of the gods free action"


def _own_activation(w: Work, op: str) -> bool:
    """``op`` is performing its own activation (the top-most activation frame's)."""
    for f in reversed(w.stack):
        if isinstance(f, ActivationFrame):
            return bool(f.op == op and f.mode == "activation")
    return False


def _has(w: Work, op: str) -> bool:
    return any(a.name == EYES_OF_THE_GODS for a in w.ctx.datacards[op].abilities)


def _free(w: Work, op: str) -> Effect | None:
    return next(
        (e for e in w.effects if e.kind == "token" and e.op == op and e.detail == _FREE), None
    )


def install_in_the_eyes_of_the_gods(hooks: Hooks, players: tuple[str, ...]) -> None:
    """In the Eyes of the Gods (module docstring): an ``operative_incapacitated`` listener
    grants the free action (a token on the operative until the end of this activation), the
    ``would_cost_action`` hook makes its next action cost 0AP and uses the token up."""

    def incapacitated(w: Work, ev: Event) -> None:
        by = str(ev["by"] or "")
        if not by or not owned_by(w, by, players) or not _has(w, by):
            return
        if w.ctx.owner.get(str(ev["op"])) == w.ctx.owner[by] or not _own_activation(w, by):
            return
        player = w.ctx.owner[by]
        if any(e.kind == "token" and e.player == player and e.detail == _USED for e in w.effects):
            return
        w.effects.append(Effect("token", "", "end_tp", detail=_USED, player=player))
        w.effects.append(
            Effect("token", by, "end_this_activation", detail=_FREE, player=player, source=by)
        )
        w.emit("rule_used", player=player, rule=EYES_OF_THE_GODS, trigger="incapacitated")

    def cost(w: Work, ap: int, *, op: OperativeState, paying: bool = False, **_: Any) -> int:
        token = _free(w, op.id) if w.effects else None
        if token is None or not _own_activation(w, op.id):
            return ap
        if paying:
            w.effects.remove(token)
        return 0

    hooks.on("operative_incapacitated", incapacitated)
    hooks.transform("would_cost_action", cost)


register(
    "kt21_legionaries/ability/in_the_eyes_of_the_gods",
    install_in_the_eyes_of_the_gods,
    "Once per turning point, incapacitating an enemy in its activation gives it one free "
    "action (0AP) in that activation.",
)
