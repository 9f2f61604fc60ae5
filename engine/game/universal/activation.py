"""Activations, counteractions, On Guard interrupts and free actions (``rules/KT24.md`` 1.5,
1.6, 3.1, 9.3) as frames, listing and performing an operative's actions: the universal
actions (:data:`engine.game.universal.catalogue.ACTIONS`, then those rule modules add) and
the rule actions (:mod:`engine.game.rule_actions`)."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from engine.game import ploys, rule_actions
from engine.game.actions import (
    MOVE_VERBS,
    Action,
    AmbiguousActionError,
    IllegalActionError,
    is_attack_header,
)
from engine.game.bookkeeping import (
    IN_CR_REFUSED,
    OUT_OF_CR_REFUSED,
    Activity,
    Listing,
    UniversalAction,
    cite,
    order_refusal,
    precheck,
    rule_precheck,
    spend,
)
from engine.game.damage import remove_casualties
from engine.game.state import Decision, Effect, OperativeState
from engine.game.universal.attack_actions import attack_options
from engine.game.universal.catalogue import ACTIONS
from engine.game.universal.movement import (
    ACTION_CUT,
    action_cut,
    header_refusal,
    move_destinations,
)
from engine.game.work import Work
from engine.geometry.movement import ReachMemo

__all__ = [
    "ActivationFrame",
    "AttackFrame",
    "DeclaredActionFrame",
    "DestinationFrame",
    "core_actions",
    "has_action_options",
    "iter_action_options",
    "list_action_options",
    "perform",
    "rule_universal_actions",
    "start_activation",
    "start_counteract",
    "start_free_action",
    "universal_action",
]


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


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
        raise IllegalActionError(
            f"{op} is not on the killzone: it cannot act ({cite(w, 'not_on_killzone')})"
        )
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


@attrs.frozen(slots=True, repr=False)
class ActivationFrame(Activity):
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
        no_destination: move verbs whose header was chosen and found to have no destination
            (``Back`` at the :class:`DestinationFrame`): not listed nor accepted as a header
            again until the next action begins or a ploy is used (left out of the repr,
            and so of the state hash, while empty: states without it hash as before).
        travelled: in a counteraction, the inches the operative has moved in it so far, by
            any move (its action's, a free action's, a rule's: 1.6, at most 2" in all;
            :func:`engine.game.universal.movement.counteract_left`); left out of the repr
            while 0.

    A move action is listed as its header (``Reposition KAS-1``, no point) and its
    destination is a decision of its own (:class:`DestinationFrame`): only the chosen move's
    destinations are computed. A complete move (``Reposition KAS-1 to 8,4``) is still legal
    here in one step. Likewise the Shoot action is listed as its header (``Shoot KAS-1``)
    when it has a valid (weapon, target) pair, the first found ending the search, and its
    weapon and target are a decision of their own (:class:`AttackFrame`); a complete Shoot
    (``Shoot KAS-1 bolt pistol at LEG-2``) is still legal here in one step.
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
    no_destination: tuple[str, ...] = ()
    travelled: float = 0.0

    def __repr__(self) -> str:
        # The attrs repr, ``no_destination`` and ``travelled`` only when set (module
        # docstring of the fields).
        shown = (
            f"{f.name}={getattr(self, f.name)!r}"
            for f in _ACTIVATION_FIELDS
            if (f.name != "no_destination" or self.no_destination)
            and (f.name != "travelled" or self.travelled)
        )
        return f"ActivationFrame({', '.join(shown)})"

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
            if (
                self.mode == "activation"
                and o.alive
                and w.ctx.hooks.would.get("after_action_window")
                and w.would("after_action_window", False, frame=self)
            ):
                # A rule's window after an enemy action (the On Guard interrupt, 9.3): the
                # ``after_action_window`` hooks, fn(w, opened, frame=) -> opened, push it.
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
        return self.listing(w)

    def listing(self, w: Work, destinations: bool = False) -> list[Action]:
        """The listed actions (:meth:`options`); with ``destinations``, the complete actions
        instead of the headers: every move action at its destinations and every Shoot at each
        weapon and target (the listing before the destination and ``attack_target``
        decisions were their own; :func:`engine.game.flow.list_complete_actions`)."""
        o = w.op(self.op)
        out = list_action_options(w, o, self.mode, destinations, self.no_destination)
        if self.mode == "free":
            out = [a for a in out if _free_allowed(a, self.allowed)]
        # An interrupt must Shoot or Fight if it can, a compulsory free action be performed
        # (a move header without a destination does not count: the complete listing).
        must = self._must_act() and (
            bool(out) if destinations or self.mode == "interrupt" else self._free_options(w, o)
        )
        if not must:
            out.append(Action("End activation"))
        if self.mode == "activation" and w.ctx.hooks.ploys.get("during_activation"):
            out += ploys.ploy_options(w, o.player, "during_activation", {"op": o.id})
        return out

    def _free_options(self, w: Work, o: OperativeState) -> bool:
        """A free action of this frame's is listed now (a move at one of its destinations)."""
        return any(
            _free_allowed(x, self.allowed)
            for x in iter_action_options(w, o, "free", True, self.no_destination)
        )

    def _must_act(self) -> bool:
        """An interrupt (9.3) or a compulsory free action not yet performed."""
        return self.mode == "interrupt" or (self.compulsory and self.actions == 0)

    def act(self, w: Work, a: Action) -> None:
        o = w.op(self.op)
        if a.verb == "End activation":
            if self.mode == "interrupt" and has_action_options(w, o, self.mode):
                raise _illegal(
                    "an On Guard interrupt must perform its Shoot or Fight "
                    f"({cite(w, 'interrupt')})"
                )
            if self.compulsory and self.actions == 0 and self._free_options(w, o):
                raise _illegal(
                    f"{o.id} must perform the rest of its action: {' or '.join(self.allowed)}"
                )
            self.end(w)
            return
        if a.verb in ("Ploy", "Use") and self.mode == "activation":
            # A ploy (or a rule's free option, ``Use ...``) used between actions of the
            # activation ("during_activation"): not an action; the activation goes on (the
            # positions may change: the move verbs found without a destination are offered
            # again).
            if self.no_destination:
                w.replace_top(no_destination=())
            ploys.use_ploy(w, o.player, "during_activation", a, {"op": o.id})
            return
        if a.op and a.op != o.id:
            raise _illegal(f"{o.id} is the active operative, not {a.op}")
        if self.mode == "free" and not _free_allowed(a, self.allowed):
            raise _illegal(
                f"{a}: the free action granted to {o.id} is {' or '.join(self.allowed)} "
                f"({cite(w, 'free_granted')})"
            )
        if a.point is None and a.verb in MOVE_VERBS:
            self._choose_move(w, o, a.verb)
            return
        if is_attack_header(a):
            self._choose_attack(w, o, a.verb)
            return
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

    def _choose_move(self, w: Work, o: OperativeState, verb: str) -> None:
        """The header of the move action ``verb`` was chosen: its destination is decided next
        (:class:`DestinationFrame`); nothing else changes."""
        if verb in self.no_destination:
            raise _illegal(
                f"{verb} {o.id} has no destination from here: choose another action "
                f"({cite(w, 'no_destination')})"
            )
        why = header_refusal(w, o, verb, self.mode, None)
        if why is not None:
            raise _illegal(why)
        w.stack.append(DestinationFrame(op=o.id, verb=verb))

    def _choose_attack(self, w: Work, o: OperativeState, verb: str) -> None:
        """The header of the attack action ``verb`` (``Shoot KAS-1``) was chosen: its weapon
        and target are decided next (:class:`AttackFrame`); nothing else changes. It is
        accepted exactly when it is listed: its conditions hold and a weapon has a valid
        target (the first such pair found)."""
        if next(attack_options(w, o, verb, self.mode), None) is None:
            why = precheck(w, o, verb, self.mode)
            raise _illegal(
                why
                or f"{o.id} has no weapon with a valid target for {verb} now "
                f"({cite(w, 'no_target')})"
            )
        w.stack.append(AttackFrame(op=o.id, verb=verb))

    def start(self, w: Work, a: Action) -> None:
        """Begin the action ``a`` (this frame on top, its checks done by :func:`perform`)."""
        o = w.op(self.op)
        watched = bool(w.ctx.hooks.ploys.get("stat_changed"))  # (the stat_changed window)
        before = tuple(e for e in w.effects if e.op and e.kind != "token") if watched else ()
        w.replace_top(
            stage="after", actions=self.actions + 1, last=a.verb, before=before, no_destination=()
        )
        perform(w, o, a, self.mode)


