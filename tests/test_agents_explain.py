"""Explained decisions (``engine.agents.explain``, issue 30): the heuristic agent's
``explain()`` after each decision, and ``killteam play --explain``."""

from __future__ import annotations

import json

import pytest

from engine.agents import HeuristicAgent
from engine.agents.explain import Alternative, Explaining, explanation_lines
from engine.cli import main
from engine.game.actions import Action
from engine.game.drivers import SeededDice, play
from engine.game.state import Decision, GameState
from engine.play.matchup import MatchupChoice, make_matchup


class _Checked:
    """A heuristic agent whose every decision's explanation is kept with the action played."""

    def __init__(self, seed: int, log: list[tuple[str, Action, list[Alternative]]]) -> None:
        self.agent = HeuristicAgent(seed)
        self.log = log

    def act(self, state: GameState) -> Action:
        a = self.agent.act(state)
        node = state.node
        assert isinstance(node, Decision)
        self.log.append((node.kind, a, self.agent.explain()))
        return a


@pytest.fixture(scope="module")
def explained() -> list[tuple[str, Action, list[Alternative]]]:
    """The first 400 inputs of the default battle (set-up and the first activations)."""
    log: list[tuple[str, Action, list[Alternative]]] = []
    m = make_matchup(MatchupChoice())
    play(
        m.new_game(),
        {"A": _Checked(2, log), "B": _Checked(3, log)},
        SeededDice(1),
        max_steps=400,
    )
    return log


def test_explanation_starts_with_the_action_played(
    explained: list[tuple[str, Action, list[Alternative]]],
) -> None:
    """The issue's contract: the first alternative is the action the agent returned, at
    every decision (scored or not)."""
    assert explained
    for _, played, alternatives in explained:
        assert alternatives and alternatives[0].action == played


def test_explanation_scores_are_sorted_after_the_played_action(
    explained: list[tuple[str, Action, list[Alternative]]],
) -> None:
    """The alternatives after the played one are best first; at an ``action`` decision the
    heuristic plays its best-scored listed action, so the first score is the highest."""
    scored = 0
    for kind, _, alternatives in explained:
        rest = [a.score for a in alternatives[1:]]
        assert rest == sorted(rest, reverse=True)
        assert len(alternatives) <= 5
        if kind == "action" and len(alternatives) > 1:
            scored += 1
            assert alternatives[0].score >= max(rest) - 1e-9
    assert scored > 0  # the first 400 inputs include activations with several actions


def test_shots_are_explained_with_expected_damage_and_kill_chance(
    explained: list[tuple[str, Action, list[Alternative]]],
) -> None:
    """A Shoot alternative's note gives its exact expected damage and kill chance (the
    dice core's figures the score is built on)."""
    notes = [a.note for _, _, alts in explained for a in alts if a.action.verb == "Shoot"]
    assert notes and all("expected damage" in n and "% kill" in n for n in notes)


def test_unscored_decision_is_explained_by_the_action_alone() -> None:
    """A decision kind without scores (here the initiative roll-off's winner choosing, a rule
    of thumb) gives the action played alone with a note saying why; before any decision
    there is nothing to explain."""
    agent = HeuristicAgent(0)
    assert isinstance(agent, Explaining)
    assert agent.explain() == []
    state = make_matchup(MatchupChoice()).new_game()
    dice = SeededDice(1)
    while not (isinstance(state.node, Decision) and len(state.legal_actions()) > 1):
        a = dice.roll(state) if not isinstance(state.node, Decision) else state.legal_actions()[0]
        state, _ = state.apply(a)
    played = agent.act(state)
    out = agent.explain()
    assert [x.action for x in out] == [played]
    assert out[0].note


def test_explanation_lines_mark_the_played_action() -> None:
    """Plain text lines: the first marked ``*`` with the player, rank, notation, signed score
    and note; at most ``top`` lines."""
    alts = [
        Alternative(Action("End activation"), 0.25, "stand"),
        Alternative(Action("Guard", op="KAS-1"), -0.5, ""),
    ]
    lines = explanation_lines("A", alts)
    assert lines[0].strip() == "*A 1. End activation  +0.250  stand"
    assert lines[1].strip().startswith("A 2. Guard KAS-1  -0.500")
    assert explanation_lines("A", alts, top=1) == lines[:1]


def test_play_explain_prints_the_alternatives(capsys: pytest.CaptureFixture[str]) -> None:
    """``killteam play --explain`` prints, after the decisions, ranked lines with scores;
    a Shoot explained gives its expected damage (the default battle has shots)."""
    assert main(["play", "--explain"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert any(line.startswith("    *A 1. Activate ") for line in lines)
    assert any(line.startswith("     A 2. ") for line in lines)
    assert any(" Shoot " in line and "expected damage" in line for line in lines)


def test_play_json_explain_is_a_separate_field(capsys: pytest.CaptureFixture[str]) -> None:
    """With ``--json`` the explanations are an ``explain`` list beside the summary's fields,
    which are the same as without ``--explain``."""
    assert main(["play", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["play", "--json", "--explain"]) == 0
    data = json.loads(capsys.readouterr().out)
    explain = data.pop("explain")
    assert data == plain
    assert explain and {"step", "player", "kind", "alternatives"} <= set(explain[0])
    first = explain[0]["alternatives"][0]
    assert set(first) == {"action", "score", "note"}
