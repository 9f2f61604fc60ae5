"""The caches of movement graphs: in memory on each killzone value (:func:`move_graph`, the
way every query gets a graph), and on disk, keyed by value: a process that plays on a layout
seen before loads its graphs (about a tenth of a second per base size on the open ruins)
instead of building them (about a second).

The key of a graph is a SHA-256 of everything its build reads: the layout's content
(:func:`layout_digest`: board, features, every part's polygon, height and types, the hatchway state,
drop zones, territories, objectives), the base size, and the code that builds and stores graphs (the
source of :mod:`engine.geometry.move_graph`, :mod:`engine.geometry.move_base`,
:mod:`engine.geometry.move_levels`, :mod:`engine.geometry.move_fill`,
:mod:`engine.geometry.move_derive`, :mod:`engine.geometry.move_links`,
:mod:`engine.geometry.move_stairs`,
:mod:`engine.geometry.move_values`, :mod:`engine.geometry.primitives`, :mod:`engine.geometry.model`
and this module, with the versions of Python, shapely, numpy and networkx) and :data:`FORMAT`. A
graph is therefore never stale: any change to the layout or to that code gives another key.

What is stored: data only. A file is an uncompressed NumPy ``.npz`` archive of plain number
arrays (:meth:`MoveGraph.tables <engine.geometry.move_graph.MoveGraph.tables>`: the nodes
and each link's fields) and a ``header`` array holding UTF-8 JSON (:data:`MAGIC`,
:data:`FORMAT`, the layout digest, the base size and the code digest). It is read with
``numpy.load(allow_pickle=False)``: no Python object is ever unpickled, so a file can at worst
hold a wrong graph, never run code. A file is used only when its header names the asking
layout, base size and code, and its nodes are those the layout gives (the levels and nodes
are made again from the killzone on load, a few ms; only the links come from the file); any
other file is ignored and the graph is built (and stored over it when the file is the
user's).

Trust: the folder must belong to the user and not be writable by group or others; the
engine creates it (and the parents it creates) with mode 0700 and writes files with mode
0600. An existing folder owned by another user or writable by group or others is refused:
one warning line (logger ``engine.geometry.graph_cache``, printed on stderr when logging is
not configured; at most once per folder per process) and the cache is not used there (graphs
are built, nothing is read or written). A file in the folder owned by another user or
writable by group or others is not read (the same warning, counted in the same once per
folder); its graph is built and stored over it only when the file is the user's (another
user's file is never replaced or deleted). Pruning removes only the engine's own
files: a name ``<40 hex digits>.kgraph``, owned by the user, with the engine's header;
nothing else in the folder is ever deleted. Files of older versions (``*.graph`` pickles)
are never read. On a system without user ids (Windows) the owner and mode checks are
skipped.

Where: ``$KILLTEAM_GRAPH_CACHE`` if set (``off`` disables the cache), else
``$XDG_CACHE_HOME/killteam-engine/graphs`` or ``~/.cache/killteam-engine/graphs``. At most
:data:`MAX_FILES` graphs are kept (the least recently written are removed). Files are
written atomically (a temporary file renamed), so parallel processes never read half a file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import stat
import sys
import tempfile
import zipfile
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np
import shapely

from engine.geometry.model import Killzone
from engine.geometry.move_graph import MoveGraph

__all__ = [
    "CACHE_ENV",
    "FORMAT",
    "MAGIC",
    "MAX_BYTES",
    "MAX_FILES",
    "SUFFIX",
    "cache_dir",
    "layout_digest",
    "load",
    "store",
]

CACHE_ENV = "KILLTEAM_GRAPH_CACHE"
"""The environment variable naming the cache folder (``off``, ``0`` or empty: no cache)."""

MAX_FILES = 64
"""The most graphs kept on disk."""

MAX_BYTES = 256 * 1024 * 1024
"""The largest file read (bytes): a larger one is ignored."""

SUFFIX = ".kgraph"
"""The suffix of the cache's files (``<40 hex digits>.kgraph``)."""

MAGIC = "killteam-engine movement graph"
"""The ``magic`` field of a file's header: the engine wrote it."""

