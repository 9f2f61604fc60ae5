"""The Shoot and Fight sequences as frames (``rules/KT24.md`` 4.5, 4.7, 5.1, 5.2, weapon
rules 6, Command Re-roll 7.1, EDGE_CASES 2, 3, 7-11).

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

Policies the engine still applies itself, documented: an obscured attack discards a normal
success (all are normal by then, so which one does not matter); the defender allocates saves
to suffer the least damage (:func:`engine.dice.shoot.unblocked`). Blast secondaries are shot
in id order. The shooter is never its own Blast secondary.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.dice.profile import AttackProfile
from engine.dice.rules import Blast, Range, Seek, SeekLight, Torrent
from engine.dice.shoot import unblocked
from engine.game import universal, weapon_rules
from engine.game.actions import Action, IllegalActionError
from engine.game.choices import (
    apply_retention_rule,
    cover_save_options,
    retention_rule_applies,
    retention_rules,
    roll_retained,
    same_feature_options,
)
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.geometry import sight

__all__ = ["FightFrame", "ShootFrame", "fight_options", "shoot_options"]


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
) -> AttackProfile:
    """The profile ``o`` attacks with: Hit worsened by 1 when injured (2.3), by
    ``hit_change`` more (point-blank +1, assists -1 each), never better than 2+ (decision
    6); weapon rules after the ``would_use_weapon_rules`` hooks (e.g. Condensed
    Environment).

    ``injured``: whether ``o`` counts as injured; ``None`` reads its wounds now. The Shoot
    and Fight frames pass the value from the start of the action: a stat change during an
    action applies once the action is complete (2.1, decision 7)."""
    _, _weapon, prof = universal.find_weapon(w, o, name, kind)
    if injured is None:
        injured = w.injured(o)
    hit = prof.hit + (1 if injured else 0) + hit_change
    hit = max(2, min(6, hit))
    rules = w.would("would_use_weapon_rules", prof.rules, op=o.id, weapon=name, kind=kind)
    return AttackProfile(prof.attacks, hit, prof.normal_damage, prof.critical_damage, rules)


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


def _take(
    values: tuple[int, ...], flags: tuple[bool, ...], chosen: tuple[int, ...]
) -> tuple[list[int], list[bool], list[int]]:
    """Remove the dice ``chosen`` (faces) from those not yet re-rolled."""
    vals, fl = list(values), list(flags)
    for v in chosen:
        for i, (x, f) in enumerate(zip(vals, fl, strict=True)):
            if x == v and not f:
                del vals[i]
                del fl[i]
                break
        else:
            raise _illegal(f"no die showing {v} that has not been re-rolled (2.4)")
    return vals, fl, list(chosen)


def _check_reroll(
    kind: str, chosen: tuple[int, ...], values: tuple[int, ...], flags: tuple[bool, ...]
) -> None:
    if kind == "balanced" and len(chosen) != 1:
        raise _illegal("Balanced re-rolls one attack die (6)")
    if kind == "ceaseless":
        free = [v for v, f in zip(values, flags, strict=True) if not f]
        if len(set(chosen)) != 1 or len(chosen) != free.count(chosen[0]):
            raise _illegal("Ceaseless re-rolls every die showing one chosen value (6)")
    _take(values, flags, chosen)


def _merge(
    vals: list[int], flags: list[bool], new: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    pairs = sorted(
        [*zip(vals, flags, strict=True), *((v, True) for v in new)], key=lambda t: (-t[0], t[1])
    )
    return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)


def _other_side(side: str) -> str:
    return "d" if side == "a" else "a"


def can_command_reroll(w: Work, player: str, flags: tuple[bool, ...]) -> bool:
    """Command Re-roll (7.1): 1CP, a die never re-rolled."""
    return w.pl(player).cp >= 1 and not all(flags)


def command_reroll_options(values: tuple[int, ...], flags: tuple[bool, ...]) -> list[Action]:
    """``Decline`` and a Command Re-roll of each face shown by a die not yet re-rolled
    (7.1, 2.4)."""
    faces = sorted({v for v, f in zip(values, flags, strict=True) if not f}, reverse=True)
    return [Action("Decline")] + [Action("Command re-roll", values=(v,)) for v in faces]


# -------------------------------------------------------------------------------------------
# Shoot (5.1)
# -------------------------------------------------------------------------------------------


def _seek(profile_rules: Any) -> str | None:
    if profile_rules.has(Seek):
        return "all"
    if profile_rules.has(SeekLight):
        return "light"
    return None


def shoot_target_reason(
    w: Work, o: OperativeState, t: OperativeState, name: str, prof: Any, point_blank: bool
) -> str | None:
    """Why ``t`` cannot be the primary target of this shot (5.1 step 2), or None; a team
    weapon rule may still allow it (the ``would_allow_target`` hook, e.g. Magnify*)."""
    why = own_target_reason(w, o, t, name, prof, point_blank)
    if why is None or point_blank:
        return why
    allowed: str | None = w.would(
        "would_allow_target", why, op=o, target=t, weapon=name, profile=prof
    )
    return allowed


def own_target_reason(
    w: Work, o: OperativeState, t: OperativeState, name: str, prof: Any, point_blank: bool
) -> str | None:
    """Why ``t`` cannot be the primary target of ``o``'s shot judged from ``o`` itself
    (4.5, 5.1 step 2, 6 Range), or None."""
    if point_blank:
        if not w.control_range(o, t):
            return "a point-blank shot must target an enemy within control range (9.3)"
        return None
    kz = w.kz
    if not w.ctx.valid_target(kz, w.place(t), w.place(o), t.order, _seek(prof.rules)):
        if not w.ctx.visible(kz, w.place(o), w.place(t)):
            return f"{t.id} is not visible to {o.id} (4.3, 4.5)"
        return f"{t.id} has a Conceal order and is in cover: not a valid target (4.5)"
    for f in w.friends_of(o.id):
        if w.control_range(f, t):
            return f"{t.id} has a friendly operative ({f.id}) within its control range (4.5)"
    if not universal.in_range(w, o, t, prof):
        rng = prof.rules.get(Range)
        return f"{t.id} is not within {name}'s Range {getattr(rng, 'distance', 0):g}\" (6)"
    return None


def _point_blank(w: Work, o: OperativeState, mode: str) -> bool:
    return mode == "interrupt" and w.in_enemy_control_range(o)


def _fixed_target(w: Work, o: OperativeState, name: str, prof: Any) -> str | None:
    """The primary target a team weapon rule fixes for this weapon (e.g. Explosive*: the
    shooter itself, ``would_fix_primary_target``), or None: the player selects one."""
    fixed: str | None = w.would("would_fix_primary_target", None, op=o, weapon=name, profile=prof)
    return fixed


def shoot_options(w: Work, o: OperativeState, mode: str) -> list[Action]:
    """Listed Shoot actions: each usable ranged weapon at each primary target it may take."""
    pb = _point_blank(w, o, mode)
    in_cr = mode != "interrupt" and w.in_enemy_control_range(o)
    out = []
    for name, _, prof in universal.weapons_of(w, o.id, "ranged"):
        if o.order != "engage" and not universal.silent(prof):
            continue
        if universal.weapon_usable(w, o, name, prof) is not None:
            continue
        if in_cr and not universal.shoots_in_control_range(w, o, prof):
            continue
        fixed = _fixed_target(w, o, name, prof)
        if fixed is not None:
            out.append(Action("Shoot", op=o.id, weapon=name, target=fixed))
            continue
        for t in w.enemies_of(o.id):
            if shoot_target_reason(w, o, t, name, prof, pb) is None:
                out.append(Action("Shoot", op=o.id, weapon=name, target=t.id))
    return out


def start_shoot(w: Work, o: OperativeState, a: Action, mode: str) -> None:
    """Validate a Shoot action and begin its sequence (5.1 steps 1-2).

    Raises:
        IllegalActionError: naming the rule (order, weapon, target).
    """
    name, _, prof = universal.find_weapon(w, o, a.weapon, "ranged")
    pb = _point_blank(w, o, mode)
    if o.order != "engage" and not universal.silent(prof):
        raise _illegal(
            f"{o.id} has a Conceal order: it can only Shoot with Silent weapons (1.5, 6)"
        )
    why = universal.weapon_usable(w, o, name, prof)
    if why:
        raise _illegal(why)
    in_cr = mode != "interrupt" and w.in_enemy_control_range(o)
    if in_cr and not universal.shoots_in_control_range(w, o, prof):
        raise _illegal(f"{name} cannot be used within control range of an enemy operative (3.2)")
    fixed = _fixed_target(w, o, name, prof)
    if fixed is not None:
        if a.target != fixed:
            raise _illegal(f"{name}: its primary target is always {fixed} (a team weapon rule)")
        t = w.op(fixed)
    else:
        t = universal.enemy_operative(w, a.target, o.player)
        why = shoot_target_reason(w, o, t, name, prof, pb)
        if why:
            raise _illegal(why)
    universal.spend(w, o, "Shoot", mode)
    if o.on_guard:
        w.set_op(o.id, on_guard=False)
        w.emit("guard_ended", op=o.id, why="it performed an action")
    w.emit("shoot_declared", op=o.id, weapon=name, target=t.id, point_blank=pb)
    cover = obscured = False  # a fixed primary target is never in cover or obscured
    if fixed is None:
        tg = w.ctx.targeting(w.kz, w.place(o), w.place(t))
        cover, obscured = tg.in_cover, tg.obscured
    targets: tuple[str, ...] = (t.id,)
    blast = prof.rules.get(Blast)
    if isinstance(blast, Blast):
        x = blast.distance
        tp = w.place(t)
        sec = [
            q.id
            for q in w.alive()
            if q.id not in (t.id, o.id)
            and w.distance(tp, w.place(q)) <= x + 1e-6
            and w.ctx.visible(w.kz, tp, w.place(q))
        ]
        targets += tuple(sorted(sec, key=lambda i: w.ctx.index[i]))
    torrent = prof.rules.get(Torrent) is not None
    if pb:
        w.effects.append(Effect("no_retaliate", o.id, "end_activation", source=_active_enemy(w, o)))
    w.stack.append(
        ShootFrame(
            shooter=o.id,
            weapon=name,
            mode=mode,
            targets=targets,
            stage="torrent" if torrent else "begin",
            primary_cover=cover,
            primary_obscured=obscured,
            primary_set=fixed is not None,
            point_blank=pb,
            injured=w.injured(o),
        )
    )
    # Last, so a team rule may push a frame here (e.g. Magnify*, engine.rules).
    w.emit("shoot_started", op=o.id, weapon=name, target=t.id)


def _active_enemy(w: Work, o: OperativeState) -> str:
    for f in reversed(w.stack):
        if isinstance(f, universal.ActivationFrame) and w.ctx.owner[f.op] != o.player:
            return f.op
    return ""


def torrent_candidates(w: Work, f: ShootFrame) -> list[str]:
    """Torrent secondaries still available: valid targets within x of the primary with no
    friendly of the shooter within their control range (6, EDGE_CASES 10)."""
    o = w.op(f.shooter)
    _, _, prof = universal.find_weapon(w, o, f.weapon, "ranged")
    x = getattr(prof.rules.get(Torrent), "distance", 0.0)
    primary = w.place(w.op(f.targets[0]))
    out = []
    for t in w.enemies_of(o.id):
        if t.id in f.targets:
            continue
        if w.distance(primary, w.place(t)) > x + 1e-6:
            continue
        if shoot_target_reason(w, o, t, f.weapon, prof, False) is None:
            out.append(t.id)
    return out


@attrs.frozen(slots=True)
class ShootFrame:
    """A Shoot action in progress (module docstring; 5.1)."""

    shooter: str
    weapon: str
    mode: str
    targets: tuple[str, ...]
    stage: str
    primary_cover: bool = False
    primary_obscured: bool = False
    point_blank: bool = False
    injured: bool = False  # the shooter was injured when the action began (decision 7)
    primary_set: bool = False  # a team rule fixed the primary's cover and obscured
    sight_from: str = ""  # a team rule judges the primary's cover from this operative
    idx: int = 0
    cover: bool = False
    obscured: bool = False
    improved: bool = False
    accurate: int = 0
    windows: tuple[str, ...] = ()
    dice: tuple[int, ...] = ()
    flags: tuple[bool, ...] = ()
    normals: int = 0
    crits: int = 0
    cover_saves: tuple[int, int] = (0, 0)
    feature_options: tuple[tuple[str, bool, bool], ...] = ()  # same_feature_options
    max_accurate: int = 0  # Accurate x available (weapon and Vantage); ``accurate`` chosen
    fails: int = 0  # attack dice failed (for Punishing)
    rules_left: tuple[str, ...] = ()  # retention rules still to be offered
    pending: tuple[int, ...] = ()  # dice kept aside while re-rolled ones are rolled
    pending_flags: tuple[bool, ...] = ()
    rerolling: bool = False

    # -- helpers ---------------------------------------------------------------------------

    def profile(self, w: Work) -> AttackProfile:
        """The shooter's attack profile for this shot (point-blank: Hit +1, 9.3), with its
        Hit as it was when the action began (2.1, decision 7): an injury suffered during the
        action (Devastating, Blast, Hot) changes neither a later sequence nor the Hot roll."""
        return attack_profile(
            w,
            w.op(self.shooter),
            self.weapon,
            "ranged",
            hit_change=1 if self.point_blank else 0,
            injured=self.injured,
        )

    def target(self, w: Work) -> OperativeState:
        """The target of the current sequence."""
        return w.op(self.targets[self.idx])

    def attacker(self, w: Work) -> str:
        """The shooter's player."""
        return w.ctx.owner[self.shooter]

    def defender(self, w: Work) -> str:
        """The current target's player."""
        return w.ctx.owner[self.targets[self.idx]]

    # -- frame protocol --------------------------------------------------------------------

    def run(self, w: Work) -> None:
        st = self.stage
        if st == "torrent":
            if torrent_candidates(w, self):
                w.decide(self.attacker(w), "torrent")
            else:
                w.replace_top(stage="begin")
        elif st == "begin":
            self._begin(w)
        elif st == "feature":
            w.decide(self.defender(w), "same_feature")
        elif st == "prepare":
            self._prepare(w)
        elif st == "accurate":
            w.decide(self.attacker(w), "accurate")
        elif st == "attack_roll":
            n = self.profile(w).attacks - self.accurate
            if n <= 0:
                w.replace_top(stage="attack_cr")
            else:
                w.roll("attack", self.attacker(w), n, label=f"attack dice ({self.weapon})")
        elif st == "attack_reroll":
            if not self.windows or all(self.flags):
                w.replace_top(stage="attack_cr", windows=())
            else:
                w.decide(self.attacker(w), "reroll")
        elif st == "attack_cr":
            if can_command_reroll(w, self.attacker(w), self.flags):
                w.decide(self.attacker(w), "command_reroll")
            else:
                w.replace_top(stage="retain")
        elif st == "retain":
            self._retain(w)
        elif st == "retention":
            self._retention(w)
        elif st == "defence_roll":
            self._defence_roll(w)
        elif st == "cover":
            w.decide(self.defender(w), "cover_save")
        elif st == "defence_cr":
            if can_command_reroll(w, self.defender(w), self.flags):
                w.decide(self.defender(w), "command_reroll")
            else:
                w.replace_top(stage="resolve")
        elif st == "resolve":
            w.replace_top(stage="resolve_dice")
            # Last, so a team rule may push a frame here (e.g. Siphon Life*, engine.rules).
            w.emit(
                "resolve_step_started",
                op=self.shooter,
                target=self.targets[self.idx],
                weapon=self.weapon,
                weapon_kind="ranged",
                normals=self.normals,
                crits=self.crits,
            )
        elif st == "resolve_dice":
            self._resolve(w)
        elif st == "hot":
            prof = self.profile(w)
            if prof.rules.dice.hot and w.op(self.shooter).alive:
                w.roll("hot", self.attacker(w), 1, label=f"Hot ({self.weapon})")
            else:
                w.replace_top(stage="end")
        else:
            self._end(w)

    def _begin(self, w: Work) -> None:
        if self.idx >= len(self.targets):
            w.replace_top(stage="hot")
            return
        t = self.target(w)
        o = w.op(self.shooter)
        if not t.alive:
            w.replace_top(idx=self.idx + 1)
            return
        prof = self.profile(w)
        if self.idx > 0 and prof.rules.get(Blast) is not None:
            # Blast secondaries are in cover / obscured if the primary was (6).
            w.replace_top(
                stage="prepare",
                cover=self.primary_cover,
                obscured=self.primary_obscured,
                feature_options=(),
            )
            return
        if self.idx == 0 and self.primary_set:
            w.replace_top(
                stage="prepare",
                cover=self.primary_cover,
                obscured=self.primary_obscured,
                feature_options=(),
            )
            return
        origin = w.op(self.sight_from) if self.idx == 0 and self.sight_from else o
        tg = w.ctx.targeting(w.kz, w.place(origin), w.place(t))
        d = prof.rules.dice
        opts = same_feature_options(tg, not d.saturate and d.piercing < 3)
        _, cover, obscured = opts[0]
        w.replace_top(
            stage="feature" if len(opts) > 1 else "prepare",
            cover=cover,
            obscured=obscured,
            feature_options=tuple(opts) if len(opts) > 1 else (),
        )

    def _prepare(self, w: Work) -> None:
        """Improved cover, Accurate (weapon and Vantage), re-roll windows (4.7, 5.1 step 3)."""
        t = self.target(w)
        o = w.op(self.shooter)
        kz = w.kz
        prof = self.profile(w)
        cover = self.cover
        if self.idx > 0 and prof.rules.get(Blast) is not None:
            improved = cover and sight.improved_cover(kz, w.place(o), w.place(t), t.order)
        else:
            improved = cover and sight.vantage_improves_cover(kz, w.place(o), w.place(t), t.order)
        vantage = sight.vantage_accuracy(kz, w.place(o), w.place(t), t.order)
        wacc = prof.rules.dice.accurate
        accurate = max(wacc, vantage, min(2, wacc + vantage)) if vantage else wacc
        accurate = min(accurate, prof.attacks)
        w.replace_top(
            stage="accurate" if accurate else "attack_roll",
            improved=improved,
            accurate=accurate,
            max_accurate=accurate,
            windows=_reroll_windows(prof),
            dice=(),
            flags=(),
            normals=0,
            crits=0,
            fails=0,
            rules_left=(),
        )

    def _retain(self, w: Work) -> None:
        """Successes retained from the roll; then the attacker's retention rules (6)."""
        prof = self.profile(w)
        n, c, fails = roll_retained(self.dice, self.accurate, prof, self.obscured)
        w.replace_top(
            normals=n,
            crits=c,
            fails=fails,
            rules_left=retention_rules(prof, self.obscured, c),
            stage="retention",
        )

    def _retention(self, w: Work) -> None:
        """Offer the next retention rule that would change the dice (Punishing, Rending,
        Severe: the attacker may apply each, 6); then the dice are retained."""
        left = self.rules_left
        while left and not retention_rule_applies(left[0], self.normals, self.crits, self.fails):
            left = left[1:]
        if left:
            if left != self.rules_left:
                w.replace_top(rules_left=left)
            w.decide(self.attacker(w), "retention_rule")
            return
        w.replace_top(rules_left=())
        w.top._retained(w)

    def _retained(self, w: Work) -> None:
        n, c = self.normals, self.crits
        t = self.target(w)
        w.emit(
            "attack_retained",
            op=self.shooter,
            target=t.id,
            normals=n,
            crits=c,
            obscured=self.obscured,
        )
        w.replace_top(normals=n, crits=c, stage="defence_roll", dice=(), flags=())
        if c:  # Devastating, Stun... subscribe to this event (engine.game.weapon_rules)
            w.emit(
                "crits_retained",
                op=self.shooter,
                target=t.id,
                crits=c,
                weapon=self.weapon,
                weapon_kind="ranged",
                point_blank=self.point_blank,
            )

    def cover_options(self, w: Work) -> list[tuple[str, int, int]]:
        """The defender's cover-save options now
        (:func:`engine.game.choices.cover_save_options`)."""
        t = self.target(w)
        return cover_save_options(
            self.profile(w),
            self.normals,
            self.crits,
            w.ctx.datacards[t.id].save,
            max(1, t.wounds),
            self.cover,
            self.improved,
        )

    def _defence_roll(self, w: Work) -> None:
        t = self.target(w)
        if not t.alive or t.incapacitated:
            w.replace_top(stage="begin", idx=self.idx + 1)
            return
        opts = self.cover_options(w)
        if len(opts) > 1:
            w.replace_top(stage="cover")
            w.decide(self.defender(w), "cover_save")
            return
        self._roll_defence(w, opts[0][1], opts[0][2])

    def _roll_defence(self, w: Work, cover_n: int, cover_c: int) -> None:
        """Roll the defence dice other than the ``cover_n``/``cover_c`` cover saves."""
        t = self.target(w)
        d = self.profile(w).rules.dice
        pierce = max(d.piercing, d.piercing_crits if self.crits else 0)
        dice = max(0, 3 - pierce)
        n = dice - cover_n - cover_c
        w.replace_top(cover_saves=(cover_n, cover_c), stage="defence_roll")
        if n <= 0:
            w.replace_top(stage="defence_cr")
            return
        w.roll("defence", self.defender(w), n, label=f"defence dice ({t.id})")

    def _resolve(self, w: Work) -> None:
        t = self.target(w)
        prof = self.profile(w)
        save = w.ctx.datacards[t.id].save
        cover_n, cover_c = self.cover_saves
        sn, sc = cover_n, cover_c
        for v in self.dice:
            if v == 6:
                sc += 1
            elif v != 1 and v >= max(2, save):
                sn += 1
        w.emit("saves_retained", op=t.id, normals=sn, crits=sc, cover=cover_n + cover_c)
        d = prof.rules.dice
        un, uc = unblocked(
            self.normals, self.crits, sn, sc, prof.normal_damage, prof.critical_damage, d.brutal
        )
        damage = un * prof.normal_damage + uc * prof.critical_damage
        universal.inflict(w, t.id, damage, f"{self.weapon}", by=self.shooter)
        w.replace_top(stage="begin", idx=self.idx + 1, dice=(), flags=(), cover_saves=(0, 0))
        # Last, so a team rule may push a frame here: the attack dice that inflicted damage.
        w.emit(
            "attack_dice_resolved",
            op=self.shooter,
            target=t.id,
            weapon=self.weapon,
            weapon_kind="ranged",
            normals=un if prof.normal_damage > 0 else 0,
            crits=uc if prof.critical_damage > 0 else 0,
        )

    def _end(self, w: Work) -> None:
        o = w.op(self.shooter)
        _, _, prof = universal.find_weapon(w, o, self.weapon, "ranged")
        _after_weapon_use(w, o, self.weapon, prof)
        w.stack.pop()
        w.emit("shoot_ended", op=self.shooter, weapon=self.weapon)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        st = self.stage
        who = self.attacker(w) if st.startswith("attack") or st == "hot" else self.defender(w)
        if st == "hot":
            v = values[0]
            w.emit("dice_rolled", player=who, label=f"Hot ({self.weapon})", values=values)
            hit = self.profile(w).hit
            damage = 2 * v if v < hit else 0
            w.emit("hot_roll", op=self.shooter, weapon=self.weapon, roll=v, hit=hit, damage=damage)
            if v < hit:
                universal.inflict(w, self.shooter, 2 * v, "Hot", by=self.shooter)
            w.replace_top(stage="end")
            return
        if self.rerolling:
            dice, flags = _merge(list(self.pending), list(self.pending_flags), values)
            w.emit("dice_rerolled", player=who, old=(), new=values)
            w.replace_top(dice=dice, flags=flags, rerolling=False, pending=(), pending_flags=())
            return
        dice = tuple(sorted(values, reverse=True))
        label = "attack" if st == "attack_roll" else "defence"
        w.emit("dice_rolled", player=who, label=label, values=dice)
        if st == "attack_roll":
            w.replace_top(dice=dice, flags=(False,) * len(dice), stage="attack_reroll")
        else:
            w.replace_top(dice=dice, flags=(False,) * len(dice), stage="defence_cr")

    def options(self, w: Work) -> list[Action]:
        st = self.stage
        if st == "torrent":
            return [Action("Done")] + [
                Action("Also", target=i) for i in torrent_candidates(w, self)
            ]
        if st == "attack_reroll":
            return reroll_options(self.windows[0], self.dice, self.flags)
        choice = self._choice_options(w)
        if choice is not None:
            return choice
        return command_reroll_options(self.dice, self.flags)

    def _choice_options(self, w: Work) -> list[Action] | None:
        """The actions of a player's choice (same feature, Accurate, retention rules, cover
        save), or None at other stages."""
        st = self.stage
        if st == "feature":
            return [Action("Same feature", text=name) for name, _, _ in self.feature_options]
        if st == "accurate":
            return [Action("Accurate", values=(k,)) for k in range(self.max_accurate + 1)]
        if st == "retention":
            return [Action("Apply", text=self.rules_left[0]), Action("Decline")]
        if st == "cover":
            return [Action("Cover save", text=name) for name, _, _ in self.cover_options(w)]
        return None

    def _act_choice(self, w: Work, a: Action) -> None:
        """Apply a player's choice (:meth:`_choice_options`).

        Raises:
            IllegalActionError: an action that is not one of the options, naming them.
        """
        st = self.stage
        legal = self._choice_options(w) or []
        if a not in legal:
            sections = {"feature": "4.5", "accurate": "6", "retention": "6", "cover": "4.5, 4.7"}
            raise _illegal(
                f"{a} is not possible now: choose one of {', '.join(str(x) for x in legal)} "
                f"({sections[st]})"
            )
        if st == "feature":
            _, cover, obscured = next(o for o in self.feature_options if o[0] == a.text)
            changes: dict[str, Any] = {"cover": cover, "obscured": obscured}
            if self.idx == 0:
                changes.update(primary_cover=cover, primary_obscured=obscured)
            w.replace_top(stage="prepare", feature_options=(), **changes)
        elif st == "accurate":
            w.replace_top(accurate=a.values[0], stage="attack_roll")
        elif st == "retention":
            rule, left = self.rules_left[0], self.rules_left[1:]
            if a.verb == "Apply":
                t_id, prof = self.target(w).id, self.profile(w)
                args = (self.dice, self.accurate, prof, self.normals)
                weapon_rules.emit_upgrade(w, self.shooter, t_id, rule, *args)
                n, c, fails = apply_retention_rule(rule, self.normals, self.crits, self.fails)
                w.replace_top(normals=n, crits=c, fails=fails, rules_left=left)
            else:
                w.replace_top(rules_left=left)
        else:
            _, cover_n, cover_c = next(o for o in self.cover_options(w) if o[0] == a.text)
            self._roll_defence(w, cover_n, cover_c)

    def act(self, w: Work, a: Action) -> None:
        st = self.stage
        if st == "torrent":
            if a.verb == "Done":
                w.replace_top(stage="begin")
                return
            if a.verb != "Also":
                raise _illegal(f"{a}: choose Torrent secondary targets ('Also X') or 'Done' (6)")
            if a.target not in torrent_candidates(w, self):
                raise _illegal(
                    f"{a.target} is not a Torrent secondary target: it must be a valid target "
                    "within x of the primary with no friendly operative within its control "
                    "range (6, EDGE_CASES 10)"
                )
            w.replace_top(targets=(*self.targets, a.target))
            return
        if st in ("feature", "accurate", "retention", "cover"):
            self._act_choice(w, a)
            return
        if st == "attack_reroll":
            kind = self.windows[0]
            if a.verb == "Keep":
                w.replace_top(windows=self.windows[1:])
                return
            if a.verb != "Re-roll":
                raise _illegal(f"{a}: choose 'Re-roll ...' or 'Keep' ({kind}, 6)")
            _check_reroll(kind, a.values, self.dice, self.flags)
            self._start_reroll(w, a.values, self.attacker(w), windows=self.windows[1:])
            return
        player = self.attacker(w) if st == "attack_cr" else self.defender(w)
        if a.verb == "Decline":
            w.replace_top(stage="retain" if st == "attack_cr" else "resolve")
            return
        if a.verb != "Command re-roll" or len(a.values) != 1:
            raise _illegal(f"{a}: choose 'Command re-roll <face>' or 'Decline' (7.1)")
        if w.pl(player).cp < 1:
            raise _illegal(f"{player} has no CP for Command Re-roll (7.1)")
        _take(self.dice, self.flags, a.values)
        w.set_pl(player, cp=w.pl(player).cp - 1, cp_spent=w.pl(player).cp_spent + 1)
        w.emit("cp_spent", player=player, cp=1, ploy="Command Re-roll")
        self._start_reroll(w, a.values, player)

    def _start_reroll(
        self, w: Work, chosen: tuple[int, ...], player: str, windows: tuple[str, ...] | None = None
    ) -> None:
        vals, fl, _ = _take(self.dice, self.flags, chosen)
        changes: dict[str, Any] = {
            "pending": tuple(vals),
            "pending_flags": tuple(fl),
            "rerolling": True,
        }
        if windows is not None:
            changes["windows"] = windows
        w.replace_top(**changes)
        w.roll("reroll", player, len(chosen), label="re-roll")


