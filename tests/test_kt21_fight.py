"""The KT21 Fight action in play (``rules/KT21.md`` 11, 12, 4.4; DC 16.17, 16.18, 16.21),
one test per rule. Fixtures: ``tests/kt21_attack_support`` (RED-4 the Brawler with one KT21
rule per blade, A4 WS3+; BLU-1 a Trooper with a Knife A3 WS3+ D2/3, 10 wounds; bases 0.5"
apart are within Engagement Range). The attacker rolls first, then the defender.
"""

from __future__ import annotations

import pytest

from engine.game import GameState, IllegalActionError
from tests.kt21_attack_support import CLOSE, activated, of_kind, play, wounds

X = 16 - CLOSE


def fight(
    attacker: str = "RED-4", defender: str = "BLU-1", **extra: dict[str, object]
) -> GameState:
    """``attacker`` activated at (16 - CLOSE, 14), ``defender`` at (16, 14)."""
    ops: dict[str, dict[str, object]] = {attacker: {"at": (X, 14)}, defender: {"at": (16, 14)}}
    ops.update(extra)
    return activated(ops, attacker)


def options(s: GameState) -> set[str]:
    return {str(a) for a in s.legal_actions()}


def test_11_fight_needs_an_enemy_within_engagement_range() -> None:
    s = activated({"RED-4": {"at": (10, 14)}, "BLU-1": {"at": (16, 14)}}, "RED-4")
    assert not [a for a in s.legal_actions() if a.verb == "Fight"]


def test_11_both_roll_and_the_attacker_resolves_first_alternating() -> None:
    """Knife v Knife, attacker 5,3,1 (two normal hits), defender 4,1,1 (one normal hit): the
    attacker resolves first; after its strike the defender resolves its die."""
    s, _ = play(fight("RED-1"), ["Fight RED-1 knife at BLU-1"], ["roll 5,3,1", "roll 4,1,1"])
    assert s.node.player == "A"  # type: ignore[union-attr]
    s, _ = play(s, ["Strike normal"])
    assert s.node.player == "B"  # type: ignore[union-attr]
    s, _ = play(s, ["Strike normal"])
    s, _ = play(s, ["Strike normal"])
    assert (wounds(s, "BLU-1"), wounds(s, "RED-1")) == (6, 8)


def test_11_normal_parry_discards_a_normal_hit() -> None:
    """The attacker parries the defender's only normal hit, then strikes with its other: no
    damage to it, 2 to the defender."""
    s, _ = play(
        fight("RED-1"),
        ["Fight RED-1 knife at BLU-1", "Block normal with normal", "Strike normal"],
        ["roll 5,3,1", "roll 4,1,1"],
    )
    assert (wounds(s, "BLU-1"), wounds(s, "RED-1")) == (8, 10)


def test_11_combat_support_improves_ws_by_one_per_supporter() -> None:
    """RED-2 is within Engagement Range of BLU-1 and of no other enemy: RED-1's WS3+ becomes
    2+, so its 2s hit (three normal hits from 2,2,2)."""
    s = fight("RED-1", **{"RED-2": {"at": (16, 14 + CLOSE)}})
    s, ev = play(s, ["Fight RED-1 knife at BLU-1"], ["roll 2,2,2", "roll 1,1,1"])
    kept = of_kind(ev, "attack_retained")[0]
    assert kept["op"] == "RED-1" and kept["normals"] == 3


def test_dc_16_17_no_melee_weapon_no_dice_and_no_combat_support() -> None:
    """BLU-6 has no melee weapon: it rolls no dice (only the attacker's roll is asked for);
    RED-6 (no melee weapon either) next to BLU-1 gives RED-1 no support (2s miss)."""
    s, _ = play(fight("RED-1", "BLU-6"), ["Fight RED-1 knife at BLU-6"], ["roll 5,1,1"])
    assert s.node.player == "A"  # type: ignore[union-attr]
    assert options(s) == {"Strike normal", "Block nothing with normal"}
    s = fight("RED-1", **{"RED-6": {"at": (16, 14 + CLOSE)}})
    s, ev = play(s, ["Fight RED-1 knife at BLU-1"], ["roll 2,2,2", "roll 1,1,1"])
    assert of_kind(ev, "attack_retained")[0]["normals"] == 0


