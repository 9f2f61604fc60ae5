"""``engine.explain`` and ``killteam explain``: rulings with the rule behind each step, on
hand-built positions whose expected rulings are worked out from the rule text
(``rules/KT24.md`` 4.3-4.5 sight, cover and obscured, 1.5 and 3.2 action conditions, 4.8
marker control, 5.1 and 5.2 attacks; ``docs/EXPLAIN.md``).

Positions are scenario files (:mod:`engine.game.scenario_file`) on the fixture range
(``scenarios/killzones/range.toml``): lane 2 (y 7-11) holds one Heavy feature "heavy feature 2"
of two parts, x 11-11.5 (part 1) and x 15-15.5 (part 2), 1" high; lane 3 (y 13-17) a Light
wall at x 15-15.5 and a separate Heavy pillar at x 11-11.5. With a shooter at x 8 and a
target at x 16.5 (28 mm bases, 0.551" radius) the part at x 15-15.5 is 1 - 0.551 = 0.449"
from the target's base (within 1": cover, 4.5), and the part at x 11-11.5 is 16.5 - 0.551 -
11.5 = 4.449" from the target and 11 - 8 - 0.551 = 2.449" from the shooter (more than 1" from
both: it obscures, 4.5).
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest

from engine.cli import main
from engine.explain import SCHEMA, QueryError, explain, parse_query
from engine.explain.events import EVENT_RULES
from engine.game.scenario_check import play_step
from engine.game.scenario_file import load_scenario
from engine.game.state import GameState
from engine.game.vocabulary import EventKind
from engine.rulesets import get as get_ruleset

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
EDGE_02 = SCENARIOS / "edge_02_cover_vs_obscured_same_feature.toml"
EDGE_13 = SCENARIOS / "edge_13_marker_control_and_carrying.toml"


def _state(path: Path, steps: int = 0) -> tuple[GameState, list]:
    sc = load_scenario(path)
    state = sc.start(ruleset=get_ruleset(sc.options.ruleset))
    events: list = []
    for k, step in enumerate(sc.steps[:steps]):
        state, got = play_step(state, step, f"step {k + 1}")
        events += got
    return state, events


def _position(tmp_path: Path, body: str, steps: str = "") -> GameState:
    """A position on the range: probe (A: PRO-1 leader, PRO-2, PRO-3) against target (B:
    TAR-1 leader, TAR-2, TAR-3), ``body`` the [position.operatives.*] tables, ``steps`` the
    script played first."""
    text = f"""
