"""The same front doors for KT21 (issue 32 item 6): ``killteam play|batch|replay|render|view|
explain --ruleset kt21``, records and scenario files that name their ruleset, the matchup
under a ruleset, the environments' ruleset option and narration that never fails on an event.

Battles here are played with the built-in KT21 Kasrkin and Legionaries under KT21 and the
KT24 ones under KT24 (each ruleset plays only teams of its edition, ``rules/KT21.md`` 4.1). No
test depends on what an agent decides: only on the ruleset a battle, record or scenario is
played under and on the errors the doors give.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.envs.codec import CODEC_RULESETS
from engine.envs.core import EnvConfig
from engine.errors import KillTeamError
from engine.game import context
from engine.game.events import Event
from engine.game.record import RecordFormatError, read_record, replay_record
from engine.game.scenario_file import ScenarioFileError, load_scenario
from engine.narration import Narrator, generic_text
from engine.play import RULESET_TEAMS, BattleError, default_teams
from engine.play.matchup import MatchupChoice, make_matchup
from engine.rulesets import KT21, KT24, RULESETS
from engine.rulesets.sources import RulesetMismatchError, record_ruleset, scenario_ruleset

ROOT = Path(__file__).resolve().parents[1]
KT24_TEAMS = ("kasrkin", "legionaries")
KT21_TEAMS = ("kt21_kasrkin", "kt21_legionaries")
KT21_PLAY = ("--ruleset", "kt21", "--teams", *KT21_TEAMS, "--agents", "random")


DOORS_PENDING: tuple[str, ...] = ()
"""Rulesets the engine plays whose default teams table row is still to come (none: issue 33
gave KT18 its front doors, ``tests/test_kt18_doors.py``)."""

CODEC_PENDING = ("kt18",)
"""Rulesets the environments' action codec does not encode (KT18: no codec in issue 33; the
environments refuse it by name, ``tests/test_kt18_doors.py``)."""


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``killteam ARGS`` in this process: the exit status and standard output and error."""
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A short record of each ruleset, written by ``killteam play --record`` (random agents,
    seed 2): ``{"kt21": path, "kt24": path}``."""
    folder = tmp_path_factory.mktemp("records")
    out = {}
    for ruleset in ("kt21", "kt24"):
        path = folder / f"{ruleset}.jsonl"
        code = main(
            [
                "play",
                "--ruleset",
                ruleset,
                "--teams",
                *(KT21_TEAMS if ruleset == "kt21" else KT24_TEAMS),
                "--agents",
                "random",
                "--seed",
                "2",
                "-q",
                "--record",
                str(path),
            ]
        )
        assert code == 0
        out[ruleset] = path
    return out


# -------------------------------------------------------------------------------------------
# The ruleset table and the matchup
# -------------------------------------------------------------------------------------------


def test_ruleset_default_teams_table_names_every_ruleset_the_engine_plays() -> None:
    """One table of default teams per ruleset (no branch on a ruleset's name): its rows are
    exactly the rulesets the options accept and the composition roots the engine has; KT21's
    defaults are the built-in KT21 teams the issue names."""
    playable = tuple(r for r in context.RULESETS if r not in DOORS_PENDING)
    assert tuple(RULESET_TEAMS) == playable
    assert set(RULESET_TEAMS) == set(RULESETS) - set(DOORS_PENDING)
    assert default_teams("kt24") == KT24_TEAMS
    assert default_teams("kt21") == ("kt21_kasrkin", "kt21_legionaries")
    with pytest.raises(BattleError, match=r"ruleset 'kt99'.*known: kt24, kt21"):
        default_teams("kt99")


def test_kt21_matchup_plays_critical_operations_2022_by_default() -> None:
    """``rules/KT21.md`` 1.2 (digest decision 7): a KT21 battle plays Critical Operations 2022
    unless another game sequence is chosen; a KT24 team is refused under KT21 before any
    battle, the message naming the team and the edition (4.1: KT21 datacards differ)."""
    m = make_matchup(MatchupChoice(ruleset="kt21", teams=KT21_TEAMS))
    assert m.options.ruleset == "kt21" and m.options.mission == "critical_ops_2022"
    assert m.new_game().ctx.rules.ruleset is KT21
    with pytest.raises(BattleError, match=r"'kasrkin'.*KT24 datacards.*KT21 teams only"):
        make_matchup(MatchupChoice(ruleset="kt21", teams=KT24_TEAMS))
    lite = make_matchup(MatchupChoice(ruleset="kt21", teams=KT21_TEAMS, mission="lite"))
    assert lite.options.mission == "lite"
    plain = make_matchup()
    assert plain.options.ruleset == "kt24" and plain.options.mission == "approved_ops_2025"
    assert plain.notes == ()


def test_kt21_default_teams_are_the_built_in_kt21_teams() -> None:
    """With ``--ruleset kt21`` and no ``--teams`` the teams are KT21's defaults, the built-in
    KT21 teams (never the KT24 teams in their place)."""
    m = make_matchup(MatchupChoice(ruleset="kt21"))
    assert tuple(r.team.id for r in m.rosters) == default_teams("kt21") == KT21_TEAMS


@pytest.mark.parametrize(
    ("ruleset", "mission", "named"),
    [("kt21", "kill_op", "KT21"), ("kt24", "lite", "KT24"), ("kt21", "nope", "mission")],
)
def test_mission_of_another_ruleset_is_refused(ruleset: str, mission: str, named: str) -> None:
    """Each ruleset plays only its own missions (``rules/KT21.md`` 1, ``rules/KT24.md`` 8): a
    mission of the other edition, or no mission at all, is refused before any battle, the
    message naming the mission."""
    teams = KT21_TEAMS if ruleset == "kt21" else KT24_TEAMS
    with pytest.raises(BattleError, match=named) as got:
        make_matchup(MatchupChoice(ruleset=ruleset, teams=teams, mission=mission))
    assert repr(mission) in str(got.value)


def test_kt21_refuses_options_its_rules_do_not_play() -> None:
    """An option is refused rather than silently ignored when the ruleset's rules do not
    play it: KT24's universal equipment (KT21 selects only the team's own equipment, 1.2
    step 6) and an op name the KT21 ruleset does not have (no KT21 mission card or tac op text is
    sourced, ``rules/KT21.md`` 15.3), never suggesting a KT24 op in its place; the empty
    selection ``none`` fixes the player's selection to nothing."""
    with pytest.raises(BattleError, match=r"player A: equipment 'Mines': unknown Kasrkin"):
        make_matchup(MatchupChoice(ruleset="kt21", teams=KT21_TEAMS, equipment=("Mines", None)))
    with pytest.raises(BattleError, match=r"'crit_op': KT21 mission 'Secure' is not") as got:
        make_matchup(MatchupChoice(ruleset="kt21", teams=KT21_TEAMS, crit_op="Secure"))
    assert "did you mean" not in str(got.value)
    with pytest.raises(BattleError, match=r"player B's KT21 tac op 'Rout' is not implemented"):
        make_matchup(MatchupChoice(ruleset="kt21", teams=KT21_TEAMS, tac_ops=(None, "Rout")))
    m = make_matchup(MatchupChoice(ruleset="kt21", teams=KT21_TEAMS, equipment=("none", None)))
    assert m.options.equipment == (("A", ()),)  # A selects no equipment; B is asked


