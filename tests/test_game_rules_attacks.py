"""Targeting, the Shoot and Fight sequences, weapon rules with board effects and Command
Re-roll (``rules/KT24.md`` 4.5, 4.7, 5.1, 5.2, 6, 7.1), one test per rule.

LAB lanes (``test_game_rules_common``): shooter at (5, y) and target at (16, y) with y = 4
(Light rubble just in front of the target: cover), y = 10 (a low Heavy block midway:
obscured), y = 14 (open), y = 19 (a tall wall: not visible). Gun: 4 attacks, Hit 3+, 3/4;
Knife 3 attacks, Hit 3+, 2/3; every operative Save 4+, 10 wounds (Weakling 2, Captain 12).
CP are 0 unless a test says otherwise, so no Command Re-roll window opens.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.game import Decision, GameState, IllegalActionError
from engine.game.actions import parse_action
from engine.game.events import narrate
from engine.geometry import load_killzone
from tests.test_game_rules_common import R, kinds, of_kind, play, pos

CLOSE = 2 * R + 0.5  # centres this far apart: bases 0.5" apart (within control range)


def shot(y: float, order: str = "engage", shooter: str = "RED-1", **extra: object) -> GameState:
    """``shooter`` at (5, y) activated with Engage, BLU-1 at (16, y) with ``order``."""
    ops = {shooter: {"at": (5, y)}, "BLU-1": {"at": (16, y), "order": order}}
    ops.update(extra)  # type: ignore[arg-type]
    s = pos(ops)
    return s.apply(f"Activate {shooter} engage")[0]


def wounds(s: GameState, op: str) -> int:
    return s.operative(op).wounds


# -------------------------------------------------------------------------------------------
# 4.5 Valid target, cover, obscured (as the Shoot action uses them)
# -------------------------------------------------------------------------------------------


def test_4_5_engage_target_in_cover_is_valid_when_visible() -> None:
    assert shot(4).is_legal("Shoot RED-1 gun at BLU-1")


def test_4_5_conceal_target_in_cover_is_not_valid() -> None:
    with pytest.raises(IllegalActionError, match=r"Conceal order and is in cover.*\(4\.5\)"):
        shot(4, "conceal").apply("Shoot RED-1 gun at BLU-1")


def test_4_5_conceal_target_not_in_cover_is_valid() -> None:
    assert shot(14, "conceal").is_legal("Shoot RED-1 gun at BLU-1")


def test_4_5_obscured_does_not_affect_validity() -> None:
    assert shot(10, "conceal").is_legal("Shoot RED-1 gun at BLU-1")


def test_4_5_target_must_be_visible() -> None:
    with pytest.raises(IllegalActionError, match=r"not visible"):
        shot(19).apply("Shoot RED-1 gun at BLU-1")


def test_4_5_no_cover_within_2_inches_of_the_shooter() -> None:
    # Shooter 1.5" from the Conceal target, the rubble between them: not in cover, valid.
    s = pos({"RED-1": {"at": (16 - CLOSE - 1, 4)}, "BLU-1": {"at": (16, 4), "order": "conceal"}})
    s, _ = s.apply("Activate RED-1 engage")
    assert s.is_legal("Shoot RED-1 gun at BLU-1")


def test_4_5_shoot_target_with_a_friendly_in_its_control_range_is_not_valid() -> None:
    s = shot(14, **{"RED-2": {"at": (16, 14 + CLOSE)}})
    with pytest.raises(IllegalActionError, match=r"friendly operative \(RED-2\)"):
        s.apply("Shoot RED-1 gun at BLU-1")


def test_4_5_cover_save_retains_one_defence_die_unrolled() -> None:
    # Attack 3,3,1,1: 2 normals. In cover: 1 die is a normal save, only 2 are rolled (1,1).
    # (Retaining it is the defender's choice: test_4_5_defender_retains_or_declines_...)
    s, ev = play(shot(4), ["Shoot RED-1 gun at BLU-1", "Cover save normal"], ["3,3,1,1", "1,1"])
    (saves,) = of_kind(ev, "saves_retained")
    assert (saves["normals"], saves["cover"]) == (1, 1)
    assert wounds(s, "BLU-1") == 10 - 3


def test_4_5_obscured_discards_one_success_and_crits_become_normal() -> None:
    # Attack 6,6,3,1: 2 crits + 1 normal -> 3 normals -> discard one -> 2 normals (2 x 3).
    s, ev = play(shot(10), ["Shoot RED-1 gun at BLU-1"], ["6,6,3,1", "1,1,1"])
    (ret,) = of_kind(ev, "attack_retained")
    assert (ret["normals"], ret["crits"]) == (2, 0)
    assert wounds(s, "BLU-1") == 10 - 6


def test_4_7_vantage_engage_target_2_inches_lower_gives_accurate_1() -> None:
    kz = load_killzone("open_ruins")
    ops = {"RED-1": {"at": (15, 17, 3)}, "BLU-2": {"at": (27, 2)}}
    # On the 3" Vantage floor, shooting a target on the killzone floor: Accurate 1 against
    # an Engage target, so only 3 of the 4 attack dice are rolled...
    # (The attacker retains the die it may: Accurate 1, test_6_accurate_... for the choice.)
    s = pos({**ops, "BLU-1": {"at": (15, 12.5), "order": "engage"}}, kz=kz)
    s, _ = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-1"])
    assert s.node == Decision("A", "accurate")
    assert list(s.legal_actions()) == [parse_action("Accurate 0"), parse_action("Accurate 1")]
    s, _ = s.apply("Accurate 1")
    assert s.node.request.dice == 3  # type: ignore[union-attr]
    # ...but not against a Conceal one.
    s = pos({**ops, "BLU-1": {"at": (15, 12.5), "order": "conceal"}}, kz=kz)
    s, _ = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-1"])
    assert s.node.request.dice == 4  # type: ignore[union-attr]


# -------------------------------------------------------------------------------------------
# 5.1 Shoot
# -------------------------------------------------------------------------------------------


def test_5_1_defence_dice_are_3() -> None:
    s, _ = play(shot(14), ["Shoot RED-1 gun at BLU-1"], ["3,1,1,1"])
    assert s.node.request.kind == "defence" and s.node.request.dice == 3  # type: ignore[union-attr]


def test_5_1_piercing_x_removes_x_defence_dice() -> None:
    s, _ = play(shot(14, shooter="RED-3"), ["Shoot RED-3 pierce gun at BLU-1"], ["3,1,1,1"])
    assert s.node.request.dice == 2  # type: ignore[union-attr]


def test_5_1_piercing_crits_only_if_a_crit_was_retained() -> None:
    s0 = shot(14, shooter="RED-3")
    s, _ = play(s0, ["Shoot RED-3 crit pierce gun at BLU-1"], ["5,1,1,1"])
    assert s.node.request.dice == 3  # type: ignore[union-attr]
    s, _ = play(s0, ["Shoot RED-3 crit pierce gun at BLU-1"], ["6,1,1,1"])
    assert s.node.request.dice == 2  # type: ignore[union-attr]


def test_5_1_unblocked_successes_deal_normal_and_critical_damage() -> None:
    # 6,5,3,1: 1 crit + 2 normals; no saves: 4 + 3 + 3 = 10 damage on 10 wounds.
    s, ev = play(shot(14), ["Shoot RED-1 gun at BLU-1"], ["6,5,3,1", "3,2,1"])
    assert wounds(s, "BLU-1") == 0
    assert "operative_incapacitated" in kinds(ev) and not s.operative("BLU-1").placed


def test_5_1_two_normal_saves_block_one_crit() -> None:
    # 1 crit (4 damage) against saves 4,4 (two normals): blocked.
    s, _ = play(shot(14), ["Shoot RED-1 gun at BLU-1"], ["6,1,1,1", "4,4,1"])
    assert wounds(s, "BLU-1") == 10


def test_5_1_one_normal_save_cannot_block_a_crit() -> None:
    s, _ = play(shot(14), ["Shoot RED-1 gun at BLU-1"], ["6,1,1,1", "4,1,1"])
    assert wounds(s, "BLU-1") == 10 - 4


def test_5_1_crit_save_blocks_a_crit_or_a_normal() -> None:
    # 1 crit + 1 normal against one crit save: the defender chooses (the outcomes differ);
    # blocking the crit (4) it takes 3, blocking the normal it takes 4.
    s, _ = play(shot(14), ["Shoot RED-1 gun at BLU-1"], ["6,3,1,1", "6,1,1"])
    assert s.node == Decision("B", "allocate_saves")
    crit, _ = play(s, ["Allocate saves crit>crit"])
    assert wounds(crit, "BLU-1") == 10 - 3
    normal, _ = play(s, ["Allocate saves crit>normal"])
    assert wounds(normal, "BLU-1") == 10 - 4


# -------------------------------------------------------------------------------------------
# 5.2 Fight
# -------------------------------------------------------------------------------------------


def fight(red: str = "RED-1", blu: str = "BLU-1", **extra: object) -> GameState:
    """``red`` at (15, 14) fighting ``blu`` 0.5" east of it; A's activation has begun."""
    ops = {red: {"at": (15, 14)}, blu: {"at": (15 + CLOSE, 14)}}
    ops.update(extra)  # type: ignore[arg-type]
    return pos(ops).apply(f"Activate {red} engage")[0]


