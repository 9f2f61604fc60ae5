"""Records as a door for input (issue 12, class 3 and the record limits of class 11).

``engine.game.record.replay`` itself (not only ``killteam replay``) checks everything it reads
and raises :class:`RecordFormatError` for a malformed record or :class:`ReplayError` for one
the engine does not reproduce, both naming the line and the field, never another exception.
A record is read as a stream, is self-contained (no file is opened because of its header),
and ``killteam replay`` exits 2 with one line on standard error for each malformed class.
"""

from __future__ import annotations

import builtins
import copy
import io
import json
import pathlib
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
import engine.game.record_format as record_format
from engine.agents import RandomAgent
from engine.cli import main
from engine.game.drivers import SeededDice, play
from engine.game.record import (
    FORMAT,
    MAX_STEPS,
    GameRecorder,
    RecordFormatError,
    ReplayError,
    dumps_line,
    game_from_header,
    killzone_layout,
    make_header,
    replay,
    replay_record,
)
from engine.geometry import Killzone, graph_cache, load_killzone, shipped_killzones
from engine.inputs import MAX_LINE_BYTES
from engine.rulesets import KT24, new_game
from engine.teams import load_builtin_team

KZ = load_killzone("open_ruins")
A = load_builtin_team("kasrkin").default()
B = load_builtin_team("legionaries").default()


def _record(seed: int, steps: int | None, hash_every: int = 5) -> list[str]:
    """The lines of a seeded random battle of Kasrkin v Legionaries on open_ruins, stopped
    after ``steps`` inputs (``None``: played to the end)."""
    state = new_game(KZ, A, B)
    head = make_header(state, seed=seed, agents={"A": "random", "B": "random"})
    head["hash_every"] = hash_every
    rec = GameRecorder(head)
    final = play(
        state,
        {"A": RandomAgent(seed), "B": RandomAgent(seed + 1)},
        SeededDice(seed),
        on_step=rec.on_step,
        max_steps=steps,
    )
    rec.finish(final)
    return rec.lines


SHORT = _record(3, 3)  # header, 3 set-up inputs, the result line (steps and hash)
MEDIUM = _record(3, 30)  # through deployment and the first Strategy phase


@pytest.fixture(scope="module")
def full() -> list[str]:
    return _record(4, None, hash_every=25)


def _head(lines: list[str]) -> dict[str, Any]:
    head: dict[str, Any] = json.loads(lines[0])
    return head


def _rehash(head: dict[str, Any]) -> dict[str, Any]:
    """Content hashes made to match the (changed) data, so the change itself is checked."""
    kz = head.get("killzone")
    if isinstance(kz, dict) and "layout" in kz:
        kz["hash"] = record_format.digest(dumps_line(kz["layout"]))
    rosters = head.get("rosters")
    if isinstance(rosters, dict):
        for r in rosters.values():
            if isinstance(r, dict) and "team" in r:
                r["hash"] = record_format.digest(dumps_line(r["team"]))
    return head


def _with_head(lines: list[str], change: Callable[[dict[str, Any]], Any]) -> list[str]:
    head = _head(lines)
    change(head)
    return [dumps_line(head), *lines[1:]]


def _with_line(lines: list[str], k: int, text: str) -> list[str]:
    out = list(lines)
    out[k] = text
    return out


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(head: dict[str, Any]) -> None:
        node: Any = head
        *parents, last = path.split(".")
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if value is _DELETE:
            del node[last]
        elif isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
        _rehash(head)

    return change


_DELETE = object()


# -------------------------------------------------------------------------------------------
# Records replay; the default record is self-contained
# -------------------------------------------------------------------------------------------


def test_the_header_carries_the_killzone_layout_with_its_hash() -> None:
    head = _head(SHORT)
    assert head["format"] == FORMAT == 3
    kz = head["killzone"]
    assert sorted(kz) == ["hash", "layout", "name", "version"]
    # The layout is what Killzone.from_dict reads, and rebuilding gives the same layout back.
    rebuilt = Killzone.from_dict(kz["layout"])
    assert killzone_layout(rebuilt) == kz["layout"] == killzone_layout(KZ)
    assert kz["hash"] == record_format.digest(dumps_line(kz["layout"]))


