"""Importer for xDavidLeon/killteamjson (the KTDash-derived JSON dataset).

Reads ``en/teams/*.json`` with the glossary ``en/weapon_rules.json`` from a path the user
gives and builds :class:`~engine.teams.model.Team` values (``rules/KT24.md`` sections 2, 7).
Only numbers and names are taken: stats, weapon profiles, weapon-rule ids and values, base
sizes, keywords, and the names and record ids of abilities, unique actions, ploys and
equipment. Rules prose is never copied: every ``summary`` is left empty and ``source_ref``
names the record instead; ``Team.rule_texts`` keeps only a digest of each rule's printed
text, its identity (:mod:`engine.teams.rule_text`), so a rule implemented for another team
that prints the same text is played for this one.

The ``composition`` text is parsed, never stored, into wargear options and selection rules
(:mod:`engine.teams.importers.composition`).

Everything not fully understood is reported as an :class:`ImportIssue` (a team-specific
weapon rule, an id defined nowhere, a field the model has no place for, a composition line
or sentence that cannot be read...) and the team still loads.

Files are read through :mod:`engine.inputs` (UTF-8 JSON, at most 64 MiB, nesting at most 64
levels, numbers finite and at most 1e15). Stats are read strictly (``APL`` a whole number,
``MOVE`` inches such as ``6"``, ``SAVE``/``HIT`` thresholds, ``DMG`` ``"3/4"``) and checked
against the limits of :mod:`engine.teams.model`: a profile or an operative outside them
(``WOUNDS`` 0, ``ATK`` 500...) is skipped and reported; a team outside them (no operative
left, a name of 5,000 characters...) raises :class:`KillTeamJsonError` naming the file and
the field. The team id is :func:`~engine.teams.model.safe_team_id` of the team's name.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from engine.dice.rules import TeamRule, WeaponRule, WeaponRules, parse_weapon_rules
from engine.errors import KillTeamError
from engine.inputs import parse_json, read_text
from engine.teams.importers import ImportIssue, ImportResult
from engine.teams.importers.composition import read_composition
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
    brief,
    name_problem,
    operative_problem,
    profile_problem,
    safe_team_id,
    team_problem,
    weapon_problem,
)
from engine.teams.rule_text import rule_ref, rule_text_key, team_keyword

__all__ = ["KillTeamJsonError", "import_killteamjson", "weapon_rule_from_record"]


class KillTeamJsonError(KillTeamError, ValueError):
    """The path is not a killteamjson checkout, ``en/`` folder or team file, a file in it
    cannot be read as JSON (not UTF-8, too large, too deep, a number that is not finite or
    too large), or a team is outside the limits of :mod:`engine.teams.model` (the message
    names the path, the team and the field)."""


_MAX_COMPOSITION_CHARS = 50_000
"""The longest ``composition`` text read (the real ones have at most about 1,600
characters); a longer one is reported and not read."""


def _whole(value: Any, what: str) -> int:
    """A whole number written as a JSON integer or digits (``2``, ``"2"``).

    Raises:
        ValueError: anything else (``2.5``, ``"two"``, ``true``, a 20-digit string).
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and (m := re.fullmatch(r"\s*(\d{1,9})\s*", value)):
        return int(m.group(1))
    raise ValueError(f"{what} {brief(value)} is not a whole number")


def _threshold(value: Any, what: str) -> int:
    """A threshold written ``"3+"`` (or ``3``)."""
    if isinstance(value, str) and (m := re.fullmatch(r"\s*(\d{1,9})\s*\+?\s*", value)):
        return int(m.group(1))
    return _whole(value, what)


def _move(value: Any) -> float:
    """Inches written ``'6"'``, ``"6"`` or a finite number."""
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    if isinstance(value, str) and (m := re.fullmatch(r'\s*(\d{1,9}(?:\.\d{1,9})?)\s*"?\s*', value)):
        return float(m.group(1))
    raise ValueError(f'MOVE {brief(value)} is not a distance such as 6"')


