"""A seat-balanced round robin of agents and/or teams, and their ratings (``killteam
tournament``).

**Entrants** (:func:`make_entrants`): an entrant is an agent spec (any name
:func:`engine.agents.make_agent` takes: ``random``, ``heuristic``...), a team (with one agent
for every team), or a (team, agent) pair:

- agents only (no team, or one team): each entrant is an agent; the battles are played
  between the default teams of the ruleset (:func:`engine.play.default_teams`, KT24's
  unless ``ruleset`` names another: the entrant in seat A plays the first, the one in seat B
  the second), or, with one team, that team in a mirror
  match;
- two teams or more and one agent: each entrant is a team, played by that agent;
- two teams or more and two agents or more: each entrant is a (team, agent) pair, named
  ``team/agent``.

**Schedule** (:func:`schedule`): every pair of entrants plays ``games`` battles in each seat
(A and B). Battle ``k`` (0-based) of every ordered pair uses the battle seed
:func:`~engine.play.game_seed` ``(base_seed, k)``: each pair meets the same dice in both
seats (fewer differences of luck between seats), and any battle replays alone with ``killteam
play --teams A B --agents a,b --seed <its seed>``. The battles are run round by round (all
battles ``k = 0`` first), so a tournament stopped early is still about balanced.

**Results** (:func:`tournament_result`): per pair W/D/L, per entrant games, W/D/L and score
(wins plus half the draws, over games), and Bradley-Terry ratings on the Elo scale with 95%
bootstrap intervals (:mod:`engine.play.ratings`: draws as half wins, a weak prior of one
virtual game, mean 1500 or an anchor entrant at 0). Also as JSON
(:meth:`TournamentResult.to_json`), CSV (:func:`write_csv`) and a picture
(:func:`plot_ratings`).

Each battle's line (``killteam tournament --out``, :func:`tournament_line`) is its
:func:`engine.batch.batch_line` (checked as a batch checks it; ``index`` is ``k``) with the
game's number in the schedule and the entrants and teams of both seats.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from engine.batch import BatchInterrupted, BattleJob, run_battles
from engine.play import DEFAULT_RULESET, DEFAULT_SEED, BattleError, default_teams
from engine.play.matchup import MatchupChoice
from engine.play.ratings import (
    BOOTSTRAP_REPLICATES,
    BOOTSTRAP_SEED,
    DEFAULT_PRIOR,
    MEAN_RATING,
    Game,
    bootstrap_intervals,
    elo_ratings,
    fit_bradley_terry,
)

__all__ = [
    "Entrant",
    "PairRecord",
    "Pairing",
    "Standing",
    "TournamentResult",
    "make_entrants",
    "pairs_csv_path",
    "plot_ratings",
    "run_tournament",
    "schedule",
    "tournament_line",
    "tournament_result",
    "write_csv",
]


@attrs.frozen(slots=True)
class Entrant:
    """One entrant of a tournament.

    Attributes:
        name: its name in the results (``heuristic``, ``kasrkin``, ``kasrkin/heuristic``).
        agent: its agent spec (:func:`engine.agents.make_agent`).
        team: its team (a built-in id or a team file), or ``None``: the default team of
            the seat it plays in (module docstring).
    """

    name: str
    agent: str
    team: str | None = None


def _split(items: str | Sequence[str]) -> list[str]:
    parts = items.split(",") if isinstance(items, str) else list(items)
    return [p.strip() for p in parts if p.strip()]


def make_entrants(agents: str | Sequence[str], teams: str | Sequence[str] = ()) -> list[Entrant]:
    """The entrants from agent specs and teams (module docstring), each list given as a
    sequence or as one string separated by commas (``"random,heuristic"``).

    Raises:
        BattleError: no agent, fewer than two entrants, or an entrant given twice (the message
            names it). Agent and team names are checked when the battles are set up
            (:func:`run_tournament`).
    """
    agent_list = [a.lower() for a in _split(agents)]
    team_list = _split(teams)
    if not agent_list:
        raise BattleError("a tournament needs at least one agent")
    if len(team_list) <= 1:
        team = team_list[0] if team_list else None
        entrants = [Entrant(a, a, team) for a in agent_list]
    elif len(agent_list) == 1:
        entrants = [Entrant(t, agent_list[0], t) for t in team_list]
    else:
        entrants = [Entrant(f"{t}/{a}", a, t) for t in team_list for a in agent_list]
    names = [e.name for e in entrants]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        raise BattleError(f"entrant {twice!r} is given twice")
    if len(entrants) < 2:
        raise BattleError(
            f"a tournament needs at least two entrants, not {len(entrants)} ({', '.join(names)}): "
            "give two agents or more, or two teams or more"
        )
    return entrants


@attrs.frozen(slots=True)
class Pairing:
    """One battle of the schedule: entrant ``a`` (an index) in seat A against ``b`` in seat
    B, and its :class:`~engine.batch.BattleJob`."""

    a: int
    b: int
    job: BattleJob


def schedule(
    entrants: Sequence[Entrant],
    games: int,
    *,
    base_seed: int = DEFAULT_SEED,
    killzone: str | None = None,
    crit_op: str | None = None,
    ruleset: str | None = None,
) -> list[Pairing]:
    """The battles of the round robin (module docstring): for ``k`` in ``0..games-1``, for
    every pair ``i < j`` of entrants, ``i`` in seat A against ``j``, then ``j`` in seat A
    against ``i``, battle ``k`` with seed :func:`~engine.play.game_seed` ``(base_seed, k)``.

    Args:
        killzone, crit_op, ruleset: as :class:`~engine.play.matchup.MatchupChoice`
            (``None``: the default killzone, a crit op rolled each battle, the default
            ruleset, whose default teams a seat without a team plays).

    Raises:
        ValueError: ``games`` below 1 or a negative base seed.
        BattleError: a ruleset the engine does not play.
    """
    if games < 1:
        raise ValueError(f"games per seat must be at least 1, not {games}")
    if base_seed < 0:
        raise ValueError(f"the base seed must be non-negative, not {base_seed}")
    ordered = [
        (x, y)
        for i in range(len(entrants))
        for j in range(i + 1, len(entrants))
        for x, y in ((i, j), (j, i))
    ]
    defaults = default_teams(DEFAULT_RULESET if ruleset is None else ruleset)
    choices = {}
    for x, y in ordered:
        ea, eb = entrants[x], entrants[y]
        teams = None
        if ea.team is not None or eb.team is not None:
            teams = (ea.team or defaults[0], eb.team or defaults[1])
        choices[x, y] = MatchupChoice(
            teams=teams,
            killzone=killzone,
            agents=f"{ea.agent},{eb.agent}",
            crit_op=crit_op,
            ruleset=ruleset,
        )
    return [
        Pairing(x, y, BattleJob(choices[x, y], k, base_seed))
        for k in range(games)
        for x, y in ordered
    ]


def tournament_line(
    game: int, pairing: Pairing, entrants: Sequence[Entrant], line: dict[str, Any]
) -> dict[str, Any]:
    """One battle of a tournament as JSON data (a line of ``killteam tournament --out``):
    the battle's :func:`~engine.batch.batch_line` with ``game`` (its number in the
    schedule), ``entrants`` (``{"A": name, "B": name}``) and ``teams`` (``{"A": team, "B":
    team}``: the team references played)."""
    ea, eb = entrants[pairing.a], entrants[pairing.b]
    choice = pairing.job.choice
    teams = choice.teams or default_teams(choice.ruleset or DEFAULT_RULESET)
    return {
        **line,
        "game": game,
        "entrants": {"A": ea.name, "B": eb.name},
        "teams": {"A": teams[0], "B": teams[1]},
    }


def run_tournament(
    entrants: Sequence[Entrant],
    pairings: Sequence[Pairing],
    *,
    backend: str = "process",
    workers: int = 1,
    on_line: Callable[[int, dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Play the ``pairings`` (:func:`schedule`) with :func:`engine.batch.run_battles` and
    return their :func:`tournament_line`, in schedule order.

    Args:
        on_line: called with ``(game, line)`` as each battle finishes (completion order); it
            may raise :class:`KeyboardInterrupt` to stop the tournament.

    Raises:
        BatchInterrupted: Ctrl-C: it holds the :func:`tournament_line` of the battles finished
            before it.
        BattleError: an entrant's agent or team cannot be used.
        BatchError, BackendError, ValueError: as :func:`~engine.batch.run_battles`.
    """

    def wrap(k: int, line: dict[str, Any]) -> dict[str, Any]:
        return tournament_line(k, pairings[k], entrants, line)

    def got(k: int, line: dict[str, Any]) -> None:
        if on_line is not None:
            on_line(k, wrap(k, line))

    try:
        lines = run_battles(
            [p.job for p in pairings], backend=backend, workers=workers, on_line=got
        )
    except BatchInterrupted as stop:
        raise BatchInterrupted(
            [(k, wrap(k, line)) for k, line in stop.results], stop.total
        ) from None
    return [wrap(k, line) for k, line in enumerate(lines)]


