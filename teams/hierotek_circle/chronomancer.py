"""The Chronomancer's unique actions (Hierotek Circle; registered by rule id in
``engine.rules.registry``): Chronometron, Countertemporal Nanomine, Timesplinter. What the
cryptek actions share (cost, endings, who performs them, notation):
:mod:`teams.hierotek_circle.crypteks`."""

from __future__ import annotations

import math
from typing import Any

import attrs

from engine.game import universal
from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.deployment import check_deployment
from engine.game.state import Effect, OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.rules.equipment.markers import marker_placement, support_distance
from engine.rules.ploys import GainToken
from engine.rules.registry import register
from teams.hierotek_circle.common import has_kw, visible_within
from teams.hierotek_circle.crypteks import (
    CHRONOMANCER,
    CryptekAction,
    install_endings,
    marker_at,
    near_marker,
    performer_reason,
    point_reason,
    ranged_enemies_seeing,
    visible_points,
)

_EPS = 1e-6


# -- Chronometron -------------------------------------------------------------------------------

CHRONOMETRON = "hierotek_chronometron"  # on the selected operative; source the performer
CHRONO_REACH = 6.0


@attrs.frozen(slots=True)
class Chronometron(CryptekAction):
    """Chronometron (Chronomancer, 1AP, SUPPORT): select a friendly HIEROTEK CIRCLE
    operative visible to and within 6" of this operative (itself included); until the
    start of this operative's next activation, its incapacitation or the next Chronometron
    of a friendly operative, operatives shooting the selected one have 1 less Atk on their
    weapons (the ``would_change_attacks`` hook, with the target). The distance is a
    SUPPORT distance (Comms Device, Cortical Control)."""

    name: str = "Chronometron"
    text: str = "chronometron"
    keyword: str = CHRONOMANCER
    kind: str = CHRONOMETRON

    def _candidates(self, w: Work, o: OperativeState) -> list[str]:
        reach = support_distance(w, o.id, CHRONO_REACH)
        out = [o.id] if has_kw(w, o.id) else []
        out += [f.id for f in w.friends_of(o.id) if has_kw(w, f.id)]
        out = [op for op in out if op == o.id or visible_within(w, o.id, op, reach)]
        return sorted(out, key=lambda i: w.ctx.index[i])

    def listed(self, w: Work, o: OperativeState) -> list[Action]:
        return [Action("Act", op=o.id, text=self.text, target=t) for t in self._candidates(w, o)]

    def check_args(self, w: Work, o: OperativeState, a: Action) -> str | None:
        if a.target not in self._candidates(w, o):
            return (
                f"Chronometron selects a friendly HIEROTEK CIRCLE operative visible to and "
                f"within 6\" of {o.id} ('Act {o.id} chronometron on <operative>')"
            )
        return None

    def effect(self, w: Work, o: OperativeState, a: Action) -> None:
        w.effects.append(Effect(CHRONOMETRON, a.target, "end_battle", source=o.id, detail=o.player))

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: 0.03 operatives per ready enemy operative that can see the
        selected operative (one attack die fewer against it)."""
        return 0.03 * ranged_enemies_seeing(w, a.target) if a.target else 0.0


def install_chronometron(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Chronometron (class docstring)."""

    def fewer(w: Work, atk: int, **info: Any) -> int:
        target = str(info.get("target", ""))
        if info.get("kind") != "ranged" or not target or not w.effects:
            return atk
        if any(e.kind == CHRONOMETRON and e.op == target for e in w.effects):
            return max(1, atk - 1)
        return atk

    hooks.action(Chronometron(), players)
    hooks.transform("would_change_attacks", fewer)
    install_endings(hooks, CHRONOMETRON)


# -- Countertemporal Nanomine ---------------------------------------------------------------

NANOMINE = "hierotek_nanomine"
NANOMINE_REACH = 4.0
NANOMINE_MOVE = -2.0


