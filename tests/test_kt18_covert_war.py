"""Covert War, the KT18 mission (``rules/KT18.md`` 9): strategic advantage, objective marker
placement, the primary objective, deployment in halves, objective control, Retrieve the
Cache, each primary objective's VP and the minor victory on a tie.

These tests play the set-up of a real KT18 battle (the ``kt18`` ruleset: its battle frame
runs Covert War's set-up steps, then battle round 1 begins with its start steps, then the
Initiative phase). The killzone is an empty 30" x 22" board, so every expected count is
plain arithmetic."""

from __future__ import annotations

import json
import math
from pathlib import Path

import attrs
import pytest

from engine.game.actions import IllegalActionError
from engine.game.context import GameOptions, GameOptionsError
from engine.game.state import Chance, Decision, Effect, GameState
from engine.game.work import Work
from engine.geometry import Killzone, load_killzone
from engine.missions import kt18
from engine.missions.kt18 import objectives, scoring
from engine.missions.kt18.objectives import (
    INFILTRATE,
    PRIMARY,
    RETRIEVE_THE_CACHE,
    SECURE_THE_BATTLEFIELD,
)
from engine.missions.scoring import set_fact
from engine.rulesets import KT18, new_game
from engine.teams.io import team_from_dict
from engine.teams.roster import Roster
from tests.kt18_flow_support import apply_all as _play
from tests.kt18_flow_support import event_data as _kinds

_TEAM = team_from_dict(
    json.loads((Path(__file__).parent / "data" / "kt18_test_team.json").read_text("utf-8"))
)
R = 25 / 25.4 / 2
"""The radius of the test team's 25mm bases, inches."""


OPTIONS = GameOptions(ruleset="kt18")
"""A KT18 battle: Covert War, its only mission."""

_BOX = [[0, 0], [6, 0], [6, 22], [0, 22], [0, 0]]
_BOX_B = [[24, 0], [30, 0], [30, 22], [24, 22], [24, 0]]


def _empty() -> Killzone:
    return Killzone.from_dict(
        {
            "name": "empty",
            "features": [],
            "drop_zones": {"A": _BOX, "B": _BOX_B},
            "objectives": [{"name": "centre", "position": [15, 11]}],
        }
    )


def _new(a: int = 3, b: int = 3) -> GameState:
    ra = Roster.from_entries(_TEAM, ["Trooper"] * a)
    rb = Roster.from_entries(_TEAM, ["Trooper"] * b)
    s = new_game(_empty(), ra, rb, OPTIONS)
    assert s.ctx.rules.ruleset is KT18
    return s


# A greatest (12 v 2), markers at (10, 11) and (20, 11), primary rolled by A.
_TO_PRIMARY = ("roll 6,6", "roll 1,1", "Op marker at 10,11", "Op marker at 20,11")


def _to_deploy(primary_face: int = 1, split: str = "west east", zone: str = "west") -> GameState:
    s, _ = _play(
        _new(), *_TO_PRIMARY, f"roll {primary_face}", f"Op split {split}", f"Op zone {zone}"
    )
    return s


# -- strategic advantage (9.3) -----------------------------------------------------------------


def test_strategic_advantage_is_2d6_each_and_ties_roll_again() -> None:
    """9.3: each player rolls 2D6, tied scores roll again: 3+3 = 6 and 4+2 = 6 tie, so both
    roll again; then 2+1 = 3 for A and 5+4 = 9 for B: B has the greatest advantage."""
    s = _new()
    assert isinstance(s.node, Chance) and s.node.request.kind == "kt18_strategic_advantage"
    assert s.node.request.dice == 2
    s, ev = _play(s, "roll 3,3", "roll 4,2")
    assert _kinds(ev, "kt18_strategic_advantage") == [{"a": 6, "b": 6, "order": ()}]
    assert isinstance(s.node, Chance) and s.node.request.player == "A"
    s, ev = _play(s, "roll 2,1", "roll 5,4")
    assert _kinds(ev, "kt18_strategic_advantage")[0]["order"] == ("B", "A")
    assert objectives.advantage_order(s) == ("B", "A")
    assert s.node == Decision("B", "kt18_objective_marker")


