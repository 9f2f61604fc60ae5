"""The invariants of the random-playout conformance tests, one helper for every ruleset
(``tests/test_game_conformance.py`` for KT24, ``tests/test_kt21_conformance.py`` for KT21;
DESIGN.md "Testing and measuring"): the engine's invariants hold whatever the ruleset.

:func:`play_conforming` plays a battle to its end, checking at every node:

- no operative's wounds or action points and no player's command or victory points are ever
  negative, and wounds never exceed the datacard's (the rules only ever lose what is there);
- the battle is within its step limit;
- an input that is never legal raises :class:`IllegalActionError` and leaves the state
  unchanged;
- a chance node's outcome weights sum to 6^dice;
- a decision lists at least one legal action, in canonical order with no duplicates, and
  every listed action's notation parses back to the same action (once per action: the
  notation is a pure function of the action);
- the chosen action is found legal by membership (``action in state.legal_actions()``);
- applying the chosen input twice gives the same state (hash) and events, and leaves the
  state it was applied to unchanged;

and, per battle, :func:`check_result` (a terminal node whose winner agrees with its VP) and
:func:`check_replay` (the record names the ruleset and replays to the same final hash).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from engine.agents import RandomAgent
from engine.game import IllegalActionError, parse_action
from engine.game.actions import Action, format_action
from engine.game.drivers import Agent, SeededDice
from engine.game.events import Event
from engine.game.flow import _sort_key
from engine.game.record import GameRecorder, make_header, read_record, replay
from engine.game.state import Chance, Decision, GameState, Result, Terminal
from engine.narration import Narrator
from engine.rulesets import Ruleset
from engine.rulesets.sources import record_ruleset

__all__ = [
    "ROUND_TRIPPED",
    "Observer",
    "bogus",
    "check_replay",
    "check_resources",
    "check_result",
    "play_conforming",
]

ROUND_TRIPPED: set[Action] = set()
"""The listed actions whose notation round trip was checked in this process: the notation is
a pure function of the action, so each is checked once, over all the battles played here."""

Observer = Callable[[GameState, Action, str, GameState, list[Event]], None]
"""Called after each checked step: ``(state, action, actor, after, events)``, the actor
``"A"``, ``"B"`` or ``"chance"`` (the signature of ``GameRecorder.on_step``)."""


def bogus(state: GameState) -> Action:
    """An input that is never legal at this node: a decision at a chance node, a roll at a
    decision."""
    if isinstance(state.node, Chance):
        return parse_action("Pass")
    return parse_action("roll 6")


def check_resources(state: GameState) -> None:
    """Wounds within 0 and the datacard's, action points, CP and VP never negative."""
    for o in state.operatives:
        assert 0 <= o.wounds <= state.ctx.datacards[o.id].wounds, (o.id, o.wounds)
        assert o.ap >= 0, (o.id, o.ap)
    for p in state.players:
        assert p.cp >= 0 and p.vp >= 0, p


def play_conforming(
    state: GameState,
    agents: Mapping[str, Agent],
    dice: SeededDice,
    *,
    seed: int,
    observe: Observer | None = None,
) -> GameState:
    """Play from ``state`` to the end of the battle with ``agents`` (by player) and ``dice``,
    checking every node invariant of the module docstring; ``observe`` sees each step.
    Returns the final state (terminal; its resources checked). ``seed`` names the battle in
    messages."""
    while not state.is_terminal:
        assert state.step < state.ctx.options.max_steps
        check_resources(state)
        node = state.node
        before = state.hash()
        with pytest.raises(IllegalActionError):
            state.apply(bogus(state))
        assert state.hash() == before
        if isinstance(node, Chance):
            outcomes = state.chance_outcomes()
            assert sum(w for _, w in outcomes) == 6**node.request.dice
            action, actor = dice.roll(state), "chance"
        else:
            assert isinstance(node, Decision)
            legal = list(state.legal_actions())
            assert legal, f"no legal action at {node} (seed {seed}, step {state.step})"
            assert legal == sorted(set(legal), key=_sort_key), f"not canonical at {node}"
            for act in legal:
                if act not in ROUND_TRIPPED:  # notation is a pure function: once per action
                    assert parse_action(format_action(act)) == act, format_action(act)
                    ROUND_TRIPPED.add(act)
            action, actor = agents[node.player].act(state), node.player
            assert action in state.legal_actions()
        after, events = state.apply(action)
        again, events2 = state.apply(action)
        assert again.hash() == after.hash() and events2 == events
        assert state.hash() == before
        if observe is not None:
            observe(state, action, actor, after, events)
        state = after
    check_resources(state)
    return state


def check_result(state: GameState) -> Result:
    """The battle is over with a result whose winner agrees with its VP (most VP wins, equal
    VP is a draw: ``rules/KT24.md`` 1.8, ``rules/KT21.md`` 1.1); returns the result."""
    node = state.node
    assert isinstance(node, Terminal), node
    result = node.result
    vp = result.vp
    assert result.winner == ("" if vp[0] == vp[1] else ("A" if vp[0] > vp[1] else "B"))
    return result


def check_replay(rec: GameRecorder, final: GameState, ruleset: Ruleset) -> None:
    """The record's header names ``ruleset`` and the record replays under it to ``final``'s
    hash."""
    assert record_ruleset(read_record(rec.lines)) is ruleset
    assert replay(rec.lines, ruleset=ruleset).hash() == final.hash()


def recorded_random_playout(
    state: GameState, seed: int
) -> tuple[GameState, GameRecorder, list[str]]:
    """One battle from ``state`` between two seeded random agents (``2 * seed + 1`` for A,
    ``2 * seed + 2`` for B) and seeded dice, with every invariant of :func:`play_conforming`
    checked at every node, recorded (the header naming the battle's ruleset) and narrated.

    Returns:
        ``(final state, the finished record, the narrated lines)``.
    """
    header = make_header(state, seed=seed, agents={"A": "random", "B": "random"})
    assert header["ruleset"] == state.ctx.options.ruleset
    rec = GameRecorder(header)
    narrated: list[str] = []
    narrator = Narrator(narrated.append)

    def observe(
        before: GameState, action: Action, actor: str, after: GameState, events: list[Event]
    ) -> None:
        rec.on_step(before, action, actor, after, events)
        narrator.on_step(before, action, actor, after, events)

    agents = {"A": RandomAgent(2 * seed + 1), "B": RandomAgent(2 * seed + 2)}
    final = play_conforming(state, agents, SeededDice(seed), seed=seed, observe=observe)
    rec.finish(final)
    narrator.close()
    return final, rec, narrated
