"""The exact dice core against an independent brute-force enumerator (``tests/bruteforce.py``).

Shooting: the full damage pmf, the retained pmf, kill and stun probabilities, Hot and the
area form of Devastating are compared exactly (Fractions); the unblocked pmf too whenever
the defender's least-damage allocation is unique (otherwise two correct implementations may
report different unblocked dice for the same damage).

Fights: for fixed policies (strike / block) the joint pmf of damage taken is compared
exactly; whenever a side plays ``optimal`` only the expected objective is compared (ties
between equally good moves may be broken differently, which can change the damage
distribution but never the objective).
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from engine.dice import AttackProfile, Fighter, Target, attack_roll, fight, shoot
from tests.bruteforce import attack_distribution, brute_fight, brute_shoot, parse_rules

# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------

COVER_STATES = {
    "open": {},
    "cover": {"in_cover": True},
    "obscured": {"obscured": True},
    "cover+obscured": {"in_cover": True, "obscured": True},
    "improved-best": {"improved_cover": True, "cover_choice": "best"},
    "improved-critical": {"improved_cover": True, "cover_choice": "critical"},
    "improved-two_normals": {"improved_cover": True, "cover_choice": "two_normals"},
    "improved-best+obscured": {"improved_cover": True, "obscured": True},
}


def check_shoot(
    attacks: int,
    hit: int,
    damage: str,
    rules: str,
    save: int,
    wounds: int,
    cover: str = "open",
) -> None:
    """Assert the engine's shoot() equals the brute force for one profile and target."""
    nd, cd = (int(x) for x in damage.split("/"))
    target_kw = COVER_STATES[cover]
    profile = AttackProfile.parse(attacks, f"{hit}+", damage, rules)
    got = shoot(profile, Target(save, wounds, **target_kw))
    want = brute_shoot(attacks, hit, nd, cd, rules, save=save, wounds=wounds, **target_kw)

    assert got.retained.to_fractions() == want.retained, "retained (normals, crits) pmf"
    assert got.damage.to_fractions() == want.damage, "damage pmf"
    assert got.expected_damage == want.expected_damage
    assert got.kill_probability == want.kill_probability
    assert got.stun_probability == want.stun_probability
    assert got.crit_probability == want.crit_probability
    # Piercing Crits "takes effect" when any crit is retained (0 without the rule)
    pc = want.crit_probability if parse_rules(rules).piercing_crits else Fraction(0)
    assert got.piercing_crits_probability == pc
    if want.unblocked is not None:
        assert got.unblocked.to_fractions() == want.unblocked, "unblocked (normals, crits) pmf"
    if want.hot is None:
        assert got.hot is None
    else:
        assert got.hot is not None
        assert got.hot.to_fractions() == want.hot, "Hot self-damage pmf"
    if want.area_damage is not None:
        assert got.area_damage is not None
        assert got.area_damage.to_fractions() == want.area_damage, "area Devastating pmf"

    roll = attack_roll(profile, obscured=bool(target_kw.get("obscured")))
    from_roll: dict[tuple[int, int], Fraction] = {}
    for n, c, w in roll.outcomes:
        if w == 0:  # AttackRoll may list impossible outcomes with weight 0
            continue
        from_roll[(n, c)] = from_roll.get((n, c), Fraction(0)) + Fraction(w, roll.total)
    assert from_roll == want.retained, "attack_roll() outcomes"


FighterSpec = tuple[int, int, str, str, int]  # attacks, hit, damage, rules, wounds


def _brute_spec(spec: FighterSpec) -> tuple[int, int, int, int, str, int]:
    attacks, hit, damage, rules, wounds = spec
    nd, cd = (int(x) for x in damage.split("/"))
    return attacks, hit, nd, cd, rules, wounds


def _fighter(spec: FighterSpec) -> Fighter:
    attacks, hit, damage, rules, wounds = spec
    return Fighter(AttackProfile.parse(attacks, f"{hit}+", damage, rules), wounds)


