"""KT21 dice rules one by one (``rules/KT21.md`` 10, 11, 12), properties and sampling; each
expected value is derived by hand in the test's docstring."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from engine.dice.kt21 import (
    Kt21Attack,
    Kt21Defender,
    Kt21Fighter,
    best_save,
    defence_choice,
    kt21_fight,
    kt21_roll,
    kt21_shoot,
)
from engine.dice.kt21_fight import Kt21Resolver
from engine.dice.kt21_sample import sample_kt21_fight, sample_kt21_shoot
from engine.errors import ProfileError


def _hit_p(profile: Kt21Attack) -> Fraction:
    roll = kt21_roll(profile)
    return Fraction(sum(w for n, c, _, w in roll.outcomes if n + c), roll.total)


def test_ceaseless_rerolls_every_1() -> None:
    """KT21 Ceaseless re-rolls results of 1: one die at 4+ hits on 4-6 (1/2) or on a 1
    re-rolled into a hit (1/6 x 1/2): 7/12. A 2 or 3 is not re-rolled."""
    assert _hit_p(Kt21Attack(1, 4, 1, 1, "Ceaseless")) == Fraction(7, 12)


def test_balanced_rerolls_one_failed_die() -> None:
    """Balanced: one die at 4+: 1/2 + 1/2 x 1/2 = 3/4; with two dice only one re-roll: P(no
    hit) = P(both fail) x P(re-roll fails) = 1/4 x 1/2 = 1/8."""
    assert _hit_p(Kt21Attack(1, 4, 1, 1, "Balanced")) == Fraction(3, 4)
    assert _hit_p(Kt21Attack(2, 4, 1, 1, "Balanced")) == 1 - Fraction(1, 8)


def test_relentless_rerolls_every_failed_die() -> None:
    """Relentless: each die at 5+ misses only when both rolls miss: (4/6)^2 per die, so
    P(no hit with 2 dice) = (4/9)^2 = 16/81."""
    assert _hit_p(Kt21Attack(2, 5, 1, 1, "Relentless")) == 1 - Fraction(16, 81)


def test_lethal_makes_hits_of_x_or_more_critical() -> None:
    """Lethal 5+: a 5 or 6 is a critical hit: 2/6 = 1/3 with one die."""
    res = kt21_shoot(Kt21Attack(1, 3, 1, 1, "Lethal 5+"), Kt21Defender(0, 3, 5))
    assert res.crit_probability == Fraction(1, 3)


def test_rending_turns_a_normal_hit_critical_with_a_critical_hit() -> None:
    """Rending, two dice at 2+: both critical when one is a 6 and the other a hit: P(one 6,
    one 2-5) = 2 x 1/6 x 4/6 = 8/36, plus two 6s 1/36: 9/36 = 1/4 for two crits."""
    roll = kt21_roll(Kt21Attack(2, 2, 1, 1, "Rending"))
    two = sum(w for _, c, _, w in roll.outcomes if c == 2)
    assert Fraction(two, roll.total) == Fraction(1, 4)


def test_mw_inflicts_x_per_critical_hit_before_saves() -> None:
    """MW2, one die at 2+, damage 0/0: only mortal wounds hurt: 2 on a 6 (1/6) whatever the
    saves (DF 3 at 2+)."""
    res = kt21_shoot(Kt21Attack(1, 2, 0, 0, "MW2"), Kt21Defender(3, 2, 5))
    assert res.damage.to_fractions() == {0: Fraction(5, 6), 2: Fraction(1, 6)}


def test_p_counts_as_ap_only_with_a_critical_hit_and_never_adds() -> None:
    """AP1 and P2: a normal hit faces DF 3 - 1 = 2 dice, a critical hit DF 3 - 2 = 1 die (the
    larger, not 3): with AP3 from adding there would be none."""
    profile = Kt21Attack(1, 2, 3, 4, "AP1, P2")
    defender = Kt21Defender(3, 4, 5)
    assert defence_choice(profile, defender, 1, 0).dice == 2
    assert defence_choice(profile, defender, 0, 1).dice == 1


def test_invulnerable_save_ignores_ap_and_is_chosen_when_better() -> None:
    """AP2 vs DF 3, SV 3+, invulnerable 5+: one normal hit, SV: 1 die fails 2/6; invulnerable:
    3 dice at 5+ all fail (4/6)^3 = 8/27 < 1/3, so the defender rolls the invulnerable save.
    Without AP, SV 3+ with 3 dice fails (2/6)^3 = 1/27: SV is kept."""
    defender = Kt21Defender(3, 3, 5, invulnerable=5)
    assert best_save(Kt21Attack(1, 2, 3, 4, "AP2"), defender, 1, 0) == "invulnerable"
    assert best_save(Kt21Attack(1, 2, 3, 4, ""), defender, 1, 0) == "save"


def test_cover_save_comes_out_of_the_dice_left_after_ap() -> None:
    """DF 1, AP1: no defence die is left, so no cover save: one die at 2+ (damage 3/3) deals 3
    whenever it hits (5/6). With AP0 the cover die blocks every normal hit (4/6) and a crit
    (1/6) only when the defender declines the cover save and rolls a 6 (1/6): P(0) = 1/6 +
    4/6 + 1/36 = 31/36."""
    hit = Kt21Attack(1, 2, 3, 3, "Lethal 6+")
    ap = Kt21Attack(1, 2, 3, 3, "AP1")
    defender = Kt21Defender(1, 6, 5, in_cover=True)
    res = kt21_shoot(ap, defender)
    assert res.damage.probability(3) == Fraction(5, 6)
    assert kt21_shoot(hit, defender).damage.probability(0) == Fraction(31, 36)


def test_cover_save_with_sv_6_is_a_normal_save_and_no_cover_denies_it() -> None:
    """DC 16.19: a cover save is a normal save even at SV 6+: DF 1 in cover vs one die at 2+
    (damage 2/9): a normal hit (2-5, 4/6) is always blocked by the cover save; a crit (6, 1/6)
    cannot be blocked by one normal save, so the defender declines and rolls: only a 6 saves:
    P(9) = 1/6 x 5/6 = 5/36, P(0) = 1/6 (miss) + 4/6 + 1/36. With No Cover the normal hit is
    blocked only by a 6: P(2) = 4/6 x 5/6 = 5/9."""
    defender = Kt21Defender(1, 6, 20, in_cover=True)
    res = kt21_shoot(Kt21Attack(1, 2, 2, 9, ""), defender)
    assert res.damage.to_fractions() == {0: Fraction(5, 6) + Fraction(1, 36), 9: Fraction(5, 36)}
    res = kt21_shoot(Kt21Attack(1, 2, 2, 9, "No Cover"), defender)
    assert res.damage.probability(2) == Fraction(5, 9)


def test_stun_and_hot_are_reported() -> None:
    """Stun (shooting): P(a crit retained) = 1/6 with one die; Hot: 3 mortal wounds to the
    shooter on a 1: P(3) = 1/6."""
    res = kt21_shoot(Kt21Attack(1, 3, 1, 1, "Stun, Hot"), Kt21Defender(3, 4, 5))
    assert res.stun_probability == Fraction(1, 6)
    assert res.hot is not None and res.hot.probability(3) == Fraction(1, 6)


def test_rules_outside_the_dice_are_reported_not_ignored() -> None:
    """Blast and a team rule do not change one attack's dice: they are listed."""
    res = kt21_shoot(Kt21Attack(1, 3, 1, 1, 'Blast 2", Foo*'), Kt21Defender(3, 4, 5))
    assert [line.split(":")[0] for line in res.not_modelled] == ['Blast 2"', "Foo*"]


