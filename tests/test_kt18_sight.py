"""KT18 visibility, obscured, the Injury roll's cover and intervening terrain
(rules/KT18.md 5.3, 6.3, 6.9, 7.6): the geometry of engine.geometry.kt18_sight and its game
adapter engine.rules.kt18.sight.

Every board is built inline: a flat 30" x 22" killzone with the features a test needs. Models
have 32 mm bases (radius 0.630") and the default model height 1.25"; the main body is the
cylinder of 0.8 x the base radius (0.504") sampled at 19 points, the highest 1.25" above the
base and the lowest on the axis 0.1875" above it (0.15 x 1.25)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from engine.game.context import GameOptions
from engine.game.work import Work
from engine.geometry import Placement
from engine.geometry import kt18_sight as g
from engine.geometry import sight as kt24_sight
from engine.geometry.model import Killzone, load_killzone
from engine.geometry.sight_lines import _blocked, _parts
from engine.rules.kt18 import sight as adapter
from engine.rulesets import position
from engine.teams.io import load_team
from engine.teams.model import Roster

R = 32 / 25.4 / 2  # a 32 mm base's radius in inches


def _box(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]


def _kz(*parts: tuple[list[list[float]], float, list[str]]) -> Killzone:
    """A 30" x 22" killzone with one feature per part ``(polygon, height, types)``."""
    features: list[dict[str, Any]] = [
        {"name": f"f{k}", "parts": [{"polygon": poly, "height": h, "types": types}]}
        for k, (poly, h, types) in enumerate(parts)
    ]
    return Killzone.from_dict(
        {
            "name": "kt18_sight_test",
            "version": "1",
            "drop_zones": {"A": _box(0, 0, 3, 22), "B": _box(27, 0, 30, 22)},
            "objectives": [],
            "features": features,
        }
    )


def _p(x: float, y: float = 11.0, z: float = 0.0) -> Placement:
    return Placement(x, y, 32.0, z)


OPEN = _kz((_box(0.2, 0.2, 0.4, 0.4), 0.5, ["Light"]))  # a speck in a corner: open ground
LOW_WALL = _kz((_box(8, 9, 9, 13), 0.8, ["Light"]))  # 0.8" high, x 8-9, y 9-13
TALL_WALL = _kz((_box(8, 0, 9, 22), 3.0, ["Heavy"]))  # 3" high across the whole board


def test_visible_and_not_obscured_across_open_ground() -> None:
    """5.3, 6.3: nothing lies between two models 10" apart on open ground: every line from
    the shooter's body to the target's is clear, so the target is visible and, from any point
    of view, wholly seen."""
    assert g.visible(OPEN, _p(4), _p(14))
    assert not g.obscured(OPEN, _p(4), _p(14))


def test_a_low_wall_leaves_the_target_visible_but_obscured() -> None:
    """5.3, 6.3: the wall is 0.8" high. The line from the shooter's head (1.25") to the top
    of the target (1.25") stays 1.25" high: visible. The target's lowest body point, 0.1875"
    up its axis at x 14, seen from any point of the shooter's body (at most 1.25" high, x at
    most 4.504) passes the wall's far face x 9 at most 1.25 - (4.496 / 9.496) x 1.0625 =
    0.747" high, below the wall's 0.8": hidden from every point of view, so obscured."""
    assert g.visible(LOW_WALL, _p(4), _p(14))
    assert g.obscured(LOW_WALL, _p(4), _p(14))


def test_a_wall_taller_than_both_models_hides_the_target() -> None:
    """5.3: a 3" wall across the board is higher than every point of both bodies (1.25"):
    no line passes; the target is not visible (and so obscured)."""
    assert not g.visible(TALL_WALL, _p(4), _p(14))
    assert g.obscured(TALL_WALL, _p(4), _p(14))


def test_models_never_block_visibility_but_obscure() -> None:
    """5.3, 6.3: a model standing halfway (x 9) blocks no visibility (terrain only), but the
    middle of the target's axis (0.625" up, x 14), seen from any point of the shooter's body,
    crosses x 9 within 0.504 x 5/10 = 0.25" of y 11 (inside the blocker's 0.63" base radius)
    and between 0.625" and 1.25" high (inside its 0-1.25" body): hidden from every point of
    view, so obscured. Another model's body obscures whether friend or foe (6.3 'any
    model')."""
    assert g.visible(OPEN, _p(4), _p(14))
    assert g.obscured(OPEN, _p(4), _p(14), [_p(9)])


def test_a_model_behind_the_target_does_not_obscure_it() -> None:
    """6.3: a model standing behind the target (x 16, target at x 14, shooter at x 4) lies on
    no line from the shooter to the target: not obscured."""
    assert not g.obscured(OPEN, _p(4), _p(14), [_p(16)])


def test_obscured_is_judged_from_the_firers_best_point_of_view() -> None:
    """6.3 reading (a): a Heavy post 0.2" wide (y 10.9-11.1) 3" high stands just in front of
    the shooter (x 4.9-5.1). Every line from the shooter's axis (x 4, y 11) to the target's
    body (y within 11 +- 0.504 at x about 14) crosses x 5 within 0.05" of y 11: inside the
    post, so KT24's single head point sees nothing. From the point of the shooter's body
    0.504" to its side (y 11.504) every line crosses x 5 at y 11.40 or more, clear of the
    post: from that best point the whole target is seen, so it is visible and not
    obscured."""
    post = _kz((_box(4.9, 10.9, 5.1, 11.1), 3.0, ["Heavy"]))
    assert not kt24_sight.visible(post, _p(4), _p(14))
    assert g.visible(post, _p(4), _p(14))
    assert not g.obscured(post, _p(4), _p(14))


def test_a_model_on_a_ledge_seen_from_below_has_its_feet_hidden() -> None:
    """6.3: the target stands 3" up on a platform (x 12-16), 1" from its west edge (x 13).
    The lowest point of its axis (3.1875" high at x 14) seen from the shooter's head (1.25",
    x 4) rises 1.9375" over 10": at the edge x 12 it is 1.25 + 0.8 x 1.9375 = 2.80" high,
    below the platform's 3": that point is hidden from every point of the shooter's body
    (none is higher than 1.25"), so the target is obscured; its head is visible."""
    ledge = _kz((_box(12, 6, 16, 16), 3.0, ["Vantage"]))
    assert g.visible(ledge, _p(4), _p(14, z=3.0))
    assert g.obscured(ledge, _p(4), _p(14, z=3.0))


def test_injury_cover_needs_an_obscuring_model_within_one_inch_between() -> None:
    """6.9: obscured by a model at x 12.5 whose base is 14 - 12.5 - 2 x 0.63 = 0.24" from the
    target's: it lies between the two and within 1": -1 to the Injury roll. The same model
    at x 6 still obscures but its base is 6.74" from the target's: no cover."""
    assert g.injury_cover(OPEN, _p(4), _p(14), [_p(12.5)])
    assert not g.injury_cover(OPEN, _p(4), _p(14), [_p(6)])


def test_injury_cover_from_terrain_within_one_inch() -> None:
    """6.9: a 0.8" wall (x 12.6-12.9) between the two, its face 14 - 0.63 - 12.9 = 0.47" from
    the target's base. The target's lowest point (0.1875" at x 14) from any shooter point
    (at most 1.25" high, x at most 4.504) passes x 12.9 at most 1.25 - (8.396 / 9.496) x
    1.0625 = 0.31" high: hidden, so obscured, and the wall is within 1": cover."""
    near = _kz((_box(12.6, 9, 12.9, 13), 0.8, ["Light"]))
    assert g.injury_cover(near, _p(4), _p(14))


def test_no_injury_cover_when_the_near_model_is_not_between() -> None:
    """6.9: the target is obscured by the low wall at x 8-9 (4.37" from its base) and has a
    model 0.24" behind it (x 15.5): that model does not lie between the two (its base is
    outside the hull of the shooter's and the target's bases) and the wall is too far: no
    cover."""
    assert g.obscured(LOW_WALL, _p(4), _p(14), [_p(15.5)])
    assert not g.injury_cover(LOW_WALL, _p(4), _p(14), [_p(15.5)])


def test_no_injury_cover_when_not_obscured() -> None:
    """6.9: both conditions are needed. A model 0.24" beside the target (y 12.5, off every
    line from the shooter at y 11) does not obscure it: no cover however close."""
    beside = _p(14, 12.5)
    assert not g.obscured(OPEN, _p(4), _p(14), [beside])
    assert not g.injury_cover(OPEN, _p(4), _p(14), [beside])


def test_intervening_terrain_between_models_across_a_barricade() -> None:
    """7.6 reading (b): a barricade 1" high (x 10.65-10.85) between two models 1.5" apart
    (x 10 and 11.5): the line between their centres crosses it and it is higher than both
    bases: no base-to-base position joins them, -1 to hit. Without it: none."""
    barricade = _kz((_box(10.65, 8, 10.85, 14), 1.0, ["Light"]))
    assert g.intervening_terrain(barricade, _p(10), _p(11.5))
    assert not g.intervening_terrain(OPEN, _p(10), _p(11.5))


def test_intervening_terrain_same_platform_versus_different_levels() -> None:
    """7.6 reading (b): two models on the same 3" platform have only its floor between them
    (its top is not higher than their bases): none. A model on the floor beside the
    platform and one on it: the platform's side separates them: intervening."""
    platform = _kz((_box(10, 6, 16, 16), 3.0, ["Vantage"]))
    assert not g.intervening_terrain(platform, _p(11, z=3.0), _p(12.5, z=3.0))
    assert g.intervening_terrain(platform, _p(9.2), _p(10.8, z=3.0))


def test_insignificant_parts_neither_block_nor_intervene() -> None:
    """Module reading: Insignificant parts are too small to hide a model or separate two:
    a 3" Insignificant wall between the models blocks nothing and does not intervene."""
    trivial = _kz((_box(8, 0, 9, 22), 3.0, ["Insignificant"]))
    assert g.visible(trivial, _p(4), _p(14))
    assert not g.obscured(trivial, _p(4), _p(14))
    assert not g.intervening_terrain(trivial, _p(8), _p(9.5))


def test_answers_are_kept_per_position() -> None:
    """Speed: a second question about the same positions is answered from the killzone's
    cache (the same answer); a changed blocker is a new question."""
    kz = _kz((_box(8, 9, 9, 13), 0.8, ["Light"]))
    first = g.obscured(kz, _p(4), _p(14), [_p(20)])
    assert g.obscured(kz, _p(4), _p(14), [_p(20)]) == first
    assert any(k[0] == "obscured" for k in kz._cache["kt18.sight"])
    assert g.obscured(OPEN, _p(4), _p(14), [_p(9)]) != g.obscured(OPEN, _p(4), _p(14), [_p(20)])


def test_a_model_is_visible_to_itself_and_not_obscured_from_itself() -> None:
    """Degenerate pair: the same placement."""
    assert g.visible(TALL_WALL, _p(4), _p(4))
    assert not g.obscured(TALL_WALL, _p(4), _p(4))
    assert R > 0.6


def test_the_game_adapter_reads_positions_and_every_other_model() -> None:
    """The adapter asks the geometry with the models' placements on the battle's killzone and
    every other model on the battlefield as a possible blocker (6.3 'any model', friend or
    foe): a third model halfway between obscures the target (as
    test_models_never_block_visibility_but_obscure), and within 1" of it gives cover; the low
    barricade (x 20.65-20.85, 1" high) on the line between two models intervenes (7.6), open
    ground between two others does not. The positions are built with the
    small probe teams of the scenario files (their rules play no part here)."""
    probe = Roster.from_entries(load_team("scenarios/teams/kt21_probe.json"), ["Probe Trooper"] * 2)
    target = Roster.from_entries(
        load_team("scenarios/teams/kt21_target.json"), ["Target Trooper"] * 2
    )
    kz = _kz((_box(20.65, 8, 20.85, 14), 1.0, ["Light"]))
    ops: dict[str, dict[str, Any]] = {
        "PRO-1": {"at": (4, 11)},
        "PRO-2": {"at": (12.8, 11)},
        "TAR-1": {"at": (14, 11)},
        "TAR-2": {"at": (21.5, 11)},
    }
    w = Work(position(kz, probe, target, options=GameOptions(ruleset="kt21"), operatives=ops))
    assert adapter.visible(w, "PRO-1", "TAR-1")
    assert adapter.obscured(w, "PRO-1", "TAR-1")
    assert adapter.injury_cover(w, "PRO-1", "TAR-1")
    assert not adapter.obscured(w, "PRO-2", "TAR-1")
    assert not adapter.intervening_terrain(w, "PRO-2", "TAR-1")
    assert adapter.intervening_terrain(w, "TAR-2", "TAR-1")
    w2 = Work(
        position(
            kz,
            probe,
            target,
            options=GameOptions(ruleset="kt21"),
            operatives={**ops, "PRO-2": {"at": (20, 11)}},
        )
    )
    assert adapter.intervening_terrain(w2, "PRO-2", "TAR-2")


def _reference_visible(kz: Killzone, a: Placement, b: Placement) -> bool:
    """Visible by brute force on the shared numpy core: all 19 x 19 lines at once."""
    va = np.repeat(np.asarray(g.body_points(a), dtype=float), 19, axis=0)
    vb = np.tile(np.asarray(g.body_points(b), dtype=float), (19, 1))
    return not bool(_blocked(_parts(kz), va, vb).all())


def test_visible_agrees_with_the_brute_force_reference_on_a_shipped_layout() -> None:
    """Speed: the quick paths (KT24's head test first, the kernel's shadow proofs) give the
    answer of testing every one of the 19 x 19 lines on the shared numpy core, here for 300
    seeded pairs of models on the open_ruins layout (bases on the floor, anywhere)."""
    kz = load_killzone("open_ruins")
    rng = random.Random(18)
    for _ in range(300):
        a = _p(rng.uniform(1, 29), rng.uniform(1, 21))
        b = _p(rng.uniform(1, 29), rng.uniform(1, 21))
        assert g._visible(kz, a, b) == _reference_visible(kz, a, b), (a, b)
