"""The list of the core's universal actions (``rules/KT24.md`` 3.2). Adding one: a module
that declares it (:func:`engine.game.bookkeeping.declare`, a
:class:`~engine.game.bookkeeping.UniversalAction`) and a line here."""

from __future__ import annotations

from engine.game.bookkeeping import UniversalAction
from engine.game.universal.attack_actions import FIGHT, SHOOT
from engine.game.universal.marker_actions import PICK_UP, PLACE_MARKER
from engine.game.universal.movement import CHARGE, DASH, FALL_BACK, REPOSITION

__all__ = [
    "ACTIONS",
]


ACTIONS: tuple[UniversalAction, ...] = (
    REPOSITION,
    DASH,
    FALL_BACK,
    CHARGE,
    SHOOT,
    FIGHT,
    PICK_UP,
    PLACE_MARKER,
)
"""The core's universal actions in the order an operative's actions are listed (3.2); the
universal actions rule modules add (Close Quarters, 9.3) follow them
(:func:`engine.game.universal.activation.rule_universal_actions`)."""
