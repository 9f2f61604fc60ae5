"""The Kill Team 2018 BattleScribe importer (``rules/KT18.md`` 1.6-1.10): the catalogues
without a year prefix with ``Warhammer 40,000 Kill Team.gst``.

The tests that always run use a small game system and catalogues written here in the
BattleScribe schema, in the forms the 2018 catalogues show; the tests on the real catalogues
read ``../shared/data_samples/bsdata18`` and are skipped when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cli import main
from engine.rules.registry import team_rules
from engine.teams.importers.bsdata18 import import_bsdata18, kt18_team_id
from engine.teams.importers.bsdata_common import refused_catalogues
from engine.teams.importers.bsdata_xml import BsDataError
from engine.teams.io import load_team, save_team
from engine.teams.model import Roster, Team
from tests.samples_support import data_samples, needs

SAMPLES = data_samples("bsdata18")
needs_samples = needs(SAMPLES)

GST_NAME = "Warhammer 40,000 Kill Team.gst"

_GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="gs18" name="Kill Team (2018)" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <profileTypes>
    <profileType id="mo" name="Model"><characteristicTypes>
      <characteristicType id="m" name="M"/><characteristicType id="ws" name="WS"/>
      <characteristicType id="bs" name="BS"/><characteristicType id="s" name="S"/>
      <characteristicType id="t" name="T"/><characteristicType id="w" name="W"/>
      <characteristicType id="a" name="A"/><characteristicType id="ld" name="Ld"/>
      <characteristicType id="sv" name="Sv"/><characteristicType id="mx" name="Max"/>
    </characteristicTypes></profileType>
    <profileType id="wp" name="Weapon"><characteristicTypes>
      <characteristicType id="r" name="Range"/><characteristicType id="ty" name="Type"/>
      <characteristicType id="ws_" name="S"/><characteristicType id="ap" name="AP"/>
      <characteristicType id="d" name="D"/><characteristicType id="ab" name="Abilities"/>
    </characteristicTypes></profileType>
    <profileType id="ab" name="Ability"><characteristicTypes>
      <characteristicType id="de" name="Description"/>
    </characteristicTypes></profileType>
    <profileType id="pp" name="Psychic Power"><characteristicTypes>
      <characteristicType id="pd" name="Psychic Power"/>
    </characteristicTypes></profileType>
  </profileTypes>
  <categoryEntries>
    <categoryEntry id="cs" name="Specialist"/>
    <categoryEntry id="cl" name="Specialist: Leader"/>
    <categoryEntry id="cc" name="Specialist: Combat"/>
    <categoryEntry id="ch" name="Specialist: Heavy"/>
    <categoryEntry id="cv" name="Specialist: Veteran"/>
    <categoryEntry id="inf" name="Infantry"/>
    <categoryEntry id="fac" name="Faction: Testers"/>
    <categoryEntry id="big" name="Ogryn"/>
    <categoryEntry id="cm" name="Model"><constraints>
      <constraint field="selections" scope="force" value="20.0" id="k1" type="max"/>
      <constraint field="selections" scope="force" value="3.0" id="k2" type="min"/>
    </constraints></categoryEntry>
  </categoryEntries>
  <sharedSelectionEntries>
    <selectionEntry id="sLeader" name="Leader" type="upgrade"/>
    <selectionEntry id="sCombat" name="Combat" type="upgrade"/>
    <selectionEntry id="sHeavy" name="Heavy" type="upgrade"/>
    <selectionEntry id="sVeteran" name="Veteran" type="upgrade"/>
  </sharedSelectionEntries>
</gameSystem>
"""

_WEAPON = """<profile id="{id}" name="{name}" typeId="wp" typeName="Weapon"><characteristics>
  <characteristic name="Range" typeId="r">{r}</characteristic>
  <characteristic name="Type" typeId="ty">{ty}</characteristic>
  <characteristic name="S" typeId="ws_">{s}</characteristic>
  <characteristic name="AP" typeId="ap">{ap}</characteristic>
  <characteristic name="D" typeId="d">{d}</characteristic>
  <characteristic name="Abilities" typeId="ab">{ab}</characteristic>
</characteristics></profile>"""


