"""The Kommandos' team rules that the engine plays, registered by rule id
(``engine.rules.registry``).

- **Concealed Position*** (Snipa Boy): :mod:`engine.rules.team_weapon_rules`.
- **Explosive*** (Bomb Squig's explosives): the operative can Shoot with this weapon while
  within control range of an enemy operative; no valid target is selected: the operative
  itself is always the primary target, never in cover or obscured (its Blast then reaches
  every operative visible to and within the Blast distance of it).
"""

from __future__ import annotations

from typing import Any

from engine.game.context import Hooks
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.rules.registry import register
from engine.rules.team_weapon_rules import has_team_rule, install_concealed_position

EXPLOSIVE = "Explosive"


def install_explosive(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Explosive* (module docstring) for the operatives of ``players``."""

    def applies(w: Work, o: OperativeState, profile: Any) -> bool:
        return w.ctx.owner[o.id] in players and has_team_rule(profile.rules, EXPLOSIVE)

    def in_control_range(w: Work, allowed: bool, **info: Any) -> bool:
        return allowed or applies(w, info["op"], info["profile"])

    def target(w: Work, fixed: str | None, **info: Any) -> str | None:
        o = info["op"]
        if fixed is None and applies(w, o, info["profile"]):
            return str(o.id)
        return fixed

    hooks.transform("would_shoot_in_control_range", in_control_range)
    hooks.transform("would_fix_primary_target", target)


register(
    "kommandos/weapon_rule/concealed_position",
    install_concealed_position,
    "The weapon can only be used in the operative's first Shoot action of the battle.",
)
register(
    "kommandos/weapon_rule/explosive",
    install_explosive,
    "Shoot even within enemy control range; the shooter itself is the primary target, never "
    "in cover or obscured.",
)
