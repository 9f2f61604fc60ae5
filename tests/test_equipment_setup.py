"""Selecting universal equipment and setting up pre-battle items (``rules/KT24.md`` 1.2 steps
2 and 3, 7.2; :mod:`engine.rules.equipment.selection`), one test per rule.

Battles on LAB (``test_game_rules_common``): drop zones A (x 0-6) and B (x 24-30), no
territories, so each player's territory is its drop zone. The set-up roll-off 6 v 1 gives A
the choice; A keeps initiative and takes drop zone A.
"""

from __future__ import annotations

import attrs
import pytest

from engine.game import GameOptions, IllegalActionError
from engine.game.setup import SetupError
from engine.game.state import Decision, GameState
from engine.rulesets import new_game
from tests.test_game_rules_common import BLU, LAB, RED, kinds, of_kind, play, roster


def to_selection(options: GameOptions | None = None) -> tuple[GameState, list[str]]:
    """A battle on LAB up to the equipment selection (A wins the roll-off and takes drop zone
    A); the kill op alone, so no mission step comes between (``test_missions_pack.py``)."""
    options = attrs.evolve(options or GameOptions(), mission="kill_op")
    s = new_game(LAB, roster(RED, ("Trooper",)), roster(BLU, ("Trooper",)), options)
    s, ev = play(s, ["Initiative A", "Drop zone A"], ["6,1"])
    return s, kinds(ev)


def test_1_2_equipment_is_selected_after_the_drop_zones_before_deployment() -> None:
    # 1.2 step 2 (select equipment) comes after step 1's drop zones and before step 3's set-up.
    s, _ = to_selection()
    assert s.node == Decision("A", "equipment")
    s, _ = play(s, ["Equipment done", "Equipment done"])
    assert s.node == Decision("A", "deploy")


def test_7_2_each_option_at_most_once_and_at_most_four() -> None:
    # 7.2: up to four options, each once. After four, A's selection ends without asking (B's
    # turn); an option already taken is neither listed nor accepted, whatever its split.
    s, _ = to_selection()
    s, _ = play(s, ["Equipment utility grenades (2 smoke)"])
    listed = {a.text for a in s.legal_actions()}
    assert "utility grenades (2 stun)" not in listed and "mines" in listed
    before = s.hash()
    with pytest.raises(IllegalActionError, match="selected twice"):
        s.apply("Equipment utility grenades (smoke and stun)")
    assert s.hash() == before  # nothing half applied
    s, _ = play(s, ["Equipment mines", "Equipment ammo cache", "Equipment ladders"])
    assert s.node == Decision("B", "equipment")
    assert s.player("A").equipment == (
        "Utility Grenades (2 smoke)",
        "Mines",
        "Ammo Cache",
        "Ladders",
    )


def test_1_2_selections_are_revealed_only_when_both_are_made() -> None:
    # 1.2: secretly selected, then revealed together: no equipment_selected event until B is
    # done, then one per player, A first.
    s, _ = to_selection()
    s, ev = play(s, ["Equipment mines", "Equipment done"])
    assert "equipment_selected" not in kinds(ev)
    s, ev = play(s, ["Equipment done"])
    got = of_kind(ev, "equipment_selected")
    assert [(e["player"], e["items"]) for e in got] == [("A", ("Mines",)), ("B", ())]


def test_7_2_a_selection_given_as_an_option_is_not_asked() -> None:
    # The game option fixes the selections: no equipment decision, set-up goes on.
    opts = GameOptions(equipment={"A": ["mines"], "B": []})
    s, _ = to_selection(opts)
    assert s.player("A").equipment == ("Mines",)
    assert s.node == Decision("A", "equipment_setup")


def test_7_2_an_unknown_or_doubled_selection_option_is_refused_at_set_up() -> None:
    with pytest.raises(SetupError, match="unknown universal equipment 'minez'"):
        to_selection(GameOptions(equipment={"A": ["minez"]}))
    with pytest.raises(SetupError, match="at most 4"):
        to_selection(
            GameOptions(
                equipment={"A": ["mines", "ammo cache", "ladders", "comms device", "razor wire"]}
            )
        )


