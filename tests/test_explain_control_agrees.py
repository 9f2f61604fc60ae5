"""``killteam explain``'s ``control`` query runs the game's own control hooks one by one
(:mod:`engine.explain.control`); its totals must decide the same controller as the game
(:func:`engine.game.markers.controller`, rules/KT24.md 4.8) in every position the shipped
scenarios about markers reach, or the ruling would explain a verdict it did not reach.
"""

from __future__ import annotations

import pytest

from engine.agents.scenario_choices import best_choice
from engine.explain import explain
from engine.explain.editions import EDITIONS
from engine.game import markers
from engine.game.scenario_file import load_scenario, shipped_scenarios
from engine.game.work import Work
from engine.rulesets import get as get_ruleset

MARKER_SCENARIOS = [
    p
    for p in shipped_scenarios()
    if any(w in p.read_text(encoding="utf-8").lower() for w in ("control", "marker"))
    and load_scenario(str(p)).options.ruleset in EDITIONS  # the rulesets explain answers
]


@pytest.mark.parametrize("path", MARKER_SCENARIOS, ids=lambda p: p.stem)
def test_4_8_explained_totals_decide_the_games_controller(path: object) -> None:
    """4.8: the player with the greater total APL of contesting operatives controls a
    marker; on a tie nobody does unless a rule names who (``would_control_marker``). So where
    explain's totals differ, the larger side must be the game's controller; where they are
    equal, the game's controller must come from a tie rule (then explain reports the game's
    verdict unchanged). A carried marker is its carrier's player's."""
    scenario = load_scenario(str(path))
    walk = scenario.walk(ruleset=get_ruleset(scenario.options.ruleset), chooser=best_choice)
    checked = 0
    for _k, _step, state, _events in walk:
        w = Work(state)
        for m in state.markers:
            ruling = explain(state, f"control {m.name}")
            winner = markers.controller(w, m.name)
            assert ruling.verdict == winner
            if m.carrier:
                continue
            total = ruling.data.get("totals", {"A": 0, "B": 0})
            if total["A"] != total["B"]:
                assert winner == max(("A", "B"), key=lambda p: total[p]), (m.name, total)
            checked += 1
    assert checked or not scenario.steps