@pytest.mark.parametrize("name", shipped_killzones())
def test_the_recorded_layout_rebuilds_the_same_killzone(name: str) -> None:
    # Every field of the layout survives: terrain parts (polygon, height, types, hatchway
    # types), hatchways, drop zones, territories and objective markers.
    kz = load_killzone(name)
    layout = killzone_layout(kz)
    again = Killzone.from_dict(json.loads(dumps_line(layout)))
    assert killzone_layout(again) == layout
    assert (again.name, again.version, again.width, again.depth) == (
        kz.name,
        kz.version,
        kz.width,
        kz.depth,
    )
    assert again.features == kz.features and again.hatchways == kz.hatchways
    for p, q in zip(again.parts, kz.parts, strict=True):
        assert p == q and p.polygon.equals_exact(q.polygon, 0.0)
    for areas, areas2 in ((again.drop_zones, kz.drop_zones), (again.territories, kz.territories)):
        assert sorted(areas) == sorted(areas2)
        assert all(areas[k].equals_exact(areas2[k], 0.0) for k in areas)
    assert again.objectives == kz.objectives


def test_records_are_byte_deterministic() -> None:
    assert _record(3, 30) == MEDIUM


def test_replay_opens_no_file(monkeypatch: pytest.MonkeyPatch) -> None:
    # A record replays from its lines alone (DESIGN.md: a record is self-contained): every
    # way to open a file fails while it replays. The layout is a new value to the cache.
    # The movement-graph disk cache (an engine cache, not a file the record names) is off.
    record_format._KILLZONES.clear()
    monkeypatch.setenv(graph_cache.CACHE_ENV, "off")

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("replay opened a file")

    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(io, "open", refuse)
    monkeypatch.setattr(pathlib.Path, "open", refuse)
    monkeypatch.setattr(pathlib.Path, "read_text", refuse)
    monkeypatch.setattr("engine.geometry.model.load_killzone", refuse)
    assert replay(MEDIUM, ruleset=KT24).step == 30


def test_replay_reads_paths_file_objects_and_iterables(tmp_path: Path) -> None:
    text = "".join(line + "\n" for line in MEDIUM)
    path = tmp_path / "g.jsonl"
    path.write_text(text, encoding="utf-8")
    want = replay(MEDIUM, ruleset=KT24).hash()
    assert replay(path, ruleset=KT24).hash() == want
    assert replay(str(path), ruleset=KT24).hash() == want
    assert replay(io.StringIO(text), ruleset=KT24).hash() == want
    assert replay(io.BytesIO(text.encode()), ruleset=KT24).hash() == want
    assert replay((line.encode() for line in MEDIUM), ruleset=KT24).hash() == want
    assert replay([json.loads(line) for line in MEDIUM], ruleset=KT24).hash() == want
    # Windows line ends and blank lines change nothing.
    assert replay(io.StringIO(text.replace("\n", "\r\n\n")), ruleset=KT24).hash() == want


def test_replay_record_counts_what_it_checked() -> None:
    outcome = replay_record(MEDIUM, ruleset=KT24)
    assert outcome.steps == 30 and outcome.complete
    # hash_every 5: steps 5, 10, ..., 30, and the result line.
    assert outcome.hashes_checked == 7


def test_a_newer_patch_release_replays_another_minor_release_does_not() -> None:
    # Policy (engine.game.record): the same major and minor version replays.
    major, minor, _ = engine.__version__.split(".")[:3]
    same = _with_head(SHORT, _set("engine", f"{major}.{minor}.99"))
    assert replay(same, ruleset=KT24).step == 3
    newer = _with_head(SHORT, _set("engine", f"{major}.{int(minor) + 1}.0"))
    with pytest.raises(RecordFormatError, match="newer than this engine"):
        replay(newer, ruleset=KT24)
    older = _with_head(SHORT, _set("engine", f"{int(major) + 1}.0.0"))
    with pytest.raises(RecordFormatError, match="same major and minor"):
        replay(older, ruleset=KT24)


# -------------------------------------------------------------------------------------------
# Each class of malformed record: the API and the command line agree
# -------------------------------------------------------------------------------------------

