"""The fast exact shooting kernel (``rules/KT24.md`` sections 4.5, 4.7, 5.1, 6).

The computation of the reference (:func:`engine.dice.shoot.shoot_reference`, whose module
docstring gives the rules) with the same integer weights over the same totals, so that the
results are identical, not just close. Nothing is cached: every call computes from scratch.

- The defence side is read from constant tables, the *defence kernels*: for a damage class,
  a Save, a defence configuration (dice rolled, cover saves retained, Brutal) and the
  attacker's retained normals and crits, the distribution of the dice the defender blocks
  under its least-damage allocation (:func:`engine.dice.shoot.unblocked`, ties included).
  At most three saves are retained, so the dice blocked depend on the attacker's normals and
  crits only up to 3 of each, and on the damage only through which of ``cd < nd``,
  ``cd == nd``, ``nd < cd <= 2 nd``, ``cd > 2 nd``, ``cd == 0 < nd`` and ``nd == cd == 0``
  holds (:func:`damage_class`): 9,120 kernels of 2 entries on average (84 KB unpacked), built
  by :mod:`engine.dice.tablegen` from the reference code and stored compressed, 7 KB
  (:mod:`engine.dice.kernel_data`); tests check that they are what the generator builds and
  that the damage classes hold. Each kernel also stores its expected blocked normals and
  crits, so choosing whether to retain a cover save (least expected damage) costs two
  multiplications.
- The attack roll (:func:`attack_outcomes`) comes straight from the multinomial when every
  die stands alone (no re-roll or Relentless, no retention rule, not obscured), and through
  flat lists otherwise (Ceaseless gathered by the number of dice it re-rolls).
- The unblocked dice are accumulated in a flat list indexed by ``normals * stride + crits``
  (and by crits retained with Devastating), the damage pmf derived from it at the end.
"""

from __future__ import annotations

import binascii
import sys
import zlib
from array import array
from itertools import accumulate
from math import comb, factorial

from engine.dice import kernel_data
from engine.dice.rules import DiceRules, RerollMode

__all__ = [
    "CODES",
    "CONFIGS",
    "OFFSETS",
    "SUMS",
    "WEIGHTS",
    "attack_outcomes",
    "damage_class",
    "shoot_weights",
]

DEFENCE_DICE = 3
_FACT = tuple(factorial(i) for i in range(31))


def _unpack(text: str) -> bytes:
    return zlib.decompress(binascii.a2b_base64(text))


def _uint16s(data: bytes) -> list[int]:
    """Little-endian unsigned 16-bit numbers."""
    values = array("H", data)
    if sys.byteorder == "big":  # pragma: no cover
        values.byteswap()
    return values.tolist()


# The defence kernels: for each damage class, save, defence configuration (:data:`CONFIGS`)
# and attacker's retained normals n and crits c (at most 3 each: with at most 3 saves the
# dice blocked do not depend on more), the distribution of the dice the defender blocks under
# its least-damage allocation, ties broken as :func:`engine.dice.shoot.unblocked` breaks them.
# Kernel ``i = (((damage class * 5 + save - 2) * len(CONFIGS) + config) * 4 + n) * 4 + c``
# has entries ``OFFSETS[i]`` to ``OFFSETS[i + 1] - 1``. Built by :mod:`engine.dice.tablegen`
# from the reference code (a test compares them).

#: Per entry: blocked normals * 4 + blocked crits.
CODES: bytes = _unpack(kernel_data.CODES_Z)
#: Per entry: the weight over 6 ** 3.
WEIGHTS: bytes = _unpack(kernel_data.WEIGHTS_Z)
#: Per kernel: where its entries start (and one past the last kernel).
OFFSETS: list[int] = list(accumulate(_unpack(kernel_data.SIZES_Z), initial=0))
#: Per kernel ``i``: ``SUMS[2 * i]`` = sum of weight x blocked normals, ``SUMS[2 * i + 1]``
#: = sum of weight x blocked crits (the expected blocked damage without a loop).
SUMS: list[int] = _uint16s(_unpack(kernel_data.SUMS_Z))

# min(x, 3) and 4 * min(x, 3) for 0 <= x <= 30; the index of (normal * 4 + crit) blocked dice
# in the flat lists of unblocked dice, by the lists' stride (attack dice + 1).
_CAP = [min(x, 3) for x in range(31)]
_CAP4 = [4 * min(x, 3) for x in range(31)]
_SHIFTS = [[(code >> 2) * stride + (code & 3) for code in range(16)] for stride in range(32)]

