"""Effects that ploys begin: durations, stat changes and free actions (``rules/KT24.md``
2.1 stat changes, 3.1 free actions, 1.6 counteract, 7.1 ploys), with the test team of
``tests/ploy_team.py`` (``PLOA-n`` for A, ``PLOB-n`` for B; Troopers: APL 2, Move 6",
Save 4+, 10 wounds, Gun 4/3+/3/4) and a few extra test ploys added to one battle.
"""

from __future__ import annotations

import pytest

from engine.game import GameOptions, GameState, IllegalActionError
from engine.game.scenario import run
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.ploys import FreeAction, Ploy, StatChange
from tests.ploy_team import add_ploys, pos
from tests.test_ploys import FACING, SPENT, pass_windows, texts, where


def move(s: GameState, op: str) -> float:
    return Work(s).move_stat(s.operative(op))


def apl(s: GameState, op: str) -> int:
    return Work(s).apl(s.operative(op))


def change(s: GameState, op: str, kind: str) -> int:
    return Work(s).stat_change(op, kind)


def kinds_on(s: GameState, op: str) -> list[str]:
    return [e.kind for e in s.effects if e.op == op]


def to_tp2(s: GameState) -> GameState:
    """Pass every window from here to TP2's first activation (A wins the roll-off 4-3 and
    takes initiative)."""
    s, _ = pass_windows(s)
    s, _ = run(s, [], dice=["4,3"])
    s, _ = s.apply("Initiative A")
    s, _ = pass_windows(s)
    assert s.tp == 2 and where(s) == ("A", "activate", "")
    return s


def _state_ploy(name: str, trigger: str, *effects: StatChange, target: str = "self") -> Ploy:
    return Ploy(name, "firefight", triggers=(trigger,), target=target, effects=effects)


# -- durations (7.1) ---------------------------------------------------------------------


def test_7_1_until_the_end_of_the_activation() -> None:
    # Surge: Move +2" until the end of the activation: 8" while PLOA-1 is active, 6" once
    # its activation has ended.
    s = pos(FACING, cp=(1, 0))
    s, _ = run(s, ["Activate PLOA-1 engage", "Ploy surge"])
    assert move(s, "PLOA-1") == 8.0
    s, _ = s.apply("End activation")
    assert move(s, "PLOA-1") == 6.0 and kinds_on(s, "PLOA-1") == []


def test_7_1_until_the_end_of_the_activation_in_progress_on_another_operative() -> None:
    # Duck, used by B on its target PLOB-1 during PLOA-1's Shoot: Save improved by 1 until
    # the end of the activation. The activation in progress is PLOA-1's, so the effect ends
    # when PLOA-1's activation ends, not at the end of PLOB-1's own next activation.
    duck = Ploy(
        "Duck",
        "firefight",
        triggers=("target_selected",),
        target="friendly",
        eligible=lambda w, p, op, info: op == info["target"],
        effects=(StatChange("save", -1, "end_activation"),),
    )
    s = pos(FACING, cp=(0, 1))
    s = add_ploys(s, [duck], ("B",))
    s, _ = run(
        s,
        ["Activate PLOA-1 engage", "Shoot PLOA-1 gun at PLOB-1", "Ploy duck on PLOB-1"],
        dice=["5,4,3,2", "3,3,2"],
    )
    assert change(s, "PLOB-1", "save") == -1  # the Shoot is over: the change applies
    s, _ = s.apply("End activation")
    assert change(s, "PLOB-1", "save") == 0 and s.effects == ()


def test_7_1_until_the_end_of_its_next_activation() -> None:
    # Stay Sharp at the end of PLOA-1's TP1 activation: APL +1 until the end of its *next*
    # activation. It outlives TP1 (not an end-of-TP effect), gives 3AP (APL 2 + 1) when
    # PLOA-1 is next activated in TP2 (1.5: AP = APL at activation), and ends with that
    # activation.
    s = pos(FACING, cp=(1, 0))
    s, _ = run(s, ["Activate PLOA-1 engage", "Pass", "End activation", "Ploy stay sharp"])
    assert apl(s, "PLOA-1") == 3
    s, _ = run(s, ["Activate PLOB-1 engage", "End activation"])
    s = to_tp2(s)
    assert apl(s, "PLOA-1") == 3
    s, _ = run(s, ["Activate PLOA-1 engage", "Pass"])  # TP2's CP: Surge offered
    assert s.operative("PLOA-1").ap == 3
    s, _ = run(s, ["End activation", "Pass"])  # Stay Sharp offered again (a new TP)
    assert apl(s, "PLOA-1") == 2 and kinds_on(s, "PLOA-1") == []


