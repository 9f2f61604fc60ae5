"""Helpers shared by the KT21 Kasrkin's rule modules (``teams/kt21_kasrkin/``)."""

from __future__ import annotations

from engine.game.work import Work

KASRKIN = "KASRKIN"
"""The team's faction keyword."""


def is_kasrkin(w: Work, op: str) -> bool:
    """``op`` has the KASRKIN keyword."""
    return bool(op) and KASRKIN in w.ctx.datacards[op].keywords


def has_ability(w: Work, op: str, name: str) -> bool:
    """``op``'s datacard has the ability ``name``."""
    return bool(op) and any(a.name == name for a in w.ctx.datacards[op].abilities)


def owned_by(w: Work, op: str, players: tuple[str, ...]) -> bool:
    """``op`` belongs to one of ``players`` (the players whose team has the rule)."""
    return w.ctx.owner.get(op, "") in players
