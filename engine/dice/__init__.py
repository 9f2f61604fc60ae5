"""The dice-resolution core (``rules/KT24.md`` sections 2.4, 5, 6).

- :func:`parse_weapon_rules` / :class:`WeaponRules`: weapon rules as typed specs.
- :class:`AttackProfile`, :class:`Target`, :class:`Fighter`: the inputs.
- :func:`shoot`: exact shooting distribution (:class:`ShootResult`), computed by the
  table-driven kernel :mod:`engine.dice.kernel` (``shoot_reference`` in
  :mod:`engine.dice.shoot` is the plain computation it is tested against, weight for weight).
- :func:`fight`: exact fight distribution with optimal or fixed policies (:class:`FightResult`).
- :mod:`engine.dice.sample`: the same rules rolled with a ``numpy.random.Generator``.
- :mod:`engine.dice.compiled`: whether the kernel runs compiled (mypyc, when the install
  could compile it) and ``KILLTEAM_PURE_PYTHON=1`` for its plain-Python reference.
"""

# First: with KILLTEAM_PURE_PYTHON=1 the kernel loads from its source (compiled.py).
from engine.dice import compiled as _compiled  # noqa: F401
from engine.dice.attack import AttackRoll, attack_roll
from engine.dice.fight import POLICIES, FighterOutcome, FightResult, fight
from engine.dice.pmf import Pmf
from engine.dice.profile import AttackProfile, Fighter, Target, parse_damage, parse_threshold
from engine.dice.rules import DiceRules, WeaponRule, WeaponRules, parse_weapon_rules
from engine.dice.shoot import ShootResult, hot_damage, shoot


def clear_caches() -> None:
    """Empty every memo of the dice core (tables, attack rolls, fight resolvers).

    Results never depend on the caches; benchmarks call this to measure cold computations.
    """
    import importlib

    # The functions shoot/fight shadow their submodules' names in this package.
    attack = importlib.import_module("engine.dice.attack")
    fight_module = importlib.import_module("engine.dice.fight")
    shoot_module = importlib.import_module("engine.dice.shoot")

    for cached in (
        attack._trinomial,
        attack._max_multiplicity,
        attack._rolled,
        attack._attack_roll,
        shoot_module.defence_roll,
        shoot_module.unblocked,
        shoot_module._shoot_cached,
        fight_module._resolver,
    ):
        cached.cache_clear()


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
    "clear_caches",
    "fight",
    "hot_damage",
    "parse_damage",
    "parse_threshold",
    "parse_weapon_rules",
    "shoot",
]
