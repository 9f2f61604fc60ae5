"""Universal equipment markers and the Breaching Charge (``rules/KT24.md`` 7.2; marker
control 4.8), one test per rule.

Positions are on the LAB killzone (``test_game_rules_common``): every operative has a 32 mm
base (radius ``R`` = 0.63") and the equipment markers are 20 mm (radius ``MR`` = 0.394"), so
a marker whose centre is ``R + MR + g`` from an operative's centre is ``g`` from its base:
within its control range when ``g <= 1`` and nothing blocks sight (the open lane, y 13-16,
has no terrain). The markers are tokens put on the state by hand, as the pre-battle set-up
will; the modules' hooks are installed on each battle's hooks here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import pytest

from engine.agents import HeuristicAgent, RandomAgent
from engine.game import GameOptions, GameState, IllegalActionError
from engine.game.actions import Action, parse_action
from engine.game.drivers import SeededDice
from engine.game.events import Event, narrate
from engine.game.flow import advance
from engine.game.scenario import run
from engine.game.state import Chance, Decision, OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.narration import Narrator
from engine.rules.equipment import breaching, markers
from engine.rulesets import new_game
from engine.teams.model import Weapon, WeaponProfile
from tests.test_game_rules_common import BLU, LAB, RED, R, kinds, of_kind, play, pos, roster
from tests.test_game_rules_sequence import strategy

MR = markers.MARKER_DIAMETER_MM / 25.4 / 2
NEAR = R + MR + 0.5  # centre distance at which a marker is 0.5" from a base


def armed(s: GameState, *tokens: Token, equipment: Mapping[str, tuple[str, ...]] = {}) -> GameState:
    """``s`` with the markers' and the Breaching Charge's hooks installed, ``tokens`` on the
    killzone and each player's equipment selection."""
    s = s.with_hooks(markers.install)
    s = s.with_hooks(breaching.install)
    players = tuple(
        attrs.evolve(p, equipment=equipment.get(name, ()))
        for p, name in zip(s.players, ("A", "B"), strict=True)
    )
    return attrs.evolve(s, tokens=tuple(tokens), players=players)


def cache(owner: str, x: float, y: float) -> Token:
    return Token(markers.AMMO_CACHE, owner, f"{owner} ammo cache", x, y)


def comms(owner: str, x: float, y: float) -> Token:
    return Token(markers.COMMS_DEVICE, owner, f"{owner} comms device", x, y)


def mine(owner: str, x: float, y: float, n: int = 1) -> Token:
    return Token(markers.MINES, owner, f"{owner} mines {n}", x, y)


def op(s: GameState, op_id: str) -> OperativeState:
    return s.operative(op_id)


# -------------------------------------------------------------------------------------------
# 4.8 Control of an equipment marker
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("blus", "expected"),
    [
        ([], "A"),  # RED-5 (APL 3) alone
        (["BLU-1"], "A"),  # APL 3 > 2
        (["BLU-1", "BLU-2"], "B"),  # 3 < 2 + 2
    ],
)
def test_4_8_equipment_marker_controlled_by_greater_total_apl(
    blus: list[str], expected: str
) -> None:
    # The cache at (15, 14); RED-5 west of it, the blues east and south, each 0.5" away:
    # contesting operatives' APL are summed per player, the greater total controls (4.8).
    t = cache("A", 15.0, 14.0)
    ops: dict[str, dict[str, Any]] = {"RED-5": {"at": (15.0 - NEAR, 14.0)}}
    for b, p in zip(blus, [(15.0 + NEAR, 14.0), (15.0, 14.0 + NEAR)], strict=False):
        ops[b] = {"at": p}
    w = Work(armed(pos(ops), t))
    assert markers.token_controller(w, t) == expected
    assert markers.operative_controls(w, w.op("RED-5"), t) == (expected == "A")