def _weapon(pid: str, name: str, r: str, ty: str, s: str, ap: str, d: str, ab: str = "-") -> str:
    return _WEAPON.format(id=pid, name=name, r=r, ty=ty, s=s, ap=ap, d=d, ab=ab)


def _model(pid: str, name: str, stats: tuple[str, ...]) -> str:
    names = ("M", "WS", "BS", "S", "T", "W", "A", "Ld", "Sv", "Max")
    ids = ("m", "ws", "bs", "s", "t", "w", "a", "ld", "sv", "mx")
    chars = "".join(
        f'<characteristic name="{n}" typeId="{i}">{v}</characteristic>'
        for n, i, v in zip(names, ids, stats, strict=True)
    )
    return (
        f'<profile id="{pid}" name="{name}" typeId="mo" typeName="Model">'
        f"<characteristics>{chars}</characteristics></profile>"
    )


def _profile(pid: str, name: str, tid: str, tname: str, char: str, cid: str, text: str) -> str:
    """A profile of type ``tname`` (id ``tid``) with one characteristic ``char`` (``cid``)."""
    return (
        f'<profile id="{pid}" name="{name}" typeId="{tid}" typeName="{tname}"><characteristics>'
        f'<characteristic name="{char}" typeId="{cid}">{text}</characteristic>'
        "</characteristics></profile>"
    )


def _model_entry(eid: str, name: str, profiles: str, *categories: tuple[str, str, str]) -> str:
    """A model entry with ``profiles`` and category links ``(link id, name, target)``."""
    links = "".join(
        f'<categoryLink id="{lid}" name="{cname}" targetId="{target}"/>'
        for lid, cname, target in categories
    )
    return (
        f'<selectionEntry id="{eid}" name="{name}" type="model"><profiles>{profiles}</profiles>'
        f"<categoryLinks>{links}</categoryLinks></selectionEntry>"
    )


def _weapon_entry(eid: str, name: str, *profiles: str) -> str:
    return (
        f'<selectionEntry id="{eid}" name="{name}" type="upgrade"><profiles>'
        f"{''.join(profiles)}</profiles></selectionEntry>"
    )


def _link(lid: str, target: str, inner: str = "") -> str:
    head = f'<entryLink id="{lid}" name="x" targetId="{target}" type="selectionEntry">'
    return f"{head}{inner}</entryLink>"


_SPECIALISM_GROUP = """<selectionEntryGroups><selectionEntryGroup id="{gid}" name="Specialism">
  <constraints>
    <constraint field="selections" scope="parent" value="1" id="{gid}a" type="min"/>
    <constraint field="selections" scope="parent" value="1" id="{gid}b" type="max"/>
  </constraints>
  <entryLinks>{links}</entryLinks>
</selectionEntryGroup></selectionEntryGroups>"""


def _specialist_link(lid: str, target: str, *specialisms: str) -> str:
    links = "".join(
        f'<entryLink id="{lid}{s}" name="{s}" targetId="s{s}" type="selectionEntry"/>'
        for s in specialisms
    )
    return _link(lid, target, _SPECIALISM_GROUP.format(gid=f"g{lid}", links=links))


def _leader_link(lid: str, target: str) -> str:
    return _link(
        lid,
        target,
        f'<entryLinks><entryLink id="{lid}L" name="Leader" targetId="sLeader" '
        'type="selectionEntry"/></entryLinks>',
    )


_GRUNT = ('5"', "3+", "-", "4", "4", "1", "2", "6", "6+", "-")
_INV = "This model has a 5+ invulnerable save."
_CHOPPA = _weapon("w5", "Choppa", "Melee", "Melee", "User", "0", "1")
_FACTION = ("Faction: Testers", "fac")