# -- objective markers (9.3) -------------------------------------------------------------------


def test_objective_markers_ignore_the_layout_ones() -> None:
    """9.3: the players place the markers; the layout's own (here one at the centre) is not
    used (the killzone of the battle has none)."""
    assert _new().markers == ()
    assert kt18.battle_killzone(load_killzone("open_ruins"), GameOptions()).objectives == ()


def test_objective_marker_points_listed_every_inch_legal() -> None:
    """9.3: at least 6" from every edge of a 30" x 22" board leaves x in 6..24 and y in
    6..16: 19 x 11 = 209 whole-inch points for the first marker. The second must be at
    least 8" from (10, 11): of the 209, those with (x-10)^2 + (y-11)^2 >= 64 remain."""
    s, _ = _play(_new(), "roll 6,6", "roll 1,1")
    assert len(s.legal_actions()) == 209
    s, _ = _play(s, "Op marker at 10,11")
    expected = sum(
        1 for x in range(6, 25) for y in range(6, 17) if (x - 10) ** 2 + (y - 11) ** 2 >= 64
    )
    listed = s.legal_actions()
    assert len(listed) == expected
    assert s.node == Decision("B", "kt18_objective_marker")


@pytest.mark.parametrize(
    ("point", "why"),
    [("5.9,11", 'edge: at least 6"'), ("15,16.5", 'edge: at least 6"'), ("17.9,11", 'at least 8"')],
)
def test_objective_marker_too_close_is_refused_naming_9_3(point: str, why: str) -> None:
    """9.3: a marker at least 8" from every other marker and 6" from every edge: 5.9" and
    5.5" from an edge, or 7.9" from the first marker at (10, 11), are refused naming the
    section; the state is unchanged."""
    s, _ = _play(_new(), "roll 6,6", "roll 1,1", "Op marker at 10,11")
    with pytest.raises(IllegalActionError) as err:
        s.apply(f"Op marker at {point}")
    assert "rules/KT18.md 9.3" in str(err.value) and why in str(err.value)
    assert len(s.markers) == 1


def test_objective_marker_exactly_at_the_limits_is_accepted() -> None:
    """9.3 ("at least"): exactly 6" from the edge (x = 6) and exactly 8" from the other
    marker ((6, 11) to (14, 11)) are legal; a typed point off the 1" grid is accepted."""
    s, ev = _play(_new(), "roll 6,6", "roll 1,1", "Op marker at 6,11", "Op marker at 14,11")
    assert [(e["x"], e["y"]) for e in _kinds(ev, "kt18_objective_placed")] == [(6, 11), (14, 11)]
    s, _ = _play(_new(), "roll 6,6", "roll 1,1", "Op marker at 12.25,9.5")
    assert (s.markers[0].x, s.markers[0].y) == (12.25, 9.5)


def test_markers_placed_in_advantage_order() -> None:
    """9.3: the greatest-advantage player places first: B rolled 12 to A's 2."""
    s, ev = _play(_new(), "roll 1,1", "roll 6,6", "Op marker at 10,11", "Op marker at 20,11")
    assert [e["player"] for e in _kinds(ev, "kt18_objective_placed")] == ["B", "A"]
    assert isinstance(s.node, Chance) and s.node.request.player == "B"


# -- primary objective (9.7) -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "objective"),
    [
        (1, SECURE_THE_BATTLEFIELD),
        (2, SECURE_THE_BATTLEFIELD),
        (3, RETRIEVE_THE_CACHE),
        (4, RETRIEVE_THE_CACHE),
        (5, INFILTRATE),
        (6, INFILTRATE),
    ],
)
def test_primary_objective_is_a_d3(face: int, objective: str) -> None:
    """9.7 with 1.2: a D3 is a D6 halved rounding up (1-2: 1, 3-4: 2, 5-6: 3); 1 Secure the
    Battlefield, 2 Retrieve the Cache, 3 Infiltrate; rolled by the greatest advantage."""
    s, ev = _play(_new(), *_TO_PRIMARY)
    assert isinstance(s.node, Chance) and s.node.request.player == "A"
    s, ev = _play(s, f"roll {face}")
    assert objectives.primary_objective(s) == objective
    assert _kinds(ev, "kt18_primary_objective")[0]["roll"] == math.ceil(face / 2)


