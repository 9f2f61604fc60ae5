"""Weapon rules as data: typed specs parsed from datacard strings (``rules/KT24.md`` section 6).

A datacard lists a weapon's rules as one comma-separated string, for example
``Range 8", Lethal 5+, Piercing 1`` or ``2" Devastating 1, Heavy (Dash only)``. This module
turns such a string into a :class:`WeaponRules` value (a tuple of frozen rule specs) and back:
``parse_weapon_rules(s).format()`` gives the canonical spelling, and parsing a canonical
string and formatting it again returns the same string.

Every KT24 universal weapon rule is known (Accurate, Balanced, Blast, Brutal, Ceaseless,
Devastating, Heavy, Hot, Lethal, Limited, Piercing, Piercing Crits, Punishing, Range,
Relentless, Rending, Saturate, Seek, Seek Light, Severe, Shock, Silent, Stun, Torrent), plus
the ``PSYCHIC`` marker. A token ending in ``*`` is a team-specific rule and parses to
:class:`TeamRule`; anything else unknown raises :class:`~engine.errors.WeaponRuleError`.

Each rule class is registered once (its pattern and its ``contribute`` hook); the dice core
never looks at rule names, only at the :class:`DiceRules` summary the hooks build. A new
weapon rule is therefore one class here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import ClassVar, TypeVar

import attrs

from engine.errors import WeaponRuleError

__all__ = [
    "Accurate",
    "Balanced",
    "Blast",
    "Brutal",
    "Ceaseless",
    "Devastating",
    "DiceRules",
    "Heavy",
    "Hot",
    "Lethal",
    "Limited",
    "Piercing",
    "PiercingCrits",
    "Psychic",
    "Punishing",
    "Range",
    "Relentless",
    "Rending",
    "RerollMode",
    "Saturate",
    "Seek",
    "SeekLight",
    "Severe",
    "Shock",
    "Silent",
    "Stun",
    "TeamRule",
    "Torrent",
    "WeaponRule",
    "WeaponRules",
    "parse_weapon_rules",
    "split_rule_tokens",
]

_NUM = r"(\d+(?:\.\d+)?)"  # a distance in inches, e.g. 2 or 1.5
_INT = r"(\d+)"


def _fmt_inches(x: float) -> str:
    """Format a distance in inches canonically: ``2"``, ``1.5"`` (parses back exactly for
    distances with up to six decimals)."""
    if x == int(x):
        return f'{int(x)}"'
    return f"{x:.6f}".rstrip("0") + '"'


def _positive_int(text: str, rule: str, token: str, source: str, *, minimum: int = 1) -> int:
    value = int(text)
    if value < minimum:
        raise WeaponRuleError(
            f"malformed weapon rule {token!r} in {source!r}: {rule} takes a whole number "
            f"of at least {minimum}",
            token=token,
            text=source,
        )
    return value


# --------------------------------------------------------------------------------------------
# The summary the dice core reads
# --------------------------------------------------------------------------------------------


class RerollMode:
    """How the attacker re-rolls attack dice by default (``rules/KT24.md`` section 6).

    The default policies re-roll only failed dice. That is the usual play but not always the
    best: fishing for critical successes by re-rolling normals can pay (e.g. against
    Piercing 3 with a large critical damage); such choices are decisions for the game, not
    the calculator's defaults.

    - ``NONE``: no re-roll.
    - ``BALANCED``: re-roll one failed die.
    - ``CEASELESS``: re-roll every die showing the most common failing value.
    - ``CEASELESS_BALANCED``: Ceaseless first, then Balanced on one failed die that was not
      re-rolled (a die is never re-rolled twice, section 2.4).
    - ``RELENTLESS``: re-roll every failed die (it subsumes the others).
    """

    NONE = "none"
    BALANCED = "balanced"
    CEASELESS = "ceaseless"
    CEASELESS_BALANCED = "ceaseless+balanced"
    RELENTLESS = "relentless"


@attrs.frozen(slots=True)
class DiceRules:
    """What a weapon's rules mean to the dice core, built by the rules' ``contribute`` hooks.

    Attributes:
        accurate: attack dice retained as normal successes without rolling (Accurate x;
            several instances count as Accurate 2, section 6).
        balanced, ceaseless, relentless: the re-roll rules present.
        lethal: critical threshold from Lethal x+ (2..6), or ``None``.
        punishing, rending, severe, brutal, shock, saturate, stun, hot: flags.
        devastating: damage per retained critical success (Devastating x), 0 if none.
        devastating_distance: inches of the area form ``d" Devastating x``, else ``None``.
        piercing: defence dice removed (Piercing x).
        piercing_crits: defence dice removed if any critical success was retained.
    """

    accurate: int = 0
    balanced: bool = False
    ceaseless: bool = False
    relentless: bool = False
    lethal: int | None = None
    punishing: bool = False
    rending: bool = False
    severe: bool = False
    brutal: bool = False
    shock: bool = False
    saturate: bool = False
    stun: bool = False
    hot: bool = False
    devastating: int = 0
    devastating_distance: float | None = None
    piercing: int = 0
    piercing_crits: int = 0

    @property
    def reroll(self) -> str:
        """The default re-roll policy as a :class:`RerollMode` value."""
        if self.relentless:
            return RerollMode.RELENTLESS
        if self.ceaseless and self.balanced:
            return RerollMode.CEASELESS_BALANCED
        if self.ceaseless:
            return RerollMode.CEASELESS
        if self.balanced:
            return RerollMode.BALANCED
        return RerollMode.NONE


class _DiceRulesBuilder:
    """Mutable accumulator that rule hooks write into; frozen into :class:`DiceRules`."""

    def __init__(self) -> None:
        self.values: dict[str, object] = {}
        self.accurate: list[int] = []

    def flag(self, name: str) -> None:
        self.values[name] = True

    def maximum(self, name: str, value: int) -> None:
        current = self.values.get(name, 0)
        assert isinstance(current, int)
        self.values[name] = max(current, value)

    def build(self) -> DiceRules:
        values = dict(self.values)
        if self.accurate:
            # Section 6: several instances of Accurate may be treated as one Accurate 2.
            best = max(self.accurate)
            values["accurate"] = max(best, 2) if len(self.accurate) > 1 else best
        return DiceRules(**values)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Rule specs
# --------------------------------------------------------------------------------------------


class WeaponRule:
    """Base of every weapon-rule spec.

    Subclasses are frozen ``attrs`` classes registered with :func:`_register`; each gives a
    ``pattern`` (regular expression, case-insensitive, matched against a whole token), a
    ``from_match`` constructor, a canonical :meth:`format`, and optionally a
    :meth:`contribute` hook that records its effect in the dice core's :class:`DiceRules`.
    """

    __slots__ = ()
    name: ClassVar[str]
    pattern: ClassVar[str]

    @classmethod
    def from_match(cls, m: re.Match[str], token: str, source: str) -> WeaponRule:
        """Build the spec from a regex match of its ``pattern`` (argument-less by default)."""
        return cls()

    def format(self) -> str:
        """The canonical datacard spelling, e.g. ``Lethal 5+``."""
        return self.name

    def contribute(self, builder: _DiceRulesBuilder) -> None:
        """Record this rule's effect on dice resolution (no effect by default)."""

    def __str__(self) -> str:
        return self.format()


