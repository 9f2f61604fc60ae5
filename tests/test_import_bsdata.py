"""The BSData (BattleScribe) importer: tolerant weapon-rule parsing, an invented catalogue
written by the tests, and (when present) the real sample catalogues."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.dice.rules import (
    Blast,
    Devastating,
    Heavy,
    Hot,
    Lethal,
    Piercing,
    Range,
    TeamRule,
    WeaponRules,
    parse_weapon_rules,
)
from engine.errors import WeaponRuleError
from engine.teams.importers.bsdata import import_bsdata, parse_weapon_rules_tolerant

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "data_samples"
BSDATA = SAMPLES / "bsdata"
KTJSON_TEAMS = SAMPLES / "killteamjson" / "en" / "teams"

# --------------------------------------------------------------------------------------------
# The tolerant parser: one test per known malformation
# --------------------------------------------------------------------------------------------


def test_well_formed_string_has_no_messages() -> None:
    rules, messages = parse_weapon_rules_tolerant('Range 8", Hot, Lethal 5+, Piercing 1')
    assert rules == parse_weapon_rules('Range 8", Hot, Lethal 5+, Piercing 1')
    assert messages == []


@pytest.mark.parametrize("text", ["-", "", "  -  "])
def test_dash_means_no_rules(text: str) -> None:
    assert parse_weapon_rules_tolerant(text) == (WeaponRules(), [])


def test_missing_comma() -> None:
    rules, messages = parse_weapon_rules_tolerant("Lethal 5+ Piercing 1")
    assert rules.rules == (Lethal(5), Piercing(1))
    assert len(messages) == 1 and "missing comma" in messages[0]
    assert "'Lethal 5+, Piercing 1'" in messages[0]


def test_missing_comma_before_devastating_distance() -> None:
    rules, messages = parse_weapon_rules_tolerant('Blast 2" 1" Devastating 1')
    assert rules.rules == (Blast(2.0), Devastating(1, 1.0))
    assert len(messages) == 1 and "missing comma" in messages[0]


def test_misspelt_name() -> None:
    rules, messages = parse_weapon_rules_tolerant('Rang 8"')
    assert rules.rules == (Range(8.0),)
    assert len(messages) == 1 and "misspelt" in messages[0] and "'Range 8\"'" in messages[0]


def test_misspelt_two_word_name() -> None:
    rules, messages = parse_weapon_rules_tolerant("Peircing Crits 1")
    assert rules.format() == "Piercing Crits 1"
    assert len(messages) == 1 and "misspelt" in messages[0]


def test_missing_space() -> None:
    rules, messages = parse_weapon_rules_tolerant("Piercing1")
    assert rules.rules == (Piercing(1),)
    assert len(messages) == 1 and "missing space" in messages[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Blast 1", 'Blast 1"'), ("Range 6", 'Range 6"'), ("Torrent 2", 'Torrent 2"')],
)
def test_missing_inch_mark(text: str, expected: str) -> None:
    rules, messages = parse_weapon_rules_tolerant(text)
    assert rules.format() == expected
    assert len(messages) == 1 and "missing inch mark" in messages[0]


def test_missing_inch_mark_on_devastating_distance() -> None:
    rules, messages = parse_weapon_rules_tolerant("1 Devastating 2")
    assert rules.rules == (Devastating(2, 1.0),)
    assert len(messages) == 1 and "missing inch mark" in messages[0]


def test_non_breaking_space() -> None:
    rules, messages = parse_weapon_rules_tolerant("Heavy (Reposition\u00a0only)")
    assert rules.rules == (Heavy("Reposition"),)
    assert len(messages) == 1 and "non-breaking space" in messages[0]


def test_html_entity() -> None:
    rules, messages = parse_weapon_rules_tolerant("Range 8&quot;, Hot")
    assert rules.rules == (Range(8.0), Hot())
    assert len(messages) == 1 and "HTML entity" in messages[0]


def test_stray_whitespace() -> None:
    rules, messages = parse_weapon_rules_tolerant('  Range   8" ,Hot ')
    assert rules.rules == (Range(8.0), Hot())
    assert len(messages) == 1 and "stray whitespace" in messages[0]


def test_stray_comma() -> None:
    rules, messages = parse_weapon_rules_tolerant("Lethal 5+,")
    assert rules.rules == (Lethal(5),)
    assert len(messages) == 1 and "stray comma" in messages[0]


def test_several_malformations_give_one_message_each() -> None:
    rules, messages = parse_weapon_rules_tolerant('Rang 8" Piercing1, Blast\u00a01')
    assert rules.format() == 'Range 8", Piercing 1, Blast 1"'
    kinds = {m.split(":")[0] for m in messages}
    assert kinds == {
        "missing comma",
        "misspelt rule name",
        "missing space",
        "missing inch mark",
        "non-breaking space",
    }


def test_team_rule_is_kept() -> None:
    rules, messages = parse_weapon_rules_tolerant('Range 4", Torrent 0"*')
    assert rules.rules == (Range(4.0), TeamRule('Torrent 0"'))
    assert messages == []


@pytest.mark.parametrize(
    ("text", "token"),
    [('Range 8", Wibble 3', "Wibble 3"), ("Lethal 9+", "Lethal 9+"), ("Zzzq", "Zzzq")],
)
def test_garbage_raises_naming_the_token(text: str, token: str) -> None:
    with pytest.raises(WeaponRuleError) as info:
        parse_weapon_rules_tolerant(text)
    assert info.value.token == token
    assert info.value.text == text
    assert repr(token) in str(info.value)


# --------------------------------------------------------------------------------------------
# An invented team in BattleScribe's schema
# --------------------------------------------------------------------------------------------

GST_NS = "http://www.battlescribe.net/schema/gameSystemSchema"
CAT_NS = "http://www.battlescribe.net/schema/catalogueSchema"

FIXTURE_GST = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<gameSystem id="gs-1" name="Test Kill Team" revision="1" type="gameSystem" xmlns="{GST_NS}">
  <categoryEntries>
    <categoryEntry name="Operative" id="cat-op"/>
    <categoryEntry name="Leader" id="cat-leader"/>
  </categoryEntries>
  <profileTypes>
    <profileType name="Abilities" id="pt-ab">
      <characteristicTypes><characteristicType id="ct-ab" name="Ability"/></characteristicTypes>
    </profileType>
    <profileType name="Operative" id="pt-op">
      <characteristicTypes>
        <characteristicType id="ct-apl" name="APL"/>
        <characteristicType id="ct-move" name="Move"/>
        <characteristicType id="ct-save" name="Save"/>
        <characteristicType id="ct-wounds" name="Wounds"/>
      </characteristicTypes>
    </profileType>
    <profileType name="Unique Actions" id="pt-ua">
      <characteristicTypes>
        <characteristicType id="ct-ua" name="Unique Action"/>
      </characteristicTypes>
    </profileType>
    <profileType name="Weapons" id="pt-wp">
      <characteristicTypes>
        <characteristicType id="ct-atk" name="ATK"/>
        <characteristicType id="ct-hit" name="HIT"/>
        <characteristicType id="ct-dmg" name="DMG"/>
        <characteristicType id="ct-wr" name="WR"/>
      </characteristicTypes>
    </profileType>
  </profileTypes>
</gameSystem>
"""


