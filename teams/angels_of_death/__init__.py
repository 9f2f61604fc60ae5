"""The Angels of Death's team rules that the engine plays, registered by rule id
(``engine.rules.registry``; team data ``teams/angels_of_death.json``).

Modules: :mod:`.ploys` (strategy and firefight ploys), :mod:`.faction` (Astartes),
:mod:`.tactics` (the Chapter Tactics faction rule and the eight tactics, Chapter Veteran,
Adaptive Tactics), :mod:`.abilities` (operative abilities), :mod:`.leader` (Heroic Leader),
:mod:`.actions` (Optics), :mod:`.equipment` (the team equipment), :mod:`.common` (helpers).
"""

from __future__ import annotations

from teams.angels_of_death import abilities, actions, equipment, faction, leader, ploys, tactics

__all__ = [
    "abilities",
    "actions",
    "equipment",
    "faction",
    "leader",
    "ploys",
    "tactics",
]
