"""``killteam tournament`` and :mod:`engine.play.tournament`: entrants, the seat-balanced
schedule and its seeds, the results' tallies, and a tiny tournament end to end (its CSV, JSON,
picture and battle lines, one battle replayed alone)."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from engine.cli import main
from engine.play import DEFAULT_TEAMS, BattleError, game_seed
from engine.play.tournament import (
    Entrant,
    make_entrants,
    pairs_csv_path,
    schedule,
    tournament_result,
)

ROOT = Path(__file__).resolve().parent.parent


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# -------------------------------------------------------------------------------------------
# Entrants and schedule
# -------------------------------------------------------------------------------------------


def test_entrants_are_agents_teams_or_pairs() -> None:
    """Agents alone (or with one team) are the entrants; several teams with one agent are;
    several of both give every (team, agent) pair, named team/agent."""
    assert make_entrants("random,heuristic") == [
        Entrant("random", "random", None),
        Entrant("heuristic", "heuristic", None),
    ]
    assert [e.team for e in make_entrants("random,heuristic", "legionaries")] == [
        "legionaries",
        "legionaries",
    ]
    assert make_entrants("random", ["kasrkin", "legionaries"]) == [
        Entrant("kasrkin", "random", "kasrkin"),
        Entrant("legionaries", "random", "legionaries"),
    ]
    assert [e.name for e in make_entrants("random,heuristic", "kasrkin,legionaries")] == [
        "kasrkin/random",
        "kasrkin/heuristic",
        "legionaries/random",
        "legionaries/heuristic",
    ]


@pytest.mark.parametrize(
    ("agents", "teams", "words"),
    [
        ("random", "", "at least two entrants"),
        ("random", "kasrkin", "at least two entrants"),
        ("random,random", "", "'random' is given twice"),
        ("", "kasrkin,legionaries", "at least one agent"),
    ],
)
def test_too_few_or_repeated_entrants_are_refused(agents: str, teams: str, words: str) -> None:
    """A round robin needs two distinct entrants: the message says what is missing or
    repeated."""
    with pytest.raises(BattleError, match=words):
        make_entrants(agents, teams)


def test_every_pair_plays_each_seat_with_the_same_seeds() -> None:
    """3 entrants, 2 battles per seat: 3 pairs x 2 seats x 2 = 12 battles; each ordered pair
    appears twice, battle k with seed game_seed(base, k) in both seats (the same dice for
    both orders), round k = 0 first; the agents-only entrants play the default teams by
    seat."""
    entrants = make_entrants("a1,a2,a3")
    pairings = schedule(entrants, 2, base_seed=7)
    assert len(pairings) == 12
    ordered = [(p.a, p.b) for p in pairings]
    for i in range(3):
        for j in range(3):
            assert ordered.count((i, j)) == (2 if i != j else 0)
    assert [p.job.index for p in pairings] == [0] * 6 + [1] * 6
    for p in pairings:
        assert p.job.base_seed == 7
        assert p.job.choice.agents == f"{entrants[p.a].agent},{entrants[p.b].agent}"
        assert p.job.choice.teams is None  # the default teams: DEFAULT_TEAMS by seat
    seeds = {(p.a, p.b, p.job.index): game_seed(7, p.job.index) for p in pairings}
    assert seeds[0, 1, 1] == seeds[1, 0, 1] == game_seed(7, 1)
    teams = schedule(make_entrants("random", "kasrkin,legionaries"), 1)
    assert [p.job.choice.teams for p in teams] == [
        ("kasrkin", "legionaries"),
        ("legionaries", "kasrkin"),
    ]


def _line(game: int, a: str, b: str, winner: str | None) -> dict[str, object]:
    return {"game": game, "entrants": {"A": a, "B": b}, "winner": winner}


def test_results_count_each_battle_for_both_entrants_and_their_pair() -> None:
    """Hand-counted: x beats y in seat A, draws y in seat B, loses to z in seat B; y beats z.
    x: 1 W 1 D 1 L, score 1.5/3; y: 1 W 1 D 1 L; z: 1 W 0 D 1 L. The pair x-y is 1-1-0 from
    x's side whatever the seats."""
    entrants = make_entrants("x,y,z")
    lines = [
        _line(0, "x", "y", "A"),
        _line(1, "y", "x", None),
        _line(2, "z", "x", "A"),
        _line(3, "y", "z", "A"),
    ]
    result = tournament_result(entrants, lines, planned=6, replicates=20)
    by = {s.entrant.name: s for s in result.standings}
    assert (by["x"].wins, by["x"].draws, by["x"].losses, by["x"].score) == (1, 1, 1, 0.5)
    assert (by["y"].wins, by["y"].draws, by["y"].losses) == (1, 1, 1)
    assert (by["z"].wins, by["z"].draws, by["z"].losses, by["z"].games) == (1, 0, 1, 2)
    pairs = {(p.a, p.b): (p.games, p.wins, p.draws, p.losses) for p in result.pairs}
    assert pairs == {("x", "y"): (2, 1, 1, 0), ("x", "z"): (1, 0, 0, 1), ("y", "z"): (1, 1, 0, 0)}
    assert result.interrupted and result.battles == 4 and result.planned == 6
    assert [s.rating for s in result.standings] == sorted(
        (s.rating for s in result.standings), reverse=True
    )
    with pytest.raises(ValueError, match="anchor 'w'"):
        tournament_result(entrants, lines, anchor="w")


