"""Activations, counteractions and the universal actions (``rules/KT24.md`` 1.5, 1.6, 3.1,
3.2, 4.8; Close Quarters actions 9.3 live in :mod:`engine.game.closequarters`).

Each action has its AP cost, its conditions and its same-activation exclusions (3.2):

==============  ===  ======================================================================
Reposition      1    not within enemy control range; not with Fall Back or Charge
Dash            1    3"; not within enemy control range; not with Charge
Fall Back       2    only within enemy control range; not with Reposition or Charge
Charge          1    Move +2"; Engage; not within enemy control range; not with Reposition,
                     Dash or Fall Back
Shoot           1    Engage (or a Silent weapon); not within enemy control range
Fight           1    an enemy within control range
Pick Up Marker  1    a marker it controls that can be picked up (by the game option, or
                     as a rule allows: ``would_allow_pick_up``); not within enemy control
                     range; not already carrying a marker (unless a rule says otherwise:
                     ``would_count_carried``, :func:`counted_carried`)
Place Marker    1    carrying; not in the activation it picked the marker up; an operative
                     carrying several names the one it places
==============  ===  ======================================================================

Pick Up Marker also works on the markers rule modules offer (the mission markers of an op,
:func:`rule_markers`); a carrier that is removed puts down every marker it carries (2.3).
Every action at most once per activation (1.5). A counteraction (1.6) is one 1AP action for
free with at most 2" of movement; it is not an activation. Heavy
weapons (6): no Shoot after moving (except the move a ``Heavy (x only)`` allows) and no move
after using one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import attrs

from engine.dice.rules import Heavy, Limited, Range, Silent
from engine.game import ploys, rule_actions
from engine.game.actions import (
    MOVE_VERBS,
    Action,
    AmbiguousActionError,
    IllegalActionError,
)
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.geometry import Killzone, Objective, Placement, sight
from engine.geometry.model import MARKER_DIAMETER_MM
from engine.geometry.movement import (
    MoveError,
    MovePath,
    ReachMemo,
    max_move,
    move_graph,
    reachable_with_costs,
    shortest_path,
    straight_reach,
)
from engine.teams.model import Weapon, WeaponProfile

__all__ = [
    "ACTION_CUT",
    "ActivationFrame",
    "action_cut",
    "apl_controller",
    "carry_along",
    "counted_carried",
    "cut_action",
    "marker_level",
    "move_route",
    "own_operative",
    "place_marker",
    "route_distance",
    "rule_markers",
    "start_activation",
    "start_carrying",
    "start_counteract",
    "start_free_action",
]

COUNTERACT_MOVE = 2.0  # inches (1.6)
ACTION_COST = {
    "Reposition": 1,
    "Dash": 1,
    "Fall Back": 2,
    "Charge": 1,
    "Shoot": 1,
    "Fight": 1,
    "Pick up": 1,
    "Place marker": 1,
    "Operate hatch": 1,
    "Guard": 1,
    "Hatchway fight": 1,
}
# Actions "treated as" another for once-per-activation and Heavy (9.3).
ACTION_FAMILY = {"Guard": "Shoot", "Hatchway fight": "Fight"}
_MOVE_ACTION = {
    "Reposition": "reposition",
    "Dash": "dash",
    "Fall Back": "fall_back",
    "Charge": "charge",
}
_EXCLUDES = {  # 3.2: cannot be performed in the same activation as
    "Reposition": ("Fall Back", "Charge"),
    "Dash": ("Charge",),
    "Fall Back": ("Reposition", "Charge"),
    "Charge": ("Reposition", "Dash", "Fall Back"),
    "Pick up": ("Place marker",),
    "Place marker": ("Pick up",),
}


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


def own_operative(w: Work, op_id: str, player: str) -> OperativeState:
    """The operative ``op_id`` of ``player``, on the killzone or waiting to be set up.

    Raises:
        IllegalActionError: unknown id, another player's operative, or removed.
    """
    if op_id not in w.ctx.index:
        raise _illegal(f"there is no operative {op_id!r}")
    o = w.op(op_id)
    if o.player != player:
        raise _illegal(f"{op_id} belongs to {o.player}, not {player}")
    if o.incapacitated or (not o.placed and w.phase != "setup"):
        raise _illegal(f"{op_id} has been incapacitated and removed (2.3)")
    return o


def enemy_operative(w: Work, op_id: str, of: str) -> OperativeState:
    """An enemy of player ``of`` on the killzone (raises IllegalActionError otherwise)."""
    if op_id not in w.ctx.index:
        raise _illegal(f"there is no operative {op_id!r}")
    o = w.op(op_id)
    if o.player == of:
        raise _illegal(f"{op_id} is a friendly operative, not an enemy")
    if not o.alive:
        raise _illegal(f"{op_id} is not on the killzone")
    return o


# -------------------------------------------------------------------------------------------
# Activations and counteractions (1.5, 1.6)
# -------------------------------------------------------------------------------------------


def start_activation(w: Work, o: OperativeState, order: str) -> None:
    """Determine order and generate AP = APL now (1.5); "until the end of its next
    activation" effects now last until the end of this one."""
    if order not in ("engage", "conceal"):
        raise _illegal(f"the order must be engage or conceal, not {order!r}")
    why = order_refusal(w, o, order)
    if why is not None:
        raise _illegal(why)
    w.effects = [
        attrs.evolve(e, until="end_this_activation")
        if e.op == o.id and e.until == "end_next_activation"
        else e
        for e in w.effects
    ]
    guard_ends = o.order != order and o.on_guard
    if guard_ends:
        w.set_op(o.id, on_guard=False)
    ap = max(0, w.apl(o))
    w.set_op(o.id, order=order, ap=ap, done=(), moved=False, heavy_shot=False, heavy_only="")
    w.emit("activated", op=o.id, order=order, ap=ap)
    if guard_ends:
        w.emit("guard_ended", op=o.id, why="its order changed")
    w.stack.append(ActivationFrame(op=o.id, mode="activation"))
    ploys.open_window(w, "activation_start", op=o.id)


def start_counteract(w: Work, o: OperativeState) -> None:
    """One free 1AP action, at most 2" of movement; not an activation (1.6)."""
    w.set_op(o.id, ap=1, done=(), moved=False, heavy_shot=False, heavy_only="")
    w.emit("counteracted", op=o.id)
    w.stack.append(ActivationFrame(op=o.id, mode="counteract"))
    ploys.open_window(w, "counteract_start", op=o.id)


def start_free_action(
    w: Work,
    op: str,
    verbs: tuple[str, ...],
    max_move: float | None = None,
    compulsory: bool = False,
) -> None:
    """Let operative ``op`` perform one of ``verbs`` (universal verbs or rule action names)
    at once for 0AP, outside its activation (module docstring); a move is limited to
    ``max_move`` inches if given. ``compulsory``: it must be performed (the rest of an action
    a rule splits in two, e.g. a Charge that must end within an enemy's control range):
    ``End activation`` is neither offered nor allowed while one of ``verbs`` is listed
    (:func:`list_action_options`: a move to a point the listing does not have, legal or
    not, does not count; the rule granting it should check the listing has one). Emits
    ``free_action_granted``.

    Raises:
        IllegalActionError: ``op`` is not on the killzone.
    """
    o = w.op(op)
    if not o.alive:
        raise IllegalActionError(f"{op} is not on the killzone: it cannot act (3.1)")
    w.emit("free_action_granted", op=op, actions=verbs)
    w.stack.append(
        ActivationFrame(
            op=op,
            mode="free",
            allowed=tuple(verbs),
            max_move=max_move if max_move is not None else -1.0,
            saved_done=o.done,
            saved_ap=o.ap,
            compulsory=compulsory,
        )
    )
    w.set_op(op, done=())


