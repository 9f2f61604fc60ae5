"""Team files: JSON data validated on load with ``cattrs`` (unknown fields are errors).

Datacard notation is kept in the files: Hit and Save ``"3+"``, damage ``"3/4"``, Move ``"6\\""``
(or a number of inches), weapon rules as the datacard string (``"Range 8\\", Lethal 5+"``).
Selection limits are objects ``{"selector": at most}`` where a selector is an operative type or
``"Type [Option]"``. An operative's wargear options are ``"loadouts": [{"name": "ranged",
"options": [{"name": "Meltagun", "weapons": ["Meltagun", "Gun Butt"]}, ...]}, ...]`` (one
object per choice; omitted when it carries every weapon on its card). :func:`team_to_dict` and
:func:`team_from_dict` are inverse: loading, dumping and loading again gives an equal team.

Errors name the file, the team, the operative, the weapon and the field, e.g.
``teams/kasrkin.json: team 'kasrkin': operative 'Kasrkin Sergeant': weapon 'Bolt pistol':
profile 0: field 'hit': Hit '7+' is out of range: thresholds run from 2+ to 6+``.

Files are read through :mod:`engine.inputs` (UTF-8, at most 64 MiB, nesting at most 64
levels, numbers finite and at most 1e15), and every team is checked against the limits of
:mod:`engine.teams.model` (stats, list lengths, names, the team id), e.g.
``teams/x.json: team 'kasrkin': operative 'Kasrkin Sergeant': field 'wounds': must be a whole
number from 1 to 50, got 0``. Two entries the engine could not tell apart (the second
would be silently unreachable) are refused naming both, e.g. ``teams/x.json: team 'x':
operatives[2] and operatives[6] are both named 'Gunner'``
(:func:`engine.teams.model.duplicate_problem`).

**KT21 teams** (``rules/KT21.md`` 4.1, decision 8) say ``"edition": "kt21"`` (omitted for
KT24, the default). Their datacards add ``"defence"`` (DF, default 3), ``"group_activation"``
(GA, default 1) and ``"invulnerable"`` (``"4+"``, omitted when none); Move may be written with
the KT21 shapes (``"3⬤"``: :func:`engine.dice.kt21_rules.shape_inches`) and is written back in
inches; a profile's special and critical hit rules are one string in ``"kt21_rules"``
(``"Rng ⬟, AP1, MW2"``: :func:`engine.dice.kt21_rules.parse_kt21_weapon_rules`), its
``"hit"`` is the BS or WS. A KT24 team with any of these, or a KT21 team with KT24
``"rules"``, is refused naming the operative, the weapon and the field
(:func:`engine.teams.model.edition_problem`).

A team imported with its rules' printed texts carries their identities as ``"rule_texts":
{"faction_rule/astartes": "3f0c...@", ...}`` (:mod:`engine.teams.rule_text`; omitted when
empty).
"""

from __future__ import annotations

import collections.abc
import importlib.resources
import json
import re
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import attrs
import cattrs
import cattrs.cols
import cattrs.gen
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError

from engine.dice.kt21_rules import parse_kt21_weapon_rules, shape_inches
from engine.dice.profile import parse_damage, parse_threshold
from engine.dice.rules import WeaponRules, parse_weapon_rules
from engine.errors import KillTeamError
from engine.inputs import check_tree, parse_json, read_text
from engine.names import check_builtin_name
from engine.teams.kt18_io import (
    kt18_profile_from_dict,
    kt18_profile_to_dict,
    kt18_weapon_from_dict,
    kt18_weapon_to_dict,
)
from engine.teams.model import (
    MAX_TEXT_CHARS,
    PLOY_KINDS,
    WEAPON_KINDS,
    Operative,
    Ploy,
    Selection,
    Team,
    Weapon,
    WeaponProfile,
    brief,
    parse_entry,
    team_id_problem,
    team_problem,
)

__all__ = [
    "KT18_PREFIX",
    "KT21_PREFIX",
    "TeamFileError",
    "builtin_teams",
    "check_team",
    "load_builtin_team",
    "load_team",
    "save_team",
    "team_from_dict",
    "team_to_dict",
]


