"""The disk cache of movement graphs (engine.geometry.graph_cache): keyed by value, never
stale, never half read, bounded, and it changes no answer; data only (a file planted in the
folder runs no code and a graph of another layout is refused), in a private folder (another
user's or a group/other-writable folder or file is refused with one warning line), and it
never deletes a file the engine did not write."""

from __future__ import annotations

import copy
import logging
import os
import pickle
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.geometry import Killzone, graph_cache
from engine.geometry.movement import MoveGraph, move_graph

ROOT = Path(__file__).resolve().parent.parent


def _layout(name: str = "close_quarters") -> dict[str, Any]:
    with (ROOT / "killzones" / f"{name}.toml").open("rb") as fh:
        return tomllib.load(fh)


def _bare() -> dict[str, Any]:
    """The open ruins board without terrain: its graphs build in milliseconds, for the tests
    of what the cache does with files (the layout's content does not matter to them)."""
    data = _layout("open_ruins")
    data["features"] = []
    return data


def _one_feature() -> dict[str, Any]:
    """The open ruins board with its first feature only: another layout whose graph has other
    nodes than the bare board's, still quick to build."""
    data = _layout("open_ruins")
    data["features"] = data["features"][:1]
    return data


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "graphs"
    monkeypatch.setenv(graph_cache.CACHE_ENV, str(folder))
    # Each test starts with no warning given yet in this process.
    monkeypatch.setattr(graph_cache, "_warned", set(), raising=False)
    return folder


def test_layout_digest_is_the_content_not_the_name() -> None:
    a = Killzone.from_dict(_layout(), source="a")
    renamed = _layout()
    renamed["name"] = "another name"
    b = Killzone.from_dict(renamed, source="b")
    assert graph_cache.layout_digest(a) == graph_cache.layout_digest(b)
    taller = copy.deepcopy(_layout())
    taller["features"][0]["parts"][0]["height"] = 4
    c = Killzone.from_dict(taller, source="c")
    assert graph_cache.layout_digest(a) != graph_cache.layout_digest(c)
    # Another hatchway state is another layout for movement (9.3).
    hatch = sorted(a.hatchways)[0]
    assert graph_cache.layout_digest(a) != graph_cache.layout_digest(a.with_open_hatchways([hatch]))


def test_a_stored_graph_loads_bound_to_the_asking_killzone_with_the_same_answers(
    cache: Path,
) -> None:
    kz = Killzone.from_dict(_layout(), source="first")
    built = move_graph(kz, 32.0)
    assert len(list(cache.glob("*.kgraph"))) == 1
    again = Killzone.from_dict(_layout(), source="second")  # equal content, new value
    loaded = graph_cache.load(again, 32.0)
    assert isinstance(loaded, MoveGraph) and loaded.kz is again
    assert np.array_equal(loaded.xy, built.xy)
    assert np.array_equal(loaded.node_level, built.node_level)
    # move_graph uses it, and destinations agree point for point with the built graph.
    assert move_graph(again, 32.0).xy.tobytes() == built.xy.tobytes()


def test_another_layout_or_base_never_gets_a_stored_graph(cache: Path) -> None:
    kz = Killzone.from_dict(_layout(), source="x")
    move_graph(kz, 32.0)
    taller = copy.deepcopy(_layout())
    taller["features"][0]["parts"][0]["height"] = 4
    assert graph_cache.load(Killzone.from_dict(taller, source="y"), 32.0) is None
    assert graph_cache.load(kz, 25.0) is None


def test_a_damaged_file_is_ignored_and_rebuilt(cache: Path) -> None:
    kz = Killzone.from_dict(_layout(), source="x")
    move_graph(kz, 32.0)
    (path,) = cache.glob("*.kgraph")
    path.write_bytes(b"not a pickle")
    fresh = Killzone.from_dict(_layout(), source="x")
    assert graph_cache.load(fresh, 32.0) is None
    assert isinstance(move_graph(fresh, 32.0), MoveGraph)
    assert graph_cache.load(Killzone.from_dict(_layout(), source="x"), 32.0) is not None