def test_5_2_fight_attacker_resolves_first_then_players_alternate() -> None:
    # A: 6,3,1 -> 1 crit, 1 normal. B: 3,1,1 -> 1 normal.
    s, _ = play(fight(), ["Fight RED-1 knife at BLU-1"], ["6,3,1", "3,1,1"])
    assert s.node == Decision("A", "resolve")
    s, _ = s.apply("Strike crit")
    assert wounds(s, "BLU-1") == 10 - 3
    assert s.node == Decision("B", "resolve")
    s, _ = s.apply("Strike normal")
    assert wounds(s, "RED-1") == 10 - 2
    s, _ = s.apply("Strike normal")
    assert wounds(s, "BLU-1") == 10 - 3 - 2
    assert s.node == Decision("A", "action")  # the Fight is over


def test_5_2_no_saves_in_melee() -> None:
    s, ev = play(fight(), ["Fight RED-1 knife at BLU-1", "Strike normal"], ["3,1,1", "1,1,1"])
    assert "saves_retained" not in kinds(ev)
    assert wounds(s, "BLU-1") == 8


def test_5_2_player_without_dice_left_lets_the_other_resolve_the_rest() -> None:
    # A: 3,3,3 (3 normals); B: nothing. A strikes three times in a row.
    s, _ = play(fight(), ["Fight RED-1 knife at BLU-1"], ["3,3,3", "1,1,1"])
    for _ in range(3):
        assert s.node == Decision("A", "resolve")
        s, _ = s.apply("Strike normal")
    assert wounds(s, "BLU-1") == 10 - 6


