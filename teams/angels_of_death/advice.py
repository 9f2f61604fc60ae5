"""What the Angels of Death ploys are worth to the heuristic agent now, in operatives
(:mod:`engine.agents.advice`). Each function is an ``advice(w, player, action, info)``; the
ploys carry them. Dice core where the ploy changes an attack whose dice are known
(Transhuman Physiology), rules of thumb stated in each docstring otherwise. All are cheap:
distances and a few dice-core look-ups."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.advice.values import DAMAGE_WEIGHT, defence_value
from engine.game.actions import Action
from engine.game.state import OperativeState
from engine.game.work import Work
from teams.angels_of_death.common import current_doctrine, normal_saves, save_of, shoot_frame

BALANCED_PER_ATTACK = 0.04
"""Rule of thumb: Balanced (one attack die re-rolled) on one attack sequence is worth about
4% of an operative (one more success in about a third of the sequences, each about a tenth
of an operative's worth of damage)."""


def _nearest_enemy(w: Work, o: OperativeState) -> float:
    here = w.place(o)
    return min((w.distance(here, w.place(e)) for e in w.enemies_of(o.id)), default=99.0)


def doctrine_fits(w: Work, o: OperativeState) -> str:
    """The combat doctrine that covers what ``o`` most likely does next: ``"assault"``
    within 2" of an enemy, ``"tactical"`` within 6", ``"devastator"`` farther."""
    d = _nearest_enemy(w, o)
    return "assault" if d <= 2.0 else "tactical" if d <= 6.0 else "devastator"


def combat_doctrine_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Combat Doctrine ``<doctrine>``: :data:`BALANCED_PER_ATTACK` for each friendly
    operative the doctrine fits now (:func:`doctrine_fits`); when used as an operative is
    activated (Heroic Leader), the ready operatives only."""
    doctrine = action.text.rsplit(" ", 1)[1]
    ops = [o for o in w.alive(player) if info.get("trigger") != "activation_start" or o.ready]
    return BALANCED_PER_ATTACK * sum(1 for o in ops if doctrine_fits(w, o) == doctrine)


def adjust_doctrine_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Adjust Doctrine ``<doctrine>``: three attack sequences' Balanced (the active operative
    shoots or fights twice, and the others of the turning point) when the new doctrine fits
    the active operative and the current one does not, else nothing; after the operative
    has shot or fought, one fewer of its own."""
    op = str(info.get("op", ""))
    if not op or op not in w.ctx.owner:
        return 0.0
    new = action.text.rsplit(" ", 1)[1]
    fits = doctrine_fits(w, w.op(op))
    if fits != new or current_doctrine(w, player) == fits:
        return 0.0
    attacked = sum(1 for a in w.op(op).done if a in ("Shoot", "Fight"))
    return max(1, 3 - attacked) * BALANCED_PER_ATTACK


def transhuman_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Transhuman Physiology: the dice-core value of the best normal save made critical
    (:func:`_defence_change`), or of a normal cover save made critical when no rolled die
    is a normal save."""
    idx = normal_saves(w, info)
    dice = tuple(info.get("dice", ()))
    if not idx:
        frame = shoot_frame(w)
        target = str(info.get("target", ""))
        if frame is None or not target or frame.cover_saves[0] <= 0:
            return 0.0
        t = w.op(target)
        prof = frame.profile(w)
        save = max(2, save_of(w, target))
        cn, cc = frame.cover_saves
        wounds, most = max(1, t.wounds), w.ctx.datacards[target].wounds
        before = defence_value(
            frame.normals, frame.crits, prof, save, cn, cc, 0, dice, wounds, most
        )
        after = defence_value(
            frame.normals, frame.crits, prof, save, cn - 1, cc + 1, 0, dice, wounds, most
        )
        return float(before - after)
    best = max(idx, key=lambda i: (dice[i], -i))
    return _defence_change(w, info, tuple(6 if i == best else v for i, v in enumerate(dice)))


def _defence_change(w: Work, info: Mapping[str, Any], after: tuple[int, ...]) -> float:
    """The attacker's value of the shot in progress with the defence dice shown in ``info``
    minus with the dice ``after`` (dice core, :func:`engine.advice.values.defence_value`)."""
    frame = shoot_frame(w)
    target = str(info.get("target", ""))
    if frame is None or not target:
        return 0.0
    t = w.op(target)
    prof = frame.profile(w)
    save = max(2, save_of(w, target))
    cn, cc = frame.cover_saves
    dice = tuple(info.get("dice", ()))
    wounds, most = max(1, t.wounds), w.ctx.datacards[target].wounds
    args = (frame.normals, frame.crits, prof, save, cn, cc, 0)
    before = defence_value(*args, dice, wounds, most)
    return float(before - defence_value(*args, after, wounds, most))


def indomitus_save_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """``Use indomitus`` (the free option of the strategy ploy): the dice-core value of one
    fail discarded and another shown as a normal save (:func:`_defence_change`)."""
    from teams.angels_of_death.common import fails

    bad = fails(w, info)
    if len(bad) < 2:
        return 0.0
    dice = list(info.get("dice", ()))
    bad.sort(key=lambda i: (dice[i], i))
    save = max(2, save_of(w, str(info.get("target", ""))))
    dice[bad[1]] = min(save, 6)
    del dice[bad[0]]
    return _defence_change(w, info, tuple(dice))


def indomitus_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Indomitus: about a quarter of the enemy's shots this turning point roll two fails or
    more, and turning one into a save saves about a tenth of an operative: 0.025 per enemy
    operative with a ranged weapon that can still act (ready)."""
    enemies = [o for o in w.alive() if w.ctx.owner[o.id] != player and o.ready]
    return 0.025 * len(enemies)


def no_fear_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """And They Shall Know No Fear: 0.06 of an operative for each injured friendly operative
    still ready (its Move and Hit back for the turning point)."""
    return 0.06 * sum(1 for o in w.alive(player) if o.ready and w.injured(o))


def wrath_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Wrath Of Vengeance: a second action in the counteraction, worth about half of the
    operative's best shot from where it stands (it may be that shot or a move before it),
    and at least 0.05."""
    from engine.advice.shots import best_shot_now

    op = str(info.get("op", ""))
    if not op:
        return 0.0
    return max(0.05, 0.5 * best_shot_now(w, w.op(op), as_engage=True))


def shock_assault_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Shock Assault (at the start of the Resolve Attack Dice step): 1 more damage on the
    first strike (its share of the target's starting wounds, doubled when it may be the
    wound that incapacitates) plus, when the fighter retained a critical success and the
    opponent a success, the opponent's success that Shock discards (its damage's share of
    the fighter's wounds)."""
    op, target = str(info.get("op", "")), str(info.get("target", ""))
    frame = next((f for f in reversed(w.stack) if hasattr(f, "aweapon")), None)
    if not op or not target or frame is None:
        return 0.0
    t = w.op(target)
    most = w.ctx.datacards[target].wounds
    value = DAMAGE_WEIGHT / most * (2.0 if t.wounds <= 8 else 1.0)
    side = "a" if frame.attacker == op else "d"
    crits = frame.ac if side == "a" else frame.dc
    o_n, o_c = (frame.dn, frame.dc) if side == "a" else (frame.an, frame.ac)
    other = "d" if side == "a" else "a"
    if crits and (o_n or o_c) and (other == "a" or frame.dweapon):
        prof = frame.prof(w, other)
        dmg = prof.normal_damage if o_n else prof.critical_damage
        value += DAMAGE_WEIGHT * dmg / w.ctx.datacards[op].wounds
    return value


def adaptive_tactics_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Adaptive Tactics ``<tactic>``: a rule of thumb for two tactics only: Aggressive
    (Rending) 0.04 per friendly operative within 2" of an enemy, Mobile 0.04 per friendly
    operative within an enemy's control range (a cheaper Fall Back); others nothing (the
    roster's own tactics are chosen for the battle)."""
    tactic = action.text.removeprefix("adaptive tactics ")
    mine = w.alive(player)
    if tactic == "aggressive":
        return 0.04 * sum(1 for o in mine if _nearest_enemy(w, o) <= 2.0)
    if tactic == "mobile":
        return 0.04 * sum(1 for o in mine if w.in_enemy_control_range(o))
    return 0.0
