"""KT18 teams (``rules/KT18.md`` 1.6-1.11, 9.3): the two built-in KT18 kill teams, their
default rosters, the KT18 fixture team of the rule scenarios, and the report of the
abilities the engine does not play."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from engine.rules.registry import team_rules, unimplemented_rules
from engine.teams.io import (
    TeamFileError,
    builtin_teams,
    load_builtin_team,
    load_team,
    team_from_dict,
    team_to_dict,
)
from engine.teams.limits import ruleset_problem
from engine.teams.roster import Roster, Team

KT18_TEAMS = ("kt18_orks", "kt18_space_marines")
FIXTURE = Path("scenarios/teams/kt18_fixture.json")
_SPECIALISM = re.compile(r"\(([^()]+)\)\s*$")


def _team(ref: str) -> Team:
    return load_team(FIXTURE) if ref == "fixture" else load_builtin_team(ref)


def _specialisms(team: Team) -> list[tuple[str, str | None]]:
    """``(operative type, specialism or None)`` for each default roster entry, read from the
    roster notation ``"Type [Option] (Specialism)"`` (the interface notation of issue 33)."""
    roster = team.default()
    out = []
    for name, entry in zip(roster.operatives, team.default_roster, strict=True):
        m = _SPECIALISM.search(entry)
        out.append((name, m.group(1) if m else None))
    return out


# -------------------------------------------------------------------------------------------
# Built-in teams: listing and files
# -------------------------------------------------------------------------------------------


def test_kt18_builtin_teams_list_under_their_own_edition() -> None:
    """A ``kt18_`` id is a KT18 team: it is listed for ``"kt18"`` and for ``None`` (any
    edition), never among the KT24 teams a KT24 battle plays (its datacards carry WS, BS, S,
    T..., not APL and hit, 1.7)."""
    assert builtin_teams("kt18") == list(KT18_TEAMS)
    assert not set(KT18_TEAMS) & set(builtin_teams())
    assert not set(KT18_TEAMS) & set(builtin_teams("kt21"))
    assert set(KT18_TEAMS) <= set(builtin_teams(None))


@pytest.mark.parametrize("ref", [*KT18_TEAMS, "fixture"])
def test_kt18_team_file_round_trips_with_its_edition(ref: str) -> None:
    """A KT18 team file loads, dumps to exactly the shipped file and loads back to an equal
    team; the file says ``"edition": "kt18"`` and every model and weapon profile carries its
    ``"kt18"`` values (1.7, 1.8)."""
    team = _team(ref)
    path = FIXTURE if ref == "fixture" else Path("teams") / f"{ref}.json"
    data = team_to_dict(team)
    assert team_from_dict(data) == team
    assert data == json.loads(path.read_text(encoding="utf-8"))
    assert team.edition == "kt18" and team.id.startswith("kt18_")
    for op in team.operatives:
        assert op.kt18 is not None, op.name
        for weapon in op.weapons:
            assert all(p.kt18 is not None for p in weapon.profiles), weapon.name


@pytest.mark.parametrize("ref", [*KT18_TEAMS, "fixture"])
def test_kt18_teams_play_only_in_a_kt18_battle(ref: str) -> None:
    """KT18 datacards have no APL, no hit, no DF: a KT24 or KT21 battle refuses the team and a
    KT18 battle takes it (the edition check of the rulesets)."""
    team = _team(ref)
    assert ruleset_problem(team, "kt18") is None
    assert ruleset_problem(team, "kt24") is not None
    assert ruleset_problem(team, "kt21") is not None


def test_a_kt18_id_on_a_file_of_another_edition_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The id prefix and the file's edition must agree: a ``kt18_`` file written for KT24 is
    refused, naming the team, the edition and the prefix."""
    data = team_to_dict(load_builtin_team("kasrkin"))
    data["id"] = "kt18_wrong"
    (tmp_path / "kt18_wrong.json").write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr("engine.teams.io._teams_dir", lambda: tmp_path)
    with pytest.raises(TeamFileError, match=r"'kt18_wrong'.*edition 'kt24'.*starts with 'kt18_'"):
        load_builtin_team("kt18_wrong")