_BAD_HEADERS: list[tuple[str, Callable[[dict[str, Any]], None], list[str]]] = [
    ("options-null", _set("options", None), ["'options'", "not null"]),
    ("options-unknown", _set("options.speed", 3), ["'options'", "unknown field 'speed'"]),
    ("options-ill-typed", _set("options.initiative_cards", "yes"), ["options.initiative_cards"]),
    ("options-max-steps", _set("options.max_steps", 10**9), ["options.max_steps", "100000"]),
    ("options-ruleset", _set("options.ruleset", "kt21"), ["options.ruleset", "kt21"]),
    ("ruleset", _set("ruleset", "kt99"), ["'ruleset'", "unknown ruleset 'kt99'"]),
    ("record", _set("record", "chess"), ["not a killteam game record header"]),
    ("format-old", _set("format", 1), ["'format'", "format 1", "record the battle again"]),
    ("format-unknown", _set("format", 7), ["'format'", "7"]),
    ("format-text", _set("format", "2"), ["'format'"]),
    ("engine-newer", _set("engine", "9.0.0"), ["'engine'", "9.0.0"]),
    ("engine-junk", _set("engine", "latest"), ["'engine'", "not an engine version"]),
    ("engine-null", _set("engine", None), ["'engine'"]),
    ("killzone-null", _set("killzone", None), ["'killzone'", "not null"]),
    ("killzone-no-layout", _set("killzone.layout", _DELETE), ["'killzone'", "'layout'"]),
    (
        "killzone-tampered",
        lambda h: h["killzone"]["layout"]["features"][0]["parts"][0].update(height=9.0),
        ["killzone.hash", "does not match"],
    ),
    (
        "killzone-malformed",
        _set("killzone.layout.features.0.parts.0.height", -2),
        ["killzone.layout", "height"],
    ),
    ("killzone-name", _set("killzone.name", "elsewhere"), ["killzone.name", "elsewhere"]),
    ("rosters-null", _set("rosters", None), ["'rosters'", "not null"]),
    ("rosters-one", _set("rosters.B", _DELETE), ["'rosters'", "'B'"]),
    ("roster-team-null", _set("rosters.A.team", None), ["rosters.A.team"]),
    (
        "roster-illegal",
        _set("rosters.B.operatives", ["Legionary Aspiring Champion"] * 2),
        ["rosters.B.operatives", "not legal"],
    ),
    ("roster-empty", _set("rosters.A.operatives", []), ["rosters.A"]),
    ("roster-team-id", _set("rosters.A.team_id", "orks"), ["rosters.A.team_id", "orks"]),
    ("roster-weapons", _set("rosters.A.weapons", None), ["rosters.A.weapons"]),
    ("team-data", _set("rosters.A.team.operatives", "many"), ["rosters.A.team"]),
    ("seed-negative", _set("seed", -1), ["'seed'", "-1"]),
    ("seed-text", _set("seed", "1"), ["'seed'"]),
    ("seed-float", _set("seed", 1.5), ["'seed'"]),
    ("agents-null", _set("agents", None), ["'agents'"]),
    ("agents-number", _set("agents.A", 3), ["agents.A"]),
    ("agents-long", _set("agents.B", "x" * 5000), ["agents.B", "..."]),
    ("hash-every", _set("hash_every", -5), ["'hash_every'"]),
    ("unknown-field", _set("colour", "red"), ["unknown field 'colour'"]),
    ("missing-field", _set("seed", _DELETE), ["missing field 'seed'"]),
]


def _step(k: int, **fields: Any) -> Callable[[list[str]], list[str]]:
    def change(lines: list[str]) -> list[str]:
        row = json.loads(lines[k])
        for key, value in fields.items():
            if value is _DELETE:
                del row[key]
            else:
                row[key] = value
        return _with_line(lines, k, dumps_line(row))

    return change


