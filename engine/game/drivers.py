"""Chance drivers and the play loop (DESIGN.md principle 4).

The rules never touch a random generator: at a :class:`~engine.game.state.Chance` node a
driver picks the outcome.

- :class:`SeededDice`: a numpy ``Generator`` from a seed (the seed lives in the record, never
  in the state); each die is uniform, so multisets come up with their multinomial weights.
- :class:`ScriptedDice`: outcomes from a script, strictly: asking for a roll the script lacks,
  or a scripted roll of the wrong size, raises :class:`ScriptError`.
- :func:`enumerate_outcomes`: every outcome with its exact integer weight (for analysis).

:func:`play` drives a state to the end with one agent per player and a dice driver. Each
agent sees only what its player may see (``rules/KT24.md`` 7.2, 8.1, 8.3, 8.4: the
opponent's secret selections): at its decisions it is handed the
:class:`~engine.game.observation.Observation` of its player
(:func:`~engine.game.observation.observe`; an :class:`ObservingAgent`), and the whole
:class:`~engine.game.state.GameState` only when it asks for it with a true class attribute
``sees_full_state`` (an :class:`Agent`: an oracle, an analysis, a test that reads the state).
:func:`agent_input` says what an agent is given and :func:`ask` asks it; everything that drives
agents goes through them. An observation gives an agent its legal actions and, for
look-ahead, a state holding no secret of the opponent (:meth:`Observation.redacted
<engine.game.observation.Observation.redacted>`, :meth:`Observation.determinised
<engine.game.observation.Observation.determinised>`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

import numpy as np

from engine.errors import KillTeamError
from engine.game.actions import Action, parse_action
from engine.game.events import Event
from engine.game.observation import Observation, observe
from engine.game.state import Chance, Decision, GameState

__all__ = [
    "Agent",
    "AnyAgent",
    "DiceDriver",
    "ObservingAgent",
    "ScriptError",
    "ScriptedDice",
    "SeededDice",
    "agent_input",
    "ask",
    "enumerate_outcomes",
    "play",
]


class ScriptError(KillTeamError, ValueError):
    """A scripted game asked for input the script does not have (or has the wrong kind)."""


class Agent(Protocol):
    """Anything that picks an action at a decision node, given the whole state or its
    player's observation.

    :func:`play` (and every driver using :func:`ask`) hands ``act`` the
    :class:`~engine.game.observation.Observation` of the deciding player, unless the agent has
    a true attribute ``sees_full_state`` (then the :class:`~engine.game.state.GameState`,
    secrets of the opponent included). The agents of :mod:`engine.agents` accept both: called
    directly with a state (search code, tests) they act on it.
    """

    def act(self, state: GameState | Observation, /) -> Action:  # pragma: no cover - protocol
        """The action to take at ``state`` (a :class:`Decision` node, or its observation by
        the deciding player)."""
        ...


class ObservingAgent(Protocol):
    """An agent that acts on what its player may see only: ``act(observation) -> Action``,
    ``observation`` the :class:`~engine.game.observation.Observation` of the deciding player
    (its ``legal_actions``; for look-ahead ``observation.redacted()`` or
    ``observation.determinised(rng)``)."""

    def act(self, observation: Observation, /) -> Action:  # pragma: no cover - protocol
        """The action to take at the observed decision."""
        ...


AnyAgent = Agent | ObservingAgent
"""What :func:`play` accepts for a player."""


def agent_input(agent: object, state: GameState) -> GameState | Observation:
    """What ``agent`` is given at ``state``, a :class:`Decision` node: the state itself when
    ``agent`` has a true attribute ``sees_full_state``, else the deciding player's
    :class:`~engine.game.observation.Observation`.

    Raises:
        ValueError: ``state`` is not a decision node.
    """
    node = state.node
    if not isinstance(node, Decision):
        raise ValueError(f"not a decision node: {node!r}")
    if getattr(agent, "sees_full_state", False):
        return state
    return observe(state, node.player)


def ask(agent: AnyAgent, state: GameState) -> Action:
    """``agent``'s action at ``state`` (a :class:`Decision` node), given what
    :func:`agent_input` says it may see.

    Raises:
        ValueError: ``state`` is not a decision node.
    """
    return agent.act(agent_input(agent, state))  # type: ignore[arg-type]


class DiceDriver(Protocol):
    """Anything that picks a chance outcome."""

    def roll(self, state: GameState) -> Action:  # pragma: no cover - protocol
        """The outcome at ``state`` (a :class:`Chance` node)."""
        ...


class SeededDice:
    """Dice from ``numpy.random.default_rng(seed)`` (module docstring)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def roll(self, state: GameState) -> Action:
        """A random outcome of the state's chance node.

        Raises:
            ValueError: when the state is not at a chance node.
        """
        node = state.node
        if not isinstance(node, Chance):
            raise ValueError(f"not a chance node: {node!r}")
        req = node.request
        values = tuple(int(v) for v in self.rng.integers(1, 7, size=req.dice))
        if not req.ordered:
            values = tuple(sorted(values, reverse=True))
        return Action("roll", values=values)


