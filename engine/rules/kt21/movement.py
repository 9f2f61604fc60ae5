"""KT21 movement actions (``rules/KT21.md`` 6.1, 7): Normal Move, Dash, Charge, Fall Back.

Placeholder: KT24's movement actions until the KT21 ones land."""

from __future__ import annotations

from engine.game.bookkeeping import UniversalAction
from engine.game.universal.movement import CHARGE, DASH, FALL_BACK, REPOSITION

__all__ = ["MOVEMENT_ACTIONS"]

MOVEMENT_ACTIONS: tuple[UniversalAction, ...] = (REPOSITION, DASH, FALL_BACK, CHARGE)
"""The KT21 movement actions in listing order."""
