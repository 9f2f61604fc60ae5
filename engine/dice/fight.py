"""Exact fights: both rolls, then strike/block resolution solved exactly (``rules/KT24.md`` 5.2).

Both fighters roll their attack dice (:mod:`engine.dice.attack`: Accurate, re-rolls, Lethal,
Punishing, Rending, Severe). Devastating x inflicts x per retained crit on the opponent at
once (both sides' at the same time). Then, starting with the attacker (or the defender when
a rule says so), the players alternate resolving one success each:

- **strike**: inflict normal or critical damage; with Shock, the first crit strike of the
  sequence also discards one unresolved enemy normal success (a crit if there are none);
- **block**: discard one of the opponent's unresolved successes: a normal blocks a normal,
  a crit blocks a normal or a crit; against a Brutal weapon only crits can block.

When one side has no successes left the other resolves the rest; resolution stops at once
when either fighter is incapacitated (``EDGE_CASES.md`` 7 and 8).

Objective (zero-sum, the attacker maximises, the defender minimises)::

    value = KILL * ([defender incapacitated] - [attacker incapacitated])
            + damage dealt to the defender - damage dealt to the attacker

with damage counted up to the wounds each fighter had, and ``KILL`` (4096) larger than any
damage total, so each side first seeks to incapacitate the enemy and to survive, then trades
damage. Resolution after the rolls is a perfect-information game: the ``optimal`` policy
is a memoised minimax (a best response when the other side plays a fixed policy), over
(successes left to each side, wounds left, unused Shock, side to move). Wounds above what the
opponent can still inflict are merged into one state: the future is the same.

The work is bounded: a resolver holds at most :data:`MAX_FIGHT_STATES` solved positions
(about 1 s and 60 MB of memory on a small machine). A fight needing more (say 30 v 30 attack
dice with Brutal, Shock and Lethal and many wounds) is refused with
:class:`FightTooLargeError` once that many positions are solved, not after minutes and
gigabytes; real profiles (up to 16 attack dice a side with 50 wounds and damage 2/3) need far
fewer. The agents ask for a fallback (``fallback=True``): past the limit they resolve with
the fixed ``block`` policy for both sides, whose work is bounded by the dice (one line of
play per roll).

Fixed policies for comparison:

- ``strike``: always strike, critical successes before normal ones;
- ``block``: block whenever possible (a crit blocks a crit, else a normal blocks a normal,
  else a crit blocks a normal), otherwise strike with crits first.

The resolver is shared by both editions (KT21's parry is KT24's block, ``rules/KT21.md`` 11):
the edition's strike/block rules are its parameters, ``shock_discards_crit`` (KT24 Shock
discards a normal success, else a critical one; KT21 Stun a normal one only) and
``block_two_a``/``block_two_b`` (a block discards two, ``rules/KT21.md`` 16.16);
:mod:`engine.dice.kt21_fight` passes the KT21 ones.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

import attrs

from engine.dice.attack import attack_roll
from engine.dice.pmf import Pmf
from engine.dice.profile import Fighter
from engine.dice.shoot import hot_damage
from engine.errors import ProfileError

__all__ = [
    "KILL_VALUE",
    "MAX_FIGHT_STATES",
    "POLICIES",
    "FightResult",
    "FightTooLargeError",
    "FighterOutcome",
    "Matchup",
    "Move",
    "Resolver",
    "cached_resolver",
    "check_wounds",
    "fight",
    "fight_objective",
    "marginals",
]

#: Weight of an incapacitation in the objective; larger than any possible damage total.
KILL_VALUE = 4096
_BITS = 12
_MASK = (1 << _BITS) - 1
_VSHIFT = 2 * _BITS
_DEALT_A = (1 << _VSHIFT) + (1 << _BITS)  # value +1 and attacker's damage dealt +1
POLICIES = ("optimal", "strike", "block")

MAX_FIGHT_STATES = 250_000
"""The most resolution positions one exact fight may solve (memo entries of a
:class:`Resolver`): about 1 CPU second and 60 MB. Real profiles need a few thousand (8 v 8
attack dice, 50 wounds, damage 3/4: ~7,000; 16 v 16 with damage 2/3: ~120,000)."""


class FightTooLargeError(ProfileError):
    """A fight whose exact resolution needs more than :data:`MAX_FIGHT_STATES` positions."""


Move = tuple[int, int, int, int, int, bool, bool]
"""One strike or block of the side to play: ``(own normals spent, own crits spent, opponent
normals discarded, opponent crits discarded, damage dealt, is a critical strike, is a
strike)``."""


def _fixed_move(policy: str, moves: list[Move]) -> Move:
    """The one move a fixed policy plays among ``moves`` (module docstring): ``strike``, a
    critical strike before a normal one; ``block``, a crit blocking a crit, else a normal
    blocking a normal, else a crit blocking a normal (discarding the most), else a strike."""
    if policy == "block":
        blocks = [m for m in moves if not m[6]]
        if blocks:
            return max(blocks, key=lambda m: (m[1] and m[3] > 0, m[0] > 0, m[3], m[2]))
    return max((m for m in moves if m[6]), key=lambda m: m[5])


class Resolver:
    """Solves strike/block resolution for one pair of profiles and policies, under the
    edition's strike and block rules (KT24 5.2; ``rules/KT21.md`` 11, 12, 16.16: KT21's
    parry is KT24's block).

    Values are packed integers: ``value << 24 | dealt_by_attacker << 12 | dealt_by_defender``
    (value as in the module docstring, damage counted up to the wounds left), so that one
    comparison orders by value and the damage split comes back with it. Wounds must be below
    4096. A resolver keeps its memo; reuse it for many rolls of the same fight. The memo holds
    at most ``max_states`` positions: solving one more clears it and raises
    :class:`FightTooLargeError` (so the memory and the work of one call are bounded).

    Args:
        nd_a, cd_a / nd_b, cd_b: normal and critical damage of attacker / defender.
        brutal_a, brutal_b: the attacker's / defender's weapon is Brutal (the opponent blocks
            only with crits).
        shock_a, shock_b: the attacker's / defender's first critical strike also discards one
            unresolved enemy success (KT24 Shock; KT21 Stun in a fight).
        policy_a, policy_b: one of :data:`POLICIES`.
        max_states: the most positions held, :data:`MAX_FIGHT_STATES` by default; ``None``
            for no limit.
        shock_discards_crit: the edition's Shock: with no normal success to discard it
            discards a critical one (KT24 Shock, the default); ``False``: a normal one only
            (KT21 Stun, ``rules/KT21.md`` 12).
        block_two_a, block_two_b: one block of the attacker's / defender's discards two
            successes (``rules/KT21.md`` 16.16: a normal parry two normal hits, a critical
            parry any two).

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
        shock_a: bool = False,
        shock_b: bool = False,
        policy_a: str = "optimal",
        policy_b: str = "optimal",
        max_states: int | None = MAX_FIGHT_STATES,
        shock_discards_crit: bool = True,
        block_two_a: bool = False,
        block_two_b: bool = False,
    ) -> None:
        for p in (policy_a, policy_b):
            if p not in POLICIES:
                raise ProfileError(f"unknown fight policy {p!r}; choose from {', '.join(POLICIES)}")
        self.nd_a, self.cd_a, self.nd_b, self.cd_b = nd_a, cd_a, nd_b, cd_b
        # The defender's Brutal stops the attacker's normal blocks, and the other way round.
        self.a_normal_blocks = not brutal_b
        self.b_normal_blocks = not brutal_a
        self.shock_a, self.shock_b = shock_a, shock_b
        self.shock_discards_crit = shock_discards_crit
        self.block_two = (block_two_a, block_two_b)
        self.policies = (policy_a, policy_b)
        self.memo: dict[tuple[int, ...], int] = {}
        self.max_states = max_states
        self._limit = sys.maxsize if max_states is None else max_states
        fast = policy_a == policy_b == "optimal" and not (block_two_a or block_two_b)
        self._solve: Callable[[int, int, int, int, int, int, bool, bool, bool], int] = (
            self._optimal_solver() if fast else self._solve_generic
        )

    def solve(
        self, an: int, ac: int, bn: int, bc: int, wa: int, wb: int, sa: bool, sb: bool, a_turn: bool
    ) -> int:
        """Packed value of the position (see class docstring) for the rest of resolution.

        Args:
            an, ac / bn, bc: unresolved normal and critical successes of attacker / defender.
            wa, wb: wounds left (>= 1). sa, sb: Shock still unused. a_turn: attacker to move.

        Raises:
            FightTooLargeError: solving it would hold more than ``max_states`` positions (the
                memo is then cleared).
        """
        return self._solve(an, ac, bn, bc, wa, wb, sa, sb, a_turn)

    def _too_large(self) -> FightTooLargeError:
        self.memo.clear()
        return FightTooLargeError(
            f"the fight needs more than {self._limit:,} resolution positions to solve "
            "exactly (too many attack dice, wounds and damage values together)"
        )

    def _optimal_solver(self) -> Callable[[int, int, int, int, int, int, bool, bool, bool], int]:
        """:meth:`solve` when both sides play ``optimal`` and each block discards one success:
        the same positions, memo and values as :meth:`_solve_generic`, with the five moves
        written out (no move loop) and the numbers in closure variables."""
        nd_a, cd_a, nd_b, cd_b = self.nd_a, self.cd_a, self.nd_b, self.cd_b
        a_normal_blocks, b_normal_blocks = self.a_normal_blocks, self.b_normal_blocks
        shock_crit = self.shock_discards_crit
        memo = self.memo
        limit = self._limit
        too_large = self._too_large
        dealt_a = _DEALT_A
        vshift, bits = _VSHIFT, _BITS
        dealt_b_nd = (-nd_b << vshift) + nd_b
        dealt_b_cd = (-cd_b << vshift) + cd_b

        def solve(
            an: int, ac: int, bn: int, bc: int, wa: int, wb: int, sa: bool, sb: bool, a_turn: bool
        ) -> int:
            if not an and not ac:
                if not bn and not bc:
                    return 0
                total = bn * nd_b + bc * cd_b
                if total >= wa:
                    return (-(KILL_VALUE + wa) << vshift) + wa
                return (-total << vshift) + total
            if not bn and not bc:
                total = an * nd_a + ac * cd_a
                if total >= wb:
                    return ((KILL_VALUE + wb) << vshift) + (wb << bits)
                return total * dealt_a
            most_b = bn * nd_b + bc * cd_b
            if wa > most_b:
                wa = most_b + 1
            most_a = an * nd_a + ac * cd_a
            if wb > most_a:
                wb = most_a + 1
            if sa and not ac:
                sa = False
            if sb and not bc:
                sb = False
            key = (an, ac, bn, bc, wa, wb, sa, sb, a_turn)
            best = memo.get(key)
            if best is not None:
                return best
            if a_turn:
                kill = ((KILL_VALUE + wb) << vshift) + (wb << bits)
                if an:
                    best = (
                        kill
                        if nd_a >= wb
                        else (
                            solve(an - 1, ac, bn, bc, wa, wb - nd_a, sa, sb, False) + nd_a * dealt_a
                        )
                    )
                if ac:
                    if cd_a >= wb:
                        v = kill
                    elif sa:
                        if bn:
                            v = solve(an, ac - 1, bn - 1, bc, wa, wb - cd_a, False, sb, False)
                        elif bc and shock_crit:
                            v = solve(an, ac - 1, bn, bc - 1, wa, wb - cd_a, False, sb, False)
                        else:
                            v = solve(an, ac - 1, bn, bc, wa, wb - cd_a, False, sb, False)
                        v += cd_a * dealt_a
                    else:
                        v = solve(an, ac - 1, bn, bc, wa, wb - cd_a, sa, sb, False) + cd_a * dealt_a
                    if best is None or v > best:
                        best = v
                if bn:
                    if an and a_normal_blocks:
                        v = solve(an - 1, ac, bn - 1, bc, wa, wb, sa, sb, False)
                        if best is None or v > best:
                            best = v
                    if ac:
                        v = solve(an, ac - 1, bn - 1, bc, wa, wb, sa, sb, False)
                        if best is None or v > best:
                            best = v
                if ac and bc:
                    v = solve(an, ac - 1, bn, bc - 1, wa, wb, sa, sb, False)
                    if best is None or v > best:
                        best = v
            else:
                kill = (-(KILL_VALUE + wa) << vshift) + wa
                if bn:
                    best = (
                        kill
                        if nd_b >= wa
                        else (solve(an, ac, bn - 1, bc, wa - nd_b, wb, sa, sb, True) + dealt_b_nd)
                    )
                if bc:
                    if cd_b >= wa:
                        v = kill
                    elif sb:
                        if an:
                            v = solve(an - 1, ac, bn, bc - 1, wa - cd_b, wb, sa, False, True)
                        elif ac and shock_crit:
                            v = solve(an, ac - 1, bn, bc - 1, wa - cd_b, wb, sa, False, True)
                        else:
                            v = solve(an, ac, bn, bc - 1, wa - cd_b, wb, sa, False, True)
                        v += dealt_b_cd
                    else:
                        v = solve(an, ac, bn, bc - 1, wa - cd_b, wb, sa, sb, True) + dealt_b_cd
                    if best is None or v < best:
                        best = v
                if an:
                    if bn and b_normal_blocks:
                        v = solve(an - 1, ac, bn - 1, bc, wa, wb, sa, sb, True)
                        if best is None or v < best:
                            best = v
                    if bc:
                        v = solve(an - 1, ac, bn, bc - 1, wa, wb, sa, sb, True)
                        if best is None or v < best:
                            best = v
                if bc and ac:
                    v = solve(an, ac - 1, bn, bc - 1, wa, wb, sa, sb, True)
                    if best is None or v < best:
                        best = v
            assert best is not None
            if len(memo) >= limit:
                raise too_large()
            memo[key] = best
            return best

        return solve

    def moves(
        self, a_turn: bool, own: tuple[int, int], opp: tuple[int, int], shock: bool
    ) -> list[Move]:
        """The moves of the side to play (the attacker when ``a_turn``) holding ``own``
        unresolved ``(normal, critical)`` successes against the opponent's ``opp``, its Shock
        unused when ``shock``, in order: strike normal, strike crit, normal block, crit blocks
        (normals discarded first); a fixed policy keeps its one move."""
        on, oc = own
        pn, pc = opp
        side = 0 if a_turn else 1
        nd, cd = (self.nd_a, self.cd_a) if a_turn else (self.nd_b, self.cd_b)
        two = 2 if self.block_two[side] else 1
        out: list[Move] = []
        if on:
            out.append((1, 0, 0, 0, nd, False, True))
        if oc:
            xn = 1 if shock and pn else 0
            xc = 1 if shock and not pn and pc and self.shock_discards_crit else 0
            out.append((0, 1, xn, xc, cd, True, True))
        if on and pn and (self.a_normal_blocks if a_turn else self.b_normal_blocks):
            out.append((1, 0, min(two, pn), 0, 0, False, False))
        if oc and (pn or pc):
            k = min(two, pn + pc)
            for dn in range(min(k, pn), -1, -1):
                if k - dn <= pc:
                    out.append((0, 1, dn, k - dn, 0, False, False))
        policy = self.policies[side]
        if policy != "optimal":
            return [_fixed_move(policy, out)]
        return out

    def children(
        self, an: int, ac: int, bn: int, bc: int, wa: int, wb: int, sa: bool, sb: bool, a_turn: bool
    ) -> list[tuple[Move, int]]:
        """Each move of the side to play (:meth:`moves`) with the packed value of the
        position it leads to (the move's damage included), for a position where both sides
        still hold successes.

        Raises:
            FightTooLargeError: as :meth:`solve`.
        """
        solve = self._solve
        out: list[tuple[Move, int]] = []
        if a_turn:
            for m in self.moves(True, (an, ac), (bn, bc), sa):
                dn, dc, xn, xc, dmg, crit, strike = m
                if strike and dmg >= wb:
                    v = ((KILL_VALUE + wb) << _VSHIFT) + (wb << _BITS)
                else:
                    child = solve(
                        an - dn, ac - dc, bn - xn, bc - xc, wa, wb - dmg, sa and not crit, sb, False
                    )
                    v = child + dmg * _DEALT_A
                out.append((m, v))
        else:
            for m in self.moves(False, (bn, bc), (an, ac), sb):
                dn, dc, xn, xc, dmg, crit, strike = m
                if strike and dmg >= wa:
                    v = (-(KILL_VALUE + wa) << _VSHIFT) + wa
                else:
                    child = solve(
                        an - xn, ac - xc, bn - dn, bc - dc, wa - dmg, wb, sa, sb and not crit, True
                    )
                    v = child + (-dmg << _VSHIFT) + dmg
                out.append((m, v))
        return out

    def _solve_generic(
        self, an: int, ac: int, bn: int, bc: int, wa: int, wb: int, sa: bool, sb: bool, a_turn: bool
    ) -> int:
        """:meth:`solve` for any policies and block rules (a fixed policy plays its one move):
        the best of :meth:`children`."""
        nd_a, cd_a, nd_b, cd_b = self.nd_a, self.cd_a, self.nd_b, self.cd_b
        if not an and not ac:
            if not bn and not bc:
                return 0
            total = bn * nd_b + bc * cd_b
            if total >= wa:
                return (-(KILL_VALUE + wa) << _VSHIFT) + wa
            return (-total << _VSHIFT) + total
        if not bn and not bc:
            total = an * nd_a + ac * cd_a
            if total >= wb:
                return ((KILL_VALUE + wb) << _VSHIFT) + (wb << _BITS)
            return total * _DEALT_A
        # Normalise: wounds beyond what the opponent can still inflict behave the same.
        most_b = bn * nd_b + bc * cd_b
        if wa > most_b:
            wa = most_b + 1
        most_a = an * nd_a + ac * cd_a
        if wb > most_a:
            wb = most_a + 1
        if sa and not ac:
            sa = False
        if sb and not bc:
            sb = False
        key = (an, ac, bn, bc, wa, wb, sa, sb, a_turn)
        memo = self.memo
        cached = memo.get(key)
        if cached is not None:
            return cached
        values = [v for _, v in self.children(an, ac, bn, bc, wa, wb, sa, sb, a_turn)]
        best = max(values) if a_turn else min(values)
        if len(memo) >= self._limit:
            raise self._too_large()
        memo[key] = best
        return best


