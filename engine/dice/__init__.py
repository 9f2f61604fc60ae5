"""The dice-resolution core (``rules/KT24.md`` sections 2.4, 5, 6).

- :func:`parse_weapon_rules` / :class:`WeaponRules`: weapon rules as typed specs.
- :class:`AttackProfile`, :class:`Target`, :class:`Fighter`: the inputs.
- :func:`shoot`: exact shooting distribution (:class:`ShootResult`).
- :func:`fight`: exact fight distribution with optimal or fixed policies (:class:`FightResult`).
- :mod:`engine.dice.sample`: the same rules rolled with a ``numpy.random.Generator``.
"""

from engine.dice.attack import AttackRoll, attack_roll
from engine.dice.fight import POLICIES, FighterOutcome, FightResult, fight
from engine.dice.pmf import Pmf
from engine.dice.profile import AttackProfile, Fighter, Target, parse_damage, parse_threshold
from engine.dice.rules import DiceRules, WeaponRule, WeaponRules, parse_weapon_rules
from engine.dice.shoot import ShootResult, hot_damage, shoot

__all__ = [
    "POLICIES",
    "AttackProfile",
    "AttackRoll",
    "DiceRules",
    "FightResult",
    "Fighter",
    "FighterOutcome",
    "Pmf",
    "ShootResult",
    "Target",
    "WeaponRule",
    "WeaponRules",
    "attack_roll",
    "fight",
    "hot_damage",
    "parse_damage",
    "parse_threshold",
    "parse_weapon_rules",
    "shoot",
]
