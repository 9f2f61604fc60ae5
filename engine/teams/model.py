"""Team datacards and rosters (``rules/KT24.md`` sections 2.1-2.2, 7).

A :class:`Team` is immutable data: operatives (datacards), their weapons (one or more
profiles each, with weapon-rule specs from the dice core), abilities and unique actions,
strategy and firefight ploys, equipment, selection rules and provenance. Descriptions are
the project's own one-line summaries; where a team came from a community dataset,
``source_ref`` points at the source record instead of copying its text.

A :class:`Roster` is a selection of operatives from a team; :meth:`Roster.validate` lists
every broken selection rule by name.
"""

from __future__ import annotations

from collections import Counter

import attrs

from engine.dice.profile import AttackProfile
from engine.dice.rules import WeaponRules

__all__ = [
    "Ability",
    "Equipment",
    "Operative",
    "Ploy",
    "Provenance",
    "Roster",
    "Selection",
    "Team",
    "Weapon",
    "WeaponProfile",
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
class Operative:
    """An operative datacard (section 2.1).

    Attributes:
        name: the operative type, e.g. ``"Kasrkin Sergeant"``.
        keywords: datacard keywords, upper case (faction keyword first).
        apl: action point limit. move: Move in inches. save: Save threshold 2..6.
        wounds: starting wounds. base_mm: base diameter in millimetres.
        weapons: the weapons it carries. abilities: passive abilities.
        actions: unique actions (each with its AP cost).
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
        limits: ``(operative type, at most)`` pairs for types with a cap (others uncapped).
        keyword_limits: ``(keyword, at most)`` pairs, e.g. at most 2 GUNNER operatives.
        combined_limits: ``((operative types...), at most)`` pairs: at most that many
            operatives of those types together (e.g. Gunners and the Sharpshooter).
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
        selection: the roster rules. default_roster: a legal roster, as operative types.
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
        """The team's default roster."""
        return Roster(self, self.default_roster)


@attrs.frozen(slots=True)
class Roster:
    """A selection of operatives from a team (operative types, repeated as selected).

    Attributes:
        team: the team. operatives: operative type names, one entry per operative.
    """

    team: Team
    operatives: tuple[str, ...]

    def validate(self) -> list[str]:
        """Every broken selection rule, each as one message naming the rule; empty if legal."""
        problems: list[str] = []
        sel = self.team.selection
        known = {op.name for op in self.team.operatives}
        for name in sorted(set(self.operatives) - known):
            problems.append(f"unknown operative {name!r}: not in team {self.team.name!r}")
        lo, hi = sel.size
        n = len(self.operatives)
        if not lo <= n <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            problems.append(f"size: {n} operatives selected, the team selects {want}")
        counts = Counter(self.operatives)
        leaders = sum(counts[t] for t in sel.leader)
        if sel.leader and leaders != 1:
            names = " or ".join(repr(t) for t in sel.leader)
            problems.append(
                f"leader: select exactly one {names} (selected {leaders})"
            )
        for name, most in sel.limits:
            if counts[name] > most:
                problems.append(f"limit: at most {most} {name!r} (selected {counts[name]})")
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
        for types, most in sel.combined_limits:
            have = sum(counts[t] for t in types)
            if have > most:
                names = ", ".join(repr(t) for t in types)
                problems.append(f"combined limit: at most {most} of {names} together (selected {have})")
        return problems

    @property
    def legal(self) -> bool:
        """Whether :meth:`validate` finds nothing."""
        return not self.validate()
