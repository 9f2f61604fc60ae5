"""Inputs inside the documented limits cost a bounded amount of work (issue 27, finding 3).

Each example of the finding (a layout of 400 parts with 199-point rings, a TOML dotted key of
16,000 parts, ``killteam calc fight`` at 30 v 30 dice with Brutal, Shock and Lethal) is
refused quickly with a one-line error naming what is too large; the bounded forms of the work
(pairs tested in chunks) give the same results as before.
"""

from __future__ import annotations

import math
import tomllib
from typing import Any

import numpy as np
import pytest

from engine.cli import main
from engine.dice.fight import (
    MAX_FIGHT_STATES,
    FightTooLargeError,
    Resolver,
    fight,
)
from engine.dice.profile import AttackProfile, Fighter
from engine.errors import KillTeamError
from engine.geometry import load_killzone, move_fill
from engine.geometry.model import (
    MAX_LAYOUT_PERIMETER,
    MAX_LAYOUT_POINTS,
    MAX_PARTS,
    MAX_POLYGON_POINTS,
    Killzone,
    KillzoneError,
)
from engine.geometry.move_graph import MoveGraph
from engine.inputs import MAX_DEPTH, MAX_TOML_CHARS, parse_toml, toml_depth


def _stars(n: int, points: int, width: float, scale: float = 0.4) -> dict[str, Any]:
    """A layout of ``n`` star-shaped Heavy parts of ``points`` points (every other corner
    reflex: many movement graph nodes) in a grid on a ``width`` inch square board."""
    cols = math.ceil(math.sqrt(n))
    cell = width / cols
    outer = cell * scale
    features: list[dict[str, Any]] = []
    for i in range(n):
        cx, cy = (i % cols + 0.5) * cell, (i // cols + 0.5) * cell
        ring = []
        for j in range(points):
            r = outer if j % 2 == 0 else outer * 0.6
            a = 2 * math.pi * j / points
            ring.append([round(cx + r * math.cos(a), 3), round(cy + r * math.sin(a), 3)])
        ring.append(ring[0])
        part = {"polygon": ring, "height": 2, "types": ["Heavy"]}
        if len(features) * 2 >= MAX_PARTS or (features and len(features) >= 500):
            features[-1]["parts"].append(part)
        else:
            features.append({"name": f"f{i}", "parts": [part]})
    half = [[0, 0], [width / 2, 0], [width / 2, width], [0, width], [0, 0]]
    other = [[width / 2, 0], [width, 0], [width, width], [width / 2, width], [width / 2, 0]]
    return {
        "name": "stars",
        "width": width,
        "depth": width,
        "features": features,
        "drop_zones": {"A": half, "B": other},
    }


@pytest.fixture
def no_toml_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any call of Python's TOML parser fail the test: the refusals below must come
    before it does any work."""

    def boom(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("tomllib was asked to parse a document the pre-scan must refuse")

    monkeypatch.setattr(tomllib, "loads", boom)


# ---------------------------------------------------------------------------------------------
# (b) TOML nesting
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("a" + ".a" * 15_999 + " = 1\n", 1),  # the finding's example: 16,000 parts
        ("x = 1\n" + ".".join(["k"] * 65) + " = 1\n", 2),
        ("[" + ".".join(["k"] * 64) + "]\nx = 1\n", 1),
        ("[[" + ".".join(["k"] * 63) + "]]\nx = 1\n", 1),
        ("[" + ".".join(["h"] * 40) + "]\n" + ".".join(["k"] * 30) + " = 1\n", 2),
        ("a = {" + ".".join(["k"] * 70) + " = 1}\n", 1),
        ("a = " + "{b = " * 70 + "1" + "}" * 70 + "\n", 1),
        ("a = [\n" + "[" * 70 + "]" * 70 + "\n]\n", 2),
    ],
    ids=[
        "dotted-16000",
        "dotted-65",
        "header",
        "array-of-tables",
        "header+key",
        "inline-dotted",
        "inline-tables",
        "arrays",
    ],
)
def test_deep_toml_is_refused_before_the_parser_naming_the_line(
    no_toml_parser: None, text: str, line: int
) -> None:
    """Every way TOML nests (dotted keys, table headers, arrays of tables, inline tables,
    arrays) reaches 64 levels below the root in these documents (a key of n parts puts its
    value n levels down), so each must be refused with the documented depth error, naming
    the line, before ``tomllib`` builds the levels (a dotted key of 16,000 parts cost 15 s
    and 1.1 GB there)."""
    with pytest.raises(KillTeamError) as info:
        parse_toml(text, "deep.toml", KillTeamError)
    message = str(info.value)
    assert message == f"deep.toml: line {line}: nested more than {MAX_DEPTH} levels deep"


def test_toml_at_the_depth_limit_and_brackets_in_strings_are_accepted() -> None:
    """A dotted key of 64 parts nests 63 tables below the root, the deepest
    :func:`engine.inputs.check_tree` accepts; brackets, dots and braces inside strings (basic,
    literal, multi-line) and comments nest nothing, so the document parses."""
    text = (
        ".".join(["k"] * 64)
        + " = 1\n"
        + "s = '"
        + "[" * 200
        + '\'\nt = """'
        + "{" * 200
        + "\"\"\"\nu = '''"
        + "[." * 100
        + "'''\nv.w = \"x.y[z\" # [[[[ a.b.c\n"
    )
    assert toml_depth(text) is None
    data = parse_toml(text, "ok.toml", KillTeamError)
    assert data["s"] == "[" * 200 and data["v"] == {"w": "x.y[z"}


