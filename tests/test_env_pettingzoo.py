"""The PettingZoo AEC environment (issue 30, ``engine.envs.pettingzoo``): PettingZoo's own
``api_test`` and ``seed_test`` pass; the dice of ``reset(seed=s)`` are those of ``killteam
play --seed s``; the action mask is exactly the codec's legal indices; the rewards add up
to the battle's result; bad input raises and changes nothing."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

from engine.agents import make_agent
from engine.envs.codec import ACTION_SPACE_SIZE, ActionCodec
from engine.envs.core import EnvError
from engine.envs.observation import ObservationEncoder
from engine.game.drivers import ask
from engine.play import agent_seeds
from engine.play.battle import play_battle
from engine.play.matchup import MatchupChoice, make_matchup
from tests.extras_support import need

pytestmark = pytest.mark.extras
pettingzoo = need("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from engine.envs.pettingzoo import env, raw_env  # noqa: E402

TEAMS = ("angels_of_death", "legionaries")  # the smallest built-in rosters (6 a side)


def _env(**kwargs: Any) -> Any:
    return env(teams=TEAMS, **kwargs)


def _play_agents(e: Any, agents: dict[str, Any]) -> None:
    """Step ``e`` to the end with engine agents choosing on their player's view."""
    for agent in e.agent_iter():
        _, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        state = e.unwrapped.battle.state
        e.step(ActionCodec.for_state(state).encode(state, ask(agents[agent], state)))


