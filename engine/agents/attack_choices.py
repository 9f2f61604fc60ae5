"""The heuristic agent's choices inside an attack (:mod:`engine.agents.heuristic` module
docstring): weapon and Command Re-rolls, the retaliating weapon, strike or block, cover or
obscured from one feature, Accurate, Punishing/Rending/Severe, the cover save, the
allocation of saves and team rule choices, each by exact values from the dice core
(:mod:`engine.advice.values`, :mod:`engine.advice.rerolls`, :mod:`engine.advice.allocation`).

Each decision function takes the working copy ``w``, the deciding player ``me`` and the
listed legal actions, and returns one of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from engine.advice.allocation import allocation_values
from engine.advice.rerolls import (
    reachable_retentions,
    replace_one,
    retained_shot_value,
    shoot_reroll_gain,
)
from engine.advice.values import (
    DAMAGE_WEIGHT,
    defence_value,
    fight_value,
    shot_value,
    starting_wounds,
)
from engine.dice.fight import KILL_VALUE, Matchup, unpack
from engine.dice.profile import AttackProfile, Fighter, Target
from engine.dice.rules import Accurate, WeaponRules
from engine.game import attacks, choices
from engine.game import fight as fight_action
from engine.game import shoot as shoot_action
from engine.game.actions import Action
from engine.game.state import GameState, OperativeState
from engine.game.work import Work
from engine.geometry import sight
from engine.rules.equipment.markers import AMMO_RESUPPLY

__all__ = [
    "CP_GAIN",
    "accurate",
    "allocate_saves",
    "cover_save",
    "reroll",
    "resolve",
    "retaliate",
    "retention_rule",
    "same_feature",
    "team_rule",
]

#: Minimum exact expected gain (in operatives) for spending 1CP on a Command Re-roll.
CP_GAIN = 0.06


def reroll(w: Work, me: str, legal: list[Action]) -> Action:
    """A re-roll decision (2.4, 6, 7.1): the weapon re-roll of failed dice only, else a
    Command Re-roll of the lowest failed die when its exact gain is at least
    :data:`CP_GAIN`, else keep."""
    f = w.top
    if isinstance(f, shoot_action.ShootFrame):
        attacking = f.stage.startswith("attack")
        if attacking:
            prof = f.profile(w)
            fail = _fails(f.dice, f.flags, prof.hit)
        else:
            t = f.target(w)
            save = w.ctx.datacards[t.id].save
            fail = _fails(f.dice, f.flags, save)
        weapon = _weapon_reroll(legal, fail)
        if weapon is not None:
            return weapon
        free = _ammo_reroll(legal, fail)
        if free is not None:
            return free
        if fail and _cmd_available(legal):
            gain = shoot_reroll_gain(w, f, attacking, min(fail))
            if gain >= CP_GAIN:
                return Action("Command re-roll", values=(min(fail),))
        return _decline(legal)
    if isinstance(f, fight_action.FightFrame):
        side = f.rturn
        dice, flags = (f.adice, f.aflags) if side == "a" else (f.ddice, f.dflags)
        prof = f.prof(w, side)
        fail = _fails(dice, flags, prof.hit)
        weapon = _weapon_reroll(legal, fail)
        if weapon is not None:
            return weapon
        if fail and _cmd_available(legal):
            gain = _fight_cr_gain(w, f, side, min(fail))
            if gain >= CP_GAIN:
                return Action("Command re-roll", values=(min(fail),))
        return _decline(legal)
    return _decline(legal)  # pragma: no cover - re-rolls only come from these frames


def team_rule(w: Work, me: str, legal: list[Action]) -> Action:
    """A team rule choice: used, on the offered operative that has lost the most wounds
    (ties: the first listed). A choice frame with an ``advice(w, action) -> float`` method
    (a rule's rule of thumb, in operatives) has its use of greatest advice taken instead
    (ties: the first listed)."""
    uses = [a for a in legal if a.verb == "Use"]
    if not uses:
        return legal[0]
    advise = getattr(w.top, "advice", None) if w.stack else None
    if callable(advise):
        return max(uses, key=lambda a: (float(advise(w, a)), -uses.index(a)))
    if not uses[0].target:  # a use that names no operative (yet): take it
        return uses[0]

    def lost(a: Action) -> int:
        return w.ctx.datacards[a.target].wounds - w.op(a.target).wounds

    return max(uses, key=lambda a: (lost(a), -uses.index(a)))


def retaliate(w: Work, me: str, legal: list[Action]) -> Action:
    """The retaliating weapon (5.2): the one of best exact fight value for the defender."""
    f = w.top
    a_op, d_op = w.op(f.attacker), w.op(f.defender)
    pa = attacks.attack_profile(w, a_op, f.aweapon, "melee", hit_change=-f.a_assist)
    best: tuple[float, Action] | None = None
    for act in legal:
        pd = attacks.attack_profile(w, d_op, act.weapon, "melee", hit_change=-f.d_assist)
        v = fight_value(
            pa, a_op.wounds, starting_wounds(w, a_op), pd, d_op.wounds, starting_wounds(w, d_op)
        )
        if best is None or v < best[0] - 1e-12:
            best = (v, act)
    return best[1] if best is not None else legal[0]


def resolve(state: GameState, w: Work, me: str, legal: list[Action]) -> Action:
    """Strike or block (5.2 step 4): each option is applied by the engine itself; its
    value is the damage (or incapacitation) it causes at once plus the rest of the
    resolution solved optimally for both sides by the dice core
    (:meth:`engine.dice.fight.Resolver.solve`, the objective of :mod:`engine.dice.fight`:
    ``KILL_VALUE`` x incapacitations + damage dealt - damage taken); a fight too large to
    solve exactly (:data:`engine.dice.fight.MAX_FIGHT_STATES`) is valued with the fixed
    ``block`` policy for both sides instead."""
    f = w.top
    pa = f.prof(w, "a")
    pd = f.prof(w, "d") if f.dweapon else AttackProfile(0, 6, 0, 0)
    wa0, wd0 = w.op(f.attacker).wounds, w.op(f.defender).wounds
    matchup = Matchup(Fighter(pa, max(1, wa0)), Fighter(pd, max(1, wd0)), fallback=True)
    sign = 1 if me == w.ctx.owner[f.attacker] else -1
    best: tuple[int, int, Action] | None = None
    for i, act in enumerate(legal):
        after, _ = state.apply(act)
        wa, wd = after.operative(f.attacker).wounds, after.operative(f.defender).wounds
        dealt, taken = wd0 - max(wd, 0), wa0 - max(wa, 0)
        if wd <= 0:
            value = KILL_VALUE + dealt
        elif wa <= 0:
            value = -(KILL_VALUE + taken)
        else:
            value = dealt - taken
            g = after.stack[-1] if after.stack else None
            if isinstance(g, fight_action.FightFrame) and g.stage == "resolve":
                rest = matchup.solve(
                    g.an,
                    g.ac,
                    g.dn,
                    g.dc,
                    wa,
                    wd,
                    pa.rules.dice.shock and not g.a_shocked,
                    pd.rules.dice.shock and not g.d_shocked,
                    g.turn == "a",
                )
                value += unpack(rest)[0]
        key = (sign * value, -i)
        if best is None or key > best[:2]:
            best = (key[0], key[1], act)
    return best[2] if best is not None else legal[0]


# -- the players' own choices in an attack (engine.game.attacks module docstring) --------


def same_feature(w: Work, me: str, legal: list[Action]) -> Action:
    """Cover or obscured from one feature (4.5): the option giving the shooter the lowest
    exact shot value (:func:`shot_value`, with the Accurate the shooter would have)."""
    f = w.top
    t = f.target(w)
    o = w.op(f.shooter)
    prof = _with_accurate(f.profile(w), _accurate_available(w, f, o, t))
    save = w.ctx.datacards[t.id].save

    def value(a: Action) -> float:
        _, cover, obscured = next(x for x in f.feature_options if x[0] == a.text)
        improved = cover and sight.vantage_improves_cover(w.kz, w.place(o), w.place(t), t.order)
        target = Target(save, max(1, t.wounds), cover, obscured, improved)
        return shot_value(prof, target, starting_wounds(w, t))

    return _best(legal, value, maximise=False)


def accurate(w: Work, me: str, legal: list[Action]) -> Action:
    """How many dice Accurate retains (6): the number with the best exact shot value
    (:func:`shot_value` of the profile with Accurate k) for the attacker; against its
    own operative (a Blast secondary) the lowest. In a fight (5.2 step 3) the number
    with the best exact :func:`fight_value` for the chooser, the attacker assuming the
    defender's best reply to it. Ties: the most dice."""
    f = w.top
    if isinstance(f, fight_action.FightFrame):
        return _fight_accurate(w, f, legal)
    t = f.target(w)
    prof = f.profile(w)
    save = w.ctx.datacards[t.id].save
    target = Target(save, max(1, t.wounds), f.cover, f.obscured, f.cover_improved(w))
    sign = 1.0 if t.player != me else -1.0

    def value(a: Action) -> float:
        k = a.values[0]
        return sign * shot_value(_with_accurate(prof, k), target, starting_wounds(w, t)) + 1e-9 * k

    return _best(legal, value, maximise=True)


def retention_rule(w: Work, me: str, legal: list[Action]) -> Action:
    """Punishing, Rending or Severe (6): applied or declined by the exact value of every
    outcome it can still lead to (the later rules chosen at best), through the
    defender's best cover save and its saves (shooting), or both sides' later rules and
    the optimal resolution (fights, :meth:`engine.dice.fight.Matchup.damage_taken`)."""
    f = w.top
    apply_, decline = legal[0], Action("Decline")
    if isinstance(f, shoot_action.ShootFrame):
        rule, rest = f.rules_left[0], f.rules_left[1:]
        t = f.target(w)
        sign = 1.0 if t.player != me else -1.0

        def leaf(n: int, c: int) -> float:
            return sign * retained_shot_value(w, f, n, c)

        now = (f.normals, f.crits, f.fails)
        v_apply = max(
            leaf(n, c)
            for n, c in reachable_retentions(rest, *choices.apply_retention_rule(rule, *now))
        )
        v_decline = max(leaf(n, c) for n, c in reachable_retentions(rest, *now))
        return apply_ if v_apply > v_decline else decline
    side = "a" if f.a_rules else "d"
    value = _fight_retention_value(w, f, side)
    rules = f.a_rules if side == "a" else f.d_rules
    now = f._side_dice(side)
    v_apply = value(reachable_retentions(rules[1:], *choices.apply_retention_rule(rules[0], *now)))
    v_decline = value(reachable_retentions(rules[1:], *now))
    return apply_ if v_apply > v_decline else decline


def cover_save(w: Work, me: str, legal: list[Action]) -> Action:
    """The cover save (4.5, 4.7): the option of least exact value to the shooter (its
    kill probability plus weighted damage through the defence roll)."""
    f = w.top
    t = f.target(w)
    prof = f.profile(w)
    save = w.ctx.datacards[t.id].save
    d = prof.rules.dice
    # The defence dice of the target's datacard (KT21's DF; always 3 in KT24, 4.5).
    dice = max(
        0, w.ctx.datacards[t.id].defence - max(d.piercing, d.piercing_crits if f.crits else 0)
    )
    opts = {name: (cn, cc) for name, cn, cc in f.cover_options(w)}

    def value(a: Action) -> float:
        cn, cc = opts[a.text]
        return defence_value(
            f.normals,
            f.crits,
            prof,
            save,
            cn,
            cc,
            dice - cn - cc,
            (),
            max(1, t.wounds),
            starting_wounds(w, t),
        )

    return _best(legal, value, maximise=False)


def allocate_saves(w: Work, me: str, legal: list[Action]) -> Action:
    """The allocation of saves (5.1 step 5): the one of least value to the shooter
    (:func:`engine.advice.allocation.allocation_values`: incapacitation, then weighted
    damage); ties: the first listed, the dice core's least-damage allocation."""
    values = {v.action: v.value for v in allocation_values(w)}
    return _best(legal, lambda a: values.get(a, float("inf")), maximise=False)


def _best(legal: list[Action], value: Callable[[Action], float], *, maximise: bool) -> Action:
    """The listed action of best ``value`` (ties: the first listed)."""
    sign = 1.0 if maximise else -1.0
    best: tuple[float, Action] | None = None
    for a in legal:
        v = sign * value(a)
        if best is None or v > best[0] + 1e-12:
            best = (v, a)
    assert best is not None
    return best[1]


def _with_accurate(profile: AttackProfile, k: int) -> AttackProfile:
    """``profile`` with its Accurate rules replaced by Accurate ``k`` (none for 0), so the
    dice core retains exactly ``k`` dice unrolled."""
    kept = tuple(r for r in profile.rules if not isinstance(r, Accurate))
    rules = WeaponRules(kept + ((Accurate(k),) if k else ()))
    return attrs.evolve(profile, rules=rules)


def _accurate_available(
    w: Work, f: shoot_action.ShootFrame, o: OperativeState, t: OperativeState
) -> int:
    """The Accurate x the shooter will have against ``t`` (weapon and Vantage, 4.7, 6)."""
    prof = f.profile(w)
    vantage = sight.vantage_accuracy(w.kz, w.place(o), w.place(t), t.order)
    wacc = prof.rules.dice.accurate
    acc = max(wacc, vantage, min(2, wacc + vantage)) if vantage else wacc
    return min(acc, prof.attacks)


def _fight_accurate(w: Work, f: fight_action.FightFrame, legal: list[Action]) -> Action:
    """Accurate in a fight (5.2 step 3, 6): the number of dice with the best exact fight value
    (:func:`fight_value`, both sides resolving optimally) for the side choosing. The attacker
    chooses first, so each of its numbers is valued against the defender's best reply (the
    lowest value over the defender's own numbers); the defender's choice meets the
    attacker's number already chosen. Ties: the most dice."""
    side = "a" if f.stage == "a_accurate" else "d"
    a_op, d_op = w.op(f.attacker), w.op(f.defender)
    pa = f.prof(w, "a")
    pd = f.prof(w, "d") if f.dweapon else None
    wa, ma = max(1, a_op.wounds), starting_wounds(w, a_op)
    wd, md = max(1, d_op.wounds), starting_wounds(w, d_op)

    def value(k: int, j: int) -> float:
        dprof = _with_accurate(pd, j) if pd is not None else None
        return fight_value(_with_accurate(pa, k), wa, ma, dprof, wd, md)

    if side == "a":
        replies = range(f.accurate_x(w, "d") + 1)  # range(1) when it does not retaliate

        def of_a(act: Action) -> float:
            k = act.values[0]
            return min(value(k, j) for j in replies) + 1e-9 * k

        return _best(legal, of_a, maximise=True)

    def of_d(act: Action) -> float:
        return -value(f.a_accurate, act.values[0]) + 1e-9 * act.values[0]

    return _best(legal, of_d, maximise=True)


def _fight_retention_value(
    w: Work, f: fight_action.FightFrame, side: str
) -> Callable[[list[tuple[int, int]]], float]:
    """For ``side`` choosing a retention rule in a fight: the exact value to that side of a
    set of outcomes it can still reach (its best), each met by the other side's best reply
    when that side still has rules to choose (the defender's come after the attacker's);
    values as :func:`fight_value`, resolution optimal for both."""
    pa = f.prof(w, "a")
    pd = f.prof(w, "d") if f.dweapon else AttackProfile(0, 6, 0, 0)
    a_op, d_op = w.op(f.attacker), w.op(f.defender)
    m = Matchup(Fighter(pa, max(1, a_op.wounds)), Fighter(pd, max(1, d_op.wounds)), fallback=True)
    ma, md = starting_wounds(w, a_op), starting_wounds(w, d_op)

    def value(an: int, ac: int, dn: int, dc: int) -> float:
        ta, td = m.damage_taken(an, ac, dn, dc)
        return (
            (td >= d_op.wounds)
            - (ta >= a_op.wounds)
            + DAMAGE_WEIGHT * (min(td, d_op.wounds) / md - min(ta, a_op.wounds) / ma)
        )

    if side == "a":
        d_out = reachable_retentions(f.d_rules, *f._side_dice("d"))

        def of_a(outs: list[tuple[int, int]]) -> float:
            return max(min(value(an, ac, dn, dc) for dn, dc in d_out) for an, ac in outs)

        return of_a

    def of_d(outs: list[tuple[int, int]]) -> float:
        return max(-value(f.an, f.ac, dn, dc) for dn, dc in outs)

    return of_d


def _fails(dice: Sequence[int], flags: Sequence[bool], threshold: int) -> list[int]:
    """Faces of dice not yet re-rolled that failed (below ``threshold``, or a 1)."""
    return sorted(
        v
        for v, f in zip(dice, flags, strict=True)
        if not f and (v == 1 or (v < threshold and v != 6))
    )


def _weapon_reroll(legal: list[Action], fail: list[int]) -> Action | None:
    """The weapon re-roll of failed dice only that re-rolls the most of them (ties: the
    lowest faces), or None."""
    best: tuple[int, int, Action] | None = None
    for a in legal:
        if a.verb != "Re-roll":
            continue
        vals = list(a.values)
        pool = list(fail)
        ok = True
        for v in vals:
            if v in pool:
                pool.remove(v)
            else:
                ok = False
                break
        if not ok:
            continue
        key = (len(vals), -sum(vals))
        if best is None or key > (best[0], best[1]):
            best = (key[0], key[1], a)
    return best[2] if best is not None else None


def _ammo_reroll(legal: list[Action], fail: list[int]) -> Action | None:
    """The free Ammo Resupply re-roll of the lowest failed die (7.2), when offered."""
    if not fail:
        return None
    a = Action("Use", text=f"{AMMO_RESUPPLY.text} {min(fail)}")
    return a if a in legal else None


def _cmd_available(legal: list[Action]) -> bool:
    return any(a.verb == "Command re-roll" for a in legal)


def _decline(legal: list[Action]) -> Action:
    for verb in ("Keep", "Decline"):
        a = Action(verb)
        if a in legal:
            return a
    return legal[0]  # pragma: no cover


def _fight_cr_gain(w: Work, f: fight_action.FightFrame, side: str, face: int) -> float:
    """Exact expected gain for ``side`` of re-rolling one of its dice showing ``face``,
    both sides then resolving optimally."""
    pa = f.prof(w, "a")
    pd = f.prof(w, "d") if f.dweapon else AttackProfile(0, 6, 0, 0)
    a_op, d_op = w.op(f.attacker), w.op(f.defender)
    m = Matchup(Fighter(pa, max(1, a_op.wounds)), Fighter(pd, max(1, d_op.wounds)), fallback=True)
    ma, md = starting_wounds(w, a_op), starting_wounds(w, d_op)

    def value(adice: tuple[int, ...], ddice: tuple[int, ...]) -> float:
        an, ac = attacks.retain(adice, f.a_accurate, pa, False)
        dn, dc = attacks.retain(ddice, f.d_accurate, pd, False) if f.dweapon else (0, 0)
        ta, td = m.damage_taken(an, ac, dn, dc)
        return (
            (td >= d_op.wounds)
            - (ta >= a_op.wounds)
            + DAMAGE_WEIGHT * (min(td, d_op.wounds) / md - min(ta, a_op.wounds) / ma)
        )

    now = value(f.adice, f.ddice)
    if side == "a":
        after = sum(value(replace_one(f.adice, face, v), f.ddice) for v in range(1, 7)) / 6
        return after - now
    after = sum(value(f.adice, replace_one(f.ddice, face, v)) for v in range(1, 7)) / 6
    return now - after