# -------------------------------------------------------------------------------------------
# Damage-dealing weapon rules
# -------------------------------------------------------------------------------------------


def _after_weapon_use(w: Work, o: OperativeState, name: str, prof: Any) -> None:
    from engine.dice.rules import Heavy

    lim = universal.weapon_limit(w, o, name, prof)
    if lim is not None:  # one use of the weapon, whichever profile (2.2, 6 Limited)
        uses = dict(w.op(o.id).limited)
        uses[lim[0]] = uses.get(lim[0], 0) + 1
        w.set_op(o.id, limited=tuple(sorted(uses.items())))
    heavy = prof.rules.get(Heavy)
    if heavy is not None:
        only = getattr(heavy, "only", None)
        w.set_op(o.id, heavy_shot=True, heavy_only=only.title() if only else "")


# -------------------------------------------------------------------------------------------
# Fight (5.2)
# -------------------------------------------------------------------------------------------


def fight_targets(w: Work, o: OperativeState) -> list[OperativeState]:
    """Enemies within ``o``'s control range (5.2 step 1)."""
    return [e for e in w.enemies_of(o.id) if w.control_range(o, e)]


def fight_options(w: Work, o: OperativeState) -> list[Action]:
    """Listed Fight actions of ``o``: each usable melee weapon at each enemy within its
    control range (3.2, 5.2)."""
    out: list[Action] = []
    targets = fight_targets(w, o)
    for name, _, prof in universal.weapons_of(w, o.id, "melee"):
        if universal.weapon_usable(w, o, name, prof) is not None:
            continue
        out.extend(Action("Fight", op=o.id, weapon=name, target=t.id) for t in targets)
    return out


