"""Datacards: operatives, their weapons and profiles, abilities and unique actions, ploys,
equipment and wargear options (``rules/KT24.md`` sections 2.1-2.2, 7).

Immutable data. Descriptions are the project's own one-line summaries; where a team came from
a community dataset, ``source_ref`` points at the source record instead of copying its text.

An operative type's wargear options are :class:`LoadoutSlot` values on its datacard (1.2,
2.2): the player picks one :class:`LoadoutOption` from each slot ("one of the following
options" is one slot of whole weapon sets; "one option from each of the following" is one slot
per line). A type without slots carries every weapon on its card. The team and the roster are
in :mod:`engine.teams.roster`, the bounds on all of it in :mod:`engine.teams.limits`;
:mod:`engine.teams.model` gathers the three.
"""

from __future__ import annotations

import attrs

from engine.dice.kt21_rules import Kt21WeaponRules
from engine.dice.profile import AttackProfile
from engine.dice.rules import WeaponRules
from engine.teams.kt18_cards import Kt18Profile, Kt18Weapon

__all__ = [
    "PLOY_KINDS",
    "WEAPON_KINDS",
    "Ability",
    "Equipment",
    "LoadoutOption",
    "LoadoutSlot",
    "Operative",
    "Ploy",
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
        kt21_rules: a KT21 profile's special and critical hit rules
            (:mod:`engine.dice.kt21_rules`, ``rules/KT21.md`` 12); empty for KT24 profiles,
            whose ``rules`` are empty in turn for KT21 ones. ``hit`` is the BS or WS.
        kt18: a KT18 weapon profile (:class:`~engine.teams.kt18_cards.Kt18Weapon`,
            ``rules/KT18.md`` 1.8); ``None`` for KT24 and KT21 profiles. A KT18 profile's
            other values are placeholders.
    """

    name: str
    attacks: int
    hit: int
    normal_damage: int
    critical_damage: int
    rules: WeaponRules = attrs.field(factory=WeaponRules)
    kt21_rules: Kt21WeaponRules = attrs.field(factory=Kt21WeaponRules)
    kt18: Kt18Weapon | None = None

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
        defence: KT21's DF, the defence dice rolled when it is shot (``rules/KT21.md`` 4.1;
            KT24 always rolls 3). group_activation: KT21's GA (3.2; 1 in KT24).
        invulnerable: KT21's Invulnerable Save x+ (10.3); ``0`` when it has none.
        kt18: a KT18 model's characteristics besides M (``move``) and W (``wounds``)
            (:class:`~engine.teams.kt18_cards.Kt18Profile`, ``rules/KT18.md`` 1.7); ``None``
            for KT24 and KT21 datacards. A KT18 card's APL and save are placeholders.
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
    defence: int = 3
    group_activation: int = 1
    invulnerable: int = 0
    kt18: Kt18Profile | None = None

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
