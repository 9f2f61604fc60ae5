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
"""

from __future__ import annotations

from collections import Counter

import attrs

from engine.dice.profile import AttackProfile
from engine.dice.rules import WeaponRules

__all__ = [
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
    "format_entry",
    "parse_entry",
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
    """

    team: Team
    operatives: tuple[str, ...]
    loadouts: tuple[tuple[str, ...] | None, ...] = ()

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
        """Operative ``index``'s datacard carrying exactly its loadout's weapons (1.2).

        Raises:
            KeyError: unknown type. ValueError: no or an illegal loadout.
        """
        card = self.team.operative(self.operatives[index])
        return card.with_loadout(self.resolved_loadout(index))

    def validate(self) -> list[str]:
        """Every broken selection rule or option rule, each as one message naming the rule;
        empty if legal."""
        problems: list[str] = []
        sel = self.team.selection
        known = {op.name for op in self.team.operatives}
        for name in sorted(set(self.operatives) - known):
            problems.append(f"unknown operative {name!r}: not in team {self.team.name!r}")
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
