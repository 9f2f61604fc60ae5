"""The killzone model: board, terrain features made of typed parts, areas, markers, bases.

All lengths are in inches (x to the right, y up, z up); base sizes are in millimetres as on
the datacard. Rules: ``rules/KT24.md`` sections 3.3, 4 and 9 (terrain types 4.6, Vantage 4.7,
close quarters 9.3); the project's decisions 10 and 11.

A :class:`Killzone` is immutable: its mappings are read-only and its numpy arrays not
writeable (it is shared by every state of a battle). It is built once from data
(:meth:`Killzone.from_dict`, :func:`load_killzone`) together with its spatial index (a
shapely ``STRtree`` over the part footprints, prepared geometries and numpy arrays of
heights and types), which every query of :mod:`engine.geometry` reuses. Hatchways have an
open and a closed state; :meth:`Killzone.with_open_hatchways` gives the same killzone with
other hatchways open (the part polygons are shared; the index and type flags are rebuilt for
the new value, about 0.07 ms for close_quarters). Hatchway states are memoised: asking twice
for the same set of open hatchways returns the same :class:`Killzone` object, so whatever
the geometry modules derive from it and keep in its private cache (movement graphs, sight
arrays) is built once per state; the movement graph of a state is derived from the loaded
layout's graph (:meth:`engine.geometry.movement.MoveGraph.derive`).

A killzone with any Wall part uses the close quarters rules (section 9.3,
:attr:`Killzone.close_quarters`): distances around walls
(:func:`engine.geometry.sight.distance_around_walls`), and only the ends and corners of walls
intervene for cover and obscured (:mod:`engine.geometry.sight`).
"""

from __future__ import annotations

import importlib.resources
import math
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import Any

import attrs
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Point, Polygon
from shapely.strtree import STRtree

from engine.errors import KillTeamError
from engine.inputs import check_tree, excerpt, file_kind, read_document, shown
from engine.names import KILLZONE_FILE_SUFFIXES, check_builtin_name, is_file_ref

__all__ = [
    "DEFAULT_MODEL_HEIGHT",
    "MARKER_DIAMETER_MM",
    "MAX_AREAS",
    "MAX_BOARD_INCHES",
    "MAX_FEATURES",
    "MAX_HEIGHT_INCHES",
    "MAX_LAYOUT_PERIMETER",
    "MAX_LAYOUT_POINTS",
    "MAX_NAME_CHARS",
    "MAX_OBJECTIVES",
    "MAX_PARTS",
    "MAX_POLYGON_POINTS",
    "MIN_RING_AREA",
    "MM_PER_INCH",
    "OBJECTIVE_DIAMETER_MM",
    "QUANTUM",
    "Killzone",
    "KillzoneError",
    "Objective",
    "Placement",
    "TerrainPart",
    "TerrainType",
    "load_killzone",
    "quantise",
    "shipped_killzones",
]

MM_PER_INCH = 25.4
#: Positions are quantised to 0.001" so that equality and hashing are exact (DESIGN.md).
QUANTUM = 0.001
#: Height of a model above its base (inches) when a datacard gives none: a 28 mm-scale
#: infantry model's head is about 1.25" above the top of its base.
DEFAULT_MODEL_HEIGHT = 1.25
#: Objective markers are 40 mm across; other markers 20 mm (section 4.8).
OBJECTIVE_DIAMETER_MM = 40.0
MARKER_DIAMETER_MM = 20.0
"""Markers other than objective markers are 20 mm across (4.8), e.g. equipment markers."""


class KillzoneError(KillTeamError, ValueError):
    """A killzone layout is invalid; the message names the file, the feature and the field."""


class TerrainType(StrEnum):
    """KT24 terrain types (section 4.6; Wall from close quarters, section 9.3; Obstructing,
    Protective and Portable from the universal equipment, section 7.2).

    ``Ladder`` is the project's type for the Ladders equipment (7.2): an Insignificant +
    Exposed part that makes a climb of the feature it stands against count 1" vertically
    (:mod:`engine.geometry.move_links`). Protective and Portable are carried for the game
    layer (their effects are rules of the attack sequences, not of geometry).
    """

    HEAVY = "Heavy"
    LIGHT = "Light"
    BLOCKING = "Blocking"
    VANTAGE = "Vantage"
    ACCESSIBLE = "Accessible"
    INSIGNIFICANT = "Insignificant"
    EXPOSED = "Exposed"
    WALL = "Wall"
    CEILING = "Ceiling"
    OBSTRUCTING = "Obstructing"
    PROTECTIVE = "Protective"
    PORTABLE = "Portable"
    LADDER = "Ladder"

    @classmethod
    def parse(cls, text: str) -> TerrainType:
        """The type named ``text`` (case-insensitive).

        Raises:
            ValueError: for an unknown name (the loader turns it into a KillzoneError).
        """
        for member in cls:
            if member.value.lower() == str(text).strip().lower():
                return member
        known = ", ".join(m.value for m in cls)
        raise ValueError(f"unknown terrain type {text!r} (known: {known})")


