"""Readings of the counteraction's movement limit (issue 31, part 1, group A): an operative
"cannot move more than 2" during the counteraction" (rules/KT24.md 1.6): a budget for the
whole counteraction, not for each move in it, whatever rule adds a move (a free Dash, a team
action's move, a set-up elsewhere).

Positions are LAB positions (``tests/test_game_rules_common``): Kommandos (player A,
``KOM-n``) against the BLU test team (player B). KOM-1 is expended and B has a ready
operative, so A may counteract with KOM-1 once B's activation ends.
"""

from __future__ import annotations

import pytest

from engine.game import Decision, GameState, IllegalActionError, universal
from engine.game.work import Work
from tests.test_team_kommandos_ops import kom, legal, play

DAKKA = "Kommando Dakka Boy"
BOY = "Kommando Boy"
EXPENDED = {
    "KOM-1": {"at": (5, 14), "ready": False},
    "BLU-1": {"at": (16, 14)},
    "BLU-2": {"at": (27, 4)},
}


def counteracting(types: list[str]) -> GameState:
    """B activates BLU-1 and ends its activation; A counteracts with KOM-1."""
    s = kom(types, EXPENDED, turn="B")
    s, _ = play(s, ["Activate BLU-1 engage", "End activation", "Counteract KOM-1"])
    return s


def test_dakka_dash_in_a_counteraction_dashes_at_most_2_inches() -> None:
    """Dakka Dash (the counteraction's one 1AP action, free) gives a free Dash (3") and a
    free Shoot. In a counteraction the operative cannot move more than 2" in all (1.6,
    which takes precedence over all other rules), so the free Dash reaches 2" (to 7,14)
    and not 3" (to 8,14), although the Dash is a free action of its own."""
    s, _ = play(counteracting([DAKKA]), ["Act KOM-1 dakka dash"])
    assert s.node == Decision("A", "free_action")
    with pytest.raises(IllegalActionError, match=r'within 2"'):
        s.apply("Dash KOM-1 to 8,14")
    s, _ = play(s, ["Dash KOM-1 to 7,14"])
    assert s.operative("KOM-1").x == 7.0


def test_counteraction_2_inches_are_shared_by_every_move_in_it() -> None:
    """1.6: not more than 2" during the counteraction, in all. A Boy counteracting moves 1"
    (a Reposition from 5,14 to 6,14, the move code the action uses: one straight increment
    of 1", 3.3); a free Dash a rule then gives it in the same counteraction may move only the
    1" left (3" a Dash would have otherwise), so a Dash to 7.5,14 (1.5", an increment
    rounded up to 2") is refused and one to 7,14 (1") is allowed."""
    from engine.game.actions import parse_action
    from engine.game.universal.movement import do_move

    w = Work(counteracting([BOY]))
    assert universal.counteract_left(w, "KOM-1") == pytest.approx(2.0)
    do_move(w, w.op("KOM-1"), parse_action("Reposition KOM-1 to 6,14"), "counteract")
    assert universal.counteract_left(w, "KOM-1") == pytest.approx(1.0)
    universal.start_free_action(w, "KOM-1", ("Dash",))
    o = w.op("KOM-1")
    assert universal.move_args(w, o, "Dash", "free")["max_cost"] == pytest.approx(1.0)
    with pytest.raises(IllegalActionError, match=r'within 1"'):
        do_move(w, o, parse_action("Dash KOM-1 to 7.5,14"), "free")
    do_move(w, o, parse_action("Dash KOM-1 to 7,14"), "free")
    assert universal.counteract_left(w, "KOM-1") == pytest.approx(0.0)


def test_outside_a_counteraction_a_free_dash_keeps_its_3_inches() -> None:
    """The budget is the counteraction's only: in KOM-1's own activation Dakka Dash's free
    Dash moves 3" (5,14 to 8,14: the Dash's distance, 3.2)."""
    s = kom([DAKKA], {**EXPENDED, "KOM-1": {"at": (5, 14)}})
    s, _ = play(s, ["Activate KOM-1 engage", "Act KOM-1 dakka dash", "Dash KOM-1 to 8,14"])
    assert s.operative("KOM-1").x == 8.0
    assert not any(a.startswith("Dash") for a in legal(s))
