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
"""

from __future__ import annotations

import html
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TypeVar

import attrs

from engine.dice import rules as _rules
from engine.dice.rules import (
    TeamRule,
    WeaponRule,
    WeaponRules,
    parse_weapon_rules,
    split_rule_tokens,
)
from engine.errors import KillTeamError, WeaponRuleError
from engine.inputs import read_text
from engine.teams.importers import ImportIssue, ImportResult
from engine.teams.importers.options import (
    dedupe,
    flatten_slots,
    fold_fixed,
    make_option,
    weapons_in_no_option,
)
from engine.teams.model import (
    Ability,
    Equipment,
    LoadoutOption,
    LoadoutSlot,
    Operative,
    Ploy,
    Provenance,
    Selection,
    Team,
    Weapon,
    WeaponProfile,
    format_entry,
    name_problem,
    operative_problem,
    profile_problem,
    safe_team_id,
    team_problem,
)

__all__ = ["BsDataError", "import_bsdata", "parse_weapon_rules_tolerant"]


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

# --------------------------------------------------------------------------------------------
# The tolerant weapon-rule parser
# --------------------------------------------------------------------------------------------


def _known_rule_names() -> tuple[str, ...]:
    """Names of every universal weapon rule the dice core knows (longest first)."""
    names: set[str] = set()
    for attr in _rules.__all__:
        obj = getattr(_rules, attr)
        if (
            isinstance(obj, type)
            and issubclass(obj, WeaponRule)
            and obj is not TeamRule
            and isinstance(getattr(obj, "name", None), str)
        ):
            names.add(obj.name)
    return tuple(sorted(names, key=lambda n: (-len(n), n)))


_RULE_NAMES = _known_rule_names()
_DISTANCE_RULES = ("Range", "Blast", "Torrent")
_ODD_SPACES = re.compile(r"[\u00a0\u2007\u2009\u202f]")
_ODD_INCHES = re.compile(r"[\u201c\u201d\u2033]|''")
_NAME_PART = re.compile(r'^(\d+(?:\.\d+)?"?\s*)?([A-Za-z](?:[A-Za-z ]*[A-Za-z])?)(.*)$')


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance between two short strings."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _closest_rule_name(word: str) -> str | None:
    """The one known rule name within a small edit distance of ``word`` (1 for names of up
    to five letters, 2 for longer), or ``None`` if there is none or it is ambiguous."""
    low = word.lower()
    best: list[tuple[int, str]] = []
    for name in _RULE_NAMES:
        limit = 1 if len(name) <= 5 else 2
        d = edit_distance(low, name.lower())
        if d <= limit:
            best.append((d, name))
    if not best:
        return None
    best.sort()
    if len(best) > 1 and best[0][0] == best[1][0]:
        return None
    return best[0][1]


def _strict(piece: str) -> WeaponRule | None:
    """The one rule ``piece`` parses to strictly, or ``None``."""
    try:
        parsed = parse_weapon_rules(piece)
    except WeaponRuleError:
        return None
    return parsed.rules[0] if len(parsed) == 1 else None


def _fix_piece(piece: str) -> tuple[WeaponRule, list[str]] | None:
    """Parse one rule, recovering a missing space, a misspelt name or a missing inch mark.

    Returns the rule and one message per recovery, or ``None`` if it still does not parse.
    """
    rule = _strict(piece)
    if rule is not None:
        return rule, []
    fixed = piece
    messages: list[str] = []
    spaced = re.sub(
        r"^(\d+(?:\.\d+)?\"?\s*)?([A-Za-z](?:[A-Za-z ]*[A-Za-z])?)(\d)", r"\1\2 \3", fixed
    )
    if spaced != fixed:
        messages.append(f"missing space: recovered {fixed!r} as {spaced!r}")
        fixed = spaced
    m = _NAME_PART.match(fixed)
    if m is not None and not fixed.endswith("*"):
        prefix, name, rest = m.group(1) or "", m.group(2), m.group(3)
        if name.lower() not in (n.lower() for n in _RULE_NAMES):
            close = _closest_rule_name(name)
            if close is not None:
                respelt = f"{prefix}{close}{rest}"
                messages.append(f"misspelt rule name: recovered {fixed!r} as {respelt!r}")
                fixed = respelt
    dist = re.fullmatch(r"(?i)(range|blast|torrent)\s+(\d+(?:\.\d+)?)", fixed)
    dev = re.fullmatch(r"(?i)(\d+(?:\.\d+)?)\s+(devastating\s+\d+)", fixed)
    if dist is not None:
        inched = f'{dist.group(1)} {dist.group(2)}"'
    elif dev is not None:
        inched = f'{dev.group(1)}" {dev.group(2)}'
    else:
        inched = fixed
    if inched != fixed:
        messages.append(f"missing inch mark: recovered {fixed!r} as {inched!r}")
        fixed = inched
    rule = _strict(fixed)
    if rule is None:
        return None
    return rule, messages


def _segment(token: str) -> tuple[list[WeaponRule], list[str]] | None:
    """Parse one comma-separated token that may hold several rules with the commas missing.

    Splits at white space into the fewest pieces that each parse (after per-piece
    recoveries); returns the rules and messages, or ``None`` if no split parses.
    """
    words = token.split()
    n = len(words)
    # best[i]: the best parse of words[:i] as (pieces, messages, rules).
    best: list[tuple[int, list[str], list[WeaponRule]] | None] = [None] * (n + 1)
    best[0] = (0, [], [])
    for end in range(1, n + 1):
        for start in range(end):
            before = best[start]
            if before is None:
                continue
            got = _fix_piece(" ".join(words[start:end]))
            if got is None:
                continue
            cand = (before[0] + 1, before[1] + got[1], [*before[2], got[0]])
            current = best[end]
            if current is None or (cand[0], len(cand[1])) < (current[0], len(current[1])):
                best[end] = cand
    final = best[n]
    if final is None:
        return None
    pieces, messages, found = final
    if pieces > 1:
        joined = ", ".join(r.format() for r in found)
        messages = [f"missing comma: recovered {token!r} as {joined!r}", *messages]
    return found, messages


def _tolerant(text: str) -> tuple[list[WeaponRule], list[str], list[WeaponRuleError]]:
    """Parse ``text`` rule by rule: the rules that parse (after recovery), one message per
    recovery, and one error per comma-separated token that could not be recovered."""
    messages: list[str] = []
    clean = text
    if "&" in clean and html.unescape(clean) != clean:
        unescaped = html.unescape(clean)
        messages.append(f"HTML entity: recovered {clean!r} as {unescaped!r}")
        clean = unescaped
    if _ODD_SPACES.search(clean):
        spaced = _ODD_SPACES.sub(" ", clean)
        messages.append(f"non-breaking space: recovered {clean!r} as {spaced!r}")
        clean = spaced
    if _ODD_INCHES.search(clean):
        inched = _ODD_INCHES.sub('"', clean)
        messages.append(f"typographic inch mark: recovered {clean!r} as {inched!r}")
        clean = inched
    tidy = re.sub(r"\s*,\s*", ", ", " ".join(clean.split())).strip()
    if tidy != clean.strip():
        messages.append(f"stray whitespace: recovered {clean!r} as {tidy!r}")
    if tidy in ("", "-"):
        return [], messages, []
    found: list[WeaponRule] = []
    errors: list[WeaponRuleError] = []
    tokens = split_rule_tokens(tidy)
    for token in tokens:
        token = token.strip()
        if not token:
            messages.append(f"empty rule: dropped a stray comma in {tidy!r}")
            continue
        got = _segment(token)
        if got is None:
            try:
                parse_weapon_rules(token)
            except WeaponRuleError as exc:
                bad = exc.token or token
                errors.append(
                    WeaponRuleError(
                        f"weapon rule {bad!r} in {text!r} could not be recovered: {exc}",
                        token=bad,
                        text=text,
                    )
                )
            else:  # pragma: no cover - _segment tries the whole token first
                raise AssertionError(token)
            continue
        found.extend(got[0])
        messages.extend(got[1])
    return found, messages, errors


def parse_weapon_rules_tolerant(text: str) -> tuple[WeaponRules, list[str]]:
    """Parse a BattleScribe ``WR`` string, recovering the dataset's known malformations.

    The strict :func:`engine.dice.rules.parse_weapon_rules` is tried on each rule; what it
    rejects is recovered where the intent is unambiguous:

    - missing commas: ``Lethal 5+ Piercing 1`` -> ``Lethal 5+, Piercing 1`` (split into the
      fewest pieces that each parse);
    - misspelt names within a small edit distance of one rule: ``Rang 8"`` -> ``Range 8"``;
    - a missing space: ``Piercing1`` -> ``Piercing 1``;
    - a missing inch mark on Range/Blast/Torrent or the distance of ``x" Devastating y``:
      ``Blast 1`` -> ``Blast 1"``, ``1 Devastating 2`` -> ``1" Devastating 2``;
    - non-breaking spaces, HTML entities (``&quot;``), typographic inch marks, stray white
      space and stray commas.

    Args:
        text: the ``WR`` characteristic, e.g. ``'Range 8", Hot, Lethal 5+'``; ``-`` or ``""``
            mean no rules.

    Returns:
        ``(rules, messages)``: the rules in the order written and one human-readable
        message per recovery (empty when the string was well formed).

    Raises:
        WeaponRuleError: for the first token that still does not parse; its ``token`` names
            it and ``text`` is the whole string.
    """
    found, messages, errors = _tolerant(text)
    if errors:
        raise errors[0]
    return WeaponRules(tuple(found)), messages


# --------------------------------------------------------------------------------------------
# Reading the XML
# --------------------------------------------------------------------------------------------


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

    def issue(self, where: str, message: str, kind: str = "recovered") -> None:
        self.issues.append(ImportIssue(self.team, where, message, kind))

    def is_type(self, profile: ET.Element, ptype: _ProfileType) -> bool:
        return profile.get("typeId") == ptype.id or profile.get("typeName") == ptype.name


def _read_profile_types(gst: ET.Element | None) -> tuple[_ProfileType, _ProfileType]:
    """The Operative and Weapons profile types (by name when there is no game system)."""
    found: dict[str, _ProfileType] = {}
    if gst is not None:
        for pt in _children(gst, "profileTypes", "profileType"):
            chars = {
                ct.get("name", ""): ct.get("id", "")
                for ct in _children(pt, "characteristicTypes", "characteristicType")
            }
            found[pt.get("name", "")] = _ProfileType(pt.get("id", ""), pt.get("name", ""), chars)
    op = found.get("Operative") or _ProfileType("", "Operative", {})
    wp = found.get("Weapons") or _ProfileType("", "Weapons", {})
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


# --------------------------------------------------------------------------------------------
# Operatives and weapons
# --------------------------------------------------------------------------------------------


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


def _collect(ctx: _Context, op: _RawOperative, entry: ET.Element) -> None:
    """Add one selection entry's keywords, abilities, actions and weapons to ``op``."""
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
            _add_weapon(ctx, op, p, anc)


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


