"""Crit ops Loot, Transmission, Orb, Stake Claim and Energy Cells (``rules/KT24.md`` 8.3,
Approved Ops 2025): one test per mission action and per scoring condition.

Positions are on the OPS killzone: 30" x 22", no terrain, drop zones A (x 0-6) and B
(x 24-30), and the pack's three objective markers on the line y = 11: ``A`` at x 8 (player
A's), ``centre`` at x 15 and ``B`` at x 22 (player B's). Test operatives (from
``test_game_rules_common``) have 32 mm bases (radius R = 0.63", APL 2; the Captain APL 3);
an objective marker is 40 mm (radius 0.79"), so an operative whose centre is 1.5" from a
marker's centre is 0.08" from it: it contests the marker (4.8).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from engine.agents import RandomAgent
from engine.game import Decision, GameOptions, GameState, IllegalActionError
from engine.game.drivers import SeededDice
from engine.game.drivers import play as play_out
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work
from engine.geometry import Killzone
from engine.rulesets import new_game
from tests.test_game_rules_common import BLU, RED, kinds, of_kind, play, pos, rect, roster
from tests.test_game_rules_sequence import strategy

OPS: Killzone = Killzone.from_dict(
    {
        "name": "ops",
        "features": [],
        "drop_zones": {"A": rect(0, 0, 6, 22), "B": rect(24, 0, 30, 22)},
        "objectives": [
            {"name": "A", "position": [8, 11]},
            {"name": "centre", "position": [15, 11]},
            {"name": "B", "position": [22, 11]},
        ],
    },
    "ops",
)
MARKER_X = {"A": 8.0, "centre": 15.0, "B": 22.0}


def at(marker: str, dx: float = 1.5, dy: float = 0.0) -> tuple[float, float]:
    """A spot ``dx``/``dy`` from ``marker``'s centre (default: contesting it)."""
    return (MARKER_X[marker] + dx, 11.0 + dy)


FAR_A = (2.0, 20.0)  # in A's drop zone, far from every marker
FAR_B = (28.0, 20.0)  # in B's drop zone, far from every marker


def crit(
    op: str,
    operatives: Mapping[str, Mapping[str, Any]],
    tp: int = 2,
    tac_ops: Mapping[str, str] | None = None,
    **kw: Any,
) -> GameState:
    """A Firefight-phase position of turning point ``tp`` with the crit op ``op`` (and the
    players' tac ops ``tac_ops``)."""
    opts = GameOptions(crit_op=op, tac_ops=dict(tac_ops or {}))
    return pos(operatives, kz=OPS, tp=tp, options=opts, **kw)


def crit_vp(s: GameState) -> tuple[int, int]:
    """The crit op VP of A and B in the battle."""
    return (s.mission.op_vp("crit", "A"), s.mission.op_vp("crit", "B"))


def acts(s: GameState, word: str) -> list[str]:
    """The legal ``Act`` actions whose notation contains ``word``."""
    return [str(a) for a in s.legal_actions() if str(a).startswith("Act") and word in str(a)]


def random_battle(op: str, seed: int) -> tuple[GameState, list[Event]]:
    """A whole battle of three Troopers a side on OPS with the crit op ``op``, random agents
    and seeded dice; the final state and every event."""
    s = new_game(
        OPS, roster(RED, ["Trooper"] * 3), roster(BLU, ["Trooper"] * 3), GameOptions(crit_op=op)
    )
    events: list[Event] = []
    agents = {"A": RandomAgent(2 * seed + 1), "B": RandomAgent(2 * seed + 2)}
    s = play_out(s, agents, SeededDice(seed), on_step=lambda *step: events.extend(step[4]))
    return s, events


def end_tp(s: GameState, *ops: str) -> tuple[GameState, list[Any]]:
    """Each of ``ops`` (alternating players, in order) activates and ends its activation at
    once; the turning point then ends."""
    events: list[Any] = []
    for op in ops:
        s, ev = play(s, [f"Activate {op} engage", "End activation"])
        events += ev
    return s, events


# -------------------------------------------------------------------------------------------
# Loot
# -------------------------------------------------------------------------------------------


