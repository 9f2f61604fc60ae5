"""Scenario files: every malformed file gets a :class:`ScenarioFileError` naming the file and
the field, never another exception (issue 12, classes 2, 7 and 11; DESIGN.md principle 6).

Classes checked: nesting thousands of levels deep, NaN, infinity, ``1e400``, a 400-digit
integer, bytes that are not UTF-8, a file over the size limit, and the documented limits on
steps, lists, operatives, texts and coordinates; then property tests on arbitrary documents
and on mutations of shipped scenarios (one with its killzone inline, one with killzone and
team files beside it).

No command of ``killteam`` reads scenario files (they are run by the test suite, and
``killteam replay`` reads game records), so there is no command-line test here.
"""

from __future__ import annotations

import contextlib
import copy
import shutil
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from engine.game.scenario_file import (
    MAX_DESCRIPTION_CHARS,
    MAX_LIST_ITEMS,
    MAX_POSITION_OPERATIVES,
    MAX_STEPS,
    MAX_TEXT_CHARS,
    Scenario,
    ScenarioFileError,
    load_scenario,
    scenario_from_dict,
)
from engine.geometry.model import MAX_FEATURES
from engine.inputs import MAX_DEPTH, MAX_FILE_BYTES
from tests.fuzz_documents import Deep, expand, json_values, mutated, to_toml, write_document

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
INLINE = "edge_15_accessible_cost.toml"  # its killzone is an inline table
FILES = "edge_01_vantage_conceal_light_cover.toml"  # killzone and teams in files beside it
DOCS = {name: tomllib.loads((SCENARIOS / name).read_text()) for name in (INLINE, FILES)}
PROPERTY = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder with the scenarios' team and killzone files, where test files are written
    (so the relative paths of the shipped scenarios resolve as they do in ``scenarios/``)."""
    path = tmp_path_factory.mktemp("scenarios")
    shutil.copytree(SCENARIOS / "teams", path / "teams")
    shutil.copytree(SCENARIOS / "killzones", path / "killzones")
    yield path


def _error(path: Path) -> str:
    with pytest.raises(ScenarioFileError) as err:
        load_scenario(path)
    msg = str(err.value)
    assert msg.startswith(str(path)), msg
    assert "\n" not in msg and len(msg) < 600, msg
    return msg


def test_the_base_documents_load(folder: Path) -> None:
    # The mutations below start from valid files: written back as TOML, they load.
    for name, doc in DOCS.items():
        scenario = load_scenario(write_document(folder, f"copy_{name}", to_toml(doc)))
        assert isinstance(scenario, Scenario) and scenario.name == doc["name"]


def _with(name: str, change: Any) -> str:
    doc = copy.deepcopy(DOCS[name])
    change(doc)
    return to_toml(doc)


def _at(value: Any) -> Any:
    def change(doc: dict[str, Any]) -> None:
        first = next(iter(doc["position"]["operatives"].values()))
        first["at"] = value

    return change


BAD: list[tuple[str, Any, list[str]]] = [
    ("deep.toml", "steps = " + "[" * 5000 + "]" * 5000 + "\n", ["nested more than"]),
    ("deep_field.toml", _with(FILES, _at(Deep(3000))), ["nested more than"]),
    ("nan.toml", _with(FILES, _at([float("nan"), 1])), ["position.operatives.PRO-1.at[0]"]),
    ("inf.toml", _with(FILES, _at([float("1e400"), 1])), ["not finite"]),
    (
        "digits.toml",
        _with(FILES, lambda d: d["position"].update(tp=10**400)),
        ["position.tp", "too large"],
    ),
    ("latin1.toml", "name = 'caf\xe9'\n".encode("latin-1"), ["not UTF-8"]),
    ("far.toml", _with(FILES, _at([1e12, 1])), ["PRO-1.at[0]", "from 0 to 100 inches"]),
    (
        "steps.toml",
        _with(FILES, lambda d: d.update(steps=[{}] * (MAX_STEPS + 1))),
        ["steps", f"at most {MAX_STEPS}"],
    ),
    (
        "actions.toml",
        _with(FILES, lambda d: d["steps"][0].update(actions=["Decline"] * (MAX_LIST_ITEMS + 1))),
        ["steps[1].actions", f"at most {MAX_LIST_ITEMS}"],
    ),
    (
        "dice.toml",
        _with(FILES, lambda d: d["steps"][0].update(dice=["6"] * (MAX_LIST_ITEMS + 1))),
        ["steps[1].dice", f"at most {MAX_LIST_ITEMS}"],
    ),
    (
        "long_action.toml",
        _with(FILES, lambda d: d["steps"][0].update(actions=["Decline" * 1000])),
        ["steps[1].actions[1]", f"longer than {MAX_TEXT_CHARS}"],
    ),
    (
        "description.toml",
        _with(FILES, lambda d: d.update(description="x" * (MAX_DESCRIPTION_CHARS + 1))),
        ["description", "longer than"],
    ),
    (
        "operatives.toml",
        _with(
            FILES,
            lambda d: d["position"].update(
                operatives={f"X-{k}": {"at": [1, 1]} for k in range(MAX_POSITION_OPERATIVES + 1)}
            ),
        ),
        ["position.operatives", f"at most {MAX_POSITION_OPERATIVES}"],
    ),
    (
        "wounds.toml",
        _with(FILES, lambda d: next(iter(d["position"]["operatives"].values())).update(wounds=-3)),
        ["PRO-1.wounds", "from 0 to 1000"],
    ),
    (
        "newline_key.toml",
        _with(FILES, lambda d: d["position"]["operatives"].update({"a\nb": {"at": [1]}})),
        ["a\\nb"],
    ),
    (
        "inline_killzone.toml",
        _with(
            INLINE,
            lambda d: d["killzone"].update(
                features=[d["killzone"]["features"][0]] * (MAX_FEATURES + 1)
            ),
        ),
        ["killzone", f"at most {MAX_FEATURES}"],
    ),
]


@pytest.mark.parametrize(("name", "text", "words"), BAD, ids=[b[0] for b in BAD])
def test_malformed_scenario_files_raise_scenario_file_error(
    name: str, text: str | bytes, words: list[str], folder: Path
) -> None:
    msg = _error(write_document(folder, name, text))
    for word in words:
        assert word in msg, (word, msg)


def test_a_file_over_the_size_limit_is_refused(folder: Path) -> None:
    path = folder / "huge.toml"
    with path.open("wb") as fh:
        fh.truncate(MAX_FILE_BYTES + 1)
    assert "larger than 64 MiB" in _error(path)


def test_a_killzone_file_beside_the_scenario_gets_the_same_checks(folder: Path) -> None:
    write_document(folder, "killzones/deep.json", "[" * 5000 + "]" * 5000)
    text = _with(FILES, lambda d: d.update(killzone="killzones/deep.json"))
    msg = _error(write_document(folder, "kz_file.toml", text))
    assert "killzone" in msg and "deep.json" in msg and "nested more than" in msg


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (float("nan"), ["not finite"]),
        (10**5000, ["an integer of about 5000 digits"]),
        (expand(Deep(5000)), [f"nested more than {MAX_DEPTH}"]),
    ],
    ids=["nan", "5000-digits", "deep"],
)
def test_the_python_api_gets_the_same_checks(value: Any, words: list[str], folder: Path) -> None:
    doc = copy.deepcopy(DOCS[FILES])
    doc["position"]["tp"] = value
    with pytest.raises(ScenarioFileError) as err:
        scenario_from_dict(doc, source="api", base=folder)
    for word in words:
        assert word in str(err.value)


# -------------------------------------------------------------------------------------------
# Property tests: loads or raises ScenarioFileError, never another exception
# -------------------------------------------------------------------------------------------


def _loads_or_error(path: Path) -> None:
    try:
        scenario = load_scenario(path)
    except ScenarioFileError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert isinstance(scenario, Scenario)


@PROPERTY
@given(doc=json_values)
def test_any_document_loads_or_raises_scenario_file_error(doc: Any, folder: Path) -> None:
    _loads_or_error(write_document(folder, "any.toml", to_toml(doc)))
    with contextlib.suppress(ScenarioFileError):
        scenario_from_dict(expand(doc), source="api", base=folder)


@PROPERTY
@given(doc=mutated(DOCS[INLINE]))
def test_mutated_inline_scenario_loads_or_raises_scenario_file_error(
    doc: Any, folder: Path
) -> None:
    _loads_or_error(write_document(folder, "mutant_inline.toml", to_toml(doc)))


@PROPERTY
@given(doc=mutated(DOCS[FILES]))
def test_mutated_file_scenario_loads_or_raises_scenario_file_error(doc: Any, folder: Path) -> None:
    _loads_or_error(write_document(folder, "mutant_files.toml", to_toml(doc)))