def test_7_1_until_the_end_of_the_turning_point() -> None:
    # Toughen (Save improved by 1 until the end of the TP) used at the end of TP1's
    # Firefight phase, every window forced open: still in force in
    # TP1's turning_point_end window, gone by TP2's turning_point_start window (effects
    # "until the end of the turning point" end when it ends).
    s = pos(SPENT, options=GameOptions(open_windows=True))
    toughen = StatChange("save", -1, "end_tp")
    s = add_ploys(s, [_state_ploy("Toughen", "firefight_end", toughen, target="friendly")])
    s, _ = run(s, ["Ploy toughen on PLOA-1", "Pass", "Pass"])
    assert where(s)[2] == "turning_point_end"
    assert change(s, "PLOA-1", "save") == -1
    s, _ = run(s, ["Pass", "Pass"])
    assert where(s)[2] == "turning_point_start" and s.tp == 2
    assert change(s, "PLOA-1", "save") == 0


def test_7_1_until_the_end_of_the_battle() -> None:
    # Dig In gives PLOA-1 the token dug_in for the battle: it is still there in TP2, after
    # the end-of-TP effects ended.
    s = pos(SPENT)
    s, _ = s.apply("Ploy dig in on PLOA-1")
    s = to_tp2(s)
    tokens = [e for e in s.effects if e.kind == "token"]
    assert [(e.op, e.detail, e.until) for e in tokens] == [("PLOA-1", "dug_in", "end_battle")]


def test_7_1_while_a_condition_holds() -> None:
    # A "while" effect applies only while its named condition holds: Hit improved by 1
    # while the operative is injured (fewer than half its wounds, 2.3). Injured at 4 of 10
    # wounds: -1; at 5 of 10 (not fewer than half): no change, though the effect is there.
    def injured(w: Work, e: Effect) -> bool:
        return w.injured(w.op(e.op))

    for wounds, expected in ((4, -1), (5, 0)):
        s = pos({**FACING, "PLOA-1": {"at": (5, 14.5), "wounds": wounds}})
        s = s.with_hooks(lambda h: h.condition("test_injured", injured))
        grit = StatChange("hit", -1, "while", condition="test_injured")
        s = add_ploys(s, [_state_ploy("Grit", "activation_start", grit)])
        s, _ = run(s, ["Activate PLOA-1 engage", "Ploy grit"])
        assert kinds_on(s, "PLOA-1") == ["hit"]
        assert change(s, "PLOA-1", "hit") == expected, wounds


def test_7_1_weapon_rule_gained_for_the_turning_point() -> None:
    # Steady Aim (Gambit step of TP2): A's ranged weapons gain Balanced until the end of the
    # TP. PLOA-1's Gun (no re-roll rule of its own) then offers Balanced's re-roll of one
    # attack die (6) after rolling 6,5,2,1.
    s, _ = pass_windows(pos(SPENT, cp=(0, 0)))
    s, _ = run(s, [], dice=["4,3"])
    # A: Steady Aim; B (2CP in TP2) passes the Gambit step and then Opening Move, A passes.
    s, _ = run(s, ["Initiative A", "Ploy steady aim", "Pass", "Pass", "Pass"])
    assert [(e.kind, e.player, e.detail) for e in s.effects] == [
        ("weapon_rule", "A", "ranged:Balanced")
    ]
    s, _ = run(
        s,
        ["Activate PLOA-1 engage", "Shoot PLOA-1 gun at PLOB-1", "Pass"],  # B: no Brace
        dice=["6,5,2,1"],
    )
    assert where(s) == ("A", "reroll", "")
    assert texts(s) == ["Keep", "Re-roll 1", "Re-roll 2", "Re-roll 5", "Re-roll 6"]


# -- stat changes (2.1) ------------------------------------------------------------------


def test_2_1_stat_changes_are_summed() -> None:
    # Surge (+2") and A's kill-team-wide +1" (Rally): 6 + 2 + 1 = 9"; PLOA-2 gets only the
    # kill-team-wide +1": 7" (B has no Rally: it passes unasked between A's two ploys).
    s = pos({**FACING, "PLOA-2": {"at": (5, 10)}})
    rally = _state_ploy("Rally", "activation_start", StatChange("move", 1), target="")
    s = add_ploys(s, [rally], ("A",))
    s, _ = run(s, ["Activate PLOA-1 engage", "Ploy surge", "Ploy rally"])
    assert move(s, "PLOA-1") == 9.0 and move(s, "PLOA-2") == 7.0


