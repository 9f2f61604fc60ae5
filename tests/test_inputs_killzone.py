"""Killzone layout files and operatives files: every malformed input gets the loader's own
error, naming the file (and the field), never another exception (issue 12, classes 2, 7 and
11; DESIGN.md principle 6).

Classes checked for both loaders, as files and on the command line (``killteam render``,
``killteam play --killzone``): nesting thousands of levels deep, NaN, infinity, ``1e400``, a
400-digit integer, bytes that are not UTF-8, a file over the size limit; and for killzones
the documented limits on board size, heights, rings and counts.
"""

from __future__ import annotations

import copy
import json
import math
import os
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.geometry import Killzone, KillzoneError, load_killzone
from engine.geometry.model import (
    MAX_BOARD_INCHES,
    MAX_FEATURES,
    MAX_HEIGHT_INCHES,
    MAX_NAME_CHARS,
    MAX_OBJECTIVES,
    MAX_PARTS,
    MAX_POLYGON_POINTS,
    shipped_killzones,
)
from engine.geometry.render import MAX_OPERATIVES, OperativesError, load_operatives
from engine.inputs import MAX_DEPTH, MAX_FILE_BYTES
from tests.fuzz_documents import (
    Deep,
    expand,
    json_values,
    mutated,
    to_json,
    to_toml,
    write_document,
)

KILLZONES = Path(__file__).resolve().parent.parent / "killzones"
OPEN_RUINS: dict[str, Any] = tomllib.loads((KILLZONES / "open_ruins.toml").read_text())
PROPERTY = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _assert_names(msg: str, path: Path, words: list[str]) -> None:
    """The error message starts with the file's path and names each of ``words``."""
    assert msg.startswith(str(path)), msg
    for word in words:
        assert word in msg, (word, msg)


def _height_doc(value: str) -> str:
    """open_ruins as JSON text with the first part's height written as ``value``."""
    doc = copy.deepcopy(OPEN_RUINS)
    doc["features"][0]["parts"][0]["height"] = "@HEIGHT@"
    return json.dumps(doc).replace('"@HEIGHT@"', value)


# Each class of malformed file: (file name, contents, words the message must contain).
# The field path is named where the parser lets us know it (numbers are checked after
# parsing); a syntax-level rejection (deep nesting seen before parsing) names the file.
_FIELD = "features[0].parts[0].height"
BAD_LAYOUTS: list[tuple[str, str | bytes, list[str]]] = [
    ("deep.json", "[" * 5000 + "]" * 5000, ["nested more than"]),
    ("deep.toml", "a = " + "[" * 5000 + "]" * 5000 + "\n", ["nested more than"]),
    ("deep_field.json", _height_doc("[" * 3000 + "1" + "]" * 3000), ["nested more than"]),
    ("inf.json", _height_doc("1e400"), ["too large"]),
    ("nan.json", _height_doc("NaN"), [_FIELD, "not finite"]),
    ("infinity.json", _height_doc("-Infinity"), [_FIELD, "not finite"]),
    ("digits.json", _height_doc("9" * 400), ["too large"]),
    ("nan.toml", "name = 'x'\nwidth = nan\n", ["width", "not finite"]),
    ("inf.toml", "name = 'x'\nwidth = 1e400\n", ["width", "not finite"]),
    ("digits.toml", "name = 'x'\nwidth = " + "9" * 400 + "\n", ["width", "too large"]),
    ("latin1.toml", "name = 'caf\xe9'\n".encode("latin-1"), ["not UTF-8"]),
    ("latin1.json", b'{"name": "caf\xe9"}', ["not UTF-8"]),
    ("syntax.toml", "name = 'x'\n[[features]\n", ["not valid TOML", "line 2"]),
]


@pytest.mark.parametrize(("name", "text", "words"), BAD_LAYOUTS, ids=[b[0] for b in BAD_LAYOUTS])
def test_malformed_layout_files_raise_killzone_error_naming_the_file(
    name: str, text: str | bytes, words: list[str], tmp_path: Path
) -> None:
    path = write_document(tmp_path, name, text)
    with pytest.raises(KillzoneError) as err:
        load_killzone(path)
    _assert_names(str(err.value), path, words)
    assert len(str(err.value)) < 400, str(err.value)  # an excerpt, not the document


def test_a_file_over_the_size_limit_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as fh:  # sparse: costs no disk
        fh.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(KillzoneError, match=r"huge\.json: the killzone file is larger than 64 MiB"):
        load_killzone(path)


def test_a_name_with_a_nul_character_is_an_error_not_a_value_error() -> None:
    # Path operations raise ValueError on NUL bytes; the loader must say what is wrong.
    for name in ("open\x00ruins", "open\x00ruins.toml"):
        with pytest.raises(KillzoneError, match="no such killzone file or shipped layout"):
            load_killzone(name)


