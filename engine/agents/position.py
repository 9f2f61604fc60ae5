"""Position, shot and fight values on the killzone for the heuristic agent
(:mod:`engine.agents.heuristic` module docstring): a destination's exposure to enemy shooting,
the best shot or fight from a spot, the pull of objectives and enemies, and the cover spots
offered as extra move destinations. Geometry comes from the battle's cached queries
(:class:`engine.game.context.GameContext`), dice values from :mod:`engine.advice.values`,
the best shot from a spot from :mod:`engine.advice.shots`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from engine.advice.kt21_values import (
    kt21_attack,
    kt21_defender,
    kt21_fight_value,
    kt21_fighter,
    kt21_kill_chance,
    kt21_profile,
    kt21_shot_value,
    kt21_team,
)
from engine.advice.shots import (
    best_shot_from,
    kt21_setup,
    ranged_weapons,
    screened,
    shot_from,
    shot_setup,
)
from engine.advice.values import DAMAGE_WEIGHT, fight_value, shot_value, starting_wounds
from engine.advice.view import once
from engine.agents.mission_choices import enemy_threat_weight
from engine.dice.kt21 import Kt21Attack, Kt21Defender, Kt21Fighter, kt21_fight, kt21_shoot
from engine.dice.profile import AttackProfile, Fighter, Target
from engine.dice.rules import Blast, Torrent
from engine.dice.shoot import shoot
from engine.game import attacks, universal
from engine.game import fight as fight_action
from engine.game.actions import Action
from engine.game.state import OperativeState
from engine.game.universal.movement import MOVE_ACTION
from engine.game.work import Work
from engine.geometry import Placement, sight
from engine.geometry.model import TerrainType
from engine.teams.model import WeaponProfile

__all__ = [
    "EXPOSURE_WEIGHT",
    "best_fight_now",
    "best_shot_after",
    "charge_prospect",
    "cheap_value",
    "cover_spots",
    "enemies_in_reach",
    "exposure",
    "fight_action_value",
    "fight_from",
    "fight_kill_chance",
    "melee_minded",
    "position_bound",
    "position_value",
    "reachable_shot_bound",
    "safe_advance",
    "shoot_action_value",
    "shot_bounds",
    "shot_kill_chance",
]

#: Weight of the exposure to enemy shooting in a position's value.
EXPOSURE_WEIGHT = 0.6
_COVER_TYPES = frozenset({TerrainType.LIGHT, TerrainType.HEAVY})


def melee_minded(w: Work, o: OperativeState) -> bool:
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


def shot_kill_chance(w: Work, o: OperativeState, a: Action, mode: str) -> float:
    """The exact probability that the listed Shoot action ``a`` of ``o`` incapacitates its
    target (5.1; cover and obscured from the killzone's targeting lines, as
    :func:`shoot_action_value`; 0 for a friendly target)."""
    assert a.weapon is not None and a.target is not None
    t = w.op(a.target)
    if t.player == o.player:
        return 0.0
    pb = mode == "interrupt" and w.in_enemy_control_range(o)
    name, _, _ = universal.find_weapon(w, o, a.weapon, "ranged")
    k21 = kt21_setup(w, o, w.place(o), name, t, _worsen(a))
    if k21 is not None:
        return kt21_kill_chance(*k21)
    prof, target = shot_setup(w, o, w.place(o), name, t, pb)
    return float(shoot(prof, target).kill_probability)


def _worsen(a: Action) -> int:
    """How much worse the BS of the attack ``a`` is: 1 for a KT21 Overwatch (any attack
    action other than Shoot, ``rules/KT21.md`` 3.5), else 0."""
    return 0 if a.verb == "Shoot" else 1


def fight_kill_chance(w: Work, o: OperativeState, weapon: str | None, t: OperativeState) -> float:
    """The exact probability that ``o`` fighting ``t`` with ``weapon`` now incapacitates it
    (5.2; assists counted; both sides resolving optimally, the defender retaliating with its
    first usable melee weapon, or not at all when it cannot)."""
    from engine.dice.fight import fight

    assert weapon is not None
    if kt21_team(w, o.id):
        k21 = kt21_fight(*_kt21_fighters(w, o, weapon, t, fight_action.assists(w, o, t)))
        return float(k21.defender.incapacitated_probability)
    pa = attacks.attack_profile(w, o, weapon, "melee", hit_change=-fight_action.assists(w, o, t))
    pd = AttackProfile(0, 6, 0, 0)
    if not any(e.kind == "no_retaliate" and e.op == t.id for e in w.effects):
        for name, _, prof in universal.weapons_of(w, t.id, "melee"):
            if universal.weapon_usable(w, t, name, prof) is None:
                pd = attacks.attack_profile(
                    w, t, name, "melee", hit_change=-fight_action.assists(w, t, o)
                )
                break
    res = fight(Fighter(pa, max(1, o.wounds)), Fighter(pd, max(1, t.wounds)), fallback=True)
    return float(res.defender.incapacitated_probability)


def _kt21_melee(w: Work, o: OperativeState) -> list[WeaponProfile]:
    """``o``'s melee profiles."""
    return [prof for _, _, prof in universal.weapons_of(w, o.id, "melee")]