def check_wounds(*wounds: int) -> None:
    """Raise unless every fighter's ``wounds`` fits the packed values (below 4096).

    Raises:
        ProfileError: wounds of 4096 or more."""
    if max(wounds) > _MASK:
        raise ProfileError("fighters' wounds must be below 4096")


def fight_objective(taken_a: int, taken_b: int, wounds_a: int, wounds_b: int) -> int:
    """The attacker's objective value (module docstring) of one fight's outcome: damage
    ``taken_a`` / ``taken_b`` by fighters of ``wounds_a`` / ``wounds_b`` wounds."""
    return KILL_VALUE * ((taken_b >= wounds_b) - (taken_a >= wounds_a)) + taken_b - taken_a


def marginals(joint: dict[tuple[int, int], int], total: int) -> tuple[Pmf[int], Pmf[int]]:
    """The pmfs of damage taken by the attacker and by the defender from the weights of
    ``(taken by attacker, taken by defender)`` outcomes summing to ``total``."""
    dmg_a: dict[int, int] = {}
    dmg_b: dict[int, int] = {}
    for (ta, tb), w in joint.items():
        dmg_a[ta] = dmg_a.get(ta, 0) + w
        dmg_b[tb] = dmg_b.get(tb, 0) + w
    return Pmf.from_weights(dmg_a, total), Pmf.from_weights(dmg_b, total)


