"""The OpenSpiel game ``"kill_team"`` (issue 30, ``engine.envs.openspiel``): OpenSpiel's own
``random_sim_test`` (with serialisation) passes; chance nodes carry the exact dice
probabilities; returns are +1/-1/0; the information state string is the player's view; a
battle at the decision limit ends as a draw; bad input raises and changes nothing."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from engine.envs.codec import ACTION_SPACE_SIZE, CHANCE_SPACE_SIZE, chance_outcome
from engine.envs.core import EnvError
from engine.envs.observation import ObservationEncoder
from engine.game.information import information_state
from tests.extras_support import need

pytestmark = pytest.mark.extras
pyspiel = need("pyspiel")

import engine.envs.openspiel as kill_team_spiel  # noqa: E402

TEAMS = {"team_a": "angels_of_death", "team_b": "legionaries"}


def _game() -> Any:
    return pyspiel.load_game("kill_team", TEAMS)


def _random_until(state: Any, rng: random.Random, stop: Any, limit: int = 5000) -> Any:
    """Play ``state`` on with random decisions and sampled dice until ``stop(state)``."""
    for _ in range(limit):
        if state.is_terminal() or stop(state):
            return state
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("the stop condition never came")


def test_random_sim_test_passes_with_serialisation() -> None:
    """OpenSpiel's own simulation test: sorted legal actions, masks, clones, serialisation
    and deserialisation round trips, returns within the utility range, lengths within
    ``max_game_length``."""
    pyspiel.random_sim_test(_game(), num_sims=2, serialize=True, verbose=False)


def test_the_game_is_registered_with_its_published_sizes() -> None:
    """Loading by name gives the codec's sizes, two players, utilities -1..1 summing to 0
    and the measured ``max_game_length``."""
    game = _game()
    assert game.num_distinct_actions() == ACTION_SPACE_SIZE
    assert game.max_chance_outcomes() == CHANCE_SPACE_SIZE
    assert game.num_players() == 2
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.max_game_length() == kill_team_spiel.MAX_GAME_LENGTH
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_chance_probabilities_are_the_exact_multinomial_ones() -> None:
    """Every chance node met in a random battle has outcome probabilities equal to the
    multinomial probability of its faces, ``n! / prod(k_i!) / 6**n`` for a multiset of ``n``
    dice, ``1/36`` for an ordered roll-off pair, summing to 1."""
    state = _game().new_initial_state()
    rng = random.Random(3)
    seen = 0
    while not state.is_terminal() and seen < 60:
        if state.is_chance_node():
            gs = state.game_state
            outcomes = state.chance_outcomes()
            assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=1e-12)
            for index, p in outcomes:
                faces = chance_outcome(gs, index).values
                n = len(faces)
                if gs.node.request.ordered:
                    expected = 1 / 36
                else:
                    counts = Counter(faces).values()
                    expected = math.factorial(n) / math.prod(map(math.factorial, counts)) / 6**n
                assert math.isclose(p, expected, rel_tol=1e-12)
            seen += 1
            state.apply_action(rng.choices(*zip(*outcomes, strict=True))[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen == 60 or state.is_terminal()


def test_returns_are_plus_and_minus_one_for_the_winner_and_zero_sum() -> None:
    """At the end ``returns()`` gives +1 to the winner and -1 to the loser (0, 0 for a draw),
    as the battle's result says."""
    state = _random_until(_game().new_initial_state(), random.Random(8), lambda s: False)
    winner = state.game_state.node.result.winner
    expected = {"A": [1.0, -1.0], "B": [-1.0, 1.0], "": [0.0, 0.0]}[winner]
    assert state.returns() == expected


def test_information_state_and_observation_are_the_players_view() -> None:
    """``information_state_string(p)`` is the engine's information state of p's player,
    so A's and B's differ; ``observation_tensor(p)`` is the encoder's arrays of p's view
    flattened in the order operatives, board, globals."""
    state = _random_until(_game().new_initial_state(), random.Random(2), lambda s: s.decisions > 30)
    gs = state.game_state
    assert state.information_state_string(0) == information_state(gs, "A")
    assert state.information_state_string(1) == information_state(gs, "B")
    assert state.information_state_string(0) != state.information_state_string(1)
    for player, name in ((0, "A"), (1, "B")):
        arrays = ObservationEncoder.for_state(gs).encode(gs, name)
        flat = np.concatenate([arrays[k].ravel() for k in ("operatives", "board", "globals")])
        assert np.array_equal(np.asarray(state.observation_tensor(player), np.float32), flat)


def test_serialisation_round_trips_a_battle_under_way() -> None:
    """``serialize_game_and_state`` then ``deserialize_game_and_state`` give the same game
    (parameters included) and a state with the same history and engine state."""
    game = _game()
    state = _random_until(game.new_initial_state(), random.Random(4), lambda s: s.decisions > 50)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and "team_a=angels_of_death" in str(game2)
    assert state2.history() == state.history()
    assert state2.game_state.hash() == state.game_state.hash()


