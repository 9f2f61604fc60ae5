"""Roster-time choices (issue 16): a team module declares them (``register_choice``), rosters
carry and validate them, roster files, scenario files and record headers name them, rules read
them from the battle context, ``killteam teams show`` lists them.

A test-only team (the Kasrkin data under the id ``choiceprobe``) declares three choices: a
team-level pair of tactics, a per-operative mark for troopers, and a sergeant's extra tactic
that may not repeat the team's.
"""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path
from typing import Any

import attrs
import pytest

from engine.agents import RandomAgent
from engine.cli import main
from engine.game.drivers import SeededDice, play
from engine.game.record import GameRecorder, ReplayError, make_header, replay
from engine.game.scenario_file import ScenarioFileError, scenario_from_dict, shipped_scenarios
from engine.game.setup import SetupError, operative_ids
from engine.geometry import load_killzone
from engine.rules.registry import ChoiceSpec, choice_specs, register, register_choice
from engine.rulesets import KT24, new_game
from engine.teams import TeamFileError, load_builtin_team, load_roster, save_team
from engine.teams.model import Roster, Team

KEY = "choiceprobe"
TACTICS = ("Aggressive", "Dueller", "Hardy", "Mobile")
PROBE: Team = attrs.evolve(load_builtin_team("kasrkin"), id=KEY, name="Choice Probe")
SERGEANT, TROOPER, GUNNER = "Kasrkin Sergeant", "Kasrkin Trooper", "Kasrkin Gunner"

register_choice(KEY, ChoiceSpec("Tactics", TACTICS, count=2, summary="primary, secondary"))
register_choice(
    KEY,
    ChoiceSpec(
        "Mark",
        ("Red", "Blue"),
        per_operative=True,
        operatives=(TROOPER, GUNNER),
        forbidden=((GUNNER, ("Red",)),),
        keyword=True,
    ),
)
register_choice(
    KEY,
    ChoiceSpec(
        "Veteran",
        TACTICS,
        per_operative=True,
        operatives=(SERGEANT,),
        distinct_from=("Tactics",),
        default=("Mobile",),
    ),
)


def _bonus_cp(hooks: Any, players: tuple[str, ...]) -> None:
    """A test rule reading a choice: a player whose primary tactic is Hardy gains 1CP when
    the equipment selections are revealed (so the choice shows in every state hash)."""

    def on(w: Any, event: Any) -> None:
        p = event["player"]
        if p in players and w.ctx.choice(p, "Tactics")[0] == "Hardy":
            w.set_pl(p, cp=w.pl(p).cp + 1)

    hooks.on("equipment_selected", on)


register(f"{KEY}/faction_rule/skill_at_arms", _bonus_cp, "test: Hardy gives 1CP")


def _roster(**kw: Any) -> Roster:
    return PROBE.default().with_choices(**kw)


def _ops() -> tuple[str, ...]:
    return PROBE.default().operatives


def _per_op(**by_type: dict[str, Any]) -> list[dict[str, Any]]:
    return [by_type.get(name, {}) for name in _ops()]


# -------------------------------------------------------------------------------------------
# Declarations and defaults
# -------------------------------------------------------------------------------------------


def test_choice_spec_declared_in_order() -> None:
    assert [s.name for s in choice_specs(PROBE)] == ["Tactics", "Mark", "Veteran"]
    assert choice_specs(KEY) == choice_specs(PROBE)
    assert choice_specs("kasrkin_nobody") == ()


def test_choice_spec_canonical_values_and_errors() -> None:
    spec = ChoiceSpec("Tactics", TACTICS, count=2)
    assert spec.canonical(["hardy", "MOBILE"]) == ("Hardy", "Mobile")
    assert spec.default_value() == ("Aggressive", "Dueller")
    with pytest.raises(ValueError, match=r"no option 'Sneaky' \(options: Aggressive, Dueller"):
        spec.canonical(["Sneaky", "Hardy"])
    with pytest.raises(ValueError, match="choose 2 option"):
        spec.canonical("Hardy")
    with pytest.raises(ValueError, match="each option at most once"):
        spec.canonical(["Hardy", "hardy"])
    assert ChoiceSpec("X", ("a",), count=2, distinct=False).default_value() == ("a", "a")