def test_loot_action_loots_a_controlled_marker_and_scores_1vp() -> None:
    # RED-1 controls marker A (it alone contests it); Loot: 1AP, 1VP at once.
    s = crit("loot", {"RED-1": {"at": at("A")}, "BLU-1": {"at": FAR_B}})
    s, _ = play(s, ["Activate RED-1 engage"])
    assert acts(s, "loot") == ["Act RED-1 loot a"]
    s, ev = play(s, ["Act RED-1 loot a"])
    assert of_kind(ev, "marker_looted")[0]["marker"] == "A"
    assert crit_vp(s) == (1, 0)
    assert s.operative("RED-1").ap == 1  # APL 2 - 1AP


def test_loot_needs_a_controlled_marker() -> None:
    # RED-1 (APL 2) and BLU-4 (APL 2) both contest the centre: equal APL, nobody controls it.
    s = crit("loot", {"RED-1": {"at": at("centre", -1.5)}, "BLU-4": {"at": at("centre")}})
    s, _ = play(s, ["Activate RED-1 engage"])
    assert acts(s, "loot") == []
    with pytest.raises(IllegalActionError, match="must control objective marker centre"):
        play(s, ["Act RED-1 loot centre"])


def test_loot_not_within_control_range_of_an_enemy() -> None:
    # RED-5 (Captain, APL 3) controls the centre, but BLU-1 is within its control range.
    s = crit(
        "loot", {"RED-5": {"at": at("centre", -1.5)}, "BLU-1": {"at": at("centre", -1.5, 1.6)}}
    )
    s, _ = play(s, ["Activate RED-5 engage"])
    with pytest.raises(IllegalActionError, match="control range of an enemy"):
        play(s, ["Act RED-5 loot centre"])


def test_loot_not_in_the_first_turning_point() -> None:
    s = crit("loot", {"RED-1": {"at": at("A")}, "BLU-1": {"at": FAR_B}}, tp=1)
    s, _ = play(s, ["Activate RED-1 engage"])
    assert acts(s, "loot") == []
    with pytest.raises(IllegalActionError, match="first turning point"):
        play(s, ["Act RED-1 loot a"])


def test_loot_only_when_loot_is_the_crit_op() -> None:
    s = crit("secure", {"RED-1": {"at": at("A")}, "BLU-1": {"at": FAR_B}})
    s, _ = play(s, ["Activate RED-1 engage"])
    with pytest.raises(IllegalActionError, match="not the crit op"):
        play(s, ["Act RED-1 loot a"])


def test_loot_each_marker_once_per_turning_point_by_either_player() -> None:
    # RED-1 loots A; RED-2, also controlling A, cannot loot it again this turning point.
    ops = {"RED-1": {"at": at("A")}, "RED-2": {"at": at("A", -1.5)}, "BLU-1": {"at": FAR_B}}
    s = crit("loot", ops)
    s, _ = play(s, ["Activate RED-1 engage", "Act RED-1 loot a", "End activation"])
    s, _ = play(s, ["Activate BLU-1 engage", "End activation", "Activate RED-2 engage"])
    assert acts(s, "loot") == []
    with pytest.raises(IllegalActionError, match="already been looted this turning point"):
        play(s, ["Act RED-2 loot a"])
    # In the next turning point marker A can be looted again.
    s, _ = play(s, ["End activation"])
    s = strategy(s)
    s, _ = play(s, ["Activate RED-2 engage", "Act RED-2 loot a"])
    assert crit_vp(s) == (2, 0)


def test_loot_scores_at_most_2vp_per_turning_point() -> None:
    # Three Loots in one turning point (markers A, centre, B): 1 + 1 + 0 = 2VP (the cap); the
    # third still loots marker B.
    ops = {
        "RED-1": {"at": at("A")},
        "RED-2": {"at": at("centre")},
        "RED-3": {"at": at("B", -1.5)},
        "BLU-1": {"at": FAR_B},
    }
    s = crit("loot", ops)
    s, _ = play(s, ["Activate RED-1 engage", "Act RED-1 loot a", "End activation"])
    s, _ = play(s, ["Activate BLU-1 engage", "End activation"])
    s, _ = play(s, ["Activate RED-2 engage", "Act RED-2 loot centre", "End activation"])
    s, ev = play(s, ["Pass", "Activate RED-3 engage", "Act RED-3 loot b"])  # B: no counteraction
    assert crit_vp(s) == (2, 0)
    assert "vp_scored" not in kinds(ev)
    assert of_kind(ev, "marker_looted")[0]["marker"] == "B"


