"""``killteam view``: the self-contained HTML page of a record or scenario file (issue 31,
part 4): its data, its escaping, its size, its rule sections and the command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.cli import main
from engine.game.events import Event
from engine.play.timeline import TimelineError
from engine.play.viewer import event_section, view_data, view_html, write_view

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
FIGHT = SCENARIOS / "edge_07_fight_incapacitated_mid_sequence.toml"


def _page_data(page: str) -> dict:
    m = re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S)
    assert m is not None
    return json.loads(m.group(1))


@pytest.fixture(scope="module")
def fight() -> dict:
    return view_data(FIGHT)


def test_view_has_a_frame_per_scenario_step_and_the_start(fight: dict) -> None:
    """Edge 07 scripts 3 steps: the page steps through 4 positions (the start, then after
    each step), each labelled with the step's name from the file."""
    frames = fight["frames"]
    assert [f["s"] for f in frames] == [0, 1, 2, 3]
    assert frames[0]["l"].startswith("start: Fight")
    assert frames[2]["l"].startswith("step 2: A strikes")
    assert fight["rules"] == ["5.2", "EDGE_CASES 7"]


def test_view_frames_carry_only_what_changed(fight: dict) -> None:
    """The size bound: frame 0 has every operative; step 2 (TAR-2 incapacitated, 2.3) carries
    TAR-2's change (flag 4, incapacitated) but not PRO-2, which did nothing in it."""
    frames = fight["frames"]
    assert set(frames[0]["o"]) >= {"PRO-1", "PRO-2", "TAR-2", "TAR-3"}
    assert frames[2]["o"]["TAR-2"][5] & 4
    assert "PRO-2" not in frames[2]["o"]
    assert fight["board"]["objectives"] and fight["ops"]["TAR-2"]["p"] == "B"


def test_view_dice_and_narration_with_rule_sections(fight: dict) -> None:
    """Step 1 scripts the rolls 6,6,3,1 and 6,5,4 (the two fighters' attack dice, 5.2); its
    narration names the fight with its rule section."""
    step1 = fight["frames"][1]
    assert step1["d"] == [[6, 6, 3, 1], [6, 5, 4]]
    assert step1["x"] == ["Activate PRO-1 engage", "Fight PRO-1 big blade at TAR-2"]
    sections = [section for _line, section in step1["n"]]
    assert any("5.2" in s for s in sections)
    step2 = fight["frames"][2]
    assert any("incapacitated" in line and s == "2.3" for line, s in step2["n"])


def test_event_section_is_the_vocabularys_rule_with_the_weapon_rule_or_ploy() -> None:
    """rules/KT24.md 2.3 is damage and incapacitation; 7.1 is command points and ploys; a
    die changed by a weapon rule cites section 6 (weapon rules) and names the rule."""
    assert event_section(Event.make("damage_inflicted", op="X", damage=3)) == "2.3"
    assert event_section(Event.make("cp_spent", cp=1, player="A", ploy="Plan")) == "7.1; ploy Plan"
    upgraded = Event.make(
        "die_upgraded", after="crit", before="normal", die=5, op="X", rule="Rending"
    )
    assert event_section(upgraded) == "6; rule Rending"


def test_view_escapes_user_text_and_script_end() -> None:
    """Team names are user text: a name holding ``</script>`` or markup must neither end the
    data block nor become markup; the page has exactly its own two script ends."""
    nasty = "</script><img src=x onerror=alert(1)>&amp;"
    data = {
        "source": "x{{DATA}}.jsonl",
        "players": {"A": {"team": nasty, "colour": "#111"}, "B": {"team": "B", "colour": "#222"}},
        "frames": [{"s": 0, "l": nasty}],
    }
    page = view_html(data)
    assert page.count("</script>") == 2
    assert "<img" not in page
    assert _page_data(page)["players"]["A"]["team"] == nasty  # the data reads back exactly
    assert _page_data(page)["frames"][0]["l"] == nasty


