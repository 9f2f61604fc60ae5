"""The KT21 Firefight phase as a frame (``rules/KT21.md`` 2.3, 3, 5).

Players alternate turns from the initiative player. In its turn a player with a ready
operative activates one (``Activate KAS-1 engage``): its order is determined, then it
generates AP equal to its APL (:func:`engine.game.universal.activation.start_activation`: AP
are generated after the order and later APL changes in the activation do not change them,
DC 1.5, digest 16.7).

- Orders (3.1 step 2, 5): in the first turning point an operative keeps the order it was
  set up with, unless its player chose Infiltrate at scouting and has not used it (1.2 step
  9: once in TP1, as it activates one operative, the order may change); from the second
  turning point either order may be chosen.
- Group Activation (3.2): after an operative whose GA is more than 1, the same player
  activates another ready operative of the same operative type (its datacard's name), until
  GA operatives of that group have been activated or none of that type is ready.
- Two in a row at most (3.4, decision 2): a player never activates more than two operatives
  before the opponent has had a turn (an activation, an Overwatch or a pass in an Overwatch
  turn). A group that would make a third activation in a row waits for the opponent's turn
  and then goes on (reading: the cap wins, "whatever rules allow successive activations",
  and cuts no activation the group is owed).
- Overwatch turns (3.3, 3.5, decision 5): when a player with no ready operatives would have
  its turn while the opponent has some, it may pick one of its operatives with an Engage
  order, not within Engagement Range of an enemy, that has not overwatched this turning
  point and has a shot to make (``Act KAS-1 overwatch``), which then makes the Overwatch
  action (:data:`engine.rules.kt21.attack_actions.OVERWATCH`: one shooting attack with BS
  worsened by 1, ``Overwatch KAS-1 lasgun at LEG-2``) as a free action it must perform: not
  an activation (digest 16.30), so it neither counts towards two in a row nor continues a
  group; or it passes. When no operative may overwatch, the turn is a pass.

The phase ends when no operative on the killzone is ready.
"""

from __future__ import annotations

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.bookkeeping import order_refusal, own_operative
from engine.game.flow import activation_refused, expect
from engine.game.state import OperativeState, other
from engine.game.universal.activation import start_activation, start_free_action
from engine.game.work import Work
from engine.rules.kt21 import attack_actions, roles

__all__ = [
    "MAX_IN_A_ROW",
    "OVERWATCHED",
    "FirefightFrame",
    "orders_allowed",
    "overwatch_eligible",
]

MAX_IN_A_ROW = 2
"""A player never activates more than two operatives in a row (3.4)."""

OVERWATCHED = "overwatched"
"""The effect kind (until the end of the turning point) on an operative that has
overwatched this turning point (3.5: at most once per turning point)."""


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


def orders_allowed(w: Work, o: OperativeState) -> tuple[str, ...]:
    """The orders ``o`` may be given as it activates now (3.1 step 2; module docstring):
    its own in the first turning point unless its player may still use Infiltrate, else
    either; less those a rule refuses (``would_refuse_order``)."""
    if w.tp <= 1 and not roles.infiltrate_left(w, o.player):
        orders: tuple[str, ...] = (o.order,)
    else:
        orders = ("conceal", "engage")
    return tuple(order for order in orders if order_refusal(w, o, order) is None)


def overwatch_eligible(w: Work, player: str) -> list[str]:
    """The operatives of ``player`` that may overwatch now (3.5): Engage order, not within
    Engagement Range of an enemy, not overwatched this turning point, and with at least one
    Overwatch shot (a usable profile at a valid target,
    :func:`engine.rules.kt21.attack_actions.overwatch_options`)."""
    return [
        o.id
        for o in w.alive(player)
        if o.order == "engage"
        and not w.in_enemy_control_range(o)
        and not any(e.kind == OVERWATCHED for e in w.effects_on(o.id, OVERWATCHED))
        and attack_actions.overwatch_options(w, o)
    ]


