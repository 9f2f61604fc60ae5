"""The KT21 shooting attack as a frame (``rules/KT21.md`` 10, 12, 3.5, 4.4): the Shoot
action's and the Overwatch's sequence, with a chance node for every roll.

Sequence of :class:`Kt21ShootFrame` for each target in turn (the primary, then Blast,
Torrent or Fusillade ones):

1. roll the attack dice (A, or the dice Fusillade gave this target) against BS: 6 is a
   critical hit, a 1 fails, injured BS +1 worse, Overwatch BS +1 worse (:mod:`attack_dice`);
2. the weapon re-roll windows (Relentless; Ceaseless: any or all 1s; Balanced: one die), then
   the attacker's ``attack_dice`` ploy window (Command Re-roll);
3. retain: Lethal x+, Rending, then the rules of the Roll Attack Dice step: MWx (x mortal
   wounds on the target per retained crit), Splash x (the same on the target and on every
   other operative Visible to and within 2" of it), Stun (a crit retained: APL -1), Hot (3
   mortal wounds on the shooter per attack die discarded on a 1, counted after re-rolls:
   UNCONFIRMED reading 18.10);
4. defence: DF less max(APx, Px when a crit was retained) dice at the Save, or, when the
   defender uses its Invulnerable Save, the full DF at x+ (the defender's
   ``invulnerable_save`` decision, asked only when neither is at least as good in every
   case); in Cover (no No Cover, not a Blast secondary, no Indirect) one of those dice is
   retained as a normal save unrolled (the defender's ``kt21_cover_save`` decision when a
   critical hit is retained: then rolling it for a 6 can be better); roll the rest (6 a
   critical save, a 1 fails); the defender's ``defence_dice`` ploy window;
5. saves resolved with the defender's least-damage allocation (two normal saves block a
   critical hit, :func:`best_allocation`); damage inflicted.

Cover for the save: Blast secondaries are never in Cover; Indirect: targets are not in Cover
(for the target selection and for the save, UNCONFIRMED 18.10); Barrage: the target has the
cover save when terrain hides part of its base from directly above
(:func:`~engine.rules.kt21.attack_sight.hidden_from_above`) instead of when it is in Cover.
Incapacitated operatives are removed by the activation after the action (all its attacks
resolved first, 4.4).
"""

from __future__ import annotations

from itertools import product
from typing import Any, ClassVar

import attrs

from engine.dice.kt21_rules import Kt21WeaponRules
from engine.game import ploys
from engine.game.actions import Action, IllegalActionError
from engine.game.attack_frames import ShotSteps, count_saves
from engine.game.bookkeeping import enemy_operative, spend
from engine.game.damage import inflict
from engine.game.state import Effect, OperativeState
from engine.game.weapons import find_weapon, primary_weapon_name, weapons_of
from engine.game.work import Work
from engine.rules.kt21.attack_dice import (
    attacks21,
    best_allocation,
    check_reroll,
    damage21,
    hit_change21,
    hit_threshold,
    kt21_reroll_options,
    reroll_windows,
    retain_attack_dice,
    weapon_rules21,
)
from engine.rules.kt21.attack_sight import (
    engagement_range,
    hidden_from_above,
    sight21,
    target_reason,
    visible,
)
from engine.rules.kt21.die_damage import allocation_damage, inflict_dice
from engine.rules.kt21.repeat_attack import offer_repeat
from engine.teams.model import WeaponProfile

__all__ = [
    "HEAVY_MARK",
    "MOVES_BARRING_HEAVY",
    "Kt21ShootFrame",
    "shoot_options",
    "shoot_refusal",
    "start_shoot",
]

