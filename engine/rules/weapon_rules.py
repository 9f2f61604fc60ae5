"""Weapon rules with effects on the board, as hooks on ``crits_retained`` (``rules/KT24.md``
6): Devastating x (each retained crit inflicts x immediately; ``d" Devastating x`` also on
every other operative visible to and within d of the target) and Stun (APL -1 until the end of
the target's next activation, subject to the +/-1 clamp of 2.1).

Range, Heavy, Silent, Limited, Seek and Seek Light act on target selection and legality
(:mod:`engine.game.weapons`, :mod:`engine.game.shoot`); Blast and Torrent shape the
sequence; Hot is a chance node at the end of the action; the dice rules live in
:mod:`engine.dice`; which die Punishing, Rending and Severe change is
:func:`engine.game.attacks.retention_upgrade`.
"""

from __future__ import annotations

from engine.dice.profile import AttackProfile
from engine.game.attacks import attack_profile
from engine.game.context import Hooks
from engine.game.damage import inflict
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work

__all__ = ["devastating", "install", "stun"]


def _profile(w: Work, ev: Event) -> AttackProfile:
    # The profile against the target the crits were retained on: a rule giving or taking a
    # weapon rule may depend on it (6).
    return attack_profile(
        w, w.op(ev["op"]), ev["weapon"], ev["weapon_kind"], target=str(ev.get("target", ""))
    )


def devastating(w: Work, attacker: str, target: str, prof: AttackProfile, crits: int) -> None:
    """Devastating x (6): ``crits`` x x damage to ``target`` now, and for ``d" Devastating``
    to every other operative visible to and within d of it. Each crit's x passes through the
    ``would_devastating_damage`` hooks (``fn(w, dmg, op=, target=, crit=True) -> dmg``): a
    rule that changes the damage an attack die inflicts."""
    d = prof.rules.dice
    if not d.devastating or not crits:
        return
    dmg = d.devastating * crits
    tp = w.place(w.op(target))
    victims = [target]
    if d.devastating_distance is not None:
        for q in w.alive():
            if q.id == target:
                continue
            qp = w.place(q)
            if w.distance(tp, qp) <= d.devastating_distance + 1e-6 and w.ctx.visible(w.kz, tp, qp):
                victims.append(q.id)
    hooked = "would_devastating_damage" in w.ctx.hooks.would
    for v in victims:
        if hooked:
            # A rule changing the damage one attack die inflicts (e.g. a damage reduction):
            # fn(w, dmg, op=attacker, target=, crit=True) -> dmg, per retained crit.
            per = [
                max(
                    0,
                    int(
                        w.would(
                            "would_devastating_damage",
                            d.devastating,
                            op=attacker,
                            target=v,
                            crit=True,
                        )
                    ),
                )
                for _ in range(crits)
            ]
            inflict(w, v, sum(per), "Devastating", by=attacker)
        else:
            inflict(w, v, dmg, "Devastating", by=attacker)


def stun(w: Work, target: str, source: str) -> None:
    """Stun (6): APL -1 until the end of the target's next activation (clamp: 2.1)."""
    if not w.op(target).alive:
        return
    w.effects.append(Effect("apl", target, "end_next_activation", source=source, value=-1))
    w.emit("stunned", op=target, by=source)


def _on_crits(w: Work, ev: Event) -> None:
    prof = _profile(w, ev)
    devastating(w, ev["op"], ev["target"], prof, ev["crits"])
    if prof.rules.dice.stun:
        stun(w, ev["target"], ev["op"])


def install(hooks: Hooks) -> None:
    """Subscribe the board-effect weapon rules."""
    hooks.on("crits_retained", _on_crits)
