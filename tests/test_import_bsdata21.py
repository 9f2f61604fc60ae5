"""The Kill Team 2021 BattleScribe importer (``rules/KT21.md`` 4.1, decision 8):
``2021 - *.cat`` catalogues with ``2021 - Kill Team.gst``.

The tests that always run use a small game system and catalogue written here in the
BattleScribe schema; the tests on the real catalogues read ``../shared/data_samples/bsdata21``
and are skipped when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cli import main
from engine.rules.registry import team_rules
from engine.teams.importers.bsdata21 import import_bsdata21, kt21_team_id
from engine.teams.importers.bsdata_xml import BsDataError
from engine.teams.io import load_builtin_team, load_team
from engine.teams.model import Team
from tests.samples_support import data_samples, needs

SAMPLES = data_samples("bsdata21")
needs_samples = needs(SAMPLES)

_GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="gs21" name="Kill Team (2021)" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <profileTypes>
    <profileType id="op" name="Operative"><characteristicTypes>
      <characteristicType id="m" name="M"/><characteristicType id="apl" name="APL"/>
      <characteristicType id="ga" name="GA"/><characteristicType id="df" name="DF"/>
      <characteristicType id="sv" name="SV"/><characteristicType id="w" name="W"/>
    </characteristicTypes></profileType>
    <profileType id="wp" name="Weapons"><characteristicTypes>
      <characteristicType id="a" name="A"/><characteristicType id="bs" name="WS/BS"/>
      <characteristicType id="d" name="D"/><characteristicType id="sr" name="SR"/>
      <characteristicType id="cr" name="!"/>
    </characteristicTypes></profileType>
  </profileTypes>
  <categoryEntries>
    <categoryEntry id="lead" name="Leader"/><categoryEntry id="oper" name="Operative"/>
  </categoryEntries>
</gameSystem>
"""

_WEAPON = """<profile id="{id}" name="{name}" typeId="wp" typeName="Weapons"><characteristics>
  <characteristic name="A" typeId="a">{a}</characteristic>
  <characteristic name="WS/BS" typeId="bs">{bs}</characteristic>
  <characteristic name="D" typeId="d">{d}</characteristic>
  <characteristic name="SR" typeId="sr">{sr}</characteristic>
  <characteristic name="!" typeId="cr">{crit}</characteristic>
</characteristics></profile>"""


def _weapon(pid: str, name: str, a: str, bs: str, d: str, sr: str, crit: str = "-") -> str:
    return _WEAPON.format(id=pid, name=name, a=a, bs=bs, d=d, sr=sr, crit=crit)


