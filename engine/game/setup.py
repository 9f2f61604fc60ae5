"""Creating a battle (``rules/KT24.md`` 1.2): killzone, both rosters, options, hooks.

The core names no rule module: :func:`start_battle` is given the ruleset, which installs the
rules (``engine.rulesets``, the composition roots; :func:`engine.rulesets.new_game` picks the
ruleset the options name).

Operative ids are the first three ASCII letters or digits of the team id (after an edition
prefix such as ``kt21_``) in upper case (``OP`` when it has none) and the operative's place
in its roster (``KAS-1``); when both players field teams with the same prefix the player's
letter is added (``KASA-1``, ``KASB-1``). Every id made this way is one the action notation
reads back (``engine.game.actions``).
"""

from __future__ import annotations

import hashlib
import pickle
import re
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from engine.errors import KillTeamError
from engine.game import deployment, flow
from engine.game.context import GameContext, GameOptions, Hooks
from engine.game.flow import advance
from engine.game.state import (
    BattleRules,
    Decision,
    GameState,
    MarkerState,
    OperativeState,
    PlayerState,
    RulesetLike,
)
from engine.game.work import Work
from engine.geometry import Killzone, TerrainType, load_killzone, shipped_killzones
from engine.teams.model import Roster, Team, team_problem

__all__ = [
    "ContextOrigin",
    "ContextRecipe",
    "SetupError",
    "new_context",
    "operative_ids",
    "start_battle",
]


class SetupError(KillTeamError, ValueError):
    """A battle cannot be created from these inputs (the message says why)."""


def operative_ids(rosters: Mapping[str, Roster]) -> dict[str, list[str]]:
    """Ids for each player's operatives (module docstring)."""
    prefix = {p: _prefix(r.team.id) for p, r in rosters.items()}
    same = prefix["A"] == prefix["B"]
    return {
        p: [f"{prefix[p]}{p if same else ''}-{i + 1}" for i in range(len(r.operatives))]
        for p, r in rosters.items()
    }


_CHECKED: dict[int, Team] = {}
"""Teams already found within the limits, by id(); each entry holds its team, so the id cannot
be reused by another object while it is here (bounded: cleared past 64 entries)."""


def _check_team(player: str, team: Team) -> None:
    """Check a team built in code like a loaded one (:func:`engine.teams.io.check_team`:
    stats, list lengths, names, the team id), once per team object."""
    if _CHECKED.get(id(team)) is team:
        return
    problem = team_problem(team)
    if problem is not None:
        raise SetupError(f"team of player {player} ({team.id!r:.60}): {problem}")
    if len(_CHECKED) >= 64:
        _CHECKED.clear()
    _CHECKED[id(team)] = team


def _prefix(team_id: str) -> str:
    # An edition prefix ("kt21_kasrkin") is not part of the team's name: KAS, not KT2.
    team_id = re.sub(r"^kt\d+_", "", team_id)
    ascii_alnum = [ch for ch in team_id.upper() if ch.isascii() and ch.isalnum()]
    return "".join(ascii_alnum[:3]) or "OP"


