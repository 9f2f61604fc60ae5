"""Exact probability mass functions with integer weights.

The dice core computes every distribution as integer weights over a common integer total
(powers of 6 for dice), so results are exact; :class:`Pmf` turns them into
:class:`fractions.Fraction` or ``float`` on demand.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from fractions import Fraction
from typing import Any, Generic, TypeVar, cast

import attrs

K = TypeVar("K", bound=Hashable)

__all__ = ["Pmf"]


def _sort_key(item: tuple[K, int]) -> Any:
    return item[0]


@attrs.frozen(slots=True)
class Pmf(Generic[K]):
    """A finite distribution: ``weights`` maps outcomes to positive integer weights that sum
    to ``total``. P(outcome) = weight / total exactly.

    Attributes:
        weights: tuple of ``(outcome, weight)`` pairs sorted by outcome, weights > 0.
        total: the sum of the weights (> 0).
    """

    weights: tuple[tuple[K, int], ...]
    total: int

    @classmethod
    def from_weights(cls, weights: Mapping[K, int], total: int | None = None) -> Pmf[K]:
        """Build from a mapping outcome -> integer weight (zero weights are dropped).

        Args:
            weights: outcome -> weight; outcomes must be mutually comparable (sortable).
            total: the common total; defaults to the sum of the weights.

        Raises:
            ValueError: if the total is not positive or does not equal the sum of weights.
        """
        items = tuple(sorted(((k, w) for k, w in weights.items() if w), key=_sort_key))
        s = sum(w for _, w in items)
        if total is None:
            total = s
        if total <= 0 or s != total:
            raise ValueError(f"weights sum to {s}, expected total {total}")
        return cls(items, total)

    def __iter__(self) -> Iterator[tuple[K, Fraction]]:
        for k, w in self.weights:
            yield k, Fraction(w, self.total)

    def __len__(self) -> int:
        return len(self.weights)

    def outcomes(self) -> tuple[K, ...]:
        """The outcomes with non-zero probability, sorted."""
        return tuple(k for k, _ in self.weights)

    def probability(self, outcome: K) -> Fraction:
        """Exact P(X = outcome) (0 when absent)."""
        for k, w in self.weights:
            if k == outcome:
                return Fraction(w, self.total)
        return Fraction(0)

    def to_fractions(self) -> dict[K, Fraction]:
        """outcome -> exact probability."""
        return {k: Fraction(w, self.total) for k, w in self.weights}

    def to_floats(self) -> dict[K, float]:
        """outcome -> probability as float."""
        t = self.total
        return {k: w / t for k, w in self.weights}

    def mean(self) -> Fraction:
        """Exact expected value (outcomes must be numbers)."""
        return Fraction(sum(cast(int, k) * w for k, w in self.weights), self.total)

    def at_least(self, threshold: int) -> Fraction:
        """Exact P(X >= threshold) (outcomes must be numbers)."""
        return Fraction(sum(w for k, w in self.weights if cast(int, k) >= threshold), self.total)

    def tail_floats(self) -> dict[K, float]:
        """outcome -> P(X >= outcome) as float, for tables."""
        t = self.total
        out: dict[K, float] = {}
        remaining = t
        for k, w in self.weights:
            out[k] = remaining / t
            remaining -= w
        return out
