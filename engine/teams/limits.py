"""Bounds on what a team may hold, and the checks that apply them (DESIGN.md principle 6:
nonsense is rejected at load, naming the field, instead of failing later or playing
silently). The bounds are far
above every real team (the six built-in teams and the community datasets: APL 2-3, Move
5-7", Save 3+-5+, Wounds 5-18, bases 25-50 mm, Attacks 3-6, damage at most 7, at most 16
operative types, 8 weapons per datacard, rosters of at most 12):

=========================  ============================================================
stat / list                accepted
=========================  ============================================================
APL                        a whole number from 1 to 6
Move                       a number of inches from 1 to 20
Save, Hit                  a threshold from 2+ to 6+
Wounds                     a whole number from 1 to 50
base size                  a number of millimetres from 20 to 200
Attacks                    a whole number from 1 to 20
damage (normal, critical)  whole numbers from 0 to 20
ploy CP                    a whole number from 0 to 9
action AP                  a whole number from 0 to 6
DF, GA (KT21)              whole numbers from 1 to 6 and 1 to 10
invulnerable save (KT21)   a threshold from 2+ to 6+, or none (0)
edition                    one of :data:`EDITIONS`; a KT24 team has no KT21 datacard values
                           (DF, GA, invulnerable save, KT21 weapon rules) and a KT21 team no
                           KT24 weapon rules (``rules/KT21.md`` 4.1)
weapon-rule numbers        counts and damage 0 to 20, distances 0 to 100 inches
team id                    ``[a-z][a-z0-9_]*``, at most 40 characters (ASCII: operative
                           ids are made from it and the action notation must read them)
names                      1 to 200 characters, no control characters; unique where the
                           engine looks them up (:func:`duplicate_problem`)
other text                 at most 2000 characters (summaries, source refs, provenance)
operative types            at most :data:`MAX_OPERATIVE_TYPES` per team
roster                     at most :data:`MAX_ROSTER_OPERATIVES` operatives
weapons                    at most :data:`MAX_WEAPONS` per datacard or equipment, at most
                           :data:`MAX_PROFILES` profiles each, at most
                           :data:`MAX_WEAPON_RULES` weapon rules per profile
other lists                at most :data:`MAX_LIST_ITEMS` entries (keywords, abilities,
                           actions, ploys, equipment, limits, loadout options...), at most
                           :data:`MAX_LOADOUT_SLOTS` loadout slots per datacard
=========================  ============================================================

:func:`team_problem`, :func:`operative_problem`, :func:`weapon_problem` and
:func:`profile_problem` check a team or a part of one against them;
:func:`safe_team_id` derives a legal id from any name (the importers use it).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import attrs

from engine.dice.kt21_rules import DISTANCE_RULES as KT21_DISTANCE_RULES
from engine.dice.kt21_rules import Kt21WeaponRules
from engine.dice.rules import WeaponRules
from engine.names import slug
from engine.teams.datacards import WEAPON_KINDS, Ability, Operative, Weapon, WeaponProfile
from engine.teams.kt18_cards import kt18_profile_problem, kt18_weapon_problem
from engine.teams.roster import Selection, Team
from engine.teams.rule_text import key_problem

__all__ = [
    "EDITIONS",
    "MAX_LIST_ITEMS",
    "MAX_LOADOUT_SLOTS",
    "MAX_NAME_CHARS",
    "MAX_OPERATIVE_TYPES",
    "MAX_PROFILES",
    "MAX_ROSTER_OPERATIVES",
    "MAX_TEAM_ID_CHARS",
    "MAX_TEXT_CHARS",
    "MAX_WEAPONS",
    "MAX_WEAPON_RULES",
    "STAT_LIMITS",
    "brief",
    "duplicate_problem",
    "edition_problem",
    "name_key",
    "name_problem",
    "operative_problem",
    "profile_problem",
    "rule_key",
    "ruleset_problem",
    "safe_team_id",
    "team_id_problem",
    "team_problem",
    "weapon_problem",
]

MAX_TEAM_ID_CHARS = 40
"""The longest team id."""
MAX_NAME_CHARS = 200
"""The longest name (team, operative type, weapon, profile, ability, ploy, option, keyword,
selector, roster entry)."""
MAX_TEXT_CHARS = 2000
"""The longest other text (summaries, source refs, implementation paths, provenance)."""
MAX_OPERATIVE_TYPES = 100
"""The most operative types (datacards) a team may have."""
MAX_ROSTER_OPERATIVES = 50
"""The most operatives a roster (and a team's roster size) may have."""
MAX_WEAPONS = 50
"""The most weapons on one datacard or one equipment."""
MAX_PROFILES = 10
"""The most profiles of one weapon."""
MAX_WEAPON_RULES = 30
"""The most weapon rules of one profile."""
MAX_LIST_ITEMS = 200
"""The most entries of any other list of a team (keywords, abilities, unique actions, ploys,
equipment, archetypes, selection limits, loadout options of a slot, weapons of an option)."""
MAX_LOADOUT_SLOTS = 10
"""The most loadout slots (wargear choices) on one datacard."""

STAT_LIMITS: dict[str, tuple[int, int]] = {
    "apl": (1, 6),
    "move": (1, 20),
    "save": (2, 6),
    "wounds": (1, 50),
    "base_mm": (20, 200),
    "attacks": (1, 20),
    "hit": (2, 6),
    "normal_damage": (0, 20),
    "critical_damage": (0, 20),
    "cp": (0, 9),
    "ap": (0, 6),
    "defence": (1, 6),
    "group_activation": (1, 10),
    "invulnerable": (2, 6),
}
"""Inclusive ``(lowest, highest)`` of each datacard stat (module docstring); ``move`` and
``base_mm`` may be fractional, the others are whole numbers."""

EDITIONS = ("kt24", "kt21", "kt18")
"""The editions a team's datacards may be written for (``Team.edition``): each is the name
of the ruleset that plays them (``rules/KT21.md`` 4.1, decision 8)."""

_RULE_MAX_COUNT = 20
_RULE_MAX_INCHES = 100
_TEAM_ID = re.compile(r"[a-z][a-z0-9_]*")
_FRACTIONAL = {"move": "a number of inches", "base_mm": "a number of millimetres"}


def brief(value: Any) -> str:
    """``repr(value)`` cut to 40 characters (then ``...``) for an error message; an integer
    too long to print is named as such instead of raising ``ValueError``."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return "a number too large to print"
    return text if len(text) <= 40 else text[:40] + "..."


def _finite(value: int | float) -> bool:
    """Whether ``value`` is a finite number (any int is; ``math.isfinite`` overflows on a
    400-digit one)."""
    return isinstance(value, int) or math.isfinite(value)


def _stat_problem(field: str, value: Any) -> str | None:
    """What is wrong with ``value`` as stat ``field`` (:data:`STAT_LIMITS`), or ``None``."""
    lo, hi = STAT_LIMITS[field]
    if field in _FRACTIONAL:
        ok = (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and _finite(value)
            and lo <= value <= hi
        )
        what = f"{_FRACTIONAL[field]} from {lo} to {hi}"
    else:
        ok = isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi
        what = (
            f"a threshold from {lo}+ to {hi}+"
            if field in ("save", "hit", "invulnerable")
            else f"a whole number from {lo} to {hi}"
        )
    return None if ok else f"field {field!r}: must be {what}, got {brief(value)}"


def name_problem(field: str, value: Any, *, limit: int = MAX_NAME_CHARS) -> str | None:
    """What is wrong with ``value`` as a name (1 to ``limit`` characters, not only white
    space, no control characters), as ``"field 'name': must be 1 to 200 characters, got
    0"``; ``None`` when it is a legal name."""
    if not isinstance(value, str):
        return f"field {field!r}: must be a string, got {brief(value)}"
    if not value.strip() or len(value) > limit:
        return f"field {field!r}: must be 1 to {limit} characters, got {len(value)}"
    if any(unicodedata.category(ch) == "Cc" for ch in value):
        return f"field {field!r}: must not contain control characters, got {brief(value)}"
    return None


def _text_problem(field: str, value: Any) -> str | None:
    """What is wrong with ``value`` as optional text (``None`` or at most
    :data:`MAX_TEXT_CHARS` characters), or ``None``."""
    if value is None:
        return None
    if not isinstance(value, str):
        return f"field {field!r}: must be a string, got {brief(value)}"
    if len(value) > MAX_TEXT_CHARS:
        return f"field {field!r}: must be at most {MAX_TEXT_CHARS} characters, got {len(value)}"
    return None


def _count_problem(field: str, items: Any, most: int, what: str) -> str | None:
    """What is wrong with the length of ``items`` (at most ``most``), or ``None``."""
    if len(items) > most:
        return f"field {field!r}: at most {most} {what}, got {len(items)}"
    return None


def _first(*problems: str | None) -> str | None:
    return next((p for p in problems if p is not None), None)


def team_id_problem(team_id: Any) -> str | None:
    """What is wrong with ``team_id`` as a team id, or ``None`` when it is legal.

    A team id is ASCII ``[a-z][a-z0-9_]*`` of at most :data:`MAX_TEAM_ID_CHARS` characters:
    operative ids are made from its first letters (``KAS-1``, :mod:`engine.game.setup`) and
    the action notation reads ``[A-Za-z0-9]+-N`` only (``ñandu`` or ``---`` would give ids no
    record could replay).
    """
    if (
        not isinstance(team_id, str)
        or len(team_id) > MAX_TEAM_ID_CHARS
        or _TEAM_ID.fullmatch(team_id) is None
    ):
        return (
            "field 'id': must be a lower-case ASCII letter followed by lower-case letters, "
            f"digits or '_' (at most {MAX_TEAM_ID_CHARS} characters), got {brief(team_id)}"
        )
    return None


def safe_team_id(name: str) -> str:
    """A legal team id (:func:`team_id_problem`) made from any name: accents dropped
    (``Ñandú`` -> ``nandu``), lower case, every run of other characters one ``_``, prefixed
    ``team_`` when it would not start with a letter, cut to :data:`MAX_TEAM_ID_CHARS`.
    ``"Angels of Death"`` -> ``"angels_of_death"``; ``"---"`` -> ``"team"``."""
    ascii_text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_")
    if not slug:
        return "team"
    if not slug[0].isalpha():
        slug = f"team_{slug}"
    return slug[:MAX_TEAM_ID_CHARS].rstrip("_")


def _rules_problem(rules: WeaponRules) -> str | None:
    if len(rules) > MAX_WEAPON_RULES:
        return f"field 'rules': at most {MAX_WEAPON_RULES} weapon rules, got {len(rules)}"
    for rule in rules:
        cls: Any = type(rule)
        if not attrs.has(cls):
            continue
        for f in attrs.fields(cls):
            value = getattr(rule, f.name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue
            most = _RULE_MAX_INCHES if f.name == "distance" else _RULE_MAX_COUNT
            if not (_finite(value) and 0 <= value <= most):
                unit = " inches" if f.name == "distance" else ""
                return (
                    f"field 'rules': {rule.name}: must be from 0 to {most}{unit}, "
                    f"got {brief(value)}"
                )
    return None


def _kt21_rules_problem(rules: Kt21WeaponRules) -> str | None:
    if len(rules) > MAX_WEAPON_RULES:
        return f"field 'kt21_rules': at most {MAX_WEAPON_RULES} weapon rules, got {len(rules)}"
    for rule in rules:
        if rule.team:
            problem = name_problem("kt21_rules", rule.name)
            if problem is not None:
                return problem
            continue
        if rule.value is None:
            continue
        most = _RULE_MAX_INCHES if rule.name in KT21_DISTANCE_RULES else _RULE_MAX_COUNT
        if not (_finite(rule.value) and 0 <= rule.value <= most):
            unit = " inches" if rule.name in KT21_DISTANCE_RULES else ""
            return (
                f"field 'kt21_rules': {rule.name}: must be from 0 to {most}{unit}, "
                f"got {brief(rule.value)}"
            )
    return None


def profile_problem(profile: WeaponProfile) -> str | None:
    """The first thing wrong with a weapon profile under the limits (module docstring), as
    ``"field 'attacks': must be a whole number from 1 to 20, got 0"``; ``None`` if none."""
    return _first(
        None if profile.name == "" else name_problem("name", profile.name),
        *(
            _stat_problem(f, getattr(profile, f))
            for f in ("attacks", "hit", "normal_damage", "critical_damage")
        ),
        _rules_problem(profile.rules),
        _kt21_rules_problem(profile.kt21_rules),
    )


def weapon_problem(weapon: Weapon) -> str | None:
    """The first thing wrong with ``weapon`` under the limits (module docstring), as
    ``"profile 0: field 'attacks': ..."``; ``None`` if none."""
    problem = _first(
        name_problem("name", weapon.name),
        _count_problem("profiles", weapon.profiles, MAX_PROFILES, "profiles"),
    )
    if problem is not None:
        return problem
    if not weapon.profiles:
        return "field 'profiles': must list at least one profile"
    for i, p in enumerate(weapon.profiles):
        problem = profile_problem(p)
        if problem is not None:
            return f"profile {i}: {problem}"
    return None


def _ability_problem(ability: Ability, *, action: bool) -> str | None:
    return _first(
        name_problem("name", ability.name),
        *(_text_problem(f, getattr(ability, f)) for f in ("summary", "implementation")),
        _text_problem("source_ref", ability.source_ref),
        None if ability.ap is None and not action else _stat_problem("ap", ability.ap),
    )


def operative_problem(op: Operative) -> str | None:
    """The first thing wrong with datacard ``op`` under the limits (module docstring), as
    ``"field 'wounds': must be a whole number from 1 to 50, got 0"`` or ``"weapon 'X':
    profile 0: field 'attacks': ..."``; ``None`` when it is within them."""
    problem = _first(
        name_problem("name", op.name),
        *(_stat_problem(f, getattr(op, f)) for f in ("apl", "move", "save", "wounds", "base_mm")),
        *(_stat_problem(f, getattr(op, f)) for f in ("defence", "group_activation")),
        None if op.invulnerable == 0 else _stat_problem("invulnerable", op.invulnerable),
        _count_problem("keywords", op.keywords, MAX_LIST_ITEMS, "keywords"),
        *(name_problem("keywords", k) for k in op.keywords),
        _count_problem("weapons", op.weapons, MAX_WEAPONS, "weapons"),
        _count_problem("abilities", op.abilities, MAX_LIST_ITEMS, "abilities"),
        _count_problem("actions", op.actions, MAX_LIST_ITEMS, "unique actions"),
        _count_problem("loadouts", op.loadouts, MAX_LOADOUT_SLOTS, "loadout slots"),
    )
    if problem is not None:
        return problem
    for w in op.weapons:
        problem = weapon_problem(w)
        if problem is not None:
            return f"weapon {brief(w.name)}: {problem}"
    for kind, items in (("ability", op.abilities), ("action", op.actions)):
        for a in items:
            problem = _ability_problem(a, action=kind == "action")
            if problem is not None:
                return f"{kind} {brief(a.name)}: {problem}"
    for k, slot in enumerate(op.loadouts):
        problem = _first(
            None if slot.name == "" else name_problem("name", slot.name),
            _count_problem("options", slot.options, MAX_LIST_ITEMS, "options"),
            *(name_problem("name", o.name) for o in slot.options),
            *(
                _count_problem("weapons", o.weapons, MAX_LIST_ITEMS, "weapons")
                for o in slot.options
            ),
        )
        if problem is not None:
            return f"loadouts[{k}]: {problem}"
    return None


def _selection_problem(sel: Selection) -> str | None:
    lo, hi = sel.size
    most = MAX_ROSTER_OPERATIVES
    if not (1 <= lo <= hi <= most):
        return (
            f"field 'size': must be from 1 to {most} operatives, minimum first, "
            f"got {brief(lo)} to {brief(hi)}"
        )
    problem = _first(
        _count_problem("leader", sel.leader, MAX_LIST_ITEMS, "leader types"),
        _count_problem("limits", sel.limits, MAX_LIST_ITEMS, "limits"),
        _count_problem("keyword_limits", sel.keyword_limits, MAX_LIST_ITEMS, "limits"),
        _count_problem("combined_limits", sel.combined_limits, MAX_LIST_ITEMS, "limits"),
        _count_problem("weights", sel.weights, MAX_LIST_ITEMS, "weights"),
        _count_problem("minimums", sel.minimums, MAX_LIST_ITEMS, "minimums"),
    )
    if problem is not None:
        return problem
    for name in (*sel.leader, *(t for types, _ in sel.combined_limits for t in types)):
        problem = name_problem("leader or combined_limits", name)
        if problem is not None:
            return problem
    named = (
        [("limits", s, n) for s, n in sel.limits]
        + [("keyword_limits", k, n) for k, n in sel.keyword_limits]
        + [("minimums", s, n) for s, n in sel.minimums]
    )
    for field, name, n in named:
        problem = name_problem(field, name)
        if problem is None and not (0 <= n <= most):
            problem = f"field {field!r}: {brief(name)}: must be from 0 to {most}, got {brief(n)}"
        if problem is not None:
            return problem
    for name, w in sel.weights:
        problem = name_problem("weights", name)
        if problem is None and not (0 < w <= most and (2 * w) == int(2 * w)):
            problem = (
                f"field 'weights': {brief(name)}: must be a whole or half number of "
                f"selections from 0.5 to {most}, got {brief(w)}"
            )
        if problem is not None:
            return problem
    for types, n in sel.combined_limits:
        problem = _count_problem("combined_limits", types, MAX_LIST_ITEMS, "types")
        if problem is None and not (0 <= n <= most):
            problem = f"field 'combined_limits': must be from 0 to {most}, got {brief(n)}"
        if problem is not None:
            return problem
    return None


def team_problem(team: Team) -> str | None:
    """The first thing wrong with ``team`` under the limits (module docstring), with where
    it is (``"operative 'X': field 'wounds': must be ..."``, ``"field 'id': ..."``), or two
    of its entries with one name (:func:`duplicate_problem`); ``None`` when the team is
    within them. Cross-field rules (loadout options naming
    weapons, selectors naming types, a legal default roster) are checked by
    :func:`engine.teams.io.team_from_dict`."""
    problem = _first(
        team_id_problem(team.id),
        name_problem("name", team.name),
        _text_problem("faction", team.faction),
        _count_problem("archetypes", team.archetypes, MAX_LIST_ITEMS, "archetypes"),
        *(name_problem("archetypes", a) for a in team.archetypes),
        _count_problem("rule_texts", team.rule_texts, 4 * MAX_LIST_ITEMS, "rule texts"),
        *(key_problem(ref, key) for ref, key in team.rule_texts),
        _count_problem("operatives", team.operatives, MAX_OPERATIVE_TYPES, "operative types"),
        _count_problem("default_roster", team.default_roster, MAX_ROSTER_OPERATIVES, "entries"),
        *(name_problem("default_roster", e, limit=2 * MAX_NAME_CHARS) for e in team.default_roster),
        _count_problem("ploys", team.ploys, MAX_LIST_ITEMS, "ploys"),
        _count_problem("equipment", team.equipment, MAX_LIST_ITEMS, "equipment"),
        _count_problem("abilities", team.abilities, MAX_LIST_ITEMS, "abilities"),
        *(
            _text_problem(f"provenance.{f}", getattr(team.provenance, f))
            for f in ("source", "dataslate", "commit")
        ),
        _count_problem(
            "provenance.checked_against", team.provenance.checked_against, MAX_LIST_ITEMS, "entries"
        ),
    )
    if problem is not None:
        return problem
    if not team.operatives:
        return "field 'operatives': must list at least one operative type"
    problem = edition_problem(team)
    if problem is not None:
        return problem
    for op in team.operatives:
        problem = operative_problem(op)
        if problem is not None:
            return f"operative {brief(op.name)}: {problem}"
    problem = _selection_problem(team.selection)
    if problem is not None:
        return f"selection: {problem}"
    for p in team.ploys:
        problem = _first(
            name_problem("name", p.name),
            _stat_problem("cp", p.cp),
            *(_text_problem(f, getattr(p, f)) for f in ("summary", "implementation", "source_ref")),
        )
        if problem is not None:
            return f"ploy {brief(p.name)}: {problem}"
    for e in team.equipment:
        problem = _first(
            name_problem("name", e.name),
            *(_text_problem(f, getattr(e, f)) for f in ("summary", "implementation", "source_ref")),
            _count_problem("weapons", e.weapons, MAX_WEAPONS, "weapons"),
            *(
                None if (wp := weapon_problem(w)) is None else f"weapon {brief(w.name)}: {wp}"
                for w in e.weapons
            ),
        )
        if problem is not None:
            return f"equipment {brief(e.name)}: {problem}"
    for a in team.abilities:
        problem = _ability_problem(a, action=False)
        if problem is not None:
            return f"ability {brief(a.name)}: {problem}"
    return duplicate_problem(team)


def edition_problem(team: Team) -> str | None:
    """What is wrong with ``team``'s edition (one of :data:`EDITIONS`) or with a datacard
    value the edition does not have: a KT24 team with a KT21 DF, GA, invulnerable save or
    KT21 weapon rules, a KT21 team with KT24 weapon rules (``rules/KT21.md`` 4.1); ``None``
    when there is nothing wrong."""
    if team.edition not in EDITIONS:
        return f"field 'edition': must be {' or '.join(EDITIONS)}, got {brief(team.edition)}"
    kt18 = _kt18_problem(team)
    if kt18 is not None:
        return kt18
    kt21 = team.edition == "kt21"
    if not kt21:
        for op in team.operatives:
            for field, default in (("defence", 3), ("group_activation", 1), ("invulnerable", 0)):
                if getattr(op, field) != default:
                    return (
                        f"operative {brief(op.name)}: field {field!r} is a KT21 datacard "
                        'value: give the team "edition": "kt21" (rules/KT21.md 4.1)'
                    )
    for where, weapons in _carried(team):
        for w in weapons:
            for i, p in enumerate(w.profiles):
                if kt21 and p.rules:
                    return (
                        f"{where}: weapon {brief(w.name)}: profile {i}: field 'rules' holds "
                        "KT24 weapon rules: a KT21 team writes them in 'kt21_rules' "
                        "(rules/KT21.md 12)"
                    )
                if not kt21 and p.kt21_rules:
                    return (
                        f"{where}: weapon {brief(w.name)}: profile {i}: field 'kt21_rules' "
                        'holds KT21 weapon rules: give the team "edition": "kt21" '
                        "(rules/KT21.md 12)"
                    )
    return None


_V = TypeVar("_V")

_KT18_HINT = 'give the team "edition": "kt18" (rules/KT18.md 1.6)'


def _carried(team: Team) -> list[tuple[str, tuple[Weapon, ...]]]:
    """Who carries which weapons, as ``(where, weapons)``: each datacard, then each piece of
    equipment (``where`` names it as the problem messages do)."""
    carried = [(f"operative {brief(op.name)}", op.weapons) for op in team.operatives]
    carried += [(f"equipment {brief(e.name)}", e.weapons) for e in team.equipment]
    return carried


def _kt18_value_problem(
    kt18: bool, value: _V | None, check: Callable[[_V], str | None], needs: str, holds: str
) -> str | None:
    """The KT18 values ``value`` (a model's profile or a weapon's) of a team that is KT18
    (``kt18``) or not: ``needs`` when a KT18 team lacks them, ``holds`` (with the hint to give
    the team the KT18 edition) when another team has them, else ``check``'s problem with
    them, prefixed ``kt18: ``; ``None`` when there is none."""
    if kt18 and value is None:
        return needs
    if not kt18 and value is not None:
        return f"field 'kt18' holds {holds}: {_KT18_HINT}"
    if value is not None and (problem := check(value)) is not None:
        return f"kt18: {problem}"
    return None


def _kt18_problem(team: Team) -> str | None:
    """A KT18 team's datacards each carry KT18 values (``rules/KT18.md`` 1.7, 1.8), in
    bounds, and no other team's do."""
    kt18 = team.edition == "kt18"
    for op in team.operatives:
        problem = _kt18_value_problem(
            kt18,
            op.kt18,
            kt18_profile_problem,
            "a KT18 model needs its 'kt18' characteristics (rules/KT18.md 1.7)",
            "KT18 characteristics",
        )
        if problem is not None:
            return f"operative {brief(op.name)}: {problem}"
    for where, weapons in _carried(team):
        for w in weapons:
            for i, p in enumerate(w.profiles):
                at = f"{where}: weapon {brief(w.name)}: profile {i}"
                problem = _kt18_value_problem(
                    kt18,
                    p.kt18,
                    kt18_weapon_problem,
                    "a KT18 weapon needs its 'kt18' profile (rules/KT18.md 1.8)",
                    "a KT18 weapon profile",
                )
                if problem is not None:
                    return f"{at}: {problem}"
                if p.kt18 is not None and (p.kt18.type == "Melee") != (w.kind == "melee"):
                    return f"{at}: kt18: a Melee profile is a melee weapon and only it is"
    return None


def ruleset_problem(team: Team, ruleset: str, player: str = "") -> str | None:
    """Why ``team`` cannot play in a battle of ``ruleset`` (``"kt24"``, ``"kt21"``): its
    datacards are written for another edition (DF, GA and the weapon rules differ,
    ``rules/KT21.md`` 4.1); ``None`` when it can. The message names the player (when given),
    the team and both editions."""
    if team.edition == ruleset:
        return None
    who = f"player {player}'s team" if player else "team"
    return (
        f"{who} {brief(team.id)} ({team.name:.60}) has {team.edition.upper()} datacards: a "
        f"{ruleset.upper()} battle plays {ruleset.upper()} teams only (rules/KT21.md 4.1)"
    )


def name_key(name: str) -> str:
    """How the engine tells names apart: case and runs of white space ignored (the action
    notation reads names in lower case with single spaces: ``"Shoot KAS-1 bolt pistol"``;
    roster entries are stripped; loadout options and equipment match ignoring case)."""
    return " ".join(name.casefold().split())


def rule_key(name: str) -> str:
    """How the engine tells the names of team rules apart (abilities, unique actions, ploys,
    equipment): their rule ids are made of the name's slug (:func:`engine.names.slug`:
    case, punctuation and spacing ignored, ``"Dark Gods' Favour"`` -> ``dark_gods_favour``)."""
    return slug(name)


def _duplicates(
    field: str, names: Sequence[str | None], key: Any = name_key, also: str = ""
) -> str | None:
    """The first two of ``names`` (the entries of list ``field``, in file order) that ``key``
    makes equal, as ``"operatives[2] and operatives[6] are both named 'Gunner'"`` (indices
    from 0, as in the file; ``also`` qualifies the pair: ``" ranged"``); ``None`` when all
    differ. ``names`` may hold ``None`` for entries left out of the comparison."""
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        if name is None:
            continue
        j = seen.setdefault(key(name), i)
        if j == i:
            continue
        first = names[j]
        pair = f"{field}[{j}] and {field}[{i}] are both{also}"
        if first == name:
            return f"{pair} named {brief(name)}"
        ignored = "case and spacing" if key is name_key else "case, spacing and punctuation"
        return (
            f"{pair} named {brief(first)} and {brief(name)}, the same name to the engine "
            f"({ignored} ignored)"
        )
    return None


def _weapons_duplicate(weapons: tuple[Weapon, ...]) -> str | None:
    """Two weapons of one kind with one name (a ranged and a melee weapon may share a name:
    shooting and fighting pick among their own kind), or two profiles of one weapon with
    one name."""
    for kind in WEAPON_KINDS:
        names = [w.name if w.kind == kind else None for w in weapons]
        problem = _duplicates("weapons", names, also=f" {kind} and")
        if problem is not None:
            return problem
    for w in weapons:
        problem = _duplicates("profiles", [p.name for p in w.profiles])
        if problem is not None:
            return f"weapon {brief(w.name)}: {problem}"
    return None


def duplicate_problem(team: Team) -> str | None:
    """The first pair of entries of ``team`` the engine could not tell apart, where the
    second would be silently unreachable (the first one found always wins a lookup), with
    where they are; ``None`` when there is none.

    Checked: operative types, each datacard's weapons of one kind (a ranged and a melee
    weapon may share a name), each weapon's profiles (also of
    equipment weapons), each loadout slot's options (names compared as :func:`name_key`:
    case and spacing ignored); each datacard's abilities and its unique actions, the team's
    abilities, its ploys (strategy and firefight together: both are played by name) and its
    equipment (compared as :func:`rule_key`, as their rule ids are). Entries are named by
    their field and index in the file (from 0), e.g. ``"operatives[2] and operatives[6] are
    both named 'Gunner'"`` or ``"operative 'Gunner': weapons[0] and weapons[1] are both
    ranged and named 'Bolt pistol' and 'bolt pistol', the same name to the engine (case and
    spacing ignored)"``.
    """
    problem = _duplicates("operatives", [op.name for op in team.operatives])
    if problem is not None:
        return problem
    for op in team.operatives:
        problem = _first(
            _weapons_duplicate(op.weapons),
            _duplicates("abilities", [a.name for a in op.abilities], rule_key),
            _duplicates("actions", [a.name for a in op.actions], rule_key),
            *(
                None
                if (d := _duplicates("options", [o.name for o in slot.options])) is None
                else f"loadouts[{k}]: {d}"
                for k, slot in enumerate(op.loadouts)
            ),
        )
        if problem is not None:
            return f"operative {brief(op.name)}: {problem}"
    problem = _first(
        _duplicates("abilities", [a.name for a in team.abilities], rule_key),
        _duplicates("ploys", [p.name for p in team.ploys], rule_key),
        _duplicates("equipment", [e.name for e in team.equipment], rule_key),
    )
    if problem is not None:
        return problem
    for e in team.equipment:
        problem = _weapons_duplicate(e.weapons)
        if problem is not None:
            return f"equipment {brief(e.name)}: {problem}"
    return None
