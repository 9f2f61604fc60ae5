"""The Chronomancer's and the Psychomancer's unique actions (Hierotek Circle), registered by
rule id (``engine.rules.registry``): Chronometron, Countertemporal Nanomine, Timesplinter,
Harbinger Of Despair, Nightmare Shroud, Vision Of Madness.

Common to them (the datacards): 1AP; not while the operative is within control range of an
enemy operative. An effect "until the start of this operative's next activation, until it
is incapacitated or until this action is performed again by a friendly operative" is an
effect whose ``source`` is the performer, removed at its next ``activated`` event, when it
is incapacitated, or when a friendly operative performs the action again; the markers of
Countertemporal Nanomine and Harbinger Of Despair are removed the same way.

Who performs them: the operative with the cryptek's keyword (CHRONOMANCER, PSYCHOMANCER),
and a friendly APPRENTEK when that cryptek is in its kill team (the Apprentek Assistance
reading played here: at most one of these CRYPTEK unique actions per turning point for the
Apprentek; the ability's own rule id belongs to the abilities module).

Notation: ``Act <op> chronometron on <friendly>``, ``Act <op> countertemporal nanomine at
x,y[,z]``, ``Act <op> timesplinter at x,y[,z] on <friendly>``, ``Act <op> harbinger of
despair at x,y[,z]``, ``Act <op> nightmare shroud``.
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from engine.dice.rules import WeaponRules
from engine.game import rule_actions, universal
from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.deployment import check_deployment
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.rules.choices import RuleChoiceFrame, RuleRollFrame, on_choice, on_roll
from engine.rules.equipment.markers import marker_placement, support_distance
from engine.rules.ploys import GainToken
from engine.rules.registry import register
from teams.hierotek_circle.ploys import has_kw, visible_within

CHRONOMANCER = "CHRONOMANCER"
PSYCHOMANCER = "PSYCHOMANCER"
APPRENTEK_USED = "hierotek_apprentek_cryptek_action"  # op token: one per turning point
PICK_UP = "Pick up"
_EPS = 1e-6


def _owns_cryptek(w: Work, player: str, keyword: str) -> bool:
    return any(
        w.ctx.owner[i] == player and keyword in w.ctx.datacards[i].keywords for i in w.ctx.ids
    )


def performer_reason(w: Work, o: OperativeState, keyword: str, name: str) -> str | None:
    """Why ``o`` cannot perform the ``keyword`` cryptek's unique action ``name`` now
    (module docstring), or ``None``."""
    if has_kw(w, o.id, keyword):
        pass
    elif has_kw(w, o.id, "APPRENTEK") and _owns_cryptek(w, o.player, keyword):
        if any(e.detail == APPRENTEK_USED for e in w.effects_on(o.id, "token")):
            return (
                f"{o.id} already performed a CRYPTEK unique action this turning point "
                "(Apprentek Assistance)"
            )
    else:
        return f"{o.id} cannot perform {name}: a {keyword.title()} action"
    if w.in_enemy_control_range(o):
        return f"{o.id} is within control range of an enemy operative ({name})"
    return None


def _performed(w: Work, o: OperativeState, kind: str) -> None:
    """Note the performance: the Apprentek's once-per-turning-point limit; end the effects
    and markers of the previous performance of the action (by any friendly operative)."""
    if not has_kw(w, o.id, CHRONOMANCER) and not has_kw(w, o.id, PSYCHOMANCER):
        GainToken(APPRENTEK_USED, "end_tp").apply(w, o.player, o.id, o.id)
    end_effects(w, kind, o.player)
    w.effects = [e for e in w.effects if not (e.kind == f"{kind}_by" and e.detail == o.player)]


def end_effects(w: Work, kind: str, player: str, source: str = "") -> None:
    """Remove ``player``'s effects of ``kind`` (those begun by ``source`` only, when given)
    and the tokens of that kind."""
    w.effects = [
        e
        for e in w.effects
        if not (e.kind == kind and e.detail == player and (not source or e.source == source))
    ]
    if w.tokens:
        w.tokens = [
            t
            for t in w.tokens
            if not (
                isinstance(t, Token)
                and t.kind == kind
                and t.owner == player
                and (not source or (t.carrier == "" and _token_source(w, t) == source))
            )
        ]


def _token_source(w: Work, t: Token) -> str:
    """The operative whose action placed the marker ``t`` (an effect ``<kind>_by``)."""
    for e in w.effects:
        if e.kind == f"{t.kind}_by" and e.detail == t.owner:
            return e.source
    return ""


def install_endings(hooks: Hooks, kind: str) -> None:
    """End the effects and markers of ``kind`` at the start of their performer's next
    activation and when it is incapacitated (module docstring)."""

    def ended(w: Work, ev: Event) -> None:
        op = ev["op"]
        if not any(e.source == op and e.kind in (kind, f"{kind}_by") for e in w.effects):
            return
        player = w.ctx.owner[op]
        end_effects(w, kind, player, op)
        w.effects = [e for e in w.effects if not (e.kind == f"{kind}_by" and e.source == op)]

    hooks.on("activated", ended)
    hooks.on("operative_incapacitated", ended)


@attrs.frozen(slots=True)
class CryptekAction:
    """Base of the crypteks' unique actions (module docstring)."""

    name: str = ""
    text: str = ""
    keyword: str = ""
    kind: str = ""
    ap: int = 1
    family: str = ""

    def reason(self, w: Work, o: OperativeState) -> str | None:
        return performer_reason(w, o, self.keyword, self.name)

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        if self.reason(w, o) is not None:
            return []
        return self.listed(w, o)

    def listed(self, w: Work, o: OperativeState) -> list[Action]:
        return [Action("Act", op=o.id, text=self.text)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        return self.reason(w, o) or self.check_args(w, o, a)

    def check_args(self, w: Work, o: OperativeState, a: Action) -> str | None:
        return None

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        _performed(w, o, self.kind)
        self.effect(w, o, a)
        w.emit("team_rule_used", op=o.id, rule=self.name, on=a.target or "")

    def effect(self, w: Work, o: OperativeState, a: Action) -> None:  # pragma: no cover
        raise NotImplementedError


def _ranged_enemies_seeing(w: Work, op: str) -> int:
    """Ready enemy operatives to which ``op`` is visible."""
    there = w.place(w.op(op))
    return sum(1 for e in w.enemies_of(op) if e.ready and w.ctx.visible(w.kz, w.place(e), there))


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
        return 0.03 * _ranged_enemies_seeing(w, a.target) if a.target else 0.0


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


def _marker_at(kind: str, player: str, point: tuple[float, float, float]) -> Token:
    x, y, z = point
    return Token(kind, player, f"{player} {kind.removeprefix('hierotek_')}", x, y, z)


def _point_reason(w: Work, o: OperativeState, a: Action, name: str) -> str | None:
    if a.point is None or a.target:
        return f"{name} places a marker at a point: 'Act {o.id} {name.lower()} at x,y'"
    x, y, z = a.point
    if not (0 <= x <= w.kz.width and 0 <= y <= w.kz.depth):
        return f"{name}: the marker must be on the killzone"
    m = marker_placement(Token("probe", o.player, "", x, y, z))
    part = w.kz.standing_part(m) if z > 0 else None
    if z > 0 and part is None:
        return f"{name}: a marker above the killzone floor must be on Vantage terrain"
    if w.ctx.visible(w.kz, w.place(o), m):
        return None
    # Or on Vantage terrain of a terrain feature visible to the operative (the point itself
    # need not be): the feature seen as the smoke grenade's rule sees it (7.2).
    from engine.rules.equipment.grenades import _feature_visible

    if part is not None and _feature_visible(w, w.place(o), part):
        return None
    return (
        f"{name}: the marker must be placed visible to {o.id} or on Vantage terrain of a "
        "terrain feature visible to it"
    )


def _visible_points(
    w: Work, o: OperativeState, points: list[tuple[float, float, float]]
) -> list[tuple[float, float, float]]:
    out: list[tuple[float, float, float]] = []
    here = w.place(o)
    for p in points:
        m = marker_placement(Token("probe", o.player, "", *p))
        if w.ctx.visible(w.kz, here, m) and p not in out:
            out.append(p)
    return out


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
        return [Action("Act", op=o.id, text=self.text, point=p) for p in _visible_points(w, o, pts)]

    def check_args(self, w: Work, o: OperativeState, a: Action) -> str | None:
        return _point_reason(w, o, a, self.name)

    def effect(self, w: Work, o: OperativeState, a: Action) -> None:
        assert a.point is not None
        w.tokens.append(_marker_at(NANOMINE, o.player, a.point))
        w.effects.append(Effect(f"{NANOMINE}_by", o.id, "end_battle", source=o.id, detail=o.player))

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: 0.04 operatives per ready enemy operative within 4" of the point
        (2" less movement in its activation)."""
        if a.point is None:
            return 0.0
        m = marker_placement(Token("probe", o.player, "", *a.point))
        near = [e for e in w.enemies_of(o.id) if e.ready and w.distance(w.place(e), m) <= 4.0]
        return 0.04 * len(near)


def near_marker(w: Work, o: OperativeState, kind: str, reach: float) -> bool:
    """``o`` is within ``reach`` of a marker of ``kind`` of an enemy player."""
    here = w.place(o)
    return any(
        isinstance(t, Token)
        and t.kind == kind
        and t.owner != o.player
        and w.distance(here, marker_placement(t)) <= reach + _EPS
        for t in w.tokens
    )


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


# -- Harbinger Of Despair -------------------------------------------------------------------

DESPAIR = "hierotek_despair"
DESPAIR_REACH = 2.0


@attrs.frozen(slots=True)
class HarbingerOfDespair(CryptekAction):
    """Harbinger Of Despair (Psychomancer, 1AP): place the player's Despair marker visible
    to this operative, or on Vantage terrain of a terrain feature visible to it. Enemy
    operatives within 2" of it pay 1AP more for Pick Up Marker and
    mission actions (``would_add_action_ap``); when control of a marker is determined, their
    player's total APL is 1 lower if one of its contesting operatives is within 2" of it
    (``would_control_totals``; not a change of APL). Removed when this operative is next
    activated, incapacitated or the action is performed again. Listed options: the
    objective markers visible to it and the positions of visible enemy operatives."""

    name: str = "Harbinger Of Despair"
    text: str = "harbinger of despair"
    keyword: str = PSYCHOMANCER
    kind: str = DESPAIR

    def listed(self, w: Work, o: OperativeState) -> list[Action]:
        pts = [(m.x, m.y, 0.0) for m in w.markers]
        pts += [(e.x, e.y, e.elevation) for e in w.enemies_of(o.id)]
        return [Action("Act", op=o.id, text=self.text, point=p) for p in _visible_points(w, o, pts)]

    def check_args(self, w: Work, o: OperativeState, a: Action) -> str | None:
        return _point_reason(w, o, a, self.name)

    def effect(self, w: Work, o: OperativeState, a: Action) -> None:
        assert a.point is not None
        w.tokens.append(_marker_at(DESPAIR, o.player, a.point))
        w.effects.append(Effect(f"{DESPAIR}_by", o.id, "end_battle", source=o.id, detail=o.player))

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: 0.1 operatives per objective marker within 3" of the point with an
        enemy operative within 6" of it (its control and pick-up hampered)."""
        if a.point is None:
            return 0.0
        here = marker_placement(Token("probe", o.player, "", *a.point))
        value = 0.0
        for m in w.markers:
            spot = marker_placement(Token("probe", o.player, "", m.x, m.y, 0.0))
            if w.distance(here, spot) > 3.0:
                continue
            if any(w.distance(w.place(e), spot) <= 6.0 for e in w.enemies_of(o.id)):
                value += 0.1
        return value


def install_harbinger(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Harbinger Of Despair (class docstring)."""

    def added(w: Work, extra: int, **info: Any) -> int:
        o = info["op"]
        if not w.tokens or w.ctx.owner[o.id] in players:
            return extra
        if not near_marker(w, o, DESPAIR, DESPAIR_REACH):
            return extra
        action = str(info.get("action", ""))
        if action != PICK_UP and not rule_actions.names_mission_action(w, o, action):
            return extra
        return extra + 1

    def totals(w: Work, total: dict[str, int], **info: Any) -> dict[str, int]:
        if not w.tokens:
            return total
        for player in ("A", "B"):
            if player in players:
                continue
            ops = [op for op in info["ops"] if w.ctx.owner[op] == player]
            if any(near_marker(w, w.op(op), DESPAIR, DESPAIR_REACH) for op in ops):
                total[player] -= 1
        return total

    hooks.action(HarbingerOfDespair(), players)
    hooks.transform("would_add_action_ap", added)
    hooks.transform("would_control_totals", totals)
    install_endings(hooks, DESPAIR)


# -- Nightmare Shroud -----------------------------------------------------------------------

SHROUD = "hierotek_nightmare_shroud"  # on the performer
SHROUD_REACH = 4.0
_STRIPPED = ("Balanced", "Ceaseless", "Relentless", "Lethal", "Rending", "Severe")


@attrs.frozen(slots=True)
class NightmareShroud(CryptekAction):
    """Nightmare Shroud (Psychomancer, 1AP): until the start of this operative's next
    activation, its incapacitation or the next Nightmare Shroud of a friendly operative,
    an enemy operative within 4" of it that is shooting, fighting or retaliating has no
    re-roll from its weapon rules (Balanced, Ceaseless, Relentless) and no rule retaining
    results below 6 as critical successes (Lethal, Rending, Severe): those rules are
    removed from its weapons; and its player cannot re-roll its attack dice with anything
    else either (Command Re-roll, Ammo Resupply, any re-rolling ploy or rule of its team:
    the core's ``would_refuse_reroll`` hook, asked for every source marked ``rerolls``).
    Limits: the enemy's attack dice only (its defence dice may be re-rolled); shooting,
    fighting and retaliating alike."""

    name: str = "Nightmare Shroud"
    text: str = "nightmare shroud"
    keyword: str = PSYCHOMANCER
    kind: str = SHROUD

    def effect(self, w: Work, o: OperativeState, a: Action) -> None:
        w.effects.append(Effect(SHROUD, o.id, "end_battle", source=o.id, detail=o.player))

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: 0.04 operatives per ready enemy operative within 6" of it (likely
        to attack from within 4"), 0.01 for every other ready enemy."""
        here = w.place(o)
        v = 0.0
        for e in w.enemies_of(o.id):
            if e.ready:
                v += 0.04 if w.distance(here, w.place(e)) <= 6.0 else 0.01
        return v


def install_nightmare_shroud(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Nightmare Shroud (class docstring)."""

    def strip(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
        op = str(info.get("op", ""))
        if not op or not w.effects or w.ctx.owner[op] in players:
            return rules
        shrouds = [e for e in w.effects if e.kind == SHROUD]
        if not shrouds:
            return rules
        here = w.place(w.op(op))
        if not any(
            w.op(e.op).alive and w.distance(here, w.place(w.op(e.op))) <= SHROUD_REACH + _EPS
            for e in shrouds
        ):
            return rules
        kept = tuple(r for r in rules if getattr(r, "name", "") not in _STRIPPED)
        return WeaponRules.of(kept) if len(kept) != len(tuple(rules)) else rules

    def refuse(w: Work, why: str | None, **info: Any) -> str | None:
        if why is not None or not w.effects or info.get("trigger") != "attack_dice":
            return why
        op = str(info.get("op", ""))
        if not op or op not in w.ctx.owner or w.ctx.owner[op] in players:
            return why
        if not shrouded(w, op):
            return why
        return (
            f"Nightmare Shroud: {info.get('player', '')} cannot re-roll {op}'s attack dice "
            f'({info.get("source", "")}) within 4" of the Psychomancer'
        )

    def shrouded(w: Work, op: str) -> bool:
        here = w.place(w.op(op))
        return any(
            e.kind == SHROUD
            and w.op(e.op).alive
            and w.distance(here, w.place(w.op(e.op))) <= SHROUD_REACH + _EPS
            for e in w.effects
        )

    hooks.action(NightmareShroud(), players)
    hooks.transform("would_use_weapon_rules", strip)
    hooks.transform("would_refuse_reroll", refuse)
    install_endings(hooks, SHROUD)


# -- Vision Of Madness ----------------------------------------------------------------------

MADNESS = "hierotek_madness"  # on the enemy operative; source the performer, detail its player
MADNESS_REFUSED = "hierotek_madness_refused"  # on the enemy: not activated this pick
MADNESS_KEY = "hierotek_vision_of_madness"
MADNESS_ROLL = "hierotek_vision_of_madness_roll"


@attrs.frozen(slots=True)
class VisionOfMadness(CryptekAction):
    """Vision Of Madness (Psychomancer, 1AP): select an enemy operative visible to this
    operative; until the start of this operative's next activation, its incapacitation or
    the next Vision Of Madness of a friendly operative, it has the player's Madness token.
    Whenever the opponent would activate it while another of their operatives could be
    activated instead, the player may roll one D6 (``Use vision of madness`` or
    ``Decline``): on a result equal to or higher than its APL, the opponent cannot activate
    it for this activation and picks another (the core's ``would_hold_activation`` and
    ``would_refuse_activation`` hooks). When it is activated, or no other of their
    operatives can be, its Madness token is removed."""

    name: str = "Vision Of Madness"
    text: str = "vision of madness"
    keyword: str = PSYCHOMANCER
    kind: str = MADNESS

    def _targets(self, w: Work, o: OperativeState) -> list[str]:
        here = w.place(o)
        out = [e.id for e in w.enemies_of(o.id) if w.ctx.visible(w.kz, here, w.place(e))]
        return sorted(out, key=lambda i: w.ctx.index[i])

    def listed(self, w: Work, o: OperativeState) -> list[Action]:
        return [Action("Act", op=o.id, text=self.text, target=t) for t in self._targets(w, o)]

    def check_args(self, w: Work, o: OperativeState, a: Action) -> str | None:
        if a.target not in self._targets(w, o):
            return f"Vision Of Madness selects an enemy operative visible to {o.id}"
        return None

    def effect(self, w: Work, o: OperativeState, a: Action) -> None:
        w.effects.append(Effect(MADNESS, a.target, "end_battle", source=o.id, detail=o.player))

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: 0.1 operatives on a ready enemy operative (its activation may be
        put off, the opponent's order of play upset), 0.02 on an expended one (it matters
        only next turning point, if the token lasts)."""
        if not a.target:
            return 0.0
        return 0.1 if w.op(a.target).ready else 0.02


def _others_ready(w: Work, op: str) -> bool:
    """Another operative of ``op``'s player could be activated instead."""
    from engine.game.flow import activation_refused

    player = w.ctx.owner[op]
    return any(
        o.id != op and o.ready and activation_refused(w, o.id) is None for o in w.alive(player)
    )


def _madness_of(w: Work, op: str) -> Effect | None:
    for e in w.effects:
        if e.kind == MADNESS and e.op == op:
            return e
    return None


def install_vision_of_madness(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Vision Of Madness (class docstring)."""

    def hold(w: Work, held: Any, **info: Any) -> Any:
        op = str(info["op"])
        e = _madness_of(w, op) if held is None and w.effects else None
        if e is None or e.detail not in players or w.ctx.owner[op] == e.detail:
            return held
        if not _others_ready(w, op):
            drop_madness(w, op)
            return held
        return RuleChoiceFrame(
            player=e.detail,
            rule="Vision Of Madness",
            key=MADNESS_KEY,
            op=op,
            candidates=(),
            data=(("order", str(info["order"])),),
            targeted=False,
        )

    def refused(w: Work, why: str | None, **info: Any) -> str | None:
        op = str(info["op"])
        if (
            why is None
            and w.effects
            and any(e.kind == MADNESS_REFUSED and e.op == op for e in w.effects)
        ):
            return f"{op} cannot be activated in this activation (Vision Of Madness)"
        return why

    def activated(w: Work, ev: Event) -> None:
        op = ev["op"]
        if not w.effects:
            return
        player = w.ctx.owner[op]
        w.effects = [
            e for e in w.effects if not (e.kind == MADNESS_REFUSED and w.ctx.owner[e.op] == player)
        ]
        drop_madness(w, op)

    hooks.action(VisionOfMadness(), players)
    hooks.transform("would_hold_activation", hold)
    hooks.transform("would_refuse_activation", refused)
    hooks.on("activated", activated)
    install_endings(hooks, MADNESS)


def drop_madness(w: Work, op: str) -> None:
    """Remove the Madness token of ``op``."""
    w.effects = [e for e in w.effects if not (e.kind == MADNESS and e.op == op)]


def _madness_chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:

    if not chosen:
        universal.start_activation(w, w.op(frame.op), frame.get("order"))
        return
    w.stack.append(
        RuleRollFrame(
            frame.player,
            "Vision Of Madness",
            MADNESS_ROLL,
            frame.op,
            1,
            "Vision Of Madness",
            data=frame.data,
        )
    )


def _madness_rolled(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    from engine.game.flow import FirefightFrame

    o = w.op(frame.op)
    if values[0] >= w.apl(o):
        w.effects.append(Effect(MADNESS_REFUSED, o.id, "end_tp", source=o.id))
        for i in range(len(w.stack) - 1, -1, -1):
            f = w.stack[i]
            if isinstance(f, FirefightFrame):
                w.stack[i] = attrs.evolve(f, turn=o.player)
                break
        w.emit("team_rule_used", op=o.id, rule="Vision Of Madness", on=o.id)
        return
    universal.start_activation(w, o, frame.get("order"))


on_choice(MADNESS_KEY, _madness_chosen)
on_roll(MADNESS_ROLL, _madness_rolled)


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
register(
    "hierotek_circle/unique_action/harbinger_of_despair",
    install_harbinger,
    'Psychomancer (1AP): a visible marker; enemies within 2" pay 1AP more for pick-up and '
    "mission actions and count 1 less APL for marker control.",
)
register(
    "hierotek_circle/unique_action/nightmare_shroud",
    install_nightmare_shroud,
    'Psychomancer (1AP): enemies within 4" of it attack without weapon re-rolls, Lethal, '
    "Rending or Severe.",
)
register(
    "hierotek_circle/unique_action/vision_of_madness",
    install_vision_of_madness,
    "Psychomancer (1AP): a visible enemy gains a Madness token; when it would be activated, "
    "a D6 of its APL or more makes its player activate another.",
)
