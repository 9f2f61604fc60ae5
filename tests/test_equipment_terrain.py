"""The portable barricade in play (``rules/KT24.md`` 7.2 Portable Barricade: Portable,
Protective, Move with Barricade; :mod:`engine.rules.equipment.terrain`), one test per rule.

LAB positions (``test_game_rules_common``): 32 mm bases (radius ``R`` = 0.63"), the open lane
at y 13-16. A portable barricade is 3" x 0.5", 1" high, Light, Protective and Portable
(:mod:`engine.rules.equipment.shapes`); turned 90 degrees it stands across the lane. Placed with
its near face 0.005" from the target's base (centre x = 16 - R - 0.25 - 0.005) the target is
connected to it (within 0.01"). Every test operative has Save 4+; the Gun shoots 4 dice at 3+
for 3/4 damage. No CP: no ploy windows.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.game import IllegalActionError
from engine.game.state import Chance, Decision, GameState
from tests.test_game_rules_common import R, of_kind, play, pos

TOUCH = round(16 - R - 0.25 - 0.005, 3)  # barricade centre touching a base centred at x 16


def shot_at(target_x: float, kind: str = "portable_barricade") -> GameState:
    """RED-1 at (5, 14.5) shoots BLU-1 at (target_x, 14.5); B's barricade stands at TOUCH."""
    tokens: list[dict[str, Any]] = [{"kind": kind, "owner": "B", "at": (TOUCH, 14.5), "angle": 90}]
    s = pos(
        {"RED-1": {"at": (5, 14.5)}, "BLU-1": {"at": (target_x, 14.5)}},
        tokens=tokens,
    )
    s, _ = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-1"], ["6,5,4,1"])
    return s


def test_7_2_portable_gives_cover_to_an_operative_connected_to_it() -> None:
    # Connected: the barricade is an intervening Light feature: the target is in cover, so B
    # is asked for its cover save (4.5).
    assert shot_at(16).node == Decision("B", "cover_save")


def test_7_2_portable_gives_no_cover_to_an_operative_not_connected() -> None:
    # 0.6" behind it (within the target's control range, so a Light feature there gives
    # cover, 4.5; but not connected) the same barricade gives no cover: the defence dice are
    # rolled at once. A light barricade (not Portable) in the same place does give cover.
    s = shot_at(16.6)
    assert isinstance(s.node, Chance) and s.node.request.kind == "defence"
    assert shot_at(16.6, "light_barricade").node == Decision("B", "cover_save")


def conceal_target_shots(target_x: float, kind: str = "portable_barricade") -> list[str]:
    """The Shoot actions RED-1 at (5, 14.5) may take at BLU-1, a Conceal operative at
    (target_x, 14.5), with B's barricade at TOUCH."""
    from tests.test_game_rules_common import attack_texts

    tokens: list[dict[str, Any]] = [{"kind": kind, "owner": "B", "at": (TOUCH, 14.5), "angle": 90}]
    s = pos(
        {"RED-1": {"at": (5, 14.5)}, "BLU-1": {"at": (target_x, 14.5), "order": "conceal"}},
        tokens=tokens,
    )
    s, _ = play(s, ["Activate RED-1 engage"])
    return [a for a in attack_texts(s) if a.startswith("Shoot RED-1 gun")]


def test_7_2_portable_conceal_operative_not_connected_is_a_valid_target() -> None:
    """Portable: the barricade is cover only for an operative connected to it, and a Conceal
    operative is a valid target when visible and not in cover (4.5). 0.6" behind the
    barricade (not connected) BLU-1 is in no cover, so RED-1 may shoot it, as the attack
    itself would give it no cover save (the previous test). Connected, it is in cover and
    not a valid target; a light barricade (not Portable) 0.6" in front of it still puts it in
    cover (within its control range, 4.5), so it is not a valid target either."""
    assert conceal_target_shots(16.6) == ["Shoot RED-1 gun at BLU-1"]
    assert conceal_target_shots(16) == []
    assert conceal_target_shots(16.6, "light_barricade") == []


