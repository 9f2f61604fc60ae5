"""The fast exact shooting kernel (``engine.dice.kernel``) against the reference computation.

The kernel must give the very integer weights the reference (``shoot_reference``,
``attack_roll_reference``, kept from before the kernel) gives, over the same totals, so every
caller sees the same numbers to the last bit; and its constant tables must be exactly what
``engine.dice.tablegen`` builds from the reference allocation of saves. The reference itself
is checked against the independent brute force in ``test_exact_vs_bruteforce.py``.
"""

from __future__ import annotations

import importlib
import itertools
import random
from pathlib import Path

import pytest

from engine.dice import AttackProfile, Target, attack_roll, clear_caches, shoot
from engine.dice import kernel as kernel_module
from engine.dice.attack import _max_multiplicity, attack_roll_reference
from engine.dice.fight import Resolver
from engine.dice.kernel import CODES, CONFIGS, OFFSETS, SUMS, WEIGHTS, damage_class
from engine.dice.tablegen import DAMAGE_CLASSES, kernel_tables, module_text

shoot_module = importlib.import_module("engine.dice.shoot")

RULES = [
    "Accurate 1",
    "Accurate 2",
    "Balanced",
    "Brutal",
    "Ceaseless",
    "Devastating 2",
    '2" Devastating 1',
    "Hot",
    "Lethal 5+",
    "Lethal 4+",
    "Lethal 2+",
    "Piercing 1",
    "Piercing 2",
    "Piercing 3",
    "Piercing Crits 1",
    "Piercing Crits 2",
    "Punishing",
    "Relentless",
    "Rending",
    "Saturate",
    "Severe",
    "Stun",
]

TARGETS = [
    {},
    {"in_cover": True},
    {"obscured": True},
    {"in_cover": True, "obscured": True},
    {"in_cover": True, "cover_choice": "none"},
    {"in_cover": True, "cover_choice": "normal"},
    {"improved_cover": True},
    {"improved_cover": True, "cover_choice": "critical"},
    {"improved_cover": True, "cover_choice": "two_normals"},
    {"improved_cover": True, "obscured": True},
]


def random_cases(seed: int, count: int, max_attacks: int) -> list[tuple[AttackProfile, Target]]:
    rnd = random.Random(seed)
    cases = []
    for _ in range(count):
        rules = ", ".join(rnd.sample(RULES, rnd.randint(0, 4)))
        profile = AttackProfile.parse(
            rnd.randint(0, max_attacks),
            f"{rnd.randint(2, 6)}+",
            f"{rnd.randint(0, 6)}/{rnd.randint(0, 9)}",
            rules,
        )
        target = Target(rnd.randint(2, 6), rnd.randint(1, 20), **rnd.choice(TARGETS))
        cases.append((profile, target))
    return cases


def test_shoot_equals_the_reference_weight_for_weight() -> None:
    """2,000 random profiles (up to 8 dice, up to 4 weapon rules, every cover state, damages
    from 0/0 to 6/9): every pmf (damage, retained, unblocked, Hot, area Devastating) has the
    reference's weights and total, and the Stun and Piercing Crits probabilities are equal,
    so the results are the same numbers, not merely close ones."""
    for profile, target in random_cases(29, 2000, 8):
        assert shoot(profile, target, cache=False) == shoot_module.shoot_reference(
            profile, target
        ), (profile, target)


@pytest.mark.parametrize("attacks", [12, 20, 30])
def test_shoot_equals_the_reference_with_many_dice(attacks: int) -> None:
    """With many dice the weights outgrow machine integers (6 ** 63 for 30 dice) and the
    normals and crits exceed the 3 the kernel tables are built for: still equal."""
    target = Target(3, 20, in_cover=True)
    for rules in ("", "Balanced, Lethal 5+", "Ceaseless, Rending", "Devastating 1, Piercing 1"):
        profile = AttackProfile.parse(attacks, "4+", "3/4", rules)
        assert shoot(profile, target, cache=False) == shoot_module.shoot_reference(
            profile, target
        ), rules


def test_attack_roll_equals_the_reference() -> None:
    """The retained attack dice of 1,500 random profiles, obscured or not, equal the
    reference's outcomes and total (the fights read them through ``attack_roll``)."""
    for profile, _ in random_cases(7, 1500, 9):
        for obscured in (False, True):
            got = attack_roll(profile, obscured=obscured)
            want = attack_roll_reference(profile, obscured=obscured)
            assert (got.outcomes, got.total) == (want.outcomes, want.total), profile


