"""The positions of a battle record or a scenario file, one after each step, for pictures
(``killteam render``) and the HTML viewer (``killteam view``).

A **record** (``.jsonl``, :mod:`engine.game.record`) is replayed and checked as
``killteam replay`` does (:func:`engine.game.record.replay_record`): frame 0 is the start,
frame ``k`` the state after the record's input line of step ``k`` (a decision or a roll).

A **scenario file** (``.toml`` with ``[teams]`` or ``[steps]``,
:mod:`engine.game.scenario_file`) is set up and its steps played as ``killteam replay`` plays
them (:func:`engine.game.scenario_check.play_step`): frame 0 is the starting position, frame
``k`` the position after scenario step ``k``. Its expectations are not checked here (a
picture of a scenario that fails is what one wants to look at): ``killteam replay`` checks
them.

:func:`source_kind` says which of the two (or a killzone layout) a path is,
:func:`walk` calls back with each frame in order (never holding more than one) and
:func:`frame_at` returns one. Errors are :class:`TimelineError` naming the file and, for a
step out of range, the range.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal

import attrs

from engine.errors import KillTeamError
from engine.game.actions import Action
from engine.game.events import Event
from engine.game.state import GameState

__all__ = [
    "Frame",
    "TimelineError",
    "frame_at",
    "source_kind",
    "walk",
]

SourceKind = Literal["killzone", "scenario", "record"]


class TimelineError(KillTeamError, ValueError):
    """A record or scenario file cannot be stepped through as asked (unreadable, malformed,
    a step that does not replay, a step out of range); the message names the file."""


@attrs.frozen(slots=True)
class Frame:
    """One position of a record or scenario.

    Attributes:
        step: 0 for the start, else the record step or scenario step it follows.
        label: what the step was, for people (``"start"``, ``"step 3: shoot"``,
            ``"step 41: A Reposition KAS-1 to 8,4"``).
        state: the state reached.
        actor: who acted (``"A"``, ``"B"``, ``"chance"``; ``""`` for the start or a
            scenario step).
        actions: the inputs of the step in notation (record: one; scenario: its actions).
        dice: the rolls of the step, each a tuple of die values.
        events: the events of the step.
        rules: the rule sections the step names (a scenario's ``rules``, on frame 0).
    """

    step: int
    label: str
    state: GameState
    actor: str = ""
    actions: tuple[str, ...] = ()
    dice: tuple[tuple[int, ...], ...] = ()
    events: tuple[Event, ...] = ()
    rules: tuple[str, ...] = ()


FrameCallback = Callable[[Frame], None]


class _Stop(Exception):
    """Raised inside a replay callback to stop once the frame wanted is reached."""


def source_kind(path: str | Path) -> SourceKind:
    """What ``path`` is: ``"record"`` (a ``.jsonl`` file), ``"scenario"`` (a ``.toml`` file
    with a ``teams`` or ``steps`` table) or ``"killzone"`` (anything else: a shipped layout
    name or a layout file).

    Raises:
        TimelineError: a ``.toml`` file that cannot be read or is not TOML (names the file).
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".jsonl":
        return "record"
    if suffix == ".toml" and p.is_file():
        from engine.inputs import parse_toml, read_text

        data = parse_toml(read_text(p, TimelineError, "TOML file"), str(p), TimelineError)
        if "teams" in data or "steps" in data:
            return "scenario"
    return "killzone"


def _dice(text: str) -> tuple[int, ...]:
    """The die values of a roll in notation (``"roll 6,5,4"``), or ``()``."""
    words = text.strip().split(None, 1)
    if len(words) != 2 or words[0].lower() != "roll":
        return ()
    try:
        return tuple(int(v) for v in words[1].replace(" ", "").split(",") if v)
    except ValueError:
        return ()


def _walk_record(path: Path, on_frame: FrameCallback, ruleset: str | None) -> int:
    from engine.game.actions import format_action
    from engine.game.record import ReplayError, replay_record
    from engine.rulesets.sources import record_ruleset

    def on_start(_header: object, start: GameState) -> None:
        on_frame(Frame(0, "start", start))

    def on_step(
        before: GameState, action: Action, actor: str, after: GameState, events: list[Event]
    ) -> None:
        text = format_action(action)
        who = "" if actor == "chance" else f"{actor} "
        rolled = _dice(text)
        on_frame(
            Frame(
                after.step,
                f"step {after.step}: {who}{text}",
                after,
                actor=actor,
                actions=(text,),
                dice=(rolled,) if rolled else (),
                events=tuple(events),
            )
        )

    try:
        outcome = replay_record(
            path, ruleset=record_ruleset(path, ruleset), on_start=on_start, on_step=on_step
        )
    except ReplayError as exc:
        text = str(exc)
        raise TimelineError(text if text.startswith(str(path)) else f"{path}: {text}") from None
    return outcome.steps


def _walk_scenario(path: Path, on_frame: FrameCallback, ruleset: str | None) -> int:
    from engine.agents.scenario_choices import best_choice
    from engine.game.actions import format_action
    from engine.game.scenario_file import ScenarioFileProblem, load_scenario
    from engine.rulesets.sources import RulesetMismatchError, scenario_ruleset

    try:
        scenario = load_scenario(path)
        under = scenario_ruleset(scenario.options.ruleset, ruleset, str(path))
        walk = scenario.walk(ruleset=under, chooser=best_choice)
        for k, step, state, events in walk:
            if step is None:
                on_frame(Frame(0, f"start: {scenario.name}", state, rules=scenario.rules))
                continue
            dice = tuple(_dice(format_action(d)) for d in step.dice)
            on_frame(
                Frame(
                    k,
                    f"step {k}: {step.name}",
                    state,
                    actions=tuple(format_action(a) for a in step.actions),
                    dice=dice,
                    events=tuple(events),
                )
            )
    except (ScenarioFileProblem, RulesetMismatchError) as exc:
        raise TimelineError(str(exc)) from None
    return len(scenario.steps)


def walk(path: str | Path, on_frame: FrameCallback, ruleset: str | None = None) -> int:
    """Call ``on_frame`` with every frame of a record or scenario file, in order (module
    docstring); return the number of the last step. The file is replayed under the ruleset
    it names (:mod:`engine.rulesets.sources`); ``ruleset``, when given, must be that one.

    Raises:
        TimelineError: the file is not a record or scenario file, cannot be read, is
            malformed, of a ruleset other than ``ruleset``, or a step does not replay (the
            message names the file, the line or
            the step).
    """
    p = Path(path)
    kind = source_kind(p)
    if kind == "record":
        if not p.is_file():
            raise TimelineError(f"{p}: no such record file")
        return _walk_record(p, on_frame, ruleset)
    if kind == "scenario":
        return _walk_scenario(p, on_frame, ruleset)
    raise TimelineError(
        f"{p}: neither a game record (.jsonl) nor a scenario file (.toml with [teams] or [steps])"
    )


def frame_at(path: str | Path, step: int | None, ruleset: str | None = None) -> Frame:
    """The frame of ``step`` (``None``: the last), stopping the replay there (under the
    file's ruleset; ``ruleset`` as :func:`walk`).

    Raises:
        TimelineError: as :func:`walk`, or ``step`` out of range (the message names the
            file and the steps it has, ``0-N``).
    """
    got: list[Frame] = []

    def keep(frame: Frame) -> None:
        if step is None:
            got[:] = [frame]
            return
        if frame.step == step:
            got.append(frame)
            raise _Stop

    try:
        last = walk(path, keep, ruleset)
    except _Stop:
        return got[0]
    if step is None and got:
        return got[0]
    raise TimelineError(f"{path}: no step {step}: it has steps 0-{last} (0 is the start)")
