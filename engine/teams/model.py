"""Team datacards and rosters (``rules/KT24.md`` sections 2.1-2.2, 7).

A :class:`Team` is immutable data: operatives (datacards), their weapons (one or more
profiles each, with weapon-rule specs from the dice core), abilities and unique actions,
strategy and firefight ploys, equipment, selection rules and provenance. Descriptions are
the project's own one-line summaries; where a team came from a community dataset,
``source_ref`` points at the source record instead of copying its text.

An operative type's wargear options are :class:`LoadoutSlot` values on its datacard (1.2,
2.2): the player picks one :class:`LoadoutOption` from each slot ("one of the following
options" is one slot of whole weapon sets; "one option from each of the following" is one slot
per line). A type without slots carries every weapon on its card.

A :class:`Roster` is a selection of operatives from a team, each with its loadout;
:meth:`Roster.validate` lists every broken selection and option rule by name. Selection limits
name *selectors*: an operative type (``"Kasrkin Gunner"``) or one option of a type
(``"Kasrkin Gunner [Meltagun]"``, see :func:`parse_entry`).

**Limits.** What a team may hold is bounded (DESIGN.md principle 6: nonsense is rejected at

This module gathers the team model's names: the datacards (:mod:`engine.teams.datacards`),
the team and its rosters (:mod:`engine.teams.roster`), the bounds on both and their checks
(:mod:`engine.teams.limits`), so ``from engine.teams.model import Team`` keeps working. The
roster-time choices live in :mod:`engine.teams.choices`. The team model is the bottom layer of
the teams: it imports nothing of ``engine.rules`` or ``engine.game``.
"""

from __future__ import annotations

from engine.teams.datacards import (
    PLOY_KINDS,
    WEAPON_KINDS,
    Ability,
    Equipment,
    LoadoutOption,
    LoadoutSlot,
    Operative,
    Ploy,
    Weapon,
    WeaponProfile,
)
from engine.teams.limits import (
    EDITIONS,
    MAX_LIST_ITEMS,
    MAX_LOADOUT_SLOTS,
    MAX_NAME_CHARS,
    MAX_OPERATIVE_TYPES,
    MAX_PROFILES,
    MAX_ROSTER_OPERATIVES,
    MAX_TEAM_ID_CHARS,
    MAX_TEXT_CHARS,
    MAX_WEAPON_RULES,
    MAX_WEAPONS,
    STAT_LIMITS,
    brief,
    duplicate_problem,
    edition_problem,
    name_key,
    name_problem,
    operative_problem,
    profile_problem,
    rule_key,
    ruleset_problem,
    safe_team_id,
    team_id_problem,
    team_problem,
    weapon_problem,
)
from engine.teams.roster import Provenance, Roster, Selection, Team, format_entry, parse_entry

__all__ = [
    "EDITIONS",
    "MAX_LIST_ITEMS",
    "MAX_LOADOUT_SLOTS",
    "MAX_NAME_CHARS",
    "MAX_OPERATIVE_TYPES",
    "MAX_PROFILES",
    "MAX_ROSTER_OPERATIVES",
    "MAX_TEAM_ID_CHARS",
    "MAX_TEXT_CHARS",
    "MAX_WEAPONS",
    "MAX_WEAPON_RULES",
    "PLOY_KINDS",
    "STAT_LIMITS",
    "WEAPON_KINDS",
    "Ability",
    "Equipment",
    "LoadoutOption",
    "LoadoutSlot",
    "Operative",
    "Ploy",
    "Provenance",
    "Roster",
    "Selection",
    "Team",
    "Weapon",
    "WeaponProfile",
    "brief",
    "duplicate_problem",
    "edition_problem",
    "format_entry",
    "name_key",
    "name_problem",
    "operative_problem",
    "parse_entry",
    "profile_problem",
    "rule_key",
    "ruleset_problem",
    "safe_team_id",
    "team_id_problem",
    "team_problem",
    "weapon_problem",
]