# Fields read (or deliberately not read: rules prose, bookkeeping) per record type; any other
# field is reported so that nothing is dropped silently.
_PROSE = {"description", "composition", "effects", "conditions"}
_KNOWN: dict[str, set[str]] = {
    "team": {"factionId", "killteamId", "version", "season", "killteamName", "archetypes",
             "teamAbilities", "ploys", "equipments", "opTypes", "weapon_rules", "classified",
             "file", *_PROSE},
    "operative": {"opTypeId", "killteamId", "seq", "opTypeName", "MOVE", "APL", "SAVE",
                  "WOUNDS", "keywords", "basesize", "weapons", "abilities", "actions"},
    "weapon": {"wepId", "opTypeId", "seq", "wepName", "wepType", "profiles"},
    "profile": {"wepprofileId", "wepId", "seq", "profileName", "ATK", "HIT", "DMG", "WR"},
    "rule": {"id", "number", "details", "prefix_num"},
    "ability": {"abilityId", "opTypeId", "abilityName", "AP", *_PROSE},
    "action": {"id", "type", "seq", "AP", "name", *_PROSE},
    "ploy": {"ployId", "killteamId", "ployType", "seq", "ployName", *_PROSE},
    "equipment": {"eqId", "killteamId", "seq", "eqName", "weapons", *_PROSE},
}  # fmt: skip

_FLAGS = {
    "BALANCED": "Balanced", "BRUTAL": "Brutal", "CEASELESS": "Ceaseless", "HOT": "Hot",
    "PUNISHING": "Punishing", "RELENTLESS": "Relentless", "RENDING": "Rending",
    "SATURATE": "Saturate", "SEEK": "Seek", "SEEK-LIGHT": "Seek Light", "SEVERE": "Severe",
    "SHOCK": "Shock", "SILENT": "Silent", "STUN": "Stun", "PSYCHIC": "PSYCHIC",
    "HEAVY": "Heavy", "PIERCING-CRITS": "Piercing Crits",
}  # fmt: skip
_COUNTS = {"ACCURATE": "Accurate", "LIMITED": "Limited", "PIERCING": "Piercing",
           "PIERCING-CRITS": "Piercing Crits", "DEVASTATING": "Devastating"}  # fmt: skip
_DISTANCES = {"RANGE": "Range", "BLAST": "Blast", "TORRENT": "Torrent"}
_HEAVY_ONLY = {
    "dash": "Dash", "(dash)": "Dash", "dash only": "Dash", "(dash only)": "Dash",
    "reposition": "Reposition", "repoonly": "Reposition", "reposition only": "Reposition",
    "(repos)": "Reposition", "(reposition)": "Reposition", "(reposition only)": "Reposition",
    "repos": "Reposition",
}  # fmt: skip


def _num(value: Any) -> str:
    """A number from the dataset as text (``5``, ``1.5``; ``"2\\""`` loses its inch mark)."""
    text = str(value).strip().rstrip('"').strip()
    if not re.fullmatch(r"\d+(?:\.\d+)?", text):
        raise ValueError(f"expected a number, not {value!r}")
    return text


def _universal_token(rule_id: str, record: Mapping[str, Any]) -> tuple[str, str | None]:
    """The datacard token for a ``WR-UNIV-*`` record and, when an alias or spelling was
    normalised, a note saying so. Raises ValueError for an unusable record."""
    key = rule_id.removeprefix("WR-UNIV-")
    details = " ".join(str(record.get("details") or "").split())
    note = None
    if key == "PIERCING" and details.lower() == "crits":
        key, details = "PIERCING-CRITS", ""
        note = "read 'WR-UNIV-PIERCING' with details 'Crits' as Piercing Crits"
    if key == "SEEK" and details.lower() == "light":
        key, details = "SEEK-LIGHT", ""
        note = "read 'WR-UNIV-SEEK' with details 'Light' as Seek Light"
    number = record.get("number")
    prefix = record.get("prefix_num")
    if key == "HEAVY":
        token = "Heavy"
        if details:
            only = _HEAVY_ONLY.get(details.lower())
            if only is None:
                raise ValueError(f"Heavy details {details!r} is not a move action")
            token = f"Heavy ({only} only)"
            if details != f"{only} only":
                note = f"read Heavy details {details!r} as {token!r}"
        return token, note
    if details:
        raise ValueError(f"details {details!r} not understood for {rule_id!r}")
    if prefix is not None and key != "DEVASTATING":
        raise ValueError(f"prefix_num {prefix!r} not understood for {rule_id!r}")
    if key == "LETHAL":
        return f"Lethal {_num(number)}+", note
    if key in _DISTANCES:
        return f'{_DISTANCES[key]} {_num(number)}"', note
    if key in _COUNTS:
        token = f"{_COUNTS[key]} {_num(number)}"
        if prefix is not None:
            token = f'{_num(prefix)}" {token}'
        return token, note
    if key in _FLAGS:
        if number not in (None, "", 0):
            raise ValueError(f"unexpected number {number!r} for {rule_id!r}")
        return _FLAGS[key], note
    raise ValueError(f"unknown universal weapon rule id {rule_id!r}")


