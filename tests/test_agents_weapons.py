"""The heuristic agent values every weapon profile with its rules (issue 30): a Torrent
shot counts its secondaries, and an operative with nothing to do closes in instead of
idling. LAB positions of :mod:`tests.test_game_rules_common` (32 mm bases, radius ``R``;
the lane at y 13-16 is open; RED-3 carries a ``Torrent 2"`` gun)."""

from __future__ import annotations

import pytest

from engine.advice.shots import shot_from
from engine.agents.position import safe_advance, shoot_action_value
from engine.game.actions import Action
from engine.game.work import Work
from tests.test_game_rules_common import R, pos


def _torrent_position(second_at: float) -> Work:
    s = pos(
        {
            "RED-3": {"at": (5, 14), "order": "engage"},
            "BLU-1": {"at": (14, 14)},
            "BLU-2": {"at": (14, 14 + 2 * R + second_at)},
        }
    )
    return Work(s)


def test_torrent_shot_counts_each_secondary_target_in_reach() -> None:
    """6 Torrent: every valid target within x" of the primary is also shot, so the shot's
    value is the primary's plus the secondary's, each the exact value of the same weapon
    against that target (BLU-2 1.5" from BLU-1, within the gun's 2")."""
    w = _torrent_position(1.5)
    o = w.op("RED-3")
    a = Action("Shoot", op="RED-3", weapon="torrent gun", target="BLU-1")
    here = w.place(o)
    primary = shot_from(w, o, here, "torrent gun", w.op("BLU-1"), False)
    secondary = shot_from(w, o, here, "torrent gun", w.op("BLU-2"), False)
    assert secondary > 0
    assert shoot_action_value(w, o, a, "activation") == pytest.approx(primary + secondary)


def test_torrent_shot_ignores_enemies_beyond_its_distance() -> None:
    """An enemy 3" from the primary is beyond Torrent 2": the shot is worth the primary's
    alone."""
    w = _torrent_position(3.0)
    o = w.op("RED-3")
    a = Action("Shoot", op="RED-3", weapon="torrent gun", target="BLU-1")
    primary = shot_from(w, o, w.place(o), "torrent gun", w.op("BLU-1"), False)
    assert shoot_action_value(w, o, a, "activation") == pytest.approx(primary)


def test_safe_advance_takes_the_move_closest_to_the_enemy() -> None:
    """With two Repositions along the open lane, the one ending nearer the enemy (3" of
    progress against 1.5") is taken; no enemy can see either spot worse than here in the
    open lane (the exposure allowance covers it), and a move away is never an advance."""
    s = pos({"RED-1": {"at": (3, 14)}, "BLU-1": {"at": (25, 14)}})
    w = Work(s)
    o = w.op("RED-1")
    moves = [
        Action("Reposition", op="RED-1", point=(1.5, 14.0, 0.0)),
        Action("Reposition", op="RED-1", point=(4.5, 14.0, 0.0)),
        Action("Reposition", op="RED-1", point=(6.0, 14.0, 0.0)),
    ]
    found = safe_advance(w, o, moves, here_exposure=10.0)
    assert found is not None
    assert found[0] == moves[2] and found[1] == pytest.approx(3.0)
    assert safe_advance(w, o, moves[:1], here_exposure=10.0) is None
