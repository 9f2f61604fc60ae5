"""KT18 terrain in play (``rules/KT18.md`` 10.4, 10.7-10.9): Dangerous terrain tests on the
moves, landings after falls, on the fixture killzone ``scenarios/killzones/kt18_terrain.toml``
(tar pit: dangerous, x 8-10, y 14-20; tower: a 6.5" Vantage floor, x 22-25, y 15-18)."""

from __future__ import annotations

from pathlib import Path

from engine.game.context import GameOptions
from engine.geometry import Placement
from engine.geometry.kt18_landing import landing_spot, route_in_dangerous
from engine.geometry.model import load_killzone
from engine.rulesets import KT18, position
from engine.teams.io import load_team
from engine.teams.model import Roster

ROOT = Path(__file__).parent.parent / "scenarios"
KZ = load_killzone(str(ROOT / "killzones" / "kt18_terrain.toml"))


def _p(x: float, y: float, z: float = 0.0) -> Placement:
    return Placement(x, y, 25.0, z)


def _state(at: dict[str, tuple[float, ...]]):  # type: ignore[no-untyped-def]
    red = load_team(str(ROOT / "teams" / "kt18_red.json"))
    blue = load_team(str(ROOT / "teams" / "kt18_blue.json"))
    ra = Roster.from_entries(red, ["Trooper", "Trooper"])
    rb = Roster.from_entries(blue, ["Trooper"])
    ops = {k: {"at": v} for k, v in at.items()}
    state = position(
        KZ,
        ra,
        rb,
        options=GameOptions(ruleset="kt18"),
        phase="movement",
        initiative="A",
        operatives=ops,
    )
    assert state.ctx.rules.ruleset is KT18
    return state


def test_dangerous_terrain_a_move_into_the_pit_or_across_it_is_moving_into_it() -> None:
    """10.4: the test is due when the model moves into dangerous terrain: ending in the pit,
    or crossing it, both count; a move beside it (y 12, the pit starts at y 14) does not."""
    assert route_in_dangerous(KZ, _p(6, 17), _p(9, 17))
    assert route_in_dangerous(KZ, _p(7, 15), _p(11, 15))
    assert not route_in_dangerous(KZ, _p(6, 12), _p(12, 12))


def test_traps_make_a_move_on_an_upper_floor_a_move_into_dangerous_terrain() -> None:
    """11.3 Traps, reading (a): every level above the floor is dangerous terrain, so a move
    on the tower's 6.5" floor moves into it with Traps and not without."""
    a, b = _p(23, 16, 6.5), _p(24, 17, 6.5)
    assert route_in_dangerous(KZ, a, b, traps=True)
    assert not route_in_dangerous(KZ, a, b)


def test_falling_landing_spot_moves_the_base_clear_of_a_model() -> None:
    """10.8: the faller is placed as close as possible to its landing point: where a model
    stands on that point, the spot found is at least the two base radii (0.984") from it and
    no further than a small step beyond."""
    other = _p(21.5, 16.5)
    x, y = landing_spot(KZ, _p(22.6, 16.5, 6.5), (21.508, 16.5), 0.0, [other])
    d = ((x - 21.5) ** 2 + (y - 16.5) ** 2) ** 0.5
    assert 0.984 - 1e-6 <= d <= 0.984 + 0.15


def test_dangerous_terrain_a_model_beginning_its_move_in_the_pit_tests_once() -> None:
    """10.4: a model that begins its move in dangerous terrain tests, once for the move
    (reading (a)), even when it leaves it."""
    state = _state({"RED-1": (9, 17), "BLU-1": (28, 3)})
    state, events = state.apply("Move RED-1 to 12,17")
    state, events = state.apply("roll 3")
    tests = [e for e in events if e.kind == "kt18_dangerous_terrain_test"]
    assert len(tests) == 1 and tests[0]["wounded"] is False


def test_jumping_down_is_listed_only_where_a_model_could_fall() -> None:
    """10.9: a model within 1" of the tower's edge may jump down (one listed landing, over
    the west edge it stands 0.6" from); a model on the ground may not."""
    state = _state({"RED-1": (22.6, 16.5, 6.5), "RED-2": (5, 5), "BLU-1": (28, 3)})
    acts = [str(a) for a in state.legal_actions()]
    jumps = [a for a in acts if "jump down" in a]
    # over the west edge (x 22): the base just past it, 22 - 0.492 - 0.001 = 21.507
    assert len(jumps) == 1 and jumps[0].startswith("Act RED-1 jump down at 21.507,16.5")
