"""The Legionaries' team rules that the engine plays, registered by rule id
(``engine.rules.registry``).

**Siphon Life*** (Balefire Acolyte's Life Syphon and Fell Dagger): when the weapon is
selected, its operative's player can use the rule; if they do, at the start of the Resolve
Attack Dice step they select one friendly LEGIONARY operative visible to and within 6" of the
wielder (the wielder itself included: it is visible to itself at distance 0); each attack die
of the wielder that inflicts damage in that step then heals that operative 1 lost wound, or D3
for a critical success. Once per turning point per weapon (all its profiles together, 2.2).

The engine's reading, documented: two decisions of the wielder's player.

1. When the weapon is selected (the Shoot action starts, ``shoot_started``; the attacker's
   Fight action starts, ``fight_started``; the defender's retaliating weapon is known,
   ``retaliation_weapon``), before any attack die is rolled: ``Use siphon life`` or
   ``Decline``. Using it spends the once-per-turning-point limit, whatever the dice do. It is
   offered only when the limit is unspent and it could matter: some operative passes the
   Resolve step's test below at that moment (no operative moves during the action; in a fight
   the wielder always passes, as it can lose wounds before it is healed).
2. At the start of the Resolve Attack Dice step (of the first target whose resolve step has
   a retained success, the target alive), the operative: a friendly LEGIONARY operative
   visible to and within 6" of the wielder that has lost wounds (in a fight the wielder also
   unhurt). ``Use siphon life on LEG-3``, with no ``Decline`` (the rule is already used);
   when only one operative qualifies it is selected without a decision, and when none does
   nothing is selected.

A D3 is a D6 halved, rounded up.

**Marks of Chaos**: an operative's mark is read from its datacard keywords (``KHORNE``,
``NURGLE``, ``SLAANESH``, ``TZEENTCH``, ``UNDIVIDED``; :func:`mark_of`). The roster does not
choose a mark yet, so until it does no operative has one and the marked halves of the ploys
below never apply.

**Khorne - Wrathful Onslaught**: a KHORNE LEGIONARY operative's melee weapons have Severe.
**Tzeentch - Empyreal Guidance**: a TZEENTCH LEGIONARY operative's ranged weapons have Severe.
**Undivided - Vicious Reavers**: whenever an UNDIVIDED LEGIONARY operative shoots, fights or
retaliates against an enemy operative within 6" of it, its weapons have Ceaseless.

**In The Eyes Of The Gods** (Aspiring Champion): once per activation, when the operative
incapacitates an enemy operative during its own activation, +1 APL until the end of that
activation. The engine's reading: AP are generated from APL at activation (2.1), so the
change would do nothing; the operative gains the 1AP the change adds (none when its APL is
already at the +1 limit), as Mutability And Change below.

**Soul Gorge** (Chosen): after the operative fights or retaliates, if it is not incapacitated
but incapacitated an enemy operative during that sequence, it regains D3+1 lost wounds (a roll
when the Fight action ends).

**Horrifying Dismemberment** (Shrivetalon): whenever the operative incapacitates an enemy
operative while fighting or retaliating, its player selects one other enemy operative visible
to and within 3" of either of them: -1 APL until the end of that enemy's next activation. The
choice comes after the strike that incapacitated it (``Use horrifying dismemberment on
BLU-2``; no ``Decline``: the rule is mandatory; made without a decision when one enemy
qualifies).

**Slaanesh - Unnatural Agility**: a SLAANESH LEGIONARY operative's Move is 1" more.

**Vicious Reflexes** (Shrivetalon): whenever the operative is retaliating, its player resolves
the first attack die of the Resolve Attack Dice step (the defender first, instead of the
attacker).

**Icon Bearer** (Icon Bearer): whenever control of a marker is determined, the operative's APL
counts 1 higher (not a change of its APL stat: not clamped with its changes).

**Favoured Of The Dark Gods** (Icon Bearer): in the Ready step of each Strategy phase, if the
operative controls an objective marker (contests it, and its player controls it) that no
operative has tainted, that marker is tainted for the battle (an effect ``tainted`` naming it)
and its player gains 1CP. One marker per Ready step per Icon Bearer (the first in name order).

**Fickle Fates** (strategy ploy, 1CP): until the end of the turning point, whenever a friendly
LEGIONARY operative shoots a ready enemy operative, its ranged weapons have Balanced. Its
TZEENTCH half (a defender's fail retained as a normal save) is not implemented.

**Implacable** (strategy ploy, 1CP): until the end of the turning point, whenever an operative
shoots a friendly LEGIONARY operative, weapons with Piercing 1 have Piercing Crits 1 instead.
Friendly LEGIONARY NURGLE operatives ignore the stat changes of being injured (Move -2", their
weapons' Hit +1, 2.3): the engine adds them back through the Move and Hit hooks (the Hit one
is asked only when the opponent is known, as in the game's Shoot and Fight sequences).

**Quicksilver Speed** (strategy ploy, 1CP): until the end of the turning point, whenever a
friendly LEGIONARY operative that performed an action in which it moved this turning point
(tracked from the ploy's use: a strategy ploy comes before any move of its turning point) is
fighting (performing the Fight action, not retaliating), the Hit of the enemy's melee weapons
is worsened by 1, not cumulative with being injured; and whenever an enemy operative shoots a
friendly LEGIONARY SLAANESH operative more than 6" from it that so moved, the Hit of its
weapons is worsened by 1 (not cumulative with being injured).

**Blood For The Blood God** (strategy ploy, 1CP): until the end of the turning point, whenever
a friendly LEGIONARY operative that is not KHORNE is fighting (performing the Fight action),
its first strike of that sequence inflicts 1 more damage (7 at most); a friendly LEGIONARY
KHORNE operative's melee weapons have +1 to both Dmg stats (7 at most), applied to each of its
strikes, fighting or retaliating (the dice core's valuations do not see it).

**Malignant Aura** (firefight ploy, 1CP): when a friendly LEGIONARY NURGLE operative performing
the Shoot action selects a valid target: until the end of that action, its ranged weapons have
Piercing 1 against every enemy operative within 3" of it (secondary targets included).

**Mutability And Change** (firefight ploy, 1CP): when a friendly LEGIONARY TZEENTCH operative is
activated: +1 APL until the end of that activation, and it cannot perform the same action more
than once in it. The engine's reading: the ploy is used as the operative is activated, when its
AP are generated from its APL, so it gains the AP of that change (1AP, none when its APL is
already at the +1 limit), although a later APL change would not change its AP (2.1). The
engine already allows each action once per activation (1.5); the ploy
marks the operative with the token ``mutability_and_change`` for the rules that lift that
limit (Astartes, to come), which must respect it. The WARRIOR's Infernal Pact lock is not
implemented (Infernal Pact is not).

**Sickening Captivation** (firefight ploy, 1CP): during a friendly LEGIONARY SLAANESH
operative's activation, before or after an action, select an enemy operative visible to and
within 4" of it: -1 APL until the end of that enemy's next activation. The engine's reading:
the core opens ploy windows at the start and at the end of an activation, not between two
actions, so it is offered there (before the first action, after the last).

**Unending Bloodshed** (firefight ploy, 1CP): when a friendly LEGIONARY KHORNE operative is
incapacitated while fighting or retaliating, it strikes the enemy operative of that sequence
with one of its unresolved successes before it is removed. The engine's reading: offered in
the window that opens at the incapacitation (the fight still in progress); the strike uses a
critical success when one is left (never worse than a normal one), with the weapon's damage
and the rules that change a strike's damage; a strike's other effects (Shock) do not apply.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.dice.rules import Piercing, WeaponRules, parse_weapon_rules
from engine.game import universal
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.choices import RuleChoiceFrame, RuleRollFrame, on_choice, on_roll
from engine.rules.ploys import GainToken, Ploy, StatChange
from engine.rules.registry import register
from engine.rules.team_weapon_rules import has_team_rule

SIPHON_LIFE = "Siphon Life"
KEYWORD = "LEGIONARY"
REACH = 6.0
ARMED = "siphon_life_armed"  # effect: op = the wielder, which used the rule and selects later
LINK = "siphon_life"  # effect: op = the wielder, source = the operative it heals
USED = "siphon_life_used:"  # effect kind prefix + the weapon's name: used this turning point


def _weapon(w: Work, op_id: str, name: str, kind: str) -> Any:
    return universal.find_weapon(w, w.op(op_id), name, kind)


def siphon_candidates(w: Work, wielder: str, fight: bool) -> list[str]:
    """Friendly LEGIONARY operatives visible to and within 6" of ``wielder`` that the rule
    can heal (module docstring, decision 2), in id order."""
    o = w.op(wielder)
    here = w.place(o)
    out = []
    for f in w.alive(o.player):
        if KEYWORD not in w.ctx.datacards[f.id].keywords:
            continue
        if f.id != wielder:
            there = w.place(f)
            if w.distance(here, there) > REACH + 1e-6 or not w.ctx.visible(w.kz, here, there):
                continue
        hurt = f.wounds < w.ctx.datacards[f.id].wounds
        if hurt or (fight and f.id == wielder):
            out.append(f.id)
    return sorted(out, key=lambda i: w.ctx.index[i])


def heal(w: Work, op_id: str, wounds: int, by: str, source: str = SIPHON_LIFE) -> None:
    """``op_id`` regains up to ``wounds`` lost wounds (never above its starting wounds)."""
    o = w.op(op_id)
    if not o.alive or wounds <= 0:
        return
    gained = min(wounds, w.ctx.datacards[op_id].wounds - o.wounds)
    if gained > 0:
        w.set_op(op_id, wounds=o.wounds + gained)
        w.emit("wounds_regained", op=op_id, wounds=gained, source=source, by=by)


def install_siphon_life(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Siphon Life* (module docstring) for the operatives of ``players``."""

    def selected(w: Work, op: str, name: str, kind: str) -> None:
        """The weapon ``name`` of ``op`` is selected: decision 1 (module docstring)."""
        if w.ctx.owner[op] not in players or not w.op(op).alive:
            return
        _, weapon, prof = _weapon(w, op, name, kind)
        if not has_team_rule(prof.rules, SIPHON_LIFE):
            return
        if any(e.kind == USED + weapon.name and e.op == op for e in w.effects):
            return
        if not siphon_candidates(w, op, kind == "melee"):
            return
        w.stack.append(
            RuleChoiceFrame(
                player=w.ctx.owner[op],
                rule=SIPHON_LIFE,
                key=ARMED,
                op=op,
                candidates=(),
                data=(("weapon", weapon.name),),
                targeted=False,
            )
        )

    def shoot_started(w: Work, ev: Event) -> None:
        selected(w, ev["op"], ev["weapon"], "ranged")

    def fight_started(w: Work, ev: Event) -> None:
        selected(w, ev["op"], ev["weapon"], "melee")

    def start(w: Work, ev: Event) -> None:
        op = ev["op"]
        armed = [e for e in w.effects if e.kind == ARMED and e.op == op]
        if not armed or not w.op(op).alive:
            return
        if ev["normals"] + ev["crits"] == 0 or not w.op(ev["target"]).alive:
            return  # nothing can inflict damage in this step: select at a later one, if any
        w.effects = [e for e in w.effects if e not in armed]
        cands = siphon_candidates(w, op, ev["weapon_kind"] == "melee")
        if len(cands) == 1:
            _link(w, op, cands[0])
        elif cands:
            w.stack.append(
                RuleChoiceFrame(
                    player=w.ctx.owner[op],
                    rule=SIPHON_LIFE,
                    key=LINK,
                    op=op,
                    candidates=tuple(cands),
                    optional=False,
                )
            )

    def resolved(w: Work, ev: Event) -> None:
        op = ev["op"]
        links = [e for e in w.effects if e.kind == LINK and e.op == op]
        if not links:
            return
        friend = links[0].source
        heal(w, friend, ev["normals"], op)
        if ev["crits"]:
            w.stack.append(
                RuleRollFrame(
                    player=w.ctx.owner[op],
                    rule=SIPHON_LIFE,
                    key=LINK,
                    op=op,
                    dice=ev["crits"],
                    label=f"Siphon Life D3 ({friend})",
                    data=(("friend", friend),),
                )
            )

    def ended(w: Work, ev: Event) -> None:
        ids = {ev["op"], ev.get("target", "")}
        w.effects = [e for e in w.effects if not (e.kind in (ARMED, LINK) and e.op in ids)]

    hooks.on("shoot_started", shoot_started)
    hooks.on("fight_started", fight_started)
    hooks.on("retaliation_weapon", fight_started)
    hooks.on("resolve_step_started", start)
    hooks.on("attack_dice_resolved", resolved)
    hooks.on("shoot_ended", ended)
    hooks.on("fight_ended", ended)


