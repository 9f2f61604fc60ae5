"""Siphon Life*, the Balefire Acolyte's weapon rule (package docstring)."""

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
from teams.legionaries.common import (
    KEYWORD,
    heal,
)

SIPHON_LIFE = "Siphon Life"
REACH = 6.0
ARMED = "siphon_life_armed"  # effect: op = the wielder, which used the rule and selects later
LINK = "siphon_life"  # effect: op = the wielder, source = the operative it heals
USED = "siphon_life_used:"  # effect kind prefix + the weapon it was used with, this TP


def _weapon(w: Work, op_id: str, name: str, kind: str) -> Any:
    return universal.find_weapon(w, w.op(op_id), name, kind)


def siphon_candidates(w: Work, wielder: str, fight: bool) -> list[str]:
    """Friendly LEGIONARY operatives visible to and within 6" of ``wielder`` that the rule
    can heal (package docstring, decision 2), in id order."""
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


def install_siphon_life(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Siphon Life* (package docstring) for the operatives of ``players``."""

    def selected(w: Work, op: str, name: str, kind: str) -> None:
        """The weapon ``name`` of ``op`` is selected: decision 1 (package docstring)."""
        if w.ctx.owner[op] not in players or not w.op(op).alive:
            return
        _, weapon, prof = _weapon(w, op, name, kind)
        if not has_team_rule(prof.rules, SIPHON_LIFE):
            return
        if any(e.kind.startswith(USED) and e.op == op for e in w.effects):  # any weapon
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