def _cat(game_system: str = "gs18", extra: str = "", name: str = "Testers") -> str:
    boss_weapons = "".join(
        (
            _weapon("w1", "Zap pistol (standard", '12"', "Pistol 1", "7", "-3", "1"),
            _weapon("w2", "Zap pistol (overcharge)", '12"', "Pistol 1", "8", "-3", "2",
                    "Some rules prose about overheating."),
            _weapon("w3", "Big klaw", "Melee", "Melee", "x2", "-3", "D3",
                    "Some rules prose about hitting."),
        )
    )  # fmt: skip
    boss = "".join(
        (
            _model("p2", "Tester Boss", ("6", "2+", "3+", "5", "4", "3", "D3", "8", "4+", "1")),
            _profile("pa", "Shimmer Field", "ab", "Ability", "Description", "de", _INV),
            _profile("pp", "Mind Bolt", "pp", "Psychic Power", "Psychic Power", "pd", "prose"),
            boss_weapons,
        )
    )
    gunner = "".join(
        (
            _model("p3", "Tester Gunner", ('5"', "3+", "5+", "4", "4", "1", "2", "6", "6+", "2")),
            _weapon("w6", "Zapper", '24"', "Rapid fire 1", "4", "0", "1"),
            _weapon("w7", "Odd gun", '24"', "Pistol", "4", "0", "1"),
            _weapon("w8", "Kombi", "-", "-", "-", "-", "-", "Pick one."),
            _weapon("w9", "Kombi (Blasta)", "24", "Heavy D6", "5", "-1", "1"),
        )
    )
    brute = "".join(
        (
            _model("p4", "Tester Brute", ('6"', "3+", "4+", "5", "5", "3", "3", "7", "5+", "-")),
            _weapon("wa", "Ripper - ranged", '12"', "Assault 3", "5", "0", "1"),
            _weapon("wb", "Ripper - melee", "Melee", "Melee", "User", "-1", "1"),
        )
    )
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat1" name="{name}" gameSystemId="{game_system}" revision="7" library="false"
  xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <entryLinks>
    {_link("r1", "eGrunt")}
    {_specialist_link("r2", "eGrunt", "Combat", "Veteran")}
    {_specialist_link("r3", "eBoss", "Combat")}
    {_leader_link("r4", "eBoss")}
    {_specialist_link("r5", "eGunner", "Heavy")}
    {_link("r6", "eBrute")}
  </entryLinks>
  <rules><rule id="tr1" name="Test Doctrine"/></rules>
  <sharedSelectionEntries>
    <selectionEntry id="eGrunt" name="Tester Grunt" type="model">
      <profiles>{_model("p1", "Tester Grunt", _GRUNT)}</profiles>
      <categoryLinks>
        <categoryLink id="k1" name="Faction: Testers" targetId="fac"/>
        <categoryLink id="k2" name="Infantry" targetId="inf"/>
        <categoryLink id="k3" name="Model" targetId="cm"/>
      </categoryLinks>
      <selectionEntryGroups><selectionEntryGroup id="gw" name="Weapon">
        <constraints>
          <constraint field="selections" scope="parent" value="1" id="gw1" type="min"/>
          <constraint field="selections" scope="parent" value="1" id="gw2" type="max"/>
        </constraints>
        <entryLinks>
          {_link("x1", "wShoota")}
          {_link("x2", "wChoppa")}
        </entryLinks>
      </selectionEntryGroup></selectionEntryGroups>
      <entryLinks>{_link("x3", "wBombs")}</entryLinks>
    </selectionEntry>
    {_model_entry("eBoss", "Tester Boss (Big)", boss, ("k4", *_FACTION), ("k5", "Infantry", "inf"))}
    {_model_entry("eGunner", "Tester Gunner", gunner, ("k6", *_FACTION))}
    {_model_entry("eBrute", "Tester Brute", brute, ("k7", *_FACTION), ("k8", "Ogryn", "big"))}
    {_weapon_entry("wShoota", "Shoota", _weapon("w4", "Shoota", '18"', "Assault 2", "4", "0", "1"))}
    {_weapon_entry("wChoppa", "Choppa", _CHOPPA)}
    {_weapon_entry("wBombs", "Bombs", _weapon("wc", "Bombs", '6"', "Grenade D6", "3", "0", "1"))}
  </sharedSelectionEntries>
  {extra}
