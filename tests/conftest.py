"""Test configuration.

Under CI (``CI`` set, as ``.ci/run`` runs) hypothesis draws the same examples every run
(``derandomize``), so a landing never depends on luck and any failure reproduces; locally it
keeps exploring new examples.

Movement graphs are cached on disk (engine.geometry.graph_cache) in ``.pytest_cache/graphs``
of the checkout rather than the user's cache folder, shared by the parallel workers and kept
between runs (keys include the layout and the code, so a cached graph is never stale).

The ``soak`` marker (``tests/test_soak.py``: thousands more random playouts) is registered
here, and its tests are left out unless the ``-m`` expression names it (``pytest -m soak``),
so that the ordinary run never plays them, whatever the ``addopts``.

The ``extras`` marker names the tests of the optional extras (``[rl]``: PettingZoo,
Gymnasium, OpenSpiel; ``[ray]``): they skip when their library is missing
(:func:`tests.extras_support.need`), and ``.ci/run`` installs the extras and runs
``pytest -m extras`` with ``KILLTEAM_REQUIRE_EXTRAS=1``, where a missing library fails.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from engine.geometry.graph_cache import CACHE_ENV

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

os.environ.setdefault(
    CACHE_ENV, str(Path(__file__).resolve().parent.parent / ".pytest_cache" / "graphs")
)


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``soak`` marker (module docstring)."""
    config.addinivalue_line(
        "markers", "soak: thousands more random playouts (tests/test_soak.py); run with -m soak"
    )
    config.addinivalue_line(
        "markers", "extras: tests of the optional extras [rl] and [ray] (pytest -m extras)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the soak tests unless the ``-m`` expression names ``soak``."""
    if "soak" in (config.getoption("markexpr", "") or ""):
        return
    soak = [item for item in items if item.get_closest_marker("soak") is not None]
    if soak:
        config.hook.pytest_deselected(items=soak)
        items[:] = [item for item in items if item.get_closest_marker("soak") is None]
