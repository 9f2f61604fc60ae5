"""Where the universal equipment may be set up (rules ``rules/KT24.md`` 7.2), one check per
restriction, and deterministic candidate placements for agents.

Every check returns ``None`` when the restriction holds, else a reason naming it (and the
rule). Distances are horizontal (4.1: killzone areas) between closest points; "more than x"
fails at exactly x. Equipment terrain comes as :class:`~engine.geometry.extra_terrain.
FeatureSpec` values (:func:`engine.rules.equipment.shapes.equipment_feature`) or shapely
geometries; markers as centre points (inches), 20 mm across
(:data:`engine.geometry.model.MARKER_DIAMETER_MM`), objective markers 40 mm.

Access points are the parts of the killzone's hatchway features (close quarters, 9.3), in
whichever state; Accessible terrain is any part that is Accessible in the killzone's current
hatchway state. Pass the killzone *without* the item being placed (for a portable barricade
being moved: without that barricade) and the other equipment terrain in ``others``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, cast

import attrs
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry.base import BaseGeometry

from engine.geometry.extra_terrain import FeatureSpec
from engine.geometry.gc_pause import paused_gc
from engine.geometry.model import (
    MARKER_DIAMETER_MM,
    MM_PER_INCH,
    OBJECTIVE_DIAMETER_MM,
    QUANTUM,
    Killzone,
    Placement,
    TerrainType,
    quantise,
)
from engine.rules.equipment.shapes import (
    ACCESS_POINT_DISTANCE,
    DROP_ZONE_REACH,
    EQUIPMENT_DISTANCE,
    KINDS,
    LADDER_ACCESS_POINT_DISTANCE,
    LADDER_AGAINST_TOUCH,
    LADDER_MIN_TERRAIN_HEIGHT,
    MARKER_KINDS,
    MINE_DISTANCE,
    SHAPES,
    TERRAIN_KINDS,
    equipment_parts,
    marker_disc,
)

__all__ = [
    "equipment_footprint",
    "equipment_placement_problem",
    "equipment_spots",
    "ladder_not_against_terrain",
    "marker_too_close_to_markers",
    "not_on_killzone_floor",
    "not_wholly_within_territory",
    "not_within_drop_zone_reach",
    "portable_barricade_spots",
    "too_close_to_access_points",
    "too_close_to_accessible_terrain",
    "too_close_to_equipment_terrain",
]

_TOL = 1e-6  # inches: "more than x" / "wholly within" tolerance for float noise
_OVERLAP_AREA = 1e-6  # square inches: less is touching, not overlapping
Others = Sequence[FeatureSpec | BaseGeometry]


def _shape(feature: FeatureSpec | BaseGeometry) -> BaseGeometry:
    return feature.shape() if isinstance(feature, FeatureSpec) else feature


def _label(feature: FeatureSpec | BaseGeometry) -> str:
    return repr(feature.name) if isinstance(feature, FeatureSpec) else "equipment terrain"


def equipment_footprint(kind: str, x: float, y: float, angle: float = 0.0) -> BaseGeometry:
    """The footprint of equipment ``kind`` at ``(x, y)`` turned ``angle`` degrees: the terrain
    feature's parts (:func:`engine.rules.equipment.shapes.equipment_parts`) or a marker's 20 mm
    disc (the angle ignored).

    Raises:
        ValueError: an unknown kind or a non-finite number.
    """
    if kind in MARKER_KINDS:
        for name, value in (("x", x), ("y", y)):
            if not math.isfinite(float(value)):
                raise ValueError(f"equipment {name} must be a finite number, not {value!r}")
        return marker_disc(x, y)
    if kind not in SHAPES:
        raise ValueError(f"unknown equipment {kind!r} (known: {', '.join(KINDS)})")
    parts = equipment_parts(kind, x, y, angle)
    return shapely.union_all([p.shape() for p in parts])


# -------------------------------------------------------------------------------------------
# One check per restriction
# -------------------------------------------------------------------------------------------


def not_wholly_within_territory(shape: BaseGeometry, territory: BaseGeometry) -> str | None:
    """7.2 (every item but the Heavy Barricade): set up wholly within your territory.

    Args:
        shape: the item's footprint (inches).
        territory: the player's territory (a polygon, inches).
    """
    if territory.buffer(_TOL, join_style="mitre").covers(shape):
        return None
    return "it must be set up wholly within its player's territory (7.2)"


def not_within_drop_zone_reach(shape: BaseGeometry, drop_zone: BaseGeometry) -> str | None:
    """7.2 Heavy Barricade: set up wholly within 4" of your drop zone (horizontal distance,
    4.1)."""
    reach = drop_zone.buffer(DROP_ZONE_REACH + _TOL, quad_segs=32)
    if reach.covers(shape):
        return None
    return "the Heavy Barricade must be set up wholly within 4\" of its player's drop zone (7.2)"


def not_on_killzone_floor(kz: Killzone, shape: BaseGeometry) -> str | None:
    """7.2 (barricades, razor wire; ladders stand on the floor too): set up on the killzone
    floor, that is overlapping no terrain part (it would stand on or in it); touching is
    allowed. Markers use it too: the project sets them up on the floor."""
    for i in kz.parts_near(shape).tolist():
        part = kz.parts[i]
        if shapely.intersection(part.polygon, shape).area > _OVERLAP_AREA:
            name = kz.features[part.feature]
            return f"it must be set up on the killzone floor, not on terrain ({name!r}) (7.2)"
    return None


def too_close_to_equipment_terrain(
    shape: BaseGeometry, others: Others, distance: float = EQUIPMENT_DISTANCE
) -> str | None:
    """7.2: more than 2" from other equipment terrain features (``others``)."""
    for other in others:
        d = float(shape.distance(_shape(other)))
        if d <= distance + _TOL:
            return (
                f'it must be set up more than {distance:g}" from other equipment terrain '
                f'({_label(other)} is {d:.2f}" away) (7.2)'
            )
    return None