def test_the_cache_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(graph_cache.CACHE_ENV, "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert graph_cache.cache_dir() is None
    move_graph(Killzone.from_dict(_bare(), source="x"), 32.0)
    assert list(tmp_path.rglob("*.kgraph")) == []


def test_at_most_max_files_are_kept(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(graph_cache, "MAX_FILES", 2)
    kz = Killzone.from_dict(_bare(), source="x")
    for base in (25.0, 28.0, 32.0):
        move_graph(kz, base)
    assert len(list(cache.glob("*.kgraph"))) == 2


class _Planted:
    """A pickled value that, when unpickled, makes the folder ``marker``: the evidence that
    loading ran code from the file."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.mkdir, (str(self.marker),))


def _private(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)
    return folder


def _same_graph(a: MoveGraph, b: MoveGraph) -> bool:
    return a.xy.tobytes() == b.xy.tobytes() and list(a._out) == list(b._out)


def test_a_pickle_planted_at_the_key_runs_no_code_and_the_graph_is_rebuilt(
    cache: Path, tmp_path: Path
) -> None:
    """A pickle at the exact name the cache reads for this layout (a shared cache folder, a
    file another program put there) must never be unpickled: the cache stores plain arrays
    only, so the planted code does not run and the graph is built as if nothing were there."""
    marker = tmp_path / "code ran"
    kz = Killzone.from_dict(_bare(), source="x")
    path = graph_cache._path(kz, 32.0)
    assert path is not None
    _private(path.parent)
    path.write_bytes(pickle.dumps(_Planted(marker)))
    path.chmod(0o600)
    graph = move_graph(kz, 32.0)
    assert not marker.exists()
    assert _same_graph(graph, MoveGraph.build(Killzone.from_dict(_bare(), source="y"), 32.0))


def test_an_archive_with_an_object_array_at_the_key_runs_no_code(
    cache: Path, tmp_path: Path
) -> None:
    """A planted file in the cache's own format, with the right header, whose arrays hold a
    pickled object: numpy reads it without unpickling (allow_pickle=False), so nothing runs;
    the file is ignored and the graph built."""
    marker = tmp_path / "code ran"
    kz = Killzone.from_dict(_bare(), source="x")
    move_graph(kz, 32.0)
    path = graph_cache._path(kz, 32.0)
    assert path is not None
    with np.load(path, allow_pickle=False) as npz:
        arrays = {name: npz[name] for name in npz.files}
    arrays["link_v"] = np.array([_Planted(marker)], dtype=object)
    with path.open("wb") as fh:
        np.savez(fh, **arrays)
    fresh = Killzone.from_dict(_bare(), source="x")
    assert graph_cache.load(fresh, 32.0) is None
    assert not marker.exists()
    assert _same_graph(move_graph(fresh, 32.0), MoveGraph.build(fresh, 32.0))


def test_foreign_files_in_the_folder_are_never_pruned(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pruning keeps :data:`MAX_FILES` of the engine's files and deletes nothing else: other
    programs' files (whatever their names, even the engine's old ``.graph`` names or its
    temporary-file prefix, or its exact name pattern without its header), older than every
    graph, all stay with their content."""
    monkeypatch.setattr(graph_cache, "MAX_FILES", 2)
    _private(cache)
    foreign = {
        "notes.graph": b"mine",
        "0" * 40 + ".graph": b"an old pickle or anything",
        ".tmp-abc.graph": b"someone's temporary file",
        ".tmp-abc.kgraph": b"someone's temporary file",
        "a" * 40 + ".kgraph": b"not the engine's header",
        "README": b"hello",
    }
    for name, content in foreign.items():
        (cache / name).write_bytes(content)
        os.utime(cache / name, (1000, 1000))  # older than every graph
    kz = Killzone.from_dict(_bare(), source="x")
    for base in (25.0, 28.0, 32.0):
        move_graph(kz, base)
    for name, content in foreign.items():
        assert (cache / name).read_bytes() == content, name
    ours = [p for p in cache.iterdir() if p.name not in foreign]
    assert len(ours) == 2
    fresh = Killzone.from_dict(_bare(), source="x")
    assert graph_cache.load(fresh, 25.0) is None  # the oldest graph was pruned
    assert graph_cache.load(fresh, 32.0) is not None


@pytest.mark.parametrize(
    "other",
    [
        pytest.param("objective", id="same-nodes-other-layout"),
        pytest.param("feature", id="other-nodes"),
    ],
)
def test_a_graph_of_another_layout_stored_under_the_key_is_refused(cache: Path, other: str) -> None:
    """A valid graph file of layout A copied to the name of layout B is not B's graph: its
    header names A's layout (refused even when A and B have the same nodes, as when only an
    objective moved), and its nodes are not B's; B's graph is built."""
    a = Killzone.from_dict(_bare(), source="a")
    move_graph(a, 32.0)
    if other == "objective":
        data = _bare()
        data["objectives"][0]["position"] = [9.0, 8.0]
    else:
        data = _one_feature()
    b = Killzone.from_dict(data, source="b")
    path_a, path_b = graph_cache._path(a, 32.0), graph_cache._path(b, 32.0)
    assert path_a is not None and path_b is not None and path_a != path_b
    shutil.copy(path_a, path_b)
    assert graph_cache.load(b, 32.0) is None
    built = MoveGraph.build(Killzone.from_dict(data, source="c"), 32.0)
    assert _same_graph(move_graph(b, 32.0), built)


def _refusals(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "engine.geometry.graph_cache" and r.levelno == logging.WARNING
    ]


@pytest.mark.parametrize("mode", [0o777, 0o757, 0o775, 0o722], ids=oct)
def test_a_folder_writable_by_others_gives_one_warning_and_no_cache(
    cache: Path, caplog: pytest.LogCaptureFixture, mode: int
) -> None:
    """Anyone who can write to the folder could plant or swap graphs: the cache neither reads
    a graph stored there before the folder became writable nor writes one, and says so once
    (one line, naming the folder), however many graphs are asked for."""
    kz = Killzone.from_dict(_bare(), source="x")
    move_graph(kz, 32.0)
    before = sorted(p.name for p in cache.iterdir())
    cache.chmod(mode)
    fresh = Killzone.from_dict(_bare(), source="x")
    assert graph_cache.load(fresh, 32.0) is None
    for base in (25.0, 32.0, 40.0):
        assert isinstance(move_graph(fresh, base), MoveGraph)
    assert sorted(p.name for p in cache.iterdir()) == before
    (line,) = _refusals(caplog)
    assert "\n" not in line and repr(str(cache)) in line and "writable" in line


def test_a_folder_of_another_user_gives_one_warning_and_no_cache(
    cache: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder owned by someone else (as the current user sees it: the user id is made to
    differ from the folder's owner) is that user's to fill: not read, not written, one
    warning line."""
    kz = Killzone.from_dict(_bare(), source="x")
    move_graph(kz, 32.0)
    before = sorted(p.name for p in cache.iterdir())
    owner = cache.stat().st_uid
    monkeypatch.setattr(os, "getuid", lambda: owner + 1)
    fresh = Killzone.from_dict(_bare(), source="x")
    assert graph_cache.load(fresh, 32.0) is None
    for base in (25.0, 32.0):
        assert isinstance(move_graph(fresh, base), MoveGraph)
    assert sorted(p.name for p in cache.iterdir()) == before
    (line,) = _refusals(caplog)
    assert "\n" not in line and repr(str(cache)) in line and f"user id {owner}" in line


def test_a_file_writable_by_others_is_not_read_and_is_replaced(
    cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A graph file others may write to (mode 0666) in the user's own folder is not read (one
    warning); the graph is built and stored again privately (mode 0600) over it."""
    kz = Killzone.from_dict(_bare(), source="x")
    move_graph(kz, 32.0)
    path = graph_cache._path(kz, 32.0)
    assert path is not None
    path.chmod(0o666)
    fresh = Killzone.from_dict(_bare(), source="x")
    assert graph_cache.load(fresh, 32.0) is None
    assert isinstance(move_graph(fresh, 32.0), MoveGraph)
    (line,) = _refusals(caplog)
    assert repr(str(path)) in line and "writable" in line
    assert path.stat().st_mode & 0o777 == 0o600


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file away needs root"
)
def test_a_file_of_another_user_is_neither_read_nor_replaced(
    cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A graph file owned by another user in the folder is not read (one warning), and left
    as it is: the graph is built and not stored."""
    kz = Killzone.from_dict(_bare(), source="x")
    move_graph(kz, 32.0)
    path = graph_cache._path(kz, 32.0)
    assert path is not None
    other = os.getuid() + 4242
    os.chown(path, other, -1)
    content = path.read_bytes()
    fresh = Killzone.from_dict(_bare(), source="x")
    assert graph_cache.load(fresh, 32.0) is None
    assert isinstance(move_graph(fresh, 32.0), MoveGraph)
    (line,) = _refusals(caplog)
    assert repr(str(path)) in line and f"user id {other}" in line
    assert path.stat().st_uid == other and path.read_bytes() == content


def test_the_folder_and_its_new_parents_are_made_private_and_files_0600(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folders the cache makes are mode 0700 and its files 0600, whatever the umask (0
    here: a default-mode folder would be 0777)."""
    folder = tmp_path / "a" / "b" / "graphs"
    monkeypatch.setenv(graph_cache.CACHE_ENV, str(folder))
    old = os.umask(0)
    try:
        move_graph(Killzone.from_dict(_bare(), source="x"), 32.0)
    finally:
        os.umask(old)
    for made in (tmp_path / "a", tmp_path / "a" / "b", folder):
        assert made.stat().st_mode & 0o777 == 0o700, made
    files = list(folder.iterdir())
    assert files and all(p.stat().st_mode & 0o777 == 0o600 for p in files)


def test_a_loaded_graph_is_the_built_graph(cache: Path) -> None:
    """The cache stores the links and makes the levels and nodes again from the killzone:
    every table of the loaded graph must be the built one's (same nodes, links in the same
    order with the same fields and weights, the same per-node tables and levels), or a
    process with a warm cache would move differently from one without."""
    kz = Killzone.from_dict(_layout(), source="first")
    built = move_graph(kz, 32.0)
    loaded = graph_cache.load(Killzone.from_dict(_layout(), source="second"), 32.0)
    assert isinstance(loaded, MoveGraph) and loaded is not built
    assert (loaded.base_mm, loaded.radius) == (built.base_mm, built.radius)
    assert loaded.xy.tobytes() == built.xy.tobytes()
    assert np.array_equal(loaded.node_level, built.node_level)
    assert loaded._keys == built._keys
    assert list(loaded._out) == list(built._out)
    assert [[w for _, w, _ in row] for row in loaded._out] == [
        [w for _, w, _ in row] for row in built._out
    ]
    assert list(loaded._links.items()) == list(built._links.items())
    assert list(loaded._over_by_part.items()) == list(built._over_by_part.items())
    assert loaded._xy_list == built._xy_list and loaded._lvl_list == built._lvl_list
    assert loaded._fp_dist.tobytes() == built._fp_dist.tobytes()
    assert [n.tolist() for n in loaded._near] == [n.tolist() for n in built._near]
    assert {k: v.tolist() for k, v in loaded._over_near.items()} == {
        k: v.tolist() for k, v in built._over_near.items()
    }
    assert np.array_equal(loaded._over_parts, built._over_parts)
    assert np.array_equal(loaded._blocks_floor, built._blocks_floor)
    assert loaded._ladders == built._ladders
    assert loaded._board_tol.equals_exact(built._board_tol, 0.0)
    assert len(loaded.levels) == len(built.levels)
    for a, b in zip(loaded.levels, built.levels, strict=True):
        assert (a.index, a.height, a.parts, a.blockers, a.accessible) == (
            b.index,
            b.height,
            b.parts,
            b.blockers,
            b.accessible,
        )
        for name in ("footprint", "strict", "passage", "strict_tol", "passage_tol", "solid"):
            assert getattr(a, name).equals_exact(getattr(b, name), 0.0), name


def test_a_refused_folder_prints_one_line_on_stderr(tmp_path: Path) -> None:
    """Without logging set up (the command line), the refusal is one line on stderr for the
    whole process, not one per graph."""
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o777)
    script = (
        "import tomllib\n"
        "from engine.geometry import Killzone\n"
        "from engine.geometry.movement import move_graph\n"
        f"data = tomllib.load(open({str(ROOT / 'killzones' / 'open_ruins.toml')!r}, 'rb'))\n"
        "data['features'] = []\n"
        "kz = Killzone.from_dict(data)\n"
        "for base in (25.0, 28.0, 32.0):\n"
        "    move_graph(kz, base)\n"
    )
    env = {**os.environ, graph_cache.CACHE_ENV: str(folder), "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and repr(str(folder)) in lines[0], run.stderr
    assert list(folder.iterdir()) == []
