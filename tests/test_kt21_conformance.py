"""Random-playout conformance under the KT21 ruleset (issue 32 item 6; DESIGN.md "Testing and
measuring"): the invariants the KT24 conformance tests check (``tests/test_game_conformance.py``)
that hold for any ruleset, on a few seeded KT21 battles (CI time is tight).

At every node of each battle:

- a decision lists at least one legal action, in canonical order with no duplicates, and
  every listed action's notation parses back to the same action;
- a chance node's outcome weights sum to 6^dice;
- applying the chosen input twice gives the same state (hash) and events, and leaves the
  state it was applied to unchanged;
- an input that is never legal raises :class:`IllegalActionError` and leaves the state
  unchanged;
- no operative's wounds or action points and no player's command or victory points are ever
  negative, and wounds never exceed the datacard's;

and per battle: it ends (a terminal node) within its step limit with a result whose winner
agrees with its VP, its record's header names the ruleset ``kt21``, the record replays to
the same final hash under the ruleset the header names, and the narration reads every
event without failing.

The teams are the built-in KT21 teams (``kt21_kasrkin``, ``kt21_legionaries``). KT21's VP
caps are the matched-play part's (``rules/KT21.md`` 15) and are not checked here.
"""

from __future__ import annotations

import pytest

from engine.agents import RandomAgent, make_agent
from engine.game import GameOptions, IllegalActionError, parse_action
from engine.game.actions import Action, format_action
from engine.game.drivers import SeededDice, play
from engine.game.flow import _sort_key
from engine.game.record import GameRecorder, make_header, read_record, replay
from engine.game.state import Chance, Decision, GameState
from engine.geometry import load_killzone
from engine.narration import Narrator
from engine.play import RULESET_TEAMS
from engine.rulesets import KT21, new_game
from engine.rulesets.sources import record_ruleset
from engine.teams import Roster, load_builtin_team

LAYOUTS = ("open_ruins", "close_quarters")
SEEDS = (0, 1, 2)
OPTIONS = GameOptions(ruleset="kt21")


def _teams() -> tuple[Roster, Roster]:
    """The rosters of players A and B (module docstring: the KT21 teams when built in)."""
    kt21 = RULESET_TEAMS["kt21"]
    ids = kt21
    return load_builtin_team(ids[0]).default(), load_builtin_team(ids[1]).default()


def _start(seed: int) -> GameState:
    a, b = _teams()
    return new_game(load_killzone(LAYOUTS[seed % 2]), a, b, OPTIONS)


def _bogus(state: GameState) -> Action:
    """An input that is never legal at this node."""
    if isinstance(state.node, Chance):
        return parse_action("Pass")
    return parse_action("roll 6")


def _check_resources(state: GameState) -> None:
    for o in state.operatives:
        assert 0 <= o.wounds <= state.ctx.datacards[o.id].wounds, (o.id, o.wounds)
        assert o.ap >= 0, (o.id, o.ap)
    for p in state.players:
        assert p.cp >= 0 and p.vp >= 0, p


@pytest.mark.parametrize("seed", SEEDS)
def test_kt21_random_playouts_conform(seed: int) -> None:
    """Every check of the module docstring over one seeded battle of random agents under
    KT21: the invariants are the engine's (states are values, inputs are notation, a
    rejected input changes nothing), whatever the ruleset."""
    state = _start(seed)
    assert state.ctx.options.ruleset == "kt21" and state.ctx.rules.ruleset is KT21
    header = make_header(state, seed=seed, agents={"A": "random", "B": "random"})
    assert header["ruleset"] == "kt21"
    rec = GameRecorder(header)
    narrated: list[str] = []
    narrator = Narrator(narrated.append)
    agents = {"A": RandomAgent(2 * seed + 1), "B": RandomAgent(2 * seed + 2)}
    dice = SeededDice(seed)
    seen: set[Action] = set()
    while not state.is_terminal:
        assert state.step < state.ctx.options.max_steps
        _check_resources(state)
        node = state.node
        before = state.hash()
        with pytest.raises(IllegalActionError):
            state.apply(_bogus(state))
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
                if act not in seen:  # notation is a pure function: once per action
                    assert parse_action(format_action(act)) == act, format_action(act)
                    seen.add(act)
            action, actor = agents[node.player].act(state), node.player
            assert action in state.legal_actions()
        after, events = state.apply(action)
        again, events2 = state.apply(action)
        assert again.hash() == after.hash() and events2 == events
        assert state.hash() == before
        rec.on_step(state, action, actor, after, events)
        narrator.on_step(state, action, actor, after, events)
        state = after
    rec.finish(state)
    narrator.close()
    _check_resources(state)
    result = state.node.result  # type: ignore[union-attr]
    vp = result.vp
    assert result.winner == ("" if vp[0] == vp[1] else ("A" if vp[0] > vp[1] else "B"))
    lines = read_record(rec.lines)
    assert record_ruleset(lines) is KT21
    assert replay(rec.lines, ruleset=record_ruleset(lines)).hash() == state.hash()
    assert narrated  # the battle was told


def test_kt21_heuristic_battle_plays_to_its_end() -> None:
    """The heuristic agent plays KT21 (issue 32 item 6): a whole battle of two heuristic
    agents ends (a terminal node), every input it chose being legal (the driver applies only
    legal inputs, and the battle would stop at an illegal one)."""
    start = _start(3)
    agents = {"A": make_agent("heuristic", 6), "B": make_agent("heuristic", 7)}
    final = play(start, agents, SeededDice(3), max_steps=start.ctx.options.max_steps)
    assert final.is_terminal
    assert final.ctx.options.ruleset == "kt21"
