"""The heuristic agent's ploy decisions (:mod:`engine.agents.ploy_choices`; ``rules/KT24.md``
1.4, 7.1), with the test team of ``tests/ploy_team.py``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.agents import HeuristicAgent
from engine.agents.advice import PLOY_THRESHOLD
from engine.agents.ploy_choices import KEEP_CP
from engine.game import GameOptions, GameState
from engine.game.actions import Action
from engine.game.drivers import SeededDice
from engine.game.scenario import run
from engine.game.state import Chance, OperativeState
from engine.game.work import Work
from engine.geometry import load_killzone
from engine.rules.ploys import Ploy, StatChange
from engine.rulesets import new_game
from tests.ploy_team import TEAM, add_ploys, pos
from tests.test_ploys import FACING, SPENT, pass_windows, texts, where

H = HeuristicAgent()


def _gambit(cp: int) -> GameState:
    """TP2's Gambit step, A to decide with ``cp`` command points (A wins the roll-off 4-3
    and takes initiative; the Ready step gives it 1CP, 1.4)."""
    s, _ = pass_windows(pos(SPENT, cp=(cp - 1, 0)))
    s, _ = run(s, [], dice=["4,3"])
    s, _ = s.apply("Initiative A")
    assert where(s) == ("A", "gambit", "") and s.players[0].cp == cp
    return s


def test_1_4_heuristic_uses_a_strategy_ploy_when_it_can_keep_one_cp() -> None:
    # 3CP: Quickstep (1CP) leaves 2 >= KEEP_CP (1): used (the first listed of the two
    # strategy ploys, both used on no operative).
    assert KEEP_CP == 1
    s = _gambit(3)
    assert texts(s) == ["Pass", "Ploy quickstep", "Ploy steady aim"]
    assert H.act(s) == Action("Ploy", text="quickstep")


def test_1_4_heuristic_keeps_one_cp_for_command_reroll() -> None:
    # 1CP: any ploy would leave 0CP, less than the 1CP kept for Command Re-roll: it passes.
    s = _gambit(1)
    assert H.act(s) == Action("Pass")


def test_7_1_heuristic_prefers_the_operative_the_trigger_names() -> None:
    # Cheer (1CP) may be used on any friendly operative when one is activated; PLOA-2 is
    # activated, so the agent uses it on PLOA-2, although PLOA-1 is listed first.
    cheer = Ploy(
        "Cheer",
        "firefight",
        triggers=("activation_start",),
        target="friendly",
        effects=(StatChange("move", 1),),
    )
    s = pos(
        {**FACING, "PLOA-2": {"at": (5, 10)}},
        cp=(2, 0),
        options=GameOptions(ploy_costs={"Surge": 9}),
    )
    s = add_ploys(s, [cheer], ("A",))
    s, _ = s.apply("Activate PLOA-2 engage")
    assert texts(s) == ["Pass", "Ploy cheer on PLOA-1", "Ploy cheer on PLOA-2"]
    assert H.act(s) == Action("Ploy", text="cheer", target="PLOA-2")


def test_7_1_heuristic_passes_on_a_ploy_it_cannot_price() -> None:
    # A ploy object the agent cannot question (its owns() fails) is never used and never
    # makes the agent fail: it passes.
    class Strange:
        name = "Strange"
        kind = "firefight"
        cp = 1
        triggers = ("activation_start",)
        repeatable = False

        def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
            return [Action("Ploy", text="strange")]

        def owns(self, action: Action) -> bool:
            raise RuntimeError("not for agents")

        def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
            return None

    s = pos(FACING, options=GameOptions(ploy_costs={"Surge": 9}))
    s = add_ploys(s, [Strange()], ("A",))
    s, _ = s.apply("Activate PLOA-1 engage")
    assert texts(s) == ["Pass", "Ploy strange"]
    assert H.act(s) == Action("Pass")


def test_7_1_heuristic_uses_a_dice_ploy_when_command_reroll_is_not_taken() -> None:
    # Command Re-roll priced out (9CP): in the attack dice window after 6,5,1,1 the re-roll
    # rule keeps the dice, and Focus (re-roll every 1; 1CP of A's 2, keeping 1) is used.
    s = pos(FACING, cp=(2, 0), options=GameOptions(ploy_costs={"Command Re-roll": 9}))
    s, _ = run(
        s, ["Activate PLOA-1 engage", "Pass", "Shoot PLOA-1 gun at PLOB-1"], dice=["6,5,1,1"]
    )
    assert where(s) == ("A", "dice_ploy", "") and texts(s) == ["Decline", "Ploy focus"]
    assert H.act(s) == Action("Ploy", text="focus")


def test_heuristic_plays_a_whole_battle_with_every_window_open() -> None:
    # The heuristic agent answers every window of a battle between two test teams with
    # every window forced open, and uses ploys along the way; it never spends its last CP
    # on a ploy other than Command Re-roll.
    team = TEAM.default()
    s = new_game(load_killzone("open_ruins"), team, team, GameOptions(open_windows=True))
    dice = SeededDice(3)
    used: Counter[str] = Counter()
    while not s.is_terminal:
        if isinstance(s.node, Chance):
            s, _ = s.apply(dice.roll(s))
            continue
        before = [p.cp for p in s.players]
        s, ev = s.apply(H.act(s))
        for e in ev:
            if e.kind == "ploy_used" and e["ploy"] != "Command Re-roll":
                used[e["ploy"]] += 1
                assert before["AB".index(e["player"])] - e["cp"] >= KEEP_CP
    assert s.tp == 5 and sum(used.values()) > 0


# -- advice (engine.agents.advice) ---------------------------------------------------------------


def _advised(value: float) -> Ploy:
    """A 1CP strategy ploy whose advice says it is worth ``value`` operatives."""

    def advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        return value

    return Ploy("Advised", "strategy", effects=(StatChange("move", 1, "end_tp"),), advice=advice)


def test_advice_heuristic_prefers_the_advised_ploy_of_greatest_value() -> None:
    # Without advice the agent takes the first listed ploy (Quickstep); an advised ploy
    # worth 0.5 operatives, above PLOY_THRESHOLD (0.1) for its 1CP, is preferred to it.
    assert PLOY_THRESHOLD * 1 < 0.5
    s = _gambit(3)
    s = add_ploys(s, [_advised(0.5)], ("A",))
    assert "Ploy advised" in texts(s)
    assert H.act(s) == Action("Ploy", text="advised")


def test_advice_heuristic_ignores_an_advised_ploy_worth_too_little() -> None:
    # Worth 0.05 operatives, below PLOY_THRESHOLD x 1CP: never used; the older rule of thumb
    # then picks among the ploys without advice (Quickstep, the first listed).
    assert PLOY_THRESHOLD > 0.05
    s = _gambit(3)
    s = add_ploys(s, [_advised(0.05)], ("A",))
    assert H.act(s) == Action("Ploy", text="quickstep")


def test_advice_heuristic_still_keeps_one_cp_for_an_advised_ploy() -> None:
    # 1CP: the advised ploy is worth a lot, but using it would leave less than KEEP_CP.
    s = _gambit(1)
    s = add_ploys(s, [_advised(5.0)], ("A",))
    assert H.act(s) == Action("Pass")


class _Shout:
    """A 1AP test rule action whose advice is ``value`` (``None``: no advice)."""

    name = "Shout"
    text = "shout"
    ap = 1
    family = ""

    def __init__(self, value: float | None) -> None:
        if value is not None:
            self.advice = lambda w, o, a, mode: value

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        return [Action("Act", op=o.id, text=self.text)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        return None

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        return None  # (a rule action that changes nothing)


def _activated(shout: _Shout) -> GameState:
    s = pos(FACING)
    s = s.with_hooks(lambda h: h.action(shout, ("A",)))
    s, _ = s.apply("Activate PLOA-1 engage")
    s, _ = pass_windows(s)
    return s


def test_advice_heuristic_performs_a_rule_action_its_advice_values_highly() -> None:
    # Worth 5 operatives by its advice: more than any shot or move can score here.
    s = _activated(_Shout(5.0))
    assert Action("Act", op="PLOA-1", text="shout") in s.legal_actions()
    assert H.act(s) == Action("Act", op="PLOA-1", text="shout")


def test_advice_heuristic_leaves_a_rule_action_without_advice() -> None:
    # No advice: scored just below standing still, so never preferred to ending the
    # activation where it is (module docstring of engine.agents.heuristic).
    s = _activated(_Shout(None))
    assert Action("Act", op="PLOA-1", text="shout") in s.legal_actions()
    assert H.act(s) != Action("Act", op="PLOA-1", text="shout")
