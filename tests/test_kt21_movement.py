"""KT21 movement and marker actions (rules/KT21.md 6.1, 7, 15.1; decisions 2 and 6; DC 16.6,
16.13): Normal Move, Dash, Fall Back, Charge, Pick Up, the free drop, Pass and marker control.

Positions are Firefight positions of a KT21 battle on the scenario fixtures (probe and target
troopers, 28 mm bases: radius 0.551"; Move 6")."""

from __future__ import annotations

from typing import Any

import pytest

from engine.game.actions import IllegalActionError
from engine.game.context import GameOptions
from engine.game.markers import controller
from engine.game.state import GameState
from engine.game.work import Work
from engine.geometry import load_killzone
from engine.rules.kt21.movement import kt21_move_refusal
from engine.rulesets import position
from engine.teams.io import load_team
from engine.teams.model import Roster

R = 28 / 25.4 / 2
HEIGHTS = load_killzone("scenarios/killzones/heights.toml")  # objective "centre" at (15, 20)
PROBE = Roster.from_entries(load_team("scenarios/teams/kt21_probe.json"), ["Probe Trooper"] * 2)
TARGET = Roster.from_entries(load_team("scenarios/teams/kt21_target.json"), ["Target Trooper"] * 2)
FAR = {"TAR-1": {"at": (28.5, 11)}}


KT24_PROBE = Roster.from_entries(load_team("scenarios/teams/probe.json"), ["Probe Trooper"] * 2)
KT24_TARGET = Roster.from_entries(load_team("scenarios/teams/target.json"), ["Target Trooper"] * 2)
MARKER = (15.0, 14.5)
"""The centre of the KT21 mission's marker ``mid-north`` (engine.missions.kt21.objectives)."""


def _pos(ops: dict[str, dict[str, Any]], ruleset: str = "kt21") -> GameState:
    # (markers that can be picked up: the mission option objectives_pickup)
    options = GameOptions(ruleset=ruleset, objectives_pickup=True)
    a, b = (PROBE, TARGET) if ruleset == "kt21" else (KT24_PROBE, KT24_TARGET)
    return position(HEIGHTS, a, b, options=options, operatives=ops)


def _active(ops: dict[str, dict[str, Any]], ruleset: str = "kt21") -> GameState:
    s, _ = _pos(ops, ruleset).apply("Activate PRO-1 engage")
    return s


def _verbs(s: GameState) -> set[str]:
    return {a.verb for a in s.legal_actions()}


def test_normal_move_is_listed_instead_of_reposition() -> None:
    """6.1: KT21's move action is the Normal Move (1AP, up to Move); there is no
    Reposition."""
    s = _active({"PRO-1": {"at": (9, 7)}, **FAR})
    verbs = _verbs(s)
    assert "Normal Move" in verbs and "Reposition" not in verbs
    after, events = s.apply("Normal Move PRO-1 to 15,7")
    moved = next(e for e in events if e.kind == "moved")
    assert moved["cost"] == 6.0
    assert after.operatives[0].ap == 1  # APL 2, one action of 1AP spent


def test_normal_move_not_within_engagement_range() -> None:
    """6.1, DC 16.13: no Normal Move within Engagement Range of an enemy (bases 0.5" apart,
    nothing between them): Fall Back is the way out."""
    s = _active({"PRO-1": {"at": (9, 11)}, "TAR-1": {"at": (9 + 2 * R + 0.5, 11)}})
    assert "Normal Move" not in _verbs(s)
    with pytest.raises(IllegalActionError, match="Engagement Range"):
        s.apply("Normal Move PRO-1 to 9,5")


def test_dash_may_climb_in_kt21_but_not_in_kt24() -> None:
    """6.1 (Δ KT24): a KT21 Dash moves like a Normal Move with 3", so it may climb; KT24's
    Dash cannot. The 1" step (x 20-24) is within reach: 0.9" across and the climb counted as
    2" make 2.9", rounded up to 3" by the shared movement's increments."""
    ops = {"PRO-1": {"at": (19.4, 4)}, **FAR}
    after, _ = _active(ops).apply("Dash PRO-1 to 20.3,4,1")
    assert after.operatives[0].elevation == 1.0
    with pytest.raises(IllegalActionError, match="Dash cannot climb"):
        _active(ops, "kt24").apply("Dash PRO-1 to 20.3,4,1")


