"""Team datacards and rosters (``rules/KT24.md`` sections 2.1-2.2, 7).

A :class:`Team` is immutable data: operatives (datacards), their weapons (one or more
profiles each, with weapon-rule specs from the dice core), abilities and unique actions,
strategy and firefight ploys, equipment, selection rules and provenance. Descriptions are
the project's own one-line summaries; where a team came from a community dataset,
``source_ref`` points at the source record instead of copying its text.

An operative type's wargear options are :class:`LoadoutSlot` values on its datacard (1.2,
2.2): the player picks one :class:`LoadoutOption` from each slot ("one of the following
options" is one slot of whole weapon sets; "one option from each of the following" is one slot
per line). A type without slots carries every weapon on its card.

A :class:`Roster` is a selection of operatives from a team, each with its loadout;
:meth:`Roster.validate` lists every broken selection and option rule by name. Selection limits
name *selectors*: an operative type (``"Kasrkin Gunner"``) or one option of a type
(``"Kasrkin Gunner [Meltagun]"``, see :func:`parse_entry`).

**Limits.** What a team may hold is bounded (DESIGN.md principle 6: nonsense is rejected at
load, naming the field, instead of failing later or playing silently). The bounds are far
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
import random
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from engine.dice.profile import AttackProfile
from engine.dice.rules import WeaponRules

__all__ = [
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
    "Ability",
    "Equipment",
    "LoadoutOption",
    "LoadoutSlot",
    "Operative",
    "Ploy",
    "Provenance",
    "Roster",
    "Selection",
    "Team",
    "Weapon",
    "WeaponProfile",
    "brief",
    "duplicate_problem",
    "format_entry",
    "name_key",
    "name_problem",
    "operative_problem",
    "parse_entry",
    "profile_problem",
    "rule_key",
    "safe_team_id",
    "team_id_problem",
    "team_problem",
    "weapon_problem",
]

WEAPON_KINDS = ("ranged", "melee")
PLOY_KINDS = ("strategy", "firefight")


@attrs.frozen(slots=True)
class WeaponProfile:
    """One profile of a weapon (section 2.2).

    Attributes:
        name: the profile name (``"standard"``, ``"supercharge"``) or ``""`` for a weapon
            with one profile.
        attacks: attack dice. hit: threshold 2..6 (``3`` means 3+).
        normal_damage, critical_damage: damage per unblocked normal / critical success.
        rules: weapon-rule specs (:mod:`engine.dice.rules`).
    """

    name: str
    attacks: int
    hit: int
    normal_damage: int
    critical_damage: int
    rules: WeaponRules = attrs.field(factory=WeaponRules)

    def attack_profile(self) -> AttackProfile:
        """The dice core's :class:`~engine.dice.profile.AttackProfile` for this profile."""
        return AttackProfile(
            self.attacks, self.hit, self.normal_damage, self.critical_damage, self.rules
        )


@attrs.frozen(slots=True)
class Weapon:
    """A weapon on a datacard: ``kind`` is ``"ranged"`` or ``"melee"``; one or more profiles
    that act as separate weapons sharing the primary ``name`` (section 2.2)."""

    name: str
    kind: str
    profiles: tuple[WeaponProfile, ...]

    def profile(self, name: str = "") -> WeaponProfile:
        """The profile called ``name`` (``""`` picks the only or first profile).

        Raises:
            KeyError: if there is no such profile.
        """
        if not name:
            return self.profiles[0]
        for p in self.profiles:
            if p.name == name:
                return p
        raise KeyError(f"weapon {self.name!r} has no profile {name!r}")


@attrs.frozen(slots=True)
class Ability:
    """An ability or a unique action of an operative or a team.

    Attributes:
        name: as on the datacard.
        summary: the project's own one-line summary (never copied rules text).
        ap: the action's AP cost for a unique action, ``None`` for a passive ability.
        implementation: dotted path of the code implementing it once one exists, else None.
        source_ref: id of the source record it was imported from, else ``None``.
    """

    name: str
    summary: str = ""
    ap: int | None = None
    implementation: str | None = None
    source_ref: str | None = None


@attrs.frozen(slots=True)
class Ploy:
    """A strategy ploy (a strategic gambit) or a firefight ploy (section 7.1).

    Attributes:
        name, summary, source_ref, implementation: as :class:`Ability`.
        kind: ``"strategy"`` or ``"firefight"``. cp: command point cost (1 unless stated).
    """

    name: str
    kind: str
    cp: int = 1
    summary: str = ""
    implementation: str | None = None
    source_ref: str | None = None


