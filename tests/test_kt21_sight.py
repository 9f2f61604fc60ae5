"""KT21 Line of Sight (rules/KT21.md 7.2, 8.1-8.6, 9; decision 4; DC rulings 16.1-16.5): the
geometry of engine.geometry.kt21_sight and the rule-side questions of engine.rules.kt21.sight.

Every board here is built inline: a flat 30" x 22" killzone with the one feature a test needs,
the shooter at x 4 and the target further along y = 11 (28 mm bases, radius 0.551")."""

from __future__ import annotations

from typing import Any

from engine.game.context import GameOptions
from engine.game.work import Work
from engine.geometry import Placement
from engine.geometry import kt21_sight as g
from engine.geometry.model import Killzone
from engine.rules.kt21.sight import kt21_line_of_sight, kt21_valid_targets
from engine.rulesets import position
from engine.teams.io import load_team
from engine.teams.model import Roster

R = 28 / 25.4 / 2  # a 28 mm base's radius in inches
PROBE = Roster.from_entries(load_team("scenarios/teams/kt21_probe.json"), ["Probe Trooper"] * 2)
TARGET = Roster.from_entries(load_team("scenarios/teams/kt21_target.json"), ["Target Trooper"] * 2)


def _kz(*parts: tuple[list[list[float]], float, list[str]]) -> Killzone:
    """A 30" x 22" killzone with one feature per part ``(polygon, height, types)``."""
    features = [
        {"name": f"f{k}", "parts": [{"polygon": poly, "height": h, "types": types}]}
        for k, (poly, h, types) in enumerate(parts)
    ]
    return Killzone.from_dict(
        {
            "name": "kt21_sight_test",
            "version": "1",
            "drop_zones": {
                "A": [[0, 0], [3, 0], [3, 22], [0, 22], [0, 0]],
                "B": [[27, 0], [30, 0], [30, 22], [27, 22], [27, 0]],
            },
            "objectives": [{"name": "centre", "position": [15, 20]}],
            "features": features,
        }
    )


def _wall(x0: float, x1: float, h: float, types: list[str]) -> tuple[Any, float, list[str]]:
    """A wall across y = 11 from x0 to x1, 4" long (y 9-13)."""
    return ([[x0, 9], [x1, 9], [x1, 13], [x0, 13], [x0, 9]], h, types)


def _p(x: float, y: float = 11.0, z: float = 0.0) -> Placement:
    return Placement(x, y, 28.0, z)


def _best(kz: Killzone, s: Placement, t: Placement, conceal: bool = False) -> g.OriginVerdict:
    return g.best_origin(g.evaluate(kz, s, t), conceal)


def test_obscured_by_heavy_terrain_more_than_two_inches_from_the_target() -> None:
    """8.3: a Heavy wall 1" high crossed by every cover line, 4.5" from the target's base
    and more than 1" from the shooter's, obscures the target (Heavy terrain is Obscuring);
    8.5: an Obscured target is not in Line of Sight whatever its order."""
    kz = _kz(_wall(10, 10.5, 1, ["Heavy"]))
    best = _best(kz, _p(4), _p(15))
    assert best.obscured
    assert best.obscuring_parts == (0,)


def test_heavy_terrain_within_two_inches_of_the_target_gives_cover_not_obscured() -> None:
    """8.3 and 8.4: the same Heavy wall within 1" of the target's base (every crossing point
    is less than 2" from it) does not obscure, but the target is in Cover (within 1" of a
    crossing point of a part that provides Cover, and more than 2" from the shooter)."""
    kz = _kz(_wall(10, 10.5, 1, ["Heavy"]))
    best = _best(kz, _p(4), _p(11.2))
    assert not best.obscured
    assert best.in_cover and best.cover_parts == (0,)
    assert not best.light_only


def test_obscuring_parts_within_one_inch_of_the_shooter_do_not_obscure() -> None:
    """8.3, DC 16.2: the parts of an Obscuring feature within 1" of the shooter are not
    Obscuring. The wall (x 4.8-5.3) is within 1" of the shooter's base (its edge at 4.55"),
    so it neither obscures the target 10" away nor gives it Cover (more than 1" away)."""
    kz = _kz(_wall(4.8, 5.3, 1, ["Heavy"]))
    best = _best(kz, _p(4), _p(15))
    assert not best.obscured
    assert not best.in_cover