def start_battle(
    killzone: Killzone,
    roster_a: Roster,
    roster_b: Roster,
    options: GameOptions | None,
    ruleset: RulesetLike,
) -> GameState:
    """A new battle of ``ruleset`` at its first node (the set-up roll-off).

    Args:
        killzone: the layout (its hatchways are all closed at the start).
        roster_a, roster_b: the players' rosters (players ``"A"`` and ``"B"``).
        options: :class:`GameOptions` (``None``: the defaults: KT24, Approved Ops 2025).
        ruleset: the ruleset the options name (:class:`~engine.game.state.RulesetLike`);
            its ``install`` adds the rules to the battle's hooks, and the battle keeps it
            (:class:`~engine.game.state.BattleRules`).

    Raises:
        SetupError: as :func:`new_context`.
        GameOptionsError: options the ruleset's rules refuse (an unknown op name).
    """
    ctx = new_context(killzone, roster_a, roster_b, options, ruleset)
    killzone = ctx.killzone
    ops = [
        OperativeState(id=op_id, player=ctx.owner[op_id], wounds=ctx.datacards[op_id].wounds)
        for op_id in ctx.ids
    ]
    markers = tuple(
        MarkerState(o.name, o.position[0], o.position[1], pickup=ctx.options.objectives_pickup)
        for o in killzone.objectives
    )
    s = GameState(
        ctx=ctx,
        tp=0,
        phase="setup",
        initiative="",
        players=(PlayerState(cp=2), PlayerState(cp=2)),
        operatives=tuple(ops),
        markers=markers,
        effects=(),
        open_hatchways=(),
        stack=(ruleset.start_frame(),),
        node=_placeholder(),
    )
    w = Work(s)
    w.emit(
        "battle_started",
        killzone=killzone.name,
        team_a=roster_a.team.name,
        team_b=roster_b.team.name,
    )
    # Steps at the very start (the crit op's roll), pushed last-first: the first added runs
    # first, before the set-up roll-off.
    for step in reversed(ctx.hooks.start_steps):
        frame = step(w)
        if frame is not None:
            w.stack.append(frame)
    advance(w)
    return w.freeze()


def new_context(
    killzone: Killzone,
    roster_a: Roster,
    roster_b: Roster,
    options: GameOptions | None,
    ruleset: RulesetLike,
) -> GameContext:
    """The context of a new battle of ``ruleset`` (:func:`start_battle`, whose arguments
    these are): the inputs checked, the killzone with its hatchways closed, the operative
    ids, the rules installed. The context records how it was composed
    (:class:`ContextOrigin`), so that it pickles as a small recipe rebuilt by this function
    (:class:`ContextRecipe`).

    Raises:
        SetupError: an argument of the wrong type, a team outside the limits of
            :mod:`engine.teams.model` (a team built in code; loaded teams are checked at
            load), an illegal roster (the reasons listed), an
            empty roster, a killzone without drop zones A and B, or a drop zone where the
            operatives of either roster might not all find a set-up point (covered by
            terrain, too thin, too small; see
            :func:`engine.game.deployment.drop_zone_problems`), an equipment selection in
            the options that the rules refuse (an unknown name, an option twice, more
            than four: 7.2), options naming another ruleset than ``ruleset``.
        GameOptionsError: options the ruleset's rules refuse (an unknown op name).
    """
    if not isinstance(killzone, Killzone):
        raise SetupError(f"the killzone must be a Killzone, not {type(killzone).__name__}")
    for p, r in (("A", roster_a), ("B", roster_b)):
        if not isinstance(r, Roster):
            raise SetupError(f"the roster of player {p} must be a Roster, not {type(r).__name__}")
    if options is not None and not isinstance(options, GameOptions):
        raise SetupError(f"the options must be GameOptions, not {type(options).__name__}")
    opts = options or GameOptions()
    if opts.ruleset != ruleset.name:
        raise SetupError(
            f"the options name the ruleset {opts.ruleset!r:.60} but the battle is started "
            f"under the ruleset {ruleset.name!r:.60}"
        )
    rosters = {"A": roster_a, "B": roster_b}
    for p, r in rosters.items():
        _check_team(p, r.team)
        problems = r.validate()
        if problems:
            raise SetupError(
                f"roster of player {p} ({r.team.id}) is not legal: " + "; ".join(problems)
            )
        if not r.operatives:
            raise SetupError(f"roster of player {p} is empty")
    if sorted(killzone.drop_zones) != ["A", "B"]:
        raise SetupError(f"killzone {killzone.name} needs drop zones A and B")
    if killzone.open_hatchways:
        killzone = killzone.with_open_hatchways(())
    killzone = ruleset.battle_killzone(killzone, opts)
    bases = {
        p: [r.datacard(k).base_mm for k in range(len(r.operatives))] for p, r in rosters.items()
    }
    problems = deployment.drop_zone_problems(killzone, bases)
    if problems:
        raise SetupError("; ".join(problems))
    ids = operative_ids(rosters)
    all_ids: list[str] = []
    owner: dict[str, str] = {}
    datacards = {}
    for p in ("A", "B"):
        for k, op_id in enumerate(ids[p]):
            card = rosters[p].datacard(k)  # exactly its loadout's weapons (1.2)
            all_ids.append(op_id)
            owner[op_id] = p
            datacards[op_id] = card
    cq = opts.close_quarters
    if cq is None:
        cq = any(TerrainType.WALL in part.types for part in killzone.parts)
    hooks = Hooks()
    ruleset.install(hooks, opts, rosters)
    for p, names in opts.equipment:
        if hooks.equipment_check is not None:
            try:
                hooks.equipment_check(names, rosters[p].team if p in rosters else None)
            except ValueError as exc:
                raise SetupError(f"the equipment option of player {p}: {exc}") from None
    ctx = GameContext(
        killzone=killzone,
        rosters=rosters,
        ids=tuple(all_ids),
        index={i: k for k, i in enumerate(all_ids)},
        owner=owner,
        datacards=datacards,
        options=opts,
        hooks=hooks,
        close_quarters=bool(cq),
        starting={p: len(rosters[p].operatives) for p in ("A", "B")},
        rules=BattleRules(
            ruleset=ruleset,
            list_actions=flow.list_actions,
            chance_outcomes=flow.chance_outcomes,
            apply=flow.apply,
            is_legal=flow.is_legal,
        ),
        origin=ContextOrigin(),
    )
    return ctx