def test_view_is_self_contained() -> None:
    """No network: nothing loaded from elsewhere (no src/href/url()/@import/link), and the
    only address in the page is the SVG namespace name (an identifier, never fetched)."""
    page = view_html(view_data(FIGHT))
    for pattern in (r"\bsrc\s*=", r"\bhref\s*=", r"url\(\s*['\"]?(?!#)", r"@import", r"<link"):
        assert re.search(pattern, page, re.I) is None, pattern
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) == {"http://www.w3.org/2000/svg"}
    assert "default-src 'none'" in page  # and the page forbids loading anything


def test_view_size_is_bounded_per_step(tmp_path: Path) -> None:
    """A record of N steps: the board once plus a few hundred bytes a step (only what
    changed); a whole battle stays far below a snapshot per step (about 5 KB each)."""
    from engine.agents import RandomAgent
    from engine.game.drivers import SeededDice, play
    from engine.game.record import GameRecorder, make_header, write_record
    from engine.geometry import load_killzone
    from engine.rulesets import new_game
    from engine.teams import load_builtin_team

    state = new_game(
        load_killzone("open_ruins"),
        load_builtin_team("kasrkin").default(),
        load_builtin_team("legionaries").default(),
    )
    rec = GameRecorder(make_header(state, seed=2, agents={"A": "random", "B": "random"}))
    final = play(
        state, {"A": RandomAgent(4), "B": RandomAgent(5)}, SeededDice(2), on_step=rec.on_step
    )
    rec.finish(final)
    path = write_record(tmp_path / "b.jsonl", rec.lines)
    out = write_view(path, tmp_path / "b.html")
    steps = final.step
    size = out.stat().st_size
    assert len(_page_data(out.read_text(encoding="utf-8"))["frames"]) == steps + 1
    assert size < 40_000 + 500 * steps, (size, steps)


