"""The Legionaries' faction rules other than the Marks' own (package docstring)."""

from __future__ import annotations

from engine.game.work import Work
from engine.rules.registry import register
from teams.astartes import astartes_installer, bolt_among
from teams.legionaries.common import has_token, legionary

MUTABILITY = "mutability_and_change"  # token of the firefight ploy: no action twice

BOLT_WEAPONS = ("Bolt Pistol", "Boltgun", "Tainted Bolt Pistol")
"""The weapons Astartes accepts for one of two Shoot actions (the heavy bolter is not one)."""


def _may_repeat(w: Work, op: str) -> bool:
    return not has_token(w, op, MUTABILITY)


install_astartes = astartes_installer(legionary, bolt_among(*BOLT_WEAPONS), _may_repeat)
"""Astartes (package docstring)."""

register(
    "legionaries/faction_rule/astartes",
    install_astartes,
    "Two Shoot (one with a bolt pistol, boltgun or tainted bolt pistol) or two Fight actions "
    "per activation; counteract whatever the order.",
)
