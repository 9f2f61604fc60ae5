"""The Legionaries' operative abilities (package docstring)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.dice.rules import WeaponRules, parse_weapon_rules
from engine.game import rule_actions, universal
from engine.game.actions import MOVE_VERBS, Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.choices import RuleChoiceFrame, RuleRollFrame, on_choice, on_roll
from engine.rules.registry import register
from teams.astartes import weapon_base
from teams.legionaries.common import (
    MARK_EFFECT,
    MARKS,
    UNLEASHED,
    UNLEASHED_DMG,
    _activated,
    _fight_attacker,
    dmg_stats,
    gain_apl,
    has_token,
    heal,
    legionary,
    mark_of,
    unleashed,
)

CHAMPION = "ASPIRING CHAMPION"
EYES = "in_the_eyes_of_the_gods"  # token: used this activation


def install_eyes_of_the_gods(hooks: Hooks, players: tuple[str, ...]) -> None:
    """In The Eyes Of The Gods (package docstring)."""

    def down(w: Work, ev: Event) -> None:
        by = ev.get("by", "")
        if not by or by not in w.ctx.owner or w.ctx.owner[by] not in players:
            return
        if w.ctx.owner[ev["op"]] == w.ctx.owner[by] or CHAMPION not in w.ctx.datacards[by].keywords:
            return
        if _activated(w) != by or has_token(w, by, EYES) or not w.op(by).alive:
            return
        w.effects.append(Effect("token", by, "end_activation", source=by, detail=EYES))
        gain_apl(w, w.ctx.owner[by], by)
        w.emit("team_rule_used", op=by, rule="In The Eyes Of The Gods", on=ev["op"])

    hooks.on("operative_incapacitated", down)


register(
    "legionaries/ability/in_the_eyes_of_the_gods",
    install_eyes_of_the_gods,
    "Once per activation, the Aspiring Champion gets +1 APL (and 1AP) when it incapacitates "
    "an enemy.",
)


CHOSEN = "CHOSEN"
SOUL_GORGE = "Soul Gorge"
GORGED = "soul_gorge"  # effect: op incapacitated an enemy in the fight in progress


def install_soul_gorge(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Soul Gorge (package docstring)."""

    def down(w: Work, ev: Event) -> None:
        by = ev.get("by", "")
        if not by or by not in w.ctx.owner or w.ctx.owner[by] not in players:
            return
        if w.ctx.owner[ev["op"]] == w.ctx.owner[by] or CHOSEN not in w.ctx.datacards[by].keywords:
            return
        if not _fight_attacker(w) or any(e.kind == GORGED and e.op == by for e in w.effects):
            return
        w.effects.append(Effect(GORGED, by, "end_tp", source=by))

    def ended(w: Work, ev: Event) -> None:
        ids = (ev["op"], ev["target"])
        gorged = [e for e in w.effects if e.kind == GORGED and e.op in ids]
        if not gorged:
            return
        w.effects = [e for e in w.effects if e not in gorged]
        for e in gorged:
            o = w.op(e.op)
            if o.alive and not o.incapacitated:
                w.stack.append(
                    RuleRollFrame(
                        player=w.ctx.owner[o.id],
                        rule=SOUL_GORGE,
                        key=GORGED,
                        op=o.id,
                        dice=1,
                        label=f"Soul Gorge D3+1 ({o.id})",
                    )
                )

    hooks.on("operative_incapacitated", down)
    hooks.on("fight_ended", ended)


