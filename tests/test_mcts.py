"""The search agent (``engine.agents.mcts``): determinism for an iteration budget, legal
answers at every decision kind, the one-legal-action shortcut, the obvious kill, what
``explain()`` reports, the leaf evaluation and the ``make_agent`` specs. Positions are on the
LAB killzone of ``tests/test_game_rules_common.py`` (its drawing and datacards there)."""

from __future__ import annotations

import pytest

from engine.agents import AGENT_NAMES, HeuristicAgent, RandomAgent, make_agent
from engine.agents.explain import Alternative
from engine.agents.mcts import MCTSAgent, evaluate, parse_mcts_spec
from engine.game.drivers import SeededDice
from engine.game.state import Decision, GameState
from engine.play.matchup import MatchupChoice, make_matchup
from tests.test_game_rules_common import play as run
from tests.test_game_rules_common import pos


def _duel() -> GameState:
    """RED-1 (Trooper, Gun 4 dice 3+ 3/4) activated with an Engage order in the open lane,
    facing BLU-1, a Trooper left with 3 wounds, and BLU-2, an unhurt Trooper (10 wounds),
    both 11" away in the open."""
    s = pos(
        {
            "RED-1": {"at": (5, 14.5)},
            "BLU-1": {"at": (16, 13.5), "wounds": 3},
            "BLU-2": {"at": (16, 15.8)},
        },
        turn="A",
    )
    s, _ = run(s, ["Activate RED-1 engage"])
    assert isinstance(s.node, Decision) and s.node.kind == "action"
    return s


def test_same_seed_and_iterations_give_the_same_choice_and_tree() -> None:
    """An iteration budget makes the search deterministic: each decision's generator is
    seeded from the agent's seed and the state's step, so two fresh agents with the same
    seed grow the same tree and choose the same action."""
    s = _duel()
    one, two = MCTSAgent(7, iterations=40), MCTSAgent(7, iterations=40)
    assert one.act(s) == two.act(s)
    assert one.explain() == two.explain()


def test_shoots_the_wounded_enemy_it_can_kill() -> None:
    """One unsaved Gun hit (3 damage) incapacitates BLU-1 (3 wounds left): with 4 attack
    dice hitting on 3+ against 3 defence dice saving on 4+, the kill is likely (about 0.8),
    and a kill is worth 1.15 operatives in the leaf evaluation (1 plus half its share of
    wounds left), while the same shot at the unhurt BLU-2 removes on average less than a
    third of its 10 wounds (about 0.15 operatives). So the search shoots BLU-1, not BLU-2,
    and does not end its activation without shooting."""
    s = _duel()
    agent = MCTSAgent(3, iterations=60)
    assert str(agent.act(s)) == "Shoot RED-1 gun at BLU-1"


def test_explain_lists_the_root_alternatives_by_visits() -> None:
    """``explain()`` after a searched decision lists every root candidate once, most visited
    first; each iteration passes through exactly one root child, so the visits in the notes
    add up to the iteration budget; the first alternative is the action chosen."""
    s = _duel()
    agent = MCTSAgent(5, iterations=30)
    chosen = agent.act(s)
    alts = agent.explain()
    assert alts and all(isinstance(a, Alternative) for a in alts)
    assert alts[0].action == chosen
    visits = [int(a.note.split()[0]) for a in alts]
    assert sum(visits) == 30
    assert visits == sorted(visits, reverse=True)
    assert len({a.action for a in alts}) == len(alts)


def test_a_single_legal_action_costs_no_search() -> None:
    """With one legal action there is nothing to choose: the agent answers it without a
    single iteration (its counters stay at zero) and has nothing to explain."""
    agent = MCTSAgent(0, iterations=50)
    m = make_matchup(MatchupChoice(agents="random"))
    s = m.new_game()
    dice = SeededDice(1)
    rnd = RandomAgent(1)
    for _ in range(2000):
        if isinstance(s.node, Decision) and len(s.legal_actions()) == 1:
            break
        a = rnd.act(s) if isinstance(s.node, Decision) else dice.roll(s)
        s = s.apply(a)[0]
    else:  # pragma: no cover - the battle always has such a decision
        pytest.fail("no decision with a single legal action")
    assert agent.act(s) == s.legal_actions()[0]
    assert (agent.decisions, agent.iterations_run) == (0, 0)
    assert agent.explain() == []


