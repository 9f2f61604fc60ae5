"""The KT18 attack sequence as frames (``rules/KT18.md`` 5.4-5.7, 5.10, 6.1-6.10, 7.5, 7.6,
3.11): one weapon's attacks, from the number of attacks to the Injury roll.

:class:`VolleyFrame` (one weapon fired, or one fighter's close combat attacks):

1. the number of attacks: the weapon's shots (5.7) or the fighter's A (7.5); a random number
   is rolled first (``kt18_shots``), before the targets are split (5.5, 5.7);
2. more targets (``kt18_more_targets``: ``Also LEG-3`` / ``Done``), asked only with 2+
   attacks and another eligible target: for a ranged weapon an eligible enemy within 2" of the
   initial target (5.5, reading (b)), for close combat another valid fight target (7.5); never
   in an Overwatch (all attacks at the charger, 3.11) nor for a Pistol fired within 1" of an
   enemy (the closest enemy only, 5.12);
3. Rapid Fire's doubling once the targets are fixed (5.10; 5.5 reading: targets, doubling,
   then the split);
4. the split (``kt18_split``: ``Split 2,1``, each target at least one attack) when there are
   several targets; then one :class:`AttackFrame` per target, in the order chosen (all the
   attacks on one target are resolved before the next, 5.5).

:class:`AttackFrame` (the attacks on one target, 6.1; the dice are batched as Fast Dice Rolling
allows, 5.6, since they share the skill, modifiers, S, AP, D and target): all the hit rolls
(``kt18_hit``: an unmodified 1 misses, a 6 hits, else face + modifiers >= BS/WS; Overwatch only
on a 6), all the wound rolls (``kt18_wound``, 6.5), then one saving throw at a time
(``kt18_save``, the better of the armour save with AP and the invulnerable save, 6.6, 6.7),
each failed one inflicting its Damage (``kt18_damage`` when random, rolled per attack, 6.8);
at 0 wounds the attacks left are discarded and the attacking player makes the Injury roll of D
dice (6.9, 6.10) with the -1 of 6.9 for a shooting attack at an obscured model behind cover.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import attrs

from engine.dice.kt18_rolls import (
    best_save,
    hit_succeeds,
    injury_dice,
    overwatch_hit,
    save_succeeds,
    wound_succeeds,
    wound_target,
)
from engine.dice.kt18_values import RandomValue, parse_random_value
from engine.game.actions import Action, IllegalActionError
from engine.game.work import Work
from engine.rules.kt18 import sight
from engine.rules.kt18.weapons import (
    WITHIN,
    distance,
    find_kt18_weapon,
    kt18_profile,
    melee_hit_modifier,
    melee_targets,
    rapid_fire_doubles,
    shooting_hit_modifier,
    target_refusal,
    within_1_of_enemy,
)
from engine.rules.kt18.wounds import lose_wounds
from engine.teams.kt18_cards import Kt18Weapon

__all__ = ["MAX_SHARE", "MAX_SPLITS", "SPLIT_RANGE", "AttackFrame", "VolleyFrame", "splits"]

SPLIT_RANGE = 2.0
"""Other targets of a ranged weapon are within 2" of the initial target (5.5)."""
MAX_SPLITS = 1000
"""The most ways of splitting attacks a decision lists: a target is offered only while the
split it adds stays within this bound (bounds the work of one decision)."""
MAX_SHARE = 99
"""The most attacks one target of a split may get in the notation (``Split 12,3``: at most
two digits each); a target is offered only while every split of the attacks can be written
so (the bound on the splits listed, :data:`MAX_SPLITS`, binds long before)."""


def splits(n: int, k: int) -> list[tuple[int, ...]]:
    """Every way of giving ``n`` attacks to ``k`` targets in order, each at least one (5.5):
    tuples summing to ``n``, in lexicographic order of the cut points."""
    if k <= 0 or n < k:
        return []
    out = []
    for cuts in combinations(range(1, n), k - 1):
        edges = (0, *cuts, n)
        out.append(tuple(edges[i + 1] - edges[i] for i in range(k)))
    return out


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


