"""The heuristic agent's answers to the decisions of the KT21 rules (``rules/KT21.md``): each
decision kind the KT21 set-up, flow and attacks open, valued with the KT21 mode of the dice
core (:mod:`engine.dice.kt21`) where dice are involved. The agent finds them in its table
from decision kind to handler (:class:`engine.agents.heuristic.HeuristicAgent`): the kinds
are data, the handlers never ask which ruleset is in play.

Each decision function takes the working copy ``w``, the deciding player ``me`` and the
listed legal actions, and returns one of them:

- ``roles`` (1.2): it names its opponent the Defender, so it is the Attacker, which sets up
  each third after seeing the Defender's (the drop zones of the shipped killzones are alike).
- ``deploy_order`` (1.2 step 8): Engage for an operative that has a valid target worth
  :data:`~engine.agents.action_choices.OPPORTUNITY` where it was set up, or that fights
  better than it shoots (only an Engage order may Charge, DC 29); else Conceal. The order is
  kept for the whole first turning point (3.1 step 2).
- ``scouting`` (1.2 step 9): a fixed preference, Recon (a free Dash for one operative),
  Infiltrate, then Fortify: Fortify's barricade is not played by the engine (reported), and
  Recon moves an operative forward at once.
- ``recon``: the eligible operative nearest an objective marker no operative carries (its
  free Dash is then scored like any move); Pass when none is eligible.
- ``tac archetype`` (15.3): Seek and Destroy when offered (the agent plays for kills), else
  the first listed; no KT21 tac op scores yet.
- ``overwatch`` (3.5): the operative with the best Overwatch shot now (BS 1 worse) when it is
  worth at least :data:`OVERWATCH_MIN` (it costs no AP: only the operative's one Overwatch
  of the turning point), else Pass.
- ``invulnerable_save`` (10.3) and ``kt21_cover_save`` (10.2): the dice core's choice of
  least expected damage against the retained attack dice
  (:func:`~engine.dice.kt21.defence_choice`).
- ``fusillade`` (12): the split of the attack dice of greatest total exact value.
- ``kt21_fight_weapon`` (11 step 2): the melee weapon of least exact fight value for the
  attacker.
- ``kt21_fight_resolve`` (11 step 4): each strike or parry applied by the engine, then the
  rest of the resolution solved optimally for both sides by the KT21 fight solver
  (:class:`~engine.dice.kt21.Kt21Matchup`).
- ``reroll`` and ``dice_ploy`` in a KT21 attack: a weapon re-roll re-rolls failed dice only
  (the most of them); Command Re-roll (1CP) re-rolls the lowest failed die when the exact
  expected gain (over its six faces) is at least :data:`~engine.agents.attack_choices.CP_GAIN`
  of an operative. The gain of an attack die in a shooting attack is valued by the expected
  damage (DAMAGE_WEIGHT of a wound's share of the target's starting wounds each) through the
  defender's best save choice; of a defence die by the damage its saves leave; in a fight by
  the fight objective of the optimal resolution.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.advice.kt21_values import kt21_attack, kt21_defender, kt21_fighter, kt21_shot_value
from engine.advice.rerolls import replace_one
from engine.advice.shots import kt21_setup
from engine.advice.values import DAMAGE_WEIGHT, starting_wounds
from engine.agents.action_choices import OPPORTUNITY
from engine.agents.attack_choices import CP_GAIN
from engine.agents.position import melee_minded
from engine.dice.fight import KILL_VALUE, unpack
from engine.dice.kt21 import (
    Kt21Attack,
    Kt21Defender,
    Kt21Matchup,
    defence_choice,
    resolve_saves,
)
from engine.game import universal
from engine.game.actions import Action
from engine.game.state import GameState, OperativeState, other
from engine.game.work import Work
from engine.rules.kt21.attack_dice import retain_attack_dice
from engine.rules.kt21.fight import Kt21FightFrame
from engine.rules.kt21.shoot import Kt21ShootFrame

__all__ = [
    "OVERWATCH_MIN",
    "SCOUTING_PREFERENCE",
    "TAC_ARCHETYPE",
    "deploy_order",
    "dice_ploy",
    "fight_resolve",
    "fight_weapon",
    "fusillade",
    "invulnerable_save",
    "kt21_cover_save",
    "overwatch",
    "recon",
    "reroll",
    "roles",
    "scouting",
    "tac_archetype",
]

Handler = Callable[[Work, str, list[Action]], Action]

SCOUTING_PREFERENCE = ("recon", "infiltrate", "fortify")
"""The scouting options in the agent's order of preference (module docstring)."""
OVERWATCH_MIN = 0.05
"""The least value (operatives) of an Overwatch shot the agent takes (module docstring)."""
TAC_ARCHETYPE = "seek-and-destroy"
"""The tac op archetype the agent selects when offered (module docstring)."""


