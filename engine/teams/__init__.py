"""Teams: datacards, rosters, built-in teams and importers (``rules/KT24.md`` 2, 7)."""

from engine.teams.io import (
    TeamFileError,
    builtin_teams,
    load_builtin_team,
    load_team,
    save_team,
    team_from_dict,
    team_to_dict,
)
from engine.teams.model import (
    Ability,
    Equipment,
    Operative,
    Ploy,
    Provenance,
    Roster,
    Selection,
    Team,
    Weapon,
    WeaponProfile,
)
from engine.teams.roster_file import load_roster

__all__ = [
    "Ability",
    "Equipment",
    "Operative",
    "Ploy",
    "Provenance",
    "Roster",
    "Selection",
    "Team",
    "TeamFileError",
    "Weapon",
    "WeaponProfile",
    "builtin_teams",
    "load_builtin_team",
    "load_roster",
    "load_team",
    "save_team",
    "team_from_dict",
    "team_to_dict",
]
