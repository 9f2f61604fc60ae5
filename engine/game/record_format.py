"""Reading and checking game records (the format described in :mod:`engine.game.record`).

- :func:`iter_record`: a record's lines one at a time (a path, a file object or an iterable
  of lines), each parsed through :mod:`engine.inputs` as ``record line N`` and at most
  :data:`~engine.inputs.MAX_LINE_BYTES` bytes (the header :data:`MAX_HEADER_BYTES`);
- :func:`game_from_header`: the battle a header describes, after checking every field, under
  the ruleset the caller gives (a record of another ruleset is refused);
- :func:`check_step_line` / :func:`check_result_line`: the shape of an input line and of the
  result line.

Limits: :data:`MAX_STEPS` inputs per record, agent names of :data:`MAX_AGENT_CHARS`
characters; records of :data:`READ_FORMATS` only (:data:`FORMAT` and the previous one),
made by an engine of the same major and minor version (``0.1.x`` replays on ``0.1.y``;
another major or minor version, older or newer, is refused because the rules may differ).

Errors: :class:`RecordFormatError` (a malformed record: the message names the line and the
field, quoting at most a short excerpt), a subclass of :class:`ReplayError`.
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
from engine.game.context import MAX_STEPS_LIMIT, GameOptions
from engine.game.context import RULESETS as GAME_RULESETS
from engine.game.setup import start_battle
from engine.game.state import GameState, RulesetLike
from engine.geometry import Killzone
from engine.inputs import MAX_LINE_BYTES, check_tree, excerpt, open_input, parse_json
from engine.inputs import shown as number_shown
from engine.teams.io import team_from_dict
from engine.teams.model import Roster, Team
from engine.teams.roster_file import choice_table

__all__ = [
    "FORMAT",
    "MAX_AGENT_CHARS",
    "MAX_HEADER_BYTES",
    "MAX_STEPS",
    "READ_FORMATS",
    "RESULT_LINE_FIELDS",
    "RULESETS",
    "STEP_ACTORS",
    "RecordFormatError",
    "RecordSource",
    "RecordVerificationError",
    "ReplayError",
    "check_result_line",
    "check_step_line",
    "digest",
    "dumps_line",
    "game_from_header",
    "iter_record",
    "line_error",
    "line_limit",
    "read_record",
    "short_message",
    "shown",
]


FORMAT = 3
"""The record format this engine writes (module docstring): 3 since a move's destination and a
Shoot's weapon and target are decisions of their own (a move may take two inputs, its header
then its destination, or ``Back``; a Shoot its header, ``Shoot KAS-1``, then the complete
shot, ``Shoot KAS-1 bolt pistol at LEG-2``, the ``attack_target`` decision)."""

READ_FORMATS = (2, 3)
"""The record formats this engine reads: :data:`FORMAT`, and format 2, whose inputs (every
move and every Shoot one complete action) are all still legal in one step and reach the same
states."""

MAX_STEPS = MAX_STEPS_LIMIT
"""The most inputs a record may have (and the most ``options.max_steps`` may allow): the
engine's own safety limit per battle. Real battles are far below it (the default battle has
264 inputs, random-agent battles about 300 to 350)."""

MAX_HEADER_BYTES = 16 * 1024 * 1024
"""The largest header line (16 MiB): it carries both teams' data and the killzone layout (the
default battle's header is about 37 kB). Every other line is at most
:data:`~engine.inputs.MAX_LINE_BYTES`."""

RULESETS = GAME_RULESETS
"""The rulesets this engine plays: the names :class:`~engine.game.context.GameOptions`
accepts (one list, :data:`engine.game.context.RULESETS`; :data:`engine.rulesets.RULESETS`
gives each its composition root, and a test keeps the two equal)."""

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
_HEADER_OPTIONAL = ("agent_seeds",)
_KILLZONE_FIELDS = ("hash", "layout", "name", "version")
_ROSTER_FIELDS = ("data_version", "hash", "operatives", "team", "team_id", "weapons")
_ROSTER_OPTIONAL = ("choices", "operative_choices")
_STEP_FIELDS = ("action", "actor", "hash", "step")
RESULT_LINE_FIELDS = ("hash", "result", "steps")
"""The fields of the result line (a line with any of them and no ``step`` is one)."""
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


class RecordVerificationError(ReplayError):
    """A record that replays but does not follow what its header says (``engine.verify``):
    a roll that the recorded seed's dice do not give, a decision that the named built-in
    agent with its seed does not make, a built-in team id whose team data differs from the
    built-in team's, or (when every part must be verified) a part that cannot be verified.
    The message names the line (and the step) and what differs."""


def dumps_line(obj: Mapping[str, Any]) -> str:
    """One record line: JSON with sorted keys and no spaces."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def digest(text: str) -> str:
    """The content hash of a header part: the first 16 hex digits of its SHA-256."""
    return _sha(text)[:16]


