"""The defender allocates its saves (``rules/KT24.md`` 5.1 step 5; :mod:`engine.game.allocation`):
one normal save blocks one normal success, two normal saves block a critical success, a
critical save blocks either; when the choice changes the outcome the defender makes it
(decision ``allocate_saves``), otherwise the engine applies the least-damage allocation.

Positions: the LAB killzone (no terrain between the operatives: every defence die is
rolled, no cover choice). BLU Troopers shoot with Gun 4/3+/3/4 (Atk 4, Hit 3+, Normal Dmg 3,
Critical Dmg 4): an attack die of 6 is a critical success, 3-5 a normal one, 1 a fail. A
defence die of 6 is a critical save and a 1 always fails, whatever the Save.
"""

from __future__ import annotations

import itertools

import attrs
import pytest

import teams.pathfinders  # noqa: F401  (registers the rules)
from engine.advice.allocation import allocation_values
from engine.advice.view import DecisionView
from engine.agents import attack_choices
from engine.dice.shoot import unblocked
from engine.envs.codec import ALLOCATION_WORDS, ActionCodec
from engine.game import GameState, IllegalActionError
from engine.game.actions import (
    Action,
    InvalidActionError,
    format_action,
    parse_action,
)
from engine.game.allocation import Allocation, allocations
from engine.game.scenario import run
from engine.game.state import Decision, Effect
from teams.hierotek_circle.common import UNTIL_NEXT
from tests.test_team_angels_of_death import iron_halo_shot
from tests.test_team_hierotek_circle_faction import GUARDIAN
from tests.test_team_hierotek_circle_faction import lab as hierotek_lab
from tests.test_team_kasrkin import SHOOT_OPEN as KASRKIN_OPEN
from tests.test_team_kasrkin import gambit as kasrkin_gambit
from tests.test_team_kasrkin import to_firefight as kasrkin_to_firefight
from tests.test_team_kommandos_ploys import BOY, shot_at
from tests.test_team_pathfinders_core import MV4, SHAS_LA, SHIELD, decline, lab, texts


