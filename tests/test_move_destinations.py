"""The batched destination check (engine.geometry.move_destinations._reachable) gives the same
answers as checking each spot on its own with the path search (``_reachable_each``, the
reference): same spots reached, same final placements and move costs, in the same order.

Why the answers must agree: the fast path only decides a spot when the straight line to it is
a plain move that keeps out of every zone, and that line is then the cheapest path (rules
3.3: an increment costs its length rounded up, and no path is shorter than the straight line);
every other spot goes to the same search as the reference. The cheap prefilters (bounding
distances with a 1e-9" margin) only skip exact tests that cannot succeed. These tests compare
the two on many random positions, for every move action, on both shipped killzones (Vantage
levels in the open ruins, walls and hatchways in close quarters).
"""

from __future__ import annotations

import math
import random

import pytest
import shapely

from engine.geometry import Killzone, Placement, load_killzone
from engine.geometry.move_destinations import (
    _finals_ok,
    _reachable_costs,
    _reachable_each,
    _spot_keys,
)
from engine.geometry.move_query import MoveError, _Query, max_move
from engine.geometry.movement import move_graph

BASES = (28.0, 32.0)  # the default rosters of the tests' matchups: graphs cached on disk


def _random_place(rng: random.Random, kz: Killzone, base_mm: float) -> Placement:
    """A random placement where a base of ``base_mm`` may stand: on the floor or, one time in
    four, on a Vantage level of the killzone."""
    g = move_graph(kz, base_mm)
    levels = [lvl for lvl in g.levels if not lvl.strict.is_empty]
    for _ in range(200):
        lvl = levels[0] if len(levels) == 1 or rng.random() < 0.75 else rng.choice(levels[1:])
        x0, y0, x1, y1 = lvl.strict.bounds
        x, y = round(rng.uniform(x0, x1), 3), round(rng.uniform(y0, y1), 3)
        if shapely.intersects_xy(lvl.strict_tol, x, y):
            return Placement(x, y, base_mm, lvl.height)
    return Placement(kz.width / 2, kz.depth / 2, base_mm)


def _spots(rng: random.Random, me: Placement, limit: float, kz: Killzone) -> list[tuple]:
    """Candidate end points as the listing makes them (rings at whole and half distances)
    plus random points around the mover, some on Vantage levels, some exactly on others'
    bases."""
    out: list[tuple[float, float, float]] = []
    for k in range(8):
        ang = 2 * math.pi * k / 8
        # The last spot is within the distance as the crow flies, but with a fractional
        # distance its straight line rounds up past it (3.3): it must be refused.
        for d in (math.floor(limit), max(1.0, math.floor(limit) / 2), limit - 0.1):
            out.append((me.x + d * math.cos(ang), me.y + d * math.sin(ang), me.elevation))
    heights = [lvl.height for lvl in move_graph(kz, me.base_mm).levels]
    for _ in range(16):
        ang, d = rng.uniform(0, 2 * math.pi), rng.uniform(0.0, limit + 1.0)
        z = rng.choice(heights) if rng.random() < 0.3 else me.elevation
        out.append((me.x + d * math.cos(ang), me.y + d * math.sin(ang), z))
    return out


def _queries(seed: int, kz: Killzone, count: int):
    rng = random.Random(seed)
    made = 0
    while made < count:
        base = rng.choice(BASES)
        me = _random_place(rng, kz, base)
        enemies = [_random_place(rng, kz, rng.choice(BASES)) for _ in range(rng.randint(1, 6))]
        # Some enemies close by, so control ranges and Charge targets are in play.
        for _ in range(rng.randint(0, 2)):
            ang = rng.uniform(0, 2 * math.pi)
            d = rng.uniform(1.5, 5.0)
            enemies.append(
                Placement(
                    round(me.x + d * math.cos(ang), 3), round(me.y + d * math.sin(ang), 3), 32.0
                )
            )
        friends = [_random_place(rng, kz, rng.choice(BASES)) for _ in range(rng.randint(0, 5))]
        action = rng.choice(("reposition", "dash", "charge", "fall_back"))
        # A fractional Move makes the rounded-up cost of a straight line matter (3.3).
        limit = max_move(action, rng.choice((5.5, 6.0, 7.0)))
        if rng.random() < 0.2:
            limit = 2.0  # a counteraction's move
        try:
            q = _Query(kz, move_graph(kz, base), me, action, enemies, friends, limit)
        except MoveError:
            continue
        made += 1
        yield q, _spots(rng, me, limit, kz)


@pytest.mark.parametrize("layout", ["open_ruins", "close_quarters"])
def test_batched_reachable_matches_searching_each_spot(layout: str) -> None:
    kz = load_killzone(layout)
    reached = 0
    for q, spots in _queries(7, kz, 30):
        fast = _reachable_costs(q, spots)
        assert fast == _reachable_each(q, spots), (q.action, q.mover, spots)
        reached += len(fast)
    assert reached > 50  # the comparison covers many reached spots, not only refusals


