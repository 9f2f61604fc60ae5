"""Helpers shared by the Pathfinders' ploys, equipment, unique actions and specialists'
abilities (``teams/pathfinders/``: the ploys lane's modules); the keywords and
:func:`is_pathfinder` / :func:`has_keyword` are :mod:`teams.pathfinders.common`'s."""

from __future__ import annotations

from engine.game.work import Work
from engine.rules.ploys import op_token as op_token
from engine.rules.ploys import player_token as player_token
from engine.rules.ploys import ploy_installer as ploy_installer
from engine.rules.ploys import shoot_frame as shoot_frame
from teams.pathfinders.common import DRONE as DRONE
from teams.pathfinders.common import PATHFINDER as PATHFINDER
from teams.pathfinders.common import has_keyword as has_keyword
from teams.pathfinders.common import is_pathfinder as is_pathfinder


def is_drone(w: Work, op: str) -> bool:
    """``op`` has the DRONE keyword."""
    return bool(op) and DRONE in w.ctx.datacards[op].keywords


def is_trooper(w: Work, op: str) -> bool:
    """``op`` is a PATHFINDER operative other than a DRONE (the rules' "excluding DRONE")."""
    return is_pathfinder(w, op) and not is_drone(w, op)