def unpack(packed: int) -> tuple[int, int, int]:
    """Split a packed resolver value into ``(value, dealt_by_attacker, dealt_by_defender)``."""
    return packed >> _VSHIFT, (packed >> _BITS) & _MASK, packed & _MASK


@attrs.frozen(slots=True)
class FighterOutcome:
    """What one fighter suffers in a fight.

    Attributes:
        damage_taken: pmf of damage taken, counted up to the fighter's wounds (Devastating
            included); ``damage_taken == wounds`` means incapacitated.
        wounds: the fighter's wounds before the fight.
        stunned_probability: P(the opponent's Stun takes effect on this fighter).
        hot: self-damage pmf of this fighter's own Hot weapon (rolled after the fight, not
            part of ``damage_taken``), or ``None``.
    """

    damage_taken: Pmf[int]
    wounds: int
    stunned_probability: Fraction
    hot: Pmf[int] | None = None

    @property
    def incapacitated_probability(self) -> Fraction:
        """Exact P(incapacitated)."""
        return self.damage_taken.at_least(self.wounds)

    @property
    def expected_damage_taken(self) -> Fraction:
        """Exact expected damage taken."""
        return self.damage_taken.mean()


@attrs.frozen(slots=True)
class FightResult:
    """Exact outcome of a fight.

    Attributes:
        attacker, defender: each fighter's :class:`FighterOutcome`.
        joint: pmf of ``(damage taken by attacker, damage taken by defender)``.
        expected_objective: the attacker's expected objective value (module docstring).
        policies: ``(attacker policy, defender policy)``.
    """

    attacker: FighterOutcome
    defender: FighterOutcome
    joint: Pmf[tuple[int, int]]
    expected_objective: Fraction
    policies: tuple[str, str]


