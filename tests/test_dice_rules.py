"""Dice rules of KT24 sections 2.4, 4.5, 5.1, 5.2 and 6, each checked on a tiny case.

Every expected value is derived by hand from the rules text (``rules/KT24.md``,
``rules/EDGE_CASES.md``), never from the engine; the arithmetic is in the comments.

Deterministic attack dice are built with Accurate: ``Accurate k`` on ``k`` attacks retains
exactly ``k`` normal successes without rolling; adding Severe turns one of them into a
critical success (no crit was retained otherwise). Deterministic defence dice come from
Piercing (fewer dice) plus cover saves (dice retained without rolling).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from engine.dice import (
    AttackProfile,
    Fighter,
    Target,
    attack_roll,
    fight,
    hot_damage,
    parse_damage,
    parse_threshold,
    shoot,
)
from engine.errors import ProfileError, WeaponRuleError

# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def prof(attacks: int, hit: str = "4+", damage: str = "3/4", rules: str = "") -> AttackProfile:
    return AttackProfile.parse(attacks, hit, damage, rules)


def with_rules(*parts: str) -> str:
    return ", ".join(p for p in parts if p)


def normals(k: int, damage: str = "3/4", rules: str = "") -> AttackProfile:
    """Exactly ``k`` normal successes, with certainty (Accurate k on k attacks)."""
    return prof(k, "4+", damage, with_rules(f"Accurate {k}", rules))


def crit_and_normals(k: int, damage: str = "3/4", rules: str = "") -> AttackProfile:
    """Exactly one critical and ``k`` normal successes, with certainty.

    Accurate k+1 on k+1 attacks retains k+1 normals and no crit, so Severe turns one normal
    into a crit.
    """
    return prof(k + 1, "4+", damage, with_rules(f"Accurate {k + 1}", "Severe", rules))


def target(save: int = 4, wounds: int = 20, **kw: object) -> Target:
    return Target(save=save, wounds=wounds, **kw)  # type: ignore[arg-type]


def retained(profile: AttackProfile, *, obscured: bool = False) -> dict[tuple[int, int], F]:
    """P((normals, crits) retained), exact."""
    roll = attack_roll(profile, obscured=obscured)
    out: dict[tuple[int, int], F] = {}
    for n, c, w in roll.outcomes:
        out[(n, c)] = out.get((n, c), F(0)) + F(w, roll.total)
    assert sum(out.values()) == 1
    return out


def damage(profile: AttackProfile, tgt: Target) -> dict[int, F]:
    """P(damage) of one shooting sequence, exact."""
    return shoot(profile, tgt).damage.to_fractions()


def joint(a: Fighter, b: Fighter, **kw: object) -> dict[tuple[int, int], F]:
    """P((damage taken by attacker, damage taken by defender)) of a fight, exact."""
    return fight(a, b, **kw).joint.to_fractions()  # type: ignore[arg-type]


CERTAIN = F(1)


# --------------------------------------------------------------------------------------------
# Section 2.4: dice
# --------------------------------------------------------------------------------------------


def test_one_always_fails_and_six_always_crits_at_hit_2() -> None:
    # Hit 2+: face 1 fails (1/6), faces 2-5 are normal (4/6), face 6 is a crit (1/6).
    assert retained(prof(1, "2+")) == {(0, 0): F(1, 6), (1, 0): F(4, 6), (0, 1): F(1, 6)}


def test_six_is_a_crit_at_hit_6() -> None:
    # Hit 6+: only a 6 succeeds and it is a crit: {fail 5/6, crit 1/6}, never a normal.
    assert retained(prof(1, "6+")) == {(0, 0): F(5, 6), (0, 1): F(1, 6)}


def test_hit_threshold_success_on_hit_or_more() -> None:
    # Hit 3+: faces 1,2 fail (2/6); 3,4,5 normal (3/6); 6 crit (1/6).
    assert retained(prof(1, "3+")) == {(0, 0): F(1, 3), (1, 0): F(1, 2), (0, 1): F(1, 6)}


def test_two_dice_are_independent() -> None:
    # Hit 4+, 2 dice: each die fail 1/2, normal 1/3, crit 1/6.
    # (0,0) = 1/4; (1,0) = 2*1/2*1/3 = 1/3; (0,1) = 2*1/2*1/6 = 1/6;
    # (2,0) = 1/9; (1,1) = 2*1/3*1/6 = 1/9; (0,2) = 1/36.  Sum = 36/36.
    assert retained(prof(2, "4+")) == {
        (0, 0): F(1, 4),
        (1, 0): F(1, 3),
        (0, 1): F(1, 6),
        (2, 0): F(1, 9),
        (1, 1): F(1, 9),
        (0, 2): F(1, 36),
    }


def test_defence_one_always_fails_at_save_2() -> None:
    # 1 normal (dmg 3) vs Piercing 2 -> one defence die at Save 2+: only a 1 fails to block.
    # P(3 damage) = 1/6.
    assert damage(normals(1, rules="Piercing 2"), target(save=2)) == {0: F(5, 6), 3: F(1, 6)}


def test_zero_attacks_do_nothing() -> None:
    assert retained(prof(0)) == {(0, 0): CERTAIN}
    assert damage(prof(0), target()) == {0: CERTAIN}


# --------------------------------------------------------------------------------------------
# Section 4.5: cover and obscured
# --------------------------------------------------------------------------------------------


def test_cover_save_is_a_normal_save_unrolled() -> None:
    # 1 normal vs Piercing 2 (one defence die) in cover: that die is the cover save, a
    # normal success without rolling, which blocks the normal: 0 damage for sure.
    assert damage(normals(1, rules="Piercing 2"), target(save=6, in_cover=True)) == {0: CERTAIN}


def test_cover_save_plus_rolled_dice() -> None:
    # 2 normals (dmg 3) vs 3 dice in cover, Save 6+: the cover save blocks one normal; the
    # other normal is blocked if either of the 2 rolled dice is a 6 (normal or crit save).
    # P(unblocked) = (5/6)^2 = 25/36 -> P(3) = 25/36.
    assert damage(normals(2), target(save=6, in_cover=True)) == {0: F(11, 36), 3: F(25, 36)}


def test_no_cover_rolls_all_three_dice() -> None:
    # 1 normal vs 3 dice at Save 6+: P(no 6 among 3) = (5/6)^3 = 125/216.
    assert damage(normals(1), target(save=6)) == {0: F(91, 216), 3: F(125, 216)}


def test_cover_save_with_saturate_is_ignored() -> None:
    # Saturate: no cover save; the single defence die (Piercing 2) is rolled at 4+:
    # P(fail) = 3/6 = 1/2 -> P(3 damage) = 1/2.
    prof_ = normals(1, rules="Piercing 2, Saturate")
    assert damage(prof_, target(save=4, in_cover=True)) == {0: F(1, 2), 3: F(1, 2)}
    # Same as not in cover at all.
    assert damage(prof_, target(save=4)) == {0: F(1, 2), 3: F(1, 2)}


@pytest.mark.parametrize("rule", ["Seek", "Seek Light"])
def test_seek_keeps_cover_save(rule: str) -> None:
    # EDGE_CASES 11: Seek only affects target selection, the cover save stays: 0 damage.
    prof_ = normals(1, rules=f"Piercing 2, {rule}")
    assert damage(prof_, target(save=6, in_cover=True)) == {0: CERTAIN}


def test_obscured_discards_one_success() -> None:
    # 2 normals vs obscured target, no defence dice (Piercing 3): one success discarded,
    # 1 normal deals 3.
    assert retained(normals(2), obscured=True) == {(1, 0): CERTAIN}
    assert damage(normals(2, rules="Piercing 3"), target(obscured=True)) == {3: CERTAIN}


def test_obscured_discard_may_be_an_accurate_die() -> None:
    # EDGE_CASES 3: Accurate dice count as normals and the discard can be one of them.
    # 1 attack with Accurate 1 vs obscured: the only success is discarded -> nothing left.
    assert retained(normals(1), obscured=True) == {(0, 0): CERTAIN}


def test_obscured_crits_become_normals() -> None:
    # 2 attacks, Accurate 1, Hit 6+: the rolled die is a 6 (1/6) or fails (5/6).
    # Not obscured: {(1,0): 5/6, (1,1): 1/6}.
    # Obscured: the 6 is retained as a normal, one success discarded:
    #   6 rolled -> 2 normals - 1 = (1,0) w.p. 1/6;  fail -> 1 normal - 1 = (0,0) w.p. 5/6.
    p = prof(2, "6+", rules="Accurate 1")
    assert retained(p) == {(1, 0): F(5, 6), (1, 1): F(1, 6)}
    assert retained(p, obscured=True) == {(0, 0): F(5, 6), (1, 0): F(1, 6)}


def test_obscured_no_crit_effects() -> None:
    # EDGE_CASES 3: when obscured Lethal, Rending, Severe, Punishing, Devastating, Piercing
    # Crits and Stun all do nothing.
    # 2 attacks, Accurate 1, Hit 2+ with Lethal 2+: the rolled die succeeds (as a crit) 5/6.
    # Obscured: every success is a normal, one discarded:
    #   success (5/6): 2 normals -> 1 normal;  fail (1/6): 1 normal -> 0.
    # No crit: no Devastating, no Piercing Crits (3 defence dice at 4+), no Stun.
    # P(the normal is unblocked) = (1/2)^3 = 1/8 -> P(3) = 5/6 * 1/8 = 5/48.
    rules = (
        "Accurate 1, Lethal 2+, Rending, Punishing, Severe, Devastating 3, Piercing Crits 3, Stun"
    )
    p = prof(2, "2+", "3/4", rules)
    assert retained(p, obscured=True) == {(0, 0): F(1, 6), (1, 0): F(5, 6)}
    result = shoot(p, target(save=4, obscured=True))
    assert result.damage.to_fractions() == {0: F(43, 48), 3: F(5, 48)}
    assert result.stun_probability == 0
    assert result.piercing_crits_probability == 0
    assert result.crit_probability == 0


def test_obscured_severe_does_nothing() -> None:
    # Accurate 2 + Severe on 2 attacks would give (1,1); obscured: 2 normals - 1 = (1,0).
    assert retained(crit_and_normals(1), obscured=True) == {(1, 0): CERTAIN}


def test_obscured_devastating_does_nothing() -> None:
    # Not obscured: 1 crit with Devastating 3, Piercing 3: 3 (Devastating) + 4 (crit) = 7.
    # Obscured: the only success is discarded: 0.
    p = crit_and_normals(0, rules="Devastating 3, Piercing 3")
    assert damage(p, target()) == {7: CERTAIN}
    assert damage(p, target(obscured=True)) == {0: CERTAIN}
    # With a second success the survivor is a normal: 3 damage, no Devastating.
    p = crit_and_normals(1, rules="Devastating 3, Piercing 3")
    assert damage(p, target()) == {3 + 3 + 4: CERTAIN}
    assert damage(p, target(obscured=True)) == {3: CERTAIN}


def test_cover_and_obscured_both_apply() -> None:
    # Section 4.5 / EDGE_CASES 2 (different features): 2 normals, obscured -> 1 normal; in
    # cover with Piercing 2 the one defence die is a cover save, which blocks it: 0 damage.
    assert damage(normals(2, rules="Piercing 2"), target(in_cover=True, obscured=True)) == {
        0: CERTAIN
    }


# --------------------------------------------------------------------------------------------
# Section 4.7: improved cover save (Vantage vs Conceal in Light)
# --------------------------------------------------------------------------------------------


def test_improved_cover_critical_save_blocks_a_crit() -> None:
    # 1 crit vs Piercing 2 (one defence die) and an improved cover save retained as a crit:
    # the crit save blocks the crit: 0 damage.
    p = crit_and_normals(0, "3/5", "Piercing 2")
    assert damage(p, target(improved_cover=True, cover_choice="critical")) == {0: CERTAIN}


def test_improved_cover_two_normals_block_a_crit() -> None:
    # Two normal cover saves (Piercing 1 leaves exactly two dice) block one crit: 0 damage.
    p = crit_and_normals(0, "1/5", "Piercing 1")
    assert damage(p, target(improved_cover=True, cover_choice="two_normals")) == {0: CERTAIN}


def test_cover_choice_matters() -> None:
    # Attack: 1 normal + 1 crit (3/4), Piercing 1 -> two defence dice, Save 4+.
    # "two_normals": both dice are normal cover saves; best block = the crit (2 normals)
    #   -> 3 damage, or the normal (one save wasted) -> 4. Defender takes 3.
    # "critical": one crit save (blocks the crit) + one rolled die at 4+ (1/2 success
    #   blocks the normal) -> {0: 1/2, 3: 1/2}, expectation 3/2.
    # "best": the lower expectation, critical.
    p = crit_and_normals(1, "3/4", "Piercing 1")
    two = damage(p, target(improved_cover=True, cover_choice="two_normals"))
    crit = damage(p, target(improved_cover=True, cover_choice="critical"))
    best = damage(p, target(improved_cover=True))
    assert two == {3: CERTAIN}
    assert crit == {0: F(1, 2), 3: F(1, 2)}
    assert best == crit


def test_improved_cover_best_prefers_two_normals_against_normals() -> None:
    # Attack: 2 normals (3/4), Piercing 1 -> two defence dice, Save 6+.
    # two_normals: both normals blocked -> 0.
    # critical: crit save blocks one; the rolled die is a 6 w.p. 1/6 -> E = 3*5/6 = 5/2.
    p = normals(2, "3/4", "Piercing 1")
    assert damage(p, target(save=6, improved_cover=True)) == {0: CERTAIN}
    assert damage(p, target(save=6, improved_cover=True, cover_choice="critical")) == {
        0: F(1, 6),
        3: F(5, 6),
    }


def test_improved_cover_denied_by_saturate() -> None:
    # Saturate: no cover saves at all; one die (Piercing 2) rolled at 4+ vs 1 normal: 1/2.
    p = normals(1, rules="Piercing 2, Saturate")
    assert damage(p, target(save=4, improved_cover=True)) == {0: F(1, 2), 3: F(1, 2)}


# --------------------------------------------------------------------------------------------
# Section 5.1: Shoot
# --------------------------------------------------------------------------------------------


def test_three_defence_dice() -> None:
    # 1 normal vs 3 dice at 4+: unblocked only if all three fail: (1/2)^3 = 1/8.
    assert damage(normals(1), target(save=4)) == {0: F(7, 8), 3: F(1, 8)}


def test_piercing_1_leaves_two_defence_dice() -> None:
    # (1/2)^2 = 1/4.
    assert damage(normals(1, rules="Piercing 1"), target(save=4)) == {0: F(3, 4), 3: F(1, 4)}


def test_piercing_2_leaves_one_defence_die() -> None:
    # (1/2)^1 = 1/2.
    assert damage(normals(1, rules="Piercing 2"), target(save=4)) == {0: F(1, 2), 3: F(1, 2)}


def test_piercing_3_leaves_no_defence_dice() -> None:
    # 2 normals + 1 crit at 3/5, nothing blocks: 3 + 3 + 5 = 11.
    assert damage(crit_and_normals(2, "3/5", "Piercing 3"), target(save=2)) == {11: CERTAIN}


def test_piercing_cannot_remove_a_cover_save_that_is_not_there() -> None:
    # Piercing 3 in cover: no defence dice are collected, so no cover save either: 3.
    assert damage(normals(1, rules="Piercing 3"), target(in_cover=True)) == {3: CERTAIN}


def test_one_normal_save_cannot_block_a_crit() -> None:
    # 1 crit (3/5) vs one normal cover save (Piercing 2, in cover): not blocked: 5.
    p = crit_and_normals(0, "3/5", "Piercing 2")
    assert damage(p, target(in_cover=True, cover_choice="normal")) == {5: CERTAIN}


def test_two_normal_saves_block_a_crit() -> None:
    # 1 crit of damage 5 vs 2 normal saves -> 0 damage.
    p = crit_and_normals(0, "1/5", "Piercing 1")
    assert damage(p, target(improved_cover=True, cover_choice="two_normals")) == {0: CERTAIN}


def test_defender_blocks_the_crit_with_two_normals_when_that_is_best() -> None:
    # 1 normal + 1 crit (3/5) vs 2 normal saves: block the crit -> 3; block the normal
    # (one save idle) -> 5. Least damage: 3.
    p = crit_and_normals(1, "3/5", "Piercing 1")
    assert damage(p, target(improved_cover=True, cover_choice="two_normals")) == {3: CERTAIN}


def test_defender_blocks_two_normals_when_that_is_best() -> None:
    # 2 normals + 1 crit (3/5) vs 2 normal saves: block both normals -> 5; block the crit
    # -> 6. Least damage: 5.
    p = crit_and_normals(2, "3/5", "Piercing 1")
    assert damage(p, target(improved_cover=True, cover_choice="two_normals")) == {5: CERTAIN}


def test_crit_save_blocks_a_normal() -> None:
    # 1 normal vs a crit cover save (Piercing 2, improved "critical"): 0.
    p = normals(1, rules="Piercing 2")
    assert damage(p, target(improved_cover=True, cover_choice="critical")) == {0: CERTAIN}


def test_damage_is_normal_and_critical_damage() -> None:
    # 1 normal + 1 crit, dmg 2/6, nothing to block: 2 + 6 = 8.
    assert damage(crit_and_normals(1, "2/6", "Piercing 3"), target()) == {8: CERTAIN}


def test_damage_is_not_capped_and_kill_probability() -> None:
    # 3 normals dmg 3, no defence dice: 9 damage vs 5 wounds; kill certain.
    result = shoot(normals(3, rules="Piercing 3"), target(wounds=5))
    assert result.damage.to_fractions() == {9: CERTAIN}
    assert result.kill_probability == 1
    # vs 10 wounds: no kill.
    assert shoot(normals(3, rules="Piercing 3"), target(wounds=10)).kill_probability == 0


def test_kill_probability_one_die() -> None:
    # 1 die Hit 4+, dmg 3/4, Piercing 3, target 4 wounds: kill only on a crit: 1/6.
    result = shoot(prof(1, "4+", "3/4", "Piercing 3"), target(wounds=4))
    assert result.kill_probability == F(1, 6)
    # Expected damage: 3 * 2/6 + 4 * 1/6 = 10/6 = 5/3.
    assert result.expected_damage == F(5, 3)


def test_unblocked_pmf() -> None:
    # 1 normal vs 1 die at 4+: unblocked (1,0) w.p. 1/2, (0,0) w.p. 1/2.
    result = shoot(normals(1, rules="Piercing 2"), target(save=4))
    assert result.unblocked.to_fractions() == {(0, 0): F(1, 2), (1, 0): F(1, 2)}


# --------------------------------------------------------------------------------------------
# Section 5.2: Fight
# --------------------------------------------------------------------------------------------


def test_fight_attacker_resolves_first() -> None:
    # Both have 1 normal of 3 damage and 3 wounds. The attacker strikes first and
    # incapacitates the defender; the defender's die is lost: (0, 3).
    a = Fighter(normals(1), 3)
    b = Fighter(normals(1), 3)
    assert joint(a, b) == {(0, 3): CERTAIN}
    assert joint(a, b, policy="strike") == {(0, 3): CERTAIN}


def test_fight_defender_first() -> None:
    # first="defender" (e.g. Garrisoned Stronghold): the defender's strike kills first.
    a = Fighter(normals(1), 3)
    b = Fighter(normals(1), 3)
    assert joint(a, b, first="defender") == {(3, 0): CERTAIN}


def test_fight_stops_when_one_side_is_incapacitated() -> None:
    # EDGE_CASES 7. Attacker: 1 normal of 3. Defender: 3 normals of 1, 3 wounds. The
    # attacker's first strike incapacitates it; its 3 dice are lost: attacker takes 0.
    a = Fighter(normals(1, "3/3"), 10)
    b = Fighter(normals(3, "1/1"), 3)
    for policy in ("optimal", "strike"):
        result = fight(a, b, policy=policy)
        assert result.joint.to_fractions() == {(0, 3): CERTAIN}
        assert result.defender.incapacitated_probability == 1
        assert result.attacker.incapacitated_probability == 0
    # The "block" policy blocks one of the defender's normals instead of striking; the
    # attacker is then out of dice and the defender strikes its other 2: (2, 0).
    assert joint(a, b, policy="block") == {(2, 0): CERTAIN}


def test_fight_incapacitated_mid_sequence_loses_remaining_dice() -> None:
    # EDGE_CASES 7, both sides with dice left. Attacker: 3 normals of 2 (10 wounds);
    # defender: 3 normals of 1, 4 wounds; both strike.
    # A 2 (D at 2) - D 1 - A 2 (D at 0: incapacitated). A's third and D's last two dice
    # are lost: A took 1, D took 4.
    a = Fighter(normals(3, "2/2"), 10)
    b = Fighter(normals(3, "1/1"), 4)
    assert joint(a, b, policy="strike") == {(1, 4): CERTAIN}


def test_fight_side_with_dice_left_resolves_the_rest() -> None:
    # EDGE_CASES 8. Attacker: 1 normal of 2 (10 wounds). Defender: 3 normals of 1 (10).
    # strike: A strikes 2; A has no dice left, so D resolves all 3: A takes 3. -> (3, 2)
    # optimal: A could instead block one normal (D then strikes 2: value -2) or strike
    # (value 2 - 3 = -1): striking is better, so (3, 2) too.
    a = Fighter(normals(1, "2/2"), 10)
    b = Fighter(normals(3, "1/1"), 10)
    assert joint(a, b, policy="strike") == {(3, 2): CERTAIN}
    assert joint(a, b) == {(3, 2): CERTAIN}


def test_fight_normal_blocks_normal() -> None:
    # Defender first with 1 normal (1/1, 5 wounds); attacker 1 normal of 5/5. If the
    # defender strikes, the attacker kills it next; blocking leaves nobody hurt: (0, 0).
    a = Fighter(normals(1, "5/5"), 10)
    b = Fighter(normals(1, "1/1"), 5)
    assert joint(a, b, first="defender") == {(0, 0): CERTAIN}
    assert joint(a, b, first="defender", defender_policy="block") == {(0, 0): CERTAIN}
    # Striking instead: D deals 1, then A kills D: (1, 5).
    assert joint(a, b, first="defender", defender_policy="strike") == {(1, 5): CERTAIN}


def test_fight_normals_cannot_block_a_crit() -> None:
    # Section 5.2: only a crit blocks a crit (no "two normals block a crit" in fights).
    # Defender first: 2 normals of 1 (10 wounds); attacker 1 crit of 10. D cannot block the
    # crit, so the best it can do is strike once before being incapacitated: (1, 10).
    a = Fighter(crit_and_normals(0, "1/10"), 10)
    b = Fighter(normals(2, "1/1"), 10)
    assert joint(a, b, first="defender") == {(1, 10): CERTAIN}


def test_fight_crit_blocks_normal() -> None:
    # Defender first: 1 crit (1/1, 5 wounds) vs attacker's 1 normal of 5. The crit blocks
    # the normal: (0, 0).
    a = Fighter(normals(1, "5/5"), 10)
    b = Fighter(crit_and_normals(0, "1/1"), 5)
    assert joint(a, b, first="defender") == {(0, 0): CERTAIN}


def test_fight_crit_blocks_crit() -> None:
    # Defender first: 1 crit (1/1, 5 wounds) vs attacker's 1 crit of 5: blocked: (0, 0).
    a = Fighter(crit_and_normals(0, "5/5"), 10)
    b = Fighter(crit_and_normals(0, "1/1"), 5)
    assert joint(a, b, first="defender") == {(0, 0): CERTAIN}


def test_brutal_opponent_cannot_block_with_normals() -> None:
    # As test_fight_normal_blocks_normal, but the attacker's weapon is Brutal: the
    # defender's normal cannot block, it strikes (1) and the attacker kills it: (1, 5).
    a = Fighter(normals(1, "5/5", "Brutal"), 10)
    b = Fighter(normals(1, "1/1"), 5)
    assert joint(a, b, first="defender") == {(1, 5): CERTAIN}
    assert joint(a, b, first="defender", defender_policy="block") == {(1, 5): CERTAIN}


def test_brutal_crits_still_block() -> None:
    # Brutal attacker, defender has 1 crit: it blocks: (0, 0).
    a = Fighter(normals(1, "5/5", "Brutal"), 10)
    b = Fighter(crit_and_normals(0, "1/1"), 5)
    assert joint(a, b, first="defender") == {(0, 0): CERTAIN}


def test_brutal_in_shooting_normal_saves_cannot_block() -> None:
    # 1 normal (3/4) with Brutal vs one normal cover save (Piercing 2): not blocked: 3.
    p = normals(1, rules="Brutal, Piercing 2")
    assert damage(p, target(in_cover=True, cover_choice="normal")) == {3: CERTAIN}
    # A crit save still blocks.
    assert damage(p, target(improved_cover=True, cover_choice="critical")) == {0: CERTAIN}


def test_shock_discards_an_enemy_normal_on_first_crit_strike() -> None:
    # Attacker: 1 crit + 1 normal (1/2) with Shock. Defender: 2 normals (1/1). Both strike.
    # A strikes the crit (2) and discards one of D's normals; D strikes its last (1);
    # A strikes its normal (1). A takes 1, D takes 3.
    # Without Shock: D strikes twice: A takes 2.
    b = Fighter(normals(2, "1/1"), 20)
    shock = Fighter(crit_and_normals(1, "1/2", "Shock"), 20)
    plain = Fighter(crit_and_normals(1, "1/2"), 20)
    assert joint(shock, b, policy="strike") == {(1, 3): CERTAIN}
    assert joint(plain, b, policy="strike") == {(2, 3): CERTAIN}


def test_shock_discards_a_crit_when_no_normals() -> None:
    # Defender has only 1 crit (1/1): A's crit strike discards it; A takes 0.
    b = Fighter(crit_and_normals(0, "1/1"), 20)
    shock = Fighter(crit_and_normals(0, "1/2", "Shock"), 20)
    plain = Fighter(crit_and_normals(0, "1/2"), 20)
    assert joint(shock, b, policy="strike") == {(0, 2): CERTAIN}
    assert joint(plain, b, policy="strike") == {(1, 2): CERTAIN}


def test_shock_needs_a_crit_strike() -> None:
    # Shock with only normals never discards: 1 normal (1/2) + Shock vs 2 normals (1/1),
    # both strike: A deals 1, D deals 2.
    a = Fighter(normals(1, "1/2", "Shock"), 20)
    b = Fighter(normals(2, "1/1"), 20)
    assert joint(a, b, policy="strike") == {(2, 1): CERTAIN}


def test_devastating_in_fight_is_immediate() -> None:
    # Attacker: 1 crit (1/1) with Devastating 3; defender 3 wounds, 1 normal of 5.
    # Devastating inflicts 3 as soon as the crit is retained: the defender is
    # incapacitated before anyone resolves a die, even when the defender would go first.
    a = Fighter(crit_and_normals(0, "1/1", "Devastating 3"), 5)
    b = Fighter(normals(1, "5/5"), 3)
    assert joint(a, b) == {(0, 3): CERTAIN}
    assert joint(a, b, first="defender") == {(0, 3): CERTAIN}


def test_devastating_in_fight_then_the_crit_still_resolves() -> None:
    # Attacker: 1 crit (1/2) with Devastating 1 vs a defender with no attacks, 10 wounds:
    # Devastating 1, then the crit strikes for 2: 3 in total.
    a = Fighter(crit_and_normals(0, "1/2", "Devastating 1"), 5)
    b = Fighter(prof(0), 10)
    assert joint(a, b) == {(0, 3): CERTAIN}


def test_fighter_that_cannot_retaliate() -> None:
    # Defender with 0 attacks: the attacker resolves all: 2 normals of 3 = 6.
    result = fight(Fighter(normals(2), 10), Fighter(prof(0), 10))
    assert result.joint.to_fractions() == {(0, 6): CERTAIN}
    assert result.defender.expected_damage_taken == 6
    assert result.attacker.expected_damage_taken == 0


def test_fight_damage_taken_counts_up_to_wounds() -> None:
    # 3 normals of 3 vs 4 wounds and no retaliation: the second strike incapacitates (6 >= 4),
    # the damage taken is counted as 4.
    result = fight(Fighter(normals(3), 10), Fighter(prof(0), 4))
    assert result.defender.damage_taken.to_fractions() == {4: CERTAIN}
    assert result.defender.incapacitated_probability == 1


def test_fight_one_random_die() -> None:
    # Attacker 1 die Hit 4+ (3/4) vs defender with no attacks and 10 wounds:
    # {0: 1/2, 3: 1/3, 4: 1/6}.
    result = fight(Fighter(prof(1), 10), Fighter(prof(0), 10))
    assert result.defender.damage_taken.to_fractions() == {0: F(1, 2), 3: F(1, 3), 4: F(1, 6)}


def test_fight_policies_recorded() -> None:
    a, b = Fighter(normals(1), 10), Fighter(normals(1), 10)
    assert fight(a, b).policies == ("optimal", "optimal")
    assert fight(a, b, policy="strike").policies == ("strike", "strike")
    assert fight(a, b, policy="block", defender_policy="strike").policies == ("block", "strike")


# --------------------------------------------------------------------------------------------
# Section 6: weapon rules
# --------------------------------------------------------------------------------------------


def test_accurate_2_with_2_attacks_is_two_normals_for_sure() -> None:
    roll = attack_roll(prof(2, "4+", rules="Accurate 2"))
    assert roll.outcomes == ((2, 0, 1),)
    assert retained(prof(2, "6+", rules="Accurate 2")) == {(2, 0): CERTAIN}


def test_accurate_1_rolls_the_rest() -> None:
    # 2 attacks, Accurate 1, Hit 4+: 1 sure normal + one die (fail 1/2, normal 1/3, crit 1/6).
    assert retained(prof(2, rules="Accurate 1")) == {
        (1, 0): F(1, 2),
        (2, 0): F(1, 3),
        (1, 1): F(1, 6),
    }


def test_accurate_more_than_attacks() -> None:
    # Accurate 3 on 2 attacks: only 2 dice to retain.
    assert retained(prof(2, rules="Accurate 3")) == {(2, 0): CERTAIN}


def test_two_accurate_1_are_accurate_2() -> None:
    # Section 6: several Accurate instances may be treated as Accurate 2.
    assert retained(prof(2, rules="Accurate 1, Accurate 1")) == {(2, 0): CERTAIN}


def test_balanced_rerolls_one_die() -> None:
    # 1 die at 4+ with Balanced: P(success) = 1/2 + 1/2*1/2 = 3/4;
    # normal = 1/3 + 1/2*1/3 = 1/2; crit = 1/6 + 1/2*1/6 = 1/4; fail = 1/2*1/2 = 1/4.
    assert retained(prof(1, rules="Balanced")) == {
        (0, 0): F(1, 4),
        (1, 0): F(1, 2),
        (0, 1): F(1, 4),
    }


def test_balanced_rerolls_only_one_die() -> None:
    # 2 dice at 4+, counting successes (s = 1/2 per die):
    # 0 successes: both fail (1/4), one re-rolled fails (1/2) -> 1/8.
    # 2 successes: both succeed 1/4 + exactly one fails (1/2) and its re-roll succeeds (1/2)
    #   -> 1/4 + 1/4 = 1/2.  1 success: 1 - 1/8 - 1/2 = 3/8.
    r = retained(prof(2, "4+", "1/1", "Balanced"))
    by_successes: dict[int, F] = {}
    for (n, c), p in r.items():
        by_successes[n + c] = by_successes.get(n + c, F(0)) + p
    assert by_successes == {0: F(1, 8), 1: F(3, 8), 2: F(1, 2)}


def test_ceaseless_one_die() -> None:
    # 1 die: the fail's value is the chosen value: same as Balanced: 3/4 success.
    assert retained(prof(1, rules="Ceaseless")) == retained(prof(1, rules="Balanced"))


def test_ceaseless_rerolls_one_value_only() -> None:
    # 2 dice at 4+ (failing faces 1,2,3):
    #   both succeed: 1/4.
    #   one fails (1/2): re-roll it, success 1/2 -> 1/4 both succeed.
    #   both fail (1/4): same face (1/3 of the time) -> re-roll both, both succeed 1/4:
    #     1/4 * 1/3 * 1/4 = 1/48; different faces -> only one re-rolled: never 2 successes.
    # P(2 successes) = 1/4 + 1/4 + 1/48 = 25/48 (Relentless would give 9/16 = 27/48).
    r = retained(prof(2, "4+", "1/1", "Ceaseless"))
    assert sum(p for (n, c), p in r.items() if n + c == 2) == F(25, 48)
    # P(0 successes): one fails and its re-roll fails: 1/2*1/2 = 0 (the other succeeded) ->
    # only the both-fail branch: same face: 1/12 * 1/4 = 1/48; different faces: 1/6 * 1/2
    # = 1/12 = 4/48.  Total 5/48.
    assert r[(0, 0)] == F(5, 48)


def test_ceaseless_and_balanced_with_two_dice_equals_relentless() -> None:
    # Both fail on different faces: Ceaseless re-rolls one, Balanced the other; same face:
    # Ceaseless re-rolls both; one fail: re-rolled. So every fail is re-rolled once:
    # P(2 successes) = (3/4)^2 = 9/16, as Relentless.
    cb = retained(prof(2, "4+", "3/4", "Ceaseless, Balanced"))
    rel = retained(prof(2, "4+", "3/4", "Relentless"))
    assert cb == rel
    assert sum(p for (n, c), p in rel.items() if n + c == 2) == F(9, 16)


def test_relentless_rerolls_every_fail() -> None:
    # Each die: fail 1/2*1/2 = 1/4; normal 1/3 + 1/2*1/3 = 1/2; crit 1/6 + 1/2*1/6 = 1/4.
    # 2 dice: (0,0) = 1/16; (2,0) = 1/4; (0,2) = 1/16; (1,1) = 2*1/2*1/4 = 1/4;
    # (1,0) = 2*1/4*1/2 = 1/4; (0,1) = 2*1/4*1/4 = 1/8.
    assert retained(prof(2, rules="Relentless")) == {
        (0, 0): F(1, 16),
        (1, 0): F(1, 4),
        (0, 1): F(1, 8),
        (2, 0): F(1, 4),
        (1, 1): F(1, 4),
        (0, 2): F(1, 16),
    }


def test_no_die_is_rerolled_twice_with_balanced_and_relentless() -> None:
    # 1 die, Hit 4+, Relentless + Balanced: still one re-roll of the die: 3/4 success.
    assert retained(prof(1, rules="Relentless, Balanced")) == {
        (0, 0): F(1, 4),
        (1, 0): F(1, 2),
        (0, 1): F(1, 4),
    }


def test_lethal_5_makes_5s_crits() -> None:
    # Hit 4+, Lethal 5+: fail 1-3 (1/2), normal 4 (1/6), crit 5-6 (1/3).
    assert retained(prof(1, rules="Lethal 5+")) == {
        (0, 0): F(1, 2),
        (1, 0): F(1, 6),
        (0, 1): F(1, 3),
    }


def test_lethal_below_hit_only_upgrades_successes() -> None:
    # Hit 4+, Lethal 3+: a 3 is still a fail; 4-6 are crits: {fail 1/2, crit 1/2}.
    assert retained(prof(1, rules="Lethal 3+")) == {(0, 0): F(1, 2), (0, 1): F(1, 2)}


def test_lethal_picks_lowest() -> None:
    assert retained(prof(1, rules="Lethal 5+, Lethal 4+")) == retained(prof(1, rules="Lethal 4+"))


def test_rending_upgrades_a_normal_when_a_crit_is_retained() -> None:
    # 2 attacks, Accurate 1, Hit 6+: the rolled die is a 6 (1/6) -> (1,1) -> Rending (0,2);
    # a fail (5/6) -> (1,0), no crit so no Rending.
    assert retained(prof(2, "6+", rules="Accurate 1, Rending")) == {
        (1, 0): F(5, 6),
        (0, 2): F(1, 6),
    }


def test_punishing_retains_a_fail_when_a_crit_is_retained() -> None:
    # 2 dice, Hit 6+: both 6 (1/36) -> (0,2); one 6 and one fail (10/36) -> the fail is
    # retained as a normal -> (1,1); both fail (25/36) -> (0,0).
    assert retained(prof(2, "6+", rules="Punishing")) == {
        (0, 0): F(25, 36),
        (1, 1): F(10, 36),
        (0, 2): F(1, 36),
    }


def test_punishing_then_rending() -> None:
    # Same dice with Punishing and Rending: (1,1) from Punishing becomes (0,2) by Rending.
    assert retained(prof(2, "6+", rules="Punishing, Rending")) == {
        (0, 0): F(25, 36),
        (0, 2): F(11, 36),
    }


def test_severe_upgrades_a_normal_when_no_crit() -> None:
    # 2 attacks, Accurate 1, Hit 6+: fail (5/6) -> (1,0) -> Severe (0,1); a 6 (1/6) -> (1,1)
    # already has a crit, Severe does nothing.
    assert retained(prof(2, "6+", rules="Accurate 1, Severe")) == {(0, 1): F(5, 6), (1, 1): F(1, 6)}


def test_severe_crit_does_not_trigger_rending_or_punishing() -> None:
    # As above with Punishing and Rending too.
    # fail (5/6): no crit retained -> Severe: (0,1). Punishing/Rending do not trigger from
    #   it (else the fail would become a normal and Rending would give (0,2)).
    # a 6 (1/6): (1,1) with a real crit: no fail to Punish, Rending -> (0,2).
    p = prof(2, "6+", rules="Accurate 1, Severe, Punishing, Rending")
    assert retained(p) == {(0, 1): F(5, 6), (0, 2): F(1, 6)}


def test_severe_crit_triggers_devastating_and_piercing_crits() -> None:
    # 1 sure crit via Severe (3/4), Devastating 2, Piercing Crits 3, Save 2+:
    # no defence dice (Piercing Crits 3), so 2 (Devastating) + 4 (crit) = 6 for sure.
    p = crit_and_normals(0, "3/4", "Devastating 2, Piercing Crits 3")
    result = shoot(p, target(save=2))
    assert result.damage.to_fractions() == {6: CERTAIN}
    assert result.piercing_crits_probability == 1


def test_severe_crit_triggers_stun() -> None:
    result = shoot(crit_and_normals(0, rules="Stun"), target())
    assert result.stun_probability == 1


def test_piercing_crits_only_when_a_crit_is_retained() -> None:
    # 1 normal with Piercing Crits 3: no crit, so 3 dice at 4+: P(unblocked) = 1/8.
    assert damage(normals(1, rules="Piercing Crits 3"), target(save=4)) == {0: F(7, 8), 3: F(1, 8)}
    # 1 crit: no defence dice: 4.
    assert damage(crit_and_normals(0, rules="Piercing Crits 3"), target(save=2)) == {4: CERTAIN}


def test_piercing_crits_one_random_die() -> None:
    # 1 die Hit 4+ (3/4), Piercing Crits 3, Save 2+:
    #   crit (1/6): no defence dice -> 4.
    #   normal (1/3): 3 dice at 2+, unblocked only if all fail: (1/6)^3 = 1/216 -> 3.
    #   fail (1/2): 0.
    # P(4) = 1/6; P(3) = 1/3 * 1/216 = 1/648; P(0) = 1 - 1/6 - 1/648 = 539/648.
    result = shoot(prof(1, rules="Piercing Crits 3"), target(save=2))
    assert result.damage.to_fractions() == {0: F(539, 648), 3: F(1, 648), 4: F(1, 6)}
    assert result.piercing_crits_probability == F(1, 6)


def test_devastating_counts_even_when_the_crit_is_blocked() -> None:
    # 1 crit (3/4), Devastating 2, Piercing 2, improved cover "critical": the crit save
    # blocks the crit but Devastating already inflicted 2.
    p = crit_and_normals(0, "3/4", "Devastating 2, Piercing 2")
    assert damage(p, target(improved_cover=True, cover_choice="critical")) == {2: CERTAIN}
    # Same with two normal saves blocking it (Piercing 1).
    p = crit_and_normals(0, "3/4", "Devastating 2, Piercing 1")
    assert damage(p, target(improved_cover=True, cover_choice="two_normals")) == {2: CERTAIN}


def test_devastating_per_retained_crit() -> None:
    # 1 die Hit 4+ (3/4), Devastating 2, Piercing 3: crit (1/6) -> 2 + 4 = 6;
    # normal (1/3) -> 3; fail (1/2) -> 0.
    assert damage(prof(1, rules="Devastating 2, Piercing 3"), target()) == {
        0: F(1, 2),
        3: F(1, 3),
        6: F(1, 6),
    }


def test_area_devastating_damage() -> None:
    # 1" Devastating 2: each other operative in the area takes 2 per retained crit.
    # 1 die Hit 4+: {0: 5/6, 2: 1/6}.
    result = shoot(prof(1, rules='1" Devastating 2'), target())
    assert result.area_damage is not None
    assert result.area_damage.to_fractions() == {0: F(5, 6), 2: F(1, 6)}
    # Plain Devastating has no area.
    assert shoot(prof(1, rules="Devastating 2"), target()).area_damage is None


def test_hot_self_damage_hit_4() -> None:
    # One D6 after shooting; result below Hit (1, 2, 3) -> 2x result; else 0:
    # {0: 3/6, 2: 1/6, 4: 1/6, 6: 1/6}.
    expected = {0: F(1, 2), 2: F(1, 6), 4: F(1, 6), 6: F(1, 6)}
    assert hot_damage(4).to_fractions() == expected
    result = shoot(prof(2, "4+", rules="Hot"), target())
    assert result.hot is not None
    assert result.hot.to_fractions() == expected
    assert result.hot.mean() == F(2, 1)  # (2+4+6)/6


def test_hot_self_damage_other_hits() -> None:
    # Hit 2+: only a 1 hurts: {0: 5/6, 2: 1/6}. Hit 6+: 1-5 hurt.
    assert hot_damage(2).to_fractions() == {0: F(5, 6), 2: F(1, 6)}
    assert hot_damage(6).to_fractions() == {k: F(1, 6) for k in (0, 2, 4, 6, 8, 10)}


def test_no_hot_no_self_damage() -> None:
    assert shoot(prof(2), target()).hot is None


def test_stun_probability() -> None:
    # Stun needs a retained crit: 1 die Hit 4+: 1/6; 2 dice: 1 - (5/6)^2 = 11/36.
    assert shoot(prof(1, rules="Stun"), target()).stun_probability == F(1, 6)
    assert shoot(prof(2, rules="Stun"), target()).stun_probability == F(11, 36)
    # Lethal 5+: crit on 5-6: 1/3.
    assert shoot(prof(1, rules="Stun, Lethal 5+"), target()).stun_probability == F(1, 3)
    # Without Stun: 0.
    assert shoot(prof(1), target()).stun_probability == 0


def test_stun_in_fight() -> None:
    # The attacker's Stun affects the defender when it retains a crit: 1 die Hit 4+: 1/6.
    result = fight(Fighter(prof(1, rules="Stun"), 10), Fighter(prof(1), 10))
    assert result.defender.stunned_probability == F(1, 6)
    assert result.attacker.stunned_probability == 0


@pytest.mark.parametrize(
    "rule",
    [
        'Range 8"',
        'Blast 2"',
        'Torrent 1"',
        "Heavy",
        "Heavy (Dash only)",
        "Limited 1",
        "Silent",
        "Seek",
        "Seek Light",
        "PSYCHIC",
        "Concealed Position*",
    ],
)
def test_rules_without_dice_effect_do_not_change_the_shot(rule: str) -> None:
    plain = shoot(prof(3, "3+", "3/4"), target(in_cover=True))
    ruled = shoot(prof(3, "3+", "3/4", rule), target(in_cover=True))
    assert ruled.damage == plain.damage
    assert ruled.hot is None


# --------------------------------------------------------------------------------------------
# Cover saves are optional ("can retain", KT24 Shoot step 4)
# --------------------------------------------------------------------------------------------


def test_cover_save_is_optional_against_a_lone_crit_with_piercing_2() -> None:
    # 1 crit (3/4), Piercing 2: one defence die, Save 4+, target in cover.
    # Taking the cover save: a normal save cannot block a crit -> 4 for sure (E = 4).
    # Declining it: roll the die, a 6 (1/6) is a crit save that blocks -> E = 4*5/6 = 10/3.
    # The defender chooses the lower: E = 10/3.
    result = shoot(crit_and_normals(0, "3/4", "Piercing 2"), target(save=4, in_cover=True))
    assert result.expected_damage == F(10, 3)


def test_cover_save_is_optional_against_brutal() -> None:
    # 1 normal (3/4) with Brutal, Save 2+, in cover, 3 defence dice.
    # With the cover save: it cannot block (Brutal); the 2 rolled dice block only with a 6:
    #   P(unblocked) = (5/6)^2 = 25/36 -> E = 3*25/36 = 25/12.
    # Declining: 3 dice, P(no 6) = 125/216 -> E = 3*125/216 = 125/72 < 25/12.
    result = shoot(normals(1, rules="Brutal"), target(save=2, in_cover=True))
    assert result.expected_damage == F(125, 72)


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("hit", ["7+", "1+", "0+", "hit", "", 7, 1])
def test_bad_hit_raises(hit: object) -> None:
    with pytest.raises(ProfileError):
        AttackProfile.parse(4, hit, "3/4")  # type: ignore[arg-type]


def test_hit_7_message_names_hit() -> None:
    with pytest.raises(ProfileError, match="Hit"):
        AttackProfile.parse(4, "7+", "3/4")


@pytest.mark.parametrize("dmg", ["3", "3/", "/4", "3-4", "a/b", ""])
def test_damage_without_critical_value_raises(dmg: str) -> None:
    with pytest.raises(ProfileError):
        AttackProfile.parse(4, "3+", dmg)


def test_bad_attacks_raise() -> None:
    with pytest.raises(ProfileError):
        AttackProfile.parse("four", "3+", "3/4")
    with pytest.raises(ProfileError):
        AttackProfile.parse(-1, "3+", "3/4")


def test_bad_rules_string_raises_weapon_rule_error() -> None:
    with pytest.raises(WeaponRuleError, match="Lethal 7"):
        AttackProfile.parse(4, "3+", "3/4", "Lethal 7+")


def test_bad_save_and_wounds_raise() -> None:
    with pytest.raises(ProfileError):
        Target(save=7, wounds=10)
    with pytest.raises(ProfileError):
        Target(save=1, wounds=10)
    with pytest.raises(ProfileError):
        Target(save=4, wounds=0)
    with pytest.raises(ProfileError):
        Fighter(prof(1), 0)


def test_bad_cover_choice_raises() -> None:
    with pytest.raises(ProfileError):
        Target(save=4, wounds=10, improved_cover=True, cover_choice="both")


def test_unknown_fight_policy_raises() -> None:
    a, b = Fighter(prof(1), 5), Fighter(prof(1), 5)
    with pytest.raises(ProfileError, match="cautious"):
        fight(a, b, policy="cautious")
    with pytest.raises(ProfileError, match="cautious"):
        fight(a, b, defender_policy="cautious")


def test_unknown_first_raises() -> None:
    a, b = Fighter(prof(1), 5), Fighter(prof(1), 5)
    with pytest.raises(ProfileError):
        fight(a, b, first="both")


def test_parse_threshold_and_damage() -> None:
    assert parse_threshold("3+") == 3
    assert parse_threshold(" 5+ ") == 5
    assert parse_threshold(2) == 2
    assert parse_damage("3/4") == (3, 4)
    assert parse_damage(" 4 / 5 ") == (4, 5)
    with pytest.raises(ProfileError):
        parse_threshold(True)  # type: ignore[arg-type]


def test_with_hit_clamps() -> None:
    # A 1 always fails and a 6 always succeeds: worsened Hit is capped at 6+, improved at 2+.
    assert prof(1, "6+").with_hit(7).hit == 6
    assert prof(1, "2+").with_hit(1).hit == 2