def _kt21_fighters(
    w: Work, o: OperativeState, weapon: str, t: OperativeState, support: int
) -> tuple[Kt21Fighter, Kt21Fighter]:
    """The KT21 fighters of ``o`` fighting ``t`` with ``weapon`` (``support`` supporting
    operatives) and of ``t`` retaliating with its first melee profile (none: no dice, DC
    16.17); for the kill chance (the value takes the defender's best weapon)."""
    _, _, prof = universal.find_weapon(w, o, weapon, "melee")
    mine = _kt21_melee(w, t)
    d_support = fight_action.assists(w, t, o)
    return kt21_fighter(w, o, prof, support), kt21_fighter(
        w, t, mine[0] if mine else None, d_support
    )


def kt21_fight_worst(
    w: Work, o: OperativeState, prof: WeaponProfile, t: OperativeState, support: int, d_support: int
) -> float:
    """The KT21 value (:func:`~engine.advice.kt21_values.kt21_fight_value`) of ``o``
    fighting ``t`` with ``prof``, ``t`` retaliating with the melee profile worst for ``o``
    (it selects its weapon, ``rules/KT21.md`` 11 step 2), or rolling no dice without one (DC
    16.17); combat support counted for each side (11 step 3)."""
    a = kt21_fighter(w, o, prof, support)
    ma, md = starting_wounds(w, o), starting_wounds(w, t)
    replies = [kt21_fighter(w, t, q, d_support) for q in _kt21_melee(w, t)] or [
        kt21_fighter(w, t, None)
    ]
    return min(kt21_fight_value(a, ma, d, md) for d in replies)


#: Every (in cover, obscured, improved cover) a target can have (improved only in cover).
_TARGET_STATES = (
    (False, False, False),
    (False, True, False),
    (True, False, False),
    (True, False, True),
    (True, True, False),
    (True, True, True),
)


def shot_bounds(
    w: Work, o: OperativeState, after: str = ""
) -> list[tuple[Placement, float, float]]:
    """For an upper bound of :func:`position_value`'s shot term without geometry: for each
    enemy ``o`` could shoot (no friendly of ``o`` within its control range) and each ranged
    weapon it may use outside an activation's Engage order rules (as :func:`position_value`),
    ``(enemy placement, weapon reach, the largest shot value over every cover/obscured
    state)``: the shot from ``p`` is at most the largest value whose reach covers ``p``.
    ``after``: as :func:`position_value`."""
    weapons = ranged_weapons(w, o, False, after)
    out: list[tuple[Placement, float, float]] = []
    if not weapons:
        return out
    for t in w.enemies_of(o.id):
        if screened(w, o, t):
            continue
        save = w.ctx.datacards[t.id].save
        wounds, maxw = max(1, t.wounds), starting_wounds(w, t)
        for name, prof, reach in weapons:
            if kt21_profile(w, o.id, prof):
                top = _kt21_top(w, o, prof, t)
            else:
                ap = attacks.attack_profile(w, o, name, "ranged", hit_change=0)
                top = max(
                    shot_value(ap, Target(save, wounds, c, ob, imp), maxw)
                    for c, ob, imp in _TARGET_STATES
                )
            out.append((w.place(t), reach, top))
    return out


