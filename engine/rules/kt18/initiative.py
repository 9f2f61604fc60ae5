"""The KT18 Initiative phase (``rules/KT18.md`` 2.2): every player rolls 2D6; the highest
total has the initiative (it takes the first turn in every phase of the round); players with
equal totals roll again among themselves, as often as needed (reading chosen in 2.2: a fresh
roll repeated until the tie is broken, not a re-roll limited to once).

With two players the higher total has the initiative; on a tie both roll again. Each
player's 2D6 is its own chance node (``kt18_initiative``), A's first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.state import PLAYERS
from engine.game.work import Work

__all__ = ["InitiativeFrame", "initiative_order", "push_next_turn"]


def initiative_order(w: Work) -> tuple[str, ...]:
    """The players in initiative order this round: the player with the initiative first
    (2.2), then the other."""
    first = w.initiative or PLAYERS[0]
    return (first, *(p for p in PLAYERS if p != first))


def push_next_turn(w: Work, done: int, turn: Callable[[str], Any]) -> bool:
    """The player-turn loop of a phase played one whole turn per player in initiative order
    (the Movement phase, 3.1; the Morale phase, 8.1): when ``done`` players have had their
    turn and one is left, count it on the phase's frame (on top of the stack, its ``done``
    field) and push ``turn(player)``, that player's turn frame; True. False when every player
    has had its turn (the caller ends the phase)."""
    order = initiative_order(w)
    if done >= len(order):
        return False
    w.replace_top(done=done + 1)
    w.stack.append(turn(order[done]))
    return True


@attrs.frozen(slots=True)
class InitiativeFrame:
    """Roll for the initiative (module docstring).

    Attributes:
        rolling: the players rolling in this pass (every player, then the tied ones).
        totals: the totals rolled so far in this pass, in the order of ``rolling``.
    """

    rolling: tuple[str, ...] = PLAYERS
    totals: tuple[int, ...] = ()

    def run(self, w: Work) -> None:
        """Roll the next player's 2D6 (a chance node)."""
        player = self.rolling[len(self.totals)]
        w.roll("kt18_initiative", player, 2, label=f"initiative 2D6 ({player})")

    def options(self, w: Work) -> list[Action]:  # pragma: no cover - a chance node
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover - a chance node
        raise IllegalActionError(f"the initiative is rolled here (rules/KT18.md 2.2), not {a}")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """Count the roll; when every player of the pass has rolled, the highest total has
        the initiative, or the tied players roll again (2.2)."""
        player = self.rolling[len(self.totals)]
        total = sum(values)
        w.emit("dice_rolled", player=player, label="initiative 2D6", values=values)
        w.emit("kt18_initiative_roll", player=player, total=total, values=values)
        totals = (*self.totals, total)
        if len(totals) < len(self.rolling):
            w.replace_top(totals=totals)
            return
        best = max(totals)
        top = tuple(p for p, t in zip(self.rolling, totals, strict=True) if t == best)
        if len(top) > 1:
            w.replace_top(rolling=top, totals=())  # the tie is rolled again (2.2)
            return
        w.stack.pop()
        w.initiative = top[0]
        w.emit("kt18_initiative", player=top[0], round=w.tp, totals=totals)
