"""The links of a movement graph (:class:`engine.geometry.move_graph.MoveGraph`): same-level
moves, climbs over low parts, and climbs, drops and jumps between levels (rules
``rules/KT24.md`` 3.3, 4.6, 4.7, 7.2, 9.3), computed for all nodes at once (a full build) or
node by node when first asked for (a derived graph,
:class:`~engine.geometry.move_base.LazyOut`).

A node's outgoing links depend only on the pairs it belongs to: computing them for a few nodes
runs the same tests on the same pairs, in the same order, as computing them for all, so a
lazily filled graph is the graph a full build gives (the same links, in the same order in
each node's list).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, cast

import numpy as np
import shapely
from numpy.typing import NDArray

from engine.geometry.model import KillzoneError, TerrainType
from engine.geometry.move_base import GraphBase, OutLink
from engine.geometry.move_stairs import stairs_by_level
from engine.geometry.move_values import (
    _BLOCKED,
    _TOL,
    CLIMB_MAX,
    CLIMB_RANGE,
    JUMP_MAX,
    Level,
    _Link,
)

if TYPE_CHECKING:
    from engine.geometry.move_derive import _Reuse

MAX_GRAPH_WORK = 2_000_000
"""The most work a movement graph build may take (:func:`graph_work`), in node pairs tested
on one level: about 10 CPU s for this many on a small machine (the shipped layouts need at
most ~260,000, under 1 s). The layout limits (:data:`engine.geometry.model.MAX_LAYOUT_POINTS`
and :data:`~engine.geometry.model.MAX_LAYOUT_PERIMETER`) bound the work before this check."""

_OVER_WEIGHT = 4
"""The cost of an ordered pair near a low part (links over it) against a same-level pair."""

_BETWEEN_WEIGHT = 64
"""The cost of a pair of nodes in reach between levels (climb, drop and jump links are
classified one by one, ~300 µs a pair) against a same-level pair (~5 µs, vectorised)."""


def graph_work(g: GraphBase) -> int:
    """The work of a full build of ``g``'s links (after :func:`prepare`), in same-level pairs:
    the pairs of nodes on one level, the ordered pairs near each low part (links over it,
    x :data:`_OVER_WEIGHT`), the pairs between a Vantage level's nodes and the nodes near
    it, plus those of them within reach of a climb, drop or jump (x
    :data:`_BETWEEN_WEIGHT`). Stops counting past :data:`MAX_GRAPH_WORK` (the distances are
    computed in chunks: bounded memory)."""
    counts = np.bincount(g.node_level, minlength=len(g.levels)).astype(np.int64)
    work = int((counts * (counts - 1) // 2).sum())
    work += _OVER_WEIGHT * sum(int(ids.size) * (int(ids.size) - 1) for ids in g._over_near.values())
    work += sum(int(counts[lvl.index]) * int(g._near[lvl.index].size) for lvl in g.levels[1:])
    reach = JUMP_MAX + 2 * g.radius + CLIMB_RANGE + 1e-6
    for lvl in g.levels[1:]:
        others = g._near[lvl.index]
        if work > MAX_GRAPH_WORK or not others.size:
            continue
        mine = np.flatnonzero(g.node_level == lvl.index)
        po = g.xy[others]
        step = max(1, PAIR_CHUNK // others.size)
        for k in range(0, mine.size, step):
            pm = g.xy[mine[k : k + step]]
            d = np.hypot(pm[:, None, 0] - po[None, :, 0], pm[:, None, 1] - po[None, :, 1])
            work += _BETWEEN_WEIGHT * int(np.count_nonzero(d <= reach))
    return work


def check_size(g: GraphBase) -> None:
    """Refuse a graph whose build would take more than :data:`MAX_GRAPH_WORK`.

    Raises:
        KillzoneError: naming the layout, the base size, the work and the limit.
    """
    work = graph_work(g)
    if work > MAX_GRAPH_WORK:
        raise KillzoneError(
            f"{g.kz.source}: the terrain is too detailed for movement with {g.base_mm:g}mm "
            f"bases: its movement graph ({len(g._xy_list):,} nodes) needs the work of "
            f"{work:,} node pairs or more, at most {MAX_GRAPH_WORK:,}; use fewer or simpler "
            "terrain parts"
        )


def prepare(g: GraphBase) -> None:
    """Set the per-node caches the links and the path search use: node positions and levels
    as Python lists, each node's distance to each Vantage level's footprint, the nodes near
    each level (for climbs, drops and jumps) and near each climbable part (for links over
    it)."""
    pts = cast(NDArray[np.object_], shapely.points(g.xy))
    g._xy_list.extend((float(x), float(y)) for x, y in g.xy)
    g._lvl_list.extend(int(v) for v in g.node_level)
    fp_dist = np.zeros((len(g.levels), len(pts)))
    for lvl in g.levels[1:]:
        fp_dist[lvl.index] = shapely.distance(lvl.footprint, pts)
    object.__setattr__(g, "_fp_dist", fp_dist)
    near: list[NDArray[np.int64]] = [np.zeros(0, dtype=np.int64)]
    reach = g.radius + JUMP_MAX + _TOL
    for lvl in g.levels[1:]:
        close = shapely.dwithin(lvl.footprint, pts, reach) & (g.node_level != lvl.index)
        near.append(np.nonzero(close)[0].astype(np.int64))
    object.__setattr__(g, "_near", tuple(near))
    floor_nodes = g.node_level == 0
    over_near: dict[int, NDArray[np.int64]] = {}
    for i in np.nonzero(g._over_parts)[0]:
        poly = g.kz.parts[int(i)].polygon
        close = shapely.dwithin(poly, pts, g.radius + CLIMB_RANGE + _TOL) & floor_nodes
        over_near[int(i)] = np.nonzero(close)[0].astype(np.int64)
    object.__setattr__(g, "_over_near", over_near)


def fill(g: GraphBase, rows: NDArray[np.bool_], reuse: _Reuse | None) -> None:
    """Compute the outgoing links of the nodes ``rows`` (boolean mask (N,)) of ``g`` into
    their lists in ``g._out`` (empty lists on entry) and ``g._links``: visibility, over,
    climb, drop and jump links; with ``reuse``, those a change cannot affect are taken from
    another graph (:class:`engine.geometry.move_derive._Reuse`).

    Every pair with a node in ``rows`` is looked at as a full build looks at it (the same
    orientation, the same vectorised tests, elementwise), in the same order, and each link
    goes to its start node's list only when that node is in ``rows``."""
    everything = bool(rows.all())
    rows_list: list[bool] = rows.tolist()
    links = g._links
    out = list(list.__iter__(g._out))  # the lists themselves, without filling any

    def reused(a_ids: NDArray[np.int64], b_ids: NDArray[np.int64]) -> NDArray[np.bool_]:
        """Pairs whose link (or its absence) is the same as in the reused graph."""
        if reuse is None:
            return np.zeros(a_ids.size, dtype=bool)
        return reuse.same(g.xy[a_ids], g.xy[b_ids], a_ids, b_ids)

    _fill_moves(g, rows, everything, rows_list, out, reuse, reused)
    _fill_over(g, rows, everything, rows_list, out, reuse, reused)

    # Climbs, drops and jumps between levels.
    link_reach = JUMP_MAX + 2 * g.radius + CLIMB_RANGE
    climb_reach = g.radius + CLIMB_RANGE + _TOL
    stairs = stairs_by_level(g)
    for lvl in g.levels[1:]:
        mine = np.nonzero(g.node_level == lvl.index)[0]
        others = g._near[lvl.index]
        if not mine.size or not others.size:
            continue
        # Up stairs from farther than a climb starts (move_stairs).
        climb_reach_here = math.inf if lvl.index in stairs else climb_reach
        if everything:
            oo, mm = np.repeat(others, mine.size), np.tile(mine, others.size)
        else:
            # The pairs with a node in rows, by (o, m) as above (both ascending).
            o_rows, m_rows = others[rows[others]], mine[rows[mine]]
            if not o_rows.size and not m_rows.size:
                continue
            n = len(g._xy_list)
            keys = np.unique(
                np.concatenate(
                    [
                        (np.repeat(o_rows, mine.size) * n + np.tile(mine, o_rows.size)),
                        (np.repeat(others, m_rows.size) * n + np.tile(m_rows, others.size)),
                    ]
                )
            )
            oo, mm = keys // n, keys % n
        # Within link_reach (a superset: checked exactly below).
        d = g.xy[oo] - g.xy[mm]
        sel = np.hypot(d[:, 0], d[:, 1]) <= link_reach + 1e-6
        oo, mm = oo[sel], mm[sel]
        keeps: list[bool] = reused(oo, mm).tolist()
        for o, m, keep in zip(oo.tolist(), mm.tolist(), keeps, strict=True):
            po = g._xy_list[o]
            lo = g._lvl_list[o]
            pm = g._xy_list[m]
            if math.dist(po, pm) > link_reach:
                continue
            for u, pu, lu, v, pv, lv in (
                (o, po, lo, m, pm, lvl.index),
                (m, pm, lvl.index, o, po, lo),
            ):
                if not rows_list[u] or (u, v) in links:
                    continue
                link: _Link | str | None
                if keep:
                    assert reuse is not None
                    link = reuse.link(u, v)
                    if link is not None and link.climb > 0 and reuse.near_ladder(pu, pv):
                        link = g.ladder_again(link, lv, pu, pv)
                elif (
                    reuse is not None
                    and reuse.additive
                    and reuse.old[u] >= 0
                    and reuse.old[v] >= 0
                    and reuse.link(u, v) is None
                ):
                    continue  # terrain only added: no link before, none now
                elif lu == 0 and lvl.height > 1e-6 and g._fp_dist[lv, u] > climb_reach_here:
                    continue  # a climb starts within 1" of the terrain (3.3, classify)
                else:
                    link = g.classify(lu, pu, lv, pv, explain=False)
                if isinstance(link, _Link):
                    out[u].append((v, link.weight, link))
                    links[(u, v)] = link