def test_answers_a_legal_action_at_every_decision_kind_of_a_random_playout() -> None:
    """Along a random battle of the default matchup, at the first two decisions of every
    kind, the agent (a tiny budget) answers an action the engine accepts there: listed, or
    a complete move the rules allow (``GameState.is_legal``)."""
    agent = MCTSAgent(0, iterations=3)
    m = make_matchup(MatchupChoice(agents="random"))
    s = m.new_game()
    dice = SeededDice(4)
    rnd = RandomAgent(4)
    seen: dict[str, int] = {}
    for _ in range(600):
        if s.is_terminal:
            break
        node = s.node
        if isinstance(node, Decision):
            if seen.get(node.kind, 0) < 2:
                seen[node.kind] = seen.get(node.kind, 0) + 1
                a = agent.act(s)
                assert a in s.legal_actions() or s.is_legal(a), (node.kind, str(a))
            s = s.apply(rnd.act(s))[0]
        else:
            s = s.apply(dice.roll(s))[0]
    assert {"activate", "action", "deploy"} <= set(seen)
    assert agent.decisions > 0  # some of them were searched


def test_evaluation_is_zero_sum() -> None:
    """The leaf value is a difference of the two sides' VP, projected VP and material, so
    what one player gains the other loses: ``evaluate(s, A) == -evaluate(s, B)``; and the
    side with a wounded operative is behind."""
    s = _duel()
    assert evaluate(s, "A") == pytest.approx(-evaluate(s, "B"))
    assert evaluate(s, "A") > 0  # BLU-1 has lost 7 of its 10 wounds
    with pytest.raises(ValueError, match="player must be 'A' or 'B'"):
        evaluate(s, "C")


def test_make_agent_accepts_mcts_specs() -> None:
    """``mcts`` is 1 s per decision; ``mcts:<x>s`` seconds and ``mcts:<n>`` iterations, as
    documented in ``make_agent``; ``AGENT_NAMES`` accepts those specs (the CLI checks names
    with ``in``) but not a malformed one."""
    a = make_agent("mcts", 3)
    assert isinstance(a, MCTSAgent) and (a.budget_seconds, a.iterations) == (1.0, None)
    b = make_agent("MCTS:0.25s", 3)
    assert isinstance(b, MCTSAgent) and (b.budget_seconds, b.iterations) == (0.25, None)
    c = make_agent("mcts:400", 3)
    assert isinstance(c, MCTSAgent) and (c.budget_seconds, c.iterations) == (None, 400)
    assert parse_mcts_spec("mcts:1s") == (1.0, None)
    assert "mcts" in AGENT_NAMES and "mcts:1s" in AGENT_NAMES and "mcts:400" in AGENT_NAMES
    assert "mcts:abc" not in AGENT_NAMES and "mcts:0" not in AGENT_NAMES


@pytest.mark.parametrize("spec", ["mcts:abc", "mcts:0", "mcts:-1s", "mcts:", "mcts:nans"])
def test_a_bad_mcts_budget_is_a_clear_error(spec: str) -> None:
    """A budget that is not a positive number of seconds or iterations is refused, the
    message naming the spec and the accepted forms."""
    with pytest.raises(ValueError, match=r"MCTS budget .* is not a number of seconds up to"):
        make_agent(spec)


def test_a_bad_constructor_budget_is_a_clear_error() -> None:
    """The constructor refuses budgets that cannot end a search."""
    with pytest.raises(ValueError, match="iterations must be at least 1"):
        MCTSAgent(0, iterations=0)
    with pytest.raises(ValueError, match="budget_seconds must be a positive number"):
        MCTSAgent(0, budget_seconds=0.0)


def test_only_searches_with_an_iteration_budget_are_reproducible() -> None:
    """``random``, ``heuristic`` and ``mcts:<iterations>`` make the same choices every run for
    a seed; ``mcts`` (1 s) and ``mcts:<seconds>s`` depend on the machine's speed; a name that
    is not an agent is not reproducible either."""
    from engine.agents import reproducible

    assert [reproducible(n) for n in ("random", "heuristic", "mcts:400", "MCTS:7")] == [True] * 4
    assert [reproducible(n) for n in ("mcts", "mcts:1s", "mcts:0.25s", "alice")] == [False] * 4


