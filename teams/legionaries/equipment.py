"""The Legionaries' team equipment (package docstring): Malefic Blades, Warded Armour,
Tainted Rounds, Chaos Talismans. Each plays only once its player selected it
(``engine.rules.equipment.selection.has_equipment``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.dice.rules import WeaponRules, parse_weapon_rules
from engine.game import universal
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.choices import RuleRollFrame, on_roll
from engine.rules.equipment.selection import give_weapons, has_equipment
from engine.rules.registry import register, register_equipment_value
from teams.astartes import weapon_base
from teams.legionaries.common import MARKS, legionary, mark_of

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


TALISMANS = "chaos_talismans"  # player token: detail "chaos_talismans:<MARK>", for the TP
TALISMANS_USED = "chaos_talismans_used"  # token on the operative: used this activation
SELF_DAMAGE_AVERAGE = 2.0  # a D3's


def talismans_mark(w: Work, player: str) -> str:
    """The mark ``player`` selected with Chaos Talismans this turning point, or ``""``."""
    for e in w.effects:
        if e.kind == "token" and e.player == player and e.detail.startswith(TALISMANS + ":"):
            return e.detail.removeprefix(TALISMANS + ":")
    return ""


@attrs.frozen(slots=True)
class ChaosTalismansGambit:
    """Chaos Talismans, a strategic gambit (a free rule option of the Gambit step, once per
    Strategy phase, once selected): select a Mark of Chaos for the turning point
    (``Use chaos talismans nurgle``). Its advice: 0.1 operative for the mark most friendly
    operatives have (ties: printed order), nothing for the others."""

    name: str = CHAOS_TALISMANS
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("gambit",)
    repeatable: bool = True

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use chaos talismans <mark>`` for each mark, once per Strategy phase."""
        if talismans_mark(w, player) or not has_equipment(w, player, CHAOS_TALISMANS):
            return []
        return [Action("Use", text=f"chaos talismans {m.lower()}") for m in MARKS]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Use chaos talismans <mark>``."""
        return action.verb == "Use" and action.text.startswith("chaos talismans ")

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        return f"Chaos Talismans: once per Strategy phase, once selected, one of {', '.join(MARKS)}"

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Select the mark until the end of the turning point."""
        mark = action.text.removeprefix("chaos talismans ").upper()
        detail = f"{TALISMANS}:{mark}"
        w.add_effect(Effect("token", "", "end_tp", source=player, detail=detail, player=player))
        w.emit("team_rule_used", op="", rule=self.name, on=mark)

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """Rule of thumb (class docstring)."""
        counts = {m: 0 for m in MARKS}
        for o in w.alive(player):
            m = mark_of(w, o.id)
            if m in counts:
                counts[m] += 1
        best = max(MARKS, key=lambda m: (counts[m], -MARKS.index(m)))
        return 0.1 if action.text == f"chaos talismans {best.lower()}" else 0.0


def _dice_frame(w: Work) -> tuple[int, Any]:
    """The innermost Shoot or Fight frame (its index on the stack) whose dice window is open."""
    for i in range(len(w.stack) - 1, -1, -1):
        if hasattr(w.stack[i], "dice_info"):
            return i, w.stack[i]
    raise LookupError("no attack in progress")


def _fields(frame: Any, op: str) -> tuple[str, str]:
    """The dice and flags fields of ``op``'s side of ``frame``."""
    if hasattr(frame, "shooter"):
        return "dice", "flags"
    return ("adice", "aflags") if frame.attacker == op else ("ddice", "dflags")


def _hit(w: Work, frame: Any, op: str) -> int:
    if hasattr(frame, "shooter"):
        return int(frame.profile(w).hit)
    return int(frame.prof(w, "a" if frame.attacker == op else "d").hit)


def _fails(w: Work, op: str, dice: tuple[int, ...]) -> list[int]:
    """The indexes of the attack dice that are fails, lowest first."""
    _, frame = _dice_frame(w)
    hit = _hit(w, frame, op)
    idx = [i for i, v in enumerate(dice) if v != 6 and (v == 1 or v < hit)]
    return sorted(idx, key=lambda i: (dice[i], i))


def _active(w: Work) -> str:
    """The operative whose activation or counteraction is in progress, or ``""``."""
    for f in reversed(w.stack):
        if isinstance(f, universal.ActivationFrame):
            return f.op
    return ""


