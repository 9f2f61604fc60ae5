"""KT21 marker actions (``rules/KT21.md`` 15.1): Pick Up, Pass and the free drop.

Placeholder: KT24's Pick Up Marker until the KT21 actions land."""

from __future__ import annotations

from engine.game.bookkeeping import UniversalAction
from engine.game.universal.marker_actions import PICK_UP

__all__ = ["MARKER_ACTIONS"]

MARKER_ACTIONS: tuple[UniversalAction, ...] = (PICK_UP,)
"""The KT21 marker actions (and Pass) in listing order."""
