"""The KT21 Legionary Shrivetalon's **Grisly Mark** (``rules/KT21.md`` 6.2 unique actions,
15.1 objective control, 3.1 AP):

- **The action** (2AP, once per battle for the operative, not within Engagement Range of an
  enemy operative): its player puts its Grisly Mark token at a point within
  :data:`PLACE_RANGE` (1", ▲) of it (notation ``Act <op> grisly mark at x,y[,z]``; listed:
  its own spot and four spots just beyond its base; any legal point is accepted).
- **Mission actions and Pick Up**: an enemy operative within :data:`MARK_RANGE` (3", ■) of
  the token pays 1 more AP to perform a mission action or Pick Up (the core's
  ``would_add_action_ap``: such an action is then never free).
- **Objective control**: for an objective marker within 3" of the token, the enemy player's
  total APL counts one less (not a modifier of any operative: the ``would_control_totals``
  hook; never below 0).

Reading (``docs/rulings/kt21_teams.md``): the token is a point (distances are measured from
it to an operative's base or to the objective marker's 40mm edge).
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.markers import OBJECTIVE_MARKER
from engine.game.rule_actions import names_mission_action
from engine.game.state import Effect, OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.geometry import Placement
from engine.geometry.model import OBJECTIVE_DIAMETER_MM
from engine.rules.registry import register
from engine.rules.unique_actions import PointAction

__all__ = ["GRISLY_MARK", "KIND", "MARK_RANGE", "PLACE_RANGE", "GrislyMark", "install_grisly_mark"]

KIND = "kt21_grisly_mark"
"""The token kind of a Grisly Mark token (its name: ``"<operative> grisly mark"``)."""
PLACE_RANGE = 1.0
"""The token is put within this distance of the operative (inches, ▲)."""
MARK_RANGE = 3.0
"""The token's reach (inches, ■)."""
_USED = "kt21 grisly mark used"
_EPS = 1e-6


def _point(x: float, y: float, z: float) -> Placement:
    return Placement(x, y, base_mm=1.0, elevation=z, model_height=0.02)


def _marks(w: Work, players: tuple[str, ...]) -> list[Token]:
    return [t for t in w.tokens if t.kind == KIND and t.owner in players]


@attrs.frozen(slots=True)
class GrislyMark(PointAction):
    """Grisly Mark (module docstring; a :class:`engine.game.rule_actions.RuleActionLike`)."""

    name: str = "Grisly Mark"
    text: str = "grisly mark"
    ap: int = 2
    family: str = ""

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """Only an operative whose datacard has the action performs it."""
        if not any(a.name == self.name for a in w.ctx.datacards[o.id].actions):
            return f"{o.id} does not have the Grisly Mark action"
        return None

    def more_problem(self, w: Work, o: OperativeState, mode: str) -> str | None:
        """Once per battle for the operative."""
        if any(e.op == o.id and e.detail == _USED for e in w.effects):
            return f"{o.id} already placed its Grisly Mark: once per battle"
        return None

    def point_problem(self, w: Work, o: OperativeState, point: tuple[float, ...]) -> str | None:
        """Why the token cannot go at ``point`` (inches), or ``None``."""
        off = self.off_killzone(w, point)
        if off is not None:
            return off
        x, y, z = point
        if w.distance(w.place(o), _point(x, y, z)) > PLACE_RANGE + _EPS:
            return f'the Grisly Mark token goes within {PLACE_RANGE:g}" of {o.id} (Grisly Mark)'
        return None

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Put the token down; note the use."""
        assert a.point is not None
        x, y, z = a.point
        name = f"{o.id} grisly mark"
        w.tokens.append(Token(KIND, o.player, name, x, y, z))
        w.add_effect(Effect("token", o.id, "end_battle", source=o.id, detail=_USED))
        w.emit(
            "equipment_set_up", player=o.player, item="Grisly Mark", name=name, x=x, y=y, angle=0
        )

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: a tenth of an operative when an objective marker is within 3"."""
        if a.point is None:
            return 0.0
        spot = _point(*a.point)
        near = any(
            w.distance(spot, Placement(m.x, m.y, base_mm=OBJECTIVE_DIAMETER_MM)) <= MARK_RANGE
            for m in w.markers
        )
        return 0.1 if near else 0.0


GRISLY_MARK = GrislyMark()


def install_grisly_mark(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Grisly Mark (module docstring): the action and its two effects."""

    def more_ap(w: Work, ap: int, *, op: OperativeState, action: str, **_: Any) -> int:
        if op.player in players or not w.tokens:
            return ap
        if action.lower() != "pick up" and not names_mission_action(w, op, action):
            return ap
        here = w.place(op)
        for t in _marks(w, players):
            if w.distance(here, _point(t.x, t.y, t.elevation)) <= MARK_RANGE + _EPS:
                return ap + 1
        return ap

    def totals(w: Work, total: dict[str, int], *, marker: str, what: str, **_: Any) -> Any:
        if what != OBJECTIVE_MARKER or not w.tokens:
            return total
        m = next((m for m in w.markers if m.name == marker), None)
        if m is None:
            return total
        spot = Placement(m.x, m.y, base_mm=OBJECTIVE_DIAMETER_MM)
        out = dict(total)
        for t in _marks(w, players):
            if w.distance(spot, _point(t.x, t.y, t.elevation)) <= MARK_RANGE + _EPS:
                enemy = "B" if t.owner == "A" else "A"
                out[enemy] = max(0, out[enemy] - 1)
        return out

    hooks.action(GRISLY_MARK, players)
    hooks.transform("would_add_action_ap", more_ap)
    hooks.transform("would_control_totals", totals)


register(
    "kt21_legionaries/unique_action/grisly_mark",
    install_grisly_mark,
    'Shrivetalon, 2AP, once: its Grisly Mark token within 1"; enemies within 3" pay 1AP more '
    'for mission actions and Pick Up, and count 1 APL less for markers within 3".',
)
