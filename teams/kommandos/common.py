"""Helpers shared by the Kommandos' rule modules (``teams/kommandos/``): the KOMMANDO
keyword, the operatives that are not "tough" (the BOMB SQUIG and the GROT), tokens on an
operative."""

from __future__ import annotations

from engine.game.state import Effect
from engine.game.work import Work

__all__ = ["KOMMANDO", "NOT_TOUGH", "add_token", "drop_token", "is_kommando", "is_kommando_boy"]

KOMMANDO = "KOMMANDO"
NOT_TOUGH = ("BOMB SQUIG", "GROT")


def is_kommando(w: Work, op: str) -> bool:
    """``op`` has the KOMMANDO keyword."""
    return bool(op) and KOMMANDO in w.ctx.datacards[op].keywords


def is_kommando_boy(w: Work, op: str) -> bool:
    """``op`` is a KOMMANDO operative other than the BOMB SQUIG and the GROT."""
    if not is_kommando(w, op):
        return False
    keywords = w.ctx.datacards[op].keywords
    return not any(k in keywords for k in NOT_TOUGH)


def drop_token(w: Work, op: str, name: str) -> None:
    """Remove the token ``name`` from ``op``."""
    w.effects = [
        e for e in w.effects if not (e.kind == "token" and e.op == op and e.detail == name)
    ]


def add_token(w: Work, op: str, name: str, until: str = "end_tp") -> None:
    """A token on ``op`` that applies at once (not pending: it is used inside the action in
    progress)."""
    w.effects.append(Effect("token", op, until, source=op, detail=name))
