"""What the Shoot and Fight sequences share (``rules/KT24.md`` 4.5, 4.7, 5.1, 5.2, weapon
rules 6, Command Re-roll 7.1, EDGE_CASES 2, 3, 7-11): attack profiles, retaining dice,
weapon re-roll windows. The sequences themselves are frames in
:mod:`engine.game.shoot` (the Shoot action, 5.1) and :mod:`engine.game.fight` (the Fight
action, 5.2); this docstring lists the players' choices in both.

Decisions inside a sequence are the players': Torrent secondaries, weapon re-rolls
(Balanced: one die; Ceaseless: every die showing one value; Relentless: any dice), Command
Re-roll (1CP, one die never re-rolled before) after attack and defence rolls, the
retaliating weapon, every strike or block in a fight, and these choices the rules give:

============================  ===========  ===================================================
Choice (rule)                 Who          Decision kind, actions
============================  ===========  ===================================================
cover or obscured from one    defender     ``same_feature``: ``Same feature obscured``,
feature (4.5 "Same feature")               ``... cover``, ``... both`` (two or more such
                                           features); when the target is selected
Accurate x (6; Vantage 4.7)   attacker     ``accurate``: ``Accurate 0`` .. ``Accurate x``
                              (each side   (dice retained unrolled); in a fight the attacker,
                              in a fight)  then the defender, before either rolls (5.2 step 3)
Punishing, Rending, Severe    attacker     ``retention_rule``: ``Apply Punishing`` (or
(6)                           (each side   Rending, Severe) or ``Decline``; one rule at a
                              in a fight)  time, Punishing before Rending
cover save (4.5, 5.1 step 4)  defender     ``cover_save``: ``Cover save normal`` or ``none``;
and improved cover (4.7)                   improved: ``critical``, ``two normals``, ``none``
allocation of saves (5.1      defender     ``allocate_saves``: ``Allocate saves crit>crit
step 5), shooting                          normal>normal`` (:mod:`engine.game.allocation`)
============================  ===========  ===================================================

A choice is offered only when its options differ in effect; otherwise the engine applies
the only meaningful option without asking. "Differ in effect" means the options lead to
different dice or damage, not that one of them is better: a player may choose an option
that is worse for it (a random player does), and one that looks worse can be better (to
spare one's own operative under a Blast; to roll for a crit save). So:

- Same feature: offered when the options give different (cover, obscured) pairs, cover
  counting only where a cover save could be retained (no Saturate, some defence dice). A
  Blast secondary inherits the primary's choice (6); each Torrent target is chosen for.
- Accurate: offered whenever x >= 1, x capped at the weapon's attacks (a rolled die may fail
  or be a crit, a retained one is a sure normal, so every number differs). ``Accurate x``
  retains x, the old fixed policy. The same holds in a fight, for each side: a rolled 1
  always fails and a 6 is always a crit, so keeping fewer dice always changes the
  distribution of the retained successes (a fail strikes and blocks nothing, a crit can
  block a crit), and no case with x >= 1 can be skipped. A defender that does not
  retaliate retains nothing and is not asked. The defender chooses knowing the attacker's
  number; neither knows a die (the rolls are simultaneous).
- Punishing, Rending, Severe: offered whenever the rule would change the retained dice
  (Punishing: a crit and a fail; Rending: a crit and a normal; Severe: no crit and a
  normal), never against an obscured target (4.5). Offering Punishing before Rending reaches
  every outcome the rules allow in either order.
- Cover save: the options' exact damage distributions (counted up to the target's wounds,
  :func:`engine.game.choices.cover_save_options`) are compared, so there is no choice when
  no attack success is retained or the outcome is the same either way. Retaining is not
  always better, with or without Vantage: a normal cover save can never block a lone crit,
  nor anything against Brutal, where a rolled 6 could; with improved cover one critical
  save beats two normals against crits, two normals beat one critical against normals. A
  plain single cover save is not offered with improved cover: 4.7 replaces it by its two
  improved forms (the critical one is never worse).
- Allocation of saves: each allocation the rules allow (every save that can block blocks)
  is resolved on a scratch copy by the sequence's own code, team rules included; the
  defender is asked when two lead to different states, else the least-damage allocation
  (:func:`engine.dice.shoot.unblocked`) applies, as it always did.

Policies the engine still applies itself, documented: an obscured attack discards a normal
success (all are normal by then, so which one does not matter); when no allocation of saves
differs in effect, the least-damage one (:func:`engine.dice.shoot.unblocked`). Blast
secondaries are shot in id order. The shooter is never its own Blast secondary.
"""

