"""Pausing Python's cyclic garbage collector around geometry work that makes many small
objects at once (a movement graph's links, thousands of candidate footprints): none of them is
garbage, yet each collection they trigger walks every object the process holds (the cached
graphs and killzones too), which can cost more than the work itself."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["paused_gc"]


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector disabled for the ``with`` block (re-enabled after it if
    it was enabled before; nested use is fine). Reference counting still frees objects."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
