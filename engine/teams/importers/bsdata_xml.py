"""Reading BattleScribe XML safely for the BattleScribe importers of both editions
(:mod:`engine.teams.importers.bsdata_common`; the KT24 module docstring of
:mod:`engine.teams.importers.bsdata` gives the bounds): the file (size, encoding, no document
type declarations, bounded nesting), the profile types of the game system, characteristics,
the id index and the numbers printed on datacards.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import attrs

from engine.errors import KillTeamError
from engine.inputs import read_text
from engine.teams.importers import ImportIssue
from engine.teams.model import (
    Ability,
    WeaponProfile,
)

__all__ = ["BsDataError"]


class BsDataError(KillTeamError, ValueError):
    """A BattleScribe file cannot be read safely (not UTF-8 XML, larger than 64 MiB, a
    document type declaration, nesting or links too deep or too many) or a team is outside
    the limits of :mod:`engine.teams.model`; the message names the file."""


_MAX_XML_DEPTH = 100
"""The deepest element nesting of a catalogue or game system (real ones: 13)."""
_MAX_WALK_DEPTH = 100
"""The deepest chain of nested entries and links followed below an operative's entry."""
_MAX_WALK_STEPS = 500_000
"""The most entries visited while following links in one catalogue (real ones: a few
thousand)."""
_MAX_RULES_CHARS = 1000
"""The longest weapon-rule (WR) text read; a longer one is reported and dropped."""

DEFAULT_BASE_MM = 32.0
DEFAULT_DATASLATE = "April '26"
RANGED_MARK = "⌖"
# Game-system categories that organise rosters rather than name datacard keywords.
_STRUCTURAL_CATEGORIES = frozenset({"OPERATIVE", "CONFIGURATION", "REFERENCE"})
MELEE_MARK = "⚔"


def _local(tag: str) -> str:
    """The tag name without its ``{namespace}``."""
    return tag.rsplit("}", 1)[-1]


def _children(elem: ET.Element, container: str, child: str) -> Iterator[ET.Element]:
    """The ``child`` elements inside ``elem``'s direct ``container`` elements."""
    for c in elem:
        if _local(c.tag) == container:
            for g in c:
                if _local(g.tag) == child:
                    yield g


@attrs.frozen(slots=True)
class _ProfileType:
    """A profile type of the game system: its id, name and characteristic ids by name."""

    id: str
    name: str
    characteristics: dict[str, str]


@attrs.define
class _Context:
    """What reading one catalogue needs: the types, the id index and the issue list."""

    team: str
    operative_type: _ProfileType
    weapons_type: _ProfileType
    index: dict[str, ET.Element]
    categories: dict[str, str]
    issues: list[ImportIssue] = attrs.field(factory=list)
    hidden: frozenset[str] = frozenset()  # hidden categories: roster bookkeeping, not keywords
    steps: int = 0  # entries visited following links (bounded by _MAX_WALK_STEPS)
    ability_type: str = "Abilities"  # the profile type of an entry's abilities
    readings: dict[str, object] = attrs.field(factory=dict)  # an edition's per-catalogue notes

    def issue(self, where: str, message: str, kind: str = "recovered") -> None:
        self.issues.append(ImportIssue(self.team, where, message, kind))

    def is_type(self, profile: ET.Element, ptype: _ProfileType) -> bool:
        return profile.get("typeId") == ptype.id or profile.get("typeName") == ptype.name


def _read_profile_types(
    gst: ET.Element | None, names: tuple[str, str] = ("Operative", "Weapons")
) -> tuple[_ProfileType, _ProfileType]:
    """The operative and weapon profile types called ``names`` (KT24, KT21: ``Operative``
    and ``Weapons``; KT18: ``Model`` and ``Weapon``), by name when there is no game
    system."""
    found: dict[str, _ProfileType] = {}
    if gst is not None:
        for pt in _children(gst, "profileTypes", "profileType"):
            chars = {
                ct.get("name", ""): ct.get("id", "")
                for ct in _children(pt, "characteristicTypes", "characteristicType")
            }
            found[pt.get("name", "")] = _ProfileType(pt.get("id", ""), pt.get("name", ""), chars)
    op = found.get(names[0]) or _ProfileType("", names[0], {})
    wp = found.get(names[1]) or _ProfileType("", names[1], {})
    return op, wp


