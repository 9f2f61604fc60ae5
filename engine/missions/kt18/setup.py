"""The Covert War set-up as frames (``rules/KT18.md`` 9.1, 9.3, 9.5, 9.7), installed as the
battle's set-up step (``Hooks.setup_step``, :func:`covert_war_setup`):

1. :class:`AdvantageFrame`: each player rolls 2D6 (A, then B); equal totals are rolled
   again by both; the order, greatest first, is the fact ``kt18 advantage`` (9.3).
2. :class:`MarkerFrame`: in that order each player places one objective marker (``Op marker
   at 15,11``): the listed points are every whole inch where the marker may go, and any
   legal point typed is accepted (:func:`~engine.missions.kt18.objectives.marker_problem`).
3. :class:`PrimaryFrame`: the greatest-advantage player rolls the D3 of the primary
   objective (9.7; a D6 halved, rounding up, 1.2).
4. The Scouting phase is skipped (9.2: its rules are not in the source; the digest's
   decision).
5. Deployment (:mod:`engine.missions.kt18.deployment`): the split, the zones, the models.
"""

from __future__ import annotations

import math
import re
from typing import Any

import attrs

from engine.dice.kt18_values import d3_of
from engine.game.actions import Action
from engine.game.flow import expect
from engine.game.frame_skeleton import NoChoiceFrame
from engine.game.state import PLAYERS, MarkerState
from engine.game.work import Work
from engine.missions.kt18 import deployment
from engine.missions.kt18.objectives import (
    ADVANTAGE,
    EDGE_GAP,
    OBJECTIVES,
    PRIMARY,
    advantage_order,
    illegal,
    marker_problem,
)
from engine.missions.scoring import set_fact

__all__ = [
    "MARKER_GRID",
    "AdvantageFrame",
    "CovertWarSetup",
    "MarkerFrame",
    "PrimaryFrame",
    "covert_war_setup",
    "marker_name",
    "marker_text",
    "parse_marker_text",
]

MARKER_GRID = 1.0
"""Spacing of the objective marker points listed as decisions, inches (any legal point typed
is accepted too)."""


def covert_war_setup(w: Work) -> Any:
    """The set-up step of a Covert War battle (``Hooks.setup_step``): a
    :class:`CovertWarSetup`."""
    del w
    return CovertWarSetup()


_STEPS = ("advantage", "markers", "primary", "split", "zone", "deploy")


@attrs.frozen(slots=True)
class CovertWarSetup(NoChoiceFrame):
    """The Covert War set-up in its order (module docstring): pushes each step's frame in
    turn, then leaves the stack (battle round 1 follows).

    Attributes:
        step: how many steps were pushed.
    """

    step: int = 0

    def run(self, w: Work) -> None:
        if self.step >= len(_STEPS):
            w.stack.pop()
            return
        w.replace_top(step=self.step + 1)
        name = _STEPS[self.step]
        frame: Any
        if name == "advantage":
            frame = AdvantageFrame()
        elif name == "markers":
            frame = MarkerFrame()
        elif name == "primary":
            frame = PrimaryFrame()
        elif name == "split":
            frame = deployment.SplitFrame()
        elif name == "zone":
            frame = deployment.ZoneFrame()
        else:
            frame = deployment.DeployFrame.start(w)
        w.stack.append(frame)


@attrs.frozen(slots=True)
class AdvantageFrame(NoChoiceFrame):
    """The strategic advantage roll (9.3): 2D6 for A, then for B (one chance node each);
    equal totals: both roll again.

    Attributes:
        a: A's total once rolled (0: not yet).
    """

    a: int = 0

    def run(self, w: Work) -> None:
        player = "B" if self.a else "A"
        w.roll(
            "kt18_strategic_advantage", player, 2, label=f"strategic advantage of {player} (2D6)"
        )

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        total = sum(values)
        if not self.a:
            w.replace_top(a=total)
            return
        a, b = self.a, total
        if a == b:
            w.emit("kt18_strategic_advantage", a=a, b=b, order=())
            w.replace_top(a=0)  # tied: both roll again (9.3)
            return
        order = ("A", "B") if a > b else ("B", "A")
        set_fact(w, ADVANTAGE, order)
        w.emit("kt18_strategic_advantage", a=a, b=b, order=order)
        w.stack.pop()


