"""The Angels of Death team equipment (selected like universal equipment, 7.2; in play only
for a player who selected it: :func:`engine.rules.equipment.selection.has_equipment`):
Chapter Reliquaries, Purity Seals, Tilting Shields, Auspex.

Purity Seals, Tilting Shields and Auspex are each once per turning point: options of kind
``"rule"`` (free, not ploys) in a window, ``Use <name>``, offered while unused this turning
point (a token of the player until its end)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from engine.dice.rules import Lethal, Rending, Severe, WeaponRules
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.effects import cannot_be_obscured
from engine.rules.equipment.selection import has_equipment
from engine.rules.registry import Installer, register, register_equipment_value
from teams.angels_of_death.actions import unobscure
from teams.angels_of_death.common import KEYWORD, has_keyword, shoot_frame, specified, tokens
from teams.angels_of_death.ploys import WRATH_OF_VENGEANCE

RELIQUARIES = "Chapter Reliquaries"
PURITY_SEALS = "Purity Seals"
TILTING_SHIELDS = "Tilting Shields"
AUSPEX = "Auspex"

Applies = Callable[[Work, str, Mapping[str, Any]], bool]
Effecter = Callable[[Work, str, Mapping[str, Any]], None]
Advice = Callable[[Work, str, Action, Mapping[str, Any]], float]


def _friend(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    op = str(info.get("op", ""))
    return bool(op) and w.ctx.owner.get(op) == player


@attrs.frozen(slots=True)
class OncePerTurningPoint:
    """A team equipment option used once per turning point in a window (a
    :class:`engine.game.ploys.PloyLike` of kind ``"rule"``): ``Use <text>`` while the player
    selected ``equipment``, has not used it this turning point and ``applies`` holds;
    ``effect`` does what it does."""

    name: str
    equipment: str
    triggers: tuple[str, ...]
    applies: Applies
    effect: Effecter
    advice_fn: Advice | None = None
    kind: str = "rule"
    cp: int = 0
    repeatable: bool = True

    @property
    def text(self) -> str:
        return self.name.lower()

    @property
    def _used(self) -> str:
        return f"used:{self.equipment}"

    def _ready(self, w: Work, player: str, info: Mapping[str, Any]) -> bool:
        if not has_equipment(w, player, self.equipment):
            return False
        if any(e.player == player and e.detail == self._used for e in w.effects):
            return False
        return self.applies(w, player, info)

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use <text>`` when it may be used."""
        return [Action("Use", text=self.text)] if self._ready(w, player, info) else []

    def owns(self, action: Action) -> bool:
        """Its action is ``Use <text>``."""
        return action.verb == "Use" and action.text == self.text

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``Use <text>`` is refused."""
        return (
            f"{self.equipment} needs the equipment selected, its condition here, and is used "
            "once per turning point"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Use it up for the turning point, then its effect."""
        w.add_effect(
            Effect("token", "", "end_tp", source=self.equipment, detail=self._used, player=player)
        )
        self.effect(w, player, info)

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """``advice_fn``'s value, or 0.1 without one."""
        return self.advice_fn(w, player, action, info) if self.advice_fn is not None else 0.1


# -- Chapter Reliquaries --------------------------------------------------------------------


def reliquaries_free(w: Work, player: str, ploy: str) -> bool:
    """Chapter Reliquaries makes ``ploy`` cost 0CP now: it is Wrath Of Vengeance, the player
    selected the equipment and the specified friendly operative has an Engage order."""
    if ploy != WRATH_OF_VENGEANCE.name or not has_equipment(w, player, RELIQUARIES):
        return False
    op = specified(w, player, ploy)
    return bool(op) and w.op(op).order == "engage"