def _kt21_top(w: Work, o: OperativeState, prof: WeaponProfile, t: OperativeState) -> float:
    """The largest KT21 shot value of ``o`` shooting ``t`` with ``prof``, in Cover or not
    (an upper bound without sight)."""
    a = kt21_attack(w, o, prof)
    maxw = starting_wounds(w, t)
    return max(kt21_shot_value(a, kt21_defender(w, t, c), maxw) for c in (False, True))


def reachable_shot_bound(
    w: Work, o: OperativeState, distance: float, after: str = "Reposition"
) -> float:
    """An upper bound of the best shot ``o`` could take with an Engage order after a
    move action ``after`` (default Reposition) of up to ``distance`` inches (no sight
    query: the largest value over every cover/obscured state of each enemy within its
    weapon's reach plus ``distance``, and not within a friendly's control range, 4.5)."""
    weapons = ranged_weapons(w, o, True, after)
    if not weapons:
        return 0.0
    profiles = {name: prof for name, prof, _ in weapons}
    here = w.place(o)
    best = 0.0
    for t in w.enemies_of(o.id):
        d = sight.distance(here, w.place(t))
        in_reach = [name for name, _, reach in weapons if d <= reach + distance]
        if not in_reach or screened(w, o, t):
            continue
        save = w.ctx.datacards[t.id].save
        wounds, maxw = max(1, t.wounds), starting_wounds(w, t)
        for name in in_reach:
            prof = profiles[name]
            if kt21_profile(w, o.id, prof):
                best = max(best, _kt21_top(w, o, prof, t))
                continue
            ap = attacks.attack_profile(w, o, name, "ranged", hit_change=0)
            for c, ob, imp in _TARGET_STATES:
                best = max(best, shot_value(ap, Target(save, wounds, c, ob, imp), maxw))
    return best


def position_bound(
    w: Work,
    o: OperativeState,
    p: Placement,
    *,
    can_shoot: bool,
    melee: bool,
    shots: list[tuple[Placement, float, float]],
    exposure_value: float = 0.0,
) -> float:
    """An upper bound of :func:`position_value` ``(w, o, p, can_shoot=can_shoot,
    melee=melee)`` that needs no sight query for the shot: the best shot taken as the bound
    from ``shots`` (:func:`shot_bounds`), and the exposure as ``exposure_value`` (its exact
    value, or 0 when unknown: it is never negative). Computed with the same floating-point
    operations in the same order as the exact value, so it is never below it (rounding is
    monotone)."""

    def shot(q: Placement) -> float:
        best = 0.0
        for pt, reach, top in shots:
            if sight.distance(q, pt) <= reach:
                best = max(best, top)
        return best

    return _position(w, o, p, exposure_value, shot, can_shoot=can_shoot, melee=melee)


def best_shot_after(w: Work, o: OperativeState, p: Placement, verb: str) -> float:
    """The best shot value ``o`` would have at ``p`` after the move action ``verb`` (its
    order's rules, Heavy, 0 when within an enemy's control range there)."""
    if any(sight.distance(p, q) <= 1.0 + 1e-6 for q in _enemy_places(w, o)):
        return 0.0
    return best_shot_from(w, o, p, as_engage=False, after=verb)


def best_fight_now(w: Work, o: OperativeState) -> float:
    """The best exact fight value ``o`` has now against an enemy it can fight (5.2)."""
    best = 0.0
    for t in fight_action.fight_targets(w, o):
        for name, _, prof in universal.weapons_of(w, o.id, "melee"):
            if universal.weapon_usable(w, o, name, prof) is None:
                best = max(best, fight_action_value(w, o, name, t))
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
        v = fight_value(
            pa, max(1, o.wounds), starting_wounds(w, o), pd, max(1, t.wounds), starting_wounds(w, t)
        )
        worst = v if worst is None else min(worst, v)
    if worst is None:
        return _unanswered_fight_value(w, o, pa, t)
    return worst