@attrs.frozen(slots=True)
class ActivationFrame:
    """An activation, counteraction or On Guard interrupt in progress.

    Attributes:
        op: the active operative.
        mode: ``"activation"``, ``"counteract"`` (1.6), ``"interrupt"`` (9.3: one free
            Shoot or Fight) or ``"free"`` (one free action outside its activation, 3.1,
            :func:`start_free_action`).
        stage: ``"choose"`` (waiting for an action), ``"after"`` (an action just ended) or
            ``"ended"`` (its end settled, ``action_ended`` emitted).
        actions: actions completed in this frame.
        last: the verb of the last action (for the On Guard window).
        guard_window_used: an On Guard interrupt happened in this activation (9.3).
        allowed: in a free action, the verbs (or rule action names) it may perform;
            ``max_move`` the most it may move (inches; negative: no limit of its own);
            ``saved_done``/``saved_ap`` what its activation had done and had left, restored
            afterwards; ``compulsory``: it must be performed when it can be
            (:func:`start_free_action`).
        before: during an action, the effects on operatives as it began (the changes it
            made open the ``stat_changed`` windows as it ends).
    """

    op: str
    mode: str
    stage: str = "choose"
    actions: int = 0
    last: str = ""
    guard_window_used: bool = False
    allowed: tuple[str, ...] = ()
    max_move: float = -1.0
    saved_done: tuple[str, ...] = ()
    saved_ap: int = 0
    before: tuple[Effect, ...] = ()
    compulsory: bool = False

    @property
    def in_action(self) -> bool:
        """An action of this frame is in progress (2.1: stat changes wait for its end)."""
        return self.stage == "after"

    def run(self, w: Work) -> None:
        o = w.op(self.op)
        if self.stage == "ending":
            self._expend(w)
            return
        if self.stage == "after":
            w.settle_effects()
            if action_cut(w, self.op):
                w.effects = [e for e in w.effects if not (e.kind == ACTION_CUT and e.op == self.op)]
            watched = bool(w.ctx.hooks.ploys.get("stat_changed"))
            was = set(self.before)
            settled = sorted(
                {(e.op, e.kind) for e in w.effects if e.op and e.kind != "token" and e not in was}
                if watched
                else ()
            )
            remove_casualties(w)
            me = w.replace_top(stage="ended", before=())
            if w.ctx.hooks.did.get("action_ended"):
                # The action is complete: a rule acting "after that action" may push a
                # frame here (it runs first; this frame then resumes at "ended").
                w.emit("action_ended", op=self.op, mode=self.mode)
            for op, kind in settled:
                # Stat changes begun during the action apply now (2.1): the ``stat_changed``
                # ploy window for each operative with an effect (kind) the action began.
                if w.op(op).alive:
                    ploys.open_window(w, "stat_changed", op=op, stat=kind)
            if w.top is not me:
                return
        if w.top.stage == "ended":
            w.replace_top(stage="choose")
            if self.mode == "activation" and o.alive:
                from engine.game import closequarters

                if closequarters.guard_window(w, self):
                    return
            o = w.op(self.op)
        if not o.alive or (self.mode != "activation" and self.actions >= self._limit(w)):
            self.end(w)
            return
        if self.mode == "activation" and o.ap <= 0:
            self.end(w)  # every action costs at least 1AP here (1.5)
            return
        w.decide(
            o.player,
            "action"
            if self.mode == "activation"
            else f"{self.mode}_action"
            if self.mode == "free"
            else self.mode,
        )

    def _limit(self, w: Work) -> int:
        """How many actions a counteraction, interrupt or free action has: one, plus, in a
        counteraction, the value of the operative's ``"counteract_actions"`` effects (a rule
        that grants an additional action, each still different, 1.5)."""
        if self.mode != "counteract" or not w.effects:
            return 1
        return 1 + w.stat_change(self.op, "counteract_actions")

    def end(self, w: Work) -> None:
        """End the activation: the ``activation_end`` ploy window first (while it is still
        the active operative), then it is expended."""
        if self.mode == "activation" and ploys.window_wanted(w, "activation_end", {"op": self.op}):
            w.replace_top(stage="ending")
            ploys.open_window(w, "activation_end", op=self.op)
            return
        self._expend(w)

    def _expend(self, w: Work) -> None:
        o = w.op(self.op)
        w.stack.pop()
        if self.mode == "activation":
            w.set_op(o.id, ready=False, ap=0, done=(), moved=False, heavy_shot=False)
            w.effects = [
                e
                for e in w.effects
                if not (e.op == o.id and e.until == "end_this_activation")
                and not (e.until == "end_activation" and e.source == o.id)
            ]
            w.emit("activation_ended", op=o.id)
        elif self.mode == "counteract":
            # "Until the end of the activation" effects begun in it end with it (the
            # counteraction is the activity in progress; its own next activation is untouched).
            w.effects = [
                e for e in w.effects if not (e.until == "end_activation" and e.source == o.id)
            ]
            w.set_op(o.id, counteracted=True, ap=0, done=(), moved=False, heavy_shot=False)
            w.emit("activation_ended", op=o.id, counteract=True)
        elif self.mode == "free":
            w.set_op(o.id, done=self.saved_done, ap=self.saved_ap)
            w.emit("free_action_ended", op=o.id)
        else:
            w.set_op(o.id, interrupted=True, on_guard=False, done=(), moved=False)
            w.emit("activation_ended", op=o.id, interrupt=True)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise _illegal("no dice here")

    def options(self, w: Work) -> list[Action]:
        o = w.op(self.op)
        out = list_action_options(w, o, self.mode)
        if self.mode == "free":
            out = [a for a in out if _free_allowed(a, self.allowed)]
        if not self._must_act() or not out:  # an interrupt must Shoot or Fight if it can
            out.append(Action("End activation"))
        if self.mode == "activation" and w.ctx.hooks.ploys.get("during_activation"):
            out += ploys.ploy_options(w, o.player, "during_activation", {"op": o.id})
        return out

    def _free_options(self, w: Work, o: OperativeState) -> bool:
        """A free action of this frame's can be performed now."""
        return any(_free_allowed(x, self.allowed) for x in list_action_options(w, o, "free"))

    def _must_act(self) -> bool:
        """An interrupt (9.3) or a compulsory free action not yet performed."""
        return self.mode == "interrupt" or (self.compulsory and self.actions == 0)

    def act(self, w: Work, a: Action) -> None:
        o = w.op(self.op)
        if a.verb == "End activation":
            if self.mode == "interrupt" and has_action_options(w, o, self.mode):
                raise _illegal("an On Guard interrupt must perform its Shoot or Fight (9.3)")
            if self.compulsory and self.actions == 0 and self._free_options(w, o):
                raise _illegal(
                    f"{o.id} must perform the rest of its action: {' or '.join(self.allowed)}"
                )
            self.end(w)
            return
        if a.verb in ("Ploy", "Use") and self.mode == "activation":
            # A ploy (or a rule's free option, ``Use ...``) used between actions of the
            # activation ("during_activation"): not an action; the activation goes on.
            ploys.use_ploy(w, o.player, "during_activation", a, {"op": o.id})
            return
        if a.op and a.op != o.id:
            raise _illegal(f"{o.id} is the active operative, not {a.op}")
        if self.mode == "free" and not _free_allowed(a, self.allowed):
            raise _illegal(
                f"{a}: the free action granted to {o.id} is {' or '.join(self.allowed)} (3.1)"
            )
        if w.ctx.hooks.ploys.get("action_declared"):
            info = {"op": o.id, "mode": self.mode, "action": a.verb, "text": a.text}
            if ploys.window_wanted(w, "action_declared", info):
                # The ``action_declared`` window: the action is chosen and legal; a ploy used
                # now may make it illegal (DeclaredActionFrame checks it again after).
                why = _refusal(w, a)
                if why is not None:
                    raise _illegal(why)
                w.stack.append(DeclaredActionFrame(o.id, a))
                ploys.open_window(w, "action_declared", **info)
                return
        self.start(w, a)

    def start(self, w: Work, a: Action) -> None:
        """Begin the action ``a`` (this frame on top, its checks done by :func:`perform`)."""
        o = w.op(self.op)
        watched = bool(w.ctx.hooks.ploys.get("stat_changed"))  # (the stat_changed window)
        before = tuple(e for e in w.effects if e.op and e.kind != "token") if watched else ()
        w.replace_top(stage="after", actions=self.actions + 1, last=a.verb, before=before)
        perform(w, o, a, self.mode)


def _refusal(w: Work, a: Action) -> str | None:
    """Why the action ``a`` of the :class:`ActivationFrame` on top cannot begin now, or
    ``None``: it is tried on a copy (nothing applied here)."""
    from engine.game.state import Decision

    saved, w.node = w.node, Decision(w.op(w.top.op).player, "action")
    try:
        trial = Work(w.freeze())
    finally:
        w.node = saved
    try:
        trial.top.start(trial, a)
    except AmbiguousActionError:
        raise  # not a refusal: the action names several things (the caller's error)
    except (IllegalActionError, ValueError) as e:
        return str(e)
    return None


@attrs.frozen(slots=True)
class DeclaredActionFrame:
    """An action chosen by the operative of the :class:`ActivationFrame` below, waiting for
    the ``action_declared`` ploy window above to close (:mod:`engine.game.ploys`). Then it
    begins if it is still legal; otherwise it is refused (event ``action_refused``, nothing
    of it applied, no AP spent) and its player chooses again.

    Attributes:
        op: the acting operative. action: the action chosen.
    """

    op: str
    action: Action

    def run(self, w: Work) -> None:
        w.stack.pop()
        if not w.op(self.op).alive:
            return
        why = _refusal(w, self.action)
        if why is not None:
            w.emit("action_refused", op=self.op, action=str(self.action), why=why)
            return
        w.top.start(w, self.action)

    def options(self, w: Work) -> list[Action]:  # pragma: no cover
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover
        raise _illegal("no decision here")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise _illegal("no dice here")