def _op(pid: str, name: str, apl: str, move: str, save: str, wounds: str) -> str:
    return f"""<profile name="{name}" typeId="pt-op" typeName="Operative" id="{pid}">
      <characteristics>
        <characteristic name="APL" typeId="ct-apl">{apl}</characteristic>
        <characteristic name="Move" typeId="ct-move">{move}</characteristic>
        <characteristic name="Save" typeId="ct-save">{save}</characteristic>
        <characteristic name="Wounds" typeId="ct-wounds">{wounds}</characteristic>
      </characteristics>
    </profile>"""


def _wp(pid: str, name: str, atk: str, hit: str, dmg: str, wr: str, extra: str = "") -> str:
    return f"""<profile name="{name}" typeId="pt-wp" typeName="Weapons" id="{pid}">
      <characteristics>
        <characteristic name="ATK" typeId="ct-atk">{atk}</characteristic>
        <characteristic name="HIT" typeId="ct-hit">{hit}</characteristic>
        <characteristic name="DMG" typeId="ct-dmg">{dmg}</characteristic>
        <characteristic name="WR" typeId="ct-wr">{wr}</characteristic>
      </characteristics>{extra}
    </profile>"""


LANTERN_RULES = "Torrent 2&quot;, Heavy (Dash\u00a0only)"