# --------------------------------------------------------------------------------------------
# Wargear options and selection limits (rules/KT24.md 1.2, 2.2, 7)
# --------------------------------------------------------------------------------------------


def _constraints(*elems: ET.Element | None) -> list[ET.Element]:
    """The ``constraint`` elements of ``elems`` (a link and its target), in order."""
    return [c for e in elems if e is not None for c in _children(e, "constraints", "constraint")]


def _bounds(*elems: ET.Element | None) -> tuple[int | None, int | None]:
    """``(min, max)`` selections of an entry or group within its parent (``None``: none
    given; a link's own constraint wins over its target's)."""
    lo: int | None = None
    hi: int | None = None
    for c in reversed(_constraints(*elems)):
        if c.get("field") != "selections" or c.get("scope") != "parent":
            continue
        value = _number(c.get("value"))
        if value is None:
            continue
        if c.get("type") == "min":
            lo = value
        elif c.get("type") == "max":
            hi = value
    return lo, hi


def _target(ctx: _Context, elem: ET.Element) -> ET.Element | None:
    """An entry or group itself, or the target of a link to one."""
    if _local(elem.tag) == "entryLink":
        return ctx.index.get(elem.get("targetId", ""))
    return elem


def _weapon_names(ctx: _Context, elem: ET.Element) -> list[str]:
    """Names of the weapons below an entry, group or link (in catalogue order)."""
    roots = [elem]
    if _local(elem.tag) == "entryLink":
        target = _target(ctx, elem)
        if target is not None:
            roots.append(target)
    names: list[str] = []
    for root in roots:
        for p, _ in _walk_profiles(ctx, root, set(), ()):
            if ctx.is_type(p, ctx.weapons_type):
                name = _split_weapon_name(p.get("name", ""))[0]
                if name not in names:
                    names.append(name)
    return names