def test_1_2_pre_battle_items_are_set_up_one_at_a_time_alternately_initiative_first() -> None:
    # 1.2 step 3: item by item (not option by option), starting with the initiative player.
    # A has two light barricades, B one mine: A, B, A; then deployment.
    opts = GameOptions(equipment={"A": ["light barricades"], "B": ["mines"]})
    s, _ = to_selection(opts)
    order = []
    while isinstance(s.node, Decision) and s.node.kind == "equipment_setup":
        order.append(s.node.player)
        spot = next(a for a in s.legal_actions() if a.verb == "Set up")
        s, _ = s.apply(spot)
    assert order == ["A", "B", "A"]
    assert s.node == Decision("A", "deploy")
    assert sorted(t.name for t in s.tokens) == [
        "A light barricade",
        "A light barricade 2",
        "B mines",
    ]


def test_1_2_a_player_who_passes_sets_up_no_more_items() -> None:
    opts = GameOptions(equipment={"A": ["light barricades"], "B": []})
    s, _ = to_selection(opts)
    s, _ = play(s, ["Pass"])
    assert s.node == Decision("A", "deploy") and s.tokens == ()


def test_7_2_heavy_barricade_wholly_within_4_inches_of_the_drop_zone() -> None:
    # The heavy barricade (4" x 1") turned 90 degrees and centred at x 9.5 spans x 9-10: at
    # most 4" from the drop zone's edge (x 6): legal. Centred at x 10.5 (x 10-11) it is not
    # wholly within 4": refused (7.2).
    opts = GameOptions(equipment={"A": ["heavy barricade"], "B": []})
    s, _ = to_selection(opts)
    before = s.hash()
    with pytest.raises(IllegalActionError, match=r"7\.2"):
        s.apply("Set up heavy barricade at 10.5,14.5 90")
    assert s.hash() == before
    s, _ = play(s, ["Set up heavy barricade at 9.5,14.5 90"])
    assert [t.kind for t in s.tokens] == ["heavy_barricade"]


def test_7_2_equipment_is_set_up_wholly_within_its_territory_on_the_floor() -> None:
    # A's territory is its drop zone (x 0-6): a light barricade (3" x 0.5") centred at x 6 is
    # not wholly within it; at elevation 1 it is not on the killzone floor.
    opts = GameOptions(equipment={"A": ["light barricades"], "B": []})
    s, _ = to_selection(opts)
    with pytest.raises(IllegalActionError, match="territory"):
        s.apply("Set up light barricade at 6,14.5 90")
    with pytest.raises(IllegalActionError, match="floor"):
        s.apply("Set up light barricade at 3,14.5,1 90")
    play(s, ["Set up light barricade at 3,14.5 90"])


def test_7_2_equipment_terrain_more_than_2_inches_from_other_equipment_terrain() -> None:
    # Two light barricades (0.5" deep at angle 90): centres 2.4" apart leave a 1.9" gap
    # (refused: not more than 2"); 2.6" apart leave 2.1" (legal).
    opts = GameOptions(equipment={"A": ["light barricades"], "B": []})
    s, _ = to_selection(opts)
    s, _ = play(s, ["Set up light barricade at 2,14.5 90"])
    with pytest.raises(IllegalActionError, match='2"'):
        s.apply("Set up light barricade at 4.4,14.5 90")
    play(s, ["Set up light barricade at 4.6,14.5 90"])


def test_7_2_mines_more_than_2_inches_from_other_markers() -> None:
    # A's ammo cache at (3, 10); both are 20 mm markers (0.787" across), so centres 2.6"
    # apart leave a 2.6 - 0.787 = 1.81" gap: refused; 3" apart leave 2.21": legal.
    opts = GameOptions(equipment={"A": ["ammo cache", "mines"], "B": []})
    s, _ = to_selection(opts)
    s, _ = play(s, ["Set up ammo cache at 3,10 0"])
    with pytest.raises(IllegalActionError, match=r"more than 2\" from other markers"):
        s.apply("Set up mines at 3,12.6 0")
    play(s, ["Set up mines at 3,13 0"])


def test_7_2_an_item_not_selected_cannot_be_set_up() -> None:
    opts = GameOptions(equipment={"A": ["mines"], "B": []})
    s, _ = to_selection(opts)
    with pytest.raises(IllegalActionError, match="no 'ladder' left"):
        s.apply("Set up ladder at 3,10 0")


def test_7_2_listed_spots_are_all_legal() -> None:
    # Every listed placement is accepted (the listing and the checks agree).
    opts = GameOptions(equipment={"A": ["portable barricade", "comms device"], "B": []})
    s, _ = to_selection(opts)
    spots = [a for a in s.legal_actions() if a.verb == "Set up"]
    assert {a.text for a in spots} == {"portable barricade", "comms device"}
    for a in spots:
        assert s.is_legal(a), a
