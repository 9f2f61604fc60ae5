"""What outcomes are worth to the agents, in *operatives*: an enemy operative incapacitated is
worth 1, each wound dealt ``DAMAGE_WEIGHT`` of one wound's share of its starting wounds, a VP
``VP_VALUE``. Exact values of attacks come from the exact dice core (:mod:`engine.dice`);
healing and stunning are valued by the rules of thumb their docstrings state. The heuristic
agent (:mod:`engine.agents.heuristic`) and the advice of rule code use the same values.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from engine.dice.profile import AttackProfile, Fighter, Target
from engine.dice.shoot import defence_roll, shoot, unblocked
from engine.game.state import OperativeState
from engine.game.work import Work

__all__ = [
    "DAMAGE_WEIGHT",
    "STUN_GAIN",
    "VP_VALUE",
    "defence_value",
    "fight_value",
    "heal_value",
    "shot_value",
    "starting_wounds",
    "stun_value",
]

#: Weight of a wound dealt relative to an incapacitation (per starting wounds).
DAMAGE_WEIGHT = 0.5

VP_VALUE = 1.0
"""What one VP is worth to the agent, in operatives (an enemy operative incapacitated is 1)."""

STUN_GAIN = 0.1
"""Value of an operative's action point lost to a stun grenade, in operatives
(:func:`stun_value`)."""


@lru_cache(maxsize=65536)
def shot_value(profile: AttackProfile, target: Target, max_wounds: int) -> float:
    """Value of one shooting attack: P(incapacitated) + ``DAMAGE_WEIGHT`` x expected damage
    (capped at the wounds left) / starting wounds (exact, :func:`engine.dice.shoot.shoot`).

    Args:
        profile: the attack profile (Hit already adjusted).
        target: the target's Save, wounds left, cover and obscured.
        max_wounds: the target's starting wounds (>= 1).
    """
    res = shoot(profile, target)
    cap = target.wounds
    total = res.damage.total
    exp = sum(min(d, cap) * w for d, w in res.damage.weights) / total
    return float(res.kill_probability) + DAMAGE_WEIGHT * exp / max_wounds


@lru_cache(maxsize=65536)
def fight_value(
    attacker: AttackProfile,
    wounds_a: int,
    max_a: int,
    defender: AttackProfile | None,
    wounds_d: int,
    max_d: int,
) -> float:
    """The attacker's value of a fight resolved optimally by both sides (5.2): P(defender
    incapacitated) - P(attacker incapacitated) + ``DAMAGE_WEIGHT`` x (damage dealt / the
    defender's starting wounds - damage taken / the attacker's), damage capped at wounds.
    A fight too large to solve exactly (:data:`engine.dice.fight.MAX_FIGHT_STATES`, reached
    only by team files far above real profiles) is resolved with the fixed ``block`` policy
    for both sides instead.

    Args:
        attacker, defender: melee profiles (assists folded into Hit); ``defender`` None when it
            cannot retaliate.
        wounds_a, wounds_d: wounds left; max_a, max_d: starting wounds.
    """
    from engine.dice.fight import fight

    dprof = defender if defender is not None else AttackProfile(0, 6, 0, 0)
    res = fight(Fighter(attacker, wounds_a), Fighter(dprof, wounds_d), fallback=True)
    a, d = res.attacker, res.defender
    return (
        float(d.incapacitated_probability)
        - float(a.incapacitated_probability)
        + DAMAGE_WEIGHT
        * (float(d.expected_damage_taken) / max_d - float(a.expected_damage_taken) / max_a)
    )


def defence_value(
    normals: int,
    crits: int,
    profile: AttackProfile,
    save: int,
    cn: int,
    cc: int,
    rolled: int,
    fixed: tuple[int, ...],
    wounds: int,
    max_wounds: int,
) -> float:
    """Value to the attacker when ``rolled`` more defence dice are rolled besides ``fixed``
    faces and ``cn``/``cc`` cover saves."""
    fn = sum(1 for v in fixed if v != 6 and v != 1 and v >= save)
    fc = sum(1 for v in fixed if v == 6)
    total = 0.0
    weight = 0
    for sn, sc, wgt in defence_roll(rolled, save) if rolled > 0 else ((0, 0, 1),):
        un, uc = unblocked(
            normals,
            crits,
            sn + fn + cn,
            sc + fc + cc,
            profile.normal_damage,
            profile.critical_damage,
            profile.rules.dice.brutal,
        )
        dmg = un * profile.normal_damage + uc * profile.critical_damage
        total += wgt * ((dmg >= wounds) + DAMAGE_WEIGHT * min(dmg, wounds) / max_wounds)
        weight += wgt
    return total / weight


def starting_wounds(w: Work, o: OperativeState) -> int:
    """The starting wounds (datacard W) of ``o``."""
    return w.ctx.datacards[o.id].wounds


def heal_value(w: Work, target: str, expected: int = 4) -> float:
    """The value of ``target`` regaining up to ``expected`` lost wounds (a 2D3 heal: 4 on
    average), valued as wounds dealt are: ``DAMAGE_WEIGHT`` of one wound's share of its
    starting wounds, at most the wounds it lost."""
    t = w.op(target)
    most = w.ctx.datacards[t.id].wounds
    return float(DAMAGE_WEIGHT * min(expected, most - t.wounds) / most)


def stun_value(w: Work, me: str, tested: Iterable[str], test: int) -> float:
    """The Stun Grenade rule of thumb (``rules/KT24.md`` 7.2), in operatives, for player
    ``me``: the chance that a stun test stuns (a D6 of ``test``+: ``(7 - test) / 6``) times
    :data:`STUN_GAIN` for each operative in ``tested`` (ids) that is an enemy (half for one
    already activated this turning point, whose next activation is further off), minus the
    same for each friendly one."""
    chance = (7 - test) / 6
    value = 0.0
    for op in tested:
        q = w.op(op)
        weight = 1.0 if q.ready else 0.5
        value += weight if q.player != me else -weight
    return chance * STUN_GAIN * value