def test_2_1_apl_change_is_clamped_to_one() -> None:
    # APL changes are summed, then clamped to +/-1 of the printed APL (2.1): +1 +1 -> APL 3
    # (not 4); -1 -2 -> APL 1 (not -1).
    ups = [
        _state_ploy("Up", "activation_start", StatChange("apl", 1)),
        _state_ploy("Up More", "activation_start", StatChange("apl", 1)),
    ]
    s = pos(FACING)
    s = add_ploys(s, ups, ("A",))
    s, _ = run(s, ["Activate PLOA-1 engage", "Ploy up", "Ploy up more"])
    assert change(s, "PLOA-1", "apl") == 2 and apl(s, "PLOA-1") == 3
    downs = [
        _state_ploy("Down", "activation_start", StatChange("apl", -1)),
        _state_ploy("Down More", "activation_start", StatChange("apl", -2)),
    ]
    s = pos(FACING)
    s = add_ploys(s, downs, ("A",))
    s, _ = run(s, ["Activate PLOA-1 engage", "Ploy down", "Ploy down more"])
    assert change(s, "PLOA-1", "apl") == -3 and apl(s, "PLOA-1") == 1


@pytest.mark.parametrize(
    ("wounds", "delta", "expected"),
    [
        (10, -5, 4.0),  # 6 - 5 = 1, never changed below 4"
        (10, -1, 5.0),  # 6 - 1
        (4, -1, 4.0),  # injured: 6 - 1 - 2 = 3, never below 4"
        (4, 3, 7.0),  # injured: 6 + 3 - 2
    ],
)
def test_2_1_move_is_never_changed_below_4(wounds: int, delta: int, expected: float) -> None:
    # Move can never be changed to less than 4" (2.1), injured (-2", 2.3) or not.
    s = pos({**FACING, "PLOA-1": {"at": (5, 14.5), "wounds": wounds}})
    s = add_ploys(s, [_state_ploy("Mire", "activation_start", StatChange("move", delta))], ("A",))
    s, _ = run(s, ["Activate PLOA-1 engage", "Ploy mire"])
    assert move(s, "PLOA-1") == expected


def test_2_1_stat_change_during_an_action_applies_after_it() -> None:
    # Brace (Save 4+ -> 3+) is used when PLOB-1 is selected as the target of a Shoot: a stat
    # change during an action applies once that action is complete (2.1, decision 7). The
    # attack dice 5,4,3,2 give three normal hits (Hit 3+); the defence dice 3,3,2 still
    # save nothing on 4+, so 3 x 3 = 9 damage: 10 -> 1 wound (with 3+ two 3s would have
    # saved two hits: 3 damage). After the Shoot the change applies.
    s = pos(FACING, cp=(0, 1))
    s, _ = run(
        s,
        ["Activate PLOA-1 engage", "Shoot PLOA-1 gun at PLOB-1", "Ploy brace on PLOB-1"],
        dice=["5,4,3,2"],
    )
    assert [e.pending for e in s.effects] == [True]
    assert change(s, "PLOB-1", "save") == 0
    s, _ = s.apply("roll 3,3,2")
    assert s.operative("PLOB-1").wounds == 1
    assert [e.pending for e in s.effects] == [False]
    assert change(s, "PLOB-1", "save") == -1


# -- free actions (3.1) ------------------------------------------------------------------


def test_3_1_free_action_in_an_activation_costs_0ap_and_counts_as_performed() -> None:
    # Sprint: PLOA-1 may Dash for 0AP in this activation. The Dash leaves its 2AP, uses the
    # effect up, and counts as its Dash of the activation (no second Dash offered, 1.5).
    sprint = Ploy(
        "Sprint",
        "firefight",
        triggers=("activation_start",),
        target="self",
        effects=(FreeAction("Dash", until="end_activation"),),
    )
    s = pos(FACING)
    s = add_ploys(s, [sprint], ("A",))
    s, _ = run(s, ["Activate PLOA-1 engage", "Ploy sprint", "Pass", "Dash PLOA-1 to 5,12"])
    o = s.operative("PLOA-1")
    assert o.ap == 2 and "Dash" in o.done
    assert kinds_on(s, "PLOA-1") == []
    assert not [t for t in texts(s) if t.startswith("Dash")]


