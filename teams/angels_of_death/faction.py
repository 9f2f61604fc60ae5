"""The Angels of Death faction rule Astartes (the Chapter Tactics: :mod:`.tactics`), played by
the shared :mod:`teams.astartes` installer."""

from __future__ import annotations

from engine.rules.registry import register
from teams.angels_of_death.common import is_bolt
from teams.astartes import astartes_installer, weapon_base

_HEAVY_BOLT = ("bolt sniper rifle", "heavy bolter")


def _heavy_again(first: str, weapon: str) -> bool:
    """A second shot with the same bolt sniper rifle or heavy bolter as the first (any
    profile: ``"heavy bolter (focused)"`` and ``"Heavy Bolter"`` are the same weapon)."""
    a, b = weapon_base(first), weapon_base(weapon)
    return a == b and b in _HEAVY_BOLT


install_astartes = astartes_installer(bolt=is_bolt, extra_ap=_heavy_again)
"""Astartes (faction rule): during its activation, each friendly operative may perform
two Shoot actions or two Fight actions (not both twice); when it shoots twice, a bolt
weapon must be used for at least one of them. Each friendly operative can counteract
regardless of its order. Trigger: the core's ``would_repeat_action``,
``would_refuse_weapon`` and ``would_counteract_regardless_of_order`` hooks, and the
``shoot_declared`` event (the first shot's weapon, until the end of the activation).
Limits: activations only (a counteraction is still one action, 1.6); a second shot with
the same bolt sniper rifle or heavy bolter costs 1 additional AP (refused with fewer
than 2AP left; the AP taken when it is declared)."""

register(
    "angels_of_death/faction_rule/astartes",
    install_astartes,
    "Faction rule: two Shoot (one with a bolt weapon) or two Fight actions per activation; "
    "counteract whatever the order.",
)
