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
