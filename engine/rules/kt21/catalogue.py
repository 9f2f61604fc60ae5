"""The KT21 universal actions in listing order (``rules/KT21.md`` 6.1)."""

from __future__ import annotations

from engine.game.bookkeeping import UniversalAction
from engine.rules.kt21.attack_actions import ATTACK_ACTIONS
from engine.rules.kt21.marker_actions import MARKER_ACTIONS
from engine.rules.kt21.movement import MOVEMENT_ACTIONS

__all__ = ["ACTIONS"]

ACTIONS: tuple[UniversalAction, ...] = (*MOVEMENT_ACTIONS, *ATTACK_ACTIONS, *MARKER_ACTIONS)
"""Normal Move, Dash, Fall Back, Charge, Shoot, Fight, Pick Up, Pass (6.1)."""
