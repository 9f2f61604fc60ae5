"""The Kasrkin's team rules (``teams/kasrkin.py``), one test (or more) per rule, in LAB
positions (``tests/test_game_rules_common``): the built-in Kasrkin (player A, ``KAS-n``)
against the BLU test team (player B, ``BLU-n``: Troopers with Gun 4/3+/3/4, Save 4+).

Strategy ploys are reached through a real Gambit step: every operative starts expended in
TP1, so the turning point ends at once and TP2 begins (roll-off scripted).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import teams.kasrkin  # noqa: F401  (registers the rules)
from engine.game import GameState, IllegalActionError
from engine.game.events import Event
from engine.game.scenario import run
from engine.game.state import Decision
from tests.test_team_weapon_rules import lab

TROOPER = "Kasrkin Trooper"
LASGUN = "hot-shot lasgun"


def texts(s: GameState) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def ploys_used(events: list[Event]) -> list[tuple[str, str]]:
    return [(e["player"], e["ploy"]) for e in events if e.kind == "ploy_used"]


def pass_ploy_windows(s: GameState) -> GameState:
    while isinstance(s.node, Decision) and s.node.kind == "ploy":
        s, _ = s.apply("Pass")
    return s


def gambit(
    ops: Mapping[str, Mapping[str, Any]],
    types: Sequence[str] = (TROOPER,),
    *,
    initiative: str = "B",
    cp: tuple[int, int] = (3, 3),
) -> GameState:
    """TP2's Gambit step with A (Kasrkin) to decide: every operative of ``ops`` starts
    expended in TP1; ``initiative`` wins the roll-off and takes the initiative (B passes
    first when it has it)."""
    spent = {k: {**v, "ready": False} for k, v in ops.items()}
    s = pass_ploy_windows(lab("kasrkin", list(types), spent, cp=cp))
    s, _ = run(s, [], dice=["4,3" if initiative == "A" else "3,4"])
    s, _ = s.apply(f"Initiative {initiative}")
    if initiative == "B":
        s, _ = s.apply("Pass")
    assert s.node.player == "A" and s.node.kind == "gambit"  # type: ignore[union-attr]
    return s


def to_firefight(s: GameState) -> GameState:
    """Pass the rest of the Gambit step and the firefight_start window."""
    while isinstance(s.node, Decision) and s.node.kind in ("gambit", "ploy"):
        s, _ = s.apply("Pass")
    return s


# -------------------------------------------------------------------------------------------
# Engage From Cover
# -------------------------------------------------------------------------------------------

# KAS-1 at (16, 4) behind the LAB rubble, in cover from BLU-1 at (5, 4).
COVERED = {"KAS-1": {"at": (16, 4)}, "BLU-1": {"at": (5, 4)}}
# KAS-1 in the open lane, in the open from BLU-1.
OPEN = {"KAS-1": {"at": (16, 14.5)}, "BLU-1": {"at": (5, 14.5)}}


def _shot_at_kasrkin(ops: Mapping[str, Mapping[str, Any]], ploy: bool) -> GameState:
    """B's BLU-1 shoots KAS-1 (hits 6,5,4,1; A keeps a cover save if it can); stops at the
    defence dice 3,1 (or 3,2,1 without cover) window."""
    s = gambit(ops)
    if ploy:
        s, ev = s.apply("Ploy engage from cover")
        assert ploys_used(ev) == [("A", "Engage From Cover")]
    s = to_firefight(s)
    s, _ = run(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at KAS-1"], dice=["6,5,4,1"])
    return decline(s)


def decline(s: GameState) -> GameState:
    """Pass the ploy windows, decline the dice re-rolls, keep a cover save if offered."""
    answer = {"ploy": "Pass", "dice_ploy": "Decline", "cover_save": "Cover save normal"}
    while isinstance(s.node, Decision) and s.node.kind in answer:
        s, _ = s.apply(answer[s.node.kind])
    return s


def test_engage_from_cover_rerolls_one_defence_die_in_cover() -> None:
    # 1CP in the Gambit step; when KAS-1 (in cover) is shot, A may re-roll one defence die
    # for free, once: after re-rolling the 1, no further Engage From Cover option.
    s = _shot_at_kasrkin(COVERED, ploy=True)
    s, _ = run(s, [], dice=["3,1"])
    assert s.node.player == "A"  # type: ignore[union-attr]
    assert "Use engage from cover 1" in texts(s)
    assert s.players[0].cp_spent == 1
    s, _ = run(s, ["Use engage from cover 1"], dice=["6"])
    assert s.players[0].cp_spent == 1  # the re-roll itself is free
    assert not [t for t in texts(s) if "engage from cover" in t]


def test_engage_from_cover_not_out_of_cover_nor_without_the_ploy() -> None:
    s = _shot_at_kasrkin(OPEN, ploy=True)
    s, _ = run(s, [], dice=["3,2,1"])
    assert not [t for t in texts(s) if "engage from cover" in t]
    s = _shot_at_kasrkin(COVERED, ploy=False)
    s, _ = run(s, [], dice=["3,1"])
    assert not [t for t in texts(s) if "engage from cover" in t]
    with pytest.raises(IllegalActionError):
        s.apply("Use engage from cover 1")
