"""Ploy windows and what ploys cost (``rules/KT24.md`` 1.4 Gambit step, 1.7 order of
simultaneous choices, 7.1 ploys), with the test team of ``tests/ploy_team.py`` (one ploy
per trigger; both players field it: ``PLOA-n`` for A, ``PLOB-n`` for B).

Durations, stat changes, free actions and illegal uses are in ``tests/test_ploys_effects.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.game import GameOptions, GameState, IllegalActionError
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.ploys import TRIGGERS, PloyWindowFrame
from engine.game.scenario import run
from engine.game.state import Decision
from engine.rules.ploys import Ploy
from tests.ploy_team import BY_TRIGGER, PLOYS, add_ploys, pos

OPEN = GameOptions(open_windows=True)

# PLOA-1 and PLOB-1 (Troopers: APL 2, Move 6", Save 4+, Gun 4/3+/3/4) 11" apart in the open
# lane of LAB, both visible to each other.
FACING = {"PLOA-1": {"at": (5, 14.5)}, "PLOB-1": {"at": (16, 14.5)}}
# The same two, both expended: the Firefight phase of TP1 ends at once.
SPENT = {k: {**v, "ready": False} for k, v in FACING.items()}


def where(state: GameState) -> tuple[str, str, str]:
    """(player, decision kind, trigger of the ploy window or "")."""
    node = state.node
    assert isinstance(node, Decision), node
    top = state.stack[-1]
    return node.player, node.kind, top.trigger if isinstance(top, PloyWindowFrame) else ""


def texts(state: GameState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def used(events: list[Event]) -> list[tuple[str, str]]:
    return [(e["player"], e["ploy"]) for e in events if e.kind == "ploy_used"]


def pass_windows(state: GameState) -> tuple[GameState, list[tuple[str, str, str]]]:
    """Pass in every ploy window and Gambit step until another decision or a chance node;
    returns the state and the windows passed, in order."""
    seen = []
    while isinstance(state.node, Decision) and state.node.kind in ("ploy", "gambit"):
        seen.append(where(state))
        state, _ = state.apply("Pass")
    return state, seen


def test_every_trigger_has_a_test_ploy() -> None:
    # The fixture team covers every trigger the core opens a window at (issue 14: a test
    # team with one ploy per trigger).
    assert set(BY_TRIGGER) == set(TRIGGERS)
    assert len({p.name for p in PLOYS}) == len(PLOYS)


# -- when each window opens, and for whom (1.4, 1.7, 7.1) --------------------------------


def test_1_7_activation_start_window_asks_only_the_player_who_can_use_a_ploy() -> None:
    # Surge (1CP) is used on the friendly operative just activated. A activates PLOA-1 with
    # 3CP: A is asked; B's Surge needs a friendly operative, so B passes without being asked
    # and the window closes after A's pass (two passes in succession, 1.7).
    s = pos(FACING)
    s, _ = s.apply("Activate PLOA-1 engage")
    assert where(s) == ("A", "ploy", "activation_start")
    assert texts(s) == ["Pass", "Ploy surge"]
    s, _ = s.apply("Pass")
    assert where(s) == ("A", "action", "")


def test_during_activation_ploys_are_offered_among_the_actions() -> None:
    # A ploy at "during_activation" is no window: it is listed among the active operative's
    # action choices while its condition holds (Second Wind: the operative is injured);
    # using it is not an action (AP and the activation go on) and it is once per TP.
    s = pos({**FACING, "PLOA-1": {"at": (5, 14.5), "wounds": 2}})
    s, _ = s.apply("Activate PLOA-1 engage")
    s, _ = pass_windows(s)
    assert where(s) == ("A", "action", "")
    assert "Ploy second wind" in texts(s)
    s, ev = s.apply("Ploy second wind")
    assert used(ev) == [("A", "Second Wind")]
    assert where(s) == ("A", "action", "") and s.operative("PLOA-1").ap == 2
    assert "Ploy second wind" not in texts(s)
    s, _ = s.apply("End activation")
    # Not offered to an operative that is not injured.
    s = pos(FACING)
    s, _ = pass_windows(s.apply("Activate PLOA-1 engage")[0])
    assert not [t for t in texts(s) if t.startswith("Ploy")]


def test_moved_window_opens_after_the_movement_before_the_action_ends() -> None:
    # Tailwind (trigger "moved") is offered once PLOA-1's Dash has moved it, before the
    # Dash ends (the window is told the verb and the start); not after a Reposition.
    s = pos(FACING)
    s, _ = pass_windows(s.apply("Activate PLOA-1 engage")[0])
    s, _ = s.apply("Dash PLOA-1 to 5,12")
    assert where(s) == ("A", "ploy", "moved")
    assert dict(s.stack[-1].info)["x0"] == 5  # type: ignore[attr-defined]
    s, ev = s.apply("Ploy tailwind")
    assert used(ev) == [("A", "Tailwind")]
    s, _ = pass_windows(s)
    assert where(s) == ("A", "action", "")
    s = pos(FACING)
    s, _ = pass_windows(s.apply("Activate PLOA-1 engage")[0])
    s, _ = s.apply("Reposition PLOA-1 to 5,12")
    assert where(s) == ("A", "action", "")


def _pick_up_position() -> GameState:
    """PLOA-1 alone on the LAB objective "obj" (it controls it), objective markers may be
    picked up; A activates it and passes the opening windows."""
    on = {"PLOA-1": {"at": (18.5, 14.5)}, "PLOB-1": {"at": (5, 4), "ready": False}}
    s = pos(on, options=GameOptions(objectives_pickup=True))
    s, _ = pass_windows(s.apply("Activate PLOA-1 engage")[0])
    return s


def test_action_declared_window_a_ploy_there_may_make_the_action_illegal() -> None:
    # PLOA-1 declares Pick Up on "obj" (legal: it controls it). The ``action_declared``
    # window opens before the action begins; B's Snatch Away (trigger "action_declared")
    # forbids A's Pick Up, so the declared action is refused: nothing of it applies (PLOA-1
    # keeps its 2AP and carries nothing), B paid 1CP, and A chooses again.
    s = _pick_up_position()
    assert "Pick up PLOA-1 obj" in texts(s)
    s, _ = s.apply("Pick up PLOA-1 obj")
    assert where(s) == ("B", "ploy", "action_declared")
    s, ev = s.apply("Ploy snatch away")
    assert used(ev) == [("B", "Snatch Away")]
    assert [e["op"] for e in ev if e.kind == "action_refused"] == ["PLOA-1"]
    assert where(s) == ("A", "action", "")
    assert s.operative("PLOA-1").ap == 2 and not s.operative("PLOA-1").carrying
    assert s.players[1].cp == 2 and "Pick up PLOA-1 obj" not in texts(s)


def test_action_declared_window_the_action_goes_on_when_it_stays_legal() -> None:
    # B passes: the Pick Up begins as declared (1AP spent, the marker carried). An action
    # that no ploy there concerns (a Dash: Snatch Away's condition is false) opens no window;
    # an illegal declaration is refused at once, before any window.
    s, _ = _pick_up_position().apply("Pick up PLOA-1 obj")
    s, ev = s.apply("Pass")
    assert any(e.kind == "marker_picked_up" for e in ev) and s.operative("PLOA-1").ap == 1
    s, _ = _pick_up_position().apply("Dash PLOA-1 to 18.5,12")
    assert where(s) != ("B", "ploy", "action_declared")
    far = pos({"PLOA-1": {"at": (5, 14.5)}}, options=GameOptions(objectives_pickup=True))
    far, _ = pass_windows(far.apply("Activate PLOA-1 engage")[0])
    with pytest.raises(IllegalActionError):
        far.apply("Pick up PLOA-1 obj")


def test_1_7_window_starts_with_the_initiative_player() -> None:
    # The player with initiative decides first in a window (1.7), whoever's operative
    # triggered it: B has initiative, A activates, every window forced open. B (Pass only)
    # is asked first, then A.
    s = pos(FACING, initiative="B", turn="A", options=OPEN)
    s, _ = s.apply("Activate PLOA-1 engage")
    assert where(s) == ("B", "ploy", "activation_start")
    assert texts(s) == ["Pass"]
    s, _ = s.apply("Pass")
    assert where(s) == ("A", "ploy", "activation_start")
    assert texts(s) == ["Pass", "Ploy surge"]


def test_1_7_window_alternates_until_both_pass_in_succession() -> None:
    # A window ends only at two passes in succession (1.7): a use resets the count. Two
    # extra test ploys let both players act at activation_start: A uses one, B uses one,
    # A passes, B passes -> closed; four decisions in A, B, A, B order.
    extra = [
        Ploy("Shout", "firefight", triggers=("activation_start",)),
        Ploy("Whistle", "firefight", triggers=("activation_start",)),
    ]
    s = pos(FACING)
    s = add_ploys(s, extra)
    s, _ = s.apply("Activate PLOA-1 engage")
    order = []
    for choice in ("Ploy shout", "Ploy whistle", "Pass", "Pass"):
        order.append(where(s)[0])
        s, _ = s.apply(choice)
    assert order == ["A", "B", "A", "B"]
    assert where(s) == ("A", "action", "")
    assert [p.cp for p in s.players] == [2, 2]


def test_1_4_gambit_step_a_player_who_passed_may_act_again() -> None:
    # Gambit step (1.4): alternate strategic gambits or passes from the initiative player
    # until both pass in succession; a pass does not end a player's turn for good. TP2
    # begins (TP1 had nothing ready), A wins the roll-off 4-3 and takes initiative; A uses
    # Quickstep, B passes, A uses Steady Aim, B passes, A passes: five decisions.
    s, _ = pass_windows(pos(SPENT, cp=(2, 0)))  # TP1's end, TP2's start: A passes
    s, _ = run(s, [], dice=["4,3"])
    assert where(s) == ("A", "initiative", "")
    s, _ = s.apply("Initiative A")
    seen = []
    for choice in ("Ploy quickstep", "Pass", "Ploy steady aim", "Pass", "Pass"):
        seen.append(where(s))
        s, _ = s.apply(choice)
    assert seen == [
        ("A", "gambit", ""),
        ("B", "gambit", ""),
        ("A", "gambit", ""),
        ("B", "gambit", ""),
        ("A", "gambit", ""),
    ]
    assert where(s)[2] != "gambit" and s.phase == "firefight"


class _Mark:
    """A frame that notes its ``step`` name in ``seen`` when it runs, and ends."""

    def __init__(self, step: str, seen: list[str]) -> None:
        self.step = step
        self.seen = seen

    def run(self, w: Any) -> None:
        self.seen.append(self.step)
        w.stack.pop()


def test_1_4_ready_end_steps_run_after_the_ready_step_rules_and_before_the_gambit_steps() -> None:
    # Hooks.ready_end_step: a rule acting "in the Ready step, after all other rules in this
    # step" runs after the frames pushed at the ready_step event (a Ready-step rule) and
    # before every Gambit step's step, whatever the order the rules were added in (the
    # Gambit step's step is added first here).
    s, _ = pass_windows(pos(SPENT, cp=(2, 0)))  # TP1's end, TP2's start: A passes

    seen: list[str] = []

    def add(hooks: Hooks) -> None:
        hooks.gambit_step(lambda w: _Mark("gambit", seen))
        hooks.ready_end_step(lambda w: _Mark("ready end", seen))
        hooks.on("ready_step", lambda w, ev: w.stack.append(_Mark("ready", seen)))

    s = s.with_hooks(add)
    s, _ = run(s, [], dice=["4,3"])
    assert seen == []
    s.apply("Initiative A")
    assert seen == ["ready", "ready end", "gambit"]


def test_1_3_windows_of_a_turning_point_open_in_order() -> None:
    # Every window forced open, everyone passing: TP1's Firefight phase ends (nothing was
    # ready), then the firefight_end and turning_point_end windows; TP2 starts with the
    # turning_point_start window, the Initiative step (A wins 4-3), the Gambit step, then
    # the firefight_start window. Each window asks A (initiative) then B.
    s = pos(SPENT, options=OPEN)
    s, seen = pass_windows(s)
    assert seen == [
        ("A", "ploy", "firefight_end"),
        ("B", "ploy", "firefight_end"),
        ("A", "ploy", "turning_point_end"),
        ("B", "ploy", "turning_point_end"),
        ("A", "ploy", "turning_point_start"),
        ("B", "ploy", "turning_point_start"),
    ]
    assert s.tp == 2
    s, _ = run(s, [], dice=["4,3"])
    s, _ = s.apply("Initiative A")
    s, seen = pass_windows(s)
    assert seen == [
        ("A", "gambit", ""),
        ("B", "gambit", ""),
        ("A", "ploy", "firefight_start"),
        ("B", "ploy", "firefight_start"),
    ]
    assert where(s) == ("A", "activate", "")


def test_7_1_each_trigger_offers_its_ploy() -> None:
    # The ploy of each window between two turning points is offered there (module
    # docstring of tests/ploy_team.py): TP1's end, TP2's start, the Gambit step and the
    # firefight_start window (9CP each, enough for every ploy; the windows inside the
    # Firefight phase have their own tests below).
    s = pos(SPENT, cp=(9, 9))
    offered: dict[str, list[str]] = {}

    def note(s: GameState) -> None:
        _, kind, trig = where(s)
        key = trig or kind
        offered.setdefault(key, [t for t in texts(s) if t.startswith("Ploy")])

    while isinstance(s.node, Decision) and s.node.kind == "ploy":
        note(s)
        s, _ = s.apply("Pass")
    s, _ = run(s, [], dice=["4,3"])
    s, _ = s.apply("Initiative A")
    while where(s)[1] in ("ploy", "gambit"):
        note(s)
        s, _ = s.apply("Pass")
    assert offered == {
        "firefight_end": ["Ploy dig in on PLOA-1"],
        "turning_point_end": ["Ploy regroup"],
        "turning_point_start": ["Ploy early start"],
        "gambit": ["Ploy quickstep", "Ploy steady aim"],
        "firefight_start": ["Ploy opening move on PLOA-1"],
    }


def test_7_1_shoot_windows_target_selected_attack_and_defence_dice() -> None:
    # A Shoot: the target_selected window asks B, the target's player (Brace on PLOB-1;
    # A's Brace needs a friendly target, so A passes unasked); the attack dice 6,5,1,1 give
    # A the dice window (Focus: a die shows 1; Command Re-roll); the defence dice 1,2,3 the
    # defender's (Hunker, Command Re-roll).
    s = pos(FACING, cp=(1, 2))
    s, _ = run(s, ["Activate PLOA-1 engage", "Pass", "Shoot PLOA-1 gun at PLOB-1"])
    assert where(s) == ("B", "ploy", "target_selected")
    assert texts(s) == ["Pass", "Ploy brace on PLOB-1"]
    s, _ = run(s, ["Pass"], dice=["6,5,1,1"])
    assert where(s) == ("A", "dice_ploy", "")
    assert "Ploy focus" in texts(s) and "Command re-roll 1" in texts(s)
    s, _ = run(s, ["Decline"], dice=["3,2,1"])
    assert where(s) == ("B", "dice_ploy", "")
    assert "Ploy hunker" in texts(s)


def test_7_1_fight_resolve_start_window_after_the_dice_windows() -> None:
    # A Fight: after both sides' dice windows (Focus, Command Re-roll), the resolve_start
    # window opens at the start of the Resolve Attack Dice step, the initiative player (A)
    # first; Steel Nerves is offered to both; then the strikes.
    close = {"PLOA-1": {"at": (5, 14.5)}, "PLOB-1": {"at": (6.3, 14.5)}}
    s = pos(close, cp=(2, 2))
    s, _ = run(s, ["Activate PLOA-1 engage", "Pass", "Fight PLOA-1 knife at PLOB-1"])
    while not isinstance(s.node, Decision) or where(s)[2] != "resolve_start":
        node = s.node
        if isinstance(node, Decision):
            s, _ = s.apply("Pass" if node.kind == "ploy" else "Decline")
        else:
            s, _ = run(s, [], dice=[",".join(["5"] * node.request.dice)])  # type: ignore[union-attr]
    assert where(s) == ("A", "ploy", "resolve_start")
    assert texts(s) == ["Pass", "Ploy steel nerves"]
    s, ev = s.apply("Ploy steel nerves")
    assert [e["trigger"] for e in ev if e.kind == "ploy_used"] == ["resolve_start"]
    assert where(s) == ("B", "ploy", "resolve_start")
    s, _ = s.apply("Pass")  # B; A has nothing left to use: the window closes
    assert where(s)[1] == "resolve"


def test_7_1_stat_changed_window_opens_as_the_action_that_changed_a_stat_ends() -> None:
    # B braces PLOB-1 (Save improved, begun during the Shoot: it applies as that action
    # ends, 2.1); then the stat_changed window for PLOB-1 (stat "save") offers B Iron
    # Will, before A's activation goes on. No window when no stat changed.
    s = pos(FACING, cp=(0, 2))
    s, _ = run(s, ["Activate PLOA-1 engage", "Shoot PLOA-1 gun at PLOB-1"])
    s, _ = run(s, ["Ploy brace on PLOB-1"], dice=["1,1,1,1", "6,6,6"])
    s, _ = s.apply("Decline")  # B's Command Re-roll of its defence dice
    assert where(s) == ("B", "ploy", "stat_changed")
    assert dict(s.stack[-1].info) == {"op": "PLOB-1", "stat": "save"}
    assert texts(s) == ["Pass", "Ploy iron will"]
    s, _ = s.apply("Ploy iron will")
    assert where(s) == ("A", "action", "")
    s = pos(FACING, cp=(0, 2))
    script = ["Activate PLOA-1 engage", "Shoot PLOA-1 gun at PLOB-1", "Pass"]
    s, _ = run(s, script, ["1,1,1,1", "6,6,6"])
    s, _ = s.apply("Decline")
    assert where(s) == ("A", "action", "")


def test_7_1_activation_end_and_counteract_windows() -> None:
    # activation_end: after End activation, before the operative is expended (Stay Sharp on
    # it). counteract_start: A's only operative is expended with an Engage order while B has
    # one ready, so A may counteract (1.6), and the window offers Quick Feet.
    s = pos(FACING)
    s, _ = run(s, ["Activate PLOA-1 engage", "Pass", "End activation"])
    assert where(s) == ("A", "ploy", "activation_end")
    assert texts(s) == ["Pass", "Ploy stay sharp"]
    assert s.operative("PLOA-1").ready  # not yet expended
    s, _ = s.apply("Pass")
    assert not s.operative("PLOA-1").ready
    c = pos(
        {
            "PLOA-1": {"at": (5, 14.5), "ready": False},
            "PLOB-1": {"at": (16, 14.5)},
            "PLOB-2": {"at": (16, 10)},
        },
        turn="B",
    )
    c, _ = run(c, ["Activate PLOB-2 conceal", "Pass", "End activation", "Pass"])
    assert where(c) == ("A", "counteract", "")
    c, _ = c.apply("Counteract PLOA-1")
    assert where(c) == ("A", "ploy", "counteract_start")
    assert texts(c) == ["Pass", "Ploy quick feet"]


def test_7_1_incapacitated_window_opens_after_the_operative_is_incapacitated() -> None:
    # PLOB-6 (Weakling, 2 wounds) is shot: two normal hits of 3 damage incapacitate it
    # (2.3); B then has the incapacitated window with Vengeance (its operative fell).
    s = pos({"PLOA-1": {"at": (5, 14.5)}, "PLOB-6": {"at": (16, 14.5)}}, cp=(0, 1))
    s, _ = run(s, ["Activate PLOA-1 engage", "Shoot PLOA-1 gun at PLOB-6"])
    # B's 1CP: Brace at target_selected first, then Command Re-roll after its defence dice.
    assert where(s) == ("B", "ploy", "target_selected")
    s, _ = run(s, ["Pass"], dice=["5,4,2,2", "3,2,2"])
    assert where(s) == ("B", "dice_ploy", "")
    s, _ = s.apply("Decline")
    assert s.operative("PLOB-6").incapacitated
    assert where(s) == ("B", "ploy", "incapacitated")
    assert texts(s) == ["Pass", "Ploy vengeance"]


# -- a window does not open when nobody can use a ploy -----------------------------------


def test_7_1_no_window_without_cp() -> None:
    # Every test ploy costs 1CP: with 0CP nobody can use one, so no window opens (issue 14:
    # windows only for a player with an affordable ploy).
    s = pos(FACING, cp=(0, 0))
    s, _ = s.apply("Activate PLOA-1 engage")
    assert where(s) == ("A", "action", "")


def test_7_1_no_window_for_a_ploy_used_this_turning_point() -> None:
    # Surge used on PLOA-1's activation; PLOA-2's activation later in the same turning point
    # opens no window (A has 2CP left, but Surge is once per TP, 7.1).
    s = pos({**FACING, "PLOA-2": {"at": (5, 10)}})
    s, _ = run(s, ["Activate PLOA-1 engage", "Ploy surge", "End activation", "Pass"])
    assert s.players[0].ploys_used == ("Surge",)
    s, _ = run(s, ["Activate PLOB-1 engage", "Pass", "End activation", "Pass"])
    s, _ = s.apply("Activate PLOA-2 engage")
    assert where(s) == ("A", "action", "")


def test_7_1_no_window_when_the_condition_is_false() -> None:
    # Focus needs an attack die showing 1: dice 6,5,4,3 show none, and with 0CP there is no
    # Command Re-roll either, so no dice window: the defence roll follows at once.
    s = pos(FACING, cp=(0, 0))
    s, _ = run(s, ["Activate PLOA-1 engage", "Shoot PLOA-1 gun at PLOB-1"], dice=["6,5,4,3"])
    assert s.node.request.kind == "defence"  # type: ignore[union-attr]


def test_7_1_open_windows_opens_every_window_with_pass() -> None:
    # With the option open_windows every window is a decision, offering Pass alone when
    # nothing is usable (0CP here), for both players in turn.
    s = pos(FACING, cp=(0, 0), options=OPEN)
    s, _ = s.apply("Activate PLOA-1 engage")
    assert where(s) == ("A", "ploy", "activation_start") and texts(s) == ["Pass"]
    s, _ = s.apply("Pass")
    assert where(s) == ("B", "ploy", "activation_start") and texts(s) == ["Pass"]


# -- CP and once per turning point -------------------------------------------------------


def test_7_1_ploy_cost_is_paid_in_cp() -> None:
    # Surge costs 1CP: 3CP -> 2CP, and the events say who paid what for which ploy.
    s = pos(FACING)
    s, _ = s.apply("Activate PLOA-1 engage")
    s, ev = s.apply("Ploy surge")
    assert s.players[0].cp == 2 and s.players[0].cp_spent == 1
    assert used(ev) == [("A", "Surge")]
    spent = [e for e in ev if e.kind == "cp_spent"]
    assert [(e["player"], e["cp"], e["ploy"]) for e in spent] == [("A", 1, "Surge")]


def test_7_1_ploy_costs_option_overrides_the_printed_cost() -> None:
    # ploy_costs overrides the printed cost: Surge at 3CP leaves 0 of 3; at 0CP it is free
    # (no CP spent) but still once per turning point.
    s = pos(FACING, options=GameOptions(ploy_costs={"Surge": 3}))
    s, _ = run(s, ["Activate PLOA-1 engage", "Ploy surge"])
    assert s.players[0].cp == 0
    free = pos({**FACING, "PLOA-2": {"at": (5, 10)}}, options=GameOptions(ploy_costs={"Surge": 0}))
    free, ev = run(free, ["Activate PLOA-1 engage", "Ploy surge"])
    assert free.players[0].cp == 3 and not [e for e in ev if e.kind == "cp_spent"]
    assert free.players[0].ploys_used == ("Surge",)


def test_7_1_ploy_costing_more_than_the_cp_is_not_offered() -> None:
    # Surge raised to 4CP with A at 3CP: not affordable, so no window (nothing else usable).
    s = pos(FACING, options=GameOptions(ploy_costs={"Surge": 4}))
    s, _ = s.apply("Activate PLOA-1 engage")
    assert where(s) == ("A", "action", "")


def test_7_1_once_per_turning_point_per_player_resets_next_turning_point() -> None:
    # A uses Dig In at the end of TP1's Firefight phase; B may still use its own (once per
    # TP *per player*). ploys_used is cleared when TP2 starts, and Dig In is offered again
    # at TP2's firefight_end.
    s = pos(SPENT)
    s, ev = run(s, ["Ploy dig in on PLOA-1", "Ploy dig in on PLOB-1"])
    assert used(ev) == [("A", "Dig In"), ("B", "Dig In")]
    assert s.players[0].ploys_used == ("Dig In",) and s.players[1].ploys_used == ("Dig In",)
    # turning_point_end (Regroup): both pass; TP2 starts (Early Start): both pass.
    s, _ = run(s, ["Pass", "Pass", "Pass", "Pass"], dice=["4,3"])
    assert s.tp == 2 and s.players[0].ploys_used == () and s.players[1].ploys_used == ()


def test_7_1_command_reroll_may_be_used_more_than_once_per_turning_point() -> None:
    # Command Re-roll is the exception to once per TP (7.1, decision 9): A re-rolls a 1,
    # then (still in the same window) the other 1, paying 1CP each: 3CP -> 1CP.
    s = pos(FACING, cp=(3, 0))
    s, _ = run(
        s,
        ["Activate PLOA-1 engage", "Pass", "Shoot PLOA-1 gun at PLOB-1", "Command re-roll 1"],
        dice=["6,5,1,1", "2"],
    )
    assert where(s) == ("A", "dice_ploy", "")
    assert "Command re-roll 1" in texts(s)
    s, _ = run(s, ["Command re-roll 1"], dice=["3"])
    assert s.players[0].cp == 1 and s.players[0].cp_spent == 2
    assert s.players[0].ploys_used.count("Command Re-roll") == 1


def test_would_refuse_reroll_hook_refuses_rerolling_ploys_naming_the_rule() -> None:
    # A generic rule forbidding A's attack re-rolls (the core's would_refuse_reroll hook):
    # Command Re-roll (rerolls=True) is not offered and using it raises the rule's reason;
    # B's defence re-rolls are not touched.
    s = pos(FACING, cp=(3, 3), options=OPEN)

    def no_rerolls(w, why, **info):  # type: ignore[no-untyped-def]
        if why is None and info["player"] == "A" and info["trigger"] == "attack_dice":
            return f"Test rule: no re-roll ({info['source']})"
        return why

    s = s.with_hooks(lambda h: h.transform("would_refuse_reroll", no_rerolls))
    s, _ = run(s, ["Activate PLOA-1 engage"])
    while isinstance(s.node, Decision) and s.node.kind == "ploy":
        s, _ = s.apply("Pass")
    s, _ = run(s, ["Shoot PLOA-1 gun at PLOB-1"])
    while isinstance(s.node, Decision) and s.node.kind == "ploy":
        s, _ = s.apply("Pass")
    s, _ = run(s, [], dice=["6,5,1,1"])
    assert where(s) == ("A", "dice_ploy", "")
    assert not [t for t in texts(s) if t.startswith("Command re-roll")]
    with pytest.raises(IllegalActionError, match=r"Test rule: no re-roll \(Command Re-roll\)"):
        s.apply("Command re-roll 1")
    s, _ = s.apply("Decline")
    while isinstance(s.node, Decision) and s.node.kind != "dice_ploy":
        s, _ = s.apply(texts(s)[0])
    s, _ = run(s, [], dice=["1,1,1"])
    assert where(s)[:2] == ("B", "dice_ploy")
    assert "Command re-roll 1" in texts(s)


# -- illegal uses raise, naming the rule, and change nothing -----------------------------


def _refused(s: GameState, action: str, *words: str) -> None:
    before = s.hash()
    with pytest.raises(IllegalActionError) as exc:
        s.apply(action)
    for word in words:
        assert word in str(exc.value), str(exc.value)
    assert s.hash() == before


def test_7_1_a_ploy_already_used_this_turning_point_is_refused() -> None:
    # Every window forced open: PLOA-2's activation_start window offers Pass only, and
    # Surge, already used this TP, is refused naming the once-per-TP rule (7.1).
    s = pos({**FACING, "PLOA-2": {"at": (5, 10)}}, options=OPEN)
    s, _ = run(
        s,
        [
            "Activate PLOA-1 engage",
            "Ploy surge",
            "Pass",
            "Pass",
            "End activation",
            "Pass",
            "Pass",
            "Activate PLOB-1 engage",
            "Pass",
            "Pass",
            "End activation",
            "Pass",
            "Pass",
            "Activate PLOA-2 engage",
        ],
    )
    assert where(s) == ("A", "ploy", "activation_start") and texts(s) == ["Pass"]
    _refused(s, "Ploy surge", "once per turning point", "7.1")


def test_7_1_a_ploy_without_enough_cp_is_refused() -> None:
    s = pos(FACING, cp=(0, 0), options=OPEN)
    s, _ = s.apply("Activate PLOA-1 engage")
    _refused(s, "Ploy surge", "costs 1CP", "7.1")


def test_7_1_a_ploy_whose_condition_is_false_is_refused() -> None:
    # Focus at attack dice 6,5,4,3 (no 1 to re-roll): its condition does not hold.
    s = pos(FACING, cp=(3, 0))
    s, _ = run(
        s, ["Activate PLOA-1 engage", "Pass", "Shoot PLOA-1 gun at PLOB-1"], dice=["6,5,4,3"]
    )
    assert where(s) == ("A", "dice_ploy", "")
    _refused(s, "Ploy focus", "condition", "7.1")


def test_7_1_a_ploy_of_another_trigger_is_refused() -> None:
    # Quickstep is a strategy ploy (Gambit step only): in the activation_start window no
    # ploy of that name can be used (the error names the trigger and 7.1).
    s = pos(FACING, options=OPEN)
    s, _ = s.apply("Activate PLOA-1 engage")
    _refused(s, "Ploy quickstep", "activation_start", "7.1")


def test_7_1_command_reroll_of_a_die_already_rerolled_is_refused() -> None:
    # The 1 re-rolled into a 2; a second Command Re-roll of "2" would re-roll that die
    # again: no die is re-rolled twice (2.4).
    s = pos(FACING, cp=(3, 0))
    s, _ = run(
        s,
        ["Activate PLOA-1 engage", "Pass", "Shoot PLOA-1 gun at PLOB-1", "Command re-roll 1"],
        dice=["6,5,4,1", "2"],
    )
    _refused(s, "Command re-roll 2", "2.4")


def test_would_cost_ploy_is_told_the_action_text() -> None:
    # The would_cost_ploy hooks get the action's text (the option a ploy selects), so a rule
    # may make one option of a ploy cheaper; without an action the text is "".
    from engine.game.actions import Action as _Action
    from engine.game.ploys import ploy_cost
    from engine.game.work import Work
    from engine.rules.command_reroll import COMMAND_REROLL
    from engine.rulesets import position as _position
    from tests.test_game_rules_common import BLU, LAB, RED, roster

    s = _position(LAB, roster(RED), roster(BLU), operatives={"RED-1": {"at": (5, 5)}})
    seen: list[str] = []

    def cheaper(w: Work, cost: int, **info: object) -> int:
        seen.append(str(info["text"]))
        return 0 if info["text"] == "cheap" else cost

    s = s.with_hooks(lambda h: h.transform("would_cost_ploy", cheaper))
    w = Work(s)
    assert ploy_cost(w, "A", COMMAND_REROLL, _Action("Ploy", text="cheap")) == 0
    assert ploy_cost(w, "A", COMMAND_REROLL, _Action("Ploy", text="dear")) == 1
    assert ploy_cost(w, "A", COMMAND_REROLL) == 1
    assert seen == ["cheap", "dear", ""]
