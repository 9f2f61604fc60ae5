"""The project's KT21 mission objective, **Loot** (``rules/KT21.md`` 15.3, decision 7): the
mission action of the default Critical Operations 2022 mission (and of the 2021 Core Book
sequence, which plays the same project objective: its mission texts are not sourced, 18.13).

*Loot* (mission action, 1AP): the active operative is within 1" (▲) of the centre of an
objective marker it controls (15.1: it is within the control distance and its kill team's
total APL there is the greater); that marker has not been looted during this turning point
(by either player) and has been looted fewer than :data:`LOOTS_PER_MARKER` (3) times in the
battle. The marker is looted: 1VP to the operative's player at once, within the mission caps
(4VP per turning point, 16VP per battle: :func:`engine.missions.kt21.scoring.score_mission`).
A Loot beyond a cap scores nothing but still loots the marker, so it stays legal.

Readings (the [SIM] model, 15.3 UNCONFIRMED): Loot may be performed in every turning point,
and within Engagement Range of an enemy operative (the model names neither restriction).

Notation: ``Act <operative> loot <marker>`` (``Act A1 loot mid-north``). Facts:
``"kt21 loot:<marker>"`` = the turning point of its last Loot, ``"kt21 loots:<marker>"`` =
how many times it was looted.
"""

from __future__ import annotations

import attrs

from engine.game.actions import Action
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.missions.crit_ops import loot as _kt24_loot  # noqa: F401 - narrates marker_looted
from engine.missions.kt21.objectives import distance_to_centre
from engine.missions.kt21.scoring import score_mission
from engine.missions.markers import marker_names, operative_controls
from engine.missions.scoring import fact, set_fact

__all__ = ["LOOT", "LOOTS_PER_MARKER", "LOOT_RANGE", "Loot", "looted", "loots"]

LOOT_RANGE = 1.0
"""How close (inches, ▲) to a marker's centre the operative must be (15.3)."""
LOOTS_PER_MARKER = 3
"""How many times one marker can be looted in a battle (15.3)."""
_EPS = 1e-6


def looted(w: Work, marker: str) -> bool:
    """Whether ``marker`` was looted (by either player) during this turning point."""
    return bool(fact(w, f"kt21 loot:{marker}") == w.tp)


def loots(w: Work, marker: str) -> int:
    """How many times ``marker`` has been looted in the battle."""
    return int(fact(w, f"kt21 loots:{marker}", 0))


@attrs.frozen(slots=True)
class Loot:
    """The Loot mission action (module docstring), a rule action
    (:class:`engine.game.rule_actions.RuleActionLike`)."""

    name: str = "Loot"
    text: str = "loot"
    ap: int = 1
    family: str = ""
    mission: bool = True

    def problem(self, w: Work, o: OperativeState, marker: str) -> str | None:
        """Why ``o`` cannot Loot ``marker`` now (naming the rule), or ``None``."""
        if not operative_controls(w, o, marker):
            return f"{o.id} must control objective marker {marker} to Loot it (rules/KT21.md 15.1)"
        if distance_to_centre(w, o, marker) > LOOT_RANGE + _EPS:
            return (
                f'{o.id} must be within 1" of the centre of objective marker {marker} to Loot '
                "it (rules/KT21.md 15.3)"
            )
        if looted(w, marker):
            return (
                f"objective marker {marker} has already been looted this turning point "
                "(rules/KT21.md 15.3)"
            )
        if loots(w, marker) >= LOOTS_PER_MARKER:
            return (
                f"objective marker {marker} has been looted {LOOTS_PER_MARKER} times, the most "
                "in a battle (rules/KT21.md 15.3)"
            )
        return None

    def offered(self, w: Work, o: OperativeState) -> bool:
        """False when no objective marker is on the killzone (nothing to Loot)."""
        del o
        return bool(w.markers)

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> loot <marker>`` for each marker ``o`` may Loot now."""
        return [
            Action("Act", op=o.id, text=f"{self.text} {m.lower()}")
            for m in marker_names(w)
            if self.problem(w, o, m) is None
        ]

    def _marker(self, w: Work, a: Action) -> str:
        arg = a.text[len(self.text) :].strip().lower()
        return next((m for m in marker_names(w) if m.lower() == arg), "")

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` is not allowed now (naming the rule), or ``None``."""
        if a.target or a.point is not None:
            return f"Loot names an objective marker: 'Act {o.id} loot <marker>'"
        marker = self._marker(w, a)
        if not marker:
            names = ", ".join(m.lower() for m in marker_names(w)) or "none"
            return f"Loot names an objective marker after it (markers: {names})"
        return self.problem(w, o, marker)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Loot the named marker and score 1VP within the caps (module docstring)."""
        marker = self._marker(w, a)
        w.emit("mission_action", op=o.id, action=self.name, marker=marker, mission_op="Loot")
        set_fact(w, f"kt21 loot:{marker}", w.tp)
        set_fact(w, f"kt21 loots:{marker}", loots(w, marker) + 1)
        w.emit("marker_looted", player=o.player, op=o.id, marker=marker)
        score_mission(w, o.player, 1, f"Loot: objective marker {marker} looted")


LOOT = Loot()
"""The Loot mission action."""