class TeamFileError(KillTeamError, ValueError):
    """A team file is invalid; the message names the file, operative, weapon and field."""


def _fail(message: str) -> ValueError:
    return ValueError(message)


_T = TypeVar("_T")


def _field(name: str, get: Callable[[], _T]) -> _T:
    """Run ``get``; a ValueError names the field ``name``."""
    try:
        return get()
    except (ValueError, TypeError, OverflowError) as exc:
        raise _fail(f"field {name!r}: {exc}") from None


def _named(name: str, convert: Callable[[Any], _T], value: Any) -> _T:
    """``convert(value)``; a ValueError names the field ``name``."""
    return _field(name, lambda: convert(value))


def _int(value: Any, _type: Any = int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f"expected a whole number, not {brief(value)}")
    return value


def _float(value: Any, _type: Any = float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _fail(f"expected a number, not {brief(value)}")
    return float(value)


def _str(value: Any, _type: Any = str) -> str:
    if not isinstance(value, str):
        raise _fail(f"expected a string, not {brief(value)}")
    if len(value) > MAX_TEXT_CHARS:
        raise _fail(f"a string of at most {MAX_TEXT_CHARS} characters, got {len(value)}")
    return value


def _short(value: Any) -> Any:
    """``value`` unchanged, unless it is a string too long for any stat (an error)."""
    if isinstance(value, str) and len(value) > 40:
        raise _fail(f"expected a datacard value such as 3+ or 6, not {brief(value)}")
    return value


_SHAPE_CHARS = frozenset("▲●⬤◯○■⬟")


def _inches(value: Any) -> float:
    if isinstance(value, bool):
        raise _fail(f'expected inches such as 6" or 6, not {brief(value)}')
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str) and _SHAPE_CHARS & set(value):
        try:  # a KT21 distance written with shapes, e.g. 3⬤ (rules/KT21.md 4.1)
            return shape_inches(str(_short(value)))
        except ValueError as exc:
            raise _fail(str(exc)) from None
    m = re.fullmatch(r'\s*(\d{1,9}(?:\.\d{1,9})?)\s*"?\s*', str(_short(value)))
    if m is None:
        raise _fail(f'expected inches such as 6" or 6, not {brief(value)}')
    return float(m.group(1))


def _fmt_inches(x: float) -> str:
    return f'{int(x)}"' if x == int(x) else f'{x:g}"'


_K = TypeVar("_K", Weapon, Ploy)


def _kind_checked(
    c: cattrs.Converter, cls: type[_K], kinds: tuple[str, ...]
) -> Callable[[Any, Any], _K]:
    """A strict structure hook for ``cls`` whose ``kind`` field must be one of ``kinds``."""
    base = cattrs.gen.make_dict_structure_fn(cls, c, _cattrs_forbid_extra_keys=True)

    def structure(data: Any, t: Any) -> _K:
        obj = base(data, t)
        if obj.kind not in kinds:
            allowed = " or ".join(repr(k) for k in kinds)
            raise _fail(f"field 'kind' must be {allowed}, not {brief(obj.kind)}")
        return obj

    return structure