def _members(elem: ET.Element) -> list[ET.Element]:
    """The entries, links and groups directly inside an entry or group."""
    return [
        *_children(elem, "selectionEntries", "selectionEntry"),
        *_children(elem, "entryLinks", "entryLink"),
        *_children(elem, "selectionEntryGroups", "selectionEntryGroup"),
    ]


def _entry_options(
    ctx: _Context, entry: ET.Element, where: str
) -> tuple[list[str], list[list[list[str]]]]:
    """One model entry's weapons as ``(fixed weapons, slots)``: a weapon group of exactly one
    selection (min 1, max 1) is a slot whose options are its members' weapons; any other
    weapon is carried. A weapon group with other bounds is reported and its weapons carried.
    """
    fixed: list[str] = []
    for p in _own_profiles(ctx, entry):
        if ctx.is_type(p, ctx.weapons_type):
            name = _split_weapon_name(p.get("name", ""))[0]
            if name not in fixed:
                fixed.append(name)
    slots: list[list[list[str]]] = []
    for child in _members(entry):
        target = _target(ctx, child)
        if target is None:
            continue
        names = _weapon_names(ctx, child)
        if not names:
            continue  # no weapons below (marks, equipment...)
        lo, hi = _bounds(child, target if target is not child else None)
        label = " ".join(target.get("name", "").split())
        if _local(target.tag) == "selectionEntryGroup":
            options = [o for o in (_weapon_names(ctx, m) for m in _members(target)) if o]
            if (lo, hi) == (1, 1) and options:
                slots.append(options)
                continue
            ctx.issue(
                where,
                f"weapon group {label!r} allows {lo if lo is not None else 0} to "
                f"{hi if hi is not None else 'any'} selections: not read as a choice; "
                "its weapons are all carried",
                "unsupported",
            )
        elif hi == 0 or (lo == 0 and hi is not None):
            ctx.issue(
                where,
                f"optional weapon {label!r} (min {lo}, max {hi}): read as always carried",
                "unsupported",
            )
        fixed.extend(n for n in names if n not in fixed)
    return fixed, slots


