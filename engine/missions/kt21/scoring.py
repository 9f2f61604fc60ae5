"""Victory points of a KT21 battle with the matched-play caps (``rules/KT21.md`` 15.2, 1.1).

- **Mission objective** (the critical operation of Critical Operations 2022; here the
  project's Loot mission, :mod:`engine.missions.kt21.loot`): at most :data:`MISSION_TP_CAP`
  (4) VP per turning point and :data:`MISSION_CAP` (16) VP in the battle, per player. Its VP
  are kept under the op name ``"crit"`` (``vp_by_op``), as KT24's crit op's are.
- **Tac ops**: at most :data:`TAC_OP_CAP` (2) VP from each of a player's three tac ops,
  kept under ``"tac"`` (6VP at most from three).
- **Battle Ready**: :data:`BATTLE_READY_VP` (2) VP to a player whose whole matched roster is
  painted, at the end of the battle, kept under ``"battle ready"``. The engine has no way to
  know the miniatures: it assumes both players' are painted (a project reading: each player
  scores it, so it never changes who wins, and the VP totals stay comparable with a real
  matched-play score out of :data:`MAX_VP`).
- Most VP wins, a tie is a draw (1.1): the core's end of battle compares the totals.

The 2021 Core Book's caps are not sourced (18.2, 18.13): its sequence uses the same caps.
"""

from __future__ import annotations

from engine.game.events import Event
from engine.game.work import Work
from engine.missions.scoring import add_vp, fact, op_vp, set_fact, set_mission

__all__ = [
    "BATTLE_READY",
    "BATTLE_READY_VP",
    "MAX_VP",
    "MISSION",
    "MISSION_CAP",
    "MISSION_TP_CAP",
    "TAC",
    "TAC_OP_CAP",
    "battle_ready",
    "score_mission",
    "score_tac_op",
    "turning_point_started",
]

MISSION = "crit"
"""The op name (``vp_by_op``) of the VP the mission objective scores."""
TAC = "tac"
"""The op name of the VP the tac ops score."""
BATTLE_READY = "battle ready"
"""The op name of the Battle Ready VP."""

MISSION_TP_CAP = 4
"""The most VP the mission objective gives a player in one turning point (15.2)."""
MISSION_CAP = 16
"""The most VP the mission objective gives a player in the battle (15.2)."""
TAC_OP_CAP = 2
"""The most VP one tac op gives its player in the battle (15.2)."""
BATTLE_READY_VP = 2
"""The VP for a painted kill team (15.2)."""
MAX_VP = MISSION_CAP + 3 * TAC_OP_CAP + BATTLE_READY_VP
"""The most VP a player can score in a Critical Operations 2022 battle: 24 (15.2)."""


def score_mission(w: Work, player: str, vp: int, why: str) -> int:
    """Score ``vp`` for ``player`` from the mission objective, capped at
    :data:`MISSION_TP_CAP` this turning point and :data:`MISSION_CAP` in the battle (15.2);
    emits ``vp_scored`` when anything is scored.

    Returns:
        The VP actually scored (0 once a cap is reached).
    """
    room = min(
        MISSION_CAP - op_vp(w, MISSION, player),
        MISSION_TP_CAP - op_vp(w, MISSION, player, this_tp=True),
    )
    got = max(0, min(vp, room))
    add_vp(w, player, MISSION, got, why)
    return got


def score_tac_op(w: Work, player: str, op: str, vp: int, why: str) -> int:
    """Score ``vp`` for ``player`` from its tac op ``op`` (a name), capped at
    :data:`TAC_OP_CAP` for that op in the battle (15.2); emits ``vp_scored`` when anything
    is scored. The VP each op scored are kept as the fact ``"kt21 tac vp:<player>:<op>"``.

    Returns:
        The VP actually scored.
    """
    key = f"kt21 tac vp:{player}:{op}"
    had = int(fact(w, key, 0))
    got = max(0, min(vp, TAC_OP_CAP - had))
    if got:
        set_fact(w, key, had + got)
        add_vp(w, player, TAC, got, why)
    return got


def battle_ready(w: Work, painted: tuple[bool, bool] = (True, True)) -> None:
    """Score Battle Ready (15.2) for each player whose kill team is painted (``painted``:
    A, B; module docstring: both assumed), at the end of the battle."""
    for player, done in zip(("A", "B"), painted, strict=True):
        if done:
            add_vp(w, player, BATTLE_READY, BATTLE_READY_VP, "Battle Ready: a painted kill team")


def turning_point_started(w: Work, ev: Event) -> None:
    """Start a new turning point's count of VP (the per-turning-point cap, 15.2)."""
    del ev
    if w.mission.tp_vp:
        set_mission(w, tp_vp=())