# -- deployment (9.5) ----------------------------------------------------------------------------


def test_least_advantage_splits_and_greatest_picks_its_half() -> None:
    """9.5: the least-advantage player (B) splits the battlefield (a centre line), then the
    greatest (A) picks its half; B has the other."""
    s, _ = _play(_new(), *_TO_PRIMARY, "roll 1")
    assert s.node == Decision("B", "kt18_battlefield_split")
    assert sorted(a.text for a in s.legal_actions()) == ["split south north", "split west east"]
    s, _ = _play(s, "Op split south north")
    assert s.node == Decision("A", "kt18_deployment_zone")
    s, _ = _play(s, "Op zone north")
    assert (objectives.zone_of(s, "A"), objectives.zone_of(s, "B")) == ("north", "south")


def test_deployment_starts_with_least_advantage_and_alternates() -> None:
    """9.5: models are set up one at a time, alternating, the least-advantage player (B)
    first."""
    s = _to_deploy()
    assert s.node == Decision("B", "kt18_deploy")
    s, _ = _play(s, "Deploy TESB-1 at 28,3")
    assert s.node == Decision("A", "kt18_deploy")
    s, _ = _play(s, "Deploy TESA-1 at 2,3")
    assert s.node == Decision("B", "kt18_deploy")


@pytest.mark.parametrize(
    ("x", "why"),
    [
        (9 - R + 0.1, 'more than 6"'),
        (9 - R, 'more than 6"'),  # exactly 6" from the centre line: not more than 6"
        (15.2, "wholly within its deployment zone"),
    ],
)
def test_deployment_refuses_spots_near_the_enemy_zone(x: float, why: str) -> None:
    """9.5: wholly within its own half and more than 6" from the enemy half (the centre line
    x = 15): a 25mm base centred at x reaches x + 0.492", so x = 9 - 0.492 is exactly 6" away
    (refused) and 0.1" more is closer still; a base centred in the enemy half is not wholly
    within A's zone."""
    s = _to_deploy(zone="east")  # A east, B west: B deploys first
    with pytest.raises(IllegalActionError) as err:
        s.apply(f"Deploy TESB-1 at {x:.3f},11")
    assert "rules/KT18.md 9.5" in str(err.value) and why in str(err.value)
    s2, _ = _play(s, "Deploy TESB-1 at 8.4,11")  # 15 - (8.4 + 0.492) = 6.108" > 6"
    assert s2.operatives[s2.ctx.index["TESB-1"]].placed


def test_deployment_spots_listed_are_a_2_inch_grid_in_the_half() -> None:
    """9.5: listed spots for a 25mm base in the west half, more than 6" from x = 15 (x +
    0.492 < 9): x in 1, 3, 5, 7 and y in 1, 3, ... 21 (11 rows): 44 spots per model, 3
    models to set up: 132 listed actions."""
    s = _to_deploy(zone="east")
    acts = s.legal_actions()
    assert len(acts) == 3 * 44
    assert {a.point[0] for a in acts if a.point} == {1, 3, 5, 7}


def test_player_out_of_models_is_skipped() -> None:
    """9.5: a player out of models is skipped: A (greatest) has 3 models, B 1: B, A, then A
    twice more."""
    ra = Roster.from_entries(_TEAM, ["Trooper"] * 3)
    rb = Roster.from_entries(_TEAM, ["Trooper"])
    s = new_game(_empty(), ra, rb, OPTIONS)
    s, _ = _play(s, *_TO_PRIMARY, "roll 1", "Op split west east", "Op zone west")
    s, _ = _play(s, "Deploy TESB-1 at 28,3", "Deploy TESA-1 at 2,3")
    assert s.node == Decision("A", "kt18_deploy")
    s, _ = _play(s, "Deploy TESA-2 at 2,7")
    assert s.node == Decision("A", "kt18_deploy")