def _cat(game_system: str = "gs21") -> str:
    weapons = "".join(
        (
            _weapon("w0", "⌖ Zap gun", "-", "-", "-", "Pick a profile below"),
            _weapon("w1", "⌖ Zap gun - Low", "4", "3+", "3/4", "Rng ⬟, AP1"),
            _weapon("w2", "⌖ Zap gun - High", "4", "3+", "4/5", "Rng ⬟, AP2, Hot", "MW2"),
            _weapon("w3", "⚔ Odd blade", "3", "4+", "3/4", "Sparkly", "Rending"),
            _weapon("w4", "⚔ Trick knife", "3", "3+", "3/4", "Snare*", "-"),
        )
    )
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="c21" name="Testers" gameSystemId="{game_system}" revision="3" library="false"
  xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <categoryEntries><categoryEntry id="tk" name="TESTER"/></categoryEntries>
  <forceEntries><forceEntry id="f1" name="Tester Kill Team"><categoryLinks>
    <categoryLink id="l1" name="Leader" targetId="lead"><constraints>
      <constraint field="selections" scope="parent" value="1" id="c1" type="min"/>
      <constraint field="selections" scope="parent" value="1" id="c2" type="max"/>
    </constraints></categoryLink>
    <categoryLink id="l2" name="Operative" targetId="oper"><constraints>
      <constraint field="selections" scope="parent" value="4" id="c3" type="min"/>
      <constraint field="selections" scope="parent" value="4" id="c4" type="max"/>
    </constraints></categoryLink>
  </categoryLinks></forceEntry></forceEntries>
  <selectionEntries>
    <selectionEntry id="e1" name="Tester Boss" type="model">
      <profiles>
        <profile id="p1" name="Tester Boss" typeId="op" typeName="Operative"><characteristics>
          <characteristic name="M" typeId="m">3⬤</characteristic>
          <characteristic name="APL" typeId="apl">3</characteristic>
          <characteristic name="GA" typeId="ga">1</characteristic>
          <characteristic name="DF" typeId="df">3</characteristic>
          <characteristic name="SV" typeId="sv">3+</characteristic>
          <characteristic name="W" typeId="w">12</characteristic>
        </characteristics></profile>
        {weapons}
      </profiles>
      <infoLinks>
        <infoLink id="i1" name="Invulnerable Save 5+" targetId="r1" type="rule"/>
      </infoLinks>
      <categoryLinks>
        <categoryLink id="k1" name="Leader" targetId="lead" primary="true"/>
        <categoryLink id="k2" name="TESTER" targetId="tk"/>
      </categoryLinks>
    </selectionEntry>
    <selectionEntry id="e2" name="Tester Grunt" type="model">
      <profiles>
        <profile id="p2" name="Tester Grunt" typeId="op" typeName="Operative"><characteristics>
          <characteristic name="M" typeId="m">2⬤ ▲</characteristic>
          <characteristic name="APL" typeId="apl">2</characteristic>
          <characteristic name="GA" typeId="ga">2</characteristic>
          <characteristic name="DF" typeId="df">3</characteristic>
          <characteristic name="SV" typeId="sv">5+</characteristic>
          <characteristic name="W" typeId="w">7</characteristic>
        </characteristics></profile>
        {_weapon("w9", "⚔ Fists", "3", "4+", "2/3", "-")}
      </profiles>
      <categoryLinks>
        <categoryLink id="k3" name="Operative" targetId="oper" primary="true"/>
        <categoryLink id="k4" name="TESTER" targetId="tk"/>
      </categoryLinks>
    </selectionEntry>
  </selectionEntries>
  <sharedRules><rule id="r1" name="Invulnerable Save 5+"/></sharedRules>
