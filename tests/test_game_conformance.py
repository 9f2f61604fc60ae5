"""Random-playout conformance (issue: the game engine; DESIGN.md "Testing and measuring").

At least 200 seeded games between random agents, rotating over the ordered pairs of built-in
teams and, every ``len(_PAIRS)`` games, the two killzone layouts (so every ordered pair plays
on both), checking at every node the invariants of every ruleset
(``tests/conformance_support.py``, the helper the KT21 conformance tests use too: legal
actions listed in canonical order, notation round trips, chance weights, deterministic
inputs, a rejected input changes nothing, resources never negative...) and:

- every Shoot, Fight and retaliation names a weapon of the operative's own loadout (1.2);

and per game: the battle ends after turning point 4 with a result consistent with the VP,
within the Approved Ops 2025 VP caps, and its record names KT24 and replays to the same
final hash.
"""

from __future__ import annotations

import functools
import itertools

import pytest

from engine.agents import RandomAgent
from engine.game import GameOptions
from engine.game.actions import Action
from engine.game.drivers import SeededDice
from engine.game.events import Event
from engine.game.record import GameRecorder, make_header
from engine.game.setup import operative_ids
from engine.game.state import GameState
from engine.game.universal import weapon_name
from engine.game.work import Work
from engine.geometry import load_killzone
from engine.rules.equipment import grenade_uses
from engine.rulesets import KT24, new_game
from engine.teams import Roster, builtin_teams, load_builtin_team
from tests.conformance_support import (
    ROUND_TRIPPED,
    bogus,
    check_replay,
    check_resources,
    check_result,
    play_conforming,
)
from tests.test_loadouts import _notation_names

GAMES = 200
BATCH = 10
LAYOUTS = ("open_ruins", "close_quarters")
_KZ = {name: load_killzone(name) for name in LAYOUTS}
_TEAMS = {t: load_builtin_team(t).default() for t in builtin_teams()}
_PAIRS = list(itertools.permutations(sorted(_TEAMS), 2))
_STARTS: dict[tuple[str, str, str, GameOptions | None], GameState] = {}
# The shared checks under the names tests/test_mission_conformance.py imports from here.
_ROUND_TRIPPED = ROUND_TRIPPED
_bogus = bogus
_check_resources = check_resources


def _start(layout: str, a: str, b: str, options: GameOptions | None = None) -> GameState:
    """The first state of a battle of the built-in teams ``a`` (player A) and ``b`` on
    ``layout`` with ``options``, built once per process and shared by the games that start
    alike: a state is a value and :func:`new_game` a pure function of its arguments (the
    games differ by their agents' and dice's seeds)."""
    key = (layout, a, b, options)
    got = _STARTS.get(key)
    if got is None:
        got = _STARTS[key] = new_game(_KZ[layout], _TEAMS[a], _TEAMS[b], options)
    return got


def _loadout_weapons(rosters: dict[str, Roster]) -> dict[str, set[str]]:
    """The weapon notation names each operative may use, from its roster entry's loadout."""
    ids = operative_ids(rosters)
    return {
        op_id: _notation_names(rosters[p].team, entry)
        for p in ("A", "B")
        for op_id, entry in zip(ids[p], rosters[p].entries, strict=True)
    }


_WEAPON_EVENTS = ("shoot_declared", "fight_declared", "retaliation_weapon")


@functools.cache
def _grenades(equipment: tuple[str, ...]) -> frozenset[str]:
    """The grenade weapons an Explosive Grenades selection gives (7.2), by notation name
    (a pure function of the selection, worked out once per selection)."""
    out: set[str] = set()
    for sel in equipment:
        if sel.startswith("Explosive Grenades"):
            out |= {f"{g} grenade" for g in grenade_uses(sel)}
    return frozenset(out)


def _given(state: GameState, op_id: str) -> set[str]:
    """The weapons rule modules give ``op_id`` in ``state`` beyond its datacard
    (``Hooks.weapon_source``: grenades, team equipment such as combat daggers), by notation
    name."""
    w = Work(state)
    return {
        weapon_name(weapon, prof)
        for kind in ("ranged", "melee")
        for fn in state.ctx.hooks.weapon_sources
        for weapon in fn(w, op_id, kind)
        for prof in weapon.profiles
    }


