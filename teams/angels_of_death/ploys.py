"""The Angels of Death strategy and firefight ploys."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from engine.dice.rules import Balanced, Shock, WeaponRules, parse_weapon_rules
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.work import Work
from engine.rules.ploys import GainToken, Ploy, StatChange, ploy_installer
from engine.rules.registry import Installer, register, rule_id
from teams.angels_of_death import advice
from teams.angels_of_death.common import (
    DOCTRINES,
    KEYWORD,
    TEAM,
    current_doctrine,
    fails,
    has_keyword,
    has_token,
    normal_saves,
    save_of,
    set_die,
    set_doctrine,
    shoot_frame,
    shot_friend,
    tokens,
)


def _cover_normals(w: Work) -> int:
    """The normal cover saves retained in the Shoot in progress (normal successes too)."""
    frame = shoot_frame(w)
    return int(frame.cover_saves[0]) if frame is not None else 0


def _tp_condition(keyword: str) -> Callable[[Work, str, Mapping[str, Any]], bool]:
    """Transhuman Physiology's condition for a team whose operatives have ``keyword``: a
    friendly ``keyword`` operative is shot and has a normal success (rolled or a retained
    normal cover save)."""

    def condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
        if not shot_friend(w, player, info):
            return False
        if not has_keyword(w, str(info.get("target", "")), keyword):
            return False
        return bool(normal_saves(w, info)) or _cover_normals(w) > 0

    return condition


def _transhuman(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """Retain a normal success as a critical success: the highest rolled one (its die counts
    as a 6), else a retained normal cover save (it becomes a critical cover save)."""
    idx = normal_saves(w, info)
    if idx:
        dice = info.get("dice", ())
        best = max(idx, key=lambda i: (dice[i], -i))
        set_die(w, best, 6)
        return
    frame = shoot_frame(w)
    cn, cc = frame.cover_saves
    pos = max(i for i, f in enumerate(w.stack) if f is frame)
    w.stack[pos] = attrs.evolve(frame, cover_saves=(cn - 1, cc + 1))


def transhuman_physiology(keyword: str) -> Ploy:
    """Transhuman Physiology for a team whose operatives have ``keyword`` (the same printed
    text with another keyword: Deathwatch, Phobos Strike Team)."""
    return Ploy(
        "Transhuman Physiology",
        "firefight",
        triggers=("defence_dice",),
        condition=_tp_condition(keyword),
        use_hook=_transhuman,
        rule_id=rule_id(TEAM, "firefight_ploy", "Transhuman Physiology"),
        advice=advice.transhuman_advice,
    )


def transhuman_installer(keyword: str) -> Installer:
    """The installer of :func:`transhuman_physiology` for ``keyword`` (``for_keyword``)."""
    return ploy_installer(transhuman_physiology(keyword))


TRANSHUMAN_PHYSIOLOGY = transhuman_physiology(KEYWORD)
"""Transhuman Physiology (firefight ploy, 1CP): when an operative is shooting a friendly
operative, in the Roll Defence Dice step, retain one normal success as a critical success.
Trigger: the defence dice window of a Shoot against a friendly operative with at least one
normal success, rolled or a retained normal cover save (a normal success too). Limits: once
per turning point (7.1); the success chosen is the highest rolled normal success, else the
cover save (every normal success counts the same once retained: the choice never matters)."""


INDOMITUS_TOKEN = "indomitus"

INDOMITUS = Ploy(
    "Indomitus",
    "strategy",
    effects=(GainToken(INDOMITUS_TOKEN, "end_tp"),),
    rule_id=rule_id(TEAM, "strategy_ploy", "Indomitus"),
    advice=advice.indomitus_advice,
)
"""Indomitus (strategy ploy, 1CP): until the end of the turning point, whenever an operative
is shooting a friendly operative and the defence dice show two or more fails, one fail may be
discarded to retain another as a normal success. Trigger: the Gambit step (a team token for
the turning point); its use is the free rule :data:`INDOMITUS_SAVE` in each defence dice
window. Limits: once per turning point (7.1); once per defence roll."""


@attrs.frozen(slots=True)
class IndomitusSave:
    """The option Indomitus gives in the defence dice window of a Shoot against a friendly
    operative (a :class:`engine.game.ploys.PloyLike` of kind ``"rule"``: free, the ploy was
    paid for in the Gambit step). Its action is ``Use indomitus``: one fail is discarded (the
    die removed) and another becomes a normal success (it shows the Save). After it at most
    one fail is left of three dice, so it is used at most once per roll."""

    name: str = "Indomitus"
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("defence_dice",)
    repeatable: bool = True

    def _applies(self, w: Work, player: str, info: Mapping[str, Any]) -> bool:
        if not shot_friend(w, player, info) or not w.effects:
            return False
        target = str(info["target"])
        return has_token(w, target, INDOMITUS_TOKEN) and len(fails(w, info)) >= 2

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use indomitus`` when it applies."""
        return [Action("Use", text="indomitus")] if self._applies(w, player, info) else []

    def owns(self, action: Action) -> bool:
        """Its action is ``Use indomitus``."""
        return action.verb == "Use" and action.text == "indomitus"

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``Use indomitus`` is refused."""
        return (
            "Indomitus needs the ploy used this turning point and two or more fails on the "
            "defence dice of a friendly operative being shot"
        )

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """:func:`.advice.indomitus_save_advice`."""
        return advice.indomitus_save_advice(w, player, action, info)

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Discard the lowest fail; the next fail shows the Save (a normal success)."""
        bad = sorted(fails(w, info), key=lambda i: (info["dice"][i], i))
        drop, keep = bad[0], bad[1]
        save = max(2, save_of(w, str(info["target"])))
        frame = shoot_frame(w)
        dice, flags = list(frame.dice), list(frame.flags)
        dice[keep] = min(save, 6)
        del dice[drop]
        del flags[drop]
        pos = max(i for i, f in enumerate(w.stack) if f is frame)
        w.stack[pos] = attrs.evolve(frame, dice=tuple(dice), flags=tuple(flags))


