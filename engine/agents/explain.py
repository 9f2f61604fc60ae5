"""What an agent weighed at its last decision (``killteam play --explain``).

:class:`Alternative` is one action an agent considered, with the score it gave it and a short
note; agents that can explain themselves return a list of them, best first, from an
``explain()`` method called after ``act``.
"""

from __future__ import annotations

import attrs

from engine.game.actions import Action

__all__ = ["Alternative"]


@attrs.frozen
class Alternative:
    """One action an agent considered at its last decision.

    Attributes:
        action: the action considered.
        score: the agent's value of it (higher is better for the deciding player; each agent
            documents its units).
        note: a short human-readable remark (e.g. ``"212 visits"``).
    """

    action: Action
    score: float
    note: str = ""
