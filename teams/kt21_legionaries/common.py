"""Helpers shared by the KT21 Legionaries' rule modules (``teams/kt21_legionaries/``)."""

from __future__ import annotations

from typing import Any

from engine.game.work import Work
from engine.rules.kt21.fight import Kt21FightFrame

LEGIONARY = "LEGIONARY"
"""The team's faction keyword."""


def is_legionary(w: Work, op: str) -> bool:
    """``op`` has the LEGIONARY keyword."""
    return bool(op) and LEGIONARY in w.ctx.datacards[op].keywords


def fight_frame(w: Work) -> Any:
    """The KT21 fight in progress (the top-most
    :class:`~engine.rules.kt21.fight.Kt21FightFrame` on the stack), or ``None``."""
    for f in reversed(w.stack):
        if isinstance(f, Kt21FightFrame):
            return f
    return None


def owned_by(w: Work, op: str, players: tuple[str, ...]) -> bool:
    """``op`` belongs to one of ``players`` (the players whose team has the rule)."""
    return w.ctx.owner.get(op, "") in players