def _install_reliquaries(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Chapter Reliquaries (team equipment): Wrath Of Vengeance costs 0CP when the specified
    friendly operative (the one counteracting) has an Engage order. Trigger: the core's
    ``would_cost_ploy`` hook. Limits: the ploy's own (once per turning point)."""

    def cost(w: Work, value: int, **info: Any) -> int:
        player = str(info.get("player", ""))
        if value <= 0 or player not in players:
            return value
        return 0 if reliquaries_free(w, player, str(info.get("ploy", ""))) else value

    hooks.transform("would_cost_ploy", cost)


# -- Purity Seals ---------------------------------------------------------------------------


def _attack_frame(w: Work, info: Mapping[str, Any]) -> tuple[Any, str, int, int] | None:
    """The frame of the attack dice window ``info`` describes, the dice attribute prefix
    (``""`` for a Shoot's ``dice``, ``"a"``/``"d"`` for a Fight side), the Hit needed and the
    lowest critical result."""
    op = str(info.get("op", ""))
    if info.get("kind") == "ranged":
        frame = shoot_frame(w)
        if frame is None or frame.shooter != op:
            return None
        prof = frame.profile(w)
        prefix = ""
    else:
        frame = next((f for f in reversed(w.stack) if hasattr(f, "aweapon")), None)
        if frame is None or op not in (frame.attacker, frame.defender):
            return None
        side = "a" if frame.attacker == op else "d"
        prof = frame.prof(w, side)
        prefix = side
    lethal = prof.rules.dice.lethal
    return frame, prefix, prof.hit, lethal if lethal is not None else 6


def _attack_fails(w: Work, info: Mapping[str, Any]) -> list[int]:
    got = _attack_frame(w, info)
    if got is None:
        return []
    _, _, hit, crit = got
    dice = tuple(info.get("dice", ()))
    return [i for i, v in enumerate(dice) if v < crit and (v == 1 or v < hit)]


def _seals_apply(keyword: str) -> Applies:
    """Purity Seals applies for a team whose operatives have ``keyword``: a friendly
    ``keyword`` operative's attack dice show two or more fails."""

    def applies(w: Work, player: str, info: Mapping[str, Any]) -> bool:
        if not _friend(w, player, info) or not has_keyword(w, str(info["op"]), keyword):
            return False
        return len(_attack_fails(w, info)) >= 2

    return applies


def _seals_effect(w: Work, player: str, info: Mapping[str, Any]) -> None:
    """Discard the lowest fail; the next one shows the Hit (a normal success)."""
    got = _attack_frame(w, info)
    assert got is not None
    frame, prefix, hit, _ = got
    dice_attr = f"{prefix}dice" if prefix else "dice"
    flags_attr = f"{prefix}flags" if prefix else "flags"
    dice = list(getattr(frame, dice_attr))
    flags = list(getattr(frame, flags_attr))
    fails = sorted(_attack_fails(w, info), key=lambda i: (dice[i], i))
    drop, keep = fails[0], fails[1]
    dice[keep] = min(hit, 6)
    del dice[drop]
    del flags[drop]
    pos = max(i for i, f in enumerate(w.stack) if f is frame)
    w.stack[pos] = attrs.evolve(frame, **{dice_attr: tuple(dice), flags_attr: tuple(flags)})


def _seals_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: one more normal success, worth its damage's share of the target's
    starting wounds (``DAMAGE_WEIGHT`` per starting wounds, as the dice core values damage),
    plus 0.05 (free: only a later use this turning point is given up)."""
    from engine.advice.values import DAMAGE_WEIGHT

    got = _attack_frame(w, info)
    target = str(info.get("target", ""))
    if got is None or not target:
        return 0.0
    frame, prefix, _, _ = got
    prof = frame.profile(w) if not prefix else frame.prof(w, prefix)
    return float(DAMAGE_WEIGHT * prof.normal_damage / w.ctx.datacards[target].wounds + 0.05)


def purity_seals(keyword: str) -> OncePerTurningPoint:
    """Purity Seals for a team whose operatives have ``keyword`` (the same printed text
    with another keyword: Phobos Strike Team). Its once-per-turning-point token and the
    equipment selection go by the name Purity Seals, so it needs no other rule of the team."""
    return OncePerTurningPoint(
        PURITY_SEALS,
        PURITY_SEALS,
        ("attack_dice",),
        _seals_apply(keyword),
        _seals_effect,
        _seals_advice,
    )


PURITY_SEALS_RULE = purity_seals(KEYWORD)
"""Purity Seals (team equipment): once per turning point, when a friendly operative is
shooting, fighting or retaliating and its attack dice show two or more fails, one fail is
discarded and another retained as a normal success. Trigger: its attack dice window
(``Use purity seals``). Limits: once per turning point."""


# -- Tilting Shields ------------------------------------------------------------------------

_SHIELDED = "tilting_shields"


def _shields_apply(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    target = str(info.get("target", ""))
    return info.get("kind") == "melee" and _friend(w, player, info) and bool(target)


def _shields_effect(w: Work, player: str, info: Mapping[str, Any]) -> None:
    target = str(info["target"])
    # Until the end of the activation of the operative that fights (the Fight's attacker);
    # the Fight's end removes it first.
    frame = next((f for f in reversed(w.stack) if hasattr(f, "aweapon")), None)
    active = frame.attacker if frame is not None else str(info["op"])
    w.add_effect(Effect("token", target, "end_activation", source=active, detail=_SHIELDED))


def _shields_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: worth 0.15 of an operative when the enemy's weapon has Lethal, Rending
    or Severe and it rolled a result that those would turn critical (below 6, at least its
    Hit), else nothing."""
    frame = next((f for f in reversed(w.stack) if hasattr(f, "aweapon")), None)
    target = str(info.get("target", ""))
    if frame is None or target not in (frame.attacker, frame.defender):
        return 0.0
    side = "a" if frame.attacker == target else "d"
    prof = frame.prof(w, side)
    d = prof.rules.dice
    if not (d.lethal or d.rending or d.severe):
        return 0.0
    dice = frame.adice if side == "a" else frame.ddice
    return 0.15 if any(prof.hit <= v < 6 for v in dice) else 0.0


TILTING_SHIELDS_RULE = OncePerTurningPoint(
    TILTING_SHIELDS,
    TILTING_SHIELDS,
    ("attack_dice",),
    _shields_apply,
    _shields_effect,
    _shields_advice,
)
"""Tilting Shields (team equipment): once per turning point, when a friendly operative is
fighting or retaliating, after the attack dice are rolled, the opponent cannot retain
results below 6 as critical successes in that sequence (its melee weapon loses Lethal,
Rending and Severe). Trigger: the friendly operative's attack dice window of the Fight
(both sides have rolled; ``Use tilting shields``), a token on the enemy until the Fight
ends. Limits: once per turning point."""


def _install_tilting_shields(hooks: Hooks, players: tuple[str, ...]) -> None:
    def rules(w: Work, value: WeaponRules, **info: Any) -> WeaponRules:
        op = str(info.get("op", ""))
        if info.get("kind") != "melee" or not op or not w.effects:
            return value
        if not tokens(w, op, _SHIELDED):
            return value
        kept = tuple(r for r in value if not isinstance(r, Lethal | Rending | Severe))
        return WeaponRules(kept) if len(kept) != len(value.rules) else value

    def ended(w: Work, ev: Any) -> None:
        ops = {str(ev["op"]), str(ev["target"])}
        if w.effects:
            w.effects[:] = [e for e in w.effects if not (e.op in ops and e.detail == _SHIELDED)]

    hooks.ploy(TILTING_SHIELDS_RULE, players)
    # Last: after any rule of the opponent's team that gives its weapon Lethal, Rending or
    # Severe (e.g. a mark's Severe), whichever team was installed first.
    hooks.transform("would_use_weapon_rules", rules, last=True)
    hooks.on("fight_ended", ended)


# -- Auspex ---------------------------------------------------------------------------------

_AUSPEX = "auspex"
AUSPEX_RANGE = 8.0


def _auspex_apply(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    return info.get("kind") == "ranged" and _friend(w, player, info)


def _auspex_effect(w: Work, player: str, info: Mapping[str, Any]) -> None:
    op = str(info["op"])
    w.add_effect(Effect("token", op, "end_activation", source=op, detail=_AUSPEX))


def _auspex_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: worth 0.15 of an operative when the target just selected is obscured
    and within 8" of the shooter (the shot loses the obscured penalty), else nothing."""
    from engine.game.shoot_targets import targeting

    op, target = str(info.get("op", "")), str(info.get("target", ""))
    if not op or not target:
        return 0.0
    o, t = w.op(op), w.op(target)
    if w.distance(w.place(o), w.place(t)) > AUSPEX_RANGE:
        return 0.0
    return 0.15 if targeting(w, o, t).obscured else 0.0


AUSPEX_RULE = OncePerTurningPoint(
    AUSPEX, AUSPEX, ("target_selected",), _auspex_apply, _auspex_effect, _auspex_advice
)
"""Auspex (team equipment): once per turning point, when a friendly operative performs the
Shoot action and selects its target, until the end of its activation or counteraction
enemy operatives within 8" of it cannot be obscured (whichever friendly operative shoots
them). Trigger: the target_selected window (before the target's cover and obscured are
worked out; ``Use auspex``), a token on the shooter until the end of the activation read by
the core's ``would_target`` hook. Limits: once per turning point."""


def _install_auspex(hooks: Hooks, players: tuple[str, ...]) -> None:
    def unobscured(w: Work, tg: Any, **info: Any) -> Any:
        op, target = str(info.get("op", "")), str(info.get("target", ""))
        player = w.ctx.owner.get(op)
        if not tg.obscured or player not in players or not w.effects or not target:
            return tg
        # Enemy operatives within 8" of the operative that used it cannot be obscured,
        # whichever friendly operative is shooting them.
        t = w.place(w.op(target))
        for e in w.effects:
            if e.kind == "token" and e.detail == _AUSPEX and w.ctx.owner.get(e.op) == player:
                o = w.op(e.op)
                if o.alive and w.distance(w.place(o), t) <= AUSPEX_RANGE:
                    return unobscure(tg)
        return tg

    hooks.ploy(AUSPEX_RULE, players)
    cannot_be_obscured(hooks, unobscured)  # (by terrain and by smoke alike)


def purity_seals_installer(keyword: str) -> Installer:
    """The installer of :func:`purity_seals` for ``keyword`` (``for_keyword``)."""
    rule = PURITY_SEALS_RULE if keyword == KEYWORD else purity_seals(keyword)

    def install(hooks: Hooks, players: tuple[str, ...]) -> None:
        hooks.ploy(rule, players)

    return install


_install_purity_seals = purity_seals_installer(KEYWORD)


register(
    "angels_of_death/equipment/chapter_reliquaries",
    _install_reliquaries,
    "Equipment: Wrath Of Vengeance is free for an Engage operative.",
)
register_equipment_value("angels_of_death/equipment/chapter_reliquaries", 3.5)
register(
    "angels_of_death/equipment/purity_seals",
    _install_purity_seals,
    "Equipment: once per TP, two attack fails make a success.",
    for_keyword=purity_seals_installer,
)
register_equipment_value("angels_of_death/equipment/purity_seals", 5.0)
register(
    "angels_of_death/equipment/tilting_shields",
    _install_tilting_shields,
    "Equipment: once per TP, the enemy's crits need 6s.",
)
register_equipment_value("angels_of_death/equipment/tilting_shields", 4.5)
register(
    "angels_of_death/equipment/auspex",
    _install_auspex,
    'Equipment: once per TP, no obscuring within 8" of a shooter.',
)
register_equipment_value("angels_of_death/equipment/auspex", 4.5)
