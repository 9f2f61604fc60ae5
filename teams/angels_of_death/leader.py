"""Heroic Leader, the Space Marine Captain's ability: once per turning point, one of three
benefits (a firefight ploy for 0CP for the Captain, Combat Doctrine when an operative is
activated, Adjust Doctrine for 0CP)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.registry import register
from teams.angels_of_death.advice import combat_doctrine_advice
from teams.angels_of_death.common import DOCTRINES, has_ability, set_doctrine, specified
from teams.angels_of_death.equipment import reliquaries_free
from teams.angels_of_death.ploys import (
    ADJUST_DOCTRINE,
    COMBAT_DOCTRINE,
    SHOCK_ASSAULT,
    TRANSHUMAN_PHYSIOLOGY,
    WRATH_OF_VENGEANCE,
)

HEROIC_LEADER = "Heroic Leader"
_USED = "heroic_leader"

FIREFIGHT_PLOYS = (
    ADJUST_DOCTRINE.name,
    SHOCK_ASSAULT.name,
    TRANSHUMAN_PHYSIOLOGY.name,
    WRATH_OF_VENGEANCE.name,
)
"""The team's firefight ploys (Command Re-roll is excluded by the rule)."""

_PRINTED = {
    ADJUST_DOCTRINE.name: ADJUST_DOCTRINE.cp,
    SHOCK_ASSAULT.name: SHOCK_ASSAULT.cp,
    TRANSHUMAN_PHYSIOLOGY.name: TRANSHUMAN_PHYSIOLOGY.cp,
    WRATH_OF_VENGEANCE.name: WRATH_OF_VENGEANCE.cp,
}


def _captains(w: Work, player: str) -> list[OperativeState]:
    return [o for o in w.alive(player) if has_ability(w, o.id, HEROIC_LEADER)]


def leader_unused(w: Work, player: str) -> bool:
    """``player`` has a Captain in the killzone and has not used Heroic Leader this turning
    point."""
    if any(e.kind == "token" and e.player == player and e.detail == _USED for e in w.effects):
        return False
    return bool(_captains(w, player))


def _free_captain(w: Work, player: str) -> bool:
    """A Captain of ``player`` is in the killzone and not within control range of an enemy."""
    return any(not w.in_enemy_control_range(o) for o in _captains(w, player))


def _mark_used(w: Work, player: str) -> None:
    w.add_effect(Effect("token", "", "end_tp", source=HEROIC_LEADER, detail=_USED, player=player))
    w.emit("heroic_leader_used", player=player)


def _ploy_free(w: Work, player: str, ploy: str) -> bool:
    """Whether Heroic Leader makes the firefight ploy ``ploy`` cost 0CP now: the Captain is
    the operative the ploy specifies (:func:`teams.angels_of_death.common.specified`), or
    the ploy is Adjust Doctrine and a Captain is in the killzone outside enemy control
    range."""
    if ploy not in FIREFIGHT_PLOYS or not leader_unused(w, player):
        return False
    if reliquaries_free(w, player, ploy):
        return False  # free already: Heroic Leader is kept
    if ploy == ADJUST_DOCTRINE.name and _free_captain(w, player):
        return True
    op = specified(w, player, ploy)
    return bool(op) and has_ability(w, op, HEROIC_LEADER)


@attrs.frozen(slots=True)
class HeroicDoctrine:
    """Heroic Leader's second option: Combat Doctrine used when a friendly operative is
    activated (its CP paid as normal), while a Captain is in the killzone and not within
    control range of an enemy operative and Combat Doctrine was not used this turning point.
    Shares the ploy's name, so it counts as that ploy used. Actions ``Ploy combat doctrine
    <doctrine>`` in the activation_start window of a friendly operative. A
    :class:`engine.game.ploys.PloyLike`."""

    name: str = COMBAT_DOCTRINE.name
    kind: str = "strategy"
    triggers: tuple[str, ...] = ("activation_start",)
    cp: int = COMBAT_DOCTRINE.cp
    repeatable: bool = False

    def _applies(self, w: Work, player: str, info: Mapping[str, Any]) -> bool:
        op = str(info.get("op", ""))
        if not op or w.ctx.owner.get(op) != player:
            return False
        return leader_unused(w, player) and _free_captain(w, player)

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Ploy combat doctrine <doctrine>`` for each doctrine, when it applies."""
        if not self._applies(w, player, info):
            return []
        return [Action("Ploy", text=f"combat doctrine {d}") for d in DOCTRINES]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Ploy combat doctrine <doctrine>``."""
        return action.verb == "Ploy" and action.text.startswith("combat doctrine ")

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """:func:`teams.angels_of_death.advice.combat_doctrine_advice`."""
        return combat_doctrine_advice(w, player, action, info)

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Select the doctrine (as Combat Doctrine does) and use up Heroic Leader."""
        doctrine = action.text.rsplit(" ", 1)[1]
        _mark_used(w, player)
        set_doctrine(w, player, doctrine, COMBAT_DOCTRINE.name)
        w.emit("combat_doctrine_selected", player=player, doctrine=doctrine, ploy=self.name)


HEROIC_DOCTRINE = HeroicDoctrine()


def _install_heroic_leader(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Heroic Leader (ability of the Space Marine Captain): once per turning point, one of:
    a team firefight ploy for 0CP if the Captain is the specified operative; Combat
    Doctrine when a friendly operative is activated (:data:`HEROIC_DOCTRINE`), the Captain
    outside enemy control range; Adjust Doctrine for 0CP, the Captain outside enemy control
    range. Trigger: the core's ``would_cost_ploy`` hook (0CP when it applies; the ploy's
    ``ploy_used`` event then uses Heroic Leader up) and the activation_start window. Limits:
    once per turning point (a token of the player); the specified operative is the one the
    ploy's text specifies (:data:`teams.angels_of_death.common.SPECIFIED_BY`: the active
    operative for Adjust Doctrine, the fighter for Shock Assault, the operative shot for
    Transhuman Physiology, the counteracting one for Wrath Of Vengeance); Command Re-roll
    and other teams' or universal ploys never."""

    def cost(w: Work, value: int, **info: Any) -> int:
        player, ploy = str(info.get("player", "")), str(info.get("ploy", ""))
        if value <= 0 or player not in players or not _ploy_free(w, player, ploy):
            return value
        return 0

    def used(w: Work, ev: Any) -> None:
        player, ploy = str(ev["player"]), str(ev["ploy"])
        if player not in players or ev["cp"] or not _PRINTED.get(ploy):
            return
        if _ploy_free(w, player, ploy):
            _mark_used(w, player)

    hooks.transform("would_cost_ploy", cost)
    hooks.on("ploy_used", used)
    hooks.ploy(HEROIC_DOCTRINE, players)


register(
    "angels_of_death/ability/heroic_leader",
    _install_heroic_leader,
    "Ability: once per TP, a free firefight ploy for the Captain, Combat Doctrine at an "
    "activation, or a free Adjust Doctrine.",
)