def test_4_8_equipment_marker_is_20mm_so_1_inch_is_from_its_edge() -> None:
    # A 20 mm marker (4.8: not an objective marker) is within control range up to
    # 1" + R + MR = 2.024" between centres, not the 2.417" a 40 mm marker would allow.
    t = cache("A", 15.0, 14.0)
    w = Work(armed(pos({"RED-1": {"at": (15.0 - (R + MR + 0.99), 14.0)}}), t))
    assert markers.token_contests(w, w.op("RED-1"), t)
    w = Work(armed(pos({"RED-1": {"at": (15.0 - (R + MR + 1.05), 14.0)}}), t))
    assert not markers.token_contests(w, w.op("RED-1"), t)


# -------------------------------------------------------------------------------------------
# Ammo Cache: Ammo Resupply
# -------------------------------------------------------------------------------------------


def resupply_position(**extra: Any) -> GameState:
    """RED-1 at (5, 14) with A's cache 0.5" north of its base; BLU-1 far away at (20, 15)."""
    ops: dict[str, dict[str, Any]] = {"RED-1": {"at": (5.0, 14.0)}, "BLU-1": {"at": (20.0, 15.0)}}
    ops.update(extra)
    return pos(ops)


def test_7_2_ammo_resupply_costs_0ap_and_uses_the_cache_this_turning_point() -> None:
    # rules/KT24.md 7.2 prints Ammo Resupply at 0AP (the digest decides; the KTDash data says
    # 1AP): APL 2 -> still 2AP left. The cache is marked used in turning point 1 and RED-1
    # has the re-roll until the next one.
    s = armed(resupply_position(), cache("A", 5.0, 14.0 + NEAR))
    s, ev = play(s, ["Activate RED-1 engage", "Act RED-1 ammo resupply"])
    assert op(s, "RED-1").ap == 2
    assert s.tokens[0].counter("used_tp") == 1
    assert [(e.kind, e.op, e.until) for e in s.effects] == [("ammo_resupply", "RED-1", "end_tp")]
    assert "ammo_cache_used" in kinds(ev)


def test_7_2_ammo_resupply_not_within_enemy_control_range() -> None:
    # BLU-1 0.5" east of RED-1: the action cannot be performed within an enemy's control
    # range (7.2), though RED-5 would still contest the cache.
    s = armed(
        resupply_position(**{"BLU-1": {"at": (5.0 + 2 * R + 0.5, 14.0)}}),
        cache("A", 5.0, 14.0 + NEAR),
    )
    s, _ = play(s, ["Activate RED-1 engage"])
    assert not s.is_legal("Act RED-1 ammo resupply")
    with pytest.raises(IllegalActionError, match="control range of an enemy"):
        s.apply("Act RED-1 ammo resupply")


def test_7_2_ammo_resupply_not_with_an_enemy_cache() -> None:
    # The cache next to RED-1 is B's: "one of your Ammo Cache markers" (7.2).
    s = armed(resupply_position(), cache("B", 5.0, 14.0 + NEAR))
    s, _ = play(s, ["Activate RED-1 engage"])
    assert Action("Act", op="RED-1", text="ammo resupply") not in list(s.legal_actions())
    with pytest.raises(IllegalActionError, match="no Ammo Cache"):
        s.apply("Act RED-1 ammo resupply")


def test_7_2_ammo_resupply_needs_the_operative_to_control_the_cache() -> None:
    # A's cache 3" away: not within RED-1's control range, so RED-1 does not control it.
    s = armed(resupply_position(), cache("A", 5.0, 17.5))
    s, _ = play(s, ["Activate RED-1 engage"])
    with pytest.raises(IllegalActionError, match="must control"):
        s.apply("Act RED-1 ammo resupply")


def test_7_2_ammo_resupply_not_with_a_cache_used_this_turning_point() -> None:
    # RED-1 uses the cache; RED-2, next to it too, cannot use it again this turning point.
    s = armed(
        resupply_position(**{"RED-2": {"at": (5.0, 14.0 + 2 * NEAR)}}),
        cache("A", 5.0, 14.0 + NEAR),
    )
    s, _ = play(
        s,
        [
            "Activate RED-1 engage",
            "Act RED-1 ammo resupply",
            "End activation",
            "Activate BLU-1 conceal",
            "End activation",
            "Activate RED-2 engage",
        ],
    )
    with pytest.raises(IllegalActionError, match="already used this turning point"):
        s.apply("Act RED-2 ammo resupply")


