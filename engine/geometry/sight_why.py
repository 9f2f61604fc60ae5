"""Why a sight verdict is what it is: the lines, terrain parts and distances behind
:func:`engine.geometry.sight.visible`, :func:`~engine.geometry.sight.targeting` and
:func:`~engine.geometry.sight.valid_target` (``rules/KT24.md`` 4.3, 4.4, 4.5, 4.7, 9.3).

These are the ``why`` variants of the fast path (:mod:`engine.geometry.sight_kernel`): they
run the same kernel tests (``_crosses`` on the same sight table, the same per-origin
:class:`~engine.geometry.sight_kernel.PairVerdicts`) but keep every line and part instead of
stopping at the first answer; each carries the fast path's own verdict, and
``tests/test_sight_why.py`` checks on many random pairs that the evidence gives that verdict.
Nothing here is on the play path: the game asks :mod:`engine.geometry.sight`, whose speed is
unchanged. ``killteam explain`` (:mod:`engine.explain`) prints what these return.
"""

from __future__ import annotations

import attrs

from engine.geometry import sight, sight_kernel
from engine.geometry.model import Killzone, Placement
from engine.geometry.sight_kernel import N_FACING, N_ORIGINS, OriginEvidence
from engine.geometry.sight_lines import _EPS, _parts

__all__ = [
    "SightLine",
    "TargetingWhy",
    "ValidTargetWhy",
    "VisibleWhy",
    "part_label",
    "targeting_why",
    "valid_target_why",
    "visible_why",
]

Point3 = tuple[float, float, float]


def part_label(kz: Killzone, part: int) -> str:
    """A person's name for the killzone part ``part`` (an index into ``Killzone.parts``):
    its feature's name, the part's number within the feature when the feature has several,
    and its terrain types (``"heavy feature 2, part 2 (Heavy)"``)."""
    p = kz.parts[part]
    siblings = [q.index for q in kz.parts if q.feature == p.feature]
    name = kz.features[p.feature]
    if len(siblings) > 1:
        name += f", part {siblings.index(part) + 1}"
    types = ", ".join(sorted(str(getattr(t, "value", t)) for t in p.types)) or "no type"
    return f"{name} ({types})"


@attrs.frozen(slots=True)
class SightLine:
    """One sight line from a viewer's head to a point of the target (4.3).

    Attributes:
        start, end: its ends (x, y, z inches). blockers: the killzone parts that block it
            (indices into ``Killzone.parts``; empty: the line is clear).
    """

    start: Point3
    end: Point3
    blockers: tuple[int, ...]

    @property
    def clear(self) -> bool:
        """No part blocks the line."""
        return not self.blockers


@attrs.frozen(slots=True)
class VisibleWhy:
    """Why ``b`` is or is not visible to ``a`` (4.3): every sight line and what blocks it.

    Attributes:
        visible: :func:`engine.geometry.sight.visible`'s own answer.
        lines: the 19 sight lines (head to the target's points), or none when a == b.
    """

    visible: bool
    lines: tuple[SightLine, ...]


def visible_why(kz: Killzone, a: Placement, b: Placement) -> VisibleWhy:
    """The sight lines from ``a``'s head to ``b``'s 19 points and the parts blocking each
    (:func:`engine.geometry.sight_kernel.sight_line_blockers`), with the fast path's verdict
    (``visible`` is true exactly when some line is clear)."""
    verdict = sight.visible(kz, a, b)
    if a == b:
        return VisibleWhy(verdict, ())
    table = sight_kernel.sight_table(kz, _parts(kz))
    head = a.head
    lines = tuple(
        SightLine(
            (float(head[0]), float(head[1]), float(head[2])),
            point,
            tuple(sorted({table.owner[r] for r in rows})),
        )
        for point, rows in sight_kernel.sight_line_blockers(table, a, b)
    )
    return VisibleWhy(verdict, lines)


