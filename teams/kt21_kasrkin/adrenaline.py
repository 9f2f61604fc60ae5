"""The KT21 Kasrkin's **Adrenaline Shot** (``rules/KT21.md`` 1.2 step 6 equipment, 4.2
characteristic changes, 4.4 injured):

Once per battle, when the operative carrying it is activated, its player may use it (``Use
adrenaline shot``, a rule option of the ``activation_start`` window: no CP): until the end of
that activation the operative ignores modifiers to its APL and Move. It is offered only when
it changes something (a negative APL or Move change, or the injured Move -2"); the player
ignores the negative modifiers and keeps the positive ones ("any or all"): the core's
``would_change_apl`` hook counts only the positive APL changes (the ±1 clamp still applies to
them), its AP are generated again from that APL (none spent yet), and the
``would_change_move`` hook adds back the negative Move changes and the injured 2". The
injured BS/WS penalty is not a Move or APL modifier: it stays.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.kt21.equipment import carried
from engine.rules.registry import register, register_equipment_value

__all__ = ["ADRENALINE_SHOT", "AdrenalineShot", "install_adrenaline_shot"]

ADRENALINE_SHOT = "Adrenaline Shot"
_ACTIVE = "kt21 adrenaline shot"
_USED = "kt21 adrenaline shot used"


def _active(w: Work, op: str) -> bool:
    return any(e.op == op and e.detail == _ACTIVE for e in w.effects)


def _negative(w: Work, op: str, kind: str) -> float:
    """The sum of the negative changes of ``kind`` on ``op`` now (0 or less)."""
    return sum(e.value for e in w.effects_on(op, kind) if e.value < 0)


@attrs.frozen(slots=True)
class AdrenalineShot:
    """Adrenaline Shot (module docstring): a rule option of the ``activation_start`` window
    (kind ``"rule"``, :mod:`engine.game.ploys`)."""

    players: tuple[str, ...]
    name: str = ADRENALINE_SHOT
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("activation_start",)
    repeatable: bool = True

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use adrenaline shot`` for the operative being activated, when it carries one
        not used yet and some modifier would be ignored."""
        op = str(info.get("op", ""))
        if not op or w.ctx.owner.get(op) != player or player not in self.players:
            return []
        if ADRENALINE_SHOT not in carried(w, op) or _active(w, op):
            return []
        if any(e.op == op and e.detail == _USED for e in w.effects):
            return []
        o = w.op(op)
        idle = not (_negative(w, op, "apl") or _negative(w, op, "move") or w.injury_penalties(o))
        return [] if idle else [Action("Use", text="adrenaline shot")]

    def owns(self, action: Action) -> bool:
        """Its action is ``Use adrenaline shot``."""
        return action.verb == "Use" and action.text == "adrenaline shot"

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` cannot be used (naming the rule)."""
        return (
            f"{action} is not possible: Adrenaline Shot is used once per battle as its carrier "
            "is activated, when it has an APL or Move modifier to ignore"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Note the use, start the effect for this activation, generate the AP again."""
        op = str(info.get("op", ""))
        w.effects.append(Effect("token", op, "end_battle", source=op, detail=_USED))
        w.effects.append(Effect("token", op, "end_this_activation", source=op, detail=_ACTIVE))
        w.set_op(op, ap=max(0, w.apl(w.op(op))))


def install_adrenaline_shot(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Adrenaline Shot (module docstring): the rule option and the two stat hooks."""

    def apl(w: Work, change: int, *, op: str, **_: Any) -> int:
        if not w.effects or not _active(w, op):
            return change
        return int(change - _negative(w, op, "apl"))

    def move(w: Work, change: float, *, op: str, **_: Any) -> float:
        if not w.effects or not _active(w, op):
            return change
        back = -_negative(w, op, "move") + (2.0 if w.injury_penalties(w.op(op)) else 0.0)
        return change + back

    hooks.ploy(AdrenalineShot(players), players)
    hooks.transform("would_change_apl", apl)
    hooks.transform("would_change_move", move)


register(
    "kt21_kasrkin/equipment/adrenaline_shot",
    install_adrenaline_shot,
    "Once per battle, as its carrier is activated: it ignores modifiers to its APL and Move "
    "for that activation.",
)
register_equipment_value("kt21_kasrkin/equipment/adrenaline_shot", 0.5)
