"""Sampling: the dice core's rules rolled with a ``numpy.random.Generator``, vectorised.

Every function resolves ``n`` independent attacks at once and returns numpy arrays, one
entry per attack. The rules and default policies are exactly those of the exact core
(:mod:`engine.dice.attack`, :mod:`engine.dice.shoot`, :mod:`engine.dice.fight`): the same
re-roll policies (Ceaseless picks the lowest of tied most-common failing values), the same
optimal save allocation (a lookup table built from :func:`engine.dice.shoot.unblocked`) and,
for fights, the same strike/block resolution (solved once per distinct roll pair).
"""

from __future__ import annotations

import attrs
import numpy as np
from numpy.typing import NDArray

from engine.dice.fight import Matchup
from engine.dice.profile import DEFENCE_DICE, AttackProfile, Fighter, Target
from engine.dice.rules import RerollMode
from engine.dice.shoot import cover_saves, defence_dice, unblocked
from engine.errors import ProfileError

__all__ = ["SampledFight", "SampledShots", "sample_attack_dice", "sample_fight", "sample_shoot"]

IntArray = NDArray[np.int64]


def _check(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ProfileError(f"number of attacks to sample must be a whole number >= 0, not {n!r}")


def sample_attack_dice(
    profile: AttackProfile, n: int, rng: np.random.Generator, *, obscured: bool = False
) -> tuple[IntArray, IntArray]:
    """Roll the attack dice of ``n`` attacks with ``profile``.

    Args:
        profile: the weapon profile. n: attacks to resolve. rng: the random generator.
        obscured: the target is obscured (one success discarded, crits become normal).

    Returns:
        ``(normals, crits)``: int arrays of shape ``(n,)``, retained successes per attack.
    """
    _check(n)
    rules = profile.rules.dice
    hit = profile.hit
    crit_from = 6 if rules.lethal is None else max(hit, rules.lethal)
    auto = min(rules.accurate, profile.attacks)
    m = profile.attacks - auto
    faces = rng.integers(1, 7, size=(n, m), dtype=np.int8)
    mode = rules.reroll
    if m and mode == RerollMode.RELENTLESS:
        fail = faces < hit
        faces = np.where(fail, rng.integers(1, 7, size=(n, m), dtype=np.int8), faces)
    elif m and mode != RerollMode.NONE:
        rerolled = np.zeros((n, m), dtype=bool)
        if mode in (RerollMode.CEASELESS, RerollMode.CEASELESS_BALANCED):
            # counts[:, v - 1] = dice showing the failing value v; argmax picks the lowest tie
            values = np.arange(1, hit, dtype=np.int8)
            counts = (faces[:, :, None] == values[None, None, :]).sum(axis=1)
            best = values[counts.argmax(axis=1)]
            any_fail = counts.max(axis=1) > 0
            rerolled = (faces == best[:, None]) & any_fail[:, None]
            faces = np.where(rerolled, rng.integers(1, 7, size=(n, m), dtype=np.int8), faces)
        if mode in (RerollMode.BALANCED, RerollMode.CEASELESS_BALANCED):
            candidates = (faces < hit) & ~rerolled
            rows = np.flatnonzero(candidates.any(axis=1))
            cols = candidates[rows].argmax(axis=1)
            faces[rows, cols] = rng.integers(1, 7, size=rows.size, dtype=np.int8)
    crit_mask = faces >= crit_from
    crits = crit_mask.sum(axis=1, dtype=np.int64)
    successes = (faces >= hit).sum(axis=1, dtype=np.int64)
    normals = successes - crits + auto
    if obscured:
        return np.maximum(normals + crits - 1, 0), np.zeros(n, dtype=np.int64)
    fails = m - successes
    has_crit = crits > 0
    if rules.punishing:
        normals = normals + (has_crit & (fails > 0))
    if rules.rending:
        change = has_crit & (normals > 0)
        normals = normals - change
        crits = crits + change
    if rules.severe:
        change = ~has_crit & (normals > 0)
        normals = normals - change
        crits = crits + change
    return normals, crits


@attrs.frozen(slots=True)
class SampledShots:
    """Per-attack results of :func:`sample_shoot` (arrays of shape ``(n,)``).

    Attributes:
        damage: total damage inflicted (Devastating included, not capped).
        normals, crits: retained attack successes.
        hot_damage: self-damage from Hot (zeros without Hot).
    """

    damage: IntArray
    normals: IntArray
    crits: IntArray
    hot_damage: IntArray


def sample_shoot(
    profile: AttackProfile, target: Target, n: int, rng: np.random.Generator
) -> SampledShots:
    """Resolve ``n`` independent shooting attack sequences (section 5.1).

    Args:
        profile: the ranged weapon profile. target: Save, wounds, cover, obscured.
        n: attacks to resolve. rng: the random generator.

    Returns:
        :class:`SampledShots`.

    Raises:
        ProfileError: if ``n`` is negative.
    """
    rules = profile.rules.dice
    normals, crits = sample_attack_dice(profile, n, rng, obscured=target.obscured)
    top = profile.attacks + 1
    # Tables indexed by (normals, crits): defence dice rolled, cover saves.
    rolled = np.zeros((top, top), dtype=np.int64)
    cover_n = np.zeros((top, top), dtype=np.int64)
    cover_c = np.zeros((top, top), dtype=np.int64)
    for a in range(top):
        for c in range(top - a):
            cn, cc = cover_saves(profile, target, a, c)
            cover_n[a, c], cover_c[a, c] = cn, cc
            rolled[a, c] = defence_dice(profile, c) - cn - cc
    d = rolled[normals, crits]
    faces = rng.integers(1, 7, size=(n, DEFENCE_DICE), dtype=np.int8)
    used = np.arange(DEFENCE_DICE)[None, :] < d[:, None]
    crit_saves = ((faces == 6) & used).sum(axis=1) + cover_c[normals, crits]
    normal_saves = ((faces >= target.save) & (faces < 6) & used).sum(axis=1) + cover_n[
        normals, crits
    ]
    # Allocation table: (normals, crits, normal saves, crit saves) -> damage.
    nd, cd = profile.normal_damage, profile.critical_damage
    saves_top = DEFENCE_DICE + 1
    table = np.zeros((top, top, saves_top, saves_top), dtype=np.int64)
    for a in range(top):
        for c in range(top - a):
            for sn in range(saves_top):
                for sc in range(saves_top - sn):
                    un, uc = unblocked(a, c, sn, sc, nd, cd, rules.brutal)
                    table[a, c, sn, sc] = un * nd + uc * cd
    damage = table[normals, crits, normal_saves, crit_saves] + rules.devastating * crits
    if rules.hot:
        hot = rng.integers(1, 7, size=n, dtype=np.int64)
        hot_damage = np.where(hot < profile.hit, 2 * hot, 0)
    else:
        hot_damage = np.zeros(n, dtype=np.int64)
    return SampledShots(damage, normals, crits, hot_damage)


@attrs.frozen(slots=True)
class SampledFight:
    """Per-fight results of :func:`sample_fight` (arrays of shape ``(n,)``).

    Attributes:
        attacker_damage, defender_damage: damage taken, capped at each fighter's wounds.
    """

    attacker_damage: IntArray
    defender_damage: IntArray


def sample_fight(
    attacker: Fighter,
    defender: Fighter,
    n: int,
    rng: np.random.Generator,
    *,
    policy: str = "optimal",
    defender_policy: str | None = None,
    first: str = "attacker",
) -> SampledFight:
    """Resolve ``n`` independent fights (section 5.2); arguments as :func:`engine.dice.fight`.

    Raises:
        ProfileError: for a negative ``n``, an unknown policy or ``first``.
    """
    matchup = Matchup(
        attacker, defender, policy=policy, defender_policy=defender_policy, first=first
    )
    an, ac = sample_attack_dice(attacker.profile, n, rng)
    bn, bc = sample_attack_dice(defender.profile, n, rng)
    ta, tb = attacker.profile.attacks + 1, defender.profile.attacks + 1
    # Resolution is deterministic given the successes: solve each distinct roll pair once.
    code = ((an * ta + ac) * tb + bn) * tb + bc
    uniq, inverse = np.unique(code, return_inverse=True)
    out_a = np.empty(uniq.size, dtype=np.int64)
    out_b = np.empty(uniq.size, dtype=np.int64)
    for i, k in enumerate(uniq.tolist()):
        k, c_b = divmod(k, tb)
        k, n_b = divmod(k, tb)
        n_a, c_a = divmod(k, ta)
        out_a[i], out_b[i] = matchup.damage_taken(n_a, c_a, n_b, c_b)
    inverse = inverse.reshape(-1)
    return SampledFight(out_a[inverse], out_b[inverse])
