"""The Angels of Death's team rules that the engine plays, registered by rule id
(``engine.rules.registry``; team data ``teams/angels_of_death.json``).

Chapter Tactics (primary and secondary, chosen when the roster is built) are not played yet:
the roster has no place for that choice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import attrs

from engine.dice.rules import Balanced, Saturate, Shock, WeaponRules, parse_weapon_rules
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.ploys import PloyLike, ploy_cost
from engine.game.state import Effect
from engine.game.universal import weapons_of
from engine.game.work import Work
from engine.rules.ploys import GainToken, Ploy, StatChange
from engine.rules.registry import Installer, register, rule_id

TEAM = "angels_of_death"


def _shoot_frame(w: Work) -> Any:
    """The Shoot sequence whose dice window is open (the innermost frame with dice)."""
    for f in reversed(w.stack):
        if hasattr(f, "dice") and hasattr(f, "targets") and hasattr(f, "shooter"):
            return f
    return None


def _save(w: Work, target: str) -> int:
    """The target's Save now (its datacard's, with stat changes, 2.1)."""
    return int(w.ctx.datacards[target].save + w.stat_change(target, "save"))


def _normal_saves(w: Work, info: Mapping[str, Any]) -> list[int]:
    """The indexes of the defence dice that are normal successes (not 6, not 1, at least
    the Save)."""
    target = str(info.get("target", ""))
    if not target:
        return []
    save = max(2, _save(w, target))
    dice = info.get("dice", ())
    return [i for i, v in enumerate(dice) if v != 6 and v != 1 and v >= save]


def _shot_friend(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    """A Shoot's defence dice window, the target one of ``player``'s operatives."""
    target = str(info.get("target", ""))
    return (
        info.get("kind") == "ranged"
        and bool(target)
        and w.ctx.owner.get(target) == player
        and _shoot_frame(w) is not None
    )


def _tp_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    return _shot_friend(w, player, info) and bool(_normal_saves(w, info))


def _set_die(w: Work, index: int, value: int) -> None:
    """Set the defence die ``index`` of the Shoot in progress to ``value`` (its re-roll
    flag kept)."""
    frame = _shoot_frame(w)
    dice = list(frame.dice)
    dice[index] = value
    pos = max(i for i, f in enumerate(w.stack) if f is frame)
    w.stack[pos] = attrs.evolve(frame, dice=tuple(dice))


def _transhuman(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """Retain the highest normal success as a critical success (its die counts as a 6)."""
    idx = _normal_saves(w, info)
    dice = info.get("dice", ())
    best = max(idx, key=lambda i: (dice[i], -i))
    _set_die(w, best, 6)


TRANSHUMAN_PHYSIOLOGY = Ploy(
    "Transhuman Physiology",
    "firefight",
    triggers=("defence_dice",),
    condition=_tp_condition,
    use_hook=_transhuman,
    rule_id=rule_id(TEAM, "firefight_ploy", "Transhuman Physiology"),
)
"""Transhuman Physiology (firefight ploy, 1CP): when an operative is shooting a friendly
operative, in the Roll Defence Dice step, retain one normal success as a critical success.
Trigger: the defence dice window of a Shoot against a friendly operative with at least one
normal success. Limits: once per turning point (7.1); the die chosen is the highest normal
success (the choice never matters otherwise)."""


def _fails(w: Work, info: Mapping[str, Any]) -> list[int]:
    """The indexes of the defence dice that are fails (1, or below the Save; not 6)."""
    target = str(info.get("target", ""))
    save = max(2, _save(w, target))
    return [i for i, v in enumerate(info.get("dice", ())) if v != 6 and (v == 1 or v < save)]


def _has_token(w: Work, op: str, name: str) -> bool:
    return any(e.detail == name for e in w.effects_on(op, "token"))


INDOMITUS_TOKEN = "indomitus"

INDOMITUS = Ploy(
    "Indomitus",
    "strategy",
    effects=(GainToken(INDOMITUS_TOKEN, "end_tp"),),
    rule_id=rule_id(TEAM, "strategy_ploy", "Indomitus"),
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
        if not _shot_friend(w, player, info) or not w.effects:
            return False
        target = str(info["target"])
        return _has_token(w, target, INDOMITUS_TOKEN) and len(_fails(w, info)) >= 2

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

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Discard the lowest fail; the next fail shows the Save (a normal success)."""
        fails = sorted(_fails(w, info), key=lambda i: (info["dice"][i], i))
        drop, keep = fails[0], fails[1]
        save = max(2, _save(w, str(info["target"])))
        frame = _shoot_frame(w)
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


DOCTRINES = ("devastator", "tactical", "assault")
"""The combat doctrines of Combat Doctrine, in printed order."""

