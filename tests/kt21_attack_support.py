"""Shared fixtures for the KT21 Shoot, Overwatch and Fight tests (``tests/test_kt21_shoot.py``,
``tests/test_kt21_fight.py``): two small KT21 teams built by hand so every expected value can
be worked out from ``rules/KT21.md`` with pencil and paper, on the LAB killzone of
``tests/test_game_rules_common`` (lanes: y = 4 Light rubble in front of a target at x 16:
in Cover from x 5; y = 10 a Heavy block midway: Obscured; y = 14 open; y = 19 a tall wall).

Every operative: 32 mm base, APL 2, Move 6", DF 3, Save 4+, 10 wounds (Weakling 2), no
invulnerable save (Warded: 5+). Gun: A4 BS3+ D3/4; Knife: A3 WS3+ D2/3. The Gunner carries
one KT21 weapon rule per gun (:data:`GUNS`), the Brawler one per blade (:data:`BLADES`).
CP are 0 unless a test says otherwise, so no Command Re-roll window opens. Positions are
made with ``engine.rulesets.position`` under ``GameOptions(ruleset="kt21")`` (the KT24
Firefight frame with the KT21 actions).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from engine.dice.kt21_rules import parse_kt21_weapon_rules
from engine.dice.rules import WeaponRules
from engine.game import GameOptions, GameState
from engine.game.events import Event
from engine.game.scenario import run
from engine.rulesets import position
from engine.teams.io import team_from_dict
from engine.teams.model import Operative, Roster, Team, Weapon
from tests.test_game_rules_common import LAB, R

KT21 = GameOptions(ruleset="kt21")
CLOSE = 2 * R + 0.5  # centres this far apart: bases 0.5" apart (within Engagement Range)

GUNS: dict[str, tuple[int, str, str, str]] = {
    # name: (A, BS, D, KT21 rules)
    "Gun": (4, "3+", "3/4", ""),
    "AP Gun": (4, "3+", "3/4", "AP1"),
    "AP2 Gun": (4, "3+", "3/4", "AP2"),
    "P Gun": (4, "3+", "3/4", "P1"),
    "MW Gun": (4, "3+", "1/1", "MW2"),
    "Splash Gun": (4, "3+", "1/1", "Splash 1"),
    "Stun Gun": (4, "3+", "1/1", "Stun"),
    "Hot Gun": (4, "3+", "3/4", "Hot"),
    "Lethal Gun": (4, "3+", "3/4", "Lethal 5+"),
    "Rending Gun": (4, "3+", "3/4", "Rending"),
    "Ceaseless Gun": (4, "3+", "3/4", "Ceaseless"),
    "Balanced Gun": (4, "3+", "3/4", "Balanced"),
    "Blast Gun": (4, "3+", "2/3", 'Blast 2"'),
    "Torrent Gun": (4, "3+", "2/3", 'Torrent 2"'),
    "Fusillade Gun": (4, "3+", "2/3", "Fusillade"),
    "Heavy Gun": (4, "3+", "3/4", "Heavy"),
    "Unwieldy Gun": (4, "3+", "3/4", "Unwieldy"),
    "Limited Gun": (4, "3+", "3/4", "Limited"),
    "Silent Gun": (4, "3+", "3/4", "Silent"),
    "Short Gun": (4, "3+", "3/4", 'Rng 6"'),
    "No Cover Gun": (4, "3+", "3/4", "No Cover"),
    "Indirect Gun": (4, "3+", "3/4", "Indirect"),
    "Twin Gun": (4, "3+", "3/4", "Ceaseless, Balanced"),
}
LAUNCHER: dict[str, tuple[int, str, str, str]] = {
    # a weapon with two profiles (the Gunner's Launcher): frag has Blast, krak does not
    "frag": (4, "3+", "2/3", 'Blast 2"'),
    "krak": (4, "3+", "4/5", "AP1"),
}
BLADES: dict[str, tuple[int, str, str, str]] = {
    "Brutal Blade": (4, "3+", "3/4", "Brutal"),
    "Stun Blade": (4, "3+", "1/1", "Stun"),
    "Reap Blade": (4, "3+", "1/1", "Reap 2"),
    "MW Blade": (4, "3+", "1/1", "MW1"),
    "Lethal Blade": (4, "3+", "3/4", "Lethal 5+"),
}
KNIFE = {"Knife": (3, "3+", "2/3", "")}


def _weapons(kind: str, table: Mapping[str, tuple[int, str, str, str]]) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "kind": kind,
            "profiles": [{"name": "", "attacks": a, "hit": hit, "damage": dmg, "rules": ""}],
        }
        for name, (a, hit, dmg, _) in table.items()
    ]


def _launcher() -> dict[str, Any]:
    return {
        "name": "Launcher",
        "kind": "ranged",
        "profiles": [
            {"name": n, "attacks": a, "hit": hit, "damage": dmg, "rules": ""}
            for n, (a, hit, dmg, _) in LAUNCHER.items()
        ],
    }


def _op(name: str, weapons: list[dict[str, Any]], wounds: int = 10) -> dict[str, Any]:
    return {
        "name": name,
        "keywords": ["TEST"],
        "apl": 2,
        "move": '6"',
        "save": "4+",
        "wounds": wounds,
        "base_mm": 32.0,
        "weapons": weapons,
    }


def _team_data(team_id: str) -> dict[str, Any]:
    gun = {k: GUNS[k] for k in ("Gun",)}
    return {
        "id": team_id,
        "name": f"KT21 test {team_id}",
        "faction": "TEST",
        "archetypes": ["Security"],
        "operatives": [
            _op("Trooper", _weapons("ranged", gun) + _weapons("melee", KNIFE)),
            _op("Gunner", [*_weapons("ranged", GUNS), _launcher(), *_weapons("melee", KNIFE)]),
            _op("Brawler", _weapons("ranged", gun) + _weapons("melee", {**BLADES, **KNIFE})),
            _op("Warded", _weapons("ranged", gun) + _weapons("melee", KNIFE)),
            _op("Unarmed", _weapons("ranged", gun)),
            _op("Weakling", _weapons("ranged", gun) + _weapons("melee", KNIFE), wounds=2),
        ],
        "selection": {"size": [1, 14]},
        "default_roster": ["Trooper"],
        "provenance": {"source": "tests"},
    }


def _kt21_weapon(weapon: Weapon) -> Weapon:
    table = {**GUNS, **BLADES, **KNIFE}

    def rules(profile: str) -> str:
        return LAUNCHER[profile][3] if weapon.name == "Launcher" else table[weapon.name][3]

    profiles = tuple(
        attrs.evolve(p, rules=WeaponRules(), kt21_rules=parse_kt21_weapon_rules(rules(p.name)))
        for p in weapon.profiles
    )
    return attrs.evolve(weapon, profiles=profiles)


def _kt21_operative(op: Operative) -> Operative:
    inv = 5 if op.name == "Warded" else 0
    return attrs.evolve(
        op, weapons=tuple(_kt21_weapon(w) for w in op.weapons), defence=3, invulnerable=inv
    )


def kt21_team(team_id: str) -> Team:
    """A KT21 test team (module docstring), ``edition="kt21"``."""
    team = team_from_dict(_team_data(team_id), team_id)
    return attrs.evolve(
        team, operatives=tuple(_kt21_operative(o) for o in team.operatives), edition="kt21"
    )


RED = kt21_team("red")
BLU = kt21_team("blu")
ROSTER = ("Trooper", "Trooper", "Gunner", "Brawler", "Warded", "Unarmed", "Weakling")
"""Index i -> RED-(i+1) / BLU-(i+1): 1-2 Trooper, 3 Gunner, 4 Brawler, 5 Warded (5+
invulnerable), 6 Unarmed (no melee weapon), 7 Weakling (2 wounds)."""


def pos(
    operatives: Mapping[str, Mapping[str, Any]],
    *,
    cp: tuple[int, int] = (0, 0),
    red: Sequence[str] = ROSTER,
    blu: Sequence[str] = ROSTER,
    **kw: Any,
) -> GameState:
    """A KT21 Firefight position on LAB with the listed operatives (``{"at": (x, y), ...}``)."""
    return position(
        LAB,
        Roster(RED, tuple(red)),
        Roster(BLU, tuple(blu)),
        operatives=operatives,
        cp=cp,
        options=KT21,
        **kw,
    )


def activated(
    operatives: Mapping[str, Mapping[str, Any]], op: str = "RED-3", **kw: Any
) -> GameState:
    """:func:`pos` with ``op`` activated with an Engage order."""
    return pos(operatives, **kw).apply(f"Activate {op} engage")[0]


def play(
    state: GameState, actions: Sequence[str], dice: Sequence[str] = ()
) -> tuple[GameState, list[Event]]:
    """:func:`engine.game.scenario.run` with strict scripted dice."""
    return run(state, actions, dice)


def of_kind(events: Sequence[Event], kind: str) -> list[Event]:
    """The events of ``kind``."""
    return [e for e in events if e.kind == kind]


def wounds(s: GameState, op: str) -> int:
    """``op``'s wounds left."""
    return s.operative(op).wounds
