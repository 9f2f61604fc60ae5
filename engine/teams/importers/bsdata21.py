"""Importer for the Kill Team 2021 catalogues of BSData/wh40k-killteam (``rules/KT21.md`` 4.1,
decision 8): ``2021 - *.cat`` with the ``2021 - Kill Team.gst`` game system.

The same importer family as the KT24 one (:mod:`engine.teams.importers.bsdata`, whose module
docstring says how entries, links, wargear options and selection limits are read, and how
files are read safely); what differs is the KT21 datacard:

- Operative profiles have M, APL, GA, DF, SV and W. M is printed with the KT21 shapes
  (``3⬤`` = 6") and held in inches (:func:`engine.dice.kt21_rules.shape_inches`); GA and DF
  go to ``Operative.group_activation`` and ``.defence``. A ``Invulnerable Save x+`` rule
  linked from the operative's entry is its invulnerable save (10.3).
- Weapon profiles have A, WS/BS, D, SR and ``!``: the SR and ``!`` columns are joined into
  one KT21 weapon-rule string (:func:`engine.dice.kt21_rules.parse_kt21_weapon_rules`); a
  token that does not parse is reported and dropped, the rest of the profile kept. A weapon
  with several profiles is printed as a header profile (its A, WS/BS and D are ``-``) and one
  profile per mode, ``Plasma gun - Supercharge``: the header is skipped (reported), the modes
  become profiles of one weapon.
- Abilities whose name starts or ends with ``*`` explain a team weapon rule (``*Proximity``):
  the rule stays on the weapon (``Proximity*``, a team rule the registry reports), the
  explanation is not an ability (reported). Psychic powers, specialisms and battle honours
  (narrative play) are reported, not read. BattleScribe has no ploys: reported.
- The team's equipment (the ``Equipment`` group every datacard links to) is team equipment,
  listed by name: its weapons (grenades, knives) are not carried by every operative; the
  specialism and battle honour groups (narrative play) are not read (reported).
- The force entry's category counts written "in the parent" (the force) count in the roster.
- The catalogue's reference card (the ``Shape Reference`` profile of the ``Reference``
  category) is not an operative.

Forms of the published catalogues read besides (each reproduced in
``tests/test_import_bsdata21.py``):

- The square is printed ``⬛`` (``Rng ⬛``, ``Torrent ⬛``): the square shape, 3"
  (:func:`shapes_normalised`).
- A weapon-rule token naming no common rule of ``rules/KT21.md`` 12 is the team's own rule:
  kept as ``Name*`` (reported; the registry reports it as not implemented when played); a
  malformed common rule (``Lethal 7+``) is reported and dropped.
- A ``⌖`` and a ``⚔`` profile of one name (a guardian spear) are two weapons, one per kind.
- Abilities and unique actions in info groups (held by an entry, or linked with an
  ``infoLink`` of type ``infoGroup``) are the datacard's own.
- Modifiers inside ``modifierGroup``s are read as plain modifiers carrying the group's
  conditions; a modifier "if an instance of" a category holds on datacards of that category
  (the Sergeant's better WS/BS of a shared weapon).
- A catalogue of several force entries (the Compendium's fire teams) is one team, reported.
- A leader taken as an upgrade (no LEADER datacard) is no extra operative in the roster size.

A catalogue of another game system (its ``gameSystemId`` is not the ``.gst``'s) or one that
gives no operative is refused with a one-line reason (an issue of kind ``skipped``); the
others still load. Team ids are ``kt21_`` and the team's name as an id (``kt21_kasrkin``), so
an imported team plays the rules of the built-in KT21 team of the same identity and never a
KT24 team's; the catalogue ``Legionary`` is the built-in ``kt21_legionaries``
(:data:`TEAM_IDS`). Imported teams have ``edition = "kt21"`` and no default roster.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import attrs

from engine.dice.kt21_rules import (
    DISTANCE_RULES,
    FLAG_RULES,
    NUMBER_RULES,
    THRESHOLD_RULES,
    Kt21Rule,
    Kt21WeaponRules,
    parse_kt21_weapon_rules,
)
from engine.dice.kt21_rules import shape_inches as _shape_inches
from engine.dice.rules import split_rule_tokens
from engine.errors import WeaponRuleError
from engine.teams.importers import ImportIssue, ImportResult
from engine.teams.importers.bsdata import _collect, _equipment, _faction, _named
from engine.teams.importers.bsdata_selection import _read_loadouts, _read_selection
from engine.teams.importers.bsdata_xml import (
    _MAX_RULES_CHARS,
    DEFAULT_BASE_MM,
    MELEE_MARK,
    RANGED_MARK,
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
    _number,
    _own_profiles,
    _parse_xml,
    _RawOperative,
    _read_profile_types,
    _split_weapon_name,
    _threshold,
    _walk_profiles,
)
from engine.teams.model import (
    Ability,
    Operative,
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

__all__ = ["GAME_SYSTEM", "TEAM_IDS", "import_bsdata21", "kt21_team_id", "refused_catalogues"]

GAME_SYSTEM = "2021 - Kill Team.gst"
"""The file name of the KT21 game system in a checkout of the repository."""

TEAM_IDS = {"legionary": "kt21_legionaries"}
"""Team ids that are not ``kt21_`` and the catalogue name's id: the built-in team a
catalogue is (the catalogue ``Legionary`` is the built-in ``kt21_legionaries``)."""

_REFERENCE_CATEGORIES = frozenset({"REFERENCE", "CONFIGURATION"})
_NOT_CARRIED = ("equipment", "specialism", "battle honour", "battle scar")
"""Groups below a datacard whose weapons the operative does not carry (module docstring)."""
_RANGED_ONLY = ("Rng", "Blast", "Torrent", "Fusillade", "Heavy", "Hot", "Indirect", "Unwieldy",
                "Barrage", "No Cover", "Silent", "Splash", "AP")  # fmt: skip
"""KT21 rules only a ranged weapon has (``rules/KT21.md`` 12): a profile without a marker
that has one is ranged."""


def _prune(ctx: _Context, cat: ET.Element) -> None:
    """Remove, below every entry of ``cat`` (parsed in memory), the links to and the groups
    named as :data:`_NOT_CARRIED` (module docstring), and read the force entry's category
    counts "in the parent" as counts in the force; weapon profiles named ``Name - Mode`` are
    renamed ``Name (Mode)`` (the form the wargear options are read in)."""
    for parent in cat.iter():
        for container in parent:
            if _local(container.tag) not in ("entryLinks", "selectionEntryGroups"):
                continue
            for child in list(container):
                target = (
                    ctx.index.get(child.get("targetId", ""))
                    if _local(child.tag) == "entryLink"
                    else child
                )
                label = (target if target is not None else child).get("name", "").lower()
                if any(word in label for word in _NOT_CARRIED):
                    container.remove(child)
    for elem in cat.iter():
        if _local(elem.tag) == "profile" and ctx.is_type(elem, ctx.weapons_type):
            m = re.fullmatch(r"(.*\S)\s+-\s+(\S.*)", elem.get("name", ""))
            if m is not None:  # "Plasma gun - Supercharge": the form wargear options read
                elem.set("name", f"{m.group(1)} ({m.group(2)})")
    for force in _children(cat, "forceEntries", "forceEntry"):
        for link in _children(force, "categoryLinks", "categoryLink"):
            for c in _children(link, "constraints", "constraint"):
                if c.get("scope") == "parent":
                    c.set("scope", "force")


_KIND_SEP = "\x00"
"""Joins a weapon name and a kind in the key of the second weapon of one name: the ranged
and the melee weapon ``Guardian spear`` of one datacard are two weapons."""

_INVULNERABLE = re.compile(r"\s*Invulnerable\s+Save\s+([2-6])\s*\+\s*", re.IGNORECASE)


def _info_group_links(cat: ET.Element, gst: ET.Element | None) -> int:
    """Make the profiles of info groups visible to the entries that hold or link them: each
    ``infoGroup`` child of an element and each ``infoLink`` of type ``infoGroup`` (to the
    catalogue's or the game system's group) becomes ``infoLink``s of type ``profile`` to the
    group's profiles, nested groups included, so their abilities and unique actions are read
    like the entry's own (``rules/KT21.md`` 4.1). Returns how many profiles were linked."""
    groups = {
        g.get("id", ""): g
        for root in (r for r in (gst, cat) if r is not None)
        for g in root.iter()
        if _local(g.tag) == "infoGroup" and g.get("id")
    }

    def profiles(group: ET.Element, seen: set[str]) -> list[str]:
        out = [p.get("id", "") for p in _children(group, "profiles", "profile") if p.get("id")]
        for sub in _children(group, "infoGroups", "infoGroup"):
            if sub.get("id", "") not in seen:
                out += profiles(sub, seen | {sub.get("id", "")})
        for link in _children(group, "infoLinks", "infoLink"):
            tid = link.get("targetId", "")
            if link.get("type") == "profile" and tid:
                out.append(tid)
            elif link.get("type") == "infoGroup" and tid in groups and tid not in seen:
                out += profiles(groups[tid], seen | {tid})
        return out

    linked = 0
    for elem in list(cat.iter()):
        if _local(elem.tag) == "infoGroup":
            continue
        found: list[str] = []
        for sub in _children(elem, "infoGroups", "infoGroup"):
            found += profiles(sub, {sub.get("id", "")})
        for link in _children(elem, "infoLinks", "infoLink"):
            tid = link.get("targetId", "")
            if link.get("type") == "infoGroup" and tid in groups:
                found += profiles(groups[tid], {tid})
        if not found:
            continue
        ns = elem.tag[: elem.tag.index("}") + 1] if elem.tag.startswith("{") else ""
        container = next((c for c in elem if _local(c.tag) == "infoLinks"), None)
        if container is None:
            container = ET.SubElement(elem, f"{ns}infoLinks")
        for pid in dict.fromkeys(found):
            ET.SubElement(container, f"{ns}infoLink", {"type": "profile", "targetId": pid})
            linked += 1
    return linked