def _fill_moves(
    g: GraphBase,
    rows: NDArray[np.bool_],
    everything: bool,
    rows_list: list[bool],
    out: list[list[OutLink]],
    reuse: _Reuse | None,
    reused: Callable[[NDArray[np.int64], NDArray[np.int64]], NDArray[np.bool_]],
) -> None:
    """Same-level visibility links (``move``) of the nodes ``rows`` (:func:`fill`), the
    pairs of a level taken in chunks of at most :data:`PAIR_CHUNK` (in the order of
    ``np.triu_indices``, so the links and their order are those of one pass over all pairs;
    the memory is bounded by the chunk)."""
    for lvl in g.levels:
        ids = np.nonzero(g.node_level == lvl.index)[0]
        if ids.size < 2 or not rows[ids].any():
            continue
        if reuse is not None and reuse.additive:
            # The others have no link.
            a_all, b_all = reuse.level_pairs(ids, None if everything else rows)
            for k in range(0, a_all.size, PAIR_CHUNK):
                a_ids, b_ids = a_all[k : k + PAIR_CHUNK], b_all[k : k + PAIR_CHUNK]
                _fill_move_pairs(g, lvl, a_ids, b_ids, rows_list, out, reuse, reused)
            continue
        for iu, ju in triu_chunks(ids.size, PAIR_CHUNK):
            a_ids, b_ids = ids[iu], ids[ju]
            if not everything:
                sel = rows[a_ids] | rows[b_ids]
                a_ids, b_ids = a_ids[sel], b_ids[sel]
            if a_ids.size:
                _fill_move_pairs(g, lvl, a_ids, b_ids, rows_list, out, reuse, reused)


