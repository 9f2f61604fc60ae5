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

The values it is made of (terrain types and parts, objective markers, placements, the
position grid) are :mod:`engine.geometry.primitives`; the checks and limits of the layout
structure :mod:`engine.geometry.layout`; added terrain :mod:`engine.geometry.extra_terrain`.
This module names them all again, so ``engine.geometry.model`` stays the one import for them.

A killzone with any Wall part uses the close quarters rules (section 9.3,
:attr:`Killzone.close_quarters`): distances around walls
(:func:`engine.geometry.sight.distance_around_walls`), and only the ends and corners of walls
intervene for cover and obscured (:mod:`engine.geometry.sight`).
"""

from __future__ import annotations

import importlib.resources
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

import attrs
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Point, Polygon
from shapely.strtree import STRtree

from engine.geometry.extra_terrain import MAX_TERRAIN_VARIANTS, added_parts, check_added
from engine.geometry.layout import (
    MAX_AREAS,
    MAX_BOARD_INCHES,
    MAX_FEATURES,
    MAX_HEIGHT_INCHES,
    MAX_LAYOUT_PERIMETER,
    MAX_LAYOUT_POINTS,
    MAX_NAME_CHARS,
    MAX_OBJECTIVES,
    MAX_PARTS,
    MAX_POLYGON_POINTS,
    MIN_RING_AREA,
    layout_fields,
)
from engine.geometry.primitives import (
    DEFAULT_MODEL_HEIGHT,
    MARKER_DIAMETER_MM,
    MM_PER_INCH,
    OBJECTIVE_DIAMETER_MM,
    QUANTUM,
    KillzoneError,
    Objective,
    Placement,
    TerrainPart,
    TerrainType,
    quantise,
)
from engine.inputs import file_kind, read_document
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

MAX_OBJECTIVE_VARIANTS = 8
"""How many killzones with their own objective markers (:meth:`Killzone.with_objectives`) a
layout keeps (the most recently asked for): each holds its movement graphs."""

_OBJECTIVE_VARIANTS_KEY = "objective.variants"


def _bool_array(
    parts: Sequence[TerrainPart], kind: TerrainType, open_: Iterable[bool]
) -> NDArray[np.bool_]:
    return np.array(
        [kind in p.types_when(o) for p, o in zip(parts, open_, strict=True)], dtype=bool
    )


def _read_only_array(array: NDArray[Any]) -> NDArray[Any]:
    array.flags.writeable = False
    return array


def _ring(polygon: Polygon) -> list[list[float]]:
    """The exterior ring of ``polygon`` as layout data: ``[[x, y], ...]``, closed."""
    return [[float(x), float(y)] for x, y in polygon.exterior.coords]


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
        kt18_killzone: the KT18 killzone rules the layout is played with (``rules/KT18.md``
            11.1): ``""`` (none) or ``"sector_imperialis"`` (11.2: the environment table).
        kt18_manholes: the manholes of the KT18 Tunnels environment (11.3), points in inches.
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
    kt18_killzone: str = ""
    kt18_manholes: tuple[tuple[float, float], ...] = ()
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
                "height", "types": [...], "open_types"?: [...], "stairs"?: bool,
                "kt18_terrain"?: "open" | "difficult" | "dangerous" | "impassable"}]}],
                "drop_zones": {"A": [[x, y], ...], "B": [...]}, "territories"?: {...},
                "objectives": [{"name", "position": [x, y]}], "kt18_killzone"?:
                "sector_imperialis", "kt18_manholes"?: [[x, y], ...]}``. Polygons are closed rings
                (first point repeated last), in inches; width and depth default to 30 x 22.
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
        return cls(**layout_fields(data, source))

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
        root = self.hatch_root if self.hatch_root is not None else self
        root = root.terrain_root if root.terrain_root is not None else root
        return _terrain_variant(root, tuple(extra)).with_open_hatchways(self.open_hatchways)

    def objective_problem(self, objective: Objective) -> str | None:
        """Why the objective marker ``objective`` cannot be set up on this layout (its disc
        off the board or touching Heavy terrain, as a layout file's markers are checked),
        or ``None``."""
        x, y = objective.position
        disc = Point(x, y).buffer(objective.radius, quad_segs=16)
        if not self.board.covers(disc):
            return f"objective marker {objective.name!r} at ({x:g}, {y:g}) is off the board"
        for part in self.parts:
            if TerrainType.HEAVY in part.types and part.polygon.intersects(disc):
                return (
                    f"objective marker {objective.name!r} at ({x:g}, {y:g}) is inside Heavy "
                    f"terrain (feature {self.features[part.feature]!r})"
                )
        return None

    def with_objectives(self, objectives: Iterable[Objective]) -> Killzone:
        """This layout with exactly the objective markers ``objectives`` instead of its own
        (a mission that sets up its own markers: KT21's six, ``rules/KT21.md`` 15.2): a new
        layout (its hatchways closed, without added terrain), or this one when the markers
        are the same.

        Raises:
            KillzoneError: a value that is not an :class:`Objective`, a name used twice, or a
                marker off the board or inside Heavy terrain (:meth:`objective_problem`).
        """
        objs = tuple(objectives)
        for o in objs:
            if not isinstance(o, Objective):
                raise KillzoneError(f"{self.source}: not an objective marker: {o!r:.60}")
            problem = self.objective_problem(o)
            if problem is not None:
                raise KillzoneError(f"{self.source}: {problem}")
        names = [o.name for o in objs]
        if len(set(names)) != len(names):
            raise KillzoneError(f"{self.source}: objective marker names repeat: {names}")
        root = self.hatch_root if self.hatch_root is not None else self
        root = root.terrain_root if root.terrain_root is not None else root
        if objs == root.objectives:
            return root
        # Memoised on the layout by value (the most recent few), so that every battle of a
        # batch on this layout gets the same value and its caches (movement graphs, sight).
        memo: dict[tuple[Objective, ...], Killzone] = root._cache.setdefault(
            _OBJECTIVE_VARIANTS_KEY, {}
        )
        found = memo.pop(objs, None)
        if found is None:
            found = attrs.evolve(
                root,
                objectives=objs,
                open_hatchways=frozenset(),
                hatch_root=None,
                terrain_root=None,
            )
        memo[objs] = found  # most recent last
        while len(memo) > MAX_OBJECTIVE_VARIANTS:
            del memo[next(iter(memo))]
        return found

    def to_dict(self) -> dict[str, Any]:
        """The layout structure of this killzone (the inverse of :meth:`from_dict`): its
        layout's own features, without the terrain added by :meth:`with_terrain` (that is
        :attr:`extra_terrain`), with the hatchways open in this value marked ``open``.

        ``Killzone.from_dict(kz.to_dict(), kz.source)`` is the same layout: the same
        names, numbers and rings point for point (floats are kept exactly), so every query
        on it gives the same answers. Lists only (no sets), in the layout's order, so the
        structure is the same in every process (what a pickled battle is rebuilt from,
        :class:`engine.game.setup.ContextRecipe`).
        """
        base = self.hatch_root if self.hatch_root is not None else self
        layout = base.terrain_root if base.terrain_root is not None else base
        features: list[dict[str, Any]] = []
        for name in layout.features:
            feature: dict[str, Any] = {"name": name, "parts": []}
            if name in layout.hatchways:
                feature["hatchway"] = True
                feature["open"] = name in self.open_hatchways
            features.append(feature)
        for part in layout.parts:
            entry: dict[str, Any] = {
                "polygon": _ring(part.polygon),
                "height": part.height,
                "types": sorted(t.value for t in part.types),
            }
            if part.open_types is not None:
                entry["open_types"] = sorted(t.value for t in part.open_types)
            if part.stairs:
                entry["stairs"] = True
            if part.kt18_terrain:
                entry["kt18_terrain"] = part.kt18_terrain
            features[part.feature]["parts"].append(entry)
        return {
            "name": layout.name,
            "version": layout.version,
            "width": layout.width,
            "depth": layout.depth,
            "features": features,
            "drop_zones": {k: _ring(v) for k, v in sorted(layout.drop_zones.items())},
            "territories": {k: _ring(v) for k, v in sorted(layout.territories.items())},
            "objectives": [
                {"name": o.name, "position": [o.position[0], o.position[1]]}
                for o in layout.objectives
            ],
            **({"kt18_killzone": layout.kt18_killzone} if layout.kt18_killzone else {}),
            **(
                {"kt18_manholes": [[x, y] for x, y in layout.kt18_manholes]}
                if layout.kt18_manholes
                else {}
            ),
        }

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


def _terrain_variant(root: Killzone, extra: tuple[Any, ...]) -> Killzone:
    """``root`` (a layout as loaded, without added terrain) with the features ``extra``
    added (:func:`engine.geometry.extra_terrain.check_added`,
    :func:`~engine.geometry.extra_terrain.added_parts`), in ``root``'s hatchway state;
    ``root`` itself when ``extra`` is empty.

    Memoised on ``root`` by value (the :data:`~engine.geometry.extra_terrain.
    MAX_TERRAIN_VARIANTS` most recent). :meth:`Killzone.with_terrain` is the public way in.

    Raises:
        KillzoneError: as :meth:`Killzone.with_terrain` says.
    """
    if root.terrain_root is not None or root.hatch_root is not None:
        raise ValueError("_terrain_variant takes a layout as loaded (see Killzone.with_terrain)")
    if not extra:
        return root
    memo = root._terrain_variants
    found = memo.pop(extra, None)
    if found is None:
        check_added(root.source, root.features, root.board, extra)
        features, parts = added_parts(root.features, root.parts, extra)
        found = attrs.evolve(
            root,
            features=features,
            parts=parts,
            hatch_root=None,
            terrain_root=root,
            extra_terrain=extra,
        )
    memo[extra] = found  # most recent last
    while len(memo) > MAX_TERRAIN_VARIANTS:
        del memo[next(iter(memo))]
    return found


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
