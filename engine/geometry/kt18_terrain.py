"""KT18 terrain categories, dangerous terrain and falling geometry (``rules/KT18.md`` 10.1-10.9,
11.3 Traps).

Pure geometry on the shared killzone (inches). The game (Dangerous terrain tests, Falling
tests and their dice) is the rules layer's; this module says where a model is and where it
would fall.

Terrain categories (10.1). Every terrain part has one KT18 category, :func:`part_category`:

- the part's layout field ``kt18_terrain`` (``"open"``, ``"difficult"``, ``"dangerous"``,
  ``"impassable"``; :attr:`engine.geometry.model.TerrainPart.kt18_terrain`) when given;
- else from its KT24 types: **Wall** -> impassable (a close-quarters wall cannot be entered or
  crossed); **Obstructing** (razor wire, ``rules/KT24.md`` 7.2) -> difficult (it slows, it does
  not wound); everything else -> **open ground** (platforms, walkways, doors and hatches
  (Accessible), ladders, Insignificant and Exposed parts alike: 10.2 lists them as open
  ground, and KT24's cover traits have no KT18 movement meaning).

A difficult or dangerous *area* of the floor (a pool, a tar pit) is a part of height 0 (the
movement graph walks over it); on an upper level it is a Vantage part of that level's height.
A model is *in* a part when its base overlaps the part's footprint (positive area) and the
part's top is the surface it stands on (within 0.01" of its elevation).

Falling (10.7-10.9). The features a model can fall from are the Vantage parts (the engine's
agreement before the battle: the multi-level buildings and ruins). A model stands where it
could fall when it is on a Vantage level (elevation above 0) and its base is within 1"
(horizontally) of one of the level's *edges*: the outline of the parts of that height, less
where a higher part adjoins it (a wall rising above the level is not an edge; a neighbouring
part of the same height joins the level) and less the board's edge. It falls over the edge
by the shortest route (the nearest point of those edges to its base's centre, the base moved
on until it is wholly past that point) then straight down onto the highest Vantage part
under its centre lower than its level, or the killzone floor (a part of another type under it
is not a landing surface: the engine's reading).
"""

from __future__ import annotations

import itertools
import math
from typing import NamedTuple

import shapely
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from engine.geometry.model import Killzone, Placement, TerrainType

__all__ = [
    "CATEGORIES",
    "FALL_DIE_INCHES",
    "FALL_EDGE_DISTANCE",
    "FallLanding",
    "categories",
    "fall_dice",
    "fall_edge",
    "fall_landing",
    "ground_along",
    "in_dangerous_terrain",
    "in_difficult_terrain",
    "jump_down_dice",
    "jump_down_options",
    "part_category",
    "terrain_under",
]

CATEGORIES = ("open", "difficult", "dangerous", "impassable")
"""The KT18 terrain categories (10.1)."""
FALL_EDGE_DISTANCE = 1.0
"""A model within 1" of an edge it can fall from takes Falling tests (10.7)."""
FALL_DIE_INCHES = 3.0
"""One falling-damage die per full 3" fallen (10.8)."""

_LEVEL_TOL = 0.01  # a part's top within this of a base's elevation is its surface (inches)
_AREA_TOL = 1e-6  # a base overlaps a part when the overlap is larger than this (sq. inches)
_PAST = 0.001  # the landing base clears the edge by this much (the position grid)
_CACHE_KEY = "kt18.terrain"


def part_category(kz: Killzone, i: int) -> str:
    """The KT18 terrain category of part ``i`` (``rules/KT18.md`` 10.1; module docstring):
    ``"open"``, ``"difficult"``, ``"dangerous"`` or ``"impassable"``.

    Raises:
        IndexError: for a part index the killzone does not have.
    """
    return categories(kz)[i]


def categories(kz: Killzone) -> tuple[str, ...]:
    """Every part's KT18 category (:func:`part_category`), in part order (cached on ``kz``)."""
    known: tuple[str, ...] | None = kz._cache.get(_CACHE_KEY)
    if known is None:
        wall = kz.flags[TerrainType.WALL]
        obstructing = kz.flags[TerrainType.OBSTRUCTING]
        out = []
        for i, part in enumerate(kz.parts):
            if part.kt18_terrain:
                out.append(part.kt18_terrain)
            elif wall[i]:
                out.append("impassable")
            elif obstructing[i]:
                out.append("difficult")
            else:
                out.append("open")
        known = kz._cache[_CACHE_KEY] = tuple(out)
    return known


def _standing_in(kz: Killzone, p: Placement) -> list[int]:
    """The parts whose top is the surface ``p`` stands on and whose footprint its base
    overlaps."""
    base = p.footprint()
    out = []
    for i in kz.tree.query(base, predicate="intersects"):
        i = int(i)
        if abs(kz.heights[i] - p.elevation) > _LEVEL_TOL:
            continue
        if kz.parts[i].polygon.intersection(base).area > _AREA_TOL:
            out.append(i)
    return sorted(out)