def test_a_history_text_replays_to_the_same_state() -> None:
    """``history_text`` writes the action indices as plain text and ``state_from_history``
    replays them: the same history, engine state and decision count, with no pickle in
    between (the text is the header line and comma-separated integers)."""
    game = _game()
    state = _random_until(game.new_initial_state(), random.Random(4), lambda s: s.decisions > 50)
    text = kill_team_spiel.history_text(state)
    head, body = text.split("\n")
    assert head == kill_team_spiel.HISTORY_HEADER
    assert [int(w) for w in body.split(",")] == list(state.history())
    again = kill_team_spiel.state_from_history(game, text)
    assert again.history() == state.history() and again.decisions == state.decisions
    assert again.game_state.hash() == state.game_state.hash()
    empty = kill_team_spiel.state_from_history(game, kill_team_spiel.HISTORY_HEADER + "\n")
    assert empty.history() == []


def test_a_history_from_anyone_is_checked_as_data() -> None:
    """Text that is not a history, a field that is not a decimal index, an index that is
    not legal where it falls, or more indices than the bound: each is refused with an error
    naming what is wrong and where, and nothing in the text is executed."""
    game = _game()
    state = _random_until(game.new_initial_state(), random.Random(4), lambda s: s.decisions > 5)
    good = list(state.history())
    header = kill_team_spiel.HISTORY_HEADER
    with pytest.raises(EnvError, match="not a kill_team history"):
        kill_team_spiel.state_from_history(game, "cos\nsystem\n(S'echo hi'\ntR.")
    with pytest.raises(EnvError, match="history index 2: '1e3' is not a decimal"):
        kill_team_spiel.state_from_history(game, f"{header}\n{good[0]},1e3")
    # The first input is the crit op's dice roll (a chance node): a decision index there is
    # not a possible outcome.
    with pytest.raises(EnvError, match="history index 1: "):
        kill_team_spiel.state_from_history(game, f"{header}\n{ACTION_SPACE_SIZE - 1}")
    too_many = ",".join(["0"] * (kill_team_spiel.MAX_HISTORY_ACTIONS + 1))
    with pytest.raises(EnvError, match="at most"):
        kill_team_spiel.state_from_history(game, f"{header}\n{too_many}")


def test_a_battle_at_the_decision_limit_ends_as_a_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the limit lowered to 12 decisions the battle is terminal after the 12th
    decision, with returns 0, 0 and no legal action."""
    monkeypatch.setattr(kill_team_spiel, "MAX_GAME_LENGTH", 12)
    state = _random_until(_game().new_initial_state(), random.Random(1), lambda s: False)
    assert state.decisions == 12 and not state.game_state.is_terminal
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.legal_actions() == [] and "decision limit" in str(state)


def test_bad_actions_raise_and_change_nothing() -> None:
    """An index out of range or not legal raises ``EnvError`` (pyspiel refuses a
    non-integer with ``TypeError``); the history and the engine state are unchanged and a
    legal action still applies."""
    state = _random_until(_game().new_initial_state(), random.Random(6), lambda s: s.decisions > 5)
    legal = state.legal_actions()
    masked = next(i for i in range(ACTION_SPACE_SIZE) if i not in legal)
    before = (state.history(), state.game_state.hash())
    for action, message in [
        (ACTION_SPACE_SIZE, "out of range"),
        (masked, "is not legal at this decision"),
    ]:
        with pytest.raises(EnvError, match=message):
            state.apply_action(action)
        assert (state.history(), state.game_state.hash()) == before
    with pytest.raises(TypeError):
        state.apply_action("3")
    assert (state.history(), state.game_state.hash()) == before
    state.apply_action(legal[0])
    assert len(state.history()) == len(before[0]) + 1


def test_an_action_after_the_end_raises() -> None:
    """A finished battle refuses any action with ``EnvError`` and stays as it was."""
    state = _random_until(_game().new_initial_state(), random.Random(8), lambda s: False)
    history = state.history()
    with pytest.raises(EnvError, match="the battle is over"):
        state.apply_action(0)
    assert state.history() == history


def test_bad_parameters_are_named() -> None:
    """An unknown team is named; a parameter OpenSpiel's game strings cannot hold is
    refused."""
    with pytest.raises(Exception, match="grots"):
        pyspiel.load_game("kill_team", {"team_a": "grots"})
    with pytest.raises(EnvError, match="'crit_op' must be text without"):
        kill_team_spiel.KillTeamGame({"crit_op": "Loot,Secure"})


def test_a_kt21_battle_plays_with_random_actions_and_exact_chance() -> None:
    """``ruleset=kt21`` with the team parameters left empty plays KT21's default teams;
    OpenSpiel's own random simulation test (legal actions, chance probabilities summing to
    1, clones, returns within the utility range) passes through a whole KT21 battle; the
    observation tensor keeps its size (19220 float32) during the battle."""
    game = pyspiel.load_game("kill_team", {"ruleset": "kt21"})
    assert game.config.ruleset == "kt21"
    assert {o.id.split("-")[0] for o in game.start.operatives} == {"KAS", "LEG"}
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    state = _random_until(
        game.new_initial_state(), random.Random(7), lambda s: s.move_number() > 40
    )
    assert len(state.observation_tensor(0)) == 19220