def _modifier_groups_flattened(root: ET.Element) -> int:
    """Move the modifiers of every ``modifierGroup`` below ``root`` into its owner's
    ``modifiers`` (nested groups included), each carrying the group's own conditions and
    condition groups besides its own (all must hold, as within one modifier), so the limits
    and values they set are read like plain modifiers (a Bloatspawn's "at most one in this
    kill team" is a grouped modifier). Returns how many modifiers were moved."""

    def flatten(group: ET.Element, ns: str) -> list[ET.Element]:
        out: list[ET.Element] = []
        extra = [
            (kind, list(_children(group, kind, child)))
            for kind, child in (("conditions", "condition"), ("conditionGroups", "conditionGroup"))
        ]
        mods = list(_children(group, "modifiers", "modifier"))
        for sub in _children(group, "modifierGroups", "modifierGroup"):
            mods += flatten(sub, ns)
        for mod in mods:
            for kind, items in extra:
                if not items:
                    continue
                box = next((c for c in mod if _local(c.tag) == kind), None)
                if box is None:
                    box = ET.SubElement(mod, f"{ns}{kind}")
                box.extend(items)
            out.append(mod)
        return out

    moved = 0
    for owner in list(root.iter()):
        boxes = [c for c in owner if _local(c.tag) == "modifierGroups"]
        if not boxes or _local(owner.tag) == "modifierGroup":
            continue
        ns = owner.tag[: owner.tag.index("}") + 1] if owner.tag.startswith("{") else ""
        target = next((c for c in owner if _local(c.tag) == "modifiers"), None)
        if target is None:
            target = ET.SubElement(owner, f"{ns}modifiers")
        for box in boxes:
            for group in [g for g in box if _local(g.tag) == "modifierGroup"]:
                found = flatten(group, ns)
                target.extend(found)
                moved += len(found)
            owner.remove(box)
    return moved