def fixture_catalogue(chief_wounds: int = 11, lance_rules: str = "Lethal 5+ Piercing 1") -> str:
    """An invented two-operative team ("Gloomwardens") in BattleScribe's catalogue schema,
    with shared entries, a shared operative profile and planted malformations."""
    hammer_modifier = """
      <modifiers>
        <modifier type="set" value="2+" field="ct-hit">
          <conditions>
            <condition type="instanceOf" value="1" field="selections" scope="ancestor"
                childId="se-chief" shared="true"/>
          </conditions>
        </modifier>
      </modifiers>"""
    return f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<catalogue id="cat-gw" name="2024 - Gloomwardens" gameSystemId="gs-1" revision="3"
    type="catalogue" xmlns="{CAT_NS}">
  <categoryEntries>
    <categoryEntry name="Gloomwarden" id="cat-gw-kw"/>
    <categoryEntry name="Chief" id="cat-chief"/>
    <categoryEntry name="Lancer" id="cat-lancer"/>
  </categoryEntries>
  <rules><rule name="Dim Vigil" id="rule-vigil"/></rules>
  <selectionEntries>
    <selectionEntry type="model" name="Chief" id="se-chief">
      <categoryLinks>
        <categoryLink name="Gloomwarden" id="cl-1" targetId="cat-gw-kw"/>
        <categoryLink name="Leader" id="cl-2" targetId="cat-leader"/>
        <categoryLink name="Operative" id="cl-3" targetId="cat-op"/>
        <categoryLink name="Chief" id="cl-4" targetId="cat-chief"/>
      </categoryLinks>
      <profiles>
        {_op("p-chief", "Gloomwarden Chief", "3", "6&quot;", "4+", str(chief_wounds))}
        <profile name="Steady Hand" typeId="pt-ab" typeName="Abilities" id="p-steady">
          <characteristics><characteristic name="Ability" typeId="ct-ab">x</characteristic>
          </characteristics>
        </profile>
        <profile name="Rally (1AP)" typeId="pt-ua" typeName="Unique Actions" id="p-rally">
          <characteristics><characteristic name="Unique Action" typeId="ct-ua">x</characteristic>
          </characteristics>
        </profile>
      </profiles>
      <selectionEntryGroups>
        <selectionEntryGroup name="Weapons" id="g-chief">
          <selectionEntries>
            <selectionEntry type="upgrade" name="Glow pistol" id="se-pistol">
              <profiles>
                {_wp("p-pistol-std", "⌖ Glow pistol (standard)", "4", "3+", "3/4", "Rang 8&quot;")}
                {
        _wp(
            "p-pistol-hot",
            "⌖ Glow pistol (overcharge)",
            "4",
            "3+",
            "4/5",
            "Range 8&quot;, Hot, Piercing1",
        )
    }
              </profiles>
            </selectionEntry>
          </selectionEntries>
          <entryLinks>
            <entryLink name="Lamp hammer" id="el-1" type="selectionEntry" targetId="sh-hammer"/>
          </entryLinks>
        </selectionEntryGroup>
      </selectionEntryGroups>
    </selectionEntry>
    <selectionEntry type="model" name="Lancer with lance" id="se-lancer">
      <categoryLinks>
        <categoryLink name="Gloomwarden" id="cl-5" targetId="cat-gw-kw"/>
        <categoryLink name="Lancer" id="cl-6" targetId="cat-lancer"/>
      </categoryLinks>
      <infoLinks>
        <infoLink name="Lancer" id="il-1" type="profile" targetId="sp-lancer"/>
      </infoLinks>
      <profiles>
        {_wp("p-lance", "⌖ Gloom lance", "5", "4+", "4/5", lance_rules)}
        {_wp("p-bomb", "Gloom bomb", "4", "4+", "2/4", "Blast 1, Wibble 3")}
      </profiles>
      <entryLinks>
        <entryLink name="Lamp hammer" id="el-2" type="selectionEntry" targetId="sh-hammer"/>
      </entryLinks>
    </selectionEntry>
    <selectionEntry type="model" name="Lancer with lantern" id="se-lancer-2">
      <infoLinks>
        <infoLink name="Lancer" id="il-2" type="profile" targetId="sp-lancer"/>
      </infoLinks>
      <profiles>
        {_wp("p-lantern", "⌖ Lantern", "3", "3+", "1/2", LANTERN_RULES)}
      </profiles>
    </selectionEntry>
  </selectionEntries>
  <sharedSelectionEntries>
    <selectionEntry type="upgrade" name="Lamp hammer" id="sh-hammer">
      <profiles>
        {_wp("p-hammer", "⚔ Lamp hammer", "4", "3+", "4/5", "-", hammer_modifier)}
      </profiles>
    </selectionEntry>
  </sharedSelectionEntries>
  <sharedProfiles>
    {_op("sp-lancer", "Gloomwarden Lancer", "2", "7&quot;", "5+", "8")}
  </sharedProfiles>
</catalogue>
"""


def write_bsdata_fixture(folder: Path, **kwargs: object) -> Path:
    """Write the invented ``.gst`` and ``.cat`` pair into ``folder``; returns the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "2024 - Kill Team.gst").write_text(FIXTURE_GST, encoding="utf-8")
    text = fixture_catalogue(**kwargs)  # type: ignore[arg-type]
    (folder / "2024 - Gloomwardens.cat").write_text(text, encoding="utf-8")
    return folder


def test_fixture_imports_into_the_model(tmp_path: Path) -> None:
    result = import_bsdata(write_bsdata_fixture(tmp_path))
    (team,) = result.teams
    assert team.id == "gloomwardens" and team.name == "Gloomwardens"
    assert team.faction == "GLOOMWARDEN"
    assert team.provenance.source == "bsdata" and team.provenance.commit is None
    assert "3" in team.provenance.dataslate
    assert team.selection.size == (1, 20) and team.selection.leader == ("Gloomwarden Chief",)
    assert team.default_roster == ()  # imported teams leave the roster to the player
    assert [a.name for a in team.abilities] == ["Dim Vigil"]
    assert team.ploys == ()

    chief = team.operative("Gloomwarden Chief")
    assert (chief.apl, chief.move, chief.save, chief.wounds) == (3, 6.0, 4, 11)
    assert chief.keywords == ("GLOOMWARDEN", "LEADER", "CHIEF")
    assert chief.base_mm == 32.0
    assert [a.name for a in chief.abilities] == ["Steady Hand"]
    assert [(a.name, a.ap) for a in chief.actions] == [("Rally", 1)]
    pistol = chief.weapon("Glow pistol")
    assert pistol.kind == "ranged"
    assert [p.name for p in pistol.profiles] == ["standard", "overcharge"]
    assert pistol.profile("standard").rules.format() == 'Range 8"'
    assert pistol.profile("overcharge").rules.format() == 'Range 8", Hot, Piercing 1'
    hammer = chief.weapon("Lamp hammer")  # shared entry, with the chief's modifier applied
    assert hammer.kind == "melee" and hammer.profile().hit == 2

    # Two entries share the Lancer's operative profile: one datacard, union of weapons.
    lancer = team.operative("Gloomwarden Lancer")
    assert (lancer.apl, lancer.move, lancer.save, lancer.wounds) == (2, 7.0, 5, 8)
    assert {w.name for w in lancer.weapons} == {
        "Gloom lance",
        "Gloom bomb",
        "Lamp hammer",
        "Lantern",
    }
    assert lancer.weapon("Lamp hammer").profile().hit == 3
    assert lancer.weapon("Gloom lance").profile().rules.rules == (Lethal(5), Piercing(1))
    bomb = lancer.weapon("Gloom bomb")
    assert bomb.kind == "ranged"  # no marker: inferred from Blast
    assert bomb.profile().rules.rules == (Blast(1.0),)  # Wibble 3 dropped, reported
    assert lancer.weapon("Lantern").profile().rules.format() == 'Torrent 2", Heavy (Dash only)'

    issues = [str(i) for i in result.issues]
    kinds = [i.kind for i in result.issues]
    assert all(i.team == "Gloomwardens" for i in result.issues)
    assert any("misspelt" in s and "Glow pistol (standard)" in s for s in issues)
    assert any("missing space" in s for s in issues)
    assert any("missing comma" in s and "Gloom lance" in s for s in issues)
    assert any("missing inch mark" in s for s in issues)
    assert any("non-breaking space" in s for s in issues)
    assert any("inferred as ranged" in s for s in issues)
    assert any("Wibble 3" in s and "skipped" in s for s in issues)
    assert any("base sizes" in s and "unsupported" in s for s in issues)
    assert any("no roster-wide count" in s and "unsupported" in s for s in issues)
    # The chief's weapon group has no min/max: not a choice, both weapons carried, reported.
    assert chief.loadouts == ()
    assert any("weapon group 'Weapons' allows 0 to any" in s for s in issues)
    # The two Lancer entries are its two whole-set options.
    assert [[o.name for o in slot.options] for slot in lancer.loadouts] == [
        ["Gloom lance; Gloom bomb; Lamp hammer", "Lantern"]
    ]
    assert set(kinds) == {"recovered", "skipped", "unsupported"}