PAIR_CHUNK = 1 << 16
"""The most node pairs of a level tested at once for ``move`` links (a few MB of arrays and
line geometries)."""


def triu_chunks(n: int, chunk: int) -> Iterator[tuple[NDArray[np.int64], NDArray[np.int64]]]:
    """The pairs ``(i, j)``, ``0 <= i < j < n``, of ``np.triu_indices(n, k=1)`` in the same
    order, as consecutive ``(rows, columns)`` index arrays of about ``chunk`` pairs each (whole
    rows: at least one row, more than ``chunk`` only when one row has more)."""
    per_row = np.arange(n - 1, -1, -1, dtype=np.int64)  # pairs of row i: n - 1 - i
    ends = np.cumsum(per_row)
    i0 = 0
    while i0 < n - 1:
        start = int(ends[i0 - 1]) if i0 else 0
        i1 = int(np.searchsorted(ends, start + chunk, side="right"))
        i1 = min(max(i1, i0 + 1), n - 1)
        counts = per_row[i0:i1]
        total = int(counts.sum())
        iu = np.repeat(np.arange(i0, i1, dtype=np.int64), counts)
        offsets = np.repeat(np.cumsum(counts) - counts, counts)
        ju = np.arange(total, dtype=np.int64) - offsets + iu + 1
        yield iu, ju
        i0 = i1


