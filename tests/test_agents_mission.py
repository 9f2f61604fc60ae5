"""The heuristic agent plays the mission (:mod:`engine.agents.mission_choices`,
``rules/KT24.md`` 1.2, 4.8, 8): its tac op and primary op picks, its valuation of VP from what
its player may see only, mission actions that score, and its last turning point.

Positions are on the LAB killzone (drawing in ``tests/test_game_rules_common.py``), with the
three objective markers of ``tests/test_missions_pack.py`` for the crit op Secure."""

from __future__ import annotations

import attrs
import pytest

from engine.agents import HeuristicAgent
from engine.agents.mission_choices import (
    MissionSense,
    enemy_threat_weight,
    fair_state,
    firepower_ratio,
    pick_primary_op,
    pick_tac_op,
)
from engine.game import GameOptions, GameState
from engine.game.actions import Action
from engine.game.events import Event
from engine.game.state import Decision
from engine.game.work import Work
from engine.missions import pack
from engine.missions.pack import OpSpec
from engine.missions.scoring import TAC, add_vp, fact
from tests.test_agents import activation
from tests.test_game_rules_common import play, pos
from tests.test_missions_pack import MARKERS, _to_primary_pick
from tests.test_tac_ops_b import ENVOY_A, game, to_gambit

H = HeuristicAgent()


def _secure(operatives: dict[str, dict[str, object]], tp: int = 2, **kw: object) -> GameState:
    return pos(operatives, kz=MARKERS, tp=tp, options=GameOptions(crit_op="secure"), **kw)


# -------------------------------------------------------------------------------------------
# Picks
# -------------------------------------------------------------------------------------------


def _matchup(red: tuple[str, ...], blu: tuple[str, ...]) -> GameState:
    return pos({}, red=red, blu=blu)


def test_firepower_ratio_compares_the_share_of_the_enemy_team_each_side_can_kill() -> None:
    # Gunners (10 wounds, special guns) against Weaklings (2 wounds, a plain gun): the
    # Gunners kill a larger share of the Weaklings than the reverse, so A outguns B and B
    # is outgunned by the inverse ratio; equal teams are even (ratio 1).
    s = _matchup(("Gunner", "Gunner"), ("Weakling", "Weakling"))
    ra, rb = firepower_ratio(s, "A"), firepower_ratio(s, "B")
    assert ra > 2 and rb == pytest.approx(1 / ra)
    assert firepower_ratio(_matchup(("Trooper",), ("Trooper",)), "A") == pytest.approx(1.0)


@pytest.fixture
def fake_tac_ops(monkeypatch: pytest.MonkeyPatch) -> list[Action]:
    """Three tac ops of three archetypes, registered for this test only."""
    pack.tac_ops()  # the real ops first, so the fakes are only added
    specs = [
        OpSpec("Test Hunt", TAC, lambda h, p: None, archetype="Seek & Destroy"),
        OpSpec("Test Hold", TAC, lambda h, p: None, archetype="Security"),
        OpSpec("Test Scout", TAC, lambda h, p: None, archetype="Recon"),
    ]
    for spec in specs:
        monkeypatch.setitem(pack._OPS, spec.name.lower(), spec)
    return [Action("Op", text=f"tac {spec.name.lower()}") for spec in specs]


def test_tac_op_pick_follows_the_firepower_ratio(fake_tac_ops: list[Action]) -> None:
    # Module docstring: Seek & Destroy when outgunning, Security when outgunned, Recon when
    # even, whatever the order the options are listed in.
    hunt, hold, scout = fake_tac_ops
    legal = sorted(fake_tac_ops, key=str)
    s = _matchup(("Gunner", "Gunner"), ("Weakling", "Weakling"))
    assert pick_tac_op(s, "A", legal) == hunt
    assert pick_tac_op(s, "B", legal) == hold
    assert pick_tac_op(_matchup(("Trooper",), ("Trooper",)), "A", legal) == scout
    # An archetype the team cannot select is skipped: the next one in preference order.
    assert pick_tac_op(s, "A", [hold, scout]) == scout


def test_primary_op_is_the_kill_op_when_outgunning_else_the_crit_op() -> None:
    legal = [Action("Op", text=f"primary {op}") for op in ("crit", "kill", "tac")]
    s = _matchup(("Gunner", "Gunner"), ("Weakling", "Weakling"))
    s = attrs.evolve(s, mission=attrs.evolve(s.mission, crit_op="Secure"))
    assert pick_primary_op(s, "A", legal) == Action("Op", text="primary kill")
    assert pick_primary_op(s, "B", legal) == Action("Op", text="primary crit")
    # A crit op the engine does not play scores nothing: the kill op instead.
    s = attrs.evolve(s, mission=attrs.evolve(s.mission, crit_op=""))
    assert pick_primary_op(s, "B", legal) == Action("Op", text="primary kill")