def _leader_upgrade(ctx: _Context, cat: ET.Element, selection: Selection) -> Selection:
    """When no datacard is a LEADER but the force entry counts a Leader, the leader is an
    upgrade one of the operatives takes (Strike Force Justian): the roster is the Operative
    count alone, not that count and a leader (``rules/KT21.md`` 4.1); reported."""
    if selection.leader or selection.size == (1, 20):
        return selection
    lo = hi = None
    for force in _children(cat, "forceEntries", "forceEntry"):
        for link in _children(force, "categoryLinks", "categoryLink"):
            name = ctx.categories.get(link.get("targetId", ""), link.get("name", ""))
            if name.strip().upper() != "LEADER":
                continue
            for c in _children(link, "constraints", "constraint"):
                if c.get("field") == "selections" and c.get("type") == "min":
                    lo = _number(c.get("value"))
                elif c.get("field") == "selections" and c.get("type") == "max":
                    hi = _number(c.get("value"))
    if lo is None and hi is None:
        return selection
    size = (
        max(1, selection.size[0] - (lo or 1)),
        max(1, selection.size[1] - (hi or 1)),
    )
    ctx.issue(
        "selection",
        f"no datacard is a LEADER: the leader is an upgrade an operative takes (not "
        f"modelled); the roster is {size[0]} to {size[1]} operatives, not one more",
        "unsupported",
    )
    return attrs.evolve(selection, size=(min(size), max(size)))


