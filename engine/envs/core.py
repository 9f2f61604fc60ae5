"""The framework-free core of the environment adapters (PettingZoo, Gymnasium, OpenSpiel).

:class:`EnvConfig` holds what a battle is made of, as ``killteam play`` takes it (teams or
rosters, killzone, mission ops, equipment) and the learning options (reward, step limit);
:class:`EnvBattle` drives one battle for an adapter: chance nodes resolved by seeded dice
(:class:`~engine.game.drivers.SeededDice`, the dice of ``killteam play --seed``), actions
given as integers of the action codec (:mod:`engine.envs.codec`) checked before anything
changes, observations as the arrays of :mod:`engine.envs.observation` with the action mask.

Rewards (``reward=``):

- ``"result"`` (default): +1 to the winner, -1 to the loser, 0 to both for a draw, given at
  the end of the battle (``rules/KT24.md`` 1.8); 0 at every other step.
- ``"vp"``: shaped: at every step each player gets the change of its VP lead (its VP minus
  the opponent's) over that step, chance nodes included; over a whole battle they add up to
  the final VP difference (zero-sum at every step).

Bad input never changes anything: :meth:`EnvBattle.action` checks the index (an integer,
in range, legal at this decision, the battle not over) and raises :class:`EnvError`
naming what is wrong before the battle moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from engine import RULESET
from engine.envs.codec import ACTION_SPACE_SIZE, CODEC_RULESETS, ActionCodec, CodecError
from engine.envs.observation import ObservationEncoder
from engine.errors import KillTeamError
from engine.game.actions import Action
from engine.game.drivers import SeededDice
from engine.game.state import Chance, Decision, GameState, Terminal, other
from engine.play import BattleError
from engine.play.matchup import Matchup, MatchupChoice, make_matchup

__all__ = [
    "PLAYERS",
    "REWARDS",
    "EnvBattle",
    "EnvConfig",
    "EnvError",
    "kwargs_config",
    "result_value",
    "vp_lead",
]

PLAYERS: tuple[str, str] = ("A", "B")
"""The engine's players, also the agent names of the multi-agent environments."""

REWARDS: tuple[str, ...] = ("result", "vp")
"""The reward options (module docstring)."""


class EnvError(KillTeamError, ValueError):
    """Bad input to an environment: an action that is not an integer, out of range or not
    legal at this decision, a step after the end of the battle, an unknown option. The
    message names what is wrong; the environment is unchanged."""


def _pair(name: str, value: Any) -> tuple[Any, Any]:
    """``value`` as a pair ``(A, B)`` (``None``: ``(None, None)``).

    Raises:
        EnvError: not a pair.
    """
    if value is None:
        return (None, None)
    if isinstance(value, str) or not isinstance(value, (tuple, list)) or len(value) != 2:
        raise EnvError(f"{name} must be a pair (A, B), got {value!r:.80}")
    return (value[0], value[1])


def _opt_pair(value: Any) -> tuple[str, str] | None:
    if value is None:
        return None
    a, b = _pair("teams and rosters", value)
    return (str(a), str(b))


def _tac_ops(value: Any) -> tuple[str | None, str | None]:
    return _pair("tac_ops", value)


def _primary_ops(value: Any) -> tuple[str | None, str | None]:
    return _pair("primary_ops", value)


def _equipment(value: Any) -> tuple[str | None, str | None]:
    return _pair("equipment", value)