def test_5_2_block_normal_with_normal_crit_blocks_either_normal_never_blocks_crit() -> None:
    s, _ = play(fight(), ["Fight RED-1 knife at BLU-1"], ["6,3,1", "6,3,1"])
    acts = {str(a) for a in s.legal_actions()}
    assert acts == {
        "Strike crit",
        "Strike normal",
        "Block crit with crit",
        "Block normal with crit",
        "Block normal with normal",
    }
    s, _ = s.apply("Block crit with crit")  # A cancels B's crit with its crit
    # B has one normal left; A's normal cannot be blocked by it... B may block normal.
    acts = {str(a) for a in s.legal_actions()}
    assert acts == {"Strike normal", "Block normal with normal"}
    s, _ = s.apply("Block normal with normal")
    assert wounds(s, "RED-1") == 10 and wounds(s, "BLU-1") == 10
    # A normal can never block a crit.
    s, _ = play(fight(), ["Fight RED-1 knife at BLU-1"], ["3,1,1", "6,1,1"])
    assert "Block crit with normal" not in {str(a) for a in s.legal_actions()}
    with pytest.raises(IllegalActionError, match=r"5\.2"):
        s.apply("Block crit with normal")


def test_5_2_resolution_stops_when_an_operative_is_incapacitated() -> None:
    # BLU-6 (2 wounds) retains 2 normals; A's first strike (2 damage) incapacitates it.
    s, ev = play(
        fight(blu="BLU-6"), ["Fight RED-1 knife at BLU-6", "Strike normal"], ["3,3,3", "3,3,1,1"]
    )
    assert "operative_incapacitated" in kinds(ev)
    assert wounds(s, "RED-1") == 10  # BLU-6's successes are lost
    assert s.node == Decision("A", "action")


def test_5_2_assist_improves_hit_by_1_per_assisting_friendly() -> None:
    # RED-2 also within BLU-1's control range (and no other enemy's): Knife hits on 2+.
    s = fight(**{"RED-2": {"at": (15 + CLOSE, 14 + CLOSE)}})
    s, ev = play(s, ["Fight RED-1 knife at BLU-1"], ["2,2,1", "1,1,1"])
    ret = of_kind(ev, "attack_retained")[0]
    assert ret["op"] == "RED-1" and ret["normals"] == 2


