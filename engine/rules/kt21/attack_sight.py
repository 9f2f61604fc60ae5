"""What the KT21 attacks ask of sight (``rules/KT21.md`` 8.1, 8.3-8.6): Visible, in Cover,
Obscured and the valid-target test, in ONE place.

The geometry is the KT21 sight rule module's (:mod:`engine.rules.kt21.sight`: Cover lines from
one origin point of the attacker's base, decision 4; Obscured more than 2" from a crossing of
Obscuring terrain, its parts within 1" of the shooter aside; Cover within 1" of a crossing of
cover-giving terrain or of another operative's base, the bases more than 2" apart; Vantage
Points). :func:`sight21` reads :func:`~engine.rules.kt21.sight.kt21_line_of_sight`: the origin
that gives Line of Sight is the one the cover save uses (decision 4). The valid-target rules
are applied on top here (Obscured makes a target invalid, whatever its order; a Conceal
target in Cover is invalid unless a Vantage Point makes it Engage (8.6) or the weapon has
Indirect; no friendly of the attacker within the target's Engagement Range; Rng x), so the
Shoot's targets are exactly :func:`~engine.rules.kt21.sight.kt21_valid_targets`'s.
"""

from __future__ import annotations

from typing import NamedTuple

from shapely.geometry import Point

from engine.game.state import OperativeState
from engine.game.work import Work
from engine.geometry import kt21_sight as geo
from engine.rules.kt21.sight import (
    SIGHT_MEMO_ENTRIES,
    cover_givers,
    kt21_line_of_sight,
    sight_memo,
)

__all__ = [
    "Sight21",
    "engagement_range",
    "hidden_from_above",
    "sight21",
    "target_reason",
    "visible",
]


class Sight21(NamedTuple):
    """How an attacker sees a target in KT21 (8.1-8.6): ``visible``, ``in_cover`` (as the
    Conceal test and the cover save read it, from the origin the attacker uses), ``obscured``
    and ``engage``: the target counts as having an Engage order for the attack (its own
    order, or Engage by a Vantage Point, 8.6)."""

    visible: bool
    in_cover: bool
    obscured: bool
    engage: bool = True


def engagement_range(w: Work, a: OperativeState, b: OperativeState) -> bool:
    """``a`` and ``b`` are within each other's Engagement Range (▲ = 1", 7.2): the core's
    control range test, which measures the same 1" between bases."""
    return w.control_range(a, b)


def visible(w: Work, a: OperativeState, b: OperativeState) -> bool:
    """``b`` is Visible to ``a`` (8.1; an operative is Visible to itself, DC 16.4)."""
    if a.id == b.id:
        return True
    return bool(geo.visible(w.kz, w.place(a), w.place(b)))


def _sight(w: Work, o: OperativeState, t: OperativeState) -> Sight21:
    """The KT21 Line of Sight of ``o`` to ``t`` (module docstring)."""
    if not visible(w, o, t):  # (no cover lines to draw: the operatives giving Cover unasked)
        return Sight21(False, False, False, t.order == "engage")
    los = kt21_line_of_sight(w, o.id, t.id)
    return Sight21(los.visible, los.in_cover, los.obscured, los.engage == "engage")


def _sight_not_in_cover(w: Work, o: OperativeState, t: OperativeState) -> Sight21:
    """Indirect (12): ``t`` is treated as not in Cover when it is selected, so the origin
    used is the first from which it is not Obscured (as for an Engage target), and its
    order does not matter."""
    if not visible(w, o, t):
        return Sight21(False, False, False, True)
    memo, key = sight_memo(w, "not in cover", o, t)
    got = memo.get(key)
    if got is None:
        if len(memo) >= SIGHT_MEMO_ENTRIES:
            memo.clear()
        got = memo[key] = _not_in_cover(w, o, t)
    assert isinstance(got, Sight21)
    return got


def _not_in_cover(w: Work, o: OperativeState, t: OperativeState) -> Sight21:
    """:func:`_sight_not_in_cover` worked out for a Visible target."""
    sp, tp = w.place(o), w.place(t)
    others = [w.place(g) for g in cover_givers(w, o, t)]
    verdict = geo.evaluate(w.kz, sp, tp, others)
    best = geo.best_origin(verdict, False)
    return Sight21(verdict.visible, best.in_cover, best.obscured, True)


def sight21(w: Work, o: OperativeState, t: OperativeState, *, indirect: bool = False) -> Sight21:
    """How ``o`` sees ``t`` now (8.1-8.6; with ``indirect``, as Indirect selects targets),
    kept on the working state until an operative changes (the killzone's state included).

    Raises:
        KeyError: an unknown operative id."""
    if indirect:
        return w.kept_on_kz(
            ("kt21 sight indirect", o.id, t.id), lambda: _sight_not_in_cover(w, o, t)
        )
    return w.kept_on_kz(("kt21 sight", o.id, t.id), lambda: _sight(w, o, t))


def target_reason(
    w: Work,
    o: OperativeState,
    t: OperativeState,
    rng: float | None,
    *,
    indirect: bool = False,
) -> str | None:
    """Why ``t`` is not a valid target of a shooting attack by ``o`` (8.5, 8.6, 12 Rng x and
    Indirect), or ``None``: ``t`` must be Visible and not Obscured; with a Conceal order also
    not in Cover (unless a Vantage Point makes it Engage, or ``indirect``: the target is
    treated as not in Cover); no friendly operative of ``o`` within ``t``'s Engagement Range;
    within ``rng`` inches (between the bases) when the weapon has Rng x."""
    # (the cheap tests first: the sight geometry only for a target they leave)
    if rng is not None and w.distance(w.place(o), w.place(t)) > rng + 1e-6:
        return f'{t.id} is not within Rng {rng:g}" of {o.id} (rules/KT21.md 12 Rng)'
    crowded = w.kept_on_kz(("kt21 friend in ER", o.id, t.id), lambda: _friend_within(w, o, t))
    if crowded is not None:
        return crowded
    s = sight21(w, o, t, indirect=indirect)
    if not s.visible:
        return f"{t.id} is not Visible to {o.id} (rules/KT21.md 8.1, 8.5)"
    if s.obscured:
        return f"{t.id} is Obscured from {o.id}: not in Line of Sight (rules/KT21.md 8.3, 8.5)"
    if not s.engage and s.in_cover and not indirect:
        return (
            f"{t.id} has a Conceal order and is in Cover: not in Line of Sight (rules/KT21.md 8.5)"
        )
    return None


def _friend_within(w: Work, o: OperativeState, t: OperativeState) -> str | None:
    """The refusal when an operative friendly to ``o`` is within ``t``'s Engagement Range
    (8.5), else ``None`` (kept per state: every weapon of ``o`` asks it of ``t``)."""
    for f in w.friends_of(o.id):
        if f.alive and engagement_range(w, f, t):
            return (
                f"{t.id} has a friendly operative ({f.id}) within its Engagement Range "
                "(rules/KT21.md 8.5)"
            )
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
