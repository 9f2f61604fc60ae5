"""The Infiltration and Recon tac ops of Approved Ops 2025 (``rules/KT24.md`` 8.4): one test
per scoring condition, per mission action and per reveal trigger.

Positions are on the OPS killzone: the LAB killzone of ``test_game_rules_common`` (30" x
22", drop zones A x 0-6 and B x 24-30) with territories (A x 0-15, B x 15-30) and the three
objective markers of the pack on the open lane: ``A`` at (8, 14.5), ``centre`` at
(15, 14.5), ``B`` at (22, 14.5). Every operative has a 32 mm base (radius ``R`` = 0.63"); an
objective marker is 40 mm (radius ``OR`` = 0.787"), so an operative whose centre is
``R + OR + g`` from a marker's is ``g`` from it: within control range when ``g <= 1``.

Scoring is driven by the real flow: the position leaves one operative ready, it is
activated and ends its activation, and the turning point ends (``turning_point_ending``,
where the ops score); in turning point 4 the battle ends too. Every other operative is
expended and has counteracted, so nobody is asked anything else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import pytest

from engine.game import GameOptions, GameState, IllegalActionError
from engine.game.events import Event
from engine.game.observation import observe
from engine.game.tokens import Token
from engine.geometry import Killzone
from engine.rulesets import position
from engine.teams.io import team_from_dict
from engine.teams.model import Team
from tests.test_game_rules_common import ROSTER, R, lab_data, of_kind, play, rect, roster

OR = 40 / 25.4 / 2  # objective marker radius (inches)
NEAR = R + OR + 0.5  # centre distance at which an operative is 0.5" from an objective marker


def _ops_killzone() -> Killzone:
    data = lab_data([("A", (8.0, 14.5)), ("centre", (15.0, 14.5)), ("B", (22.0, 14.5))])
    data["name"] = "ops"
    data["territories"] = {"A": rect(0, 0, 15, 22), "B": rect(15, 0, 30, 22)}
    return Killzone.from_dict(data, "ops")


OPS = _ops_killzone()


def _team(team_id: str) -> Team:
    from tests.test_game_rules_common import team_data

    data = team_data(team_id)
    data["archetypes"] = ["Infiltration", "Recon"]
    return team_from_dict(data, team_id)


RED = _team("red")
BLU = _team("blu")


def pos(
    operatives: Mapping[str, Mapping[str, Any]],
    *,
    tp: int = 2,
    a: str = "",
    b: str = "",
    revealed: tuple[bool, bool] = (False, False),
    **kw: Any,
) -> GameState:
    """A Firefight-phase position on OPS in turning point ``tp`` with tac ops ``a`` and
    ``b``; operatives not named ``ready`` are expended and have counteracted."""
    ops = {
        k: {"ready": False, "counteracted": True, **v} if "ready" not in v else dict(v)
        for k, v in operatives.items()
    }
    s = position(
        OPS,
        roster(RED, ROSTER),
        roster(BLU, ROSTER),
        operatives=ops,
        tp=tp,
        cp=(0, 0),
        **kw,
    )
    return with_ops(s, a, b, revealed)


def with_ops(
    s: GameState, a: str = "", b: str = "", revealed: tuple[bool, bool] = (False, False)
) -> GameState:
    """``s`` with each player's tac op (and whether it is revealed)."""
    return attrs.evolve(s, mission=attrs.evolve(s.mission, tac_ops=(a, b), tac_revealed=revealed))


def end_tp(
    s: GameState, actor: str, order: str = "conceal", actions: Sequence[str] = ()
) -> tuple[GameState, list[Event]]:
    """Activate the one ready operative ``actor``, perform ``actions``, end the activation:
    the turning point ends (and the battle after turning point 4)."""
    return play(s, [f"Activate {actor} {order}", *actions, "End activation"])


def tac_vp(s: GameState, player: str) -> int:
    return s.mission.op_vp("tac", player)


def vp_whys(events: list[Event], player: str = "A") -> list[str]:
    return [e["why"] for e in of_kind(events, "vp_scored") if e["player"] == player]


def revealed(events: list[Event], player: str = "A") -> list[Event]:
    return [e for e in of_kind(events, "tac_op_revealed") if e["player"] == player]


# -------------------------------------------------------------------------------------------
# Plant Devices
# -------------------------------------------------------------------------------------------

PD = "Plant Devices"


def test_8_4_plant_device_gives_the_controlled_marker_a_device_and_reveals_the_op() -> None:
    # RED-1 is 0.5" from the centre marker, nobody else near: it controls it (4.8). Plant
    # Device (1AP) gives the marker A's Device token; the first one reveals the op.
    s = pos({"RED-1": {"at": (15.0 - NEAR, 14.5), "ready": True}, "BLU-1": {"at": (27, 3)}}, a=PD)
    s, ev = play(s, ["Activate RED-1 conceal", "Act RED-1 plant device centre"])
    assert s.mission.fact("Plant Devices:A:centre") is True
    assert s.operative("RED-1").ap == 1  # APL 2 - 1AP
    assert [e["why"] for e in revealed(ev)] == ["a friendly operative performed Plant Device"]
    assert s.mission.tac_revealed == (True, False)


def test_8_4_plant_device_not_in_the_first_turning_point() -> None:
    s = pos({"RED-1": {"at": (15.0 - NEAR, 14.5), "ready": True}}, tp=1, a=PD)
    with pytest.raises(IllegalActionError, match="first turning point"):
        play(s, ["Activate RED-1 conceal", "Act RED-1 plant device centre"])


