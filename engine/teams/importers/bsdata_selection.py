"""Wargear options and selection limits of a BattleScribe catalogue (``rules/KT24.md`` 1.2,
2.2, 7) for the BattleScribe importers of both editions
(:mod:`engine.teams.importers.bsdata_common`; the KT24 module docstring of
:mod:`engine.teams.importers.bsdata` says how they are read).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from engine.teams.importers.bsdata_xml import (
    _children,
    _Context,
    _cut,
    _local,
    _number,
    _own_profiles,
    _RawOperative,
    _split_weapon_name,
    _walk_profiles,
)
from engine.teams.importers.options import (
    dedupe,
    flatten_slots,
    fold_fixed,
    make_option,
    weapons_in_no_option,
)
from engine.teams.model import (
    LoadoutOption,
    LoadoutSlot,
    Operative,
    Selection,
    format_entry,
)

__all__: list[str] = []


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
