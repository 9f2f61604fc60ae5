"""Close Quarters rules (``rules/KT24.md`` 9.3): walls and hatchways, Operate Hatch, Guard,
On Guard interrupts and the point-blank shot, Hatchway Fight, Condensed Environment.

On the shipped ``close_quarters`` killzone: the "west hatch" is the wall segment x 11-11.5,
y 10-12 between the west antechamber and the central hall (closed at the start). Bases are
32 mm (R = 0.63"): RED-1 at (10.2, 11) has its edge 0.17" from the hatch.
"""

from __future__ import annotations

import pytest

from engine.game import Decision, GameState, IllegalActionError
from engine.geometry import load_killzone
from tests.test_game_rules_common import R, kinds, of_kind, play, pos

CQ = load_killzone("close_quarters")
CLOSE = 2 * R + 0.5
HATCH = "west hatch"
AT_HATCH = (10.2, 11.0)  # west of the hatch, its access point within control range
IN_HALL = (14.0, 11.0)  # east of the hatch, inside the hall


def cq(ops: dict[str, dict[str, object]], **kw: object) -> GameState:
    return pos(ops, kz=CQ, **kw)  # type: ignore[arg-type]


def activated(s: GameState, op: str = "RED-1", order: str = "engage") -> GameState:
    return s.apply(f"Activate {op} {order}")[0]


FAR = {"BLU-2": {"at": (27.0, 4.0)}}


# -------------------------------------------------------------------------------------------
# Walls and hatchways
# -------------------------------------------------------------------------------------------


def test_9_3_operate_hatch_1ap_opens_and_closes_a_hatchway() -> None:
    s = activated(cq({"RED-5": {"at": AT_HATCH}, **FAR}), "RED-5")
    s, ev = s.apply(f"Operate hatch RED-5 {HATCH}")
    assert s.open_hatchways == (HATCH,) and s.operative("RED-5").ap == 2
    assert "hatch_operated" in kinds(ev)
    # Closing it again (counteract-free, in a later activation): a position with it open.
    s = activated(cq({"RED-5": {"at": AT_HATCH}, **FAR}, open_hatchways=[HATCH]), "RED-5")
    s, _ = s.apply(f"Operate hatch RED-5 {HATCH}")
    assert s.open_hatchways == ()


def test_9_3_operate_hatch_needs_its_access_point_in_control_range() -> None:
    s = activated(cq({"RED-1": {"at": (9.0, 11.0)}, **FAR}))  # base edge 1.37" from it
    with pytest.raises(IllegalActionError, match=r"access point is not within.*9\.3"):
        s.apply(f"Operate hatch RED-1 {HATCH}")


def test_9_3_operate_hatch_not_within_enemy_control_range() -> None:
    s = activated(
        cq({"RED-1": {"at": AT_HATCH}, "BLU-1": {"at": (AT_HATCH[0], 11 - CLOSE)}, **FAR})
    )
    with pytest.raises(IllegalActionError, match=r"within control range of an enemy.*9\.3"):
        s.apply(f"Operate hatch RED-1 {HATCH}")


def test_9_3_cannot_close_a_hatchway_whose_access_point_is_in_enemy_control_range() -> None:
    # BLU-1 at (12.6, 11): its edge 0.47" from the open hatch, 1.14" from RED-1.
    s = cq(
        {"RED-1": {"at": AT_HATCH}, "BLU-1": {"at": (12.6, 11.0)}, **FAR}, open_hatchways=[HATCH]
    )
    s = activated(s)
    with pytest.raises(IllegalActionError, match=r"cannot be closed.*enemy.*9\.3"):
        s.apply(f"Operate hatch RED-1 {HATCH}")


def test_9_3_closed_hatchway_blocks_sight_open_one_does_not() -> None:
    ops = {"RED-1": {"at": (9.0, 11.0)}, "BLU-1": {"at": IN_HALL}}
    closed = activated(cq(ops))
    assert not closed.is_legal("Shoot RED-1 gun at BLU-1")
    opened = activated(cq(ops, open_hatchways=[HATCH]))
    assert opened.is_legal("Shoot RED-1 gun at BLU-1")


