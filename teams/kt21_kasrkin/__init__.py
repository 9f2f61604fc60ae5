"""The KT21 Kasrkin's team rules that the engine plays (``rules/KT21.md`` 4.1), registered by
rule id (``engine.rules.registry``; team identity ``kt21_kasrkin``, so none of them is ever
installed for the KT24 Kasrkin and the reverse):

- Faction rule Elite (the pool of Elite points), the Sergeant's Leadership and the Trooper's
  Elite Trooper: :mod:`.elite`.
- Weapon rule Proximity* (the melta mine attacks only through its token): :mod:`.weapon_rules`.
- Unique actions Battle Comms (Vox-Trooper) and Combat Stimms (Combat Medic): :mod:`.actions`;
  Plant Melta Mine (Demo-Trooper) and its Proximity* trigger: :mod:`.melta_mine`.
- Abilities Camo Cloak (Sharpshooter): :mod:`.abilities`; Medic! (Combat Medic):
  :mod:`.medic`; Blast Padding (Demo-Trooper): :mod:`.blast_padding`; Reconnoitre Killzone
  (Recon-Trooper): :mod:`.reconnoitre`.
- Equipment (selected through :mod:`engine.rules.kt21.equipment`, each item's EP declared
  in :mod:`.equipment`): the frag and krak grenades (their weapon profiles), the Long-range
  Scope and the Foregrip: :mod:`.equipment`; Adrenaline Shot: :mod:`.adrenaline`; Stun
  Grenade and Decoy Grenade: :mod:`.grenades`.

Everything else (Warden Auspex, and the ploys, which no source we have
prints) is reported by ``killteam teams rules kt21_kasrkin`` and listed in
``docs/rulings/kt21_teams.md``.
"""

from __future__ import annotations

from teams.kt21_kasrkin import (
    abilities,
    actions,
    adrenaline,
    blast_padding,
    elite,
    equipment,
    grenades,
    medic,
    melta_mine,
    reconnoitre,
    weapon_rules,
)

__all__ = [
    "abilities",
    "actions",
    "adrenaline",
    "blast_padding",
    "elite",
    "equipment",
    "grenades",
    "medic",
    "melta_mine",
    "reconnoitre",
    "weapon_rules",
]
