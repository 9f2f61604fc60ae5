"""Importer for the Kill Team 2018 catalogues of BSData/wh40k-killteam (``rules/KT18.md``
1.6-1.10): the catalogues without a year prefix (``Orks.cat``) with the game system
``Warhammer 40,000 Kill Team.gst`` ("Warhammer 40,000: Kill Team (2018)").

The import is the one shared with the KT24 and KT21 importers
(:mod:`engine.teams.importers.bsdata_common`: entries, links, wargear options as loadout
slots, safe and bounded reading); this module is the KT18 reading (:class:`Kt18Catalogues`).
Each catalogue gives one team, ``edition = "kt18"``, id ``kt18_<faction slug>``
(``kt18_orks``, ``kt18_astra_militarum``), no default roster:

- **Models.** Every entry with a ``Model`` profile is a datasheet named after the entry
  (``Boss Nob (Boyz)`` and ``Boss Nob (Nobs)`` are two datasheets though both print the
  profile ``Boss Nob``). M, WS, BS, S, T, W, A, Ld, Sv and Max become the
  :class:`~engine.teams.datacards.Operative` (``move`` = M in inches, ``wounds`` = W) and its
  :class:`~engine.teams.kt18_cards.Kt18Profile` (``-`` is 0 for WS, BS, Sv and Max); the KT24
  values of the card are placeholders. M printed without the inch mark (``5``) is read
  in inches. An ability of the model's own that says it has an ``N+`` invulnerable save
  gives ``invulnerable`` (reported).
- **Specialists** (1.6 part 6). The catalogue offers each datasheet through links in its
  root: a link holding the game system's ``Leader`` entry makes the datasheet a possible
  leader; a link holding a ``Specialism`` group lists the specialisms it may take (the game
  system's ``Specialist: X`` categories name them). Both go to ``Kt18Profile.specialists``
  (``Leader`` first) and ``.leader``. Specialist levels, tactics and the Commanders
  expansion (levels, traits) are campaign or expansion rules: reported, not read.
- **Weapons.** ``Weapon`` profiles: Range (``Melee`` or inches; an inch mark missing is
  recovered), Type and shots (``Assault 2``, ``Heavy D6``, ``Rapid fire 1``: the type's
  spelling is normalised), S, AP, D -> :class:`~engine.teams.kt18_cards.Kt18Weapon`; the
  kind is melee for a Melee type, else ranged. A profile whose values are all ``-`` heads a
  weapon of several profiles (``Kombi-weapon``): not read (reported). A name ``Weapon
  (Profile)`` or ``Weapon - Profile`` is one profile of a weapon; a missing closing
  parenthesis is recovered; a ranged and a melee profile of one name (``Burna``) are two
  weapons of that name. A value that does not read (S ``2D6``, a Pistol without shots)
  skips the profile, reported.
- **Weapon abilities.** The Abilities column is rules prose, which the project does not
  copy: a weapon with one gets the ability named after the weapon (``Power Klaw``, or
  ``Plasma gun (supercharge)`` for one profile), reported; ``killteam teams rules`` lists it
  as not implemented until a rule module plays it.
- **Abilities.** ``Ability`` profiles of the model's own entry, by name. Wargear,
  psychic powers, psyker profiles and other profile types below a model are reported, not
  read.
- **Base sizes.** BattleScribe has none: the stated default of :data:`BASE_SIZES` by
  keyword, else 32 mm (reported).
- **Points** (1.10). Model and wargear costs are not kept: the datacards have no place for
  them, and Covert War does not use Force (9.3); reported.
- **Selection.** The kill team's size is the game system's ``Model`` count (3 to 20);
  each model's Max is also a limit on its type (``selection.limits``); at most one
  COMMANDER model. The other selection rules (one Leader, at most 3 other specialists,
  each specialism once) are the game's, checked for every KT18 roster by
  :mod:`engine.teams.kt18_selection`.
- **Linked catalogues.** A catalogue that imports another (``catalogueLink``, the
  ``Space Marines`` library of ``Adeptus Astartes``) reads it from the same folder (by its
  id, at most 5 links deep); when it is not there the catalogue is refused, naming it.

A catalogue of another game system or a library catalogue is refused with a one-line
reason (an issue of kind ``skipped`` naming the file), as one that gives no model.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import attrs

from engine.teams.importers import ImportResult
from engine.teams.importers.bsdata_common import (
    KIND_SEP,
    Statline,
    WeaponRead,
    import_catalogues,
    refused_catalogues,
)
from engine.teams.importers.bsdata_prior import PriorEdition
from engine.teams.importers.bsdata_xml import (
    BsDataError,
    _children,
    _Context,
    _cut,
    _local,
    _number,
    _own_profiles,
    _parse_xml,
    _RawOperative,
    _walk_profiles,
)
from engine.teams.kt18_cards import (
    KT18_WEAPON_TYPES,
    Kt18Profile,
    Kt18Weapon,
    kt18_profile_problem,
    kt18_weapon_problem,
)
from engine.teams.kt18_selection import LEADER, SPECIALISMS
from engine.teams.model import (
    Ability,
    Operative,
    Selection,
    WeaponProfile,
    safe_team_id,
)

__all__ = [
    "BASE_SIZES",
    "GAME_SYSTEM",
    "KT18",
    "Kt18Catalogues",
    "import_bsdata18",
    "kt18_team_id",
    "refused_catalogues",
]

GAME_SYSTEM = "Warhammer 40,000 Kill Team.gst"
"""The file name of the KT18 game system in a checkout of the repository."""

BASE_SIZES: tuple[tuple[str, float], ...] = (
    ("MEGA ARMOUR", 40.0),
    ("TERMINATOR", 40.0),
    ("GRAVIS", 40.0),
    ("OGRYN", 40.0),
    ("BULLGRYN", 40.0),
    ("CAVALRY", 60.0),
    ("GRETCHIN", 25.0),
    ("ASTRA MILITARUM", 25.0),
)
"""The base diameter (mm) of a model with a keyword, first match in this order; every other
model 32 mm (the common base of 2018 infantry). A stated default: BattleScribe has no base
sizes."""
DEFAULT_BASE_MM = 32.0

_MAX_LINK_DEPTH = 5
"""How many catalogue links deep a catalogue's imports are followed."""
_MAX_SCANNED = 500
"""The most ``.cat`` files of a folder looked through for a linked catalogue."""

