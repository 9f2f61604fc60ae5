"""The ``why`` variants of the sight queries (``engine/geometry/sight_why.py``) agree with the
fast path they explain (rules/KT24.md 4.3-4.5, 4.7, 9.3).

``killteam explain`` prints the lines and parts these return, so the evidence must give the
verdict the game plays with, never a verdict of its own: on hundreds of seeded random pairs
on the shipped killzones and a made-up layout with every terrain type (the placements of
``tests/test_sight_fast_path.py``), the sight lines' blockers give ``visible`` (visible
exactly when some line is clear, 4.3), each origin's crossed parts give the origin's cover,
obscured and feature sets (4.5: cover from a cover part within 1" of the target; obscured by a
Heavy part whose part is more than 1" from both bases), the chosen origin is the one
``targeting`` uses, and the steps of ``valid_target`` give its answer.
"""

from __future__ import annotations

import random

import pytest

from engine.geometry import sight, sight_why
from tests.test_sight_fast_path import LAYOUTS, _pairs


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_visible_why_blockers_give_the_fast_verdict(name: str) -> None:
    # 4.3: visible when one sight line is unobstructed.
    kz = LAYOUTS[name]
    both = set()
    for a, b in _pairs(kz, 200, 11):
        why = sight_why.visible_why(kz, a, b)
        assert why.visible == sight.visible(kz, a, b)
        clear = a == b or any(line.clear for line in why.lines)  # (itself: always)
        assert why.visible == clear, (name, a, b)
        both.add(why.visible)
    assert both == {True, False}


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_targeting_why_evidence_gives_the_fast_verdict(name: str) -> None:
    # 4.4-4.5: the parts marked cover / obscuring make each origin's verdict; the chosen
    # origin is targeting()'s.
    kz = LAYOUTS[name]
    seen_cover = seen_obscured = 0
    for a, b in _pairs(kz, 120, 12):
        why = sight_why.targeting_why(kz, a, b)
        for ev in why.origins:
            v = ev.verdict
            cover = {r.feature for r in ev.rows if r.cover}
            obscuring = {r.feature for r in ev.rows if r.obscures}
            crossed = {r.feature for r in ev.rows if not r.passed}
            assert tuple(sorted(cover)) == v.cover_features, (name, a, b, ev.origin)
            assert tuple(sorted(obscuring)) == v.obscuring_features, (name, a, b)
            assert tuple(sorted(crossed)) == v.crossed, (name, a, b)
            assert v.cover == bool(cover - obscuring)
            assert v.cover_heavy == any(r.cover and not r.light_only for r in ev.rows)
        tg = why.targeting
        chosen = why.origins[why.chosen].verdict
        assert (chosen.cover, chosen.obscured) == (tg.in_cover, tg.obscured)
        assert why.lines[why.chosen][0][0][:2] == tg.origin
        seen_cover += tg.in_cover
        seen_obscured += tg.obscured
    assert seen_cover and seen_obscured


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_valid_target_why_steps_give_the_fast_verdict(name: str) -> None:
    # 4.5, 4.7: Engage needs visible; Conceal also an origin with no counted cover; Seek
    # ignores all cover, Seek Light (or Vantage 2" up) Light cover.
    kz = LAYOUTS[name]
    rng = random.Random(13)
    for a, b in _pairs(kz, 120, 13):
        order = rng.choice(("engage", "conceal", "conceal"))
        seek = rng.choice((None, None, "light", "all"))
        why = sight_why.valid_target_why(kz, b, a, order, seek=seek)
        by_steps = why.visible and (
            order == "engage" or seek == "all" or why.clear_origin is not None
        )
        assert why.valid == by_steps == sight.valid_target(kz, b, a, order, seek=seek)


def test_part_label_names_feature_part_and_types() -> None:
    # A feature of several parts names the part's number within it.
    kz = LAYOUTS["mixed"]
    labels = [sight_why.part_label(kz, p.index) for p in kz.parts]
    assert "L ruin, part 2 (Heavy, Vantage)" in labels
    assert "pillar (Blocking)" in labels


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_selection_targetings_give_valid_target_origin_by_origin(name: str) -> None:
    """4.5, 4.7: a visible Conceal target is valid when some origin has no counted cover;
    :func:`sight.selection_targetings` lists each origin's targeting and counted features,
    so a game rule can be applied per origin. With no rule applied, "some origin counts no
    feature" must be :func:`sight.valid_target`'s verdict, and each origin's cover features
    must be the targeting's (the counted ones among them)."""
    kz = LAYOUTS[name]
    rng = random.Random(17)
    for a, b in _pairs(kz, 80, 17):
        seek = rng.choice((None, "light", "all"))
        per_origin = sight.selection_targetings(kz, b, a, seek=seek)
        assert len(per_origin) == 5
        for tg, counts in per_origin:
            assert counts <= tg.cover_features
        valid = sight.visible(kz, a, b) and any(not counts for _, counts in per_origin)
        assert valid == sight.valid_target(kz, b, a, "conceal", seek=seek), (name, a, b, seek)