def test_parry_discards_two() -> None:
    """DC 16.16: attacker (1 normal hit, damage 1, 10 wounds) vs defender (2 normal hits,
    damage 5, 10 wounds). Plain parry: parry one, take 5 (striking instead lets both land:
    10, incapacitated). Parry discards two: parry both, take nothing."""
    plain = Kt21Resolver(1, 1, 5, 5, stun_a=True)
    two = Kt21Resolver(1, 1, 5, 5, parry_two_a=True)
    assert plain.solve(1, 0, 2, 0, 10, 10, False, False, True) & 0xFFF == 5
    assert two.solve(1, 0, 2, 0, 10, 10, False, False, True) & 0xFFF == 0


def test_melee_stun_first_crit_strike_discards_only_a_normal_hit() -> None:
    """KT21 Stun in a fight: the first critical strike discards one normal hit of the
    opponent, never a critical one (KT24 Shock would). Attacker: 1 crit (damage 1, Stun);
    defender: 1 crit (damage 3); 10 wounds each. Striking leaves the defender's crit: value
    1 - 3 = -2; parrying crit with crit: 0. So the value is 0; if Stun discarded the crit,
    striking would be worth +1."""
    r = Kt21Resolver(1, 1, 3, 3, stun_a=True)
    packed = r.solve(0, 1, 0, 1, 10, 10, True, False, True)
    value = packed >> 24
    assert value == 0  # parry (0, 0) rather than strike then take 3 (1 - 3 = -2)


