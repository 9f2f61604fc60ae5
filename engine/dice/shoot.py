"""Exact shooting resolution (``rules/KT24.md`` sections 4.5, 4.7, 5.1, 6).

After the attack roll (:mod:`engine.dice.attack`):

- Defence dice: 3 less Piercing x; Piercing Crits x instead when any crit was retained (the
  larger x is used: a weapon gains no benefit from the same rule twice, section 6).
- Cover save: a target in cover may retain one defence die as a normal success without
  rolling (none with Saturate). Improved cover (Vantage against a Conceal target in Light
  terrain, section 4.7): one cover save retained as a critical success, or two normal cover
  saves; cover saves come out of the defence dice collected. Retaining them is the
  defender's choice, made after seeing the retained attack dice: by default the option of
  least expected damage (declining can be better: a normal cover save cannot block a lone
  crit, nor anything against Brutal, where a rolled 6 could).
- Saves succeed on Save or more, 6 is a critical save, a 1 fails.
- The defender allocates saves **optimally** (least damage): a normal save blocks a normal
  success, two normal saves block a crit, a critical save blocks either. Against Brutal only
  critical saves block (the rule's text applies to every block). In a battle the allocation
  is the defender's decision (``allocate_saves``, :mod:`engine.game.allocation`) whenever
  two allocations differ in effect; this module assumes the defender takes the least-damage
  one, which the decision lists first and which is the best under the core rules (least
  damage is also least chance of incapacitation, the damage being capped at the wounds). A
  team rule that changes the damage of single dice (a shield generator, Iron Halo) can make
  another allocation better: the distributions here do not model team rules.
- Damage: each unblocked normal deals normal damage, each unblocked crit critical damage,
  and Devastating x deals x per retained crit whether or not it is later blocked.

The reported damage is what the attack inflicts, not capped at the target's wounds.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import attrs

from engine.dice.attack import AttackRoll, attack_roll_reference
from engine.dice.kernel import attack_outcomes, shoot_weights
from engine.dice.pmf import Pmf
from engine.dice.profile import DEFENCE_DICE, AttackProfile, Target

__all__ = [
    "ShootResult",
    "cover_saves",
    "defence_dice",
    "defence_roll",
    "hot_damage",
    "shoot",
    "shoot_reference",
    "unblocked",
]


@lru_cache(maxsize=64)
def defence_roll(dice: int, save: int) -> tuple[tuple[int, int, int], ...]:
    """Distribution of (normal saves, critical saves, weight) for ``dice`` rolled defence
    dice, weights over ``6 ** DEFENCE_DICE`` (padded so that every count shares a total).

    Args:
        dice: defence dice rolled (0..3). save: Save threshold 2..6.
    """
    fail_w, normal_w, crit_w = save - 1, 6 - save, 1
    pad = 6 ** (DEFENCE_DICE - dice) if dice <= DEFENCE_DICE else 1
    acc: dict[tuple[int, int], int] = {}
    from math import factorial

    fm = factorial(dice)
    for i in range(dice + 1):
        for j in range(dice - i + 1):
            k = dice - i - j
            w = (
                fm
                // (factorial(i) * factorial(j) * factorial(k))
                * fail_w**i
                * normal_w**j
                * crit_w**k
            )
            if w:
                acc[(j, k)] = acc.get((j, k), 0) + w * pad
    return tuple((j, k, w) for (j, k), w in sorted(acc.items()))


@lru_cache(maxsize=65536)
def unblocked(
    normals: int, crits: int, normal_saves: int, crit_saves: int, nd: int, cd: int, brutal: bool
) -> tuple[int, int]:
    """The defender's optimal allocation of saves (section 5.1 step 5): the one the engine
    applies when no other allocation differs in effect, and lists first when the defender
    chooses (:mod:`engine.game.allocation`).

    Args:
        normals, crits: the attacker's retained successes.
        normal_saves, crit_saves: the defender's retained saves (cover saves included).
        nd, cd: normal and critical damage, which the allocation minimises.
        brutal: only critical saves may block.

    Returns:
        ``(unblocked normals, unblocked crits)`` of least damage; among equal damage, the
        one with the fewest normal-save pairs spent on crits.
    """
    if brutal:
        normal_saves = 0
    # For a fixed number y of normal-save pairs spent on crits the rest is greedy: the other
    # normal saves can only block normals, and each crit save blocks exactly one die, so it
    # goes to the costlier kind first (crits on equal damage).
    best_damage = -1
    best = (0, 0)
    crits_first = cd >= nd
    for y in range(min(normal_saves // 2, crits) + 1):
        uc = crits - y
        un = normals - (normal_saves - 2 * y)
        if un < 0:
            un = 0
        k = crit_saves
        if crits_first:
            used = k if k < uc else uc
            uc -= used
            k -= used
            un = un - k if un > k else 0
        else:
            used = k if k < un else un
            un -= used
            k -= used
            uc = uc - k if uc > k else 0
        damage = un * nd + uc * cd
        if best_damage < 0 or damage < best_damage:
            best_damage, best = damage, (un, uc)
    return best


def hot_damage(hit: int) -> Pmf[int]:
    """Self-damage of a Hot weapon (section 6): one D6 after the attack; a result below the
    weapon's Hit deals 2 x the result to the user.

    Args:
        hit: the Hit threshold used (2..6).
    """
    weights: dict[int, int] = {0: 6 - (hit - 1)}
    for face in range(1, hit):
        weights[2 * face] = weights.get(2 * face, 0) + 1
    return Pmf.from_weights(weights, 6)


@attrs.frozen(slots=True)
class ShootResult:
    """Exact outcome of one shooting attack sequence against one target.

    Attributes:
        damage: pmf of the total damage inflicted (Devastating included, not capped).
        retained: pmf of the attacker's retained ``(normals, crits)`` after the roll step.
        unblocked: pmf of ``(normals, crits)`` left unblocked after saves.
        wounds: the target's wounds, for :attr:`kill_probability`.
        stun_probability: P(Stun takes effect) (0 without Stun).
        piercing_crits_probability: P(Piercing Crits is triggered, i.e. a crit is retained)
            (0 without the rule; it removes dice only where its x exceeds plain Piercing).
        hot: self-damage pmf of Hot, or ``None``.
        area_damage: pmf of the damage of ``d" Devastating x`` to each other operative in the
            area, or ``None``.
    """

    damage: Pmf[int]
    retained: Pmf[tuple[int, int]]
    unblocked: Pmf[tuple[int, int]]
    wounds: int
    stun_probability: Fraction
    piercing_crits_probability: Fraction
    hot: Pmf[int] | None
    area_damage: Pmf[int] | None

    @property
    def expected_damage(self) -> Fraction:
        """Exact expected damage."""
        return self.damage.mean()

    @property
    def kill_probability(self) -> Fraction:
        """Exact P(damage >= wounds)."""
        return self.damage.at_least(self.wounds)

    @property
    def retained_crits(self) -> Pmf[int]:
        """Pmf of the number of critical successes retained (drives Stun, Devastating,
        Piercing Crits)."""
        weights: dict[int, int] = {}
        for (_, c), w in self.retained.weights:
            weights[c] = weights.get(c, 0) + w
        return Pmf.from_weights(weights, self.retained.total)

    @property
    def crit_probability(self) -> Fraction:
        """Exact P(at least one critical success retained)."""
        return Fraction(sum(w for (_, c), w in self.retained.weights if c), self.retained.total)


def _cover_options(target: Target, saturate: bool) -> tuple[tuple[int, int], ...]:
    """The cover-save options as (normal cover saves, critical cover saves), in order of
    preference on ties. Retaining cover saves is optional ("can retain", section 5.1 step 4),
    so under ``"best"`` the defender also weighs retaining fewer or none: a normal cover save
    cannot block a crit alone or anything against Brutal, where a rolled 6 could."""
    if saturate or not (target.in_cover or target.improved_cover):
        return ((0, 0),)
    choice = target.cover_choice
    if choice == "none":
        return ((0, 0),)
    if not target.improved_cover:
        return ((1, 0), (0, 0)) if choice == "best" else ((1, 0),)
    forced = {"critical": (0, 1), "two_normals": (2, 0), "normal": (1, 0)}
    if choice in forced:
        return (forced[choice],)
    # A critical cover save is worth at least one normal cover save or one rolled die, so
    # under "best" retaining one normal or none never beats it: two options remain.
    return ((0, 1), (2, 0))


def defence_dice(profile: AttackProfile, crits: int) -> int:
    """Defence dice the target collects (3 less Piercing, or Piercing Crits with a crit)."""
    rules = profile.rules.dice
    pierce = rules.piercing
    if crits and rules.piercing_crits > pierce:
        pierce = rules.piercing_crits
    return max(0, DEFENCE_DICE - pierce)


def _defence_outcomes(
    normals: int,
    crits: int,
    profile: AttackProfile,
    save: int,
    options: tuple[tuple[int, int], ...],
) -> list[tuple[int, int, int, int]]:
    """Rows ``(damage, unblocked normals, unblocked crits, weight over 216)`` for one
    retained attack outcome, under the cover-save option of least expected damage."""
    rules = profile.rules.dice
    nd, cd, brutal = profile.normal_damage, profile.critical_damage, rules.brutal
    extra = rules.devastating * crits
    dice = defence_dice(profile, crits)
    if not crits and not brutal and len(options) == 2 and options[1] == (0, 0):
        # Declining a normal cover save only helps where a rolled 6 would block what a
        # normal save cannot: a crit, or anything against Brutal. Here it cannot.
        options = options[:1]
    best: tuple[int, list[tuple[int, int, int, int]]] | None = None
    for cover_n, cover_c in options:
        cover_c = min(cover_c, dice)
        cover_n = min(cover_n, dice - cover_c)
        rows: list[tuple[int, int, int, int]] = []
        total = 0
        for sn, sc, sw in defence_roll(dice - cover_n - cover_c, save):
            un, uc = unblocked(normals, crits, sn + cover_n, sc + cover_c, nd, cd, brutal)
            dmg = un * nd + uc * cd + extra
            rows.append((dmg, un, uc, sw))
            total += dmg * sw
        if best is None or total < best[0]:
            best = (total, rows)
    assert best is not None
    return best[1]


def cover_saves(
    profile: AttackProfile, target: Target, normals: int, crits: int
) -> tuple[int, int]:
    """The cover saves the defender retains against this retained attack outcome.

    Returns:
        ``(normal cover saves, critical cover saves)``, limited to the defence dice; for
        ``cover_choice="best"`` the option of least expected damage, ties going to
        the first of: critical, two normals, one normal, none.
    """
    options = _cover_options(target, profile.rules.dice.saturate)
    dice = defence_dice(profile, crits)
    if len(options) == 1:
        cover_n, cover_c = options[0]
    else:
        expected = []
        for cover_n, cover_c in options:
            rows = _defence_outcomes(normals, crits, profile, target.save, ((cover_n, cover_c),))
            expected.append(sum(dmg * sw for dmg, _, _, sw in rows))
        cover_n, cover_c = options[expected.index(min(expected))]
    cover_c = min(cover_c, dice)
    return min(cover_n, dice - cover_c), cover_c


def shoot(profile: AttackProfile, target: Target, *, cache: bool = True) -> ShootResult:
    """Exact distribution of one shooting attack sequence (section 5.1).

    Args:
        profile: the ranged weapon profile (attacks, Hit, damage, weapon rules).
        target: Save, wounds, cover and obscured state of the target.
        cache: reuse the result of an earlier call with equal arguments (results are
            immutable, so sharing them is safe).

    Returns:
        A :class:`ShootResult` with exact pmfs (integer weights over ``6**(2*dice) * 216``).
    """
    if cache:
        return _shoot_cached(profile, target)
    return _shoot(profile, target)


@lru_cache(maxsize=4096)
def _shoot_cached(profile: AttackProfile, target: Target) -> ShootResult:
    return _shoot(profile, target)


_ZERO = Fraction(0)


def _shoot(profile: AttackProfile, target: Target) -> ShootResult:
    """The fast kernel (:mod:`engine.dice.kernel`): weights identical to
    :func:`shoot_reference`'s, every one of them computed afresh."""
    rules = profile.rules.dice
    attacks = profile.attacks
    outcomes, roll_total = attack_outcomes(attacks, profile.hit, rules, target.obscured)
    options = _cover_options(target, rules.saturate)
    damage, left = shoot_weights(
        outcomes,
        attacks,
        profile.normal_damage,
        profile.critical_damage,
        rules,
        target.save,
        options,
    )
    total = roll_total * 6**DEFENCE_DICE
    stun = pc = _ZERO
    if rules.stun or rules.piercing_crits:
        crit_w = sum(w for (_, c), w in outcomes if c)
        if rules.stun:
            stun = Fraction(crit_w, roll_total)
        if rules.piercing_crits:
            pc = Fraction(crit_w, roll_total)
    area = None
    dev = rules.devastating
    if dev and rules.devastating_distance is not None:
        area_w: dict[int, int] = {}
        for (_, c), w in outcomes:
            area_w[dev * c] = area_w.get(dev * c, 0) + w
        area = Pmf(tuple(sorted(area_w.items())), roll_total)
    return ShootResult(
        damage=Pmf(tuple(damage), total),
        retained=Pmf(tuple(outcomes), roll_total),
        unblocked=Pmf(tuple(left), total),
        wounds=target.wounds,
        stun_probability=stun,
        piercing_crits_probability=pc,
        hot=hot_damage(profile.hit) if rules.hot else None,
        area_damage=area,
    )