def _characteristics(profile: ET.Element, ptype: _ProfileType) -> dict[str, str]:
    """The profile's characteristic values by characteristic name (matched by type id when
    the game system names it, else by the characteristic's own ``name``)."""
    by_id = {v: k for k, v in ptype.characteristics.items()}
    values: dict[str, str] = {}
    for ch in _children(profile, "characteristics", "characteristic"):
        name = by_id.get(ch.get("typeId", ""), ch.get("name", ""))
        values[name] = (ch.text or "").strip()
    return values


def _index(*roots: ET.Element) -> dict[str, ET.Element]:
    """Every element with an ``id`` that a link may target, by id (later roots win)."""
    out: dict[str, ET.Element] = {}
    targets = {"selectionEntry", "selectionEntryGroup", "profile", "categoryEntry", "rule"}
    for root in roots:
        for elem in root.iter():
            if _local(elem.tag) in targets and elem.get("id"):
                out[elem.get("id", "")] = elem
    return out


_THRESHOLD = re.compile(r"^(\d)\s*\+$")


def _cut(value: str) -> str:
    """``repr(value)`` cut for a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."


def _threshold(value: str, what: str) -> int:
    m = _THRESHOLD.match(value)
    if m is None:
        raise ValueError(f"{what} {_cut(value)} is not a threshold like '4+'")
    return int(m.group(1))


def _int(value: str, what: str) -> int:
    if not re.fullmatch(r"\d{1,9}", value):
        raise ValueError(f"{what} {_cut(value)} is not a whole number (at most 9 digits)")
    return int(value)


def _inches(value: str, what: str) -> float:
    m = re.fullmatch(r'(\d{1,9}(?:\.\d{1,9})?)\s*(?:"|\'\'|”|″|&quot;)?', value)
    if m is None:
        raise ValueError(f"{what} {_cut(value)} is not a distance like '6\"'")
    return float(m.group(1))


def _damage(value: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d{1,9})\s*/\s*(\d{1,9})", value)
    if m is None:
        raise ValueError(f"DMG {_cut(value)} is not 'normal/critical' like '3/4'")
    return int(m.group(1)), int(m.group(2))


def _number(text: str | None) -> int | None:
    """A constraint or modifier value (``"2"``, ``"2.0"``, ``"-1"``) as a whole number;
    ``None`` when it is not a finite number of magnitude at most 10^9."""
    try:
        value = float(text or "")
    except ValueError:
        return None
    if not math.isfinite(value) or abs(value) > 1e9:
        return None
    return int(value)


def _parse_xml(path: Path) -> ET.Element:
    """The root element of a BattleScribe file, read safely (module docstring).

    Raises:
        BsDataError: naming the file: unreadable, larger than 64 MiB, not UTF-8, a document
            type declaration, not well-formed XML, or nested more than
            :data:`_MAX_XML_DEPTH` elements deep.
    """
    text = read_text(path, BsDataError, "BattleScribe file")
    if re.search(r"<!\s*(DOCTYPE|ENTITY)", text, re.IGNORECASE):
        raise BsDataError(
            f"{path}: document type declarations and entities are not accepted "
            "(BattleScribe files have none)"
        )
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise BsDataError(f"{path}: not readable XML: {exc}") from None
    stack = [(root, 1)]
    while stack:
        elem, depth = stack.pop()
        if depth > _MAX_XML_DEPTH:
            raise BsDataError(f"{path}: elements nested more than {_MAX_XML_DEPTH} levels deep")
        stack.extend((child, depth + 1) for child in elem)
    return root


@attrs.define
class _RawOperative:
    """An operative being assembled from one or more selection entries."""

    name: str
    profile: ET.Element
    entry_ids: list[str]
    keywords: list[str]
    weapons: dict[str, tuple[str, dict[str, WeaponProfile]]]  # name -> (kind, profiles)
    abilities: list[Ability]
    actions: list[Ability]


def _linked(ctx: _Context, link: ET.Element) -> ET.Element | None:
    target = ctx.index.get(link.get("targetId", ""))
    if target is None:
        ctx.issue(
            f"link {link.get('name', '')!r}",
            f"targetId {link.get('targetId', '')!r} not found in the catalogue or game system",
            "skipped",
        )
    return target


def _own_profiles(ctx: _Context, entry: ET.Element) -> list[ET.Element]:
    """The profiles of an entry: its own and those its ``infoLink``s of type profile name."""
    out = list(_children(entry, "profiles", "profile"))
    for link in _children(entry, "infoLinks", "infoLink"):
        if link.get("type") == "profile":
            target = _linked(ctx, link)
            if target is not None and _local(target.tag) == "profile":
                out.append(target)
    return out


def _walk_profiles(
    ctx: _Context, entry: ET.Element, seen: set[str], ancestors: tuple[str, ...]
) -> Iterator[tuple[ET.Element, tuple[str, ...]]]:
    """Every profile below ``entry`` (following child entries, groups and links), each with
    the ids of the entries above it; each target is visited once.

    Raises:
        BsDataError: entries nested or linked more than :data:`_MAX_WALK_DEPTH` deep, or
            more than :data:`_MAX_WALK_STEPS` visits in the catalogue.
    """
    ctx.steps += 1
    if len(ancestors) >= _MAX_WALK_DEPTH or ctx.steps > _MAX_WALK_STEPS:
        raise BsDataError(
            f"entries nested or linked more than {_MAX_WALK_DEPTH} deep or more than "
            f"{_MAX_WALK_STEPS} entry visits (below {_cut(entry.get('name', ''))})"
        )
    ancestors = (*ancestors, entry.get("id", ""))
    for p in _own_profiles(ctx, entry):
        yield p, ancestors
    for container, child in (
        ("selectionEntries", "selectionEntry"),
        ("selectionEntryGroups", "selectionEntryGroup"),
    ):
        for sub in _children(entry, container, child):
            yield from _walk_profiles(ctx, sub, seen, ancestors)
    for link in _children(entry, "entryLinks", "entryLink"):
        tid = link.get("targetId", "")
        if tid in seen:
            continue
        target = _linked(ctx, link)
        if target is None:
            continue
        seen.add(tid)
        # The link's own children (e.g. an override) come with it.
        yield from _walk_profiles(ctx, link, seen, ancestors)
        yield from _walk_profiles(ctx, target, seen, ancestors)
        seen.discard(tid)


def _apply_modifiers(
    ctx: _Context, profile: ET.Element, values: dict[str, str], ancestors: tuple[str, ...]
) -> None:
    """Apply a profile's characteristic ``set`` modifiers whose conditions are all "is an
    instance of an entry above this one"; report any other characteristic modifier."""
    by_id = {v: k for k, v in ctx.weapons_type.characteristics.items()}
    for mod in _children(profile, "modifiers", "modifier"):
        field = by_id.get(mod.get("field", ""))
        if field is None:
            continue
        conds = list(_children(mod, "conditions", "condition"))
        groups = list(_children(mod, "conditionGroups", "conditionGroup"))
        simple = (
            mod.get("type") == "set"
            and not groups
            and all(
                c.get("type") == "instanceOf" and c.get("scope") in ("ancestor", "parent")
                for c in conds
            )
        )
        if not simple:
            ctx.issue(
                f"weapon profile {profile.get('name', '')!r}",
                f"modifier on {field} ({mod.get('type')} {mod.get('value')!r}) "
                "not applied: its conditions are not understood",
                "unsupported",
            )
            continue
        if all(c.get("childId") in ancestors for c in conds):
            values[field] = mod.get("value", values.get(field, ""))


def _split_weapon_name(raw: str) -> tuple[str, str, str | None]:
    """``'⌖ Plasma gun (standard)'`` -> ``('Plasma gun', 'standard', 'ranged')``."""
    name = " ".join(raw.replace("\u00a0", " ").split())
    kind: str | None = None
    if name.startswith(RANGED_MARK):
        kind, name = "ranged", name[len(RANGED_MARK) :].strip()
    elif name.startswith(MELEE_MARK):
        kind, name = "melee", name[len(MELEE_MARK) :].strip()
    m = re.fullmatch(r"(.+?)\s*\(([^()]*)\)", name)
    if m is not None:
        return m.group(1).strip(), m.group(2).strip(), kind
    return name, "", kind