def _num(v: float) -> str:
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def marker_text(x: float, y: float) -> str:
    """The text of the ``Op`` action placing a marker at ``x``, ``y``: ``marker at 15,11``."""
    return f"marker at {_num(x)},{_num(y)}"


_MARKER_RE = re.compile(
    r"\s*marker\s+at\s+(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*", re.IGNORECASE | re.ASCII
)


def parse_marker_text(text: str) -> tuple[float, float] | None:
    """The point ``(x, y)`` (inches, rounded to 0.001") of an ``Op marker at x,y`` text, or
    ``None`` when ``text`` is not one."""
    m = _MARKER_RE.fullmatch(text)
    if m is None:
        return None
    x, y = round(float(m.group(1)), 3), round(float(m.group(2)), 3)
    if not (math.isfinite(x) and math.isfinite(y)):  # pragma: no cover - digits only
        return None
    return x, y


def marker_name(k: int, player: str) -> str:
    """The name of the ``k``-th objective marker placed (from 1), by ``player``."""
    return f"objective {k} ({player})"


@attrs.frozen(slots=True)
class MarkerFrame:
    """Each player, greatest advantage first, places one objective marker (9.3; module
    docstring).

    Attributes:
        placed: how many markers were placed.
    """

    placed: int = 0

    def _player(self, w: Work) -> str:
        return advantage_order(w)[self.placed]

    def run(self, w: Work) -> None:
        order = advantage_order(w)
        if self.placed >= len(order):
            w.stack.pop()
            return
        if not self.options(w):
            player = self._player(w)
            w.emit(
                "rule_not_played",
                player=player,
                rule="Covert War: place an objective marker",
                why='no point of the battlefield is 8" from every marker and 6" from every '
                "edge (rules/KT18.md 9.3)",
            )
            w.replace_top(placed=self.placed + 1)
            return
        w.decide(self._player(w), "kt18_objective_marker")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise illegal("no dice are rolled while objective markers are placed")

    def options(self, w: Work) -> list[Action]:
        kz = w.kz
        out = []
        ny = math.floor((kz.depth - 2 * EDGE_GAP) / MARKER_GRID + 1e-9)
        nx = math.floor((kz.width - 2 * EDGE_GAP) / MARKER_GRID + 1e-9)
        for j in range(ny + 1):
            y = EDGE_GAP + j * MARKER_GRID
            for i in range(nx + 1):
                x = EDGE_GAP + i * MARKER_GRID
                if marker_problem(w, x, y) is None:
                    out.append(Action("Op", text=marker_text(x, y)))
        return out

    def act(self, w: Work, a: Action) -> None:
        expect(a, ("Op",), "the placing of an objective marker (rules/KT18.md 9.3)")
        point = parse_marker_text(a.text)
        if point is None:
            raise illegal(
                f"{a} is not possible now: place the objective marker with 'Op marker at "
                "x,y' (inches; rules/KT18.md 9.3)"
            )
        x, y = point
        problem = marker_problem(w, x, y)
        if problem is not None:
            raise illegal(problem)
        player = self._player(w)
        name = marker_name(len(w.markers) + 1, player)
        w.markers.append(MarkerState(name, x, y))
        w.emit("kt18_objective_placed", marker=name, player=player, x=x, y=y)
        w.replace_top(placed=self.placed + 1)


@attrs.frozen(slots=True)
class PrimaryFrame(NoChoiceFrame):
    """The primary objective (9.7): the greatest-advantage player rolls a D3 (one D6 halved,
    rounding up: 1.2): 1 Secure the Battlefield, 2 Retrieve the Cache, 3 Infiltrate."""

    def run(self, w: Work) -> None:
        player = advantage_order(w)[0] if advantage_order(w) else PLAYERS[0]
        w.roll("kt18_primary_objective", player, 1, label="Covert War primary objective (D3)")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        roll = d3_of(values[0])
        objective = OBJECTIVES[roll - 1]
        set_fact(w, PRIMARY, objective)
        player = advantage_order(w)[0] if advantage_order(w) else PLAYERS[0]
        w.emit("kt18_primary_objective", objective=objective, player=player, roll=roll)
        w.stack.pop()