# -- set-up ---------------------------------------------------------------------------------


def roles(w: Work, me: str, legal: list[Action]) -> Action:
    """The roll-off winner names its opponent the Defender (module docstring)."""
    want = Action("Op", text=f"defender {other(me).lower()}")
    return want if want in legal else legal[0]


def deploy_order(w: Work, me: str, legal: list[Action]) -> Action:
    """The order of the operative just set up (module docstring)."""
    from engine.advice import best_shot_now

    f = w.top
    o = w.op(f.pending)
    engage = best_shot_now(w, o, as_engage=True) >= OPPORTUNITY or melee_minded(w, o)
    want = Action("Op", text=f"order {'engage' if engage else 'conceal'}")
    return want if want in legal else legal[0]


def scouting(w: Work, me: str, legal: list[Action]) -> Action:
    """The first option of :data:`SCOUTING_PREFERENCE` offered."""
    for choice in SCOUTING_PREFERENCE:
        a = Action("Op", text=f"scouting {choice}")
        if a in legal:
            return a
    return legal[0]


def recon(w: Work, me: str, legal: list[Action]) -> Action:
    """The eligible operative nearest an objective marker (module docstring)."""
    markers = [(m.x, m.y) for m in w.markers if not m.carrier]
    best: tuple[float, int, Action] | None = None
    for i, a in enumerate(legal):
        if a.verb != "Act" or not a.op:
            continue
        o = w.op(a.op)
        d = min((math.hypot(x - o.x, y - o.y) for x, y in markers), default=0.0)
        if best is None or (d, i) < best[:2]:
            best = (d, i, a)
    return best[2] if best is not None else legal[0]


def tac_archetype(w: Work, me: str, legal: list[Action]) -> Action:
    """:data:`TAC_ARCHETYPE` when offered, else the first listed."""
    want = Action("Op", text=f"tac {TAC_ARCHETYPE}")
    return want if want in legal else legal[0]


# -- firefight --------------------------------------------------------------------------------


def overwatch_value(w: Work, o: OperativeState) -> float:
    """The best KT21 Overwatch shot ``o`` has now (BS 1 worse, 3.5): each ranged profile at
    each enemy it may target (as the heuristic's best shot, :func:`engine.advice.shots.
    best_shot_from`, with the KT21 valuation)."""
    from engine.advice.shots import kt21_shot_from, ranged_weapons, screened
    from engine.geometry import sight

    if w.in_enemy_control_range(o):
        return 0.0
    here = w.place(o)
    best = 0.0
    for t in w.enemies_of(o.id):
        pt = w.place(t)
        if screened(w, o, t) or not w.ctx.valid_target(w.kz, pt, here, t.order, None):
            continue
        if w.ctx.targeting(w.kz, here, pt).obscured:
            continue
        d = sight.distance(here, pt)
        for name, _, reach in ranged_weapons(w, o, True):
            if d <= reach:
                best = max(best, kt21_shot_from(w, o, here, name, t, worsen=1))
    return best


