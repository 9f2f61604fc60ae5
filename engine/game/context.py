"""What never changes during a battle: killzone, rosters, datacards, options, hooks, and the
geometry caches shared by every state of the battle.

Hooks (DESIGN.md principle 1): weapon rules, ploys, abilities and mission ops subscribe to
named events. A *did* hook ``fn(w, event)`` runs after an event of that kind happened and may
change the working state ``w``; a *would* hook ``fn(w, value, **info) -> value`` transforms a
value before the engine uses it (e.g. ``"would_use_weapon_rules"`` lets Condensed Environment
add Lethal 5+). Hook sets are assembled per battle from the enabled rule modules.

Every event kind, *would* hook and ploy trigger is declared with its contract in
:mod:`engine.game.vocabulary`; subscribing to an undeclared one raises
:class:`~engine.game.vocabulary.UndeclaredNameError` at once (a typo never silently fails to
fire).
"""

from __future__ import annotations

import pickle
import weakref
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Protocol

import attrs

from engine.errors import KillTeamError
from engine.game.hook_values import frozen_lists as _frozen_lists
from engine.game.hook_values import frozenset_of as _frozenset
from engine.game.hook_values import pairs_of as _pairs
from engine.game.hook_values import plain as _plain
from engine.game.hook_values import read_only as _read_only
from engine.game.hook_values import tuple_of as _tuple
from engine.game.vocabulary import EVENT_KINDS, PLOY_TRIGGERS, WOULD_HOOKS, check, undeclared
from engine.geometry import Killzone, Placement, sight
from engine.teams.model import Operative, Roster

__all__ = [
    "DEFAULT_MISSIONS",
    "LAST_ROUNDS",
    "MISSIONS",
    "RULESETS",
    "ContextOriginLike",
    "ContextRecipeLike",
    "GameContext",
    "GameOptions",
    "GameOptionsError",
    "HookSet",
    "Hooks",
    "shared_context",
]

RULESETS = ("kt24", "kt21", "kt18")
"""The rulesets the engine plays (:mod:`engine.rulesets` holds their composition roots)."""

LAST_ROUNDS = {"kt24": 4, "kt21": 4, "kt18": 5}
"""The number of turning points (KT18: battle rounds, ``rules/KT18.md`` 9.6) of a battle,
by ruleset: the largest ``tp`` a scripted position of that ruleset may name."""

MAX_STEPS_LIMIT = 100_000
"""The largest ``max_steps`` a battle may be given, and the default: a real battle takes a
few hundred inputs; a record holds at most this many (``engine.game.record_format``)."""


class GameOptionsError(KillTeamError, ValueError):
    """A game option has a value of the wrong type or out of range (the message names it)."""