def test_register_choice_refuses_bad_specs() -> None:
    with pytest.raises(ValueError, match="needs options"):
        register_choice(KEY, ChoiceSpec("Empty", ()))
    with pytest.raises(ValueError, match="no option 'x'"):
        register_choice(KEY, ChoiceSpec("Bad default", ("a",), default=("x",)))
    with pytest.raises(ValueError, match="forbidden options"):
        register_choice(KEY, ChoiceSpec("Bad ban", ("a",), forbidden=(("T", ("b",)),)))
    with pytest.raises(ValueError, match="already declared differently"):
        register_choice(KEY, ChoiceSpec("Tactics", TACTICS))
    # The same declaration again (a module imported twice) is fine.
    register_choice(KEY, ChoiceSpec("Tactics", TACTICS, count=2, summary="primary, secondary"))


def test_default_roster_takes_the_defaults() -> None:
    r = PROBE.default()
    assert r.validate() == []
    assert r.choice("Tactics") == ("Aggressive", "Dueller")
    assert r.resolved_choices() == {"Tactics": ("Aggressive", "Dueller")}
    sergeant, trooper = _ops().index(SERGEANT), _ops().index(TROOPER)
    assert r.operative_choice(sergeant, "Veteran") == ("Mobile",)
    assert r.operative_choice(trooper, "Mark") == ("Red",)
    assert r.operative_choice(sergeant, "Mark") == ()  # its type does not choose a mark
    assert r.resolved_operative_choices(trooper) == {"Mark": ("Red",)}
    assert r.resolved_operative_choices(1) == {}
    # A gunner may not take Red: its default is the first option it may take.
    assert r.operative_choice(_ops().index(GUNNER), "Mark") == ("Blue",)
    with pytest.raises(KeyError, match="no roster choice 'Mark'"):
        r.choice("Mark")
    with pytest.raises(KeyError, match="no operative choice 'Tactics'"):
        r.operative_choice(0, "Tactics")


def test_given_choices_are_canonical() -> None:
    r = _roster(
        choices={"Tactics": ["hardy", "mobile"]},
        operative_choices=_per_op(**{TROOPER: {"Mark": "blue"}, SERGEANT: {"Veteran": "Dueller"}}),
    )
    assert r.validate() == []
    assert r.choice("Tactics") == ("Hardy", "Mobile")
    assert r.operative_choice(_ops().index(TROOPER), "Mark") == ("Blue",)
    assert r.operative_choice(0, "Veteran") == ("Dueller",)


# -------------------------------------------------------------------------------------------
# Validation
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        (
            {"choices": {"Colour": "red"}},
            "choice: team 'choiceprobe' has no roster choice 'Colour' (roster choices: Tactics)",
        ),
        (
            {"choices": {"Tactics": ["Hardy", "Sneaky"]}},
            "choice: choice 'Tactics': no option 'Sneaky' (options: Aggressive, Dueller, Hardy, "
            "Mobile)",
        ),
        ({"choices": {"Tactics": "Hardy"}}, "choice: choice 'Tactics': choose 2 option(s), got 1"),
        (
            {"choices": {"Tactics": ["Hardy", "Hardy"]}},
            "choice: choice 'Tactics': each option at most once, got ['Hardy', 'Hardy']",
        ),
        (
            {"operative_choices": _per_op(**{SERGEANT: {"Veteran": "Aggressive"}})},
            "choice: operative 1 ('Kasrkin Sergeant'): 'Veteran' repeats Aggressive of 'Tactics'",
        ),
        (
            {"operative_choices": _per_op(**{SERGEANT: {"Mark": "Red"}})},
            "choice: operative 1 ('Kasrkin Sergeant') does not choose 'Mark' "
            "(only Kasrkin Trooper, Kasrkin Gunner)",
        ),
        (
            {"operative_choices": _per_op(**{TROOPER: {"Tactics": "Red"}})},
            "choice: operative 10 ('Kasrkin Trooper'): team 'choiceprobe' has no operative "
            "choice 'Tactics' (operative choices: Mark, Veteran)",
        ),
        (
            {"operative_choices": _per_op(**{TROOPER: {"Mark": "Green"}})},
            "choice: operative 10 ('Kasrkin Trooper'): choice 'Mark': no option 'Green' "
            "(options: Red, Blue)",
        ),
        (
            {"operative_choices": [{"Mark": "Red"} if i == 3 else {} for i in range(10)]},
            "choice: operative 4 ('Kasrkin Gunner'): 'Mark' cannot be Red for a Kasrkin Gunner",
        ),
        (
            {"operative_choices": [{}]},
            "choice: operative choices given for 1 operatives, the roster has 10",
        ),
    ],
    ids=[
        "unknown",
        "bad-option",
        "count",
        "repeat",
        "distinct-from",
        "type",
        "team-level-per-op",
        "per-op-option",
        "forbidden",
        "length",
    ],
)
def test_roster_validation_names_a_bad_choice(kw: dict[str, Any], message: str) -> None:
    assert _roster(**kw).validate() == [message]