def test_env_config_builds_a_kt21_matchup_the_codec_encodes() -> None:
    """The environments build their battle through the same matchup under the ruleset they
    are given, and the action codec encodes every ruleset the engine plays (KT21's actions
    have their own families, appended after KT24's): a KT21 environment plays KT21 teams, a
    KT24 one KT24's, and an unknown ruleset is refused naming it."""
    assert set(CODEC_RULESETS) == set(RULESETS) - set(CODEC_PENDING)
    assert EnvConfig(ruleset="kt21", teams=KT21_TEAMS).matchup().options.ruleset == "kt21"
    assert EnvConfig(ruleset="kt24").matchup().options.ruleset == "kt24"
    with pytest.raises(KillTeamError, match="kt99"):
        EnvConfig(ruleset="kt99").matchup()


# -------------------------------------------------------------------------------------------
# The command line: play, batch, replay, render, view, explain
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["play", "batch", "replay", "render", "view", "explain"])
def test_unknown_ruleset_option_names_the_option_and_the_value(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every front door takes ``--ruleset``; an unknown one is bad input (status 2), its one
    error line naming the option, the value and the rulesets played."""
    extra = {"replay": ["x.jsonl"], "render": ["open_ruins", "-o", "x.png"]}
    extra["view"] = ["x.jsonl", "-o", "x.html"]
    extra["explain"] = ["x.toml", "event", "1"]
    code, _, err = _run(capsys, command, *extra.get(command, []), "--ruleset", "kt99")
    assert code == 2
    assert "--ruleset" in err and "kt99" in err and "kt24" in err and "kt21" in err
    assert "kt18" in err


def test_play_kt21_record_header_and_summary_name_the_ruleset(
    records: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A record's header names the ruleset it was played under (DESIGN.md "Rulesets"), and
    ``killteam play --json`` says it with the mission (Critical Operations 2022 by
    default, ``rules/KT21.md`` 1.2)."""
    header = read_record(records["kt21"])[0]
    assert header["ruleset"] == "kt21" and header["options"]["ruleset"] == "kt21"
    assert read_record(records["kt24"])[0]["ruleset"] == "kt24"
    code, out, _ = _run(capsys, "play", *KT21_PLAY, "--seed", "2", "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["ruleset"] == "kt21" and summary["mission"] == "critical_ops_2022"


def test_play_kt21_narrates_with_the_ruleset_named(capsys: pytest.CaptureFixture[str]) -> None:
    """``killteam play --ruleset kt21`` narrates the battle, its first line naming the
    ruleset and game sequence, and ends with the summary."""
    code, out, err = _run(capsys, "play", *KT21_PLAY, "--seed", "4")
    assert code == 0, err
    assert "kt21 critical_ops_2022, seed 4" in out.splitlines()[0]
    assert "=== Turning point 1 ===" in out and "Victory points" in out


def test_replay_takes_the_ruleset_from_the_record(
    records: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """``killteam replay`` and ``--verify`` replay a record under the ruleset its header
    names, with no option: a KT21 record replays and verifies as KT21, a KT24 record as
    KT24."""
    assert record_ruleset(records["kt21"]) is KT21 and record_ruleset(records["kt24"]) is KT24
    for ruleset, path in records.items():
        code, out, err = _run(capsys, "replay", str(path), "--json")
        assert code == 0, err
        assert json.loads(out)["ruleset"] == ruleset
        code, out, err = _run(capsys, "replay", str(path), "--verify", "-q")
        assert code == 0, err
        assert "replay OK" in out


@pytest.mark.parametrize(("recorded", "under"), [("kt24", "kt21"), ("kt21", "kt24")])
def test_a_record_never_replays_under_another_ruleset(
    recorded: str, under: str, records: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """DESIGN.md "Rulesets": a record of one ruleset never replays under another, in both
    directions: the library refuses it (the header's field named) and so does every door
    given ``--ruleset`` of the other (status 2, both rulesets named)."""
    with pytest.raises(RecordFormatError, match=r"header field 'ruleset'"):
        replay_record(records[recorded], ruleset=RULESETS[under])
    path = str(records[recorded])
    for args in (
        ["replay", path, "-q"],
        ["replay", path, "--verify", "-q"],
        ["explain", path, "event", "1"],
    ):
        code, _, err = _run(capsys, *args, "--ruleset", under)
        assert code == 2, args
        assert f"ruleset {recorded!r} does not replay under the ruleset {under!r}" in err
    code, _, err = _run(capsys, "replay", path, "-q", "--ruleset", recorded.upper())
    assert code == 0, err  # its own ruleset, in any case


def test_render_view_explain_a_kt21_record(
    records: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``render``, ``view`` and ``explain`` read a KT21 record under KT21 (its header's
    ruleset); ``render`` of a killzone takes no ruleset (a layout is the same in every
    ruleset) and says so."""
    path = str(records["kt21"])
    code, out, err = _run(capsys, "render", path, "-o", str(tmp_path / "a.svg"), "--at", "5")
    assert code == 0, err
    assert "(step 5:" in out
    code, out, err = _run(capsys, "view", path, "-o", str(tmp_path / "a.html"))
    assert code == 0, err
    assert "frames)" in out
    code, out, err = _run(capsys, "explain", path, "--step", "3", "event", "1", "--json")
    assert code == 0, err
    assert json.loads(out)
    code, _, err = _run(
        capsys, "render", "open_ruins", "-o", str(tmp_path / "k.png"), "--ruleset", "kt21"
    )
    assert code == 2 and "--ruleset" in err


def test_batch_kt21_gives_win_rates(capsys: pytest.CaptureFixture[str]) -> None:
    """``killteam batch --ruleset kt21`` plays its games under KT21 and reports A's win, draw
    and loss counts, which add up to the games played."""
    code, out, err = _run(capsys, "batch", *KT21_PLAY, "-n", "2", "--workers", "1", "--json", "-q")
    assert code == 0, err
    stats = json.loads(out)
    assert stats["ruleset"] == "kt21" and stats["mission"] == "critical_ops_2022"
    assert stats["games"] == 2
    assert sum(stats["a"][k]["count"] for k in ("win", "draw", "loss")) == 2


# -------------------------------------------------------------------------------------------
# Scenario files
# -------------------------------------------------------------------------------------------

_SCENARIO = """
name = "A KT21 position"
killzone = "{kz}"
ruleset = "{ruleset}"

[teams.A]
team = "{probe}"
operatives = ["Probe Trooper"]

[teams.B]
team = "{target}"
operatives = ["Target Trooper"]

[position.operatives.PRO-1]
at = [4, 4]
[position.operatives.TAR-1]
at = [20, 8]
"""


def _scenario(tmp_path: Path, ruleset: str) -> Path:
    """A scenario file of ``ruleset`` with the probe and target teams of its edition."""
    path = tmp_path / f"{ruleset}.toml"
    prefix = "kt21_" if ruleset == "kt21" else ""
    path.write_text(
        _SCENARIO.format(
            kz=ROOT / "scenarios/killzones/range.toml",
            probe=ROOT / f"scenarios/teams/{prefix}probe.json",
            target=ROOT / f"scenarios/teams/{prefix}target.json",
            ruleset=ruleset,
        ),
        encoding="utf-8",
    )
    return path


def test_scenario_file_names_its_ruleset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A scenario file's ``ruleset = "kt21"`` makes its battle a KT21 one (its options'
    ruleset, and so KT21's default game sequence), which every door runs under KT21; asked
    for another ruleset, the door refuses (status 2, both named); a file without the field
    is KT24's."""
    path = _scenario(tmp_path, "kt21")
    scenario = load_scenario(path)
    assert scenario.options.ruleset == "kt21" and scenario.options.mission == "critical_ops_2022"
    assert (
        scenario.start(ruleset=scenario_ruleset("kt21", None, str(path))).ctx.rules.ruleset is KT21
    )
    code, _out, err = _run(capsys, "replay", str(path), "-q")
    assert code == 0, err
    code, _, err = _run(capsys, "replay", str(path), "-q", "--ruleset", "kt24")
    assert code == 2 and "--ruleset kt24" in err and "ruleset kt21" in err
    code, _, err = _run(capsys, "explain", str(path), "event", "1", "--ruleset", "kt24")
    assert code == 2 and "ruleset kt21" in err
    with pytest.raises(RulesetMismatchError):
        scenario_ruleset("kt24", "kt21", "x.toml")
    plain = load_scenario(ROOT / "scenarios/action_fall_back_costs_two_ap.toml")
    assert plain.options.ruleset == "kt24"


def test_scenario_file_unknown_ruleset_is_named(tmp_path: Path) -> None:
    """A scenario file naming a ruleset the engine does not play is malformed: the error
    names the field and the value."""
    with pytest.raises(ScenarioFileError, match=r"ruleset.*'kt99' is not one of kt24, kt21, kt18"):
        load_scenario(_scenario(tmp_path, "kt99"))


# -------------------------------------------------------------------------------------------
# Narration
# -------------------------------------------------------------------------------------------


def test_narration_says_an_event_it_cannot_read_plainly() -> None:
    """An event whose data the narrator's line for its kind does not read (another
    ruleset's ``activated`` without an order or AP) is written as its kind and data, never
    a crash."""
    lines: list[str] = []
    narrator = Narrator(lines.append)
    from engine.game.actions import parse_action

    e = Event.make("activated", op="KAS-1", group=2)
    assert generic_text(e) == "activated: group 2, op KAS-1"
    narrator.on_step(None, parse_action("Pass"), "A", None, [e])  # type: ignore[arg-type]
    narrator.close()
    assert any("activated: group 2, op KAS-1" in line for line in lines)


def test_tournament_under_kt21_plays_its_battles_under_kt21() -> None:
    """``killteam tournament --ruleset kt21``: every scheduled battle is a KT21 one, the
    seats without a team playing the ruleset's default teams; an unknown ruleset is refused
    by name."""
    from engine.play.tournament import make_entrants, schedule

    entrants = make_entrants("random,heuristic", ("kt21_kasrkin",))
    pairings = schedule(entrants, 1, ruleset="kt21")
    assert pairings and all(p.job.choice.ruleset == "kt21" for p in pairings)
    with pytest.raises(BattleError, match="kt99"):
        schedule(make_entrants("random,heuristic", ()), 1, ruleset="kt99")
