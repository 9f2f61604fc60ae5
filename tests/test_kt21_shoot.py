"""The KT21 shooting attack in play (``rules/KT21.md`` 3.5, 4.4, 8.5, 10, 12): the Shoot
action and the Overwatch, one test per rule. Fixtures and lanes: ``tests/kt21_attack_support``
(Gun A4 BS3+ D3/4; targets DF3 Save 4+ 10 wounds; shooter RED-3 the Gunner at (5, y), target
at (16, y); y = 14 open, y = 4 the target in Cover behind Light rubble, y = 10 Obscured).
"""

from __future__ import annotations

import pytest

from engine.game import Chance, GameState, IllegalActionError
from engine.game.actions import parse_action
from engine.game.bookkeeping import IN_CR_REFUSED, Listing
from engine.game.flow import advance
from engine.game.work import Work
from engine.geometry.movement import ReachMemo
from engine.rules.kt21.attack_actions import OVERWATCH
from engine.rules.kt21.attack_dice import best_allocation
from tests.kt21_attack_support import CLOSE, activated, of_kind, play, pos, wounds


def open_shot(**extra: dict[str, object]) -> GameState:
    """RED-3 activated at (5, 14), BLU-1 at (16, 14) in the open."""
    ops: dict[str, dict[str, object]] = {"RED-3": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}}
    ops.update(extra)
    return activated(ops)


def shots(s: GameState) -> list[str]:
    return [str(a) for a in s.legal_actions() if a.verb == "Shoot"]


# -- 10.1 the attack and defence dice ------------------------------------------------------


def test_10_1_six_is_critical_one_fails_and_damage_after_best_saves() -> None:
    """Attack 6,5,3,1 at BS3+: one crit (the 6), two normal hits (5, 3), the 1 fails.
    Defence 5,2,1 at Save 4+: one normal save, which blocks a normal hit (it cannot block the
    crit alone). Damage: one normal 3 + one crit 4 = 7, so 10 - 7 = 3 wounds left."""
    s, ev = play(open_shot(), ["Shoot RED-3 gun at BLU-1"], ["roll 6,5,3,1", "roll 5,2,1"])
    assert wounds(s, "BLU-1") == 3
    (kept,) = of_kind(ev, "attack_retained")
    assert (kept["normals"], kept["crits"]) == (2, 1)


def test_10_1_two_normal_saves_block_a_critical_hit() -> None:
    """Attack 6,1,1,1: one crit (4 damage). Defence 5,4,1: two normal saves, which together
    block the critical hit (10.1 step 5): no damage."""
    s, _ = play(open_shot(), ["Shoot RED-3 gun at BLU-1"], ["roll 6,1,1,1", "roll 5,4,1"])
    assert wounds(s, "BLU-1") == 10


def test_10_1_critical_save_blocks_a_critical_hit() -> None:
    """Attack 6,6,1,1: two crits. Defence 6,4,1: a critical save blocks one crit; the single
    normal save cannot block the other: 4 damage, 6 wounds left."""
    s, _ = play(open_shot(), ["Shoot RED-3 gun at BLU-1"], ["roll 6,6,1,1", "roll 6,4,1"])
    assert wounds(s, "BLU-1") == 6


def test_10_1_best_allocation_prefers_the_blocked_crit_when_it_saves_more() -> None:
    """Two normal saves against one normal hit (3) and one crit (4): blocking the crit with
    both saves leaves 3 damage, blocking the normal leaves 4; the defender's best is 3
    (normal 3 left unblocked, 0 crits)."""
    assert best_allocation(1, 1, 3, 4, 2, 0) == (1, 0)
    assert best_allocation(1, 1, 5, 4, 2, 0) == (0, 1)


def test_4_4_injured_shooter_rolls_at_bs_one_worse() -> None:
    """RED-3 has 4 of 10 wounds (fewer than half: injured): BS3+ becomes 4+, so 3,3,3,2 are
    all misses and no defence dice are rolled."""
    s = activated({"RED-3": {"at": (5, 14), "wounds": 4}, "BLU-1": {"at": (16, 14)}})
    s, ev = play(s, ["Shoot RED-3 gun at BLU-1"], ["roll 3,3,3,2"])
    assert of_kind(ev, "attack_retained")[0]["normals"] == 0
    assert wounds(s, "BLU-1") == 10