def assists(w: Work, helped: OperativeState, enemy: OperativeState) -> int:
    """Other friendlies of ``helped`` within control range of ``enemy`` and of no other
    enemy (5.2 step 2)."""
    return len(assistants(w, helped, enemy))


def assistants(w: Work, helped: OperativeState, enemy: OperativeState) -> list[str]:
    """The ids of the operatives :func:`assists` counts, in the state's operative order."""
    out = []
    for f in w.friends_of(helped.id):
        if not w.control_range(f, enemy):
            continue
        if any(w.control_range(f, e) for e in w.enemies_of(f.id) if e.id != enemy.id):
            continue
        out.append(f.id)
    return out


def start_fight(
    w: Work, o: OperativeState, a: Action, mode: str, *, verb: str = "Fight", forced: bool = False
) -> None:
    """Validate a Fight action and begin its sequence (5.2 steps 1-2).

    Raises:
        IllegalActionError: no such melee weapon, the target not an enemy within control
            range (unless ``forced``, e.g. Hatchway Fight), or the weapon unusable.
    """
    name, _, prof = universal.find_weapon(w, o, a.weapon, "melee")
    why = universal.weapon_usable(w, o, name, prof)
    if why:
        raise _illegal(why)
    t = universal.enemy_operative(w, a.target, o.player)
    if not forced and not w.control_range(o, t):
        raise _illegal(f"{t.id} is not within {o.id}'s control range: Fight needs one (5.2)")
    universal.spend(w, o, verb, mode)
    if o.on_guard:
        w.set_op(o.id, on_guard=False)
        w.emit("guard_ended", op=o.id, why="it performed an action")
    w.emit("fight_declared", op=o.id, weapon=name, target=t.id)
    can = not any(e.kind == "no_retaliate" and e.op == t.id for e in w.effects)
    melee = universal.weapons_of(w, t.id, "melee") if can else []
    usable = [n for n, _, p in melee if universal.weapon_usable(w, t, n, p) is None]
    dweapon = usable[0] if len(usable) == 1 else ""
    a_by, d_by = tuple(assistants(w, o, t)), tuple(assistants(w, t, o))
    w.stack.append(
        FightFrame(
            attacker=o.id,
            defender=t.id,
            aweapon=name,
            dweapon=dweapon,
            mode=mode,
            stage="retaliate" if len(usable) > 1 else "a_accurate",
            a_assist=len(a_by),
            d_assist=len(d_by),
            a_injured=w.injured(o),
            d_injured=w.injured(t),
        )
    )
    if dweapon:
        w.emit("retaliation_weapon", op=t.id, weapon=dweapon)
    for helped, enemy, by in ((o, t, a_by), (t, o, d_by)) if usable else ((o, t, a_by),):
        if by:  # each assist improves the Hit of the helped operative's melee weapons by 1
            w.emit("assisted", op=helped.id, target=enemy.id, by=by, improvement=len(by))


