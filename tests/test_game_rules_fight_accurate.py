"""Accurate x in the Fight sequence (``rules/KT24.md`` 5.2 step 3, 6 Accurate x: "retain up
to x attack dice as normal successes without rolling"): how many is each side's player's
choice, the attacker's first, then the defender's for its retaliating weapon, both before
either side rolls (the table in the :mod:`engine.game.attacks` docstring). For each: (a) the
decision goes to the right player with the right options, (b) none when it cannot matter,
(c) each option's effect, (d) the heuristic agent's pick where the better option is clear.

Teams: the LAB test teams (``tests/test_game_rules_common.py``) with three more types on
both sides (32 mm bases, Save 4+, 10 wounds); rosters are Trooper, Fencer, Crit Fencer,
Marksman, so ids RED-1 .. RED-4 and BLU-1 .. BLU-4 in that order. CP are 0: no Command
Re-roll window opens.

===========  ===================================================================
type         weapons
===========  ===================================================================
Trooper      Gun 4/3+/3/4, Knife 3/3+/2/3 (melee)
Fencer       Blade 4/3+/3/4 Accurate 1 (melee)
Crit Fencer  Crit Blade 2/2+/1/10 Accurate 1, Lethal 2+ (melee)
Marksman     Long Rifle 4/3+/3/4 Accurate 1 (ranged; no melee weapon)
===========  ===================================================================
"""

from __future__ import annotations

from typing import Any

from engine.agents import HeuristicAgent
from engine.game import Decision, GameState
from engine.game.actions import parse_action
from engine.rulesets import position
from engine.teams.io import team_from_dict
from engine.teams.model import Team
from tests.test_game_rules_common import (
    LAB,
    R,
    _operative,
    _profile,
    _weapon,
    of_kind,
    play,
    roster,
    team_data,
)

H = HeuristicAgent()
CLOSE = 2 * R + 0.5  # centres this far apart: bases 0.5" apart (within control range)
TYPES = ("Trooper", "Fencer", "Crit Fencer", "Marksman")


def _team(team_id: str) -> Team:
    data: dict[str, Any] = team_data(team_id)
    data["operatives"] += [
        _operative("Fencer", [_weapon("Blade", "melee", _profile(4, "3+", "3/4", "Accurate 1"))]),
        _operative(
            "Crit Fencer",
            [_weapon("Crit Blade", "melee", _profile(2, "2+", "1/10", "Accurate 1, Lethal 2+"))],
        ),
        _operative(
            "Marksman", [_weapon("Long Rifle", "ranged", _profile(4, "3+", "3/4", "Accurate 1"))]
        ),
    ]
    return team_from_dict(data, team_id)


RED, BLU = _team("red"), _team("blu")


def fight(attacker: str, weapon: str, defender: str) -> GameState:
    """``attacker`` activated 0.5" from ``defender`` and fighting it with ``weapon``; A's
    turn for a RED attacker, B's for a BLU one."""
    ops = {attacker: {"at": (15, 14)}, defender: {"at": (15 + CLOSE, 14)}}
    turn = "A" if attacker.startswith("RED") else "B"
    s = position(LAB, roster(RED, TYPES), roster(BLU, TYPES), operatives=ops, cp=(0, 0), turn=turn)
    s, _ = play(s, [f"Activate {attacker} engage", f"Fight {attacker} {weapon} at {defender}"])
    return s


def options(s: GameState) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def dice_requested(s: GameState) -> int:
    return s.node.request.dice  # type: ignore[union-attr,no-any-return]


def retained(ev: list[Any]) -> list[tuple[str, int, int]]:
    """``(op, normals, crits)`` of each ``attack_retained`` event (attacker first)."""
    return [(e["op"], e["normals"], e["crits"]) for e in of_kind(ev, "attack_retained")]


# -------------------------------------------------------------------------------------------
# (a) offered to the right player, with the right options, before any die is rolled
# -------------------------------------------------------------------------------------------


def test_5_2_accurate_attacker_chooses_before_rolling() -> None:
    # RED-2's Blade has Accurate 1 and 4 attacks: A chooses 0 or 1 dice, before any roll.
    s = fight("RED-2", "blade", "BLU-1")
    assert s.node == Decision("A", "accurate")
    assert options(s) == ["Accurate 0", "Accurate 1"]
    # BLU-1's Knife has no Accurate: no decision for B, the attack roll comes next.
    assert dice_requested(s.apply("Accurate 1")[0]) == 4 - 1


def test_5_2_accurate_defender_chooses_for_its_retaliating_weapon() -> None:
    # B's BLU-1 (Knife, no Accurate) fights RED-2 (Blade, Accurate 1): A, the defender's
    # player, chooses for RED-2's retaliation; nothing has been rolled yet.
    s = fight("BLU-1", "knife", "RED-2")
    assert s.node == Decision("A", "accurate")
    assert options(s) == ["Accurate 0", "Accurate 1"]
    assert of_kind(play(s, [])[1], "dice_rolled") == []


def test_5_2_accurate_attacker_first_then_defender_then_both_roll() -> None:
    # Blade against Blade: A chooses for RED-2, then B for BLU-2, then RED-2 rolls 4 - 1 = 3
    # dice and BLU-2 4 - 0 = 4.
    s = fight("RED-2", "blade", "BLU-2")
    assert s.node == Decision("A", "accurate")
    s, _ = s.apply("Accurate 1")
    assert s.node == Decision("B", "accurate")
    assert options(s) == ["Accurate 0", "Accurate 1"]
    s, _ = s.apply("Accurate 0")
    assert dice_requested(s) == 3
    s, _ = play(s, [], ["1,1,1"])
    assert dice_requested(s) == 4