# -------------------------------------------------------------------------------------------
# The Python API: from_dict gets the same checks as a file
# -------------------------------------------------------------------------------------------


def _with_height(value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(OPEN_RUINS)
    doc["features"][0]["parts"][0]["height"] = value
    return doc


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (math.nan, ["not finite"]),
        (math.inf, ["not finite"]),
        (10**400, ["too large"]),
        (10**5000, ["an integer of about 5000 digits", "too large"]),
        (expand(Deep(5000)), [f"nested more than {MAX_DEPTH}"]),
        (MAX_HEIGHT_INCHES + 1, ["field 'height' must be at most 50"]),
        (-0.5, ["field 'height' must be at least 0"]),
    ],
    ids=["nan", "inf", "digits", "5000-digits", "deep", "too-tall", "negative"],
)
def test_from_dict_rejects_bad_numbers_and_nesting(value: Any, words: list[str]) -> None:
    with pytest.raises(KillzoneError) as err:
        Killzone.from_dict(_with_height(value), source="api")
    msg = str(err.value)
    assert msg.startswith("api: ")
    for word in words:
        assert word in msg, (word, msg)


def test_from_dict_rejects_non_table_documents_and_odd_keys() -> None:
    for doc in ([], "x", None, 3):
        with pytest.raises(KillzoneError, match="api: layout: must be a table"):
            Killzone.from_dict(doc, source="api")  # type: ignore[arg-type]
    odd: dict[Any, Any] = {**OPEN_RUINS, 3: "three"}  # keys of mixed types sort by name
    with pytest.raises(KillzoneError, match="unknown field '3'"):
        Killzone.from_dict(odd, source="api")


# -------------------------------------------------------------------------------------------
# Limits: documented, enforced, and far above real use
# -------------------------------------------------------------------------------------------


def test_limits_are_far_above_the_shipped_layouts() -> None:
    # The shipped layouts are the real use: each limit is at least ten times their largest
    # value (measured: 22 features, 28 parts, 6-point rings, 3 markers, 5" tall, 30" wide).
    layouts = [load_killzone(name) for name in shipped_killzones()]
    assert layouts
    for kz in layouts:
        assert 10 * len(kz.features) <= MAX_FEATURES
        assert 10 * len(kz.parts) <= MAX_PARTS
        assert 10 * max(len(p.polygon.exterior.coords) for p in kz.parts) <= MAX_POLYGON_POINTS
        assert 10 * len(kz.objectives) <= MAX_OBJECTIVES
        assert 10 * max(p.height for p in kz.parts) <= MAX_HEIGHT_INCHES
        assert 3 * max(kz.width, kz.depth) <= MAX_BOARD_INCHES


def _square(x: float, y: float, side: float = 0.5) -> list[list[float]]:
    return [[x, y], [x + side, y], [x + side, y + side], [x, y + side], [x, y]]


