"""The ``killteam calc`` command line: the JSON contract, tables and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.cli import main
from engine.dice import AttackProfile, Fighter, Target, fight, shoot

SHOOT = [
    "calc",
    "shoot",
    "--attacks",
    "4",
    "--hit",
    "3+",
    "--damage",
    "3/4",
    "--rules",
    "Lethal 5+, Piercing 1",
    "--save",
    "3+",
    "--wounds",
    "12",
]
FIGHT = [
    "calc",
    "fight",
    "--attacks",
    "4",
    "--hit",
    "3+",
    "--damage",
    "4/5",
    "--wounds",
    "12",
    "--enemy-attacks",
    "4",
    "--enemy-hit",
    "3+",
    "--enemy-damage",
    "3/4",
    "--enemy-wounds",
    "12",
]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_calc_shoot_json_matches_the_dice_core(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([*SHOOT, "--cover", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    exact = shoot(
        AttackProfile.parse(4, "3+", "3/4", "Lethal 5+, Piercing 1"), Target(3, 12, in_cover=True)
    )
    assert data["damage_pmf"] == {str(k): p for k, p in exact.damage.to_floats().items()}
    assert data["expected_damage"] == pytest.approx(float(exact.expected_damage), abs=1e-15)
    assert data["kill_probability"] == pytest.approx(float(exact.kill_probability), abs=1e-15)
    assert sum(data["damage_pmf"].values()) == pytest.approx(1.0, abs=1e-12)
    assert data["target"] == {
        "save": "3+",
        "wounds": 12,
        "cover": True,
        "obscured": False,
        "improved_cover": False,
    }
    assert data["profile"]["rules"] == "Lethal 5+, Piercing 1"
    assert data["hot_damage_pmf"] is None


def test_calc_fight_json_has_both_sides(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([*FIGHT, "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    exact = fight(
        Fighter(AttackProfile.parse(4, "3+", "4/5"), 12),
        Fighter(AttackProfile.parse(4, "3+", "3/4"), 12),
    )
    for side, outcome in (("attacker", exact.attacker), ("defender", exact.defender)):
        assert data[side]["incapacitated_probability"] == pytest.approx(
            float(outcome.incapacitated_probability), abs=1e-15
        )
        assert data[side]["damage_taken_pmf"] == {
            str(k): p for k, p in outcome.damage_taken.to_floats().items()
        }
    assert data["policies"] == {"attacker": "optimal", "defender": "optimal"}
    assert data["first"] == "attacker"


def test_calc_fight_policy_option_changes_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    _, optimal, _ = run([*FIGHT, "--json"], capsys)
    _, strike, _ = run([*FIGHT, "--json", "--policy", "strike"], capsys)
    assert json.loads(strike)["policies"]["attacker"] == "strike"
    assert json.loads(optimal)["attacker"] != json.loads(strike)["attacker"]


def test_calc_shoot_table_shows_headline_figures(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(SHOOT, capsys)
    assert code == 0
    assert "P(>=)" in out and "Expected damage" in out and "Kill probability" in out


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (["--hit", "7+"], "Hit '7+' is out of range"),
        (["--damage", "3"], "damage '3' must be normal/critical"),
        (["--rules", 'Rang 8"'], "unknown weapon rule 'Rang 8\"'"),
        (["--save", "1+"], "Save '1+' is out of range"),
    ],
    ids=["hit-7+", "damage-without-crit", "unknown-rule", "save-1+"],
)
def test_bad_input_exits_2_with_one_line(
    change: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = list(SHOOT)
    i = args.index(change[0])
    args[i + 1] = change[1]
    code, out, err = run(args, capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err
    assert "Traceback" not in err


def test_console_script_runs_and_fails_cleanly() -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "engine.cli", *SHOOT, "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0 and "damage_pmf" in json.loads(ok.stdout)
    bad = subprocess.run(
        [sys.executable, "-m", "engine.cli", "calc", "shoot", "--hit", "7+"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and bad.stderr.count("\n") == 1


def test_cover_save_option_retain_decline_and_best(capsys: pytest.CaptureFixture[str]) -> None:
    # One crit-heavy attack against one defence die (Piercing 2): a retained normal cover
    # save cannot block a crit, so declining it (and rolling for a 6) is better.
    base = [
        "calc",
        "shoot",
        "--attacks",
        "1",
        "--hit",
        "2+",
        "--damage",
        "3/6",
        "--rules",
        "Lethal 2+, Piercing 2",
        "--save",
        "4+",
        "--wounds",
        "10",
        "--cover",
        "--json",
    ]
    results = {}
    for choice in ("best", "retain", "decline"):
        code, out, _ = run([*base, "--cover-save", choice], capsys)
        assert code == 0
        results[choice] = json.loads(out)["expected_damage"]
    # 1 die at Lethal 2+: crit with P 5/6. Retained cover: crit unblocked, 6 * 5/6 = 5.
    assert results["retain"] == pytest.approx(5.0)
    # Declined: the rolled die blocks the crit on a 6: 6 * 5/6 * 5/6 = 25/6.
    assert results["decline"] == pytest.approx(25 / 6)
    assert results["best"] == pytest.approx(25 / 6)