_REGISTRY: list[tuple[re.Pattern[str], type[WeaponRule]]] = []
_KEYWORDS: dict[str, str] = {}  # lower-case first word -> rule name, for error messages
_R = TypeVar("_R", bound=type[WeaponRule])


def _register(cls: _R) -> _R:
    _REGISTRY.append((re.compile(cls.pattern, re.IGNORECASE), cls))
    first = re.sub(r"[^a-z]", " ", cls.name.lower()).split()[0]
    if first not in _KEYWORDS or len(cls.name) < len(_KEYWORDS[first]):
        _KEYWORDS[first] = cls.name  # "piercing" names Piercing, not Piercing Crits
    return cls


def _flag_rule(name: str, flag: str | None = None) -> Callable[[type[WeaponRule]], type]:
    """Declare an argument-less rule whose only dice effect (if any) is one flag."""

    def make(cls: type[WeaponRule]) -> type:
        cls.name = name
        cls.pattern = re.escape(name).replace(r"\ ", r"\s+")
        if flag is not None:

            def contribute(self: WeaponRule, builder: _DiceRulesBuilder) -> None:
                builder.flag(flag)

            cls.contribute = contribute  # type: ignore[method-assign]
        return _register(attrs.frozen(slots=True)(cls))

    return make


@_flag_rule("Balanced", "balanced")
class Balanced(WeaponRule):
    """Balanced: re-roll one attack die (default policy: one failed die)."""


@_flag_rule("Brutal", "brutal")
class Brutal(WeaponRule):
    """Brutal: the opponent can only block with critical successes."""


@_flag_rule("Ceaseless", "ceaseless")
class Ceaseless(WeaponRule):
    """Ceaseless: re-roll every attack die showing one chosen result (default: the most
    common failing value)."""


@_flag_rule("Hot", "hot")
class Hot(WeaponRule):
    """Hot: after using the weapon roll one D6; below the weapon's Hit, the user takes
    2 x the result in damage."""


