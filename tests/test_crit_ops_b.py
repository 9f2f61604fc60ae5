"""Crit ops Download, Data and Reboot (``rules/KT24.md`` 8.3, Approved Ops 2025): one test per
scoring condition and per mission action.

Positions are on ``open_ruins``: its objective markers are A at (9.5, 8.5) (player A's, drop
zone A), ``centre`` at (15, 11) and B at (20.5, 13.5) (player B's). An operative standing on
a marker contests it; Kasrkin (player A: KAS-1 APL 3, KAS-2 and KAS-3 APL 2) play
Legionaries (player B: APL 3 each). An operative not listed in a position is not on the
killzone. A position whose operatives are all expended ends its turning point at once, so
the end-of-turning-point scoring has run in the state returned.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from engine.agents import RandomAgent
from engine.game import GameOptions, GameState, IllegalActionError
from engine.game.actions import Action
from engine.game.drivers import SeededDice
from engine.game.events import Event, narrate
from engine.game.observation import observe
from engine.game.scenario import run
from engine.game.state import Chance, Decision
from engine.game.work import Work
from engine.geometry import load_killzone
from engine.missions.crit_ops import data, download, reboot
from engine.rulesets import new_game, position
from engine.teams import load_builtin_team

KZ = load_killzone("open_ruins")
KASRKIN = load_builtin_team("kasrkin").default()
LEGIONARIES = load_builtin_team("legionaries").default()

ON_A = (9.5, 8.5)
ON_CENTRE = (15.0, 11.0)
ON_B = (20.5, 13.5)
IDLE = {"ready": False}


def pos(crit: str, tp: int, ops: dict[str, dict[str, Any]], **facts: Any) -> GameState:
    """A position of crit op ``crit`` in turning point ``tp`` (A to activate), with op
    ``facts`` set (keyword ``Data__points__centre`` sets ``Data:points:centre``)."""
    s = position(KZ, KASRKIN, LEGIONARIES, operatives=ops, tp=tp, options=GameOptions(crit_op=crit))
    return with_facts(s, **facts) if facts else s


def with_facts(s: GameState, **facts: Any) -> GameState:
    """``s`` with op facts added (``__`` in a keyword stands for ``:``)."""
    table = dict(s.mission.facts)
    table.update({k.replace("__", ":"): v for k, v in facts.items()})
    return attrs.evolve(s, mission=attrs.evolve(s.mission, facts=tuple(sorted(table.items()))))


def end_tp(s: GameState, op: str = "KAS-1") -> GameState:
    """End the turning point of ``s``: ``op`` (the last ready operative) activates and
    ends its activation at once."""
    return run(s, [f"Activate {op} engage", "End activation"])[0]


def crit_vp(s: GameState) -> tuple[int, int]:
    """Crit op VP of A and B in the battle."""
    return (s.mission.op_vp("crit", "A"), s.mission.op_vp("crit", "B"))


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def listed(s: GameState, text: str, op: str) -> bool:
    return Action("Act", op=op, text=text) in s.legal_actions()


def offered(s: GameState, text: str, op: str) -> bool:
    """Whether ``Act <op> <text>`` is among the actions listed (offered), not only legal."""
    return any(a.verb == "Act" and a.op == op and a.text == text for a in list(s.legal_actions()))


def refused(s: GameState, action: str, why: str) -> None:
    """``action`` raises naming ``why`` and leaves ``s`` unchanged."""
    before = s.hash()
    with pytest.raises(IllegalActionError, match=why):
        s.apply(action)
    assert s.hash() == before


# -------------------------------------------------------------------------------------------
# Download
# -------------------------------------------------------------------------------------------


def test_download_in_turning_point_3_scores_1vp() -> None:
    # KAS-1 alone on the centre marker in TP3: Download is allowed and scores 1VP at once.
    s = pos("download", 3, {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}})
    s, ev = run(s, ["Activate KAS-1 engage", "Act KAS-1 download centre"])
    assert [(e["player"], e["marker"]) for e in kinds(ev, "marker_downloaded")] == [("A", "centre")]
    assert crit_vp(s) == (1, 0)
    assert download.downloaded(Work(s)) == ["centre"]


def test_download_in_turning_point_4_scores_2vp() -> None:
    # KAS-1 on B's marker (the opponent's) in TP4: 2VP.
    s = pos("download", 4, {"KAS-1": {"at": ON_B}, "LEG-1": {"at": ON_A, **IDLE}})
    s, _ = run(s, ["Activate KAS-1 engage", "Act KAS-1 download b"])
    assert crit_vp(s) == (2, 0)


def test_download_not_in_the_first_or_second_turning_point() -> None:
    s = pos("download", 2, {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}})
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert not listed(s, "download centre", "KAS-1")
    refused(s, "Act KAS-1 download centre", "first or second turning point")


def test_download_only_the_centre_or_opponents_marker() -> None:
    # KAS-1 controls its own marker A: not a Download target.
    s = pos("download", 3, {"KAS-1": {"at": ON_A}, "LEG-3": {"at": ON_B, **IDLE}})
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert not listed(s, "download a", "KAS-1")
    refused(s, "Act KAS-1 download a", "centre or the opponent's")


def test_download_once_per_marker_per_battle() -> None:
    # B's kill team downloaded the centre earlier: nobody may download it again.
    s = pos(
        "download",
        4,
        {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}},
        Download__centre="B",
    )
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert not listed(s, "download centre", "KAS-1")
    refused(s, "Act KAS-1 download centre", "already downloaded")


def test_download_needs_the_marker_controlled() -> None:
    # KAS-1 3" from the centre marker does not contest it.
    s = pos("download", 3, {"KAS-1": {"at": (15.0, 8.0)}, "LEG-3": {"at": ON_B, **IDLE}})
    s, _ = run(s, ["Activate KAS-1 engage"])
    refused(s, "Act KAS-1 download centre", "must control")


def test_download_not_within_control_range_of_an_enemy() -> None:
    # KAS-1 (APL 3) and KAS-2 (APL 2) control the centre against LEG-1 (APL 3), but LEG-1
    # is within KAS-1's control range.
    s = pos(
        "download",
        3,
        {
            "KAS-1": {"at": (15.0, 12.0)},
            "KAS-2": {"at": (15.0, 10.0), **IDLE},
            "LEG-1": {"at": (15.0, 13.8), **IDLE},
        },
    )
    s, _ = run(s, ["Activate KAS-1 engage"])
    refused(s, "Act KAS-1 download centre", "control range of an enemy")


def test_download_end_of_turning_point_more_markers_controlled_scores_1vp() -> None:
    # End of TP2: A controls A and the centre, B controls B: 2 > 1, A scores 1VP.
    s = pos(
        "download",
        2,
        {
            "KAS-1": {"at": ON_A, **IDLE},
            "KAS-2": {"at": ON_CENTRE, **IDLE},
            "LEG-3": {"at": ON_B, **IDLE},
        },
    )
    assert s.tp == 3  # TP2 ended
    assert crit_vp(s) == (1, 0)


def test_download_control_ignores_downloaded_markers() -> None:
    # As above, but the centre is downloaded: 1 against 1, nobody scores.
    s = pos(
        "download",
        2,
        {"KAS-1": {"at": ON_A}, "KAS-2": {"at": ON_CENTRE, **IDLE}, "LEG-3": {"at": ON_B, **IDLE}},
        Download__centre="A",
    )
    s = end_tp(s)
    assert s.tp == 3
    assert crit_vp(s) == (0, 0)


def test_download_control_not_scored_in_the_first_turning_point() -> None:
    s = pos(
        "download",
        1,
        {
            "KAS-1": {"at": ON_A, **IDLE},
            "KAS-2": {"at": ON_CENTRE, **IDLE},
            "LEG-3": {"at": ON_B, **IDLE},
        },
    )
    assert s.tp == 2 and crit_vp(s) == (0, 0)


def test_download_capped_at_6vp_for_the_op() -> None:
    # A already has 5VP from the crit op: the 2VP of a TP4 Download is capped to 1 (8.1).
    s = pos("download", 4, {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}})
    s = attrs.evolve(s, mission=attrs.evolve(s.mission, vp=(("crit", 5, 0),)))
    s, ev = run(s, ["Activate KAS-1 engage", "Act KAS-1 download centre"])
    assert [e["vp"] for e in kinds(ev, "vp_scored")] == [1]
    assert crit_vp(s) == (6, 0)


# -------------------------------------------------------------------------------------------
# Data
# -------------------------------------------------------------------------------------------


def test_compile_data_gives_the_marker_a_data_point() -> None:
    s = pos("data", 2, {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}})
    s, ev = run(s, ["Activate KAS-1 engage", "Act KAS-1 compile data centre"])
    assert [(e["marker"], e["points"]) for e in kinds(ev, "data_compiled")] == [("centre", 1)]
    w = Work(s)
    assert data.data_points(w, "centre") == 1
    assert data.compiled(w, "A") == 1 and data.compiled(w, "B") == 0
    assert crit_vp(s) == (0, 0)  # compiling scores nothing by itself


def test_compile_data_once_per_marker_per_turning_point() -> None:
    # The centre already gained a Data point this turning point (TP3), whoever compiled it.
    s = pos(
        "data",
        3,
        {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}},
        Data__points__centre=2,
        Data__gained__centre=3,
    )
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert not listed(s, "compile data centre", "KAS-1")
    refused(s, "Act KAS-1 compile data centre", "already gained a Data point")


def test_compile_data_again_in_a_later_turning_point() -> None:
    # It gained a point in TP2; in TP3 it may gain another one (2 points).
    s = pos(
        "data",
        3,
        {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}},
        Data__points__centre=1,
        Data__gained__centre=2,
    )
    s, _ = run(s, ["Activate KAS-1 engage", "Act KAS-1 compile data centre"])
    assert data.data_points(Work(s), "centre") == 2


def test_compile_data_not_in_the_first_turning_point() -> None:
    s = pos("data", 1, {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}})
    s, _ = run(s, ["Activate KAS-1 engage"])
    refused(s, "Act KAS-1 compile data centre", "first turning point")


def test_send_data_scores_the_data_points_removed() -> None:
    # Three Data points on B's marker (TP2, TP3, TP4): KAS-1 sends them for 3VP.
    s = pos(
        "data",
        4,
        {"KAS-1": {"at": ON_B}, "LEG-1": {"at": ON_A, **IDLE}},
        Data__points__B=3,
        Data__gained__B=4,
    )
    s, ev = run(s, ["Activate KAS-1 engage", "Act KAS-1 send data b"])
    assert [(e["marker"], e["points"]) for e in kinds(ev, "data_sent")] == [("B", 3)]
    assert crit_vp(s) == (3, 0)
    assert data.data_points(Work(s), "B") == 0


def test_send_data_only_in_the_fourth_turning_point() -> None:
    s = pos(
        "data",
        3,
        {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}},
        Data__points__centre=2,
    )
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert not listed(s, "send data centre", "KAS-1")
    refused(s, "Act KAS-1 send data centre", "turning points before the 4th")


def test_send_data_needs_data_points() -> None:
    s = pos("data", 4, {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}})
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert not listed(s, "send data centre", "KAS-1")
    refused(s, "Act KAS-1 send data centre", "no Data points")


def test_data_more_compile_data_actions_in_turning_point_2_scores_1vp() -> None:
    # KAS-1 compiles the centre, the only Compile Data of TP2: 1 > 0, A scores 1VP at its end.
    s = pos("data", 2, {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}})
    s, ev = run(s, ["Activate KAS-1 engage", "Act KAS-1 compile data centre", "End activation"])
    assert s.tp == 3
    assert [(e["player"], e["vp"]) for e in kinds(ev, "vp_scored")] == [("A", 1)]
    assert crit_vp(s) == (1, 0)


def test_data_equal_compile_data_actions_score_nothing() -> None:
    # TP3: one Compile Data each (kept as facts): neither performed more.
    ops = {"KAS-1": {"at": ON_A}, "LEG-3": {"at": ON_B, **IDLE}}
    s = end_tp(pos("data", 3, ops, Data__compiled__A=(3, 1), Data__compiled__B=(3, 1)))
    assert s.tp == 4 and crit_vp(s) == (0, 0)
    # The check: one more for A scores.
    s = end_tp(pos("data", 3, ops, Data__compiled__A=(3, 2), Data__compiled__B=(3, 1)))
    assert crit_vp(s) == (1, 0)


def test_data_compile_data_actions_not_compared_at_the_end_of_turning_point_4() -> None:
    # Only the ends of TP2 and TP3 compare Compile Data actions.
    ops = {"KAS-1": {"at": ON_A}, "LEG-3": {"at": ON_B, **IDLE}}
    s = end_tp(pos("data", 4, ops, Data__compiled__A=(4, 2)))
    assert s.is_terminal and crit_vp(s) == (0, 0)


def test_data_compile_data_actions_of_an_earlier_turning_point_not_counted() -> None:
    # A's two Compile Data were in TP2; at the end of TP3 A performed none.
    ops = {"KAS-1": {"at": ON_A}, "LEG-3": {"at": ON_B, **IDLE}}
    s = end_tp(pos("data", 3, ops, Data__compiled__A=(2, 2)))
    assert s.tp == 4 and crit_vp(s) == (0, 0)


# -------------------------------------------------------------------------------------------
# Reboot
# -------------------------------------------------------------------------------------------


def gambit_of_tp2(**ops: dict[str, Any]) -> GameState:
    """The Reboot picks at the start of TP2's Gambit step: TP1 ends at once (everyone
    expended), A wins the initiative roll-off 6-1 and keeps initiative."""
    s = pos("reboot", 1, ops or {"KAS-1": {"at": ON_A, **IDLE}, "LEG-3": {"at": ON_B, **IDLE}})
    s, _ = run(s, ["Initiative A"], dice=["6,1"])
    assert s.tp == 2 and s.node == Decision("A", "reboot pick")
    return s


def test_reboot_markers_numbered_in_layout_order() -> None:
    # open_ruins lists drop zone A's marker, the centre, drop zone B's marker.
    w = Work(gambit_of_tp2())
    assert [reboot.marker_number(w, m) for m in ("A", "centre", "B")] == [1, 2, 3]
    assert [str(a) for a in gambit_of_tp2().legal_actions()] == [
        "Op reboot 1",
        "Op reboot 2",
        "Op reboot 3",
    ]


def test_reboot_same_pick_makes_that_marker_inert() -> None:
    s, ev = run(gambit_of_tp2(), ["Op reboot 2", "Op reboot 2"])
    assert [e["inert"] for e in kinds(ev, "reboot_picks_revealed")] == [("centre",)]
    assert reboot.inert(Work(s)) == ("centre",)


def test_reboot_different_picks_make_the_unpicked_marker_inert() -> None:
    # A picks 1, B picks 3: marker 2 (the centre) is the one neither picked.
    s, ev = run(gambit_of_tp2(), ["Op reboot 1", "Op reboot 3"])
    assert [e["picks"] for e in kinds(ev, "reboot_picks_revealed")] == [(1, 3)]
    assert reboot.inert(Work(s)) == ("centre",)
    s, _ = run(gambit_of_tp2(), ["Op reboot 2", "Op reboot 1"])
    assert reboot.inert(Work(s)) == ("B",)


def test_reboot_first_pick_secret_until_both_picked() -> None:
    # A (initiative) picks first; B sees neither the pick nor a different choice of numbers.
    picked = {n: run(gambit_of_tp2(), [f"Op reboot {n}"])[0] for n in (1, 3)}
    s = picked[1]
    assert s.node == Decision("B", "reboot pick")
    assert s.mission.fact(reboot.pick_key("A")) == 1
    seen_by_b = observe(s, "B")
    assert all(not k.startswith("secret:A:") for k, _ in seen_by_b.mission.facts)
    assert "A's secret picks" in seen_by_b.hidden
    assert seen_by_b.mission == observe(picked[3], "B").mission
    assert list(picked[1].legal_actions()) == list(picked[3].legal_actions())
    assert observe(s, "A").mission.fact(reboot.pick_key("A")) == 1
    # Once B has picked, both picks are public and the secret is gone.
    s, _ = run(s, ["Op reboot 3"])
    assert s.mission.fact(reboot.pick_key("A")) is None
    assert s.mission.fact("Reboot:picks") == (2, 1, 3)
    assert observe(s, "B").mission.fact("Reboot:picks") == (2, 1, 3)


def test_reboot_pick_must_be_a_markers_number() -> None:
    refused(gambit_of_tp2(), "Op reboot 4", "objective marker's number")


def test_reboot_pick_asked_in_the_first_turning_point_too() -> None:
    """The op's text asks for the picks "at the start of the Gambit step of each Strategy
    phase", with no "after the first": the first turning point's Gambit step opens with
    the player with initiative's pick, and after both picks a marker is inert (two picks
    of 1-3 always leave one inert: the same number, or the one neither picked)."""
    s = new_game(KZ, KASRKIN, LEGIONARIES, GameOptions(crit_op="reboot"))
    agent, dice = RandomAgent(1), SeededDice(1)
    picks: list[tuple[int, str]] = []
    while len(picks) < 2 and s.tp < 2:
        if isinstance(s.node, Chance):
            s = s.apply(dice.roll(s))[0]
            continue
        assert isinstance(s.node, Decision)
        if s.node.kind == "reboot pick":
            picks.append((s.tp, s.node.player))
        s = s.apply(agent.act(s))[0]
    assert [tp for tp, _ in picks] == [1, 1]
    assert picks[0][1] == s.initiative and picks[1][1] != s.initiative
    assert s.tp == 1 and len(reboot.inert(Work(s))) == 1


def test_reboot_action_costs_2ap_and_makes_a_controlled_marker_not_inert() -> None:
    s = pos(
        "reboot",
        2,
        {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}},
        Reboot__inert=("centre",),
    )
    s, _ = run(s, ["Activate KAS-1 engage"])
    ap = s.operative("KAS-1").ap
    s, ev = run(s, ["Act KAS-1 reboot centre"])
    assert [e["marker"] for e in kinds(ev, "marker_rebooted")] == ["centre"]
    assert s.operative("KAS-1").ap == ap - 2
    assert reboot.inert(Work(s)) == ()


def test_reboot_of_a_marker_that_is_not_inert_is_legal_and_does_nothing() -> None:
    """Reboot's printed conditions are only "not in the first turning point, not within an
    enemy's control range"; "inert" belongs to its effect. So Reboot of the controlled,
    non-inert centre is legal, costs its 2AP (KAS-1 APL 3: 1AP left) and leaves A inert;
    it is not offered, since choosing it can change nothing."""
    s = pos(
        "reboot",
        2,
        {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}},
        Reboot__inert=("A",),
    )
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert not offered(s, "reboot centre", "KAS-1")
    assert s.is_legal("Act KAS-1 reboot centre")
    ap = s.operative("KAS-1").ap
    s, ev = run(s, ["Act KAS-1 reboot centre"])
    assert [e["action"] for e in kinds(ev, "mission_action")] == ["Reboot"]
    assert kinds(ev, "marker_rebooted") == []
    assert s.operative("KAS-1").ap == ap - 2
    assert reboot.inert(Work(s)) == ("A",)


def test_reboot_still_needs_a_marker_the_operative_controls() -> None:
    """The effect acts on "an objective marker the active operative controls": naming a
    marker KAS-1 does not control (it stands on the centre, not on B) is refused (4.8)."""
    s = pos(
        "reboot",
        2,
        {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_A, **IDLE}},
        Reboot__inert=("B",),
    )
    s, _ = run(s, ["Activate KAS-1 engage"])
    refused(s, "Act KAS-1 reboot b", "must control objective marker B")


def test_reboot_needs_2ap() -> None:
    # KAS-2 (APL 2) spends 1AP first: 1AP left is not enough for Reboot.
    s = pos(
        "reboot",
        2,
        {"KAS-2": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}},
        Reboot__inert=("centre",),
    )
    s, _ = run(s, ["Activate KAS-2 engage", "Act KAS-2 reboot centre"])
    assert s.operative("KAS-2").ap == 0
    s = pos(
        "reboot",
        2,
        {"KAS-2": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}},
        Reboot__inert=("centre", "A"),
    )
    s, _ = run(s, ["Activate KAS-2 engage"])
    s = attrs.evolve(
        s,
        operatives=tuple(attrs.evolve(o, ap=1) if o.id == "KAS-2" else o for o in s.operatives),
    )
    assert not listed(s, "reboot centre", "KAS-2")
    refused(s, "Act KAS-2 reboot centre", "AP")


def test_reboot_scores_1vp_per_controlled_marker_not_inert() -> None:
    # End of TP2: A controls A and the centre, B controls B; nothing inert: A 2VP, B 1VP.
    ops = {
        "KAS-1": {"at": ON_A},
        "KAS-2": {"at": ON_CENTRE, **IDLE},
        "LEG-3": {"at": ON_B, **IDLE},
    }
    assert crit_vp(end_tp(pos("reboot", 2, ops))) == (2, 1)
    # The centre inert: it is ignored, A 1VP, B 1VP.
    assert crit_vp(end_tp(pos("reboot", 2, ops, Reboot__inert=("centre",)))) == (1, 1)


def test_reboot_not_scored_in_the_first_turning_point() -> None:
    ops = {"KAS-1": {"at": ON_A, **IDLE}, "LEG-3": {"at": ON_B, **IDLE}}
    assert crit_vp(pos("reboot", 1, ops)) == (0, 0)


def test_reboot_inert_only_during_its_turning_point() -> None:
    # The centre was inert in TP2; once TP3 starts it is not (until the next picks).
    ops = {"KAS-1": {"at": ON_A}, "LEG-3": {"at": ON_B, **IDLE}}
    s = pos("reboot", 2, ops, Reboot__inert=("centre",))
    assert reboot.inert(Work(s)) == ("centre",)
    s = end_tp(s)
    assert s.tp == 3 and reboot.inert(Work(s)) == ()


def test_download_data_reboot_events_are_narrated() -> None:
    s = pos("data", 4, {"KAS-1": {"at": ON_B}}, Data__points__B=1)
    _, ev = run(s, ["Activate KAS-1 engage", "Act KAS-1 compile data b", "Act KAS-1 send data b"])
    s = pos("download", 3, {"KAS-1": {"at": ON_CENTRE}})
    ev += run(s, ["Activate KAS-1 engage", "Act KAS-1 download centre"])[1]
    s = pos("reboot", 2, {"KAS-1": {"at": ON_CENTRE}}, Reboot__inert=("centre",))
    ev += run(s, ["Activate KAS-1 engage", "Act KAS-1 reboot centre"])[1]
    ev += run(gambit_of_tp2(), ["Op reboot 1", "Op reboot 3"])[1]
    lines = {e.kind: narrate(e) for e in ev}
    assert lines["data_compiled"] == "  KAS-1 compiles data: objective marker B has 2 Data point(s)"
    assert lines["data_sent"] == "  KAS-1 sends 2 Data point(s) from objective marker B"
    assert lines["marker_downloaded"] == "  KAS-1 downloads objective marker centre"
    assert lines["marker_rebooted"] == "  KAS-1 reboots objective marker centre"
    assert lines["reboot_picked"] == "B picks a marker number in secret"
    assert lines["reboot_picks_revealed"] == (
        "Reboot picks: A 1, B 3; inert this turning point: centre"
    )


def test_download_data_reboot_only_when_the_crit_op() -> None:
    # Secure is the crit op: none of these actions is offered, each is refused, and the
    # Gambit step of TP2 asks no Reboot pick.
    s = pos(
        "secure",
        4,
        {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}},
        Data__points__centre=1,
        Reboot__inert=("centre",),
    )
    s, _ = run(s, ["Activate KAS-1 engage"])
    for text in ("download centre", "compile data centre", "send data centre", "reboot centre"):
        assert not listed(s, text, "KAS-1")
        refused(s, f"Act KAS-1 {text}", "which is not the crit op")
    s = pos("secure", 1, {"KAS-1": {"at": ON_A, **IDLE}, "LEG-3": {"at": ON_B, **IDLE}})
    s, _ = run(s, ["Initiative A"], dice=["6,1"])
    assert s.tp == 2 and s.node != Decision("A", "reboot pick")
