"""Team weapon rules printed on several teams' datacards (the ``*`` rules, ``rules/KT24.md``
6 "team rare rules"), as hook installers the teams' modules register under their own rule
ids (``teams/kasrkin/``, ``teams/kommandos/``...).

- **Concealed Position***: the weapon can only be used during the first Shoot action its
  operative performs in the battle.
"""

from __future__ import annotations

from typing import Any

from engine.dice.rules import TeamRule, WeaponRules
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work

__all__ = ["CONCEALED_POSITION", "has_team_rule", "install_concealed_position"]

CONCEALED_POSITION = "Concealed Position"
SHOT_THIS_BATTLE = "shot_this_battle"
"""Effect kind: the operative has performed a Shoot action this battle (until its end)."""


def has_team_rule(rules: WeaponRules, name: str) -> bool:
    """The weapon profile's rules include the team weapon rule ``name*``."""
    return any(isinstance(r, TeamRule) and r.rule_name == name for r in rules)


def _carries(w: Work, op_id: str, name: str) -> bool:
    return any(
        has_team_rule(p.rules, name) for wpn in w.ctx.datacards[op_id].weapons for p in wpn.profiles
    )


def install_concealed_position(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Concealed Position* (module docstring) for the operatives of ``players``: the first
    Shoot action of such an operative is remembered (an effect lasting the battle), and from
    then on its Concealed Position weapons are not usable."""

    def on_shoot(w: Work, ev: Event) -> None:
        op = ev["op"]
        if w.ctx.owner[op] not in players or not _carries(w, op, CONCEALED_POSITION):
            return
        if not any(e.kind == SHOT_THIS_BATTLE and e.op == op for e in w.effects):
            w.effects.append(Effect(SHOT_THIS_BATTLE, op, "end_battle", source=op))

    def refuse(w: Work, reason: str | None, **info: Any) -> str | None:
        if reason is not None:
            return reason
        o, profile = info["op"], info["profile"]
        if w.ctx.owner[o.id] not in players or not has_team_rule(profile.rules, CONCEALED_POSITION):
            return None
        if any(e.kind == SHOT_THIS_BATTLE and e.op == o.id for e in w.effects):
            return (
                f"{info['weapon']} has Concealed Position*: {o.id} can only use it during the "
                "first Shoot action it performs in the battle"
            )
        return None

    hooks.on("shoot_declared", on_shoot)
    hooks.transform("would_refuse_weapon", refuse)