def overwatch(w: Work, me: str, legal: list[Action]) -> Action:
    """The Overwatch of best value worth :data:`OVERWATCH_MIN`, else Pass."""
    best: tuple[float, Action] = (OVERWATCH_MIN, Action("Pass"))
    for a in legal:
        if a.verb != "Act" or not a.op:
            continue
        v = overwatch_value(w, w.op(a.op))
        if v > best[0] + 1e-9:
            best = (v, a)
    return best[1] if best[1] in legal else legal[0]


# -- the shooting attack ----------------------------------------------------------------------


def _shoot_setup(w: Work, f: Kt21ShootFrame) -> tuple[OperativeState, Kt21Attack, Kt21Defender]:
    """The current target of ``f``, the attack as the dice core takes it and the target's
    defence (in Cover as the attack found it, unless the weapon has No Cover)."""
    o, t = w.op(f.shooter), f.target(w)
    _, _, prof = universal.find_weapon(w, o, f.weapon, "ranged")
    attack = kt21_attack(w, o, prof, worsen=1 if f.overwatch else 0)
    cover = bool(f.cover) and not prof.kt21_rules.has("No Cover")
    return t, attack, kt21_defender(w, t, cover)


def invulnerable_save(w: Work, me: str, legal: list[Action]) -> Action:
    """Invulnerable save or Save, by the dice core's least expected damage against the
    retained attack dice (:func:`~engine.dice.kt21.defence_choice`)."""
    f = w.top
    _, attack, defender = _shoot_setup(w, f)
    choice = defence_choice(attack, defender, f.normals, f.crits)
    want = Action("Save", text="invulnerable" if choice.invulnerable else "normal")
    return want if want in legal else legal[0]


def kt21_cover_save(w: Work, me: str, legal: list[Action]) -> Action:
    """Retain the cover save or roll that die, by the dice core's least expected damage with
    the save already chosen (:func:`~engine.dice.kt21.defence_choice`)."""
    import attrs

    f = w.top
    _, attack, defender = _shoot_setup(w, f)
    inv = f.invulnerable and defender.invulnerable
    forced = attrs.evolve(defender, in_cover=True, save_choice="invulnerable" if inv else "save")
    choice = defence_choice(attack, forced, f.normals, f.crits)
    want = Action("Cover save", text="normal" if choice.cover else "none")
    return want if want in legal else legal[0]


def fusillade(w: Work, me: str, legal: list[Action]) -> Action:
    """The split of greatest total exact KT21 shot value (ties: the first listed)."""
    f = w.top
    o = w.op(f.shooter)
    name, _, prof = universal.find_weapon(w, o, f.weapon, "ranged")
    ids = [f.targets[0], *f.fusillade_candidates(w)]
    here = w.place(o)
    cache: dict[tuple[str, int], float] = {}

    def part(tid: str, k: int) -> float:
        if k == 0:
            return 0.0
        if (tid, k) not in cache:
            t = w.op(tid)
            setup = kt21_setup(w, o, here, name, t, 1 if f.overwatch else 0)
            if setup is None:
                cache[(tid, k)] = 0.0
            else:
                attack = kt21_attack(w, o, prof, worsen=1 if f.overwatch else 0, attacks=k)
                v = kt21_shot_value(attack, setup[1], starting_wounds(w, t))
                cache[(tid, k)] = v if t.player != o.player else -v
        return cache[(tid, k)]

    best: tuple[float, Action] | None = None
    for a in legal:
        if a.verb != "Split":
            continue
        v = sum(part(tid, k) for tid, k in zip(ids, a.values, strict=False))
        if best is None or v > best[0] + 1e-12:
            best = (v, a)
    return best[1] if best is not None else legal[0]


# -- the fight --------------------------------------------------------------------------------


def fight_weapon(w: Work, me: str, legal: list[Action]) -> Action:
    """The defender's melee weapon of least exact KT21 fight value for the attacker."""
    f = w.top
    a_op, d_op = w.op(f.attacker), w.op(f.defender)
    _, _, pa = universal.find_weapon(w, a_op, f.aweapon, "melee")
    from engine.advice.kt21_values import kt21_fight_value

    att = kt21_fighter(w, a_op, pa, f.a_support)
    ma, md = starting_wounds(w, a_op), starting_wounds(w, d_op)
    best: tuple[float, Action] | None = None
    for act in legal:
        if not act.weapon:
            continue
        _, _, pd = universal.find_weapon(w, d_op, act.weapon, "melee")
        v = kt21_fight_value(att, ma, kt21_fighter(w, d_op, pd, f.d_support), md)
        if best is None or v < best[0] - 1e-12:
            best = (v, act)
    return best[1] if best is not None else legal[0]


