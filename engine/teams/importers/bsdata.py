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

This module reads operatives, weapons, abilities, ploys and equipment and runs the import;
:mod:`~engine.teams.importers.bsdata_xml` reads the files safely and follows entries and
links, :mod:`~engine.teams.importers.bsdata_selection` reads wargear options and selection
limits, :mod:`~engine.teams.importers.weapon_rule_text` is the tolerant weapon-rule parser.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

import attrs

from engine.dice import rules as _rules
from engine.dice.rules import (
    WeaponRules,
)
from engine.teams.importers import ImportIssue, ImportResult
from engine.teams.importers.bsdata_selection import (
    _read_loadouts,
    _read_selection,
)
from engine.teams.importers.bsdata_xml import (
    _MAX_RULES_CHARS,
    _STRUCTURAL_CATEGORIES,
    DEFAULT_BASE_MM,
    DEFAULT_DATASLATE,
    MELEE_MARK,
    RANGED_MARK,
    BsDataError,
    _apply_modifiers,
    _characteristics,
    _children,
    _Context,
    _cut,
    _damage,
    _inches,
    _index,
    _int,
    _local,
    _own_profiles,
    _parse_xml,
    _RawOperative,
    _read_profile_types,
    _split_weapon_name,
    _threshold,
    _walk_profiles,
)
from engine.teams.importers.weapon_rule_text import (
    _tolerant,
    edit_distance,
    parse_weapon_rules_tolerant,
)
from engine.teams.model import (
    Ability,
    Equipment,
    Operative,
    Ploy,
    Provenance,
    Team,
    Weapon,
    WeaponProfile,
    name_problem,
    operative_problem,
    profile_problem,
    safe_team_id,
    team_problem,
)

__all__ = ["BsDataError", "edit_distance", "import_bsdata", "parse_weapon_rules_tolerant"]


def _add_weapon(
    ctx: _Context, op: _RawOperative, profile: ET.Element, anc: tuple[str, ...]
) -> None:
    raw_name = profile.get("name", "")
    where = f"operative {op.name!r}: weapon profile {raw_name!r}"
    values = _characteristics(profile, ctx.weapons_type)
    _apply_modifiers(ctx, profile, values, anc)
    wname, pname, kind = _split_weapon_name(raw_name)
    try:
        attacks = _int(values.get("ATK", ""), "ATK")
        hit = _threshold(values.get("HIT", ""), "HIT")
        normal, crit = _damage(values.get("DMG", ""))
    except ValueError as exc:
        ctx.issue(where, f"profile skipped: {exc}", "skipped")
        return
    wr_text = values.get("WR", "")
    if len(wr_text) > _MAX_RULES_CHARS:
        ctx.issue(where, f"WR of {len(wr_text)} characters: rules dropped", "skipped")
        wr_text = ""
    found, messages, errors = _tolerant(wr_text)
    for msg in messages:
        ctx.issue(f"{where}: rules", msg, "recovered")
    for err in errors:
        ctx.issue(f"{where}: rules", f"rule {err.token!r} dropped: {err}", "skipped")
    wrules = WeaponRules(tuple(found))
    if kind is None:
        ranged = any(isinstance(r, _rules.Range | _rules.Blast | _rules.Torrent) for r in found)
        kind = "ranged" if ranged else "melee"
        ctx.issue(
            where,
            f"no {RANGED_MARK}/{MELEE_MARK} marker: kind inferred as {kind} from its rules",
            "recovered",
        )
    wprofile = WeaponProfile(pname, attacks, hit, normal, crit, wrules)
    problem = profile_problem(wprofile) or name_problem("name", wname)
    if problem is not None:
        ctx.issue(where, f"profile skipped: {problem}", "skipped")
        return
    have_kind, profiles = op.weapons.setdefault(wname, (kind, {}))
    if have_kind != kind:
        ctx.issue(where, f"profiles disagree on the kind ({have_kind} and {kind})", "recovered")
    if pname in profiles and profiles[pname] != wprofile:
        ctx.issue(where, "two different profiles with this name: the first is kept", "skipped")
        return
    profiles.setdefault(pname, wprofile)


_AddWeapon = Callable[[_Context, _RawOperative, ET.Element, tuple[str, ...]], None]


def _collect(
    ctx: _Context, op: _RawOperative, entry: ET.Element, add_weapon: _AddWeapon | None = None
) -> None:
    """Add one selection entry's keywords, abilities, actions and weapons to ``op``
    (``add_weapon`` reads a weapon profile: the KT24 one unless another edition's importer
    gives its own, :mod:`engine.teams.importers.bsdata21`)."""
    add = _add_weapon if add_weapon is None else add_weapon
    for link in _children(entry, "categoryLinks", "categoryLink"):
        if link.get("targetId", "") in ctx.hidden:
            continue
        name = ctx.categories.get(link.get("targetId", ""), link.get("name", ""))
        kw = " ".join(name.split()).upper()
        if kw in _STRUCTURAL_CATEGORIES:
            continue
        if kw and kw not in op.keywords:
            op.keywords.append(kw)
    for p in _own_profiles(ctx, entry):
        tname = p.get("typeName", "")
        pname = " ".join(p.get("name", "").split())
        if tname == "Abilities" and all(a.name != pname for a in op.abilities):
            op.abilities.append(Ability(pname, source_ref=p.get("id")))
        elif tname == "Unique Actions":
            m = re.fullmatch(r"(.+?)\s*\((\d+)\s*AP\)", pname)
            name, ap = (m.group(1), int(m.group(2))) if m else (pname, None)
            if ap is None:
                ctx.issue(f"operative {op.name!r}: action {pname!r}", "no AP cost in its name")
            if all(a.name != name for a in op.actions):
                op.actions.append(Ability(name, ap=ap, source_ref=p.get("id")))
    for p, anc in _walk_profiles(ctx, entry, set(), ()):
        if ctx.is_type(p, ctx.weapons_type):
            add(ctx, op, p, anc)