FORMAT = 2
"""The version of the file format (1 was a pickle, never read)."""

_NAME = re.compile(r"[0-9a-f]{40}" + re.escape(SUFFIX))
_HEADER = "header"

_log = logging.getLogger(__name__)
_warned: set[str] = set()


def cache_dir() -> Path | None:
    """The cache folder (module docstring), or ``None`` when the cache is off. The folder
    may not exist yet, and is not checked here (:func:`load`, :func:`store` do)."""
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
        "move_base.py",
        "move_levels.py",
        "move_fill.py",
        "move_derive.py",
        "move_links.py",
        "move_stairs.py",
        "move_values.py",
        "primitives.py",
        "model.py",
        "graph_cache.py",
    ):
        h.update((here / name).read_bytes())
    # networkx by its installed version, without importing it (it is only needed on demand).
    versions = (sys.version_info[:2], shapely.__version__, np.__version__, version("networkx"))
    h.update(repr(versions).encode())
    h.update(f"format {FORMAT}".encode())
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
        if part.stairs:
            add("stairs")
        if part.kt18_terrain:
            add(("kt18_terrain", part.kt18_terrain))
        h.update(shapely.to_wkb(part.polygon))
    for areas in (kz.drop_zones, kz.territories):
        for key in sorted(areas):
            add(key)
            h.update(shapely.to_wkb(areas[key]))
    add([(o.name, o.position) for o in kz.objectives])
    return h.hexdigest()


# -------------------------------------------------------------------------------------------
# Trust: owner and mode of the folder and files
# -------------------------------------------------------------------------------------------


def _warn_once(folder: Path, message: str) -> None:
    """Log ``message`` (one line) unless a warning was logged for ``folder`` already."""
    key = str(folder)
    if key not in _warned:
        _warned.add(key)
        _log.warning("killteam: %s; the movement graph cache is not used there", message)