@attrs.frozen(slots=True)
class Equipment:
    """A team equipment option.

    Attributes:
        name, summary, implementation, source_ref: as :class:`Ability`.
        weapons: weapons the equipment gives the operatives that take it (e.g. combat
            daggers, a grenade), empty for equipment without a weapon.
    """

    name: str
    summary: str = ""
    implementation: str | None = None
    source_ref: str | None = None
    weapons: tuple[Weapon, ...] = ()


@attrs.frozen(slots=True)
class LoadoutOption:
    """One wargear option: a name the roster uses and the datacard weapons it gives (1.2).

    Attributes:
        name: e.g. ``"Meltagun"`` or ``"Plasma Pistol; Chainsword"``; it cannot contain
            ``[``, ``]`` or `` + `` (the roster entry notation, :func:`parse_entry`).
        weapons: names of weapons on the operative's datacard.
    """

    name: str
    weapons: tuple[str, ...]


@attrs.frozen(slots=True)
class LoadoutSlot:
    """A choice of exactly one :class:`LoadoutOption` (1.2).

    Attributes:
        options: the options, in datacard order (the first is not a default).
        name: a label for the slot (``"ranged"``, ``"melee"``) or ``""``.
    """

    options: tuple[LoadoutOption, ...]
    name: str = ""

    def option(self, name: str) -> LoadoutOption:
        """The option called ``name`` (case-insensitive).

        Raises:
            KeyError: if the slot has no such option.
        """
        for opt in self.options:
            if opt.name.casefold() == name.casefold():
                return opt
        raise KeyError(name)


@attrs.frozen(slots=True)
class Operative:
    """An operative datacard (section 2.1).

    Attributes:
        name: the operative type, e.g. ``"Kasrkin Sergeant"``.
        keywords: datacard keywords, upper case (faction keyword first).
        apl: action point limit. move: Move in inches. save: Save threshold 2..6.
        wounds: starting wounds. base_mm: base diameter in millimetres.
        weapons: every weapon on its datacard. abilities: passive abilities.
        actions: unique actions (each with its AP cost).
        loadouts: its wargear options, one :class:`LoadoutSlot` per choice; empty when it
            carries every weapon on its card (1.2, 2.2).
    """

    name: str
    keywords: tuple[str, ...]
    apl: int
    move: float
    save: int
    wounds: int
    base_mm: float
    weapons: tuple[Weapon, ...]
    abilities: tuple[Ability, ...] = ()
    actions: tuple[Ability, ...] = ()
    loadouts: tuple[LoadoutSlot, ...] = ()

    @property
    def fixed_loadout(self) -> tuple[str, ...] | None:
        """The only possible loadout (one option name per slot), or ``None`` when the
        player must choose (some slot has several options)."""
        if any(len(slot.options) != 1 for slot in self.loadouts):
            return None
        return tuple(slot.options[0].name for slot in self.loadouts)

    def loadout_problems(self, choice: tuple[str, ...]) -> list[str]:
        """What is wrong with ``choice`` (one option name per slot) as this type's loadout;
        empty when it is legal."""
        if len(choice) != len(self.loadouts):
            return [
                f"{self.name!r} takes {len(self.loadouts)} loadout choice(s), "
                f"got {len(choice)} ({' + '.join(choice) or 'none'})"
            ]
        problems = []
        for slot, name in zip(self.loadouts, choice, strict=True):
            try:
                slot.option(name)
            except KeyError:
                opts = ", ".join(repr(o.name) for o in slot.options)
                problems.append(f"{self.name!r} has no option {name!r} (options: {opts})")
        return problems

    def with_loadout(self, choice: tuple[str, ...]) -> Operative:
        """This datacard carrying exactly the weapons of ``choice`` (one option name per
        slot), in datacard order, with no loadout left to choose (1.2).

        Raises:
            ValueError: naming the problem when ``choice`` is not a legal loadout.
        """
        problems = self.loadout_problems(choice)
        if problems:
            raise ValueError("; ".join(problems))
        if not self.loadouts:
            return self
        carried = {
            w.casefold()
            for slot, name in zip(self.loadouts, choice, strict=True)
            for w in slot.option(name).weapons
        }
        return attrs.evolve(
            self,
            weapons=tuple(w for w in self.weapons if w.name.casefold() in carried),
            loadouts=(),
        )

    def weapon(self, name: str) -> Weapon:
        """The weapon called ``name``.

        Raises:
            KeyError: if the operative has no such weapon.
        """
        for w in self.weapons:
            if w.name == name:
                return w
        raise KeyError(f"operative {self.name!r} has no weapon {name!r}")


