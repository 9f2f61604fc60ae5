"""The movement graph: its build, its derivation from another graph and its disk tables.

The model is described in :mod:`engine.geometry.movement` (rules ``rules/KT24.md`` 3.3, 4.6,
4.7, 9.3). This module builds, per killzone hatchway state and base size, the graph of
straight increments (:mod:`engine.geometry.move_links`) that the path search
(:mod:`engine.geometry.move_paths`) runs on, from its levels and nodes
(:mod:`engine.geometry.move_levels`) and links (:mod:`engine.geometry.move_fill`,
:mod:`engine.geometry.move_derive`). The graphs are cached by
:func:`engine.geometry.graph_cache.move_graph`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import attrs
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from engine.geometry import move_fill
from engine.geometry.gc_pause import paused_gc
from engine.geometry.model import MM_PER_INCH, Killzone, TerrainType
from engine.geometry.move_base import GraphBase, LazyOut
from engine.geometry.move_derive import _Reuse
from engine.geometry.move_levels import _Builder, _ladders, _make_level, _Shared
from engine.geometry.move_values import (
    _GRID,
    _TOL,
    CLIMB_MAX,
    DERIVED_MEMO,
    XY,
    FloatArray,
    Level,
    _Link,
    _passable,
)

# -------------------------------------------------------------------------------------------
# The move graph
# -------------------------------------------------------------------------------------------


class EdgeTable(NamedTuple):
    """The edges of a level's strict region (:meth:`MoveGraph.strict_edges`) as the ray casts
    of :mod:`engine.geometry.move_destinations` use them: ``a``, ``b`` start and end points,
    ``e = b - a``, ``length`` (``numpy.hypot`` of ``e``), ``lo``, ``hi`` the lower and upper
    corners of their bounding boxes (arrays (E, 2), ``length`` (E,); inches), ``degenerate``
    (an edge has zero length) and ``lines``, each edge as a shapely ``LineString`` (object
    array (E,))."""

    a: FloatArray
    b: FloatArray
    e: FloatArray
    length: FloatArray
    lo: FloatArray
    hi: FloatArray
    degenerate: bool
    lines: NDArray[np.object_]


#: The kinds of links, by their index in the stored tables (:meth:`MoveGraph.tables`).
LINK_KINDS = ("move", "over", "climb", "drop", "jump", "stairs")


@attrs.frozen(slots=True, eq=False)
class MoveGraph(GraphBase):
    """The movement graph of one killzone (in its hatchway state) for one base size.

    Build it with :meth:`build`, derive it from another hatchway state's graph with
    :meth:`derive`, or get the cached one with
    :func:`~engine.geometry.graph_cache.move_graph`.

    Attributes:
        kz: the killzone.
        base_mm: base diameter (mm).
        radius: base radius (inches).
        levels: the floor then every Vantage level (:class:`Level`).
        xy: node positions, array (N, 2), inches.
        node_level: level index of each node, array (N,).
    """

    kz: Killzone
    base_mm: float
    radius: float
    levels: tuple[Level, ...]
    xy: FloatArray = attrs.field(repr=False)
    node_level: NDArray[np.int64] = attrs.field(repr=False)
    _out: list[list[tuple[int, float, _Link]]] = attrs.field(repr=False)
    _near: tuple[NDArray[np.int64], ...] = attrs.field(repr=False)
    _over_parts: NDArray[np.bool_] = attrs.field(repr=False)
    _over_near: dict[int, NDArray[np.int64]] = attrs.field(repr=False)
    _blocks_floor: NDArray[np.bool_] = attrs.field(repr=False)
    _board_tol: BaseGeometry = attrs.field(repr=False)
    _ladders: tuple[tuple[int, frozenset[int]], ...] = attrs.field(repr=False)
    _keys: dict[tuple[int, float, float], int] = attrs.field(factory=dict, repr=False)
    _grown: dict[int | tuple[int, ...], BaseGeometry] = attrs.field(factory=dict, repr=False)
    _xy_list: list[XY] = attrs.field(factory=list, repr=False)
    _lvl_list: list[int] = attrs.field(factory=list, repr=False)
    _fp_dist: FloatArray = attrs.field(factory=lambda: np.zeros((0, 0)), repr=False)
    _links: dict[tuple[int, int], _Link] = attrs.field(factory=dict, repr=False)
    _move_index: list[tuple[NDArray[np.int64], list[_Link], NDArray[np.int64]]] = attrs.field(
        factory=list, repr=False
    )
    _nx: list[Any] = attrs.field(factory=list, repr=False)
    _terrain_near: dict[tuple[float, float, float], bool] = attrs.field(factory=dict, repr=False)
    _edges: dict[int, tuple[FloatArray, FloatArray]] = attrs.field(factory=dict, repr=False)
    _edge_tables: dict[int, EdgeTable] = attrs.field(factory=dict, repr=False)
    #: The links climbing over each low part (its index), in the order they were added.
    _over_by_part: dict[int, list[tuple[int, int]]] = attrs.field(factory=dict, repr=False)
    #: Parts' polygons grown for the levels and nodes, by (kind, part index), for the graphs
    #: derived from this one (:class:`_Shared`).
    _part_buffers: dict[tuple[str, int], Any] = attrs.field(factory=dict, repr=False)
    #: Answers of the movement queries on this graph kept for later queries, keyed by value
    #: (points, placements): each kind in its own bounded dict (:meth:`memo`).
    _memo: dict[str, dict[Any, Any]] = attrs.field(factory=dict, repr=False)

    def tables(self) -> dict[str, NDArray[Any]]:
        """This graph's links as plain arrays, for the disk cache
        (:mod:`engine.geometry.graph_cache`): what :meth:`restore` needs besides the
        killzone and base size, data only (no Python objects).

        Keys: ``xy`` (N, 2) float64 and ``node_level`` (N,) int64, the nodes (inches, level
        index; checked on restore); ``out_count`` (N,) int64, the number of outgoing links of
        each node; per link in the order of the nodes' lists (L,): ``link_v`` (the other
        node), ``link_kind`` (index in :data:`LINK_KINDS`), ``link_horizontal``,
        ``link_climb``, ``link_drop`` (inches), ``link_crossings``, ``link_obstructing``,
        ``link_ladder``; ``links_order`` (L,), the order of the links in the pair table
        (positions in that list); ``over_part``, ``over_u``, ``over_v`` (M,), the links over
        each low part in the order they were added.

        Raises:
            ValueError: a link of a kind not in :data:`LINK_KINDS`.
        """
        self.complete()
        out = list(list.__iter__(self._out))
        rows = [(u, v, link) for u, row in enumerate(out) for v, _, link in row]
        kind_of = {kind: k for k, kind in enumerate(LINK_KINDS)}
        unknown = {link.kind for _, _, link in rows} - kind_of.keys()
        if unknown:
            raise ValueError(f"link kinds {sorted(unknown)} have no stored form")
        position = {(u, v): k for k, (u, v, _) in enumerate(rows)}

        def ints(values: Any) -> NDArray[np.int64]:
            return np.asarray(list(values), dtype=np.int64)

        def floats(values: Any) -> NDArray[np.float64]:
            return np.asarray(list(values), dtype=np.float64)

        over = [(p, u, v) for p, pairs in self._over_by_part.items() for u, v in pairs]
        return {
            "xy": np.asarray(self.xy, dtype=np.float64).reshape(-1, 2),
            "node_level": np.asarray(self.node_level, dtype=np.int64),
            "out_count": ints(len(row) for row in out),
            "link_v": ints(v for _, v, _ in rows),
            "link_kind": ints(kind_of[link.kind] for _, _, link in rows),
            "link_horizontal": floats(link.horizontal for _, _, link in rows),
            "link_climb": floats(link.climb for _, _, link in rows),
            "link_drop": floats(link.drop for _, _, link in rows),
            "link_crossings": ints(link.crossings for _, _, link in rows),
            "link_obstructing": ints(link.obstructing for _, _, link in rows),
            "link_ladder": np.asarray([link.ladder for _, _, link in rows], dtype=np.bool_),
            "links_order": ints(position[pair] for pair in self._links),
            "over_part": ints(p for p, _, _ in over),
            "over_u": ints(u for _, u, _ in over),
            "over_v": ints(v for _, _, v in over),
        }

    @classmethod
    def restore(cls, kz: Killzone, base_mm: float, tables: dict[str, NDArray[Any]]) -> MoveGraph:
        """The graph :meth:`build` gives for ``kz`` and ``base_mm`` (mm), from ``tables``
        (:meth:`tables` of a graph built for the same layout, base size and code, as read
        from the disk cache): the levels, nodes and per-node tables are made again from
        ``kz`` (a few ms), the links are taken from ``tables``. Every value is checked: the
        nodes must be the ones made again, indices in range, kinds known.

        Raises:
            ValueError: ``tables`` do not fit this killzone and base size (missing or
                malformed arrays, other nodes, an index out of range).
        """
        with paused_gc():
            graph, _ = cls._skeleton(kz, base_mm)
            n = len(graph._keys)

            def column(name: str, dtype: Any, length: int | None = None) -> NDArray[Any]:
                if name not in tables:
                    raise ValueError(f"no {name!r} table")
                arr = np.asarray(tables[name])
                if arr.dtype != np.dtype(dtype) or arr.ndim != (2 if name == "xy" else 1):
                    raise ValueError(f"table {name!r} is {arr.dtype} {arr.shape}")
                if length is not None and arr.shape[0] != length:
                    raise ValueError(f"table {name!r} has {arr.shape[0]} rows, not {length}")
                return arr

            xy = column("xy", np.float64, n)
            if xy.shape != graph.xy.shape or xy.tobytes() != graph.xy.tobytes():
                raise ValueError("the stored nodes are not this layout's")
            if not np.array_equal(column("node_level", np.int64, n), graph.node_level):
                raise ValueError("the stored node levels are not this layout's")
            counts = column("out_count", np.int64, n)
            if (counts < 0).any():
                raise ValueError("negative link counts")
            total = int(counts.sum())
            dest = column("link_v", np.int64, total)
            kinds = column("link_kind", np.int64, total)
            if not _in_range(dest, n):
                raise ValueError("a link to a node out of range")
            if not _in_range(kinds, len(LINK_KINDS)):
                raise ValueError("a link of an unknown kind")
            horizontal = column("link_horizontal", np.float64, total)
            climb = column("link_climb", np.float64, total)
            drop = column("link_drop", np.float64, total)
            crossings = column("link_crossings", np.int64, total)
            obstructing = column("link_obstructing", np.int64, total)
            ladder = column("link_ladder", np.bool_, total)
            order = column("links_order", np.int64, total)
            if not np.array_equal(np.sort(order), np.arange(total)):
                raise ValueError("the link order is not a permutation")
            parts = column("over_part", np.int64)
            over_u = column("over_u", np.int64, parts.shape[0])
            over_v = column("over_v", np.int64, parts.shape[0])
            if not (
                _in_range(parts, len(kz.parts)) and _in_range(over_u, n) and _in_range(over_v, n)
            ):
                raise ValueError("a link over a part or node out of range")

            # Equal links (bit for bit) are made once and shared (frozen values): most links
            # repeat another's fields.
            record = np.empty(
                total,
                dtype=[
                    ("kind", np.int64),
                    ("horizontal", np.float64),
                    ("climb", np.float64),
                    ("drop", np.float64),
                    ("crossings", np.int64),
                    ("obstructing", np.int64),
                    ("ladder", np.bool_),
                ],
            )
            record["kind"], record["horizontal"], record["climb"] = kinds, horizontal, climb
            record["drop"], record["crossings"] = drop, crossings
            record["obstructing"], record["ladder"] = obstructing, ladder
            raw = record.view(np.dtype((np.void, record.dtype.itemsize)))
            _, first, which = np.unique(raw, return_index=True, return_inverse=True)
            distinct = [
                _Link(*row)
                for row in zip(
                    [LINK_KINDS[k] for k in kinds[first].tolist()],
                    horizontal[first].tolist(),
                    climb[first].tolist(),
                    drop[first].tolist(),
                    crossings[first].tolist(),
                    obstructing[first].tolist(),
                    ladder[first].tolist(),
                    strict=True,
                )
            ]
            made = [distinct[k] for k in np.asarray(which).reshape(-1).tolist()]
            starts = np.repeat(np.arange(n, dtype=np.int64), counts).tolist()
            dest_list = dest.tolist()
            out = graph._out
            for u, v, link in zip(starts, dest_list, made, strict=True):
                out[u].append((v, link.weight, link))
            links = graph._links
            for k in order.tolist():
                links[(starts[k], dest_list[k])] = made[k]
            over_by_part = graph._over_by_part
            for p, u, v in zip(parts.tolist(), over_u.tolist(), over_v.tolist(), strict=True):
                over_by_part.setdefault(p, []).append((u, v))
            move_fill.prepare(graph)
        return graph

    def strict_edges(self, lvl: Level) -> tuple[FloatArray, FloatArray]:
        """The edges of ``lvl``'s strict region (:attr:`Level.strict_tol`), every ring in its
        own order: arrays (E, 2) of start and end points in inches (cached)."""
        edges = self._edges.get(lvl.index)
        if edges is None:
            starts: list[FloatArray] = []
            stops: list[FloatArray] = []
            for ring in shapely.get_rings(shapely.get_parts(lvl.strict_tol)):
                xy = np.asarray(shapely.get_coordinates(ring), dtype=float)
                starts.append(xy[:-1])
                stops.append(xy[1:])
            edges = (
                np.concatenate(starts) if starts else np.zeros((0, 2)),
                np.concatenate(stops) if stops else np.zeros((0, 2)),
            )
            self._edges[lvl.index] = edges
        return edges

    def edge_table(self, lvl: Level) -> EdgeTable:
        """:meth:`strict_edges` with what the ray casts derive from them
        (:class:`EdgeTable`), computed once per level."""
        table = self._edge_tables.get(lvl.index)
        if table is None:
            a, b = self.strict_edges(lvl)
            e = b - a
            e_len = np.hypot(e[:, 0], e[:, 1])
            table = self._edge_tables[lvl.index] = EdgeTable(
                a,
                b,
                e,
                e_len,
                np.minimum(a, b),
                np.maximum(a, b),
                bool((e_len == 0).any()),
                np.asarray(shapely.linestrings(np.stack([a, b], axis=1)), dtype=object),
            )
        return table

    def memo(self, kind: str, limit: int = 50_000) -> dict[Any, Any]:
        """The dict of the answers of ``kind`` kept on this graph for later queries (keys are
        values: points, placements, levels; never ``id()``), emptied when it holds more than
        ``limit`` entries, so it stays bounded."""
        table = self._memo.get(kind)
        if table is None:
            table = self._memo[kind] = {}
        elif len(table) > limit:
            table.clear()
        return table

    def terrain_near(self, x: float, y: float, distance: float) -> bool:
        """Whether any terrain part's footprint lies within ``distance`` inches of the point
        ``(x, y)`` (inches), cached per point: enemies stand still while many moves are
        searched around them."""
        key = (x, y, distance)
        hit = self._terrain_near.get(key)
        if hit is None:
            if len(self._terrain_near) > 50_000:
                self._terrain_near.clear()
            hit = self._terrain_near[key] = bool(len(self.kz.parts_near(Point(x, y), distance)))
        return hit

    @property
    def graph(self) -> Any:
        """The graph as a ``networkx.DiGraph`` (built on first use): nodes are ints with
        attributes ``level``, ``x``, ``y``, ``z`` (inches); edges have ``kind``,
        ``horizontal``, ``climb``, ``drop``, ``crossings`` and ``weight`` (the cost in inches
        with the free 2" of drop applied to that link alone, + 1e-4 x length)."""
        if not self._nx:
            import networkx as nx  # type: ignore[import-untyped]  # slow to import: on demand

            g = nx.DiGraph()
            for k, (li, (x, y)) in enumerate(zip(self._lvl_list, self._xy_list, strict=True)):
                g.add_node(k, level=li, x=x, y=y, z=self.levels[li].height)
            g.add_edges_from(
                (
                    u,
                    v,
                    {
                        "kind": link.kind,
                        "horizontal": link.horizontal,
                        "climb": link.climb,
                        "drop": link.drop,
                        "crossings": link.crossings,
                        "obstructing": link.obstructing,
                        "ladder": link.ladder,
                        "weight": w,
                    },
                )
                for u, out in enumerate(self._out)
                for v, w, link in out
            )
            self._nx.append(g)
        return self._nx[0]

    # ---------------------------------------------------------------------------------------
    # Construction
    # ---------------------------------------------------------------------------------------

    @classmethod
    def build(cls, kz: Killzone, base_mm: float) -> MoveGraph:
        """Build the graph for bases of ``base_mm`` millimetres on ``kz`` (module docstring).

        Takes a fraction of a second for a 30" x 22" killzone with ~25 parts, and at most about
        10 s for a layout at the limits (:data:`engine.geometry.move_fill.MAX_GRAPH_WORK`).

        Raises:
            KillzoneError: the graph would take more than
                :data:`~engine.geometry.move_fill.MAX_GRAPH_WORK` (layouts far above real ones).
        """
        with paused_gc():
            graph, _ = cls._skeleton(kz, base_mm)
            move_fill.prepare(graph)
            move_fill.check_size(graph)
            move_fill.fill(graph, np.ones(len(graph._keys), dtype=bool), None)
        return graph

    @classmethod
    def derive(cls, base: MoveGraph, kz: Killzone) -> MoveGraph:
        """The graph of ``kz`` for ``base``'s base size, derived from ``base``, the graph of
        the same layout in another hatchway state (section 9.3).

        The result is the graph :meth:`build` would give (the same nodes in the same order, the same
        links in the same order). The levels and nodes are rebuilt (a few ms; the levels made of the
        same shared parts as ``base``'s are ``base``'s, and the grown polygons and node candidates
        of shared parts are remembered on ``base``). Each node's outgoing links are computed when
        first asked for (:class:`~engine.geometry.move_base.LazyOut`,
        :mod:`engine.geometry.move_fill`): most queries settle on the straight line and a path
        search expands few nodes, so a battle computes a few dozen nodes' links, not all of them.
        For those, only the links whose centre line passes near a hatchway whose state differs
        (within 1.5 base radii + 0.05", the reach of a state change into the levels' regions) or
        that end on a node ``base`` does not have are computed again; every other link is
        ``base``'s. Terrain added to the layout (:meth:`Killzone.with_terrain`, 7.2) is handled the
        same way: the parts after those both killzones share are changed parts (a ladder's reach is
        its control range: the links it may help keep their geometry and get their ladder flag
        again). When terrain was only added, two nodes ``base`` has without a ``move``, ``climb``,
        ``drop`` or ``jump`` link between them get none (the regions only lost ground), so only the
        pairs with a new node and those ``base`` linked are looked at; kept links over low parts are
        taken part by part from ``base``'s record of them. Eight small items on the open ruins: ~7
        ms, and ~160 ms to compute every link (a full build ~540 ms,
        ``benchmarks/geometry_movement.py``). A ``base`` whose links are filled lazily is completed
        first. Falls back to computing every link afresh (still on first use) when ``kz`` is not a
        hatchway state or an added-terrain value of ``base``'s layout or a changed part is Vantage
        terrain (the levels would differ).

        Args:
            base: a graph of the same layout (``kz.parts`` starts with the same part objects
                as ``base.kz.parts``), e.g. the cached graph of the layout as loaded.
            kz: the killzone in the wanted hatchway state.

        Raises:
            KillzoneError: as :meth:`build`.
        """
        with paused_gc():
            graph, _ = cls._skeleton(kz, base.base_mm, base)
            reuse = _Reuse.make(base, graph)
            if reuse is not None:  # what the ramparts' links reuse too (move_ramparts)
                graph.memo(DERIVED_MEMO, 1)["reuse"] = reuse
            move_fill.prepare(graph)
            move_fill.check_size(graph)

        def fill(rows: NDArray[np.bool_]) -> None:
            if rows.sum() < 32:  # a few nodes' links: few objects
                move_fill.fill(graph, rows, reuse)
                return
            with paused_gc():
                move_fill.fill(graph, rows, reuse)

        object.__setattr__(graph, "_out", LazyOut(len(graph._keys), fill))
        return graph

    @classmethod
    def _skeleton(
        cls, kz: Killzone, base_mm: float, base: MoveGraph | None = None
    ) -> tuple[MoveGraph, _Builder]:
        """The levels and nodes of the graph (no links yet); with ``base`` (a graph of the
        same layout and base size), each level made of the same parts of the same layout as
        one of ``base``'s (:func:`_same_level`) is that level."""
        radius = base_mm / MM_PER_INCH / 2
        reff = radius + _GRID
        n_parts = len(kz.parts)
        passable = np.array([_passable(kz, i, base_mm) for i in range(n_parts)], dtype=bool)
        heights = kz.heights
        board_in = kz.board.buffer(-reff, join_style="mitre")
        board_tol = board_in.buffer(_TOL, join_style="mitre")
        shapely.prepare(board_tol)
        vantage = (
            kz.flags[TerrainType.VANTAGE] & ~kz.flags[TerrainType.INSIGNIFICANT] & (heights > 0)
        )
        old = _Shared.of(kz, base, vantage)
        levels: list[Level] = [
            _make_level(kz, 0, 0.0, (), kz.board, passable, board_in, reff, old),
        ]
        groups: dict[float, list[int]] = {}
        for i in np.nonzero(vantage)[0]:
            groups.setdefault(round(float(heights[i]), 6), []).append(int(i))
        comps: list[tuple[float, tuple[int, ...], BaseGeometry]] = []
        for h, idx in sorted(groups.items()):
            union = shapely.union_all([kz.parts[i].polygon for i in idx])
            for comp in shapely.get_parts(union):
                members = tuple(i for i in idx if kz.parts[i].polygon.intersects(comp))
                comps.append((h, members, comp))
        comps.sort(key=lambda c: (c[0], c[2].bounds))
        for h, members, comp in comps:
            levels.append(
                _make_level(kz, len(levels), h, members, comp, passable, board_in, reff, old)
            )
        blocks_floor = (~passable & (heights > 0)) | kz.flags[TerrainType.WALL]
        over_parts = (
            blocks_floor & ~kz.flags[TerrainType.WALL] & ~vantage & (heights <= CLIMB_MAX + 1e-9)
        )
        builder = _Builder(kz, radius, reff, levels, old)
        builder.add_nodes(over_parts)
        graph = cls(
            kz=kz,
            base_mm=float(base_mm),
            radius=radius,
            levels=tuple(levels),
            xy=builder.xy_array(),
            node_level=np.asarray(builder.levels_of, dtype=np.int64),
            out=[[] for _ in builder.nodes],
            near=(),
            over_parts=over_parts,
            over_near={},
            blocks_floor=blocks_floor,
            board_tol=board_tol,
            ladders=_ladders(kz),
            keys={key: k for k, key in enumerate(builder.nodes)},
        )
        return graph, builder


def _in_range(indices: NDArray[np.int64], n: int) -> bool:
    """Whether every index is in ``range(n)`` (no negative index: it would count from the
    end)."""
    return not indices.size or (int(indices.min()) >= 0 and int(indices.max()) < n)
