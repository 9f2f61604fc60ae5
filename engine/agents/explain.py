"""Explained decisions: the alternatives an agent weighed at its last decision.

An agent may offer ``explain() -> list[Alternative]``: the top alternatives of the LAST
decision it took, best first, the action it played first, each with its score (in the
agent's own unit: the heuristic agent's is operatives, :mod:`engine.agents.heuristic`) and a
short note saying what the score is made of (``"shot: 1.4 expected damage, 38% kill"``).
Where a decision kind has no scores, the list holds the chosen action alone, with a note
saying why. ``killteam play --explain`` prints them after each decision
(:func:`explanation_lines`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import attrs

from engine.advice.shots import kt21_setup, shot_setup
from engine.agents.position import exposure, fight_kill_chance
from engine.dice.kt21 import kt21_shoot
from engine.dice.shoot import shoot
from engine.game.actions import Action, format_action
from engine.game.universal.movement import MOVE_ACTION
from engine.game.weapons import find_weapon
from engine.game.work import Work

__all__ = [
    "EXPLAIN_TOP",
    "Alternative",
    "Explaining",
    "Ranked",
    "action_note",
    "explanation_lines",
]

#: How many alternatives ``killteam play --explain`` prints per decision.
EXPLAIN_TOP = 5


@attrs.frozen(slots=True)
class Alternative:
    """One action an agent weighed at a decision.

    Attributes:
        action: the action (complete, as the agent would play it).
        score: its score in the agent's unit (higher is better; the heuristic agent's unit
            is operatives, with victory points at :data:`engine.advice.VP_VALUE` each).
        note: a short text saying what the score is made of.
    """

    action: Action
    score: float
    note: str = ""

    def to_json(self) -> dict[str, object]:
        """``{"action": notation, "score": float rounded to 4 places, "note": text}``."""
        return {
            "action": format_action(self.action),
            "score": round(self.score, 4),
            "note": self.note,
        }


@runtime_checkable
class Explaining(Protocol):
    """An agent that explains its last decision (module docstring)."""

    def explain(self) -> list[Alternative]:  # pragma: no cover - protocol
        """The alternatives of the last decision, the one played first, best first."""
        ...


def explanation_lines(
    player: str, alternatives: Sequence[Alternative], top: int = EXPLAIN_TOP
) -> list[str]:
    """Plain text lines for ``alternatives`` of ``player``'s last decision (at most
    ``top``): ``"  [A] 1. Shoot KAS-1 plasma gun at LEG-2   0.512  shot: ..."``; the first is
    the action played, marked ``*``. Empty when there is nothing to say."""
    out = []
    for k, alt in enumerate(alternatives[:top]):
        mark = "*" if k == 0 else " "
        note = f"  {alt.note}" if alt.note else ""
        out.append(
            f"    {mark}{player} {k + 1}. {format_action(alt.action)}  {alt.score:+.3f}{note}"
        )
    return out


class Ranked:
    """The scored alternatives of a decision, for the heuristic agent's ``explain``:
    ``items`` ``(score, action, note)``; ``describe(action)`` makes a missing note on demand
    (only for the few alternatives shown, so a battle without ``explain`` pays nothing)."""

    top = EXPLAIN_TOP

    def __init__(
        self,
        items: list[tuple[float, Action, str]],
        describe: Callable[[Action], str] | None = None,
    ) -> None:
        self.items = items
        self.describe = describe

    def note(self, a: Action, note: str) -> str:
        """``note``, or the description of ``a`` when it has none."""
        if note or self.describe is None:
            return note
        return self.describe(a)


def action_note(w: Work, a: Action) -> str:
    """What an action's score is made of, in a few words (for the heuristic agent's
    ``explain``): a Shoot's (or a KT21 Overwatch's) exact expected damage and kill chance, a
    Fight's kill chance, a move's destination exposure."""
    v = a.verb
    if v in ("Shoot", "Overwatch") and a.op and a.weapon and a.target:
        o, t = w.op(a.op), w.op(a.target)
        if t.player == o.player:
            return "shot at its own operative"
        name, _, _ = find_weapon(w, o, a.weapon, "ranged")
        k21 = kt21_setup(w, o, w.place(o), name, t, 0 if v == "Shoot" else 1)
        if k21 is not None:
            r21 = kt21_shoot(*k21)
            return (
                f"shot: {float(r21.expected_damage):.1f} expected damage, "
                f"{float(r21.kill_probability):.0%} kill"
            )
        prof, target = shot_setup(w, o, w.place(o), name, t, False)
        res = shoot(prof, target)
        return (
            f"shot: {float(res.expected_damage):.1f} expected damage, "
            f"{float(res.kill_probability):.0%} kill"
        )
    if v in ("Fight", "Hatchway fight") and a.op and a.target:
        o, t = w.op(a.op), w.op(a.target)
        return f"fight: {fight_kill_chance(w, o, a.weapon, t):.0%} kill"
    if v in MOVE_ACTION and a.op and a.point is not None:
        o = w.op(a.op)
        p = w.ctx.placement(o.id, *a.point)
        return f"move: exposure {exposure(w, o, p, o.order):.2f} there"
    if v == "End activation":
        return "stand: the position where it is"
    if v in ("Pick up", "Place marker", "Act"):
        return "mission or rule action"
    return v.lower()
