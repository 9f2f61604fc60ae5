"""A Gymnasium environment: a learner plays one side of a Kill Team battle against a chosen
opponent (``pip install -e ".[rl]"``).

:class:`KillTeamEnv` ``(opponent="random", learner="A", **options)``; options as
:class:`~engine.envs.core.EnvConfig` (``teams``, ``rosters``, ``killzone``, ``crit_op``,
``tac_ops``, ``primary_ops``, ``equipment``, ``reward``, ``max_steps``).

- ``observation_space``: a ``Dict`` of the three float32 ``Box`` arrays of
  :mod:`engine.envs.observation` (``"operatives"`` (32, 78), ``"board"`` (25, 22, 30),
  ``"globals"`` (208)), the learner's view (the opponent's secrets hidden).
- ``action_space``: ``Discrete(ACTION_SPACE_SIZE)`` (:mod:`engine.envs.codec`) whose
  ``sample()`` without a mask draws among the learner's legal actions of the current decision
  (so ``env.action_space.sample()`` is always a legal step; ``contains`` is the whole range).
- :meth:`KillTeamEnv.action_masks`: the ``bool`` mask of the learner's legal actions
  (sb3-contrib's ``MaskablePPO`` convention).
- The opponent: an agent name for :func:`engine.agents.make_agent` (``"random"``,
  ``"heuristic"``, ``"mcts:200"``...), rebuilt at every reset with the battle's agent seed
  (:func:`engine.play.agent_seeds`), or an agent object (anything with ``act``, kept across
  battles). It acts on its player's observation, or on the whole state if it asks
  (``sees_full_state``): :func:`engine.game.drivers.ask`.
- ``reset(seed=s)``: the dice are ``SeededDice(s)`` and a named opponent gets ``s``'s agent
  seed, so with the opponent ``"heuristic"`` the battle is ``killteam play --seed s`` with the
  learner in its seat; ``reset()`` draws the seed from the environment's generator.
- Rewards: :mod:`engine.envs.core`, for the learner. ``max_steps`` learner steps truncate.
- Bad input to ``step`` raises :class:`~engine.envs.core.EnvError`; nothing changes.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from engine.agents import make_agent
from engine.envs.codec import ACTION_SPACE_SIZE
from engine.envs.core import PLAYERS, EnvBattle, EnvError, kwargs_config
from engine.envs.observation import ObservationEncoder
from engine.game.drivers import AnyAgent, ask
from engine.game.state import Decision, other
from engine.play import agent_seeds

__all__ = ["KillTeamEnv", "LegalDiscrete"]

_SEED_BOUND = 2**32
Obs = dict[str, Any]


class LegalDiscrete(spaces.Discrete):  # type: ignore[misc,unused-ignore]
    """``Discrete(n)`` whose ``sample()`` without a mask (or probabilities) draws among the
    legal actions its environment gives (``legal()``: an ``int8`` mask), from the space's
    own seeded generator. A pickled copy forgets its environment and samples like
    ``Discrete``."""

    def __init__(
        self, n: int, legal: Callable[[], npt.NDArray[np.int8] | None], seed: int | None = None
    ) -> None:
        super().__init__(n, seed=seed)
        self._legal: Callable[[], npt.NDArray[np.int8] | None] | None = legal

    def sample(
        self,
        mask: npt.NDArray[np.int8] | None = None,
        probability: npt.NDArray[np.int8] | None = None,
    ) -> np.int64:
        """A legal action (class docstring), or ``Discrete.sample(mask, probability)``."""
        if mask is None and probability is None and self._legal is not None:
            mask = self._legal()
        return np.int64(super().sample(mask=mask, probability=probability))

    def __getstate__(self) -> dict[str, Any]:
        """The space's state without its link to the environment."""
        state = dict(self.__dict__)
        state["_legal"] = None
        return state