# -------------------------------------------------------------------------------------------
# Transmission
# -------------------------------------------------------------------------------------------


def test_initiate_transmission_makes_a_controlled_marker_transmit() -> None:
    s = crit("transmission", {"RED-1": {"at": at("A")}, "BLU-1": {"at": FAR_B}})
    s, _ = play(s, ["Activate RED-1 engage"])
    assert acts(s, "transmission") == ["Act RED-1 initiate transmission a"]
    s, ev = play(s, ["Act RED-1 initiate transmission a"])
    assert of_kind(ev, "transmission_initiated")[0]["marker"] == "A"
    assert s.mission.fact("Transmission:A") == 2
    assert crit_vp(s) == (0, 0)  # it scores at the end of the turning point
    # Already transmitting: not again this turning point.
    assert acts(s, "transmission") == []


def test_transmission_scores_1vp_each_for_controlling_a_transmitting_marker() -> None:
    # A controls transmitting marker A, B controls transmitting marker B: 1VP each, and
    # neither controls more transmitting markers than the other.
    ops = {"RED-1": {"at": at("A")}, "BLU-1": {"at": at("B")}}
    s = crit("transmission", ops)
    s, _ = play(s, ["Activate RED-1 engage", "Act RED-1 initiate transmission a"])
    s, _ = play(s, ["End activation", "Activate BLU-1 engage", "Act BLU-1 initiate transmission b"])
    s, ev = play(s, ["End activation"])
    assert "turning_point_ending" in kinds(ev)
    assert crit_vp(s) == (1, 1)


def test_transmission_scores_1vp_more_for_controlling_more_transmitting_markers() -> None:
    # A controls two transmitting markers (A, centre), B one (B): A 1 + 1 = 2VP, B 1VP.
    ops = {"RED-1": {"at": at("A")}, "RED-2": {"at": at("centre")}, "BLU-1": {"at": at("B")}}
    s = crit("transmission", ops)
    s, _ = play(s, ["Activate RED-1 engage", "Act RED-1 initiate transmission a"])
    s, _ = play(s, ["End activation", "Activate BLU-1 engage", "Act BLU-1 initiate transmission b"])
    s, _ = play(s, ["End activation", "Activate RED-2 engage"])
    s, _ = play(s, ["Act RED-2 initiate transmission centre", "End activation"])
    assert crit_vp(s) == (2, 1)


def test_transmission_scores_for_the_controller_not_for_who_initiated_it() -> None:
    # A makes the centre transmit, then B's Captain (APL 3) takes control of it: B scores
    # 1 + 1 = 2VP, A nothing.
    ops = {"RED-1": {"at": at("centre", -1.5)}, "BLU-5": {"at": at("centre", 3.0)}}
    s = crit("transmission", ops)
    s, _ = play(s, ["Activate RED-1 engage", "Act RED-1 initiate transmission centre"])
    s, _ = play(s, ["End activation", "Activate BLU-5 engage", "Reposition BLU-5 to 16.5,11"])
    s, _ = play(s, ["End activation"])
    assert crit_vp(s) == (0, 2)


def test_transmission_ends_at_the_start_of_the_next_turning_point() -> None:
    ops = {"RED-1": {"at": at("A")}, "BLU-1": {"at": FAR_B}}
    s = crit("transmission", ops)
    s, _ = play(s, ["Activate RED-1 engage", "Act RED-1 initiate transmission a"])
    s, _ = end_tp(play(s, ["End activation"])[0], "BLU-1")
    assert crit_vp(s) == (2, 0)  # any, and more than B's none
    s = strategy(s)
    assert s.tp == 3 and s.mission.fact("Transmission:A") is None
    # RED-1 still controls marker A at the end of turning point 3, but it no longer
    # transmits: nothing more is scored.
    s, _ = end_tp(s, "RED-1", "BLU-1")
    assert crit_vp(s) == (2, 0)


# -------------------------------------------------------------------------------------------
# Orb
# -------------------------------------------------------------------------------------------


def test_orb_token_starts_on_the_centre_marker() -> None:
    s = crit("orb", {"RED-1": {"at": FAR_A}, "BLU-1": {"at": FAR_B}})
    assert s.mission.fact("Orb:token") == "centre"