def _read_loadouts(
    ctx: _Context, card: Operative, entries: list[ET.Element]
) -> tuple[tuple[LoadoutSlot, ...], dict[str, str | None]]:
    """The loadout slots of a datacard read from its model entries, and for each entry id
    the option it stands for when several entries share the card (``None`` if it stands for
    several)."""
    where = f"operative {card.name!r}"
    read = [_entry_options(ctx, e, where) for e in entries]
    selectors: dict[str, str | None] = {}
    if len(entries) == 1:
        fixed, slots = read[0]
        if not slots:
            return (), selectors
        first = fold_fixed(card, [make_option(card, o) for o in slots[0]], fixed)
        rest = [tuple(make_option(card, o) for o in s) for s in slots[1:]]
        result = (LoadoutSlot(dedupe(first)), *(LoadoutSlot(dedupe(s)) for s in rest))
    else:
        options: list[LoadoutOption] = []
        for entry, (fixed, slots) in zip(entries, read, strict=True):
            combos: tuple[LoadoutOption, ...] = ()
            if slots:
                try:
                    combos = flatten_slots(card, [[make_option(card, o) for o in s] for s in slots])
                except ValueError as exc:
                    ctx.issue(where, f"{exc}: its weapon choices are not read", "unsupported")
            mine = list(fold_fixed(card, combos, fixed)) if combos else [make_option(card, fixed)]
            selectors[entry.get("id", "")] = mine[0].name if len(mine) == 1 else None
            options.extend(mine)
        result = (LoadoutSlot(dedupe(options)),)
    missing = weapons_in_no_option(card, result)
    if missing:
        ctx.issue(
            where,
            f"weapon(s) {', '.join(repr(w) for w in missing)} are in none of its options: "
            "never carried",
            "recovered",
        )
    return result, selectors