# -------------------------------------------------------------------------------------------
# A tiny tournament end to end
# -------------------------------------------------------------------------------------------


def test_a_tiny_tournament_writes_consistent_csv_json_picture_and_battles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two teams played by the random agent, one battle per seat: two battles, each line the
    battle's batch line with its entrants and teams; the CSV and JSON count the same W/D/L as
    the lines' winners; the picture is a PNG; and a battle replays alone with ``killteam
    play --seed`` (same hash)."""
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(
        capsys,
        "tournament",
        "--agents",
        "random",
        "--teams",
        "legionaries,angels_of_death",
        "-n",
        "1",
        "--seed",
        "4",
        "--workers",
        "1",
        "--bootstrap",
        "50",
        "--out",
        "b.jsonl",
        "--csv",
        "r.csv",
        "--json-out",
        "r.json",
        "--plot",
        "r.png",
    )
    assert code == 0, err
    assert "Tournament of 2 entrants (legionaries, angels_of_death)" in out
    lines = [json.loads(x) for x in Path("b.jsonl").read_text().splitlines()]
    assert [(g["game"], g["entrants"]["A"], g["teams"]["B"]) for g in lines] == [
        (0, "legionaries", "angels_of_death"),
        (1, "angels_of_death", "legionaries"),
    ]
    assert {g["seed"] for g in lines} == {game_seed(4, 0)}

    def wins(name: str) -> int:
        return sum(g["winner"] is not None and g["entrants"][g["winner"]] == name for g in lines)

    data = json.loads(Path("r.json").read_text())
    assert data["battles"] == data["planned"] == 2 and data["interrupted"] is False
    rows = list(csv.DictReader(Path("r.csv").read_text().splitlines()))
    assert [r["entrant"] for r in rows] == [e["entrant"] for e in data["entrants"]]
    for row, entry in zip(rows, data["entrants"], strict=True):
        name = row["entrant"]
        draws = sum(g["winner"] is None for g in lines)
        assert (int(row["games"]), int(row["wins"]), int(row["draws"])) == (2, wins(name), draws)
        assert float(row["rating"]) == entry["rating"]
        assert float(row["low"]) <= float(row["rating"]) <= float(row["high"])
        assert float(row["score"]) == pytest.approx((wins(name) + draws / 2) / 2)
    pair = list(csv.DictReader(pairs_csv_path("r.csv").read_text().splitlines()))
    assert pair == [
        {
            "a": "legionaries",
            "b": "angels_of_death",
            "games": "2",
            "a_wins": str(wins("legionaries")),
            "draws": str(sum(g["winner"] is None for g in lines)),
            "b_wins": str(wins("angels_of_death")),
            "a_score": str(data["pairs"][0]["a_score"]),
        }
    ]
    assert Path("r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    g = lines[1]
    code, alone, _ = _run(
        capsys,
        "play",
        "--teams",
        g["teams"]["A"],
        g["teams"]["B"],
        "--agents",
        "random",
        "--seed",
        str(g["seed"]),
        "--json",
    )
    assert code == 0
    assert json.loads(alone)["hash"] == g["hash"]


def test_tournament_prints_entrant_names_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entrant named after a team file whose name holds rich markup is printed literally
    (the table escapes user text), and --json prints only JSON."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "teams" / "legionaries.json", tmp_path / "[red]leg.json")
    args = ["tournament", "--agents", "random", "--teams", "[red]leg.json,legionaries"]
    args += ["-n", "1", "--workers", "1", "--bootstrap", "20", "-q"]
    code, out, err = _run(capsys, *args)
    assert code == 0, err
    assert "[red]leg.json" in out
    code, out, _ = _run(capsys, *args, "--json")
    assert code == 0
    assert [e["entrant"] for e in json.loads(out)["entrants"]].count("[red]leg.json") == 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--agents", "random"], "at least two entrants"),
        (["--agents", "random,clever"], "clever"),
        (["--agents", "random,heuristic", "--anchor", "nobody"], "--anchor"),
        (["--prior", "0"], "--prior"),
        (["--backend", "spark"], "--backend"),
        (["--plot", "r.jpg"], "--plot"),
    ],
)
def test_bad_tournament_options_exit_2_with_one_line(
    args: list[str],
    words: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bad input is refused before any battle: status 2, one line naming the problem."""
    monkeypatch.chdir(tmp_path)
    code, _out, err = _run(capsys, "tournament", "-n", "1", "--out", "b.jsonl", *args)
    assert code == 2
    assert words in err and len(err.strip().splitlines()) == 1, err
    assert not Path("b.jsonl").exists()


def test_default_teams_play_by_seat() -> None:
    """The agents-only tournament plays DEFAULT_TEAMS: seat A the first, seat B the second
    (recorded on each line)."""
    from engine.play.tournament import tournament_line

    entrants = make_entrants("random,heuristic")
    pairing = schedule(entrants, 1)[1]
    line = tournament_line(1, pairing, entrants, {"index": 0})
    assert line["teams"] == {"A": DEFAULT_TEAMS[0], "B": DEFAULT_TEAMS[1]}
    assert line["entrants"] == {"A": "heuristic", "B": "random"}
