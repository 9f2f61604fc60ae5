"""Tac op **Flank** (Recon; ``rules/KT24.md`` 8.4, Approved Ops 2025).

- *Flanks*: the killzone is split into two flanks by the line through the centres of the
  two players' killzone edges (the board edges their drop zones lie along,
  :mod:`engine.missions.territory`; for the shipped layouts the short edges, x = 0 and
  x = 30, so the line is y = 11). ``"left"`` is the flank on the left when looking from the
  edge of the layout's drop zone ``A`` towards the other one, ``"right"`` the other; the
  names only label events.
- *Contesting and control*: an operative contests a flank while its base is wholly within
  that flank and wholly within its opponent's territory
  (:func:`engine.missions.territory.enemy_territory`). A player's operatives control a
  flank when the total APL of those contesting it is greater than that of the enemy
  operatives contesting it (4.8).
- *Reveal*: as a strategic gambit, in any turning point's Gambit step: ``Op reveal flank``,
  a rule's option of the Gambit step (``kind="rule"`` in :mod:`engine.game.ploys`: no CP,
  not a ploy). Both players are always asked at the Gambit step, so the option leaks
  nothing.
- *Scoring*, after the op is revealed, at the end of each turning point after the first:
  1VP for each flank the player's operatives control; in the fourth turning point 2VP
  instead for a flank they also controlled at the end of the third; at most 2VP per
  turning point.

Facts: ``"secret:<player>:Flank:tp3"`` = the flanks the player's operatives controlled at
the end of the third turning point (kept secret: it would betray the op before its reveal).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import OperativeState
from engine.game.universal import apl_controller
from engine.game.work import Work
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import TAC, fact, initiative_first, score, set_fact
from engine.missions.territory import edge_centre, enemy_territory, operative_wholly_within

__all__ = [
    "FLANKS",
    "NAME",
    "REVEAL",
    "SPEC",
    "contests_flank",
    "flank_controller",
    "flank_line",
    "install",
]

NAME = "Flank"
TP_CAP = 2
"""The most VP the op scores per turning point."""

FLANKS = ("left", "right")
"""The two flanks (module docstring)."""

_EPS = 1e-6

Point = tuple[float, float]


def flank_line(w: Work) -> tuple[Point, Point] | None:
    """The line between the flanks: from the centre of the killzone edge of the layout's
    first drop zone (``A``) to that of the other (inches); ``None`` when the layout's drop
    zones do not give two distinct edges."""
    kz = w.ctx.killzone
    line: tuple[Point, Point] | None = w.ctx.cached(("flank line", id(kz)), lambda: _line(w))
    return line


def _line(w: Work) -> tuple[Point, Point] | None:
    kz = w.ctx.killzone
    zones = sorted(kz.drop_zones)
    if len(zones) != 2:
        return None
    edges = [kz.drop_zone_edge(z) for z in zones]
    if edges[0] == edges[1] or "centre" in edges:
        return None
    return edge_centre(w, edges[0]), edge_centre(w, edges[1])


def _side(w: Work, o: OperativeState) -> str:
    """The flank ``o``'s base lies wholly within, or ``""``."""
    line = flank_line(w)
    if line is None:
        return ""
    (ax, ay), (bx, by) = line
    dx, dy = bx - ax, by - ay
    d = (dx * (o.y - ay) - dy * (o.x - ax)) / (dx * dx + dy * dy) ** 0.5
    r = w.place(o).radius
    if d >= r - _EPS:
        return "left"
    if d <= -r + _EPS:
        return "right"
    return ""


FLANK = "flank"
"""What a flank's control is, for the control hooks (``what=``, 4.8)."""


def contests_flank(w: Work, o: OperativeState, flank: str) -> bool:
    """Whether ``o`` contests ``flank`` (``"left"``/``"right"``; module docstring)."""
    return (
        o.alive
        and _side(w, o) == flank
        and operative_wholly_within(w, o, enemy_territory(w, o.player))
    )


def flank_controller(w: Work, flank: str) -> str:
    """The player whose operatives control ``flank``, or ``""`` (module docstring): the
    total APL of those contesting it, told to the control hooks as a flank (``what=``
    ``"flank"``), not a marker: a rule that changes how an operative's APL counts for
    control of a marker does not apply (the tac op counts their APL stats)."""
    return apl_controller(w, lambda o: contests_flank(w, o, flank), what=FLANK)


def _revealed(w: Work, player: str) -> bool:
    return w.mission.tac_revealed[0 if player == "A" else 1]


@attrs.frozen(slots=True)
class RevealFlank:
    """The strategic gambit that reveals Flank (module docstring): a rule's option of the
    Gambit step (:class:`engine.game.ploys.PloyLike` of kind ``"rule"``)."""

    name: str = "Reveal Flank"
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("gambit",)
    repeatable: bool = False

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Op reveal flank`` while ``player``'s tac op is an unrevealed Flank."""
        if tac_active(w, player, NAME) and not _revealed(w, player):
            return [Action("Op", text="reveal flank")]
        return []

    def owns(self, action: Action) -> bool:
        """Whether ``action`` is ``Op reveal flank``."""
        return action.verb == "Op" and action.text == "reveal flank"

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``Op reveal flank`` is not allowed for ``player`` now."""
        if not tac_active(w, player, NAME):
            return f"player {player}'s tac op is not Flank: nothing to reveal (8.4)"
        return f"player {player}'s tac op Flank is already revealed (8.4)"

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Reveal the op."""
        reveal_tac_op(w, player, "as a strategic gambit")


REVEAL = RevealFlank()
"""The Gambit-step option that reveals Flank."""


def _tp3_key(player: str) -> str:
    return f"secret:{player}:{NAME}:tp3"


def _score(w: Work, ev: Event) -> None:
    if w.tp < 2:
        return
    players = [p for p in initiative_first(w) if tac_active(w, p, NAME)]
    if not players:
        return
    held = {f: flank_controller(w, f) for f in FLANKS}
    for p in players:
        if _revealed(w, p):
            before = fact(w, _tp3_key(p), ()) if w.tp == 4 else ()
            for f in FLANKS:
                if held[f] == p:
                    vp = 2 if f in before else 1
                    score(w, p, TAC, vp, f"{NAME}: the {f} flank controlled", tp_cap=TP_CAP)
        if w.tp == 3:
            mine = tuple(f for f in FLANKS if held[f] == p)
            set_fact(w, _tp3_key(p), mine or None)


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the reveal gambit for ``players`` and the end-of-turning-point scoring."""
    hooks.ploy(REVEAL, players)
    hooks.on("turning_point_ending", _score)


SPEC = register(
    OpSpec(
        NAME,
        TAC,
        install,
        archetype="Recon",
        summary="Hold the flanks deep in enemy territory; 1VP each, 2VP if held since TP3.",
        reveal="as a strategic gambit",
    )
)