def test_fixture_single_catalogue_and_filter(tmp_path: Path) -> None:
    folder = write_bsdata_fixture(tmp_path)
    cat = folder / "2024 - Gloomwardens.cat"
    assert [t.name for t in import_bsdata(cat).teams] == ["Gloomwardens"]
    assert [t.name for t in import_bsdata(folder, team="GLOOM").teams] == ["Gloomwardens"]
    assert import_bsdata(folder, team="kasrkin").teams == ()


def test_missing_gst_is_reported(tmp_path: Path) -> None:
    folder = write_bsdata_fixture(tmp_path)
    (folder / "2024 - Kill Team.gst").unlink()
    result = import_bsdata(folder)
    assert len(result.teams) == 1 and len(result.teams[0].operatives) == 2
    assert any("no .gst" in i.message for i in result.issues)


def test_unreadable_catalogue_is_skipped(tmp_path: Path) -> None:
    folder = write_bsdata_fixture(tmp_path)
    (folder / "2024 - Broken.cat").write_text("<catalogue", encoding="utf-8")
    result = import_bsdata(folder)
    assert [t.name for t in result.teams] == ["Gloomwardens"]
    assert any(i.team == "Broken" and i.kind == "skipped" for i in result.issues)


def test_missing_path_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        import_bsdata(tmp_path / "nowhere")
    with pytest.raises(FileNotFoundError):
        import_bsdata(tmp_path)


# --------------------------------------------------------------------------------------------
# Wargear options and selection limits (an invented catalogue, 1.2, 2.2, 7)
# --------------------------------------------------------------------------------------------


def _weapon_entry(eid: str, name: str, mark: str = "⌖", bounds: str = "") -> str:
    """An upgrade entry carrying one weapon profile (``bounds``: constraint elements)."""
    constraints = f"<constraints>{bounds}</constraints>" if bounds else ""
    return f"""<selectionEntry type="upgrade" name="{name}" id="{eid}">{constraints}
      <profiles>{_wp("p-" + eid, f"{mark} {name}", "4", "4+", "3/4", "-")}</profiles>
    </selectionEntry>"""


def _one_of(cid: str) -> str:
    """Constraints for exactly one selection within the parent."""
    return (
        f'<constraint type="min" value="1" field="selections" scope="parent" id="{cid}-min"/>'
        f'<constraint type="max" value="1" field="selections" scope="parent" id="{cid}-max"/>'
    )


def _roster_max(cid: str, value: int) -> str:
    return (
        f'<constraints><constraint type="max" value="{value}" field="selections" '
        f'scope="force-bw" id="{cid}"/></constraints>'
    )


def _cats(*pairs: tuple[str, str]) -> str:
    links = "".join(
        f'<categoryLink name="{n}" id="cl-{t}-{i}" targetId="{t}"/>'
        for i, (n, t) in enumerate(pairs)
    )
    return f"<categoryLinks>{links}</categoryLinks>"


