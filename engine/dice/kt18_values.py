"""KT18 random characteristics and dice values (``rules/KT18.md`` 1.2, 1.8, 1.9, 5.7).

A KT18 datasheet or weapon writes some values as dice: a number of shots ``"D6"``, Damage
``"D3"``, Attacks ``"2"``, a Move or charge of ``"2D6"``, sometimes with a bonus
(``"D3+1"``). :class:`RandomValue` holds one such value; :func:`parse_random_value` reads the
printed form and :meth:`RandomValue.format` writes it back. A D3 is a D6 halved, rounding up
(1-2 -> 1, 3-4 -> 2, 5-6 -> 3; 1.2), so every value here is rolled with D6s.
"""

from __future__ import annotations

import re
from fractions import Fraction

import attrs

__all__ = ["MAX_DICE", "RandomValue", "d3_of", "parse_random_value"]

MAX_DICE = 6
"""The most dice one value may roll (``"6D6"``): bounds the work an input can cause."""

_VALUE = re.compile(r"\s*(?:(\d{1,2})|(\d?)\s*[dD]\s*([36])\s*(?:\+\s*(\d{1,2}))?)\s*")


def d3_of(face: int) -> int:
    """The D3 result of a D6 ``face`` 1..6 (halved, rounding up; ``rules/KT18.md`` 1.2)."""
    return (face + 1) // 2


@attrs.frozen(slots=True)
class RandomValue:
    """A fixed or random value: ``dice`` dice of ``sides`` (3 or 6) plus ``bonus``; a fixed
    value has ``dice == 0`` and is ``bonus`` (``rules/KT18.md`` 1.8, 1.9).

    Attributes:
        dice: how many dice, 0..:data:`MAX_DICE`. sides: 3 (each a halved D6) or 6.
        bonus: added to the dice's sum (the whole value when ``dice`` is 0), 0..99.
    """

    dice: int = 0
    sides: int = 6
    bonus: int = 0

    @property
    def fixed(self) -> bool:
        """No dice are rolled."""
        return self.dice == 0

    @property
    def low(self) -> int:
        """The smallest value."""
        return self.dice + self.bonus

    @property
    def high(self) -> int:
        """The largest value."""
        return self.dice * self.sides + self.bonus

    def value(self, faces: tuple[int, ...]) -> int:
        """The value of ``faces`` (one D6 face 1..6 per die, :attr:`dice` of them).

        Raises:
            ValueError: the wrong number of faces, or a face outside 1..6."""
        if len(faces) != self.dice or any(not 1 <= f <= 6 for f in faces):
            raise ValueError(f"{self.format()} needs {self.dice} D6 face(s) 1..6, got {faces}")
        per = d3_of if self.sides == 3 else int
        return sum(per(f) for f in faces) + self.bonus

    def pmf(self) -> dict[int, Fraction]:
        """The exact distribution of the value: ``{value: probability}``."""
        dist = {self.bonus: Fraction(1)}
        one: dict[int, Fraction] = {}
        for f in range(1, 7):
            v = d3_of(f) if self.sides == 3 else f
            one[v] = one.get(v, Fraction(0)) + Fraction(1, 6)
        for _ in range(self.dice):
            nxt: dict[int, Fraction] = {}
            for total, p in dist.items():
                for face, q in one.items():
                    nxt[total + face] = nxt.get(total + face, Fraction(0)) + p * q
            dist = nxt
        return dist

    def format(self) -> str:
        """The printed form (``"2"``, ``"D6"``, ``"2D3"``, ``"D3+1"``)."""
        if self.fixed:
            return str(self.bonus)
        count = "" if self.dice == 1 else str(self.dice)
        plus = f"+{self.bonus}" if self.bonus else ""
        return f"{count}D{self.sides}{plus}"


def parse_random_value(text: str, what: str = "value") -> RandomValue:
    """Read a printed KT18 value: a whole number (``"3"``) or dice (``"D6"``, ``"2D6"``,
    ``"D3+1"``); ``what`` names the characteristic in the error.

    Raises:
        ValueError: anything else, or more than :data:`MAX_DICE` dice (the message names
            ``what`` and the text)."""
    m = _VALUE.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise ValueError(
            f"{what}: expected a number or dice such as 2, D3, 2D6 or D3+1, not {str(text)[:40]!r}"
        )
    fixed, count, sides, bonus = m.groups()
    if fixed is not None:
        return RandomValue(0, 6, int(fixed))
    dice = int(count) if count else 1
    if not 1 <= dice <= MAX_DICE:
        raise ValueError(f"{what}: {dice} dice is outside 1..{MAX_DICE} ({text.strip()!r})")
    return RandomValue(dice, int(sides), int(bonus or 0))