# -- control (9.4) ----------------------------------------------------------------------------


def _work(primary: str = SECURE_THE_BATTLEFIELD) -> Work:
    """A Work after the set-up on the empty board (A west, B east; markers at (10, 11) and
    (20, 11)), every model off the board, the primary objective ``primary``."""
    s = _to_deploy()
    w = Work(s)
    set_fact(w, PRIMARY, primary)
    return w


def _put(w: Work, op: str, x: float, y: float, z: float = 0.0) -> None:
    w.set_op(op, x=x, y=y, elevation=z, placed=True)


def test_control_needs_more_models_within_2_inches() -> None:
    """9.4: two A models within 2" of the marker's centre against one B model: A controls;
    one each: nobody. Measured from the base's closest point: a 25mm base centred 2.49" away
    is 2.0" away (within, 1.1), one centred 2.6" away is not."""
    w = _work()
    _put(w, "TESA-1", 10 + 2 + R, 11)
    _put(w, "TESA-2", 10, 12)
    _put(w, "TESB-1", 8, 11)
    assert objectives.counts_near(w, "objective 1 (A)") == {"A": 2, "B": 1}
    assert objectives.controller(w, "objective 1 (A)") == "A"
    _put(w, "TESA-2", 10, 13.6)
    assert objectives.controller(w, "objective 1 (A)") == ""


def test_shaken_and_out_of_action_models_do_not_count() -> None:
    """9.4 and 8.5: shaken models do not count, nor models out of action: A's shaken model
    leaves one A against one B (nobody controls); B's model out of action gives it to A."""
    w = _work()
    _put(w, "TESA-1", 10, 12)
    _put(w, "TESA-2", 10, 10)
    _put(w, "TESB-1", 9, 11)
    w.effects.append(Effect(kind="kt18_shaken", op="TESA-1", until="end_battle"))
    assert objectives.controller(w, "objective 1 (A)") == ""
    w.set_op("TESB-1", incapacitated=True, placed=False)
    assert objectives.controller(w, "objective 1 (A)") == "A"


# -- scoring (9.7) and the result (9.6) ---------------------------------------------------------


def test_secure_the_battlefield_scores_2_vp_per_marker() -> None:
    """9.7 Secure the Battlefield: 2 VP for each marker controlled: A holds both (4 VP)."""
    w = _work(SECURE_THE_BATTLEFIELD)
    _put(w, "TESA-1", 10, 12)
    _put(w, "TESA-2", 20, 12)
    scoring.score_at_end(w, None)  # type: ignore[arg-type]
    assert (w.pl("A").vp, w.pl("B").vp) == (4, 0)


def test_retrieve_the_cache_keeps_one_random_marker_worth_6_vp() -> None:
    """9.7 Retrieve the Cache: at the start of battle round 1 one marker is picked at random
    (1.5: two markers share the D6, 1-3 the first placed, 4-6 the second), the other removed;
    its controller scores 6 VP at the end. Face 5 keeps the second marker (20, 11)."""
    s, _ = _play(_to_deploy(primary_face=3), *[])
    assert isinstance(s.node, Decision)
    for text in (
        "Deploy TESB-1 at 28,3",
        "Deploy TESA-1 at 2,3",
        "Deploy TESB-2 at 28,7",
        "Deploy TESA-2 at 2,7",
        "Deploy TESB-3 at 28,11",
        "Deploy TESA-3 at 2,11",
    ):
        s, _ = s.apply(text)
    assert isinstance(s.node, Chance) and s.node.request.kind == "kt18_random_marker"
    s, ev = s.apply("roll 5")
    assert [m.name for m in s.markers] == ["objective 2 (B)"]
    assert _kinds(ev, "kt18_cache_kept")[0]["removed"] == ("objective 1 (A)",)
    w = Work(s)
    _put(w, "TESB-1", 20, 12)
    scoring.score_at_end(w, None)  # type: ignore[arg-type]
    assert (w.pl("A").vp, w.pl("B").vp) == (0, 6)


