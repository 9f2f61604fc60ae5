"""The best shot an operative has (``rules/KT24.md`` 4.5, 5.1), valued with the exact dice
core in the agents' unit (:mod:`engine.advice.values`): which ranged weapons it may shoot
now or after a move, which enemies it may target, and the value of each shot from a spot.

Rule code uses :func:`best_shot_now` to value what a rule enables (a free shot, an order
change...); the heuristic agent (:mod:`engine.agents.position`) builds its position values
on the same functions. Geometry comes from the battle's cached queries
(:class:`engine.game.context.GameContext`).
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from engine.advice.values import shot_value, starting_wounds
from engine.advice.view import once
from engine.dice.profile import AttackProfile, Target
from engine.dice.rules import Range
from engine.game import attacks, universal
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.geometry import Placement, sight

__all__ = [
    "best_shot_from",
    "best_shot_now",
    "ranged_weapons",
    "screened",
    "shot_from",
    "shot_setup",
    "weapon_reach",
]


def shot_from(
    w: Work, o: OperativeState, p: Placement, name: str, t: OperativeState, pb: bool
) -> float:
    """Value of ``o`` at ``p`` shooting ``t`` with weapon ``name`` (no validity check)."""
    prof, target = shot_setup(w, o, p, name, t, pb)
    return shot_value(prof, target, starting_wounds(w, t))


def shot_setup(
    w: Work, o: OperativeState, p: Placement, name: str, t: OperativeState, pb: bool
) -> tuple[AttackProfile, Target]:
    """The attack profile and target of ``o`` at ``p`` shooting ``t`` with ``name``."""
    kz = w.kz
    pt = w.place(t)
    tg = w.ctx.targeting(kz, p, pt)
    improved = tg.in_cover and bool(
        w.ctx.cached(
            ("h_imp", id(kz), p, pt, t.order), lambda: sight.improved_cover(kz, p, pt, t.order)
        )
    )
    prof = once(
        w,
        ("shot_profile", o.id, name, pb),
        lambda: attacks.attack_profile(w, o, name, "ranged", hit_change=1 if pb else 0),
    )
    save = w.ctx.datacards[t.id].save
    return prof, Target(save, max(1, t.wounds), tg.in_cover, tg.obscured, improved)


def ranged_weapons(
    w: Work, o: OperativeState, as_engage: bool, after: str = ""
) -> list[tuple[str, Any, float]]:
    """``(name, profile, reach)`` of each ranged weapon ``o`` may shoot now, or after the
    move action ``after`` (``"Reposition"``...: a Heavy weapon is then ruled out unless its
    Heavy allows that move, 6 Heavy) (once per decision)."""

    def listing() -> list[tuple[str, Any, float]]:
        q = o if not after else attrs.evolve(o, moved=True, done=(*o.done, after))
        out = []
        for name, _, prof in universal.weapons_of(w, o.id, "ranged"):
            if (
                not as_engage
                and o.order != "engage"
                and not universal.silent(
                    prof, universal.weapon_rules(w, o.id, name, prof, "ranged")
                )
            ):
                continue
            if universal.weapon_usable(w, q, name, prof) is not None:
                continue
            out.append((name, prof, weapon_reach(prof, w, o.id, name)))
        return out

    return once(w, ("ranged", o.id, as_engage, after), listing)


def screened(w: Work, o: OperativeState, t: OperativeState) -> bool:
    """A friendly of ``o`` is within ``t``'s control range, so ``o`` cannot shoot ``t``
    (4.5; once per decision)."""
    near = once(
        w,
        ("near", t.id),
        lambda: [f.id for f in w.alive(o.player) if w.control_range(f, t)],
    )
    return any(f != o.id for f in near)


def best_shot_from(
    w: Work, o: OperativeState, p: Placement, as_engage: bool, after: str = ""
) -> float:
    """The best shot value ``o`` would have standing at ``p`` (0 when none), there after the
    move action ``after`` when given (:func:`ranged_weapons`)."""
    weapons = ranged_weapons(w, o, as_engage, after)
    if not weapons:
        return 0.0
    best = 0.0
    for t in w.enemies_of(o.id):
        # The cheap conditions first: the geometry query is made only when it can matter.
        pt = w.place(t)
        d = sight.distance(p, pt)
        in_range = [name for name, _, reach in weapons if d <= reach]
        if not in_range or screened(w, o, t):
            continue
        if not w.ctx.valid_target(w.kz, pt, p, t.order, None):
            continue
        for name in in_range:
            best = max(best, shot_from(w, o, p, name, t, False))
    return best


def weapon_reach(prof: Any, w: Work | None = None, op: str = "", weapon: str = "") -> float:
    """The distance (inches) within which a target is in range of ``prof`` (its Range x
    plus the engine's tolerance; infinite without Range): with ``w``, ``op`` and ``weapon``,
    its rules as the Shoot uses them (the ``would_use_weapon_rules`` hooks, e.g. a rule that
    removes Range)."""
    rules = prof.rules if w is None else universal.weapon_rules(w, op, weapon, prof, "ranged")
    rng = rules.get(Range)
    return rng.distance + 1e-6 if isinstance(rng, Range) else math.inf


def best_shot_now(w: Work, o: OperativeState, as_engage: bool) -> float:
    """The best shot value ``o`` has where it stands (0 within an enemy's control range)."""
    if w.in_enemy_control_range(o):
        return 0.0
    return best_shot_from(w, o, w.place(o), as_engage)
