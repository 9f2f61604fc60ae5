"""KT18 saves, damage, Injury rolls, flesh wounds, out of action and mortal wounds
(rules/KT18.md 6.6-6.13). Positions: tests/kt18_attack_support.py; the shooter RED-1 is at
(5, 14) and its target at (15, 14), 9.02" away (no long range for any of its guns)."""

from __future__ import annotations

from engine.dice.kt18_values import parse_random_value
from engine.game.flow import advance
from engine.game.state import Chance
from engine.game.work import Work
from engine.rules.kt18.shooting import ShootingPhaseFrame
from engine.rules.kt18.wounds import (
    InjuryFrame,
    flesh_wound,
    flesh_wounds,
    push_mortal_wounds,
)
from tests.kt18_attack_support import EndFrame, flesh, kinds, play, pos


def _at(target: str, **kw: object) -> object:
    return pos(
        ShootingPhaseFrame(),
        {"RED-1": {"at": (5, 14)}, target: {"at": (15, 14)}},
        **kw,  # type: ignore[arg-type]
    )


def _shoot(target: str, weapon: str, dice: list[str], **kw: object) -> tuple[object, list]:
    return play(_at(target, **kw), ["Shoot RED-1", f"Shoot RED-1 {weapon} at {target}"], dice)  # type: ignore[arg-type]


def test_injury_roll_of_3_or_less_is_a_flesh_wound() -> None:
    """rules/KT18.md 6.9, 6.11: the bolt pistol (1 attack, S4 AP0 D1) at the Gunner (W1,
    Sv 3+): hit 6, wound 6, save 2 fails (2 < 3), 1 wound lost -> 0 wounds, one Injury die
    (D 1) rolled by the attacking player: a 3 is a flesh wound: back on 1 wound with one box
    marked."""
    s, events = _shoot("BLU-1", "bolt pistol", ["6", "6", "2", "3"])
    (inj,) = kinds(events, "kt18_injury_roll")
    assert (inj["dice"], inj["modifier"], inj["out_of_action"], inj["roller"]) == (
        (3,),
        0,
        False,
        "A",
    )
    w = Work(s)  # type: ignore[arg-type]
    assert w.op("BLU-1").wounds == 1 and w.op("BLU-1").placed
    assert flesh_wounds(w, "BLU-1") == 1


def test_injury_roll_of_4_is_out_of_action_and_the_model_is_removed() -> None:
    """rules/KT18.md 6.9, 6.12: an Injury roll of 4+ takes the model out of action; it is
    removed from the battlefield at once."""
    s, events = _shoot("BLU-1", "bolt pistol", ["6", "6", "2", "4"])
    assert [e["op"] for e in kinds(events, "kt18_out_of_action")] == ["BLU-1"]
    o = Work(s).op("BLU-1")  # type: ignore[arg-type]
    assert o.incapacitated and not o.placed


def test_each_flesh_wound_adds_one_to_the_injury_roll() -> None:
    """rules/KT18.md 6.9: +1 per flesh wound already marked: with 2 marked, a 2 becomes 4,
    out of action."""
    _, events = _shoot("BLU-1", "bolt pistol", ["6", "6", "2", "2"], effects=flesh("BLU-1", 2))
    (inj,) = kinds(events, "kt18_injury_roll")
    assert (inj["modifier"], inj["out_of_action"]) == (2, True)


def test_out_of_action_when_a_flesh_wound_finds_no_empty_box() -> None:
    """rules/KT18.md 6.11 (reading (a)): with 3 boxes, the 3rd flesh wound is marked and the
    model stays; a flesh wound with every box marked is out of action instead."""
    s = _at("BLU-1", effects=flesh("BLU-1", 2))
    w = Work(s)  # type: ignore[arg-type]
    flesh_wound(w, "BLU-1")
    assert flesh_wounds(w, "BLU-1") == 3 and w.op("BLU-1").placed
    flesh_wound(w, "BLU-1")
    assert not w.op("BLU-1").placed and w.op("BLU-1").incapacitated


def test_injury_cover_modifier_can_leave_a_flesh_wound_with_boxes_full() -> None:
    """rules/KT18.md 6.9, 6.11: 3 flesh wounds (+3) and the -1 of cover: a 1 gives 3, a flesh
    wound, but no box is empty, so the model is out of action."""
    s = _at("BLU-1", effects=flesh("BLU-1", 3))
    w = Work(s)  # type: ignore[arg-type]
    w.set_op("BLU-1", wounds=0)
    w.stack = [EndFrame(), InjuryFrame("BLU-1", "RED-1", "A", 1, -1)]
    w.node = None
    advance(w)
    w.node = None
    w.top.rolled(w, (1,))
    (inj,) = kinds(w.events, "kt18_injury_roll")
    assert (inj["modifier"], inj["out_of_action"]) == (2, False)
    assert kinds(w.events, "kt18_out_of_action")