def _grid_layout(features: int, parts_each: int) -> dict[str, Any]:
    """A 100" board with ``features`` features of ``parts_each`` small Light parts."""
    feats = []
    k = 0
    for f in range(features):
        parts = []
        for _ in range(parts_each):
            x, y = 10 + (k % 80), 10 + (k // 80) * 0.75
            parts.append({"polygon": _square(x, y), "height": 1, "types": ["Light"]})
            k += 1
        feats.append({"name": f"f{f}", "parts": parts})
    return {
        "name": "grid",
        "width": MAX_BOARD_INCHES,
        "depth": MAX_BOARD_INCHES,
        "features": feats,
        "drop_zones": {"A": _square(0, 0, 5), "B": _square(90, 90, 5)},
    }


def test_a_layout_at_the_limits_loads_quickly() -> None:
    doc = _grid_layout(MAX_FEATURES, MAX_PARTS // MAX_FEATURES)
    start = time.perf_counter()
    kz = Killzone.from_dict(doc, source="grid")
    assert len(kz.parts) == MAX_PARTS and len(kz.features) == MAX_FEATURES
    assert time.perf_counter() - start < 5.0  # measured about 0.1 s


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["features"].append(d["features"][0]), ["features", f"at most {MAX_FEATURES}"]),
        (
            lambda d: d["features"][0]["parts"].extend(d["features"][0]["parts"]),
            ["feature 'f499'", "too many terrain parts", f"at most {MAX_PARTS}"],
        ),
        (lambda d: d.update(width=MAX_BOARD_INCHES + 1), ["width", "at most 100"]),
        (lambda d: d.update(depth=0.5), ["depth", "at least 1"]),
        (lambda d: d.update(name="n" * (MAX_NAME_CHARS + 1)), ["name", "longer than 100"]),
        (
            lambda d: d["features"][0].update(name="f" * (MAX_NAME_CHARS + 1)),
            ["feature 0", "longer than 100"],
        ),
        (
            lambda d: d.update(
                objectives=[{"name": f"o{k}", "position": [1, 1]} for k in range(51)]
            ),
            ["objectives", f"at most {MAX_OBJECTIVES}"],
        ),
        (
            lambda d: d["features"][1]["parts"][0].update(
                polygon=[[20 + k / 1000, 50 + (k % 2) / 10] for k in range(MAX_POLYGON_POINTS)]
                + [[20, 50]]
            ),
            ["feature 'f1' part 0", f"at most {MAX_POLYGON_POINTS}"],
        ),
        (
            lambda d: d["features"][1]["parts"][0].update(polygon=_square(1e12, 5)),
            ["feature 'f1' part 0", "not wholly on the board", "point 0 [1e+12, 5]"],
        ),
        (
            lambda d: d["features"][1]["parts"][0].update(polygon=[[1, 1], [2, 2], [3, 3], [1, 1]]),
            ["feature 'f1' part 0", "not a valid polygon"],
        ),
        (
            lambda d: d["features"][1]["parts"][0].update(polygon=_square(20, 50, 0.05)),
            ["feature 'f1' part 0", "encloses 0.0025 square inches", "degenerate"],
        ),
    ],
    ids=[
        "features",
        "parts",
        "width",
        "depth",
        "name",
        "feature-name",
        "objectives",
        "ring-points",
        "ring-off-board",
        "degenerate-ring",
        "sliver-ring",
    ],
)
def test_limits_are_enforced_naming_the_feature_and_field(change: Any, words: list[str]) -> None:
    doc = _grid_layout(MAX_FEATURES, MAX_PARTS // MAX_FEATURES)
    change(doc)
    with pytest.raises(KillzoneError) as err:
        Killzone.from_dict(doc, source="grid.toml")
    msg = str(err.value)
    assert msg.startswith("grid.toml: ")
    for word in words:
        assert word in msg, (word, msg)


# -------------------------------------------------------------------------------------------
# Property tests: loads or raises KillzoneError, never another exception
# -------------------------------------------------------------------------------------------


def _loads_or_killzone_error(load: Any) -> None:
    try:
        kz = load()
    except KillzoneError as exc:
        assert str(exc)  # a message, on one line
        assert "\n" not in str(exc)
    else:
        assert isinstance(kz, Killzone)


@PROPERTY
@given(doc=json_values)
def test_any_document_loads_or_raises_killzone_error(doc: Any, tmp_path: Path) -> None:
    _loads_or_killzone_error(lambda: Killzone.from_dict(expand(doc), source="api"))
    path = write_document(tmp_path, "any.json", to_json(doc))
    _loads_or_killzone_error(lambda: load_killzone(path))
    path = write_document(tmp_path, "any.toml", to_toml(doc))
    _loads_or_killzone_error(lambda: load_killzone(path))


@PROPERTY
@given(doc=mutated(OPEN_RUINS))
def test_mutated_shipped_layout_loads_or_raises_killzone_error(doc: Any, tmp_path: Path) -> None:
    _loads_or_killzone_error(lambda: Killzone.from_dict(expand(doc), source="api"))
    path = write_document(tmp_path, "mutant.json", to_json(doc))
    _loads_or_killzone_error(lambda: load_killzone(path))
    path = write_document(tmp_path, "mutant.toml", to_toml(doc))
    _loads_or_killzone_error(lambda: load_killzone(path))


@PROPERTY
@given(data=st.data())
def test_mutated_layout_text_loads_or_raises_killzone_error(
    data: st.DataObject, tmp_path: Path
) -> None:
    # Byte-level damage to the shipped TOML text: cut, duplicated or replaced characters.
    text = (KILLZONES / "close_quarters.toml").read_bytes()
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        new = data.draw(st.sampled_from([b"", b"[", b"]", b"{", b"\xff", b"1e400", b"nan", b'"']))
        cut = data.draw(st.integers(0, 20))
        text = text[:at] + new + text[at + cut :]
    path = write_document(tmp_path, "damaged.toml", text)
    _loads_or_killzone_error(lambda: load_killzone(path))


# -------------------------------------------------------------------------------------------
# Operatives files
# -------------------------------------------------------------------------------------------

GOOD_OPERATIVES = {
    "operatives": [
        {"name": "A1", "player": "A", "x": 4, "y": 11},
        {"name": "B1", "player": "B", "x": 14, "y": 12, "base_mm": 40, "elevation": 3},
    ]
}


def _ops_doc(value: str) -> str:
    doc = copy.deepcopy(GOOD_OPERATIVES)
    doc["operatives"][1]["x"] = "@X@"
    return json.dumps(doc).replace('"@X@"', value)


BAD_OPERATIVES: list[tuple[str, str | bytes, list[str]]] = [
    ("deep.json", "[" * 5000 + "]" * 5000, ["nested more than"]),
    ("deep_field.json", _ops_doc("[" * 3000 + "1" + "]" * 3000), ["nested more than"]),
    ("inf.json", _ops_doc("1e400"), ["too large"]),
    ("nan.json", _ops_doc("NaN"), ["operatives[1].x", "not finite"]),
    ("digits.json", _ops_doc("9" * 400), ["too large"]),
    ("far.json", _ops_doc("1e12"), ["operative 1 ('B1')", "field 'x' must be at most 100"]),
    ("negative.json", _ops_doc("-3"), ["operative 1 ('B1')", "field 'x' must be at least 0"]),
    ("latin1.json", b'{"operatives": [{"name": "caf\xe9"}]}', ["not UTF-8"]),
    (
        "many.json",
        json.dumps(
            {
                "operatives": [
                    {"name": f"o{k}", "player": "A", "x": 1, "y": 1}
                    for k in range(MAX_OPERATIVES + 1)
                ]
            }
        ),
        [f"at most {MAX_OPERATIVES}"],
    ),
]


@pytest.mark.parametrize(
    ("name", "text", "words"), BAD_OPERATIVES, ids=[b[0] for b in BAD_OPERATIVES]
)
def test_malformed_operatives_files_raise_operatives_error(
    name: str, text: str | bytes, words: list[str], tmp_path: Path
) -> None:
    path = write_document(tmp_path, name, text)
    with pytest.raises(OperativesError) as err:
        load_operatives(path)
    _assert_names(str(err.value), path, words)


def test_the_example_operatives_file_loads() -> None:
    ops = load_operatives(Path(__file__).resolve().parent.parent / "docs/example_operatives.json")
    assert list(ops) == ["A1", "B1", "B2"]


def _loads_or_operatives_error(path: Path) -> None:
    try:
        ops = load_operatives(path)
    except OperativesError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert all(math.isfinite(p.x) and math.isfinite(p.y) for _, p in ops.values())


@PROPERTY
@given(doc=st.one_of(json_values, mutated(GOOD_OPERATIVES)))
def test_any_operatives_file_loads_or_raises_operatives_error(doc: Any, tmp_path: Path) -> None:
    _loads_or_operatives_error(write_document(tmp_path, "ops.json", to_json(doc)))


# -------------------------------------------------------------------------------------------
# The command line: exit 2, one line on standard error, nothing written
# -------------------------------------------------------------------------------------------

CLI_LAYOUTS = [
    b
    for b in BAD_LAYOUTS
    if b[0] in ("deep.json", "inf.json", "nan.toml", "digits.toml", "latin1.toml", "deep.toml")
]


def _one_line_error(capsys: pytest.CaptureFixture[str], *words: str) -> None:
    captured = capsys.readouterr()
    err = captured.err
    assert err.count("\n") == 1, err
    assert "Traceback" not in err and "error" in err
    for word in words:
        assert word in err, (word, err)


@pytest.mark.parametrize(("name", "text", "words"), CLI_LAYOUTS, ids=[b[0] for b in CLI_LAYOUTS])
def test_render_with_a_malformed_layout_exits_2_with_one_line(
    name: str,
    text: str | bytes,
    words: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = write_document(tmp_path, name, text)
    out = tmp_path / "picture.png"
    assert main(["render", str(path), "-o", str(out)]) == 2
    _one_line_error(capsys, name, *words)
    assert not out.exists()


@pytest.mark.parametrize(("name", "text", "words"), CLI_LAYOUTS, ids=[b[0] for b in CLI_LAYOUTS])
def test_play_with_a_malformed_killzone_exits_2_with_one_line(
    name: str,
    text: str | bytes,
    words: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = write_document(tmp_path, name, text)
    record = tmp_path / "battle.jsonl"
    assert main(["play", "--killzone", str(path), "--record", str(record)]) == 2
    _one_line_error(capsys, name, *words)
    assert not record.exists()


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [b for b in BAD_OPERATIVES if b[0] != "many.json"],
    ids=[b[0] for b in BAD_OPERATIVES if b[0] != "many.json"],
)
def test_render_with_a_malformed_operatives_file_exits_2_with_one_line(
    name: str,
    text: str | bytes,
    words: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = write_document(tmp_path, name, text)
    out = tmp_path / "picture.svg"
    assert main(["render", "open_ruins", "--operatives", str(path), "-o", str(out)]) == 2
    _one_line_error(capsys, name, *words)
    assert not out.exists()


def test_render_with_an_oversized_layout_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = _grid_layout(MAX_FEATURES + 1, 1)
    path = write_document(tmp_path, "big.json", json.dumps(doc))
    assert main(["render", str(path), "-o", str(tmp_path / "p.png")]) == 2
    _one_line_error(capsys, "big.json", f"at most {MAX_FEATURES}")
    assert os.listdir(tmp_path) == ["big.json"]
