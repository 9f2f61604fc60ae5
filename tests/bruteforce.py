"""Independent brute-force reference for the exact dice core (tests only).

Everything here is derived from ``rules/KT24.md`` (sections 2.4, 4.5, 5.1, 5.2, 6),
``rules/EDGE_CASES.md`` (items 3, 7, 8) and the default-policy definitions the project
documents; nothing is imported or copied from ``engine.dice``. It is deliberately slow and
literal:

- every attack die face is enumerated with ``itertools.product`` over 1..6, and every die
  picked for a re-roll is enumerated again over 1..6 (a die is never re-rolled twice);
- every defence die face is enumerated, and the defender's allocation of saves is found by
  trying every assignment of every save to every attack success (or to nothing) and keeping
  the least damage;
- fight resolution is a plain recursive minimax over explicit tuples of remaining dice
  (memoised on the full state only so it finishes; no state merging).

Probabilities are :class:`fractions.Fraction`.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

__all__ = [
    "KILL",
    "BruteRules",
    "BruteShoot",
    "attack_distribution",
    "brute_fight",
    "brute_shoot",
    "parse_rules",
]

KILL = 4096  # objective weight of an incapacitation (fights)
DEFENCE_DICE = 3
NORMAL = "N"
CRIT = "C"


# --------------------------------------------------------------------------------------------
# Weapon rules (own minimal parser)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BruteRules:
    """The weapon rules that matter to the dice, parsed independently of the engine."""

    accurate: int = 0
    balanced: bool = False
    ceaseless: bool = False
    relentless: bool = False
    lethal: int | None = None
    punishing: bool = False
    rending: bool = False
    severe: bool = False
    brutal: bool = False
    shock: bool = False
    saturate: bool = False
    stun: bool = False
    hot: bool = False
    devastating: int = 0
    devastating_area: bool = False
    piercing: int = 0
    piercing_crits: int = 0


_FLAGS = {
    "balanced": "balanced",
    "ceaseless": "ceaseless",
    "relentless": "relentless",
    "punishing": "punishing",
    "rending": "rending",
    "severe": "severe",
    "brutal": "brutal",
    "shock": "shock",
    "saturate": "saturate",
    "stun": "stun",
    "hot": "hot",
}
_IGNORED = re.compile(
    r'(range\s+[\d.]+"|blast\s+[\d.]+"|torrent\s+[\d.]+"|heavy.*|silent|seek(\s+light)?'
    r"|limited\s+\d+|psychic|.*\*)"
)


def parse_rules(text: str) -> BruteRules:
    """Parse a datacard weapon-rule string such as ``"Lethal 5+, Piercing 1"``.

    Several instances: Accurate counts as Accurate 2 if that is larger (KT24 section 6);
    for the other rules with an x the best x is used (a weapon gains no benefit from the same
    rule twice, it picks which x).
    """
    values: dict[str, object] = {}
    accurate: list[int] = []
    for raw in text.split(","):
        token = " ".join(raw.split()).lower()
        if not token or token == "-":
            continue
        if token in _FLAGS:
            values[_FLAGS[token]] = True
        elif m := re.fullmatch(r"accurate (\d+)", token):
            accurate.append(int(m.group(1)))
        elif m := re.fullmatch(r"lethal (\d)\+", token):
            x = int(m.group(1))
            old = values.get("lethal")
            values["lethal"] = x if old is None else min(x, old)  # type: ignore[type-var]
        elif m := re.fullmatch(r"piercing crits (\d+)", token):
            values["piercing_crits"] = max(int(m.group(1)), values.get("piercing_crits", 0))  # type: ignore[call-overload]
        elif m := re.fullmatch(r"piercing (\d+)", token):
            values["piercing"] = max(int(m.group(1)), values.get("piercing", 0))  # type: ignore[call-overload]
        elif m := re.fullmatch(r'(?:([\d.]+)" )?devastating (\d+)', token):
            x = int(m.group(2))
            if x >= values.get("devastating", 0):  # type: ignore[operator]
                values["devastating"] = x
                values["devastating_area"] = m.group(1) is not None
        elif _IGNORED.fullmatch(token):
            continue
        else:
            raise ValueError(f"bruteforce parser does not know {token!r}")
    if accurate:
        values["accurate"] = max(max(accurate), 2) if len(accurate) > 1 else accurate[0]
    return BruteRules(**values)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Attack dice
# --------------------------------------------------------------------------------------------


def _classify(face: int, hit: int, lethal: int | None) -> str:
    """'F' (fail), 'N' (normal) or 'C' (critical) for one attack die face."""
    if face == 1 or face < hit:
        return "F"
    crit_from = 6 if lethal is None else max(hit, lethal)
    if face >= 6 or face >= crit_from:
        return "C"
    return "N"


def _reroll_indices(faces: tuple[int, ...], hit: int, rules: BruteRules) -> list[int]:
    """Indices of the dice the default policy re-rolls (never a success)."""
    failed = [i for i, f in enumerate(faces) if f < hit]
    if not failed:
        return []
    if rules.relentless:
        return failed
    chosen: list[int] = []
    if rules.ceaseless:
        counts = Counter(faces[i] for i in failed)
        best = max(counts.values())
        value = min(v for v, k in counts.items() if k == best)
        chosen = [i for i in failed if faces[i] == value]
    if rules.balanced:
        rest = [i for i in failed if i not in chosen]
        if rest:
            chosen = [*chosen, rest[0]]
    return chosen


def _retain(
    fails: int, normals: int, crits: int, rules: BruteRules, obscured: bool
) -> tuple[int, int]:
    """Retention stage: obscured, then Punishing, Rending, Severe."""
    if obscured:
        return max(normals + crits - 1, 0), 0
    if crits:
        if rules.punishing and fails:
            fails -= 1
            normals += 1
        if rules.rending and normals:
            normals -= 1
            crits += 1
    elif rules.severe and normals:
        normals -= 1
        crits += 1
    return normals, crits


@cache
def attack_distribution(
    attacks: int, hit: int, rules: BruteRules, obscured: bool = False
) -> dict[tuple[int, int], Fraction]:
    """P((normals, crits) retained) for one attack roll, by enumerating every face."""
    auto = min(rules.accurate, attacks)
    rolled = attacks - auto
    total = 6 ** (2 * rolled)
    weights: dict[tuple[int, int], int] = defaultdict(int)
    for faces in itertools.product(range(1, 7), repeat=rolled):
        again = _reroll_indices(faces, hit, rules)
        # each first roll has weight 6**rolled out of 6**(2*rolled); each of the 6**k re-roll
        # results of k dice shares it equally
        w = 6 ** (rolled - len(again))
        for new in itertools.product(range(1, 7), repeat=len(again)):
            final = list(faces)
            for i, f in zip(again, new, strict=True):
                final[i] = f
            kinds = Counter(_classify(f, hit, rules.lethal) for f in final)
            key = _retain(kinds["F"], kinds["N"] + auto, kinds["C"], rules, obscured)
            weights[key] += w
    return {k: Fraction(w, total) for k, w in weights.items()}


# --------------------------------------------------------------------------------------------
# Shooting
# --------------------------------------------------------------------------------------------


@cache
def _allocations(
    normals: int, crits: int, normal_saves: int, crit_saves: int, brutal: bool
) -> frozenset[tuple[int, int]]:
    """Every (unblocked normals, unblocked crits) reachable by some assignment of saves.

    Each save is assigned to one attack success or to nothing; a normal success is blocked
    by a critical save or (not against Brutal) a normal save; a critical success by a
    critical save or (not against Brutal) two normal saves.
    """
    successes = [NORMAL] * normals + [CRIT] * crits
    saves = [NORMAL] * normal_saves + [CRIT] * crit_saves
    results: set[tuple[int, int]] = set()
    targets = range(-1, len(successes))
    for assignment in itertools.product(targets, repeat=len(saves)):
        got_n = [0] * len(successes)
        got_c = [0] * len(successes)
        for save, target in zip(saves, assignment, strict=True):
            if target < 0:
                continue
            if save == CRIT:
                got_c[target] += 1
            else:
                got_n[target] += 1
        left_n = left_c = 0
        for i, kind in enumerate(successes):
            normal_power = 0 if brutal else got_n[i]
            if kind == NORMAL:
                blocked = got_c[i] >= 1 or normal_power >= 1
            else:
                blocked = got_c[i] >= 1 or normal_power >= 2
            if not blocked:
                if kind == NORMAL:
                    left_n += 1
                else:
                    left_c += 1
        results.add((left_n, left_c))
    return frozenset(results)


def _best_block(
    normals: int, crits: int, normal_saves: int, crit_saves: int, brutal: bool, nd: int, cd: int
) -> tuple[int, frozenset[tuple[int, int]]]:
    """Least damage of unblocked dice and every unblocked (n, c) achieving it."""
    options = _allocations(normals, crits, normal_saves, crit_saves, brutal)
    best = min(n * nd + c * cd for n, c in options)
    return best, frozenset(o for o in options if o[0] * nd + o[1] * cd == best)


def _defence_outcomes(
    normals: int,
    crits: int,
    dice: int,
    cover: tuple[int, int],
    save: int,
    brutal: bool,
    nd: int,
    cd: int,
) -> list[tuple[Fraction, int, frozenset[tuple[int, int]]]]:
    """(probability, damage of unblocked dice, unblocked argmins) per defence roll."""
    cover_n, cover_c = cover
    # cover saves come out of the dice collected: critical cover first then normal
    cover_c = min(cover_c, dice)
    cover_n = min(cover_n, dice - cover_c)
    rolled = dice - cover_n - cover_c
    out = []
    p = Fraction(1, 6**rolled)
    for faces in itertools.product(range(1, 7), repeat=rolled):
        ns = cover_n + sum(1 for f in faces if save <= f < 6)
        cs = cover_c + sum(1 for f in faces if f == 6)
        dmg, arg = _best_block(normals, crits, ns, cs, brutal, nd, cd)
        out.append((p, dmg, arg))
    return out


@dataclass
class BruteShoot:
    """Brute-force shooting result (probabilities as Fractions)."""

    damage: dict[int, Fraction]
    retained: dict[tuple[int, int], Fraction]
    unblocked: dict[tuple[int, int], Fraction] | None  # None: an allocation tie made it ambiguous
    kill_probability: Fraction
    stun_probability: Fraction
    crit_probability: Fraction
    hot: dict[int, Fraction] | None
    area_damage: dict[int, Fraction] | None

    @property
    def expected_damage(self) -> Fraction:
        return sum((d * p for d, p in self.damage.items()), Fraction(0))


def hot_distribution(hit: int) -> dict[int, Fraction]:
    """Hot: one D6 after the attack; below Hit the user takes 2 x the result."""
    out: dict[int, Fraction] = defaultdict(Fraction)
    for face in range(1, 7):
        out[2 * face if face < hit else 0] += Fraction(1, 6)
    return dict(out)


def brute_shoot(
    attacks: int,
    hit: int,
    normal_damage: int,
    critical_damage: int,
    rules_text: str,
    *,
    save: int,
    wounds: int,
    in_cover: bool = False,
    obscured: bool = False,
    improved_cover: bool = False,
    cover_choice: str = "best",
) -> BruteShoot:
    """One shooting attack sequence, enumerated die by die."""
    rules = parse_rules(rules_text)
    retained = attack_distribution(attacks, hit, rules, obscured)
    nd, cd = normal_damage, critical_damage
    damage: dict[int, Fraction] = defaultdict(Fraction)
    unblocked: dict[tuple[int, int], Fraction] | None = defaultdict(Fraction)
    area: dict[int, Fraction] = defaultdict(Fraction)
    crit_p = Fraction(0)
    for (normals, crits), p_att in retained.items():
        if crits:
            crit_p += p_att
        pierce = max(rules.piercing, rules.piercing_crits if crits else 0)
        dice = max(DEFENCE_DICE - pierce, 0)
        if (in_cover or improved_cover) and not rules.saturate:
            # Retaining cover saves is optional ("can retain"): under "best" the defender
            # also weighs fewer or none; ties go to the option listed first.
            if not improved_cover:
                if cover_choice == "best":
                    options = {"normal": (1, 0), "none": (0, 0)}
                else:
                    options = {"normal": (1, 0)}
            elif cover_choice == "critical":
                options = {"critical": (0, 1)}
            elif cover_choice == "two_normals":
                options = {"two_normals": (2, 0)}
            else:
                options = {
                    "critical": (0, 1),
                    "two_normals": (2, 0),
                    "normal": (1, 0),
                    "none": (0, 0),
                }
        else:
            options = {"none": (0, 0)}
        outcomes = {
            name: _defence_outcomes(normals, crits, dice, cov, save, rules.brutal, nd, cd)
            for name, cov in options.items()
        }
        if len(outcomes) == 1:
            chosen = next(iter(outcomes.values()))
        else:
            exp = {name: sum(p * d for p, d, _ in outs) for name, outs in outcomes.items()}
            least = min(exp.values())
            pick = next(name for name in outcomes if exp[name] == least)
            chosen = outcomes[pick]
        devastating = rules.devastating * crits
        area[devastating] += p_att
        for p_def, dmg, arg in chosen:
            damage[dmg + devastating] += p_att * p_def
            if unblocked is not None:
                if len(arg) != 1:
                    unblocked = None
                else:
                    unblocked[next(iter(arg))] += p_att * p_def
    damage_d = {k: v for k, v in damage.items() if v}
    return BruteShoot(
        damage=damage_d,
        retained=dict(retained),
        unblocked=None if unblocked is None else {k: v for k, v in unblocked.items() if v},
        kill_probability=sum((p for d, p in damage_d.items() if d >= wounds), Fraction(0)),
        stun_probability=crit_p if rules.stun else Fraction(0),
        crit_probability=crit_p,
        hot=hot_distribution(hit) if rules.hot else None,
        area_damage=dict(area) if rules.devastating_area else None,
    )


# --------------------------------------------------------------------------------------------
# Fights
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Side:
    """Static data of one fighter during resolution."""

    nd: int
    cd: int
    brutal: bool
    shock: bool
    policy: str  # "optimal", "strike" or "block"


def _remove(dice: tuple[str, ...], i: int) -> tuple[str, ...]:
    return dice[:i] + dice[i + 1 :]


def _moves(
    own: tuple[str, ...], opp: tuple[str, ...], opp_brutal: bool
) -> list[tuple[str, int, int]]:
    """Every legal move: ("strike", i, -1) or ("block", i, j) (own die i blocks opp die j)."""
    moves = [("strike", i, -1) for i in range(len(own))]
    for i, mine in enumerate(own):
        for j, theirs in enumerate(opp):
            if opp_brutal and mine != CRIT:
                continue
            if mine == CRIT or theirs == NORMAL:
                moves.append(("block", i, j))
    return moves


def _fixed_move(
    policy: str, own: tuple[str, ...], opp: tuple[str, ...], opp_brutal: bool
) -> tuple[str, int, int]:
    """The move of a fixed policy ("strike" or "block")."""

    def first(kind: str, dice: tuple[str, ...]) -> int:
        return dice.index(kind) if kind in dice else -1

    if policy == "block" and opp:
        preferences = [(CRIT, CRIT), (NORMAL, NORMAL), (CRIT, NORMAL)]
        for mine, theirs in preferences:
            if opp_brutal and mine != CRIT:
                continue
            i, j = first(mine, own), first(theirs, opp)
            if i >= 0 and j >= 0:
                return ("block", i, j)
    i = first(CRIT, own)
    return ("strike", i if i >= 0 else first(NORMAL, own), -1)


def brute_fight(
    attacker: tuple[int, int, int, int, str, int],
    defender: tuple[int, int, int, int, str, int],
    *,
    policy: str = "optimal",
    defender_policy: str | None = None,
    first: str = "attacker",
) -> dict[str, object]:
    """A whole fight. Each fighter is ``(attacks, hit, normal dmg, crit dmg, rules, wounds)``.

    Returns a dict with ``joint`` ({(taken by attacker, taken by defender): P}), ``objective``
    (expected value), ``attacker_stunned``, ``defender_stunned``.
    """
    if defender_policy is None:
        defender_policy = policy
    a_att, a_hit, a_nd, a_cd, a_text, a_w = attacker
    b_att, b_hit, b_nd, b_cd, b_text, b_w = defender
    ra, rb = parse_rules(a_text), parse_rules(b_text)
    sides = (
        _Side(a_nd, a_cd, ra.brutal, ra.shock, policy),
        _Side(b_nd, b_cd, rb.brutal, rb.shock, defender_policy),
    )
    wounds = (a_w, b_w)

    def value(taken: tuple[int, int]) -> int:
        ta, tb = min(taken[0], a_w), min(taken[1], b_w)
        return KILL * ((tb >= b_w) - (ta >= a_w)) + tb - ta

    @cache
    def solve(
        dice: tuple[tuple[str, ...], tuple[str, ...]],
        taken: tuple[int, int],
        shock_unused: tuple[bool, bool],
        to_move: int,
    ) -> tuple[int, tuple[int, int]]:
        """(objective value, final damage taken) of the rest of the resolution."""
        if taken[0] >= wounds[0] or taken[1] >= wounds[1]:
            return value(taken), taken
        if not dice[0] and not dice[1]:
            return value(taken), taken
        me, other = to_move, 1 - to_move
        if not dice[me]:
            return solve(dice, taken, shock_unused, other)
        own, opp = dice[me], dice[other]
        side = sides[me]
        opp_brutal = sides[other].brutal

        def play(move: tuple[str, int, int]) -> tuple[int, tuple[int, int]]:
            kind, i, j = move
            new_own = _remove(own, i)
            new_opp = opp
            new_taken = list(taken)
            new_shock = list(shock_unused)
            if kind == "strike":
                new_taken[other] += side.cd if own[i] == CRIT else side.nd
                if own[i] == CRIT and shock_unused[me]:
                    new_shock[me] = False
                    if NORMAL in new_opp:
                        new_opp = _remove(new_opp, new_opp.index(NORMAL))
                    elif CRIT in new_opp:
                        new_opp = _remove(new_opp, new_opp.index(CRIT))
            else:
                new_opp = _remove(opp, j)
            new_dice = [(), ()]
            new_dice[me], new_dice[other] = new_own, new_opp
            return solve(
                (new_dice[0], new_dice[1]),
                (new_taken[0], new_taken[1]),
                (new_shock[0], new_shock[1]),
                other,
            )

        if side.policy == "optimal":
            # blocking when the opponent has nothing left is never useful (only strikes)
            results = [play(m) for m in _moves(own, opp, opp_brutal)]
            pick = max if me == 0 else min
            return pick(results, key=lambda r: r[0])
        return play(_fixed_move(side.policy, own, opp, opp_brutal))

    dist_a = attack_distribution(a_att, a_hit, ra)
    dist_b = attack_distribution(b_att, b_hit, rb)
    joint: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    objective = Fraction(0)
    start = 0 if first == "attacker" else 1
    for (an, ac), pa in dist_a.items():
        for (bn, bc), pb in dist_b.items():
            p = pa * pb
            taken = (rb.devastating * bc, ra.devastating * ac)
            if taken[0] >= a_w or taken[1] >= b_w:
                val, final = value(taken), taken
            else:
                dice = ((CRIT,) * ac + (NORMAL,) * an, (CRIT,) * bc + (NORMAL,) * bn)
                val, final = solve(dice, taken, (ra.shock, rb.shock), start)
            joint[(min(final[0], a_w), min(final[1], b_w))] += p
            objective += p * val
    crit_a = sum((p for (_, c), p in dist_a.items() if c), Fraction(0))
    crit_b = sum((p for (_, c), p in dist_b.items() if c), Fraction(0))
    return {
        "joint": {k: v for k, v in joint.items() if v},
        "objective": objective,
        "attacker_stunned": crit_b if rb.stun else Fraction(0),
        "defender_stunned": crit_a if ra.stun else Fraction(0),
    }
