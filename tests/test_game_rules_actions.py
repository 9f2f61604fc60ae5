"""Operatives and actions (``rules/KT24.md`` 2.1, 2.3, 3.2, 3.3, 4.8), one test per rule.

Positions are on the LAB killzone (``test_game_rules_common``); all bases are 32 mm
(radius R = 0.63"), so two operatives whose centres are ``2R + g`` apart on a line are ``g``
apart (within control range when ``g <= 1`` and nothing blocks sight).
"""

from __future__ import annotations

import pytest

from engine.game import GameState, IllegalActionError
from engine.game.universal import controller
from engine.game.work import Work
from engine.geometry import Killzone
from engine.rulesets import position
from engine.teams.io import team_from_dict
from engine.teams.model import Roster
from tests.test_game_rules_common import (
    BLU,
    LAB,
    OPTIONS_PICKUP,
    RED,
    ROSTER,
    R,
    kinds,
    lab_data,
    of_kind,
    play,
    pos,
    team_data,
)

# Two enemies 0.5" apart (within control range) in the open lane.
CLOSE = 2 * R + 0.5


def near(red: str = "RED-5", blu: str = "BLU-1", x: float = 15.0, **kw: object) -> GameState:
    """``red`` at (x, 14) and ``blu`` 0.5" east of it (in control range), A to activate."""
    ops = {red: {"at": (x, 14.0)}, blu: {"at": (x + CLOSE, 14.0)}}
    ops.update(kw)  # type: ignore[arg-type]
    return pos(ops)


def apart(red: str = "RED-5", x: float = 5.0, **spec: object) -> GameState:
    """``red`` at (x, 14) (with more ``spec`` fields) and BLU-1 far away at (27, 14)."""
    return pos({red: {"at": (x, 14.0), **spec}, "BLU-1": {"at": (27.0, 14.0)}})


def activated(s: GameState, op: str = "RED-5", order: str = "engage") -> GameState:
    return s.apply(f"Activate {op} {order}")[0]


# -------------------------------------------------------------------------------------------
# 2.3 Injured, incapacitated
# -------------------------------------------------------------------------------------------


def test_2_3_injured_move_minus_2() -> None:
    # Trooper: 10 wounds, Move 6". 4 wounds < 5 = half: injured, Move 6 - 2 = 4".
    s = activated(apart("RED-1", wounds=4), "RED-1")
    with pytest.raises(IllegalActionError):
        s.apply("Reposition RED-1 to 10,14")  # 5"
    assert s.apply("Reposition RED-1 to 9,14")[0].operative("RED-1").x == 9  # 4"


def test_2_3_exactly_half_wounds_is_not_injured() -> None:
    # 5 wounds is not fewer than half of 10: Move stays 6".
    s = activated(apart("RED-1", wounds=5), "RED-1")
    assert s.apply("Reposition RED-1 to 11,14")[0].operative("RED-1").x == 11


def test_2_3_injured_move_minus_2_never_below_4() -> None:
    data = team_data("red")
    slow = dict(data["operatives"][0], name="Slowpoke", move='5"')
    data["operatives"].append(slow)
    red = team_from_dict(data, "red-slow")
    s = position(
        LAB,
        Roster(red, ("Slowpoke",)),
        Roster(BLU, ROSTER),
        operatives={"RED-1": {"at": (5, 14), "wounds": 4}, "BLU-1": {"at": (27, 14)}},
        cp=(0, 0),
    )
    assert RED.operative("Trooper").move == 6  # the fixture's other types are untouched
    s = activated(s, "RED-1")
    # Move 5" injured: 5 - 2 = 3", but never below 4": 4".
    assert s.apply("Reposition RED-1 to 9,14")[0].operative("RED-1").x == 9
    with pytest.raises(IllegalActionError):
        s.apply("Reposition RED-1 to 10,14")


def test_2_3_injured_worsens_hit_by_1() -> None:
    # Gun hits on 3+; injured it needs 4+: four 3s retain nothing.
    s = pos({"RED-1": {"at": (8, 14), "wounds": 4}, "BLU-1": {"at": (14, 14)}})
    s, ev = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-1"], ["3,3,3,3", "1,1,1"])
    (ret,) = of_kind(ev, "attack_retained")
    assert (ret["normals"], ret["crits"]) == (0, 0)
    assert s.operative("BLU-1").wounds == 10
    # Not injured: the same dice are four normal successes (4 x 3 = 12 damage, 10 wounds).
    s = pos({"RED-1": {"at": (8, 14)}, "BLU-1": {"at": (14, 14)}})
    s, ev = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-1"], ["3,3,3,3", "1,1,1"])
    (ret,) = of_kind(ev, "attack_retained")
    assert (ret["normals"], ret["crits"]) == (4, 0)