def test_5_2_no_assist_from_a_friendly_in_control_range_of_another_enemy() -> None:
    s = fight(
        **{
            "RED-2": {"at": (15 + CLOSE, 14 + CLOSE)},
            "BLU-2": {"at": (15 + CLOSE, 14 + 2 * CLOSE)},
        }
    )
    s, ev = play(s, ["Fight RED-1 knife at BLU-1"], ["2,2,1", "1,1,1"])
    assert of_kind(ev, "attack_retained")[0]["normals"] == 0


def test_5_2_assist_applies_to_the_retaliating_side_too() -> None:
    s = fight(**{"BLU-2": {"at": (15, 14 - CLOSE)}})
    s, ev = play(s, ["Fight RED-1 knife at BLU-1"], ["1,1,1", "2,2,1"])
    ret = of_kind(ev, "attack_retained")
    assert ret[1]["op"] == "BLU-1" and ret[1]["normals"] == 2


def test_5_2_defender_chooses_its_retaliation_weapon() -> None:
    s, _ = fight(blu="BLU-4").apply("Fight RED-1 knife at BLU-4")
    assert s.node == Decision("B", "retaliate")
    assert {str(a) for a in s.legal_actions()} == {
        "Retaliate BLU-4 with brutal blade",
        "Retaliate BLU-4 with shock blade",
        "Retaliate BLU-4 with stun blade",
    }


def test_6_brutal_opponent_can_only_block_with_crits() -> None:
    # RED-4's Brutal blade: 2 normals; BLU-1: 1 crit, 1 normal.
    s, _ = play(
        fight("RED-4"), ["Fight RED-4 brutal blade at BLU-1", "Strike normal"], ["3,3,1,1", "6,3,1"]
    )
    acts = {str(a) for a in s.legal_actions()}
    assert "Block normal with crit" in acts
    assert "Block normal with normal" not in acts


def test_6_shock_first_crit_strike_discards_an_opponent_normal() -> None:
    # RED-4's Shock blade: 1 crit; BLU-1: 2 normals. Striking with the crit discards one.
    s, _ = play(
        fight("RED-4"), ["Fight RED-4 shock blade at BLU-1", "Strike crit"], ["6,1,1,1", "3,3,1"]
    )
    assert wounds(s, "BLU-1") == 10 - 4
    s, _ = s.apply("Strike normal")  # B's only normal left
    assert wounds(s, "RED-4") == 10 - 2
    assert s.node == Decision("A", "action")


# -------------------------------------------------------------------------------------------
# 6 Weapon rules with board effects
# -------------------------------------------------------------------------------------------


def gunner(y: float = 14, target_x: float = 16, **extra: object) -> GameState:
    ops = {"RED-3": {"at": (5, y)}, "BLU-1": {"at": (target_x, y)}}
    ops.update(extra)  # type: ignore[arg-type]
    return pos(ops).apply("Activate RED-3 engage")[0]


def test_6_range_only_targets_within_x() -> None:
    # Pistol Range 6": the bases 6.4" apart (centres 6.4 + 2R) is too far, 5.9" is fine.
    with pytest.raises(IllegalActionError, match=r"Range 6"):
        gunner(target_x=5 + 2 * R + 6.4).apply("Shoot RED-3 pistol at BLU-1")
    assert gunner(target_x=5 + 2 * R + 5.9).is_legal("Shoot RED-3 pistol at BLU-1")


def test_6_heavy_no_shoot_after_moving_no_move_after_shooting() -> None:
    s, _ = gunner().apply("Dash RED-3 to 6,14")
    with pytest.raises(IllegalActionError, match=r"Heavy"):
        s.apply("Shoot RED-3 heavy gun at BLU-1")
    s, _ = play(gunner(), ["Shoot RED-3 heavy gun at BLU-1"], ["1,1,1,1", "1,1,1"])
    with pytest.raises(IllegalActionError, match=r"Heavy"):
        s.apply("Dash RED-3 to 6,14")


def test_6_heavy_dash_only_allows_dash_but_no_other_move() -> None:
    s, _ = gunner().apply("Dash RED-3 to 6,14")
    assert s.is_legal("Shoot RED-3 dash gun at BLU-1")
    s, _ = gunner().apply("Reposition RED-3 to 6,14")
    assert not s.is_legal("Shoot RED-3 dash gun at BLU-1")
    s, _ = play(gunner(), ["Shoot RED-3 dash gun at BLU-1"], ["1,1,1,1", "1,1,1"])
    assert s.is_legal("Dash RED-3 to 6,14")
    assert not s.is_legal("Reposition RED-3 to 6,14")