def _operative_profile(ctx: _Context, entry: ET.Element) -> ET.Element | None:
    for p in _own_profiles(ctx, entry):
        if ctx.is_type(p, ctx.operative_type):
            return p
    return None


def _finish_operative(ctx: _Context, op: _RawOperative) -> Operative | None:
    where = f"operative {op.name!r}"
    values = _characteristics(op.profile, ctx.operative_type)
    try:
        apl = _int(values.get("APL", ""), "APL")
        move = _inches(values.get("Move", ""), "Move")
        save = _threshold(values.get("Save", ""), "Save")
        wounds = _int(values.get("Wounds", ""), "Wounds")
    except ValueError as exc:
        ctx.issue(where, f"operative skipped: {exc}", "skipped")
        return None
    weapons = tuple(
        Weapon(name, kind, tuple(profiles.values()))
        for name, (kind, profiles) in op.weapons.items()
        if profiles
    )
    if not weapons:
        ctx.issue(where, "no weapon profiles found", "recovered")
    card = Operative(
        op.name,
        tuple(op.keywords),
        apl,
        move,
        save,
        wounds,
        DEFAULT_BASE_MM,
        weapons,
        tuple(op.abilities),
        tuple(op.actions),
    )
    problem = operative_problem(card)
    if problem is not None:
        ctx.issue(where, f"operative skipped: {problem}", "skipped")
        return None
    return card


_N = TypeVar("_N", Ability, Equipment, Ploy)


def _named(items: Iterable[_N], ctx: _Context, what: str) -> tuple[_N, ...]:
    """``items`` whose names are legal names; the others reported and dropped."""
    out = []
    for item in items:
        problem = name_problem("name", item.name)
        if problem is None:
            out.append(item)
        else:
            ctx.issue(what, f"{problem}: dropped", "skipped")
    return tuple(out)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _team_name(cat: ET.Element, path: Path) -> str:
    name = cat.get("name") or path.stem
    return re.sub(r"^2024\s*-\s*", "", name).strip()


def _read_catalogue(
    path: Path, cat: ET.Element, gst: ET.Element | None, issues: list[ImportIssue]
) -> Team | None:
    """Build one team from a parsed catalogue; issues are appended to ``issues``."""
    name = _team_name(cat, path)
    op_type, wp_type = _read_profile_types(gst)
    roots = [r for r in (gst, cat) if r is not None]
    index = _index(*roots)
    categories = {
        cid: elem.get("name", "")
        for cid, elem in index.items()
        if _local(elem.tag) == "categoryEntry"
    }
    hidden = frozenset(
        cid
        for cid, elem in index.items()
        if _local(elem.tag) == "categoryEntry" and elem.get("hidden") == "true"
    )
    ctx = _Context(name, op_type, wp_type, index, categories, hidden=hidden)
    raw: dict[str, _RawOperative] = {}
    for container in ("selectionEntries", "sharedSelectionEntries"):
        for entry in _children(cat, container, "selectionEntry"):
            profile = _operative_profile(ctx, entry)
            if profile is None:
                continue
            op_name = " ".join(profile.get("name", "").split())
            op = raw.get(op_name)
            if op is None:
                op = raw[op_name] = _RawOperative(op_name, profile, [], [], {}, [], [])
            op.entry_ids.append(entry.get("id", ""))
            _collect(ctx, op, entry)
    operatives = [o for o in (_finish_operative(ctx, r) for r in raw.values()) if o is not None]
    if not operatives:
        ctx.issue("catalogue", "no operatives found: team not loaded", "skipped")
        issues.extend(ctx.issues)
        return None
    selectors: dict[str, dict[str, str | None]] = {}
    with_options = []
    for o in operatives:
        slots, selectors[o.name] = _read_loadouts(
            ctx, o, [ctx.index[eid] for eid in raw[o.name].entry_ids]
        )
        with_options.append(attrs.evolve(o, loadouts=slots))
    operatives = with_options
    selection = _read_selection(ctx, cat, gst, operatives, raw, selectors)
    ctx.issue(
        "base sizes",
        f"BattleScribe has no base sizes: every operative uses {DEFAULT_BASE_MM:g} mm",
        "unsupported",
    )
    faction = _faction(name, operatives)
    operatives = [
        attrs.evolve(o, keywords=(faction, *(k for k in o.keywords if k != faction)))
        if faction in o.keywords
        else o
        for o in operatives
    ]
    abilities = _named(
        (
            Ability(" ".join(r.get("name", "").split()), source_ref=r.get("id"))
            for r in _children(cat, "rules", "rule")
        ),
        ctx,
        "team ability",
    )
    equipment = _named(_equipment(cat), ctx, "equipment")
    ploys = _named(_ploys(cat), ctx, "ploy")
    if ploys:
        ctx.issue("ploys", "ploys kept by name only (no costs, no text)", "unsupported")
    revision = cat.get("revision")
    dataslate = f"catalogue revision {revision}" if revision else DEFAULT_DATASLATE
    issues.extend(ctx.issues)
    built = Team(
        id=safe_team_id(name),
        name=name,
        faction=faction,
        archetypes=(),
        operatives=tuple(operatives),
        selection=selection,
        default_roster=(),
        provenance=Provenance("bsdata", dataslate, None),
        ploys=ploys,
        equipment=equipment,
        abilities=abilities,
    )
    problem = team_problem(built)
    if problem is not None:
        raise BsDataError(f"{path}: team {_cut(built.id)}: {problem}")
    return built