def test_8_4_plant_device_not_twice_on_one_marker_nor_on_an_uncontrolled_one() -> None:
    s = pos({"RED-1": {"at": (15.0 - NEAR, 14.5), "ready": True}}, a=PD)
    s = attrs.evolve(s, mission=attrs.evolve(s.mission, facts=(("Plant Devices:A:centre", True),)))
    with pytest.raises(IllegalActionError, match="already has"):
        play(s, ["Activate RED-1 conceal", "Act RED-1 plant device centre"])
    with pytest.raises(IllegalActionError, match="must control"):
        play(s, ["Activate RED-1 conceal", "Act RED-1 plant device b"])


def test_8_4_plant_device_is_only_for_the_player_who_selected_the_op() -> None:
    s = pos({"RED-1": {"at": (15.0 - NEAR, 14.5), "ready": True}}, b=PD)
    with pytest.raises(IllegalActionError, match="not player A's tac op"):
        play(s, ["Activate RED-1 conceal", "Act RED-1 plant device centre"])


def devices(s: GameState, *markers: str, player: str = "A") -> GameState:
    facts = tuple(sorted((f"Plant Devices:{player}:{m}", True) for m in markers))
    return attrs.evolve(s, mission=attrs.evolve(s.mission, facts=facts))


def test_8_4_plant_devices_scores_1vp_for_a_device_on_the_opponents_marker() -> None:
    # A's Device on B's objective marker scores at the end of turning point 2 even though
    # no enemy operative contests it (the condition asks only that it has the Device).
    s = devices(pos({"RED-1": {"at": (3, 3), "ready": True}, "BLU-1": {"at": (27, 3)}}, a=PD), "B")
    s, ev = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 1
    assert vp_whys(ev) == ["Plant Devices: a Device on the opponent's objective marker"]


def test_8_4_plant_devices_scores_other_markers_only_while_the_enemy_contests_them() -> None:
    # Devices on the centre and on A's own marker: BLU-1 contests the centre (0.5" away),
    # nobody contests A's marker: 1VP (the centre only).
    ops = {"RED-1": {"at": (3, 3), "ready": True}, "BLU-1": {"at": (15.0 + NEAR, 14.5)}}
    s = devices(pos(ops, a=PD), "centre", "A")
    s, ev = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 1
    assert vp_whys(ev) == [
        "Plant Devices: a Device on objective marker centre, contested by the enemy"
    ]


def test_8_4_plant_devices_scores_at_most_2vp_per_turning_point() -> None:
    # Devices on all three markers, BLU operatives contest the centre and A's marker: 1 + 1
    # + 1 would be 3VP; the op's cap is 2VP per turning point.
    ops = {
        "RED-1": {"at": (3, 3), "ready": True},
        "BLU-1": {"at": (15.0 + NEAR, 14.5)},
        "BLU-2": {"at": (8.0 + NEAR, 14.5)},
    }
    s = devices(pos(ops, a=PD), "A", "B", "centre")
    s, ev = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 2
    assert len(vp_whys(ev)) == 2


def test_8_4_plant_devices_does_not_score_in_the_first_turning_point() -> None:
    s = devices(pos({"RED-1": {"at": (3, 3), "ready": True}}, tp=1, a=PD), "B")
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 0


# -------------------------------------------------------------------------------------------
# Track Enemy
# -------------------------------------------------------------------------------------------

TE = "Track Enemy"

# RED-1 (Conceal) at (16, 4) is 0.5" behind the Light rubble (x 14.37-14.87, y 2-6) as seen
# from the west: in cover from BLU operatives at x 11 (more than 2" away), so not a valid
# target for them (4.5), while they (Engage, in the open) are valid targets for it; 3.74"
# between bases, within 6". RED-6 far away is the operative that ends the turning point.
TRACKER = {"RED-1": {"at": (16.0, 4.0), "order": "conceal"}}
ACTOR = {"RED-6": {"at": (3.0, 20.0), "ready": True}}


def test_8_4_track_enemy_a_tracked_operative_scores_1vp_and_reveals_the_op() -> None:
    s = pos({**TRACKER, **ACTOR, "BLU-1": {"at": (11.0, 4.0)}}, a=TE)
    s, ev = end_tp(s, "RED-6")
    assert tac_vp(s, "A") == 1
    assert vp_whys(ev) == ["Track Enemy: one enemy operative tracked"]
    assert [e["why"] for e in revealed(ev)] == ["it scored VP for the first time"]


def test_8_4_track_enemy_one_tracked_operative_scores_2vp_in_the_fourth_turning_point() -> None:
    s = pos({**TRACKER, **ACTOR, "BLU-1": {"at": (11.0, 4.0)}}, tp=4, a=TE)
    s, _ = end_tp(s, "RED-6")
    assert s.is_terminal
    assert tac_vp(s, "A") == 2


def test_8_4_track_enemy_two_tracked_operatives_score_2vp_and_no_more() -> None:
    # BLU-1 and BLU-2 are both tracked by RED-1 (the rubble covers RED-1 from both): two or
    # more tracked operatives score 2VP, the op's cap per turning point.
    ops = {
        **TRACKER,
        **ACTOR,
        "BLU-1": {"at": (11.0, 5.5)},
        "BLU-2": {"at": (11.0, 2.5)},
    }
    s = pos(ops, a=TE)
    s, ev = end_tp(s, "RED-6")
    assert tac_vp(s, "A") == 2
    assert vp_whys(ev) == ["Track Enemy: 2 enemy operatives tracked"]