_ACTIVATION_FIELDS = attrs.fields(ActivationFrame)


@attrs.frozen(slots=True)
class DestinationFrame:
    """The destination decision of a move action whose header (``Reposition KAS-1``) the
    operative of the :class:`ActivationFrame` below chose (3.2, 3.3; decision kind
    ``destination``): its options are the complete actions at the listed destinations
    (:func:`~engine.game.universal.movement.move_destinations`, computed only for this
    move); any other exact point the move reaches is accepted too (scripted input). Nothing
    is spent and nothing changes but this frame until a destination is chosen; then the
    complete action is the activation's, as if chosen in one step there (the
    ``action_declared`` window, its checks, its AP).

    When the move has no destination (a header is listed on cheap conditions: its
    :func:`~engine.game.bookkeeping.precheck`, for a Charge an enemy close enough), the only
    option is ``Back``: the action decision again, with that verb marked unavailable for this
    choice (``ActivationFrame.no_destination``) so it is not offered again and no player can
    go round in circles.

    Attributes:
        op: the moving operative. verb: the move action (``"Reposition"``...).
    """

    op: str
    verb: str

    def run(self, w: Work) -> None:
        w.decide(w.op(self.op).player, "destination")

    def _found(self, w: Work) -> list[Action]:
        """The listed destinations, this frame popped (the activation frame on top, as when
        the move is chosen in one step)."""
        frame: ActivationFrame = w.top
        return move_destinations(w, w.op(self.op), self.verb, frame.mode)

    def options(self, w: Work) -> list[Action]:
        w.stack.pop()  # (a listing's own working copy)
        return self._found(w) or [Action("Back")]

    def act(self, w: Work, a: Action) -> None:
        w.stack.pop()
        if a.verb == "Back":
            if self._found(w):
                raise _illegal(
                    f"{self.verb} {self.op} has destinations: Back is offered only when it "
                    "has none (choose one, or any point the move reaches)"
                )
            below: ActivationFrame = w.top
            w.replace_top(no_destination=(*below.no_destination, self.verb))
            return
        if a.verb != self.verb or a.point is None or (a.op and a.op != self.op):
            raise _illegal(
                f"{a} is not possible now: the destination of {self.verb} {self.op} is "
                f"chosen ('{self.verb} {self.op} to x,y')"
            )
        w.top.act(w, a)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise _illegal("no dice here")


