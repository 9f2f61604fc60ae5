"""The Kasrkin's team rules that the engine plays, registered by rule id
(``engine.rules.registry``).

- **Concealed Position*** (Sharpshooter): :mod:`engine.rules.team_weapon_rules`.
- Strategy ploys: Engage From Cover, Elimination Pattern, Relocate.
- Firefight ploys: Neutralise Target, Seize The Initiative, Give No Ground (offered between
  a Kasrkin's actions, trigger ``during_activation``, and at the end of the Firefight phase).
- Faction rule Rapid Fire (two Shoot actions without moving).
- Faction rule Skill At Arms (strategic gambit) and its four drills: Light 'Em Up, Strike
  Fast, Ice In Your Veins, For Cadia!; the Sergeant's Veteran Leadership (one more drill).
- Abilities Camo Cloak (Sharpshooter), Reconnoitre Killzone (Recon-Trooper: Relocate on it
  is free).
- Unique actions Tactical Command (Sergeant), Battle Comms (Vox-Trooper), Medikit (Combat
  Medic) and Auspex Scan (Recon-Trooper; scanned targets count for Elimination Pattern and
  Neutralise Target).
- Abilities Melta Mine and Proximity Mine (Demo Trooper): :mod:`.mines`.
- Equipment Foregrip, Long-Range Scope, Relics Of Cadia, Combat Daggers.

Modules: :mod:`.ploys` (strategy ploys), :mod:`.firefight_ploys`, :mod:`.equipment`,
:mod:`.faction` (faction rules and abilities), :mod:`.actions` (unique actions), :mod:`.common`
(helpers: the KASRKIN keyword, the Shoot in progress, "cannot retain cover saves or is being
scanned").
"""

from __future__ import annotations

from engine.rules.registry import register
from engine.rules.team_weapon_rules import install_concealed_position
from teams.kasrkin import actions, equipment, faction, firefight_ploys, mines, ploys
from teams.kasrkin.firefight_ploys import NEUTRALISE_TARGET_PLOY, SEIZE_THE_INITIATIVE_PLOY
from teams.kasrkin.ploys import ELIMINATION_PATTERN_PLOY, ENGAGE_FROM_COVER_PLOY, RELOCATE_PLOY

__all__ = [
    "ELIMINATION_PATTERN_PLOY",
    "ENGAGE_FROM_COVER_PLOY",
    "NEUTRALISE_TARGET_PLOY",
    "RELOCATE_PLOY",
    "SEIZE_THE_INITIATIVE_PLOY",
    "actions",
    "equipment",
    "faction",
    "firefight_ploys",
    "mines",
    "ploys",
]

register(
    "kasrkin/weapon_rule/concealed_position",
    install_concealed_position,
    "The weapon can only be used in the operative's first Shoot action of the battle.",
)