def test_dash_is_three_inches_whatever_the_move() -> None:
    """6.1, DC 16.6: Dash moves at most 3" and Move changes do not apply to it: 3.5" away
    is out of reach."""
    s = _active({"PRO-1": {"at": (9, 7)}, **FAR})
    with pytest.raises(IllegalActionError, match='within 3"'):
        s.apply("Dash PRO-1 to 12.5,7")


def test_fall_back_and_normal_move_exclude_each_other_both_ways() -> None:
    """6.1: Normal Move and Fall Back cannot be performed in the same activation, whichever
    comes first (KT24's table only forbids Fall Back after Reposition); a Dash after a Fall
    Back is allowed, a Charge after either is not."""
    w = Work(_active({"PRO-1": {"at": (9, 7)}, **FAR}))
    moved = w.set_op("PRO-1", done=("Normal Move",))
    assert "Normal Move" in (kt21_move_refusal(w, moved, "Fall Back") or "")
    assert "Normal Move" in (kt21_move_refusal(w, moved, "Charge") or "")
    fell = w.set_op("PRO-1", done=("Fall Back",))
    assert "Fall Back" in (kt21_move_refusal(w, fell, "Normal Move") or "")
    assert kt21_move_refusal(w, fell, "Dash") is None


def test_charge_excluded_after_a_dash_and_from_engagement_range() -> None:
    """6.1: no Charge after a Dash in the same activation, and none when already within
    Engagement Range of an enemy."""
    s = _active({"PRO-1": {"at": (9, 7)}, "TAR-1": {"at": (16, 7)}})
    after, _ = s.apply("Dash PRO-1 to 10,7")
    assert "Charge" not in _verbs(after)
    close = _active({"PRO-1": {"at": (9, 11)}, "TAR-1": {"at": (9 + 2 * R + 0.5, 11)}})
    assert "Charge" not in _verbs(close)


def test_charge_ends_within_engagement_range() -> None:
    """6.1: a Charge (Move + 2" = 8") must end within Engagement Range of an enemy: every
    listed Charge ends with the bases within 1" of the target's."""
    s = _active({"PRO-1": {"at": (9, 7)}, "TAR-1": {"at": (16, 7)}})
    charges = [a for a in s.legal_actions() if a.verb == "Charge"]
    assert charges
    for a in charges:
        assert a.point is not None
        gap = ((a.point[0] - 16) ** 2 + (a.point[1] - 7) ** 2) ** 0.5 - 2 * R
        assert gap <= 1.0 + 1e-6


def test_marker_control_within_two_inches_of_its_centre() -> None:
    """15.1, decision 6: an operative whose base is 1.9" from the marker's centre contests
    it in KT21 (within 2" of the centre); in KT24 it is 1.9 - 0.787 = 1.11" from the 40 mm
    marker's edge, outside its 1" control range, and nobody controls the marker."""
    x, y = MARKER
    assert controller(Work(_pos({"PRO-1": {"at": (x - R - 1.9, y)}, **FAR})), "mid-north") == "A"
    kt24 = {"PRO-1": {"at": (15 - R - 1.9, 20)}, **FAR}  # the layout's marker "centre" (15, 20)
    assert controller(Work(_pos(kt24, "kt24")), "centre") == ""


def test_pick_up_within_one_inch_of_the_centre_then_free_drop() -> None:
    """15.1: Pick Up (1AP) needs the marker's centre within 1" of the base (1.5" is too far
    even though the operative controls it); the carrier may then drop it for free (0AP)
    within 1" of itself."""
    x, y = MARKER
    far = _active({"PRO-1": {"at": (x - R - 1.5, y)}, **FAR})
    with pytest.raises(IllegalActionError, match='within 1"'):
        far.apply("Pick up PRO-1 mid-north")
    near = _active({"PRO-1": {"at": (x - R - 0.5, y)}, **FAR})
    after, _ = near.apply("Pick up PRO-1 mid-north")
    assert after.operatives[0].carrying == ("mid-north",)
    ap = after.operatives[0].ap
    dropped, _ = after.apply(f"Drop marker PRO-1 at {x - R - 0.5:.3f},{y + 1:g}")
    assert dropped.operatives[0].carrying == ()
    assert dropped.operatives[0].ap == ap  # free


def test_pass_spends_the_ap_left() -> None:
    """6.1: Pass costs 0AP and has no effect but spending the AP the player does not want
    to use: after it the operative has no AP left and the activation ends."""
    s = _active({"PRO-1": {"at": (9, 7)}, **FAR})
    after, events = s.apply("Pass")
    assert any(e.kind == "activation_ended" for e in events)
    assert after.operatives[0].ap == 0
