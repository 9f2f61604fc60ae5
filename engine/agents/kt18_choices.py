"""The heuristic agent's answers to the decisions of the KT18 rules (``rules/KT18.md``): each
decision kind the Covert War set-up and the KT18 battle round open. Dice are valued with the
exact odds of the KT18 mode of the dice core (:mod:`engine.advice.kt18_values`,
:mod:`engine.dice.kt18`). The agent finds them in its table from decision kind to handler
(:class:`engine.agents.heuristic.HeuristicAgent`): the kinds are data, the handlers never ask
which ruleset is in play.

Each decision function takes the working copy ``w``, the deciding player ``me`` and the
listed legal actions, and returns one of them. The rules of thumb:

- Set-up (9.3, 9.5): its objective marker on the listed point nearest the battlefield's
  centre; the first split and zone listed; each model set up on the listed spot nearest an
  objective marker (Covert War scores only the markers' control at the end, 9.4, 9.7).
- Movement phase (3.1-3.13), one model at a time: a charge when the model fights better than
  it shoots and the 2D6 charge roll covers the gap (distance - 1") with odds of at least
  :data:`CHARGE_ODDS`; the :data:`RUNNERS` models nearest each objective marker move to it
  (Advance when it is further than M) until within 1.5" of its centre; a model that has a
  shot worth at least :data:`SHOT_MIN` where it stands is Readied (it shoots first, 5.1,
  and a Heavy weapon keeps its aim, 5.9); a model that fights better than it shoots
  Advances toward the nearest enemy; the others move toward the nearest objective marker,
  or stay (Ready) within 1.5" of one. Never Fall Back (the model stays to fight).
  Destinations: the listed one nearest the model's goal, a tie broken by the fewer enemies
  within 12" (out of the reach of most enemy weapons).
- Reactions (3.11): Overwatch when offered, else stay (no Retreat).
- Shooting and Fight phases (5.1-5.12, 7.1-7.8): the shooter (fighter) with the best attack
  value first; the weapon and initial target of greatest exact value (P(out of action) x
  the target's worth, with shares for flesh wounds and wounds lost); one target only (all
  the attacks at the best one); pile in and consolidate when offered.
- Everything else (charge targets, splits, Nerve test order, failed-charge moves): ``Done``
  or the first listed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from engine.advice.kt18_values import attack_value, charge_odds, model_worth
from engine.dice.kt18 import Kt18Attack, Kt18Target
from engine.errors import KillTeamError
from engine.game.actions import Action
from engine.game.state import OperativeState, other
from engine.game.work import Work
from engine.rules.kt18 import sight
from engine.rules.kt18.destinations import destinations, plain_end_refusal
from engine.rules.kt18.weapons import (
    distance,
    find_kt18_weapon,
    kt18_profile,
    kt18_weapons,
    melee_hit_modifier,
    rapid_fire_doubles,
    shooting_hit_modifier,
    target_refusal,
    weapon_refusal,
)
from engine.rules.kt18.wounds import flesh_wounds

__all__ = [
    "CHARGE_ODDS",
    "CONTROL",
    "RUNNERS",
    "SHOT_MIN",
    "Handler",
    "charge_move",
    "choose_fighter",
    "choose_shooter",
    "choose_weapon",
    "deploy",
    "destination",
    "done",
    "handlers",
    "melee_value",
    "movement",
    "objective_marker",
    "pile_in",
    "reaction",
    "shot_value",
]

CHARGE_ODDS = 0.5
"""The least chance of the charge roll covering the gap for the agent to charge (3.13)."""

SHOT_MIN = 0.05
"""The least attack value (models) of a shot that makes a model stay and Ready (3.8)."""

RUNNERS = 3
"""How many models head for each objective marker (the ones nearest to it, 9.4)."""

CONTROL = 2.0
"""Models within this distance of a marker's centre count for its control (9.4)."""


def _first(legal: Sequence[Action], *skip: str) -> Action:
    """The first listed action whose verb is not one of ``skip`` (else the first)."""
    return next((a for a in legal if a.verb not in skip), legal[0])


def done(w: Work, me: str, legal: list[Action]) -> Action:
    """``Done`` (or ``Pass``) when listed: one target per weapon, no more charge targets
    (5.5, 3.10); else the first listed."""
    del w, me
    return next((a for a in legal if a.verb in ("Done", "Pass")), legal[0])


def _target(w: Work, t: OperativeState, injury_cover: bool) -> Kt18Target:
    p = kt18_profile(w, t.id)
    boxes = p.flesh_wound_boxes
    return Kt18Target(
        toughness=p.toughness,
        save=p.save,
        wounds=max(1, min(40, t.wounds)),
        invulnerable=p.invulnerable,
        flesh_wounds=min(boxes, flesh_wounds(w, t.id)),
        flesh_wound_boxes=boxes,
        cover_modifier=-1 if injury_cover else 0,
    )