def _fill_move_pairs(
    g: GraphBase,
    lvl: Level,
    a_ids: NDArray[np.int64],
    b_ids: NDArray[np.int64],
    rows_list: list[bool],
    out: list[list[OutLink]],
    reuse: _Reuse | None,
    reused: Callable[[NDArray[np.int64], NDArray[np.int64]], NDArray[np.bool_]],
) -> None:
    """The ``move`` links of the pairs ``a_ids[k] -> b_ids[k]`` (both ways) on ``lvl``, in
    the pairs' order (:func:`_fill_moves`)."""
    links = g._links
    xy_list = g._xy_list
    same = reused(a_ids, b_ids)
    fresh = np.flatnonzero(~same)
    if reuse is not None and reuse.additive and fresh.size:
        # Terrain only added: two old nodes not in sight before are not now.
        fa, fb = a_ids[fresh], b_ids[fresh]
        both = (reuse.old[fa] >= 0) & (reuse.old[fb] >= 0)
        had = np.zeros(fresh.size, dtype=bool)
        had[both] = reuse.moves(fa[both], fb[both]) >= 0
        fresh = fresh[~both | had]
    seen = np.zeros(a_ids.size, dtype=bool)
    lines = cast(
        NDArray[np.object_],
        shapely.linestrings(np.stack([g.xy[a_ids[fresh]], g.xy[b_ids[fresh]]], axis=1)),
    )
    # Lines through the inside of a blocker are out at once; covers() for the rest.
    clear = np.flatnonzero(~shapely.intersects(lvl.solid, lines))
    seen[fresh[clear]] = shapely.covers(lvl.passage_tol, lines[clear])
    pos_ab = np.full(a_ids.size, -1, dtype=np.int64)
    pos_ba = np.full(a_ids.size, -1, dtype=np.int64)
    if reuse is not None:
        kept = np.flatnonzero(same)
        pos_ab[kept] = reuse.moves(a_ids[kept], b_ids[kept])
        pos_ba[kept] = reuse.moves(b_ids[kept], a_ids[kept])
        seen[kept] = pos_ab[kept] >= 0
    c_ab = np.zeros(a_ids.size, dtype=np.int64)
    c_ba = np.zeros(a_ids.size, dtype=np.int64)
    acc = g._accessible_union(lvl)
    if acc is not None:
        touch = np.zeros(a_ids.size, dtype=bool)
        touch[fresh] = shapely.intersects(acc, lines)
        t = np.flatnonzero(touch & seen)
        pa, pb = g.xy[a_ids[t]], g.xy[b_ids[t]]
        c_ab[t] = g._crossings_many(lvl, pa, pb)
        c_ba[t] = g._crossings_many(lvl, pb, pa)
    if reuse is not None:
        # Pairs tested again and seen that the reused graph linked with the same
        # crossings: its link objects (equal to new ones).
        again = fresh[seen[fresh]]
        again = again[(reuse.old[a_ids[again]] >= 0) & (reuse.old[b_ids[again]] >= 0)]
        p_ab = reuse.moves(a_ids[again], b_ids[again])
        p_ba = reuse.moves(b_ids[again], a_ids[again])
        crossings = reuse.move_crossings
        same_links = (p_ab >= 0) & (p_ba >= 0)
        same_links[same_links] &= (crossings[p_ab[same_links]] == c_ab[again[same_links]]) & (
            crossings[p_ba[same_links]] == c_ba[again[same_links]]
        )
        pos_ab[again[same_links]] = p_ab[same_links]
        pos_ba[again[same_links]] = p_ba[same_links]
    ok = np.flatnonzero(seen)
    moved = reuse.move_links if reuse is not None else []
    for a, b, pab, pba, cab, cba in zip(
        a_ids[ok].tolist(),
        b_ids[ok].tolist(),
        pos_ab[ok].tolist(),
        pos_ba[ok].tolist(),
        c_ab[ok].tolist(),
        c_ba[ok].tolist(),
        strict=True,
    ):
        if pab >= 0:
            ab, ba = moved[pab], moved[pba]
        else:
            h = math.dist(xy_list[a], xy_list[b])
            ab = _Link("move", h, crossings=cab)
            ba = _Link("move", h, crossings=cba)
        if rows_list[a]:
            out[a].append((b, ab.weight, ab))
            links[(a, b)] = ab
        if rows_list[b]:
            out[b].append((a, ba.weight, ba))
            links[(b, a)] = ba