_OWN_PROFILE_TYPES = frozenset({"Model", "Weapon", "Ability"})
_ROSTER_CATEGORIES = ("model", "configuration", "non-specialist", "leader", "specialist")
_ROSTER_PREFIXES = ("specialist", "list:", "style:", "level ")
_INVULNERABLE = re.compile(r"this model has an?\s+([2-6])\+\s+invulnerable save", re.IGNORECASE)
_TYPE = re.compile(r"\s*(assault|heavy|rapid\s*fire|grenade|pistol)\s+(\S+)\s*", re.IGNORECASE)


def kt18_team_id(name: str) -> str:
    """The id of the KT18 team called ``name`` in a catalogue: ``"Orks"`` -> ``"kt18_orks"``,
    ``"Astra Militarum"`` -> ``"kt18_astra_militarum"``."""
    return safe_team_id(f"kt18 {name}")


def _text(values: dict[str, str], key: str) -> str:
    return " ".join(values.get(key, "").replace("\u00a0", " ").split())


def _threshold(value: str, what: str) -> int:
    """``"3+"`` -> 3, ``"-"`` -> 0.

    Raises:
        ValueError: naming ``what``.
    """
    if value in ("-", "\u2013"):
        return 0
    m = re.fullmatch(r"([2-6])\s*\+", value)
    if m is None:
        raise ValueError(f"{what} {_cut(value)} is not a threshold 2+ to 6+ or '-'")
    return int(m.group(1))