#: The defence configurations ``(normal cover saves, critical cover saves, rolled dice,
#: brutal)`` of :data:`KERNELS`, by index (against Brutal normal saves never block, so a
#: normal cover save only takes a die: it is the configuration with no cover save).
CONFIGS: dict[tuple[int, int, int, bool], int] = {
    config: index
    for index, config in enumerate(
        (cover_n, cover_c, rolled, brutal)
        for brutal in (False, True)
        for cover_n, cover_c in ((0, 0), (1, 0), (2, 0), (0, 1))
        if not (brutal and cover_n)
        for rolled in range(4 - cover_n - cover_c)
    )
}


def damage_class(nd: int, cd: int) -> int:
    """The class of damage ``nd/cd`` (both >= 0) for :data:`KERNELS`: the defender's
    least-damage allocation depends on the damage only through it (``cd < nd``, ``cd == nd``,
    ``nd < cd <= 2 nd``, ``cd > 2 nd``, ``cd == 0 < nd``, ``cd == nd == 0``)."""
    if cd == 0:
        return 5 if nd == 0 else 4
    if cd < nd:
        return 0
    if cd == nd:
        return 1
    return 2 if cd <= 2 * nd else 3


def _max_multiplicity(i: int, f: int) -> dict[int, int]:
    """For ``i`` dice each showing one of ``f`` equally likely failing faces: the number of
    face sequences whose most common value appears ``r`` times, by ``r``."""
    if i == 0 or f == 1:
        return {i: 1}
    if f == 2:
        two: dict[int, int] = {}
        for a in range(i + 1):
            r = a if a > i - a else i - a
            two[r] = two.get(r, 0) + comb(i, a)
        return two
    # counts over (faces used so far, dice placed, max so far) -> sequences
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    for _ in range(f):
        nxt: dict[tuple[int, int], int] = {}
        for (placed, best), ways in states.items():
            left = i - placed
            for a in range(left + 1):
                key = (placed + a, best if best > a else a)
                nxt[key] = nxt.get(key, 0) + ways * comb(left, a)
        states = nxt
    out: dict[int, int] = {}
    for (placed, best), ways in states.items():
        if placed == i:
            out[best] = out.get(best, 0) + ways
    return out