def _access_parts(kz: Killzone) -> list[int]:
    return [i for i, p in enumerate(kz.parts) if kz.features[p.feature] in kz.hatchways]


def _accessible_parts(kz: Killzone) -> list[int]:
    return np.flatnonzero(kz.flags[TerrainType.ACCESSIBLE]).tolist()


def _near_parts(
    kz: Killzone, shape: BaseGeometry, parts: list[int], distance: float, what: str
) -> str | None:
    for i in parts:
        d = float(shape.distance(kz.parts[i].polygon))
        if d <= distance + _TOL:
            name = kz.features[kz.parts[i].feature]
            return (
                f'it must be set up more than {distance:g}" from {what} ({name!r} is {d:.2f}" '
                "away) (7.2)"
            )
    return None


def too_close_to_access_points(
    kz: Killzone, shape: BaseGeometry, distance: float = ACCESS_POINT_DISTANCE
) -> str | None:
    """7.2: more than 2" (ladders: 1") from access points (the hatchways of close quarters
    killzones, 9.3, open or closed)."""
    return _near_parts(kz, shape, _access_parts(kz), distance, "access points")


def too_close_to_accessible_terrain(
    kz: Killzone, shape: BaseGeometry, distance: float = ACCESS_POINT_DISTANCE
) -> str | None:
    """7.2 (barricades, razor wire, mines): more than 2" from Accessible terrain."""
    return _near_parts(kz, shape, _accessible_parts(kz), distance, "Accessible terrain")