def weapon_rule_from_record(
    record: Mapping[str, Any], glossary: Mapping[str, str]
) -> tuple[WeaponRule, str | None, str]:
    """One ``WR`` record (``{"id": "WR-UNIV-LETHAL", "number": 5, "details"?,
    "prefix_num"?}``) as a weapon-rule spec (``rules/KT24.md`` section 6).

    Args:
        record: the dataset record. glossary: rule id -> rule name, from
            ``en/weapon_rules.json`` and the team files.

    Returns:
        ``(spec, note, kind)``: the spec; a note for the import report or ``None``; the
        note's kind (``"recovered"`` for a normalised alias, ``"unsupported"`` for a team
        rule, which becomes :class:`~engine.dice.rules.TeamRule`).

    Raises:
        ValueError: the record cannot be used (unknown universal id, bad number or details).
    """
    rule_id = str(record.get("id", ""))
    if rule_id.startswith("WR-UNIV-"):
        token, note = _universal_token(rule_id, record)
        (spec,) = parse_weapon_rules(token).rules
        return spec, note, "recovered"
    if rule_id in glossary:
        name = glossary[rule_id]
        return (
            TeamRule(name),
            f"team rule {name!r} ({rule_id}) kept as a team weapon rule "
            "('killteam teams rules' says whether the engine plays it)",
            ("unsupported"),
        )
    return (
        TeamRule(rule_id),
        f"weapon rule id {rule_id!r} is defined nowhere; kept by id",
        ("unsupported"),
    )


def _read_json(path: Path) -> Any:
    """The parsed file (:func:`engine.inputs.parse_json`).

    Raises:
        KillTeamJsonError: unreadable, not UTF-8 JSON, too large or too deep, or a bad
            number (naming the file and the value's path).
    """
    text = read_text(path, KillTeamJsonError, "killteamjson file")
    return parse_json(text, str(path), KillTeamJsonError)


def _locate(path: Path) -> tuple[list[Path], Path | None]:
    """Team files and the ``en/`` folder (for the glossary) for a user-given path."""
    try:
        return _find(path)
    except (OSError, ValueError) as exc:
        raise KillTeamJsonError(f"{path}: cannot read: {exc}") from None


def _find(path: Path) -> tuple[list[Path], Path | None]:
    if path.is_file():
        en = path.parent.parent if path.parent.name == "teams" else None
        return [path], en
    for en in (path / "en", path):
        if (en / "teams").is_dir():
            files = sorted((en / "teams").glob("*.json"))
            if files:
                return files, en
    raise KillTeamJsonError(
        f"{path}: not a killteamjson checkout, 'en' folder or team file (expected en/teams/*.json)"
    )