def _matchup(w: Work, f: Kt21FightFrame) -> Kt21Matchup:
    a_op, d_op = w.op(f.attacker), w.op(f.defender)
    _, _, pa = universal.find_weapon(w, a_op, f.aweapon, "melee")
    pd = universal.find_weapon(w, d_op, f.dweapon, "melee")[2] if f.dweapon else None
    return Kt21Matchup(kt21_fighter(w, a_op, pa), kt21_fighter(w, d_op, pd))


def fight_resolve(state: GameState, w: Work, me: str, legal: list[Action]) -> Action:
    """Strike or parry (11 step 4, module docstring): each option applied by the engine, its
    value the damage (or incapacitation) it causes at once plus the rest solved optimally
    (the objective of :mod:`engine.dice.fight`: ``KILL_VALUE`` x incapacitations + damage
    dealt - damage taken), for the deciding side."""
    f = w.top
    m = _matchup(w, f)
    stun_a, stun_b = m.stun
    wa0, wd0 = w.op(f.attacker).wounds, w.op(f.defender).wounds
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
            if isinstance(g, Kt21FightFrame) and g.stage == "resolve":
                rest = m.solver.solve(
                    g.an,
                    g.ac,
                    g.dn,
                    g.dc,
                    wa,
                    wd,
                    stun_a and g.a_crits == 0,
                    stun_b and g.d_crits == 0,
                    g.turn == "a",
                )
                value += unpack(rest)[0]
        key = (sign * value, -i)
        if best is None or key > best[:2]:
            best = (key[0], key[1], act)
    return best[2] if best is not None else legal[0]


# -- re-rolls ---------------------------------------------------------------------------------


def _fails(dice: tuple[int, ...], flags: tuple[bool, ...], threshold: int) -> list[int]:
    """Faces of dice not yet re-rolled that failed (below ``threshold``, or a 1)."""
    return sorted(
        v for v, fl in zip(dice, flags, strict=True) if not fl and (v == 1 or v < threshold)
    )


def _weapon_reroll(legal: list[Action], fail: list[int]) -> Action | None:
    """The weapon re-roll of failed dice only that re-rolls the most of them (ties: the
    lowest faces), or None."""
    best: tuple[tuple[int, int], Action] | None = None
    for a in legal:
        if a.verb != "Re-roll":
            continue
        pool = list(fail)
        ok = True
        for v in a.values:
            if v in pool:
                pool.remove(v)
            else:
                ok = False
                break
        key = (len(a.values), -sum(a.values))
        if ok and (best is None or key > best[0]):
            best = (key, a)
    return best[1] if best is not None else None


def _keep(legal: list[Action]) -> Action:
    for verb in ("Keep", "Decline"):
        if Action(verb) in legal:
            return Action(verb)
    return legal[0]


def _shoot_gain(w: Work, f: Kt21ShootFrame, face: int) -> float:
    """Exact expected gain, in operatives for the player re-rolling, of re-rolling one die
    showing ``face`` in this KT21 shooting attack (module docstring)."""
    t, attack, defender = _shoot_setup(w, f)
    maxw = starting_wounds(w, t)
    cap = max(1, t.wounds)
    if f.stage == "attack_cr":
        _, rules = f.profile(w)
        bs = f.bs(w)

        def dealt(dice: tuple[int, ...]) -> float:
            n, c, _ = retain_attack_dice(dice, bs, rules)
            exp = defence_choice(attack, defender, n, c).expected_damage
            return min(float(exp), cap)

        now = dealt(f.dice)
        after = sum(dealt(replace_one(f.dice, face, v)) for v in range(1, 7)) / 6
        return DAMAGE_WEIGHT * (after - now) / maxw
    threshold = f._pool(w)[1]

    def left(dice: tuple[int, ...]) -> float:
        sc = sum(1 for v in dice if v >= 6)
        sn = f.kept + sum(1 for v in dice if 1 < v < 6 and v >= threshold)
        dmg = resolve_saves(attack, f.normals, f.crits, sn, sc)[2]
        return (dmg >= cap) + DAMAGE_WEIGHT * min(dmg, cap) / maxw

    now = left(f.dice)
    after = sum(left(replace_one(f.dice, face, v)) for v in range(1, 7)) / 6
    return now - after


