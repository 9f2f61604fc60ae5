"""``killteam calc --ruleset kt21``: KT21 odds on the command line (``rules/KT21.md`` 10, 11);
values derived by hand in each docstring."""

from __future__ import annotations

import json

import pytest

from engine.cli import main

SHOOT = ["calc", "--ruleset", "kt21", "shoot", "-a", "1", "--hit", "3+", "-d", "3/4"]


def _json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main([*args, "--json"]) in (0, None)
    return json.loads(capsys.readouterr().out)


def test_kt21_calc_shoot_one_die_against_df3(capsys: pytest.CaptureFixture[str]) -> None:
    """One die at 3+ (3/4) vs DF 3, SV 3+: a normal hit (1/2) lands only if all three dice
    fail, (2/6)^3 = 1/27: P(3) = 1/54; a crit (1/6) lands with no 6 and at most one 3-5
    among three dice: (2/6)^3 + 3 x (3/6)(2/6)^2 = 11/54: P(4) = 11/324."""
    out = _json([*SHOOT, "--save", "3+", "-w", "10"], capsys)
    assert out["ruleset"] == "kt21"
    assert out["damage_pmf"]["3"] == pytest.approx(1 / 54)
    assert out["damage_pmf"]["4"] == pytest.approx(11 / 324)


def test_kt21_calc_invulnerable_and_cover(capsys: pytest.CaptureFixture[str]) -> None:
    """AP1 vs DF 3, SV 3+, invulnerable 4+, in cover. A normal hit is always blocked (a
    cover save is kept either way). Against a crit (1/6): SV with cover rolls 1 die at 3+
    (fails 2/6), declining rolls 2 at 3+ (fails 16/36), the invulnerable save with cover
    rolls 2 dice at 4+ and any 4+ blocks with the cover save (fails 1/4), declining rolls 3
    at 4+ (fails 3/8): the defender takes invulnerable + cover: P(4) = 1/6 x 1/4 = 1/24, and
    uses the invulnerable save exactly against a crit: 1/6."""
    args = [*SHOOT, "-r", "AP1", "--save", "3+", "-w", "10", "--invuln", "4+", "--cover"]
    out = _json(args, capsys)
    assert out["damage_pmf"] == {"0": pytest.approx(23 / 24), "4": pytest.approx(1 / 24)}
    assert out["invulnerable_probability"] == pytest.approx(1 / 6)
    assert out["target"]["invulnerable"] == "4+"


def test_kt21_calc_table_lists_rules_outside_the_odds(capsys: pytest.CaptureFixture[str]) -> None:
    """The table names the KT21 profile and reports Blast as not in the odds."""
    assert main([*SHOOT, "-r", 'Blast 2"', "--save", "4+", "-w", "8"]) in (0, None)
    out = capsys.readouterr().out
    assert "KT21" in out and "DF 3" in out
    assert "Not in these odds: Blast" in out


def test_kt21_calc_fight_combat_support(capsys: pytest.CaptureFixture[str]) -> None:
    """One die at WS 5+ with two supporters (3+, damage 3/4) against a fighter with no
    attack dice: 3 damage on 3-5 (1/2), 4 on a 6 (1/6)."""
    args = [
        "calc",
        "--ruleset",
        "kt21",
        "fight",
        "-a",
        "1",
        "--hit",
        "5+",
        "-d",
        "3/4",
        "-w",
        "10",
        "--enemy-attacks",
        "0",
        "--enemy-hit",
        "4+",
        "--enemy-damage",
        "3/4",
        "--enemy-wounds",
        "10",
        "--support",
        "2",
    ]
    out = _json(args, capsys)
    assert out["defender"]["damage_taken_pmf"] == {
        "0": pytest.approx(1 / 3),
        "3": pytest.approx(1 / 2),
        "4": pytest.approx(1 / 6),
    }


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        ([*SHOOT, "--save", "3+", "-w", "5", "--obscured"], "not a valid target"),
        ([*SHOOT, "--save", "3+", "-w", "5", "-r", "Piercing 1"], "unknown KT21 weapon rule"),
        ([*SHOOT, "--save", "3+", "-w", "5", "--invuln", "9+"], "invulnerable save"),
        (
            [
                "calc",
                "shoot",
                "-a",
                "1",
                "--hit",
                "3+",
                "-d",
                "3/4",
                "--save",
                "3+",
                "-w",
                "5",
                "--df",
                "2",
            ],
            "--df is a kt21 option",
        ),
    ],
)
def test_kt21_calc_bad_input_is_one_line(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad or KT24-only input exits 2 with one line naming the problem."""
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0]
