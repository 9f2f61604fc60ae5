"""The skeleton of a team's unique action (``rules/KT24.md`` 3): who may perform it, "not
while within control range of an enemy operative", what it selects, and the ``options`` and
``check`` the core asks of a rule action (:class:`engine.game.rule_actions.RuleActionLike`).

A team's action class (``attrs.frozen(slots=True)``, with the fields ``name``, ``text``,
``ap`` and ``family``) derives from one of:

- :class:`SelectingAction`: notation ``Act <op> <text> on <operative>``; the subclass gives
  :meth:`SelectingAction.targets` (the operatives it may select now) and
  :meth:`SelectingAction.target_rule` (what it selects, for the refusal).
- :class:`PlainAction`: notation ``Act <op> <text>``, selecting nothing.
- :class:`PointAction`: notation ``Act <op> <text> at x,y``, selecting a point (a token
  placed there); the subclass gives :meth:`PointAction.point_problem` (why the point is not
  one the rule allows); the points offered are the operative's own spot and four just beyond
  its base.

Both ask :meth:`UniqueAction.performer_problem` (the operative does not have the action),
then, unless ``engaged_ok``, refuse within control range of an enemy operative, then
:meth:`UniqueAction.more_problem` (any further limit of the rule). Only the printed
conditions refuse an action: one they allow whose effect would change nothing now (a second
Pulse Accelerator while the first is active, a Medikit on an operative that has lost no
wounds) is legal but not offered (:meth:`PlainAction.idle`,
:meth:`SelectingAction.idle_target`; DESIGN.md: choices are offered only when the options
differ in effect). Helpers for the usual
selections: :func:`visible_friends_within` (a SUPPORT rule's "friendly operative visible to
and within x"").
"""

from __future__ import annotations

import math
from typing import ClassVar

from engine.game.actions import Action
from engine.game.bookkeeping import wording
from engine.game.state import OperativeState
from engine.game.work import Work

__all__ = [
    "PlainAction",
    "PointAction",
    "SelectingAction",
    "UniqueAction",
    "visible_friends_within",
]

EPS = 1e-6


class UniqueAction:
    """The conditions every unique action shares (module docstring). Not an attrs class:
    the subclasses are, and give ``name``, ``text``, ``ap`` and ``family``."""

    __slots__ = ()
    name: str
    text: str
    ap: int
    family: str
    engaged_ok: ClassVar[bool] = False
    """Whether it may be performed within control range of an enemy operative."""

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """Why ``o`` does not have this action (naming it), or ``None``."""
        raise NotImplementedError

    def more_problem(self, w: Work, o: OperativeState, mode: str) -> str | None:
        """Any further reason the rule gives why ``o`` cannot perform it now, or ``None``."""
        return None

    def why_not(self, w: Work, o: OperativeState, mode: str) -> str | None:
        """Why ``o`` cannot perform it now, whatever it selects (naming the rule), or
        ``None``."""
        why = self.performer_problem(w, o)
        if why is None and not self.engaged_ok and w.in_enemy_control_range(o):
            why = f"{o.id} is within {wording(w).control_range} of an enemy operative ({self.name})"
        if why is None:
            why = self.more_problem(w, o, mode)
        return why


class SelectingAction(UniqueAction):
    """A unique action that selects an operative: ``Act <op> <text> on <operative>``."""

    __slots__ = ()

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """The operatives ``o`` may select now (ids, in the order listed)."""
        raise NotImplementedError

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects, for the refusal of another operative (``"Battle Comms selects
        another friendly ..."``)."""
        raise NotImplementedError

    def idle_target(self, w: Work, o: OperativeState, target: str) -> str | None:
        """Why selecting ``target`` (one of :meth:`targets`) would change nothing now, or
        ``None``: such a selection is legal (:meth:`check` accepts it) but not offered
        (module docstring)."""
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> <text> on <operative>`` for each operative it may select whose
        selection changes something (:meth:`idle_target`)."""
        if self.why_not(w, o, mode) is not None:
            return []
        return [
            Action("Act", op=o.id, text=self.text, target=t)
            for t in self.targets(w, o)
            if self.idle_target(w, o, t) is None
        ]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        why = self.why_not(w, o, mode)
        if why is None and a.target not in self.targets(w, o):
            why = f"{a}: {self.target_rule(w, o)}"
        return why


class PlainAction(UniqueAction):
    """A unique action that selects nothing: ``Act <op> <text>``."""

    __slots__ = ()

    def idle(self, w: Work, o: OperativeState, mode: str) -> str | None:
        """Why performing it now would change nothing, or ``None``: it is then legal
        (:meth:`check` accepts it) but not offered (module docstring)."""
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> <text>`` when it may and its effect changes something (:meth:`idle`)."""
        if self.why_not(w, o, mode) is not None or self.idle(w, o, mode) is not None:
            return []
        return [Action("Act", op=o.id, text=self.text)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        if a.point is not None or a.target:
            return f"{a}: {self.name} takes no point or operative"
        return self.why_not(w, o, mode)


class PointAction(UniqueAction):
    """A unique action that selects a point: ``Act <op> <text> at x,y`` (inches; a token is
    placed there)."""

    __slots__ = ()

    def point_problem(self, w: Work, o: OperativeState, point: tuple[float, ...]) -> str | None:
        """Why the rule does not allow ``point`` (x, y, z inches), or ``None``."""
        raise NotImplementedError

    def off_killzone(self, w: Work, point: tuple[float, ...]) -> str | None:
        """Why ``point`` is not on the killzone (naming the rule), or ``None``: the first check
        of a :meth:`point_problem`."""
        x, y, z = point
        if not (0 <= x <= w.kz.width and 0 <= y <= w.kz.depth) or z < 0:
            return f"({x:g}, {y:g}) is not on the killzone ({self.name})"
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """Its own spot, then four spots just beyond its base (east, north, west, south), each
        that :meth:`point_problem` allows (any other allowed point is accepted too)."""
        if self.why_not(w, o, mode) is not None:
            return []
        r = w.place(o).radius + 0.5
        spots = [(o.x, o.y)] + [
            (o.x + r * math.cos(k * math.pi / 2), o.y + r * math.sin(k * math.pi / 2))
            for k in range(4)
        ]
        out = []
        for x, y in spots:
            p = (round(x, 3) + 0.0, round(y, 3) + 0.0, o.elevation)
            if self.point_problem(w, o, p) is None:
                out.append(Action("Act", op=o.id, text=self.text, point=p))
        return out

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or ``None``."""
        why = self.why_not(w, o, mode)
        if why is not None:
            return why
        if a.target or a.point is None:
            return f"{self.name} selects a point: 'Act {o.id} {self.text} at x,y'"
        return self.point_problem(w, o, a.point)


def visible_friends_within(
    w: Work, o: OperativeState, inches: float, *, other: bool = True
) -> list[OperativeState]:
    """``o``'s friendly operatives visible to and within ``inches`` of it (``o`` itself
    first too unless ``other``: an operative is within and visible to itself, 4.1, 4.3), in
    roster order. The distance is as given: a SUPPORT rule passes
    :func:`engine.rules.equipment.markers.support_distance` of its printed one."""
    here = w.place(o)
    out = [] if other else [o]
    for f in w.friends_of(o.id):
        there = w.place(f)
        if w.distance(here, there) <= inches + EPS and w.ctx.visible(w.kz, here, there):
            out.append(f)
    return out