# -------------------------------------------------------------------------------------------
# Default rosters (1.6 part 6, 9.3)
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ref", [*KT18_TEAMS, "fixture"])
def test_kt18_default_roster_is_legal_with_one_leader(ref: str) -> None:
    """The default roster passes the team's selection rules; Covert War takes any models,
    about ten at most (9.3), so the built-in rosters hold 5-10 models. Exactly one model is
    the Leader, of a type that may lead; every specialism named is one the model's datasheet
    offers (1.6 part 6), no specialism is taken twice and at most three besides the Leader
    (the Battle-forged limit, so the roster is legal under it too). No type exceeds its
    Max (1.7)."""
    team = _team(ref)
    roster = team.default()
    assert roster.validate() == []
    lo, hi = team.selection.size
    assert lo <= len(roster.operatives) <= hi
    if ref != "fixture":
        assert 5 <= len(roster.operatives) <= 10
    chosen = _specialisms(team)
    leaders = [name for name, spec in chosen if spec == "Leader"]
    assert len(leaders) == 1
    leader = team.operative(leaders[0]).kt18
    assert leader is not None and leader.leader and "Leader" in leader.specialists
    others = [spec for _, spec in chosen if spec not in (None, "Leader")]
    assert len(others) == len(set(others)) <= 3
    for name, spec in chosen:
        profile = team.operative(name).kt18
        assert profile is not None
        assert spec is None or spec in profile.specialists, (name, spec)
    for name, count in Counter(roster.operatives).items():
        most = team.operative(name).kt18.maximum  # type: ignore[union-attr]
        assert most == 0 or count <= most, (name, count)


@pytest.mark.parametrize("ref", [*KT18_TEAMS, "fixture"])
def test_kt18_selection_limits_are_the_datasheet_maxima(ref: str) -> None:
    """Max (1.7) is how many of a model a kill team may hold: each type with a Max has the
    same limit in the team's selection rules, and a roster over it is refused by name."""
    team = _team(ref)
    limits = dict(team.selection.limits)
    capped = {op.name: op.kt18.maximum for op in team.operatives if op.kt18 and op.kt18.maximum}
    assert limits == capped
    name, most = next(iter(capped.items()))
    card = team.operative(name)
    entry = (
        name if card.fixed_loadout is not None else f"{name} [{card.loadouts[0].options[0].name}]"
    )
    problems = Roster.from_entries(team, [entry] * (most + 1)).validate()
    assert any(name in p for p in problems), problems


def test_kt18_roster_entry_may_end_with_its_specialism() -> None:
    """``"Type [Option] (Specialism)"`` names the type, its wargear option and its specialism
    (the roster notation of issue 33): the type and option are read as without it."""
    team = load_builtin_team("kt18_orks")
    roster = Roster.from_entries(team, ["Ork Boy [Shoota] (Combat)", "Gretchin (Leader)"])
    assert roster.operatives == ("Ork Boy", "Gretchin")
    assert roster.loadouts == (("Shoota",), None)
    assert roster.validate() == []


# -------------------------------------------------------------------------------------------
# Datasheet numbers, checked by hand against the 2018 catalogues
# -------------------------------------------------------------------------------------------


def test_kt18_space_marine_datasheets_follow_the_2018_catalogue() -> None:
    """Adeptus Astartes.cat (revision 41) prints the Tactical Sergeant M 6" WS 3+ BS 3+ S 4
    T 4 W 2 A 2 Ld 8 Sv 3+ Max 1 and a Scout W 1 Sv 4+; its Scout sniper rifle is 36" Heavy 1
    S 4 AP -1 D 1; Space Marines.cat (revision 51) prints the boltgun 24" Rapid Fire 1 S 4
    AP 0 D 1 and the supercharged plasma gun S 8 AP -3 D 2."""
    team = load_builtin_team("kt18_space_marines")
    sgt = team.operative("Tactical Sergeant")
    k = sgt.kt18
    assert k is not None
    assert (sgt.move, k.ws, k.bs, k.strength, k.toughness, sgt.wounds) == (6.0, 3, 3, 4, 4, 2)
    assert (k.attacks, k.leadership, k.save, k.maximum, k.leader) == ("2", 8, 3, 1, True)
    scout = team.operative("Scout")
    assert scout.wounds == 1 and scout.kt18 is not None and scout.kt18.save == 4
    rifle = next(w for w in scout.weapons if w.name == "Scout sniper rifle").profiles[0].kt18
    assert rifle is not None
    assert (rifle.range, rifle.type, rifle.shots, rifle.strength, rifle.ap, rifle.damage) == (
        36.0,
        "Heavy",
        "1",
        "4",
        -1,
        "1",
    )
    bolt = next(w for w in scout.weapons if w.name == "Boltgun").profiles[0].kt18
    assert bolt is not None and (bolt.range, bolt.type, bolt.shots) == (24.0, "Rapid Fire", "1")
    gunner = team.operative("Tactical Marine Gunner")
    plasma = next(w for w in gunner.weapons if w.name == "Plasma gun").profile("Supercharge").kt18
    assert plasma is not None and (plasma.strength, plasma.ap, plasma.damage) == ("8", -3, "2")


