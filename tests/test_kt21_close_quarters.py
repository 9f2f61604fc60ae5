"""The KT21 Close Quarters rules (``rules/KT21.md`` 13; DC 16.32, 16.35, 16.40):
:mod:`engine.rules.kt21.close_quarters` and the open hatch of
:mod:`engine.geometry.kt21_sight`, on the Gallowdark-like fixture killzone
``scenarios/killzones/kt21_gallowdark.toml`` (the spine wall x 14.75-15.25 from y 4 to 18,
its centre hatch at y 10-12)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import shapely

from engine.game.actions import IllegalActionError, format_action, parse_action
from engine.game.context import GameOptions
from engine.game.state import GameState
from engine.geometry import kt21_sight, load_killzone
from engine.geometry.model import Killzone, Placement
from engine.rules.kt21.close_quarters import heavy_proxies
from engine.rulesets import position
from engine.teams.io import load_team
from engine.teams.roster import Roster

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
KT21 = GameOptions(ruleset="kt21")


def _kz(name: str = "kt21_gallowdark") -> Killzone:
    return load_killzone(str(SCENARIOS / "killzones" / f"{name}.toml"))


def _state(
    operatives: Mapping[str, Mapping[str, Any]],
    *,
    turn: str = "A",
    open_hatchways: tuple[str, ...] = (),
    killzone: str = "kt21_gallowdark",
    effects: tuple[Mapping[str, Any], ...] = (),
) -> GameState:
    """A's DC Trooper (DC-1, Move 6", 10 wounds, a Rifle and a Blade) against B's Target
    Trooper (TAR-1, a Pistol and a Blade), in turning point 2."""
    a = Roster.from_entries(load_team(SCENARIOS / "teams" / "kt21_dc.json"), ["DC Trooper"])
    b = Roster.from_entries(load_team(SCENARIOS / "teams" / "kt21_target.json"), ["Target Trooper"])
    return position(
        _kz(killzone),
        a,
        b,
        cp=(0, 0),
        tp=2,
        turn=turn,
        operatives=operatives,
        open_hatchways=open_hatchways,
        effects=effects,
        options=KT21,
    )


def _play(s: GameState, *steps: str) -> GameState:
    for text in steps:
        s, _ = s.apply(parse_action(text))
    return s


def _legal(s: GameState) -> set[str]:
    return {format_action(a) for a in s.legal_actions()}


# -- Wall terrain and hatchways (13) -----------------------------------------------------------


def test_wall_cannot_be_moved_through_but_an_open_hatchway_can() -> None:
    """Wall terrain (13): nothing moves through it; the closed centre hatch is Wall too. From
    x 14.1 to x 15.9 across the spine is 1.8", but with the hatch closed the only way is round
    the spine's south end (y 4): more than 6" (down 7", across, up 7"), beyond DC-1's Move.
    Opened, its access point is Accessible: the move is legal."""
    ops = {"DC-1": {"at": (14.1, 11.0)}, "TAR-1": {"at": (28.0, 20.0), "ready": False}}
    closed = _play(_state(ops), "Activate DC-1 engage")
    with pytest.raises(IllegalActionError, match="no legal path"):
        closed.apply(parse_action("Normal Move DC-1 to 15.9,11"))
    opened = _play(_state(ops, open_hatchways=("centre hatch",)), "Activate DC-1 engage")
    after = _play(opened, "Normal Move DC-1 to 15.9,11")
    assert next(o for o in after.operatives if o.id == "DC-1").x == pytest.approx(15.9)


def test_open_hatch_gives_cover_and_is_obscuring() -> None:
    """An open hatch gives Cover and is Obscuring (13, DC 16.40), the Cover lines under it
    crossing it. A shooter at x 12 and a target at x 16.2 (its base 0.4" from the hatch,
    within 1"): in Cover, not Obscured (the crossing is within 2" of the target, 8.3). A
    target at x 18.5 (the hatch 2.7" from its base): Obscured. With the hatch closed the
    wall hides both (not Visible)."""
    kz = _kz()
    opened = kz.with_open_hatchways(["centre hatch"])
    shooter = Placement(12, 11, 28.0)
    near, far = Placement(16.2, 11, 28.0), Placement(18.5, 11, 28.0)
    v_near = kt21_sight.evaluate(opened, shooter, near)
    best_near = kt21_sight.best_origin(v_near, False)
    assert v_near.visible and best_near.in_cover and not best_near.obscured
    v_far = kt21_sight.evaluate(opened, shooter, far)
    assert v_far.visible and all(o.obscured for o in v_far.origins)
    assert not kt21_sight.evaluate(kz, shooter, near).visible


def test_open_hatch_traits_are_the_killzone_data() -> None:
    """The access point of an open hatchway has the open-hatch traits (Heavy: Cover and
    Obscuring), read from the killzone's hatchway state; closed, it is Wall + Heavy, which
    KT21 reads as Heavy too; its data when open (Accessible, Insignificant, Exposed) would
    give nothing."""
    kz = _kz()
    i = next(k for k, p in enumerate(kz.parts) if kz.features[p.feature] == "centre hatch")
    opened = kz.with_open_hatchways(["centre hatch"])
    assert kt21_sight.part_traits(opened, i) == kt21_sight.OPEN_HATCH_TRAITS
    assert {"Heavy", "Obscuring", "Cover"} <= kt21_sight.part_traits(kz, i)


# -- Guard (13, DC 16.32) ---------------------------------------------------------------------


def test_guard_is_a_close_quarters_action() -> None:
    """Guard (13) is listed on a killzone with Wall terrain, for an Engage operative outside
    Engagement Range; not on a killzone without Wall terrain, not with a Conceal order."""
    ops = {"DC-1": {"at": (6.0, 2.0)}, "TAR-1": {"at": (28.0, 20.0), "ready": False}}
    assert "Guard DC-1" in _legal(_play(_state(ops), "Activate DC-1 engage"))
    assert "Guard DC-1" not in _legal(_play(_state(ops), "Activate DC-1 conceal"))
    far = {"DC-1": {"at": (1.0, 9.0)}, "TAR-1": {"at": (28.0, 2.0), "ready": False}}
    plain = _play(_state(far, killzone="kt21_sight"), "Activate DC-1 engage")
    assert "Guard DC-1" not in _legal(plain)


def test_guard_attack_is_a_fight_within_engagement_range() -> None:
    """The guard attack is an Overwatch or a Fight (13): TAR-1 charges into DC-1's
    Engagement Range; after the Charge DC-1 interrupts and may Fight TAR-1 (an Overwatch is
    not allowed within Engagement Range, 3.5)."""
    ops = {
        "DC-1": {"at": (6.0, 2.0), "ready": False, "on_guard": True},
        "TAR-1": {"at": (11.0, 2.0)},
    }
    s = _play(_state(ops, turn="B"), "Activate TAR-1 engage", "Charge TAR-1 to 7.2,2")
    assert s.node.kind == "guard" and "Interrupt DC-1" in _legal(s)  # type: ignore[union-attr]
    s = _play(s, "Interrupt DC-1")
    legal = _legal(s)
    assert "Fight DC-1 blade at TAR-1" in legal
    assert not any(a.startswith("Overwatch") for a in legal)
    assert "End activation" not in legal  # the guard attack must be made


def test_guard_passed_within_engagement_range_ends_guard() -> None:
    """KT24.md 9.3's shape (13): if the player does not interrupt after an enemy action that
    ends within the guard's Engagement Range, the guard stops guarding."""
    ops = {
        "DC-1": {"at": (6.0, 2.0), "ready": False, "on_guard": True},
        "TAR-1": {"at": (11.0, 2.0)},
    }
    s = _play(_state(ops, turn="B"), "Activate TAR-1 engage", "Charge TAR-1 to 7.2,2", "Pass")
    assert not next(o for o in s.operatives if o.id == "DC-1").on_guard


def test_guard_without_a_guard_attack_stays_on_guard() -> None:
    """A guard that cannot make a guard attack stays on guard (13). DC-1 has overwatched this
    turning point already (3.5: once per turning point; a guard attack made as an Overwatch
    is that Overwatch, the reading of docs/rulings/kt21_close_quarters.md) and TAR-1 is not
    within its Engagement Range: no ``Interrupt DC-1`` after TAR-1's Dash, and passing (TAR-1
    far from it) leaves DC-1 on guard."""
    ops = {
        "DC-1": {"at": (6.0, 2.0), "ready": False, "on_guard": True},
        "TAR-1": {"at": (22.0, 2.0)},
    }
    spent = ({"kind": "overwatched", "op": "DC-1", "until": "end_tp"},)
    s = _play(_state(ops, turn="B", effects=spent), "Activate TAR-1 engage", "Dash TAR-1 to 20,2")
    assert s.node.kind == "guard"  # type: ignore[union-attr]
    assert _legal(s) == {"Pass"}
    s = _play(s, "Pass")
    assert next(o for o in s.operatives if o.id == "DC-1").on_guard


# -- Operate Hatch during a Normal Move (13, DC 16.35) -----------------------------------------


def _to_the_hatch() -> GameState:
    """DC-1 (Move 6") makes a Normal Move of 3.1" to the closed centre hatch; TAR-1 (B) is on
    guard east of the spine."""
    ops = {
        "DC-1": {"at": (11.0, 11.0)},
        "TAR-1": {"at": (19.0, 9.0), "ready": False, "on_guard": True},
    }
    return _play(_state(ops), "Activate DC-1 engage", "Normal Move DC-1 to 14.1,11")


def test_operate_hatch_during_normal_move_two_interrupt_points() -> None:
    """DC 16.35: after the Operate Hatch performed during the Normal Move (the first point)
    and after the Normal Move (the second). B passes at the first; DC-1 moves on with what
    is left of its Move (6 - 3.1 = 2.9") and the guard window opens again after the move."""
    s = _to_the_hatch()
    assert s.node.kind == "hatch_in_move"  # type: ignore[union-attr]
    s = _play(s, "Operate hatch DC-1 centre hatch")
    assert s.node.kind == "guard"  # type: ignore[union-attr]
    assert "centre hatch" in s.open_hatchways
    s = _play(s, "Pass")
    assert s.node.kind == "free_action"  # type: ignore[union-attr]
    s = _play(s, "Normal Move DC-1 to 15.9,11")
    assert s.node.player == "B" and s.node.kind == "guard"  # type: ignore[union-attr]


def test_operate_hatch_during_normal_move_uses_only_the_move_left() -> None:
    """The rest of the Normal Move is what its Move leaves (2.9"): 2" to x 16.1 and 1" for
    the Accessible access point (KT24's count, docs/KT21.md 14) is 3": refused."""
    s = _play(_to_the_hatch(), "Operate hatch DC-1 centre hatch", "Pass")
    with pytest.raises(IllegalActionError, match=r'2\.9"'):
        s.apply(parse_action("Normal Move DC-1 to 16.1,11"))


def test_operate_hatch_during_normal_move_costs_its_ap() -> None:
    """Operate Hatch costs 1AP during the move too (13; KT24.md 9.3's cost): DC-1 (APL 2)
    Dashes first, so its Normal Move to the hatch spends its last AP: no hatch is offered, the
    Normal Move is complete and the guard window follows it."""
    ops = {
        "DC-1": {"at": (10.5, 11.0)},
        "TAR-1": {"at": (19.0, 9.0), "ready": False, "on_guard": True},
    }
    s = _play(
        _state(ops), "Activate DC-1 engage", "Dash DC-1 to 11,11", "Pass"
    )  # (B passes after the Dash)
    s = _play(s, "Normal Move DC-1 to 14.1,11")
    assert s.node.kind == "guard"  # type: ignore[union-attr]
    assert next(o for o in s.operatives if o.id == "DC-1").ap == 0


def test_hatch_in_move_refuses_another_action() -> None:
    """Only ``Operate hatch`` or ``Pass`` answer the hatch decision; an illegal input leaves
    the state unchanged."""
    s = _to_the_hatch()
    before = s.hash()
    with pytest.raises(IllegalActionError, match="Operate Hatch during a Normal Move"):
        s.apply(parse_action("Shoot DC-1 rifle at TAR-1"))
    with pytest.raises(IllegalActionError, match="no hatchway"):
        s.apply(parse_action("Operate hatch DC-1 nowhere"))
    assert s.hash() == before


# -- Heavy-terrain proxies (13, DC 16.40) ------------------------------------------------------


def test_heavy_proxies_are_pillars_and_wall_ends_not_hatchway_ends() -> None:
    """ "Within x of Heavy terrain" on Gallowdark (13, DC 16.40): the pillars, and the wall
    ends except those of a hatchway's walls. The west pillar (7.5-8.5, 10.5-11.5) counts; the
    spine's south end (y 4) counts; its ends at the centre hatch (y 10, y 12) do not, nor the
    middle of a wall."""
    g = heavy_proxies(_kz())
    assert g.distance(shapely.Point(8.0, 11.0)) == 0  # the west pillar
    assert g.distance(shapely.Point(15.0, 4.0)) == 0  # the spine's free south end
    assert g.distance(shapely.Point(15.0, 10.0)) > 0.4  # the spine's end at the hatch
    assert g.distance(shapely.Point(15.0, 7.0)) > 2.0  # mid-wall
