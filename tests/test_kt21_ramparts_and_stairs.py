"""Ramparts (``rules/KT21.md`` 7.4, Designer's Commentary 16.10) and stairs and slopes (7.4,
DC 16.14; ``rules/KT24.md`` decision 7) in the movement graph: :mod:`engine.geometry.
move_ramparts` (a parameter of the queries, on under KT21, off under KT24) and
:mod:`engine.geometry.move_stairs` (a part kind of the layout, crossed by every ruleset).

Fixtures: ``scenarios/killzones/kt21_rampart.toml`` (a keep, Vantage floor 3" high, a Light
rampart 1" above it along its west edge x 18-18.5) and ``kt21_stairs.toml`` (a platform 2.25"
high, x 14-20, y 6-12, its stair x 11-14, y 7-9: a 3" run, a 3.75" slope). Bases 28 mm
(radius 0.551"); positions chosen so the arithmetic is exact in binary."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from engine.geometry import Killzone, Placement, load_killzone
from engine.geometry.model import KillzoneError
from engine.geometry.move_values import _Link
from engine.geometry.movement import (
    KT21_MOVEMENT,
    KT24_MOVEMENT,
    MoveError,
    MovePath,
    check_path,
    move_graph,
    shortest_path,
)

RAMPART = load_killzone("scenarios/killzones/kt21_rampart.toml")
STAIRS = load_killzone("scenarios/killzones/kt21_stairs.toml")


def _at(x: float, y: float, z: float = 0.0) -> Placement:
    return Placement(x, y, 28.0, z, 1.3)


def _path(
    kz: Killzone, start: tuple[float, ...], end: tuple[float, ...], rules: Any, move: float = 6.0
) -> MovePath | None:
    return shortest_path(kz, _at(*start), end, move=move, rules=rules)


def _keep(rampart_types: list[str]) -> Killzone:
    """The keep of the fixture with a rampart of the given terrain types."""
    data = RAMPART.to_dict()
    data["features"][0]["parts"][1]["types"] = rampart_types
    return Killzone.from_dict(data, "keep")


# -------------------------------------------------------------------------------------------
# Ramparts (16.10)
# -------------------------------------------------------------------------------------------


def test_rampart_is_climbed_as_part_of_the_climb_up() -> None:
    """16.10: climbing up, the rampart may be climbed as part of the climb and the small drop
    onto the Vantage floor is ignored: 1.875" across + the rampart's 4" top (2" steps: 4") +
    the 1" drop (under 2": nothing) = 5.875"; climbing the 3" wall (4") then traversing (2")
    would be 7.875"."""
    path = _path(RAMPART, (17.25, 11), (19.125, 11, 3), KT21_MOVEMENT)
    assert path is not None
    assert [inc.kind for inc in path.increments] == ["rampart"]
    assert path.cost == 5.875


def test_rampart_is_traversed_first_when_dropping_off() -> None:
    """16.10: dropping off, the rampart is traversed first (2"), then the drop from the
    Vantage floor (3", 2" steps rounded down: 2"): 1.875" + 2" + 2" = 5.875" (climbing the
    rampart's 1" (2") and dropping its full 4" (4") would be 7.875")."""
    path = _path(RAMPART, (19.125, 9, 3), (17.25, 9), KT21_MOVEMENT)
    assert path is not None
    assert path.cost == 5.875


def test_the_bastion_rampart_costs_the_same_either_way() -> None:
    """The bastion fixture (16.5's: floor 2", rampart 1" above it): up, 1.875" + min(the 3"
    climb (4") + nothing for the 1" drop, the 2" climb (2") + the 2" traverse) = 5.875"."""
    bastion = load_killzone("scenarios/killzones/kt21_bastion.toml")
    path = _path(bastion, (17.25, 9.5), (19.125, 9.5, 2), KT21_MOVEMENT)
    assert path is not None and path.cost == 5.875


