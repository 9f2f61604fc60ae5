"""Tac op tokens a player *can* remove (Martyrs, Dominate; ``rules/KT24.md`` 8.4, Approved
Ops 2025): the removal is that player's decision (``op tokens``) when it can matter, and is
made for it when it cannot (:mod:`engine.missions.tac_ops.removal`).

Positions as in :mod:`tests.test_tac_ops_b` (killzone ``OPS``, markers A (9.5, 11), centre
(15, 11) and B (20.5, 11); RED is player A, BLU player B; every operative APL 2 unless named).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.agents.heuristic import HeuristicAgent
from engine.game import IllegalActionError
from engine.game.actions import Action
from engine.game.state import Decision
from tests.test_tac_ops_b import (
    DOMINATE_A,
    MARTYRS_A,
    NEAR_OBJ,
    end_tp,
    game,
    play,
    tac_vp,
)

CONTESTED_B: dict[str, dict[str, Any]] = {
    "RED-1": {"at": (20.5 - NEAR_OBJ, 11)},
    "BLU-1": {"at": (20.5 + NEAR_OBJ, 11)},
}
"""RED-1 and BLU-1 (APL 2 each) both within control range of marker B: A contests it and
nobody controls it."""


def martyrs(tp: int, n: int = 1, ops: dict[str, dict[str, Any]] = CONTESTED_B) -> Any:
    """The end of turning point ``tp`` with ``n`` of A's Martyr tokens on marker B."""
    s = game(
        ops, tac=MARTYRS_A, revealed=(True, False), facts=(("Martyrs:A:B", n),), last="RED-1", tp=tp
    )
    return end_tp(s, "RED-1")[0]


def test_martyrs_removal_is_asked_when_keeping_a_token_can_be_worth_more() -> None:
    """Martyrs: "you can remove any of those tokens", 1VP each, 2VP where friendly operatives
    also control the marker. At the end of turning point 2 A only contests B: removing its
    token scores 1VP now, keeping it may score 2VP later (if A then controls B). So A is
    asked: ``Decline`` or ``Op martyrs b``."""
    s = martyrs(2)
    assert s.node == Decision("A", "op tokens")
    assert list(s.legal_actions()) == [Action("Decline"), Action("Op", text="martyrs b")]


def test_martyrs_declining_keeps_the_token_and_scores_nothing() -> None:
    """Declined: no VP, the token stays on B for a later turning point, and the turning
    point ends (the next one's initiative roll)."""
    s, _ = play(martyrs(2), ["Decline"])
    assert tac_vp(s, "A") == 0 and s.mission.fact("Martyrs:A:B") == 1
    assert s.tp == 3 and not isinstance(s.node, Decision)


def test_martyrs_each_token_removed_scores_1vp_up_to_the_cap_of_2() -> None:
    """Three tokens: each removal scores 1VP and A is asked again; after two the cap of 2VP
    a turning point is reached, so the third stays without a question."""
    s, _ = play(martyrs(3, n=3), ["Op martyrs b"])
    assert tac_vp(s, "A") == 1 and s.node == Decision("A", "op tokens")
    s, _ = play(s, ["Op martyrs b"])
    assert tac_vp(s, "A") == 2 and s.mission.fact("Martyrs:A:B") == 1
    assert s.tp == 4 and not isinstance(s.node, Decision)


def test_martyrs_token_on_a_controlled_marker_is_removed_without_asking() -> None:
    """RED-1 alone contests B, so A controls it: one token removed scores 2VP, the turning
    point's cap, which no choice can beat; nothing is asked."""
    ops: dict[str, dict[str, Any]] = {
        "RED-1": {"at": (20.5 - NEAR_OBJ, 11)},
        "BLU-1": {"at": (28, 20)},
    }
    s = martyrs(2, n=2, ops=ops)
    assert tac_vp(s, "A") == 2 and s.mission.fact("Martyrs:A:B") == 1
    assert not isinstance(s.node, Decision)


def test_martyrs_removal_of_a_marker_without_tokens_is_refused() -> None:
    """Only markers with A's tokens that A contests can be named; the state is unchanged."""
    s = martyrs(2)
    with pytest.raises(IllegalActionError, match="removes a Martyrs token"):
        s.apply("Op martyrs centre")
    assert s.node == Decision("A", "op tokens")


def dominate(tp: int, held: tuple[tuple[str, int], ...]) -> Any:
    ops: dict[str, dict[str, Any]] = {
        "RED-1": {"at": (5, 5)},
        "RED-2": {"at": (5, 15), "wounds": 3},
        "BLU-1": {"at": (28, 20)},
    }
    s = game(
        ops, tac=DOMINATE_A, revealed=(True, False), facts=(("Dominate:A", held),), last="RED-1",
        tp=tp,
    )  # fmt: skip
    return end_tp(s, "RED-1")[0]


def test_dominate_which_tokens_stay_is_asked_in_tp3() -> None:
    """Dominate: "you can remove Dominate tokens", 1VP each, at most 3VP a turning point. At
    the end of TP3 RED-1 and RED-2 hold 2 each: one token must stay, and which one matters
    (tokens on an operative incapacitated later are lost). Removing is never worse than
    keeping (a kept token scores at most 1VP in TP4 under the same cap), so no ``Decline``."""
    s = dominate(3, (("RED-1", 2), ("RED-2", 2)))
    assert s.node == Decision("A", "op tokens")
    assert list(s.legal_actions()) == [
        Action("Op", text="dominate red-1"),
        Action("Op", text="dominate red-2"),
    ]
    s, _ = play(s, ["Op dominate red-2", "Op dominate red-2", "Op dominate red-1"])
    assert tac_vp(s, "A") == 3
    assert s.mission.fact("Dominate:A") == (("RED-1", 1),)


@pytest.mark.parametrize(
    ("tp", "held"),
    [
        (3, (("RED-1", 2), ("RED-2", 1))),  # 3 tokens, 3VP of room: all go
        (3, (("RED-1", 5),)),  # all on one operative: which does not matter
        (4, (("RED-1", 2), ("RED-2", 2))),  # the last scoring: which does not matter
    ],
)
def test_dominate_removal_is_not_asked_when_it_cannot_matter(
    tp: int, held: tuple[tuple[str, int], ...]
) -> None:
    """Every token that can score goes, without a question: 3VP either way."""
    s = dominate(tp, held)
    assert tac_vp(s, "A") == 3 and not (isinstance(s.node, Decision) and s.node.kind == "op tokens")


def test_heuristic_agent_removes_dominate_tokens_of_the_most_wounded_first() -> None:
    """RED-2 has 3 wounds left (RED-1 10): it is likelier to be incapacitated before TP4
    ends, losing its tokens, so the agent removes RED-2's first."""
    s = dominate(3, (("RED-1", 2), ("RED-2", 2)))
    assert HeuristicAgent().act(s) == Action("Op", text="dominate red-2")


def test_heuristic_agent_takes_the_martyrs_vp_now() -> None:
    """A VP now is certain: the agent removes the token rather than declining."""
    assert HeuristicAgent().act(martyrs(2)) == Action("Op", text="martyrs b")
