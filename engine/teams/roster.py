"""Teams and rosters (``rules/KT24.md`` sections 2.2, 7): a :class:`Team` (its datacards,
selection rules and provenance) and a :class:`Roster` drawn from it.

A :class:`Roster` is a selection of operatives from a team, each with its loadout;
:meth:`Roster.validate` lists every broken selection and option rule by name. Selection limits
name *selectors*: an operative type (``"Kasrkin Gunner"``) or one option of a type
(``"Kasrkin Gunner [Meltagun]"``, see :func:`parse_entry`). The roster-time choices a team's
rules declare (Marks of Chaos, Chapter Tactics) are read from :mod:`engine.teams.choices`.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

import attrs

from engine.names import slug
from engine.teams.choices import specs_of
from engine.teams.datacards import Ability, Equipment, Operative, Ploy

__all__ = ["Provenance", "Roster", "Selection", "Team", "format_entry", "parse_entry"]


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
        weights: ``(operative type, selections)`` pairs for the types that count as more or
            less than one selection (a drone that "counts as two selections": 2; a Grot that
            counts as half a selection: 0.5); every other type counts as one. ``size`` is
            counted in selections (:meth:`selections`).
        minimums: ``(selector, at least)`` pairs for types or options a roster must include
            (a team composed of "1 X operative" and others: ``("X", 1)`` with a limit of 1
            makes it exactly one).
    """

    size: tuple[int, int]
    leader: tuple[str, ...] = attrs.field(default=(), converter=_leader_types)
    limits: tuple[tuple[str, int], ...] = ()
    keyword_limits: tuple[tuple[str, int], ...] = ()
    combined_limits: tuple[tuple[tuple[str, ...], int], ...] = ()
    weights: tuple[tuple[str, float], ...] = ()
    minimums: tuple[tuple[str, int], ...] = ()

    def weight(self, operative_type: str) -> float:
        """How many selections one operative of ``operative_type`` counts as (1 unless
        :attr:`weights` says otherwise)."""
        return next((w for t, w in self.weights if t == operative_type), 1.0)

    def selections(self, operative_types: tuple[str, ...] | list[str]) -> int:
        """How many selections a roster of ``operative_types`` (one entry per operative)
        makes, as ``size`` counts them: the sum of their weights, a fraction left over
        rounded up (a lone half selection still takes a whole one: the text lets two halves
        share one selection, never a selection be split; docs/RULINGS.md)."""
        total = sum(self.weight(t) for t in operative_types)
        return math.ceil(total - 1e-9)


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


def _text_pairs(value: Any) -> tuple[tuple[str, str], ...]:
    """Converter: a mapping or pairs -> sorted ``(reference, key)`` pairs (checked by
    :func:`engine.teams.limits.team_problem`)."""
    items = value.items() if isinstance(value, Mapping) else value
    return tuple(sorted((ref, key) for ref, key in items))


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
        rule_texts: the identity of each printed rule text the team carries, as ``(rule
            reference, text key)`` pairs (``("faction_rule/astartes", "3f0c...@")``:
            :mod:`engine.teams.rule_text`; a mapping is accepted); empty when the team
            came without texts (the built-in teams). Found through it, a rule implemented
            for another team that prints the same text is played for this one
            (:func:`engine.rules.registry.team_rules`).
        edition: the ruleset the team's datacards are written for (``"kt24"``, ``"kt21"``:
            KT21 datacards carry DF, GA and KT21 weapon rules, ``rules/KT21.md`` 4.1).
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
    rule_texts: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_text_pairs)
    edition: str = "kt24"

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
        return {s.name: s for s in specs_of(slug(self.team.id))}

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
        if team.edition == "kt18":
            # Placeholder until the KT18 roster notation (engine.teams.kt18_selection) lands:
            # a KT18 entry may end with the model's specialism, "Type [Option] (Leader)"
            # (rules/KT18.md 1.6 part 6); it is set aside here, not validated.
            entries = [re.sub(r"\s*\([^()\[\]]{1,40}\)\s*$", "", e) for e in entries]
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
        if not sel.weights and not lo <= n <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            problems.append(f"size: {n} operatives selected, the team selects {want}")
        elif sel.weights and not lo <= (made := sel.selections(self.operatives)) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            odd = ", ".join(
                f"{t!r} counts as {w:g}" for t, w in sel.weights if t in self.operatives
            )
            problems.append(
                f"size: team {self.team.name!r} selects {want} selections; these {n} "
                f"operatives make {made}" + (f" ({odd})" if odd else "")
            )
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
        for selector, least in sel.minimums:
            have = count((selector,))
            if have < least:
                problems.append(
                    f"minimum: team {self.team.name!r} must select at least {least} "
                    f"{selector!r} (selected {have})"
                )
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