def test_kt24_keeps_a_rampart_blocking() -> None:
    """KT24 reads ramparts its own way (rules/KT24.md 3.3, not modelled): the shared graph
    keeps a part standing on a Vantage level's edge blocking it, so no KT24 move crosses it,
    and a KT21 query on the same graph first does not change that."""
    assert _path(RAMPART, (17.25, 11), (19.125, 11, 3), KT21_MOVEMENT) is not None
    assert _path(RAMPART, (17.25, 11), (19.125, 11, 3), KT24_MOVEMENT) is None
    assert _path(RAMPART, (19.125, 9, 3), (17.25, 9), KT24_MOVEMENT) is None
    long = _path(RAMPART, (5, 11), (21, 11, 3), KT24_MOVEMENT, move=30)
    assert long is not None and all(inc.kind != "rampart" for inc in long.increments)


def test_a_rampart_is_crossed_from_afar() -> None:
    """A path from across the killzone reaches the keep over the rampart (the links between
    the graph's own nodes, not only from the start): the last increment crosses it."""
    path = _path(RAMPART, (5, 11), (21, 11, 3), KT21_MOVEMENT, move=30)
    assert path is not None
    assert path.increments[-1].kind == "rampart"


def test_fly_counts_only_the_horizontal_over_a_rampart() -> None:
    """FLY (7.3): no vertical distance counts, no traverse: 1.875"."""
    path = _path(RAMPART, (17.25, 11), (19.125, 11, 3), KT21_MOVEMENT.with_fly(True))
    assert path is not None and path.cost == 1.875


def test_a_heavy_rampart_is_climbed_not_traversed() -> None:
    """A Heavy rampart is not Traversable (9): up, climbed as part of the climb (4") with the
    1" drop ignored: 5.875"; down, climbed (1": 2") and dropped from its 4" top (4"):
    1.875" + 6" = 7.875", beyond 6" (the straight increment with 8" costs exactly that; the
    cheapest path then goes round the rampart's end and off the keep's open edge)."""
    kz = _keep(["Heavy"])
    up = _path(kz, (17.25, 11), (19.125, 11, 3), KT21_MOVEMENT)
    assert up is not None and up.cost == 5.875
    assert _path(kz, (19.125, 9, 3), (17.25, 9), KT21_MOVEMENT) is None
    down = check_path(kz, _at(19.125, 9, 3), [(17.25, 9, 0)], rules=KT21_MOVEMENT, move=8)
    assert down.cost == 7.875


def test_rampart_cost_arithmetic() -> None:
    """MovementRules.rampart_cost (7.4, 16.10) on a level 3" high with a rampart 4" high:
    up = min(climb 4" (4") + drop 1" (0), climb 3" (4") + traverse 2") = 4" + h; down =
    traverse 2" + drop 3" (2") = 4" + h; a 7" level's drop (7" > 6") is refused."""
    up = _Link("rampart", 1.5, climb=4.0, drop=1.0)
    down = _Link("rampart", 1.5, climb=1.0, drop=4.0)
    rules = KT21_MOVEMENT
    assert rules.rampart_cost(up, level=3.0, traversable=True, up=True) == 5.5
    assert rules.rampart_cost(down, level=3.0, traversable=True, up=False) == 5.5
    assert rules.rampart_cost(down, level=3.0, traversable=False, up=False) == 7.5
    high = _Link("rampart", 1.5, climb=1.0, drop=8.0)
    assert isinstance(rules.rampart_cost(high, level=7.0, traversable=True, up=False), str)


def test_an_explicit_path_over_a_rampart() -> None:
    """check_path takes the rampart increment under KT21 and refuses it under KT24."""
    path = check_path(RAMPART, _at(17.25, 11), [(19.125, 11, 3)], rules=KT21_MOVEMENT)
    assert path.cost == 5.875
    with pytest.raises(MoveError):
        check_path(RAMPART, _at(17.25, 11), [(19.125, 11, 3)])


# -------------------------------------------------------------------------------------------
# Stairs and slopes (16.14)
# -------------------------------------------------------------------------------------------


