"""Game records (JSON Lines) and replay.

A record is a header line, one line per input, and a result line::

    {"record": "killteam-game", "format": 1, "engine": "0.1.0", "ruleset": "kt24",
     "killzone": {...}, "rosters": {"A": {...}, "B": {...}}, "options": {...}, "seed": 1,
     "agents": {"A": "random", "B": "random"}, "hash_every": 25}
    {"step": 1, "actor": "chance", "action": "roll 4,2"}
    {"step": 2, "actor": "A", "action": "Initiative A"}
    ...
    {"step": 25, "actor": "B", "action": "Pass", "hash": "..."}
    {"result": {"vp": [3, 1], "winner": "A"}, "steps": 290, "hash": "..."}

The header carries each roster's whole team data (so a record replays without the files it
was made from) with a content hash, the killzone's name, version, source and content hash,
and the game options. Lines are written with sorted keys and no spaces, so the same inputs and
seed give a byte-identical record. :func:`replay` rebuilds the battle from the header,
re-applies every input and checks every state hash, raising :class:`ReplayError` at the first
divergence.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from engine import __version__
from engine.errors import KillTeamError
from engine.game.actions import Action, format_action, parse_action
from engine.game.context import GameOptions
from engine.game.events import Event
from engine.game.setup import new_game
from engine.game.state import Chance, Decision, GameState
from engine.geometry import Killzone, load_killzone, shipped_killzones
from engine.teams.io import team_from_dict, team_to_dict
from engine.teams.model import Roster, Team, format_entry

__all__ = [
    "GameRecorder",
    "ReplayError",
    "dumps_line",
    "game_from_header",
    "make_header",
    "read_record",
    "replay",
    "write_record",
]

FORMAT = 1
_KILLZONES: dict[tuple[str, str], Killzone] = {}


class ReplayError(KillTeamError, ValueError):
    """A record does not replay: the message names the step and what differs."""


def dumps_line(obj: Mapping[str, Any]) -> str:
    """One record line: JSON with sorted keys and no spaces."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _killzone_header(kz: Killzone) -> dict[str, Any]:
    src = Path(kz.source)
    text = src.read_text(encoding="utf-8") if src.is_file() else ""
    shipped = kz.name in shipped_killzones() and src.parent.name == "killzones"
    return {
        "name": kz.name,
        "version": kz.version,
        "source": kz.name if shipped else str(src),
        "hash": _digest(text) if text else "",
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
    """The header line of a record for the battle ``state`` belongs to."""
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


def game_from_header(header: Mapping[str, Any]) -> GameState:
    """A new battle built from a record header.

    Raises:
        ReplayError: not a record header, an unknown format, a killzone that cannot be found,
            or team data whose hash does not match.
    """
    if header.get("record") != "killteam-game":
        raise ReplayError("line 1 is not a killteam game record header")
    if header.get("format") != FORMAT:
        raise ReplayError(f"record format {header.get('format')!r} is not supported ({FORMAT})")
    kzh = header["killzone"]
    key = (kzh["source"], kzh.get("hash", ""))
    kz = _KILLZONES.get(key)
    if kz is None:
        try:
            kz = load_killzone(kzh["source"])
        except KillTeamError as exc:
            raise ReplayError(f"record killzone: {exc}") from None
        if kzh.get("hash") and _killzone_header(kz)["hash"] == kzh["hash"]:
            _KILLZONES[key] = kz  # the same layout value, so its movement graphs are reused
    if kz.version != kzh["version"]:
        raise ReplayError(
            f"record killzone {kz.name} version {kzh['version']} but {kz.version} is loaded"
        )
    if kzh.get("hash"):
        now = _killzone_header(kz)["hash"]
        if now and now != kzh["hash"]:
            raise ReplayError(f"killzone {kz.name} file changed since the record (hash differs)")
    rosters = {}
    for p in ("A", "B"):
        rh = header["rosters"][p]
        if _digest(dumps_line(rh["team"])) != rh["hash"]:
            raise ReplayError(f"roster {p}: team data does not match its content hash")
        team = team_from_dict(rh["team"], source=f"record roster {p}")
        rosters[p] = _replayed_roster(p, team, rh)
    options = GameOptions(**header.get("options", {}))
    return new_game(kz, rosters["A"], rosters["B"], options)


def _replayed_roster(player: str, team: Team, rh: Mapping[str, Any]) -> Roster:
    """The roster of a record header, its loadouts checked against the weapons the record
    says each operative carried (1.2).

    Raises:
        ReplayError: a malformed entry, an illegal roster, or an operative whose loadout
            gives other weapons than the record lists.
    """
    entries = rh.get("operatives")
    if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
        raise ReplayError(f"roster {player}: 'operatives' must list roster entries")
    try:
        roster = Roster.from_entries(team, entries)
    except ValueError as exc:
        raise ReplayError(f"roster {player}: {exc}") from None
    problems = roster.validate()
    if problems:
        raise ReplayError(f"roster {player} is not legal: " + "; ".join(problems))
    recorded = rh.get("weapons")
    if recorded is not None:
        if not isinstance(recorded, list) or len(recorded) != len(entries):
            raise ReplayError(f"roster {player}: 'weapons' must list one list per operative")
        for k, (entry, listed) in enumerate(zip(entries, recorded, strict=True)):
            carried = [w.name for w in roster.datacard(k).weapons]
            if listed != carried:
                raise ReplayError(
                    f"roster {player} operative {k + 1} ({entry}): the record lists weapons "
                    f"{listed}, its loadout gives {carried}"
                )
    return roster


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


def read_record(source: str | Path | Sequence[str]) -> list[dict[str, Any]]:
    """The parsed lines of a record file (or of its lines).

    Raises:
        ReplayError: a missing file or a line that is not JSON (naming the line)."""
    if isinstance(source, (str, Path)):
        try:
            lines = Path(source).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise ReplayError(f"{source}: cannot read record: {exc}") from None
    else:
        lines = list(source)
    out = []
    for k, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise ReplayError(f"record line {k} is not JSON: {exc}") from None
    if not out:
        raise ReplayError("the record is empty")
    return out


def replay(
    record: str | Path | Sequence[str] | Sequence[Mapping[str, Any]],
    *,
    on_step: Any = None,
) -> GameState:
    """Replay a record and check it.

    Args:
        record: a path, the record's lines, or already parsed lines.
        on_step: optional ``fn(before, action, actor, after, events)`` called per input.

    Returns:
        The final state.

    Raises:
        ReplayError: at the first divergence: an input the engine rejects, an actor that is
            not the one to decide, a state hash that differs, or a different result.
    """
    if isinstance(record, (str, Path)) or (record and isinstance(record[0], str)):
        lines = read_record(record)  # type: ignore[arg-type]
    else:
        lines = [dict(x) for x in record]  # type: ignore[arg-type]
    state = game_from_header(lines[0])

    for line in lines[1:]:
        if "step" not in line:
            want = line.get("hash")
            if want and want != state.hash():
                raise ReplayError(f"final state hash differs after step {state.step}")
            res = line.get("result")
            if res is not None:
                if not state.is_terminal:
                    raise ReplayError("the record says the battle ended but it has not")
                got = state.node.result  # type: ignore[union-attr]
                if list(got.vp) != res["vp"] or got.winner != res["winner"]:
                    raise ReplayError(
                        f"result differs: record {res}, replay vp {list(got.vp)} "
                        f"winner {got.winner!r}"
                    )
            continue
        step = line["step"]
        node = state.node
        actor = (
            "chance"
            if isinstance(node, Chance)
            else (node.player if isinstance(node, Decision) else "-")
        )
        if actor != line["actor"]:
            raise ReplayError(
                f"step {step}: the record has {line['actor']} acting but the engine is at {node!r}"
            )
        try:
            action = parse_action(line["action"])
            after, events = state.apply(action)
        except KillTeamError as exc:
            raise ReplayError(f"step {step}: {line['action']!r} rejected: {exc}") from None
        if after.step != step:
            raise ReplayError(f"step {step}: the engine is at step {after.step}")
        want = line.get("hash")
        if want and want != after.hash():
            raise ReplayError(f"step {step}: state hash differs ({after.hash()} != {want})")
        if on_step is not None:
            on_step(state, action, actor, after, events)
        state = after
    return state