def _worth(w: Work, t: OperativeState) -> float:
    return model_worth(w.ctx.datacards[t.id].wounds)


def shot_value(
    w: Work, o: OperativeState, weapon: str, t: OperativeState, *, overwatch: bool = False
) -> float:
    """The exact value (models, :func:`engine.advice.kt18_values.attack_value`) of ``o``
    firing its ranged ``weapon`` at ``t`` now (5.4-5.10, 6.2-6.12): its shots, BS, the hit
    modifiers of 6.2, S against T, AP, D, Rapid Fire's doubling and the cover Injury
    modifier; 0 when the profile cannot be valued."""
    try:
        wp = find_kt18_weapon(w, o.id, weapon, "ranged")
        p = kt18_profile(w, o.id)
        attack = Kt18Attack(
            attacks=wp.shots_value(),
            skill=p.bs,
            strength=min(99, max(1, wp.strength_for(p.strength))),
            ap=max(-6, min(0, wp.ap)),
            damage=wp.damage_value(),
            hit_modifier=max(-6, min(6, shooting_hit_modifier(w, o, t, wp))),
            overwatch=overwatch,
            doubled=rapid_fire_doubles(w, o, wp, [t]),
        )
        return attack_value(attack, _target(w, t, sight.injury_cover(w, o.id, t.id)), _worth(w, t))
    except (KillTeamError, ValueError):
        return 0.0


def melee_value(w: Work, o: OperativeState, weapon: str, t: OperativeState) -> float:
    """The exact value (models) of ``o``'s close combat attacks with ``weapon`` at ``t``
    (7.5, 7.6): its A, WS, the hit modifiers of 7.6, the weapon's S, AP and D; 0 when the
    profile cannot be valued."""
    try:
        wp = find_kt18_weapon(w, o.id, weapon, "melee")
        p = kt18_profile(w, o.id)
        attack = Kt18Attack(
            attacks=p.attacks_value(),
            skill=p.ws,
            strength=min(99, max(1, wp.strength_for(p.strength))),
            ap=max(-6, min(0, wp.ap)),
            damage=wp.damage_value(),
            hit_modifier=max(-6, min(6, melee_hit_modifier(w, o, t))),
        )
        return attack_value(attack, _target(w, t, False), _worth(w, t))
    except (KillTeamError, ValueError):
        return 0.0


def _best_melee(w: Work, o: OperativeState, t: OperativeState) -> float:
    return max((melee_value(w, o, n, t) for n, _ in kt18_weapons(w, o.id, "melee")), default=0.0)


def _best_shot_now(w: Work, o: OperativeState) -> float:
    """The best value of one ranged weapon of ``o`` at a valid target from where it stands."""
    best = 0.0
    for name, wp in kt18_weapons(w, o.id, "ranged"):
        if weapon_refusal(w, o, name, wp, ()) is not None:
            continue
        for t in w.enemies_of(o.id):
            if target_refusal(w, o, t, wp) is None:
                best = max(best, shot_value(w, o, name, t))
    return best


def _melee_minded(w: Work, o: OperativeState) -> bool:
    """``o`` fights better than it shoots: its best close combat value against a typical
    enemy (the nearest) beats its best ranged value against it at half range, ignoring
    sight."""
    enemies = w.enemies_of(o.id)
    if not enemies:
        return False
    t = min(enemies, key=lambda e: distance(w, o, e))
    melee = _best_melee(w, o, t)
    ranged = 0.0
    for name, _ in kt18_weapons(w, o.id, "ranged"):
        ranged = max(ranged, shot_value(w, o, name, t))
    return melee > ranged


def _markers(w: Work) -> list[tuple[float, float]]:
    return [(m.x, m.y) for m in w.markers]


def _near_marker(w: Work, o: OperativeState) -> float:
    p = w.place(o)
    return min(
        (max(0.0, math.hypot(p.x - x, p.y - y) - p.radius) for x, y in _markers(w)),
        default=math.inf,
    )


def objective_marker(w: Work, me: str, legal: list[Action]) -> Action:
    """Covert War set-up (9.3): the listed point nearest the battlefield's centre (a marker
    in the middle is reachable by both sides' models, never handed to the opponent)."""
    del me
    cx, cy = w.ctx.killzone.width / 2, w.ctx.killzone.depth / 2

    def key(a: Action) -> float:
        return math.hypot(a.point[0] - cx, a.point[1] - cy) if a.point else math.inf

    return min(legal, key=key)


def deploy(w: Work, me: str, legal: list[Action]) -> Action:
    """Deployment (9.5): the listed spot nearest an objective marker."""
    del me
    marks = _markers(w)

    def key(a: Action) -> float:
        if a.point is None:
            return math.inf
        return min((math.hypot(a.point[0] - x, a.point[1] - y) for x, y in marks), default=0.0)

    return min(legal, key=key)


