"""The KT18 dice core (``engine.dice.kt18``) against an independent brute-force enumerator.

The enumerator below is written from ``docs/rules/KT18.md`` 1.2 (D3 = a D6 halved, rounding
up), 3.11 (Overwatch hits only on a 6), 5.7/5.10 (the number of attacks rolled once, doubled
at half range), 6.2 (hit roll: natural 1 misses, natural 6 hits), 6.5 (wound table), 6.6/6.7
(armour save with AP or the invulnerable save, natural 1 fails), 6.8 (D rolled per attack,
the rest discarded at 0 wounds), 6.9-6.11 (Injury roll: D dice when D > 1, highest counts,
+1 per flesh wound, the cover -1, 4+ out of action; a flesh wound with every box marked is
out of action). It imports nothing from ``engine.dice`` but the inputs it compares: every
face of every die (the count's dice, each hit, wound and save die, each Damage die and each
Injury die) is enumerated with ``itertools.product``; the only shortcut is memoising on the
full state (attacks left, wounds left) so that it finishes.

Also: hypothesis properties (the probabilities sum to 1; one more attack never lowers P(out
of action); a flesh wound more never lowers it) and the sampler against the exact
distribution on a seeded run.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice.kt18 import Kt18Attack, Kt18Target, kt18_attack_pmf
from engine.dice.kt18_sample import sample_kt18_attacks
from engine.dice.kt18_values import RandomValue

FACES = range(1, 7)


@dataclass(frozen=True)
class Case:
    """One brute-force case, in printed values (own representation)."""

    count: tuple[int, int, int]  # (dice, sides, bonus) of the number of attacks
    doubled: bool
    skill: int
    hit_mod: int
    overwatch: bool
    s: int
    ap: int
    damage: tuple[int, int, int]
    t: int
    sv: int
    inv: int
    wounds: int
    flesh: int
    boxes: int
    cover: int

    def engine(self) -> tuple[Kt18Attack, Kt18Target]:
        """The same case as the dice core's inputs."""
        return (
            Kt18Attack(
                RandomValue(*self.count),
                self.skill,
                self.s,
                self.ap,
                RandomValue(*self.damage),
                hit_modifier=self.hit_mod,
                overwatch=self.overwatch,
                doubled=self.doubled,
            ),
            Kt18Target(self.t, self.sv, self.wounds, self.inv, self.flesh, self.boxes, self.cover),
        )


