"""The KT21 Legionaries' team rules that the engine plays (``rules/KT21.md`` 4.1), registered
by rule id (``engine.rules.registry``; team identity ``kt21_legionaries``, so none of them is
ever installed for the KT24 Legionaries and the reverse):

- Weapon rules Vicious Blows*, Daemonic Energies*, Parry Hook*: :mod:`.weapon_rules`;
  Siphon Life Force* (Life Siphon): :mod:`.siphon`.
- Abilities Icon Bearer, Vicious Reflexes, Soul Feast, Daemonic Aura, Horrifying
  Dismemberment: :mod:`.abilities`; In the Eyes of the Gods (Aspiring Champion):
  :mod:`.eyes_of_the_gods`.
- Unique actions Grisly Mark (Shrivetalon): :mod:`.grisly_mark`; Manifest Psychic Power
  (Balefire Acolyte: Fireblast, Life Siphon, Malign Influence): :mod:`.psychic`.
- Equipment (selected through :mod:`engine.rules.kt21.equipment`, each item's EP declared
  in :mod:`.equipment`): the frag and krak grenades (their weapon profiles), Aggression
  Stimulants, Tainted Rounds, Warded Armour, Grisly Trophy: :mod:`.equipment`; Suspensor
  System: :mod:`.suspensor`; Malign Scripture: :mod:`.psychic`.

Everything else (the faction rule Favoured of the Dark Gods: the roster has no Mark of Chaos
to choose and no strategic ploy is sourced; Devastating Onslaught; Unleash Daemon; the ploys,
which no source we have prints) is reported by ``killteam teams rules kt21_legionaries``
and listed in ``docs/rulings/kt21_teams.md``.
"""

from __future__ import annotations

from teams.kt21_legionaries import (
    abilities,
    equipment,
    eyes_of_the_gods,
    grisly_mark,
    psychic,
    siphon,
    suspensor,
    weapon_rules,
)

__all__ = [
    "abilities",
    "equipment",
    "eyes_of_the_gods",
    "grisly_mark",
    "psychic",
    "siphon",
    "suspensor",
    "weapon_rules",
]
