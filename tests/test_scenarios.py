"""Scenario files are tests (DESIGN.md "Testing"): every file under ``scenarios/`` replays
with strict scripted dice and its expectations pass; the runner reports a wrong
expectation, an unknown field and a missing roll with clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.agents.scenario_choices import best_choice
from engine.game.scenario_file import (
    ExpectationError,
    ScenarioFileError,
    ScenarioScriptError,
    load_scenario,
    run_scenario,
    shipped_scenarios,
)
from engine.rulesets import KT24, get

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
FILES = sorted(SCENARIOS.glob("*.toml"))


def test_every_edge_case_has_a_scenario() -> None:
    names = [p.name for p in FILES]
    for k in range(1, 16):
        assert any(n.startswith(f"edge_{k:02d}_") for n in names), f"no scenario for ruling {k}"


def test_scenarios_are_shipped() -> None:
    assert [p.name for p in shipped_scenarios()] == [p.name for p in FILES]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_replays(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# "), "each scenario starts with a comment header"
    ruleset = get(load_scenario(path).options.ruleset)  # the one its options name
    result = run_scenario(path, ruleset=ruleset, chooser=best_choice)
    assert result.events


def _write(tmp_path: Path, name: str, text: str) -> Path:
    (tmp_path / "teams").mkdir(exist_ok=True)
    for team in ("probe", "target"):
        src = SCENARIOS / "teams" / f"{team}.json"
        (tmp_path / "teams" / f"{team}.json").write_text(src.read_text(encoding="utf-8"))
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


_BASE = """
name = "runner check"
killzone = "open_ruins"
[teams.A]
team = "teams/probe.json"
operatives = ["Probe Trooper"]
[teams.B]
team = "teams/target.json"
operatives = ["Target Trooper"]
[position]
cp = [0, 0]
[position.operatives.PRO-1]
at = [14, 1]
[position.operatives.TAR-1]
at = [17, 1]
ready = false
counteracted = true
"""

_SHOOT = """
[[steps]]
name = "shoot"
actions = ["Activate PRO-1 engage", "Shoot PRO-1 rifle at TAR-1"]
"""


def test_wrong_expectation_is_reported(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        "wrong.toml",
        _BASE
        + _SHOOT
        + 'dice = ["6,6,6,6", "1,1,1"]\n[steps.expect.operatives.TAR-1]\nwounds = 7\n',
    )
    with pytest.raises(ExpectationError) as err:
        run_scenario(p, ruleset=KT24)
    msg = str(err.value)
    assert "wrong.toml" in msg and "step 1 ('shoot')" in msg
    assert "operatives.TAR-1" in msg and "expected 7" in msg


def test_wrong_illegal_reason_is_reported(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        "reason.toml",
        _BASE
        + '[[steps]]\nactions = ["Activate PRO-1 engage"]\n[steps.expect]\n'
        + 'illegal = [{ action = "Fall Back PRO-1 to 12,1", reason = "9.9" }]\n',
    )
    with pytest.raises(ExpectationError, match=r"does not contain '9\.9'"):
        run_scenario(p, ruleset=KT24)


def test_unknown_field_is_reported(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        "unknown.toml",
        _BASE + "[[steps]]\nactions = []\n[steps.expect.operatives.TAR-1]\nwound = 7\n",
    )
    with pytest.raises(ScenarioFileError) as err:
        load_scenario(p)
    msg = str(err.value)
    assert "unknown.toml" in msg and "steps[1].expect.operatives.TAR-1" in msg
    assert "unknown field 'wound'" in msg


def test_unknown_top_level_field_is_reported(tmp_path: Path) -> None:
    p = _write(tmp_path, "top.toml", "colour = 3\n" + _BASE)
    with pytest.raises(ScenarioFileError, match="top level: unknown field 'colour'"):
        load_scenario(p)


def test_missing_roll_is_reported(tmp_path: Path) -> None:
    shoot_then_end = _SHOOT.replace('rifle at TAR-1"]', 'rifle at TAR-1", "End activation"]')
    p = _write(tmp_path, "missing.toml", _BASE + shoot_then_end + 'dice = ["6,6,6,6"]\n')
    with pytest.raises(ScenarioScriptError) as err:
        run_scenario(p, ruleset=KT24)
    msg = str(err.value)
    assert "missing.toml" in msg and "step 1 ('shoot')" in msg
    assert "before action 3 (End activation)" in msg
    assert "3 dice for player B" in msg and "no roll left" in msg


def test_wrong_roll_size_and_leftover_rolls_are_reported(tmp_path: Path) -> None:
    p = _write(tmp_path, "size.toml", _BASE + _SHOOT + 'dice = ["6,6,6", "1,1,1"]\n')
    with pytest.raises(ScenarioScriptError, match=r"scripted roll 1 .* 4 dice"):
        run_scenario(p, ruleset=KT24)
    p = _write(tmp_path, "left.toml", _BASE + _SHOOT + 'dice = ["6,6,6,6", "1,1,1", "2"]\n')
    with pytest.raises(ScenarioScriptError, match=r"1 scripted roll.* not used"):
        run_scenario(p, ruleset=KT24)


def test_rejected_action_is_reported(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        "rejected.toml",
        _BASE
        + '[[steps]]\nactions = ["Activate PRO-1 engage", "Fight PRO-1 big blade at TAR-1"]\n',
    )
    with pytest.raises(ScenarioScriptError, match=r"action 2 \(Fight PRO-1 big blade at TAR-1\)"):
        run_scenario(p, ruleset=KT24)


def test_bad_position_and_team_are_reported(tmp_path: Path) -> None:
    p = _write(tmp_path, "pos.toml", _BASE.replace("at = [14, 1]", "at = [14, 1, 2, 3]"))
    with pytest.raises(ScenarioFileError, match=r"position\.operatives\.PRO-1\.at"):
        load_scenario(p)
    p = _write(tmp_path, "team.toml", _BASE.replace('"Probe Trooper"]', '"Probe Gunner"]'))
    with pytest.raises(ScenarioFileError, match="no operative 'Probe Gunner'"):
        load_scenario(p)


def test_kill_grade_expectation_is_checked(tmp_path: Path) -> None:
    # Shooting TAR-1 (Save 4+, 8W) with 4 crits (4 x 4 = 16 damage, defence 1,1,1 saves
    # nothing) incapacitates it: 1 kill of B's 1 starting operative gives A grade 5 (the
    # kills needed for 1 starting operative are 1 for every grade), B stays at 0.
    shoot = _BASE + _SHOOT + 'dice = ["6,6,6,6", "1,1,1"]\n'
    p = _write(tmp_path, "grade.toml", shoot + "[steps.expect]\nkill_grade = [5, 0]\n")
    assert run_scenario(p, ruleset=KT24).events
    p = _write(tmp_path, "grade_wrong.toml", shoot + "[steps.expect]\nkill_grade = [1, 0]\n")
    with pytest.raises(ExpectationError, match=r"kill_grade: expected A 1, B 0; got A 5, B 0"):
        run_scenario(p, ruleset=KT24)
    p = _write(tmp_path, "grade_bad.toml", shoot + '[steps.expect]\nkill_grade = ["1", 0]\n')
    with pytest.raises(ScenarioFileError, match=r"steps\[1\]\.expect\.kill_grade"):
        load_scenario(p)


def test_effects_expectation_is_checked(tmp_path: Path) -> None:
    # The Crit Gun's lone crit (6; the 1s fail) has Stun: TAR-1 (it survives: Devastating 2,
    # and the crit is saved by one of its two 6s) gets APL -1 until the end of its next
    # activation, an "apl" effect of value -1 from PRO-1.
    crit = _BASE + (
        '[[steps]]\nactions = ["Activate PRO-1 engage", "Shoot PRO-1 crit gun at TAR-1"]\n'
        'dice = ["6,1,1,1", "6,6"]\n[steps.expect]\n'
    )
    ok = crit + 'effects = [{ kind = "apl", op = "TAR-1", value = -1, source = "PRO-1" }]\n'
    assert run_scenario(_write(tmp_path, "ok.toml", ok), ruleset=KT24).events
    bad = crit + 'no_effects = [{ kind = "apl", op = "TAR-1" }]\n'
    with pytest.raises(ExpectationError, match=r"no_effects: apl \{op = 'TAR-1'\} is active"):
        run_scenario(_write(tmp_path, "bad.toml", bad), ruleset=KT24)
    wrong = crit + 'effects = [{ kind = "apl", op = "TAR-1", value = -2 }]\n'
    with pytest.raises(ExpectationError, match=r"effects: expected apl .* found 0 \(\{op='TAR-1'"):
        run_scenario(_write(tmp_path, "wrong.toml", wrong), ruleset=KT24)
    count = crit + 'effects = [{ kind = "apl", op = "TAR-1", count = 2 }]\n'
    with pytest.raises(ExpectationError, match=r"effects: expected 2 x apl .* found 1"):
        run_scenario(_write(tmp_path, "count.toml", count), ruleset=KT24)
    field = crit + 'effects = [{ kind = "apl", who = "TAR-1" }]\n'
    with pytest.raises(ScenarioFileError, match=r"steps\[1\]\.expect\.effects\[1\]: unknown"):
        load_scenario(_write(tmp_path, "field.toml", field))