def test_8_4_track_enemy_does_not_score_in_the_first_turning_point() -> None:
    s = pos({**TRACKER, **ACTOR, "BLU-1": {"at": (11.0, 4.0)}}, tp=1, a=TE)
    s, ev = end_tp(s, "RED-6")
    assert tac_vp(s, "A") == 0
    assert not revealed(ev)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"RED-1": {"at": (16.0, 4.0), "order": "engage"}}, "the tracker must have Conceal"),
        (
            {"RED-1": {"at": (16.0, 14.5), "order": "conceal"}, "BLU-1": {"at": (11.0, 14.5)}},
            "in the open the tracker is a valid target for the enemy",
        ),
        ({"BLU-1": {"at": (8.0, 4.0)}}, "more than 6 inches apart (6.74)"),
        (
            {"BLU-2": {"at": (16.0 + 2 * R + 0.5, 4.0)}},
            "an enemy operative within the tracker's control range",
        ),
    ],
)
def test_8_4_track_enemy_conditions_of_tracking(
    change: dict[str, dict[str, Any]], why: str
) -> None:
    ops: dict[str, dict[str, Any]] = {**TRACKER, **ACTOR, "BLU-1": {"at": (11.0, 4.0)}}
    ops.update(change)
    s = pos(ops, a=TE)
    s, _ = end_tp(s, "RED-6")
    assert tac_vp(s, "A") == 0, why


# -------------------------------------------------------------------------------------------
# Scout Enemy Movement
# -------------------------------------------------------------------------------------------

SEM = "Scout Enemy Movement"

# RED-1 at (3, 14.5) and BLU-1 at (20, 14.5) on the open lane: visible to each other,
# 17 - 1.26 = 15.74" apart.
SCOUTING = {
    "RED-1": {"at": (3.0, 14.5), "ready": True},
    "BLU-1": {"at": (20.0, 14.5), "ready": True},
}


def monitor(s: GameState, *ids: str, player: str = "A") -> GameState:
    facts = ((f"Scout Enemy Movement:{player}:monitored", tuple(sorted(ids))),)
    return attrs.evolve(s, mission=attrs.evolve(s.mission, facts=facts))


def test_8_4_scout_monitors_a_ready_visible_enemy_more_than_6_inches_away() -> None:
    s = pos(SCOUTING, a=SEM)
    s, ev = play(s, ["Activate RED-1 conceal", "Act RED-1 scout on BLU-1"])
    assert s.mission.fact("Scout Enemy Movement:A:monitored") == ("BLU-1",)
    assert s.operative("RED-1").ap == 1
    assert [e["why"] for e in revealed(ev)] == ["a friendly operative performed Scout"]


@pytest.mark.parametrize(
    ("order", "tp", "ops", "match"),
    [
        ("engage", 2, {}, "Engage order"),
        ("conceal", 1, {}, "first turning point"),
        ("conceal", 2, {"BLU-1": {"at": (9.0, 14.5), "ready": True}}, 'not more than 6"'),
        ("conceal", 2, {"BLU-1": {"at": (20.0, 14.5)}}, "expended"),
        (
            "conceal",
            2,
            {
                "RED-1": {"at": (5.0, 19.0), "ready": True},
                "BLU-1": {"at": (16.0, 19.0), "ready": True},
            },
            "not visible",
        ),
    ],
)
def test_8_4_scout_conditions(order: str, tp: int, ops: dict[str, Any], match: str) -> None:
    # Not with an Engage order, not in turning point 1; the target must be more than 6"
    # away (9 - 3 - 1.26 = 4.74"), ready, and visible (the 5" wall hides (16, 19) from
    # (5, 19)).
    s = pos({**SCOUTING, **ops}, tp=tp, a=SEM)
    with pytest.raises(IllegalActionError, match=match):
        play(s, [f"Activate RED-1 {order}", "Act RED-1 scout on BLU-1"])


def test_8_4_scout_enemy_movement_scores_1vp_per_monitored_visible_enemy() -> None:
    # BLU-1 (monitored) is visible to RED-1; BLU-2 (monitored) is behind the wall from every
    # A operative: 1VP.
    ops = {
        "RED-1": {"at": (3.0, 14.5), "ready": True},
        "RED-2": {"at": (5.0, 19.0)},
        "BLU-1": {"at": (20.0, 14.5)},
        "BLU-2": {"at": (12.5, 21.0)},
    }
    s = monitor(pos(ops, a=SEM, revealed=(True, False)), "BLU-1", "BLU-2")
    s, ev = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 1
    assert vp_whys(ev) == ["Scout Enemy Movement: BLU-1 monitored and visible"]


def test_8_4_scout_enemy_movement_scores_at_most_2vp_per_turning_point() -> None:
    ops = {
        "RED-1": {"at": (3.0, 14.5), "ready": True},
        "BLU-1": {"at": (20.0, 14.5)},
        "BLU-2": {"at": (22.0, 16.0)},
        "BLU-3": {"at": (22.0, 13.0)},
    }
    s = monitor(pos(ops, a=SEM, revealed=(True, False)), "BLU-1", "BLU-2", "BLU-3")
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 2


