"""Many seeded battles of one matchup, and their statistics (``killteam batch``).

- :func:`run_batch` plays many battles of one :class:`~engine.play.matchup.MatchupChoice`, in
  parallel processes or on Ray when asked (:mod:`engine.play.backends`); game ``i`` with base
  seed ``base`` uses the battle seed :func:`~engine.play.game_seed` ``(base, i)``, so the
  results never depend on the backend or the number of workers, and ``killteam play --seed
  <that seed>`` replays one game alone. :func:`run_battles` plays any list of
  :class:`BattleJob` (battles of several matchups: :mod:`engine.play.tournament`).
- Ctrl-C during a run cancels the battles not finished and raises :class:`BatchInterrupted`,
  a :class:`KeyboardInterrupt` holding the battles finished before it.
- :func:`batch_line` is one game as JSON data (a line of ``killteam batch --out``).
- :func:`batch_stats` reduces the games to player A's win/draw/loss rates with Wilson score
  intervals (:func:`wilson_interval`), mean VP per op and mean kills.

**What a batch reads back.** A batch reads no record and no file: each game's line comes back
in memory from the worker that played it (pickled by :mod:`concurrent.futures` through the
pipe of a process this batch started, or by Ray from a task this batch submitted; never from
a file a user could have written), or from this process with one worker. :func:`run_battles`
checks every line before using it (:func:`check_batch_line`): the fields of
:func:`batch_line`, the index of the game it was asked for (so each game is counted exactly
once), that game's seed
(:func:`~engine.play.game_seed`), the matchup's agents, VP that are the sum of the VP per op,
and a winner that agrees with the VP. A record read back from elsewhere is verified with
:func:`engine.verify.verify_record`.
"""

from __future__ import annotations

import math
import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from engine import RULESET
from engine.errors import KillTeamError
from engine.play import DEFAULT_SEED, game_seed, mission_ops
from engine.play.backends import run_tasks
from engine.play.battle import play_battle
from engine.play.matchup import Matchup, MatchupChoice, make_matchup, parse_agents
from engine.play.summary import BattleSummary

__all__ = [
    "Z95",
    "BatchError",
    "BatchInterrupted",
    "BatchStats",
    "BattleJob",
    "Rate",
    "batch_line",
    "batch_stats",
    "check_batch_line",
    "default_workers",
    "play_job",
    "run_batch",
    "run_battles",
    "wilson_interval",
]

#: z for a two-sided 95% interval (the 0.975 quantile of the standard normal).
Z95 = 1.959963984540054


def batch_line(index: int, summary: BattleSummary) -> dict[str, Any]:
    """One game of a batch as JSON data (a line of ``killteam batch --out``)."""
    data = summary.to_json()
    return {
        "index": index,
        "seed": summary.seed,
        "agents": data["agents"],
        "vp": data["vp"],
        "vp_by_op": data["vp_by_op"],
        "winner": data["winner"],
        "kills": data["kills"],
        "ploys_used": data["ploys_used"],
        "equipment": data["equipment"],
        "crit_op": data["crit_op"],
        "tac_ops": data["tac_ops"],
        "primary_ops": data["primary_ops"],
        "steps": summary.steps,
        "finished": summary.finished,
        "hash": summary.hash,
        "unimplemented_rules": data["unimplemented_rules"],
    }


class BatchError(KillTeamError, RuntimeError):
    """A game's line read back from a worker is not the game asked for (:func:`run_batch`):
    the message names the game's index and the field."""


_LINE_FIELDS = (
    "agents",
    "crit_op",
    "equipment",
    "finished",
    "hash",
    "index",
    "kills",
    "ploys_used",
    "primary_ops",
    "seed",
    "steps",
    "tac_ops",
    "unimplemented_rules",
    "vp",
    "vp_by_op",
    "winner",
)