class _Importer:
    """Builds one team, collecting issues."""

    def __init__(self, data: Mapping[str, Any], glossary: dict[str, str], source: str) -> None:
        self.data = data
        self.source = source
        self.team = str(data.get("killteamName") or data.get("killteamId") or source)
        self.issues: list[ImportIssue] = []
        self.glossary = dict(glossary)
        self.texts: list[tuple[str, str, str]] = []  # (kind, name, printed text): digested
        self.weapon_rule_texts: dict[str, str] = {}
        for rule in self.items(data.get("weapon_rules"), "team: weapon_rules"):
            if isinstance(rule, Mapping) and "id" in rule:
                self.glossary[str(rule["id"])] = str(rule.get("name") or rule["id"])
                name = self.glossary[str(rule["id"])]
                self.weapon_rule_texts.setdefault(name, _text(rule.get("description")))

    def text(self, kind: str, name: str, *parts: Any) -> None:
        """Note the printed text of the rule ``name`` of ``kind`` (only its digest is kept,
        :meth:`rule_texts`)."""
        self.texts.append((kind, name, " ".join(_text(p) for p in parts).strip()))

    def rule_texts(self, team: Team) -> dict[str, str]:
        """The text key of each rule of ``team`` with a printed text
        (:func:`~engine.teams.rule_text.rule_text_key`, with the team's keyword); a rule
        printed twice with different texts gets none (reported)."""
        for op in team.operatives:
            for weapon in op.weapons:
                for prof in weapon.profiles:
                    for spec in prof.rules:
                        if isinstance(spec, TeamRule):
                            text = self.weapon_rule_texts.get(spec.rule_name, "")
                            self.text("weapon_rule", spec.rule_name, text)
        keyword = team_keyword(team)
        keys: dict[str, str | None] = {}
        for kind, name, text in self.texts:
            if not text:
                continue
            ref, key = rule_ref(kind, name), rule_text_key(text, keyword)
            if keys.setdefault(ref, key) not in (key, None):
                self.issue(ref, "printed twice with different texts: no text identity")
                keys[ref] = None
        return {ref: key for ref, key in keys.items() if key is not None}

    def issue(self, where: str, message: str, kind: str = "recovered") -> None:
        self.issues.append(ImportIssue(self.team, where, message, kind))

    def items(self, value: Any, where: str) -> list[Any]:
        """``value`` when it is a list; ``[]`` for a missing one, reported when it is
        something else."""
        if isinstance(value, list):
            return value
        if value not in (None, "", {}):
            self.issue(where, f"expected a list, not {brief(value)}; ignored", "skipped")
        return []

    def records(
        self, value: Any, kind: str, where: str, name_field: str | None = None
    ) -> list[Any]:
        """The objects of list ``value`` (others reported and skipped), each checked for
        fields the importer does not read; with ``name_field``, a record whose name is not a
        legal name (:func:`~engine.teams.model.name_problem`) is reported and skipped."""
        out = []
        for raw in self.items(value, where):
            if not isinstance(raw, Mapping):
                self.issue(where, f"expected an object, not {brief(raw)}; skipped", "skipped")
                continue
            self.extra(raw, kind, where)
            if name_field is not None:
                problem = name_problem(name_field, _name(raw.get(name_field)))
                if problem is not None:
                    self.issue(where, f"{problem}; skipped", "skipped")
                    continue
            out.append(raw)
        return out

    def extra(self, record: Any, kind: str, where: str) -> None:
        if isinstance(record, Mapping):
            for key in sorted(set(record) - _KNOWN[kind]):
                self.issue(where, f"field {key!r} not used by the importer", "skipped")

    def rules(self, records: Any, where: str) -> WeaponRules:
        specs: list[WeaponRule] = []
        for i, record in enumerate(self.items(records, f"{where}: rules")):
            here = f"{where}: rules: WR {i}"
            if not isinstance(record, Mapping):
                self.issue(here, f"expected an object, not {record!r}; rule skipped", "skipped")
                continue
            self.extra(record, "rule", here)
            try:
                spec, note, kind = weapon_rule_from_record(record, self.glossary)
            except (ValueError, KillTeamError) as exc:
                self.issue(here, f"{exc}; rule skipped", "skipped")
                continue
            specs.append(spec)
            if note is not None:
                self.issue(here, note, kind)
        return WeaponRules(tuple(specs))

    def profile(self, data: Mapping[str, Any], where: str) -> WeaponProfile | None:
        self.extra(data, "profile", where)
        dmg = data.get("DMG")
        m = re.fullmatch(r"\s*(\d{1,9})\s*/\s*(\d{1,9})\s*", dmg) if isinstance(dmg, str) else None
        try:
            attacks = _whole(data.get("ATK"), "ATK")
            hit = _threshold(data.get("HIT"), "HIT")
            if m is None:
                raise ValueError(f"DMG {brief(dmg)} is not normal/critical such as 3/4")
        except ValueError:
            fields = brief({k: data.get(k) for k in ("ATK", "HIT", "DMG")})
            self.issue(where, f"unreadable numbers {fields}; profile skipped", "skipped")
            return None
        profile = WeaponProfile(
            name=" ".join(str(data.get("profileName") or "").split()),
            attacks=attacks,
            hit=hit,
            normal_damage=int(m.group(1)),
            critical_damage=int(m.group(2)),
            rules=self.rules(data.get("WR"), where),
        )
        problem = profile_problem(profile)
        if problem is not None:
            self.issue(where, f"{problem}; profile skipped", "skipped")
            return None
        return profile

    def weapon(self, data: Mapping[str, Any], where: str) -> Weapon | None:
        name = str(data.get("wepName", "")).strip()
        where = f"{where}: weapon {name!r}"
        self.extra(data, "weapon", where)
        wep_type = str(data.get("wepType", "")).upper()
        kind = {"R": "ranged", "M": "melee", "E": "ranged"}.get(wep_type)
        if wep_type == "E":
            self.issue(where, "wepType 'E' (an equipment weapon, e.g. a grenade) read as ranged")
        if kind is None:
            self.issue(where, f"wepType {data.get('wepType')!r} is not R or M; skipped", "skipped")
            return None
        profiles = [
            p
            for i, raw in enumerate(self.items(data.get("profiles"), f"{where}: profiles"))
            if isinstance(raw, Mapping)
            and (p := self.profile(raw, f"{where}: profile {i}")) is not None
        ]
        if not profiles:
            self.issue(where, "no usable profile; weapon skipped", "skipped")
            return None
        weapon = Weapon(name, kind, tuple(profiles))
        problem = weapon_problem(weapon)
        if problem is not None:
            self.issue(where, f"{problem}; weapon skipped", "skipped")
            return None
        return weapon

    def operative(self, data: Mapping[str, Any]) -> Operative | None:
        name = str(data.get("opTypeName", "")).strip()
        where = f"operative {name!r}"
        self.extra(data, "operative", where)
        keywords = tuple(
            k.strip().upper() for k in str(data.get("keywords", "")).split(",") if k.strip()
        )
        try:
            move = _move(data.get("MOVE"))
            save = _threshold(data.get("SAVE"), "SAVE")
            apl, wounds = _whole(data.get("APL"), "APL"), _whole(data.get("WOUNDS"), "WOUNDS")
        except ValueError:
            stats = brief({k: data.get(k) for k in ("APL", "MOVE", "SAVE", "WOUNDS")})
            self.issue(where, f"unreadable stats {stats}; operative skipped", "skipped")
            return None
        base = data.get("basesize")
        if not isinstance(base, int | float) or isinstance(base, bool):
            self.issue(where, f"base size {brief(base)} unreadable; using 32mm", "recovered")
            base = 32
        weapons = tuple(
            w
            for raw in self.items(data.get("weapons"), f"{where}: weapons")
            if isinstance(raw, Mapping) and (w := self.weapon(raw, where)) is not None
        )
        abilities = []
        for raw in self.records(data.get("abilities"), "ability", f"{where}: ability"):
            abilities.append(
                Ability(name=_name(raw.get("abilityName")), source_ref=_ref(raw.get("abilityId")))
            )
            self.text("ability", abilities[-1].name, raw.get("description"))
        actions = []
        for raw in self.records(data.get("actions"), "action", f"{where}: action"):
            ap = raw.get("AP")
            ok = isinstance(ap, int) and not isinstance(ap, bool)
            actions.append(
                Ability(
                    name=_name(raw.get("name")), ap=ap if ok else 1, source_ref=_ref(raw.get("id"))
                )
            )
            self.text(
                "unique_action",
                actions[-1].name,
                raw.get("description"),
                raw.get("effects"),
                raw.get("conditions"),
            )
            if not ok:
                self.issue(
                    f"{where}: action {brief(raw.get('name'))}",
                    f"AP {brief(ap)}; using 1",
                )
        op = Operative(
            name=name,
            keywords=keywords,
            apl=apl,
            move=move,
            save=save,
            wounds=wounds,
            base_mm=float(base),
            weapons=weapons,
            abilities=tuple(abilities),
            actions=tuple(actions),
        )
        problem = operative_problem(op)
        if problem is not None:
            self.issue(where, f"{problem}; operative skipped", "skipped")
            return None
        return op

    def composition(
        self, operatives: tuple[Operative, ...]
    ) -> tuple[tuple[Operative, ...], Selection]:
        """The operatives with the wargear options and the selection rules the team's
        ``composition`` text gives (:func:`read_composition`); what it cannot read is
        reported."""
        prose = str(self.data.get("composition") or "")
        if len(prose) > _MAX_COMPOSITION_CHARS:
            self.issue(
                "composition",
                f"{len(prose)} characters, more than {_MAX_COMPOSITION_CHARS}: not read",
                "skipped",
            )
            prose = ""
        read = read_composition(prose, operatives)
        for message, kind in read.notes:
            self.issue("composition", message, kind)
        with_options = tuple(
            attrs.evolve(op, loadouts=read.loadouts[op.name]) if op.name in read.loadouts else op
            for op in operatives
        )
        return with_options, read.selection

    def build(self) -> Team:
        data = self.data
        self.extra(data, "team", "team")
        operatives = tuple(
            op
            for raw in self.items(data.get("opTypes"), "team: opTypes")
            if isinstance(raw, Mapping) and (op := self.operative(raw)) is not None
        )
        abilities = []
        for raw in self.records(
            data.get("teamAbilities"), "ability", "team ability", "abilityName"
        ):
            ap = raw.get("AP")
            abilities.append(
                Ability(
                    name=_name(raw.get("abilityName")),
                    ap=ap if isinstance(ap, int) and not isinstance(ap, bool) else None,
                    source_ref=_ref(raw.get("abilityId")),
                )
            )
            self.text("faction_rule", abilities[-1].name, raw.get("description"))
        ploys = []
        for raw in self.records(data.get("ploys"), "ploy", "ploy", "ployName"):
            name = _name(raw.get("ployName"))
            kind = {"S": "strategy", "F": "firefight", "T": "firefight"}.get(
                str(raw.get("ployType", "")).upper()
            )
            if kind is None:
                self.issue(
                    f"ploy {name!r}", f"ployType {raw.get('ployType')!r}; skipped", "skipped"
                )
                continue
            ploys.append(
                Ploy(name=name, kind=kind, cp=_ploy_cp(raw), source_ref=_ref(raw.get("ployId")))
            )
            self.text(f"{kind}_ploy", name, raw.get("description"))
        operatives, selection = self.composition(operatives)
        equipment = []
        for raw in self.records(data.get("equipments"), "equipment", "equipment", "eqName"):
            name = _name(raw.get("eqName"))
            where = f"equipment {brief(name)}"
            weapons = tuple(
                w
                for rw in self.items(raw.get("weapons"), f"{where}: weapons")
                if isinstance(rw, Mapping) and (w := self.weapon(rw, where)) is not None
            )
            equipment.append(
                Equipment(name=name, source_ref=_ref(raw.get("eqId")), weapons=weapons)
            )
            self.text("equipment", name, raw.get("description"))
        self.issue(
            "team",
            "rules text (descriptions, effects, composition) is not imported; summaries are "
            "left empty, source_ref names each record and rule_texts keeps a digest of each "
            "rule's text (its identity)",
            "skipped",
        )
        version = str(data.get("version") or "").strip()
        season = str(data.get("season") or "").strip()
        team_id = safe_team_id(self.team)
        faction = next(iter(operatives[0].keywords), "") if operatives else ""
        team = Team(
            id=team_id,
            name=self.team,
            faction=faction,
            archetypes=tuple(str(a) for a in self.items(data.get("archetypes"), "archetypes")),
            operatives=operatives,
            selection=selection,
            default_roster=(),
            provenance=Provenance(
                source="killteamjson",
                dataslate=version or season,
                commit=None,
            ),
            ploys=tuple(ploys),
            equipment=tuple(equipment),
            abilities=tuple(abilities),
        )
        return attrs.evolve(team, rule_texts=self.rule_texts(team))