def test_6_limited_x_weapon_gone_after_x_uses() -> None:
    s = pos({"RED-3": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}, "BLU-2": {"at": (27, 4)}})
    s, _ = play(
        s,
        ["Activate RED-3 engage", "Shoot RED-3 limited gun at BLU-1", "End activation"],
        ["1,1,1,1", "1,1,1"],
    )
    s, _ = play(s, ["Activate BLU-2 engage", "End activation", "Counteract RED-3"])
    with pytest.raises(IllegalActionError, match=r"Limited 1"):
        s.apply("Shoot RED-3 limited gun at BLU-1")


@pytest.mark.parametrize(("roll", "damage"), [("3", 6), ("4", 0), ("1", 2)])
def test_6_hot_roll_below_hit_deals_twice_the_result_to_the_user(roll: str, damage: int) -> None:
    # Hot Gun hits on 4+: a 3 deals 2 x 3 = 6, a 4 nothing, a 1 deals 2.
    s, _ = play(gunner(), ["Shoot RED-3 hot gun at BLU-1"], ["1,1,1,1", "1,1,1", roll])
    assert wounds(s, "RED-3") == 10 - damage


def test_6_stun_apl_minus_1_until_end_of_next_activation() -> None:
    s, ev = play(
        gunner(), ["Shoot RED-3 stun gun at BLU-1", "End activation"], ["6,1,1,1", "1,1,1"]
    )
    assert "stunned" in kinds(ev)
    s, _ = s.apply("Activate BLU-1 engage")
    assert s.operative("BLU-1").ap == 1  # APL 2 - 1
    s, _ = s.apply("End activation")
    assert not [e for e in s.effects if e.op == "BLU-1"]  # ended with that activation


def test_6_stun_apl_change_clamped_to_minus_1() -> None:
    # Two Gunners stun BLU-1 one after the other before BLU-1 activates.
    s = pos(
        {
            "RED-1": {"at": (5, 14)},
            "RED-2": {"at": (5, 12)},
            "BLU-1": {"at": (16, 14)},
            "BLU-2": {"at": (27, 4)},
        },
        red=["Gunner", "Gunner"],
    )
    s, _ = play(
        s,
        [
            "Activate RED-1 engage",
            "Shoot RED-1 stun gun at BLU-1",
            "End activation",
            "Activate BLU-2 engage",
            "End activation",
            "Activate RED-2 engage",
            "Shoot RED-2 stun gun at BLU-1",
            "End activation",
        ],
        ["6,1,1,1", "1,1,1", "6,1,1,1", "1,1,1"],
    )
    s, _ = s.apply("Activate BLU-1 engage")
    # Two -1 changes: APL 2 - 2 = 0, clamped to at most -1 from the datacard: 1.
    assert s.operative("BLU-1").ap == 1


def test_6_blast_shoots_every_operative_within_x_of_the_primary_friendly_too() -> None:
    # Primary BLU-1 at (14, 14). Within 2": BLU-2 (1.5" away, Conceal) and RED-2 (friendly,
    # 1.5" away). BLU-3 is 3" away: not a target.
    s = pos(
        {
            "RED-3": {"at": (5, 14)},
            "BLU-1": {"at": (14, 14)},
            "BLU-2": {"at": (14, 14 + 2 * R + 1.5), "order": "conceal"},
            "RED-2": {"at": (14, 14 - 2 * R - 1.5)},
            "BLU-3": {"at": (14 + 2 * R + 3, 14)},
        }
    )
    s, ev = play(
        s,
        ["Activate RED-3 engage", "Shoot RED-3 blast gun at BLU-1"],
        ["3,1,1,1", "1,1,1"] * 3,
    )
    hit = [e["op"] for e in of_kind(ev, "damage_inflicted")]
    assert hit == ["BLU-1", "RED-2", "BLU-2"]  # primary first, then in id order
    assert wounds(s, "BLU-3") == 10


