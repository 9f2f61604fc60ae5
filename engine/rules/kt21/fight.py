"""The KT21 Fight action as a frame (``rules/KT21.md`` 11, 12, 4.4, DC 16.17, 16.18, 16.21).

:class:`Kt21FightFrame`: the attacker's melee weapon is in the action; the defender selects
one (its ``kt21_fight_weapon`` decision when it has several; none: it rolls no dice, DC
16.17); both roll against WS improved by combat support (+1 per other friendly within
Engagement Range of the enemy and not within Engagement Range of another enemy, with a
melee weapon, DC 16.17) and worsened when injured; weapon re-rolls (Relentless, Ceaseless
1s, Balanced) and the ``attack_dice`` ploy windows (Command Re-roll), each side in turn from
the attacker until both pass; Lethal and Rending; MWx on the opponent per retained crit.
Then the sides alternate from the attacker, resolving one die at a time (the
``kt21_fight_resolve`` decision): strike (damage) or parry (``Block`` in the notation, as
KT24's: a normal parries a normal hit, a critical parries either; with Brutal against it
only a crit parries; a parry with nothing left to parry is allowed, DC 16.21; a fighter
with a "parry discards two" rule, the ``kt21_parry_discards`` hook, discards two hits per
parry, DC 16.16). Stun: the
first critical strike also discards one of the opponent's normal hits, the second gives it
APL -1; Reap x: each critical strike inflicts x mortal wounds on each other enemy of the
striker Visible to it and within 1" of it or of its opponent. The fight stops as soon as
either fighter is incapacitated (its dice are lost, DC 16.18); there are no saves in melee.

A roll *as if fighting in combat* (a unique action, DC 16.25) is this same frame begun by
:func:`begin_fight` with ``as_if``: the target selects no weapon and rolls no dice, combat
support still counts for the attacker, and its strikes incapacitate in combat.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from engine.dice.kt21_rules import Kt21WeaponRules
from engine.game.actions import Action, IllegalActionError
from engine.game.attack_frames import (
    FightSteps,
    apply_block,
    block_options,
    fight_helpers,
    open_fight,
    strike_options,
)
from engine.game.bookkeeping import enemy_operative, spend
from engine.game.damage import inflict
from engine.game.state import Effect, OperativeState
from engine.game.weapons import find_weapon, weapons_of
from engine.game.work import Work
from engine.rules.kt21.attack_dice import (
    attacks21,
    check_reroll,
    damage21,
    hit_change21,
    hit_threshold,
    kt21_reroll_options,
    reroll_windows,
    retain_attack_dice,
    weapon_rules21,
)
from engine.rules.kt21.attack_sight import engagement_range, visible
from engine.rules.kt21.die_damage import inflict_dice
from engine.teams.model import WeaponProfile

__all__ = [
    "REAP_RANGE",
    "Kt21FightFrame",
    "begin_fight",
    "combat_support",
    "fight_options",
    "start_fight",
]

REAP_RANGE = 1.0
"""Reap x reaches enemies within ▲ (1") of the striker or of its opponent (12)."""


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


def _melee(w: Work, o: OperativeState) -> list[str]:
    return [n for n, _, _ in weapons_of(w, o.id, "melee")]


def combat_support(w: Work, helped: OperativeState, enemy: OperativeState) -> list[str]:
    """The ids of the operatives giving ``helped`` combat support against ``enemy``
    (``rules/KT21.md`` 11 step 3): other friendlies of ``helped`` within Engagement Range of
    ``enemy`` and not within Engagement Range of any other enemy, that have a melee weapon
    (DC 16.17), in the state's operative order. Each improves ``helped``'s WS by 1."""
    return fight_helpers(w, helped, enemy, engagement_range, lambda f: bool(_melee(w, f)))


def fight_options(w: Work, o: OperativeState) -> list[Action]:
    """The Fight actions ``o`` may take: each melee weapon profile at each enemy within its
    Engagement Range (11 step 1-2). An operative with no melee weapon is offered none (it
    would roll no dice, DC 16.17)."""
    targets = [e for e in w.enemies_of(o.id) if engagement_range(w, o, e)]
    return [
        Action("Fight", op=o.id, weapon=name, target=t.id) for name in _melee(w, o) for t in targets
    ]


def start_fight(w: Work, o: OperativeState, a: Action, mode: str) -> None:
    """Validate a KT21 Fight and begin it (11 steps 1-2): AP spent, combat support counted
    for both sides now, the defender's weapon chosen next when it has several.

    Raises:
        IllegalActionError: no such melee weapon, or the target is not an enemy within
            Engagement Range."""
    name, _, _ = find_weapon(w, o, a.weapon, "melee")
    t = enemy_operative(w, a.target, o.player)
    if not engagement_range(w, o, t):
        raise _illegal(
            f"{t.id} is not within {o.id}'s Engagement Range: Fight needs one (rules/KT21.md 11)"
        )
    spend(w, o, "Fight", mode)
    w.emit("fight_declared", op=o.id, weapon=name, target=t.id)
    begin_fight(w, o, t, name)


def begin_fight(
    w: Work, o: OperativeState, t: OperativeState, name: str, *, as_if: str = ""
) -> None:
    """Push the :class:`Kt21FightFrame` of ``o`` fighting ``t`` with its melee weapon ``name``
    (11 steps 2-3; the action's AP already spent): combat support counted for both sides now,
    the defender's weapon chosen next when it has several.

    With ``as_if`` (the name of the rule, e.g. a unique action), ``o`` rolls its attack dice
    *as if fighting in combat* (DC 16.25): ``t`` is not fighting (it selects no weapon, rolls
    no dice and never strikes), combat support still improves ``o``'s WS, and an enemy
    incapacitated by its strikes is incapacitated in combat (the frame is the same, so the
    rules that watch a fight see it)."""
    usable = [] if as_if else _melee(w, t)
    dweapon = usable[0] if len(usable) == 1 else ""
    a_by = tuple(combat_support(w, o, t))
    d_by = tuple(combat_support(w, t, o)) if usable else ()
    frame = Kt21FightFrame(
        attacker=o.id,
        defender=t.id,
        aweapon=name,
        dweapon=dweapon,
        stage="retaliate" if len(usable) > 1 else "a_roll",
        a_support=len(a_by),
        d_support=len(d_by),
        a_injured=w.injury_penalties(o),
        d_injured=w.injury_penalties(t),
        as_if=as_if,
    )
    # Combat support: WS improved by 1 per supporter (11 step 3).
    open_fight(w, frame, o, t, a_by, d_by, retaliates=bool(usable))


def _other(side: str) -> str:
    return "d" if side == "a" else "a"


@attrs.frozen(slots=True)
class Kt21FightFrame(FightSteps):
    """A KT21 Fight in progress (module docstring; 11); the steps both editions share
    (sides, re-rolls, re-rolled dice, blocks) are :class:`~engine.game.attack_frames.FightSteps`.

    Stages: ``retaliate``, ``a_roll``, ``d_roll``, ``rerolls``, ``retain``, ``resolve``,
    ``end``. Side ``"a"`` is the attacker, ``"d"`` the defender; ``an``/``ac`` and
    ``dn``/``dc`` their retained normal and critical hits; ``turn`` the side resolving next;
    ``a_crits``/``d_crits`` the critical strikes each has made (Stun); ``as_if`` the rule by
    which the attacker rolls as if fighting in combat (``""``: a Fight; DC 16.25: the defender
    has no weapon and no dice, and the attacker's hits can only strike)."""

    attacker: str
    defender: str
    aweapon: str
    dweapon: str
    stage: str
    a_support: int = 0
    d_support: int = 0
    a_injured: bool = False
    d_injured: bool = False
    adice: tuple[int, ...] = ()
    aflags: tuple[bool, ...] = ()
    ddice: tuple[int, ...] = ()
    dflags: tuple[bool, ...] = ()
    a_windows: tuple[str, ...] = ()
    d_windows: tuple[str, ...] = ()
    rturn: str = "a"
    passes: int = 0
    an: int = 0
    ac: int = 0
    dn: int = 0
    dc: int = 0
    turn: str = "a"
    a_crits: int = 0
    d_crits: int = 0
    pending: tuple[int, ...] = ()
    pending_flags: tuple[bool, ...] = ()
    rerolling: str = ""
    as_if: str = ""

    REROLL_RULE: ClassVar[str] = "rules/KT21.md 4.3"

    # -- helpers ---------------------------------------------------------------------------

    def _weapon_reroll_options(
        self, kind: str, dice: tuple[int, ...], flags: tuple[bool, ...]
    ) -> list[Action]:
        """The choices of the weapon re-roll window ``kind`` (:func:`kt21_reroll_options`)."""
        return kt21_reroll_options(kind, dice, flags)

    def _check_weapon_reroll(self, w: Work, side: str, a: Action) -> None:
        """Refuse ``a`` unless ``side``'s next weapon re-roll window allows it (12, 4.3).

        Raises:
            IllegalActionError: no window left, or dice the rule cannot re-roll."""
        del w
        wins = self.a_windows if side == "a" else self.d_windows
        if not wins:
            raise _illegal(
                f"{a}: {self.op_of(side)}'s weapon has no re-roll rule left (rules/KT21.md 12)"
            )
        check_reroll(wins[0], a, *self._dice(side))

    def profile(self, w: Work, side: str) -> tuple[WeaponProfile, Kt21WeaponRules]:
        """``side``'s melee weapon profile and its KT21 rules."""
        o = w.op(self.op_of(side))
        name, _, prof = find_weapon(w, o, self.weapon_of(side), "melee")
        return prof, weapon_rules21(w, o, name, prof)

    def ws(self, w: Work, side: str) -> int:
        """``side``'s WS: injured +1 worse, combat support 1 better each (11 step 3)."""
        prof, _ = self.profile(w, side)
        o = w.op(self.op_of(side))
        injured = self.a_injured if side == "a" else self.d_injured
        name = find_weapon(w, o, self.weapon_of(side), "melee")[0]
        change = hit_change21(w, o, name, "melee", self.op_of(_other(side)), injured=injured)
        return hit_threshold(
            w,
            o,
            prof,
            injured=injured,
            worsen=change,
            support=self.a_support if side == "a" else self.d_support,
        )

    def _over(self, w: Work) -> bool:
        return not w.op(self.attacker).alive or not w.op(self.defender).alive

    # -- frame protocol --------------------------------------------------------------------

    def run(self, w: Work) -> None:
        st = self.stage
        if st == "retaliate":
            w.decide(self.owner(w, "d"), "kt21_fight_weapon")
        elif st in ("a_roll", "d_roll"):
            side = st[0]
            if not self.weapon_of(side):
                self._after_roll(w, side, ())
                return
            prof, _ = self.profile(w, side)
            o = w.op(self.op_of(side))
            name = find_weapon(w, o, self.weapon_of(side), "melee")[0]
            n = attacks21(w, o, name, prof, "melee", self.op_of(_other(side)))
            if n <= 0:
                self._after_roll(w, side, ())
                return
            w.roll("attack", self.owner(w, side), n, label=f"attack dice ({self.weapon_of(side)})")
        elif st == "rerolls":
            self._run_rerolls(w)
        elif st == "retain":
            self._retain(w)
        elif st == "resolve":
            player = self._next_to_resolve(w, done="end")
            if player is not None:
                w.decide(player, "kt21_fight_resolve")
        else:
            w.stack.pop()
            w.emit("fight_ended", op=self.attacker, target=self.defender)

    def _start_rerolls(self, w: Work) -> None:
        """Both rolls are in: the sides alternate re-rolling from the attacker, each with its
        weapon's re-roll windows (11 step 3, 12)."""
        top = w.top
        a_rules = top.profile(w, "a")[1]
        d_rules = top.profile(w, "d")[1] if top.dweapon else Kt21WeaponRules()
        w.replace_top(
            stage="rerolls",
            rturn="a",
            passes=0,
            a_windows=reroll_windows(a_rules),
            d_windows=reroll_windows(d_rules),
        )

    def _retain(self, w: Work) -> None:
        """Both sides' hits (Lethal, Rending), then MWx on the opponent (12)."""
        out: dict[str, int] = {}
        for side in ("a", "d"):
            n = c = 0
            if self.weapon_of(side):
                _, rules = self.profile(w, side)
                n, c, _ = retain_attack_dice(self._dice(side)[0], self.ws(w, side), rules)
            out[f"{side}n"], out[f"{side}c"] = n, c
        # The attacker first unless a rule says otherwise (e.g. Vicious Reflexes).
        w.replace_top(**out, stage="resolve", turn=self._first_to_resolve(w))
        for side in ("a", "d"):
            if self.weapon_of(side):
                w.emit(
                    "attack_retained",
                    op=self.op_of(side),
                    target=self.op_of(_other(side)),
                    normals=out[f"{side}n"],
                    crits=out[f"{side}c"],
                    obscured=False,
                )
        for side in ("a", "d"):
            if not self.weapon_of(side) or not out[f"{side}c"]:
                continue
            _, rules = self.profile(w, side)
            mw = int(rules.value("MW") or 0)
            if mw:
                target = self.op_of(_other(side))
                inflict(w, target, mw * out[f"{side}c"], f"MW{mw}", by=self.op_of(side))

    # -- decisions and rolls -----------------------------------------------------------------

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        self._rolled_dice(w, values)

    def options(self, w: Work) -> list[Action]:
        st = self.stage
        if st == "retaliate":
            return [
                Action("Retaliate", op=self.defender, weapon=n)
                for n in _melee(w, w.op(self.defender))
            ]
        if st == "rerolls":
            return [Action("Decline"), *self._reroll_choices(w, self.rturn)]
        if st == "resolve":
            return self._resolve_options(w)
        return []

    def _resolve_options(self, w: Work) -> list[Action]:
        """Strike or parry with one of the side's dice (11 step 4); Brutal against it: only
        crits parry; parrying nothing is allowed (DC 16.21)."""
        side = self.turn
        mine, theirs = self._successes(side)
        brutal = bool(self.weapon_of(_other(side))) and self.profile(w, _other(side))[1].has(
            "Brutal"
        )
        out = strike_options(mine)
        if self.as_if:  # the target is not fighting: nothing to parry (DC 16.25)
            return out
        if self._parry_discards(w, side) >= 2 and theirs[0] + theirs[1] >= 2:
            return out + _parries_of_two(mine, theirs, brutal)

        def crit_with_normal() -> bool:  # a rule letting a normal parry a crit, e.g. Parry Hook*
            return "would_block_crit_with_normal" in w.ctx.hooks.would and bool(
                w.would(
                    "would_block_crit_with_normal",
                    False,
                    op=self.op_of(side),
                    target=self.op_of(_other(side)),
                )
            )

        # Against Brutal only a crit parries, even with nothing left to parry (12 Brutal).
        return out + block_options(
            mine, theirs, brutal, crit_with_normal, brutal_bars_normal_on_nothing=True
        )

    def act(self, w: Work, a: Action) -> None:
        st = self.stage
        if st == "retaliate":
            legal = self.options(w)
            if a not in legal:
                raise _illegal(
                    f"{a} is not possible: {self.defender} selects one of its melee weapons "
                    f"({', '.join(str(x) for x in legal)}; rules/KT21.md 11 step 2)"
                )
            w.replace_top(dweapon=a.weapon, stage="a_roll")
            w.emit("retaliation_weapon", op=self.defender, weapon=a.weapon)
            return
        if st == "rerolls":
            self._act_reroll(w, a)
            return
        if st != "resolve":
            raise _illegal(f"{a} is not possible now (rules/KT21.md 11)")
        legal = self._resolve_options(w)
        if a not in legal:
            raise _illegal(
                f"{a} is not possible: the hits left allow {', '.join(str(x) for x in legal)} "
                "(rules/KT21.md 11 step 4, 12 Brutal)"
            )
        self._resolve(w, a)

    def _resolve(self, w: Work, a: Action) -> None:
        side, opp = self.turn, _other(self.turn)
        me, them = self.op_of(side), self.op_of(opp)
        (n, c), (on, oc) = self._successes(side)
        changes: dict[str, int] = {}
        if a.verb == "Strike":
            crit = a.text == "crit"
            prof, rules = self.profile(w, side)
            if crit:
                c -= 1
                count = (self.a_crits if side == "a" else self.d_crits) + 1
                changes[f"{side}_crits"] = count
                if rules.has("Stun") and count == 1 and on:
                    on -= 1  # the first critical strike discards a normal hit (12 Stun)
                elif rules.has("Stun") and count == 2 and w.op(them).alive:
                    w.add_effect(Effect("apl", them, "end_next_activation", source=me, value=-1))
                    w.emit("stunned", op=them, by=me)
            else:
                n -= 1
            w.emit("strike", op=me, die=a.text)
            inflict_dice(  # the strike's die: its own and added damage (DC 16.23)
                w,
                op=me,
                target=them,
                weapon=find_weapon(w, w.op(me), self.weapon_of(side), "melee")[0],
                kind="melee",
                source=self.weapon_of(side),
                damage=self._damage(w, side, prof),
                normals=0 if crit else 1,
                crits=1 if crit else 0,
            )
            reap = int(rules.value("Reap") or 0)
            if crit and reap:
                self._reap(w, me, them, reap)
        else:
            (n, c), (on, oc) = apply_block(w, me, a.text, (n, c), (on, oc))
        changes.update({f"{side}n": n, f"{side}c": c, f"{opp}n": on, f"{opp}c": oc})
        w.replace_top(**changes)
        self._pass_turn(w, opp)

    def _parry_discards(self, w: Work, side: str) -> int:
        """How many retained hits one parry of ``side`` discards: 1, or what the
        ``kt21_parry_discards`` *would* hooks say (a "parry discards two" rule, DC 16.16)."""
        if "kt21_parry_discards" not in w.ctx.hooks.would:
            return 1
        got = w.would(
            "kt21_parry_discards", 1, op=self.op_of(side), target=self.op_of(_other(side))
        )
        return int(got)

    def _damage(self, w: Work, side: str, prof: WeaponProfile) -> tuple[int, int]:
        """``side``'s melee Damage (normal, critical) for a strike (:func:`damage21`)."""
        o = w.op(self.op_of(side))
        return damage21(w, o, find_weapon(w, o, self.weapon_of(side), "melee")[0], prof, "melee")

    def _reap(self, w: Work, me: str, them: str, x: int) -> None:
        """Reap x: x mortal wounds on each other enemy of ``me`` Visible to it and within 1"
        of it or of ``them`` (12)."""
        o, t = w.op(me), w.op(them)
        for e in w.enemies_of(me):
            if e.id == them:
                continue
            near = min(w.distance(w.place(o), w.place(e)), w.distance(w.place(t), w.place(e)))
            if near <= REAP_RANGE + 1e-6 and visible(w, o, e):
                inflict(w, e.id, x, f"Reap {x}", by=me)


def _parries_of_two(mine: tuple[int, int], theirs: tuple[int, int], brutal: bool) -> list[Action]:
    """The parries of a fighter whose parry discards two (DC 16.16, ``rules/KT21.md`` 11 step
    4) when the opponent has at least two retained hits left (``mine``/``theirs``: retained
    ``(normals, crits)``): a normal parry discards two normal hits (none with Brutal against
    it), a critical parry any two (``Block crit and normal with crit``...). With fewer than
    two hits left the usual parries apply (one hit is discarded)."""
    out = []
    if mine[1]:
        if theirs[1] >= 2:
            out.append(Action("Block", text="crit and crit with crit"))
        if theirs[1] and theirs[0]:
            out.append(Action("Block", text="crit and normal with crit"))
        if theirs[0] >= 2:
            out.append(Action("Block", text="normal and normal with crit"))
    if mine[0] and not brutal:
        if theirs[0] >= 2:
            out.append(Action("Block", text="normal and normal with normal"))
        elif theirs[0] == 1:
            out.append(Action("Block", text="normal with normal"))
    return out