@attrs.frozen(slots=True)
class FirefightFrame:
    """The Firefight phase (module docstring).

    Attributes:
        turn: the player whose turn is next (when no group is owed an activation).
        streak_player, streak: the player who had the last turn and how many operatives it
            has activated in a row since the opponent's last turn (0 after an Overwatch or a
            pass).
        group_player, group_type, group_left: a Group Activation under way: the player,
            the operative type and how many more activations the group is owed.
    """

    turn: str
    streak_player: str = ""
    streak: int = 0
    group_player: str = ""
    group_type: str = ""
    group_left: int = 0

    # -- whose turn ----------------------------------------------------------------------

    def _group_ops(self, w: Work) -> list[OperativeState]:
        if not self.group_left:
            return []
        return [
            o
            for o in w.alive(self.group_player)
            if o.ready and w.ctx.datacards[o.id].name == self.group_type
        ]

    def _capped(self, player: str) -> bool:
        return self.streak_player == player and self.streak >= MAX_IN_A_ROW

    def _now(self, w: Work) -> tuple[str, str]:
        """``(player, kind)``: who decides now and how: ``"group"`` (an activation the group
        is owed), ``"activate"``, ``"overwatch"`` (an Overwatch turn) or ``"over"``."""
        ready = {p: any(o.ready for o in w.alive(p)) for p in ("A", "B")}
        if not ready["A"] and not ready["B"]:
            return "", "over"
        group = self._group_ops(w)
        player = self.turn
        if group and not self._capped(self.group_player):
            return self.group_player, "group"
        if group:  # the cap: the opponent's turn first (3.4)
            player = other(self.group_player)
        elif ready[player] and self._capped(player):
            player = other(player)
        if ready[player]:
            return player, "activate"
        return player, "overwatch"

    # -- frame ---------------------------------------------------------------------------

    def run(self, w: Work) -> None:
        player, kind = self._now(w)
        if kind == "over":
            w.stack.pop()
            return
        if self.group_left and not self._group_ops(w):
            w.replace_top(group_player="", group_type="", group_left=0)
        if kind == "overwatch" and not self._overwatch_options(w, player):
            w.emit("passed", player=player, step="overwatch")
            self._turn_taken(w, player, activated=False)
            return
        w.decide(player, "overwatch" if kind == "overwatch" else "activate")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise _illegal("no dice here")

    def _overwatch_options(self, w: Work, player: str) -> list[Action]:
        return [Action("Act", op=i, text="overwatch") for i in overwatch_eligible(w, player)]

    def _activation_options(self, w: Work, player: str, kind: str) -> list[Action]:
        group = {o.id for o in self._group_ops(w)} if kind == "group" else None
        return [
            Action("Activate", op=o.id, text=order)
            for o in w.alive(player)
            if o.ready and (group is None or o.id in group) and activation_refused(w, o.id) is None
            for order in orders_allowed(w, o)
        ]

    def options(self, w: Work) -> list[Action]:
        player, kind = self._now(w)
        if kind == "over":
            return []
        if kind == "overwatch":
            return [Action("Pass"), *self._overwatch_options(w, player)]
        return self._activation_options(w, player, kind)

    def _turn_taken(self, w: Work, player: str, *, activated: bool) -> None:
        """``player`` took its turn: the other player's turn is next (a group owed more
        activations goes first unless capped); the streak counts activations in a row."""
        streak = 0
        if activated:
            streak = self.streak + 1 if self.streak_player == player else 1
        w.replace_top(turn=other(player), streak_player=player, streak=streak)

    def act(self, w: Work, a: Action) -> None:
        player, kind = self._now(w)
        if kind == "overwatch":
            self._act_overwatch(w, player, a)
            return
        if kind == "over":  # pragma: no cover - no decision then
            raise _illegal("the Firefight phase is over")
        expect(a, ("Activate",), f"{player}'s activation (rules/KT21.md 3.1)")
        o = own_operative(w, a.op, player)
        if not o.ready:
            raise _illegal(
                f"{o.id} has been activated: only ready operatives activate (rules/KT21.md 3.1)"
            )
        if kind == "group" and w.ctx.datacards[o.id].name != self.group_type:
            raise _illegal(
                f"{o.id} is not a {self.group_type}: a Group Activation goes on with another "
                "ready operative of the same type (rules/KT21.md 3.2)"
            )
        why = activation_refused(w, o.id)
        if why is not None:
            raise _illegal(why)
        if a.text not in orders_allowed(w, o):
            if a.text in ("engage", "conceal") and w.tp <= 1:
                raise _illegal(
                    f"{o.id} keeps its {o.order} order in the first turning point (rules/KT21.md "
                    "3.1 step 2; Infiltrate changes one order once)"
                )
            raise _illegal(f"{o.id} cannot be given the order {a.text!r} now (rules/KT21.md 5)")
        if w.tp <= 1 and a.text != o.order:
            w.count(player, roles.INFILTRATE_KEY, -1)
            w.emit("rule_used", player=player, rule="Scouting: infiltrate", trigger="activation")
        ga = w.ctx.datacards[o.id].group_activation
        if kind == "group":
            left = self.group_left - 1
            w.replace_top(group_left=left, group_player=player if left else "")
            if not left:
                w.replace_top(group_type="")
        elif ga > 1:
            w.replace_top(
                group_player=player, group_type=w.ctx.datacards[o.id].name, group_left=ga - 1
            )
        else:
            w.replace_top(group_player="", group_type="", group_left=0)
        self._turn_taken(w, player, activated=True)
        if "would_hold_activation" in w.ctx.hooks.would:
            held = w.would("would_hold_activation", None, op=o.id, order=a.text)
            if held is not None:
                w.stack.append(held)
                return
        start_activation(w, o, a.text)

    def _act_overwatch(self, w: Work, player: str, a: Action) -> None:
        expect(a, ("Pass", "Act"), f"{player}'s Overwatch turn (rules/KT21.md 3.3, 3.5)")
        if a.verb == "Pass":
            w.emit("passed", player=player, step="overwatch")
            self._turn_taken(w, player, activated=False)
            return
        if a not in self._overwatch_options(w, player):
            own_operative(w, a.op, player)
            raise _illegal(
                f"{a.op} cannot overwatch: it needs an Engage order, no enemy within its "
                "Engagement Range, not to have overwatched this turning point and a valid "
                "target for a weapon usable in an Overwatch (rules/KT21.md 3.5)"
            )
        self._turn_taken(w, player, activated=False)
        # The shot marks it overwatched (until the end of the TP) as it is declared.
        start_free_action(w, a.op, (attack_actions.OVERWATCH.verb,), compulsory=True)