def _fight_gain(w: Work, f: Kt21FightFrame, side: str, face: int) -> float:
    """Exact expected gain for ``side`` of re-rolling one of its dice showing ``face``, both
    sides then resolving optimally (the fight objective over the attacker's starting
    wounds, in operatives)."""
    m = _matchup(w, f)
    a_op, d_op = w.op(f.attacker), w.op(f.defender)
    a_rules = f.profile(w, "a")[1]
    d_rules = f.profile(w, "d")[1] if f.dweapon else None

    def value(adice: tuple[int, ...], ddice: tuple[int, ...]) -> float:
        an, ac, _ = retain_attack_dice(adice, f.ws(w, "a"), a_rules)
        dn, dc = (0, 0)
        if d_rules is not None:
            dn, dc, _ = retain_attack_dice(ddice, f.ws(w, "d"), d_rules)
        ta, td, _, _ = m.damage_taken(an, ac, dn, dc)
        return (
            (td >= d_op.wounds)
            - (ta >= a_op.wounds)
            + DAMAGE_WEIGHT
            * (
                min(td, d_op.wounds) / starting_wounds(w, d_op)
                - min(ta, a_op.wounds) / starting_wounds(w, a_op)
            )
        )

    now = value(f.adice, f.ddice)
    if side == "a":
        after = sum(value(replace_one(f.adice, face, v), f.ddice) for v in range(1, 7)) / 6
        return after - now
    after = sum(value(f.adice, replace_one(f.ddice, face, v)) for v in range(1, 7)) / 6
    return now - after


def reroll(w: Work, me: str, legal: list[Action]) -> Action:
    """A re-roll decision of a KT21 attack (module docstring): the weapon re-roll of failed
    dice only, else a Command Re-roll of the lowest failed die worth :data:`CP_GAIN`, else
    keep (decline)."""
    f = w.top
    if isinstance(f, Kt21ShootFrame):
        attacking = f.stage.startswith("attack")
        threshold = f.bs(w) if attacking else f._pool(w)[1]
        fail = _fails(f.dice, f.flags, threshold)
        weapon = _weapon_reroll(legal, fail)
        if weapon is not None:
            return weapon
        if fail and any(a.verb == "Command re-roll" for a in legal):
            cr = Action("Command re-roll", values=(min(fail),))
            if cr in legal and _shoot_gain(w, f, min(fail)) >= CP_GAIN:
                return cr
        return _keep(legal)
    side = f.rturn
    dice, flags = f._dice(side)
    fail = _fails(dice, flags, f.ws(w, side))
    weapon = _weapon_reroll(legal, fail)
    if weapon is not None:
        return weapon
    if fail:
        cr = Action("Command re-roll", values=(min(fail),))
        if cr in legal and _fight_gain(w, f, side, min(fail)) >= CP_GAIN:
            return cr
    return _keep(legal)


def is_kt21_attack(w: Work) -> bool:
    """Whether the decision in ``w`` is inside a KT21 shooting attack or fight."""
    return bool(w.stack) and isinstance(w.top, (Kt21ShootFrame, Kt21FightFrame))


def dice_ploy(w: Work, me: str, legal: list[Action]) -> Action:
    """A dice window of a KT21 attack: :func:`reroll` (Command Re-roll is the ploy offered
    there, 14)."""
    return reroll(w, me, legal)
