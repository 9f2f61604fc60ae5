"""Killzone pictures and the ``killteam render`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.geometry import load_killzone
from engine.geometry.render import OperativesError, RenderError, load_operatives, render_killzone

OPERATIVES = {
    "operatives": [
        {"name": "A1", "player": "A", "x": 4, "y": 11},
        {"name": "B1", "player": "B", "x": 14, "y": 12, "base_mm": 40},
    ]
}


@pytest.fixture
def ops_file(tmp_path: Path) -> Path:
    path = tmp_path / "ops.json"
    path.write_text(json.dumps(OPERATIVES))
    return path


@pytest.mark.parametrize("name", ["open_ruins", "close_quarters"])
@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_render_shipped_layouts(name: str, suffix: str, tmp_path: Path) -> None:
    out = render_killzone(load_killzone(name), tmp_path / f"board{suffix}")
    assert out.stat().st_size > 1000
    if suffix == ".svg":
        text = out.read_text()
        assert "Drop zone A" in text and "Objective marker" in text
    else:
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_with_sight_lines_writes_the_verdict(ops_file: Path, tmp_path: Path) -> None:
    out = render_killzone(
        load_killzone("open_ruins"),
        tmp_path / "sight.svg",
        operatives=load_operatives(ops_file),
        sight=("A1", "B1"),
    )
    text = out.read_text()
    assert "A1 -&gt; B1" in text or "A1 -> B1" in text
    assert "Targeting lines" in text


def test_render_rejects_other_suffixes(tmp_path: Path) -> None:
    with pytest.raises(RenderError, match=r"cannot render to '\.gif'"):
        render_killzone(load_killzone("open_ruins"), tmp_path / "board.gif")


def test_operatives_file_errors_name_the_entry_and_field(tmp_path: Path) -> None:
    path = tmp_path / "ops.json"
    path.write_text(json.dumps({"operatives": [{"name": "A1", "player": "C", "x": 1, "y": 1}]}))
    with pytest.raises(OperativesError, match="field 'player' must be 'A' or 'B'"):
        load_operatives(path)
    path.write_text(
        json.dumps({"operatives": [{"name": "A1", "player": "A", "x": "left", "y": 1}]})
    )
    with pytest.raises(OperativesError, match="field 'x' must be a number"):
        load_operatives(path)


def test_cli_render_end_to_end(
    ops_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "board.png"
    code = main(
        [
            "render",
            "open_ruins",
            "-o",
            str(out),
            "--operatives",
            str(ops_file),
            "--sight",
            "A1",
            "B1",
        ]
    )
    assert code == 0 and out.stat().st_size > 1000
    assert "wrote" in capsys.readouterr().out


def test_cli_render_open_hatchways(tmp_path: Path) -> None:
    kz = load_killzone("close_quarters")
    hatch = sorted(kz.hatchways)[0]
    out = tmp_path / "cq.svg"
    assert main(["render", "close_quarters", "-o", str(out), "--open-hatchways", hatch]) == 0
    assert "hatchways open: " + hatch in out.read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["render", "open_ruins", "-o", "board.gif"], "cannot render to '.gif'"),
        (["render", "nowhere", "-o", "board.png"], "no such killzone file"),
        (
            ["render", "close_quarters", "-o", "b.png", "--open-hatchways", "nope"],
            "no hatchway named 'nope'",
        ),
    ],
    ids=["bad-suffix", "unknown-killzone", "unknown-hatchway"],
)
def test_cli_render_errors_are_one_line(
    args: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_cli_render_unknown_sight_operative(
    ops_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "render",
            "open_ruins",
            "-o",
            str(tmp_path / "b.png"),
            "--operatives",
            str(ops_file),
            "--sight",
            "A1",
            "Z9",
        ]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'Z9' is not an operative" in err