name = "explain test"
killzone = "{SCENARIOS / "killzones" / "range.toml"}"
[teams.A]
team = "{SCENARIOS / "teams" / "probe.json"}"
operatives = ["Probe Leader", "Probe Trooper", "Probe Trooper"]
[teams.B]
team = "{SCENARIOS / "teams" / "target.json"}"
operatives = ["Target Leader", "Target Trooper", "Target Trooper"]
[options]
objectives_pickup = true
[position]
cp = [0, 0]
{body}
{steps}
"""
    path = tmp_path / "position.toml"
    path.write_text(text)
    state, _ = _state(path, steps.count("[[steps]]"))
    return state


# -- target ------------------------------------------------------------------------------


def test_target_conceal_operative_behind_a_heavy_feature_is_in_cover_from_its_near_part() -> None:
    """4.5: a Conceal operative in cover is not a valid target. TAR-1 (Conceal, x 16.5) is in
    cover from part 2 of "heavy feature 2" (0.449" away: within 1") and obscured by its part
    1 (more than 1" from both bases); the same feature counts once (EDGE_CASES 2) and for
    selection its cover counts, so the verdict is the game's own refusal (4.5)."""
    state, _ = _state(EDGE_02, 1)
    r = explain(state, "target PRO-1 TAR-1")
    assert r.verdict is False
    assert r.data["cover_parts"] == ["heavy feature 2, part 2 (Heavy)"]
    assert r.data["obscuring_parts"] == ["heavy feature 2, part 1 (Heavy)"]
    assert r.data["order"] == "conceal"
    checks = {s.check: s for s in r.steps}
    assert checks["visible"].result == "yes" and checks["visible"].rule == "4.3"
    assert checks["in cover"].rule == "4.5" and '0.45"' in checks["in cover"].detail
    assert checks["same feature"].rule == "4.5, EDGE_CASES 2"
    assert checks["valid target"].result == "no"
    assert "not a valid target (4.5)" in r.answer
    # The refusal is the one the game gives when the shot is tried.
    assert "not a valid target (4.5)" in explain(state, "can PRO-1 Shoot rifle at TAR-1").answer


def test_target_cover_and_obscured_from_two_features_both_apply() -> None:
    """4.5: in lane 3 the Light wall 0.449" from TAR-3 gives cover and the Heavy pillar, more
    than 1" from both, obscures; they are different features, so both apply. TAR-3 has an
    Engage order: visible is enough for a valid target."""
    state, _ = _state(EDGE_02, 1)
    r = explain(state, "target PRO-2 TAR-3")
    assert r.verdict is True
    assert (r.data["in_cover"], r.data["obscured"]) == (True, True)
    assert r.data["cover_parts"] == ["light wall 3 (Light)"]
    assert r.data["obscuring_parts"] == ["heavy pillar 3 (Heavy)"]
    roles = dict(r.drawing.parts)
    assert sorted(roles.values()) == ["cover", "obscuring"]


def test_target_out_of_the_weapons_range_is_not_valid(tmp_path: Path) -> None:
    """6 Range: the target pistol has Range 8"; PRO-2 stands 20 - 10 - 2 x 0.551 = 8.898"
    from TAR-2 on open ground (lane 3's terrain is at x 11-15.5, the line runs along y 19),
    so it is visible but out of range."""
    state = _position(
        tmp_path,
        """
[position.operatives.TAR-2]
at = [10, 19]
[position.operatives.PRO-2]
at = [20, 19]
""",
    )
    r = explain(state, "target TAR-2 PRO-2 pistol")
    checks = {s.check: s for s in r.steps}
    assert checks["visible"].result == "yes"
    assert checks["in range"].result == "no"
    assert 'Range 8"' in checks["in range"].detail
    assert r.verdict is False
    assert r.data["distance"] == pytest.approx(20 - 10 - 2 * 14 / 25.4, abs=1e-3)


# -- can ---------------------------------------------------------------------------------


def test_can_lists_every_rule_forbidding_a_charge(tmp_path: Path) -> None:
    """3.2: Charge cannot be performed in the same activation as Reposition, and (1.5, 3.2) an
    operative with a Conceal order cannot Charge. The game refuses with the first; explain
    lists both, and the state does not change."""
    state = _position(
        tmp_path,
        """
[position.operatives.PRO-1]
at = [8, 19]
[position.operatives.TAR-2]
at = [24, 19]
""",
        """
[[steps]]
actions = ["Activate PRO-1 conceal", "Reposition PRO-1 to 6,19"]
""",
    )
    before = state.hash()
    r = explain(state, "can PRO-1 Charge")
    reasons = [x["reason"] for x in r.data["reasons"]]
    assert r.verdict is False
    assert any("same activation as Reposition (3.2)" in x for x in reasons)
    assert any("Conceal order cannot Charge (1.5, 3.2)" in x for x in reasons)
    assert {x["rule"] for x in r.data["reasons"]} >= {"3.2", "1.5, 3.2"}
    assert state.hash() == before
    with pytest.raises(Exception, match="same activation as Reposition"):
        state.apply("Charge PRO-1")


def test_can_lists_every_rule_refusing_a_shoot_target(tmp_path: Path) -> None:
    """4.5, 6 Range: TAR-1 (Conceal) stands 0.449" behind the Heavy part at x 15-15.5 (in
    cover: a Conceal operative in cover is not a valid target), PRO-2 stands 1.2" from it
    (0.098" between the bases: within its control range, so PRO-1 may not shoot it), and it
    is 8.5" from PRO-1, beyond the Torrent Gun's Range 6". The game refuses with the first
    (the sight check); explain lists all three, each with its section, and the state does
    not change."""
    state = _position(
        tmp_path,
        """
[position.operatives.PRO-1]
at = [8, 9]
[position.operatives.PRO-2]
at = [17.7, 9]
[position.operatives.TAR-1]
at = [16.5, 9]
order = "conceal"
""",
        """
[[steps]]
actions = ["Activate PRO-1 engage"]
""",
    )
    before = state.hash()
    r = explain(state, "can PRO-1 Shoot torrent gun at TAR-1")
    assert r.verdict is False
    reasons = [x["reason"] for x in r.data["reasons"]]
    assert len(reasons) == 3, reasons
    assert "Conceal order and is in cover" in reasons[0]
    assert "friendly operative (PRO-2)" in reasons[1]
    assert "Range 6" in reasons[2]
    assert [x["rule"] for x in r.data["reasons"]] == ["4.5", "4.5", "6"]
    assert state.hash() == before
    with pytest.raises(Exception, match="Conceal order and is in cover"):
        state.apply("Shoot PRO-1 torrent gun at TAR-1")


def test_can_lists_every_rule_refusing_a_fight(tmp_path: Path) -> None:
    """3.2: Fight needs an enemy operative within control range (the action's condition),
    and 5.2 step 1: the selected target must be within the fighter's control range. TAR-2
    is 16" from PRO-1 (the only enemy), so both refuse; explain lists both, the action's
    condition first (the game checks it first)."""
    state = _position(
        tmp_path,
        """
[position.operatives.PRO-1]
at = [8, 19]
[position.operatives.TAR-2]
at = [24, 19]
""",
        """
[[steps]]
actions = ["Activate PRO-1 engage"]
""",
    )
    r = explain(state, "can PRO-1 Fight big blade at TAR-2")
    assert r.verdict is False
    assert [x["rule"] for x in r.data["reasons"]] == ["3.2", "5.2"]
    assert "TAR-2 is not within PRO-1's control range" in r.data["reasons"][1]["reason"]


def test_can_a_legal_action_says_so() -> None:
    """5.1: an Engage target visible to the shooter, no friendly operative within its control
    range and no Range on the rifle: the Shoot is legal (and the state still is)."""
    state, _ = _state(EDGE_02, 1)
    r = explain(state, "can PRO-1 Shoot rifle at TAR-2")
    assert r.verdict is True and r.data["reasons"] == []
    assert state.is_legal("Shoot PRO-1 rifle at TAR-2")


# -- control -----------------------------------------------------------------------------


def test_control_a_tie_of_apl_is_nobodys() -> None:
    """4.8: PRO-2 (APL 2) and TAR-2 (APL 2) contest the marker: totals 2 to 2, a tie, nobody
    controls it (the scenario's first step checks Pick Up is refused)."""
    state, _ = _state(EDGE_13)
    r = explain(state, "control centre")
    assert r.verdict == ""
    assert r.data["totals"] == {"A": 2, "B": 2}
    assert sorted(o["id"] for o in r.data["operatives"]) == ["PRO-2", "TAR-2"]


def test_control_the_greater_total_apl_controls(tmp_path: Path) -> None:
    """4.8: PRO-1 (leader, APL 3) and PRO-2 (APL 2) against TAR-2 (APL 2) within 1" of the
    marker at (22, 20): A's total 5 beats B's 2."""
    state = _position(
        tmp_path,
        """
[position.operatives.PRO-1]
at = [22, 18.5]
[position.operatives.PRO-2]
at = [20.5, 20]
[position.operatives.TAR-2]
at = [23.5, 20.5]
""",
    )
    r = explain(state, "control CENTRE")
    assert r.verdict == "A"
    assert r.data["totals"] == {"A": 5, "B": 2}
    assert {o["id"]: o["counted"] for o in r.data["operatives"]} == {
        "PRO-1": 3,
        "PRO-2": 2,
        "TAR-2": 2,
    }


# -- attack ------------------------------------------------------------------------------


def _obscured_rifle_expectation() -> Fraction:
    """The rifle (4 dice, Hit 3+, 3/4) against an obscured 4+ target with no cover save, by
    enumerating every die (4.5: obscured, critical successes count as normal and one success
    is discarded; 5.1: three defence dice, 4+ a save, 6 a critical save; each save blocks one
    normal success)."""
    total = Fraction(0)
    for attack in itertools.product(range(1, 7), repeat=4):
        hits = sum(d >= 3 for d in attack)
        normals = max(0, hits - 1)
        for defence in itertools.product(range(1, 7), repeat=3):
            saves = sum(d >= 4 for d in defence)
            total += 3 * max(0, normals - saves)
    return total / 6**7


def test_attack_distribution_of_an_obscured_shot_is_exact() -> None:
    """5.1, 4.5: PRO-1's rifle at TAR-2 behind "heavy feature 2": obscured by the defender's
    default choice (EDGE_CASES 2), so no cover save; the expected damage equals the brute
    force enumeration of every die."""
    state, _ = _state(EDGE_02, 1)
    r = explain(state, "attack PRO-1 rifle at TAR-2")
    assert (r.data["in_cover"], r.data["obscured"]) == (False, True)
    assert r.data["expected_damage"] == pytest.approx(float(_obscured_rifle_expectation()))
    probs = sum(x["probability"] for x in r.data["damage"])
    assert probs == pytest.approx(1.0)


def test_attack_fight_a_one_wound_defender_falls_to_any_success(tmp_path: Path) -> None:
    """5.2: the attacker resolves first; with 1 wound left the defender is incapacitated by
    any success the attacker strikes with, so P = 1 - P(no success on 3 dice at 4+) =
    1 - (1/2)^3 = 7/8, whatever the defender rolls."""
    state = _position(
        tmp_path,
        """
[position.operatives.TAR-2]
at = [10, 19]
[position.operatives.PRO-2]
at = [8.5, 19]
wounds = 1
""",
    )
    r = explain(state, "attack TAR-2 blade PRO-2")
    assert r.data["kind"] == "melee"
    assert r.data["incapacitated_exact"] == "7/8"
    assert r.data["retaliation"] == "big blade"


# -- event -------------------------------------------------------------------------------


def test_event_table_covers_every_declared_kind_with_its_contract_section() -> None:
    """Every event kind the vocabulary declares has a rule section and a source, the section
    being the one its contract names ("Rules: ...")."""
    from engine.explain.ruling import SOURCES

    for kind in EventKind:
        section, source = EVENT_RULES[kind.value]
        assert source in SOURCES, kind
        assert kind.contract.rstrip(". ").endswith(section), kind
    assert set(EVENT_RULES) == {k.value for k in EventKind}


def test_event_names_its_section_and_source() -> None:
    """The scenario's second step shoots: its events are numbered from 1 across the steps
    played; damage_inflicted is 2.3 (wounds), from the core."""
    state, events = _state(EDGE_02, 2)
    n = next(k for k, e in enumerate(events, 1) if e.kind == "damage_inflicted")
    r = explain(state, f"event {n}", events=events)
    assert r.verdict == "damage_inflicted"
    assert r.data["rule"] == "2.3"
    with pytest.raises(QueryError, match=f"event {len(events) + 1} does not exist"):
        explain(state, f"event {len(events) + 1}", events=events)


# -- the query language, JSON and the command ---------------------------------------------


@pytest.mark.parametrize(
    ("query", "bad"),
    [
        ("", "empty query"),
        ("targt PRO-1 TAR-1", "'targt'"),
        ("target PRO-1", "needs more words"),
        ("target PRO-1 NOPE-1", "'NOPE-1'"),
        ("target PRO-1 PRO-2", "not an enemy"),
        ("target PRO-1 TAR-2 laser", "'laser'"),
        ("control nowhere", "'nowhere'"),
        ("event two", "'two'"),
        ("can PRO-1 Frobnicate", "'Frobnicate'"),
    ],
)
def test_bad_queries_name_the_bad_word(query: str, bad: str) -> None:
    state, _ = _state(EDGE_02, 1)
    with pytest.raises(QueryError, match=bad.replace("(", r"\(")):
        explain(state, query)


def test_json_form_is_the_documented_schema() -> None:
    state, _ = _state(EDGE_02, 1)
    data = explain(state, "target PRO-1 TAR-2 rifle").to_json()
    assert data["schema"] == SCHEMA == "killteam-explain/1"
    assert list(data) == [
        "schema",
        "query",
        "kind",
        "answer",
        "verdict",
        "steps",
        "data",
        "drawing",
    ]
    assert set(data["steps"][0]) == {"check", "result", "detail", "rule", "source", "by"}
    assert set(data["drawing"]) == {"operatives", "lines", "parts", "distances", "markers"}
    json.dumps(data)  # JSON-ready
    assert parse_query("target  pro-1   TAR-2").text == "target pro-1 TAR-2"


def test_cli_explain_on_a_shipped_scenario(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "ruling.png"
    code = main(
        [
            "explain",
            str(EDGE_02),
            "--step",
            "1",
            "--json",
            "--picture",
            str(picture),
            "target",
            "PRO-1",
            "TAR-1",
        ]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] is False and data["kind"] == "target"
    assert picture.stat().st_size > 1000
    assert main(["explain", str(EDGE_02), "--step", "1", "control", "centre"]) == 0
    assert "nobody controls centre" in capsys.readouterr().out


def test_cli_explain_bad_query_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(EDGE_02), "target", "PRO-1", "XYZ-9"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "'XYZ-9'" in err
    assert main(["explain", str(EDGE_02), "--step", "99", "event", "1"]) == 2
    assert "has 3 steps" in capsys.readouterr().err


def test_can_reads_two_word_verbs_and_lists_both_fall_back_rules() -> None:
    """3.2: Fall Back cannot be performed in the same activation as Reposition, and it needs
    an enemy operative within control range. In edge_12's third step PRO-2 has Repositioned
    away from every enemy: both rules forbid it (the scenario checks it is illegal)."""
    state, _ = _state(SCENARIOS / "edge_12_move_action_combinations.toml", 3)
    r = explain(state, "can PRO-2 Fall Back")
    assert r.data["action"] == "Fall Back PRO-2"
    reasons = [x["reason"] for x in r.data["reasons"]]
    assert len(reasons) == 2
    assert "same activation as Reposition (3.2)" in reasons[0]
    assert "needs an enemy operative within control range (3.2)" in reasons[1]


def test_cli_explain_on_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record's position after its N-th input, its events numbered from 1: the first
    input of a battle with a mission is the crit op's roll (a start step before the set-up,
    1.2), whose event is the crit op chosen (8.3); a step past the end is refused."""
    record = tmp_path / "game.jsonl"
    assert main(["play", "-q", "--seed", "3", "--agents", "random", "--record", str(record)]) == 0
    capsys.readouterr()
    assert main(["explain", str(record), "--step", "1", "--json", "event", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "event" and data["data"]["number"] == 1
    assert data["verdict"] == "crit_op_chosen" and data["data"]["rule"] == "8.3"
    assert main(["explain", str(record), "--step", "100000", "event", "1"]) == 2
    assert "inputs" in capsys.readouterr().err


def test_attack_names_the_team_rule_that_adds_weapon_rules() -> None:
    """A rule given by another rule is named with its source: after three Markerlight tokens
    on TAR-1 (Pathfinders), a shot at it gains Balanced (one-token tier), Hit improved by 1
    (two tokens) and Saturate (three tokens); the attack's steps show each change as a team
    rule's, and with Saturate no cover save is possible (6)."""
    path = SCENARIOS / "team_pathfinders_markerlight_seek_light.toml"
    state, _ = _state(path, 2)
    r = explain(state, "attack PAT-9 pulse carbine TAR-1")
    changed = {s.check: s for s in r.steps if s.check.endswith("changed")}
    rules = changed["weapon rules changed"]
    assert "+Saturate" in rules.result and "+Balanced" in rules.result
    assert rules.source == "team rule" and "pathfinders" in rules.by
    assert changed["Hit changed"].result == "0 -> -1"
    assert "Saturate" in r.data["profile"]
