"""Game records (JSON Lines) and replay.

A record is a header line, one line per input, and a result line::

    {"record": "killteam-game", "format": 2, "engine": "0.1.0", "ruleset": "kt24",
     "killzone": {"name": ..., "version": ..., "hash": ..., "layout": {...}},
     "rosters": {"A": {...}, "B": {...}}, "options": {...}, "seed": 1,
     "agents": {"A": "random", "B": "random"}, "hash_every": 25}
    {"step": 1, "actor": "chance", "action": "roll 4,2"}
    {"step": 2, "actor": "A", "action": "Initiative A"}
    ...
    {"step": 25, "actor": "B", "action": "Pass", "hash": "..."}
    {"result": {"vp": [3, 1], "winner": "A", "kill_grades": [2, 1]}, "steps": 290, "hash": "..."}

**Self-contained.** The header carries the killzone's whole layout (the structure
:meth:`Killzone.from_dict <engine.geometry.Killzone.from_dict>` reads) and each roster's whole
team data, each with a content hash (the first 16 hex digits of the SHA-256 of its canonical
JSON, :func:`dumps_line`), and the game options. Replaying never opens another file. Lines are
written with sorted keys and no spaces, so the same inputs and seed give a byte-identical
record.

**Format 2** (this one). Format 1 named the killzone (name, version, source file and file
hash) and replay loaded it from that file; format-1 records are rejected with a message saying
so (re-record the battle).

**Validation.** :func:`replay` reads a record as a stream, one line at a time (a path, a file
object or an iterable of lines; it keeps only the header's battle and the last hash-checked
step, never all lines), and checks everything it reads:

- each line: UTF-8, at most :data:`~engine.inputs.MAX_LINE_BYTES` bytes, JSON within the
  limits of :mod:`engine.inputs` (parsed as ``record line N``), an object;
- the header (line 1): ``record``, ``format`` (:data:`FORMAT`), ``engine`` (same major and
  minor version as this engine: ``0.1.x`` replays on ``0.1.y``; another major or minor
  version, older or newer, is refused because the rules may differ), ``ruleset``
  (:data:`RULESETS`), ``killzone`` (layout validated, hash checked), ``rosters`` (team data
  validated, hash checked, each roster legal under its team's selection rules, the weapons
  listed per operative those its loadout gives), ``options`` (every field known and of its
  type), ``seed`` (``null`` or an integer >= 0), ``agents`` (a name per player), ``hash_every``;
  no other field;
- each input line: ``step`` (1, 2, 3... in order, at most :data:`MAX_STEPS`), ``actor``
  (``"A"``, ``"B"`` or ``"chance"``), ``action`` (the notation of
  :mod:`engine.game.actions`), optional ``hash``; no other field;
- the result line: ``steps`` (the number of inputs), ``hash``, and for a finished battle
  ``result`` (``vp``, ``winner``, ``kill_grades``); nothing may follow it.

A malformed record raises :class:`RecordFormatError`; a well-formed record that the engine
does not reproduce (an input the rules reject, another player to decide, a state hash or a
result that differs) raises :class:`ReplayError`. Both name the line (``record line N``) and
the field, and quote at most a short excerpt of what they read.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import attrs

from engine import RULESET, __version__
from engine.errors import KillTeamError
from engine.game.actions import Action, format_action, parse_action
from engine.game.context import GameOptions
from engine.game.events import Event
from engine.game.setup import new_game
from engine.game.state import Chance, Decision, GameState
from engine.geometry import Killzone
from engine.inputs import MAX_LINE_BYTES, check_tree, excerpt, parse_json
from engine.teams.io import team_from_dict, team_to_dict
from engine.teams.model import Roster, Team, format_entry

__all__ = [
    "FORMAT",
    "MAX_STEPS",
    "RULESETS",
    "GameRecorder",
    "RecordFormatError",
    "ReplayError",
    "ReplayOutcome",
    "dumps_line",
    "game_from_header",
    "iter_record",
    "killzone_layout",
    "make_header",
    "read_record",
    "replay",
    "replay_record",
    "write_record",
]

FORMAT = 2
"""The record format this engine writes and reads (module docstring)."""

MAX_STEPS = 100_000
"""The most inputs a record may have (and the most ``options.max_steps`` may allow): the
engine's own safety limit per battle. Real battles are far below it (the default battle has
264 inputs, random-agent battles a few hundred to about a thousand)."""

RULESETS = (RULESET,)
"""The rulesets this engine plays."""

MAX_AGENT_CHARS = 64
"""The longest agent name a header may give."""

STEP_ACTORS = ("A", "B", "chance")
"""Who may act in an input line."""

_HEADER_FIELDS = (
    "agents",
    "engine",
    "format",
    "hash_every",
    "killzone",
    "options",
    "record",
    "rosters",
    "ruleset",
    "seed",
)
_KILLZONE_FIELDS = ("hash", "layout", "name", "version")
_ROSTER_FIELDS = ("data_version", "hash", "operatives", "team", "team_id", "weapons")
_STEP_FIELDS = ("action", "actor", "hash", "step")
_RESULT_LINE_FIELDS = ("hash", "result", "steps")
_RESULT_FIELDS = ("kill_grades", "vp", "winner")

_KILLZONE_CACHE_SIZE = 8
# Killzones built from record layouts, keyed by the SHA-256 of the layout's canonical JSON
# (by value: a different layout never gets another's killzone), so that replaying many records
# of one layout reuses its movement graphs. Least recently used first; bounded.
_KILLZONES: OrderedDict[str, Killzone] = OrderedDict()


class ReplayError(KillTeamError, ValueError):
    """A record does not replay: the message names the line, the step and what differs."""


class RecordFormatError(ReplayError):
    """A record that is malformed (not the shape of a record, or a header that does not
    describe a legal battle): the message names the line and the field."""


def dumps_line(obj: Mapping[str, Any]) -> str:
    """One record line: JSON with sorted keys and no spaces."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _digest(text: str) -> str:
    return _sha(text)[:16]