# -- 10.1 step 4, 10.2, 10.3 defence ---------------------------------------------------------


def test_12_ap1_removes_one_defence_die() -> None:
    """AP1 against DF3: the defender rolls 3 - 1 = 2 dice (the scripted roll must have 2)."""
    s, _ = play(open_shot(), ["Shoot RED-3 ap gun at BLU-1"], ["roll 5,5,5,1", "roll 4,4"])
    # 3 normal hits, 2 normal saves: one hit of 3 left.
    assert wounds(s, "BLU-1") == 7


def test_12_p1_only_with_a_retained_critical_hit() -> None:
    """P1 gives AP1 only if a crit was retained: no crit -> 3 defence dice; a crit -> 2."""
    s, _ = play(open_shot(), ["Shoot RED-3 p gun at BLU-1"], ["roll 5,5,1,1", "roll 4,4,4"])
    assert wounds(s, "BLU-1") == 10
    s, _ = play(open_shot(), ["Shoot RED-3 p gun at BLU-1"], ["roll 6,1,1,1", "roll 1,1"])
    assert wounds(s, "BLU-1") == 6


def test_10_3_invulnerable_save_rolls_full_df_when_at_least_as_good() -> None:
    """BLU-5 (Warded) has Save 4+ and an Invulnerable Save 5+. Against AP2 its Save rolls 1
    die at 4+, its invulnerable 3 dice at 5+: neither is always better, so the defender
    chooses; with the invulnerable save it rolls all 3 dice (AP ignored)."""
    s = activated({"RED-3": {"at": (5, 14)}, "BLU-5": {"at": (16, 14)}})
    s, _ = play(s, ["Shoot RED-3 ap2 gun at BLU-5"], ["roll 5,5,1,1"])
    assert s.node.kind == "invulnerable_save"  # type: ignore[union-attr]
    s, _ = play(s, ["Save invulnerable"], ["roll 5,5,1"])
    assert wounds(s, "BLU-5") == 10  # two saves at 5+ block both normal hits


def test_10_3_no_invulnerable_choice_when_the_save_is_always_better() -> None:
    """Without AP the Save (3 dice at 4+) is at least as good as the invulnerable (3 dice at
    5+) in every case: no decision; the dice are rolled at 4+ (4s save)."""
    s = activated({"RED-3": {"at": (5, 14)}, "BLU-5": {"at": (16, 14)}})
    s, _ = play(s, ["Shoot RED-3 gun at BLU-5"], ["roll 5,5,1,1", "roll 4,4,1"])
    assert wounds(s, "BLU-5") == 10


def cover_shot(weapon: str = "gun") -> GameState:
    """RED-3 at (5, 4) shoots BLU-1 at (16, 4), in Cover behind the Light rubble."""
    s = activated({"RED-3": {"at": (5, 4)}, "BLU-1": {"at": (16, 4)}})
    return s.apply(f"Shoot RED-3 {weapon} at BLU-1")[0]


def test_10_2_cover_save_retains_one_die_unrolled_against_normal_hits() -> None:
    """In Cover with only normal hits, one defence die is a normal save without rolling (never
    worse than rolling it against normal hits): 2 dice are rolled. Hits 5,5,1,1: two normals;
    rolled 1,1 fail; the cover save blocks one: 3 damage."""
    s, ev = play(cover_shot(), [], ["roll 5,5,1,1", "roll 1,1"])
    assert of_kind(ev, "saves_retained")[0]["cover"] == 1
    assert wounds(s, "BLU-1") == 7


def test_10_2_cover_save_is_the_defenders_choice_against_a_critical_hit() -> None:
    """With a crit retained a rolled 6 could block it where the unrolled normal save cannot
    alone: the defender chooses. Declining rolls all 3 dice."""
    s, _ = play(cover_shot(), [], ["roll 6,1,1,1"])
    assert s.node.kind == "kt21_cover_save"  # type: ignore[union-attr]
    s, _ = play(s, ["Cover save none"], ["roll 6,1,1"])
    assert wounds(s, "BLU-1") == 10


