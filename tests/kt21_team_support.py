"""Shared fixtures of the KT21 team rule tests (``tests/test_team_kt21_kasrkin.py``,
``tests/test_team_kt21_legionaries.py``): the built-in KT21 teams on the LAB killzone of
``tests/test_game_rules_common`` (open lane y 13-16; objective marker "obj" at (20, 14.5)).

Ids: player A's Legionaries ``LEG-1`` Aspiring Champion (plasma pistol, tainted chainsword),
``LEG-2`` Butcher, ``LEG-3`` Shrivetalon, ``LEG-4`` Icon Bearer (boltgun, fists), ``LEG-5``
Balefire Acolyte, ``LEG-6`` Warrior (boltgun, fists); the Kasrkin default roster ``KAS-1``
Sergeant, ``KAS-2..4`` Gunners (plasma gun, meltagun, hot-shot volley gun), ``KAS-5``
Sharpshooter, ``KAS-6`` Combat Medic, ``KAS-7`` Demo-Trooper, ``KAS-8`` Recon-Trooper,
``KAS-9`` Vox-Trooper, ``KAS-10`` Trooper.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.game import GameOptions, GameState
from engine.game.events import Event
from engine.game.scenario import run
from engine.rulesets import position
from engine.teams.io import load_builtin_team
from engine.teams.model import Roster
from tests.test_game_rules_common import LAB

KT21 = GameOptions(ruleset="kt21")
LEGIONARIES = load_builtin_team("kt21_legionaries")
KASRKIN = load_builtin_team("kt21_kasrkin")
LEG = Roster.from_entries(
    LEGIONARIES,
    (
        "Legionary Aspiring Champion [Plasma pistol + Tainted chainsword]",
        "Legionary Butcher",
        "Legionary Shrivetalon",
        "Legionary Icon Bearer [Boltgun; Fists]",
        "Legionary Balefire Acolyte",
        "Legionary Warrior [Boltgun; Fists]",
    ),
)
LEG_CHOSEN = Roster.from_entries(
    LEGIONARIES,
    (
        "Legionary Chosen [Tainted bolt pistol; Daemon blade]",
        "Legionary Butcher",
        "Legionary Shrivetalon",
        "Legionary Icon Bearer [Boltgun; Fists]",
        "Legionary Balefire Acolyte",
        "Legionary Anointed",
    ),
)
KAS = KASRKIN.default()
LEG_R = 32 / 25.4 / 2
KAS_R = 28 / 25.4 / 2
ENGAGED = LEG_R + KAS_R + 0.5
"""Centre distance of a Legionary and a Kasrkin whose bases are 0.5" apart (within
Engagement Range, 1")."""


def pos(
    operatives: Mapping[str, Mapping[str, Any]],
    a: Roster = LEG,
    b: Roster = KAS,
    **kw: Any,
) -> GameState:
    """A KT21 Firefight position on LAB with the listed operatives placed; no CP unless
    ``cp`` says (so no Command Re-roll window opens)."""
    kw.setdefault("cp", (0, 0))
    return position(LAB, a, b, operatives=operatives, options=KT21, **kw)


def activated(
    operatives: Mapping[str, Mapping[str, Any]], op: str, a: Roster = LEG, **kw: Any
) -> GameState:
    """:func:`pos` with ``op`` activated with an Engage order."""
    return pos(operatives, a, **kw).apply(f"Activate {op} engage")[0]


def play(
    state: GameState, actions: Sequence[str], dice: Sequence[str] = ()
) -> tuple[GameState, list[Event]]:
    """:func:`engine.game.scenario.run` with strict scripted dice."""
    return run(state, actions, dice)


def options(s: GameState) -> set[str]:
    """The legal actions as text."""
    return {str(a) for a in s.legal_actions()}


def of_kind(events: Sequence[Event], kind: str) -> list[Event]:
    """The events of ``kind``."""
    return [e for e in events if e.kind == kind]
