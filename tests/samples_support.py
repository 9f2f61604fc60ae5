"""Where the tests find ``shared/data_samples`` (real catalogues and datasets, next to the
repository and never part of it): beside the main checkout, or one level further up from a
worktree; tests on them are skipped when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

__all__ = ["data_samples", "needs"]

_ROOT = Path(__file__).resolve().parents[1]


def data_samples(name: str) -> Path:
    """The folder ``shared/data_samples/<name>`` (``"bsdata18"``) next to the checkout, or
    next to the folder of worktrees; the first of the two when neither exists."""
    near, far = (up / "shared" / "data_samples" / name for up in (_ROOT.parent, _ROOT.parents[1]))
    return far if not near.is_dir() and far.is_dir() else near


def needs(folder: Path) -> pytest.MarkDecorator:
    """Skip a test when ``folder`` (a :func:`data_samples` folder) is absent."""
    return pytest.mark.skipif(not folder.is_dir(), reason=f"no {folder.name} data samples")