# -------------------------------------------------------------------------------------------
# Conditions shared by the actions
# -------------------------------------------------------------------------------------------


def _family(verb: str) -> str:
    return ACTION_FAMILY.get(verb, verb)


def _free_name(a: Action) -> str:
    """The name a free action grant uses for ``a``: its verb, or a rule action's name."""
    return a.text if a.verb == "Act" else a.verb


def _free_allowed(a: Action, allowed: tuple[str, ...]) -> bool:
    """``a`` is one of the ``allowed`` free actions: its verb or rule action name, or a rule
    action with an argument (``Act KAS-1 secure centre`` for ``secure``)."""
    name = _free_name(a)
    return name in allowed or (a.verb == "Act" and any(name.startswith(x + " ") for x in allowed))


def _free_mode(mode: str) -> bool:
    return mode == "free"


def added_ap(w: Work, o: OperativeState, verb: str, target: str = "") -> int:
    """The AP a rule adds to ``o``'s action ``verb`` (a verb or rule action name) now, on
    ``target`` (the marker of a Pick Up Marker; ``""``: the action as such), through the
    ``would_add_action_ap`` hooks (``op``, ``action``, ``target``; from 0), never below 0.
    Such an action cannot be free and its AP cannot be reduced: it is not allowed where it
    would cost nothing (a counteraction, an interrupt, a free action outside an activation),
    and its cost ignores free-action effects and reductions (e.g. Pick Up Marker on an
    objective marker in the crit op Energy Cells, ``rules/KT24.md`` 8.3)."""
    if "would_add_action_ap" not in w.ctx.hooks.would:
        return 0
    return max(0, int(w.would("would_add_action_ap", 0, op=o, action=verb, target=target)))


def action_cost(
    w: Work,
    o: OperativeState,
    verb: str,
    ap: int,
    mode: str,
    target: str = "",
    paying: bool = False,
) -> int:
    """What ``o`` pays for an action of printed cost ``ap`` (its ``verb`` or rule action
    name): nothing in a counteraction, an interrupt or a free action outside its activation
    (1.6, 9.3, 3.1), nothing when an effect makes it free (3.1); otherwise the printed cost
    through the ``would_cost_action`` hooks (``op``, ``action``: the verb or rule action
    name; e.g. the Breaching Charge, 7.2), never below 0. AP a rule adds
    (:func:`added_ap`) come on top of the printed cost; that action is then never free and
    its cost never below the printed cost plus the added AP (on ``target``, as there).
    ``paying`` (passed to the hooks): the cost is being paid now (:func:`spend`), not only
    asked; a rule whose discount is used once may note its use then."""
    if mode != "activation":
        return 0
    extra = added_ap(w, o, verb, target)
    if not extra and w.effects and rule_actions.free_action_effect(w, o, verb):
        return 0
    if "would_cost_action" in w.ctx.hooks.would:
        hooked = max(0, int(w.would("would_cost_action", ap, op=o, action=verb, paying=paying)))
        return max(hooked, ap) + extra if extra else hooked
    return ap + extra


def _not_free(
    w: Work, o: OperativeState, verb: str, name: str, mode: str, target: str = ""
) -> str | None:
    """Why ``o`` cannot perform ``verb`` (on ``target``) in ``mode`` because a rule adds AP
    to it that cannot be free (:func:`added_ap`), or ``None``."""
    if mode == "activation":
        return None
    extra = added_ap(w, o, verb, target)
    if not extra:
        return None
    return f"{name} costs {extra}AP more now and cannot be free: only in an activation (3.1)"


def _added_ap_problem(w: Work, o: OperativeState, verb: str, mode: str, target: str) -> str | None:
    """Why ``o`` cannot perform the universal action ``verb`` on ``target`` because of AP a
    rule adds for that target (:func:`added_ap`): not free, and the AP to pay; or ``None``."""
    if "would_add_action_ap" not in w.ctx.hooks.would:
        return None
    why = _not_free(w, o, verb, verb, mode, target)
    if why is not None:
        return why
    due = action_cost(w, o, verb, ACTION_COST[verb], mode, target)
    if mode == "activation" and o.ap < due:
        return f"{verb} {target} costs {due}AP and {o.id} has {o.ap}AP left (1.5, 3.2)"
    return None


def rule_precheck(w: Work, o: OperativeState, act: Any, mode: str) -> str | None:
    """Why the rule action ``act`` (:class:`engine.game.rule_actions.RuleActionLike`) cannot
    be performed by ``o`` now as far as the bookkeeping goes (AP, once per activation, its
    family's exclusions; a counteraction is one 1AP action, an interrupt only Shoot or
    Fight), or ``None``; the action checks its own conditions."""
    if mode == "counteract" and act.ap != 1:
        return f"a counteraction is one 1AP action ({act.name} costs {act.ap}AP, 1.6)"
    if mode == "interrupt":
        return "an On Guard interrupt is one free Shoot or Fight (9.3)"
    why = _not_free(w, o, act.text, act.name, mode)
    if why is not None:
        return why
    cost = action_cost(w, o, act.text, act.ap, mode)
    if mode == "activation" and o.ap < cost:
        return f"{act.name} costs {cost}AP and {o.id} has {o.ap}AP left (1.5)"
    again = act.text in o.done and not _repeat_allowed(w, o, act.text, mode)
    if again or (act.family and any(_family(d) == act.family for d in o.done)):
        # (A rule may allow it again: the ``would_repeat_action`` hooks, ``action`` its name.)
        return f"{o.id} already performed {act.name} this activation: once per activation (1.5)"
    for ex in _EXCLUDES.get(act.family, ()):
        if ex in o.done:
            return f"{act.name} cannot be performed in the same activation as {ex} (3.2)"
    if w.ctx.hooks.would.get("would_refuse_action"):
        # A rule that forbids the action now (``action`` is its notation name here).
        refused: str | None = w.would(
            "would_refuse_action", None, op=o.id, action=act.text, rule_action=act
        )
        if refused:
            return refused
    return None


def _repeat_allowed(w: Work, o: OperativeState, fam: str, mode: str) -> bool:
    """A rule lets ``o`` perform the action ``fam`` again in this activation (the
    ``would_repeat_action`` hooks: ``op``, ``action``, ``mode``, ``done``; from False)."""
    if "would_repeat_action" not in w.ctx.hooks.would:
        return False
    return bool(w.would("would_repeat_action", False, op=o.id, action=fam, mode=mode, done=o.done))


def _charges_concealed(w: Work, o: OperativeState) -> bool:
    """A rule lets ``o`` Charge while it has a Conceal order (the ``would_charge_concealed``
    hooks: ``fn(w, False, op=) -> bool``)."""
    if "would_charge_concealed" not in w.ctx.hooks.would:
        return False
    return bool(w.would("would_charge_concealed", False, op=o.id))


def order_refusal(w: Work, o: OperativeState, order: str) -> str | None:
    """Why ``o`` cannot be given ``order`` when its order is determined at its activation
    (a rule's ``would_refuse_order`` hooks: ``fn(w, None, op=, order=) -> reason``), or
    ``None``."""
    if "would_refuse_order" not in w.ctx.hooks.would:
        return None
    refused: str | None = w.would("would_refuse_order", None, op=o.id, order=order)
    return refused