@_flag_rule("Punishing", "punishing")
class Punishing(WeaponRule):
    """Punishing: if any critical success is retained, retain one fail as a normal success."""


@_flag_rule("Relentless", "relentless")
class Relentless(WeaponRule):
    """Relentless: re-roll any attack dice (default policy: every failed die)."""


@_flag_rule("Rending", "rending")
class Rending(WeaponRule):
    """Rending: if any critical success is retained, change one normal success to a crit."""


@_flag_rule("Saturate", "saturate")
class Saturate(WeaponRule):
    """Saturate: the defender cannot retain cover saves."""


@_flag_rule("Seek Light")
class SeekLight(WeaponRule):
    """Seek Light: Light terrain gives no cover for target selection (the cover save stays)."""


@_flag_rule("Seek")
class Seek(WeaponRule):
    """Seek: terrain gives no cover for target selection (the cover save stays)."""


@_flag_rule("Severe", "severe")
class Severe(WeaponRule):
    """Severe: if no critical success is retained, change one normal success to a crit
    (Devastating and Piercing Crits trigger from it; Punishing and Rending do not)."""


@_flag_rule("Shock", "shock")
class Shock(WeaponRule):
    """Shock: the first crit strike in a sequence also discards one unresolved enemy normal
    success (or a crit if there are no normals)."""


@_flag_rule("Silent")
class Silent(WeaponRule):
    """Silent: may Shoot with this weapon while on a Conceal order."""


@_flag_rule("Stun", "stun")
class Stun(WeaponRule):
    """Stun: if any critical success is retained, the target's APL is -1 until the end of
    its next activation."""


@_register
@attrs.frozen(slots=True)
class Psychic(WeaponRule):
    """PSYCHIC: marks a psychic weapon (no dice effect; other rules refer to it)."""

    name: ClassVar[str] = "PSYCHIC"
    pattern: ClassVar[str] = r"psychic"


@attrs.frozen(slots=True)
class _CountRule(WeaponRule):
    """A rule whose argument is a whole number x of at least 1 (Accurate, Limited, Piercing,
    Piercing Crits)."""

    x: int

    @classmethod
    def from_match(cls, m: re.Match[str], token: str, source: str) -> WeaponRule:
        return cls(_positive_int(m.group(1), cls.name, token, source))

    def format(self) -> str:
        return f"{self.name} {self.x}"


@_register
@attrs.frozen(slots=True)
class Accurate(_CountRule):
    """Accurate x: retain up to x attack dice as normal successes without rolling."""

    name: ClassVar[str] = "Accurate"
    pattern: ClassVar[str] = rf"accurate\s+{_INT}"

    def contribute(self, builder: _DiceRulesBuilder) -> None:
        builder.accurate.append(self.x)


@_register
@attrs.frozen(slots=True)
class Lethal(WeaponRule):
    """Lethal x+: successes of x or more are critical successes (x from 2 to 6)."""

    threshold: int
    name: ClassVar[str] = "Lethal"
    pattern: ClassVar[str] = rf"lethal\s+{_INT}\+"

    @classmethod
    def from_match(cls, m: re.Match[str], token: str, source: str) -> WeaponRule:
        x = int(m.group(1))
        if not 2 <= x <= 6:
            raise WeaponRuleError(
                f"malformed weapon rule {token!r} in {source!r}: Lethal takes a threshold "
                "from 2+ to 6+",
                token=token,
                text=source,
            )
        return cls(x)

    def format(self) -> str:
        return f"Lethal {self.threshold}+"

    def contribute(self, builder: _DiceRulesBuilder) -> None:
        current = builder.values.get("lethal")
        assert current is None or isinstance(current, int)
        builder.values["lethal"] = (
            self.threshold if current is None else min(current, self.threshold)
        )


@_register
@attrs.frozen(slots=True)
class Limited(_CountRule):
    """Limited x: after x uses in the battle the operative no longer has the weapon."""

    name: ClassVar[str] = "Limited"
    pattern: ClassVar[str] = rf"limited\s+{_INT}"


@_register
@attrs.frozen(slots=True)
class PiercingCrits(_CountRule):
    """Piercing Crits x: the defender collects x fewer defence dice if the attacker retained
    any critical success."""

    name: ClassVar[str] = "Piercing Crits"
    pattern: ClassVar[str] = rf"piercing\s+crits\s+{_INT}"

    def contribute(self, builder: _DiceRulesBuilder) -> None:
        builder.maximum("piercing_crits", self.x)