@attrs.frozen(slots=True)
class TargetingWhy:
    """Why the target is (not) in cover or obscured (4.4, 4.5, 4.7, 9.3).

    Attributes:
        targeting: :func:`engine.geometry.sight.targeting`'s own answer.
        chosen: the origin the shooter uses (0 the centre of its base, 1-4 around the
            edge): the first that sees the target neither in cover nor obscured, else the
            best (not in cover first, then not obscured; the first on ties).
        origins: the evidence of every origin (:class:`OriginEvidence`), in order.
        lines: per origin, its five targeting lines ``(start, end)``.
    """

    targeting: sight.Targeting
    chosen: int
    origins: tuple[OriginEvidence, ...]
    lines: tuple[tuple[tuple[Point3, Point3], ...], ...]


def _pair(kz: Killzone, s: Placement, t: Placement) -> sight_kernel.PairVerdicts:
    return sight._pair_verdicts(kz, s, t)


def targeting_why(kz: Killzone, shooter: Placement, target: Placement) -> TargetingWhy:
    """Every origin's targeting lines and the parts they cross, with each part's role
    (:meth:`engine.geometry.sight_kernel.PairVerdicts.evidence`), the origin the shooter
    picks and :func:`engine.geometry.sight.targeting`'s verdict."""
    pv = _pair(kz, shooter, target)
    origins = tuple(pv.evidence(o) for o in range(N_ORIGINS))
    best, best_rank = 0, 4
    for ev in origins:
        rank = 2 * ev.verdict.cover + ev.verdict.obscured
        if rank < best_rank:
            best, best_rank = ev.origin, rank
            if rank == 0:
                break
    p0, p1 = pv.lines
    lines = tuple(
        tuple(
            (
                (p0[k][0], p0[k][1], p0[k][2]),
                (p1[k][0], p1[k][1], p1[k][2]),
            )
            for k in range(o * N_FACING, (o + 1) * N_FACING)
        )
        for o in range(N_ORIGINS)
    )
    return TargetingWhy(sight.targeting(kz, shooter, target), best, origins, lines)


@attrs.frozen(slots=True)
class ValidTargetWhy:
    """Why ``target`` is (not) a valid target by sight (4.5, 4.7; Seek, Seek Light 6).

    Attributes:
        valid: :func:`engine.geometry.sight.valid_target`'s own answer.
        visible: the target is visible to the shooter (4.3).
        order: the target's order (lower case).
        seek: ``"all"``, ``"light"`` or ``None``.
        ignore_light: Light terrain gives no cover for selection (Seek Light, or the shooter
            on Vantage 2" or more above the target, 4.7).
        height_advantage: how much higher the shooter on Vantage stands (inches; 0 off
            Vantage).
        clear_origin: the first origin from which no counted terrain gives cover (a
            Conceal target is then valid), or ``None``.
    """

    valid: bool
    visible: bool
    order: str
    seek: str | None
    ignore_light: bool
    height_advantage: float
    clear_origin: int | None


def valid_target_why(
    kz: Killzone,
    target: Placement,
    shooter: Placement,
    order: str,
    *,
    seek: str | None = None,
    vantage: bool = True,
) -> ValidTargetWhy:
    """The steps of :func:`engine.geometry.sight.valid_target` with their values (same
    arguments; its verdict is ``valid``, checked equal to the steps on many random pairs).

    Raises:
        ValueError: for an unknown order or seek value (as ``valid_target``).
    """
    valid = sight.valid_target(kz, target, shooter, order, seek=seek, vantage=vantage)
    o = order.lower()
    seen = sight.visible(kz, shooter, target)
    drop = sight._height_advantage(kz, shooter, target)
    ignore = seek == "light" or (vantage and drop >= 2 - _EPS)
    clear: int | None = None
    if seen and o == "conceal" and seek != "all":
        pv = _pair(kz, shooter, target)
        for k in range(N_ORIGINS):
            v = pv.origin(k, keep_sets=False)
            if not (v.cover_heavy if ignore else v.cover_any):
                clear = k
                break
    return ValidTargetWhy(valid, seen, o, seek, ignore, float(drop), clear)
