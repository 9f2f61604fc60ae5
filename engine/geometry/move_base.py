"""The movement graph as its builders see it (rules ``rules/KT24.md`` 3.3, 4.6, 4.7, 7.2,
9.3): :class:`GraphBase`, the attributes and caches of a
:class:`~engine.geometry.move_graph.MoveGraph` that the link filling
(:mod:`engine.geometry.move_fill`), the derivation from another graph
(:mod:`engine.geometry.move_derive`) and the levels and nodes
(:mod:`engine.geometry.move_levels`) read, and :class:`LazyOut`, the outgoing links of each
node filled on first use. The graph itself subclasses :class:`GraphBase`, so these modules
never import the graph's module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, SupportsIndex, cast, overload

import numpy as np
from numpy.typing import NDArray

from engine.geometry.move_links import LinkClassifier
from engine.geometry.move_values import XY, FloatArray, _Link

__all__ = ["GraphBase", "LazyOut", "OutLink"]

#: One outgoing link of a node: (the other node, the A* weight, the link).
OutLink = tuple[int, float, _Link]


class LazyOut(list[list[OutLink]]):
    """The outgoing links of each node (a list indexed by node), each node's filled on first
    access by ``fill`` (called with a boolean mask (N,) of the nodes to fill); iterating,
    comparing, pickling or :meth:`complete` fills every node left."""

    __slots__ = ("_fill", "_left")

    def __init__(self, n: int, fill: Callable[[NDArray[np.bool_]], None]) -> None:
        super().__init__(cast(list[list[OutLink]], [None] * n))
        self._fill: Callable[[NDArray[np.bool_]], None] | None = fill
        self._left = n

    @overload
    def __getitem__(self, u: SupportsIndex) -> list[OutLink]: ...
    @overload
    def __getitem__(self, u: slice) -> list[list[OutLink]]: ...
    def __getitem__(self, u: SupportsIndex | slice) -> list[OutLink] | list[list[OutLink]]:
        if isinstance(u, slice):
            self.complete()
            return list.__getitem__(self, u)
        row = list.__getitem__(self, u)
        if row is None:
            mask = np.zeros(len(self), dtype=bool)
            mask[u] = True
            self._run(mask)
            row = list.__getitem__(self, u)
        return row

    def __iter__(self) -> Iterator[list[OutLink]]:
        self.complete()
        return list.__iter__(self)

    def __eq__(self, other: object) -> bool:
        self.complete()
        return list.__eq__(self, other)

    __hash__ = None  # a list

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Any, ...]:
        self.complete()
        return (list, (list(list.__iter__(self)),))

    def is_complete(self) -> bool:
        """Whether every node's links are filled."""
        return self._left == 0

    def complete(self) -> None:
        """Fill every node not filled yet."""
        if self._left:
            mask = np.fromiter((r is None for r in list.__iter__(self)), dtype=bool)
            self._run(mask)

    def _run(self, mask: NDArray[np.bool_]) -> None:
        fill = self._fill
        assert fill is not None
        for u in np.flatnonzero(mask).tolist():
            list.__setitem__(self, u, [])
        self._left -= int(mask.sum())
        fill(mask)
        if not self._left:
            self._fill = None  # drop the graph this one is derived from


class GraphBase(LinkClassifier):
    """The attributes of :class:`~engine.geometry.move_graph.MoveGraph` (an attrs class that
    subclasses this one and defines them) that the graph's builders read: this base class
    declares them, with the few methods that need no more (the link classifier's own are
    :class:`~engine.geometry.move_links.LinkClassifier`'s)."""

    __slots__ = ()

    base_mm: float
    xy: FloatArray
    node_level: NDArray[np.int64]
    _out: list[list[OutLink]]
    _near: tuple[NDArray[np.int64], ...]
    _over_parts: NDArray[np.bool_]
    _over_near: dict[int, NDArray[np.int64]]
    _keys: dict[tuple[int, float, float], int]
    _xy_list: list[XY]
    _lvl_list: list[int]
    _fp_dist: FloatArray
    _links: dict[tuple[int, int], _Link]
    _move_index: list[tuple[NDArray[np.int64], list[_Link], NDArray[np.int64]]]
    _over_by_part: dict[int, list[tuple[int, int]]]
    _part_buffers: dict[tuple[str, int], Any]

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

    def _xy(self, node: int) -> XY:
        return (float(self.xy[node, 0]), float(self.xy[node, 1]))