def _leader_types(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """Converter: ``None`` -> no leader rule, a name -> one type, a sequence -> those types."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(value)


@attrs.frozen(slots=True)
class Selection:
    """How a roster is selected from a team (the team's composition rules, in data).

    Attributes:
        size: number of operatives in a roster (inclusive ``(minimum, maximum)``).
        leader: the operative types that can lead the team: a roster selects exactly one
            operative of these types (empty: no leader rule). A single name is accepted.
        limits: ``(selector, at most)`` pairs for types or options with a cap (others
            uncapped). A selector is an operative type (``"Kasrkin Sergeant"``) or one
            option of a type (``"Kasrkin Gunner [Meltagun]"``: operatives of that type whose
            loadout includes that option), e.g. "each option only once".
        keyword_limits: ``(keyword, at most)`` pairs, e.g. at most 2 GUNNER operatives.
        combined_limits: ``((selectors...), at most)`` pairs: at most that many operatives
            matching any of those selectors together (e.g. "no more than four of these
            combined": Gunners and the Sharpshooter).
    """

    size: tuple[int, int]
    leader: tuple[str, ...] = attrs.field(default=(), converter=_leader_types)
    limits: tuple[tuple[str, int], ...] = ()
    keyword_limits: tuple[tuple[str, int], ...] = ()
    combined_limits: tuple[tuple[tuple[str, ...], int], ...] = ()


@attrs.frozen(slots=True)
class Provenance:
    """Where a team's data came from.

    Attributes:
        source: ``"built-in"``, ``"killteamjson"`` or ``"bsdata"``.
        dataslate: the dataslate the numbers follow (e.g. ``"January '26"``).
        commit: the source repository commit, when imported.
        checked_against: other datasets the numbers were checked against.
    """

    source: str
    dataslate: str = ""
    commit: str | None = None
    checked_against: tuple[str, ...] = ()


@attrs.frozen(slots=True)
class Team:
    """A kill team.

    Attributes:
        id: short identifier (e.g. ``"kasrkin"``). name: display name.
        faction: faction keyword. archetypes: e.g. ``("Security", "Recon")``.
        operatives, ploys, equipment, abilities: the team's datacards and rules.
        selection: the roster rules. default_roster: a legal roster, as roster entries
            (``"Kasrkin Gunner [Meltagun]"``, :func:`parse_entry`).
        provenance: where the data came from.
    """

    id: str
    name: str
    faction: str
    archetypes: tuple[str, ...]
    operatives: tuple[Operative, ...]
    selection: Selection
    default_roster: tuple[str, ...]
    provenance: Provenance
    ploys: tuple[Ploy, ...] = ()
    equipment: tuple[Equipment, ...] = ()
    abilities: tuple[Ability, ...] = ()

    def operative(self, name: str) -> Operative:
        """The operative type called ``name``.

        Raises:
            KeyError: if the team has none.
        """
        for op in self.operatives:
            if op.name == name:
                return op
        raise KeyError(f"team {self.name!r} has no operative {name!r}")

    def default(self) -> Roster:
        """The team's default roster (``default_roster`` holds roster entries,
        :func:`parse_entry`)."""
        return Roster.from_entries(self, self.default_roster)


def parse_entry(entry: str) -> tuple[str, tuple[str, ...] | None]:
    """Split a roster entry into ``(operative type, loadout)`` (1.2).

    ``"Kasrkin Trooper"`` names a type only (loadout ``None``: the type's fixed loadout);
    ``"Kasrkin Gunner [Meltagun]"`` names the option chosen for its one slot;
    ``"Legionary Aspiring Champion [Plasma Pistol + Power Fist]"`` one option per slot, in
    slot order, joined by ``" + "``.

    Raises:
        ValueError: for unbalanced brackets or an empty option name.
    """
    text = entry.strip()
    if "[" not in text and "]" not in text:
        return text, None
    if text.count("[") != 1 or text.count("]") != 1 or not text.endswith("]"):
        raise ValueError(f"roster entry {entry!r}: write 'Type' or 'Type [Option + Option]'")
    name, _, rest = text[:-1].partition("[")
    options = tuple(o.strip() for o in rest.split(" + "))
    if not name.strip() or any(not o for o in options):
        raise ValueError(f"roster entry {entry!r}: empty operative type or option name")
    return name.strip(), options


def format_entry(name: str, loadout: tuple[str, ...] | None) -> str:
    """The roster entry for type ``name`` with ``loadout`` (inverse of :func:`parse_entry`;
    ``None`` or an empty loadout gives the plain type name)."""
    if not loadout:
        return name
    return f"{name} [{' + '.join(loadout)}]"


def _selector_matches(selector: str, name: str, loadout: tuple[str, ...] | None) -> bool:
    """Whether an operative of type ``name`` with ``loadout`` matches a limit's selector
    (:class:`Selection`)."""
    sel_name, sel_opts = parse_entry(selector)
    if sel_name != name:
        return False
    if not sel_opts:
        return True
    chosen = {o.casefold() for o in loadout or ()}
    return all(o.casefold() in chosen for o in sel_opts)


def _choice_value(value: Any) -> Any:
    return (value,) if isinstance(value, str) else tuple(value)


def _choice_table(value: Any) -> Any:
    """Converter: a mapping or pairs of choice name -> option name(s), as sorted pairs of
    name and a tuple of option names (anything else is left for :meth:`Roster.validate`)."""
    if isinstance(value, Mapping):
        value = value.items()
    try:
        return tuple(sorted((str(k), _choice_value(v)) for k, v in value))
    except TypeError:
        return value


def _operative_choice_tables(value: Any) -> Any:
    """Converter: one :func:`_choice_table` per operative."""
    try:
        return tuple(_choice_table(v) for v in value)
    except TypeError:
        return value


@attrs.frozen(slots=True)
class Roster:
    """A selection of operatives from a team, each with its loadout (1.2, 2.2).

    Attributes:
        team: the team.
        operatives: operative type names, one entry per operative selected.
        loadouts: one loadout per operative (option names, one per slot of its type), or
            ``None`` for an operative whose type has a fixed loadout; an empty tuple (the
            default) means ``None`` for every operative. Build a roster from notation with
            :meth:`from_entries`.
        choices: the team-level roster-time choices given (``ChoiceSpec``,
            :func:`engine.rules.registry.register_choice`), as ``(name, option names)``
            pairs; a mapping is accepted. A choice not given has its default.
        operative_choices: empty (every operative's choices are the defaults) or one table
            per operative, in roster order, like ``choices`` (``[{"Mark of Chaos":
            "Khorne"}, {}, ...]``).
    """

    team: Team
    operatives: tuple[str, ...]
    loadouts: tuple[tuple[str, ...] | None, ...] = ()
    choices: tuple[tuple[str, tuple[str, ...]], ...] = attrs.field(
        default=(), converter=_choice_table
    )
    operative_choices: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...] = attrs.field(
        default=(), converter=_operative_choice_tables
    )

    def _specs(self) -> dict[str, Any]:
        from engine.rules.registry import choice_specs

        return {s.name: s for s in choice_specs(self.team)}

    def choice(self, name: str) -> tuple[str, ...]:
        """The value of the team-level roster choice ``name`` (the team's ``ChoiceSpec``,
        :func:`engine.rules.registry.register_choice`): the one given, else its default.

        Raises:
            KeyError: the team declares no team-level choice ``name``.
            ValueError: the value given is not legal.
        """
        spec = self._specs().get(name)
        if spec is None or spec.per_operative:
            raise KeyError(f"team {self.team.id!r} declares no roster choice {name!r}")
        given = dict(self.choices).get(name)
        if given is not None:
            return spec.canonical(given)  # type: ignore[no-any-return]
        excluded = self._excluded(spec) if spec.distinct_from else ()
        return spec.default_value(excluded)  # type: ignore[no-any-return]

    def operative_choice(self, index: int, name: str) -> tuple[str, ...]:
        """The value of the per-operative choice ``name`` for operative ``index`` (0-based):
        the one given, else its default; ``()`` when its type does not make that choice.

        Raises:
            KeyError: the team declares no per-operative choice ``name``.
            ValueError: the value given is not legal.
        """
        spec = self._specs().get(name)
        if spec is None or not spec.per_operative:
            raise KeyError(f"team {self.team.id!r} declares no operative choice {name!r}")
        if not spec.applies_to(self.operatives[index]):
            return ()
        given = dict(self.operative_choices[index]).get(name) if self.operative_choices else None
        if given is not None:
            return spec.canonical(given)  # type: ignore[no-any-return]
        excluded = self._excluded(spec) + spec.forbidden_for(self.operatives[index])
        return spec.default_value(excluded)  # type: ignore[no-any-return]

    def _excluded(self, spec: Any) -> tuple[str, ...]:
        """The options of the team-level choices ``spec`` may not repeat (illegal values are
        left for :meth:`validate`)."""
        out: list[str] = []
        for other in spec.distinct_from:
            try:
                out += self.choice(other)
            except (KeyError, ValueError):
                continue
        return tuple(out)

    def resolved_choices(self) -> dict[str, tuple[str, ...]]:
        """Every team-level choice of the team with its value (given or default)."""
        return {n: self.choice(n) for n, s in self._specs().items() if not s.per_operative}

    def resolved_operative_choices(self, index: int) -> dict[str, tuple[str, ...]]:
        """Every per-operative choice operative ``index`` makes, with its value."""
        name = self.operatives[index]
        return {
            n: self.operative_choice(index, n)
            for n, s in self._specs().items()
            if s.per_operative and s.applies_to(name)
        }

    def with_choices(
        self,
        choices: Any = None,
        operative_choices: Any = None,
    ) -> Roster:
        """This roster with the given choices (``{"Chapter Tactics": ["Aggressive",
        "Hardy"]}``; per operative: one mapping per operative, in roster order); ``None``
        keeps the current ones. Not checked here: :meth:`validate` lists the problems."""
        return attrs.evolve(
            self,
            choices=self.choices if choices is None else choices,
            operative_choices=(
                self.operative_choices if operative_choices is None else operative_choices
            ),
        )

    def with_random_choices(self, rng: random.Random) -> Roster:
        """This roster with every roster-time choice drawn at random among its legal values
        (team-level choices first, then each operative's, in roster order), for random
        playouts that reach every option's rules; a choice with no legal value left keeps
        its default.

        Args:
            rng: the random source (seed it for a reproducible roster).
        """
        specs = self._specs()

        def draw(spec: Any, banned: tuple[str, ...], fallback: tuple[str, ...]) -> list[str]:
            pool = [o for o in spec.options if o not in banned]
            if spec.distinct:
                return rng.sample(pool, spec.count) if len(pool) >= spec.count else list(fallback)
            return [rng.choice(pool) for _ in range(spec.count)] if pool else list(fallback)

        team: dict[str, list[str]] = {}
        for name, spec in specs.items():
            if not spec.per_operative:
                banned = tuple(o for other in spec.distinct_from for o in team.get(other, ()))
                team[name] = draw(spec, banned, spec.default_value())
        per_op: list[dict[str, list[str]]] = []
        for op_type in self.operatives:
            mine: dict[str, list[str]] = {}
            for name, spec in specs.items():
                if spec.per_operative and spec.applies_to(op_type):
                    banned = tuple(o for other in spec.distinct_from for o in team.get(other, ()))
                    banned += spec.forbidden_for(op_type)
                    mine[name] = draw(spec, banned, spec.default_value(banned))
            per_op.append(mine)
        return self.with_choices(team, per_op if any(per_op) else ())

    def _choice_problems(self) -> list[str]:
        specs = self._specs()
        problems: list[str] = []
        team_values: dict[str, tuple[str, ...]] = {}
        for name, _value in self.choices:
            spec = specs.get(name)
            if spec is None or spec.per_operative:
                known = ", ".join(n for n, s in specs.items() if not s.per_operative) or "none"
                problems.append(
                    f"choice: team {self.team.id!r} has no roster choice {name!r} "
                    f"(roster choices: {known})"
                )
        for name, spec in specs.items():
            if spec.per_operative:
                continue
            try:
                team_values[name] = self.choice(name)
            except ValueError as exc:
                problems.append(f"choice: {exc}")

        def clash(spec: Any, value: tuple[str, ...], where: str) -> None:
            for other in spec.distinct_from:
                same = sorted(set(value) & set(team_values.get(other, ())))
                if same:
                    problems.append(
                        f"choice: {where}{spec.name!r} repeats {', '.join(same)} of {other!r}"
                    )

        for name, spec in specs.items():
            if not spec.per_operative and name in team_values:
                clash(spec, team_values[name], "")
        if self.operative_choices and len(self.operative_choices) != len(self.operatives):
            problems.append(
                f"choice: operative choices given for {len(self.operative_choices)} operatives, "
                f"the roster has {len(self.operatives)}"
            )
            return problems
        for i, op_name in enumerate(self.operatives):
            given = dict(self.operative_choices[i]) if self.operative_choices else {}
            for name in given:
                spec = specs.get(name)
                if spec is None or not spec.per_operative:
                    known = ", ".join(n for n, s in specs.items() if s.per_operative) or "none"
                    problems.append(
                        f"choice: operative {i + 1} ({op_name!r}): team {self.team.id!r} has "
                        f"no operative choice {name!r} (operative choices: {known})"
                    )
                elif not spec.applies_to(op_name):
                    problems.append(
                        f"choice: operative {i + 1} ({op_name!r}) does not choose {name!r} "
                        f"(only {', '.join(spec.operatives)})"
                    )
            for name, spec in specs.items():
                if not spec.per_operative or not spec.applies_to(op_name):
                    continue
                try:
                    value = self.operative_choice(i, name)
                except ValueError as exc:
                    problems.append(f"choice: operative {i + 1} ({op_name!r}): {exc}")
                    continue
                clash(spec, value, f"operative {i + 1} ({op_name!r}): ")
                banned = [o for o in value if o in spec.forbidden_for(op_name)]
                if banned:
                    problems.append(
                        f"choice: operative {i + 1} ({op_name!r}): {spec.name!r} cannot be "
                        f"{', '.join(banned)} for a {op_name}"
                    )
        return problems

    @classmethod
    def from_entries(cls, team: Team, entries: tuple[str, ...] | list[str]) -> Roster:
        """A roster from entries such as ``"Kasrkin Gunner [Meltagun]"``
        (:func:`parse_entry`).

        Raises:
            ValueError: naming the entry when one is malformed.
        """
        parsed = [parse_entry(e) for e in entries]
        return cls(team, tuple(n for n, _ in parsed), tuple(lo for _, lo in parsed))

    def loadout_of(self, index: int) -> tuple[str, ...] | None:
        """The loadout chosen for operative ``index`` (0-based), ``None`` if none was."""
        if not self.loadouts:
            return None
        return self.loadouts[index]

    def resolved_loadout(self, index: int) -> tuple[str, ...]:
        """The loadout operative ``index`` carries: the chosen one, or its type's fixed one.

        Raises:
            ValueError: when the type needs a choice and none was made.
        """
        chosen = self.loadout_of(index)
        if chosen is not None:
            return chosen
        card = self.team.operative(self.operatives[index])
        fixed = card.fixed_loadout
        if fixed is None:
            raise ValueError(f"operative {index + 1} ({card.name!r}): no loadout chosen")
        return fixed

    @property
    def entries(self) -> tuple[str, ...]:
        """The roster as entries (:func:`format_entry`), the fixed loadouts left implicit."""
        return tuple(
            format_entry(name, self.loadout_of(i)) for i, name in enumerate(self.operatives)
        )

    def datacard(self, index: int) -> Operative:
        """Operative ``index``'s datacard carrying exactly its loadout's weapons (1.2), with
        the keywords its roster-time choices give (a ``ChoiceSpec`` with ``keyword=True``:
        each chosen option in upper case, after the card's own keywords).

        Raises:
            KeyError: unknown type. ValueError: no or an illegal loadout or choice.
        """
        card = self.team.operative(self.operatives[index])
        card = card.with_loadout(self.resolved_loadout(index))
        extra: list[str] = []
        for name, spec in self._specs().items():
            if not spec.keyword:
                continue
            per_op = spec.per_operative
            values = self.operative_choice(index, name) if per_op else self.choice(name)
            extra += [v.upper() for v in values if v.upper() not in card.keywords]
        if extra:
            card = attrs.evolve(card, keywords=(*card.keywords, *dict.fromkeys(extra)))
        return card

    def validate(self) -> list[str]:
        """Every broken selection rule or option rule, each as one message naming the rule;
        empty if legal."""
        problems: list[str] = []
        sel = self.team.selection
        known = {op.name for op in self.team.operatives}
        for name in sorted(set(self.operatives) - known):
            problems.append(f"unknown operative {name!r}: not in team {self.team.name!r}")
        problems += self._choice_problems()
        if self.loadouts and len(self.loadouts) != len(self.operatives):
            problems.append(
                f"loadouts: {len(self.loadouts)} given for {len(self.operatives)} operatives"
            )
            return problems
        for i, name in enumerate(self.operatives):
            if name not in known:
                continue
            card = self.team.operative(name)
            chosen = self.loadout_of(i)
            if chosen is None:
                if card.fixed_loadout is None:
                    opts = "; ".join(
                        " | ".join(o.name for o in slot.options) for slot in card.loadouts
                    )
                    problems.append(
                        f"loadout: operative {i + 1} ({name!r}) needs a loadout chosen "
                        f"(options: {opts})"
                    )
                continue
            for problem in card.loadout_problems(chosen):
                problems.append(f"loadout: operative {i + 1}: {problem}")
        lo, hi = sel.size
        n = len(self.operatives)
        if not lo <= n <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            problems.append(f"size: {n} operatives selected, the team selects {want}")
        counts = Counter(self.operatives)
        leaders = sum(counts[t] for t in sel.leader)
        if sel.leader and leaders != 1:
            names = " or ".join(repr(t) for t in sel.leader)
            problems.append(f"leader: select exactly one {names} (selected {leaders})")
        members = [(name, self.loadout_of(i)) for i, name in enumerate(self.operatives)]

        def count(selectors: tuple[str, ...]) -> int:
            return sum(
                1
                for name, loadout in members
                if any(_selector_matches(s, name, loadout) for s in selectors)
            )

        for selector, most in sel.limits:
            have = count((selector,))
            if have > most:
                problems.append(f"limit: at most {most} {selector!r} (selected {have})")
        for keyword, most in sel.keyword_limits:
            have = sum(
                c
                for name, c in counts.items()
                if name in known and keyword in self.team.operative(name).keywords
            )
            if have > most:
                problems.append(
                    f"keyword limit: at most {most} {keyword} operatives (selected {have})"
                )
        for selectors, most in sel.combined_limits:
            have = count(selectors)
            if have > most:
                names = ", ".join(repr(t) for t in selectors)
                problems.append(
                    f"combined limit: at most {most} of {names} together (selected {have})"
                )
        return problems

    @property
    def legal(self) -> bool:
        """Whether :meth:`validate` finds nothing."""
        return not self.validate()


# -------------------------------------------------------------------------------------------
# Limits (module docstring)
# -------------------------------------------------------------------------------------------

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
}
"""Inclusive ``(lowest, highest)`` of each datacard stat (module docstring); ``move`` and
``base_mm`` may be fractional, the others are whole numbers."""

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
            if field in ("save", "hit")
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
    )
    if problem is not None:
        return problem
    for name in (*sel.leader, *(t for types, _ in sel.combined_limits for t in types)):
        problem = name_problem("leader or combined_limits", name)
        if problem is not None:
            return problem
    named = [("limits", s, n) for s, n in sel.limits] + [
        ("keyword_limits", k, n) for k, n in sel.keyword_limits
    ]
    for field, name, n in named:
        problem = name_problem(field, name)
        if problem is None and not (0 <= n <= most):
            problem = f"field {field!r}: {brief(name)}: must be from 0 to {most}, got {brief(n)}"
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


def name_key(name: str) -> str:
    """How the engine tells names apart: case and runs of white space ignored (the action
    notation reads names in lower case with single spaces: ``"Shoot KAS-1 bolt pistol"``;
    roster entries are stripped; loadout options and equipment match ignoring case)."""
    return " ".join(name.casefold().split())


def rule_key(name: str) -> str:
    """How the engine tells the names of team rules apart (abilities, unique actions, ploys,
    equipment): their rule ids are made of the name's slug (:func:`engine.rules.registry.slug`:
    case, punctuation and spacing ignored, ``"Dark Gods' Favour"`` -> ``dark_gods_favour``)."""
    from engine.rules.registry import slug  # the registry imports this module

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
