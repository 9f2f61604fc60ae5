"""The Pathfinders' team rules that the engine plays, registered by rule id
(``engine.rules.registry``).

Modules: :mod:`.abilities`, :mod:`.actions`, :mod:`.equipment`, :mod:`.faction`,
:mod:`.ploys` (strategy), :mod:`.firefight_ploys`; lane pf-core: :mod:`.common`,
:mod:`.markerlights`, :mod:`.drones`, :mod:`.drone_actions`.
"""

from __future__ import annotations

from teams.pathfinders import (
    abilities,
    actions,
    drone_actions,
    drones,
    equipment,
    faction,
    firefight_ploys,
    markerlights,
    ploys,
)
from teams.pathfinders import specialists as specialists  # lane pf-ploys

__all__ = [
    "abilities",
    "actions",
    "drone_actions",
    "drones",
    "equipment",
    "faction",
    "firefight_ploys",
    "markerlights",
    "ploys",
]