def test_kt18_ork_datasheets_follow_the_2018_catalogue() -> None:
    """Orks.cat (revision 37) prints the Boss Nob of the Boyz M 5" WS 3+ BS 5+ S 5 T 4 W 2
    A 3 Ld 7 Sv 6+ Max 1, the Gretchin WS 5+ BS 4+ S 2 T 2 Ld 4, the deffgun 48" Heavy D3
    S 7 AP -1 D 2 and the power klaw S x2 AP -3 D D3: with the Nob's S 5 a klaw strikes at
    S 10 and a big choppa (+2) at S 7 (1.8: the weapon's S modifies the wielder's)."""
    team = load_builtin_team("kt18_orks")
    nob = team.operative("Boss Nob")
    k = nob.kt18
    assert k is not None
    assert (nob.move, k.ws, k.bs, k.strength, k.toughness, nob.wounds) == (5.0, 3, 5, 5, 4, 2)
    assert (k.attacks, k.leadership, k.save, k.maximum) == ("3", 7, 6, 1)
    grot = team.operative("Gretchin").kt18
    assert grot is not None
    assert (grot.ws, grot.bs, grot.strength, grot.toughness, grot.leadership) == (5, 4, 2, 2, 4)
    deffgun = team.operative("Loota").weapons[0].profiles[0].kt18
    assert deffgun is not None
    assert (deffgun.range, deffgun.type, deffgun.shots, deffgun.strength) == (
        48.0,
        "Heavy",
        "D3",
        "7",
    )
    assert (deffgun.ap, deffgun.damage) == (-1, "2")
    weapons = {w.name: w.profiles[0].kt18 for w in nob.weapons}
    klaw, choppa = weapons["Power klaw"], weapons["Big choppa"]
    assert klaw is not None and choppa is not None
    assert (klaw.strength, klaw.ap, klaw.damage) == ("x2", -3, "D3")
    assert klaw.strength_for(k.strength) == 10
    assert choppa.strength_for(k.strength) == 7


# -------------------------------------------------------------------------------------------
# Abilities: each reported as not played (DESIGN.md "Growing the rules")
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ref", [*KT18_TEAMS, "fixture"])
def test_every_kt18_ability_is_declared_and_reported_as_not_played(ref: str) -> None:
    """No KT18 ability is implemented yet: each model ability and each weapon ability the
    team carries is a declared team rule that :func:`unimplemented_rules` reports, none
    silently dropped. (The fixture carries none: its psyker's powers and counts are data,
    its ``psyker`` object, which the Psychic phase plays, rules/KT18.md 4.1.)"""
    team = _team(ref)
    names = {a.name for op in team.operatives for a in op.abilities}
    names |= {
        name
        for op in team.operatives
        for w in op.weapons
        for p in w.profiles
        for name in (p.kt18.abilities if p.kt18 else ())
    }
    declared = {d.name for d in team_rules(team)}
    assert (names or ref == "fixture") and names == declared
    assert {d.name for d in unimplemented_rules(team)} == names


def test_kt18_weapon_abilities_are_weapon_rules_of_their_team() -> None:
    """A KT18 weapon's ability is declared as a weapon rule of its team, naming where it is
    carried: the burna's automatic hits are ``kt18_orks/weapon_rule/automatically_hits``."""
    rules = {d.id: d for d in team_rules(load_builtin_team("kt18_orks"))}
    burna = rules["kt18_orks/weapon_rule/automatically_hits"]
    assert burna.kind == "weapon_rule" and not burna.implemented
    assert burna.sources == ("Burna Boy: Burna",)
    assert "kt18_orks/ability/ere_we_go" in rules


# -------------------------------------------------------------------------------------------
# The fixture team of the KT18 rule scenarios
# -------------------------------------------------------------------------------------------


def test_kt18_fixture_team_has_what_the_rule_scenarios_need() -> None:
    """The scenarios of the KT18 rulings need: a PSYKER (Psybolt 4.3, Deny the Witch 4.5), a
    FLY model (3.3), an invulnerable save (6.7), each weapon type (5.7-5.12, 7.8), Damage D3
    and Damage 2 weapons (6.10), a model with no save (Sv "-", 6.6) and several Ld values
    (Nerve tests, 8.4)."""
    team = load_team(FIXTURE)
    keywords = {kw for op in team.operatives for kw in op.keywords}
    assert {"PSYKER", "FLY"} <= keywords
    cards = [op.kt18 for op in team.operatives]
    assert all(c is not None for c in cards)
    assert any(c.invulnerable for c in cards if c)
    assert any(c.save == 0 for c in cards if c)
    assert len({c.leadership for c in cards if c}) >= 3
    profiles = [p.kt18 for op in team.operatives for w in op.weapons for p in w.profiles]
    types = {p.type for p in profiles if p}
    assert {"Grenade", "Pistol", "Heavy", "Rapid Fire", "Assault", "Melee"} <= types
    damages = {p.damage for p in profiles if p}
    assert {"D3", "2"} <= damages