def precheck(
    w: Work, o: OperativeState, verb: str, mode: str, in_cr: bool | None = None
) -> str | None:
    """Why ``verb`` cannot be performed by ``o`` now (AP, once per activation, exclusions,
    control range, order), or ``None``. Target-specific checks come later.

    Args:
        mode: ``"activation"``, ``"counteract"`` or ``"interrupt"``.
        in_cr: whether ``o`` is within an enemy's control range, if already known."""
    cost = ACTION_COST.get(verb)
    if cost is None:
        return f"unknown action {verb!r}"
    if mode == "counteract":
        if cost != 1:
            return f"a counteraction is one 1AP action ({verb} costs {cost}AP, 1.6)"
        if verb == "Guard":
            return "Guard cannot be chosen as a counteraction (1.6, 9.3)"
    elif mode == "interrupt":
        if _family(verb) not in ("Shoot", "Fight") or verb == "Guard":
            return "an On Guard interrupt is one free Shoot or Fight (9.3)"
    elif mode == "activation":
        due = action_cost(w, o, verb, cost, mode)
        if o.ap < due:
            return f"{verb} costs {due}AP and {o.id} has {o.ap}AP left (1.5, 3.2)"
    if mode != "activation":
        why = _not_free(w, o, verb, verb, mode)
        if why is not None:
            return why
    fam = _family(verb)
    hooks = w.ctx.hooks.would
    if any(_family(d) == fam for d in o.done) and not _repeat_allowed(w, o, fam, mode):
        return f"{o.id} already performed {fam} this activation: once per activation (1.5)"
    if hooks.get("would_refuse_action"):
        # A rule that forbids an action now (no move after a team's repeated Shoot).
        refused: str | None = w.would("would_refuse_action", None, op=o.id, action=verb)
        if refused:
            return refused
    for ex in _EXCLUDES.get(verb, ()):
        if ex in o.done:
            return f"{verb} cannot be performed in the same activation as {ex} (3.2)"
    if in_cr is None:
        in_cr = w.in_enemy_control_range(o)
    # (iter_action_options does not ask for the verbs refused below by control range alone,
    # _IN_CR_REFUSED and _OUT_OF_CR_REFUSED: keep those sets in step with these checks)
    if (
        verb in ("Reposition", "Dash", "Charge", "Pick up")
        and in_cr
        and (verb != "Charge" or not charge_in_control_range(w, o))
    ):
        # (a rule may let an operative Charge from there: charge_in_control_range)
        return f"{verb} cannot be performed within control range of an enemy operative (3.2)"
    if (
        verb == "Shoot"
        and in_cr
        and mode != "interrupt"
        and not any(shoots_in_control_range(w, o, p) for _, _, p in weapons_of(w, o.id, "ranged"))
    ):
        return "Shoot cannot be performed within control range of an enemy operative (3.2)"
    if verb == "Fall Back" and not in_cr:
        return "Fall Back needs an enemy operative within control range (3.2)"
    if verb == "Charge" and o.order != "engage" and not _charges_concealed(w, o):
        return "an operative with a Conceal order cannot Charge (1.5, 3.2)"
    if verb == "Fight" and not in_cr:
        return "Fight needs an enemy operative within control range (3.2)"
    if verb in MOVE_VERBS and o.heavy_shot and o.heavy_only != verb:
        return f"{o.id} used a Heavy weapon this activation and cannot {verb} (6 Heavy)"
    return None


_IN_CR_REFUSED = frozenset(("Reposition", "Dash", "Pick up"))
"""The actions :func:`precheck` always refuses within an enemy's control range (3.2)."""
_OUT_OF_CR_REFUSED = frozenset(("Fall Back", "Fight"))
"""The actions :func:`precheck` always refuses outside every enemy's control range (3.2)."""


def list_action_options(w: Work, o: OperativeState, mode: str) -> list[Action]:
    """The listed legal actions of ``o`` (movement destinations from candidates)."""
    return list(iter_action_options(w, o, mode))


def has_action_options(w: Work, o: OperativeState, mode: str) -> bool:
    """Whether ``o`` has a listed legal action (``bool(list_action_options(...))``, stopping
    at the first one found)."""
    return next(iter_action_options(w, o, mode), None) is not None


def iter_action_options(w: Work, o: OperativeState, mode: str) -> Iterator[Action]:
    """The listed legal actions of ``o``, in the order of :func:`list_action_options`, each
    group computed only when the previous ones have been consumed."""
    from engine.game import closequarters, fight, shoot

    in_cr = w.in_enemy_control_range(o)
    # (what precheck refuses whatever else holds, by control range alone: not asked)
    ranged_out = _IN_CR_REFUSED if in_cr else _OUT_OF_CR_REFUSED
    memo = ReachMemo()  # the four move actions share their checks from this position
    refused = bool(w.ctx.hooks.would.get("would_refuse_destination"))
    for verb in ("Reposition", "Dash", "Fall Back", "Charge"):
        if verb not in ranged_out and precheck(w, o, verb, mode, in_cr) is None:
            for p in move_candidates(w, o, verb, mode, memo):
                if not refused or destination_refused(w, o, verb, p) is None:
                    yield Action(verb, op=o.id, point=p)
    fights = "Fight" not in ranged_out
    if precheck(w, o, "Shoot", mode, in_cr) is None or (
        mode == "interrupt" and fights and precheck(w, o, "Fight", mode, in_cr) is None
    ):
        yield from shoot.iter_shoot_options(w, o, mode)
    if fights and precheck(w, o, "Fight", mode, in_cr) is None:
        yield from fight.fight_options(w, o)
    if "Pick up" not in ranged_out and precheck(w, o, "Pick up", mode, in_cr) is None:
        for m in w.markers:
            if (
                _can_pick_up(w, o, m.name) is None
                and _added_ap_problem(w, o, "Pick up", mode, m.name) is None
            ):
                yield Action("Pick up", op=o.id, text=m.name.lower())  # notation: lower case
        if _carry_problem(w, o) is None:
            for name, why in rule_markers(w, o):
                if (
                    _rule_marker_problem(w, o, name, why) is None
                    and _added_ap_problem(w, o, "Pick up", mode, name) is None
                ):
                    yield Action("Pick up", op=o.id, text=name.lower())
    if o.carrying and precheck(w, o, "Place marker", mode, in_cr) is None:
        here = (o.x, o.y, 0.0)
        if len(o.carrying) == 1:
            yield Action("Place marker", op=o.id, point=here)
        else:  # several: the notation names the marker
            for name in o.carrying:
                yield Action("Place marker", op=o.id, text=name.lower(), point=here)
    if w.ctx.close_quarters:
        yield from closequarters.options(w, o, mode)
    for act in rule_actions.actions_of(w, o):
        offered = getattr(act, "offered", None)  # (cheap: e.g. a mission action not in play)
        if offered is not None and not offered(w, o):
            continue
        if rule_precheck(w, o, act, mode) is None:
            yield from act.options(w, o, mode)


def perform(w: Work, o: OperativeState, a: Action, mode: str) -> None:
    """Validate and perform the action ``a`` of operative ``o`` (3.2).

    Raises:
        IllegalActionError: naming the rule that forbids it.
    """
    from engine.game import closequarters, fight, shoot

    verb = a.verb
    if verb == "Act":
        _perform_rule_action(w, o, a, mode)
        return
    if verb not in ACTION_COST:
        raise _illegal(f"{a} is not an action of an activation (3.2)")
    why = precheck(w, o, verb, mode)  # an interrupt's point-blank shot: shoot.start_shoot
    if why is not None:
        raise _illegal(why)
    if o.on_guard and mode != "interrupt" and verb != "Guard" and verb not in MOVE_VERBS:
        # 9.3: on guard until it performs an action (moves emit their own reason).
        o = w.set_op(o.id, on_guard=False)
        w.emit("guard_ended", op=o.id, why="it performed an action")
    if verb in MOVE_VERBS:
        do_move(w, o, a, mode)
    elif verb == "Shoot":
        shoot.start_shoot(w, o, a, mode)
    elif verb == "Fight":
        fight.start_fight(w, o, a, mode)
    elif verb == "Pick up":
        _pick_up(w, o, a, mode)
    elif verb == "Place marker":
        assert a.point is not None
        name = _placed_marker(w, o, a.text)
        _check_marker_spot(w, o, name, a.point)
        spend(w, o, verb, mode)
        place_marker(w, o, a.point[0], a.point[1], name)
    else:
        closequarters.perform(w, o, a, mode)


def _perform_rule_action(w: Work, o: OperativeState, a: Action, mode: str) -> None:
    act = rule_actions.find_rule_action(w, o, a.text)
    if act is None:
        raise _illegal(f"{a}: {o.id} has no action called {a.text!r} (3.1)")
    why = rule_precheck(w, o, act, mode) or act.check(w, o, a, mode)
    if why is not None:
        raise _illegal(why)
    if o.on_guard and mode != "interrupt":
        o = w.set_op(o.id, on_guard=False)
        w.emit("guard_ended", op=o.id, why="it performed an action")
    spend(w, o, act.text, mode, ap=act.ap, family=act.family)
    w.emit("rule_action", op=o.id, action=act.name)
    act.perform(w, w.op(o.id), a, mode)


def spend(
    w: Work,
    o: OperativeState,
    verb: str,
    mode: str,
    ap: int | None = None,
    family: str = "",
    target: str = "",
) -> OperativeState:
    """Pay the action's AP (nothing in a counteraction, interrupt or free action, 1.6, 9.3,
    3.1; an effect may make it free; AP a rule adds for ``target``, :func:`added_ap`) and
    note it as done this activation (1.5; a rule action also as the universal action it
    counts as, ``family``)."""
    printed = ACTION_COST[verb] if ap is None else ap
    cost = action_cost(w, o, verb, printed, mode, target, paying=True)
    if mode == "activation" and cost == 0 and printed and w.effects:
        rule_actions.use_free_action_effect(w, o, verb)
    done = (*w.op(o.id).done, verb) + ((family,) if family else ())
    return w.set_op(o.id, ap=w.op(o.id).ap - cost, done=done)


# -------------------------------------------------------------------------------------------
# Movement (3.2, 3.3)
# -------------------------------------------------------------------------------------------