@_register
@attrs.frozen(slots=True)
class Piercing(_CountRule):
    """Piercing x: the defender collects x fewer defence dice."""

    name: ClassVar[str] = "Piercing"
    pattern: ClassVar[str] = rf"piercing\s+{_INT}"

    def contribute(self, builder: _DiceRulesBuilder) -> None:
        builder.maximum("piercing", self.x)


@_register
@attrs.frozen(slots=True)
class Devastating(WeaponRule):
    """Devastating x: each retained critical success immediately inflicts x damage on the
    target; ``d" Devastating x`` also inflicts it on every other operative visible to and
    within d inches of the target. ``distance`` is in inches, ``None`` for the plain form."""

    damage: int
    distance: float | None = None
    name: ClassVar[str] = "Devastating"
    pattern: ClassVar[str] = rf'(?:{_NUM}"\s*)?devastating\s+{_INT}'

    @classmethod
    def from_match(cls, m: re.Match[str], token: str, source: str) -> WeaponRule:
        distance = float(m.group(1)) if m.group(1) is not None else None
        return cls(_positive_int(m.group(2), "Devastating", token, source), distance)

    def format(self) -> str:
        prefix = "" if self.distance is None else _fmt_inches(self.distance) + " "
        return f"{prefix}Devastating {self.damage}"

    def contribute(self, builder: _DiceRulesBuilder) -> None:
        # Two instances: select the larger x; on equal x the area form (larger d) is better.
        current = builder.values.get("devastating", 0)
        distance = builder.values.get("devastating_distance")
        assert isinstance(current, int) and (distance is None or isinstance(distance, float))
        mine = (self.damage, -1.0 if self.distance is None else self.distance)
        if mine > (current, -1.0 if distance is None else distance):
            builder.values["devastating"] = self.damage
            builder.values["devastating_distance"] = self.distance


@attrs.frozen(slots=True)
class _DistanceRule(WeaponRule):
    """A rule whose argument is a distance in inches (Range, Blast, Torrent)."""

    distance: float

    @classmethod
    def from_match(cls, m: re.Match[str], token: str, source: str) -> WeaponRule:
        return cls(float(m.group(1)))

    def format(self) -> str:
        return f"{self.name} {_fmt_inches(self.distance)}"


@_register
@attrs.frozen(slots=True)
class Range(_DistanceRule):
    """Range x: only operatives within x inches can be valid targets."""

    name: ClassVar[str] = "Range"
    pattern: ClassVar[str] = rf'range\s+{_NUM}"'


@_register
@attrs.frozen(slots=True)
class Blast(_DistanceRule):
    """Blast x: also shoot every other operative visible to and within x inches of the
    primary target (secondary targets, separate sequences)."""

    name: ClassVar[str] = "Blast"
    pattern: ClassVar[str] = rf'blast\s+{_NUM}"'


@_register
@attrs.frozen(slots=True)
class Torrent(_DistanceRule):
    """Torrent x: also shoot any other valid targets within x inches of the primary."""

    name: ClassVar[str] = "Torrent"
    pattern: ClassVar[str] = rf'torrent\s+{_NUM}"'


@_register
@attrs.frozen(slots=True)
class Heavy(WeaponRule):
    """Heavy: cannot be used in an activation or counteraction in which the operative moved,
    nor move after using it. ``only`` names the one move action still allowed
    (``"Dash"`` or ``"Reposition"`` for ``Heavy (Dash only)``), else ``None``."""

    only: str | None = None
    name: ClassVar[str] = "Heavy"
    pattern: ClassVar[str] = r"heavy(?:\s*\(\s*(dash|reposition)\s+only\s*\))?"

    @classmethod
    def from_match(cls, m: re.Match[str], token: str, source: str) -> WeaponRule:
        return cls(m.group(1).capitalize() if m.group(1) else None)

    def format(self) -> str:
        return "Heavy" if self.only is None else f"Heavy ({self.only} only)"


@attrs.frozen(slots=True)
class TeamRule(WeaponRule):
    """A team-specific weapon rule, written with a trailing ``*`` on the datacard
    (e.g. ``Concealed Position*``). The dice core does not interpret it; team code may."""

    rule_name: str
    name: ClassVar[str] = "team rule"
    pattern: ClassVar[str] = r"(?!)"

    def format(self) -> str:
        return f"{self.rule_name}*"


# --------------------------------------------------------------------------------------------
# The collection and the parser
# --------------------------------------------------------------------------------------------