def _fire_teams(ctx: _Context, cat: ET.Element) -> None:
    """Report a catalogue of several force entries (the Compendium's fire teams,
    ``rules/KT21.md`` 4.1): their operatives make one team and their limits are read
    together; choosing the fire teams of a kill team is not modelled."""
    names = [
        " ".join(f.get("name", "").split()) for f in _children(cat, "forceEntries", "forceEntry")
    ]
    if len(names) > 1:
        shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
        ctx.issue(
            "fire teams",
            f"{len(names)} force entries ({shown}): their operatives are one team and their "
            "limits are read together; choosing a kill team's fire teams is not modelled",
            "unsupported",
        )


def kt21_team_id(name: str) -> str:
    """The id of the KT21 team called ``name`` in a catalogue (module docstring):
    ``"Kasrkin"`` -> ``"kt21_kasrkin"``, ``"Legionary"`` -> ``"kt21_legionaries"``."""
    base = safe_team_id(name)
    return TEAM_IDS.get(base, safe_team_id(f"kt21 {name}"))


_SHAPE_GLYPHS = str.maketrans({"⬛": "■", "◼": "■", "◾": "■", "⚫": "●", "⬠": "⬟", "⭘": "○"})
"""Glyphs the catalogues print for the KT21 shapes that are spelt otherwise in
:data:`engine.dice.kt21_rules.SHAPES` (``Rng ⬛`` is ``Rng ■``, 3"): the same shape, so the
same distance (``rules/KT21.md`` 4.1)."""

_KNOWN_RULES = frozenset(
    n.lower() for n in (*FLAG_RULES, *NUMBER_RULES, *THRESHOLD_RULES, *DISTANCE_RULES, "Range")
)
_TEAM_RULE_NAME = re.compile(r"[A-Za-z][A-Za-z' -]{0,59}")
"""An unknown token kept as a team rule: a plain name of letters (no value, no shape)."""


def shapes_normalised(text: str) -> str:
    """``text`` with the catalogues' other shape glyphs written as the ones the KT21 rules
    read (:data:`_SHAPE_GLYPHS`): ``'Rng ⬛'`` -> ``'Rng ■'`` (``rules/KT21.md`` 4.1)."""
    return text.translate(_SHAPE_GLYPHS)