def ladder_not_against_terrain(kz: Killzone, shape: BaseGeometry) -> str | None:
    """7.2 Ladders: upright against terrain at least 2" tall: the ladder's footprint touches
    (within :data:`~engine.rules.equipment.shapes.LADDER_AGAINST_TOUCH`) a part at least 2" high
    that is neither Wall (never climbed, 9.3) nor another ladder, and overlaps no part."""
    on_floor = not_on_killzone_floor(kz, shape)
    if on_floor is not None:
        return on_floor
    for i in kz.parts_near(shape, LADDER_AGAINST_TOUCH).tolist():
        part = kz.parts[i]
        if (
            part.height >= LADDER_MIN_TERRAIN_HEIGHT - _TOL
            and not kz.has_type(i, TerrainType.WALL)
            and not kz.has_type(i, TerrainType.LADDER)
        ):
            return None
    return 'a ladder must be set up upright against terrain at least 2" tall (7.2)'


def marker_too_close_to_markers(
    kz: Killzone,
    x: float,
    y: float,
    markers: Sequence[tuple[float, float]] = (),
    distance: float = MINE_DISTANCE,
) -> str | None:
    """7.2 Mines: more than 2" from other markers: the objective markers of ``kz`` (40 mm) and
    the equipment markers centred on ``markers`` (20 mm), edge to edge."""
    r = MARKER_DIAMETER_MM / MM_PER_INCH / 2
    others = [
        (o.position, OBJECTIVE_DIAMETER_MM, f"objective marker {o.name!r}") for o in kz.objectives
    ]
    others += [((mx, my), MARKER_DIAMETER_MM, "an equipment marker") for mx, my in markers]
    for (mx, my), dia, what in others:
        d = math.hypot(x - mx, y - my) - r - dia / MM_PER_INCH / 2
        if d <= distance + _TOL:
            return (
                f'it must be set up more than {distance:g}" from other markers ({what} is '
                f'{max(d, 0.0):.2f}" away) (7.2)'
            )
    return None


# -------------------------------------------------------------------------------------------
# All the checks of one kind
# -------------------------------------------------------------------------------------------


def equipment_placement_problem(
    kz: Killzone,
    kind: str,
    x: float,
    y: float,
    angle: float = 0.0,
    *,
    territory: BaseGeometry | None,
    drop_zone: BaseGeometry | None = None,
    others: Others = (),
    markers: Sequence[tuple[float, float]] = (),
) -> str | None:
    """Why equipment ``kind`` cannot be set up at ``(x, y)`` turned ``angle`` degrees, or
    ``None`` when every restriction of 7.2 for that kind holds:

    - barricades and razor wire: wholly within the territory; on the killzone floor; more than
      2" from other equipment terrain, access points and Accessible terrain;
    - Heavy Barricade: the same, but wholly within 4" of the drop zone instead of the
      territory;
    - Ladder: wholly within the territory; upright against terrain at least 2" tall; more
      than 2" from other equipment terrain and more than 1" from access points;
    - Ammo Cache, Comms Device: wholly within the territory (and, the project's choice, on
      the floor); Mines also more than 2" from other markers, access points and Accessible
      terrain.

    Args:
        kz: the killzone without the item (module docstring).
        kind: a key of :data:`engine.rules.equipment.shapes.KINDS`.
        x, y, angle: the centre (inches) and the turn (degrees anticlockwise; markers ignore
            it).
        territory: the player's territory; ``None`` skips that check (re-placing a portable
            barricade during the battle, 7.2 Move with Barricade), the item must then be
            wholly on the board.
        drop_zone: the player's drop zone (required for ``heavy_barricade``).
        others: the equipment terrain already set up (both players').
        markers: centres of the equipment markers already set up (for Mines).

    Raises:
        ValueError: an unknown kind, a non-finite number, or no drop zone for a Heavy
            Barricade.
    """
    shape = equipment_footprint(kind, x, y, angle)
    return _problem(kz, kind, shape, x, y, territory, drop_zone, others, markers)


