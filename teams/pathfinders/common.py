"""Helpers shared by the Pathfinders' rules (lane pf-core): the team's key, keywords,
which operatives are drones, pulse weapons, the activation in progress."""

from __future__ import annotations

from typing import Any

from engine.game.work import Work

TEAM = "pathfinders"
PATHFINDER = "PATHFINDER"
DRONE = "DRONE"
PULSE_WEAPONS = ("burst cannon", "pulse carbine", "suppressed pulse carbine", "twin pulse carbine")
"""The weapons the dataslate calls pulse weapons (lower case)."""


def keywords(w: Work, op: str) -> tuple[str, ...]:
    """The datacard keywords of ``op`` (upper case)."""
    return w.ctx.datacards[op].keywords


def is_pathfinder(w: Work, op: str) -> bool:
    """``op`` is a PATHFINDER operative."""
    return bool(op) and PATHFINDER in keywords(w, op)


def is_drone(w: Work, op: str) -> bool:
    """``op`` is a PATHFINDER DRONE operative."""
    return is_pathfinder(w, op) and DRONE in keywords(w, op)


def has_keyword(w: Work, op: str, keyword: str) -> bool:
    """``op``'s datacard has ``keyword`` (upper case)."""
    return bool(op) and keyword in keywords(w, op)


def mine(w: Work, op: str, players: tuple[str, ...]) -> bool:
    """``op`` is a PATHFINDER operative of one of ``players`` (the players the rule was
    installed for)."""
    return bool(op) and w.ctx.owner.get(op) in players and is_pathfinder(w, op)


def is_pulse_weapon(name: str) -> bool:
    """The weapon notation name ``name`` (``"burst cannon (focused)"``...) is a pulse weapon."""
    base = name.lower().split(" (")[0].strip()
    return base in PULSE_WEAPONS


def from_datacard(w: Work, op: str, weapon: str) -> bool:
    """The weapon (notation name) ``weapon`` of ``op`` is one of its datacard's (not one
    equipment gives it)."""
    from engine.game.universal import weapon_of

    found = weapon_of(w, w.op(op), weapon)
    return found is not None and found in w.ctx.datacards[op].weapons


def activation_frame(w: Work, op: str) -> Any:
    """The innermost activation frame (activation, counteraction, interrupt or free action)
    of ``op`` on the stack, or ``None``."""
    from engine.game.universal import ActivationFrame

    for f in reversed(w.stack):
        if isinstance(f, ActivationFrame) and f.op == op:
            return f
    return None


def active_op(w: Work) -> str:
    """The operative whose activation or counteraction is in progress, or ``""``."""
    from engine.game.universal import ActivationFrame

    for f in reversed(w.stack):
        if isinstance(f, ActivationFrame) and f.mode in ("activation", "counteract"):
            return str(f.op)
    return ""


FUSILLADE = "pf_point_blank_fusillade"
"""The token detail prefix (``<FUSILLADE>:<weapon>``) of an operative retaliating with a
ranged weapon through Point-Blank Fusillade (set by the firefight ploy, read by Bonded)."""
