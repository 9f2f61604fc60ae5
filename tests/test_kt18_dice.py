"""The KT18 dice core (``engine.dice.kt18``): named rules of ``docs/rules/KT18.md`` 5.7-5.10,
6.2-6.12, 7.5, 7.6, each checked against arithmetic done by hand in its docstring."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from engine.dice.kt18 import (
    Kt18Attack,
    Kt18Target,
    attack_count_pmf,
    injury_out_of_action_probability,
    kt18_attack,
    kt18_attack_pmf,
    unsaved_probability,
)
from engine.dice.kt18_sample import sample_kt18_attack, sample_kt18_attacks
from engine.dice.kt18_values import parse_random_value
from engine.errors import ProfileError

F = Fraction


def attack(shots: str = "1", bs: int = 3, s: int = 4, ap: int = 0, d: str = "1", **kw: object):
    """A KT18 attack from printed values."""
    return Kt18Attack(
        parse_random_value(shots),
        bs,
        s,
        ap,
        parse_random_value(d),
        **kw,  # type: ignore[arg-type]
    )


def bolter_vs_marine(**kw: object) -> Kt18Target:
    """T4, Sv 3+ (the target of most examples below)."""
    return Kt18Target(4, 3, **kw)  # type: ignore[arg-type]


def test_kt18_unsaved_chance_is_hit_times_wound_times_failed_save() -> None:
    """6.2, 6.5, 6.6: BS 3+ hits on 3-6 (4/6), S4 vs T4 wounds on 4+ (3/6), Sv 3+ with AP 0
    fails on 1-2 (2/6): 4/6 x 3/6 x 2/6 = 1/9."""
    assert unsaved_probability(attack(), bolter_vs_marine()) == F(1, 9)


def test_kt18_one_wound_model_injury_roll_is_half_out_of_action() -> None:
    """6.8, 6.9: an unsaved attack (1/9) takes a 1-wound model to 0; the Injury roll (one D6,
    D 1) is out of action on 4+ (1/2), a flesh wound on 1-3 (1/2): 1/18 each, unharmed
    8/9."""
    pmf = kt18_attack_pmf(attack(), bolter_vs_marine())
    assert pmf == {
        ("unharmed", 1): F(8, 9),
        ("flesh_wound", 1): F(1, 18),
        ("out_of_action", 0): F(1, 18),
    }


@pytest.mark.parametrize(
    ("s", "t", "wound"),
    [
        (8, 4, F(5, 6)),
        (5, 4, F(4, 6)),
        (4, 4, F(3, 6)),
        (3, 4, F(2, 6)),
        (2, 4, F(1, 6)),
        (1, 9, F(1, 6)),
    ],
)
def test_kt18_wound_table(s: int, t: int, wound: Fraction) -> None:
    """6.5: S >= 2T wounds on 2+ (5/6), S > T on 3+ (4/6), S = T on 4+ (3/6), S < T on 5+
    (2/6), 2S <= T on 6+ (1/6; an unmodified 6 always wounds). BS 2+ hits 5/6 and Sv "-"
    never saves, so P(unsaved) = 5/6 x wound."""
    target = Kt18Target(t, 0)
    assert unsaved_probability(attack(bs=2, s=s), target) == F(5, 6) * wound


def test_kt18_ap_worsens_the_armour_save_but_not_the_invulnerable() -> None:
    """6.6, 6.7: Sv 3+ with AP -2 saves on 5+ (fails 4/6); with a 4+ invulnerable save the
    model uses it instead (fails 3/6). BS 2+ (5/6), S8 vs T4 (5/6)."""
    sharp = attack(bs=2, s=8, ap=-2)
    assert unsaved_probability(sharp, Kt18Target(4, 3)) == F(5, 6) * F(5, 6) * F(4, 6)
    assert unsaved_probability(sharp, Kt18Target(4, 3, invulnerable=4)) == F(25, 36) * F(3, 6)


def test_kt18_save_of_one_always_fails_even_at_2_plus() -> None:
    """6.6: an unmodified 1 always fails: Sv 2+ AP 0 fails 1/6, never 0; with Sv 2+ AP -6
    every face fails (face - 6 is at most 0, below 2)."""
    assert unsaved_probability(attack(bs=2, s=8), Kt18Target(4, 2)) == F(25, 36) * F(1, 6)
    assert unsaved_probability(attack(bs=2, s=8, ap=-6), Kt18Target(4, 2)) == F(25, 36)


def test_kt18_unmodified_one_misses_and_six_hits_whatever_the_modifier() -> None:
    """6.2: BS 3+ with +2 hits on 2-6 (the 1 still misses): 5/6; with -3 only the
    unmodified 6 hits: 1/6. S8 vs T4 (5/6), Sv "-"."""
    target = Kt18Target(4, 0)
    assert unsaved_probability(attack(s=8, hit_modifier=2), target) == F(5, 6) * F(5, 6)
    assert unsaved_probability(attack(s=8, hit_modifier=-3), target) == F(1, 6) * F(5, 6)


def test_kt18_overwatch_hits_only_on_six() -> None:
    """3.11: Overwatch hits only on a 6 whatever BS 2+ and a +1: 1/6 x 5/6 (S8 vs T4)."""
    target = Kt18Target(4, 0)
    assert unsaved_probability(attack(bs=2, s=8, hit_modifier=1, overwatch=True), target) == F(
        5, 36
    )


def test_kt18_ws_dash_never_hits() -> None:
    """1.9: a skill of "-" (0) never hits: the model is unharmed with probability 1."""
    assert kt18_attack_pmf(attack(bs=0, shots="3"), bolter_vs_marine()) == {("unharmed", 1): 1}


def test_kt18_damage_two_rolls_two_injury_dice() -> None:
    """6.10: an attack of D2 taking the last wound rolls 2 Injury dice, the highest counts: a
    flesh wound only if both show 1-3: (1/2)^2 = 1/4, out of action 3/4."""
    assert injury_out_of_action_probability(2, bolter_vs_marine()) == F(3, 4)
    pmf = kt18_attack_pmf(attack(d="2"), bolter_vs_marine())
    assert pmf[("out_of_action", 0)] == F(1, 9) * F(3, 4)


def test_kt18_random_damage_uses_the_value_rolled() -> None:
    """6.8, 6.10: D3 against 2 wounds, one attack (1/9 unsaved): D 1 (1/3) leaves 1 wound;
    D 2 (1/3) rolls 2 Injury dice (out 3/4); D 3 (1/3) rolls 3 (out 1 - 1/8 = 7/8)."""
    pmf = kt18_attack_pmf(attack(d="D3"), bolter_vs_marine(wounds=2))
    assert pmf[("wounded", 1)] == F(1, 27)
    assert pmf[("out_of_action", 0)] == F(1, 27) * (F(3, 4) + F(7, 8))
    assert pmf[("flesh_wound", 1)] == F(1, 27) * (F(1, 4) + F(1, 8))


def test_kt18_each_flesh_wound_adds_one_to_the_injury_roll() -> None:
    """6.9, 6.11: with one flesh wound the Injury roll is out of action on 3+ (4/6); with
    two, on 2+ (5/6)."""
    assert injury_out_of_action_probability(1, bolter_vs_marine(flesh_wounds=1)) == F(2, 3)
    assert injury_out_of_action_probability(1, bolter_vs_marine(flesh_wounds=2)) == F(5, 6)


def test_kt18_cover_takes_one_from_the_injury_roll() -> None:
    """6.9: obscured and within 1" of what lies between: -1, so out of action on 5+ (1/3);
    with one flesh wound as well the two cancel (4+, 1/2)."""
    assert injury_out_of_action_probability(1, bolter_vs_marine(cover_modifier=-1)) == F(1, 3)
    both = bolter_vs_marine(cover_modifier=-1, flesh_wounds=1)
    assert injury_out_of_action_probability(1, both) == F(1, 2)


def test_kt18_flesh_wound_with_every_box_marked_is_out_of_action() -> None:
    """6.11 reading (a): with all 3 boxes marked a further flesh wound is out of action, so
    every model taken to 0 wounds is out (1/9); with 2 of 3 marked the 3rd box is marked
    (flesh wound possible, on a natural 1 only: +2 makes 2-6 out)."""
    full = kt18_attack_pmf(attack(), bolter_vs_marine(flesh_wounds=3))
    assert full == {("unharmed", 1): F(8, 9), ("out_of_action", 0): F(1, 9)}
    two = kt18_attack_pmf(attack(), bolter_vs_marine(flesh_wounds=2))
    assert two[("flesh_wound", 1)] == F(1, 9) * F(1, 6)


def test_kt18_attacks_left_at_zero_wounds_are_discarded() -> None:
    """6.8: two attacks against 1 wound: the model reaches 0 when either is unsaved, 1 -
    (8/9)^2 = 17/81, and one Injury roll is made (the second attack is discarded), so out of
    action is 17/162 (two Injury rolls would give more)."""
    pmf = kt18_attack_pmf(attack(shots="2"), bolter_vs_marine())
    assert pmf[("out_of_action", 0)] == F(17, 162)
    assert pmf[("flesh_wound", 1)] == F(17, 162)


def test_kt18_wounds_left_after_several_attacks() -> None:
    """6.8: two D1 attacks against 2 wounds: both unsaved (1/81) reach 0; exactly one
    (2 x 1/9 x 8/9 = 16/81) leaves 1 wound; none (64/81) unharmed. Wounds lost: 0 64/81,
    1 16/81, 2 1/81."""
    result = kt18_attack(attack(shots="2"), bolter_vs_marine(wounds=2))
    assert result.outcomes[("wounded", 1)] == F(16, 81)
    assert result.reduced_to_zero == F(1, 81)
    assert result.wounds_lost() == {0: F(64, 81), 1: F(16, 81), 2: F(1, 81)}
    assert result.expected_wounds_lost == F(16 + 2, 81)


def test_kt18_random_shots_are_rolled_once() -> None:
    """5.7: D3 shots: 1, 2 or 3 attacks, 1/3 each. Against 1 wound the model reaches 0 with
    1 - (8/9)^n: (81 + 153 + 217)/729 / 3 = 451/2187, half of it out of action."""
    result = kt18_attack(attack(shots="D3"), bolter_vs_marine())
    assert result.reduced_to_zero == F(451, 2187)
    assert result.out_of_action == F(451, 4374)


def test_kt18_rapid_fire_doubles_the_number_rolled() -> None:
    """5.10: Rapid Fire 1 at half range makes 2 attacks; D3 doubled makes 2, 4 or 6."""
    assert attack_count_pmf(attack(doubled=True)) == {2: 1}
    assert attack_count_pmf(attack(shots="D3", doubled=True)) == {
        2: F(1, 3),
        4: F(1, 3),
        6: F(1, 3),
    }
    doubled = kt18_attack(attack(doubled=True), bolter_vs_marine())
    assert doubled.reduced_to_zero == F(17, 81)


@pytest.mark.parametrize(
    ("make", "word"),
    [
        (lambda: attack(bs=7), "BS/WS"),
        (lambda: attack(bs=1), "BS/WS"),
        (lambda: attack(ap=1), "AP"),
        (lambda: attack(s=0), "S"),
        (lambda: attack(d="0"), "D must be at least 1"),
        (lambda: attack(shots="6D6+30", doubled=True), "number of attacks"),
        (lambda: Kt18Target(0, 3), "T"),
        (lambda: Kt18Target(4, 1), "Sv"),
        (lambda: Kt18Target(4, 3, invulnerable=7), "invulnerable"),
        (lambda: Kt18Target(4, 3, wounds=0), "wounds left"),
        (lambda: Kt18Target(4, 3, flesh_wounds=4), "flesh wounds"),
        (lambda: Kt18Target(4, 3, cover_modifier=-2), "cover"),
        (lambda: Kt18Attack("D6", 3, 4), "RandomValue"),  # type: ignore[arg-type]
        (lambda: attack(overwatch="yes"), "overwatch"),
    ],
)
def test_kt18_bad_values_are_named(make: object, word: str) -> None:
    """Bad input is refused with a ProfileError naming the field (house rule)."""
    with pytest.raises(ProfileError, match=word):
        make()  # type: ignore[operator]


def test_kt18_sampler_gives_outcomes_of_the_rules() -> None:
    """Every sampled outcome is one the exact distribution gives a chance (the same rules),
    with either kind of generator, and the counts add up to the samples asked for."""
    a, t = attack(s=8, hit_modifier=5, shots="2"), Kt18Target(1, 0, wounds=2)
    possible = set(kt18_attack_pmf(a, t))
    for rng in (random.Random(3), np.random.default_rng(3)):
        counts = sample_kt18_attacks(a, t, 200, rng)
        assert set(counts) <= possible and sum(counts.values()) == 200
    assert sample_kt18_attack(a, t, random.Random(1)) in possible


def test_kt18_sampler_refuses_a_bad_generator() -> None:
    """A generator that is neither numpy's nor random.Random is named in the error."""
    with pytest.raises(ProfileError, match="rng"):
        sample_kt18_attack(attack(), bolter_vs_marine(), 42)  # type: ignore[arg-type]
    with pytest.raises(ProfileError, match="samples"):
        sample_kt18_attacks(attack(), bolter_vs_marine(), -1, random.Random(0))