def test_7_2_ammo_resupply_lasts_until_the_next_turning_point() -> None:
    # Used in turning point 1: the re-roll effect ends with it (nothing happens between its
    # end and the start of the next), and in turning point 2 the cache may be used again.
    s = armed(resupply_position(), cache("A", 5.0, 14.0 + NEAR))
    s, _ = play(
        s,
        [
            "Activate RED-1 engage",
            "Act RED-1 ammo resupply",
            "End activation",
            "Activate BLU-1 conceal",
            "End activation",
        ],
    )
    assert s.tp == 2 and s.effects == ()  # turning point 1 ended, 2 began (roll-off next)
    s = strategy(s)
    assert s.tp == 2
    s, _ = play(s, ["Activate RED-1 engage", "Act RED-1 ammo resupply"])
    assert s.tokens[0].counter("used_tp") == 2
    assert [e.kind for e in s.effects] == ["ammo_resupply"]


def shoot_with_resupply(s: GameState) -> GameState:
    s, _ = play(s, ["Activate RED-1 engage", "Act RED-1 ammo resupply"])
    s, _ = play(s, ["Shoot RED-1 gun at BLU-1"], ["6,5,2,1"])
    return s


def test_7_2_ammo_resupply_rerolls_one_attack_die_free_and_not_as_a_ploy() -> None:
    # After rolling attack dice (6,5,2,1) RED-1 may re-roll one of them: offered as a rule's
    # option in the attack dice window, for no CP (A has 0CP here) and not noted as a ploy
    # used (7.1 counts ploys; this is equipment, 7.2).
    s = shoot_with_resupply(armed(resupply_position(), cache("A", 5.0, 14.0 + NEAR)))
    assert isinstance(s.node, Decision) and s.node.kind == "dice_ploy"
    uses = [a for a in s.legal_actions() if a.verb == "Use"]
    assert sorted(a.text for a in uses) == [f"ammo resupply {v}" for v in (1, 2, 5, 6)]
    s, ev = run(s, ["Use ammo resupply 1"], ["6"], strict=False)
    assert of_kind(ev, "rule_used")[0]["rule"] == "Ammo Resupply"
    assert "ploy_used" not in kinds(ev) and "cp_spent" not in kinds(ev)
    assert s.player("A").ploys_used == () and s.player("A").cp == 0
    # Once per shooting sequence: the window does not offer it again (no second re-roll).
    assert len(of_kind(ev, "dice_rerolled")) == 1
    assert not (
        isinstance(s.node, Decision) and s.node.kind == "dice_ploy" and s.node.player == "A"
    )


def test_7_2_ammo_resupply_rerolls_only_weapons_from_the_datacard() -> None:
    # A weapon a rule gives the operative (an equipment grenade, via a weapon source) is
    # not "a weapon from its datacard": no re-roll is offered when shooting it (7.2).
    s = armed(resupply_position(), cache("A", 5.0, 14.0 + NEAR))
    nade = Weapon("Frag", "ranged", (WeaponProfile("", 4, 4, 2, 4),))
    s = s.with_hooks(
        lambda h: h.weapon_source(lambda _w, _op, kind: [nade] if kind == "ranged" else [])
    )
    s, _ = play(s, ["Activate RED-1 engage", "Act RED-1 ammo resupply"])
    s, _ = run(s, ["Shoot RED-1 frag at BLU-1"], ["6,5,2,1"], strict=False)
    assert not (isinstance(s.node, Decision) and s.node.kind == "dice_ploy")