def quantise(value: float) -> float:
    """Round a length in inches to the 0.001" grid (exact equality and hashing)."""
    return round(round(value / QUANTUM) * QUANTUM, 3)


@attrs.frozen(slots=True)
class TerrainPart:
    """One part of a terrain feature.

    Attributes:
        feature: index of its feature in :attr:`Killzone.features`.
        index: index of this part in :attr:`Killzone.parts`.
        polygon: footprint (inches), a valid shapely polygon.
        height: top of the part above the killzone floor (inches, >= 0). For Vantage parts,
            the level an operative stands on.
        types: the part's terrain types (closed state for a hatchway part).
        open_types: for a hatchway part, its types when the hatchway is open; else ``None``.
    """

    feature: int
    index: int
    polygon: Polygon = attrs.field(eq=False)
    height: float
    types: frozenset[TerrainType]
    open_types: frozenset[TerrainType] | None = None

    def types_when(self, open_: bool) -> frozenset[TerrainType]:
        """The part's types with its hatchway open (``True``) or closed."""
        if open_ and self.open_types is not None:
            return self.open_types
        return self.types


@attrs.frozen(slots=True)
class Objective:
    """An objective marker: a 40 mm marker whose centre is ``position`` (inches)."""

    name: str
    position: tuple[float, float]

    @property
    def radius(self) -> float:
        """Radius in inches."""
        return OBJECTIVE_DIAMETER_MM / MM_PER_INCH / 2


@attrs.frozen(slots=True, cache_hash=True)
class Placement:
    """Where an operative is: the inputs of every geometry query.

    Attributes:
        x, y: centre of the base (inches, quantised to 0.001").
        base_mm: base diameter in millimetres (e.g. 32, 40, 50).
        elevation: height of the base above the floor (inches): 0 on the killzone floor,
            else the height of the Vantage part it stands on.
        model_height: height of the model's head above its base (inches).
    """

    x: float = attrs.field(converter=quantise)
    y: float = attrs.field(converter=quantise)
    base_mm: float = 32.0
    elevation: float = attrs.field(default=0.0, converter=quantise)
    model_height: float = DEFAULT_MODEL_HEIGHT

    @property
    def radius(self) -> float:
        """Base radius in inches."""
        return self.base_mm / MM_PER_INCH / 2

    @property
    def head(self) -> tuple[float, float, float]:
        """The point sight lines are drawn from (centre of the base, top of the model)."""
        return (self.x, self.y, self.elevation + self.model_height)

    def moved(self, x: float, y: float, elevation: float | None = None) -> Placement:
        """The same operative at another position (and elevation)."""
        return attrs.evolve(
            self, x=x, y=y, elevation=self.elevation if elevation is None else elevation
        )

    def footprint(self) -> Polygon:
        """The base as a shapely polygon (inches)."""
        return Point(self.x, self.y).buffer(self.radius, quad_segs=16)


def _bool_array(
    parts: Sequence[TerrainPart], kind: TerrainType, open_: Iterable[bool]
) -> NDArray[np.bool_]:
    return np.array(
        [kind in p.types_when(o) for p, o in zip(parts, open_, strict=True)], dtype=bool
    )


def _read_only_array(array: NDArray[Any]) -> NDArray[Any]:
    array.flags.writeable = False
    return array