_BAD_LINES: list[tuple[str, Callable[[list[str]], list[str]], list[str]]] = [
    ("not-json", lambda x: _with_line(x, 2, "{'step': 2}"), ["record line 3", "not valid JSON"]),
    ("a-list", lambda x: _with_line(x, 2, "[1, 2]"), ["record line 3", "not a JSON object"]),
    ("no-actor", _step(2, actor=_DELETE), ["record line 3", "'actor'"]),
    ("unknown-actor", _step(2, actor="C"), ["record line 3", "'actor'", "'C'"]),
    ("step-text", _step(2, step="2"), ["record line 3", "'step'", "not an integer"]),
    ("step-skipped", _step(2, step=3), ["record line 3", "'step'", "step 2 comes"]),
    ("step-repeated", lambda x: [*x[:3], x[2], *x[3:]], ["record line 4", "'step'"]),
    ("action-number", _step(2, action=5), ["record line 3", "'action'", "not text"]),
    ("action-garbage", _step(2, action="Teleport home"), ["record line 3", "not an action"]),
    (
        "action-huge-coordinate",
        _step(4, action="Deploy LEG-1 at " + "9" * 400 + ",1"),
        ["record line 5", "out of range"],
    ),
    ("hash-number", _step(5, hash=5), ["record line 6", "'hash'", "not text"]),
    ("unknown-field", _step(2, note="hi"), ["record line 3", "unknown field 'note'"]),
    ("neither", lambda x: _with_line(x, 2, "{}"), ["record line 3", "neither an input"]),
    ("after-result", lambda x: [*x, x[-1]], ["record line 33", "after the result line"]),
    (
        "result-steps",
        lambda x: _with_line(x, 31, x[31].replace('"steps":30', '"steps":29')),
        ["record line 32", "'steps'"],
    ),
    (
        "result-winner",
        lambda x: _with_line(
            x, 31, x[31][:-1] + ',"result":{"vp":[1,0],"winner":"X","kill_grades":[0,0]}}'
        ),
        ["record line 32", "result.winner"],
    ),
    (
        "result-vp",
        lambda x: _with_line(
            x, 31, x[31][:-1] + ',"result":{"vp":"lots","winner":"A","kill_grades":[0,0]}}'
        ),
        ["record line 32", "result.vp"],
    ),
    ("too-deep", lambda x: _with_line(x, 2, "[" * 5000 + "]" * 5000), ["record line 3", "nested"]),
    (
        "huge-number",
        lambda x: _with_line(x, 2, '{"step":' + "9" * 400 + "}"),
        ["record line 3", "too large"],
    ),
    (
        "too-long",
        lambda x: _with_line(x, 2, " " * (MAX_LINE_BYTES + 5)),
        ["record line 3", "longer than"],
    ),
    ("empty", lambda x: [], ["empty"]),
]


def _cases() -> list[Any]:
    cases = [
        pytest.param(_with_head(MEDIUM, change), words, id=f"header-{name}")
        for name, change, words in _BAD_HEADERS
    ]
    cases += [
        pytest.param(change(MEDIUM), words, id=f"line-{name}") for name, change, words in _BAD_LINES
    ]
    return cases