def test_3_1_free_action_outside_an_activation_does_not_block_it_later() -> None:
    # Opening Move at TP2's firefight_start: PLOA-1 repositions up to 2" at once, for 0AP,
    # outside its activation (a free Reposition limited to 2"). It is offered only Reposition
    # (and ending it); a 3" move or a Dash is refused (3.1). In its activation afterwards it
    # still has 2AP and may Reposition: a free action outside an activation does not count
    # towards it (3.1).
    s, _ = pass_windows(pos(SPENT, cp=(3, 0)))
    s, _ = run(s, [], dice=["4,3"])
    s, _ = run(s, ["Initiative A", "Pass", "Pass"])
    assert where(s) == ("A", "ploy", "firefight_start")
    s, _ = s.apply("Ploy opening move on PLOA-1")
    assert where(s) == ("A", "free_action", "")
    assert {t.split()[0] for t in texts(s)} == {"Reposition", "End"}
    refused = (
        ("Reposition PLOA-1 to 5,17.5", r'within 2" of movement \(3\.2'),
        ("Dash PLOA-1 to 5,16", r"granted to PLOA-1 is Reposition \(3\.1\)"),
    )
    for bad, rule in refused:
        before = s.hash()
        with pytest.raises(IllegalActionError, match=rule):
            s.apply(bad)
        assert s.hash() == before
    s, _ = s.apply("Reposition PLOA-1 to 5,16.5")
    assert (s.operative("PLOA-1").x, s.operative("PLOA-1").y) == (5.0, 16.5)
    s, _ = pass_windows(s)
    s, _ = run(s, ["Activate PLOA-1 engage", "Pass"])  # Surge offered: passed
    assert s.operative("PLOA-1").ap == 2 and s.operative("PLOA-1").done == ()
    assert any(t.startswith("Reposition PLOA-1") for t in texts(s))


def test_1_6_counteraction_keeps_until_next_activation_effects() -> None:
    # Quick Feet, used as PLOA-1 starts a counteraction, lets it Dash for 0AP in its next
    # activation. The counteraction's own Dash is free anyway (1.6) and is not an
    # activation, so the effect is not used up: it is still there afterwards.
    c = pos(
        {
            "PLOA-1": {"at": (5, 14.5), "ready": False},
            "PLOB-1": {"at": (16, 14.5)},
            "PLOB-2": {"at": (16, 10)},
        },
        cp=(1, 0),
        turn="B",
    )
    c, _ = run(c, ["Activate PLOB-2 conceal", "End activation", "Counteract PLOA-1"])
    c, _ = run(c, ["Ploy quick feet", "Dash PLOA-1 to 5,12.5"])
    assert [(e.kind, e.detail, e.until) for e in c.effects] == [
        ("free_action", "Dash", "end_next_activation")
    ]
    assert not c.operative("PLOA-1").ready


def test_7_1_a_self_ploy_is_used_only_on_a_friendly_operative_the_trigger_names() -> None:
    # A ploy "on the operative the trigger names" is a friendly operative's (7.1: a player
    # uses its ploys on its own operatives unless the ploy says otherwise). When B's PLOB-1
    # is activated, the activation_start trigger names PLOB-1: A's copy of the ploy is not
    # offered to A (no window for A), B's is offered to B.
    s = pos(FACING, cp=(1, 1), turn="B")
    s = add_ploys(
        s, [_state_ploy("Self Surge", "activation_start", StatChange("move", 2, "end_activation"))]
    )
    s, _ = run(s, ["Activate PLOB-1 engage"])
    assert where(s) == ("B", "ploy", "activation_start")
    assert "Ploy self surge" in texts(s)
    s, _ = s.apply("Pass")  # A has nothing to use here: the window closes
    assert where(s) == ("B", "action", "")


def test_7_1_until_the_end_of_the_activation_begun_in_a_counteraction_ends_with_it() -> None:
    # A counteraction is not an activation (1.6), but an effect "until the end of the
    # activation" begun while an operative counteracts lasts only while that counteraction is
    # in progress: PLOA-1 counteracts (B still has a ready operative), gains Move +2 at its
    # start, and it is gone when the counteraction ends.
    s = pos(
        {"PLOA-1": {"at": (5, 14.5), "ready": False}, "PLOB-1": {"at": (16, 14.5)}},
        cp=(1, 0),
    )
    s = add_ploys(
        s,
        [_state_ploy("Counter Surge", "counteract_start", StatChange("move", 2, "end_activation"))],
        ("A",),
    )
    s, _ = run(s, ["Counteract PLOA-1", "Ploy counter surge"])
    assert move(s, "PLOA-1") == 8.0
    s, _ = s.apply("End activation")
    assert "move" not in kinds_on(s, "PLOA-1") and move(s, "PLOA-1") == 6.0
