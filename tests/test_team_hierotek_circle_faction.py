"""The Hierotek Circle's faction rules, abilities and unique actions (lane "faction"): one
scripted test per rule at least, named after it, on the LAB killzone against the BLU test
team."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import teams.hierotek_circle  # noqa: F401  (registers the rules)
from engine.game import Chance, Decision, GameState
from engine.game.context import GameOptions
from engine.game.scenario import position
from engine.game.tokens import Token
from engine.game.work import Work
from engine.missions.kill_op import recount_kill_grade
from engine.teams.model import Roster
from teams.hierotek_circle import reanimation
from tests.test_game_rules_common import BLU, LAB, of_kind, play, roster
from tests.test_team_weapon_rules import lab_team

KILL_OP = GameOptions(mission="kill_op")
GUARDIAN = "Immortal Guardian [Tesla Carbine; Bayonet]"
KILL = ["6,6,6,6", "1,1,1"]  # BLU's gun: 4 crits (4 damage each); no save


def lab(
    types: Sequence[str],
    operatives: Mapping[str, Mapping[str, Any]],
    blu: Sequence[str] = ("Trooper", "Trooper"),
    **kw: Any,
) -> GameState:
    """A LAB position: Hierotek Circle (player A, roster entries) against BLU."""
    kw.setdefault("cp", (0, 0))
    team = Roster.from_entries(lab_team("hierotek_circle"), list(types))
    return position(LAB, team, roster(BLU, tuple(blu)), operatives=operatives, **kw)


def pass_windows(s: GameState) -> GameState:
    """Pass in every ploy window until another decision or a chance node."""
    while isinstance(s.node, Decision) and s.node.kind in ("ploy", "gambit"):
        s, _ = s.apply("Pass")
    return s


def kill_hie_1(**kw: Any) -> GameState:
    """B shoots HIE-1 (Guardian, 1 wound left) dead in TP1; HIE-2 (Guardian) is expended
    far away. Every other operative is expended, so the turning point then ends."""
    ops: dict[str, dict[str, Any]] = {
        "HIE-1": {"at": (5, 14), "wounds": 1, "ready": False},
        "HIE-2": {"at": (3, 3), "ready": False},
        "BLU-1": {"at": (16, 14)},
        "BLU-2": {"at": (25, 20), "ready": False},
    }
    s = lab([GUARDIAN, GUARDIAN], ops, turn="B", options=KILL_OP, **kw)
    s, _ = play(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at HIE-1", "End activation"], KILL)
    return pass_windows(s)


def to_ready_step(s: GameState) -> GameState:
    """From the end of TP1 to TP2's Ready step: the initiative roll-off (A wins, keeps it)."""
    s = pass_windows(s)
    s, _ = play(s, [], ["4,3"])
    s, _ = s.apply("Initiative A")
    return s


# -------------------------------------------------------------------------------------------
# Kill op: recount_kill_grade (engine/missions/kill_op.py)
# -------------------------------------------------------------------------------------------


def test_recount_kill_grade_lowers_the_grade_and_the_vp() -> None:
    # B killed HIE-1: against a starting number of 5 (Reanimation Protocols), 1 kill is grade 1
    # and scores 1VP. Bringing HIE-1 back (no longer incapacitated) and recounting drops B to
    # grade 0 and takes the 1VP back; recounting again changes nothing (never raises).
    s = kill_hie_1()
    assert s.players[1].kill_grade == 1 and s.players[1].vp == 1
    w = Work(s)
    w.set_op("HIE-1", incapacitated=False, placed=True, wounds=1)
    assert recount_kill_grade(w, "B") == 1
    assert w.pl("B").kill_grade == 0 and w.pl("B").vp == 0
    assert w.mission.op_vp("kill", "B") == 0
    assert [e.kind for e in w.events] == ["kill_grade", "vp_lost"]
    assert recount_kill_grade(w, "B") == 0


# -------------------------------------------------------------------------------------------
# Reanimation Protocols
# -------------------------------------------------------------------------------------------


def markers(s: GameState) -> list[Token]:
    return [t for t in s.tokens if t.kind == reanimation.MARKER]


def test_reanimation_protocols_places_a_marker_and_counts_5_for_the_kill_op() -> None:
    # HIE-1 incapacitated for the first time: a marker where it stood, then removed. The
    # team has 2 operatives here, but the opponent counts 5: 1 kill is grade 1 (with 2
    # starting operatives it would need 1 kill for grade 1 too, but 2 kills would be grade 5:
    # checked through the grade table of 5, where grade 1 needs exactly 1).
    s = kill_hie_1()
    (tok,) = markers(s)
    assert (tok.name, tok.owner, tok.x, tok.y) == ("reanimation HIE-1", "A", 5.0, 14.0)
    hie1 = s.operative("HIE-1")
    assert hie1.incapacitated and not hie1.placed
    from engine.missions.kill_op import kill_op_starting

    assert kill_op_starting(Work(s), "A") == 5