@attrs.frozen(slots=True)
class AttackFrame:
    """The weapon and target decision of an attack action whose header (``Shoot KAS-1``) the
    operative of the :class:`ActivationFrame` below chose (3.2, 5.1 steps 1-2; decision kind
    ``attack_target``): its options are the complete actions (``Shoot KAS-1 bolt pistol at
    LEG-2``) exactly as the complete listing of the action decision has them
    (:func:`~engine.game.universal.attack_actions.attack_options`: the same weapons, targets,
    filtering and order), computed only now. Nothing is spent and nothing changes but this
    frame until one is chosen; then the complete action is the activation's, as if chosen in
    one step there (the ``action_declared`` window, its checks, its AP). The header is listed
    and accepted only when a valid pair exists, so this decision always has an option (no
    ``Back``).

    Attributes:
        op: the attacking operative. verb: the attack action (``"Shoot"``).
    """

    op: str
    verb: str

    def run(self, w: Work) -> None:
        w.decide(w.op(self.op).player, "attack_target")

    def options(self, w: Work) -> list[Action]:
        w.stack.pop()  # (a listing's own working copy: the activation frame on top)
        frame: ActivationFrame = w.top
        return list(attack_options(w, w.op(self.op), self.verb, frame.mode))

    def act(self, w: Work, a: Action) -> None:
        w.stack.pop()
        if a.verb != self.verb or is_attack_header(a) or (a.op and a.op != self.op):
            raise _illegal(
                f"{a} is not possible now: the weapon and target of {self.verb} {self.op} are "
                f"chosen ('{self.verb} {self.op} <weapon> at <target>')"
            )
        w.top.act(w, a)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise _illegal("no dice here")


def _refusal(w: Work, a: Action) -> str | None:
    """Why the action ``a`` of the :class:`ActivationFrame` on top cannot begin now, or
    ``None``: it is tried on a copy (nothing applied here)."""
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


def _free_name(a: Action) -> str:
    """The name a free action grant uses for ``a``: its verb, or a rule action's name."""
    return a.text if a.verb == "Act" else a.verb


def _free_allowed(a: Action, allowed: tuple[str, ...]) -> bool:
    """``a`` is one of the ``allowed`` free actions: its verb or rule action name, or a rule
    action with an argument (``Act KAS-1 secure centre`` for ``secure``)."""
    name = _free_name(a)
    return name in allowed or (a.verb == "Act" and any(name.startswith(x + " ") for x in allowed))


def list_action_options(
    w: Work,
    o: OperativeState,
    mode: str,
    destinations: bool = False,
    unavailable: tuple[str, ...] = (),
) -> list[Action]:
    """The listed legal actions of ``o`` in ``mode``: a move action as its header
    (``Reposition KAS-1``, its destination decided next), or with ``destinations`` at each
    of its listed destinations (complete actions); less the move verbs ``unavailable``."""
    return list(iter_action_options(w, o, mode, destinations, unavailable))


