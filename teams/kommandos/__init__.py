"""The Kommandos' team rules that the engine plays, registered by rule id
(``engine.rules.registry``).

Modules: :mod:`.abilities`, :mod:`.actions`, :mod:`.breach`, :mod:`.equipment`, :mod:`.faction`,
:mod:`.ploys` (strategy ploys), :mod:`.firefight_ploys`, :mod:`.weapon_rules`, :mod:`.common`.
"""

from __future__ import annotations

from teams.kommandos import (
    abilities,
    actions,
    breach,
    equipment,
    faction,
    firefight_ploys,
    ploys,
    weapon_rules,
)

__all__ = [
    "abilities",
    "actions",
    "breach",
    "equipment",
    "faction",
    "firefight_ploys",
    "ploys",
    "weapon_rules",
]