@pytest.mark.parametrize(("lines", "words"), _cases())
def test_a_malformed_record_is_refused_by_the_api_and_the_command_line(
    lines: list[str],
    words: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(RecordFormatError) as info:
        replay(lines, ruleset=KT24)
    message = str(info.value)
    for w in words:
        assert w in message, (w, message)
    assert "\n" not in message and len(message) < 600, message
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    assert main(["replay", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "Traceback" not in err, err
    for w in words:
        assert w in err, (w, err)


def test_a_line_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(SHORT[0].encode() + b'\n{"step": \xff}\n')
    with pytest.raises(RecordFormatError, match="record line 2: not UTF-8"):
        replay(path, ruleset=KT24)


def test_an_overlong_line_in_a_file_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    path.write_text(SHORT[0] + "\n" + "x" * (3 * MAX_LINE_BYTES) + "\n", encoding="utf-8")
    tracemalloc.start()
    try:
        with pytest.raises(RecordFormatError, match="record line 2: longer than"):
            replay(path, ruleset=KT24)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 * MAX_LINE_BYTES + 4_000_000


# -------------------------------------------------------------------------------------------
# Divergences: ReplayError (not a format error), status 1 on the command line
# -------------------------------------------------------------------------------------------


def test_a_result_that_disagrees_is_a_divergence(
    full: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    last = json.loads(full[-1])
    assert "result" in last  # the battle was played to its end
    vp = last["result"]["vp"]
    last["result"]["vp"] = [vp[0] + 1, vp[1]]
    lines = _with_line(full, len(full) - 1, dumps_line(last))
    with pytest.raises(ReplayError, match=rf"record line {len(full)}: result differs") as info:
        replay(lines, ruleset=KT24)
    assert not isinstance(info.value, RecordFormatError)
    path = tmp_path / "diverges.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    assert main(["replay", str(path), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not replay" in err and "result differs" in err


def test_a_result_for_an_unfinished_battle_is_a_divergence() -> None:
    end = json.loads(SHORT[-1])
    end["result"] = {"vp": [0, 0], "winner": "", "kill_grades": [0, 0]}
    with pytest.raises(ReplayError, match="says the battle ended but it has not"):
        replay(_with_line(SHORT, len(SHORT) - 1, dumps_line(end)), ruleset=KT24)


def test_a_wrong_state_hash_names_where_the_states_last_matched() -> None:
    lines = _step(15, hash="0" * 24)(MEDIUM)
    with pytest.raises(ReplayError) as info:
        replay(lines, ruleset=KT24)
    assert str(info.value).startswith("record line 16: step 15: state hash differs")
    assert str(info.value).endswith("the states last matched at step 10")


def test_another_player_acting_is_a_divergence() -> None:
    # Step 4 is the roll-off winner's initiative decision (step 1 rolls the crit op, steps
    # 2-3 the set-up roll-off and its re-roll after a tie): a record saying chance acted there
    # diverges.
    assert json.loads(MEDIUM[4])["actor"] == "B"
    with pytest.raises(ReplayError, match=r"record line 5: step 4: the record has chance acting"):
        replay(_step(4, actor="chance")(MEDIUM), ruleset=KT24)


# -------------------------------------------------------------------------------------------
# Streaming and the step limit
# -------------------------------------------------------------------------------------------


def test_replay_reads_one_line_at_a_time_and_stops_at_the_first_bad_one() -> None:
    pulled = [0]

    def lines() -> Iterator[str]:
        for line in MEDIUM[:11]:
            pulled[0] += 1
            yield line
        for _ in range(10**6):  # a million more lines, never read
            pulled[0] += 1
            yield '{"step": 0}'

    with pytest.raises(RecordFormatError, match="record line 12: field 'step'"):
        replay(lines(), ruleset=KT24)
    assert pulled[0] == 12


def test_a_million_line_record_replays_in_little_memory(tmp_path: Path) -> None:
    # A million (blank) lines between the inputs and the result line: the record is read
    # line by line, never held whole (the lines alone would take tens of MB as a list).
    path = tmp_path / "long.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        fh.write("".join(line + "\n" for line in MEDIUM[:-1]))
        fh.write("\n" * 1_000_000)
        fh.write(MEDIUM[-1] + "\n")
    # The layout and its movement graphs are loaded (and cached) before the measure: the
    # peak is the reading of the record, not the first load of the open ruins' graphs (which
    # alone passed the bound when this test ran first in its process).
    replay(MEDIUM, ruleset=KT24)
    tracemalloc.start()
    try:
        outcome = replay_record(path, ruleset=KT24)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert outcome.complete and outcome.steps == 30
    assert peak < 20_000_000, peak


def test_the_step_limit_is_enforced_with_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    assert MAX_STEPS == 100_000  # far above a real battle (a few hundred inputs)
    monkeypatch.setattr(record_format, "MAX_STEPS", 10)
    lines = _with_head(MEDIUM, _set("options.max_steps", 10))
    with pytest.raises(RecordFormatError, match="record line 12: more than 10 steps"):
        replay(lines, ruleset=KT24)


# -------------------------------------------------------------------------------------------
# Any change to a record: it replays or raises ReplayError, never another exception
# -------------------------------------------------------------------------------------------

_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for k in sorted(value):
            yield from _paths(value[k], (*prefix, k))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*prefix, i))


_SHORT_HEAD = _head(SHORT)
# The header without the bulk of the team and layout data (their own loaders have their own
# property tests), plus a sample of paths inside them.
_HEAD_PATHS = [
    p
    for p in _paths(_SHORT_HEAD)
    if len(p) <= 3 or (p[0] in ("killzone", "rosters") and len(p) <= 6)
]


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    out = copy.copy(value)
    out[path[0]] = _replace(value[path[0]], path[1:], new)
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_HEAD_PATHS), _json, st.booleans())
def test_any_change_to_the_header_replays_or_raises_replay_error(
    path: tuple[Any, ...], new: Any, rehash: bool
) -> None:
    head = _replace(_SHORT_HEAD, path, new)
    if rehash and isinstance(head, dict):
        _rehash(head)
    try:
        replay(
            [dumps_line(head) if isinstance(head, dict) else json.dumps(head), *SHORT[1:]],
            ruleset=KT24,
        )
    except ReplayError as exc:
        assert "\n" not in str(exc)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, len(SHORT) - 1), _json | st.text(max_size=40).map(lambda t: t), st.booleans())
