"""What the KT21 attacks ask of sight (``rules/KT21.md`` 8.1, 8.3-8.5): Visible, in Cover,
Obscured and the valid-target test, in ONE place.

The KT21 sight geometry (Cover lines from the attacker's base, Obscured 2"/1", other
operatives giving Cover) belongs to the movement and sight rule module
(``engine.rules.kt21.sight``). Until it lands, this adapter reads the core's sight (the
killzone's visibility, cover and obscured tests): the KT21 valid-target rules are applied on
top of it here (Obscured makes a target invalid, whatever its order; a Conceal target in
Cover is invalid; no friendly of the attacker within the target's Engagement Range; Rng x),
so swapping in the KT21 geometry changes only :func:`_sight` below.
"""

from __future__ import annotations

from typing import NamedTuple

from shapely.geometry import Point

from engine.game.state import OperativeState
from engine.game.work import Work

__all__ = [
    "Sight21",
    "engagement_range",
    "hidden_from_above",
    "sight21",
    "target_reason",
    "visible",
]


class Sight21(NamedTuple):
    """How an attacker sees a target in KT21 (8.1-8.4): ``visible``, ``in_cover`` (as the
    Conceal test and the cover save read it) and ``obscured``."""

    visible: bool
    in_cover: bool
    obscured: bool


def engagement_range(w: Work, a: OperativeState, b: OperativeState) -> bool:
    """``a`` and ``b`` are within each other's Engagement Range (▲ = 1", 7.2): the core's
    control range test, which measures the same 1" between bases."""
    return w.control_range(a, b)


def visible(w: Work, a: OperativeState, b: OperativeState) -> bool:
    """``b`` is Visible to ``a`` (8.1; an operative is Visible to itself, DC 16.4)."""
    if a.id == b.id:
        return True
    return bool(w.ctx.visible(w.kz, w.place(a), w.place(b)))


def _sight(w: Work, o: OperativeState, t: OperativeState) -> Sight21:
    """The one place the sight geometry is read (module docstring)."""
    kz = w.kz
    if not w.ctx.visible(kz, w.place(o), w.place(t)):
        return Sight21(False, False, False)
    tg = w.ctx.targeting(kz, w.place(o), w.place(t))
    return Sight21(True, bool(tg.in_cover), bool(tg.obscured))


def sight21(w: Work, o: OperativeState, t: OperativeState) -> Sight21:
    """How ``o`` sees ``t`` now (8.1-8.4), kept on the state while it is unchanged."""
    return w.kept(
        ("kt21 sight", o.id, o.x, o.y, o.elevation, t.id, t.x, t.y, t.elevation, id(w.kz)),
        lambda: _sight(w, o, t),
    )


def target_reason(
    w: Work,
    o: OperativeState,
    t: OperativeState,
    rng: float | None,
    *,
    indirect: bool = False,
) -> str | None:
    """Why ``t`` is not a valid target of a shooting attack by ``o`` (8.5, 12 Rng x and
    Indirect), or ``None``: ``t`` must be Visible and not Obscured; with a Conceal order also
    not in Cover (unless ``indirect``: the target is treated as not in Cover); no friendly
    operative of ``o`` within ``t``'s Engagement Range; within ``rng`` inches when the weapon
    has Rng x."""
    s = sight21(w, o, t)
    if not s.visible:
        return f"{t.id} is not Visible to {o.id} (rules/KT21.md 8.1, 8.5)"
    if s.obscured:
        return f"{t.id} is Obscured from {o.id}: not in Line of Sight (rules/KT21.md 8.3, 8.5)"
    if t.order == "conceal" and s.in_cover and not indirect:
        return (
            f"{t.id} has a Conceal order and is in Cover: not in Line of Sight (rules/KT21.md 8.5)"
        )
    for f in w.friends_of(o.id):
        if f.alive and engagement_range(w, f, t):
            return (
                f"{t.id} has a friendly operative ({f.id}) within its Engagement Range "
                "(rules/KT21.md 8.5)"
            )
    if rng is not None and w.distance(w.place(o), w.place(t)) > rng + 1e-6:
        return f'{t.id} is not within Rng {rng:g}" of {o.id} (rules/KT21.md 12 Rng)'
    return None


def hidden_from_above(w: Work, t: OperativeState) -> bool:
    """Barrage's cover test (``rules/KT21.md`` 12 Barrage): some part of ``t``'s base is
    hidden from directly above by a terrain feature, read as: a terrain part whose top is
    higher than the base overlaps the base's footprint (by more than a speck)."""
    p = w.place(t)
    foot = Point(p.x, p.y).buffer(p.base_mm / 25.4 / 2)
    for part in w.kz.parts:
        if (
            part.height > p.elevation + 1e-3
            and part.polygon.intersects(foot)
            and part.polygon.intersection(foot).area > 1e-6
        ):
            return True
    return False
