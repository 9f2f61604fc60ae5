"""The Kasrkin's team equipment (``rules/KT24.md`` 7.2): Foregrip, Long-Range Scope, Relics Of
Cadia and Combat Daggers, each in play once its player selected it (``has_equipment``; the
selection step offers them with the universal options)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.dice.rules import Accurate, Saturate
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.work import Work
from engine.rules.equipment.selection import give_weapons, has_equipment
from engine.rules.ploys import GainToken
from engine.rules.registry import register, register_equipment_value
from teams.kasrkin.common import is_kasrkin, player_token, shoot_frame

FOREGRIP = "Foregrip"
FOREGRIP_RANGE = 3.0
LONG_RANGE_SCOPE = "Long-Range Scope"
SCOPE_RANGE = 6.0
RELICS_OF_CADIA = "Relics Of Cadia"
COMBAT_DAGGERS = "Combat Daggers"
HOT_SHOT = "hot-shot"


def _shooting(w: Work, info: Mapping[str, Any], players: tuple[str, ...], item: str) -> bool:
    """A friendly KASRKIN operative of ``players`` whose player selected ``item`` is
    shooting a known target (``would_use_weapon_rules`` info)."""
    op = str(info.get("op", ""))
    if info.get("kind") != "ranged" or not info.get("target") or not is_kasrkin(w, op):
        return False
    player = w.ctx.owner[op]
    return player in players and has_equipment(w, player, item)


def _distance(w: Work, op: str, target: str) -> float:
    return float(w.distance(w.place(w.op(op)), w.place(w.op(target))))


def _datacard_ranged(w: Work, op: str, name: str) -> bool:
    """``name`` (notation name) is a profile of a ranged weapon on ``op``'s datacard."""
    from engine.game import universal

    return any(
        universal.weapon_name(weapon, prof) == name
        for weapon in w.ctx.datacards[op].weapons
        if weapon.kind == "ranged"
        for prof in weapon.profiles
    )


# -- Foregrip ----------------------------------------------------------------------------------