def test_batched_reachable_matches_with_hatchways_open() -> None:
    cq = load_killzone("close_quarters")
    kz = cq.with_open_hatchways(sorted(cq.hatchways)[:2])
    for q, spots in _queries(11, kz, 15):
        assert _reachable_costs(q, spots) == _reachable_each(q, spots)


@pytest.mark.parametrize("layout", ["open_ruins", "close_quarters"])
def test_batched_final_checks_match_final_reason(layout: str) -> None:
    """``_finals_ok`` says yes exactly where ``_Query.final_reason`` has no objection."""
    kz = load_killzone(layout)
    both = 0
    for q, spots in _queries(3, kz, 40):
        keys = _spot_keys(q, spots)
        levels = [q.g.level_at(*k) for k in keys]
        fast = _finals_ok(q, keys, levels)
        slow = [q.final_reason(lvl, *k) is None for k, lvl in zip(keys, levels, strict=True)]
        assert fast == slow
        both += sum(fast) * (len(fast) - sum(fast))
    assert both > 0  # both verdicts occur within the same queries


def test_a_listed_move_applies_as_a_fresh_path_search_would() -> None:
    """Listing keeps each destination's outcome (final placement and cost) so that moving
    there does not search again; a battle whose moves are all searched afresh (nothing kept)
    emits the same events, move costs included."""
    from engine.agents import RandomAgent
    from engine.game.context import GameContext
    from engine.game.drivers import SeededDice
    from engine.game.state import Decision
    from engine.rulesets import new_game
    from engine.teams import load_builtin_team

    kz = load_killzone("open_ruins")
    rosters = [load_builtin_team(t).default() for t in ("kasrkin", "legionaries")]
    state = new_game(kz, *rosters)
    agents = {"A": RandomAgent(5), "B": RandomAgent(6)}
    dice = SeededDice(5)
    steps = []
    while not state.is_terminal and len(steps) < 150:
        node = state.node
        action = agents[node.player].act(state) if isinstance(node, Decision) else dice.roll(state)
        after, events = state.apply(action)
        steps.append((action, events))
        state = after
    moves = [a for a, _ in steps if a.verb in ("Reposition", "Dash", "Charge", "Fall Back")]
    assert len(moves) >= 5

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(GameContext, "peek", lambda self, key: None)
        fresh = new_game(kz, *rosters)
        for action, events in steps:
            fresh, again = fresh.apply(action)
            assert again == events, action


@pytest.mark.parametrize("layout", ["open_ruins", "close_quarters"])
def test_a_listing_memo_gives_each_action_the_answers_it_gives_alone(layout: str) -> None:
    """One memo shared by the four move actions of a listing (Reposition and Dash share their
    zones; Charge and Fall Back have their own) gives each action exactly the destinations and
    costs it has without a memo; the memo also moves on to other positions and operatives
    without carrying a stale answer (the same memo is used for every case in turn)."""
    from engine.geometry.movement import ReachMemo, reachable_with_costs

    kz = load_killzone(layout)
    rng = random.Random(13)
    memo = ReachMemo()
    reached = 0
    for _ in range(15):
        base = rng.choice(BASES)
        me = _random_place(rng, kz, base)
        enemies = [_random_place(rng, kz, rng.choice(BASES)) for _ in range(rng.randint(1, 6))]
        ang = rng.uniform(0, 2 * math.pi)
        enemies.append(
            Placement(round(me.x + 3 * math.cos(ang), 3), round(me.y + 3 * math.sin(ang), 3), 32.0)
        )
        friends = [_random_place(rng, kz, rng.choice(BASES)) for _ in range(rng.randint(0, 5))]
        move = rng.choice((5.5, 6.0, 7.0))
        for action in ("reposition", "dash", "fall_back", "charge"):
            spots = _spots(rng, me, max_move(action, move), kz)
            args = {"action": action, "enemies": enemies, "friends": friends, "move": move}
            shared = reachable_with_costs(kz, me, spots, **args, memo=memo)
            assert shared == reachable_with_costs(kz, me, spots, **args), action
            reached += len(shared)
    assert reached > 40


