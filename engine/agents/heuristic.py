"""The heuristic agent: a rules-aware player that needs no search.

:class:`HeuristicAgent` picks every decision with a documented rule of thumb, valuing
outcomes in *operatives*: an enemy operative incapacitated is worth 1, and each wound dealt
half of one wound's share of its starting wounds (``0.5 * damage / wounds``), which breaks
ties between shots that kill nobody. Losses count the same way against it. The exact dice
core (:mod:`engine.dice`) gives every probability; nothing is sampled.

Decisions (``rules/KT24.md`` section in brackets):

- **Initiative** (1.4): it always takes initiative. With Approved Ops 2025 initiative cards it
  plays the weakest card that turns a lost roll-off into a win (a card modifies the player's
  own result, so only a "+" card can; the re-roll card on a roll of 3 or less), and passes
  when it is winning.
- **Drop zone** (1.2): the first listed. **Deployment** (1.2): the spot seen from the fewest
  of five points of the enemy drop zone, then further forward (more so for melee
  operatives), and not within 2" of a friendly operative (Blast).
- **Activation** (1.5): the ready operative with the best opportunity now (the best shot's
  or fight's value, or for a melee operative the best fight it can charge into), plus a
  bonus for one under fire that should move; ties go to the first listed. Engage when it
  has a shot, a fight or a charge in sight, otherwise Conceal.
- **Actions** (3.2, 5.1, 5.2): each legal action is scored and the best taken:

  - Shoot: kill probability plus damage value from the exact shooting distribution, with
    cover, obscured and improved cover from the killzone's targeting lines; Blast adds the
    secondaries (friendly ones subtract); Hot subtracts its expected self-damage.
  - Fight: the exact fight with both sides resolving optimally (the dice core's minimax):
    enemy incapacitated minus own incapacitated plus the damage balance. Assists count.
  - Moves (Reposition, Dash, Fall Back, Charge): the destination's position value: minus
    the exposure to enemy shooting (each enemy's best ranged weapon against it there, with
    cover and obscured; none while it is within an enemy's control range, where enemies
    cannot shoot it), plus the best shot it can still take from there this activation, plus
    a pull towards objective markers, and for melee operatives towards the nearest enemy;
    a Charge destination adds the fight it would start. The candidates are the engine's
    listed destinations plus spots just outside Light and Heavy terrain in reach (cover),
    pruned by a cheap score before the full one; an unlisted spot is used only when the
    engine accepts it as legal.
  - End activation: the position value where it stands. Guard (9.3): worth a little for an
    operative with a ranged weapon and no shot now. Marker and hatch actions: nothing.
- **Counteract** (1.6) and **On Guard interrupts** (9.3): taken by the operative with the
  best shot (or fight) now when it is worth at least a fifth of an operative.
- **Re-rolls** (2.4, 6, 7.1): weapon re-rolls always re-roll failed dice only (Relentless
  all of them; Ceaseless the value with most failures; Balanced the lowest failure).
  Command Re-roll (1CP) re-rolls the lowest failed die when the exact expected gain of doing
  so (over the six faces, through saves or the fight's resolution) is at least
  :data:`CP_GAIN` of an operative.
- **Retaliation weapon** (5.2): the one with the best exact fight value. **Strike and block**
  (5.2 step 4): the dice core's optimal resolution
  (:class:`engine.dice.fight.Resolver`) from the exact position.
- **Choices in an attack** (4.5, 4.7, 6; :mod:`engine.game.attacks`), each by exact values:
  cover or obscured from one feature: the option of lowest shot value for the shooter;
  Accurate: the number of dice of best shot value (lowest against its own operative under
  a Blast; ties: more dice), in a fight of best exact fight value for the chooser (the
  attacker against the defender's best reply); Punishing, Rending, Severe: apply or
  decline by the best outcome each can still reach, through the defender's best cover save
  and the defence roll (Devastating included) or, in a fight, the other side's best reply
  and the optimal resolution; the cover save: the option of least value to the shooter
  through the defence roll.
- **Team rule choices** (``team_rule``, e.g. Siphon Life*): used (``Use siphon life``), on
  the offered operative that has lost the most wounds (ties: the first listed); the engine
  offers them only when they can make a difference.
- Anything else (Torrent: every offered secondary target is taken; other decisions): the
  first listed action.

Approximations, documented: threats are judged from enemies' current positions; Vantage
accuracy and Seek rules are ignored when scoring (the engine still applies them); a
destination's value ignores what the operative's move changes for its friends.

The agent is deterministic: it breaks ties by the engine's canonical order, so a seed only
names it in records.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import attrs

from engine.dice.fight import KILL_VALUE, Matchup, unpack
from engine.dice.profile import AttackProfile, Fighter, Target
from engine.dice.rules import Accurate, Blast, Range, WeaponRules
from engine.dice.shoot import defence_roll, shoot, unblocked
from engine.game import attacks, choices, universal
from engine.game import fight as fight_action
from engine.game import shoot as shoot_action
from engine.game.actions import MOVE_VERBS, Action
from engine.game.state import Decision, GameState, OperativeState, other
from engine.game.work import Work
from engine.geometry import Placement, sight
from engine.geometry.model import TerrainType

__all__ = ["CP_GAIN", "HeuristicAgent"]

#: Minimum exact expected gain (in operatives) for spending 1CP on a Command Re-roll.
CP_GAIN = 0.06
#: Weight of a wound dealt relative to an incapacitation (per starting wounds).
DAMAGE_WEIGHT = 0.5
#: Weight of the exposure to enemy shooting in a position's value.
EXPOSURE_WEIGHT = 0.6
#: Minimum value of a shot or fight for a counteraction or an On Guard interrupt.
OPPORTUNITY = 0.2
#: How many move destinations get the full (geometry-heavy) evaluation.
TOP_DESTINATIONS = 6
_COVER_TYPES = frozenset({TerrainType.LIGHT, TerrainType.HEAVY})


# -------------------------------------------------------------------------------------------
# Exact values from the dice core
# -------------------------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def shot_value(profile: AttackProfile, target: Target, max_wounds: int) -> float:
    """Value of one shooting attack: P(incapacitated) + ``DAMAGE_WEIGHT`` x expected damage
    (capped at the wounds left) / starting wounds (exact, :func:`engine.dice.shoot.shoot`).

    Args:
        profile: the attack profile (Hit already adjusted).
        target: the target's Save, wounds left, cover and obscured.
        max_wounds: the target's starting wounds (>= 1).
    """
    res = shoot(profile, target)
    cap = target.wounds
    total = res.damage.total
    exp = sum(min(d, cap) * w for d, w in res.damage.weights) / total
    return float(res.kill_probability) + DAMAGE_WEIGHT * exp / max_wounds


@lru_cache(maxsize=65536)
def fight_value(
    attacker: AttackProfile,
    wounds_a: int,
    max_a: int,
    defender: AttackProfile | None,
    wounds_d: int,
    max_d: int,
) -> float:
    """The attacker's value of a fight resolved optimally by both sides (5.2): P(defender
    incapacitated) - P(attacker incapacitated) + ``DAMAGE_WEIGHT`` x (damage dealt / the
    defender's starting wounds - damage taken / the attacker's), damage capped at wounds.

    Args:
        attacker, defender: melee profiles (assists folded into Hit); ``defender`` None when it
            cannot retaliate.
        wounds_a, wounds_d: wounds left; max_a, max_d: starting wounds.
    """
    from engine.dice.fight import fight

    dprof = defender if defender is not None else AttackProfile(0, 6, 0, 0)
    res = fight(Fighter(attacker, wounds_a), Fighter(dprof, wounds_d))
    a, d = res.attacker, res.defender
    return (
        float(d.incapacitated_probability)
        - float(a.incapacitated_probability)
        + DAMAGE_WEIGHT
        * (float(d.expected_damage_taken) / max_d - float(a.expected_damage_taken) / max_a)
    )


def _defence_value(
    normals: int,
    crits: int,
    profile: AttackProfile,
    save: int,
    cn: int,
    cc: int,
    rolled: int,
    fixed: tuple[int, ...],
    wounds: int,
    max_wounds: int,
) -> float:
    """Value to the attacker when ``rolled`` more defence dice are rolled besides ``fixed``
    faces and ``cn``/``cc`` cover saves."""
    fn = sum(1 for v in fixed if v != 6 and v != 1 and v >= save)
    fc = sum(1 for v in fixed if v == 6)
    total = 0.0
    weight = 0
    for sn, sc, wgt in defence_roll(rolled, save) if rolled > 0 else ((0, 0, 1),):
        un, uc = unblocked(
            normals,
            crits,
            sn + fn + cn,
            sc + fc + cc,
            profile.normal_damage,
            profile.critical_damage,
            profile.rules.dice.brutal,
        )
        dmg = un * profile.normal_damage + uc * profile.critical_damage
        total += wgt * ((dmg >= wounds) + DAMAGE_WEIGHT * min(dmg, wounds) / max_wounds)
        weight += wgt
    return total / weight


# -------------------------------------------------------------------------------------------
# The agent
# -------------------------------------------------------------------------------------------


class HeuristicAgent:
    """A sensible rules-aware player (module docstring for every decision rule).

    Args:
        seed: recorded only: the agent is deterministic.
    """

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._handlers: dict[str, Callable[[Work, str, list[Action]], Action]] = {
            "initiative": self._initiative,
            "initiative_card": self._initiative_card,
            "deploy": self._deploy,
            "activate": self._activate,
            "action": self._action,
            "counteract": self._counteract,
            "interrupt": self._action,
            "guard": self._guard,
            "reroll": self._reroll,
            "command_reroll": self._reroll,
            "retaliate": self._retaliate,
            "resolve": self._resolve,
            "same_feature": self._same_feature,
            "accurate": self._accurate,
            "retention_rule": self._retention_rule,
            "cover_save": self._cover_save,
            "team_rule": self._team_rule,
        }

    def act(self, state: GameState) -> Action:
        """The chosen action at a decision node.

        Raises:
            ValueError: when the state is not a decision node or has no legal action.
        """
        node = state.node
        if not isinstance(node, Decision):
            raise ValueError(f"not a decision node: {node!r}")
        legal = list(state.legal_actions())
        if not legal:
            raise ValueError(f"no legal action at {node!r}")
        if len(legal) == 1:
            return legal[0]
        handler = self._handlers.get(node.kind)
        if handler is None:
            return legal[0]
        w = Work(state)
        self._state = state
        choice = handler(w, node.player, legal)
        if choice not in legal and not state.is_legal(choice):  # pragma: no cover - safety
            return legal[0]
        return choice

    # -- strategy phase and set-up ---------------------------------------------------------

    def _initiative(self, w: Work, me: str, legal: list[Action]) -> Action:
        mine = Action("Initiative", text=me)
        return mine if mine in legal else legal[0]

    def _initiative_card(self, w: Work, me: str, legal: list[Action]) -> Action:
        f = w.top
        my, their = (f.a, f.b) if me == "A" else (f.b, f.a)
        tie_winner = other(w.initiative) if w.initiative else "A"

        def wins(m: int, t: int) -> bool:
            return m > t or (m == t and tie_winner == me)

        if wins(my, their):
            return Action("Pass")
        best: tuple[int, Action] | None = None
        for a in legal:
            if a.verb != "Play" or a.text == "re-roll":
                continue
            # A card modifies the player's own result (1.4): only a "+" card can help.
            x = int(a.text[1:])
            ok = a.text[0] == "+" and wins(my + x, their)
            if ok and (best is None or x < best[0]):
                best = (x, a)
        if best is not None:
            return best[1]
        reroll = Action("Play", text="re-roll")
        if reroll in legal and my <= 3:
            return reroll
        return Action("Pass")

    def _deploy(self, w: Work, me: str, legal: list[Action]) -> Action:
        kz = w.kz
        enemy_zone = kz.drop_zones[other(w.pl(me).drop_zone) if w.pl(me).drop_zone else "B"]
        c = enemy_zone.centroid
        minx, miny, maxx, maxy = enemy_zone.bounds
        samples = [(c.x, c.y)]
        if maxx - minx >= maxy - miny:
            samples += [(minx + (maxx - minx) * f, c.y) for f in (0.15, 0.35, 0.65, 0.85)]
        else:
            samples += [(c.x, miny + (maxy - miny) * f) for f in (0.15, 0.35, 0.65, 0.85)]
        eyes = [Placement(x, y, 32.0) for x, y in samples]
        friends = [w.place(o) for o in w.alive(me)]
        best: tuple[float, int, Action] | None = None
        for i, a in enumerate(legal):
            if a.verb != "Deploy" or a.point is None:
                continue
            o = w.op(a.op)
            x, y, z = a.point
            p = w.ctx.placement(o.id, x, y, z)
            seen = sum(1 for e in eyes if w.ctx.visible(kz, e, p)) / len(eyes)
            forward = -math.hypot(x - c.x, y - c.y)
            melee = _melee_minded(w, o)
            crowd = sum(1 for f in friends if math.hypot(f.x - x, f.y - y) < 2.5)
            score = -seen + (0.08 if melee else 0.04) * forward - 0.3 * crowd
            if best is None or score > best[0] + 1e-9:
                best = (score, i, a)
        return best[2] if best is not None else legal[0]

    # -- firefight phase -------------------------------------------------------------------

    def _activate(self, w: Work, me: str, legal: list[Action]) -> Action:
        best: tuple[float, Action] | None = None
        seen: set[str] = set()
        for a in legal:
            if a.verb != "Activate" or a.op in seen:
                continue
            seen.add(a.op)
            o = w.op(a.op)
            attack = max(
                _best_shot_now(w, o, as_engage=True),
                _best_fight_now(w, o),
                _charge_prospect(w, o),
            )
            danger = _exposure(w, o, w.place(o), o.order)
            score = attack + 0.3 * danger
            order = "engage" if attack > 0.05 else "conceal"
            act = Action("Activate", op=o.id, text=order)
            if act not in legal:
                act = a
            if best is None or score > best[0] + 1e-9:
                best = (score, act)
        return best[1] if best is not None else legal[0]

    def _counteract(self, w: Work, me: str, legal: list[Action]) -> Action:
        if not any(a.verb in ("Counteract", "Pass") for a in legal):
            return self._action(w, me, legal)  # the counteraction's own action
        return _best_opportunity(w, legal, "Counteract", as_engage=True)

    def _guard(self, w: Work, me: str, legal: list[Action]) -> Action:
        return _best_opportunity(w, legal, "Interrupt", as_engage=False)

    def _action(self, w: Work, me: str, legal: list[Action]) -> Action:
        frame = w.top
        o = w.op(frame.op)
        mode = frame.mode
        here = w.place(o)
        base = _position_value(w, o, here, can_shoot=False)
        scored: list[tuple[float, int, Action]] = []
        moves: list[tuple[int, Action]] = []
        for i, a in enumerate(legal):
            v = a.verb
            if v == "End activation":
                scored.append((base, i, a))
            elif v == "Shoot":
                scored.append((base + _shoot_action_value(w, o, a, mode), i, a))
            elif v in ("Fight", "Hatchway fight"):
                t = w.op(a.target)
                scored.append((base + _fight_action_value(w, o, a.weapon, t), i, a))
            elif v in MOVE_VERBS and a.point is not None:
                moves.append((i, a))
            elif v == "Guard":
                g = 0.1 if not _best_shot_now(w, o, as_engage=False) else -0.05
                scored.append((base + g, i, a))
            else:
                scored.append((base - 0.01, i, a))
        if moves:
            scored.extend(self._score_moves(w, o, mode, moves, len(legal)))
        scored.sort(key=lambda t: (-t[0], t[1]))
        state = self._state
        for _, _, a in scored:
            if a in legal or state.is_legal(a):
                return a
        return legal[0]  # pragma: no cover - End activation is always listed

    def _score_moves(
        self, w: Work, o: OperativeState, mode: str, moves: list[tuple[int, Action]], n: int
    ) -> list[tuple[float, int, Action]]:
        """Score move actions: a cheap pre-score for every candidate (listed ones plus
        cover spots in reach), then the full position value for the best few."""
        here = w.place(o)
        verbs = sorted(
            {a.verb for _, a in moves}, key=lambda v: min(i for i, a in moves if a.verb == v)
        )
        extra: list[tuple[int, Action]] = []
        k = n
        for verb in verbs:
            if verb == "Charge":
                continue
            limit = max(
                math.hypot(a.point[0] - here.x, a.point[1] - here.y)
                for _, a in moves
                if a.verb == verb and a.point is not None
            )
            listed = {(a.point[0], a.point[1]) for _, a in moves if a.verb == verb and a.point}
            for x, y in _cover_spots(w, here.base_mm):
                if (x, y) in listed:
                    continue
                if math.hypot(x - here.x, y - here.y) <= limit - 0.05:
                    extra.append((k, Action(verb, op=o.id, point=(x, y, 0.0))))
                    k += 1
        pool = moves + extra
        ap_after = o.ap - 1 if mode == "activation" else 0
        shoot_later = (
            mode == "activation" and "Shoot" not in o.done and o.order == "engage" and ap_after >= 1
        )
        fight_later = mode == "activation" and "Fight" not in o.done and ap_after >= 1
        melee = _melee_minded(w, o)
        pre: list[tuple[float, int, Action, Placement]] = []
        for i, a in pool:
            assert a.point is not None
            x, y, z = a.point
            p = w.ctx.placement(o.id, x, y, z)
            pre.append((_cheap_value(w, o, p, melee), i, a, p))
        pre.sort(key=lambda t: (-t[0], t[1]))
        chosen = pre[:TOP_DESTINATIONS]
        charges = [t for t in pre if t[2].verb == "Charge"]
        for t in charges[:3]:
            if t not in chosen:
                chosen.append(t)
        out = []
        for _, i, a, p in chosen:
            verb = a.verb
            v = _position_value(
                w, o, p, can_shoot=shoot_later and verb not in ("Charge",), melee=melee
            )
            if verb == "Charge" and fight_later:
                v += max((_fight_from(w, o, p, e) for e in _enemies_in_reach(w, o, p)), default=0)
            if verb == "Fall Back":
                v -= 0.05  # it costs 2AP
            out.append((v, i, a))
        return out

    # -- dice decisions --------------------------------------------------------------------

    def _reroll(self, w: Work, me: str, legal: list[Action]) -> Action:
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
            if fail and _cmd_available(legal):
                gain = _shoot_cr_gain(w, f, attacking, min(fail))
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

    def _team_rule(self, w: Work, me: str, legal: list[Action]) -> Action:
        uses = [a for a in legal if a.verb == "Use"]
        if not uses:
            return legal[0]
        if not uses[0].target:  # a use that names no operative (yet): take it
            return uses[0]

        def lost(a: Action) -> int:
            return w.ctx.datacards[a.target].wounds - w.op(a.target).wounds

        return max(uses, key=lambda a: (lost(a), -uses.index(a)))

    def _retaliate(self, w: Work, me: str, legal: list[Action]) -> Action:
        f = w.top
        a_op, d_op = w.op(f.attacker), w.op(f.defender)
        pa = attacks.attack_profile(w, a_op, f.aweapon, "melee", hit_change=-f.a_assist)
        best: tuple[float, Action] | None = None
        for act in legal:
            pd = attacks.attack_profile(w, d_op, act.weapon, "melee", hit_change=-f.d_assist)
            v = fight_value(pa, a_op.wounds, _max_w(w, a_op), pd, d_op.wounds, _max_w(w, d_op))
            if best is None or v < best[0] - 1e-12:
                best = (v, act)
        return best[1] if best is not None else legal[0]

    def _resolve(self, w: Work, me: str, legal: list[Action]) -> Action:
        """Strike or block (5.2 step 4): each option is applied by the engine itself; its
        value is the damage (or incapacitation) it causes at once plus the rest of the
        resolution solved optimally for both sides by the dice core
        (:meth:`engine.dice.fight.Resolver.solve`, the objective of :mod:`engine.dice.fight`:
        ``KILL_VALUE`` x incapacitations + damage dealt - damage taken)."""
        f = w.top
        pa = f.prof(w, "a")
        pd = f.prof(w, "d") if f.dweapon else AttackProfile(0, 6, 0, 0)
        wa0, wd0 = w.op(f.attacker).wounds, w.op(f.defender).wounds
        resolver = Matchup(Fighter(pa, max(1, wa0)), Fighter(pd, max(1, wd0))).resolver
        sign = 1 if me == w.ctx.owner[f.attacker] else -1
        best: tuple[int, int, Action] | None = None
        for i, act in enumerate(legal):
            after, _ = self._state.apply(act)
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
                    rest = resolver.solve(
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

    def _same_feature(self, w: Work, me: str, legal: list[Action]) -> Action:
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
            return shot_value(prof, target, _max_w(w, t))

        return _best(legal, value, maximise=False)

    def _accurate(self, w: Work, me: str, legal: list[Action]) -> Action:
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
        target = Target(save, max(1, t.wounds), f.cover, f.obscured, f.improved)
        sign = 1.0 if t.player != me else -1.0

        def value(a: Action) -> float:
            k = a.values[0]
            return sign * shot_value(_with_accurate(prof, k), target, _max_w(w, t)) + 1e-9 * k

        return _best(legal, value, maximise=True)

    def _retention_rule(self, w: Work, me: str, legal: list[Action]) -> Action:
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
                return sign * _retained_shot_value(w, f, n, c)

            now = (f.normals, f.crits, f.fails)
            v_apply = max(
                leaf(n, c) for n, c in _reachable(rest, *choices.apply_retention_rule(rule, *now))
            )
            v_decline = max(leaf(n, c) for n, c in _reachable(rest, *now))
            return apply_ if v_apply > v_decline else decline
        side = "a" if f.a_rules else "d"
        value = _fight_retention_value(w, f, side)
        rules = f.a_rules if side == "a" else f.d_rules
        now = f._side_dice(side)
        v_apply = value(_reachable(rules[1:], *choices.apply_retention_rule(rules[0], *now)))
        v_decline = value(_reachable(rules[1:], *now))
        return apply_ if v_apply > v_decline else decline

    def _cover_save(self, w: Work, me: str, legal: list[Action]) -> Action:
        """The cover save (4.5, 4.7): the option of least exact value to the shooter (its
        kill probability plus weighted damage through the defence roll)."""
        f = w.top
        t = f.target(w)
        prof = f.profile(w)
        save = w.ctx.datacards[t.id].save
        d = prof.rules.dice
        dice = max(0, 3 - max(d.piercing, d.piercing_crits if f.crits else 0))
        opts = {name: (cn, cc) for name, cn, cc in f.cover_options(w)}

        def value(a: Action) -> float:
            cn, cc = opts[a.text]
            return _defence_value(
                f.normals,
                f.crits,
                prof,
                save,
                cn,
                cc,
                dice - cn - cc,
                (),
                max(1, t.wounds),
                _max_w(w, t),
            )

        return _best(legal, value, maximise=False)


# -------------------------------------------------------------------------------------------
# Helpers
# -------------------------------------------------------------------------------------------


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
    wa, ma = max(1, a_op.wounds), _max_w(w, a_op)
    wd, md = max(1, d_op.wounds), _max_w(w, d_op)

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


def _reachable(rules: tuple[str, ...], n: int, c: int, fails: int) -> list[tuple[int, int]]:
    """Every retained ``(normals, crits)`` the retention ``rules`` still to be offered can
    lead to, each applied or declined in turn (6)."""
    if not rules:
        return [(n, c)]
    out = _reachable(rules[1:], n, c, fails)
    if choices.retention_rule_applies(rules[0], n, c, fails):
        out += _reachable(rules[1:], *choices.apply_retention_rule(rules[0], n, c, fails))
    return out


def _retained_shot_value(w: Work, f: shoot_action.ShootFrame, n: int, c: int) -> float:
    """Exact value to the shooter (as :func:`shot_value`) of retaining ``n`` normal and
    ``c`` critical successes: Devastating at once, then the defender's best cover-save option
    (:func:`engine.game.choices.cover_save_options`) and the defence roll."""
    t = f.target(w)
    prof = f.profile(w)
    d = prof.rules.dice
    save = w.ctx.datacards[t.id].save
    maxw = _max_w(w, t)
    wounds = max(1, t.wounds)
    dev = d.devastating * c
    if dev >= wounds:
        return 1.0 + DAMAGE_WEIGHT * wounds / maxw
    left = wounds - dev
    dice = max(0, 3 - max(d.piercing, d.piercing_crits if c else 0))
    opts = choices.cover_save_options(prof, n, c, save, left, f.cover, f.improved)
    rest = min(
        _defence_value(n, c, prof, save, cn, cc, dice - cn - cc, (), left, maxw)
        for _, cn, cc in opts
    )
    return rest + DAMAGE_WEIGHT * dev / maxw


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
    m = Matchup(Fighter(pa, max(1, a_op.wounds)), Fighter(pd, max(1, d_op.wounds)))
    ma, md = _max_w(w, a_op), _max_w(w, d_op)

    def value(an: int, ac: int, dn: int, dc: int) -> float:
        ta, td = m.damage_taken(an, ac, dn, dc)
        return (
            (td >= d_op.wounds)
            - (ta >= a_op.wounds)
            + DAMAGE_WEIGHT * (min(td, d_op.wounds) / md - min(ta, a_op.wounds) / ma)
        )

    if side == "a":
        d_out = _reachable(f.d_rules, *f._side_dice("d"))

        def of_a(outs: list[tuple[int, int]]) -> float:
            return max(min(value(an, ac, dn, dc) for dn, dc in d_out) for an, ac in outs)

        return of_a

    def of_d(outs: list[tuple[int, int]]) -> float:
        return max(-value(f.an, f.ac, dn, dc) for dn, dc in outs)

    return of_d


def _best_opportunity(w: Work, legal: list[Action], verb: str, as_engage: bool) -> Action:
    """Among the ``verb`` actions (``Counteract X``, ``Interrupt X``), the one whose operative
    has the best shot or fight now, when worth at least :data:`OPPORTUNITY`; else Pass."""
    best: tuple[float, Action] = (OPPORTUNITY, Action("Pass"))
    for a in legal:
        if a.verb != verb:
            continue
        o = w.op(a.op)
        v = max(_best_shot_now(w, o, as_engage=as_engage), _best_fight_now(w, o))
        if v > best[0] + 1e-9:
            best = (v, a)
    return best[1] if best[1] in legal else legal[0]


def _max_w(w: Work, o: OperativeState) -> int:
    return w.ctx.datacards[o.id].wounds


def _melee_minded(w: Work, o: OperativeState) -> bool:
    """Whether ``o`` fights better than it shoots (its best melee weapon's exact value
    against a standard target exceeds its best ranged weapon's by a third)."""

    def best(kind: str) -> float:
        out = 0.0
        for _, _, prof in universal.weapons_of(w, o.id, kind):
            ap = prof.attack_profile()
            if kind == "ranged":
                out = max(out, shot_value(ap, Target(4, 8), 8))
            else:
                out = max(out, fight_value(ap, 8, 8, None, 8, 8))
        return out

    return bool(w.ctx.cached(("h_melee", o.id), lambda: best("melee") > 1.33 * best("ranged")))


def _shot(
    w: Work, o: OperativeState, p: Placement, name: str, t: OperativeState, pb: bool
) -> float:
    """Value of ``o`` at ``p`` shooting ``t`` with weapon ``name`` (no validity check)."""
    kz = w.kz
    pt = w.place(t)
    tg = w.ctx.targeting(kz, p, pt)
    improved = tg.in_cover and bool(
        w.ctx.cached(
            ("h_imp", id(kz), p, pt, t.order), lambda: sight.improved_cover(kz, p, pt, t.order)
        )
    )
    prof = attacks.attack_profile(w, o, name, "ranged", hit_change=1 if pb else 0)
    save = w.ctx.datacards[t.id].save
    v = shot_value(
        prof, Target(save, max(1, t.wounds), tg.in_cover, tg.obscured, improved), _max_w(w, t)
    )
    return v


def _valid(w: Work, p: Placement, t: OperativeState, o: OperativeState) -> bool:
    """``t`` is a valid target for ``o`` standing at ``p`` (visibility, Conceal in cover, no
    friendly of ``o`` within ``t``'s control range)."""
    kz = w.kz
    pt = w.place(t)
    if not w.ctx.valid_target(kz, pt, p, t.order, None):
        return False
    return all(not w.control_range(f, t) for f in w.friends_of(o.id))


def _ranged(w: Work, o: OperativeState, as_engage: bool) -> list[tuple[str, Any]]:
    out = []
    for name, _, prof in universal.weapons_of(w, o.id, "ranged"):
        if not as_engage and o.order != "engage" and not universal.silent(prof):
            continue
        if universal.weapon_usable(w, o, name, prof) is not None:
            continue
        out.append((name, prof))
    return out


def _best_shot_from(w: Work, o: OperativeState, p: Placement, as_engage: bool) -> float:
    """The best shot value ``o`` would have standing at ``p`` (0 when none)."""
    weapons = _ranged(w, o, as_engage)
    if not weapons:
        return 0.0
    best = 0.0
    for t in w.enemies_of(o.id):
        if not _valid(w, p, t, o):
            continue
        d = sight.distance(p, w.place(t))
        for name, prof in weapons:
            rng = prof.rules.get(Range)
            if isinstance(rng, Range) and d > rng.distance + 1e-6:
                continue
            best = max(best, _shot(w, o, p, name, t, False))
    return best


def _best_shot_now(w: Work, o: OperativeState, as_engage: bool) -> float:
    if w.in_enemy_control_range(o):
        return 0.0
    return _best_shot_from(w, o, w.place(o), as_engage)


def _best_fight_now(w: Work, o: OperativeState) -> float:
    best = 0.0
    for t in fight_action.fight_targets(w, o):
        for name, _, prof in universal.weapons_of(w, o.id, "melee"):
            if universal.weapon_usable(w, o, name, prof) is None:
                best = max(best, _fight_action_value(w, o, name, t))
    return best


def _worst_retaliation(
    w: Work,
    o: OperativeState,
    pa: AttackProfile,
    t: OperativeState,
    d_assist: int,
    *,
    usable_only: bool,
) -> float:
    """Exact value of ``o`` fighting ``t`` with profile ``pa`` when ``t`` retaliates with
    the melee weapon worst for ``o`` (Hit worsened by ``d_assist``), or cannot retaliate
    when it has none (5.2)."""
    worst: float | None = None
    for name, _, prof in universal.weapons_of(w, t.id, "melee"):
        if usable_only and universal.weapon_usable(w, t, name, prof) is not None:
            continue
        pd = attacks.attack_profile(w, t, name, "melee", hit_change=-d_assist)
        v = fight_value(pa, max(1, o.wounds), _max_w(w, o), pd, max(1, t.wounds), _max_w(w, t))
        worst = v if worst is None else min(worst, v)
    if worst is None:
        return fight_value(pa, max(1, o.wounds), _max_w(w, o), None, max(1, t.wounds), _max_w(w, t))
    return worst


def _fight_action_value(w: Work, o: OperativeState, weapon: str | None, t: OperativeState) -> float:
    """Exact value of ``o`` fighting ``t`` with ``weapon`` now (assists counted; the
    defender retaliates with its best weapon, or not at all when it cannot)."""
    assert weapon is not None
    pa = attacks.attack_profile(w, o, weapon, "melee", hit_change=-fight_action.assists(w, o, t))
    if any(e.kind == "no_retaliate" and e.op == t.id for e in w.effects):
        return fight_value(pa, max(1, o.wounds), _max_w(w, o), None, max(1, t.wounds), _max_w(w, t))
    return _worst_retaliation(w, o, pa, t, fight_action.assists(w, t, o), usable_only=True)


def _fight_from(w: Work, o: OperativeState, p: Placement, t: OperativeState) -> float:
    """Value of the best fight ``o`` would start from ``p`` against ``t`` (no assists)."""
    best = 0.0
    for name, _, prof in universal.weapons_of(w, o.id, "melee"):
        if universal.weapon_usable(w, o, name, prof) is None:
            pa = attacks.attack_profile(w, o, name, "melee")
            best = max(best, _worst_retaliation(w, o, pa, t, 0, usable_only=False))
    return best


def _enemies_in_reach(w: Work, o: OperativeState, p: Placement) -> list[OperativeState]:
    return [e for e in w.enemies_of(o.id) if sight.distance(p, w.place(e)) <= 1.0 + 1e-6]


def _charge_prospect(w: Work, o: OperativeState) -> float:
    """For a melee-minded operative: the best fight against an enemy within a Charge's
    reach (Move + 2" + 1"), else 0."""
    if not _melee_minded(w, o) or w.in_enemy_control_range(o):
        return 0.0
    reach = w.move_stat(o) + 3.0
    here = w.place(o)
    best = 0.0
    for e in w.enemies_of(o.id):
        if sight.distance(here, w.place(e)) <= reach:
            best = max(best, 0.8 * _fight_from(w, o, here, e))
    return best


def _threat(w: Work, e: OperativeState, o: OperativeState, p: Placement, order: str) -> float:
    """How much enemy ``e`` threatens ``o`` standing at ``p`` with ``order``: its best
    ranged weapon's shot value when ``o`` there is a valid target for it, else 0."""
    kz = w.kz
    pe = w.place(e)
    if not w.ctx.visible(kz, pe, p):
        return 0.0
    tg = w.ctx.targeting(kz, pe, p)
    if order == "conceal" and tg.in_cover:
        return 0.0
    best = 0.0
    save = w.ctx.datacards[o.id].save
    target = Target(save, max(1, o.wounds), tg.in_cover, tg.obscured, False)
    for name, _, _prof in universal.weapons_of(w, e.id, "ranged"):
        ap = attacks.attack_profile(w, e, name, "ranged")
        best = max(best, shot_value(ap, target, _max_w(w, o)))
    return best


def _exposure(w: Work, o: OperativeState, p: Placement, order: str) -> float:
    """Exposure of ``o`` at ``p``: the strongest enemy threat plus a third of the others.
    Within an enemy's control range enemies cannot shoot it (4.5); the threat is then the
    best fight an enemy there could start against it (exact, 5.2)."""
    enemies = w.enemies_of(o.id)
    close = [e for e in enemies if sight.distance(p, w.place(e)) <= 1.0 + 1e-6]
    if close:
        return max(0.0, max(_fight_from(w, e, w.place(e), o) for e in close))
    threats = sorted(
        (_threat(w, e, o, p, order) * (1.0 if e.ready else 0.6) for e in enemies), reverse=True
    )
    if not threats:
        return 0.0
    return threats[0] + sum(threats[1:]) / 3


def _objective_pull(w: Work, p: Placement) -> float:
    best = math.inf
    for m in w.markers:
        if m.carrier:
            continue
        best = min(best, math.hypot(m.x - p.x, m.y - p.y))
    if best is math.inf:
        return 0.0
    return 0.06 if best <= 1.0 + 0.8 + p.radius else -0.004 * best


def _nearest_enemy(w: Work, o: OperativeState, p: Placement) -> float:
    return min((math.hypot(e.x - p.x, e.y - p.y) for e in w.enemies_of(o.id)), default=0.0)


def _cheap_value(w: Work, o: OperativeState, p: Placement, melee: bool) -> float:
    """A geometry-free pre-score of a destination: near cover, objectives, and for melee
    operatives the nearest enemy."""
    v = _objective_pull(w, p) + (0.15 if _near_cover(w, p) else 0.0)
    if melee:
        v -= 0.03 * _nearest_enemy(w, o, p)
    v -= 0.05 * sum(1 for f in w.friends_of(o.id) if math.hypot(f.x - p.x, f.y - p.y) < 2.0)
    return v


def _position_value(
    w: Work, o: OperativeState, p: Placement, *, can_shoot: bool, melee: bool | None = None
) -> float:
    """Value of ``o`` standing at ``p`` (module docstring): minus exposure, plus the best
    shot it can still take (when ``can_shoot``), objectives, and the melee pull."""
    if melee is None:
        melee = _melee_minded(w, o)
    v = -EXPOSURE_WEIGHT * _exposure(w, o, p, o.order)
    if can_shoot and not any(
        sight.distance(p, w.place(e)) <= 1.0 + 1e-6 for e in w.enemies_of(o.id)
    ):
        v += 0.9 * _best_shot_from(w, o, p, as_engage=False)
    v += _objective_pull(w, p)
    if melee:
        v -= 0.03 * _nearest_enemy(w, o, p)
    v -= 0.05 * sum(1 for f in w.friends_of(o.id) if math.hypot(f.x - p.x, f.y - p.y) < 2.0)
    return v


def _shoot_action_value(w: Work, o: OperativeState, a: Action, mode: str) -> float:
    """Value of a listed Shoot action: the exact shot, Blast secondaries, Hot's risk."""
    assert a.weapon is not None and a.target is not None
    pb = mode == "interrupt" and w.in_enemy_control_range(o)
    name, _, prof = universal.find_weapon(w, o, a.weapon, "ranged")
    t = w.op(a.target)
    here = w.place(o)
    v = _shot(w, o, here, name, t, pb)
    if t.player == o.player:  # a team weapon rule's own primary target (e.g. Explosive*)
        v = -v
    blast = prof.rules.get(Blast)
    if isinstance(blast, Blast):
        tp = w.place(t)
        for q in w.alive():
            if q.id in (t.id, o.id):
                continue
            if w.distance(tp, w.place(q)) <= blast.distance + 1e-6 and w.ctx.visible(
                w.kz, tp, w.place(q)
            ):
                sv = _shot(w, o, here, name, q, pb)
                v += sv if q.player != o.player else -sv
    if prof.rules.dice.hot:
        hit = attacks.attack_profile(w, o, name, "ranged").hit
        exp = sum(2 * f for f in range(1, hit)) / 6
        v -= DAMAGE_WEIGHT * exp / _max_w(w, o)
    return v


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


def _cmd_available(legal: list[Action]) -> bool:
    return any(a.verb == "Command re-roll" for a in legal)


def _decline(legal: list[Action]) -> Action:
    for verb in ("Keep", "Decline"):
        a = Action(verb)
        if a in legal:
            return a
    return legal[0]  # pragma: no cover


def _replace_one(dice: Sequence[int], face: int, new: int) -> tuple[int, ...]:
    out = list(dice)
    out[out.index(face)] = new
    return tuple(out)


def _shoot_cr_gain(w: Work, f: shoot_action.ShootFrame, attacking: bool, face: int) -> float:
    """Exact expected gain (in operatives, for the player re-rolling) of re-rolling one die
    showing ``face`` in this shooting attack."""
    prof = f.profile(w)
    t = f.target(w)
    save = w.ctx.datacards[t.id].save
    maxw = _max_w(w, t)
    wounds = max(1, t.wounds)
    if attacking:
        # The attacker's best retention rules, then the defender's best cover save
        # (the players' choices, engine.game.attacks).

        def value(dice: tuple[int, ...]) -> float:
            n, c, fails = choices.roll_retained(dice, f.accurate, prof, f.obscured)
            rules = choices.retention_rules(prof, f.obscured, c)
            return max(
                _retained_shot_value(w, f, nn, cc) for nn, cc in _reachable(rules, n, c, fails)
            )

        now = value(f.dice)
        after = sum(value(_replace_one(f.dice, face, v)) for v in range(1, 7)) / 6
        return after - now
    cn, cc = f.cover_saves

    def loss(dice: tuple[int, ...]) -> float:
        return _defence_value(f.normals, f.crits, prof, save, cn, cc, 0, dice, wounds, maxw)

    now = loss(f.dice)
    after = sum(loss(_replace_one(f.dice, face, v)) for v in range(1, 7)) / 6
    return now - after


def _fight_cr_gain(w: Work, f: fight_action.FightFrame, side: str, face: int) -> float:
    """Exact expected gain for ``side`` of re-rolling one of its dice showing ``face``,
    both sides then resolving optimally."""
    pa = f.prof(w, "a")
    pd = f.prof(w, "d") if f.dweapon else AttackProfile(0, 6, 0, 0)
    a_op, d_op = w.op(f.attacker), w.op(f.defender)
    m = Matchup(Fighter(pa, max(1, a_op.wounds)), Fighter(pd, max(1, d_op.wounds)))
    ma, md = _max_w(w, a_op), _max_w(w, d_op)

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
        after = sum(value(_replace_one(f.adice, face, v), f.ddice) for v in range(1, 7)) / 6
        return after - now
    after = sum(value(f.adice, _replace_one(f.ddice, face, v)) for v in range(1, 7)) / 6
    return now - after


def _cover_spots(w: Work, base_mm: float) -> tuple[tuple[float, float], ...]:
    """Spots on the floor just outside Light and Heavy terrain parts (their corners and the
    middles of their sides, a base's radius plus 0.1" away), for this base size; cached on
    the killzone."""
    kz = w.kz
    cache: dict[float, tuple[tuple[float, float], ...]] = kz.cache.setdefault(
        "heuristic_cover_spots", {}
    )
    key = base_mm
    if key in cache:
        return cache[key]
    r = base_mm / 25.4 / 2 + 0.1
    out: set[tuple[float, float]] = set()
    for part in kz.parts:
        if not (_COVER_TYPES & part.types) or part.height <= 0:
            continue
        ring = part.polygon.buffer(r, join_style="mitre")
        if ring.geom_type == "Polygon":
            coords = list(ring.exterior.coords)[:-1]
            for (x0, y0), (x1, y1) in zip(coords, coords[1:] + coords[:1], strict=True):
                for x, y in ((x0, y0), ((x0 + x1) / 2, (y0 + y1) / 2)):
                    if r <= x <= kz.width - r and r <= y <= kz.depth - r:
                        out.add((round(x, 3), round(y, 3)))
    spots = tuple(sorted(out))
    cache[key] = spots
    return spots


def _near_cover(w: Work, p: Placement) -> bool:
    """Whether a Light or Heavy part is within 1" of the base (a cheap cover proxy)."""
    kz = w.kz
    key = (round(p.x, 1), round(p.y, 1), p.base_mm)
    cache: dict[tuple[float, float, float], bool] = kz.cache.setdefault("heuristic_near", {})
    hit = cache.get(key)
    if hit is None:
        from shapely.geometry import Point

        area = Point(p.x, p.y).buffer(p.radius + 1.0)
        hit = any(
            bool(_COVER_TYPES & part.types) and part.polygon.intersects(area) for part in kz.parts
        )
        if len(cache) < 500_000:
            cache[key] = hit
    return bool(hit)