from __future__ import annotations

from typing import Any

from engine.dice.profile import AttackProfile
from engine.dice.rules import Heavy
from engine.game.actions import Action, IllegalActionError
from engine.game.attack_frames import take_dice
from engine.game.choices import (
    apply_retention_rule,
    retention_rule_applies,
    retention_rules,
    roll_retained,
)
from engine.game.state import OperativeState
from engine.game.weapons import find_weapon, weapon_limit, weapon_rules
from engine.game.work import Work

__all__ = [
    "attack_profile",
    "emit_upgrade",
    "reroll_options",
    "retain",
    "retention_upgrade",
]


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


# -------------------------------------------------------------------------------------------
# Shared dice helpers
# -------------------------------------------------------------------------------------------


def attack_profile(
    w: Work,
    o: OperativeState,
    name: str,
    kind: str,
    *,
    hit_change: int = 0,
    injured: bool | None = None,
    target: str = "",
) -> AttackProfile:
    """The profile ``o`` attacks with: Hit worsened by 1 when injured (2.3), by
    ``hit_change`` more (point-blank +1, assists -1 each), never better than 2+ (decision
    6); weapon rules after the ``would_use_weapon_rules`` hooks (e.g. Condensed
    Environment); Hit worsened (positive) or improved by the ``would_change_hit`` hooks
    (``fn(w, change, op=, weapon=, kind=, target=, injured=) -> change``; asked only when
    ``target`` is known: a rule that depends on the opponent); Atk and Dmg stats through the
    ``would_change_attacks`` and ``would_change_damage`` hooks; last the ``would_final_hit``
    hooks, which see every change apart (a rule that ignores changes to the Hit stat).

    ``injured``: whether ``o`` counts as injured; ``None`` reads its wounds now. The Shoot
    and Fight frames pass the value from the start of the action: a stat change during an
    action applies once the action is complete (2.1, decision 7).

    The answer is kept on the state ``w`` was made from while ``w`` still equals it
    (:meth:`~engine.game.work.Work.state_memo`: the hooks may read any of it), at most
    :data:`PROFILE_ENTRIES` answers a state."""
    memo = w.state_memo()
    if memo is None:
        return _attack_profile(w, o, name, kind, hit_change, injured, target)
    kept = memo.get("attack profiles")
    if kept is None:
        kept = memo["attack profiles"] = {}
    key = (o.id, name, kind, hit_change, injured, target)
    got = kept.get(key)
    if got is not None and (got[0] is o or got[0] == o):
        return got[1]  # type: ignore[no-any-return]
    value = _attack_profile(w, o, name, kind, hit_change, injured, target)
    if len(kept) >= PROFILE_ENTRIES:
        kept.clear()
    kept[key] = (o, value)
    return value


PROFILE_ENTRIES = 512
"""Attack profiles (:func:`attack_profile`) a state keeps; its memo is emptied when full."""


def _attack_profile(
    w: Work,
    o: OperativeState,
    name: str,
    kind: str,
    hit_change: int,
    injured: bool | None,
    target: str,
) -> AttackProfile:
    """:func:`attack_profile` computed."""
    _, _weapon, prof = find_weapon(w, o, name, kind)
    if injured is None:
        injured = w.injury_penalties(o)
    stats = tuple(e.value for e in w.effects_on(o.id, "hit") if e.value)
    hit = prof.hit + (1 if injured else 0) + hit_change + sum(stats)
    hooked: list[int] = []
    if target and "would_change_hit" in w.ctx.hooks.would:
        change = 0
        for fn in w.ctx.hooks.would["would_change_hit"]:
            new = int(
                fn(w, change, op=o.id, weapon=name, kind=kind, target=target, injured=injured)
            )
            if new != change:
                hooked.append(new - change)
            change = new
        hit += change
    if "would_final_hit" in w.ctx.hooks.would:
        # A rule that judges the Hit stat after every change (fn(w, hit, op=, weapon=,
        # kind=, target=, printed=, changes=) -> hit; ``changes``: each change, positive
        # worse, in no particular order).
        changes = tuple(c for c in (1 if injured else 0, hit_change, *stats, *hooked) if c)
        hit = int(
            w.would(
                "would_final_hit",
                hit,
                op=o.id,
                weapon=name,
                kind=kind,
                target=target,
                printed=prof.hit,
                changes=changes,
            )
        )
    hit = max(2, min(6, hit))
    rules = weapon_rules(w, o.id, name, prof, kind, target)
    attacks = prof.attacks
    if "would_change_attacks" in w.ctx.hooks.would:
        # A rule that changes the Atk stat (fn(w, atk, op=, weapon=, kind=, target=) -> atk;
        # ``target`` the operative attacked, ``""`` when not known).
        attacks = int(
            w.would("would_change_attacks", attacks, op=o.id, weapon=name, kind=kind, target=target)
        )
    normal, critical = prof.normal_damage, prof.critical_damage
    if "would_change_damage" in w.ctx.hooks.would:
        # A rule that changes the Dmg stats (fn(w, (normal, critical), op=, weapon=, kind=)
        # -> (normal, critical)); never below 0.
        normal, critical = w.would(
            "would_change_damage", (normal, critical), op=o.id, weapon=name, kind=kind
        )
        normal, critical = max(0, int(normal)), max(0, int(critical))
    return AttackProfile(attacks, hit, normal, critical, rules)