def options_catalogue() -> str:
    """An invented team ("Brass Wardens") with each way BattleScribe states wargear options
    and roster limits: per-line choice groups, whole-set choice entries, several entries
    sharing one datacard, fixed weapons, a hidden category capping two types together, a
    limit raised in the team's own force, a conditional count, and two unreadable parts."""
    kw = ("Brass Warden", "cat-bw")
    gunner_cats = _cats(kw, ("Operative", "cat-op"), ("Gunner or Sniper", "cat-gos"))
    return f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<catalogue id="cat-bwc" name="2024 - Brass Wardens" gameSystemId="gs-1" revision="1"
    type="catalogue" xmlns="{CAT_NS}">
  <categoryEntries>
    <categoryEntry name="Brass Warden" id="cat-bw"/>
    <categoryEntry name="Gunner or Sniper" id="cat-gos" hidden="true">
      <constraints>
        <constraint type="max" value="2" field="selections" scope="force-bw" id="c-gos"
            includeChildSelections="true"/>
      </constraints>
    </categoryEntry>
  </categoryEntries>
  <forceEntries>
    <forceEntry name="Brass Wardens Kill Team" id="force-bw">
      <categoryLinks>
        <categoryLink name="Leader" id="fl-leader" targetId="cat-leader">
          <constraints>
            <constraint type="min" value="1" field="selections" scope="force" id="c-l-min"/>
            <constraint type="max" value="1" field="selections" scope="force" id="c-l-max"/>
          </constraints>
        </categoryLink>
        <categoryLink name="Operative" id="fl-op" targetId="cat-op">
          <constraints>
            <constraint type="min" value="5" field="selections" scope="force" id="c-op-min"/>
            <constraint type="max" value="5" field="selections" scope="force" id="c-op-max"/>
          </constraints>
          <modifiers>
            <modifier type="increment" value="1" field="c-op-max">
              <conditions>
                <condition type="equalTo" value="1" field="selections" scope="force"
                    childId="se-walker"/>
              </conditions>
            </modifier>
          </modifiers>
        </categoryLink>
      </categoryLinks>
    </forceEntry>
  </forceEntries>
  <selectionEntries>
    <selectionEntry type="model" name="Captain" id="se-captain">
      {_cats(kw, ("Leader", "cat-leader"))}
      <profiles>{_op("p-captain", "Warden Captain", "3", "6&quot;", "4+", "12")}</profiles>
      {_roster_max("c-captain", 1)}
      <selectionEntryGroups>
        <selectionEntryGroup name="Ranged" id="g-ranged">
          <constraints>{_one_of("c-g-ranged")}</constraints>
          <selectionEntries>
            {_weapon_entry("w-lamp-pistol", "Lamp pistol")}
            {_weapon_entry("w-cannon", "Brass cannon")}
          </selectionEntries>
        </selectionEntryGroup>
        <selectionEntryGroup name="Melee" id="g-melee">
          <constraints>{_one_of("c-g-melee")}</constraints>
          <selectionEntries>
            {_weapon_entry("w-mop", "Power mop", "⚔")}
            {_weapon_entry("w-stick", "Polishing stick", "⚔")}
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
    </selectionEntry>
    <selectionEntry type="model" name="Gunner with steam flamer" id="se-gunner-1">
      {gunner_cats}
      <infoLinks><infoLink name="Gunner" id="il-g1" type="profile" targetId="sp-gunner"/>
      </infoLinks>
      {_roster_max("c-gunner-1", 1)}
      <selectionEntries>
        {_weapon_entry("w-flamer", "Steam flamer", bounds=_one_of("c-w-flamer"))}
      </selectionEntries>
      <entryLinks>
        <entryLink name="Gun butt" id="el-g1" type="selectionEntry" targetId="sh-butt"/>
      </entryLinks>
    </selectionEntry>
    <selectionEntry type="model" name="Gunner with rivet gun" id="se-gunner-2">
      {gunner_cats}
      <infoLinks><infoLink name="Gunner" id="il-g2" type="profile" targetId="sp-gunner"/>
      </infoLinks>
      {_roster_max("c-gunner-2", 1)}
      <selectionEntries>
        {_weapon_entry("w-rivet", "Rivet gun", bounds=_one_of("c-w-rivet"))}
      </selectionEntries>
      <entryLinks>
        <entryLink name="Gun butt" id="el-g2" type="selectionEntry" targetId="sh-butt"/>
      </entryLinks>
    </selectionEntry>
    <selectionEntry type="model" name="Sniper" id="se-sniper">
      {_cats(kw, ("Operative", "cat-op"), ("Gunner or Sniper", "cat-gos"))}
      <profiles>{_op("p-sniper", "Warden Sniper", "2", "6&quot;", "5+", "8")}</profiles>
      {_roster_max("c-sniper", 1)}
      <selectionEntries>{_weapon_entry("w-long", "Long lamp")}</selectionEntries>
      <entryLinks>
        <entryLink name="Gun butt" id="el-s" type="selectionEntry" targetId="sh-butt"/>
      </entryLinks>
    </selectionEntry>
    <selectionEntry type="model" name="Grenadier" id="se-grenadier">
      {_cats(kw, ("Operative", "cat-op"))}
      <profiles>{_op("p-gren", "Warden Grenadier", "2", "6&quot;", "5+", "8")}</profiles>
      {_roster_max("c-gren", 1)}
      <modifiers>
        <modifier type="set" value="2" field="c-gren">
          <conditions>
            <condition type="instanceOf" value="1" field="selections" scope="force"
                childId="force-bw"/>
          </conditions>
        </modifier>
      </modifiers>
      <selectionEntries>
        {_weapon_entry("w-launcher", "Grenade launcher", bounds=_one_of("c-w-launcher"))}
      </selectionEntries>
      <selectionEntryGroups>
        <selectionEntryGroup name="Weapons" id="g-gren">
          <constraints>{_one_of("c-g-gren")}</constraints>
          <selectionEntries>
            <selectionEntry type="upgrade" name="Lamp rifle; fists" id="o-rifle">
              <entryLinks>
                <entryLink name="Lamp rifle" id="el-r1" type="selectionEntry"
                    targetId="sh-rifle"/>
                <entryLink name="Fists" id="el-f1" type="selectionEntry" targetId="sh-fists"/>
              </entryLinks>
            </selectionEntry>
            <selectionEntry type="upgrade" name="Lamp carbine; fists" id="o-carbine">
              <selectionEntries>{_weapon_entry("w-carbine", "Lamp carbine")}</selectionEntries>
              <entryLinks>
                <entryLink name="Fists" id="el-f2" type="selectionEntry" targetId="sh-fists"/>
              </entryLinks>
            </selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
    </selectionEntry>
    <selectionEntry type="model" name="Trooper" id="se-trooper">
      {_cats(kw, ("Operative", "cat-op"))}
      <profiles>{_op("p-trooper", "Warden Trooper", "2", "6&quot;", "5+", "8")}</profiles>
      <constraints>
        <constraint type="max" value="-1" field="selections" scope="force-bw" id="c-trooper"/>
      </constraints>
      <modifiers>
        <modifier type="set" value="3" field="c-trooper">
          <conditions>
            <condition type="atLeast" value="1" field="selections" scope="force"
                childId="se-sniper"/>
          </conditions>
        </modifier>
      </modifiers>
      <entryLinks>
        <entryLink name="Lamp rifle" id="el-t1" type="selectionEntry" targetId="sh-rifle"/>
        <entryLink name="Gun butt" id="el-t2" type="selectionEntry" targetId="sh-butt"/>
      </entryLinks>
    </selectionEntry>
    <selectionEntry type="model" name="Walker" id="se-walker">
      {_cats(kw, ("Operative", "cat-op"))}
      <profiles>{_op("p-walker", "Brass Walker", "2", "5&quot;", "3+", "15")}</profiles>
      {_roster_max("c-walker", 1)}
      <selectionEntryGroups>
        <selectionEntryGroup name="Guns" id="g-guns">
          <constraints>
            <constraint type="max" value="2" field="selections" scope="parent" id="c-guns"/>
          </constraints>
          <selectionEntries>
            {_weapon_entry("w-big", "Big lamp")}
            {_weapon_entry("w-small", "Small lamp")}
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
    </selectionEntry>
  </selectionEntries>
  <sharedSelectionEntries>
    {_weapon_entry("sh-butt", "Gun butt", "⚔", _one_of("c-sh-butt"))}
    {_weapon_entry("sh-rifle", "Lamp rifle", "⌖", _one_of("c-sh-rifle"))}
    {_weapon_entry("sh-fists", "Fists", "⚔", _one_of("c-sh-fists"))}
  </sharedSelectionEntries>
  <sharedProfiles>{_op("sp-gunner", "Warden Gunner", "2", "6&quot;", "5+", "8")}</sharedProfiles>