@attrs.frozen(slots=True)
class WeaponRules:
    """The ordered weapon rules of one weapon profile.

    Attributes:
        rules: the specs in datacard order (duplicates are kept so the string round-trips;
            a weapon gains no extra benefit from the same rule twice).
    """

    rules: tuple[WeaponRule, ...] = ()
    _dice: DiceRules | None = attrs.field(default=None, eq=False, repr=False, alias="_dice")

    def __iter__(self) -> Iterator[WeaponRule]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def __bool__(self) -> bool:
        return bool(self.rules)

    def format(self) -> str:
        """The canonical datacard string (``""`` when there are no rules)."""
        return ", ".join(rule.format() for rule in self.rules)

    def __str__(self) -> str:
        return self.format()

    def has(self, kind: type[WeaponRule]) -> bool:
        """Whether a rule of class ``kind`` is present."""
        return any(isinstance(rule, kind) for rule in self.rules)

    def get(self, kind: type[WeaponRule]) -> WeaponRule | None:
        """The first rule of class ``kind``, or ``None``."""
        for rule in self.rules:
            if isinstance(rule, kind):
                return rule
        return None

    def with_rules(self, *extra: WeaponRule) -> WeaponRules:
        """A copy with ``extra`` rules appended (e.g. Accurate 1 from Vantage)."""
        return WeaponRules(self.rules + tuple(extra))

    @property
    def dice(self) -> DiceRules:
        """The :class:`DiceRules` summary the dice core reads (computed once, then kept)."""
        if self._dice is None:
            builder = _DiceRulesBuilder()
            for rule in self.rules:
                rule.contribute(builder)
            object.__setattr__(self, "_dice", builder.build())
        assert self._dice is not None
        return self._dice

    @classmethod
    def of(cls, rules: str | Iterable[WeaponRule] | WeaponRules | None) -> WeaponRules:
        """Coerce a string (parsed), an iterable of specs, ``None`` or a value to this type.

        Raises:
            WeaponRuleError: when a string does not parse.
        """
        if rules is None:
            return cls()
        if isinstance(rules, WeaponRules):
            return rules
        if isinstance(rules, str):
            return parse_weapon_rules(rules)
        return cls(tuple(rules))


def split_rule_tokens(text: str) -> list[str]:
    """Split a weapon-rule string on the commas that are not inside parentheses (so
    ``Heavy (Dash only), Torrent 1"`` gives two tokens); tokens are not stripped."""
    tokens: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        if ch == "," and depth == 0:
            tokens.append("".join(current))
            current = []
        else:
            current.append(ch)
    tokens.append("".join(current))
    return tokens


def _parse_token(token: str, source: str) -> WeaponRule:
    clean = " ".join(token.split())  # folds runs of spaces, tabs and non-breaking spaces
    if not clean:
        raise WeaponRuleError(f"empty weapon rule in {source!r}", token=token, text=source)
    if clean.endswith("*"):
        name = clean[:-1].strip()
        if not name:
            raise WeaponRuleError(f"empty team rule '*' in {source!r}", token=token, text=source)
        return TeamRule(name)
    for pattern, cls in _REGISTRY:
        m = pattern.fullmatch(clean)
        if m is not None:
            return cls.from_match(m, clean, source)
    word = re.match(r"[a-z]*", re.sub(r"^[\d.]+\"\s*", "", clean).lower())
    known = _KEYWORDS.get(word.group(0)) if word else None
    if known is not None:
        raise WeaponRuleError(
            f"malformed weapon rule {clean!r} in {source!r}: not a valid form of {known}",
            token=clean,
            text=source,
        )
    raise WeaponRuleError(
        f"unknown weapon rule {clean!r} in {source!r} (not a KT24 universal weapon rule; "
        "team-specific rules end with '*')",
        token=clean,
        text=source,
    )


def parse_weapon_rules(text: str) -> WeaponRules:
    """Parse a datacard weapon-rule string into :class:`WeaponRules`.

    Args:
        text: e.g. ``'Range 8", Lethal 5+, Piercing 1'``. ``""`` and ``"-"`` mean no rules.
            Rule names are matched case-insensitively and runs of white space are folded;
            distances are in inches and must carry the inch mark (``Blast 2"``).

    Returns:
        The rules in the order written.

    Raises:
        WeaponRuleError: naming the bad token, for an unknown rule (e.g. ``Rang 8"``), a
            malformed argument (``Lethal 7+``, ``Blast 1`` without ``"``) or an empty token
            (``"Lethal 5+,"``).
    """
    if not isinstance(text, str):
        raise WeaponRuleError(f"weapon rules must be a string, not {type(text).__name__}")
    stripped = text.strip()
    if stripped in ("", "-"):
        return WeaponRules()
    return WeaponRules(tuple(_parse_token(tok, text) for tok in split_rule_tokens(stripped)))
