"""The Fight action as a frame (``rules/KT24.md`` 5.2, weapon rules 6, Command Re-roll 7.1,
EDGE_CASES 2, 3, 7-11): the listed Fight actions, assists, and :class:`FightFrame`. The
players' choices in the sequence are listed in the :mod:`engine.game.attacks` docstring.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.dice.profile import AttackProfile
from engine.game import ploys
from engine.game.actions import Action
from engine.game.attack_frames import (
    FightSteps,
    apply_block,
    block_options,
    fight_helpers,
    open_fight,
    strike_options,
)
from engine.game.attacks import (
    _after_weapon_use,
    _check_reroll,
    _illegal,
    _other_side,
    _reroll_windows,
    attack_profile,
    emit_upgrade,
    reroll_options,
)
from engine.game.bookkeeping import enemy_operative, spend
from engine.game.choices import (
    apply_retention_rule,
    retention_rule_applies,
    retention_rules,
    roll_retained,
)
from engine.game.damage import inflict
from engine.game.state import OperativeState
from engine.game.weapons import find_weapon, weapon_usable, weapons_of
from engine.game.work import Work

__all__ = [
    "FightFrame",
    "assistants",
    "assists",
    "fight_options",
    "fight_targets",
    "start_fight",
]


def fight_targets(w: Work, o: OperativeState) -> list[OperativeState]:
    """Enemies within ``o``'s control range (5.2 step 1)."""
    return [e for e in w.enemies_of(o.id) if w.control_range(o, e)]


def fight_options(w: Work, o: OperativeState) -> list[Action]:
    """Listed Fight actions of ``o``: each usable melee weapon at each enemy within its
    control range (3.2, 5.2)."""
    out: list[Action] = []
    targets = fight_targets(w, o)
    if not targets:  # (then no weapon needs checking)
        return out
    for name, _, prof in weapons_of(w, o.id, "melee"):
        if weapon_usable(w, o, name, prof) is not None:
            continue
        out.extend(Action("Fight", op=o.id, weapon=name, target=t.id) for t in targets)
    return out


def assists(w: Work, helped: OperativeState, enemy: OperativeState) -> int:
    """Other friendlies of ``helped`` within control range of ``enemy`` and of no other
    enemy (5.2 step 2)."""
    return len(assistants(w, helped, enemy))


def assistants(w: Work, helped: OperativeState, enemy: OperativeState) -> list[str]:
    """The ids of the operatives :func:`assists` counts, in the state's operative order."""
    return fight_helpers(w, helped, enemy, _in_control_range)


def _in_control_range(w: Work, a: OperativeState, b: OperativeState) -> bool:
    return w.control_range(a, b)


def start_fight(
    w: Work, o: OperativeState, a: Action, mode: str, *, verb: str = "Fight", forced: bool = False
) -> None:
    """Validate a Fight action and begin its sequence (5.2 steps 1-2).

    Raises:
        IllegalActionError: no such melee weapon, the target not an enemy within control
            range (unless ``forced``, e.g. Hatchway Fight), or the weapon unusable.
    """
    name, _, prof = find_weapon(w, o, a.weapon, "melee")
    why = weapon_usable(w, o, name, prof)
    if why:
        raise _illegal(why)
    t = enemy_operative(w, a.target, o.player)
    if not forced and not w.control_range(o, t):
        raise _illegal(f"{t.id} is not within {o.id}'s control range: Fight needs one (5.2)")
    spend(w, o, verb, mode)
    if o.on_guard:
        w.set_op(o.id, on_guard=False)
        w.emit("guard_ended", op=o.id, why="it performed an action")
    w.emit("fight_declared", op=o.id, weapon=name, target=t.id)
    can = not any(e.kind == "no_retaliate" and e.op == t.id for e in w.effects)
    melee = weapons_of(w, t.id, "melee") if can else []
    usable = [n for n, _, p in melee if weapon_usable(w, t, n, p) is None]
    dweapon = usable[0] if len(usable) == 1 else ""
    a_by, d_by = tuple(assistants(w, o, t)), tuple(assistants(w, t, o))
    frame = FightFrame(
        attacker=o.id,
        defender=t.id,
        aweapon=name,
        dweapon=dweapon,
        mode=mode,
        stage="retaliate" if len(usable) > 1 else "a_accurate",
        a_assist=len(a_by),
        d_assist=len(d_by),
        a_injured=w.injury_penalties(o),
        d_injured=w.injury_penalties(t),
    )
    # Each assist improves the Hit of the helped operative's melee weapons by 1 (5.2 step 2).
    open_fight(w, frame, o, t, a_by, d_by, retaliates=bool(usable))


