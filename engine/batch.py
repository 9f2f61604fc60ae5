"""Many seeded battles of one matchup, and their statistics (``killteam batch``).

- :func:`run_batch` plays many battles of one :class:`~engine.play.matchup.MatchupChoice`, in
  parallel processes when asked; game ``i`` with base seed ``base`` uses the battle seed
  :func:`~engine.play.game_seed` ``(base, i)``, so the results never depend on the number of
  worker processes and ``killteam play --seed <that seed>`` replays one game alone.
- :func:`batch_line` is one game as JSON data (a line of ``killteam batch --out``).
- :func:`batch_stats` reduces the games to player A's win/draw/loss rates with Wilson score
  intervals (:func:`wilson_interval`), mean VP per op and mean kills.

**What a batch reads back.** A batch reads no record and no file: each game's line comes back
in memory from the worker process that played it (pickled by :mod:`concurrent.futures`
through the pipe of a process this batch started; never from a file a user could have
written), or from this process with one worker. :func:`run_batch` checks every line before
using it (:func:`check_batch_line`): the fields of :func:`batch_line`, the index of the game
it was asked for (so each game is counted exactly once), that game's seed
(:func:`~engine.play.game_seed`), the matchup's agents, VP that are the sum of the VP per op,
and a winner that agrees with the VP. A record read back from elsewhere is verified with
:func:`engine.verify.verify_record`.
"""

from __future__ import annotations

import math
import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import attrs

from engine.errors import KillTeamError
from engine.play import DEFAULT_SEED, MISSION_OPS, game_seed
from engine.play.battle import play_battle
from engine.play.matchup import Matchup, MatchupChoice, make_matchup
from engine.play.summary import BattleSummary

__all__ = [
    "Z95",
    "BatchError",
    "BatchStats",
    "Rate",
    "batch_line",
    "batch_stats",
    "check_batch_line",
    "default_workers",
    "run_batch",
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
            not agree with the VP (naming the game and the field).
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
    winner = None
    if line["finished"] is True and vp[0] != vp[1]:
        winner = "A" if vp[0] > vp[1] else "B"
    if line["winner"] != winner:
        raise bad(f"has winner {line['winner']!r} with VP {vp[0]}-{vp[1]}")
    return line


_WORKER_MATCHUP: Matchup | None = None


def _worker_init(choice: MatchupChoice) -> None:
    global _WORKER_MATCHUP
    if _WORKER_MATCHUP is None:  # a spawned process; a forked one inherits the parent's
        _WORKER_MATCHUP = make_matchup(choice)  # once per process: its caches stay warm


def _worker_game(base: int, index: int) -> dict[str, Any]:
    assert _WORKER_MATCHUP is not None
    _, summary = play_battle(_WORKER_MATCHUP, game_seed(base, index))
    return batch_line(index, summary)


def run_batch(
    choice: MatchupChoice,
    games: int,
    *,
    base_seed: int = DEFAULT_SEED,
    workers: int = 1,
    on_game: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Play ``games`` battles of one matchup, game ``i`` with :func:`game_seed` ``(base_seed,
    i)``.

    With ``workers > 1`` the games run in that many processes: forked where the platform
    allows, after the movement graphs are built (:meth:`Matchup.warm`), so every worker
    starts warm; otherwise each builds the matchup once. The results are the same for any
    number of workers. Each game's line is checked as it is read back
    (:func:`check_batch_line`).

    Args:
        on_game: called with each game's line as it finishes (in completion order).

    Returns:
        One :func:`batch_line` per game, sorted by index.

    Raises:
        BattleError: the matchup cannot be built.
        BatchError: a game's line read back is not the game asked for.
        ValueError: ``games`` or ``workers`` below 1, or a negative base seed.
    """
    if games < 1 or workers < 1:
        raise ValueError(f"games and workers must be at least 1 (games {games}, workers {workers})")
    if base_seed < 0:
        raise ValueError(f"the base seed must be non-negative, not {base_seed}")
    matchup = make_matchup(choice)  # fail here, once, before any process starts
    results: list[dict[str, Any]] = []
    if workers == 1:
        for i in range(games):
            _, summary = play_battle(matchup, game_seed(base_seed, i))
            line = check_batch_line(batch_line(i, summary), i, base_seed, matchup.agents)
            results.append(line)
            if on_game is not None:
                on_game(line)
    else:
        global _WORKER_MATCHUP
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        if context.get_start_method() == "fork":
            matchup.warm()
            _WORKER_MATCHUP = matchup
        try:
            with ProcessPoolExecutor(
                max_workers=min(workers, games),
                mp_context=context,
                initializer=_worker_init,
                initargs=(choice,),
            ) as pool:
                futures = {pool.submit(_worker_game, base_seed, i): i for i in range(games)}
                for fut in as_completed(futures):
                    i = futures[fut]
                    line = check_batch_line(fut.result(), i, base_seed, matchup.agents)
                    results.append(line)
                    if on_game is not None:
                        on_game(line)
        finally:
            _WORKER_MATCHUP = None
    return sorted(results, key=lambda r: int(r["index"]))


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


def batch_stats(lines: Sequence[Mapping[str, Any]]) -> BatchStats:
    """Reduce :func:`batch_line` data to :class:`BatchStats` (win/draw/loss of player A with
    Wilson 95% intervals, means per player).

    Raises:
        ValueError: no games.
    """
    n = len(lines)
    if n == 0:
        raise ValueError("no games to summarise")
    winners = [line["winner"] for line in lines]
    ops: list[str] = list(MISSION_OPS)
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