@attrs.frozen(slots=True)
class CountertemporalNanomine(CryptekAction):
    """Countertemporal Nanomine (Chronomancer, 1AP): place the player's Countertemporal
    Nanomine marker visible to this operative (a point whose marker it can see), or on
    Vantage terrain (at that level's height) of a terrain feature visible to it; enemy
    operatives within 4" of it have 2" less Move (never below 4", 2.1). Removed when this
    operative is next activated, incapacitated, or the action is performed again. Listed
    options: the positions of the enemy operatives visible to it (any allowed point is
    accepted)."""

    name: str = "Countertemporal Nanomine"
    text: str = "countertemporal nanomine"
    keyword: str = CHRONOMANCER
    kind: str = NANOMINE

    def listed(self, w: Work, o: OperativeState) -> list[Action]:
        pts = [(e.x, e.y, e.elevation) for e in w.enemies_of(o.id)]
        return [Action("Act", op=o.id, text=self.text, point=p) for p in visible_points(w, o, pts)]

    def check_args(self, w: Work, o: OperativeState, a: Action) -> str | None:
        return point_reason(w, o, a, self.name)

    def effect(self, w: Work, o: OperativeState, a: Action) -> None:
        assert a.point is not None
        w.tokens.append(marker_at(NANOMINE, o.player, a.point))
        w.effects.append(Effect(f"{NANOMINE}_by", o.id, "end_battle", source=o.id, detail=o.player))

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: 0.04 operatives per ready enemy operative within 4" of the point
        (2" less movement in its activation)."""
        if a.point is None:
            return 0.0
        m = marker_placement(Token("probe", o.player, "", *a.point))
        near = [e for e in w.enemies_of(o.id) if e.ready and w.distance(w.place(e), m) <= 4.0]
        return 0.04 * len(near)


def install_nanomine(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Countertemporal Nanomine (class docstring)."""

    def slower(w: Work, change: float, **info: Any) -> float:
        if not w.tokens:
            return change
        o = w.op(str(info["op"]))
        if w.ctx.owner[o.id] in players or not o.alive:
            return change
        return change + NANOMINE_MOVE if near_marker(w, o, NANOMINE, NANOMINE_REACH) else change

    hooks.action(CountertemporalNanomine(), players)
    hooks.transform("would_change_move", slower)
    install_endings(hooks, NANOMINE)


# -- Timesplinter -----------------------------------------------------------------------------

TIMESPLINTER = "hierotek_timesplinter"
SPLINTERED = "hierotek_timesplintered"  # token on an operative selected this turning point
SPLINTER_REACH = 5.0
_RING = 8


@attrs.frozen(slots=True)
class Timesplinter(CryptekAction):
    """Timesplinter (Chronomancer, 1AP, SUPPORT): select an expended friendly HIEROTEK
    CIRCLE operative visible to and within 5" of this operative (a SUPPORT distance); remove
    it and set it up again visible to and within 5" of this operative, measured
    horizontally only (the printed 5": a Comms Device changes only the first distance),
    where it can be placed. Each operative once per turning point; not in the first
    turning point; once per turning point for the player. Listed options: points on a 4"
    ring around this operative where the operative can be placed (any legal point is
    accepted)."""

    name: str = "Timesplinter"
    text: str = "timesplinter"
    keyword: str = CHRONOMANCER
    kind: str = TIMESPLINTER

    def reason(self, w: Work, o: OperativeState) -> str | None:
        why = performer_reason(w, o, self.keyword, self.name)
        if why is not None:
            return why
        if w.tp <= 1:
            return "Timesplinter cannot be performed during the first turning point"
        if any(
            e.kind == "token" and e.detail == TIMESPLINTER and e.player == o.player
            for e in w.effects
        ):
            return f"{o.player} already performed Timesplinter this turning point"
        return None

    def _targets(self, w: Work, o: OperativeState) -> list[str]:
        reach = support_distance(w, o.id, SPLINTER_REACH)
        out = []
        for f in w.friends_of(o.id):
            if not has_kw(w, f.id) or f.ready:
                continue
            if any(e.detail == SPLINTERED for e in w.effects_on(f.id, "token")):
                continue
            if visible_within(w, o.id, f.id, reach):
                out.append(f.id)
        return sorted(out, key=lambda i: w.ctx.index[i])

    def _spot_reason(
        self, w: Work, o: OperativeState, op: str, point: tuple[float, float, float]
    ) -> str | None:
        x, y, z = point
        # The horizontal distance between the bases' closest points.
        p = w.ctx.placement(op, x, y, z)
        gap = math.hypot(x - o.x, y - o.y) - p.radius - w.place(o).radius
        if gap > SPLINTER_REACH + _EPS:
            return f'Timesplinter: {op} must be set up within 5" of {o.id} (horizontally)'
        f = w.op(op)
        w.set_op(op, placed=False)
        try:
            check_deployment(w, w.op(op), point, drop_zone=False)
        except IllegalActionError as exc:
            return str(exc)
        finally:
            w.set_op(op, placed=f.placed)
        p = w.ctx.placement(op, x, y, z)
        if not w.ctx.visible(w.kz, w.place(o), p):
            return f"Timesplinter: {op} must be set up visible to {o.id}"
        return None

    def listed(self, w: Work, o: OperativeState) -> list[Action]:
        out = []
        for t in self._targets(w, o):
            for k in range(_RING):
                ang = 2 * math.pi * k / _RING
                p = (round(o.x + 4 * math.cos(ang), 2), round(o.y + 4 * math.sin(ang), 2), 0.0)
                if self._spot_reason(w, o, t, p) is None:
                    out.append(Action("Act", op=o.id, text=self.text, target=t, point=p))
        return out

    def check_args(self, w: Work, o: OperativeState, a: Action) -> str | None:
        if a.target not in self._targets(w, o):
            return (
                f"Timesplinter selects an expended friendly HIEROTEK CIRCLE operative visible "
                f'to and within 5" of {o.id}, once per turning point each'
            )
        if a.point is None:
            return (
                "Timesplinter sets the operative up at a point: "
                f"'Act {o.id} timesplinter at x,y on {a.target}'"
            )
        return self._spot_reason(w, o, a.target, a.point)

    def effect(self, w: Work, o: OperativeState, a: Action) -> None:
        assert a.point is not None
        x, y, z = a.point
        p = w.ctx.placement(a.target, x, y, z)
        w.set_op(a.target, x=p.x, y=p.y, elevation=p.elevation)
        universal.carry_along(w, a.target)
        w.emit("operative_set_up", op=a.target)
        GainToken(TIMESPLINTER, "end_tp").apply(w, o.player, "", o.id)
        GainToken(SPLINTERED, "end_tp").apply(w, o.player, a.target, o.id)

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: 0.1 operatives when the operative is visible to a ready enemy
        operative where it stands and to none at the new point (out of harm's way)."""
        if not a.target or a.point is None:
            return 0.0
        x, y, z = a.point
        new = w.ctx.placement(a.target, x, y, z)
        old = w.place(w.op(a.target))
        ready = [e for e in w.enemies_of(o.id) if e.ready]
        seen_now = any(w.ctx.visible(w.kz, w.place(e), old) for e in ready)
        seen_then = any(w.ctx.visible(w.kz, w.place(e), new) for e in ready)
        return 0.1 if seen_now and not seen_then else 0.0


def install_timesplinter(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Timesplinter (class docstring)."""
    hooks.action(Timesplinter(), players)


register(
    "hierotek_circle/unique_action/chronometron",
    install_chronometron,
    'Chronomancer (1AP, SUPPORT): a friendly operative within 6" is shot with 1 less Atk '
    "until the Chronomancer's next activation.",
)
register(
    "hierotek_circle/unique_action/countertemporal_nanomine",
    install_nanomine,
    'Chronomancer (1AP): a visible marker; enemies within 4" of it have 2" less Move.',
)
register(
    "hierotek_circle/unique_action/timesplinter",
    install_timesplinter,
    'Chronomancer (1AP, SUPPORT): an expended friendly operative within 5" is set up again '
    'within 5"; once per TP, not in TP1.',
)
