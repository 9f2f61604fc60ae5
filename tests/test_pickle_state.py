"""Picklable, compact states (issue 29, item 4; :class:`engine.game.context.GameContext`).

A state pickles its own values and its battle's context as a small recipe (ruleset name,
killzone name or layout data, rosters as data, options) with a key; unpickling shares the
live context of that key in this process or rebuilds it through the ruleset's composition
root (:func:`engine.game.setup.new_context`). ``copy.copy`` / ``copy.deepcopy`` share the
context. What is checked here: a round-tripped state is equal, hashes equal, lists the same
legal actions and plays on identically, in this process, with the context rebuilt, and in a
``spawn`` child process; for random battles of every built-in team on both shipped
killzones, for every shipped scenario file, for a test team on a test killzone; and the
contexts that cannot be rebuilt are refused with a clear ``pickle.PicklingError``.
"""

from __future__ import annotations

import copy
import gc
import multiprocessing
import pickle
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import attrs
import pytest

from engine.agents.scenario_choices import best_choice
from engine.game import context as context_module
from engine.game.actions import Action
from engine.game.context import GameContext, Hooks
from engine.game.scenario_check import play_step
from engine.game.scenario_file import load_scenario, shipped_scenarios
from engine.game.setup import ContextRecipe
from engine.game.state import Chance, GameState
from engine.geometry import Killzone, load_killzone, shipped_killzones
from engine.rulesets import KT24, get, new_game
from engine.teams import builtin_teams, load_builtin_team
from tests.ploy_team import TEAM, add_ploys, pos

KILLZONES = ("open_ruins", "close_quarters")
POINT_EVERY = 25
"""Round trips are checked at every 25th input of the random battles."""


def _random_step(state: GameState, rng: random.Random) -> Action:
    if isinstance(state.node, Chance):
        outcomes = state.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
    return rng.choice(list(state.legal_actions()))


@attrs.frozen
class Battle:
    """A random battle: its states at every 25th input, every input, the final hash."""

    name: str
    points: tuple[GameState, ...]
    actions: tuple[Action, ...]
    final: str


def _play(killzone: Killzone, team_a: str, team_b: str, seed: int) -> Battle:
    rng = random.Random(seed)
    roster_a = load_builtin_team(team_a).default().with_random_choices(rng)
    roster_b = load_builtin_team(team_b).default().with_random_choices(rng)
    state = new_game(killzone, roster_a, roster_b)
    points, actions = [], []
    while not state.is_terminal:
        if state.step % POINT_EVERY == 0:
            points.append(state)
        action = _random_step(state, rng)
        actions.append(action)
        state, _ = state.apply(action)
    return Battle(f"{killzone.name}:{team_a}-{team_b}", tuple(points), tuple(actions), state.hash())


@pytest.fixture(scope="module")
def battles() -> list[Battle]:
    """One random battle per built-in team, as player A against the next team, on the
    shipped killzones in turn: with an even number of teams, every team plays on both
    killzones (as A on one, as B on the other)."""
    teams = builtin_teams()
    killzones = [load_killzone(name) for name in KILLZONES]
    return [
        _play(killzones[i % 2], team, teams[(i + 1) % len(teams)], i)
        for i, team in enumerate(teams)
    ]


def test_the_battles_cover_every_team_on_both_killzones(battles: list[Battle]) -> None:
    """What the battle fixture claims: each built-in team plays on each shipped killzone."""
    seen = set()
    for battle in battles:
        killzone, teams = battle.name.split(":")
        seen |= {(team, killzone) for team in teams.split("-")}
    assert seen == {(t, k) for t in builtin_teams() for k in KILLZONES}


@contextmanager
def _fresh_registry() -> Iterator[None]:
    """Unpickle as another process would: no live context to share (pickling still
    registers into the real registry, which is put back afterwards)."""
    saved = context_module._LIVE
    context_module._LIVE = type(saved)()
    try:
        yield
    finally:
        context_module._LIVE = saved


def _rebuilt(state: GameState) -> GameState:
    blob = pickle.dumps(state)
    with _fresh_registry():
        back = pickle.loads(blob)
    assert isinstance(back, GameState)
    return back


def _listing(state: GameState) -> list[Any]:
    if isinstance(state.node, Chance):
        return state.chance_outcomes()
    return list(state.legal_actions())


def _assert_same(a: GameState, b: GameState) -> None:
    assert b == a
    assert b.hash() == a.hash()
    assert _listing(b) == _listing(a)


def _continue(state: GameState, actions: tuple[Action, ...]) -> str:
    for action in actions:
        state, _ = state.apply(action)
    return state.hash()