def _unanswered_fight_value(w: Work, o: OperativeState, pa: Any, t: OperativeState) -> float:
    """Exact value of ``o`` fighting ``t`` with the attack profile ``pa`` when ``t`` cannot
    retaliate."""
    return fight_value(
        pa, max(1, o.wounds), starting_wounds(w, o), None, max(1, t.wounds), starting_wounds(w, t)
    )


def fight_action_value(w: Work, o: OperativeState, weapon: str | None, t: OperativeState) -> float:
    """Exact value of ``o`` fighting ``t`` with ``weapon`` now (assists counted; the
    defender retaliates with its best weapon, or not at all when it cannot)."""
    assert weapon is not None
    if kt21_team(w, o.id):
        _, _, prof = universal.find_weapon(w, o, weapon, "melee")
        return kt21_fight_worst(
            w, o, prof, t, fight_action.assists(w, o, t), fight_action.assists(w, t, o)
        )
    pa = attacks.attack_profile(w, o, weapon, "melee", hit_change=-fight_action.assists(w, o, t))
    if any(e.kind == "no_retaliate" and e.op == t.id for e in w.effects):
        return _unanswered_fight_value(w, o, pa, t)
    return _worst_retaliation(w, o, pa, t, fight_action.assists(w, t, o), usable_only=True)


def fight_from(w: Work, o: OperativeState, p: Placement, t: OperativeState) -> float:
    """Value of the best fight ``o`` would start from ``p`` against ``t`` (no assists)."""
    best = 0.0
    k21 = kt21_team(w, o.id)
    for name, _, prof in universal.weapons_of(w, o.id, "melee"):
        if k21:
            best = max(best, kt21_fight_worst(w, o, prof, t, 0, 0))
            continue
        if universal.weapon_usable(w, o, name, prof) is None:
            pa = attacks.attack_profile(w, o, name, "melee")
            best = max(best, _worst_retaliation(w, o, pa, t, 0, usable_only=False))
    return best


def enemies_in_reach(w: Work, o: OperativeState, p: Placement) -> list[OperativeState]:
    """Living enemies of ``o`` within 1" of ``p`` (control range distance, 4.2)."""
    return [e for e in w.enemies_of(o.id) if sight.distance(p, w.place(e)) <= 1.0 + 1e-6]


def charge_prospect(w: Work, o: OperativeState) -> float:
    """For a melee-minded operative: the best fight against an enemy within a Charge's
    reach (Move + 2" + 1"), else 0."""
    if not melee_minded(w, o) or w.in_enemy_control_range(o):
        return 0.0
    reach = w.move_stat(o) + 3.0
    here = w.place(o)
    best = 0.0
    for e in w.enemies_of(o.id):
        if sight.distance(here, w.place(e)) <= reach:
            best = max(best, 0.8 * fight_from(w, o, here, e))
    return best


def _threat_profiles(w: Work, e: OperativeState) -> list[AttackProfile]:
    """The attack profiles of ``e``'s ranged weapons (once per decision)."""
    return once(
        w,
        ("threat_profiles", e.id),
        lambda: [
            attacks.attack_profile(w, e, name, "ranged")
            for name, _, _ in universal.weapons_of(w, e.id, "ranged")
        ],
    )


def _threat(w: Work, e: OperativeState, o: OperativeState, p: Placement, order: str) -> float:
    """How much enemy ``e`` threatens ``o`` standing at ``p`` with ``order``: its best
    ranged weapon's shot value when ``o`` there is a valid target for it, else 0."""
    if kt21_team(w, e.id):
        return _kt21_threat(w, e, o, p, order)
    profiles = _threat_profiles(w, e)
    if not profiles:
        return 0.0
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
    maxw = starting_wounds(w, o)
    for ap in profiles:
        best = max(best, shot_value(ap, target, maxw))
    return best