class ScriptedDice:
    """Dice from a script of outcomes (``"6,4,1"``, ``"roll 6,4,1"`` or :class:`Action`),
    used in order."""

    def __init__(self, rolls: Iterable[str | Action]) -> None:
        self.rolls: list[Action] = []
        for k, r in enumerate(rolls):
            if isinstance(r, Action):
                a = r
            else:
                text = r.strip()
                a = parse_action(text if text.lower().startswith("roll") else f"roll {text}")
            if a.verb != "roll":
                raise ScriptError(f"scripted roll {k + 1} is not a roll: {r!r}")
            self.rolls.append(a)
        self.used = 0

    def roll(self, state: GameState) -> Action:
        """The next scripted outcome.

        Raises:
            ScriptError: the script has no more rolls, or the next has the wrong number of dice.
        """
        node = state.node
        if not isinstance(node, Chance):
            raise ValueError(f"not a chance node: {node!r}")
        req = node.request
        if self.used >= len(self.rolls):
            raise ScriptError(
                f"the engine asks for {req.dice} {req.label} dice for player {req.player} but "
                f"the script has no more rolls (used {self.used})"
            )
        a = self.rolls[self.used]
        if len(a.values) != req.dice:
            raise ScriptError(
                f"scripted roll {self.used + 1} ({a}) has {len(a.values)} dice but the engine "
                f"asks for {req.dice} ({req.label}, player {req.player})"
            )
        self.used += 1
        values = a.values if req.ordered else tuple(sorted(a.values, reverse=True))
        return Action("roll", values=values)

    @property
    def left(self) -> int:
        """Scripted rolls not used yet."""
        return len(self.rolls) - self.used


def enumerate_outcomes(state: GameState) -> list[tuple[Action, int]]:
    """Every outcome of the chance node with its integer weight (they sum to 6^dice)."""
    return state.chance_outcomes()


def play(
    state: GameState,
    agents: Mapping[str, AnyAgent],
    dice: DiceDriver,
    *,
    on_step: Callable[[GameState, Action, str, GameState, list[Event]], None] | None = None,
    max_steps: int | None = None,
) -> GameState:
    """Play from ``state`` until the battle ends (or ``max_steps`` inputs).

    Args:
        agents: ``{"A": agent, "B": agent}``; each is handed its player's observation, or
            the whole state if it asks for it (``sees_full_state``, module docstring).
        dice: the chance driver.
        on_step: called after each input with ``(before, action, actor, after, events)``;
            ``actor`` is ``"A"``, ``"B"`` or ``"chance"``.

    Returns:
        The final state.
    """
    steps = 0
    while not state.is_terminal:
        node = state.node
        if isinstance(node, Chance):
            action, actor = dice.roll(state), "chance"
        else:
            assert isinstance(node, Decision)
            action, actor = ask(agents[node.player], state), node.player
        after, events = state.apply(action)
        if on_step is not None:
            on_step(state, action, actor, after, events)
        state = after
        steps += 1
        if max_steps is not None and steps >= max_steps:
            break
    return state
