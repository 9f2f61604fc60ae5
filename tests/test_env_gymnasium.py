"""The Gymnasium environment (issue 30, ``engine.envs.gymnasium``): Gymnasium's own
``check_env`` passes (one check adapted, see its test); ``action_masks()`` is exactly the
codec's legal indices; ``reset(seed=s)`` gives ``killteam play --seed s``'s battle; bad input
raises and changes nothing."""

from __future__ import annotations

import pickle
import warnings
from typing import Any

import numpy as np
import pytest

from engine.agents import make_agent
from engine.envs.codec import ACTION_SPACE_SIZE, ActionCodec
from engine.envs.core import EnvError
from engine.game.drivers import ask
from engine.play import agent_seeds
from engine.play.battle import play_battle
from engine.play.matchup import MatchupChoice, make_matchup
from tests.extras_support import need

pytestmark = pytest.mark.extras
gymnasium = need("gymnasium")

from gymnasium.utils import env_checker  # noqa: E402

from engine.envs.gymnasium import KillTeamEnv  # noqa: E402

TEAMS = ("angels_of_death", "legionaries")  # the smallest built-in rosters (6 a side)


def _step_determinism_after_reset(env: Any, seed: int = 123) -> None:
    """``check_step_determinism`` with the action sampled after the seeded reset: the same
    assertions (equal observations, rewards, terminations and infos, the generator
    untouched by ``step``, no truncation after one step)."""
    env.reset(seed=seed)
    env.action_space.seed(seed)
    action = env.action_space.sample()
    first = env.step(action)
    rng = pickle.dumps(env.unwrapped.np_random.bit_generator.state)
    env.reset(seed=seed)
    second = env.step(action)
    assert pickle.dumps(env.unwrapped.np_random.bit_generator.state) == rng
    for a, b in zip(first, second, strict=True):
        assert env_checker.data_equivalence(a, b)
    assert first[3] is False


def test_check_env_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Gymnasium's ``check_env``, every check as it is but one: ``check_step_determinism``
    draws its action *before* its seeded reset, so with masked actions that action belongs
    to another decision and is refused (the environment raises on a masked action, as it
    must); it is replaced by the same assertions with the action drawn after the reset."""
    monkeypatch.setattr(env_checker, "check_step_determinism", _step_determinism_after_reset)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on unbounded Box spaces
        env_checker.check_env(KillTeamEnv(teams=TEAMS), skip_render_check=True)


def test_action_masks_are_exactly_the_learners_legal_actions_and_sample_is_legal() -> None:
    """``action_masks()`` is True exactly at the codec's indices of the listed legal
    actions of the learner's decision; ``action_space.sample()`` is one of them."""
    env = KillTeamEnv(teams=TEAMS, learner="B")
    env.reset(seed=4)
    for _ in range(30):
        state = env.battle.state
        assert state.node.player == "B"
        codec = ActionCodec.for_state(state)
        expected = sorted(codec.encode(state, a) for a in state.legal_actions())
        mask = env.action_masks()
        assert mask.dtype == np.bool_ and mask.shape == (ACTION_SPACE_SIZE,)
        assert np.flatnonzero(mask).tolist() == expected
        action = env.action_space.sample()
        assert int(action) in expected
        _, _, done, _, _ = env.step(action)
        if done:
            break


def test_reset_seed_plays_the_battle_of_killteam_play_with_that_seed() -> None:
    """The learner choosing as A's agent of ``killteam play --agents random --seed 9``
    (seed 18) against the opponent ``"random"`` (given B's seed 19 by the environment) ends
    in the state ``play_battle`` reaches; the result reward is the winner's +1 or -1."""
    env = KillTeamEnv("random", teams=TEAMS)
    env.reset(seed=9)
    learner = make_agent("random", agent_seeds(9)[0])
    done, reward = False, 0.0
    while not done:
        state = env.battle.state
        index = ActionCodec.for_state(state).encode(state, ask(learner, state))
        _, reward, done, cut, _ = env.step(index)
        assert not cut
    final, _ = play_battle(make_matchup(MatchupChoice(teams=TEAMS, agents="random")), 9)
    assert env.battle.state.hash() == final.hash()
    winner = final.node.result.winner
    assert reward == (1.0 if winner == "A" else -1.0 if winner == "B" else 0.0)
    assert not env.action_masks().any()


