"""Terrain features added to a loaded killzone, as hashable values (rules ``rules/KT24.md``
7.2: the universal equipment's terrain joins the killzone before the battle, and a portable
barricade moves during it).

A :class:`FeatureSpec` (a name and its :class:`PartSpec` parts: polygon coordinates on the
0.001" grid, height in inches, terrain types) is an immutable value a game state can keep;
so is an :class:`AccessibleSpec` (thin parts of a layout's feature made Accessible within an
area: a breach).
:meth:`engine.geometry.model.Killzone.with_terrain` turns a tuple of them into a
:class:`~engine.geometry.model.Killzone` whose parts are the layout's followed by theirs
(:func:`check_added`, :func:`added_parts`); the values are memoised on the layout so that
every cache the geometry modules keep on a killzone (movement graphs, sight arrays) is built
once per terrain layout, and the on-disk movement graph cache keys on the content
(:func:`engine.geometry.graph_cache.layout_digest`), so it never mixes layouts up.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs
import shapely
from shapely.geometry import Polygon

from engine.geometry.layout import MAX_HEIGHT_INCHES, MIN_RING_AREA
from engine.geometry.primitives import KillzoneError, TerrainPart, TerrainType, quantise

__all__ = [
    "MAX_TERRAIN_VARIANTS",
    "AccessibleSpec",
    "FeatureSpec",
    "PartSpec",
    "added_parts",
    "check_added",
    "part_thickness",
]

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


@attrs.frozen(slots=True, cache_hash=True)
class AccessibleSpec:
    """A change to a layout's own feature rather than an added one: where its parts no more
    than ``max_thickness`` inches thick (:func:`part_thickness`) lie within the area
    ``polygon`` (a ring as :class:`PartSpec`'s), they are Accessible terrain (a rule that
    lets operatives move through terrain there, e.g. a breach): each such part is split
    along the area, the piece inside keeping its types and gaining Accessible (a Wall piece
    becomes Heavy instead of Wall, since Wall is never passable), the rest unchanged.
    Hatchway parts are left as they are. Sight and cover read the same types as before
    (Accessible matters to movement only), except for a Wall piece; a rule that changes
    movement only gives it to the movement queries alone
    (:meth:`engine.game.work.Work.move_terrain`).

    Attributes:
        feature: the layout feature's name.
        polygon: the area's ring.
        max_thickness: the thickest part it changes (inches).
    """

    feature: str
    polygon: tuple[tuple[float, float], ...] = attrs.field(converter=_ring)
    max_thickness: float = 1.0

    def shape(self) -> Polygon:
        """The area as a shapely polygon (inches)."""
        return Polygon(self.polygon)


def part_thickness(polygon: Polygon) -> float:
    """How thick a part is: the shorter side of its minimum rotated rectangle (inches)."""
    rect = polygon.minimum_rotated_rectangle
    if not isinstance(rect, Polygon):
        return 0.0
    coords = list(rect.exterior.coords)
    if len(coords) < 4:
        return 0.0
    sides = [
        ((coords[i + 1][0] - coords[i][0]) ** 2 + (coords[i + 1][1] - coords[i][1]) ** 2) ** 0.5
        for i in range(2)
    ]
    return float(min(sides))


def check_added(
    source: str, features: Sequence[str], board: Polygon, extra: tuple[Any, ...]
) -> None:
    """Check the features ``extra`` (:class:`FeatureSpec` and :class:`AccessibleSpec` values)
    added to a layout loaded from ``source`` with the features ``features`` on ``board``.

    Raises:
        KillzoneError: as :meth:`engine.geometry.model.Killzone.with_terrain` says.
    """
    names = set(features)
    for k, feat in enumerate(extra):
        if isinstance(feat, AccessibleSpec):
            if feat.feature not in features:
                raise KillzoneError(f"{source}: no feature {feat.feature!r} to make Accessible")
            if len(feat.polygon) < 4 or not feat.shape().is_valid:
                raise KillzoneError(f"{source}: the Accessible area {k} is not valid")
            continue
        if not isinstance(feat, FeatureSpec):
            raise KillzoneError(
                f"{source}: added terrain {k} must be a FeatureSpec, not {type(feat).__name__}"
            )
        where = f"{source}: added terrain feature {feat.name!r}"
        if not feat.name.strip():
            raise KillzoneError(f"{source}: added terrain {k} has an empty name")
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
            if not board.covers(poly):
                raise KillzoneError(f"{where} part {pi}: not wholly on the board")
            if not 0 <= part.height <= MAX_HEIGHT_INCHES:
                raise KillzoneError(
                    f"{where} part {pi}: height {part.height:g} is not 0 to "
                    f"{MAX_HEIGHT_INCHES:g} inches"
                )


def _pieces(geom: shapely.geometry.base.BaseGeometry) -> list[Polygon]:
    """The polygons of ``geom`` that are worth a part (not slivers)."""
    polys = list(getattr(geom, "geoms", [geom]))
    return [p for p in polys if isinstance(p, Polygon) and p.area >= MIN_RING_AREA]


def _accessible(
    features: Sequence[str], parts: list[TerrainPart], spec: AccessibleSpec
) -> list[TerrainPart]:
    """``parts`` with the change ``spec`` applied (:class:`AccessibleSpec`), renumbered."""
    fi = list(features).index(spec.feature)
    area = spec.shape()
    out: list[TerrainPart] = []

    def add(part: TerrainPart, poly: Polygon, types: frozenset[TerrainType]) -> None:
        out.append(
            TerrainPart(
                part.feature,
                len(out),
                poly,
                part.height,
                types,
                part.open_types,
                part.stairs,
                part.kt18_terrain,
            )
        )

    for part in parts:
        poly = part.polygon
        if (
            part.feature != fi
            or part.open_types is not None
            or part_thickness(poly) > spec.max_thickness + 1e-6
            or not poly.intersects(area)
        ):
            add(part, poly, part.types)
            continue
        inside = _pieces(poly.intersection(area))
        if not inside:
            add(part, poly, part.types)
            continue
        for piece in _pieces(poly.difference(area)):
            add(part, piece, part.types)
        types = set(part.types) | {TerrainType.ACCESSIBLE}
        if TerrainType.WALL in types:
            types = (types - {TerrainType.WALL}) | {TerrainType.HEAVY}
        for piece in inside:
            add(part, piece, frozenset(types))
    return out


def added_parts(
    features: tuple[str, ...], parts: tuple[TerrainPart, ...], extra: tuple[Any, ...]
) -> tuple[tuple[str, ...], tuple[TerrainPart, ...]]:
    """A layout's ``features`` and ``parts`` with ``extra`` applied (checked by
    :func:`check_added`): each :class:`AccessibleSpec` changes the layout's parts, then each
    :class:`FeatureSpec` adds a feature whose parts come after the others."""
    names = list(features)
    out = list(parts)
    for change in extra:
        if isinstance(change, AccessibleSpec):
            out = _accessible(features, out, change)
    for feat in extra:
        if isinstance(feat, AccessibleSpec):
            continue
        fi = len(names)
        names.append(feat.name)
        for spec in feat.parts:
            out.append(
                TerrainPart(fi, len(out), spec.shape(), float(spec.height), frozenset(spec.types))
            )
    return tuple(names), tuple(out)