def test_move_orb_from_the_centre_to_either_players_marker() -> None:
    # RED-1 controls the centre, which has the Orb token: it may move it to marker A or B.
    s = crit("orb", {"RED-1": {"at": at("centre")}, "BLU-1": {"at": FAR_B}})
    s, _ = play(s, ["Activate RED-1 engage"])
    assert acts(s, "orb") == ["Act RED-1 move orb a", "Act RED-1 move orb b"]
    with pytest.raises(IllegalActionError, match="can move to a, b"):
        play(s, ["Act RED-1 move orb centre"])
    s, ev = play(s, ["Act RED-1 move orb b"])
    assert s.mission.fact("Orb:token") == "B"
    assert of_kind(ev, "orb_moved")[0]["origin"] == "centre"
    assert s.operative("RED-1").ap == 1


def test_move_orb_from_a_players_marker_back_to_the_centre() -> None:
    # RED-1 moves the token from the centre to A; RED-2, controlling A, may only move it back.
    ops = {"RED-1": {"at": at("centre")}, "RED-2": {"at": at("A")}, "BLU-1": {"at": FAR_B}}
    s = crit("orb", ops)
    s, _ = play(s, ["Activate RED-1 engage", "Act RED-1 move orb a", "End activation"])
    s, _ = play(s, ["Activate BLU-1 engage", "End activation", "Activate RED-2 engage"])
    assert acts(s, "orb") == ["Act RED-2 move orb centre"]
    s, _ = play(s, ["Act RED-2 move orb centre"])
    assert s.mission.fact("Orb:token") == "centre"


def test_move_orb_needs_control_of_the_marker_with_the_orb() -> None:
    # RED-1 controls marker A, but the token is on the centre.
    s = crit("orb", {"RED-1": {"at": at("A")}, "BLU-1": {"at": FAR_B}})
    s, _ = play(s, ["Activate RED-1 engage"])
    assert acts(s, "orb") == []
    with pytest.raises(IllegalActionError, match="must control objective marker centre"):
        play(s, ["Act RED-1 move orb a"])


def test_move_orb_not_in_the_first_turning_point() -> None:
    s = crit("orb", {"RED-1": {"at": at("centre")}, "BLU-1": {"at": FAR_B}}, tp=1)
    s, _ = play(s, ["Activate RED-1 engage"])
    with pytest.raises(IllegalActionError, match="first turning point"):
        play(s, ["Act RED-1 move orb a"])


def test_orb_scores_1vp_per_controlled_marker_without_the_orb() -> None:
    # The token is on the centre. A controls A and the centre: 1VP (the centre has the Orb);
    # B controls B: 1VP.
    ops = {"RED-1": {"at": at("A")}, "RED-2": {"at": at("centre")}, "BLU-1": {"at": at("B")}}
    s, _ = end_tp(crit("orb", ops), "RED-1", "BLU-1", "RED-2")
    assert crit_vp(s) == (1, 1)


def test_orb_moved_away_lets_both_controlled_markers_score() -> None:
    # A moves the token from the centre to B's marker, which B controls: A's markers A and
    # centre score 2VP, B's marker B (with the Orb) nothing.
    ops = {"RED-1": {"at": at("A")}, "RED-2": {"at": at("centre")}, "BLU-1": {"at": at("B")}}
    s, _ = end_tp(crit("orb", ops), "RED-1", "BLU-1")
    s, _ = play(s, ["Activate RED-2 engage", "Act RED-2 move orb b", "End activation"])
    assert crit_vp(s) == (2, 0)


# -------------------------------------------------------------------------------------------
# Stake Claim
# -------------------------------------------------------------------------------------------


def claims(s: GameState, a: str, b: str) -> GameState:
    """From the end of a turning point: the next Strategy phase (A wins initiative), A then
    B stake their claims (``"centre control"``), every gambit passed."""
    s = strategy(s)
    assert s.node == Decision("A", "stake claim")
    s, _ = play(s, [f"Op claim {a}", f"Op claim {b}"])
    while isinstance(s.node, Decision) and s.node.kind == "gambit":
        s, _ = s.apply("Pass")
    return s


