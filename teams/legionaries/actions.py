"""The Legionaries' unique actions (package docstring): Grisly Mark (Shrivetalon)."""

from __future__ import annotations

from typing import Any

import attrs

from engine.game import rule_actions, universal
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.state import OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.geometry import sight
from engine.rules.equipment.markers import marker_placement
from engine.rules.registry import register

SHRIVETALON = "SHRIVETALON"
GRISLY = "grisly"  # the token kind of a player's Grisly marker
GRISLY_REACH = 3.0
PICK_UP = "Pick up"
ADVICE_REACH = 4.0
ADVICE_ENEMY = 6.0
ADVICE_PER_MARKER = 0.1
_EPS = 1e-6


def grisly_marker(w: Work, player: str) -> Token | None:
    """``player``'s Grisly marker on the killzone, or None."""
    for t in w.tokens:
        if isinstance(t, Token) and t.kind == GRISLY and t.owner == player:
            return t
    return None


def near_grisly(w: Work, op: str) -> bool:
    """``op`` is within 3" of the Grisly marker of its enemy (any player but its own)."""
    if not w.tokens:
        return False
    o = w.op(op)
    here = w.place(o)
    return any(
        isinstance(t, Token)
        and t.kind == GRISLY
        and t.owner != o.player
        and w.distance(here, marker_placement(t)) <= GRISLY_REACH + _EPS
        for t in w.tokens
    )


@attrs.frozen(slots=True)
class GrislyMark:
    """Grisly Mark (Shrivetalon, 2AP; a :class:`engine.game.rule_actions.RuleActionLike`):
    its player's Grisly marker is placed within the operative's control range (moved there
    when already on the killzone: one per player). Not while within control range of an
    enemy operative. Notation ``Act <op> grisly mark at x,y``; the listed option places it
    where the operative stands (any point within its control range is accepted)."""

    name: str = "Grisly Mark"
    text: str = "grisly mark"
    ap: int = 2
    family: str = ""

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        if SHRIVETALON not in w.ctx.datacards[o.id].keywords:
            return f"{o.id} is not a Shrivetalon: only it performs Grisly Mark"
        if w.in_enemy_control_range(o):
            return f"{o.id} is within control range of an enemy operative (Grisly Mark)"
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> grisly mark at <its position>``."""
        if self._why_not(w, o) is not None:
            return []
        return [Action("Act", op=o.id, text=self.text, point=(o.x, o.y, o.elevation))]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        why = self._why_not(w, o)
        if why is not None:
            return why
        if a.target or a.point is None:
            return "Grisly Mark places a marker at a point: 'Act <operative> grisly mark at x,y'"
        x, y, z = a.point
        m = marker_placement(Token(GRISLY, o.player, "", x, y, z))
        if sight.distance(w.place(o), m) > sight.CONTROL_RANGE + _EPS:
            return f"the Grisly marker must be placed within {o.id}'s control range (1\")"
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: 0.1 operative per objective marker within 4" of the point (the
        marker's 3" reach and a contesting enemy's control range) that the player's Grisly
        marker does not already cover, with an enemy operative within 6" of that objective
        marker; nothing else."""
        if a.point is None:
            return 0.0
        x, y, z = a.point
        here = marker_placement(Token(GRISLY, o.player, "", x, y, z))
        old = grisly_marker(w, o.player)
        there = marker_placement(old) if old is not None else None
        value = 0.0
        for m in w.markers:
            spot = marker_placement(Token(GRISLY, o.player, "", m.x, m.y, 0.0))
            if sight.distance(here, spot) > ADVICE_REACH:
                continue
            if there is not None and sight.distance(there, spot) <= ADVICE_REACH:
                continue
            if any(sight.distance(w.place(e), spot) <= ADVICE_ENEMY for e in w.enemies_of(o.id)):
                value += ADVICE_PER_MARKER
        return value

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Place (or move) the player's Grisly marker."""
        assert a.point is not None
        x, y, z = a.point
        old = grisly_marker(w, o.player)
        w.tokens = [t for t in w.tokens if t is not old]
        name = f"{o.player} grisly"
        w.tokens.append(Token(GRISLY, o.player, name, x, y, z))
        w.emit("team_rule_used", op=o.id, rule=self.name, on=name)


GRISLY_MARK = GrislyMark()


def grisly_token(w: Work, owner: str, x: float, y: float, z: float, angle: int) -> Token:
    """``owner``'s Grisly marker at ``(x, y, z)`` inches, as Grisly Mark leaves it (a
    scenario position's ``tokens``, :meth:`engine.game.context.Hooks.token_maker`).

    Raises:
        ValueError: ``owner`` already has its Grisly marker on the killzone (one per player).
    """
    if grisly_marker(w, owner) is not None:
        raise ValueError(f"player {owner} already has its Grisly marker (one per player)")
    return Token(GRISLY, owner, f"{owner} grisly", x, y, z)


def install_grisly_mark(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Grisly Mark (class docstring) and the marker's effects on enemy operatives within 3"
    of it: +1AP for their Pick Up Marker and mission actions (the core's
    ``would_add_action_ap``), and when control of a marker is determined, their player's
    total APL is 1 lower if one of its contesting operatives is that near (the core's
    ``would_control_totals``; not a change of APL)."""

    def added(w: Work, extra: int, **info: Any) -> int:
        o = info["op"]
        if not w.tokens or not near_grisly(w, o.id):
            return extra
        action = str(info.get("action", ""))
        if action != PICK_UP and not rule_actions.names_mission_action(w, o, action):
            return extra
        return extra + 1

    def totals(w: Work, total: dict[str, int], **info: Any) -> dict[str, int]:
        if not w.tokens or not universal.is_marker(info.get("what")):
            return total  # (control of a marker: not a flank)
        for player in ("A", "B"):
            ops = [op for op in info["ops"] if w.ctx.owner[op] == player]
            if any(near_grisly(w, op) for op in ops):
                total[player] -= 1
        return total

    hooks.action(GRISLY_MARK, players)
    hooks.token_maker(GRISLY, grisly_token)
    hooks.transform("would_add_action_ap", added)
    hooks.transform("would_control_totals", totals)


register(
    "legionaries/unique_action/grisly_mark",
    install_grisly_mark,
    'Shrivetalon (2AP): place the Grisly marker; enemies within 3" of it pay 1AP more for '
    "marker and mission actions and count 1 less APL for marker control.",
)