def _make_converter() -> cattrs.Converter:
    c = cattrs.Converter(forbid_extra_keys=True)
    c.register_structure_hook(int, _int)
    c.register_structure_hook(float, _float)
    c.register_structure_hook(str, _str)
    c.register_structure_hook(WeaponRules, lambda v, _t: parse_weapon_rules(_str(v)))

    def is_list_type(t: Any) -> bool:
        args = typing.get_args(t)
        return typing.get_origin(t) is tuple and len(args) == 2 and args[1] is Ellipsis

    def list_hook(t: Any) -> Callable[[Any, Any], Any]:
        # A list field takes a JSON array only: cattrs alone would take any iterable, so a
        # string would become a list of its characters and an object a list of its keys.
        base = cattrs.cols.homogenous_tuple_structure_factory(t, c)

        def structure(value: Any, _t: Any) -> Any:
            if not isinstance(value, list | tuple):
                raise _fail(f"must be a list, not {brief(value)}")
            return base(value, _t)

        return structure

    c.register_structure_hook_factory(is_list_type, list_hook)
    c.register_unstructure_hook(WeaponRules, lambda r: r.format())

    def structure_profile(data: Any, _t: Any) -> WeaponProfile:
        if not isinstance(data, Mapping):
            raise _fail(f"expected an object, not {brief(data)}")
        allowed = {"name", "attacks", "hit", "damage", "rules", "kt21_rules", "kt18"}
        extra = sorted(set(data) - allowed)
        if extra:
            raise _fail(f"unknown field {brief(extra[0])} (allowed: {', '.join(sorted(allowed))})")
        if "kt18" in data:  # a KT18 profile: its KT24 values are placeholders
            kt18 = _field("kt18", lambda: kt18_weapon_from_dict(data["kt18"]))
            return WeaponProfile(
                name=_field("name", lambda: _str(data.get("name", ""))),
                attacks=1,
                hit=6,
                normal_damage=0,
                critical_damage=0,
                kt18=kt18,
            )
        for key in ("attacks", "hit", "damage"):
            if key not in data:
                raise _fail(f"missing field {key!r}")
        normal, crit = _field("damage", lambda: parse_damage(_short(_str(data["damage"]))))
        return WeaponProfile(
            name=_field("name", lambda: _str(data.get("name", ""))),
            attacks=_field("attacks", lambda: _int(data["attacks"])),
            hit=_field("hit", lambda: parse_threshold(_short(data["hit"]), "Hit")),
            normal_damage=normal,
            critical_damage=crit,
            rules=_field("rules", lambda: parse_weapon_rules(_str(data.get("rules", "")))),
            kt21_rules=_field(
                "kt21_rules", lambda: parse_kt21_weapon_rules(_str(data.get("kt21_rules", "")))
            ),
        )

    def unstructure_profile(p: WeaponProfile) -> dict[str, Any]:
        if p.kt18 is not None:
            return {"name": p.name, "kt18": kt18_weapon_to_dict(p.kt18)}
        out: dict[str, Any] = {
            "name": p.name,
            "attacks": p.attacks,
            "hit": f"{p.hit}+",
            "damage": f"{p.normal_damage}/{p.critical_damage}",
        }
        # A KT21 profile writes its rules in "kt21_rules" (and no empty KT24 "rules").
        if p.kt21_rules and not p.rules:
            out["kt21_rules"] = p.kt21_rules.format()
        else:
            out["rules"] = p.rules.format()
            if p.kt21_rules:
                out["kt21_rules"] = p.kt21_rules.format()
        return out

    c.register_structure_hook(WeaponProfile, structure_profile)
    c.register_unstructure_hook(WeaponProfile, unstructure_profile)

    weapon_base = _kind_checked(c, Weapon, WEAPON_KINDS)

    def structure_weapon(data: Any, t: Any) -> Weapon:
        w = weapon_base(data, t)
        if not w.profiles:
            raise _fail("field 'profiles' must list at least one profile")
        return w

    c.register_structure_hook(Weapon, structure_weapon)

    op_base = cattrs.gen.make_dict_structure_fn(Operative, c, _cattrs_forbid_extra_keys=True)

    def structure_operative(data: Any, t: Any) -> Operative:
        if not isinstance(data, Mapping):
            raise _fail(f"expected an object, not {brief(data)}")
        fixed = dict(data)
        save = fixed.pop("save", None)
        move = fixed.pop("move", None)
        invulnerable = fixed.pop("invulnerable", None)
        kt18_data = fixed.pop("kt18", None)
        fixed["save"] = 2  # placeholders, replaced below with precise errors
        fixed["move"] = 6.0
        if kt18_data is not None:  # a KT18 card has no APL and its Sv is in "kt18"
            fixed.setdefault("apl", 1)
            save = "6+" if save is None else save
        op = op_base(fixed, t)
        kt18 = (
            None if kt18_data is None else _field("kt18", lambda: kt18_profile_from_dict(kt18_data))
        )
        if save is None or move is None:
            raise _fail(f"missing field {'save' if save is None else 'move'!r}")
        invulnerable_save = (
            0
            if invulnerable is None
            else _field(
                "invulnerable",
                lambda: parse_threshold(_short(invulnerable), "Invulnerable Save"),
            )
        )
        return Operative(
            name=op.name,
            keywords=op.keywords,
            apl=op.apl,
            move=_field("move", lambda: _inches(move)),
            save=_field("save", lambda: parse_threshold(_short(save), "Save")),
            wounds=op.wounds,
            base_mm=op.base_mm,
            weapons=op.weapons,
            abilities=op.abilities,
            actions=op.actions,
            loadouts=op.loadouts,
            defence=op.defence,
            group_activation=op.group_activation,
            invulnerable=invulnerable_save,
            kt18=kt18,
        )

    def kt21_values(op: Operative) -> dict[str, Any]:
        """The KT21 datacard values that differ from the defaults (none for KT24 cards)."""
        out: dict[str, Any] = {}
        if op.defence != 3:
            out["defence"] = op.defence
        if op.group_activation != 1:
            out["group_activation"] = op.group_activation
        if op.invulnerable:
            out["invulnerable"] = f"{op.invulnerable}+"
        return out

    def unstructure_operative(op: Operative) -> dict[str, Any]:
        # A KT18 card has no APL nor save: its characteristics are in "kt18" (kt18_io).
        kt18 = op.kt18 is not None
        return {
            "name": op.name,
            "keywords": list(op.keywords),
            **({} if kt18 else {"apl": op.apl}),
            "move": _fmt_inches(op.move),
            **({} if kt18 else {"save": f"{op.save}+"}),
            "wounds": op.wounds,
            **({"kt18": kt18_profile_to_dict(op.kt18)} if op.kt18 is not None else {}),
            **kt21_values(op),
            "base_mm": op.base_mm,
            "weapons": [c.unstructure(w) for w in op.weapons],
            "abilities": [c.unstructure(a) for a in op.abilities],
            "actions": [c.unstructure(a) for a in op.actions],
            **({"loadouts": [c.unstructure(slot) for slot in op.loadouts]} if op.loadouts else {}),
        }

    c.register_structure_hook(Operative, structure_operative)
    c.register_unstructure_hook(Operative, unstructure_operative)

    def structure_selection(data: Any, _t: Any) -> Selection:
        if not isinstance(data, Mapping):
            raise _fail(f"expected an object, not {brief(data)}")
        allowed = {
            "size",
            "leader",
            "limits",
            "keyword_limits",
            "combined_limits",
            "weights",
            "minimums",
        }
        extra = sorted(set(data) - allowed)
        if extra:
            raise _fail(f"unknown field {brief(extra[0])} (allowed: {', '.join(sorted(allowed))})")
        size = data.get("size")
        if isinstance(size, int) and not isinstance(size, bool):
            size = [size, size]
        if not (isinstance(size, list | tuple) and len(size) == 2):
            raise _fail(f"field 'size' must be a number or [minimum, maximum], not {brief(size)}")
        for key in ("limits", "keyword_limits", "weights", "minimums"):
            if not isinstance(data.get(key, {}), Mapping):
                raise _fail(
                    f"field {key!r} must be an object of selector -> at most, "
                    f"not {brief(data[key])}"
                )
        if not isinstance(data.get("combined_limits", []), list):
            raise _fail(
                f"field 'combined_limits' must be a list, not {brief(data['combined_limits'])}"
            )
        leader = data.get("leader")
        if isinstance(leader, list):
            leader = tuple(_str(t) for t in leader)
        elif leader is not None:
            leader = _str(leader)
        return Selection(
            size=(_int(size[0]), _int(size[1])),
            leader=leader,
            limits=tuple((str(k), _int(v)) for k, v in dict(data.get("limits", {})).items()),
            keyword_limits=tuple(
                (str(k), _int(v)) for k, v in dict(data.get("keyword_limits", {})).items()
            ),
            combined_limits=tuple(_combined(c) for c in data.get("combined_limits", [])),
            weights=tuple(
                (str(k), _named(f"weights: {k}", _float, v))
                for k, v in dict(data.get("weights", {})).items()
            ),
            minimums=tuple(
                (str(k), _named(f"minimums: {k}", _int, v))
                for k, v in dict(data.get("minimums", {})).items()
            ),
        )

    def _combined(item: Any) -> tuple[tuple[str, ...], int]:
        if not isinstance(item, Mapping) or set(item) != {"types", "at_most"}:
            raise _fail(
                f'field \'combined_limits\': each entry is {{"types": [...], "at_most": n}}, '
                f"not {brief(item)}"
            )
        types = item["types"]
        if not isinstance(types, list) or not all(isinstance(t, str) for t in types):
            raise _fail(
                f"field 'combined_limits': 'types' must list operative types, not {brief(types)}"
            )
        return tuple(types), _int(item["at_most"])

    def unstructure_selection(s: Selection) -> dict[str, Any]:
        out: dict[str, Any] = {"size": list(s.size)}
        if len(s.leader) == 1:
            out["leader"] = s.leader[0]
        elif s.leader:
            out["leader"] = list(s.leader)
        if s.limits:
            out["limits"] = dict(s.limits)
        if s.keyword_limits:
            out["keyword_limits"] = dict(s.keyword_limits)
        if s.combined_limits:
            out["combined_limits"] = [
                {"types": list(types), "at_most": most} for types, most in s.combined_limits
            ]
        if s.weights:
            out["weights"] = {t: int(w) if w == int(w) else w for t, w in s.weights}
        if s.minimums:
            out["minimums"] = dict(s.minimums)
        return out

    c.register_structure_hook(Selection, structure_selection)
    c.register_unstructure_hook(Selection, unstructure_selection)

    c.register_structure_hook(Ploy, _kind_checked(c, Ploy, PLOY_KINDS))

    def structure_texts(value: Any, _t: Any) -> tuple[tuple[str, str], ...]:
        if not isinstance(value, Mapping):
            raise _fail(f"must be an object of rule reference: text key, not {brief(value)}")
        return tuple((_str(k), _str(v)) for k, v in value.items())

    c.register_structure_hook(
        Team,
        cattrs.gen.make_dict_structure_fn(
            Team,
            c,
            _cattrs_forbid_extra_keys=True,
            rule_texts=cattrs.gen.override(struct_hook=structure_texts),
        ),
    )
    unstructure_team_fields = cattrs.gen.make_dict_unstructure_fn(Team, c)

    def unstructure_team(team: Team) -> dict[str, Any]:
        # ``rule_texts`` is written only when the team has texts (an object), so the files
        # of the teams without texts (the built-in ones) stay as they are.
        out: dict[str, Any] = unstructure_team_fields(team)
        out.pop("rule_texts", None)
        if team.rule_texts:
            out["rule_texts"] = dict(team.rule_texts)
        if team.edition == "kt24":  # the default: KT24 files stay as they are
            out.pop("edition", None)
        elif team.edition == "kt21":  # a KT21 datacard shows its DF and GA even when 3 and 1
            out["operatives"] = [
                _with_kt21_values(card, op)
                for card, op in zip(out["operatives"], team.operatives, strict=True)
            ]
        return out

    c.register_unstructure_hook(Team, unstructure_team)
    return c