class KillTeamEnv(gymnasium.Env[Obs, np.int64]):  # type: ignore[misc,unused-ignore]
    """One side of a battle against an opponent (module docstring).

    Args:
        opponent: an agent name (:func:`engine.agents.make_agent`) or an agent object.
        learner: the learner's player, ``"A"`` or ``"B"``.
        render_mode: ``None`` or ``"ansi"``.
        **options: :class:`~engine.envs.core.EnvConfig`.

    Raises:
        EnvError: a learner other than A and B, an unknown option or a bad value.
        ValueError: an unknown agent name.
        BattleError: a battle that cannot be set up.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's attribute

    def __init__(
        self,
        opponent: str | AnyAgent = "random",
        learner: str = "A",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if learner not in PLAYERS:
            raise EnvError(f"learner must be 'A' or 'B', got {learner!r:.40}")
        if render_mode not in (None, "ansi"):
            raise EnvError(f"render_mode must be None or 'ansi', got {render_mode!r:.40}")
        if isinstance(opponent, str):
            make_agent(opponent)  # an unknown name fails here, not at the first reset
        elif not callable(getattr(opponent, "act", None)):
            raise EnvError(f"opponent must be an agent name or have act(), got {opponent!r:.60}")
        self.render_mode = render_mode
        self.learner = learner
        self.opponent_player = other(learner)
        self._opponent_spec = opponent
        self.opponent: AnyAgent | None = None if isinstance(opponent, str) else opponent
        self.battle = EnvBattle(kwargs_config(options))
        self.observation_space = spaces.Dict(
            {
                name: spaces.Box(spec.low, spec.high, spec.shape, np.float32)
                for name, spec in ObservationEncoder.spaces.items()
            }
        )
        ref = weakref.ref(self)

        def legal() -> npt.NDArray[np.int8] | None:
            env = ref()
            return None if env is None else env.action_masks().astype(np.int8)

        self.action_space = LegalDiscrete(ACTION_SPACE_SIZE, legal)
        self._started = False

    def _opponent_turns(self) -> float:
        """Let the opponent decide until the learner's decision or the end; the learner's
        reward over those steps."""
        total = 0.0
        b = self.battle
        while not b.over:
            node = b.state.node
            assert isinstance(node, Decision)
            if node.player == self.learner:
                break
            assert self.opponent is not None
            rewards = b.apply(ask(self.opponent, b.state), count=False)
            total += rewards[self.learner]
        return total

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Start a new battle (module docstring); ``options`` is accepted and ignored.

        Returns:
            The learner's first observation and an info dict (:meth:`EnvBattle.info
            <engine.envs.core.EnvBattle.info>`).
        """
        super().reset(seed=seed)
        battle_seed = int(seed) if seed is not None else int(self.np_random.integers(_SEED_BOUND))
        if isinstance(self._opponent_spec, str):
            seeds = agent_seeds(battle_seed)
            mine = seeds[PLAYERS.index(self.opponent_player)]
            self.opponent = make_agent(self._opponent_spec, mine)
        self.battle.reset(battle_seed)
        self._opponent_turns()
        self._started = True
        return self.battle.observation(self.learner), self.battle.info()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """The learner plays ``action``; then the opponent plays until the learner's next
        decision or the end.

        Returns:
            ``(observation, reward, terminated, truncated, info)``.

        Raises:
            EnvError: before the first reset, or ``action`` is not an integer, out of
                range, masked, or given after the end or a truncation (nothing changes).
        """
        if not self._started:
            raise EnvError("call reset() before step()")
        chosen = self.battle.action(action)
        reward = self.battle.apply(chosen)[self.learner]
        reward += self._opponent_turns()
        b = self.battle
        return b.observation(self.learner), float(reward), b.over, b.truncated, b.info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """A new ``bool`` array ``(ACTION_SPACE_SIZE,)``, True exactly at the learner's legal
        actions (all False at the end or after a truncation)."""
        return self.battle.mask(self.learner)

    def render(self) -> str | None:
        """``"ansi"``: one line about the state; ``None`` without a render mode."""
        if self.render_mode == "ansi":
            return self.battle.render_text()
        return None
