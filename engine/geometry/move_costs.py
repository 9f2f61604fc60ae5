"""The cost of a move's increments and the path they make (rules ``rules/KT24.md`` 3.3, 4.6,
7.2; ``rules/KT21.md`` 7.3, 7.4 under :data:`~engine.geometry.move_values.KT21_MOVEMENT`):
KT24's costs with the action's shared free drop and ladder, or each increment's cost under
another ruleset's :class:`~engine.geometry.move_values.MovementRules`
(:meth:`~engine.geometry.move_links.LinkClassifier.ruled_cost`). Used by the path search and
the explicit paths of :mod:`engine.geometry.move_paths`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from engine.geometry.move_graph import MoveGraph
from engine.geometry.move_query import Increment, MoveError, MovePath, _Query
from engine.geometry.move_values import (
    ACCESSIBLE_COST,
    FREE_DROP,
    OBSTRUCTING_COST,
    Point3,
    _Link,
)

__all__ = ["_increments", "_level_of", "_make_path", "_terrain_extra"]


def _increments(
    points: Sequence[Point3],
    links: Sequence[_Link],
    terrain_extras: bool = True,
    ruled: Sequence[float] | None = None,
) -> tuple[tuple[Increment, ...], float]:
    """The increments of a path and its total cost: KT24's (3.3: rounded up, the free 2" of
    drop shared by the action, a ladder once), or each link's cost under other rules given
    in ``ruled`` (:meth:`MoveGraph.ruled_cost`, in the order of ``links``)."""
    free = FREE_DROP
    ladder_left = True  # a ladder helps once per action (7.2)
    out: list[Increment] = []
    total = 0.0
    for k, ((p, q), link) in enumerate(zip(itertools.pairwise(points), links, strict=True)):
        if ruled is None:
            cost, free = link.cost(free, ladder_left)
        else:
            cost = ruled[k]
            ladder_left = False  # no ladders in other rules
        if not terrain_extras:
            cost -= _terrain_extra(link)
        used_ladder = link.ladder and link.climb > 0 and ladder_left
        ladder_left = ladder_left and not used_ladder
        total += cost
        out.append(
            Increment(
                start=p,
                end=q,
                kind=link.kind,
                horizontal=link.horizontal,
                climb=link.climb,
                drop=link.drop,
                crossings=link.crossings,
                cost=cost,
                obstructing=link.obstructing,
                ladder=used_ladder,
            )
        )
    return tuple(out), total


def _terrain_extra(link: _Link) -> float:
    """The Accessible and Obstructing extra inches of ``link`` (4.6)."""
    return ACCESSIBLE_COST * link.crossings + OBSTRUCTING_COST * link.obstructing


def _ruled_costs(
    q: _Query, levels: Sequence[int], points: Sequence[Point3], links: Sequence[_Link]
) -> list[float]:
    """Each link's cost under the query's rules when they are not KT24's
    (:meth:`MoveGraph.ruled_cost`; ``levels``: the level of each point).

    Raises:
        MoveError: an increment the rules refuse (naming the rule)."""
    out: list[float] = []
    for k, link in enumerate(links):
        a, b = points[k][:2], points[k + 1][:2]
        cost = q.g.ruled_cost(q.rules, levels[k], a, levels[k + 1], b, link)
        if isinstance(cost, str):
            raise MoveError(
                f"increment {k + 1} ({a[0]:g}, {a[1]:g}) -> ({b[0]:g}, {b[1]:g}): {cost} "
                f"({q.rules.name.upper()} movement)"
            )
        out.append(cost)
    return out


def _make_path(
    q: _Query,
    points: Sequence[Point3],
    links: Sequence[_Link],
    levels: Sequence[int] | None = None,
) -> MovePath:
    """The :class:`MovePath` through ``points`` along ``links`` (``levels``: each point's
    level, needed when the query's rules are not KT24's).

    Raises:
        MoveError: an increment the query's rules refuse."""
    ruled = None
    if not q.rules.is_kt24:
        if levels is None:
            levels = [q.start_level] + [_level_of(q.g, p) for p in points[1:]]
        ruled = _ruled_costs(q, levels, points, links)
    incs, cost = _increments(points, links, q.terrain_extras, ruled)
    length = sum(math.dist(p, r) for p, r in itertools.pairwise(points))
    end = points[-1]
    return MovePath(
        action=q.action,
        points=tuple(points),
        increments=incs,
        length=length,
        cost=cost,
        final=q.mover.moved(end[0], end[1], end[2]),
    )


def _level_of(g: MoveGraph, p: Point3) -> int:
    """The index of the level ``p`` (``(x, y, elevation)``) stands on (the floor if none)."""
    lvl = g.level_at(p[0], p[1], p[2])
    return 0 if lvl is None else lvl.index
