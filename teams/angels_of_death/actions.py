"""The Angels of Death unique actions: Optics (Eliminator Sniper)."""

from __future__ import annotations

from typing import Any

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.effects import cannot_be_obscured
from engine.rules.effects import unobscure as unobscure
from engine.rules.registry import register
from engine.rules.unique_actions import PlainAction
from teams.angels_of_death.common import has_token

OPTICS_TOKEN = "optics"


@attrs.frozen(slots=True)
class Optics(PlainAction):
    """Optics (Eliminator Sniper, 1AP; a :class:`engine.game.rule_actions.RuleActionLike`):
    until the start of its next activation, whenever it is shooting, enemy operatives cannot
    be obscured. Not while within control range of an enemy operative. Notation
    ``Act <sniper> optics``. Trigger: the core's ``would_target`` hook while the operative
    has the token (removed when it is next activated)."""

    name: str = "Optics"
    text: str = "optics"
    ap: int = 1
    family: str = ""

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """Only an operative whose datacard prints it (the Eliminator Sniper)."""
        if not any(a.name == self.name for a in w.ctx.datacards[o.id].actions):
            return f"{o.id} has no Optics: only the Eliminator Sniper performs it"
        return None

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """A token on the operative until the start of its next activation."""
        w.add_effect(Effect("token", o.id, "end_battle", source=o.id, detail=OPTICS_TOKEN))

    def advice(self, w: Work, o: OperativeState, action: Action, mode: str) -> float:
        """Rule of thumb: worth 0.15 of an operative when an enemy it could shoot is obscured
        now (its next shots ignore that), else nothing; it costs an AP, so only when the
        operative has AP left after it to shoot (0.05 otherwise)."""
        from engine.game.shoot_targets import targeting

        if has_token(w, o.id, OPTICS_TOKEN):
            return 0.0
        obscured = any(targeting(w, o, e).obscured for e in w.enemies_of(o.id))
        if not obscured:
            return 0.0
        return 0.15 if o.ap >= 2 else 0.05


OPTICS = Optics()


def _install_optics(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Optics (class docstring)."""

    def stop(w: Work, ev: Event) -> None:
        op = str(ev.get("op", ""))
        if w.effects and has_token(w, op, OPTICS_TOKEN):
            w.effects = [e for e in w.effects if not (e.op == op and e.detail == OPTICS_TOKEN)]

    def unobscured(w: Work, tg: Any, **info: Any) -> Any:
        op = str(info.get("op", ""))
        if not tg.obscured or w.ctx.owner.get(op) not in players:
            return tg
        return unobscure(tg) if has_token(w, op, OPTICS_TOKEN) else tg

    hooks.action(OPTICS, players)
    hooks.on("activated", stop)
    cannot_be_obscured(hooks, unobscured)  # (by terrain and by smoke alike)


register(
    "angels_of_death/unique_action/optics",
    _install_optics,
    "Eliminator Sniper, 1AP: until its next activation, its targets cannot be obscured.",
)