def test_reanimation_protocols_returns_on_3_plus_and_lowers_kill_grade() -> None:
    # TP2 Ready step: the only marker is selected without a decision; a 3 REANIMATES HIE-1:
    # set up within 3" of the marker (here on it), order chosen (Conceal), 1 wound, ready;
    # the marker is removed; B's kill grade falls 1 -> 0 and B loses the 1VP it scored.
    s = to_ready_step(kill_hie_1())
    assert isinstance(s.node, Chance) and "Reanimation (HIE-1)" in s.node.request.label
    s, ev = play(s, ["Deploy HIE-1 at 5,14", "Use conceal order on HIE-1"], ["3"])
    o = s.operative("HIE-1")
    assert o.alive and o.wounds == 1 and o.order == "conceal" and o.ready
    assert (o.x, o.y) == (5.0, 14.0)
    assert not markers(s)
    assert s.players[1].kill_grade == 0 and s.players[1].vp == 0
    kinds = [e.kind for e in ev]
    assert kinds.index("operative_reanimated") < kinds.index("vp_lost")


def test_reanimation_protocols_fails_on_1_or_2_and_keeps_the_marker() -> None:
    # A 2: the marker stays (selected this turning point: no second roll for it), HIE-1
    # stays incapacitated and B keeps grade 1.
    s = to_ready_step(kill_hie_1())
    s, ev = play(s, [], ["2"])
    assert not isinstance(s.node, Chance) or "Reanimation" not in s.node.request.label
    (tok,) = markers(s)
    assert tok.counter("selected") == 2
    assert s.operative("HIE-1").incapacitated
    assert s.players[1].kill_grade == 1 and s.players[1].vp == 1
    assert [e["roll"] for e in of_kind(ev, "reanimation_roll")] == [2]


def test_reanimation_protocols_set_up_limits() -> None:
    # Farther than 3" from the marker, or within control range of an enemy, is refused.
    s = to_ready_step(kill_hie_1())
    s, _ = play(s, [], ["6"])
    assert not s.is_legal("Deploy HIE-1 at 10,14")  # 5" from the marker
    assert s.is_legal("Deploy HIE-1 at 7,14")
    legal = list(s.legal_actions())
    assert legal and all(a.verb == "Deploy" for a in legal)


def test_reanimation_protocols_only_the_first_time() -> None:
    # An operative already REANIMATED once gets no second marker.
    s = to_ready_step(kill_hie_1())
    s, _ = play(s, ["Deploy HIE-1 at 5,14", "Use engage order on HIE-1"], ["4"])
    w = Work(s)
    from engine.game import universal

    universal.inflict(w, "HIE-1", 5, "test", by="BLU-1")
    assert w.op("HIE-1").incapacitated
    assert not [t for t in w.tokens if t.kind == reanimation.MARKER]
    # ...and the kill grade rises again for it (1VP scored again).
    assert w.pl("B").kill_grade == 1


# -------------------------------------------------------------------------------------------
# Living Metal
# -------------------------------------------------------------------------------------------


def test_living_metal_heals_d3_plus_1_in_the_ready_step() -> None:
    # HIE-2 lost 6 wounds (4 of 10 left). In TP2's Ready step (after Reanimation: no marker
    # here) it rolls one D6: a 5 is D3 = 3, +1: 4 wounds regained (8). A full-wound operative
    # rolls nothing; never above its Wounds stat.
    ops = {
        "HIE-1": {"at": (5, 14), "ready": False},
        "HIE-2": {"at": (3, 3), "wounds": 4, "ready": False},
        "BLU-1": {"at": (25, 14), "ready": False},
    }
    s = lab([GUARDIAN, GUARDIAN], ops)
    s = to_ready_step(s)
    assert isinstance(s.node, Chance) and s.node.request.label == "Living Metal (HIE-2)"
    s, ev = play(s, [], ["5"])
    assert s.operative("HIE-2").wounds == 8
    assert s.operative("HIE-1").wounds == 10
    assert [(e["op"], e["wounds"]) for e in of_kind(ev, "wounds_regained")] == [("HIE-2", 4)]


def test_living_metal_after_reanimation_heals_the_returned_operative() -> None:
    # Reanimation first (HIE-1 back with 1 wound), then Living Metal: HIE-1 rolls 1 -> D3 1,
    # +1 = 2 regained: 3 wounds.
    s = to_ready_step(kill_hie_1())
    s, _ = play(s, ["Deploy HIE-1 at 5,14", "Use engage order on HIE-1"], ["3"])
    assert isinstance(s.node, Chance) and s.node.request.label == "Living Metal (HIE-1)"
    s, _ = play(s, [], ["1"])
    assert s.operative("HIE-1").wounds == 3