def test_stake_claim_each_player_selects_a_marker_and_a_claim_initiative_first() -> None:
    s, _ = end_tp(
        crit("stake claim", {"RED-1": {"at": FAR_A}, "BLU-1": {"at": FAR_B}}), "RED-1", "BLU-1"
    )
    s = strategy(s)  # turning point 3; A has initiative
    assert s.node == Decision("A", "stake claim")
    assert [str(a) for a in s.legal_actions()] == [
        "Op claim a control",
        "Op claim a uncontested",
        "Op claim b control",
        "Op claim b uncontested",
        "Op claim centre control",
        "Op claim centre uncontested",
    ]
    s, ev = play(s, ["Op claim centre control"])
    assert s.node == Decision("B", "stake claim")
    s, ev2 = play(s, ["Op claim a uncontested"])
    staked = [(e["player"], e["marker"], e["claim"]) for e in of_kind(ev + ev2, "claim_staked")]
    assert staked == [("A", "centre", "control"), ("B", "A", "uncontested")]
    assert s.node == Decision("A", "gambit")
    # The claims are public: both players' facts are in the open mission state.
    assert s.mission.fact("Stake Claim:B:claim") == (3, "A", "uncontested")


def test_stake_claim_each_marker_at_most_once_per_battle() -> None:
    ops = {"RED-1": {"at": FAR_A}, "BLU-1": {"at": FAR_B}}
    s, _ = end_tp(crit("stake claim", ops), "RED-1", "BLU-1")
    s = claims(s, "centre control", "centre control")
    s, _ = end_tp(s, "RED-1", "BLU-1")
    s = strategy(s)  # turning point 4: the centre is no longer A's to select
    assert [str(a) for a in s.legal_actions()] == [
        "Op claim a control",
        "Op claim a uncontested",
        "Op claim b control",
        "Op claim b uncontested",
    ]
    with pytest.raises(IllegalActionError, match="not selected yet"):
        play(s, ["Op claim centre uncontested"])


def test_stake_claim_scores_1vp_for_controlling_more_markers() -> None:
    # Turning point 2 (no claim yet): A controls A and the centre, B controls B: A 1VP.
    ops = {"RED-1": {"at": at("A")}, "RED-2": {"at": at("centre")}, "BLU-1": {"at": at("B")}}
    s, _ = end_tp(crit("stake claim", ops), "RED-1", "BLU-1", "RED-2")
    assert crit_vp(s) == (1, 0)


def test_stake_claim_control_claim_true_scores_1vp() -> None:
    # A claims it will control marker A and does; B claims control of the centre, which
    # nobody controls. A and B control one marker each: no VP for more markers.
    ops = {"RED-1": {"at": at("A")}, "BLU-1": {"at": at("B")}}
    s, _ = end_tp(crit("stake claim", ops), "RED-1", "BLU-1")
    assert crit_vp(s) == (0, 0)
    s = claims(s, "a control", "centre control")
    s, _ = end_tp(s, "RED-1", "BLU-1")
    assert crit_vp(s) == (1, 0)


def test_stake_claim_uncontested_claim_true_scores_1vp() -> None:
    # B claims A's operatives will not contest the centre (nobody does); A claims B's
    # operatives will not contest marker B, but BLU-1 does.
    ops = {"RED-1": {"at": at("A")}, "BLU-1": {"at": at("B")}}
    s, _ = end_tp(crit("stake claim", ops), "RED-1", "BLU-1")
    s = claims(s, "b uncontested", "centre uncontested")
    s, _ = end_tp(s, "RED-1", "BLU-1")
    assert crit_vp(s) == (0, 1)


def test_stake_claim_scores_at_most_2vp_per_turning_point() -> None:
    # A controls two markers to B's one (1VP) and its control claim on marker A is true (1VP):
    # 2VP, the turning point's most.
    ops = {"RED-1": {"at": at("A")}, "RED-2": {"at": at("centre")}, "BLU-1": {"at": at("B")}}
    s, _ = end_tp(crit("stake claim", ops), "RED-1", "BLU-1", "RED-2")
    s = claims(s, "a control", "a control")
    s, _ = end_tp(s, "RED-1", "BLU-1", "RED-2")
    assert crit_vp(s) == (1 + 2, 0)


@pytest.mark.parametrize("seed", range(4))
def test_stake_claim_every_marker_claimed_once_in_turning_points_2_to_4(seed: int) -> None:
    s, events = random_battle("stake claim", seed)
    assert s.is_terminal
    for p in ("A", "B"):
        mine = [(e["tp"], e["marker"]) for e in of_kind(events, "claim_staked") if e["player"] == p]
        assert [tp for tp, _ in mine] == [2, 3, 4]
        assert sorted(m for _, m in mine) == ["A", "B", "centre"]
    # Initiative first: in each turning point the first claim is the initiative player's.
    initiative = {e["tp"]: e["player"] for e in of_kind(events, "initiative_decided")}
    firsts = of_kind(events, "claim_staked")[::2]
    assert [e["player"] for e in firsts] == [initiative[tp] for tp in (2, 3, 4)]