def test_9_3_walls_cannot_be_moved_through_open_access_point_can() -> None:
    dest = "Reposition RED-1 to 12.5,11"
    closed = activated(cq({"RED-1": {"at": AT_HATCH}, **FAR}))
    with pytest.raises(IllegalActionError):
        closed.apply(dest)
    opened = activated(cq({"RED-1": {"at": AT_HATCH}, **FAR}, open_hatchways=[HATCH]))
    assert opened.apply(dest)[0].operative("RED-1").x == 12.5


# -------------------------------------------------------------------------------------------
# Guard and On Guard
# -------------------------------------------------------------------------------------------

# RED-1 on guard at (9, 11) in the antechamber; BLU-1 ready at (9, 16.5)... the
# antechamber is open to the north corridor, so BLU-1 comes in from (4, 11) in drop zone A.
GUARD_OPS = {
    "RED-1": {"at": (9.0, 11.0), "on_guard": True, "ready": False},
    "BLU-1": {"at": (4.0, 11.0)},
}


def guard_pos(**extra: dict[str, object]) -> GameState:
    return cq(
        {**GUARD_OPS, "RED-2": {"at": (2.0, 4.0), "ready": False, "order": "conceal"}, **extra},
        turn="B",
    )


def test_9_3_guard_1ap_engage_only_not_in_enemy_control_range() -> None:
    s = activated(cq({"RED-5": {"at": (9.0, 11.0)}, **FAR}), "RED-5")
    s2, ev = s.apply("Guard RED-5")
    assert s2.operative("RED-5").on_guard and s2.operative("RED-5").ap == 2
    assert "guard" in kinds(ev)
    # Treated as Shoot: no Shoot after it in the same activation.
    assert not s2.is_legal("Shoot RED-5 gun at BLU-2")
    s = activated(cq({"RED-5": {"at": (9.0, 11.0)}, **FAR}), "RED-5", "conceal")
    with pytest.raises(IllegalActionError, match=r"Conceal.*Guard.*9\.3"):
        s.apply("Guard RED-5")
    s = activated(cq({"RED-5": {"at": (9.0, 11.0)}, "BLU-1": {"at": (9.0, 11.0 - CLOSE)}}), "RED-5")
    with pytest.raises(IllegalActionError, match=r"9\.3"):
        s.apply("Guard RED-5")


def test_9_3_on_guard_interrupt_after_an_enemy_action_free_shoot() -> None:
    s = guard_pos()
    s, _ = play(s, ["Activate BLU-1 engage", "Dash BLU-1 to 6,11"])
    assert s.node == Decision("A", "guard")
    assert {str(a) for a in s.legal_actions()} == {"Pass", "Interrupt RED-1"}
    s, _ = play(s, ["Interrupt RED-1", "Shoot RED-1 gun at BLU-1"], ["3,1,1,1", "1,1,1"])
    r1 = s.operative("RED-1")
    assert r1.interrupted and not r1.on_guard and not r1.ready
    assert s.operative("BLU-1").wounds == 10 - 3
    assert s.node == Decision("B", "action")  # back to BLU-1's activation


def test_9_3_on_guard_interrupt_once_per_enemy_activation() -> None:
    s = guard_pos(**{"RED-3": {"at": (9.0, 9.6), "on_guard": True}})
    s, _ = play(
        s,
        [
            "Activate BLU-1 engage",
            "Dash BLU-1 to 5,11",
            "Interrupt RED-1",
            "Shoot RED-1 gun at BLU-1",
        ],
        ["1,1,1,1", "1,1,1"],
    )
    s, _ = s.apply("Reposition BLU-1 to 6,11")
    # RED-3 is still on guard, but the window of this enemy activation was used.
    assert s.operative("RED-3").on_guard
    assert s.node != Decision("A", "guard")


def test_9_3_on_guard_ends_when_it_moves() -> None:
    s = activated(cq({"RED-1": {"at": (9.0, 11.0), "on_guard": True}, **FAR}))
    s, ev = s.apply("Dash RED-1 to 8,11")
    assert not s.operative("RED-1").on_guard and "guard_ended" in kinds(ev)


def test_9_3_on_guard_ends_when_its_order_changes() -> None:
    s = cq({"RED-1": {"at": (9.0, 11.0), "on_guard": True}, **FAR})
    assert activated(s, order="engage").operative("RED-1").on_guard
    assert not activated(s, order="conceal").operative("RED-1").on_guard


