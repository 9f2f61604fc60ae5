"""The same front doors for KT18 (issue 33 item 6): ``killteam play|batch|replay|render|view
--ruleset kt18``, records naming the ruleset, the matchup under KT18 (Covert War, the default
teams ``kt18_space_marines`` v ``kt18_orks``), ``teams list``, the refusals of ``explain``
and of the environments (no KT18 queries or action codec yet: each one line naming why), the
narration of a battle by battle round and phase, and the heuristic agent's valuations.

Battles here are short random ones (a record of random agents; no test depends on what an
agent decides, only on the ruleset a battle is played under, on what is narrated from events
and on exact dice arithmetic).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from engine.advice.kt18_values import attack_value, charge_odds, model_worth
from engine.batch import BatchError, check_batch_line
from engine.cli import main
from engine.dice.kt18 import Kt18Attack, Kt18Target
from engine.dice.kt18_values import parse_random_value
from engine.envs.core import EnvConfig
from engine.errors import KillTeamError
from engine.game.events import Event, narrate
from engine.game.record import read_record
from engine.narration import Narrator
from engine.play import RULESET_TEAMS, BattleError, default_teams, game_seed
from engine.play.matchup import MatchupChoice, make_matchup
from engine.rulesets import KT18
from engine.rulesets.sources import record_ruleset

KT18_TEAMS = ("kt18_space_marines", "kt18_orks")
KT18_PLAY = ("--ruleset", "kt18", "--agents", "random")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``killteam ARGS`` in this process: the exit status and standard output and error."""
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A KT18 record written by ``killteam play --ruleset kt18 --record`` (random agents,
    seed 3, the default teams)."""
    path = tmp_path_factory.mktemp("records") / "kt18.jsonl"
    assert main(["play", *KT18_PLAY, "--seed", "3", "-q", "--record", str(path)]) == 0
    return path


# -------------------------------------------------------------------------------------------
# The matchup
# -------------------------------------------------------------------------------------------


def test_kt18_default_teams_are_the_built_in_kt18_teams() -> None:
    """The default teams table has a KT18 row, the two built-in KT18 kill teams the issue
    names; with ``--ruleset kt18`` and no ``--teams`` a battle plays them, in Covert War (the
    only KT18 mission, ``rules/KT18.md`` 9)."""
    assert RULESET_TEAMS["kt18"] == default_teams("kt18") == KT18_TEAMS
    m = make_matchup(MatchupChoice(ruleset="kt18"))
    assert tuple(r.team.id for r in m.rosters) == KT18_TEAMS
    assert m.options.ruleset == "kt18" and m.options.mission == "covert_war"
    assert m.new_game().ctx.rules.ruleset is KT18


def test_kt18_refuses_other_editions_teams_and_missions() -> None:
    """A KT18 battle plays only KT18 datacards (``rules/KT18.md`` 1.7: M, WS, BS... differ)
    and only Covert War: a KT24 team or a mission of another edition is refused before any
    battle, the message naming it."""
    with pytest.raises(BattleError, match="kasrkin"):
        make_matchup(MatchupChoice(ruleset="kt18", teams=("kasrkin", "kt18_orks")))
    with pytest.raises(BattleError, match="'lite'"):
        make_matchup(MatchupChoice(ruleset="kt18", mission="lite"))


# -------------------------------------------------------------------------------------------
# The command line
# -------------------------------------------------------------------------------------------


def test_play_kt18_narrates_a_whole_covert_war_battle(capsys: pytest.CaptureFixture[str]) -> None:
    """``killteam play --ruleset kt18`` plays a whole battle from the set-up (strategic
    advantage, 9.3) through five battle rounds (2.1, 9.6), narrated under a header per round
    and per phase where something happens, and ends with the result line and the tables."""
    code, out, err = _run(capsys, "play", *KT18_PLAY, "--seed", "4")
    assert code == 0, err
    lines = out.splitlines()
    assert "kt18 covert_war, seed 4" in lines[0]
    assert lines[1].startswith("Set-up: strategic advantage: A ")
    assert [n for n in lines if n.startswith("=== Battle round")] == [
        f"=== Battle round {r} ===" for r in range(1, 6)
    ]
    assert "-- Initiative phase" in lines and "-- Movement phase" in lines
    assert any(n.startswith("Battle over:") and "victory" in n for n in lines)
    assert "Victory points" in out and "Primary objective" in out


def test_play_kt18_record_and_json_name_the_ruleset(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A KT18 record's header names ``kt18`` (DESIGN.md "Rulesets"), it replays and verifies
    under KT18 with no option, and ``--json`` says the ruleset and mission."""
    header = read_record(record)[0]
    assert header["ruleset"] == "kt18" and header["options"]["ruleset"] == "kt18"
    assert record_ruleset(record) is KT18
    code, out, err = _run(capsys, "replay", str(record), "--verify", "-q")
    assert code == 0, err
    assert "replay OK" in out
    code, out, err = _run(capsys, "replay", str(record), "--json")
    assert code == 0, err
    assert json.loads(out)["ruleset"] == "kt18"
    code, _, err = _run(capsys, "replay", str(record), "-q", "--ruleset", "kt24")
    assert code == 2 and "ruleset 'kt18' does not replay under the ruleset 'kt24'" in err