@attrs.frozen(slots=True)
class FightFrame:
    """A Fight action in progress (5.2).

    Stages: ``retaliate`` (the defender's weapon, when it has several), ``a_accurate`` and
    ``d_accurate`` (each side's Accurate x choice, skipped without Accurate), ``a_roll`` and
    ``d_roll``, ``rerolls``, ``retain``, ``retention``, ``resolve``, ``hot``, ``end``.

    ``adice``/``ddice`` are the attacker's and defender's rolled dice (with re-roll flags)
    until both are retained as ``(an, ac)`` and ``(dn, dc)``; then players alternate
    resolving one success each, starting with the attacker (``turn``)."""

    attacker: str
    defender: str
    aweapon: str
    dweapon: str
    mode: str
    stage: str
    a_assist: int = 0
    d_assist: int = 0
    a_injured: bool = False  # each fighter injured when the action began (decision 7)
    d_injured: bool = False
    a_accurate: int = 0  # attack dice retained unrolled as normal successes (Accurate x)
    d_accurate: int = 0
    adice: tuple[int, ...] = ()
    aflags: tuple[bool, ...] = ()
    ddice: tuple[int, ...] = ()
    dflags: tuple[bool, ...] = ()
    a_windows: tuple[str, ...] = ()
    d_windows: tuple[str, ...] = ()
    rturn: str = ""
    passes: int = 0
    an: int = 0
    ac: int = 0
    dn: int = 0
    dc: int = 0
    turn: str = ""
    a_shocked: bool = False
    d_shocked: bool = False
    pending: tuple[int, ...] = ()
    pending_flags: tuple[bool, ...] = ()
    rerolling: str = ""
    hot_done: str = ""
    a_fails: int = 0  # failed attack dice of each side (for Punishing)
    d_fails: int = 0
    a_rules: tuple[str, ...] = ()  # retention rules still to be offered to each side
    d_rules: tuple[str, ...] = ()

    def prof(self, w: Work, side: str) -> AttackProfile:
        """Attack profile of side ``"a"`` (attacker) or ``"d"`` (defender), assists applied,
        Hit as it was when the action began (2.1, decision 7: an operative injured during the
        fight keeps its Hit for this sequence and its Hot roll)."""
        if side == "a":
            return attack_profile(
                w,
                w.op(self.attacker),
                self.aweapon,
                "melee",
                hit_change=-self.a_assist,
                injured=self.a_injured,
            )
        return attack_profile(
            w,
            w.op(self.defender),
            self.dweapon,
            "melee",
            hit_change=-self.d_assist,
            injured=self.d_injured,
        )

    def owner(self, w: Work, side: str) -> str:
        """The player of side ``"a"`` or ``"d"``."""
        return w.ctx.owner[self.attacker if side == "a" else self.defender]

    def accurate_x(self, w: Work, side: str) -> int:
        """The most dice side ``"a"`` or ``"d"`` may retain unrolled with Accurate x (6),
        capped at its attacks; 0 for a defender that does not retaliate."""
        if side == "d" and not self.dweapon:
            return 0
        prof = self.prof(w, side)
        return max(0, min(prof.rules.dice.accurate, prof.attacks))

    def run(self, w: Work) -> None:
        st = self.stage
        if st == "retaliate":
            w.decide(self.owner(w, "d"), "retaliate")
        elif st in ("a_accurate", "d_accurate"):
            # Accurate x: each side's player chooses how many dice (0 to x) to retain unrolled
            # as normal successes, as in shooting (5.2 step 3, 6): the attacker first, then
            # the defender for its retaliating weapon, both before either side rolls (the
            # rolls are simultaneous). Without Accurate the side retains none, unasked.
            side = st[0]
            if self.accurate_x(w, side):
                w.decide(self.owner(w, side), "accurate")
            else:
                w.replace_top(
                    **{f"{side}_accurate": 0}, stage="d_accurate" if side == "a" else "a_roll"
                )
        elif st == "a_roll":
            pa = self.prof(w, "a")
            n = pa.attacks - self.a_accurate
            if n <= 0:
                w.replace_top(adice=(), aflags=(), stage="d_roll")
                return
            w.roll("attack", self.owner(w, "a"), n, label=f"attack dice ({self.aweapon})")
        elif st == "d_roll":
            n = self.prof(w, "d").attacks - self.d_accurate if self.dweapon else 0
            if n <= 0:
                w.replace_top(ddice=(), dflags=())
                self._start_rerolls(w)
                return
            w.roll("attack", self.owner(w, "d"), n, label=f"attack dice ({self.dweapon})")
        elif st == "rerolls":
            if self.passes >= 2:
                w.replace_top(stage="retain")
                return
            side = self.rturn
            choices = self._reroll_choices(w, side)
            if not choices:  # nothing this side could re-roll: it passes
                w.replace_top(passes=self.passes + 1, rturn=_other_side(side))
                return
            kind = "reroll" if any(c.verb == "Re-roll" for c in choices) else "command_reroll"
            w.decide(self.owner(w, side), kind)
        elif st == "retain":
            self._retain(w)
        elif st == "retention":
            self._retention(w)
        elif st == "resolve":
            self._resolve_step(w)
        elif st == "hot":
            self._hot(w)
        else:
            w.stack.pop()
            a = w.op(self.attacker)
            _, _, prof = universal.find_weapon(w, a, self.aweapon, "melee")
            _after_weapon_use(w, a, self.aweapon, prof)
            w.emit("fight_ended", op=self.attacker, target=self.defender)

    def _first(self, w: Work) -> str:
        """The side whose re-rolls come first: the initiative player's (1.7)."""
        return "d" if self.dweapon and self.owner(w, "d") == w.initiative else "a"

    def _start_rerolls(self, w: Work) -> None:
        """Both rolls are in: players alternate re-rolling or passing, starting with the
        initiative player, until both pass in succession (1.7)."""
        top = w.top
        w.replace_top(
            stage="rerolls",
            rturn=top._first(w),
            passes=0,
            a_windows=_reroll_windows(top.prof(w, "a")),
            d_windows=_reroll_windows(top.prof(w, "d")) if top.dweapon else (),
        )

    def _dice(self, side: str) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        return (self.adice, self.aflags) if side == "a" else (self.ddice, self.dflags)

    def _reroll_choices(self, w: Work, side: str) -> list[Action]:
        """Re-rolls ``side`` may make now: its next weapon re-roll window (Balanced,
        Ceaseless, Relentless; one window at a time, in that rule order) and Command Re-roll
        (7.1)."""
        if side == "d" and not self.dweapon:
            return []
        dice, flags = self._dice(side)
        wins = self.a_windows if side == "a" else self.d_windows
        out: list[Action] = []
        if wins:
            out += [a for a in reroll_options(wins[0], dice, flags) if a.verb == "Re-roll"]
        if can_command_reroll(w, self.owner(w, side), flags):
            out += command_reroll_options(dice, flags)[1:]
        return out

    def _retain(self, w: Work) -> None:
        """Both sides' successes retained from the rolls; then each side's retention rules,
        the attacker's first (6)."""
        pa = self.prof(w, "a")
        an, ac, af = roll_retained(self.adice, self.a_accurate, pa, False)
        dn = dc = df = 0
        d_rules: tuple[str, ...] = ()
        if self.dweapon:
            pd = self.prof(w, "d")
            dn, dc, df = roll_retained(self.ddice, self.d_accurate, pd, False)
            d_rules = retention_rules(pd, False, dc)
        w.replace_top(
            an=an,
            ac=ac,
            dn=dn,
            dc=dc,
            a_fails=af,
            d_fails=df,
            a_rules=retention_rules(pa, False, ac),
            d_rules=d_rules,
            stage="retention",
        )

    def _retention(self, w: Work) -> None:
        """Offer each side's retention rules (Punishing, Rending, Severe) in turn, skipping
        those that would change nothing; then the dice are retained."""
        for side in ("a", "d"):
            n, c, fails = self._side_dice(side)
            left = self.a_rules if side == "a" else self.d_rules
            while left and not retention_rule_applies(left[0], n, c, fails):
                left = left[1:]
            w.replace_top(**{f"{side}_rules": left})
            if left:
                w.decide(self.owner(w, side), "retention_rule")
                return
        w.top._retained(w)

    def _side_dice(self, side: str) -> tuple[int, int, int]:
        """``(normals, crits, fails)`` of ``side`` while retention rules are chosen."""
        if side == "a":
            return self.an, self.ac, self.a_fails
        return self.dn, self.dc, self.d_fails

    def _retained(self, w: Work) -> None:
        an, ac, dn, dc = self.an, self.ac, self.dn, self.dc
        pd = self.prof(w, "d") if self.dweapon else None
        w.emit("attack_retained", op=self.attacker, target=self.defender, normals=an, crits=ac)
        if self.dweapon:
            w.emit("attack_retained", op=self.defender, target=self.attacker, normals=dn, crits=dc)
        w.replace_top(an=an, ac=ac, dn=dn, dc=dc, stage="resolve", turn="a")
        # Devastating and Stun from retained crits, both sides (engine.game.weapon_rules).
        if ac:
            w.emit(
                "crits_retained",
                op=self.attacker,
                target=self.defender,
                crits=ac,
                weapon=self.aweapon,
                weapon_kind="melee",
                assist=self.a_assist,
            )
        if pd is not None and dc:
            w.emit(
                "crits_retained",
                op=self.defender,
                target=self.attacker,
                crits=dc,
                weapon=self.dweapon,
                weapon_kind="melee",
                assist=self.d_assist,
            )
        # Last, so team rules may push frames here (e.g. Siphon Life*, engine.rules): the
        # defender's first, so the attacker's frame is on top and decided first.
        for op_id, target, weapon, n, c in (
            (self.defender, self.attacker, self.dweapon, dn, dc),
            (self.attacker, self.defender, self.aweapon, an, ac),
        ):
            if weapon:
                w.emit(
                    "resolve_step_started",
                    op=op_id,
                    target=target,
                    weapon=weapon,
                    weapon_kind="melee",
                    normals=n,
                    crits=c,
                )

    def _over(self, w: Work) -> bool:
        return w.op(self.attacker).incapacitated or w.op(self.defender).incapacitated

    def _left(self, side: str) -> int:
        return self.an + self.ac if side == "a" else self.dn + self.dc

    def _resolve_step(self, w: Work) -> None:
        if self._over(w) or (self._left("a") == 0 and self._left("d") == 0):
            w.replace_top(stage="hot")
            return
        side = self.turn
        if self._left(side) == 0:
            side = "d" if side == "a" else "a"
            w.replace_top(turn=side)
        w.decide(self.owner(w, side), "resolve")

    def _hot(self, w: Work) -> None:
        for side, op_id, weapon in (
            ("a", self.attacker, self.aweapon),
            ("d", self.defender, self.dweapon),
        ):
            if not weapon or side in self.hot_done:
                continue
            if self.prof(w, side).rules.dice.hot and w.op(op_id).alive:
                w.roll("hot", self.owner(w, side), 1, label=f"Hot ({weapon})")
                return
            w.replace_top(hot_done=self.hot_done + side)
            return
        w.replace_top(stage="end")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        st = self.stage
        if st == "hot":
            side = "a" if "a" not in self.hot_done else "d"
            op_id = self.attacker if side == "a" else self.defender
            w.emit("dice_rolled", player=self.owner(w, side), label="Hot", values=values)
            hit, v = self.prof(w, side).hit, values[0]
            weapon = self.aweapon if side == "a" else self.dweapon
            damage = 2 * v if v < hit else 0
            w.emit("hot_roll", op=op_id, weapon=weapon, roll=v, hit=hit, damage=damage)
            if values[0] < self.prof(w, side).hit:
                universal.inflict(w, op_id, 2 * values[0], "Hot", by=op_id)
            w.replace_top(hot_done=self.hot_done + side)
            return
        if self.rerolling:
            side = self.rerolling
            dice, flags = _merge(list(self.pending), list(self.pending_flags), values)
            w.emit("dice_rerolled", player=self.owner(w, side), old=(), new=values)
            if side == "a":
                w.replace_top(adice=dice, aflags=flags)
            else:
                w.replace_top(ddice=dice, dflags=flags)
            w.replace_top(
                rerolling="", pending=(), pending_flags=(), passes=0, rturn=_other_side(side)
            )
            return
        dice = tuple(sorted(values, reverse=True))
        if st == "a_roll":
            w.emit("dice_rolled", player=self.owner(w, "a"), label="attack", values=dice)
            w.replace_top(adice=dice, aflags=(False,) * len(dice), stage="d_roll")
        else:
            w.emit("dice_rolled", player=self.owner(w, "d"), label="attack", values=dice)
            w.replace_top(ddice=dice, dflags=(False,) * len(dice))
            self._start_rerolls(w)

    def options(self, w: Work) -> list[Action]:
        st = self.stage
        if st == "retaliate":
            d = w.op(self.defender)
            return [
                Action("Retaliate", op=d.id, weapon=n)
                for n, _, p in universal.weapons_of(w, d.id, "melee")
                if universal.weapon_usable(w, d, n, p) is None
            ]
        if st == "rerolls":
            return [Action("Decline"), *self._reroll_choices(w, self.rturn)]
        if st == "retention":
            rules = self.a_rules or self.d_rules
            return [Action("Apply", text=rules[0]), Action("Decline")]
        if st in ("a_accurate", "d_accurate"):
            return [Action("Accurate", values=(k,)) for k in range(self.accurate_x(w, st[0]) + 1)]
        return self._resolve_options(w)

    def _resolve_options(self, w: Work) -> list[Action]:
        side = self.turn
        mine = (self.an, self.ac) if side == "a" else (self.dn, self.dc)
        theirs = (self.dn, self.dc) if side == "a" else (self.an, self.ac)
        opp_prof = (
            self.prof(w, "d" if side == "a" else "a")
            if ((side == "a" and self.dweapon) or side == "d")
            else None
        )
        # Brutal: the opponent of a Brutal weapon's wielder can only block with crits.
        my_opp_brutal = opp_prof.rules.dice.brutal if opp_prof is not None else False
        out = []
        if mine[1]:
            out.append(Action("Strike", text="crit"))
        if mine[0]:
            out.append(Action("Strike", text="normal"))
        if mine[1] and theirs[1]:
            out.append(Action("Block", text="crit with crit"))
        if mine[1] and theirs[0]:
            out.append(Action("Block", text="normal with crit"))
        if mine[0] and theirs[0] and not my_opp_brutal:
            out.append(Action("Block", text="normal with normal"))
        if not theirs[0] and not theirs[1]:
            # Blocking is allowed with nothing left to block (5.2 step 4, EDGE_CASES 8).
            if mine[1]:
                out.append(Action("Block", text="nothing with crit"))
            if mine[0]:
                out.append(Action("Block", text="nothing with normal"))
        return out

    def act(self, w: Work, a: Action) -> None:
        st = self.stage
        if st == "retaliate":
            if a.verb != "Retaliate" or a.op != self.defender:
                raise _illegal(f"{self.defender} must choose its melee weapon ('Retaliate ...')")
            d = w.op(self.defender)
            name, _, prof = universal.find_weapon(w, d, a.weapon, "melee")
            why = universal.weapon_usable(w, d, name, prof)
            if why:
                raise _illegal(why)
            w.emit("retaliation_weapon", op=d.id, weapon=name)
            w.replace_top(dweapon=name, stage="a_accurate")
            return
        if st == "retention":
            self._act_retention(w, a)
            return
        if st in ("a_accurate", "d_accurate"):
            self._act_accurate(w, a)
            return
        if st == "rerolls":
            side = self.rturn
            player = self.owner(w, side)
            if a.verb == "Decline":
                w.replace_top(passes=self.passes + 1, rturn=_other_side(side))
                return
            if a not in self._reroll_choices(w, side):
                raise _illegal(
                    f"{a} is not a re-roll {player} can make now: 'Decline', a weapon re-roll "
                    "('Re-roll ...', 6) or 'Command re-roll <face>' (1CP, 7.1); a die is never "
                    "re-rolled twice (2.4)"
                )
            dice, flags = self._dice(side)
            if a.verb == "Re-roll":
                wins = self.a_windows if side == "a" else self.d_windows
                _check_reroll(wins[0], a.values, dice, flags)
                key = "a_windows" if side == "a" else "d_windows"
                w.replace_top(**{key: wins[1:]})
            else:
                w.set_pl(player, cp=w.pl(player).cp - 1, cp_spent=w.pl(player).cp_spent + 1)
                w.emit("cp_spent", player=player, cp=1, ploy="Command Re-roll")
            vals, fl, _ = _take(dice, flags, a.values)
            w.replace_top(pending=tuple(vals), pending_flags=tuple(fl), rerolling=side)
            w.roll("reroll", player, len(a.values), label="re-roll")
            return
        self._resolve(w, a)

    def _act_accurate(self, w: Work, a: Action) -> None:
        """Retain the chosen number of dice unrolled with Accurate x (5.2 step 3, 6).

        Raises:
            IllegalActionError: anything but ``Accurate k`` with k from 0 to x, naming them.
        """
        side = self.stage[0]
        legal = self.options(w)
        if a not in legal:
            raise _illegal(
                f"{a} is not possible now: choose one of {', '.join(str(x) for x in legal)} "
                "(Accurate x, 6)"
            )
        w.replace_top(
            **{f"{side}_accurate": a.values[0]}, stage="d_accurate" if side == "a" else "a_roll"
        )

    def _act_retention(self, w: Work, a: Action) -> None:
        """Apply or decline the retention rule offered (6).

        Raises:
            IllegalActionError: anything but ``Apply <rule>`` or ``Decline``.
        """
        side = "a" if self.a_rules else "d"
        rules = self.a_rules if side == "a" else self.d_rules
        if a not in (Action("Apply", text=rules[0]), Action("Decline")):
            raise _illegal(f"{a} is not possible now: 'Apply {rules[0]}' or 'Decline' (6)")
        changes: dict[str, Any] = {f"{side}_rules": rules[1:]}
        if a.verb == "Apply":
            me, them = (
                (self.attacker, self.defender) if side == "a" else (self.defender, self.attacker)
            )
            dice, acc = (
                (self.adice, self.a_accurate) if side == "a" else (self.ddice, self.d_accurate)
            )
            args = (dice, acc, self.prof(w, side), self._side_dice(side)[0])
            weapon_rules.emit_upgrade(w, me, them, rules[0], *args)
            n, c, fails = apply_retention_rule(rules[0], *self._side_dice(side))
            changes.update({f"{side}n": n, f"{side}c": c, f"{side}_fails": fails})
        w.replace_top(**changes)

    def _resolve(self, w: Work, a: Action) -> None:
        legal = self._resolve_options(w)
        if a not in legal:
            raise _illegal(
                f"{a} is not possible: unresolved successes allow "
                f"{', '.join(str(x) for x in legal)} (5.2 step 4)"
            )
        side = self.turn
        opp = "d" if side == "a" else "a"
        me_id = self.attacker if side == "a" else self.defender
        opp_id = self.defender if side == "a" else self.attacker
        n, c = (self.an, self.ac) if side == "a" else (self.dn, self.dc)
        on, oc = (self.dn, self.dc) if side == "a" else (self.an, self.ac)
        prof = self.prof(w, side)
        if a.verb == "Strike":
            crit = a.text == "crit"
            if crit:
                c -= 1
            else:
                n -= 1
            w.emit("strike", op=me_id, die=a.text)
            shocked = self.a_shocked if side == "a" else self.d_shocked
            if crit and prof.rules.dice.shock and not shocked:
                if on:
                    on -= 1
                elif oc:
                    oc -= 1
                w.replace_top(**{f"{side}_shocked": True})
            dmg = prof.critical_damage if crit else prof.normal_damage
            universal.inflict(
                w, opp_id, dmg, (self.aweapon if side == "a" else self.dweapon), by=me_id
            )
        else:
            blocked, _, die = a.text.split()
            if die == "crit":
                c -= 1
            else:
                n -= 1
            if blocked == "crit":
                oc -= 1
            elif blocked == "normal":
                on -= 1
            w.emit("block", op=me_id, die=die, blocked=blocked)
        mine = {"an": n, "ac": c} if side == "a" else {"dn": n, "dc": c}
        theirs = {"dn": on, "dc": oc} if side == "a" else {"an": on, "ac": oc}
        w.replace_top(**mine, **theirs)
        top = w.top
        if top._left(opp) > 0:
            w.replace_top(turn=opp)
        if a.verb == "Strike":  # last, so a team rule may push a frame here
            w.emit(
                "attack_dice_resolved",
                op=me_id,
                target=opp_id,
                weapon=self.aweapon if side == "a" else self.dweapon,
                weapon_kind="melee",
                normals=0 if crit or prof.normal_damage <= 0 else 1,
                crits=1 if crit and prof.critical_damage > 0 else 0,
            )