def test_9_3_on_guard_ends_when_the_next_turning_point_starts() -> None:
    s = cq({"RED-1": {"at": (9.0, 11.0), "on_guard": True, "ready": False}, **FAR}, turn="B")
    s, _ = play(s, ["Activate BLU-2 engage", "End activation"])
    assert s.tp == 2
    s, _ = play(s, ["Initiative A", "Pass", "Pass"], ["6,1"])
    assert not s.operative("RED-1").on_guard


def test_9_3_on_guard_ends_when_an_enemy_ends_an_action_in_control_range_unanswered() -> None:
    s = guard_pos()
    s, _ = play(s, ["Activate BLU-1 engage", f"Charge BLU-1 to {9 - CLOSE:.3f},11", "Pass"])
    assert not s.operative("RED-1").on_guard


def test_9_3_point_blank_shot_hit_worse_and_target_cannot_retaliate() -> None:
    s = guard_pos()
    s, _ = play(s, ["Activate BLU-1 engage", f"Charge BLU-1 to {9 - CLOSE:.3f},11"])
    s, _ = s.apply("Interrupt RED-1")
    # Within control range it may Shoot, only at that enemy; Hit 3+ worsens to 4+.
    s, ev = play(s, ["Shoot RED-1 gun at BLU-1"], ["4,3,3,1", "1,1,1"])
    (ret,) = of_kind(ev, "attack_retained")
    assert ret["normals"] == 1
    # Until this enemy activation ends RED-1 cannot retaliate: no dice for it.
    s, ev = play(s, ["Fight BLU-1 knife at RED-1"], ["3,1,1"])
    assert len(of_kind(ev, "dice_rolled")) == 1
    s, _ = s.apply("Strike normal")
    assert s.operative("RED-1").wounds == 10 - 2


def test_9_3_an_operative_that_interrupted_cannot_counteract_that_tp() -> None:
    s = guard_pos(**{"BLU-3": {"at": (27.0, 18.0)}})
    s, _ = play(
        s,
        [
            "Activate BLU-1 engage",
            "Dash BLU-1 to 6,11",
            "Interrupt RED-1",
            "Shoot RED-1 gun at BLU-1",
        ],
        ["1,1,1,1", "1,1,1"],
    )
    s, _ = s.apply("End activation")
    # A has no ready operative and B still has BLU-3: RED-1 (Engage, expended) may not
    # counteract, so B activates again.
    assert s.node == Decision("B", "activate")


def test_9_3_guard_cannot_be_a_counteraction() -> None:
    s = cq({"RED-1": {"at": (9.0, 11.0), "ready": False}, "BLU-1": {"at": (27.0, 4.0)}}, turn="A")
    s, _ = s.apply("Counteract RED-1")
    with pytest.raises(IllegalActionError, match=r"Guard cannot be chosen as a counteraction"):
        s.apply("Guard RED-1")


# -------------------------------------------------------------------------------------------
# Hatchway Fight, Condensed Environment
# -------------------------------------------------------------------------------------------


def test_9_3_hatchway_fight_enemy_within_2_inches_across_an_open_hatchway() -> None:
    # RED-1 touching the hatch (edge at x 11); BLU-1 east of it, edge 1.07" from it and
    # 1.57" from RED-1 (not in control range).
    red = (11 - R, 11.0)
    s = cq({"RED-1": {"at": red}, "BLU-1": {"at": (13.2, 11.0)}}, open_hatchways=[HATCH])
    s = activated(s)
    assert not s.is_legal("Fight RED-1 knife at BLU-1")
    s, _ = play(s, ["Hatchway fight RED-1 knife at BLU-1", "Strike normal"], ["3,1,1", "1,1,1"])
    assert s.operative("BLU-1").wounds == 10 - 2
    # Treated as Fight: no Fight afterwards in this activation.
    assert s.operative("RED-1").ap == 1
    far = cq({"RED-1": {"at": red}, "BLU-1": {"at": (14.5, 11.0)}}, open_hatchways=[HATCH])
    with pytest.raises(IllegalActionError, match=r"9\.3"):
        activated(far).apply("Hatchway fight RED-1 knife at BLU-1")