def test_reset_with_a_seed_is_deterministic_and_without_one_draws_a_new_battle() -> None:
    """Two resets with one seed give equal observations; ``reset()`` then draws a seed from
    the generator the seeded reset made, the same for two environments."""
    a, b = KillTeamEnv(teams=TEAMS), KillTeamEnv(teams=TEAMS)
    obs_a, info_a = a.reset(seed=21)
    obs_b, _ = b.reset(seed=21)
    assert gymnasium.utils.env_checker.data_equivalence(obs_a, obs_b)
    assert info_a["seed"] == 21
    assert a.reset()[1]["seed"] == b.reset()[1]["seed"] != 21


def test_an_agent_object_opponent_acts_on_its_observation() -> None:
    """An agent object is handed its player's observation (it has no ``sees_full_state``),
    so it never sees the learner's secrets."""
    from engine.game.observation import Observation

    seen: list[object] = []

    class Spy:
        def act(self, observation: Observation) -> Any:
            seen.append(observation)
            return observation.legal_actions[0]

    env = KillTeamEnv(Spy(), teams=TEAMS)
    env.reset(seed=1)
    for _ in range(40):
        if env.step(int(np.flatnonzero(env.action_masks())[0]))[2]:
            break
    assert seen and all(isinstance(o, Observation) and o.player == "B" for o in seen)


def test_bad_actions_raise_and_change_nothing() -> None:
    """An index out of range, a masked index or a non-integer raises ``EnvError`` naming
    the problem; the battle is unchanged and a legal step still works."""
    env = KillTeamEnv(teams=TEAMS)
    env.reset(seed=5)
    mask = env.action_masks()
    masked = int(np.flatnonzero(~mask)[0])
    before = env.battle.state.hash()
    for action, message in [
        (ACTION_SPACE_SIZE, "out of range"),
        (-1, "out of range"),
        (masked, "is not legal at this decision"),
        ("3", "must be an integer"),
        (2.0, "must be an integer"),
        (None, "must be an integer"),
    ]:
        with pytest.raises(EnvError, match=message):
            env.step(action)
        assert env.battle.state.hash() == before
    env.step(np.int64(np.flatnonzero(mask)[0]))
    assert env.battle.state.hash() != before


def test_steps_before_reset_and_after_the_end_or_truncation_raise() -> None:
    """``step`` before ``reset`` raises; so does a step after a truncation (``max_steps``
    learner steps), and nothing changes."""
    env = KillTeamEnv(teams=TEAMS, max_steps=2)
    with pytest.raises(EnvError, match="call reset"):
        env.step(0)
    env.reset(seed=3)
    for _ in range(2):
        _, _, done, cut, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert cut and not done
    before = env.battle.state.hash()
    with pytest.raises(EnvError, match="truncated after max_steps=2"):
        env.step(0)
    assert env.battle.state.hash() == before


def test_bad_options_are_named() -> None:
    """An unknown opponent name, a learner other than A and B and a misspelt option are
    refused with their names."""
    with pytest.raises(ValueError, match="unknown agent 'grandmaster'"):
        KillTeamEnv("grandmaster", teams=TEAMS)
    with pytest.raises(EnvError, match="learner must be 'A' or 'B'"):
        KillTeamEnv(learner="C", teams=TEAMS)
    with pytest.raises(EnvError, match="unknown option 'kilzone'"):
        KillTeamEnv(teams=TEAMS, kilzone="open_ruins")


def test_a_whole_kt21_battle_plays_with_random_legal_actions() -> None:
    """``ruleset="kt21"`` (its default teams, Kasrkin and Legionaries, and its default
    mission, Critical Operations 2022): the learner plays a whole battle choosing a random
    index of ``action_masks()`` at every step, each one legal and accepted, until the battle
    ends with the result reward (+1, -1 or 0) and an empty mask; the observations keep the
    published shapes throughout."""
    env = KillTeamEnv("random", ruleset="kt21")
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    done, reward, steps = False, 0.0, 0
    while not done:
        legal = np.flatnonzero(env.action_masks())
        assert legal.size and all(o.shape == env.observation_space[k].shape for k, o in obs.items())
        obs, reward, done, cut, _ = env.step(int(rng.choice(legal)))
        assert not cut
        steps += 1
    assert env.battle.state.ctx.options.ruleset == "kt21"
    winner = env.battle.state.node.result.winner
    assert reward == (1.0 if winner == "A" else -1.0 if winner == "B" else 0.0)
    assert steps > 50 and not env.action_masks().any()