def test_stairs_cost_their_length_along_the_slope() -> None:
    """16.14: stairs need no climbing: 0.75" + the 3.75" slope (sqrt(3^2 + 2.25^2)) + 0.75" =
    5.25"; climbing the same 2.25" would count 4" on top of 4.5" across (8.5")."""
    path = _path(STAIRS, (10.25, 8), (14.75, 8, 2.25), KT21_MOVEMENT)
    assert path is not None
    assert [inc.kind for inc in path.increments] == ["stairs"]
    assert path.cost == 5.25
    down = _path(STAIRS, (14.75, 8, 2.25), (10.25, 8), KT21_MOVEMENT)
    assert down is not None and down.cost == 5.25


def test_the_slope_length_counts_not_the_horizontal() -> None:
    """1.625" past the head: 0.75" + 3.75" + 1.625" = 6.125", over 6" (5.375" horizontally)."""
    assert _path(STAIRS, (10.25, 8), (15.625, 8, 2.25), KT21_MOVEMENT) is None
    assert _path(STAIRS, (10.25, 8), (15.625, 8, 2.25), KT21_MOVEMENT, move=6.125) is not None


def test_kt24_crosses_stairs_as_one_rounded_increment() -> None:
    """rules/KT24.md decision 7 carries 16.14 over: the 5.25" stair increment is rounded up
    to 6" like any KT24 increment (3.3), with no climb (so a Dash may use stairs)."""
    path = _path(STAIRS, (10.25, 8), (14.75, 8, 2.25), KT24_MOVEMENT)
    assert path is not None and path.cost == 6.0
    assert not any(inc.climb for inc in path.increments)


def test_stairs_are_reached_from_afar() -> None:
    """A path from across the killzone goes up the stair (links between the graph's own
    nodes): cheaper than climbing the platform."""
    path = _path(STAIRS, (2, 8), (17, 9, 2.25), KT21_MOVEMENT, move=30)
    assert path is not None
    assert any(inc.kind == "stairs" for inc in path.increments)


def test_a_stair_is_not_entered_from_its_side() -> None:
    """Onto the stair across its side (not from its foot): no stairs increment (the part is
    climbed or gone round instead)."""
    g = move_graph(STAIRS, 28.0)
    link = g.classify(0, (12.5, 10.0), 1, (15.0, 7.5))
    assert not (isinstance(link, _Link) and link.kind == "stairs")


def test_a_stair_must_lead_up_to_a_vantage_part_of_its_height() -> None:
    """The layout field ``stairs`` is checked: a stair touching no Vantage part of its height,
    a Vantage stair, and a non-boolean value are refused, naming the part."""
    data = STAIRS.to_dict()
    data["features"][0]["parts"][1]["height"] = 3
    with pytest.raises(KillzoneError, match="must touch a Vantage part of its height"):
        Killzone.from_dict(data, "bad")
    data = STAIRS.to_dict()
    data["features"][0]["parts"][1]["types"] = ["Vantage"]
    with pytest.raises(KillzoneError, match="stair part"):
        Killzone.from_dict(data, "bad")
    data = STAIRS.to_dict()
    data["features"][0]["parts"][1]["stairs"] = "yes"
    with pytest.raises(KillzoneError, match="'stairs' must be true or false"):
        Killzone.from_dict(data, "bad")


def test_stairs_survive_the_layout_round_trip_and_the_stored_graph() -> None:
    """to_dict keeps the field; the graph's stored tables keep its stairs links."""
    again = Killzone.from_dict(STAIRS.to_dict(), "again")
    assert [p.stairs for p in again.parts] == [False, True]
    g = move_graph(STAIRS, 28.0)
    restored = type(g).restore(STAIRS, 28.0, g.tables())
    kinds = {link.kind for out in restored._out for _, _, link in out}
    assert "stairs" in kinds


def test_rules_without_ramparts_are_kt24s_default() -> None:
    """The parameter: KT24's rules leave ramparts blocking, KT21's cross them."""
    assert not KT24_MOVEMENT.ramparts and KT21_MOVEMENT.ramparts
    assert attrs.evolve(KT21_MOVEMENT, ramparts=False).ramparts is False
    assert (
        _path(RAMPART, (17.25, 11), (19.125, 11, 3), attrs.evolve(KT21_MOVEMENT, ramparts=False))
        is None
    )