SPLASH_RANGE = 2.0
"""Splash x reaches operatives within ● (2") of the target (12)."""
FUSILLADE_RANGE = 2.0
"""Fusillade adds valid targets within ● (2") of the target (12)."""
HEAVY_MARK = "Shoot (Heavy)"
"""Noted in an operative's actions done this activation when it shot with a Heavy weapon
(12 Heavy: no Normal Move, Charge or Fall Back in that activation)."""
MOVES_BARRING_HEAVY = ("Normal Move", "Charge", "Fall Back")
"""The actions after which a Heavy weapon cannot be shot in the same activation (12 Heavy;
either way round: a shot with it after one of these, or one of these after the shot)."""


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


def _distance(w: Work, a: OperativeState, b: OperativeState) -> float:
    return w.distance(w.place(a), w.place(b))


def shoot_refusal(
    w: Work,
    o: OperativeState,
    name: str,
    prof: WeaponProfile,
    rules: Kt21WeaponRules,
    *,
    overwatch: bool,
    mode: str,
) -> str | None:
    """Why ``o`` cannot make a shooting attack with the profile ``name`` now, whatever the
    target (5, 12, 3.5), or ``None``: the order (Engage, or Conceal with a Silent weapon; an
    Overwatch needs Engage), not within Engagement Range of an enemy, Limited used, Heavy
    after a Normal Move, Charge or Fall Back, Unwieldy's extra AP, and for an Overwatch no
    Blast or Unwieldy profile (DC 16.22: another profile of the same weapon is fine); and
    any refusal of the ``would_refuse_weapon`` hooks (a team rule, e.g. Proximity*)."""
    if "would_refuse_weapon" in w.ctx.hooks.would:
        refused = w.would("would_refuse_weapon", None, op=o, weapon=name, profile=prof)
        if refused:
            return str(refused)
    if overwatch:
        if o.order != "engage":
            return (
                f"{o.id} has a Conceal order: Overwatch needs an Engage order (rules/KT21.md 3.5)"
            )
        for rule in ("Blast", "Unwieldy"):
            if rules.has(rule):
                return (
                    f"{name} has {rule}: it cannot be used in an Overwatch (rules/KT21.md 3.5, 12)"
                )
    elif o.order != "engage" and not rules.has("Silent"):
        return (
            f"{o.id} has a Conceal order: it can only Shoot with a Silent weapon "
            "(rules/KT21.md 5, 12 Silent)"
        )
    for e in w.enemies_of(o.id):
        if engagement_range(w, o, e):
            return (
                f"{o.id} is within Engagement Range of {e.id}: no shooting attack "
                "(rules/KT21.md 6.1, 3.5)"
            )
    if rules.has("Limited"):
        key = primary_weapon_name(w, o, name)
        if dict(o.limited).get(key, 0) >= 1:
            return f"{key} is Limited and was used this battle (rules/KT21.md 12 Limited)"
    if rules.has("Heavy") and not overwatch:
        moved = [d for d in o.done if d in MOVES_BARRING_HEAVY]
        if moved:
            return (
                f"{name} is Heavy and {o.id} performed {moved[0]} this activation "
                "(rules/KT21.md 12 Heavy)"
            )
    if rules.has("Unwieldy") and mode == "activation" and o.ap < 2:
        return (
            f"{name} is Unwieldy: Shoot with it costs 2AP, {o.id} has {o.ap}AP (rules/KT21.md 12)"
        )
    return None


def _rng(rules: Kt21WeaponRules) -> float | None:
    return rules.value("Rng")


def shoot_options(w: Work, o: OperativeState, verb: str, mode: str) -> list[Action]:
    """The complete shooting attacks ``o`` may make now as ``verb`` (``"Shoot"`` or
    ``"Overwatch"``): each usable ranged profile at each valid target (8.5), in the
    datacard's order then the operatives' order."""
    overwatch = verb == "Overwatch"
    out: list[Action] = []
    for name, _, prof in weapons_of(w, o.id, "ranged"):
        rules = weapon_rules21(w, o, name, prof)
        if shoot_refusal(w, o, name, prof, rules, overwatch=overwatch, mode=mode):
            continue
        indirect = rules.has("Indirect")
        for t in w.enemies_of(o.id):
            if target_reason(w, o, t, _rng(rules), indirect=indirect) is None:
                out.append(Action(verb, op=o.id, weapon=name, target=t.id))
    return out


