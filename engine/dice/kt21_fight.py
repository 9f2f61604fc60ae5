"""Exact KT21 fights (``rules/KT21.md`` 11, 12, 16.16).

Both fighters roll their attack dice at once (:mod:`engine.dice.kt21_roll`; WS improved by 1
per supporting operative, :class:`~engine.dice.kt21_profile.Kt21Fighter`). Then, starting
with the attacker, they alternate resolving one hit each: **strike** (normal or critical
damage) or **parry** (a normal hit parries a normal hit, a critical hit parries either;
against Brutal only critical hits parry). When one side has no hits left the other strikes
with the rest; resolution stops at once when either is incapacitated. KT21 parry is KT24's
block, so the optimal resolution is KT24's (:class:`engine.dice.fight.Resolver`, the same
objective: incapacitate first, then trade damage), used as is whenever no KT21-only rule is
in play. Two rules need this module's own resolver (same objective, same packed values, same
tie-breaks, so both agree wherever both apply):

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

import sys
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

import attrs

from engine.dice.fight import (
    KILL_VALUE,
    MAX_FIGHT_STATES,
    POLICIES,
    FighterOutcome,
    FightTooLargeError,
    Resolver,
    unpack,
)
from engine.dice.kt21_profile import Kt21Fighter
from engine.dice.kt21_roll import kt21_roll
from engine.dice.kt21_shoot import not_modelled
from engine.dice.pmf import Pmf
from engine.errors import ProfileError

__all__ = ["Kt21FightResult", "Kt21Matchup", "Kt21Resolver", "kt21_fight"]

_BITS = 12  # the packing of engine.dice.fight.Resolver: value << 24 | dealt_a << 12 | dealt_b
_VSHIFT = 2 * _BITS

# A move: (own normals spent, own crits spent, opponent normals discarded, opponent crits
# discarded, damage dealt, is a critical strike, is a strike).
Move = tuple[int, int, int, int, int, bool, bool]


def _pack(value: int, dealt_a: int, dealt_b: int) -> int:
    return (value << _VSHIFT) + (dealt_a << _BITS) + dealt_b


class Kt21Resolver:
    """Optimal (or fixed-policy) strike/parry resolution with KT21 Stun and "parry discards
    two" (module docstring). Positions and values as :class:`engine.dice.fight.Resolver`.

    Args:
        nd_a, cd_a / nd_b, cd_b: damage of attacker / defender.
        brutal_a, brutal_b: the weapon is Brutal (the opponent parries only with crits).
        stun_a, stun_b: the weapon has Stun. parry_two_a, parry_two_b: a parry discards two.
        policy_a, policy_b: one of :data:`engine.dice.fight.POLICIES`.
        max_states: memo bound (:data:`engine.dice.fight.MAX_FIGHT_STATES`).

    Raises:
        ProfileError: an unknown policy.
    """

    def __init__(
        self,
        nd_a: int,
        cd_a: int,
        nd_b: int,
        cd_b: int,
        *,
        brutal_a: bool = False,
        brutal_b: bool = False,
        stun_a: bool = False,
        stun_b: bool = False,
        parry_two_a: bool = False,
        parry_two_b: bool = False,
        policy_a: str = "optimal",
        policy_b: str = "optimal",
        max_states: int | None = MAX_FIGHT_STATES,
    ) -> None:
        for p in (policy_a, policy_b):
            if p not in POLICIES:
                raise ProfileError(f"unknown fight policy {p!r}; choose from {', '.join(POLICIES)}")
        self.dmg = ((nd_a, cd_a), (nd_b, cd_b))
        self.normal_parry = (not brutal_b, not brutal_a)
        self.stun = (stun_a, stun_b)
        self.parry_two = (parry_two_a, parry_two_b)
        self.policy = (policy_a, policy_b)
        self.memo: dict[tuple[int, ...], int] = {}
        self.limit = sys.maxsize if max_states is None else max_states

    def moves(
        self, side: int, own: tuple[int, int], opp: tuple[int, int], stun: bool
    ) -> list[Move]:
        """The moves of ``side`` (0 attacker, 1 defender) in order: strike normal, strike
        crit, normal parry, crit parries (normals first); a fixed policy keeps one."""
        on, oc = own
        pn, pc = opp
        nd, cd = self.dmg[side]
        two = 2 if self.parry_two[side] else 1
        out: list[Move] = []
        if on:
            out.append((1, 0, 0, 0, nd, False, True))
        if oc:
            out.append((0, 1, 1 if stun and pn else 0, 0, cd, True, True))
        if on and pn and self.normal_parry[side]:
            out.append((1, 0, min(two, pn), 0, 0, False, False))
        if oc and (pn or pc):
            k = min(two, pn + pc)
            for dn in range(min(k, pn), -1, -1):
                if k - dn <= pc:
                    out.append((0, 1, dn, k - dn, 0, False, False))
        policy = self.policy[side]
        if policy == "strike":
            return [max((m for m in out if m[6]), key=lambda m: m[5])]
        if policy == "block":
            parries = [m for m in out if not m[6]]
            if parries:
                # a crit parrying a crit, else a normal parrying a normal, else a crit a normal
                return [max(parries, key=lambda m: (m[1] and m[3] > 0, m[0] > 0, m[3], m[2]))]
            return [max((m for m in out if m[6]), key=lambda m: m[5])]
        return out

    def solve(
        self, an: int, ac: int, bn: int, bc: int, wa: int, wb: int, sa: bool, sb: bool, a_turn: bool
    ) -> int:
        """Packed value of the position (``engine.dice.fight.Resolver.solve``'s meaning).

        Raises:
            FightTooLargeError: more than ``max_states`` positions (the memo is cleared).
        """
        (nd_a, cd_a), (nd_b, cd_b) = self.dmg
        if not an and not ac:
            if not bn and not bc:
                return 0
            total = bn * nd_b + bc * cd_b
            if total >= wa:
                return _pack(-(KILL_VALUE + wa), 0, wa)
            return _pack(-total, 0, total)
        if not bn and not bc:
            total = an * nd_a + ac * cd_a
            if total >= wb:
                return _pack(KILL_VALUE + wb, wb, 0)
            return _pack(total, total, 0)
        key = (an, ac, bn, bc, wa, wb, sa, sb, a_turn)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        best: int | None = None
        for _, value in self._children(an, ac, bn, bc, wa, wb, sa, sb, a_turn):
            if best is None or (value > best if a_turn else value < best):
                best = value
        assert best is not None
        if len(self.memo) >= self.limit:
            self.memo.clear()
            raise FightTooLargeError(
                f"the fight needs more than {self.limit:,} resolution positions to solve exactly"
            )
        self.memo[key] = best
        return best

    def _children(
        self, an: int, ac: int, bn: int, bc: int, wa: int, wb: int, sa: bool, sb: bool, a_turn: bool
    ) -> list[tuple[Move, int]]:
        """Each move of the side to play with its packed value."""
        out: list[tuple[Move, int]] = []
        if a_turn:
            for m in self.moves(0, (an, ac), (bn, bc), sa):
                dn, dc, xn, xc, dmg, crit, strike = m
                if strike and dmg >= wb:
                    v = _pack(KILL_VALUE + wb, wb, 0)
                else:
                    nsa = sa and not crit
                    child = self.solve(
                        an - dn, ac - dc, bn - xn, bc - xc, wa, wb - dmg, nsa, sb, False
                    )
                    v = child + _pack(dmg, dmg, 0)
                out.append((m, v))
        else:
            for m in self.moves(1, (bn, bc), (an, ac), sb):
                dn, dc, xn, xc, dmg, crit, strike = m
                if strike and dmg >= wa:
                    v = _pack(-(KILL_VALUE + wa), 0, wa)
                else:
                    nsb = sb and not crit
                    child = self.solve(
                        an - xn, ac - xc, bn - dn, bc - dc, wa - dmg, wb, sa, nsb, True
                    )
                    v = child + _pack(-dmg, 0, dmg)
                out.append((m, v))
        return out

    def crit_strikes(
        self, an: int, ac: int, bn: int, bc: int, wa: int, wb: int, sa: bool, sb: bool
    ) -> tuple[int, int]:
        """Critical strikes ``(by attacker, by defender)`` on the line of play the policies
        take from this position (the first best move at each step), attacker first."""
        counts = [0, 0]
        a_turn = True
        while an or ac or bn or bc:
            if not (an or ac) or not (bn or bc):
                # The rest strike; a fighter they incapacitate loses no APL: not counted.
                (nd_a, cd_a), (nd_b, cd_b) = self.dmg
                counts[0] += ac if an * nd_a + ac * cd_a < wb else 0
                counts[1] += bc if bn * nd_b + bc * cd_b < wa else 0
                break
            children = self._children(an, ac, bn, bc, wa, wb, sa, sb, a_turn)
            target = self.solve(an, ac, bn, bc, wa, wb, sa, sb, a_turn)
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


@lru_cache(maxsize=64)
def _kt24_resolver(
    nd_a: int, cd_a: int, nd_b: int, cd_b: int, ba: bool, bb: bool, pa: str, pb: str
) -> Resolver:
    return Resolver(nd_a, cd_a, nd_b, cd_b, brutal_a=ba, brutal_b=bb, policy_a=pa, policy_b=pb)


@lru_cache(maxsize=64)
def _kt21_resolver(*key: object) -> Kt21Resolver:
    nd_a, cd_a, nd_b, cd_b, ba, bb, sa, sb, ta, tb, pa, pb = key
    return Kt21Resolver(
        nd_a,  # type: ignore[arg-type]
        cd_a,  # type: ignore[arg-type]
        nd_b,  # type: ignore[arg-type]
        cd_b,  # type: ignore[arg-type]
        brutal_a=bool(ba),
        brutal_b=bool(bb),
        stun_a=bool(sa),
        stun_b=bool(sb),
        parry_two_a=bool(ta),
        parry_two_b=bool(tb),
        policy_a=str(pa),
        policy_b=str(pb),
    )


class Kt21Matchup:
    """A KT21 fight before the dice: both fighters, the policies and the resolver.

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
        if max(attacker.wounds, defender.wounds) >= 1 << _BITS:
            raise ProfileError("fighters' wounds must be below 4096")
        self.attacker, self.defender = attacker, defender
        self.policies = (policy, policy if defender_policy is None else defender_policy)
        pa, pb = attacker.effective, defender.effective
        self.stun = (pa.rules.has("Stun"), pb.rules.has("Stun"))
        brutal = (pa.rules.has("Brutal"), pb.rules.has("Brutal"))
        dmg = (pa.normal_damage, pa.critical_damage, pb.normal_damage, pb.critical_damage)
        self.solver: Resolver | Kt21Resolver
        if any(self.stun) or attacker.parry_two or defender.parry_two:
            self.solver = _kt21_resolver(
                *dmg, *brutal, *self.stun, attacker.parry_two, defender.parry_two, *self.policies
            )
        else:
            self.solver = _kt24_resolver(*dmg, *brutal, *self.policies)

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
            assert isinstance(self.solver, Kt21Resolver)
            ka, kb = self.solver.crit_strikes(an, ac, bn, bc, wa, wb, sa, sb)
            stun_b, stun_a = sa and ka >= 2, sb and kb >= 2
        return dealt_b, dealt_a, stun_a, stun_b


@attrs.frozen(slots=True)
class Kt21FightResult:
    """Exact outcome of a KT21 fight.

    Attributes:
        attacker, defender: each fighter's :class:`engine.dice.fight.FighterOutcome`
            (``stunned_probability``: the opponent's Stun cost it 1 APL).
        joint: pmf of ``(damage taken by attacker, damage taken by defender)``.
        expected_objective: the attacker's expected objective (``engine.dice.fight``).
        policies: ``(attacker policy, defender policy)``.
        not_modelled: the rules of ``(attacker's, defender's)`` weapons these odds do not
            apply (:func:`engine.dice.kt21_shoot.not_modelled`).
    """

    attacker: FighterOutcome
    defender: FighterOutcome
    joint: Pmf[tuple[int, int]]
    expected_objective: Fraction
    policies: tuple[str, str]
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
            objective += w * (KILL_VALUE * ((tb >= b.wounds) - (ta >= a.wounds)) + tb - ta)
    total = roll_a.total * roll_b.total
    dmg_a: dict[int, int] = {}
    dmg_b: dict[int, int] = {}
    for (ta, tb), w in joint.items():
        dmg_a[ta] = dmg_a.get(ta, 0) + w
        dmg_b[tb] = dmg_b.get(tb, 0) + w
    return Kt21FightResult(
        attacker=FighterOutcome(
            Pmf.from_weights(dmg_a, total), a.wounds, Fraction(stun_on[0], total)
        ),
        defender=FighterOutcome(
            Pmf.from_weights(dmg_b, total), b.wounds, Fraction(stun_on[1], total)
        ),
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