def _flag(_obj: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    auto = attribute.name == "close_quarters"
    if not isinstance(value, bool) and not (value is None and auto):
        allowed = "true, false or null (decided by the killzone)" if auto else "true or false"
        raise GameOptionsError(
            f"game option {attribute.name!r} must be {allowed}, got {value!r:.60}"
        )


def _ruleset(_obj: Any, _attribute: attrs.Attribute[Any], value: Any) -> None:
    if value not in RULESETS:
        raise GameOptionsError(
            f"game option 'ruleset' must be one of {', '.join(RULESETS)}, got {value!r:.60}"
        )


def _max_steps(_obj: Any, _attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_STEPS_LIMIT:
        raise GameOptionsError(
            f"game option 'max_steps' must be a whole number from 1 to {MAX_STEPS_LIMIT}, "
            f"got {value!r:.60}"
        )


def _costs(_obj: Any, _attribute: attrs.Attribute[Any], value: Any) -> None:
    ok = isinstance(value, tuple) and all(
        isinstance(p, tuple)
        and len(p) == 2
        and isinstance(p[0], str)
        and isinstance(p[1], int)
        and not isinstance(p[1], bool)
        and 0 <= p[1] <= 9
        for p in value
    )
    if not ok:
        raise GameOptionsError(
            "game option 'ploy_costs' must be (ploy name, CP) pairs with CP a whole number "
            f"from 0 to 9, got {value!r:.80}"
        )


def _equipment(_obj: Any, _attribute: attrs.Attribute[Any], value: Any) -> None:
    ok = isinstance(value, tuple) and all(
        isinstance(p, tuple)
        and len(p) == 2
        and p[0] in ("A", "B")
        and isinstance(p[1], tuple)
        and all(isinstance(n, str) for n in p[1])
        for p in value
    )
    if not ok:
        raise GameOptionsError(
            "game option 'equipment' must be (player A or B, equipment names) pairs, got "
            f"{value!r:.80}"
        )


MISSIONS = (
    "approved_ops_2025",
    "kill_op",
    "critical_ops_2022",
    "corebook_2021",
    "lite",
    "covert_war",
)
"""The missions a battle can play. KT24: the whole Approved Ops 2025 pack (kill op, crit op,
tac ops, primary op; ``rules/KT24.md`` 8) or the kill op alone. KT21 (``rules/KT21.md`` 1):
the Critical Operations 2022 matched-play sequence (1.2), the 2021 Core Book sequence (1.3)
or Lite open play (1.4). KT18: Covert War (``rules/KT18.md`` 9). A ruleset refuses a
mission of another edition (:class:`GameOptionsError` when the battle starts)."""

DEFAULT_MISSIONS = {
    "kt24": "approved_ops_2025",
    "kt21": "critical_ops_2022",
    "kt18": "covert_war",
}
"""The mission a battle plays when its options name none, by ruleset."""


def _default_mission(options: Any) -> str:
    return DEFAULT_MISSIONS.get(options.ruleset, MISSIONS[0])


def _mission(_obj: Any, _attribute: attrs.Attribute[Any], value: Any) -> None:
    if value not in MISSIONS:
        raise GameOptionsError(
            f"game option 'mission' must be one of {', '.join(MISSIONS)}, got {value!r:.60}"
        )


def _text(_obj: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, str):
        raise GameOptionsError(f"game option {attribute.name!r} must be text, got {value!r:.60}")


def _player_names(_obj: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    ok = isinstance(value, tuple) and all(
        isinstance(p, tuple) and len(p) == 2 and p[0] in ("A", "B") and isinstance(p[1], str)
        for p in value
    )
    if not ok or len({p[0] for p in value}) != len(value):
        raise GameOptionsError(
            f"game option {attribute.name!r} must be (player A or B, name) pairs, each player "
            f"at most once, got {value!r:.80}"
        )


DidHook = Callable[[Any, Any], None]
WouldHook = Callable[..., Any]


@attrs.frozen(slots=True)
class GameOptions:
    """Options of a battle.

    Attributes:
        ruleset: ``"kt24"`` (default), ``"kt21"`` or ``"kt18"`` (:data:`RULESETS`).
        initiative_cards: use the Approved Ops 2025 initiative cards (1.4).
        objectives_pickup: objective markers can be picked up (Pick Up Marker, 3.2) in every
            turning point; off by default (a rule may still allow it, the
            ``would_allow_pick_up`` hook: the crit op Energy Cells).
        close_quarters: ``None`` uses the Close Quarters rules (9.3) when the killzone has Wall
            terrain; True/False forces them.
        max_steps: a safety limit on inputs per battle (1 to :data:`MAX_STEPS_LIMIT`).
        open_windows: every ploy window is a decision, even when nothing can be used there
            (``engine.game.ploys``; for interactive use and testing).
        ploy_costs: ``(ploy name, CP)`` pairs overriding printed ploy costs (7.1).
        equipment: ``(player, option names)`` pairs fixing a player's universal equipment
            selection (7.2) instead of asking the player; a mapping is accepted too.
        mission: one of :data:`MISSIONS` (default: the ruleset's, :data:`DEFAULT_MISSIONS`:
            the whole Approved Ops 2025 pack for KT24, Critical Operations 2022 for KT21).
        crit_op: the crit op's name (8.3); ``""`` rolls it at the start of the battle (a
            chance node). Checked against the ops :mod:`engine.missions` knows.
        tac_ops: ``(player, tac op name)`` pairs fixing a player's tac op (8.4) instead of
            asking the player; a mapping is accepted too.
        primary_ops: ``(player, "crit" | "tac" | "kill")`` pairs fixing a player's primary op
            (8.1) instead of asking the player; a mapping is accepted too.

    Raises:
        GameOptionsError: an unknown ruleset, a flag that is not a bool, ``max_steps`` out
            of range, a ploy cost that is not a whole number from 0 to 9, or an equipment
            selection for a player other than A and B or with a name that is not text.
    """

    ruleset: str = attrs.field(default="kt24", validator=_ruleset)
    initiative_cards: bool = attrs.field(default=True, validator=_flag)
    objectives_pickup: bool = attrs.field(default=False, validator=_flag)
    close_quarters: bool | None = attrs.field(default=None, validator=_flag)
    max_steps: int = attrs.field(default=MAX_STEPS_LIMIT, validator=_max_steps)
    open_windows: bool = attrs.field(default=False, validator=_flag)
    ploy_costs: tuple[tuple[str, int], ...] = attrs.field(
        default=(), converter=_pairs, validator=_costs
    )
    equipment: tuple[tuple[str, tuple[str, ...]], ...] = attrs.field(
        default=(), converter=_pairs, validator=_equipment
    )
    mission: str = attrs.field(
        default=attrs.Factory(_default_mission, takes_self=True), validator=_mission
    )
    crit_op: str = attrs.field(default="", validator=_text)
    tac_ops: tuple[tuple[str, str], ...] = attrs.field(
        default=(), converter=_pairs, validator=_player_names
    )
    primary_ops: tuple[tuple[str, str], ...] = attrs.field(
        default=(), converter=_pairs, validator=_player_names
    )


class Hooks:
    """Named-event subscribers (module docstring), and what rule modules add to a battle:
    ploys by trigger (:mod:`engine.game.ploys`), rule actions (:mod:`engine.game.rule_actions`)
    and named conditions of ``"while"`` effects.

    The builder the rule modules fill at set-up (their ``install(hooks, players)``); the
    battle keeps the read-only :class:`HookSet` made by :meth:`freeze`, so nothing added here
    afterwards reaches it (:meth:`GameContext.with_hooks` makes a context with more hooks).
    """

    def __init__(self) -> None:
        self.did: dict[str, list[DidHook]] = {}
        self.would: dict[str, list[WouldHook]] = {}
        self._last: set[WouldHook] = set()
        self._frozen = False
        self.ploys: dict[str, list[tuple[Any, tuple[str, ...]]]] = {}
        self.actions: list[tuple[Any, tuple[str, ...]]] = []
        self.conditions: dict[str, Callable[[Any, Any], bool]] = {}
        self.setup_steps: list[Callable[[Any], Any]] = []
        self.start_steps: list[Callable[[Any], Any]] = []
        self.gambit_steps: list[Callable[[Any], Any]] = []
        self.ready_end_steps: list[Callable[[Any], Any]] = []
        self.scoring_steps: list[Callable[[Any], Any]] = []
        self.phase_steps: dict[str, list[Callable[[Any], Any]]] = {}
        self.weapon_sources: list[Callable[[Any, str, str], Sequence[Any]]] = []
        self.token_makers: dict[str, Callable[..., Any]] = {}
        self.equipment_check: Callable[[tuple[str, ...], Any], tuple[str, ...]] | None = None
        """``check(names, team)``: the canonical equipment selection of a player of
        ``team`` (raising ``ValueError``), set by the universal equipment module."""

    def token_maker(self, kind: str, fn: Callable[..., Any]) -> None:
        """Name how a token of ``kind`` is built for a scripted position:
        ``fn(w, owner, x, y, elevation, angle) -> Token`` (raising ``ValueError`` naming
        what is wrong), :func:`engine.game.scenario.position`."""
        self._open()
        self.token_makers[kind] = fn

    def weapon_source(self, fn: Callable[[Any, str, str], Sequence[Any]]) -> None:
        """Add weapons to operatives beyond their datacards: ``fn(w, op_id, kind)`` returns a
        sequence of the :class:`~engine.teams.model.Weapon` values of ``kind``
        (``"ranged"``/``"melee"``) that operative has now (equipment grenades, 7.2)."""
        self._open()
        self.weapon_sources.append(fn)

    def setup_step(self, fn: Callable[[Any], Any]) -> None:
        """Add a set-up step: ``fn(w)`` returns a frame to run after the drop zones are
        chosen and before deployment (1.2), or ``None``; steps run in the order added."""
        self._open()
        self.setup_steps.append(fn)

    def start_step(self, fn: Callable[[Any], Any]) -> None:
        """Add a step at the very start of the battle, before the set-up roll-off (the crit
        op's roll, 1.2): ``fn(w)`` returns a frame or ``None``; steps run in the order added."""
        self._open()
        self.start_steps.append(fn)

    def gambit_step(self, fn: Callable[[Any], Any]) -> None:
        """Add a step at the start of every Gambit step, before the strategic gambits (1.4;
        the primary op's selection, the picks of some crit ops): ``fn(w)`` returns a frame or
        ``None``; steps run in the order added. In KT21 these are the Target Reveal step,
        after the strategic ploys (``rules/KT21.md`` 2.2 step 3)."""
        self._open()
        self.gambit_steps.append(fn)

    def ready_end_step(self, fn: Callable[[Any], Any]) -> None:
        """Add a step at the end of every Ready step, after its other rules (the frames rule
        modules push at the ``ready_step`` event) and before the Gambit step's steps (1.4;
        a rule acting "after all other rules in the Ready step"): ``fn(w)``, called as the
        Ready step begins, returns a frame or ``None``; steps run in the order added."""
        self._open()
        self.ready_end_steps.append(fn)

    def scoring_step(self, fn: Callable[[Any], Any]) -> None:
        """Add a step at the end of every turning point, after its last ploy window and
        before the ops score (the ``turning_point_ending`` event, 8): a choice an op's
        scoring asks of a player (tokens it can remove, 8.4). ``fn(w)`` returns a frame or
        ``None``; steps run in the order added. When every step returns ``None`` the turning
        point ends exactly as it would without them."""
        self._open()
        self.scoring_steps.append(fn)

    def phase_step(self, phase: str, fn: Callable[[Any], Any]) -> None:
        """Add a step to the phase ``phase`` of a ruleset whose flow runs named phases (KT18's
        battle round, ``rules/KT18.md`` 2.1: ``"psychic"``, ``"shooting"``, ``"fight"``,
        ``"movement_turn_start"``, ``"movement_turn_end"``): ``fn(w)`` returns a frame or
        ``None``; the flow pushes them when the phase starts, to run in the order added."""
        self._open()
        self.phase_steps.setdefault(str(phase), []).append(fn)

    def ploy(self, ploy: Any, players: tuple[str, ...]) -> None:
        """Offer ``ploy`` (a :class:`engine.game.ploys.PloyLike`) to ``players`` at each of
        its triggers (:class:`~engine.game.vocabulary.PloyTrigger`), after the ploys already
        added there.

        Raises:
            UndeclaredNameError: a trigger is not declared (nothing is added).
        """
        self._open()
        for trigger in ploy.triggers:
            check(PLOY_TRIGGERS, trigger)
        for trigger in ploy.triggers:
            self.ploys.setdefault(_plain(trigger), []).append((ploy, tuple(players)))

    def action(self, action: Any, players: tuple[str, ...]) -> None:
        """Let the operatives of ``players`` perform the rule action ``action`` (a
        :class:`engine.game.rule_actions.RuleActionLike`)."""
        self._open()
        self.actions.append((action, tuple(players)))

    def condition(self, name: str, fn: Callable[[Any, Any], bool]) -> None:
        """Name the condition ``fn(w, effect) -> bool`` of ``"while"`` effects."""
        self._open()
        self.conditions[name] = fn

    def on(self, kind: str, fn: DidHook) -> None:
        """Subscribe ``fn(w, event)`` to events of ``kind`` (an
        :class:`~engine.game.vocabulary.EventKind`).

        Raises:
            UndeclaredNameError: ``kind`` is not a declared event kind.
        """
        self._open()
        check(EVENT_KINDS, kind)
        self.did.setdefault(_plain(kind), []).append(fn)

    def transform(self, kind: str, fn: WouldHook, *, last: bool = False) -> None:
        """Subscribe ``fn(w, value, **info) -> value`` to the *would* event ``kind``; with
        ``last``, it runs after every hook added without ``last`` (whenever those are added:
        a rule that must see what the others made, e.g. one that takes weapon rules away
        that other teams' rules may add). ``kind`` is a :class:`~engine.game.vocabulary.Would`.

        Raises:
            UndeclaredNameError: ``kind`` is not a declared *would* hook.
        """
        self._open()
        check(WOULD_HOOKS, kind)
        hooks = self.would.setdefault(_plain(kind), [])
        if last:
            self._last.add(fn)
            hooks.append(fn)
            return
        at = next((i for i, h in enumerate(hooks) if h in self._last), len(hooks))
        hooks.insert(at, fn)

    def _open(self) -> None:
        if self._frozen:
            raise RuntimeError(
                "these hooks were frozen for a battle: add hooks at set-up (install), or to "
                "a builder from GameContext.with_hooks"
            )

    def freeze(self) -> HookSet:
        """The read-only :class:`HookSet` of the hooks added so far (lists become tuples,
        dicts read-only mappings). The builder is then closed: adding a hook to it raises
        ``RuntimeError`` (it would not reach the battle)."""
        self._frozen = True
        return HookSet(
            did=self.did,
            would=self.would,
            ploys=self.ploys,
            actions=self.actions,
            conditions=self.conditions,
            setup_steps=self.setup_steps,
            start_steps=self.start_steps,
            gambit_steps=self.gambit_steps,
            ready_end_steps=self.ready_end_steps,
            scoring_steps=self.scoring_steps,
            phase_steps=self.phase_steps,
            weapon_sources=self.weapon_sources,
            token_makers=self.token_makers,
            equipment_check=self.equipment_check,
            last=self._last,
        )


@attrs.frozen(slots=True, eq=False)
class HookSet:
    """The hooks of one battle, read-only (made by :meth:`Hooks.freeze`; the attributes of
    :class:`Hooks`): read-only mappings of tuples, in the order the hooks were added (the
    mappings and sequences given are copied).

    Attributes:
        did: event kind -> *did* hooks ``fn(w, event)`` (:meth:`Hooks.on`).
        would: *would* event kind -> hooks ``fn(w, value, **info) -> value`` in the order
            they run (:meth:`Hooks.transform`).
        ploys: trigger -> ``(ploy, players)`` pairs (:meth:`Hooks.ploy`).
        actions: ``(rule action, players)`` pairs (:meth:`Hooks.action`).
        conditions: name -> ``fn(w, effect) -> bool`` (:meth:`Hooks.condition`).
        setup_steps, start_steps, gambit_steps, ready_end_steps, scoring_steps: step
            functions ``fn(w)``; phase_steps: phase name -> step functions
            (:meth:`Hooks.phase_step`)
            (:meth:`Hooks.setup_step` and the others).
        weapon_sources: ``fn(w, op_id, kind)`` (:meth:`Hooks.weapon_source`).
        token_makers: token kind -> maker (:meth:`Hooks.token_maker`).
        equipment_check: ``check(names, team)`` or ``None`` (:class:`Hooks`).
        did_table, would_table: every declared event kind / *would* hook
            (:mod:`engine.game.vocabulary`) -> its hooks (``()`` when none), resolved once when
            the set is made: what :meth:`engine.game.work.Work.emit` and
            :meth:`engine.game.work.Work.would` dispatch through (a name missing from them is
            undeclared). ``did`` and ``would`` hold only the names with hooks, so
            ``name in hooks.would`` says whether anyone listens.

    Raises:
        UndeclaredNameError: ``did``, ``would`` or ``ploys`` has a name that is not declared
            (put there without :class:`Hooks`).
    """

    did: Mapping[str, tuple[DidHook, ...]] = attrs.field(converter=_frozen_lists)
    would: Mapping[str, tuple[WouldHook, ...]] = attrs.field(converter=_frozen_lists)
    ploys: Mapping[str, tuple[tuple[Any, tuple[str, ...]], ...]] = attrs.field(
        converter=_frozen_lists
    )
    actions: tuple[tuple[Any, tuple[str, ...]], ...] = attrs.field(converter=_tuple)
    conditions: Mapping[str, Callable[[Any, Any], bool]] = attrs.field(converter=_read_only)
    setup_steps: tuple[Callable[[Any], Any], ...] = attrs.field(converter=_tuple)
    start_steps: tuple[Callable[[Any], Any], ...] = attrs.field(converter=_tuple)
    gambit_steps: tuple[Callable[[Any], Any], ...] = attrs.field(converter=_tuple)
    ready_end_steps: tuple[Callable[[Any], Any], ...] = attrs.field(converter=_tuple)
    weapon_sources: tuple[Callable[[Any, str, str], Sequence[Any]], ...] = attrs.field(
        converter=_tuple
    )
    token_makers: Mapping[str, Callable[..., Any]] = attrs.field(converter=_read_only)
    equipment_check: Callable[[tuple[str, ...], Any], tuple[str, ...]] | None
    _last: frozenset[WouldHook] = attrs.field(default=frozenset(), converter=_frozenset)
    scoring_steps: tuple[Callable[[Any], Any], ...] = attrs.field(default=(), converter=_tuple)
    phase_steps: Mapping[str, tuple[Callable[[Any], Any], ...]] = attrs.field(
        factory=dict, converter=_frozen_lists
    )
    did_table: Mapping[str, tuple[DidHook, ...]] = attrs.field(init=False, repr=False)
    would_table: Mapping[str, tuple[WouldHook, ...]] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        for declared, table in (
            (EVENT_KINDS, self.did),
            (WOULD_HOOKS, self.would),
            (PLOY_TRIGGERS, self.ploys),
        ):
            for name in table:
                check(declared, name)
        did = {name: self.did.get(name, ()) for name in EVENT_KINDS}
        would = {name: self.would.get(name, ()) for name in WOULD_HOOKS}
        object.__setattr__(self, "did_table", MappingProxyType(did))
        object.__setattr__(self, "would_table", MappingProxyType(would))

    def has_would(self, name: str) -> bool:
        """Whether a *would* hook is subscribed to ``name`` (a
        :class:`~engine.game.vocabulary.Would`): a caller may skip building the value and
        keywords when nobody listens.

        Raises:
            UndeclaredNameError: ``name`` is not a declared *would* hook.
        """
        fns = self.would_table.get(name)
        if fns is None:
            raise undeclared(WOULD_HOOKS, name)
        return bool(fns)

    def has_did(self, name: str) -> bool:
        """Whether a *did* hook is subscribed to the event kind ``name`` (a
        :class:`~engine.game.vocabulary.EventKind`).

        Raises:
            UndeclaredNameError: ``name`` is not a declared event kind.
        """
        fns = self.did_table.get(name)
        if fns is None:
            raise undeclared(EVENT_KINDS, name)
        return bool(fns)

    def builder(self) -> Hooks:
        """A new :class:`Hooks` builder holding these hooks (in the same order, the
        ``last`` ones still last), to add more and :meth:`~Hooks.freeze` again."""
        hooks = Hooks()
        hooks.did = {k: list(v) for k, v in self.did.items()}
        hooks.would = {k: list(v) for k, v in self.would.items()}
        hooks._last = set(self._last)
        hooks.ploys = {k: list(v) for k, v in self.ploys.items()}
        hooks.actions = list(self.actions)
        hooks.conditions = dict(self.conditions)
        hooks.setup_steps = list(self.setup_steps)
        hooks.start_steps = list(self.start_steps)
        hooks.gambit_steps = list(self.gambit_steps)
        hooks.ready_end_steps = list(self.ready_end_steps)
        hooks.scoring_steps = list(self.scoring_steps)
        hooks.phase_steps = {k: list(v) for k, v in self.phase_steps.items()}
        hooks.weapon_sources = list(self.weapon_sources)
        hooks.token_makers = dict(self.token_makers)
        hooks.equipment_check = self.equipment_check
        return hooks


def _hook_set(value: Hooks | HookSet) -> HookSet:
    return value.freeze() if isinstance(value, Hooks) else value


class ContextRecipeLike(Protocol):
    """What a context is rebuilt from when unpickled in another process
    (:class:`engine.game.setup.ContextRecipe`)."""

    def key(self) -> str:
        """A digest of the recipe (the context's key in :data:`_LIVE`)."""

    def build(self) -> GameContext:
        """The context again, through the ruleset's composition root."""


class ContextOriginLike(Protocol):
    """How a context was composed (:class:`engine.game.setup.ContextOrigin`), kept on it
    so that it pickles as a recipe."""

    def adding(self, add: Callable[[Hooks], object]) -> ContextOriginLike:
        """This origin followed by :meth:`GameContext.with_hooks` ``(add)``."""

    def recipe(self, ctx: GameContext) -> ContextRecipeLike:
        """The recipe ``ctx`` is rebuilt from (raising ``pickle.PicklingError`` naming what
        cannot be written as data)."""


_LIVE: weakref.WeakValueDictionary[str, GameContext] = weakref.WeakValueDictionary()
"""The contexts of this process that were pickled or unpickled, by key (the digest of their
recipe): a state unpickled here shares its battle's live context instead of rebuilding it.
Weak: an entry never keeps a finished battle alive."""


def shared_context(key: str, recipe: ContextRecipeLike) -> GameContext:
    """The context a pickled state names (what :meth:`GameContext.__reduce__` pickles): the
    live context of this process under ``key`` if there is one, else the context rebuilt
    from ``recipe`` (:meth:`engine.game.setup.ContextRecipe.build`), kept under ``key``
    for the next states of the battle.

    Pickle is for the project's own processes (search workers, distributed batches): the
    engine has no command or API that unpickles a file, and none should be added (unpickling
    runs code named by the data).

    Raises:
        SetupError, KillzoneError, TeamFileError: the recipe no longer builds (another
            version of the engine or its data).
    """
    ctx = _LIVE.get(key)
    if ctx is None:
        ctx = recipe.build()
        ctx._pickled.append((key, recipe))
        _LIVE[key] = ctx
    return ctx


@attrs.frozen(slots=True, eq=False)
class GameContext:
    """The unchanging part of a battle (module docstring), shared by every state of it.

    Read-only: its attributes cannot be reassigned, the mappings are read-only views of
    copies of what was given (:class:`types.MappingProxyType`), ``hooks`` a :class:`HookSet`
    (a :class:`Hooks` given is frozen), and what they hold is frozen too (the killzone's
    arrays are not writeable). The geometry caches filled during the battle are private.

    Attributes:
        killzone: the layout with every hatchway closed.
        rosters: ``{"A": roster, "B": roster}``.
        ids: operative ids in state order; ``index``: id -> position; ``owner``: id -> player.
        datacards: id -> :class:`~engine.teams.model.Operative`.
        options: :class:`GameOptions`; ``hooks``: :class:`HookSet`.
        close_quarters: the Close Quarters rules apply.
        starting: number of operatives each player starts with (kill op rows).
        rules: the :class:`~engine.game.state.BattleRules` the battle runs on (its ruleset
            and the flow's procedures), set by :func:`engine.game.setup.start_battle`.
        origin: how the context was composed (:class:`ContextOriginLike`, set by
            :func:`engine.game.setup.new_context`), ``None`` for a context built directly.

    Copies and pickles: ``copy.copy`` and ``copy.deepcopy`` of a context are the context
    itself (so a deep copy of a state copies only the state's own values). A context
    pickles as a small recipe (the ruleset's name, the killzone's name or layout data, the
    rosters as data, the options, the functions given to :meth:`with_hooks`) and its key, a
    digest of the recipe; unpickling shares the live context of that key in this process or
    rebuilds it through the ruleset's composition root (:func:`shared_context`). Pickle is
    for the project's own processes only: nothing in the engine unpickles a file.
    """

    killzone: Killzone
    rosters: Mapping[str, Roster] = attrs.field(converter=_read_only)
    ids: tuple[str, ...] = attrs.field(converter=_tuple)
    index: Mapping[str, int] = attrs.field(converter=_read_only)
    owner: Mapping[str, str] = attrs.field(converter=_read_only)
    datacards: Mapping[str, Operative] = attrs.field(converter=_read_only)
    options: GameOptions
    hooks: HookSet = attrs.field(converter=_hook_set)
    close_quarters: bool
    starting: Mapping[str, int] = attrs.field(converter=_read_only)
    rules: Any = None
    _variants: dict[tuple[Any, ...], Killzone] = attrs.field(factory=dict)
    _sight: dict[tuple[Any, ...], Any] = attrs.field(factory=dict)
    _places: dict[tuple[str, float, float, float], Placement] = attrs.field(factory=dict)
    _choices: dict[tuple[str, str, str], tuple[str, ...]] = attrs.field(factory=dict)
    _origin: ContextOriginLike | None = attrs.field(default=None, repr=False)
    _pickled: list[tuple[str, ContextRecipeLike]] = attrs.field(
        init=False, factory=list, repr=False
    )

    @property
    def origin(self) -> ContextOriginLike | None:
        """How the context was composed (class docstring), ``None`` when built directly."""
        return self._origin

    def pickle_key(self) -> tuple[str, ContextRecipeLike]:
        """The context's key and the recipe it is rebuilt from (class docstring), made on
        first use and kept.

        Raises:
            pickle.PicklingError: the context was built directly (not by a ruleset's
                composition root, :func:`engine.game.setup.new_context`), or its recipe
                cannot be written as data (the message names what:
                :meth:`engine.game.setup.ContextOrigin.recipe`).
        """
        if not self._pickled:
            if self._origin is None:
                raise pickle.PicklingError(
                    "this GameContext was built directly, not by a ruleset's composition root "
                    "(engine.game.setup.new_context), so it has no recipe to rebuild it from "
                    "in another process"
                )
            recipe = self._origin.recipe(self)
            self._pickled.append((recipe.key(), recipe))
        return self._pickled[0]

    def __reduce__(self) -> tuple[Any, ...]:
        key, recipe = self.pickle_key()
        if _LIVE.get(key) is None:
            _LIVE[key] = self
        return (shared_context, (key, recipe))

    def __copy__(self) -> GameContext:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> GameContext:
        return self

    def choice(self, player: str, name: str) -> tuple[str, ...]:
        """The value of ``player``'s team-level roster-time choice ``name`` (given in its
        roster or the default), e.g. ``("Aggressive", "Hardy")``
        (:meth:`engine.teams.model.Roster.choice`).

        Raises:
            KeyError: the player's team declares no such choice.
        """
        key = ("choice", player, name)
        got = self._choices.get(key)
        if got is None:
            got = self._choices[key] = self.rosters[player].choice(name)
        return got

    def op_choice(self, op_id: str, name: str) -> tuple[str, ...]:
        """The value of operative ``op_id``'s per-operative roster-time choice ``name``,
        e.g. ``("Khorne",)``; ``()`` when its type does not make it
        (:meth:`engine.teams.model.Roster.operative_choice`).

        Raises:
            KeyError: an unknown operative or its team declares no such choice.
        """
        key = ("op", op_id, name)
        got = self._choices.get(key)
        if got is None:
            player = self.owner[op_id]
            mine = [i for i in self.ids if self.owner[i] == player]
            got = self.rosters[player].operative_choice(mine.index(op_id), name)
            self._choices[key] = got
        return got

    def with_hooks(self, add: Callable[[Hooks], object]) -> GameContext:
        """This context with more hooks: ``add(hooks)`` is called with a :class:`Hooks`
        builder holding this battle's hooks, and may add to it (after those already there);
        everything else (and the geometry caches) is shared. For tests and analyses that
        change the rules of a battle under way (:meth:`engine.game.state.GameState.with_hooks`).
        """
        hooks = self.hooks.builder()
        add(hooks)
        origin = self._origin.adding(add) if self._origin is not None else None
        return attrs.evolve(self, hooks=hooks.freeze(), origin=origin)

    def killzone_for(
        self, open_hatchways: tuple[str, ...], terrain: tuple[Any, ...] = ()
    ) -> Killzone:
        """The killzone with exactly these hatchways open and the equipment terrain
        ``terrain`` added (the features of the tokens, :mod:`engine.game.tokens`):
        one value per state, so the movement graphs and sight arrays cached on it are
        reused."""
        if not open_hatchways and not terrain:
            return self.killzone
        key = (open_hatchways, terrain)
        kz = self._variants.get(key)
        if kz is None:
            base = self.killzone
            if terrain:
                base = base.with_terrain(terrain)
            kz = self._variants[key] = base.with_open_hatchways(open_hatchways)
        return kz

    def placement(self, op_id: str, x: float, y: float, elevation: float) -> Placement:
        """The :class:`Placement` of operative ``op_id`` at a position (inches)."""
        key = (op_id, x, y, elevation)
        p = self._places.get(key)
        if p is None:
            if len(self._places) > 100_000:
                self._places.clear()
            p = self._places[key] = Placement(x, y, self.datacards[op_id].base_mm, elevation)
        return p

    # Geometry queries, cached per (hatch state, placements): states share them.

    def cached(self, key: tuple[Any, ...], fn: Callable[[], Any]) -> Any:
        """The value of ``fn()`` kept under ``key`` for the whole battle (keys must include
        the hatch state's killzone id and the placements the value depends on).

        ``id()`` is a safe key here, unlike in a process-wide cache: the cache lives on this
        context, which holds every killzone value it names (:attr:`killzone` and its hatch
        states in ``_variants``) for as long as the cache exists, so no id is reused while
        cached. The cache is bounded (cleared past 200,000 entries)."""
        cache = self._sight
        if key in cache:
            return cache[key]
        if len(cache) > 200_000:
            cache.clear()
        value = cache[key] = fn()
        return value

    def peek(self, key: tuple[Any, ...]) -> Any:
        """The value kept under ``key`` (by :meth:`cached` or :meth:`remember`), or ``None``."""
        return self._sight.get(key)

    def remember(self, key: tuple[Any, ...], value: Any) -> None:
        """Keep ``value`` under ``key`` (the key rules of :meth:`cached`): a pure function's
        result computed on the way, for a later :meth:`peek`."""
        if len(self._sight) > 200_000:
            self._sight.clear()
        self._sight[key] = value

    def visible(self, kz: Killzone, a: Placement, b: Placement) -> bool:
        """``b`` is visible to ``a`` (4.3)."""
        return bool(self.cached(("vis", id(kz), a, b), lambda: sight.visible(kz, a, b)))

    def control_range(self, kz: Killzone, a: Placement, b: Placement) -> bool:
        """``a`` and ``b`` are within each other's control range (4.2)."""
        if a == b:
            return False
        if sight.distance(a, b) > 1.0 + 1e-6:
            return False
        key = ("cr", id(kz), a, b) if (a.x, a.y) <= (b.x, b.y) else ("cr", id(kz), b, a)
        return bool(self.cached(key, lambda: sight.within_control_range(kz, a, b)))

    def targeting(self, kz: Killzone, shooter: Placement, target: Placement) -> sight.Targeting:
        """Targeting lines, cover and obscured (4.4, 4.5)."""
        return self.cached(  # type: ignore[no-any-return]
            ("tgt", id(kz), shooter, target), lambda: sight.targeting(kz, shooter, target)
        )

    def valid_target(
        self, kz: Killzone, target: Placement, shooter: Placement, order: str, seek: str | None
    ) -> bool:
        """Valid target (4.5, 4.7), see :func:`engine.geometry.sight.valid_target`."""
        return bool(
            self.cached(
                ("valid", id(kz), target, shooter, order, seek),
                lambda: sight.valid_target(kz, target, shooter, order, seek=seek),
            )
        )