def _kt21_rules(ctx: _Context, where: str, text: str) -> Kt21WeaponRules:
    """The KT21 rules of an SR + ``!`` string (module docstring): a token naming no KT21 rule
    of ``rules/KT21.md`` 12 is kept as a team rule ``Name*`` (reported: the engine reports
    such a rule as not implemented when it is played); a malformed known rule or a token
    that is no name is reported and dropped."""
    found: list[Kt21Rule] = []
    for token in split_rule_tokens(shapes_normalised(text)):
        if token.strip() in ("", "-"):
            continue
        try:
            found.extend(parse_kt21_weapon_rules(token))
        except WeaponRuleError as exc:
            name = " ".join(token.split())
            first = name.split(" ")[0].lower()
            if _TEAM_RULE_NAME.fullmatch(name) and first not in _KNOWN_RULES:
                found.extend(parse_kt21_weapon_rules(f"{name}*"))
                ctx.issue(
                    f"{where}: rules",
                    f"{_cut(name)} is no common KT21 rule (rules/KT21.md 12): kept as the "
                    f"team rule '{name}*' (not implemented: reported when played)",
                )
                continue
            ctx.issue(f"{where}: rules", f"rule {_cut(token)} dropped: {exc}", "skipped")
    return Kt21WeaponRules(tuple(found))


def _split_kt21_name(raw: str) -> tuple[str, str, str | None]:
    """``'⌖ Plasma gun - Supercharge'`` -> ``('Plasma gun', 'Supercharge', 'ranged')`` (the
    KT24 form ``'Name (profile)'`` is read too)."""
    name, profile, kind = _split_weapon_name(raw)
    if not profile and " - " in name:
        name, _, profile = name.partition(" - ")
    return name.strip(), profile.strip(), kind


def _with_categories(ctx: _Context, anc: tuple[str, ...]) -> tuple[str, ...]:
    """The ids of the entries above a profile and of the categories they belong to: a
    profile's modifier "if an instance of the Sergeant category" holds on the datacard of a
    Sergeant (the catalogues write the leader's better WS/BS so)."""
    cats = (
        link.get("targetId", "")
        for a in anc
        if (entry := ctx.index.get(a)) is not None
        for link in _children(entry, "categoryLinks", "categoryLink")
    )
    return (*anc, *(c for c in cats if c))


def _add_weapon21(
    ctx: _Context, op: _RawOperative, profile: ET.Element, anc: tuple[str, ...]
) -> None:
    """Read one KT21 weapon profile (A, WS/BS, D, SR, !) into ``op`` (module docstring)."""
    raw_name = profile.get("name", "")
    where = f"operative {op.name!r}: weapon profile {raw_name!r}"
    values = _characteristics(profile, ctx.weapons_type)
    _apply_modifiers(ctx, profile, values, _with_categories(ctx, anc))
    wname, pname, kind = _split_kt21_name(raw_name)
    if all(values.get(k, "-") in ("-", "") for k in ("A", "WS/BS", "D")):
        ctx.issue(where, "header of a weapon with several profiles: its profiles are read")
        if kind is not None:
            op.weapons.setdefault(wname, (kind, {}))
        return
    try:
        attacks = _int(values.get("A", ""), "A")
        hit = _threshold(values.get("WS/BS", ""), "WS/BS")
        normal, crit = _damage(values.get("D", ""))
    except ValueError as exc:
        ctx.issue(where, f"profile skipped: {exc}", "skipped")
        return
    text = ", ".join(
        v for v in (values.get("SR", "").strip(), values.get("!", "").strip()) if v not in ("", "-")
    )
    if len(text) > _MAX_RULES_CHARS:
        ctx.issue(where, f"SR/! of {len(text)} characters: rules dropped", "skipped")
        text = ""
    rules = _kt21_rules(ctx, where, text)
    known = op.weapons.get(wname)
    key = wname
    if kind is None:
        if any(rules.has(r) for r in _RANGED_ONLY):
            kind, why = "ranged", "from its rules"
        elif known is not None:
            kind, why = known[0], "from its other profiles"
        else:
            kind, why = "melee", "(no ranged rule)"
        ctx.issue(where, f"no {RANGED_MARK}/{MELEE_MARK} marker: kind inferred as {kind} {why}")
    elif known is not None and known[0] != kind:
        # "⌖ Guardian spear" and "⚔ Guardian spear": a ranged and a melee weapon of one
        # name (each attack picks among its own kind), not one weapon of two kinds.
        key = f"{wname}{_KIND_SEP}{kind}"
    wprofile = WeaponProfile(pname, attacks, hit, normal, crit, kt21_rules=rules)
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


