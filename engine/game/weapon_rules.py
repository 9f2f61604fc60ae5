"""Weapon rules with effects on the board, as hooks on ``crits_retained`` (``rules/KT24.md``
6): Devastating x (each retained crit inflicts x immediately; ``d" Devastating x`` also on
every other operative visible to and within d of the target) and Stun (APL -1 until the end of
the target's next activation, subject to the +/-1 clamp of 2.1).

Range, Heavy, Silent, Limited, Seek and Seek Light act on target selection and legality
(:mod:`engine.game.universal`, :mod:`engine.game.shoot`); Blast and Torrent shape the
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

__all__ = ["devastating", "emit_upgrade", "install", "retention_upgrade", "stun"]


def _profile(w: Work, ev: Event) -> AttackProfile:
    from engine.game.attacks import attack_profile

    return attack_profile(w, w.op(ev["op"]), ev["weapon"], ev["weapon_kind"])


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
            universal.inflict(w, v, sum(per), "Devastating", by=attacker)
        else:
            universal.inflict(w, v, dmg, "Devastating", by=attacker)


def stun(w: Work, target: str, source: str) -> None:
    """Stun (6): APL -1 until the end of the target's next activation (clamp: 2.1)."""
    if not w.op(target).alive:
        return
    w.effects.append(Effect("apl", target, "end_next_activation", source=source, value=-1))
    w.emit("stunned", op=target, by=source)


def retention_upgrade(
    rule: str, values: tuple[int, ...], accurate: int, profile: AttackProfile, normals: int
) -> tuple[int, str, str]:
    """Which die a retention rule the attacker applies now changes (6), as ``(die, from,
    to)``: Punishing retains the highest fail as a normal success (``(2, "fail",
    "normal")``); Rending and Severe change the highest normal success to a crit (``(4,
    "normal", "crit")``). ``die`` is the rolled value, ``0`` for a success retained unrolled
    (Accurate).

    Args:
        rule: ``"Punishing"``, ``"Rending"`` or ``"Severe"``.
        values: the rolled attack dice (after re-rolls).
        accurate: normal successes retained without rolling.
        profile: the weapon profile used (its Hit as in the attack).
        normals: the normal successes retained before this rule (more than the rolled and
            unrolled ones when Punishing has already retained a fail).
    """
    d = profile.rules.dice
    crit_at = max(profile.hit, d.lethal) if d.lethal is not None else 6
    crits = [v for v in values if v == 6 or (v != 1 and v >= crit_at)]
    rolled = [v for v in values if v not in crits and v != 1 and v >= profile.hit]
    fails = [v for v in values if v not in crits and v not in rolled]
    if rule == "Punishing":
        return (max(fails) if fails else 0), "fail", "normal"
    candidates = rolled + [0] * accurate
    if normals > len(candidates) and fails:  # Punishing's retained fail is a normal now
        candidates.append(max(fails))
    return (max(candidates) if candidates else 0), "normal", "crit"


def emit_upgrade(
    w: Work,
    op: str,
    target: str,
    rule: str,
    values: tuple[int, ...],
    accurate: int,
    profile: AttackProfile,
    normals: int,
) -> None:
    """Emit a ``die_upgraded`` event (``op``, ``target``, ``rule``, ``die``, ``before``,
    ``after``) for a retention rule the attacker applies (:func:`retention_upgrade`)."""
    die, before, after = retention_upgrade(rule, values, accurate, profile, normals)
    w.emit("die_upgraded", op=op, target=target, rule=rule, die=die, before=before, after=after)


def _on_crits(w: Work, ev: Event) -> None:
    prof = _profile(w, ev)
    devastating(w, ev["op"], ev["target"], prof, ev["crits"])
    if prof.rules.dice.stun:
        stun(w, ev["target"], ev["op"])


def install(hooks: Hooks) -> None:
    """Subscribe the board-effect weapon rules."""
    hooks.on("crits_retained", _on_crits)
