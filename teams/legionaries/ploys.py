"""The Legionaries' strategy and firefight ploys (package docstring)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.dice.rules import Piercing, WeaponRules, parse_weapon_rules
from engine.game import universal
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.ploys import GainToken, Ploy, StatChange, ploy_installer
from engine.rules.registry import register
from teams.legionaries.common import (
    BLOOD,
    MAX_DAMAGE,
    _fight_attacker,
    _is,
    gain_apl,
    has_token,
    khorne_blooded,
    legionary,
    mark_of,
)

_ploy_installer = ploy_installer


FICKLE_FATES = "fickle_fates"
_BALANCED = parse_weapon_rules("Balanced").rules


def install_fickle_fates_rules(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Fickle Fates (package docstring): Balanced for a LEGIONARY shooting a ready enemy."""

    def balanced(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
        op, target = info.get("op", ""), info.get("target", "")
        if info.get("kind") != "ranged" or not op or not target:
            return rules
        if w.ctx.owner[op] not in players or not legionary(w, op):
            return rules
        if w.ctx.owner[target] == w.ctx.owner[op] or not w.op(target).ready:
            return rules
        if not has_token(w, op, FICKLE_FATES):
            return rules
        return rules.with_rules(*_BALANCED)

    hooks.transform("would_use_weapon_rules", balanced)
    hooks.ploy(FICKLE_FATES_SAVE, players)
    hooks.on("attack_dice_resolved", _fickle_resolved)
    hooks.on("shoot_ended", _fickle_ended)


FICKLE_SAVED = "fickle_fates_saved"  # token on the target: used in its Roll Defence Dice step


def _shoot_frame(w: Work) -> tuple[int, Any] | None:
    """The innermost Shoot frame on the stack (its index), or None."""
    for i in range(len(w.stack) - 1, -1, -1):
        if hasattr(w.stack[i], "shooter"):
            return i, w.stack[i]
    return None


def _save_and_crit(w: Work, frame: Any, target: str) -> tuple[int, int]:
    """The Save a defence die of ``target`` must equal or beat in ``frame`` and the lowest
    die that is a critical save, as the core's Shoot resolves them (its Save with changes,
    Protective terrain's ``would_save_in_cover``, ``would_crit_save``)."""
    save = w.ctx.datacards[target].save + w.stat_change(target, "save")
    if frame.cover and w.ctx.hooks.would.get("would_save_in_cover"):
        from engine.game.shoot_targets import targeting

        src = frame.sight_from if frame.idx == 0 and frame.sight_from else frame.shooter
        tg = targeting(w, w.op(src), w.op(target))
        save = int(w.would("would_save_in_cover", save, op=frame.shooter, target=target, tg=tg))
    crit_at = 6
    if w.ctx.hooks.would.get("would_crit_save"):
        crit_at = int(w.would("would_crit_save", 6, op=frame.shooter, target=target))
    return max(2, save), crit_at


@attrs.frozen(slots=True)
class FickleFatesSave:
    """Fickle Fates' TZEENTCH half (a free rule option of the strategy ploy, package
    docstring): in the defence dice window of a ready friendly LEGIONARY TZEENTCH operative
    being shot, while the ploy lasts, when its retained dice include a critical success (a
    rolled critical save, or a cover save retained as one) and at least one fail: ``Use
    fickle fates``: its lowest fail is retained as a normal success (it shows the Save).
    Once per Roll Defence Dice step. Using it retains the defence dice, so it closes the
    window (a re-roll or another change of the dice comes before it). Its advice: the
    attacker's normal damage weighed as the dice core's wounds (``DAMAGE_WEIGHT`` of its
    share of the target's starting wounds)."""

    name: str = "Fickle Fates Save"
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("defence_dice",)
    repeatable: bool = True

    def _fail(self, w: Work, player: str, info: Mapping[str, Any]) -> int | None:
        """The index of the lowest fail to retain, or None when the option does not apply."""
        target = str(info.get("target", ""))
        if info.get("kind") != "ranged" or not target or w.ctx.owner.get(target) != player:
            return None
        if not _is(w, target, "TZEENTCH") or not w.op(target).ready:
            return None
        if not has_token(w, target, FICKLE_FATES) or has_token(w, target, FICKLE_SAVED):
            return None
        found = _shoot_frame(w)
        if found is None:
            return None
        _, frame = found
        dice = tuple(info.get("dice", ()))
        save, crit_at = _save_and_crit(w, frame, target)
        crit = frame.cover_saves[1] > 0 or any(v != 1 and v >= crit_at for v in dice)
        fails = [i for i, v in enumerate(dice) if v == 1 or (v < save and v < crit_at)]
        if not crit or not fails:
            return None
        return min(fails, key=lambda i: (dice[i], i))

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use fickle fates`` when it applies."""
        return (
            [Action("Use", text="fickle fates")] if self._fail(w, player, info) is not None else []
        )

    def owns(self, action: Action) -> bool:
        """Its action is ``Use fickle fates``."""
        return action.verb == "Use" and action.text == "fickle fates"

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``Use fickle fates`` is refused."""
        return (
            "Fickle Fates: a ready friendly LEGIONARY TZEENTCH operative being shot, with a "
            "critical success and a fail among its defence dice, once per defence roll"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Retain the lowest fail as a normal success; the dice are retained."""
        target = str(info["target"])
        at = self._fail(w, player, info)
        found = _shoot_frame(w)
        assert at is not None and found is not None
        i, frame = found
        save, _ = _save_and_crit(w, frame, target)
        dice, flags = list(frame.dice), list(frame.flags)
        dice[at], flags[at] = save, True
        w.stack[i] = attrs.evolve(frame, dice=tuple(dice), flags=tuple(flags), stage="resolve")
        w.effects.append(Effect("token", target, "end_tp", source=target, detail=FICKLE_SAVED))
        w.emit("team_rule_used", op=target, rule="Fickle Fates", on=target)

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """Rule of thumb (class docstring)."""
        from engine.advice.values import DAMAGE_WEIGHT

        found = _shoot_frame(w)
        target = str(info.get("target", ""))
        if found is None or not target:
            return 0.0
        prof = found[1].profile(w)
        return float(DAMAGE_WEIGHT * prof.normal_damage / max(1, w.ctx.datacards[target].wounds))


FICKLE_FATES_SAVE = FickleFatesSave()


def _fickle_resolved(w: Work, ev: Event) -> None:
    """The target's Roll Defence Dice step is over: its once-per-step limit resets."""
    if w.effects:
        t = ev["target"]
        w.effects = [e for e in w.effects if not (e.detail == FICKLE_SAVED and e.op == t)]


def _fickle_ended(w: Work, ev: Event) -> None:
    if w.effects:
        w.effects = [e for e in w.effects if e.detail != FICKLE_SAVED]


IMPLACABLE = "implacable"
_PIERCING_CRITS_1 = parse_weapon_rules("Piercing Crits 1").rules


def install_implacable_rules(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Implacable (package docstring): Piercing 1 becomes Piercing Crits 1 against a friendly
    LEGIONARY operative."""

    def crits_only(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
        target = info.get("target", "")
        if info.get("kind") != "ranged" or not target:
            return rules
        if w.ctx.owner[target] not in players or not legionary(w, target):
            return rules
        p = rules.get(Piercing)
        if p is None or getattr(p, "x", 0) != 1 or not has_token(w, target, IMPLACABLE):
            return rules
        kept = [r for r in rules if not isinstance(r, Piercing)]
        return WeaponRules.of((*kept, *_PIERCING_CRITS_1))

    def uninjured_hit(w: Work, change: int, **info: Any) -> int:
        op = info["op"]
        if not info["injured"] or w.ctx.owner[op] not in players:
            return change
        if not _is(w, op, "NURGLE") or not has_token(w, op, IMPLACABLE):
            return change
        return change - 1  # the injury's +1 (2.3) ignored

    def uninjured_move(w: Work, change: float, **info: Any) -> float:
        op = info["op"]
        if w.ctx.owner[op] not in players or not w.injured(w.op(op)):
            return change
        if not _is(w, op, "NURGLE") or not has_token(w, op, IMPLACABLE):
            return change
        return change + 2.0  # the injury's -2" (2.3) ignored

    # Last: Piercing 1 becomes Piercing Crits 1 whichever rule gave it (an enemy ploy's),
    # whichever seat the shooter's team plays.
    hooks.transform("would_use_weapon_rules", crits_only, last=True)
    hooks.transform("would_change_hit", uninjured_hit)
    hooks.transform("would_change_move", uninjured_move)


QUICKSILVER = "quicksilver_speed"
QUICKSILVER_RANGE = 6.0
MOVED = "legionary_moved"  # effect: op moved in an action this turning point (Quicksilver)


def install_quicksilver_rules(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Quicksilver Speed (package docstring)."""

    def moved(w: Work, ev: Event) -> None:
        op = ev["op"]
        if w.ctx.owner[op] not in players or not legionary(w, op):
            return
        if not has_token(w, op, QUICKSILVER):
            return
        if not any(e.kind == MOVED and e.op == op for e in w.effects):
            w.effects.append(Effect(MOVED, op, "end_tp", source=op))

    def worse_hit(w: Work, change: int, **info: Any) -> int:
        target, op = info["target"], info["op"]
        if info["injured"] or w.ctx.owner[target] not in players:
            return change
        if w.ctx.owner[op] in players or not legionary(w, target):
            return change
        if not has_token(w, target, QUICKSILVER):
            return change
        if not any(e.kind == MOVED and e.op == target for e in w.effects):
            return change
        if info["kind"] == "melee":
            return change + 1 if _fight_attacker(w) == target else change
        if mark_of(w, target) != "SLAANESH":
            return change
        far = w.distance(w.place(w.op(op)), w.place(w.op(target))) > QUICKSILVER_RANGE + 1e-6
        return change + 1 if far else change

    hooks.on("moved", moved)
    hooks.transform("would_change_hit", worse_hit)


STRUCK = "blood_struck"  # effect: op struck already in the fight in progress


def install_blood_rules(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Blood For The Blood God (package docstring)."""

    def more(w: Work, dmg: int, **info: Any) -> int:
        op = info["op"]
        if w.ctx.owner[op] not in players or not legionary(w, op) or dmg <= 0:
            return dmg
        if not has_token(w, op, BLOOD):
            return dmg
        if mark_of(w, op) == "KHORNE":
            return dmg  # its Dmg stats are changed instead (stats, below)
        if _fight_attacker(w) != op or any(e.kind == STRUCK and e.op == op for e in w.effects):
            return dmg
        w.effects.append(Effect(STRUCK, op, "end_tp", source=op))
        return max(dmg, min(MAX_DAMAGE, dmg + 1))

    def ended(w: Work, ev: Event) -> None:
        w.effects = [e for e in w.effects if e.kind != STRUCK]

    def stats(w: Work, dmg: tuple[int, int], **info: Any) -> tuple[int, int]:
        # A KHORNE operative's melee weapons: +1 to both Dmg stats (7 at most), a stat
        # change every profile read sees (strikes, other rules, the dice core's values).
        op = str(info.get("op", ""))
        if info.get("kind") != "melee" or not w.effects or w.ctx.owner.get(op) not in players:
            return dmg
        if not legionary(w, op) or not khorne_blooded(w, op):
            return dmg
        return (max(dmg[0], min(MAX_DAMAGE, dmg[0] + 1)), max(dmg[1], min(MAX_DAMAGE, dmg[1] + 1)))

    hooks.transform("would_strike_damage", more)
    hooks.transform("would_change_damage", stats)
    hooks.on("fight_ended", ended)


def _marked(mark: str) -> Any:
    """The condition of a firefight ploy: the operative the trigger names is a friendly
    LEGIONARY operative with ``mark``."""

    def condition(w: Work, player: str, info: Any) -> bool:
        op = info.get("op", "")
        return bool(op) and w.ctx.owner[op] == player and _is(w, op, mark)

    return condition


MALIGNANT = "malignant_aura"  # effect: op = the shooter, until its Shoot action ends
AURA = 3.0
_PIERCING_1 = parse_weapon_rules("Piercing 1").rules


def _malignant_used(w: Work, player: str, action: Any, info: Any) -> None:
    op = info["op"]
    w.effects.append(Effect(MALIGNANT, op, "end_tp", source=op))


def install_malignant_rules(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Malignant Aura (package docstring): Piercing 1 within 3" until the action ends."""

    def piercing(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
        op, target = info.get("op", ""), info.get("target", "")
        if info.get("kind") != "ranged" or not op or not target:
            return rules
        if not any(e.kind == MALIGNANT and e.op == op for e in w.effects):
            return rules
        if w.distance(w.place(w.op(op)), w.place(w.op(target))) > AURA + 1e-6:
            return rules
        return rules.with_rules(*_PIERCING_1)

    def ended(w: Work, ev: Event) -> None:
        w.effects = [e for e in w.effects if not (e.kind == MALIGNANT and e.op == ev["op"])]

    hooks.transform("would_use_weapon_rules", piercing)
    hooks.on("shoot_ended", ended)


def _mutability_used(w: Work, player: str, action: Any, info: Any) -> None:
    """+1 APL until the end of the activation, and the AP it generates (package docstring)."""
    gain_apl(w, player, info["op"])


CAPTIVATION_REACH = 4.0


def _captivated(w: Work, player: str, op: str, info: Any) -> bool:
    """An enemy ``op`` visible to and within 4" of the SLAANESH operative of the window."""
    me = w.op(info["op"])
    here, there = w.place(me), w.place(w.op(op))
    if w.distance(here, there) > CAPTIVATION_REACH + 1e-6:
        return False
    return bool(w.ctx.visible(w.kz, here, there))


def _bloodshed_fight(w: Work, op: str) -> tuple[Any, str] | None:
    """The fight in progress in which ``op`` takes part, and its side (``"a"``/``"d"``)."""
    for f in reversed(w.stack):
        if hasattr(f, "attacker") and hasattr(f, "defender"):
            if f.attacker == op:
                return f, "a"
            if f.defender == op:
                return f, "d"
            return None
    return None


def _bloodshed_condition(w: Work, player: str, info: Any) -> bool:
    op = info.get("op", "")
    if not op or w.ctx.owner[op] != player or not _is(w, op, "KHORNE"):
        return False
    found = _bloodshed_fight(w, op)
    if found is None:
        return False
    f, side = found
    left = f.an + f.ac if side == "a" else f.dn + f.dc
    enemy = f.defender if side == "a" else f.attacker
    return left > 0 and w.op(enemy).alive and not w.op(enemy).incapacitated


def _bloodshed_used(w: Work, player: str, action: Any, info: Any) -> None:
    op = info["op"]
    found = _bloodshed_fight(w, op)
    assert found is not None
    f, side = found
    n, c = (f.an, f.ac) if side == "a" else (f.dn, f.dc)
    enemy = f.defender if side == "a" else f.attacker
    prof = f.prof(w, side)
    crit = c > 0
    dmg = prof.critical_damage if crit else prof.normal_damage
    left = {f"{side}c": c - 1} if crit else {f"{side}n": n - 1}
    w.stack[w.stack.index(f)] = attrs.evolve(f, **left)
    w.emit("strike", op=op, die="crit" if crit else "normal")
    if "would_strike_damage" in w.ctx.hooks.would:
        dmg = int(w.would("would_strike_damage", dmg, op=op, target=enemy, crit=crit))
    weapon = f.aweapon if side == "a" else f.dweapon
    universal.inflict(w, enemy, dmg, weapon, by=op)


# -- Advice (engine.agents.advice): each ploy's value in operatives, cheap ---------------------

NEAR = 6.0  # inches: a friendly operative this near an enemy is likely to fight soon
FIGHT_STRIKE = 0.05  # one more damage on one strike, about DAMAGE_WEIGHT x 1/10 wounds
KHORNE_FIGHT = 0.12  # one more damage on each of about three strikes
SHOT_BALANCED = 0.04  # Balanced on one shot
PIERCING_THREAT = 0.05  # per enemy with a Piercing 1 ranged weapon
INJURED_NURGLE = 0.1  # an injured NURGLE operative shooting and moving as if unhurt
QUICK_FIGHT = 0.05  # the enemy's melee Hit worsened in one fight
MUTABILITY_AP = 0.2  # one more action point
CAPTIVATION_READY = 0.15  # -1 APL on an enemy still to act (0.05 once it has)


def _near_enemy(w: Work, op: str, reach: float = NEAR) -> bool:
    here = w.place(w.op(op))
    return any(w.distance(here, w.place(e)) <= reach for e in w.enemies_of(op))


def _legionaries(w: Work, player: str) -> list[str]:
    return [o.id for o in w.alive(player) if legionary(w, o.id)]


def _blood_advice(w: Work, player: str, action: Any, info: Any) -> float:
    """Per friendly LEGIONARY operative within 6" of an enemy: 0.05 (one strike +1), 0.12
    for a KHORNE one (each strike +1)."""
    return sum(
        KHORNE_FIGHT if mark_of(w, op) == "KHORNE" else FIGHT_STRIKE
        for op in _legionaries(w, player)
        if _near_enemy(w, op)
    )


def _fickle_advice(w: Work, player: str, action: Any, info: Any) -> float:
    """0.04 per ready friendly LEGIONARY operative (a shot with Balanced) while an enemy is
    ready."""
    enemy = "B" if player == "A" else "A"
    if not any(o.ready for o in w.alive(enemy)):
        return 0.0
    return SHOT_BALANCED * sum(1 for op in _legionaries(w, player) if w.op(op).ready)


def _implacable_advice(w: Work, player: str, action: Any, info: Any) -> float:
    """0.05 per enemy operative with a Piercing 1 ranged weapon, 0.1 per injured friendly
    NURGLE LEGIONARY operative."""
    enemy = "B" if player == "A" else "A"
    threats = 0
    for o in w.alive(enemy):
        for _, _, prof in universal.weapons_of(w, o.id, "ranged"):
            p = prof.rules.get(Piercing)
            if p is not None and getattr(p, "x", 0) == 1:
                threats += 1
                break
    injured = sum(
        1 for op in _legionaries(w, player) if _is(w, op, "NURGLE") and w.injured(w.op(op))
    )
    return PIERCING_THREAT * threats + INJURED_NURGLE * injured


def _quicksilver_advice(w: Work, player: str, action: Any, info: Any) -> float:
    """0.05 per friendly LEGIONARY operative within 6" of an enemy (it may charge), twice
    that for a SLAANESH one (also harder to shoot from afar)."""
    return sum(
        QUICK_FIGHT * (2 if mark_of(w, op) == "SLAANESH" else 1)
        for op in _legionaries(w, player)
        if _near_enemy(w, op)
    )


def _malignant_advice(w: Work, player: str, action: Any, info: Any) -> float:
    """The dice core's value of the shot at the primary target with Piercing 1 minus without
    (nothing when it is more than 3" away)."""
    from engine.advice.values import shot_value
    from engine.dice.profile import Target

    op, target = str(info.get("op", "")), str(info.get("target", ""))
    frame = next((f for f in reversed(w.stack) if hasattr(f, "shooter")), None)
    if not op or not target or frame is None:
        return 0.0
    o, t = w.op(op), w.op(target)
    here, there = w.place(o), w.place(t)
    if w.distance(here, there) > AURA + 1e-6:
        return 0.0
    prof = frame.profile(w)
    tg = w.ctx.targeting(w.kz, here, there)
    tgt = Target(w.ctx.datacards[target].save, max(1, t.wounds), tg.in_cover, tg.obscured)
    pierced = attrs.evolve(prof, rules=prof.rules.with_rules(*_PIERCING_1))
    wounds = w.ctx.datacards[target].wounds
    return shot_value(pierced, tgt, wounds) - shot_value(prof, tgt, wounds)


def _mutability_advice(w: Work, player: str, action: Any, info: Any) -> float:
    """0.2 (one more action point)."""
    return MUTABILITY_AP


def _captivation_advice(w: Work, player: str, action: Any, info: Any) -> float:
    """0.15 on a ready enemy (it loses an action point of its next activation), 0.05 on an
    expended one."""
    target = str(getattr(action, "target", "") or "")
    if not target:
        return 0.0
    return CAPTIVATION_READY if w.op(target).ready else CAPTIVATION_READY / 3


def _bloodshed_advice(w: Work, player: str, action: Any, info: Any) -> float:
    """The strike's worth: 1 when it incapacitates the enemy, else ``DAMAGE_WEIGHT`` of its
    damage's share of the enemy's starting wounds."""
    from engine.advice.values import DAMAGE_WEIGHT

    op = str(info.get("op", ""))
    found = _bloodshed_fight(w, op) if op else None
    if found is None:
        return 0.0
    f, side = found
    c = f.ac if side == "a" else f.dc
    enemy = w.op(f.defender if side == "a" else f.attacker)
    prof = f.prof(w, side)
    dmg = prof.critical_damage if c > 0 else prof.normal_damage
    if dmg >= enemy.wounds:
        return 1.0
    return float(DAMAGE_WEIGHT * dmg / max(1, w.ctx.datacards[enemy.id].wounds))


BLOOD_FOR_THE_BLOOD_GOD_PLOY = Ploy(
    "Blood For The Blood God",
    "strategy",
    effects=(GainToken(BLOOD, "end_tp"),),
    rule_id="legionaries/strategy_ploy/blood_for_the_blood_god",
    advice=_blood_advice,
)

FICKLE_FATES_PLOY = Ploy(
    "Fickle Fates",
    "strategy",
    effects=(GainToken(FICKLE_FATES, "end_tp"),),
    rule_id="legionaries/strategy_ploy/fickle_fates",
    advice=_fickle_advice,
)

IMPLACABLE_PLOY = Ploy(
    "Implacable",
    "strategy",
    effects=(GainToken(IMPLACABLE, "end_tp"),),
    rule_id="legionaries/strategy_ploy/implacable",
    advice=_implacable_advice,
)

QUICKSILVER_SPEED_PLOY = Ploy(
    "Quicksilver Speed",
    "strategy",
    effects=(GainToken(QUICKSILVER, "end_tp"),),
    rule_id="legionaries/strategy_ploy/quicksilver_speed",
    advice=_quicksilver_advice,
)

MALIGNANT_AURA_PLOY = Ploy(
    "Malignant Aura",
    "firefight",
    triggers=("target_selected",),
    condition=lambda w, p, info: info.get("kind") == "ranged" and _marked("NURGLE")(w, p, info),
    use_hook=_malignant_used,
    rule_id="legionaries/firefight_ploy/malignant_aura",
    advice=_malignant_advice,
)

MUTABILITY_AND_CHANGE_PLOY = Ploy(
    "Mutability And Change",
    "firefight",
    triggers=("activation_start",),
    target="self",
    condition=_marked("TZEENTCH"),
    effects=(GainToken("mutability_and_change", "end_activation"),),
    use_hook=_mutability_used,
    rule_id="legionaries/firefight_ploy/mutability_and_change",
    advice=_mutability_advice,
)

SICKENING_CAPTIVATION_PLOY = Ploy(
    "Sickening Captivation",
    "firefight",
    triggers=("during_activation", "activation_end"),
    target="enemy",
    condition=_marked("SLAANESH"),
    eligible=_captivated,
    effects=(StatChange("apl", -1, "end_next_activation"),),
    rule_id="legionaries/firefight_ploy/sickening_captivation",
    advice=_captivation_advice,
)

UNENDING_BLOODSHED_PLOY = Ploy(
    "Unending Bloodshed",
    "firefight",
    triggers=("incapacitated",),
    condition=_bloodshed_condition,
    use_hook=_bloodshed_used,
    rule_id="legionaries/firefight_ploy/unending_bloodshed",
    advice=_bloodshed_advice,
)

register(
    "legionaries/strategy_ploy/blood_for_the_blood_god",
    _ploy_installer(BLOOD_FOR_THE_BLOOD_GOD_PLOY, install_blood_rules),
    "Until the end of the turning point, a fighting Legionary's first strike inflicts 1 "
    "more damage; Khorne Legionaries' melee Dmg +1.",
)
register(
    "legionaries/strategy_ploy/fickle_fates",
    _ploy_installer(FICKLE_FATES_PLOY, install_fickle_fates_rules),
    "Until the end of the turning point, friendly Legionaries shooting a ready enemy have "
    "Balanced; a ready Tzeentch Legionary shot retains a fail as a normal save with a crit.",
)
register(
    "legionaries/strategy_ploy/implacable",
    _ploy_installer(IMPLACABLE_PLOY, install_implacable_rules),
    "Until the end of the turning point, Piercing 1 against friendly Legionaries is "
    "Piercing Crits 1.",
)
register(
    "legionaries/strategy_ploy/quicksilver_speed",
    _ploy_installer(QUICKSILVER_SPEED_PLOY, install_quicksilver_rules),
    "Until the end of the turning point, enemies retaliating against a Legionary that "
    "moved this turning point have their melee Hit worsened by 1.",
)
register(
    "legionaries/firefight_ploy/malignant_aura",
    _ploy_installer(MALIGNANT_AURA_PLOY, install_malignant_rules),
    "A Nurgle Legionary's shot has Piercing 1 against enemies within 3\" of it.",
)
register(
    "legionaries/firefight_ploy/mutability_and_change",
    _ploy_installer(MUTABILITY_AND_CHANGE_PLOY, None),
    "A Tzeentch Legionary activated gets +1 APL for the activation, never repeating an action.",
)
register(
    "legionaries/firefight_ploy/sickening_captivation",
    _ploy_installer(SICKENING_CAPTIVATION_PLOY, None),
    'A Slaanesh Legionary in its activation gives a visible enemy within 4" -1 APL until '
    "the end of its next activation.",
)
register(
    "legionaries/firefight_ploy/unending_bloodshed",
    _ploy_installer(UNENDING_BLOODSHED_PLOY, None),
    "A Khorne Legionary incapacitated in melee strikes once more with an unresolved success.",
)