def _fill_over(
    g: GraphBase,
    rows: NDArray[np.bool_],
    everything: bool,
    rows_list: list[bool],
    out: list[list[OutLink]],
    reuse: _Reuse | None,
    reused: Callable[[NDArray[np.int64], NDArray[np.int64]], NDArray[np.bool_]],
) -> None:
    """Links climbing over low parts on the floor (``over``) from the nodes ``rows``
    (:func:`fill`). A link over terrain crosses some climbable part with both ends within
    reach of it, so it is among that part's pairs whose segment meets the part's interior:
    that is tested in one vectorised call first."""
    links = g._links
    for part_index, ids in g._over_near.items():
        if ids.size < 2 or not rows[ids].any():
            continue
        iu, ju = np.nonzero(~np.eye(ids.size, dtype=bool))
        a_ids, b_ids = ids[iu], ids[ju]
        if not everything:
            sel = rows[a_ids]
            a_ids, b_ids = a_ids[sel], b_ids[sel]
        # The pairs a change cannot affect are the reused graph's (below), the others are
        # tested.
        tested = ~reused(a_ids, b_ids)
        a_ids, b_ids = a_ids[tested], b_ids[tested]
        over_lines = shapely.linestrings(np.stack([g.xy[a_ids], g.xy[b_ids]], axis=1))
        poly = g.kz.parts[part_index].polygon
        meets = np.asarray(shapely.relate_pattern(over_lines, poly, "T********"), dtype=bool)
        a_ids, b_ids = a_ids[meets], b_ids[meets]
        simple = over_many(g, part_index, a_ids, b_ids)
        pairs: list[tuple[int, int, _Link | str | None]] = list(
            zip(a_ids.tolist(), b_ids.tolist(), simple, strict=True)
        )
        if reuse is not None:
            # In the order of a full build: by the pair (the ids are ascending).
            pairs += reuse.kept_over(g, part_index, None if everything else rows)
            pairs.sort(key=lambda t: (t[0], t[1]))
        added: list[tuple[int, int]] = []
        for u, v, found in pairs:
            if (u, v) in links:
                continue
            link = found
            if link is None:
                link = g.classify(0, g._xy(u), 0, g._xy(v), explain=False)
            if isinstance(link, _Link):
                out[u].append((v, link.weight, link))
                links[(u, v)] = link
                added.append((u, v))
        if added:
            g._over_by_part.setdefault(part_index, []).extend(added)


