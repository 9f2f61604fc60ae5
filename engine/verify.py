"""Verifying a game record between players (``killteam replay --verify``).

A replay (:func:`engine.game.record.replay_record`) checks that a record's inputs are legal
and reproduce its recorded states and result. It takes the rest of the header on trust: a
record whose seed or agents were changed, whose rolls were forged and the battle re-recorded
(so that every state hash is genuine), or whose built-in team id carries altered team data
(its content hash recomputed) replays. :func:`verify_record` replays the record and checks,
in step with it, what the header says:

- **dice**: at each chance node, the dice driver of ``killteam play``
  (:class:`~engine.game.drivers.SeededDice` ``(seed)``, one roll per chance node in order,
  as :func:`~engine.game.drivers.play` drives it) must give exactly the recorded roll;
- **agents**: at each decision of a player whose recorded agent is a built-in agent
  (:data:`engine.agents.AGENT_NAMES`, written exactly so) that makes the same choices every
  run (:func:`engine.agents.reproducible`: not a search with a time budget), that agent made
  with its seed
  (the header's ``agent_seeds``; without it the rule of ``killteam play``,
  :func:`engine.play.agent_seeds`: ``2 * seed`` for A, ``2 * seed + 1`` for B) and asked as
  ``play`` asks it (once per decision of its player, in order: agents keep state between
  decisions) must choose the recorded action (compared in canonical notation);
- **built-in team data**: a roster whose team id is a built-in team's
  (:func:`engine.teams.io.builtin_teams`) must carry exactly this engine's built-in team data
  (canonical JSON compared; the message names the first field that differs). A record made
  by another ``0.1.x`` engine whose built-in data differed does not verify.

A difference raises :class:`~engine.game.record.RecordVerificationError` naming the record
line (and the step) and what differs. Some parts cannot be verified: the dice of a record
without a seed, the decisions of a player whose agent is not a built-in one (a person, a
script, another program) or has no seed, the team data of a team that is not built in (an
imported or custom team: there is nothing to compare it with). With ``strict`` (the default,
and ``killteam replay --verify``) such a part is an error too, raised once everything else
has been checked and naming each part; with ``strict=False`` it is listed in
:attr:`Verification.not_verified`.

Verifying costs about a battle: the agents decide again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from engine import __version__
from engine.agents import AGENT_NAMES, make_agent, reproducible
from engine.errors import KillTeamError
from engine.game.actions import Action, format_action
from engine.game.drivers import Agent, SeededDice, ask
from engine.game.record import (
    RecordVerificationError,
    ReplayOutcome,
    StepCallback,
    dumps_line,
    replay_record,
)
from engine.game.record_format import RecordSource, short_message, shown
from engine.game.state import GameState
from engine.inputs import excerpt
from engine.play import agent_seeds
from engine.rulesets.sources import record_ruleset
from engine.teams.io import builtin_teams, load_builtin_team, team_to_dict

__all__ = [
    "NOT_CHECKED_BY_REPLAY",
    "RecordVerificationError",
    "RecordVerifier",
    "Verification",
    "first_difference",
    "verify_record",
]

NOT_CHECKED_BY_REPLAY: tuple[str, ...] = (
    "dice against the seed",
    "agents' decisions",
    "built-in team data",
)
"""What a replay without verification does not check (module docstring), as the summary of
``killteam replay`` names it."""


@attrs.frozen(slots=True)
class Verification:
    """What :func:`verify_record` found.

    Attributes:
        outcome: the replay's :class:`~engine.game.record.ReplayOutcome` (final state, header,
            counts).
        verified: one phrase per part verified, e.g. ``"172 rolls against seed 1"``,
            ``"81 decisions of A's agent heuristic (seed 2)"``, ``"built-in team data of A
            (kasrkin)"``.
        not_verified: one phrase per part that could not be verified, with the reason
            (empty after a strict verification), e.g. ``"team data of B ('my_team' is not a
            built-in team)"``.
    """

    outcome: ReplayOutcome
    verified: tuple[str, ...]
    not_verified: tuple[str, ...]


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _show(value: Any) -> str:
    """A JSON value for a message: numbers as JSON, text and tables as :func:`shown`."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return json.dumps(value)
    return shown(value)


def _absent_or(value: Any, present: bool) -> str:
    return _show(value) if present else "absent"