def test_only_the_near_parts_of_an_obscuring_feature_are_ignored() -> None:
    """DC 16.2: only the parts within 1" of the shooter are ignored; the rest of the same
    feature still obscures. A Heavy block from x 4.8 to x 9 starts within 1" of the shooter
    and reaches more than 1" from it, more than 2" from the target at x 15."""
    kz = _kz(_wall(4.8, 9, 1, ["Heavy"]))
    best = _best(kz, _p(4), _p(15))
    assert best.obscured


def test_a_cover_line_above_a_feature_does_not_cross_it() -> None:
    """DC 16.3: a cover line drawn above a terrain feature does not cross it. Both operatives
    stand on 3" Vantage platforms; the Heavy wall between them is 1" high, so every line at
    3" passes over it: not Obscured, and not in Cover from it."""
    kz = _kz(
        ([[2, 9], [6, 9], [6, 13], [2, 13], [2, 9]], 3, ["Vantage"]),
        _wall(10, 10.5, 1, ["Heavy"]),
        ([[14, 9], [18, 9], [18, 13], [14, 13], [14, 9]], 3, ["Vantage"]),
    )
    best = _best(kz, _p(4, z=3), _p(16, z=3))
    assert not best.obscured
    assert 1 not in best.cover_parts


def test_an_operative_is_visible_to_itself() -> None:
    """DC 16.4: an operative is Visible to itself (8.1)."""
    kz = _kz(_wall(10, 10.5, 5, ["Heavy"]))
    assert g.visible(kz, _p(4), _p(4))


def test_another_operatives_base_gives_cover() -> None:
    """8.4: a target within 1" of a point where a cover line crosses another operative's base
    is in Cover (KT21, not KT24), here with no terrain at all; it is Light-like cover, so a
    shooter on a Vantage Point may treat a Conceal target as Engage (8.6)."""
    kz = _kz()
    v = g.evaluate(kz, _p(4), _p(15), [_p(13.6)])
    best = g.best_origin(v, conceal=False)
    assert best.in_cover and best.cover_operatives == (0,)
    assert best.light_only


def test_no_cover_within_two_inches_of_the_shooter() -> None:
    """8.4: a target within 2" of the shooter is never in Cover: the Light wall between
    them, within 1" of the target, gives nothing when the bases are 1.9" apart."""
    kz = _kz(_wall(5.6, 5.8, 1, ["Light"]))
    best = _best(kz, _p(4), _p(4 + 2 * R + 1.9))
    assert not best.in_cover


def test_engagement_range_is_one_inch_and_visible() -> None:
    """7.2: within each other's Engagement Range when one is Visible to the other and within
    1": bases 0.9" apart are, 1.1" apart are not, and a wall 5" high between bases 0.9" apart
    hides them from each other (neither Visible)."""
    kz = _kz()
    assert g.engagement_range(kz, _p(4), _p(4 + 2 * R + 0.9))
    assert not g.engagement_range(kz, _p(4), _p(4 + 2 * R + 1.1))
    walled = _kz(([[4.9, 5], [5.1, 5], [5.1, 17], [4.9, 17], [4.9, 5]], 5, ["Heavy"]))
    assert not g.engagement_range(walled, _p(4), _p(4 + 2 * R + 0.9))


def test_kt24_terrain_types_read_as_kt21_traits() -> None:
    """9: Heavy is Cover and Obscuring; Light is Cover; a low Light part (a barricade) is
    also Traversable; a Vantage part is a Vantage Point giving Light cover; Insignificant
    has no rules."""
    kz = _kz(
        _wall(10, 10.5, 1, ["Heavy"]),
        _wall(12, 12.5, 1, ["Light"]),
        _wall(14, 18, 3, ["Vantage"]),
        _wall(20, 21, 1, ["Insignificant"]),
    )
    assert g.part_traits(kz, 0) == {"Heavy", "Obscuring", "Cover"}
    assert g.part_traits(kz, 1) == {"Light", "Cover", "Traversable"}
    assert g.part_traits(kz, 2) == {"Light", "Cover", "Vantage Point"}
    assert g.part_traits(kz, 3) == {"Insignificant"}


def _state(kz: Killzone, ops: dict[str, dict[str, Any]]) -> Any:
    return position(kz, PROBE, TARGET, options=GameOptions(ruleset="kt21"), operatives=ops)


def _work(state: Any) -> Work:
    return Work(state)


