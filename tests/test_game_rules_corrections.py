"""Rule corrections (issue 11, section 4), one test per rule: Accurate in fights (5.2 step 3,
6), the Hit of a Hot roll and of later sequences fixed when the action begins (2.1, decision
7), wounds never below 0 (2.3), and Limited counted per weapon across its profiles (2.2, 6).

The operatives are the test teams of ``test_game_rules_common`` plus four types built here
(all 32 mm bases, Save 4+, APL 2, Move 6"):

===========  ======  ================================================================
type         Wounds  weapons
===========  ======  ================================================================
Duellist     10      Sword 3/4+/3/4 Accurate 1 (melee)
Sentry       5       Dagger 1/4+/2/3 (melee)
Firebrand    6       Hot Blade 3/4+/3/4 Hot (melee); Risky Gun 4/4+/1/1
                     Blast 2", 2" Devastating 3, Hot
Grenadier    10      Launcher (frag) 4/3+/2/3 Limited 1, (krak) 4/3+/4/5 Limited 1
===========  ======  ================================================================
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from engine.cli import main
from engine.dice.fight import fight as exact_fight
from engine.dice.profile import AttackProfile, Fighter
from engine.game import Decision, GameState, IllegalActionError
from engine.game.scenario import run
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
    roster,
    team_data,
)

CLOSE = 2 * R + 0.5  # centres this far apart: bases 0.5" apart (within control range)

SWORD = _weapon("Sword", "melee", _profile(3, "4+", "3/4", "Accurate 1"))
DAGGER = _weapon("Dagger", "melee", _profile(1, "4+", "2/3"))
HOT_BLADE = _weapon("Hot Blade", "melee", _profile(3, "4+", "3/4", "Hot"))
RISKY_GUN = _weapon(
    "Risky Gun", "ranged", _profile(4, "4+", "1/1", 'Blast 2", 2" Devastating 3, Hot')
)
LAUNCHER = _weapon(
    "Launcher",
    "ranged",
    _profile(4, "3+", "2/3", "Limited 1", name="frag"),
    _profile(4, "3+", "4/5", "Limited 1", name="krak"),
)


def _team(team_id: str) -> Team:
    data: dict[str, Any] = team_data(team_id)
    data["operatives"] += [
        _operative("Duellist", [SWORD]),
        _operative("Sentry", [DAGGER], wounds=5),
        _operative("Firebrand", [HOT_BLADE, RISKY_GUN], wounds=6),
        _operative("Grenadier", [LAUNCHER]),
    ]
    return team_from_dict(data, team_id)


RED, BLU = _team("red"), _team("blu")
# Index i -> id RED-(i+1) / BLU-(i+1).
TYPES = ("Trooper", "Duellist", "Sentry", "Firebrand", "Grenadier")


def pos(operatives: dict[str, dict[str, Any]]) -> GameState:
    """A Firefight-phase position on LAB, no CP (no Command Re-roll windows)."""
    return position(LAB, roster(RED, TYPES), roster(BLU, TYPES), operatives=operatives, cp=(0, 0))


def wounds(s: GameState, op: str) -> int:
    return s.operative(op).wounds


# -------------------------------------------------------------------------------------------
# Accurate x in the Fight sequence (5.2 step 3: "successes retained as in shooting"; 6)
# -------------------------------------------------------------------------------------------


def duel() -> GameState:
    """RED-2 (Duellist, Sword) activated 0.5" from BLU-3 (Sentry, Dagger, 5 wounds)."""
    s = pos({"RED-2": {"at": (15, 14)}, "BLU-3": {"at": (15 + CLOSE, 14)}})
    return s.apply("Activate RED-2 engage")[0]


def test_6_accurate_in_a_fight_retains_dice_unrolled() -> None:
    # Sword: 3 attack dice, Accurate 1: one is retained as a normal success without rolling,
    # so only 2 are rolled; two 1s still leave that one normal success (3 damage). (How many
    # is A's choice, test_game_rules_choices: here it retains the one it may.)
    s, _ = run(duel(), ["Fight RED-2 sword at BLU-3", "Accurate 1"], [])
    assert s.node.request.dice == 2  # type: ignore[union-attr]
    s, ev = run(s, [], ["1,1", "1"])
    (mine, theirs) = of_kind(ev, "attack_retained")
    assert (mine["op"], mine["normals"], mine["crits"]) == ("RED-2", 1, 0)
    assert (theirs["normals"], theirs["crits"]) == (0, 0)
    s, _ = s.apply("Strike normal")
    assert wounds(s, "BLU-3") == 5 - 3