def test_12_no_cover_denies_the_cover_save() -> None:
    """No Cover: all 3 defence dice are rolled although the target is in Cover."""
    s, ev = play(cover_shot("no cover gun"), [], ["roll 5,5,1,1", "roll 1,1,1"])
    assert of_kind(ev, "saves_retained")[0]["cover"] == 0
    assert wounds(s, "BLU-1") == 4


def test_dc_16_19_cover_save_with_save_6_is_a_normal_save() -> None:
    """A target whose Save is 6+ (worsened by 2 here) still keeps its cover die as a normal
    save: hits 5,5 (two normals), rolled 5,5 fail at 6+, the cover save blocks one: 3."""
    s = pos(
        {"RED-3": {"at": (5, 4)}, "BLU-1": {"at": (16, 4)}},
        effects=[{"kind": "save", "op": "BLU-1", "until": "end_tp", "value": 2}],
    ).apply("Activate RED-3 engage")[0]
    s, _ = play(s, ["Shoot RED-3 gun at BLU-1"], ["roll 5,5,1,1", "roll 5,5"])
    assert wounds(s, "BLU-1") == 7


# -- 8.5 valid targets -----------------------------------------------------------------------


def test_8_5_obscured_target_is_not_a_valid_target_whatever_its_order() -> None:
    """KT21 Obscured removes the target from Line of Sight (8.3), Engage or not."""
    s = activated({"RED-3": {"at": (5, 10)}, "BLU-1": {"at": (16, 10)}})
    with pytest.raises(IllegalActionError, match=r"Obscured"):
        s.apply("Shoot RED-3 gun at BLU-1")


def test_8_5_conceal_target_in_cover_is_invalid_but_indirect_ignores_cover() -> None:
    """A Conceal target in Cover is not in LoS (8.5); Indirect treats it as not in Cover."""
    s = activated({"RED-3": {"at": (5, 4)}, "BLU-1": {"at": (16, 4), "order": "conceal"}})
    with pytest.raises(IllegalActionError, match=r"Conceal order and is in Cover"):
        s.apply("Shoot RED-3 gun at BLU-1")
    assert s.is_legal("Shoot RED-3 indirect gun at BLU-1")


def test_8_5_target_with_a_friendly_within_its_engagement_range_is_invalid() -> None:
    s = open_shot(**{"RED-1": {"at": (16, 14 + CLOSE)}})
    with pytest.raises(IllegalActionError, match=r"friendly operative \(RED-1\)"):
        s.apply("Shoot RED-3 gun at BLU-1")


def test_12_rng_limits_valid_targets() -> None:
    """Rng 6": BLU-1 11" away is not listed."""
    assert "Shoot RED-3 short gun at BLU-1" not in shots(open_shot())
    assert "Shoot RED-3 gun at BLU-1" in shots(open_shot())


def test_6_1_no_shoot_within_engagement_range() -> None:
    s = activated({"RED-3": {"at": (16 - CLOSE, 14)}, "BLU-1": {"at": (16, 14)}})
    assert shots(s) == []


def test_12_silent_lets_a_conceal_operative_shoot() -> None:
    """Silent: a Conceal operative may Shoot with that weapon (and only with it, 5). TP2:
    from the second turning point the order is chosen as the operative activates (3.1)."""
    ops = {"RED-3": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}}
    s = pos(ops, tp=2).apply("Activate RED-3 conceal")[0]
    assert shots(s) == ["Shoot RED-3 silent gun at BLU-1"]


# -- 12 critical hit rules in the Roll Attack Dice step --------------------------------------


def test_12_lethal_5_plus_makes_fives_critical() -> None:
    s, ev = play(open_shot(), ["Shoot RED-3 lethal gun at BLU-1"], ["roll 5,3,1,1", "roll 1,1,1"])
    kept = of_kind(ev, "attack_retained")[0]
    assert (kept["normals"], kept["crits"]) == (1, 1)
    assert wounds(s, "BLU-1") == 3  # 3 + 4