def _is_reference(ctx: _Context, entry: ET.Element) -> bool:
    """Whether ``entry`` is a reference or configuration card (not an operative)."""
    for link in _children(entry, "categoryLinks", "categoryLink"):
        name = ctx.categories.get(link.get("targetId", ""), link.get("name", ""))
        if link.get("primary") == "true" and name.strip().upper() in _REFERENCE_CATEGORIES:
            return True
    return False


def _invulnerable(entries: list[ET.Element]) -> int:
    """The Invulnerable Save x+ an operative's entries link to (0 when none)."""
    for entry in entries:
        for link in _children(entry, "infoLinks", "infoLink"):
            m = _INVULNERABLE.fullmatch(link.get("name", ""))
            if m is not None and link.get("type") == "rule":
                return int(m.group(1))
    return 0


def _finish_operative21(
    ctx: _Context, op: _RawOperative, entries: list[ET.Element]
) -> Operative | None:
    """The datacard of ``op`` from its KT21 operative profile (M, APL, GA, DF, SV, W)."""
    where = f"operative {op.name!r}"
    values = _characteristics(op.profile, ctx.operative_type)
    try:
        apl = _int(values.get("APL", ""), "APL")
        group = _int(values.get("GA", ""), "GA")
        defence = _int(values.get("DF", ""), "DF")
        save = _threshold(values.get("SV", ""), "SV")
        wounds = _int(values.get("W", ""), "W")
        move = _shape_inches(shapes_normalised(values.get("M", "")))
    except ValueError as exc:
        ctx.issue(where, f"operative skipped: {exc}", "skipped")
        return None
    weapons = tuple(
        Weapon(key.partition(_KIND_SEP)[0], kind, tuple(profiles.values()))
        for key, (kind, profiles) in op.weapons.items()
        if profiles
    )
    if not weapons:
        ctx.issue(where, "no weapon profiles found")
    abilities = []
    for ability in op.abilities:
        if ability.name.startswith("*") or ability.name.endswith("*"):
            rule = ability.name.strip("* ")
            ctx.issue(
                where,
                f"ability {ability.name!r} explains the team weapon rule '{rule}*': kept on "
                "the weapon, not as an ability",
            )
        else:
            abilities.append(ability)
    for entry in entries:
        for p, _ in _walk_profiles(ctx, entry, set(), ()):
            if p.get("typeName") == "Psychic Power":
                ctx.issue(
                    where,
                    f"psychic power {' '.join(p.get('name', '').split())!r}: not read (its "
                    "weapon profile, if any, is)",
                    "unsupported",
                )
    card = Operative(
        op.name,
        tuple(op.keywords),
        apl,
        move,
        save,
        wounds,
        DEFAULT_BASE_MM,
        weapons,
        tuple(abilities),
        tuple(op.actions),
        defence=defence,
        group_activation=group,
        invulnerable=_invulnerable(entries),
    )
    problem = operative_problem(card)
    if problem is not None:
        ctx.issue(where, f"operative skipped: {problem}", "skipped")
        return None
    return card


