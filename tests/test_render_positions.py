"""Pictures of positions: ``killteam render`` of a scenario file or a record, casualties,
tokens and markers, marker control, labels that never collide, no fading outside the
Firefight phase (issue 31, part 4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest

import engine.board
from engine.cli import main
from engine.game.state import GameState
from engine.game.tokens import Token
from engine.geometry import load_killzone
from engine.play.timeline import TimelineError, frame_at, source_kind, walk
from engine.rulesets import position
from engine.teams import load_builtin_team

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
FIGHT = SCENARIOS / "edge_07_fight_incapacitated_mid_sequence.toml"
SECURE = SCENARIOS / "mission_secure.toml"
MARKERLIGHT = SCENARIOS / "team_pathfinders_markerlight_tiers.toml"
SMOKE = SCENARIOS / "edge_04b_smoke_grenade.toml"


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 1e-6 and h > 1e-6 else 0.0


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short real battle record (two probe-sized default teams, random agents)."""
    from engine.agents import RandomAgent
    from engine.game.drivers import SeededDice, play
    from engine.game.record import GameRecorder, make_header, write_record
    from engine.rulesets import new_game

    state = new_game(
        load_killzone("open_ruins"),
        load_builtin_team("kasrkin").default(),
        load_builtin_team("legionaries").default(),
    )
    rec = GameRecorder(make_header(state, seed=5, agents={"A": "random", "B": "random"}))
    final = play(
        state, {"A": RandomAgent(10), "B": RandomAgent(11)}, SeededDice(5), on_step=rec.on_step
    )
    rec.finish(final)
    return write_record(tmp_path_factory.mktemp("rec") / "battle.jsonl", rec.lines)