@attrs.frozen(slots=True)
class Standing:
    """An entrant's results: ``rating`` (Elo scale) with its 95% interval ``low``-``high``,
    ``games``, ``wins``, ``draws``, ``losses`` and ``score`` (wins plus half the draws, over
    games; 0 without games)."""

    entrant: Entrant
    rating: float
    low: float
    high: float
    games: int
    wins: int
    draws: int
    losses: int
    score: float


@attrs.frozen(slots=True)
class PairRecord:
    """The games between two entrants ``a`` and ``b`` (names; ``a`` listed first among the
    entrants), both seats: ``wins`` of ``a``, ``draws``, ``losses`` of ``a``."""

    a: str
    b: str
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        """``a``'s score against ``b``: wins plus half the draws, over games (0 without
        games)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


@attrs.frozen(slots=True)
class TournamentResult:
    """A tournament's results (:func:`tournament_result`).

    Attributes:
        standings: by rating, best first; pairs: every pair of entrants, in entrant order.
        battles: battles played; planned: battles scheduled (more when interrupted).
        prior, anchor, replicates: as :mod:`engine.play.ratings` (``anchor`` an entrant's
            name, or ``None``: mean :data:`~engine.play.ratings.MEAN_RATING`).
    """

    standings: tuple[Standing, ...]
    pairs: tuple[PairRecord, ...]
    battles: int
    planned: int
    prior: float
    anchor: str | None
    replicates: int

    @property
    def interrupted(self) -> bool:
        """Whether fewer battles were played than scheduled."""
        return self.battles < self.planned

    @property
    def method(self) -> str:
        """Two lines saying how the ratings and their intervals were computed."""
        where = f"{self.anchor} = 0" if self.anchor else f"mean {MEAN_RATING:g}"
        return (
            f"Bradley-Terry, draws as half wins, prior of {self.prior:g} virtual game; "
            f"Elo scale (400 log10), {where}\n"
            f"95% intervals: parametric bootstrap of every battle (pair, seat, draw rate kept), "
            f"{self.replicates} replicates, seed {BOOTSTRAP_SEED}"
        )

    def to_json(self) -> dict[str, Any]:
        """The results as JSON data; ratings to 2 decimals, scores to 4."""
        return {
            "battles": self.battles,
            "planned": self.planned,
            "interrupted": self.interrupted,
            "rating": {
                "model": "bradley-terry",
                "fit": "newton",
                "draws": "half win",
                "prior_games": self.prior,
                "scale": "elo 400 log10",
                "anchor": self.anchor,
                "mean": None if self.anchor else MEAN_RATING,
                "interval": "95% parametric bootstrap, battles redrawn per pair and seat",
                "replicates": self.replicates,
                "seed": BOOTSTRAP_SEED,
            },
            "entrants": [
                {
                    "entrant": s.entrant.name,
                    "agent": s.entrant.agent,
                    "team": s.entrant.team,
                    "rating": round(s.rating, 2),
                    "low": round(s.low, 2),
                    "high": round(s.high, 2),
                    "games": s.games,
                    "wins": s.wins,
                    "draws": s.draws,
                    "losses": s.losses,
                    "score": round(s.score, 4),
                }
                for s in self.standings
            ],
            "pairs": [
                {
                    "a": p.a,
                    "b": p.b,
                    "games": p.games,
                    "a_wins": p.wins,
                    "draws": p.draws,
                    "b_wins": p.losses,
                    "a_score": round(p.score, 4),
                }
                for p in self.pairs
            ],
        }


def tournament_result(
    entrants: Sequence[Entrant],
    lines: Sequence[dict[str, Any]],
    *,
    planned: int | None = None,
    prior: float = DEFAULT_PRIOR,
    anchor: str | None = None,
    replicates: int = BOOTSTRAP_REPLICATES,
) -> TournamentResult:
    """Reduce the battles' :func:`tournament_line` to standings and pair records (module
    docstring).

    Args:
        planned: battles scheduled (default: ``len(lines)``).
        prior: virtual games of the rating prior (> 0: the intervals need it).
        anchor: an entrant's name to rate 0 (default: mean 1500).
        replicates: bootstrap replicates.

    Raises:
        ValueError: an unknown anchor, a line naming an unknown entrant, or a prior not above
            0.
    """
    index = {e.name: k for k, e in enumerate(entrants)}
    if anchor is not None and anchor not in index:
        raise ValueError(f"anchor {anchor!r} is not an entrant ({', '.join(index)})")
    n = len(entrants)
    games: list[Game] = []
    for line in lines:
        names = line["entrants"]
        if names["A"] not in index or names["B"] not in index:
            raise ValueError(f"game {line.get('game')}: entrants {names!r} are not in the list")
        winner = line["winner"]
        score = 1.0 if winner == "A" else 0.0 if winner == "B" else 0.5
        games.append((index[names["A"]], index[names["B"]], score))
    anchor_k = None if anchor is None else index[anchor]
    theta = fit_bradley_terry(n, games, prior=prior)
    ratings = elo_ratings(theta, anchor_k)
    low, high = bootstrap_intervals(n, games, prior=prior, anchor=anchor_k, replicates=replicates)
    tally = [[0, 0, 0] for _ in range(n)]
    pair = {(i, j): [0, 0, 0] for i in range(n) for j in range(i + 1, n)}
    for i, j, s in games:
        out = 0 if s == 1.0 else 1 if s == 0.5 else 2
        tally[i][out] += 1
        tally[j][2 - out] += 1
        if i < j:
            pair[i, j][out] += 1
        else:
            pair[j, i][2 - out] += 1
    standings = []
    for k, e in enumerate(entrants):
        w, d, lo = tally[k]
        total = w + d + lo
        standings.append(
            Standing(
                e,
                float(ratings[k]),
                float(low[k]),
                float(high[k]),
                total,
                w,
                d,
                lo,
                (w + 0.5 * d) / total if total else 0.0,
            )
        )
    standings.sort(key=lambda s: (-s.rating, s.entrant.name))
    return TournamentResult(
        standings=tuple(standings),
        pairs=tuple(
            PairRecord(entrants[i].name, entrants[j].name, sum(c), c[0], c[1], c[2])
            for (i, j), c in pair.items()
        ),
        battles=len(lines),
        planned=len(lines) if planned is None else planned,
        prior=prior,
        anchor=anchor,
        replicates=replicates,
    )


def pairs_csv_path(path: str | Path) -> Path:
    """The pair records' CSV next to the ratings' CSV ``path``: ``ratings.csv`` ->
    ``ratings.pairs.csv``."""
    p = Path(path)
    return p.with_name(f"{p.stem}.pairs{p.suffix or '.csv'}")


def write_csv(result: TournamentResult, path: str | Path) -> tuple[Path, Path]:
    """Write the standings to ``path`` (one row per entrant, best first: ``entrant, agent,
    team, rating, low, high, games, wins, draws, losses, score``) and the pair records to
    :func:`pairs_csv_path` (``a, b, games, a_wins, draws, b_wins, a_score``), UTF-8 with a
    header row.

    Returns:
        The two paths.

    Raises:
        OSError: a file cannot be written.
    """
    data = result.to_json()
    out = Path(path)
    pairs = pairs_csv_path(out)
    cols = ["entrant", "agent", "team", "rating", "low", "high", "games", "wins", "draws"]
    cols += ["losses", "score"]
    with out.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=cols)
        writer.writeheader()
        for row in data["entrants"]:
            writer.writerow({**row, "team": row["team"] or ""})
    with pairs.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(
            f, fieldnames=["a", "b", "games", "a_wins", "draws", "b_wins", "a_score"]
        )
        writer.writeheader()
        writer.writerows(data["pairs"])
    return out, pairs


def plot_ratings(result: TournamentResult, path: str | Path) -> None:
    """Draw the ratings with their 95% intervals as horizontal bars, best at the top, to a
    PNG (or SVG) picture at ``path`` (matplotlib's non-interactive Agg backend: no display).

    Raises:
        OSError: the file cannot be written.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rows = list(reversed(result.standings))  # matplotlib's y grows upwards
    fig = Figure(figsize=(7.0, 1.2 + 0.45 * len(rows)))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    ys = list(range(len(rows)))
    xs = [s.rating for s in rows]
    err = [[s.rating - s.low for s in rows], [s.high - s.rating for s in rows]]
    ax.errorbar(xs, ys, xerr=err, fmt="o", capsize=4, color="tab:blue")
    ax.set_yticks(ys, [s.entrant.name for s in rows])
    where = f"{result.anchor} = 0" if result.anchor else f"mean {MEAN_RATING:g}"
    ax.set_xlabel(f"rating (Bradley-Terry, Elo scale, {where}; 95% bootstrap interval)")
    title = f"Ratings after {result.battles} battles"
    if result.interrupted:
        title += f" (stopped after {result.battles} of {result.planned})"
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(str(path))
