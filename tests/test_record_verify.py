"""Records between players (issue 27, finding 4): ``killteam replay --verify`` and
:func:`engine.verify.verify_record` catch a record whose header seed or agents were changed,
whose rolls were forged with the battle re-recorded (every state hash genuine), or whose
built-in team id carries altered team data (its content hash recomputed); an honest record
from ``killteam play --record`` verifies; a plain replay says what it did not check; and
``killteam batch`` checks each game's line it reads back from its workers.

Every forged record here still *replays* (the tests check that first): each is a record that
a plain replay accepted before verification existed, so only verification can catch it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import pytest

import engine.batch
from engine import __version__
from engine.agents import make_agent
from engine.batch import BatchError, run_batch
from engine.cli import main
from engine.game.actions import Action
from engine.game.drivers import SeededDice, play
from engine.game.record import (
    GameRecorder,
    RecordFormatError,
    RecordVerificationError,
    dumps_line,
    make_header,
    replay_record,
)
from engine.game.record_format import digest
from engine.game.state import GameState
from engine.geometry import load_killzone
from engine.play import agent_seeds, game_seed
from engine.play.matchup import Matchup, MatchupChoice
from engine.rulesets import KT24, new_game
from engine.teams import load_builtin_team
from engine.teams.io import team_from_dict, team_to_dict
from engine.teams.model import Roster
from engine.verify import NOT_CHECKED_BY_REPLAY, first_difference, verify_record

KZ = load_killzone("open_ruins")
A = load_builtin_team("kasrkin").default()
B = load_builtin_team("legionaries").default()
SEED = 5
STEPS = 60  # through the set-up and deployment into turning point 1: rolls and decisions


class ForgedDice:
    """The seeded dice of ``killteam play`` except one roll, made the best the request allows
    (every die a 6; all 1s when the seed already rolled all 6s)."""

    def __init__(self, seed: int, forge: int) -> None:
        self.dice = SeededDice(seed)
        self.forge = forge  # the 1-based number of the roll to forge
        self.rolled = 0
        self.forged: tuple[Action, Action] | None = None  # (the seed's roll, the forged roll)

    def roll(self, state: GameState) -> Action:
        honest = self.dice.roll(state)
        self.rolled += 1
        if self.rolled != self.forge:
            return honest
        best = 6 if any(v != 6 for v in honest.values) else 1
        forged = attrs.evolve(honest, values=tuple(best for _ in honest.values))
        self.forged = (honest, forged)
        return forged


def _record(
    seed: int = SEED,
    *,
    agents: tuple[str, str] = ("random", "random"),
    rosters: tuple[Roster, Roster] = (A, B),
    dice: Any = None,
    steps: int | None = STEPS,
    header_seeds: Mapping[str, int] | None = None,
) -> list[str]:
    """A record made as ``killteam play`` makes one (dice ``SeededDice(seed)``, agents made by
    name with the seeds ``2 * seed`` and ``2 * seed + 1``), stopped after ``steps`` inputs;
    ``dice`` replaces the dice driver (a forger's), ``header_seeds`` writes ``agent_seeds``
    and seeds the agents with them."""
    state = new_game(KZ, rosters[0], rosters[1])
    head = make_header(
        state, seed=seed, agents={"A": agents[0], "B": agents[1]}, agent_seeds=header_seeds
    )
    rec = GameRecorder(head)
    sa, sb = agent_seeds(seed) if header_seeds is None else (header_seeds["A"], header_seeds["B"])
    final = play(
        state,
        {"A": make_agent(agents[0], sa), "B": make_agent(agents[1], sb)},
        dice if dice is not None else SeededDice(seed),
        on_step=rec.on_step,
        max_steps=steps,
    )
    rec.finish(final)
    return rec.lines


HONEST = _record()


def _with_head(lines: list[str], **fields: Any) -> list[str]:
    head = json.loads(lines[0])
    head.update(fields)
    return [dumps_line(head), *lines[1:]]


def _line_of_step(lines: list[str], step: int) -> int:
    """The record line number (1-based, the header is line 1) of input ``step``."""
    return next(n for n, text in enumerate(lines, 1) if json.loads(text).get("step") == step)


def _first_step(lines: list[str], actor: str) -> int:
    return next(
        json.loads(text)["step"]
        for text in lines[1:]
        if "step" in text and json.loads(text)["actor"] == actor
    )


def _verify_error(lines: list[str]) -> str:
    with pytest.raises(RecordVerificationError) as info:
        verify_record(lines)
    return str(info.value)


# -------------------------------------------------------------------------------------------
# Honest records verify
# -------------------------------------------------------------------------------------------


def test_an_honest_record_verifies_and_says_what_was_verified() -> None:
    """A record made exactly as ``killteam play`` makes one follows its seed's dice and its
    agents, and carries the built-in teams: every part is verified, nothing is left out, and
    each roll and decision of the record was checked (their counts add up to the steps)."""
    checked = verify_record(HONEST)
    assert checked.outcome.steps == STEPS
    assert checked.not_verified == ()
    rolls, dec_a, dec_b, team_a, team_b = checked.verified
    n_rolls = int(rolls.split()[0])
    n_a, n_b = int(dec_a.split()[0]), int(dec_b.split()[0])
    actors = [json.loads(t)["actor"] for t in HONEST[1:-1]]
    assert (n_rolls, n_a, n_b) == (actors.count("chance"), actors.count("A"), actors.count("B"))
    assert rolls == f"{n_rolls} rolls against seed {SEED}"
    assert dec_a == f"{n_a} decisions of A's agent random (seed {2 * SEED})"
    assert dec_b == f"{n_b} decisions of B's agent random (seed {2 * SEED + 1})"
    assert (team_a, team_b) == (
        "built-in team data of A (kasrkin)",
        "built-in team data of B (legionaries)",
    )


def test_an_honest_heuristic_record_verifies() -> None:
    """The heuristic agent keeps values across decisions (its mission memo): verification asks
    it once per decision of its player, in order, exactly as ``play`` does, so an honest
    record of heuristic agents verifies."""
    lines = _record(agents=("heuristic", "heuristic"), steps=120)
    checked = verify_record(lines)
    assert checked.not_verified == ()
    assert "agent heuristic (seed 11)" in checked.verified[2]


def test_explicit_agent_seeds_are_the_seeds_verified() -> None:
    """A record whose agents had other seeds than ``killteam play`` gives (the README's API
    example) says so in ``agent_seeds``; the agents are then verified with those seeds."""
    lines = _record(header_seeds={"A": 1, "B": 2})
    checked = verify_record(lines)
    assert "decisions of A's agent random (seed 1)" in checked.verified[1]
    assert "decisions of B's agent random (seed 2)" in checked.verified[2]


@pytest.mark.parametrize("seeds", [{"A": -1, "B": 0}, {"A": 1}, {"A": "1", "B": 2}, [1, 2]])
def test_malformed_agent_seeds_are_refused_naming_the_field(seeds: Any) -> None:
    """``agent_seeds`` is optional, but when present it is an integer >= 0 for each of A and
    B, nothing else: a malformed one is a malformed header (line 1, the field named)."""
    with pytest.raises(RecordFormatError, match=r"^record line 1: header field 'agent_seeds"):
        replay_record(_with_head(HONEST, agent_seeds=seeds), ruleset=KT24)


def test_cli_replay_json_gives_the_header_agent_seeds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The replay summary's ``agent_seeds`` are the header's when it gives them (not the rule
    of ``killteam play``, which these agents did not follow)."""
    path = tmp_path / "seeds.jsonl"
    path.write_text("\n".join(_record(header_seeds={"A": 1, "B": 2})) + "\n", encoding="utf-8")
    code, out, _ = _run(capsys, "replay", str(path), "--json", "--verify")
    assert code == 0
    assert json.loads(out)["agent_seeds"] == {"A": 1, "B": 2}


# -------------------------------------------------------------------------------------------
# Forgeries: each replays, and verification catches it naming the line and the step
# -------------------------------------------------------------------------------------------


def test_a_changed_seed_is_caught_at_the_first_roll() -> None:
    """With the header's seed changed, the seed's dice give another first roll (the first
    input of a battle is a roll): a plain replay accepts the record, verification names the
    line and step of that roll and both rolls."""
    forged = _with_head(HONEST, seed=SEED + 1)
    replay_record(forged, ruleset=KT24)  # a plain replay does not notice
    message = _verify_error(forged)
    step = _first_step(HONEST, "chance")
    line = _line_of_step(HONEST, step)
    assert message.startswith(f"record line {line}: step {step}: roll ")
    assert f"is not the roll of the recorded seed {SEED + 1} (its dice give roll " in message


def test_a_forged_roll_in_a_re_recorded_battle_is_caught() -> None:
    """A forger re-records a whole battle with one roll changed (the tenth: an attack or
    defence roll in the turning points), so every state hash and the result line are genuine
    and a plain replay accepts it; the seed's dice give another roll at that step, and
    verification names the line, the step and both rolls."""
    dice = ForgedDice(SEED, forge=10)
    forged = _record(dice=dice, steps=None)
    assert json.loads(forged[-1])["result"]  # a finished battle
    replay_record(forged, ruleset=KT24)
    assert dice.forged is not None
    honest, fake = dice.forged
    step = [n for n, t in enumerate(forged[1:-1], 1) if '"chance"' in t][9]
    message = _verify_error(forged)
    want = (
        f"record line {step + 1}: step {step}: roll {','.join(map(str, fake.values))} is not "
        f"the roll of the recorded seed {SEED} (its dice give "
        f"roll {','.join(map(str, honest.values))})"
    )
    assert message == want


def test_a_changed_agent_name_is_caught_at_its_first_differing_decision() -> None:
    """A record of random agents relabelled as heuristic: the heuristic agent decides
    otherwise at some decision of player A (a random agent does not play as it does), and
    verification names that step and both actions."""
    forged = _with_head(HONEST, agents={"A": "heuristic", "B": "random"})
    replay_record(forged, ruleset=KT24)
    message = _verify_error(forged)
    assert re.match(
        r"record line \d+: step \d+: player A chose '.+' but its agent heuristic ", message
    )
    assert "(seed 10) chooses '" in message


def test_changed_agent_seeds_are_caught() -> None:
    """Swapping the agents' seeds (in ``agent_seeds``) makes the random agents decide
    otherwise: the record no longer follows its header."""
    forged = _with_head(HONEST, agent_seeds={"A": 2 * SEED + 1, "B": 2 * SEED})
    replay_record(forged, ruleset=KT24)
    message = _verify_error(forged)
    assert re.search(r"step \d+: player [AB] chose .* but its agent random \(seed 1[01]\)", message)


def test_a_built_in_team_with_doubled_wounds_is_caught_at_line_1() -> None:
    """Legionaries with every operative's wounds doubled, still under the built-in id, the
    battle re-recorded so the content hash and every state hash are genuine: a plain replay
    accepts it; verification compares the data with this engine's built-in Legionaries and
    names the roster and the first field that differs, with both values."""
    data = team_to_dict(load_builtin_team("legionaries"))
    for op in data["operatives"]:
        op["wounds"] *= 2
    strong = team_from_dict(data)
    assert strong.id == "legionaries"
    forged = _record(rosters=(A, Roster(strong, B.operatives, B.loadouts)))
    head = json.loads(forged[0])
    assert head["rosters"]["B"]["hash"] == digest(dumps_line(head["rosters"]["B"]["team"]))
    replay_record(forged, ruleset=KT24)
    first = data["operatives"][0]
    message = _verify_error(forged)
    assert message == (
        "record line 1: rosters.B.team: not the built-in data of team 'legionaries' "
        f"(engine {__version__}): operatives[0].wounds is {first['wounds']} in the "
        f"record, {first['wounds'] // 2} built in"
    )


# -------------------------------------------------------------------------------------------
# What cannot be verified
# -------------------------------------------------------------------------------------------


def test_parts_that_cannot_be_verified_are_an_error_unless_not_strict() -> None:
    """A record without a seed, of a person against a built-in agent, with an imported team
    under an id that is not built in: nothing to verify the dice, A's decisions or that team
    against. Strict verification (the default, ``--verify``) fails naming each part and
    what it did verify; ``strict=False`` lists them."""
    data = team_to_dict(load_builtin_team("kasrkin"))
    data["id"] = "my_kasrkin"
    mine = team_from_dict(data)
    lines = _record(rosters=(Roster(mine, A.operatives, A.loadouts), B))
    lines = _with_head(lines, seed=None, agents={"A": "alice", "B": "random"})
    replay_record(lines, ruleset=KT24)
    message = _verify_error(lines)
    assert message.startswith(
        "record line 1: cannot be verified: dice (the record has no seed); decisions of A "
        "(agent 'alice' is not a built-in agent: heuristic, mcts, random); decisions of B (agent "
        "random has no seed: the record has no seed or agent_seeds); team data of A "
        "('my_kasrkin' is not a built-in team) (verified: built-in team data of B "
        "(legionaries))"
    )
    checked = verify_record(lines, strict=False)
    assert len(checked.not_verified) == 4
    assert checked.verified == ("built-in team data of B (legionaries)",)


def test_first_difference_names_the_path_and_both_values() -> None:
    """The path is the JSON path of the first differing leaf in sorted-key order; a missing
    key and a list of another length are named as such."""
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == ("a[1].b", "2", "3")
    assert first_difference({"a": 1}, {"a": 1, "c": 2}) == ("c", "absent", "2")
    assert first_difference([1, 2], [1, 2, 3]) == ("(the data)", "2 items", "3 items")
    assert first_difference({"x": 1}, {"x": 1.0}) == ("x", "1", "1.0")
    assert first_difference({"x": [1]}, {"x": [1]}) is None


# -------------------------------------------------------------------------------------------
# The command line
# -------------------------------------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole battle recorded by ``killteam play --record`` (random agents, seed 3)."""
    folder = tmp_path_factory.mktemp("played")
    path = folder / "game.jsonl"
    assert (
        main(["play", "--agents", "random", "--seed", "3", "--quiet", "--record", str(path)]) == 0
    )
    return path


def test_cli_replay_verify_accepts_a_played_record_and_says_what_it_verified(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``killteam play --record`` writes what ``--verify`` checks: status 0 and a summary
    naming the rolls, both agents' decisions and both built-in teams verified; without
    ``--verify`` the summary names the three parts not checked."""
    code, out, err = _run(capsys, "replay", str(played), "--quiet", "--verify")
    assert code == 0, err
    last = out.splitlines()[-1]
    assert re.fullmatch(
        r"replay OK: \d+ steps, \d+ state hashes and the result match the record; verified: "
        r"\d+ rolls against seed 3, \d+ decisions of A's agent random \(seed 6\), \d+ "
        r"decisions of B's agent random \(seed 7\), built-in team data of A \(kasrkin\), "
        r"built-in team data of B \(legionaries\)",
        last,
    ), last
    code, out, _ = _run(capsys, "replay", str(played), "--quiet")
    assert code == 0
    assert out.splitlines()[-1].endswith(
        "; not verified: dice against the seed, agents' decisions, built-in team data "
        "(use --verify)"
    )
    assert NOT_CHECKED_BY_REPLAY == (
        "dice against the seed",
        "agents' decisions",
        "built-in team data",
    )
    code, out, _ = _run(capsys, "replay", str(played), "--json", "--verify")
    data = json.loads(out)["replay"]
    assert data["not_verified"] == [] and len(data["verified"]) == 5


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"seed": 4}, ["is not the roll of the recorded seed 4"]),
        ({"agents": {"A": "random", "B": "heuristic"}}, ["player B chose", "agent heuristic"]),
    ],
)
def test_cli_replay_verify_fails_with_status_1_on_a_changed_header(
    played: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: dict[str, Any],
    words: list[str],
) -> None:
    """A header edited after the battle replays (status 0 without ``--verify``) but does not
    verify: status 1 and one line naming the file, the record line, the step and what
    differs."""
    lines = played.read_text(encoding="utf-8").splitlines()
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(_with_head(lines, **change)) + "\n", encoding="utf-8")
    assert _run(capsys, "replay", str(path), "--quiet")[0] == 0
    code, _, err = _run(capsys, "replay", str(path), "--quiet", "--verify")
    assert code == 1
    assert err.count("\n") == 1
    assert re.match(
        rf"killteam: error: {re.escape(str(path))} does not verify: record line \d+: step \d+: ",
        err,
    ), err
    for w in words:
        assert w in err


def test_cli_verify_refuses_a_scenario_file(capsys: pytest.CaptureFixture[str]) -> None:
    """A scenario file scripts its dice and has no agents: ``--verify`` has nothing to check
    and says so (bad usage, status 2)."""
    scenario = next((Path(__file__).resolve().parents[1] / "scenarios").glob("*.toml"))
    code, _, err = _run(capsys, "replay", str(scenario), "--verify")
    assert code == 2 and "--verify checks game records" in err


# -------------------------------------------------------------------------------------------
# killteam batch: what it reads back
# -------------------------------------------------------------------------------------------


def _tampering(field: str, value: Any) -> Any:
    real = engine.batch.batch_line

    def tampered(index: int, summary: Any) -> dict[str, Any]:
        line = real(index, summary)
        if index == 1:
            line[field] = value
        return line

    return tampered


def _short_battle(matchup: Matchup, seed: int, **kwargs: Any) -> Any:
    """``play_battle`` stopped after 40 inputs (the check does not need whole battles)."""
    short = attrs.evolve(matchup, options=attrs.evolve(matchup.options, max_steps=40))
    return REAL_PLAY_BATTLE(short, seed, **kwargs)


REAL_PLAY_BATTLE = engine.batch.play_battle


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("seed", 12345, "has seed 12345, not the game's seed"),
        ("index", 0, "is game 0's"),
        ("winner", "B", "has winner 'B' with VP"),
    ],
)
def test_batch_refuses_a_game_line_that_is_not_the_game_asked_for(
    monkeypatch: pytest.MonkeyPatch, workers: int, field: str, value: Any, words: str
) -> None:
    """Batch reads each game's line back from the worker that played it (or from this process
    with one worker): a line with another seed, another index (a game counted twice) or a
    winner the VP do not give is refused naming the game, not counted."""
    monkeypatch.setattr(engine.batch, "batch_line", _tampering(field, value))
    monkeypatch.setattr(engine.batch, "play_battle", _short_battle)
    choice = MatchupChoice(agents="random")
    with pytest.raises(BatchError) as info:
        run_batch(choice, 2, base_seed=9, workers=workers)
    assert str(info.value).startswith("batch game 1: the result read back ")
    assert words in str(info.value)


def test_batch_lines_pass_the_check_untouched(monkeypatch: pytest.MonkeyPatch) -> None:
    """Honest lines from worker processes pass, each game once in index order with its seed
    (the check refuses only what is not the game asked for)."""
    monkeypatch.setattr(engine.batch, "play_battle", _short_battle)
    lines = run_batch(MatchupChoice(agents="random"), 3, base_seed=9, workers=2)
    assert [(line["index"], line["seed"]) for line in lines] == [
        (i, game_seed(9, i)) for i in range(3)
    ]


def test_a_search_with_a_time_budget_cannot_be_verified() -> None:
    """An MCTS agent with a time budget (``mcts:1s``) searches as far as the machine gets in
    that time, so playing its decisions again need not give the recorded ones: strict
    verification names its decisions as unverifiable instead of failing on a difference."""
    lines = _with_head(_record(), agents={"A": "mcts:1s", "B": "random"})
    message = _verify_error(lines)
    assert "decisions of A (agent mcts:1s searches for a time, not a number of iterations" in (
        message
    )
    assert "decisions of B (agent" not in message  # B's random agent is verified