def _whole(value: str, what: str, dash: bool = False) -> int:
    """``"4"`` -> 4 (``"-"`` -> 0 when ``dash``).

    Raises:
        ValueError: naming ``what``.
    """
    if dash and value in ("-", "\u2013"):
        return 0
    if not re.fullmatch(r"\d{1,2}", value):
        raise ValueError(f"{what} {_cut(value)} is not a whole number")
    return int(value)


def _inches(value: str, what: str) -> float:
    """``'5"'`` or ``'5'`` -> 5.0.

    Raises:
        ValueError: naming ``what``.
    """
    m = re.fullmatch(r'(\d{1,3}(?:\.\d{1,3})?)\s*(?:"|\'\'|”|″)?', value)
    if m is None:
        raise ValueError(f"{what} {_cut(value)} is not a distance like '6\"'")
    return float(m.group(1))


def _weapon_type(text: str) -> tuple[str, str] | None:
    """``"Rapid fire 1"`` -> ``("Rapid Fire", "1")``, ``"Melee"`` -> ``("Melee", "")``;
    ``None`` when it is no type and number of shots."""
    if text.casefold() == "melee":
        return "Melee", ""
    m = _TYPE.fullmatch(text)
    if m is None:
        return None
    wanted = re.sub(r"\s+", " ", m.group(1)).casefold().replace("rapidfire", "rapid fire")
    kind = next(t for t in KT18_WEAPON_TYPES if t.casefold() == wanted)
    return kind, m.group(2).upper()


def _split_name(raw: str) -> tuple[str, str]:
    """``'Plasma gun (supercharge)'`` -> ``('Plasma gun', 'supercharge')``; ``'Ripper gun -
    melee'`` -> ``('Ripper gun', 'melee')``; ``'Plasma Pistol (standard'`` (no closing
    parenthesis) -> ``('Plasma Pistol', 'standard')``."""
    name = " ".join(raw.replace("\u00a0", " ").split())
    m = re.fullmatch(r"(.+?)\s*\(([^()]*)\)?", name)
    if m is not None and m.group(2).strip():
        return m.group(1).strip(), m.group(2).strip()
    if " - " in name:
        head, _, tail = name.partition(" - ")
        return head.strip(), tail.strip()
    return name, ""


