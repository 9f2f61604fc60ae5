"""Bradley-Terry ratings, their Elo scale and bootstrap intervals (:mod:`engine.play.ratings`),
checked against results whose ratings follow by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.play.ratings import (
    ELO_PER_THETA,
    MEAN_RATING,
    bootstrap_intervals,
    elo_ratings,
    expected_score,
    fit_bradley_terry,
    score_matrix,
)

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


def test_three_wins_of_four_is_a_strength_ratio_of_three() -> None:
    """Two entrants, the first wins 3 of 4: without a prior the maximum likelihood sets
    p0 / (p0 + p1) to the observed 3/4, so p0 / p1 = 3 and the Elo difference is
    400 log10 3 = 190.85 points, around a mean of 1500."""
    games = [(0, 1, WIN), (1, 0, LOSS), (0, 1, WIN), (1, 0, WIN)]
    theta = fit_bradley_terry(2, games, prior=0)
    assert math.exp(theta[0] - theta[1]) == pytest.approx(3.0, rel=1e-9)
    elo = elo_ratings(theta)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert elo[0] - elo[1] == pytest.approx(190.85, abs=0.005)
    assert elo.mean() == pytest.approx(MEAN_RATING)


def test_draws_count_as_half_a_win() -> None:
    """Two wins and two draws of four score 3 of 4, exactly as three wins and a loss: the
    same strength ratio of 3."""
    games = [(0, 1, WIN), (0, 1, WIN), (1, 0, DRAW), (0, 1, DRAW)]
    theta = fit_bradley_terry(2, games, prior=0)
    assert math.exp(theta[0] - theta[1]) == pytest.approx(3.0, rel=1e-9)


def test_a_cycle_of_equal_records_rates_everyone_equal() -> None:
    """0 beats 1, 1 beats 2, 2 beats 0, each 2 games of 3: the results are the same seen
    from every entrant (a rotation maps them onto themselves), so the ratings are equal: all
    at the mean, 1500."""
    games = []
    for i, j in ((0, 1), (1, 2), (2, 0)):
        games += [(i, j, WIN), (j, i, LOSS), (i, j, LOSS)]
    for prior in (0.0, 1.0):
        elo = elo_ratings(fit_bradley_terry(3, games, prior=prior))
        assert elo == pytest.approx([MEAN_RATING] * 3, abs=1e-6)


def test_the_prior_keeps_a_clean_sweep_finite_and_solves_the_score_equations() -> None:
    """4 wins of 4 have no finite maximum likelihood; with a prior of 1 virtual game (half won
    against strength 0) the two entrants are mirror images, theta = (x, -x), and the optimum
    makes entrant 0's observed score plus its virtual half win equal its expected score:
    4 + 0.5 = 4 sigmoid(2x) + sigmoid(x). That equation is solved here by bisection, apart
    from the fit."""
    games = [(0, 1, WIN)] * 2 + [(1, 0, LOSS)] * 2

    def excess(x: float) -> float:
        return 4 / (1 + math.exp(-2 * x)) + 1 / (1 + math.exp(-x)) - 4.5

    lo, hi = 0.0, 20.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if excess(mid) < 0 else (lo, mid)
    theta = fit_bradley_terry(2, games, prior=1.0)
    assert theta == pytest.approx([lo, -lo], abs=1e-9)
    with pytest.raises(ValueError, match="no finite ratings without a prior"):
        fit_bradley_terry(2, games, prior=0)


def test_relabelling_the_entrants_permutes_their_ratings() -> None:
    """Ratings belong to entrants, not to their positions: renaming 0, 1, 2 as 2, 0, 1 moves
    each rating with its entrant."""
    games = [(0, 1, WIN), (1, 0, DRAW), (1, 2, WIN), (2, 0, LOSS), (0, 2, WIN), (2, 1, WIN)]
    perm = [2, 0, 1]
    moved = [(perm[i], perm[j], s) for i, j, s in games]
    elo = elo_ratings(fit_bradley_terry(3, games))
    elo_moved = elo_ratings(fit_bradley_terry(3, moved))
    assert elo_moved[perm] == pytest.approx(elo, abs=1e-9)


def test_reversing_every_result_mirrors_the_ratings() -> None:
    """Turning every win into a loss (and keeping draws) turns each entrant's lead over the
    mean into the same deficit (the model and the prior are symmetric)."""
    games = [(0, 1, WIN), (1, 0, DRAW), (1, 2, WIN), (2, 0, LOSS), (0, 2, WIN), (2, 1, WIN)]
    reversed_ = [(i, j, 1.0 - s) for i, j, s in games]
    elo = elo_ratings(fit_bradley_terry(3, games))
    mirrored = elo_ratings(fit_bradley_terry(3, reversed_))
    assert mirrored - MEAN_RATING == pytest.approx(-(elo - MEAN_RATING), abs=1e-9)


def test_an_anchor_is_rated_zero_and_keeps_the_differences() -> None:
    """Anchoring only shifts the scale: the anchor is at 0, every difference is unchanged."""
    theta = np.array([0.3, -0.1, 0.5])
    free = elo_ratings(theta)
    anchored = elo_ratings(theta, anchor=1)
    assert anchored[1] == 0
    assert anchored - anchored[0] == pytest.approx(free - free[0])
    assert anchored[2] - anchored[1] == pytest.approx(ELO_PER_THETA * 0.6)
    with pytest.raises(ValueError, match="anchor 3"):
        elo_ratings(theta, anchor=3)


def test_200_points_is_an_expected_score_of_076() -> None:
    """The Elo convention: a lead of 200 points expects 1 / (1 + 10^(-1/2)) = 0.7597 of the
    score, and a lead of 400 log10 3 expects 3/4 (strength ratio 3)."""
    assert expected_score(200) == pytest.approx(0.7597, abs=1e-4)
    assert expected_score(400 * math.log10(3)) == pytest.approx(0.75)


def test_bootstrap_intervals_are_reproducible_and_hold_the_estimate() -> None:
    """The intervals come from a fixed seed (the same results always give the same
    intervals), contain the fitted rating, and an anchored entrant's interval is [0, 0]
    (every replicate rates it 0)."""
    games = [(0, 1, WIN), (1, 0, LOSS), (0, 1, LOSS), (1, 0, DRAW)] * 3
    games += [(1, 2, WIN), (2, 1, LOSS), (0, 2, WIN), (2, 0, DRAW)] * 3
    low, high = bootstrap_intervals(3, games, replicates=200)
    again = bootstrap_intervals(3, games, replicates=200)
    assert (low == again[0]).all() and (high == again[1]).all()
    elo = elo_ratings(fit_bradley_terry(3, games))
    assert (low <= elo + 1e-9).all() and (elo <= high + 1e-9).all()
    assert (low < high).all()
    low_a, high_a = bootstrap_intervals(3, games, anchor=2, replicates=50)
    assert low_a[2] == high_a[2] == 0


def test_bad_games_and_priors_are_refused() -> None:
    """A game of an entrant against itself or outside the list, a score that is not 0, 0.5 or
    1, fewer than two entrants, a negative prior and a bootstrap without a prior are errors
    naming what is wrong."""
    with pytest.raises(ValueError, match="between entrants 1 and 1"):
        score_matrix(2, [(1, 1, WIN)])
    with pytest.raises(ValueError, match="between entrants 0 and 2"):
        score_matrix(2, [(0, 2, WIN)])
    with pytest.raises(ValueError, match=r"0, 0\.5 or 1"):
        score_matrix(2, [(0, 1, 0.7)])
    with pytest.raises(ValueError, match="at least two entrants"):
        fit_bradley_terry(1, [])
    with pytest.raises(ValueError, match="non-negative"):
        fit_bradley_terry(2, [(0, 1, WIN)], prior=-1)
    with pytest.raises(ValueError, match="prior above 0"):
        bootstrap_intervals(2, [(0, 1, WIN)], prior=0)


def test_a_clean_sweep_still_has_an_interval_of_some_width() -> None:
    """4 wins of 4 do not prove the winner infinitely stronger: the fitted win probability is
    below 1 (the prior), so replicates redrawn from it include some losses and the interval
    has a width (resampling the four observed wins would always give 4 of 4, width 0)."""
    games = [(0, 1, WIN)] * 2 + [(1, 0, LOSS)] * 2
    low, high = bootstrap_intervals(2, games, replicates=200)
    assert (high - low > 10).all()
