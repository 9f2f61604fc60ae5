"""KT21 weapon rules as data: the common special rules (SR) and critical hit rules (!) of
``rules/KT21.md`` 12, parsed from datacard strings, and the KT21 distance shapes (4.1, 7.1).

A KT21 datacard gives a profile's SR and ! columns; the project's data files write both in one
comma-separated string, SR first, e.g. ``Rng 6", AP1, Lethal 5+`` or ``Blast 2", MW2``.
Distances may be written with the KT21 shapes (``Rng ⬟``, ``Blast ●``, :data:`SHAPES`) or in
inches with the inch mark; they are held in inches. :func:`parse_kt21_weapon_rules` turns a
string into :class:`Kt21WeaponRules` and :meth:`Kt21WeaponRules.format` gives it back in
canonical spelling (inches), which parses to the same value.

The KT21 names differ from KT24's (APx is KT24's Piercing x, MWx its Devastating x...) and
several rules of the same name mean something else (Ceaseless, Hot, Stun, Blast, Torrent:
``rules/KT21.md`` 12, "Δ KT24"), so KT21 rules are their own vocabulary, never KT24 specs.
A token ending in ``*`` is a team rule explained on its datacard (:attr:`Kt21Rule.team`); an
unknown name raises :class:`~engine.errors.WeaponRuleError`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import attrs

from engine.dice.rules import split_rule_tokens
from engine.errors import WeaponRuleError

__all__ = [
    "DISTANCE_RULES",
    "FLAG_RULES",
    "NUMBER_RULES",
    "SHAPES",
    "THRESHOLD_RULES",
    "Kt21Rule",
    "Kt21WeaponRules",
    "parse_kt21_weapon_rules",
    "shape_inches",
]

SHAPES: dict[str, float] = {"▲": 1.0, "●": 2.0, "⬤": 2.0, "◯": 2.0, "○": 2.0, "■": 3.0, "⬟": 6.0}
"""The KT21 distance shapes in inches (``rules/KT21.md`` 4.1, 7.1): triangle 1", circle 2"
(datacards print it filled or hollow), square 3", pentagon 6"."""

FLAG_RULES = (
    "Balanced",
    "Barrage",
    "Brutal",
    "Ceaseless",
    "Fusillade",
    "Heavy",
    "Hot",
    "Indirect",
    "Limited",
    "No Cover",
    "Psychic",
    "Relentless",
    "Rending",
    "Silent",
    "Stun",
    "Unwieldy",
)
"""Rules without a value (``rules/KT21.md`` 12). ``Psychic`` marks a psychic power's weapon
profile (no dice effect; the injury penalty does not apply to it, DC 16.33)."""

NUMBER_RULES = ("AP", "P", "MW", "Splash", "Reap")
"""Rules with a whole number: ``AP1``, ``P1``, ``MW2`` (written without a space, as the
datacards print them), ``Splash 1``, ``Reap 2`` (12)."""

THRESHOLD_RULES = ("Lethal",)
"""Rules with a dice threshold: ``Lethal 5+`` (12)."""

DISTANCE_RULES = ("Rng", "Blast", "Torrent")
"""Rules with a distance: ``Rng 6"``, ``Blast 2"``, ``Torrent 2"`` (or a shape, 12)."""

_UNSPACED = ("AP", "P", "MW")
_NAMES = {n.lower(): n for n in (*FLAG_RULES, *NUMBER_RULES, *THRESHOLD_RULES, *DISTANCE_RULES)}
_NAMES["range"] = "Rng"


def shape_inches(text: str) -> float:
    """The distance a KT21 datacard writes as ``text``, in inches: shapes with optional counts
    summed (``3⬤`` = 6, ``2● ▲`` = 5, ``⬟`` = 6, ``■`` = 3) or inches (``6"``, ``6``).

    Raises:
        WeaponRuleError: text that is neither (naming it).
    """
    clean = "".join(str(text).split())
    if not clean:
        raise WeaponRuleError("empty distance", token=str(text), text=str(text))
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(?:\"|'')?", clean)
    if m is not None:
        return float(m.group(1))
    total = 0.0
    pos = 0
    for part in re.finditer(r"(\d*)(\D)", clean):
        if part.start() != pos or part.group(2) not in SHAPES:
            raise WeaponRuleError(
                f"not a KT21 distance: {text!r:.40} (shapes ▲ ● ■ ⬟ with counts, or inches)",
                token=str(text),
                text=str(text),
            )
        total += int(part.group(1) or 1) * SHAPES[part.group(2)]
        pos = part.end()
    if pos != len(clean):
        raise WeaponRuleError(
            f"not a KT21 distance: {text!r:.40} (shapes ▲ ● ■ ⬟ with counts, or inches)",
            token=str(text),
            text=str(text),
        )
    return total


def _inches(x: float) -> str:
    return f'{int(x)}"' if x == int(x) else f"{x:g}" + '"'


