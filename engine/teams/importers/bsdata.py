"""Importer for BSData/wh40k-killteam (BattleScribe XML catalogues, Kill Team 2024).

The dataset is read from a path the user gives: a checkout of the repository (a folder with
``2024 - *.cat`` catalogues and the ``2024 - Kill Team.gst`` game system) or one ``.cat``
file with its ``.gst`` beside it. Nothing from it is shipped with the project, and no rules
prose is kept: operatives, weapons, abilities and equipment keep their names, numbers and
source ids only.

How the catalogue is read:

- The game system's ``profileType`` elements give the ids of the ``Operative`` (APL, Move,
  Save, Wounds) and ``Weapons`` (ATK, HIT, DMG, WR) profile types and their characteristic
  type ids (profiles are also matched by ``typeName`` when the ``.gst`` is missing).
- An operative is a ``selectionEntry`` of the catalogue whose own profiles (or profiles
  reached through an ``infoLink``) include an Operative profile; entries sharing one
  Operative profile (Kasrkin's ``Gunner with flamer``, ``Gunner with meltagun``...) merge
  into one datacard named after the profile, with the union of their weapons.
- Weapons are the Weapons profiles found anywhere below the operative's entry, following
  child ``selectionEntries``/``selectionEntryGroups`` and ``entryLink``/``infoLink``
  references to catalogue-wide ``sharedSelectionEntries``, ``sharedSelectionEntryGroups``
  and ``sharedProfiles``. The profile name's marker gives the kind (``⌖`` ranged, ``⚔``
  melee); without a marker the kind is inferred from the rules (Range/Blast/Torrent mean
  ranged) and reported. ``Plasma gun (standard)`` becomes profile ``standard`` of weapon
  ``Plasma gun``. A profile ``modifier`` that sets a characteristic when the operative is an
  instance of a given entry (Kasrkin's Sergeant's gun butt) is applied; other
  characteristic modifiers are reported as unsupported.
- Keywords come from the entry's ``categoryLink`` names, upper case, in catalogue order.
- Wargear options (1.2, 2.2): a weapon group of exactly one selection (min 1, max 1) below
  an operative's entry is a loadout slot whose options are its members' weapons (a member
  may be a whole set, ``Bolt pistol; power weapon``); weapons outside such groups are always
  carried and folded into each option of the first slot; entries sharing one datacard are
  that datacard's options (one per entry). Options are named by their weapons
  (:mod:`engine.teams.importers.options`). Other weapon groups are reported.
- Selection (7): the force entry's ``Leader`` and ``Operative`` category counts give the
  roster size (a conditional increment widens it, reported); an entry's roster-wide maximum is
  a limit on its type, or on its option when entries share a datacard (a ``set`` modifier that
  applies in the team's own force is applied; others are reported); a category's maximum is a
  limit on its one type or a combined limit on its types. Hidden categories are roster
  bookkeeping, not keywords. No default roster is made: the player's or an automatic one.
- BattleScribe has no base sizes (32 mm is used and reported).

Reading is safe on hostile files: a file is read whole only up to 64 MiB and must be UTF-8;
document type declarations (and so entity definitions, the "billion laughs") are refused;
elements may nest at most 100 levels and entries link or nest at most 100 deep, with at most
500,000 steps of following them per catalogue; numbers are read from at most 9 digits. Every
profile and operative is checked against the limits of :mod:`engine.teams.model` (one outside
them is skipped and reported), and so is the whole team. A catalogue that cannot be read this
way is reported as ``skipped`` and the others still load; when no team at all loads, the first
such problem is raised as :class:`BsDataError`. The team id is
:func:`~engine.teams.model.safe_team_id` of the team's name.

This module is the KT24 reading (:class:`Kt24Catalogues`: the datacard's characteristics,
the WR column, ploys); the import itself is shared with the KT21 importer in
:mod:`~engine.teams.importers.bsdata_common`;
:mod:`~engine.teams.importers.bsdata_xml` reads the files safely and follows entries and
links, :mod:`~engine.teams.importers.bsdata_selection` reads wargear options and selection
limits, :mod:`~engine.teams.importers.weapon_rule_text` is the tolerant weapon-rule parser.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from engine.dice import rules as _rules
from engine.dice.rules import WeaponRules
from engine.teams.importers import ImportResult
from engine.teams.importers.bsdata_common import (
    Edition,
    Statline,
    WeaponRead,
    _groups_named,
    _named,
    import_catalogues,
)
from engine.teams.importers.bsdata_xml import (
    DEFAULT_DATASLATE,
    MELEE_MARK,
    RANGED_MARK,
    BsDataError,
    _children,
    _Context,
    _inches,
    _int,
    _local,
    _RawOperative,
    _threshold,
)
from engine.teams.importers.weapon_rule_text import (
    _tolerant,
    edit_distance,
    parse_weapon_rules_tolerant,
)
from engine.teams.model import Ploy, WeaponProfile

__all__ = [
    "KT24",
    "BsDataError",
    "Kt24Catalogues",
    "edit_distance",
    "import_bsdata",
    "parse_weapon_rules_tolerant",
]


class Kt24Catalogues(Edition):
    """The KT24 reading of the catalogues (module docstring): ``2024 - *.cat`` (any
    ``*.cat`` when there is none), APL, Move, Save and Wounds, ATK, HIT, DMG and WR."""

    year = "2024"
    edition = "kt24"
    any_catalogue = True
    any_game_system = True
    match_catalogue_name = True

    def dataslate(self, revision: str | None) -> str:
        """``catalogue revision N``; the default dataslate when there is no revision."""
        return f"catalogue revision {revision}" if revision else DEFAULT_DATASLATE

    def weapon_profile(
        self, ctx: _Context, op: _RawOperative, read: WeaponRead
    ) -> tuple[str, str, WeaponProfile]:
        """The profile with the WR text read tolerantly (recovered and dropped rules
        reported); without a marker the kind is ranged when a rule says so (Range, Blast,
        Torrent), else melee (reported)."""
        found, messages, errors = _tolerant(read.text)
        for msg in messages:
            ctx.issue(f"{read.where}: rules", msg, "recovered")
        for err in errors:
            ctx.issue(f"{read.where}: rules", f"rule {err.token!r} dropped: {err}", "skipped")
        kind = read.kind
        if kind is None:
            ranged = any(isinstance(r, _rules.Range | _rules.Blast | _rules.Torrent) for r in found)
            kind = "ranged" if ranged else "melee"
            ctx.issue(
                read.where,
                f"no {RANGED_MARK}/{MELEE_MARK} marker: kind inferred as {kind} from its rules",
                "recovered",
            )
        profile = WeaponProfile(read.profile, *read.numbers, WeaponRules(tuple(found)))
        return read.name, kind, profile

    def statline(self, values: dict[str, str], entries: list[ET.Element]) -> Statline:
        """APL, Move (inches), Save and Wounds (``rules/KT24.md`` datacards).

        Raises:
            ValueError: naming the characteristic that does not read.
        """
        return Statline(
            apl=_int(values.get("APL", ""), "APL"),
            move=_inches(values.get("Move", ""), "Move"),
            save=_threshold(values.get("Save", ""), "Save"),
            wounds=_int(values.get("Wounds", ""), "Wounds"),
        )

    def ploys(self, ctx: _Context, cat: ET.Element) -> tuple[Ploy, ...]:
        """Ploy names from groups or profiles named as ploys (KT24 BSData has none today);
        reported as kept by name only."""
        ploys = _named(_ploys(cat), ctx, "ploy")
        if ploys:
            ctx.issue("ploys", "ploys kept by name only (no costs, no text)", "unsupported")
        return ploys


KT24 = Kt24Catalogues()
"""The KT24 reading of BSData catalogues."""


def _ploys(cat: ET.Element) -> tuple[Ploy, ...]:
    """Ploy names from groups or profiles named as ploys (KT24 BSData has none today)."""
    out: dict[str, Ploy] = {}
    for group in _groups_named(cat, "ploy"):
        kind = "firefight" if "firefight" in group.get("name", "").lower() else "strategy"
        for entry in _children(group, "selectionEntries", "selectionEntry"):
            name = " ".join(entry.get("name", "").split())
            out.setdefault(name, Ploy(name, kind, source_ref=entry.get("id")))
    for elem in cat.iter():
        tname = elem.get("typeName", "").lower()
        if _local(elem.tag) == "profile" and "ploy" in tname:
            kind = "firefight" if "firefight" in tname else "strategy"
            name = " ".join(elem.get("name", "").split())
            out.setdefault(name, Ploy(name, kind, source_ref=elem.get("id")))
    return tuple(out.values())


def import_bsdata(path: str | Path, team: str | None = None) -> ImportResult:
    """Import Kill Team 2024 teams from BSData/wh40k-killteam.

    Args:
        path: a checkout of the repository (a folder holding ``2024 - *.cat`` catalogues and
            ``2024 - Kill Team.gst``) or one ``.cat`` file (its ``.gst`` is looked for
            beside it; without one, profiles are matched by type name and that is reported).
        team: keep only teams whose name contains this (case-insensitive) or whose slug id
            equals its slug; ``None`` imports every catalogue.

    Returns:
        The teams and every issue met (recovered malformations, skipped rules or profiles,
        unsupported features such as base sizes and composition rules). A catalogue that
        cannot be read safely (not well-formed UTF-8 XML, too large, a document type
        declaration, nesting or links too deep), that gives no operative, or whose team is
        outside the limits of :mod:`engine.teams.model` is reported as one ``skipped`` issue
        whose place is the file name, and the others still load.

    Raises:
        FileNotFoundError: if ``path`` does not exist or holds no ``.cat`` catalogue.
        BsDataError: when no team loads and a catalogue was skipped as above (the first
            such problem, naming the file).
    """
    return import_catalogues(KT24, path, team)