def test_6_torrent_secondaries_are_valid_targets_within_x_of_the_primary() -> None:
    s = pos(
        {
            "RED-3": {"at": (5, 14)},
            "BLU-1": {"at": (14, 14)},
            "BLU-2": {"at": (14, 14 + 2 * R + 1.5)},  # 1.5" away: a secondary
            "BLU-3": {"at": (14 + 2 * R + 3, 14)},  # 3" away: not
        }
    )
    s, _ = play(s, ["Activate RED-3 engage", "Shoot RED-3 torrent gun at BLU-1"])
    assert s.node == Decision("A", "torrent")
    assert {str(a) for a in s.legal_actions()} == {"Done", "Also BLU-2"}
    with pytest.raises(IllegalActionError, match=r"Torrent"):
        s.apply("Also BLU-3")
    # Once no candidate is left the choice ends by itself (no "Done" needed).
    s, ev = play(s, ["Also BLU-2"], ["3,1,1,1", "1,1,1"] * 2)
    assert [e["op"] for e in of_kind(ev, "damage_inflicted")] == ["BLU-1", "BLU-2"]


def test_6_torrent_secondary_with_conceal_order_in_cover_is_not_valid() -> None:
    # BLU-2 behind the rubble at (16, 4) with a Conceal order; the primary at (16, 5.6).
    def start(order: str) -> GameState:
        s = pos(
            {
                "RED-3": {"at": (5, 4)},
                "BLU-1": {"at": (17.5, 4 + 2 * R + 1)},
                "BLU-2": {"at": (16, 4), "order": order},
            }
        )
        return play(s, ["Activate RED-3 engage", "Shoot RED-3 torrent gun at BLU-1"])[0]

    # With an Engage order BLU-2 (1.45" from the primary) is a secondary...
    assert start("engage").node == Decision("A", "torrent")
    # ...with Conceal it is in cover and not valid: straight to the attack dice.
    assert start("conceal").node.request.kind == "attack"  # type: ignore[union-attr]


def test_6_devastating_area_damages_target_and_operatives_within_x() -> None:
    # Dev Gun: 1" Devastating 2, 1/1. One crit: 2 to BLU-1 and to BLU-2 (0.5" from it),
    # then the crit still resolves (1 more to BLU-1, no saves).
    s = gunner(**{"BLU-2": {"at": (16, 14 + CLOSE)}, "BLU-3": {"at": (16, 14 - 2 * R - 1.5)}})
    s, _ = play(s, ["Shoot RED-3 dev gun at BLU-1"], ["6,1,1,1", "1,1,1"])
    assert wounds(s, "BLU-1") == 10 - 2 - 1
    assert wounds(s, "BLU-2") == 10 - 2
    assert wounds(s, "BLU-3") == 10  # 1.5" away


def test_6_seek_conceal_target_in_cover_becomes_valid_but_keeps_cover_save() -> None:
    s = pos({"RED-3": {"at": (5, 4)}, "BLU-1": {"at": (16, 4), "order": "conceal"}})
    s, _ = s.apply("Activate RED-3 engage")
    assert not s.is_legal("Shoot RED-3 saturate gun at BLU-1")
    s, _ = play(s, ["Shoot RED-3 seek gun at BLU-1"], ["3,1,1,1"])
    assert s.node == Decision("B", "cover_save")  # a cover save to retain
    s, _ = s.apply("Cover save normal")
    assert s.node.request.dice == 2  # type: ignore[union-attr]  # one cover save kept


def test_6_saturate_defender_cannot_retain_cover_saves() -> None:
    s = gunner(y=4)
    s, _ = play(s, ["Shoot RED-3 saturate gun at BLU-1"], ["3,1,1,1"])
    assert s.node.request.dice == 3  # type: ignore[union-attr]


def test_6_stun_in_a_fight_and_ap_already_generated_unchanged() -> None:
    # BLU-4 retaliates with its Stun blade and retains a crit: RED-1 APL -1 until the end of
    # its next activation; the AP RED-1 already has are not changed (decision 7).
    s = fight(blu="BLU-4")
    s, ev = play(
        s,
        [
            "Fight RED-1 knife at BLU-4",
            "Retaliate BLU-4 with stun blade",
            "Block normal with normal",
        ],
        ["3,1,1", "6,3,1,1"],
    )
    assert "stunned" in kinds(ev)
    assert s.operative("RED-1").ap == 1  # 2 - 1 for the Fight


# -------------------------------------------------------------------------------------------
# 7.1 Command Re-roll
# -------------------------------------------------------------------------------------------


def cp_shot(cp: tuple[int, int] = (2, 2)) -> GameState:
    s = pos({"RED-1": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}}, cp=cp)
    return s.apply("Activate RED-1 engage")[0]


