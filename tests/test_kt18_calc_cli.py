"""``killteam calc --ruleset kt18 shoot|fight``: KT18 odds on the command line
(``docs/rules/KT18.md`` 3.11, 5.10, 6.2-6.11, 7.5, 7.6); values derived by hand in each
docstring, refusals checked for their one line."""

from __future__ import annotations

import json

import pytest

from engine.cli import main

SHOOT = ["calc", "--ruleset", "kt18", "shoot"]
FIGHT = ["calc", "--ruleset", "kt18", "fight"]
BOLTER = [*SHOOT, "--bs", "3+", "--s", "4", "--t", "4", "--sv", "3+"]


def _json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main([*args, "--json"]) in (0, None)
    return json.loads(capsys.readouterr().out)


def _exact(out: dict, kind: str) -> str:
    return next(o["exact"] for o in out["outcomes"] if o["outcome"] == kind)


def _error(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(args) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_kt18_calc_two_shots_one_injury_roll(capsys: pytest.CaptureFixture[str]) -> None:
    """6.2-6.9: one shot is unsaved with 4/6 x 3/6 x 2/6 = 1/9; two shots take a 1-wound
    model to 0 with 1 - (8/9)^2 = 17/81 and one Injury roll (the second shot is discarded,
    6.8) is out of action half the time: 17/162."""
    out = _json([*BOLTER, "--shots", "2"], capsys)
    assert out["ruleset"] == "kt18" and out["kind"] == "shoot"
    assert out["unsaved_probability"] == pytest.approx(1 / 9)
    assert _exact(out, "out_of_action") == "17/162"
    assert _exact(out, "flesh_wound") == "17/162"
    assert out["wounds_lost_pmf"] == {"0": pytest.approx(64 / 81), "1": pytest.approx(17 / 81)}


def test_kt18_calc_rapid_fire_half_range_doubles(capsys: pytest.CaptureFixture[str]) -> None:
    """5.10: Rapid Fire 1 within half range makes 2 shots: the same odds as --shots 2
    (17/162 out of action)."""
    out = _json([*BOLTER, "--shots", "1", "--rapid-fire-half-range"], capsys)
    assert _exact(out, "out_of_action") == "17/162"
    assert out["attack"]["doubled"] is True


def test_kt18_calc_overwatch_hits_on_six_only(capsys: pytest.CaptureFixture[str]) -> None:
    """3.11: Overwatch at BS 2+ with +2 still hits only on a 6: 1/6 x 3/6 x 2/6 = 1/36."""
    args = [*SHOOT, "--shots", "1", "--bs", "2+", "--hit-mod", "2", "--overwatch"]
    out = _json([*args, "--s", "4", "--t", "4", "--sv", "3+"], capsys)
    assert out["unsaved_probability"] == pytest.approx(1 / 36)


def test_kt18_calc_long_range_and_obscured(capsys: pytest.CaptureFixture[str]) -> None:
    """6.2-6.4: long range and obscured are -1 each: BS 3+ then hits on 5+ (2/6): 2/6 x 3/6
    x 2/6 = 1/18."""
    out = _json([*BOLTER, "--shots", "1", "--long-range", "--obscured"], capsys)
    assert out["unsaved_probability"] == pytest.approx(1 / 18)
    assert out["attack"]["hit_modifier"] == -2


def test_kt18_calc_cover_lowers_the_injury_roll(capsys: pytest.CaptureFixture[str]) -> None:
    """6.9: with --cover the Injury roll is out of action on 5+ only (1/3): 1/9 x 1/3 =
    1/27; the flesh wound 2/27."""
    out = _json([*BOLTER, "--shots", "1", "--cover"], capsys)
    assert _exact(out, "out_of_action") == "1/27"
    assert _exact(out, "flesh_wound") == "2/27"


def test_kt18_calc_strength_from_the_user(capsys: pytest.CaptureFixture[str]) -> None:
    """1.8, 1.9, 6.5: x2 on a S3 fighter is S6, against T4 wounding on 3+ (4/6); WS 3+ hits
    4/6, Sv "-" never saves: one attack unsaved 16/36 = 4/9."""
    args = [*FIGHT, "-a", "1", "--ws", "3+", "--s", "x2", "--user-s", "3", "--t", "4"]
    out = _json([*args, "--sv", "-"], capsys)
    assert out["kind"] == "fight" and out["attack"]["strength"] == 6
    assert out["unsaved_probability"] == pytest.approx(4 / 9)


def test_kt18_calc_fight_random_attacks(capsys: pytest.CaptureFixture[str]) -> None:
    """7.5: A D3 rolled once: 1, 2 or 3 attacks, each unsaved 4/6 x 3/6 = 1/3 (Sv "-"). The
    model reaches 0 with 1 - ((2/3) + (2/3)^2 + (2/3)^3)/3 = 1 - 38/81 = 43/81; out of
    action half of that: 43/162."""
    args = [*FIGHT, "-a", "D3", "--ws", "3+", "--s", "4", "--t", "4", "--sv", "-"]
    out = _json(args, capsys)
    assert _exact(out, "out_of_action") == "43/162"
    assert out["attack"]["attacks"] == "D3"


def test_kt18_calc_invulnerable_save(capsys: pytest.CaptureFixture[str]) -> None:
    """6.7: Sv 3+ with AP -3 would save only on a 6, so a 4+ invulnerable save is used
    (fails 3/6): BS 3+ (4/6), S4 vs T4 (3/6): 1/6 unsaved."""
    out = _json([*BOLTER, "--shots", "1", "--ap", "-3", "--invulnerable", "4+"], capsys)
    assert out["unsaved_probability"] == pytest.approx(1 / 6)
    assert out["target"]["invulnerable"] == "4+"


def test_kt18_calc_table(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --json the command prints the profile line, the outcome table and the
    summaries."""
    assert main([*BOLTER, "--shots", "D6", "-d", "D3", "-w", "2"]) in (0, None)
    out = capsys.readouterr().out
    assert "KT18 shoot: D6 shots, BS 3+, S4, AP 0, Damage D3" in out
    assert "out of action" in out and "Expected wounds lost" in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ([*BOLTER, "--shots", "1", "--hit", "3+"], "--hit: kt18 rolls against --bs"),
        ([*BOLTER, "--shots", "1", "-r", "Lethal 5+"], "-r"),
        ([*BOLTER, "--shots", "1", "--df", "3"], "no defence dice"),
        ([*BOLTER, "--shots", "1", "--ws", "3+"], "--ws"),
        ([*BOLTER, "--shots", "1", "--intervening-terrain"], "close combat modifier"),
        ([*FIGHT, "-a", "2", "--ws", "3+", "--s", "4", "--t", "4", "--sv", "3+", "--cover"], "7.6"),
        (
            [*FIGHT, "-a", "2", "--ws", "3+", "--s", "4", "--t", "4", "--sv", "3+", "--overwatch"],
            "Overwatch",
        ),
        (
            [
                *FIGHT,
                "-a",
                "2",
                "--ws",
                "3+",
                "--s",
                "4",
                "--t",
                "4",
                "--sv",
                "3+",
                "--enemy-attacks",
                "3",
            ],
            "one model's attacks at a time",
        ),
    ],
)
def test_kt18_calc_refuses_options_that_mean_nothing(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An option of another ruleset, or of the other command, is refused with one line
    saying why (house rule: nothing silently ignored)."""
    assert words in _error(args, capsys)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ([*SHOOT, "--shots", "1", "--bs", "3+", "--s", "4", "--t", "4", "--sv", "1+"], "Sv"),
        ([*BOLTER, "--shots", "1", "-d", "0"], "D must be at least 1"),
        ([*BOLTER, "--shots", "lots"], "shots"),
        ([*BOLTER, "--shots", "1", "--ap", "1"], "--ap"),
        ([*BOLTER, "--shots", "1", "--flesh-wounds", "4"], "--flesh-wound-boxes"),
        (
            [*SHOOT, "--shots", "1", "--bs", "3+", "--s", "User", "--t", "4", "--sv", "3+"],
            "--user-s",
        ),
        ([*SHOOT, "--shots", "1", "--bs", "3+", "--s", "huge", "--t", "4", "--sv", "3+"], "S"),
        ([*BOLTER, "--shots", "1", "--hit-mod", "-6", "--broken"], "outside -6..6"),
        ([*BOLTER, "--shots", "6D6+30", "--rapid-fire-half-range"], "may exceed"),
    ],
)
def test_kt18_calc_bad_values_are_named(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad value is refused with one line naming the option or value (status 2)."""
    assert words in _error(args, capsys)


def test_kt18_calc_ruleset_listed(capsys: pytest.CaptureFixture[str]) -> None:
    """``calc --help`` offers kt18 beside kt24 and kt21, and the KT18 shoot help lists its
    own options but not the hidden refusals."""
    assert main(["calc", "--help"]) == 0
    assert "kt18" in capsys.readouterr().out
    assert main([*SHOOT, "--help"]) == 0
    text = capsys.readouterr().out
    assert "--rapid-fire-half-range" in text and "--df" not in text
