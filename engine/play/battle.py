"""One seeded battle of a matchup, start to end (module docstring of :mod:`engine.play`:
the seeds)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.agents import make_agent
from engine.game.actions import Action
from engine.game.drivers import Agent, SeededDice, play
from engine.game.events import Event
from engine.game.state import GameState
from engine.play import agent_seeds
from engine.play.matchup import Matchup
from engine.play.summary import BattleSummary, OnStep, PloyTally, VpTally, summarise

__all__ = ["play_battle"]


def play_battle(
    matchup: Matchup,
    seed: int,
    *,
    on_step: OnStep | None = None,
    start: GameState | None = None,
    agents: Mapping[str, Agent] | None = None,
) -> tuple[GameState, BattleSummary]:
    """Play one battle of ``matchup`` decided by ``seed`` (module docstring: the dice are
    ``SeededDice(seed)``, the agents get :func:`agent_seeds`).

    Args:
        on_step: also called after each input with ``(before, action, actor, after, events)``.
        start: the battle's first state, when the caller needs it first (e.g. for a record
            header); default ``matchup.new_game()``.
        agents: the agents of A and B, when the caller needs them (e.g. to ask for their
            explanations); default ``make_agent`` of the matchup's agent names with the
            battle's agent seeds (:func:`engine.play.agent_seeds`).

    Returns:
        The final state and its summary.

    Raises:
        BattleError: the engine refuses the set-up.
        ValueError: a negative seed.
    """
    if seed < 0:
        raise ValueError(f"the seed must be non-negative, not {seed}")
    sa, sb = agent_seeds(seed)
    if agents is None:
        agents = {"A": make_agent(matchup.agents[0], sa), "B": make_agent(matchup.agents[1], sb)}
    tally = VpTally()
    ploys = PloyTally()

    def step(
        before: GameState, action: Action, actor: str, after: GameState, events: list[Event]
    ) -> None:
        tally.on_step(before, action, actor, after, events)
        ploys.on_step(before, action, actor, after, events)
        if on_step is not None:
            on_step(before, action, actor, after, events)

    final = play(
        matchup.new_game() if start is None else start,
        agents,
        SeededDice(seed),
        on_step=step,
        max_steps=matchup.options.max_steps,
    )
    return final, summarise(final, tally, ploys=ploys, seed=seed, agents=matchup.agents)
