"""Shared fixtures for the KT18 attack tests (``tests/test_kt18_shooting.py``,
``tests/test_kt18_fight.py``, ``tests/test_kt18_wounds.py``): two small KT18 kill teams
written by hand so every expected value can be worked out from ``rules/KT18.md`` with pencil
and paper, on the LAB killzone of ``tests/test_game_rules_common`` (the open lane is y 13-16;
the wall lane y 17-21.5 has a 5" wall at x 10-11 that blocks sight).

Roster (index i -> RED-(i+1) / BLU-(i+1)): 1 Gunner (BS/WS 3+, S4 T4 W1 Sv 3+; a Rapid Fire
bolter 24", a Heavy 3 heavy bolter, an Assault 2 storm gun, a bolt pistol, a D6 frag grenade,
a Heavy lascannon of D 3, a chainsword), 2 Brute (WS 3+, BS "-", S4 T4 W2 A2 Sv 4+, an
invulnerable 5+ save; a power fist x2 AP -3 D D3), 3 Grot (WS/BS 5+, S2 T2 W1 Sv "-"; a
slugga Pistol), 4 Tough (T8 W3 Sv 6+ Ld 6; no weapon but the default close combat weapon),
5 a second Gunner. Every model has a 25 mm base.

A position here is a KT18 battle (the real ``kt18`` ruleset, Covert War on LAB) made at the
start of a Movement phase, then the phase frame under test is pushed on an empty stack above
:class:`EndFrame` (the end of the test battle), so the frame runs alone, with every KT18
rule installed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from engine.game import GameOptions, GameState
from engine.game.events import Event
from engine.game.flow import advance
from engine.game.frame_skeleton import NoChoiceFrame
from engine.game.scenario import run
from engine.game.state import Effect, Result, Terminal
from engine.game.work import Work
from engine.rulesets import KT18, position
from engine.teams.io import team_from_dict
from engine.teams.model import Roster, Team
from tests.test_game_rules_common import LAB

KT18_OPTIONS = GameOptions(ruleset="kt18")
R25 = 25 / 25.4 / 2  # base radius (inches)


def _weapon(name: str, kt18: dict[str, Any], kind: str = "ranged") -> dict[str, Any]:
    return {"name": name, "kind": kind, "profiles": [{"name": "", "kt18": kt18}]}


def _gun(name: str, rng: int, wtype: str, shots: str, s: str, ap: int, d: str) -> dict[str, Any]:
    return _weapon(
        name, {"range": f'{rng}"', "type": wtype, "shots": shots, "s": s, "ap": ap, "d": d}
    )


def _blade(name: str, s: str, ap: int, d: str) -> dict[str, Any]:
    kt18 = {"range": "Melee", "type": "Melee", "s": s, "ap": ap, "d": d}
    return _weapon(name, kt18, "melee")


def _model(
    name: str, stats: dict[str, Any], weapons: list[dict[str, Any]], w: int = 1
) -> dict[str, Any]:
    return {
        "name": name,
        "keywords": ["TEST", "INFANTRY"],
        "move": '6"',
        "wounds": w,
        "base_mm": 25,
        "kt18": stats,
        "weapons": weapons,
    }


GUNNER_WEAPONS = [
    _gun("Bolter", 24, "Rapid Fire", "1", "4", 0, "1"),
    _gun("Heavy bolter", 36, "Heavy", "3", "5", -1, "1"),
    _gun("Storm gun", 24, "Assault", "2", "4", 0, "1"),
    _gun("Bolt pistol", 12, "Pistol", "1", "4", 0, "1"),
    _gun("Frag grenade", 6, "Grenade", "D6", "3", 0, "1"),
    _gun("Lascannon", 48, "Heavy", "1", "9", -3, "3"),
    _blade("Chainsword", "User", 0, "1"),
]


def team_data(team_id: str) -> dict[str, Any]:
    """The test kill team's file data (module docstring)."""
    return {
        "id": team_id,
        "name": f"KT18 test {team_id}",
        "faction": "TEST",
        "archetypes": [],
        "edition": "kt18",
        "operatives": [
            _model(
                "Gunner",
                {"ws": "3+", "bs": "3+", "s": 4, "t": 4, "a": "1", "ld": 7, "sv": "3+"},
                GUNNER_WEAPONS,
            ),
            _model(
                "Brute",
                {
                    "ws": "3+",
                    "bs": "-",
                    "s": 4,
                    "t": 4,
                    "a": "2",
                    "ld": 7,
                    "sv": "4+",
                    "invulnerable": "5+",
                },
                [_blade("Power fist", "x2", -3, "D3")],
                w=2,
            ),
            _model(
                "Grot",
                {"ws": "5+", "bs": "5+", "s": 2, "t": 2, "a": "1", "ld": 4, "sv": "-"},
                [_gun("Slugga", 12, "Pistol", "1", "4", 0, "1")],
            ),
            _model(
                "Tough",
                {"ws": "4+", "bs": "4+", "s": 4, "t": 8, "a": "D3", "ld": 6, "sv": "6+"},
                [],
                w=3,
            ),
        ],
        "selection": {"size": [1, 20]},
        "default_roster": ["Gunner"],
        "provenance": {"source": "tests"},
    }