def test_9_3_condensed_environment_blast_torrent_area_devastating_gain_lethal_5() -> None:
    ops = {"RED-3": {"at": (9.0, 11.0)}, "BLU-1": {"at": IN_HALL}}
    for weapon, crits in [("blast gun", 1), ("torrent gun", 1), ("dev gun", 1), ("pistol", 0)]:
        s = activated(cq(ops, open_hatchways=[HATCH]), "RED-3")
        s, ev = play(s, [f"Shoot RED-3 {weapon} at BLU-1"], ["5,1,1,1", "1,1,1"])
        (ret,) = of_kind(ev, "attack_retained")
        assert ret["crits"] == crits, weapon


def test_4_2_control_range_needs_visibility_a_closed_hatch_breaks_it() -> None:
    # Bases 0.5" apart on either side of the closed 0.5" hatch: within 1" but not visible.
    s = cq({"RED-1": {"at": (11 - R, 11.0)}, "BLU-1": {"at": (11.5 + R, 11.0)}})
    s = activated(s)
    assert not s.is_legal("Fight RED-1 knife at BLU-1")
    assert not s.is_legal("Fall Back RED-1 to 8,11")  # Fall Back needs an enemy in range


def test_4_2_operative_beside_an_enemy_behind_a_wall_moves_freely() -> None:
    # Control range is "visible and within 1"" (4.2): through the closed hatch BLU-1 is
    # 0.5" away but not visible, so RED-1 is not within its control range and may Dash and
    # Reposition away (not Fall Back, which needs an enemy within control range).
    s = activated(cq({"RED-1": {"at": (11 - R, 11.0)}, "BLU-1": {"at": (11.5 + R, 11.0)}}))
    assert s.is_legal("Dash RED-1 to 9,11")
    assert s.is_legal("Reposition RED-1 to 8,11")
    # Along the wall too: the way starts within 1" of BLU-1, all of it out of its sight.
    assert s.is_legal("Dash RED-1 to 10.3,12.5")
    # Nor is RED-1 charging out of BLU-1's control range (3.2: a Charge may not leave the
    # control range of an enemy it is within): it may Charge BLU-2, west of it.
    s2 = cq(
        {
            "RED-1": {"at": (11 - R, 11.0)},
            "BLU-1": {"at": (11.5 + R, 11.0)},
            "BLU-2": {"at": (7.0, 11.0)},
        }
    )
    assert activated(s2).is_legal(f"Charge RED-1 to {7 + 2 * R + 0.5:.2f},11")
    # With the hatch open BLU-1 is visible: within control range, RED-1 can only Fall Back.
    opened = activated(
        cq(
            {"RED-1": {"at": (11 - R, 11.0)}, "BLU-1": {"at": (11.5 + R, 11.0)}},
            open_hatchways=[HATCH],
        )
    )
    assert not opened.is_legal("Dash RED-1 to 9,11")
    assert opened.is_legal("Fall Back RED-1 to 9,11")


def test_9_3_on_guard_ends_when_it_performs_any_action() -> None:
    # Guard, then Operate Hatch in the same activation (Captain, APL 3): it acted.
    s = activated(cq({"RED-5": {"at": AT_HATCH}, **FAR}), "RED-5")
    s, _ = s.apply("Guard RED-5")
    assert s.operative("RED-5").on_guard
    s, ev = s.apply(f"Operate hatch RED-5 {HATCH}")
    assert not s.operative("RED-5").on_guard
    assert "guard_ended" in kinds(ev)


def test_9_3_on_guard_cannot_interrupt_a_counteraction() -> None:
    # Decision 8: a counteraction is not an activation. BLU-1 (expended, Engage)
    # counteracts with a Dash while RED-1 is on guard: no On Guard window.
    s = cq(
        {
            "RED-1": {"at": (9.0, 11.0), "on_guard": True},
            "BLU-1": {"at": (4.0, 11.0), "ready": False},
        },
        turn="B",
    )
    assert s.node == Decision("B", "counteract")
    s, _ = play(s, ["Counteract BLU-1", "Dash BLU-1 to 5.5,11"])
    assert s.node == Decision("A", "activate")
    assert s.operative("RED-1").on_guard