def _problem(
    kz: Killzone,
    kind: str,
    shape: BaseGeometry,
    x: float,
    y: float,
    territory: BaseGeometry | None,
    drop_zone: BaseGeometry | None,
    others: Others,
    markers: Sequence[tuple[float, float]],
) -> str | None:
    """:func:`equipment_placement_problem` with the footprint already built: the checks in
    order, the first failing one answered (the later ones are not computed)."""
    checks: list[Callable[[], str | None]] = []
    if kind == "heavy_barricade":
        if drop_zone is None:
            raise ValueError("a Heavy Barricade's placement needs its player's drop zone")
        checks.append(lambda: not_within_drop_zone_reach(shape, drop_zone))
    elif territory is not None:
        checks.append(lambda: not_wholly_within_territory(shape, territory))
    checks.append(
        lambda: None if kz.board.covers(shape) else "it must be set up wholly on the killzone (7.2)"
    )
    if kind == "ladder":
        checks.append(lambda: ladder_not_against_terrain(kz, shape))
        checks.append(lambda: too_close_to_equipment_terrain(shape, others))
        checks.append(lambda: too_close_to_access_points(kz, shape, LADDER_ACCESS_POINT_DISTANCE))
    elif kind in TERRAIN_KINDS:
        checks.append(lambda: not_on_killzone_floor(kz, shape))
        checks.append(lambda: too_close_to_equipment_terrain(shape, others))
        checks.append(lambda: too_close_to_access_points(kz, shape))
        checks.append(lambda: too_close_to_accessible_terrain(kz, shape))
    else:
        checks.append(lambda: not_on_killzone_floor(kz, shape))
        if kind == "mines":
            checks.append(lambda: marker_too_close_to_markers(kz, x, y, markers))
            checks.append(lambda: too_close_to_access_points(kz, shape))
            checks.append(lambda: too_close_to_accessible_terrain(kz, shape))
    for check in checks:
        problem = check()
        if problem is not None:
            return problem
    return None


# -------------------------------------------------------------------------------------------
# Candidate placements for agents
# -------------------------------------------------------------------------------------------

SPOT_STEP = 1.0
"""Spacing (inches) of the grid of candidate centres."""

MAX_SPOTS = 24
"""The most candidate placements :func:`equipment_spots` returns by default."""


def _grid(area: BaseGeometry, step: float) -> list[tuple[float, float]]:
    minx, miny, maxx, maxy = area.bounds
    xs = np.arange(math.floor(minx) + step / 2, maxx, step)
    ys = np.arange(math.floor(miny) + step / 2, maxy, step)
    return [(round(float(x), 3), round(float(y), 3)) for x in xs for y in ys]