def test_retrieve_the_cache_waits_for_round_1() -> None:
    """9.7: the pick is made before the Initiative phase of battle round 1, not as the
    battle is created (round 0), nor under another primary objective."""
    w = _work(RETRIEVE_THE_CACHE)
    w.tp = 0
    assert objectives.retrieve_the_cache(w) is None
    w.tp = 1
    assert isinstance(objectives.retrieve_the_cache(w), objectives.CacheFrame)
    set_fact(w, PRIMARY, INFILTRATE)
    assert objectives.retrieve_the_cache(w) is None


def test_infiltrate_scores_only_markers_in_the_enemy_zone() -> None:
    """9.7 Infiltrate: 2 VP per controlled marker in an opponent's deployment zone: A (west)
    holding the marker at (20, 11) in B's east half scores 2; B holding the one at (10, 11)
    in A's half scores 2; A holding its own half's marker scores nothing."""
    w = _work(INFILTRATE)
    _put(w, "TESA-1", 20, 12)
    _put(w, "TESB-1", 10, 12)
    scoring.score_at_end(w, None)  # type: ignore[arg-type]
    assert (w.pl("A").vp, w.pl("B").vp) == (2, 2)
    w = _work(INFILTRATE)
    _put(w, "TESA-1", 10, 12)
    scoring.score_at_end(w, None)  # type: ignore[arg-type]
    assert (w.pl("A").vp, w.pl("B").vp) == (0, 0)


def test_infiltrate_marker_on_the_centre_line_scores_nothing() -> None:
    """9.7 (the digest's reading): a marker centred on the centre line is in no deployment
    zone, so it scores nothing under Infiltrate."""
    w = _work(INFILTRATE)
    w.markers = [attrs.evolve(w.markers[0], x=15.0)]
    assert objectives.marker_zone(w, w.kz, 15.0, 11.0) == ""
    _put(w, "TESA-1", 15, 12)
    scoring.score_at_end(w, None)  # type: ignore[arg-type]
    assert w.pl("A").vp == 0


def test_a_tie_is_a_minor_victory_for_the_least_advantage() -> None:
    """9.6: equal VP: the tied player with the least strategic advantage (B, who rolled 2 to
    A's 12) wins a minor victory; more VP is a major victory, unchanged."""
    w = _work()
    assert scoring.covert_war_victory(w, ("", "draw"), vp=(4, 4)) == ("B", "minor")
    assert scoring.covert_war_victory(w, ("A", "major"), vp=(6, 2)) == ("A", "major")


def test_whole_set_up_ends_with_every_model_placed() -> None:
    """9.5: when all models are set up the set-up ends: battle round 1 begins with its
    Initiative phase (2.2: the first roll is an initiative roll), every model placed."""
    s = _to_deploy()
    while isinstance(s.node, Decision):
        s, _ = s.apply(s.legal_actions()[0])
    assert isinstance(s.node, Chance) and s.node.request.kind == "kt18_initiative"
    assert (s.tp, s.phase) == (1, "initiative")
    assert all(o.placed for o in s.operatives)


def test_covert_war_refuses_crit_and_tac_ops() -> None:
    """9.7: Covert War's only objective is rolled: a crit op or tac op option is refused."""
    with pytest.raises(GameOptionsError, match=r"9\.7"):
        kt18.check_options(GameOptions(crit_op="Loot"))


def test_deploying_an_enemy_or_placed_model_is_refused() -> None:
    """9.5: each player sets up its own models, each once: B may not set up A's model, nor
    set up TESB-1 a second time."""
    s = _to_deploy()
    with pytest.raises(IllegalActionError, match=r"9\.5"):
        s.apply("Deploy TESA-1 at 28,3")
    s, _ = _play(s, "Deploy TESB-1 at 28,3", "Deploy TESA-1 at 2,3")
    with pytest.raises(IllegalActionError, match="already set up"):
        s.apply("Deploy TESB-1 at 28,7")
