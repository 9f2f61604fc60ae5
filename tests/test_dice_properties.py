"""Hypothesis properties of the dice core (``rules/KT24.md`` sections 2.4, 4.5, 5, 6).

Distributions are well formed; the rules are monotone where the rules text makes them so
(more dice, better saves, beneficial weapon rules, obscured, cover); the optimal fight
policy is never worse than striking; fight damage stays within wounds; joint and marginal
pmfs agree. Small brute-force oracles written from the rules text (enumerating every face,
every re-roll and every save allocation) cross-check the exact distributions.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction as F
from functools import cache
from itertools import product

import attrs
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.dice import AttackProfile, Fighter, Pmf, Target, attack_roll, fight, shoot

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FIGHTS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------------------------
# Strategies
# --------------------------------------------------------------------------------------------


@attrs.frozen
class Spec:
    """A weapon profile as plain data, so tests can add rules and the oracles can read it."""

    attacks: int
    hit: int
    nd: int
    cd: int
    flags: frozenset[str] = frozenset()  # Balanced, Ceaseless, Relentless, Punishing, ...
    lethal: int | None = None
    accurate: int = 0
    piercing: int = 0
    piercing_crits: int = 0
    devastating: int = 0

    def rules(self) -> str:
        parts = sorted(self.flags)
        if self.lethal is not None:
            parts.append(f"Lethal {self.lethal}+")
        if self.accurate:
            parts.append(f"Accurate {self.accurate}")
        if self.piercing:
            parts.append(f"Piercing {self.piercing}")
        if self.piercing_crits:
            parts.append(f"Piercing Crits {self.piercing_crits}")
        if self.devastating:
            parts.append(f"Devastating {self.devastating}")
        return ", ".join(parts)

    def profile(self) -> AttackProfile:
        return AttackProfile.parse(self.attacks, self.hit, f"{self.nd}/{self.cd}", self.rules())

    def plus(self, *flags: str, **changes: object) -> Spec:
        return attrs.evolve(self, flags=self.flags | set(flags), **changes)  # type: ignore[arg-type]


SHOOT_FLAGS = [
    "Balanced",
    "Ceaseless",
    "Relentless",
    "Punishing",
    "Rending",
    "Severe",
    "Brutal",
    "Saturate",
    "Stun",
    "Hot",
]
FIGHT_FLAGS = [
    "Balanced",
    "Ceaseless",
    "Relentless",
    "Punishing",
    "Rending",
    "Severe",
    "Brutal",
    "Shock",
    "Stun",
]


@st.composite
def specs(
    draw: st.DrawFn,
    *,
    max_attacks: int = 5,
    flags: Iterable[str] = SHOOT_FLAGS,
    ranged: bool = True,
) -> Spec:
    nd = draw(st.integers(1, 5))
    return Spec(
        attacks=draw(st.integers(0, max_attacks)),
        hit=draw(st.integers(2, 6)),
        nd=nd,
        cd=draw(st.integers(nd, nd + 4)),  # a crit is never worth less than a normal
        flags=frozenset(draw(st.sets(st.sampled_from(list(flags)), max_size=4))),
        lethal=draw(st.none() | st.integers(2, 6)),
        accurate=draw(st.integers(0, 2)),
        piercing=draw(st.integers(0, 2)) if ranged else 0,
        piercing_crits=draw(st.integers(0, 2)) if ranged else 0,
        devastating=draw(st.integers(0, 2)),
    )


@st.composite
def targets(draw: st.DrawFn) -> Target:
    improved = draw(st.booleans())
    return Target(
        save=draw(st.integers(2, 6)),
        wounds=draw(st.integers(1, 14)),
        in_cover=draw(st.booleans()),
        obscured=draw(st.booleans()),
        improved_cover=improved,
        cover_choice=draw(st.sampled_from(["best", "critical", "two_normals"])),
    )


def fighters(max_attacks: int = 4) -> st.SearchStrategy[tuple[Spec, int]]:
    return st.tuples(
        specs(max_attacks=max_attacks, flags=FIGHT_FLAGS, ranged=False), st.integers(1, 12)
    )


def ev(spec: Spec, tgt: Target) -> F:
    return shoot(spec.profile(), tgt).expected_damage


def assert_pmf(pmf: Pmf[object]) -> None:
    assert pmf.total > 0
    assert all(w > 0 for _, w in pmf.weights)
    assert sum(w for _, w in pmf.weights) == pmf.total
    assert sum(p for _, p in pmf) == 1
    assert list(pmf.outcomes()) == sorted(pmf.outcomes())  # type: ignore[type-var]


# --------------------------------------------------------------------------------------------
# Well-formed distributions
# --------------------------------------------------------------------------------------------


@FAST
@given(specs(), targets())
def test_shoot_pmfs_sum_to_one(spec: Spec, tgt: Target) -> None:
    result = shoot(spec.profile(), tgt)
    for pmf in (result.damage, result.retained, result.unblocked, result.hot, result.area_damage):
        if pmf is not None:
            assert_pmf(pmf)
    assert 0 <= result.stun_probability <= 1
    assert 0 <= result.piercing_crits_probability <= 1
    assert 0 <= result.kill_probability <= 1
    assert all(d >= 0 for d in result.damage.outcomes())
    # Unblocked successes never exceed those retained; retained never exceed attack dice.
    assert all(n + c <= spec.attacks for n, c in result.retained.outcomes())
    most = max(n + c for n, c in result.retained.outcomes())
    assert all(n + c <= most for n, c in result.unblocked.outcomes())


@FAST
@given(specs(max_attacks=6))
def test_attack_roll_weights_sum_to_total(spec: Spec) -> None:
    for obscured in (False, True):
        roll = attack_roll(spec.profile(), obscured=obscured)
        assert sum(w for _, _, w in roll.outcomes) == roll.total
        # (Zero weights can appear, e.g. Balanced at Hit 6+ lists (1, 0) with weight 0; the
        # Pmf built from them drops those.)
        assert all(w >= 0 and n >= 0 and c >= 0 for n, c, w in roll.outcomes)
        assert len({(n, c) for n, c, _ in roll.outcomes}) == len(roll.outcomes)
        assert all(n + c <= spec.attacks for n, c, w in roll.outcomes if w)
        if obscured:
            assert all(c == 0 for _, c, _ in roll.outcomes)


@FIGHTS
@given(
    fighters(),
    fighters(),
    st.sampled_from(["optimal", "strike", "block"]),
    st.sampled_from(["optimal", "strike", "block"]),
    st.sampled_from(["attacker", "defender"]),
)
def test_fight_pmfs_well_formed(
    a: tuple[Spec, int], b: tuple[Spec, int], pa: str, pb: str, first: str
) -> None:
    (sa, wa), (sb, wb) = a, b
    result = fight(
        Fighter(sa.profile(), wa),
        Fighter(sb.profile(), wb),
        policy=pa,
        defender_policy=pb,
        first=first,
    )
    for pmf in (result.joint, result.attacker.damage_taken, result.defender.damage_taken):
        assert_pmf(pmf)
    # Wounds never go negative: damage taken lies in [0, wounds].
    assert all(0 <= d <= wa for d in result.attacker.damage_taken.outcomes())
    assert all(0 <= d <= wb for d in result.defender.damage_taken.outcomes())
    # Resolution stops when one fighter is incapacitated: never both unless Devastating
    # took both out at once, before any die was resolved.
    if not (sa.devastating and sb.devastating):
        assert result.joint.probability((wa, wb)) == 0 or min(wa, wb) == 0
    # Joint marginals equal the per-fighter pmfs.
    marg_a: dict[int, F] = {}
    marg_b: dict[int, F] = {}
    for (ta, tb), p in result.joint:
        marg_a[ta] = marg_a.get(ta, F(0)) + p
        marg_b[tb] = marg_b.get(tb, F(0)) + p
    assert marg_a == result.attacker.damage_taken.to_fractions()
    assert marg_b == result.defender.damage_taken.to_fractions()
    assert 0 <= result.attacker.stunned_probability <= 1
    assert 0 <= result.defender.stunned_probability <= 1


# --------------------------------------------------------------------------------------------
# Monotonicity in shooting
# --------------------------------------------------------------------------------------------


@FAST
@given(specs(max_attacks=5), targets())
def test_more_attack_dice_never_lower_expected_damage(spec: Spec, tgt: Target) -> None:
    more = attrs.evolve(spec, attacks=spec.attacks + 1)
    assert ev(more, tgt) >= ev(spec, tgt)


@FAST
@given(specs(), targets())
def test_better_save_never_raises_expected_damage(spec: Spec, tgt: Target) -> None:
    if tgt.save == 2:
        return
    better = attrs.evolve(tgt, save=tgt.save - 1)
    assert ev(spec, better) <= ev(spec, tgt)


@FAST
@given(
    specs(),
    targets(),
    st.sampled_from(
        [
            "Lethal 5+",
            "Rending",
            "Balanced",
            "Relentless",
            "Punishing",
            "Ceaseless",
            "Piercing 1",
            "Piercing Crits 1",
            "Devastating 1",
        ]
    ),
)
def test_beneficial_rule_never_lowers_expected_damage(spec: Spec, tgt: Target, rule: str) -> None:
    if rule == "Lethal 5+":
        added = spec.plus(lethal=5 if spec.lethal is None else min(spec.lethal, 5))
    elif rule == "Piercing 1":
        added = spec.plus(piercing=max(spec.piercing, 1))
    elif rule == "Piercing Crits 1":
        added = spec.plus(piercing_crits=max(spec.piercing_crits, 1))
    elif rule == "Devastating 1":
        added = spec.plus(devastating=max(spec.devastating, 1))
    else:
        added = spec.plus(rule)
    assert ev(added, tgt) >= ev(spec, tgt)


@FAST
@given(specs(), targets())
def test_obscured_never_raises_expected_damage(spec: Spec, tgt: Target) -> None:
    clear = attrs.evolve(tgt, obscured=False)
    obscured = attrs.evolve(tgt, obscured=True)
    assert ev(spec, obscured) <= ev(spec, clear)


@FAST
@given(specs(), targets())
@example(  # 1 die at Hit 6+, Piercing 2: no cover 5/9, forced cover 2/3
    Spec(1, 6, 3, 4, piercing=2), Target(save=4, wounds=10)
)
@example(  # found by hypothesis: Hit 2+, 1/1, Piercing Crits 2, Save 2+: 23/162 vs 1/6
    Spec(1, 2, 1, 1, piercing_crits=2), Target(save=2, wounds=1)
)
def test_cover_never_raises_expected_damage(spec: Spec, tgt: Target) -> None:
    # Cover saves are optional (KT24 Shoot step 4, "can retain"), so with the defender's
    # default "best" choice cover can never raise expected damage.
    open_ = attrs.evolve(tgt, in_cover=False, improved_cover=False)
    covered = attrs.evolve(tgt, in_cover=True, improved_cover=False, cover_choice="best")
    assert ev(spec, covered) <= ev(spec, open_)


@FAST
@given(specs(), targets())
def test_improved_cover_never_raises_expected_damage_over_cover(spec: Spec, tgt: Target) -> None:
    # Improved cover (best choice) offers a critical cover save, which blocks whatever the
    # normal cover save could block.
    covered = attrs.evolve(tgt, in_cover=True, improved_cover=False)
    improved = attrs.evolve(tgt, in_cover=True, improved_cover=True, cover_choice="best")
    assert ev(spec, improved) <= ev(spec, covered)


@FAST
@given(specs(), targets())
def test_damage_is_at_most_all_successes_unblocked(spec: Spec, tgt: Target) -> None:
    # No shot can do more than every attack die as an unblocked crit plus Devastating.
    result = shoot(spec.profile(), tgt)
    top = spec.attacks * (spec.cd + spec.devastating)
    assert max(result.damage.outcomes()) <= top


# --------------------------------------------------------------------------------------------
# Fights: optimal never does worse than strike
# --------------------------------------------------------------------------------------------


@FIGHTS
@given(fighters(), fighters(), st.sampled_from(["attacker", "defender"]))
def test_optimal_attacker_never_worse_than_strike(
    a: tuple[Spec, int], b: tuple[Spec, int], first: str
) -> None:
    (sa, wa), (sb, wb) = a, b
    fa, fb = Fighter(sa.profile(), wa), Fighter(sb.profile(), wb)
    best = fight(fa, fb, policy="optimal", defender_policy="optimal", first=first)
    for fixed in ("strike", "block"):
        other = fight(fa, fb, policy=fixed, defender_policy="optimal", first=first)
        assert best.expected_objective >= other.expected_objective


@FIGHTS
@given(fighters(), fighters(), st.sampled_from(["attacker", "defender"]))
def test_optimal_defender_never_worse_than_strike(
    a: tuple[Spec, int], b: tuple[Spec, int], first: str
) -> None:
    (sa, wa), (sb, wb) = a, b
    fa, fb = Fighter(sa.profile(), wa), Fighter(sb.profile(), wb)
    best = fight(fa, fb, policy="optimal", defender_policy="optimal", first=first)
    for fixed in ("strike", "block"):
        other = fight(fa, fb, policy="optimal", defender_policy=fixed, first=first)
        assert best.expected_objective <= other.expected_objective


@FIGHTS
@given(fighters(), fighters())
def test_fight_reuse_flag_does_not_change_result(a: tuple[Spec, int], b: tuple[Spec, int]) -> None:
    (sa, wa), (sb, wb) = a, b
    fa, fb = Fighter(sa.profile(), wa), Fighter(sb.profile(), wb)
    assert fight(fa, fb, reuse=True) == fight(fa, fb, reuse=False)


# --------------------------------------------------------------------------------------------
# Brute-force oracles written from the rules text
# --------------------------------------------------------------------------------------------


@cache
def oracle_attack(spec: Spec, obscured: bool) -> dict[tuple[int, int], F]:
    """Enumerate every face of every rolled die and every re-roll (section 2.4, 5.1, 6).

    Re-roll policies (the engine's documented defaults): Relentless re-rolls every fail;
    Ceaseless re-rolls every die showing the most common failing face, then Balanced (if
    present) one other fail; Balanced alone one fail.
    """
    flags = spec.flags
    auto = min(spec.accurate, spec.attacks)
    m = spec.attacks - auto
    crit_from = 6 if spec.lethal is None else max(spec.hit, spec.lethal)

    def kind(face: int) -> str:
        if face == 1 or face < spec.hit:
            return "F"
        return "C" if face >= crit_from else "N"

    out: dict[tuple[int, int], F] = {}
    for faces in product(range(1, 7), repeat=m):
        fails = [i for i, f in enumerate(faces) if kind(f) == "F"]
        if "Relentless" in flags:
            again = fails
        elif "Ceaseless" in flags:
            counts = {f: sum(1 for i in fails if faces[i] == f) for f in {faces[i] for i in fails}}
            again = []
            if counts:
                value = max(counts, key=lambda f: counts[f])
                again = [i for i in fails if faces[i] == value]
            if "Balanced" in flags:
                rest = [i for i in fails if i not in again]
                again = again + rest[:1]
        elif "Balanced" in flags:
            again = fails[:1]
        else:
            again = []
        for new in product(range(1, 7), repeat=len(again)):
            final = list(faces)
            for i, f in zip(again, new, strict=True):
                final[i] = f
            kinds = [kind(f) for f in final]
            n_fail, n, c = kinds.count("F"), kinds.count("N") + auto, kinds.count("C")
            if obscured:
                n, c = max(n + c - 1, 0), 0
            elif c:
                if "Punishing" in flags and n_fail:
                    n += 1
                if "Rending" in flags and n:
                    n, c = n - 1, c + 1
            elif "Severe" in flags and n:
                n, c = n - 1, 1
            p = F(1, 6 ** (m + len(again)))
            out[(n, c)] = out.get((n, c), F(0)) + p
    return out


@cache
def least_damage(n: int, c: int, ns: int, cs: int, nd: int, cd: int, brutal: bool) -> int:
    """Try every allocation of saves, one save at a time (section 5.1 step 5)."""
    best = n * nd + c * cd
    if cs:
        if c:
            best = min(best, least_damage(n, c - 1, ns, cs - 1, nd, cd, brutal))
        if n:
            best = min(best, least_damage(n - 1, c, ns, cs - 1, nd, cd, brutal))
    if ns and not brutal:
        if n:
            best = min(best, least_damage(n - 1, c, ns - 1, cs, nd, cd, brutal))
        if c and ns >= 2:
            best = min(best, least_damage(n, c - 1, ns - 2, cs, nd, cd, brutal))
    return best


def oracle_shoot(spec: Spec, tgt: Target) -> F:
    """Expected damage: every defence face enumerated, saves allocated by brute force."""
    flags = spec.flags
    total = F(0)
    for (n, c), p in oracle_attack(spec, tgt.obscured).items():
        pierce = spec.piercing
        if c and spec.piercing_crits:
            pierce = max(pierce, spec.piercing_crits)
        dice = max(0, 3 - pierce)
        if "Saturate" in flags or not (tgt.in_cover or tgt.improved_cover):
            options = [(0, 0)]
        elif not tgt.improved_cover:
            # Cover saves are optional ("can retain"): "best" also weighs declining.
            options = [(1, 0), (0, 0)] if tgt.cover_choice == "best" else [(1, 0)]
        else:
            options = {"critical": [(0, 1)], "two_normals": [(2, 0)]}.get(
                tgt.cover_choice, [(0, 1), (2, 0), (1, 0), (0, 0)]
            )
        values = []
        for cn, cc in options:
            cn, cc = min(cn, dice), min(cc, dice)
            value = F(0)
            rolled = dice - cn - cc
            for faces in product(range(1, 7), repeat=rolled):
                ns = cn + sum(1 for f in faces if tgt.save <= f < 6)
                cs = cc + sum(1 for f in faces if f == 6)
                dmg = least_damage(n, c, ns, cs, spec.nd, spec.cd, "Brutal" in flags)
                value += F(dmg + spec.devastating * c, 6**rolled)
            values.append(value)
        total += p * min(values)
    return total


KILL = 4096


def oracle_fight_value(sa: Spec, wa0: int, sb: Spec, wb0: int, first: str) -> F:
    """Expected objective of optimal-vs-optimal play by explicit minimax (section 5.2).

    Objective (attacker maximises): KILL * ([defender out] - [attacker out]) + damage to the
    defender - damage to the attacker, damage counted up to wounds.
    """
    nd = {"a": sa.nd, "b": sb.nd}
    cd = {"a": sa.cd, "b": sb.cd}
    brutal = {"a": "Brutal" in sa.flags, "b": "Brutal" in sb.flags}
    other = {"a": "b", "b": "a"}
    sign = {"a": 1, "b": -1}

    @cache
    def solve(
        dice: tuple[tuple[int, int], tuple[int, int]],
        wounds: tuple[int, int],
        shock: tuple[bool, bool],
        mover: str,
    ) -> int:
        """Value of the rest; dice/wounds/shock are (attacker, defender)."""
        idx = {"a": 0, "b": 1}
        me, opp = idx[mover], idx[other[mover]]
        (mn, mc), (on, oc) = dice[me], dice[opp]
        if not (mn or mc):
            if not (on or oc):
                return 0
            return solve(dice, wounds, shock, other[mover])  # the other resolves the rest
        options = []

        def put(mine: tuple[int, int], theirs: tuple[int, int]) -> tuple[tuple[int, int], ...]:
            pair = [None, None]
            pair[me], pair[opp] = mine, theirs
            return tuple(pair)  # type: ignore[return-value]

        # Strike with a normal or a crit.
        for is_crit in (False, True):
            if (mc if is_crit else mn) == 0:
                continue
            dmg = cd[mover] if is_crit else nd[mover]
            left = wounds[opp]
            if dmg >= left:
                options.append(sign[mover] * (KILL + left))
                continue
            new_w = list(wounds)
            new_w[opp] = left - dmg
            mine = (mn, mc - 1) if is_crit else (mn - 1, mc)
            theirs = (on, oc)
            new_shock = list(shock)
            if is_crit and shock[me]:
                theirs = (on - 1, oc) if on else (on, oc - 1) if oc else theirs
                new_shock[me] = False
            rest = solve(put(mine, theirs), tuple(new_w), tuple(new_shock), other[mover])
            options.append(sign[mover] * dmg + rest)
        # Block: a normal blocks a normal (not against Brutal); a crit blocks either.
        if mn and on and not brutal[other[mover]]:
            options.append(solve(put((mn - 1, mc), (on - 1, oc)), wounds, shock, other[mover]))
        if mc and on:
            options.append(solve(put((mn, mc - 1), (on - 1, oc)), wounds, shock, other[mover]))
        if mc and oc:
            options.append(solve(put((mn, mc - 1), (on, oc - 1)), wounds, shock, other[mover]))
        return max(options) if mover == "a" else min(options)

    total = F(0)
    for (an, ac), pa in oracle_attack(sa, False).items():
        for (bn, bc), pb in oracle_attack(sb, False).items():
            to_b, to_a = sa.devastating * ac, sb.devastating * bc
            wa, wb = wa0 - to_a, wb0 - to_b
            if wa <= 0 or wb <= 0:
                ta, tb = min(to_a, wa0), min(to_b, wb0)
                value = KILL * ((tb >= wb0) - (ta >= wa0)) + tb - ta
            else:
                shock = ("Shock" in sa.flags and ac > 0, "Shock" in sb.flags and bc > 0)
                value = (
                    to_b
                    - to_a
                    + solve(
                        ((an, ac), (bn, bc)), (wa, wb), shock, "a" if first == "attacker" else "b"
                    )
                )
            total += pa * pb * value
    return total


ORACLE = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@ORACLE
@given(specs(max_attacks=3), st.booleans())
def test_attack_roll_matches_brute_force(spec: Spec, obscured: bool) -> None:
    roll = attack_roll(spec.profile(), obscured=obscured)
    got = {(n, c): F(w, roll.total) for n, c, w in roll.outcomes if w}
    assert got == oracle_attack(spec, obscured)


@ORACLE
@given(specs(max_attacks=3), targets())
def test_shoot_expected_damage_matches_brute_force(spec: Spec, tgt: Target) -> None:
    assert ev(spec, tgt) == oracle_shoot(spec, tgt)


@ORACLE
@given(fighters(max_attacks=3), fighters(max_attacks=3), st.sampled_from(["attacker", "defender"]))
def test_fight_objective_matches_brute_force_minimax(
    a: tuple[Spec, int], b: tuple[Spec, int], first: str
) -> None:
    (sa, wa), (sb, wb) = a, b
    result = fight(Fighter(sa.profile(), wa), Fighter(sb.profile(), wb), first=first)
    assert result.expected_objective == oracle_fight_value(sa, wa, sb, wb, first)
