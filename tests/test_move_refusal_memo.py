"""An unreachable move destination is searched once (issue 29: agents check the same unlisted
spot again and again): ``shortest_path`` keeps its answers, refusals included, on the
movement graph under everything the search reads, and a second attempt raises the same error
without searching."""

from __future__ import annotations

from typing import Any

import pytest

import engine.geometry.move_paths as move_paths
from engine.game import GameState, IllegalActionError
from tests.test_game_rules_common import pos


def _activated() -> GameState:
    """RED-5 at (5, 14) activated with an Engage order, BLU-1 far away at (27, 14)."""
    s = pos({"RED-5": {"at": (5.0, 14.0)}, "BLU-1": {"at": (27.0, 14.0)}})
    return s.apply("Activate RED-5 engage")[0]


def test_an_unreachable_destination_is_refused_again_without_a_second_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Reposition 15" away is beyond any operative's Move (3.2: at most its Move, 6" on the
    LAB datacards): refused with the rule, and refused again, word for word, with no second
    path search; the state is unchanged both times. A reachable destination still moves."""
    s = _activated()
    calls: list[Any] = []
    real = move_paths._shortest

    def counting(*args: Any, **kw: Any) -> Any:
        calls.append(args[3])
        return real(*args, **kw)

    monkeypatch.setattr(move_paths, "_shortest", counting)
    before = s.hash()
    with pytest.raises(IllegalActionError) as first:
        s.apply("Reposition RED-5 to 20,14")
    assert "no legal path" in str(first.value) and "3.2" in str(first.value)
    assert len(calls) == 1
    with pytest.raises(IllegalActionError) as second:
        s.apply("Reposition RED-5 to 20,14")
    assert str(second.value) == str(first.value)
    assert len(calls) == 1
    assert s.hash() == before
    after, _ = s.apply("Reposition RED-5 to 7,14")
    assert after.operative("RED-5").x == pytest.approx(7.0)