</catalogue>
"""


def _dataset(tmp_path: Path, cat: str | None = None) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "2021 - Kill Team.gst").write_text(_GST, encoding="utf-8")
    (tmp_path / "2021 - Testers.cat").write_text(cat or _cat(), encoding="utf-8")
    return tmp_path


def test_kt21_operative_profile_is_read_with_shapes_ga_df_and_invulnerable(
    tmp_path: Path,
) -> None:
    """M ``3⬤`` is 6" and ``2⬤ ▲`` 5" (4.1, 7.1: ● 2", ▲ 1"); GA and DF go to the datacard;
    the linked ``Invulnerable Save 5+`` rule is its invulnerable save (10.3); the team is a
    KT21 team whose id is ``kt21_`` and its name."""
    result = import_bsdata21(_dataset(tmp_path))
    (team,) = result.teams
    assert team.id == "kt21_testers" and team.edition == "kt21"
    boss = team.operative("Tester Boss")
    assert (boss.move, boss.apl, boss.group_activation, boss.defence, boss.save) == (
        6.0,
        3,
        1,
        3,
        3,
    )
    assert boss.invulnerable == 5 and boss.wounds == 12
    grunt = team.operative("Tester Grunt")
    assert (grunt.move, grunt.group_activation, grunt.invulnerable) == (5.0, 2, 0)


def test_kt21_weapon_profiles_join_sr_and_crit_columns(tmp_path: Path) -> None:
    """A weapon printed as a header and ``Name - Mode`` profiles is one weapon with a profile
    per mode; its SR and ! columns make one KT21 rule string (12: ``Rng ⬟`` is 6", MW2 a
    critical hit rule); the header is reported, not read as a profile."""
    result = import_bsdata21(_dataset(tmp_path))
    boss = result.teams[0].operative("Tester Boss")
    zap = boss.weapon("Zap gun")
    assert zap.kind == "ranged"
    assert [p.name for p in zap.profiles] == ["Low", "High"]
    assert zap.profile("High").kt21_rules.format() == 'Rng 6", AP2, Hot, MW2'
    assert zap.profile("Low").attacks == 4 and zap.profile("Low").critical_damage == 4
    assert any("header of a weapon" in str(i) for i in result.issues)


def test_kt21_unknown_rule_is_kept_as_a_team_rule_and_reported(tmp_path: Path) -> None:
    """A token naming no common KT21 rule of rules/KT21.md 12 (``Sparkly``) is a rule of the
    team's own: it is kept on the weapon as the team rule ``Sparkly*`` (reported at import,
    and the registry reports it as not implemented when played), never silently dropped; the
    rest of the profile (Rending) is kept; a ``*`` team rule is declared the same way."""
    result = import_bsdata21(_dataset(tmp_path))
    team = result.teams[0]
    blade = team.operative("Tester Boss").weapon("Odd blade").profiles[0]
    assert blade.kt21_rules.format() == "Sparkly*, Rending"
    assert any("Sparkly" in str(i) and "team rule" in str(i) for i in result.issues)
    decls = {d.id: d for d in team_rules(team)}
    assert not decls["kt21_testers/weapon_rule/snare"].implemented
    assert not decls["kt21_testers/weapon_rule/sparkly"].implemented


def test_kt21_selection_reads_the_force_counts(tmp_path: Path) -> None:
    """The force entry's Leader 1 and Operative 4 counts (written "in the parent", the force)
    make a roster of five, led by the LEADER type."""
    team = import_bsdata21(_dataset(tmp_path)).teams[0]
    assert team.selection.size == (5, 5)
    assert team.selection.leader == ("Tester Boss",)


def test_a_catalogue_of_another_game_system_is_refused_in_one_line(tmp_path: Path) -> None:
    """A catalogue written for another game system is refused with a one-line reason naming
    the file, and no team is made from it."""
    result = import_bsdata21(_dataset(tmp_path, _cat(game_system="someone-else")))
    assert result.teams == ()
    (issue,) = [i for i in result.issues if i.kind == "skipped"]
    assert "2021 - Testers.cat" in str(issue) and "game system" in str(issue)
    assert "\n" not in str(issue)


def test_no_kt21_catalogue_is_an_error(tmp_path: Path) -> None:
    """A folder without ``2021 - *.cat`` is no KT21 dataset."""
    with pytest.raises(FileNotFoundError, match="2021 - "):
        import_bsdata21(tmp_path)


def test_teams_import_bsdata21_writes_loadable_kt21_files(tmp_path: Path) -> None:
    """``killteam teams import --format bsdata21`` writes team files that load back as KT21
    teams with the same datacards."""
    data = _dataset(tmp_path / "ds")
    out = tmp_path / "out"
    assert main(["teams", "import", str(data), "--format", "bsdata21", "-o", str(out)]) == 0
    team = load_team(out / "kt21_testers.json")
    assert team.edition == "kt21"
    assert team == import_bsdata21(data).teams[0]


def test_teams_import_bsdata21_counts_imported_and_refused_catalogues(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The import command ends with the counts: one catalogue imported, two refused, each
    refusal one line naming its file and reason (a catalogue of another game system; a
    library-like catalogue without any operative datacard)."""
    data = _dataset(tmp_path / "ds")
    (data / "2021 - Strangers.cat").write_text(_cat(game_system="other"), encoding="utf-8")
    empty = _mini_cat("").replace(_OPERATIVE.format(id="mp", name="Mini Boss", m="3⬤"), "")
    (data / "2021 - Library.cat").write_text(empty, encoding="utf-8")
    assert main(["teams", "import", str(data), "--format", "bsdata21", "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "catalogues: 1 imported, 2 refused" in out
    refused = [line for line in out.splitlines() if line.startswith("refused ")]
    assert len(refused) == 2
    assert any("2021 - Strangers.cat" in r and "game system" in r for r in refused)
    assert any("2021 - Library.cat" in r and "no operative" in r for r in refused)


def test_kt21_team_ids() -> None:
    """Imported KT21 teams get ``kt21_`` ids (never a KT24 team's id, whose rules differ); the
    catalogue ``Legionary`` is the built-in ``kt21_legionaries``."""
    assert kt21_team_id("Kasrkin") == "kt21_kasrkin"
    assert kt21_team_id("Legionary") == "kt21_legionaries"


# -------------------------------------------------------------------------------------------
# Forms met in the published 2021 catalogues (each reproduced by a small catalogue here)
# -------------------------------------------------------------------------------------------

_OPERATIVE = """<profile id="{id}" name="{name}" typeId="op" typeName="Operative"><characteristics>
  <characteristic name="M" typeId="m">{m}</characteristic>
  <characteristic name="APL" typeId="apl">2</characteristic>
  <characteristic name="GA" typeId="ga">1</characteristic>
  <characteristic name="DF" typeId="df">3</characteristic>
  <characteristic name="SV" typeId="sv">4+</characteristic>
  <characteristic name="W" typeId="w">8</characteristic>
</characteristics></profile>"""


def _mini_cat(
    profiles: str,
    *,
    m: str = "3⬤",
    links: str = "",
    inside: str = "",
    forces: tuple[str, ...] = ("Kill Team",),
    shared: str = "",
    categories: str = "",
) -> str:
    """A catalogue of one LEADER operative ``Mini Boss`` whose entry holds ``profiles``
    (weapon or ability profiles), ``links`` (infoLinks) and ``inside`` (other children),
    with one force entry per name of ``forces``, ``shared`` at the catalogue's end and
    ``categories`` (categoryLinks) besides its Leader category."""
    force_xml = "".join(
        f'<forceEntry id="f{i}" name="{n}"><categoryLinks>'
        f'<categoryLink id="fl{i}" name="Leader" targetId="lead"/></categoryLinks></forceEntry>'
        for i, n in enumerate(forces)
    )
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cm" name="Minis" gameSystemId="gs21" revision="1" library="false"
  xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <forceEntries>{force_xml}</forceEntries>
  <selectionEntries>
    <selectionEntry id="me" name="Mini Boss" type="model">
      <profiles>{_OPERATIVE.format(id="mp", name="Mini Boss", m=m)}{profiles}</profiles>
      <infoLinks>{links}</infoLinks>
      {inside}
      <categoryLinks><categoryLink id="mk" name="Leader" targetId="lead" primary="true"/>
      {categories}</categoryLinks>
    </selectionEntry>
  </selectionEntries>
  {shared}
</catalogue>
"""


def _mini(tmp_path: Path, cat: str) -> tuple[Team, list[str]]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "2021 - Kill Team.gst").write_text(_GST, encoding="utf-8")
    (tmp_path / "2021 - Minis.cat").write_text(cat, encoding="utf-8")
    result = import_bsdata21(tmp_path)
    (team,) = result.teams
    return team, [str(i) for i in result.issues]


def test_kt21_square_printed_as_a_black_square_is_the_square_shape(tmp_path: Path) -> None:
    """The catalogues print the square as ``⬛`` (``Rng ⬛``); it is the square shape of
    rules/KT21.md 4.1, 3": ``Rng ⬛`` is ``Rng 3"`` and ``Blast ⬛`` is ``Blast 3"`` (never a
    dropped rule), and an M of ``2⬛`` is 6"."""
    gun = _weapon("wq", "⌖ Square gun", "4", "3+", "3/4", "Rng ⬛, Blast ⬛", "-")
    team, issues = _mini(tmp_path, _mini_cat(gun, m="2⬛"))
    boss = team.operative("Mini Boss")
    assert boss.weapon("Square gun").profiles[0].kt21_rules.format() == 'Rng 3", Blast 3"'
    assert boss.move == 6.0
    assert not [i for i in issues if "Square gun" in i]


def test_kt21_malformed_common_rule_is_reported_and_dropped(tmp_path: Path) -> None:
    """``Lethal 7+`` names a common rule (rules/KT21.md 12) with a value no D6 can roll: it
    is no team rule; it is reported as skipped and dropped, the rest of the profile (AP1)
    kept."""
    gun = _weapon("wl", "⌖ Odd gun", "4", "3+", "3/4", "Lethal 7+, AP1", "-")
    team, issues = _mini(tmp_path, _mini_cat(gun))
    assert team.operative("Mini Boss").weapon("Odd gun").profiles[0].kt21_rules.format() == "AP1"
    assert any("Lethal 7+" in i and "skipped" in i for i in issues)


def test_kt21_ranged_and_melee_weapons_of_one_name_are_two_weapons(tmp_path: Path) -> None:
    """A datacard may print a ⌖ and a ⚔ weapon of one name (a guardian spear shoots and
    fights): they are two weapons of their own kinds (a shooting attack picks a ranged weapon,
    a fight a melee one, rules/KT21.md 10.1 and 11), neither profile dropped."""
    spears = _weapon("ws1", "⌖ Spear", "4", "2+", "3/5", "-", "P1") + _weapon(
        "ws2", "⚔ Spear", "5", "2+", "5/7", "Lethal 5+"
    )
    team, issues = _mini(tmp_path, _mini_cat(spears))
    kinds = {(w.name, w.kind): w for w in team.operative("Mini Boss").weapons}
    assert set(kinds) == {("Spear", "ranged"), ("Spear", "melee")}
    assert kinds["Spear", "ranged"].profiles[0].attacks == 4
    assert kinds["Spear", "melee"].profiles[0].kt21_rules.format() == "Lethal 5+"
    assert not [i for i in issues if "Spear" in i]


_ABILITY = """<profile id="{id}" name="{name}" typeId="ab" typeName="Abilities">
  <characteristics><characteristic name="Ability">{name} text</characteristic></characteristics>
</profile>"""


def test_kt21_info_group_abilities_are_the_operatives(tmp_path: Path) -> None:
    """An ability printed in an info group (linked from the datacard, or held by it, groups
    nested) is on the datacard like its own abilities (rules/KT21.md 4.1): never silently
    lost."""
    shared = f"""<sharedInfoGroups><infoGroup id="g1" name="Tome">
      <profiles>{_ABILITY.format(id="a1", name="Tome Lore")}</profiles>
      <infoGroups><infoGroup id="g2" name="Inner">
        <profiles>{_ABILITY.format(id="a2", name="Inner Lore")}</profiles>
      </infoGroup></infoGroups>
    </infoGroup></sharedInfoGroups>"""
    inside = f"""<infoGroups><infoGroup id="g3" name="Own">
      <profiles>{_ABILITY.format(id="a3", name="Own Lore")}</profiles></infoGroup></infoGroups>"""
    link = '<infoLink id="il" name="Tome" targetId="g1" type="infoGroup"/>'
    fists = _weapon("wf", "⚔ Fists", "3", "4+", "2/3", "-")
    team, _ = _mini(tmp_path, _mini_cat(fists, links=link, inside=inside, shared=shared))
    names = {a.name for a in team.operative("Mini Boss").abilities}
    assert {"Tome Lore", "Inner Lore", "Own Lore"} <= names


def test_kt21_info_groups_linked_past_the_bounds_are_refused_naming_file_and_group(
    tmp_path: Path,
) -> None:
    """Info groups are followed within the bounds of following entries (100 deep, 500,000
    visits per catalogue): 40 groups each linking twice to the next would be 2^40 visits,
    so the catalogue is refused, promptly, with an error naming its file and the group it
    stopped at, never a hang (hostile input)."""
    chain = "".join(
        f'<infoGroup id="c{i}" name="Link {i}"><infoLinks>'
        f'<infoLink id="c{i}a" name="n" targetId="c{i + 1}" type="infoGroup"/>'
        f'<infoLink id="c{i}b" name="n" targetId="c{i + 1}" type="infoGroup"/>'
        "</infoLinks></infoGroup>"
        for i in range(40)
    )
    shared = f"<sharedInfoGroups>{chain}<infoGroup id='c40' name='End'/></sharedInfoGroups>"
    link = '<infoLink id="il" name="Chain" targetId="c0" type="infoGroup"/>'
    fists = _weapon("wf", "⚔ Fists", "3", "4+", "2/3", "-")
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "2021 - Kill Team.gst").write_text(_GST, encoding="utf-8")
    (tmp_path / "2021 - Minis.cat").write_text(
        _mini_cat(fists, links=link, shared=shared), encoding="utf-8"
    )
    with pytest.raises(BsDataError, match=r"2021 - Minis\.cat.*info groups.*'Link \d+'"):
        import_bsdata21(tmp_path)


