"""Attack profiles, shooting targets and fighters: the inputs of the dice core.

Numbers follow the datacard: Hit and Save are thresholds written ``3+`` (stored as the int
3), damage is ``normal/critical`` (``3/4``). KT24 (``rules/KT24.md`` section 2.4 and the
project's decision 6): a 1 always fails and a 6 is always a critical success, so thresholds
range from 2+ to 6+.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import attrs

from engine.dice.rules import WeaponRules
from engine.errors import ProfileError

__all__ = [
    "AttackProfile",
    "Fighter",
    "Target",
    "parse_damage",
    "parse_threshold",
]

DEFENCE_DICE = 3  # KT24: always three defence dice, less Piercing (section 2.1)
#: How the defender retains cover saves (see :class:`Target`).
COVER_CHOICES = ("best", "critical", "two_normals", "normal", "none")


def parse_threshold(text: str | int, what: str = "threshold") -> int:
    """Parse a dice threshold such as ``"3+"`` (or ``3``) into the int 3.

    Args:
        text: ``"2+"`` to ``"6+"``, or an int from 2 to 6.
        what: the field name used in the error message (``"Hit"``, ``"Save"``).

    Raises:
        ProfileError: when the value is not a threshold from 2+ to 6+.
    """
    if isinstance(text, bool):
        raise ProfileError(f"{what} must be a threshold from 2+ to 6+, not {text!r}")
    if isinstance(text, int):
        value = text
    else:
        m = re.fullmatch(r"\s*(\d+)\+?\s*", str(text))
        if m is None:
            raise ProfileError(f"{what} {text!r} is not a threshold such as 3+")
        value = int(m.group(1))
    if not 2 <= value <= 6:
        raise ProfileError(f"{what} {text!r} is out of range: thresholds run from 2+ to 6+")
    return value


def parse_damage(text: str) -> tuple[int, int]:
    """Parse a damage characteristic ``"3/4"`` into ``(normal, critical)``.

    Raises:
        ProfileError: when it is not two whole numbers separated by ``/`` (e.g. ``"3"``).
    """
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", str(text))
    if m is None:
        raise ProfileError(
            f"damage {text!r} must be normal/critical damage such as 3/4 (both values needed)"
        )
    return int(m.group(1)), int(m.group(2))


_Validator = Callable[[Any, Any, Any], None]


def _to_rules(value: str | WeaponRules | None) -> WeaponRules:
    """Converter: a weapon-rule string (parsed), ``None`` or a :class:`WeaponRules`."""
    return WeaponRules.of(value)


def _check_threshold(what: str) -> _Validator:
    def check(_inst: object, _attr: object, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 6:
            raise ProfileError(f"{what} {value!r} is out of range: thresholds run from 2+ to 6+")

    return check


def _check_count(what: str, minimum: int = 0, maximum: int = 4000) -> _Validator:
    def check(_inst: object, _attr: object, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
            raise ProfileError(
                f"{what} must be a whole number from {minimum} to {maximum}, not {value!r}"
            )

    return check


@attrs.frozen(slots=True)
class AttackProfile:
    """One weapon profile as used in an attack (``rules/KT24.md`` section 2.2).

    Attributes:
        attacks: attack dice (0 to 30).
        hit: success threshold, 2 to 6 (``3`` means 3+).
        normal_damage: damage of each unblocked normal success.
        critical_damage: damage of each unblocked critical success.
        rules: the weapon rules (a string is parsed).

    Raises:
        ProfileError: on an impossible value; WeaponRuleError on a bad rules string.
    """

    attacks: int = attrs.field(validator=_check_count("attacks", 0, 30))
    hit: int = attrs.field(validator=_check_threshold("Hit"))
    normal_damage: int = attrs.field(validator=_check_count("normal damage"))
    critical_damage: int = attrs.field(validator=_check_count("critical damage"))
    rules: WeaponRules = attrs.field(factory=WeaponRules, converter=_to_rules)

    @classmethod
    def parse(
        cls, attacks: int | str, hit: int | str, damage: str, rules: str | WeaponRules = ""
    ) -> AttackProfile:
        """Build from datacard strings: ``AttackProfile.parse(4, "3+", "3/4", "Lethal 5+")``.

        Raises:
            ProfileError: for a bad number, threshold or damage string.
            WeaponRuleError: for a bad weapon-rule string.
        """
        try:
            n = int(attacks)
        except (TypeError, ValueError):
            raise ProfileError(f"attacks {attacks!r} is not a whole number") from None
        normal, crit = parse_damage(damage)
        return cls(n, parse_threshold(hit, "Hit"), normal, crit, WeaponRules.of(rules))

    def with_hit(self, hit: int) -> AttackProfile:
        """A copy with another Hit (clamped to 2..6: a 6 always succeeds, a 1 always fails)."""
        return attrs.evolve(self, hit=min(6, max(2, hit)))


@attrs.frozen(slots=True)
class Target:
    """The defender's side of a shooting attack (``rules/KT24.md`` sections 4.5, 4.7, 5.1).

    Attributes:
        save: defence threshold, 2 to 6.
        wounds: wounds remaining (>= 1); used for the kill probability.
        in_cover: the target is in cover (it may retain one cover save, see ``cover_choice``;
            none against Saturate).
        obscured: the target is obscured (one attack success discarded, crits become normal).
        improved_cover: Vantage against a Conceal target in Light terrain: the cover save is
            improved (implies ``in_cover``).
        cover_choice: how the defender uses its cover saves. ``"best"`` (default):
            against the attack dice actually retained, the option of least expected damage
            among retaining the cover save(s) or fewer or none (cover saves are optional;
            ties go to retaining more). Forced choices: ``"none"`` retains no cover save;
            ``"normal"`` one normal cover save; with improved cover ``"critical"`` one cover
            save retained as a critical success and ``"two_normals"`` two normal ones (for a
            plain cover save these two simply retain it).
    """

    save: int = attrs.field(validator=_check_threshold("Save"))
    wounds: int = attrs.field(validator=_check_count("wounds", 1))
    in_cover: bool = False
    obscured: bool = False
    improved_cover: bool = False
    cover_choice: str = attrs.field(default="best")

    @cover_choice.validator
    def _check_choice(self, _attr: object, value: str) -> None:
        if value not in COVER_CHOICES:
            raise ProfileError(f"cover_choice {value!r} must be one of {', '.join(COVER_CHOICES)}")


@attrs.frozen(slots=True)
class Fighter:
    """One side of a fight: its melee profile and wounds remaining (section 5.2).

    Attributes:
        profile: the melee weapon profile used (assists are already folded into ``hit``).
        wounds: wounds remaining (>= 1).
    """

    profile: AttackProfile
    wounds: int = attrs.field(validator=_check_count("wounds", 1))
