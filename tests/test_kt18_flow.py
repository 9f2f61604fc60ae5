"""The KT18 ruleset and battle round (rules/KT18.md 2.1, 2.2, 9.6): the ruleset's name and
mission, the edition check, the Initiative phase, the phases in order, the phase steps rule
modules add, the end of the battle and its result, scripted positions, and random playouts
that keep the engine's invariants (tests/conformance_support.py)."""

from __future__ import annotations

import pytest

from engine.agents import RandomAgent
from engine.game.context import GameOptions, GameOptionsError, Hooks
from engine.game.drivers import SeededDice
from engine.game.record import GameRecorder, make_header
from engine.game.scenario import ScenarioError
from engine.game.state import Chance, Decision, GameState, Terminal
from engine.rules.kt18.battle import victory_by_vp
from engine.rules.kt18.battle_round import BattleRoundFrame
from engine.rules.kt18.morale import MoralePhaseFrame
from engine.rulesets import KT18, RULESETS, get, new_game
from engine.teams import load_builtin_team
from tests.conformance_support import check_replay, check_result, play_conforming
from tests.kt18_flow_support import KZ, apply_all, kt18_position, rosters

FAR = {"TESA-1": (5, 5), "TESB-1": (25, 20)}


def test_kt18_is_a_ruleset_whose_default_mission_is_covert_war() -> None:
    """1.3, 9.3: the third ruleset is called kt18; its one mission, Covert War, is the
    default of a battle under it."""
    assert RULESETS["kt18"] is KT18 and get("kt18") is KT18
    assert GameOptions(ruleset="kt18").mission == "covert_war"


def test_kt18_refuses_a_team_of_another_edition() -> None:
    """1.4: a KT18 battle plays KT18 kill teams: a KT24 team is refused, naming the player,
    the team and both editions."""
    kt24 = load_builtin_team("kasrkin").default()
    _, b = rosters()
    with pytest.raises(GameOptionsError, match=r"player A.*KT24 datacards.*KT18 battle"):
        new_game(KZ, kt24, b, GameOptions(ruleset="kt18"))


def test_kt18_refuses_a_mission_of_another_edition() -> None:
    """9: the KT18 ruleset plays Covert War, not a KT21 game sequence."""
    a, b = rosters()
    with pytest.raises(GameOptionsError, match="covert_war"):
        new_game(KZ, a, b, GameOptions(ruleset="kt18", mission="critical_ops_2022"))


def test_higher_initiative_roll_has_the_initiative() -> None:
    """2.2: every player rolls 2D6; the higher total (A's 11 against B's 2) has the
    initiative, and the Movement phase begins with its turn."""
    s = kt18_position(FAR, phase="initiative", step="roll", initiative="B")
    assert isinstance(s.node, Chance) and s.node.request.kind == "kt18_initiative"
    s, events = apply_all(s, "roll 6,5", "roll 1,1")
    assert s.initiative == "A" and s.phase == "movement"
    assert [e["totals"] for e in events if e.kind == "kt18_initiative"] == [(11, 2)]
    assert s.node == Decision("A", "kt18_movement")


def test_initiative_tie_is_rolled_again() -> None:
    """2.2 (reading chosen: a fresh roll until the tie is broken): equal totals (3 + 3 and
    4 + 2) make both players roll again; then B's 12 beats A's 2."""
    s = kt18_position(FAR, phase="initiative", step="roll")
    s, events = apply_all(s, "roll 3,3", "roll 4,2")
    assert not [e for e in events if e.kind == "kt18_initiative"]
    assert isinstance(s.node, Chance) and s.node.request.player == "A"
    s, _ = apply_all(s, "roll 1,1", "roll 6,6")
    assert s.initiative == "B"


def test_the_phases_come_in_order() -> None:
    """2.1: initiative (its rolls), movement, psychic, shooting, fight, morale, then the next
    round."""
    s = kt18_position(FAR, phase="initiative", step="start")
    assert s.phase == "initiative" and isinstance(s.node, Chance)
    s, events = apply_all(s, "roll 6,6", "roll 1,1", "Pass", "Pass")
    phases = [e["phase"] for e in events if e.kind == "kt18_phase_started"]
    assert phases == ["movement", "psychic", "shooting", "fight", "morale", "initiative"]
    assert [e.kind for e in events if e.kind == "kt18_round_ended"] == ["kt18_round_ended"]
    assert s.tp == 2 and s.phase == "initiative"


def test_phase_steps_run_in_their_phase() -> None:
    """2.1: the Psychic, Shooting and Fight phases are the steps rule modules add; each runs
    when its phase begins (``state.phase`` names it); the turn-end step of the Movement phase
    knows whose turn ended."""
    seen: list[tuple[str, str]] = []

    def add(h: Hooks) -> None:
        for phase in ("psychic", "shooting", "fight"):
            h.phase_step(phase, lambda w: seen.append((w.phase, "")))
        h.phase_step("movement_turn_end", lambda w: seen.append((w.phase, w.top.player)))

    s = kt18_position(FAR).with_hooks(add)
    apply_all(s, "Pass", "Pass")
    assert seen == [
        ("movement", "A"),
        ("movement", "B"),
        ("psychic", ""),
        ("shooting", ""),
        ("fight", ""),
    ]


