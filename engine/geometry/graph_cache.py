"""A cache of movement graphs on disk, keyed by value: a process that plays on a layout seen
before loads its graphs (tens of milliseconds) instead of building them (about a second per
base size on the open ruins).

The key of a graph is a SHA-256 of everything its build reads: the layout's content
(:func:`layout_digest`: board, features, every part's polygon, height and types, the
hatchway state, drop zones, territories, objectives), the base size, and the code that builds
and stores graphs (the source of :mod:`engine.geometry.move_graph`,
:mod:`engine.geometry.move_derive`, :mod:`engine.geometry.move_links`,
:mod:`engine.geometry.model` and this module, with the
versions of Python, shapely, numpy and networkx). A graph is therefore never stale: any change
to the layout or to that code gives another key. The killzone itself is not stored: a loaded
graph is bound to the killzone value that asked for it.

Where: ``$KILLTEAM_GRAPH_CACHE`` if set (``off`` disables the cache), else
``$XDG_CACHE_HOME/killteam-engine/graphs`` or ``~/.cache/killteam-engine/graphs``. At most
:data:`MAX_FILES` graphs are kept (the least recently written are removed). Files are
written atomically (a temporary file renamed), so parallel processes never read half a file;
an unreadable or foreign file is ignored and rebuilt. The files are Python pickles: like any
cache of this kind (pip's, for one), the folder must be writable only by its user.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import sys
import tempfile
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np
import shapely

from engine.geometry.model import Killzone

__all__ = ["CACHE_ENV", "MAX_FILES", "cache_dir", "layout_digest", "load", "store"]

CACHE_ENV = "KILLTEAM_GRAPH_CACHE"
"""The environment variable naming the cache folder (``off``, ``0`` or empty: no cache)."""

MAX_FILES = 64
"""The most graphs kept on disk."""

_KZ = "killzone"


def cache_dir() -> Path | None:
    """The cache folder (module docstring), or ``None`` when the cache is off."""
    env = os.environ.get(CACHE_ENV)
    if env is not None:
        if env.strip().lower() in ("", "0", "off", "no", "false"):
            return None
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except (RuntimeError, KeyError):  # no home folder to be found: no cache
            return None
    return Path(base) / "killteam-engine" / "graphs"


@lru_cache(maxsize=1)
def _code_digest() -> str:
    h = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for name in (
        "move_graph.py",
        "move_fill.py",
        "move_derive.py",
        "move_links.py",
        "model.py",
        "graph_cache.py",
    ):
        h.update((here / name).read_bytes())
    # networkx by its installed version, without importing it (it is only needed on demand).
    versions = (sys.version_info[:2], shapely.__version__, np.__version__, version("networkx"))
    h.update(repr(versions).encode())
    return h.hexdigest()


def layout_digest(kz: Killzone) -> str:
    """A SHA-256 (hex) of ``kz``'s content in its hatchway state: equal for equal layouts
    whatever their name, source or the process (polygons as WKB, exact)."""
    h = hashlib.sha256()

    def add(value: Any) -> None:
        h.update(repr(value).encode())
        h.update(b"\0")

    add((kz.width, kz.depth, kz.features, sorted(kz.hatchways), sorted(kz.open_hatchways)))
    for part in kz.parts:
        add((part.feature, part.height, sorted(part.types)))
        add(sorted(part.open_types) if part.open_types is not None else None)
        h.update(shapely.to_wkb(part.polygon))
    for areas in (kz.drop_zones, kz.territories):
        for key in sorted(areas):
            add(key)
            h.update(shapely.to_wkb(areas[key]))
    add([(o.name, o.position) for o in kz.objectives])
    return h.hexdigest()


def _path(kz: Killzone, base_mm: float) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    key = hashlib.sha256(f"{_code_digest()}|{layout_digest(kz)}|{base_mm!r}".encode())
    return folder / f"{key.hexdigest()[:40]}.graph"


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, kz: Killzone) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._kz = kz

    def persistent_id(self, obj: Any) -> str | None:
        return _KZ if obj is self._kz else None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, kz: Killzone) -> None:
        super().__init__(file)
        self._kz = kz

    def persistent_load(self, pid: Any) -> Any:
        if pid != _KZ:
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")
        return self._kz


def load(kz: Killzone, base_mm: float) -> Any | None:
    """The graph of ``kz`` for ``base_mm`` stored by :func:`store`, bound to ``kz``; ``None``
    when the cache is off, has no such graph, or its file cannot be read."""
    path = _path(kz, base_mm)
    if path is None:
        return None
    try:
        data = path.read_bytes()
        return _Unpickler(io.BytesIO(data), kz).load()
    except FileNotFoundError:
        return None
    except Exception:  # a damaged or foreign file: ignore it, it is rebuilt and replaced
        return None


def store(kz: Killzone, base_mm: float, graph: Any) -> None:
    """Write ``graph`` (built for ``kz`` and ``base_mm``) to the cache, atomically; remove the
    oldest files past :data:`MAX_FILES`. Failures (a read-only folder, a full disk) are
    ignored: the cache only saves time."""
    path = _path(kz, base_mm)
    if path is None:
        return
    try:
        buf = io.BytesIO()
        _Pickler(buf, kz).dump(graph)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".graph")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(buf.getvalue())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        files = sorted(path.parent.glob("*.graph"), key=lambda p: p.stat().st_mtime)
        for old in files[:-MAX_FILES]:
            old.unlink(missing_ok=True)
    except (OSError, pickle.PicklingError):
        return