def _limit_value(
    ctx: _Context, owner: ET.Element, constraint: ET.Element, own_forces: set[str], what: str
) -> int | None:
    """A roster-wide ``max`` constraint's value, after the modifiers of ``owner`` that set it
    when the roster is the team's own force (every condition "an instance of" one of the
    catalogue's force entries or "not an instance of" another force, such as the game
    system's generic roster); ``None`` for no limit (-1) or a modifier that is not understood
    (reported)."""
    read = _number(constraint.get("value"))
    if read is None:
        shown = _cut(constraint.get("value", ""))
        ctx.issue(what, f"limit {shown} is not a number: not read", "skipped")
        return None
    value = read
    cid = constraint.get("id", "")
    for mod in _children(owner, "modifiers", "modifier"):
        if mod.get("field") != cid:
            continue
        conds = list(_children(mod, "conditions", "condition"))
        groups = list(_children(mod, "conditionGroups", "conditionGroup"))
        in_own_force = not groups and all(
            c.get("scope") == "force"
            and (
                (c.get("type") == "notInstanceOf" and c.get("childId", "") not in own_forces)
                or (c.get("type") == "instanceOf" and c.get("childId", "") in own_forces)
            )
            for c in conds
        )
        if mod.get("type") == "set" and in_own_force:
            set_to = _number(mod.get("value"))
            if set_to is not None:
                value = set_to
                continue
        if groups and mod.get("type") == "set" and mod.get("value") == "0":
            ctx.issue(
                what,
                "limit set to 0 under conditions (e.g. another leader chosen): not read; the "
                "leader rule already allows one leader",
                "unsupported",
            )
            continue
        ctx.issue(
            what,
            f"limit modifier ({mod.get('type')} {mod.get('value')!r}) with conditions not "
            "understood: not read",
            "unsupported",
        )
    return None if value < 0 else value


def _roster_wide(c: ET.Element) -> bool:
    return (
        c.get("field") == "selections"
        and c.get("scope") not in ("parent", "self", None)
        and c.get("type") in ("min", "max")
    )