def test_7_2_ammo_resupply_reroll_needs_the_action_first() -> None:
    # Without Ammo Resupply performed, shooting next to the cache gives no re-roll.
    s = armed(resupply_position(), cache("A", 5.0, 14.0 + NEAR))
    s, _ = run(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-1"], ["6,5,2,1"], strict=False)
    assert not (isinstance(s.node, Decision) and s.node.kind == "dice_ploy")


# -------------------------------------------------------------------------------------------
# Comms Device
# -------------------------------------------------------------------------------------------


def test_7_2_comms_device_adds_3_inches_to_support_distances_while_controlled() -> None:
    # RED-1 controls A's device: its "friendly operative within 6"" becomes 9"; RED-2, far
    # from it, keeps 6" (the +3" is for the SUPPORT rules of the operative controlling it).
    s = armed(
        pos({"RED-1": {"at": (5.0, 14.0)}, "RED-2": {"at": (5.0, 4.0)}}),
        comms("A", 5.0, 14.0 + NEAR),
    )
    w = Work(s)
    assert markers.support_distance(w, "RED-1", 6.0) == 9.0
    assert markers.support_distance(w, "RED-2", 6.0) == 6.0


def test_7_2_comms_device_not_the_opponents() -> None:
    # B's device next to RED-1, which controls it: "you cannot benefit from your
    # opponent's Comms Device markers" (7.2).
    s = armed(pos({"RED-1": {"at": (5.0, 14.0)}}), comms("B", 5.0, 14.0 + NEAR))
    assert markers.support_distance(Work(s), "RED-1", 6.0) == 6.0


def test_7_2_comms_device_needs_control_not_just_contest() -> None:
    # BLU-1 and BLU-2 (APL 2 + 2) contest A's device too: B controls it (4 > 2), so RED-1
    # does not, and gets no bonus (4.8).
    d = comms("A", 15.0, 14.0)
    s = armed(
        pos(
            {
                "RED-1": {"at": (15.0 - NEAR, 14.0)},
                "BLU-1": {"at": (15.0 + NEAR, 14.0)},
                "BLU-2": {"at": (15.0, 14.0 + NEAR)},
            }
        ),
        d,
    )
    assert markers.support_distance(Work(s), "RED-1", 6.0) == 6.0


# -------------------------------------------------------------------------------------------
# Mines
# -------------------------------------------------------------------------------------------


def test_7_2_mines_d3_is_half_a_d6_rounded_up() -> None:
    # D3 from one D6 (2.4): 1-2 -> 1, 3-4 -> 2, 5-6 -> 3, so each D3 value has weight 2/6.
    assert [markers.d3(v) for v in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    with pytest.raises(ValueError, match="1 to 6"):
        markers.d3(7)


def test_7_2_mines_first_operative_within_control_range_takes_d3_plus_3() -> None:
    # RED-1 repositions to 0.5" from B's mine: the marker is removed and the mine rolls one
    # D6 for its D3 (a chance node of six equal outcomes); a 5 is D3 3, so 3 + 3 = 6 damage:
    # 10 - 6 = 4 wounds left.
    s = armed(pos({"RED-1": {"at": (5.0, 14.0)}}), mine("B", 10.0 + NEAR, 14.0))
    s, ev = play(s, ["Activate RED-1 engage", "Reposition RED-1 to 10,14"])
    assert isinstance(s.node, Chance) and s.node.request.kind == "mines"
    assert [w for _, w in s.chance_outcomes()] == [1] * 6
    assert s.tokens == ()
    assert of_kind(ev, "mines_triggered")[0]["op"] == "RED-1"
    s, ev = play(s, [], ["5"])
    assert of_kind(ev, "mines_damage")[0]["damage"] == 6
    assert op(s, "RED-1").wounds == 4


def test_7_2_mines_set_off_mid_move() -> None:
    # The mine lies 0.5" beside the path from (5, 14) to (11, 14) (taken as the straight
    # segment), though both ends are more than 1" from it (2.7" and 4.1" between centres,
    # more than R + MR + 1 = 2.02"): passing within control range counts.
    s = armed(pos({"RED-1": {"at": (5.0, 14.0)}}), mine("B", 7.5, 14.0 + NEAR))
    s, ev = play(s, ["Activate RED-1 engage", "Reposition RED-1 to 11,14"], ["2"])
    assert of_kind(ev, "mines_damage")[0]["damage"] == 4  # D3 1 (rolled 2) + 3
    assert op(s, "RED-1").wounds == 6
    assert (op(s, "RED-1").x, op(s, "RED-1").y) == (11.0, 14.0)  # the move is completed


def test_7_2_mines_set_off_by_any_operative_even_a_friendly_one() -> None:
    # A's own mine: "an operative's control range" says neither friendly nor enemy (7.2).
    s = armed(pos({"RED-1": {"at": (5.0, 14.0)}}), mine("A", 10.0 + NEAR, 14.0))
    s, _ = play(s, ["Activate RED-1 engage", "Reposition RED-1 to 10,14"], ["6"])
    assert op(s, "RED-1").wounds == 4  # D3 3 + 3 = 6
    assert s.tokens == ()


def test_7_2_mines_only_the_first_time() -> None:
    # The marker is removed when it goes off: RED-2 moving past the same spot later takes
    # nothing (7.2 "the first time").
    s = armed(
        pos({"RED-1": {"at": (5.0, 14.0)}, "RED-2": {"at": (6.0, 16.0)}}),
        mine("B", 10.0 + NEAR, 14.0),
    )
    s, _ = play(s, ["Activate RED-1 engage", "Reposition RED-1 to 10,14"], ["1"])
    # RED-2 ends 0.38" from where the mine was ((11.524, 14) to (11.524, 15.4): 1.4" between
    # centres, less R + MR = 1.02"), but it is gone.
    s, ev = play(
        s, ["End activation", "Activate RED-2 engage", f"Reposition RED-2 to {10 + NEAR:.3f},15.4"]
    )
    assert "mines_triggered" not in kinds(ev)
    assert op(s, "RED-2").wounds == 10


def test_7_2_mines_that_incapacitate_remove_the_operative_after_the_action() -> None:
    # The Weakling (RED-6, 2 wounds) takes at least 4 damage: incapacitated, then removed
    # when its move is complete (2.3).
    s = armed(pos({"RED-6": {"at": (5.0, 14.0)}}), mine("B", 10.0 + NEAR, 14.0))
    s, ev = play(s, ["Activate RED-6 engage", "Reposition RED-6 to 10,14"], ["3"])
    assert "operative_incapacitated" in kinds(ev) and not op(s, "RED-6").placed


def test_7_2_mines_set_off_when_an_operative_is_set_up_within_control_range() -> None:
    # A's mine in its drop zone (x 0-6); deploying RED-1 0.5" from it sets it off at once,
    # in the set-up; RED-1 takes D3 2 (rolled 4) + 3 = 5 and stays set up with 5 wounds.
    # No selection step, the kill op alone (no mission step before deployment).
    options = GameOptions(equipment={"A": (), "B": ()}, mission="kill_op")
    s = new_game(LAB, roster(RED, ("Trooper",)), roster(BLU, ("Trooper",)), options)
    s, _ = play(s, ["Initiative A", "Drop zone A"], ["6,1"])
    s = armed(s, mine("A", 3.0 + NEAR, 11.0))
    s, ev = play(s, ["Deploy RED-1 at 3,11"], ["4"])
    assert of_kind(ev, "mines_damage")[0]["damage"] == 5
    assert op(s, "RED-1").wounds == 5 and op(s, "RED-1").placed
    assert isinstance(s.node, Decision) and s.node.kind == "deploy"


def test_7_2_mines_set_off_when_a_rule_sets_up_an_operative() -> None:
    # A rule that places an operative emits operative_set_up: the mine within its control
    # range goes off as after a move.
    s = armed(pos({"RED-1": {"at": (10.0, 14.0)}}), mine("B", 10.0 + NEAR, 14.0))
    w = Work(s)
    w.emit("operative_set_up", op="RED-1")
    w.node = None
    advance(w)
    s = w.freeze()
    assert isinstance(s.node, Chance) and s.node.request.kind == "mines"
    s, _ = play(s, [], ["6"])
    assert op(s, "RED-1").wounds == 4


def test_7_2_mines_set_off_when_sight_changes() -> None:
    # Operating a hatchway changes what is visible: a mine now within an operative's
    # control range goes off (here RED-1 already stands 0.5" from it when the event comes).
    s = armed(pos({"RED-1": {"at": (10.0, 14.0)}}), mine("B", 10.0 + NEAR, 14.0))
    w = Work(s)
    w.emit("hatch_operated", op="RED-1", hatch="h", open=True)
    assert [e.kind for e in w.events][-1] == "mines_triggered" and w.tokens == []


def test_7_2_mines_two_passed_go_off_in_the_order_met() -> None:
    # Mines at x 8 and x 12 beside the path from x 5 to x 15: the one at x 8 first.
    s = armed(
        pos({"RED-5": {"at": (5.0, 14.0)}}),
        mine("B", 12.0, 14.0 + NEAR, 2),
        mine("B", 8.0, 14.0 + NEAR, 1),
    )
    s, ev = play(s, ["Activate RED-5 engage", "Reposition RED-5 to 11,14"], ["1", "1"])
    assert [e["marker"] for e in of_kind(ev, "mines_damage")] == ["B mines 1", "B mines 2"]
    assert op(s, "RED-5").wounds == 12 - 4 - 4


def screen_killzone() -> Any:
    """LAB with a 5" Heavy screen at x 19.8-20.2, y 6.5-8: a Reposition from (18.5, 7) to
    (21.5, 7) goes around its south end (through (19.17, 5.87) and (20.83, 5.87), 6")."""
    from engine.geometry import Killzone
    from tests.test_game_rules_common import lab_data, rect

    data = lab_data()
    screen = {"polygon": rect(19.8, 6.5, 20.2, 8), "height": 5.0, "types": ["Heavy"]}
    data["features"].append({"name": "screen", "parts": [screen]})
    return Killzone.from_dict(data, "lab_screen")


def test_7_2_mines_judge_the_route_taken_not_the_straight_segment() -> None:
    # Mine at (20, 8.6), north of the screen: the straight segment y 7 passes 1.6"-1.8"
    # (centres) from it in sight over the screen's end, within control range (the old
    # straight-segment reading set it off), but the route goes around the south end, 2.7"
    # away and behind the screen; the start and the end are 2.19" away (more than 2.02"):
    # it stays on the killzone.
    kz = screen_killzone()
    s = armed(pos({"RED-1": {"at": (18.5, 7.0)}}, kz=kz), mine("B", 20.0, 8.6))
    s, ev = play(s, ["Activate RED-1 engage", "Reposition RED-1 to 21.5,7"])
    assert not of_kind(ev, "mines_triggered")
    assert len(s.tokens) == 1
    # Mine at (20, 4.5), south of it: 2.5" from the straight segment (no), 1.37" from the
    # route at y 5.87 (0.35" from the base): it goes off on the way (D3 1 + 3 = 4).
    s = armed(pos({"RED-1": {"at": (18.5, 7.0)}}, kz=kz), mine("B", 20.0, 4.5))
    s, ev = play(s, ["Activate RED-1 engage", "Reposition RED-1 to 21.5,7"], ["1"])
    assert of_kind(ev, "mines_triggered")[0]["op"] == "RED-1"
    assert op(s, "RED-1").wounds == 6
    assert (op(s, "RED-1").x, op(s, "RED-1").y) == (21.5, 7.0)


def test_move_route_searches_the_route_of_a_move_it_was_not_given() -> None:
    # move_route (engine.game.universal) of a "moved" event whose path do_move did not keep
    # (a listed destination, here a hand-made event): the movement search's route from the
    # start to where RED-1 stands, around the screen's south end; a move that is not a move
    # action (a rule's set-up) is the straight segment.
    from engine.game import universal

    s = pos({"RED-1": {"at": (21.5, 7.0)}}, kz=screen_killzone())
    w = Work(s)
    ev = Event.make("moved", op="RED-1", action="reposition", x0=18.5, y0=7.0, z0=0.0, cost=6.0)
    route = universal.move_route(w, ev)
    assert route.points[0][:2] == (18.5, 7.0) and route.points[-1][:2] == (21.5, 7.0)
    assert len(route.points) == 4 and all(p[1] < 7 for p in route.points[1:-1])
    assert universal.route_distance(route, 20.0, route.points[1][1]) > 2
    odd = Event.make("moved", op="RED-1", action="set up", x0=18.5, y0=7.0, z0=0.0, cost=0.0)
    assert len(universal.move_route(w, odd).points) == 2


# -------------------------------------------------------------------------------------------
# Breaching Charge
# -------------------------------------------------------------------------------------------


@attrs.frozen(slots=True)
class Breach:
    """A test-only rule action called Breach (no killzone offers one yet)."""

    ap: int = 2
    name: str = "Breach"
    text: str = "breach"
    family: str = ""

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        return [Action("Act", op=o.id, text=self.text)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        return None

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        return None  # (a rule action that changes nothing)


def breach_position(ap: int = 2, take: tuple[str, ...] = ("Breaching Charge",)) -> GameState:
    s = armed(
        pos({"RED-5": {"at": (5.0, 14.0)}, "RED-1": {"at": (5.0, 4.0)}, "BLU-1": {"at": (25, 4)}}),
        equipment={"A": take},
    )
    s = s.with_hooks(lambda h: h.action(Breach(ap=ap), ("A", "B")))
    return s


def test_7_2_breaching_charge_breach_costs_1ap_less_once_per_battle() -> None:
    # RED-1 (APL 2) breaches for 2 - 1 = 1AP and has 1AP left; the charge is spent (once
    # per battle), so RED-5's Breach later costs its printed 2AP: APL 3 - 2 = 1AP left.
    s = breach_position()
    s, ev = play(s, ["Activate RED-1 engage", "Act RED-1 breach"])
    assert op(s, "RED-1").ap == 1
    assert of_kind(ev, "equipment_used")[0]["item"] == "Breaching Charge"
    assert s.player("A").uses == (("breaching_charge", 1),)
    s, _ = play(s, ["End activation", "Activate BLU-1 conceal", "End activation"])
    s, ev = play(s, ["Activate RED-5 engage", "Act RED-5 breach"])
    assert op(s, "RED-5").ap == 1
    assert "equipment_used" not in kinds(ev)


def test_7_2_breaching_charge_never_below_1ap() -> None:
    # A 1AP Breach stays 1AP (minimum 1): RED-5 (APL 3) has 2AP left, the charge unspent.
    s = breach_position(ap=1)
    s, ev = play(s, ["Activate RED-5 engage", "Act RED-5 breach"])
    assert op(s, "RED-5").ap == 2
    assert "equipment_used" not in kinds(ev)
    assert s.player("A").uses == ()


def test_7_2_breaching_charge_only_for_the_player_who_took_it() -> None:
    # Without the option selected, the Breach costs its printed 2AP: 3 - 2 = 1AP left.
    s = breach_position(take=())
    s, _ = play(s, ["Activate RED-5 engage", "Act RED-5 breach"])
    assert op(s, "RED-5").ap == 1


def test_install_twice_adds_nothing() -> None:
    # The battle's set-up may already have installed the modules: a second install must
    # not double the Comms Device's +3" (6 + 3 = 9, not 12) nor the Breaching Charge's -1AP
    # (a 3AP Breach costs 2: RED-5's APL 3 leaves 1AP, not 2).
    s = armed(pos({"RED-1": {"at": (5.0, 14.0)}}), comms("A", 5.0, 14.0 + NEAR))
    s = s.with_hooks(markers.install)
    assert markers.support_distance(Work(s), "RED-1", 6.0) == 9.0
    s = breach_position(ap=3)
    s = s.with_hooks(breaching.install)
    s, _ = play(s, ["Activate RED-5 engage", "Act RED-5 breach"])
    assert op(s, "RED-5").ap == 1


def test_7_2_breaching_charge_is_inert_without_a_breach_action() -> None:
    # No killzone or rule offers a Breach action here: the module says so when the option
    # is selected (an equipment_inert event, narrated).
    s = armed(pos({"RED-1": {"at": (5.0, 14.0)}}))
    w = Work(s)
    assert breaching.inert_reason(w) == breaching.INERT_NOTE
    w.emit("equipment_selected", player="A", items=("Breaching Charge", "Mines"))
    inert = of_kind(w.events, "equipment_inert")
    assert len(inert) == 1 and narrate(inert[0]) == f"A: {breaching.INERT_NOTE}"
    s = s.with_hooks(lambda h: h.action(Breach(), ("A",)))
    assert breaching.inert_reason(Work(s)) is None


# -------------------------------------------------------------------------------------------
# Narration
# -------------------------------------------------------------------------------------------


def test_narration_of_equipment_marker_events() -> None:
    # Each event of these modules has its line (engine.game.events templates).
    lines = [
        narrate(Event.make("rule_used", player="A", rule="Ammo Resupply", trigger="x")),
        narrate(Event.make("mines_triggered", op="RED-1", marker="B mines", player="B")),
        narrate(Event.make("mines_damage", op="RED-1", marker="B mines", d6=5, d3=3, damage=6)),
        narrate(Event.make("ammo_cache_used", op="RED-1", marker="A ammo cache", player="A")),
        narrate(
            Event.make(
                "equipment_used", player="A", op="RED-1", item="Breaching Charge", why="Breach"
            )
        ),
    ]
    assert lines == [
        "A uses Ammo Resupply",
        "  RED-1 sets off B mines",
        "  B mines: D3 3 (rolled 5) + 3 = 6 damage",
        "  A ammo cache is used this turning point",
        "A uses Breaching Charge (Breach)",
    ]


# -------------------------------------------------------------------------------------------
# Agents
# -------------------------------------------------------------------------------------------


def agents_position() -> GameState:
    """RED-5 (APL 3) by A's cache with a shot at BLU-1 across the open lane; a mine of B's
    on the way, A's device by RED-1."""
    return armed(
        pos(
            {
                "RED-5": {"at": (5.0, 14.0)},
                "RED-1": {"at": (5.0, 8.0)},
                "BLU-1": {"at": (20.0, 15.0)},
                "BLU-2": {"at": (22.0, 4.0)},
            }
        ),
        cache("A", 5.0, 14.0 + NEAR),
        mine("B", 12.0, 14.0),
        comms("A", 5.0 - NEAR, 8.0),
    )


def test_heuristic_resupplies_before_a_worthwhile_shot_then_rerolls_a_failed_die() -> None:
    # Rule of thumb (engine.agents.heuristic): with 3AP, no shot yet and a shot worth at
    # least a fifth of an operative, Ammo Resupply first; in the attack dice window the free
    # re-roll takes the lowest failed die (a 1 against Hit 3+).
    agent = HeuristicAgent()
    s, _ = play(agents_position(), ["Activate RED-5 engage"])
    assert agent.act(s) == Action("Act", op="RED-5", text="ammo resupply")
    s, _ = play(s, ["Act RED-5 ammo resupply", "Shoot RED-5 gun at BLU-1"], ["6,5,2,1"])
    assert agent.act(s) == Action("Use", text="ammo resupply 1")


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_agents_play_to_the_end_with_equipment_markers(seed: int) -> None:
    # Random and heuristic agents finish the battle with a cache, a device and a mine on
    # the killzone: every listed action applies (no crash, the battle ends).
    s = agents_position()
    agents = {"A": HeuristicAgent() if seed % 2 else RandomAgent(seed), "B": RandomAgent(seed + 1)}
    dice = SeededDice(seed)
    for _ in range(2000):
        if s.is_terminal:
            break
        if isinstance(s.node, Chance):
            s, _ = s.apply(dice.roll(s))
        else:
            assert isinstance(s.node, Decision)
            s, _ = s.apply(agents[s.node.player].act(s))
    assert s.is_terminal


def test_narration_names_the_ammo_resupply_reroll() -> None:
    # The compact narration writes the rule's re-roll where the attack dice are, like a
    # Command Re-roll ("CP re-roll"), naming the rule instead of a CP.
    s = armed(resupply_position(), cache("A", 5.0, 14.0 + NEAR))
    lines: list[str] = []
    narrator = Narrator(lines.append)
    script = ["Activate RED-1 engage", "Act RED-1 ammo resupply", "Shoot RED-1 gun at BLU-1"]
    steps = [*script, "roll 6,5,2,1", "Use ammo resupply 1", "roll 6"]
    for text in steps:
        a = parse_action(text)
        after, ev = s.apply(a)
        narrator.on_step(s, a, "", after, ev)
        s = after
    narrator.close()
    assert "RED-1 performs Ammo Resupply; A ammo cache is used this turning point" in lines[0]
    assert "attack 6,5,2,1, Ammo Resupply re-roll 1 to 6" in lines[1]
