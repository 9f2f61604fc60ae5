"""``killteam play``, ``replay`` and ``batch`` end to end, and the library under them
(``engine.play``, ``engine.batch``, ``engine.narration``, ``engine.board``).

The end-to-end tests run the command's ``main`` (what the console script calls) in this
process, and the real command in a subprocess (``python -m engine.cli``, the console script's
entry point) where the process is the point: its exit status and standard output, outputs
that must not depend on ``PYTHONHASHSEED``, and a process pool. They never depend on what an
agent decides: only on a finished battle, consistency between the figures, the rules that
turn kills into VP (KT24 8.2), and determinism.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.batch import wilson_interval
from engine.cli import main
from engine.game.actions import parse_action
from engine.game.drivers import ScriptedDice
from engine.game.state import Chance, GameState
from engine.geometry import load_killzone
from engine.narration import Narrator
from engine.play import BattleError, agent_seeds, game_seed
from engine.play.matchup import auto_roster, load_team_ref, parse_agents
from engine.rulesets import position
from engine.teams import load_builtin_team
from tests.test_import_killteamjson import _fixture

ROOT = Path(__file__).resolve().parents[1]

# Kill op grade table rows (rules/KT24.md 8.2): kills needed for grades 1-5 by the enemy's
# starting number of operatives (Kasrkin field 10, Legionaries 6).
KILLS_NEEDED = {6: (1, 2, 4, 5, 6), 10: (2, 4, 6, 8, 10)}


def _killteam(*args: str, cwd: Path, hashseed: str = "0") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONHASHSEED=hashseed, PYTHONPATH=str(ROOT))
    env.pop("COLUMNS", None)
    proc = subprocess.run(
        [sys.executable, "-m", "engine.cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return proc


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``killteam ARGS`` in this process (in the current folder): the status ``main`` returns
    (the console script's exit status) and what it wrote to standard output and error."""
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _grade(kills: int, starting: int) -> int:
    return sum(1 for need in KILLS_NEEDED[starting] if kills >= need)


def _check_consistent(summary: dict[str, Any]) -> None:
    """A finished battle whose winner, VP, kills and operatives agree with each other."""
    assert summary["finished"] is True and summary["turning_point"] == 4
    vp = summary["vp"]
    if vp["A"] == vp["B"]:
        assert summary["winner"] is None
    else:
        assert summary["winner"] == ("A" if vp["A"] > vp["B"] else "B")
    for p in ("A", "B"):
        assert sum(op_vp[p] for op_vp in summary["vp_by_op"].values()) == vp[p]
    ops = summary["operatives"]
    down = {p: sum(1 for o in ops[p] if o["incapacitated"]) for p in ("A", "B")}
    assert summary["kills"] == {"A": down["B"], "B": down["A"]}
    for p in ("A", "B"):
        for o in ops[p]:
            assert 0 <= o["wounds"] <= o["max_wounds"]
            assert (o["wounds"] == 0) == o["incapacitated"]


# -------------------------------------------------------------------------------------------
# killteam play / replay
# -------------------------------------------------------------------------------------------