def terrain_under(kz: Killzone, p: Placement, *, traps: bool = False) -> frozenset[str]:
    """The KT18 categories of the parts the model at ``p`` is in (module docstring; empty on
    plain open floor).

    Args:
        kz: the killzone.
        p: the model's placement (inches).
        traps: the Traps environment (``rules/KT18.md`` 11.3, reading (a)): every Vantage
            level above the floor is dangerous terrain.
    """
    cats = categories(kz)
    vantage = kz.flags[TerrainType.VANTAGE]
    out = set()
    for i in _standing_in(kz, p):
        out.add(cats[i])
        if traps and vantage[i] and kz.heights[i] > _LEVEL_TOL:
            out.add("dangerous")
    return frozenset(out)


def in_dangerous_terrain(kz: Killzone, p: Placement, *, traps: bool = False) -> bool:
    """Whether the model at ``p`` is in dangerous terrain (``rules/KT18.md`` 10.4; with
    ``traps``, 11.3's upper floors too; :func:`terrain_under`)."""
    return "dangerous" in terrain_under(kz, p, traps=traps)


def in_difficult_terrain(kz: Killzone, p: Placement) -> bool:
    """Whether the model at ``p`` is in difficult or dangerous terrain (both cost 2" per 1",
    ``rules/KT18.md`` 10.3, 10.4)."""
    return bool(terrain_under(kz, p) & {"difficult", "dangerous"})


def ground_along(
    kz: Killzone,
    radius: float,
    a: tuple[float, float],
    level_a: float,
    b: tuple[float, float],
    level_b: float,
    *,
    impassable: bool = True,
) -> tuple[str, float]:
    """What the KT18 terrain categories make of one straight increment of a move
    (``rules/KT18.md`` 10.3-10.5): ``(refusal, rough)``.

    ``refusal`` is ``""`` or why the increment is illegal: with ``impassable``, the base (of
    ``radius`` inches, swept along the centre line ``a -> b``; shrunk by 0.01" so a base
    sliding along a part's side does not enter it) enters an impassable part whose top is at
    or above the lower of the two levels (10.5). ``rough`` is the length of the centre line
    (inches) over difficult or dangerous parts whose top is one of the two levels (the
    surface walked on; 10.3, 10.4). The centre line stands for the base: the engine's reading
    of "moved through" (as KT24's Accessible terrain is counted).

    Args:
        kz: the killzone.
        radius: the base radius (inches).
        a, b: the centre's start and end (inches).
        level_a, level_b: the elevations of the start and the end (inches).
        impassable: whether to check impassable terrain.
    """
    cats = categories(kz)
    line = LineString([a, b]) if a != b else Point(a)
    low = min(level_a, level_b)
    if impassable:
        sweep = line.buffer(max(radius - _LEVEL_TOL, 1e-3))
        for i in kz.tree.query(sweep, predicate="intersects"):
            i = int(i)
            if cats[i] != "impassable" or kz.heights[i] < low - _LEVEL_TOL:
                continue
            if shapely.relate_pattern(sweep, kz.parts[i].polygon, "T********"):
                name = kz.features[kz.parts[i].feature]
                return f"the move enters impassable terrain {name!r} (KT18 10.5)", 0.0
    if a == b:
        return "", 0.0
    rough = []
    for i in kz.tree.query(line, predicate="intersects"):
        i = int(i)
        if cats[i] not in ("difficult", "dangerous"):
            continue
        h = kz.heights[i]
        if abs(h - level_a) <= _LEVEL_TOL or abs(h - level_b) <= _LEVEL_TOL:
            rough.append(kz.parts[i].polygon)
    if not rough:
        return "", 0.0
    return "", float(line.intersection(shapely.union_all(rough)).length)


class FallLanding(NamedTuple):
    """Where a falling model lands (``rules/KT18.md`` 10.7).

    Attributes:
        point: the centre of its base where it lands (inches).
        level: the elevation it lands at (inches; 0 for the killzone floor).
        height: how far it falls (inches; its elevation less ``level``).
    """

    point: tuple[float, float]
    level: float
    height: float


