"""The immutable game state and its nodes (DESIGN.md "The game"; ``rules/KT24.md`` 1-5).

A :class:`GameState` is a frozen value: the turning point, phase, initiative, CP and VP per
player, every operative's dynamic state (:class:`OperativeState`), active effects, objective
markers, open hatchways, the stack of procedures in progress (frames, ``engine.game.frames``)
and the current :data:`Node`. Everything that never changes during a battle (the killzone,
the rosters, datacards, hooks, options) lives in the shared :class:`GameContext`, which is not
part of equality or the state hash.

Exactly one node at a time: :class:`Decision` (a player must choose one of
``legal_actions()``), :class:`Chance` (dice must be rolled: ``chance_outcomes()``) or
:class:`Terminal` (the battle is over). :meth:`GameState.apply` returns a new state and the
events the action produced; the old state is unchanged.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from engine.game.actions import Action

if TYPE_CHECKING:
    from engine.game.context import GameContext, GameOptions, Hooks
    from engine.game.events import Event
    from engine.geometry import Killzone
    from engine.teams.model import Roster

__all__ = [
    "BattleRules",
    "Chance",
    "Decision",
    "DiceRequest",
    "Effect",
    "GameState",
    "LegalActions",
    "MarkerState",
    "Node",
    "OperativeState",
    "PlayerState",
    "Result",
    "RulesetLike",
    "Terminal",
]

PLAYERS = ("A", "B")


def other(player: str) -> str:
    """The opponent of ``player`` (``"A"`` or ``"B"``)."""
    return "B" if player == "A" else "A"


@attrs.frozen(slots=True)
class OperativeState:
    """One operative's dynamic state.

    Attributes:
        id: its id in notation (``"KAS-1"``); ``player``: ``"A"`` or ``"B"``.
        x, y, elevation: position in inches (quantised); meaningless while ``placed`` is False.
        placed: on the killzone (set up and not removed).
        wounds: wounds left (the datacard gives the starting value).
        order: ``"engage"`` or ``"conceal"``.
        ready: ready (True) or expended (False) this turning point.
        ap: action points left in its activation or counteraction.
        incapacitated: incapacitated (removed at the end of the action, then ``placed`` False).
        counteracted: it counteracted this turning point (1.6).
        interrupted: it made an On Guard interrupt this turning point (9.3).
        on_guard: it is on guard (9.3).
        done: universal actions performed in the current activation or counteraction.
        moved: it moved in the current activation or counteraction (Heavy).
        heavy_shot: it used a Heavy weapon in the current activation or counteraction;
            ``heavy_only`` the move it still may make (``""`` none, else ``"Dash"``...).
        carrying: the names of the markers it carries (objective markers and rule modules'
            markers, :class:`~engine.game.tokens.Token`), in the order it took them; one
            unless a rule lets it carry more (3.2).
        limited: ``(weapon, uses)`` pairs for Limited weapons, sorted; keyed by the weapon's
            primary name, so that every profile counts towards the same uses (2.2).
        ap_gained: it had an activation this turning point.
    """

    id: str
    player: str
    x: float = 0.0
    y: float = 0.0
    elevation: float = 0.0
    placed: bool = False
    wounds: int = 0
    order: str = "conceal"
    ready: bool = True
    ap: int = 0
    incapacitated: bool = False
    counteracted: bool = False
    interrupted: bool = False
    on_guard: bool = False
    done: tuple[str, ...] = ()
    moved: bool = False
    heavy_shot: bool = False
    heavy_only: str = ""
    carrying: tuple[str, ...] = ()
    limited: tuple[tuple[str, int], ...] = ()
    ap_gained: bool = False

    @property
    def alive(self) -> bool:
        """On the killzone and not incapacitated."""
        return self.placed and not self.incapacitated


@attrs.frozen(slots=True)
class PlayerState:
    """One player's resources: command points, victory points (kill op), kill grade, the
    initiative cards held (AO 2025), and the drop zone (``"A"``/``"B"`` of the layout).

    Attributes:
        cp_spent: command points spent in the battle.
        ploys_used: the names of the ploys (and other once-per-turning-point strategic
            gambits) used this turning point, in use order (7.1, 1.4).
        equipment: the universal equipment options selected (7.2), in selection order.
        uses: ``(key, count)`` counters kept for the player by rule modules (uses of a
            shared equipment item, once-per-battle rules...), sorted by key.
    """

    cp: int = 0
    vp: int = 0
    kill_grade: int = 0
    cards: tuple[str, ...] = ()
    drop_zone: str = ""
    cp_spent: int = 0
    ploys_used: tuple[str, ...] = ()
    equipment: tuple[str, ...] = ()
    uses: tuple[tuple[str, int], ...] = ()


@attrs.frozen(slots=True)
class MissionState:
    """The mission's part of the state (``rules/KT24.md`` 8): which ops are in play, the VP
    each op has scored, and the facts the op modules keep. The core reads none of it but
    :mod:`engine.game.observation`, which hides what a player may not see.

    Attributes:
        crit_op: the crit op's name (``""``: none, or not rolled yet).
        tac_ops: each player's tac op (A, B), secret until revealed (``""``: none yet).
        tac_revealed: whether each player's tac op is revealed (A, B).
        primary_ops: each player's primary op, ``"crit"``, ``"tac"`` or ``"kill"``, secret
            until the end of the battle (``""``: none yet).
        vp: ``(op, A, B)`` VP scored by each op (``"kill"``, ``"crit"``, ``"tac"``,
            ``"primary"``) in the battle, sorted by op.
        tp_vp: the same for the current turning point (per-turning-point caps).
        facts: ``(key, value)`` pairs the op modules keep (secured markers, tokens on
            markers...), sorted by key; values are hashable and have a stable ``repr``. A key
            starting ``"secret:A:"`` (or ``"secret:B:"``) is hidden from the other player.
    """

    crit_op: str = ""
    tac_ops: tuple[str, str] = ("", "")
    tac_revealed: tuple[bool, bool] = (False, False)
    primary_ops: tuple[str, str] = ("", "")
    vp: tuple[tuple[str, int, int], ...] = ()
    tp_vp: tuple[tuple[str, int, int], ...] = ()
    facts: tuple[tuple[str, Any], ...] = ()

    def fact(self, key: str, default: Any = None) -> Any:
        """The value of fact ``key`` (``default`` when unset)."""
        for k, v in self.facts:
            if k == key:
                return v
        return default

    def op_vp(self, op: str, player: str, *, this_tp: bool = False) -> int:
        """VP ``player`` has scored from ``op`` in the battle (or this turning point)."""
        for name, a, b in self.tp_vp if this_tp else self.vp:
            if name == op:
                return a if player == "A" else b
        return 0


_NO_MISSION = MissionState()


@attrs.frozen(slots=True)
class MarkerState:
    """An objective marker: where it is, who carries it, whether it can be picked up."""

    name: str
    x: float
    y: float
    carrier: str = ""
    pickup: bool = False


@attrs.frozen(slots=True)
class Effect:
    """An active effect with a duration.

    Attributes:
        kind: e.g. ``"stun"`` (APL -1), ``"no_retaliate"`` (point-blank shot, 9.3).
        op: the operative it applies to.
        until: when it ends: ``"end_next_activation"`` (ends at the end of the operative's
            next activation), ``"end_activation"`` of the operative ``source`` (the activation
            in progress), or ``"end_tp"``.
            ``"end_battle"``, or ``"while"`` (as long as the condition named ``detail``
            holds, :meth:`engine.game.context.Hooks.condition`).
        source: the operative that caused it.
        value: a number (the stat change: APL, Move in inches, Hit, Save...).
        detail: what the kind needs besides a number (a weapon rule gained, a condition).
        player: the player an effect on a whole kill team applies to (``op`` then ``""``).
        pending: begun during an action in progress: it applies once that action is
            complete (2.1, decision 7).
    """

    kind: str
    op: str
    until: str
    source: str = ""
    value: int = 0
    detail: str = ""
    player: str = ""
    pending: bool = False


@attrs.frozen(slots=True)
class DiceRequest:
    """What a chance node rolls.

    Attributes:
        kind: ``"roll_off"``, ``"attack"``, ``"defence"``, ``"reroll"``, ``"hot"``...
        player: who rolls (``"A"``/``"B"``).
        dice: how many D6.
        ordered: the outcome is an ordered tuple (roll-offs: A's die then B's), else a
            multiset listed in descending order.
        label: a short description for narration.
    """

    kind: str
    player: str
    dice: int
    ordered: bool = False
    label: str = ""


@attrs.frozen(slots=True)
class Decision:
    """A player must choose: ``kind`` names the decision (``"activate"``, ``"action"``,
    ``"resolve"``...)."""

    player: str
    kind: str


@attrs.frozen(slots=True)
class Chance:
    """Dice must be rolled."""

    request: DiceRequest


@attrs.frozen(slots=True)
class Result:
    """The end of a battle: VP per player and the winner (``"A"``, ``"B"`` or ``""`` for a
    draw, 1.8 and decision 5)."""

    vp: tuple[int, int]
    winner: str
    kill_grades: tuple[int, int] = (0, 0)


@attrs.frozen(slots=True)
class Terminal:
    """The battle is over."""

    result: Result


Node = Decision | Chance | Terminal


class RulesetLike(Protocol):
    """What the core asks of a ruleset (DESIGN.md "Rulesets"; the rulesets themselves are
    :class:`engine.rulesets.Ruleset` values, above the core, which names none of them).

    Attributes:
        name: the ruleset's name, as :attr:`GameOptions.ruleset
            <engine.game.context.GameOptions>` and record headers give it (``"kt24"``).
    """

    @property
    def name(self) -> str:
        """The ruleset's name (``"kt24"``)."""

    def install(self, hooks: Hooks, options: GameOptions, rosters: Mapping[str, Roster]) -> None:
        """Add the ruleset's rules to a new battle's ``hooks`` (its rule modules, in their
        order: hook order decides behaviour).

        Raises:
            GameOptionsError: options the ruleset's rules refuse (an unknown op name...).
        """

    def op_name(self, name: str, kind: str) -> str | None:
        """The canonical name of the op of ``kind`` (``"crit"``, ``"tac"``) called
        ``name`` in any case, or ``None`` when the ruleset has no such op (``rules/KT24.md``
        8)."""

    def battle_killzone(self, killzone: Killzone, options: GameOptions) -> Killzone:
        """The killzone a battle of these ``options`` is played on, given the one it is
        started with: itself, or it with the objective markers the mission sets up (KT21's
        six, ``rules/KT21.md`` 15.2).

        Raises:
            GameOptionsError: options the mission refuses."""

    def start_frame(self) -> Any:
        """The first frame of a new battle of this ruleset (its set-up procedure: KT24's
        roll-off, ``rules/KT24.md`` 1.2; KT21's Attacker/Defender roll-off, ``rules/KT21.md``
        1.2), a :class:`engine.game.work.Frame`."""


@attrs.frozen(slots=True)
class BattleRules:
    """What a battle runs on, kept in its context (:attr:`GameContext.rules
    <engine.game.context.GameContext>`, set by :func:`engine.game.setup.start_battle`): the
    ruleset it plays and the procedures of the flow (:mod:`engine.game.flow`) its states call,
    so that this module imports no frame module.

    Attributes:
        ruleset: the battle's :class:`RulesetLike`.
        list_actions: ``fn(state)``: the legal actions of a state, in canonical order.
        chance_outcomes: ``fn(state)``: a chance node's outcomes with their weights.
        apply: ``fn(state, action) -> (state, events)``.
        is_legal: ``fn(state, action) -> bool``.
    """

    ruleset: RulesetLike
    list_actions: Callable[[GameState], list[Action]]
    chance_outcomes: Callable[[GameState], list[tuple[Action, int]]]
    apply: Callable[[GameState, Action | str], tuple[GameState, list[Event]]]
    is_legal: Callable[[GameState, Action | str], bool]


class LegalActions(Sequence[Action]):
    """The legal actions of a state, in canonical order, computed on first use.

    ``action in legal`` checks the action against the rules directly, so an exact destination
    that is not among the listed candidates is still found legal; iteration, ``len`` and
    indexing give the listed actions (movement destinations come from a deterministic
    candidate generator)."""

    __slots__ = ("_items", "_state")

    def __init__(self, state: GameState) -> None:
        self._state = state
        self._items: list[Action] | None = None

    def _list(self) -> list[Action]:
        if self._items is None:
            memo = self._state._memo
            items = memo.get("legal")
            if items is None:
                rules: BattleRules = self._state.ctx.rules
                items = memo["legal"] = rules.list_actions(self._state)
            self._items = items
        return self._items

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action):
            return False
        return self._state.is_legal(action)

    def __iter__(self) -> Iterator[Action]:
        return iter(self._list())

    def __len__(self) -> int:
        return len(self._list())

    def __getitem__(self, i: Any) -> Any:
        return self._list()[i]

    def __repr__(self) -> str:
        return f"LegalActions({self._list()!r})"


@attrs.frozen(slots=True, cache_hash=True)
class GameState:
    """The whole state of a battle (module docstring).

    Attributes:
        ctx: the shared :class:`~engine.game.context.GameContext` (not compared or hashed).
        tp: turning point (0 during set-up, 1-4, 5 after the battle).
        phase: ``"setup"``, ``"strategy"``, ``"firefight"`` or ``"over"``.
        initiative: the player with initiative (``""`` before it is decided).
        players: :class:`PlayerState` for A and B.
        operatives: every operative of A then B, in roster order.
        markers: the objective markers.
        effects: active effects, in the order they began.
        open_hatchways: names of the open hatchways, sorted.
        stack: the procedures in progress (frames), innermost last.
        node: the current node.
        step: the number of inputs applied so far.
        tokens: equipment markers and terrain on the killzone
            (:class:`~engine.game.tokens.Token`), in the order they were set up.
        mission: the mission's ops, VP by op and facts (:class:`MissionState`).
    """

    ctx: GameContext = attrs.field(eq=False, repr=False)
    tp: int
    phase: str
    initiative: str
    players: tuple[PlayerState, PlayerState]
    operatives: tuple[OperativeState, ...]
    markers: tuple[MarkerState, ...]
    effects: tuple[Effect, ...]
    open_hatchways: tuple[str, ...]
    stack: tuple[Any, ...]
    node: Node
    step: int = 0
    tokens: tuple[Any, ...] = ()
    mission: MissionState = MissionState()
    _memo: dict[str, Any] = attrs.field(factory=dict, init=False, eq=False, repr=False, hash=False)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (and ``copy``) the state's values, not its memo; the context pickles as
        its recipe (:class:`~engine.game.context.GameContext`) and a copy shares it."""
        return (
            GameState,
            (
                self.ctx,
                self.tp,
                self.phase,
                self.initiative,
                self.players,
                self.operatives,
                self.markers,
                self.effects,
                self.open_hatchways,
                self.stack,
                self.node,
                self.step,
                self.tokens,
                self.mission,
            ),
        )

    # -- queries ------------------------------------------------------------------------

    def player(self, name: str) -> PlayerState:
        """The :class:`PlayerState` of ``"A"`` or ``"B"``."""
        return self.players[0 if name == "A" else 1]

    def operative(self, op_id: str) -> OperativeState:
        """The :class:`OperativeState` with id ``op_id``.

        Raises:
            KeyError: for an unknown id.
        """
        return self.operatives[self.ctx.index[op_id]]

    @property
    def is_terminal(self) -> bool:
        """Whether the battle is over."""
        return isinstance(self.node, Terminal)

    def legal_actions(self) -> LegalActions:
        """The legal actions at a :class:`Decision` node in canonical order (a
        :class:`LegalActions` sequence), or the outcomes at a :class:`Chance` node; empty at a
        :class:`Terminal` node."""
        return LegalActions(self)

    def chance_outcomes(self) -> list[tuple[Action, int]]:
        """At a :class:`Chance` node, every outcome with its integer weight (they sum to
        6^dice).

        Raises:
            ValueError: when the node is not a chance node.
        """
        rules: BattleRules = self.ctx.rules
        return rules.chance_outcomes(self)

    def apply(self, action: Action | str) -> tuple[GameState, list[Event]]:
        """Apply a decision or chance outcome (an :class:`Action` or its notation).

        Returns:
            ``(new state, events)``; this state is unchanged.

        Raises:
            InvalidActionError: malformed notation.
            IllegalActionError: the rules forbid it here (the message names the rule).
            AmbiguousActionError: a name matches several things.
        """
        rules: BattleRules = self.ctx.rules
        return rules.apply(self, action)

    def is_legal(self, action: Action | str) -> bool:
        """Whether ``action`` is legal here (checked against the rules, without listing every
        destination)."""
        rules: BattleRules = self.ctx.rules
        return rules.is_legal(self, action)

    def with_hooks(self, add: Callable[[Hooks], object]) -> GameState:
        """This state with more hooks in its context (:meth:`GameContext.with_hooks
        <engine.game.context.GameContext.with_hooks>`: ``add(hooks)`` adds to a builder
        holding the battle's hooks); equal to this one, which is unchanged, as are the
        other states of the battle. For tests and analyses that change the rules of a
        battle under way."""
        return attrs.evolve(self, ctx=self.ctx.with_hooks(add))

    def hash(self) -> str:
        """A stable hex digest of the state (independent of the process and of
        ``PYTHONHASHSEED``), for records."""
        got = self._memo.get("hash")
        if got is not None:
            return str(got)
        text = repr(
            (
                self.tp,
                self.phase,
                self.initiative,
                self.players,
                self.operatives,
                self.markers,
                self.effects,
                self.open_hatchways,
                self.stack,
                self.node,
                self.step,
                *((self.tokens,) if self.tokens else ()),
                *((self.mission,) if self.mission != _NO_MISSION else ()),
            )
        )
        digest = self._memo["hash"] = hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
        return digest

    def alive(self, player: str | None = None) -> list[OperativeState]:
        """Operatives on the killzone and not incapacitated (of ``player`` if given)."""
        return [o for o in self.operatives if o.alive and (player is None or o.player == player)]

    def summary(self) -> Mapping[str, Any]:
        """A small dictionary describing the state (turning point, phase, CP, VP, node)."""
        return {
            "tp": self.tp,
            "phase": self.phase,
            "initiative": self.initiative,
            "cp": [p.cp for p in self.players],
            "vp": [p.vp for p in self.players],
            "node": repr(self.node),
        }
