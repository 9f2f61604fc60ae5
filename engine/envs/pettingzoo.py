"""A PettingZoo AEC environment of a Kill Team battle (``pip install -e ".[rl]"``).

``engine.envs.pettingzoo.env(**options)`` is the environment wrapped as PettingZoo
recommends (:class:`pettingzoo.utils.wrappers.OrderEnforcingWrapper`: no step or observe
before ``reset``); :class:`raw_env` is the bare one. Options: :class:`~engine.envs.core.
EnvConfig` (``teams``, ``rosters``, ``killzone``, ``crit_op``, ``tac_ops``, ``primary_ops``,
``equipment`` as ``killteam play`` takes them, ``reward="result"`` or ``"vp"``,
``max_steps``) and ``render_mode`` (``None`` or ``"ansi"``).

- Agents: ``"A"`` and ``"B"``, the engine's player names (a record, a summary and
  ``killteam play --seed`` name them so; PettingZoo's ``player_0`` style is a
  recommendation only). ``agent_selection`` is the deciding player: a player usually takes
  several steps in a row (an activation is several decisions).
- Chance nodes never reach the agents: the environment rolls them with
  :class:`~engine.game.drivers.SeededDice` of the seed given to ``reset(seed=...)`` (the dice
  of ``killteam play --seed`` with that seed); ``reset()`` without a seed draws the battle's
  seed from the generator of the last seeded reset.
- ``action_space(agent)``: ``Discrete(ACTION_SPACE_SIZE)`` (:mod:`engine.envs.codec`).
- ``observation_space(agent)``: a ``Dict`` of ``"observation"`` (a ``Dict`` of the three
  float32 ``Box`` arrays of :mod:`engine.envs.observation`, ``"operatives"`` (32, 78),
  ``"board"`` (25, 22, 30), ``"globals"`` (208), with the bounds of
  :attr:`ObservationEncoder.spaces <engine.envs.observation.ObservationEncoder.spaces>`) and
  ``"action_mask"`` (``int8``, ``(ACTION_SPACE_SIZE,)``, 1 exactly at the agent's legal
  actions; all 0 when the other player decides): PettingZoo's classic-games layout. An agent
  sees only what its player may see (the opponent's secret selections hidden).
- Rewards: :mod:`engine.envs.core` (``"result"``: +1/-1/0 at the end; ``"vp"``: the change
  of the VP lead at every step). ``max_steps`` agent steps truncate the episode.
- Bad input to ``step`` (not an integer, out of range, masked, after the end) raises
  :class:`~engine.envs.core.EnvError` naming what is wrong, and nothing changes.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped,unused-ignore]

from engine.envs.codec import ACTION_SPACE_SIZE
from engine.envs.core import PLAYERS, EnvBattle, EnvError, kwargs_config
from engine.envs.observation import ObservationEncoder

__all__ = ["env", "observation_space", "raw_env"]

_SEED_BOUND = 2**32


def observation_space() -> spaces.Dict:
    """A new observation space of one agent (module docstring): ``Dict(observation=Dict(
    operatives, board, globals), action_mask=Box(0, 1, (ACTION_SPACE_SIZE,), int8))``."""
    arrays: dict[str, spaces.Space[Any]] = {
        name: spaces.Box(spec.low, spec.high, spec.shape, np.float32)
        for name, spec in ObservationEncoder.spaces.items()
    }
    return spaces.Dict(
        {
            "observation": spaces.Dict(arrays),
            "action_mask": spaces.Box(0, 1, (ACTION_SPACE_SIZE,), np.int8),
        }
    )


def env(**kwargs: Any) -> AECEnv:
    """The environment (:class:`raw_env` ``(**kwargs)``) in PettingZoo's
    ``OrderEnforcingWrapper`` (module docstring).

    Raises:
        EnvError: an unknown option or a bad value.
        BattleError: a battle that cannot be set up (the message names the choice).
    """
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):  # type: ignore[misc]
    """The bare AEC environment (module docstring).

    Raises:
        EnvError: an unknown option or a bad value (the message names it).
        BattleError: a battle that cannot be set up.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "kill_team_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(self, render_mode: str | None = None, **kwargs: Any) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise EnvError(f"render_mode must be None or 'ansi', got {render_mode!r:.40}")
        self.render_mode = render_mode
        self.battle = EnvBattle(kwargs_config(kwargs))
        self.possible_agents: list[str] = list(PLAYERS)
        self._obs_space = {a: observation_space() for a in PLAYERS}
        self._act_space = {a: spaces.Discrete(ACTION_SPACE_SIZE) for a in PLAYERS}
        self._seeds = np.random.default_rng()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every call)."""
        return self._obs_space[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(ACTION_SPACE_SIZE)`` (the same object every call)."""
        return self._act_space[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new battle (module docstring: the seed decides the dice). ``options`` is
        accepted and ignored (the battle's options are the constructor's)."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            battle_seed = int(seed)
        else:
            battle_seed = int(self._seeds.integers(_SEED_BOUND))
        rewards = self.battle.reset(battle_seed)
        self.agents = list(PLAYERS)
        self.rewards = dict(rewards)
        self._cumulative_rewards = dict(rewards)
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._sync()

    def _sync(self) -> None:
        """Terminations, truncations, infos and the agent selection from the battle."""
        over, cut = self.battle.over, self.battle.truncated
        for a in self.agents:
            self.terminations[a] = over
            self.truncations[a] = cut
            self.infos[a] = self.battle.info()
        to_play = self.battle.to_play
        self.agent_selection = to_play if to_play is not None and not cut else self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation (module docstring); new arrays every call."""
        if agent not in PLAYERS:
            raise EnvError(f"unknown agent {agent!r:.40}: the agents are A and B")
        return {
            "observation": self.battle.observation(agent),
            "action_mask": self.battle.mask(agent).astype(np.int8),
        }

    def step(self, action: Any) -> None:
        """Apply ``action`` (an index of ``Discrete(ACTION_SPACE_SIZE)``) for
        ``agent_selection``; after the end (or a truncation) each agent steps ``None`` once
        and leaves ``agents``.

        Raises:
            EnvError: ``action`` is not an integer, out of range, masked for this agent, or
                given after the end (nothing changes; the message names what is wrong).
        """
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            if action is not None:
                raise EnvError(
                    f"the battle is over for agent {agent}: step(None) removes it, then "
                    f"reset() starts a new battle (got action {action!r:.40})"
                )
            self._was_dead_step(action)
            return
        if not self.agents:
            raise EnvError("the battle is over: call reset() before step()")
        chosen = self.battle.action(action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = self.battle.apply(chosen)
        self._sync()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """``"ansi"``: one line about the state; ``None`` without a render mode."""
        if self.render_mode == "ansi":
            return self.battle.render_text()
        return None

    def close(self) -> None:
        """Nothing to release."""
