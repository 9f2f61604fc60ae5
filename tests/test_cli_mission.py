"""The mission on the command line (``rules/KT24.md`` 8; issue: ``killteam play --crit-op
NAME [--tac-ops NAME NAME] [--primary-ops OP OP]``, a column per op, ``vp_by_op`` with kill,
crit, tac and primary in ``--json`` and ``--out``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_cli_play import _run


def test_8_play_takes_the_crit_op_tac_ops_and_primary_ops_and_reports_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Kasrkin (Security, Seek & Destroy) may select Rout; Legionaries (Security, Seek &
    # Destroy) Martyrs. Every op's VP is in vp_by_op and the total is their sum.
    code, out, _ = _run(
        capsys,
        "play",
        "--agents",
        "random",
        "--seed",
        "2",
        "--crit-op",
        "loot",
        "--tac-ops",
        "Rout",
        "martyrs",
        "--primary-ops",
        "crit",
        "KILL",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["crit_op"] == "Loot"
    assert data["tac_ops"] == {"A": "Rout", "B": "Martyrs"}
    assert data["primary_ops"] == {"A": "crit", "B": "kill"}
    assert sorted(data["vp_by_op"]) == ["crit", "kill", "primary", "tac"]
    for p in ("A", "B"):
        assert data["vp"][p] == sum(v[p] for v in data["vp_by_op"].values())


def test_8_the_summary_table_has_a_column_per_op(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "play", "--agents", "random", "--seed", "2", "--quiet")
    assert code == 0
    header = next(line for line in out.splitlines() if "Kill op" in line)
    for title in ("Kill op", "Crit op", "Tac op", "Primary op"):
        assert title in header


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--crit-op", "sekure"), "no crit op 'sekure'"),
        (("--tac-ops", "Flank", "Rout"), "cannot select 'Flank'"),  # Kasrkin: no Recon
        (("--primary-ops", "crit", "loot"), "'loot' is not one of"),
    ],
)
def test_8_a_mission_choice_that_cannot_be_played_exits_2_naming_it(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, _, err = _run(capsys, "play", "--agents", "random", *args)
    assert code == 2
    assert message in err


def test_8_batch_out_lines_carry_the_ops_and_vp_by_op(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "games.jsonl"
    code, _, _ = _run(
        capsys, "batch", "-n", "2", "--agents", "random", "--workers", "1", "--out", str(out)
    )
    assert code == 0
    for line in out.read_text(encoding="utf-8").splitlines():
        game = json.loads(line)
        assert sorted(game["vp_by_op"]) == ["crit", "kill", "primary", "tac"]
        assert game["crit_op"] in (
            "Secure", "Loot", "Transmission", "Orb", "Stake Claim", "Energy Cells",
            "Download", "Data", "Reboot",
        )  # fmt: skip
        assert set(game["tac_ops"]) == {"A", "B"} and set(game["primary_ops"]) == {"A", "B"}
