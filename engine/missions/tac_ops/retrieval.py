"""Tac op **Retrieval** (Recon; ``rules/KT24.md`` 8.4, Approved Ops 2025).

- *Retrieve* (mission action, 1AP; not in the first turning point, not within control range
  of an enemy operative, not while the operative carries a marker of any kind): on an
  objective marker the active operative controls that friendly operatives have not
  searched yet: the operative now carries one of its kill team's Retrieval mission markers
  and the objective marker has been searched by its kill team. Notation
  ``Act KAS-1 retrieve centre``.
- Friendly operatives may Pick Up Marker on their Retrieval mission markers
  (:mod:`engine.missions.mission_markers`: a carrier that is incapacitated drops it).
- *Scoring*: 1VP the first time each objective marker is searched by friendly operatives
  (at once, as the action is performed); at the end of the battle 1VP for each of your
  Retrieval mission markers friendly operatives are carrying. The pack prints no per
  turning point cap for this op; only the 6VP op cap applies.
- *Reveal*: the first time the op scores VP (the first Retrieve).

Facts: ``"Retrieval:<player>:searched"`` = the markers that player's operatives searched
(sorted); the Retrieval mission markers in ``"Retrieval:markers"``.
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import OperativeState, other
from engine.game.work import Work
from engine.missions import mission_markers
from engine.missions.actions import MarkerAction
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import TAC, fact, score, set_fact

__all__ = ["NAME", "RETRIEVE", "SPEC", "install", "searched"]

NAME = "Retrieval"


def searched(w: Work, player: str) -> tuple[str, ...]:
    """The objective markers ``player``'s operatives have searched, sorted."""
    found: tuple[str, ...] = fact(w, f"{NAME}:{player}:searched", ())
    return found


def _retrieve(w: Work, o: OperativeState, marker: str) -> None:
    p = o.player
    set_fact(w, f"{NAME}:{p}:searched", tuple(sorted({*searched(w, p), marker})))
    w.emit("marker_searched", player=p, op=o.id, marker=marker)
    mission_markers.add_marker(w, NAME, p, "retrieval", (o.x, o.y, o.elevation), carrier=o.id)
    if score(w, p, TAC, 1, f"{NAME}: objective marker {marker} searched"):
        reveal_tac_op(w, p, "it scored VP for the first time")


def _problem(w: Work, o: OperativeState, marker: str) -> str | None:
    if marker in searched(w, o.player):
        return f"objective marker {marker} has already been searched by {o.player}'s kill team"
    if mission_markers.carrying_any(w, o):
        return f"{o.id} is already carrying a marker ({NAME})"
    return None


RETRIEVE = MarkerAction("Retrieve", "retrieve", NAME, TAC, _retrieve, _problem)
"""The Retrieve mission action."""


def _battle_ending(w: Work, ev: Event) -> None:
    first = w.initiative or "A"
    for p in (first, other(first)):
        if not tac_active(w, p, NAME):
            continue
        held = [m for m in mission_markers.markers_of(w, NAME, p) if m.carrier]
        if held and score(w, p, TAC, len(held), f"{NAME}: {len(held)} Retrieval markers carried"):
            reveal_tac_op(w, p, "it scored VP for the first time")


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the Retrieve action for ``players``, the mission markers' Pick Up and Place
    Marker actions, and the end-of-battle scoring."""
    hooks.action(RETRIEVE, players)
    mission_markers.install(hooks)
    hooks.on("battle_ending", _battle_ending)


SPEC = register(
    OpSpec(
        NAME,
        TAC,
        install,
        archetype="Recon",
        summary="Search each objective marker once for 1VP; carry the finds to the end.",
        reveal="the first time it scores VP",
    )
)