@attrs.frozen(slots=True)
class Kt21Rule:
    """One KT21 weapon rule (``rules/KT21.md`` 12).

    Attributes:
        name: canonical name (``"AP"``, ``"Lethal"``, ``"Rng"``, ``"No Cover"``...), or the
            team rule's name when ``team``.
        value: the number (AP/P/MW/Splash/Reap count, Lethal threshold) or the distance in
            inches (Rng/Blast/Torrent); ``None`` for flags and team rules.
        team: a team rule explained on the datacard (written ``Name*``).
    """

    name: str
    value: float | None = None
    team: bool = False

    def format(self) -> str:
        """The canonical spelling (``AP1``, ``Lethal 5+``, ``Rng 6"``, ``Silent``, ``X*``)."""
        if self.team:
            return f"{self.name}*"
        if self.value is None:
            return self.name
        if self.name in _UNSPACED:
            return f"{self.name}{int(self.value)}"
        if self.name in THRESHOLD_RULES:
            return f"{self.name} {int(self.value)}+"
        if self.name in DISTANCE_RULES:
            return f"{self.name} {_inches(self.value)}"
        return f"{self.name} {int(self.value)}"


@attrs.frozen(slots=True)
class Kt21WeaponRules:
    """The KT21 weapon rules of one profile, in datacard order.

    Attributes:
        rules: the :class:`Kt21Rule` values.
    """

    rules: tuple[Kt21Rule, ...] = ()

    def __iter__(self) -> Iterator[Kt21Rule]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def __bool__(self) -> bool:
        return bool(self.rules)

    def format(self) -> str:
        """The canonical string (``""`` when there are none)."""
        return ", ".join(r.format() for r in self.rules)

    def __str__(self) -> str:
        return self.format()

    def has(self, name: str) -> bool:
        """Whether a (non-team) rule called ``name`` is present."""
        return any(r.name == name and not r.team for r in self.rules)

    def value(self, name: str) -> float | None:
        """The value of the rule ``name``; with several, the best for the attacker (the
        highest AP/P/MW/Splash/Reap/distance, the lowest Lethal threshold: two instances never
        add, ``rules/KT21.md`` 12); ``None`` when absent."""
        values = [r.value for r in self.rules if r.name == name and not r.team and r.value]
        if not values:
            return None
        return min(values) if name in THRESHOLD_RULES else max(values)

    def team_rules(self) -> tuple[str, ...]:
        """The names of the team rules (``*``), in order."""
        return tuple(r.name for r in self.rules if r.team)


def _token(token: str, source: str) -> Kt21Rule:
    clean = " ".join(token.split())
    if not clean:
        raise WeaponRuleError(f"empty weapon rule in {source!r:.80}", token=token, text=source)
    if clean.endswith("*"):
        name = clean[:-1].strip()
        if not name:
            raise WeaponRuleError(
                f"empty team rule '*' in {source!r:.80}", token=token, text=source
            )
        return Kt21Rule(name, None, True)
    flag = _NAMES.get(clean.lower())
    if flag in FLAG_RULES:
        return Kt21Rule(flag)
    m = re.fullmatch(r"(AP|P|MW)\s*(\d+)", clean, flags=re.IGNORECASE)
    if m is not None:
        return Kt21Rule(m.group(1).upper(), float(_positive(m.group(2), clean, source)))
    m = re.fullmatch(r"([A-Za-z]+)\s+(.+)", clean)
    if m is not None:
        named = _NAMES.get(m.group(1).lower())
        name = named or ""
        arg = m.group(2)
        if name in ("Splash", "Reap"):
            if arg.isdigit():
                return Kt21Rule(name, float(_positive(arg, clean, source)))
        elif name in THRESHOLD_RULES:
            t = re.fullmatch(r"([2-6])\+", arg)
            if t is not None:
                return Kt21Rule(name, float(t.group(1)))
        elif name in DISTANCE_RULES:
            try:
                return Kt21Rule(name, shape_inches(arg))
            except WeaponRuleError:
                pass
        if named is not None:
            raise WeaponRuleError(
                f"malformed KT21 weapon rule {clean!r} in {source!r:.80}: not a valid form "
                f"of {name}",
                token=clean,
                text=source,
            )
    raise WeaponRuleError(
        f"unknown KT21 weapon rule {clean!r} in {source!r:.80} (not a common special or "
        "critical hit rule of rules/KT21.md 12; team rules end with '*')",
        token=clean,
        text=source,
    )


def _positive(text: str, token: str, source: str) -> int:
    value = int(text)
    if value < 1:
        raise WeaponRuleError(
            f"weapon rule {token!r} in {source!r:.80} needs a value of at least 1",
            token=token,
            text=source,
        )
    return value


def parse_kt21_weapon_rules(text: str) -> Kt21WeaponRules:
    """Parse a KT21 datacard weapon-rule string (SR then ! rules, comma-separated).

    Args:
        text: e.g. ``'Rng ⬟, AP1, Lethal 5+'``; ``""`` and ``"-"`` mean none. Names are
            matched case-insensitively; distances as shapes or inches with the inch mark.

    Raises:
        WeaponRuleError: naming the bad token (an unknown rule, a malformed value such as
            ``Lethal 7+`` or ``AP0``, an empty token).
    """
    if not isinstance(text, str):
        raise WeaponRuleError(f"weapon rules must be a string, not {type(text).__name__}")
    stripped = text.strip()
    if stripped in ("", "-"):
        return Kt21WeaponRules()
    return Kt21WeaponRules(tuple(_token(t, text) for t in split_rule_tokens(stripped)))