def test_12_rending_turns_a_normal_hit_critical_with_a_crit() -> None:
    s, ev = play(open_shot(), ["Shoot RED-3 rending gun at BLU-1"], ["roll 6,3,1,1", "roll 1,1,1"])
    kept = of_kind(ev, "attack_retained")[0]
    assert (kept["normals"], kept["crits"]) == (0, 2)
    assert wounds(s, "BLU-1") == 2  # 4 + 4


def test_12_mw2_two_mortal_wounds_per_critical_hit_before_saves() -> None:
    """MW2, two crits: 4 mortal wounds in the attack-roll step (no save); the crits are then
    saved by 6,6 (two critical saves): 10 - 4 = 6."""
    s, ev = play(open_shot(), ["Shoot RED-3 mw gun at BLU-1"], ["roll 6,6,1,1", "roll 6,6,1"])
    assert [e["damage"] for e in of_kind(ev, "damage_inflicted")] == [4]
    assert wounds(s, "BLU-1") == 6


def test_12_splash_hits_every_operative_visible_within_2_inches_of_the_target() -> None:
    """Splash 1, one crit: 1 mortal wound on BLU-1 and on BLU-2 (bases 0.24" apart; any
    operative, friend or foe); BLU-3 (bases 2.74" apart) is untouched."""
    s = open_shot(**{"BLU-2": {"at": (16, 15.5)}, "BLU-3": {"at": (16, 18)}})
    s, _ = play(s, ["Shoot RED-3 splash gun at BLU-1"], ["roll 6,1,1,1", "roll 6,1,1"])
    assert (wounds(s, "BLU-1"), wounds(s, "BLU-2"), wounds(s, "BLU-3")) == (9, 9, 10)


def test_12_stun_shooting_crit_gives_apl_minus_one() -> None:
    s, ev = play(open_shot(), ["Shoot RED-3 stun gun at BLU-1"], ["roll 6,1,1,1", "roll 6,1,1"])
    assert of_kind(ev, "stunned")
    assert any(e.kind == "apl" and e.op == "BLU-1" and e.value == -1 for e in s.effects)


def test_12_hot_three_mortal_wounds_per_one_after_rerolls() -> None:
    """Hot: two attack dice discarded on a 1 -> 6 mortal wounds on the shooter (UNCONFIRMED
    reading 18.10: the 1s left after re-rolls)."""
    s, _ = play(open_shot(), ["Shoot RED-3 hot gun at BLU-1"], ["roll 5,5,1,1", "roll 4,4,4"])
    assert wounds(s, "RED-3") == 4


# -- 12 re-rolls -------------------------------------------------------------------------------


def test_12_ceaseless_rerolls_any_or_all_ones_only() -> None:
    s, _ = play(open_shot(), ["Shoot RED-3 ceaseless gun at BLU-1"], ["roll 5,2,1,1"])
    assert [str(a) for a in s.legal_actions()] == ["Keep", "Re-roll 1", "Re-roll 1,1"]
    with pytest.raises(IllegalActionError, match=r"Ceaseless"):
        s.apply("Re-roll 2")
    s, _ = play(s, ["Re-roll 1,1"], ["roll 6,3"])
    assert isinstance(s.node, Chance)  # no second re-roll: the defence dice come next


def test_12_balanced_rerolls_one_die() -> None:
    s, _ = play(open_shot(), ["Shoot RED-3 balanced gun at BLU-1"], ["roll 5,2,1,1"])
    assert "Re-roll 2" in [str(a) for a in s.legal_actions()]
    with pytest.raises(IllegalActionError):
        s.apply("Re-roll 1,1")


# -- 12 multi-target rules -------------------------------------------------------------------


def test_12_blast_attacks_every_operative_visible_within_x_of_the_target() -> None:
    """Blast 2" (measured between bases, 32 mm bases 1.26" across the centres): BLU-2 (bases
    0.24" apart) and RED-1 (a friend of the shooter, bases 1.24" apart: not within BLU-1's
    Engagement Range, so BLU-1 stays a valid target) are attacked after BLU-1; BLU-3 (bases
    2.74" apart) is not."""
    s = open_shot(
        **{"BLU-2": {"at": (16, 15.5)}, "RED-1": {"at": (18.5, 14)}, "BLU-3": {"at": (16, 18)}}
    )
    s, ev = play(
        s,
        ["Shoot RED-3 blast gun at BLU-1"],
        ["roll 5,1,1,1", "roll 1,1,1", "roll 5,1,1,1", "roll 1,1,1", "roll 5,1,1,1", "roll 1,1,1"],
    )
    hit = [e["op"] for e in of_kind(ev, "damage_inflicted")]
    assert sorted(hit) == ["BLU-1", "BLU-2", "RED-1"]


