"""The KT18 Morale phase (rules/KT18.md 8.1-8.5): broken checks, Shaken tokens removed,
Nerve tests with their modifiers, tokens cleared at the end of the round. The Troopers of
the KT18 test team have Ld 6."""

from __future__ import annotations

from typing import Any

import pytest

from engine.game.actions import IllegalActionError
from engine.game.state import Chance, Decision, GameState
from tests.kt18_flow_support import apply_all, kt18_position


def _flesh(*ops: str) -> list[dict[str, Any]]:
    return [{"kind": "kt18_flesh_wound", "op": op, "until": "end_battle"} for op in ops]


def _out(*ops: str) -> dict[str, dict[str, Any]]:
    return {op: {"incapacitated": True} for op in ops}


def _chance(state: GameState) -> str:
    assert isinstance(state.node, Chance), state.node
    return state.node.request.kind


def _broken(state: GameState, player: str) -> bool:
    return any(e.kind == "kt18_broken" and e.player == player for e in state.effects)


def _shaken(state: GameState, op: str) -> bool:
    return any(e.kind == "kt18_shaken" and e.op == op for e in state.effects)


def _morale(at: dict[str, tuple[float, float]], a: int, **kw: Any) -> tuple[GameState, list[Any]]:
    return kt18_position(at, a=a, b=1, phase="morale", **kw), []


def test_broken_when_every_model_is_a_casualty() -> None:
    """8.2: a kill team whose every model has a flesh wound, is shaken or out of action is
    broken without a roll; broken, every model on the battlefield takes a Nerve test."""
    s, _ = _morale(
        {"TESA-1": (5, 5), "TESB-1": (25, 20)},
        a=2,
        effects=_flesh("TESA-1"),
        operatives=_out("TESA-2"),
    )
    assert _broken(s, "A")
    assert _chance(s) == "kt18_nerve"


def test_broken_check_rolls_2d6_above_the_highest_leadership() -> None:
    """8.2: with 2 of 3 models casualties (more than half) the player rolls 2D6: 7 is above
    Ld 6, broken; 6 is not above it, not broken."""
    s, _ = _morale(
        {"TESA-1": (5, 5), "TESA-2": (9, 5), "TESA-3": (15, 5), "TESB-1": (25, 20)},
        a=3,
        effects=_flesh("TESA-1", "TESA-2"),
    )
    assert _chance(s) == "kt18_broken_check"
    broke, events = s.apply("roll 6,1")
    check = next(e for e in events if e.kind == "kt18_broken_check")
    assert (check["roll"], check["leadership"], check["broken"]) == (7, 6, True)
    assert _broken(broke, "A")
    held, _ = s.apply("roll 5,1")
    assert not _broken(held, "A")


def test_no_broken_check_at_exactly_half() -> None:
    """8.2: 1 casualty of 2 models is not more than half: no roll; the wounded model's Nerve
    test comes next."""
    s, _ = _morale(
        {"TESA-1": (5, 5), "TESA-2": (15, 5), "TESB-1": (25, 20)}, a=2, effects=_flesh("TESA-1")
    )
    assert _chance(s) == "kt18_nerve"
    assert not _broken(s, "A")


def test_nerve_test_modifiers_and_failure() -> None:
    """8.4: +1 for each other friendly model out of action (two: +2), a friend more than 2"
    away does not steady it; a 5 + 2 = 7 is above Ld 6: failed, the model is shaken (8.5)."""
    s, _ = _morale(
        {"TESA-1": (5, 5), "TESA-4": (15, 5), "TESB-1": (25, 20)},
        a=4,
        effects=_flesh("TESA-1"),
        operatives=_out("TESA-2", "TESA-3"),
    )
    s, _ = s.apply("roll 1,1")  # the broken check (3 of 4 casualties): 2 holds
    assert _chance(s) == "kt18_nerve"
    after, events = s.apply("roll 5")
    test = next(e for e in events if e.kind == "kt18_nerve_test")
    assert (test["modifier"], test["passed"]) == (2, False)
    assert _shaken(after, "TESA-1")


