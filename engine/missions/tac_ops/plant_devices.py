"""Tac op **Plant Devices** (Infiltration; ``rules/KT24.md`` 8.4, Approved Ops 2025).

- *Plant Device* (mission action, 1AP; not in the first turning point nor within control
  range of an enemy operative): an objective marker the active operative controls gains
  one of its kill team's Device tokens; not on a marker that already has one of them.
  Notation ``Act KAS-1 plant device centre``.
- *Reveal*: the first time a friendly operative performs Plant Device.
- *Scoring*, at the end of each turning point after the first: 1VP if the opponent's
  objective marker has one of your Device tokens, and 1VP for each other objective marker
  (yours or the centre one) that has one of your Device tokens and that enemy operatives
  contest; at most 2VP per turning point.

A Device token stays on its marker for the battle (the op prints no way to remove it) and
goes wherever the marker goes. Facts: ``"Plant Devices:<player>:<marker>"`` = True.
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import OperativeState, other
from engine.game.work import Work
from engine.missions.actions import MarkerAction
from engine.missions.markers import contested_by, marker_names, opponent_marker
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import TAC, fact, score, set_fact

__all__ = ["NAME", "PLANT_DEVICE", "SPEC", "has_device", "install"]

NAME = "Plant Devices"
TP_CAP = 2
"""The most VP the op scores per turning point."""


def has_device(w: Work, player: str, marker: str) -> bool:
    """Whether objective marker ``marker`` has one of ``player``'s Device tokens."""
    return bool(fact(w, f"{NAME}:{player}:{marker}"))


def _plant(w: Work, o: OperativeState, marker: str) -> None:
    set_fact(w, f"{NAME}:{o.player}:{marker}", True)
    w.emit("device_planted", player=o.player, op=o.id, marker=marker)
    reveal_tac_op(w, o.player, "a friendly operative performed Plant Device")


def _problem(w: Work, o: OperativeState, marker: str) -> str | None:
    if has_device(w, o.player, marker):
        return f"objective marker {marker} already has one of {o.player}'s Device tokens ({NAME})"
    return None


PLANT_DEVICE = MarkerAction("Plant Device", "plant device", NAME, TAC, _plant, _problem)
"""The Plant Device mission action."""


def _score(w: Work, ev: Event) -> None:
    if w.tp < 2:
        return
    first = w.initiative or "A"
    for p in (first, other(first)):
        if not tac_active(w, p, NAME):
            continue
        theirs = opponent_marker(w, p)
        if theirs and has_device(w, p, theirs):
            why = f"{NAME}: a Device on the opponent's objective marker"
            score(w, p, TAC, 1, why, tp_cap=TP_CAP)
        for m in marker_names(w):
            if m != theirs and has_device(w, p, m) and contested_by(w, other(p), m):
                score(
                    w,
                    p,
                    TAC,
                    1,
                    f"{NAME}: a Device on objective marker {m}, contested by the enemy",
                    tp_cap=TP_CAP,
                )


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the Plant Device action for ``players`` and the end-of-turning-point scoring."""
    hooks.action(PLANT_DEVICE, players)
    hooks.on("turning_point_ending", _score)


SPEC = register(
    OpSpec(
        NAME,
        TAC,
        install,
        archetype="Infiltration",
        summary="Plant Devices on markers; score for the opponent's and for contested ones.",
        reveal="the first time a friendly operative performs Plant Device",
    )
)