@attrs.frozen(slots=True)
class FightFrame(FightSteps):
    """A Fight action in progress (5.2); the steps both editions share (sides, re-rolls,
    re-rolled dice) are :class:`~engine.game.attack_frames.FightSteps`.

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
    strike_held: str = ""  # a strike ("crit"/"normal") waiting for its "strike" ploy window

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
                target=self.defender,
            )
        return attack_profile(
            w,
            w.op(self.defender),
            self.dweapon,
            "melee",
            hit_change=-self.d_assist,
            injured=self.d_injured,
            target=self.attacker,
        )

    def _weapon_reroll_options(
        self, kind: str, dice: tuple[int, ...], flags: tuple[bool, ...]
    ) -> list[Action]:
        """The choices of the weapon re-roll window ``kind`` (Balanced, Ceaseless,
        Relentless, 6)."""
        return reroll_options(kind, dice, flags)

    def _check_weapon_reroll(self, w: Work, side: str, a: Action) -> None:
        """Refuse ``a`` unless it is a re-roll ``side`` can make now (6, 7.1, 2.4).

        Raises:
            IllegalActionError: naming what may be chosen."""
        if a not in self._reroll_choices(w, side):
            raise _illegal(
                f"{a} is not a re-roll {self.owner(w, side)} can make now: 'Decline', a weapon "
                "re-roll ('Re-roll ...', 6) or a ploy (7.1); a die is never re-rolled "
                "twice (2.4)"
            )
        dice, flags = self._dice(side)
        wins = self.a_windows if side == "a" else self.d_windows
        _check_reroll(wins[0], a.values, dice, flags)

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
                self._after_roll(w, "a", ())
                return
            w.roll("attack", self.owner(w, "a"), n, label=f"attack dice ({self.aweapon})")
        elif st == "d_roll":
            n = self.prof(w, "d").attacks - self.d_accurate if self.dweapon else 0
            if n <= 0:
                self._after_roll(w, "d", ())
                return
            w.roll("attack", self.owner(w, "d"), n, label=f"attack dice ({self.dweapon})")
        elif st == "rerolls":
            self._run_rerolls(w)
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
            _, _, prof = find_weapon(w, a, self.aweapon, "melee")
            _after_weapon_use(w, a, self.aweapon, prof, "melee")
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
        w.replace_top(an=an, ac=ac, dn=dn, dc=dc, stage="resolve", turn=self._first_to_resolve(w))
        # Devastating and Stun from retained crits, both sides (engine.rules.weapon_rules).
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
        if w.ctx.hooks.ploys.get("resolve_start"):
            # The ploy window at the start of the Resolve Attack Dice step (only when a ploy
            # of the battle uses it), on top: decided before the resolution begins.
            ploys.open_window(
                w, "resolve_start", op=self.attacker, target=self.defender, kind="melee"
            )

    def _over(self, w: Work) -> bool:
        return w.op(self.attacker).incapacitated or w.op(self.defender).incapacitated

    def _resolve_step(self, w: Work) -> None:
        if self.strike_held:  # its "strike" ploy window closed: resolve it now
            held = Action("Strike", text=self.strike_held)
            w.replace_top(strike_held="")
            w.top._resolve(w, held)
            return
        player = self._next_to_resolve(w, done="hot")
        if player is not None:
            w.decide(player, "resolve")

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
                inflict(w, op_id, 2 * values[0], "Hot", by=op_id)
            w.replace_top(hot_done=self.hot_done + side)
            return
        self._rolled_dice(w, values)

    def options(self, w: Work) -> list[Action]:
        st = self.stage
        if st == "retaliate":
            d = w.op(self.defender)
            return [
                Action("Retaliate", op=d.id, weapon=n)
                for n, _, p in weapons_of(w, d.id, "melee")
                if weapon_usable(w, d, n, p) is None
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
        mine, theirs = self._successes(side)
        opp_prof = (
            self.prof(w, "d" if side == "a" else "a")
            if ((side == "a" and self.dweapon) or side == "d")
            else None
        )
        # Brutal: the opponent of a Brutal weapon's wielder can only block with crits.
        my_opp_brutal = opp_prof.rules.dice.brutal if opp_prof is not None else False

        def crit_with_normal() -> bool:
            # A rule letting a normal success block a critical one:
            # fn(w, allowed, op=, target=) -> allowed (``op`` blocks, ``target`` struck).
            if not w.ctx.hooks.would.get("would_block_crit_with_normal"):
                return False
            me, them = self.op_of(side), self.op_of(_other_side(side))
            return bool(w.would("would_block_crit_with_normal", False, op=me, target=them))

        # Blocking is allowed with nothing left to block (5.2 step 4, EDGE_CASES 8), with a
        # normal success even against Brutal.
        out = strike_options(mine) + block_options(
            mine, theirs, my_opp_brutal, crit_with_normal, brutal_bars_normal_on_nothing=False
        )
        if w.ctx.hooks.would.get("would_allow_block"):
            # A rule forbidding a fighter to block in this sequence: fn(w, allowed, op=,
            # target=) -> allowed (``op`` would block, ``target`` its opponent).
            me = self.attacker if side == "a" else self.defender
            them = self.defender if side == "a" else self.attacker
            if not w.would("would_allow_block", True, op=me, target=them):
                out = [a for a in out if a.verb != "Block"]
        return out

    def act(self, w: Work, a: Action) -> None:
        st = self.stage
        if st == "retaliate":
            if a.verb != "Retaliate" or a.op != self.defender:
                raise _illegal(f"{self.defender} must choose its melee weapon ('Retaliate ...')")
            d = w.op(self.defender)
            name, _, prof = find_weapon(w, d, a.weapon, "melee")
            why = weapon_usable(w, d, name, prof)
            if why:
                raise _illegal(why)
            w.replace_top(dweapon=name, stage="a_accurate")
            # After the frame change, so a team rule may push a frame here (Siphon Life*).
            w.emit("retaliation_weapon", op=d.id, weapon=name)
            return
        if st == "retention":
            self._act_retention(w, a)
            return
        if st in ("a_accurate", "d_accurate"):
            self._act_accurate(w, a)
            return
        if st == "rerolls":
            self._act_reroll(w, a)
            return
        if a.verb == "Strike" and self._strike_window(w, a):
            return
        self._resolve(w, a)

    def _strike_window(self, w: Work, a: Action) -> bool:
        """Open the ``strike`` ploy window (:mod:`engine.game.ploys`) before the strike ``a``
        is resolved, when a ploy is usable there (a rule acting on one strike: its damage,
        its kind of success); the strike is resolved when the window closes. ``info``: the
        striker ``op``, the struck ``target``, ``die`` (``"crit"``/``"normal"``), ``kind``
        ``"melee"`` and the ``weapon``. Returns whether the window was opened."""
        if not w.ctx.hooks.ploys.get("strike") or a not in self._resolve_options(w):
            return False
        side = self.turn
        me, them = (self.attacker, self.defender) if side == "a" else (self.defender, self.attacker)
        weapon = self.aweapon if side == "a" else self.dweapon
        info = {"op": me, "target": them, "die": a.text, "kind": "melee", "weapon": weapon}
        if not any(ploys.ploy_options(w, p, "strike", info) for p in ("A", "B")):
            return False
        w.replace_top(strike_held=a.text)
        first = w.initiative or "A"
        w.stack.append(ploys.PloyWindowFrame("strike", tuple(sorted(info.items())), turn=first))
        return True

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
            emit_upgrade(w, me, them, rules[0], *args)
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
        (n, c), (on, oc) = self._successes(side)
        prof = self.prof(w, side)
        if a.verb == "Strike":
            crit = a.text == "crit"
            if crit:
                c -= 1
            else:
                n -= 1
            if not crit and "would_strike_crit" in w.ctx.hooks.would:
                # A rule treating this normal success as a critical one (its critical damage
                # and Shock): fn(w, crit, op=, target=) -> crit.
                crit = bool(w.would("would_strike_crit", False, op=me_id, target=opp_id))
            w.emit("strike", op=me_id, die=a.text)
            shocked = self.a_shocked if side == "a" else self.d_shocked
            if crit and prof.rules.dice.shock and not shocked:
                if on:
                    on -= 1
                elif oc:
                    oc -= 1
                w.replace_top(**{f"{side}_shocked": True})
            dmg = prof.critical_damage if crit else prof.normal_damage
            # A rule changing a strike's damage: fn(w, dmg, op=, target=, crit=) -> dmg.
            if "would_strike_damage" in w.ctx.hooks.would:
                dmg = int(w.would("would_strike_damage", dmg, op=me_id, target=opp_id, crit=crit))
            inflict(w, opp_id, dmg, (self.aweapon if side == "a" else self.dweapon), by=me_id)
        else:
            (n, c), (on, oc) = apply_block(w, me_id, a.text, (n, c), (on, oc))
        mine = {"an": n, "ac": c} if side == "a" else {"dn": n, "dc": c}
        theirs = {"dn": on, "dc": oc} if side == "a" else {"an": on, "ac": oc}
        w.replace_top(**mine, **theirs)
        self._pass_turn(w, opp)
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