# -------------------------------------------------------------------------------------------
# Writing
# -------------------------------------------------------------------------------------------


def _ring(poly: Any) -> list[list[float]]:
    return [[float(x), float(y)] for x, y in poly.exterior.coords]


def killzone_layout(kz: Killzone) -> dict[str, Any]:
    """The layout structure of ``kz`` (what :meth:`Killzone.from_dict` reads), rebuilt from the
    value: ``Killzone.from_dict(killzone_layout(kz))`` is the same layout. Deterministic
    (features, parts and objectives in the killzone's order, terrain types sorted)."""
    features: list[dict[str, Any]] = [{"name": name, "parts": []} for name in kz.features]
    for fi, name in enumerate(kz.features):
        if name in kz.hatchways:
            features[fi]["hatchway"] = True
            if name in kz.open_hatchways:
                features[fi]["open"] = True
    for part in kz.parts:
        data: dict[str, Any] = {
            "polygon": _ring(part.polygon),
            "height": float(part.height),
            "types": sorted(t.value for t in part.types),
        }
        if part.open_types is not None:
            data["open_types"] = sorted(t.value for t in part.open_types)
        features[part.feature]["parts"].append(data)
    return {
        "name": kz.name,
        "version": kz.version,
        "width": float(kz.width),
        "depth": float(kz.depth),
        "features": features,
        "drop_zones": {p: _ring(kz.drop_zones[p]) for p in sorted(kz.drop_zones)},
        "territories": {p: _ring(kz.territories[p]) for p in sorted(kz.territories)},
        "objectives": [
            {"name": o.name, "position": [float(o.position[0]), float(o.position[1])]}
            for o in kz.objectives
        ],
    }


def _killzone_header(kz: Killzone) -> dict[str, Any]:
    layout = killzone_layout(kz)
    return {
        "name": kz.name,
        "version": kz.version,
        "hash": _digest(dumps_line(layout)),
        "layout": layout,
    }