def start_shoot(w: Work, o: OperativeState, a: Action, mode: str, *, overwatch: bool) -> None:
    """Validate a KT21 Shoot (or, with ``overwatch``, an Overwatch) and begin its shooting
    attack (10.1 steps 1-2, 3.5): the AP spent (Unwieldy: 2), Blast secondaries noted from
    the positions now (DC 16.28), Torrent and Fusillade targets chosen next.

    Raises:
        IllegalActionError: naming the rule (order, Engagement Range, weapon, target)."""
    name, _, prof = find_weapon(w, o, a.weapon, "ranged")
    rules = weapon_rules21(w, o, name, prof)
    why = shoot_refusal(w, o, name, prof, rules, overwatch=overwatch, mode=mode)
    if why:
        raise _illegal(why)
    t = enemy_operative(w, a.target, o.player)
    why = target_reason(w, o, t, _rng(rules), indirect=rules.has("Indirect"))
    if why:
        raise _illegal(why)
    verb = "Overwatch" if overwatch else "Shoot"
    family = HEAVY_MARK if rules.has("Heavy") and not overwatch else ""
    spend(
        w, o, verb, mode, ap=2 if rules.has("Unwieldy") and not overwatch else None, family=family
    )
    if overwatch:
        w.effects.append(Effect("overwatched", o.id, "end_tp", source=o.id))
        w.emit("overwatch_declared", op=o.id, weapon=name, target=t.id)
    w.emit("shoot_declared", op=o.id, weapon=name, target=t.id, point_blank=False)
    blast = rules.value("Blast")
    secondaries: tuple[str, ...] = ()
    if blast is not None and not overwatch:
        secondaries = tuple(
            q.id
            for q in w.alive()
            if q.id not in (t.id, o.id) and _distance(w, t, q) <= blast + 1e-6 and visible(w, t, q)
        )
    stage = "begin"
    if rules.value("Torrent") is not None:
        stage = "torrent"
    elif rules.has("Fusillade") and not overwatch:
        stage = "fusillade"
    w.stack.append(
        Kt21ShootFrame(
            shooter=o.id,
            weapon=name,
            overwatch=overwatch,
            targets=(t.id, *secondaries),
            no_cover=tuple(secondaries),
            stage=stage,
            injured=w.injury_penalties(o),
        )
    )
    w.emit("shoot_started", op=o.id, weapon=name, target=t.id)
    ploys.open_window(w, "target_selected", op=o.id, target=t.id, weapon=name, kind="ranged")


