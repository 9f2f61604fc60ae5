"""Shared pieces of the KT18 flow tests (``tests/test_kt18_*.py``): the KT18 test team
(``tests/data/kt18_test_team.json``: Troopers with M 6", Ld 6, 25mm bases), rosters of
several Troopers a side, an open 30" x 22" battlefield and scripted KT18 positions (its
models are ``TESA-1``... for player A, ``TESB-1``... for player B)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.game.context import GameOptions, Hooks
from engine.game.events import Event
from engine.game.state import GameState
from engine.geometry import Killzone
from engine.rulesets import KT18, position
from engine.teams.io import team_from_dict
from engine.teams.model import Roster

__all__ = [
    "KZ",
    "OPTIONS",
    "TEAM",
    "apply_all",
    "event_data",
    "kt18_position",
    "rosters",
    "with_overwatch",
]

TEAM = team_from_dict(
    json.loads((Path(__file__).parent / "data" / "kt18_test_team.json").read_text("utf-8")),
    "kt18_test_team.json",
)
KZ = Killzone.from_dict(
    {
        "name": "kt18_open",
        "features": [],
        "drop_zones": {
            "A": [[0, 0], [30, 0], [30, 11], [0, 11], [0, 0]],
            "B": [[0, 11], [30, 11], [30, 22], [0, 22], [0, 11]],
        },
    }
)
"""An open 30" x 22" battlefield (``rules/KT18.md`` 1.1), no terrain."""
OPTIONS = GameOptions(ruleset="kt18")


def rosters(a: int = 3, b: int = 3) -> tuple[Roster, Roster]:
    """Rosters of ``a`` and ``b`` Troopers."""
    return Roster.from_entries(TEAM, ["Trooper"] * a), Roster.from_entries(TEAM, ["Trooper"] * b)


def kt18_position(
    at: Mapping[str, Sequence[float]],
    *,
    a: int = 3,
    b: int = 3,
    phase: str = "movement",
    **fields: Any,
) -> GameState:
    """A KT18 position on :data:`KZ` with the models of ``at`` (id -> (x, y)) on the
    battlefield, the others not (``phase``, ``step``, ``tp``, ``initiative``, ``turn``,
    ``effects``... as :func:`engine.game.scenario.position` takes them)."""
    ra, rb = rosters(a, b)
    ops = dict(fields.pop("operatives", {}))
    ops.update({k: {"at": tuple(v)} for k, v in at.items()})
    state = position(KZ, ra, rb, options=OPTIONS, phase=phase, operatives=ops, **fields)
    assert state.ctx.rules.ruleset is KT18
    return state


def apply_all(state: GameState, *actions: str) -> tuple[GameState, list[Event]]:
    """Apply ``actions`` (choices and ``roll ...``) in order; the state and every event."""
    events: list[Event] = []
    for a in actions:
        state, ev = state.apply(a)
        events += ev
    return state, events


def event_data(events: Sequence[Event], kind: str) -> list[dict[str, Any]]:
    """The data of the events of ``kind``, in order."""
    return [dict(e.data) for e in events if e.kind == kind]


def with_overwatch(state: GameState, resolve: Callable[..., Any] | None = None) -> GameState:
    """``state`` with a stand-in for the shooting rules' Overwatch hooks: every Reacting
    target can fire Overwatch (``kt18_can_overwatch`` True) and its frame is ``resolve``'s
    (``None``: nothing is resolved)."""

    def add(h: Hooks) -> None:
        h.transform("kt18_can_overwatch", lambda w, v, **k: True)
        if resolve is not None:
            h.transform("kt18_overwatch_frame", lambda w, v, **k: resolve(**k))

    return state.with_hooks(add)
