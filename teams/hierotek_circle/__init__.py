"""The Hierotek Circle's team rules that the engine plays, registered by rule id
(``engine.rules.registry``).

Modules: :mod:`.abilities`, :mod:`.actions`, :mod:`.equipment`, :mod:`.faction`,
:mod:`.ploys` (strategy), :mod:`.firefight_ploys`, :mod:`.reanimation`, :mod:`.weapon_rules`,
:mod:`.crypteks` (the cryptek actions' frame), :mod:`.chronomancer`, :mod:`.psychomancer`.
"""

from __future__ import annotations

from teams.hierotek_circle import (
    abilities,
    actions,
    chronomancer,
    crypteks,
    equipment,
    faction,
    firefight_ploys,
    ploys,
    psychomancer,
    reanimation,
    weapon_rules,
)

__all__ = [
    "abilities",
    "actions",
    "chronomancer",
    "crypteks",
    "equipment",
    "faction",
    "firefight_ploys",
    "ploys",
    "psychomancer",
    "reanimation",
    "weapon_rules",
]
