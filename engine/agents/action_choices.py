"""Values of single choices of the heuristic agent (:mod:`engine.agents.heuristic` module
docstring): ploys and free rule options between actions, Ammo Resupply, whether an operative
might see an enemy after a move, a deployment spot's exposure, the Stun Grenade, and the
best counteraction or On Guard interrupt. Units: operatives (an enemy incapacitated is 1).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.advice import VP_VALUE, best_shot_now, stun_value
from engine.agents.position import best_fight_now
from engine.game.actions import Action
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.geometry import Killzone, Placement
from engine.rules.equipment.grenades import STUN_TEST, stun_tested
from engine.rules.equipment.markers import AMMO_RESUPPLY

__all__ = [
    "OPPORTUNITY",
    "RESUPPLY_SHOT",
    "best_opportunity",
    "contests_roughly",
    "during_activation_ploy",
    "during_activation_rule",
    "may_see",
    "resupply_value",
    "seen_share",
    "stun_grenade_value",
]

#: Minimum value of a shot or fight for a counteraction or an On Guard interrupt.
OPPORTUNITY = 0.2

RESUPPLY_SHOT = 0.2
"""The least shot value (operatives) for which the agent performs Ammo Resupply first."""


def during_activation_ploy(w: Work, me: str, o: OperativeState, a: Action) -> float:
    """What using the ploy ``a`` between ``o``'s actions adds: its advice less
    :data:`~engine.agents.advice.PLOY_THRESHOLD` per CP, when it has an advice worth that and
    its cost keeps :data:`~engine.agents.ploy_choices.KEEP_CP`; otherwise a little less than
    standing still (never chosen over ending the activation)."""
    from engine.agents.advice import PLOY_THRESHOLD, ploy_advice
    from engine.agents.ploy_choices import KEEP_CP
    from engine.game import ploys

    for ploy, players in w.ctx.hooks.ploys.get("during_activation", ()):
        if me not in players or not ploy.owns(a):
            continue
        advice = ploy_advice(ploy)
        cost = ploys.ploy_cost(w, me, ploy, a)
        if advice is None or w.pl(me).cp - cost < KEEP_CP:
            break
        value = float(advice(w, me, a, {"op": o.id, "trigger": "during_activation"}))
        if value > PLOY_THRESHOLD * max(1, cost):
            return value - PLOY_THRESHOLD * max(1, cost)
        break
    return -0.01


def during_activation_rule(w: Work, me: str, o: OperativeState, a: Action) -> float:
    """The advice of the free rule option ``a`` (kind ``"rule"``, ``Use ...``) offered between
    ``o``'s actions (trigger during_activation), or 0 without one: it costs nothing, so a
    positive advice puts it before the best other action."""
    from engine.agents.advice import ploy_advice

    for ploy, players in w.ctx.hooks.ploys.get("during_activation", ()):
        if me in players and ploy.kind == "rule" and ploy.owns(a):
            advice = ploy_advice(ploy)
            if advice is None:
                return 0.0
            return float(advice(w, me, a, {"op": o.id, "trigger": "during_activation"}))
    return 0.0


def resupply_value(w: Work, o: OperativeState, shoot: float) -> float:
    """Ammo Resupply's score over standing still (module docstring); ``shoot``: the best
    listed Shoot action's score over standing still (with the VP of its kill)."""
    if o.ap < AMMO_RESUPPLY.ap + 1 or "Shoot" in o.done:  # AP left for the Shoot after it
        return -0.01
    best = best_shot_now(w, o, as_engage=o.order == "engage")
    return 1.05 * max(best, shoot) if best >= RESUPPLY_SHOT else -0.01


def may_see(w: Work, o: OperativeState) -> bool:
    """Whether ``o`` might have a valid target (4.5) after a move: an enemy is a valid
    target from where it stands or from one of eight points a full Move away (a cheap
    filter before the Engage order's look-ahead; terrain in the way is not checked)."""
    here = w.place(o)
    kz = w.kz
    reach = w.move_stat(o)
    spots = [here]
    for k in range(8):
        angle = k * math.pi / 4
        x = min(max(here.x + reach * math.cos(angle), here.radius), kz.width - here.radius)
        y = min(max(here.y + reach * math.sin(angle), here.radius), kz.depth - here.radius)
        spots.append(w.ctx.placement(o.id, round(x, 3), round(y, 3), 0.0))
    for e in w.enemies_of(o.id):
        pe = w.place(e)
        if any(w.ctx.valid_target(kz, pe, p, e.order, None) for p in spots):
            return True
    return False


def contests_roughly(p: Placement, x: float, y: float) -> bool:
    """Whether a base at ``p`` is close enough to an objective marker at ``(x, y)`` to
    contest it (its control range, 4.2, 4.8: 1" plus the 40mm marker's radius; sight is
    not checked)."""
    return math.hypot(p.x - x, p.y - y) <= p.radius + 1.0 + 0.8


def seen_share(w: Work, kz: Killzone, zone: str, eyes: list[Placement], p: Placement) -> float:
    """The share of ``eyes`` (the sample points of drop zone ``zone``) that see ``p`` (4.3);
    a pure function of the killzone, so cached on it (battles of a batch share it)."""
    cache: dict[tuple[str, Placement], float] = kz._cache.setdefault("heuristic_seen", {})
    key = (zone, p)
    hit = cache.get(key)
    if hit is None:
        hit = sum(1 for e in eyes if w.ctx.visible(kz, e, p)) / len(eyes)
        if len(cache) < 100_000:
            cache[key] = hit
    return hit


def stun_grenade_value(w: Work, me: str, target: str) -> float:
    """The Stun Grenade rule of thumb (module docstring, :func:`engine.advice.stun_value`)
    for a stun grenade selecting ``target``, in operatives."""
    return stun_value(w, me, stun_tested(w, target), STUN_TEST)


def best_opportunity(
    w: Work,
    legal: list[Action],
    verb: str,
    as_engage: bool,
    mission: Callable[[str], float] | None = None,
    ranked: list[tuple[float, Action, str]] | None = None,
) -> Action:
    """Among the ``verb`` actions (``Counteract X``, ``Interrupt X``), the one whose operative
    has the best shot or fight now (or, given ``mission``, the best VP of a mission action
    it may perform: ``mission(operative id)``, at :data:`VP_VALUE` each), when worth at
    least :data:`OPPORTUNITY`; else Pass. ``ranked``: given, each ``(value, action, note)``
    weighed is appended to it (Pass at :data:`OPPORTUNITY`)."""
    best: tuple[float, Action] = (OPPORTUNITY, Action("Pass"))
    if ranked is not None:
        ranked.append((OPPORTUNITY, Action("Pass"), "pass: no opportunity worth more"))
    for a in legal:
        if a.verb != verb:
            continue
        o = w.op(a.op)
        shot, fight = best_shot_now(w, o, as_engage=as_engage), best_fight_now(w, o)
        v = max(shot, fight)
        vp = 0.0
        if mission is not None:
            vp = VP_VALUE * mission(o.id)
            v = max(v, vp)
        if ranked is not None:
            ranked.append((v, a, f"best shot {shot:.2f}, fight {fight:.2f}, mission {vp:.2f}"))
        if v > best[0] + 1e-9:
            best = (v, a)
    return best[1] if best[1] in legal else legal[0]
