"""Exact distribution of the KT21 attack dice a player retains (``rules/KT21.md`` 4.3, 10.1
step 3, 11 step 3, 12).

One die is a critical hit on a 6 or, with Lethal x+, on a hit of x or more; a hit on BS/WS
or more; a fail otherwise (a 1 always fails). Re-rolls: a die is never re-rolled twice (4.3)
and the attacker's policy re-rolls **failed dice only** (re-rolling a hit is never asked of
the core: it may chase a critical hit, a game decision the dice core does not make):

- Relentless: every failed die;
- Ceaseless: every die showing a 1 (the KT21 rule, not KT24's "one chosen value");
- Balanced: one failed die; with Ceaseless, one failed die Ceaseless did not re-roll; without
  Ceaseless a 1 is picked first (it matters only to Hot, where it spares 3 mortal wounds);
- Relentless makes Balanced and Ceaseless moot (every fail is re-rolled already).

Then Rending: with a critical hit retained, one normal hit becomes a critical hit. It is
applied before MWx/Splash/Px count the critical hits (the attacker orders rules that trigger
together, 16.26, and this order is never worse for the attacker).

Hot (12) needs the number of 1s discarded: it is counted on the dice as they finally lie,
after re-rolls (UNCONFIRMED point 10, the digest's reading).

Weights are integers over ``6 ** (2 * attacks)`` (room for one re-roll of every die).
"""

from __future__ import annotations

from functools import lru_cache

from engine.dice.attack import die_weights
from engine.dice.kt21_profile import Kt21Attack

__all__ = ["Kt21Roll", "kt21_roll", "roll_outcomes"]

#: A retained attack outcome: (normal hits, critical hits, 1s discarded).
Outcome = tuple[int, int, int]


class Kt21Roll:
    """The exact distribution of one KT21 attack roll.

    Attributes:
        outcomes: tuple of ``(normals, crits, ones, weight)`` sorted, weight > 0, over
            ``total``; ``ones`` (the 1s discarded) is counted only for a Hot weapon (0
            otherwise).
        total: ``6 ** (2 * attacks)``.
    """

    __slots__ = ("outcomes", "total")

    def __init__(self, outcomes: tuple[tuple[int, int, int, int], ...], total: int) -> None:
        self.outcomes = outcomes
        self.total = total

    def crit_weight(self) -> int:
        """Weight of the outcomes with at least one critical hit retained."""
        return sum(w for _, c, _, w in self.outcomes if c)


def kt21_roll(profile: Kt21Attack) -> Kt21Roll:
    """Exact distribution of the attack dice retained with a KT21 ``profile``.

    Args:
        profile: A, BS/WS and the rules (Balanced, Ceaseless, Relentless, Lethal, Rending,
            Hot matter here).

    Returns:
        A :class:`Kt21Roll` over (normal hits, critical hits, 1s discarded).
    """
    r = profile.rules
    lethal = profile.number("Lethal") or None
    return Kt21Roll(
        roll_outcomes(
            profile.attacks,
            profile.hit,
            lethal,
            r.has("Balanced"),
            r.has("Ceaseless"),
            r.has("Relentless"),
            r.has("Rending"),
            r.has("Hot"),
        ),
        6 ** (2 * profile.attacks),
    )


# Per-die categories: unrerolled 1, unrerolled other fail, re-rolled 1, re-rolled other fail,
# normal hit, critical hit.
_ONE_U, _FAIL_U, _ONE_R, _FAIL_R, _NORMAL, _CRIT = range(6)


def _die(f: int, n: int, c: int, ceaseless: bool, relentless: bool) -> tuple[int, ...]:
    """Weights over 36 of the six categories for one die after its own re-roll (if any)."""
    if relentless:
        return (0, 0, f, f * (f - 1), n * (6 + f), c * (6 + f))
    if ceaseless:
        return (0, (f - 1) * 6, 1, f - 1, n * 7, c * 7)
    return (6, (f - 1) * 6, 0, 0, n * 6, c * 6)


@lru_cache(maxsize=4096)
def roll_outcomes(
    attacks: int,
    hit: int,
    lethal: int | None,
    balanced: bool,
    ceaseless: bool,
    relentless: bool,
    rending: bool,
    hot: bool,
) -> tuple[tuple[int, int, int, int], ...]:
    """``(normals, crits, ones, weight)`` rows over ``6 ** (2 * attacks)`` (see module doc).

    Args:
        attacks: dice rolled. hit: BS/WS 2..6. lethal: Lethal x or ``None``. balanced,
        ceaseless, relentless, rending, hot: whether the weapon has the rule (``ones`` is
        counted only with ``hot``).
    """
    f, n, c = die_weights(hit, lethal)
    cats = _die(f, n, c, ceaseless, relentless)
    balanced = balanced and not relentless
    # State: (ones, an unrerolled 1 lies, an unrerolled other fail lies, normals, crits).
    states: dict[tuple[int, bool, bool, int, int], int] = {(0, False, False, 0, 0): 1}
    for _ in range(attacks):
        nxt: dict[tuple[int, bool, bool, int, int], int] = {}
        for (ones, has_one, has_fail, nn, cc), w in states.items():
            for cat, cw in enumerate(cats):
                if not cw:
                    continue
                if cat == _ONE_U:
                    key = (ones + hot, True, has_fail, nn, cc)
                elif cat == _FAIL_U:
                    key = (ones, has_one, True, nn, cc)
                elif cat == _ONE_R:
                    key = (ones + hot, has_one, has_fail, nn, cc)
                elif cat == _FAIL_R:
                    key = (ones, has_one, has_fail, nn, cc)
                elif cat == _NORMAL:
                    key = (ones, has_one, has_fail, nn + 1, cc)
                else:
                    key = (ones, has_one, has_fail, nn, cc + 1)
                nxt[key] = nxt.get(key, 0) + w * cw
        states = nxt
    acc: dict[tuple[int, int, int], int] = {}

    def add(ones: int, nn: int, cc: int, w: int) -> None:
        if rending and cc and nn:
            nn, cc = nn - 1, cc + 1
        key = (nn, cc, ones)
        acc[key] = acc.get(key, 0) + w

    for (ones, has_one, has_fail, nn, cc), w in states.items():
        if balanced and (has_one or has_fail):
            # The re-rolled die's six padding faces become its new roll (w is a multiple
            # of 6: the die contributed 6 x its face weight).
            base = w // 6
            if has_one:
                ones -= hot
            add(ones + hot, nn, cc, base * 1)
            add(ones, nn, cc, base * (f - 1))
            add(ones, nn + 1, cc, base * n)
            add(ones, nn, cc + 1, base * c)
        else:
            add(ones, nn, cc, w)
    return tuple((nn, cc, ones, w) for (nn, cc, ones), w in sorted(acc.items()) if w)
