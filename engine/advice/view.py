"""A working copy for one decision of an agent, with its read-only queries memoised.

An agent valuing one decision asks the same questions of one state many times (the living
enemies, an operative's placement, the killzone in its hatch state, an enemy's attack
profiles...). :class:`DecisionView` is a :class:`~engine.game.work.Work` built from the state
that answers them once: the agent only reads it (it never applies anything to it), so every
answer stays true for the whole decision. The geometry caches shared by the states of a
battle stay on :class:`~engine.game.context.GameContext`; this memo dies with the decision.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from engine.game.state import GameState, OperativeState
from engine.game.work import Work
from engine.geometry import Killzone, Placement

__all__ = ["DecisionView", "once"]

T = TypeVar("T")


class DecisionView(Work):
    """A :class:`Work` for one decision that must only be read (module docstring).

    Args:
        s: the state the decision is taken in.
    """

    __slots__ = ("_alive", "_kz", "_memo", "_places")

    def __init__(self, s: GameState) -> None:
        super().__init__(s)
        self._alive: dict[str | None, list[OperativeState]] = {}
        self._kz: Killzone | None = None
        self._places: dict[str, tuple[OperativeState, Placement]] = {}
        self._memo: dict[Hashable, Any] = {}

    def alive(self, player: str | None = None) -> list[OperativeState]:
        """As :meth:`Work.alive` (a new list each call; the operatives are computed once)."""
        hit = self._alive.get(player)
        if hit is None:
            hit = self._alive[player] = super().alive(player)
        return list(hit)

    @property
    def kz(self) -> Killzone:
        """As :attr:`Work.kz` (hatchway state and equipment terrain), computed once."""
        kz = self._kz
        if kz is None:
            kz = self._kz = Work.kz.fget(self)  # type: ignore[attr-defined]
        return kz

    def place(self, o: OperativeState) -> Placement:
        """As :meth:`Work.place`; kept per operative value (the same object, which the memo
        holds, so its identity cannot be reused)."""
        hit = self._places.get(o.id)
        if hit is not None and hit[0] is o:
            return hit[1]
        p = super().place(o)
        self._places[o.id] = (o, p)
        return p

    def memo(self, key: Hashable, fn: Callable[[], T]) -> T:
        """The value of ``fn()`` kept under ``key`` for this decision (``key`` names what
        the value depends on besides this state)."""
        memo = self._memo
        if key in memo:
            return memo[key]  # type: ignore[no-any-return]
        value = memo[key] = fn()
        return value


def once(w: Work, key: Hashable, fn: Callable[[], T]) -> T:
    """``fn()``, computed once per decision when ``w`` is a :class:`DecisionView` (``key``
    as :meth:`DecisionView.memo`), else every time."""
    if isinstance(w, DecisionView):
        return w.memo(key, fn)
    return fn()