def _link(w: Work, op: str, friend: str) -> None:
    """Decision 2 made: ``op``'s damaging dice heal ``friend`` until the action ends."""
    w.effects.append(Effect(LINK, op, "end_tp", source=friend))
    w.emit("team_rule_selected", op=op, rule=SIPHON_LIFE, on=friend)


def _armed(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    if not chosen:
        return
    w.effects.append(Effect(USED + frame.get("weapon"), frame.op, "end_tp", source=frame.op))
    w.effects.append(Effect(ARMED, frame.op, "end_tp", source=frame.op))
    w.emit("team_rule_used", op=frame.op, rule=SIPHON_LIFE, on="")


def _chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    _link(w, frame.op, chosen)


def _rolled(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    heal(w, frame.get("friend"), sum((v + 1) // 2 for v in values), frame.op)


on_choice(ARMED, _armed)
on_choice(LINK, _chosen)
on_roll(LINK, _rolled)
register(
    "legionaries/weapon_rule/siphon_life",
    install_siphon_life,
    "Once per turning point per weapon: each damaging attack die heals a nearby friendly "
    "Legionary 1 wound (D3 for a crit).",
)


# -------------------------------------------------------------------------------------------
# Marks of Chaos and ploys
# -------------------------------------------------------------------------------------------

MARKS = ("KHORNE", "NURGLE", "SLAANESH", "TZEENTCH", "UNDIVIDED")


def mark_of(w: Work, op_id: str) -> str:
    """The Mark of Chaos of ``op_id`` (module docstring), or ``""``."""
    kw = w.ctx.datacards[op_id].keywords
    return next((m for m in MARKS if m in kw), "")


def legionary(w: Work, op_id: str) -> bool:
    """``op_id`` is a LEGIONARY operative."""
    return KEYWORD in w.ctx.datacards[op_id].keywords


def has_token(w: Work, op_id: str, name: str) -> bool:
    """A ``"token"`` effect named ``name`` applies to ``op_id`` (on it or its kill team)."""
    return any(e.detail == name for e in w.effects_on(op_id, "token"))


def _ploy_installer(ploy: Ploy, extra: Any = None) -> Any:
    def install(hooks: Hooks, players: tuple[str, ...]) -> None:
        hooks.ploy(ploy, players)
        if extra is not None:
            extra(hooks, players)

    return install


_SEVERE = parse_weapon_rules("Severe").rules
_CEASELESS = parse_weapon_rules("Ceaseless").rules
REAVERS_REACH = 6.0


CHAMPION = "ASPIRING CHAMPION"
EYES = "in_the_eyes_of_the_gods"  # token: used this activation


def _activated(w: Work) -> str:
    """The operative whose activation (not counteraction) is in progress, or ``""``."""
    for f in reversed(w.stack):
        if isinstance(f, universal.ActivationFrame):
            return f.op if f.mode == "activation" else ""
    return ""


def gain_apl(w: Work, player: str, op: str, until: str = "end_activation") -> None:
    """+1 APL for ``op`` until ``until`` (its activation in progress), with the AP it adds
    (the module docstring's reading)."""
    # The net change, counting a change begun during the action in progress (pending until
    # it is complete, 2.1), clamped to +/-1 (2.1).
    change = sum(e.value for e in w.effects if e.kind == "apl" and e.op == op)
    StatChange("apl", 1, until).apply(w, player, op, op)
    gained = max(-1, min(1, change + 1)) - max(-1, min(1, change))
    if gained > 0:
        w.set_op(op, ap=w.op(op).ap + gained)


def install_eyes_of_the_gods(hooks: Hooks, players: tuple[str, ...]) -> None:
    """In The Eyes Of The Gods (module docstring)."""

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
    """Soul Gorge (module docstring)."""

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
    """Horrifying Dismemberment (module docstring)."""

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
    """Vicious Reflexes (module docstring)."""

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
    """Icon Bearer (module docstring)."""

    def higher(w: Work, apl: int, **info: Any) -> int:
        op = info["op"]
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


def install_favoured(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Favoured Of The Dark Gods (module docstring)."""

    def ready(w: Work, ev: Event) -> None:
        for o in w.alive():
            if o.player not in players or ICON_BEARER not in w.ctx.datacards[o.id].keywords:
                continue
            tainted = {e.detail for e in w.effects if e.kind == TAINTED}
            for m in sorted(w.markers, key=lambda m: m.name):
                if m.name in tainted or not universal.contests(w, o, m.name):
                    continue
                if universal.controller(w, m.name) != o.player:
                    continue
                w.effects.append(
                    Effect(TAINTED, "", "end_battle", source=o.id, detail=m.name, player=o.player)
                )
                w.set_pl(o.player, cp=w.pl(o.player).cp + 1)
                w.emit("team_rule_used", op=o.id, rule="Favoured Of The Dark Gods", on=m.name)
                w.emit("cp_gained", player=o.player, cp=1, total=w.pl(o.player).cp)
                break

    hooks.on("ready_step", ready)


register(
    "legionaries/ability/favoured_of_the_dark_gods",
    install_favoured,
    "Ready step: the Icon Bearer taints an objective marker it controls, once per marker per "
    "battle, for 1CP.",
)


def _mark_rule(mark: str, kind: str, gained: tuple[Any, ...], reach: float = 0.0) -> Any:
    """The installer of a mark's weapon rule: the weapons of ``kind`` (``""`` both) of the
    friendly LEGIONARY operatives with ``mark`` gain ``gained``; with ``reach``, only against
    an enemy operative within that distance of the operative."""

    def install(hooks: Hooks, players: tuple[str, ...]) -> None:
        def gain(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
            op = info.get("op", "")
            if not op or w.ctx.owner[op] not in players or (kind and info.get("kind") != kind):
                return rules
            if mark_of(w, op) != mark or not legionary(w, op):
                return rules
            if reach:
                target = info.get("target", "")
                if not target or w.ctx.owner[target] == w.ctx.owner[op]:
                    return rules
                if w.distance(w.place(w.op(op)), w.place(w.op(target))) > reach + 1e-6:
                    return rules
            return rules.with_rules(*gained)

        hooks.transform("would_use_weapon_rules", gain)

    return install


register(
    "legionaries/faction_rule/khorne_wrathful_onslaught",
    _mark_rule("KHORNE", "melee", _SEVERE),
    "Khorne Legionaries' melee weapons have Severe.",
)
register(
    "legionaries/faction_rule/tzeentch_empyreal_guidance",
    _mark_rule("TZEENTCH", "ranged", _SEVERE),
    "Tzeentch Legionaries' ranged weapons have Severe.",
)
register(
    "legionaries/faction_rule/undivided_vicious_reavers",
    _mark_rule("UNDIVIDED", "", _CEASELESS, REAVERS_REACH),
    "Undivided Legionaries' weapons have Ceaseless against enemies within 6\".",
)


def install_unnatural_agility(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Slaanesh - Unnatural Agility (module docstring)."""

    def faster(w: Work, change: float, **info: Any) -> float:
        op = info["op"]
        if w.ctx.owner[op] in players and mark_of(w, op) == "SLAANESH" and legionary(w, op):
            return change + 1.0
        return change

    hooks.transform("would_change_move", faster)


register(
    "legionaries/faction_rule/slaanesh_unnatural_agility",
    install_unnatural_agility,
    "Slaanesh Legionaries' Move is 1\" more.",
)


FICKLE_FATES = "fickle_fates"
_BALANCED = parse_weapon_rules("Balanced").rules


def install_fickle_fates_rules(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Fickle Fates (module docstring): Balanced for a LEGIONARY shooting a ready enemy."""

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


IMPLACABLE = "implacable"
_PIERCING_CRITS_1 = parse_weapon_rules("Piercing Crits 1").rules


def install_implacable_rules(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Implacable (module docstring): Piercing 1 becomes Piercing Crits 1 against a friendly
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

    hooks.transform("would_use_weapon_rules", crits_only)
    hooks.transform("would_change_hit", uninjured_hit)
    hooks.transform("would_change_move", uninjured_move)


QUICKSILVER = "quicksilver_speed"
QUICKSILVER_RANGE = 6.0
MOVED = "legionary_moved"  # effect: op moved in an action this turning point (Quicksilver)


def _fight_attacker(w: Work) -> str:
    """The operative performing the Fight action in progress, or ``""``."""
    for f in reversed(w.stack):
        if hasattr(f, "attacker") and hasattr(f, "defender"):
            return str(f.attacker)
    return ""


def install_quicksilver_rules(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Quicksilver Speed (module docstring)."""

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


BLOOD = "blood_for_the_blood_god"
STRUCK = "blood_struck"  # effect: op struck already in the fight in progress
MAX_DAMAGE = 7


def install_blood_rules(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Blood For The Blood God (module docstring)."""

    def more(w: Work, dmg: int, **info: Any) -> int:
        op = info["op"]
        if w.ctx.owner[op] not in players or not legionary(w, op) or dmg <= 0:
            return dmg
        if not has_token(w, op, BLOOD):
            return dmg
        if mark_of(w, op) == "KHORNE":
            return max(dmg, min(MAX_DAMAGE, dmg + 1))
        if _fight_attacker(w) != op or any(e.kind == STRUCK and e.op == op for e in w.effects):
            return dmg
        w.effects.append(Effect(STRUCK, op, "end_tp", source=op))
        return max(dmg, min(MAX_DAMAGE, dmg + 1))

    def ended(w: Work, ev: Event) -> None:
        w.effects = [e for e in w.effects if e.kind != STRUCK]

    hooks.transform("would_strike_damage", more)
    hooks.on("fight_ended", ended)


def _marked(mark: str) -> Any:
    """The condition of a firefight ploy: the operative the trigger names is a friendly
    LEGIONARY operative with ``mark``."""

    def condition(w: Work, player: str, info: Any) -> bool:
        op = info.get("op", "")
        return bool(op) and w.ctx.owner[op] == player and _is(w, op, mark)

    return condition


def _is(w: Work, op: str, mark: str) -> bool:
    return legionary(w, op) and mark_of(w, op) == mark


MALIGNANT = "malignant_aura"  # effect: op = the shooter, until its Shoot action ends
AURA = 3.0
_PIERCING_1 = parse_weapon_rules("Piercing 1").rules


def _malignant_used(w: Work, player: str, action: Any, info: Any) -> None:
    op = info["op"]
    w.effects.append(Effect(MALIGNANT, op, "end_tp", source=op))


def install_malignant_rules(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Malignant Aura (module docstring): Piercing 1 within 3" until the action ends."""

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
    """+1 APL until the end of the activation, and the AP it generates (module docstring)."""
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


PLOYS: tuple[tuple[Ploy, Any, str], ...] = (
    (
        Ploy(
            "Blood For The Blood God",
            "strategy",
            effects=(GainToken(BLOOD, "end_tp"),),
            rule_id="legionaries/strategy_ploy/blood_for_the_blood_god",
        ),
        install_blood_rules,
        "Until the end of the turning point, a fighting Legionary's first strike inflicts 1 "
        "more damage; Khorne Legionaries' melee Dmg +1.",
    ),
    (
        Ploy(
            "Fickle Fates",
            "strategy",
            effects=(GainToken(FICKLE_FATES, "end_tp"),),
            rule_id="legionaries/strategy_ploy/fickle_fates",
        ),
        install_fickle_fates_rules,
        "Until the end of the turning point, friendly Legionaries shooting a ready enemy have "
        "Balanced.",
    ),
    (
        Ploy(
            "Implacable",
            "strategy",
            effects=(GainToken(IMPLACABLE, "end_tp"),),
            rule_id="legionaries/strategy_ploy/implacable",
        ),
        install_implacable_rules,
        "Until the end of the turning point, Piercing 1 against friendly Legionaries is "
        "Piercing Crits 1.",
    ),
    (
        Ploy(
            "Quicksilver Speed",
            "strategy",
            effects=(GainToken(QUICKSILVER, "end_tp"),),
            rule_id="legionaries/strategy_ploy/quicksilver_speed",
        ),
        install_quicksilver_rules,
        "Until the end of the turning point, enemies retaliating against a Legionary that "
        "moved this turning point have their melee Hit worsened by 1.",
    ),
    (
        Ploy(
            "Malignant Aura",
            "firefight",
            triggers=("target_selected",),
            condition=lambda w, p, info: (
                info.get("kind") == "ranged" and _marked("NURGLE")(w, p, info)
            ),
            use_hook=_malignant_used,
            rule_id="legionaries/firefight_ploy/malignant_aura",
        ),
        install_malignant_rules,
        "A Nurgle Legionary's shot has Piercing 1 against enemies within 3\" of it.",
    ),
    (
        Ploy(
            "Mutability And Change",
            "firefight",
            triggers=("activation_start",),
            target="self",
            condition=_marked("TZEENTCH"),
            effects=(GainToken("mutability_and_change", "end_activation"),),
            use_hook=_mutability_used,
            rule_id="legionaries/firefight_ploy/mutability_and_change",
        ),
        None,
        "A Tzeentch Legionary activated gets +1 APL for the activation, never repeating an action.",
    ),
    (
        Ploy(
            "Sickening Captivation",
            "firefight",
            triggers=("activation_start", "activation_end"),
            target="enemy",
            condition=_marked("SLAANESH"),
            eligible=_captivated,
            effects=(StatChange("apl", -1, "end_next_activation"),),
            rule_id="legionaries/firefight_ploy/sickening_captivation",
        ),
        None,
        'A Slaanesh Legionary in its activation gives a visible enemy within 4" -1 APL until '
        "the end of its next activation.",
    ),
    (
        Ploy(
            "Unending Bloodshed",
            "firefight",
            triggers=("incapacitated",),
            condition=_bloodshed_condition,
            use_hook=_bloodshed_used,
            rule_id="legionaries/firefight_ploy/unending_bloodshed",
        ),
        None,
        "A Khorne Legionary incapacitated in melee strikes once more with an unresolved success.",
    ),
)

for _ploy, _extra, _summary in PLOYS:
    register(_ploy.rule_id, _ploy_installer(_ploy, _extra), _summary)
