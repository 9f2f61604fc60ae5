"""Game records (JSON Lines) and replay.

A record is a header line, one line per input, and a result line::

    {"record": "killteam-game", "format": 3, "engine": "0.1.0", "ruleset": "kt24",
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

**Format 3** (this one): a move action may take two inputs, its header (``Reposition
KAS-1``, the action chosen) then its destination (``Reposition KAS-1 to 8,4``, the
``destination`` decision), or ``Back`` when the move has no destination; a Shoot likewise, its
header (``Shoot KAS-1``) then the complete shot (``Shoot KAS-1 bolt pistol at LEG-2``, the
``attack_target`` decision); a complete move or Shoot in one input is still legal. Format 2
(every move and Shoot one complete input) replays unchanged: its inputs are all still legal
and reach the same states (:data:`~engine.game.record_format.READ_FORMATS`). Format 1 named
the killzone (name, version, source file and file hash) and replay loaded it from that file;
format-1 records are rejected with a message saying so (re-record the battle).

**Validation.** :func:`replay` reads a record as a stream, one line at a time (a path, a file
object or an iterable of lines; it keeps only the header's battle and the last hash-checked
step, never all lines), and checks everything it reads:

- each line: UTF-8, at most :data:`~engine.inputs.MAX_LINE_BYTES` bytes (the header
  :data:`~engine.game.record_format.MAX_HEADER_BYTES`), JSON within the
  limits of :mod:`engine.inputs` (parsed as ``record line N``), an object;
- the header (line 1): ``record``, ``format`` (:data:`FORMAT`, or 2:
  :data:`~engine.game.record_format.READ_FORMATS`), ``engine`` (same major and
  minor version as this engine: ``0.1.x`` replays on ``0.1.y``; another major or minor
  version, older or newer, is refused because the rules may differ), ``ruleset``
  (:data:`RULESETS`, and the ruleset the replay is under: a record never replays under
  another ruleset), ``killzone`` (layout validated, hash checked), ``rosters`` (team data
  validated, hash checked, each roster legal under its team's selection rules, the weapons
  listed per operative those its loadout gives; optional ``choices`` and
  ``operative_choices``: the roster-time choices, written resolved, defaults included,
  :class:`engine.rules.registry.ChoiceSpec`), ``options`` (every field known and of its
  type), ``seed`` (``null`` or an integer >= 0), ``agents`` (a name per player), ``hash_every``,
  optional ``agent_seeds`` (an integer >= 0 per player: the seeds the agents were made with;
  without it the rule of ``killteam play``, ``2 * seed`` for A and ``2 * seed + 1`` for B, is
  what the header implies); no other field;
- each input line: ``step`` (1, 2, 3... in order, at most :data:`MAX_STEPS`), ``actor``
  (``"A"``, ``"B"`` or ``"chance"``), ``action`` (the notation of
  :mod:`engine.game.actions`), optional ``hash``; no other field;
- the result line: ``steps`` (the number of inputs), ``hash``, and for a finished battle
  ``result`` (``vp``, ``winner``, ``kill_grades``); nothing may follow it.

A malformed record raises :class:`RecordFormatError`; a well-formed record that the engine
does not reproduce (an input the rules reject, another player to decide, a state hash or a
result that differs) raises :class:`ReplayError`. Both name the line (``record line N``) and
the field, and quote at most a short excerpt of what they read.

**What replay does not check.** A replay checks that the inputs are legal and reproduce the
recorded states and result; it does not check that the rolls are those of the recorded seed,
that the decisions are those of the named agents, or that a built-in team id carries the
built-in team's data: a record re-recorded with a forged roll (every state hash genuine)
replays. :func:`engine.verify.verify_record` checks those (through the ``check`` and
``on_start`` hooks of :func:`replay_record`) and raises :class:`RecordVerificationError`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from engine import __version__
from engine.errors import KillTeamError
from engine.game.actions import Action, format_action, parse_action
from engine.game.events import Event
from engine.game.record_format import (
    FORMAT,
    MAX_HEADER_BYTES,
    MAX_STEPS,
    RESULT_LINE_FIELDS,
    RULESETS,
    RecordFormatError,
    RecordSource,
    RecordVerificationError,
    ReplayError,
    check_result_line,
    check_step_line,
    digest,
    dumps_line,
    game_from_header,
    iter_record,
    line_error,
    read_record,
    short_message,
    shown,
)
from engine.game.state import Chance, Decision, GameState, RulesetLike
from engine.geometry import Killzone
from engine.inputs import excerpt
from engine.teams.io import team_to_dict
from engine.teams.model import Roster, format_entry

__all__ = [
    "FORMAT",
    "MAX_STEPS",
    "RULESETS",
    "GameRecorder",
    "InputCheck",
    "RecordFormatError",
    "RecordVerificationError",
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
        "hash": digest(dumps_line(layout)),
        "layout": layout,
    }


def _roster_header(r: Roster) -> dict[str, Any]:
    team = team_to_dict(r.team)
    text = dumps_line(team)
    return {
        "team_id": r.team.id,
        "data_version": r.team.provenance.dataslate,
        "hash": digest(text),
        "operatives": [
            format_entry(name, r.resolved_loadout(k)) for k, name in enumerate(r.operatives)
        ],
        "weapons": [[w.name for w in r.datacard(k).weapons] for k in range(len(r.operatives))],
        "team": team,
        "choices": {n: list(v) for n, v in r.resolved_choices().items()},
        "operative_choices": [
            {n: list(v) for n, v in r.resolved_operative_choices(k).items()}
            for k in range(len(r.operatives))
        ],
    }


def make_header(
    state: GameState,
    *,
    seed: int | None,
    agents: Mapping[str, str],
    hash_every: int = 25,
    agent_seeds: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """The header line of a record for the battle ``state`` belongs to (module docstring).

    Args:
        state: any state of the battle (its context gives killzone, rosters and options).
        seed: the dice seed, or ``None``.
        agents: ``{"A": name, "B": name}``.
        hash_every: a state hash is recorded every this many inputs (0: none).
        agent_seeds: ``{"A": seed, "B": seed}``, the seeds the agents were made with, written
            as the header field ``agent_seeds``; ``None`` (the default, and what
            ``killteam play`` writes) leaves it out: the agents then had the seeds
            ``2 * seed`` and ``2 * seed + 1`` (:func:`engine.play.agent_seeds`).
    """
    ctx = state.ctx
    extra: dict[str, Any] = {}
    if agent_seeds is not None:
        extra["agent_seeds"] = {p: int(agent_seeds[p]) for p in ("A", "B")}
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
        **extra,
    }


class GameRecorder:
    """Collects record lines while a battle is played (pass :meth:`on_step` to
    :func:`engine.game.drivers.play`).

    Raises:
        RecordFormatError: (on creation) a header line longer than
            :data:`~engine.game.record_format.MAX_HEADER_BYTES`, which no replay would read.
    """

    def __init__(self, header: dict[str, Any]) -> None:
        self.header = header
        self.hash_every = int(header.get("hash_every", 25))
        first = dumps_line(header)
        size = len(first.encode())
        if size > MAX_HEADER_BYTES:
            raise RecordFormatError(
                f"the record header would be {size} bytes, more than {MAX_HEADER_BYTES}: the "
                "teams' and the killzone's data are too large to record"
            )
        self.lines: list[str] = [first]
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

InputCheck = Callable[[GameState, Action, str], str | None]
"""``fn(state, action, actor)``, called before each input is applied: ``None`` when the input
is as expected, else one line saying what differs (:func:`replay_record` raises
:class:`RecordVerificationError` naming the record line and the step)."""


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
    ruleset: RulesetLike,
    on_start: Callable[[Mapping[str, Any], GameState], None] | None = None,
    on_step: StepCallback | None = None,
    check: InputCheck | None = None,
) -> ReplayOutcome:
    """Replay a record line by line and check it (module docstring).

    Args:
        record: a path, a file object (text or binary), or an iterable of lines (text, bytes
            or parsed objects). Read as a stream: only the current line is held.
        ruleset: the ruleset to replay under (:func:`engine.rulesets.get`); a record whose
            header names another is refused (:class:`RecordFormatError`).
        on_start: optional ``fn(header, start_state)`` called once the header is checked.
        on_step: optional ``fn(before, action, actor, after, events)`` called per input.
        check: optional ``fn(state, action, actor) -> None | what differs``, called for each
            input in order, once its actor is checked and before it is applied
            (:data:`InputCheck`; :func:`engine.verify.verify_record` checks the dice and the
            agents with it).

    Returns:
        A :class:`ReplayOutcome` (the final state, the header, counts).

    Raises:
        RecordFormatError: a malformed record (naming the line and the field).
        ReplayError: at the first divergence: an input the engine rejects, another actor
            than the one to decide, a state hash or a result that differs (naming the line
            and the step; for a state hash, the last step whose hash matched).
        RecordVerificationError: ``check`` found an input not as expected (naming the line
            and the step); ``on_start`` and ``on_step`` may raise it too.
    """
    lines = iter_record(record)
    first = next(lines, None)
    if first is None:
        raise RecordFormatError("the record is empty")
    header = first[1]
    state = game_from_header(header, ruleset)
    if on_start is not None:
        on_start(header, state)
    steps = hashes = 0
    matched = 0  # the last step whose state hash matched the record
    done: int | None = None  # the line number of the result line
    for n, line in lines:
        if done is not None:
            raise line_error(n, f"a line after the result line (line {done})")
        if not isinstance(line, dict):
            raise line_error(n, f"not a JSON object but {shown(line)}")
        if "step" not in line:
            if not any(k in line for k in RESULT_LINE_FIELDS):
                raise line_error(n, "neither an input line (with 'step') nor the result line")
            check_result_line(n, line, steps)
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
        check_step_line(n, line, steps + 1)
        step, actor, text = line["step"], line["actor"], line["action"]
        try:
            action = parse_action(text)
        except KillTeamError as exc:
            raise line_error(n, f"field 'action': {exc}") from None
        where = f"record line {n}: step {step}"
        if actor != _decider(state):
            raise ReplayError(f"{where}: the record has {actor} acting but {_at(state)}")
        if check is not None:
            differs = check(state, action, actor)
            if differs is not None:
                raise RecordVerificationError(f"{where}: {differs}")
        try:
            after, events = state.apply(action)
        except (KillTeamError, ValueError, LookupError, TypeError) as exc:
            raise ReplayError(
                f"{where}: {excerpt(text)} rejected: {short_message(str(exc))}"
            ) from None
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


def replay(
    record: RecordSource, *, ruleset: RulesetLike, on_step: StepCallback | None = None
) -> GameState:
    """Replay a record and check it; the final state (:func:`replay_record`).

    Args:
        record: a path, a file object, or an iterable of lines (text, bytes or parsed
            objects), read one line at a time.
        ruleset: the ruleset to replay under (a record of another is refused).
        on_step: optional ``fn(before, action, actor, after, events)`` called per input.

    Raises:
        RecordFormatError: a malformed record (naming the line and the field).
        ReplayError: at the first divergence (naming the line and the step).
    """
    return replay_record(record, ruleset=ruleset, on_step=on_step).final