@attrs.frozen(slots=True, eq=False)
class Killzone:
    """A killzone layout with its spatial index.

    Attributes:
        name, version: identify the layout (``version`` is recorded in game records).
        width, depth: board size in inches (x from 0 to width, y from 0 to depth).
        features: feature names, in file order.
        parts: every terrain part, feature by feature.
        hatchways: names of the features that are hatchways (open/closed).
        open_hatchways: the hatchways open in this killzone value.
        drop_zones, territories: player ("A"/"B") -> area polygon.
        objectives: the objective markers.
        source: where it was loaded from (for messages).
        hatch_root: for a value made by :meth:`with_open_hatchways`, the killzone as built
            from its layout (which memoises every hatchway state); ``None`` for that one.
            For a hatchway state of a value with added terrain, that value.
        terrain_root: for a value made by :meth:`with_terrain` (and its hatchway states),
            the killzone as built from its layout, which memoises the added-terrain values;
            ``None`` for a layout without added terrain.
        extra_terrain: the features added by :meth:`with_terrain`
            (:class:`engine.geometry.extra_terrain.FeatureSpec`), in order; their parts come
            after the layout's in :attr:`parts`.
        tree: the spatial index of the part footprints (``STRtree``; its geometries array is
            not writeable); ``heights``, ``part_feature``: per part (read-only arrays);
            ``flags``: terrain type -> per-part read-only bool array; ``board``: the board.

    Data derived from this value by the geometry modules (movement graphs per base size,
    sight arrays) is kept in the private ``_cache`` dict, filled on first use by the engine;
    it is never part of the layout nor of the public attributes.
    """

    name: str
    version: str
    width: float
    depth: float
    features: tuple[str, ...]
    parts: tuple[TerrainPart, ...]
    hatchways: frozenset[str]
    open_hatchways: frozenset[str]
    drop_zones: Mapping[str, Polygon]
    territories: Mapping[str, Polygon]
    objectives: tuple[Objective, ...]
    source: str = "<dict>"
    hatch_root: Killzone | None = attrs.field(default=None, repr=False)
    terrain_root: Killzone | None = attrs.field(default=None, repr=False)
    extra_terrain: tuple[Any, ...] = ()
    # Derived, built once in __attrs_post_init__ (shared by with_open_hatchways copies).
    tree: STRtree = attrs.field(init=False, repr=False)
    heights: NDArray[np.float64] = attrs.field(init=False, repr=False)
    part_feature: NDArray[np.int64] = attrs.field(init=False, repr=False)
    flags: Mapping[TerrainType, NDArray[np.bool_]] = attrs.field(init=False, repr=False)
    board: Polygon = attrs.field(init=False, repr=False)
    _cache: dict[str, Any] = attrs.field(init=False, repr=False)
    _variants: dict[frozenset[str], Killzone] = attrs.field(init=False, repr=False)
    _terrain_variants: dict[tuple[Any, ...], Killzone] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        polygons = [p.polygon for p in self.parts]
        for poly in polygons:
            shapely.prepare(poly)
        set_ = object.__setattr__
        tree = STRtree(polygons)
        tree.geometries.flags.writeable = False
        set_(self, "tree", tree)
        set_(self, "heights", _read_only_array(np.array([p.height for p in self.parts], float)))
        features = np.array([p.feature for p in self.parts], dtype=np.int64)
        set_(self, "part_feature", _read_only_array(features))
        open_ = [self.features[p.feature] in self.open_hatchways for p in self.parts]
        flags = {t: _read_only_array(_bool_array(self.parts, t, open_)) for t in TerrainType}
        set_(self, "flags", MappingProxyType(flags))
        set_(self, "drop_zones", MappingProxyType(dict(self.drop_zones)))
        set_(self, "territories", MappingProxyType(dict(self.territories)))
        set_(self, "board", shapely.box(0, 0, self.width, self.depth))
        set_(self, "_cache", {})
        set_(self, "_variants", {})
        set_(self, "_terrain_variants", {})

    # ---------------------------------------------------------------------------------------
    # Construction
    # ---------------------------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "<dict>") -> Killzone:
        """Build and validate a killzone from the layout structure.

        Args:
            data: ``{"name", "version"?, "width"?, "depth"?, "features": [{"name",
                "hatchway"?: bool, "open"?: bool, "parts": [{"polygon": [[x, y], ...],
                "height", "types": [...], "open_types"?: [...]}]}], "drop_zones": {"A": [[x,
                y], ...], "B": [...]}, "territories"?: {...}, "objectives": [{"name",
                "position": [x, y]}]}``. Polygons are closed rings (first point repeated
                last), in inches; width and depth default to 30 x 22.
            source: the file name used in error messages.

        Limits (each far above real use; the module constants give them): the board is 1" to
        :data:`MAX_BOARD_INCHES` on each side; every ring lies on the board, is closed, valid
        (not self-intersecting), enclosing at least :data:`MIN_RING_AREA`, with at most
        :data:`MAX_POLYGON_POINTS` points; part heights are 0 to :data:`MAX_HEIGHT_INCHES`;
        at most :data:`MAX_FEATURES` features, :data:`MAX_PARTS` parts in all, with
        :data:`MAX_LAYOUT_POINTS` ring points and :data:`MAX_LAYOUT_PERIMETER` inches of
        outline together, :data:`MAX_OBJECTIVES` objective markers and :data:`MAX_AREAS`
        drop zones or territories; names are at most :data:`MAX_NAME_CHARS` characters; the
        structure is nested at most :data:`engine.inputs.MAX_DEPTH` levels and every number
        is finite (:func:`engine.inputs.check_tree`).

        Raises:
            KillzoneError: naming the source, the feature (or area/marker) and the field:
                a ring that does not close or is self-intersecting, a negative height, an
                unknown terrain type, an unknown field, an objective off the board or inside
                Heavy terrain, a missing drop zone, two features or two objective markers
                with one name (case and spacing ignored, as the action notation reads them:
                ``"layout: features[1] and features[4] are both named 'west hatch'"``), a
                limit above exceeded, a value of the wrong kind anywhere (never another
                exception).
        """
        return _Loader(source).build(data)

    def with_open_hatchways(self, names: Iterable[str]) -> Killzone:
        """This killzone with exactly the hatchways ``names`` open (others closed) (section
        9.3).

        Memoised: the same set of names always gives the same object (this one when it is
        already in that state; the layout as built when its state is asked for), so the
        movement graphs and sight arrays cached on it are built once per hatchway state.

        Raises:
            KillzoneError: for a name that is not a hatchway of this killzone.
        """
        wanted = frozenset(names)
        unknown = sorted(wanted - self.hatchways)
        if unknown:
            raise KillzoneError(f"{self.source}: no hatchway named {', '.join(map(repr, unknown))}")
        if wanted == self.open_hatchways:
            return self
        root = self.hatch_root if self.hatch_root is not None else self
        if wanted == root.open_hatchways:
            return root
        variant = root._variants.get(wanted)
        if variant is None:
            variant = attrs.evolve(root, open_hatchways=wanted, hatch_root=root)
            root._variants[wanted] = variant
        return variant

    def with_terrain(self, extra: Iterable[Any]) -> Killzone:
        """This killzone (in its hatchway state) with the layout's terrain plus exactly the
        features ``extra`` (equipment terrain, section 7.2): any features added before are
        replaced, so ``kz.with_terrain(())`` is the layout's own terrain.

        Memoised by value: the same tuple of features gives the same object (for the
        :data:`engine.geometry.extra_terrain.MAX_TERRAIN_VARIANTS` tuples asked for most
        recently), so every cache kept on it (movement graphs, sight arrays) is
        built once per terrain layout. The result's :meth:`with_open_hatchways` works as on
        a loaded layout, and a hatchway state's :meth:`with_terrain` keeps that state.

        Args:
            extra: :class:`engine.geometry.extra_terrain.FeatureSpec` values (e.g. from
                :func:`engine.rules.equipment.shapes.equipment_feature`).

        Raises:
            KillzoneError: a feature that is not a ``FeatureSpec``, a name used twice or
                already a feature of the layout, a part not wholly on the board or not a valid
                polygon, a negative height.
        """
        from engine.geometry.extra_terrain import terrain_variant  # here: it imports this module

        root = self.hatch_root if self.hatch_root is not None else self
        root = root.terrain_root if root.terrain_root is not None else root
        return terrain_variant(root, tuple(extra)).with_open_hatchways(self.open_hatchways)

    @property
    def close_quarters(self) -> bool:
        """Whether the close quarters rules apply (section 9.3): the killzone has Wall terrain
        (any part that is Wall when its hatchway is closed or open)."""
        return any(
            TerrainType.WALL in p.types or TerrainType.WALL in (p.open_types or ())
            for p in self.parts
        )

    # ---------------------------------------------------------------------------------------
    # Simple lookups
    # ---------------------------------------------------------------------------------------

    def drop_zone_edge(self, name: str) -> str:
        """The board edge drop zone ``name`` lies along: ``"west"``, ``"east"``, ``"south"`` or
        ``"north"`` (x grows east, y grows north, as in the board pictures), from where its
        centroid lies off the board's centre; ``"centre"`` when it is on the centre. Drop
        zones are named by the layout, not by player (1.2, 9.1).

        Raises:
            KeyError: the layout has no drop zone ``name``.
        """
        c = self.drop_zones[name].centroid
        dx, dy = c.x - self.width / 2, c.y - self.depth / 2
        if max(abs(dx), abs(dy)) < 1e-6:
            return "centre"
        if abs(dx) >= abs(dy):
            return "west" if dx < 0 else "east"
        return "south" if dy < 0 else "north"

    def part_types(self, index: int) -> frozenset[TerrainType]:
        """The types of part ``index`` in this killzone's hatchway state."""
        part = self.parts[index]
        return part.types_when(self.features[part.feature] in self.open_hatchways)

    def has_type(self, index: int, kind: TerrainType) -> bool:
        """Whether part ``index`` has terrain type ``kind`` in the current hatchway state."""
        return bool(self.flags[kind][index])

    def parts_near(self, geometry: Any, distance: float = 0.0) -> NDArray[np.int64]:
        """Indices of the parts whose footprints lie within ``distance`` inches of
        ``geometry`` (sorted)."""
        if distance > 0:
            hits = self.tree.query(geometry, predicate="dwithin", distance=distance)
        else:
            hits = self.tree.query(geometry, predicate="intersects")
        return np.sort(np.asarray(hits, dtype=np.int64))

    def standing_part(self, placement: Placement) -> int | None:
        """The Vantage part an operative above the floor stands on (its centre over the part's
        footprint, at the part's height), or ``None`` on the floor."""
        if placement.elevation <= 0:
            return None
        centre = Point(placement.x, placement.y)
        for i in self.parts_near(centre):
            part = self.parts[int(i)]
            if (
                self.flags[TerrainType.VANTAGE][i]
                and math.isclose(part.height, placement.elevation, abs_tol=1e-6)
                and part.polygon.covers(centre)
            ):
                return int(i)
        return None

    def objective(self, name: str) -> Objective:
        """The objective marker called ``name``.

        Raises:
            KeyError: if there is none.
        """
        for obj in self.objectives:
            if obj.name == name:
                return obj
        raise KeyError(f"{self.source}: no objective marker named {name!r}")


