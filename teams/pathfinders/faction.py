"""The Pathfinders' faction rules (registered by rule id in ``engine.rules.registry``).

Markerlight, the faction rule, lives in :mod:`teams.pathfinders.markerlights` with its token
API (``markerlights``, ``add_markerlights``, ``remove_markerlights``, ``can_markerlight``,
``MARKERLIGHT``; see that module's docstring).
"""

from __future__ import annotations

from teams.pathfinders.markerlights import (
    MARKERLIGHT,
    MAX_MARKERLIGHTS,
    add_markerlights,
    can_markerlight,
    markerlights,
    remove_markerlights,
)

__all__ = [
    "MARKERLIGHT",
    "MAX_MARKERLIGHTS",
    "add_markerlights",
    "can_markerlight",
    "markerlights",
    "remove_markerlights",
]
