"""Creating a battle (``rules/KT24.md`` 1.2): killzone, both rosters, options, hooks.

The core names no rule module: :func:`start_battle` is given the ruleset, which installs the
rules (``engine.rulesets``, the composition roots; :func:`engine.rulesets.new_game` picks the
ruleset the options name).

Operative ids are the first three ASCII letters or digits of the team id in upper case (``OP``
when it has none) and the operative's place in its roster (``KAS-1``); when both players field
teams with the same prefix the player's letter is added (``KASA-1``, ``KASB-1``). Every id
made this way is one the action notation reads back (``engine.game.actions``).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.errors import KillTeamError
from engine.game import deployment, flow
from engine.game.context import GameContext, GameOptions, Hooks
from engine.game.flow import SetupFrame, advance
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
from engine.geometry import Killzone, TerrainType
from engine.teams.model import Roster, Team, team_problem

__all__ = ["SetupError", "operative_ids", "start_battle"]


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
    ops: list[OperativeState] = []
    for p in ("A", "B"):
        for k, op_id in enumerate(ids[p]):
            card = rosters[p].datacard(k)  # exactly its loadout's weapons (1.2)
            all_ids.append(op_id)
            owner[op_id] = p
            datacards[op_id] = card
            ops.append(OperativeState(id=op_id, player=p, wounds=card.wounds))
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
    )
    markers = tuple(
        MarkerState(o.name, o.position[0], o.position[1], pickup=opts.objectives_pickup)
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
        stack=(SetupFrame(),),
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
    for step in reversed(hooks.start_steps):
        frame = step(w)
        if frame is not None:
            w.stack.append(frame)
    advance(w)
    return w.freeze()


def _placeholder() -> Decision:
    return Decision("A", "setup")