def test_search_budgets_are_bounded() -> None:
    """A spec may not ask for unbounded work: at most MAX_SECONDS seconds or MAX_ITERATIONS
    iterations a decision (a record's header is user input)."""
    from engine.agents.mcts import MAX_ITERATIONS, MAX_SECONDS, parse_mcts_spec

    assert parse_mcts_spec(f"mcts:{MAX_ITERATIONS}") == (None, MAX_ITERATIONS)
    assert parse_mcts_spec(f"mcts:{MAX_SECONDS:g}s") == (MAX_SECONDS, None)
    for spec in (f"mcts:{MAX_ITERATIONS + 1}", f"mcts:{MAX_SECONDS + 1:g}s", "mcts:1e9s"):
        with pytest.raises(ValueError, match="up to"):
            parse_mcts_spec(spec)


def _tree_edges(agent: MCTSAgent) -> list[tuple[object, object, object]]:
    """Every (parent, action, child) edge of the agent's last search tree."""
    root = agent._root
    assert root is not None
    edges, todo = [], [root]
    while todo:
        node = todo.pop()
        for a, child in node.children.items():
            edges.append((node, a, child))
            todo.append(child)
    return edges


def test_each_kept_state_is_its_parents_state_after_the_edges_action() -> None:
    """The search keeps, in each tree node, the state it stands for in each determinisation
    (so that no iteration replays the path from the root): that state must be exactly what
    the engine gives by applying the edge's action to the parent's state of the same
    determinisation (the engine is deterministic: ``apply`` of equal states and actions
    gives equal states)."""
    agent = MCTSAgent(2, iterations=40)
    agent.act(_duel())
    edges = _tree_edges(agent)
    assert edges
    checked = 0
    for parent, action, child in edges:
        for k, state in child.states.items():
            if k in parent.states:
                assert parent.states[k].apply(action)[0] == state
                checked += 1
    assert checked > 0


def test_an_iteration_stops_at_the_next_turning_point() -> None:
    """The horizon: an iteration ends at the first state of the next turning point, so no
    node of the tree holds a state past it, and a node holding such a state has no
    children (it was a leaf, valued there)."""
    agent = MCTSAgent(4, iterations=60)
    s = _duel()
    agent.act(s)
    for _, _, child in _tree_edges(agent):
        for state in child.states.values():
            assert state.tp <= s.tp + 1
            if state.tp > s.tp:
                assert not child.children


def test_one_determinisation_when_nothing_is_hidden() -> None:
    """In the duel (the LAB killzone with no mission ops) the opponent has no secret
    selection, so every determinisation is the position itself (``resample`` returns the
    state): the search keeps a single root state and the visits of the root are the
    iterations run."""
    agent = MCTSAgent(1, iterations=25)
    agent.act(_duel())
    root = agent._root
    assert root is not None
    assert len(root.states) == 1
    assert root.visits == 25


def test_heuristic_rank_starts_with_its_own_choice() -> None:
    """``HeuristicAgent.rank`` is the scored list the heuristic's action choice starts from:
    when the best-scored action is not an idle End activation, it is the action ``act``
    plays (module docstring of the heuristic). In the duel that is the kill shot at BLU-1
    (see ``test_shoots_the_wounded_enemy_it_can_kill``); every ranked action is legal and
    the scores are sorted best first."""
    s = _duel()
    h = HeuristicAgent(0)
    ranked = h.rank(s)
    assert ranked and str(ranked[0][0]) == "Shoot RED-1 gun at BLU-1"
    assert ranked[0][0] == HeuristicAgent(0).act(s)
    scores = [sc for _, sc in ranked]
    assert scores == sorted(scores, reverse=True)
    assert all(s.is_legal(a) for a, _ in ranked)


def test_heuristic_rank_refuses_a_decision_that_is_not_action_like() -> None:
    """``rank`` scores actions of an operative; at an activation decision (which operative
    to activate) there is no such list, and it says so rather than guess."""
    s = pos({"RED-1": {"at": (5, 14.5)}, "BLU-1": {"at": (16, 13.5)}}, turn="A")
    assert isinstance(s.node, Decision) and s.node.kind == "activate"
    with pytest.raises(ValueError, match="not an action-like decision"):
        HeuristicAgent(0).rank(s)
