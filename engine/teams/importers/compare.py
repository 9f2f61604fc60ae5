"""Compare the two community datasets team by team (killteamjson against BSData).

Both datasets are imported into the project's model (:mod:`.killteamjson`, :mod:`.bsdata`)
and the teams present in both are matched by normalised name. Within a team, operatives are
matched by normalised name (case and punctuation ignored, and a prefix or suffix word most
operatives of the team share on either side, such as ``Kasrkin`` in ``Kasrkin Sergeant``
against BSData's ``Sergeant``, is dropped when needed); weapons by normalised name, then by
a near spelling (reported as a ``name`` difference); profiles
by normalised profile name (a weapon's only profile matches the other's only profile). Every
operative, weapon or profile present on one side only is a difference, and so is every
differing stat (APL, Move, Save, Wounds), weapon kind, and profile value (attacks, hit,
damage, and the rules, compared as canonical :meth:`WeaponRules.format` spellings in any
order), every operative whose wargear options differ (``"loadouts"``: slots and options
compared as sets of matched weapons, in any order), and every differing selection rule
(operative ``"(selection)"``: ``"size"``, ``"leader"``, or the limit itself, e.g.
``"limit Kasrkin Gunner [flamer;gunbutt]"``, with its maximum or ``"missing"`` on each side).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import attrs

from engine.teams.model import Operative, Team, Weapon, WeaponProfile, parse_entry

__all__ = ["Difference", "compare_datasets", "compare_teams"]

_T = TypeVar("_T")


@attrs.frozen(slots=True)
class Difference:
    """One disagreement between the datasets.

    Attributes:
        team: the team's name. operative: the operative's name (as killteamjson spells it
            when both have it). weapon, profile: the weapon's and profile's names, or
            ``None`` when the difference is about the operative (or the weapon) itself.
        field: what differs: ``"apl"``, ``"move"``, ``"save"``, ``"wounds"``, ``"kind"``,
            ``"attacks"``, ``"hit"``, ``"damage"``, ``"rules"``, ``"name"`` (a weapon
            matched by a near spelling), or ``"operative"``,
            ``"weapon"``, ``"profile"`` for something present on one side only.
        ktjson, bsdata: the two values as text (``"missing"`` when absent on that side).
    """

    team: str
    operative: str
    weapon: str | None
    profile: str | None
    field: str
    ktjson: str
    bsdata: str

    def __str__(self) -> str:
        where = [self.team, self.operative]
        if self.weapon is not None:
            where.append(self.weapon if not self.profile else f"{self.weapon} ({self.profile})")
        return (
            f"{' / '.join(where)}: {self.field}: killteamjson {self.ktjson} | bsdata {self.bsdata}"
        )


def _words(name: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", name.lower())


def _key(name: str) -> str:
    """Case- and punctuation-free name: ``'Demo-trooper'`` -> ``'demotrooper'``."""
    return "".join(_words(name))


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("s"):
        return word[:-1]
    return word


def _shared_words(team: str, *names: Sequence[str]) -> set[str]:
    """Words that a team's operative names share as a prefix or suffix on either side (used
    by at least half the operatives of that side), plus the team's name words."""
    out = {w for word in _words(team) for w in (word, _singular(word))}
    for side in names:
        if not side:
            continue
        firsts = Counter(_words(n)[0] for n in side if _words(n))
        lasts = Counter(_words(n)[-1] for n in side if _words(n))
        for counter in (firsts, lasts):
            out |= {w for w, c in counter.items() if 2 * c >= len(side) and len(side) > 1}
    return out


def _stripped(name: str, shared: set[str]) -> str:
    words = _words(name)
    while len(words) > 1 and words[0] in shared:
        words = words[1:]
    while len(words) > 1 and words[-1] in shared:
        words = words[:-1]
    return "".join(words)


def _pair(
    left: Sequence[_T], right: Sequence[_T], keys: Sequence[Callable[[_T], str]]
) -> tuple[list[tuple[_T, _T]], list[_T], list[_T]]:
    """Match items by each key function in turn (a key must be unique on both sides)."""
    pairs: list[tuple[_T, _T]] = []
    rest_l, rest_r = list(left), list(right)
    for key in keys:
        count_l = Counter(key(x) for x in rest_l)
        count_r = Counter(key(x) for x in rest_r)
        by_r = {key(x): x for x in rest_r if count_r[key(x)] == 1}
        still_l = []
        for x in rest_l:
            k = key(x)
            if count_l[k] == 1 and k in by_r:
                pairs.append((x, by_r.pop(k)))
            else:
                still_l.append(x)
        matched_r = {id(b) for _, b in pairs}
        rest_l = still_l
        rest_r = [x for x in rest_r if id(x) not in matched_r]
    return pairs, rest_l, rest_r


def _near(a: str, b: str) -> bool:
    """Whether two keys probably name the same thing (``lifesyphon``/``lifesiphon``,
    ``shokka``/``shokkapistol``)."""
    from engine.teams.importers.weapon_rule_text import edit_distance

    if not a or not b:
        return False
    return a.startswith(b) or b.startswith(a) or edit_distance(a, b) <= 2


