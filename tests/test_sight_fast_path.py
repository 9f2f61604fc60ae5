"""The fast sight path (``engine/geometry/sight_kernel.py``) gives exactly the answers of the
numpy reference in ``engine/geometry/sight.py`` (rules/KT24.md 4.3-4.5, 4.7, 9.3).

The fast path must not change a single game record, so every comparison here is equality:
``visible``, ``targeting`` (lines, origin, feature sets and verdicts), ``valid_target`` and
single sight lines, on thousands of seeded random placements (different bases and model
heights, on Vantage floors, near and inside terrain bounding boxes, on vertices and along
edges of parts, straight above and beside each other) on the shipped ``open_ruins`` and
``close_quarters`` (hatchways closed, open, mixed) and a made-up layout with every terrain
type (Blocking, Wall, Insignificant, Exposed, non-convex parts). The
reference is the expected value because it is the code the engine ran until now, and its own
behaviour is pinned by ``tests/test_sight.py`` and ``tests/test_geometry_close_quarters.py``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
import shapely

from engine.geometry import Killzone, Placement, load_killzone, sight, sight_kernel
from engine.geometry.model import TerrainType


def _rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]


def _mixed() -> Killzone:
    """Every terrain type, walls with a hatchway, non-convex parts."""
    wall = ["Wall", "Heavy"]

    def feature(name: str, *parts: tuple[Any, float, list[str]], **kw: Any) -> dict[str, Any]:
        return {
            "name": name,
            "parts": [{"polygon": p, "height": h, "types": t} for p, h, t in parts],
            **kw,
        }

    features = [
        feature("wall west", (_rect(8, 2, 8.5, 10), 5, wall), (_rect(8, 10, 14, 10.5), 5, wall)),
        feature("wall east", (_rect(20, 12, 20.5, 20), 5, wall)),
        {
            "name": "hatch",
            "hatchway": True,
            "parts": [
                {
                    "polygon": _rect(20, 10, 20.5, 12),
                    "height": 5,
                    "types": wall,
                    "open_types": ["Accessible", "Insignificant", "Exposed"],
                }
            ],
        },
        feature("pillar", (_rect(15, 15, 15.6, 15.6), 2.5, ["Blocking"])),
        feature("barricade", (_rect(3, 14, 6, 14.4), 1.0, ["Light"])),
        feature("crates", (_rect(24, 3, 26, 5), 1.5, ["Heavy", "Exposed"])),
        feature("rubble", (_rect(11, 16, 13, 18), 0.3, ["Insignificant"])),
        feature(
            "L ruin",
            ([[2, 2], [6, 2], [6, 3], [3, 3], [3, 7], [2, 7], [2, 2]], 4.0, ["Heavy"]),
            ([[3, 3], [6, 3], [6, 6], [3, 6], [3, 3]], 3.0, ["Vantage", "Heavy"]),
        ),
        feature("tower", ([[22, 15], [27, 16], [25, 20], [22, 15]], 3.5, ["Heavy"])),
        feature(
            "U ruin",
            (
                [[12, 3], [17, 3], [17, 8], [16, 8], [16, 4], [13, 4], [13, 8], [12, 8], [12, 3]],
                2.0,
                ["Heavy"],
            ),
        ),
    ]
    return Killzone.from_dict(
        {
            "name": "mixed",
            "features": features,
            "drop_zones": {"A": _rect(0, 0, 2, 22), "B": _rect(28, 0, 30, 22)},
            "objectives": [],
        }
    )


def _layouts() -> dict[str, Killzone]:
    cq = load_killzone("close_quarters")
    hatches = sorted(cq.hatchways)
    out = {
        "open_ruins": load_killzone("open_ruins"),
        "cq closed": cq,
        "cq open": cq.with_open_hatchways(hatches),
        "cq mixed": cq.with_open_hatchways(hatches[::2]),
    }
    mixed = _mixed()
    out["mixed"] = mixed
    out["mixed open"] = mixed.with_open_hatchways(["hatch"])
    return out


LAYOUTS = _layouts()
BASES = (25.0, 28.0, 32.0, 40.0, 50.0, 60.0)


def _placements(kz: Killzone, n: int, seed: int) -> list[Placement]:
    """``n`` seeded placements: anywhere on the board, near or inside parts' bounding boxes,
    on part vertices and edge lines, and on Vantage floors (at their height)."""
    rng = random.Random(seed)
    parts = kz.parts
    vantage = np.flatnonzero(kz.flags[TerrainType.VANTAGE])
    out: list[Placement] = []
    while len(out) < n:
        base = rng.choice(BASES)
        mh = rng.choice((1.0, 1.2, 1.5, 2.0, 2.6))
        kind = rng.random()
        if kind < 0.3:
            x, y, z = rng.uniform(0, kz.width), rng.uniform(0, kz.depth), 0.0
        elif kind < 0.6:
            b = parts[rng.randrange(len(parts))].polygon.bounds
            x = rng.uniform(b[0] - 1.5, b[2] + 1.5)
            y = rng.uniform(b[1] - 1.5, b[3] + 1.5)
            z = 0.0
        elif kind < 0.75:
            coords = list(parts[rng.randrange(len(parts))].polygon.exterior.coords)
            x, y = coords[rng.randrange(len(coords))]
            if rng.random() < 0.5:
                y += rng.uniform(-2, 2)
            z = 0.0
        elif vantage.size:
            part = parts[int(vantage[rng.randrange(vantage.size)])]
            b = part.polygon.bounds
            while True:
                x, y = rng.uniform(b[0], b[2]), rng.uniform(b[1], b[3])
                if part.polygon.covers(shapely.Point(x, y)):
                    break
            z = part.height
        else:
            x, y, z = rng.uniform(0, kz.width), rng.uniform(0, kz.depth), 0.0
        out.append(Placement(x, y, base_mm=base, elevation=z, model_height=mh))
    return out


def _pairs(kz: Killzone, n: int, seed: int) -> list[tuple[Placement, Placement]]:
    """Random pairs, plus pairs sharing an x or a y (sight lines parallel to the axes) and
    pairs one above the other."""
    ops = _placements(kz, n, seed)
    rng = random.Random(seed + 1)
    pairs = []
    for k in range(n):
        a, b = ops[k], ops[rng.randrange(n)]
        r = rng.random()
        if r < 0.1:
            b = b.moved(a.x, b.y, b.elevation)
        elif r < 0.2:
            b = b.moved(b.x, a.y, b.elevation)
        elif r < 0.23:
            b = b.moved(a.x, a.y, a.elevation + 3.0)
        pairs.append((a, b))
    return pairs


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_visible_is_the_reference(name: str) -> None:
    # Same boolean as the numpy core for every pair, both ways round (also what
    # within_control_range and valid_target build on).
    kz = LAYOUTS[name]
    seen = 0
    for a, b in _pairs(kz, 700, 1):
        for s, t in ((a, b), (b, a)):
            fast = sight.visible(kz, s, t)
            assert fast == sight._visible_reference(kz, s, t), (name, s, t)
            seen += fast
    assert 0 < seen < 1400  # both answers occur


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_targeting_is_the_reference(name: str) -> None:
    # Same chosen origin, lines, intervening / cover / obscuring features and verdicts.
    kz = LAYOUTS[name]
    covered = 0
    for a, b in _pairs(kz, 150, 2):
        fast = sight.targeting(kz, a, b)
        assert fast == sight._targeting_reference(kz, a, b), (name, a, b)
        covered += fast.in_cover or fast.obscured
    assert covered  # the cases where origins are compared occur


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_valid_target_is_the_reference(name: str) -> None:
    kz = LAYOUTS[name]
    rng = random.Random(3)
    for a, b in _pairs(kz, 150, 3):
        order = rng.choice(("engage", "conceal", "conceal"))
        seek = rng.choice((None, None, "light", "all"))
        assert sight.valid_target(kz, b, a, order, seek=seek) == sight._valid_target_reference(
            kz, b, a, order, seek=seek
        ), (name, a, b, order, seek)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_single_lines_are_the_reference(name: str) -> None:
    # Any segment, including vertical ones and ends inside or on the edge of a footprint:
    # the kernel's line test (used for objective markers) against the reference's.
    kz = LAYOUTS[name]
    parts = sight._parts(kz)
    table = sight_kernel.sight_table(kz, parts)
    rng = random.Random(4)
    ends = [(p.x, p.y) for p in _placements(kz, 400, 4)]
    p0 = np.asarray([(*ends[k], rng.uniform(0, 6)) for k in range(200)])
    p1 = np.asarray([(*ends[200 + k], rng.uniform(0, 6)) for k in range(200)])
    p1[:20, :2] = p0[:20, :2]  # straight up or down
    blocked = sight._blocked(parts, p0, p1)
    for k in range(200):
        head = (float(p0[k, 0]), float(p0[k, 1]), float(p0[k, 2]))
        point = (float(p1[k, 0]), float(p1[k, 1]), float(p1[k, 2]))
        assert sight_kernel.any_clear(table, head, [point]) == (not blocked[k]), (name, k)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_shadow_proof_is_sound(name: str) -> None:
    # Whenever the fast path's shortcut says a part hides a whole target, the reference
    # finds each of the 19 sight lines blocked by that part alone.
    kz = LAYOUTS[name]
    parts = sight._parts(kz)
    table = sight_kernel.sight_table(kz, parts)
    proved = 0
    for a, b in _pairs(kz, 250, 5):
        if a == b:
            continue
        hx, hy, hz = a.head
        for rec in table.sight:
            if not sight_kernel._shadows(table, rec, hx, hy, hz, b):
                continue
            proved += 1
            only = np.zeros(parts.bbox.shape[0], dtype=bool)
            only[rec[7]] = True
            pts = sight._target_points(b)
            head = np.broadcast_to(np.asarray(a.head), pts.shape)
            seg, part, low = sight._lowest_crossings(parts, head, pts, only)
            hit = np.where(parts.always_block[part], low < np.inf, low < parts.heights[part] - 1e-6)
            assert set(seg[hit].tolist()) == set(range(19)), (name, a, b, rec[7])
    assert proved


@pytest.mark.parametrize("name", ["open_ruins", "cq mixed", "mixed"])
def test_within_control_range_is_the_reference(name: str) -> None:
    # Pairs spread around 1" apart (the quick rejection of far pairs must not change a
    # verdict near the limit), in every direction and across elevations.
    kz = LAYOUTS[name]
    rng = random.Random(6)
    inside = 0
    for a in _placements(kz, 400, 6):
        b_mm = rng.choice(BASES)
        reach = (a.base_mm + b_mm) / 2 / 25.4 + rng.choice((0.0, 0.5, 1.0, 1.0, 1.5))
        reach += rng.choice((-1e-6, 0.0, 1e-6, 1e-3, -1e-3, rng.uniform(-0.5, 0.5)))
        ang = rng.choice((0.0, 90.0, 180.0, 270.0, rng.uniform(0, 360)))
        x = a.x + reach * np.cos(np.radians(ang))
        y = a.y + reach * np.sin(np.radians(ang))
        b = Placement(float(x), float(y), base_mm=b_mm, elevation=rng.choice((0.0, 0.0, 0.5)))
        fast = sight.within_control_range(kz, a, b)
        assert fast == sight._within_control_range_reference(kz, a, b), (name, a, b)
        inside += fast
    assert 0 < inside < 400
