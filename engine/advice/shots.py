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

from engine.advice.kt21_values import (
    kt21_attack,
    kt21_defender,
    kt21_profile,
    kt21_shot_value,
    kt21_team,
    kt21_weapon_reach,
)
from engine.advice.values import shot_value, starting_wounds
from engine.advice.view import once
from engine.dice.kt21 import Kt21Attack, Kt21Defender
from engine.dice.profile import AttackProfile, Target
from engine.dice.rules import Range
from engine.game import attacks, universal
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.geometry import Placement, sight

__all__ = [
    "best_shot_from",
    "best_shot_now",
    "kt21_setup",
    "kt21_shot_from",
    "ranged_weapons",
    "screened",
    "shot_from",
    "shot_setup",
    "weapon_reach",
]


def shot_from(
    w: Work, o: OperativeState, p: Placement, name: str, t: OperativeState, pb: bool
) -> float:
    """Value of ``o`` at ``p`` shooting ``t`` with weapon ``name`` (no validity check); a
    KT21 profile (:func:`engine.advice.kt21_values.kt21_profile`) by the KT21 dice
    (:func:`kt21_shot_from`)."""
    k21 = kt21_setup(w, o, p, name, t)
    if k21 is not None:
        return kt21_shot_value(*k21, starting_wounds(w, t))
    prof, target = shot_setup(w, o, p, name, t, pb)
    return shot_value(prof, target, starting_wounds(w, t))


def kt21_setup(
    w: Work, o: OperativeState, p: Placement, name: str, t: OperativeState, worsen: int = 0
) -> tuple[Kt21Attack, Kt21Defender] | None:
    """The KT21 attack and defender of ``o`` at ``p`` shooting ``t`` with ``name``, or
    ``None`` when that profile is not a KT21 one (:func:`~engine.advice.kt21_values.
    kt21_profile`). The target is in Cover as the killzone's targeting lines give it,
    never within 2" of the shooter, and not against No Cover or Indirect (the dice core
    reads those rules; ``rules/KT21.md`` 8.4, 10.2, 12); ``worsen``: BS worse by that much
    (Overwatch: 1, 3.5)."""
    if not kt21_team(w, o.id):
        return None
    _, _, prof = universal.find_weapon(w, o, name, "ranged")
    if not kt21_profile(w, o.id, prof):
        return None
    pt = w.place(t)
    cover = bool(w.ctx.targeting(w.kz, p, pt).in_cover)
    if cover and sight.distance(p, pt) <= 2.0 + 1e-6:
        cover = False
    return kt21_attack(w, o, prof, worsen=worsen), kt21_defender(w, t, cover)


def kt21_shot_from(
    w: Work, o: OperativeState, p: Placement, name: str, t: OperativeState, worsen: int = 0
) -> float:
    """The KT21 value of ``o`` at ``p`` shooting ``t`` with ``name``, BS worse by ``worsen``
    (:func:`kt21_setup`); 0 when the profile is not a KT21 one."""
    k21 = kt21_setup(w, o, p, name, t, worsen)
    return 0.0 if k21 is None else kt21_shot_value(*k21, starting_wounds(w, t))


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
            k21 = prof.kt21_rules
            if (
                not as_engage
                and o.order != "engage"
                and not universal.silent(
                    prof, universal.weapon_rules(w, o.id, name, prof, "ranged")
                )
                and not k21.has("Silent")
            ):
                continue
            if universal.weapon_usable(w, q, name, prof) is not None:
                continue
            if k21.has("Heavy") and any(d in KT21_HEAVY_BARS for d in q.done):
                continue  # KT21 Heavy: not after a move other than a Dash (rules/KT21.md 12)
            out.append((name, prof, weapon_reach(prof, w, o.id, name)))
        return out

    return once(w, ("ranged", o.id, as_engage, after), listing)


KT21_HEAVY_BARS = ("Normal Move", "Reposition", "Charge", "Fall Back")
"""The move actions after which a KT21 Heavy weapon cannot be shot in the same activation
(``rules/KT21.md`` 12 Heavy: a Dash is allowed)."""


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
    kt21_names = kt21_weapons(w, o)
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
            if kt21_names is not None and name in kt21_names and obscured(w, p, pt):
                continue  # KT21: an Obscured target is not a valid target (8.3, 8.5)
            best = max(best, shot_from(w, o, p, name, t, False))
    return best


def obscured(w: Work, p: Placement, pt: Placement) -> bool:
    """Whether a target at ``pt`` is Obscured from ``p`` by the killzone's targeting lines
    (4.4; a KT21 Obscured target is not a valid target, ``rules/KT21.md`` 8.5)."""
    return bool(w.ctx.targeting(w.kz, p, pt).obscured)


def kt21_weapons(w: Work, o: OperativeState) -> frozenset[str] | None:
    """The names of ``o``'s KT21 ranged profiles (:func:`~engine.advice.kt21_values.
    kt21_profile`), ``None`` when it has none (once per decision)."""

    if not kt21_team(w, o.id):
        return None

    def names() -> frozenset[str] | None:
        out = frozenset(
            name
            for name, _, prof in universal.weapons_of(w, o.id, "ranged")
            if kt21_profile(w, o.id, prof)
        )
        return out or None

    return once(w, ("kt21 weapons", o.id), names)


def weapon_reach(prof: Any, w: Work | None = None, op: str = "", weapon: str = "") -> float:
    """The distance (inches) within which a target is in range of ``prof`` (its Range x, or
    a KT21 profile's Rng x, plus the engine's tolerance; infinite without one): with ``w``,
    ``op`` and ``weapon``, its rules as the Shoot uses them (the ``would_use_weapon_rules``
    hooks, e.g. a rule that removes Range)."""
    k21 = kt21_weapon_reach(prof)
    if k21 is not None:
        return k21
    rules = prof.rules if w is None else universal.weapon_rules(w, op, weapon, prof, "ranged")
    rng = rules.get(Range)
    return rng.distance + 1e-6 if isinstance(rng, Range) else math.inf


def best_shot_now(w: Work, o: OperativeState, as_engage: bool) -> float:
    """The best shot value ``o`` has where it stands (0 within an enemy's control range)."""
    if w.in_enemy_control_range(o):
        return 0.0
    return best_shot_from(w, o, w.place(o), as_engage)