# -------------------------------------------------------------------------------------------
# Reading, line by line
# -------------------------------------------------------------------------------------------

RecordSource = str | os.PathLike[str] | IO[str] | IO[bytes] | Iterable[Any]
"""What :func:`replay` reads: a path, a file object (text or binary), or an iterable of lines
(text, bytes, or already parsed objects)."""


def short_message(message: str) -> str:
    """Another loader's message on one line and at most a few hundred characters."""
    one = " ".join(message.split())
    return one if len(one) <= 300 else one[:300] + "..."


def line_error(n: int, message: str) -> RecordFormatError:
    """The error for record line ``n`` (1 is the header): ``record line n: message``."""
    return RecordFormatError(f"record line {n}: {message}")


def line_limit(n: int) -> int:
    """The most bytes line ``n`` may have: :data:`MAX_HEADER_BYTES` for the header (line 1),
    :data:`~engine.inputs.MAX_LINE_BYTES` for every other line."""
    return MAX_HEADER_BYTES if n == 1 else MAX_LINE_BYTES


def _decode(raw: str | bytes, n: int) -> str:
    limit = line_limit(n)
    if isinstance(raw, bytes):
        body = raw.rstrip(b"\r\n")
        if len(body) > limit:
            raise line_error(n, f"longer than {limit} bytes")
        try:
            return body.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise line_error(n, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    text = raw.rstrip("\r\n")
    # A text of at most limit/4 characters cannot pass the limit in UTF-8.
    if 4 * len(text) > limit and len(text.encode("utf-8", "surrogatepass")) > limit:
        raise line_error(n, f"longer than {limit} bytes")
    return text


def _file_lines(fh: IO[Any]) -> Iterator[str | bytes]:
    n = 1
    while True:
        # At most two bytes (or characters) past the limit are read: a longer line is
        # refused without holding it.
        raw = fh.readline(line_limit(n) + 2)
        if not raw:
            return
        yield raw
        n += 1


def _path_name(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 200 and text.isprintable() else excerpt(text)


def _raw_lines(source: RecordSource) -> Iterator[tuple[int, Any]]:
    """(line number, text/bytes/object) for each line of ``source``, one at a time."""
    if isinstance(source, str) and "\n" in source:
        raise RecordFormatError(
            "a record given as one text is not a path: pass its lines (text.splitlines()), "
            "a file object (io.StringIO(text)) or the path of its file"
        )
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        # Only a regular file: a folder, a device or a FIFO (never opened: it would block)
        # each get their own message (engine.inputs.open_input).
        fh = open_input(path, RecordFormatError, "record file", _path_name(path))
        with fh:
            try:
                yield from enumerate(_file_lines(fh), 1)
            except OSError as exc:
                raise RecordFormatError(
                    f"{_path_name(path)}: cannot read record: {exc.strerror or exc}"
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
        RecordFormatError: a missing path, a folder, a path that is not a regular file (a
            device, a FIFO: refused without blocking), an unreadable file, a line longer
            than :func:`line_limit`, not UTF-8, not JSON (a key given twice included) or
            beyond the limits of :mod:`engine.inputs` (naming the line).
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


def shown(value: Any) -> str:
    """A value read from a record, for a message (JSON words, at most a short excerpt)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, str):
        return excerpt(value)
    if isinstance(value, dict | list):
        return f"a {'table' if isinstance(value, dict) else 'list'}"
    if isinstance(value, int | float):  # a number as a number (5, not '5': that is a string)
        return number_shown(value)
    return excerpt(repr(value))


def _table(value: Any, field: str, allowed: tuple[str, ...], required: tuple[str, ...]) -> None:
    if not isinstance(value, dict):
        raise _head(field, f"must be a table (object), not {shown(value)}")
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
        raise _head("engine", f"{shown(value)} is not an engine version (like '0.1.0')")
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
        if not _OPTION_CHECKS[name](got):
            raise _head(f"options.{name}", f"{shown(got)} is not {_OPTION_KINDS[name]}")
    if value.get("ruleset", RULESET) not in RULESETS:
        raise _head("options.ruleset", f"unknown ruleset {excerpt(value['ruleset'])}")
    try:
        return GameOptions(**value)
    except (KillTeamError, ValueError, TypeError) as exc:  # the options' own checks
        raise _head("options", short_message(str(exc))) from None


_OPTION_CHECKS: dict[str, Callable[[Any], bool]] = {
    "ruleset": lambda v: isinstance(v, str),
    "initiative_cards": lambda v: isinstance(v, bool),
    "objectives_pickup": lambda v: isinstance(v, bool),
    "close_quarters": lambda v: v is None or isinstance(v, bool),
    "max_steps": lambda v: _is_int(v) and 1 <= v <= MAX_STEPS,
    "open_windows": lambda v: isinstance(v, bool),
    "ploy_costs": lambda v: isinstance(v, list) and len(v) <= 200,
    "equipment": lambda v: isinstance(v, list) and len(v) <= 2,
    "mission": lambda v: isinstance(v, str),
    "crit_op": lambda v: isinstance(v, str) and len(v) <= 60,
    "tac_ops": lambda v: isinstance(v, list) and len(v) <= 2,
    "primary_ops": lambda v: isinstance(v, list) and len(v) <= 2,
}
_OPTION_KINDS = {
    "ruleset": "a ruleset name",
    "initiative_cards": "true or false",
    "objectives_pickup": "true or false",
    "close_quarters": "true, false or null",
    "max_steps": f"an integer from 1 to {MAX_STEPS}",
    "open_windows": "true or false",
    "ploy_costs": "a list of [ploy name, CP] pairs",
    "equipment": "a list of [player, [equipment names]] pairs",
    "mission": "a mission name",
    "crit_op": "a crit op name (or empty)",
    "tac_ops": "a list of [player, tac op name] pairs",
    "primary_ops": "a list of [player, crit|tac|kill] pairs",
}


def _header_killzone(value: Any) -> Killzone:
    _table(value, "killzone", _KILLZONE_FIELDS, _KILLZONE_FIELDS)
    layout = value["layout"]
    if not isinstance(layout, dict):
        raise _head("killzone.layout", f"must be a table (object), not {shown(layout)}")
    text = dumps_line(layout)
    if digest(text) != value["hash"]:
        raise _head("killzone.hash", "the layout does not match its content hash")
    key = _sha(text)
    kz = _KILLZONES.get(key)
    if kz is None:
        try:
            kz = Killzone.from_dict(layout, source="killzone layout")
        except (KillTeamError, ValueError, TypeError, LookupError) as exc:
            raise _head("killzone.layout", short_message(str(exc))) from None
        _KILLZONES[key] = kz
        while len(_KILLZONES) > _KILLZONE_CACHE_SIZE:
            _KILLZONES.popitem(last=False)
    else:
        _KILLZONES.move_to_end(key)
    for field in ("name", "version"):
        if value[field] != getattr(kz, field):
            raise _head(
                f"killzone.{field}",
                f"{shown(value[field])} but the layout's is {excerpt(getattr(kz, field))}",
            )
    return kz


def _header_roster(player: str, rh: Any) -> Roster:
    """The roster of a record header, its loadouts checked against the weapons the record
    says each operative carried (1.2)."""
    field = f"rosters.{player}"
    _table(rh, field, _ROSTER_FIELDS + _ROSTER_OPTIONAL, _ROSTER_FIELDS)
    data = rh["team"]
    if not isinstance(data, dict):
        raise _head(f"{field}.team", f"must be a table (object), not {shown(data)}")
    if digest(dumps_line(data)) != rh["hash"]:
        raise _head(f"{field}.hash", "the team data does not match its content hash")
    try:
        team: Team = team_from_dict(data, source="team data")
    except (KillTeamError, ValueError, TypeError, LookupError) as exc:
        raise _head(f"{field}.team", short_message(str(exc))) from None
    if rh["team_id"] != team.id:
        raise _head(f"{field}.team_id", f"{shown(rh['team_id'])} but the team is {team.id!r}")
    if rh["data_version"] != team.provenance.dataslate:
        raise _head(
            f"{field}.data_version",
            f"{shown(rh['data_version'])} but the team data is "
            f"{excerpt(team.provenance.dataslate)}",
        )
    entries = rh["operatives"]
    if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
        raise _head(f"{field}.operatives", "must list roster entries (text)")
    try:
        roster = Roster.from_entries(team, entries)
    except ValueError as exc:
        raise _head(f"{field}.operatives", short_message(str(exc))) from None
    try:
        choices = choice_table(rh.get("choices", {}), "choices")
        per_op = rh.get("operative_choices", [])
        if not isinstance(per_op, list):
            raise ValueError("must list one table of choices per operative")
        roster = roster.with_choices(
            choices, [choice_table(v, f"operative_choices[{k}]") for k, v in enumerate(per_op)]
        )
    except ValueError as exc:
        raise _head(f"{field}.choices", short_message(str(exc))) from None
    problems = roster.validate()
    if problems:
        raise _head(
            f"{field}.operatives", short_message("roster not legal: " + "; ".join(problems))
        )
    recorded = rh["weapons"]
    if not isinstance(recorded, list) or len(recorded) != len(entries):
        raise _head(f"{field}.weapons", "must list one list of weapon names per operative")
    for k, (entry, listed) in enumerate(zip(entries, recorded, strict=True)):
        try:
            carried = [w.name for w in roster.datacard(k).weapons]
        except (KillTeamError, ValueError, LookupError) as exc:
            raise _head(f"{field}.operatives[{k}]", short_message(str(exc))) from None
        if listed != carried:
            raise _head(
                f"{field}.weapons[{k}]",
                short_message(
                    f"operative {k + 1} ({entry}): the record lists weapons {listed}, "
                    f"its loadout gives {carried}"
                ),
            )
    return roster


def game_from_header(header: Any, under: RulesetLike) -> GameState:
    """A new battle of ``under`` built from a record header (line 1), after checking every
    field of it (module docstring). Opens no file.

    Args:
        header: the parsed header line.
        under: the ruleset to replay under (:class:`~engine.game.state.RulesetLike`,
            e.g. :func:`engine.rulesets.get` of the name the caller expects).

    Raises:
        RecordFormatError: naming the header field: not a record header, a format other
            not in :data:`READ_FORMATS`, an engine of another major or minor version, an unknown
            ruleset or one other than ``under`` (a record never replays under another
            ruleset), a malformed or tampered killzone or team, an illegal roster, a bad
            option, seed, agents, agent seeds or ``hash_every``.
    """
    if not isinstance(header, dict) or header.get("record") != "killteam-game":
        raise RecordFormatError("record line 1 is not a killteam game record header")
    fmt = header.get("format")
    if not _is_int(fmt) or fmt not in READ_FORMATS:
        known = " and ".join(str(f) for f in READ_FORMATS)
        if fmt == 1 and _is_int(fmt):
            why = (
                "format 1 named the killzone's file, this engine reads only self-contained "
                f"records (formats {known}); record the battle again"
            )
        else:
            why = f"{shown(fmt)} is not a record format this engine reads ({known})"
        raise _head("format", why)
    _table(header, "header", _HEADER_FIELDS + _HEADER_OPTIONAL, _HEADER_FIELDS)
    _check_engine(header["engine"])
    ruleset = header["ruleset"]
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        raise _head("ruleset", f"unknown ruleset {shown(ruleset)} (known: {', '.join(RULESETS)})")
    if ruleset != under.name:
        raise _head(
            "ruleset",
            f"a record of the ruleset {ruleset!r} does not replay under the ruleset "
            f"{under.name!r:.60}",
        )
    options = _check_options(header["options"])
    if options.ruleset != ruleset:
        raise _head("options.ruleset", f"{options.ruleset!r} but the header's is {ruleset!r}")
    seed = header["seed"]
    if seed is not None and not (_is_int(seed) and seed >= 0):
        raise _head("seed", f"{shown(seed)} is not null or an integer >= 0")
    agents = header["agents"]
    _table(agents, "agents", ("A", "B"), ("A", "B"))
    for p in ("A", "B"):
        name = agents[p]
        if not isinstance(name, str) or not name or len(name) > MAX_AGENT_CHARS:
            raise _head(
                f"agents.{p}", f"{shown(name)} is not a name (1 to {MAX_AGENT_CHARS} characters)"
            )
    if "agent_seeds" in header:
        seeds = header["agent_seeds"]
        _table(seeds, "agent_seeds", ("A", "B"), ("A", "B"))
        for p in ("A", "B"):
            if not (_is_int(seeds[p]) and seeds[p] >= 0):
                raise _head(f"agent_seeds.{p}", f"{shown(seeds[p])} is not an integer >= 0")
    every = header["hash_every"]
    if not (_is_int(every) and 0 <= every <= MAX_STEPS):
        raise _head("hash_every", f"{shown(every)} is not an integer from 0 to {MAX_STEPS}")
    kz = _header_killzone(header["killzone"])
    _table(header["rosters"], "rosters", ("A", "B"), ("A", "B"))
    rosters = {p: _header_roster(p, header["rosters"][p]) for p in ("A", "B")}
    try:
        return start_battle(kz, rosters["A"], rosters["B"], options, under)
    except (KillTeamError, ValueError, LookupError) as exc:
        raise _head("rosters", short_message(str(exc))) from None


# -------------------------------------------------------------------------------------------
# Input lines and the result line
# -------------------------------------------------------------------------------------------


def check_step_line(n: int, line: dict[str, Any], expected: int) -> None:
    """Check input line ``n`` (a JSON object with ``step``) whose step should be ``expected``.

    Raises:
        RecordFormatError: an unknown field, a step out of order or past :data:`MAX_STEPS`,
            an actor other than ``A``, ``B`` or ``chance``, an action or hash not text.
    """
    unknown = sorted(k for k in line if k not in _STEP_FIELDS)
    if unknown:
        raise line_error(
            n,
            f"unknown field {excerpt(unknown[0])} in an input line "
            f"(allowed: {', '.join(_STEP_FIELDS)})",
        )
    step = line["step"]
    if not _is_int(step):
        raise line_error(n, f"field 'step': {shown(step)} is not an integer")
    if step != expected:
        raise line_error(
            n, f"field 'step': {step} where step {expected} comes (steps are 1, 2, 3... in order)"
        )
    if step > MAX_STEPS:
        raise line_error(n, f"more than {MAX_STEPS} steps (the most a record may have)")
    actor = line.get("actor")
    if actor not in STEP_ACTORS:
        raise line_error(n, f"field 'actor': {shown(actor)} is not one of {', '.join(STEP_ACTORS)}")
    if not isinstance(line.get("action"), str):
        raise line_error(n, f"field 'action': {shown(line.get('action'))} is not text")
    if "hash" in line and not isinstance(line["hash"], str):
        raise line_error(n, f"field 'hash': {shown(line['hash'])} is not text")


def check_result_line(n: int, line: dict[str, Any], steps: int) -> None:
    """Check the result line ``n`` of a record of ``steps`` inputs.

    Raises:
        RecordFormatError: an unknown or missing field, ``steps`` other than the inputs
            read, a ``result`` that is not ``vp`` and ``kill_grades`` (two integers each) and
            ``winner`` (``"A"``, ``"B"`` or ``""``).
    """
    unknown = sorted(k for k in line if k not in RESULT_LINE_FIELDS)
    if unknown:
        raise line_error(
            n,
            f"unknown field {excerpt(unknown[0])} in the result line "
            f"(allowed: {', '.join(RESULT_LINE_FIELDS)})",
        )
    for field in ("steps", "hash"):
        if field not in line:
            raise line_error(n, f"the result line has no field {field!r}")
    if not isinstance(line["hash"], str):
        raise line_error(n, f"field 'hash': {shown(line['hash'])} is not text")
    if line["steps"] != steps or not _is_int(line["steps"]):
        raise line_error(
            n, f"field 'steps': {shown(line['steps'])} but the record has {steps} inputs"
        )
    if "result" not in line:
        return
    res = line["result"]
    if not isinstance(res, dict):
        raise line_error(n, f"field 'result': must be a table (object), not {shown(res)}")
    unknown = sorted(k for k in res if k not in _RESULT_FIELDS)
    missing = [k for k in _RESULT_FIELDS if k not in res]
    if unknown or missing:
        what = f"unknown field {excerpt(unknown[0])}" if unknown else f"no field {missing[0]!r}"
        raise line_error(n, f"field 'result': {what} (fields: {', '.join(_RESULT_FIELDS)})")
    for field in ("vp", "kill_grades"):
        pair = res[field]
        if not (isinstance(pair, list) and len(pair) == 2 and all(map(_is_int, pair))):
            raise line_error(n, f"field 'result.{field}': {shown(pair)} is not two integers")
    if res["winner"] not in ("A", "B", ""):
        raise line_error(n, f"field 'result.winner': {shown(res['winner'])} is not 'A', 'B' or ''")