def has_action_options(w: Work, o: OperativeState, mode: str) -> bool:
    """Whether ``o`` has a listed legal action (``bool(list_action_options(...))``, stopping
    at the first one found)."""
    return next(iter_action_options(w, o, mode), None) is not None


def rule_universal_actions(w: Work) -> tuple[UniversalAction, ...]:
    """The universal actions rule modules add to the core's (:data:`ACTIONS`), listed after
    them (the Close Quarters actions, 9.3): the *would* hooks ``"universal_actions"``
    (``fn(w, actions) -> actions``, its own added)."""
    if "universal_actions" not in w.ctx.hooks.would:
        return ()
    return tuple(w.would("universal_actions", ()))


def core_actions(w: Work) -> tuple[UniversalAction, ...]:
    """The battle's core universal actions: :data:`ACTIONS`, or the ones its ruleset plays
    instead (the *would* hooks ``"core_universal_actions"``: KT21's, ``rules/KT21.md`` 6.1)."""
    if "core_universal_actions" not in w.ctx.hooks.would:
        return ACTIONS
    return tuple(w.would("core_universal_actions", ACTIONS))


def universal_action(w: Work, verb: str) -> UniversalAction | None:
    """The universal action (the core's or a rule module's) whose verb is ``verb``."""
    for act in core_actions(w):
        if act.verb == verb:
            return act
    return next((act for act in rule_universal_actions(w) if act.verb == verb), None)


def iter_action_options(
    w: Work,
    o: OperativeState,
    mode: str,
    destinations: bool = False,
    unavailable: tuple[str, ...] = (),
) -> Iterator[Action]:
    """The listed legal actions of ``o``, in the order of :func:`list_action_options` (and
    with its arguments), each group computed only when the previous ones have been consumed:
    the universal actions (:data:`ACTIONS`, then :func:`rule_universal_actions`), then the
    rule actions."""
    in_cr = w.in_enemy_control_range(o)
    at = Listing(
        in_cr,
        # (what precheck refuses whatever else holds, by control range alone: not asked)
        IN_CR_REFUSED if in_cr else OUT_OF_CR_REFUSED,
        ReachMemo(),  # the four move actions share their checks from this position
        destinations,
        unavailable,
    )
    for kind in core_actions(w):
        yield from kind.options(w, o, mode, at)
    for kind in rule_universal_actions(w):
        yield from kind.options(w, o, mode, at)
    for act in rule_actions.actions_of(w, o):
        offered = getattr(act, "offered", None)  # (cheap: e.g. a mission action not in play)
        if offered is not None and not offered(w, o):
            continue
        if rule_precheck(w, o, act, mode) is None:
            yield from act.options(w, o, mode)


def perform(w: Work, o: OperativeState, a: Action, mode: str) -> None:
    """Validate and perform the action ``a`` of operative ``o`` (3.2): a rule action
    (``Act``), or a universal action (:func:`universal_action`).

    Raises:
        IllegalActionError: naming the rule that forbids it.
    """
    verb = a.verb
    if verb == "Act":
        _perform_rule_action(w, o, a, mode)
        return
    act = universal_action(w, verb)
    if act is None:
        raise _illegal(f"{a} is not an action of an activation ({cite(w, 'not_an_action')})")
    why = precheck(w, o, verb, mode)  # an interrupt's point-blank shot: shoot.start_shoot
    if why is not None:
        raise _illegal(why)
    if o.on_guard and mode != "interrupt" and not act.keeps_guard:
        # 9.3: on guard until it performs an action (moves emit their own reason).
        o = w.set_op(o.id, on_guard=False)
        w.emit("guard_ended", op=o.id, why="it performed an action")
    act.perform(w, o, a, mode)


def _perform_rule_action(w: Work, o: OperativeState, a: Action, mode: str) -> None:
    act = rule_actions.find_rule_action(w, o, a.text)
    if act is None:
        raise _illegal(f"{a}: {o.id} has no action called {a.text!r} ({cite(w, 'no_such_action')})")
    why = rule_precheck(w, o, act, mode) or act.check(w, o, a, mode)
    if why is not None:
        raise _illegal(why)
    if o.on_guard and mode != "interrupt":
        o = w.set_op(o.id, on_guard=False)
        w.emit("guard_ended", op=o.id, why="it performed an action")
    spend(w, o, act.text, mode, ap=act.ap, family=act.family)
    w.emit("rule_action", op=o.id, action=act.name)
    act.perform(w, w.op(o.id), a, mode)