@lru_cache(maxsize=64)
def cached_resolver(
    nd_a: int,
    cd_a: int,
    nd_b: int,
    cd_b: int,
    brutal_a: bool,
    brutal_b: bool,
    shock_a: bool,
    shock_b: bool,
    policy_a: str,
    policy_b: str,
    max_states: int | None = MAX_FIGHT_STATES,
    *,
    shock_discards_crit: bool = True,
    block_two_a: bool = False,
    block_two_b: bool = False,
) -> Resolver:
    """A shared :class:`Resolver` of these arguments (its memo serves every later fight with
    these numbers and rules, of either edition); ``__wrapped__`` builds a new one.

    Raises:
        ProfileError: an unknown policy.
    """
    return Resolver(
        nd_a,
        cd_a,
        nd_b,
        cd_b,
        brutal_a=brutal_a,
        brutal_b=brutal_b,
        shock_a=shock_a,
        shock_b=shock_b,
        policy_a=policy_a,
        policy_b=policy_b,
        max_states=max_states,
        shock_discards_crit=shock_discards_crit,
        block_two_a=block_two_a,
        block_two_b=block_two_b,
    )


_resolver = cached_resolver  # the name engine.dice.clear_caches empties


class Matchup:
    """What a fight is before the dice: the two fighters, the policies and the solver.

    :func:`fight` (exact) and :func:`engine.dice.sample.sample_fight` (sampled) both resolve
    the rolled successes through :meth:`damage_taken`.

    Args:
        attacker, defender, policy, defender_policy, first, reuse, fallback: as :func:`fight`.

    Raises:
        ProfileError: for an unknown policy or ``first``, or wounds of 4096 or more.
    """

    def __init__(
        self,
        attacker: Fighter,
        defender: Fighter,
        *,
        policy: str = "optimal",
        defender_policy: str | None = None,
        first: str = "attacker",
        reuse: bool = True,
        fallback: bool = False,
    ) -> None:
        if first not in ("attacker", "defender"):
            raise ProfileError(f"first must be 'attacker' or 'defender', not {first!r}")
        check_wounds(attacker.wounds, defender.wounds)
        self.attacker, self.defender = attacker, defender
        self.policies = (policy, policy if defender_policy is None else defender_policy)
        self.first = first
        pa, pb = attacker.profile, defender.profile
        self.rules_a, self.rules_b = pa.rules.dice, pb.rules.dice
        ra, rb = self.rules_a, self.rules_b
        key = (
            pa.normal_damage,
            pa.critical_damage,
            pb.normal_damage,
            pb.critical_damage,
            ra.brutal,
            rb.brutal,
            ra.shock,
            rb.shock,
            *self.policies,
        )
        self._key = key
        self.reuse = reuse
        self.fallback = fallback
        self.resolver = cached_resolver(*key) if reuse else cached_resolver.__wrapped__(*key)

    def describe(self) -> str:
        """The two fighters in a few words, for messages (``30 attack dice, damage 3/4, 12
        wounds v 30 attack dice, ...``)."""

        def one(f: Fighter) -> str:
            p = f.profile
            return (
                f"{p.attacks} attack dice, damage {p.normal_damage}/{p.critical_damage}, "
                f"{f.wounds} wounds"
            )

        return f"{one(self.attacker)} v {one(self.defender)}"

    def too_large(self) -> FightTooLargeError:
        """The error refusing this fight (:data:`MAX_FIGHT_STATES`), naming the fighters."""
        limit = self.resolver.max_states
        return FightTooLargeError(
            f"fight of {self.describe()}: too large to solve exactly (more than {limit:,} "
            "resolution positions, the limit of the exact solver); use fewer attack dice, "
            "wounds or different damage values"
        )

    def use_fallback(self) -> None:
        """Resolve with the fixed ``block`` policy for both sides from now on (the agents'
        fallback past :data:`MAX_FIGHT_STATES`; its work is one line of play per roll)."""
        key = (*self._key[:8], "block", "block", None)
        self.policies = ("block", "block")
        self.resolver = cached_resolver(*key) if self.reuse else cached_resolver.__wrapped__(*key)

    def solve(
        self, an: int, ac: int, bn: int, bc: int, wa: int, wb: int, sa: bool, sb: bool, a_turn: bool
    ) -> int:
        """:meth:`Resolver.solve` of the position, bounded: when the resolver's memo fills up
        (:data:`MAX_FIGHT_STATES`) the position is solved again from an empty memo; when it
        alone needs more, the fallback policy is used if this matchup has one
        (:meth:`use_fallback`).

        Raises:
            FightTooLargeError: the position needs more than :data:`MAX_FIGHT_STATES`
                positions and the matchup has no fallback.
        """
        resolver = self.resolver
        had = bool(resolver.memo)
        try:
            return resolver.solve(an, ac, bn, bc, wa, wb, sa, sb, a_turn)
        except FightTooLargeError:
            pass
        if had:  # the memo held other positions (now cleared): this one alone
            try:
                return resolver.solve(an, ac, bn, bc, wa, wb, sa, sb, a_turn)
            except FightTooLargeError:
                pass
        if not self.fallback:
            raise self.too_large() from None
        self.use_fallback()
        return self.resolver.solve(an, ac, bn, bc, wa, wb, sa, sb, a_turn)

    def damage_taken(self, an: int, ac: int, bn: int, bc: int) -> tuple[int, int]:
        """Damage taken by ``(attacker, defender)``, counted up to their wounds, once the
        attacker retained ``an`` normal and ``ac`` critical successes and the defender ``bn``
        and ``bc``: Devastating first (both at once), then strike/block resolution
        (bounded as :meth:`solve`).

        Raises:
            FightTooLargeError: as :meth:`solve`.
        """
        return self._taken(an, ac, bn, bc, self.solve)

    def _taken(
        self, an: int, ac: int, bn: int, bc: int, solve: Callable[..., int]
    ) -> tuple[int, int]:
        ra, rb = self.rules_a, self.rules_b
        wa0, wb0 = self.attacker.wounds, self.defender.wounds
        to_b, to_a = ra.devastating * ac, rb.devastating * bc
        wa, wb = wa0 - to_a, wb0 - to_b
        if wa <= 0 or wb <= 0:
            return min(to_a, wa0), min(to_b, wb0)
        packed = solve(an, ac, bn, bc, wa, wb, ra.shock, rb.shock, self.first == "attacker")
        _, dealt_a, dealt_b = unpack(packed)
        return to_a + dealt_b, to_b + dealt_a


