"""The memo of :func:`engine.geometry.sight.marker_in_control_range` changes no answer.

The function is pure (the killzone is a value; the answer depends only on the placement's
fields and the marker's centre and size), so remembering its answers on the killzone must
give, for any query, exactly what the computation gives (``_marker_in_control_range``, the
reference kept beside it), and the memo must stay within its bound.
"""

from __future__ import annotations

import random

from engine.geometry import Placement, load_killzone, sight


def test_marker_control_memo_gives_the_computed_answer() -> None:
    """2,000 random placements (bases 25-50 mm, on the floor and raised) against random
    20 mm and 40 mm markers on both shipped killzones, each asked twice (the second answer
    comes from the memo): every answer equals the reference computation, and both answers
    occur (the sample is not trivially all-outside)."""
    rng = random.Random(28)
    seen = set()
    for name in ("open_ruins", "close_quarters"):
        kz = load_killzone(name)
        for _ in range(1000):
            mx, my = rng.uniform(1, kz.width - 1), rng.uniform(1, kz.depth - 1)
            place = Placement(
                mx + rng.uniform(-2.5, 2.5),
                my + rng.uniform(-2.5, 2.5),
                base_mm=rng.choice((25.0, 32.0, 40.0, 50.0)),
                elevation=rng.choice((0.0, 0.0, 0.0, 1.0, 3.0)),
            )
            size = rng.choice((20.0, 40.0))
            expected = sight._marker_in_control_range(kz, place, (mx, my), size)
            first = sight.marker_in_control_range(kz, place, (mx, my), size)
            second = sight.marker_in_control_range(kz, place, (mx, my), size)
            assert first == second == expected
            seen.add(expected)
    assert seen == {True, False}


def test_marker_control_memo_is_bounded(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """With a bound of 8 answers, 50 different queries leave at most 8 in the memo."""
    monkeypatch.setattr(sight, "MARKER_CACHE_ENTRIES", 8)
    kz = load_killzone("open_ruins")
    for k in range(50):
        sight.marker_in_control_range(kz, Placement(5 + k * 0.1, 5), (6.0, 5.0), 40.0)
    assert len(kz._cache["marker_in_control_range"]) <= 8
