"""Tac op **Retrieval** (Recon; ``rules/KT24.md`` 8.4, Approved Ops 2025).

- *Retrieve* (mission action, 1AP; not in the first turning point, not within control range
  of an enemy operative, not while the operative carries a marker of any kind): if the
  active operative controls an objective marker that friendly operatives have not
  searched yet, the operative now carries one of its kill team's Retrieval mission markers
  and the objective marker has been searched by its kill team. Notation
  ``Act KAS-1 retrieve centre``. The "if" is part of the printed effect, not of its
  conditions: Retrieve on a marker already searched, or naming no marker
  (``Act KAS-1 retrieve``, controlling none), is legal and does nothing; neither is
  offered (:class:`engine.missions.actions.MarkerAction`).
- Retrieval mission markers (:mod:`engine.missions.mission_markers`, kind
  :data:`RETRIEVAL`) are 20 mm markers named ``"<player> retrieval <n>"``; friendly
  operatives may pick them up and put them down with the universal actions (``Pick up
  KAS-2 a retrieval 1``, ``Place marker KAS-2 at 8,4``); a carrier that is incapacitated
  puts its marker down where it stood.
- *Scoring*: 1VP the first time each objective marker is searched by friendly operatives
  (at once, as the action is performed); at the end of the battle 1VP for each of your
  Retrieval mission markers friendly operatives are carrying. The pack prints no per
  turning point cap for this op; only the 6VP op cap applies.
- *Reveal*: the first time the op scores VP (the first Retrieve).

Facts: ``"Retrieval:<player>:searched"`` = the markers that player's operatives searched
(sorted). The Retrieval markers are tokens on the state.
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.missions import mission_markers
from engine.missions.actions import MarkerAction
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import TAC, fact, initiative_first, score, set_fact

__all__ = ["NAME", "RETRIEVAL", "RETRIEVE", "SPEC", "install", "searched"]

NAME = "Retrieval"
RETRIEVAL = mission_markers.register_kind(mission_markers.MarkerKind("retrieval", NAME))
"""The Retrieval mission markers (friendly operatives may pick them up)."""


def searched(w: Work, player: str) -> tuple[str, ...]:
    """The objective markers ``player``'s operatives have searched, sorted."""
    found: tuple[str, ...] = fact(w, f"{NAME}:{player}:searched", ())
    return found


def _retrieve(w: Work, o: OperativeState, marker: str) -> None:
    p = o.player
    set_fact(w, f"{NAME}:{p}:searched", tuple(sorted({*searched(w, p), marker})))
    w.emit("marker_searched", player=p, op=o.id, marker=marker)
    mission_markers.add_marker(w, RETRIEVAL, p, (o.x, o.y, o.elevation), carrier=o.id)
    if score(w, p, TAC, 1, f"{NAME}: objective marker {marker} searched"):
        reveal_tac_op(w, p, "it scored VP for the first time")


def _problem(w: Work, o: OperativeState, marker: str) -> str | None:
    if o.carrying:
        return f"{o.id} is already carrying a marker ({NAME})"
    return None


def _idle(w: Work, o: OperativeState, marker: str) -> str | None:
    if marker in searched(w, o.player):
        return f"objective marker {marker} has already been searched by {o.player}'s kill team"
    return None


RETRIEVE = MarkerAction(
    "Retrieve", "retrieve", NAME, TAC, _retrieve, _problem, idle=_idle, bare=True
)
"""The Retrieve mission action."""


def _battle_ending(w: Work, ev: Event) -> None:
    for p in initiative_first(w):
        if not tac_active(w, p, NAME):
            continue
        held = mission_markers.carried_by(w, RETRIEVAL, p)
        if held and score(w, p, TAC, len(held), f"{NAME}: {len(held)} Retrieval markers carried"):
            reveal_tac_op(w, p, "it scored VP for the first time")


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the Retrieve action for ``players``, the Retrieval markers (picked up and put down
    with the universal actions), and the end-of-battle scoring."""
    hooks.action(RETRIEVE, players)
    mission_markers.install(hooks, RETRIEVAL)
    hooks.on("battle_ending", _battle_ending)


add_template(
    "marker_searched",
    lambda e: f"  {e['op']} searches objective marker {e['marker']} for {e['player']}",
)

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