def fight(
    attacker: Fighter,
    defender: Fighter,
    *,
    policy: str = "optimal",
    defender_policy: str | None = None,
    first: str = "attacker",
    reuse: bool = True,
    fallback: bool = False,
) -> FightResult:
    """Exact distribution of a fight (section 5.2).

    Args:
        attacker: the fighting operative's melee profile and wounds.
        defender: the retaliating operative's melee profile and wounds (``attacks`` 0 when it
            cannot retaliate).
        policy: the attacker's resolution policy, one of :data:`POLICIES`.
        defender_policy: the defender's policy; defaults to ``policy``.
        first: ``"attacker"`` (the rule) or ``"defender"`` (when a rule lets the defender
            resolve first, e.g. Volkus Garrisoned Stronghold).
        reuse: keep the resolver's memo for later calls with the same parameters.
        fallback: past :data:`MAX_FIGHT_STATES` positions, resolve with the fixed ``block``
            policy for both sides (:meth:`Matchup.use_fallback`; ``result.policies`` says so)
            instead of raising.

    Returns:
        A :class:`FightResult` with exact pmfs.

    Raises:
        ProfileError: for an unknown policy or ``first``, or wounds of 4096 or more.
        FightTooLargeError: (without ``fallback``) the whole fight needs more than
            :data:`MAX_FIGHT_STATES` resolution positions; refused after at most about twice
            that work (about 2 s).
    """
    matchup = Matchup(
        attacker,
        defender,
        policy=policy,
        defender_policy=defender_policy,
        first=first,
        reuse=reuse,
        fallback=fallback,
    )
    # One budget for the whole fight: every roll's positions share the memo. A memo left
    # by earlier fights is cleared when full and the fight counted again from scratch.
    fresh = not matchup.resolver.memo
    try:
        return _exact(matchup)
    except FightTooLargeError:
        pass
    if not fresh:
        try:
            return _exact(matchup)
        except FightTooLargeError:
            pass
    if not fallback:
        raise matchup.too_large() from None
    matchup.use_fallback()
    return _exact(matchup)