def test_kt21_several_fire_teams_are_one_team_and_reported(tmp_path: Path) -> None:
    """A Compendium catalogue gives each fire team as a force entry: the catalogue still
    imports (its operatives are one team) and the fire teams are reported in one line, since
    choosing a kill team's fire teams is not modelled (rules/KT21.md 4.1)."""
    fists = _weapon("wf", "⚔ Fists", "3", "4+", "2/3", "-")
    team, issues = _mini(tmp_path, _mini_cat(fists, forces=("Alpha Fire Team", "Beta Fire Team")))
    assert team.operative("Mini Boss").name == "Mini Boss"
    (line,) = [i for i in issues if "fire teams" in i]
    assert "Alpha Fire Team, Beta Fire Team" in line and "\n" not in line


def test_kt21_grouped_modifier_sets_the_limit(tmp_path: Path) -> None:
    """A limit set by a modifier inside a ``modifierGroup`` (at most one of this operative
    when the roster is this kill team: the catalogue's "-1", no limit, set to 1 in its own
    force) is read as that limit, never silently left unlimited."""
    inside = """<constraints>
      <constraint field="selections" scope="force" value="-1" id="cx" type="max"/>
    </constraints>
    <modifierGroups><modifierGroup><modifiers>
      <modifier type="set" field="cx" value="1"><conditions>
        <condition field="selections" scope="force" value="0" childId="f0" type="instanceOf"/>
      </conditions></modifier>
    </modifiers></modifierGroup></modifierGroups>"""
    fists = _weapon("wf", "⚔ Fists", "3", "4+", "2/3", "-")
    team, _ = _mini(tmp_path, _mini_cat(fists, inside=inside))
    assert dict(team.selection.limits)["Mini Boss"] == 1