def test_7_2_protective_improves_the_save_by_1_in_cover() -> None:
    # In cover from the portable barricade (Protective): Save 4+ becomes 3+. One cover save
    # retained, two dice rolled 3 and 1: the 3 saves too (2 normal saves). Behind a light
    # barricade (not Protective) the 3 fails at 4+ (1 normal save: the cover save).
    for kind, saves in (("portable_barricade", 2), ("light_barricade", 1)):
        s = shot_at(16, kind)
        s, ev = play(s, ["Cover save normal"], ["3,1"])
        got = of_kind(ev, "saves_retained")[0]
        assert (got["normals"], got["crits"]) == (saves, 0), kind


def barricade_position() -> GameState:
    # BLU-1 connected to its portable barricade at TOUCH; RED-1 far away.
    return pos(
        {"RED-1": {"at": (3, 3)}, "BLU-1": {"at": (16, 14.5)}},
        tokens=[{"kind": "portable_barricade", "owner": "B", "at": (TOUCH, 14.5), "angle": 90}],
        turn="B",
    )


def test_7_2_move_with_barricade_moves_it_connected_up_to_move_minus_2() -> None:
    # Move 6" - 2" = 4": 4" east is listed and taken; the barricade is set up connected again
    # on the same (west) side, 4" further east; the operative spent 1AP.
    s, ev = play(
        barricade_position(), ["Activate BLU-1 engage", "Act BLU-1 move with barricade at 20,14.5"]
    )
    blu = s.operative("BLU-1")
    assert (blu.x, blu.y, blu.ap) == (20.0, 14.5, 1)
    (t,) = s.tokens
    assert t.name == "B portable barricade" and t.x == pytest.approx(TOUCH + 4, abs=0.01)
    assert of_kind(ev, "barricade_moved")


def test_7_2_move_with_barricade_no_further_than_move_minus_2() -> None:
    s, _ = play(barricade_position(), ["Activate BLU-1 engage"])
    with pytest.raises(IllegalActionError, match="at most 4"):
        s.apply("Act BLU-1 move with barricade at 21,14.5")


def test_7_2_move_with_barricade_is_treated_as_a_reposition() -> None:
    # Treated as a Reposition: no Reposition in the same activation (once per activation),
    # and not in the activation of a Fall Back or Charge (3.2 exclusions).
    s, _ = play(
        barricade_position(),
        ["Activate BLU-1 engage", "Act BLU-1 move with barricade at 18,14.5"],
    )
    assert not any(a.verb == "Reposition" for a in s.legal_actions())
    with pytest.raises(IllegalActionError, match="once per activation"):
        s.apply("Reposition BLU-1 to 18,16")


def test_7_2_move_with_barricade_needs_a_connected_barricade() -> None:
    s = pos(
        {"RED-1": {"at": (3, 3)}, "BLU-1": {"at": (18, 14.5)}},
        turn="B",
        tokens=[{"kind": "portable_barricade", "owner": "B", "at": (TOUCH, 14.5), "angle": 90}],
    )
    s, _ = play(s, ["Activate BLU-1 engage"])
    assert not any(a.verb == "Act" for a in s.legal_actions())
    with pytest.raises(IllegalActionError, match="not connected"):
        s.apply("Act BLU-1 move with barricade at 20,14.5")


def test_4_8_a_carried_marker_goes_with_its_carrier_on_a_move_with_barricade() -> None:
    # BLU-1 carries the objective marker: moving with its barricade takes the marker along
    # (a carried marker is where its carrier is).
    s = pos(
        {"RED-1": {"at": (3, 3)}, "BLU-1": {"at": (16, 14.5), "carrying": "obj"}},
        tokens=[{"kind": "portable_barricade", "owner": "B", "at": (TOUCH, 14.5), "angle": 90}],
        turn="B",
    )
    s, _ = play(s, ["Activate BLU-1 engage", "Act BLU-1 move with barricade at 20,14.5"])
    (m,) = s.markers
    assert (m.carrier, m.x, m.y) == ("BLU-1", 20.0, 14.5)