def _foreign(st: os.stat_result) -> str | None:
    """``owned by user id N, not M`` when the folder or file with the status ``st`` is
    another user's, else ``None`` (always so without user ids: Windows)."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return None
    uid = getuid()
    return None if st.st_uid == uid else f"owned by user id {st.st_uid}, not {uid}"


def _unsafe(st: os.stat_result) -> str | None:
    """Why a folder or file with the status ``st`` is not to be trusted, or ``None``: owned
    by another user, or writable by group or others (not checked without user ids)."""
    foreign = _foreign(st)
    if foreign is not None:
        return foreign
    if hasattr(os, "getuid") and st.st_mode & 0o022:
        return f"writable by group or others (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


def _trusted_folder(folder: Path, create: bool) -> bool:
    """Whether the cache may use ``folder``: a folder of the user's, not writable by group or
    others (a warning otherwise). With ``create``, a missing folder is made, with its
    missing parents, with mode 0700; without, a missing folder is simply not used."""
    try:
        st = os.stat(folder)
    except FileNotFoundError:
        if not create:
            return False
        try:
            _make_private(folder)
            st = os.stat(folder)
        except OSError:
            return False  # cannot be made (read-only place...): no cache, quietly
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode):
        _warn_once(folder, f"graph cache folder {str(folder)!r} is not a folder")
        return False
    why = _unsafe(st)
    if why is not None:
        _warn_once(folder, f"graph cache folder {str(folder)!r} is {why}")
        return False
    return True


def _make_private(folder: Path) -> None:
    """Make ``folder`` and its missing parents, each with mode 0700."""
    missing: list[Path] = []
    p = folder
    while not p.exists():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    for p in reversed(missing):
        with contextlib.suppress(FileExistsError):  # made meanwhile by a parallel process
            os.mkdir(p, 0o700)


def _open_trusted(path: Path) -> int | None:
    """A read-only descriptor of the regular file ``path`` (not a link) when it is the
    user's, not writable by group or others, and at most :data:`MAX_BYTES` long (checked
    on the open file, so it cannot be swapped meanwhile); ``None`` when it does not exist or
    is unusable (a warning when it is another user's or writable by others)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
    except OSError:
        os.close(fd)
        return None
    why = _unsafe(st)
    if why is not None:
        _warn_once(path.parent, f"graph cache file {str(path)!r} is {why}")
    if why is not None or not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
        os.close(fd)
        return None
    return fd


# -------------------------------------------------------------------------------------------
# Files
# -------------------------------------------------------------------------------------------


def _key(kz: Killzone, base_mm: float) -> str:
    key = hashlib.sha256(f"{_code_digest()}|{layout_digest(kz)}|{base_mm!r}".encode())
    return key.hexdigest()[:40]


def _path(kz: Killzone, base_mm: float) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    return folder / f"{_key(kz, base_mm)}{SUFFIX}"


def _header(kz: Killzone, base_mm: float) -> dict[str, Any]:
    return {
        "magic": MAGIC,
        "format": FORMAT,
        "layout": layout_digest(kz),
        "base_mm": float(base_mm),
        "code": _code_digest(),
    }


def _read(
    fd: int, arrays: bool = True
) -> tuple[dict[str, Any], dict[str, np.ndarray[Any, Any]]] | None:
    """The header and arrays (none unless ``arrays``) of the archive open on ``fd`` (closed
    here), or ``None`` when it is not one of the engine's files (not an uncompressed archive
    of plain arrays with a JSON header of :data:`MAGIC`)."""
    with os.fdopen(fd, "rb") as fh:
        try:
            with np.load(fh, allow_pickle=False) as npz:
                infos = npz.zip.infolist()
                if any(i.compress_type != zipfile.ZIP_STORED for i in infos):
                    return None
                if sum(i.file_size for i in infos) > MAX_BYTES:
                    return None
                raw = npz[_HEADER]
                if raw.dtype != np.uint8 or raw.ndim != 1:
                    return None
                header = json.loads(raw.tobytes().decode("utf-8"))
                if not isinstance(header, dict) or header.get("magic") != MAGIC:
                    return None
                tables = {name: npz[name] for name in npz.files if name != _HEADER and arrays}
        except Exception:  # not an archive, a damaged one, an object array...
            return None
    return header, tables


def load(kz: Killzone, base_mm: float) -> MoveGraph | None:
    """The graph of ``kz`` for ``base_mm`` (mm) stored by :func:`store`, made for ``kz``
    (:meth:`MoveGraph.restore <engine.geometry.move_graph.MoveGraph.restore>`); ``None``
    when the cache is off, the folder or file is not trusted (module docstring: a warning),
    there is no such graph, or the file is not the engine's graph of this layout, base size
    and code. Never raises for what the file holds."""
    path = _path(kz, base_mm)
    if path is None or not _trusted_folder(path.parent, create=False):
        return None
    fd = _open_trusted(path)
    if fd is None:
        return None
    read = _read(fd)
    if read is None:
        return None
    header, arrays = read
    if header != _header(kz, base_mm):
        return None  # another layout, base size, code or format under this name
    try:
        return MoveGraph.restore(kz, float(base_mm), arrays)
    except ValueError:
        return None


def store(kz: Killzone, base_mm: float, graph: MoveGraph) -> None:
    """Write ``graph`` (built for ``kz`` and ``base_mm`` mm) to the cache, atomically, with
    mode 0600; remove the engine's oldest files past :data:`MAX_FILES`. Nothing is written
    when the folder is not trusted (module docstring: a warning) or a file of another user
    has the name. Other failures (a read-only folder, a full disk) are ignored: the cache
    only saves time."""
    path = _path(kz, base_mm)
    if path is None or not _trusted_folder(path.parent, create=True):
        return
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        pass
    except OSError:
        return
    else:
        foreign = _foreign(st)
        if foreign is not None:
            _warn_once(path.parent, f"graph cache file {str(path)!r} is {foreign}")
            return  # another user's file: never replaced
    try:
        arrays = graph.tables()
    except ValueError:
        return
    header = json.dumps(_header(kz, base_mm), sort_keys=True).encode("utf-8")
    arrays[_HEADER] = np.frombuffer(header, dtype=np.uint8)
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".tmp-{path.stem}-", suffix=SUFFIX)
        with os.fdopen(fd, "wb") as fh, zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED) as zf:
            # The layout of numpy.savez (a .npz numpy.load reads), object arrays refused.
            for name, arr in arrays.items():
                with zf.open(f"{name}.npy", "w", force_zip64=True) as member:
                    np.lib.format.write_array(member, np.asanyarray(arr), allow_pickle=False)
        os.replace(tmp, path)
        tmp = None
        _prune(path.parent)
    except (OSError, ValueError):
        return
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)


