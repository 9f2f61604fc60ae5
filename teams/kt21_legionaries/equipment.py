"""The KT21 Legionaries' equipment (``rules/KT21.md`` 1.2 step 6): each item's EP and limit
(:func:`engine.rules.kt21.equipment.register_equipment`, the 2021 catalogue's costs), and
the items the engine plays:

- **Frag Grenade** (2EP, once per kill team), **Krak Grenade** (3EP, once per kill team):
  the operative carrying it has the grenade's ranged weapon profile.
- **Aggression Stimulants** (3EP, once per kill team): when the operative carrying it fights
  in the activation in which it made a Charge, its player may re-roll one of its attack dice
  in that fight's Roll Attack Dice step (``Use aggression stimulants <face>``, a rule option
  of the ``attack_dice`` window: no CP), never a die already re-rolled (4.3).

- **Tainted Rounds** (3EP, once per kill team): the carrier's boltgun, bolt pistol or tainted
  bolt pistol deals 1 more damage, normal and critical (each operative of the team has at
  most one of them, so the selection of the weapon is never a choice).
- **Warded Armour** (3EP, once per kill team): the carrier's Save is 2+ from the start of the
  battle (the first turning point) until an attack die inflicts damage on it in the Resolve
  Successful Hits step of a shooting attack or a fight (mortal wounds are not attack dice'
  damage); then its own Save for the rest of the battle.

- **Grisly Trophy** (3EP, once per kill team): an enemy operative to which the carrier is
  Visible and within 3" of it has 1 attack die fewer with each of its weapons (shooting and
  fighting, whoever the target), through the ``would_change_attacks`` hook.

Suspensor System (3EP): :mod:`.suspensor`; Malign Scripture (2EP): :mod:`.psychic`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.ploys import Reroll
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.kt21.attack_sight import visible
from engine.rules.kt21.equipment import carried, give_equipment_weapons, register_equipment
from engine.rules.registry import register, register_equipment_value
from teams.kt21_legionaries.common import fight_frame

__all__ = [
    "BOLT_WEAPONS",
    "GRISLY_TROPHY_RANGE",
    "AggressionStimulants",
    "install_aggression_stimulants",
    "install_frag_grenade",
    "install_grisly_trophy",
    "install_krak_grenade",
    "install_tainted_rounds",
    "install_warded_armour",
]

GRISLY_TROPHY_RANGE = 3.0
"""Grisly Trophy reaches enemies within this distance (inches, ⬛)."""
BOLT_WEAPONS = ("boltgun", "bolt pistol", "tainted bolt pistol")
"""The weapons Tainted Rounds improves."""
_WARDED = "kt21 warded armour"
_NOT_ATTACK_DICE = re.compile(r"(MW\d|Splash |Reap |Hot$)")

TEAM = "kt21_legionaries"
register_equipment(TEAM, "Aggression Stimulants", 3, once_per_team=True)
register_equipment(TEAM, "Warded Armour", 3, once_per_team=True)
register_equipment(TEAM, "Suspensor System", 3)
register_equipment(TEAM, "Frag Grenade", 2, once_per_team=True)
register_equipment(TEAM, "Krak Grenade", 3, once_per_team=True)
register_equipment(TEAM, "Malign Scripture", 2)
register_equipment(TEAM, "Tainted Rounds", 3, once_per_team=True)
register_equipment(TEAM, "Grisly Trophy", 3, once_per_team=True)


def install_frag_grenade(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Frag Grenade (module docstring): its weapon for the operative carrying it."""
    give_equipment_weapons(hooks, players, "Frag Grenade")