def _ladder_candidates(kz: Killzone) -> list[tuple[float, float, float]]:
    """Spots against the axis-aligned sides of every part at least 2" tall, every inch."""
    shape = SHAPES["ladder"]
    gap = shape.depth / 2 + LADDER_AGAINST_TOUCH / 4
    out: list[tuple[float, float, float]] = []
    for i, part in enumerate(kz.parts):
        if part.height < LADDER_MIN_TERRAIN_HEIGHT - _TOL or kz.has_type(i, TerrainType.WALL):
            continue
        ring = np.asarray(shapely.orient_polygons(part.polygon).exterior.coords)
        for (x0, y0), (x1, y1) in zip(ring[:-1].tolist(), ring[1:].tolist(), strict=True):
            length = math.hypot(x1 - x0, y1 - y0)
            if length < shape.length - _TOL or (abs(x1 - x0) > _TOL and abs(y1 - y0) > _TOL):
                continue
            ux, uy = (x1 - x0) / length, (y1 - y0) / length
            nx, ny = uy, -ux  # outward normal of an anticlockwise exterior
            angle = 0.0 if abs(uy) <= _TOL else 90.0
            steps = int((length - shape.length) // 1.0)
            for k in range(steps + 1):
                s = shape.length / 2 + k + ((length - shape.length) - steps) / 2
                out.append(
                    (round(x0 + ux * s + nx * gap, 3), round(y0 + uy * s + ny * gap, 3), angle)
                )
    return out


Spot = tuple[float, float, float]


def _spread(cands: list[Spot], limit: int, passes: Callable[[Spot], bool]) -> list[Spot]:
    """At most ``limit`` of ``cands`` (sorted) that ``passes``, spread out: the first that
    passes, then repeatedly the one farthest from those chosen (ties: the first in order),
    each checked by ``passes`` when it is picked; returned sorted."""
    if not cands:
        return []
    xy = np.asarray([(c[0], c[1]) for c in cands], dtype=float)
    dist = np.full(len(cands), math.inf)
    chosen: list[int] = []
    while len(chosen) < limit:
        k = int(np.argmax(dist))
        if dist[k] < 0:
            break  # every candidate is chosen or fails
        if not passes(cands[k]):
            dist[k] = -1.0
            continue
        chosen.append(k)
        dist = np.where(
            dist < 0, dist, np.minimum(dist, np.hypot(xy[:, 0] - xy[k, 0], xy[:, 1] - xy[k, 1]))
        )
        dist[k] = -1.0
    return [cands[k] for k in sorted(chosen)]


def equipment_spots(
    kz: Killzone,
    kind: str,
    territory: BaseGeometry,
    drop_zone: BaseGeometry | None = None,
    others: Others = (),
    markers: Sequence[tuple[float, float]] = (),
    *,
    limit: int = MAX_SPOTS,
) -> list[tuple[float, float, float]]:
    """Deterministic candidate placements ``(x, y, angle)`` (inches, degrees) of equipment
    ``kind`` that pass :func:`equipment_placement_problem`, for agents.

    Candidates: centres on a 1" grid over the territory (for a Heavy Barricade, over the
    area within 4" of the drop zone) at angles 0 and 90 (markers: 0 only); for ladders,
    spots against the axis-aligned sides of every part at least 2" tall, every inch. Of
    those that pass, at most ``limit`` spread over the area (the first in (x, y, angle)
    order, then repeatedly the one farthest from those chosen), sorted by (x, y, angle).

    Args:
        kz, kind, territory, drop_zone, others, markers: as for
            :func:`equipment_placement_problem`.
        limit: the most spots returned.

    Memoised on the killzone value (its private ``_cache``) by the arguments.

    Raises:
        ValueError: as :func:`equipment_placement_problem`.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown equipment {kind!r} (known: {', '.join(KINDS)})")
    key = (
        kind,
        shapely.to_wkb(territory),
        None if drop_zone is None else shapely.to_wkb(drop_zone),
        tuple(o if isinstance(o, FeatureSpec) else shapely.to_wkb(o) for o in others),
        tuple((float(x), float(y)) for x, y in markers),
        limit,
    )
    memo = _memo(kz, _SPOTS_KEY)
    found = memo.get(key)
    if found is None:
        with paused_gc():  # thousands of footprints at once
            found = memo[key] = _spots(kz, kind, territory, drop_zone, others, markers, limit)
    return list(found)


def _spots(
    kz: Killzone,
    kind: str,
    territory: BaseGeometry,
    drop_zone: BaseGeometry | None,
    others: Others,
    markers: Sequence[tuple[float, float]],
    limit: int,
) -> list[Spot]:
    if kind == "ladder":
        cands = _ladder_candidates(kz)
    else:
        if kind == "heavy_barricade":
            if drop_zone is None:
                raise ValueError("a Heavy Barricade's placement needs its player's drop zone")
            area = drop_zone.buffer(DROP_ZONE_REACH).intersection(kz.board)
        else:
            area = territory
        angles = (0.0,) if kind in MARKER_KINDS else (0.0, 90.0)
        cands = [(x, y, a) for x, y in _grid(area, SPOT_STEP) for a in angles]
    cands.sort()
    keep, shapes = _checked(kz, kind, cands, territory, drop_zone, others)
    ok_idx = np.flatnonzero(keep).tolist()
    ok = [cands[i] for i in ok_idx]
    shape_of = dict(zip(ok, shapes[ok_idx].tolist(), strict=True))

    def passes(c: Spot) -> bool:
        # The prefilter made every check but these two (the same GEOS operations).
        if kind == "ladder":
            return ladder_not_against_terrain(kz, shape_of[c]) is None
        if kind == "mines":
            return marker_too_close_to_markers(kz, c[0], c[1], markers) is None
        return True

    return _spread(ok, limit, passes)


_SPOTS_KEY = "equipment.spots"
_MEMO_SIZE = 256


def _memo(kz: Killzone, key: str) -> dict[Any, Any]:
    memo: dict[Any, Any] = kz._cache.setdefault(key, {})
    if len(memo) > _MEMO_SIZE:
        memo.clear()
    return memo


def _quantised(values: NDArray[np.float64]) -> NDArray[np.float64]:
    """:func:`engine.geometry.model.quantise` of every value: the nearest multiple of the
    0.001" grid, as the float nearest to it (the same floats, ties to even as ``round``,
    never -0.0)."""
    # ``+ 0.0`` turns -0.0 into 0.0: quantise never answers -0.0 (``round`` gives an int).
    return np.rint(values / QUANTUM) / round(1 / QUANTUM) + 0.0


def _footprints(kind: str, cands: list[Spot]) -> NDArray[np.object_]:
    """The footprints of the candidates, the same polygons :func:`equipment_footprint`
    builds one by one (the same corners in the same order, by the same arithmetic), built
    at once: a marker's disc around each centre; an equipment terrain feature's rectangle
    (its one part, :func:`engine.rules.equipment.shapes.equipment_parts`) turned by each
    distinct angle."""
    n = len(cands)
    xy = np.asarray([(c[0], c[1]) for c in cands], dtype=float).reshape(n, 2)
    if kind in MARKER_KINDS:
        # The disc at the origin moved: GEOS puts the corners of a point's buffer at the
        # centre plus the offsets it puts them at around the origin, so the same floats.
        disc = np.asarray(marker_disc(0.0, 0.0).exterior.coords)
        return cast(NDArray[np.object_], shapely.polygons(disc[None, :, :] + xy[:, None, :]))
    shape = SHAPES[kind]
    hl, hd = shape.length / 2, shape.depth / 2
    u = np.asarray([-hl, hl, hl, -hl, -hl])
    v = np.asarray([-hd, -hd, hd, hd, -hd])
    angles = np.asarray([c[2] for c in cands], dtype=float)
    ring = np.empty((n, 5, 2))
    for angle in sorted(set(angles.tolist())):
        rad = math.radians(angle)
        c, s = math.cos(rad), math.sin(rad)
        sel = angles == angle
        x, y = xy[sel, 0:1], xy[sel, 1:2]
        # The operations of equipment._rectangle, in its order: x + u*c - v*s, y + u*s + v*c.
        ring[sel, :, 0] = _quantised(x + u * c - v * s)
        ring[sel, :, 1] = _quantised(y + u * s + v * c)
    return cast(NDArray[np.object_], shapely.polygons(ring))


def _prefilter(
    kz: Killzone,
    kind: str,
    cands: list[Spot],
    territory: BaseGeometry,
    drop_zone: BaseGeometry | None,
    others: Others,
) -> NDArray[np.bool_]:
    """Which candidates may pass: the checks of :func:`equipment_placement_problem` that
    apply to many candidates at once, in the same GEOS operations vectorised (so the same
    answers); the rest (ladders against terrain, mines and markers) is left to the check of
    each spot chosen."""
    return _checked(kz, kind, cands, territory, drop_zone, others)[0]


def _checked(
    kz: Killzone,
    kind: str,
    cands: list[Spot],
    territory: BaseGeometry,
    drop_zone: BaseGeometry | None,
    others: Others,
) -> tuple[NDArray[np.bool_], NDArray[np.object_]]:
    """:func:`_prefilter` and the candidates' footprints. Each check is applied only to the
    candidates every earlier one let through (the cheapest first). A candidate passes when
    it passes every check, each an elementwise test of its footprint against one geometry,
    so the checks against the area, the board and the layout's own parts (the same objects
    in every terrain and hatchway variant of the layout) are remembered on the layout
    (:class:`_FixedChecks`) and only those against other equipment and added parts are
    computed each time."""
    n = len(cands)
    if n == 0:
        return np.zeros(0, dtype=bool), np.zeros(0, dtype=object)
    fixed = _FixedChecks.of(kz, kind, cands, territory, drop_zone)
    shapes = fixed.shapes
    ok = fixed.base.copy()

    def narrow(test: Callable[[NDArray[np.object_]], NDArray[np.bool_]]) -> None:
        idx = np.flatnonzero(ok)
        if idx.size:
            ok[idx] = test(shapes[idx])

    def farther(geometry: BaseGeometry, distance: float) -> None:
        narrow(lambda sh: np.asarray(shapely.distance(sh, geometry), dtype=float) > distance)

    if kind in TERRAIN_KINDS:
        for other in others:
            farther(_shape(other), EQUIPMENT_DISTANCE + _TOL)
    access = ACCESS_POINT_DISTANCE
    parts = _access_parts(kz)
    if kind == "ladder":
        access = LADDER_ACCESS_POINT_DISTANCE
    elif kind in TERRAIN_KINDS or kind == "mines":
        parts = sorted({*parts, *_accessible_parts(kz)})
    else:
        parts = []
    for i in parts:
        if fixed.shares(kz, i):
            ok &= fixed.farther(i, access + _TOL)
        else:
            farther(kz.parts[i].polygon, access + _TOL)
    if kind != "ladder":
        ok &= fixed.on_floor()
        added = [i for i in range(len(kz.parts)) if not fixed.shares(kz, i)]

        def on_added(sh: NDArray[np.object_]) -> NDArray[np.bool_]:
            keep = np.ones(len(sh), dtype=bool)
            for i in added:
                poly = kz.parts[i].polygon
                hit = np.flatnonzero(np.asarray(shapely.intersects(sh, poly), dtype=bool))
                if hit.size:
                    areas = shapely.area(shapely.intersection(poly, sh[hit]))
                    keep[hit[areas > _OVERLAP_AREA]] = False
            return keep

        if added:
            narrow(on_added)
    return ok, shapes


@attrs.frozen(slots=True, eq=False)
class _FixedChecks:
    """The checks of :func:`_checked` that depend only on the candidates and the layout's
    own parts, for one list of candidates of one kind, remembered on the layout as loaded
    (:meth:`of`) and computed on first use.

    Attributes:
        layout: the layout (its parts are the first parts of every variant made from it).
        shapes: the candidates' footprints.
        base: which candidates lie within the area (territory, or 4" of the drop zone for a
            Heavy Barricade) and on the board.
    """

    layout: Killzone
    shapes: NDArray[np.object_]
    base: NDArray[np.bool_]
    _far: dict[tuple[int, float], NDArray[np.bool_]] = attrs.field(factory=dict)
    _floor: list[NDArray[np.bool_]] = attrs.field(factory=list)

    @classmethod
    def of(
        cls,
        kz: Killzone,
        kind: str,
        cands: list[Spot],
        territory: BaseGeometry,
        drop_zone: BaseGeometry | None,
    ) -> _FixedChecks:
        layout = kz.hatch_root if kz.hatch_root is not None else kz
        layout = layout.terrain_root if layout.terrain_root is not None else layout
        key = (
            kind,
            shapely.to_wkb(territory),
            None if drop_zone is None else shapely.to_wkb(drop_zone),
            tuple(cands),
        )
        memo = _memo(layout, _CHECKS_KEY)
        found = memo.get(key)
        if found is None:
            shapes = _footprints(kind, cands)
            if kind == "heavy_barricade":
                assert drop_zone is not None
                area = drop_zone.buffer(DROP_ZONE_REACH + _TOL, quad_segs=32)
            else:
                area = territory.buffer(_TOL, join_style="mitre")
            shapely.prepare(area)
            shapely.prepare(kz.board)
            base = np.asarray(shapely.covers(area, shapes), dtype=bool)
            idx = np.flatnonzero(base)
            base[idx] = np.asarray(shapely.covers(kz.board, shapes[idx]), dtype=bool)
            found = memo[key] = cls(layout, shapes, base)
        return cast(_FixedChecks, found)

    def shares(self, kz: Killzone, i: int) -> bool:
        """Whether part ``i`` of ``kz`` is the layout's part ``i`` (the same object)."""
        parts = self.layout.parts
        return i < len(parts) and kz.parts[i] is parts[i]

    def farther(self, i: int, distance: float) -> NDArray[np.bool_]:
        """Which candidates (of :attr:`base`; the others False) lie more than ``distance``
        inches from the layout's part ``i``."""
        got = self._far.get((i, distance))
        if got is None:
            got = np.zeros(self.base.size, dtype=bool)
            idx = np.flatnonzero(self.base)
            poly = self.layout.parts[i].polygon
            got[idx] = np.asarray(shapely.distance(self.shapes[idx], poly), dtype=float) > distance
            self._far[(i, distance)] = got
        return got

    def on_floor(self) -> NDArray[np.bool_]:
        """Which candidates (of :attr:`base`; the others False) overlap none of the layout's
        parts (an overlap of at most 1e-6 square inches is touching)."""
        if not self._floor:
            kz = self.layout
            keep = self.base.copy()
            idx = np.flatnonzero(keep)
            sh = self.shapes[idx]
            li, pi = kz.tree.query(sh, predicate="intersects")
            if li.size:
                polys = np.asarray([kz.parts[int(i)].polygon for i in pi], dtype=object)
                areas = shapely.area(shapely.intersection(polys, sh[li]))
                keep[idx[li[areas > _OVERLAP_AREA]]] = False
            self._floor.append(keep)
        return self._floor[0]


