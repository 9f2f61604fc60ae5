"""KT21 matched play (``rules/KT21.md`` 1.2-1.4, 15; decision 7): the six objective markers,
the Loot mission objective and its caps, the tac op selection reported unimplemented,
Battle Ready, Lite open play. (Kasrkin stand in for KT21 teams: the mission reads no team
data but the archetypes.)"""

from __future__ import annotations

import random

import pytest

from engine.game.actions import Action, IllegalActionError
from engine.game.context import GameOptions, GameOptionsError
from engine.game.state import Chance, Decision
from engine.game.work import Work
from engine.geometry import load_killzone
from engine.missions.kt21 import _last_standing, scoring
from engine.missions.kt21.objectives import MAP
from engine.rulesets import new_game, position
from engine.teams import load_builtin_team

KT21 = GameOptions(ruleset="kt21")


def _rosters() -> tuple:
    team = load_builtin_team("kt21_kasrkin")
    return team.default(), team.default()


def _pos(ops: dict, **kw: object):
    """A Firefight position under KT21; the first operative listed is activated (Engage)."""
    a, b = _rosters()
    s = position(
        load_killzone("open_ruins"), a, b, operatives=ops, options=kw.pop("options", KT21), **kw
    )
    if ops and "KASA-1" in ops:
        s, _ = s.apply(Action("Activate", op="KASA-1", text="engage"))
    return s


def _loot(marker: str, op: str = "KASA-1") -> Action:
    return Action("Act", op=op, text=f"loot {marker}")


def _marker(state, name: str):
    return next(m for m in state.markers if m.name == name)


def test_six_objective_markers_point_symmetric_outside_drop_zones() -> None:
    """15.2: KT21 matched play uses six markers; the project map is point-symmetric through
    the centre (15, 11), so every marker's mirror (30 - x, 22 - y) is a marker, and none lies
    in a drop zone (open_ruins: x < 6 or x > 24). A KT24 battle on the same killzone keeps
    its three markers (the layout is not changed)."""
    s = _pos({})
    spots = {(m.x, m.y) for m in s.markers}
    assert len(s.markers) == 6
    assert all((30 - x, 22 - y) in spots for x, y in spots)
    assert all(6 < x < 24 for x, _ in spots)
    kasrkin = load_builtin_team("kasrkin").default()
    kt24 = position(load_killzone("open_ruins"), kasrkin, kasrkin, operatives={})
    assert len(kt24.markers) == 3


def test_loot_scores_one_vp_and_loots_the_marker_for_the_turning_point() -> None:
    """15.3: Loot (1AP) scores 1VP and the marker cannot be looted again this TP, by either
    player."""
    x, y = _marker(_pos({}), "mid-north").x, _marker(_pos({}), "mid-north").y
    s = _pos({"KASA-1": {"at": (x - 1.0, y)}, "KASB-1": {"at": (x + 6, y)}})
    s, _ = s.apply(_loot("mid-north"))
    assert s.players[0].vp == 1
    assert s.mission.op_vp("crit", "A") == 1
    assert not s.is_legal(_loot("mid-north"))


def test_loot_needs_the_operative_within_one_inch_of_the_centre() -> None:
    """15.3: Loot is within ▲ (1") of the marker's centre: a 32 mm base (0.63" radius) whose
    centre is 2" from the marker's centre is 1.37" away, too far, though it controls it."""
    m = _marker(_pos({}), "mid-north")
    s = _pos({"KASA-1": {"at": (m.x - 2.0, m.y)}})
    with pytest.raises(IllegalActionError, match='within 1"'):
        s.apply(_loot("mid-north"))


def test_loot_needs_control_of_the_marker() -> None:
    """15.1: control is the greater total APL near the marker: two enemy operatives against
    one friendly one (equal APL each) leave the marker to the enemy, so no Loot."""
    m = _marker(_pos({}), "mid-north")
    s = _pos(
        {
            "KASA-1": {"at": (m.x - 1.0, m.y)},
            "KASB-1": {"at": (m.x + 1.0, m.y)},
            "KASB-2": {"at": (m.x + 0.5, m.y - 1.3)},
        }
    )
    with pytest.raises(IllegalActionError, match="must control"):
        s.apply(_loot("mid-north"))


def test_loot_at_most_three_times_per_marker_per_battle() -> None:
    """15.3: each marker can be looted at most three times in the battle."""
    m = _marker(_pos({}), "mid-north")
    s = _pos({"KASA-1": {"at": (m.x - 1.0, m.y)}}, mission={"facts": {"kt21 loots:mid-north": 3}})
    with pytest.raises(IllegalActionError, match="looted 3 times"):
        s.apply(_loot("mid-north"))


def test_five_loots_in_one_turning_point_score_four() -> None:
    """15.2: the mission objective gives at most 4VP per TP: five 1VP Loots score 4."""
    w = Work(_pos({}))
    got = [scoring.score_mission(w, "A", 1, "Loot") for _ in range(5)]
    assert got == [1, 1, 1, 1, 0]
    assert w.pl("A").vp == 4