# -------------------------------------------------------------------------------------------
# (b) not offered when it cannot matter: x = 0 (no Accurate), or no retaliation
# -------------------------------------------------------------------------------------------


def test_5_2_accurate_not_offered_without_accurate() -> None:
    # Knife against Knife: no Accurate on either side, the attacker's 3 dice are rolled at
    # once and then the defender's 3.
    s = fight("RED-1", "knife", "BLU-1")
    assert dice_requested(s) == 3
    s, _ = play(s, [], ["1,1,1"])
    assert dice_requested(s) == 3


def test_5_2_accurate_not_offered_to_a_defender_that_cannot_retaliate() -> None:
    # BLU-4 has only a ranged weapon (its Accurate does not apply in a fight): it does not
    # retaliate (5.2), so after A's choice only RED-2's 3 dice are rolled, and nothing else.
    s = fight("RED-2", "blade", "BLU-4")
    assert s.node == Decision("A", "accurate")
    s, ev = play(s, ["Accurate 1"], ["1,1,1"])
    assert retained(ev) == [("RED-2", 1, 0)]


# -------------------------------------------------------------------------------------------
# (c) each option's effect
# -------------------------------------------------------------------------------------------


def test_5_2_accurate_each_option_applies_in_a_fight() -> None:
    # Accurate 1: one normal retained unrolled, 3 dice rolled (1,1,1: all fail): 1 normal.
    _, ev = play(fight("RED-2", "blade", "BLU-1"), ["Accurate 1"], ["1,1,1", "1,1,1"])
    assert retained(ev) == [("RED-2", 1, 0), ("BLU-1", 0, 0)]
    # Accurate 0: all 4 dice rolled (1,1,1,1): nothing retained by either side.
    _, ev = play(fight("RED-2", "blade", "BLU-1"), ["Accurate 0"], ["1,1,1,1", "1,1,1"])
    assert retained(ev) == [("RED-2", 0, 0), ("BLU-1", 0, 0)]
    # Accurate 0 with 6,6,3,1: 2 crits and a normal (Hit 3+), where Accurate 1 with 6,6,3
    # gives one more normal: 2 crits and 2 normals.
    _, ev = play(fight("RED-2", "blade", "BLU-1"), ["Accurate 0"], ["6,6,3,1", "1,1,1"])
    assert retained(ev)[0] == ("RED-2", 1, 2)
    _, ev = play(fight("RED-2", "blade", "BLU-1"), ["Accurate 1"], ["6,6,3", "1,1,1"])
    assert retained(ev)[0] == ("RED-2", 2, 2)


def test_5_2_accurate_the_defenders_option_applies_to_its_dice() -> None:
    # RED-2 retains 1 (3 dice: 1,1,1 fail), BLU-2 retains 1 too (3 dice: 1,1,1 fail): one
    # unrolled normal each; with BLU-2's Accurate 0 its 4 rolled 1s retain nothing.
    s = fight("RED-2", "blade", "BLU-2")
    _, ev = play(s, ["Accurate 1", "Accurate 1"], ["1,1,1", "1,1,1"])
    assert retained(ev) == [("RED-2", 1, 0), ("BLU-2", 1, 0)]
    _, ev = play(s, ["Accurate 1", "Accurate 0"], ["1,1,1", "1,1,1,1"])
    assert retained(ev) == [("RED-2", 1, 0), ("BLU-2", 0, 0)]


# -------------------------------------------------------------------------------------------
# (d) the heuristic agent's pick (exact fight values, engine.dice.fight)
# -------------------------------------------------------------------------------------------


def test_5_2_accurate_heuristic_rolls_for_crits_in_a_fight() -> None:
    # Crit Blade 2/2+/1/10 Lethal 2+: every rolled die but a 1 is a 10-damage crit, a
    # retained one a 1-damage normal. RED-3 strikes first and one crit incapacitates BLU-1
    # (10 wounds) before it can act: Accurate 0 kills with 1 - (1/6)^2 = 35/36, Accurate 1
    # only with the one rolled die, 5/6. The attacker rolls (Accurate 0).
    assert H.act(fight("RED-3", "crit blade", "BLU-1")) == parse_action("Accurate 0")


def test_5_2_accurate_heuristic_retains_a_normal_to_finish_a_wounded_enemy() -> None:
    # BLU-1 has 3 wounds left: any one success of the Blade (3 normal, 4 crit damage) struck
    # first incapacitates it. Accurate 1 makes that certain (a sure normal, struck first);
    # Accurate 0 fails with 4 failed dice, (2/6)^4 = 1/81. The attacker retains (Accurate 1).
    ops = {"RED-2": {"at": (15, 14)}, "BLU-1": {"at": (15 + CLOSE, 14), "wounds": 3}}
    s = position(LAB, roster(RED, TYPES), roster(BLU, TYPES), operatives=ops, cp=(0, 0))
    s, _ = play(s, ["Activate RED-2 engage", "Fight RED-2 blade at BLU-1"])
    assert H.act(s) == parse_action("Accurate 1")