def _team_name(cat: ET.Element, path: Path) -> str:
    name = cat.get("name") or path.stem
    return re.sub(r"^2021\s*-\s*", "", name).strip()


def _read_catalogue21(
    path: Path, cat: ET.Element, gst: ET.Element | None, issues: list[ImportIssue]
) -> Team | None:
    """Build one KT21 team from a parsed catalogue; issues are appended to ``issues``.

    Raises:
        BsDataError: the team is outside the limits of :mod:`engine.teams.model`.
    """
    name = _team_name(cat, path)
    op_type, wp_type = _read_profile_types(gst)
    _info_group_links(cat, gst)
    _modifier_groups_flattened(cat)
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
    _prune(ctx, cat)
    _fire_teams(ctx, cat)
    raw: dict[str, _RawOperative] = {}
    for container in ("selectionEntries", "sharedSelectionEntries"):
        for entry in _children(cat, container, "selectionEntry"):
            profile = next(
                (p for p in _own_profiles(ctx, entry) if ctx.is_type(p, ctx.operative_type)),
                None,
            )
            if profile is None:
                continue
            if _is_reference(ctx, entry):
                ctx.issue(f"entry {entry.get('name', '')!r}", "reference card: not an operative")
                continue
            op_name = " ".join(profile.get("name", "").split())
            op = raw.get(op_name)
            if op is None:
                op = raw[op_name] = _RawOperative(op_name, profile, [], [], {}, [], [])
            op.entry_ids.append(entry.get("id", ""))
            _collect(ctx, op, entry, _add_weapon21)
    operatives = [
        o
        for o in (
            _finish_operative21(ctx, r, [ctx.index[e] for e in r.entry_ids]) for r in raw.values()
        )
        if o is not None
    ]
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
    selection = _leader_upgrade(
        ctx, cat, _read_selection(ctx, cat, gst, operatives, raw, selectors)
    )
    ctx.issue(
        "base sizes",
        f"BattleScribe has no base sizes: every operative uses {DEFAULT_BASE_MM:g} mm",
        "unsupported",
    )
    ctx.issue(
        "ploys",
        "BattleScribe has no ploys: the team's strategic and tactical ploys are not imported",
        "unsupported",
    )
    narrative = sorted(
        {
            " ".join(g.get("name", "").split())
            for g in cat.iter()
            if _local(g.tag) == "selectionEntryGroup"
            and g.get("name", "").split()[:1] in (["Specialism"], ["Battle"])
        }
    )
    if narrative:
        ctx.issue(
            "narrative play",
            f"{', '.join(narrative)}: narrative play options, not read",
            "unsupported",
        )
    faction = _faction(name, operatives)
    operatives = [
        attrs.evolve(o, keywords=(faction, *(k for k in o.keywords if k != faction)))
        if faction in o.keywords
        else o
        for o in operatives
    ]
    team_rules = [
        Ability(" ".join(r.get("name", "").split()), source_ref=r.get("id"))
        for r in _children(cat, "rules", "rule")
    ]
    for rule in [r for r in team_rules if r.name.startswith("*") or r.name.endswith("*")]:
        ctx.issue(
            "team ability",
            f"{rule.name!r} explains the team weapon rule '{rule.name.strip('* ')}*': kept on "
            "the weapon, not as a team ability",
        )
    abilities = _named(
        (r for r in team_rules if not (r.name.startswith("*") or r.name.endswith("*"))),
        ctx,
        "team ability",
    )
    equipment = _named(_equipment(cat), ctx, "equipment")
    revision = cat.get("revision")
    dataslate = f"KT21 catalogue revision {revision}" if revision else "KT21"
    issues.extend(ctx.issues)
    built = Team(
        id=kt21_team_id(name),
        name=name,
        faction=faction,
        archetypes=(),
        operatives=tuple(operatives),
        selection=selection,
        default_roster=(),
        provenance=Provenance("bsdata", dataslate, None),
        equipment=equipment,
        abilities=abilities,
        edition="kt21",
    )
    problem = team_problem(built)
    if problem is not None:
        raise BsDataError(f"{path}: team {_cut(built.id)}: {problem}")
    return built