def _kt21_threat(w: Work, e: OperativeState, o: OperativeState, p: Placement, order: str) -> float:
    """:func:`_threat` of a KT21 enemy: its best KT21 shot at ``o`` at ``p`` when ``o`` there
    is a valid target for it (Visible, not Obscured, not in Cover with a Conceal order,
    ``rules/KT21.md`` 8.5; Rng x), else 0."""
    profiles = once(
        w,
        ("kt21 threat", e.id),
        lambda: [
            (kt21_attack(w, e, prof), _range(prof))
            for _, _, prof in universal.weapons_of(w, e.id, "ranged")
        ],
    )
    if not profiles:
        return 0.0
    kz = w.kz
    pe = w.place(e)
    if not w.ctx.visible(kz, pe, p):
        return 0.0
    tg = w.ctx.targeting(kz, pe, p)
    if tg.obscured or (order == "conceal" and tg.in_cover):
        return 0.0
    d = sight.distance(pe, p)
    target = kt21_defender(w, o, bool(tg.in_cover) and d > 2.0 + 1e-6)
    maxw = starting_wounds(w, o)
    return max(
        (kt21_shot_value(a, target, maxw) for a, reach in profiles if d <= reach), default=0.0
    )


def _range(prof: WeaponProfile) -> float:
    rng = prof.kt21_rules.value("Rng")
    return math.inf if rng is None else float(rng) + 1e-6


def exposure(
    w: Work, o: OperativeState, p: Placement, order: str, *, give_up_above: float = math.inf
) -> float:
    """Exposure of ``o`` at ``p``: the strongest enemy threat plus a third of the others,
    each weighted by :func:`engine.agents.mission_choices.enemy_threat_weight` (an expended
    enemy counts less, and in the last turning point not at all unless it may counteract).
    Within an enemy's control range enemies cannot shoot it (4.5); the threat is then the
    best fight an enemy there could start against it (exact, 5.2).

    ``give_up_above``: return ``math.inf`` as soon as the threats already known (the others
    count as 0: threats are never negative) make the exposure exceed it, without asking
    for the other enemies' sight lines."""
    enemies = w.enemies_of(o.id)
    close = [e for e in enemies if sight.distance(p, w.place(e)) <= 1.0 + 1e-6]
    if close:
        return max(0.0, max(fight_from(w, e, w.place(e), o) for e in close))
    threats = []
    top = total = 0.0
    for e in enemies:
        weight = enemy_threat_weight(w, e)
        if weight <= 0:
            threats.append(0.0)
            continue
        threat = _threat(w, e, o, p, order) * weight
        threats.append(threat)
        if give_up_above < math.inf:
            top, total = max(top, threat), total + threat
            if top + (total - top) / 3 > give_up_above:
                return math.inf
    threats.sort(reverse=True)
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


def _nearest_marker(w: Work, p: Placement) -> float:
    """Distance (inches, centre to centre) from ``p`` to the nearest objective marker no
    operative carries; 0 without one (so no progress towards markers counts)."""
    xy = once(w, ("marker_xy",), lambda: [(m.x, m.y) for m in w.markers if not m.carrier])
    return min((math.hypot(x - p.x, y - p.y) for x, y in xy), default=0.0)


def _nearest_enemy(w: Work, o: OperativeState, p: Placement) -> float:
    xy = once(w, ("enemy_xy", o.id), lambda: [(e.x, e.y) for e in w.enemies_of(o.id)])
    return min((math.hypot(x - p.x, y - p.y) for x, y in xy), default=0.0)


def _crowd(w: Work, o: OperativeState, p: Placement) -> int:
    """Friendlies of ``o`` whose centres are within 2" of ``p``."""
    xy = once(w, ("friend_xy", o.id), lambda: [(f.x, f.y) for f in w.friends_of(o.id)])
    return sum(1 for x, y in xy if math.hypot(x - p.x, y - p.y) < 2.0)


def _enemy_places(w: Work, o: OperativeState) -> list[Placement]:
    return once(w, ("enemy_places", o.id), lambda: [w.place(e) for e in w.enemies_of(o.id)])


