"""The Shoot action as a frame (``rules/KT24.md`` 4.5, 4.7, 5.1, weapon rules 6, Command
Re-roll 7.1, EDGE_CASES 2, 3, 7-11): beginning the sequence, Torrent secondaries and Blast
targets, and :class:`ShootFrame`; the listed Shoot actions and target validity are in
:mod:`engine.game.shoot_targets`. The players' choices in the sequence are listed in the
:mod:`engine.game.attacks` docstring.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.dice.profile import AttackProfile
from engine.dice.rules import Blast, Saturate, Torrent, WeaponRules
from engine.game import ploys
from engine.game.actions import Action
from engine.game.allocation import Allocation, shot_allocations
from engine.game.attack_frames import ShotSteps, count_saves
from engine.game.attacks import (
    _after_weapon_use,
    _check_reroll,
    _illegal,
    _reroll_windows,
    attack_profile,
    emit_upgrade,
    reroll_options,
)
from engine.game.bookkeeping import Activity, enemy_operative, spend
from engine.game.choices import (
    apply_retention_rule,
    cover_save_options,
    retention_rule_applies,
    retention_rules,
    roll_retained,
    same_feature_options,
)
from engine.game.damage import inflict
from engine.game.shoot_targets import (
    fixed_target,
    point_blank_shot,
    shoot_target_reason,
    targeting,
)
from engine.game.state import Effect, OperativeState
from engine.game.weapons import (
    find_weapon,
    shoots_in_control_range,
    silent,
    weapon_rules,
    weapon_usable,
)
from engine.game.work import Work
from engine.geometry import sight

__all__ = [
    "ShootFrame",
    "start_shoot",
    "torrent_candidates",
]


def start_shoot(w: Work, o: OperativeState, a: Action, mode: str) -> None:
    """Validate a Shoot action and begin its sequence (5.1 steps 1-2).

    Raises:
        IllegalActionError: naming the rule (order, weapon, target).
    """
    name, _, prof = find_weapon(w, o, a.weapon, "ranged")
    pb = point_blank_shot(w, o, mode)
    if o.order != "engage" and not silent(prof, weapon_rules(w, o.id, name, prof, "ranged")):
        raise _illegal(
            f"{o.id} has a Conceal order: it can only Shoot with Silent weapons (1.5, 6)"
        )
    why = weapon_usable(w, o, name, prof)
    if why:
        raise _illegal(why)
    in_cr = mode != "interrupt" and w.in_enemy_control_range(o)
    if in_cr and not shoots_in_control_range(w, o, prof):
        raise _illegal(f"{name} cannot be used within control range of an enemy operative (3.2)")
    fixed = fixed_target(w, o, name, prof)
    if fixed is not None:
        if a.target != fixed:
            raise _illegal(f"{name}: its primary target is always {fixed} (a team weapon rule)")
        t = w.op(fixed)
    else:
        t = enemy_operative(w, a.target, o.player)
        why = shoot_target_reason(w, o, t, name, prof, pb)
        if why:
            raise _illegal(why)
    spend(w, o, "Shoot", mode)
    if o.on_guard:
        w.set_op(o.id, on_guard=False)
        w.emit("guard_ended", op=o.id, why="it performed an action")
    w.emit("shoot_declared", op=o.id, weapon=name, target=t.id, point_blank=pb)
    cover = obscured = False  # a fixed primary target is never in cover or obscured
    if fixed is None:
        tg = targeting(w, o, t)
        cover, obscured = tg.in_cover, tg.obscured
        if not obscured and w.ctx.hooks.would.get("would_be_obscured"):
            # Blast secondaries inherit the primary's obscured (6), smoke's too (7.2).
            obscured = bool(w.would("would_be_obscured", obscured, op=o.id, target=t.id))
    targets: tuple[str, ...] = (t.id,)
    # Blast and Torrent as the weapon has them for this shot (a rule may give them, 6).
    rules = weapon_rules(w, o.id, name, prof, "ranged", t.id)
    blast = rules.get(Blast)
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
    torrent = rules.get(Torrent) is not None
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
            injured=w.injury_penalties(o),
        )
    )
    # Last, so a team rule may push a frame here (e.g. Magnify*, engine.rules).
    w.emit("shoot_started", op=o.id, weapon=name, target=t.id)
    ploys.open_window(w, "target_selected", op=o.id, target=t.id, weapon=name, kind="ranged")


def _active_enemy(w: Work, o: OperativeState) -> str:
    for f in reversed(w.stack):
        if isinstance(f, Activity) and w.ctx.owner[f.op] != o.player:
            return f.op
    return ""


def torrent_candidates(w: Work, f: ShootFrame) -> list[str]:
    """Torrent secondaries still available: valid targets within x of the primary with no
    friendly of the shooter within their control range (6, EDGE_CASES 10)."""
    o = w.op(f.shooter)
    _, _, prof = find_weapon(w, o, f.weapon, "ranged")
    rules = weapon_rules(w, o.id, f.weapon, prof, "ranged", f.targets[0])
    x = getattr(rules.get(Torrent), "distance", 0.0)
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
class ShootFrame(ShotSteps):
    """A Shoot action in progress (the :mod:`engine.game.attacks` docstring; 5.1); the steps
    both editions share are :class:`~engine.game.attack_frames.ShotSteps`."""

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
    sight_from: str = ""  # a team rule judges the primary's cover (and improved cover) from it
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
            target=self.targets[self.idx] if self.idx < len(self.targets) else "",
        )

    def torrent_candidates(self, w: Work) -> list[str]:
        """Torrent secondaries still available (:func:`torrent_candidates`, 6)."""
        return torrent_candidates(w, self)

    def _torrent_refusal(self, a: Action) -> str:
        """Why ``a`` is not a Torrent choice (6, EDGE_CASES 10)."""
        if a.verb != "Also":
            return f"{a}: choose Torrent secondary targets ('Also X') or 'Done' (6)"
        return (
            f"{a.target} is not a Torrent secondary target: it must be a valid target "
            "within x of the primary with no friendly operative within its control "
            "range (6, EDGE_CASES 10)"
        )

    def _check_weapon_reroll(self, kind: str, a: Action) -> None:
        """Refuse ``a`` unless it is a re-roll the weapon rule ``kind`` allows (6).

        Raises:
            IllegalActionError: not ``Re-roll ...``, or dice the rule cannot re-roll."""
        if a.verb != "Re-roll":
            raise _illegal(f"{a}: choose 'Re-roll ...' or 'Keep' ({kind}, 6)")
        _check_reroll(kind, a.values, self.dice, self.flags)

    # -- frame protocol --------------------------------------------------------------------

    def run(self, w: Work) -> None:
        st = self.stage
        if st == "torrent":
            self._run_torrent(w)
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
            if self.windows and "would_refuse_reroll" in w.ctx.hooks.would:
                # A rule forbidding re-rolls closes the weapon's re-roll windows.
                info = {**self.dice_info(w), "trigger": "attack_dice"}
                who = self.attacker(w)
                kept = tuple(
                    k
                    for k in self.windows
                    if ploys.reroll_refusal(w, who, "attack_dice", k.capitalize(), info) is None
                )
                if kept != self.windows:
                    w.replace_top(windows=kept)
                    return
            if not self.windows or all(self.flags):
                w.replace_top(stage="attack_cr", windows=())
            else:
                w.decide(self.attacker(w), "reroll")
        elif st in ("attack_cr", "defence_cr"):
            self._run_dice_window(w)
        elif st == "retain":
            self._retain(w)
        elif st == "retention":
            self._retention(w)
        elif st == "defence_roll":
            self._defence_roll(w)
        elif st == "cover":
            w.decide(self.defender(w), "cover_save")
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
        elif st == "allocate":
            w.decide(self.defender(w), "allocate_saves")
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
        tg = targeting(w, origin, t)
        d = prof.rules.dice
        opts = same_feature_options(tg, not d.saturate and d.piercing < 3)
        _, cover, obscured = opts[0]
        if w.ctx.hooks.would.get("would_be_obscured"):
            # Rules that obscure beyond terrain (smoke, 7.2): obscured whatever cover is taken.
            seen = w.would("would_be_obscured", obscured, op=o.id, target=t.id)
            if seen and not obscured:
                opts = [(n, c, True) for n, c, _ in opts]
                obscured = True
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
            # Judged from where the primary's cover is judged (a team rule's ``sight_from``).
            src = w.op(self.sight_from) if self.idx == 0 and self.sight_from else o
            improved = cover and sight.vantage_improves_cover(kz, w.place(src), w.place(t), t.order)
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
        if c:  # Devastating, Stun... subscribe to this event (engine.rules.weapon_rules)
            w.emit(
                "crits_retained",
                op=self.shooter,
                target=t.id,
                crits=c,
                weapon=self.weapon,
                weapon_kind="ranged",
                point_blank=self.point_blank,
            )

    def cover_improved(self, w: Work) -> bool:
        """Whether the target's cover saves are improved now: by Vantage (``improved``, set
        when the attack began), or by a rule (the ``would_improve_cover_save`` hooks,
        ``fn(w, improved, op=, target=) -> improved``, asked each time so a ploy used after the
        target was selected counts; e.g. a team's camo cloak)."""
        if self.improved or not self.cover:
            return self.improved
        if not w.ctx.hooks.would.get("would_improve_cover_save"):
            return False
        return bool(
            w.would(
                "would_improve_cover_save", False, op=self.shooter, target=self.targets[self.idx]
            )
        )

    def cover_options(self, w: Work) -> list[tuple[str, int, int]]:
        """The defender's cover-save options now
        (:func:`engine.game.choices.cover_save_options`), improved as
        :meth:`cover_improved` says."""
        t = self.target(w)
        improved = self.cover_improved(w)
        prof = self.profile(w)
        if w.ctx.hooks.would.get("would_save_without_cover") and (
            not self.cover or prof.rules.dice.saturate
        ):
            # A rule letting a target that can retain no cover save retain a defence die
            # unrolled as a normal success anyway: fn(w, n, op=, target=) -> n (0 or 1).
            n = w.would("would_save_without_cover", 0, op=self.shooter, target=t.id)
            if n:
                kept = WeaponRules.of(tuple(r for r in prof.rules if not isinstance(r, Saturate)))
                plain = attrs.evolve(prof, rules=kept)
                save = w.ctx.datacards[t.id].save
                return cover_save_options(
                    plain, self.normals, self.crits, save, max(1, t.wounds), True, False
                )
        return cover_save_options(
            prof,
            self.normals,
            self.crits,
            w.ctx.datacards[t.id].save,
            max(1, t.wounds),
            self.cover,
            improved,
            self.cover_both(w) if improved else False,
        )

    def cover_both(self, w: Work) -> bool:
        """Whether the target's improved cover save may be retained as one normal and one
        critical (the ``would_retain_both_cover_saves`` hooks, ``fn(w, both, op=, target=)
        -> both``; e.g. a camo cloak with a stealthy tactic)."""
        if not w.ctx.hooks.would.get("would_retain_both_cover_saves"):
            return False
        return bool(
            w.would(
                "would_retain_both_cover_saves",
                False,
                op=self.shooter,
                target=self.targets[self.idx],
            )
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
        if w.ctx.hooks.would.get("would_retain_defence_normal"):
            # Defence dice a rule retains as normal saves without rolling them, besides the
            # cover saves: fn(w, extra, op=shooter, target=) -> extra (e.g. a team ploy).
            extra = int(w.would("would_retain_defence_normal", 0, op=self.shooter, target=t.id))
            cover_n += max(0, min(extra, dice - cover_n - cover_c))
        n = dice - cover_n - cover_c
        w.replace_top(cover_saves=(cover_n, cover_c), stage="defence_roll")
        if n <= 0:
            w.replace_top(stage="defence_cr")
            return
        w.roll("defence", self.defender(w), n, label=f"defence dice ({t.id})")

    def _resolve(self, w: Work) -> None:
        t = self.target(w)
        sn, sc = self.retained_saves(w)
        cover_n, cover_c = self.cover_saves
        w.emit("saves_retained", op=t.id, normals=sn, crits=sc, cover=cover_n + cover_c)
        options = self.allocation_options(w, sn, sc)
        if len(options) > 1:
            w.replace_top(stage="allocate")
            w.decide(self.defender(w), "allocate_saves")
            return
        self.inflict_unblocked(w, *options[0].left(self.normals, self.crits))

    def retained_saves(self, w: Work) -> tuple[int, int]:
        """The target's retained (normal, critical) saves: its cover saves and the defence
        dice rolled, against its Save as rules change it (5.1 steps 4-5)."""
        t = self.target(w)
        save = w.ctx.datacards[t.id].save + w.stat_change(t.id, "save")
        if self.cover and w.ctx.hooks.would.get("would_save_in_cover"):
            # Terrain that improves the Save of an operative in cover from it (7.2
            # Protective), judged from the shooter's targeting lines.
            src = self.sight_from if self.idx == 0 and self.sight_from else self.shooter
            tg = targeting(w, w.op(src), t)
            save = w.would("would_save_in_cover", save, op=self.shooter, target=t.id, tg=tg)
        cover_n, cover_c = self.cover_saves
        crit_at = 6
        if w.ctx.hooks.would.get("would_crit_save"):
            # A rule making lower defence dice critical saves: fn(w, at, op=, target=) -> at.
            crit_at = int(w.would("would_crit_save", 6, op=self.shooter, target=t.id))
        sn, sc = count_saves(self.dice, save, crit_at)
        return cover_n + sn, cover_c + sc

    def allocation_options(self, w: Work, sn: int, sc: int) -> list[Allocation]:
        """The defender's allocations of ``sn`` normal and ``sc`` critical saves differing in
        effect, least damage first (each tried on a scratch copy: :meth:`inflict_unblocked`)."""
        return shot_allocations(w, self, sn, sc)

    def inflict_unblocked(self, w: Work, un: int, uc: int) -> None:
        """Resolve the attack dice left unblocked (5.1 step 6): ``un`` normal and ``uc``
        critical successes inflict their damage (through the ``would_shot_damage`` and
        ``would_shot_total_damage`` hooks); then ``attack_dice_resolved``."""
        t = self.target(w)
        prof = self.profile(w)
        damage = un * prof.normal_damage + uc * prof.critical_damage
        if "would_shot_damage" in w.ctx.hooks.would:
            # A rule changing one unblocked attack die's damage (e.g. a damage reduction):
            # fn(w, dmg, op=shooter, target=, crit=) -> dmg, per die, normals first.
            damage = sum(
                max(0, int(w.would("would_shot_damage", dmg, op=self.shooter, target=t.id, crit=c)))
                for dmg, c in [(prof.normal_damage, False)] * un
                + [(prof.critical_damage, True)] * uc
            )
        if damage and "would_shot_total_damage" in w.ctx.hooks.would:
            # A rule changing the total damage of the unblocked successes: fn(w, damage, op=,
            # target=, normals=, crits=, normal_damage=, critical_damage=) -> damage.
            damage = int(
                w.would(
                    "would_shot_total_damage",
                    damage,
                    op=self.shooter,
                    target=t.id,
                    normals=un,
                    crits=uc,
                    normal_damage=prof.normal_damage,
                    critical_damage=prof.critical_damage,
                )
            )
        inflict(w, t.id, damage, f"{self.weapon}", by=self.shooter)
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
        _, _, prof = find_weapon(w, o, self.weapon, "ranged")
        _after_weapon_use(w, o, self.weapon, prof)
        w.stack.pop()
        w.emit("shoot_ended", op=self.shooter, weapon=self.weapon)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        if self.stage == "hot":
            v = values[0]
            w.emit(
                "dice_rolled", player=self.attacker(w), label=f"Hot ({self.weapon})", values=values
            )
            hit = self.profile(w).hit
            damage = 2 * v if v < hit else 0
            w.emit("hot_roll", op=self.shooter, weapon=self.weapon, roll=v, hit=hit, damage=damage)
            if v < hit:
                inflict(w, self.shooter, 2 * v, "Hot", by=self.shooter)
            w.replace_top(stage="end")
            return
        self._rolled_dice(w, values)

    def options(self, w: Work) -> list[Action]:
        st = self.stage
        if st == "torrent":
            return self._torrent_options(w)
        if st == "attack_reroll":
            return reroll_options(self.windows[0], self.dice, self.flags)
        choice = self._choice_options(w)
        if choice is not None:
            return choice
        return self._dice_window_options(w)

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
        if st == "allocate":
            return [a.action for a in self.allocation_options(w, *self.retained_saves(w))]
        return None

    def _act_choice(self, w: Work, a: Action) -> None:
        """Apply a player's choice (:meth:`_choice_options`).

        Raises:
            IllegalActionError: an action that is not one of the options, naming them.
        """
        st = self.stage
        legal = self._choice_options(w) or []
        if a not in legal:
            sections = {
                "feature": "4.5",
                "accurate": "6",
                "retention": "6",
                "cover": "4.5, 4.7",
                "allocate": "5.1 step 5",
            }
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
                emit_upgrade(w, self.shooter, t_id, rule, *args)
                n, c, fails = apply_retention_rule(rule, self.normals, self.crits, self.fails)
                w.replace_top(normals=n, crits=c, fails=fails, rules_left=left)
            else:
                w.replace_top(rules_left=left)
        elif st == "allocate":
            saves = self.retained_saves(w)
            chosen = next(o for o in self.allocation_options(w, *saves) if o.action == a)
            self.inflict_unblocked(w, *chosen.left(self.normals, self.crits))
        else:
            _, cover_n, cover_c = next(o for o in self.cover_options(w) if o[0] == a.text)
            self._roll_defence(w, cover_n, cover_c)

    def act(self, w: Work, a: Action) -> None:
        st = self.stage
        if st == "torrent":
            self._act_torrent(w, a)
            return
        if st in ("feature", "accurate", "retention", "cover", "allocate"):
            self._act_choice(w, a)
            return
        self._act_dice_steps(w, a)
