"""Crit op **Orb** (``rules/KT24.md`` 8.3, Approved Ops 2025).

- *The Orb token* is on the centre objective marker at the start of the battle.
- *Move Orb* (mission action, 1AP; not in the first turning point nor within control range
  of an enemy operative): the active operative must control the objective marker that has
  the Orb token. From the centre marker the token moves to either player's objective marker
  (the performing player's choice); from a player's marker it moves back to the centre
  marker. Notation: the destination marker after the action's name,
  ``Act KAS-1 move orb a`` / ``Act KAS-1 move orb b`` from the centre, ``Act KAS-1 move
  orb centre`` from a player's marker (marker names in lower case).
- *Scoring*, at the end of each turning point after the first: 1VP for each objective
  marker your operatives control that does not have the Orb token (with three markers, at
  most 2VP a turning point; the pack prints no other cap).

A layout without a centre marker has no Orb token to move (nothing is offered) and every
controlled marker scores.

Facts: ``"Orb:token"`` = the name of the marker that has the Orb token.
"""

from __future__ import annotations

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.missions.actions import common_problem, offered
from engine.missions.markers import (
    CENTRE,
    controlled_by,
    marker_names,
    operative_controls,
    player_marker,
)
from engine.missions.pack import OpSpec, crit_active, register
from engine.missions.scoring import CRIT, fact, initiative_first, score, set_fact

__all__ = ["MOVE_ORB", "NAME", "MoveOrb", "destinations", "orb_marker"]

NAME = "Orb"
_TOKEN = f"{NAME}:token"


def orb_marker(w: Work) -> str:
    """The name of the objective marker that has the Orb token (the centre one until it is
    moved)."""
    return str(fact(w, _TOKEN, CENTRE))


def destinations(w: Work) -> list[str]:
    """Where Move Orb may move the token now: both players' objective markers (layout order)
    from the centre, the centre marker from a player's marker."""
    names = marker_names(w)
    if orb_marker(w) == CENTRE:
        mine = {player_marker(w, "A"), player_marker(w, "B")} - {""}
        return [m for m in names if m in mine]
    return [CENTRE] if CENTRE in names else []


@attrs.frozen(slots=True)
class MoveOrb:
    """The Move Orb mission action (module docstring), a
    :class:`engine.game.rule_actions.RuleActionLike` naming its destination marker."""

    name: str = "Move Orb"
    text: str = "move orb"
    ap: int = 1
    family: str = ""

    def _problem(self, w: Work, o: OperativeState) -> str | None:
        why = common_problem(w, o, self.name, NAME, CRIT)
        if why is not None:
            return why
        orb = orb_marker(w)
        if orb not in marker_names(w) or not operative_controls(w, o, orb):
            return (
                f"{o.id} must control objective marker {orb}, which has the Orb token, to "
                f"perform {self.name} (Orb)"
            )
        return None

    def _destination(self, w: Work, a: Action) -> str:
        arg = a.text[len(self.text) :].strip()
        return next((m for m in marker_names(w) if m.lower() == arg), "")

    def offered(self, w: Work, o: OperativeState) -> bool:
        """False when :meth:`options` is empty whatever the AP
        (:func:`engine.missions.actions.offered`)."""
        return offered(w, o, NAME, CRIT)

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> move orb <destination>`` for each destination, when ``o`` may move the
        Orb token now."""
        if self._problem(w, o) is not None:
            return []
        return [Action("Act", op=o.id, text=f"{self.text} {m.lower()}") for m in destinations(w)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` is not allowed now (naming the rule), or ``None``."""
        why = self._problem(w, o)
        if why is not None:
            return why
        allowed = destinations(w)
        where = ", ".join(m.lower() for m in allowed)
        if a.target or a.point is not None:
            return (
                f"{self.name} names the marker the Orb token moves to: "
                f"'Act {o.id} {self.text} <{where}>'"
            )
        if self._destination(w, a) not in allowed:
            return (
                f"the Orb token on objective marker {orb_marker(w)} can move to {where} "
                f"('Act {o.id} {self.text} <marker>', Orb)"
            )
        return None

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Move the Orb token to the named marker."""
        origin, dest = orb_marker(w), self._destination(w, a)
        w.emit("mission_action", op=o.id, action=self.name, marker=origin, mission_op=NAME)
        set_fact(w, _TOKEN, dest)
        w.emit("orb_moved", player=o.player, op=o.id, origin=origin, marker=dest)


MOVE_ORB = MoveOrb()
"""The Move Orb mission action."""


def _chosen(w: Work, ev: Event) -> None:
    if ev["op"] == NAME and CENTRE in marker_names(w):
        set_fact(w, _TOKEN, CENTRE)


def _score(w: Work, ev: Event) -> None:
    if not crit_active(w, NAME) or w.tp < 2:
        return
    orb = orb_marker(w)
    for p in initiative_first(w):
        free = [m for m in controlled_by(w, p) if m != orb]
        if free:
            score(w, p, CRIT, len(free), f"Orb: controls {', '.join(free)} (no Orb token)")


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the Orb token's start on the centre marker, the Move Orb action and the
    end-of-turning-point scoring."""
    hooks.on("crit_op_chosen", _chosen)
    hooks.action(MOVE_ORB, players)
    hooks.on("turning_point_ending", _score)


add_template(
    "orb_moved",
    lambda e: f"  {e['op']} moves the Orb token from {e['origin']} to {e['marker']}",
)

SPEC = register(
    OpSpec(
        NAME,
        CRIT,
        install,
        summary="Move the Orb token between the centre and the players' markers; score for "
        "each marker you control without it.",
    )
)