def test_ceaseless_multiplicities_equal_the_reference() -> None:
    """The count of failing-face sequences by their most common value's multiplicity (which
    Ceaseless re-rolls) equals the reference's enumeration of compositions, for 0 to 10 dice
    and 1 to 5 failing faces."""
    for faces in range(1, 6):
        for dice in range(11):
            assert kernel_module._max_multiplicity(dice, faces) == dict(
                _max_multiplicity(dice, faces)
            ), (dice, faces)


def test_stored_tables_are_what_the_generator_builds() -> None:
    """``engine/dice/kernel_data.py`` is exactly the generator's output (so it cannot drift
    from the reference allocation), and the unpacked tables equal the generator's."""
    stored = Path(kernel_module.__file__).with_name("kernel_data.py").read_text()
    assert stored == module_text()
    codes, weights, sizes, sums = kernel_tables()
    assert (codes, weights, sums) == (CODES, WEIGHTS, SUMS)
    assert sizes == [b - a for a, b in itertools.pairwise(OFFSETS)]


def test_every_kernel_is_a_distribution_over_216() -> None:
    """Each defence kernel's weights sum to 6 ** 3 (the defence dice's common total), its
    blocked dice never exceed the attacker's (at most 3 normals and 3 crits, at most as many
    as retained) and its sums are the weighted blocked normals and crits."""
    kernels = len(OFFSETS) - 1
    assert kernels == len(DAMAGE_CLASSES) * 5 * len(CONFIGS) * 16
    for k in range(kernels):
        entries = range(OFFSETS[k], OFFSETS[k + 1])
        assert sum(WEIGHTS[j] for j in entries) == 216
        n, c = (k // 4) % 4, k % 4
        for j in entries:
            assert CODES[j] >> 2 <= n and CODES[j] & 3 <= c
        assert SUMS[2 * k] == sum((CODES[j] >> 2) * WEIGHTS[j] for j in entries)
        assert SUMS[2 * k + 1] == sum((CODES[j] & 3) * WEIGHTS[j] for j in entries)


def test_damage_class_fixes_the_allocation() -> None:
    """The kernels store one allocation per damage class: for every damage up to 12/15 the
    reference allocation (``unblocked``) of up to 6 normals and 6 crits against up to 3
    saves blocks the same dice as for the class's representative damage (with at most 3
    saves, more than 3 retained normals or crits block as 3 do)."""
    unblocked = shoot_module.unblocked
    for nd in range(13):
        for cd in range(16):
            rep_nd, rep_cd = DAMAGE_CLASSES[damage_class(nd, cd)]
            for brutal in (False, True):
                for n in range(7):
                    for c in range(7):
                        for sn in range(4):
                            for sc in range(4 - sn):
                                un, uc = unblocked(n, c, sn, sc, nd, cd, brutal)
                                n3, c3 = min(n, 3), min(c, 3)
                                rn, rc = unblocked(n3, c3, sn, sc, rep_nd, rep_cd, brutal)
                                assert (n - un, c - uc) == (n3 - rn, c3 - rc), (nd, cd, n, c)


def test_clear_caches_leaves_results_unchanged() -> None:
    """The benchmarks' cold runs empty every memo first: a result computed cold equals the
    cached one."""
    profile = AttackProfile.parse(4, "3+", "3/4", "Ceaseless, Balanced, Rending")
    target = Target(3, 12, in_cover=True)
    warm = shoot(profile, target)
    clear_caches()
    assert shoot(profile, target, cache=False) == warm


def test_optimal_fight_solver_equals_the_generic_solver() -> None:
    """The fight resolver's written-out solver for two ``optimal`` sides gives the packed
    value of the generic move loop (the reference) for 3,000 random positions over random
    damages, Brutal and Shock, and fills its memo with the very same positions and values
    (so the limit on positions is reached at the same point)."""
    rnd = random.Random(5)
    for _ in range(150):
        damages = [rnd.randint(0, 5) for _ in range(4)]
        flags = {
            name: rnd.random() < 0.3 for name in ("brutal_a", "brutal_b", "shock_a", "shock_b")
        }
        fast = Resolver(*damages, **flags)
        reference = Resolver(*damages, **flags)
        for _ in range(20):
            counts = [rnd.randint(0, 5) for _ in range(4)]
            wounds = [rnd.randint(1, 20) for _ in range(2)]
            shocks_turn = [rnd.random() < 0.5 for _ in range(3)]
            position = (*counts, *wounds, *shocks_turn)
            assert fast.solve(*position) == reference._solve_generic(*position), position
        assert fast.memo == reference.memo