def test_kt21_modifier_on_the_category_of_the_datacard_applies(tmp_path: Path) -> None:
    """A weapon profile shared by several datacards may set a better WS/BS (or A) "if an
    instance of" a category: it holds on a datacard of that category only. The Sergeant's
    gun hits on 2+ and its fists get 4 attacks (a grouped modifier carrying the condition),
    a Trooper's same gun and fists keep the printed 3+ and 3."""
    cond = '<condition type="instanceOf" field="selections" scope="ancestor" childId="sgt"/>'
    shared = f"""<sharedSelectionEntries>
      <selectionEntry id="gun" name="Gun" type="upgrade"><profiles>
        <profile id="gp" name="⌖ Gun" typeId="wp" typeName="Weapons"><characteristics>
          <characteristic name="A" typeId="a">4</characteristic>
          <characteristic name="WS/BS" typeId="bs">3+</characteristic>
          <characteristic name="D" typeId="d">3/4</characteristic>
          <characteristic name="SR" typeId="sr">-</characteristic>
          <characteristic name="!" typeId="cr">-</characteristic>
        </characteristics>
        <modifiers><modifier type="set" field="bs" value="2+"><conditions>{cond}</conditions>
        </modifier></modifiers></profile>
        <profile id="fp" name="⚔ Fists" typeId="wp" typeName="Weapons"><characteristics>
          <characteristic name="A" typeId="a">3</characteristic>
          <characteristic name="WS/BS" typeId="bs">3+</characteristic>
          <characteristic name="D" typeId="d">3/4</characteristic>
          <characteristic name="SR" typeId="sr">-</characteristic>
          <characteristic name="!" typeId="cr">-</characteristic>
        </characteristics>
        <modifierGroups><modifierGroup type="and">
          <modifiers><modifier type="set" field="a" value="4"/></modifiers>
          <conditions>{cond}</conditions>
        </modifierGroup></modifierGroups></profile>
      </profiles></selectionEntry>
      <selectionEntry id="te" name="Trooper" type="model">
        <profiles>{_OPERATIVE.format(id="tp", name="Trooper", m="3⬤")}</profiles>
        <entryLinks><entryLink id="tl" name="Gun" targetId="gun" type="selectionEntry"/>
        </entryLinks>
        <categoryLinks><categoryLink id="tk" name="Operative" targetId="oper" primary="true"/>
        </categoryLinks>
      </selectionEntry>
    </sharedSelectionEntries>"""
    inside = """<entryLinks><entryLink id="bl" name="Gun" targetId="gun" type="selectionEntry"/>
      </entryLinks>"""
    sergeant = '<categoryLink id="bk" name="Sergeant" targetId="sgt"/>'
    cat = _mini_cat("", inside=inside, shared=shared, categories=sergeant).replace(
        "<forceEntries>",
        '<categoryEntries><categoryEntry id="sgt" name="Sergeant"/>'
        "</categoryEntries><forceEntries>",
    )
    team, _ = _mini(tmp_path, cat)
    boss, trooper = team.operative("Mini Boss"), team.operative("Trooper")
    assert boss.weapon("Gun").profiles[0].hit == 2
    assert boss.weapon("Fists").profiles[0].attacks == 4
    assert trooper.weapon("Gun").profiles[0].hit == 3
    assert trooper.weapon("Fists").profiles[0].attacks == 3


