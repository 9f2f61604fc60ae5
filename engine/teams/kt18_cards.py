"""KT18 datasheet values (``rules/KT18.md`` 1.6-1.8): a model's characteristics and a
weapon's profile, carried on the shared datacards (:class:`~engine.teams.datacards.Operative`
``kt18``, :class:`~engine.teams.datacards.WeaponProfile` ``kt18``) of a team whose edition is
``"kt18"``. M is the datacard's ``move`` (inches) and W its ``wounds``; the KT24 values of a
KT18 card (APL, hit, attacks, damage) are placeholders no KT18 rule reads.

:func:`kt18_profile_problem` and :func:`kt18_weapon_problem` list what is out of bounds, for
the team checks of :mod:`engine.teams.limits`.
"""

from __future__ import annotations

import attrs

from engine.dice.kt18_values import RandomValue, parse_random_value

__all__ = [
    "KT18_WEAPON_TYPES",
    "MAX_POWERS",
    "MAX_PSYCHIC_COUNT",
    "Kt18Profile",
    "Kt18Weapon",
    "kt18_profile_problem",
    "kt18_weapon_problem",
    "parse_strength",
]

KT18_WEAPON_TYPES = ("Assault", "Heavy", "Rapid Fire", "Grenade", "Pistol", "Melee")
"""The weapon types (``rules/KT18.md`` 1.8, 5.7-5.12, 7.8)."""


@attrs.frozen(slots=True)
class Kt18Profile:
    """A KT18 model's characteristics besides M and W (``rules/KT18.md`` 1.7, 6.7, 6.11).

    Attributes:
        ws, bs: Weapon and Ballistic Skill thresholds 2..6 (``3`` is 3+); ``0`` is "-" (no
            close combat attacks / no shooting attacks at all).
        strength, toughness: S and T, 1..20.
        attacks: A as printed (``"2"``, ``"D3"``; :mod:`engine.dice.kt18_values`).
        leadership: Ld, 1..12.
        save: Sv threshold 2..6; ``0`` is "-" (no armour save; 6.6 decision).
        maximum: Max, how many of this model a kill team may hold; ``0`` is no limit.
        invulnerable: an invulnerable save threshold 2..6; ``0`` none (6.7).
        flesh_wound_boxes: flesh wounds it can take before the next is out of action (6.11
            decision: 3).
        specialists: the specialisms this type may be chosen as (``"Leader"``,
            ``"Comms"``...; 1.6 part 6).
        leader: it may be the kill team's leader.
        psyker: ``(manifest, deny)``: how many psychic powers it may attempt and how many
            Deny the Witch tests it may take in each Psychic phase (``rules/KT18.md`` 4.1,
            4.5; the datasheet's numbers), or ``None`` when the data gives none (a model with
            the PSYKER keyword then attempts one and denies one, the psychic phase's default).
        powers: the psychic powers it knows (4.2); empty: Psybolt only (every psyker knows
            it unless its datasheet says otherwise). Given only with ``psyker``.
    """

    ws: int
    bs: int
    strength: int
    toughness: int
    attacks: str
    leadership: int
    save: int
    maximum: int = 0
    invulnerable: int = 0
    flesh_wound_boxes: int = 3
    specialists: tuple[str, ...] = ()
    leader: bool = False
    psyker: tuple[int, int] | None = None
    powers: tuple[str, ...] = ()

    def attacks_value(self) -> RandomValue:
        """A as a :class:`~engine.dice.kt18_values.RandomValue`.

        Raises:
            ValueError: A is not a number or dice value."""
        return parse_random_value(self.attacks, "A")


@attrs.frozen(slots=True)
class Kt18Weapon:
    """A KT18 weapon profile (``rules/KT18.md`` 1.8).

    Attributes:
        range: Range in inches; ``0`` for a Melee weapon.
        type: one of :data:`KT18_WEAPON_TYPES`.
        shots: the number after the type (``"1"``, ``"D6"``, ``"2D6"``); ``""`` for Melee
            (the wielder's A is used, 7.5).
        strength: S as printed: ``"User"``, ``"+1"``, ``"x2"`` or a number (``"4"``).
        ap: AP as printed, 0 or negative (``-1``), added to the save roll (6.6).
        damage: D as printed (``"1"``, ``"D3"``).
        abilities: the names of the weapon's abilities (what they do is the rule modules'
            business; an unimplemented one is reported).
    """

    range: float
    type: str
    shots: str
    strength: str
    ap: int
    damage: str
    abilities: tuple[str, ...] = ()

    def shots_value(self) -> RandomValue:
        """The number of attacks of one shooting (5.7).

        Raises:
            ValueError: a Melee profile (no shots), or an unreadable value."""
        if self.type == "Melee":
            raise ValueError("a Melee weapon has no shots: the wielder's A is used")
        return parse_random_value(self.shots, "shots")

    def damage_value(self) -> RandomValue:
        """D (6.8).

        Raises:
            ValueError: an unreadable value."""
        return parse_random_value(self.damage, "D")

    def strength_for(self, user_strength: int) -> int:
        """The attack's S for a wielder of S ``user_strength`` (1.8, 1.9: multiply first,
        round up, then add; never below 1).

        Raises:
            ValueError: an unreadable S."""
        return parse_strength(self.strength)(user_strength)