def _gorge_rolled(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    heal(w, frame.op, (values[0] + 1) // 2 + 1, frame.op, SOUL_GORGE)


on_roll(GORGED, _gorge_rolled)
register(
    "legionaries/ability/soul_gorge",
    install_soul_gorge,
    "After fighting or retaliating, the Chosen regains D3+1 wounds if it incapacitated an enemy "
    "and survived.",
)


SHRIVETALON = "SHRIVETALON"
DISMEMBER = "Horrifying Dismemberment"
DISMEMBERED = "dismembered"  # effect: op = the Shrivetalon, source = the enemy it incapacitated
DISMEMBER_REACH = 3.0


def dismember_candidates(w: Work, op: str, victim: str) -> list[str]:
    """Enemy operatives other than ``victim`` visible to and within 3" of ``op`` or of
    ``victim``, in id order."""
    out = []
    for e in w.enemies_of(op):
        if e.id == victim or not e.alive:
            continue
        there = w.place(e)
        for who in (op, victim):
            here = w.place(w.op(who))
            near = w.distance(here, there) <= DISMEMBER_REACH + 1e-6
            if near and w.ctx.visible(w.kz, here, there):
                out.append(e.id)
                break
    return sorted(out, key=lambda i: w.ctx.index[i])


def install_dismemberment(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Horrifying Dismemberment (package docstring)."""

    def down(w: Work, ev: Event) -> None:
        by = ev.get("by", "")
        if not by or by not in w.ctx.owner or w.ctx.owner[by] not in players:
            return
        if w.ctx.owner[ev["op"]] == w.ctx.owner[by]:
            return
        if SHRIVETALON not in w.ctx.datacards[by].keywords or not _fight_attacker(w):
            return
        w.effects.append(Effect(DISMEMBERED, by, "end_tp", source=ev["op"]))

    def resolved(w: Work, ev: Event) -> None:
        op = ev["op"]
        pending = [e for e in w.effects if e.kind == DISMEMBERED and e.op == op]
        if not pending:
            return
        w.effects = [e for e in w.effects if e not in pending]
        cands = dismember_candidates(w, op, pending[0].source)
        if len(cands) == 1:
            _dismember(w, op, cands[0])
        elif cands:
            w.stack.append(
                RuleChoiceFrame(
                    player=w.ctx.owner[op],
                    rule=DISMEMBER,
                    key=DISMEMBERED,
                    op=op,
                    candidates=tuple(cands),
                    optional=False,
                )
            )

    hooks.on("operative_incapacitated", down)
    hooks.on("attack_dice_resolved", resolved)


def _dismember(w: Work, op: str, enemy: str) -> None:
    w.effects.append(Effect("apl", enemy, "end_next_activation", source=op, value=-1))
    w.emit("team_rule_selected", op=op, rule=DISMEMBER, on=enemy)


on_choice(DISMEMBERED, lambda w, frame, chosen: _dismember(w, frame.op, chosen))
register(
    "legionaries/ability/horrifying_dismemberment",
    install_dismemberment,
    'Incapacitating in melee, the Shrivetalon gives another enemy within 3" -1 APL until the '
    "end of its next activation.",
)


def install_vicious_reflexes(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Vicious Reflexes (package docstring)."""

    def start(w: Work, ev: Event) -> None:
        op = ev["op"]
        if ev["weapon_kind"] != "melee" or w.ctx.owner[op] not in players:
            return
        if SHRIVETALON not in w.ctx.datacards[op].keywords:
            return
        for i in range(len(w.stack) - 1, -1, -1):
            f = w.stack[i]
            if getattr(f, "defender", None) == op and hasattr(f, "turn"):
                if f.stage == "resolve" and f.dn + f.dc > 0:
                    w.stack[i] = attrs.evolve(f, turn="d")
                    w.emit("team_rule_used", op=op, rule="Vicious Reflexes", on="")
                return

    hooks.on("resolve_step_started", start)


register(
    "legionaries/ability/vicious_reflexes",
    install_vicious_reflexes,
    "Retaliating, the Shrivetalon resolves the first attack die.",
)


ICON_BEARER = "ICON BEARER"


def install_icon_bearer(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Icon Bearer (package docstring)."""

    def higher(w: Work, apl: int, **info: Any) -> int:
        op = info["op"]
        if not universal.is_marker(info.get("what")):
            return apl  # (control of a marker, objective or mission marker: not a flank)
        if w.ctx.owner[op] in players and ICON_BEARER in w.ctx.datacards[op].keywords:
            return apl + 1
        return apl

    hooks.transform("would_control_apl", higher)


register(
    "legionaries/ability/icon_bearer",
    install_icon_bearer,
    "The Icon Bearer's APL counts 1 higher for the control of markers.",
)


TAINTED = "tainted"  # effect: detail = the objective marker's name, for the battle


FAVOURED = "Favoured Of The Dark Gods"
_FAVOURED_KEY = "legionaries_favoured"


def favoured_markers(w: Work, op: str) -> list[str]:
    """The objective markers Icon Bearer ``op`` controls (contests, and its player controls)
    that no operative has tainted, in name order."""
    o = w.op(op)
    tainted = {e.detail for e in w.effects if e.kind == TAINTED}
    return [
        m.name
        for m in sorted(w.markers, key=lambda m: m.name)
        if m.name not in tainted
        and universal.contests(w, o, m.name)
        and universal.controller(w, m.name) == o.player
    ]


def _taint(w: Work, op: str, marker: str) -> None:
    """Taint ``marker`` for the battle; ``op``'s player gains 1CP."""
    player = w.ctx.owner[op]
    w.effects.append(Effect(TAINTED, "", "end_battle", source=op, detail=marker, player=player))
    w.set_pl(player, cp=w.pl(player).cp + 1)
    w.emit("team_rule_used", op=op, rule=FAVOURED, on=marker)
    w.emit("cp_gained", player=player, cp=1, total=w.pl(player).cp)


def _favoured_from(w: Work, bearers: tuple[str, ...]) -> None:
    """Apply Favoured Of The Dark Gods for each Icon Bearer of ``bearers`` in turn: one
    marker it may taint is tainted at once; among several, its player chooses which (a
    :class:`RuleChoiceFrame` with the markers as ``choices``, not optional: the rule is not
    a "can"), the rest going on once chosen."""
    for i, op in enumerate(bearers):
        if not w.op(op).alive:
            continue
        names = favoured_markers(w, op)
        if len(names) == 1:
            _taint(w, op, names[0])
        elif names:
            w.stack.append(
                RuleChoiceFrame(
                    player=w.ctx.owner[op],
                    rule=FAVOURED,
                    key=_FAVOURED_KEY,
                    op=op,
                    candidates=(),
                    data=(("rest", bearers[i + 1 :]),),
                    optional=False,
                    choices=tuple(names),
                )
            )
            return


def _favoured_chosen(w: Work, frame: Any, chosen: str) -> None:
    _taint(w, frame.op, chosen)
    _favoured_from(w, tuple(frame.get("rest")))


on_choice(_FAVOURED_KEY, _favoured_chosen)


def install_favoured(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Favoured Of The Dark Gods (package docstring): in the Ready step, each friendly Icon
    Bearer that controls an untainted objective marker taints it for the battle (+1CP); when
    it controls several, its player chooses which (``Use favoured of the dark gods
    <marker>``)."""

    def ready(w: Work, ev: Event) -> None:
        bearers = tuple(
            o.id
            for o in w.alive()
            if o.player in players and ICON_BEARER in w.ctx.datacards[o.id].keywords
        )
        if bearers:
            _favoured_from(w, bearers)

    hooks.on("ready_step", ready)


register(
    "legionaries/ability/favoured_of_the_dark_gods",
    install_favoured,
    "Ready step: the Icon Bearer taints an objective marker it controls, once per marker per "
    "battle, for 1CP.",
)


AURA = "Daemonic Aura"
AURA_KEY = "daemonic_aura"  # the choice frame's handler key
AURA_ROLL = "daemonic_aura_roll"  # the roll frame's handler key
AURA_BLOCK = "daemonic_aura_blocked"  # token: the enemy cannot Fall Back this activation
AURA_ROLL_NEEDED = 3
FALL_BACK = "Fall Back"


def install_daemonic_aura(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Daemonic Aura (package docstring)."""

    def moved(w: Work, ev: Event) -> None:
        enemy = str(ev["op"])
        if ev["action"] != "fall back" or w.ctx.owner[enemy] in players:
            return
        start = w.ctx.placement(enemy, ev["x0"], ev["y0"], ev["z0"])
        chosen = [
            o.id
            for o in w.alive()
            if o.player in players
            and o.player != w.ctx.owner[enemy]
            and CHOSEN in w.ctx.datacards[o.id].keywords
            and w.ctx.control_range(w.kz, w.place(o), start)
        ]
        if not chosen:
            return
        frame = next(
            (f for f in reversed(w.stack) if isinstance(f, universal.ActivationFrame)), None
        )
        mode = frame.mode if frame is not None and frame.op == enemy else "activation"
        o = w.op(enemy)
        refund = universal.action_cost(w, o, FALL_BACK, universal.ACTION_COST[FALL_BACK], mode)
        earlier = list(o.done)
        if FALL_BACK in earlier:
            earlier.reverse()
            earlier.remove(FALL_BACK)
            earlier.reverse()
        data = (
            ("enemy", enemy),
            ("at", (float(ev["x0"]), float(ev["y0"]), float(ev["z0"]))),
            ("moved", any(d in MOVE_VERBS for d in earlier)),
            ("done", tuple(earlier)),
            ("refund", refund),
        )
        _ask_aura(w, data, tuple(chosen))

    def refuse(w: Work, why: str | None, **info: Any) -> str | None:
        op = str(info.get("op", ""))
        if why or info.get("action") != FALL_BACK or not w.effects:
            return why
        if any(e.kind == "token" and e.op == op and e.detail == AURA_BLOCK for e in w.effects):
            return f"{op} failed to Fall Back from a Daemonic Aura this activation"
        return why

    hooks.on("moved", moved)
    hooks.transform("would_refuse_action", refuse)


def _ask_aura(w: Work, data: tuple[tuple[str, Any], ...], chosen: tuple[str, ...]) -> None:
    """Ask the player of the Chosen ``chosen[0]`` whether it uses its Daemonic Aura on the
    Fall Back; the others (``rest``) are asked in turn if it is declined or its D6 fails."""
    if not chosen:
        return
    data = (*(d for d in data if d[0] != "rest"), ("rest", chosen[1:]))
    w.stack.append(
        RuleChoiceFrame(
            player=w.ctx.owner[chosen[0]],
            rule=AURA,
            key=AURA_KEY,
            op=chosen[0],
            candidates=(),
            data=data,
            targeted=False,
        )
    )


def _aura_used(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    if not chosen:
        _ask_aura(w, frame.data, tuple(frame.get("rest")))
        return
    w.stack.append(
        RuleRollFrame(
            player=frame.player,
            rule=AURA,
            key=AURA_ROLL,
            op=frame.op,
            dice=1,
            label=f"Daemonic Aura ({frame.op} on {frame.get('enemy')})",
            data=frame.data,
        )
    )


def _aura_rolled(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    enemy = str(frame.get("enemy"))
    o = w.op(enemy)
    if not o.alive or o.incapacitated:
        return
    if values[0] < AURA_ROLL_NEEDED:
        _ask_aura(w, frame.data, tuple(frame.get("rest")))
        return
    x, y, z = frame.get("at")
    w.set_op(
        enemy,
        x=x,
        y=y,
        elevation=z,
        moved=frame.get("moved"),
        done=frame.get("done"),
        ap=o.ap + int(frame.get("refund")),
    )
    universal.carry_along(w, enemy)
    w.effects.append(Effect("token", enemy, "end_activation", source=enemy, detail=AURA_BLOCK))
    w.emit("team_rule_used", op=frame.op, rule=AURA, on=enemy)


on_choice(AURA_KEY, _aura_used)
on_roll(AURA_ROLL, _aura_rolled)
register(
    "legionaries/ability/daemonic_aura",
    install_daemonic_aura,
    "An enemy falling back from the Chosen's control range fails on a D6 of 3+ (AP refunded).",
)


ANOINTED = "ANOINTED"
UNLEASH = "Unleash Daemon"
CLAW = "daemonic claw"
_CLAW_RULES = parse_weapon_rules("Ceaseless, Lethal 5+").rules


@attrs.frozen(slots=True)
class UnleashDaemon:
    """The option Unleash Daemon gives when the Anointed is activated (a
    :class:`engine.game.ploys.PloyLike` of kind ``"rule"``: free, not a ploy): ``Use unleash
    daemon``, once per battle per operative (package docstring)."""

    name: str = UNLEASH
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("activation_start",)
    repeatable: bool = True

    def _op(self, w: Work, player: str, info: Mapping[str, Any]) -> str:
        op = str(info.get("op", ""))
        if not op or w.ctx.owner.get(op) != player or unleashed(w, op):
            return ""
        if ANOINTED not in w.ctx.datacards[op].keywords or _activated(w) != op:
            return ""
        return "" if w.count(player, f"{UNLEASHED}:{op}") else op

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use unleash daemon`` when the activated operative is an Anointed that has not
        used it."""
        return [Action("Use", text="unleash daemon")] if self._op(w, player, info) else []

    def owns(self, action: Action) -> bool:
        """Its action is ``Use unleash daemon``."""
        return action.verb == "Use" and action.text == "unleash daemon"

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``Use unleash daemon`` is refused."""
        return "Unleash Daemon: once per battle, when the Anointed is activated"

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Unleash it for the battle; a marker it carries is placed where it stands (0AP)."""
        op = self._op(w, player, info)
        w.count(player, f"{UNLEASHED}:{op}", add=1)
        w.effects.append(Effect("token", op, "end_battle", source=op, detail=UNLEASHED))
        w.emit("team_rule_used", op=op, rule=UNLEASH, on=op)
        o = w.op(op)
        for name in o.carrying:
            universal.place_marker(w, w.op(op), o.x, o.y, name)

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """Rule of thumb: worth a quarter of an operative (tougher, deadlier claws) unless the
        Anointed carries a marker or stands within 3" of an objective marker (it would be
        barred from marker actions), then nothing."""
        op = self._op(w, player, info)
        if not op:
            return 0.0
        o = w.op(op)
        if o.carrying:
            return 0.0
        here = w.place(o)
        for m in w.markers:
            there = w.ctx.placement(op, m.x, m.y, 0.0)
            if w.distance(here, there) <= UNLEASH_MARKER_REACH:
                return 0.0
        return 0.25


UNLEASH_DAEMON = UnleashDaemon()
UNLEASH_MARKER_REACH = 3.0


def install_unleash_daemon(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Unleash Daemon (package docstring)."""

    def mine(w: Work, op: str) -> bool:
        return bool(op) and w.ctx.owner.get(op) in players and bool(w.effects) and unleashed(w, op)

    def refuse(w: Work, why: str | None, **info: Any) -> str | None:
        op = str(info.get("op", ""))
        if why or not mine(w, op):
            return why
        act = info.get("rule_action")
        if info.get("action") == "Pick up" or (
            act is not None and rule_actions.is_mission_action(act)
        ):
            return f"{op} unleashed its daemon: no Pick Up Marker or mission actions"
        return why

    def less(w: Work, dmg: int, **info: Any) -> int:
        target = str(info.get("target", ""))
        if dmg <= 0 or not mine(w, target):
            return dmg
        # The weapon's Dmg stat decides, not the damage after rules adding to it.
        stats = dmg_stats(w, str(info.get("op", "")))
        stat = dmg if stats is None else stats[1] if info.get("crit") else stats[0]
        return dmg - 1 if stat >= UNLEASHED_DMG else dmg

    def claw(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
        op = str(info.get("op", ""))
        if info.get("kind") != "melee" or not mine(w, op):
            return rules
        if weapon_base(str(info.get("weapon", ""))) != CLAW:
            return rules
        return rules.with_rules(*_CLAW_RULES)

    hooks.ploy(UNLEASH_DAEMON, players)
    hooks.transform("would_refuse_action", refuse)
    hooks.transform("would_shot_damage", less)
    hooks.transform("would_strike_damage", less)
    hooks.transform("would_use_weapon_rules", claw)


register(
    "legionaries/ability/unleash_daemon",
    install_unleash_daemon,
    "Once per battle when activated, the Anointed is unleashed: no marker or mission actions, "
    "Dmg of 4+ on it is 1 less, its claw has Ceaseless and Lethal 5+.",
)


WARRIOR = "WARRIOR"
PACT = "Infernal Pact"
PACT_USED = "infernal_pact"  # count per player: used this battle
MUTABILITY = "mutability_and_change"  # token: the ploy locks a WARRIOR's mark this TP


@attrs.frozen(slots=True)
class InfernalPact:
    """The option Infernal Pact gives when a friendly LEGIONARY WARRIOR operative is
    activated (a :class:`engine.game.ploys.PloyLike` of kind ``"rule"``): ``Use infernal
    pact <mark>`` changes its Mark of Chaos to another one for the battle; once per battle
    per player (package docstring)."""

    name: str = PACT
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("activation_start",)
    repeatable: bool = True

    def _op(self, w: Work, player: str, info: Mapping[str, Any]) -> str:
        op = str(info.get("op", ""))
        if not op or w.ctx.owner.get(op) != player or w.count(player, PACT_USED):
            return ""
        kw = w.ctx.datacards[op].keywords
        if WARRIOR not in kw or not legionary(w, op) or _activated(w) != op:
            return ""
        return "" if has_token(w, op, MUTABILITY) else op

    def _marks(self, w: Work, op: str) -> list[str]:
        now = mark_of(w, op)
        return [m for m in MARKS if m != now]

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use infernal pact <mark>`` for each other mark."""
        op = self._op(w, player, info)
        if not op:
            return []
        return [Action("Use", text=f"infernal pact {m.lower()}") for m in self._marks(w, op)]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Use infernal pact <mark>``."""
        return action.verb == "Use" and action.text.startswith("infernal pact ")

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``Use infernal pact <mark>`` is refused."""
        return (
            "Infernal Pact: once per battle, when a LEGIONARY WARRIOR is activated, to another "
            "Mark of Chaos (not after Mutability And Change this turning point)"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Change the operative's mark for the battle (an effect ``mark_of_chaos``)."""
        op = self._op(w, player, info)
        mark = action.text.removeprefix("infernal pact ").upper()
        w.count(player, PACT_USED, add=1)
        w.effects = [e for e in w.effects if not (e.kind == MARK_EFFECT and e.op == op)]
        w.effects.append(Effect(MARK_EFFECT, op, "end_battle", source=op, detail=mark))
        w.emit("team_rule_used", op=op, rule=PACT, on=mark)

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """Rule of thumb: nothing (the marks are worth about the same to the agent)."""
        return 0.0


INFERNAL_PACT = InfernalPact()


def install_infernal_pact(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Infernal Pact (package docstring)."""
    hooks.ploy(INFERNAL_PACT, players)


register(
    "legionaries/ability/infernal_pact",
    install_infernal_pact,
    "Once per battle, when a Legionary Warrior is activated, change its Mark of Chaos.",
)