def _with_kt21_values(card: dict[str, Any], op: Operative) -> dict[str, Any]:
    """``card`` (an operative's file structure) with its DF and GA written after its wounds."""
    out: dict[str, Any] = {}
    for key, value in card.items():
        out[key] = value
        if key == "wounds":
            out["defence"] = op.defence
            out["group_activation"] = op.group_activation
    return out


_CONVERTER = _make_converter()


def _where(data: Any, path: str) -> str:
    """Turn a cattrs path such as ``$.operatives[0].weapons[1].profiles[0]`` into words with
    the operative and weapon names: ``operative 'X': weapon 'Y': profile 0``."""
    words: list[str] = []
    node = data
    for m in re.finditer(r"\.(\w+)|\[(\d+)\]|\['([^']*)'\]", path):
        key, index, quoted = m.group(1), m.group(2), m.group(3)
        if key is not None or quoted is not None:
            name = key if key is not None else quoted
            words.append(f"field {brief(name)}")
            node = node.get(name) if isinstance(node, Mapping) else None
        else:
            i = int(index)
            item = node[i] if isinstance(node, list) and i < len(node) else None
            label = words.pop()[len("field ") :].strip("'") if words else "item"
            singular = {"operatives": "operative", "weapons": "weapon", "profiles": "profile",
                        "abilities": "ability", "actions": "action", "ploys": "ploy",
                        "equipment": "equipment"}.get(label, label)  # fmt: skip
            name = item.get("name") if isinstance(item, Mapping) else None
            words.append(
                f"{singular} {brief(name)}"
                if isinstance(name, str) and singular != "profile"
                else f"{singular} {i}"
            )
            node = item
    return ": ".join(words)


