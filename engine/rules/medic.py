"""Medic! and the Medikit's 2D3 heal: rules more than one team prints for its medic, in the
same words but for its own keyword (our words; the team modules name the keywords).

- :class:`Medic` (an ability): the first time in a turning point that another friendly
  operative of the team would be incapacitated while visible to and within 3" of the
  medic (neither within control range of an enemy operative; the medic not incapacitated,
  and not a target of the Shoot in progress), its player may use the rule (``Use medic!``
  or ``Decline``): the operative is not incapacitated, has 1 wound left and cannot be
  incapacitated for the rest of that action. Both get APL -1 until the end of their next
  activations; used in that operative's own activation, the activation ends after the
  action (its AP is set to 0). After that action (``action_ended``) it may perform a free
  Dash that must end within the medic's control range (``would_refuse_destination``).
  Trigger: the core's ``would_be_incapacitated`` hook keeps it at 1 wound while its player
  chooses (a :class:`~engine.rules.choices.RuleChoiceFrame` pushed once the damage's
  procedure has finished its changes, ``Work.defer_frame``); declined, it is incapacitated
  then (``universal.incapacitate``). Limits: once per turning point (a player token, taken
  only when used); :meth:`Medic.saved` tells the team's Medikit which operative it cannot
  select this turning point.
- :func:`heal_2d3` / :func:`heal_roll`: a unique action's "regains up to 2D3 lost wounds"
  (a team-rule roll of 2D6, each D6 halved, rounded up; the ``wounds_regained`` event).
- :class:`Medikit` (a unique action): the medic heals a wounded friend within its control
  range (itself included) by up to 2D3, never one its team's Medic! saved this turning point;
  a team's instance names its AP, its medic, the friends it may select and its roll.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from engine.advice.values import heal_value
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.choices import RuleChoiceFrame, RuleRollFrame, on_choice, on_roll
from engine.rules.ploys import GainToken, player_token, shoot_frame
from engine.rules.unique_actions import SelectingAction

__all__ = ["Medic", "Medikit", "heal_2d3", "heal_roll"]


def _current_action(w: Work) -> str:
    """Who acts and which of its actions is in progress: the top-most activation frame's
    operative, mode and action count (``""`` outside any)."""
    from engine.game.universal import ActivationFrame

    for f in reversed(w.stack):
        if isinstance(f, ActivationFrame):
            return f"{f.op}/{f.mode}/{f.actions}"
    return ""


def _own_activation(w: Work, op: str) -> bool:
    """``op``'s own activation is the top-most activation frame."""
    from engine.game.universal import ActivationFrame

    for f in reversed(w.stack):
        if isinstance(f, ActivationFrame):
            return bool(f.op == op and f.mode == "activation")
    return False