#: How many move destinations :func:`safe_advance` asks sight lines for, at most.
ADVANCE_CANDIDATES = 8
#: The least progress (inches) towards the nearest enemy that makes an advance worth it.
ADVANCE_MIN = 1.0
#: The exposure (operatives) an advance may add to the operative's exposure where it stands.
ADVANCE_RISK = 0.2


def safe_advance(
    w: Work,
    o: OperativeState,
    moves: list[Action],
    here_exposure: float,
    accept: Callable[[Action], bool] = lambda a: True,
    listed: int | None = None,
) -> tuple[Action, float, float] | None:
    """For an operative about to end its activation without acting (nothing scored above
    standing still): a Reposition or Dash that brings it at least :data:`ADVANCE_MIN`
    inches closer to its nearest enemy or to the nearest objective marker no operative
    carries, and is at most :data:`ADVANCE_RISK` more exposed
    there (:func:`exposure`, with its order) than where it stands, as ``(action, progress
    in inches, exposure there)``; ``None`` when there is none. The first ``listed`` moves
    (default: all) are the engine's listed actions, the others unlisted cover spots whose
    legality ``accept(action)`` asks of the engine. The candidates are tried listed ones
    first, then spots near cover, then by progress (greatest first; ties in order), at
    most :data:`ADVANCE_CANDIDATES` of them, so the cost stays small."""
    if listed is None:
        listed = len(moves)
    here = w.place(o)
    start_enemy, start_marker = _nearest_enemy(w, o, here), _nearest_marker(w, here)
    ranked = []
    for k, a in enumerate(moves):
        if MOVE_ACTION.get(a.verb) not in ("reposition", "dash") or a.point is None:
            continue
        p = w.ctx.placement(o.id, *a.point)
        gain = max(start_enemy - _nearest_enemy(w, o, p), start_marker - _nearest_marker(w, p))
        if gain >= ADVANCE_MIN:
            ranked.append((k >= listed, not _near_cover(w, p), -gain, k, a, p))
    ranked.sort(key=lambda t: t[:4])
    limit = here_exposure + ADVANCE_RISK + 1e-6
    for _, _, neg_gain, _, a, p in ranked[:ADVANCE_CANDIDATES]:
        danger = exposure(w, o, p, o.order, give_up_above=limit)
        if danger <= limit and accept(a):
            return a, -neg_gain, danger
    return None


def cheap_value(w: Work, o: OperativeState, p: Placement, melee: bool) -> float:
    """A geometry-free pre-score of a destination: near cover, objectives, and for melee
    operatives the nearest enemy."""
    v = _objective_pull(w, p) + (0.15 if _near_cover(w, p) else 0.0)
    if melee:
        v -= 0.03 * _nearest_enemy(w, o, p)
    v -= 0.05 * _crowd(w, o, p)
    return v


def position_value(
    w: Work,
    o: OperativeState,
    p: Placement,
    *,
    can_shoot: bool,
    melee: bool | None = None,
    exposure_value: float | None = None,
    after: str = "",
) -> float:
    """Value of ``o`` standing at ``p`` (module docstring): minus exposure, plus the best
    shot it can still take (when ``can_shoot``), objectives, and the melee pull.

    ``exposure_value``: :func:`exposure` of ``o`` at ``p`` with its order, when already
    known. ``after``: the move action that takes it to ``p`` (``""``: none), which rules
    out the Heavy weapons that move forbids (6 Heavy)."""
    if melee is None:
        melee = melee_minded(w, o)
    if exposure_value is None:
        exposure_value = exposure(w, o, p, o.order)

    def shot(q: Placement) -> float:
        return best_shot_from(w, o, q, as_engage=False, after=after)

    return _position(w, o, p, exposure_value, shot, can_shoot=can_shoot, melee=melee)


