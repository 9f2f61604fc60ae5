"""The ``would_move_terrain`` hook (``engine.game.work.Work.move_terrain``/``move_kz``): a
rule changes the killzone an operative moves on, for that operative's movement only; sight
and cover keep reading the killzone as it is (``Work.kz``)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.game import IllegalActionError
from engine.game.work import Work
from engine.geometry.extra_terrain import AccessibleSpec
from tests.test_game_rules_common import play, pos

# LAB's 1" thick wall (x 10-11, y 17-21.5) opened around y 19 (a square from y 18 to 20).
OPENING = AccessibleSpec("wall", ((9, 18), (12, 18), (12, 20), (9, 20)))


def _opened_for(op: str) -> Any:
    def hook(w: Work, changes: tuple[Any, ...], **info: Any) -> tuple[Any, ...]:
        return (*changes, OPENING) if info["op"].id == op else changes

    return hook


def test_move_terrain_changes_the_movers_killzone_only() -> None:
    # RED-1 (the hooked operative) Repositions through the opened wall: 3.3" + 1" for the
    # Accessible part, within its 6". Without the hook, around the wall is more than 6".
    # Sight is unchanged: the 5" wall still hides (12.2, 19) from (8.9, 19).
    ops: dict[str, dict[str, Any]] = {"RED-1": {"at": (8.9, 19)}, "BLU-1": {"at": (25, 5)}}
    s = pos(ops)
    s = s.with_hooks(lambda h: h.transform("would_move_terrain", _opened_for("RED-1")))
    w = Work(s)
    me = w.op("RED-1")
    assert w.move_terrain(me) == (OPENING,)
    assert w.move_terrain(w.op("BLU-1")) == ()
    assert w.move_kz(w.op("BLU-1")) is w.kz  # no change: the killzone itself
    assert len(w.move_kz(me).parts) > len(w.kz.parts)  # the wall split: the opened piece
    far = w.ctx.placement("RED-1", 12.2, 19, 0.0)
    assert not w.ctx.visible(w.kz, w.place(me), far)
    s2, _ = play(s, ["Activate RED-1 engage", "Reposition RED-1 to 12.2,19"])
    assert s2.operative("RED-1").x == 12.2
    plain, _ = play(pos(ops), ["Activate RED-1 engage"])
    with pytest.raises(IllegalActionError, match="no legal path"):
        plain.apply("Reposition RED-1 to 12.2,19")