def check_fight(
    attacker: FighterSpec,
    defender: FighterSpec,
    policy: str,
    defender_policy: str,
    first: str = "attacker",
) -> None:
    """Assert the engine's fight() equals the brute force for one pair and policy pair."""
    got = fight(
        _fighter(attacker),
        _fighter(defender),
        policy=policy,
        defender_policy=defender_policy,
        first=first,
    )
    want = brute_fight(
        _brute_spec(attacker),
        _brute_spec(defender),
        policy=policy,
        defender_policy=defender_policy,
        first=first,
    )
    assert got.expected_objective == want["objective"], "expected objective"
    assert got.attacker.stunned_probability == want["attacker_stunned"]
    assert got.defender.stunned_probability == want["defender_stunned"]
    if "optimal" in (policy, defender_policy):
        return
    joint = want["joint"]
    assert isinstance(joint, dict)
    assert got.joint.to_fractions() == joint, "joint (taken by attacker, taken by defender)"
    taken_a: dict[int, Fraction] = {}
    taken_b: dict[int, Fraction] = {}
    for (ta, tb), p in joint.items():
        taken_a[ta] = taken_a.get(ta, Fraction(0)) + p
        taken_b[tb] = taken_b.get(tb, Fraction(0)) + p
    assert got.attacker.damage_taken.to_fractions() == taken_a
    assert got.defender.damage_taken.to_fractions() == taken_b
    assert got.attacker.incapacitated_probability == sum(
        (p for d, p in taken_a.items() if d >= attacker[4]), Fraction(0)
    )


def _id(*parts: object) -> str:
    return "-".join(str(p).replace(" ", "").replace(",", "+") for p in parts if p != "")


def shoot_params(cases: list[tuple]) -> pytest.MarkDecorator:
    """parametrize over (attacks, hit, damage, rules, save, wounds, cover) with readable ids."""
    return pytest.mark.parametrize(
        "attacks,hit,damage,rules,save,wounds,cover",
        [
            pytest.param(
                *c,
                id=_id(f"A{c[0]}", f"H{c[1]}+", f"D{c[2]}", c[3], f"Sv{c[4]}+", f"W{c[5]}", c[6]),
            )
            for c in cases
        ],
    )


# --------------------------------------------------------------------------------------------
# The brute force itself: a few hand-checked values
# --------------------------------------------------------------------------------------------


def test_bruteforce_sanity_single_die() -> None:
    rules = parse_rules("")
    assert attack_distribution(1, 4, rules) == {
        (0, 0): Fraction(1, 2),
        (1, 0): Fraction(1, 3),
        (0, 1): Fraction(1, 6),
    }
    # Balanced on one 4+ die: P(fail) = 1/2 * 1/2
    assert attack_distribution(1, 4, parse_rules("Balanced"))[(0, 0)] == Fraction(1, 4)
    # Lethal 5+ on a 3+ die: crit on 5, 6
    assert attack_distribution(1, 3, parse_rules("Lethal 5+"))[(0, 1)] == Fraction(1, 3)
    # two Accurate 1 count as Accurate 2
    assert parse_rules("Accurate 1, Accurate 1").accurate == 2
    assert attack_distribution(2, 6, parse_rules("Accurate 1, Accurate 1")) == {(2, 0): Fraction(1)}
    # one die, obscured: its success is discarded
    assert attack_distribution(1, 2, parse_rules("Lethal 2+"), obscured=True) == {
        (0, 0): Fraction(1)
    }


def test_bruteforce_sanity_shoot_one_crit_vs_one_save() -> None:
    # one auto normal success vs 1 defence die on 4+ (Piercing 2): blocked half the time
    r = brute_shoot(1, 2, 3, 4, "Accurate 1, Piercing 2", save=4, wounds=3)
    assert r.damage == {0: Fraction(1, 2), 3: Fraction(1, 2)}
    # Brutal: only the 6 blocks
    r = brute_shoot(1, 2, 3, 4, "Accurate 1, Piercing 2, Brutal", save=4, wounds=3)
    assert r.damage == {0: Fraction(1, 6), 3: Fraction(5, 6)}


