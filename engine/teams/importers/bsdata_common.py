"""The BattleScribe importer core shared by the Kill Team editions (``rules/KT21.md`` 4.1,
decision 8; the KT24 datacard of ``rules/KT24.md``): one reading of a BSData checkout,
parameterised by an :class:`Edition`.

What every edition reads the same way is here: finding the catalogues and the game system,
choosing catalogues by ``--team``, building one team per catalogue (operatives found through
their operative profile and merged by its name, keywords from category links, abilities and
unique actions, the weapon profiles below each entry, wargear options and selection limits,
faction keyword, team abilities, equipment), the bounds on hostile files and the refusal
reporting. What an edition prints differently is an :class:`Edition` subclass in its own
module: its characteristic names, how its weapon names and rules read, its datacard fields
and what it reports besides (:mod:`engine.teams.importers.bsdata` for KT24,
:mod:`engine.teams.importers.bsdata21` for KT21, :mod:`engine.teams.importers.bsdata18` for
KT18, whose profile types, catalogue files, datasheet names, keywords, weapon values, base
sizes and selection are read through the hooks of :class:`Edition`).

Files are read safely by :mod:`~engine.teams.importers.bsdata_xml` (64 MiB, UTF-8, no
document type declarations, 100 levels of nesting, links followed at most 100 deep and
500,000 steps per catalogue); every refusal names the catalogue file (the ``where`` of its
``skipped`` issue, or the file path at the head of the :class:`BsDataError` message) and,
for a link or nesting too deep, the entry below which it was met.
"""

from __future__ import annotations

import abc
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Required, TypedDict, TypeVar

import attrs

