"""KT21 ploys (``rules/KT21.md`` 14): strategic ploys in the Strategy phase, tactical ploys at
their trigger, and Command Re-roll, the one universal ploy.

- Strategic ploys are offered in the Strategy phase's ploy step
  (:mod:`engine.rules.kt21.turning_point`), the core's Gambit step: a team's strategic ploy
  is a :class:`engine.game.ploys.PloyLike` of kind ``"strategy"`` with the trigger
  ``"gambit"``; each is used at most once per turning point, so once per Strategy phase.
- Tactical ploys are ploys of kind ``"firefight"`` (the KT24 name of the same idea) at the
  core's triggers (their stated moment); each once per turning point unless repeatable.
- Command Re-roll (1CP, tactical): after rolling its attack or defence dice, a player
  re-rolls one of them, never a die already re-rolled; usable several times per turning
  point. It is the same ploy as KT24's (:mod:`engine.rules.command_reroll`, digest 14 "Δ
  KT24": identical), offered at the ``attack_dice`` and ``defence_dice`` windows the
  shooting and fighting sequences open.
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.rules import command_reroll

__all__ = ["install"]


def install(hooks: Hooks) -> None:
    """Offer Command Re-roll to both players (14)."""
    command_reroll.install(hooks)