def value_of(spec: tuple[int, int, int], faces: tuple[int, ...]) -> int:
    """A printed value rolled with D6 faces: a D3 is the face halved, rounding up (1.2)."""
    _dice, sides, bonus = spec
    return sum((f + 1) // 2 if sides == 3 else f for f in faces) + bonus


def hits(case: Case, face: int) -> bool:
    """6.2 and 3.11."""
    if case.overwatch:
        return face == 6
    if case.skill == 0 or face == 1:
        return False
    return face == 6 or face + case.hit_mod >= case.skill


def wounds(case: Case, face: int) -> bool:
    """6.5: the table by S against T; natural 1 fails, natural 6 wounds."""
    if face == 1:
        return False
    if face == 6:
        return True
    s, t = case.s, case.t
    need = 2 if s >= 2 * t else 3 if s > t else 4 if s == t else 6 if 2 * s <= t else 5
    return face >= need


def saved(case: Case, face: int) -> bool:
    """6.6, 6.7: the model uses whichever save works; natural 1 always fails."""
    if face == 1:
        return False
    armour = case.sv != 0 and face + case.ap >= case.sv
    invulnerable = case.inv != 0 and face >= case.inv
    return armour or invulnerable


def brute(case: Case) -> dict[tuple[str, int], Fraction]:
    """Every die face enumerated (see the module docstring)."""

    def left(w: int) -> tuple[str, int]:
        return ("unharmed", w) if w == case.wounds else ("wounded", w)

    def add(into: dict, sub: dict, p: Fraction) -> None:
        for k, q in sub.items():
            into[k] = into.get(k, Fraction(0)) + p * q

    @cache
    def injury(d: int) -> dict[tuple[str, int], Fraction]:
        out: dict[tuple[str, int], Fraction] = {}
        n = max(1, d)
        for faces in itertools.product(FACES, repeat=n):
            modified = max(f + case.flesh + case.cover for f in faces)
            dead = modified >= 4 or case.flesh >= case.boxes
            key = ("out_of_action", 0) if dead else ("flesh_wound", 1)
            out[key] = out.get(key, Fraction(0)) + Fraction(1, 6**n)
        return out

    @cache
    def resolve(n: int, w: int) -> dict[tuple[str, int], Fraction]:
        if n == 0:
            return {left(w): Fraction(1)}
        out: dict[tuple[str, int], Fraction] = {}
        for h, wf, sf in itertools.product(FACES, repeat=3):
            p = Fraction(1, 216)
            if not (hits(case, h) and wounds(case, wf)) or saved(case, sf):
                add(out, resolve(n - 1, w), p)
                continue
            k = case.damage[0]
            for dfaces in itertools.product(FACES, repeat=k):
                d = value_of(case.damage, dfaces)
                q = p / 6**k
                if d >= w:
                    add(out, injury(d), q)
                else:
                    add(out, resolve(n - 1, w - d), q)
        return out

    total: dict[tuple[str, int], Fraction] = {}
    k = case.count[0]
    for faces in itertools.product(FACES, repeat=k):
        n = value_of(case.count, faces) * (2 if case.doubled else 1)
        add(total, resolve(n, case.wounds), Fraction(1, 6**k))
    return {key: p for key, p in total.items() if p}


def random_case(rng: random.Random) -> Case:
    """A small random case (few attacks, small Damage, few wounds)."""
    count = rng.choice([(0, 6, 1), (0, 6, 2), (0, 6, 3), (1, 3, 0), (1, 3, 1), (1, 6, 0)])
    damage = rng.choice([(0, 6, 1), (0, 6, 2), (0, 6, 3), (1, 3, 0), (1, 6, 0)])
    boxes = rng.choice([0, 1, 3])
    return Case(
        count=count,
        doubled=count[0] == 0 and count[2] == 1 and rng.random() < 0.5,
        skill=rng.choice([0, 2, 3, 4, 5, 6]),
        hit_mod=rng.randint(-2, 2),
        overwatch=rng.random() < 0.2,
        s=rng.randint(1, 9),
        ap=rng.randint(-3, 0),
        damage=damage,
        t=rng.randint(1, 8),
        sv=rng.choice([0, 2, 3, 4, 5, 6]),
        inv=rng.choice([0, 0, 3, 4, 5]),
        wounds=rng.randint(1, 4),
        flesh=rng.randint(0, boxes),
        boxes=boxes,
        cover=rng.choice([0, -1]),
    )


CASES = [random_case(random.Random(seed)) for seed in range(60)]


@pytest.mark.parametrize("case", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_kt18_attack_pmf_equals_every_die_enumerated(case: Case) -> None:
    """6.2-6.11: the exact distribution is the brute-force enumeration of every die face,
    outcome for outcome (the same Fractions, nothing else)."""
    attack, target = case.engine()
    assert kt18_attack_pmf(attack, target) == brute(case)


def test_kt18_bruteforce_cases_cover_the_rules() -> None:
    """The random cases exercise every rule the enumerator encodes at least once: random
    counts and Damage, doubling, Overwatch, invulnerable saves, flesh wounds, full boxes,
    cover, several wounds."""
    assert any(c.count[0] for c in CASES) and any(c.damage[0] for c in CASES)
    assert any(c.doubled for c in CASES) and any(c.overwatch for c in CASES)
    assert any(c.inv for c in CASES) and any(c.cover for c in CASES)
    assert any(0 < c.flesh < c.boxes for c in CASES) and any(c.flesh == c.boxes for c in CASES)
    assert any(c.wounds > 1 and c.damage != (0, 6, 1) for c in CASES)


def test_kt18_bruteforce_seed_example_three_injury_dice() -> None:
    """6.10's own example: 3 wounds left, a fixed D 3, one attack: the failed save takes the
    model to 0 and 3 Injury dice are rolled, the highest counting: out of action 1 - (1/2)^3
    = 7/8 of the time. BS 2+ hits 5/6, S8 vs T4 wounds 5/6, Sv 3+ with AP -3 saves only on
    a 6 (fails 5/6). Both sides agree with the hand value."""
    case = Case((0, 6, 1), False, 2, 0, False, 8, -3, (0, 6, 3), 4, 3, 0, 3, 0, 3, 0)
    expected = Fraction(5, 6) ** 3 * Fraction(7, 8)
    assert brute(case)[("out_of_action", 0)] == expected
    assert kt18_attack_pmf(*case.engine())[("out_of_action", 0)] == expected


# --- properties -----------------------------------------------------------------------------

attacks_st = st.builds(
    lambda n, skill, mod, s, ap, dmg: Kt18Attack(
        RandomValue(0, 6, n), skill, s, ap, RandomValue(*dmg), hit_modifier=mod
    ),
    st.integers(0, 6),
    st.sampled_from([0, 2, 3, 4, 5, 6]),
    st.integers(-3, 3),
    st.integers(1, 10),
    st.integers(-4, 0),
    st.sampled_from([(0, 6, 1), (0, 6, 2), (1, 3, 0), (1, 6, 0), (2, 3, 1)]),
)
targets_st = st.builds(
    lambda t, sv, inv, w, flesh, cover: Kt18Target(t, sv, w, inv, flesh, 3, cover),
    st.integers(1, 10),
    st.sampled_from([0, 2, 3, 4, 5, 6]),
    st.sampled_from([0, 3, 4, 5, 6]),
    st.integers(1, 8),
    st.integers(0, 3),
    st.sampled_from([0, -1]),
)


def _out(attack: Kt18Attack, target: Kt18Target) -> Fraction:
    return kt18_attack_pmf(attack, target).get(("out_of_action", 0), Fraction(0))


@settings(max_examples=60, deadline=None)
@given(attacks_st, targets_st)
def test_kt18_probabilities_sum_to_one(attack: Kt18Attack, target: Kt18Target) -> None:
    """A distribution: every probability positive, the sum exactly 1, every outcome one of
    the four kinds with its wounds left in range."""
    pmf = kt18_attack_pmf(attack, target)
    assert sum(pmf.values()) == 1 and all(p > 0 for p in pmf.values())
    for kind, left in pmf:
        assert kind in ("unharmed", "wounded", "flesh_wound", "out_of_action")
        assert 0 <= left <= target.wounds


@settings(max_examples=60, deadline=None)
@given(attacks_st, targets_st)
def test_kt18_one_more_attack_never_lowers_out_of_action(
    attack: Kt18Attack, target: Kt18Target
) -> None:
    """5.6, 6.8: the first n attacks are resolved the same way with or without an (n+1)th,
    which only adds chances to reach 0 wounds: P(out of action) never falls."""
    more = Kt18Attack(
        RandomValue(0, 6, attack.attacks.bonus + 1),
        attack.skill,
        attack.strength,
        attack.ap,
        attack.damage,
        hit_modifier=attack.hit_modifier,
    )
    assert _out(more, target) >= _out(attack, target)


@settings(max_examples=60, deadline=None)
@given(attacks_st, targets_st)
def test_kt18_a_flesh_wound_more_never_lowers_out_of_action(
    attack: Kt18Attack, target: Kt18Target
) -> None:
    """6.9, 6.11: a flesh wound more adds +1 to every Injury die (or fills the boxes):
    P(out of action) never falls."""
    if target.flesh_wounds == target.flesh_wound_boxes:
        return
    worse = Kt18Target(
        target.toughness,
        target.save,
        target.wounds,
        target.invulnerable,
        target.flesh_wounds + 1,
        target.flesh_wound_boxes,
        target.cover_modifier,
    )
    assert _out(attack, worse) >= _out(attack, target)


def test_kt18_sampler_agrees_with_the_exact_distribution() -> None:
    """The sampler (same rules, die by die) against the pmf on a seeded run of 20000: each
    outcome's frequency within 4.5 standard deviations of its probability (sqrt(p(1-p)/n);
    a false alarm about once in 150000 runs per outcome)."""
    n = 20000
    cases = [random_case(random.Random(seed)) for seed in (101, 102, 103)]
    cases.append(Case((1, 6, 0), True, 3, -1, False, 5, -1, (1, 3, 0), 4, 4, 5, 3, 1, 3, -1))
    for i, case in enumerate(cases):
        attack, target = case.engine()
        pmf = kt18_attack_pmf(attack, target)
        counts = sample_kt18_attacks(attack, target, n, random.Random(1000 + i))
        assert set(counts) <= set(pmf)
        for key, p in pmf.items():
            sd = math.sqrt(float(p) * (1 - float(p)) / n)
            assert abs(counts.get(key, 0) / n - float(p)) <= 4.5 * sd + 1e-9, (i, key)