def test_loot_beyond_the_cap_is_legal_but_scores_nothing() -> None:
    """15.2, 15.3: with 4VP already scored this TP a Loot still loots the marker (the cap
    limits VP, not the action) and scores 0."""
    m = _marker(_pos({}), "mid-north")
    s = _pos(
        {"KASA-1": {"at": (m.x - 1.0, m.y)}},
        mission={"vp": {"crit": [4, 0]}, "tp_vp": {"crit": [4, 0]}},
    )
    s, _ = s.apply(_loot("mid-north"))
    assert s.players[0].vp == 4
    assert s.mission.fact("kt21 loots:mid-north") == 1


def test_seventeen_vp_over_a_battle_cap_at_sixteen() -> None:
    """15.2: at most 16VP from the mission objective in a battle: 4VP in each of TP1-3 and
    5VP offered in TP4 make 17, of which 16 score."""
    w = Work(_pos({}))
    for tp_vp in (4, 4, 4, 5):
        scoring.turning_point_started(w, None)  # type: ignore[arg-type]
        scoring.score_mission(w, "A", tp_vp, "test")
    assert w.mission.op_vp("crit", "A") == 16


def test_tac_op_capped_at_two_vp_each() -> None:
    """15.2: at most 2VP from each tac op (three give 6VP at most)."""
    w = Work(_pos({}))
    assert scoring.score_tac_op(w, "A", "X", 3, "t") == 2
    assert scoring.score_tac_op(w, "A", "X", 1, "t") == 0
    assert scoring.score_tac_op(w, "A", "Y", 1, "t") == 1
    assert scoring.MAX_VP == 24


def test_battle_ready_two_vp_each_painted_player() -> None:
    """15.2: a painted kill team scores 2VP (both assumed painted)."""
    w = Work(_pos({}))
    scoring.battle_ready(w)
    assert (w.pl("A").vp, w.pl("B").vp) == (2, 2)


def test_apl_change_until_next_tp_counts_for_marker_control() -> None:
    """DC 1.5 (16.37): an APL change lasting until the start of the next TP counts for
    marker control: one A operative (APL 2) against one B operative at APL 2 - 1 = 1 controls
    the marker, so it can Loot; without the change the totals tie (2 = 2) and nobody
    controls it."""
    m = _marker(_pos({}), "mid-north")
    ops = {"KASA-1": {"at": (m.x - 1.0, m.y)}, "KASB-1": {"at": (m.x + 1.0, m.y)}}
    tied = _pos(ops)
    assert not tied.is_legal(_loot("mid-north"))
    s = _pos(ops, effects=[{"kind": "apl", "op": "KASB-1", "value": -1, "until": "end_tp"}])
    assert s.is_legal(_loot("mid-north"))


def test_tac_op_option_not_sourced_is_refused() -> None:
    """15.3, 18.13: no KT21 tac op text is sourced: fixing one is an error, never ignored."""
    a, b = _rosters()
    with pytest.raises(GameOptionsError, match="not implemented"):
        new_game(
            load_killzone("open_ruins"),
            a,
            b,
            GameOptions(ruleset="kt21", tac_ops={"A": "Plant Banner"}),
        )
    with pytest.raises(GameOptionsError, match="no primary op"):
        new_game(
            load_killzone("open_ruins"),
            a,
            b,
            GameOptions(ruleset="kt21", primary_ops={"A": "crit"}),
        )
    with pytest.raises(GameOptionsError, match="not implemented"):
        new_game(load_killzone("open_ruins"), a, b, GameOptions(ruleset="kt21", crit_op="Secure"))


def test_tac_op_selection_reports_three_unimplemented_per_player() -> None:
    """1.2 step 5: each player selects three tac ops of one archetype (Kasrkin's: two of
    the four); none is sourced, so each player's three are reported unimplemented."""
    a, b = _rosters()
    s = new_game(load_killzone("open_ruins"), a, b, KT21)
    reports = []
    rng = random.Random(7)
    for _ in range(400):
        if isinstance(s.node, Chance):
            action = rng.choice(s.chance_outcomes())[0]
        else:
            assert isinstance(s.node, Decision)
            if s.node.kind == "tac archetype":
                texts = [x.text for x in s.legal_actions()]
                assert texts and all(t.startswith("tac ") for t in texts)
            action = s.legal_actions()[0]
        s, events = s.apply(action)
        reports += [e for e in events if e.kind == "tac_op_unimplemented"]
        if len(reports) == 2:
            break
    assert sorted((e["player"], e["count"]) for e in reports) == [("A", 3), ("B", 3)]


def test_lite_has_no_markers_and_a_tabled_team_loses() -> None:
    """1.4: Lite open play has no mission: no objective marker; the project reading gives
    1VP to the only kill team left, so a tabled team loses (else 0-0, a draw)."""
    s = _pos({"KASA-1": {"at": (3.0, 3.0)}}, options=GameOptions(ruleset="kt21", mission="lite"))
    assert s.markers == ()
    w = Work(s)
    _last_standing(w, None)  # type: ignore[arg-type]
    assert (w.pl("A").vp, w.pl("B").vp) == (1, 0)


def test_marker_names_are_the_map_names() -> None:
    """The project map names six markers (objectives docstring)."""
    assert [m.name for m in _pos({}).markers] == [n for n, _, _ in MAP]
