"""Random-playout conformance under the KT18 ruleset (issue 33 item 6; DESIGN.md "Testing and
measuring"): the invariants the KT24 conformance tests check (``tests/test_game_conformance.py``)
that hold for any ruleset, on a few seeded KT18 Covert War battles (CI time is tight), through
the one helper every ruleset uses (``tests/conformance_support.py``: every node invariant of
its docstring), on both shipped layouts.

Per battle: it ends (a terminal node) within its step limit with a result that agrees with its
VP under Covert War (``rules/KT18.md`` 9.6: most VP is a major victory; equal VP is a minor
victory for the player with the least strategic advantage, never a draw), its record's header
names the ruleset ``kt18``, the record replays to the same final hash under the ruleset the
header names, and the narration reads every event without failing, with a line per battle
round.

The teams are the built-in KT18 teams (``kt18_space_marines``, ``kt18_orks``).
"""

from __future__ import annotations

import pytest

from engine.agents import make_agent
from engine.game import GameOptions
from engine.game.drivers import SeededDice, play
from engine.game.state import GameState, Terminal
from engine.geometry import load_killzone
from engine.missions.kt18.objectives import advantage_order
from engine.play import RULESET_TEAMS
from engine.rulesets import KT18, new_game
from engine.teams import Roster, load_builtin_team
from tests.conformance_support import check_replay, recorded_random_playout

LAYOUTS = ("open_ruins", "close_quarters")
SEEDS = (0, 1)
OPTIONS = GameOptions(ruleset="kt18")


def _teams() -> tuple[Roster, Roster]:
    """The rosters of players A and B: the ruleset's default teams, built in."""
    ids = RULESET_TEAMS["kt18"]
    return load_builtin_team(ids[0]).default(), load_builtin_team(ids[1]).default()


def _start(seed: int, layout: str | None = None) -> GameState:
    a, b = _teams()
    return new_game(load_killzone(layout or LAYOUTS[seed % 2]), a, b, OPTIONS)


def check_covert_war_result(state: GameState) -> str:
    """The battle is over with a Covert War result (``rules/KT18.md`` 9.6): more VP wins;
    equal VP: the player with the least strategic advantage (last of the order the mission
    kept) wins. Returns the winner."""
    node = state.node
    assert isinstance(node, Terminal), node
    vp = node.result.vp
    least = advantage_order(state)[-1]  # the least strategic advantage (9.3)
    want = least if vp[0] == vp[1] else ("A" if vp[0] > vp[1] else "B")
    assert node.result.winner == want
    return want


@pytest.mark.parametrize("seed", SEEDS)
def test_kt18_random_playouts_conform(seed: int) -> None:
    """Every check of the module docstring over one seeded battle of random agents under
    KT18: the invariants are the engine's (states are values, inputs are notation, a
    rejected input changes nothing), whatever the ruleset."""
    state = _start(seed)
    assert state.ctx.options.ruleset == "kt18" and state.ctx.rules.ruleset is KT18
    assert state.ctx.options.mission == "covert_war"
    final, rec, narrated = recorded_random_playout(state, seed)
    check_covert_war_result(final)
    check_replay(rec, final, KT18)
    # Five battle rounds, each told under its own header (rules/KT18.md 2.1, 9.6).
    assert [n for n in narrated if n.startswith("=== Battle round")] == [
        f"=== Battle round {r} ===" for r in range(1, 6)
    ]
    assert narrated[-1].startswith("Battle over:")


@pytest.mark.parametrize("layout", LAYOUTS)
def test_kt18_heuristic_battle_plays_to_its_end(layout: str) -> None:
    """The heuristic agent plays KT18 (issue 33 item 6) on both shipped layouts: a whole
    battle of two heuristic agents ends (a terminal node) with a Covert War result, every
    input it chose being legal (the driver applies only legal inputs, and the battle would
    stop at an illegal one)."""
    start = _start(3, layout)
    agents = {"A": make_agent("heuristic", 6), "B": make_agent("heuristic", 7)}
    final = play(start, agents, SeededDice(3), max_steps=start.ctx.options.max_steps)
    assert final.is_terminal
    check_covert_war_result(final)
