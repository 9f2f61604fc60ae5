"""The bounds the heuristic agent prunes move destinations with
(:mod:`engine.agents.position`): leaving a destination out is only safe when its bound is
never below its exact value, and when giving up on an exposure means it really exceeds the
limit. Checked at many spots of real mid-battle states of both shipped killzones (random
agents play up to firefight decisions), the exact value computed by the unpruned code."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.advice.view import DecisionView
from engine.agents import RandomAgent
from engine.agents.position import (
    EXPOSURE_WEIGHT,
    exposure,
    melee_minded,
    position_bound,
    position_value,
    shot_bounds,
)
from engine.game.drivers import SeededDice
from engine.game.state import Decision, GameState
from engine.geometry import load_killzone
from engine.rulesets import new_game
from engine.teams import load_builtin_team


def action_states(killzone: str, seed: int, count: int) -> list[GameState]:
    """``count`` firefight action decisions of a random battle (every third one)."""
    kz = load_killzone(killzone)
    s = new_game(
        kz, load_builtin_team("kasrkin").default(), load_builtin_team("legionaries").default()
    )
    agents = {"A": RandomAgent(seed), "B": RandomAgent(seed + 1)}
    dice = SeededDice(seed)
    out: list[GameState] = []
    seen = 0
    while not s.is_terminal and len(out) < count:
        if isinstance(s.node, Decision):
            if s.node.kind == "action":
                seen += 1
                if seen % 3 == 0:
                    out.append(s)
            a = agents[s.node.player].act(s)
        else:
            a = dice.roll(s)
        s, _ = s.apply(a)
    return out


@pytest.mark.parametrize("killzone", ["open_ruins", "close_quarters"])
def test_position_bound_is_never_below_the_exact_value(killzone: str) -> None:
    rng = np.random.default_rng(7)
    checked = pruned = 0
    for state in action_states(killzone, seed=3, count=6):
        w = DecisionView(state)
        o = w.op(w.top.op)
        melee = melee_minded(w, o)
        shots = shot_bounds(w, o)
        for _ in range(25):
            x = float(rng.uniform(1, w.kz.width - 1))
            y = float(rng.uniform(1, w.kz.depth - 1))
            p = w.ctx.placement(o.id, round(x, 3), round(y, 3), 0.0)
            for can_shoot in (False, True):
                exact = position_value(w, o, p, can_shoot=can_shoot, melee=melee)
                bound = position_bound(w, o, p, can_shoot=can_shoot, melee=melee, shots=shots)
                assert bound >= exact
                danger = exposure(w, o, p, o.order)
                tighter = position_bound(
                    w, o, p, can_shoot=can_shoot, melee=melee, shots=shots, exposure_value=danger
                )
                assert exact <= tighter <= bound
                # The exact value from a known exposure is the same number.
                again = position_value(
                    w, o, p, can_shoot=can_shoot, melee=melee, exposure_value=danger
                )
                assert again == exact
                checked += 1
                pruned += bound - exact > 0.05
    assert checked == 6 * 25 * 2
    assert pruned > 0  # the bound is not trivially the exact value


@pytest.mark.parametrize("killzone", ["open_ruins", "close_quarters"])
def test_exposure_gives_up_only_above_the_limit(killzone: str) -> None:
    # Given up (inf) only when the exact exposure exceeds the limit; otherwise the same
    # number as without a limit.
    rng = np.random.default_rng(11)
    gave_up = 0
    for state in action_states(killzone, seed=5, count=6):
        w = DecisionView(state)
        o = w.op(w.top.op)
        for _ in range(20):
            x = float(rng.uniform(1, w.kz.width - 1))
            y = float(rng.uniform(1, w.kz.depth - 1))
            p = w.ctx.placement(o.id, round(x, 3), round(y, 3), 0.0)
            exact = exposure(w, o, p, o.order)
            for limit in (0.0, 0.05, 0.2, exact, exact / EXPOSURE_WEIGHT):
                got = exposure(w, o, p, o.order, give_up_above=limit)
                if got == math.inf:
                    gave_up += 1
                    assert exact > limit - 1e-9
                else:
                    assert got == exact
    assert gave_up > 0