def test_combat_support_improves_ws() -> None:
    """Two supporters improve WS 5+ to 3+: one die hits 4/6."""
    f = Kt21Fighter(Kt21Attack(1, 5, 1, 1), 5, support=2)
    assert f.effective.hit == 3


@pytest.mark.parametrize("ap", [0, 1, 2])
def test_more_attack_dice_never_lower_expected_damage(ap: int) -> None:
    """One more attack die can only add hits, never lower the expected damage."""
    defender = Kt21Defender(3, 3, 12, invulnerable=5, in_cover=True)
    means = [
        kt21_shoot(Kt21Attack(a, 4, 3, 4, f"AP{ap}" if ap else ""), defender).expected_damage
        for a in range(6)
    ]
    assert means == sorted(means)


def test_ap_never_helps_the_defender() -> None:
    """AP removes defence dice: fewer saves, never less damage."""
    defender = Kt21Defender(3, 4, 12, in_cover=True)
    means = [
        kt21_shoot(Kt21Attack(4, 3, 3, 4, f"AP{ap}" if ap else ""), defender).expected_damage
        for ap in range(4)
    ]
    assert means == sorted(means)


def test_invulnerable_save_and_cover_never_hurt_the_defender() -> None:
    """Options the defender may decline can only lower its expected damage."""
    p = Kt21Attack(4, 3, 3, 4, "AP1, Lethal 5+")
    base = kt21_shoot(p, Kt21Defender(3, 3, 12)).expected_damage
    assert kt21_shoot(p, Kt21Defender(3, 3, 12, invulnerable=4)).expected_damage <= base
    assert kt21_shoot(p, Kt21Defender(3, 3, 12, in_cover=True)).expected_damage <= base


def test_sampling_matches_the_exact_means() -> None:
    """Sampling uses the same rules: 20,000 attacks land within 5 standard errors."""
    rng = np.random.default_rng(7)
    p = Kt21Attack(4, 3, 3, 4, "AP1, Balanced, Ceaseless, Rending, MW1")
    d = Kt21Defender(3, 3, 12, invulnerable=4, in_cover=True)
    exact = float(kt21_shoot(p, d).expected_damage)
    sampled = sample_kt21_shoot(p, d, 20_000, rng).damage
    assert abs(sampled.mean() - exact) < 5 * sampled.std() / np.sqrt(20_000)
    a = Kt21Fighter(Kt21Attack(4, 3, 3, 4, "Stun"), 10)
    b = Kt21Fighter(Kt21Attack(3, 4, 3, 4, "Brutal"), 9, parry_two=True)
    exact_f = float(kt21_fight(a, b).defender.expected_damage_taken)
    got = sample_kt21_fight(a, b, 20_000, rng).defender_damage
    assert abs(got.mean() - exact_f) < 5 * got.std() / np.sqrt(20_000)


def test_bad_inputs_name_the_field() -> None:
    """Impossible values are refused with the field named."""
    with pytest.raises(ProfileError, match="DF"):
        Kt21Defender(7, 3, 5)
    with pytest.raises(ProfileError, match="invulnerable"):
        Kt21Defender(3, 3, 5, invulnerable=1)