def _capture(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    def fake(kz: object, path: object, **kwargs: object) -> Path:
        seen.update(kwargs)
        return Path(str(path))

    monkeypatch.setattr(engine.board, "render_killzone", fake)
    return seen


# -------------------------------------------------------------------------------------------
# Dispatch and bad input
# -------------------------------------------------------------------------------------------


def test_render_dispatches_killzone_scenario_and_record(record: Path) -> None:
    """A layout name or layout file is a killzone; a .toml with [teams]/[steps] a scenario;
    a .jsonl a record (the three things ``killteam render`` draws)."""
    assert source_kind("open_ruins") == "killzone"
    assert source_kind(SCENARIOS / "killzones" / "range.toml") == "killzone"  # a layout .toml
    assert source_kind(FIGHT) == "scenario"
    assert source_kind(record) == "record"


def test_render_scenario_step_and_record_step_write_pictures(record: Path, tmp_path: Path) -> None:
    """``render SCENARIO --step N`` and ``render RECORD --at N`` write the picture; the
    killzone usage keeps working."""
    out = tmp_path / "s.png"
    assert main(["render", str(FIGHT), "--step", "2", "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = tmp_path / "r.svg"
    assert main(["render", str(record), "--at", "20", "-o", str(svg)]) == 0
    assert "step 20:" in svg.read_text(encoding="utf-8")  # the title names the step shown
    kz = tmp_path / "k.png"
    assert main(["render", "open_ruins", "-o", str(kz)]) == 0 and kz.stat().st_size > 1000


def test_render_step_out_of_range_names_the_range(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Edge 07 has 3 scripted steps: steps 0 (the start) to 3 exist, 9 does not; the error
    names the file and the range, and exits 2 (bad input)."""
    assert main(["render", str(FIGHT), "--step", "9", "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert str(FIGHT) in err and "no step 9" in err and "steps 0-3" in err
    with pytest.raises(TimelineError, match=r"battle\.jsonl: no step 99999: it has steps 0-\d+"):
        frame_at(record, 99999)
    assert not (tmp_path / "x.png").exists()


def test_render_bad_files_name_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing record, a malformed record and a malformed scenario are named in the one
    error line."""
    missing = tmp_path / "gone.jsonl"
    assert main(["render", str(missing), "-o", str(tmp_path / "a.png")]) == 2
    assert "gone.jsonl" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    assert main(["render", str(bad), "-o", str(tmp_path / "b.png")]) == 2
    assert "bad.jsonl" in capsys.readouterr().err
    scen = tmp_path / "bad.toml"
    scen.write_text('name = "x"\n[teams.A]\nteam = "no_such_team"\n', encoding="utf-8")
    assert main(["render", str(scen), "-o", str(tmp_path / "c.png")]) == 2
    assert "bad.toml" in capsys.readouterr().err


def test_render_killzone_options_are_refused_for_a_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--sight and --operatives draw a killzone's own operatives; a scenario has its own, so
    they are refused; --step on a killzone likewise."""
    assert main(["render", str(FIGHT), "--sight", "A", "B", "-o", str(tmp_path / "a.png")]) == 2
    assert "--sight" in capsys.readouterr().err
    assert main(["render", "open_ruins", "--step", "1", "-o", str(tmp_path / "b.png")]) == 2
    assert "killzone" in capsys.readouterr().err


# -------------------------------------------------------------------------------------------
# What the picture shows
# -------------------------------------------------------------------------------------------


def test_casualty_is_drawn_where_it_fell(monkeypatch: pytest.MonkeyPatch) -> None:
    """2.3: an incapacitated operative is removed; the picture still marks where it fell.
    In edge 07 step 2 TAR-2, set up at (21.4, 5), is incapacitated in the fight without
    moving, so its casualty mark is at (21.4, 5) and it is no longer a living operative."""
    state = frame_at(FIGHT, 2).state
    seen = _capture(monkeypatch)
    engine.board.render_state(state, "x.svg")
    player, where = seen["casualties"]["TAR-2"]
    assert player == "B" and (where.x, where.y) == pytest.approx((21.4, 5.0))
    assert "TAR-2" not in seen["operatives"]


def test_controlled_objective_marker_takes_the_controllers_colour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """4.8: the centre marker (22, 20) has PRO-2 (A, 1.5" away: within control range) and no
    B operative near it, so A controls it; after Secure the mission's fact says A secured
    it, written under the marker's name."""
    start = frame_at(SECURE, 0).state
    assert engine.board.marker_control(start) == {"centre": "A"}
    assert engine.board.marker_notes(start) == {}
    after = frame_at(SECURE, 1).state
    seen = _capture(monkeypatch)
    engine.board.render_state(after, "x.svg")
    assert seen["control"] == {"centre": "A"}
    assert seen["marker_notes"] == {"centre": "Secure: A"}


def test_tokens_are_drawn_in_their_owners_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    """7.2: B throws a smoke grenade at (12, 10) in edge 04b step 1: one token, B's, there;
    before it there is none."""
    assert engine.board.token_marks(frame_at(SMOKE, 0).state) == []
    seen = _capture(monkeypatch)
    engine.board.render_state(frame_at(SMOKE, 1).state, "x.svg")
    ((mark),) = seen["tokens"]
    assert (mark.owner, mark.x, mark.y) == ("B", 12.0, 10.0) and "smoke" in mark.name


def test_markerlight_count_is_written_beside_the_operative(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pathfinders' Markerlights: the tiers scenario gives TAR-1 one, two, then three
    Markerlight tokens (steps 1-3); the label shows the count."""
    seen = _capture(monkeypatch)
    engine.board.render_state(frame_at(MARKERLIGHT, 3).state, "x.svg")
    assert seen["labels"]["TAR-1"].endswith(" ML3")


def test_nothing_faded_at_the_end_of_a_turning_point(
    record: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1.5/1.4: faded means "expended while others may still activate". Once the turning
    point ended every operative is expended, which says nothing: none is faded. During the
    Firefight phase an operative that activated is faded."""
    ended: list[GameState] = []
    firefight: list[GameState] = []

    def keep(frame: Any) -> None:
        s = frame.state
        if not ended and any(e.kind == "turning_point_ended" for e in frame.events):
            ended.append(s)
        busy = any(o.alive and not o.ready for o in s.operatives)
        if not firefight and engine.board.in_firefight(s) and busy:
            firefight.append(s)

    walk(record, keep)
    seen = _capture(monkeypatch)
    engine.board.render_state(ended[0], "x.svg")
    assert all(not o.ready for o in ended[0].operatives if o.alive)  # all expended in rules
    assert not any(m.expended for m in seen["marks"].values())
    engine.board.render_state(firefight[0], "y.svg")
    assert any(m.expended for m in seen["marks"].values())


def _crowd_with_casualties_and_tokens() -> GameState:
    """11 operatives 1.3" apart (32 mm bases almost touching), two of them then
    incapacitated where they stood, and three tokens among them."""
    kz = load_killzone("open_ruins")
    spots = [(17.85, 7.6), (19.2, 7.6), (18.45, 8.9), (19.8, 8.9), (21.15, 8.9), (17.85, 10.2)]
    spots += [(19.2, 10.2), (20.55, 10.2), (17.1, 11.5), (19.8, 11.5), (21.15, 11.5)]
    ids = [f"KAS-{i}" for i in range(1, 8)] + [f"LEG-{i}" for i in range(1, 5)]
    ops = {op: {"at": at} for op, at in zip(ids, spots, strict=True)}
    s = position(
        kz,
        load_builtin_team("kasrkin").default(),
        load_builtin_team("legionaries").default(),
        operatives=ops,
    )
    dead = {"KAS-3", "LEG-2"}
    operatives = tuple(
        attrs.evolve(o, incapacitated=True, placed=False, wounds=0) if o.id in dead else o
        for o in s.operatives
    )
    tokens = (
        Token("mines", "A", "A mines", 18.5, 7.0),
        Token("smoke", "B", "B smoke 1", 20.5, 9.55),
        Token("retrieval", "B", "B retrieval 1", 18.5, 11.0),
    )
    return attrs.evolve(s, operatives=operatives, tokens=tokens)


def test_labels_never_collide_with_casualties_and_tokens(tmp_path: Path) -> None:
    """Every label (9 living operatives, 2 casualties, 3 tokens) is placed by the one
    collision-free placement: no two label boxes overlap."""
    state = _crowd_with_casualties_and_tokens()
    boxes: list[tuple[float, float, float, float]] = []
    engine.board.render_state(state, tmp_path / "crowd.svg", label_boxes=boxes)
    assert len(boxes) == 9 + 2 + 3
    for k, box in enumerate(boxes):
        assert all(_overlap(box, other) == 0 for other in boxes[k + 1 :]), (k, box)
    text = (tmp_path / "crowd.svg").read_text(encoding="utf-8")
    assert "incapacitated (where it fell)" in text and "Token or marker" in text
