"""Terrain features added to a loaded killzone, as hashable values (rules ``rules/KT24.md``
7.2: the universal equipment's terrain joins the killzone before the battle, and a portable
barricade moves during it).

A :class:`FeatureSpec` (a name and its :class:`PartSpec` parts: polygon coordinates on the
0.001" grid, height in inches, terrain types) is an immutable value a game state can keep.
:meth:`engine.geometry.model.Killzone.with_terrain` turns a tuple of them into a
:class:`~engine.geometry.model.Killzone` whose parts are the layout's followed by theirs
(:func:`terrain_variant`); the values are memoised on the layout so that every cache the
geometry modules keep on a killzone (movement graphs, sight arrays) is built once per terrain
layout, and the on-disk movement graph cache keys on the content
(:func:`engine.geometry.graph_cache.layout_digest`), so it never mixes layouts up.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs
import shapely
from shapely.geometry import Polygon

from engine.geometry.model import (
    MAX_HEIGHT_INCHES,
    MIN_RING_AREA,
    Killzone,
    KillzoneError,
    TerrainPart,
    TerrainType,
    quantise,
)

__all__ = ["MAX_TERRAIN_VARIANTS", "FeatureSpec", "PartSpec", "terrain_variant"]

MAX_TERRAIN_VARIANTS = 32
"""How many added-terrain killzones a layout keeps (the most recently asked for): each holds
its movement graphs (a few MB), so a long batch of games does not keep them all."""


def _types(value: Iterable[TerrainType | str]) -> tuple[TerrainType, ...]:
    return tuple(sorted({TerrainType.parse(str(t)) for t in value}, key=lambda t: t.value))


def _ring(value: Iterable[Iterable[float]]) -> tuple[tuple[float, float], ...]:
    pts: list[tuple[float, float]] = []
    for pt in value:
        x, y = (float(c) for c in pt)
        pts.append((quantise(x), quantise(y)))
    if pts and pts[0] != pts[-1]:
        pts.append(pts[0])
    return tuple(pts)


def _parts(value: Iterable[PartSpec]) -> tuple[PartSpec, ...]:
    return tuple(value)


@attrs.frozen(slots=True, cache_hash=True)
class PartSpec:
    """One part of an added terrain feature, as a hashable value.

    Attributes:
        polygon: the footprint's ring, ``((x, y), ...)`` in inches on the 0.001" grid, closed
            (the first point repeated last; the converter closes an open ring and rounds).
        height: top of the part above the killzone floor (inches).
        types: its terrain types (names or :class:`TerrainType`; kept sorted by name).
    """

    polygon: tuple[tuple[float, float], ...] = attrs.field(converter=_ring)
    height: float = attrs.field(converter=quantise)
    types: tuple[TerrainType, ...] = attrs.field(converter=_types)

    def shape(self) -> Polygon:
        """The footprint as a shapely polygon (inches)."""
        return Polygon(self.polygon)


@attrs.frozen(slots=True, cache_hash=True)
class FeatureSpec:
    """An added terrain feature: its name (unique in the killzone) and its parts.

    Attributes:
        name: the feature's name, e.g. ``"A light barricade 1"``.
        parts: at least one :class:`PartSpec`.
        kind: what it is, for the game layer (e.g. ``"light_barricade"``; free text, not
            read by geometry).
    """

    name: str
    parts: tuple[PartSpec, ...] = attrs.field(converter=_parts)
    kind: str = ""

    def shape(self) -> shapely.geometry.base.BaseGeometry:
        """The union of the parts' footprints (inches)."""
        return shapely.union_all([p.shape() for p in self.parts])


def _check(root: Killzone, extra: tuple[FeatureSpec, ...]) -> None:
    names = set(root.features)
    for k, feat in enumerate(extra):
        if not isinstance(feat, FeatureSpec):
            raise KillzoneError(
                f"{root.source}: added terrain {k} must be a FeatureSpec, not {type(feat).__name__}"
            )
        where = f"{root.source}: added terrain feature {feat.name!r}"
        if not feat.name.strip():
            raise KillzoneError(f"{root.source}: added terrain {k} has an empty name")
        if feat.name in names:
            raise KillzoneError(f"{where}: the name is already a feature of the killzone")
        names.add(feat.name)
        if not feat.parts:
            raise KillzoneError(f"{where}: a feature needs at least one part")
        for pi, part in enumerate(feat.parts):
            if not isinstance(part, PartSpec):
                raise KillzoneError(f"{where} part {pi}: must be a PartSpec")
            if len(part.polygon) < 4:
                raise KillzoneError(f"{where} part {pi}: a ring needs at least 3 corners")
            poly = part.shape()
            if not poly.is_valid or poly.area < MIN_RING_AREA:
                raise KillzoneError(f"{where} part {pi}: the polygon is not valid")
            if not root.board.covers(poly):
                raise KillzoneError(f"{where} part {pi}: not wholly on the board")
            if not 0 <= part.height <= MAX_HEIGHT_INCHES:
                raise KillzoneError(
                    f"{where} part {pi}: height {part.height:g} is not 0 to "
                    f"{MAX_HEIGHT_INCHES:g} inches"
                )


def _build(root: Killzone, extra: tuple[FeatureSpec, ...]) -> Killzone:
    features = list(root.features)
    parts = list(root.parts)
    for feat in extra:
        fi = len(features)
        features.append(feat.name)
        for spec in feat.parts:
            parts.append(
                TerrainPart(fi, len(parts), spec.shape(), float(spec.height), frozenset(spec.types))
            )
    return attrs.evolve(
        root,
        features=tuple(features),
        parts=tuple(parts),
        hatch_root=None,
        terrain_root=root,
        extra_terrain=extra,
    )


def terrain_variant(root: Killzone, extra: tuple[FeatureSpec, ...]) -> Killzone:
    """``root`` (a layout as loaded, without added terrain) with the features ``extra``
    added, in ``root``'s hatchway state; ``root`` itself when ``extra`` is empty.

    Memoised on ``root`` by value (the :data:`MAX_TERRAIN_VARIANTS` most recent).
    :meth:`Killzone.with_terrain` is the public way in.

    Raises:
        KillzoneError: as :meth:`Killzone.with_terrain` says.
    """
    if root.terrain_root is not None or root.hatch_root is not None:
        raise ValueError("terrain_variant takes a layout as loaded (see Killzone.with_terrain)")
    if not extra:
        return root
    memo = root._terrain_variants
    found = memo.pop(extra, None)
    if found is None:
        _check(root, extra)
        found = _build(root, extra)
    memo[extra] = found  # most recent last
    while len(memo) > MAX_TERRAIN_VARIANTS:
        del memo[next(iter(memo))]
    return found
