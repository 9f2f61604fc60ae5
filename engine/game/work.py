"""The working copy the engine edits while applying one input.

:class:`Work` copies a :class:`~engine.game.state.GameState` into lists, the rule code edits
those, and :meth:`Work.freeze` builds the new immutable state. The old state is never touched,
so an input rejected half way (an :class:`~engine.game.actions.IllegalActionError` raised
after some edits) leaves nothing applied: the copy is simply dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import attrs

from engine.game.actions import Action
from engine.game.context import GameContext
from engine.game.events import Event
from engine.game.state import (
    Chance,
    Decision,
    DiceRequest,
    Effect,
    GameState,
    MarkerState,
    Node,
    OperativeState,
    PlayerState,
    Terminal,
    other,
)
from engine.game.vocabulary import (
    CHANCE_KINDS,
    DECISION_KINDS,
    EVENT_KINDS,
    PLOY_TRIGGERS,
    WOULD_HOOKS,
    undeclared,
)
from engine.geometry import Killzone, Placement, sight

__all__ = ["Frame", "Work", "evolve"]


class Frame(Protocol):
    """A procedure in progress, kept on the state's stack (DESIGN.md principle 3). Frames
    are frozen ``attrs`` values; these methods get the working copy ``w`` and change it."""

    def run(self, w: Work) -> None:
        """Advance: set ``w.node`` (a decision, chance or the end) or change the stack."""

    def options(self, w: Work) -> list[Action]:
        """The listed legal decisions while this frame waits for one."""
        return []

    def act(self, w: Work, a: Action) -> None:
        """Apply the decision ``a``.

        Raises:
            IllegalActionError: naming the rule when ``a`` is not legal here."""

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """Apply the chance outcome ``values`` (die faces, checked against the request)."""


_T = TypeVar("_T")
_INIT_FIELDS: dict[type, tuple[tuple[str, str], ...] | None] = {}


def evolve(inst: _T, **changes: Any) -> _T:
    """``attrs.evolve(inst, **changes)`` made faster for the hot paths (an operative, a player
    or the top frame replaced at each step): the class's ``(name, init alias)`` pairs are
    looked up once per class. A class with a field outside ``__init__`` goes through
    ``attrs.evolve`` itself.

    Raises:
        TypeError: a key of ``changes`` is not a field of the class (as ``attrs.evolve``)."""
    cls: Any = inst.__class__
    fields = _INIT_FIELDS.get(cls, ())
    if fields == ():
        every = attrs.fields(cls)
        fields = None if any(not a.init for a in every) else tuple((a.name, a.alias) for a in every)
        _INIT_FIELDS[cls] = fields
    if fields is None:
        return attrs.evolve(inst, **changes)  # type: ignore[misc]
    kwargs = {alias: getattr(inst, name) for name, alias in fields}
    for key in changes:
        if key not in kwargs:
            raise TypeError(f"{cls.__name__} has no field {key!r} to change")
    kwargs.update(changes)
    return cls(**kwargs)  # type: ignore[no-any-return]


class Work:
    """A mutable copy of a state (module docstring)."""

    __slots__ = (
        "_alive_memo",
        "_cr_memo",
        "_did",
        "_kz_memo",
        "_op_memo",
        "_origin",
        "_would",
        "ctx",
        "deferred",
        "effects",
        "events",
        "initiative",
        "markers",
        "mission",
        "node",
        "open_hatchways",
        "ops",
        "phase",
        "players",
        "stack",
        "step",
        "tokens",
        "tp",
    )

    def __init__(self, s: GameState) -> None:
        self.ctx: GameContext = s.ctx
        self._origin = s
        # The hook set's dispatch tables (every declared name -> its hooks), read at each
        # emit/would: kept here to save two attribute look-ups on the hottest call.
        self._did = s.ctx.hooks.did_table
        self._would = s.ctx.hooks.would_table
        self.tp = s.tp
        self.phase = s.phase
        self.initiative = s.initiative
        self.players: list[PlayerState] = list(s.players)
        self.ops: list[OperativeState] = list(s.operatives)
        self.markers: list[MarkerState] = list(s.markers)
        self.effects: list[Effect] = list(s.effects)
        self.open_hatchways = s.open_hatchways
        self.stack: list[Any] = list(s.stack)
        self.node: Node | None = None
        self.step = s.step
        self.tokens: list[Any] = list(s.tokens)  # change by appending or a new list only
        self.mission = s.mission
        self._kz_memo: tuple[Any, ...] | None = None
        # Kept until an operative changes (set_op must stay the only writer of ``ops``): the
        # living operatives by player, and in_enemy_control_range by position (with its
        # killzone).
        self._alive_memo: dict[str | None, list[OperativeState]] | None = None
        self._cr_memo: dict[tuple[str, float, float, float], tuple[Killzone, bool]] | None = None
        self._op_memo: dict[tuple[Any, ...], Any] | None = None
        self.events: list[Event] = []
        self.deferred: list[tuple[str, dict[str, Any]]] = []

    def freeze(self) -> GameState:
        """The new immutable state."""
        assert self.node is not None
        return GameState(
            ctx=self.ctx,
            tp=self.tp,
            phase=self.phase,
            initiative=self.initiative,
            players=(self.players[0], self.players[1]),
            operatives=tuple(self.ops),
            markers=tuple(self.markers),
            effects=tuple(self.effects),
            open_hatchways=self.open_hatchways,
            stack=tuple(self.stack),
            node=self.node,
            step=self.step,
            tokens=tuple(self.tokens),
            mission=self.mission,
        )

    # -- operatives and players ------------------------------------------------------------

    def op(self, op_id: str) -> OperativeState:
        """The operative ``op_id`` (raises KeyError for an unknown id)."""
        return self.ops[self.ctx.index[op_id]]

    def set_op(self, op_id: str, **changes: Any) -> OperativeState:
        """Replace operative ``op_id`` with ``changes`` applied; returns the new value."""
        i = self.ctx.index[op_id]
        new = evolve(self.ops[i], **changes)
        self.ops[i] = new
        self._alive_memo = self._cr_memo = self._op_memo = None
        return new

    def scratch_copy(self) -> Work:
        """A copy of this working state that can be edited and dropped without touching it
        (e.g. to resolve each allocation of saves, 5.1 step 5, and compare the results): a
        plain :class:`Work` (whatever subclass this is, so no decision-long memo of an
        agent's view comes along) whose lists are copied (the states in them are immutable)
        and whose operative memos are empty."""
        c = Work.__new__(Work)
        for name in Work.__slots__:
            setattr(c, name, getattr(self, name))
        c.players = list(self.players)
        c.ops = list(self.ops)
        c.markers = list(self.markers)
        c.effects = list(self.effects)
        c.stack = list(self.stack)
        c.tokens = list(self.tokens)
        c.events = list(self.events)
        c.deferred = list(self.deferred)
        c._alive_memo = c._cr_memo = c._op_memo = None
        return c

    def pl(self, player: str) -> PlayerState:
        """The :class:`PlayerState` of ``"A"`` or ``"B"``."""
        return self.players[0 if player == "A" else 1]

    def set_pl(self, player: str, **changes: Any) -> None:
        """Replace the player's state with ``changes`` applied."""
        i = 0 if player == "A" else 1
        self.players[i] = evolve(self.players[i], **changes)

    def alive(self, player: str | None = None) -> list[OperativeState]:
        """Operatives on the killzone and not incapacitated (of ``player`` if given)."""
        memo = self._alive_memo
        if memo is None:
            memo = self._alive_memo = {}
        got = memo.get(player)
        if got is None:
            got = memo[player] = [
                o for o in self.ops if o.alive and (player is None or o.player == player)
            ]
        return list(got)

    def kept(self, key: tuple[Any, ...], fn: Callable[[], _T]) -> _T:
        """``fn()`` kept under ``key`` until an operative changes (:meth:`set_op`): for a
        value that depends only on the operatives and what ``key`` names (put the killzone's
        ``id(self.kz)`` in it when the value depends on the killzone)."""
        memo = self._op_memo
        if memo is None:
            memo = self._op_memo = {}
        if key in memo:
            return memo[key]  # type: ignore[no-any-return]
        value = memo[key] = fn()
        return value

    def kept_on_kz(self, key: tuple[Any, ...], fn: Callable[[], _T]) -> _T:
        """``fn()`` kept under ``key`` until an operative changes (:meth:`set_op`) or the
        killzone (:attr:`kz`: hatchways, equipment terrain) does: for a value that depends
        only on the operatives, the killzone and what ``key`` names (values, which the memo
        holds)."""
        memo = self._op_memo
        if memo is None:
            memo = self._op_memo = {}
        kz = self.kz
        got = memo.get(key)
        if got is not None and got[0] is kz:
            return got[1]  # type: ignore[no-any-return]
        value = fn()
        memo[key] = (kz, value)
        return value

    def state_memo(self) -> dict[str, Any] | None:
        """The memo of the state this working copy was made from (``GameState._memo``, which
        dies with that state) while the copy still equals it, else ``None``: for a value that
        may depend on anything in the state (a *would* hook can read it all), kept on the
        state's identity.

        "Equals" means every part of the state is the same value (the same objects, or equal
        ones), no event was emitted on the copy and nothing was deferred; the node may still
        be ``None`` (a copy not yet run) or the state's."""
        s = self._origin
        if (
            self.events
            or self.deferred
            or (self.node is not None and self.node is not s.node and self.node != s.node)
            or self.tp != s.tp
            or self.phase != s.phase
            or self.initiative != s.initiative
            or self.step != s.step
            or self.open_hatchways != s.open_hatchways
            or (self.mission is not s.mission and self.mission != s.mission)
            or tuple(self.ops) != s.operatives
            or tuple(self.players) != s.players
            or tuple(self.effects) != s.effects
            or tuple(self.markers) != s.markers
            or tuple(self.tokens) != s.tokens
            or tuple(self.stack) != s.stack
        ):
            return None
        return s._memo

    def enemies_of(self, op_id: str) -> list[OperativeState]:
        """Living enemy operatives of ``op_id``."""
        return self.alive(other(self.ctx.owner[op_id]))

    def friends_of(self, op_id: str) -> list[OperativeState]:
        """Living friendly operatives of ``op_id``, itself excluded."""
        return [o for o in self.alive(self.ctx.owner[op_id]) if o.id != op_id]

    # -- geometry ---------------------------------------------------------------------------

    @property
    def kz(self) -> Killzone:
        """The killzone in the current hatchway state, with the equipment terrain of the
        tokens on it (:mod:`engine.game.tokens`)."""
        tokens = self.tokens
        if not tokens:
            return self.ctx.killzone_for(self.open_hatchways)
        # Kept while the same token list (changed only by appending or by a new list) has the
        # same length and the hatchways are the same: the killzone is a function of them.
        memo = self._kz_memo
        if (
            memo is not None
            and memo[0] is tokens
            and memo[1] == len(tokens)
            and memo[2] == self.open_hatchways
        ):
            return memo[3]  # type: ignore[no-any-return]
        terrain = tuple(t.feature for t in tokens if t.feature is not None)
        kz = self.ctx.killzone_for(self.open_hatchways, terrain)
        self._kz_memo = (tokens, len(tokens), self.open_hatchways, kz)
        return kz

    def move_terrain(self, o: OperativeState) -> tuple[Any, ...]:
        """The killzone changes that apply to ``o``'s movement only (not to sight or cover),
        e.g. terrain a rule lets it move through: the *would* hook ``"would_move_terrain"``
        (``fn(w, changes, op=o) -> changes``, each change a value
        :meth:`engine.geometry.model.Killzone.with_terrain` takes, such as an
        :class:`engine.geometry.extra_terrain.AccessibleSpec`); ``()`` when there are none."""
        if not self.ctx.hooks.would.get("would_move_terrain"):
            return ()
        return tuple(self.would("would_move_terrain", (), op=o))

    def move_kz(self, o: OperativeState) -> Killzone:
        """The killzone ``o`` moves on: :attr:`kz` with the changes that apply to its
        movement only (:meth:`move_terrain`)."""
        extra = self.move_terrain(o)
        if not extra:
            return self.kz
        terrain = tuple(t.feature for t in self.tokens if t.feature is not None)
        return self.ctx.killzone_for(self.open_hatchways, terrain + extra)

    def place(self, o: OperativeState) -> Placement:
        """The :class:`Placement` of ``o`` (position in inches, base in mm)."""
        return self.ctx.placement(o.id, o.x, o.y, o.elevation)

    def distance(self, a: Placement, b: Placement) -> float:
        """Distance between two bases (4.1), around walls under the Close Quarters rules
        (9.3), in inches."""
        if self.ctx.close_quarters:
            return sight.distance_around_walls(self.kz, a, b)
        return sight.distance(a, b)

    def control_range(self, a: OperativeState, b: OperativeState) -> bool:
        """``a`` and ``b`` are within each other's control range (4.2)."""
        return self.ctx.control_range(self.kz, self.place(a), self.place(b))

    def in_enemy_control_range(self, o: OperativeState) -> bool:
        """An enemy operative is within ``o``'s control range (4.2)."""
        kz = self.kz
        key = (o.id, o.x, o.y, o.elevation)
        memo = self._cr_memo
        if memo is None:
            memo = self._cr_memo = {}
        got = memo.get(key)
        if got is not None and got[0] is kz:
            return got[1]
        me, within = self.place(o), self.ctx.control_range
        found = any(within(kz, me, self.place(e)) for e in self.enemies_of(o.id))
        memo[key] = (kz, found)
        return found

    # -- stats -------------------------------------------------------------------------------

    def effects_on(self, op_id: str, kind: str) -> list[Effect]:
        """The effects of ``kind`` that apply to operative ``op_id`` now: on it, or on its
        whole kill team (``Effect.player``); not pending (an effect begun during an action
        applies once the action is complete, 2.1); a ``"while"`` effect only while its
        condition holds."""
        if not self.effects:
            return []
        owner = self.ctx.owner[op_id]
        out = []
        for e in self.effects:
            if e.kind != kind or e.pending:
                continue
            if e.op != op_id and not (not e.op and e.player == owner):
                continue
            if e.until == "while" and not self.holds(e):
                continue
            out.append(e)
        return out

    def holds(self, e: Effect) -> bool:
        """Whether the condition of a ``"while"`` effect holds now (the condition named
        ``e.detail``, :meth:`~engine.game.context.Hooks.condition`; an unknown name never
        holds)."""
        fn = self.ctx.hooks.conditions.get(e.detail)
        return bool(fn(self, e)) if fn is not None else False

    def stat_change(self, op_id: str, kind: str) -> int:
        """The sum of the values of the effects of ``kind`` on ``op_id`` now (2.1: stat
        changes are summed)."""
        return sum(e.value for e in self.effects_on(op_id, kind))

    def in_action(self) -> bool:
        """An action is in progress (an activation frame waits for the end of one)."""
        return any(getattr(f, "in_action", False) for f in self.stack)

    def add_effect(self, effect: Effect) -> Effect:
        """Begin ``effect``; during an action it is pending until the action is complete
        (2.1, decision 7). Emits ``effect_began``. Returns the effect as kept."""
        if self.in_action() and not effect.pending:
            effect = attrs.evolve(effect, pending=True)
        self.effects.append(effect)
        self.emit(
            "effect_began",
            effect=effect.kind,
            op=effect.op,
            player=effect.player,
            until=effect.until,
            value=effect.value,
            detail=effect.detail,
            source=effect.source,
        )
        return effect

    def settle_effects(self) -> None:
        """The action in progress is complete: pending effects now apply (2.1)."""
        if any(e.pending for e in self.effects):
            self.effects = [
                attrs.evolve(e, pending=False) if e.pending else e for e in self.effects
            ]

    def count(self, player: str, key: str, add: int = 0) -> int:
        """The player's counter ``key`` (:attr:`PlayerState.uses`), after adding ``add``."""
        if not add:
            for name, value in self.pl(player).uses:
                if name == key:
                    return value
            return 0
        uses = dict(self.pl(player).uses)
        value = uses.get(key, 0) + add
        if add:
            uses[key] = value
            self.set_pl(player, uses=tuple(sorted(uses.items())))
        return value

    def apl(self, o: OperativeState) -> int:
        """APL with changes summed then clamped to +/-1 of the datacard (2.1); the
        ``would_change_apl`` hooks (``fn(w, change, op=) -> change``) may alter the sum (a
        rule that ignores APL changes)."""
        change = self.stat_change(o.id, "apl")
        if change and "would_change_apl" in self.ctx.hooks.would:
            change = int(self.would("would_change_apl", change, op=o.id))
        return self.ctx.datacards[o.id].apl + max(-1, min(1, change))

    def injured(self, o: OperativeState) -> bool:
        """Fewer than half its starting wounds (2.3)."""
        return 2 * o.wounds < self.ctx.datacards[o.id].wounds

    def injury_penalties(self, o: OperativeState) -> bool:
        """Whether ``o``'s stats are changed by being injured (Move -2", Hit +1; 2.3): it is
        injured and no ``would_apply_injury_penalties`` hook says otherwise (a rule that
        ignores those changes; the operative is still injured)."""
        if not self.injured(o):
            return False
        if not self.ctx.hooks.would.get("would_apply_injury_penalties"):
            return True
        return bool(self.would("would_apply_injury_penalties", True, op=o.id))

    def move_stat(self, o: OperativeState) -> float:
        """Move with its changes (effects of kind ``"move"``, inches, and the
        ``would_change_move`` hooks, ``fn(w, change, op=) -> change``) summed, -2" when
        injured, but never changed below 4" (2.1, 2.3)."""
        printed = self.ctx.datacards[o.id].move
        move = printed + self.stat_change(o.id, "move")
        if "would_change_move" in self.ctx.hooks.would:
            move += float(self.would("would_change_move", 0.0, op=o.id))
        if self.injury_penalties(o):
            move -= 2.0
        return max(min(printed, 4.0), move)

    # -- events and nodes ----------------------------------------------------------------------

    # The names below are declared in engine.game.vocabulary; an undeclared one raises
    # UndeclaredNameError. emit and would check for free: they dispatch through the hook set's
    # tables, which hold every declared name (an empty tuple when nobody listens).

    def emit(self, event: str, **data: Any) -> Event:
        """Record an event of kind ``event`` (an :class:`~engine.game.vocabulary.EventKind`,
        its ``data`` the keys its contract names) and run the *did* hooks subscribed to it, in
        the order they were added.

        Raises:
            UndeclaredNameError: ``event`` is not a declared event kind."""
        try:
            fns = self._did[event]
        except KeyError:
            raise undeclared(EVENT_KINDS, event) from None
        if event.__class__ is not str:
            event = str.__str__(event)  # a vocabulary member: events keep plain names
        ev = Event.make(event, **data)
        self.events.append(ev)
        for fn in fns:
            fn(self, ev)
        return ev

    def would(self, event: str, value: Any, **info: Any) -> Any:
        """Pass ``value`` through the *would* hooks of ``event`` (a
        :class:`~engine.game.vocabulary.Would`; ``value`` and ``info`` as its contract says),
        in their order (:meth:`~engine.game.context.Hooks.transform`); ``value`` itself when
        nobody listens.

        Raises:
            UndeclaredNameError: ``event`` is not a declared *would* hook."""
        try:
            fns = self._would[event]
        except KeyError:
            raise undeclared(WOULD_HOOKS, event) from None
        for fn in fns:
            value = fn(self, value, **info)
        return value

    def decide(self, player: str, kind: str) -> None:
        """Pause at a :class:`Decision` of ``player`` of ``kind`` (a
        :class:`~engine.game.vocabulary.DecisionKind`).

        Raises:
            UndeclaredNameError: ``kind`` is not a declared decision kind."""
        if kind not in DECISION_KINDS:
            raise undeclared(DECISION_KINDS, kind)
        self.node = Decision(player, str.__str__(kind))

    def roll(
        self, kind: str, player: str, dice: int, *, ordered: bool = False, label: str = ""
    ) -> None:
        """Pause at a :class:`Chance` node of ``kind`` (a
        :class:`~engine.game.vocabulary.ChanceKind`) rolling ``dice`` D6 for ``player``.

        Raises:
            UndeclaredNameError: ``kind`` is not a declared chance kind."""
        if kind not in CHANCE_KINDS:
            raise undeclared(CHANCE_KINDS, kind)
        kind = str.__str__(kind)
        self.node = Chance(DiceRequest(kind, player, dice, ordered, label or kind))

    def defer_window(self, trigger: str, **info: Any) -> None:
        """Ask for a ploy window at ``trigger`` (a :class:`~engine.game.vocabulary.PloyTrigger`;
        :mod:`engine.game.ploys`) once the procedure in progress has finished its changes (the
        engine opens it before running the next frame).

        Raises:
            UndeclaredNameError: ``trigger`` is not a declared ploy trigger."""
        if trigger not in PLOY_TRIGGERS:
            raise undeclared(PLOY_TRIGGERS, trigger)
        self.deferred.append((str.__str__(trigger), info))

    def defer_frame(self, frame: Any) -> None:
        """Push ``frame`` once the procedure in progress has finished its changes (like
        :meth:`defer_window`): for a *did* hook that starts a procedure (a roll...) while the
        frame that emitted the event may still edit itself (the Mines, 7.2)."""
        self.deferred.append(("", {"frame": frame}))

    def finish(self, node: Terminal) -> None:
        """End the battle at ``node``."""
        self.node = node

    @property
    def top(self) -> Any:
        """The innermost frame (the procedure in progress)."""
        return self.stack[-1]

    def replace_top(self, **changes: Any) -> Any:
        """Replace the innermost frame with ``changes`` applied; returns the new frame."""
        new = evolve(self.stack[-1], **changes)
        self.stack[-1] = new
        return new