def _position(
    w: Work,
    o: OperativeState,
    p: Placement,
    exposure_value: float,
    shot: Callable[[Placement], float],
    *,
    can_shoot: bool,
    melee: bool,
) -> float:
    """:func:`position_value` from the exposure and a function giving the best shot (the
    exact one, or a bound)."""
    v = -EXPOSURE_WEIGHT * exposure_value
    if can_shoot and not any(sight.distance(p, q) <= 1.0 + 1e-6 for q in _enemy_places(w, o)):
        v += 0.9 * shot(p)
    v += _objective_pull(w, p)
    if melee:
        v -= 0.03 * _nearest_enemy(w, o, p)
    v -= 0.05 * _crowd(w, o, p)
    return v


def shoot_action_value(w: Work, o: OperativeState, a: Action, mode: str) -> float:
    """Value of a listed Shoot action: the exact shot, Blast secondaries (friendly ones
    subtract), Torrent secondaries (every other enemy within x" of the primary target that
    is a valid target for the shooter and not screened by a friendly, each shot at with the
    same weapon: the engine offers them all and the agent takes them all; 6 Torrent), Hot's
    risk."""
    assert a.weapon is not None and a.target is not None
    pb = mode == "interrupt" and w.in_enemy_control_range(o)
    name, _, prof = universal.find_weapon(w, o, a.weapon, "ranged")
    t = w.op(a.target)
    here = w.place(o)
    k21 = kt21_setup(w, o, here, name, t, _worsen(a))
    if k21 is not None:
        return _kt21_shoot_action_value(w, o, prof, k21, t)
    v = shot_from(w, o, here, name, t, pb)
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
                sv = shot_from(w, o, here, name, q, pb)
                v += sv if q.player != o.player else -sv
    torrent = prof.rules.get(Torrent)
    if isinstance(torrent, Torrent) and t.player != o.player:
        tp = w.place(t)
        for q in w.enemies_of(o.id):
            if q.id == t.id or w.distance(tp, w.place(q)) > torrent.distance + 1e-6:
                continue
            if screened(w, o, q) or not w.ctx.valid_target(w.kz, w.place(q), here, q.order, None):
                continue
            v += shot_from(w, o, here, name, q, pb)
    if prof.rules.dice.hot:
        hit = attacks.attack_profile(w, o, name, "ranged").hit
        exp = sum(2 * f for f in range(1, hit)) / 6
        v -= DAMAGE_WEIGHT * exp / starting_wounds(w, o)
    return v


def _kt21_shoot_action_value(
    w: Work,
    o: OperativeState,
    prof: WeaponProfile,
    setup: tuple[Kt21Attack, Kt21Defender],
    t: OperativeState,
) -> float:
    """:func:`shoot_action_value` of a KT21 attack (``rules/KT21.md`` 10, 12): the exact
    shot (mortal wounds, Stun's crit and the defender's best saves in the dice core), Blast x
    secondaries (each other operative within x of the target and Visible to it, not in Cover;
    friendly ones subtract), less Hot's expected mortal wounds on the shooter. Torrent,
    Fusillade and Splash on others are not counted (the engine still plays them)."""
    attack, defender = setup
    v = kt21_shot_value(attack, defender, starting_wounds(w, t))
    blast = prof.kt21_rules.value("Blast")
    if blast:
        tp = w.place(t)
        for q in w.alive():
            if q.id in (t.id, o.id):
                continue
            if w.distance(tp, w.place(q)) <= blast + 1e-6 and w.ctx.visible(w.kz, tp, w.place(q)):
                sv = kt21_shot_value(attack, kt21_defender(w, q, False), starting_wounds(w, q))
                v += sv if q.player != o.player else -sv
    hot = kt21_shoot(attack, defender).hot
    if hot is not None:
        v -= DAMAGE_WEIGHT * float(hot.mean()) / starting_wounds(w, o)
    return v


def cover_spots(w: Work, base_mm: float) -> tuple[tuple[float, float], ...]:
    """Spots on the floor just outside Light and Heavy terrain parts (their corners and the
    middles of their sides, a base's radius plus 0.1" away), for this base size; cached on
    the killzone."""
    kz = w.kz
    cache: dict[float, tuple[tuple[float, float], ...]] = kz._cache.setdefault(
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
    cache: dict[tuple[float, float, float], bool] = kz._cache.setdefault("heuristic_near", {})
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