_DOCTRINE_TOKEN = "combat_doctrine:"


def _doctrine(w: Work, player: str) -> str:
    """The combat doctrine ``player`` selected this turning point, or ``""``."""
    for e in w.effects:
        if e.kind == "token" and e.player == player and e.detail.startswith(_DOCTRINE_TOKEN):
            return e.detail.removeprefix(_DOCTRINE_TOKEN)
    return ""


def _set_doctrine(w: Work, player: str, doctrine: str, source: str) -> None:
    """Select ``doctrine`` for ``player`` until the end of the turning point (replacing any)."""
    w.effects[:] = [
        e
        for e in w.effects
        if not (e.kind == "token" and e.player == player and e.detail.startswith(_DOCTRINE_TOKEN))
    ]
    w.add_effect(
        Effect(
            "token", "", "end_tp", source=source, detail=_DOCTRINE_TOKEN + doctrine, player=player
        )
    )


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
        now = _doctrine(w, player)
        if not now or _doctrine_ploy_unused(w, player):
            return []
        return [d for d in DOCTRINES if d != now]

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """One action per doctrine it may select now."""
        return [Action("Ploy", text=f"{self.text} {d}") for d in self._choices(w, player, info)]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Ploy <name> <doctrine>``."""
        return action.verb == "Ploy" and action.text.rsplit(" ", 1)[0] == self.text

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Select the doctrine named by the action (event ``combat_doctrine_selected``)."""
        doctrine = action.text.rsplit(" ", 1)[1]
        _set_doctrine(w, player, doctrine, self.name)
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
    ("activation_start", "activation_end"),
    adjust=True,
    rule_id=rule_id(TEAM, "firefight_ploy", "Adjust Doctrine"),
)
"""Adjust Doctrine (firefight ploy, 1CP): during a friendly operative's activation, change
the doctrine selected with Combat Doctrine this turning point. Trigger: the activation_start
and activation_end windows of a friendly operative (the core opens no window between its
actions: "before or after it performs an action" is played as before its first or after its
last). Limits: once per turning point (7.1); only after Combat Doctrine this turning point."""


def _doctrine_balanced(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
    """Balanced for the weapons the selected doctrine covers (:data:`COMBAT_DOCTRINE`)."""
    op, kind, target = info.get("op", ""), info.get("kind", ""), info.get("target", "")
    if not op or not w.effects:
        return rules
    doctrine = _doctrine(w, w.ctx.owner[op])
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
)
"""And They Shall Know No Fear (strategy ploy, 1CP): until the end of the turning point,
friendly operatives ignore the changes to their stats from being injured (Move -2", Hit +1;
they are still injured). Trigger: the Gambit step (a team token for the turning point) and
the core's ``would_apply_injury_penalties`` hook. Limits: once per turning point (7.1)."""


def _no_fear(w: Work, value: bool, **info: Any) -> bool:
    op = str(info.get("op", ""))
    if value and op and w.effects and _has_token(w, op, NO_FEAR_TOKEN):
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
    dice window is open) in an activation in which it performed Charge."""
    op = str(info.get("op", ""))
    if info.get("kind") != "melee" or not op or w.ctx.owner.get(op) != player:
        return False
    fight = next((f for f in reversed(w.stack) if hasattr(f, "aweapon")), None)
    if fight is None or getattr(fight, "attacker", "") != op:
        return False
    return "Charge" in w.op(op).done


def _tokens(w: Work, op: str, name: str) -> list[Effect]:
    """The token effects ``name`` on ``op``, pending ones included (begun in this action)."""
    return [e for e in w.effects if e.kind == "token" and e.op == op and e.detail == name]


def _shock(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
    """Shock for the melee weapon of an operative that used Shock Assault in this action."""
    op = info.get("op", "")
    if info.get("kind") != "melee" or not op or not w.effects:
        return rules
    if _tokens(w, op, SHOCK_TOKEN) and rules.get(Shock) is None:
        return rules.with_rules(*parse_weapon_rules("Shock"))
    return rules


def _shock_strike(w: Work, dmg: int, **info: Any) -> int:
    """+1 damage (at most 7) to the first strike after Shock Assault."""
    op = str(info.get("op", ""))
    if not op or not w.effects:
        return dmg
    mark = _tokens(w, op, SHOCK_STRIKE_TOKEN)
    if not mark:
        return dmg
    w.effects.remove(mark[0])
    return min(7, dmg + 1)


SHOCK_ASSAULT = Ploy(
    "Shock Assault",
    "firefight",
    triggers=("attack_dice",),
    target="self",
    condition=_charged_fighter,
    effects=(
        GainToken(SHOCK_TOKEN, "end_activation"),
        GainToken(SHOCK_STRIKE_TOKEN, "end_activation"),
    ),
    rule_id=rule_id(TEAM, "firefight_ploy", "Shock Assault"),
)
"""Shock Assault (firefight ploy, 1CP): a friendly operative performing the Fight action in
an activation in which it charged: until the end of that action its melee weapon has Shock,
and its first strike inflicts 1 more damage (at most 7). Trigger: its attack dice window in
that Fight (played as the start of the Resolve Attack Dice step; the core's
``would_strike_damage`` hook adds the damage). Limits: once per turning point (7.1); only
the operative that performs the Fight, after a Charge in the same activation."""


def _install_shock_assault(hooks: Hooks, players: tuple[str, ...]) -> None:
    hooks.ploy(SHOCK_ASSAULT, players)
    hooks.transform("would_use_weapon_rules", _shock)
    hooks.transform("would_strike_damage", _shock_strike)


def _has_ability(w: Work, op: str, name: str) -> bool:
    """The operative ``op``'s datacard has the ability ``name``."""
    return any(a.name == name for a in w.ctx.datacards[op].abilities)