def _text(value: Any) -> str:
    """A printed text field as a string (``None``, ``"None"`` and non-strings: ``""``; a
    list, such as an action's effects: its strings joined)."""
    if isinstance(value, list):
        return " ".join(_text(v) for v in value)
    if not isinstance(value, str) or value.strip() == "None":
        return ""
    if value.startswith("[") and value.endswith("]") and len(value) <= _MAX_TEXT_LIST_CHARS:
        # Some records hold a list written as Python text (``"['Select one ...', ...]"``):
        # read its strings, so the quotes it was written with are not part of the text.
        try:
            items = ast.literal_eval(value)
        except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
            return value
        if isinstance(items, list) and all(isinstance(i, str) for i in items):
            return " ".join(items)
    return value


_MAX_TEXT_LIST_CHARS = 20_000
"""The longest list-as-text (an action's effects) read as a list."""


def _name(value: Any) -> str:
    """A name field as text (white space folded; a missing one is empty)."""
    return " ".join(str(value).split()) if value is not None else ""


def _ref(value: Any) -> str | None:
    """A record id as text, ``None`` when missing or not a string or number."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _ploy_cp(record: Mapping[str, Any]) -> int:
    """CP cost: 1 unless the ploy's text states another cost (e.g. ``"costs 2CP"``)."""
    text = str(record.get("description") or "")
    m = re.search(r"\bcosts?\s+(?:you\s+)?(\d)\s*CP\b", text, re.IGNORECASE)
    return (
        int(m.group(1))
        if m and "this ploy" in text[max(0, m.start() - 40) : m.end()].lower()
        else 1
    )