def shoot_reference(profile: AttackProfile, target: Target) -> ShootResult:
    """The reference computation of :func:`shoot` (no cache of its own; slower): the
    kernel's results are checked against it, weight for weight."""
    rules = profile.rules.dice
    roll: AttackRoll = attack_roll_reference(profile, obscured=target.obscured)
    save = target.save
    options = _cover_options(target, rules.saturate)
    damage: dict[int, int] = {}
    left: dict[tuple[int, int], int] = {}
    stun_w = pc_w = 0
    dev = rules.devastating
    for normals, crits, w in roll.outcomes:
        if crits:
            if rules.stun:
                stun_w += w
            if rules.piercing_crits:
                pc_w += w
        for dmg, un, uc, sw in _defence_outcomes(normals, crits, profile, save, options):
            ww = w * sw
            damage[dmg] = damage.get(dmg, 0) + ww
            left[(un, uc)] = left.get((un, uc), 0) + ww
    total = roll.total * 6**DEFENCE_DICE
    retained = Pmf.from_weights({(n, c): w for n, c, w in roll.outcomes}, roll.total)
    area = None
    if dev and rules.devastating_distance is not None:
        area_w: dict[int, int] = {}
        for _, c, w in roll.outcomes:
            area_w[dev * c] = area_w.get(dev * c, 0) + w
        area = Pmf.from_weights(area_w, roll.total)
    return ShootResult(
        damage=Pmf.from_weights(damage, total),
        retained=retained,
        unblocked=Pmf.from_weights(left, total),
        wounds=target.wounds,
        stun_probability=Fraction(stun_w, roll.total),
        piercing_crits_probability=Fraction(pc_w, roll.total),
        hot=hot_damage(profile.hit) if rules.hot else None,
        area_damage=area,
    )