def test_8_4_scout_monitoring_ends_at_the_next_ready_step() -> None:
    # Monitored at the end of turning point 2 (1VP), no longer after turning point 3's
    # Ready step.
    s = monitor(pos(SCOUTING | {"BLU-1": {"at": (20.0, 14.5)}}, a=SEM), "BLU-1")
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 1
    assert s.mission.fact("Scout Enemy Movement:A:monitored") == ("BLU-1",)
    s, ev = play(s, ["Initiative A"], ["6,1"])  # turning point 3: A wins the roll-off
    assert of_kind(ev, "ready_step")
    assert s.mission.fact("Scout Enemy Movement:A:monitored") is None


# -------------------------------------------------------------------------------------------
# Retrieval (and the mission markers operatives carry)
# -------------------------------------------------------------------------------------------

RT = "Retrieval"
MR = 20 / 25.4 / 2  # mission marker radius (inches)


def with_facts(s: GameState, *facts: tuple[str, Any]) -> GameState:
    return attrs.evolve(s, mission=attrs.evolve(s.mission, facts=tuple(sorted(facts))))


def marker(kind: str, at: tuple[float, float], owner: str = "A") -> dict[str, Any]:
    """A mission marker of ``kind`` for :func:`pos` (``tokens``): named ``"<owner> <kind>
    <n>"``, numbered in the order given."""
    return {"kind": kind, "owner": owner, "at": at}


def retrieval_marker(at: tuple[float, float], owner: str = "A") -> dict[str, Any]:
    return marker("retrieval", at, owner)


def token(s: GameState, name: str) -> Token:
    found: Token = next(t for t in s.tokens if t.name == name)
    return found


def test_8_4_retrieve_searches_the_marker_carries_a_retrieval_marker_and_scores_1vp() -> None:
    # RED-1 controls the centre marker: Retrieve (1AP) searches it for A, RED-1 now carries
    # A's first Retrieval marker, and the first search of the centre scores 1VP at once,
    # which reveals the op.
    s = pos({"RED-1": {"at": (15.0 - NEAR, 14.5), "ready": True}}, a=RT)
    s, ev = play(s, ["Activate RED-1 conceal", "Act RED-1 retrieve centre"])
    assert s.mission.fact("Retrieval:A:searched") == ("centre",)
    (m,) = s.tokens
    assert (m.name, m.owner, m.carrier) == ("A retrieval 1", "A", "RED-1")
    assert s.operative("RED-1").carrying == ("A retrieval 1",)
    assert s.operative("RED-1").ap == 1
    assert tac_vp(s, "A") == 1
    assert vp_whys(ev) == ["Retrieval: objective marker centre searched"]
    assert [e["why"] for e in revealed(ev)] == ["it scored VP for the first time"]


def test_8_4_retrieval_has_no_cap_per_turning_point() -> None:
    # Three operatives search the three markers in one turning point: 3VP (the pack prints
    # no per-turning-point cap for Retrieval).
    ops = {
        "RED-1": {"at": (15.0 - NEAR, 14.5), "ready": True},
        "RED-2": {"at": (8.0 - NEAR, 14.5), "ready": True},
        "RED-3": {"at": (22.0 - NEAR, 14.5), "ready": True},
        "BLU-1": {"at": (27.0, 3.0), "ready": True},
    }
    s = pos(ops, a=RT)
    script = ["Activate RED-1 conceal", "Act RED-1 retrieve centre", "End activation"]
    script += ["Activate BLU-1 conceal", "End activation"]
    script += ["Activate RED-2 conceal", "Act RED-2 retrieve a", "End activation"]
    script += ["Activate RED-3 conceal", "Act RED-3 retrieve b"]
    s, _ = play(s, script)
    assert tac_vp(s, "A") == 3
    assert s.mission.fact("Retrieval:A:searched") == ("A", "B", "centre")


@pytest.mark.parametrize(
    ("tp", "facts", "carrying", "match"),
    [
        (1, (), "", "first turning point"),
        (2, (), "A", "already carrying a marker"),
    ],
)
def test_8_4_retrieve_conditions(
    tp: int, facts: tuple[tuple[str, Any], ...], carrying: str, match: str
) -> None:
    # Not in turning point 1; not while carrying a marker (here objective marker A, picked
    # up in a mission that allows it). A marker already searched is no condition (below).
    spec: dict[str, Any] = {"at": (15.0 - NEAR, 14.5), "ready": True}
    if carrying:
        spec["carrying"] = carrying
    s = with_facts(pos({"RED-1": spec}, tp=tp, a=RT), *facts)
    with pytest.raises(IllegalActionError, match=match):
        play(s, ["Activate RED-1 conceal", "Act RED-1 retrieve centre"])


def test_8_4_retrieve_of_a_marker_already_searched_is_legal_and_does_nothing() -> None:
    """Retrieve's printed conditions are: not in turning point 1, not within an enemy's
    control range, not carrying a marker. "That hasn't been searched" is inside its effect's
    "if": RED-1 may Retrieve the centre A searched already; it spends 1AP (APL 2: 1 left),
    carries nothing and scores nothing (A's VP stay 0: the first search scored before this
    position). Not offered: it cannot change anything."""
    spec: dict[str, Any] = {"at": (15.0 - NEAR, 14.5), "ready": True}
    s = with_facts(pos({"RED-1": spec}, a=RT), ("Retrieval:A:searched", ("centre",)))
    s, _ = play(s, ["Activate RED-1 conceal"])
    assert s.is_legal("Act RED-1 retrieve centre")
    assert "Act RED-1 retrieve centre" not in [str(x) for x in list(s.legal_actions())]
    s, ev = play(s, ["Act RED-1 retrieve centre"])
    assert s.operative("RED-1").ap == 1 and s.operative("RED-1").carrying == ()
    assert s.tokens == () and tac_vp(s, "A") == 0 and vp_whys(ev) == []