def test_7_1_command_reroll_1cp_rerolls_one_attack_die() -> None:
    s, _ = play(cp_shot(), ["Shoot RED-1 gun at BLU-1"], ["5,3,3,2"])
    assert s.node == Decision("A", "dice_ploy")
    assert {str(a) for a in s.legal_actions()} == {
        "Decline",
        "Command re-roll 5",
        "Command re-roll 3",
        "Command re-roll 2",
    }
    s, ev = play(s, ["Command re-roll 2", "Decline", "Decline"], ["6", "1,1,1"])
    assert s.player("A").cp == 1
    (ret,) = of_kind(ev, "attack_retained")
    assert (ret["normals"], ret["crits"]) == (3, 1)  # 6,5,3,3
    # 4 + 3 x 3 = 13 damage against 10 wounds: 0 left, never below 0 (2.3).
    assert wounds(s, "BLU-1") == 0


def test_7_1_command_reroll_never_on_a_die_already_rerolled_but_again_per_tp() -> None:
    s, _ = play(cp_shot(), ["Shoot RED-1 gun at BLU-1", "Command re-roll 2"], ["5,3,3,2", "1"])
    # The re-rolled die shows 1: it cannot be re-rolled again; the other dice can (1CP more).
    assert s.node == Decision("A", "dice_ploy")
    assert "Command re-roll 1" not in {str(a) for a in s.legal_actions()}
    with pytest.raises(IllegalActionError, match=r"2\.4"):
        s.apply("Command re-roll 1")
    s, _ = play(s, ["Command re-roll 3"], ["4"])
    assert s.player("A").cp == 0


def test_7_1_defender_may_command_reroll_a_defence_die() -> None:
    s, _ = play(cp_shot(), ["Shoot RED-1 gun at BLU-1", "Decline"], ["3,1,1,1", "2,1,1"])
    assert s.node == Decision("B", "dice_ploy")
    s, _ = play(s, ["Command re-roll 2"], ["4"])
    # The re-rolled 4 saves the only normal hit.
    assert s.player("B").cp == 1 and wounds(s, "BLU-1") == 10


def test_2_4_reroll_event_names_the_dice_before_and_after_shoot() -> None:
    """A re-roll replaces the chosen dice (2.4): the ``dice_rerolled`` event says which
    (its declared data: ``old`` re-rolled into ``new``). A Command Re-roll of the 2 of
    5,3,3,2 that shows 6 is ``old`` (2,) and ``new`` (6,)."""
    s, _ = play(cp_shot(), ["Shoot RED-1 gun at BLU-1"], ["5,3,3,2"])
    s, ev = play(s, ["Command re-roll 2"], ["6"])
    (e,) = of_kind(ev, "dice_rerolled")
    assert (tuple(e["old"]), tuple(e["new"])) == ((2,), (6,))
    assert narrate(e) == "  A re-rolls 2 -> 6"


def test_2_4_reroll_event_names_the_dice_before_and_after_fight() -> None:
    """The same in a fight (5.2, 7.1): A's attack dice 3,2,1 with 2CP; a Command Re-roll of
    the 1 that shows 4 is ``old`` (1,), ``new`` (4,)."""
    ops = {"RED-1": {"at": (15, 14)}, "BLU-1": {"at": (15 + CLOSE, 14)}}
    s = pos(ops, cp=(2, 2), initiative="A")
    s, _ = play(s, ["Activate RED-1 engage", "Fight RED-1 knife at BLU-1"], ["3,2,1", "3,2,1"])
    assert s.node == Decision("A", "dice_ploy")
    s, ev = play(s, ["Command re-roll 1"], ["4"])
    (e,) = of_kind(ev, "dice_rerolled")
    assert (tuple(e["old"]), tuple(e["new"])) == ((1,), (4,))


def test_1_7_fight_rerolls_start_with_the_initiative_player() -> None:
    # B has initiative; A's RED-1 fights BLU-1 (A's activation in B's turning point).
    ops = {"RED-1": {"at": (15, 14)}, "BLU-1": {"at": (15 + CLOSE, 14)}}
    s = pos(ops, cp=(2, 2), initiative="B", turn="A")
    s, _ = play(s, ["Activate RED-1 engage", "Fight RED-1 knife at BLU-1"], ["3,2,1", "3,2,1"])
    assert s.node == Decision("B", "dice_ploy")
    s, _ = s.apply("Decline")
    assert s.node == Decision("A", "dice_ploy")
    s, _ = s.apply("Decline")
    assert s.node == Decision("A", "resolve")  # the attacker still resolves first (5.2)
    # With A having initiative, A re-rolls first.
    s = pos(ops, cp=(2, 2), initiative="A")
    s, _ = play(s, ["Activate RED-1 engage", "Fight RED-1 knife at BLU-1"], ["3,2,1", "3,2,1"])
    assert s.node == Decision("A", "dice_ploy")