#: Stands in a message for the value found at the error's path (``team_from_dict`` puts it
#: in); a NUL never appears in a message otherwise (values are shown with ``repr``).
_VALUE = "\0value\0"


def _expected(type_: Any) -> str:
    """What a value of ``type_`` (a field's annotation) is called in an error message."""
    origin = typing.get_origin(type_) or type_
    if origin in (tuple, list, set, frozenset) or origin is collections.abc.Sequence:
        return "a list"
    if origin is dict or origin is collections.abc.Mapping or attrs.has(origin):
        return "an object"
    return {int: "a whole number", float: "a number", str: "a string", bool: "true or false"}.get(
        origin, "a value of another kind"
    )


def _format_exception(exc: BaseException, _type: Any) -> str:
    if isinstance(exc, ForbiddenExtraKeysError):
        return f"unknown field {brief(sorted(exc.extra_fields)[0])}"
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}" if exc.args else "missing field"
    if isinstance(exc, ValueError) and str(exc):
        return str(exc)  # the hooks' own messages (a value of the right type, out of range)
    if isinstance(exc, TypeError | AttributeError):
        # Python's own words for a value of the wrong type ("'NoneType' object is not
        # iterable", "'str' object has no attribute 'keys'"): say what was expected instead.
        return f"must be {_expected(_type)}, not {_VALUE}"
    return cattrs.v.format_exception(exc, _type)


