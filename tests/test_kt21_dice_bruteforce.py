"""The KT21 dice core (``engine.dice.kt21``) against an independent brute-force enumerator.

The enumerator below is written from ``rules/KT21.md`` 4.3, 10, 11, 12 and the policies the
dice core documents (re-roll failed dice only: Relentless every fail, Ceaseless every 1,
Balanced one fail not yet re-rolled, a 1 first; Rending before counting crits; the defender
picks SV or invulnerable and cover or not by least expected damage, ties to SV and to
retaining; fights maximise/minimise (value, damage dealt by attacker, by defender)
lexicographically). It imports nothing from ``engine.dice`` but the inputs it compares:
every attack die face and every re-rolled face is enumerated with ``itertools.product``,
every defence die face likewise, every allocation of saves is tried, and a fight is a plain
minimax over explicit positions.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import cache

import pytest

from engine.dice.kt21 import Kt21Attack, Kt21Defender, Kt21Fighter, kt21_fight, kt21_shoot

KILL = 4096


def brute_rolls(a: int, hit: int, flags: frozenset[str], lethal: int) -> dict[tuple, Fraction]:
    """(normals, crits, ones) -> probability, every face and re-roll enumerated."""
    crit_from = max(hit, lethal) if lethal else 6
    out: dict[tuple, Fraction] = {}
    for first in itertools.product(range(1, 7), repeat=a):
        if "Relentless" in flags:
            again = [i for i, f in enumerate(first) if f < hit]
        else:
            again = [i for i, f in enumerate(first) if f == 1] if "Ceaseless" in flags else []
            if "Balanced" in flags:
                fails = [i for i, f in enumerate(first) if f < hit and i not in again]
                ones = [i for i in fails if first[i] == 1]
                if ones or fails:
                    again.append((ones or fails)[0])
        p_first = Fraction(1, 6**a)
        for new in itertools.product(range(1, 7), repeat=len(again)):
            faces = list(first)
            for i, f in zip(again, new, strict=True):
                faces[i] = f
            crits = sum(f >= crit_from for f in faces)
            normals = sum(f >= hit for f in faces) - crits
            ones_n = sum(f == 1 for f in faces)
            if "Rending" in flags and crits and normals:
                normals, crits = normals - 1, crits + 1
            key = (normals, crits, ones_n)
            out[key] = out.get(key, 0) + p_first / 6 ** len(again)
    return out


@cache
def least_damage(n: int, c: int, sn: int, sc: int, nd: int, cd: int) -> int:
    """Every allocation: each save blocks something or nothing (10.1 step 5)."""
    best = n * nd + c * cd
    if sc and c:
        best = min(best, least_damage(n, c - 1, sn, sc - 1, nd, cd))
    if sc and n:
        best = min(best, least_damage(n - 1, c, sn, sc - 1, nd, cd))
    if sn and n:
        best = min(best, least_damage(n - 1, c, sn - 1, sc, nd, cd))
    if sn >= 2 and c:
        best = min(best, least_damage(n, c - 1, sn - 2, sc, nd, cd))
    return best


def brute_shoot(
    a: int,
    hit: int,
    nd: int,
    cd: int,
    flags: frozenset[str],
    nums: dict[str, int],
    df: int,
    sv: int,
    inv: int,
    cover: bool,
) -> dict[int, Fraction]:
    """Damage -> probability of one shooting attack."""
    out: dict[int, Fraction] = {}
    per_crit = nums.get("MW", 0) + nums.get("Splash", 0)
    cover_ok = cover and "No Cover" not in flags and "Indirect" not in flags
    for (n, c, _), p in brute_rolls(a, hit, flags, nums.get("Lethal", 0)).items():
        ap = max(nums.get("AP", 0), nums.get("P", 0) if c else 0)
        kinds = [(sv, max(0, df - ap))] + ([(inv, df)] if inv else [])
        best: dict[int, Fraction] | None = None
        best_mean = None
        for threshold, dice in kinds:
            for retain in [True, False] if cover_ok and dice else [False]:
                dist: dict[int, Fraction] = {}
                rolled = dice - retain
                for faces in itertools.product(range(1, 7), repeat=rolled):
                    sc = sum(f == 6 for f in faces)
                    sn = sum(threshold <= f < 6 for f in faces) + retain
                    dmg = least_damage(n, c, sn, sc, nd, cd) + per_crit * c
                    dist[dmg] = dist.get(dmg, 0) + Fraction(1, 6**rolled)
                mean = sum(k * v for k, v in dist.items())
                if best_mean is None or mean < best_mean:
                    best, best_mean = dist, mean
        assert best is not None
        for k, v in best.items():
            out[k] = out.get(k, 0) + p * v
    return out


def brute_resolve(
    a: tuple[int, int],
    b: tuple[int, int],
    wa: int,
    wb: int,
    da: tuple[int, int],
    db: tuple[int, int],
    brutal: tuple[bool, bool],
    stun: tuple[bool, bool],
    two: tuple[bool, bool],
) -> tuple[int, int, int]:
    """(value, dealt by attacker, dealt by defender) of optimal strike/parry resolution."""

    @cache
    def go(an, ac, bn, bc, wa, wb, sa, sb, a_turn):  # type: ignore[no-untyped-def]
        if not (an or ac) and not (bn or bc):
            return (0, 0, 0)
        if not (an or ac) or not (bn or bc):
            ta = an * da[0] + ac * da[1]
            tb = bn * db[0] + bc * db[1]
            if ta >= wb:
                return (KILL + wb, wb, 0)
            if tb >= wa:
                return (-(KILL + wa), 0, wa)
            return (ta - tb, ta, tb)
        results = []
        own = (an, ac) if a_turn else (bn, bc)
        opp = (bn, bc) if a_turn else (an, ac)
        side = 0 if a_turn else 1
        nd, cd = da if a_turn else db
        w_opp = wb if a_turn else wa
        stun_on = sa if a_turn else sb
        k = 2 if two[side] else 1
        moves = []  # (own n, own c, opp n, opp c, damage, crit strike, strike)
        if own[0]:
            moves.append((1, 0, 0, 0, nd, False, True))
        if own[1]:
            moves.append((0, 1, 1 if stun_on and opp[0] else 0, 0, cd, True, True))
        if own[0] and opp[0] and not brutal[1 - side]:
            moves.append((1, 0, min(k, opp[0]), 0, 0, False, False))
        if own[1]:
            for xn in range(opp[0] + 1):
                for xc in range(opp[1] + 1):
                    if 1 <= xn + xc <= k and xn + xc == min(k, opp[0] + opp[1]):
                        moves.append((0, 1, xn, xc, 0, False, False))
        for on, oc, xn, xc, dmg, crit, strike in moves:
            if strike and dmg >= w_opp:
                r = (KILL + wb, wb, 0) if a_turn else (-(KILL + wa), 0, wa)
            elif a_turn:
                v, x, y = go(
                    an - on, ac - oc, bn - xn, bc - xc, wa, wb - dmg, sa and not crit, sb, False
                )
                r = (v + dmg, x + dmg, y)
            else:
                v, x, y = go(
                    an - xn, ac - xc, bn - on, bc - oc, wa - dmg, wb, sa, sb and not crit, True
                )
                r = (v - dmg, x, y + dmg)
            results.append(r)
        return max(results) if a_turn else min(results)

    return go(a[0], a[1], b[0], b[1], wa, wb, stun[0], stun[1], True)


def _rules_text(flags: frozenset[str], nums: dict[str, int]) -> str:
    parts = sorted(flags)
    parts += [f"{k}{v}" for k, v in nums.items() if k in ("AP", "P", "MW")]
    parts += [f"Splash {v}" for k, v in nums.items() if k == "Splash"]
    parts += [f"Lethal {v}+" for k, v in nums.items() if k == "Lethal"]
    return ", ".join(parts)


FLAGS = ["Balanced", "Ceaseless", "Relentless", "Rending", "No Cover", "Indirect", "Hot"]


def _shoot_cases(count: int) -> list[tuple]:
    rng = random.Random(2021)
    cases = []
    for _ in range(count):
        flags = frozenset(rng.sample(FLAGS, rng.randint(0, 3)))
        nums = {}
        for name, values in (("AP", (1, 2)), ("P", (1, 2, 3)), ("MW", (1, 2)), ("Lethal", (4, 5))):
            if rng.random() < 0.3:
                nums[name] = rng.choice(values)
        if rng.random() < 0.15:
            nums["Splash"] = 1
        cases.append(
            (
                rng.randint(0, 3),
                rng.randint(2, 6),
                rng.randint(0, 4),
                rng.randint(0, 5),
                flags,
                nums,
                rng.randint(0, 3),
                rng.randint(2, 6),
                rng.choice([0, 0, 3, 4, 5]),
                rng.random() < 0.5,
            )
        )
    return cases


@pytest.mark.parametrize("case", _shoot_cases(70))
def test_kt21_shooting_attack_equals_brute_force(case: tuple) -> None:
    """Rules/KT21.md 10.1: the exact damage distribution of a KT21 shooting attack equals
    the enumeration of every attack face, every re-roll, every defence face and every
    allocation, with the defender's SV/invulnerable and cover choice by least expected
    damage."""
    a, hit, nd, cd, flags, nums, df, sv, inv, cover = case
    profile = Kt21Attack(a, hit, nd, cd, _rules_text(flags, nums))
    defender = Kt21Defender(df, sv, 10, inv, in_cover=cover)
    got = kt21_shoot(profile, defender).damage.to_fractions()
    want = {
        k: v for k, v in brute_shoot(a, hit, nd, cd, flags, nums, df, sv, inv, cover).items() if v
    }
    assert got == want


def test_kt21_hot_mortal_wounds_equal_brute_force() -> None:
    """Rules/KT21.md 12 Hot: 3 mortal wounds per 1 left after re-rolls, enumerated."""
    for flags in (
        frozenset({"Hot"}),
        frozenset({"Hot", "Balanced"}),
        frozenset({"Hot", "Ceaseless", "Balanced"}),
    ):
        profile = Kt21Attack(3, 4, 1, 2, ", ".join(sorted(flags)))
        res = kt21_shoot(profile, Kt21Defender(3, 4, 5))
        assert res.hot is not None
        want: dict[int, Fraction] = {}
        for (_, _, ones), p in brute_rolls(3, 4, flags, 0).items():
            want[3 * ones] = want.get(3 * ones, 0) + p
        assert res.hot.to_fractions() == want


def _fight_cases(count: int) -> list[tuple]:
    rng = random.Random(11)
    cases = []
    for _ in range(count):
        sides = []
        for _ in range(2):
            flags = frozenset(
                rng.sample(
                    ["Brutal", "Stun", "Rending", "Balanced", "Ceaseless"], rng.randint(0, 2)
                )
            )
            sides.append(
                (
                    rng.randint(0, 3),
                    rng.randint(2, 6),
                    rng.randint(1, 4),
                    rng.randint(1, 5),
                    flags,
                    rng.randint(1, 9),
                    rng.random() < 0.3,
                    rng.randint(0, 1),
                )
            )
        cases.append(tuple(sides))
    return cases


@pytest.mark.parametrize("case", _fight_cases(40))
def test_kt21_fight_equals_brute_force(case: tuple) -> None:
    """Rules/KT21.md 11, 12, 16.16: the joint damage of a KT21 fight (combat support, Brutal,
    Stun's first critical strike discarding a normal hit, parry discards two) equals both
    rolls enumerated face by face and an explicit minimax of strike/parry resolution."""
    (a, b) = case
    fighters = []
    for att, hit, nd, cd, flags, w, two, sup in (a, b):
        fighters.append(
            Kt21Fighter(Kt21Attack(att, hit, nd, cd, ", ".join(sorted(flags))), w, sup, two)
        )
    got = kt21_fight(fighters[0], fighters[1]).joint.to_fractions()
    ha, hb = max(2, a[1] - a[7]), max(2, b[1] - b[7])
    ra = brute_rolls(a[0], ha, a[4], 0)
    rb = brute_rolls(b[0], hb, b[4], 0)
    want: dict[tuple[int, int], Fraction] = {}
    for (an, ac, _), pa in ra.items():
        for (bn, bc, _), pb in rb.items():
            _, dealt_a, dealt_b = brute_resolve(
                (an, ac),
                (bn, bc),
                a[5],
                b[5],
                (a[2], a[3]),
                (b[2], b[3]),
                ("Brutal" in a[4], "Brutal" in b[4]),
                ("Stun" in a[4], "Stun" in b[4]),
                (a[6], b[6]),
            )
            key = (dealt_b, dealt_a)
            want[key] = want.get(key, 0) + pa * pb
    assert got == want