@attrs.frozen(slots=True)
class VolleyFrame:
    """One weapon's attacks being declared (module docstring).

    Attributes:
        attacker: the model. weapon: the weapon's notation name. kind: ``"ranged"`` or
            ``"melee"``. targets: the targets, the initial one first. overwatch: an Overwatch
            (3.11). shots: the number of attacks (``-1`` until known). stage: ``"shots"``,
            ``"targets"`` or ``"split"``.
    """

    attacker: str
    weapon: str
    kind: str
    targets: tuple[str, ...]
    overwatch: bool = False
    shots: int = -1
    stage: str = "shots"

    def profile(self, w: Work) -> Kt18Weapon:
        """The weapon's KT18 profile."""
        return find_kt18_weapon(w, self.attacker, self.weapon, self.kind)

    def value(self, w: Work) -> RandomValue:
        """The printed number of attacks: the weapon's shots (5.7) or the fighter's A (7.5)."""
        if self.kind == "melee":
            return kt18_profile(w, self.attacker).attacks_value()
        return self.profile(w).shots_value()

    def candidates(self, w: Work) -> list[str]:
        """The other targets that may be added (module docstring, step 2): each one only
        while the attacks, counted with it among the targets (Rapid Fire doubled when every
        target is within half Range, 5.10), still give every target at least one (5.5: a
        Rapid Fire 1 weapon within half Range splits its 2 attacks)."""
        if self.overwatch or self.shots < 1:
            return []
        o = w.op(self.attacker)
        k = len(self.targets) + 1
        if self.kind == "melee":
            ids = [t for t in melee_targets(w, o) if t not in self.targets]
            counts = dict.fromkeys(ids, self.shots)
        else:
            wp = self.profile(w)
            if wp.type == "Pistol" and within_1_of_enemy(w, o):
                return []
            first = w.op(self.targets[0])
            chosen = [w.op(t) for t in self.targets]
            counts = {
                t.id: self.shots * (2 if rapid_fire_doubles(w, o, wp, [*chosen, t]) else 1)
                for t in w.enemies_of(o.id)
                if t.id not in self.targets
                and distance(w, first, t) <= SPLIT_RANGE + WITHIN
                and target_refusal(w, o, t, wp) is None
            }
        most = self.shots * (2 if self.kind == "ranged" else 1)  # Rapid Fire may double them
        if comb(most - 1, k - 1) > MAX_SPLITS or most > MAX_SHARE * k:
            return []
        return [t for t, n in counts.items() if n >= k]

    def total(self, w: Work) -> int:
        """The attacks once the targets are fixed: doubled by Rapid Fire (5.10)."""
        if self.kind == "melee":
            return self.shots
        o = w.op(self.attacker)
        targets = [w.op(t) for t in self.targets]
        return self.shots * 2 if rapid_fire_doubles(w, o, self.profile(w), targets) else self.shots

    def run(self, w: Work) -> None:
        """Advance through the stages (module docstring)."""
        o = w.op(self.attacker)
        if self.stage == "shots":
            value = self.value(w)
            if not value.fixed:
                label = f"{value.format()} attacks ({self.weapon})"
                w.roll("kt18_shots", o.player, value.dice, label=label)
                return
            w.replace_top(shots=value.bonus, stage="targets")
        elif self.stage == "targets":
            if self.candidates(w):
                w.decide(o.player, "kt18_more_targets")
            else:
                w.replace_top(stage="split")
        elif self.stage == "split":
            n = self.total(w)
            if len(self.targets) == 1 or n <= 0:
                self._resolve(w, (n,) if len(self.targets) == 1 else ())
            else:
                w.decide(o.player, "kt18_split")

    def options(self, w: Work) -> list[Action]:
        """``Also <target>`` and ``Done`` (step 2), or each ``Split`` (step 4)."""
        if self.stage == "targets":
            return [Action("Also", target=t) for t in self.candidates(w)] + [Action("Done")]
        if self.stage == "split":
            return [
                Action("Split", values=v)
                for v in splits(self.total(w), len(self.targets))
                if max(v) <= MAX_SHARE
            ]
        return []

    def act(self, w: Work, a: Action) -> None:
        """Apply a target added, ``Done`` or a split.

        Raises:
            IllegalActionError: ``a`` is not one of :meth:`options` (naming the rule)."""
        legal = self.options(w)
        if a not in legal:
            rule = "5.5" if self.kind == "ranged" else "7.5"
            raise _illegal(
                f"{a} is not possible now: choose one of {', '.join(str(x) for x in legal)} "
                f"(rules/KT18.md {rule})"
            )
        if a.verb == "Also":
            w.replace_top(targets=(*self.targets, a.target))
        elif a.verb == "Done":
            w.replace_top(stage="split")
        else:
            self._resolve(w, a.values)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """The random number of attacks is rolled (5.7, 7.5)."""
        w.replace_top(shots=self.value(w).value(tuple(values)), stage="targets")

    def _resolve(self, w: Work, split: tuple[int, ...]) -> None:
        """Emit ``kt18_weapon_fired`` and push an :class:`AttackFrame` per target (in order)."""
        w.stack.pop()
        o = w.op(self.attacker)
        wp = self.profile(w)
        card = kt18_profile(w, o.id)
        w.emit(
            "kt18_weapon_fired",
            op=o.id,
            weapon=self.weapon,
            targets=self.targets,
            attacks=tuple(split),
            overwatch=self.overwatch,
        )
        frames = []
        for t_id, n in zip(self.targets, split, strict=True):
            t = w.op(t_id)
            if self.kind == "melee":
                skill, mod = card.ws, melee_hit_modifier(w, o, t)
            else:
                skill, mod = card.bs, shooting_hit_modifier(w, o, t, wp)
            frames.append(
                AttackFrame(
                    attacker=o.id,
                    target=t_id,
                    weapon=self.weapon,
                    kind=self.kind,
                    attacks=n,
                    skill=skill,
                    modifier=mod,
                    overwatch=self.overwatch,
                    strength=wp.strength_for(card.strength),
                    ap=wp.ap,
                    damage=wp.damage,
                )
            )
        w.stack.extend(reversed(frames))


