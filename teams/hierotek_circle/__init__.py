"""The Hierotek Circle's team rules that the engine plays, registered by rule id
(``engine.rules.registry``).

Modules: :mod:`.abilities`, :mod:`.actions`, :mod:`.equipment`, :mod:`.faction`,
:mod:`.ploys`, :mod:`.reanimation`, :mod:`.weapon_rules`.
"""

from __future__ import annotations

from teams.hierotek_circle import (
    abilities,
    actions,
    equipment,
    faction,
    ploys,
    reanimation,
    weapon_rules,
)

__all__ = [
    "abilities",
    "actions",
    "equipment",
    "faction",
    "ploys",
    "reanimation",
    "weapon_rules",
]