def test_friend_within_two_inches_steadies_the_nerve() -> None:
    """8.4: -1 for each other friendly model within 2" that is not shaken: with one out of
    action (+1) and one within 2" (-1) the modifier is 0, so a 6 passes against Ld 6."""
    s, _ = _morale(
        {"TESA-1": (5, 5), "TESA-2": (6.5, 5), "TESB-1": (25, 20)},
        a=3,
        effects=_flesh("TESA-1"),
        operatives=_out("TESA-3"),
    )
    s, _ = s.apply("roll 1,1")  # the broken check (2 of 3): holds
    _, events = s.apply("roll 6")
    test = next(e for e in events if e.kind == "kt18_nerve_test")
    assert (test["modifier"], test["passed"]) == (0, True)


def test_unmodified_one_always_passes() -> None:
    """8.4: a Nerve test of an unmodified 1 passes whatever the modifier: with six friends out
    of action (+6) a 1 passes although 1 + 6 = 7 is above Ld 6; a 2 (2 + 6 = 8) fails."""
    out = tuple(f"TESA-{i}" for i in range(2, 8))
    s, _ = _morale(
        {"TESA-1": (5, 5), "TESA-8": (20, 5), "TESB-1": (25, 20)},
        a=8,
        effects=_flesh("TESA-1"),
        operatives=_out(*out),
    )
    s, _ = s.apply("roll 1,1")  # the broken check (7 of 8): 2 holds
    one, events = s.apply("roll 1")
    test = next(e for e in events if e.kind == "kt18_nerve_test")
    assert (test["modifier"], test["passed"]) == (6, True) and not _shaken(one, "TESA-1")
    two, _ = s.apply("roll 2")
    assert _shaken(two, "TESA-1")


def test_shaken_tokens_are_removed_in_step_two() -> None:
    """8.3: a model shaken since the last Morale phase stops being shaken in the player's
    step 2, before the Nerve tests (it has no flesh wound, so it takes none)."""
    s, _ = _morale(
        {"TESA-1": (5, 5), "TESA-2": (9, 5), "TESA-3": (15, 5), "TESB-1": (25, 20)},
        a=3,
        effects=[{"kind": "kt18_shaken", "op": "TESA-1", "until": "end_battle"}],
        tp=2,
    )
    assert not _shaken(s, "TESA-1")
    assert s.phase == "initiative" and s.tp == 3  # the round ended, the next one began


def test_the_player_chooses_the_order_of_nerve_tests() -> None:
    """8.4: with two models to test the player chooses which goes first (the order matters:
    a failed test adds +1 to the later ones); a model with no test to take is refused."""
    s, _ = _morale(
        {f"TESA-{i}": (3 + 4 * i, 5) for i in range(1, 6)} | {"TESB-1": (25, 20)},
        a=5,
        effects=_flesh("TESA-1", "TESA-2"),
    )
    assert s.node == Decision("A", "kt18_nerve_order")
    assert {str(a) for a in s.legal_actions()} == {"Nerve test TESA-1", "Nerve test TESA-2"}
    before = s.hash()
    with pytest.raises(IllegalActionError, match=r"8\.4"):
        s.apply("Nerve test TESA-3")
    assert s.hash() == before
    s, _ = apply_all(s, "Nerve test TESA-2", "roll 6")  # passes (6, modifier 0)
    assert _chance(s) == "kt18_nerve"  # TESA-1's test, the last one: no choice left


def test_tokens_are_cleared_but_shaken_stays_at_the_end_of_the_round() -> None:
    """8.1: when the Morale phase ends every token is removed (the Readied TESA-1 is no longer
    Readied) except Shaken: TESA-1 failed its Nerve test (its friend out of action, +1: a
    6 + 1 = 7 above Ld 6) and is still shaken in the next round."""
    s = kt18_position(
        {"TESA-1": (5, 5), "TESB-1": (25, 20)},
        a=2,
        b=1,
        effects=_flesh("TESA-1"),
        operatives=_out("TESA-2"),
    )
    s, _ = apply_all(s, "Ready TESA-1")
    assert "readied" in next(o for o in s.operatives if o.id == "TESA-1").done
    # B's turn: it may move TESB-1; it passes. Then Morale: A is broken (all casualties).
    s, _ = apply_all(s, "Pass")
    assert _chance(s) == "kt18_nerve"
    s, _ = s.apply("roll 6")
    assert s.phase == "initiative" and s.tp == 2
    assert next(o for o in s.operatives if o.id == "TESA-1").done == ()
    assert _shaken(s, "TESA-1")