@attrs.frozen(slots=True)
class AttackFrame:
    """The attacks of one weapon on one target in progress (module docstring).

    Attributes:
        attacker, target: the models. weapon: its notation name. kind: ``"ranged"`` or
            ``"melee"``. attacks: how many. skill: BS or WS (0 "-": never hits). modifier: the
            summed hit modifiers. overwatch: hits only on a 6 (3.11). strength, ap, damage:
            the attack's S, AP and printed D. stage: ``"hit"``, ``"wound"``, ``"save"`` or
            ``"damage"``. left: hits to wound, or wounding attacks left to save.
    """

    attacker: str
    target: str
    weapon: str
    kind: str
    attacks: int
    skill: int
    modifier: int
    overwatch: bool
    strength: int
    ap: int
    damage: str
    stage: str = "hit"
    left: int = 0

    def _damage_value(self) -> tuple[int, int, str]:
        """``(fixed value or -1, dice, text)`` of the printed D (6.8)."""
        v = parse_random_value(self.damage, "D")
        return (v.bonus if v.fixed else -1), v.dice, v.format()

    def run(self, w: Work) -> None:
        """Roll the next dice (module docstring)."""
        t = w.op(self.target)
        if not t.alive or (self.stage != "hit" and self.left <= 0) or self.attacks <= 0:
            w.stack.pop()  # out of action: the attacks left are discarded (6.8)
            return
        attacker_player = w.ctx.owner[self.attacker]
        if self.stage == "hit":
            w.roll("kt18_hit", attacker_player, self.attacks, label=f"hit rolls ({self.weapon})")
        elif self.stage == "wound":
            w.roll("kt18_wound", attacker_player, self.left, label=f"wound rolls ({self.weapon})")
        elif self.stage == "save":
            w.roll("kt18_save", t.player, 1, label=f"saving throw ({t.id})")
        else:
            _, dice, text = self._damage_value()
            w.roll("kt18_damage", attacker_player, dice, label=f"Damage {text} ({self.weapon})")

    def options(self, w: Work) -> list[Action]:  # pragma: no cover - chance nodes only
        """No decision here."""
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover - chance nodes only
        """Never called.

        Raises:
            IllegalActionError: always."""
        raise _illegal("no decision while attacks are rolled (rules/KT18.md 6.1)")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """Apply the dice of the current step (6.2-6.8)."""
        t = w.op(self.target)
        if self.stage == "hit":
            if self.overwatch:
                hits = sum(1 for f in values if overwatch_hit(f))
            else:
                hits = sum(1 for f in values if hit_succeeds(f, self.skill, self.modifier))
            w.emit(
                "kt18_hit_roll",
                op=self.attacker,
                target=t.id,
                weapon=self.weapon,
                dice=tuple(values),
                needed=0 if self.overwatch else self.skill,
                modifier=0 if self.overwatch else self.modifier,
                hits=hits,
            )
            w.replace_top(stage="wound", left=hits)
        elif self.stage == "wound":
            card = kt18_profile(w, t.id)
            needed = wound_target(self.strength, card.toughness)
            wounds = sum(1 for f in values if wound_succeeds(f, needed))
            w.emit(
                "kt18_wound_roll",
                op=self.attacker,
                target=t.id,
                weapon=self.weapon,
                dice=tuple(values),
                needed=needed,
                wounds=wounds,
            )
            w.replace_top(stage="save", left=wounds)
        elif self.stage == "save":
            card = kt18_profile(w, t.id)
            face = values[0]
            saved = save_succeeds(face, card.save, self.ap, card.invulnerable)
            kind = _save_kind(card.save, self.ap, card.invulnerable)
            w.emit(
                "kt18_saving_throw",
                op=self.attacker,
                target=t.id,
                face=face,
                save=kind,
                saved=saved,
            )
            if saved:
                w.replace_top(left=self.left - 1)
                return
            fixed, _, _ = self._damage_value()
            if fixed >= 0:
                self._inflict(w, fixed)
            else:
                w.replace_top(stage="damage")
        else:
            self._inflict(w, parse_random_value(self.damage, "D").value(tuple(values)))

    def _inflict(self, w: Work, damage: int) -> None:
        """One failed save: ``damage`` wounds lost (6.8); at 0 the attacks left are discarded
        and the Injury roll is pushed (6.9, 6.10)."""
        w.replace_top(stage="save", left=self.left - 1)
        modifier = 0
        if self.kind == "ranged" and sight.injury_cover(w, self.attacker, self.target):
            modifier = -1
        if lose_wounds(
            w,
            self.target,
            damage,
            by=self.attacker,
            source=self.weapon,
            roller=w.ctx.owner[self.attacker],
            injury_die_count=injury_dice(damage),
            injury_modifier=modifier,
        ):
            # The Injury frame is on top; this frame, beneath it, has nothing left.
            w.stack[-2] = attrs.evolve(w.stack[-2], left=0)


def _save_kind(save: int, ap: int, invulnerable: int) -> str:
    """The save used (6.6, 6.7): ``"armour"``, ``"invulnerable"`` or ``"none"``."""
    return best_save(save, ap, invulnerable)[0]