def _pair_near(
    left: list[_T], right: list[_T], key: Callable[[_T], str]
) -> tuple[list[tuple[_T, _T]], list[_T], list[_T]]:
    """Pair leftovers whose keys are near one another, when the pairing is unambiguous."""
    pairs: list[tuple[_T, _T]] = []
    rest_r = list(right)
    rest_l: list[_T] = []
    for x in left:
        near = [y for y in rest_r if _near(key(x), key(y))]
        rivals = [z for z in left if z is not x and near and _near(key(z), key(near[0]))]
        if len(near) == 1 and not rivals:
            pairs.append((x, near[0]))
            rest_r.remove(near[0])
        else:
            rest_l.append(x)
    return pairs, rest_l, rest_r


def _fmt_move(move: float) -> str:
    return f'{move:g}"'


def _fmt_rules(p: WeaponProfile) -> str:
    return p.rules.format() or "-"


def _rules_key(p: WeaponProfile) -> tuple[str, ...]:
    return tuple(sorted(r.format() for r in p.rules))


def _compare_profiles(
    team: str, op: str, weapon: str, a: WeaponProfile, b: WeaponProfile
) -> list[Difference]:
    out: list[Difference] = []
    name = a.name or b.name or None
    fields: list[tuple[str, str, str]] = [
        ("attacks", str(a.attacks), str(b.attacks)),
        ("hit", f"{a.hit}+", f"{b.hit}+"),
        (
            "damage",
            f"{a.normal_damage}/{a.critical_damage}",
            f"{b.normal_damage}/{b.critical_damage}",
        ),
    ]
    for field, va, vb in fields:
        if va != vb:
            out.append(Difference(team, op, weapon, name, field, va, vb))
    if _rules_key(a) != _rules_key(b):
        out.append(Difference(team, op, weapon, name, "rules", _fmt_rules(a), _fmt_rules(b)))
    return out


def _compare_weapons(team: str, op: str, a: Weapon, b: Weapon) -> list[Difference]:
    out: list[Difference] = []
    if a.kind != b.kind:
        out.append(Difference(team, op, a.name, None, "kind", a.kind, b.kind))
    if len(a.profiles) == 1 and len(b.profiles) == 1:
        return out + _compare_profiles(team, op, a.name, a.profiles[0], b.profiles[0])
    pairs, only_a, only_b = _pair(a.profiles, b.profiles, [lambda p: _key(p.name)])
    for pa, pb in pairs:
        out += _compare_profiles(team, op, a.name, pa, pb)
    for p in only_a:
        out.append(Difference(team, op, a.name, p.name, "profile", "present", "missing"))
    for p in only_b:
        out.append(Difference(team, op, a.name, p.name, "profile", "missing", "present"))
    return out


def _compare_operatives(team: str, a: Operative, b: Operative) -> list[Difference]:
    out: list[Difference] = []
    stats = [
        ("apl", str(a.apl), str(b.apl)),
        ("move", _fmt_move(a.move), _fmt_move(b.move)),
        ("save", f"{a.save}+", f"{b.save}+"),
        ("wounds", str(a.wounds), str(b.wounds)),
    ]
    for field, va, vb in stats:
        if va != vb:
            out.append(Difference(team, a.name, None, None, field, va, vb))
    pairs, only_a, only_b = _pair(a.weapons, b.weapons, [lambda w: _key(w.name)])
    near, only_a, only_b = _pair_near(only_a, only_b, lambda w: _key(w.name))
    for wa, wb in near:
        out.append(Difference(team, a.name, wa.name, None, "name", wa.name, wb.name))
    pairs += near
    for wa, wb in pairs:
        out += _compare_weapons(team, a.name, wa, wb)
    for w in only_a:
        out.append(Difference(team, a.name, w.name, None, "weapon", "present", "missing"))
    for w in only_b:
        out.append(Difference(team, a.name, w.name, None, "weapon", "missing", "present"))
    rename = {_key(wb.name): _key(wa.name) for wa, wb in pairs}
    mine, theirs = _loadout_key(a, {}), _loadout_key(b, rename)
    if mine != theirs:
        out.append(
            Difference(team, a.name, None, None, "loadouts", _fmt_loadouts(a), _fmt_loadouts(b))
        )
    return out


def _option_key(weapons: Sequence[str], rename: dict[str, str]) -> str:
    """An option as its weapons' keys (renamed to the other side's), sorted."""
    return ";".join(sorted(rename.get(_key(w), _key(w)) for w in weapons))


def _loadout_key(op: Operative, rename: dict[str, str]) -> list[tuple[str, ...]]:
    """An operative's loadout slots as sorted option keys, sorted (order-free)."""
    return sorted(
        tuple(sorted(_option_key(o.weapons, rename) for o in s.options)) for s in op.loadouts
    )


