"""The Legionaries' team rules that the engine plays, registered by rule id
(``engine.rules.registry``).

**Siphon Life*** (Balefire Acolyte's Life Syphon and Fell Dagger): the attacker's player can
use it at the start of the Resolve Attack Dice step, on one friendly LEGIONARY operative
visible to and within 6" of the wielder (the wielder itself included: it is visible to
itself at distance 0); each attack die of the wielder that inflicts damage in that step then
heals that operative 1 lost wound, or D3 for a critical success. Once per turning point per
weapon (all its profiles together, 2.2).

The engine's reading, documented: the choice to use the rule and the choice of operative are
one decision (``Use siphon life on LEG-3`` or ``Decline``), taken at the start of the Resolve
Attack Dice step; it is offered only when it can make a difference: the limit is not spent,
the wielder retained a success, and a candidate has lost wounds (in a fight the wielder can
also lose wounds during the step, so it is a candidate there even unhurt). A D3 is a D6
halved, rounded up.
"""

from __future__ import annotations

from typing import Any

from engine.game import universal
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.choices import RuleChoiceFrame, RuleRollFrame, on_choice, on_roll
from engine.rules.registry import register
from engine.rules.team_weapon_rules import has_team_rule

SIPHON_LIFE = "Siphon Life"
KEYWORD = "LEGIONARY"
REACH = 6.0
LINK = "siphon_life"  # effect: op = the wielder, source = the operative it heals
USED = "siphon_life_used:"  # effect kind prefix + the weapon's name: used this turning point


def _weapon(w: Work, op_id: str, name: str, kind: str) -> Any:
    return universal.find_weapon(w, w.op(op_id), name, kind)


def siphon_candidates(w: Work, wielder: str, fight: bool) -> list[str]:
    """Friendly LEGIONARY operatives visible to and within 6" of ``wielder`` that the rule
    can heal (module docstring), in id order."""
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


def heal(w: Work, op_id: str, wounds: int, by: str) -> None:
    """``op_id`` regains up to ``wounds`` lost wounds (never above its starting wounds)."""
    o = w.op(op_id)
    if not o.alive or wounds <= 0:
        return
    gained = min(wounds, w.ctx.datacards[op_id].wounds - o.wounds)
    if gained > 0:
        w.set_op(op_id, wounds=o.wounds + gained)
        w.emit("wounds_regained", op=op_id, wounds=gained, source=SIPHON_LIFE, by=by)


def install_siphon_life(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Siphon Life* (module docstring) for the operatives of ``players``."""

    def start(w: Work, ev: Event) -> None:
        op = ev["op"]
        if w.ctx.owner[op] not in players or not w.op(op).alive:
            return
        _, weapon, prof = _weapon(w, op, ev["weapon"], ev["weapon_kind"])
        if not has_team_rule(prof.rules, SIPHON_LIFE):
            return
        if ev["normals"] + ev["crits"] == 0 or not w.op(ev["target"]).alive:
            return
        used = USED + weapon.name
        if any(e.kind == used and e.op == op for e in w.effects):
            return
        fight = ev["weapon_kind"] == "melee"
        cands = siphon_candidates(w, op, fight)
        if cands:
            w.stack.append(
                RuleChoiceFrame(
                    player=w.ctx.owner[op],
                    rule=SIPHON_LIFE,
                    key=LINK,
                    op=op,
                    candidates=tuple(cands),
                    data=(("weapon", weapon.name),),
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
        w.effects = [e for e in w.effects if not (e.kind == LINK and e.op in ids)]

    hooks.on("resolve_step_started", start)
    hooks.on("attack_dice_resolved", resolved)
    hooks.on("shoot_ended", ended)
    hooks.on("fight_ended", ended)


def _chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    if not chosen:
        return
    w.effects.append(Effect(USED + frame.get("weapon"), frame.op, "end_tp", source=frame.op))
    w.effects.append(Effect(LINK, frame.op, "end_tp", source=chosen))
    w.emit("team_rule_used", op=frame.op, rule=SIPHON_LIFE, on=chosen)


def _rolled(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    heal(w, frame.get("friend"), sum((v + 1) // 2 for v in values), frame.op)


on_choice(LINK, _chosen)
on_roll(LINK, _rolled)
register(
    "legionaries/weapon_rule/siphon_life",
    install_siphon_life,
    "Once per turning point per weapon: each damaging attack die heals a nearby friendly "
    "Legionary 1 wound (D3 for a crit).",
)