def test_12_blast_secondaries_cannot_be_in_cover() -> None:
    """BLU-1 and BLU-2 are both behind the Light rubble: the primary keeps its cover save (2
    dice rolled), the Blast secondary cannot be in Cover and rolls all 3 (12 Blast)."""
    s = activated({"RED-3": {"at": (5, 4)}, "BLU-1": {"at": (16, 5.5)}, "BLU-2": {"at": (16, 4)}})
    s, ev = play(
        s,
        ["Shoot RED-3 blast gun at BLU-1"],
        ["roll 5,1,1,1", "roll 1,1", "roll 5,1,1,1", "roll 1,1,1"],
    )
    assert [e["cover"] for e in of_kind(ev, "saves_retained")] == [1, 0]


def test_12_torrent_adds_valid_targets_within_x_in_a_chain() -> None:
    """Torrent 2": BLU-2 is 1.8" from BLU-1, BLU-3 1.8" from BLU-2 (3.6" from BLU-1): BLU-3
    becomes a candidate only once BLU-2 is added (the chain)."""
    s = open_shot(**{"BLU-2": {"at": (16, 15.8)}, "BLU-3": {"at": (16, 17.6)}})
    s, _ = play(s, ["Shoot RED-3 torrent gun at BLU-1"])
    assert {str(a) for a in s.legal_actions()} == {"Done", "Also BLU-2"}
    s, _ = play(s, ["Also BLU-2"])
    assert {str(a) for a in s.legal_actions()} == {"Done", "Also BLU-3"}


def test_12_fusillade_splits_the_attack_dice() -> None:
    """Fusillade: BLU-2 1.5" from BLU-1 is added; the 4 dice are split (BLU-1 at least 1):
    3 on BLU-1, 1 on BLU-2 rolls 3 then 1 attack dice."""
    s = open_shot(**{"BLU-2": {"at": (16, 15.5)}})
    s, _ = play(s, ["Shoot RED-3 fusillade gun at BLU-1"])
    assert "Split 3,1" in [str(a) for a in s.legal_actions()]
    s, _ = play(s, ["Split 3,1"], ["roll 5,1,1", "roll 1,1,1", "roll 5", "roll 1,1,1"])
    assert (wounds(s, "BLU-1"), wounds(s, "BLU-2")) == (8, 8)


def test_4_4_incapacitated_removed_after_all_attacks_of_the_action() -> None:
    """Blast kills the primary (BLU-7, 2 wounds); the secondary is still attacked and the
    primary is removed only after the action."""
    s = activated(
        {"RED-3": {"at": (5, 14)}, "BLU-7": {"at": (16, 14)}, "BLU-2": {"at": (16, 15.5)}}
    )
    s, ev = play(
        s,
        ["Shoot RED-3 blast gun at BLU-7"],
        ["roll 5,1,1,1", "roll 1,1,1", "roll 5,1,1,1", "roll 1,1,1"],
    )
    assert wounds(s, "BLU-2") == 8
    kinds = [e.kind for e in ev]
    assert kinds.index("operative_removed") > max(
        i for i, k in enumerate(kinds) if k == "damage_inflicted"
    )


# -- 12 weapon restrictions --------------------------------------------------------------------


def test_12_heavy_no_normal_move_after_shooting_and_no_heavy_after_moving() -> None:
    """Heavy: no Normal Move in the same activation as a Shoot with it, either way round;
    a Dash is still allowed (12 Heavy)."""
    s, _ = play(open_shot(), ["Shoot RED-3 heavy gun at BLU-1"], ["roll 1,1,1,1"])
    verbs = {a.verb for a in s.legal_actions()}
    assert "Normal Move" not in verbs and "Dash" in verbs
    with pytest.raises(IllegalActionError, match="Heavy"):
        s.apply("Normal Move RED-3 to 6,14")
    moved = activated({"RED-3": {"at": (5, 14)}, "BLU-1": {"at": (20, 14)}})
    moved = moved.apply("Normal Move RED-3 to 6,14")[0]
    assert "Shoot RED-3 heavy gun at BLU-1" not in shots(moved)
    with pytest.raises(IllegalActionError, match="Heavy"):
        moved.apply("Shoot RED-3 heavy gun at BLU-1")


