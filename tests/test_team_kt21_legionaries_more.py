"""More of the KT21 Legionaries' team rules in play (``teams/kt21_legionaries``;
``rules/KT21.md`` 6.2, 10, 11): In the Eyes of the Gods. Fixtures:
``tests/kt21_team_support`` (player A the Legionaries, player B the Kasrkin; open lane
y 13-16).
"""

from __future__ import annotations

from engine.game import GameState
from tests.kt21_team_support import activated, options, play


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