@attrs.frozen
class Medic:
    """Medic! (module docstring) for one team.

    Attributes:
        prefix: the team's prefix of the rule's token names (``"kasrkin"``:
            ``kasrkin_medic_used``, ``_saved``, ``_dash``, ``_dashing``, ``_pending``).
        keyword: the medic's keyword (``"COMBAT MEDIC"``).
        member: whether an operative is one of the team's that the rule covers (the medic
            too).
        event: the event emitted when it is used (narrated: ``<medic>: Medic! <op> stays in
            the fight (1W)``).
        inches: the distance from the medic.
    """

    prefix: str
    keyword: str
    member: Callable[[Work, str], bool]
    event: str = "medic_used"
    inches: float = 3.0

    def __attrs_post_init__(self) -> None:
        on_choice(self.pending, self._chosen)
        add_template(self.event, _used_text)

    @property
    def used(self) -> str:
        """The player token: Medic! was used this turning point."""
        return f"{self.prefix}_medic_used"

    @property
    def saved_prefix(self) -> str:
        """The token detail prefix of an operative Medic! was used on this turning point."""
        return f"{self.prefix}_medic_saved"

    @property
    def pending(self) -> str:
        """The token detail prefix (on the operative) while its player chooses whether
        Medic! saves it (``<prefix>_medic_pending:<action>``); the choice's key."""
        return f"{self.prefix}_medic_pending"

    @property
    def dash(self) -> str:
        return f"{self.prefix}_medic_dash"

    @property
    def dashing(self) -> str:
        return f"{self.prefix}_medic_dashing"

    def saved(self, w: Work, op: str) -> bool:
        """Medic! was used on ``op`` this turning point."""
        return any(e.op == op and e.detail.startswith(self.saved_prefix) for e in w.effects)

    def medic_for(self, w: Work, op: str) -> str:
        """The friendly medic that may use Medic! on ``op`` now (module docstring), or
        ``""``."""
        player = w.ctx.owner[op]
        if not self.member(w, op) or player_token(w, player, self.used):
            return ""
        friend = w.op(op)
        if w.in_enemy_control_range(friend):
            return ""
        there = w.place(friend)
        f = shoot_frame(w)
        for m in w.alive(player):
            if m.id == op or self.keyword not in w.ctx.datacards[m.id].keywords:
                continue
            if not self.member(w, m.id) or w.in_enemy_control_range(m):
                continue
            if f is not None and m.id in f.targets:
                continue  # a primary or secondary target of the Shoot in progress
            me = w.place(m)
            if w.distance(me, there) <= self.inches + 1e-6 and w.ctx.visible(w.kz, me, there):
                return m.id
        return ""

    def _is_pending(self, w: Work, op: str) -> bool:
        return any(e.op == op and e.detail.startswith(self.pending) for e in w.effects)

    def _chosen(self, w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
        """Medic! used (the operative saved) or declined (it is incapacitated now, as the
        damage that would have incapacitated it said)."""
        op = frame.op
        w.effects = [e for e in w.effects if not (e.op == op and e.detail.startswith(self.pending))]
        if not chosen:
            from engine.game import universal

            universal.incapacitate(w, op, str(frame.get("by")))
            return
        medic, now, player = str(frame.get("medic")), str(frame.get("now")), frame.player
        GainToken(self.used, "end_tp").apply(w, player, "", "Medic!")
        w.add_effect(
            Effect("token", op, "end_tp", source=medic, detail=f"{self.saved_prefix}:{now}")
        )
        for who in (medic, op):
            w.add_effect(Effect("apl", who, "end_next_activation", source=medic, value=-1))
        if frame.get("own"):
            w.set_op(op, ap=0)
        w.add_effect(Effect("token", op, "end_tp", source=medic, detail=self.dash))
        w.emit(self.event, op=op, medic=medic, player=player)

    def install(self, hooks: Hooks, players: tuple[str, ...]) -> None:
        """Medic! for ``players`` (module docstring)."""
        saved, pending, dash, dashing = self.saved_prefix, self.pending, self.dash, self.dashing

        def save(w: Work, falls: bool, **info: Any) -> bool:
            op = str(info.get("op", ""))
            if not falls or w.ctx.owner.get(op) not in players:
                return falls
            now = _current_action(w)
            # (w.effects: a token begun during this action is still pending, 2.1)
            if any(e.op == op and e.detail == f"{saved}:{now}" for e in w.effects):
                w.set_op(op, wounds=1)
                return False
            if self._is_pending(w, op):
                w.set_op(op, wounds=1)  # more damage before its player chose: still undecided
                return False
            medic = self.medic_for(w, op)
            if not medic:
                return falls
            w.set_op(op, wounds=1)
            w.effects.append(Effect("token", op, "end_tp", source=medic, detail=f"{pending}:{now}"))
            w.defer_frame(
                RuleChoiceFrame(
                    player=w.ctx.owner[op],
                    rule="Medic!",
                    key=pending,
                    op=op,
                    candidates=(),
                    data=(
                        ("medic", medic),
                        ("now", now),
                        ("by", str(info.get("by", ""))),
                        ("own", _own_activation(w, op)),
                    ),
                    targeted=False,
                )
            )
            return False

        def after_action(w: Work, ev: Event) -> None:
            # After that action: the saved operative may Dash for free, ending within the
            # medic's control range.
            if not w.effects:
                return
            for e in w.effects:
                if e.detail == dash and e.kind == "token":
                    w.effects = [x for x in w.effects if x is not e]
                    moving = Effect("token", e.op, "end_tp", source=e.source, detail=dashing)
                    if w.op(e.op).alive and w.op(e.source).alive:
                        w.add_effect(moving)
                        from engine.game import universal

                        universal.start_free_action(w, e.op, ("Dash",))
                    return

        def dash_ended(w: Work, ev: Event) -> None:
            if w.effects and any(e.detail == dashing for e in w.effects):
                w.effects = [e for e in w.effects if e.detail != dashing]

        def near_medic(w: Work, why: str | None, **info: Any) -> str | None:
            op = str(info.get("op", ""))
            if why or not w.effects:
                return why
            medic = next((e.source for e in w.effects if e.op == op and e.detail == dashing), "")
            if not medic:
                return why
            x, y, z = info["point"]
            there = w.ctx.placement(op, x, y, z)
            if not w.ctx.control_range(w.kz, there, w.place(w.op(medic))):
                return f"{op}'s free Dash (Medic!) must end within {medic}'s control range"
            return why

        hooks.transform("would_be_incapacitated", save)
        hooks.on("action_ended", after_action)
        hooks.on("free_action_ended", dash_ended)
        hooks.transform("would_refuse_destination", near_medic)


def _used_text(e: Event) -> str:
    return f"  {e['medic']}: Medic! {e['op']} stays in the fight (1W)"


# -- Regaining up to 2D3 wounds ------------------------------------------------------------------


def heal_roll(w: Work, o: OperativeState, rule: str, key: str, target: str) -> None:
    """``o``'s rule ``rule`` (a unique action) makes ``target`` regain up to 2D3 lost
    wounds: push the team-rule roll of 2D6 with handler ``key`` (registered with
    :func:`heal_2d3`)."""
    w.stack.append(
        RuleRollFrame(
            player=o.player,
            rule=rule,
            key=key,
            op=o.id,
            dice=2,
            label=f"{rule} 2D3 ({target})",
            data=(("target", target),),
        )
    )


def _healed(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    """The target regains 2D3 wounds, never above its Wounds stat."""
    target = str(frame.get("target"))
    t = w.op(target)
    most = w.ctx.datacards[target].wounds
    regained = min(most - t.wounds, sum((v + 1) // 2 for v in values))
    if t.alive and regained > 0:
        w.set_op(target, wounds=t.wounds + regained)
    w.emit("wounds_regained", op=target, by=frame.op, rule=frame.rule, wounds=regained)


def heal_2d3(key: str) -> None:
    """Register the 2D3 heal's roll handler for ``key`` (:func:`heal_roll`)."""
    on_roll(key, _healed)


def _regained_text(e: Event) -> str:
    """``"  KAS-2 regains 3 wounds (Medikit, KAS-1)"``."""
    n = e["wounds"]
    return f"  {e['op']} regains {n} wound{'' if n == 1 else 's'} ({e['rule']}, {e['by']})"


add_template("wounds_regained", _regained_text)


OpTest = Callable[[Work, str], bool]
"""``test(w, operative id) -> bool``."""


@attrs.frozen(slots=True, kw_only=True)
class Medikit(SelectingAction):
    """Medikit (a unique action printed by several teams for their medic; a
    :class:`engine.game.rule_actions.RuleActionLike`): one friendly operative of the kind the
    team names (``patient``), within the medic's control range, regains up to 2D3 lost
    wounds (:func:`heal_roll`, the team's ``roll`` key registered with :func:`heal_2d3`); not
    one the team's Medic! was used on this turning point (``saved``, :meth:`Medic.saved`).
    One that has lost no wounds may be selected (no printed condition forbids it): nothing
    is rolled or regained, and it is not offered (:meth:`idle_target`). The medic itself may
    be selected (the rule says "friendly", not "other friendly": an operative is within and
    visible to itself, 4.1, 4.3). Not while the medic is within control range of an enemy
    operative. Notation ``Act <medic> medikit on <friend>``.

    Attributes:
        ap: its AP cost (Kasrkin Combat Medic 0AP, Pathfinder Medical Technician 1AP).
        roll: the key of its 2D3 roll (unique per team).
        medic: whether an operative performs it (its datacard keyword).
        medic_name: the medic as the refusal names it (``"a Combat Medic"``).
        patient: whether a friendly operative is of the kind it may select (a team keyword).
        patients: the friends it may select as the refusal names them (``"a friendly
            KASRKIN operative"``).
        saved: whether the team's Medic! was used on an operative this turning point.

    Its ``repr`` is a team's own Medikit's (name, text, AP, family): the team's parameters
    are left out (a function's repr names its address, which differs between processes).
    """

    name: str = "Medikit"
    text: str = "medikit"
    ap: int
    family: str = ""
    roll: str = attrs.field(repr=False)
    medic: OpTest = attrs.field(repr=False)
    medic_name: str = attrs.field(repr=False)
    patient: OpTest = attrs.field(repr=False)
    patients: str = attrs.field(repr=False)
    saved: OpTest = attrs.field(repr=False)

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """Friendly operatives of the team's kind in its control range (itself too), not
        saved by Medic! this turning point."""
        return [
            f.id
            for f in w.alive(o.player)
            if self.patient(w, f.id)
            and (f.id == o.id or w.control_range(o, f))
            and not self.saved(w, f.id)
        ]

    def idle_target(self, w: Work, o: OperativeState, target: str) -> str | None:
        """An operative that has lost no wounds regains none."""
        if w.op(target).wounds >= w.ctx.datacards[target].wounds:
            return f"{target} has lost no wounds (Medikit)"
        return None

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects."""
        return (
            f"Medikit selects {self.patients} within {o.id}'s control range, not one Medic! "
            "was used on this turning point"
        )

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """Only the team's medic performs it."""
        if not self.medic(w, o.id):
            return f"{o.id} is not {self.medic_name}: only it performs Medikit"
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """The wounds expected back (2D3, 4 on average, at most those lost) valued as
        wounds dealt are (:func:`engine.advice.values.heal_value`)."""
        return heal_value(w, a.target)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Roll the 2D3 (:func:`heal_roll`); nothing for an operative that lost no wounds."""
        if self.idle_target(w, o, a.target) is None:
            heal_roll(w, o, self.name, self.roll, a.target)