def test_damage_above_1_rolls_that_many_injury_dice_highest_counts() -> None:
    """rules/KT18.md 6.10: the lascannon (D 3) takes the Tough model's 3 wounds (T8: S9 > T8
    needs 3+; Sv 6+ with AP -3 cannot save: 6 - 3 = 3 < 6); the Injury roll is 3 dice and
    the highest counts: 3,2,1 -> 3, a flesh wound."""
    _, events = _shoot("BLU-4", "lascannon", ["6", "6", "6", "3,2,1"])
    (lost,) = kinds(events, "kt18_wounds_lost")
    assert (lost["damage"], lost["wounds"]) == (3, 0)
    (inj,) = kinds(events, "kt18_injury_roll")
    assert (inj["dice"], inj["out_of_action"]) == ((3, 2, 1), False)
    (save,) = kinds(events, "kt18_saving_throw")
    assert (save["save"], save["saved"]) == ("armour", False)  # an unmodified 6 never saves here


def test_invulnerable_save_ignores_ap() -> None:
    """rules/KT18.md 6.7: the Brute (Sv 4+, invulnerable 5+) against the lascannon's AP -3
    uses its invulnerable save (4+ -3 needs 7); a 5 saves."""
    _, events = _shoot("BLU-2", "lascannon", ["6", "6", "5"])
    (save,) = kinds(events, "kt18_saving_throw")
    assert (save["save"], save["saved"]) == ("invulnerable", True)


def test_a_model_without_save_has_none() -> None:
    """rules/KT18.md 6.6 decision: Sv "-" and no invulnerable save: no saving throw passes,
    even a 6."""
    _, events = _shoot("BLU-3", "bolt pistol", ["6", "6", "6", "1"])
    (save,) = kinds(events, "kt18_saving_throw")
    assert (save["save"], save["saved"]) == ("none", False)


def test_attacks_left_are_discarded_once_the_model_is_out_of_action() -> None:
    """rules/KT18.md 6.8: the heavy bolter's 3 wounds on the Grot (W1): the first failed save
    takes it to 0, the Injury roll 6 puts it out of action, and the two other saves are
    never rolled."""
    _, events = _shoot("BLU-3", "heavy bolter", ["6,6,6", "6,6,6", "1", "6"])
    assert len(kinds(events, "kt18_saving_throw")) == 1
    assert kinds(events, "kt18_out_of_action")


def test_mortal_wounds_skip_the_wound_roll_and_saves() -> None:
    """rules/KT18.md 6.13: 2 mortal wounds on the Tough model (W3) take 2 wounds with no die
    rolled; 4 more take its last wound, discard the rest and give one Injury die rolled by
    the player who caused them."""
    s = _at("BLU-4")
    w = Work(s)  # type: ignore[arg-type]
    w.stack = [EndFrame()]
    push_mortal_wounds(w, "BLU-4", 2, roller="A", source="test")
    w.node = None
    advance(w)
    assert w.op("BLU-4").wounds == 1 and w.node is not None
    assert not isinstance(w.node, Chance)
    w.stack = [EndFrame()]
    push_mortal_wounds(w, "BLU-4", 4, roller="A", source="test")
    w.node = None
    advance(w)
    assert isinstance(w.node, Chance)
    assert (w.node.request.kind, w.node.request.dice, w.node.request.player) == (
        "kt18_injury",
        1,
        "A",
    )
    assert [e["damage"] for e in kinds(w.events, "kt18_wounds_lost")] == [1, 1, 1]


def test_a_random_number_of_mortal_wounds_is_rolled_first() -> None:
    """rules/KT18.md 6.13, 1.2: D3 mortal wounds: one D6 halved rounding up; a 3 gives 2."""
    s = _at("BLU-4")
    w = Work(s)  # type: ignore[arg-type]
    w.stack = [EndFrame()]
    push_mortal_wounds(w, "BLU-4", parse_random_value("D3"), roller="B", source="test")
    w.node = None
    advance(w)
    assert isinstance(w.node, Chance) and w.node.request.kind == "kt18_mortal_count"
    w.node = None
    w.top.rolled(w, (3,))
    advance(w)
    assert w.op("BLU-4").wounds == 1