def test_toml_longer_than_the_limit_is_refused_before_the_parser(no_toml_parser: None) -> None:
    """Python's TOML parser takes minutes and gigabytes on a 64 MiB document of numbers;
    TOML documents are limited to MAX_TOML_CHARS characters, checked before parsing."""
    text = "a = [" + "1," * (MAX_TOML_CHARS // 2) + "]\n"
    with pytest.raises(KillTeamError, match="longer than 2 Mi characters"):
        parse_toml(text, "long.toml", KillTeamError)


# ---------------------------------------------------------------------------------------------
# (a) Geometry
# ---------------------------------------------------------------------------------------------


def test_the_findings_layout_of_400_parts_with_199_point_rings_is_refused_on_load() -> None:
    """400 parts with 199-point rings respect the per-part limits (MAX_PARTS,
    MAX_POLYGON_POINTS) but hold 79,600 ring points: their movement graph asked for
    gigabytes. The layout is refused when loaded, naming the part where the total passed
    MAX_LAYOUT_POINTS (5,000: 5,000 / 199 = 25.1, so the 26th part, index 25)."""
    data = _stars(400, MAX_POLYGON_POINTS - 1, 100.0)
    with pytest.raises(KillzoneError) as info:
        Killzone.from_dict(data, "stars.toml")
    assert str(info.value) == (
        "stars.toml: feature 'f25' part 0: too many ring points: the terrain parts so far "
        f"have {26 * 199} points, a layout may have at most {MAX_LAYOUT_POINTS}"
    )


def test_a_layout_with_too_much_outline_is_refused_on_load() -> None:
    """Movement graph nodes are placed every inch around low and Vantage terrain, so the
    total outline is bounded too: 110 strips 98" x 0.2" (196.4" around each, 440 ring
    points) measure 20,000" by the 102nd strip (101 x 196.4 = 19,836), index 101."""
    features = []
    for i in range(110):
        y = 0.5 + i * 0.5
        ring = [[1, y], [99, y], [99, y + 0.2], [1, y + 0.2], [1, y]]
        features.append({"name": f"s{i}", "parts": [{"polygon": ring, "height": 1}]})
    half = [[0, 0], [50, 0], [50, 100], [0, 100], [0, 0]]
    data = {
        "name": "strips",
        "width": 100,
        "depth": 100,
        "features": features,
        "drop_zones": {"A": half, "B": half},
    }
    with pytest.raises(KillzoneError) as info:
        Killzone.from_dict(data, "strips.toml")
    assert str(info.value) == (
        "strips.toml: feature 's101' part 0: too much terrain outline: the terrain parts so "
        f'far measure 20033" around, a layout may have at most {MAX_LAYOUT_PERIMETER:.0f}"'
    )


def test_a_graph_needing_too_much_work_is_refused_before_any_link_is_computed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """100 stars of 20 points on a 60" board load (2,000 ring points) but make 3,540 nodes
    on the floor, 6.3 million pairs: 28 CPU s and 2.1 GB to build. The build is refused
    after the nodes are placed and before any pair is tested (``fill`` must not run),
    naming the layout, the base size and the limit."""

    def boom(*_args: Any) -> None:
        raise AssertionError("the links of a graph over the work limit were computed")

    monkeypatch.setattr(move_fill, "fill", boom)
    kz = Killzone.from_dict(_stars(100, 20, 60.0), "stars.toml")
    with pytest.raises(KillzoneError) as info:
        MoveGraph.build(kz, 32)
    message = str(info.value)
    assert message.startswith(
        "stars.toml: the terrain is too detailed for movement with 32mm bases: its movement "
        "graph (3,540 nodes) needs the work of "
    )
    assert message.endswith(
        f"node pairs or more, at most {move_fill.MAX_GRAPH_WORK:,}; use fewer or simpler "
        "terrain parts"
    )


def test_the_shipped_layouts_are_far_inside_the_graph_work_limit() -> None:
    """The shipped layouts' graphs for the smallest base (25mm: the most nodes) need a small
    fraction of MAX_GRAPH_WORK (open_ruins ~120,000), so no real layout comes near it."""
    for name in ("open_ruins", "close_quarters"):
        graph = MoveGraph.build(load_killzone(name), 25)
        assert move_fill.graph_work(graph) < move_fill.MAX_GRAPH_WORK // 8


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 50, 301])
@pytest.mark.parametrize("chunk", [1, 5, 64, 10_000])
def test_triu_chunks_are_the_triu_indices_in_order(n: int, chunk: int) -> None:
    """Chunked pair generation must give exactly the pairs of ``np.triu_indices(n, k=1)``
    in the same order (the links of a node are appended in pair order, and graph hashes
    depend on that order), each chunk whole rows of about ``chunk`` pairs."""
    chunks = list(move_fill.triu_chunks(n, chunk))
    rows = np.concatenate([c[0] for c in chunks]) if chunks else np.zeros(0, dtype=np.int64)
    cols = np.concatenate([c[1] for c in chunks]) if chunks else np.zeros(0, dtype=np.int64)
    want_rows, want_cols = np.triu_indices(n, k=1)
    assert rows.tolist() == want_rows.tolist() and cols.tolist() == want_cols.tolist()
    for r, _ in chunks:
        assert r.size <= max(chunk, n - 1 - int(r[0]))


