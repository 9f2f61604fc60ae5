"""The movement graph: the graph build and its caches.

The model is described in :mod:`engine.geometry.movement` (rules ``rules/KT24.md`` 3.3, 4.6,
4.7, 9.3). This module builds, per killzone hatchway state and base size, the graph of
straight increments (:mod:`engine.geometry.move_links`) that the path search
(:mod:`engine.geometry.move_paths`) runs on.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any, cast

import attrs
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from engine.geometry import graph_cache, move_fill
from engine.geometry.gc_pause import paused_gc
from engine.geometry.model import MM_PER_INCH, Killzone, TerrainType, quantise
from engine.geometry.move_derive import _Reuse
from engine.geometry.move_fill import LazyOut
from engine.geometry.move_links import (
    _GRID,
    _MITRE_LIMIT,
    _PORTAL_GAP,
    _PORTAL_INSET,
    _PORTAL_SPACING,
    _SOLID_INSET,
    _TOL,
    CLIMB_MAX,
    LADDER_TOUCH,
    XY,
    FloatArray,
    Level,
    LinkClassifier,
    _bevel_buffer,
    _Link,
    _passable,
)


def _reflex_vertices(region: BaseGeometry) -> list[XY]:
    """Corners of ``region`` where its interior angle exceeds 180 degrees (the nodes of a
    visibility graph)."""
    out: list[XY] = []
    for poly in shapely.get_parts(shapely.orient_polygons(region)):
        if not isinstance(poly, Polygon):
            continue
        for ring in (poly.exterior, *poly.interiors):
            c = np.asarray(ring.coords)[:-1]
            if len(c) < 3:
                continue
            prev = np.roll(c, 1, axis=0)
            nxt = np.roll(c, -1, axis=0)
            e0 = c - prev
            e1 = nxt - c
            cross = e0[:, 0] * e1[:, 1] - e0[:, 1] * e1[:, 0]
            for k in np.nonzero(cross < -1e-12)[0]:
                out.append((float(c[k, 0]), float(c[k, 1])))
    return out


def _portals(poly: BaseGeometry) -> list[tuple[XY, XY]]:
    """Points every inch (at most) around the exterior of ``poly`` with their outward unit
    normals."""
    out: list[tuple[XY, XY]] = []
    for part in shapely.get_parts(shapely.orient_polygons(poly)):
        if not isinstance(part, Polygon):
            continue
        c = np.asarray(part.exterior.coords)[:-1]
        n = len(c)
        edges = np.roll(c, -1, axis=0) - c
        lengths = np.hypot(edges[:, 0], edges[:, 1])
        # CCW exterior: the outward normal of edge (dx, dy) is (dy, -dx).
        normals = (
            np.stack([edges[:, 1], -edges[:, 0]], axis=1) / np.maximum(lengths, 1e-12)[:, None]
        )
        for k in range(n):
            if lengths[k] <= 1e-9:
                continue
            bis = normals[k] + normals[k - 1]
            norm = math.hypot(bis[0], bis[1])
            if norm > 1e-9:
                out.append(((float(c[k, 0]), float(c[k, 1])), (bis[0] / norm, bis[1] / norm)))
            steps = max(1, math.ceil(lengths[k] / _PORTAL_SPACING - 1e-9))
            for s in range(1, steps):
                p = c[k] + edges[k] * (s / steps)
                out.append(((float(p[0]), float(p[1])), (normals[k][0], normals[k][1])))
    return out


# -------------------------------------------------------------------------------------------
# The move graph
# -------------------------------------------------------------------------------------------

#: The kinds of links, by their index in the stored tables (:meth:`MoveGraph.tables`).
LINK_KINDS = ("move", "over", "climb", "drop", "jump")


@attrs.frozen(slots=True, eq=False)
class MoveGraph(LinkClassifier):
    """The movement graph of one killzone (in its hatchway state) for one base size.

    Build it with :meth:`build`, derive it from another hatchway state's graph with
    :meth:`derive`, or get the cached one with :func:`move_graph`.

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
    #: The links climbing over each low part (its index), in the order they were added.
    _over_by_part: dict[int, list[tuple[int, int]]] = attrs.field(factory=dict, repr=False)
    #: Parts' polygons grown for the levels and nodes, by (kind, part index), for the graphs
    #: derived from this one (:class:`_Shared`).
    _part_buffers: dict[tuple[str, int], Any] = attrs.field(factory=dict, repr=False)

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

        The result is the graph :meth:`build` would give (the same nodes in the same order,
        the same links in the same order). The levels and nodes are rebuilt (a few ms; the
        levels made of the same shared parts as ``base``'s are ``base``'s, and the grown
        polygons and node candidates of shared parts are remembered on ``base``). Each
        node's outgoing links are computed when first asked for (:class:`LazyOut`,
        :mod:`engine.geometry.move_fill`): most queries settle on the straight line and a
        path search expands few nodes, so a battle computes a few dozen nodes' links, not
        all of them. For those, only the links whose centre line passes near a hatchway
        whose state differs (within 1.5 base radii + 0.05", the reach of a state change into
        the levels' regions) or that end on a node ``base`` does not have are computed
        again; every other link is ``base``'s. Terrain added to the layout
        (:meth:`Killzone.with_terrain`, 7.2) is handled the same way: the parts after those
        both killzones share are changed parts (a ladder's reach is its control range: the
        links it may help keep their geometry and get their ladder flag again). When
        terrain was only added, two nodes ``base`` has without a ``move``, ``climb``,
        ``drop`` or ``jump`` link between them get none (the regions only lost ground), so
        only the pairs with a new node and those ``base`` linked are looked at; kept links
        over low parts are taken part by part from ``base``'s record of them. Eight small
        items on the open ruins: ~7 ms, and ~160 ms to compute every link (a full build
        ~540 ms, ``benchmarks/geometry_movement.py``). A ``base`` whose links are filled
        lazily is completed first. Falls back to computing every link afresh (still on first
        use) when ``kz`` is not a hatchway state or an added-terrain value of ``base``'s
        layout or a changed part is Vantage terrain (the levels would differ).

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

    @property
    def links_complete(self) -> bool:
        """Whether every node's links are computed (always so for a built graph)."""
        return not isinstance(self._out, LazyOut) or self._out.is_complete()

    def complete(self) -> None:
        """Compute every link not computed yet (a derived graph computes each node's links
        on first use, :mod:`engine.geometry.move_fill`); a no-op on a built graph."""
        if isinstance(self._out, LazyOut):
            self._out.complete()
            for pairs in self._over_by_part.values():
                pairs.sort()

    # ---------------------------------------------------------------------------------------
    # Small helpers
    # ---------------------------------------------------------------------------------------

    def _xy(self, node: int) -> XY:
        return (float(self.xy[node, 0]), float(self.xy[node, 1]))


def _in_range(indices: NDArray[np.int64], n: int) -> bool:
    """Whether every index is in ``range(n)`` (no negative index: it would count from the
    end)."""
    return not indices.size or (int(indices.min()) >= 0 and int(indices.max()) < n)


def _ladders(kz: Killzone) -> tuple[tuple[int, frozenset[int]], ...]:
    """Each Ladder part (7.2) with the features it stands against: those of the other
    non-Ladder parts its footprint is within :data:`LADDER_TOUCH` of."""
    out: list[tuple[int, frozenset[int]]] = []
    ladder = kz.flags[TerrainType.LADDER]
    for i in np.flatnonzero(ladder).tolist():
        near = kz.parts_near(kz.parts[i].polygon, LADDER_TOUCH)
        against = frozenset(kz.parts[int(j)].feature for j in near if not ladder[int(j)])
        out.append((i, against - {kz.parts[i].feature}))
    return tuple(out)


def _make_level(
    kz: Killzone,
    index: int,
    height: float,
    parts: tuple[int, ...],
    footprint: BaseGeometry,
    passable: NDArray[np.bool_],
    board_in: BaseGeometry,
    reff: float,
    old: _Shared | None = None,
) -> Level:
    """One level: its strict and passage regions (module docstring); ``old``'s level of
    the same index when it is made of the same parts (:meth:`_Shared.level`)."""
    member = set(parts)
    near = kz.parts_near(footprint, reff + _TOL) if parts else np.arange(len(kz.parts))
    wall = kz.flags[TerrainType.WALL]
    blockers = tuple(
        int(i)
        for i in near
        if int(i) not in member
        and not passable[i]
        and (kz.heights[i] > height + 1e-6 or (not parts and wall[i]))
    )
    accessible = tuple(
        int(i)
        for i in near
        if int(i) not in member
        and kz.flags[TerrainType.ACCESSIBLE][i]
        and not kz.flags[TerrainType.WALL][i]
        and kz.heights[i] > height + 1e-6
    )
    if old is not None:
        same = old.level(index, float(height), parts, blockers, accessible)
        if same is not None:
            return same
    base_region = footprint.intersection(board_in) if parts else board_in

    def make(kind: str, i: int) -> BaseGeometry:
        poly = kz.parts[i].polygon
        if kind == "bevel":
            return _bevel_buffer(poly, reff)
        if kind == "band":
            return poly.buffer(reff)
        return poly.buffer(-_SOLID_INSET, join_style="mitre")

    grown = make if old is None else old.buffers(make)
    if blockers:
        strict = base_region.difference(shapely.union_all([grown("bevel", i) for i in blockers]))
    else:
        strict = base_region
    passage = strict
    if accessible:
        band = shapely.union_all([grown("band", i) for i in accessible])
        band = band.intersection(base_region)
        if blockers:
            band = band.difference(shapely.union_all([kz.parts[i].polygon for i in blockers]))
        passage = shapely.union_all([strict, band])
    strict_tol = strict.buffer(_TOL, join_style="mitre")
    passage_tol = passage.buffer(_TOL, join_style="mitre")
    footprint_tol = footprint.buffer(_TOL, join_style="mitre")
    solid = shapely.union_all([grown("solid", i) for i in blockers])
    for geom in (strict_tol, passage_tol, footprint_tol, solid):
        shapely.prepare(geom)
    return Level(
        index=index,
        height=float(height),
        parts=parts,
        footprint=footprint,
        strict=strict,
        passage=passage,
        blockers=blockers,
        accessible=accessible,
        strict_tol=strict_tol,
        passage_tol=passage_tol,
        footprint_tol=footprint_tol,
        solid=solid,
    )


def _covered(region: BaseGeometry, points: list[tuple[float, float]]) -> list[bool]:
    """Whether ``region`` covers each point (inches), in one vectorised call."""
    if not points:
        return []
    pts = shapely.points(np.asarray(points, dtype=float))
    return cast(list[bool], np.asarray(shapely.covers(region, pts), dtype=bool).tolist())


@attrs.frozen(slots=True)
class _Shared:
    """What a graph being built shares with ``base``, a graph of the same layout and base
    size (:meth:`MoveGraph.derive`): ``shared``, the number of leading parts both killzones
    have (the same objects), given both have the same board and the same Vantage parts
    (all shared), so that the vantage levels' footprints are the same unions."""

    base: MoveGraph
    shared: int

    @classmethod
    def of(cls, kz: Killzone, base: MoveGraph | None, vantage: NDArray[np.bool_]) -> _Shared | None:
        if base is None or not kz.board.equals_exact(base.kz.board, 0.0):
            return None
        shared = 0
        for p, q in zip(kz.parts, base.kz.parts, strict=False):
            if p is not q:
                break
            shared += 1
        base_vantage = sorted(i for lvl in base.levels for i in lvl.parts)
        if np.flatnonzero(vantage).tolist() != base_vantage or any(
            i >= shared for i in base_vantage
        ):
            return None
        return cls(base, shared)

    def level(
        self,
        index: int,
        height: float,
        parts: tuple[int, ...],
        blockers: tuple[int, ...],
        accessible: tuple[int, ...],
    ) -> Level | None:
        """``base``'s level ``index`` when it has the same height, parts, blockers and
        Accessible parts, all shared: every region of a level is made of those polygons
        alone (:func:`_make_level`), so the level is the same."""
        if index >= len(self.base.levels):
            return None
        lvl = self.base.levels[index]
        if (lvl.height, lvl.parts, lvl.blockers, lvl.accessible) != (
            height,
            parts,
            blockers,
            accessible,
        ):
            return None
        if max((*parts, *blockers, *accessible), default=-1) >= self.shared:
            return None
        return lvl

    def buffers(
        self, make: Callable[[str, int], BaseGeometry]
    ) -> Callable[[str, int], BaseGeometry]:
        """``make`` (a part's polygon grown some way, by kind and part index) remembered on
        ``base`` for the shared parts: the same polygon grown the same way (the base size is
        the same) is the same geometry."""
        cache = self.base._part_buffers
        shared = self.shared

        def grown(kind: str, i: int) -> BaseGeometry:
            if i >= shared:
                return make(kind, i)
            geom = cache.get((kind, i))
            if geom is None:
                geom = cache[(kind, i)] = make(kind, i)
            return geom

        return grown


class _Builder:
    """Collects the nodes of a :class:`MoveGraph` (reflex corners and portals)."""

    def __init__(
        self,
        kz: Killzone,
        radius: float,
        reff: float,
        levels: list[Level],
        old: _Shared | None = None,
    ) -> None:
        self.kz = kz
        self.old = old
        self.radius = radius
        self.reff = reff
        self.levels = levels
        self.nodes: list[tuple[int, float, float]] = []
        self.levels_of: list[int] = []
        self._seen: set[tuple[int, float, float]] = set()

    def add(self, level: int, x: float, y: float) -> None:
        """Add the node ``(x, y)`` (inches, on the 0.001" grid: :func:`quantise`d) on the
        level ``level`` unless it is there already."""
        key = (level, x, y)
        if key in self._seen:
            return
        self._seen.add(key)
        self.nodes.append(key)
        self.levels_of.append(level)

    def xy_array(self) -> FloatArray:
        if not self.nodes:
            return np.zeros((0, 2))
        return np.asarray([(x, y) for _, x, y in self.nodes], dtype=float)

    def add_nodes(self, over_parts: NDArray[np.bool_]) -> None:
        # Each point test is one vectorised call over a level's candidates (the same GEOS
        # predicate on the same points as one by one); the nodes are added in the same order.
        # The candidates of a level or part shared with the base graph (:class:`_Shared`)
        # are remembered there: the same polygon gives the same points.
        old = self.old
        outward = self.reff + _PORTAL_GAP

        def memo(key: tuple[str, int], shared: bool, make: Callable[[], Any]) -> Any:
            if old is None or not shared:
                return make()
            cache = old.base._part_buffers
            got = cache.get(key)
            if got is None:
                got = cache[key] = make()
            return got

        def same_level(lvl: Level) -> bool:
            levels = old.base.levels if old is not None else ()
            return lvl.index < len(levels) and levels[lvl.index] is lvl

        def reflex_points(lvl: Level) -> list[XY]:
            return [(quantise(x), quantise(y)) for x, y in _reflex_vertices(lvl.passage)]

        def mitre_points(i: int) -> list[XY]:
            grown = self.kz.parts[i].polygon.buffer(
                self.reff + _GRID, join_style="mitre", mitre_limit=_MITRE_LIMIT
            )
            return [
                (quantise(float(x)), quantise(float(y)))
                for x, y in np.asarray(grown.exterior.coords)[:-1]
            ]

        def level_portals(lvl: Level) -> tuple[list[XY], list[XY]]:
            inner: list[XY] = []
            outer: list[XY] = []
            for (px, py), (nx_, ny_) in _portals(lvl.footprint):
                inner.append(
                    (quantise(px - nx_ * _PORTAL_INSET), quantise(py - ny_ * _PORTAL_INSET))
                )
                outer.append((quantise(px + nx_ * outward), quantise(py + ny_ * outward)))
            return inner, outer

        def part_portals(part: int) -> list[XY]:
            return [
                (quantise(px + nx_ * outward), quantise(py + ny_ * outward))
                for (px, py), (nx_, ny_) in _portals(self.kz.parts[part].polygon)
            ]

        shared = old.shared if old is not None else 0
        for lvl in self.levels:
            corners: list[XY] = memo(
                ("reflex", lvl.index), same_level(lvl), functools.partial(reflex_points, lvl)
            )
            for (x, y), ok in zip(corners, _covered(lvl.passage_tol, corners), strict=True):
                if ok:
                    self.add(lvl.index, x, y)
            # Mitre points of obstacle corners: turning a corner there takes one bend (one
            # rounded increment fewer than the two corners of the bevel).
            mitres: list[XY] = []
            for i in lvl.blockers:
                mitres += memo(("mitre", i), i < shared, functools.partial(mitre_points, i))
            if mitres:
                xy = np.asarray(mitres, dtype=float)
                hits = shapely.intersects_xy(lvl.strict_tol, xy[:, 0], xy[:, 1]).tolist()
                for (x, y), ok in zip(mitres, hits, strict=True):
                    if ok:
                        self.add(lvl.index, x, y)
        for lvl in self.levels[1:]:
            inner, outer = memo(
                ("portals", lvl.index), same_level(lvl), functools.partial(level_portals, lvl)
            )
            inside = _covered(lvl.strict_tol, inner)
            below = self._levels_below(outer, lvl.height)
            for (ix, iy), ok, (ox, oy), li in zip(inner, inside, outer, below, strict=True):
                if ok:
                    self.add(lvl.index, ix, iy)
                if li >= 0:
                    self.add(li, ox, oy)
        floor_tol = self.levels[0].strict_tol
        for part in np.nonzero(over_parts)[0].tolist():
            around: list[XY] = memo(
                ("around", part), part < shared, functools.partial(part_portals, part)
            )
            for (ox, oy), ok in zip(around, _covered(floor_tol, around), strict=True):
                if ok:
                    self.add(0, ox, oy)

    def _levels_below(self, points: list[tuple[float, float]], height: float) -> list[int]:
        """For each point, the highest level below ``height`` where a base can stand there
        (its strict region covers it), or -1: what :meth:`_add_below` picks."""
        found = np.full(len(points), -1, dtype=np.int64)
        if not points:
            return []
        pts = cast(NDArray[np.object_], shapely.points(np.asarray(points, dtype=float)))
        for lvl in sorted(self.levels, key=lambda lv: -lv.height):
            if lvl.height >= height - 1e-6:
                continue
            open_ = np.flatnonzero(found < 0)
            if not open_.size:
                break
            hit = np.asarray(shapely.covers(lvl.strict_tol, pts[open_]), dtype=bool)
            found[open_[hit]] = lvl.index
        return [int(v) for v in found.tolist()]


_GRAPHS_KEY = "movement.graphs"


def move_graph(kz: Killzone, base_mm: float) -> MoveGraph:
    """The :class:`MoveGraph` of ``kz`` (in its hatchway state) for bases of ``base_mm`` mm,
    built on first use and cached on the killzone value (its private ``_cache``).

    A hatchway state made by :meth:`Killzone.with_open_hatchways` (section 9.3) gets its graph
    derived (:meth:`MoveGraph.derive`) from the cached graph of the state nearest to it (the
    fewest hatchways toggled; the layout as built, whose graph is built first if needed):
    the same graph as a full build, in a fraction of the time when one hatchway differs.
    A killzone with added terrain (:meth:`Killzone.with_terrain`, 7.2) gets its graph derived
    from the layout's in the same way (only the links near the added features are computed).
    Derived graphs compute each node's links on first use (:mod:`engine.geometry.move_fill`);
    a graph derived from one of them fills it first, so a hatchway state of a killzone with
    added terrain prefers a complete graph (the layout's states') to derive from.
    """
    per_kz: dict[float, MoveGraph] = kz._cache.setdefault(_GRAPHS_KEY, {})
    key = float(base_mm)
    graph = per_kz.get(key)
    if graph is None:
        root = kz.hatch_root
        if root is None and kz.terrain_root is not None:
            # Terrain added to a layout (7.2): derived from the layout's graph.
            graph = MoveGraph.derive(move_graph(kz.terrain_root, key), kz)
        elif root is not None and root is not kz:
            # With added terrain, the layout's own states are candidates too: their graphs
            # are complete (deriving from a graph whose links are filled lazily fills them
            # all first).
            layout = root.terrain_root
            family = [root, *root._variants.values()]
            if layout is not None:
                family += [layout, *layout._variants.values()]
            base: MoveGraph | None = None
            best = (True, len(kz.hatchways) + 1, True)
            for other in family:
                cached = other._cache.get(_GRAPHS_KEY, {}).get(key)
                if cached is None or other is kz:
                    continue
                rank = (
                    not cached.links_complete,
                    len(other.open_hatchways ^ kz.open_hatchways),
                    other.terrain_root is not layout,  # the same terrain first
                )
                if rank < best:
                    base, best = cached, rank
            if base is None:
                base = move_graph(layout if layout is not None else root, key)
            graph = MoveGraph.derive(base, kz)
        else:
            graph = _load_or_build(kz, key)
        per_kz[key] = graph
    return graph


def _load_or_build(kz: Killzone, base_mm: float) -> MoveGraph:
    """The graph from the disk cache (:mod:`engine.geometry.graph_cache`, keyed by the
    layout's content and this code), else built and stored there."""
    cached = graph_cache.load(kz, base_mm)
    if cached is not None:
        return cached
    graph = MoveGraph.build(kz, base_mm)
    graph_cache.store(kz, base_mm, graph)
    return graph
