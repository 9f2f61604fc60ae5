"""More of the KT21 Legionaries' team rules in play (``teams/kt21_legionaries``;
``rules/KT21.md`` 6.2, 10, 11): In the Eyes of the Gods. Fixtures:
``tests/kt21_team_support`` (player A the Legionaries, player B the Kasrkin; open lane
y 13-16).
"""

from __future__ import annotations

import pytest

from engine.game import GameState, IllegalActionError
from engine.game.events import Event
from tests.kt21_team_support import LEGIONARIES, activated, options, play, pos


def _champion_kills(wounds: int = 1) -> GameState:
    """The Aspiring Champion (APL 3) shoots the Trooper 5" away with its plasma pistol
    (standard: 5/6 damage, AP1): one normal hit (4,1,1,1: a 1 always fails) and both
    defence dice left after AP1 (3 - 1 = 2) fail (1,1): 5 damage."""
    ops = {"LEG-1": {"at": (5, 14)}, "KAS-10": {"at": (10, 14), "wounds": wounds}}
    s = activated(ops, "LEG-1")
    shoot = next(o for o in options(s) if o.startswith("Shoot LEG-1 plasma pistol (standard)"))
    s, _ = play(s, [shoot], ["roll 4,1,1,1", "roll 1,1"])
    return s


def test_in_the_eyes_of_the_gods_free_action_after_incapacitating() -> None:
    """In the Eyes of the Gods: the Champion's Shoot (1AP of its 3) incapacitates the
    Trooper (1 wound left): its next action in that activation is free, so a Dash leaves it
    with its 2AP; the action after that costs again (2 - 1 = 1)."""
    s = _champion_kills()
    assert not s.operative("KAS-10").alive
    assert s.operative("LEG-1").ap == 2
    s, _ = play(s, ["Dash LEG-1 to 5,16"])
    assert s.operative("LEG-1").ap == 2
    s, _ = play(s, ["Normal move LEG-1 to 7,16"])
    assert s.operative("LEG-1").ap == 1


def test_in_the_eyes_of_the_gods_needs_an_incapacitation() -> None:
    """In the Eyes of the Gods: the same shot on a Trooper with its 8 wounds leaves it 3
    (8 - 5): no enemy is incapacitated, so the Dash costs its 1AP (2 - 1 = 1)."""
    s = _champion_kills(wounds=8)
    assert s.operative("KAS-10").alive
    s, _ = play(s, ["Dash LEG-1 to 5,16"])
    assert s.operative("LEG-1").ap == 1


DEFAULT = LEGIONARIES.default()
"""The Legionaries' default roster: LEG-3 is the Heavy Gunner (heavy bolter: Heavy,
Fusillade, P1; Move 6")."""


def _gunner(equipment: list[str]) -> GameState:
    """The Heavy Gunner at (5, 14) activated, the Kasrkin Trooper at (20, 14)."""
    ops = {"LEG-3": {"at": (5, 14)}, "KAS-10": {"at": (20, 14)}}
    s = pos(ops, DEFAULT, equipment={"A": equipment} if equipment else {})
    return s.apply("Activate LEG-3 engage")[0]


def _shoots(s: GameState) -> bool:
    return any(o.startswith("Shoot LEG-3 heavy bolter") for o in options(s))


def test_suspensor_system_shoots_heavy_after_a_short_move() -> None:
    """Suspensor System: without it, a Normal Move of 2" forbids the heavy bolter (Heavy:
    no Shoot after a Normal Move); with it the Shoot is allowed after 2" (at most 3") and
    refused after 4" (moved more than 3")."""
    s, _ = play(_gunner([]), ["Normal move LEG-3 to 7,14"])
    assert not _shoots(s)
    s, _ = play(_gunner(["Suspensor System (LEG-3)"]), ["Normal move LEG-3 to 7,14"])
    assert _shoots(s)
    s, _ = play(_gunner(["Suspensor System (LEG-3)"]), ["Normal move LEG-3 to 9,14"])
    assert not _shoots(s)
    with pytest.raises(IllegalActionError, match="Suspensor System"):
        s.apply("Shoot LEG-3 heavy bolter at KAS-10")


def test_suspensor_system_moves_at_most_three_inches_after_shooting() -> None:
    """Suspensor System: after a Shoot with the heavy bolter (five misses: 1s), a Normal
    Move may go 3" (to x = 8) but not 4" (x = 9); without it Heavy forbids any Normal Move
    after the shot."""
    dice = ["roll 1,1,1,1,1"]
    s, _ = play(_gunner(["Suspensor System (LEG-3)"]), ["Shoot LEG-3 heavy bolter at KAS-10"], dice)
    assert s.apply("Normal move LEG-3 to 8,14")[0].operative("LEG-3").x == 8
    with pytest.raises(IllegalActionError, match='within 3" of movement'):
        s.apply("Normal move LEG-3 to 9,14")
    s, _ = play(_gunner([]), ["Shoot LEG-3 heavy bolter at KAS-10"], dice)
    with pytest.raises(IllegalActionError, match="Heavy"):
        s.apply("Normal move LEG-3 to 7,14")


def _siphon(attack: str) -> tuple[GameState, list[Event]]:
    """The Balefire Acolyte shoots its Life Siphon (5 attacks, BS3+, 3/3) at the Trooper
    7" away; the wounded Warrior (5 of 12 wounds) stands 1.6" from the Trooper, the wounded
    Butcher (5 wounds) 8" from it; the Trooper's three defence dice fail (1,1,1)."""
    ops = {
        "LEG-5": {"at": (5, 14)},
        "LEG-6": {"at": (14, 16), "wounds": 5},
        "LEG-2": {"at": (20, 14), "wounds": 5},
        "KAS-10": {"at": (12, 14)},
    }
    s = activated(ops, "LEG-5")
    return play(s, ["Shoot LEG-5 life siphon at KAS-10"], [attack, "roll 1,1,1"])


def test_siphon_life_force_heals_a_friend_near_the_target() -> None:
    """Siphon Life Force*: two hits retained (4,4,1,1,1): once their damage is done (the
    Trooper 8 - 6 = 2 wounds) the Acolyte's player may select a friendly Legionary within
    6" of the target that has lost wounds: the Warrior (1.6" away), not the Butcher (8"
    away). A D3 of 5 is 3: the Warrior goes from 5 to 8 wounds."""
    s, _ = _siphon("roll 4,4,1,1,1")
    assert s.operative("KAS-10").wounds == 2
    assert options(s) == {"Decline", "Use siphon life force on LEG-6"}
    s, ev = play(s, ["Use siphon life force on LEG-6"], ["roll 5"])
    assert s.operative("LEG-6").wounds == 8
    assert [e["wounds"] for e in ev if e.kind == "wounds_regained"] == [3]


def test_siphon_life_force_needs_two_retained_hits() -> None:
    """Siphon Life Force*: one hit retained (4,1,1,1,1) is fewer than two: nothing is
    offered and the Warrior keeps its 5 wounds."""
    s, _ = _siphon("roll 4,1,1,1,1")
    assert "Use siphon life force on LEG-6" not in options(s)
    assert s.operative("LEG-6").wounds == 5