def test_8_4_retrieve_naming_no_marker_is_legal_when_controlling_none() -> None:
    """The effect starts "if the active operative controls an objective marker...", so
    controlling none is no condition: ``Act RED-1 retrieve`` far from every marker is legal,
    spends 1AP and does nothing. Named on a marker it does not control it is refused (the
    named marker must be controlled, 4.8)."""
    s = pos({"RED-1": {"at": (3.0, 3.0), "ready": True}}, a=RT)
    s, _ = play(s, ["Activate RED-1 conceal"])
    with pytest.raises(IllegalActionError, match="must control objective marker"):
        s.apply("Act RED-1 retrieve centre")
    s, _ = play(s, ["Act RED-1 retrieve"])
    assert s.operative("RED-1").ap == 1 and s.tokens == () and tac_vp(s, "A") == 0


def test_8_4_retrieve_naming_no_marker_searches_the_one_controlled() -> None:
    """Naming no marker while controlling an unsearched one performs the printed effect on
    it: RED-1 on the centre searches it and carries A's first Retrieval marker (1VP)."""
    s = pos({"RED-1": {"at": (15.0 - NEAR, 14.5), "ready": True}}, a=RT)
    s, _ = play(s, ["Activate RED-1 conceal", "Act RED-1 retrieve"])
    assert s.mission.fact("Retrieval:A:searched") == ("centre",) and tac_vp(s, "A") == 1


def test_8_4_retrieve_not_while_carrying_a_mission_marker() -> None:
    spec = {"at": (15.0 - NEAR, 14.5), "ready": True, "carrying": "A retrieval 1"}
    s = pos({"RED-1": spec}, a=RT, tokens=[retrieval_marker((3.0, 3.0))])
    with pytest.raises(IllegalActionError, match="already carrying a marker"):
        play(s, ["Activate RED-1 conceal", "Act RED-1 retrieve centre"])


def test_8_4_retrieval_scores_1vp_per_carried_retrieval_marker_at_the_end_of_the_battle() -> None:
    # RED-1 and RED-2 each carry one of A's Retrieval markers; a third lies on the killzone:
    # 2VP at the end of the battle.
    ops = {
        "RED-1": {"at": (3.0, 3.0), "ready": True, "carrying": "A retrieval 1"},
        "RED-2": {"at": (3.0, 8.0), "carrying": "A retrieval 2"},
    }
    markers = [retrieval_marker((3.0, 3.0)), retrieval_marker((3.0, 8.0))]
    markers.append(retrieval_marker((12.0, 3.0)))
    s = pos(ops, tp=4, a=RT, revealed=(True, False), tokens=markers)
    s, ev = end_tp(s, "RED-1")
    assert s.is_terminal
    assert tac_vp(s, "A") == 2
    assert vp_whys(ev) == ["Retrieval: 2 Retrieval markers carried"]


def test_3_2_pick_up_marker_on_a_friendly_retrieval_marker() -> None:
    # A's Retrieval marker lies 0.5" from RED-2's base (20 mm marker: centres R + MR + 0.5
    # apart); RED-2 controls it and picks it up with the universal Pick Up Marker (1AP).
    # BLU-2 may not pick up A's marker at all (friendly operatives only).
    at = (5.0 + R + MR + 0.5, 3.0)
    ops = {"RED-2": {"at": (5.0, 3.0), "ready": True}}
    s = pos(ops, a=RT, tokens=[retrieval_marker(at)])
    s1, _ = play(s, ["Activate RED-2 conceal"])
    assert "Pick up RED-2 a retrieval 1" in [str(a) for a in s1.legal_actions()]
    s2, ev = play(s1, ["Pick up RED-2 a retrieval 1"])
    assert token(s2, "A retrieval 1").carrier == "RED-2"
    assert s2.operative("RED-2").carrying == ("A retrieval 1",)
    assert s2.operative("RED-2").ap == 1
    assert of_kind(ev, "marker_picked_up")
    # Not twice, and no Place Marker after it in the same activation.
    with pytest.raises(IllegalActionError, match="same activation as Pick up"):
        play(s2, ["Place marker RED-2 at 5,3"])
    with pytest.raises(IllegalActionError, match="once per activation"):
        play(s1, ["Pick up RED-2 a retrieval 1", "Pick up RED-2 a retrieval 1"])
    s = pos(
        {"BLU-2": {"at": (5.0, 3.0), "ready": True}}, turn="B", a=RT, tokens=[retrieval_marker(at)]
    )
    s, _ = play(s, ["Activate BLU-2 conceal"])
    assert not [a for a in s.legal_actions() if a.verb == "Pick up"]
    with pytest.raises(IllegalActionError, match="only player A's operatives"):
        play(s, ["Pick up BLU-2 a retrieval 1"])


