"""Game records and replay (issue: the game engine, "Records and replay"), chance drivers."""

from __future__ import annotations

import json

import pytest

from engine.agents import RandomAgent
from engine.game.drivers import ScriptedDice, ScriptError, SeededDice, enumerate_outcomes, play
from engine.game.record import GameRecorder, ReplayError, make_header, read_record, replay
from engine.geometry import load_killzone
from engine.rulesets import KT24, new_game
from engine.teams import load_builtin_team

KZ = load_killzone("open_ruins")
A = load_builtin_team("legionaries").default()
B = load_builtin_team("angels_of_death").default()


def _record(seed: int) -> str:
    state = new_game(KZ, A, B)
    rec = GameRecorder(make_header(state, seed=seed, agents={"A": "random", "B": "random"}))
    final = play(
        state,
        {"A": RandomAgent(seed), "B": RandomAgent(seed + 1)},
        SeededDice(seed),
        on_step=rec.on_step,
    )
    rec.finish(final)
    return rec.text()


@pytest.fixture(scope="module")
def record_text() -> str:
    return _record(11)


def test_same_inputs_and_seed_give_a_byte_identical_record(record_text: str) -> None:
    assert _record(11) == record_text


def test_record_has_header_steps_hashes_and_result(record_text: str) -> None:
    lines = [json.loads(x) for x in record_text.splitlines()]
    head = lines[0]
    assert head["record"] == "killteam-game" and head["ruleset"] == "kt24"
    assert head["seed"] == 11 and head["killzone"]["name"] == "open_ruins"
    assert head["rosters"]["A"]["team_id"] == "legionaries"
    assert len(head["rosters"]["A"]["hash"]) == 16
    steps = lines[1:-1]
    assert [s["step"] for s in steps] == list(range(1, len(steps) + 1))
    hashed = [s for s in steps if "hash" in s]
    assert hashed and all(s["step"] % head["hash_every"] == 0 for s in hashed)
    assert {s["actor"] for s in steps} <= {"A", "B", "chance"}
    assert lines[-1]["result"]["winner"] in ("A", "B", "")


def test_replay_reproduces_the_final_state(record_text: str) -> None:
    final = replay(record_text.splitlines(), ruleset=KT24)
    assert final.is_terminal
    assert final.hash() == json.loads(record_text.splitlines()[-1])["hash"]


def test_replay_stops_at_the_first_divergent_action(record_text: str) -> None:
    lines = record_text.splitlines()
    k = next(i for i, x in enumerate(lines) if '"actor":"chance"' in x and i > 3)
    row = json.loads(lines[k])
    values = row["action"].split()[1].split(",")
    values[0] = "1" if values[0] != "1" else "2"
    row["action"] = "roll " + ",".join(values)
    lines[k] = json.dumps(row)
    with pytest.raises(ReplayError, match=r"step \d+"):
        replay(lines, ruleset=KT24)


def test_replay_reports_a_wrong_state_hash(record_text: str) -> None:
    lines = record_text.splitlines()
    k = next(i for i, x in enumerate(lines) if '"hash"' in x and '"step"' in x)
    row = json.loads(lines[k])
    row["hash"] = "0" * 24
    lines[k] = json.dumps(row)
    with pytest.raises(ReplayError, match=f"step {row['step']}: state hash differs"):
        replay(lines, ruleset=KT24)


def test_replay_rejects_team_data_that_does_not_match_its_hash(record_text: str) -> None:
    lines = record_text.splitlines()
    head = json.loads(lines[0])
    head["rosters"]["B"]["team"]["name"] = "Someone else"
    lines[0] = json.dumps(head)
    with pytest.raises(ReplayError, match=r"rosters\.B\.hash': the team data does not match"):
        replay(lines, ruleset=KT24)


def test_read_record_names_a_line_that_is_not_json() -> None:
    with pytest.raises(ReplayError, match="line 2"):
        read_record(['{"record": "killteam-game"}', "not json"])


def test_scripted_dice_raise_when_the_script_runs_out() -> None:
    state = new_game(KZ, A, B)
    dice = ScriptedDice(["3,3"])  # a tie: the set-up roll-off is rolled again
    state, _ = state.apply(dice.roll(state))
    with pytest.raises(ScriptError, match="no more rolls"):
        dice.roll(state)


def test_scripted_dice_raise_on_a_roll_of_the_wrong_size() -> None:
    state = new_game(KZ, A, B)
    with pytest.raises(ScriptError, match="has 3 dice but the engine asks for 2"):
        ScriptedDice(["6,5,4"]).roll(state)


def test_enumerated_roll_off_outcomes_are_the_36_ordered_pairs() -> None:
    state = new_game(KZ, A, B)
    outcomes = enumerate_outcomes(state)
    assert len(outcomes) == 36 and all(w == 1 for _, w in outcomes)


def test_seeded_dice_do_not_live_in_the_state() -> None:
    s1, s2 = new_game(KZ, A, B), new_game(KZ, A, B)
    assert s1.hash() == s2.hash()
    r1 = SeededDice(5).roll(s1)
    assert SeededDice(5).roll(s2) == r1