def _weapon_allowed(
    weapon: str, op_id: str, state: GameState, after: GameState, allowed: dict[str, set[str]]
) -> bool:
    """Whether ``op_id`` may use ``weapon`` in the step from ``state`` to ``after``: a weapon
    of its loadout (``allowed``), a grenade its kill team selected (7.2), or a weapon a rule
    gives it before or after the step (:func:`_given`: its team's equipment selected...).
    The sources are looked at in that order and only until one has it (the cheap ones
    first)."""
    return (
        weapon in allowed[op_id]
        or weapon in _grenades(state.player(state.ctx.owner[op_id]).equipment)
        or weapon in _given(state, op_id)
        or weapon in _given(after, op_id)
    )


def _play_checked(
    seed: int,
    rosters: tuple[Roster, Roster] | None = None,
    options: GameOptions | None = None,
    collect: list[Event] | None = None,
    layout: str | None = None,
) -> tuple[GameState, list[str]]:
    """Play the game of ``seed`` with every check of the module docstring: on the built-in
    teams of its pair by default, else on ``rosters`` (A, B); on ``layout``, by default the
    layout the seed gives (every ordered pair of teams meets on both layouts over
    ``2 * len(_PAIRS)`` consecutive seeds). Returns the final state and the trigger of every
    ploy used, in order; every event is appended to ``collect`` when given."""
    if rosters is None:
        a, b = _PAIRS[seed % len(_PAIRS)]
        rosters = (_TEAMS[a], _TEAMS[b])
        layout = layout or LAYOUTS[(seed // len(_PAIRS)) % 2]
        state = _start(layout, a, b, options)
    else:
        layout = layout or LAYOUTS[seed % 2]
        state = new_game(_KZ[layout], rosters[0], rosters[1], options)
    allowed = _loadout_weapons({"A": rosters[0], "B": rosters[1]})
    rec = GameRecorder(make_header(state, seed=seed, agents={"A": "random", "B": "random"}))
    agents = {"A": RandomAgent(2 * seed + 1), "B": RandomAgent(2 * seed + 2)}
    triggers: list[str] = []

    def observe(
        before: GameState, action: Action, actor: str, after: GameState, events: list[Event]
    ) -> None:
        if collect is not None:
            collect.extend(events)
        for e in events:
            if e.kind == "ploy_used":
                triggers.append(e["trigger"])
            if e.kind in _WEAPON_EVENTS:
                # Its loadout's weapons, a grenade its kill team selected (7.2), or a weapon
                # a rule gives it (its team's equipment selected...).
                assert _weapon_allowed(e["weapon"], e["op"], before, after, allowed), (
                    e["op"],
                    e["weapon"],
                    seed,
                )
        rec.on_step(before, action, actor, after, events)

    state = play_conforming(state, agents, SeededDice(seed), seed=seed, observe=observe)
    rec.finish(state)
    assert state.tp == 5 and state.phase == "over"
    vp = check_result(state).vp
    # Approved Ops 2025 (8.1): kill, crit and tac ops give at most 6VP each, the primary op
    # half of one of them rounded up (at most 3): 21VP in all; the total is the ops' sum.
    mission = state.mission
    for op, a, b in mission.vp:
        assert op in ("kill", "crit", "tac", "primary"), op
        assert 0 <= a <= (3 if op == "primary" else 6) and 0 <= b <= (3 if op == "primary" else 6)
    assert vp == (sum(r[1] for r in mission.vp), sum(r[2] for r in mission.vp))
    assert all(0 <= v <= 21 for v in vp)
    check_replay(rec, state, KT24)
    return state, triggers


def test_the_seeds_play_every_ordered_pair_of_teams_on_both_layouts() -> None:
    # 200 seeds over 30 ordered pairs: seeds 0-29 and 30-59 give each pair both layouts.
    assert 2 * len(_PAIRS) <= GAMES
    met = {(_PAIRS[s % len(_PAIRS)], LAYOUTS[(s // len(_PAIRS)) % 2]) for s in range(GAMES)}
    assert len(met) == 2 * len(_PAIRS) == 2 * len(_TEAMS) * (len(_TEAMS) - 1)


@pytest.mark.parametrize("batch", range(GAMES // BATCH))
def test_random_playouts_conform(batch: int) -> None:
    for seed in range(batch * BATCH, (batch + 1) * BATCH):
        _play_checked(seed)
