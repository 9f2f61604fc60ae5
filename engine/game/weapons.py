"""The weapons of an operative and when it may use them (``rules/KT24.md`` 2.2, 6): notation
names, the datacard's profiles and those rule modules give (``Hooks.weapon_source``), Heavy,
Limited, Range and Silent. Queries shared by the Shoot and Fight frames and the actions;
this module imports no action."""

from __future__ import annotations

from collections.abc import Iterable

from engine.dice.rules import Heavy, Limited, Range, Silent, WeaponRules
from engine.game.actions import (
    MOVE_VERBS,
    AmbiguousActionError,
    IllegalActionError,
)
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.teams.model import Weapon, WeaponProfile

__all__ = [
    "find_weapon",
    "in_range",
    "primary_weapon_name",
    "shoots_in_control_range",
    "silent",
    "weapon_limit",
    "weapon_name",
    "weapon_of",
    "weapon_rules",
    "weapon_usable",
    "weapons_of",
]


def weapon_rules(
    w: Work, op: str, name: str, profile: WeaponProfile, kind: str, target: str = ""
) -> WeaponRules:
    """The weapon rules ``op``'s weapon profile ``profile`` (notation name ``name``, of
    ``kind`` ``"ranged"``/``"melee"``) has for an attack on ``target`` (an operative id;
    ``""`` when no target is known yet): its printed rules, then those every rule module
    gives or takes away (the ``would_use_weapon_rules`` hooks: equipment, marks, ploys, team
    and universal rules; a hook that removes or ignores a rule is added ``last``, so it sees
    every rule the others gave, whichever seat its team plays). The one answer every
    reader of a weapon's rules uses (rules/KT24.md 6: a rule another rule gives is a rule
    like any other): target selection (Seek, Range), the Shoot and Fight sequences and the
    team rules asking whether a weapon has a rule."""
    if "would_use_weapon_rules" not in w.ctx.hooks.would:
        return profile.rules
    rules: WeaponRules = w.would(
        "would_use_weapon_rules", profile.rules, op=op, weapon=name, kind=kind, target=target
    )
    return rules


def weapon_name(weapon: Weapon, profile: WeaponProfile) -> str:
    """The notation name of a weapon profile: ``"plasma pistol (supercharge)"``."""
    base = " ".join(weapon.name.lower().split())
    return f"{base} ({profile.name.lower()})" if profile.name else base


def weapons_of(w: Work, op_id: str, kind: str) -> list[tuple[str, Weapon, WeaponProfile]]:
    """``(notation name, weapon, profile)`` for each profile of ``kind`` (ranged/melee): its
    datacard's weapons, then those rule modules give it (``Hooks.weapon_source``)."""
    out = list(_card_profiles(w, op_id, kind))
    for fn in w.ctx.hooks.weapon_sources:
        for weapon in fn(w, op_id, kind):
            out += _named_profiles(weapon, kind)
    return out


NAMED_PROFILE_ENTRIES = 4096
"""Weapons whose :func:`_named_profiles` answer is remembered (the memo is emptied when
full)."""

_NAMED: dict[tuple[int, str], tuple[Weapon, tuple[tuple[str, Weapon, WeaponProfile], ...]]] = {}


def _named_profiles(weapon: Weapon, kind: str) -> tuple[tuple[str, Weapon, WeaponProfile], ...]:
    """:func:`_profiles_of` of the one weapon ``weapon`` (a value that never changes),
    remembered: keyed by its identity, the memo holding the weapon itself, so that identity
    cannot be reused while the answer is kept."""
    key = (id(weapon), kind)
    got = _NAMED.get(key)
    if got is not None and got[0] is weapon:
        return got[1]
    value = tuple(_profiles_of((weapon,), kind))
    if len(_NAMED) >= NAMED_PROFILE_ENTRIES:
        _NAMED.clear()
    _NAMED[key] = (weapon, value)
    return value


def _card_profiles(w: Work, op_id: str, kind: str) -> tuple[tuple[str, Weapon, WeaponProfile], ...]:
    """The datacard's part of :func:`weapons_of` (first in it): it never changes in a
    battle, so it is kept on the context."""
    return w.ctx.cached(  # type: ignore[no-any-return]
        ("weapons", op_id, kind),
        lambda: tuple(_profiles_of(w.ctx.datacards[op_id].weapons, kind)),
    )


def _profiles_of(weapons: Iterable[Weapon], kind: str) -> list[tuple[str, Weapon, WeaponProfile]]:
    """``(notation name, weapon, profile)`` for each profile of the ``kind`` weapons."""
    return [
        (weapon_name(weapon, prof), weapon, prof)
        for weapon in weapons
        if weapon.kind == kind
        for prof in weapon.profiles
    ]


def find_weapon(
    w: Work, o: OperativeState, name: str, kind: str
) -> tuple[str, Weapon, WeaponProfile]:
    """The weapon profile of ``o`` called ``name`` (exact, else a unique prefix).

    Raises:
        IllegalActionError: no such weapon of that kind; AmbiguousActionError: several."""
    options = weapons_of(w, o.id, kind)
    exact = [t for t in options if t[0] == name]
    if exact:
        return exact[0]
    hits = [t for t in options if t[0].startswith(name)]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise AmbiguousActionError(
            f"weapon {name!r} matches {', '.join(t[0] for t in hits)} of {o.id}"
        )
    names = ", ".join(t[0] for t in options) or "none"
    raise IllegalActionError(f"{o.id} has no {kind} weapon {name!r} ({kind} weapons: {names})")