def _value_at(data: Any, path: str) -> Any:
    """The value at a cattrs path such as ``$.operatives[0].weapons`` (``None`` if absent)."""
    node = data
    for m in re.finditer(r"\.(\w+)|\[(\d+)\]|\['([^']*)'\]", path):
        key, index, quoted = m.group(1), m.group(2), m.group(3)
        if index is not None:
            i = int(index)
            node = node[i] if isinstance(node, list) and i < len(node) else None
        else:
            name = key if key is not None else quoted
            node = node.get(name) if isinstance(node, Mapping) else None
    return node


def team_from_dict(data: Mapping[str, Any], source: str = "<dict>") -> Team:
    """Build a :class:`Team` from its file structure (see the module docstring).

    Args:
        data: the parsed file (JSON-like values: dicts, lists, strings, numbers).
        source: what messages name first (the file name).

    Raises:
        TeamFileError: naming ``source``, the operative, the weapon and the field, for an
            unknown field, a bad threshold (``"7+"``), a damage without a critical value
            (``"3"``), an unknown weapon rule, a wrong type (named with what was expected and
            what was found: ``field 'keywords': must be a list, not 'LEADER'``; a string or an
            object is never taken for a list), a missing field, nesting deeper
            than :data:`engine.inputs.MAX_DEPTH`, a number that is not finite or too large,
            anything outside the limits of :mod:`engine.teams.model`, or two entries the
            engine cannot tell apart (two operative types, weapons of one kind, profiles,
            loadout options, abilities, ploys or equipment with one name:
            :func:`engine.teams.model.duplicate_problem`) (:func:`check_team`).
    """
    if not isinstance(data, Mapping):
        raise TeamFileError(f"{source}: a team file holds one JSON object")
    check_tree(data, source, TeamFileError)
    try:
        team = _CONVERTER.structure(dict(data), Team)
    except ClassValidationError as exc:
        try:
            messages = cattrs.transform_error(exc, path="$", format_exception=_format_exception)
            message, _, path = messages[0].rpartition(" @ ")
            message = message.replace(_VALUE, brief(_value_at(data, path)))
            where = _where(data, path) or "team"
        except Exception:  # the message only; the error itself is raised below
            message, where = "invalid team data", "team"
        team_id = data.get("id")
        if team_id_problem(team_id) is None and where != "team":
            where = f"team {team_id!r}: {where}"
        raise TeamFileError(f"{source}: {where}: {message}") from None
    except (ValueError, TypeError, KeyError, AttributeError, OverflowError) as exc:
        raise TeamFileError(f"{source}: team: {brief(str(exc))}") from None
    check_team(team, source)
    _check_loadouts(team, source)
    return team