def install_krak_grenade(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Krak Grenade (module docstring): its weapon for the operative carrying it."""
    give_equipment_weapons(hooks, players, "Krak Grenade")


register(
    "kt21_legionaries/equipment/frag_grenade",
    install_frag_grenade,
    "The operative carrying it has the frag grenade's ranged weapon (once per battle).",
)
register_equipment_value("kt21_legionaries/equipment/frag_grenade", 3.0)
register(
    "kt21_legionaries/equipment/krak_grenade",
    install_krak_grenade,
    "The operative carrying it has the krak grenade's ranged weapon (once per battle).",
)
register_equipment_value("kt21_legionaries/equipment/krak_grenade", 3.5)


_STIMULANTS_USED = "kt21 aggression stimulants used"
_STIMULANTS = re.compile(r"aggression stimulants ([1-6])")


@attrs.frozen(slots=True)
class AggressionStimulants:
    """Aggression Stimulants (module docstring): a rule option of the ``attack_dice``
    window (kind ``"rule"``, :mod:`engine.game.ploys`) returning a :class:`Reroll`."""

    players: tuple[str, ...]
    name: str = "Aggression Stimulants"
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("attack_dice",)
    repeatable: bool = True
    rerolls: bool = True

    def _usable(self, w: Work, player: str, info: Mapping[str, Any]) -> bool:
        op = str(info.get("op", ""))
        f = fight_frame(w)
        return (
            info.get("kind") == "melee"
            and w.ctx.owner.get(op) in self.players
            and f is not None
            and f.attacker == op
            and "Charge" in w.op(op).done
            and "Aggression Stimulants" in carried(w, op)
            and not any(
                e.kind == "token" and e.player == player and e.detail == _STIMULANTS_USED
                for e in w.effects
            )
        )

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use aggression stimulants <face>`` for each face shown by a die not re-rolled."""
        if not self._usable(w, player, info):
            return []
        dice, flags = info.get("dice", ()), info.get("flags", ())
        faces = sorted({v for v, f in zip(dice, flags, strict=True) if not f}, reverse=True)
        return [Action("Use", text=f"aggression stimulants {v}") for v in faces]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Use aggression stimulants <face>``."""
        return action.verb == "Use" and _STIMULANTS.fullmatch(action.text) is not None

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` cannot be used (naming the rule)."""
        return (
            f"{action} is not possible: Aggression Stimulants re-rolls one attack die not "
            "re-rolled yet, once per fight, of its carrier fighting after a Charge in its "
            "activation"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> Reroll:
        """Re-roll the one die chosen; noted so that the fight's roll allows no other."""
        m = _STIMULANTS.fullmatch(action.text)
        assert m is not None
        w.effects.append(Effect("token", "", "end_tp", detail=_STIMULANTS_USED, player=player))
        return Reroll((int(m.group(1)),))


def install_aggression_stimulants(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Aggression Stimulants (module docstring): the rule option, and a new attack roll of
    the player (``dice_rolled``, label ``attack``) starting a new allowance."""

    def rolled(w: Work, ev: Event) -> None:
        if ev["label"] != "attack":
            return
        for e in list(w.effects):
            if e.kind == "token" and e.player == ev["player"] and e.detail == _STIMULANTS_USED:
                w.effects.remove(e)

    hooks.ploy(AggressionStimulants(players), players)
    hooks.on("dice_rolled", rolled)


register(
    "kt21_legionaries/equipment/aggression_stimulants",
    install_aggression_stimulants,
    "Fighting after a Charge in its activation, its carrier may re-roll one attack die.",
)
register_equipment_value("kt21_legionaries/equipment/aggression_stimulants", 2.0)


def install_tainted_rounds(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Tainted Rounds (module docstring): the ``would_change_damage`` hook."""

    def hook(
        w: Work, dmg: tuple[int, int], *, op: str, weapon: str, kind: str, **_: Any
    ) -> tuple[int, int]:
        if kind != "ranged" or w.ctx.owner.get(op) not in players:
            return dmg
        if weapon.lower() not in BOLT_WEAPONS or "Tainted Rounds" not in carried(w, op):
            return dmg
        return dmg[0] + 1, dmg[1] + 1

    hooks.transform("would_change_damage", hook)


def install_warded_armour(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Warded Armour (module docstring): a ``"save"`` effect (2+) on the carrier from the
    first turning point, removed when an attack die first damages it."""

    def started(w: Work, ev: Event) -> None:
        if ev["tp"] != 1:
            return
        for player in players:
            for o in w.alive(player):
                save = w.ctx.datacards[o.id].save
                if "Warded Armour" in carried(w, o.id) and save > 2:
                    w.effects.append(
                        Effect("save", o.id, "end_battle", detail=_WARDED, value=2 - save)
                    )

    def damaged(w: Work, ev: Event) -> None:
        op, source = str(ev["op"]), str(ev["source"])
        if _NOT_ATTACK_DICE.match(source) or not int(ev["damage"]):
            return
        for e in list(w.effects):
            if e.kind == "save" and e.op == op and e.detail == _WARDED:
                w.effects.remove(e)
                w.emit("rule_used", player=w.ctx.owner[op], rule="Warded Armour", trigger="lost")

    hooks.on("turning_point_started", started)
    hooks.on("damage_inflicted", damaged)


register(
    "kt21_legionaries/equipment/tainted_rounds",
    install_tainted_rounds,
    "Its carrier's bolt weapon deals 1 more damage (normal and critical).",
)
register_equipment_value("kt21_legionaries/equipment/tainted_rounds", 2.0)
register(
    "kt21_legionaries/equipment/warded_armour",
    install_warded_armour,
    "Its carrier's Save is 2+ until an attack die first inflicts damage on it.",
)
register_equipment_value("kt21_legionaries/equipment/warded_armour", 2.0)


def install_grisly_trophy(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Grisly Trophy (module docstring)."""

    def hook(w: Work, attacks: int, *, op: str, **_: Any) -> int:
        if w.ctx.owner.get(op) in players:
            return attacks
        enemy = w.op(op)
        for o in w.enemies_of(op):
            if o.player not in players or "Grisly Trophy" not in carried(w, o.id):
                continue
            near = w.distance(w.place(enemy), w.place(o)) <= GRISLY_TROPHY_RANGE + 1e-6
            if near and visible(w, enemy, o):
                return attacks - 1
        return attacks

    hooks.transform("would_change_attacks", hook)


register(
    "kt21_legionaries/equipment/grisly_trophy",
    install_grisly_trophy,
    'Enemies within 3" of it, to which it is Visible, have 1 attack die fewer.',
)
register_equipment_value("kt21_legionaries/equipment/grisly_trophy", 2.0)
