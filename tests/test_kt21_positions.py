"""Scripted KT21 positions (engine.rules.kt21.positions, the ``position_frames`` hook): a
scenario position with ``ruleset = "kt21"`` starts in the KT21 flow's frames, the same a
real KT21 battle has at that point (rules/KT21.md 1-3), never KT24's."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from engine.game.context import GameOptions
from engine.game.flow import GambitFrame
from engine.game.scenario import ScenarioError, position
from engine.game.state import Chance, Decision, GameState, Terminal
from engine.geometry import load_killzone
from engine.rules.kt21.firefight import FirefightFrame
from engine.rules.kt21.setup import DeployFrame, SetupFrame
from engine.rules.kt21.turning_point import TurningPointFrame
from engine.rulesets import KT21, new_game
from engine.teams.io import load_team
from engine.teams.model import Roster

KZ = load_killzone("scenarios/killzones/range.toml")
TARGET = Roster.from_entries(load_team("scenarios/teams/kt21_target.json"), ["Target Trooper"])
PROBE = Roster.from_entries(load_team("scenarios/teams/kt21_probe.json"), ["Probe Trooper"])
OPTIONS = GameOptions(ruleset="kt21")
ON_FIELD = {"TAR-1": {"at": (3, 5)}, "PRO-1": {"at": (27, 5)}}


def _pos(**kw: Any) -> GameState:
    return position(KZ, TARGET, PROBE, options=OPTIONS, ruleset=KT21, **kw)


def test_firefight_position_runs_the_kt21_firefight_frame() -> None:
    """3: the default position (Firefight phase) is under the KT21 Firefight frame, inside
    the KT21 turning point."""
    s = _pos(operatives=ON_FIELD, tp=2)
    assert isinstance(s.stack[-1], FirefightFrame) and isinstance(s.stack[0], TurningPointFrame)
    assert s.node == Decision("A", "activate")


def test_setup_position_starts_with_the_attacker_defender_roll_off() -> None:
    """1.2 step 3: before the set-up, the first thing is the roll-off for the roles."""
    s = _pos(phase="setup")
    assert s.stack == (SetupFrame(),)
    assert isinstance(s.node, Chance) and s.node.request.kind == "roll_off"


def test_deployment_position_is_the_real_battles_state() -> None:
    """1.2 steps 3-8: a real battle where A wins the roll-off, is the Defender, takes drop
    zone A and both players select Security tac ops (step 5; none of its texts is sourced,
    so the three are unsourced, 15.3) reaches the same state as the deployment position
    naming A the Defender with 3CP each and those selections as the mission's facts (the
    step counter, the context and the events aside)."""
    real = new_game(KZ, TARGET, PROBE, OPTIONS)
    for a in ("roll 6,1", "Op defender A", "Drop zone A", "Op tac security", "Op tac security"):
        real, _ = real.apply(a)
    while real.node == Decision(getattr(real.node, "player", ""), "equipment_setup"):
        real, _ = real.apply(real.legal_actions()[0])  # the barricades (1.2 step 7)
    tac_ops = {f"secret:{p}:kt21 tac ops": ["Security", "", "", ""] for p in "AB"}
    built = _pos(
        phase="deployment",
        cp=(3, 3),
        players={"A": {"uses": {"kt21_defender": 1}}},
        mission={"facts": tac_ops},
    )
    assert isinstance(built.stack[-1], DeployFrame)
    skip = {"ctx", "step", "_memo", "tokens"}  # the barricades aside
    for f in attrs.fields(GameState):
        if f.name not in skip:
            assert getattr(real, f.name) == getattr(built, f.name), f.name


def test_strategic_ploys_position_under_way() -> None:
    """2.2 step 2: the strategic ploys step, B to choose, is the core's Gambit frame inside
    the KT21 turning point (Target Reveal next)."""
    s = _pos(operatives=ON_FIELD, tp=2, phase="strategy", step="gambit", gambit_turn="B")
    assert s.stack == (TurningPointFrame(stage="reveal"), GambitFrame(turn="B"))
    assert s.node == Decision("B", "gambit")


def test_end_of_the_last_turning_point_ends_the_battle() -> None:
    """1.1: the battle ends after the fourth turning point."""
    ops = {k: {**v, "ready": False} for k, v in ON_FIELD.items()}
    s = _pos(operatives=ops, tp=4, phase="end")
    assert isinstance(s.node, Terminal)


def test_first_turning_point_initiative_roll_is_refused_outside_lite() -> None:
    """2.1: TP1 initiative comes from the set-up (Critical Operations 2022): a roll-off
    given for it is a position the flow never reaches."""
    with pytest.raises(ScenarioError, match="no roll-off"):
        _pos(operatives=ON_FIELD, tp=1, phase="strategy", step="initiative", initiative_roll=(2, 5))