def test_random_choices_are_legal_and_reach_every_option() -> None:
    seen_tactics: set[str] = set()
    seen_marks: set[tuple[str, str]] = set()
    for seed in range(40):
        r = PROBE.default().with_random_choices(random.Random(seed))
        assert r.validate() == [], seed
        seen_tactics |= set(r.choice("Tactics"))
        for i, name in enumerate(r.operatives):
            for mark in r.resolved_operative_choices(i).get("Mark", ()):
                seen_marks.add((name, mark))
    assert seen_tactics == set(TACTICS)
    assert seen_marks == {(TROOPER, "Red"), (TROOPER, "Blue"), (GUNNER, "Blue")}
    a = PROBE.default().with_random_choices(random.Random(7))
    assert a == PROBE.default().with_random_choices(random.Random(7))  # reproducible
    kas = load_builtin_team("kasrkin").default()
    assert kas.with_random_choices(random.Random(1)) == kas.with_choices({}, ())


def test_new_game_refuses_an_illegal_choice() -> None:
    bad = _roster(choices={"Tactics": ["Hardy", "Hardy"]})
    with pytest.raises(SetupError, match="each option at most once"):
        new_game(load_killzone("open_ruins"), bad, load_builtin_team("legionaries").default())


def test_teams_without_choices_accept_none() -> None:
    kas = load_builtin_team("kasrkin").default()
    assert kas.with_choices({"Mark": "Red"}).validate() == [
        "choice: team 'kasrkin' has no roster choice 'Mark' (roster choices: none)"
    ]


# -------------------------------------------------------------------------------------------
# Roster files and scenario files
# -------------------------------------------------------------------------------------------


def _roster_file(tmp_path: Path, **extra: Any) -> Path:
    save_team(PROBE, tmp_path / "probe.json")
    path = tmp_path / "roster.json"
    data = {"team": "probe.json", "operatives": list(PROBE.default_roster), **extra}
    path.write_text(json.dumps(data))
    return path


def test_roster_file_carries_choices(tmp_path: Path) -> None:
    marks = [{"Mark": "Blue"} if n == TROOPER else {} for n in _ops()]
    roster = load_roster(
        _roster_file(tmp_path, choices={"Tactics": ["Hardy", "Mobile"]}, operative_choices=marks)
    )
    assert roster.choice("Tactics") == ("Hardy", "Mobile")
    assert roster.operative_choice(_ops().index(TROOPER), "Mark") == ("Blue",)
    # The Veteran's default (Mobile) is taken: its default skips the team's tactics.
    assert roster.operative_choice(0, "Veteran") == ("Aggressive",)
    assert load_roster(_roster_file(tmp_path)).choice("Tactics") == ("Aggressive", "Dueller")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            {"choices": {"Tactics": ["Hardy", "Hardy"]}},
            "field 'choices': choice: choice 'Tactics': each option at most once",
        ),
        ({"choices": ["Hardy"]}, "field 'choices': an object of choice name -> option name(s)"),
        ({"choices": {"Tactics": 3}}, "choice 'Tactics': an option name or a list of option"),
        ({"operative_choices": {"1": {}}}, "field 'operative_choices': one object per operative"),
    ],
)
def test_roster_file_bad_choices_are_named(
    tmp_path: Path, extra: dict[str, Any], message: str
) -> None:
    with pytest.raises(TeamFileError) as info:
        load_roster(_roster_file(tmp_path, **extra))
    assert message in str(info.value)


def _scenario_data(tmp_path: Path, **team_a: Any) -> dict[str, Any]:
    data: dict[str, Any] = tomllib.loads(SCENARIO.read_text(encoding="utf-8"))
    save_team(PROBE, tmp_path / "probe.json")
    data["teams"] = dict(data["teams"], A={"team": str(tmp_path / "probe.json"), **team_a})
    return data


SCENARIO = shipped_scenarios()[0]


def test_scenario_file_carries_choices(tmp_path: Path) -> None:
    data = _scenario_data(tmp_path, choices={"Tactics": ["Mobile", "Hardy"]})
    sc = scenario_from_dict(data, "s.toml", SCENARIO.parent)
    assert sc.rosters[0].choice("Tactics") == ("Mobile", "Hardy")
    data = _scenario_data(tmp_path, choices={"Tactics": ["Mobile", "Nope"]})
    with pytest.raises(ScenarioFileError, match=r"teams\.A\.choices.*no option 'Nope'"):
        scenario_from_dict(data, "s.toml", SCENARIO.parent)