def check_batch_line(
    line: Any, index: int, base_seed: int, agents: tuple[str, str]
) -> dict[str, Any]:
    """Check a game's line as read back (module docstring) against the game asked for.

    Args:
        line: what came back: a :func:`batch_line` dict.
        index: the game's index (0-based); base_seed: the batch's base seed; agents: the
            matchup's agent names (A, B).

    Returns:
        ``line``, checked.

    Raises:
        BatchError: not a batch line (fields other than :func:`batch_line`'s), another
            index, a seed other than :func:`~engine.play.game_seed` ``(base_seed, index)``,
            other agents, VP that are not the sum of the VP per op, or a winner that does
            not agree with the VP (a finished game's higher VP; on equal VP a draw or
            either player, a ruleset's tie-break; naming the game and the field).
    """

    def bad(what: str) -> BatchError:
        return BatchError(f"batch game {index}: the result read back {what}")

    if not isinstance(line, dict) or tuple(sorted(line)) != _LINE_FIELDS:
        raise bad(f"is not a game's line (fields: {', '.join(_LINE_FIELDS)})")
    if line["index"] != index:
        raise bad(f"is game {line['index']!r}'s")
    want = game_seed(base_seed, index)
    if line["seed"] != want:
        raise bad(f"has seed {line['seed']!r}, not the game's seed {want}")
    if line["agents"] != {"A": agents[0], "B": agents[1]}:
        raise bad(f"has agents {line['agents']!r}, not {agents[0]} and {agents[1]}")
    try:
        vp = (int(line["vp"]["A"]), int(line["vp"]["B"]))
        by_op = [sum(int(v[p]) for v in line["vp_by_op"].values()) for p in ("A", "B")]
    except (KeyError, TypeError, ValueError, AttributeError):
        raise bad("has malformed VP") from None
    if list(vp) != by_op:
        raise bad(f"has VP {vp[0]}-{vp[1]}, not the sum of its VP per op ({by_op[0]}-{by_op[1]})")
    winners: tuple[str | None, ...] = (None,)
    if line["finished"] is True and vp[0] != vp[1]:
        winners = ("A" if vp[0] > vp[1] else "B",)
    elif line["finished"] is True:
        # Equal VP: a draw, or the winner of the ruleset's tie-break (Covert War's minor
        # victory for the least strategic advantage, rules/KT18.md 9.6).
        winners = (None, "A", "B")
    if line["winner"] not in winners:
        raise bad(f"has winner {line['winner']!r} with VP {vp[0]}-{vp[1]}")
    return line


