"""Tac op **Flank** (Recon; ``rules/KT24.md`` 8.4, Approved Ops 2025).

- *Flanks*: the killzone is split into two flanks by the line through the centres of the
  two players' killzone edges. A player's killzone edge is the board edge its drop zone
  lies along: the side of the board that shares the longest stretch with the drop zone's
  outline (for the shipped layouts the short edges, x = 0 and x = 30, so the line is
  y = 11). ``"left"`` is the flank on the left when looking from the edge of the layout's
  drop zone ``A`` towards the other one, ``"right"`` the other; the names only label events.
- *Contesting and control*: an operative contests a flank while its base is wholly within
  that flank and wholly within its opponent's territory (the layout's territory of the
  opponent's drop zone; the drop zone itself when the layout has no territories). A
  player's operatives control a flank when the total APL of those contesting it is greater
  than that of the enemy operatives contesting it.
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
from shapely.geometry import LineString

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import OperativeState, other
from engine.game.work import Work
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import TAC, fact, score, set_fact

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


def _edge_centre(w: Work, zone: str) -> Point | None:
    """The centre of the board edge drop zone ``zone`` lies along (module docstring)."""
    kz = w.ctx.killzone
    area = kz.drop_zones.get(zone)
    if area is None:
        return None
    wd, dp = kz.width, kz.depth
    sides = (
        ((0.0, 0.0), (0.0, dp)),  # west
        ((wd, 0.0), (wd, dp)),  # east
        ((0.0, 0.0), (wd, 0.0)),  # south
        ((0.0, dp), (wd, dp)),  # north
    )
    best, length = None, 0.0
    for a, b in sides:
        shared = area.boundary.intersection(LineString([a, b])).length
        if shared > length + _EPS:
            best, length = (a, b), shared
    if best is None:
        return None
    (ax, ay), (bx, by) = best
    return ((ax + bx) / 2, (ay + by) / 2)


def flank_line(w: Work) -> tuple[Point, Point] | None:
    """The line between the flanks: from the centre of the killzone edge of the layout's
    first drop zone (``A``) to that of the other (inches); ``None`` when the layout's drop
    zones do not give two distinct edges."""
    kz = w.ctx.killzone
    line: tuple[Point, Point] | None = w.ctx.cached(("flank line", id(kz)), lambda: _line(w))
    return line


def _line(w: Work) -> tuple[Point, Point] | None:
    zones = sorted(w.ctx.killzone.drop_zones)
    if len(zones) != 2:
        return None
    a, b = _edge_centre(w, zones[0]), _edge_centre(w, zones[1])
    if a is None or b is None or a == b:
        return None
    return a, b


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


def _in_opponent_territory(w: Work, o: OperativeState) -> bool:
    zone = w.pl(other(o.player)).drop_zone
    kz = w.ctx.killzone
    if zone not in kz.drop_zones:
        return False
    area = kz.territories.get(zone, kz.drop_zones[zone])
    return bool(area.buffer(_EPS, join_style="mitre").covers(w.place(o).footprint()))


def contests_flank(w: Work, o: OperativeState, flank: str) -> bool:
    """Whether ``o`` contests ``flank`` (``"left"``/``"right"``; module docstring)."""
    return o.alive and _side(w, o) == flank and _in_opponent_territory(w, o)


def flank_controller(w: Work, flank: str) -> str:
    """The player whose operatives control ``flank``, or ``""`` (module docstring)."""
    total = {"A": 0, "B": 0}
    for o in w.alive():
        if contests_flank(w, o, flank):
            total[o.player] += w.apl(o)
    if total["A"] == total["B"]:
        return ""
    return "A" if total["A"] > total["B"] else "B"


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
    first = w.initiative or "A"
    players = [p for p in (first, other(first)) if tac_active(w, p, NAME)]
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