INDOMITUS_SAVE = IndomitusSave()


def _install_indomitus(hooks: Hooks, players: tuple[str, ...]) -> None:
    hooks.ploy(INDOMITUS, players)
    hooks.ploy(INDOMITUS_SAVE, players)


@attrs.frozen(slots=True)
class DoctrinePloy:
    """A ploy whose use selects a combat doctrine: ``Ploy <name> <doctrine>`` (a
    :class:`engine.game.ploys.PloyLike`). ``adjust``: it changes the doctrine already
    selected this turning point (Adjust Doctrine) rather than selecting one."""

    name: str
    kind: str
    triggers: tuple[str, ...]
    adjust: bool = False
    cp: int = 1
    repeatable: bool = False
    rule_id: str = ""

    @property
    def text(self) -> str:
        return " ".join(self.name.lower().split())

    def _choices(self, w: Work, player: str, info: Mapping[str, Any]) -> list[str]:
        if not self.adjust:
            return list(DOCTRINES)
        op = str(info.get("op", ""))
        if not op or w.ctx.owner.get(op) != player:
            return []
        now = current_doctrine(w, player)
        if not now or _doctrine_ploy_unused(w, player):
            return []
        return [d for d in DOCTRINES if d != now]

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """One action per doctrine it may select now."""
        return [Action("Ploy", text=f"{self.text} {d}") for d in self._choices(w, player, info)]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Ploy <name> <doctrine>``."""
        return action.verb == "Ploy" and action.text.rsplit(" ", 1)[0] == self.text

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """:func:`.advice.adjust_doctrine_advice` or :func:`.advice.combat_doctrine_advice`."""
        if self.adjust:
            return advice.adjust_doctrine_advice(w, player, action, info)
        return advice.combat_doctrine_advice(w, player, action, info)

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Select the doctrine named by the action (event ``combat_doctrine_selected``)."""
        doctrine = action.text.rsplit(" ", 1)[1]
        set_doctrine(w, player, doctrine, self.name)
        w.emit("combat_doctrine_selected", player=player, doctrine=doctrine, ploy=self.name)


def _doctrine_ploy_unused(w: Work, player: str) -> bool:
    return COMBAT_DOCTRINE.name not in w.pl(player).ploys_used


COMBAT_DOCTRINE = DoctrinePloy(
    "Combat Doctrine",
    "strategy",
    ("gambit",),
    rule_id=rule_id(TEAM, "strategy_ploy", "Combat Doctrine"),
)
"""Combat Doctrine (strategy ploy, 1CP): select a doctrine until the end of the turning
point; friendly operatives' weapons have Balanced while Devastator: shooting an operative
more than 6" away; Tactical: shooting one within 6"; Assault: fighting or retaliating.
Trigger: the Gambit step (``Ploy combat doctrine <doctrine>``). Limits: once per turning
point (7.1)."""