def test_states_of_every_team_round_trip_and_play_on_identically(battles: list[Battle]) -> None:
    """At every 25th input of each battle, a pickled and unpickled state equals the original,
    hashes the same, lists the same legal actions, shares the live context (same process) and
    reaches the same next state with the same input: the state pickles all it is made of."""
    for battle in battles:
        for point in battle.points:
            back = pickle.loads(pickle.dumps(point))
            _assert_same(point, back)
            assert back.ctx is point.ctx
            action = battle.actions[point.step]
            assert back.apply(action)[0].hash() == point.apply(action)[0].hash()


def test_a_rebuilt_context_plays_a_battle_to_the_same_end(battles: list[Battle]) -> None:
    """Unpickled where no live context exists (as in another process), the context is rebuilt
    from its recipe: a new context, and the battle played on from the middle with the same
    inputs ends in the same state hash as the original battle (the rebuild gives the same
    killzone, datacards, options and hooks in the same order)."""
    for battle in battles[:2]:  # one per killzone
        point = battle.points[len(battle.points) // 2]
        back = _rebuilt(point)
        assert back.ctx is not point.ctx
        _assert_same(point, back)
        assert _continue(back, battle.actions[point.step :]) == battle.final


def _child(blob: bytes, actions: tuple[Action, ...]) -> tuple[str, list[Any], str]:
    """In the child process: unpickle, list, play on to the end."""
    state = pickle.loads(blob)
    return state.hash(), _listing(state), _continue(state, actions)


def test_states_cross_a_process_boundary_and_play_on_identically(battles: list[Battle]) -> None:
    """Pickled in this process and unpickled in a ``spawn`` child (a fresh interpreter: it
    rebuilds each context from the recipe), a mid-battle state of every battle hashes the
    same, lists the same legal actions, and played on with the battle's remaining inputs
    ends in the battle's final hash."""
    rng = random.Random(29)
    jobs, expected = [], []
    for battle in battles:
        point = rng.choice(battle.points[1:])
        jobs.append((pickle.dumps(point), battle.actions[point.step :]))
        expected.append((point.hash(), _listing(point), battle.final))
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        got = pool.starmap(_child, jobs)
    assert got == expected


def test_every_scenario_position_round_trips_with_its_context_rebuilt() -> None:
    """The starting position of every shipped scenario file (their own killzones, written
    into the recipe as layout data) rebuilt from its pickle equals the original, and the
    scenario's script played on both reaches equal states step by step."""
    for path in shipped_scenarios():
        scenario = load_scenario(path)
        state = scenario.start(ruleset=get(scenario.options.ruleset))
        back = _rebuilt(state)
        _assert_same(state, back)
        policy = scenario.policy(best_choice)
        for k, step in enumerate(scenario.steps):
            state, _ = play_step(state, step, f"{path.name} step {k + 1}", policy)
            back, _ = play_step(back, step, f"{path.name} step {k + 1} (rebuilt)", policy)
            assert back.hash() == state.hash()


def test_a_custom_team_on_a_custom_killzone_is_rebuilt_from_its_data() -> None:
    """A team that is not built in (the ploy test team) and a killzone that is not shipped
    (the LAB layout) pickle as their data: the recipe holds them, and the rebuilt context
    has an equal team and the same layout, so the position plays on identically."""
    state = pos({"PLOA-1": {"at": (3, 3)}, "PLOB-1": {"at": (20, 15)}})
    _, recipe = state.ctx.pickle_key()
    assert isinstance(recipe, ContextRecipe)
    assert isinstance(recipe.killzone, dict)
    assert isinstance(recipe.rosters[0][0], dict)
    back = _rebuilt(state)
    assert back.ctx.rosters["A"].team == TEAM
    assert back.ctx.killzone.to_dict() == state.ctx.killzone.to_dict()
    _assert_same(state, back)
    rng = random.Random(4)
    for _ in range(30):
        if state.is_terminal:
            break
        action = _random_step(state, rng)
        state, back = state.apply(action)[0], back.apply(action)[0]
        assert back.hash() == state.hash()


def test_shipped_killzone_and_built_in_teams_are_named_not_written_out(
    battles: list[Battle],
) -> None:
    """The recipe of a battle of built-in teams on a shipped killzone holds their names
    only (their data is in every process), which keeps a pickled mid-battle state small."""
    state = battles[0].points[len(battles[0].points) // 2]
    _, recipe = state.ctx.pickle_key()
    assert isinstance(recipe, ContextRecipe)
    assert recipe.killzone == state.ctx.killzone.name
    assert [r[0] for r in recipe.rosters] == [state.ctx.rosters[p].team.id for p in "AB"]
    assert len(pickle.dumps(state)) < 20_000


def test_copies_share_the_context_and_drop_the_memo(battles: list[Battle]) -> None:
    """``copy.copy`` and ``copy.deepcopy`` of a state are equal states on the same context
    (the context is never copied); the copy starts with an empty memo (the memo is a cache
    of the state, recomputed on demand), as does an unpickled state."""
    state = battles[1].points[3]
    state.hash()
    list(state.legal_actions())
    assert state._memo
    for other in (copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert other == state
        assert other.ctx is state.ctx
        assert other._memo == {}
        assert other.hash() == state.hash()
    assert copy.deepcopy(state.ctx) is state.ctx
    assert copy.copy(state.ctx) is state.ctx


def _add_nothing_ploy(hooks: Hooks) -> None:
    """A module-level ``with_hooks`` function (it pickles by reference)."""
    hooks.condition("pickle_test_condition", _never)


def _never(_w: Any, _effect: Any) -> bool:
    return False


def test_hooks_added_by_a_module_level_function_are_rebuilt() -> None:
    """A context changed by ``with_hooks`` with a module-level function is rebuilt by
    composing the battle again and adding the same function: the rebuilt context has the
    added hook."""
    state = new_game(
        load_killzone("open_ruins"),
        load_builtin_team("kasrkin").default(),
        load_builtin_team("kommandos").default(),
    ).with_hooks(_add_nothing_ploy)
    back = _rebuilt(state)
    assert back.ctx is not state.ctx
    assert back.ctx.hooks.conditions["pickle_test_condition"] is _never
    _assert_same(state, back)


def test_hooks_added_by_a_closure_are_refused_with_a_clear_error() -> None:
    """A function that does not pickle (a closure) cannot be written into the recipe: the
    pickling fails at once with a ``PicklingError`` naming ``with_hooks`` and the function,
    rather than a state that would fail to load in another process; copies still work."""
    state = add_ploys(pos({"PLOA-1": {"at": (3, 3)}, "PLOB-1": {"at": (20, 15)}}), [])
    with pytest.raises(pickle.PicklingError, match=r"with_hooks with add_ploys\.<locals>\.add"):
        pickle.dumps(state)
    assert copy.deepcopy(state) == state


def test_a_context_built_directly_is_refused_with_a_clear_error() -> None:
    """A context not made by a ruleset's composition root has no recipe: pickling says so."""
    state = new_game(
        load_killzone("open_ruins"),
        load_builtin_team("kasrkin").default(),
        load_builtin_team("kommandos").default(),
    )
    direct = attrs.evolve(state, ctx=attrs.evolve(state.ctx, origin=None))
    with pytest.raises(pickle.PicklingError, match="built directly"):
        pickle.dumps(direct)


def test_the_registry_does_not_keep_a_finished_battle_alive() -> None:
    """The registry of live contexts holds them weakly: once the battle's states are gone,
    its context is gone from the registry too (never a leak across many battles)."""
    state = new_game(
        load_killzone("open_ruins"),
        load_builtin_team("kasrkin").default(),
        load_builtin_team("pathfinders").default(),
    )
    pickle.dumps(state)
    key, _ = state.ctx.pickle_key()
    assert context_module._LIVE.get(key) is state.ctx
    del state
    gc.collect()
    assert context_module._LIVE.get(key) is None


def test_a_context_is_shared_by_its_key_within_a_process() -> None:
    """Unpickled in the process where its battle is live, a state is on that very context
    (no rebuild, the geometry caches shared), even a state pickled before others."""
    state = new_game(
        load_killzone("close_quarters"),
        load_builtin_team("legionaries").default(),
        load_builtin_team("hierotek_circle").default(),
    )
    blobs = [pickle.dumps(state) for _ in range(3)]
    assert all(pickle.loads(b).ctx is state.ctx for b in blobs)
    assert isinstance(state.ctx, GameContext)


def test_a_registered_ruleset_unpickles_as_itself() -> None:
    """Rulesets pickle by name, so a rebuilt context runs on the very ruleset object."""
    assert pickle.loads(pickle.dumps(KT24)) is KT24


@pytest.mark.parametrize("name", [*shipped_killzones(), "scenario layouts"])
def test_killzone_layout_data_reads_back_as_the_same_layout(name: str) -> None:
    """``Killzone.from_dict(kz.to_dict())`` has the same features, rings point for point,
    heights, types, areas and markers (what a rebuilt context's killzone must be), with the
    hatchway state kept and added terrain left out (the recipe carries that separately)."""
    if name == "scenario layouts":
        kzs = [load_scenario(p).killzone for p in shipped_scenarios()]
    else:
        kzs = [load_killzone(name)]
    for kz in kzs:
        data = kz.to_dict()
        back = Killzone.from_dict(data, kz.source)
        assert back.to_dict() == data
        assert back.features == kz.features and back.parts == kz.parts
        assert all(
            a.polygon.equals_exact(b.polygon, 0) for a, b in zip(back.parts, kz.parts, strict=True)
        )
        assert back.objectives == kz.objectives and back.hatchways == kz.hatchways
        for h in sorted(kz.hatchways)[:1]:
            opened = kz.with_open_hatchways([h])
            assert Killzone.from_dict(opened.to_dict()).open_hatchways == {h}