@attrs.frozen(slots=True)
class ChaosTalismansFails:
    """Chaos Talismans' option in the attack dice window of a friendly LEGIONARY operative of
    the selected mark that is shooting, fighting or retaliating with two or more fails (a
    free rule option): ``Use chaos talismans``: one fail is discarded (the lowest) and
    another retained as a normal success (it shows the Hit), and the operative suffers D3
    damage (a roll once the window's changes are done). Once per activation in progress
    (its own, or the enemy's it retaliates in). Its advice: the damage of one more normal
    success weighed as the dice core's wounds (``DAMAGE_WEIGHT`` of a wound's share of the
    target's starting wounds) less the D3's average on the operative itself."""

    name: str = "Chaos Talismans Fails"
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("attack_dice",)
    repeatable: bool = True

    def _applies(self, w: Work, player: str, info: Mapping[str, Any]) -> bool:
        op = str(info.get("op", ""))
        if not op or w.ctx.owner.get(op) != player or not w.effects:
            return False
        mark = talismans_mark(w, player)
        if not mark or not legionary(w, op) or mark_of(w, op) != mark:
            return False
        if any(e.kind == "token" and e.op == op and e.detail == TALISMANS_USED for e in w.effects):
            return False
        return len(_fails(w, op, tuple(info.get("dice", ())))) >= 2

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use chaos talismans`` when it applies."""
        return [Action("Use", text="chaos talismans")] if self._applies(w, player, info) else []

    def owns(self, action: Action) -> bool:
        """Its action is ``Use chaos talismans``."""
        return action.verb == "Use" and action.text == "chaos talismans"

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``Use chaos talismans`` is refused."""
        return (
            "Chaos Talismans: a Legionary of the mark selected this turning point, with two or "
            "more fails, once per activation"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Discard a fail, retain another as a normal success, then D3 damage on the
        operative."""
        op = str(info["op"])
        i, frame = _dice_frame(w)
        dname, fname = _fields(frame, op)
        dice, flags = list(getattr(frame, dname)), list(getattr(frame, fname))
        fails = _fails(w, op, tuple(dice))
        drop, keep = fails[0], fails[1]
        dice[keep], flags[keep] = _hit(w, frame, op), True  # retained: not re-rolled after
        del dice[drop]
        del flags[drop]
        w.stack[i] = attrs.evolve(frame, **{dname: tuple(dice), fname: tuple(flags)})
        w.effects.append(
            Effect("token", op, "end_activation", source=_active(w) or op, detail=TALISMANS_USED)
        )
        w.emit("team_rule_used", op=op, rule=CHAOS_TALISMANS, on=op)
        w.defer_frame(
            RuleRollFrame(
                player=player,
                rule=CHAOS_TALISMANS,
                key=TALISMANS,
                op=op,
                dice=1,
                label=f"Chaos Talismans D3 ({op})",
            )
        )

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """Rule of thumb (class docstring)."""
        from engine.advice.values import DAMAGE_WEIGHT

        op, target = str(info.get("op", "")), str(info.get("target", ""))
        if not op or not target:
            return 0.0
        _, frame = _dice_frame(w)
        prof = (
            frame.profile(w)
            if hasattr(frame, "shooter")
            else frame.prof(w, "a" if frame.attacker == op else "d")
        )
        gain = prof.normal_damage / max(1, w.ctx.datacards[target].wounds)
        loss = SELF_DAMAGE_AVERAGE / max(1, w.ctx.datacards[op].wounds)
        if w.op(op).wounds <= 3:
            return -1.0  # it may incapacitate itself
        return float(DAMAGE_WEIGHT * (gain - loss))


def _talismans_rolled(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    universal.inflict(w, frame.op, (values[0] + 1) // 2, CHAOS_TALISMANS, by=frame.op)


on_roll(TALISMANS, _talismans_rolled)
CHAOS_TALISMANS_GAMBIT = ChaosTalismansGambit()
CHAOS_TALISMANS_FAILS = ChaosTalismansFails()


def install_chaos_talismans(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Chaos Talismans (:class:`ChaosTalismansGambit`, :class:`ChaosTalismansFails`)."""
    hooks.ploy(CHAOS_TALISMANS_GAMBIT, players)
    hooks.ploy(CHAOS_TALISMANS_FAILS, players)


register(
    "legionaries/equipment/chaos_talismans",
    install_chaos_talismans,
    "Strategic gambit: Legionaries of one mark may, once per activation, turn two fails into "
    "one normal success for D3 damage on themselves.",
)
register_equipment_value("legionaries/equipment/chaos_talismans", 2.5)
