"""Mission actions (``rules/KT24.md`` 8.3, 8.4): the actions ops add, as rule actions
(:class:`engine.game.rule_actions.RuleActionLike`) with the pack's common conditions.

Every mission action of the pack shares these conditions unless its op says otherwise: not
before a given turning point (the first, usually), and not while the operative is within
control range of an enemy operative. A :class:`MarkerAction` acts on an objective marker
the operative controls; its notation names the marker after the action:
``Act KAS-1 secure centre`` (marker names in lower case).

Conditions and effects are kept apart as the pack prints them: only a printed condition
makes the action illegal (``problem``). What the effect needs of the marker and does not
find (a Reboot of a marker that is not inert, a Retrieve of a marker already searched) makes
the action legal but idle (``idle``): it can be performed, spends its AP, counts as
performed, and changes nothing; it is not offered among the legal actions, since choosing it
cannot change anything but the AP spent (``docs/RULINGS.md``, Readings chosen).
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from engine.game.actions import Action
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.missions.markers import marker_names, operative_controls
from engine.missions.pack import crit_active, tac_active
from engine.missions.scoring import CRIT

__all__ = ["MarkerAction", "common_problem", "offered", "op_in_play"]

Check = Callable[[Work, OperativeState, str], "str | None"]
Effect = Callable[[Work, OperativeState, str], None]


def op_in_play(w: Work, player: str, op: str, kind: str) -> bool:
    """Whether ``op`` (a crit op when ``kind`` is ``"crit"``, else a tac op) is in play for
    ``player``."""
    return crit_active(w, op) if kind == CRIT else tac_active(w, player, op)


def offered(
    w: Work, o: OperativeState, op: str, kind: str, min_tp: int = 2, max_tp: int = 4
) -> bool:
    """The cheap part of :func:`common_problem` (its op in play for ``o``'s player, the
    turning point from ``min_tp`` to ``max_tp``): ``False`` when a mission action sharing
    those conditions has no option now (a rule action's ``offered``,
    :class:`engine.game.rule_actions.RuleActionLike`)."""
    return min_tp <= w.tp <= max_tp and op_in_play(w, o.player, op, kind)


def common_problem(
    w: Work, o: OperativeState, name: str, op: str, kind: str, min_tp: int = 2, max_tp: int = 4
) -> str | None:
    """Why ``o`` cannot perform the mission action ``name`` of ``op`` now because of the
    conditions most mission actions share, or ``None``: the op must be in play for its
    player, the turning point from ``min_tp`` to ``max_tp``, and ``o`` not within control
    range of an enemy operative (8.3)."""
    if not op_in_play(w, o.player, op, kind):
        what = "the crit op" if kind == CRIT else f"player {o.player}'s tac op"
        return f"{name} is an action of the {op} op, which is not {what} (8.3, 8.4)"
    if w.tp < min_tp:
        which = {2: "the first turning point", 3: "the first or second turning point"}.get(
            min_tp, f"turning points before the {min_tp}th"
        )
        return f"{name} cannot be performed during {which} ({op})"
    if w.tp > max_tp:
        return f"{name} can only be performed up to turning point {max_tp} ({op})"
    if w.in_enemy_control_range(o):
        return f"{name} cannot be performed within control range of an enemy operative ({op})"
    return None


@attrs.frozen(slots=True)
class MarkerAction:
    """A mission action on one objective marker the active operative controls.

    Attributes:
        name: as printed (``"Secure"``); ``text`` its notation name (``"secure"``).
        op: the op's name; ``kind``: ``"crit"`` or ``"tac"``.
        effect: ``effect(w, o, marker)`` carries it out (AP already spent).
        problem: ``problem(w, o, marker)``: why the op's own conditions forbid it on that
            marker, or ``None``.
        ap: its AP cost; ``min_tp``/``max_tp``: the turning points it may be performed in.
        family: the universal action it counts as (``""``).
        idle: ``idle(w, o, marker)``: why the effect would change nothing on that marker
            (a quality the effect needs and the marker lacks: not inert, already
            searched), or ``None``. An idle action stays legal (only printed conditions
            forbid it) but is not offered, and ``effect`` is not called.
        bare: the action may also be performed naming no marker (its printed effect is
            conditional on controlling one, as Retrieve's ``If...``); performed bare it
            acts on the first marker the operative controls that is not idle, else does
            nothing. Never offered (naming the marker is).
    """

    name: str
    text: str
    op: str
    kind: str
    effect: Effect
    problem: Check | None = None
    ap: int = 1
    min_tp: int = 2
    max_tp: int = 4
    family: str = ""
    idle: Check | None = None
    bare: bool = False

    def _marker(self, w: Work, a: Action) -> str:
        arg = a.text[len(self.text) :].strip()
        return next((m for m in marker_names(w) if m.lower() == arg), "")

    def _why(self, w: Work, o: OperativeState, marker: str) -> str | None:
        if not operative_controls(w, o, marker):
            return f"{o.id} must control objective marker {marker} to perform {self.name} (4.8)"
        return None if self.problem is None else self.problem(w, o, marker)

    def idle_reason(self, w: Work, o: OperativeState, marker: str) -> str | None:
        """Why performing the action on ``marker`` (``""``: naming none) would change
        nothing though legal, or ``None`` when it has an effect."""
        if not marker:
            return f"{o.id} controls no objective marker it would have an effect on ({self.op})"
        return None if self.idle is None else self.idle(w, o, marker)

    def _bare_marker(self, w: Work, o: OperativeState) -> str:
        """The marker a bare action acts on: the first ``o`` controls that is not idle."""
        return next(
            (
                m
                for m in marker_names(w)
                if self._why(w, o, m) is None and self.idle_reason(w, o, m) is None
            ),
            "",
        )

    def offered(self, w: Work, o: OperativeState) -> bool:
        """False when :meth:`options` is empty whatever the AP (:func:`offered`)."""
        return offered(w, o, self.op, self.kind, self.min_tp, self.max_tp)

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> <name> <marker>`` for each marker it may perform the action on now
        with an effect (an idle one is legal but not offered)."""
        if common_problem(w, o, self.name, self.op, self.kind, self.min_tp, self.max_tp):
            return []
        return [
            Action("Act", op=o.id, text=f"{self.text} {m.lower()}")
            for m in marker_names(w)
            if self._why(w, o, m) is None and self.idle_reason(w, o, m) is None
        ]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` is not allowed now (naming the rule), or ``None``."""
        why = common_problem(w, o, self.name, self.op, self.kind, self.min_tp, self.max_tp)
        if why is not None:
            return why
        if a.target or a.point is not None:
            return f"{self.name} names an objective marker: 'Act {o.id} {self.text} <marker>'"
        if self.bare and a.text == self.text:
            return None if self.problem is None else self.problem(w, o, "")
        marker = self._marker(w, a)
        if not marker:
            names = ", ".join(m.lower() for m in marker_names(w))
            return f"{self.name} names an objective marker after it ({names})"
        return self._why(w, o, marker)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Carry out the action on the named marker (a bare one on
        :meth:`_bare_marker`); an idle action only records that it was performed."""
        marker = self._bare_marker(w, o) if a.text == self.text else self._marker(w, a)
        w.emit("mission_action", op=o.id, action=self.name, marker=marker, mission_op=self.op)
        if self.idle_reason(w, o, marker) is None:
            self.effect(w, o, marker)