def test_view_command_writes_the_page_and_names_a_bad_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.html"
    assert main(["view", str(FIGHT), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "4 frames" in capsys.readouterr().out
    assert main(["view", str(tmp_path / "none.jsonl"), "-o", str(out)]) == 2
    assert "none.jsonl" in capsys.readouterr().err
    assert main(["view", "open_ruins", "-o", str(out)]) == 2  # a killzone has no steps
    assert "open_ruins" in capsys.readouterr().err
    assert main(["view", str(FIGHT), "-o", str(tmp_path / "game.png")]) == 2
    with pytest.raises(TimelineError):
        view_data(tmp_path / "none.jsonl")


#: A crowded position on open_ruins: eight Kasrkin in two rows against the north board edge
#: (y 22) and the walls at x 22.4-23 and y 16.4-17, three Legionaries just below them, more
#: around objective marker B (20.5, 13.5), a mine token among them.
_CROWD = {
    "KAS-1": (18.6, 21.3),
    "KAS-2": (20.0, 21.3),
    "KAS-3": (21.4, 21.3),
    "KAS-4": (22.8, 21.3),
    "KAS-5": (18.6, 19.6),
    "KAS-6": (20.0, 19.6),
    "KAS-7": (21.4, 19.6),
    "KAS-8": (23.8, 19.6),
    "KAS-9": (18.2, 13.9),
    "KAS-10": (20.5, 11.6),
    "LEG-1": (18.6, 18.1),
    "LEG-2": (20.1, 18.1),
    "LEG-3": (21.55, 18.1),
    "LEG-4": (22.6, 13.5),
    "LEG-5": (20.5, 15.4),
    "LEG-6": (24.0, 15.8),
}


def _crowd_file(tmp_path: Path) -> Path:
    lines = [
        'name = "a crowded position"',
        'killzone = "open_ruins"',
        '[teams.A]\nteam = "kasrkin"',
        '[teams.B]\nteam = "legionaries"',
        "[position]",
    ]
    for op, (x, y) in _CROWD.items():
        lines.append(f"[position.operatives.{op}]\nat = [{x}, {y}]")
    lines.append('[[position.tokens]]\nkind = "mines"\nowner = "B"\nat = [19.3, 15.0]')
    path = tmp_path / "crowd.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _boxes_meet(a: list[float], b: list[float]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _box_meets_circle(box: list[float], x: float, y: float, r: float) -> bool:
    """The box's nearest point to the centre is nearer than the radius."""
    nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    return (nx - x) ** 2 + (ny - y) ** 2 < r * r


def test_view_labels_never_collide_on_a_crowded_frame(tmp_path: Path) -> None:
    """Labels never collide (issue 31 part 4): in a position of 16 operatives packed against
    the board's north edge, two walls and marker B, every label embedded in the frame (one
    per operative, the mine token and the three markers) lies inside the 30" x 22" killzone,
    meets no other label (the boxes' intersection is empty) and no base, token or marker
    disc (the box's nearest point to each centre is at least the radius away). KAS-1 stands
    0.7" from the north edge: its label cannot go above it, yet must exist."""
    from engine.play.viewer_labels import TOKEN_RADIUS

    data = view_data(_crowd_file(tmp_path))
    (frame,) = data["frames"]
    labels = frame["L"]
    assert set(labels) == {*_CROWD, "t0", "m:A", "m:centre", "m:B"}
    assert labels["KAS-1"][0] == "KAS-1 9/9" and labels["t0"][0] == "B mines"
    width, depth = data["board"]["width"], data["board"]["depth"]
    assert (width, depth) == (30, 22)
    discs = [(x, y, data["ops"][op]["r"]) for op, (x, y) in _CROWD.items()]
    discs.append((19.3, 15.0, TOKEN_RADIUS))
    discs += [(m[1], m[2], data["board"]["objectives"][m[0]]) for m in frame["m"]]
    boxes = {key: entry[3:7] for key, entry in labels.items()}
    for key, box in boxes.items():
        assert 0 <= box[0] < box[2] <= width and 0 <= box[1] < box[3] <= depth, (key, box)
        for other, box2 in boxes.items():
            assert other == key or not _boxes_meet(box, box2), (key, other)
        for x, y, r in discs:
            assert not _box_meets_circle(box, x, y, r), (key, (x, y))
    assert boxes["KAS-1"][3] <= depth  # not cut off at the top edge


def test_view_labels_are_sent_only_when_they_change(fight: dict) -> None:
    """Labels are per-step data like the rest: frame 0 has every placed operative's label;
    step 2 incapacitates TAR-2 (2.3), so its label becomes ``TAR-2 (out)`` (a casualty drawn
    where it fell); a frame in which nothing labelled changed carries no ``L``."""
    frames = fight["frames"]
    assert {"PRO-1", "PRO-2", "TAR-2"} <= set(frames[0]["L"])
    assert frames[2]["L"]["TAR-2"][0] == "TAR-2 (out)"
    for frame in frames[1:]:
        if not ({"o", "m", "t"} & set(frame)):
            assert "L" not in frame


def test_view_label_boxes_hold_their_text() -> None:
    """A label's box is its text's measured width plus the padding on both sides, and one
    line per text line: a wider text gets a wider box; a marker with mission notes gets a
    line per note (the page writes each line inside the box)."""
    from engine.play.viewer_labels import LINE_HEIGHT, PAD, frame_labels, text_width

    board = {"width": 30.0, "depth": 22.0, "objectives": {"centre": 0.787}}
    snap = {
        "o": {"X-1": [5.0, 5.0, 0.0, 9, "E", 1], "X-22": [25.0, 5.0, 2.0, 10, "E", 1]},
        "m": [["centre", 15.0, 11.0, "A", "Secure: A\nclaimed"]],
        "t": [],
    }
    ops = {"X-1": {"p": "A", "r": 0.5, "w": 9}, "X-22": {"p": "B", "r": 0.5, "w": 12}}
    labels = frame_labels(snap, ops, board)
    short, long_, marker = labels["X-1"], labels["X-22"], labels["m:centre"]
    assert long_[0] == 'X-22 10/12 (2" up)'
    for entry in (short, long_):
        width = entry[5] - entry[3]
        assert width == pytest.approx(text_width(entry[0], entry[2]) + 2 * PAD, abs=0.011)
    assert long_[5] - long_[3] > short[5] - short[3]
    assert marker[0].split("\n") == ["centre", "Secure: A", "claimed"]
    height = marker[6] - marker[4]
    assert height == pytest.approx(3 * marker[2] * LINE_HEIGHT + 2 * PAD, abs=0.011)