</catalogue>
"""


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    (tmp_path / GST_NAME).write_text(_GST, encoding="utf-8")
    (tmp_path / "Testers.cat").write_text(_cat(), encoding="utf-8")
    return tmp_path


def _team(folder: Path) -> Team:
    result = import_bsdata18(folder, team="Testers")
    assert len(result.teams) == 1, result.report()
    return result.teams[0]


def test_team_identity_edition_and_size(checkout: Path) -> None:
    """A 2018 catalogue is one ``kt18`` team, id ``kt18_<slug>``; its size is the game
    system's Model count (min 3, max 20 written in the fixture); no default roster."""
    team = _team(checkout)
    assert (team.id, team.edition, team.faction) == ("kt18_testers", "kt18", "TESTERS")
    assert team.selection.size == (3, 20)
    assert team.selection.leader == ()
    assert dict(team.selection.limits) == {"Tester Boss (Big)": 1, "Tester Gunner": 2}  # Max
    assert team.default_roster == ()
    assert team.provenance.dataslate == "KT18 catalogue revision 7"
    assert [a.name for a in team.abilities] == ["Test Doctrine"]
    assert kt18_team_id("Astra Militarum") == "kt18_astra_militarum"


def test_model_characteristics_rules_kt18_1_7(checkout: Path) -> None:
    """M, WS, BS, S, T, W, A, Ld, Sv, Max read as printed in the fixture: ``-`` is 0 (no BS,
    no Max), M without an inch mark is inches, A may be a dice value (rules/KT18.md 1.7)."""
    team = _team(checkout)
    grunt = team.operative("Tester Grunt")
    assert (grunt.move, grunt.wounds) == (5.0, 1)
    k = grunt.kt18
    assert k is not None
    assert (k.ws, k.bs, k.strength, k.toughness, k.attacks) == (3, 0, 4, 4, "2")
    assert (k.leadership, k.save, k.maximum) == (6, 6, 0)
    assert grunt.keywords[0] == "TESTERS" and "INFANTRY" in grunt.keywords
    assert "MODEL" not in grunt.keywords  # a roster category, not a keyword
    boss = team.operative("Tester Boss (Big)")  # named after its entry, not its profile
    assert boss.move == 6.0 and boss.kt18 is not None
    assert (boss.kt18.ws, boss.kt18.bs, boss.kt18.attacks, boss.kt18.maximum) == (2, 3, "D3", 1)


def test_specialists_and_leader_from_root_links_rules_kt18_1_6(checkout: Path) -> None:
    """The specialisms a datasheet may take are those its root links offer (1.6 part 6): the
    Grunt's Specialism group lists Combat and Veteran; the Boss has a Leader link and Combat;
    the Brute is only offered without a specialism."""
    team = _team(checkout)
    grunt, boss = team.operative("Tester Grunt").kt18, team.operative("Tester Boss (Big)").kt18
    brute = team.operative("Tester Brute").kt18
    assert grunt is not None and boss is not None and brute is not None
    assert (grunt.specialists, grunt.leader) == (("Combat", "Veteran"), False)
    assert (boss.specialists, boss.leader) == (("Leader", "Combat"), True)
    assert (brute.specialists, brute.leader) == ((), False)


def test_invulnerable_save_and_base_sizes(checkout: Path) -> None:
    """An own ability saying the model has a 5+ invulnerable save gives invulnerable 5
    (reported); an OGRYN model's stated default base is 40 mm, the others 32 mm."""
    result = import_bsdata18(checkout)
    team = result.teams[0]
    boss = team.operative("Tester Boss (Big)")
    assert boss.kt18 is not None and boss.kt18.invulnerable == 5
    assert any("invulnerable save 5+" in i.message for i in result.issues)
    assert team.operative("Tester Brute").base_mm == 40.0
    assert team.operative("Tester Grunt").base_mm == 32.0
    assert any(i.where == "base sizes" for i in result.issues)