def _catalogue_id(path: Path) -> str | None:
    """The ``id`` of the catalogue in ``path``, read from its first 4 KB (``None`` when
    unreadable)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(4096).decode("utf-8", "replace")
    except OSError:
        return None
    m = re.search(r"<catalogue\b[^>]*?\sid=\"([^\"]{1,100})\"", head)
    return m.group(1) if m else None


def _merge(into: ET.Element, lib: ET.Element, roots: bool) -> None:
    """Append the children of ``lib``'s top-level containers to ``into``'s containers of the
    same name (created if missing); its root entries only when ``roots``."""
    ns = into.tag[: into.tag.index("}") + 1] if into.tag.startswith("{") else ""
    for box in lib:
        tag = _local(box.tag)
        if tag in ("catalogueLinks", "publications", "costTypes", "profileTypes"):
            continue
        if not roots and tag in ("selectionEntries", "entryLinks", "rules"):
            continue
        target = next((c for c in into if _local(c.tag) == tag), None)
        if target is None:
            target = ET.SubElement(into, f"{ns}{tag}")
        target.extend(list(box))


class Kt18Catalogues(PriorEdition):
    """The KT18 reading of the catalogues (module docstring, ``rules/KT18.md`` 1.6-1.10)."""

    year = ""
    edition = "kt18"
    weapon_stats = ("Type", "S", "D")
    rules_label = "Abilities"
    profile_types = ("Model", "Weapon")
    ability_type = "Ability"

    @property
    def game_system(self) -> str:
        """:data:`GAME_SYSTEM`."""
        return GAME_SYSTEM

    @property
    def catalogue_pattern(self) -> str:
        """Any ``*.cat`` (the 2018 catalogues have no year prefix)."""
        return "*.cat"

    def catalogues_in(self, folder: Path) -> list[Path]:
        """The ``*.cat`` of ``folder`` but those of the later editions (``2021 - ``,
        ``2024 - ``: a year prefix)."""
        return sorted(p for p in folder.glob("*.cat") if not re.match(r"\d{4}\s*-\s", p.name))

    def stripped(self, name: str) -> str:
        """The name itself (no year prefix to strip)."""
        return name

    def team_id(self, name: str) -> str:
        """:func:`kt18_team_id`."""
        return kt18_team_id(name)

    def resolve_links(self, cat: ET.Element, path: Path) -> str | None:
        """Merge the catalogues ``cat`` links to (module docstring), read from ``path``'s
        folder; a refusal naming the first one that is not there.

        Raises:
            BsDataError: links more than :data:`_MAX_LINK_DEPTH` deep, or a linked file that
                cannot be read (naming it).
        """
        found: dict[str, Path] | None = None
        done: set[str] = {cat.get("id", "")}

        def follow(elem: ET.Element, depth: int) -> str | None:
            nonlocal found
            for link in _children(elem, "catalogueLinks", "catalogueLink"):
                tid = link.get("targetId", "")
                if tid in done:
                    continue
                if depth >= _MAX_LINK_DEPTH:
                    raise BsDataError(f"catalogue links more than {_MAX_LINK_DEPTH} deep")
                if found is None:
                    paths = sorted(path.parent.glob("*.cat"))[:_MAX_SCANNED]
                    found = {cid: p for p in paths if (cid := _catalogue_id(p)) is not None}
                where = found.get(tid)
                if where is None:
                    return (
                        f"refused: it imports the catalogue {_cut(link.get('name', ''))} "
                        f"({_cut(tid)}), which is not in {str(path.parent)!r}"
                    )
                done.add(tid)
                lib = _parse_xml(where)
                missing = follow(lib, depth + 1)
                if missing is not None:
                    return missing
                _merge(cat, lib, link.get("importRootEntries") == "true")
            return None

        return follow(cat, 0)

    def prepare_context(self, ctx: _Context, cat: ET.Element) -> None:
        """Find the specialisms each model entry may take and which may lead, from the
        catalogue's root links (module docstring)."""
        names = [
            n.split(":", 1)[1].strip()
            for n in ctx.categories.values()
            if n.lower().startswith("specialist:")
        ]
        known = list(dict.fromkeys(names or SPECIALISMS))
        specs: dict[str, list[str]] = {}
        for root in (
            *_children(cat, "entryLinks", "entryLink"),
            *_children(cat, "selectionEntries", "selectionEntry"),
        ):
            target = (
                ctx.index.get(root.get("targetId", "")) if _local(root.tag) == "entryLink" else root
            )
            if target is None or target.get("type") != "model":
                continue
            mine = specs.setdefault(target.get("id", ""), [])
            for elem in root.iter():
                if elem is root or _local(elem.tag) not in ("entryLink", "selectionEntry"):
                    continue
                linked = (
                    ctx.index.get(elem.get("targetId", ""))
                    if _local(elem.tag) == "entryLink"
                    else elem
                )
                name = " ".join(((linked if linked is not None else elem).get("name", "")).split())
                if name in known and name not in mine:
                    mine.append(name)
        ctx.readings["specialisms"] = specs

    def operative_name(self, entry: ET.Element, profile: ET.Element) -> str:
        """The entry's name (module docstring: two entries printing one profile name are
        two datasheets)."""
        return " ".join((entry.get("name") or profile.get("name") or "").split())

    def keyword(self, category: str) -> str | None:
        """``Faction: Orks`` -> ``ORKS``; the categories organising rosters (``Model``,
        specialist, list, style and level categories) are no keywords."""
        name = " ".join(category.split())
        low = name.lower()
        if not name or low in _ROSTER_CATEGORIES or low.startswith(_ROSTER_PREFIXES):
            return None
        if low.startswith("faction:"):
            name = name.split(":", 1)[1].strip()
        return name.upper() or None

    def weapon_numbers(self, values: dict[str, str]) -> tuple[int, int, int, int]:
        """The KT24 numbers of a KT18 profile are placeholders (1 attack, 6+, 0 damage)."""
        return 1, 6, 0, 0

    def is_header(
        self,
        ctx: _Context,
        op: _RawOperative,
        where: str,
        weapon: tuple[str, str | None],
        values: dict[str, str],
    ) -> bool:
        """A profile whose Range, Type, S, AP and D are all ``-`` heads a weapon of several
        profiles: not read (reported)."""
        if not all(_text(values, k) in ("-", "") for k in ("Range", "Type", "S", "AP", "D")):
            return False
        ctx.issue(where, "header of a weapon with several profiles: its profiles are read")
        return True

    def split_weapon_name(self, raw: str) -> tuple[str, str, str | None]:
        """:func:`_split_name`; the kind comes from the Type column."""
        name, profile = _split_name(raw)
        return name, profile, None

    def rules_text(self, values: dict[str, str]) -> str:
        """``"ability"`` when the Abilities column holds text (never the text itself)."""
        return "" if _text(values, "Abilities") in ("", "-") else "ability"

    def weapon_profile(
        self, ctx: _Context, op: _RawOperative, read: WeaponRead
    ) -> tuple[str, str, WeaponProfile] | None:
        """The :class:`Kt18Weapon` of the profile (module docstring); ``None`` (reported)
        when a value does not read."""
        v = read.values
        rng_text, type_text = _text(v, "Range"), _text(v, "Type")
        typed = _weapon_type(type_text)
        if typed is None:
            ctx.issue(
                read.where,
                f"profile skipped: Type {_cut(type_text)} is not Melee or a weapon type with "
                "its number of shots (rules/KT18.md 1.8)",
                "skipped",
            )
            return None
        kind = "melee" if typed[0] == "Melee" else "ranged"
        try:
            rng = 0.0 if rng_text.casefold() == "melee" else _inches(rng_text, "Range")
            ap_text = _text(v, "AP")
            ap = (
                0
                if ap_text in ("-", "0")
                else int(ap_text)
                if re.fullmatch(r"-\d", ap_text)
                else None
            )
            if ap is None:
                raise ValueError(f"AP {_cut(ap_text)} is not 0 or a negative number")
        except ValueError as exc:
            ctx.issue(read.where, f"profile skipped: {exc}", "skipped")
            return None
        if rng_text and rng_text[-1:].isdigit():
            ctx.issue(read.where, f'Range {rng_text!r} has no inch mark: read as {rng:g}"')
        label = f"{read.name} ({read.profile})" if read.profile else read.name
        abilities = (label,) if read.text else ()
        weapon = Kt18Weapon(
            range=rng,
            type=typed[0],
            shots=typed[1],
            strength=_text(v, "S"),
            ap=ap,
            damage=_text(v, "D"),
            abilities=abilities,
        )
        problem = kt18_weapon_problem(weapon)
        if problem is not None:
            ctx.issue(read.where, f"profile skipped: {problem}", "skipped")
            return None
        if abilities:
            ctx.issue(
                read.where,
                f"its ability is rules text the project does not copy: kept as the weapon "
                f"ability {label!r} (not implemented until a rule plays it)",
                "unsupported",
            )
        known = op.weapons.get(read.name)
        key = read.name
        if known is not None and known[0] != kind:
            key = f"{read.name}{KIND_SEP}{kind}"  # "Burna": a ranged and a melee weapon
        return key, kind, WeaponProfile(read.profile, 1, 6, 0, 0, kt18=weapon)

    def statline(self, values: dict[str, str], entries: list[ET.Element]) -> Statline:
        """M and W on the card, the rest in its :class:`Kt18Profile` (``rules/KT18.md`` 1.7;
        the card's APL and save are placeholders).

        Raises:
            ValueError: naming the characteristic that does not read or is out of bounds
                (:func:`~engine.teams.kt18_cards.kt18_profile_problem`).
        """
        attacks = _text(values, "A")
        if not re.fullmatch(r"\d{1,2}|D[36](?:\+\d)?|\d?D[36]", attacks, re.IGNORECASE):
            raise ValueError(f"A {_cut(attacks)} is not a number or dice value")
        profile = Kt18Profile(
            ws=_threshold(_text(values, "WS"), "WS"),
            bs=_threshold(_text(values, "BS"), "BS"),
            strength=_whole(_text(values, "S"), "S"),
            toughness=_whole(_text(values, "T"), "T"),
            attacks=attacks.upper(),
            leadership=_whole(_text(values, "Ld"), "Ld"),
            save=_threshold(_text(values, "Sv"), "Sv"),
            maximum=_whole(_text(values, "Max"), "Max", dash=True),
        )
        problem = kt18_profile_problem(profile)
        if problem is not None:
            raise ValueError(problem)
        return Statline(
            apl=1,
            move=_inches(_text(values, "M"), "M"),
            save=6,
            wounds=_whole(_text(values, "W"), "W"),
            kt18=profile,
        )

    def card_abilities(
        self, ctx: _Context, where: str, op: _RawOperative, entries: list[ET.Element]
    ) -> tuple[Ability, ...]:
        """The model's own abilities; psychic powers, wargear and other profile types below
        its entries reported, not read."""
        seen: set[tuple[str, str]] = set()
        for entry in entries:
            for p, _ in _walk_profiles(ctx, entry, set(), ()):
                tname = p.get("typeName", "")
                if tname in _OWN_PROFILE_TYPES:
                    continue
                pname = " ".join(p.get("name", "").split())
                if (tname, pname) in seen:
                    continue
                seen.add((tname, pname))
                ctx.issue(
                    where,
                    f"{tname} profile {pname!r}: not read (wargear rules, psychic powers and "
                    "faction orders are not played for KT18 yet)",
                    "unsupported",
                )
        return tuple(op.abilities)

    def finish_operative(
        self, ctx: _Context, card: Operative, entries: list[ET.Element]
    ) -> Operative:
        """The specialisms and leader of the datasheet, its invulnerable save and its base
        size (module docstring)."""
        if card.kt18 is None:
            return card
        where = f"operative {card.name!r}"
        readings = ctx.readings.get("specialisms")
        by_entry: dict[str, list[str]] = readings if isinstance(readings, dict) else {}
        specs: list[str] = []
        for entry in entries:
            specs += [s for s in by_entry.get(entry.get("id", ""), []) if s not in specs]
        leader = LEADER in specs
        specs.sort(key=lambda s: s != LEADER)
        invulnerable = 0
        for entry in entries:
            for p in _own_profiles(ctx, entry):
                if p.get("typeName") != ctx.ability_type:
                    continue
                text = " ".join(c.text or "" for c in p.iter() if _local(c.tag) == "characteristic")
                m = _INVULNERABLE.search(text)
                if m is not None and not invulnerable:
                    invulnerable = int(m.group(1))
                    ctx.issue(
                        where,
                        f"invulnerable save {invulnerable}+ read from its ability "
                        f"{' '.join(p.get('name', '').split())!r}",
                    )
        base = next((mm for kw, mm in BASE_SIZES if kw in card.keywords), DEFAULT_BASE_MM)
        profile = attrs.evolve(
            card.kt18, specialists=tuple(specs), leader=leader, invulnerable=invulnerable
        )
        return attrs.evolve(card, kt18=profile, base_mm=base)

    def base_size_note(self) -> str:
        """Base sizes are the stated defaults by keyword."""
        shown = ", ".join(f"{kw} {mm:g} mm" for kw, mm in BASE_SIZES)
        return f"BattleScribe has no base sizes: by keyword ({shown}), else {DEFAULT_BASE_MM:g} mm"

    def read_selection(
        self,
        ctx: _Context,
        cat: ET.Element,
        gst: ET.Element | None,
        operatives: list[Operative],
        raw: dict[str, _RawOperative],
        selectors: dict[str, dict[str, str | None]],
    ) -> Selection:
        """The kill team size from the game system's ``Model`` category (3 to 20), each
        model's Max as a limit on its type, at most one COMMANDER; the game's other rules
        are :mod:`engine.teams.kt18_selection`'s."""
        lo: int | None = None
        hi: int | None = None
        for cid, name in ctx.categories.items():
            elem = ctx.index.get(cid)
            if name.strip().lower() != "model" or elem is None:
                continue
            for c in _children(elem, "constraints", "constraint"):
                value = _number(c.get("value"))
                if c.get("field") != "selections" or value is None or value < 0:
                    continue
                if c.get("type") == "min":
                    lo = value
                elif c.get("type") == "max":
                    hi = value
        if lo is None or hi is None or not 1 <= lo <= hi:
            ctx.issue(
                "selection",
                "no kill team size in the game system's Model category: any 1 to 20 models",
                "unsupported",
            )
            lo, hi = 1, 20
        commanders = any("COMMANDER" in o.keywords for o in operatives)
        limits = tuple(
            (o.name, o.kt18.maximum) for o in operatives if o.kt18 is not None and o.kt18.maximum
        )
        return Selection(
            size=(lo, hi),
            limits=limits,
            keyword_limits=(("COMMANDER", 1),) if commanders else (),
        )

    def report_catalogue(self, ctx: _Context, cat: ET.Element) -> None:
        """Points, tactics, fire teams and commanders are reported (module docstring)."""
        ctx.issue(
            "points",
            "model and wargear points are not kept: the datacards have no place for them "
            "and Covert War does not use Force (rules/KT18.md 1.10, 9.3)",
            "unsupported",
        )
        ctx.issue(
            "tactics",
            "BattleScribe has no tactics (the 2018 command point stratagems): not imported",
            "unsupported",
        )
        units = sorted(
            {
                " ".join(e.get("name", "").split())
                for e in cat.iter()
                if _local(e.tag) == "selectionEntry" and e.get("type") == "unit"
            }
        )
        if units:
            shown = ", ".join(units[:6]) + (", ..." if len(units) > 6 else "")
            ctx.issue(
                "fire teams",
                f"{len(units)} fire team entries ({shown}): the Elites fire teams are not "
                "read; their models are",
                "unsupported",
            )


KT18 = Kt18Catalogues()
"""The KT18 reading of BSData catalogues."""


def import_bsdata18(path: str | Path, team: str | None = None) -> ImportResult:
    """Import Kill Team 2018 teams from BSData/wh40k-killteam (module docstring).

    Args:
        path: a checkout of the repository (a folder holding the 2018 catalogues, ``*.cat``
            without a year prefix, and ``Warhammer 40,000 Kill Team.gst``) or one ``.cat``
            file (the ``.gst`` is looked for beside it; without one, profiles are matched by
            type name and that is reported).
        team: keep only teams whose name contains this (case-insensitive), whose slug
            equals its slug, or whose id it is (``kt18_orks``); ``None`` imports every
            catalogue.

    Returns:
        The teams (``edition = "kt18"``) and every issue met; each refused catalogue is one
        ``skipped`` issue with its reason (unreadable XML, another game system, a library,
        a linked catalogue missing, no model, outside the limits of
        :mod:`engine.teams.model`).

    Raises:
        FileNotFoundError: if ``path`` does not exist or holds no catalogue.
        BsDataError: when no team loads and a catalogue was refused as unreadable or out of
            limits (the first such problem, naming the file).
    """
    return import_catalogues(KT18, path, team)