def charge_in_control_range(w: Work, o: OperativeState) -> bool:
    """A rule lets ``o`` perform the Charge action while within control range of an enemy
    operative, and leave that control range to do so (the ``would_allow_charge_in_control_range``
    hooks: ``fn(w, False, op=) -> bool``); the Charge must still finish within an enemy's
    control range."""
    if not w.ctx.hooks.would.get("would_allow_charge_in_control_range"):
        return False
    return bool(w.would("would_allow_charge_in_control_range", False, op=o.id))


def _move_args(w: Work, o: OperativeState, verb: str, mode: str) -> dict[str, Any]:
    """Keyword arguments of the movement queries for ``o``'s move action (``max_cost`` is
    the action's distance, at most 2" in a counteraction, 1.6; ``leave_control_range`` for
    a Charge a rule lets start within an enemy's control range,
    :func:`charge_in_control_range`; ``terrain_extras=False`` when a rule drops the
    Accessible and Obstructing extra inches for this move, the
    ``would_ignore_terrain_extras`` hooks: ``fn(w, False, op=, action=) -> bool``)."""
    enemies = [w.place(e) for e in w.enemies_of(o.id)]
    friends = [w.place(f) for f in w.friends_of(o.id)]
    move = w.move_stat(o)
    limit = max_move(_MOVE_ACTION[verb], move)
    if w.ctx.hooks.would.get("would_move_distance"):
        # Rules that lengthen one move action only (a team's +1" to Reposition).
        limit = w.would("would_move_distance", limit, op=o.id, action=verb)
    if mode == "counteract":
        limit = min(COUNTERACT_MOVE, limit)
    elif mode == "free":
        cap = next(
            (f.max_move for f in reversed(w.stack) if getattr(f, "mode", "") == "free"), -1.0
        )
        if cap >= 0:
            limit = min(cap, limit)
    args: dict[str, Any] = {
        "action": _MOVE_ACTION[verb],
        "enemies": enemies,
        "friends": friends,
        "move": move,
        "max_cost": limit,
    }
    if verb == "Charge" and charge_in_control_range(w, o) and w.in_enemy_control_range(o):
        args["leave_control_range"] = True
    if w.ctx.hooks.would.get("would_ignore_terrain_extras") and w.would(
        "would_ignore_terrain_extras", False, op=o.id, action=verb
    ):
        args["terrain_extras"] = False
    return args


_DIRS = tuple((math.cos(2 * math.pi * k / 8), math.sin(2 * math.pi * k / 8)) for k in range(8))
_REACH_RAY = 9.0  # inches: longer than any move (Charge: Move + 2")


def move_candidates(
    w: Work, o: OperativeState, verb: str, mode: str, memo: ReachMemo | None = None
) -> list[tuple[float, float, float]]:
    """Deterministic destinations for listing: 8 directions at the full and half distance,
    objective markers in reach, and for a Charge spots around enemies in reach; each kept
    only if a legal path reaches it. Scripted input may name any other exact point.

    Args:
        memo: shared by the move actions listed from one position (:class:`ReachMemo`)."""
    kz = w.move_kz(o)
    args = _move_args(w, o, verb, mode)
    limit = args["max_cost"]
    full = math.floor(limit + 1e-9)
    me = w.place(o)
    r = me.radius
    spots: list[tuple[float, float, float]] = []
    reaches = w.ctx.cached(
        ("reach", id(kz), me), lambda: tuple(straight_reach(kz, me, _DIRS, _REACH_RAY))
    )
    for (ux, uy), reach in zip(_DIRS, reaches, strict=True):
        far = min(full, reach)
        for dist in sorted({far, min(far, max(1.0, full / 2))}):
            if dist > 0.05:
                spots.append((me.x + ux * dist, me.y + uy * dist, me.elevation))
    for m in w.markers:
        if m.carrier:
            continue
        d = math.hypot(m.x - me.x, m.y - me.y)
        if d <= limit + 1.5 and d > 0.5:
            spots.append((m.x, m.y, 0.0))
    if verb == "Charge":
        for e in w.enemies_of(o.id):
            ep = w.place(e)
            ring = ep.radius + r + 0.3
            if math.hypot(ep.x - me.x, ep.y - me.y) > limit + ring:
                continue
            ang0 = math.atan2(me.y - ep.y, me.x - ep.x)
            for k in (0, 1, -1):
                ang = ang0 + k * math.pi / 4
                spots.append(
                    (ep.x + ring * math.cos(ang), ep.y + ring * math.sin(ang), ep.elevation)
                )
    found = reachable_with_costs(kz, me, spots, **args, graph=move_graph(kz, me.base_mm), memo=memo)
    # do_move of a listed destination finds its outcome here instead of searching again.
    outcomes = {(f.x, f.y, f.elevation): (f, cost) for f, cost in found}
    w.ctx.remember(_moves_key(kz, me, args), outcomes)
    return list(outcomes)


def _moves_key(kz: Killzone, me: Placement, args: dict[str, Any]) -> tuple[Any, ...]:
    """The battle-cache key of the listed outcomes of one move action from one position:
    everything :func:`shortest_path` reads but the destination."""
    return (
        "moves",
        id(kz),
        me,
        args["action"],
        args["max_cost"],
        args["move"],
        tuple(args["enemies"]),
        tuple(args["friends"]),
        bool(args.get("leave_control_range")),
        bool(args.get("terrain_extras", True)),
    )


def destination_refused(
    w: Work, o: OperativeState, verb: str, point: tuple[float, float, float]
) -> str | None:
    """Why a rule forbids ``o`` to end its move action ``verb`` at ``point`` (the
    ``would_refuse_destination`` hooks: ``fn(w, None, op=, action=, point=) -> why``; e.g. a
    free Dash that must end near another operative), or ``None``."""
    if not w.ctx.hooks.would.get("would_refuse_destination"):
        return None
    why: str | None = w.would("would_refuse_destination", None, op=o.id, action=verb, point=point)
    return why


def do_move(w: Work, o: OperativeState, a: Action, mode: str) -> None:
    """Reposition, Dash, Fall Back or Charge to ``a.point`` along the shortest legal path.

    Raises:
        IllegalActionError: the destination or path is illegal (the message names the rule).
    """
    assert a.point is not None
    args = _move_args(w, o, a.verb, mode)
    kz = w.move_kz(o)
    listed = (w.ctx.peek(_moves_key(kz, w.place(o), args)) or {}).get(a.point)
    if listed is not None:
        f, cost = listed
    else:
        try:
            path = shortest_path(kz, w.place(o), a.point, **args)
        except MoveError as exc:
            raise _illegal(f"{a.verb} {o.id}: {exc}") from None
        if path is None:
            limit = args["max_cost"]
            raise _illegal(
                f"{a.verb} {o.id}: no legal path reaches ({a.point[0]:g}, {a.point[1]:g}) "
                f'within {limit:g}" of movement (3.2, 3.3)'
                + (" (Dash cannot climb)" if a.verb == "Dash" else "")
            )
        f, cost = path.final, path.cost
        # The route taken, for rules judging it after the move (move_route).
        w.ctx.remember(_route_key(kz, w.place(o), a.verb, (f.x, f.y, f.elevation), args), path)
    why = destination_refused(w, o, a.verb, (f.x, f.y, f.elevation))
    if why is not None:
        raise _illegal(why)
    spend(w, o, a.verb, mode)
    w.set_op(o.id, x=f.x, y=f.y, elevation=f.elevation, moved=True)
    if w.op(o.id).on_guard:
        w.set_op(o.id, on_guard=False)
        w.emit("guard_ended", op=o.id, why="it moved")
    carry_along(w, o.id)
    w.emit(
        "moved",
        op=o.id,
        action=a.verb.lower(),
        x=f.x,
        y=f.y,
        z=f.elevation,
        cost=cost,
        x0=o.x,
        y0=o.y,
        z0=o.elevation,
    )
    if action_cut(w, o.id):
        # A rule ended the action where it stopped (a mine set off mid-move): the rest of
        # it (the ploy window after the move) does not happen.
        w.effects = [e for e in w.effects if not (e.kind == ACTION_CUT and e.op == o.id)]
        return
    if w.ctx.hooks.ploys.get("moved"):
        w.defer_window("moved", op=o.id, action=a.verb, x0=o.x, y0=o.y, z0=o.elevation)


def _route_key(
    kz: Killzone, start: Placement, verb: str, end: tuple[float, float, float], args: dict[str, Any]
) -> tuple[Any, ...]:
    """The battle-cache key of the route of one move (:func:`move_route`)."""
    others = (tuple(args["enemies"]), tuple(args["friends"]))
    extras = bool(args.get("terrain_extras", True))
    return ("route", id(kz), start, verb.lower(), end, others, extras)


