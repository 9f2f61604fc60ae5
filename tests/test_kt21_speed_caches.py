"""The caches that make KT21 battles fast give the answers a fresh computation gives.

Each test compares a remembered (or reused, or vectorised) answer with the same question
worked out afresh by the reference path, so no expected value is copied from the code's own
output:

- a layout keeps its objective-marker variants (:meth:`Killzone.with_objectives`), so the
  battles of a batch share one killzone value and its caches;
- rampart links (``rules/KT21.md`` 7.4, DC 16.10) are measured once per pair of nodes for
  both directions, for all pairs at once, and a derived graph (a barricade added, 1.2 step 7)
  reuses its layout graph's answers away from the barricade: they equal
  :func:`~engine.geometry.move_ramparts.rampart_link` asked for each pair and direction;
- KT21 Line of Sight answers (8.1-8.6) are kept on the killzone by every placement they
  read: equal to :func:`engine.rules.kt21.sight._line_of_sight` worked out afresh;
- barricade spots (1.2 step 7) are kept on the killzone across battles (with the areas the
  spots are tested against): the same spots and terrain refusals as worked out afresh;
- a seeded random KT21 battle played on a killzone whose caches are all warm ends in the
  same state as the same battle played first on a fresh layout.
"""

from __future__ import annotations

from engine.agents import RandomAgent
from engine.game.actions import Action
from engine.game.context import GameOptions
from engine.game.drivers import SeededDice, play
from engine.game.state import Decision, GameState
from engine.game.work import Work
from engine.geometry import Objective, TerrainType, load_killzone
from engine.geometry.move_ramparts import _rampart_pairs, rampart_link
from engine.geometry.move_values import DERIVED_MEMO
from engine.geometry.movement import move_graph
from engine.rules.equipment.shapes import equipment_feature
from engine.rules.kt21 import barricades
from engine.rules.kt21.sight import _line_of_sight, kt21_line_of_sight
from engine.rulesets import new_game
from engine.teams import load_builtin_team

RAMPART = "scenarios/killzones/kt21_rampart.toml"
TEAMS = ("kt21_kasrkin", "kt21_legionaries")
OPTIONS = GameOptions(ruleset="kt21")


def test_with_objectives_keeps_one_value_per_set_of_markers() -> None:
    """KT21 sets up its own six markers (15.2) on a layout: asking twice for the same
    markers gives the same killzone value (its movement graphs and sight caches are then
    built once per batch); other markers give another value, equal field by field to a
    fresh one (the same layout structure)."""
    kz = load_killzone("open_ruins")
    markers = (Objective("one", (10.0, 10.0)), Objective("two", (20.0, 12.0)))
    first = kz.with_objectives(markers)
    assert kz.with_objectives(markers) is first
    assert first.objectives == markers
    other = kz.with_objectives(markers[:1])
    assert other is not first and other.objectives == markers[:1]
    fresh = load_killzone("open_ruins").with_objectives(markers)
    assert fresh.to_dict() == first.to_dict()


def test_rampart_links_equal_the_reference_on_a_layout_and_a_derived_graph() -> None:
    """7.4, DC 16.10: every rampart pair of the keep fixture's graph, and of the graph
    derived from it with a barricade next to the rampart and one far away (1.2 step 7: its
    answers away from the barricades reused from the layout's graph), holds the links
    :func:`rampart_link` gives when asked for that pair going up and going down."""
    kz = load_killzone(RAMPART)
    near = equipment_feature("light_barricade", 16.0, 11.0, 90, name="near")
    far = equipment_feature("light_barricade", 5.0, 3.0, 0, name="far")
    derived = kz.with_terrain([near, far])
    linked = 0
    for layout in (kz, derived):
        g = move_graph(layout, 28.0)
        pairs = _rampart_pairs(g)
        assert pairs
        for (u, v), (up, down) in pairs.items():
            level = g._lvl_list[v]
            pu, pv = g._xy_list[u], g._xy_list[v]
            assert g._lvl_list[u] == 0 and level > 0
            assert up == rampart_link(g, 0, pu, level, pv)
            assert down == rampart_link(g, level, pv, 0, pu)
            linked += up is not None
    assert linked > 0  # the fixture's rampart is crossed
    assert move_graph(derived, 28.0).memo(DERIVED_MEMO, 1).get("reuse") is not None


