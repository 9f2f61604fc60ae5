"""Helpers shared by the Pathfinders' ploys, equipment, unique actions and specialists'
abilities (``teams/pathfinders/``: the ploys lane's modules)."""

from __future__ import annotations

from typing import Any

from engine.game.context import Hooks
from engine.game.work import Work
from engine.rules.registry import Installer

PATHFINDER = "PATHFINDER"
DRONE = "DRONE"


def is_pathfinder(w: Work, op: str) -> bool:
    """``op`` has the PATHFINDER keyword."""
    return bool(op) and PATHFINDER in w.ctx.datacards[op].keywords


def is_drone(w: Work, op: str) -> bool:
    """``op`` has the DRONE keyword."""
    return bool(op) and DRONE in w.ctx.datacards[op].keywords


def is_trooper(w: Work, op: str) -> bool:
    """``op`` is a PATHFINDER operative other than a DRONE (the rules' "excluding DRONE")."""
    return is_pathfinder(w, op) and not is_drone(w, op)


def has_keyword(w: Work, op: str, keyword: str) -> bool:
    """``op``'s datacard has ``keyword``."""
    return bool(op) and keyword in w.ctx.datacards[op].keywords


def player_token(w: Work, player: str, name: str) -> bool:
    """``player`` holds the player-wide token ``name`` (a ``GainToken`` with no operative)."""
    return any(
        e.kind == "token" and not e.op and e.player == player and e.detail == name
        for e in w.effects
    )


def op_token(w: Work, op: str, name: str) -> bool:
    """``op`` holds the token ``name`` (pending ones included)."""
    return any(e.kind == "token" and e.op == op and e.detail == name for e in w.effects)


def shoot_frame(w: Work) -> Any:
    """The Shoot frame in progress (the top-most one), or None."""
    from engine.game.shoot import ShootFrame

    for f in reversed(w.stack):
        if isinstance(f, ShootFrame):
            return f
    return None


def ploy_installer(ploy: Any) -> Installer:
    """An installer that adds ``ploy`` for its players."""

    def install(hooks: Hooks, players: tuple[str, ...]) -> None:
        hooks.ploy(ploy, players)

    return install