def test_a_graph_built_in_small_chunks_is_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """Testing the pairs in chunks of 97 instead of 65,536 gives the same nodes and the same
    links in the same order in every node's list (the tests are elementwise)."""
    kz = load_killzone("open_ruins")
    whole = MoveGraph.build(kz, 32)
    monkeypatch.setattr(move_fill, "PAIR_CHUNK", 97)
    chunked = MoveGraph.build(kz, 32)
    assert chunked.xy.tolist() == whole.xy.tolist()
    assert list(chunked._out) == list(whole._out)
    assert list(chunked._links.items()) == list(whole._links.items())


# ---------------------------------------------------------------------------------------------
# (c) Fights
# ---------------------------------------------------------------------------------------------

_BIG = "Brutal, Shock, Lethal 5+"


def test_calc_fight_at_30_v_30_dice_is_refused_with_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The finding's example ran past 92 CPU s and 2.5 GB with no output: its resolution
    needs millions of positions, over MAX_FIGHT_STATES (250,000), so it is refused (exit
    status 2, one line naming both fighters) once that many are solved."""
    args = ["calc", "fight", "-a", "30", "--hit", "3+", "-d", "3/4", "-r", _BIG, "-w", "20"]
    args += ["--enemy-attacks", "30", "--enemy-hit", "3+", "--enemy-damage", "3/4"]
    args += ["--enemy-rules", _BIG, "--enemy-wounds", "20"]
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "killteam: error: fight of 30 attack dice, damage 3/4, 20 wounds v 30 attack dice, "
        "damage 3/4, 20 wounds: too large to solve exactly (more than 250,000 resolution "
        "positions, the limit of the exact solver); use fewer attack dice, wounds or "
        "different damage values\n"
    )


def test_a_resolver_never_holds_more_than_its_limit() -> None:
    """A resolver refuses the position that would be its (limit + 1)th memo entry and clears
    its memo (so memory stays bounded): 6 v 6 successes with 30 wounds each need more than
    100 positions."""
    resolver = Resolver(1, 2, 1, 2, max_states=100)
    with pytest.raises(FightTooLargeError, match="more than 100 resolution positions"):
        resolver.solve(3, 3, 3, 3, 30, 30, False, False, True)
    assert resolver.memo == {}
    assert MAX_FIGHT_STATES == 250_000


def test_agents_fall_back_to_the_block_policy_past_the_limit() -> None:
    """The agents ask fights with ``fallback=True``: past the limit (team files allow 20
    attacks and 50 wounds) the fight is resolved with the fixed block policy for both sides
    (one line of play per roll) rather than refused, and the result says so."""
    a = Fighter(AttackProfile(20, 3, 3, 4, _BIG), 50)
    b = Fighter(AttackProfile(20, 3, 3, 4, _BIG), 50)
    result = fight(a, b, fallback=True, reuse=False)
    assert result.policies == ("block", "block")
    assert sum(p for _, p in result.joint.to_floats().items()) == pytest.approx(1.0)


def test_real_profiles_are_solved_exactly() -> None:
    """Real melee profiles (up to 8 attack dice, 50 wounds) need a few thousand positions:
    they are solved with the optimal policy, not the fallback."""
    a = Fighter(AttackProfile(8, 3, 3, 4, _BIG), 50)
    b = Fighter(AttackProfile(8, 3, 3, 4, _BIG), 50)
    assert fight(a, b, fallback=True, reuse=False).policies == ("optimal", "optimal")
