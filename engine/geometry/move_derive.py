"""Deriving a movement graph from the graph of the same layout in another state: another
hatchway state (``rules/KT24.md`` 9.3) or other terrain added after the layout's parts
(equipment, 7.2). :meth:`engine.geometry.move_graph.MoveGraph.derive` takes from the other
graph every link a change cannot affect (:class:`_Reuse`) and computes the rest, so the result
is the graph a full build gives.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import attrs
import numpy as np
from numpy.typing import NDArray

from engine.geometry.model import TerrainPart, TerrainType
from engine.geometry.move_values import (
    _GRID,
    _TOL,
    CONTROL_RANGE,
    XY,
    FloatArray,
    _Link,
)

if TYPE_CHECKING:
    from engine.geometry.move_base import GraphBase


@attrs.frozen(slots=True, eq=False)
class _Reuse:
    """What :meth:`MoveGraph.derive` takes from the graph of another hatchway state.

    Attributes:
        base: that graph.
        old: for each node of the new graph, the same node (level and position) in ``base``,
            or -1.
        boxes: bounding boxes (minx, miny, maxx, maxy; inches) of the parts that differ (of
            the hatchways whose state differs, or added terrain), grown by the reach of a
            change (1.5 base radii + 0.05": the bevelled buffers of blockers, the band around
            Accessible parts and the 0.002" tolerances all lie within it). Ladders that are
            Insignificant change no region and have no box here.
        additive: whether the new graph's killzone is ``base``'s with parts added (none
            Accessible or Vantage) and nothing else changed: its regions are then ``base``'s
            less the new blockers' surroundings, so a straight increment between two nodes of
            ``base`` that was not a ``move``, ``climb``, ``drop`` or ``jump`` link there is
            not one now either (``over`` links are not monotone: a new part touching an old
            one can make a crossing legal).
        ladder_boxes: bounding boxes of the ladders that differ (added, moved, or standing
            against other features), grown by control range and the base radius + 0.05": a
            kept link that climbs near one is classified again (its ladder flag may differ).
    """

    base: GraphBase
    old: NDArray[np.int64]
    boxes: FloatArray
    move_keys: NDArray[np.int64]
    move_links: list[_Link]
    move_crossings: NDArray[np.int64]
    ladder_boxes: FloatArray
    additive: bool
    _ladder_box_list: list[tuple[float, float, float, float]] = attrs.field(init=False, repr=False)
    _new_of_old: NDArray[np.int64] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        boxes = [(float(a), float(b), float(c), float(d)) for a, b, c, d in self.ladder_boxes]
        object.__setattr__(self, "_ladder_box_list", boxes)
        # For each node of base, the same node in the new graph, or -1 (a last entry -1 for
        # the index -1).
        new_of_old = np.full(len(self.base._keys) + 1, -1, dtype=np.int64)
        kept = np.flatnonzero(self.old >= 0)
        new_of_old[self.old[kept]] = kept
        object.__setattr__(self, "_new_of_old", new_of_old)

    @classmethod
    def make(cls, base: GraphBase, graph: GraphBase) -> _Reuse | None:
        """``None`` when ``graph`` is not the same layout as ``base`` (in another hatchway
        state, or with other terrain added after the layout's parts, 7.2) with the same levels
        (then every link is computed)."""
        kz, bkz = graph.kz, base.kz
        if (kz.width, kz.depth) != (bkz.width, bkz.depth) or kz.hatchways != bkz.hatchways:
            return None
        if graph.base_mm != base.base_mm or len(graph.levels) != len(base.levels):
            return None
        for lv, bl in zip(graph.levels, base.levels, strict=True):
            if lv.parts != bl.parts or lv.height != bl.height:
                return None
        # The parts both share (the same objects at the same indices: the layout's, when
        # terrain was added, 7.2), and those that differ.
        shared = 0
        for p, q in zip(kz.parts, bkz.parts, strict=False):
            if p is not q:
                break
            shared += 1
        if shared == 0:
            return None
        toggled = kz.open_hatchways ^ bkz.open_hatchways
        parts = [p for p in kz.parts[:shared] if kz.features[p.feature] in toggled]
        parts += [*kz.parts[shared:], *bkz.parts[shared:]]
        for p in parts:
            if TerrainType.VANTAGE in p.types | (p.open_types or frozenset()):
                return None
        keys = base._keys
        old = np.full(len(graph._keys), -1, dtype=np.int64)
        for key, k in graph._keys.items():
            old[k] = keys.get(key, -1)
        margin = 1.5 * (graph.radius + _GRID + _TOL) + 0.05
        regional = [p for p in parts if not _flag_only(p)]
        boxes = np.asarray([p.polygon.bounds for p in regional], dtype=float).reshape(-1, 4)
        boxes = boxes + np.array([-margin, -margin, margin, margin])
        # A ladder reaches the climbs within control range of it (7.2): the ladders among the
        # changed parts, and shared ladders now standing against other features.
        changed = {i for i, _ in set(graph._ladders) ^ set(base._ladders) if i < shared}
        polys = [kz.parts[i].polygon for i in sorted(changed)]
        polys += [p.polygon for p in parts if TerrainType.LADDER in p.types]
        reach = graph.radius + CONTROL_RANGE + _TOL + 0.05
        ladder_boxes = np.asarray([p.bounds for p in polys], dtype=float).reshape(-1, 4)
        ladder_boxes = ladder_boxes + np.array([-reach, -reach, reach, reach])
        base.complete()  # its links are read below (a derived graph fills them lazily)
        if not base._move_index:
            n = max(len(base._keys), 1)
            moves = sorted(
                (u * n + v, link) for (u, v), link in base._links.items() if link.kind == "move"
            )
            base._move_index.append(
                (
                    np.asarray([k for k, _ in moves], dtype=np.int64),
                    [m for _, m in moves],
                    np.asarray([m.crossings for _, m in moves], dtype=np.int64),
                )
            )
        keys_sorted, move_links, move_crossings = base._move_index[0]
        added = kz.parts[shared:]
        additive = (
            not toggled
            and shared == len(bkz.parts)
            and not any(TerrainType.ACCESSIBLE in p.types for p in added)
        )
        return cls(
            base, old, boxes, keys_sorted, move_links, move_crossings, ladder_boxes, additive
        )

    def level_pairs(
        self, ids: NDArray[np.int64], rows: NDArray[np.bool_] | None = None
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """When terrain was only added (:attr:`additive`): the pairs ``a < b`` of the nodes
        ``ids`` (one level's, ascending) whose same-level link has to be looked at, in the
        order of ``np.triu_indices`` (by ``a``, then ``b``): those with a node ``base`` lacks,
        and those ``base`` has a ``move`` link for. Every other pair had no link in ``base``
        and has none now (the regions only lost ground). With ``rows`` (a boolean mask (N,)
        of the new graph's nodes), only the pairs with a node in ``rows``, in the same
        order."""
        if rows is not None:
            return self._level_pairs_of(ids, rows)
        new = self.old[ids] < 0
        iu, ju = np.triu_indices(ids.size, k=1)
        with_new = new[iu] | new[ju]
        a_new, b_new = ids[iu[with_new]], ids[ju[with_new]]
        n = max(len(self.base._keys), 1)
        new_of_old = self._new_of_old
        a_old, b_old = new_of_old[self.move_keys // n], new_of_old[self.move_keys % n]
        on_level = np.zeros(self.old.size + 1, dtype=bool)  # index -1: not a node here
        on_level[ids] = True
        pick = on_level[a_old] & on_level[b_old] & (a_old < b_old)
        a = np.concatenate([a_new, a_old[pick]])
        b = np.concatenate([b_new, b_old[pick]])
        order = np.lexsort((b, a))
        return a[order], b[order]

    def _level_pairs_of(
        self, ids: NDArray[np.int64], rows: NDArray[np.bool_]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """:meth:`level_pairs` with a node in ``rows``: each such node's pairs with every
        node of ``ids`` when one of the two is new, and with the nodes ``base`` linked it to
        (``base``'s ``move`` links come in both directions, sorted by their start node)."""
        mine = ids[rows[ids]]
        size = self.old.size
        new = self.old < 0
        keys: list[NDArray[np.int64]] = []
        n = max(len(self.base._keys), 1)
        on_level = np.zeros(size + 1, dtype=bool)  # index -1: not a node here
        on_level[ids] = True
        for r in mine.tolist():
            other = ids[ids != r] if new[r] else ids[new[ids]]
            if other.size:
                keys.append(np.minimum(other, r) * size + np.maximum(other, r))
            o = int(self.old[r])
            if o >= 0:
                lo, hi = np.searchsorted(self.move_keys, [o * n, (o + 1) * n])
                v = self._new_of_old[self.move_keys[lo:hi] % n]
                v = v[on_level[v]]
                keys.append(np.minimum(v, r) * size + np.maximum(v, r))
        if not keys:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty
        pairs = np.unique(np.concatenate(keys))
        return pairs // size, pairs % size

    def moves(self, a_ids: NDArray[np.int64], b_ids: NDArray[np.int64]) -> NDArray[np.int64]:
        """For each pair of nodes of the new graph (both in ``base``), the index in
        ``move_links`` of ``base``'s same-level ``move`` link from a to b, or -1."""
        keys = self.old[a_ids] * max(len(self.base._keys), 1) + self.old[b_ids]
        pos = np.searchsorted(self.move_keys, keys)
        pos = np.minimum(pos, max(self.move_keys.size - 1, 0))
        found = (self.move_keys.size > 0) & (self.move_keys[pos] == keys)
        return np.where(found, pos, -1)

    def same(
        self, p: FloatArray, q: FloatArray, a_ids: NDArray[np.int64], b_ids: NDArray[np.int64]
    ) -> NDArray[np.bool_]:
        """Which node pairs (segments ``p[k] -> q[k]``) keep ``base``'s link: both nodes are
        in ``base`` and the segment misses every box."""
        keep = (self.old[a_ids] >= 0) & (self.old[b_ids] >= 0)
        return np.asarray(keep & ~_meets(self.boxes, p, q, keep), dtype=bool)

    def near_ladder(self, p: XY, q: XY) -> bool:
        """Whether the segment ``p -> q`` meets a box of :attr:`ladder_boxes`."""
        for x0, y0, x1, y1 in self._ladder_box_list:
            if min(p[0], q[0]) > x1 or max(p[0], q[0]) < x0:
                continue
            if min(p[1], q[1]) > y1 or max(p[1], q[1]) < y0:
                continue
            enter, leave = 0.0, 1.0
            for a, d, lo, hi in ((p[0], q[0] - p[0], x0, x1), (p[1], q[1] - p[1], y0, y1)):
                if d == 0:
                    if not lo <= a <= hi:
                        enter, leave = 1.0, 0.0
                    continue
                ta, tb = (lo - a) / d, (hi - a) / d
                enter, leave = max(enter, min(ta, tb)), min(leave, max(ta, tb))
            if enter <= leave:
                return True
        return False

    def kept_over(
        self, graph: GraphBase, part: int, rows: NDArray[np.bool_] | None = None
    ) -> list[tuple[int, int, _Link | str | None]]:
        """``base``'s links over the low part ``part`` that ``graph`` keeps (both nodes in
        it, the segment missing every box), as ``(u, v, link)`` with ``graph``'s node
        indices, the ladder flag set again near a ladder that changed (7.2). ``base`` added
        each in ``part``'s turn (the first part it climbs over, in the order of the parts), and
        so does a full build of ``graph``: nothing about the link changed. With ``rows`` (a
        boolean mask (N,) of ``graph``'s nodes), only the links from those nodes."""
        pairs = self.base._over_by_part.get(part)
        if not pairs:
            return []
        old = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
        u, v = self._new_of_old[old[:, 0]], self._new_of_old[old[:, 1]]
        keep = (u >= 0) & (v >= 0)
        if rows is not None:
            keep[keep] = rows[u[keep]]
        if not keep.any():
            return []
        keep[keep] = self.same(graph.xy[u[keep]], graph.xy[v[keep]], u[keep], v[keep])
        kept = np.flatnonzero(keep)
        u, v = u[kept], v[kept]
        links: list[_Link | str | None] = [self.base._links[pairs[k]] for k in kept.tolist()]
        pu, pv = graph.xy[u], graph.xy[v]
        again = np.flatnonzero(_meets(self.ladder_boxes, pu, pv, np.ones(kept.size, dtype=bool)))
        if again.size:
            flags = graph.over_ladder_flags(part, pu[again], pv[again])
            for k, flag in zip(again.tolist(), flags.tolist(), strict=True):
                link = links[k]
                assert isinstance(link, _Link) and link.kind == "over"
                if link.ladder != flag:
                    links[k] = attrs.evolve(link, ladder=flag)
        return list(zip(u.tolist(), v.tolist(), links, strict=True))

    def link(self, u: int, v: int) -> _Link | None:
        """``base``'s link between the nodes ``u`` and ``v`` of the new graph, if any."""
        return self.base._links.get((int(self.old[u]), int(self.old[v])))


def _flag_only(part: TerrainPart) -> bool:
    """Whether ``part`` is a ladder that changes no level region (Insignificant, not
    Accessible, Vantage or Wall, not a hatchway): only the ladder flag of climbs near it."""
    types = part.types
    return (
        part.open_types is None
        and TerrainType.LADDER in types
        and TerrainType.INSIGNIFICANT in types
        and not types & {TerrainType.ACCESSIBLE, TerrainType.VANTAGE, TerrainType.WALL}
    )


def _meets(
    boxes: FloatArray, p: FloatArray, q: FloatArray, rows_of: NDArray[np.bool_]
) -> NDArray[np.bool_]:
    """Which segments ``p[k] -> q[k]`` (among ``rows_of``) meet one of ``boxes`` (minx, miny,
    maxx, maxy), by the slab test."""
    near = np.zeros(rows_of.size, dtype=bool)
    if not boxes.size or not p.size:
        return near
    seg_lo, seg_hi = np.minimum(p, q), np.maximum(p, q)
    lo_all, hi_all = boxes[:, :2], boxes[:, 2:]
    # Only segments whose bounding box meets a box can meet it (a quick filter), every
    # (segment, box) pair at once.
    cand = (
        rows_of[:, None]
        & np.all(seg_lo[:, None, :] <= hi_all[None, :, :], axis=2)
        & np.all(seg_hi[:, None, :] >= lo_all[None, :, :], axis=2)
    )
    rows, which = np.nonzero(cand)
    if not rows.size:
        return near
    lo, hi = lo_all[which], hi_all[which]
    p0 = p[rows]
    d = q[rows] - p0
    flat = d == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        ta = (lo - p0) / d
        tb = (hi - p0) / d
    inside = (p0 >= lo) & (p0 <= hi)
    t_lo = np.where(flat, np.where(inside, -math.inf, math.inf), np.minimum(ta, tb))
    t_hi = np.where(flat, np.where(inside, math.inf, -math.inf), np.maximum(ta, tb))
    enter = np.maximum(t_lo.max(axis=1), 0.0)
    leave = np.minimum(t_hi.min(axis=1), 1.0)
    near[rows[enter <= leave]] = True
    return near