def test_a_listing_memo_forgets_its_answers_when_an_operative_moves() -> None:
    """A friendly operative now standing on a destination the memo found reachable: the same
    memo must not offer it again (bases never overlap, 3.3), as a fresh query does not."""
    from engine.geometry.movement import ReachMemo, reachable_with_costs

    kz = load_killzone("open_ruins")
    rng = random.Random(21)
    memo = ReachMemo()
    checked = 0
    for _ in range(20):
        me = _random_place(rng, kz, 32.0)
        enemies = [_random_place(rng, kz, 32.0) for _ in range(3)]
        spots = _spots(rng, me, 6.0, kz)
        first = reachable_with_costs(kz, me, spots, enemies=enemies, memo=memo)
        if not first:
            continue
        taken = first[0][0]
        friend = Placement(taken.x, taken.y, 32.0, taken.elevation)
        again = reachable_with_costs(kz, me, spots, enemies=enemies, friends=[friend], memo=memo)
        assert again == reachable_with_costs(kz, me, spots, enemies=enemies, friends=[friend])
        assert taken not in [final for final, _ in again]
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("layout", ["open_ruins", "close_quarters"])
def test_has_action_options_is_whether_the_listing_is_empty(layout: str) -> None:
    """The On Guard window (9.3) asks only whether an operative has any Shoot or Fight to
    interrupt with; the short-cut that stops at the first listed action must say yes exactly
    when the full listing is not empty, in every mode, for every operative, all battle long."""
    from engine.agents import RandomAgent
    from engine.game.drivers import SeededDice
    from engine.game.state import Decision
    from engine.game.universal import has_action_options, list_action_options
    from engine.game.work import Work
    from engine.rulesets import new_game
    from engine.teams import load_builtin_team

    kz = load_killzone(layout)
    state = new_game(kz, *[load_builtin_team(t).default() for t in ("kasrkin", "legionaries")])
    agents, dice = {"A": RandomAgent(3), "B": RandomAgent(4)}, SeededDice(3)
    seen = {True: 0, False: 0}
    step = 0
    while not state.is_terminal and step < 400:
        node = state.node
        if isinstance(node, Decision):
            if step % 20 == 0:
                w = Work(state)
                for o in w.alive():
                    for mode in ("activation", "counteract", "interrupt"):
                        full = bool(list_action_options(w, o, mode))
                        assert has_action_options(w, o, mode) == full
                        seen[full] += 1
            action = agents[node.player].act(state)
        else:
            action = dice.roll(state)
        state, _ = state.apply(action)
        step += 1
    assert seen[True] > 20 and seen[False] > 20


@pytest.mark.parametrize("layout", ["open_ruins", "close_quarters"])
def test_fast_straight_reach_matches_the_overlay_bit_for_bit(layout: str) -> None:
    """How far a base can go straight in each direction (the rings of listed destinations):
    the edge test with GEOS exit points gives exactly the overlay's lengths (the same floats,
    so the same destinations after quantising), on every level and base size, from random
    starts and from starts on a 0.25" grid (rays through terrain corners at 45 degrees are
    the doubtful cases the fast path hands to the overlay)."""
    from engine.geometry.move_destinations import _straight_reach, _straight_reach_fast

    rng = random.Random(17)
    dirs8 = [(math.cos(2 * math.pi * k / 8), math.sin(2 * math.pi * k / 8)) for k in range(8)]
    base_kz = load_killzone(layout)
    kzs = [base_kz]
    if base_kz.hatchways:
        kzs.append(base_kz.with_open_hatchways(sorted(base_kz.hatchways)[:2]))
    rays = 0
    for kz in kzs:
        for base in (28.0, 32.0):
            g = move_graph(kz, base)
            for lvl in g.levels:
                x0, y0, x1, y1 = lvl.strict_tol.bounds
                for i in range(60 if lvl.index == 0 else 10):
                    x, y = rng.uniform(x0 - 0.5, x1 + 0.5), rng.uniform(y0 - 0.5, y1 + 0.5)
                    if i % 3 == 0:
                        x, y = round(x * 4) / 4, round(y * 4) / 4
                    start = (round(x, 3), round(y, 3))
                    length = rng.choice((3.0, 6.0, 9.0))
                    fast = _straight_reach_fast(g, lvl, start, dirs8, length)
                    assert fast == _straight_reach(lvl, start, dirs8, length), start
                    rays += len(fast)
    assert rays > 1500


@pytest.mark.parametrize("layout", ["open_ruins", "close_quarters"])
def test_a_link_clear_of_every_zone_disc_is_never_refused_by_the_zones(layout: str) -> None:
    """The path search skips the exact zone checks (enemy bases, control ranges the action may
    not enter, 3.2) for links that keep more than 1e-9" outside every zone's disc: for such a
    link the exact check must always agree that nothing is in the way. Links near enemies are
    among the cases, and some of them are refused (the check is not vacuous)."""
    import numpy as np

    from engine.geometry.move_query import near_zones

    kz = load_killzone(layout)
    rng = random.Random(29)
    clear = refused = 0
    for q, _ in _queries(5, kz, 40):
        s, lvl = q.start, q.start_level
        ends = [
            (rng.uniform(s[0] - 8, s[0] + 8), rng.uniform(s[1] - 8, s[1] + 8)) for _ in range(20)
        ]
        for e in q.enemies:  # links ending at or passing by an enemy
            ends.append((e.x + rng.uniform(-1, 1), e.y + rng.uniform(-1, 1)))
        zones = [z for z in q.zones if z.level == lvl]
        near = near_zones(s, np.asarray(ends, dtype=float), zones).tolist()
        for end, close in zip(ends, near, strict=True):
            ok = q.zones_ok(lvl, s, lvl, end)
            if not close:
                assert ok, (q.action, s, end)
                clear += 1
            refused += not ok
    assert clear > 100 and refused > 10
