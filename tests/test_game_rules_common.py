"""Shared fixtures for the per-rule game tests (``tests/test_game_rules_*.py``).

Everything here is hand-built so the expected values can be worked out from the rules with
pencil and paper:

- two small teams, ``red`` (player A, ids ``RED-1``...) and ``blu`` (player B, ids
  ``BLU-1``...), whose operatives all have 32 mm bases (radius ``R`` = 0.63") and round
  stats;
- the ``LAB`` killzone, 30" x 22", with three lanes that each show one terrain effect
  (drawing in :data:`LAB`), drop zones A (x 0-6) and B (x 24-30) and one objective marker.

This module holds no tests itself (pytest collects nothing from it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.game import GameOptions, GameState
from engine.game.actions import MOVE_VERBS, Action, is_attack_header
from engine.game.events import Event
from engine.game.scenario import run
from engine.geometry import Killzone
from engine.rulesets import position
from engine.teams.io import team_from_dict
from engine.teams.model import Roster, Team

R = 32 / 25.4 / 2  # base radius of every test operative (inches)


def rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    """A closed rectangular ring."""
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]


def _profile(atk: int, hit: str, dmg: str, rules: str = "", name: str = "") -> dict[str, Any]:
    return {"name": name, "attacks": atk, "hit": hit, "damage": dmg, "rules": rules}


def _weapon(name: str, kind: str, *profiles: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "kind": kind, "profiles": list(profiles)}


GUN = _weapon("Gun", "ranged", _profile(4, "3+", "3/4"))
KNIFE = _weapon("Knife", "melee", _profile(3, "3+", "2/3"))

# Weapons of the Gunner, one weapon rule each (rules/KT24.md 6).
SPECIAL_RANGED = [
    _weapon("Pistol", "ranged", _profile(4, "3+", "3/4", 'Range 6"')),
    _weapon("Silent Gun", "ranged", _profile(4, "3+", "3/4", "Silent")),
    _weapon("Heavy Gun", "ranged", _profile(4, "3+", "3/4", "Heavy")),
    _weapon("Dash Gun", "ranged", _profile(4, "3+", "3/4", "Heavy (Dash only)")),
    _weapon("Limited Gun", "ranged", _profile(4, "3+", "3/4", "Limited 1")),
    _weapon("Hot Gun", "ranged", _profile(4, "4+", "3/4", "Hot")),
    _weapon("Stun Gun", "ranged", _profile(4, "3+", "1/1", "Stun")),
    _weapon("Blast Gun", "ranged", _profile(4, "3+", "2/3", 'Blast 2"')),
    _weapon("Torrent Gun", "ranged", _profile(4, "3+", "2/3", 'Torrent 2"')),
    _weapon("Dev Gun", "ranged", _profile(4, "3+", "1/1", '1" Devastating 2')),
    _weapon("Seek Gun", "ranged", _profile(4, "3+", "3/4", "Seek")),
    _weapon("Saturate Gun", "ranged", _profile(4, "3+", "3/4", "Saturate")),
    _weapon("Pierce Gun", "ranged", _profile(4, "3+", "3/4", "Piercing 1")),
    _weapon("Crit Pierce Gun", "ranged", _profile(4, "3+", "3/4", "Piercing Crits 1")),
]
SPECIAL_MELEE = [
    _weapon("Brutal Blade", "melee", _profile(4, "3+", "3/4", "Brutal")),
    _weapon("Shock Blade", "melee", _profile(4, "3+", "3/4", "Shock")),
    _weapon("Stun Blade", "melee", _profile(4, "3+", "1/1", "Stun")),
]


def _operative(
    name: str,
    weapons: list[dict[str, Any]],
    *,
    apl: int = 2,
    move: str = '6"',
    save: str = "4+",
    wounds: int = 10,
) -> dict[str, Any]:
    return {
        "name": name,
        "keywords": ["TEST"],
        "apl": apl,
        "move": move,
        "save": save,
        "wounds": wounds,
        "base_mm": 32.0,
        "weapons": weapons,
    }


def team_data(team_id: str) -> dict[str, Any]:
    """The file structure of a test team called ``team_id``.

    Operative types (all 32 mm bases, Save 4+):

    ==========  ===  ====  ======  ===================================================
    type        APL  Move  Wounds  weapons
    ==========  ===  ====  ======  ===================================================
    Trooper     2    6"    10      Gun 4/3+/3/4, Knife 3/3+/2/3
    Gunner      2    6"    10      every SPECIAL_RANGED weapon, Knife
    Brawler     2    6"    10      Gun, every SPECIAL_MELEE weapon
    Captain     3    6"    12      Gun, Knife
    Weakling    1    6"    2       Gun, Knife (4/3+/2/3)
    ==========  ===  ====  ======  ===================================================
    """
    return {
        "id": team_id,
        "name": f"Test {team_id}",
        "faction": "TEST",
        "archetypes": ["Security"],
        "operatives": [
            _operative("Trooper", [GUN, KNIFE]),
            _operative("Gunner", [*SPECIAL_RANGED, KNIFE]),
            _operative("Brawler", [GUN, *SPECIAL_MELEE]),
            _operative("Captain", [GUN, KNIFE], apl=3, wounds=12),
            _operative(
                "Weakling",
                [GUN, _weapon("Knife", "melee", _profile(4, "3+", "2/3"))],
                apl=1,
                wounds=2,
            ),
        ],
        "selection": {"size": [1, 14]},
        "default_roster": ["Trooper"],
        "provenance": {"source": "tests"},
    }


RED: Team = team_from_dict(team_data("red"), "red")
BLU: Team = team_from_dict(team_data("blu"), "blu")

# Default rosters: index i -> id RED-(i+1) / BLU-(i+1).
ROSTER = ("Trooper", "Trooper", "Gunner", "Brawler", "Captain", "Weakling")


def roster(team: Team, types: Sequence[str] = ROSTER) -> Roster:
    return Roster(team, tuple(types))


def lab_data(objectives: Iterable[tuple[str, tuple[float, float]]] = ()) -> dict[str, Any]:
    """The LAB killzone (drawing in :data:`LAB`)."""
    return {
        "name": "lab",
        "features": [
            {
                # Light rubble 0.75" tall whose near edge is 0.5" from a target at (16, 4).
                "name": "rubble",
                "parts": [
                    {"polygon": rect(15 - R, 2, 15.5 - R, 6), "height": 0.75, "types": ["Light"]}
                ],
            },
            {
                # Heavy ruin 1" tall (models see over it) 4"+ from (5, 10) and (16, 10).
                "name": "ruin",
                "parts": [{"polygon": rect(10, 8, 11, 12), "height": 1.0, "types": ["Heavy"]}],
            },
            {
                # A 5" Heavy wall: blocks sight between (5, 19) and (16, 19).
                "name": "wall",
                "parts": [{"polygon": rect(10, 17, 11, 21.5), "height": 5.0, "types": ["Heavy"]}],
            },
        ],
        "drop_zones": {"A": rect(0, 0, 6, 22), "B": rect(24, 0, 30, 22)},
        "objectives": [{"name": n, "position": list(p)} for n, p in objectives],
    }


# LAB (30" x 22"):
#   y 17-21.5  "wall" lane: a 5" Heavy wall at x 10-11 (no sight across it)
#   y 13-16    open lane (movement, fights), objective marker "obj" at (20, 14.5)
#   y 8-12     "ruin" lane: a 1" Heavy block at x 10-11 (obscures (16, 10) from (5, 10))
#   y 2-6      "rubble" lane: 0.75" Light rubble just in front of (16, 4) (cover from (5, 4))
LAB: Killzone = Killzone.from_dict(lab_data([("obj", (20.0, 14.5))]), "lab")


def pos(
    operatives: Mapping[str, Mapping[str, Any]],
    *,
    kz: Killzone = LAB,
    red: Sequence[str] = ROSTER,
    blu: Sequence[str] = ROSTER,
    cp: tuple[int, int] = (0, 0),
    **kw: Any,
) -> GameState:
    """A Firefight-phase position on ``kz`` (no CP by default: no Command Re-roll windows)."""
    return position(kz, roster(RED, red), roster(BLU, blu), operatives=operatives, cp=cp, **kw)


def play(
    state: GameState, actions: Sequence[str], dice: Sequence[str] = ()
) -> tuple[GameState, list[Event]]:
    """:func:`engine.game.scenario.run` with strict scripted dice."""
    return run(state, actions, dice)


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def of_kind(events: Iterable[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def legal_verbs(state: GameState) -> set[str]:
    return {a.verb for a in state.legal_actions()}


def with_destinations(state: GameState) -> list[Action]:
    """The listed actions with each header (a move, ``Reposition KAS-1``, or a Shoot, ``Shoot
    KAS-1``) replaced by what the decision it opens lists (the header applied, then listed;
    ``Back`` left out): the complete moves and shots, as tests that look for a destination,
    a weapon or a target need them."""
    out: list[Action] = []
    for a in state.legal_actions():
        if (a.verb in MOVE_VERBS and a.point is None) or is_attack_header(a):
            after = state.apply(a)[0]
            out += [d for d in after.legal_actions() if d.verb != "Back"]
        else:
            out.append(a)
    return out


def with_attacks(state: GameState) -> list[Action]:
    """The listed actions with each Shoot header (``Shoot KAS-1``) replaced by what the
    ``attack_target`` decision it opens lists (the header applied, then listed): the
    complete shots, as tests that look for a weapon or a target need them (move headers
    left as they are)."""
    out: list[Action] = []
    for a in state.legal_actions():
        out += state.apply(a)[0].legal_actions() if is_attack_header(a) else [a]
    return out


def attack_texts(state: GameState) -> list[str]:
    """:func:`with_attacks` in the notation."""
    return [str(a) for a in with_attacks(state)]


OPTIONS_PICKUP = GameOptions(objectives_pickup=True)