def test_2_3_incapacitated_at_zero_wounds_removed_after_the_action() -> None:
    # Weakling: 2 wounds. One normal hit (3 damage) takes it to 0 (never below): incapacitated.
    s = pos({"RED-1": {"at": (8, 14)}, "BLU-6": {"at": (14, 14)}, "BLU-1": {"at": (27, 4)}})
    s, ev = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-6"], ["3,1,1,1", "1,1,1"])
    k = kinds(ev)
    assert (
        k.index("operative_incapacitated") < k.index("shoot_ended") < k.index("operative_removed")
    )
    b6 = s.operative("BLU-6")
    assert b6.wounds == 0 and b6.incapacitated and not b6.placed


def test_2_3_carrier_incapacitated_places_its_marker_before_removal() -> None:
    s = pos(
        {"RED-6": {"at": (20 - 0.787 - R - 0.5, 14.5)}, "BLU-1": {"at": (26, 14.5)}},
        options=OPTIONS_PICKUP,
    )
    s, _ = play(s, ["Activate RED-6 engage", "Pick up RED-6 obj"])
    r6 = s.operative("RED-6")
    assert r6.carrying == ("obj",)
    # B shoots the carrier dead (Weakling, 2 wounds): it places the marker where it stands.
    s, ev = play(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at RED-6"], ["3,1,1,1", "1,1,1"])
    k = kinds(ev)
    assert k.index("marker_placed") < k.index("operative_removed")
    (m,) = s.markers
    assert m.carrier == "" and (m.x, m.y) == (r6.x, r6.y)


# -------------------------------------------------------------------------------------------
# 3.2 Universal actions: cost, conditions
# -------------------------------------------------------------------------------------------


def test_3_2_reposition_costs_1ap_moves_up_to_move_stat() -> None:
    s = activated(apart())
    s2, _ = s.apply("Reposition RED-5 to 11,14")  # 6" = Move
    assert s2.operative("RED-5").ap == 2  # APL 3 - 1
    with pytest.raises(IllegalActionError):
        s.apply("Reposition RED-5 to 11.5,14")  # 6.5" rounds up to 7"


def test_3_2_reposition_cannot_finish_within_enemy_control_range() -> None:
    s = activated(pos({"RED-5": {"at": (5, 14)}, "BLU-1": {"at": (12, 14)}}))
    # 0.5" from the enemy's base: within its control range.
    with pytest.raises(IllegalActionError):
        s.apply(f"Reposition RED-5 to {12 - CLOSE:.3f},14")
    # 1.5" from it: fine.
    assert s.is_legal(f"Reposition RED-5 to {12 - 2 * R - 1.5:.3f},14")


def test_3_2_reposition_not_within_enemy_control_range() -> None:
    s = activated(near())
    with pytest.raises(IllegalActionError, match=r"control range.*\(3\.2\)"):
        s.apply("Reposition RED-5 to 12,14")


def test_3_2_dash_costs_1ap_and_moves_3_inches_whatever_the_move_stat() -> None:
    s = activated(apart())
    s2, _ = s.apply("Dash RED-5 to 8,14")
    assert s2.operative("RED-5").ap == 2
    with pytest.raises(IllegalActionError):
        s.apply("Dash RED-5 to 8.5,14")  # 3.5" rounds up to 4"
    # Injured (Move 4") it still dashes 3".
    s = activated(apart("RED-1", wounds=1), "RED-1")
    assert s.apply("Dash RED-1 to 8,14")[0].operative("RED-1").x == 8


def test_3_2_dash_not_within_enemy_control_range() -> None:
    s = activated(near())
    with pytest.raises(IllegalActionError, match=r"\(3\.2\)"):
        s.apply("Dash RED-5 to 13,14")


def test_3_2_fall_back_costs_2ap() -> None:
    s = activated(near())
    s, _ = s.apply("Fall Back RED-5 to 11,14")
    assert s.operative("RED-5").ap == 1  # APL 3 - 2


def test_3_2_fall_back_only_within_enemy_control_range() -> None:
    s = activated(apart())
    with pytest.raises(IllegalActionError, match=r"Fall Back needs an enemy.*\(3\.2\)"):
        s.apply("Fall Back RED-5 to 8,14")


def test_3_2_fall_back_cannot_finish_within_enemy_control_range() -> None:
    s = activated(near())
    # Moving 0.3" west leaves the bases 0.8" apart: still within control range.
    with pytest.raises(IllegalActionError):
        s.apply("Fall Back RED-5 to 14.7,14")


def test_3_2_fall_back_needs_2ap() -> None:
    s = activated(near("RED-1"), "RED-1")
    s, _ = s.apply("Fight RED-1 knife at BLU-1")
    s, _ = play(s, [], ["1,1,1", "1,1,1"])  # nobody retains a success
    assert s.operative("RED-1").ap == 1
    with pytest.raises(IllegalActionError, match=r"2AP"):
        s.apply("Fall Back RED-1 to 11,14")


def test_3_2_charge_costs_1ap_moves_move_plus_2_and_finishes_in_control_range() -> None:
    s = activated(pos({"RED-5": {"at": (5, 14)}, "BLU-1": {"at": (15, 14)}}))
    # 7.9" (Move 6 + 2 = 8): the bases end 15 - 12.9 - 2R = 0.84" apart.
    s2, _ = s.apply("Charge RED-5 to 12.9,14")
    assert s2.operative("RED-5").ap == 2
    s3 = activated(pos({"RED-5": {"at": (5, 14)}, "BLU-1": {"at": (15, 14)}}))
    with pytest.raises(IllegalActionError):
        s3.apply("Reposition RED-5 to 12.9,14")  # 8" is beyond Move


def test_3_2_charge_must_finish_within_enemy_control_range() -> None:
    s = activated(pos({"RED-5": {"at": (5, 14)}, "BLU-1": {"at": (15, 14)}}))
    with pytest.raises(IllegalActionError):
        s.apply("Charge RED-5 to 11,14")  # 2.74" from the enemy


def test_3_1_compulsory_free_action_cannot_be_forgone() -> None:
    # A free Charge a rule grants as the rest of an action it splits in two (compulsory):
    # "End activation" is neither offered nor allowed while a Charge can be made; an
    # ordinary free action may be forgone (3.1: a free action is an option).
    from engine.game.flow import advance
    from engine.game.universal import start_free_action

    for compulsory in (False, True):
        w = Work(activated(pos({"RED-5": {"at": (5, 14)}, "BLU-1": {"at": (15, 14)}})))
        ap = w.op("RED-5").ap
        start_free_action(w, "RED-5", ("Charge",), compulsory=compulsory)
        advance(w)
        s = w.freeze()
        offered = [str(a) for a in s.legal_actions()]
        assert ("End activation" in offered) is not compulsory
        assert any(a.startswith("Charge RED-5") for a in offered)
        if compulsory:
            with pytest.raises(IllegalActionError, match="must perform the rest"):
                s.apply("End activation")
            s, _ = s.apply("Charge RED-5 to 12.9,14")
            assert s.operative("RED-5").ap == ap  # the free Charge cost nothing


def test_3_2_charge_not_with_conceal_order() -> None:
    s = activated(pos({"RED-5": {"at": (5, 14)}, "BLU-1": {"at": (15, 14)}}), order="conceal")
    with pytest.raises(IllegalActionError, match=r"Conceal.*Charge"):
        s.apply("Charge RED-5 to 12.9,14")


def test_3_2_charge_not_when_already_within_enemy_control_range() -> None:
    s = activated(near())
    with pytest.raises(IllegalActionError, match=r"control range.*\(3\.2\)"):
        s.apply("Charge RED-5 to 15,13")


def test_3_2_charge_within_enemy_control_range_when_a_rule_allows_it() -> None:
    # A rule (would_allow_charge_in_control_range, e.g. a Chapter Tactic) lets RED-5 Charge
    # from within BLU-1's control range and leave it, to finish within BLU-2's.
    ops = {
        "RED-5": {"at": (15.0, 14.0)},
        "BLU-1": {"at": (15.0 + CLOSE, 14.0)},
        "BLU-2": {"at": (9.0, 14.0)},
    }
    s = activated(pos(ops))
    assert not [a for a in s.legal_actions() if a.verb == "Charge"]
    s = pos(ops)
    s = s.with_hooks(
        lambda h: h.transform(
            "would_allow_charge_in_control_range", lambda _w, v, op: v or op == "RED-5"
        )
    )
    s = activated(s)
    assert [a for a in s.legal_actions() if a.verb == "Charge"]
    s2, _ = s.apply("Charge RED-5 to 10.6,14")  # 4.4" west: 0.34" from BLU-2's base
    assert s2.operative("RED-5").x == pytest.approx(10.6)
    # It must still finish within an enemy's control range.
    with pytest.raises(IllegalActionError, match="control range"):
        s.apply("Charge RED-5 to 12.5,14")


# Same-activation exclusions of the four moves (3.2): first move, second move, allowed.
MOVES = {
    "Reposition": "Reposition RED-5 to 7,14",
    "Dash": "Dash RED-5 to 7,14",
    "Fall Back": "Fall Back RED-5 to 7,14",
    "Charge": "Charge RED-5 to {cx},14",
}
COMBOS = [
    ("Reposition", "Dash", True),
    ("Reposition", "Fall Back", False),
    ("Reposition", "Charge", False),
    ("Dash", "Reposition", True),
    ("Dash", "Fall Back", True),
    ("Dash", "Charge", False),
    ("Fall Back", "Reposition", False),
    ("Fall Back", "Dash", True),
    ("Fall Back", "Charge", False),
    ("Charge", "Reposition", False),
    ("Charge", "Dash", False),
    ("Charge", "Fall Back", False),
]


@pytest.mark.parametrize(("first", "second", "allowed"), COMBOS)
def test_3_2_move_action_same_activation_exclusions(first: str, second: str, allowed: bool) -> None:
    # RED-5 (Captain, APL 3: room for Fall Back + one more) with BLU-1 5" or 0.5" away.
    if first == "Fall Back":
        s = pos(
            {"RED-5": {"at": (9, 14)}, "BLU-1": {"at": (9 + CLOSE, 14)}, "BLU-2": {"at": (3, 20)}}
        )
        start = "Fall Back RED-5 to 7,14"
    else:
        s = pos({"RED-5": {"at": (9, 14)}, "BLU-1": {"at": (16, 14)}, "BLU-2": {"at": (3, 20)}})
        start = {
            "Reposition": "Reposition RED-5 to 7,14",
            "Dash": "Dash RED-5 to 7,14",
            "Charge": f"Charge RED-5 to {16 - CLOSE:.3f},14",
        }[first]
    s, _ = play(s, ["Activate RED-5 engage", start])
    x = s.operative("RED-5").x
    then = {
        "Reposition": f"Reposition RED-5 to {x - 1:.3f},14",
        "Dash": f"Dash RED-5 to {x - 1:.3f},14",
        "Fall Back": f"Fall Back RED-5 to {x - 2:.3f},14",
        "Charge": "Charge RED-5 to 3,18.8",  # into control range of BLU-2
    }[second]
    try:
        s.apply(then)
    except IllegalActionError as exc:
        excluded = "same activation" in str(exc)
        assert excluded != allowed, str(exc)
        if not allowed:
            assert "(3.2)" in str(exc)
    else:
        assert allowed


def test_3_2_charge_then_fight_is_allowed() -> None:
    s = activated(pos({"RED-5": {"at": (5, 14)}, "BLU-1": {"at": (15, 14)}}))
    s, _ = s.apply("Charge RED-5 to 12.9,14")
    assert s.is_legal("Fight RED-5 knife at BLU-1")


def test_3_2_shoot_costs_1ap() -> None:
    s = activated(pos({"RED-5": {"at": (8, 14)}, "BLU-1": {"at": (14, 14)}}))
    s, _ = play(s, ["Shoot RED-5 gun at BLU-1"], ["1,1,1,1", "1,1,1"])
    assert s.operative("RED-5").ap == 2


def test_3_2_shoot_not_with_conceal_order_unless_silent() -> None:
    s = activated(pos({"RED-3": {"at": (8, 14)}, "BLU-1": {"at": (14, 14)}}), "RED-3", "conceal")
    with pytest.raises(IllegalActionError, match=r"Conceal.*Silent"):
        s.apply("Shoot RED-3 pistol at BLU-1")
    # 6 Silent: the Silent weapon can be used on a Conceal order.
    s, _ = play(s, ["Shoot RED-3 silent gun at BLU-1"], ["1,1,1,1", "1,1,1"])
    assert s.operative("RED-3").ap == 1


def test_3_2_shoot_not_within_enemy_control_range() -> None:
    s = activated(near())
    with pytest.raises(IllegalActionError, match=r"Shoot cannot.*control range.*\(3\.2\)"):
        s.apply("Shoot RED-5 gun at BLU-1")


def test_3_2_fight_costs_1ap_and_needs_an_enemy_in_control_range() -> None:
    s = activated(near())
    s2, _ = play(s, ["Fight RED-5 knife at BLU-1"], ["1,1,1", "1,1,1"])
    assert s2.operative("RED-5").ap == 2
    s = activated(apart())
    with pytest.raises(IllegalActionError, match=r"Fight needs an enemy.*\(3\.2\)"):
        s.apply("Fight RED-5 knife at BLU-1")


def test_3_2_fight_allowed_on_a_conceal_order() -> None:
    s = activated(near(), order="conceal")
    assert s.is_legal("Fight RED-5 knife at BLU-1")


# -------------------------------------------------------------------------------------------
# 3.2 Pick Up / Place Marker and 4.8 marker control
# -------------------------------------------------------------------------------------------

M = 40 / 25.4 / 2  # objective marker radius (40 mm)
# West and east of the marker at (20, 14.5) with 0.5" between base and marker edge.
WEST = (20 - M - R - 0.5, 14.5)
EAST = (20 + M + R + 0.5, 14.5)


def test_3_2_pick_up_marker_costs_1ap_and_carries_it() -> None:
    s = pos({"RED-5": {"at": WEST}, "BLU-1": {"at": (27, 4)}}, options=OPTIONS_PICKUP)
    s, _ = play(s, ["Activate RED-5 engage", "Pick up RED-5 obj"])
    assert s.operative("RED-5").ap == 2 and s.operative("RED-5").carrying == ("obj",)
    assert s.markers[0].carrier == "RED-5"
    # The carried marker goes where the carrier goes (4.1).
    s, _ = s.apply("Reposition RED-5 to 16,14.5")
    assert (s.markers[0].x, s.markers[0].y) == (16, 14.5)


def test_3_2_pick_up_only_when_the_mission_allows_it() -> None:
    s = activated(pos({"RED-5": {"at": WEST}, "BLU-1": {"at": (27, 4)}}))
    with pytest.raises(IllegalActionError, match=r"cannot be picked up"):
        s.apply("Pick up RED-5 obj")


def test_3_2_pick_up_not_within_enemy_control_range() -> None:
    s = pos(
        {"RED-5": {"at": WEST}, "BLU-1": {"at": (WEST[0], WEST[1] - CLOSE)}},
        options=OPTIONS_PICKUP,
    )
    s = activated(s)
    with pytest.raises(IllegalActionError, match=r"control range.*\(3\.2\)"):
        s.apply("Pick up RED-5 obj")


def test_3_2_place_marker_not_in_the_activation_it_was_picked_up() -> None:
    s = pos({"RED-5": {"at": WEST}, "BLU-1": {"at": (27, 4)}}, options=OPTIONS_PICKUP)
    s, _ = play(s, ["Activate RED-5 engage", "Pick up RED-5 obj"])
    with pytest.raises(IllegalActionError, match=r"same activation"):
        s.apply(f"Place marker RED-5 at {WEST[0]:.3f},{WEST[1]}")


def test_3_2_place_marker_within_control_range_and_pick_up_not_while_carrying() -> None:
    kz = Killzone.from_dict(lab_data([("obj", (20.0, 14.5)), ("obj2", (20.0, 12.5))]), "lab2")
    s = pos(
        {
            "RED-1": {"at": WEST},
            "BLU-1": {"at": (27, 4)},
            "BLU-2": {"at": (27, 10)},
        },
        kz=kz,
        options=OPTIONS_PICKUP,
    )
    s, _ = play(s, ["Activate RED-1 engage", "Pick up RED-1 obj", "End activation"])
    s, _ = play(s, ["Activate BLU-1 engage", "End activation", "Counteract RED-1"])
    # Carrying obj, RED-1 cannot pick up obj2 although it controls it.
    with pytest.raises(IllegalActionError, match=r"already carries"):
        s.apply("Pick up RED-1 obj2")
    # Place Marker: within its control range only.
    with pytest.raises(IllegalActionError, match=r"control range"):
        s.apply(f"Place marker RED-1 at {WEST[0] + 3:.3f},{WEST[1]}")
    s, ev = s.apply(f"Place marker RED-1 at {WEST[0] + 1.5:.3f},{WEST[1]}")
    assert s.operative("RED-1").carrying == () and s.markers[0].carrier == ""
    assert "marker_placed" in kinds(ev)


@pytest.mark.parametrize(
    ("red", "blus", "expected"),
    [
        ("RED-5", ["BLU-1"], "A"),  # APL 3 > 2
        ("RED-1", ["BLU-1"], ""),  # 2 = 2: nobody
        ("RED-5", ["BLU-1", "BLU-2"], "B"),  # 3 < 2 + 2
    ],
)
def test_4_8_marker_controlled_by_greater_total_apl(
    red: str, blus: list[str], expected: str
) -> None:
    ops: dict[str, dict[str, object]] = {red: {"at": WEST}}
    spots = [EAST, (20, 14.5 + M + R + 0.5)]
    for b, p in zip(blus, spots, strict=False):
        ops[b] = {"at": p}
    s = pos(ops, options=OPTIONS_PICKUP)
    assert controller(Work(s), "obj") == expected
    # Pick Up Marker needs control.
    s = activated(s, red)
    assert s.is_legal(f"Pick up {red} obj") == (expected == "A")


def test_4_8_carrier_controls_its_marker_exclusively() -> None:
    s = pos(
        {"RED-6": {"at": WEST}, "BLU-1": {"at": (17, 18)}, "BLU-2": {"at": (27, 8)}},
        options=OPTIONS_PICKUP,
    )
    # APL 1: picking up spends all of RED-6's AP, its activation ends.
    s, _ = play(s, ["Activate RED-6 engage", "Pick up RED-6 obj"])
    # A B operative (APL 2) next to the carrier (APL 1) does not take the marker.
    s, _ = play(s, ["Activate BLU-1 engage", f"Charge BLU-1 to {WEST[0]:.3f},{14.5 + CLOSE}"])
    assert controller(Work(s), "obj") == "A"


# -------------------------------------------------------------------------------------------
# 3.3 Moving
# -------------------------------------------------------------------------------------------


def test_3_3_bases_never_overlap() -> None:
    s = activated(
        pos({"RED-5": {"at": (5, 14)}, "RED-1": {"at": (8, 14)}, "BLU-1": {"at": (27, 4)}})
    )
    with pytest.raises(IllegalActionError):
        s.apply("Reposition RED-5 to 8.5,14")


def test_3_2_reposition_cannot_pass_through_enemy_control_range() -> None:
    # Straight through BLU-1 is forbidden; going round its control range is longer than 6".
    s = activated(pos({"RED-5": {"at": (5, 14)}, "BLU-1": {"at": (8, 14)}}))
    with pytest.raises(IllegalActionError):
        s.apply("Reposition RED-5 to 11,14")  # straight through BLU-1


def test_narration_of_moves_names_each_action() -> None:
    # The engine's event narration (engine.game.events.narrate) words every move action.
    from engine.game.events import Event, narrate

    def moved(action: str) -> str:
        data = {"op": "RED-1", "action": action, "x": 7, "y": 14.5, "z": 0, "cost": 3}
        return narrate(Event("moved", tuple(data.items())))

    assert moved("reposition") == 'RED-1 repositions to (7, 14.5) (3")'
    assert moved("dash") == 'RED-1 dashes to (7, 14.5) (3")'
    assert moved("fall back") == 'RED-1 falls back to (7, 14.5) (3")'
    assert moved("charge") == 'RED-1 charges to (7, 14.5) (3")'


def test_cut_action_a_rule_ends_a_move_action_before_its_moved_window() -> None:
    # A rule ending the action from a "moved" hook (universal.cut_action, e.g. a mine set off
    # mid-move): the ploy window after the move does not open, and the mark is cleared with
    # the move; without the cut the window opens.
    from engine.game.universal import cut_action
    from engine.rules.ploys import Ploy
    from tests.test_game_rules_common import BLU, LAB, RED, roster

    after_move = Ploy("Test After Move", "firefight", triggers=("moved",))

    def window_opens(cut: bool) -> bool:
        s = position(LAB, roster(RED), roster(BLU), operatives={"RED-1": {"at": (5, 14.5)}})
        s = s.with_hooks(lambda h: h.ploy(after_move, ("A",)))
        if cut:
            s = s.with_hooks(lambda h: h.on("moved", lambda w, ev: cut_action(w, str(ev["op"]))))
        s, _ = s.apply("Activate RED-1 engage")
        s, _ = s.apply("Reposition RED-1 to 7,14.5")
        assert not [e for e in s.effects if e.kind == "action_cut"]
        return bool(s.node.kind == "ploy")  # type: ignore[union-attr]

    assert window_opens(False)
    assert not window_opens(True)


# -------------------------------------------------------------------------------------------
# Listing shortcuts (speed): same listing, less work
# -------------------------------------------------------------------------------------------


def test_rule_action_offered_false_skips_its_bookkeeping_and_options() -> None:
    # A rule action whose optional ``offered(w, o)`` says False is not listed, and neither
    # its options nor the hooks of its bookkeeping (would_cost_action) are asked: that is
    # the shortcut; with True it is listed as before (its options are the listing).
    import attrs

    from engine.game.actions import Action
    from engine.game.state import OperativeState

    asked: list[str] = []

    @attrs.frozen(slots=True)
    class Shout:
        offer: bool
        name: str = "Shout"
        text: str = "shout"
        ap: int = 1
        family: str = ""

        def offered(self, w: Work, o: OperativeState) -> bool:
            return self.offer

        def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
            asked.append("options")
            return [Action("Act", op=o.id, text=self.text)]

        def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
            return None

        def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
            return None  # (a rule action that changes nothing)

    def cost(w: Work, ap: int, **info: object) -> int:
        if info.get("action") == "shout":
            asked.append("cost")
        return ap

    for offer in (True, False):
        asked.clear()
        s = activated(apart())
        shout = Shout(offer)
        s = s.with_hooks(lambda h: h.action(shout, ("A",)))  # noqa: B023 - called here
        s = s.with_hooks(lambda h: h.transform("would_cost_action", cost))
        listed = "Act RED-5 shout" in [str(a) for a in s.legal_actions()]
        assert listed is offer
        assert asked == (["cost", "options"] if offer else [])


def test_mission_action_offered_only_while_its_op_is_in_play() -> None:
    # A mission action's ``offered`` is the cheap part of its common conditions: its op in
    # play for the operative's player and the turning point from 2 to 4 (8.3). The LAB
    # battle's crit op is not Loot, so Loot is never offered; made the crit op, it is
    # offered from turning point 2 only.
    import attrs

    from engine.missions.crit_ops.loot import LOOT, NAME

    w = Work(activated(apart()))
    o = w.op("RED-5")
    assert w.mission.crit_op != NAME and not LOOT.offered(w, o)
    w.mission = attrs.evolve(w.mission, crit_op=NAME)
    w.tp = 1
    assert not LOOT.offered(w, o)  # (not in the first turning point)
    w.tp = 2
    assert LOOT.offered(w, o)


def test_work_memos_follow_operative_changes() -> None:
    # Work keeps the living operatives and in_enemy_control_range until an operative
    # changes: moving BLU-1 next to RED-5 (set_op) must be seen by both at once.
    w = Work(activated(apart()))
    red = w.op("RED-5")
    assert not w.in_enemy_control_range(red)
    assert [o.id for o in w.alive("B")] == ["BLU-1"]
    w.set_op("BLU-1", x=red.x + CLOSE, y=red.y)
    assert w.in_enemy_control_range(red)
    w.set_op("BLU-1", incapacitated=True)
    assert w.alive("B") == [] and not w.in_enemy_control_range(red)
    w.alive("A").clear()  # a caller's copy: the memo is not changed
    assert [o.id for o in w.alive("A")] == ["RED-5"]


def test_work_kept_until_an_operative_changes() -> None:
    # Work.kept keeps a value until set_op: asked twice, fn runs once; after an operative
    # changes it runs again (the Shoot listing keeps who is engaged with each target so).
    w = Work(activated(apart()))
    runs: list[int] = []

    def fn() -> int:
        runs.append(1)
        return len(runs)

    assert w.kept(("test",), fn) == 1 and w.kept(("test",), fn) == 1
    w.set_op("BLU-1", x=20.0)
    assert w.kept(("test",), fn) == 2