def test_12_heavy_no_charge_after_a_heavy_shot() -> None:
    """Heavy: no Charge in the same activation as a Shoot with it. BLU-1 is 7" away (centres;
    about 5.7" between the bases), within a Charge's Move + 2" = 8": after a Shoot with the
    plain Gun the Charge is offered, after one with the Heavy Gun it is not (12 Heavy)."""
    ops = {"RED-3": {"at": (5, 14)}, "BLU-1": {"at": (12, 14)}}
    plain, _ = play(activated(ops), ["Shoot RED-3 gun at BLU-1"], ["roll 1,1,1,1"])
    assert "Charge" in {a.verb for a in plain.legal_actions()}
    heavy, _ = play(activated(ops), ["Shoot RED-3 heavy gun at BLU-1"], ["roll 1,1,1,1"])
    assert "Charge" not in {a.verb for a in heavy.legal_actions()}


def test_12_heavy_no_heavy_shot_after_a_fall_back() -> None:
    """Heavy: no Shoot with it in the same activation as a Fall Back (12 Heavy). RED-3
    starts within Engagement Range of BLU-2 and has 3AP (Fall Back costs 2, 6.1); once it
    has fallen back 3" along the open lane the plain Gun may still shoot BLU-1, the Heavy
    Gun may not."""
    ops = {
        "RED-3": {"at": (5, 14)},
        "BLU-2": {"at": (5 - CLOSE, 14)},
        "BLU-1": {"at": (16, 14)},
    }
    w = Work(activated(ops))
    w.set_op("RED-3", ap=3)
    advance(w)
    s = w.freeze()
    s = s.apply("Fall Back RED-3 to 8,14")[0]  # out of BLU-2's Engagement Range
    listed = shots(s)
    assert "Shoot RED-3 gun at BLU-1" in listed
    assert "Shoot RED-3 heavy gun at BLU-1" not in listed
    with pytest.raises(IllegalActionError, match="Heavy"):
        s.apply("Shoot RED-3 heavy gun at BLU-1")


def test_12_unwieldy_costs_one_more_ap() -> None:
    s, _ = play(open_shot(), ["Shoot RED-3 unwieldy gun at BLU-1"], ["roll 1,1,1,1"])
    assert s.operative("RED-3").ap == 0


def test_12_limited_once_per_battle() -> None:
    s, _ = play(open_shot(), ["Shoot RED-3 limited gun at BLU-1"], ["roll 1,1,1,1"])
    s = pos(
        {"RED-3": {"at": (5, 14), "limited": {"limited gun": 1}}, "BLU-1": {"at": (16, 14)}}
    ).apply("Activate RED-3 engage")[0]
    assert "Shoot RED-3 limited gun at BLU-1" not in shots(s)


# -- 3.5 Overwatch -----------------------------------------------------------------------------


def overwatch(s: GameState, text: str) -> GameState:
    """Perform the Overwatch ``text`` from the decision ``s`` as the flow's overwatch turn
    does (the flow is another module's): the action's ``perform`` then the frames run."""
    w = Work(s)
    w.node = None
    a = parse_action(text)
    assert OVERWATCH is not None
    OVERWATCH.perform(w, w.op(a.op), a, "free")
    advance(w)
    return w.freeze()


def test_3_5_overwatch_shoots_at_bs_one_worse() -> None:
    """Overwatch: BS3+ becomes 4+, so 3,3,3,3 are all misses."""
    s = pos({"RED-1": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}})
    s = overwatch(s, "Overwatch RED-1 gun at BLU-1")
    s, ev = play(s, [], ["roll 3,3,3,3"])
    assert of_kind(ev, "attack_retained")[0]["normals"] == 0


