"""Exact KT21 fights (``rules/KT21.md`` 11, 12, 16.16).

Both fighters roll their attack dice at once (:mod:`engine.dice.kt21_roll`; WS improved by 1
per supporting operative, :class:`~engine.dice.kt21_profile.Kt21Fighter`). Then, starting
with the attacker, they alternate resolving one hit each: **strike** (normal or critical
damage) or **parry** (a normal hit parries a normal hit, a critical hit parries either;
against Brutal only critical hits parry). When one side has no hits left the other strikes
with the rest; resolution stops at once when either is incapacitated. KT21 parry is KT24's
block, so the resolution is the shared resolver of both editions
(:class:`engine.dice.fight.Resolver`: the same objective, incapacitate first, then trade
damage; the same packed values and tie-breaks) given the KT21 strike/parry rules
(:class:`Kt21Resolver`):

- Stun (12): a fighter's **first** critical strike also discards one of the opponent's
  **normal** hits (none when it has only critical hits, unlike KT24 Shock); its **second**
  critical strike costs the opponent 1 APL (:attr:`FighterOutcome.stunned_probability`,
  measured on the line of play the optimal policies take; the APL loss is not in the
  objective).
- "A parry discards two" (16.16): a normal parry discards two normal hits, a critical parry
  any two hits.

No saves are rolled in a fight; MWx, Splash, AP, P and the other shooting rules do nothing
(:func:`engine.dice.kt21_shoot.not_modelled` lists them, with Reap, whose mortal wounds go to
other operatives). A parry with nothing to parry (allowed, 16.21) is never considered.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs

from engine.dice.fight import (
    FighterOutcome,
    FightResult,
    Resolver,
    cached_resolver,
    check_wounds,
    fight_objective,
    marginals,
    unpack,
)
from engine.dice.kt21_profile import Kt21Fighter
from engine.dice.kt21_roll import kt21_roll
from engine.dice.kt21_shoot import not_modelled
from engine.dice.pmf import Pmf

__all__ = ["Kt21FightResult", "Kt21Matchup", "Kt21Resolver", "crit_strikes", "kt21_fight"]


class Kt21Resolver(Resolver):
    """The shared strike/parry resolver (:class:`engine.dice.fight.Resolver`) with the KT21
    rules (module docstring): Stun as the edition's Shock that discards only a normal hit,
    and "a parry discards two" as a block of two.

    Args:
        nd_a, cd_a / nd_b, cd_b: damage of attacker / defender.
        stun_a, stun_b: the weapon has Stun. parry_two_a, parry_two_b: a parry discards two.
        common: ``brutal_a``, ``brutal_b`` (the opponent parries only with crits),
            ``policy_a``, ``policy_b`` (:data:`engine.dice.fight.POLICIES`), ``max_states``
            (:data:`engine.dice.fight.MAX_FIGHT_STATES`), as :class:`Resolver`.

    Raises:
        ProfileError: an unknown policy.
        TypeError: an argument :class:`Resolver` does not take.
    """

    def __init__(
        self,
        nd_a: int,
        cd_a: int,
        nd_b: int,
        cd_b: int,
        *,
        stun_a: bool = False,
        stun_b: bool = False,
        parry_two_a: bool = False,
        parry_two_b: bool = False,
        **common: Any,
    ) -> None:
        super().__init__(
            nd_a,
            cd_a,
            nd_b,
            cd_b,
            shock_a=stun_a,
            shock_b=stun_b,
            shock_discards_crit=False,
            block_two_a=parry_two_a,
            block_two_b=parry_two_b,
            **common,
        )


def crit_strikes(
    resolver: Resolver, an: int, ac: int, bn: int, bc: int, wa: int, wb: int, sa: bool, sb: bool
) -> tuple[int, int]:
    """Critical strikes ``(by attacker, by defender)`` on the line of play ``resolver``'s
    policies take from this position (the first best move of
    :meth:`~engine.dice.fight.Resolver.children` at each step), attacker first; a fighter
    incapacitated loses no APL, so the strikes against it are not counted (the KT21 Stun's
    second critical strike, module docstring).

    Raises:
        FightTooLargeError: as :meth:`engine.dice.fight.Resolver.solve`.
    """
    counts = [0, 0]
    a_turn = True
    nd_a, cd_a, nd_b, cd_b = resolver.nd_a, resolver.cd_a, resolver.nd_b, resolver.cd_b
    while an or ac or bn or bc:
        if not (an or ac) or not (bn or bc):
            # The rest strike; a fighter they incapacitate loses no APL: not counted.
            counts[0] += ac if an * nd_a + ac * cd_a < wb else 0
            counts[1] += bc if bn * nd_b + bc * cd_b < wa else 0
            break
        children = resolver.children(an, ac, bn, bc, wa, wb, sa, sb, a_turn)
        target = resolver.solve(an, ac, bn, bc, wa, wb, sa, sb, a_turn)
        move = next(m for m, v in children if v == target)
        dn, dc, xn, xc, dmg, crit, _ = move
        side = 0 if a_turn else 1
        counts[side] += crit
        if a_turn:
            an, ac, bn, bc, wb = an - dn, ac - dc, bn - xn, bc - xc, wb - dmg
            sa = sa and not crit
        else:
            bn, bc, an, ac, wa = bn - dn, bc - dc, an - xn, ac - xc, wa - dmg
            sb = sb and not crit
        if wa <= 0 or wb <= 0:  # incapacitated: it loses no APL
            counts[side] = 0
            break
        a_turn = not a_turn
    return counts[0], counts[1]


class Kt21Matchup:
    """A KT21 fight before the dice: both fighters, the policies and the resolver (the
    shared :func:`engine.dice.fight.cached_resolver` with the KT21 rules, as
    :class:`Kt21Resolver`).

    Args:
        attacker, defender, policy, defender_policy: as :func:`kt21_fight`.

    Raises:
        ProfileError: an unknown policy, or wounds of 4096 or more.
    """

    def __init__(
        self,
        attacker: Kt21Fighter,
        defender: Kt21Fighter,
        *,
        policy: str = "optimal",
        defender_policy: str | None = None,
    ) -> None:
        check_wounds(attacker.wounds, defender.wounds)
        self.attacker, self.defender = attacker, defender
        self.policies = (policy, policy if defender_policy is None else defender_policy)
        pa, pb = attacker.effective, defender.effective
        self.stun = (pa.rules.has("Stun"), pb.rules.has("Stun"))
        brutal = (pa.rules.has("Brutal"), pb.rules.has("Brutal"))
        dmg = (pa.normal_damage, pa.critical_damage, pb.normal_damage, pb.critical_damage)
        self.solver: Resolver = cached_resolver(
            *dmg,
            *brutal,
            *self.stun,
            *self.policies,
            shock_discards_crit=False,
            block_two_a=attacker.parry_two,
            block_two_b=defender.parry_two,
        )

    def damage_taken(self, an: int, ac: int, bn: int, bc: int) -> tuple[int, int, bool, bool]:
        """``(damage taken by attacker, by defender, attacker stunned, defender stunned)``,
        damage counted up to the wounds, once the attacker retained ``an`` normal and ``ac``
        critical hits and the defender ``bn`` and ``bc`` ("stunned": the opponent's Stun made
        a second critical strike)."""
        wa, wb = self.attacker.wounds, self.defender.wounds
        sa, sb = self.stun
        packed = self.solver.solve(an, ac, bn, bc, wa, wb, sa, sb, True)
        _, dealt_a, dealt_b = unpack(packed)
        stun_a = stun_b = False
        if sa or sb:
            ka, kb = crit_strikes(self.solver, an, ac, bn, bc, wa, wb, sa, sb)
            stun_b, stun_a = sa and ka >= 2, sb and kb >= 2
        return dealt_b, dealt_a, stun_a, stun_b


@attrs.frozen(slots=True)
class Kt21FightResult(FightResult):
    """Exact outcome of a KT21 fight: a :class:`engine.dice.fight.FightResult` (each
    fighter's ``stunned_probability``: the opponent's Stun cost it 1 APL) and the rules
    these odds do not apply.

    Attributes:
        not_modelled: the rules of ``(attacker's, defender's)`` weapons these odds do not
            apply (:func:`engine.dice.kt21_shoot.not_modelled`).
    """

    not_modelled: tuple[tuple[str, ...], tuple[str, ...]]


def kt21_fight(
    attacker: Kt21Fighter,
    defender: Kt21Fighter,
    *,
    policy: str = "optimal",
    defender_policy: str | None = None,
) -> Kt21FightResult:
    """Exact distribution of a KT21 fight (``rules/KT21.md`` 11).

    Args:
        attacker: the active operative (its melee profile, wounds, combat support).
        defender: the target (``attacks`` 0 when it has no melee weapon, 16.17).
        policy: the attacker's resolution policy (:data:`engine.dice.fight.POLICIES`).
        defender_policy: the defender's; defaults to ``policy``.

    Raises:
        ProfileError: an unknown policy, wounds of 4096 or more.
        FightTooLargeError: the resolution needs more than
            :data:`engine.dice.fight.MAX_FIGHT_STATES` positions.
    """
    matchup = Kt21Matchup(attacker, defender, policy=policy, defender_policy=defender_policy)
    return _exact(matchup)


def _exact(matchup: Kt21Matchup) -> Kt21FightResult:
    a, b = matchup.attacker, matchup.defender
    roll_a, roll_b = kt21_roll(a.effective), kt21_roll(b.effective)
    joint: dict[tuple[int, int], int] = {}
    stun_on: list[int] = [0, 0]
    objective = 0
    taken: Callable[[int, int, int, int], tuple[int, int, bool, bool]] = matchup.damage_taken
    # The 1s (Hot) do not matter in a fight: merge the rows.
    rows_a = _merge(roll_a.outcomes)
    rows_b = _merge(roll_b.outcomes)
    for (an, ac), w_a in rows_a.items():
        for (bn, bc), w_b in rows_b.items():
            ta, tb, sa, sb = taken(an, ac, bn, bc)
            w = w_a * w_b
            joint[(ta, tb)] = joint.get((ta, tb), 0) + w
            stun_on[0] += w * sa
            stun_on[1] += w * sb
            objective += w * fight_objective(ta, tb, a.wounds, b.wounds)
    total = roll_a.total * roll_b.total
    pmf_a, pmf_b = marginals(joint, total)
    return Kt21FightResult(
        attacker=FighterOutcome(pmf_a, a.wounds, Fraction(stun_on[0], total)),
        defender=FighterOutcome(pmf_b, b.wounds, Fraction(stun_on[1], total)),
        joint=Pmf.from_weights(joint, total),
        expected_objective=Fraction(objective, total),
        policies=matchup.policies,
        not_modelled=(
            not_modelled(a.profile.rules, melee=True),
            not_modelled(b.profile.rules, melee=True),
        ),
    )


def _merge(outcomes: tuple[tuple[int, int, int, int], ...]) -> dict[tuple[int, int], int]:
    out: dict[tuple[int, int], int] = {}
    for n, c, _, w in outcomes:
        out[(n, c)] = out.get((n, c), 0) + w
    return out
