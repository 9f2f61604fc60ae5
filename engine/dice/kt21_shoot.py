"""Exact KT21 shooting attacks (``rules/KT21.md`` 10, 12).

After the attack roll (:mod:`engine.dice.kt21_roll`):

- Mortal wounds: MWx and Splash x each inflict x per critical hit retained on the target
  (before saves; the critical hits still resolve). Splash also hits every other operative
  Visible to and within 2" of the target: :attr:`Kt21ShootResult.splash_damage`.
- Defence dice (10.1 step 4): DF less APx, or less Px when a critical hit was retained (AP and
  P never add: the larger counts), never below 0; saves on SV. Or, with an invulnerable save
  (10.3), all DF dice at the invulnerable threshold, AP and P ignored.
- Cover save (10.2): a target in Cover may retain one of those dice as a normal save without
  rolling, unless the weapon has No Cover, or Indirect (the digest's reading of UNCONFIRMED
  point 10: an Indirect target "is not in Cover"). With no die left after AP, none.
- Saves: SV (or the invulnerable x) or more saves, a 6 is a critical save, a 1 fails; a cover
  save with SV 6+ is still a normal save (16.19).
- The defender's choices, made after seeing the retained attack dice and before rolling:
  SV or invulnerable save, and whether to retain the cover save, by default the option of
  least expected damage (ties: SV before invulnerable, retaining before declining;
  :func:`defence_choice`). Declining the cover save can be better: a normal save cannot block
  a lone critical hit, a rolled 6 can.
- Allocation (10.1 step 5): the defender's optimal one, shared with KT24
  (:func:`engine.dice.shoot.unblocked`: a normal save blocks a normal hit, two normal saves a
  critical hit, a critical save either).
- Damage: normal damage per unblocked normal hit, critical damage per unblocked critical hit,
  plus the mortal wounds. Not capped at the target's wounds.
- Stun (12): P(a critical hit is retained), the target then loses 1 APL. Hot (12): 3 mortal
  wounds to the shooter per 1 discarded (:attr:`Kt21ShootResult.hot`).

Rules that act beyond one attack's dice (Rng, Blast, Torrent, Fusillade, Heavy, Limited,
Silent, Unwieldy, Barrage's cover test, team rules) are listed in
:attr:`Kt21ShootResult.not_modelled` (:func:`not_modelled`), never silently dropped.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

import attrs

from engine.dice.kt21_profile import Kt21Attack, Kt21Defender
from engine.dice.kt21_roll import kt21_roll
from engine.dice.kt21_rules import Kt21WeaponRules
from engine.dice.pmf import Pmf
from engine.dice.shoot import unblocked

__all__ = [
    "DefenceChoice",
    "Kt21ShootResult",
    "best_save",
    "defence_choice",
    "defence_dice",
    "kt21_defence_roll",
    "kt21_shoot",
    "kt21_shoot_pmf",
    "mortal_wounds_per_crit",
    "not_modelled",
    "resolve_saves",
]

_OUTSIDE_SHOOT = {
    "Rng": "which targets are valid (the game checks the range)",
    "Blast": "attacks on the other operatives near the target (the game resolves them)",
    "Torrent": "attacks on further targets (the game resolves them)",
    "Fusillade": "splitting the attack dice between targets (the game resolves it)",
    "Heavy": "when the weapon may be used (the game checks)",
    "Limited": "when the weapon may be used (the game checks)",
    "Silent": "when the weapon may be used (the game checks)",
    "Unwieldy": "the AP cost of the Shoot action (the game applies it)",
    "Barrage": "where the cover save comes from (give in_cover)",
    "Brutal": "a melee rule: no effect on a shooting attack",
    "Reap": "a melee rule: no effect on a shooting attack",
}
_OUTSIDE_FIGHT = {
    "Rng": "a shooting rule: no effect in a fight",
    "Blast": "a shooting rule: no effect in a fight",
    "Torrent": "a shooting rule: no effect in a fight",
    "Fusillade": "a shooting rule: no effect in a fight",
    "Heavy": "a shooting rule: no effect in a fight",
    "Silent": "a shooting rule: no effect in a fight",
    "Unwieldy": "a shooting rule: no effect in a fight",
    "Barrage": "a shooting rule: no effect in a fight",
    "Indirect": "a shooting rule: no effect in a fight",
    "No Cover": "a shooting rule: no effect in a fight",
    "AP": "a shooting rule (no saves in a fight)",
    "P": "a shooting rule (no saves in a fight)",
    "MW": "a shooting rule (its mortal wounds come in a shooting attack's roll)",
    "Splash": "a shooting rule (its mortal wounds come in a shooting attack's roll)",
    "Hot": "a shooting rule: no effect in a fight",
    "Limited": "when the weapon may be used (the game checks)",
    "Reap": "mortal wounds to other enemies near the striker (the game applies them)",
}


def not_modelled(rules: Kt21WeaponRules, *, melee: bool) -> tuple[str, ...]:
    """The weapon's rules that the dice of one attack (``melee`` False) or one fight (True)
    do not apply, each as ``"Rule: why"`` (``rules/KT21.md`` 12); team rules (``X*``) are
    always listed. An empty tuple means every rule is in the odds."""
    table = _OUTSIDE_FIGHT if melee else _OUTSIDE_SHOOT
    out: list[str] = []
    for rule in rules:
        if rule.team:
            out.append(f"{rule.name}*: a team rule, not modelled by the dice core")
        elif rule.name in table:
            out.append(f"{rule.format()}: {table[rule.name]}")
    return tuple(out)


def mortal_wounds_per_crit(profile: Kt21Attack) -> int:
    """Mortal wounds the target suffers per critical hit retained: MWx plus Splash x
    (``rules/KT21.md`` 12)."""
    return profile.number("MW") + profile.number("Splash")


def defence_dice(profile: Kt21Attack, defender: Kt21Defender, crits: int) -> int:
    """Defence dice with SV: DF less the larger of APx and (with a critical hit retained) Px,
    never below 0 (``rules/KT21.md`` 10.1 step 4)."""
    ap = profile.number("AP")
    if crits:
        ap = max(ap, profile.number("P"))
    return max(0, defender.defence - ap)


@lru_cache(maxsize=256)
def kt21_defence_roll(dice: int, save: int, pad_to: int) -> tuple[tuple[int, int, int], ...]:
    """``(normal saves, critical saves, weight)`` for ``dice`` defence dice at ``save``+,
    weights over ``6 ** pad_to`` (``pad_to >= dice``): a 6 is a critical save, ``save`` to 5
    a normal save, the rest fail (``rules/KT21.md`` 10.1 step 4)."""
    fail_w, normal_w = save - 1, 6 - save
    pad = 6 ** (pad_to - dice)
    out = []
    for k in range(dice + 1):  # critical saves
        for j in range(dice - k + 1):  # normal saves
            i = dice - k - j
            w = comb(dice, k) * comb(dice - k, j) * normal_w**j * fail_w**i
            if w:
                out.append((j, k, w * pad))
    return tuple(sorted(out))


@attrs.frozen(slots=True)
class DefenceChoice:
    """How the defender meets one retained attack roll (``rules/KT21.md`` 10.1 step 4, 10.3).

    Attributes:
        invulnerable: the invulnerable save is used instead of SV.
        threshold: the save threshold rolled against (SV or the invulnerable x).
        dice: defence dice collected (after AP/P unless invulnerable).
        cover: a cover save is retained (one of ``dice``, a normal save, not rolled).
        expected_damage: the exact expected damage under this choice (mortal wounds
            included).
    """

    invulnerable: bool
    threshold: int
    dice: int
    cover: bool
    expected_damage: Fraction

    @property
    def rolled(self) -> int:
        """Defence dice actually rolled."""
        return self.dice - int(self.cover)


def resolve_saves(
    profile: Kt21Attack, normals: int, crits: int, normal_saves: int, crit_saves: int
) -> tuple[int, int, int]:
    """The defender's optimal allocation of saves (``rules/KT21.md`` 10.1 steps 5-6).

    Args:
        profile: the weapon (its damage; KT21 has no Brutal in shooting).
        normals, crits: the attacker's retained hits.
        normal_saves, crit_saves: the defender's saves (cover save included).

    Returns:
        ``(unblocked normals, unblocked crits, damage)``, the damage without mortal wounds.
    """
    nd, cd = profile.normal_damage, profile.critical_damage
    un, uc = unblocked(normals, crits, normal_saves, crit_saves, nd, cd, False)
    return un, uc, un * nd + uc * cd


def _options(
    profile: Kt21Attack, defender: Kt21Defender, crits: int
) -> list[tuple[bool, int, int, bool]]:
    """``(invulnerable, threshold, dice, cover)`` options allowed, in order of preference."""
    kinds: list[tuple[bool, int, int]] = []
    if defender.save_choice != "invulnerable":
        kinds.append((False, defender.save, defence_dice(profile, defender, crits)))
    if defender.invulnerable and defender.save_choice != "save":
        kinds.append((True, defender.invulnerable, defender.defence))
    rules = profile.rules
    cover_ok = defender.in_cover and not rules.has("No Cover") and not rules.has("Indirect")
    out: list[tuple[bool, int, int, bool]] = []
    for inv, threshold, dice in kinds:
        covers = [False]
        if cover_ok and dice and defender.cover_choice != "decline":
            covers = [True] if defender.cover_choice == "retain" else [True, False]
        out.extend((inv, threshold, dice, cover) for cover in covers)
    return out


def _rows(
    profile: Kt21Attack,
    defender: Kt21Defender,
    normals: int,
    crits: int,
    option: tuple[bool, int, int, bool],
) -> list[tuple[int, int, int, int]]:
    """``(damage, unblocked normals, unblocked crits, weight over 6**DF)`` under ``option``."""
    _, threshold, dice, cover = option
    mw = mortal_wounds_per_crit(profile) * crits
    rows = []
    for sn, sc, sw in kt21_defence_roll(dice - int(cover), threshold, defender.defence):
        un, uc, dmg = resolve_saves(profile, normals, crits, sn + int(cover), sc)
        rows.append((dmg + mw, un, uc, sw))
    return rows


def _choose(
    profile: Kt21Attack, defender: Kt21Defender, normals: int, crits: int
) -> tuple[tuple[bool, int, int, bool], list[tuple[int, int, int, int]], int]:
    best: tuple[tuple[bool, int, int, bool], list[tuple[int, int, int, int]], int] | None = None
    for option in _options(profile, defender, crits):
        rows = _rows(profile, defender, normals, crits, option)
        total = sum(d * w for d, _, _, w in rows)
        if best is None or total < best[2]:
            best = (option, rows, total)
    assert best is not None
    return best


def defence_choice(
    profile: Kt21Attack, defender: Kt21Defender, normals: int, crits: int
) -> DefenceChoice:
    """The defender's choice against a retained roll of ``normals`` normal and ``crits``
    critical hits: SV or invulnerable save, cover save or not (module docstring; forced by
    ``defender.save_choice`` / ``cover_choice``). The game's attack sequence asks this before
    the defence dice are rolled."""
    (inv, threshold, dice, cover), _, total = _choose(profile, defender, normals, crits)
    return DefenceChoice(inv, threshold, dice, cover, Fraction(total, 6**defender.defence))


def best_save(profile: Kt21Attack, defender: Kt21Defender, normals: int, crits: int) -> str:
    """``"invulnerable"`` or ``"save"``: which the defender rolls against this retained roll
    (least expected damage, ties to SV; ``rules/KT21.md`` 10.3)."""
    return (
        "invulnerable" if defence_choice(profile, defender, normals, crits).invulnerable else "save"
    )


@attrs.frozen(slots=True)
class Kt21ShootResult:
    """Exact outcome of one KT21 shooting attack against one target.

    Attributes:
        damage: pmf of the damage the target suffers (mortal wounds included, not capped).
        mortal_wounds: pmf of the mortal wounds alone (MWx and Splash on the target).
        retained: pmf of the retained ``(normals, crits)``.
        unblocked: pmf of ``(normals, crits)`` left after saves.
        wounds: the target's wounds, for :attr:`kill_probability`.
        stun_probability: P(Stun takes effect: a critical hit retained), 0 without Stun.
        p_probability: P(Px is triggered), 0 without Px.
        invulnerable_probability: P(the defender uses its invulnerable save).
        cover_probability: P(the defender retains a cover save).
        hot: pmf of the mortal wounds the shooter suffers from Hot (3 per 1 discarded), or
            ``None``.
        splash_damage: pmf of the mortal wounds of Splash to each other operative within 2"
            of the target, or ``None``.
        not_modelled: the weapon's rules these odds do not apply (:func:`not_modelled`).
    """

    damage: Pmf[int]
    mortal_wounds: Pmf[int]
    retained: Pmf[tuple[int, int]]
    unblocked: Pmf[tuple[int, int]]
    wounds: int
    stun_probability: Fraction
    p_probability: Fraction
    invulnerable_probability: Fraction
    cover_probability: Fraction
    hot: Pmf[int] | None
    splash_damage: Pmf[int] | None
    not_modelled: tuple[str, ...]

    @property
    def expected_damage(self) -> Fraction:
        """Exact expected damage."""
        return self.damage.mean()

    @property
    def kill_probability(self) -> Fraction:
        """Exact P(damage >= wounds): the target is incapacitated."""
        return self.damage.at_least(self.wounds)

    @property
    def crit_probability(self) -> Fraction:
        """Exact P(at least one critical hit retained)."""
        return Fraction(sum(w for (_, c), w in self.retained.weights if c), self.retained.total)


def kt21_shoot(profile: Kt21Attack, defender: Kt21Defender) -> Kt21ShootResult:
    """Exact distribution of one KT21 shooting attack (``rules/KT21.md`` 10.1).

    Args:
        profile: the ranged weapon (A, BS after modifiers, D, rules).
        defender: DF, SV, W, invulnerable save, in Cover, and its choice policies.

    Returns:
        A :class:`Kt21ShootResult`; weights over ``6 ** (2 * A) * 6 ** DF``.
    """
    return _shoot(profile, defender)


@lru_cache(maxsize=2048)
def _shoot(profile: Kt21Attack, defender: Kt21Defender) -> Kt21ShootResult:
    roll = kt21_roll(profile)
    per = mortal_wounds_per_crit(profile)
    splash = profile.number("Splash")
    damage: dict[int, int] = {}
    left: dict[tuple[int, int], int] = {}
    retained: dict[tuple[int, int], int] = {}
    mortal: dict[int, int] = {}
    hot: dict[int, int] = {}
    area: dict[int, int] = {}
    inv_w = cover_w = 0
    for normals, crits, ones, w in roll.outcomes:
        retained[(normals, crits)] = retained.get((normals, crits), 0) + w
        mortal[per * crits] = mortal.get(per * crits, 0) + w
        hot[3 * ones] = hot.get(3 * ones, 0) + w
        area[splash * crits] = area.get(splash * crits, 0) + w
        (inv, _, _, cover), rows, _ = _choose(profile, defender, normals, crits)
        inv_w += w * inv
        cover_w += w * cover
        for dmg, un, uc, sw in rows:
            ww = w * sw
            damage[dmg] = damage.get(dmg, 0) + ww
            left[(un, uc)] = left.get((un, uc), 0) + ww
    total = roll.total * 6**defender.defence
    rules = profile.rules
    crit_p = Fraction(roll.crit_weight(), roll.total)
    return Kt21ShootResult(
        damage=Pmf.from_weights(damage, total),
        mortal_wounds=Pmf.from_weights(mortal, roll.total),
        retained=Pmf.from_weights(retained, roll.total),
        unblocked=Pmf.from_weights(left, total),
        wounds=defender.wounds,
        stun_probability=crit_p if rules.has("Stun") else Fraction(0),
        p_probability=crit_p if profile.number("P") else Fraction(0),
        invulnerable_probability=Fraction(inv_w, roll.total),
        cover_probability=Fraction(cover_w, roll.total),
        hot=Pmf.from_weights(hot, roll.total) if rules.has("Hot") else None,
        splash_damage=Pmf.from_weights(area, roll.total) if splash else None,
        not_modelled=not_modelled(rules, melee=False),
    )


def kt21_shoot_pmf(profile: Kt21Attack, defender: Kt21Defender) -> Pmf[int]:
    """The exact pmf of the damage of one KT21 shooting attack (:func:`kt21_shoot`)."""
    return kt21_shoot(profile, defender).damage
