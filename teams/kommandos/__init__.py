"""The Kommandos' team rules that the engine plays, registered by rule id
(``engine.rules.registry``).

Modules: :mod:`.abilities`, :mod:`.actions`, :mod:`.breach`, :mod:`.equipment`, :mod:`.faction`,
:mod:`.ploys`, :mod:`.weapon_rules`.
"""

from __future__ import annotations

from teams.kommandos import abilities, actions, breach, equipment, faction, ploys, weapon_rules

__all__ = [
    "abilities",
    "actions",
    "breach",
    "equipment",
    "faction",
    "ploys",
    "weapon_rules",
]
