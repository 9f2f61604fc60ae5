"""Ramparts on the edge of a Vantage level, crossed under KT21's rules (``rules/KT21.md`` 7.4
and Designer's Commentary 16.10), a parameter of the movement queries
(:attr:`engine.geometry.move_values.MovementRules.ramparts`, on in
:data:`~engine.geometry.move_values.KT21_MOVEMENT`).

A **rampart** of a Vantage level is a part of the same terrain feature as the level's parts,
not Vantage, not a stair, not a Wall, that a base cannot pass through, whose footprint touches
or lies on the level's footprint (within 0.01"), standing higher than the level by at most 2"
(:data:`RAMPART_MAX`), on a level at most 3" high (the most one climb of the graph rises).
It is Traversable when it is Light (not Heavy) terrain: the DC's "Traversable part on top of a
Vantage Point". In the shared graph such a part blocks the level like any taller part, so no
link crosses it; KT24's own reading of ramparts (``rules/KT24.md`` 3.3) is not modelled and
KT24 queries never see the links of this module.

A ``rampart`` link is one straight increment between a point on the killzone floor and a
point on the level whose centre line crosses one or more of the level's ramparts: going up,
the base starts within 1" of the rampart or the level (the climb's start, 7.4), its centre
stays in the floor's passage region until the base meets them, and past the rampart it lies
in the level's passage region (the base may overlap the rampart while it crosses it); going
down, the same line the other way. The link records the rampart's top ``T`` (its ``climb``
going up, its ``drop`` going down) and the other vertical (``T`` less the level's height
``H``); what it counts is :meth:`MovementRules.rampart_cost
<engine.geometry.move_values.MovementRules.rampart_cost>`:

- dropping off the level: a Traversable rampart is traversed first (2"), then the drop from
  the level's floor ``H``; any other is climbed (``T - H``) and dropped from (``T``);
- climbing onto the level: climbing the wall ``H`` and traversing the rampart (2"), or
  climbing the rampart's full height ``T`` as one climb and ignoring the small drop onto the
  level's floor (``T - H`` under 2" counts nothing; KT21 drops round down in 2" steps), the
  cheaper of the two (the player chooses); a rampart that is not Traversable is climbed.
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from engine.geometry.kt21_sight import part_traits
from engine.geometry.layout import STAIRS_TOUCH
from engine.geometry.model import TerrainType
from engine.geometry.move_stairs import StairGraph
from engine.geometry.move_values import (
    _GRID,
    _TOL,
    CLIMB_MAX,
    CLIMB_RANGE,
    DERIVED_MEMO,
    JUMP_MAX,
    XY,
    _bevel_buffer,
    _Link,
    _pieces,
    _sub,
)


class RampartGraph(StairGraph, Protocol):
    """What :func:`rampart_link` reads of a movement graph (the link classifier's)."""

    def _grown_parts(self, crossed: list[int]) -> BaseGeometry: ...


class DerivedReuse(Protocol):
    """What the rampart links read of a derived graph's reuse record
    (:class:`engine.geometry.move_derive._Reuse`, kept in the graph memo
    :data:`~engine.geometry.move_values.DERIVED_MEMO`): the graph it was derived from, each
    node's counterpart there, and which node pairs keep that graph's link."""

    @property
    def base(self) -> RampartNodes: ...

    @property
    def old(self) -> NDArray[np.int64]: ...

    def same(
        self,
        p: NDArray[np.float64],
        q: NDArray[np.float64],
        a_ids: NDArray[np.int64],
        b_ids: NDArray[np.int64],
    ) -> NDArray[np.bool_]: ...


class RampartNodes(RampartGraph, Protocol):
    """What :func:`rampart_out` reads of a movement graph (its nodes)."""

    @property
    def node_level(self) -> NDArray[np.int64]: ...

    @property
    def xy(self) -> NDArray[np.float64]: ...

    @property
    def _near(self) -> tuple[NDArray[np.int64], ...]: ...

    @property
    def _xy_list(self) -> list[XY]: ...

    @property
    def _lvl_list(self) -> list[int]: ...


__all__ = [
    "RAMPART_MAX",
    "rampart_link",
    "rampart_out",
    "rampart_traversable",
    "ramparts_by_level",
    "ramparts_near",
]

RAMPART_MAX = 2.0
"""The most a rampart stands above its Vantage level's floor (inches): the height of a
Traversable part (9: barricades and low walls, :func:`engine.geometry.kt21_sight.part_traits`)
measured from the floor it stands on."""


def ramparts_by_level(g: RampartGraph) -> dict[int, tuple[int, ...]]:
    """The ramparts (part indices) of each Vantage level of ``g`` that has any (module
    docstring); computed once per graph."""
    memo = g.memo("ramparts", 8)
    known: dict[int, tuple[int, ...]] | None = memo.get("by_level")
    if known is not None:
        return known
    kz = g.kz
    out: dict[int, tuple[int, ...]] = {}
    for lvl in g.levels[1:]:
        if lvl.height > CLIMB_MAX + 1e-6:
            continue
        features = {kz.parts[i].feature for i in lvl.parts}
        found = tuple(
            i
            for i in lvl.blockers
            if kz.parts[i].feature in features
            and not kz.parts[i].stairs
            and not kz.has_type(i, TerrainType.WALL)
            and not kz.has_type(i, TerrainType.VANTAGE)
            and kz.parts[i].height - lvl.height <= RAMPART_MAX + 1e-6
            and float(lvl.footprint.distance(kz.parts[i].polygon)) <= STAIRS_TOUCH + _TOL
        )
        if found:
            out[lvl.index] = found
    memo["by_level"] = out
    return out


def rampart_traversable(g: RampartGraph, i: int) -> bool:
    """Whether the rampart ``i`` is Traversable (7.4, 9: Light terrain, not Heavy)."""
    traits = part_traits(g.kz, i)
    return "Light" in traits and "Heavy" not in traits


def ramparts_near(g: RampartGraph, level: int, p: XY, reach: float) -> bool:
    """Whether a rampart of ``level`` lies within ``reach`` inches of ``p``."""
    pt = Point(p)
    return any(
        float(g.kz.parts[i].polygon.distance(pt)) <= reach
        for i in ramparts_by_level(g).get(level, ())
    )


def _grown(g: RampartGraph, level: int, parts: tuple[int, ...]) -> BaseGeometry:
    """The level's footprint and the parts ``parts``, grown by the base radius (prepared,
    kept on the graph)."""
    memo = g.memo("rampart_grown", 256)
    key = (level, parts)
    geom: BaseGeometry | None = memo.get(key)
    if geom is None:
        polys = [g.levels[level].footprint, *(g.kz.parts[i].polygon for i in parts)]
        geom = _bevel_buffer(shapely.union_all(polys), g.radius + _GRID + _TOL)
        shapely.prepare(geom)
        memo[key] = geom
    return geom


def _terrain(g: RampartGraph, level: int, crossed: tuple[int, ...]) -> BaseGeometry:
    """The level's footprint and the ramparts ``crossed``, grown by the 0.002" tolerance
    (kept on the graph: the same for every line crossing those ramparts)."""
    memo = g.memo("rampart_terrain", 256)
    key = (level, crossed)
    geom: BaseGeometry | None = memo.get(key)
    if geom is None:
        polys = [g.levels[level].footprint, *(g.kz.parts[i].polygon for i in crossed)]
        geom = memo[key] = shapely.union_all(polys).buffer(_TOL, join_style="mitre")
    return geom


def rampart_link(g: RampartGraph, la: int, a: XY, lb: int, b: XY) -> _Link | None:
    """The ``rampart`` link from ``a`` on level ``la`` to ``b`` on level ``lb`` (module
    docstring), or ``None`` when the line is not one.

    Args:
        g: the graph. la, lb: level indices (one the floor, the other a Vantage level with
            ramparts). a, b: the centre's start and end (inches).
    """
    if (la == 0) == (lb == 0) or a == b:
        return None
    level = lb if la == 0 else la
    ramparts = ramparts_by_level(g).get(level)
    if not ramparts:
        return None
    low, high = (a, b) if la == 0 else (b, a)
    floor, lvl = g.levels[0], g.levels[level]
    if not shapely.intersects_xy(floor.passage_tol, low[0], low[1]):
        return None
    if not shapely.intersects_xy(lvl.passage_tol, high[0], high[1]):
        return None
    line = LineString([low, high])
    crossed = tuple(
        i for i in ramparts if shapely.relate_pattern(line, g.kz.parts[i].polygon, "T********")
    )
    top = _crossing_top(g, level, low, high, crossed)
    if top is None:
        return None
    return _link(g, level, top, la == 0, math.dist(a, b))


def _link(g: RampartGraph, level: int, top: float, up: bool, h: float) -> _Link:
    """The ``rampart`` link of horizontal length ``h`` over ramparts whose top is ``top``
    (inches), going up onto ``level`` or down from it (module docstring)."""
    if up:
        return _Link("rampart", h, climb=top, drop=top - g.levels[level].height)
    return _Link("rampart", h, climb=top - g.levels[level].height, drop=top)


def _crossing_top(
    g: RampartGraph, level: int, low: XY, high: XY, crossed: tuple[int, ...]
) -> float | None:
    """The top of the ramparts ``crossed`` (the ramparts of ``level`` the line ``low`` (on
    the floor, in its passage) to ``high`` (on the level, in its passage) crosses) when the
    line is a ``rampart`` link either way (module docstring), else ``None``: the same
    geometry going up and down."""
    if not crossed:
        return None
    floor, lvl = g.levels[0], g.levels[level]
    terrain = _terrain(g, level, crossed)
    reach = g.radius + CLIMB_RANGE + _TOL
    if float(terrain.distance(Point(low))) > reach:
        return None  # a climb starts (a drop lands) within 1" of the terrain
    pieces = _pieces(low, high, terrain)
    if not pieces or pieces[-1][1] < 1 - 1e-9:
        return None
    t_in = pieces[-1][0]
    if t_in <= 1e-9:
        return None  # the centre starts over the rampart
    grown = _grown(g, level, crossed)
    on_floor = _sub(low, high, 0.0, t_in)
    if on_floor is not None:
        rest = on_floor.difference(grown)
        if not (rest.is_empty or rest.length <= 1e-6 or floor.passage_tol.covers(rest)):
            return None
    t_out = max(t1 for i in crossed for _, t1 in _pieces(low, high, g.kz.parts[i].polygon))
    on_level = _sub(low, high, t_out, 1.0)
    if on_level is not None:
        if not lvl.footprint_tol.covers(on_level):
            return None
        rest = on_level.difference(g._grown_parts(list(crossed)))
        if not (rest.is_empty or rest.length <= 1e-6 or lvl.passage_tol.covers(rest)):
            return None
    return max(g.kz.parts[i].height for i in crossed)


def rampart_out(g: RampartNodes) -> dict[int, list[tuple[int, _Link]]]:
    """The ``rampart`` links between ``g``'s own nodes, by start node (node indices): the
    floor nodes within 1" (and the base's radius) of a level's ramparts, both ways with the
    level's nodes in reach (:data:`JUMP_MAX` + 2 radii + 1", as the graph's other links
    between levels). Computed once per graph, on the first query whose rules cross
    ramparts."""
    memo = g.memo("ramparts", 8)
    known: dict[int, list[tuple[int, _Link]]] | None = memo.get("out")
    if known is not None:
        return known
    out: dict[int, list[tuple[int, _Link]]] = {}
    for (u, v), (up, down) in _rampart_pairs(g).items():
        if up is not None:
            out.setdefault(u, []).append((v, up))
        if down is not None:
            out.setdefault(v, []).append((u, down))
    memo["out"] = out
    return out


_Pairs = dict[tuple[int, int], tuple[_Link | None, _Link | None]]


def _rampart_pairs(g: RampartNodes) -> _Pairs:
    """For each pair of a floor node ``u`` near a level's ramparts and a node ``v`` of that
    level in reach (:func:`rampart_out`), in the order :func:`rampart_out` lists them: the
    link from ``u`` up to ``v`` and the link from ``v`` down to ``u`` (``None`` when the line
    is not one). Computed once per graph. A graph derived from another
    (:meth:`MoveGraph.derive <engine.geometry.move_graph.MoveGraph.derive>`) takes the other
    graph's answer for the pairs whose nodes both graph have and whose centre line misses
    every changed part's box (:class:`engine.geometry.move_derive._Reuse`: nothing a
    :func:`rampart_link` reads changed there) and computes the rest."""
    memo = g.memo("ramparts", 8)
    known: _Pairs | None = memo.get("pairs")
    if known is not None:
        return known
    reuse: DerivedReuse | None = g.memo(DERIVED_MEMO, 1).get("reuse")
    base: _Pairs | None = None
    if reuse is not None and ramparts_by_level(reuse.base) == ramparts_by_level(g):
        base = _rampart_pairs(reuse.base)
    pairs: _Pairs = {}
    reach = g.radius + CLIMB_RANGE + _TOL
    link_reach = JUMP_MAX + 2 * g.radius + CLIMB_RANGE
    for level, parts in sorted(ramparts_by_level(g).items()):
        near = shapely.union_all([g.kz.parts[i].polygon for i in parts])
        floor_ids = [
            int(u)
            for u in g._near[level].tolist()
            if g._lvl_list[u] == 0 and float(near.distance(Point(g._xy_list[u]))) <= reach
        ]
        mine = [int(v) for v in (g.node_level == level).nonzero()[0].tolist()]
        todo = [
            (u, v)
            for u in floor_ids
            for v in mine
            if math.dist(g._xy_list[u], g._xy_list[v]) <= link_reach
        ]
        kept: list[tuple[int, int] | None] = [None] * len(todo)
        if base is not None and reuse is not None and todo:
            a_ids = np.asarray([u for u, _ in todo], dtype=np.int64)
            b_ids = np.asarray([v for _, v in todo], dtype=np.int64)
            same = reuse.same(g.xy[a_ids], g.xy[b_ids], a_ids, b_ids)
            for k in np.flatnonzero(same).tolist():
                u, v = todo[k]
                kept[k] = (int(reuse.old[u]), int(reuse.old[v]))
        fresh = [k for k, old in enumerate(kept) if old is None or base is None or old not in base]
        tops = _tops(g, level, parts, [todo[k] for k in fresh])
        computed = dict(zip(fresh, tops, strict=True))
        for k, (u, v) in enumerate(todo):
            if k in computed:
                top = computed[k]
                if top is None:
                    pairs[(u, v)] = (None, None)
                else:
                    h = math.dist(g._xy_list[u], g._xy_list[v])
                    pairs[(u, v)] = (_link(g, level, top, True, h), _link(g, level, top, False, h))
            else:
                old = kept[k]
                assert base is not None and old is not None
                pairs[(u, v)] = base[old]
    memo["pairs"] = pairs
    return pairs


def _tops(
    g: RampartNodes, level: int, ramparts: tuple[int, ...], todo: list[tuple[int, int]]
) -> list[float | None]:
    """For each pair ``(u, v)`` of ``todo`` (a floor node, a node of ``level``): the top of
    the ramparts its line crosses when it is a ``rampart`` link (either way: the tests of
    :func:`rampart_link` do not depend on the direction), else ``None``. The tests on one
    end and the crossings are made for every pair at once."""
    out: list[float | None] = [None] * len(todo)
    if not todo:
        return out
    u_ids = np.asarray([u for u, _ in todo], dtype=np.int64)
    v_ids = np.asarray([v for _, v in todo], dtype=np.int64)
    low, high = g.xy[u_ids], g.xy[v_ids]
    floor, lvl = g.levels[0], g.levels[level]
    ok = np.any(low != high, axis=1)
    ok &= shapely.intersects_xy(floor.passage_tol, low[:, 0], low[:, 1])
    ok &= shapely.intersects_xy(lvl.passage_tol, high[:, 0], high[:, 1])
    rows = np.flatnonzero(ok)
    if not rows.size:
        return out
    lines = shapely.linestrings(np.stack([low[rows], high[rows]], axis=1))
    hits = np.stack(
        [
            np.asarray(shapely.relate_pattern(lines, g.kz.parts[i].polygon, "T********"))
            for i in ramparts
        ],
        axis=1,
    )
    for k, row in zip(rows.tolist(), hits.tolist(), strict=True):
        crossed = tuple(i for i, hit in zip(ramparts, row, strict=True) if hit)
        if crossed:
            u, v = todo[k]
            out[k] = _crossing_top(g, level, g._xy_list[u], g._xy_list[v], crossed)
    return out