def _roster_header(r: Roster) -> dict[str, Any]:
    team = team_to_dict(r.team)
    text = dumps_line(team)
    return {
        "team_id": r.team.id,
        "data_version": r.team.provenance.dataslate,
        "hash": _digest(text),
        "operatives": [
            format_entry(name, r.resolved_loadout(k)) for k, name in enumerate(r.operatives)
        ],
        "weapons": [[w.name for w in r.datacard(k).weapons] for k in range(len(r.operatives))],
        "team": team,
    }


def make_header(
    state: GameState,
    *,
    seed: int | None,
    agents: Mapping[str, str],
    hash_every: int = 25,
) -> dict[str, Any]:
    """The header line of a record for the battle ``state`` belongs to (module docstring).

    Args:
        state: any state of the battle (its context gives killzone, rosters and options).
        seed: the dice seed, or ``None``.
        agents: ``{"A": name, "B": name}``.
        hash_every: a state hash is recorded every this many inputs (0: none).
    """
    ctx = state.ctx
    return {
        "record": "killteam-game",
        "format": FORMAT,
        "engine": __version__,
        "ruleset": ctx.options.ruleset,
        "killzone": _killzone_header(ctx.killzone),
        "rosters": {p: _roster_header(ctx.rosters[p]) for p in ("A", "B")},
        "options": attrs.asdict(ctx.options),
        "seed": seed,
        "agents": dict(agents),
        "hash_every": hash_every,
    }


class GameRecorder:
    """Collects record lines while a battle is played (pass :meth:`on_step` to
    :func:`engine.game.drivers.play`)."""

    def __init__(self, header: dict[str, Any]) -> None:
        self.header = header
        self.hash_every = int(header.get("hash_every", 25))
        self.lines: list[str] = [dumps_line(header)]
        self.final: GameState | None = None

    def on_step(
        self,
        before: GameState,
        action: Action,
        actor: str,
        after: GameState,
        events: list[Event],
    ) -> None:
        """Record one input (with the state hash every ``hash_every`` steps)."""
        line: dict[str, Any] = {"step": after.step, "actor": actor, "action": format_action(action)}
        if self.hash_every and after.step % self.hash_every == 0:
            line["hash"] = after.hash()
        self.lines.append(dumps_line(line))
        self.final = after

    def finish(self, final: GameState) -> None:
        """Add the result line."""
        result: dict[str, Any] = {"steps": final.step, "hash": final.hash()}
        node = final.node
        if final.is_terminal:
            res = node.result  # type: ignore[union-attr]
            result["result"] = {
                "vp": list(res.vp),
                "winner": res.winner,
                "kill_grades": list(res.kill_grades),
            }
        self.lines.append(dumps_line(result))

    def text(self) -> str:
        """The record as text (lines ending in newline)."""
        return "".join(line + "\n" for line in self.lines)


def write_record(path: str | Path, lines: Iterable[str]) -> Path:
    """Write record lines to ``path``."""
    p = Path(path)
    p.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return p


# -------------------------------------------------------------------------------------------
# Reading, line by line
# -------------------------------------------------------------------------------------------

RecordSource = str | os.PathLike[str] | IO[str] | IO[bytes] | Iterable[Any]
"""What :func:`replay` reads: a path, a file object (text or binary), or an iterable of lines
(text, bytes, or already parsed objects)."""


def _short(message: str) -> str:
    """Another loader's message on one line and at most a few hundred characters."""
    one = " ".join(message.split())
    return one if len(one) <= 300 else one[:300] + "..."


def _line_error(n: int, message: str) -> RecordFormatError:
    return RecordFormatError(f"record line {n}: {message}")