# -------------------------------------------------------------------------------------------
# Loading and validation
# -------------------------------------------------------------------------------------------

MAX_BOARD_INCHES = 100.0
"""The largest board side a layout may have (inches); boards are 30" x 22" in KT24 (the
shipped layouts), so this is over three times the real size. The smallest is 1"."""

MAX_HEIGHT_INCHES = 50.0
"""The tallest terrain part (inches); shipped parts are at most 5" tall."""

MAX_FEATURES = 500
"""The most terrain features a layout may have (the shipped layouts have at most 22)."""

MAX_PARTS = 1000
"""The most terrain parts a layout may have, over all features (shipped: at most 28)."""

MAX_POLYGON_POINTS = 200
"""The most points of one ring (polygon), the repeated closing point included (shipped: at
most 6)."""

MAX_LAYOUT_POINTS = 5000
"""The most ring points of all terrain parts together (closing points not counted; shipped:
at most 140). With :data:`MAX_LAYOUT_PERIMETER` it bounds the work of the geometry built
from a layout (movement graph nodes are corners and points every inch around low and
Vantage terrain; see also :data:`engine.geometry.move_fill.MAX_GRAPH_WORK`)."""

MAX_LAYOUT_PERIMETER = 20000.0
"""The largest total perimeter of all terrain parts (inches; shipped: about 500)."""