def test_2_4_a_1_always_fails_and_hit_is_never_better_than_2_plus() -> None:
    # Two assists improve the Knife's 3+ by 2, to 1+: capped at 2+ (decision 6), and the
    # 1s fail: 2,1,1 retains one normal success.
    s = fight(
        **{
            "RED-2": {"at": (15 + CLOSE, 14 + CLOSE)},
            "RED-3": {"at": (15 + CLOSE, 14 - CLOSE)},
        }
    )
    s, ev = play(s, ["Fight RED-1 knife at BLU-1"], ["2,1,1", "1,1,1"])
    ret = of_kind(ev, "attack_retained")[0]
    assert ret["op"] == "RED-1" and (ret["normals"], ret["crits"]) == (1, 0)


def test_1_7_fight_rerolls_alternate_until_both_pass_in_succession() -> None:
    # A has initiative. A passes, B re-rolls a die, so A may still re-roll afterwards; the
    # re-rolls end only after two passes in succession.
    ops = {"RED-1": {"at": (15, 14)}, "BLU-1": {"at": (15 + CLOSE, 14)}}
    s = pos(ops, cp=(2, 2), initiative="A")
    s, _ = play(s, ["Activate RED-1 engage", "Fight RED-1 knife at BLU-1"], ["3,2,1", "3,2,1"])
    assert s.node == Decision("A", "dice_ploy")
    s, _ = play(s, ["Decline", "Command re-roll 1"], ["5"])
    assert s.player("B").cp == 1
    assert s.node == Decision("A", "dice_ploy")  # A again, after B's re-roll
    s, _ = play(s, ["Decline"], [])
    assert s.node == Decision("B", "dice_ploy")  # one pass so far: B may re-roll again
    assert not s.is_legal("Command re-roll 5")  # the re-rolled die cannot be re-rolled
    s, _ = play(s, ["Decline"], [])
    assert s.node == Decision("A", "resolve")


def test_would_change_damage_hook_changes_the_profiles_dmg_stats() -> None:
    # A rule changing a weapon's Dmg stats (would_change_damage, on the attack profile): the
    # profile shows them; the hook is told the operative, weapon and kind; never below 0.
    from engine.game.attacks import attack_profile
    from engine.game.work import Work
    from engine.rulesets import position as _position
    from tests.test_game_rules_common import BLU, LAB, RED, roster

    s = _position(LAB, roster(RED), roster(BLU), operatives={"RED-1": {"at": (5, 5)}})
    w = Work(s)
    before = attack_profile(w, w.op("RED-1"), "gun", "ranged")
    seen: list[tuple[str, str, str]] = []

    def change(w: Work, dmg: tuple[int, int], **info: object) -> tuple[int, int]:
        seen.append((str(info["op"]), str(info["weapon"]), str(info["kind"])))
        return dmg[0] + 1, dmg[1] - 10

    s = s.with_hooks(lambda h: h.transform("would_change_damage", change))
    w = Work(s)
    after = attack_profile(w, w.op("RED-1"), "gun", "ranged")
    assert after.normal_damage == before.normal_damage + 1 and after.critical_damage == 0
    assert seen == [("RED-1", "gun", "ranged")]


def test_hooks_transform_last_runs_after_hooks_added_later() -> None:
    # Hooks.transform(..., last=True): the hook runs after every ordinary hook of that kind,
    # even those added after it; ordinary hooks keep their order of addition.
    from engine.game.context import Hooks

    hooks = Hooks()
    order: list[str] = []

    def make(name: str) -> Any:
        def fn(w: Any, value: int, **info: Any) -> int:
            order.append(name)
            return value

        return fn

    hooks.transform("would_pathfinder_analyse", make("first"))
    hooks.transform("would_pathfinder_analyse", make("last"), last=True)
    hooks.transform("would_pathfinder_analyse", make("second"))
    for fn in hooks.would["would_pathfinder_analyse"]:
        fn(None, 0)
    assert order == ["first", "second", "last"]