def test_3_5_overwatch_once_per_turning_point_and_engage_only() -> None:
    s = pos({"RED-1": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}})
    s = overwatch(s, "Overwatch RED-1 gun at BLU-1")
    s, _ = play(s, [], ["roll 1,1,1,1"])
    with pytest.raises(IllegalActionError, match=r"already made an Overwatch"):
        overwatch(s, "Overwatch RED-1 gun at BLU-1")
    c = pos({"RED-1": {"at": (5, 14), "order": "conceal"}, "BLU-1": {"at": (16, 14)}})
    with pytest.raises(IllegalActionError, match=r"Engage order"):
        overwatch(c, "Overwatch RED-1 gun at BLU-1")


def test_3_5_overwatch_never_with_blast_or_unwieldy() -> None:
    s = pos({"RED-3": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}})
    w = Work(s)
    assert OVERWATCH is not None
    listed = [
        a.weapon
        for a in OVERWATCH.options(
            w, w.op("RED-3"), "free", Listing(False, IN_CR_REFUSED, ReachMemo())
        )
    ]
    assert "gun" in listed and "blast gun" not in listed and "unwieldy gun" not in listed


def test_dc_16_22_overwatch_with_the_non_blast_profile_of_a_blast_weapon() -> None:
    """The Launcher's frag profile has Blast (never in an Overwatch), its krak profile does
    not: krak may be used in an Overwatch (DC 16.22), frag may not."""
    s = pos({"RED-3": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}})
    w = Work(s)
    assert OVERWATCH is not None
    at = Listing(False, IN_CR_REFUSED, ReachMemo())
    listed = [a.weapon for a in OVERWATCH.options(w, w.op("RED-3"), "free", at)]
    assert "launcher (krak)" in listed and "launcher (frag)" not in listed
    with pytest.raises(IllegalActionError, match=r"Blast"):
        overwatch(s, "Overwatch RED-3 launcher (frag) at BLU-1")


def test_dc_16_24_rerolls_one_rule_at_a_time_after_seeing_the_results() -> None:
    """Ceaseless then Balanced (Twin Gun): the 1s are re-rolled and rolled first; Balanced is
    then offered on the dice never re-rolled (the re-rolled 1 showing 1 again is not)."""
    s, _ = play(open_shot(), ["Shoot RED-3 twin gun at BLU-1"], ["roll 5,2,1,1"])
    s, _ = play(s, ["Re-roll 1,1"], ["roll 4,1"])
    assert {str(a) for a in s.legal_actions()} == {"Keep", "Re-roll 5", "Re-roll 2"}


def test_12_indirect_denies_the_cover_save_too() -> None:
    """Indirect: the target is treated as not in Cover (UNCONFIRMED 18.10: for the cover save
    as well), so all 3 defence dice are rolled behind the rubble."""
    _, ev = play(cover_shot("indirect gun"), [], ["roll 5,5,1,1", "roll 1,1,1"])
    assert of_kind(ev, "saves_retained")[0]["cover"] == 0


def test_12_barrage_cover_when_terrain_hides_the_base_from_above() -> None:
    """Barrage's test: a part taller than the base overlapping its footprint hides it from
    above; a part beside it, or one no higher than the base, does not."""
    from types import SimpleNamespace

    from shapely.geometry import box

    from engine.geometry.primitives import Placement
    from engine.rules.kt21.attack_sight import hidden_from_above

    def work(*parts: tuple[object, float]) -> object:
        kz = SimpleNamespace(parts=[SimpleNamespace(polygon=p, height=h) for p, h in parts])
        return SimpleNamespace(kz=kz, place=lambda _o: Placement(10, 10, 32.0, elevation=1.0))

    over = box(9.5, 9.5, 12, 12)  # covers part of the base (radius 0.63" at (10, 10))
    beside = box(11, 9, 12, 11)  # 0.37" from the base's edge
    assert hidden_from_above(work((over, 3.0)), None)  # type: ignore[arg-type]
    assert not hidden_from_above(work((beside, 3.0)), None)  # type: ignore[arg-type]
    assert not hidden_from_above(work((over, 1.0)), None)  # type: ignore[arg-type]
