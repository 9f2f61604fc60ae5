"""The KT18 Movement phase (rules/KT18.md 3.1-3.13): each rule named, on the open battlefield
of ``tests/kt18_flow_support.py`` (Troopers: M 6", 25mm bases, so two bases whose centres are
d" apart are d - 0.984" apart)."""

from __future__ import annotations

import pytest

from engine.game.actions import IllegalActionError
from engine.game.state import Chance, Decision, GameState
from tests.kt18_flow_support import apply_all, kt18_position, with_overwatch

BASE = 25 / 25.4  # a 25mm base's diameter in inches


def _acts(state: GameState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def _refused(state: GameState, action: str, match: str) -> None:
    before = state.hash()
    with pytest.raises(IllegalActionError, match=match):
        state.apply(action)
    assert state.hash() == before


def _op(state: GameState, op_id: str):
    return next(o for o in state.operatives if o.id == op_id)


def test_movement_turn_is_the_initiative_players_first() -> None:
    """3.1: the player with the initiative takes the first turn of the Movement phase."""
    s = kt18_position({"TESA-1": (5, 5), "TESB-1": (25, 5)}, initiative="B")
    assert s.node == Decision("B", "kt18_movement") and s.phase == "movement"


def test_normal_move_is_up_to_m() -> None:
    """3.4: a normal move is 0 to M inches: 6" across open ground is legal, 6.5" is not."""
    s = kt18_position({"TESA-1": (5, 5), "TESB-1": (25, 5)})
    after, _ = s.apply("Move TESA-1 to 11,5")
    assert (_op(after, "TESA-1").x, _op(after, "TESA-1").y) == (11.0, 5.0)
    assert "moved" in _op(after, "TESA-1").done
    _refused(s, "Move TESA-1 to 11.5,5", r"no legal path within 6")


def test_normal_move_never_ends_within_one_inch_of_an_enemy() -> None:
    """3.5: ending 1.5" centre to centre from an enemy leaves 1.5 - 0.984 = 0.516" between
    the bases, within 1": refused, naming the enemy and the rule."""
    s = kt18_position({"TESA-1": (5, 5), "TESB-1": (12, 5)})
    _refused(s, "Move TESA-1 to 10.5,5", r"TESB-1.*3\.4, 3\.5|3\.5")


def test_listed_moves_keep_the_one_inch_rule() -> None:
    """3.5: every listed destination of a normal move is more than 1" from every enemy."""
    s = kt18_position({"TESA-1": (5, 5), "TESB-1": (9, 5)})
    s, _ = s.apply("Move TESA-1")
    assert s.node == Decision("A", "kt18_destination")
    points = [a.point for a in s.legal_actions() if a.point is not None]
    assert points
    for x, y, _z in points:
        gap = ((x - 9) ** 2 + (y - 5) ** 2) ** 0.5 - BASE
        assert gap > 1.0


def test_model_within_one_inch_at_the_start_may_only_fall_back() -> None:
    """3.5, 3.6: a model that starts the phase within 1" of an enemy can make no normal move,
    Advance, Ready or charge: it stays or Falls Back."""
    s = kt18_position({"TESA-1": (5, 5), "TESA-2": (5, 15), "TESB-1": (6.5, 5)})
    mine = {a for a in _acts(s) if "TESA-1" in a}
    assert mine == {"Fall Back TESA-1"}
    _refused(s, "Move TESA-1 to 3,5", r"3\.6")
    _refused(s, "Ready TESA-1", r"3\.6")
    assert "Move TESA-2" in _acts(s) and "Fall Back TESA-2" not in _acts(s)


def test_fall_back_ends_more_than_one_inch_from_every_enemy() -> None:
    """3.6: a Fall Back moves up to M and ends more than 1" from every enemy; it gives the
    fell_back token (no shooting this round), and the model is done for the phase."""
    s = kt18_position({"TESA-1": (5, 5), "TESB-1": (6.5, 5)})
    _refused(s, "Fall Back TESA-1 to 5,6", r'within 1" of the enemy model TESB-1')
    after, _ = s.apply("Fall Back TESA-1 to 2,5")
    assert {"fell_back", "moved"} <= set(_op(after, "TESA-1").done)
    assert not any("TESA-1" in a for a in _acts(after))


def test_advance_adds_the_d6_roll_to_m() -> None:
    """3.7: the Advance roll (a D6) is added to M: with a 3 the model may move 6 + 3 = 9",
    not 9.5"; it is marked as having Advanced (no charge, React or shooting after)."""
    s = kt18_position({"TESA-1": (5, 5), "TESB-1": (25, 5)})
    s, _ = s.apply("Advance TESA-1")
    assert isinstance(s.node, Chance) and s.node.request.kind == "kt18_advance"
    s, events = s.apply("roll 3")
    assert [e["move"] for e in events if e.kind == "kt18_advanced"] == [9.0]
    assert {"advanced", "moved"} <= set(_op(s, "TESA-1").done)
    _refused(s, "Move TESA-1 to 14.5,5", r"no legal path within 9")
    after, _ = s.apply("Move TESA-1 to 14,5")
    assert _op(after, "TESA-1").x == 14.0


def test_advancing_model_may_stay() -> None:
    """3.7: the Advance move is 0 to M + D6: after the roll the model may stay (``Pass``)."""
    s = kt18_position({"TESA-1": (5, 5), "TESB-1": (25, 5)})
    s, _ = apply_all(s, "Advance TESA-1", "roll 1", "Pass")
    assert _op(s, "TESA-1").x == 5.0 and "advanced" in _op(s, "TESA-1").done


def test_ready_is_not_a_move() -> None:
    """3.8: Readying keeps the model where it is and is not a move (no ``moved`` token for
    Heavy, 5.9); the model has had its one action of the phase (3.1)."""
    s = kt18_position({"TESA-1": (5, 5), "TESA-2": (5, 15), "TESB-1": (25, 5)})
    s, events = s.apply("Ready TESA-1")
    o = _op(s, "TESA-1")
    assert o.done == ("readied",) and (o.x, o.y) == (5.0, 5.0)
    assert [e.kind for e in events if e.kind.startswith("kt18")] == ["kt18_readied"]
    _refused(s, "Move TESA-1 to 6,5", r"once \(rules/KT18.md 3\.1\)")


def test_a_shaken_model_does_nothing() -> None:
    """8.5: a shaken model cannot move, Advance, Ready or charge."""
    s = kt18_position(
        {"TESA-1": (5, 5), "TESA-2": (5, 15), "TESB-1": (25, 5)},
        effects=[{"kind": "kt18_shaken", "op": "TESA-1", "until": "end_battle"}],
    )
    assert not any("TESA-1" in a for a in _acts(s))
    _refused(s, "Ready TESA-1", r"shaken.*8\.5")


def test_charge_targets_are_enemies_within_12_inches() -> None:
    """3.9, 3.10: charge targets are enemy models within 12" (distance alone): 7" centre to
    centre is 6.016" between bases, a target; 13" is 12.016", not one."""
    s = kt18_position({"TESA-1": (5, 5), "TESB-1": (12, 5), "TESB-2": (5, 18), "TESB-3": (12, 9)})
    acts = _acts(s)
    assert "Charge TESA-1 at TESB-1" in acts and "Charge TESA-1 at TESB-2" not in acts
    _refused(s, "Charge TESA-1 at TESB-2", r"not within 12")
    s, _ = s.apply("Charge TESA-1 at TESB-1")
    assert s.node == Decision("A", "kt18_charge_targets")
    assert _acts(s) == {"Also TESB-3", "Done"}
    assert "charge_attempt" in _op(s, "TESA-1").done


def test_overwatch_is_offered_only_to_targets() -> None:
    """3.11: only a target of the charge may React; with the shooting rules saying every
    model can fire Overwatch, the target TESB-1 is offered it and TESB-3, not a target, is
    not (it is within 12" of the charger, but was not chosen as a target)."""
    s = kt18_position({"TESA-1": (5, 5), "TESB-1": (12, 5), "TESB-2": (12, 9), "TESB-3": (5, 12)})
    s = with_overwatch(s, resolve=lambda **_: None)  # the Overwatch itself not resolved here
    s, _ = apply_all(s, "Charge TESA-1 at TESB-1", "Also TESB-2", "Done")
    assert s.node == Decision("B", "kt18_reaction")
    acts = _acts(s)
    assert {"Overwatch TESB-1", "Overwatch TESB-2"} <= acts and "Overwatch TESB-3" not in acts
    _refused(s, "Overwatch TESB-3", r"not a target")
    s, events = s.apply("Overwatch TESB-1")
    assert "overwatch" in _op(s, "TESB-1").done
    assert any(e.kind == "kt18_reaction" and e["reaction"] == "overwatch" for e in events)
    _refused(s, "Overwatch TESB-1", r"already Reacted")


def test_no_overwatch_without_a_shot() -> None:
    """3.11: Overwatch is a shooting attack; when the shooting rules say the target cannot
    fire it (``kt18_can_overwatch`` False), it is not offered (Retreat still is)."""
    s = kt18_position({"TESA-1": (5, 5), "TESB-1": (12, 5)})
    s = s.with_hooks(lambda h: h.transform("kt18_can_overwatch", lambda w, v, **k: False))
    s, _ = s.apply("Charge TESA-1 at TESB-1")
    assert s.node == Decision("B", "kt18_reaction")
    acts = _acts(s)
    assert not any(a.startswith("Overwatch") for a in acts)
    assert any(a.startswith("Retreat TESB-1 to") for a in acts)


def test_retreat_ends_further_from_the_charger() -> None:
    """3.12: a Retreat is up to 3" and ends further from the charger; it gives the retreated
    token and counts as a move (Heavy)."""
    s = kt18_position({"TESA-1": (5, 5), "TESB-1": (12, 5)})
    s, _ = s.apply("Charge TESA-1 at TESB-1")
    _refused(s, "Retreat TESB-1 to 11,5", r"further from the charger")
    _refused(s, "Retreat TESB-1 to 15.5,5", r"no legal path within 3")
    s, _ = s.apply("Retreat TESB-1 to 15,5")
    assert {"retreated", "moved"} <= set(_op(s, "TESB-1").done)


def test_successful_charge_ends_within_one_inch() -> None:
    """3.13: a charge roll of 7 covers the 6.016" gap: the charger must make its charge move
    (``Pass`` refused), ends within 1" of its target, has charged, the target was charged."""
    s = kt18_position({"TESA-1": (5, 5), "TESA-2": (25, 20), "TESB-1": (12, 5)})
    s, _ = apply_all(s, "Charge TESA-1 at TESB-1", "Pass")
    assert isinstance(s.node, Chance) and s.node.request.kind == "kt18_charge"
    s, _ = s.apply("roll 4,3")
    assert s.node == Decision("A", "kt18_charge_move")
    _refused(s, "Pass", r"makes its charge move")
    s, events = s.apply(s.legal_actions()[0])
    ended = [e for e in events if e.kind == "kt18_charge_ended"]
    assert ended and ended[0]["success"] and ended[0]["charged"] == ("TESB-1",)
    assert "charged" in _op(s, "TESA-1").done and "was_charged" in _op(s, "TESB-1").done


def test_failed_charge_may_stay() -> None:
    """3.13: a charge roll of 2 cannot cover 6.016": the charge fails; the model may stay
    (reading chosen: the move is optional) and still made its charge attempt."""
    s = kt18_position({"TESA-1": (5, 5), "TESB-1": (12, 5)})
    s, _ = apply_all(s, "Charge TESA-1 at TESB-1", "Pass", "roll 1,1")
    assert "Pass" in _acts(s)
    s, events = s.apply("Pass")
    assert any(e.kind == "kt18_charge_ended" and not e["success"] for e in events)
    o = _op(s, "TESA-1")
    assert (o.x, o.y) == (5.0, 5.0) and "charge_attempt" in o.done and "charged" not in o.done


def test_failed_charge_move_goes_as_close_as_possible() -> None:
    """3.13: a failed charge's move must bring the model as close as possible to a target:
    a 2" move straight at it is allowed, a 1" one is not (it could get closer)."""
    s = kt18_position({"TESA-1": (5, 5), "TESB-1": (12, 5)})
    s, _ = apply_all(s, "Charge TESA-1 at TESB-1", "Pass", "roll 1,1")
    _refused(s, "Charge TESA-1 to 6,5", r"as close as possible")
    after, _ = s.apply("Charge TESA-1 to 7,5")
    assert _op(after, "TESA-1").x == 7.0


def test_a_model_charged_cannot_fall_back_this_phase() -> None:
    """3.6: a model an enemy ended a charge move within 1" of cannot Fall Back; with the
    charge made in A's turn, B's charged model has nothing to do in its own turn."""
    s = kt18_position({"TESA-1": (5, 5), "TESB-1": (12, 5), "TESB-2": (25, 20)})
    s, _ = apply_all(s, "Charge TESA-1 at TESB-1", "Pass", "roll 4,3")
    s, _ = s.apply(s.legal_actions()[0])  # A has nothing left to do: B's turn begins
    assert s.node == Decision("B", "kt18_movement")
    assert not any("TESB-1" in a for a in _acts(s))