def _charge_score(w: Work, a: Action) -> float:
    """The worth of the charge ``a`` (``Charge X at T``): the close combat value times the
    chance of covering the gap, 0 below :data:`CHARGE_ODDS` or for a model that shoots
    better than it fights."""
    o, t = w.op(a.op), w.op(a.target)
    odds = float(charge_odds(distance(w, o, t) - 1.0))
    if odds < CHARGE_ODDS or not _melee_minded(w, o):
        return 0.0
    return odds * _best_melee(w, o, t)


def _has_destination(w: Work, o: OperativeState) -> bool:
    """Whether ``o``'s normal move lists a destination (3.4; else the player would be sent
    ``Back`` and pick it again)."""
    limit = float(w.ctx.datacards[o.id].move)
    return bool(destinations(w, o, "move", limit, lambda end: plain_end_refusal(w, o, end)))


def movement(w: Work, me: str, legal: list[Action]) -> Action:
    """A Movement-phase turn's choice (3.1; module docstring): the best charge, else the next
    model's Ready, Advance or Move, else ``Pass``. A model whose move has no destination is
    Readied instead."""
    charges = [(s, a) for a in legal if a.verb == "Charge" for s in [_charge_score(w, a)] if s > 0]
    if charges:
        return max(charges, key=lambda t: t[0])[1]
    by_op: dict[str, dict[str, Action]] = {}
    for a in legal:
        if a.op and a.verb in ("Move", "Advance", "Ready"):
            by_op.setdefault(a.op, {})[a.verb] = a
    runners = _runners(w, me)
    for op, verbs in by_op.items():
        o = w.op(op)
        near = _near_marker(w, o)
        if op in runners and near > CONTROL * 0.75:
            far = near > w.ctx.datacards[op].move
            if far and "Advance" in verbs:
                return verbs["Advance"]
            if "Move" in verbs and _has_destination(w, o):
                return verbs["Move"]
        if "Ready" in verbs and (_best_shot_now(w, o) >= SHOT_MIN or near <= CONTROL * 0.75):
            return verbs["Ready"]
        if "Advance" in verbs and _melee_minded(w, o):
            return verbs["Advance"]
        if "Move" in verbs and _has_destination(w, o):
            return verbs["Move"]
        if "Ready" in verbs:
            return verbs["Ready"]
    return next((a for a in legal if a.verb == "Pass"), legal[0])


def _runners(w: Work, me: str) -> set[str]:
    """The models of ``me`` that go and hold the objective markers (9.4, 9.7): for each
    marker the :data:`RUNNERS` models of ``me`` nearest to it."""
    out: set[str] = set()
    mine = w.alive(me)
    for x, y in _markers(w):
        near = sorted(mine, key=lambda o: (math.hypot(o.x - x, o.y - y), o.id))
        out.update(o.id for o in near[:RUNNERS])
    return out


def _goal(w: Work, o: OperativeState) -> tuple[float, float] | None:
    """Where ``o`` heads: the nearest objective marker for a runner (:func:`_runners`); the
    nearest enemy for a model that fights better than it shoots; else the nearest objective
    marker (else the nearest enemy)."""
    p = w.place(o)
    enemies = w.enemies_of(o.id)
    marks = _markers(w)
    runner = o.id in _runners(w, o.player)
    if not runner and (_melee_minded(w, o) or not marks) and enemies:
        e = min(enemies, key=lambda e: distance(w, o, e))
        q = w.place(e)
        return q.x, q.y
    if marks:
        return min(marks, key=lambda m: math.hypot(p.x - m[0], p.y - m[1]))
    return None


def _threat(w: Work, me: str, point: tuple[float, float, float]) -> int:
    """How many enemy models stand within 12" of ``point`` (a tie-break of destinations)."""
    return sum(
        1
        for e in w.alive(other(me))
        if math.hypot(w.place(e).x - point[0], w.place(e).y - point[1]) <= 12.0
    )


