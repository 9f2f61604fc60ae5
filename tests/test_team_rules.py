"""Team rules are declared with stable ids, and what is not played is reported
(``engine.rules.registry``; issue: "Team rules are declared, and what is not played is loud").
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from engine.cli import main
from engine.dice.rules import TeamRule
from engine.game.context import Hooks
from engine.play.matchup import MatchupChoice, make_matchup, unimplemented_rule_ids
from engine.rules import registry
from engine.rules.registry import (
    KINDS,
    implementation,
    install,
    register,
    rule_id,
    team_key,
    team_rules,
    unimplemented_rules,
)
from engine.teams import load_builtin_team
from engine.teams.io import builtin_teams
from engine.teams.model import Roster

# The team weapon rules on the built-in datacards (the '*' rules), by team: each must be
# played (issue 11 section 2: "no built-in weapon profile has a silent rule").
BUILTIN_WEAPON_RULES = {
    "kasrkin": ["concealed_position"],
    "kommandos": ["concealed_position", "explosive"],
    "legionaries": ["siphon_life"],
    "hierotek_circle": ["magnify"],
    "angels_of_death": [],
    "pathfinders": [],
}


@pytest.fixture
def clean_registry() -> Iterator[None]:
    """Registrations made by a test are dropped afterwards."""
    registry._load()
    saved = dict(registry._REGISTRY)
    yield
    registry._REGISTRY.clear()
    registry._REGISTRY.update(saved)


def test_rule_ids_are_team_kind_and_name_slug() -> None:
    # The id format: team identity / kind / slug of the printed name.
    assert rule_id("kasrkin", "weapon_rule", "Concealed Position") == (
        "kasrkin/weapon_rule/concealed_position"
    )
    assert rule_id("legionaries", "strategy_ploy", "Dark Gods' Favour") == (
        "legionaries/strategy_ploy/dark_gods_favour"
    )
    with pytest.raises(ValueError, match="kind"):
        rule_id("kasrkin", "stratagem", "x")


def test_an_imported_team_gets_the_same_rule_ids_as_the_builtin_one() -> None:
    # BSData names a team 'hierotek-circle', killteamjson 'hierotek_circle': one identity,
    # so an imported team plays with the same implementations (DESIGN "Growing the rules").
    team = load_builtin_team("hierotek_circle")
    imported = attrs.evolve(team, id="hierotek-circle")
    assert team_key(imported) == team_key(team) == "hierotek_circle"
    assert team_rules(imported) == team_rules(team)


def test_every_kind_of_team_rule_is_declared_from_the_datacards() -> None:
    team = load_builtin_team("kasrkin")
    decls = team_rules(team)
    by_kind = {k: [d.name for d in decls if d.kind == k] for k in KINDS}
    # Each count comes from the team data: faction rules are the team-level abilities...
    assert sorted(by_kind["faction_rule"]) == sorted(a.name for a in team.abilities)
    assert sorted(by_kind["strategy_ploy"]) == sorted(
        p.name for p in team.ploys if p.kind == "strategy"
    )
    assert sorted(by_kind["firefight_ploy"]) == sorted(
        p.name for p in team.ploys if p.kind == "firefight"
    )
    assert sorted(by_kind["equipment"]) == sorted(e.name for e in team.equipment)
    abilities = {a.name for op in team.operatives for a in op.abilities}
    actions = {a.name for op in team.operatives for a in op.actions}
    assert sorted(by_kind["ability"]) == sorted(abilities)
    assert sorted(by_kind["unique_action"]) == sorted(actions)
    # ...and the only '*' rule on a Kasrkin datacard is the Sharpshooter's Concealed Position.
    (cp,) = [d for d in decls if d.kind == "weapon_rule"]
    assert cp.id == "kasrkin/weapon_rule/concealed_position"
    assert cp.sources == ("Kasrkin Sharpshooter: Hot-Shot Marksman Rifle (Concealed)",)
    assert len({d.id for d in decls}) == len(decls)  # one entry per id


def test_the_data_never_claims_an_implementation() -> None:
    # The registry alone says what is played: an 'implementation' written into the data
    # changes nothing.
    team = load_builtin_team("kasrkin")
    claimed = attrs.evolve(
        team, ploys=tuple(attrs.evolve(p, implementation="teams.kasrkin.x") for p in team.ploys)
    )
    assert [d.implemented for d in team_rules(claimed)] == [d.implemented for d in team_rules(team)]
    # (Kasrkin's team equipment is registered now: implemented through the registry only.)
    assert all(d.implemented for d in team_rules(claimed) if d.kind == "equipment")


@pytest.mark.parametrize("team_id", sorted(BUILTIN_WEAPON_RULES))
def test_every_builtin_team_weapon_rule_is_implemented(team_id: str) -> None:
    team = load_builtin_team(team_id)
    weapon_rules = [d for d in team_rules(team) if d.kind == "weapon_rule"]
    assert [d.id.split("/")[2] for d in weapon_rules] == BUILTIN_WEAPON_RULES[team_id]
    assert all(d.implemented for d in weapon_rules), weapon_rules
    assert all(implementation(d.id) is not None for d in weapon_rules)


def test_universal_rules_are_not_team_rules() -> None:
    # Command Re-roll and the universal weapon rules are the core's, not a team's.
    for team_id in builtin_teams():
        names = {d.name for d in team_rules(load_builtin_team(team_id))}
        assert "Command Re-roll" not in names
        assert not names & {"Lethal", "Devastating", "Heavy", "Silent", "Blast"}


def test_unimplemented_rules_are_the_declared_ones_without_implementation() -> None:
    team = load_builtin_team("legionaries")
    missing = unimplemented_rules(team)
    assert missing == [d for d in team_rules(team) if not d.implemented]
    assert all(implementation(d.id) is None for d in missing)


def test_register_rejects_a_malformed_id_and_a_second_implementation(
    clean_registry: None,
) -> None:
    def first(hooks: Hooks, players: tuple[str, ...]) -> None:
        pass

    def second(hooks: Hooks, players: tuple[str, ...]) -> None:
        pass

    with pytest.raises(ValueError, match="malformed"):
        register("Kasrkin Rapid Fire", first, "x")
    with pytest.raises(ValueError, match="malformed"):
        register("kasrkin/stratagem/rapid_fire", first, "x")
    registry._REGISTRY.pop("kasrkin/ability/adaptive_equipment", None)
    register("kasrkin/ability/adaptive_equipment", first, "test")
    register("kasrkin/ability/adaptive_equipment", first, "test")  # the same one again: fine
    with pytest.raises(ValueError, match="already implemented"):
        register("kasrkin/ability/adaptive_equipment", second, "test")


def test_install_runs_each_installer_once_for_the_players_declaring_it(
    clean_registry: None,
) -> None:
    # A weapon rule printed on two teams' datacards shares one installer: a battle installs
    # it once, for both players; a rule of only A's team is installed for A alone.
    calls: list[tuple[str, tuple[str, ...]]] = []

    def shared(hooks: Hooks, players: tuple[str, ...]) -> None:
        calls.append(("shared", players))

    def rapid(hooks: Hooks, players: tuple[str, ...]) -> None:
        calls.append(("rapid", players))

    kas, kom = load_builtin_team("kasrkin"), load_builtin_team("kommandos")
    for t in (kas, kom):
        registry._REGISTRY.pop(rule_id(team_key(t), "weapon_rule", "Concealed Position"))
        register(rule_id(team_key(t), "weapon_rule", "Concealed Position"), shared, "t")
    registry._REGISTRY.pop("kasrkin/ability/adaptive_equipment", None)
    register("kasrkin/ability/adaptive_equipment", rapid, "t")
    install(Hooks(), {"A": Roster(kas, kas.default_roster), "B": Roster(kom, kom.default_roster)})
    assert sorted(c for c in calls if c[0] in ("shared", "rapid")) == [
        ("rapid", ("A",)),
        ("shared", ("A", "B")),
    ]


def test_team_weapon_rules_are_team_rule_specs() -> None:
    # The '*' token is what marks a team weapon rule on a profile (engine.dice.rules).
    team = load_builtin_team("kasrkin")
    prof = team.operative("Kasrkin Sharpshooter").weapons[0].profiles[0]
    assert TeamRule("Concealed Position") in prof.rules.rules


# -------------------------------------------------------------------------------------------
# The command line
# -------------------------------------------------------------------------------------------


def _with_a_rule_left(tmp_path: Path, team: str) -> str:
    """A copy of the built-in ``team``'s file (same identity, so the same rules) whose first
    datacard declares one more ability, ``Unwritten Test Rule``, that no module implements:
    every built-in team's rules are played (issue 17), so this is how a team with a rule left
    to play is made."""
    data = json.loads((Path(__file__).parent.parent / "teams" / f"{team}.json").read_text())
    data["operatives"][0]["abilities"].append(
        {"name": "Unwritten Test Rule", "summary": "Declared for a test; never implemented."}
    )
    path = tmp_path / f"{team}.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_teams_rules_json_lists_every_rule_with_kind_and_implemented(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["teams", "rules", "kommandos", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["team"] == "kommandos"
    rows = {r["id"]: r for r in data["rules"]}
    assert len(rows) == len(team_rules(load_builtin_team("kommandos")))
    assert rows["kommandos/weapon_rule/explosive"]["implemented"] is True
    assert rows["kommandos/weapon_rule/explosive"]["kind"] == "weapon_rule"
    assert rows["kommandos/weapon_rule/explosive"]["name"] == "Explosive"
    assert {r["kind"] for r in data["rules"]} <= set(KINDS)
    assert all(r["implemented"] is True for r in data["rules"])  # issue 17: all played
    # A rule the team file declares and no module implements is listed as not implemented.
    assert main(["teams", "rules", _with_a_rule_left(tmp_path, "kommandos"), "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)["rules"]}
    assert rows["kommandos/ability/unwritten_test_rule"]["implemented"] is False


def test_teams_rules_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["teams", "rules", "legionaries"]) == 0
    out = capsys.readouterr().out
    total = len(team_rules(load_builtin_team("legionaries")))
    done = total - len(unimplemented_rules(load_builtin_team("legionaries")))
    assert f"({done} of {total} implemented)" in out
    assert "Siphon Life" in out and "weapon_rule" in out


def test_play_names_unimplemented_rules_and_strict_rules_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Team files declaring a rule no module implements: --strict-rules refuses, naming them.
    monkeypatch.chdir(tmp_path)
    teams = (
        _with_a_rule_left(tmp_path, "kommandos"),
        _with_a_rule_left(tmp_path, "hierotek_circle"),
    )
    expected = unimplemented_rule_ids(make_matchup(MatchupChoice(teams=teams)))
    assert expected["A"] == ["kommandos/ability/unwritten_test_rule"]
    assert expected["B"] == ["hierotek_circle/ability/unwritten_test_rule"]
    assert main(["play", "--teams", *teams, "--strict-rules", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing was played
    first, second = captured.err.splitlines()
    assert first.startswith("unimplemented team rules: A Kommandos 1 (Unwritten Test Rule)")
    assert "; B Hierotek Circle 1 (Unwritten Test Rule)" in first
    assert "--strict-rules" in second and "2" in second


def test_default_matchup_plays_every_rule_under_strict_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 16: Kasrkin and Legionaries (the default teams) have every rule implemented, so
    # --strict-rules plays the battle.
    monkeypatch.chdir(tmp_path)
    assert unimplemented_rule_ids(make_matchup(MatchupChoice())) == {"A": [], "B": []}
    assert main(["play", "--strict-rules", "--json", "--agents", "random"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["unimplemented_rules"] == {"A": [], "B": []}
    assert "unimplemented team rules" not in captured.err  # the line only names what is left


def test_batch_out_lines_and_json_carry_unimplemented_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    teams = (
        _with_a_rule_left(tmp_path, "kommandos"),
        _with_a_rule_left(tmp_path, "hierotek_circle"),
    )
    args = ["batch", "-n", "1", "--workers", "1", "--agents", "random", "--seed", "2"]
    assert main([*args, "--teams", *teams, "--json", "-q", "--out", "g.jsonl"]) == 0
    captured = capsys.readouterr()
    expected = unimplemented_rule_ids(make_matchup(MatchupChoice(teams=teams)))
    assert expected["A"] == ["kommandos/ability/unwritten_test_rule"]
    assert json.loads(captured.out)["unimplemented_rules"] == expected
    (line,) = (tmp_path / "g.jsonl").read_text().splitlines()
    assert json.loads(line)["unimplemented_rules"] == expected
    assert captured.err.count("unimplemented team rules: ") == 1
