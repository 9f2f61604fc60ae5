"""The dice core's KT21 mode (``rules/KT21.md`` 4.3, 10, 11, 12): one import for the game.

- Inputs: :class:`Kt21Attack` (A, BS/WS, D, KT21 rules), :class:`Kt21Defender` (DF, SV, W,
  invulnerable save, in Cover), :class:`Kt21Fighter` (melee profile, wounds, combat support,
  "parry discards two").
- :func:`kt21_roll`: the retained attack dice; :func:`kt21_shoot` / :func:`kt21_shoot_pmf`:
  exact shooting attack; :func:`defence_choice` / :func:`best_save`: the defender's SV vs
  invulnerable save and cover save choice against a retained roll; :func:`resolve_saves`: the
  optimal allocation of saves; :func:`kt21_fight`: exact fight with optimal resolution.
- Sampling (numpy): :mod:`engine.dice.kt21_sample`, imported on its own.
"""

from engine.dice.kt21_fight import Kt21FightResult, Kt21Matchup, kt21_fight
from engine.dice.kt21_profile import Kt21Attack, Kt21Defender, Kt21Fighter, clamp_threshold
from engine.dice.kt21_roll import Kt21Roll, kt21_roll
from engine.dice.kt21_shoot import (
    DefenceChoice,
    Kt21ShootResult,
    best_save,
    defence_choice,
    defence_dice,
    kt21_shoot,
    kt21_shoot_pmf,
    mortal_wounds_per_crit,
    not_modelled,
    resolve_saves,
)

__all__ = [
    "DefenceChoice",
    "Kt21Attack",
    "Kt21Defender",
    "Kt21FightResult",
    "Kt21Fighter",
    "Kt21Matchup",
    "Kt21Roll",
    "Kt21ShootResult",
    "best_save",
    "clamp_threshold",
    "defence_choice",
    "defence_dice",
    "kt21_fight",
    "kt21_roll",
    "kt21_shoot",
    "kt21_shoot_pmf",
    "mortal_wounds_per_crit",
    "not_modelled",
    "resolve_saves",
]
