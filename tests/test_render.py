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


# -------------------------------------------------------------------------------------------
# Operative labels and marks
# -------------------------------------------------------------------------------------------


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 1e-6 and h > 1e-6 else 0.0  # touching is not overlapping


def _base_box(x: float, y: float, r: float) -> tuple[float, float, float, float]:
    return (x - r, y - r, x + r, y + r)


def test_place_labels_puts_a_lone_label_just_above_its_base() -> None:
    from engine.geometry.render import place_labels

    # Nothing in the way: the first spot tried, centred above the base, 0.08" off its edge.
    ((box, away),) = place_labels([(10.0, 10.0, 0.5)], [(2.0, 0.4)])
    assert box == pytest.approx((9.0, 10.58, 11.0, 10.98)) and not away


def test_place_labels_in_a_crowd_covers_no_label_base_or_obstacle() -> None:
    from engine.geometry.render import place_labels

    # 12 bases 1.3" apart (0.04" between 32 mm bases), an obstacle in the middle row's way.
    bases = [(10 + 1.3 * i, 10 + 1.3 * j, 0.63) for j in range(3) for i in range(4)]
    sizes = [(1.9, 0.42)] * len(bases)
    obstacle = (9.0, 13.2, 15.0, 14.0)
    bounds = (0.0, 0.0, 30.0, 22.0)
    spots = place_labels(bases, sizes, [obstacle], bounds)
    boxes = [box for box, _ in spots]
    assert spots == place_labels(bases, sizes, [obstacle], bounds)  # deterministic
    for k, box in enumerate(boxes):
        assert box[2] - box[0] == pytest.approx(1.9) and box[3] - box[1] == pytest.approx(0.42)
        assert bounds[0] <= box[0] and box[2] <= bounds[2]
        assert _overlap(box, obstacle) == 0
        assert all(_overlap(box, _base_box(*b)) == 0 for b in bases)
        assert all(_overlap(box, other) == 0 for other in boxes[k + 1 :])
    # The middle bases have no room beside them: their labels stand off, with a leader line.
    assert any(away for _, away in spots)


def _crowded_state() -> object:
    from engine.rulesets import position
    from engine.teams import load_builtin_team

    kz = load_killzone("open_ruins")
    ops: dict[str, dict[str, object]] = {}
    spots = [
        (16.5 + 1.35 * i + (0.6 if j % 2 else 0), 7.6 + 1.3 * j) for j in range(4) for i in range(4)
    ]
    free = [(17.85, 7.6), (19.2, 7.6), (18.45, 8.9), (19.8, 8.9), (21.15, 8.9), (17.85, 10.2)]
    free += [(19.2, 10.2), (20.55, 10.2), (17.1, 11.5), (19.8, 11.5), (21.15, 11.5)]
    assert set(free) <= {(round(x, 2), round(y, 2)) for x, y in spots}
    ids = [f"KAS-{i}" for i in range(1, 8)] + [f"LEG-{i}" for i in range(1, 5)]
    for n, (op, at) in enumerate(zip(ids, free, strict=True)):
        ops[op] = {
            "at": at,
            "order": "engage" if n % 2 else "conceal",
            "wounds": 3 if n % 3 == 0 else 5,
            "ready": n % 4 != 0,
        }
    kasrkin, legionaries = load_builtin_team("kasrkin"), load_builtin_team("legionaries")
    return position(kz, kasrkin.default(), legionaries.default(), operatives=ops)


def test_render_state_labels_in_a_crowd_do_not_overlap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import engine.board
    import engine.geometry.render as render

    state = _crowded_state()
    seen: list[tuple[list, list, list]] = []
    real = render.place_labels

    def spy(bases: list, sizes: list, obstacles: list, bounds: object, soft: list = ()) -> list:
        spots = real(bases, sizes, obstacles, bounds, soft)  # type: ignore[arg-type]
        seen.append((list(bases), list(obstacles), spots))
        return spots

    monkeypatch.setattr(render, "place_labels", spy)
    svg = engine.board.render_state(state, tmp_path / "crowd.svg")  # type: ignore[arg-type]
    (bases, obstacles, spots) = seen[0]
    assert len(bases) == 11
    boxes = [box for box, _ in spots]
    for k, box in enumerate(boxes):
        assert all(_overlap(box, _base_box(*b)) == 0 for b in bases)
        assert all(_overlap(box, o) == 0 for o in obstacles)  # markers and terrain heights
        assert all(_overlap(box, other) == 0 for other in boxes[k + 1 :])
    again = engine.board.render_state(state, tmp_path / "again.svg")  # type: ignore[arg-type]
    assert again.read_bytes() == svg.read_bytes()


def test_render_state_marks_order_injured_and_expended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import engine.board
    from engine.geometry.render import OperativeMarks
    from engine.rulesets import position
    from engine.teams import load_builtin_team

    kasrkin, legionaries = load_builtin_team("kasrkin"), load_builtin_team("legionaries")
    s = position(
        load_killzone("open_ruins"),
        kasrkin.default(),
        legionaries.default(),
        operatives={
            # 2 x 4 < 9 wounds: injured (2.3); expended: not ready this turning point.
            "KAS-1": {"at": (15, 12), "wounds": 4, "order": "engage", "ready": False},
            # 5 of 9 is not fewer than half: not injured.
            "LEG-2": {"at": (5, 5), "wounds": 7, "order": "conceal"},
        },
    )
    assert kasrkin.operative("Kasrkin Sergeant").wounds == 9
    assert legionaries.default().operatives[1] and s.ctx.datacards["LEG-2"].wounds > 7
    seen: dict[str, object] = {}

    def fake(kz: object, path: object, **kwargs: object) -> Path:
        seen.update(kwargs)
        return Path(str(path))

    monkeypatch.setattr(engine.board, "render_killzone", fake)
    engine.board.render_state(s, tmp_path / "m.svg")
    assert seen["marks"] == {
        "KAS-1": OperativeMarks(order="engage", injured=True, expended=True),
        "LEG-2": OperativeMarks(order="conceal", injured=False, expended=False),
    }


def test_render_marks_key_and_order_letters(tmp_path: Path) -> None:
    from engine.geometry import Placement
    from engine.geometry.render import OperativeMarks

    out = render_killzone(
        load_killzone("open_ruins"),
        tmp_path / "marks.svg",
        operatives={"A1": ("A", Placement(10, 11)), "B1": ("B", Placement(20, 11))},
        marks={"A1": OperativeMarks("engage"), "B1": OperativeMarks("conceal", True, True)},
        drop_zone_players={"A": "B", "B": "A"},
    )
    text = out.read_text()
    for words in ("E: Engage order", "C: Conceal order", "Faded: expended", "injured"):
        assert words in text
    assert "drop zone A" in text and "Drop zone A (player B)" in text