def import_killteamjson(path: str | Path, team: str | None = None) -> ImportResult:
    """Import teams from a killteamjson checkout.

    Args:
        path: the checkout (the folder holding ``en/``), its ``en/`` folder, or one team file
            (``en/teams/IMP-KAS.json``).
        team: keep only the team whose id (``IMP-KAS``), name or derived id (``kasrkin``)
            matches, case-insensitively; ``None`` imports every team.

    Returns:
        The teams (each with ``provenance.source == "killteamjson"``, empty summaries, no
        default roster) and the issues found.

    Raises:
        KillTeamJsonError: the path is not a checkout or team file, a file is not JSON (or
            too large, too deep, with a bad number), ``team`` matches nothing, or a team is
            outside the limits of :mod:`engine.teams.model` once its bad profiles, weapons
            and operatives are skipped (e.g. none is left).
    """
    files, en = _locate(Path(path))
    glossary: dict[str, str] = {}
    glossary_issues: list[ImportIssue] = []
    if en is not None and (en / "weapon_rules.json").is_file():
        raw = _read_json(en / "weapon_rules.json")
        rules = raw.get("weapon_rules", []) if isinstance(raw, Mapping) else raw
        for rule in rules if isinstance(rules, list) else []:
            if isinstance(rule, Mapping) and "id" in rule:
                glossary[str(rule["id"])] = str(rule.get("name") or rule["id"])
    else:
        glossary_issues.append(
            ImportIssue("*", "weapon_rules.json", "glossary not found; team rules named by id")
        )
    teams: list[Team] = []
    issues: list[ImportIssue] = list(glossary_issues)
    for file in files:
        data = _read_json(file)
        if not isinstance(data, Mapping):
            issues.append(ImportIssue(file.name, "file", "not a team object; skipped", "skipped"))
            continue
        if team is not None:
            wanted = team.lower()
            names = {str(data.get("killteamId", "")).lower(), file.stem.lower()}
            name = str(data.get("killteamName", ""))
            names |= {name.lower(), safe_team_id(name)}
            if wanted not in names:
                continue
        importer = _Importer(data, glossary, file.name)
        built = importer.build()
        problem = team_problem(built)
        if problem is not None:
            raise KillTeamJsonError(f"{file}: team {brief(built.id)}: {problem}")
        teams.append(built)
        issues.extend(importer.issues)
    if team is not None and not teams:
        raise KillTeamJsonError(f"{path}: no team {team!r} in the killteamjson data")
    return ImportResult(tuple(teams), tuple(issues))