def retain(
    values: tuple[int, ...], accurate: int, profile: AttackProfile, obscured: bool
) -> tuple[int, int]:
    """Retained (normals, crits) from rolled attack dice (5.1 step 3, 6, EDGE_CASES 3) with
    every retention rule (Punishing, Rending, Severe) applied where it can be: the dice
    core's default, used to value positions; in the game those rules are the attacker's
    choices (:func:`engine.game.choices.retention_rules`)."""
    normals, crits, fails = roll_retained(values, accurate, profile, obscured)
    for rule in retention_rules(profile, obscured, crits):
        if retention_rule_applies(rule, normals, crits, fails):
            normals, crits, fails = apply_retention_rule(rule, normals, crits, fails)
    return normals, crits


def _reroll_windows(profile: AttackProfile) -> tuple[str, ...]:
    d = profile.rules.dice
    if d.relentless:
        return ("relentless",)
    out = []
    if d.ceaseless:
        out.append("ceaseless")
    if d.balanced:
        out.append("balanced")
    return tuple(out)


def reroll_options(kind: str, values: tuple[int, ...], flags: tuple[bool, ...]) -> list[Action]:
    """Re-roll choices for a weapon re-roll window (faces of dice not yet re-rolled)."""
    free = sorted((v for v, f in zip(values, flags, strict=True) if not f), reverse=True)
    out = [Action("Keep")]
    if not free:
        return out
    if kind == "balanced":
        out += [Action("Re-roll", values=(v,)) for v in sorted(set(free), reverse=True)]
    elif kind == "ceaseless":
        for v in sorted(set(free), reverse=True):
            out.append(Action("Re-roll", values=(v,) * free.count(v)))
    else:  # relentless: any sub-multiset
        from itertools import product

        counts = {v: free.count(v) for v in sorted(set(free), reverse=True)}
        for pick in product(*(range(c + 1) for c in counts.values())):
            chosen: list[int] = []
            for v, k in zip(counts, pick, strict=True):
                chosen += [v] * k
            if chosen:
                out.append(Action("Re-roll", values=tuple(chosen)))
    return out


def _check_reroll(
    kind: str, chosen: tuple[int, ...], values: tuple[int, ...], flags: tuple[bool, ...]
) -> None:
    if kind == "balanced" and len(chosen) != 1:
        raise _illegal("Balanced re-rolls one attack die (6)")
    if kind == "ceaseless":
        free = [v for v, f in zip(values, flags, strict=True) if not f]
        if len(set(chosen)) != 1 or len(chosen) != free.count(chosen[0]):
            raise _illegal("Ceaseless re-rolls every die showing one chosen value (6)")
    take_dice(values, flags, chosen, "2.4")


def _other_side(side: str) -> str:
    return "d" if side == "a" else "a"


# -------------------------------------------------------------------------------------------
# Damage-dealing weapon rules
# -------------------------------------------------------------------------------------------


def _after_weapon_use(
    w: Work, o: OperativeState, name: str, prof: Any, kind: str = "ranged"
) -> None:
    lim = weapon_limit(w, o, name, prof)
    if lim is not None:  # one use of the weapon, whichever profile (2.2, 6 Limited)
        uses = dict(w.op(o.id).limited)
        uses[lim[0]] = uses.get(lim[0], 0) + 1
        w.set_op(o.id, limited=tuple(sorted(uses.items())))
    heavy = weapon_rules(w, o.id, name, prof, kind).get(Heavy)  # (as rules give it, 6)
    if heavy is not None:
        only = getattr(heavy, "only", None)
        w.set_op(o.id, heavy_shot=True, heavy_only=only.title() if only else "")


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