MIN_RING_AREA = 0.01
"""The smallest area (square inches) a ring may enclose, a tenth of an inch square: smaller
rings are degenerate slivers (the smallest shipped part encloses 0.4 square inches)."""

MAX_OBJECTIVES = 50
"""The most objective markers a layout may have (shipped: 3)."""

MAX_AREAS = 8
"""The most drop zones or territories a layout may name (shipped: 2 of each)."""

MAX_NAME_CHARS = 100
"""The longest name of a layout, feature, objective marker, drop zone or version."""

_TOP_FIELDS = {
    "name",
    "version",
    "width",
    "depth",
    "features",
    "drop_zones",
    "territories",
    "objectives",
}
_FEATURE_FIELDS = {"name", "parts", "hatchway", "open"}
_PART_FIELDS = {"polygon", "height", "types", "open_types"}
_OBJECTIVE_FIELDS = {"name", "position"}


class _Loader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> KillzoneError:
        return KillzoneError(f"{self.source}: {where}: {message}")

    def number(
        self,
        value: Any,
        where: str,
        field: str,
        *,
        minimum: float | None = None,
        maximum: float | None = None,
    ) -> float:
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (isinstance(value, float) and not math.isfinite(value))
        ):
            raise self.fail(where, f"field {field!r} must be a number, not {shown(value)}")
        if minimum is not None and value < minimum:
            raise self.fail(
                where, f"field {field!r} must be at least {minimum:g}, not {shown(value)}"
            )
        if maximum is not None and value > maximum:
            raise self.fail(
                where, f"field {field!r} must be at most {maximum:g}, not {shown(value)}"
            )
        return float(value)

    def name(self, value: Any, where: str, field: str = "name") -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, f"field {field!r} must be a non-empty string")
        if len(value) > MAX_NAME_CHARS:
            raise self.fail(
                where,
                f"field {field!r} is longer than {MAX_NAME_CHARS} characters ({excerpt(value)})",
            )
        return value

    def count(
        self, value: Sequence[Any] | Mapping[str, Any], limit: int, where: str, field: str
    ) -> None:
        if len(value) > limit:
            raise self.fail(
                where,
                f"field {field!r} has {len(value)} entries; a layout may have at most {limit}",
            )

    def unique(self, field: str, names: Sequence[str]) -> None:
        """Refuse the last of ``names`` (the entries of list ``field``) when it is the name of
        an earlier one, ignoring case and spacing as the action notation does (``Operate hatch
        KAS-1 west hatch``, ``Pick up KAS-1 north``): the second would be unreachable."""
        *earlier, last = names
        key = " ".join(last.casefold().split())
        for j, other in enumerate(earlier):
            if " ".join(other.casefold().split()) == key:
                same = (
                    f"named {last!r}"
                    if other == last
                    else f"named {other!r} and {last!r}, the same name to the engine "
                    "(case and spacing ignored)"
                )
                raise self.fail(
                    "layout", f"{field}[{j}] and {field}[{len(earlier)}] are both {same}"
                )

    def unknown_fields(self, data: Mapping[Any, Any], allowed: set[str], where: str) -> None:
        extra = sorted(str(k) for k in data if k not in allowed)
        if extra:
            raise self.fail(
                where,
                f"unknown field {excerpt(extra[0])} (allowed: {', '.join(sorted(allowed))})",
            )

    def ring(self, value: Any, where: str, field: str, width: float, depth: float) -> Polygon:
        if not isinstance(value, list | tuple) or len(value) < 4:
            raise self.fail(
                where,
                f"field {field!r} must be a closed ring of at least 4 [x, y] points "
                "(first repeated last)",
            )
        if len(value) > MAX_POLYGON_POINTS:
            raise self.fail(
                where,
                f"field {field!r} has {len(value)} points; a ring may have at most "
                f"{MAX_POLYGON_POINTS}",
            )
        points: list[tuple[float, float]] = []
        for k, pt in enumerate(value):
            if not isinstance(pt, list | tuple) or len(pt) != 2:
                raise self.fail(where, f"field {field!r} point {k} must be [x, y], not {shown(pt)}")
            xy = (
                self.number(pt[0], where, f"{field}[{k}][0]"),
                self.number(pt[1], where, f"{field}[{k}][1]"),
            )
            if not (0 <= xy[0] <= width and 0 <= xy[1] <= depth):
                raise self.fail(
                    where,
                    f"field {field!r} is not wholly on the board: point {k} "
                    f"[{xy[0]:g}, {xy[1]:g}] is outside 0..{width:g} x 0..{depth:g}",
                )
            points.append(xy)
        if points[0] != points[-1]:
            raise self.fail(
                where,
                f"field {field!r} does not close: first point {points[0]} != "
                f"last point {points[-1]}",
            )
        poly = Polygon(points)
        if not poly.is_valid or poly.area <= 0:
            reason = shapely.is_valid_reason(poly)
            raise self.fail(where, f"field {field!r} is not a valid polygon ({reason})")
        if poly.area < MIN_RING_AREA:
            raise self.fail(
                where,
                f"field {field!r} encloses {poly.area:.2g} square inches, less than "
                f"{MIN_RING_AREA:g} (a degenerate ring)",
            )
        return poly

    def types(self, value: Any, where: str, field: str) -> frozenset[TerrainType]:
        if not isinstance(value, list | tuple):
            raise self.fail(where, f"field {field!r} must be a list of terrain types")
        if len(value) > 4 * len(TerrainType):
            raise self.fail(where, f"field {field!r} lists {len(value)} terrain types")
        out = set()
        for t in value:
            if not isinstance(t, str):
                raise self.fail(where, f"field {field!r}: a terrain type is a name, not {shown(t)}")
            try:
                out.add(TerrainType.parse(t))
            except ValueError:
                known = ", ".join(m.value for m in TerrainType)
                raise self.fail(
                    where, f"field {field!r}: unknown terrain type {excerpt(t)} (known: {known})"
                ) from None
        return frozenset(out)

    def build(self, data: Mapping[str, Any]) -> Killzone:
        if not isinstance(data, Mapping):
            raise self.fail("layout", f"must be a table/object, not {shown(data)}")
        check_tree(data, self.source, KillzoneError)
        self.unknown_fields(data, _TOP_FIELDS, "layout")
        name = self.name(data.get("name"), "layout")
        width = self.number(
            data.get("width", 30.0), "layout", "width", minimum=1.0, maximum=MAX_BOARD_INCHES
        )
        depth = self.number(
            data.get("depth", 22.0), "layout", "depth", minimum=1.0, maximum=MAX_BOARD_INCHES
        )
        board = shapely.box(0, 0, width, depth)
        features_data = data.get("features", [])
        if not isinstance(features_data, list):
            raise self.fail("layout", "field 'features' must be a list")
        self.count(features_data, MAX_FEATURES, "layout", "features")
        names: list[str] = []
        parts: list[TerrainPart] = []
        points, perimeter = 0, 0.0  # of all parts so far (MAX_LAYOUT_POINTS, ..._PERIMETER)
        hatchways: set[str] = set()
        open_hatchways: set[str] = set()
        for fi, feat in enumerate(features_data):
            where = f"feature {fi}"
            if not isinstance(feat, Mapping):
                raise self.fail(where, "must be a table/object")
            fname = self.name(feat.get("name"), where)
            self.unique("features", [*names, fname])
            where = f"feature {fname!r}"
            self.unknown_fields(feat, _FEATURE_FIELDS, where)
            is_hatch = feat.get("hatchway", False)
            is_open = feat.get("open", False)
            for field, flag in (("hatchway", is_hatch), ("open", is_open)):
                if not isinstance(flag, bool):
                    raise self.fail(
                        where, f"field {field!r} must be true or false, not {shown(flag)}"
                    )
            if is_open and not is_hatch:
                raise self.fail(where, "field 'open' is only for hatchway features")
            if is_hatch:
                hatchways.add(fname)
                if is_open:
                    open_hatchways.add(fname)
            parts_data = feat.get("parts")
            if not isinstance(parts_data, list) or not parts_data:
                raise self.fail(where, "field 'parts' must be a non-empty list")
            if len(parts) + len(parts_data) > MAX_PARTS:
                raise self.fail(
                    where, f"too many terrain parts: a layout may have at most {MAX_PARTS}"
                )
            for pi, part in enumerate(parts_data):
                pwhere = f"{where} part {pi}"
                if not isinstance(part, Mapping):
                    raise self.fail(pwhere, "must be a table/object")
                self.unknown_fields(part, _PART_FIELDS, pwhere)
                poly = self.ring(part.get("polygon"), pwhere, "polygon", width, depth)
                if not board.covers(poly):
                    raise self.fail(pwhere, "field 'polygon' is not wholly on the board")
                height = self.number(
                    part.get("height"), pwhere, "height", minimum=0.0, maximum=MAX_HEIGHT_INCHES
                )
                types = self.types(part.get("types", []), pwhere, "types")
                open_types = None
                if "open_types" in part:
                    if not is_hatch:
                        raise self.fail(pwhere, "field 'open_types' is only for hatchway features")
                    open_types = self.types(part["open_types"], pwhere, "open_types")
                parts.append(TerrainPart(len(names), len(parts), poly, height, types, open_types))
                points += len(poly.exterior.coords) - 1
                perimeter += poly.length
                if points > MAX_LAYOUT_POINTS:
                    raise self.fail(
                        pwhere,
                        f"too many ring points: the terrain parts so far have {points} points, "
                        f"a layout may have at most {MAX_LAYOUT_POINTS}",
                    )
                if perimeter > MAX_LAYOUT_PERIMETER:
                    raise self.fail(
                        pwhere,
                        f"too much terrain outline: the terrain parts so far measure "
                        f'{perimeter:.0f}" around, a layout may have at most '
                        f'{MAX_LAYOUT_PERIMETER:.0f}"',
                    )
            names.append(fname)
        drop = self.areas(data.get("drop_zones"), "drop_zones", board, required=True)
        terr = self.areas(data.get("territories", {}), "territories", board, required=False)
        objectives = self.objectives(
            data.get("objectives", []), board, parts, names, open_hatchways
        )
        version = data.get("version", "1")
        if isinstance(version, bool) or not isinstance(version, str | int | float):
            raise self.fail("layout", f"field 'version' must be a string, not {shown(version)}")
        version = self.name(str(version), "layout", "version")
        return Killzone(
            name=name,
            version=version,
            width=width,
            depth=depth,
            features=tuple(names),
            parts=tuple(parts),
            hatchways=frozenset(hatchways),
            open_hatchways=frozenset(open_hatchways),
            drop_zones=drop,
            territories=terr,
            objectives=objectives,
            source=self.source,
        )

    def areas(
        self, value: Any, field: str, board: Polygon, *, required: bool
    ) -> dict[str, Polygon]:
        if not isinstance(value, Mapping):
            raise self.fail("layout", f"field {field!r} must be a table of player -> ring")
        self.count(value, MAX_AREAS, "layout", field)
        _, _, width, depth = board.bounds
        out: dict[str, Polygon] = {}
        for player in sorted(value, key=str):
            where = f"{field} {self.name(player, 'layout', field)!r}"
            poly = self.ring(value[player], where, "polygon", width, depth)
            if not board.covers(poly):
                raise self.fail(where, "is not wholly on the board")
            out[str(player)] = poly
        if required and set(out) != {"A", "B"}:
            raise self.fail("layout", f"field {field!r} must define exactly players 'A' and 'B'")
        return out

    def objectives(
        self,
        value: Any,
        board: Polygon,
        parts: Sequence[TerrainPart],
        names: Sequence[str],
        open_hatchways: set[str],
    ) -> tuple[Objective, ...]:
        if not isinstance(value, list):
            raise self.fail("layout", "field 'objectives' must be a list")
        self.count(value, MAX_OBJECTIVES, "layout", "objectives")
        out: list[Objective] = []
        for k, obj in enumerate(value):
            where = f"objective {k}"
            if not isinstance(obj, Mapping):
                raise self.fail(where, "must be a table/object")
            name = self.name(obj.get("name"), where)
            self.unique("objectives", [*(o.name for o in out), name])
            where = f"objective {name!r}"
            self.unknown_fields(obj, _OBJECTIVE_FIELDS, where)
            pos = obj.get("position")
            if not isinstance(pos, list | tuple) or len(pos) != 2:
                raise self.fail(where, f"field 'position' must be [x, y], not {shown(pos)}")
            x, y = (
                self.number(pos[0], where, "position[0]"),
                self.number(pos[1], where, "position[1]"),
            )
            marker = Objective(name, (x, y))
            _, _, width, depth = board.bounds
            if not (0 <= x <= width and 0 <= y <= depth):
                raise self.fail(
                    where, f"field 'position' {shown(list(pos))} puts the marker off the board"
                )
            disc = Point(x, y).buffer(marker.radius, quad_segs=16)
            if not board.covers(disc):
                raise self.fail(
                    where, f"field 'position' {shown(list(pos))} puts the marker off the board"
                )
            for part in parts:
                heavy = TerrainType.HEAVY in part.types_when(names[part.feature] in open_hatchways)
                if heavy and part.polygon.intersects(disc):
                    raise self.fail(
                        where,
                        f"field 'position' {shown(list(pos))} puts the marker inside Heavy "
                        f"terrain (feature {names[part.feature]!r})",
                    )
            out.append(marker)
        return tuple(out)


