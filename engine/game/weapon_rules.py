"""Weapon rules with effects on the board, as hooks on ``crits_retained`` (``rules/KT24.md``
6): Devastating x (each retained crit inflicts x immediately; ``d" Devastating x`` also on
every other operative visible to and within d of the target) and Stun (APL -1 until the end of
the target's next activation, subject to the +/-1 clamp of 2.1).

Range, Heavy, Silent, Limited, Seek and Seek Light act on target selection and legality
(:mod:`engine.game.universal`, :mod:`engine.game.attacks`); Blast and Torrent shape the
sequence; Hot is a chance node at the end of the action; the dice rules live in
:mod:`engine.dice`.
"""

from __future__ import annotations

from engine.dice.profile import AttackProfile
from engine.game import universal
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work

__all__ = [
    "applied_upgrade",
    "devastating",
    "install",
    "stun",
]


def _profile(w: Work, ev: Event) -> AttackProfile:
    from engine.game.attacks import attack_profile

    return attack_profile(w, w.op(ev["op"]), ev["weapon"], ev["weapon_kind"])


def devastating(w: Work, attacker: str, target: str, prof: AttackProfile, crits: int) -> None:
    """Devastating x (6): ``crits`` x x damage to ``target`` now, and for ``d" Devastating``
    to every other operative visible to and within d of it."""
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
    for v in victims:
        universal.inflict(w, v, dmg, "Devastating", by=attacker)


def stun(w: Work, target: str, source: str) -> None:
    """Stun (6): APL -1 until the end of the target's next activation (clamp: 2.1)."""
    if not w.op(target).alive:
        return
    w.effects.append(Effect("apl", target, "end_next_activation", source=source, value=-1))
    w.emit("stunned", op=target, by=source)


def applied_upgrade(
    rule: str,
    values: tuple[int, ...],
    accurate: int,
    profile: AttackProfile,
    punished: bool,
) -> tuple[int, str, str]:
    """The die a retention rule the attacker chose to apply changes (6), as ``(die, from,
    to)``: Punishing retains the highest fail as a normal success; Rending and Severe change
    the highest normal success (``punished``: including Punishing's, when it was applied
    before) to a crit. ``die`` is the rolled value, ``0`` for a success retained unrolled
    (Accurate)."""
    d = profile.rules.dice
    crit_at = max(profile.hit, d.lethal) if d.lethal is not None else 6
    crits = [v for v in values if v == 6 or (v != 1 and v >= crit_at)]
    normals = [v for v in values if v not in crits and v != 1 and v >= profile.hit]
    normals += [0] * accurate
    fails = [v for v in values if v not in crits and v not in normals]
    if rule == "Punishing":
        return (max(fails) if fails else 0), "fail", "normal"
    if punished and fails:
        normals.append(max(fails))
    return (max(normals) if normals else 0), "normal", "crit"


def _on_crits(w: Work, ev: Event) -> None:
    prof = _profile(w, ev)
    devastating(w, ev["op"], ev["target"], prof, ev["crits"])
    if prof.rules.dice.stun:
        stun(w, ev["target"], ev["op"])


def install(hooks: Hooks) -> None:
    """Subscribe the board-effect weapon rules."""
    hooks.on("crits_retained", _on_crits)