def shot_at_pat_1(s: GameState, hits: str, saves: str) -> GameState:
    """B's BLU-1 shoots PAT-1 with its gun: attack dice ``hits``, defence dice ``saves``;
    stops at the first decision after the defence roll that is not an empty ploy window."""
    s, _ = run(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at PAT-1"], dice=[hits])
    s, _ = run(decline(s), [], dice=[saves])
    return decline(s)


def wounds(s: GameState, op: str) -> int:
    return s.operative(op).wounds


# -- core: the critical save --------------------------------------------------------------


def test_critical_save_blocks_the_crit_or_a_normal_the_defender_chooses() -> None:
    """5.1 step 5: "1 crit blocks 1 normal or 1 crit". Hits 6,5,1,1: one crit (4 damage)
    and one normal (3 damage); saves 6,1,1: one critical save. Blocking the crit lets 3
    damage through, blocking the normal 4: the outcomes differ, so B chooses; the
    least-damage allocation is listed first (the one the engine applied before)."""
    s = shot_at_pat_1(lab([SHAS_LA], SHIELD, turn="B", initiative="B"), "6,5,1,1", "6,1,1")
    assert s.node == Decision("A", "allocate_saves")
    assert texts(s) == ["Allocate saves crit>crit", "Allocate saves crit>normal"]
    before = wounds(s, "PAT-1")
    blocked_crit, _ = s.apply("Allocate saves crit>crit")
    blocked_normal, _ = s.apply("Allocate saves crit>normal")
    assert before - wounds(decline(blocked_crit), "PAT-1") == 3
    assert before - wounds(decline(blocked_normal), "PAT-1") == 4


def test_no_allocation_choice_when_every_allocation_incapacitates_the_target() -> None:
    """Same dice as above against PAT-1 with 2 wounds left: 3 or 4 damage both
    incapacitate it, so the allocations do not differ in effect and nobody is asked."""
    ops = {**SHIELD, "PAT-1": {"at": (16, 14.5), "wounds": 2}}
    s = shot_at_pat_1(lab([SHAS_LA], ops, turn="B", initiative="B"), "6,5,1,1", "6,1,1")
    assert not (isinstance(s.node, Decision) and s.node.kind == "allocate_saves")
    assert not s.operative("PAT-1").alive or s.operative("PAT-1").incapacitated


def test_no_allocation_choice_when_a_single_allocation_is_possible() -> None:
    """Hits 5,5,1,1: two normal successes; saves 6,1,1: one critical save. Whichever
    normal it blocks, one normal (3 damage) gets through: one outcome, no decision."""
    s = shot_at_pat_1(lab([SHAS_LA], SHIELD, turn="B", initiative="B"), "5,5,1,1", "6,1,1")
    assert not (isinstance(s.node, Decision) and s.node.kind == "allocate_saves")


def test_illegal_allocation_is_rejected_and_the_state_is_unchanged() -> None:
    """At the decision above (one critical save), two crit>crit blocks need two critical
    saves, ``none`` leaves a save idle that could block (5.1 step 5: every save is
    allocated) and a Cover save is no answer: each raises IllegalActionError naming the
    rule section, and the state (its hash) is the same afterwards."""
    s = shot_at_pat_1(lab([SHAS_LA], SHIELD, turn="B", initiative="B"), "6,5,1,1", "6,1,1")
    before = s.hash()
    for bad in ("Allocate saves crit>crit crit>crit", "Allocate saves none", "Cover save normal"):
        with pytest.raises(IllegalActionError, match=r"5\.1 step 5"):
            s.apply(bad)
        assert not s.is_legal(bad)
    assert s.hash() == before


# -- team rules for which the allocation matters --------------------------------------------


def test_shield_generator_two_normal_saves_on_the_crit_leave_a_normal_to_ignore() -> None:
    """Shield Generator (MV4): once per turning point, the Normal Dmg of one attack die on it
    may be ignored (never Critical Dmg). Hits 6,5,5,1: one crit (4) and two normals (3 each);
    saves 4,4,1 against Save 4+: two normal saves. Blocking both normals lets the crit
    through: 4 damage the shield cannot touch (7 -> 3 wounds). Blocking the crit with both
    saves lets 3 + 3 through, one of which the shield ignores: 3 damage (7 -> 4). The core's
    least damage (4 < 6) is the worse choice here, so B is asked, and the heuristic (valuing
    each allocation as resolved by the rules) picks the crit."""
    s = shot_at_pat_1(lab([MV4], SHIELD, turn="B", initiative="B"), "6,5,5,1", "4,4,1")
    assert s.node == Decision("A", "allocate_saves")
    assert texts(s) == [
        "Allocate saves normal>normal normal>normal",
        "Allocate saves normals>crit",
    ]
    values = {str(v.action): v.damage for v in allocation_values(DecisionView(s))}
    assert values == {
        "Allocate saves normal>normal normal>normal": 4.0,
        "Allocate saves normals>crit": 3.0,
    }
    pick = attack_choices.allocate_saves(DecisionView(s), "A", list(s.legal_actions()))
    assert str(pick) == "Allocate saves normals>crit"
    shielded, _ = run(s, [pick, "Use shield generator"])
    assert wounds(decline(shielded), "PAT-1") == 4
    unshielded, _ = s.apply("Allocate saves normal>normal normal>normal")
    assert wounds(decline(unshielded), "PAT-1") == 3


def test_iron_halo_two_normal_saves_on_the_crit_leave_a_normal_to_ignore() -> None:
    """Iron Halo (Space Marine Captain, 15 wounds, Save 3+): once per battle the Normal Dmg
    of one attack die on it may be ignored. KAS-1's plasma pistol (Dmg 3/5) hits 6,5,5,1:
    one crit (5) and two normals (3 each); defence 3,3: two normal saves. Blocking both
    normals: 5 damage (15 -> 10). Blocking the crit: 3 + 3, one ignored by the Halo: 3
    damage (15 -> 12). The allocations differ, so B chooses; the heuristic blocks the
    crit."""
    s = iron_halo_shot("6,5,5,1", "3,3")
    s = decline(s)
    assert s.node == Decision("B", "allocate_saves")
    assert texts(s) == [
        "Allocate saves normal>normal normal>normal",
        "Allocate saves normals>crit",
    ]
    pick = attack_choices.allocate_saves(DecisionView(s), "B", list(s.legal_actions()))
    assert str(pick) == "Allocate saves normals>crit"
    haloed, _ = run(s, [pick, "Use iron halo"])
    assert wounds(decline(haloed), "ANG-1") == 12
    plain, _ = s.apply("Allocate saves normal>normal normal>normal")
    assert wounds(decline(plain), "ANG-1") == 10


def test_just_a_scratch_is_offered_when_an_allocation_could_leave_a_normal_unblocked() -> None:
    """Just A Scratch (Kommandos, 1CP): the damage of one normal success on the Kommando is
    ignored; offered in the defence dice window when a normal success could go unblocked.
    Hits 6,5,5,1: one crit (4) and two normals (3 each); saves 5,5,1 (Save 5+): two normal
    saves. The least-damage allocation blocks both normals, but blocking the crit with both
    saves leaves two normals, one of which the ploy ignores: 3 damage instead of 4. The
    defender allocates after the window, so the ploy is offered (1CP spent) and the
    allocation asked; with the crit blocked the Kommando takes 3."""
    s, dmg = shot_at([BOY], "6,5,5,1", "5,5,1", use=True)
    assert s.players[0].cp_spent == 1 and dmg == 0
    assert s.node == Decision("A", "allocate_saves")
    assert texts(s) == [
        "Allocate saves normal>normal normal>normal",
        "Allocate saves normals>crit",
    ]
    pick = attack_choices.allocate_saves(DecisionView(s), "A", list(s.legal_actions()))
    assert str(pick) == "Allocate saves normals>crit"
    _, ev = s.apply(pick)
    taken = [e["damage"] for e in ev if e.kind == "damage_inflicted" and e["op"] == "KOM-1"]
    assert taken == [3]


def test_reinforce_metal_values_each_allocation_with_the_reduced_damage() -> None:
    """Reinforce Metal (Hierotek Technomancer): an attack die inflicting 3 or more damage on
    the reinforced operative inflicts 1 less. BLU-1's gun hits 6,5,1,1 (one crit of 4, one
    normal of 3) on the reinforced Immortal (HIE-2); saves 6,1,1: one critical save. Blocking
    the crit leaves the normal: 3 - 1 = 2 damage; blocking the normal leaves the crit: 4 - 1
    = 3. A chooses, and each allocation is valued with the reduction (2 and 3, not 3 and 4)."""
    ops = {"HIE-1": {"at": (3, 14)}, "HIE-2": {"at": (6, 14)}, "BLU-1": {"at": (16, 14)}}
    s = hierotek_lab(["Technomancer", GUARDIAN], ops, turn="B")
    token = Effect(UNTIL_NEXT, "HIE-2", "end_battle", source="HIE-1", detail="reinforce_metal")
    s = attrs.evolve(s, effects=(*s.effects, token))
    s, _ = run(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at HIE-2"], dice=["6,5,1,1"])
    s, _ = run(decline(s), [], dice=["6,1,1"])
    s = decline(s)
    assert s.node == Decision("A", "allocate_saves")
    values = {str(v.action): v.damage for v in allocation_values(DecisionView(s))}
    assert values == {"Allocate saves crit>crit": 2.0, "Allocate saves crit>normal": 3.0}
    before = wounds(s, "HIE-2")
    after, _ = s.apply("Allocate saves crit>normal")
    assert before - wounds(after, "HIE-2") == 3


def test_ice_in_your_veins_values_the_allocation_that_leaves_the_normal() -> None:
    """Skill At Arms, Ice In Your Veins (Kasrkin): the first attack die inflicting Normal
    Dmg of 3 or more on the Kasrkin in a shooting sequence inflicts 1 less. BLU-1's gun hits
    6,5,1,1 (a crit of 4, a normal of 3) on KAS-1; saves 6,1,1: one critical save. Blocking
    the crit leaves the normal: 3 - 1 = 2 damage; blocking the normal leaves the crit: 4
    (Critical Dmg is not reduced). A, the defender, chooses; the valuation and the damage
    follow the drill."""
    s = kasrkin_gambit(KASRKIN_OPEN, initiative="A")
    s, _ = s.apply("Use skill at arms ice in your veins")
    s = kasrkin_to_firefight(s)
    s, _ = run(s, ["Activate KAS-1 engage", "End activation", "Activate BLU-1 engage"])
    s, _ = run(s, ["Shoot BLU-1 gun at KAS-1"], dice=["6,5,1,1"])
    s, _ = run(decline(s), [], dice=["6,1,1"])
    s, _ = s.apply("Decline")  # no Command Re-roll
    assert s.node == Decision("A", "allocate_saves")
    values = {str(v.action): v.damage for v in allocation_values(DecisionView(s))}
    assert values == {"Allocate saves crit>crit": 2.0, "Allocate saves crit>normal": 4.0}
    _, ev = s.apply("Allocate saves crit>crit")
    assert [e["damage"] for e in ev if e.kind == "damage_inflicted"] == [2]


# -- the notation and the codec -----------------------------------------------------------


def test_allocation_notation_round_trips_in_canonical_order() -> None:
    """Every allocation the codec holds formats and parses back to itself; blocks written in
    another order or case parse to the canonical order (the same action); a word that is
    not a block is not an action."""
    for words in ALLOCATION_WORDS:
        a = Action("Allocate saves", text=words)
        assert parse_action(format_action(a)) == a
    a = parse_action("allocate saves NORMAL>normal crit>crit")
    assert format_action(a) == "Allocate saves crit>crit normal>normal"
    for bad in ("Allocate saves", "Allocate saves crit>none", "Allocate saves none crit>crit"):
        with pytest.raises(InvalidActionError):
            parse_action(bad)


def test_allocation_decision_is_encoded_by_the_codec() -> None:
    """The action codec gives each listed allocation a distinct index that decodes back to
    it (the ``allocate`` family)."""
    s = shot_at_pat_1(lab([MV4], SHIELD, turn="B", initiative="B"), "6,5,5,1", "4,4,1")
    codec = ActionCodec.for_state(s)
    listed = list(s.legal_actions())
    indices = [codec.encode(s, a) for a in listed]
    assert len(set(indices)) == len(listed)
    assert [codec.decode(s, i) for i in indices] == listed


# -- the allocations the rules allow, and the dice core's assumption ------------------------


def test_allocations_every_save_that_can_block_blocks() -> None:
    """5.1 step 5 "allocates all": with one normal and one crit retained and two normal
    saves, one blocks the normal (the other cannot block a crit alone) or both block the
    crit. With Brutal (6) only the critical save blocks, the crit or the normal. One
    critical save against two normals blocks one of them (one outcome). One normal save
    against a lone crit blocks nothing."""
    assert [a.left(1, 1) for a in allocations(1, 1, 2, 0, False)] == [(0, 1), (1, 0)]
    assert allocations(1, 1, 2, 1, True) == [
        Allocation(crit_on_crit=1),
        Allocation(crit_on_normal=1),
    ]
    assert [a.left(2, 0) for a in allocations(2, 0, 0, 1, False)] == [(1, 0)]
    assert allocations(0, 1, 1, 0, False) == [Allocation()]


def test_dice_core_assumes_the_least_damage_allocation_the_decision_lists_first() -> None:
    """``killteam calc`` and the dice core (:func:`engine.dice.shoot.unblocked`) assume the
    defender allocates for the least damage; under the core rules (no team rule changing
    damage) that is the best of the allocations the decision offers: for every small case
    the damage of ``unblocked`` equals the least damage over :func:`allocations`, and it is
    the damage of an allocation the rules allow."""
    for n, c, ns, cs, nd, cd, brutal in itertools.product(
        range(4), range(4), range(4), range(3), range(1, 6), range(1, 7), (False, True)
    ):
        un, uc = unblocked(n, c, ns, cs, nd, cd, brutal)
        options = [a.left(n, c) for a in allocations(n, c, ns, cs, brutal)]
        least = min(x * nd + y * cd for x, y in options)
        assert un * nd + uc * cd == least
        assert (un, uc) in options