def test_conceal_target_in_cover_is_not_in_line_of_sight() -> None:
    """8.5: a Conceal target in Cover is not in Line of Sight; an Engage target in the same
    place is (Visible, not Obscured), and is in Cover (its cover save, 10.2)."""
    kz = _kz(_wall(13.5, 14, 1, ["Light"]))
    for order, valid in (("conceal", False), ("engage", True)):
        w = _work(_state(kz, {"PRO-1": {"at": (4, 11)}, "TAR-1": {"at": (15, 11), "order": order}}))
        los = kt21_line_of_sight(w, "PRO-1", "TAR-1")
        assert los.valid is valid
        assert los.in_cover and not los.obscured


def test_vantage_point_shooter_treats_conceal_target_in_light_cover_as_engage() -> None:
    """8.6: a shooter on a Vantage Point sees a Conceal target at least 2" lower, in Cover
    from Light terrain only, as Engage: it is in Line of Sight (and keeps its cover save)."""
    kz = _kz(
        ([[2, 9], [6, 9], [6, 13], [2, 13], [2, 9]], 3, ["Vantage"]),
        _wall(13.5, 14, 1, ["Light"]),
    )
    w = _work(
        _state(
            kz,
            {"PRO-1": {"at": (4, 11, 3)}, "TAR-1": {"at": (15, 11), "order": "conceal"}},
        )
    )
    los = kt21_line_of_sight(w, "PRO-1", "TAR-1")
    assert los.valid and los.engage == "engage" and los.in_cover


def test_valid_target_needs_no_friendly_within_its_engagement_range_and_range() -> None:
    """8.5: a valid target has no operative friendly to the shooter within its Engagement
    Range, and is within Rng when the weapon has one (6" here: the target 10" away is not)."""
    kz = _kz()
    far: dict[str, dict[str, Any]] = {
        "PRO-1": {"at": (4, 11)},
        "TAR-1": {"at": (15, 11), "order": "engage"},
    }
    w = _work(_state(kz, far))
    assert [s.target for s in kt21_valid_targets(w, "PRO-1")] == ["TAR-1"]
    assert kt21_valid_targets(w, "PRO-1", rng=6.0) == ()
    near: dict[str, dict[str, Any]] = {**far, "PRO-2": {"at": (15, 11 + 2 * R + 0.5)}}
    w = _work(_state(kz, near))
    assert kt21_valid_targets(w, "PRO-1") == ()


def test_any_crossing_point_counts_not_only_the_closest() -> None:
    """8.2, DC 16.1: the Obscured test uses any point where a cover line crosses the feature.
    A Heavy block from x 10 to x 14 ends 0.45" from the target's base (x 15): its closest
    crossing point is within 2" of the target, its farthest 4.45" away, so the target is
    Obscured (it would only be in Cover if the closest point decided)."""
    kz = _kz(_wall(10, 14, 1, ["Heavy"]))
    best = _best(kz, _p(4), _p(15))
    assert best.obscured


def test_rampart_on_a_vantage_point_gives_cover_to_an_operative_on_it() -> None:
    """8.6, DC 16.5: a target on a Vantage Point does not use the platform itself for Cover,
    but a rampart of that feature within 1" of it does. The platform (3" high, x 12-18) with
    a 3.5" rampart along its west edge (x 12-12.3): the target at x 13.2 is in Cover from the
    rampart; the same platform without it gives none."""
    floor = [[12.3, 9], [18, 9], [18, 13], [12.3, 13], [12.3, 9]]
    rampart = [[12, 9], [12.3, 9], [12.3, 13], [12, 13], [12, 9]]
    bare = Killzone.from_dict(_layout([(floor, 3, ["Vantage"]), (rampart, 3, ["Vantage"])]))
    walled = Killzone.from_dict(_layout([(floor, 3, ["Vantage"]), (rampart, 3.5, ["Light"])]))
    target = _p(13.2, z=3)
    assert not _best(bare, _p(4), target).in_cover
    assert _best(walled, _p(4), target).in_cover


def _layout(parts: list[tuple[list[list[float]], float, list[str]]]) -> dict[str, Any]:
    """One feature made of ``parts`` on the test board."""
    return {
        "name": "kt21_sight_test",
        "version": "1",
        "drop_zones": {
            "A": [[0, 0], [3, 0], [3, 22], [0, 22], [0, 0]],
            "B": [[27, 0], [30, 0], [30, 22], [27, 22], [27, 0]],
        },
        "objectives": [{"name": "centre", "position": [15, 20]}],
        "features": [
            {
                "name": "platform",
                "parts": [{"polygon": p, "height": h, "types": t} for p, h, t in parts],
            }
        ],
    }