def move_route(w: Work, ev: Event) -> MovePath:
    """The route the move of the ``moved`` event ``ev`` took (for rules that judge where a
    move went, e.g. mines passed on the way): the movement search's path from its start
    (``x0``, ``y0``, ``z0``) to where the operative now is, for its action, within the
    distance it used (``cost``), with the other operatives where they are; the straight
    segment when the event is not a move action's (a rule's set-up, a move with a
    barricade) or no path is found. Call it from a ``moved`` hook, before the mover is
    moved again. Kept for the battle (the search is done again only for a listed move)."""
    o = w.op(str(ev["op"]))
    end = w.place(o)
    data = ev.as_dict()
    z0 = float(data["z0"]) if "z0" in data else end.elevation
    start = end.moved(float(data.get("x0", end.x)), float(data.get("y0", end.y)), z0)
    here = (end.x, end.y, end.elevation)
    verb = str(data.get("action", ""))
    act = {v.lower(): m for v, m in _MOVE_ACTION.items()}.get(verb)
    others: dict[str, Any] = {
        "enemies": [w.place(e) for e in w.enemies_of(o.id)],
        "friends": [w.place(f) for f in w.friends_of(o.id)],
    }
    kz = w.move_kz(o)
    key = _route_key(kz, start, verb, here, others)
    path: MovePath | None = w.ctx.peek(key)
    if path is None:  # a move a rule let drop the Accessible and Obstructing inches
        path = w.ctx.peek(_route_key(kz, start, verb, here, {**others, "terrain_extras": False}))
    if path is None and act is not None and (start.x, start.y) != (end.x, end.y):

        def search(leave: bool, extras: bool = True) -> MovePath | None:
            return shortest_path(
                kz,
                start,
                here,
                action=act,
                **others,
                move=w.move_stat(o),
                max_cost=float(data.get("cost", 0.0)) + 1e-6,
                leave_control_range=leave,
                terrain_extras=extras,
            )

        try:
            path = search(False)
        except MoveError:
            try:  # a Charge a rule let start within an enemy's control range
                path = search(True)
            except MoveError:
                path = None
        if path is None:  # a move a rule let drop the Accessible and Obstructing inches
            try:
                path = search(False, False)
            except MoveError:
                path = None
        if path is not None:
            w.ctx.remember(key, path)
    if path is None:
        length = math.dist((start.x, start.y, start.elevation), here)
        points = ((start.x, start.y, start.elevation), here)
        path = MovePath(verb, points, (), length, length, end)
    return path


def route_distance(path: MovePath, x: float, y: float) -> float:
    """How far along ``path`` (horizontally, from its start) the point ``(x, y)`` on it is
    (its first segment passing within 0.01"; the whole length if none does)."""
    done = 0.0
    for (px, py, _), (qx, qy, _) in zip(path.points, path.points[1:], strict=False):
        dx, dy = qx - px, qy - py
        length = math.hypot(dx, dy)
        t = 0.0
        if length > 0:
            t = min(1.0, max(0.0, ((x - px) * dx + (y - py) * dy) / (length * length)))
        if math.hypot(px + t * dx - x, py + t * dy - y) <= 0.01:
            return done + t * length
        done += length
    return done


ACTION_CUT = "action_cut"
"""The effect kind :func:`cut_action` leaves on the operative whose action it ends."""


def cut_action(w: Work, op: str) -> None:
    """A rule ends ``op``'s action in progress now, even if its effects are not fulfilled
    (e.g. a mine set off in the middle of a move, from a ``moved`` hook): the rest of the
    action does not happen (after a move: its ``moved`` ploy window). The mark is cleared
    when the move ends or when the activation's action is complete."""
    if not action_cut(w, op):
        w.effects.append(Effect(ACTION_CUT, op, "end_tp", source=op))


def action_cut(w: Work, op: str) -> bool:
    """:func:`cut_action` ended ``op``'s action in progress."""
    return bool(w.effects) and any(e.kind == ACTION_CUT and e.op == op for e in w.effects)


# -------------------------------------------------------------------------------------------
# Markers (4.8)
# -------------------------------------------------------------------------------------------


def _marker(w: Work, name: str) -> str:
    names = [m.name for m in w.markers]
    if name in names:
        return name
    hits = [n for n in names if n.lower() == name.lower()]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise AmbiguousActionError(f"marker name {name!r} matches {hits}")
    raise _illegal(f"there is no marker {name!r} (markers: {', '.join(names)})")


def marker_objective(w: Work, name: str) -> Objective:
    """The marker ``name`` as an :class:`Objective` at its current position (4.8)."""
    m = next(m for m in w.markers if m.name == name)
    return Objective(m.name, (m.x, m.y))


def contests(w: Work, o: OperativeState, name: str) -> bool:
    """``o`` contests the marker: it is within its control range, or ``o`` carries it (4.8)."""
    m = next(m for m in w.markers if m.name == name)
    if m.carrier:
        return m.carrier == o.id
    return sight.objective_in_control_range(w.kz, w.place(o), marker_objective(w, name))


def apl_controller(
    w: Work, contesting: Callable[[OperativeState], bool], marker: str = "", rule: str = ""
) -> str:
    """The player whose operatives on the killzone for which ``contesting`` holds have the
    greater total APL (``"A"``/``"B"``), or ``""`` on a tie or when none does: control of a
    marker or of any area a rule makes controllable the same way (4.8). The
    ``would_control_apl`` hooks (``fn(w, apl, op=) -> apl``) change the APL an operative
    counts with there, not its APL stat."""
    total = {"A": 0, "B": 0}
    hooked = "would_control_apl" in w.ctx.hooks.would
    ids: list[str] = []
    for o in w.alive():
        if contesting(o):
            ids.append(o.id)
            apl = w.apl(o)
            total[o.player] += int(w.would("would_control_apl", apl, op=o.id)) if hooked else apl
    if (ids or marker) and "would_control_totals" in w.ctx.hooks.would:
        # A rule changing a player's total (not an operative's APL): fn(w, total, ops=,
        # marker=, rule=) -> total, ``ops`` the contesting operatives' ids, ``marker`` the
        # marker's name (an objective marker's or a token's, ``w.tokens``; ``""`` for
        # another area; asked then even when nobody contests), ``rule`` the rule
        # determining control (``""``: any; "Martyrs"...).
        total = dict(
            w.would("would_control_totals", dict(total), ops=tuple(ids), marker=marker, rule=rule)
        )
    if total["A"] == total["B"]:
        return ""
    return "A" if total["A"] > total["B"] else "B"


def controller(w: Work, name: str, rule: str = "") -> str:
    """The player controlling the marker (greater total APL of contesting operatives), or
    ``""`` (4.8); ``rule`` names the rule determining it, for a rule that has no effect on
    some (the ``would_control_totals`` hooks are told it). On a tie the
    ``would_control_marker`` hooks (``fn(w, "", marker=) -> player``) may name who controls
    it (a rule that wins ties)."""
    m = next(m for m in w.markers if m.name == name)
    if m.carrier:
        return w.ctx.owner[m.carrier]
    got = apl_controller(w, lambda o: contests(w, o, name), name, rule)
    if not got and "would_control_marker" in w.ctx.hooks.would:
        got = str(w.would("would_control_marker", got, marker=name))
    return got


def counted_carried(w: Work, o: OperativeState) -> tuple[str, ...]:
    """The markers ``o`` carries that count for Pick Up Marker's condition "not already
    carrying a marker" (3.2): all of them, less those a rule leaves out through the *would*
    hooks ``"would_count_carried"`` (``fn(w, names, op=o) -> names``; e.g. a tac op letting
    an operative carry a second marker of its own)."""
    if not o.carrying or "would_count_carried" not in w.ctx.hooks.would:
        return o.carrying
    return tuple(w.would("would_count_carried", o.carrying, op=o))


def _carry_problem(w: Work, o: OperativeState) -> str | None:
    """Why ``o`` cannot pick up one more marker (3.2), or ``None``."""
    if counted_carried(w, o):
        return f"{o.id} already carries a marker (3.2)"
    return None


def _can_pick_up(w: Work, o: OperativeState, name: str) -> str | None:
    """Why ``o`` cannot pick up the objective marker ``name`` (3.2), or ``None``. Whether
    markers can be picked up at all comes from the marker's flag and the game option
    ``objectives_pickup``, then the ``would_allow_pick_up`` hooks (``op``, ``marker``), which
    receive that reason (or ``None``) and return it, or ``None`` to allow it, or another
    reason (the crit op Energy Cells, 8.3)."""
    name = _marker(w, name)
    m = next(m for m in w.markers if m.name == name)
    why: str | None = None
    if not m.pickup or not w.ctx.options.objectives_pickup:
        why = f"marker {name} cannot be picked up in this mission (3.2 Pick Up Marker)"
    if "would_allow_pick_up" in w.ctx.hooks.would:
        why = w.would("would_allow_pick_up", why, op=o, marker=name)
    if why is not None:
        return why
    if m.carrier:
        return f"marker {name} is carried by {m.carrier}"
    why = _carry_problem(w, o)
    if why is not None:
        return why
    if not contests(w, o, name) or controller(w, name) != o.player:
        return f"{o.id} must control marker {name} to pick it up (3.2, 4.8)"
    return None


