"""The Pathfinders' team rules that the engine plays, registered by rule id
(``engine.rules.registry``).

Modules: :mod:`.abilities`, :mod:`.actions`, :mod:`.equipment`, :mod:`.faction`,
:mod:`.ploys`.
"""

from __future__ import annotations

from teams.pathfinders import abilities, actions, equipment, faction, ploys
from teams.pathfinders import specialists as specialists

__all__ = ["abilities", "actions", "equipment", "faction", "ploys"]
