"""KT21 inputs of the dice core: an attack profile, a shooting target and a fighter
(``rules/KT21.md`` 4.1, 4.3, 10, 11).

KT21 datacards give a weapon's A (attack dice), BS or WS (a threshold written ``3+``), D
(``normal/critical``) and its special (SR) and critical hit (!) rules, held as
:class:`~engine.dice.kt21_rules.Kt21WeaponRules`; a target has DF (defence dice), SV, W and
maybe an invulnerable save. A 1 always fails and a 6 always succeeds (4.3), so a threshold
changed beyond 2+..6+ is clamped (:func:`clamp_threshold`): the KT21 core sets no other floor
(``rules/KT21.md`` 4.2, UNCONFIRMED point 12: no "no better than 2+" limit is known).
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.dice.kt21_rules import Kt21WeaponRules, parse_kt21_weapon_rules
from engine.dice.profile import parse_damage, parse_threshold
from engine.errors import ProfileError

__all__ = [
    "COVER_CHOICES",
    "MAX_DEFENCE",
    "SAVE_CHOICES",
    "Kt21Attack",
    "Kt21Defender",
    "Kt21Fighter",
    "clamp_threshold",
]

#: The most defence dice a KT21 target may have (datacards print 3; rules may add some).
MAX_DEFENCE = 6
#: How the defender picks between its Save and its invulnerable save (:class:`Kt21Defender`).
SAVE_CHOICES = ("best", "save", "invulnerable")
#: How the defender uses its cover save (:class:`Kt21Defender`).
COVER_CHOICES = ("best", "retain", "decline")


def clamp_threshold(value: int) -> int:
    """A BS, WS or SV after modifiers, clamped to 2..6 (a 1 always fails, a 6 always
    succeeds: ``rules/KT21.md`` 4.3, 10.1 step 3)."""
    return min(6, max(2, value))


def _to_rules(value: str | Kt21WeaponRules | None) -> Kt21WeaponRules:
    if value is None:
        return Kt21WeaponRules()
    if isinstance(value, Kt21WeaponRules):
        return value
    return parse_kt21_weapon_rules(value)


def _count(what: str, minimum: int, maximum: int) -> Any:
    def check(_inst: object, _attr: object, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
            raise ProfileError(
                f"{what} must be a whole number from {minimum} to {maximum}, not {value!r}"
            )

    return check


def _threshold(what: str, allow_none: bool = False) -> Any:
    def check(_inst: object, _attr: object, value: int) -> None:
        if allow_none and value == 0:
            return
        if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 6:
            extra = " (0 for none)" if allow_none else ""
            raise ProfileError(
                f"{what} {value!r} is out of range: thresholds run from 2+ to 6+{extra}"
            )

    return check


def _choice(what: str, choices: tuple[str, ...]) -> Any:
    def check(_inst: object, _attr: object, value: str) -> None:
        if value not in choices:
            raise ProfileError(f"{what} {value!r} must be one of {', '.join(choices)}")

    return check


@attrs.frozen(slots=True)
class Kt21Attack:
    """One KT21 weapon profile as used in an attack (``rules/KT21.md`` 4.1, 10.1, 11).

    Attributes:
        attacks: A, attack dice (0 to 30).
        hit: BS (ranged) or WS (melee), 2 to 6 (``3`` means 3+), modifiers already applied
            (injured, combat support: :meth:`with_hit` clamps).
        normal_damage, critical_damage: D, the damage of each normal / critical hit.
        rules: the KT21 SR and ! rules (a string is parsed with
            :func:`~engine.dice.kt21_rules.parse_kt21_weapon_rules`).

    Raises:
        ProfileError: an impossible number; WeaponRuleError: a bad rules string.
    """

    attacks: int = attrs.field(validator=_count("attacks", 0, 30))
    hit: int = attrs.field(validator=_threshold("BS/WS"))
    normal_damage: int = attrs.field(validator=_count("normal damage", 0, 4000))
    critical_damage: int = attrs.field(validator=_count("critical damage", 0, 4000))
    rules: Kt21WeaponRules = attrs.field(factory=Kt21WeaponRules, converter=_to_rules)

    @classmethod
    def parse(
        cls, attacks: int | str, hit: int | str, damage: str, rules: str | Kt21WeaponRules = ""
    ) -> Kt21Attack:
        """Build from datacard strings: ``Kt21Attack.parse(4, "3+", "3/4", "AP1, Rending")``.

        Raises:
            ProfileError: a bad number, threshold or damage; WeaponRuleError: bad rules.
        """
        try:
            n = int(attacks)
        except (TypeError, ValueError):
            raise ProfileError(f"attacks {attacks!r} is not a whole number") from None
        normal, crit = parse_damage(damage)
        return cls(n, parse_threshold(hit, "BS/WS"), normal, crit, _to_rules(rules))

    def with_hit(self, hit: int) -> Kt21Attack:
        """A copy with another BS/WS, clamped to 2..6 (:func:`clamp_threshold`)."""
        return attrs.evolve(self, hit=clamp_threshold(hit))

    def number(self, name: str) -> int:
        """The whole-number value of rule ``name`` (AP, P, MW, Splash, Reap, Lethal), the best
        of several (``rules/KT21.md`` 12: two instances never add), 0 when absent."""
        value = self.rules.value(name)
        return 0 if value is None else int(value)


@attrs.frozen(slots=True)
class Kt21Defender:
    """The target of a KT21 shooting attack (``rules/KT21.md`` 10.1 step 4, 10.2, 10.3).

    Attributes:
        defence: DF, defence dice (0 to :data:`MAX_DEFENCE`; datacards print 3).
        save: SV, 2 to 6.
        wounds: wounds remaining (>= 1), for the kill probability.
        invulnerable: the invulnerable save x+ (2 to 6), 0 for none; used instead of SV it
            rolls all DF dice whatever AP/P (10.3).
        in_cover: the target is in Cover (8.4): one defence die may be retained as a normal
            save without rolling, unless the weapon has No Cover or Indirect.
        save_choice: ``"best"`` (default): against the attack dice actually retained, the
            defender uses SV or the invulnerable save, whichever gives less expected damage
            (ties: SV); ``"save"`` / ``"invulnerable"`` force one.
        cover_choice: ``"best"`` (default): the defender retains the cover save unless
            rolling that die gives less expected damage (a rolled 6 is a critical save, which
            alone blocks a critical hit; ties: retain); ``"retain"`` / ``"decline"`` force it.

    Raises:
        ProfileError: an impossible value.
    """

    defence: int = attrs.field(validator=_count("DF (defence dice)", 0, MAX_DEFENCE))
    save: int = attrs.field(validator=_threshold("SV"))
    wounds: int = attrs.field(validator=_count("wounds", 1, 4000))
    invulnerable: int = attrs.field(default=0, validator=_threshold("invulnerable save", True))
    in_cover: bool = False
    save_choice: str = attrs.field(default="best", validator=_choice("save_choice", SAVE_CHOICES))
    cover_choice: str = attrs.field(
        default="best", validator=_choice("cover_choice", COVER_CHOICES)
    )

    def __attrs_post_init__(self) -> None:
        if self.save_choice == "invulnerable" and not self.invulnerable:
            raise ProfileError("save_choice 'invulnerable' needs an invulnerable save")


@attrs.frozen(slots=True)
class Kt21Fighter:
    """One side of a KT21 fight (``rules/KT21.md`` 11).

    Attributes:
        profile: the melee weapon profile (its WS as on the datacard, modifiers applied except
            combat support).
        wounds: wounds remaining (>= 1).
        support: combat support, the number of other friendly operatives within Engagement
            Range of the enemy and of no other enemy: each improves the WS by 1 for this
            combat (11 step 3); the result is clamped to 2+.
        parry_two: the fighter's rule "a parry discards two" (``rules/KT21.md`` 16.16): a normal
            parry discards two normal hits, a critical parry any two hits.
    """

    profile: Kt21Attack
    wounds: int = attrs.field(validator=_count("wounds", 1, 4000))
    support: int = attrs.field(default=0, validator=_count("combat support", 0, 10))
    parry_two: bool = False

    @property
    def effective(self) -> Kt21Attack:
        """The profile rolled in the fight: WS improved by 1 per supporting operative."""
        if not self.support:
            return self.profile
        return self.profile.with_hit(self.profile.hit - self.support)