def _exact(matchup: Matchup) -> FightResult:
    """:func:`fight` over every pair of rolls with ``matchup``'s resolver (unbounded retry:
    :class:`FightTooLargeError` propagates)."""
    attacker, defender = matchup.attacker, matchup.defender
    solve = matchup.resolver.solve
    pa, pb = attacker.profile, defender.profile
    ra, rb = matchup.rules_a, matchup.rules_b
    roll_a, roll_b = attack_roll(pa), attack_roll(pb)
    wa0, wb0 = attacker.wounds, defender.wounds
    joint: dict[tuple[int, int], int] = {}
    objective = 0
    for an, ac, w_a in roll_a.outcomes:
        for bn, bc, w_b in roll_b.outcomes:
            taken = matchup._taken(an, ac, bn, bc, solve)
            w = w_a * w_b
            joint[taken] = joint.get(taken, 0) + w
            objective += fight_objective(*taken, wa0, wb0) * w
    total = roll_a.total * roll_b.total
    pmf_a, pmf_b = marginals(joint, total)
    stun_on_b = Fraction(roll_a.crit_weight(), roll_a.total) if ra.stun else Fraction(0)
    stun_on_a = Fraction(roll_b.crit_weight(), roll_b.total) if rb.stun else Fraction(0)
    return FightResult(
        attacker=FighterOutcome(pmf_a, wa0, stun_on_a, hot_damage(pa.hit) if ra.hot else None),
        defender=FighterOutcome(pmf_b, wb0, stun_on_b, hot_damage(pb.hit) if rb.hot else None),
        joint=Pmf.from_weights(joint, total),
        expected_objective=Fraction(objective, total),
        policies=matchup.policies,
    )