def destination(w: Work, me: str, legal: list[Action]) -> Action:
    """Where a moving model ends (3.4-3.7): the listed destination nearest its goal
    (:func:`_goal`), the fewer enemies within 12" breaking ties; a Fall Back ends furthest
    from the enemy; ``Pass`` (stay) when already within control range of the goal."""
    pointed = [a for a in legal if a.point is not None]
    if not pointed:
        return done(w, me, legal)
    o = w.op(pointed[0].op) if pointed[0].op else None
    if o is None:
        return pointed[0]
    if pointed[0].verb == "Fall Back":
        enemies = w.enemies_of(o.id)

        def away(a: Action) -> float:
            assert a.point is not None
            return -min(
                (math.hypot(w.place(e).x - a.point[0], w.place(e).y - a.point[1]) for e in enemies),
                default=0.0,
            )

        return min(pointed, key=away)
    goal = _goal(w, o)
    if goal is None:
        return pointed[0]
    here = w.place(o)
    if math.hypot(here.x - goal[0], here.y - goal[1]) <= CONTROL * 0.75:
        stay = next((a for a in legal if a.verb == "Pass"), None)
        if stay is not None:
            return stay

    def key(a: Action) -> tuple[float, int]:
        assert a.point is not None
        d = round(math.hypot(a.point[0] - goal[0], a.point[1] - goal[1]), 1)
        return d, _threat(w, me, a.point)

    return min(pointed, key=key)


def reaction(w: Work, me: str, legal: list[Action]) -> Action:
    """A target's reaction to a charge (3.11, 3.12): Overwatch when offered, else ``Pass``
    (the model stays to fight)."""
    del w, me
    return next(
        (a for a in legal if a.verb == "Overwatch"),
        next((a for a in legal if a.verb == "Pass"), legal[0]),
    )


def charge_move(w: Work, me: str, legal: list[Action]) -> Action:
    """The charge move (3.13): the first listed move (they end within 1" of a target); a
    failed charge's move toward the target too."""
    del w, me
    return _first(legal, "Pass")


def _attack_of(w: Work, a: Action) -> float:
    """The value of a listed weapon-and-target action (``Shoot``/``Overwatch``/``Fight``)."""
    if not a.op or not a.weapon or not a.target:
        return -1.0
    o, t = w.op(a.op), w.op(a.target)
    if a.verb == "Fight":
        return melee_value(w, o, a.weapon, t)
    return shot_value(w, o, a.weapon, t, overwatch=a.verb == "Overwatch")


def choose_weapon(w: Work, me: str, legal: list[Action]) -> Action:
    """A shooter's (or fighter's) next weapon and initial target (5.3, 7.5, 7.8): the one of
    greatest exact value (module docstring); ``Done`` only when nothing else is listed."""
    del me
    scored = [(_attack_of(w, a), a) for a in legal if a.verb not in ("Done", "Pass")]
    if not scored:
        return legal[0]
    return max(scored, key=lambda t: t[0])[1]


def choose_shooter(w: Work, me: str, legal: list[Action]) -> Action:
    """The model that shoots next (5.1, 5.2): the one with the best shot from where it
    stands; ``Pass`` only when no model is listed."""
    del me
    picks = [a for a in legal if a.verb != "Pass" and a.op]
    if not picks:
        return legal[0]
    return max(picks, key=lambda a: _best_shot_now(w, w.op(a.op)))


def choose_fighter(w: Work, me: str, legal: list[Action]) -> Action:
    """The model that fights next (7.2-7.4): the first listed (every model within 1" of an
    enemy fights in its turn; the order matters little); ``Pass`` only when none is."""
    del w, me
    return _first(legal, "Pass")


def pile_in(w: Work, me: str, legal: list[Action]) -> Action:
    """Pile in and consolidate when offered (7.7: toward the nearest enemy)."""
    del w, me
    return _first(legal, "Pass")


Handler = Callable[[Work, str, list[Action]], Action]
"""A decision handler: ``(working copy, deciding player, legal actions) -> action``."""


def tunnels_enter(w: Work, me: str, legal: list[Action]) -> Action:
    """Stay on the battlefield (``Pass``): a model in the tunnels counts as out of action for
    the broken check and Nerve tests until it comes up, and one still down when the battle
    ends is out of action (``rules/KT18.md`` 11.3, 8.2, 8.4)."""
    return done(w, me, legal)


def tunnels_leave(w: Work, me: str, legal: list[Action]) -> Action:
    """Come up (the first listed spot) rather than stay down for the rest of the battle (the
    only window is this turn, 11.3 reading chosen)."""
    del w, me
    return _first(legal, "Pass")


def handlers() -> dict[str, Handler]:
    """The decision kinds this module answers, with their handler (the heuristic agent's
    table)."""
    return {
        "kt18_objective_marker": objective_marker,
        "kt18_deploy": deploy,
        "kt18_movement": movement,
        "kt18_destination": destination,
        "kt18_charge_targets": done,
        "kt18_reaction": reaction,
        "kt18_charge_move": charge_move,
        "kt18_choose_shooter": choose_shooter,
        "kt18_choose_weapon": choose_weapon,
        "kt18_more_targets": done,
        "kt18_choose_fighter": choose_fighter,
        "kt18_pile_in": pile_in,
        "kt18_fight_target": choose_weapon,
        "kt18_tunnels_enter": tunnels_enter,
        "kt18_tunnels_leave": tunnels_leave,
    }