from engine.teams.importers import ImportIssue, ImportResult
from engine.teams.importers.bsdata_selection import _read_loadouts, _read_selection
from engine.teams.importers.bsdata_xml import (
    _MAX_RULES_CHARS,
    _STRUCTURAL_CATEGORIES,
    DEFAULT_BASE_MM,
    BsDataError,
    _apply_modifiers,
    _characteristics,
    _children,
    _Context,
    _cut,
    _damage,
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
from engine.teams.importers.weapon_rule_text import edit_distance
from engine.teams.kt18_cards import Kt18Profile
from engine.teams.model import (
    Ability,
    Equipment,
    Operative,
    Ploy,
    Provenance,
    Selection,
    Team,
    Weapon,
    WeaponProfile,
    name_problem,
    operative_problem,
    profile_problem,
    safe_team_id,
    team_problem,
)

__all__ = ["Edition", "Statline", "WeaponRead", "import_catalogues", "refused_catalogues"]

KIND_SEP = "\x00"
"""Joins a weapon name and a kind in the key of a second weapon of one name (KT21: the
ranged and the melee ``Guardian spear`` of one datacard are two weapons); XML text cannot
hold it, so no weapon name does."""


class Statline(TypedDict, total=False):
    """The datacard numbers an edition reads from an operative profile (the fields of
    :class:`engine.teams.model.Operative` of the same names; Move in inches)."""

    apl: Required[int]
    move: Required[float]
    save: Required[int]
    wounds: Required[int]
    defence: int
    group_activation: int
    invulnerable: int
    kt18: Kt18Profile


@attrs.frozen
class WeaponRead:
    """A weapon profile as read before its rules: where to report it, the weapon's name,
    the profile's name (``""`` for a weapon of one profile), its kind (``"ranged"``,
    ``"melee"``, ``None`` when the name has no marker), its attacks, hit, normal and
    critical damage, its weapon-rule text and all its characteristics by name (after the
    modifiers that apply)."""

    where: str
    name: str
    profile: str
    kind: str | None
    numbers: tuple[int, int, int, int]
    text: str
    values: dict[str, str] = attrs.field(factory=dict)


class Edition(abc.ABC):
    """What one edition's catalogues read differently; the defaults are the common reading.

    A subclass sets the class attributes, implements :meth:`dataslate`,
    :meth:`weapon_profile` and :meth:`statline`, and overrides the other hooks it needs; the
    importer calls them in the order of :func:`import_catalogues`. Hooks that report append
    to ``ctx`` (:meth:`engine.teams.importers.bsdata_xml._Context.issue`).

    Attributes:
        year: the catalogue prefix (``"2024"``: ``2024 - Kasrkin.cat``); also stripped from
            catalogue and team names.
        edition: the ``Team.edition`` of the imported teams (``"kt24"``, ``"kt21"``).
        any_catalogue: a folder without ``<year> - *.cat`` is read through any ``*.cat``.
        any_game_system: without ``<year> - Kill Team.gst`` any ``*.gst`` of the folder is
            the game system.
        match_catalogue_name: ``--team`` also matches the name written inside a catalogue
            (so every catalogue is parsed); else only its file name.
        weapon_stats: the names of a weapon profile's attacks, hit and damage
            characteristics (``("ATK", "HIT", "DMG")``).
        rules_label: what the weapon-rule text is called in reports (``"WR"``).
    """

    year = ""
    edition = "kt24"
    any_catalogue = False
    any_game_system = False
    match_catalogue_name = False
    weapon_stats: tuple[str, str, str] = ("ATK", "HIT", "DMG")
    rules_label = "WR"
    profile_types: tuple[str, str] = ("Operative", "Weapons")
    ability_type = "Abilities"

    @property
    def catalogue_pattern(self) -> str:
        """The file names of the edition's catalogues in a folder (``2024 - *.cat``)."""
        return f"{self.year} - *.cat"

    def catalogues_in(self, folder: Path) -> list[Path]:
        """The edition's catalogues in ``folder``, sorted (:attr:`catalogue_pattern`; any
        ``*.cat`` when there is none and :attr:`any_catalogue`)."""
        cats = sorted(folder.glob(self.catalogue_pattern))
        if not cats and self.any_catalogue:
            cats = sorted(folder.glob("*.cat"))
        return cats

    @property
    def game_system(self) -> str:
        """The file name of the edition's game system (``2024 - Kill Team.gst``)."""
        return f"{self.year} - Kill Team.gst"

    def stripped(self, name: str) -> str:
        """``name`` without the ``<year> -`` prefix: ``'2024 - Kasrkin'`` -> ``'Kasrkin'``."""
        return re.sub(rf"^{self.year}\s*-\s*", "", name)

    def team_name(self, cat: ET.Element, path: Path) -> str:
        """The team's name: the catalogue's ``name`` (its file name when it has none),
        without the year prefix."""
        return self.stripped(cat.get("name") or path.stem).strip()

    def matches(self, name: str, wanted: str) -> bool:
        """Whether ``--team wanted`` chooses the team called ``name``: ``wanted`` is in the
        name (case-insensitive) or has the same slug."""
        return wanted.lower() in name.lower() or _slug(wanted) == _slug(name)

    def team_id(self, name: str) -> str:
        """The id of the team called ``name``."""
        return safe_team_id(name)

    @abc.abstractmethod
    def dataslate(self, revision: str | None) -> str:
        """The provenance's dataslate for a catalogue of this ``revision`` (``None``: none
        given)."""
        raise NotImplementedError

    def refusal(self, cat: ET.Element, gst: ET.Element | None) -> str | None:
        """Why a parsed catalogue is no team of this edition (a one-line ``skipped`` issue
        naming the file); ``None`` to read it."""
        return None

    def resolve_links(self, cat: ET.Element, path: Path) -> str | None:
        """Bring in what ``cat`` (read from ``path``) imports from other files (nothing by
        default); a one-line refusal when something it needs cannot be read.

        Raises:
            BsDataError: a linked file too deep or too large to read (naming it).
        """
        return None

    def prepare(self, cat: ET.Element, gst: ET.Element | None) -> None:
        """Rewrite the parsed catalogue in memory before it is indexed (nothing by
        default).

        Raises:
            BsDataError: a structure too deep or too large to read (naming the element).
        """
        return None

    def prepare_context(self, ctx: _Context, cat: ET.Element) -> None:
        """Rewrite or report on the indexed catalogue before operatives are read (nothing
        by default)."""
        return None

    def skips_entry(self, ctx: _Context, entry: ET.Element) -> bool:
        """Whether an entry with an operative profile is no operative (reported here)."""
        return False

    def operative_name(self, entry: ET.Element, profile: ET.Element) -> str:
        """The datacard name of an entry with the operative ``profile``: the profile's name
        (entries sharing it are one operative)."""
        return " ".join(profile.get("name", "").split())

    def keyword(self, category: str) -> str | None:
        """The datacard keyword a category link of an operative's entry names (upper case),
        or ``None`` for a category that organises rosters."""
        kw = " ".join(category.split()).upper()
        return kw if kw and kw not in _STRUCTURAL_CATEGORIES else None

    def weapon_numbers(self, values: dict[str, str]) -> tuple[int, int, int, int]:
        """Attacks, hit, normal and critical damage of a weapon profile's characteristics
        ``values`` (the :attr:`weapon_stats`).

        Raises:
            ValueError: naming the characteristic that does not read.
        """
        a, hit, normal, crit = _weapon_numbers(values, self.weapon_stats)
        return a, hit, normal, crit

    def modifier_ancestors(self, ctx: _Context, anc: tuple[str, ...]) -> tuple[str, ...]:
        """The ids a weapon profile's "instance of" modifier condition may name to hold:
        the ids of the entries above the profile."""
        return anc

    def split_weapon_name(self, raw: str) -> tuple[str, str, str | None]:
        """A weapon profile's name as ``(weapon, profile, kind or None)``."""
        return _split_weapon_name(raw)

    def is_header(
        self,
        ctx: _Context,
        op: _RawOperative,
        where: str,
        weapon: tuple[str, str | None],
        values: dict[str, str],
    ) -> bool:
        """Whether the profile (``weapon`` is its name and kind) only heads the profiles of
        a weapon and is not read (reported here)."""
        return False

    def rules_text(self, values: dict[str, str]) -> str:
        """The weapon-rule text of a profile's characteristics."""
        return values.get("WR", "")

    @abc.abstractmethod
    def weapon_profile(
        self, ctx: _Context, op: _RawOperative, read: WeaponRead
    ) -> tuple[str, str, WeaponProfile] | None:
        """The profile made of ``read``, as ``(key in op.weapons, kind, profile)``, or
        ``None`` for a profile that cannot be used; what is recovered or dropped is
        reported."""
        raise NotImplementedError

    @abc.abstractmethod
    def statline(self, values: dict[str, str], entries: list[ET.Element]) -> Statline:
        """The datacard numbers of an operative profile's characteristics ``values``
        (``entries``: the operative's selection entries).

        Raises:
            ValueError: naming the characteristic that does not read.
        """
        raise NotImplementedError

    def card_abilities(
        self, ctx: _Context, where: str, op: _RawOperative, entries: list[ET.Element]
    ) -> tuple[Ability, ...]:
        """The abilities on the datacard of ``op`` (all it collected by default)."""
        return tuple(op.abilities)

    def finish_operative(
        self, ctx: _Context, card: Operative, entries: list[ET.Element]
    ) -> Operative:
        """The datacard ``card`` read in common, completed from its ``entries`` (unchanged
        by default)."""
        return card

    def base_size_note(self) -> str:
        """What the import report says of base sizes (BattleScribe has none)."""
        return f"BattleScribe has no base sizes: every operative uses {DEFAULT_BASE_MM:g} mm"

    def read_selection(
        self,
        ctx: _Context,
        cat: ET.Element,
        gst: ET.Element | None,
        operatives: list[Operative],
        raw: dict[str, _RawOperative],
        selectors: dict[str, dict[str, str | None]],
    ) -> Selection:
        """The team's selection rules: the force entry's, category and entry constraints
        read in common, then :meth:`selection`."""
        return self.selection(ctx, cat, _read_selection(ctx, cat, gst, operatives, raw, selectors))

    def selection(self, ctx: _Context, cat: ET.Element, selection: Selection) -> Selection:
        """The team's selection from the one read in common (unchanged by default)."""
        return selection

    def report_catalogue(self, ctx: _Context, cat: ET.Element) -> None:
        """Report what the edition does not import from a catalogue (nothing by default)."""
        return None

    def team_rules(self, ctx: _Context, rules: list[Ability]) -> list[Ability]:
        """The team abilities among the catalogue's rules (all by default)."""
        return rules

    def ploys(self, ctx: _Context, cat: ET.Element) -> tuple[Ploy, ...]:
        """The team's ploys read from the catalogue (none by default)."""
        return ()


# ---------------------------------------------------------------------------- weapons


def _weapon_numbers(values: dict[str, str], names: tuple[str, str, str]) -> tuple[int, ...]:
    """Attacks, hit, normal and critical damage of a weapon profile whose characteristics
    are named ``names`` (attacks, hit, damage).

    Raises:
        ValueError: naming the characteristic that does not read.
    """
    attacks = _int(values.get(names[0], ""), names[0])
    hit = _threshold(values.get(names[1], ""), names[1])
    normal, crit = _damage(values.get(names[2], ""))
    return attacks, hit, normal, crit


def _add_weapon(
    edition: Edition, ctx: _Context, op: _RawOperative, profile: ET.Element, anc: tuple[str, ...]
) -> None:
    """Read one weapon profile (with the ids ``anc`` of the entries above it) into ``op``;
    a profile that does not read, or is outside the limits of :mod:`engine.teams.model`, is
    reported and skipped."""
    raw_name = profile.get("name", "")
    where = f"operative {op.name!r}: weapon profile {raw_name!r}"
    values = _characteristics(profile, ctx.weapons_type)
    _apply_modifiers(ctx, profile, values, edition.modifier_ancestors(ctx, anc))
    wname, pname, kind = edition.split_weapon_name(raw_name)
    if edition.is_header(ctx, op, where, (wname, kind), values):
        return
    try:
        a, hit, normal, crit = edition.weapon_numbers(values)
    except ValueError as exc:
        ctx.issue(where, f"profile skipped: {exc}", "skipped")
        return
    text = edition.rules_text(values)
    if len(text) > _MAX_RULES_CHARS:
        ctx.issue(
            where, f"{edition.rules_label} of {len(text)} characters: rules dropped", "skipped"
        )
        text = ""
    read = WeaponRead(where, wname, pname, kind, (a, hit, normal, crit), text, values)
    made = edition.weapon_profile(ctx, op, read)
    if made is None:
        return
    key, kind, wprofile = made
    problem = profile_problem(wprofile) or name_problem("name", wname)
    if problem is not None:
        ctx.issue(where, f"profile skipped: {problem}", "skipped")
        return
    have_kind, profiles = op.weapons.setdefault(key, (kind, {}))
    if have_kind != kind:
        ctx.issue(where, f"profiles disagree on the kind ({have_kind} and {kind})")
    if pname in profiles and profiles[pname] != wprofile:
        ctx.issue(where, "two different profiles with this name: the first is kept", "skipped")
        return
    profiles.setdefault(pname, wprofile)


# -------------------------------------------------------------------------- operatives


def _collect(edition: Edition, ctx: _Context, op: _RawOperative, entry: ET.Element) -> None:
    """Add one selection entry's keywords, abilities, actions and weapons to ``op``.

    Raises:
        BsDataError: entries nested or linked too deep or too many (naming the entry).
    """
    for link in _children(entry, "categoryLinks", "categoryLink"):
        if link.get("targetId", "") in ctx.hidden:
            continue
        name = ctx.categories.get(link.get("targetId", ""), link.get("name", ""))
        kw = edition.keyword(name)
        if kw and kw not in op.keywords:
            op.keywords.append(kw)
    for p in _own_profiles(ctx, entry):
        tname = p.get("typeName", "")
        pname = " ".join(p.get("name", "").split())
        if tname == ctx.ability_type and all(a.name != pname for a in op.abilities):
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
            _add_weapon(edition, ctx, op, p, anc)


def _raw_operatives(edition: Edition, ctx: _Context, cat: ET.Element) -> dict[str, _RawOperative]:
    """The catalogue's operatives by name: each entry whose own profiles include an
    operative profile, entries sharing one profile name merged into one.

    Raises:
        BsDataError: entries nested or linked too deep or too many (naming the entry).
    """
    raw: dict[str, _RawOperative] = {}
    for container in ("selectionEntries", "sharedSelectionEntries"):
        for entry in _children(cat, container, "selectionEntry"):
            profile = next(
                (p for p in _own_profiles(ctx, entry) if ctx.is_type(p, ctx.operative_type)),
                None,
            )
            if profile is None or edition.skips_entry(ctx, entry):
                continue
            op_name = edition.operative_name(entry, profile)
            op = raw.get(op_name)
            if op is None:
                op = raw[op_name] = _RawOperative(op_name, profile, [], [], {}, [], [])
            op.entry_ids.append(entry.get("id", ""))
            _collect(edition, ctx, op, entry)
    return raw


def _finish_operative(
    edition: Edition, ctx: _Context, op: _RawOperative, entries: list[ET.Element]
) -> Operative | None:
    """The datacard of ``op``; ``None`` (reported) when its profile does not read or it is
    outside the limits of :mod:`engine.teams.model`."""
    where = f"operative {op.name!r}"
    values = _characteristics(op.profile, ctx.operative_type)
    try:
        stats = edition.statline(values, entries)
    except ValueError as exc:
        ctx.issue(where, f"operative skipped: {exc}", "skipped")
        return None
    weapons = tuple(
        Weapon(key.partition(KIND_SEP)[0], kind, tuple(profiles.values()))
        for key, (kind, profiles) in op.weapons.items()
        if profiles
    )
    if not weapons:
        ctx.issue(where, "no weapon profiles found")
    card = Operative(
        name=op.name,
        keywords=tuple(op.keywords),
        base_mm=DEFAULT_BASE_MM,
        weapons=weapons,
        abilities=edition.card_abilities(ctx, where, op, entries),
        actions=tuple(op.actions),
        **stats,
    )
    card = edition.finish_operative(ctx, card, entries)
    problem = operative_problem(card)
    if problem is not None:
        ctx.issue(where, f"operative skipped: {problem}", "skipped")
        return None
    return card


# ---------------------------------------------------------------------------- the team

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
    """The selection entry groups of ``cat`` whose name holds ``word`` (lower case)."""
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


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _context(edition: Edition, name: str, cat: ET.Element, gst: ET.Element | None) -> _Context:
    """What reading the catalogue ``cat`` of team ``name`` needs: the game system's profile
    types (as ``edition`` names them), the id index of both files, category names and hidden
    categories."""
    op_type, wp_type = _read_profile_types(gst, edition.profile_types)
    index = _index(*(r for r in (gst, cat) if r is not None))
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
    return _Context(
        name, op_type, wp_type, index, categories, hidden=hidden, ability_type=edition.ability_type
    )


def _read_catalogue(
    edition: Edition,
    path: Path,
    cat: ET.Element,
    gst: ET.Element | None,
    issues: list[ImportIssue],
) -> Team | None:
    """Build one team from a parsed catalogue; issues are appended to ``issues``; ``None``
    (one ``skipped`` issue naming the file) when it gives no operative.

    Raises:
        BsDataError: entries too deep or too many (naming the entry), or the team is
            outside the limits of :mod:`engine.teams.model` (naming the file).
    """
    name = edition.team_name(cat, path)
    edition.prepare(cat, gst)
    ctx = _context(edition, name, cat, gst)
    edition.prepare_context(ctx, cat)
    raw = _raw_operatives(edition, ctx, cat)
    finished = (
        _finish_operative(edition, ctx, r, [ctx.index[e] for e in r.entry_ids])
        for r in raw.values()
    )
    operatives = [o for o in finished if o is not None]
    if not operatives:
        ctx.issue(
            path.name,
            "refused: no operative datacard could be read (a library or reference catalogue, "
            "or every datacard skipped as reported)",
            "skipped",
        )
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
    selection = edition.read_selection(ctx, cat, gst, operatives, raw, selectors)
    ctx.issue("base sizes", edition.base_size_note(), "unsupported")
    edition.report_catalogue(ctx, cat)
    faction = _faction(name, operatives)
    operatives = [
        attrs.evolve(o, keywords=(faction, *(k for k in o.keywords if k != faction)))
        if faction in o.keywords
        else o
        for o in operatives
    ]
    rules = [
        Ability(" ".join(r.get("name", "").split()), source_ref=r.get("id"))
        for r in _children(cat, "rules", "rule")
    ]
    abilities = _named(edition.team_rules(ctx, rules), ctx, "team ability")
    equipment = _named(_equipment(cat), ctx, "equipment")
    ploys = edition.ploys(ctx, cat)
    dataslate = edition.dataslate(cat.get("revision"))
    issues.extend(ctx.issues)
    built = Team(
        id=edition.team_id(name),
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
        edition=edition.edition,
    )
    problem = team_problem(built)
    if problem is not None:
        raise BsDataError(f"{path}: team {_cut(built.id)}: {problem}")
    return built


# ---------------------------------------------------------------------------- the import


def _game_system(edition: Edition, folder: Path, issues: list[ImportIssue]) -> ET.Element | None:
    """The parsed game system of ``folder``; ``None`` (reported in ``issues``) when there
    is none or it does not read."""
    path: Path | None = folder / edition.game_system
    if not (folder / edition.game_system).is_file():
        found = sorted(folder.glob("*.gst")) if edition.any_game_system else []
        path = found[0] if found else None
    if path is None:
        what = ".gst" if edition.any_game_system else repr(edition.game_system)
        issues.append(
            ImportIssue(
                "(dataset)",
                str(folder),
                f"no {what} game system found: profile types matched by name",
            )
        )
        return None
    try:
        return _parse_xml(path)
    except BsDataError as exc:
        issues.append(ImportIssue("(dataset)", path.name, str(exc)))
        return None


def import_catalogues(edition: Edition, path: str | Path, team: str | None) -> ImportResult:
    """Import the teams of ``edition``'s catalogues at ``path`` (the edition module's
    ``import_*`` function documents its arguments and results).

    Args:
        edition: the edition's reading.
        path: a checkout (a folder of ``<year> - *.cat`` catalogues and the game system)
            or one ``.cat`` file (its game system looked for beside it).
        team: keep only the teams :meth:`Edition.matches` chooses; ``None``: every one.

    Returns:
        The teams and every issue met; each refused catalogue is one ``skipped`` issue
        whose ``where`` is the file name and whose message says why.

    Raises:
        FileNotFoundError: ``path`` does not exist or holds no catalogue.
        BsDataError: when no team loads and a catalogue was refused as unreadable or out of
            limits (the first such problem, naming the file).
    """
    root = Path(path)
    pattern = edition.catalogue_pattern
    if root.is_file():
        cats = [root]
        folder = root.parent
    elif root.is_dir():
        cats = edition.catalogues_in(root)
        folder = root
    else:
        raise FileNotFoundError(f"no BSData checkout or catalogue at {str(root)!r}")
    if not cats:
        raise FileNotFoundError(f"no {pattern!r} catalogues in {str(root)!r}")
    issues: list[ImportIssue] = []
    gst = _game_system(edition, folder, issues)
    teams: list[Team] = []
    unreadable: list[str] = []
    for cat_path in cats:
        name = edition.stripped(cat_path.stem)
        named = team is None or edition.matches(name, team)
        if not named and not edition.match_catalogue_name:
            continue
        try:
            cat = _parse_xml(cat_path)
        except BsDataError as exc:
            if named:
                issues.append(ImportIssue(name, cat_path.name, str(exc), "skipped"))
                unreadable.append(str(exc))
            continue
        if (
            team is not None
            and not named
            and not edition.matches(edition.team_name(cat, cat_path), team)
        ):
            continue
        refusal = edition.refusal(cat, gst)
        try:
            refusal = refusal or edition.resolve_links(cat, cat_path)
        except BsDataError as exc:
            refusal = f"refused: {exc}"
        if refusal is not None:
            issues.append(ImportIssue(name, cat_path.name, refusal, "skipped"))
            continue
        try:
            loaded = _read_catalogue(edition, cat_path, cat, gst, issues)
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


def refused_catalogues(result: ImportResult) -> tuple[ImportIssue, ...]:
    """The one-line refusals of an import's ``result``: each ``skipped`` issue whose place
    is a catalogue file (unreadable, another game system, a library, no operative, outside
    the team limits), one per refused catalogue."""
    return tuple(i for i in result.issues if i.kind == "skipped" and i.where.endswith(".cat"))
