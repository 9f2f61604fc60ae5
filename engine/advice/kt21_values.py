"""What KT21 attacks are worth to the agents (``rules/KT21.md`` 10, 11, 12), in the unit of
:mod:`engine.advice.values` (an enemy operative incapacitated is 1, each wound dealt
``DAMAGE_WEIGHT`` of one wound's share of its starting wounds), exactly, from the KT21 mode
of the dice core (:mod:`engine.dice.kt21`: :func:`~engine.dice.kt21.kt21_shoot` with the
defender's best choice of Save, invulnerable save and cover save, and
:func:`~engine.dice.kt21.kt21_fight` with both sides resolving optimally).

Which valuation an attack gets is read from the data, never from the ruleset in play: a
weapon profile carrying KT21 special and critical hit rules (``kt21_rules``) is a KT21
profile, one carrying KT24 weapon rules (``rules``) a KT24 one, and a profile carrying
neither is its team file's edition's (:func:`kt21_profile`). A KT21 datacard gives its DF
and its invulnerable save (:class:`~engine.teams.model.Operative`), so the target's
side (:func:`kt21_defender`) reads them from there.

The BS/WS is the datacard's, 1 worse when the operative is injured, plus its ``hit`` stat
changes and ``worsen`` (Overwatch: 1), less ``support`` (combat support), clamped to 2+..6+
(``rules/KT21.md`` 4.2, 4.4, 10.1 step 3, 11 step 3), the reading of
:func:`engine.rules.kt21.attack_dice.hit_threshold`.
"""

from __future__ import annotations

from functools import lru_cache

from engine.advice.values import DAMAGE_WEIGHT
from engine.dice.kt21 import Kt21Attack, Kt21Defender, Kt21Fighter, kt21_fight, kt21_shoot
from engine.dice.kt21_profile import clamp_threshold
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.teams.model import WeaponProfile

__all__ = [
    "KT21_EDITION",
    "kt21_attack",
    "kt21_defender",
    "kt21_fight_value",
    "kt21_fighter",
    "kt21_kill_chance",
    "kt21_profile",
    "kt21_shot_value",
    "kt21_team",
    "kt21_weapon_reach",
]

KT21_EDITION = "kt21"
"""The edition a KT21 team file names (:attr:`engine.teams.model.Team.edition`)."""


def kt21_team(w: Work, op: str) -> bool:
    """Whether operative ``op``'s team file is a KT21 one (its datacards are KT21
    datacards; a team file's profiles carry only its edition's rules,
    :mod:`engine.teams.limits`). A cheap test: no profile of another team is a KT21 one."""
    return bool(w.ctx.rosters[w.ctx.owner[op]].team.edition == KT21_EDITION)


def kt21_profile(w: Work, op: str, prof: WeaponProfile) -> bool:
    """Whether the weapon profile ``prof`` of operative ``op`` is valued as a KT21 profile
    (module docstring): it carries KT21 rules, or it carries no rules at all and ``op``'s
    team file is a KT21 one."""
    if prof.kt21_rules:
        return True
    if prof.rules:
        return False
    return kt21_team(w, op)


def kt21_attack(
    w: Work,
    o: OperativeState,
    prof: WeaponProfile,
    *,
    worsen: int = 0,
    support: int = 0,
    attacks: int | None = None,
) -> Kt21Attack:
    """The dice core's :class:`~engine.dice.kt21.Kt21Attack` of ``o`` attacking with ``prof``
    now: the BS/WS as the module docstring says; ``attacks``: the number of attack dice
    when not the profile's A (a Fusillade split, ``rules/KT21.md`` 12)."""
    change = (1 if w.injury_penalties(o) else 0) + worsen - support + w.stat_change(o.id, "hit")
    return Kt21Attack(
        prof.attacks if attacks is None else attacks,
        clamp_threshold(prof.hit + change),
        prof.normal_damage,
        prof.critical_damage,
        prof.kt21_rules,
    )


def kt21_defender(w: Work, t: OperativeState, in_cover: bool) -> Kt21Defender:
    """The dice core's :class:`~engine.dice.kt21.Kt21Defender` for ``t`` shot now: its
    datacard's DF, Save (with its ``save`` stat changes, never better than 2+), invulnerable
    save and wounds left, ``in_cover`` as the attack's sight gives it (``rules/KT21.md`` 10.1
    step 4, 10.2, 10.3); the defender's choices are the dice core's best ones."""
    card = w.ctx.datacards[t.id]
    save = clamp_threshold(card.save + w.stat_change(t.id, "save"))
    return Kt21Defender(card.defence, save, max(1, t.wounds), card.invulnerable, in_cover)


@lru_cache(maxsize=65536)
def kt21_shot_value(attack: Kt21Attack, defender: Kt21Defender, max_wounds: int) -> float:
    """Value of one KT21 shooting attack: P(incapacitated) + ``DAMAGE_WEIGHT`` x expected
    damage (capped at the wounds left) / ``max_wounds`` (the target's starting wounds), the
    defender choosing its save and cover save for the least expected damage (exact,
    :func:`~engine.dice.kt21.kt21_shoot`). The shooter's own Hot damage is not counted here
    (:func:`engine.agents.position.shoot_action_value` subtracts it)."""
    res = kt21_shoot(attack, defender)
    cap = defender.wounds
    total = res.damage.total
    exp = sum(min(d, cap) * w for d, w in res.damage.weights) / total
    return float(res.kill_probability) + DAMAGE_WEIGHT * exp / max(1, max_wounds)


def kt21_kill_chance(attack: Kt21Attack, defender: Kt21Defender) -> float:
    """The exact probability that one KT21 shooting attack incapacitates its target."""
    return float(kt21_shoot(attack, defender).kill_probability)


@lru_cache(maxsize=65536)
def kt21_fight_value(attacker: Kt21Fighter, max_a: int, defender: Kt21Fighter, max_d: int) -> float:
    """The attacker's value of a KT21 fight resolved optimally by both sides (11): P(defender
    incapacitated) - P(attacker incapacitated) + ``DAMAGE_WEIGHT`` x (damage dealt / the
    defender's starting wounds ``max_d`` - damage taken / the attacker's ``max_a``), damage
    capped at the wounds left (exact, :func:`~engine.dice.kt21.kt21_fight`). A defender
    without a melee weapon has a profile of 0 attacks (DC 16.17)."""
    res = kt21_fight(attacker, defender)
    a, d = res.attacker, res.defender
    return (
        float(d.incapacitated_probability)
        - float(a.incapacitated_probability)
        + DAMAGE_WEIGHT
        * (
            float(d.expected_damage_taken) / max(1, max_d)
            - float(a.expected_damage_taken) / max(1, max_a)
        )
    )


def kt21_fighter(
    w: Work, o: OperativeState, prof: WeaponProfile | None, support: int = 0
) -> Kt21Fighter:
    """``o``'s side of a KT21 fight with the melee profile ``prof`` (``None``: it has no
    melee weapon and rolls no dice, DC 16.17), ``support`` supporting operatives (11 step 3)."""
    if prof is None:
        return Kt21Fighter(Kt21Attack(0, 6, 0, 0), max(1, o.wounds))
    return Kt21Fighter(kt21_attack(w, o, prof, support=support), max(1, o.wounds), support=0)


def kt21_weapon_reach(prof: WeaponProfile) -> float | None:
    """The Rng x of a KT21 profile in inches plus the engine's tolerance, ``None`` without
    one (no limit; ``rules/KT21.md`` 12 Rng)."""
    rng = prof.kt21_rules.value("Rng")
    return None if rng is None else float(rng) + 1e-6