# -------------------------------------------------------------------------------------------
# The battle: rules read them, the record carries them, replay reproduces them
# -------------------------------------------------------------------------------------------


def _battle(roster: Roster, seed: int = 1) -> str:
    other = load_builtin_team("legionaries").default()
    state = new_game(load_killzone("open_ruins"), roster, other)
    rec = GameRecorder(make_header(state, seed=seed, agents={"A": "random", "B": "random"}))
    final = play(
        state,
        {"A": RandomAgent(3), "B": RandomAgent(4)},
        SeededDice(seed),
        on_step=rec.on_step,
        max_steps=60,
    )
    rec.finish(final)
    return rec.text()


def test_context_exposes_choices_to_rules() -> None:
    roster = _roster(
        choices={"Tactics": ["Hardy", "Mobile"]},
        operative_choices=_per_op(**{TROOPER: {"Mark": "Blue"}}),
    )
    state = new_game(load_killzone("open_ruins"), roster, load_builtin_team("kasrkin").default())
    ids = operative_ids(state.ctx.rosters)
    assert state.ctx.choice("A", "Tactics") == ("Hardy", "Mobile")
    assert state.ctx.op_choice(ids["A"][_ops().index(TROOPER)], "Mark") == ("Blue",)
    assert state.ctx.op_choice(ids["A"][0], "Veteran") == ("Aggressive",)  # not the team's
    assert state.ctx.op_choice(ids["A"][0], "Mark") == ()
    with pytest.raises(KeyError):
        state.ctx.choice("B", "Tactics")
    # The mark is a keyword of the operatives that chose it (keyword=True); tactics are not.
    trooper = ids["A"][_ops().index(TROOPER)]
    gunner = ids["A"][_ops().index(GUNNER)]
    assert state.ctx.datacards[trooper].keywords[-1] == "BLUE"
    assert state.ctx.datacards[gunner].keywords[-1] == "BLUE"  # its default: not Red
    assert "HARDY" not in state.ctx.datacards[ids["A"][0]].keywords
    assert not {"RED", "BLUE"} & set(state.ctx.datacards[ids["A"][0]].keywords)


def test_record_header_carries_choices_and_replay_reproduces_them() -> None:
    text = _battle(_roster(choices={"Tactics": ["Hardy", "Mobile"]}))
    lines = text.splitlines()
    head = json.loads(lines[0])
    rh = head["rosters"]["A"]
    assert rh["choices"] == {"Tactics": ["Hardy", "Mobile"]}
    assert rh["operative_choices"][0] == {"Veteran": ["Aggressive"]}
    assert rh["operative_choices"][_ops().index(TROOPER)] == {"Mark": ["Red"]}
    assert head["rosters"]["B"]["choices"] == {}
    replay(lines, ruleset=KT24)
    # The choice changes the battle (Hardy: 1CP more): another choice does not replay.
    rh["choices"] = {"Tactics": ["Mobile", "Hardy"]}
    with pytest.raises(ReplayError):
        replay([json.dumps(head), *lines[1:]], ruleset=KT24)
    rh["choices"] = {"Tactics": ["Hardy", "Sneaky"]}
    with pytest.raises(ReplayError, match=r"rosters\.A\.operatives.*no option 'Sneaky'"):
        replay([json.dumps(head), *lines[1:]], ruleset=KT24)


def test_records_without_choice_fields_replay_with_the_defaults() -> None:
    lines = _battle(PROBE.default()).splitlines()
    head = json.loads(lines[0])
    for p in ("A", "B"):
        del head["rosters"][p]["choices"], head["rosters"][p]["operative_choices"]
    replay([json.dumps(head), *lines[1:]], ruleset=KT24)


# -------------------------------------------------------------------------------------------
# killteam teams show
# -------------------------------------------------------------------------------------------


def test_teams_show_lists_the_choices(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save_team(PROBE, tmp_path / "probe.json")
    assert main(["teams", "show", str(tmp_path / "probe.json")]) == 0
    out = capsys.readouterr().out
    for text in (
        "Roster choices",
        "Tactics",
        "2 different",
        "Kasrkin Trooper",
        "Red, Blue",
        "not Red",
    ):
        assert text in out, text
    assert main(["teams", "show", "kasrkin"]) == 0
    assert "Roster choices" not in capsys.readouterr().out