def _camo_cloak(w: Work, rules: WeaponRules, players: tuple[str, ...], **info: Any) -> WeaponRules:
    """Camo Cloak (ability of the Eliminator Sniper): whenever an operative is shooting this
    operative, the Saturate weapon rule is ignored. Trigger: the weapon rules of a ranged
    attack whose target has the ability (``would_use_weapon_rules``). Limits: none (the
    ability's second sentence, the Stealthy Chapter Tactic, is the ability
    ``angels_of_death/ability/stealthy``)."""
    target = str(info.get("target", ""))
    if info.get("kind") != "ranged" or not target or not rules.has(Saturate):
        return rules
    if w.ctx.owner.get(target) not in players:
        return rules
    if not _has_ability(w, target, "Camo Cloak"):
        return rules
    return WeaponRules(tuple(r for r in rules if not isinstance(r, Saturate)))


def _install_camo_cloak(hooks: Hooks, players: tuple[str, ...]) -> None:
    def hook(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
        return _camo_cloak(w, rules, players, **info)

    hooks.transform("would_use_weapon_rules", hook)


_FIRST_SHOT = "astartes_first_shot:"


def _is_bolt(weapon: str) -> bool:
    """A bolt weapon (its name says bolt: bolt rifle, heavy bolter, bolt sniper rifle...)."""
    return "bolt" in weapon.lower()


def _first_shot(w: Work, op: str) -> str | None:
    """The weapon of ``op``'s first Shoot in this activation (Astartes), or None."""
    for e in w.effects:
        if e.kind == "token" and e.op == op and e.detail.startswith(_FIRST_SHOT):
            return e.detail.removeprefix(_FIRST_SHOT)
    return None


def _install_astartes(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Astartes (faction rule): during its activation, each friendly operative may perform
    two Shoot actions or two Fight actions (not both twice); when it shoots twice, a bolt
    weapon must be used for at least one of them. Each friendly operative can counteract
    regardless of its order. Trigger: the core's ``would_repeat_action``,
    ``would_refuse_weapon`` and ``would_counteract_regardless_of_order`` hooks, and the
    ``shoot_declared`` event (the first shot's weapon, until the end of the activation).
    Limits: activations only (a counteraction is still one action, 1.6); the additional AP
    for a second shot with the same bolt sniper rifle or heavy bolter is not played yet."""

    def mine(w: Work, op: str) -> bool:
        return bool(op) and w.ctx.owner.get(op) in players

    def repeat(w: Work, value: bool, **info: Any) -> bool:
        op, action = str(info.get("op", "")), info.get("action", "")
        if value or info.get("mode") != "activation" or not mine(w, op):
            return value
        if action not in ("Shoot", "Fight"):
            return value
        done = tuple(info.get("done", ()))
        twice = [a for a in ("Shoot", "Fight") if done.count(a) >= 2]
        return not twice

    def refuse(w: Work, why: str | None, **info: Any) -> str | None:
        o = info.get("op")
        name = str(info.get("weapon", ""))
        if why is not None or o is None or not mine(w, o.id) or o.done.count("Shoot") != 1:
            return why
        first = _first_shot(w, o.id)
        if first is None or _is_bolt(first) or _is_bolt(name):
            return why
        if name not in {n for n, _, _ in weapons_of(w, o.id, "ranged")}:
            return why
        return (
            f"Astartes: {o.id} shot with {first} (not a bolt weapon), so its second Shoot "
            "must use a bolt weapon"
        )

    def record(w: Work, ev: Any) -> None:
        op = str(ev["op"])
        if not mine(w, op) or _first_shot(w, op) is not None:
            return
        w.add_effect(
            Effect("token", op, "end_activation", source=op, detail=_FIRST_SHOT + ev["weapon"])
        )

    def any_order(w: Work, value: bool, **info: Any) -> bool:
        return value or mine(w, str(info.get("op", "")))

    hooks.transform("would_repeat_action", repeat)
    hooks.transform("would_refuse_weapon", refuse)
    hooks.transform("would_counteract_regardless_of_order", any_order)
    hooks.on("shoot_declared", record)


def _install_doctrine_warfare(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Doctrine Warfare (ability of the Intercessor and Assault Intercessor Sergeants): once
    per battle each, Combat Doctrine selecting Assault, and selecting Tactical, costs 0CP
    while such an operative is in the killzone. Trigger: the ``combat_doctrine_selected``
    event of the strategy ploy (the CP paid is given back; the player still needs the CP to
    use the ploy). Limits: once per battle for Assault and once for Tactical, per player."""

    def refund(w: Work, ev: Any) -> None:
        player, doctrine = str(ev["player"]), str(ev["doctrine"])
        if player not in players or ev["ploy"] != COMBAT_DOCTRINE.name:
            return
        if doctrine not in ("assault", "tactical"):
            return
        if not any(_has_ability(w, o.id, "Doctrine Warfare") for o in w.alive(player)):
            return
        key = f"doctrine_warfare_{doctrine}"
        if w.count(player, key):
            return
        w.count(player, key, add=1)
        cost = ploy_cost(w, player, cast(PloyLike, COMBAT_DOCTRINE))
        pl = w.pl(player)
        w.set_pl(player, cp=pl.cp + cost, cp_spent=pl.cp_spent - cost)

    hooks.on("combat_doctrine_selected", refund)


def _install_stealthy(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Stealthy (ability of the Eliminator Sniper): whenever an operative is shooting it and
    it can retain a cover save, it may retain one additional cover save or retain one as a
    critical success instead. Trigger: the core's ``would_improve_cover_save`` hook (the
    same options as improved cover from Vantage, with which it is not cumulative). Limits:
    only in cover; the Stealthy Chapter Tactic and Camo Cloak's "both options" need the
    roster's Chapter Tactics and are not played."""

    def improve(w: Work, value: bool, **info: Any) -> bool:
        target = str(info.get("target", ""))
        if value or not target or w.ctx.owner.get(target) not in players:
            return value
        return _has_ability(w, target, "Stealthy")

    hooks.transform("would_improve_cover_save", improve)


def _ploy_installer(ploy: Ploy) -> Installer:
    def install(hooks: Hooks, players: tuple[str, ...]) -> None:
        hooks.ploy(ploy, players)

    return install


register(
    TRANSHUMAN_PHYSIOLOGY.rule_id,
    _ploy_installer(TRANSHUMAN_PHYSIOLOGY),
    "Firefight ploy: when a friendly operative is shot, one normal save becomes a critical.",
)
register(
    INDOMITUS.rule_id,
    _install_indomitus,
    "Strategy ploy: this turning point, two fails on a friendly operative's defence dice "
    "become one normal save.",
)
register(
    COMBAT_DOCTRINE.rule_id,
    _install_doctrines,
    "Strategy ploy: choose a combat doctrine; weapons used that way gain Balanced this TP.",
)
register(
    ADJUST_DOCTRINE.rule_id,
    _install_doctrines,
    "Firefight ploy: change the combat doctrine during a friendly operative's activation.",
)
register(
    AND_THEY_SHALL_KNOW_NO_FEAR.rule_id,
    _install_no_fear,
    "Strategy ploy: friendly operatives ignore the stat changes of being injured this TP.",
)
register(
    WRATH_OF_VENGEANCE.rule_id,
    _ploy_installer(WRATH_OF_VENGEANCE),
    "Firefight ploy: a counteracting friendly operative performs a second, different action.",
)
register(
    SHOCK_ASSAULT.rule_id,
    _install_shock_assault,
    "Firefight ploy: after a Charge, the Fight's melee weapon has Shock; first strike +1 damage.",
)
register(
    rule_id(TEAM, "ability", "Camo Cloak"),
    _install_camo_cloak,
    "Ability: shooting at this operative ignores the Saturate weapon rule.",
)
register(
    rule_id(TEAM, "faction_rule", "Astartes"),
    _install_astartes,
    "Faction rule: two Shoot (one with a bolt weapon) or two Fight actions per activation; "
    "counteract whatever the order.",
)
register(
    rule_id(TEAM, "ability", "Doctrine Warfare"),
    _install_doctrine_warfare,
    "Ability: once per battle each, Combat Doctrine for Assault or Tactical costs 0CP.",
)
register(
    rule_id(TEAM, "ability", "Stealthy"),
    _install_stealthy,
    "Ability: in cover, retain two cover saves or one as a critical success.",
)