def weapon_usable(w: Work, o: OperativeState, name: str, profile: WeaponProfile) -> str | None:
    """Why the weapon cannot be used now (Heavy after moving, Limited used up, a team weapon
    rule's ``would_refuse_weapon`` hook), or None. Heavy is read from the weapon's rules as
    rules give them (:func:`weapon_rules`), asked only once ``o`` has moved."""
    rules = profile.rules
    if o.moved and "would_use_weapon_rules" in w.ctx.hooks.would:
        weapon = weapon_of(w, o, name)
        rules = weapon_rules(w, o.id, name, profile, weapon.kind if weapon else "ranged")
    heavy = rules.get(Heavy)
    if heavy is not None and o.moved:
        only = getattr(heavy, "only", None)
        allowed = only.title() if only else None
        moves = [d for d in o.done if d in MOVE_VERBS]
        if allowed is None or any(m != allowed for m in moves):
            return f"{name} is Heavy and {o.id} moved this activation (6 Heavy)"
    lim = weapon_limit(w, o, name, profile)
    if lim is not None:
        key, x = lim
        if dict(o.limited).get(key, 0) >= x:
            return f"{key} is Limited {x} and has been used up (2.2, 6 Limited)"
    # Team weapon rules may refuse the weapon (e.g. Concealed Position*, engine.rules).
    refused: str | None = w.would("would_refuse_weapon", None, op=o, weapon=name, profile=profile)
    return refused


def weapon_of(w: Work, o: OperativeState, name: str) -> Weapon | None:
    """The weapon (ranged or melee) one of whose profiles has the notation name ``name``
    (:func:`weapon_name`), or None."""
    for n, weapon, _ in _card_profiles(w, o.id, "ranged"):  # (the first ones searched below)
        if n == name:
            return weapon
    for kind in ("ranged", "melee"):
        for n, weapon, _ in weapons_of(w, o.id, kind):
            if n == name:
                return weapon
    return None


def primary_weapon_name(w: Work, o: OperativeState, name: str) -> str:
    """The primary name (notation form, no profile) of the weapon whose profile is called
    ``name``: ``"plasma gun (supercharge)"`` -> ``"plasma gun"``. Profiles share it and a rule
    naming it covers all of them (2.2): key per-weapon counts (Limited, once per battle) by
    it. ``name`` itself when ``o`` has no such weapon."""
    weapon = weapon_of(w, o, name)
    return " ".join(weapon.name.lower().split()) if weapon is not None else name


def weapon_limit(
    w: Work, o: OperativeState, name: str, profile: WeaponProfile
) -> tuple[str, int] | None:
    """``(primary name, x)`` when the weapon whose profile ``profile`` is called ``name``
    (notation name) is Limited x, else None.

    Limited counts uses of the weapon, not of one profile: its profiles share the primary
    name and a rule naming the primary name covers all of them (2.2), so every profile of a
    weapon that has Limited on any profile counts towards, and is gone with, the same x uses
    (the profile's own x when it has one, else the smallest x of its other profiles).
    ``OperativeState.limited`` is keyed by :func:`primary_weapon_name`."""
    own = profile.rules.get(Limited)
    weapon = weapon_of(w, o, name)
    if weapon is None:
        return (name, int(getattr(own, "x", 1))) if own is not None else None
    key = " ".join(weapon.name.lower().split())
    if own is not None:
        return key, int(getattr(own, "x", 1))
    xs = [
        int(getattr(lim, "x", 1))
        for p in weapon.profiles
        if (lim := p.rules.get(Limited)) is not None
    ]
    return (key, min(xs)) if xs else None


def in_range(
    w: Work,
    shooter: OperativeState,
    target: OperativeState,
    profile: WeaponProfile,
    rules: WeaponRules | None = None,
) -> bool:
    """Within the weapon's Range x (6), measured between bases (3D between levels).
    ``rules``: the weapon's rules for this attack (:func:`weapon_rules`: a rule may give or
    take Range away); ``None`` reads the printed ones."""
    rng = (profile.rules if rules is None else rules).get(Range)
    if not isinstance(rng, Range):
        return True
    return w.distance(w.place(shooter), w.place(target)) <= rng.distance + 1e-6


def shoots_in_control_range(w: Work, o: OperativeState, profile: WeaponProfile) -> bool:
    """A team weapon rule lets ``o`` Shoot with this weapon while within control range of an
    enemy operative (the ``would_shoot_in_control_range`` hook, e.g. Explosive*; 3.2)."""
    return bool(w.would("would_shoot_in_control_range", False, op=o, profile=profile))


def silent(profile: WeaponProfile, rules: WeaponRules | None = None) -> bool:
    """The weapon has Silent (6); ``rules`` as :func:`in_range`."""
    return (profile.rules if rules is None else rules).has(Silent)
