"""The Hierotek Circle's team rules that the engine plays, registered by rule id
(``engine.rules.registry``).

**Magnify*** (the crypteks' and the Apprentek's weapons): when the operative shoots with the
weapon at a target visible to it, its player can treat another friendly HIEROTEK CIRCLE
APPRENTEK or CRYPTEK operative that has an Engage order and is visible to the shooter as the
shooter for the target's validity, the Shoot action's conditions (Range measured from it; no
friendly of it within the target's control range), cover and obscured. Used, the weapon has
Ceaseless until the end of that action.

The engine's reading, documented: a target is listed when it is valid from the shooter or
through some such operative; after the Shoot action is declared the player chooses the
operative (``Use magnify on HIE-2``), or ``Decline`` when the target is valid from the
shooter itself; when the target is valid only through one operative, it is used without a
decision. Cover, improved cover (a Conceal target 2" or more below that operative on
Vantage, 4.7) and obscured are judged from that operative (the Shoot action's
``sight_from``); Vantage accuracy (Accurate 1 or 2 for a shooter on Vantage, 4.7) stays the
shooter's, the rule naming only validity, the action's conditions, cover and obscured.
"""

from __future__ import annotations

from typing import Any

from engine.dice.rules import WeaponRules, parse_weapon_rules
from engine.game import shoot_targets, universal
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.choices import RuleChoiceFrame, on_choice
from engine.rules.registry import register
from engine.rules.team_weapon_rules import has_team_rule

MAGNIFY = "Magnify"
FACTION = "HIEROTEK CIRCLE"
CONDUITS = ("APPRENTEK", "CRYPTEK")
EFFECT = "magnify"  # op = the shooter, source = the operative treated as the shooter
_CEASELESS = parse_weapon_rules("Ceaseless").rules


def magnifiers(w: Work, o: OperativeState, t: OperativeState, name: str, prof: Any) -> list[str]:
    """The operatives through which ``o`` may shoot ``t`` with this Magnify* weapon
    (module docstring), in id order; empty when ``t`` is not visible to ``o``."""
    here = w.place(o)
    if not w.ctx.visible(w.kz, here, w.place(t)):
        return []
    out = []
    for m in w.friends_of(o.id):
        kw = w.ctx.datacards[m.id].keywords
        conduit = FACTION in kw and any(k in kw for k in CONDUITS)
        if not conduit and "would_magnify_through" in w.ctx.hooks.would:
            # Another rule lets this operative be used (fn(w, False, op=, through=) -> bool).
            conduit = bool(w.would("would_magnify_through", False, op=o.id, through=m.id))
        if not conduit or m.order != "engage":
            continue
        if not w.ctx.visible(w.kz, here, w.place(m)):
            continue
        if shoot_targets.own_target_reason(w, m, t, name, prof, False) is None:
            out.append(m.id)
    return sorted(out, key=lambda i: w.ctx.index[i])


def install_magnify(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Magnify* (module docstring) for the operatives of ``players``."""

    def applies(w: Work, o: OperativeState, rules: WeaponRules) -> bool:
        return w.ctx.owner[o.id] in players and has_team_rule(rules, MAGNIFY)

    def allow(w: Work, why: str | None, **info: Any) -> str | None:
        o, t, prof = info["op"], info["target"], info["profile"]
        if why is None or not applies(w, o, prof.rules):
            return why
        return None if magnifiers(w, o, t, info["weapon"], prof) else why

    def started(w: Work, ev: Event) -> None:
        o, t = w.op(ev["op"]), w.op(ev["target"])
        name, _, prof = universal.find_weapon(w, o, ev["weapon"], "ranged")
        if not applies(w, o, prof.rules) or getattr(w.top, "point_blank", False):
            return
        mags = magnifiers(w, o, t, name, prof)
        if not mags:
            return
        direct = shoot_targets.own_target_reason(w, o, t, name, prof, False) is None
        if not direct and len(mags) == 1:  # no choice: the shot is only legal through it
            _use(w, o.id, t.id, mags[0])
            return
        w.stack.append(
            RuleChoiceFrame(
                player=w.ctx.owner[o.id],
                rule=MAGNIFY,
                key=EFFECT,
                op=o.id,
                candidates=tuple(mags),
                data=(("target", t.id),),
                optional=direct,
            )
        )

    def ceaseless(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
        op = info["op"]
        if any(e.kind == EFFECT and e.op == op for e in w.effects) and has_team_rule(
            rules, MAGNIFY
        ):
            return rules.with_rules(*_CEASELESS)
        return rules

    def ended(w: Work, ev: Event) -> None:
        w.effects = [e for e in w.effects if not (e.kind == EFFECT and e.op == ev["op"])]

    hooks.transform("would_allow_target", allow)
    hooks.on("shoot_started", started)
    hooks.transform("would_use_weapon_rules", ceaseless)
    hooks.on("shoot_ended", ended)


def _use(w: Work, shooter: str, target: str, through: str) -> None:
    """Magnify used: cover and obscured of the Shoot action in progress (the top frame) from
    ``through``; Ceaseless until the action ends."""
    tg = w.ctx.targeting(w.kz, w.place(w.op(through)), w.place(w.op(target)))
    w.replace_top(primary_cover=tg.in_cover, primary_obscured=tg.obscured, sight_from=through)
    w.effects.append(Effect(EFFECT, shooter, "end_tp", source=through))
    w.emit("team_rule_used", op=shooter, rule=MAGNIFY, on=through)


def _chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    if chosen:
        _use(w, frame.op, frame.get("target"), chosen)


on_choice(EFFECT, _chosen)
register(
    "hierotek_circle/weapon_rule/magnify",
    install_magnify,
    "Shoot through a friendly Engage-order cryptek or apprentek (its view decides validity, "
    "cover, obscured); the weapon then has Ceaseless.",
)