def parse_strength(text: str) -> _Strength:
    """Read a printed weapon S (``"User"``, ``"+1"``, ``"-1"``, ``"x2"``, ``"4"``).

    Raises:
        ValueError: anything else (the message quotes it)."""
    t = text.strip() if isinstance(text, str) else ""
    try:
        if t.lower() == "user":
            return _Strength(1, 1, 0, None)
        if t[:1] in "+-" and t[1:].isdigit() and len(t) <= 3:
            return _Strength(1, 1, int(t), None)
        if t[:1] in "xX×" and t[1:].isdigit() and len(t) <= 3:
            return _Strength(int(t[1:]), 1, 0, None)
        if t.isdigit() and len(t) <= 2:
            return _Strength(1, 1, 0, int(t))
    except ValueError:
        pass
    raise ValueError(f"S: expected User, +1, x2 or a number, not {str(text)[:40]!r}")


@attrs.frozen(slots=True)
class _Strength:
    """A weapon S as a function of the wielder's S: ``fixed`` or ``ceil(user * num / den) +
    add``, never below 1 (``rules/KT18.md`` 1.9)."""

    num: int
    den: int
    add: int
    fixed: int | None

    def __call__(self, user: int) -> int:
        if self.fixed is not None:
            return max(1, self.fixed)
        return max(1, -(-user * self.num // self.den) + self.add)


def _threshold(name: str, value: int, none_ok: bool) -> str | None:
    if none_ok and value == 0:
        return None
    if not isinstance(value, int) or not 2 <= value <= 6:
        dash = ' or 0 for "-"' if none_ok else ""
        return f"field {name!r}: must be a threshold from 2 to 6{dash}, got {value!r}"
    return None


def kt18_profile_problem(p: Kt18Profile) -> str | None:
    """The first thing out of bounds in ``p``, or ``None`` (``rules/KT18.md`` 1.7)."""
    for name, value, none_ok in (
        ("ws", p.ws, True),
        ("bs", p.bs, True),
        ("save", p.save, True),
    ):
        problem = _threshold(name, value, none_ok)
        if problem:
            return problem
    if p.invulnerable:
        problem = _threshold("invulnerable", p.invulnerable, False)
        if problem:
            return problem
    for name, value, low, high in (
        ("strength", p.strength, 1, 20),
        ("toughness", p.toughness, 1, 20),
        ("leadership", p.leadership, 1, 12),
        ("maximum", p.maximum, 0, 99),
        ("flesh_wound_boxes", p.flesh_wound_boxes, 0, 9),
    ):
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            return f"field {name!r}: must be a whole number from {low} to {high}, got {value!r}"
    try:
        p.attacks_value()
    except ValueError as exc:
        return f"field 'attacks': {exc}"
    return _psyker_problem(p)


MAX_PSYCHIC_COUNT = 9
"""The most powers (or Deny the Witch tests) a psyker's data may give per Psychic phase (a
bound on the work a team file can cause; printed datasheets give 1 or 2)."""
MAX_POWERS = 20
"""The most psychic powers a model's data may list."""


def _psyker_problem(p: Kt18Profile) -> str | None:
    """What is out of bounds in ``p``'s psyker values (``rules/KT18.md`` 4.1, 4.2), or None."""
    if p.psyker is None:
        return (
            "field 'powers': the powers a psyker knows come with its psyker counts"
            if (p.powers)
            else None
        )
    if not isinstance(p.psyker, tuple) or len(p.psyker) != 2:
        return f"field 'psyker': expected (manifest, deny), got {p.psyker!r:.40}"
    for name, value in zip(("manifest", "deny"), p.psyker, strict=True):
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or not 0 <= value <= MAX_PSYCHIC_COUNT
        ):
            return (
                f"field 'psyker.{name}': must be a whole number from 0 to {MAX_PSYCHIC_COUNT}, "
                f"got {value!r:.40}"
            )
    if len(p.powers) > MAX_POWERS:
        return f"field 'psyker.powers': at most {MAX_POWERS} powers, got {len(p.powers)}"
    seen: set[str] = set()
    for power in p.powers:
        if not isinstance(power, str) or not power.strip():
            return f"field 'psyker.powers': a power must be a name, got {power!r:.40}"
        key = " ".join(power.lower().split())
        if key in seen:
            return f"field 'psyker.powers': {power!r:.40} is listed twice"
        seen.add(key)
    return None


def kt18_weapon_problem(w: Kt18Weapon) -> str | None:
    """The first thing out of bounds in ``w``, or ``None`` (``rules/KT18.md`` 1.8)."""
    if w.type not in KT18_WEAPON_TYPES:
        return f"field 'type': must be one of {', '.join(KT18_WEAPON_TYPES)}, got {w.type!r:.40}"
    if not 0 <= w.range <= 100:
        return f"field 'range': must be 0 to 100 inches, got {w.range!r}"
    if (w.type == "Melee") != (w.range == 0):
        return "field 'range': a Melee weapon has range 0 (Melee) and only a Melee weapon has"
    if w.type == "Melee" and w.shots:
        return "field 'shots': a Melee weapon has no shots (the wielder's A is used)"
    for name, read in (
        ("shots", (lambda: w.shots_value()) if w.type != "Melee" else (lambda: None)),
        ("damage", w.damage_value),
        ("strength", lambda: parse_strength(w.strength)),
    ):
        try:
            read()
        except ValueError as exc:
            return f"field {name!r}: {exc}"
    if not isinstance(w.ap, int) or not -6 <= w.ap <= 0:
        return f"field 'ap': must be 0 or a negative whole number down to -6, got {w.ap!r}"
    return None