def test_bruteforce_sanity_fight_two_normals() -> None:
    # attacker always has 1 normal (Accurate), defender none: one strike of 2
    a = (1, 2, 2, 3, "Accurate 1", 5)
    d = (0, 4, 1, 1, "", 5)
    r = brute_fight(a, d, policy="strike")
    assert r["joint"] == {(0, 2): Fraction(1)}
    assert r["objective"] == 2


# --------------------------------------------------------------------------------------------
# Shooting: plain profiles over every Hit and Save
# --------------------------------------------------------------------------------------------


@shoot_params(
    [(4, h, "3/4", "", s, 9, "open") for h in range(2, 7) for s in range(2, 7)]
    + [(5, h, "2/5", "", 4, 12, "cover") for h in (2, 4, 6)]
    + [(1, 3, "4/6", "", 3, 4, "open"), (0, 3, "4/6", "", 3, 4, "open")]
)
def test_shoot_matches_bruteforce_no_rules(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


# --------------------------------------------------------------------------------------------
# Shooting: each weapon rule alone
# --------------------------------------------------------------------------------------------


@shoot_params(
    [
        (4, 4, "3/4", "Accurate 1", 3, 8, "open"),
        (4, 5, "3/4", "Accurate 2", 4, 8, "open"),
        (4, 3, "3/4", "Accurate 1, Accurate 1", 4, 8, "cover"),
        (2, 4, "3/4", "Accurate 3", 4, 8, "open"),
        (3, 6, "2/3", "Accurate 2", 2, 6, "open"),
        (5, 4, "3/4", "Accurate 1", 3, 10, "open"),
    ]
)
def test_shoot_matches_bruteforce_accurate(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params([(4, h, "3/4", "Balanced", 4, 8, "open") for h in (2, 3, 4, 5, 6)])
def test_shoot_matches_bruteforce_balanced(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params(
    [(4, h, "3/4", "Ceaseless", 4, 8, "open") for h in (2, 3, 4, 5, 6)]
    + [(3, 5, "3/4", "Ceaseless", 3, 6, "cover")]
)
def test_shoot_matches_bruteforce_ceaseless(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params(
    [(4, h, "3/4", "Ceaseless, Balanced", 4, 8, "open") for h in (3, 4, 5, 6)]
    + [(3, 4, "2/5", "Balanced, Ceaseless", 3, 6, "open")]
)
def test_shoot_matches_bruteforce_ceaseless_balanced(
    attacks, hit, damage, rules, save, wounds, cover
):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params(
    [(4, h, "3/4", "Relentless", 4, 8, "open") for h in (2, 3, 4)]
    + [(3, h, "3/4", "Relentless", 3, 8, "open") for h in (5, 6)]
    + [(3, 4, "3/4", "Relentless, Balanced, Ceaseless", 3, 8, "open")]
)
def test_shoot_matches_bruteforce_relentless(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params(
    [(4, h, "3/5", "Lethal 5+", 4, 8, "open") for h in (2, 3, 4, 5, 6)]
    + [(4, h, "3/5", "Lethal 4+", 3, 8, "open") for h in (2, 3, 5)]
    + [(4, 3, "3/5", "Lethal 4+, Lethal 5+", 3, 8, "open")]
)
def test_shoot_matches_bruteforce_lethal(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params([(4, h, "3/4", "Punishing", 4, 8, "open") for h in (3, 4, 5)])
def test_shoot_matches_bruteforce_punishing(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params([(4, h, "3/5", "Rending", 4, 8, "open") for h in (2, 3, 4, 6)])
def test_shoot_matches_bruteforce_rending(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params([(4, h, "3/5", "Severe", 4, 8, "open") for h in (2, 3, 4, 6)])
def test_shoot_matches_bruteforce_severe(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params(
    [(4, 3, "3/4", "Brutal", s, 8, "open") for s in (2, 3, 4, 5, 6)]
    + [(4, 3, "3/4", "Brutal", 3, 8, "cover")]
)
def test_shoot_matches_bruteforce_brutal(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params([(4, 3, "3/4", "Shock", 3, 8, "open")])
def test_shoot_matches_bruteforce_shock(attacks, hit, damage, rules, save, wounds, cover):
    # Shock only acts on strikes: no effect on a shooting sequence
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params(
    [
        (4, 3, "3/4", "Devastating 1", 3, 8, "open"),
        (4, 4, "2/3", "Devastating 2", 4, 6, "open"),
        (4, 3, "2/3", "Devastating 2", 2, 6, "cover"),
        (4, 3, "3/4", 'Devastating 1, 2" Devastating 2', 3, 8, "open"),
        (3, 4, "0/0", "Devastating 3", 3, 3, "open"),
    ]
)
def test_shoot_matches_bruteforce_devastating(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params(
    [
        (4, 3, "3/4", '1" Devastating 2', 3, 8, "open"),
        (4, 3, "3/4", '2" Devastating 1', 3, 8, "obscured"),
    ]
)
def test_shoot_matches_bruteforce_area_devastating(
    attacks, hit, damage, rules, save, wounds, cover
):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params(
    [(4, 3, "3/4", f"Piercing {x}", s, 8, "open") for x in (1, 2) for s in (2, 4)]
    + [(3, 3, "3/4", "Piercing 3", 3, 8, "cover"), (4, 3, "3/4", "Piercing 1", 3, 8, "cover")]
)
def test_shoot_matches_bruteforce_piercing(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params(
    [(4, 3, "3/4", f"Piercing Crits {x}", s, 8, "open") for x in (1, 2) for s in (2, 4)]
    + [
        (4, 3, "3/4", "Piercing Crits 1", 3, 8, "cover"),
        (4, 3, "3/4", "Piercing 1, Piercing Crits 2", 3, 8, "open"),
        (4, 3, "3/4", "Piercing 2, Piercing Crits 1", 3, 8, "open"),
    ]
)
def test_shoot_matches_bruteforce_piercing_crits(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params(
    [
        (4, 3, "3/4", "Saturate", 3, 8, "cover"),
        (4, 3, "3/4", "Saturate", 3, 8, "open"),
        (4, 3, "3/4", "Saturate", 3, 8, "improved-best"),
        (4, 3, "3/4", "Saturate", 3, 8, "improved-two_normals"),
        (4, 3, "3/4", "Saturate", 3, 8, "cover+obscured"),
    ]
)
def test_shoot_matches_bruteforce_saturate(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params(
    [
        (4, 3, "3/4", "Stun", 3, 8, "open"),
        (4, 4, "3/4", "Stun, Lethal 5+", 3, 8, "open"),
        (4, 3, "3/4", "Stun", 3, 8, "obscured"),
        (4, 4, "3/4", "Stun, Severe", 3, 8, "open"),
    ]
)
def test_shoot_matches_bruteforce_stun(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params([(3, h, "4/5", "Hot", 3, 8, "open") for h in (2, 3, 4, 5, 6)])
def test_shoot_matches_bruteforce_hot(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


# --------------------------------------------------------------------------------------------
# Shooting: combinations
# --------------------------------------------------------------------------------------------


@shoot_params(
    [
        (4, 4, "3/5", "Lethal 5+, Rending, Punishing", 3, 8, "open"),
        (4, 3, "3/5", "Lethal 5+, Rending, Punishing", 4, 8, "cover"),
        (4, 4, "3/5", "Punishing, Rending", 4, 8, "open"),
        (4, 4, "3/5", "Severe, Piercing Crits 1", 3, 8, "open"),
        (4, 3, "3/5", "Severe, Piercing Crits 2", 2, 8, "cover"),
        (4, 4, "3/5", "Severe, Punishing, Rending", 3, 8, "open"),
        (4, 3, "3/4", "Severe, Devastating 2", 3, 8, "open"),
        (4, 4, "3/4", "Rending, Devastating 1, Piercing Crits 1", 3, 8, "open"),
        (4, 3, "3/4", "Relentless, Lethal 5+", 3, 8, "open"),
        (4, 4, "3/4", "Relentless, Lethal 4+, Rending", 3, 8, "open"),
        (4, 4, "3/4", "Ceaseless, Balanced, Lethal 5+", 3, 8, "open"),
        (4, 5, "3/4", "Ceaseless, Punishing", 3, 8, "open"),
        (4, 4, "3/4", "Balanced, Severe", 3, 8, "open"),
        (4, 5, "3/4", "Accurate 1, Balanced", 3, 8, "open"),
        (4, 4, "3/4", "Accurate 1, Ceaseless, Lethal 5+", 3, 8, "open"),
        (4, 4, "3/4", "Accurate 2, Relentless, Rending", 3, 8, "open"),
        (4, 4, "3/4", "Accurate 1, Severe", 3, 8, "open"),
        (4, 3, "3/4", "Brutal, Piercing 1, Lethal 5+", 3, 8, "open"),
        (4, 3, "3/4", "Brutal, Saturate", 4, 8, "cover"),
        (4, 3, "3/4", "Brutal", 3, 8, "improved-best"),
        (4, 3, "3/4", "Brutal", 3, 8, "improved-two_normals"),
        (4, 3, "3/4", "Hot, Lethal 5+, Piercing 1", 3, 8, "open"),
        (4, 3, "4/5", "Stun, Devastating 1, Rending", 3, 8, "open"),
    ]
)
def test_shoot_matches_bruteforce_combinations(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


# --------------------------------------------------------------------------------------------
# Shooting: cover, obscured, improved cover
# --------------------------------------------------------------------------------------------


@shoot_params(
    [(4, 3, "3/4", "", s, 8, "cover") for s in (2, 3, 4, 5, 6)]
    + [(4, 3, "3/4", "Piercing 2", 3, 8, "cover"), (4, 3, "3/4", "Piercing 3", 3, 8, "cover")]
)
def test_shoot_matches_bruteforce_cover(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params(
    [(4, h, "3/4", "", 4, 8, "obscured") for h in (2, 4, 6)]
    + [
        (4, 3, "3/4", "Devastating 2", 3, 8, "obscured"),
        (4, 3, "3/4", "Accurate 1", 3, 8, "obscured"),
        (3, 3, "3/4", "Accurate 2", 3, 8, "obscured"),
        (1, 3, "3/4", "Accurate 1", 3, 8, "obscured"),
        (4, 4, "3/4", "Lethal 5+, Rending, Punishing", 3, 8, "obscured"),
        (4, 4, "3/4", "Severe, Piercing Crits 2", 3, 8, "obscured"),
        (4, 4, "3/4", "Lethal 4+, Piercing Crits 1, Stun", 3, 8, "obscured"),
        (4, 4, "3/4", "Balanced, Ceaseless", 3, 8, "obscured"),
        (3, 4, "3/4", "Relentless", 3, 8, "obscured"),
        (4, 3, "3/4", "Piercing 1", 3, 8, "cover+obscured"),
        (4, 3, "3/4", "", 3, 8, "cover+obscured"),
        (4, 3, "3/4", "Lethal 5+", 3, 8, "improved-best+obscured"),
    ]
)
def test_shoot_matches_bruteforce_obscured(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params(
    [
        (4, 3, dmg, rules, s, 8, c)
        for c in ("improved-best", "improved-critical", "improved-two_normals")
        for dmg, rules, s in (
            ("3/4", "", 3),
            ("2/6", "", 4),
            ("3/4", "Piercing 1", 5),
            ("3/4", "Piercing 2", 3),
            ("3/4", "Lethal 4+, Piercing Crits 1", 3),
            ("1/5", "Lethal 5+", 2),
        )
    ]
    + [(4, 3, "2/4", "Devastating 1", 3, 8, "improved-best")]
)
def test_shoot_matches_bruteforce_improved_cover(attacks, hit, damage, rules, save, wounds, cover):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


@shoot_params([(4, 3, "3/4", "", 3, w, "open") for w in (1, 3, 4, 7, 12, 16, 17)])
def test_shoot_matches_bruteforce_kill_probability(
    attacks, hit, damage, rules, save, wounds, cover
):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


# --------------------------------------------------------------------------------------------
# Shooting: random sample of combinations (fixed seed)
# --------------------------------------------------------------------------------------------

_RULE_GROUPS: list[list[str]] = [
    ["Accurate 1", "Accurate 2"],
    ["Balanced", "Ceaseless", "Ceaseless, Balanced", "Relentless"],
    ["Lethal 5+", "Lethal 4+"],
    ["Punishing"],
    ["Rending"],
    ["Severe"],
    ["Brutal"],
    ["Devastating 1", "Devastating 2"],
    ["Piercing 1", "Piercing 2"],
    ["Piercing Crits 1", "Piercing Crits 2"],
    ["Saturate"],
    ["Stun"],
    ["Hot"],
    ["Shock"],
]


def _random_rules(rng: random.Random, most: int) -> str:
    groups = rng.sample(_RULE_GROUPS, rng.randint(0, most))
    return ", ".join(rng.choice(g) for g in groups)


def _random_shoot_cases(count: int, seed: int) -> list[tuple]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        rules = _random_rules(rng, 5)
        hit = rng.randint(2, 6)
        if "Relentless" in rules or "Ceaseless" in rules:
            attacks = rng.randint(1, 3 if hit >= 5 else 4)
        else:
            attacks = rng.randint(1, 5)
        nd = rng.randint(1, 5)
        cd = nd + rng.randint(0, 3)
        cover = rng.choice(list(COVER_STATES))
        cases.append(
            (attacks, hit, f"{nd}/{cd}", rules, rng.randint(2, 6), rng.randint(1, 16), cover)
        )
    return cases


@shoot_params(_random_shoot_cases(150, 1234))
def test_shoot_matches_bruteforce_random_combinations(
    attacks, hit, damage, rules, save, wounds, cover
):
    check_shoot(attacks, hit, damage, rules, save, wounds, cover)


# --------------------------------------------------------------------------------------------
# Fights
# --------------------------------------------------------------------------------------------

FIXED_PAIRS = [("strike", "strike"), ("block", "block"), ("strike", "block"), ("block", "strike")]
OPTIMAL_PAIRS = [
    ("optimal", "optimal"),
    ("optimal", "strike"),
    ("strike", "optimal"),
    ("optimal", "block"),
    ("block", "optimal"),
]

# (name, attacker (attacks, hit, damage, rules, wounds), defender (...))
FIGHT_MATCHUPS: list[tuple[str, FighterSpec, FighterSpec]] = [
    ("plain", (4, 3, "3/4", "", 10), (4, 4, "3/4", "", 9)),
    ("plain-fragile", (3, 3, "4/5", "", 5), (4, 4, "3/5", "", 6)),
    ("brutal", (4, 3, "3/4", "Brutal", 10), (4, 3, "3/4", "", 10)),
    ("brutal-both", (3, 3, "4/5", "Brutal", 8), (4, 4, "3/4", "Brutal", 8)),
    ("shock", (4, 3, "4/5", "Shock", 10), (4, 4, "3/4", "", 9)),
    ("shock-vs-brutal", (4, 3, "4/5", "Shock", 10), (4, 4, "3/4", "Brutal", 9)),
    ("shock-both-lethal", (3, 3, "3/5", "Shock, Lethal 5+", 8), (3, 3, "3/5", "Shock", 8)),
    ("devastating", (4, 3, "3/4", "Devastating 2", 10), (4, 4, "3/4", "", 9)),
    ("devastating-kills", (4, 3, "2/3", "Devastating 3", 6), (3, 3, "2/3", "Devastating 3", 5)),
    ("lethal-rending", (4, 4, "3/5", "Lethal 5+, Rending", 9), (4, 4, "3/4", "Punishing", 9)),
    ("severe-vs-accurate", (4, 4, "3/5", "Severe", 9), (4, 5, "3/4", "Accurate 1", 9)),
    ("rerolls", (4, 4, "3/4", "Ceaseless, Balanced", 9), (3, 4, "3/4", "Relentless", 9)),
    ("stun", (4, 3, "3/4", "Stun", 9), (4, 4, "3/4", "Stun, Lethal 5+", 9)),
    ("no-retaliation", (4, 3, "3/4", "Shock", 7), (0, 4, "3/4", "", 7)),
    ("one-wound", (3, 4, "2/3", "", 1), (3, 4, "2/3", "Brutal", 2)),
    ("five-dice", (5, 3, "3/4", "Lethal 5+", 12), (5, 4, "2/5", "Shock", 11)),
    ("shooting-rules-ignored", (4, 3, "3/4", "Piercing 2, Saturate", 9), (3, 4, "3/4", "Hot", 9)),
    ("nobody-retaliates", (0, 3, "3/4", "", 5), (0, 4, "3/4", "", 5)),
    ("accurate-severe", (3, 5, "3/5", "Accurate 2, Severe", 8), (4, 4, "2/4", "Rending", 8)),
]


def _fight_params(pairs: list[tuple[str, str]], firsts: tuple[str, ...]) -> pytest.MarkDecorator:
    return pytest.mark.parametrize(
        "attacker,defender,policy,defender_policy,first",
        [
            pytest.param(a, d, p, q, f, id=_id(name, f"{p}-vs-{q}", f"{f}-first"))
            for name, a, d in FIGHT_MATCHUPS
            for p, q in pairs
            for f in firsts
        ],
    )


@_fight_params(FIXED_PAIRS, ("attacker", "defender"))
def test_fight_matches_bruteforce_fixed_policies(
    attacker, defender, policy, defender_policy, first
):
    check_fight(attacker, defender, policy, defender_policy, first)


@_fight_params(OPTIMAL_PAIRS, ("attacker", "defender"))
def test_fight_matches_bruteforce_optimal_objective(
    attacker, defender, policy, defender_policy, first
):
    check_fight(attacker, defender, policy, defender_policy, first)


def _random_fight_cases(count: int, seed: int) -> list:
    rng = random.Random(seed)
    melee_groups = [
        g for g in _RULE_GROUPS if not any(r.startswith(("Piercing", "Saturate", "Hot")) for r in g)
    ]
    cases = []
    for k in range(count):
        specs = []
        for _ in range(2):
            groups = rng.sample(melee_groups, rng.randint(0, 3))
            rules = ", ".join(rng.choice(g) for g in groups)
            hit = rng.randint(2, 5)
            attacks = rng.randint(1, 3 if "Relentless" in rules or "Ceaseless" in rules else 4)
            nd = rng.randint(1, 4)
            specs.append(
                (attacks, hit, f"{nd}/{nd + rng.randint(0, 3)}", rules, rng.randint(1, 12))
            )
        pairs = FIXED_PAIRS + OPTIMAL_PAIRS
        p, q = pairs[rng.randrange(len(pairs))]
        f = rng.choice(("attacker", "defender"))
        sides = [f"A{a}H{h}+D{d}W{w}" + (f"[{r}]" if r else "") for a, h, d, r, w in specs]
        name = _id(f"r{k}", f"{sides[0]}-vs-{sides[1]}", f"{p}-vs-{q}", f"{f}-first")
        cases.append(pytest.param(specs[0], specs[1], p, q, f, id=name))
    return cases


@pytest.mark.parametrize(
    "attacker,defender,policy,defender_policy,first", _random_fight_cases(80, 1234)
)
def test_fight_matches_bruteforce_random_combinations(
    attacker, defender, policy, defender_policy, first
):
    check_fight(attacker, defender, policy, defender_policy, first)