@attrs.frozen(slots=True)
class Kt21ShootFrame(ShotSteps):
    """A KT21 shooting attack in progress (module docstring; 10.1); the steps both editions
    share (players, dice windows, re-rolls) are :class:`~engine.game.attack_frames.ShotSteps`.

    Attributes:
        shooter, weapon: the attacker and its profile's notation name.
        overwatch: an Overwatch (BS worsened by 1, 3.5), not a Shoot action.
        targets: the targets in order (primary first). no_cover: those that cannot be in
            Cover (Blast secondaries, 12). split: Fusillade's attack dice per target
            (empty: the profile's A for each).
        stage: the step in progress; idx: the current target's index.
        injured: the shooter was injured when the attack began (a change during the action
            applies after it, DC 16.8).
        dice, flags: the attack or defence dice rolled (highest first) and which were
            re-rolled; windows: weapon re-roll windows left.
        normals, crits: the attack dice retained. invulnerable: the defender uses its
            Invulnerable Save. cover: the current target is in Cover; kept: defence dice
            retained unrolled as cover saves.
        pending, pending_flags, rerolling: dice kept aside while others are re-rolled.
        repeated: the attack on the target is a repeat by a rule (DC 16.27), not offered
            again (:func:`engine.rules.kt21.repeat_attack.offer_repeat`).
    """

    shooter: str
    weapon: str
    overwatch: bool
    targets: tuple[str, ...]
    stage: str
    no_cover: tuple[str, ...] = ()
    split: tuple[int, ...] = ()
    injured: bool = False
    idx: int = 0
    dice: tuple[int, ...] = ()
    flags: tuple[bool, ...] = ()
    windows: tuple[str, ...] = ()
    normals: int = 0
    crits: int = 0
    invulnerable: bool = False
    cover: bool = False
    kept: int = 0
    pending: tuple[int, ...] = ()
    pending_flags: tuple[bool, ...] = ()
    rerolling: bool = False
    repeated: bool = False

    REROLL_RULE: ClassVar[str] = "rules/KT21.md 4.3"
    SEQUENCE_RULE: ClassVar[str] = "rules/KT21.md 10.1"

    # -- helpers ---------------------------------------------------------------------------

    def profile(self, w: Work) -> tuple[WeaponProfile, Kt21WeaponRules]:
        """The shooter's weapon profile and its KT21 rules."""
        o = w.op(self.shooter)
        name, _, prof = find_weapon(w, o, self.weapon, "ranged")
        return prof, weapon_rules21(w, o, name, prof)

    def bs(self, w: Work) -> int:
        """The BS rolled against (injured and Overwatch each +1 worse, :func:`hit_threshold`)."""
        prof, _ = self.profile(w)
        o = w.op(self.shooter)
        name = find_weapon(w, o, self.weapon, "ranged")[0]
        change = hit_change21(w, o, name, "ranged", self.targets[self.idx], injured=self.injured)
        worsen = (1 if self.overwatch else 0) + change
        return hit_threshold(w, o, prof, injured=self.injured, worsen=worsen)

    def attacks(self, w: Work, target: str) -> int:
        """The attack dice against ``target`` (:func:`attacks21`)."""
        prof, _ = self.profile(w)
        o = w.op(self.shooter)
        return attacks21(w, o, find_weapon(w, o, self.weapon, "ranged")[0], prof, "ranged", target)

    def _check_weapon_reroll(self, kind: str, a: Action) -> None:
        """Refuse ``a`` unless it is one of the choices of the weapon re-roll window
        ``kind`` (:func:`check_reroll`, 12, 4.3).

        Raises:
            IllegalActionError: naming the rule and what may be chosen."""
        check_reroll(kind, a, self.dice, self.flags)

    def _attack_rolled(self, w: Work) -> dict[str, Any]:
        """The weapon's re-roll windows open once the attack dice are rolled (12)."""
        _, rules = self.profile(w)
        return {"windows": reroll_windows(rules)}

    def _pierce(self, rules: Kt21WeaponRules) -> int:
        ap = int(rules.value("AP") or 0)
        p = int(rules.value("P") or 0) if self.crits else 0
        return max(ap, p)

    def _pools(self, w: Work) -> tuple[tuple[int, int], tuple[int, int] | None]:
        """``((dice, save), invulnerable or None)``: the defence dice and threshold with the
        Save (DF less AP) and with the Invulnerable Save (full DF), 10.1 step 4, 10.3."""
        t = self.target(w)
        card = w.ctx.datacards[t.id]
        _, rules = self.profile(w)
        save = max(2, card.save + w.stat_change(t.id, "save"))
        normal = (max(0, card.defence - self._pierce(rules)), save)
        inv = (card.defence, card.invulnerable) if card.invulnerable else None
        return normal, inv

    def _invulnerable_choice(self, w: Work) -> bool | None:
        """Whether the defender's invulnerable save is used (True/False) when one option is
        at least as good in every case, else ``None`` (the defender decides)."""
        normal, inv = self._pools(w)
        if inv is None:
            return False
        if inv[0] >= normal[0] and inv[1] <= normal[1]:
            return True  # as many dice or more, as good a threshold or better
        if normal[0] >= inv[0] and normal[1] <= inv[1]:
            return False
        return None

    def _cover_applies(self, w: Work) -> bool:
        _, rules = self.profile(w)
        return self.cover and not rules.has("No Cover")

    # -- frame protocol --------------------------------------------------------------------

    def run(self, w: Work) -> None:
        st = self.stage
        if st == "torrent":
            self._run_torrent(w)
        elif st == "fusillade":
            if len(self.fusillade_options(w)) > 1:
                w.decide(self.attacker(w), "fusillade")
            else:
                w.replace_top(stage="begin")
        elif st == "begin":
            self._begin(w)
        elif st == "attack_roll":
            n = self.split[self.idx] if self.split else self.attacks(w, self.targets[self.idx])
            if n <= 0:
                w.replace_top(stage="begin", idx=self.idx + 1)
                return
            w.roll("attack", self.attacker(w), n, label=f"attack dice ({self.weapon})")
        elif st == "attack_reroll":
            if (
                self.windows
                and len(kt21_reroll_options(self.windows[0], self.dice, self.flags)) < 2
            ):
                w.replace_top(windows=self.windows[1:])  # nothing this rule can re-roll
            elif not self.windows:
                w.replace_top(stage="attack_cr")
            else:
                w.decide(self.attacker(w), "reroll")
        elif st in ("attack_cr", "defence_cr"):
            self._run_dice_window(w)
        elif st == "retain":
            self._retain(w)
        elif st == "invulnerable":
            choice = self._invulnerable_choice(w)
            if choice is None:
                w.decide(self.defender(w), "invulnerable_save")
            else:
                w.replace_top(invulnerable=choice, stage="cover")
        elif st == "cover":
            self._cover(w)
        elif st == "defence_roll":
            n = self._pool(w)[0] - self.kept
            if n <= 0:
                w.replace_top(dice=(), flags=(), stage="defence_cr")
                return
            w.roll("defence", self.defender(w), n, label=f"defence dice ({self.targets[self.idx]})")
        elif st == "resolve":
            self._resolve(w)
        else:
            self._end(w)

    def _pool(self, w: Work) -> tuple[int, int]:
        normal, inv = self._pools(w)
        return inv if self.invulnerable and inv is not None else normal

    def _begin(self, w: Work) -> None:
        if self.idx >= len(self.targets):
            w.replace_top(stage="end")
            offer_repeat(w, self)  # a rule may repeat the attack first (DC 16.27)
            return
        t = self.target(w)
        if not t.alive:
            w.replace_top(idx=self.idx + 1)
            return
        _, rules = self.profile(w)
        cover = False
        if t.id not in self.no_cover and not rules.has("Indirect"):
            if rules.has("Barrage"):  # the cover save from terrain hiding it from above
                cover = hidden_from_above(w, t)
            else:
                cover = sight21(w, w.op(self.shooter), t).in_cover
                if cover and _distance(w, w.op(self.shooter), t) <= 2.0 + 1e-6:
                    cover = False  # within 2" of the shooter: never in Cover (8.4)
        w.replace_top(
            stage="attack_roll",
            cover=cover,
            dice=(),
            flags=(),
            normals=0,
            crits=0,
            kept=0,
            invulnerable=False,
        )

    def _retain(self, w: Work) -> None:
        """Retain the hits, then MWx, Splash x, Stun and Hot (10.1 step 3, 12)."""
        _, rules = self.profile(w)
        t = self.target(w)
        n, c, ones = retain_attack_dice(self.dice, self.bs(w), rules)
        w.replace_top(normals=n, crits=c, stage="invulnerable")
        w.emit("attack_retained", op=self.shooter, target=t.id, normals=n, crits=c, obscured=False)
        mw = int(rules.value("MW") or 0)
        if mw and c:
            inflict(w, t.id, mw * c, f"MW{mw}", by=self.shooter)
        splash = int(rules.value("Splash") or 0)
        if splash and c:
            hit = [t.id] + [
                q.id
                for q in w.alive()
                if q.id != t.id and _distance(w, t, q) <= SPLASH_RANGE + 1e-6 and visible(w, t, q)
            ]
            for q_id in w.would("kt21_splash_targets", hit, op=self.shooter, target=t.id):
                inflict(w, q_id, splash * c, f"Splash {splash}", by=self.shooter)
        if rules.has("Stun") and c and w.op(t.id).alive:
            w.add_effect(Effect("apl", t.id, "end_next_activation", source=self.shooter, value=-1))
            w.emit("stunned", op=t.id, by=self.shooter)
        if rules.has("Hot") and ones:
            inflict(w, self.shooter, 3 * ones, "Hot", by=self.shooter)
        if not w.op(t.id).alive or n + c == 0:
            w.replace_top(stage="begin", idx=self.idx + 1)

    def _cover(self, w: Work) -> None:
        """The cover save (10.2): one defence die retained as a normal save unrolled; the
        defender decides only when a critical hit is retained (then a rolled 6 could block
        it where a normal save cannot alone), else it is retained."""
        dice = self._pool(w)[0]
        if not self._cover_applies(w) or dice <= 0:
            w.replace_top(kept=0, stage="defence_roll")
            return
        if self.crits:
            w.decide(self.defender(w), "kt21_cover_save")
            return
        w.replace_top(kept=self._cover_dice(w, dice), stage="defence_roll")

    def _cover_dice(self, w: Work, dice: int) -> int:
        """The dice retained as cover saves: one, or two when the
        ``would_retain_both_cover_saves`` hooks say so (a team rule, e.g. Camo Cloak), never
        more than the defence dice."""
        if "would_retain_both_cover_saves" in w.ctx.hooks.would and w.would(
            "would_retain_both_cover_saves", False, op=self.shooter, target=self.targets[self.idx]
        ):
            return min(2, dice)
        return 1

    def _resolve(self, w: Work) -> None:
        t = self.target(w)
        threshold = self._pool(w)[1]
        sn, sc = count_saves(self.dice, threshold)  # a 6 is a critical save (10.1 step 4)
        sn += self.kept
        w.emit("saves_retained", op=t.id, normals=sn, crits=sc, cover=self.kept)
        prof, _ = self.profile(w)
        o = w.op(self.shooter)
        name = find_weapon(w, o, self.weapon, "ranged")[0]
        dmg = damage21(w, o, name, prof, "ranged")
        who = {"op": self.shooter, "target": t.id, "weapon": name, "kind": "ranged"}
        un, uc = best_allocation(
            self.normals, self.crits, *allocation_damage(w, **who, damage=dmg), sn, sc
        )
        inflict_dice(w, **who, source=self.weapon, damage=dmg, normals=un, crits=uc)  # DC 16.23
        w.replace_top(stage="begin", idx=self.idx + 1, dice=(), flags=())

    def _end(self, w: Work) -> None:
        o = w.op(self.shooter)
        _, rules = self.profile(w)
        if rules.has("Limited"):  # once per battle, whichever profile (12 Limited)
            key = primary_weapon_name(w, o, self.weapon)
            uses = dict(o.limited)
            uses[key] = uses.get(key, 0) + 1
            w.set_op(o.id, limited=tuple(sorted(uses.items())))
        w.stack.pop()
        w.emit("shoot_ended", op=self.shooter, weapon=self.weapon)

    # -- Torrent and Fusillade ---------------------------------------------------------------

    def torrent_candidates(self, w: Work) -> list[str]:
        """Torrent x: the other valid targets within x of the primary target or of a target
        already added (the chain, 12 Torrent), not yet chosen."""
        o = w.op(self.shooter)
        _, rules = self.profile(w)
        x = float(rules.value("Torrent") or 0.0)
        chosen = [w.op(i) for i in self.targets]
        out = []
        for t in w.enemies_of(o.id):
            if t.id in self.targets:
                continue
            if not any(_distance(w, c, t) <= x + 1e-6 for c in chosen):
                continue
            if target_reason(w, o, t, _rng(rules), indirect=rules.has("Indirect")) is None:
                out.append(t.id)
        return out

    def _torrent_refusal(self, a: Action) -> str:
        """Why ``a`` is not a Torrent choice (12 Torrent)."""
        return (
            f"{a} is not possible: choose 'Done' or 'Also <target>', a valid target "
            "within x of the target or of one added (rules/KT21.md 12 Torrent)"
        )

    def fusillade_candidates(self, w: Work) -> list[str]:
        """Fusillade: the other valid targets within 2" of the target (12)."""
        o = w.op(self.shooter)
        _, rules = self.profile(w)
        primary = w.op(self.targets[0])
        return [
            t.id
            for t in w.enemies_of(o.id)
            if t.id != primary.id
            and _distance(w, primary, t) <= FUSILLADE_RANGE + 1e-6
            and target_reason(w, o, t, _rng(rules), indirect=rules.has("Indirect")) is None
        ]

    def fusillade_options(self, w: Work) -> list[Action]:
        """Each split of the attack dice: ``Split k0 k1 ...`` (dice on the primary, then on
        each candidate in order), the primary getting at least one."""
        others = self.fusillade_candidates(w)
        a = self.attacks(w, self.targets[0])
        out = []
        for rest in product(range(a + 1), repeat=len(others)):
            first = a - sum(rest)
            if first >= 1:
                out.append(Action("Split", values=(first, *rest)))
        return out

    # -- decisions and rolls -----------------------------------------------------------------

    def options(self, w: Work) -> list[Action]:
        st = self.stage
        if st == "torrent":
            return self._torrent_options(w)
        if st == "fusillade":
            return self.fusillade_options(w)
        if st == "attack_reroll":
            return kt21_reroll_options(self.windows[0], self.dice, self.flags)
        if st == "invulnerable":
            return [Action("Save", text="invulnerable"), Action("Save", text="normal")]
        if st == "cover":
            return [Action("Cover save", text="normal"), Action("Cover save", text="none")]
        return self._dice_window_options(w)

    def act(self, w: Work, a: Action) -> None:
        st = self.stage
        if st in ("torrent", "fusillade", "invulnerable", "cover"):
            legal = self.options(w) if st != "torrent" else None
            self._act_choice(w, a, legal)
            return
        self._act_dice_steps(w, a)

    def _act_choice(self, w: Work, a: Action, legal: list[Action] | None) -> None:
        st = self.stage
        if st == "torrent":
            self._act_torrent(w, a)
            return
        assert legal is not None
        if a not in legal:
            raise _illegal(
                f"{a} is not possible now: choose one of {', '.join(str(x) for x in legal)} "
                f"(rules/KT21.md {'12 Fusillade' if st == 'fusillade' else '10.1-10.3'})"
            )
        if st == "fusillade":
            others = self.fusillade_candidates(w)
            ids = [self.targets[0], *others]
            chosen = [(i, k) for i, k in zip(ids, a.values, strict=True) if k > 0]
            w.replace_top(
                stage="begin",
                targets=tuple(i for i, _ in chosen),
                split=tuple(k for _, k in chosen),
            )
        elif st == "invulnerable":
            w.replace_top(invulnerable=a.text == "invulnerable", stage="cover")
        else:
            kept = self._cover_dice(w, self._pool(w)[0]) if a.text == "normal" else 0
            w.replace_top(kept=kept, stage="defence_roll")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        self._rolled_dice(w, values)