def install_foregrip(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Foregrip: whenever a friendly KASRKIN operative is shooting an operative within 3" of
    it, the ranged weapons on its datacard whose name does not include "pistol" have
    Accurate 1."""

    def accurate(w: Work, rules: Any, **info: Any) -> Any:
        if not w.pl("A").equipment and not w.pl("B").equipment:
            return rules
        if not _shooting(w, info, players, FOREGRIP):
            return rules
        op, name = str(info["op"]), str(info.get("weapon", ""))
        if "pistol" in name.lower() or not _datacard_ranged(w, op, name):
            return rules
        if _distance(w, op, str(info["target"])) > FOREGRIP_RANGE:
            return rules
        return rules.with_rules(Accurate(1))

    hooks.transform("would_use_weapon_rules", accurate)


# -- Long-Range Scope --------------------------------------------------------------------------


def install_long_range_scope(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Long-Range Scope: whenever a friendly KASRKIN operative is shooting an operative more
    than 6" from it, its hot-shot weapons have Saturate."""

    def saturate(w: Work, rules: Any, **info: Any) -> Any:
        if not w.pl("A").equipment and not w.pl("B").equipment:
            return rules
        if not _shooting(w, info, players, LONG_RANGE_SCOPE) or rules.has(Saturate):
            return rules
        if HOT_SHOT not in str(info.get("weapon", "")).lower():
            return rules
        if _distance(w, str(info["op"]), str(info["target"])) <= SCOPE_RANGE:
            return rules
        return rules.with_rules(Saturate())

    hooks.transform("would_use_weapon_rules", saturate)


# -- Relics Of Cadia ---------------------------------------------------------------------------

_RELICS_USED = "kasrkin_relics_of_cadia_used"


def _frame_dice(w: Work, info: Mapping[str, Any]) -> tuple[Any, str, int] | None:
    """The Shoot or Fight frame whose dice window is open, the field prefix of the dice of
    ``info["op"]`` there (``""`` for a Shoot's ``dice``/``flags``; ``"a"``/``"d"`` for a
    Fight's ``adice``/``aflags``...) and the Hit they roll against, or None."""
    from engine.game.fight import FightFrame

    top = w.top
    if info.get("kind") == "ranged":
        f = shoot_frame(w)
        if f is None or f is not top:
            return None
        return f, "", int(f.profile(w).hit)
    if not isinstance(top, FightFrame):
        return None
    side = "a" if top.attacker == info.get("op") else "d"
    return top, side, int(top.prof(w, side).hit)


def _fails(dice: tuple[int, ...], hit: int) -> list[int]:
    """The indices of the dice that failed (a 1, or below the Hit)."""
    return [i for i, v in enumerate(dice) if v == 1 or v < hit]


@attrs.frozen(slots=True)
class RelicsOfCadia:
    """Relics Of Cadia (equipment; a rule option of the ``attack_dice`` window, free): once
    per turning point, when a friendly KASRKIN operative is shooting, fighting or
    retaliating and its attack dice show two or more fails, one fail is discarded (the
    lowest: removed from the dice) and another is retained as a normal success (the
    highest: it shows the Hit and cannot be re-rolled). Which fails does not change the
    result. Notation ``Use relics of cadia``."""

    name: str = RELICS_OF_CADIA
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("attack_dice",)
    repeatable: bool = True

    def _applies(self, w: Work, player: str, info: Mapping[str, Any]) -> bool:
        op = str(info.get("op", ""))
        if not op or w.ctx.owner.get(op) != player or not is_kasrkin(w, op):
            return False
        if not has_equipment(w, player, RELICS_OF_CADIA) or player_token(w, player, _RELICS_USED):
            return False
        found = _frame_dice(w, info)
        if found is None:
            return False
        return len(_fails(tuple(info.get("dice", ())), found[2])) >= 2

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use relics of cadia`` while it applies."""
        if not w.pl(player).equipment or not self._applies(w, player, info):
            return []
        return [Action("Use", text="relics of cadia")]

    def owns(self, action: Action) -> bool:
        """Its action is ``Use relics of cadia``."""
        return action.verb == "Use" and action.text == "relics of cadia"

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        return (
            f"{action}: Relics Of Cadia (once per turning point) needs two or more failed "
            "attack dice of a friendly KASRKIN operative"
        )

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """Rule of thumb: one more normal success, worth 0.15 operatives (it is free, so
        the agent takes it the first time it applies)."""
        return 0.15

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """The highest fail becomes a normal success (flagged: never re-rolled) and the
        lowest other fail is discarded (removed from the dice: it no longer counts as a
        fail, e.g. for Punishing)."""
        found = _frame_dice(w, info)
        assert found is not None
        frame, side, hit = found
        dice_key, flags_key = f"{side}dice", f"{side}flags"
        dice, flags = list(getattr(frame, dice_key)), list(getattr(frame, flags_key))
        fails = _fails(tuple(dice), hit)
        best = max(fails, key=lambda i: dice[i])
        drop = min((i for i in fails if i != best), key=lambda i: dice[i])
        before = dice[best]
        dice[best], flags[best] = hit, True
        del dice[drop], flags[drop]  # the fail discarded for it
        w.replace_top(**{dice_key: tuple(dice), flags_key: tuple(flags)})
        GainToken(_RELICS_USED, "end_tp").apply(w, player, "", self.name)
        w.emit(
            "die_upgraded",
            op=str(info.get("op", "")),
            target=str(info.get("target", "")),
            rule=self.name,
            die=before,
            before="fail",
            after="normal",
        )


RELICS_OF_CADIA_RULE = RelicsOfCadia()


def install_relics_of_cadia(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Relics Of Cadia (class docstring)."""
    hooks.ploy(RELICS_OF_CADIA_RULE, players)


# -- Combat Daggers ----------------------------------------------------------------------------


def install_combat_daggers(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Combat Daggers: once selected, every friendly KASRKIN operative has the combat dagger
    (melee 3/4+/3/4)."""
    give_weapons(hooks, players, COMBAT_DAGGERS, who=is_kasrkin)


register(
    "kasrkin/equipment/foregrip",
    install_foregrip,
    'Kasrkin shooting within 3": non-pistol datacard ranged weapons have Accurate 1.',
)
register(
    "kasrkin/equipment/long_range_scope",
    install_long_range_scope,
    'Kasrkin shooting a target more than 6" away: hot-shot weapons have Saturate.',
)
register(
    "kasrkin/equipment/relics_of_cadia",
    install_relics_of_cadia,
    "Once per TP, a Kasrkin's attack dice with two or more fails: one fail becomes a normal "
    "success (another is discarded).",
)
register(
    "kasrkin/equipment/combat_daggers",
    install_combat_daggers,
    "Every friendly Kasrkin has a combat dagger (melee 3/4+/3/4).",
)
register_equipment_value("kasrkin/equipment/combat_daggers", 1.5)
register_equipment_value("kasrkin/equipment/foregrip", 2.0)
register_equipment_value("kasrkin/equipment/long_range_scope", 3.0)
register_equipment_value("kasrkin/equipment/relics_of_cadia", 3.5)
