"""Complete scenario positions (engine.game.scenario_state): a position started in a phase
and step is the state a real battle has there (the same frames, never a stand-in), and the
position tables (players' counters, effects in force, the mission's state, the operatives'
counters) reach the state as written (rules/KT24.md 1.2-1.5, 7.1, 8)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from engine.game.context import GameOptions
from engine.game.scenario import ScenarioError, position, start_position
from engine.game.setup import start_battle
from engine.game.state import Chance, Decision, GameState
from engine.geometry import load_killzone
from engine.rulesets import KT24
from engine.teams.io import load_team
from engine.teams.model import Roster

KZ = load_killzone("scenarios/killzones/range.toml")
PROBE = Roster.from_entries(load_team("scenarios/teams/probe.json"), ["Probe Trooper"])
TARGET = Roster.from_entries(load_team("scenarios/teams/target.json"), ["Target Trooper"])
KILL_OP = GameOptions(mission="kill_op")
DEPLOYED = {
    "PRO-1": {"at": (1.5, 5), "order": "conceal"},
    "TAR-1": {"at": (28.5, 5), "order": "conceal"},
}
SELECTED = {"equipment selected": 1}  # the equipment selection's own counter, once per battle


def _differences(real: GameState, built: GameState) -> dict[str, Any]:
    """The state fields in which two states differ (the step counter and the context
    excepted: a position has played no input, and the context is the same battle's)."""
    skip = {"ctx", "step", "_memo"}
    out = {}
    for f in attrs.fields(GameState):
        if f.name not in skip and getattr(real, f.name) != getattr(built, f.name):
            out[f.name] = (getattr(real, f.name), getattr(built, f.name))
    return out


def _play(state: GameState, *actions: str) -> GameState:
    for a in actions:
        state, _ = state.apply(a)
    return state


def _real_to_deployment() -> GameState:
    """A real battle: the set-up roll-off (A wins), A takes initiative and drop zone A,
    both players select no equipment."""
    s = start_battle(KZ, PROBE, TARGET, KILL_OP, KT24)
    return _play(s, "roll 6,1", "Initiative A", "Drop zone A", "Equipment done", "Equipment done")


def _pos(**kwargs: Any) -> GameState:
    return position(KZ, PROBE, TARGET, options=KILL_OP, ruleset=KT24, **kwargs)


def test_deployment_position_is_the_real_deployment() -> None:
    """1.2: after the drop zones and the equipment selection, deployment starts with the
    initiative player; the player without initiative holds the re-roll card (Approved Ops
    2025 initiative cards, on by default). The position names the selection's counter."""
    real = _real_to_deployment()
    built = _pos(phase="deployment", players={"A": {"uses": SELECTED}, "B": {"uses": SELECTED}})
    assert real.node == Decision("A", "deploy")
    assert _differences(real, built) == {}


def test_deployment_position_part_way_is_the_real_one() -> None:
    """1.2: deployment alternates thirds of each kill team (one operative each here): with
    A's operative set up it is B's turn to deploy."""
    real = _play(_real_to_deployment(), "Deploy PRO-1 at 1.5,5")
    built = _pos(
        phase="deployment",
        operatives={"PRO-1": DEPLOYED["PRO-1"]},
        players={"A": {"uses": SELECTED}, "B": {"uses": SELECTED}},
    )
    assert real.node == Decision("B", "deploy")
    assert _differences(real, built) == {}


def test_deployment_position_refuses_an_impossible_count() -> None:
    """1.2: groups of a third alternate, the initiative player first: with two operatives
    (groups 1 and 1) against one, A's second operative is set up only after B's; both of
    A's set up and none of B's is no point of a deployment. An operative outside its drop
    zone is refused as the deployment refuses it."""
    two = Roster.from_entries(PROBE.team, ["Probe Trooper", "Probe Trooper"])
    with pytest.raises(ScenarioError, match="not a point deployment reaches"):
        position(
            KZ,
            two,
            TARGET,
            options=KILL_OP,
            ruleset=KT24,
            phase="deployment",
            operatives={"PRO-1": {"at": (1.5, 5)}, "PRO-2": {"at": (1.5, 9)}},
        )
    with pytest.raises(ScenarioError, match="drop zone"):
        _pos(phase="deployment", operatives={"PRO-1": {"at": (10, 5)}})
    with pytest.raises(ScenarioError, match="before the equipment step"):
        _pos(phase="deployment", step="equipment", operatives={"PRO-1": DEPLOYED["PRO-1"]})


def _real_to_strategy() -> GameState:
    return _play(_real_to_deployment(), "Deploy PRO-1 at 1.5,5", "Deploy TAR-1 at 28.5,5")


USED = {"A": {"uses": SELECTED}, "B": {"uses": SELECTED}}


def test_strategy_position_is_the_real_first_initiative_step() -> None:
    """1.4: with initiative cards the first turning point's initiative is rolled off too:
    the Strategy phase starts with that roll (a chance node of two dice)."""
    real = _real_to_strategy()
    built = _pos(phase="strategy", operatives=DEPLOYED, players=USED)
    assert isinstance(real.node, Chance) and real.node.request.kind == "roll_off"
    assert _differences(real, built) == {}


def test_strategy_position_with_the_roll_made_is_the_real_one() -> None:
    """1.4: A rolls 4, B 2: B, the loser, may play a card first (it holds the re-roll)."""
    real = _play(_real_to_strategy(), "roll 4,2")
    built = _pos(phase="strategy", operatives=DEPLOYED, players=USED, initiative_roll=(4, 2))
    assert real.node == Decision("B", "initiative_card")
    assert _differences(real, built) == {}


GAMBIT_PLAYERS = {"A": {"uses": SELECTED}, "B": {"uses": SELECTED, "cards": ["1", "re-roll"]}}


def test_gambit_position_is_the_real_gambit_step() -> None:
    """1.4: A wins the roll-off and keeps initiative; B, the loser, gains the TP1 card; the
    Ready step gives each player 1CP in the first turning point (2 + 1 = 3); the Gambit
    step starts with the initiative player."""
    real = _play(_real_to_strategy(), "roll 4,2", "Pass", "Pass", "Initiative A")
    built = _pos(
        phase="strategy", step="gambit", operatives=DEPLOYED, players=GAMBIT_PLAYERS, cp=(3, 3)
    )
    assert real.node == Decision("A", "gambit")
    assert _differences(real, built) == {}


def test_ready_position_runs_the_real_ready_step() -> None:
    """1.4: a position before the Ready step gains the CP as it starts (TP1: 1 each) and
    reaches the Gambit step; its start events say so."""
    built, events = start_position(
        KZ,
        PROBE,
        TARGET,
        options=KILL_OP,
        ruleset=KT24,
        phase="strategy",
        step="ready",
        operatives=DEPLOYED,
        cp=(2, 2),
    )
    assert [p.cp for p in built.players] == [3, 3]
    assert [dict(e.data)["cp"] for e in events if e.kind == "cp_gained"] == [1, 1]
    assert built.node == Decision("A", "gambit")


def test_firefight_position_is_the_real_firefight_phase() -> None:
    """1.5: after both players pass in the Gambit step, the initiative player activates."""
    real = _play(_real_to_strategy(), "roll 4,2", "Pass", "Pass", "Initiative A", "Pass", "Pass")
    built = _pos(operatives=DEPLOYED, players=GAMBIT_PLAYERS, cp=(3, 3))
    assert real.node == Decision("A", "activate")
    assert _differences(real, built) == {}


def test_end_position_is_the_real_end_of_the_turning_point() -> None:
    """1.5, 1.3: once every operative is expended the turning point ends and the next one
    starts with its initiative roll-off; the position at the end of the turning point
    reaches the very same state."""
    real = _play(
        _real_to_strategy(),
        *("roll 4,2", "Pass", "Pass", "Initiative A", "Pass", "Pass"),
        *("Activate PRO-1 conceal", "End activation", "Activate TAR-1 conceal", "End activation"),
    )
    expended = {k: {**v, "ready": False} for k, v in DEPLOYED.items()}
    built, events = start_position(
        KZ,
        PROBE,
        TARGET,
        options=KILL_OP,
        ruleset=KT24,
        phase="end",
        operatives=expended,
        players=GAMBIT_PLAYERS,
        cp=(3, 3),
    )
    assert isinstance(real.node, Chance) and real.tp == 2
    diff = _differences(real, built)
    # The operatives of the real battle keep what their activation left (``ap_gained``):
    # the same operatives otherwise.
    ops = diff.pop("operatives", None)
    assert diff == {}
    if ops is not None:
        strip = [attrs.evolve(o, ap_gained=False) for o in ops[0]]
        assert tuple(strip) == ops[1]
    assert [e.kind for e in events if e.kind.startswith("turning_point")][:2] == [
        "turning_point_ending",
        "turning_point_ended",
    ]


def test_end_position_refuses_a_ready_operative() -> None:
    """1.5: the Firefight phase ends only when no operative is ready."""
    with pytest.raises(ScenarioError, match=r"PRO-1.ready.*1\.5"):
        _pos(phase="end", operatives={"PRO-1": {"at": (1.5, 5), "ready": True}})


def test_setup_position_is_the_new_battle() -> None:
    """1.2: before the set-up roll-off nothing is decided and no operative is set up."""
    built = _pos(phase="setup")
    assert _differences(start_battle(KZ, PROBE, TARGET, KILL_OP, KT24), built) == {}
    with pytest.raises(ScenarioError, match="before deployment"):
        _pos(phase="setup", operatives={"PRO-1": {"at": (1.5, 5)}})


def test_unknown_phase_and_step_are_refused() -> None:
    """Only the phases and steps of 1.2-1.5 exist."""
    with pytest.raises(ScenarioError, match="'lunch' is not one of"):
        _pos(phase="lunch", operatives=DEPLOYED)
    with pytest.raises(ScenarioError, match="not a step of the strategy phase"):
        _pos(phase="strategy", step="deploy", operatives=DEPLOYED)


def test_first_turning_point_without_cards_has_no_initiative_roll() -> None:
    """1.4 (core, no initiative cards): the first turning point keeps the set-up's
    initiative, so a roll-off already made there is refused."""
    opts = GameOptions(mission="kill_op", initiative_cards=False)
    with pytest.raises(ScenarioError, match="no roll-off"):
        position(
            KZ,
            PROBE,
            TARGET,
            options=opts,
            ruleset=KT24,
            phase="strategy",
            operatives=DEPLOYED,
            initiative_roll=(4, 2),
        )