def test_play_default_battle_json_record_replays_and_tampering_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    proc = _killteam("play", "--json", "--record", "game.jsonl", "--picture", "b.png", cwd=tmp_path)
    summary = json.loads(proc.stdout)  # nothing but the JSON on standard output
    assert summary["teams"] == {"A": "Kasrkin", "B": "Legionaries"}
    assert summary["killzone"] == "open_ruins"
    assert summary["agents"] == {"A": "heuristic", "B": "heuristic"}
    assert summary["seed"] == 1
    assert summary["agent_seeds"] == {"A": 2, "B": 3}
    _check_consistent(summary)
    # The kill op alone scores (8.2): one VP per grade reached, one more for the higher grade.
    starting = {p: len(summary["operatives"][p]) for p in ("A", "B")}
    assert starting == {"A": 10, "B": 6}
    grade = {
        "A": _grade(summary["kills"]["A"], starting["B"]),
        "B": _grade(summary["kills"]["B"], starting["A"]),
    }
    for p, q in (("A", "B"), ("B", "A")):
        assert summary["vp_by_op"]["kill"][p] == grade[p] + (grade[p] > grade[q])
    assert (tmp_path / "b.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    monkeypatch.chdir(tmp_path)
    code, out, _ = _run(capsys, "replay", "game.jsonl")
    assert code == 0 and "replay OK" in out
    assert out.count("=== Turning point") == 4

    # Swap the set-up roll-off (step 2, after the crit op's roll) so the other player wins
    # it: the record's step 3 was decided by the player who won it, so the replay must stop
    # there, naming the step.
    lines = (tmp_path / "game.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[2])
    assert first["step"] == 2 and first["actor"] == "chance"
    a, b = (int(v) for v in first["action"].removeprefix("roll ").split(","))
    first["action"] = "roll 1,6" if a >= b else "roll 6,1"
    lines[2] = json.dumps(first)
    (tmp_path / "tampered.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = _run(capsys, "replay", "tampered.jsonl", "--quiet")
    assert code == 1
    assert err.count("\n") == 1 and "tampered.jsonl" in err
    assert re.search(r"\bstep 3\b", err), err


SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def test_replay_runs_a_scenario_file_narrates_and_checks_expectations(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A scenario file (.toml) is run, not read as a record: each step narrated with its
    # script, then "scenario OK"; --json prints a summary only.
    squig = SCENARIOS / "team_kommandos_bomb_squig.toml"
    code, out, err = _run(capsys, "replay", str(squig))
    assert code == 0 and not err
    assert out.startswith(f"Scenario {squig}: Kommandos Bomb Squig")
    assert "-- step 4: Boom! with 2D6" in out and "script: Use boom with 2d6" in out
    assert "  A rolls Boom! 2D6 (KOM-11): 5,1" in out
    assert out.rstrip().endswith("scenario OK: 4 steps, every expectation met")
    code, out, _ = _run(capsys, "replay", str(squig), "--json")
    assert code == 0 and json.loads(out) == {
        "scenario": "Kommandos Bomb Squig: Boom! blasts its killer; Expendable: not a kill "
        "for the kill op",
        "file": str(squig),
        "steps": 4,
        "ok": True,
    }
    # A wrong expectation: status 1, one line naming the file and what differs.
    (tmp_path / "killzones").mkdir()
    (tmp_path / "teams").mkdir()
    for sub, name in (("killzones", "team_range.toml"), ("teams", "target.json")):
        (tmp_path / sub / name).write_bytes((SCENARIOS / sub / name).read_bytes())
    text = squig.read_text(encoding="utf-8").replace("wounds = 12", "wounds = 11")
    (tmp_path / "wrong.toml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(capsys, "replay", "wrong.toml", "--quiet")
    assert code == 1 and not out and err.count("\n") == 1
    assert "wrong.toml: final expectations: operatives.TAR-1.wounds: expected 11, got 12" in err
    # A malformed file: status 2.
    (tmp_path / "bad.toml").write_text("colour = 1\n", encoding="utf-8")
    code, _, err = _run(capsys, "replay", "bad.toml")
    assert code == 2 and "bad.toml: top level: unknown field 'colour'" in err


def test_play_same_seed_gives_byte_identical_output(tmp_path: Path) -> None:
    args = ("play", "--agents", "random", "--seed", "3", "--picture", "end.svg", "--record")
    one = _killteam(*args, "g.jsonl", cwd=tmp_path, hashseed="1")
    svg = (tmp_path / "end.svg").read_bytes()
    record = (tmp_path / "g.jsonl").read_bytes()
    two = _killteam(*args, "g.jsonl", cwd=tmp_path, hashseed="2")
    assert one.stdout == two.stdout
    assert (tmp_path / "end.svg").read_bytes() == svg
    assert (tmp_path / "g.jsonl").read_bytes() == record
    out = one.stdout
    for tp in range(1, 5):
        assert f"=== Turning point {tp} ===" in out
        assert f"--- End of turning point {tp}:" in out
    assert "activates (" in out and "Victory points" in out


def test_play_an_imported_killteamjson_team(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    team_file = tmp_path / "TEST-BW.json"
    team_file.write_text(json.dumps(_fixture()), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = _run(
        capsys,
        "play",
        "--teams",
        str(team_file),
        "legionaries",
        "--agents",
        "random,heuristic",
        "--seed",
        "2",
        "--json",
        "--picture-each-tp",
        "tps",
    )
    assert code == 0
    summary = json.loads(out)
    assert summary["teams"]["A"] == "Brass Wardens"
    assert summary["agents"] == {"A": "random", "B": "heuristic"}
    _check_consistent(summary)
    # The fixture's composition: 1 Warden Captain (the leader) and 4 Wardens.
    names = sorted(o["name"] for o in summary["operatives"]["A"])
    assert names == ["Warden", "Warden", "Warden", "Warden", "Warden Captain"]
    assert sorted(p.name for p in (tmp_path / "tps").iterdir()) == [
        f"tp{k}.png" for k in range(1, 5)
    ]


# -------------------------------------------------------------------------------------------
# killteam batch
# -------------------------------------------------------------------------------------------


def test_batch_results_do_not_depend_on_workers_and_each_game_replays_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # One worker in this process; two in the real command (a pool of worker processes).
    base = ("batch", "-n", "4", "--agents", "random", "--seed", "5", "--json")
    monkeypatch.chdir(tmp_path)
    code, one, _ = _run(capsys, *base, "--workers", "1", "--out", "w1.jsonl")
    assert code == 0
    two = _killteam(*base, "--workers", "2", "--out", "w2.jsonl", cwd=tmp_path)
    assert one == two.stdout
    assert (tmp_path / "w1.jsonl").read_bytes() == (tmp_path / "w2.jsonl").read_bytes()
    games = [json.loads(x) for x in (tmp_path / "w1.jsonl").read_text().splitlines()]
    assert [g["index"] for g in games] == [0, 1, 2, 3]
    assert [g["seed"] for g in games] == [game_seed(5, i) for i in range(4)]
    stats = json.loads(one)
    assert stats["games"] == 4
    counts = {k: stats["a"][k]["count"] for k in ("win", "draw", "loss")}
    assert counts == {
        "win": sum(g["winner"] == "A" for g in games),
        "draw": sum(g["winner"] is None for g in games),
        "loss": sum(g["winner"] == "B" for g in games),
    }
    for g in games:
        assert g["winner"] == (
            None if g["vp"]["A"] == g["vp"]["B"] else max("AB", key=lambda p: g["vp"][p])
        )
    for k in ("win", "draw", "loss"):
        lo, hi = stats["a"][k]["ci95"]
        assert lo <= stats["a"][k]["rate"] <= hi
    assert stats["mean_kills"]["A"] == pytest.approx(sum(g["kills"]["A"] for g in games) / 4)

    # The line's seed is exactly what `killteam play --seed` takes.
    g = games[2]
    code, out, _ = _run(capsys, "play", "--agents", "random", "--seed", str(g["seed"]), "--json")
    assert code == 0
    alone = json.loads(out)
    assert (alone["vp"], alone["winner"], alone["steps"], alone["hash"]) == (
        g["vp"],
        g["winner"],
        g["steps"],
        g["hash"],
    )


# -------------------------------------------------------------------------------------------
# Bad input: status 2, one line naming the problem
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "--agents", "clever"], ["--agents", "clever", "heuristic, mcts, random"]),
        (["play", "--agents", "random,random,random"], ["--agents"]),
        (["play", "--teams", "nosuch", "legionaries"], ["player A", "nosuch", "kasrkin"]),
        (["play", "--seed", "-1"], ["--seed"]),
        (["play", "--killzone", "nowhere"], ["killzone", "nowhere", "open_ruins"]),
        (["play", "--picture", "board.jpg"], ["--picture", ".png"]),
        (["play", "--teams", "kasrkin", "kommandos", "--rosters", "a", "b"], ["--rosters"]),
        (["play", "--record", "no/such/folder/g.jsonl"], ["--record", "no such folder"]),
        (["batch", "-n", "0"], ["--games"]),
        (["batch", "--workers", "0"], ["--workers"]),
        (["replay", "missing.jsonl"], ["missing.jsonl", "no such record file"]),
    ],
)
def test_bad_options_exit_2_with_one_line(
    args: list[str],
    words: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    for w in words:
        assert w in err, (w, err)


def test_a_roster_file_given_as_a_team_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roster = tmp_path / "r.json"
    roster.write_text(json.dumps({"team": "kasrkin", "operatives": ["Kasrkin Sergeant"]}))
    assert main(["play", "--teams", str(roster), "kasrkin"]) == 2
    assert "--rosters" in capsys.readouterr().err
    assert main(["play", "--rosters", str(roster), str(roster)]) == 2
    err = capsys.readouterr().err
    assert "roster of player A" in err and "size" in err


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("not json\n", ["line 1", "not valid JSON"]),
        ('{"record": "something else"}\n', ["not a killteam game record header"]),
    ],
)
def test_replay_unreadable_record_exits_2(
    text: str, words: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err
    for w in words:
        assert w in err


# -------------------------------------------------------------------------------------------
# The library
# -------------------------------------------------------------------------------------------


def test_wilson_interval_closed_forms_and_symmetry() -> None:
    z = 1.959963984540054
    for n in (1, 7, 100, 1000):
        lo, hi = wilson_interval(0, n)
        assert lo == 0.0 and hi == pytest.approx(z * z / (n + z * z))  # p = 0 in closed form
        for k in range(0, n + 1, max(1, n // 5)):
            lo, hi = wilson_interval(k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0
            mlo, mhi = wilson_interval(n - k, n)
            assert (lo, hi) == pytest.approx((1 - mhi, 1 - mlo))
    assert wilson_interval(500, 1000)[1] - wilson_interval(500, 1000)[0] < 0.07  # ~ 2z/2sqrt(n)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_seeds_are_derived_as_documented() -> None:
    assert agent_seeds(7) == (14, 15)
    seeds = [game_seed(1, i) for i in range(200)]
    assert len(set(seeds)) == 200 and all(0 <= s < 2**32 for s in seeds)
    assert seeds == [game_seed(1, i) for i in range(200)]
    assert game_seed(2, 0) not in seeds[:10]
    with pytest.raises(ValueError):
        game_seed(-1, 0)


def test_parse_agents() -> None:
    assert parse_agents("random") == ("random", "random")
    assert parse_agents("Heuristic, random") == ("heuristic", "random")
    with pytest.raises(BattleError, match="clever"):
        parse_agents("clever")


def test_an_imported_team_gets_a_legal_roster(tmp_path: Path) -> None:
    path = tmp_path / "TEST-BW.json"
    path.write_text(json.dumps(_fixture()), encoding="utf-8")
    team = load_team_ref(str(path))
    assert team.default_roster == ()  # importers never invent a roster
    roster = auto_roster(team)
    assert roster.validate() == []
    assert roster.operatives.count("Warden Captain") == 1 and len(roster.operatives) == 5
    kasrkin = load_builtin_team("kasrkin")
    assert auto_roster(kasrkin).entries == kasrkin.default_roster


def _scripted(
    state: GameState, actions: list[str], dice: list[str], narrator: Narrator
) -> GameState:
    queue = [parse_action(a) for a in actions]
    driver = ScriptedDice(dice)
    while queue or driver.left:
        if isinstance(state.node, Chance):
            action, actor = driver.roll(state), "chance"
        else:
            action, actor = queue.pop(0), "player"
        after, events = state.apply(action)
        narrator.on_step(state, action, actor, after, events)
        state = after
    narrator.close()
    return state


def test_narration_folds_a_fight_into_one_line() -> None:
    kasrkin, legionaries = load_builtin_team("kasrkin"), load_builtin_team("legionaries")
    leg = legionaries.default()  # Mark of Slaanesh: no re-roll (Undivided's Ceaseless) here
    leg = leg.with_choices(None, [{"Mark of Chaos": ["Slaanesh"]} for _ in leg.operatives])
    s = position(
        load_killzone("open_ruins"),
        kasrkin.default(),
        leg,
        operatives={"KAS-1": {"at": (15, 12)}, "LEG-1": {"at": (15, 13.3), "wounds": 5}},
        cp=(0, 0),
    )
    lines: list[str] = []
    chainsword = kasrkin.operative("Kasrkin Sergeant").weapon("Chainsword").profile()
    assert chainsword.critical_damage >= 5  # one crit strike incapacitates LEG-1 (5W left)
    final = _scripted(
        s,
        [
            "Activate KAS-1 engage",
            # LEG-1 (Aspiring Champion [Plasma Pistol + Power Fist]) has one melee weapon, so
            # it retaliates with its power fist without a choice.
            "Fight KAS-1 chainsword at LEG-1",
            "Strike crit",
        ],
        ["6,5,4,2", "6,3,1,1,1"],
        Narrator(lines.append),
    )
    assert final.operative("LEG-1").incapacitated
    fights = [line for line in lines if "fights LEG-1" in line]
    assert len(fights) == 1 and fights[0].startswith("  ")  # under the activation line
    fight = fights[0]
    for text in (
        "KAS-1 rolls 6,5,4,2",
        "LEG-1 rolls 6,3,1,1,1",
        "retaliates with power fist",
        f"LEG-1 takes {chainsword.critical_damage} damage",
        "incapacitated",
    ):
        assert text in fight, (text, fight)
    assert lines[0].startswith("KAS-1 activates (engage")
    assert any("A scores 1VP" in line for line in lines[lines.index(fight) :])


def test_render_state_labels_operatives_with_wounds_and_omits_the_incapacitated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import engine.board

    s = position(
        load_killzone("open_ruins"),
        load_builtin_team("kasrkin").default(),
        load_builtin_team("legionaries").default(),
        operatives={"KAS-1": {"at": (15, 12), "wounds": 3}, "LEG-2": {"at": (5, 5)}},
        vp=(2, 1),
    )
    svg = engine.board.render_state(s, tmp_path / "b.svg").read_text(encoding="utf-8")
    assert "VP A 2, B 1" in svg  # the title is text; labels with a halo are drawn as paths
    again = engine.board.render_state(s, tmp_path / "c.svg").read_text(encoding="utf-8")
    assert again == svg

    seen: dict[str, Any] = {}

    def fake(kz: Any, path: Any, **kwargs: Any) -> Path:
        seen.update(kwargs)
        return Path(path)

    monkeypatch.setattr(engine.board, "render_killzone", fake)
    engine.board.render_state(s, tmp_path / "d.svg")
    kas, leg = s.ctx.datacards["KAS-1"].wounds, s.ctx.datacards["LEG-2"].wounds
    assert seen["labels"] == {"KAS-1": f"KAS-1 3/{kas}", "LEG-2": f"LEG-2 {leg}/{leg}"}
    assert sorted(seen["operatives"]) == ["KAS-1", "LEG-2"]  # the others are not on the board
    assert seen["operatives"]["LEG-2"][0] == "B"


def test_picture_formats_match_the_renderer() -> None:
    from engine.cli.paths import PICTURE_SUFFIXES
    from engine.geometry.render import SUFFIXES

    assert PICTURE_SUFFIXES == SUFFIXES