# -------------------------------------------------------------------------------------------
# Energy Cells
# -------------------------------------------------------------------------------------------


def pick_ups(s: GameState) -> list[str]:
    return [str(a) for a in s.legal_actions() if a.verb == "Pick up"]


def test_energy_cells_no_pick_up_in_the_first_turning_point_nor_in_other_crit_ops() -> None:
    s = crit("energy cells", {"RED-5": {"at": at("A")}, "BLU-1": {"at": FAR_B}}, tp=1)
    s, _ = play(s, ["Activate RED-5 engage"])
    assert pick_ups(s) == []
    with pytest.raises(IllegalActionError, match="cannot be picked up in this mission"):
        play(s, ["Pick up RED-5 a"])
    # Nor under another crit op, in any turning point.
    s = crit("loot", {"RED-5": {"at": at("A")}, "BLU-1": {"at": FAR_B}}, tp=4)
    s, _ = play(s, ["Activate RED-5 engage"])
    assert pick_ups(s) == []


def test_energy_cells_pick_up_costs_2ap_more_in_turning_point_2() -> None:
    # 1AP + 2AP = 3AP: the Trooper (APL 2) cannot afford it, the Captain (APL 3) can.
    ops = {"RED-1": {"at": at("A")}, "RED-5": {"at": at("centre")}, "BLU-1": {"at": FAR_B}}
    s = crit("energy cells", ops)
    s, _ = play(s, ["Activate RED-1 engage"])
    assert pick_ups(s) == []
    with pytest.raises(IllegalActionError, match="costs 3AP"):
        play(s, ["Pick up RED-1 a"])
    s, _ = play(s, ["End activation", "Activate BLU-1 engage", "End activation"])
    s, _ = play(s, ["Activate RED-5 engage"])
    assert pick_ups(s) == ["Pick up RED-5 centre"]
    s, ev = play(s, ["Pick up RED-5 centre"])
    assert "marker_picked_up" in kinds(ev)
    assert s.operative("RED-5").ap == 0 and s.operative("RED-5").carrying == ("centre",)


def test_energy_cells_pick_up_costs_1ap_more_in_turning_point_3() -> None:
    s = crit("energy cells", {"RED-1": {"at": at("A")}, "BLU-1": {"at": FAR_B}}, tp=3)
    s, _ = play(s, ["Activate RED-1 engage", "Pick up RED-1 a"])
    assert s.operative("RED-1").ap == 0  # APL 2 - (1 + 1)AP


def test_energy_cells_pick_up_costs_the_printed_1ap_in_turning_point_4() -> None:
    s = crit("energy cells", {"RED-1": {"at": at("A")}, "BLU-1": {"at": FAR_B}}, tp=4)
    s, _ = play(s, ["Activate RED-1 engage", "Pick up RED-1 a"])
    assert s.operative("RED-1").ap == 1


@pytest.mark.parametrize(("tp", "allowed"), [(3, False), (4, True)])
def test_energy_cells_pick_up_with_added_ap_cannot_be_free(tp: int, allowed: bool) -> None:
    # A counteraction costs nothing (1.6): Pick Up Marker with added AP (turning point 3) is
    # not allowed as one; in turning point 4 (no added AP) it is.
    ops = {
        "RED-1": {"at": at("A"), "ready": False},
        "BLU-1": {"at": FAR_B},
        "BLU-2": {"at": (28.0, 2.0)},
    }
    s = crit("energy cells", ops, tp=tp, turn="B")
    s, _ = play(s, ["Activate BLU-1 engage", "End activation", "Counteract RED-1"])
    assert (pick_ups(s) == ["Pick up RED-1 a"]) is allowed
    if not allowed:
        with pytest.raises(IllegalActionError, match="cannot be free"):
            play(s, ["Pick up RED-1 a"])