def test_the_agent_selects_its_primary_op_at_the_gambit_step() -> None:
    # Trooper against Trooper is even, and the crit op Secure is played: the crit op.
    s = _to_primary_pick()
    assert isinstance(s.node, Decision) and s.node.kind == "primary op"
    assert str(H.act(s)) == "Op primary crit"


# -------------------------------------------------------------------------------------------
# Fair play: the opponent's secrets change nothing
# -------------------------------------------------------------------------------------------


def _peek_bait(w: Work, ev: Event) -> None:
    # A rule no op has, installed only in this test's battle: A scores 5 tac VP at the end of
    # the turning point when B's *secret* tac op is "Test Peek", unless A secured the centre
    # marker. An agent that read B's secret would then not secure the centre.
    if w.mission.tac_ops[1] == "Test Peek" and fact(w, "Secure:centre") != "A":
        add_vp(w, "A", TAC, 5, "bait")


def _with_secrets(s: GameState, tac: str, primary: str) -> GameState:
    return attrs.evolve(
        s, mission=attrs.evolve(s.mission, tac_ops=("", tac), primary_ops=("", primary))
    )


def test_the_agent_never_reads_the_opponents_secret_tac_op_or_primary_op() -> None:
    # RED-1 controls the centre marker in turning point 2. Whatever B's secret tac op and
    # primary op are, A's view, its values and its choices are the same, and it secures the
    # centre (2VP at the end of the turning point: a secured marker, and more than B).
    base = _secure({"RED-1": {"at": (15.0, 13.5)}, "BLU-1": {"at": (27.0, 20.5)}})
    base = base.with_hooks(lambda h: h.on("turning_point_ending", _peek_bait))
    variants = [
        _with_secrets(base, tac, primary)
        for tac, primary in (("", ""), ("Test Peek", "kill"), ("Test Other", "crit"))
    ]
    assert {fair_state(s, "A") for s in variants} == {fair_state(variants[0], "A")}
    runs = [activation(s, "RED-1")[1] for s in variants]
    assert runs == [runs[0]] * 3
    assert "Act RED-1 secure centre" in runs[0]
    assert {MissionSense(s, "A").end_score() for s in variants} == {0.0}
    # The bait is real: on the true state (B's secret visible) securing is worth less.
    w = Work(variants[1])
    w.emit("turning_point_ending", tp=2)
    assert w.mission.op_vp(TAC, "A") == 5


def test_the_fair_state_hides_what_the_observation_hides() -> None:
    # The fair state is worked out without listing the legal actions, but it must hide
    # exactly what observe() hides (8.1, 8.4): B's unrevealed tac op and its primary op
    # (unset, "", where the observation shows "?") and B's secret op facts, and nothing
    # of A's; once B's tac op is revealed, it is shown. Every other field is the state's.
    from engine.game.observation import HIDDEN, observe

    base = _secure({"RED-1": {"at": (15.0, 13.5)}, "BLU-1": {"at": (27.0, 20.5)}})
    secret = attrs.evolve(
        base.mission,
        tac_ops=("Test Mine", "Test Peek"),
        primary_ops=("tac", "kill"),
        facts=(("secret:B:pick", 3), ("secret:A:pick", 2), ("public", 1)),
    )
    for revealed in ((False, False), (False, True)):
        s = attrs.evolve(base, mission=attrs.evolve(secret, tac_revealed=revealed))
        fair = fair_state(s, "A")
        view = observe(s, "A")
        shown = tuple("" if t == HIDDEN else t for t in view.mission.tac_ops)
        assert fair.mission.tac_ops == shown
        assert fair.mission.tac_ops == ("Test Mine", "Test Peek" if revealed[1] else "")
        assert fair.mission.primary_ops == ("tac", "")
        assert fair.mission.facts == view.mission.facts
        assert fair.mission.facts == (("secret:A:pick", 2), ("public", 1))
        assert fair.players == view.players
        assert fair.operatives == s.operatives and fair.stack == s.stack
    with pytest.raises(ValueError, match="'A' or 'B'"):
        fair_state(base, "C")


# -------------------------------------------------------------------------------------------
# Mission actions and the clock
# -------------------------------------------------------------------------------------------


def test_the_agent_secures_the_marker_it_controls() -> None:
    # Secure (8.3) in turning point 2: RED-1 controls the centre marker, no enemy near. A
    # secured marker scores 1VP at the end of each turning point and 1VP more while A has
    # more secured markers than B (none): 2VP this turning point, counted 1 + 0.5 + 0.5
    # times for turning points 2, 3 and 4 (the clock), 4VP in all: far above anything else
    # RED-1 can do, so it secures the marker in its activation.
    s = _secure({"RED-1": {"at": (15.0, 13.5)}, "BLU-1": {"at": (27.0, 20.5)}})
    active, _ = play(s, ["Activate RED-1 engage"])
    sense = MissionSense(active, "A")
    assert sense.end_score() == 0.0
    secure = Action("Act", op="RED-1", text="secure centre")
    assert sense.action_gain("RED-1", secure, "activation") == 4.0
    after, chosen = activation(s, "RED-1")
    assert "Act RED-1 secure centre" in chosen
    assert fact(Work(after), "Secure:centre") == "A"


