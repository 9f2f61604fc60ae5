"""The candidate-spot search of :func:`engine.rules.equipment.restrictions.equipment_spots`
as it was first written (one footprint built at a time through the equipment's parts, the
vectorised checks on every candidate), kept as a slow reference for the tests: the fast
search must give exactly the same spots (tests only)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry.base import BaseGeometry

from engine.geometry.model import Killzone
from engine.rules.equipment.restrictions import (
    SPOT_STEP,
    Others,
    Spot,
    _access_parts,
    _accessible_parts,
    _grid,
    _ladder_candidates,
    _shape,
    _spread,
    equipment_footprint,
    equipment_placement_problem,
)
from engine.rules.equipment.shapes import (
    ACCESS_POINT_DISTANCE,
    DROP_ZONE_REACH,
    EQUIPMENT_DISTANCE,
    LADDER_ACCESS_POINT_DISTANCE,
    MARKER_KINDS,
    TERRAIN_KINDS,
)

_TOL = 1e-6
_OVERLAP_AREA = 1e-6


def reference_spots(
    kz: Killzone,
    kind: str,
    territory: BaseGeometry,
    drop_zone: BaseGeometry | None = None,
    others: Others = (),
    markers: Sequence[tuple[float, float]] = (),
    limit: int = 24,
) -> list[Spot]:
    """The spots ``equipment_spots`` returns, computed the first way (not memoised)."""
    if kind == "ladder":
        cands = _ladder_candidates(kz)
    else:
        if kind == "heavy_barricade":
            assert drop_zone is not None
            area = drop_zone.buffer(DROP_ZONE_REACH).intersection(kz.board)
        else:
            area = territory
        angles = (0.0,) if kind in MARKER_KINDS else (0.0, 90.0)
        cands = [(x, y, a) for x, y in _grid(area, SPOT_STEP) for a in angles]
    cands.sort()
    keep = reference_prefilter(kz, kind, cands, territory, drop_zone, others)
    ok = [c for c, k in zip(cands, keep.tolist(), strict=True) if k]

    def passes(c: Spot) -> bool:
        problem = equipment_placement_problem(
            kz,
            kind,
            c[0],
            c[1],
            c[2],
            territory=territory,
            drop_zone=drop_zone,
            others=others,
            markers=markers,
        )
        return problem is None

    return _spread(ok, limit, passes)


def reference_footprints(kind: str, cands: list[Spot]) -> NDArray[np.object_]:
    """Each candidate's footprint, one :func:`equipment_footprint` at a time."""
    return np.asarray([equipment_footprint(kind, x, y, a) for x, y, a in cands], dtype=object)


def reference_prefilter(
    kz: Killzone,
    kind: str,
    cands: list[Spot],
    territory: BaseGeometry,
    drop_zone: BaseGeometry | None,
    others: Others,
) -> NDArray[np.bool_]:
    """Which candidates may pass, every vectorised check applied to every candidate."""
    n = len(cands)
    if n == 0:
        return np.zeros(0, dtype=bool)
    shapes = reference_footprints(kind, cands)
    ok = np.asarray(shapely.covers(kz.board, shapes), dtype=bool)
    if kind == "heavy_barricade":
        assert drop_zone is not None
        reach = drop_zone.buffer(DROP_ZONE_REACH + _TOL, quad_segs=32)
        ok &= np.asarray(shapely.covers(reach, shapes), dtype=bool)
    else:
        ok &= np.asarray(
            shapely.covers(territory.buffer(_TOL, join_style="mitre"), shapes), dtype=bool
        )
    if kind != "ladder":
        li, pi = kz.tree.query(shapes, predicate="intersects")
        if li.size:
            polys = np.asarray([kz.parts[int(i)].polygon for i in pi], dtype=object)
            areas = shapely.area(shapely.intersection(polys, shapes[li]))
            ok[li[areas > _OVERLAP_AREA]] = False
    if kind in TERRAIN_KINDS:
        for other in others:
            ok &= np.asarray(shapely.distance(shapes, _shape(other)), dtype=float) > (
                EQUIPMENT_DISTANCE + _TOL
            )
    access = ACCESS_POINT_DISTANCE
    parts = _access_parts(kz)
    if kind == "ladder":
        access = LADDER_ACCESS_POINT_DISTANCE
    elif kind in TERRAIN_KINDS or kind == "mines":
        parts = sorted({*parts, *_accessible_parts(kz)})
    else:
        parts = []
    for i in parts:
        d = np.asarray(shapely.distance(shapes, kz.parts[i].polygon), dtype=float)
        ok &= d > access + _TOL
    return ok