def over_many(
    g: GraphBase, part: int, a_ids: NDArray[np.int64], b_ids: NDArray[np.int64]
) -> list[_Link | str | None]:
    """:meth:`classify` of the floor links ``a_ids[k] -> b_ids[k]`` that cross the
    interior of the climbable part ``part``, in a few vectorised calls, for the links that
    cross no other floor blocker: the same tests as
    :meth:`~engine.geometry.move_links.LinkClassifier._over` in the same GEOS operations,
    so the same answer (the link, or ``"blocked"``); ``None`` for the other links (the
    caller classifies them one by one)."""
    n = a_ids.size
    if n == 0:
        return []
    pa, pb = g.xy[a_ids], g.xy[b_ids]
    lines = cast(NDArray[np.object_], shapely.linestrings(np.stack([pa, pb], axis=1)))
    # Links that cross another blocker's interior: one by one,
    # unless that blocker is Wall or too tall to climb, or the only other one crossed and
    # apart from this part (then blocked, as _over finds).
    other = np.zeros(n, dtype=bool)
    never = np.zeros(n, dtype=bool)
    li, pi = g.kz.tree.query(lines, predicate="intersects")
    pick = (pi != part) & g._blocks_floor[pi]
    li, pi = li[pick], pi[pick]
    if li.size:
        polys = np.asarray([g.kz.parts[int(i)].polygon for i in pi], dtype=object)
        hit = np.asarray(shapely.relate_pattern(lines[li], polys, "T********"), dtype=bool)
        other[li[hit]] = True
        unclimbable = g.kz.flags[TerrainType.WALL] | (g.kz.heights > CLIMB_MAX + 1e-6)
        never[li[hit & unclimbable[pi]]] = True
        # One other part crossed, apart from this one: two obstacles in one increment.
        count = np.bincount(li[hit], minlength=n)
        lone = hit & (count[li] == 1)
        if lone.any():
            poly_i = g.kz.parts[part].polygon
            apart = ~np.asarray(shapely.intersects(polys[lone], poly_i), dtype=bool)
            never[li[lone][apart]] = True
    poly = g.kz.parts[part].polygon
    floor = g.levels[0]
    reach = g.radius + CLIMB_RANGE + _TOL
    ok = np.asarray(shapely.covers(g._board_tol, lines), dtype=bool)
    ok &= np.asarray(shapely.intersects_xy(floor.passage_tol, pb[:, 0], pb[:, 1]), dtype=bool)
    ok &= np.asarray(shapely.distance(poly, shapely.points(pa)) <= reach, dtype=bool)
    ok &= np.asarray(shapely.distance(poly, shapely.points(pb)) <= reach, dtype=bool)
    check = np.flatnonzero(ok & ~other)
    rest = shapely.difference(lines[check], g._grown_part(part))
    clear = shapely.is_empty(rest) | (shapely.length(rest) <= 1e-6)
    clear |= np.asarray(shapely.covers(floor.passage_tol, rest), dtype=bool)
    ok[check[~clear]] = False
    height = g.kz.parts[part].height
    obstructing = int(g.kz.has_type(part, TerrainType.OBSTRUCTING))
    ladders = np.zeros(n, dtype=bool)
    simple = np.flatnonzero(ok & ~other & ~never)
    ladders[simple] = g._over_ladders((part,), pa[simple], pb[simple])
    result: list[_Link | str | None] = []
    for k in range(n):
        if never[k]:
            result.append(_BLOCKED)
            continue
        if other[k]:
            result.append(None)
            continue
        if not ok[k]:
            result.append(_BLOCKED)
            continue
        a, b = g._xy(int(a_ids[k])), g._xy(int(b_ids[k]))
        ladder = bool(ladders[k])
        result.append(
            _Link(
                "over",
                math.dist(a, b),
                climb=height,
                drop=height,
                crossings=g._crossings(floor, a, b),
                obstructing=obstructing,
                ladder=ladder,
            )
        )
    return result