ADJUST_DOCTRINE = DoctrinePloy(
    "Adjust Doctrine",
    "firefight",
    ("during_activation",),
    adjust=True,
    rule_id=rule_id(TEAM, "firefight_ploy", "Adjust Doctrine"),
)
"""Adjust Doctrine (firefight ploy, 1CP): during a friendly operative's activation, change
the doctrine selected with Combat Doctrine this turning point. Trigger: ``during_activation``
of a friendly operative: offered among its action choices, so before or after any of its
actions (before its first, between two, after its last). Limits: once per turning point
(7.1); only after Combat Doctrine this turning point."""


def _doctrine_balanced(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
    """Balanced for the weapons the selected doctrine covers (:data:`COMBAT_DOCTRINE`)."""
    op, kind, target = info.get("op", ""), info.get("kind", ""), info.get("target", "")
    if not op or not w.effects:
        return rules
    doctrine = current_doctrine(w, w.ctx.owner[op])
    if not doctrine:
        return rules
    if doctrine == "assault":
        wanted = kind == "melee"
    elif kind != "ranged" or not target:
        wanted = False
    else:
        far = w.distance(w.place(w.op(op)), w.place(w.op(target))) > 6.0
        wanted = far if doctrine == "devastator" else not far
    if wanted and rules.get(Balanced) is None:
        return rules.with_rules(*parse_weapon_rules("Balanced"))
    return rules


def _install_doctrines(hooks: Hooks, players: tuple[str, ...]) -> None:
    hooks.ploy(COMBAT_DOCTRINE, players)
    hooks.ploy(ADJUST_DOCTRINE, players)
    hooks.transform("would_use_weapon_rules", _doctrine_balanced)


NO_FEAR_TOKEN = "know_no_fear"

AND_THEY_SHALL_KNOW_NO_FEAR = Ploy(
    "And They Shall Know No Fear",
    "strategy",
    effects=(GainToken(NO_FEAR_TOKEN, "end_tp"),),
    rule_id=rule_id(TEAM, "strategy_ploy", "And They Shall Know No Fear"),
    advice=advice.no_fear_advice,
)
"""And They Shall Know No Fear (strategy ploy, 1CP): until the end of the turning point,
friendly operatives ignore the changes to their stats from being injured (Move -2", Hit +1;
they are still injured). Trigger: the Gambit step (a team token for the turning point) and
the core's ``would_apply_injury_penalties`` hook. Limits: once per turning point (7.1)."""


def _no_fear(w: Work, value: bool, **info: Any) -> bool:
    op = str(info.get("op", ""))
    if value and op and w.effects and has_token(w, op, NO_FEAR_TOKEN):
        return False
    return value


def _install_no_fear(hooks: Hooks, players: tuple[str, ...]) -> None:
    hooks.ploy(AND_THEY_SHALL_KNOW_NO_FEAR, players)
    hooks.transform("would_apply_injury_penalties", _no_fear)


def _counteracting_friend(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    op = str(info.get("op", ""))
    return bool(op) and w.ctx.owner.get(op) == player


WRATH_OF_VENGEANCE = Ploy(
    "Wrath Of Vengeance",
    "firefight",
    triggers=("counteract_start",),
    target="self",
    condition=_counteracting_friend,
    effects=(StatChange("counteract_actions", 1, "end_activation"),),
    rule_id=rule_id(TEAM, "firefight_ploy", "Wrath Of Vengeance"),
    advice=advice.wrath_advice,
)
"""Wrath Of Vengeance (firefight ploy, 1CP): a friendly operative that is counteracting may
perform an additional 1AP action for free in that counteraction; the two actions must differ.
Trigger: the counteract_start window of a friendly operative (an effect
``"counteract_actions"`` +1 until the end of the counteraction, read by the core). Limits:
once per turning point (7.1); every action at most once (1.5); the counteraction's 2" move
limit still applies to both (1.6)."""


SHOCK_TOKEN = "shock_assault"
SHOCK_STRIKE_TOKEN = "shock_assault_strike"


def _charged_fighter(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    """A friendly operative performing the Fight action (the attacker of the Fight whose
    Resolve Attack Dice step starts) in an activation in which it performed Charge."""
    op = str(info.get("op", ""))
    if info.get("kind") != "melee" or not op or w.ctx.owner.get(op) != player:
        return False
    fight = next((f for f in reversed(w.stack) if hasattr(f, "aweapon")), None)
    if fight is None or getattr(fight, "attacker", "") != op:
        return False
    return "Charge" in w.op(op).done


def _shock(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
    """Shock for the melee weapon of an operative that used Shock Assault in this action."""
    op = info.get("op", "")
    if info.get("kind") != "melee" or not op or not w.effects:
        return rules
    if tokens(w, op, SHOCK_TOKEN) and rules.get(Shock) is None:
        return rules.with_rules(*parse_weapon_rules("Shock"))
    return rules


def _shock_strike(w: Work, dmg: int, **info: Any) -> int:
    """+1 damage (at most 7) to the first strike after Shock Assault."""
    op = str(info.get("op", ""))
    if not op or not w.effects:
        return dmg
    mark = tokens(w, op, SHOCK_STRIKE_TOKEN)
    if not mark:
        return dmg
    w.effects.remove(mark[0])
    return max(dmg, min(7, dmg + 1))


def _shock_assault_ended(w: Work, ev: Any) -> None:
    """ "Until the end of that action": the Fight action is over (a second Fight action of
    the activation, Astartes, has neither Shock nor the extra damage)."""
    op = str(ev.get("op", ""))
    if w.effects and (tokens(w, op, SHOCK_TOKEN) or tokens(w, op, SHOCK_STRIKE_TOKEN)):
        w.effects[:] = [
            e
            for e in w.effects
            if not (
                e.kind == "token" and e.op == op and e.detail in (SHOCK_TOKEN, SHOCK_STRIKE_TOKEN)
            )
        ]


SHOCK_ASSAULT = Ploy(
    "Shock Assault",
    "firefight",
    triggers=("resolve_start",),
    target="self",
    condition=_charged_fighter,
    effects=(
        GainToken(SHOCK_TOKEN, "end_activation"),
        GainToken(SHOCK_STRIKE_TOKEN, "end_activation"),
    ),
    rule_id=rule_id(TEAM, "firefight_ploy", "Shock Assault"),
    advice=advice.shock_assault_advice,
)
"""Shock Assault (firefight ploy, 1CP): a friendly operative performing the Fight action in
an activation in which it charged: until the end of that action its melee weapon has Shock,
and its first strike inflicts 1 more damage (at most 7). Trigger: the start of the Resolve
Attack Dice step of that Fight (the core's ``resolve_start`` window, after every re-roll and
retention; the core's ``would_strike_damage`` hook adds the damage). Limits: once per
turning point (7.1); only the operative that performs the Fight, after a Charge in the same
activation; both end with that Fight action (``fight_ended``: a second Fight action of the
activation has neither, even when the first strike never came)."""


def _install_shock_assault(hooks: Hooks, players: tuple[str, ...]) -> None:
    hooks.ploy(SHOCK_ASSAULT, players)
    hooks.transform("would_use_weapon_rules", _shock)
    hooks.transform("would_strike_damage", _shock_strike)
    hooks.on("fight_ended", _shock_assault_ended)


_ploy_installer = ploy_installer


register(
    "angels_of_death/firefight_ploy/transhuman_physiology",
    _ploy_installer(TRANSHUMAN_PHYSIOLOGY),
    "Firefight ploy: when a friendly operative is shot, one normal save becomes a critical.",
    for_keyword=transhuman_installer,
)
register(
    "angels_of_death/strategy_ploy/indomitus",
    _install_indomitus,
    "Strategy ploy: this turning point, two fails on a friendly operative's defence dice "
    "become one normal save.",
)
register(
    "angels_of_death/strategy_ploy/combat_doctrine",
    _install_doctrines,
    "Strategy ploy: choose a combat doctrine; weapons used that way gain Balanced this TP.",
)
register(
    "angels_of_death/firefight_ploy/adjust_doctrine",
    _install_doctrines,
    "Firefight ploy: change the combat doctrine during a friendly operative's activation.",
)
register(
    "angels_of_death/strategy_ploy/and_they_shall_know_no_fear",
    _install_no_fear,
    "Strategy ploy: friendly operatives ignore the stat changes of being injured this TP.",
)
register(
    "angels_of_death/firefight_ploy/wrath_of_vengeance",
    _ploy_installer(WRATH_OF_VENGEANCE),
    "Firefight ploy: a counteracting friendly operative performs a second, different action.",
)
register(
    "angels_of_death/firefight_ploy/shock_assault",
    _install_shock_assault,
    "Firefight ploy: after a Charge, the Fight's melee weapon has Shock; first strike +1 damage.",
)