@attrs.frozen(slots=True)
class EnvConfig:
    """A battle and the learning options of an environment (module docstring).

    Attributes:
        teams: two team references (built-in ids such as ``"legionaries"`` or team files),
            or ``None`` (``killteam play``'s defaults: the ruleset's, ``kasrkin legionaries``
            for KT24).
        rosters: two roster files instead of ``teams``.
        killzone: a shipped layout name or a layout file (``None``: ``open_ruins``).
        crit_op: the crit op's name (``None``: rolled at the start of the battle, 8.3).
        tac_ops, primary_ops: ``(A, B)``; ``None`` for a player lets that player select in
            secret (8.4, 8.1).
        equipment: ``(A, B)`` equipment selections as ``killteam play --equipment-a`` takes
            them (``"none"``, ``"Mines,Portable Barricade"``); ``None``: the player selects.
        reward: ``"result"`` or ``"vp"`` (module docstring).
        max_steps: the number of agent steps after which the episode is truncated
            (``None``: never; a battle always ends).
        ruleset: the rules edition, ``"kt24"`` or ``"kt21"`` (``None``: ``killteam play``'s
            default, kt24); it also picks the default teams (:func:`engine.play.default_teams`).
        mission: the mission or game sequence (``None``: the ruleset's default;
            :data:`engine.game.context.MISSIONS`).

    Raises:
        EnvError: an unknown reward, a ``max_steps`` that is not a positive integer, a pair
            option that is not a pair.
    """

    teams: tuple[str, str] | None = attrs.field(default=None, converter=_opt_pair)
    rosters: tuple[str, str] | None = attrs.field(default=None, converter=_opt_pair)
    killzone: str | None = None
    crit_op: str | None = None
    tac_ops: tuple[str | None, str | None] = attrs.field(default=(None, None), converter=_tac_ops)
    primary_ops: tuple[str | None, str | None] = attrs.field(
        default=(None, None), converter=_primary_ops
    )
    equipment: tuple[str | None, str | None] = attrs.field(
        default=(None, None), converter=_equipment
    )
    reward: str = "result"
    max_steps: int | None = None
    ruleset: str | None = None
    mission: str | None = None

    def __attrs_post_init__(self) -> None:
        if self.reward not in REWARDS:
            raise EnvError(f"reward must be one of {', '.join(REWARDS)}, got {self.reward!r:.60}")
        steps = self.max_steps
        if steps is not None and (
            isinstance(steps, bool) or not isinstance(steps, int) or steps < 1
        ):
            raise EnvError(f"max_steps must be a positive integer or None, got {steps!r:.60}")

    def matchup(self) -> Matchup:
        """The battle's :class:`~engine.play.matchup.Matchup` (``killteam play``'s checks).

        Raises:
            BattleError: a team, roster, killzone or mission choice that cannot be used (the
                message names it), or a ruleset whose actions the action codec does not
                encode (:data:`~engine.envs.codec.CODEC_RULESETS`).
        """
        ruleset = self.ruleset or RULESET
        if ruleset not in CODEC_RULESETS:
            raise BattleError(
                f"ruleset {ruleset!r:.60}: the environments' action codec encodes the actions "
                f"of {', '.join(CODEC_RULESETS)} only"
            )
        return make_matchup(
            MatchupChoice(
                teams=self.teams,
                rosters=self.rosters,
                killzone=self.killzone,
                equipment=self.equipment,
                crit_op=self.crit_op,
                tac_ops=self.tac_ops,
                primary_ops=self.primary_ops,
                ruleset=self.ruleset,
                mission=self.mission,
            )
        )


def result_value(state: GameState, player: str) -> float:
    """+1.0 when ``player`` won the finished battle ``state``, -1.0 when it lost, 0.0 for a
    draw or a battle not over (``rules/KT24.md`` 1.8)."""
    node = state.node
    if not isinstance(node, Terminal) or not node.result.winner:
        return 0.0
    return 1.0 if node.result.winner == player else -1.0


def vp_lead(state: GameState, player: str) -> int:
    """``player``'s VP minus its opponent's at ``state``."""
    return state.player(player).vp - state.player(other(player)).vp