def _decode(raw: str | bytes, n: int) -> str:
    if isinstance(raw, bytes):
        if len(raw) > MAX_LINE_BYTES:
            raise _line_error(n, f"longer than {MAX_LINE_BYTES} bytes")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _line_error(n, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    else:
        text = raw
        long = 4 * len(text) > MAX_LINE_BYTES  # else it cannot pass the limit in UTF-8
        if long and len(text.encode("utf-8", "surrogatepass")) > MAX_LINE_BYTES:
            raise _line_error(n, f"longer than {MAX_LINE_BYTES} bytes")
    return text.rstrip("\r\n")


def _file_lines(fh: IO[Any]) -> Iterator[str | bytes]:
    while True:
        # At most one byte (or character) past the limit is read: a longer line is refused
        # without holding it.
        raw = fh.readline(MAX_LINE_BYTES + 2)
        if not raw:
            return
        yield raw


def _raw_lines(source: RecordSource) -> Iterator[tuple[int, Any]]:
    """(line number, text/bytes/object) for each line of ``source``, one at a time."""
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        try:
            fh = path.open("rb")
        except OSError as exc:
            raise RecordFormatError(f"{path}: cannot read record: {exc.strerror or exc}") from None
        with fh:
            try:
                yield from enumerate(_file_lines(fh), 1)
            except OSError as exc:
                raise RecordFormatError(
                    f"{path}: cannot read record: {exc.strerror or exc}"
                ) from None
        return
    if hasattr(source, "readline"):
        yield from enumerate(_file_lines(source), 1)  # type: ignore[arg-type]
        return
    if isinstance(source, bytes | Mapping) or not isinstance(source, Iterable):
        raise RecordFormatError(
            "a record is a path, a file object or an iterable of lines, "
            f"not {type(source).__name__}"
        )
    yield from enumerate(source, 1)


def iter_record(source: RecordSource) -> Iterator[tuple[int, Any]]:
    """The parsed lines of a record, one at a time, as ``(line number, value)``; blank lines
    are skipped (their numbers are kept, so messages name the line of the file).

    Args:
        source: a path, a file object, or an iterable of lines (text, bytes, or already parsed
            JSON values, which are checked against the limits of :mod:`engine.inputs`).

    Raises:
        RecordFormatError: an unreadable file, a line longer than
            :data:`~engine.inputs.MAX_LINE_BYTES`, not UTF-8, not JSON or beyond the limits
            of :mod:`engine.inputs` (naming the line).
    """
    for n, raw in _raw_lines(source):
        if isinstance(raw, str | bytes):
            text = _decode(raw, n)
            if not text.strip():
                continue
            yield n, parse_json(text, f"record line {n}", RecordFormatError)
        else:
            value = dict(raw) if isinstance(raw, Mapping) else raw
            yield n, check_tree(value, f"record line {n}", RecordFormatError)


def read_record(source: RecordSource) -> list[Any]:
    """The parsed lines of a record, all at once (small records and tests; :func:`replay`
    streams).

    Raises:
        RecordFormatError: as :func:`iter_record`, or an empty record."""
    out = [value for _, value in iter_record(source)]
    if not out:
        raise RecordFormatError("the record is empty")
    return out


# -------------------------------------------------------------------------------------------
# The header
# -------------------------------------------------------------------------------------------


def _head(field: str, message: str) -> RecordFormatError:
    return RecordFormatError(f"record line 1: header field {field!r}: {message}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: Any) -> str:
    """A value read from a record, for a message (JSON words, at most a short excerpt)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, str):
        return excerpt(value)
    if isinstance(value, dict | list):
        return f"a {'table' if isinstance(value, dict) else 'list'}"
    return excerpt(repr(value))


def _table(value: Any, field: str, allowed: tuple[str, ...], required: tuple[str, ...]) -> None:
    if not isinstance(value, dict):
        raise _head(field, f"must be a table (object), not {_shown(value)}")
    unknown = sorted(k for k in value if k not in allowed)
    if unknown:
        raise _head(field, f"unknown field {excerpt(unknown[0])} (allowed: {', '.join(allowed)})")
    missing = [k for k in required if k not in value]
    if missing:
        raise _head(field, f"missing field {missing[0]!r}")


_VERSION = re.compile(r"(\d+)\.(\d+)\.(\d+)(?:[.+-][0-9A-Za-z.+-]*)?")


def _check_engine(value: Any) -> None:
    m = _VERSION.fullmatch(value) if isinstance(value, str) and len(value) < 64 else None
    if m is None:
        raise _head("engine", f"{_shown(value)} is not an engine version (like '0.1.0')")
    ours = _VERSION.fullmatch(__version__)
    assert ours is not None
    if m.group(1, 2) != ours.group(1, 2):
        newer = tuple(map(int, m.group(1, 2))) > tuple(map(int, ours.group(1, 2)))
        raise _head(
            "engine",
            f"the record was made by engine {value}, "
            f"{'newer than' if newer else 'another version than'} this engine "
            f"{__version__} (records replay on the same major and minor version)",
        )


def _check_options(value: Any) -> GameOptions:
    names = tuple(f.name for f in attrs.fields(GameOptions))
    _table(value, "options", names, ())
    for name, got in value.items():
        field = f"options.{name}"
        ok = _OPTION_CHECKS[name](got)
        if not ok:
            raise _head(field, f"{_shown(got)} is not {_OPTION_KINDS[name]}")
    options = GameOptions(**value)
    if options.ruleset not in RULESETS:
        raise _head("options.ruleset", f"unknown ruleset {excerpt(options.ruleset)}")
    return options


_OPTION_CHECKS: dict[str, Callable[[Any], bool]] = {
    "ruleset": lambda v: isinstance(v, str),
    "initiative_cards": lambda v: isinstance(v, bool),
    "objectives_pickup": lambda v: isinstance(v, bool),
    "close_quarters": lambda v: v is None or isinstance(v, bool),
    "max_steps": lambda v: _is_int(v) and 1 <= v <= MAX_STEPS,
}
_OPTION_KINDS = {
    "ruleset": "a ruleset name",
    "initiative_cards": "true or false",
    "objectives_pickup": "true or false",
    "close_quarters": "true, false or null",
    "max_steps": f"an integer from 1 to {MAX_STEPS}",
}


def _header_killzone(value: Any) -> Killzone:
    _table(value, "killzone", _KILLZONE_FIELDS, _KILLZONE_FIELDS)
    layout = value["layout"]
    if not isinstance(layout, dict):
        raise _head("killzone.layout", f"must be a table (object), not {_shown(layout)}")
    text = dumps_line(layout)
    if _digest(text) != value["hash"]:
        raise _head("killzone.hash", "the layout does not match its content hash")
    key = _sha(text)
    kz = _KILLZONES.get(key)
    if kz is None:
        try:
            kz = Killzone.from_dict(layout, source="killzone layout")
        except (KillTeamError, ValueError, TypeError, LookupError) as exc:
            raise _head("killzone.layout", _short(str(exc))) from None
        _KILLZONES[key] = kz
        while len(_KILLZONES) > _KILLZONE_CACHE_SIZE:
            _KILLZONES.popitem(last=False)
    else:
        _KILLZONES.move_to_end(key)
    for field in ("name", "version"):
        if value[field] != getattr(kz, field):
            raise _head(
                f"killzone.{field}",
                f"{_shown(value[field])} but the layout's is {excerpt(getattr(kz, field))}",
            )
    return kz


def _header_roster(player: str, rh: Any) -> Roster:
    """The roster of a record header, its loadouts checked against the weapons the record
    says each operative carried (1.2)."""
    field = f"rosters.{player}"
    _table(rh, field, _ROSTER_FIELDS, _ROSTER_FIELDS)
    data = rh["team"]
    if not isinstance(data, dict):
        raise _head(f"{field}.team", f"must be a table (object), not {_shown(data)}")
    if _digest(dumps_line(data)) != rh["hash"]:
        raise _head(f"{field}.hash", "the team data does not match its content hash")
    try:
        team: Team = team_from_dict(data, source="team data")
    except (KillTeamError, ValueError, TypeError, LookupError) as exc:
        raise _head(f"{field}.team", _short(str(exc))) from None
    if rh["team_id"] != team.id:
        raise _head(f"{field}.team_id", f"{_shown(rh['team_id'])} but the team is {team.id!r}")
    if rh["data_version"] != team.provenance.dataslate:
        raise _head(
            f"{field}.data_version",
            f"{_shown(rh['data_version'])} but the team data is "
            f"{excerpt(team.provenance.dataslate)}",
        )
    entries = rh["operatives"]
    if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
        raise _head(f"{field}.operatives", "must list roster entries (text)")
    try:
        roster = Roster.from_entries(team, entries)
    except ValueError as exc:
        raise _head(f"{field}.operatives", _short(str(exc))) from None
    problems = roster.validate()
    if problems:
        raise _head(f"{field}.operatives", _short("roster not legal: " + "; ".join(problems)))
    recorded = rh["weapons"]
    if not isinstance(recorded, list) or len(recorded) != len(entries):
        raise _head(f"{field}.weapons", "must list one list of weapon names per operative")
    for k, (entry, listed) in enumerate(zip(entries, recorded, strict=True)):
        try:
            carried = [w.name for w in roster.datacard(k).weapons]
        except (KillTeamError, ValueError, LookupError) as exc:
            raise _head(f"{field}.operatives[{k}]", _short(str(exc))) from None
        if listed != carried:
            raise _head(
                f"{field}.weapons[{k}]",
                _short(
                    f"operative {k + 1} ({entry}): the record lists weapons {listed}, "
                    f"its loadout gives {carried}"
                ),
            )
    return roster


def game_from_header(header: Any) -> GameState:
    """A new battle built from a record header (line 1), after checking every field of it
    (module docstring). Opens no file.

    Raises:
        RecordFormatError: naming the header field: not a record header, a format other
            than :data:`FORMAT`, an engine of another major or minor version, an unknown
            ruleset, a malformed or tampered killzone or team, an illegal roster, a bad
            option, seed, agents or ``hash_every``.
    """
    if not isinstance(header, dict) or header.get("record") != "killteam-game":
        raise RecordFormatError("record line 1 is not a killteam game record header")
    fmt = header.get("format")
    if fmt != FORMAT or not _is_int(fmt):
        if fmt == 1 and _is_int(fmt):
            why = (
                "format 1 named the killzone's file, this engine reads only self-contained "
                f"records (format {FORMAT}); record the battle again"
            )
        else:
            why = f"{_shown(fmt)} is not a record format this engine reads ({FORMAT})"
        raise _head("format", why)
    _table(header, "header", _HEADER_FIELDS, _HEADER_FIELDS)
    _check_engine(header["engine"])
    ruleset = header["ruleset"]
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        raise _head("ruleset", f"unknown ruleset {_shown(ruleset)} (known: {', '.join(RULESETS)})")
    options = _check_options(header["options"])
    if options.ruleset != ruleset:
        raise _head("options.ruleset", f"{options.ruleset!r} but the header's is {ruleset!r}")
    seed = header["seed"]
    if seed is not None and not (_is_int(seed) and seed >= 0):
        raise _head("seed", f"{_shown(seed)} is not null or an integer >= 0")
    agents = header["agents"]
    _table(agents, "agents", ("A", "B"), ("A", "B"))
    for p in ("A", "B"):
        name = agents[p]
        if not isinstance(name, str) or not name or len(name) > MAX_AGENT_CHARS:
            raise _head(
                f"agents.{p}", f"{_shown(name)} is not a name (1 to {MAX_AGENT_CHARS} characters)"
            )
    every = header["hash_every"]
    if not (_is_int(every) and 0 <= every <= MAX_STEPS):
        raise _head("hash_every", f"{_shown(every)} is not an integer from 0 to {MAX_STEPS}")
    kz = _header_killzone(header["killzone"])
    _table(header["rosters"], "rosters", ("A", "B"), ("A", "B"))
    rosters = {p: _header_roster(p, header["rosters"][p]) for p in ("A", "B")}
    try:
        return new_game(kz, rosters["A"], rosters["B"], options)
    except (KillTeamError, ValueError, LookupError) as exc:
        raise _head("rosters", _short(str(exc))) from None


# -------------------------------------------------------------------------------------------
# Replay
# -------------------------------------------------------------------------------------------


@attrs.frozen(slots=True)
class ReplayOutcome:
    """What :func:`replay_record` found.

    Attributes:
        final: the state after the last input.
        header: the record's header (validated).
        steps: the inputs replayed.
        hashes_checked: state hashes compared (input lines and the result line).
        complete: the record has a result line.
    """

    final: GameState
    header: Mapping[str, Any]
    steps: int
    hashes_checked: int
    complete: bool


StepCallback = Callable[[GameState, Action, str, GameState, list[Event]], None]


def _check_step_line(n: int, line: dict[str, Any], expected: int) -> None:
    unknown = sorted(k for k in line if k not in _STEP_FIELDS)
    if unknown:
        raise _line_error(
            n,
            f"unknown field {excerpt(unknown[0])} in an input line "
            f"(allowed: {', '.join(_STEP_FIELDS)})",
        )
    step = line["step"]
    if not _is_int(step):
        raise _line_error(n, f"field 'step': {_shown(step)} is not an integer")
    if step != expected:
        raise _line_error(
            n, f"field 'step': {step} where step {expected} comes (steps are 1, 2, 3... in order)"
        )
    if step > MAX_STEPS:
        raise _line_error(n, f"more than {MAX_STEPS} steps (the most a record may have)")
    actor = line.get("actor")
    if actor not in STEP_ACTORS:
        raise _line_error(
            n, f"field 'actor': {_shown(actor)} is not one of {', '.join(STEP_ACTORS)}"
        )
    if not isinstance(line.get("action"), str):
        raise _line_error(n, f"field 'action': {_shown(line.get('action'))} is not text")
    if "hash" in line and not isinstance(line["hash"], str):
        raise _line_error(n, f"field 'hash': {_shown(line['hash'])} is not text")


def _check_result_line(n: int, line: dict[str, Any], steps: int) -> None:
    unknown = sorted(k for k in line if k not in _RESULT_LINE_FIELDS)
    if unknown:
        raise _line_error(
            n,
            f"unknown field {excerpt(unknown[0])} in the result line "
            f"(allowed: {', '.join(_RESULT_LINE_FIELDS)})",
        )
    for field in ("steps", "hash"):
        if field not in line:
            raise _line_error(n, f"the result line has no field {field!r}")
    if not isinstance(line["hash"], str):
        raise _line_error(n, f"field 'hash': {_shown(line['hash'])} is not text")
    if line["steps"] != steps or not _is_int(line["steps"]):
        raise _line_error(
            n, f"field 'steps': {_shown(line['steps'])} but the record has {steps} inputs"
        )
    if "result" not in line:
        return
    res = line["result"]
    if not isinstance(res, dict):
        raise _line_error(n, f"field 'result': must be a table (object), not {_shown(res)}")
    unknown = sorted(k for k in res if k not in _RESULT_FIELDS)
    missing = [k for k in _RESULT_FIELDS if k not in res]
    if unknown or missing:
        what = f"unknown field {excerpt(unknown[0])}" if unknown else f"no field {missing[0]!r}"
        raise _line_error(n, f"field 'result': {what} (fields: {', '.join(_RESULT_FIELDS)})")
    for field in ("vp", "kill_grades"):
        pair = res[field]
        if not (isinstance(pair, list) and len(pair) == 2 and all(map(_is_int, pair))):
            raise _line_error(n, f"field 'result.{field}': {_shown(pair)} is not two integers")
    if res["winner"] not in ("A", "B", ""):
        raise _line_error(
            n, f"field 'result.winner': {_shown(res['winner'])} is not 'A', 'B' or ''"
        )


def _decider(state: GameState) -> str:
    node = state.node
    if isinstance(node, Chance):
        return "chance"
    if isinstance(node, Decision):
        return node.player
    return "-"


def _at(state: GameState) -> str:
    who = _decider(state)
    if who == "chance":
        return "the engine asks for a chance roll"
    if who == "-":
        return f"the battle ended at step {state.step}"
    return f"player {who} is to decide"


def replay_record(
    record: RecordSource,
    *,
    on_start: Callable[[Mapping[str, Any], GameState], None] | None = None,
    on_step: StepCallback | None = None,
) -> ReplayOutcome:
    """Replay a record line by line and check it (module docstring).

    Args:
        record: a path, a file object (text or binary), or an iterable of lines (text, bytes
            or parsed objects). Read as a stream: only the current line is held.
        on_start: optional ``fn(header, start_state)`` called once the header is checked.
        on_step: optional ``fn(before, action, actor, after, events)`` called per input.

    Returns:
        A :class:`ReplayOutcome` (the final state, the header, counts).

    Raises:
        RecordFormatError: a malformed record (naming the line and the field).
        ReplayError: at the first divergence: an input the engine rejects, another actor
            than the one to decide, a state hash or a result that differs (naming the line
            and the step; for a state hash, the last step whose hash matched).
    """
    lines = iter_record(record)
    first = next(lines, None)
    if first is None:
        raise RecordFormatError("the record is empty")
    header = first[1]
    state = game_from_header(header)
    if on_start is not None:
        on_start(header, state)
    steps = hashes = 0
    matched = 0  # the last step whose state hash matched the record
    done: int | None = None  # the line number of the result line
    for n, line in lines:
        if done is not None:
            raise _line_error(n, f"a line after the result line (line {done})")
        if not isinstance(line, dict):
            raise _line_error(n, f"not a JSON object but {_shown(line)}")
        if "step" not in line:
            if not any(k in line for k in _RESULT_LINE_FIELDS):
                raise _line_error(n, "neither an input line (with 'step') nor the result line")
            _check_result_line(n, line, steps)
            done = n
            got = state.hash()
            hashes += 1
            if line["hash"] != got:
                raise ReplayError(
                    f"record line {n}: the final state hash differs after step {state.step} "
                    f"({got} != {excerpt(line['hash'], 24)})"
                    + (f"; the states last matched at step {matched}" if matched else "")
                )
            res = line.get("result")
            if res is None:
                if state.is_terminal:
                    raise ReplayError(
                        f"record line {n}: the battle ended but the result line has no result"
                    )
                continue
            if not state.is_terminal:
                raise ReplayError(
                    f"record line {n}: the record says the battle ended but it has not"
                )
            r = state.node.result  # type: ignore[union-attr]
            ours = {"vp": list(r.vp), "winner": r.winner, "kill_grades": list(r.kill_grades)}
            if ours != res:
                raise ReplayError(
                    f"record line {n}: result differs: record {dumps_line(res)}, "
                    f"replay {dumps_line(ours)}"
                )
            continue
        _check_step_line(n, line, steps + 1)
        step, actor, text = line["step"], line["actor"], line["action"]
        try:
            action = parse_action(text)
        except KillTeamError as exc:
            raise _line_error(n, f"field 'action': {exc}") from None
        where = f"record line {n}: step {step}"
        if actor != _decider(state):
            raise ReplayError(f"{where}: the record has {actor} acting but {_at(state)}")
        try:
            after, events = state.apply(action)
        except (KillTeamError, ValueError, LookupError, TypeError) as exc:
            raise ReplayError(f"{where}: {excerpt(text)} rejected: {_short(str(exc))}") from None
        if after.step != step:
            raise ReplayError(f"{where}: the engine is at step {after.step}")
        want = line.get("hash")
        if want is not None:
            got = after.hash()
            hashes += 1
            if want != got:
                since = f"; the states last matched at step {matched}" if matched else ""
                raise ReplayError(
                    f"{where}: state hash differs ({got} != {excerpt(want, 24)}){since}"
                )
            matched = step
        if on_step is not None:
            on_step(state, action, actor, after, events)
        state = after
        steps = step
    return ReplayOutcome(
        final=state, header=header, steps=steps, hashes_checked=hashes, complete=done is not None
    )


def replay(record: RecordSource, *, on_step: StepCallback | None = None) -> GameState:
    """Replay a record and check it; the final state (:func:`replay_record`).

    Args:
        record: a path, a file object, or an iterable of lines (text, bytes or parsed
            objects), read one line at a time.
        on_step: optional ``fn(before, action, actor, after, events)`` called per input.

    Raises:
        RecordFormatError: a malformed record (naming the line and the field).
        ReplayError: at the first divergence (naming the line and the step).
    """
    return replay_record(record, on_step=on_step).final