def first_difference(got: Any, want: Any, path: str = "") -> tuple[str, str, str] | None:
    """The first place where two JSON values differ, as ``(path, got shown, want shown)``
    (``path`` like ``operatives[0].wounds``; keys in sorted order), or ``None`` when equal."""
    if isinstance(got, dict) and isinstance(want, dict):
        for key in sorted(set(got) | set(want)):
            if key not in got or key not in want:
                return (
                    _join(path, key),
                    _absent_or(got.get(key), key in got),
                    _absent_or(want.get(key), key in want),
                )
            found = first_difference(got[key], want[key], _join(path, key))
            if found is not None:
                return found
        return None
    if isinstance(got, list) and isinstance(want, list):
        for k, (a, b) in enumerate(zip(got, want, strict=False)):
            found = first_difference(a, b, _join(path, k))
            if found is not None:
                return found
        if len(got) != len(want):
            return (path or "(the data)", f"{len(got)} items", f"{len(want)} items")
        return None
    if type(got) is type(want) and got == want:
        return None
    return path or "(the data)", _show(got), _show(want)


class RecordVerifier:
    """Checks a record's inputs against its header while it replays (module docstring).

    Pass :meth:`on_start` as the ``on_start`` hook and :meth:`check` as the ``check`` hook of
    :func:`engine.game.record.replay_record`; :meth:`report` then says what was and was not
    verified. One verifier per record (its dice and agents keep their state).
    """

    def __init__(self) -> None:
        self.seed: int | None = None
        self.dice: SeededDice | None = None
        self.rolls = 0
        self.agents: dict[str, Agent] = {}
        self.agent_names: dict[str, str] = {}
        self.agent_seeds: dict[str, int] = {}
        self.decisions = {"A": 0, "B": 0}
        self.teams: dict[str, str] = {}  # player -> built-in team id, verified
        self.unverifiable: list[str] = []

    def on_start(self, header: Mapping[str, Any], start: GameState) -> None:
        """Read the header (already checked by the replay): make the dice and the agents to
        verify with, and compare each built-in team id's data with the built-in team's.

        Raises:
            RecordVerificationError: a roster with a built-in team id whose team data is not
                this engine's built-in data (``record line 1``, the roster and the first
                field that differs).
        """
        seed = header["seed"]
        if seed is None:
            self.unverifiable.append("dice (the record has no seed)")
        else:
            self.seed = int(seed)
            self.dice = SeededDice(self.seed)
        given = header.get("agent_seeds")
        seeds: dict[str, int] | None
        if given is not None:
            seeds = {p: int(given[p]) for p in ("A", "B")}
        elif seed is not None:
            a, b = agent_seeds(int(seed))
            seeds = {"A": a, "B": b}
        else:
            seeds = None
        for p in ("A", "B"):
            name = header["agents"][p]
            if name not in AGENT_NAMES:
                self.unverifiable.append(
                    f"decisions of {p} (agent {excerpt(name)} is not a built-in agent: "
                    f"{', '.join(AGENT_NAMES)})"
                )
            elif not reproducible(name):
                self.unverifiable.append(
                    f"decisions of {p} (agent {name} searches for a time, not a number of "
                    "iterations: its choices are not reproducible)"
                )
            elif seeds is None:
                self.unverifiable.append(
                    f"decisions of {p} (agent {name} has no seed: the record has no seed or "
                    "agent_seeds)"
                )
            else:
                self.agents[p] = make_agent(name, seeds[p])
                self.agent_names[p] = name
                self.agent_seeds[p] = seeds[p]
        known = builtin_teams(None)
        for p in ("A", "B"):
            roster = header["rosters"][p]
            team_id = roster["team_id"]
            if team_id not in known:
                self.unverifiable.append(
                    f"team data of {p} ({excerpt(team_id)} is not a built-in team)"
                )
                continue
            builtin = team_to_dict(load_builtin_team(team_id))
            if dumps_line(roster["team"]) != dumps_line(builtin):
                found = first_difference(roster["team"], json.loads(dumps_line(builtin)))
                what = (
                    f": {found[0]} is {found[1]} in the record, {found[2]} built in"
                    if found is not None
                    else ""
                )
                raise RecordVerificationError(
                    f"record line 1: rosters.{p}.team: not the built-in data of team "
                    f"{team_id!r} (engine {__version__}){what}"
                )
            self.teams[p] = team_id

    def check(self, state: GameState, action: Action, actor: str) -> str | None:
        """Check one input before it is applied (the ``check`` hook of
        :func:`~engine.game.record.replay_record`): a roll against the seed's dice, a decision
        against the player's built-in agent. Every chance node rolls the dice and every
        decision of a verified player asks its agent, in order, exactly as
        :func:`~engine.game.drivers.play` does.

        Returns:
            ``None`` when the input is as expected (or that part cannot be verified), else
            one line saying what differs.
        """
        if actor == "chance":
            if self.dice is None:
                return None
            want = format_action(self.dice.roll(state))
            self.rolls += 1
            got = format_action(action)
            if got != want:
                return (
                    f"{got} is not the roll of the recorded seed {self.seed} (its dice give {want})"
                )
            return None
        agent = self.agents.get(actor)
        if agent is None:
            return None
        name, seed = self.agent_names[actor], self.agent_seeds[actor]
        try:
            chosen = format_action(ask(agent, state))
        except (KillTeamError, ValueError, LookupError) as exc:
            return f"agent {name} (seed {seed}) of player {actor} fails: {short_message(str(exc))}"
        self.decisions[actor] += 1
        got = format_action(action)
        if got != chosen:
            return (
                f"player {actor} chose {excerpt(got)} but its agent {name} (seed {seed}) "
                f"chooses {excerpt(chosen)}"
            )
        return None

    def report(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """``(verified, not_verified)``: one phrase per part (:class:`Verification`)."""
        verified: list[str] = []
        if self.dice is not None:
            verified.append(f"{self.rolls} rolls against seed {self.seed}")
        for p in ("A", "B"):
            if p in self.agents:
                verified.append(
                    f"{self.decisions[p]} decisions of {p}'s agent {self.agent_names[p]} "
                    f"(seed {self.agent_seeds[p]})"
                )
        for p in ("A", "B"):
            if p in self.teams:
                verified.append(f"built-in team data of {p} ({self.teams[p]})")
        return tuple(verified), tuple(self.unverifiable)


def verify_record(
    record: RecordSource,
    *,
    strict: bool = True,
    on_start: Callable[[Mapping[str, Any], GameState], None] | None = None,
    on_step: StepCallback | None = None,
    ruleset: str | None = None,
) -> Verification:
    """Replay a record and verify its dice, its agents' decisions and its built-in team data
    against its header (module docstring).

    Args:
        record: a path, a file object, or an iterable of lines (as
            :func:`~engine.game.record.replay_record`), read as a stream.
        strict: a part that cannot be verified (no seed, an agent that is not built in, a
            team that is not built in) is an error; ``False``: it is listed in
            :attr:`Verification.not_verified`.
        on_start, on_step: as :func:`~engine.game.record.replay_record` (``on_start`` is
            called once the team data is verified).
        ruleset: the name of the ruleset to replay under (:func:`engine.rulesets.get`);
            ``None``: the one the record's header names
            (:func:`engine.rulesets.sources.record_ruleset`); a record of another ruleset is
            refused (:class:`RecordFormatError`).

    Returns:
        A :class:`Verification`: the replay's outcome and what was (not) verified.

    Raises:
        RecordFormatError: a malformed record (naming the line and the field), a record of
            another ruleset.
        ReplayError: a record the engine does not reproduce (naming the line and the step).
        UnknownRulesetError: ``ruleset`` names no ruleset the engine plays.
        RecordVerificationError: a roll, a decision or a built-in team's data that differs
            from what the header says (naming the line, the step and both values); with
            ``strict``, parts that cannot be verified (``record line 1``, naming each and
            what was verified).
    """
    verifier = RecordVerifier()

    def start(header: Mapping[str, Any], state: GameState) -> None:
        verifier.on_start(header, state)
        if on_start is not None:
            on_start(header, state)

    outcome = replay_record(
        record,
        ruleset=record_ruleset(record, ruleset),
        on_start=start,
        on_step=on_step,
        check=verifier.check,
    )
    verified, not_verified = verifier.report()
    if strict and not_verified:
        done = f" (verified: {', '.join(verified)})" if verified else ""
        raise RecordVerificationError(
            f"record line 1: cannot be verified: {'; '.join(not_verified)}{done}"
        )
    return Verification(outcome=outcome, verified=verified, not_verified=not_verified)
