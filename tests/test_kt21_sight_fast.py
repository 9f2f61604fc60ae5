"""The fast KT21 cover lines (engine.geometry.kt21_sight._evaluate, on the numpy kernel of
engine.geometry.kt21_cover_lines) give exactly the verdicts of the straightforward line-by-line
version kept as the reference (_evaluate_reference): rules/KT21.md 8.2-8.4, 8.6, decision 4.

The reference is the independent oracle: it asks shapely for every crossing of every line
with every part, one line at a time, as the rules read (module docstring of kt21_sight). The
positions are random (seeded) over the shipped layouts, on the floor and on Vantage parts,
with other operatives' bases about, plus the edge cases the fast clipping hands to shapely
(a line along a part's edge, through its corner) and a part that is not convex."""

from __future__ import annotations

import random
from typing import Any

import pytest
from shapely.geometry import Point, Polygon

from engine.geometry import Placement, kt21_cover_lines, load_killzone
from engine.geometry import kt21_sight as g
from engine.geometry.kt21_cover_lines import convex_edges
from engine.geometry.model import Killzone, TerrainType

BASES = (25.0, 28.0, 32.0, 40.0, 50.0)


def _vantage_spots(kz: Killzone) -> list[int]:
    return [i for i in range(len(kz.parts)) if TerrainType.VANTAGE in kz.part_types(i)]


def _random_place(kz: Killzone, rng: random.Random, vantage: list[int]) -> Placement:
    """A base on the floor or (one time in three) on a Vantage part, its centre over it."""
    base = rng.choice(BASES)
    if vantage and rng.random() < 1 / 3:
        part = kz.parts[rng.choice(vantage)]
        x0, y0, x1, y1 = part.polygon.bounds
        for _ in range(50):
            x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
            if part.polygon.covers(Point(x, y)):
                return Placement(x, y, base, part.height, rng.choice((1.0, 1.5, 2.5)))
    return Placement(rng.uniform(1, kz.width - 1), rng.uniform(1, kz.depth - 1), base, 0.0, 1.5)


def _layouts() -> list[tuple[str, Killzone]]:
    out = []
    for name in ("open_ruins", "close_quarters"):
        kz = load_killzone(name)
        out.append((name, kz))
        if kz.hatchways:  # the other hatchway state: parts change their traits
            out.append((f"{name} (hatchways open)", kz.with_open_hatchways(kz.hatchways)))
    return out


@pytest.mark.parametrize(("name", "kz"), _layouts(), ids=lambda v: v if isinstance(v, str) else "")
def test_fast_cover_lines_equal_the_reference_on_random_pairs(name: str, kz: Killzone) -> None:
    """8.2-8.4, 8.6: for random visible pairs (and a few bases between them able to give
    Cover), every origin's verdict (Obscured, in Cover, Light only, which parts and which
    bases) is the reference's, so the shooter picks the same origin (decision 4)."""
    rng = random.Random(f"kt21 sight {name}")
    vantage = _vantage_spots(kz)
    checked = covered = obscured = 0
    for _ in range(20000):
        if checked >= 200:
            break
        s = _random_place(kz, rng, vantage)
        t = _random_place(kz, rng, vantage)
        if s == t or not g.visible(kz, s, t):
            continue
        others = []
        for _ in range(rng.randint(0, 3)):  # bases on the way between them
            u = rng.uniform(0.15, 0.85)
            others.append(
                Placement(
                    s.x + u * (t.x - s.x) + rng.uniform(-1, 1),
                    s.y + u * (t.y - s.y) + rng.uniform(-1, 1),
                    rng.choice(BASES),
                    0.0,
                    rng.choice((0.3, 1.5)),
                )
            )
        fast = g._evaluate(kz, s, t, tuple(others))
        assert fast == g._evaluate_reference(kz, s, t, tuple(others)), (s, t, others)
        checked += 1
        covered += any(v.in_cover for v in fast.origins)
        obscured += any(v.obscured for v in fast.origins)
    assert checked >= 200
    assert covered and obscured  # the sample exercises both answers


def _flat(*parts: tuple[list[list[float]], float, list[str]]) -> Killzone:
    """A 30" x 22" killzone with one feature per part ``(polygon, height, types)``."""
    return Killzone.from_dict(
        {
            "name": "kt21_sight_fast_test",
            "version": "1",
            "drop_zones": {
                "A": [[0, 0], [3, 0], [3, 22], [0, 22], [0, 0]],
                "B": [[27, 0], [30, 0], [30, 22], [27, 22], [27, 0]],
            },
            "objectives": [{"name": "centre", "position": [15, 20]}],
            "features": [
                {"name": f"f{k}", "parts": [{"polygon": poly, "height": h, "types": ty}]}
                for k, (poly, h, ty) in enumerate(parts)
            ],
        }
    )


def test_lines_along_an_edge_and_through_a_corner_equal_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """8.2, 8.3: a cover line running exactly along a Heavy part's edge (the centres' line
    y = 11 along the edge y = 11 of the first part) or touching only a part's corner (the
    centres' line y = x - 5 touches the corner (14, 9) of the second) still meets it
    (shapely's footprints are closed); the fast clipping cannot tell those from a miss by
    rounding, hands them to shapely, and the verdicts are the reference's."""
    kz = _flat(
        ([[9, 11], [10, 11], [10, 13], [9, 13], [9, 11]], 2.0, ["Heavy"]),
        ([[14, 8], [15, 8], [15, 9], [14, 9], [14, 8]], 2.0, ["Light"]),
    )
    asked = []
    real = kt21_cover_lines.pieces_many

    def spy(starts: Any, ends: Any, geom: Any) -> Any:
        asked.append(len(starts))
        return real(starts, ends, geom)

    monkeypatch.setattr(kt21_cover_lines, "pieces_many", spy)
    for s, t in (
        (Placement(4, 11, 28), Placement(24, 11, 28)),
        (Placement(10, 5, 28), Placement(16, 11, 28)),
    ):
        assert g.visible(kz, s, t)
        before = len(asked)
        assert g._evaluate(kz, s, t, ()) == g._evaluate_reference(kz, s, t, ())
        assert len(asked) > before  # (the reference's own calls do not go through the spy)


def test_a_part_that_is_not_convex_is_measured_by_shapely() -> None:
    """8.3, 8.4: an L-shaped Heavy part (not convex) is not clipped by half-planes (that
    would fill its notch); its crossings are shapely's and the verdicts are the
    reference's, including a line through the notch that crosses it twice."""
    ell = [[10, 8], [13, 8], [13, 9], [11, 9], [11, 14], [10, 14], [10, 8]]
    assert convex_edges(Polygon(ell)) is None
    assert convex_edges(Polygon([[0, 0], [1, 0], [1, 1], [0, 1]])) is not None
    kz = _flat((ell, 1.5, ["Heavy"]))
    rng = random.Random("kt21 sight ell")
    for _ in range(40):
        s = Placement(rng.uniform(1, 8), rng.uniform(3, 19), 32)
        t = Placement(rng.uniform(12, 29), rng.uniform(3, 19), 32)
        if g.visible(kz, s, t):
            assert g._evaluate(kz, s, t, ()) == g._evaluate_reference(kz, s, t, ())