def _faction(name: str, operatives: list[Operative]) -> str:
    """The faction keyword: of the keywords every operative has, the one closest to the
    team's name (``KOMMANDO`` for Kommandos); the team name in upper case if none."""
    common = set(operatives[0].keywords)
    for o in operatives[1:]:
        common &= set(o.keywords)
    common -= {"LEADER"}
    if not common:
        return name.upper()
    return min(sorted(common), key=lambda k: edit_distance(k, name.upper()))


def _groups_named(cat: ET.Element, word: str) -> Iterator[ET.Element]:
    for elem in cat.iter():
        if _local(elem.tag) == "selectionEntryGroup" and word in elem.get("name", "").lower():
            yield elem


def _equipment(cat: ET.Element) -> tuple[Equipment, ...]:
    """The entries of the catalogue's equipment groups, by name and id only."""
    out: dict[str, Equipment] = {}
    for group in _groups_named(cat, "equipment"):
        for entry in _children(group, "selectionEntries", "selectionEntry"):
            name = " ".join(entry.get("name", "").split())
            out.setdefault(name, Equipment(name, source_ref=entry.get("id")))
    return tuple(out.values())


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


def _find_gst(folder: Path) -> Path | None:
    preferred = folder / "2024 - Kill Team.gst"
    if preferred.is_file():
        return preferred
    found = sorted(folder.glob("*.gst"))
    return found[0] if found else None


def _matches(name: str, wanted: str) -> bool:
    return wanted.lower() in name.lower() or _slug(wanted) == _slug(name)


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
        declaration, nesting or links too deep) or whose team is outside the limits of
        :mod:`engine.teams.model` is reported as ``skipped`` and the others still load.

    Raises:
        FileNotFoundError: if ``path`` does not exist or holds no ``.cat`` catalogue.
        BsDataError: when no team loads and a catalogue was skipped as above (the first
            such problem, naming the file).
    """
    root = Path(path)
    if root.is_file():
        cats = [root]
        folder = root.parent
    elif root.is_dir():
        cats = sorted(root.glob("2024 - *.cat")) or sorted(root.glob("*.cat"))
        folder = root
    else:
        raise FileNotFoundError(f"no BSData checkout or catalogue at {str(root)!r}")
    if not cats:
        raise FileNotFoundError(f"no '2024 - *.cat' catalogues in {str(root)!r}")
    issues: list[ImportIssue] = []
    gst_path = _find_gst(folder)
    gst: ET.Element | None = None
    if gst_path is None:
        issues.append(
            ImportIssue(
                "(dataset)",
                str(folder),
                "no .gst game system found: profile types matched by name",
                "recovered",
            )
        )
    else:
        try:
            gst = _parse_xml(gst_path)
        except BsDataError as exc:
            issues.append(ImportIssue("(dataset)", gst_path.name, str(exc), "recovered"))
    teams: list[Team] = []
    unreadable: list[str] = []
    for cat_path in cats:
        name = re.sub(r"^2024\s*-\s*", "", cat_path.stem)
        try:
            cat = _parse_xml(cat_path)
        except BsDataError as exc:
            if team is None or _matches(name, team):
                issues.append(ImportIssue(name, cat_path.name, str(exc), "skipped"))
                unreadable.append(str(exc))
            continue
        if team is not None and not (
            _matches(name, team) or _matches(_team_name(cat, cat_path), team)
        ):
            continue
        try:
            loaded = _read_catalogue(cat_path, cat, gst, issues)
        except BsDataError as exc:
            message = str(exc) if str(exc).startswith(str(cat_path)) else f"{cat_path}: {exc}"
            issues.append(ImportIssue(name, cat_path.name, message, "skipped"))
            unreadable.append(message)
            continue
        if loaded is not None:
            teams.append(loaded)
    if not teams and unreadable:
        raise BsDataError(unreadable[0])
    return ImportResult(tuple(teams), tuple(issues))