def _fall_edges(kz: Killzone, elevation: float) -> BaseGeometry:
    """The edges a model standing at ``elevation`` can fall from (module docstring): the
    boundary of the parts whose top is at that elevation, less where another part at least as
    high adjoins it and less the board's edge (cached per elevation)."""
    cache: dict[float, BaseGeometry] = kz._cache.setdefault(_CACHE_KEY + ".edges", {})
    known = cache.get(elevation)
    if known is None:
        level, high = [], []
        for i, part in enumerate(kz.parts):
            h = kz.heights[i]
            if abs(h - elevation) <= _LEVEL_TOL:
                level.append(part.polygon)
            elif h > elevation:
                high.append(part.polygon)
        if not level:
            known = shapely.GeometryCollection()
        else:
            known = shapely.union_all(level).boundary
            board = shapely.box(0, 0, kz.width, kz.depth).exterior
            known = known.difference(board.buffer(_PAST))
            if high:
                known = known.difference(shapely.union_all(high).buffer(_PAST))
        shapely.prepare(known)
        cache[elevation] = known
    return known


def _on_upper_level(kz: Killzone, p: Placement) -> bool:
    vantage = kz.flags[TerrainType.VANTAGE]
    return p.elevation > _LEVEL_TOL and any(vantage[i] for i in _standing_in(kz, p))


def fall_landing(kz: Killzone, p: Placement) -> FallLanding | None:
    """Where the model at ``p`` lands if it falls (``rules/KT18.md`` 10.7; module docstring),
    or ``None`` when it is not within 1" of an edge it can fall from.

    Args:
        kz: the killzone.
        p: the model's placement (inches), on a Vantage level.
    """
    if not _on_upper_level(kz, p):
        return None
    edges = _fall_edges(kz, p.elevation)
    if edges.is_empty:
        return None
    centre = Point(p.x, p.y)
    if p.footprint().distance(edges) > FALL_EDGE_DISTANCE + 1e-9:
        return None
    return _landing(kz, p, nearest_points(edges, centre)[0])


def _landing(kz: Killzone, p: Placement, edge: Point) -> FallLanding:
    """Over ``edge`` (a point of a fall edge) from ``p``'s centre, then straight down."""
    dx, dy = edge.x - p.x, edge.y - p.y
    length = math.hypot(dx, dy)
    if length <= 1e-9:
        x, y = edge.x, edge.y
    else:
        step = (p.radius + _PAST) / length
        x, y = edge.x + dx * step, edge.y + dy * step
    r = p.radius
    x = min(max(x, r), kz.width - r)
    y = min(max(y, r), kz.depth - r)
    level = 0.0
    vantage = kz.flags[TerrainType.VANTAGE]
    for i in kz.tree.query(Point(x, y), predicate="intersects"):
        i = int(i)
        h = float(kz.heights[i])
        if vantage[i] and h < p.elevation - _LEVEL_TOL and h > level:
            level = h
    return FallLanding((x, y), level, p.elevation - level)


def jump_down_options(kz: Killzone, p: Placement) -> tuple[FallLanding, ...]:
    """Where the model at ``p`` may jump down to (``rules/KT18.md`` 10.9): one landing per
    straight piece of an edge it could fall from within 1" of its base, over that piece by the
    shortest route then straight down (as :func:`fall_landing`), nearest first; empty when it
    could not fall. Whether the landing is free of models and more than 1" from enemies is
    the game's question (10.9).

    Args:
        kz: the killzone.
        p: the model's placement (inches), on a Vantage level.
    """
    if not _on_upper_level(kz, p):
        return ()
    edges = _fall_edges(kz, p.elevation)
    centre = Point(p.x, p.y)
    reach = p.radius + FALL_EDGE_DISTANCE + 1e-9
    found: dict[tuple[float, float], tuple[float, FallLanding]] = {}
    for piece in shapely.get_parts(edges):
        coords = list(piece.coords)
        for a, b in itertools.pairwise(coords):
            segment = LineString([a, b])
            d = segment.distance(centre)
            if d > reach:
                continue
            landing = _landing(kz, p, nearest_points(segment, centre)[0])
            key = (round(landing.point[0], 3), round(landing.point[1], 3))
            if key not in found or d < found[key][0]:
                found[key] = (d, landing)
    return tuple(v[1] for v in sorted(found.values(), key=lambda v: (v[0], v[1].point)))


def fall_edge(kz: Killzone, p: Placement) -> float | None:
    """How far the model at ``p`` would fall (inches) when it stands within 1" of an edge it
    can fall from (``rules/KT18.md`` 10.7), else ``None`` (:func:`fall_landing`)."""
    landing = fall_landing(kz, p)
    return None if landing is None else landing.height


def fall_dice(height: float) -> int:
    """The falling-damage dice for a fall of ``height`` inches: one per full 3"
    (``rules/KT18.md`` 10.8)."""
    return max(0, math.floor(height / FALL_DIE_INCHES + 1e-9))


def jump_down_dice(height: float) -> int:
    """The dice for jumping down ``height`` inches: a fall with one die fewer
    (``rules/KT18.md`` 10.9: 5" -> 0, 6" -> 1, 9" -> 2)."""
    return max(0, fall_dice(height) - 1)