def load_killzone(path: str | Path) -> Killzone:
    """Load and validate a killzone layout file (``.toml`` or ``.json``).

    The file is read through :mod:`engine.inputs` (at most 64 MiB of UTF-8, nesting at most
    64 levels, every number finite and at most 1e15), then checked by
    :meth:`Killzone.from_dict` (which states the limits on sizes and counts).

    Args:
        path: a layout file (its suffix is ``.toml`` or ``.json``), or the name of a layout
            shipped in ``killzones/`` (e.g. ``"open_ruins"``). Anything without one of those
            suffixes is a name and must be exactly one of :func:`shipped_killzones`; it is
            never joined to a folder, so ``"../x"`` or ``"/etc/x"`` opens nothing outside the
            package data (:mod:`engine.names`).

    Raises:
        KillzoneError: for an unknown name (listing the shipped layouts), a missing file
            (``"x.toml: no such killzone file (shipped layouts: ...)"``), a folder (``"x.toml:
            is a folder, not a killzone file"``), a path that is not a regular file (``"is
            not a regular file (a character device), not a killzone file"``; a FIFO is
            refused without blocking), an unreadable file, one that is not UTF-8, too large,
            too deeply nested, a syntax error, a JSON key given twice, a number out of range,
            or any validation error (the message names the file, the feature and the
            field).
    """
    if not is_file_ref(str(path), KILLZONE_FILE_SUFFIXES):
        name = check_builtin_name(
            str(path),
            shipped_killzones(),
            "{name}: no such killzone file or shipped layout (shipped layouts: {known}); "
            "a layout file must end in .toml or .json",
            KillzoneError,
        )
        path = _shipped_dir() / f"{name}.toml"
    p = Path(path)
    try:
        missing = file_kind(p) == "missing"
    except (OSError, ValueError):  # e.g. a name too long for the file system
        missing = True
    if missing:
        known = ", ".join(shipped_killzones()) or "none"
        raise KillzoneError(f"{path}: no such killzone file (shipped layouts: {known})")
    data = read_document(p, KillzoneError, "killzone file")
    return Killzone.from_dict(data, source=str(p))


def _shipped_dir() -> Path:
    """The ``killzones/`` data folder, installed with the package (importlib.resources)."""
    return Path(str(importlib.resources.files("killzones")))


def shipped_killzones() -> list[str]:
    """Names of the layouts shipped in ``killzones/`` (sorted)."""
    folder = _shipped_dir()
    return sorted(p.stem for p in folder.glob("*.toml")) if folder.is_dir() else []