@pytest.mark.parametrize(("tp", "ap_left"), [(3, 1), (4, 3)])
def test_energy_cells_pick_up_with_added_ap_ignores_a_free_action_effect(
    tp: int, ap_left: int
) -> None:
    # An effect lets the Captain RED-5 (APL 3) Pick Up Marker for 0AP in this activation
    # (3.1). In turning point 4 it does (3AP left, the effect used up); in turning point 3
    # Pick Up Marker costs 1 + 1AP and cannot be free: RED-5 pays 2AP and the effect stays.
    s = crit("energy cells", {"RED-5": {"at": at("A")}, "BLU-1": {"at": FAR_B}}, tp=tp)
    s, _ = play(s, ["Activate RED-5 engage"])
    w = Work(s)
    w.node = s.node
    w.effects.append(Effect("free_action", "RED-5", "end_activation", "RED-5", detail="Pick up"))
    s, _ = play(w.freeze(), ["Pick up RED-5 a"])
    assert s.operative("RED-5").ap == ap_left
    assert len(s.effects) == (1 if tp == 3 else 0)


def test_energy_cells_adds_no_ap_to_picking_up_a_tac_op_mission_marker() -> None:
    # Turning point 2: B's Banner (a Plant Banner mission marker, not an objective marker)
    # lies next to RED-1: picking it up costs the printed 1AP; objective marker A next to
    # it would cost 3AP, more than RED-1 has.
    s = crit(
        "energy cells",
        {"RED-1": {"at": at("A")}, "BLU-1": {"at": FAR_B}},
        tokens=({"kind": "banner", "owner": "B", "at": at("A", 1.5, 1.0)},),
        tac_ops={"B": "Plant Banner"},
    )
    s, _ = play(s, ["Activate RED-1 engage"])
    assert pick_ups(s) == ["Pick up RED-1 b banner"]
    s, _ = play(s, ["Pick up RED-1 b banner"])
    assert s.operative("RED-1").ap == 1


def test_energy_cells_scores_1vp_for_controlling_more_markers() -> None:
    # A controls A and the centre, B controls B: A 1VP at the end of turning point 2.
    ops = {"RED-1": {"at": at("A")}, "RED-2": {"at": at("centre")}, "BLU-1": {"at": at("B")}}
    s, _ = end_tp(crit("energy cells", ops), "RED-1", "BLU-1", "RED-2")
    assert crit_vp(s) == (1, 0)


def test_energy_cells_scores_1vp_per_marker_carried_at_the_end_of_the_battle() -> None:
    # Turning point 4: A carries A and the centre, B carries B. A carried marker is controlled
    # by its carrier (4.8): A controls two to B's one, 1VP; at the end of the battle A
    # carries two markers, 2VP, and B one, 1VP.
    ops = {
        "RED-1": {"at": FAR_A, "carrying": "A"},
        "RED-2": {"at": (2.0, 2.0), "carrying": "centre"},
        "BLU-1": {"at": FAR_B, "carrying": "B"},
    }
    s, ev = end_tp(crit("energy cells", ops, tp=4), "RED-1", "BLU-1", "RED-2")
    assert s.is_terminal
    assert crit_vp(s) == (1 + 2, 1)
    why = [e["why"] for e in of_kind(ev, "vp_scored")]
    assert why == [
        "Energy Cells: more objective markers",
        "Energy Cells: carrying A, centre",
        "Energy Cells: carrying B",
    ]


# -------------------------------------------------------------------------------------------
# Whole battles
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["loot", "transmission", "orb", "stake claim", "energy cells"])
@pytest.mark.parametrize("seed", range(3))
def test_crit_op_random_battles_respect_the_caps(op: str, seed: int) -> None:
    # Every crit op here scores at most 2VP a turning point (Energy Cells 1VP, plus its
    # end-of-battle VP) and at most 6VP in the battle (8.1, 8.5).
    s, events = random_battle(op, seed)
    assert s.is_terminal
    per_tp: dict[tuple[str, int], int] = {}
    tp = 0
    for e in events:
        if e.kind == "turning_point_started":
            tp = e["tp"]
        elif e.kind == "battle_ending":
            tp = 5
        elif e.kind == "vp_scored" and e["op"] == "crit":
            assert tp >= 2, "no crit op VP in the first turning point"
            per_tp[e["player"], tp] = per_tp.get((e["player"], tp), 0) + e["vp"]
    cap = 1 if op == "energy cells" else 2
    assert all(vp <= cap for (_, t), vp in per_tp.items() if t <= 4)
    assert max(crit_vp(s)) <= 6
