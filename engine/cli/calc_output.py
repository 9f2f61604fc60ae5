"""The distributions ``killteam calc`` prints, as JSON values and tables, for both rulesets
(:mod:`engine.cli.calc`, :mod:`engine.cli.calc_kt21`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.cli.common import table as new_table
from engine.dice.pmf import Pmf

if TYPE_CHECKING:  # (rich is loaded only to print: --json never loads it)
    from rich.table import Table

__all__ = ["pairs_json", "pmf_json", "pmf_table"]


def pmf_json(pmf: Pmf[int]) -> dict[str, float]:
    """``{"<value>": probability}`` of a distribution of whole numbers (damage, wounds)."""
    return {str(k): p for k, p in pmf.to_floats().items()}


def pairs_json(pmf: Pmf[tuple[int, int]]) -> list[dict[str, float | int]]:
    """``[{"normals", "crits", "probability"}]`` of a distribution of (normal, critical)
    dice counts."""
    return [{"normals": n, "crits": c, "probability": p} for (n, c), p in pmf.to_floats().items()]


def pmf_table(title: str, pmf: Pmf[int]) -> Table:
    """A table of a damage distribution: each value, P(=) and P(>=), to four places."""
    table = new_table(title)
    table.add_column("damage", justify="right")
    table.add_column("P(=)", justify="right")
    table.add_column("P(>=)", justify="right")
    tails = pmf.tail_floats()
    for k, p in pmf.to_floats().items():
        table.add_row(str(k), f"{p:.4f}", f"{tails[k]:.4f}")
    return table