def rule_markers(w: Work, o: OperativeState) -> tuple[tuple[str, str | None], ...]:
    """The markers other than the objective markers that rule modules let operatives pick up
    with the Pick Up Marker action (3.2; the mission markers of an op), as ``(name, why)``
    pairs for operative ``o``: ``why`` is ``None`` when the module lets ``o`` pick that
    marker up now (it judges control, 4.8, and its own conditions), else the reason naming
    the rule.

    Such a marker is a :class:`~engine.game.tokens.Token` on the state (``w.tokens``), 20 mm
    across (4.8: every marker but an objective marker). Rule modules offer them through the
    *would* hook ``"pick_up_markers"``: ``fn(w, pairs, op=o) -> pairs`` returns ``pairs``
    with its own markers added. The core then performs Pick Up Marker on it as on an
    objective marker (AP, once per activation, not within enemy control range, not while
    carrying another, :func:`counted_carried`), carries it (:func:`start_carrying`) and puts
    it down with Place Marker or when its carrier is removed (:func:`place_marker`)."""
    if "pick_up_markers" not in w.ctx.hooks.would:
        return ()
    return tuple(w.would("pick_up_markers", (), op=o))


def _rule_marker(w: Work, o: OperativeState, text: str) -> tuple[str, str | None] | None:
    """The ``(name, why)`` pair of :func:`rule_markers` whose name is ``text`` (any case)."""
    wanted = " ".join(text.lower().split())
    return next((p for p in rule_markers(w, o) if p[0].lower() == wanted), None)


def _token(w: Work, name: str) -> Token | None:
    return next((t for t in w.tokens if isinstance(t, Token) and t.name == name), None)


def _rule_marker_problem(w: Work, o: OperativeState, name: str, why: str | None) -> str | None:
    """Why ``o`` cannot pick up the rule module's marker ``name`` (its module's ``why``
    first, then 3.2), or ``None``."""
    if why is not None:
        return why
    t = _token(w, name)
    if t is None:
        return f"there is no marker {name!r} on the killzone (3.2)"
    if t.carrier:
        return f"marker {name} is carried by {t.carrier}"
    return _carry_problem(w, o)


def _pick_up(w: Work, o: OperativeState, a: Action, mode: str) -> None:
    """Pick Up Marker (3.2) on an objective marker or a rule module's marker."""
    found = _rule_marker(w, o, a.text)
    if found is not None:
        name = found[0]
        why = _rule_marker_problem(w, o, name, found[1])
    else:
        name = _marker(w, a.text)
        why = _can_pick_up(w, o, name)
    why = why or _added_ap_problem(w, o, "Pick up", mode, name)
    if why:
        raise _illegal(why)
    spend(w, o, "Pick up", mode, target=name)
    start_carrying(w, o.id, name)
    w.emit("marker_picked_up", op=o.id, marker=name)


def start_carrying(w: Work, op_id: str, name: str) -> None:
    """Operative ``op_id`` now carries the marker ``name`` (an objective marker or a rule
    module's :class:`~engine.game.tokens.Token`): the marker's ``carrier`` is set, it goes
    where the operative is, and its name is added to the operative's ``carrying`` (3.2, 4.8).
    For Pick Up Marker and for rules that hand a marker to an operative; emits nothing.

    Raises:
        ValueError: there is no such marker, or it is carried already.
    """
    o = w.op(op_id)
    if any(m.name == name for m in w.markers):
        m = next(m for m in w.markers if m.name == name)
        if m.carrier:
            raise ValueError(f"marker {name} is carried by {m.carrier}")
        w.markers = [
            attrs.evolve(m, carrier=op_id, x=o.x, y=o.y) if m.name == name else m for m in w.markers
        ]
    else:
        t = _token(w, name)
        if t is None:
            raise ValueError(f"there is no marker {name!r}")
        if t.carrier:
            raise ValueError(f"marker {name} is carried by {t.carrier}")
        new = attrs.evolve(t, carrier=op_id, x=o.x, y=o.y, elevation=o.elevation)
        w.tokens = [new if u is t else u for u in w.tokens]
    w.set_op(op_id, carrying=(*o.carrying, name))


def carry_along(w: Work, op_id: str) -> None:
    """Put the markers operative ``op_id`` carries where it now stands (after it moved or was
    set up again: a carried marker goes with its carrier, 4.8)."""
    o = w.op(op_id)
    if not o.carrying:
        return
    w.markers = [attrs.evolve(m, x=o.x, y=o.y) if m.carrier == op_id else m for m in w.markers]
    if any(isinstance(t, Token) and t.carrier == op_id for t in w.tokens):
        w.tokens = [
            attrs.evolve(t, x=o.x, y=o.y, elevation=o.elevation)
            if isinstance(t, Token) and t.carrier == op_id
            else t
            for t in w.tokens
        ]


def marker_level(w: Work, x: float, y: float, elevation: float) -> float:
    """The elevation (inches) a 20 mm marker put down at ``(x, y)`` by an operative standing
    at ``elevation`` lies at: that level when Vantage terrain of that height is under the
    point, else the killzone floor (4.8)."""
    if elevation <= 0:
        return 0.0
    spot = Placement(x, y, base_mm=MARKER_DIAMETER_MM, elevation=elevation)
    return elevation if w.kz.standing_part(spot) is not None else 0.0


def _placed_marker(w: Work, o: OperativeState, text: str) -> str:
    """The carried marker a Place Marker names (``text``; ``""``: the only one ``o``
    carries)."""
    if not o.carrying:
        raise _illegal(f"{o.id} carries no marker (3.2 Place Marker)")
    wanted = " ".join(text.lower().split())
    if not wanted:
        if len(o.carrying) > 1:
            names = ", ".join(n.lower() for n in o.carrying)
            raise _illegal(
                f"{o.id} carries {names}: name the marker to place "
                f"('Place marker {o.id} <marker> at x,y', 3.2)"
            )
        return o.carrying[0]
    name = next((n for n in o.carrying if n.lower() == wanted), None)
    if name is None:
        names = ", ".join(n.lower() for n in o.carrying)
        raise _illegal(f"{o.id} carries no marker {text!r} (it carries {names}; 3.2)")
    return name


def _check_marker_spot(
    w: Work, o: OperativeState, name: str, point: tuple[float, float, float]
) -> None:
    x, y, _ = point
    if any(m.name == name for m in w.markers):
        within = sight.objective_in_control_range(w.kz, w.place(o), Objective(name, (x, y)))
    else:  # a marker of a rule module (rule_markers): 20 mm (4.8)
        within = sight.marker_in_control_range(w.kz, w.place(o), (x, y), MARKER_DIAMETER_MM)
    if not within:
        raise _illegal(f"the marker must be placed within {o.id}'s control range (3.2)")


def place_marker(w: Work, o: OperativeState, x: float, y: float, name: str = "") -> None:
    """Put down the marker ``name`` (default: the only one) ``o`` carries at ``(x, y)``; a
    rule module's marker lies on ``o``'s level when that level is under the point
    (:func:`marker_level`). Emits ``marker_placed`` (``op``, ``marker``, ``x``, ``y``)."""
    o = w.op(o.id)
    name = name or o.carrying[0]
    if any(m.name == name for m in w.markers):
        w.markers = [
            attrs.evolve(m, x=x, y=y, carrier="") if m.name == name else m for m in w.markers
        ]
    else:
        t = _token(w, name)
        if t is not None:
            z = marker_level(w, x, y, o.elevation)
            new = attrs.evolve(t, carrier="", x=x, y=y, elevation=z)
            w.tokens = [new if u is t else u for u in w.tokens]
    w.set_op(o.id, carrying=tuple(n for n in o.carrying if n != name))
    w.emit("marker_placed", op=o.id, marker=name, x=x, y=y)


# -------------------------------------------------------------------------------------------
# Damage and removal (2.3)
# -------------------------------------------------------------------------------------------