def check_team(
    team: Team,
    source: str = "<team>",
    error: Callable[[str], KillTeamError] = TeamFileError,
) -> Team:
    """Check ``team`` against the limits of :mod:`engine.teams.model` (stats, list lengths,
    names, the team id); returns ``team``.

    Args:
        team: a team, loaded or built in code (the importers check theirs).
        source: what messages name first (the file name).
        error: the error class to raise (the importers pass theirs).

    Raises:
        error: ``"{source}: team 'x': operative 'Y': field 'wounds': must be a whole number
            from 1 to 50, got 0"``, or two entries with one name (``"{source}: team 'x':
            operatives[2] and operatives[6] are both named 'Gunner'"``)
            (:func:`engine.teams.model.team_problem`).
    """
    problem = team_problem(team)
    if problem is not None:
        raise error(f"{source}: team {brief(team.id)}: {problem}")
    return team


def _check_loadouts(team: Team, source: str) -> None:
    """Cross-field checks: loadout options name datacard weapons, option names fit the entry
    notation, selectors and leaders name known types and options, the default roster is
    legal."""
    names = [op.name for op in team.operatives]
    for op in team.operatives:
        weapons = {w.name.casefold() for w in op.weapons}
        for k, slot in enumerate(op.loadouts):
            if not slot.options:
                raise TeamFileError(f"{source}: operative {op.name!r}: loadouts[{k}]: no options")
            for opt in slot.options:
                if any(ch in opt.name for ch in "[]") or " + " in opt.name or not opt.name:
                    raise TeamFileError(
                        f"{source}: operative {op.name!r}: loadouts[{k}]: option name "
                        f"{opt.name!r} is empty or contains '[', ']' or ' + '"
                    )
                for w in opt.weapons:
                    if w.casefold() not in weapons:
                        raise TeamFileError(
                            f"{source}: operative {op.name!r}: loadouts[{k}]: option "
                            f"{opt.name!r}: no weapon {w!r} on the datacard"
                        )
    selectors = (
        [s for s, _ in team.selection.limits]
        + [s for group, _ in team.selection.combined_limits for s in group]
        + [s for s, _ in team.selection.minimums]
        + [t for t, _ in team.selection.weights]
    )
    for selector in (*team.selection.leader, *selectors):
        try:
            name, options = parse_entry(selector)
        except ValueError as exc:
            raise TeamFileError(f"{source}: field 'selection': {exc}") from None
        if name not in names:
            raise TeamFileError(f"{source}: field 'selection': unknown operative {name!r}")
        card = team.operative(name)
        for option in options or ():
            if not any(
                o.name.casefold() == option.casefold()
                for slot in card.loadouts
                for o in slot.options
            ):
                raise TeamFileError(
                    f"{source}: field 'selection': {name!r} has no option {option!r}"
                )
    if team.default_roster:
        try:
            roster = team.default()
        except ValueError as exc:
            raise TeamFileError(f"{source}: field 'default_roster': {exc}") from None
        problems = roster.validate()
        if problems:
            raise TeamFileError(f"{source}: field 'default_roster': " + "; ".join(problems))