def test_kt21_leader_taken_as_an_upgrade_is_no_extra_operative(tmp_path: Path) -> None:
    """When the leader is an upgrade one of the operatives takes (no datacard is a LEADER;
    the force counts 1 Leader and 6 Operatives), the kill team is six operatives, not seven
    (rules/KT21.md 4.1: the leader is one of the team's operatives); this is reported."""
    cat = _mini_cat(_weapon("wf", "⚔ Fists", "3", "4+", "2/3", "-"))
    cat = cat.replace(
        'name="Leader" targetId="lead" primary="true"', 'name="Op" targetId="oper" primary="true"'
    )
    cat = cat.replace(
        '<categoryLink id="fl0" name="Leader" targetId="lead"/>',
        '<categoryLink id="fl0" name="Leader" targetId="lead"><constraints>'
        '<constraint field="selections" scope="parent" value="1" id="x1" type="min"/>'
        '<constraint field="selections" scope="parent" value="1" id="x2" type="max"/>'
        "</constraints></categoryLink>"
        '<categoryLink id="fo0" name="Operative" targetId="oper"><constraints>'
        '<constraint field="selections" scope="parent" value="6" id="x3" type="min"/>'
        '<constraint field="selections" scope="parent" value="6" id="x4" type="max"/>'
        "</constraints></categoryLink>",
    )
    team, issues = _mini(tmp_path, cat)
    assert team.selection.leader == ()
    assert team.selection.size == (6, 6)
    assert any("no datacard is a LEADER" in i for i in issues)


