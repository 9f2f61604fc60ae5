"""Sampling KT21 attacks and fights with a ``numpy.random.Generator`` (``rules/KT21.md`` 10,
11, 12): the rules and policies of the exact KT21 core (:mod:`engine.dice.kt21_roll`,
:mod:`engine.dice.kt21_shoot`, :mod:`engine.dice.kt21_fight`), ``n`` attacks at once.

The defender's choices (SV or invulnerable, cover save) are the exact core's
(:func:`~engine.dice.kt21_shoot.defence_choice`, looked up per retained roll), the allocation
of saves is :func:`~engine.dice.kt21_shoot.resolve_saves` and a fight is resolved by the
exact core's :class:`~engine.dice.kt21_fight.Kt21Matchup` once per distinct pair of rolls.
"""

from __future__ import annotations

import attrs
import numpy as np
from numpy.typing import NDArray

from engine.dice.kt21_fight import Kt21Matchup
from engine.dice.kt21_profile import Kt21Attack, Kt21Defender, Kt21Fighter
from engine.dice.kt21_shoot import defence_choice, mortal_wounds_per_crit, resolve_saves
from engine.errors import ProfileError

__all__ = [
    "Kt21SampledFight",
    "Kt21SampledShots",
    "sample_kt21_attack_dice",
    "sample_kt21_fight",
    "sample_kt21_shoot",
]

IntArray = NDArray[np.int64]


def _check(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ProfileError(f"number of attacks to sample must be a whole number >= 0, not {n!r}")


def sample_kt21_attack_dice(
    profile: Kt21Attack, n: int, rng: np.random.Generator
) -> tuple[IntArray, IntArray, IntArray]:
    """Roll the attack dice of ``n`` attacks with a KT21 ``profile`` (re-roll policy and
    Rending as :mod:`engine.dice.kt21_roll`).

    Returns:
        ``(normals, crits, ones)``: int arrays of shape ``(n,)``; ``ones`` the 1s discarded.

    Raises:
        ProfileError: a negative ``n``.
    """
    _check(n)
    rules = profile.rules
    hit, m = profile.hit, profile.attacks
    lethal = profile.number("Lethal")
    crit_from = max(hit, lethal) if lethal else 6
    faces = rng.integers(1, 7, size=(n, m), dtype=np.int8)
    rerolled = np.zeros((n, m), dtype=bool)
    if rules.has("Relentless"):
        rerolled = faces < hit
    elif rules.has("Ceaseless"):
        rerolled = faces == 1
    faces = np.where(rerolled, rng.integers(1, 7, size=(n, m), dtype=np.int8), faces)
    if rules.has("Balanced") and not rules.has("Relentless") and m:
        # one failed die not yet re-rolled, a 1 first
        fail = (faces < hit) & ~rerolled
        ones = fail & (faces == 1)
        pick = np.where(ones.any(axis=1), ones.argmax(axis=1), fail.argmax(axis=1))
        rows = np.flatnonzero(fail.any(axis=1))
        faces[rows, pick[rows]] = rng.integers(1, 7, size=rows.size, dtype=np.int8)
    crits = (faces >= crit_from).sum(axis=1, dtype=np.int64)
    normals = (faces >= hit).sum(axis=1, dtype=np.int64) - crits
    ones_out = (faces == 1).sum(axis=1, dtype=np.int64)
    if rules.has("Rending"):
        change = (crits > 0) & (normals > 0)
        normals, crits = normals - change, crits + change
    return normals, crits, ones_out


@attrs.frozen(slots=True)
class Kt21SampledShots:
    """Per-attack results of :func:`sample_kt21_shoot` (arrays of shape ``(n,)``).

    Attributes:
        damage: damage to the target (mortal wounds included, not capped).
        normals, crits: retained hits. hot_damage: mortal wounds to the shooter from Hot.
    """

    damage: IntArray
    normals: IntArray
    crits: IntArray
    hot_damage: IntArray


def sample_kt21_shoot(
    profile: Kt21Attack, defender: Kt21Defender, n: int, rng: np.random.Generator
) -> Kt21SampledShots:
    """Resolve ``n`` independent KT21 shooting attacks (``rules/KT21.md`` 10.1).

    Raises:
        ProfileError: a negative ``n``.
    """
    normals, crits, ones = sample_kt21_attack_dice(profile, n, rng)
    top = profile.attacks + 1
    rolled = np.zeros((top, top), dtype=np.int64)
    threshold = np.full((top, top), 7, dtype=np.int64)
    cover = np.zeros((top, top), dtype=np.int64)
    for a in range(top):
        for c in range(top - a):
            choice = defence_choice(profile, defender, a, c)
            rolled[a, c], threshold[a, c] = choice.rolled, choice.threshold
            cover[a, c] = int(choice.cover)
    df = defender.defence
    faces = rng.integers(1, 7, size=(n, df), dtype=np.int8)
    used = np.arange(df)[None, :] < rolled[normals, crits][:, None]
    crit_saves = ((faces == 6) & used).sum(axis=1)
    normal_saves = ((faces >= threshold[normals, crits][:, None]) & (faces < 6) & used).sum(
        axis=1
    ) + cover[normals, crits]
    table = np.zeros((top, top, df + 1, df + 1), dtype=np.int64)
    for a in range(top):
        for c in range(top - a):
            for sn in range(df + 1):
                for sc in range(df + 1 - sn):
                    table[a, c, sn, sc] = resolve_saves(profile, a, c, sn, sc)[2]
    damage = (
        table[normals, crits, normal_saves, crit_saves] + mortal_wounds_per_crit(profile) * crits
    )
    hot = 3 * ones if profile.rules.has("Hot") else np.zeros(n, dtype=np.int64)
    return Kt21SampledShots(damage, normals, crits, hot)


@attrs.frozen(slots=True)
class Kt21SampledFight:
    """Per-fight results of :func:`sample_kt21_fight` (arrays of shape ``(n,)``).

    Attributes:
        attacker_damage, defender_damage: damage taken, capped at each fighter's wounds.
    """

    attacker_damage: IntArray
    defender_damage: IntArray


def sample_kt21_fight(
    attacker: Kt21Fighter,
    defender: Kt21Fighter,
    n: int,
    rng: np.random.Generator,
    *,
    policy: str = "optimal",
    defender_policy: str | None = None,
) -> Kt21SampledFight:
    """Resolve ``n`` independent KT21 fights; arguments as
    :func:`engine.dice.kt21_fight.kt21_fight`.

    Raises:
        ProfileError: a negative ``n`` or an unknown policy.
    """
    matchup = Kt21Matchup(attacker, defender, policy=policy, defender_policy=defender_policy)
    an, ac, _ = sample_kt21_attack_dice(attacker.effective, n, rng)
    bn, bc, _ = sample_kt21_attack_dice(defender.effective, n, rng)
    ta, tb = attacker.profile.attacks + 1, defender.profile.attacks + 1
    code = ((an * ta + ac) * tb + bn) * tb + bc
    uniq, inverse = np.unique(code, return_inverse=True)
    out_a = np.empty(uniq.size, dtype=np.int64)
    out_b = np.empty(uniq.size, dtype=np.int64)
    for i, k in enumerate(uniq.tolist()):
        k, c_b = divmod(k, tb)
        k, n_b = divmod(k, tb)
        n_a, c_a = divmod(k, ta)
        out_a[i], out_b[i], _, _ = matchup.damage_taken(n_a, c_a, n_b, c_b)
    inverse = inverse.reshape(-1)
    return Kt21SampledFight(out_a[inverse], out_b[inverse])
