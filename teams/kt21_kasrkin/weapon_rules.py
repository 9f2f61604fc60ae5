"""The KT21 Kasrkin's weapon rule written with a ``*`` (``rules/KT21.md`` 4.1, 12).

- **Proximity*** (Demo-Trooper's melta mine): the melta mine attacks only when an enemy
  first moves within 2" of the operative's Melta Mine token (a shooting attack on each
  operative within 2" of the token: :mod:`teams.kt21_kasrkin.melta_mine`, with the unique
  action Plant Melta Mine that puts the token down), and never by any other means: Shoot
  and Overwatch refuse it, naming the rule.
"""

from __future__ import annotations

from typing import Any

from engine.game.context import Hooks
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.rules.registry import register
from engine.teams.model import WeaponProfile
from teams.kt21_kasrkin.common import owned_by

__all__ = ["PROXIMITY_REFUSAL", "install_proximity"]

PROXIMITY_REFUSAL = (
    '{weapon} attacks only when an enemy moves within 2" of its Melta Mine token, never by '
    "a Shoot or an Overwatch (Proximity*, rules/KT21.md 12)"
)
"""The refusal of a shooting attack with a Proximity* weapon."""


def install_proximity(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Proximity* (module docstring): the ``would_refuse_weapon`` hook of the KT21 shooting
    attack refuses a profile printing ``Proximity*``."""

    def refuse(
        w: Work, refused: Any, *, op: OperativeState, weapon: str, profile: Any, **_: Any
    ) -> Any:
        if refused or not owned_by(w, op.id, players) or not isinstance(profile, WeaponProfile):
            return refused
        if "Proximity" in profile.kt21_rules.team_rules():
            return PROXIMITY_REFUSAL.format(weapon=weapon)
        return refused

    hooks.transform("would_refuse_weapon", refuse)


register(
    "kt21_kasrkin/weapon_rule/proximity",
    install_proximity,
    "The melta mine attacks only through its Melta Mine token (Plant Melta Mine), never by "
    "a Shoot or an Overwatch.",
)
