"""Monte Carlo sampling agrees with the exact dice core within sampling error.

Each check uses a fixed seed and a tolerance derived from the sample size: a sample mean
must lie within 5 standard errors of the exact mean (standard deviation from the exact pmf),
and each probability p within 5 * sqrt(p(1-p)/n) + 1/n. With the seeds fixed the tests are
deterministic; the tolerance only says why the numbers chosen are fair.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from engine.dice import AttackProfile, Fighter, Pmf, Target, fight, shoot
from engine.dice.sample import sample_attack_dice, sample_fight, sample_shoot
from engine.errors import ProfileError

N = 200_000

SHOOT_CASES = [
    ("plain", "", Target(3, 12)),
    ("balanced", "Balanced", Target(4, 10, in_cover=True)),
    ("ceaseless", "Ceaseless", Target(3, 12)),
    ("ceaseless_balanced", "Ceaseless, Balanced", Target(5, 8)),
    ("relentless_lethal", "Relentless, Lethal 5+", Target(3, 12)),
    ("punishing_rending", "Lethal 5+, Punishing, Rending", Target(4, 9, in_cover=True)),
    ("severe_piercing_crits", "Severe, Piercing Crits 1", Target(3, 12)),
    ("devastating_obscured", "Devastating 2, Piercing 1", Target(3, 12, obscured=True)),
    ("accurate_saturate", "Accurate 1, Saturate", Target(4, 9, in_cover=True)),
    ("improved_cover", "Lethal 5+", Target(4, 10, improved_cover=True)),
    ("brutal_stun_hot", "Brutal, Stun, Hot", Target(3, 12)),
]


def _moments(pmf: Pmf[int]) -> tuple[float, float]:
    mean = float(pmf.mean())
    second = float(sum(Fraction(k * k) * p for k, p in pmf))
    return mean, math.sqrt(max(second - mean * mean, 0.0))


def _assert_agrees(samples: np.ndarray, exact: Pmf[int]) -> None:
    n = samples.size
    mean, sd = _moments(exact)
    assert abs(samples.mean() - mean) <= 5 * sd / math.sqrt(n) + 1e-12
    values, counts = np.unique(samples, return_counts=True)
    observed = dict(zip(values.tolist(), (counts / n).tolist(), strict=True))
    for k, p in exact.to_floats().items():
        tol = 5 * math.sqrt(p * (1 - p) / n) + 1 / n
        assert abs(observed.get(k, 0.0) - p) <= tol, (k, observed.get(k, 0.0), p)
    assert set(observed) <= set(exact.outcomes()), "sampled an impossible outcome"


@pytest.mark.parametrize(("name", "rules", "target"), SHOOT_CASES, ids=[c[0] for c in SHOOT_CASES])
def test_sampled_shooting_matches_exact_distribution(name: str, rules: str, target: Target) -> None:
    profile = AttackProfile.parse(5, "3+", "3/4", rules)
    rng = np.random.default_rng(20241)
    sampled = sample_shoot(profile, target, N, rng)
    _assert_agrees(sampled.damage, shoot(profile, target).damage)


def test_sampled_hot_self_damage_matches_exact() -> None:
    profile = AttackProfile.parse(4, "4+", "3/4", "Hot")
    sampled = sample_shoot(profile, Target(3, 12), N, np.random.default_rng(7))
    exact = shoot(profile, Target(3, 12)).hot
    assert exact is not None
    _assert_agrees(sampled.hot_damage, exact)


@pytest.mark.parametrize("policy", ["optimal", "strike", "block"])
def test_sampled_fight_matches_exact_distribution(policy: str) -> None:
    attacker = Fighter(AttackProfile.parse(4, "3+", "4/5", "Shock"), 12)
    defender = Fighter(AttackProfile.parse(4, "4+", "3/4", "Brutal, Lethal 5+"), 10)
    exact = fight(attacker, defender, policy=policy)
    sampled = sample_fight(attacker, defender, N, np.random.default_rng(99), policy=policy)
    _assert_agrees(sampled.attacker_damage, exact.attacker.damage_taken)
    _assert_agrees(sampled.defender_damage, exact.defender.damage_taken)


def test_sampling_is_deterministic_for_a_seed() -> None:
    profile = AttackProfile.parse(4, "3+", "3/4", "Ceaseless, Balanced")
    a = sample_shoot(profile, Target(3, 12), 1000, np.random.default_rng(5)).damage
    b = sample_shoot(profile, Target(3, 12), 1000, np.random.default_rng(5)).damage
    assert np.array_equal(a, b)


def test_sampled_attack_dice_never_exceed_attacks() -> None:
    profile = AttackProfile.parse(6, "2+", "3/4", "Accurate 2, Punishing, Rending, Relentless")
    normals, crits = sample_attack_dice(profile, 5000, np.random.default_rng(3))
    assert (normals >= 0).all() and (crits >= 0).all()
    assert (normals + crits <= 6).all()


def test_negative_sample_count_is_rejected() -> None:
    with pytest.raises(ProfileError, match="whole number >= 0"):
        sample_shoot(
            AttackProfile.parse(4, "3+", "3/4"), Target(3, 12), -1, np.random.default_rng(0)
        )