# -------------------------------------------------------------------------------------------
# The real catalogues (skipped without the data samples)
# -------------------------------------------------------------------------------------------


@needs_samples
def test_every_sample_catalogue_imports() -> None:
    """The three sample catalogues import as KT21 teams (no catalogue refused)."""
    result = import_bsdata21(SAMPLES)
    assert {t.id for t in result.teams} == {"kt21_kasrkin", "kt21_kommando", "kt21_legionaries"}
    assert all(t.edition == "kt21" for t in result.teams)
    assert not [i for i in result.issues if i.where.endswith(".cat")]


@needs_samples
def test_sample_kasrkin_matches_the_builtin_kt21_kasrkin() -> None:
    """The built-in KT21 Kasrkin's numbers are the catalogue's: each type's M, APL, GA, DF, SV
    and W, and its weapons' A, BS/WS, D and rules, are the imported ones."""
    imported = import_bsdata21(SAMPLES, team="kasrkin").teams[0]
    builtin = load_builtin_team("kt21_kasrkin")
    assert builtin.selection.size == imported.selection.size == (10, 10)
    for card in imported.operatives:
        mine = builtin.operative(f"Kasrkin {card.name}")
        stats = ("move", "apl", "group_activation", "defence", "save", "wounds")
        assert [getattr(mine, s) for s in stats] == [getattr(card, s) for s in stats]
        assert {w.name: w.profiles for w in mine.weapons} == {
            w.name: w.profiles for w in card.weapons
        }


@needs_samples
def test_sample_team_equipment_is_not_carried() -> None:
    """Team equipment (grenades, the combat knife) is listed by name, not carried by every
    operative: a Kasrkin Trooper carries its hot-shot lasgun and gun butt only."""
    team = import_bsdata21(SAMPLES, team="kasrkin").teams[0]
    assert {w.name for w in team.operative("Trooper").weapons} == {"Hot-shot lasgun", "Gun butt"}
    assert "Frag Grenade" in {e.name for e in team.equipment}
