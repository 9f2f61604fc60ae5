"""Reading a killzone layout: the checks and limits of the layout structure (``rules/KT24.md``
sections 4 and 9: terrain features of typed parts, drop zones, territories, objective
markers). :meth:`engine.geometry.model.Killzone.from_dict` builds the killzone from the
fields :func:`layout_fields` gives; :func:`engine.geometry.model.load_killzone` reads a file.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import shapely
from shapely.geometry import Point, Polygon

from engine.geometry.primitives import (
    KT18_TERRAIN_CATEGORIES,
    KillzoneError,
    Objective,
    TerrainPart,
    TerrainType,
)
from engine.inputs import check_tree, excerpt, shown

__all__ = [
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
    "STAIRS_TOUCH",
    "layout_fields",
]

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

STAIRS_TOUCH = 0.01
"""A stair part's head touches its Vantage part: their footprints are at most this far
apart (inches)."""

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
    "kt18_killzone",
    "kt18_manholes",
}
KT18_KILLZONES = ("sector_imperialis",)
"""The KT18 killzone rules a layout may name (``rules/KT18.md`` 11.1, 11.2)."""
_FEATURE_FIELDS = {"name", "parts", "hatchway", "open"}
_PART_FIELDS = {"polygon", "height", "types", "open_types", "stairs", "kt18_terrain"}
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

    def build(self, data: Mapping[str, Any]) -> dict[str, Any]:
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
                stairs = part.get("stairs", False)
                if not isinstance(stairs, bool):
                    raise self.fail(
                        pwhere, f"field 'stairs' must be true or false, not {shown(stairs)}"
                    )
                if stairs and (TerrainType.VANTAGE in types or height <= 0 or is_hatch):
                    raise self.fail(
                        pwhere,
                        "a stair part (field 'stairs') is not Vantage terrain, is higher than 0\" "
                        "and is not part of a hatchway",
                    )
                kt18 = part.get("kt18_terrain", "")
                if "kt18_terrain" in part and kt18 not in KT18_TERRAIN_CATEGORIES:
                    raise self.fail(
                        pwhere,
                        "field 'kt18_terrain' must be one of "
                        f"{', '.join(KT18_TERRAIN_CATEGORIES)}, not {shown(kt18)}",
                    )
                parts.append(
                    TerrainPart(
                        len(names), len(parts), poly, height, types, open_types, stairs, kt18
                    )
                )
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
        self.stairs_heads(parts, names)
        drop = self.areas(data.get("drop_zones"), "drop_zones", board, required=True)
        terr = self.areas(data.get("territories", {}), "territories", board, required=False)
        objectives = self.objectives(
            data.get("objectives", []), board, parts, names, open_hatchways
        )
        version = data.get("version", "1")
        if isinstance(version, bool) or not isinstance(version, str | int | float):
            raise self.fail("layout", f"field 'version' must be a string, not {shown(version)}")
        version = self.name(str(version), "layout", "version")
        return {
            "name": name,
            "version": version,
            "width": width,
            "depth": depth,
            "features": tuple(names),
            "parts": tuple(parts),
            "hatchways": frozenset(hatchways),
            "open_hatchways": frozenset(open_hatchways),
            "drop_zones": drop,
            "territories": terr,
            "objectives": objectives,
            **self.kt18_fields(data, board),
            "source": self.source,
        }

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

    def stairs_heads(self, parts: Sequence[TerrainPart], names: Sequence[str]) -> None:
        """Check that every stair part touches a Vantage part of its height, its head
        (:attr:`TerrainPart.stairs`: a stair leads from the floor up to a Vantage level)."""
        for part in parts:
            if not part.stairs:
                continue
            heads = [
                q
                for q in parts
                if TerrainType.VANTAGE in q.types
                and TerrainType.INSIGNIFICANT not in q.types
                and abs(q.height - part.height) <= 1e-6
                and q.polygon.distance(part.polygon) <= STAIRS_TOUCH
            ]
            if not heads:
                where = f"feature {names[part.feature]!r} part {part.index}"
                raise self.fail(
                    where,
                    f"a stair part must touch a Vantage part of its height "
                    f'({part.height:g}"), the level it leads up to: none does',
                )

    def kt18_fields(self, data: Mapping[str, Any], board: Polygon) -> dict[str, Any]:
        """The KT18 killzone rules and manholes (``rules/KT18.md`` 11.2, 11.3 Tunnels)."""
        out: dict[str, Any] = {}
        if "kt18_killzone" in data:
            kind = data["kt18_killzone"]
            if kind not in KT18_KILLZONES:
                raise self.fail(
                    "layout",
                    f"field 'kt18_killzone' must be one of {', '.join(KT18_KILLZONES)}, "
                    f"not {shown(kind)}",
                )
            out["kt18_killzone"] = kind
        if "kt18_manholes" in data:
            value = data["kt18_manholes"]
            if not isinstance(value, list):
                raise self.fail("layout", "field 'kt18_manholes' must be a list of [x, y]")
            self.count(value, MAX_OBJECTIVES, "layout", "kt18_manholes")
            points = []
            for k, pos in enumerate(value):
                where = f"manhole {k}"
                if not isinstance(pos, list | tuple) or len(pos) != 2:
                    raise self.fail(where, f"must be [x, y], not {shown(pos)}")
                x = self.number(pos[0], where, "x")
                y = self.number(pos[1], where, "y")
                if not board.covers(Point(x, y)):
                    raise self.fail(where, f"{shown(list(pos))} is off the board")
                points.append((x, y))
            out["kt18_manholes"] = tuple(points)
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


def layout_fields(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The checked fields of a :class:`~engine.geometry.model.Killzone` from the layout
    structure ``data`` (its shape and limits: :meth:`Killzone.from_dict
    <engine.geometry.model.Killzone.from_dict>`), keyed by the killzone's attribute names.

    Raises:
        KillzoneError: as :meth:`Killzone.from_dict <engine.geometry.model.Killzone.from_dict>`
            says, naming ``source``.
    """
    return _Loader(source).build(data)
