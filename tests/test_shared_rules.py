"""Rules shared across teams (issue 28 item 6): a rule is found by its identity (kind, name,
printed text), so a team that prints a rule implemented for another team plays it, and a
same-named rule with another text is not played (``engine.rules.registry``,
``engine.teams.rule_text``, ``engine.rules.shared_rules``).

Tests on the real killteamjson teams use ``../shared/data_samples`` and skip when it is absent.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from engine.game.context import Hooks
from engine.rules import registry
from engine.rules.printed_texts import PRINTED_TEXTS
from engine.rules.registry import install, installer_of, register, team_rules
from engine.rules.shared_rules import coverage, printed_text_table
from engine.teams import load_builtin_team
from engine.teams.importers.killteamjson import import_killteamjson
from engine.teams.io import team_from_dict, team_to_dict
from engine.teams.model import Roster, Team
from engine.teams.rule_text import normalise_rule_text, rule_text_key, team_keyword

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "data_samples" / "killteamjson"
needs_samples = pytest.mark.skipif(not SAMPLES.is_dir(), reason="data_samples absent")
ASTARTES = "legionaries/faction_rule/astartes"


@pytest.fixture
def clean_registry() -> Iterator[None]:
    """Registrations made by a test are dropped afterwards."""
    registry._load()
    saved = dict(registry._REGISTRY)
    yield
    registry._REGISTRY.clear()
    registry._REGISTRY.update(saved)


def _legionaries_copy(tmp_path: Path, name: str, edit: dict[str, str] | None = None) -> Team:
    """The real Legionaries team file renamed ``name`` (so its rule ids are not the built-in
    team's), with the texts in ``edit`` replaced (``{"LEGIONARY": "RENEGADE"}``: everywhere),
    imported."""
    text = (SAMPLES / "en" / "teams" / "CHAOS-LEG.json").read_text(encoding="utf-8")
    for old, new in (edit or {}).items():
        text = text.replace(old, new)
    data = json.loads(text)
    data["killteamName"] = name
    path = tmp_path / "COPY.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    (team,) = import_killteamjson(path).teams
    return team


def _decl(team: Team, ref: str) -> registry.RuleDeclaration:
    return next(d for d in team_rules(team) if d.id.split("/", 1)[1] == ref)


def test_normalisation_ignores_keyword_case_quotes_and_contractions_not_numbers() -> None:
    """The same rule printed by two teams differs only in the team keyword and typography;
    any other difference (a number) is another rule."""
    a = 'Each friendly LEGIONARY operative isn’t hit; it’s **free** within 3".'
    b = "each friendly ANGEL OF DEATH operative is not hit; it's free within 3\" "
    assert rule_text_key(a, "LEGIONARY") == rule_text_key(b, "ANGEL OF DEATH")
    assert rule_text_key(a, "LEGIONARY").endswith("@")
    assert rule_text_key(a.replace('3"', '6"'), "LEGIONARY") != rule_text_key(a, "LEGIONARY")
    assert "legionary" not in normalise_rule_text(a, "LEGIONARY")


def test_the_team_model_imports_nothing_of_the_rules_or_the_game() -> None:
    """The team model is the bottom layer: loading teams and rosters imports neither
    ``engine.rules`` nor ``engine.game`` (issue 28 layers)."""
    code = (
        "import sys\n"
        "import engine.teams.model, engine.teams.io, engine.teams.importers.bsdata\n"
        "import engine.teams.importers.killteamjson\n"
        "bad = [m for m in sys.modules if m.startswith(('engine.rules', 'engine.game'))]\n"
        "print(bad)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_rule_texts_round_trip_and_are_omitted_when_empty() -> None:
    """Team files keep the text keys of an imported team, and the files of the teams without
    texts (the built-in ones, records) do not change."""
    kas = load_builtin_team("kasrkin")
    assert "rule_texts" not in team_to_dict(kas)
    keyed = attrs.evolve(kas, rule_texts={"faction_rule/rapid_fire": "0123456789abcdef@"})
    data = json.loads(json.dumps(team_to_dict(keyed)))
    assert data["rule_texts"] == {"faction_rule/rapid_fire": "0123456789abcdef@"}
    assert team_from_dict(data) == keyed
    data["rule_texts"] = {"faction_rule/rapid_fire": "not a key"}
    with pytest.raises(ValueError, match="text key"):
        team_from_dict(data)


def test_a_team_with_the_same_printed_text_plays_the_other_teams_rule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without the data samples: a team (not the Legionaries) carrying the text key the
    Legionaries' Astartes implementation plays is given that implementation, installed for
    its player."""
    key = rule_text_key("Our words for each friendly LEGIONARY operative.", "LEGIONARY")
    monkeypatch.setitem(PRINTED_TEXTS, ASTARTES, (key, "LEGIONARY"))
    leg = load_builtin_team("legionaries")
    team = attrs.evolve(leg, id="renegades", rule_texts={"faction_rule/astartes": key})
    decl = _decl(team, "faction_rule/astartes")
    assert (decl.implemented, decl.played_by, decl.shared) == (True, ASTARTES, True)
    impl = registry.implementation(ASTARTES)
    assert impl is not None
    assert installer_of(decl, team_keyword(team)) is impl.installer
    other = attrs.evolve(team, rule_texts={"faction_rule/astartes": "0" * 16 + "@"})
    decl = _decl(other, "faction_rule/astartes")
    assert not decl.implemented and "another text" in decl.reason


@needs_samples
def test_printed_texts_are_the_data_samples_texts() -> None:
    """The recorded text of each implementation is the one the dataset prints (the table is
    generated from it; a changed importer or normalisation must regenerate it)."""
    assert printed_text_table(SAMPLES) == PRINTED_TEXTS


@needs_samples
def test_an_imported_team_printing_astartes_plays_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real killteamjson team under another name (so none of its rule ids is implemented)
    plays Astartes through the Legionaries' implementation, installed in a battle's hooks
    for its player."""
    team = _legionaries_copy(tmp_path, "Renegade Legionaries")
    assert team.id == "renegade_legionaries"
    decl = _decl(team, "faction_rule/astartes")
    assert decl.played_by == ASTARTES and decl.reason == ""
    impl = registry.implementation(ASTARTES)
    assert impl is not None
    calls: list[tuple[str, ...]] = []

    def recording(hooks: Hooks, players: tuple[str, ...]) -> None:
        calls.append(players)
        impl.installer(hooks, players)

    monkeypatch.setitem(registry._REGISTRY, ASTARTES, attrs.evolve(impl, installer=recording))
    hooks = Hooks()
    install(hooks, {"A": Roster(team, ())})
    assert calls == [("A",)]
    assert hooks.would.get("would_repeat_action")


@needs_samples
def test_a_same_named_rule_with_another_text_is_not_played(tmp_path: Path) -> None:
    """Astartes with another printed text (an extra sentence) is another rule: not played,
    and the reason names the implementations it was compared with."""
    text = json.loads((SAMPLES / "en" / "teams" / "CHAOS-LEG.json").read_text("utf-8"))
    (astartes,) = [a for a in text["teamAbilities"] if a["abilityName"] == "Astartes"]
    first = astartes["description"].split(".")[0] + "."
    team = _legionaries_copy(tmp_path, "Renegade Legionaries", {first: first + " X."})
    decl = _decl(team, "faction_rule/astartes")
    assert not decl.implemented and decl.played_by is None
    assert "same name as angels_of_death/faction_rule/astartes, " in decl.reason
    assert "another text" in decl.reason
    assert decl in registry.unimplemented_rules(team)


@needs_samples
def test_a_rule_naming_another_keyword_needs_an_installer_for_that_keyword(
    tmp_path: Path, clean_registry: None
) -> None:
    """The same text for operatives of another keyword is played only when the
    implementation can be given that keyword (``register(..., for_keyword=...)``)."""
    team = _legionaries_copy(tmp_path, "Renegades", {"LEGIONARY": "RENEGADE"})
    assert team_keyword(team) == "RENEGADE"
    decl = _decl(team, "faction_rule/astartes")
    assert not decl.implemented and "for LEGIONARY operatives only" in decl.reason
    impl = registry.implementation(ASTARTES)
    assert impl is not None
    made: list[str] = []

    def for_keyword(keyword: str) -> registry.Installer:
        made.append(keyword)
        return impl.installer

    registry._REGISTRY[ASTARTES] = attrs.evolve(impl, for_keyword=for_keyword)
    decl = _decl(team, "faction_rule/astartes")
    assert decl.played_by == ASTARTES
    assert installer_of(decl, "RENEGADE") is installer_of(decl, "RENEGADE")
    assert made == ["RENEGADE"]


@needs_samples
def test_the_count_over_the_killteamjson_teams(capsys: pytest.CaptureFixture[str]) -> None:
    """Every rule of the six killteamjson teams of the data samples is played (they are the
    built-in teams), and ``killteam teams rules --killteamjson`` prints the count."""
    cov = coverage(SAMPLES)
    assert (len(cov.teams), cov.rules, cov.played, cov.shared) == (6, 178, 178, 0)
    from engine.cli import main

    assert main(["teams", "rules", "--killteamjson", str(SAMPLES)]) == 0
    assert "178 of 178 team rules played" in capsys.readouterr().out


def test_register_keeps_its_public_api(clean_registry: None) -> None:
    """``register`` takes the id, the installer and the summary as before (the keyword
    variant is optional)."""

    def inst(hooks: Hooks, players: tuple[str, ...]) -> None:
        pass

    register("someteam/ability/some_rule", inst, "t")
    impl = registry.implementation("someteam/ability/some_rule")
    assert impl is not None and impl.for_keyword is None