def _ours(path: Path) -> bool:
    """Whether ``path`` is a file the engine wrote: the name pattern, the user's, and a
    header of :data:`MAGIC`."""
    if not _NAME.fullmatch(path.name):
        return False
    fd = _open_trusted(path)
    return fd is not None and _read(fd, arrays=False) is not None


def _prune(folder: Path) -> None:
    """Remove the engine's least recently written files past :data:`MAX_FILES` in
    ``folder``: only files :func:`_ours` recognises are counted and removed."""
    named: list[tuple[float, Path]] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if not _NAME.fullmatch(entry.name):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode) and _foreign(st) is None:
                named.append((st.st_mtime, Path(entry.path)))
    if len(named) <= MAX_FILES:
        return
    named.sort()
    count = len(named)
    for _, old in named:
        if count <= MAX_FILES:
            break
        count -= 1  # removed, or not the engine's file: not counted
        if _ours(old):
            old.unlink(missing_ok=True)


_GRAPHS_KEY = "movement.graphs"


def move_graph(kz: Killzone, base_mm: float) -> MoveGraph:
    """The :class:`MoveGraph` of ``kz`` (in its hatchway state) for bases of ``base_mm`` mm,
    built on first use and cached on the killzone value (its private ``_cache``).

    A hatchway state made by :meth:`Killzone.with_open_hatchways` (section 9.3) gets its graph
    derived (:meth:`MoveGraph.derive`) from the cached graph of the state nearest to it (the
    fewest hatchways toggled; the layout as built, whose graph is built first if needed):
    the same graph as a full build, in a fraction of the time when one hatchway differs.
    A killzone with added terrain (:meth:`Killzone.with_terrain`, 7.2) gets its graph derived
    from the layout's in the same way (only the links near the added features are computed).
    Derived graphs compute each node's links on first use (:mod:`engine.geometry.move_fill`);
    a graph derived from one of them fills it first, so a hatchway state of a killzone with
    added terrain prefers a complete graph (the layout's states') to derive from.
    """
    per_kz: dict[float, MoveGraph] = kz._cache.setdefault(_GRAPHS_KEY, {})
    key = float(base_mm)
    graph = per_kz.get(key)
    if graph is None:
        root = kz.hatch_root
        if root is None and kz.terrain_root is not None:
            # Terrain added to a layout (7.2): derived from the layout's graph.
            graph = MoveGraph.derive(move_graph(kz.terrain_root, key), kz)
        elif root is not None and root is not kz:
            # With added terrain, the layout's own states are candidates too: their graphs
            # are complete (deriving from a graph whose links are filled lazily fills them
            # all first).
            layout = root.terrain_root
            family = [root, *root._variants.values()]
            if layout is not None:
                family += [layout, *layout._variants.values()]
            base: MoveGraph | None = None
            best = (True, len(kz.hatchways) + 1, True)
            for other in family:
                cached = other._cache.get(_GRAPHS_KEY, {}).get(key)
                if cached is None or other is kz:
                    continue
                rank = (
                    not cached.links_complete,
                    len(other.open_hatchways ^ kz.open_hatchways),
                    other.terrain_root is not layout,  # the same terrain first
                )
                if rank < best:
                    base, best = cached, rank
            if base is None:
                base = move_graph(layout if layout is not None else root, key)
            graph = MoveGraph.derive(base, kz)
        else:
            graph = _load_or_build(kz, key)
        per_kz[key] = graph
    return graph


def _load_or_build(kz: Killzone, base_mm: float) -> MoveGraph:
    """The graph from the disk cache (:mod:`engine.geometry.graph_cache`, keyed by the
    layout's content and this code), else built and stored there."""
    cached = load(kz, base_mm)
    if cached is not None:
        return cached
    graph = MoveGraph.build(kz, base_mm)
    store(kz, base_mm, graph)
    return graph