def _read_selection(
    ctx: _Context,
    cat: ET.Element,
    gst: ET.Element | None,
    operatives: list[Operative],
    raw: dict[str, _RawOperative],
    selectors: dict[str, dict[str, str | None]],
) -> Selection:
    """Roster size, leader and limits from the catalogue's force entry, category and model
    entry constraints; what cannot be read is reported."""
    names = {o.name for o in operatives}
    leader = tuple(o.name for o in operatives if "LEADER" in o.keywords)
    if not leader:
        ctx.issue("selection", "no operative has the LEADER keyword", "unsupported")
    own_forces = {f.get("id", "") for f in _children(cat, "forceEntries", "forceEntry")}
    limits: dict[str, int] = {}
    combined: list[tuple[tuple[str, ...], int]] = []
    # Model entries: "at most N of this entry in the roster".
    for op_name, r in raw.items():
        if op_name not in names:
            continue
        for eid in r.entry_ids:
            entry = ctx.index[eid]
            for c in _constraints(entry):
                if not _roster_wide(c) or c.get("type") != "max":
                    continue
                value = _limit_value(ctx, entry, c, own_forces, f"operative {op_name!r}")
                if value is None:
                    continue
                if len(r.entry_ids) == 1:
                    selector = op_name
                else:
                    option = selectors.get(op_name, {}).get(eid)
                    if option is None:
                        ctx.issue(
                            f"operative {op_name!r}",
                            f"limit {value} of entry {entry.get('name')!r} names no single "
                            "option: not read",
                            "unsupported",
                        )
                        continue
                    selector = format_entry(op_name, (option,))
                limits[selector] = min(limits.get(selector, value), value)
    # Categories: the force entry's Leader/Operative counts, other categories as limits.
    members: dict[str, list[str]] = {}
    for op_name, r in raw.items():
        for eid in r.entry_ids:
            for link in _children(ctx.index[eid], "categoryLinks", "categoryLink"):
                group = members.setdefault(link.get("targetId", ""), [])
                if op_name in names and op_name not in group:
                    group.append(op_name)
    counts: dict[str, tuple[int | None, int | None, int]] = {}
    sources: list[tuple[ET.Element, ET.Element]] = [
        (link, link)
        for force in _children(cat, "forceEntries", "forceEntry")
        for link in _children(force, "categoryLinks", "categoryLink")
    ]
    sources += [(entry, entry) for entry in _children(cat, "categoryEntries", "categoryEntry")]
    for owner, elem in sources:
        cid = elem.get("targetId") or elem.get("id") or ""
        cname = " ".join(ctx.categories.get(cid, elem.get("name", "")).split())
        for c in _constraints(elem):
            if not _roster_wide(c):
                continue
            what = f"category {cname!r}"
            if cname.upper() in ("LEADER", "OPERATIVE"):
                lo, hi, extra = counts.get(cname.upper(), (None, None, 0))
                value = _number(c.get("value", "0") or "0") or 0
                if c.get("type") == "min":
                    lo = value
                else:
                    hi = value
                for mod in _children(owner, "modifiers", "modifier"):
                    if mod.get("field") == c.get("id") and c.get("type") == "max":
                        if mod.get("type") == "increment":
                            extra += _number(mod.get("value", "0") or "0") or 0
                            ctx.issue(
                                what,
                                f"the number of operatives grows by {mod.get('value')} under "
                                "conditions (e.g. operatives counting as half a selection): "
                                "the roster size is widened instead",
                                "unsupported",
                            )
                        else:
                            ctx.issue(
                                what,
                                f"count modifier {mod.get('type')!r} not understood: not read",
                                "unsupported",
                            )
                counts[cname.upper()] = (lo, hi, extra)
                continue
            if c.get("type") != "max":
                continue
            value = _limit_value(ctx, owner, c, own_forces, what)
            types = members.get(cid, [])
            if value is None:
                continue
            if not types:
                ctx.issue(what, f"limit {value} names no operative: not read", "skipped")
            elif len(types) == 1:
                limits[types[0]] = min(limits.get(types[0], value), value)
            else:
                combined.append((tuple(types), value))
    op_lo, op_hi, extra = counts.get("OPERATIVE", (None, None, 0))
    lead_lo, lead_hi, _ = counts.get("LEADER", (1, 1, 0))
    if op_hi is None:
        size = (1, 20)
        ctx.issue(
            "selection",
            "no roster-wide count of operatives found: any 1 to 20 operatives (leader once)",
            "unsupported",
        )
    else:
        lo = (op_lo if op_lo is not None else op_hi) + (lead_lo or 1)
        size = (lo, op_hi + (lead_hi or 1) + extra)
    return Selection(
        size=size, leader=leader, limits=tuple(limits.items()), combined_limits=tuple(combined)
    )


# --------------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------------


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