def test_dc_16_21_parry_allowed_with_nothing_to_parry() -> None:
    s, _ = play(fight("RED-1"), ["Fight RED-1 knife at BLU-1"], ["roll 6,5,1", "roll 1,1,1"])
    assert {"Block nothing with crit", "Block nothing with normal"} <= options(s)


def test_dc_16_18_fight_stops_when_an_operative_is_incapacitated() -> None:
    """BLU-7 has 2 wounds: the attacker's first normal strike (2 damage) incapacitates it and
    the fight ends at once; its own hits are lost."""
    s, ev = play(
        fight("RED-1", "BLU-7"),
        ["Fight RED-1 knife at BLU-7", "Strike normal"],
        ["roll 5,5,1", "roll 5,5,1"],
    )
    assert of_kind(ev, "fight_ended")
    assert wounds(s, "RED-1") == 10


def test_4_4_injured_fighter_ws_one_worse() -> None:
    """RED-1 with 4 of 10 wounds: WS3+ becomes 4+, its 3s miss."""
    s = activated({"RED-1": {"at": (X, 14), "wounds": 4}, "BLU-1": {"at": (16, 14)}}, "RED-1")
    s, ev = play(s, ["Fight RED-1 knife at BLU-1"], ["roll 3,3,3", "roll 1,1,1"])
    assert of_kind(ev, "attack_retained")[0]["normals"] == 0


def test_12_brutal_opponent_parries_only_with_crits() -> None:
    """Against the Brutal Blade (two normal hits left after one strike), BLU-1's normal hit
    cannot parry a normal one; its crit can."""
    s, _ = play(
        fight(),
        ["Fight RED-4 brutal blade at BLU-1", "Strike normal"],
        ["roll 5,5,5,1", "roll 5,6,1"],
    )
    assert "Block normal with normal" not in options(s)
    assert "Block normal with crit" in options(s)


def test_12_stun_first_crit_strike_discards_a_normal_hit_second_gives_apl_minus_one() -> None:
    s, ev = play(
        fight(),
        ["Fight RED-4 stun blade at BLU-1", "Strike crit"],
        ["roll 6,6,1,1", "roll 5,4,1"],
    )
    # BLU-1 had 2 normal hits: one discarded by the first critical strike.
    s, ev = play(s, ["Strike normal", "Strike crit"])
    assert of_kind(ev, "stunned")
    assert any(e.kind == "apl" and e.op == "BLU-1" and e.value == -1 for e in s.effects)
    assert wounds(s, "RED-4") == 8  # one knife hit of 2 got through


def test_12_reap_mortal_wounds_on_other_enemies_within_1_inch() -> None:
    """Reap 2, one critical strike: 2 mortal wounds on BLU-2 (bases 0.24" from BLU-1) but not
    on BLU-3 (bases 2.74" from both fighters); BLU-1 takes the strike's critical damage 1."""
    s = fight(**{"BLU-2": {"at": (16, 15.5)}, "BLU-3": {"at": (16, 18)}})
    s, _ = play(
        s, ["Fight RED-4 reap blade at BLU-1", "Strike crit"], ["roll 6,1,1,1", "roll 1,1,1"]
    )
    assert (wounds(s, "BLU-1"), wounds(s, "BLU-2"), wounds(s, "BLU-3")) == (9, 8, 10)


def test_12_mw_in_melee_on_each_retained_crit() -> None:
    """MW1 blade, two crits: 2 mortal wounds on BLU-1 when the dice are retained."""
    _, ev = play(fight(), ["Fight RED-4 mw blade at BLU-1"], ["roll 6,6,1,1", "roll 1,1,1"])
    assert [e["damage"] for e in of_kind(ev, "damage_inflicted")] == [2]


def test_11_defender_with_several_melee_weapons_selects_one() -> None:
    s, _ = play(fight("RED-1", "BLU-4"), ["Fight RED-1 knife at BLU-4"])
    assert s.node.kind == "kt21_fight_weapon"  # type: ignore[union-attr]
    assert "Retaliate BLU-4 with stun blade" in options(s)
    with pytest.raises(IllegalActionError, match=r"melee weapons"):
        s.apply("Retaliate BLU-4 with gun")