</catalogue>
"""


@pytest.fixture
def options_import(tmp_path: Path) -> Any:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "2024 - Kill Team.gst").write_text(FIXTURE_GST, encoding="utf-8")
    (tmp_path / "2024 - Brass Wardens.cat").write_text(options_catalogue(), encoding="utf-8")
    return import_bsdata(tmp_path)


def _slots(team: Any, name: str) -> list[list[str]]:
    return [[o.name for o in slot.options] for slot in team.operative(name).loadouts]


def test_bsdata_choice_groups_are_slots(options_import: Any) -> None:
    """Two weapon groups of exactly one selection each are two slots (one option from each),
    options in catalogue order."""
    (team,) = options_import.teams
    assert _slots(team, "Warden Captain") == [
        ["Lamp pistol", "Brass cannon"],
        ["Power mop", "Polishing stick"],
    ]


def test_bsdata_entries_sharing_a_datacard_are_its_options(options_import: Any) -> None:
    """'Gunner with steam flamer' and 'Gunner with rivet gun' share the Gunner's profile: one
    datacard whose options are the two entries' weapons (ranged first)."""
    (team,) = options_import.teams
    assert _slots(team, "Warden Gunner") == [["Steam flamer; Gun butt", "Rivet gun; Gun butt"]]


def test_bsdata_whole_set_entries_with_a_fixed_weapon(options_import: Any) -> None:
    """A group of whole-set entries ('Lamp rifle; fists') is one slot; the always-carried
    grenade launcher is in each option."""
    (team,) = options_import.teams
    assert _slots(team, "Warden Grenadier") == [
        ["Grenade launcher; Lamp rifle; Fists", "Grenade launcher; Lamp carbine; Fists"]
    ]
    assert team.operative("Warden Trooper").loadouts == ()


def test_bsdata_limits_and_size(options_import: Any) -> None:
    """Entry maxima become type or option limits (the Grenadier's 1 is raised to 2 in the
    team's own force); the hidden 'Gunner or Sniper' category caps both types together and is
    no keyword; Leader 1 + Operative 5, widened by the conditional increment to 7."""
    (team,) = options_import.teams
    sel = team.selection
    assert sel.leader == ("Warden Captain",)
    assert sel.size == (6, 7)
    assert dict(sel.limits) == {
        "Warden Captain": 1,
        "Warden Gunner [Steam flamer; Gun butt]": 1,
        "Warden Gunner [Rivet gun; Gun butt]": 1,
        "Warden Sniper": 1,
        "Warden Grenadier": 2,
        "Brass Walker": 1,
    }
    assert sel.combined_limits == ((("Warden Gunner", "Warden Sniper"), 2),)
    assert "GUNNER OR SNIPER" not in team.operative("Warden Gunner").keywords