RED: Team = team_from_dict(team_data("kt18_red"), "kt18_red")
BLU: Team = team_from_dict(team_data("kt18_blu"), "kt18_blu")
ROSTER = ("Gunner", "Brute", "Grot", "Tough", "Gunner")


@attrs.frozen(slots=True)
class EndFrame(NoChoiceFrame):
    """The end of the test battle: the phase frame under test returned."""

    def run(self, w: Work) -> None:
        """End the battle."""
        w.finish(Terminal(Result(vp=(0, 0), winner="")))


def pos(
    frame: Any,
    operatives: Mapping[str, Mapping[str, Any]],
    *,
    done: Mapping[str, Sequence[str]] | None = None,
    effects: Sequence[Effect] = (),
    initiative: str = "A",
    phase: str = "shooting",
    red: Sequence[str] = ROSTER,
    blu: Sequence[str] = ROSTER,
    wounds: Mapping[str, int] | None = None,
) -> GameState:
    """A KT18 position on LAB with the listed models (``{"at": (x, y)}``), their round's
    tokens ``done``, the ``effects`` in force, and ``frame`` (a phase frame, or any frame)
    run to its first decision or roll."""
    s = position(
        LAB,
        Roster(RED, tuple(red)),
        Roster(BLU, tuple(blu)),
        operatives=operatives,
        options=KT18_OPTIONS,
        phase="movement",
        initiative=initiative,
    )
    assert s.ctx.rules.ruleset is KT18
    w = Work(s)
    for op_id, tokens in (done or {}).items():
        w.set_op(op_id, done=tuple(tokens))
    for op_id, n in (wounds or {}).items():
        w.set_op(op_id, wounds=n)
    w.effects = list(effects)
    w.initiative = initiative
    w.phase = phase
    w.tp = 1
    w.stack = [EndFrame(), frame]
    w.node = None
    w.events = []
    advance(w)
    return w.freeze()


def play(
    state: GameState, actions: Sequence[str], dice: Sequence[str] = ()
) -> tuple[GameState, list[Event]]:
    """:func:`engine.game.scenario.run` with strict scripted dice."""
    return run(state, actions, dice)


def kinds(events: Sequence[Event], kind: str) -> list[Event]:
    """The events of ``kind``."""
    return [e for e in events if e.kind == kind]


def flesh(op_id: str, n: int = 1) -> list[Effect]:
    """``n`` flesh wounds marked on ``op_id`` (6.11)."""
    return [Effect("kt18_flesh_wound", op_id, "end_battle") for _ in range(n)]