def _strike(s: GameState) -> GameState:
    """The dice core's ``strike`` policy at a resolve decision: crits first."""
    legal = {str(a) for a in s.legal_actions()}
    return s.apply("Strike crit" if "Strike crit" in legal else "Strike normal")[0]


def test_6_accurate_in_a_fight_game_and_calc_fight_agree(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Every roll of the game's fight (2 Sword dice, 1 Dagger die: 216 equally likely rolls),
    # both sides striking crits first, against the dice core that ``killteam calc fight
    # --rules "Accurate 1"`` prints with ``--policy strike``. The joint distribution of the
    # damage each side takes must be the same, die for die.
    start, _ = run(duel(), ["Fight RED-2 sword at BLU-3", "Accurate 1"], [])
    counts: Counter[tuple[int, int]] = Counter()
    for a in itertools.product(range(1, 7), repeat=2):
        for d in range(1, 7):
            s, _ = run(start, [], [",".join(map(str, a)), str(d)])
            while isinstance(s.node, Decision) and s.node.kind == "resolve":
                s = _strike(s)
            counts[(10 - wounds(s, "RED-2"), 5 - wounds(s, "BLU-3"))] += 1
    game = {k: Fraction(v, 216) for k, v in counts.items()}
    core = exact_fight(
        Fighter(AttackProfile(3, 4, 3, 4, "Accurate 1"), 10),
        Fighter(AttackProfile(1, 4, 2, 3), 5),
        policy="strike",
    )
    assert game == {k: p for k, p in core.joint.to_fractions().items() if p}
    # And the command line prints those numbers: the damage each side takes.
    args = ["calc", "fight", "-a", "3", "--hit", "4+", "-d", "3/4", "--rules", "Accurate 1"]
    args += ["-w", "10", "--enemy-attacks", "1", "--enemy-hit", "4+", "--enemy-damage", "2/3"]
    args += ["--enemy-wounds", "5", "--policy", "strike", "--json"]
    assert main(args) == 0
    printed = json.loads(capsys.readouterr().out)
    for side, i in (("attacker", 0), ("defender", 1)):
        taken: Counter[int] = Counter()
        for k, n in counts.items():
            taken[k[i]] += n
        assert printed[side]["damage_taken_pmf"] == pytest.approx(
            {str(d): n / 216 for d, n in sorted(taken.items())}, abs=1e-12
        )
    # Hand check of one figure: BLU-3 (5 wounds) is incapacitated exactly when RED-2 has 2
    # or more successes (3 + 3 >= 5; RED-2 strikes first and BLU-3's single 2/3 damage
    # strike cannot stop it): the unrolled one plus at least one of its 2 dice showing 4+,
    # 1 - (1/2)^2 = 3/4. Without Accurate (3 dice rolled) it would be 1/2.
    assert sum(p for (_, b), p in game.items() if b >= 5) == Fraction(3, 4)


# -------------------------------------------------------------------------------------------
# Hit fixed when the action begins (2.1; decision 7: a stat change during an action applies
# once that action is complete) - Hot (6) and later sequences
# -------------------------------------------------------------------------------------------


def test_2_1_hot_in_a_fight_uses_the_hit_from_the_start_of_the_action() -> None:
    # RED-4 (Firebrand: 6 starting wounds, 5 left, not injured; Hot Blade Hit 4+) fights
    # BLU-1 (Knife 3/3+/2/3). BLU-1's crit strike (3 damage) leaves RED-4 at 2 wounds:
    # injured (fewer than half of 6), which worsens its Hit to 5+, but only after the
    # action. The Hot roll of 4 is compared with the Hit of 4+ the fight began with: not
    # below it, no damage (against 5+ it would deal 2 x 4 = 8 and incapacitate RED-4).
    s = pos({"RED-4": {"at": (15, 14), "wounds": 5}, "BLU-1": {"at": (15 + CLOSE, 14)}})
    s, _ = s.apply("Activate RED-4 engage")
    s, _ = run(s, ["Fight RED-4 hot blade at BLU-1", "Strike normal"], ["4,1,1", "6,1,1"])
    s, _ = s.apply("Strike crit")
    assert wounds(s, "RED-4") == 2
    s, ev = run(s, [], ["4"])
    assert [e["values"] for e in of_kind(ev, "dice_rolled")] == [(4,)]
    assert wounds(s, "RED-4") == 2 and s.operative("RED-4").alive
    # The injury does apply after the action: its next attack hits on 5+.
    s2 = pos({"RED-4": {"at": (15, 14), "wounds": 2}, "BLU-1": {"at": (15 + CLOSE, 14)}})
    s2, _ = s2.apply("Activate RED-4 engage")
    s2, ev = run(s2, ["Fight RED-4 hot blade at BLU-1"], ["4,4,1", "1,1,1"])
    assert of_kind(ev, "attack_retained")[0]["normals"] == 0


def test_2_1_shooting_injury_during_the_action_changes_neither_hit_nor_hot() -> None:
    # RED-4 (6 starting wounds, 5 left: not injured) shoots the Risky Gun (Hit 4+, 1/1,
    # Blast 2", 2" Devastating 3, Hot) at BLU-1 1.5" from it; BLU-2 is 1.5" beyond BLU-1 (a
    # Blast secondary). The crit in the first sequence deals 3 to BLU-1 and, 2" Devastating,
    # to RED-4 itself (1.5" from BLU-1): 5 - 3 = 2 wounds, injured (fewer than half of 6).
    # The second sequence still hits on 4+ (the two 4s are successes; against 5+ they would
    # fail) and the Hot roll of 4 is not below 4+: no damage (against 5+: 8, incapacitated).
    gap = 2 * R + 1.5
    s = pos(
        {
            "RED-4": {"at": (15, 14), "wounds": 5},
            "BLU-1": {"at": (15 + gap, 14)},
            "BLU-2": {"at": (15 + 2 * gap, 14)},
        }
    )
    s, _ = s.apply("Activate RED-4 engage")
    s, ev = run(
        s,
        ["Shoot RED-4 risky gun at BLU-1"],
        ["6,1,1,1", "1,1,1", "4,4,1,1", "1,1,1", "4"],
    )
    assert wounds(s, "RED-4") == 2
    retained = of_kind(ev, "attack_retained")
    assert [(e["target"], e["normals"], e["crits"]) for e in retained] == [
        ("BLU-1", 0, 1),
        ("BLU-2", 2, 0),
    ]
    # BLU-2, 1.5" from BLU-1, also took the 2" Devastating 3; then two unblocked normals.
    assert wounds(s, "BLU-2") == 10 - 3 - 2


# -------------------------------------------------------------------------------------------
# Wounds never below 0 (2.3)
# -------------------------------------------------------------------------------------------


def test_2_3_wounds_never_go_below_0_the_event_keeps_the_damage() -> None:
    # BLU-3 (Sentry, 5 wounds) takes two Sword crits (4 each, 8 in all): 5 - 4 = 1, then 4
    # more leaves 0 wounds, not -3; the event still reports the 4 damage inflicted.
    s, _ = duel().apply("Fight RED-2 sword at BLU-3")
    s, ev = run(s, ["Accurate 0", "Strike crit", "Strike crit"], ["6,6,1", "1"])
    hits = of_kind(ev, "damage_inflicted")
    assert [(e["damage"], e["wounds"]) for e in hits] == [(4, 1), (4, 0)]
    assert wounds(s, "BLU-3") == 0
    assert not s.operative("BLU-3").alive


# -------------------------------------------------------------------------------------------
# Limited x per weapon across its profiles (2.2: a rule naming the primary name covers all)
# -------------------------------------------------------------------------------------------


def test_2_2_limited_counts_per_weapon_across_its_profiles() -> None:
    # Launcher (frag) and Launcher (krak) are two profiles of one Limited 1 weapon: once
    # either is used, RED-5 no longer has the Launcher, neither profile.
    s = pos({"RED-5": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}, "BLU-2": {"at": (27, 4)}})
    s, _ = run(
        s,
        ["Activate RED-5 engage", "Shoot RED-5 launcher (frag) at BLU-1", "End activation"],
        ["1,1,1,1", "1,1,1"],
    )
    assert s.operative("RED-5").limited == (("launcher", 1),)
    s, _ = run(s, ["Activate BLU-2 engage", "End activation", "Counteract RED-5"])
    for profile in ("frag", "krak"):
        with pytest.raises(IllegalActionError, match=r"Limited 1"):
            s.apply(f"Shoot RED-5 launcher ({profile}) at BLU-1")
    assert not [a for a in s.legal_actions() if a.verb == "Shoot"]
