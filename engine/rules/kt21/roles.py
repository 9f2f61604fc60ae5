"""What the KT21 flow keeps about the players beyond the core's state (``rules/KT21.md`` 1.2,
1.3, 1.4): who is the Defender, the Command Points each game sequence starts with, and the
Infiltrate scouting option still to use.

Kept as the players' counters (:attr:`engine.game.state.PlayerState.uses`, keys below) so
that scenario positions can name them (``[position.players.A] uses = { kt21_defender = 1
}``) and records carry them like any other state.
"""

from __future__ import annotations

from engine.game.state import PLAYERS, other
from engine.game.work import Work

__all__ = [
    "DEFENDER_KEY",
    "INFILTRATE_KEY",
    "START_CP",
    "attacker",
    "defender",
    "infiltrate_left",
    "set_defender",
]

DEFENDER_KEY = "kt21_defender"
"""The counter (1) of the player who is the Defender (1.2 step 3)."""

INFILTRATE_KEY = "kt21_infiltrate"
"""The counter (1) of a player who chose Infiltrate and has not used it yet (1.2 step 9)."""

START_CP = {"critical_ops_2022": 3, "corebook_2021": 2, "lite": 2}
"""The CP each player starts with, by game sequence (``GameOptions.mission``): 3 in
Critical Operations 2022 (1.2 step 4), 2 in the Core Book 2021 sequence and in Lite (1.3,
1.4; the Core Book's "if LEADER" condition is UNCONFIRMED and not applied)."""


def defender(w: Work) -> str:
    """The Defender (``"A"``/``"B"``), or ``""`` before the set-up roll-off decided it."""
    for p in PLAYERS:
        if w.count(p, DEFENDER_KEY) > 0:
            return p
    return ""


def attacker(w: Work) -> str:
    """The Attacker (the Defender's opponent), or ``""`` before the roles are decided."""
    d = defender(w)
    return other(d) if d else ""


def set_defender(w: Work, player: str) -> None:
    """Make ``player`` the Defender (and the other player the Attacker)."""
    for p in PLAYERS:
        now = w.count(p, DEFENDER_KEY)
        want = 1 if p == player else 0
        if now != want:
            w.count(p, DEFENDER_KEY, want - now)


def infiltrate_left(w: Work, player: str) -> bool:
    """``player`` chose Infiltrate at scouting and has not changed an order with it yet."""
    return w.count(player, INFILTRATE_KEY) > 0