def test_render_and_view_a_kt18_record(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``render`` and ``view`` read a KT18 record under the ruleset its header names."""
    code, out, err = _run(capsys, "render", str(record), "-o", str(tmp_path / "a.svg"), "--at", "5")
    assert code == 0, err
    assert "(step 5:" in out
    code, out, err = _run(capsys, "view", str(record), "-o", str(tmp_path / "a.html"))
    assert code == 0, err
    assert "frames)" in out


def test_explain_refuses_a_kt18_record_in_one_line(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``killteam explain`` has no KT18 queries (issue 33 chooses to refuse): it says so in
    one error line naming the ruleset and where the exact odds of an attack are (``calc``),
    status 2."""
    code, out, err = _run(capsys, "explain", str(record), "--step", "50", "event", "1")
    assert code == 2 and not out
    lines = [n for n in err.splitlines() if n.strip()]
    assert len(lines) == 1
    assert "'kt18'" in lines[0] and "killteam calc --ruleset" in lines[0]


def test_environments_refuse_kt18_by_name() -> None:
    """The AI environments have no KT18 action codec (issue 33): asking for a KT18
    environment is refused in one line naming the ruleset and the rulesets encoded."""
    with pytest.raises(KillTeamError, match=r"'kt18'.*codec.*kt24, kt21"):
        EnvConfig(ruleset="kt18").matchup()


def test_batch_kt18_gives_win_rates(capsys: pytest.CaptureFixture[str]) -> None:
    """``killteam batch --ruleset kt18`` plays its games under KT18 and reports A's win, draw
    and loss counts, which add up to the games played."""
    code, out, err = _run(capsys, "batch", *KT18_PLAY, "-n", "1", "--workers", "1", "--json", "-q")
    assert code == 0, err
    stats = json.loads(out)
    assert stats["ruleset"] == "kt18" and stats["mission"] == "covert_war"
    assert sum(stats["a"][k]["count"] for k in ("win", "draw", "loss")) == 1


def test_teams_list_shows_the_kt18_teams(capsys: pytest.CaptureFixture[str]) -> None:
    """``killteam teams list`` shows the built-in KT18 teams in a table of their own."""
    code, out, err = _run(capsys, "teams", "list")
    assert code == 0, err
    assert "Kill Team 2018 (--ruleset kt18)" in out
    assert all(t in out for t in KT18_TEAMS)


# -------------------------------------------------------------------------------------------
# The batch check, the result line and the narration
# -------------------------------------------------------------------------------------------


def _line(vp: tuple[int, int], winner: str | None) -> dict[str, object]:
    return {
        "index": 0,
        "seed": game_seed(5, 0),
        "agents": {"A": "random", "B": "random"},
        "vp": {"A": vp[0], "B": vp[1]},
        "vp_by_op": {"objective": {"A": vp[0], "B": vp[1]}},
        "winner": winner,
        "kills": {"A": 0, "B": 0},
        "ploys_used": {},
        "equipment": {},
        "crit_op": None,
        "tac_ops": {},
        "primary_ops": {},
        "steps": 10,
        "finished": True,
        "hash": "x",
        "unimplemented_rules": {},
    }


def test_batch_check_accepts_covert_war_minor_victory_on_equal_vp() -> None:
    """Covert War has no draws (``rules/KT18.md`` 9.6): equal VP is a minor victory for one
    player, so a batch reads back a winner on equal VP; a winner with fewer VP is still
    refused."""
    assert check_batch_line(_line((2, 2), "B"), 0, 5, ("random", "random"))["winner"] == "B"
    with pytest.raises(BatchError, match="has winner 'B' with VP 4-2"):
        check_batch_line(_line((4, 2), "B"), 0, 5, ("random", "random"))


def test_battle_over_line_names_the_kind_of_victory() -> None:
    """The result line says a major or minor victory when the battle's rules name one
    (``rules/KT18.md`` 9.6), and stays as before when they do not (KT24's ``battle_ended``
    has no ``victory``)."""
    minor = Event.make("battle_ended", vp=(0, 0), winner="B", victory="minor")
    assert narrate(minor) == "Battle over: A 0VP, B 0VP - B wins a minor victory"
    plain = Event.make("battle_ended", vp=(3, 1), winner="A")
    assert narrate(plain) == "Battle over: A 3VP, B 1VP - A wins"


def test_narration_groups_kt18_events_by_round_phase_and_model() -> None:
    """The narrator writes a KT18 battle round's header, a phase's header only with its first
    line (an empty phase is not shown), the Readied models on one line, and a weapon's dice
    on the line of its attacks, the saving throw named by its kind (6.6)."""
    lines: list[str] = []
    n = Narrator(lines.append)
    events = [
        Event.make("kt18_round_started", round=1),
        Event.make("kt18_phase_started", phase="psychic", round=1),
        Event.make("kt18_phase_started", phase="movement", round=1),
        Event.make("kt18_readied", op="SPA-1"),
        Event.make("kt18_readied", op="SPA-2"),
        Event.make("kt18_phase_started", phase="shooting", round=1),
        Event.make("kt18_section_started", phase="shooting", section="ready"),
        Event.make("kt18_model_chosen", op="SPA-1", phase="shooting", section="ready"),
        Event.make(
            "kt18_weapon_fired",
            op="SPA-1",
            weapon="boltgun",
            targets=("ORK-1",),
            attacks=(1,),
            overwatch=False,
        ),
        Event.make(
            "kt18_saving_throw", face=2, op="SPA-1", save="armour", saved=False, target="ORK-1"
        ),
    ]
    for e in events:
        n._event(e, None, "chance", None)  # type: ignore[arg-type]
    n.close()
    assert lines == [
        "=== Battle round 1 ===",
        "-- Movement phase",
        "  Readied: SPA-1, SPA-2",
        "-- Shooting phase",
        "  Ready, Fire!",
        "  SPA-1 shoots",
        "    SPA-1 attacks with boltgun: 1 at ORK-1: ORK-1 armour save: 2, failed",
    ]


# -------------------------------------------------------------------------------------------
# The heuristic's valuations
# -------------------------------------------------------------------------------------------


def test_charge_odds_are_the_2d6_at_least_the_gap() -> None:
    """A charge roll is 2D6 inches (``rules/KT18.md`` 3.13): a 7" gap is covered by 21 of the
    36 rolls (7+: 6+5+4+3+2+1); 2" or less always; more than 12" never; a fractional gap
    needs the next whole inch (5.5" needs 6+: 26/36)."""
    assert charge_odds(7.0) == Fraction(21, 36)
    assert charge_odds(1.2) == 1
    assert charge_odds(12.5) == 0
    assert charge_odds(5.5) == Fraction(26, 36)


def test_attack_value_reads_the_exact_odds() -> None:
    """One attack at BS 4+ (1/2 hits), S4 against T4 (wounds on 4+, 1/2, 6.5), no save, D1
    against a 1-wound model: P(taken to 0) = 1/4, and the Injury D6 puts it out of action on
    4+ (1/2, 6.9): P(out of action) = 1/8, P(flesh wound) = 1/8, expected wounds lost 1/4.
    Its value (worth 1): 1/8 + 0.3 x 1/8 + 0.2 x 1/4 = 0.2125."""
    one = parse_random_value("1")
    attack = Kt18Attack(attacks=one, skill=4, strength=4, ap=0, damage=one)
    target = Kt18Target(toughness=4, save=0, wounds=1)
    assert attack_value(attack, target, model_worth(1)) == pytest.approx(0.2125)
    assert model_worth(3) == 1.5  # 1 + 0.25 per wound above the first


def test_kt18_scenario_file_replays_under_its_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    """A scenario file with ``ruleset = "kt18"`` runs under KT18 with no option (its
    expectations met: the Advance roll added to M, ``rules/KT18.md`` 3.7); asked for another
    ruleset, the door refuses (status 2, both named)."""
    path = str(Path(__file__).resolve().parents[1] / "scenarios/kt18_advance.toml")
    code, out, err = _run(capsys, "replay", path)
    assert code == 0, err
    assert "scenario OK" in out
    code, _, err = _run(capsys, "replay", path, "-q", "--ruleset", "kt24")
    assert code == 2 and "--ruleset kt24" in err and "ruleset kt18" in err