def test_any_line_put_in_a_record_replays_or_raises_replay_error(
    k: int, new: Any, as_text: bool
) -> None:
    line = new if as_text and isinstance(new, str) else json.dumps(new)
    try:
        replay([*SHORT[:k], line, *SHORT[k:]], ruleset=KT24)
    except ReplayError as exc:
        assert "\n" not in str(exc)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, len(SHORT) - 1),
    st.sampled_from(["step", "actor", "action", "hash", "steps", "result"]),
    _json,
)
def test_any_field_of_a_line_replays_or_raises_replay_error(k: int, field: str, new: Any) -> None:
    row = json.loads(SHORT[k])
    row[field] = new
    try:
        replay(_with_line(SHORT, k, json.dumps(row)), ruleset=KT24)
    except ReplayError as exc:
        assert "\n" not in str(exc)


def test_game_from_header_checks_a_header_that_is_not_a_table() -> None:
    values: list[Any] = [None, [], "header", 3]
    for value in values:
        with pytest.raises(RecordFormatError, match="not a killteam game record header"):
            game_from_header(value, KT24)


def test_a_line_of_exactly_the_limit_is_read_one_byte_more_is_not(tmp_path: Path) -> None:
    # MAX_LINE_BYTES is the line without its line end: a blank line of that many spaces is
    # read (and skipped), one space more is refused.
    path = tmp_path / "edge.jsonl"
    for size, ok in ((MAX_LINE_BYTES, True), (MAX_LINE_BYTES + 1, False)):
        path.write_text("\n".join([*SHORT[:2], " " * size, *SHORT[2:]]) + "\r\n", encoding="utf-8")
        if ok:
            assert replay(path, ruleset=KT24).step == 3
        else:
            with pytest.raises(RecordFormatError, match="record line 3: longer than"):
                replay(path, ruleset=KT24)


def test_a_header_too_large_to_replay_is_refused_before_the_battle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("engine.game.record.MAX_HEADER_BYTES", 1000)
    state = new_game(KZ, A, B)
    with pytest.raises(RecordFormatError, match=r"header would be .* more than 1000"):
        GameRecorder(make_header(state, seed=1, agents={"A": "random", "B": "random"}))


def test_a_source_that_is_not_a_record_is_named(tmp_path: Path) -> None:
    text = "".join(line + "\n" for line in SHORT)
    with pytest.raises(RecordFormatError, match="not a path: pass its lines"):
        replay(text, ruleset=KT24)
    with pytest.raises(RecordFormatError, match=r"missing\.jsonl: no such record file"):
        replay(tmp_path / "missing.jsonl", ruleset=KT24)
    with pytest.raises(RecordFormatError, match="is a folder, not a record file"):
        replay(tmp_path, ruleset=KT24)  # a folder
    with pytest.raises(RecordFormatError, match="cannot read record"):
        replay("bad\0name", ruleset=KT24)
    with pytest.raises(RecordFormatError, match="iterable of lines, not int"):
        replay(3, ruleset=KT24)  # type: ignore[arg-type]
    with pytest.raises(RecordFormatError, match="iterable of lines, not bytes"):
        replay(text.encode(), ruleset=KT24)


_OPS = sorted(new_game(KZ, A, B).ctx.ids)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, len(MEDIUM) - 2),
    st.sampled_from(
        [
            "Deploy {op} at {x},{y}",
            "Reposition {op} to {x},{y}",
            "Activate {op} engage",
            "Shoot {op} bolter at {op2}",
            "Fight {op} chainsword at {op2}",
            "Pick up {op} centre",
            "Operate hatch {op} west hatch",
            "Use siphon life on {op2}",
            "roll 6,6",
            "Pass",
            "Initiative A",
            "Drop zone B",
            "Accurate 1",
        ]
    ),
    st.sampled_from(_OPS),
    st.sampled_from(_OPS),
    st.decimals(-40, 40, places=3),
    st.decimals(-40, 40, places=3),
)
def test_any_well_formed_action_in_a_record_replays_or_raises_replay_error(
    k: int, template: str, op: str, op2: str, x: object, y: object
) -> None:
    # The engine's own errors for a well-formed action it does not accept at that node
    # (illegal, ambiguous, another player's operative) become a divergence at that line.
    row = json.loads(MEDIUM[k])
    row["action"] = template.format(op=op, op2=op2, x=x, y=y)
    try:
        replay([*MEDIUM[:k], dumps_line(row)], ruleset=KT24)
    except RecordFormatError as exc:
        raise AssertionError(f"a well-formed action is not a format error: {exc}") from None
    except ReplayError as exc:
        assert f"record line {k + 1}: step {k}" in str(exc) and "\n" not in str(exc)