def test_weapon_profiles_rules_kt18_1_8(checkout: Path) -> None:
    """Range, Type with shots, S, AP and D of each profile as written in the fixture
    (rules/KT18.md 1.8): ``Rapid fire`` is the Rapid Fire type, a missing inch mark and a
    missing closing parenthesis are recovered, Melee profiles are melee weapons."""
    team = _team(checkout)
    gunner = team.operative("Tester Gunner")
    zapper = gunner.weapon("Zapper").profiles[0].kt18
    assert zapper is not None
    assert (zapper.range, zapper.type, zapper.shots, zapper.strength, zapper.ap) == (
        24.0, "Rapid Fire", "1", "4", 0,
    )  # fmt: skip
    kombi = gunner.weapon("Kombi")
    assert [p.name for p in kombi.profiles] == ["Blasta"]  # the "-" header is not a profile
    blasta = kombi.profiles[0].kt18
    assert blasta is not None and (blasta.range, blasta.type, blasta.shots) == (24.0, "Heavy", "D6")
    boss = team.operative("Tester Boss (Big)")
    zap = boss.weapon("Zap pistol")
    assert [p.name for p in zap.profiles] == ["standard", "overcharge"]
    klaw = boss.weapon("Big klaw")
    assert klaw.kind == "melee" and klaw.profiles[0].kt18 is not None
    assert (klaw.profiles[0].kt18.strength, klaw.profiles[0].kt18.damage) == ("x2", "D3")
    brute = team.operative("Tester Brute")
    assert sorted(w.kind for w in brute.weapons if w.name == "Ripper") == ["melee", "ranged"]


def test_unreadable_profiles_are_reported_never_silently_dropped(checkout: Path) -> None:
    """A Pistol printed without its number of shots cannot be read: the profile is skipped
    and reported; the header ``Kombi`` and the missing inch mark are reported too."""
    result = import_bsdata18(checkout)
    gunner = result.teams[0].operative("Tester Gunner")
    assert all(w.name != "Odd gun" for w in gunner.weapons)
    messages = [(i.where, i.kind, i.message) for i in result.issues]
    assert any("'Odd gun'" in w and k == "skipped" and "Pistol" in m for w, k, m in messages)
    assert any("'Kombi'" in w and "header" in m for w, _k, m in messages)
    assert any("inch mark" in m for _w, _k, m in messages)
    assert any("Psychic Power profile 'Mind Bolt'" in m for _w, _k, m in messages)
    assert any(w == "points" for w, _k, _m in messages)


def test_out_of_bounds_model_is_skipped_and_reported(checkout: Path) -> None:
    """A model whose Ld reads 0 is outside the KT18 bounds (Ld 1 to 12): that datasheet is
    skipped and reported naming the field; the rest of the team still loads."""
    text = _cat().replace(
        '<characteristic name="Ld" typeId="ld">7</characteristic>',
        '<characteristic name="Ld" typeId="ld">0</characteristic>',
    )
    (checkout / "Testers.cat").write_text(text, encoding="utf-8")
    result = import_bsdata18(checkout)
    names = [o.name for o in result.teams[0].operatives]
    assert "Tester Brute" not in names and "Tester Grunt" in names
    assert any(
        "'Tester Brute'" in i.where and i.kind == "skipped" and "leadership" in i.message
        for i in result.issues
    )


def test_weapon_abilities_are_named_not_copied_and_listed_as_rules(checkout: Path) -> None:
    """A weapon's Abilities prose is not copied: the profile gets an ability named after the
    weapon and profile, reported, and ``team_rules`` lists it as not implemented."""
    result = import_bsdata18(checkout)
    team = result.teams[0]
    over = team.operative("Tester Boss (Big)").weapon("Zap pistol").profile("overcharge").kt18
    assert over is not None and over.abilities == ("Zap pistol (overcharge)",)
    dumped = str(save_team(team, checkout / "out.json").read_text(encoding="utf-8"))
    assert "prose" not in dumped
    rules = {d.name: d for d in team_rules(team) if d.kind == "weapon_rule"}
    assert "Big klaw" in rules and not rules["Big klaw"].implemented


def test_wargear_options_are_loadout_slots(checkout: Path) -> None:
    """The Grunt's one-of Weapon group is a slot (Shoota or Choppa), its Bombs always carried
    (folded into each option); a roster entry names the option."""
    team = _team(checkout)
    grunt = team.operative("Tester Grunt")
    assert len(grunt.loadouts) == 1
    options = {o.name: set(o.weapons) for o in grunt.loadouts[0].options}
    assert {frozenset(v) for v in options.values()} == {
        frozenset({"Shoota", "Bombs"}),
        frozenset({"Choppa", "Bombs"}),
    }