def test_a_battle_on_warm_caches_ends_as_on_a_fresh_layout() -> None:
    """The caches kept across battles (the markers' killzone, its graphs and rampart links,
    the barricade spots, the sight answers) hold only what the rules compute from positions:
    a seeded battle played again on the same layout, every cache warm, ends in the same
    state (hash and step) as when it was played first on a freshly loaded layout."""
    rosters = [load_builtin_team(t).default() for t in TEAMS]
    kz = load_killzone(RAMPART)
    agents = {"A": RandomAgent(3), "B": RandomAgent(1003)}
    first = play(new_game(kz, rosters[0], rosters[1], OPTIONS), agents, SeededDice(3))
    agents = {"A": RandomAgent(3), "B": RandomAgent(1003)}
    again = play(new_game(kz, rosters[0], rosters[1], OPTIONS), agents, SeededDice(3))
    assert (again.hash(), again.step) == (first.hash(), first.step)
    assert first.step > 50  # a whole battle, not a refusal at set-up


def test_line_of_sight_answers_kept_equal_fresh_ones() -> None:
    """8.1-8.6: along a seeded random KT21 battle, at firefight states (every fifth, ten of
    them), each operative's Line of Sight to each enemy (the memo's answer, kept across
    states on the killzone) equals the answer worked out afresh from the same state."""
    rosters = [load_builtin_team(t).default() for t in TEAMS]
    state = new_game(load_killzone("open_ruins"), rosters[0], rosters[1], OPTIONS)
    seen: list[int] = []

    def check(_b: GameState, _a: Action, _p: str, after: GameState, _e: object) -> None:
        w = Work(after)
        if w.phase != "firefight" or len(seen) >= 50:
            return
        seen.append(1)
        if len(seen) % 5:
            return
        for a in w.alive():
            for b in w.enemies_of(a.id):
                kept = kt21_line_of_sight(w, a.id, b.id)
                assert kept == kt21_line_of_sight(w, a.id, b.id)
                assert kept == _line_of_sight(w, w.op(a.id), w.op(b.id))

    agents = {"A": RandomAgent(5), "B": RandomAgent(1005)}
    play(state, agents, SeededDice(5), on_step=check, max_steps=400)
    assert len(seen) == 50


def test_barricade_spots_kept_on_the_killzone_equal_fresh_ones() -> None:
    """1.2 step 7, DC 16.36: a barricade may not be set up on a terrain part that is not
    Insignificant. Over a grid of spots of the open ruins (the board and territory areas
    kept on the killzone), the refusal names terrain exactly when some non-Insignificant
    part overlaps the footprint (every part tested here), and the spots kept on the
    killzone are those worked out afresh."""
    rosters = [load_builtin_team(t).default() for t in TEAMS]
    state = new_game(load_killzone("open_ruins"), rosters[0], rosters[1], OPTIONS)
    agents = {"A": RandomAgent(7), "B": RandomAgent(1007)}
    dice = SeededDice(7)
    while not (isinstance(state.node, Decision) and state.node.kind == "equipment_setup"):
        state = play(state, agents, dice, max_steps=1)
    w = Work(state)
    kz = w.kz
    player = state.node.player
    outcomes: set[bool] = set()
    for x in range(1, 30, 2):
        for y in range(1, 22, 2):
            for angle in (0, 90):
                foot = barricades._footprint(float(x), float(y), angle)
                on_terrain = any(
                    TerrainType.INSIGNIFICANT not in kz.part_types(k)
                    and part.polygon.intersection(foot).area > 1e-6
                    for k, part in enumerate(kz.parts)
                )
                for fortify in (False, True):
                    why = barricades.placement_problem(
                        w, player, (float(x), float(y), 0.0), angle, fortify=fortify
                    )
                    if why is None or "on terrain" in why:
                        assert (why is not None) == on_terrain
                        outcomes.add(why is None)
    assert outcomes == {True, False}  # spots both accepted and refused on terrain
    kept = barricades.candidate_spots(w, player, fortify=False)
    assert kept == list(barricades._candidate_spots(w, player, fortify=False))
