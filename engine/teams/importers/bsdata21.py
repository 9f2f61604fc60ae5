"""Importer for the Kill Team 2021 catalogues of BSData/wh40k-killteam (``rules/KT21.md`` 4.1,
decision 8): ``2021 - *.cat`` with the ``2021 - Kill Team.gst`` game system.

The import is the one shared with the KT24 importer
(:mod:`engine.teams.importers.bsdata_common`; the KT24 module docstring of
:mod:`engine.teams.importers.bsdata` says how entries, links, wargear options and selection
limits are read, and how files are read safely); this module is the KT21 reading
(:class:`Kt21Catalogues`), what differs being the KT21 datacard:

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
  ``infoLink`` of type ``infoGroup``) are the datacard's own; groups are followed within
  the bounds of following entries (100 deep, 500,000 visits per catalogue), past which the
  catalogue is refused naming the group.
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
    _MAX_WALK_DEPTH,
    _MAX_WALK_STEPS,
    MELEE_MARK,
    RANGED_MARK,
    BsDataError,
    _children,
    _Context,
    _cut,
    _int,
    _local,
    _number,
    _RawOperative,
    _split_weapon_name,
    _threshold,
    _walk_profiles,
)
from engine.teams.model import (
    Ability,
    Selection,
    WeaponProfile,
    safe_team_id,
)

__all__ = [
    "GAME_SYSTEM",
    "KT21",
    "TEAM_IDS",
    "Kt21Catalogues",
    "import_bsdata21",
    "kt21_team_id",
    "refused_catalogues",
]

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


_INVULNERABLE = re.compile(r"\s*Invulnerable\s+Save\s+([2-6])\s*\+\s*", re.IGNORECASE)


def _info_group_links(cat: ET.Element, gst: ET.Element | None) -> int:
    """Make the profiles of info groups visible to the entries that hold or link them: each
    ``infoGroup`` child of an element and each ``infoLink`` of type ``infoGroup`` (to the
    catalogue's or the game system's group) becomes ``infoLink``s of type ``profile`` to the
    group's profiles, nested groups included, so their abilities and unique actions are read
    like the entry's own (``rules/KT21.md`` 4.1). Returns how many profiles were linked.

    Raises:
        BsDataError: groups nested or linked more than ``_MAX_WALK_DEPTH`` deep, or more
            than ``_MAX_WALK_STEPS`` groups and profiles visited in the catalogue (the
            bounds of following entries), naming the group.
    """
    steps = [0]
    groups = {
        g.get("id", ""): g
        for root in (r for r in (gst, cat) if r is not None)
        for g in root.iter()
        if _local(g.tag) == "infoGroup" and g.get("id")
    }

    def profiles(group: ET.Element, seen: set[str]) -> list[str]:
        steps[0] += 1 + sum(len(box) for box in group)
        if len(seen) > _MAX_WALK_DEPTH or steps[0] > _MAX_WALK_STEPS:
            raise BsDataError(
                f"info groups nested or linked more than {_MAX_WALK_DEPTH} deep or more than "
                f"{_MAX_WALK_STEPS} visits (at {_cut(group.get('name', ''))})"
            )
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


def _explains_rule(name: str) -> bool:
    """Whether an ability or team rule called ``name`` explains a team weapon rule
    (``*Proximity``, module docstring)."""
    return name.startswith("*") or name.endswith("*")


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


class Kt21Catalogues(PriorEdition):
    """The KT21 reading of the catalogues (module docstring, ``rules/KT21.md`` 4.1):
    ``2021 - *.cat`` of the ``2021 - Kill Team.gst`` game system, M, APL, GA, DF, SV and W,
    A, WS/BS, D, SR and ``!``."""

    year = "2021"
    edition = "kt21"
    weapon_stats = ("A", "WS/BS", "D")
    rules_label = "SR/!"

    def team_id(self, name: str) -> str:
        """:func:`kt21_team_id`."""
        return kt21_team_id(name)

    def prepare(self, cat: ET.Element, gst: ET.Element | None) -> None:
        """Info groups read as the entries' own profiles, grouped modifiers as plain ones
        (:func:`_info_group_links`, :func:`_modifier_groups_flattened`).

        Raises:
            BsDataError: info groups linked too deep or too many (naming the group).
        """
        _info_group_links(cat, gst)
        _modifier_groups_flattened(cat)

    def prepare_context(self, ctx: _Context, cat: ET.Element) -> None:
        """Groups not carried pruned, fire teams reported (:func:`_prune`,
        :func:`_fire_teams`)."""
        _prune(ctx, cat)
        _fire_teams(ctx, cat)

    def skips_entry(self, ctx: _Context, entry: ET.Element) -> bool:
        """A reference or configuration card is no operative (reported)."""
        if _is_reference(ctx, entry):
            ctx.issue(f"entry {entry.get('name', '')!r}", "reference card: not an operative")
            return True
        return False

    def modifier_ancestors(self, ctx: _Context, anc: tuple[str, ...]) -> tuple[str, ...]:
        """The entries above the profile and their categories (:func:`_with_categories`)."""
        return _with_categories(ctx, anc)

    def split_weapon_name(self, raw: str) -> tuple[str, str, str | None]:
        """:func:`_split_kt21_name`."""
        return _split_kt21_name(raw)

    def is_header(
        self,
        ctx: _Context,
        op: _RawOperative,
        where: str,
        weapon: tuple[str, str | None],
        values: dict[str, str],
    ) -> bool:
        """A profile whose A, WS/BS and D are ``-`` heads a weapon of several profiles: not
        read (reported); its marker still gives the weapon's kind."""
        if not all(values.get(k, "-") in ("-", "") for k in self.weapon_stats):
            return False
        ctx.issue(where, "header of a weapon with several profiles: its profiles are read")
        wname, kind = weapon
        if kind is not None:
            op.weapons.setdefault(wname, (kind, {}))
        return True

    def rules_text(self, values: dict[str, str]) -> str:
        """The SR and ``!`` columns joined (``-`` is empty)."""
        return ", ".join(
            v
            for v in (values.get("SR", "").strip(), values.get("!", "").strip())
            if v not in ("", "-")
        )

    def weapon_profile(
        self, ctx: _Context, op: _RawOperative, read: WeaponRead
    ) -> tuple[str, str, WeaponProfile]:
        """The profile with its KT21 rules (:func:`_kt21_rules`); without a marker the kind
        is ranged when a ranged-only rule says so, else the kind of the weapon's other
        profiles, else melee (reported); a ranged and a melee weapon of one name are two
        weapons (:data:`~engine.teams.importers.bsdata_common.KIND_SEP`)."""
        rules = _kt21_rules(ctx, read.where, read.text)
        known = op.weapons.get(read.name)
        key, kind = read.name, read.kind
        if kind is None:
            if any(rules.has(r) for r in _RANGED_ONLY):
                kind, why = "ranged", "from its rules"
            elif known is not None:
                kind, why = known[0], "from its other profiles"
            else:
                kind, why = "melee", "(no ranged rule)"
            ctx.issue(
                read.where,
                f"no {RANGED_MARK}/{MELEE_MARK} marker: kind inferred as {kind} {why}",
            )
        elif known is not None and known[0] != kind:
            # "⌖ Guardian spear" and "⚔ Guardian spear": a ranged and a melee weapon of one
            # name (each attack picks among its own kind), not one weapon of two kinds.
            key = f"{read.name}{KIND_SEP}{kind}"
        return key, kind, WeaponProfile(read.profile, *read.numbers, kt21_rules=rules)

    def statline(self, values: dict[str, str], entries: list[ET.Element]) -> Statline:
        """APL, GA, DF, SV, W and M (shapes, held in inches), and the invulnerable save an
        entry links to (``rules/KT21.md`` 4.1, 10.3).

        Raises:
            ValueError: naming the characteristic that does not read.
        """
        return Statline(
            apl=_int(values.get("APL", ""), "APL"),
            group_activation=_int(values.get("GA", ""), "GA"),
            defence=_int(values.get("DF", ""), "DF"),
            save=_threshold(values.get("SV", ""), "SV"),
            wounds=_int(values.get("W", ""), "W"),
            move=_shape_inches(shapes_normalised(values.get("M", ""))),
            invulnerable=_invulnerable(entries),
        )

    def card_abilities(
        self, ctx: _Context, where: str, op: _RawOperative, entries: list[ET.Element]
    ) -> tuple[Ability, ...]:
        """The abilities but those explaining a team weapon rule (``*Proximity``: kept on
        the weapon, reported); psychic powers below the entries are reported, not read."""
        abilities = []
        for ability in op.abilities:
            if _explains_rule(ability.name):
                rule = ability.name.strip("* ")
                ctx.issue(
                    where,
                    f"ability {ability.name!r} explains the team weapon rule '{rule}*': kept "
                    "on the weapon, not as an ability",
                )
            else:
                abilities.append(ability)
        for entry in entries:
            for p, _ in _walk_profiles(ctx, entry, set(), ()):
                if p.get("typeName") == "Psychic Power":
                    ctx.issue(
                        where,
                        f"psychic power {' '.join(p.get('name', '').split())!r}: not read "
                        "(its weapon profile, if any, is)",
                        "unsupported",
                    )
        return tuple(abilities)

    def selection(self, ctx: _Context, cat: ET.Element, selection: Selection) -> Selection:
        """A leader taken as an upgrade is no extra operative (:func:`_leader_upgrade`)."""
        return _leader_upgrade(ctx, cat, selection)

    def report_catalogue(self, ctx: _Context, cat: ET.Element) -> None:
        """Ploys (BattleScribe has none) and narrative play groups are reported."""
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

    def team_rules(self, ctx: _Context, rules: list[Ability]) -> list[Ability]:
        """The rules but those explaining a team weapon rule (kept on the weapon,
        reported)."""
        for rule in (r for r in rules if _explains_rule(r.name)):
            ctx.issue(
                "team ability",
                f"{rule.name!r} explains the team weapon rule '{rule.name.strip('* ')}*': "
                "kept on the weapon, not as a team ability",
            )
        return [r for r in rules if not _explains_rule(r.name)]


KT21 = Kt21Catalogues()
"""The KT21 reading of BSData catalogues."""


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
    return import_catalogues(KT21, path, team)