def test_team_file_round_trip(checkout: Path, tmp_path: Path) -> None:
    """The imported team writes and reads back unchanged, and a roster in the KT18 notation
    validates against it."""
    team = _team(checkout)
    again = load_team(save_team(team, tmp_path / "t.json"))
    assert again == team
    shoota = next(
        o.name for o in team.operative("Tester Grunt").loadouts[0].options if "Shoota" in o.name
    )
    roster = Roster.from_entries(
        again,
        [
            "Tester Boss (Big) (Leader)",
            f"Tester Grunt [{shoota}] (Combat)",
            f"Tester Grunt [{shoota}]",
        ],
    )
    assert roster.validate() == []


def test_other_game_system_and_library_are_refused_in_one_line(checkout: Path) -> None:
    """A catalogue of another game system, or a library, is refused naming the file; the
    other catalogues still import; catalogues with a year prefix (2021, 2024) are not read."""
    (checkout / "Other.cat").write_text(_cat("gs99", name="Other"), encoding="utf-8")
    lib = (
        _cat(name="Lib")
        .replace('library="false"', 'library="true"')
        .replace('id="cat1"', 'id="lib9"')
    )
    (checkout / "Lib.cat").write_text(lib, encoding="utf-8")
    (checkout / "2021 - Testers.cat").write_text("not even xml", encoding="utf-8")
    result = import_bsdata18(checkout)
    assert [t.id for t in result.teams] == ["kt18_testers"]
    refused = {i.where: i.message for i in refused_catalogues(result)}
    assert set(refused) == {"Other.cat", "Lib.cat"}
    assert "game system" in refused["Other.cat"] and "library" in refused["Lib.cat"]
    assert all("\n" not in m for m in refused.values())


def test_linked_catalogue_is_read_or_the_catalogue_refused(checkout: Path) -> None:
    """A catalogue importing another (catalogueLink) reads it from the same folder; without
    it, it is refused naming the missing catalogue."""
    link = (
        '<catalogueLinks><catalogueLink id="cl1" name="Shared Lib" targetId="lib1" '
        'type="catalogue" importRootEntries="true"/></catalogueLinks>'
    )
    (checkout / "Linked.cat").write_text(
        _cat(name="Linked", extra=link).replace('id="cat1"', 'id="cat2"'), encoding="utf-8"
    )
    result = import_bsdata18(checkout, team="Linked")
    assert result.teams == ()
    (only,) = refused_catalogues(result)
    assert "Shared Lib" in only.message and only.where == "Linked.cat"
    stats = ('6"', "3+", "3+", "4", "4", "1", "1", "7", "3+", "-")
    library = f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="lib1" name="Shared Lib" gameSystemId="gs18" library="true"
  xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <sharedSelectionEntries>
    <selectionEntry id="eLib" name="Library Trooper" type="model">
      <profiles>{_model("pl", "Library Trooper", stats)}</profiles>
      <entryLinks>{_link("xl", "wShoota")}</entryLinks>
    </selectionEntry>
  </sharedSelectionEntries>
