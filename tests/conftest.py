"""Test configuration.

Under CI (``CI`` set, as ``.ci/run`` runs) hypothesis draws the same examples every run
(``derandomize``), so a landing never depends on luck and any failure reproduces; locally it
keeps exploring new examples.

Movement graphs are cached on disk (engine.geometry.graph_cache) in ``.pytest_cache/graphs``
of the checkout rather than the user's cache folder, shared by the parallel workers and kept
between runs (keys include the layout and the code, so a cached graph is never stale).
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import settings

from engine.geometry.graph_cache import CACHE_ENV

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

os.environ.setdefault(
    CACHE_ENV, str(Path(__file__).resolve().parent.parent / ".pytest_cache" / "graphs")
)
