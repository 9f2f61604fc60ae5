"""Random-playout conformance under the KT21 ruleset (issue 32 item 6; DESIGN.md "Testing and
measuring"): the invariants the KT24 conformance tests check (``tests/test_game_conformance.py``)
that hold for any ruleset, on a few seeded KT21 battles (CI time is tight), through the one
helper both use (``tests/conformance_support.py``: every node invariant of its docstring).

Per battle: it ends (a terminal node) within its step limit with a result whose winner
agrees with its VP, its record's header names the ruleset ``kt21``, the record replays to
the same final hash under the ruleset the header names, and the narration reads every
event without failing.

The teams are the built-in KT21 teams (``kt21_kasrkin``, ``kt21_legionaries``). KT21's VP
caps are the matched-play part's (``rules/KT21.md`` 15) and are not checked here.
"""

from __future__ import annotations

import pytest

from engine.agents import make_agent
from engine.game import GameOptions
from engine.game.drivers import SeededDice, play
from engine.game.state import GameState
from engine.geometry import load_killzone
from engine.play import RULESET_TEAMS
from engine.rulesets import KT21, new_game
from engine.teams import Roster, load_builtin_team
from tests.conformance_support import (
    check_replay,
    check_result,
    recorded_random_playout,
)

LAYOUTS = ("open_ruins", "close_quarters")
SEEDS = (0, 1, 2)
OPTIONS = GameOptions(ruleset="kt21")


def _teams() -> tuple[Roster, Roster]:
    """The rosters of players A and B (module docstring: the KT21 teams when built in)."""
    ids = RULESET_TEAMS["kt21"]
    return load_builtin_team(ids[0]).default(), load_builtin_team(ids[1]).default()


def _start(seed: int) -> GameState:
    a, b = _teams()
    return new_game(load_killzone(LAYOUTS[seed % 2]), a, b, OPTIONS)


@pytest.mark.parametrize("seed", SEEDS)
def test_kt21_random_playouts_conform(seed: int) -> None:
    """Every check of the module docstring over one seeded battle of random agents under
    KT21: the invariants are the engine's (states are values, inputs are notation, a
    rejected input changes nothing), whatever the ruleset."""
    state = _start(seed)
    assert state.ctx.options.ruleset == "kt21" and state.ctx.rules.ruleset is KT21
    final, rec, narrated = recorded_random_playout(state, seed)
    check_result(final)
    check_replay(rec, final, KT21)
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