_CHECKS_KEY = "equipment.spot_checks"


def portable_barricade_spots(kz: Killzone, operative: Placement, others: Others = ()) -> list[Spot]:
    """Where a portable barricade can be re-placed connected to ``operative`` (7.2 Move with
    Barricade): its long side against the base on each of the four sides (angle 0 north and
    south of it, angle 90 east and west), each passing :func:`equipment_placement_problem`
    without the territory restriction (on the floor, more than 2" from other equipment
    terrain ``others``, access points and Accessible terrain); sorted by (x, y, angle). Empty
    when none fits (the barricade is then lost) or the operative is not on the floor.

    Args:
        kz: the killzone without the barricade being moved.
        operative: the operative that moved with it (its final placement).
        others: the other equipment terrain.
    """
    if operative.elevation > 1e-6:
        return []
    shape = SHAPES["portable_barricade"]
    off = operative.radius + shape.depth / 2 + LADDER_AGAINST_TOUCH / 4
    x, y = operative.x, operative.y
    cands = [(x, y + off, 0.0), (x, y - off, 0.0), (x + off, y, 90.0), (x - off, y, 90.0)]
    out = []
    for cx, cy, a in cands:
        cx, cy = quantise(cx), quantise(cy)
        problem = equipment_placement_problem(
            kz, "portable_barricade", cx, cy, a, territory=None, others=others
        )
        if problem is None:
            out.append((cx, cy, a))
    return sorted(out)
