"""Exact distribution of the attack dice a player retains (``rules/KT24.md`` sections 2.4, 5, 6).

Order of the roll step (section 5.1 step 3; section 6 for each rule):

1. Accurate x: ``min(x, attacks)`` dice are retained as normal successes without rolling
   (default policy: use all x; the rule says "up to x", and rolling can be better when
   critical successes matter, e.g. with Lethal 2+ against Piercing 3 -- a game decision).
2. Roll the rest. A die is a critical success on 6 or, with Lethal x+, on a success of x or
   more; a success on Hit or more; a fail otherwise (a 1 always fails).
3. Re-rolls, default policies re-rolling fails only (:class:`~engine.dice.rules.RerollMode`):
   Balanced one fail; Ceaseless every die showing the most common failing value; both:
   Ceaseless first then Balanced on a fail not yet re-rolled; Relentless every fail.
4. Obscured target (section 4.5): one success discarded (attacker's choice, so a normal),
   every crit retained as a normal and none can become a crit; Punishing, Rending and Severe
   then do nothing (``EDGE_CASES.md`` 3).
5. Otherwise retention rules: with a retained crit, Punishing retains one fail as a normal
   and then Rending changes one normal to a crit (this order is never worse for the
   attacker); with no crit, Severe changes one normal to a crit (Punishing and Rending do not
   trigger from it).

Weights are integers over ``6 ** (2 * rolled_dice)`` (room for one re-roll of every die).

:func:`attack_roll` computes through :func:`engine.dice.kernel.attack_outcomes`; the code of
this module (:func:`attack_roll_reference`) is the reference it is tested against.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb, factorial

from engine.dice.kernel import attack_outcomes
from engine.dice.profile import AttackProfile
from engine.dice.rules import DiceRules, RerollMode

__all__ = ["AttackRoll", "attack_roll", "attack_roll_reference", "crit_threshold", "die_weights"]

#: A retained attack outcome: (normal successes, critical successes).
Retained = tuple[int, int]


def crit_threshold(hit: int, lethal: int | None) -> int:
    """The lowest face that is a critical success: 6, or Lethal x+ (never below Hit).

    Args:
        hit: the Hit threshold 2..6. lethal: the Lethal x (2..6) or ``None``.
    """
    if lethal is None:
        return 6
    return max(hit, lethal)


def die_weights(hit: int, lethal: int | None) -> tuple[int, int, int]:
    """Faces of one D6 that fail, are normal successes and are critical successes.

    Returns:
        ``(fail_faces, normal_faces, crit_faces)``, summing to 6.
    """
    t = crit_threshold(hit, lethal)
    return hit - 1, t - hit, 7 - t


@lru_cache(maxsize=256)
def _trinomial(m: int, f: int, n: int, c: int) -> tuple[tuple[int, int, int, int], ...]:
    """All (fails, normals, crits, weight) for m independent dice with category weights."""
    out = []
    fm = factorial(m)
    for i in range(m + 1):
        for j in range(m - i + 1):
            k = m - i - j
            w = fm // (factorial(i) * factorial(j) * factorial(k)) * f**i * n**j * c**k
            if w:
                out.append((i, j, k, w))
    return tuple(out)


@lru_cache(maxsize=256)
def _max_multiplicity(i: int, f: int) -> tuple[tuple[int, int], ...]:
    """For i dice each showing one of f equally likely failing faces: pairs
    (r, number of face sequences whose most common value appears r times)."""
    if i == 0:
        return ((0, 1),)
    counts: dict[int, int] = {}

    def compositions(remaining: int, parts: int, best: int, ways: int) -> None:
        # ways: multinomial coefficient so far (number of sequences)
        if parts == 1:
            r = max(best, remaining)
            counts[r] = counts.get(r, 0) + ways
            return
        for a in range(remaining + 1):
            compositions(remaining - a, parts - 1, max(best, a), ways * comb(remaining, a))

    compositions(i, f, 0, 1)
    return tuple(sorted(counts.items()))


@lru_cache(maxsize=1024)
def _rolled(
    m: int, hit: int, lethal: int | None, reroll: str
) -> tuple[tuple[int, int, int, int], ...]:
    """Distribution of (fails, normals, crits) after rolling and re-rolling m dice.

    Weights are over ``6 ** (2 * m)``.
    """
    f, n, c = die_weights(hit, lethal)
    acc: dict[tuple[int, int, int], int] = {}

    def add(key: tuple[int, int, int], w: int) -> None:
        acc[key] = acc.get(key, 0) + w

    if reroll == RerollMode.RELENTLESS:
        for i, j, k, w in _trinomial(m, f * f, n * (6 + f), c * (6 + f)):
            add((i, j, k), w)
    elif reroll == RerollMode.NONE:
        pad = 6**m
        for i, j, k, w in _trinomial(m, f, n, c):
            add((i, j, k), w * pad)
    elif reroll == RerollMode.BALANCED:
        for i, j, k, w in _trinomial(m, f, n, c):
            if i == 0:
                add((i, j, k), w * 6**m)
            else:
                pad = w * 6 ** (m - 1)
                add((i, j, k), pad * f)
                add((i - 1, j + 1, k), pad * n)
                add((i - 1, j, k + 1), pad * c)
    else:  # Ceaseless, optionally followed by Balanced
        balanced = reroll == RerollMode.CEASELESS_BALANCED
        fm = factorial(m)
        for i in range(m + 1):
            for j in range(m - i + 1):
                k = m - i - j
                base = fm // (factorial(i) * factorial(j) * factorial(k)) * n**j * c**k
                if not base:
                    continue
                for r, ways in _max_multiplicity(i, f):
                    w0 = base * ways
                    for x, y, z, wr in _trinomial(r, f, n, c):
                        fails, normals, crits = i - r + x, j + y, k + z
                        w1 = w0 * wr
                        if balanced and i - r > 0:
                            pad = w1 * 6 ** (m - r - 1)
                            add((fails, normals, crits), pad * f)
                            add((fails - 1, normals + 1, crits), pad * n)
                            add((fails - 1, normals, crits + 1), pad * c)
                        else:
                            add((fails, normals, crits), w1 * 6 ** (m - r))
    return tuple((i, j, k, w) for (i, j, k), w in acc.items())


class AttackRoll:
    """The exact distribution of retained attack dice for one profile.

    Attributes:
        outcomes: tuple of ``(normals, crits, weight)`` with weight > 0, sorted; weights are
            integers over ``total``.
        total: ``6 ** (2 * rolled_dice)``.
    """

    __slots__ = ("outcomes", "total")

    def __init__(self, outcomes: tuple[tuple[int, int, int], ...], total: int) -> None:
        self.outcomes = outcomes
        self.total = total

    def crit_weight(self) -> int:
        """Weight of the outcomes with at least one retained critical success."""
        return sum(w for _, c, w in self.outcomes if c)


def attack_roll(profile: AttackProfile, *, obscured: bool = False) -> AttackRoll:
    """Exact distribution of the attack dice retained with ``profile``.

    Args:
        profile: the weapon profile (attacks, Hit, weapon rules).
        obscured: whether the target is obscured (section 4.5).

    Returns:
        An :class:`AttackRoll` over (normal successes, critical successes).
    """
    return _attack_roll(profile.attacks, profile.hit, profile.rules.dice, obscured)


@lru_cache(maxsize=4096)
def _attack_roll(attacks: int, hit: int, rules: DiceRules, obscured: bool) -> AttackRoll:
    outcomes, total = attack_outcomes(attacks, hit, rules, obscured)
    return AttackRoll(tuple((n, c, w) for (n, c), w in outcomes), total)


def attack_roll_reference(profile: AttackProfile, *, obscured: bool = False) -> AttackRoll:
    """The reference computation of :func:`attack_roll` (not cached; slower): the fast
    kernel (:func:`engine.dice.kernel.attack_outcomes`) is checked against it."""
    return _attack_roll_reference(profile.attacks, profile.hit, profile.rules.dice, obscured)


def _attack_roll_reference(attacks: int, hit: int, rules: DiceRules, obscured: bool) -> AttackRoll:
    auto = min(rules.accurate, attacks)
    m = attacks - auto
    acc: dict[tuple[int, int], int] = {}
    punishing, rending, severe = rules.punishing, rules.rending, rules.severe
    for fails, normals, crits, w in _rolled(m, hit, rules.lethal, rules.reroll):
        if not w:
            continue  # impossible outcome (e.g. a re-rolled normal at Hit 6+ with no Lethal)
        normals += auto
        if obscured:
            key = (max(normals + crits - 1, 0), 0)
        elif crits:
            if punishing and fails:
                normals += 1
            if rending and normals:
                normals -= 1
                crits += 1
            key = (normals, crits)
        elif severe and normals:
            key = (normals - 1, 1)
        else:
            key = (normals, crits)
        acc[key] = acc.get(key, 0) + w
    outcomes = tuple((nn, nc, w) for (nn, nc), w in sorted(acc.items()))
    return AttackRoll(outcomes, 6 ** (2 * m))