def _trinomial(m: int, f: int, n: int, c: int) -> list[tuple[int, int, int, int]]:
    """(fails, normals, crits, weight) for ``m`` dice with category weights f, n, c."""
    out = []
    fm = _FACT[m]
    for i in range(m + 1):
        fi = fm // _FACT[i] * f**i
        for j in range(m - i + 1):
            k = m - i - j
            out.append((i, j, k, fi // (_FACT[j] * _FACT[k]) * n**j * c**k))
    return out


def _rolled(m: int, hit: int, lethal: int | None, reroll: str) -> list[tuple[int, int, int, int]]:
    """Rows ``(fails, normals, crits, weight)`` (the same counts may come in several rows)
    of ``m`` dice after rolling and re-rolling them, weights over ``6 ** (2 * m)``: the
    distribution of :func:`engine.dice.attack._rolled`, not cached."""
    t = 6 if lethal is None else max(hit, lethal)
    f, n, c = hit - 1, t - hit, 7 - t
    if reroll == RerollMode.NONE:
        pad = 6**m
        return [(i, j, k, w * pad) for i, j, k, w in _trinomial(m, f, n, c) if w]
    if reroll == RerollMode.RELENTLESS:
        return [row for row in _trinomial(m, f * f, n * (6 + f), c * (6 + f)) if row[3]]
    if reroll == RerollMode.BALANCED:
        rows = []
        for i, j, k, w in _trinomial(m, f, n, c):
            if not w:
                continue
            if i == 0:
                rows.append((i, j, k, w * 6**m))
            else:
                pad = w * 6 ** (m - 1)
                rows.append((i, j, k, pad * f))
                rows.append((i - 1, j + 1, k, pad * n))
                rows.append((i - 1, j, k + 1, pad * c))
        return [row for row in rows if row[3]]
    return _ceaseless(m, f, n, c, reroll == RerollMode.CEASELESS_BALANCED)


def _ceaseless(m: int, f: int, n: int, c: int, balanced: bool) -> list[tuple[int, int, int, int]]:
    """Ceaseless (then Balanced on a fail not yet re-rolled): the rows of :func:`_rolled`.

    The dice kept before the re-roll are gathered by the number ``r`` re-rolled (``before[r]``,
    indexed by fails * (m + 1) + normals, the crits following), Balanced's one die already
    re-rolled there; then each is combined with the ``r`` re-rolled dice.
    """
    size = m + 1
    before = [[0] * (size * size) for _ in range(size)]
    fm = _FACT[m]
    for i in range(size):
        multiplicity = _max_multiplicity(i, f)
        for j in range(size - i):
            k = m - i - j
            base = fm // (_FACT[i] * _FACT[j] * _FACT[k]) * n**j * c**k
            if not base:
                continue
            for r, ways in multiplicity.items():
                kept = before[r]
                w0 = base * ways
                if balanced and i - r > 0:
                    pad = w0 * 6 ** (m - r - 1)
                    at = (i - r) * size + j
                    kept[at] += pad * f
                    kept[at - size + 1] += pad * n
                    kept[at - size] += pad * c
                else:
                    kept[(i - r) * size + j] += w0 * 6 ** (m - r)
    acc = [0] * (size * size)
    for r in range(size):
        rerolled = [(x * size + y, w) for x, y, _, w in _trinomial(r, f, n, c) if w]
        kept = before[r]
        for fails in range(m - r + 1):
            for at in range(fails * size, fails * size + m - r - fails + 1):
                w0 = kept[at]
                if w0:
                    for shift, wr in rerolled:
                        acc[at + shift] += w0 * wr
    rows = []
    for at, w in enumerate(acc):
        if w:
            fails, normals = divmod(at, size)
            rows.append((fails, normals, m - fails - normals, w))
    return rows


def attack_outcomes(
    attacks: int, hit: int, rules: DiceRules, obscured: bool
) -> tuple[list[tuple[tuple[int, int], int]], int]:
    """The retained attack dice, as :func:`engine.dice.attack.attack_roll` gives them.

    Args:
        attacks: attack dice (0..30). hit: Hit threshold (2..6). rules: the weapon's dice
            rules. obscured: whether the target is obscured.

    Returns:
        ``(outcomes, total)``: ``((normals, crits), weight)`` sorted, weights > 0 over
        ``total = 6 ** (2 * rolled dice)``.
    """
    auto = min(rules.accurate, attacks)
    m = attacks - auto
    punishing, rending, severe = rules.punishing, rules.rending, rules.severe
    reroll = rules.reroll
    total = 6 ** (2 * m)
    if not (obscured or punishing or rending or severe) and (
        reroll == RerollMode.NONE or reroll == RerollMode.RELENTLESS
    ):
        # Every die on its own: the (normals, crits) counts straight from the multinomial.
        lethal = rules.lethal
        t = 6 if lethal is None else max(hit, lethal)
        f, n, c = hit - 1, t - hit, 7 - t
        pad = 6**m
        if reroll == RerollMode.RELENTLESS:
            f, n, c, pad = f * f, n * (6 + f), c * (6 + f), 1
        fact = _FACT
        fm = fact[m]
        c_pow = [c**k for k in range(m + 1)]
        f_pow = [f**i for i in range(m + 1)]
        out = []
        for j in range(m + 1):
            a = fm // fact[j] * n**j * pad
            for k in range(m - j + 1):
                w = a // (fact[k] * fact[m - j - k]) * c_pow[k] * f_pow[m - j - k]
                if w:
                    out.append(((j + auto, k), w))
        return out, total
    size = attacks + 2
    acc = [0] * (size * size)
    for fails, normals, crits, w in _rolled(m, hit, rules.lethal, reroll):
        normals += auto
        if obscured:
            normals = normals + crits - 1 if normals + crits else 0
            crits = 0
        elif crits:
            if punishing and fails:
                normals += 1
            if rending and normals:
                normals -= 1
                crits += 1
        elif severe and normals:
            normals -= 1
            crits = 1
        acc[normals * size + crits] += w
    return [(divmod(at, size), w) for at, w in enumerate(acc) if w], total


def _kernel_bases(
    block: int, dice: int, options: tuple[tuple[int, int], ...], brutal: bool
) -> list[int]:
    """For each cover option: the index in :data:`OFFSETS` of its kernel for 0 normals and 0
    crits (add ``n * 4 + c``), within the block of one damage class and save."""
    return [
        (block + _CONFIG_OF[(dice, cover_n, cover_c, brutal)]) * 16 for cover_n, cover_c in options
    ]


def _config_of(dice: int, cover_n: int, cover_c: int, brutal: bool) -> int:
    """The :data:`CONFIGS` index of ``dice`` defence dice with a cover-save option."""
    cover_c = min(cover_c, dice)
    cover_n = min(cover_n, dice - cover_c)
    rolled = dice - cover_n - cover_c
    return CONFIGS[(0, cover_c, rolled, True) if brutal else (cover_n, cover_c, rolled, False)]


#: :func:`_config_of` by its arguments (defence dice 0..3, the cover options of
#: :func:`engine.dice.shoot._cover_options`).
_CONFIG_OF = {
    (dice, cover_n, cover_c, brutal): _config_of(dice, cover_n, cover_c, brutal)
    for dice in range(DEFENCE_DICE + 1)
    for cover_n, cover_c in ((0, 0), (1, 0), (2, 0), (0, 1))
    for brutal in (False, True)
}


def shoot_weights(
    outcomes: list[tuple[tuple[int, int], int]],
    attacks: int,
    nd: int,
    cd: int,
    rules: DiceRules,
    save: int,
    options: tuple[tuple[int, int], ...],
) -> tuple[list[tuple[int, int]], list[tuple[tuple[int, int], int]]]:
    """Damage and unblocked dice of a shooting attack, as integer weights.

    Args:
        outcomes: the retained attack dice, ``((normals, crits), weight)``
            (:func:`attack_outcomes`).
        attacks: the attack dice (bounds the normals and crits).
        nd, cd: normal and critical damage. rules: the weapon's dice rules. save: 2..6.
        options: the defender's cover-save options ``(normal, critical)`` in order of
            preference on ties (:func:`engine.dice.shoot._cover_options`).

    Returns:
        ``(damage, unblocked)``: sorted ``(damage, weight)`` and ``((normals, crits), weight)``
        with weights over ``attack total * 216``, Devastating included in the damage.
    """
    brutal = rules.brutal
    dev = rules.devastating
    pierce = rules.piercing
    plain_dice = max(0, DEFENCE_DICE - pierce)
    crit_dice = max(0, DEFENCE_DICE - max(pierce, rules.piercing_crits))
    plain_options = options
    if not brutal and len(options) == 2 and options[1] == (0, 0):
        # As the reference: declining a normal cover save cannot help without a crit.
        plain_options = options[:1]
    block = (damage_class(nd, cd) * 5 + save - 2) * len(CONFIGS)
    plain_bases = _kernel_bases(block, plain_dice, plain_options, brutal)
    crit_bases = _kernel_bases(block, crit_dice, options, brutal)
    codes, weights, offsets, sums = CODES, WEIGHTS, OFFSETS, SUMS
    cap, cap4 = _CAP, _CAP4
    stride = attacks + 1
    plane = stride * stride if dev else 0
    shift = _SHIFTS[stride]
    acc = [0] * (stride * stride * (stride if dev else 1))
    # The kernels for 0 normals and 0 crits of the first and (-1: none) second cover option.
    p1 = plain_bases[0]
    p2 = plain_bases[1] if len(plain_bases) > 1 else -1
    c1 = crit_bases[0]
    c2 = crit_bases[1] if len(crit_bases) > 1 else -1
    for (n, c), w in outcomes:
        b = cap4[n] + cap[c]
        if c:
            k = c1 + b
            k2 = c2 + b if c2 >= 0 else -1
        else:
            k = p1 + b
            k2 = p2 + b if p2 >= 0 else -1
        # The second option only if it blocks more expected damage (ties: the first).
        if k2 >= 0 and (
            sums[2 * k2] * nd + sums[2 * k2 + 1] * cd > sums[2 * k] * nd + sums[2 * k + 1] * cd
        ):
            k = k2
        i0 = n * stride + c + c * plane
        for j in range(offsets[k], offsets[k + 1]):
            acc[i0 - shift[codes[j]]] += w * weights[j]
    damage: dict[int, int] = {}
    if not dev:
        left = [(divmod(i, stride), wt) for i, wt in enumerate(acc) if wt]
        for (un, uc), wt in left:
            d = un * nd + uc * cd
            damage[d] = damage.get(d, 0) + wt
        return sorted(damage.items()), left
    flat = [0] * plane
    for i, wt in enumerate(acc):
        if wt:
            c, rest = divmod(i, plane)
            un, uc = divmod(rest, stride)
            flat[rest] += wt
            d = un * nd + uc * cd + dev * c
            damage[d] = damage.get(d, 0) + wt
    return sorted(damage.items()), [(divmod(i, stride), wt) for i, wt in enumerate(flat) if wt]