class EnvBattle:
    """One battle driven for an environment adapter (module docstring).

    Attributes:
        config: the :class:`EnvConfig`.
        start: the battle's first state (immutable, shared by every episode).
        state: the current state: after :meth:`reset` and :meth:`apply` always a decision or
            the end (chance nodes are rolled at once).
        steps: agent steps (decisions applied) since the last reset.
        seed: the seed of the dice of the current battle.

    Raises:
        BattleError: the configuration's battle cannot be set up.
    """

    def __init__(self, config: EnvConfig) -> None:
        self.config = config
        self.matchup = config.matchup()
        self.start: GameState = self.matchup.new_game()
        self.codec = ActionCodec.for_state(self.start)
        self.encoder = ObservationEncoder.for_state(self.start)
        self.state: GameState = self.start
        self.dice = SeededDice(0)
        self.seed = 0
        self.steps = 0

    # -- episode --------------------------------------------------------------------------

    def reset(self, seed: int) -> dict[str, float]:
        """Start a new battle whose dice are ``SeededDice(seed)`` and roll up to the first
        decision.

        Returns:
            The rewards of the opening chance nodes by player (``"vp"``: the VP lead they
            gave; always 0 in practice).
        """
        self.seed = int(seed)
        self.dice = SeededDice(self.seed)
        self.state = self.start
        self.steps = 0
        return self._advance(self.start, self.start)

    @property
    def over(self) -> bool:
        """Whether the battle has ended."""
        return self.state.is_terminal

    @property
    def truncated(self) -> bool:
        """Whether the episode reached ``config.max_steps`` agent steps before the end."""
        limit = self.config.max_steps
        return limit is not None and self.steps >= limit and not self.over

    @property
    def to_play(self) -> str | None:
        """The deciding player, or ``None`` at the end."""
        node = self.state.node
        return node.player if isinstance(node, Decision) else None

    def action(self, index: object) -> Action:
        """The legal action of the current decision whose codec index is ``index``.

        Raises:
            EnvError: the battle is over or truncated, ``index`` is not an integer (numpy
                integers are accepted), is out of ``range(ACTION_SPACE_SIZE)``, or is masked
                (not legal here): the message names the index and the decision. Nothing
                changes.
        """
        if self.over:
            raise EnvError(
                f"the battle is over ({_result_text(self.state)}): call reset() before step()"
            )
        if self.truncated:
            raise EnvError(
                f"the episode was truncated after max_steps={self.config.max_steps} steps: "
                "call reset() before step()"
            )
        if isinstance(index, np.ndarray) and index.shape == ():
            index = index.item()
        try:
            return self.codec.decode(self.state, index)  # type: ignore[arg-type]
        except CodecError as exc:
            raise EnvError(str(exc)) from None

    def apply(self, action: Action, *, count: bool = True) -> dict[str, float]:
        """Apply the decision ``action`` (from :meth:`action`), then roll the chance nodes
        up to the next decision or the end; ``count``: it is an agent step (``steps``, the
        truncation's count).

        Returns:
            Each player's reward for this step (module docstring).
        """
        before = self.state
        after, _ = before.apply(action)
        self.steps += count
        return self._advance(before, after)

    def _advance(self, before: GameState, state: GameState) -> dict[str, float]:
        while isinstance(state.node, Chance):
            state, _ = state.apply(self.dice.roll(state))
        self.state = state
        if self.config.reward == "vp":
            gain = vp_lead(state, "A") - vp_lead(before, "A")
            return {"A": float(gain), "B": float(-gain)}
        return {p: result_value(state, p) for p in PLAYERS}

    # -- views ----------------------------------------------------------------------------

    def observation(self, player: str) -> dict[str, npt.NDArray[np.float32]]:
        """``player``'s view of the current state: the arrays of
        :meth:`ObservationEncoder.encode <engine.envs.observation.ObservationEncoder.encode>`
        (new arrays, ``float32``; the opponent's secrets hidden)."""
        return self.encoder.encode(self.state, player)

    def mask(self, player: str) -> npt.NDArray[np.bool_]:
        """A new ``bool`` array of shape ``(ACTION_SPACE_SIZE,)``: True exactly at the
        indices of ``player``'s legal actions (all False when another player decides, at the
        end, or once the episode is truncated)."""
        if self.to_play != player or self.truncated:
            return np.zeros(ACTION_SPACE_SIZE, dtype=np.bool_)
        return self.codec.mask(self.state)

    def info(self) -> dict[str, Any]:
        """A small new dict about the current state: the engine's ``step``, the turning
        point, the deciding player (``""`` at the end), VP of A and B, the seed, and the
        winner (``"A"``, ``"B"``, ``""`` for a draw) once the battle is over."""
        s = self.state
        out: dict[str, Any] = {
            "engine_step": s.step,
            "turning_point": s.tp,
            "to_play": self.to_play or "",
            "vp": (s.players[0].vp, s.players[1].vp),
            "seed": self.seed,
        }
        if isinstance(s.node, Terminal):
            out["winner"] = s.node.result.winner
        return out

    def render_text(self) -> str:
        """One line about the current state (turning point, phase, VP, the node)."""
        s = self.state
        return (
            f"TP{s.tp} {s.phase}: VP A {s.players[0].vp} B {s.players[1].vp}; "
            f"step {s.step}; {_node_text(s)}"
        )


def _node_text(state: GameState) -> str:
    node = state.node
    if isinstance(node, Decision):
        return f"{node.kind} decision of player {node.player}"
    if isinstance(node, Terminal):
        return _result_text(state)
    return "dice to roll"


def _result_text(state: GameState) -> str:
    node = state.node
    if not isinstance(node, Terminal):
        return "not over"
    r = node.result
    who = f"{r.winner} won" if r.winner else "a draw"
    return f"{who}, VP {r.vp[0]}-{r.vp[1]}"


def kwargs_config(kwargs: Mapping[str, Any]) -> EnvConfig:
    """An :class:`EnvConfig` from keyword arguments (its attribute names).

    Raises:
        EnvError: an unknown keyword (the message lists the known ones) or a bad value.
    """
    known = [a.name for a in attrs.fields(EnvConfig)]
    unknown = [k for k in kwargs if k not in known]
    if unknown:
        raise EnvError(f"unknown option {unknown[0]!r}: the options are {', '.join(known)}")
    try:
        return EnvConfig(**kwargs)
    except TypeError as exc:  # pragma: no cover - keywords checked above
        raise EnvError(str(exc)) from None