def test_bsdata_limits_are_enforced_by_roster_validate(options_import: Any) -> None:
    (team,) = options_import.teams
    from engine.teams.model import Roster

    base = ["Warden Captain [Lamp pistol + Power mop]", *["Warden Trooper"] * 4]
    ok = Roster.from_entries(team, [*base, "Warden Gunner [Rivet gun; Gun butt]"])
    assert ok.validate() == []
    twice = [*base[:-1], *["Warden Gunner [Rivet gun; Gun butt]"] * 2]
    assert any("at most 1" in p for p in Roster.from_entries(team, twice).validate())
    three = [
        *base[:-2],
        "Warden Gunner [Rivet gun; Gun butt]",
        "Warden Gunner [Steam flamer; Gun butt]",
        "Warden Sniper",
    ]
    assert any(
        p.startswith("combined limit: at most 2")
        for p in Roster.from_entries(team, three).validate()
    )


def test_bsdata_unreadable_options_and_limits_are_reported(options_import: Any) -> None:
    """A weapon group of up to two selections is no choice (both weapons carried), a limit
    modifier with a condition on another selection is not read, and the conditional
    increment of the count is reported."""
    (team,) = options_import.teams
    assert team.operative("Brass Walker").loadouts == ()
    messages = [f"{i.where}: {i.message}" for i in options_import.issues]
    assert any("'Brass Walker'" in m and "'Guns' allows 0 to 2" in m for m in messages)
    assert any("'Warden Trooper'" in m and "set '3'" in m and "not read" in m for m in messages)
    assert "Warden Trooper" not in dict(team.selection.limits)
    assert any("category 'Operative'" in m and "widened" in m for m in messages)


# --------------------------------------------------------------------------------------------
# The real sample catalogues (skipped when the folder is absent)
# --------------------------------------------------------------------------------------------

needs_samples = pytest.mark.skipif(
    not (BSDATA.is_dir() and KTJSON_TEAMS.is_dir()), reason="data samples not present"
)
SAMPLE_TEAMS = {
    "Kasrkin": "IMP-KAS.json",
    "Kommandos": "ORK-KOM.json",
    "Legionaries": "CHAOS-LEG.json",
}


def _norm(name: str, prefix: str) -> str:
    words = re.findall(r"[a-z0-9]+", name.lower())
    if len(words) > 1 and words[0] == prefix:
        words = words[1:]
    return "".join(words)


@needs_samples
@pytest.mark.parametrize("team_name", sorted(SAMPLE_TEAMS))
def test_sample_catalogue_matches_killteamjson_stats(team_name: str) -> None:
    result = import_bsdata(BSDATA, team=team_name)
    (team,) = result.teams
    assert team.provenance.source == "bsdata"
    data = json.loads((KTJSON_TEAMS / SAMPLE_TEAMS[team_name]).read_text(encoding="utf-8"))
    prefix = re.findall(r"[a-z]+", data["opTypes"][0]["opTypeName"].lower())[0]
    ours = {_norm(o.name, prefix): o for o in team.operatives}
    assert len(ours) == len(data["opTypes"])
    for record in data["opTypes"]:
        op = ours[_norm(record["opTypeName"], prefix)]
        assert op.apl == record["APL"], record["opTypeName"]
        assert op.save == int(record["SAVE"].rstrip("+")), record["opTypeName"]
        assert op.wounds == record["WOUNDS"], record["opTypeName"]
        assert op.move == float(record["MOVE"].rstrip('"')), record["opTypeName"]
        assert op.weapons, record["opTypeName"]
    kinds = {i.kind for i in result.issues}
    assert "unsupported" in kinds  # base sizes and composition, at least


@needs_samples
def test_kasrkin_sergeant() -> None:
    (team,) = import_bsdata(BSDATA, team="kasrkin").teams
    data = json.loads((KTJSON_TEAMS / "IMP-KAS.json").read_text(encoding="utf-8"))
    record = next(r for r in data["opTypes"] if r["opTypeName"] == "Kasrkin Sergeant")
    sergeant = team.operative("Sergeant")
    assert (sergeant.apl, f"{sergeant.save}+", sergeant.wounds) == (
        record["APL"],
        record["SAVE"],
        record["WOUNDS"],
    )
    assert team.selection.leader == ("Sergeant",) and "LEADER" in sergeant.keywords


@needs_samples
def test_every_sample_weapon_profile_parses() -> None:
    import xml.etree.ElementTree as ET

    count = 0
    for cat in sorted(BSDATA.glob("2024 - *.cat")):
        for elem in ET.parse(cat).getroot().iter():
            if elem.tag.endswith("}characteristic") and elem.get("name") == "WR":
                rules, _ = parse_weapon_rules_tolerant(elem.text or "")
                assert parse_weapon_rules(rules.format()) == rules
                count += 1
    assert count > 50
    result = import_bsdata(BSDATA)
    assert {t.name for t in result.teams} == set(SAMPLE_TEAMS)
    assert not [i for i in result.issues if i.kind == "skipped"]


# --- wargear options and limits of the real catalogues ---------------------------------------


def _sample_team(name: str) -> tuple[Any, list[str]]:
    result = import_bsdata(BSDATA, team=name)
    (team,) = result.teams
    return team, [f"{i.where}: {i.message}" for i in result.issues]


