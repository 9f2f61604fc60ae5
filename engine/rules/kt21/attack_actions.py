"""KT21 attack actions (``rules/KT21.md`` 10, 11, 3.5): Shoot, Fight and Overwatch.

Placeholder: KT24's Shoot and Fight until the KT21 ones land."""

from __future__ import annotations

from engine.game.bookkeeping import UniversalAction
from engine.game.universal.attack_actions import FIGHT, SHOOT

__all__ = ["ATTACK_ACTIONS", "OVERWATCH"]

ATTACK_ACTIONS: tuple[UniversalAction, ...] = (SHOOT, FIGHT)
"""The KT21 Shoot and Fight actions in listing order."""

OVERWATCH: UniversalAction | None = None
"""The KT21 Overwatch action (0AP, 3.5), performed outside activations in the overwatch turn
the flow gives a player without ready operatives; ``None`` until it lands."""
