"""Ratings from game results: Bradley-Terry strengths, bootstrap intervals, the Elo scale
(``killteam tournament``, :mod:`engine.play.tournament`).

**Model.** Bradley-Terry: entrant ``i`` of strength ``p_i = exp(theta_i)`` beats ``j`` with
probability ``p_i / (p_i + p_j) = sigmoid(theta_i - theta_j)``. A draw counts as half a win to
each side (the likelihood of a game of score ``s`` is ``P_ij^s P_ji^(1-s)``).

**Fit.** Maximum likelihood by Newton's method on the log-strengths ``theta`` (with step
halving, so the log-likelihood never decreases; it is concave). A weak prior keeps the fit
finite when an entrant wins (or loses) every game: each entrant plays ``prior`` virtual games
(default 1) against a virtual entrant of log-strength 0, half won, half lost. With ``prior =
0`` this is the plain maximum likelihood, which exists only when the entrants cannot be split
into two groups with one never scoring against the other (Ford 1957; :class:`ValueError`
otherwise); its ``theta`` is then centred on mean 0.

**Elo scale.** A rating is ``400 log10 p_i`` (:data:`ELO_PER_THETA` ``* theta_i``), shifted so
that the mean rating is :data:`MEAN_RATING` (1500), or so that one anchor entrant is at 0. A
difference of ``d`` points means an expected score of ``1 / (1 + 10^(-d / 400))`` (200
points: 0.76).

**Intervals.** 95% percentile parametric bootstrap over battles:
:data:`BOOTSTRAP_REPLICATES` (1000) replicates with a fixed seed (0), so the same results
always give the same intervals. Each replicate plays every battle of the schedule again on
paper: each ordered pair of entrants (seat A, seat B) keeps its number of battles, and each
battle is a draw with the pair's observed draw rate, else a win of seat A with the fitted
probability ``sigmoid(theta_A - theta_B)``; then it refits and shifts as above. (Resampling the
observed battles instead would give an entrant that won all its battles an interval of width
0; the fitted probabilities, kept off 0 and 1 by the prior, do not.) An anchored entrant's
interval is ``[0, 0]``: ratings are relative to it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "BOOTSTRAP_REPLICATES",
    "BOOTSTRAP_SEED",
    "DEFAULT_PRIOR",
    "ELO_PER_THETA",
    "MEAN_RATING",
    "Game",
    "bootstrap_intervals",
    "elo_ratings",
    "expected_score",
    "fit_bradley_terry",
    "score_matrix",
]

#: Elo points per unit of natural log-strength: ``400 log10 p = (400 / ln 10) ln p``.
ELO_PER_THETA = 400.0 / math.log(10.0)
#: The mean rating of the entrants when no entrant is the anchor.
MEAN_RATING = 1500.0
#: Virtual games of each entrant against a virtual entrant of log-strength 0, half won.
DEFAULT_PRIOR = 1.0
#: Bootstrap replicates of the 95% intervals, and their seed.
BOOTSTRAP_REPLICATES = 1000
BOOTSTRAP_SEED = 0

#: One game: ``(i, j, s)``, entrant ``i`` (seat A) against ``j`` (seat B), ``s`` the score of
#: ``i``: 1 a win, 0.5 a draw, 0 a loss.
Game = tuple[int, int, float]

FloatArray = NDArray[np.float64]


def score_matrix(n: int, games: Sequence[Game]) -> tuple[FloatArray, FloatArray]:
    """``(W, N)`` of ``games`` among ``n`` entrants: ``W[i, j]`` the score of ``i`` against
    ``j`` (wins plus half the draws, both seats), ``N[i, j] = N[j, i]`` the games between them.

    Raises:
        ValueError: an entrant outside ``0..n-1``, a game of an entrant against itself, or a
            score other than 0, 0.5 or 1.
    """
    w = np.zeros((n, n))
    g = np.zeros((n, n))
    for i, j, s in games:
        if not (0 <= i < n and 0 <= j < n) or i == j:
            raise ValueError(f"a game between entrants {i} and {j} of 0..{n - 1}")
        if s not in (0.0, 0.5, 1.0):
            raise ValueError(f"a game's score is 0, 0.5 or 1, not {s!r}")
        w[i, j] += s
        w[j, i] += 1.0 - s
        g[i, j] += 1.0
        g[j, i] += 1.0
    return w, g


def _sigmoid(x: FloatArray) -> FloatArray:
    out: FloatArray = 0.5 * (1.0 + np.tanh(0.5 * x))  # exact and stable for any x
    return out


def _log_likelihood(theta: FloatArray, w: FloatArray, prior: float) -> float:
    d = theta[:, None] - theta[None, :]
    # log sigmoid(d) = -log(1 + exp(-d)), stable for large |d|
    ll = float(np.sum(w * -np.logaddexp(0.0, -d)))
    if prior:
        ll += prior * float(
            np.sum(-0.5 * np.logaddexp(0.0, -theta) - 0.5 * np.logaddexp(0.0, theta))
        )
    return ll


def _finite_mle(w: FloatArray) -> bool:
    """Whether every entrant reaches every other one along "scored against" links (and back):
    the condition for a finite maximum likelihood without a prior (Ford 1957)."""
    n = len(w)
    scored = w > 0

    def reach(adj: NDArray[np.bool_]) -> bool:
        seen = {0}
        todo = [0]
        while todo:
            i = todo.pop()
            for j in np.flatnonzero(adj[i]):
                if int(j) not in seen:
                    seen.add(int(j))
                    todo.append(int(j))
        return len(seen) == n

    return reach(scored) and reach(scored.T)


def fit_bradley_terry(
    n: int,
    games: Sequence[Game] = (),
    *,
    prior: float = DEFAULT_PRIOR,
    matrices: tuple[FloatArray, FloatArray] | None = None,
) -> FloatArray:
    """The Bradley-Terry log-strengths ``theta`` (shape ``(n,)``, float64, natural log) of
    ``n`` entrants from their games (module docstring: draws as half wins, the prior).

    Args:
        games: the games (:data:`Game`), or ``matrices``: their :func:`score_matrix`.
        prior: virtual games of each entrant against log-strength 0, half won (>= 0).

    Returns:
        ``theta``; with ``prior = 0``, centred on mean 0 (only differences mean anything).

    Raises:
        ValueError: fewer than two entrants, a negative prior, or ``prior = 0`` and no finite
            maximum likelihood (an entrant, or a group, never scored against the others, or
            never lost to them; or an entrant without a game).
    """
    if n < 2:
        raise ValueError(f"ratings need at least two entrants, not {n}")
    if prior < 0 or not math.isfinite(prior):
        raise ValueError(f"the prior is a non-negative number of virtual games, not {prior}")
    w, g = matrices if matrices is not None else score_matrix(n, games)
    if prior == 0 and not _finite_mle(w):
        raise ValueError(
            "no finite ratings without a prior: some entrants never scored against the others "
            "(or never lost to them); use a prior > 0"
        )
    theta = np.zeros(n)
    ll = _log_likelihood(theta, w, prior)
    for _ in range(200):
        p = _sigmoid(theta[:, None] - theta[None, :])
        s0 = _sigmoid(theta)
        grad = w.sum(axis=1) - (g * p).sum(axis=1) + prior * (0.5 - s0)
        if float(np.max(np.abs(grad))) < 1e-11 * max(1.0, float(g.sum())):
            break
        curv = g * p * (1.0 - p)
        hess = curv.copy()
        np.fill_diagonal(hess, -curv.sum(axis=1) - prior * s0 * (1.0 - s0))
        if prior > 0:  # negative definite: a unique step
            step = np.linalg.solve(hess, -grad)
        else:  # singular along (1, ..., 1), which the gradient is orthogonal to
            step = np.linalg.lstsq(hess, -grad, rcond=None)[0]
        t = 1.0
        while True:
            trial = theta + t * step
            trial_ll = _log_likelihood(trial, w, prior)
            if trial_ll >= ll - 1e-12 or t < 1e-8:
                break
            t *= 0.5
        if float(np.max(np.abs(trial - theta))) < 1e-13:
            break
        theta, ll = trial, trial_ll
    if prior == 0:
        theta = theta - theta.mean()
    return theta


def elo_ratings(theta: FloatArray, anchor: int | None = None) -> FloatArray:
    """Ratings on the Elo scale (module docstring): ``ELO_PER_THETA * theta`` shifted so the
    mean is :data:`MEAN_RATING`, or so that entrant ``anchor`` is at 0.

    Raises:
        ValueError: ``anchor`` is not an entrant's index.
    """
    r = ELO_PER_THETA * np.asarray(theta, dtype=np.float64)
    if anchor is None:
        out: FloatArray = r - r.mean() + MEAN_RATING
        return out
    if not 0 <= anchor < len(r):
        raise ValueError(f"anchor {anchor} is not one of the {len(r)} entrants")
    anchored: FloatArray = r - r[anchor]
    return anchored


def expected_score(rating_difference: float) -> float:
    """The expected score of an entrant rated ``rating_difference`` points above its
    opponent: ``1 / (1 + 10^(-d / 400))``."""
    return float(1.0 / (1.0 + 10.0 ** (-rating_difference / 400.0)))


def bootstrap_intervals(
    n: int,
    games: Sequence[Game],
    *,
    prior: float = DEFAULT_PRIOR,
    anchor: int | None = None,
    replicates: int = BOOTSTRAP_REPLICATES,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[FloatArray, FloatArray]:
    """95% percentile bootstrap intervals of the :func:`elo_ratings` (module docstring: every
    battle drawn again from the fitted model within its ordered pair, fixed seed).

    Returns:
        ``(low, high)``, each of shape ``(n,)`` (float64, rating points).

    Raises:
        ValueError: ``prior`` not above 0 (a resample may have an entrant winning all its
            games), ``replicates`` below 1, or bad games (:func:`score_matrix`).
    """
    if not prior > 0:
        raise ValueError(f"bootstrap intervals need a prior above 0, not {prior}")
    if replicates < 1:
        raise ValueError(f"replicates must be at least 1, not {replicates}")
    score_matrix(n, games)  # checks the games
    strata: dict[tuple[int, int], list[int]] = {}
    for i, j, s in games:
        strata.setdefault((i, j), [0, 0, 0])[{1.0: 0, 0.5: 1, 0.0: 2}[s]] += 1
    if not strata:  # no game: every replicate is the prior alone
        flat = elo_ratings(np.zeros(n), anchor)
        return flat, flat.copy()
    rng = np.random.default_rng(seed)
    pairs = list(strata)
    counts = np.array([strata[p] for p in pairs], dtype=np.int64).reshape(len(pairs), 3)
    totals = counts.sum(axis=1)
    rows = np.array([i for i, _ in pairs])
    cols = np.array([j for _, j in pairs])
    theta = fit_bradley_terry(n, games, prior=prior)
    win = _sigmoid(theta[rows] - theta[cols])  # never 0 or 1: the prior keeps theta finite
    draw = counts[:, 1] / totals
    probs = np.stack([(1.0 - draw) * win, draw, (1.0 - draw) * (1.0 - win)], axis=1)
    drawn = rng.multinomial(totals, probs, size=(replicates, len(pairs)))
    samples = np.empty((replicates, n))
    for r in range(replicates):
        wins, draws, losses = drawn[r, :, 0], drawn[r, :, 1], drawn[r, :, 2]
        w = np.zeros((n, n))
        g = np.zeros((n, n))
        np.add.at(w, (rows, cols), wins + 0.5 * draws)
        np.add.at(w, (cols, rows), losses + 0.5 * draws)
        np.add.at(g, (rows, cols), totals)
        np.add.at(g, (cols, rows), totals)
        theta = fit_bradley_terry(n, prior=prior, matrices=(w, g))
        samples[r] = elo_ratings(theta, anchor)
    low: FloatArray = np.percentile(samples, 2.5, axis=0)
    high: FloatArray = np.percentile(samples, 97.5, axis=0)
    return low, high
