"""The Psychomancer's unique actions (Hierotek Circle; registered by rule id in
``engine.rules.registry``): Harbinger Of Despair, Nightmare Shroud, Vision Of Madness. What
the cryptek actions share (cost, endings, who performs them, notation):
:mod:`teams.hierotek_circle.crypteks`."""

from __future__ import annotations

from typing import Any

import attrs

from engine.dice.rules import WeaponRules
from engine.game import rule_actions, universal
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.rules.choices import RuleChoiceFrame, RuleRollFrame, on_choice, on_roll
from engine.rules.equipment.markers import marker_placement
from engine.rules.registry import register
from teams.hierotek_circle.crypteks import (
    PICK_UP,
    PSYCHOMANCER,
    CryptekAction,
    install_endings,
    marker_at,
    near_marker,
    point_reason,
    visible_points,
)

_EPS = 1e-6


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
        return [Action("Act", op=o.id, text=self.text, point=p) for p in visible_points(w, o, pts)]

    def check_args(self, w: Work, o: OperativeState, a: Action) -> str | None:
        return point_reason(w, o, a, self.name)

    def effect(self, w: Work, o: OperativeState, a: Action) -> None:
        assert a.point is not None
        w.tokens.append(marker_at(DESPAIR, o.player, a.point))
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
        if not w.tokens or not universal.is_marker(info.get("what")):
            return total  # (control of a marker: not a flank)
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
    # Last: after any rule of the opponent's team that gives its weapon one of these rules
    # (a mark's Severe, a ploy's Balanced...), whichever seat that team plays.
    hooks.transform("would_use_weapon_rules", strip, last=True)
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