def _slug_of(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _matches(name: str, wanted: str) -> bool:
    return (
        wanted.lower() in name.lower()
        or _slug_of(wanted) == _slug_of(name)
        or wanted.lower() == kt21_team_id(name)
    )


def import_bsdata21(path: str | Path, team: str | None = None) -> ImportResult:
    """Import Kill Team 2021 teams from BSData/wh40k-killteam (module docstring).

    Args:
        path: a checkout of the repository (a folder holding ``2021 - *.cat`` catalogues and
            ``2021 - Kill Team.gst``) or one ``.cat`` file (the ``.gst`` is looked for beside
            it; without one, profiles are matched by type name and that is reported).
        team: keep only teams whose name contains this (case-insensitive), whose slug
            equals its slug, or whose id it is (``kt21_kasrkin``); ``None`` imports every
            catalogue.

    Returns:
        The teams (``edition = "kt21"``) and every issue met; each refused catalogue is one
        ``skipped`` issue with its reason (unreadable XML, another game system, no
        operatives, outside the limits of :mod:`engine.teams.model`).

    Raises:
        FileNotFoundError: if ``path`` does not exist or holds no ``2021 - *.cat``.
        BsDataError: when no team loads and a catalogue was refused as unreadable or out of
            limits (the first such problem, naming the file).
    """
    root = Path(path)
    if root.is_file():
        cats = [root]
        folder = root.parent
    elif root.is_dir():
        cats = sorted(root.glob("2021 - *.cat"))
        folder = root
    else:
        raise FileNotFoundError(f"no BSData checkout or catalogue at {str(root)!r}")
    if not cats:
        raise FileNotFoundError(f"no '2021 - *.cat' catalogues in {str(root)!r}")
    issues: list[ImportIssue] = []
    gst_path = folder / GAME_SYSTEM
    gst: ET.Element | None = None
    if not gst_path.is_file():
        issues.append(
            ImportIssue(
                "(dataset)",
                str(folder),
                f"no {GAME_SYSTEM!r} game system found: profile types matched by name",
            )
        )
    else:
        try:
            gst = _parse_xml(gst_path)
        except BsDataError as exc:
            issues.append(ImportIssue("(dataset)", gst_path.name, str(exc)))
    teams: list[Team] = []
    unreadable: list[str] = []
    for cat_path in cats:
        name = re.sub(r"^2021\s*-\s*", "", cat_path.stem)
        if team is not None and not _matches(name, team):
            continue
        try:
            cat = _parse_xml(cat_path)
        except BsDataError as exc:
            issues.append(ImportIssue(name, cat_path.name, str(exc), "skipped"))
            unreadable.append(str(exc))
            continue
        if gst is not None and cat.get("gameSystemId") != gst.get("id"):
            issues.append(
                ImportIssue(
                    name,
                    cat_path.name,
                    f"refused: its game system {_cut(cat.get('gameSystemId', ''))} is not "
                    f"{GAME_SYSTEM!r} ({_cut(gst.get('id', ''))})",
                    "skipped",
                )
            )
            continue
        if cat.get("library") == "true":
            issues.append(
                ImportIssue(
                    name, cat_path.name, "refused: a library catalogue, not a team", "skipped"
                )
            )
            continue
        try:
            loaded = _read_catalogue21(cat_path, cat, gst, issues)
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
    """The one-line refusals of an :func:`import_bsdata21` result: each ``skipped`` issue
    whose place is a catalogue file (another game system, a library, unreadable XML, no
    operative, outside the team limits), one per refused catalogue."""
    return tuple(i for i in result.issues if i.kind == "skipped" and i.where.endswith(".cat"))