def team_to_dict(team: Team) -> dict[str, Any]:
    """The file structure of ``team`` (inverse of :func:`team_from_dict`)."""
    out: dict[str, Any] = _CONVERTER.unstructure(team)
    return out


def load_team(path: str | Path) -> Team:
    """Load a team file (JSON, read through :mod:`engine.inputs`).

    Raises:
        TeamFileError: for a missing path, a folder, a path that is not a regular file (a
            device, a FIFO, a socket), an unreadable file, one that is not UTF-8 JSON, too
            large or too deeply nested, an object naming a key twice, or any validation
            error (:func:`team_from_dict`), e.g. ``"x.json: is a folder, not a team file"``.
    """
    p = Path(path)
    data = parse_json(read_text(p, TeamFileError, "team file"), str(p), TeamFileError)
    if not isinstance(data, Mapping):
        raise TeamFileError(f"{p}: a team file holds one JSON object")
    return team_from_dict(data, source=str(p))


def save_team(team: Team, path: str | Path) -> Path:
    """Write ``team`` as a JSON team file (sorted keys, 2-space indent); returns the path."""
    p = Path(path)
    p.write_text(
        json.dumps(team_to_dict(team), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return p


def _teams_dir() -> Path:
    return Path(str(importlib.resources.files("teams")))


KT21_PREFIX = "kt21_"
"""The id of every built-in KT21 team starts with this (``kt21_kasrkin``); no KT24 team's does
(:func:`load_builtin_team` checks it against the file's ``edition``)."""


KT18_PREFIX = "kt18_"
"""The id of every built-in KT18 team starts with this (``kt18_orks``, ``rules/KT18.md``
1.6); no team of another edition's does."""

_PREFIXES = {"kt21": KT21_PREFIX, "kt18": KT18_PREFIX}


def _edition_of_id(team_id: str) -> str:
    return next((e for e, p in _PREFIXES.items() if team_id.startswith(p)), "kt24")


def builtin_teams(edition: str | None = "kt24") -> list[str]:
    """Ids of the built-in teams shipped in ``teams/`` (sorted): the stems of its ``.json``
    files whose datacards are written for ``edition``.

    Args:
        edition: ``"kt24"`` (the default: the teams a KT24 battle plays, so every caller that
            plays the built-in teams under KT24 keeps doing so), ``"kt21"`` (ids starting with
            :data:`KT21_PREFIX`), ``"kt18"`` (ids starting with :data:`KT18_PREFIX`) or
            ``None`` for every built-in team of any edition (what a check "is this a built-in
            team id" needs).
    """
    folder = _teams_dir()
    ids = sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []
    return ids if edition is None else [t for t in ids if _edition_of_id(t) == edition]


def load_builtin_team(team_id: str) -> Team:
    """Load a built-in team by id (e.g. ``"kasrkin"``).

    ``team_id`` is a name, never a path: it must be exactly one of :func:`builtin_teams`, and
    only that shipped file is opened (:mod:`engine.names`), so ``"../x"``, ``"a/b"`` or an
    absolute path never reads a file outside the package data.

    Any edition's team loads (:func:`builtin_teams` with ``None``).

    Raises:
        TeamFileError: if there is no such team (the message lists the built-in ones), or its
            file's edition does not match its id (:data:`KT21_PREFIX`, :data:`KT18_PREFIX`).
    """
    check_builtin_name(
        team_id,
        builtin_teams(None),
        "no built-in team {name} (built-in: {known}); a team file must end in .json",
        TeamFileError,
    )
    team = load_team(_teams_dir() / f"{team_id}.json")
    expected = _edition_of_id(team_id)
    if team.edition != expected:
        prefix = _PREFIXES.get(expected) or _PREFIXES.get(team.edition, KT21_PREFIX)
        raise TeamFileError(
            f"built-in team {team_id!r}: its file says edition {team.edition!r}, its id "
            f"{'starts' if team_id.startswith(prefix) else 'does not start'} with "
            f"{prefix!r}"
        )
    return team