def test_hook_builder_keeps_phase_steps() -> None:
    """The phase steps survive a rebuilt hook set (a state given more hooks keeps them)."""
    h = Hooks()
    h.phase_step("shooting", print)
    again = h.freeze().builder().freeze()
    assert again.phase_steps["shooting"] == (print,)


def test_the_battle_ends_after_the_fifth_round() -> None:
    """9.6: five battle rounds; equal VP is a draw (without the mission's tie rule)."""
    s = kt18_position(FAR, phase="morale", tp=5)
    assert isinstance(s.node, Terminal) and s.phase == "over"
    assert (s.node.result.vp, s.node.result.winner) == ((0, 0), "")


def test_most_victory_points_win_a_major_victory() -> None:
    """9.6: most VP wins a major victory; equal VP is the flow's draw."""
    assert victory_by_vp((3, 1)) == ("A", "major")
    assert victory_by_vp((0, 2)) == ("B", "major")
    assert victory_by_vp((2, 2)) == ("", "draw")


def test_the_victory_hook_decides_the_result() -> None:
    """9.6: the mission's transform of the result (Covert War's minor victory on a tie)
    is the result: battle_ended names it."""
    s = kt18_position(
        FAR, phase="morale", tp=5, a=1, effects=[{"kind": "kt18_flesh_wound", "op": "TESA-1"}]
    )
    assert isinstance(s.node, Chance)  # TESA-1's Nerve test, the battle's last roll
    s = s.with_hooks(lambda h: h.transform("kt18_victory", lambda w, v, **k: ("B", "minor")))
    s, events = s.apply("roll 1")
    assert isinstance(s.node, Terminal) and s.node.result.winner == "B"
    ended = [e for e in events if e.kind == "battle_ended"]
    assert ended and (ended[0]["winner"], ended[0]["victory"]) == ("B", "minor")


def test_positions_start_in_the_kt18_frames() -> None:
    """2.1: a scripted KT18 position starts in the KT18 battle round: the Morale phase's
    frame under the round's; a KT24 or KT21 phase is refused."""
    s = kt18_position(
        FAR, phase="morale", effects=[{"kind": "kt18_flesh_wound", "op": "TESA-1"}], a=1
    )
    assert isinstance(s.stack[1], BattleRoundFrame)
    assert any(isinstance(f, MoralePhaseFrame) for f in s.stack)
    with pytest.raises(ScenarioError, match=r"rules/KT18\.md 2\.1"):
        kt18_position(FAR, phase="strategy")


def _playout_start() -> GameState:
    at = {f"TESA-{i}": (4 + 5 * i, 3) for i in range(1, 5)}
    at |= {f"TESB-{i}": (4 + 5 * i, 17) for i in range(1, 5)}
    return kt18_position(at, a=4, b=4, phase="initiative", step="start")


@pytest.mark.parametrize("seed", [0, 1])
def test_kt18_random_playouts_conform(seed: int) -> None:
    """The engine's invariants under KT18 (tests/conformance_support.py: legal actions
    non-empty, sorted, unique, their notation read back, applying deterministic, an illegal
    input changing nothing): random legal inputs play a KT18 battle from round 1 to its end
    within the step limit, with a result whose winner agrees with its VP."""
    state = _playout_start()
    agents = {"A": RandomAgent(2 * seed + 1), "B": RandomAgent(2 * seed + 2)}
    final = play_conforming(state, agents, SeededDice(seed), seed=seed)
    check_result(final)
    assert final.tp == 5 and final.phase == "over"


def test_a_kt18_battle_starts_with_its_set_up_steps() -> None:
    """9.1: a new KT18 battle runs the set-up steps first (Covert War's: the strategic
    advantage roll of 9.3 comes first), before battle round 1."""
    a, b = rosters()
    s = new_game(KZ, a, b, GameOptions(ruleset="kt18"))
    assert s.ctx.rules.ruleset is KT18
    assert isinstance(s.node, Chance) and s.node.request.kind == "kt18_strategic_advantage"
    assert s.tp == 0 and s.phase == "setup"


def test_a_kt18_record_names_its_ruleset_and_replays() -> None:
    """Records name the ruleset (``kt18``) and replay under it to the same final state: a
    battle of random inputs from its start (no mission set-up yet: no model is set up, so the
    rounds are initiative rolls and empty phases) recorded and replayed."""
    a, b = rosters()
    state = new_game(KZ, a, b, GameOptions(ruleset="kt18"))
    header = make_header(state, seed=3, agents={"A": "random", "B": "random"})
    assert header["ruleset"] == "kt18"
    rec = GameRecorder(header)
    agents = {"A": RandomAgent(5), "B": RandomAgent(6)}
    final = play_conforming(state, agents, SeededDice(3), seed=3, observe=rec.on_step)
    rec.finish(final)
    check_replay(rec, final, KT18)