def test_pettingzoo_api_test_passes_through_whole_battles() -> None:
    """PettingZoo's own conformance test; 400 cycles (800 agent steps) play past the end of
    a battle of these teams (random battles take about 300 decisions), so the end of an
    episode is checked too."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its style advice: agent names, dict observations
        api_test(_env(), num_cycles=400)


def test_pettingzoo_seed_test_passes() -> None:
    """Two environments reset with the same seed step identically (PettingZoo's test)."""
    seed_test(_env, num_cycles=150)


def test_reset_seed_plays_the_battle_of_killteam_play_with_that_seed() -> None:
    """With the agents of ``killteam play --agents random --seed 7`` (seeds 14 and 15)
    choosing in the environment reset with seed 7, the battle ends in the very state that
    ``play_battle`` reaches: the environment's dice are ``SeededDice(7)``."""
    e = _env()
    e.reset(seed=7)
    sa, sb = agent_seeds(7)
    _play_agents(e, {"A": make_agent("random", sa), "B": make_agent("random", sb)})
    matchup = make_matchup(MatchupChoice(teams=TEAMS, agents="random"))
    final, _ = play_battle(matchup, 7)
    assert e.unwrapped.battle.state.hash() == final.hash()


def test_observations_have_the_published_spaces_and_an_exact_mask() -> None:
    """The mask is 1 exactly at the indices the codec gives the deciding player's listed
    legal actions (one index per action), 0 everywhere for the other player; the arrays
    have the encoder's shapes and are float32, inside the declared space."""
    e = _env()
    e.reset(seed=3)
    for _ in range(40):
        agent = e.agent_selection
        state = e.unwrapped.battle.state
        obs = e.observe(agent)
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (ACTION_SPACE_SIZE,)
        codec = ActionCodec.for_state(state)
        expected = sorted(codec.encode(state, a) for a in state.legal_actions())
        assert np.flatnonzero(mask).tolist() == expected
        other = "B" if agent == "A" else "A"
        assert not e.observe(other)["action_mask"].any()
        for name, shape in ObservationEncoder.shapes.items():
            assert obs["observation"][name].shape == shape
            assert obs["observation"][name].dtype == np.float32
        assert e.observation_space(agent).contains(obs)
        e.step(int(expected[len(expected) // 2]))


@pytest.mark.parametrize("reward", ["result", "vp"])
def test_rewards_add_up_to_the_result_or_the_vp_difference(reward: str) -> None:
    """``"result"``: each agent's rewards add up to +1 for the winner, -1 for the loser, 0
    for a draw (1.8); ``"vp"``: to its final VP minus the opponent's (the shaped reward is
    the change of that lead)."""
    e = _env(reward=reward)
    e.reset(seed=11)
    totals = {"A": 0.0, "B": 0.0}
    agents = {"A": make_agent("random", 1), "B": make_agent("random", 2)}
    for agent in e.agent_iter():
        _, _, term, trunc, _ = e.last()
        for p, r in e.rewards.items():
            totals[p] += r
        if term or trunc:
            e.step(None)
            continue
        state = e.unwrapped.battle.state
        e.step(ActionCodec.for_state(state).encode(state, ask(agents[agent], state)))
    result = e.unwrapped.battle.state.node.result
    if reward == "result":
        win = {"A": 1.0, "B": -1.0} if result.winner == "A" else {"A": -1.0, "B": 1.0}
        assert totals == (win if result.winner else {"A": 0.0, "B": 0.0})
    else:
        lead = result.vp[0] - result.vp[1]
        assert totals == {"A": float(lead), "B": float(-lead)}


def test_max_steps_truncates_both_agents() -> None:
    """After ``max_steps`` agent steps both agents are truncated (not terminated), the masks
    are empty and each agent leaves with one ``step(None)``."""
    e = _env(max_steps=5)
    e.reset(seed=2)
    for _ in range(5):
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(np.flatnonzero(mask)[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert not e.observe("A")["action_mask"].any()
    e.step(None)
    e.step(None)
    assert e.agents == []


def _bad_inputs(mask: np.ndarray[Any, Any]) -> list[tuple[object, str]]:
    masked = int(np.flatnonzero(mask == 0)[0])
    return [
        (ACTION_SPACE_SIZE, "out of range"),
        (-1, "out of range"),
        (masked, "is not legal at this decision"),
        ("3", "must be an integer"),
        (1.0, "must be an integer"),
        (True, "must be an integer"),
    ]


def test_bad_actions_raise_and_change_nothing() -> None:
    """An index out of range, a masked index or a non-integer raises ``EnvError`` naming
    the problem; the battle, the agent to play and the rewards stay as they were, and a
    legal step still works."""
    e = raw_env(teams=TEAMS)
    e.reset(seed=5)
    mask = e.observe(e.agent_selection)["action_mask"]
    before = (e.battle.state.hash(), e.agent_selection, dict(e._cumulative_rewards))
    for action, message in _bad_inputs(mask):
        with pytest.raises(EnvError, match=message):
            e.step(action)
        assert (e.battle.state.hash(), e.agent_selection, dict(e._cumulative_rewards)) == before
    e.step(np.int64(np.flatnonzero(mask)[0]))
    assert e.battle.state.hash() != before[0]


def test_a_step_after_the_end_raises() -> None:
    """Once the battle is over an action raises (only ``None`` removes an agent); once both
    agents left, any step raises until ``reset``."""
    e = raw_env(teams=TEAMS, max_steps=1)
    e.reset(seed=5)
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    with pytest.raises(EnvError, match="step\\(None\\) removes it"):
        e.step(0)
    e.step(None)
    e.step(None)
    with pytest.raises(EnvError, match="call reset"):
        e.step(0)
    e.reset(seed=5)
    assert e.agents == ["A", "B"]


def test_unknown_options_are_named() -> None:
    """A misspelt option or a bad reward is refused with its name."""
    with pytest.raises(EnvError, match="unknown option 'team'"):
        raw_env(team=TEAMS)
    with pytest.raises(EnvError, match="reward must be one of result, vp"):
        raw_env(teams=TEAMS, reward="elo")


def test_a_whole_kt21_battle_plays_with_random_legal_actions() -> None:
    """``ruleset="kt21"`` plays to the end with both agents choosing a random index of
    their action mask: every step is legal, the mask is the codec's legal indices, the
    observations keep the published shapes, and the result rewards are zero-sum (+1/-1 or
    0/0)."""
    e = env(ruleset="kt21")
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    totals = {"A": 0.0, "B": 0.0}
    steps = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        for name, shape in ObservationEncoder.shapes.items():
            assert obs["observation"][name].shape == shape
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
        steps += 1
    assert e.unwrapped.battle.state.is_terminal and steps > 50
    assert totals["A"] == -totals["B"] and totals["A"] in (-1.0, 0.0, 1.0)
