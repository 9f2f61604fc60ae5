"""The disk cache of movement graphs (engine.geometry.graph_cache): keyed by value, never
stale, never half read, bounded, and it changes no answer."""

from __future__ import annotations

import copy
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


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "graphs"
    monkeypatch.setenv(graph_cache.CACHE_ENV, str(folder))
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