def test_2_3_an_incapacitated_carrier_drops_its_retrieval_marker() -> None:
    # BLU-1 shoots RED-6 (Weakling, 2 wounds) carrying A's Retrieval marker: 4 hits, no
    # saves, RED-6 is incapacitated and the marker is put down where it stood.
    ops = {
        "RED-6": {"at": (10.0, 14.5), "carrying": "A retrieval 1"},
        "BLU-1": {"at": (16.0, 14.5), "ready": True},
    }
    s = pos(ops, turn="B", a=RT, tokens=[retrieval_marker((3.0, 3.0))])
    s, ev = play(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at RED-6"], ["6,6,6,6", "1,1,1"])
    assert not s.operative("RED-6").alive
    m = token(s, "A retrieval 1")
    assert (m.carrier, m.x, m.y) == ("", 10.0, 14.5)
    assert [e["marker"] for e in of_kind(ev, "marker_placed")] == ["A retrieval 1"]


def test_3_2_place_marker_puts_a_carried_mission_marker_down_within_control_range() -> None:
    ops = {"RED-2": {"at": (5.0, 3.0), "ready": True, "carrying": "A retrieval 1"}}
    s = pos(ops, a=RT, tokens=[retrieval_marker((3.0, 3.0))])
    s1, _ = play(s, ["Activate RED-2 conceal"])
    assert "Place marker RED-2 at 5,3" in [str(a) for a in s1.legal_actions()]
    with pytest.raises(IllegalActionError, match="within RED-2's control range"):
        play(s1, ["Place marker RED-2 at 9,3"])
    s2, _ = play(s1, ["Place marker RED-2 at 6,3"])
    m = token(s2, "A retrieval 1")
    assert (m.carrier, m.x, m.y) == ("", 6.0, 3.0)
    assert s2.operative("RED-2").carrying == ()


def test_3_2_a_carried_mission_marker_forbids_picking_up_an_objective_marker() -> None:
    # Objective markers can be picked up in this battle; RED-1 controls the centre marker
    # but carries a Retrieval marker, so Pick Up Marker is not allowed (3.2: not while
    # carrying a marker); without it, it is.
    ops = {"RED-1": {"at": (15.0 - NEAR, 14.5), "ready": True}}
    s = pos(ops, a=RT, options=GameOptions(objectives_pickup=True))
    s1, _ = play(s, ["Activate RED-1 conceal"])
    assert "Pick up RED-1 centre" in [str(a) for a in s1.legal_actions()]
    ops = {"RED-1": {**ops["RED-1"], "carrying": "A retrieval 1"}}
    s = pos(
        ops,
        a=RT,
        options=GameOptions(objectives_pickup=True),
        tokens=[retrieval_marker((3.0, 3.0))],
    )
    with pytest.raises(IllegalActionError, match="already carries a marker"):
        play(s, ["Activate RED-1 conceal", "Pick up RED-1 centre"])


# -------------------------------------------------------------------------------------------
# Steal Intelligence
# -------------------------------------------------------------------------------------------

SI = "Steal Intelligence"


def intel(at: tuple[float, float], owner: str = "A") -> dict[str, Any]:
    return marker("intelligence", at, owner)


def test_8_4_steal_intelligence_an_incapacitated_enemy_leaves_an_intelligence_marker() -> None:
    # RED-1 shoots BLU-6 (Weakling, 2 wounds) dead: A's first Intelligence marker is put at
    # BLU-6's centre before it is removed, and the op is revealed (its reveal trigger).
    ops = {"RED-1": {"at": (10.0, 14.5), "ready": True}, "BLU-6": {"at": (16.0, 14.5)}}
    s = pos(ops, a=SI)
    s, ev = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-6"], ["6,6,6,6", "1,1,1"])
    assert not s.operative("BLU-6").alive
    (m,) = s.tokens
    assert (m.name, m.owner, m.carrier, m.x, m.y) == ("A intelligence 1", "A", "", 16.0, 14.5)
    assert [e["why"] for e in revealed(ev)] == ["an enemy operative was incapacitated"]
    assert [e["marker"] for e in of_kind(ev, "mission_marker_placed")] == ["A intelligence 1"]


def test_8_4_steal_intelligence_no_marker_for_a_friendly_casualty() -> None:
    ops = {"BLU-1": {"at": (16.0, 14.5), "ready": True}, "RED-6": {"at": (10.0, 14.5)}}
    s = pos(ops, turn="B", a=SI)
    s, ev = play(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at RED-6"], ["6,6,6,6", "1,1,1"])
    assert not s.operative("RED-6").alive
    assert s.tokens == ()
    assert not revealed(ev)


def test_8_4_steal_intelligence_an_operative_may_carry_two_intelligence_markers() -> None:
    # RED-1 carries intelligence 1 and stands 0.5" from intelligence 2 and 3: the first
    # carried Intelligence marker is ignored by Pick Up Marker's conditions, so it may pick
    # up a second; with two it may pick up no third.
    near = (5.0 + R + MR + 0.5, 3.0)
    other_side = (5.0 - R - MR - 0.5, 3.0)
    spec = {"at": (5.0, 3.0), "ready": True, "carrying": "A intelligence 1"}
    markers = [intel((5.0, 3.0)), intel(near), intel(other_side)]
    s = pos({"RED-1": spec}, a=SI, tokens=markers)
    s, _ = play(s, ["Activate RED-1 conceal", "Pick up RED-1 a intelligence 2"])
    assert [t.carrier for t in s.tokens] == ["RED-1", "RED-1", ""]
    assert s.operative("RED-1").carrying == ("A intelligence 1", "A intelligence 2")
    assert not [a for a in s.legal_actions() if a.verb == "Pick up"]
    spec = {**spec, "carrying": ["A intelligence 1", "A intelligence 2"]}
    s = pos({"RED-1": spec}, a=SI, tokens=markers)
    with pytest.raises(IllegalActionError, match="already carries a marker"):
        play(s, ["Activate RED-1 conceal", "Pick up RED-1 a intelligence 3"])


def test_3_2_place_marker_names_the_marker_when_carrying_two() -> None:
    # RED-1 carries two Intelligence markers: each Place Marker option names the marker it
    # puts down; without a name the action is refused (which one?).
    spec = {"at": (5.0, 3.0), "ready": True, "carrying": ["A intelligence 1", "A intelligence 2"]}
    s = pos({"RED-1": spec}, a=SI, tokens=[intel((5.0, 3.0)), intel((5.0, 3.0))])
    s, _ = play(s, ["Activate RED-1 conceal"])
    places = [str(a) for a in s.legal_actions() if a.verb == "Place marker"]
    assert places == [
        "Place marker RED-1 a intelligence 1 at 5,3",
        "Place marker RED-1 a intelligence 2 at 5,3",
    ]
    with pytest.raises(IllegalActionError, match="name the marker"):
        play(s, ["Place marker RED-1 at 5,3"])
    s, _ = play(s, ["Place marker RED-1 a intelligence 2 at 6,3"])
    assert s.operative("RED-1").carrying == ("A intelligence 1",)
    m = token(s, "A intelligence 2")
    assert (m.carrier, m.x, m.y) == ("", 6.0, 3.0)


def test_8_4_steal_intelligence_one_intelligence_marker_and_then_one_other_marker() -> None:
    # Carrying one Intelligence marker, RED-1 may still pick up an objective marker
    # (objective markers can be picked up in this battle); carrying an objective marker, it
    # may not pick up an Intelligence marker (the exemption is for the Intelligence marker
    # it already carries).
    opts = GameOptions(objectives_pickup=True)
    spec = {"at": (15.0 - NEAR, 14.5), "ready": True, "carrying": "A intelligence 1"}
    s = pos({"RED-1": spec}, a=SI, options=opts, tokens=[intel((3.0, 3.0))])
    s, _ = play(s, ["Activate RED-1 conceal", "Pick up RED-1 centre"])
    assert s.operative("RED-1").carrying == ("A intelligence 1", "centre")
    at = (15.0 - NEAR, 14.5 - R - MR - 0.5)
    spec = {**spec, "carrying": "centre"}
    s = pos({"RED-1": spec}, a=SI, options=opts, tokens=[intel(at)])
    with pytest.raises(IllegalActionError, match="already carries a marker"):
        play(s, ["Activate RED-1 conceal", "Pick up RED-1 a intelligence 1"])


def test_8_4_steal_intelligence_scores_1vp_at_the_end_of_a_turning_point_if_carrying_any() -> None:
    # RED-1 carries two Intelligence markers: 1VP (the condition is "any"), not 2.
    spec = {"at": (3.0, 3.0), "ready": True, "carrying": ["A intelligence 1", "A intelligence 2"]}
    markers = [intel((3.0, 3.0)), intel((3.0, 3.0))]
    s = pos({"RED-1": spec}, a=SI, revealed=(True, False), tokens=markers)
    s, ev = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 1
    assert vp_whys(ev) == ["Steal Intelligence: Intelligence carried"]


def test_8_4_steal_intelligence_does_not_score_in_the_first_turning_point() -> None:
    spec = {"at": (3.0, 3.0), "ready": True, "carrying": "A intelligence 1"}
    s = pos({"RED-1": spec}, tp=1, a=SI, tokens=[intel((3.0, 3.0))])
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 0


def test_8_4_steal_intelligence_scores_1vp_per_carried_marker_at_the_end_of_the_battle() -> None:
    # Turning point 4: 1VP for carrying any, then at the end of the battle 1VP for each of
    # the 3 carried markers (RED-1 two, RED-2 one; the one on the floor does not count):
    # 4VP, the end-of-battle VP not counted towards the 2VP per turning point.
    ops = {
        "RED-1": {
            "at": (3.0, 3.0),
            "ready": True,
            "carrying": ["A intelligence 1", "A intelligence 2"],
        },
        "RED-2": {"at": (3.0, 8.0), "carrying": "A intelligence 3"},
    }
    markers = [intel((3.0, 3.0)), intel((3.0, 3.0)), intel((3.0, 8.0)), intel((12.0, 3.0))]
    s = pos(ops, tp=4, a=SI, revealed=(True, False), tokens=markers)
    s, ev = end_tp(s, "RED-1")
    assert s.is_terminal
    assert tac_vp(s, "A") == 4
    assert vp_whys(ev) == [
        "Steal Intelligence: Intelligence carried",
        "Steal Intelligence: 3 Intelligence markers carried",
    ]


# -------------------------------------------------------------------------------------------
# Flank
# -------------------------------------------------------------------------------------------

FL = "Flank"

# On OPS the drop zones lie along the west (x = 0) and east (x = 30) edges: the flank line
# joins (0, 11) and (30, 11). Looking from drop zone A's edge east, "left" is north
# (y > 11) and "right" south. B's territory is x 15-30.
LEFT_DEEP = (20.0, 17.0)  # wholly in the left flank and in B's territory
RIGHT_DEEP = (20.0, 5.0)


def test_8_4_flank_line_joins_the_centres_of_the_players_killzone_edges() -> None:
    from engine.game.work import Work
    from engine.missions.tac_ops.flank import flank_line

    assert flank_line(Work(pos({"RED-1": {"at": (3.0, 3.0), "ready": True}}))) == (
        (0.0, 11.0),
        (30.0, 11.0),
    )


def test_8_4_flank_is_revealed_as_a_strategic_gambit() -> None:
    # Turning point 1 ends; in turning point 2's Gambit step (A has initiative) A may
    # reveal Flank with "Op reveal flank" (no CP); B, without Flank, has only Pass.
    s = pos({"RED-1": {"at": (3.0, 3.0), "ready": True}}, tp=1, a=FL)
    s, _ = end_tp(s, "RED-1")
    s, _ = play(s, ["Initiative A"], ["6,1"])
    assert "Op reveal flank" in [str(a) for a in s.legal_actions()]
    s, ev = play(s, ["Op reveal flank"])
    assert [e["why"] for e in revealed(ev)] == ["as a strategic gambit"]
    assert [str(a) for a in s.legal_actions()] == ["Pass"]  # B's turn
    with pytest.raises(IllegalActionError, match="not Flank"):
        play(s, ["Op reveal flank"])


def test_8_4_flank_scores_1vp_per_controlled_flank_after_its_reveal() -> None:
    # RED-1 deep in the right flank, RED-2 deep in the left: 2VP once revealed.
    ops = {"RED-1": {"at": RIGHT_DEEP, "ready": True}, "RED-2": {"at": LEFT_DEEP}}
    s = pos(ops, a=FL, revealed=(True, False))
    s, ev = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 2
    assert vp_whys(ev) == [
        "Flank: the left flank controlled",
        "Flank: the right flank controlled",
    ]


def test_8_4_flank_does_not_score_before_its_reveal() -> None:
    ops = {"RED-1": {"at": RIGHT_DEEP, "ready": True}, "RED-2": {"at": LEFT_DEEP}}
    s = pos(ops, a=FL)
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 0


@pytest.mark.parametrize(
    ("ops", "why"),
    [
        ({"RED-1": {"at": (20.0, 11.0 + R - 0.1), "ready": True}}, "on the flank line"),
        ({"RED-1": {"at": (15.0 + R - 0.1, 5.0), "ready": True}}, "partly in A's territory"),
        ({"RED-1": {"at": (10.0, 5.0), "ready": True}}, "in its own territory"),
        (
            {"RED-1": {"at": RIGHT_DEEP, "ready": True}, "BLU-5": {"at": (10.0, 5.0)}},
            "BLU-5 (APL 3) contests the right flank in A's territory against RED-1 (APL 2)",
        ),
    ],
)
def test_8_4_flank_contest_and_control(ops: dict[str, Any], why: str) -> None:
    s = pos(ops, a=FL, revealed=(True, False))
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 0, why


def test_8_4_flank_remembers_the_flanks_controlled_at_the_end_of_turning_point_3() -> None:
    ops = {"RED-1": {"at": RIGHT_DEEP, "ready": True}}
    s = pos(ops, tp=3, a=FL)
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 0  # not revealed
    assert s.mission.fact("secret:A:Flank:tp3") == ("right",)
    # Kept from B: it would betray A's unrevealed tac op.
    assert observe(s, "B").mission.fact("secret:A:Flank:tp3") is None
    assert observe(s, "A").mission.fact("secret:A:Flank:tp3") == ("right",)


def test_8_4_flank_scores_2vp_in_turning_point_4_for_a_flank_also_held_at_the_end_of_3() -> None:
    ops = {"RED-1": {"at": RIGHT_DEEP, "ready": True}}
    s = with_facts(pos(ops, tp=4, a=FL, revealed=(True, False)), ("secret:A:Flank:tp3", ("right",)))
    s, ev = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 2
    assert vp_whys(ev) == ["Flank: the right flank controlled"]
    # Held at the end of turning point 3 was the left flank: 1VP only.
    s = with_facts(pos(ops, tp=4, a=FL, revealed=(True, False)), ("secret:A:Flank:tp3", ("left",)))
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 1


def test_8_4_flank_scores_at_most_2vp_per_turning_point() -> None:
    # Both flanks held in turning point 4, both also at the end of 3: 2 + 2 = 4VP, capped
    # at 2VP.
    ops = {"RED-1": {"at": RIGHT_DEEP, "ready": True}, "RED-2": {"at": LEFT_DEEP}}
    s = pos(ops, tp=4, a=FL, revealed=(True, False))
    s = with_facts(s, ("secret:A:Flank:tp3", ("left", "right")))
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 2


# -------------------------------------------------------------------------------------------
# A whole battle with these tac ops
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"), [("Steal Intelligence", "Flank"), ("Retrieval", "Scout Enemy Movement")]
)
def test_8_4_a_battle_with_these_tac_ops_plays_to_the_end_and_reveals_them(a: str, b: str) -> None:
    # Pathfinders (Infiltration, Recon) against themselves, random agents: the battle ends
    # after turning point 4 and both tac ops are revealed by then (at the latest at the end
    # of the battle, 8.4).
    from engine.agents import RandomAgent
    from engine.game.drivers import SeededDice
    from engine.game.drivers import play as play_battle
    from engine.geometry import load_killzone
    from engine.rulesets import new_game
    from engine.teams import load_builtin_team

    team = load_builtin_team("pathfinders").default()
    opts = GameOptions(crit_op="Secure", tac_ops={"A": a, "B": b})
    s = new_game(load_killzone("open_ruins"), team, team, opts)
    s = play_battle(s, {"A": RandomAgent(1), "B": RandomAgent(2)}, SeededDice(3))
    assert s.is_terminal
    assert s.mission.tac_ops == (a, b)
    assert s.mission.tac_revealed == (True, True)