</catalogue>"""
    (checkout / "Shared Lib.cat").write_text(library, encoding="utf-8")
    result = import_bsdata18(checkout, team="Linked")
    (team,) = result.teams
    trooper = team.operative("Library Trooper")
    assert trooper.kt18 is not None and trooper.kt18.save == 3
    assert [w.name for w in trooper.weapons] == ["Shoota"]


def test_malformed_catalogue_is_refused_naming_the_file(tmp_path: Path) -> None:
    """A catalogue that is not XML is refused naming the file; when nothing else loads the
    import fails with that one line."""
    (tmp_path / GST_NAME).write_text(_GST, encoding="utf-8")
    (tmp_path / "Broken.cat").write_text("<catalogue", encoding="utf-8")
    with pytest.raises(BsDataError, match=r"Broken\.cat"):
        import_bsdata18(tmp_path)


def test_cli_import_ends_with_the_catalogue_count(
    checkout: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``killteam teams import DIR --format bsdata18 -o OUT`` writes one team file per
    imported catalogue and ends with ``catalogues: N imported, M refused``; ``teams show``
    prints the KT18 datasheet."""
    (checkout / "Other.cat").write_text(_cat("gs99", name="Other"), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["teams", "import", str(checkout), "--format", "bsdata18", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "catalogues: 1 imported, 1 refused" in printed
    assert "refused Other.cat:" in printed
    assert (out / "kt18_testers.json").is_file()
    assert main(["teams", "show", str(out / "kt18_testers.json")]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "Specialists: Leader, Combat; may lead" in shown


# ------------------------------------------------------------------ the real catalogues


@needs_samples
def test_every_sample_catalogue_imports_or_is_refused_with_its_reason() -> None:
    """The three sample catalogues: Orks and Astra Militarum import; Adeptus Astartes
    imports the ``Space Marines`` library catalogue, which the samples do not hold: refused,
    naming it, in one line."""
    result = import_bsdata18(SAMPLES)
    assert sorted(t.id for t in result.teams) == ["kt18_astra_militarum", "kt18_orks"]
    refused = refused_catalogues(result)
    assert [(i.where, "Space Marines" in i.message) for i in refused] == [
        ("Adeptus Astartes.cat", True)
    ]
    assert len(result.teams) + len(refused) == 3


@needs_samples
def test_sample_ork_boy_and_boss_nob_by_hand() -> None:
    """Checked by hand against Orks.cat: Ork Boy M 5", WS 3+, BS 5+, S 4, T 4, W 1, A 2,
    Ld 6, Sv 6+, Max -; its Specialism group offers Combat, Demolitions, Veteran and no
    Leader link. Boss Nob (Boyz): S 5, W 2, A 3, Ld 7, Max 1, a Leader link. The Slugga:
    12", Pistol 1, S 4, AP 0, D 1; the Power Klaw: Melee, S x2, AP -3, D D3."""
    (orks,) = import_bsdata18(SAMPLES, team="Orks").teams
    boy = orks.operative("Ork Boy")
    assert (boy.move, boy.wounds) == (5.0, 1)
    k = boy.kt18
    assert k is not None
    assert (k.ws, k.bs, k.strength, k.toughness, k.attacks, k.leadership, k.save, k.maximum) == (
        3, 5, 4, 4, "2", 6, 6, 0,
    )  # fmt: skip
    assert (k.specialists, k.leader) == (("Combat", "Demolitions", "Veteran"), False)
    nob = orks.operative("Boss Nob (Boyz)")
    n = nob.kt18
    assert n is not None and (n.strength, nob.wounds, n.attacks, n.leadership, n.maximum) == (
        5, 2, "3", 7, 1,
    )  # fmt: skip
    assert n.leader and n.specialists[0] == "Leader"
    slugga = boy.weapon("Slugga").profiles[0].kt18
    assert slugga is not None
    assert (slugga.range, slugga.type, slugga.shots, slugga.strength, slugga.ap, slugga.damage) == (
        12.0, "Pistol", "1", "4", 0, "1",
    )  # fmt: skip
    klaw = nob.weapon("Power Klaw").profiles[0].kt18
    assert klaw is not None and (klaw.type, klaw.strength, klaw.ap, klaw.damage) == (
        "Melee", "x2", -3, "D3",
    )  # fmt: skip


@needs_samples
def test_sample_guard_sergeant_by_hand() -> None:
    """Checked by hand against Astra Militarum.cat: the Sergeant is M 6", WS 4+, BS 4+, S 3,
    T 3, W 1, A 2, Ld 7, Sv 5+, Max 1, may lead; the Lasgun is 24" Rapid Fire 1, S 3, AP 0."""
    (guard,) = import_bsdata18(SAMPLES, team="kt18_astra_militarum").teams
    sgt = guard.operative("Sergeant")
    k = sgt.kt18
    assert k is not None
    assert (sgt.move, k.ws, k.bs, k.strength, k.toughness, sgt.wounds, k.attacks) == (
        6.0, 4, 4, 3, 3, 1, "2",
    )  # fmt: skip
    assert (k.leadership, k.save, k.maximum, k.leader) == (7, 5, 1, True)
    lasgun = guard.operative("Guardsman").weapon("Lasgun").profiles[0].kt18
    assert lasgun is not None and (lasgun.range, lasgun.type, lasgun.shots, lasgun.strength) == (
        24.0, "Rapid Fire", "1", "3",
    )  # fmt: skip
