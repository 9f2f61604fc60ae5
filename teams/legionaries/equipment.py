"""The Legionaries' team equipment (package docstring): Malefic Blades, Warded Armour,
Tainted Rounds, Chaos Talismans. Each plays only once its player selected it
(``engine.rules.equipment.selection.has_equipment``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.dice.rules import WeaponRules, parse_weapon_rules
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.equipment.selection import give_weapons, has_equipment
from engine.rules.registry import register, register_equipment_value
from teams.astartes import weapon_base
from teams.legionaries.common import legionary

MALEFIC_BLADES = "Malefic Blades"
WARDED_ARMOUR = "Warded Armour"
TAINTED_ROUNDS = "Tainted Rounds"
CHAOS_TALISMANS = "Chaos Talismans"


def install_malefic_blades(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Malefic Blades: once selected, every friendly LEGIONARY operative has the malefic
    blade (the item's melee weapon, team data) for the battle."""
    give_weapons(hooks, players, MALEFIC_BLADES, who=legionary)


register(
    "legionaries/equipment/malefic_blades",
    install_malefic_blades,
    "Every Legionary has a malefic blade (melee 5/3+/3/4) for the battle.",
)


WARDED = "warded_armour"  # token of the player: used this Strategy phase
WARDED_SAVE = 2


def _warded_candidates(w: Work, player: str) -> list[str]:
    """Friendly LEGIONARY operatives whose Save would improve, in id order."""
    out = []
    for o in w.alive(player):
        if legionary(w, o.id) and w.ctx.datacards[o.id].save + w.stat_change(o.id, "save") > 2:
            out.append(o.id)
    return out


@attrs.frozen(slots=True)
class WardedArmourGambit:
    """Warded Armour, a strategic gambit (a free rule option of the Gambit step, once per
    Strategy phase): select a friendly LEGIONARY operative; until the Ready step of the next
    Strategy phase its Save is 2+ (a ``save`` stat change until the end of the turning
    point: nothing happens between that and the next Ready step). ``Use warded armour on
    LEG-2``. Its advice: a tenth of an operative, more for an operative near enemies."""

    name: str = WARDED_ARMOUR
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("gambit",)
    repeatable: bool = True

    def _usable(self, w: Work, player: str) -> bool:
        if not has_equipment(w, player, WARDED_ARMOUR):
            return False
        return not any(
            e.kind == "token" and e.detail == WARDED and e.player == player for e in w.effects
        )

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use warded armour on <op>`` for each operative it can improve."""
        if not self._usable(w, player):
            return []
        return [
            Action("Use", text="warded armour", target=op) for op in _warded_candidates(w, player)
        ]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Use warded armour on <op>``."""
        return action.verb == "Use" and action.text == "warded armour"

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        return (
            "Warded Armour: once per Strategy phase, once selected, on a friendly LEGIONARY "
            "operative whose Save is worse than 2+"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Save 2+ until the end of the turning point."""
        op = str(action.target)
        change = WARDED_SAVE - (w.ctx.datacards[op].save + w.stat_change(op, "save"))
        w.add_effect(Effect("token", "", "end_tp", source=op, detail=WARDED, player=player))
        w.add_effect(Effect("save", op, "end_tp", source=op, value=change))
        w.emit("team_rule_used", op=op, rule=self.name, on=op)

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """Rule of thumb: 0.1 operative, 0.3 for the operative nearest an enemy (first in id
        order among the nearest)."""
        cands = _warded_candidates(w, player)
        if not cands:
            return 0.0

        def nearest(op: str) -> float:
            here = w.place(w.op(op))
            return min((w.distance(here, w.place(e)) for e in w.enemies_of(op)), default=99.0)

        best = min(cands, key=nearest)
        return 0.3 if action.target == best else 0.1


WARDED_ARMOUR_GAMBIT = WardedArmourGambit()


def install_warded_armour(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Warded Armour (:class:`WardedArmourGambit`)."""
    hooks.ploy(WARDED_ARMOUR_GAMBIT, players)


register(
    "legionaries/equipment/warded_armour",
    install_warded_armour,
    "Strategic gambit: one Legionary has a 2+ Save until the next Strategy phase.",
)


TAINTED = "tainted_rounds"  # token on the shooter until the end of its Shoot action
TAINTED_WEAPONS = ("bolt pistol", "boltgun")
_RENDING = parse_weapon_rules("Rending").rules


def _tainted_used(w: Work, player: str) -> bool:
    return bool(w.count(player, f"{TAINTED}:{w.tp}"))


@attrs.frozen(slots=True)
class TaintedRoundsRule:
    """Tainted Rounds (a free rule option in the target_selected window of a friendly
    LEGIONARY operative's Shoot with a bolt pistol or boltgun; once per turning point):
    ``Use tainted rounds``: until the end of that action the weapon has Rending. Its advice:
    0.05 operative (a small gain, spent once per turning point)."""

    name: str = TAINTED_ROUNDS
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("target_selected",)
    repeatable: bool = True

    def _applies(self, w: Work, player: str, info: Mapping[str, Any]) -> bool:
        op = str(info.get("op", ""))
        if info.get("kind") != "ranged" or not op or w.ctx.owner.get(op) != player:
            return False
        if weapon_base(str(info.get("weapon", ""))) not in TAINTED_WEAPONS:
            return False
        if not legionary(w, op) or _tainted_used(w, player):
            return False
        return has_equipment(w, player, TAINTED_ROUNDS)

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use tainted rounds`` when it applies."""
        return [Action("Use", text="tainted rounds")] if self._applies(w, player, info) else []

    def owns(self, action: Action) -> bool:
        """Its action is ``Use tainted rounds``."""
        return action.verb == "Use" and action.text == "tainted rounds"

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``Use tainted rounds`` is refused."""
        return (
            "Tainted Rounds: once per turning point, a Legionary shooting a bolt pistol or boltgun"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Rending for the weapon until the end of the action."""
        op = str(info["op"])
        w.count(player, f"{TAINTED}:{w.tp}", add=1)
        w.effects.append(Effect("token", op, "end_activation", source=op, detail=TAINTED))
        w.emit("team_rule_used", op=op, rule=self.name, on=str(info.get("target", "")))

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """Rule of thumb: 0.05 operative."""
        return 0.05


TAINTED_ROUNDS_RULE = TaintedRoundsRule()


def install_tainted_rounds(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Tainted Rounds (:class:`TaintedRoundsRule`)."""

    def rending(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
        op = str(info.get("op", ""))
        if info.get("kind") != "ranged" or not op or not w.effects:
            return rules
        if weapon_base(str(info.get("weapon", ""))) not in TAINTED_WEAPONS:
            return rules
        if not any(e.kind == "token" and e.op == op and e.detail == TAINTED for e in w.effects):
            return rules
        return rules.with_rules(*_RENDING)

    def ended(w: Work, ev: Event) -> None:
        op = str(ev["op"])
        if w.effects:
            w.effects = [
                e
                for e in w.effects
                if not (e.kind == "token" and e.op == op and e.detail == TAINTED)
            ]

    hooks.ploy(TAINTED_ROUNDS_RULE, players)
    hooks.transform("would_use_weapon_rules", rending)
    hooks.on("shoot_ended", ended)


register(
    "legionaries/equipment/tainted_rounds",
    install_tainted_rounds,
    "Once per turning point, a Legionary's bolt pistol or boltgun has Rending for one Shoot.",
)

register_equipment_value("legionaries/equipment/warded_armour", 3.0)
register_equipment_value("legionaries/equipment/malefic_blades", 2.0)
register_equipment_value("legionaries/equipment/tainted_rounds", 2.5)