def inflict(w: Work, op_id: str, damage: int, source: str, by: str = "") -> None:
    """Inflict ``damage`` on ``op_id``; below half its starting wounds it becomes injured
    (``operative_injured``), at 0 wounds it is incapacitated (2.3). It is removed by
    :func:`remove_casualties` after the action.

    Wounds never go below 0: the ``damage_inflicted`` event reports the ``damage`` inflicted
    (as rolled) and the ``wounds`` left, clamped at 0. At 0 wounds the
    ``would_be_incapacitated`` hooks may keep it in the fight (a rule then sets its wounds).
    """
    o = w.op(op_id)
    if damage <= 0 or o.incapacitated or not o.placed:
        return
    was_injured = w.injured(o)
    o = w.set_op(op_id, wounds=max(0, o.wounds - damage))
    # A rule that keeps the operative in the fight returns False and leaves it with wounds
    # (fn(w, True, op=, by=, source=) -> bool).
    if (
        o.wounds <= 0
        and "would_be_incapacitated" in w.ctx.hooks.would
        and not w.would("would_be_incapacitated", True, op=op_id, by=by, source=source)
    ):
        o = w.op(op_id)
    w.emit("damage_inflicted", op=op_id, damage=damage, source=source, wounds=o.wounds, by=by)
    if o.wounds > 0 and w.injured(o) and not was_injured:
        w.emit("operative_injured", op=op_id, wounds=o.wounds, by=by)
    if o.wounds <= 0:
        incapacitate(w, op_id, by)


def incapacitate(w: Work, op_id: str, by: str = "") -> None:
    """``op_id`` is incapacitated now (2.3): 0 wounds, ``operative_incapacitated``, and the
    ``incapacitated`` ploy window; removed by :func:`remove_casualties` after the action.
    :func:`inflict` calls it at 0 wounds; a rule that kept an operative in the fight until
    its player's choice calls it when that player lets it fall."""
    o = w.set_op(op_id, wounds=0, incapacitated=True, on_guard=False)
    w.emit("operative_incapacitated", op=op_id, player=o.player, by=by)
    w.defer_window("incapacitated", op=op_id, by=by)


def remove_casualties(w: Work) -> None:
    """Remove incapacitated operatives; a carrier first places its marker for 0AP (2.3)."""
    for o in list(w.ops):
        if o.incapacitated and o.placed:
            for name in o.carrying:
                place_marker(w, o, o.x, o.y, name)
            w.set_op(o.id, placed=False, ready=False, ap=0)
            w.effects = [e for e in w.effects if e.op != o.id]
            w.emit("operative_removed", op=o.id)


# -------------------------------------------------------------------------------------------
# Weapons
# -------------------------------------------------------------------------------------------


def weapon_name(weapon: Weapon, profile: WeaponProfile) -> str:
    """The notation name of a weapon profile: ``"plasma pistol (supercharge)"``."""
    base = " ".join(weapon.name.lower().split())
    return f"{base} ({profile.name.lower()})" if profile.name else base


def weapons_of(w: Work, op_id: str, kind: str) -> list[tuple[str, Weapon, WeaponProfile]]:
    """``(notation name, weapon, profile)`` for each profile of ``kind`` (ranged/melee): its
    datacard's weapons, then those rule modules give it (``Hooks.weapon_source``)."""
    out = list(_card_profiles(w, op_id, kind))
    if w.ctx.hooks.weapon_sources:
        given = (x for fn in w.ctx.hooks.weapon_sources for x in fn(w, op_id, kind))
        out += _profiles_of(given, kind)
    return out


def _card_profiles(w: Work, op_id: str, kind: str) -> tuple[tuple[str, Weapon, WeaponProfile], ...]:
    """The datacard's part of :func:`weapons_of` (first in it): it never changes in a
    battle, so it is kept on the context."""
    return w.ctx.cached(  # type: ignore[no-any-return]
        ("weapons", op_id, kind),
        lambda: tuple(_profiles_of(w.ctx.datacards[op_id].weapons, kind)),
    )


def _profiles_of(weapons: Iterable[Weapon], kind: str) -> list[tuple[str, Weapon, WeaponProfile]]:
    """``(notation name, weapon, profile)`` for each profile of the ``kind`` weapons."""
    return [
        (weapon_name(weapon, prof), weapon, prof)
        for weapon in weapons
        if weapon.kind == kind
        for prof in weapon.profiles
    ]


def find_weapon(
    w: Work, o: OperativeState, name: str, kind: str
) -> tuple[str, Weapon, WeaponProfile]:
    """The weapon profile of ``o`` called ``name`` (exact, else a unique prefix).

    Raises:
        IllegalActionError: no such weapon of that kind; AmbiguousActionError: several."""
    options = weapons_of(w, o.id, kind)
    exact = [t for t in options if t[0] == name]
    if exact:
        return exact[0]
    hits = [t for t in options if t[0].startswith(name)]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise AmbiguousActionError(
            f"weapon {name!r} matches {', '.join(t[0] for t in hits)} of {o.id}"
        )
    names = ", ".join(t[0] for t in options) or "none"
    raise _illegal(f"{o.id} has no {kind} weapon {name!r} ({kind} weapons: {names})")


def weapon_usable(w: Work, o: OperativeState, name: str, profile: WeaponProfile) -> str | None:
    """Why the weapon cannot be used now (Heavy after moving, Limited used up, a team weapon
    rule's ``would_refuse_weapon`` hook), or None."""
    rules = profile.rules
    heavy = rules.get(Heavy)
    if heavy is not None and o.moved:
        only = getattr(heavy, "only", None)
        allowed = only.title() if only else None
        moves = [d for d in o.done if d in MOVE_VERBS]
        if allowed is None or any(m != allowed for m in moves):
            return f"{name} is Heavy and {o.id} moved this activation (6 Heavy)"
    lim = weapon_limit(w, o, name, profile)
    if lim is not None:
        key, x = lim
        if dict(o.limited).get(key, 0) >= x:
            return f"{key} is Limited {x} and has been used up (2.2, 6 Limited)"
    # Team weapon rules may refuse the weapon (e.g. Concealed Position*, engine.rules).
    refused: str | None = w.would("would_refuse_weapon", None, op=o, weapon=name, profile=profile)
    return refused


def weapon_of(w: Work, o: OperativeState, name: str) -> Weapon | None:
    """The weapon (ranged or melee) one of whose profiles has the notation name ``name``
    (:func:`weapon_name`), or None."""
    for n, weapon, _ in _card_profiles(w, o.id, "ranged"):  # (the first ones searched below)
        if n == name:
            return weapon
    for kind in ("ranged", "melee"):
        for n, weapon, _ in weapons_of(w, o.id, kind):
            if n == name:
                return weapon
    return None


def primary_weapon_name(w: Work, o: OperativeState, name: str) -> str:
    """The primary name (notation form, no profile) of the weapon whose profile is called
    ``name``: ``"plasma gun (supercharge)"`` -> ``"plasma gun"``. Profiles share it and a rule
    naming it covers all of them (2.2): key per-weapon counts (Limited, once per battle) by
    it. ``name`` itself when ``o`` has no such weapon."""
    weapon = weapon_of(w, o, name)
    return " ".join(weapon.name.lower().split()) if weapon is not None else name


def weapon_limit(
    w: Work, o: OperativeState, name: str, profile: WeaponProfile
) -> tuple[str, int] | None:
    """``(primary name, x)`` when the weapon whose profile ``profile`` is called ``name``
    (notation name) is Limited x, else None.

    Limited counts uses of the weapon, not of one profile: its profiles share the primary
    name and a rule naming the primary name covers all of them (2.2), so every profile of a
    weapon that has Limited on any profile counts towards, and is gone with, the same x uses
    (the profile's own x when it has one, else the smallest x of its other profiles).
    ``OperativeState.limited`` is keyed by :func:`primary_weapon_name`."""
    own = profile.rules.get(Limited)
    weapon = weapon_of(w, o, name)
    if weapon is None:
        return (name, int(getattr(own, "x", 1))) if own is not None else None
    key = " ".join(weapon.name.lower().split())
    if own is not None:
        return key, int(getattr(own, "x", 1))
    xs = [
        int(getattr(lim, "x", 1))
        for p in weapon.profiles
        if (lim := p.rules.get(Limited)) is not None
    ]
    return (key, min(xs)) if xs else None


def in_range(
    w: Work, shooter: OperativeState, target: OperativeState, profile: WeaponProfile
) -> bool:
    """Within the weapon's Range x (6), measured between bases (3D between levels)."""
    rng = profile.rules.get(Range)
    if not isinstance(rng, Range):
        return True
    return w.distance(w.place(shooter), w.place(target)) <= rng.distance + 1e-6


def shoots_in_control_range(w: Work, o: OperativeState, profile: WeaponProfile) -> bool:
    """A team weapon rule lets ``o`` Shoot with this weapon while within control range of an
    enemy operative (the ``would_shoot_in_control_range`` hook, e.g. Explosive*; 3.2)."""
    return bool(w.would("would_shoot_in_control_range", False, op=o, profile=profile))


def silent(profile: WeaponProfile) -> bool:
    """The weapon has Silent (6)."""
    return profile.rules.has(Silent)