def test_the_agent_moves_onto_a_marker_to_secure_it() -> None:
    # RED-1 (APL 2, Move 6") stands 5.5" from the centre marker: one Reposition brings it
    # within control range, and its second AP performs Secure.
    s = _secure({"RED-1": {"at": (15.0, 9.0)}, "BLU-1": {"at": (27.0, 20.5)}})
    _, chosen = activation(s, "RED-1")
    assert chosen[1].startswith("Reposition RED-1")
    assert chosen[2] == "Act RED-1 secure centre"


def test_no_mission_action_scores_in_the_first_turning_point() -> None:
    # Secure cannot be performed in turning point 1 and nothing scores at its end (8.1, 8.3).
    s = _secure({"RED-1": {"at": (15.0, 13.5)}, "BLU-1": {"at": (27.0, 20.5)}}, tp=1)
    sense = MissionSense(s, "A")
    assert sense.end_score() == 0.0
    assert sense.activation_gain("RED-1", 2) == 0.0


def test_in_the_last_turning_point_it_moves_and_shoots_a_likely_kill_instead_of_idling() -> None:
    # Turning point 4: RED-1 (Conceal) cannot see BLU-6 (a 2-wound Weakling, expended)
    # behind the 5" wall, and has no other target. A Reposition past the wall's end gives it
    # a clear shot (no cover) in which any unsaved hit of its gun (4 dice, 3+, 3/4 damage)
    # incapacitates BLU-6. It must activate with an Engage order to shoot after moving; the
    # expended BLU-6 cannot shoot back in the last turning point.
    s = pos(
        {
            "RED-1": {"at": (5, 19), "order": "conceal"},
            "BLU-6": {"at": (16, 19), "order": "conceal", "ready": False},
        },
        tp=4,
        turn="A",
    )
    w = Work(s)
    assert enemy_threat_weight(w, w.op("BLU-6")) == 0.0
    _, chosen = activation(s, "RED-1")
    assert chosen[0] == "Activate RED-1 engage"
    assert chosen[1].startswith("Reposition RED-1")
    assert chosen[2] == "Shoot RED-1 gun at BLU-6"


def test_an_expended_enemy_threatens_less_and_in_the_last_turning_point_only_by_counteracting() -> (
    None
):
    # 1.6: an expended operative with an Engage order that has not counteracted may still
    # counteract; before turning point 4 it also shoots again next turning point.
    s = pos(
        {
            "RED-1": {"at": (5, 19)},
            "BLU-1": {"at": (27, 3), "ready": False},
            "BLU-2": {"at": (27, 6), "ready": False, "counteracted": True},
            "BLU-3": {"at": (27, 9)},
        },
        tp=4,
    )
    w = Work(s)
    assert [enemy_threat_weight(w, w.op(e)) for e in ("BLU-1", "BLU-2", "BLU-3")] == [
        0.3,
        0.0,
        1.0,
    ]
    w.tp = 3
    assert enemy_threat_weight(w, w.op("BLU-2")) == 0.6


def test_a_free_gambit_of_its_tac_op_is_taken_for_the_vp_it_brings() -> None:
    # Envoy (8.4) in the Gambit step of turning point 2: the envoy scores 2VP at the end of
    # the turning point when wholly within the enemy territory (the far half here) and
    # unharmed. RED-1 stands there, RED-2 in A's half although nearer B's drop zone: the
    # agent selects RED-1 (2VP if the turning point ended now) rather than RED-2 (nothing).
    s = game(
        {"RED-1": {"at": (17, 3)}, "RED-2": {"at": (14.5, 11)}, "BLU-1": {"at": (28, 20)}},
        tac=ENVOY_A,
        tp=1,
        last="RED-1",
    )
    s = to_gambit(s, "RED-1")
    assert str(H.act(s)) == "Use envoy on RED-1"
    # With both in A's half neither scores yet: the one nearer B's drop zone, where it can
    # go, is taken (module docstring of mission_choices).
    s = game(
        {"RED-1": {"at": (5, 3)}, "RED-2": {"at": (14.5, 11)}, "BLU-1": {"at": (28, 20)}},
        tac=ENVOY_A,
        tp=1,
        last="RED-1",
    )
    s = to_gambit(s, "RED-1")
    assert str(H.act(s)) == "Use envoy on RED-2"