def _fmt_loadouts(op: Operative) -> str:
    if not op.loadouts:
        return "every weapon"
    return " + ".join("(" + " | ".join(o.name for o in s.options) + ")" for s in op.loadouts)


def _selector_key(
    selector: str, team: Team, names: dict[str, str], renames: dict[str, dict[str, str]]
) -> str:
    """A selection-limit selector in the left team's terms: its type renamed, its options as
    weapon keys."""
    name, options = parse_entry(selector)
    left = names.get(name, name)
    if not options:
        return left
    keys = []
    for option in options:
        try:
            card = team.operative(name)
            weapons = next(o.weapons for s in card.loadouts for o in s.options if o.name == option)
        except (KeyError, StopIteration):
            keys.append(option)
            continue
        keys.append(_option_key(weapons, renames.get(name, {})))
    return f"{left} [{' + '.join(keys)}]"


def _selection_key(
    team: Team, names: dict[str, str], renames: dict[str, dict[str, str]]
) -> dict[str, str]:
    """The selection rules of ``team`` as comparable text by rule."""
    sel = team.selection
    out = {
        "size": f"{sel.size[0]}-{sel.size[1]}",
        "leader": ", ".join(sorted(names.get(n, n) for n in sel.leader)) or "none",
    }
    for selector, most in sel.limits:
        out[f"limit {_selector_key(selector, team, names, renames)}"] = str(most)
    for selectors, most in sel.combined_limits:
        keys = sorted(_selector_key(x, team, names, renames) for x in selectors)
        out[f"combined limit {', '.join(keys)}"] = str(most)
    for selector, weight in sel.weights:
        out[f"counts as {_selector_key(selector, team, names, renames)}"] = f"{weight:g}"
    for selector, least in sel.minimums:
        out[f"at least {_selector_key(selector, team, names, renames)}"] = str(least)
    return out


def _compare_selection(
    a: Team, b: Team, pairs: list[tuple[Operative, Operative]]
) -> list[Difference]:
    """Roster size, leader types and limits, compared rule by rule (``operative`` is
    ``"(selection)"``; a limit only one side has is ``"missing"`` on the other)."""
    names_b = {ob.name: oa.name for oa, ob in pairs}
    renames_b = {
        ob.name: {
            _key(wb.name): _key(wa.name)
            for wa, wb in _pair(oa.weapons, ob.weapons, [lambda w: _key(w.name)])[0]
        }
        for oa, ob in pairs
    }
    left = _selection_key(a, {}, {})
    right = _selection_key(b, names_b, renames_b)
    out = []
    for rule in sorted(set(left) | set(right)):
        va, vb = left.get(rule, "missing"), right.get(rule, "missing")
        if va != vb:
            out.append(Difference(a.name, "(selection)", None, None, rule, va, vb))
    return out


def _compare_team(a: Team, b: Team) -> list[Difference]:
    shared = _shared_words(a.name, [o.name for o in a.operatives], [o.name for o in b.operatives])
    pairs, only_a, only_b = _pair(
        a.operatives,
        b.operatives,
        [lambda o: _key(o.name), lambda o: _stripped(o.name, shared)],
    )
    out: list[Difference] = []
    for oa, ob in pairs:
        out += _compare_operatives(a.name, oa, ob)
    for o in only_a:
        out.append(Difference(a.name, o.name, None, None, "operative", "present", "missing"))
    for o in only_b:
        out.append(Difference(a.name, o.name, None, None, "operative", "missing", "present"))
    return out + _compare_selection(a, b, pairs)


def compare_teams(ktjson: Sequence[Team], bsdata: Sequence[Team]) -> list[Difference]:
    """Compare teams already imported from each dataset.

    Args:
        ktjson: teams imported from killteamjson. bsdata: teams imported from BSData.

    Returns:
        The differences for every team present in both (matched by case- and
        punctuation-free name), in team, operative and weapon order; teams present on one
        side only are not compared.
    """
    by_key = {_key(t.name): t for t in bsdata}
    out: list[Difference] = []
    for team in ktjson:
        other = by_key.get(_key(team.name))
        if other is not None:
            out += _compare_team(team, other)
    return out


def compare_datasets(ktjson_path: str | Path, bsdata_path: str | Path) -> list[Difference]:
    """Import both datasets and list where they disagree (see the module docstring).

    Args:
        ktjson_path: a killteamjson checkout or team file, as
            :func:`engine.teams.importers.killteamjson.import_killteamjson` takes it.
        bsdata_path: a BSData checkout or ``.cat`` file, as
            :func:`engine.teams.importers.bsdata.import_bsdata` takes it.

    Returns:
        The list of :class:`Difference` (empty when the datasets agree on every shared team).

    Raises:
        FileNotFoundError: if either path does not exist (raised by the importers).
    """
    from engine.teams.importers.bsdata import import_bsdata
    from engine.teams.importers.killteamjson import import_killteamjson

    left = import_killteamjson(ktjson_path)
    right = import_bsdata(bsdata_path)
    return compare_teams(left.teams, right.teams)