@needs_samples
@pytest.mark.parametrize("team_name", sorted(SAMPLE_TEAMS))
def test_sample_options_name_only_datacard_weapons(team_name: str) -> None:
    """Every option gives weapons of its own datacard, named by the convention, and a card
    with options has every weapon in some option."""
    team, messages = _sample_team(team_name)
    for op in team.operatives:
        names = {w.name for w in op.weapons}
        given: set[str] = set()
        for slot in op.loadouts:
            for option in slot.options:
                assert option.weapons and set(option.weapons) <= names, (op.name, option)
                assert option.name == "; ".join(option.weapons)
                given |= set(option.weapons)
        if op.loadouts:
            assert given == names, op.name
    assert not any("never carried" in m for m in messages)


@needs_samples
@pytest.mark.parametrize("team_name", sorted(SAMPLE_TEAMS))
def test_sample_roster_built_from_imported_loadouts_is_legal(team_name: str) -> None:
    from tests.test_import_killteamjson import legal_roster_from_loadouts

    team, _ = _sample_team(team_name)
    roster = legal_roster_from_loadouts(team)
    assert roster.validate() == []
    assert len(roster.operatives) == team.selection.size[0]


@needs_samples
def test_sample_kasrkin_options_and_limits() -> None:
    """Kasrkin: the five 'Gunner with ...' entries are the Gunner's five options, each at most
    once; the hidden 'Gunner or Sharpshooter' category caps them at four together; the force
    counts 1 leader + 9 operatives."""
    team, _ = _sample_team("Kasrkin")
    (slot,) = team.operative("Gunner").loadouts
    assert sorted(o.name for o in slot.options) == [
        "Flamer; Gun butt",
        "Grenade launcher; Gun butt",
        "Hot-shot volley gun; Gun butt",
        "Meltagun; Gun butt",
        "Plasma gun; Gun butt",
    ]
    limits = dict(team.selection.limits)
    assert all(limits[f"Gunner [{o.name}]"] == 1 for o in slot.options)
    assert team.selection.combined_limits == ((("Gunner", "Sharpshooter"), 4),)
    assert team.selection.size == (10, 10)
    assert len(team.operative("Sergeant").loadouts[0].options) == 4
    assert "GUNNER OR SHARPSHOOTER" not in team.operative("Gunner").keywords


@needs_samples
def test_sample_legionaries_options_and_limits() -> None:
    """Legionaries: the Aspiring Champion's ranged and melee groups are two slots; the
    Gunner's group of three with a fixed bolt pistol and fists is one slot of whole sets;
    each operative other than the Warrior at most once (set in the team's own force)."""
    team, messages = _sample_team("Legionaries")
    champion = team.operative("Legionary Aspiring Champion")
    assert [[o.name for o in s.options] for s in champion.loadouts] == [
        ["Plasma pistol", "Tainted bolt pistol"],
        ["Power fist", "Power maul", "Power weapon", "Tainted chainsword"],
    ]
    (gunner,) = team.operative("Legionary Gunner").loadouts
    assert [set(o.weapons) for o in gunner.options] == [
        {"Flamer", "Bolt pistol", "Fists"},
        {"Meltagun", "Bolt pistol", "Fists"},
        {"Plasma gun", "Bolt pistol", "Fists"},
    ]
    limits = dict(team.selection.limits)
    assert "Legionary Warrior" not in limits and limits["Legionary Heavy Gunner"] == 1
    assert team.selection.size == (6, 6)
    assert any("limit set to 0 under conditions" in m for m in messages)


@needs_samples
def test_sample_kommandos_options_and_limits() -> None:
    """Kommandos: the Boss Nob picks one melee weapon and always has its slugga; the Grot and
    Bomb Squig raise the count by one together (reported, size widened); Boys unlimited."""
    team, messages = _sample_team("Kommandos")
    (slot,) = team.operative("Kommando Boss Nob").loadouts
    assert [set(o.weapons) for o in slot.options] == [
        {"Slugga", "Big Choppa"},
        {"Slugga", "Power klaw"},
    ]
    assert team.selection.size == (10, 11)
    limits = dict(team.selection.limits)
    assert "Kommando Boy" not in limits and limits["Kommando Grot"] == 1
    assert any("category 'Operative'" in m and "widened" in m for m in messages)


def test_catalogue_without_operatives_is_refused_in_one_line_naming_the_file(
    tmp_path: Path,
) -> None:
    """A catalogue that gives no operative datacard (a library of shared weapons) is no
    team: it is refused in one ``skipped`` issue whose place is the catalogue file, so the
    user knows which file was not imported, and the other catalogues still load (the same
    refusal as the KT21 importer's, one shared importer core)."""
    folder = write_bsdata_fixture(tmp_path)
    (folder / "2024 - Armoury.cat").write_text(
        f'<catalogue id="arm" name="Armoury" revision="1" xmlns="{CAT_NS}">'
        "<sharedSelectionEntries/></catalogue>",
        encoding="utf-8",
    )
    result = import_bsdata(folder)
    assert [t.name for t in result.teams] == ["Gloomwardens"]
    refused = [i for i in result.issues if i.team == "Armoury"]
    assert [(i.where, i.kind) for i in refused] == [("2024 - Armoury.cat", "skipped")]
    assert "no operative" in refused[0].message