@attrs.frozen(slots=True)
class BattleJob:
    """One battle to play: game ``index`` (0-based) of the matchup ``choice`` in a set of games
    with base seed ``base_seed``, so its battle seed is :func:`~engine.play.game_seed`
    ``(base_seed, index)`` (picklable: it is what a worker process or a Ray task receives)."""

    choice: MatchupChoice
    index: int
    base_seed: int


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_battles` (:func:`run_batch`,
    :func:`engine.play.tournament.run_tournament`): the battles not finished were cancelled,
    and these are the ones finished before it.

    It is a :class:`KeyboardInterrupt`, so a caller that does not look at it stops as on any
    Ctrl-C.

    Attributes:
        results: ``(k, line)`` of each finished battle, ``k`` its position in the run, sorted
            by ``k``; lines: the lines alone, in that order; total: the battles planned.
    """

    def __init__(self, results: Sequence[tuple[int, dict[str, Any]]], total: int) -> None:
        super().__init__(f"stopped after {len(results)} of {total} battles")
        self.results = list(results)
        self.total = total

    @property
    def lines(self) -> list[dict[str, Any]]:
        """The finished battles' lines, by position in the run."""
        return [line for _, line in self.results]

    @property
    def message(self) -> str:
        """``"stopped after 37 of 100 battles"``."""
        return str(self.args[0])


#: The matchups this process has built, by choice (a forked worker inherits the parent's,
#: warm; a spawned process or a Ray worker builds each once, and keeps it: caches stay warm).
_MATCHUPS: dict[MatchupChoice, Matchup] = {}


def _matchup_for(choice: MatchupChoice, cache: dict[MatchupChoice, Matchup]) -> Matchup:
    """The matchup of ``choice`` from ``cache``, built and kept there when missing. Choices
    that differ only in their agents share one matchup but for its agent names (the agents
    are names only: the teams, rosters and killzone, with its warm caches, are built once).

    Raises:
        BattleError: the matchup cannot be built.
    """
    matchup = cache.get(choice)
    if matchup is None:
        if choice.agents is None:
            matchup = make_matchup(choice)
        else:
            base = _matchup_for(attrs.evolve(choice, agents=None), cache)
            matchup = attrs.evolve(base, agents=parse_agents(choice.agents))
        cache[choice] = matchup
    return matchup


def play_job(job: BattleJob) -> dict[str, Any]:
    """Play one :class:`BattleJob` and return its :func:`batch_line` (what a worker runs).

    Raises:
        BattleError: the matchup cannot be built.
    """
    matchup = _matchup_for(job.choice, _MATCHUPS)
    _, summary = play_battle(matchup, game_seed(job.base_seed, job.index))
    return batch_line(job.index, summary)


def run_battles(
    jobs: Sequence[BattleJob],
    *,
    backend: str = "process",
    workers: int = 1,
    on_line: Callable[[int, dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Play ``jobs`` on a backend (:func:`engine.play.backends.run_tasks`: ``"process"`` or
    ``"ray"``) and return their lines, each checked as it is read back
    (:func:`check_batch_line`).

    Every matchup is built here first, once (so a bad choice fails before any battle); with
    worker processes forked from this one, its movement graphs are built first too
    (:meth:`Matchup.warm`), so every worker starts warm. The results never depend on the
    backend or the number of workers.

    Args:
        on_line: called with ``(k, line)`` as battle ``k`` (its position in ``jobs``) finishes,
            in completion order; it may raise :class:`KeyboardInterrupt` to stop the run.

    Returns:
        One :func:`batch_line` per job, in the order of ``jobs``.

    Raises:
        BatchInterrupted: Ctrl-C (or a :class:`KeyboardInterrupt` from ``on_line``): the rest
            was cancelled; it holds the battles finished before it.
        BattleError: a matchup cannot be built.
        BatchError: a battle's line read back is not the battle asked for.
        BackendError: an unknown backend, or Ray not installed.
        ValueError: ``workers`` below 1.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    matchups: dict[MatchupChoice, Matchup] = {}
    for job in jobs:
        _matchup_for(job.choice, matchups)
    local = backend == "process"
    if local and workers > 1 and "fork" in multiprocessing.get_all_start_methods():
        for matchup in matchups.values():
            matchup.warm()  # once per killzone: the graphs are cached on it
    done: dict[int, dict[str, Any]] = {}

    def got(k: int, line: dict[str, Any]) -> None:
        job = jobs[k]
        agents = matchups[job.choice].agents
        done[k] = check_batch_line(line, job.index, job.base_seed, agents)
        if on_line is not None:
            on_line(k, done[k])

    if local:
        _MATCHUPS.update(matchups)
    try:
        run_tasks(play_job, jobs, got, backend=backend, workers=workers)
    except KeyboardInterrupt:
        raise BatchInterrupted(sorted(done.items()), len(jobs)) from None
    finally:
        if local:
            for choice in matchups:
                _MATCHUPS.pop(choice, None)
    return [done[k] for k in range(len(jobs))]


def run_batch(
    choice: MatchupChoice,
    games: int,
    *,
    base_seed: int = DEFAULT_SEED,
    workers: int = 1,
    backend: str = "process",
    on_game: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Play ``games`` battles of one matchup, game ``i`` with :func:`game_seed` ``(base_seed,
    i)`` (:func:`run_battles`).

    With ``workers > 1`` the games run in that many processes (``backend="process"``:
    forked where the platform allows, after the movement graphs are built, so every worker
    starts warm; otherwise each builds the matchup once), or on Ray (``backend="ray"``). The
    results are the same for any backend and number of workers. Each game's line is checked
    as it is read back (:func:`check_batch_line`).

    Args:
        on_game: called with each game's line as it finishes (in completion order); it may
            raise :class:`KeyboardInterrupt` to stop the batch.

    Returns:
        One :func:`batch_line` per game, sorted by index.

    Raises:
        BatchInterrupted: Ctrl-C: it holds the games finished before it (by index).
        BattleError: the matchup cannot be built.
        BatchError: a game's line read back is not the game asked for.
        BackendError: an unknown backend, or Ray not installed.
        ValueError: ``games`` or ``workers`` below 1, or a negative base seed.
    """
    if games < 1 or workers < 1:
        raise ValueError(f"games and workers must be at least 1 (games {games}, workers {workers})")
    if base_seed < 0:
        raise ValueError(f"the base seed must be non-negative, not {base_seed}")
    jobs = [BattleJob(choice, i, base_seed) for i in range(games)]

    def on_line(_k: int, line: dict[str, Any]) -> None:
        if on_game is not None:
            on_game(line)

    return run_battles(jobs, backend=backend, workers=workers, on_line=on_line)


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% with the default ``z``):
    ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)`` with ``p = successes / n``.

    Unlike the normal approximation it stays inside [0, 1] and is sensible at 0 or ``n``
    successes and for small ``n``.

    Raises:
        ValueError: ``n < 1`` or ``successes`` outside 0..n.
    """
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n and n >= 1 (successes {successes}, n {n})")
    p = successes / n
    z2 = z * z
    centre = p + z2 / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    denom = 1 + z2 / n
    lo = 0.0 if successes == 0 else max(0.0, (centre - half) / denom)
    hi = 1.0 if successes == n else min(1.0, (centre + half) / denom)
    return lo, hi


@attrs.frozen(slots=True)
class Rate:
    """``count`` of ``n`` games, its ``rate`` and 95% Wilson interval ``ci``."""

    count: int
    n: int
    rate: float
    ci: tuple[float, float]

    @classmethod
    def of(cls, count: int, n: int) -> Rate:
        """The rate of ``count`` in ``n`` games."""
        return cls(count, n, count / n, wilson_interval(count, n))


@attrs.frozen(slots=True)
class BatchStats:
    """Statistics of a batch, from player A's side.

    Attributes:
        games: games played; unfinished: games that hit the step limit.
        win, draw, loss: A's results (:class:`Rate`).
        mean_vp: mean VP (A, B); mean_vp_by_op: op -> mean VP (A, B);
        mean_kills: mean enemy operatives incapacitated (A, B); mean_steps: mean inputs.
    """

    games: int
    unfinished: int
    win: Rate
    draw: Rate
    loss: Rate
    mean_vp: tuple[float, float]
    mean_vp_by_op: tuple[tuple[str, tuple[float, float]], ...]
    mean_kills: tuple[float, float]
    mean_steps: float

    def to_json(self) -> dict[str, Any]:
        """The statistics as JSON data (``killteam batch --json``); floats to 4 decimals."""

        def r(x: float) -> float:
            return round(x, 4)

        def rate(x: Rate) -> dict[str, Any]:
            return {"count": x.count, "rate": r(x.rate), "ci95": [r(x.ci[0]), r(x.ci[1])]}

        def ab(v: tuple[float, float]) -> dict[str, float]:
            return {"A": r(v[0]), "B": r(v[1])}

        return {
            "games": self.games,
            "unfinished": self.unfinished,
            "a": {"win": rate(self.win), "draw": rate(self.draw), "loss": rate(self.loss)},
            "mean_vp": ab(self.mean_vp),
            "mean_vp_by_op": {op: ab(v) for op, v in self.mean_vp_by_op},
            "mean_kills": ab(self.mean_kills),
            "mean_steps": r(self.mean_steps),
        }


def batch_stats(lines: Sequence[Mapping[str, Any]], ruleset: str = RULESET) -> BatchStats:
    """Reduce :func:`batch_line` data to :class:`BatchStats` (win/draw/loss of player A with
    Wilson 95% intervals, means per player; the VP means list ``ruleset``'s scoring ops
    first, :func:`engine.play.mission_ops`).

    Raises:
        ValueError: no games.
    """
    n = len(lines)
    if n == 0:
        raise ValueError("no games to summarise")
    winners = [line["winner"] for line in lines]
    ops: list[str] = list(mission_ops(ruleset))
    for line in lines:
        ops += [op for op in line["vp_by_op"] if op not in ops]

    def mean(values: Iterator[float]) -> float:
        return sum(values) / n

    def pair(key: str) -> tuple[float, float]:
        return (mean(line[key]["A"] for line in lines), mean(line[key]["B"] for line in lines))

    return BatchStats(
        games=n,
        unfinished=sum(1 for line in lines if not line.get("finished", True)),
        win=Rate.of(winners.count("A"), n),
        draw=Rate.of(sum(1 for w in winners if not w), n),
        loss=Rate.of(winners.count("B"), n),
        mean_vp=pair("vp"),
        mean_vp_by_op=tuple(
            (
                op,
                (
                    mean(line["vp_by_op"].get(op, {}).get("A", 0) for line in lines),
                    mean(line["vp_by_op"].get(op, {}).get("B", 0) for line in lines),
                ),
            )
            for op in ops
        ),
        mean_kills=pair("kills"),
        mean_steps=mean(line["steps"] for line in lines),
    )


def default_workers() -> int:
    """The default number of worker processes: the CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)