def _placeholder() -> Decision:
    return Decision("A", "setup")


# -- Pickling a context: the recipe it is rebuilt from --------------------------------------

RosterData = tuple[Any, tuple[str, ...], tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]
"""A roster as data: ``(team, operatives, loadouts, choices, operative_choices)``, the
team a built-in team id or the team's data (:func:`engine.teams.io.team_to_dict`), the rest
the :class:`~engine.teams.model.Roster` fields as they are (tuples of text)."""


@attrs.frozen(slots=True)
class ContextOrigin:
    """How a battle's context was composed, kept on it (:attr:`GameContext.origin
    <engine.game.context.GameContext>`): by :func:`new_context` from the context's own
    killzone, rosters, options and ruleset, then the hooks added by
    :meth:`GameContext.with_hooks <engine.game.context.GameContext.with_hooks>`, in order.

    Attributes:
        adds: the ``add(hooks)`` functions given to ``with_hooks``, oldest first.
    """

    adds: tuple[Callable[[Hooks], object], ...] = ()

    def adding(self, add: Callable[[Hooks], object]) -> ContextOrigin:
        """This origin followed by ``with_hooks(add)``."""
        return ContextOrigin((*self.adds, add))

    def recipe(self, ctx: GameContext) -> ContextRecipe:
        """The recipe ``ctx`` (a context of this origin) is rebuilt from in another process.

        Raises:
            pickle.PicklingError: naming what cannot be written as data: a function given
                to ``with_hooks`` that does not pickle (a lambda or a local function: use a
                module-level function), a ruleset that does not pickle, a team whose data
                does not read back as the same team.
        """
        for add in self.adds:
            try:
                pickle.dumps(add, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as exc:
                raise pickle.PicklingError(
                    "this battle's context cannot be rebuilt in another process: the hooks "
                    f"added by GameContext.with_hooks with {_name(add)} do not pickle "
                    f"({exc}); use a module-level function (or copy the state instead, "
                    "which shares the context)"
                ) from None
        kz = ctx.killzone
        layout = kz.to_dict()
        name: str | dict[str, Any] = layout
        source = kz.source
        if layout["name"] in shipped_killzones() and layout == _shipped_layout(layout["name"]):
            name, source = layout["name"], ""
        return ContextRecipe(
            ruleset=ctx.rules.ruleset,
            killzone=name,
            source=source,
            extra_terrain=tuple(kz.extra_terrain),
            rosters=(_roster_data(ctx.rosters["A"]), _roster_data(ctx.rosters["B"])),
            options=ctx.options,
            adds=self.adds,
        )


@attrs.frozen(slots=True)
class ContextRecipe:
    """What a battle's context is rebuilt from (:meth:`GameContext.__reduce__
    <engine.game.context.GameContext>`): small data, not the context's contents.

    Attributes:
        ruleset: the ruleset (pickled by name, :mod:`engine.rulesets`).
        killzone: the name of a shipped layout the killzone is exactly, else its layout data
            (:meth:`engine.geometry.Killzone.to_dict`); ``source``: where it was loaded from
            (for messages; ``""`` for a shipped layout); ``extra_terrain``: the terrain added to it
            (:meth:`~engine.geometry.Killzone.with_terrain`).
        rosters: A's and B's rosters as :data:`RosterData`.
        options: the :class:`GameOptions`.
        adds: the functions given to ``GameContext.with_hooks``, in order.
    """

    ruleset: Any
    killzone: str | dict[str, Any]
    source: str
    extra_terrain: tuple[Any, ...]
    rosters: tuple[RosterData, RosterData]
    options: GameOptions
    adds: tuple[Callable[[Hooks], object], ...] = ()

    def key(self) -> str:
        """A hex digest of the recipe: equal recipes give equal keys (the data is lists,
        tuples and text in a fixed order, so the key is the same in every process)."""
        data = (
            self.ruleset.name,
            self.killzone,
            self.source,
            self.extra_terrain,
            self.rosters,
            self.options,
            self.adds,
        )
        blob = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
        return hashlib.blake2b(blob, digest_size=16).hexdigest()

    def build(self) -> GameContext:
        """The context again, through the ruleset's composition root (:func:`new_context`,
        then ``with_hooks`` for each function of ``adds``): the same killzone, datacards,
        options and hooks in the same order, so states on it hash and play as on the
        original.

        Raises:
            SetupError, KillzoneError, TeamFileError: data that no longer builds (another
                version of the engine or its data).
        """
        if isinstance(self.killzone, str):
            kz = load_killzone(self.killzone)
        else:
            kz = Killzone.from_dict(self.killzone, source=self.source)
        if self.extra_terrain:
            kz = kz.with_terrain(self.extra_terrain)
        roster_a, roster_b = (_roster(data) for data in self.rosters)
        ctx = new_context(kz, roster_a, roster_b, self.options, self.ruleset)
        for add in self.adds:
            ctx = ctx.with_hooks(add)
        return ctx


def _name(fn: Any) -> str:
    return f"{getattr(fn, '__qualname__', type(fn).__name__)} ({getattr(fn, '__module__', '?')})"


_SHIPPED: dict[str, Any] = {}
"""Shipped layouts' data and built-in teams, by name, loaded once per process (for
:meth:`ContextOrigin.recipe` to write a name instead of the data)."""


def _shipped_layout(name: str) -> dict[str, Any]:
    key = f"killzone:{name}"
    if key not in _SHIPPED:
        _SHIPPED[key] = load_killzone(name).to_dict()
    return _SHIPPED[key]  # type: ignore[no-any-return]


def _builtin_team(team_id: str) -> Team | None:
    from engine.teams.io import builtin_teams, load_builtin_team

    key = f"team:{team_id}"
    if key not in _SHIPPED:
        _SHIPPED[key] = load_builtin_team(team_id) if team_id in builtin_teams(None) else None
    return _SHIPPED[key]  # type: ignore[no-any-return]


def _roster_data(roster: Roster) -> RosterData:
    from engine.teams.io import team_from_dict, team_to_dict

    team = roster.team
    ref: Any = team.id
    if _builtin_team(team.id) != team:
        ref = team_to_dict(team)
        if team_from_dict(ref) != team:
            raise pickle.PicklingError(
                f"this battle's context cannot be rebuilt in another process: the team "
                f"{team.id!r:.60} does not read back from its data as the same team"
            )
    return (
        ref,
        roster.operatives,
        roster.loadouts,
        roster.choices,
        roster.operative_choices,
    )


def _roster(data: RosterData) -> Roster:
    from engine.teams.io import load_builtin_team, team_from_dict

    ref, operatives, loadouts, choices, operative_choices = data
    team = load_builtin_team(ref) if isinstance(ref, str) else team_from_dict(ref)
    return Roster(team, operatives, loadouts, choices, operative_choices)
