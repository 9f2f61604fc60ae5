"""Hidden information (``rules/KT24.md`` 8.1, 8.4; issue: "the opponent's tac op and primary
op stay hidden until revealed"): in random battles of the whole pack, at decisions of one
player, the state's legal actions and that player's observation are the same whatever the
opponent's unrevealed tac op and primary op are, and no observation shows an opponent's
secret before it is revealed."""

from __future__ import annotations

import attrs
import pytest

from engine.agents import RandomAgent
from engine.game import GameState
from engine.game.drivers import SeededDice
from engine.game.observation import HIDDEN, observe
from engine.game.state import Chance, Decision
from engine.game.work import Work
from engine.geometry import load_killzone
from engine.missions.pack import PRIMARY_CHOICES, tac_ops_for
from engine.rulesets import new_game
from engine.teams import load_builtin_team

# Pairs that share archetypes, so both players may hold the same tac ops.
TEAMS = (("kasrkin", "legionaries"), ("pathfinders", "hierotek_circle"))


def _variant(s: GameState, player: str, tac: str, primary: str) -> GameState:
    """``s`` with ``player``'s tac op and primary op replaced."""
    k = 0 if player == "A" else 1
    tac_ops = list(s.mission.tac_ops)
    primary_ops = list(s.mission.primary_ops)
    tac_ops[k], primary_ops[k] = tac, primary
    w = Work(s)
    w.mission = attrs.evolve(
        w.mission, tac_ops=(tac_ops[0], tac_ops[1]), primary_ops=(primary_ops[0], primary_ops[1])
    )
    w.node = s.node
    return w.freeze()


def _secrets_hidden(s: GameState, viewer: str) -> None:
    opp = 1 if viewer == "A" else 0
    seen = observe(s, viewer).mission
    m = s.mission
    if s.phase != "over":
        if m.tac_ops[opp] and not m.tac_revealed[opp]:
            assert seen.tac_ops[opp] == HIDDEN
        if m.primary_ops[opp]:
            assert seen.primary_ops[opp] == HIDDEN
    other = "B" if viewer == "A" else "A"
    assert not any(key.startswith(f"secret:{other}:") for key, _ in seen.facts)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_8_legal_actions_and_observations_do_not_depend_on_the_opponents_secrets(
    seed: int,
) -> None:
    teams = TEAMS[seed % len(TEAMS)]
    rosters = [load_builtin_team(t).default() for t in teams]
    kz = load_killzone("open_ruins" if seed % 2 else "close_quarters")
    s = new_game(kz, rosters[0], rosters[1])
    agents = {"A": RandomAgent(seed * 7), "B": RandomAgent(seed * 7 + 1)}
    dice = SeededDice(seed)
    checked = 0
    decisions = 0
    while not s.is_terminal:
        node = s.node
        if isinstance(node, Decision):
            decisions += 1
            viewer = node.player
            _secrets_hidden(s, viewer)
            opp = "B" if viewer == "A" else "A"
            k = 0 if opp == "A" else 1
            if (
                ((node.kind == "action" and s.tp >= 2) or decisions % 11 == 0)
                and s.mission.tac_ops[k]
                and not s.mission.tac_revealed[k]
                and s.mission.primary_ops[k]
            ):
                legal = [str(a) for a in s.legal_actions()]
                view = observe(s, viewer)
                team = s.ctx.rosters[opp].team
                for spec in tac_ops_for(team.archetypes):
                    for primary in PRIMARY_CHOICES:
                        v = _variant(s, opp, spec.name, primary)
                        assert [str(a) for a in v.legal_actions()] == legal, (spec.name, primary)
                        assert observe(v, viewer) == view
                checked += 1
            action = agents[viewer].act(s)
        else:
            assert isinstance(node, Chance)
            action = dice.roll(s)
        s, _ = s.apply(action)
    assert checked > 0  # the property was tested at some decisions
    final = observe(s, "A").mission
    assert HIDDEN not in final.tac_ops + final.primary_ops  # all revealed at the end
