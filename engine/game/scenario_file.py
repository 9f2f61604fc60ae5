"""Scenario files: a position, a script of actions and dice, and the rulings expected.

A scenario file (TOML) sets up a Firefight-phase position exactly (through
:func:`engine.game.scenario.position`), replays a script of steps with strict scripted dice,
and checks expectations after named steps and at the end. Scenario files are tests
(``DESIGN.md`` "Testing"): every file under ``scenarios/`` replays in the test suite.

Format
------
Every table and field below is checked: an unknown field is an error naming the file and the
field's path. Distances are in inches; players are ``"A"`` and ``"B"``.

.. code-block:: toml

    # Comment header: the ruling and the rule section it checks.
    name = "Vantage: a Conceal target behind Light cover"   # required
    rules = ["4.7", "EDGE_CASES 1"]                         # optional, for people
    description = "..."                                      # optional

    killzone = "open_ruins"        # a shipped layout name, or a .toml/.json path relative
                                   # to this file; or an inline [killzone] table with the
                                   # structure of engine.geometry.Killzone.from_dict

    [teams.A]                      # the roster of player A (and [teams.B])
    team = "kasrkin"               # a built-in team id, or a team .json file relative to
                                   # this file (engine.teams.load_team)
    operatives = ["Kasrkin Sergeant [Bolt Pistol; Power Weapon]", "Kasrkin Trooper"]  # entries
                                   # order (ids KAS-1, KAS-2...); default: the team's
                                   # default roster. The roster must be legal (new_game
                                   # checks it): a partial roster needs a team file with
                                   # open selection rules (scenarios/teams/probe.json).
    choices = { "Chapter Tactics" = ["Aggressive", "Hardy"] }   # optional roster-time
    operative_choices = [{ "Mark of Chaos" = "Khorne" }, {}]    # choices (default: the
                                   # team's defaults; engine.rules.registry.ChoiceSpec)

    [options]                      # optional engine.game.context.GameOptions fields:
    objectives_pickup = true       # objectives_pickup, initiative_cards, close_quarters,
                                   # open_windows, mission, crit_op, tac_ops, primary_ops
    crit_op = "Secure"             # the crit op in play (default: none in a position)
    tac_ops = { A = "Flank" }      # the tac ops (and primary_ops) the players selected

    [position]                     # the arguments of engine.game.scenario.position
    tp = 1                         # turning point (default 1)
    initiative = "A"               # default "A"
    turn = "A"                     # whose turn it is to activate (default: initiative)
    cp = [0, 0]                    # default [2, 2]
    vp = [0, 0]                    # default [0, 0]
    open_hatchways = ["west hatch"]
    equipment = { A = ["Utility Grenades (2 smoke)"] }   # universal equipment selected (7.2)

    [[position.tokens]]            # equipment already on the killzone (repeat the table)
    kind = "mines"                 # a token kind of the rule modules (mines, ammo_cache,
    owner = "B"                    # light_barricade, ladder, smoke...); owner default A
    at = [12, 5]                   # [x, y] or [x, y, z]; angle = 90 (degrees, default 0)

    [position.operatives.KAS-1]    # operatives not listed are not on the killzone
    at = [10, 5]                   # [x, y] or [x, y, z] (z: the Vantage level it stands on)
    order = "engage"               # default engage
    wounds = 7                     # default the datacard's
    ready = true                   # also counteracted, on_guard (booleans), carrying
                                   # (the name of the marker it carries, or a list of
                                   # names: objective markers or mission markers)

    [[steps]]                      # applied in order
    name = "shoot"                 # optional (default "step N"); names the step in errors
    actions = ["Activate KAS-1 engage", "Shoot KAS-1 bolt pistol at LEG-1", "Decline"]
                                   # every decision of the step in order, the players'
                                   # choices in an attack included ("Same feature cover",
                                   # "Accurate 1", "Apply Rending", "Cover save none":
                                   # engine.game.attacks), each where the engine asks it
    dice = ["6,5,4,2", "3,1,1"]    # rolls in order ("6,5,4", "roll 6,5,4" or [6, 5, 4])

    [steps.expect]                 # checked after this step (same fields as [expect])
    ...

    [expect]                       # checked after the last step
    cp = [1, 2]                    # command points of A and B
    vp = [0, 0]                    # victory points of A and B
    kill_grade = [2, 0]            # the kill op grades of A and B (8.2)
    vp_by_op = { crit = [2, 1] }   # VP of A and B from ops (kill, crit, tac, primary)
    tokens = ["B mines"]           # exactly the equipment tokens on the killzone (names)
    node = "decision B action"     # "decision <player> <kind>", "chance <kind>" or
                                   # "terminal"; a prefix is enough ("decision B")
    legal = ["Shoot KAS-1 bolt pistol at LEG-1"]     # legal in the state reached
    illegal = [{ action = "Charge KAS-1 to 8,4", reason = "3.2" }]
                                   # rejected with an IllegalActionError whose message
                                   # contains ``reason`` (a bare string: any reason)
    options = ["Strike crit", "Block normal with crit"]   # exactly the listed actions
    events = [{ kind = "damage_inflicted", op = "LEG-1", damage = 3 }]
                                   # each must occur among the events of the step (of the
                                   # whole script for [expect]); every other key must equal
                                   # the event's data; ``count = n``: exactly n matches
    no_events = [{ kind = "stunned" }]               # none may match
    effects = [{ kind = "markerlight", op = "LEG-1", player = "A", value = 3 }]
                                   # each must be among the effects active in the state
                                   # reached (engine.game.state.Effect: tokens, stat
                                   # changes...); keys among kind, op, until, source,
                                   # value, detail, player, pending; ``count = n`` as above
    no_effects = [{ kind = "apl", op = "LEG-1" }]    # none may match

    [expect.operatives.LEG-1]
    wounds = 7
    at = [12, 5]                   # [x, y] or [x, y, z], to 0.01"
    order = "conceal"
    ready = false
    incapacitated = false          # incapacitated this battle (removed or not)
    on_killzone = true             # placed and not incapacitated
    carrying = ""                  # the marker it carries ("" none; a list for several)
    counteracted = false
    on_guard = false

Running
-------
``killteam replay FILE.toml`` runs a scenario file: it narrates each step (its script on one
line, then its events, one line each) and ends with ``scenario OK``; status 1 when a step is
rejected or an expectation differs (the message names the file, the step and what differs),
2 when the file cannot be read or is malformed. In Python: :func:`run_scenario` (``on_step``
sees each step's events).

Each step applies its actions in order; at every chance node met before or between them the
next roll of the step's ``dice`` is used (strictly: the wrong number of dice, or no roll left
when the engine asks for one, is an error). After the step's last action, chance nodes are
rolled while the step still has dice; dice left over are an error. A step with neither
actions nor dice only checks its expectations (e.g. in the starting position).

Errors
------
- :class:`ScenarioFileError`: the file cannot be read, is not TOML, has an unknown or
  malformed field, or its killzone, team or position is invalid (names the file and field).
- :class:`ScenarioScriptError`: a step's action is rejected (illegal, malformed, ambiguous),
  a roll is missing or has the wrong size, or rolls are left over (names the file, the step,
  the action and the engine's message).
- :class:`ExpectationError` (also an :class:`AssertionError`): an expectation differs (names
  the file, the step and what was expected and found).

All three derive from :class:`ScenarioFileProblem`, a
:class:`~engine.errors.KillTeamError`.

Limits
------
The file is read through :mod:`engine.inputs` (at most 64 MiB of UTF-8 TOML, nesting at most
64 levels, every number finite and at most 1e15), and an inline killzone has the limits of
:meth:`engine.geometry.Killzone.from_dict`. Beyond these, each far above real use (the
shipped scenarios have at most 6 steps, 14 actions and 7 operatives placed):
at most :data:`MAX_STEPS` steps; at most :data:`MAX_LIST_ITEMS` actions, rolls or entries of
any list (``rules``, ``legal``, ``illegal``, ``options``, ``events``...); at most
:data:`MAX_POSITION_OPERATIVES` operatives placed or checked; an action, roll, name or rule
at most :data:`MAX_TEXT_CHARS` characters and a description at most
:data:`MAX_DESCRIPTION_CHARS`; coordinates from 0 to
:data:`~engine.geometry.model.MAX_BOARD_INCHES` (a level ``z`` up to
:data:`~engine.geometry.model.MAX_HEIGHT_INCHES`); wounds, command and victory points from 0
to :data:`MAX_COUNT`.
"""

from __future__ import annotations

import importlib.resources
import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from engine.errors import KillTeamError
from engine.game.actions import Action, IllegalActionError, format_action, parse_action
from engine.game.context import GameOptions
from engine.game.events import Event
from engine.game.scenario import position
from engine.game.state import Chance, Decision, Effect, GameState, Terminal
from engine.geometry import Killzone, load_killzone
from engine.geometry.model import MAX_BOARD_INCHES, MAX_HEIGHT_INCHES
from engine.inputs import check_tree, excerpt, parse_toml, read_text, shown
from engine.teams.io import choice_table, load_builtin_team, load_team
from engine.teams.model import Roster

__all__ = [
    "MAX_COUNT",
    "MAX_DESCRIPTION_CHARS",
    "MAX_LIST_ITEMS",
    "MAX_POSITION_OPERATIVES",
    "MAX_STEPS",
    "MAX_TEXT_CHARS",
    "ExpectationError",
    "Scenario",
    "ScenarioFileError",
    "ScenarioFileProblem",
    "ScenarioResult",
    "ScenarioScriptError",
    "Step",
    "StepCallback",
    "load_scenario",
    "run_scenario",
    "shipped_scenarios",
]


class ScenarioFileProblem(KillTeamError):
    """Base class of the errors of scenario files (module docstring)."""


class ScenarioFileError(ScenarioFileProblem, ValueError):
    """The scenario file is unreadable or malformed (names the file and the field)."""


class ScenarioScriptError(ScenarioFileProblem, ValueError):
    """A step of the script was rejected or its dice do not fit (names file, step, action)."""


class ExpectationError(ScenarioFileProblem, AssertionError):
    """An expectation of the scenario differs from the engine's result."""


_TOP_KEYS = {
    "name",
    "description",
    "rules",
    "killzone",
    "teams",
    "options",
    "position",
    "steps",
    "expect",
}
_TEAM_KEYS = {"team", "operatives", "choices", "operative_choices"}
_OPTION_KEYS = {
    "objectives_pickup",
    "initiative_cards",
    "close_quarters",
    "open_windows",
    "mission",
    "crit_op",
    "tac_ops",
    "primary_ops",
}
_POSITION_KEYS = {
    "tp",
    "initiative",
    "turn",
    "cp",
    "vp",
    "open_hatchways",
    "operatives",
    "equipment",
    "tokens",
}
_TOKEN_KEYS = {"kind", "owner", "at", "angle"}
_VP_OPS = {"kill", "crit", "tac", "primary"}
_POS_OP_KEYS = {"at", "order", "wounds", "ready", "counteracted", "on_guard", "carrying"}
_STEP_KEYS = {"name", "actions", "dice", "expect"}
_EXPECT_KEYS = {
    "vp_by_op",
    "kill_grade",
    "tokens",
    "cp",
    "vp",
    "node",
    "legal",
    "illegal",
    "options",
    "events",
    "no_events",
    "effects",
    "no_effects",
    "operatives",
}
_EFFECT_KEYS = {"kind", "op", "until", "source", "value", "detail", "player", "pending", "count"}
_EXPECT_OP_KEYS = {
    "wounds",
    "at",
    "order",
    "ready",
    "incapacitated",
    "on_killzone",
    "carrying",
    "counteracted",
    "on_guard",
}
_POS_TOL = 0.01

MAX_STEPS = 200
"""The most steps (``[[steps]]``) a scenario may have."""

MAX_LIST_ITEMS = 500
"""The most entries of any list of a scenario file (a step's actions or rolls, ``rules``,
``legal``, ``illegal``, ``options``, ``events``, ``no_events``, a roster's operatives)."""

MAX_POSITION_OPERATIVES = 100
"""The most operatives ``[position.operatives]`` or an ``operatives`` expectation may list."""

MAX_TEXT_CHARS = 500
"""The longest action, roll, name, rule reference or other short string."""

MAX_DESCRIPTION_CHARS = 20_000
"""The longest ``description``."""

MAX_COUNT = 1000
"""The largest wounds, command points or victory points a scenario may give."""


# -------------------------------------------------------------------------------------------
# The parsed file
# -------------------------------------------------------------------------------------------

StepCallback = Callable[[int, "Step", list[Event]], None]
"""``on_step(number, step, events)``: called after each step of a run is played."""


@attrs.frozen(slots=True)
class Step:
    """One step of a script: actions, dice and the expectations checked after it.

    Attributes:
        name: names the step in errors.
        actions: the actions (parsed).
        dice: the rolls (parsed ``roll`` actions), used in order.
        expect: the expectation table (validated; module docstring).
    """

    name: str
    actions: tuple[Action, ...]
    dice: tuple[Action, ...]
    expect: Mapping[str, Any]


@attrs.frozen(slots=True)
class Scenario:
    """A loaded scenario file (module docstring).

    Attributes:
        source: the file (for messages). name, description, rules: from the file.
        killzone: the killzone. rosters: the rosters of A and B.
        options: the game options. position: the keyword arguments of
            :func:`engine.game.scenario.position` (except killzone, rosters and options).
        steps: the script. expect: the final expectations.
    """

    source: str
    name: str
    description: str
    rules: tuple[str, ...]
    killzone: Killzone
    rosters: tuple[Roster, Roster]
    options: GameOptions
    position: Mapping[str, Any]
    steps: tuple[Step, ...]
    expect: Mapping[str, Any]

    def start(self) -> GameState:
        """The starting position.

        Raises:
            ScenarioFileError: the position is invalid (names the operative and field).
        """
        try:
            return position(
                self.killzone,
                self.rosters[0],
                self.rosters[1],
                options=self.options,
                **self.position,
            )
        except KillTeamError as exc:
            raise ScenarioFileError(f"{self.source}: position: {exc}") from None

    def run(self, on_step: StepCallback | None = None) -> ScenarioResult:
        """Replay the script and check every expectation.

        Args:
            on_step: called after each step is played and before its expectations are
                checked, with the step's number (from 1), the step and its events (the
                ``killteam replay`` narration of a scenario file).

        Returns:
            The final state and the events of each step.

        Raises:
            ScenarioFileError: an invalid position.
            ScenarioScriptError: a step's action rejected, a roll missing, wrong or unused.
            ExpectationError: an expectation differs.
        """
        state = self.start()
        all_events: list[Event] = []
        per_step: list[list[Event]] = []
        for k, step in enumerate(self.steps):
            where = f"{self.source}: step {k + 1} ({step.name!r})"
            state, events = _play_step(state, step, where)
            if on_step is not None:
                on_step(k + 1, step, events)
            per_step.append(events)
            all_events += events
            _check(state, step.expect, events, where)
        _check(state, self.expect, all_events, f"{self.source}: final expectations")
        return ScenarioResult(state=state, events=tuple(tuple(e) for e in per_step))


@attrs.frozen(slots=True)
class ScenarioResult:
    """What a scenario run produced: the final state and the events of each step."""

    state: GameState
    events: tuple[tuple[Event, ...], ...]


# -------------------------------------------------------------------------------------------
# Loading
# -------------------------------------------------------------------------------------------


def shipped_scenarios() -> list[Path]:
    """The scenario files shipped in the ``scenarios`` package (sorted by name)."""
    folder = Path(str(importlib.resources.files("scenarios")))
    return sorted(folder.glob("*.toml"))


def load_scenario(path: str | Path) -> Scenario:
    """Load and validate a scenario file (module docstring).

    Raises:
        ScenarioFileError: unreadable, not UTF-8, too large, not TOML, nested too deeply, a
            number out of range, an unknown or malformed field, a limit exceeded (module
            docstring), an invalid killzone or team (the message names the file and field).
    """
    p = Path(path)
    text = read_text(p, ScenarioFileError, "scenario file")
    data = parse_toml(text, str(p), ScenarioFileError)
    return scenario_from_dict(data, source=str(p), base=p.parent)


def run_scenario(path: str | Path, on_step: StepCallback | None = None) -> ScenarioResult:
    """Load a scenario file, replay it and check its expectations (see :meth:`Scenario.run`;
    ``on_step`` is called after each step is played).

    Raises:
        ScenarioFileError, ScenarioScriptError, ExpectationError: see :meth:`Scenario.run`.
    """
    return load_scenario(path).run(on_step)


def _fail(source: str, where: str, message: str) -> ScenarioFileError:
    """The error naming ``source`` and ``where``, on one line (line breaks in names or in
    quoted texts are written as ``\\n``)."""
    text = f"{source}: {where}: {message}"
    return ScenarioFileError(text.replace("\r", "\\r").replace("\n", "\\n"))


def _keys(source: str, where: str, table: Any, allowed: set[str] | None) -> Mapping[str, Any]:
    """``table`` checked to be a table whose fields are among ``allowed`` (``None``: any
    fields, at most :data:`MAX_POSITION_OPERATIVES` of them, each a short name)."""
    if not isinstance(table, Mapping):
        raise _fail(source, where, f"expected a table, not {shown(table)}")
    if allowed is None:
        if len(table) > MAX_POSITION_OPERATIVES:
            raise _fail(source, where, f"{len(table)} entries; at most {MAX_POSITION_OPERATIVES}")
        for key in table:
            _text(source, where, key, "a name")
        return table
    extra = sorted(str(k) for k in table if k not in allowed)
    if extra:
        raise _fail(
            source,
            where,
            f"unknown field {excerpt(extra[0])} (allowed: {', '.join(sorted(allowed))})",
        )
    return table


def _text(source: str, where: str, value: Any, what: str, limit: int = MAX_TEXT_CHARS) -> str:
    """``value`` checked to be a string of at most ``limit`` characters."""
    if not isinstance(value, str):
        raise _fail(source, where, f"expected {what} (a string), not {shown(value)}")
    if len(value) > limit:
        raise _fail(source, where, f"longer than {limit} characters ({excerpt(value)})")
    return value


def _carrying(source: str, where: str, value: Any) -> tuple[str, ...]:
    """The markers an operative carries: a marker's name (``""``: none) or a list of names."""
    if isinstance(value, str):
        return (_text(source, where, value, "a marker's name"),) if value else ()
    names = _list(source, where, value, "marker names")
    return tuple(_text(source, f"{where}[{k}]", v, "a marker's name") for k, v in enumerate(names))


def _list(source: str, where: str, value: Any, what: str) -> list[Any]:
    """``value`` checked to be a list of at most :data:`MAX_LIST_ITEMS` entries."""
    if not isinstance(value, list):
        raise _fail(source, where, f"expected a list of {what}, not {shown(value)}")
    if len(value) > MAX_LIST_ITEMS:
        raise _fail(
            source, where, f"{len(value)} entries; a list may have at most {MAX_LIST_ITEMS}"
        )
    return value


def _str_list(source: str, where: str, value: Any) -> list[str]:
    items = _list(source, where, value, "strings")
    if not all(isinstance(v, str) for v in items):
        raise _fail(source, where, f"expected a list of strings, not {shown(value)}")
    return [_text(source, f"{where}[{i + 1}]", v, "a string") for i, v in enumerate(items)]


def _whole(source: str, where: str, value: Any, lo: int = 0, hi: int = MAX_COUNT) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(source, where, f"a whole number, not {shown(value)}")
    if not lo <= value <= hi:
        raise _fail(source, where, f"a whole number from {lo} to {hi}, not {shown(value)}")
    return value


def _pair(source: str, where: str, value: Any) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise _fail(source, where, f"expected [A, B] whole numbers, not {shown(value)}")
    for k, v in enumerate(value):
        _whole(source, f"{where}[{k}]", v)
    return (value[0], value[1])


def _point(source: str, where: str, value: Any) -> tuple[float, ...]:
    if (
        not isinstance(value, list)
        or len(value) not in (2, 3)
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        or not all(math.isfinite(v) for v in value)
    ):
        raise _fail(source, where, f"expected [x, y] or [x, y, z] in inches, not {shown(value)}")
    limits = (MAX_BOARD_INCHES, MAX_BOARD_INCHES, MAX_HEIGHT_INCHES)
    for k, (v, hi) in enumerate(zip(value, limits, strict=False)):
        if not 0 <= v <= hi:
            raise _fail(source, f"{where}[{k}]", f"must be from 0 to {hi:g} inches, not {v:g}")
    return tuple(float(v) for v in value)


def _bool(source: str, where: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _fail(source, where, f"expected true or false, not {shown(value)}")
    return value


def _player(source: str, where: str, value: Any) -> str:
    if not isinstance(value, str) or value not in ("A", "B"):
        raise _fail(source, where, f'expected "A" or "B", not {shown(value)}')
    return str(value)


def scenario_from_dict(data: Mapping[str, Any], source: str, base: Path) -> Scenario:
    """Build a :class:`Scenario` from the parsed TOML ``data`` (module docstring); relative
    paths are resolved from ``base``.

    Raises:
        ScenarioFileError: an unknown or malformed field, a limit exceeded, nesting too deep
            or a number out of range (:func:`engine.inputs.check_tree`), an invalid killzone
            or team.
    """
    if not isinstance(data, Mapping):
        raise _fail(source, "top level", f"expected a table, not {shown(data)}")
    check_tree(data, source, ScenarioFileError)
    _keys(source, "top level", data, _TOP_KEYS)
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise _fail(source, "name", "every scenario needs a name (a non-empty string)")
    _text(source, "name", name, "a name")
    description = _text(
        source,
        "description",
        data.get("description", ""),
        "a description",
        MAX_DESCRIPTION_CHARS,
    )
    rules = _str_list(source, "rules", data.get("rules", []))
    killzone = _killzone(source, base, data.get("killzone"))
    teams = _keys(source, "teams", data.get("teams", {}), {"A", "B"})
    rosters = []
    for p in ("A", "B"):
        if p not in teams:
            raise _fail(source, "teams", f"a roster for player {p} is required ([teams.{p}])")
        rosters.append(_roster(source, base, f"teams.{p}", teams[p]))
    opts = _keys(source, "options", data.get("options", {}), _OPTION_KEYS)
    for k, v in opts.items():
        if k in ("mission", "crit_op"):
            _text(source, f"options.{k}", v, "a name")
        elif k in ("tac_ops", "primary_ops"):
            table = _keys(source, f"options.{k}", v, {"A", "B"})
            for p, name in table.items():
                _text(source, f"options.{k}.{p}", name, "a name")
        elif not (isinstance(v, bool) or (k == "close_quarters" and v is None)):
            raise _fail(source, f"options.{k}", f"expected true or false, not {shown(v)}")
    try:
        options = GameOptions(**dict(opts))
    except KillTeamError as exc:
        raise _fail(source, "options", str(exc)) from None
    pos = _position(source, data.get("position"))
    steps_data = data.get("steps", [])
    if not isinstance(steps_data, list):
        raise _fail(source, "steps", "expected an array of tables ([[steps]])")
    if len(steps_data) > MAX_STEPS:
        raise _fail(
            source, "steps", f"{len(steps_data)} steps; a scenario may have at most {MAX_STEPS}"
        )
    steps = tuple(_step(source, k, s) for k, s in enumerate(steps_data))
    expect = _expect(source, "expect", data.get("expect", {}))
    return Scenario(
        source=source,
        name=name,
        description=description,
        rules=tuple(rules),
        killzone=killzone,
        rosters=(rosters[0], rosters[1]),
        options=options,
        position=pos,
        steps=steps,
        expect=expect,
    )


def _killzone(source: str, base: Path, value: Any) -> Killzone:
    if value is None:
        raise _fail(source, "killzone", "required: a shipped name, a file path or a table")
    try:
        if isinstance(value, Mapping):
            return Killzone.from_dict(value, source=f"{source}: killzone")
        if not isinstance(value, str):
            raise _fail(
                source, "killzone", f"expected a name, a path or a table, not {shown(value)}"
            )
        _text(source, "killzone", value, "a name or a path")
        candidate = base / value
        if Path(value).suffix in (".toml", ".json"):
            return load_killzone(candidate)
        return load_killzone(value)
    except ScenarioFileError:
        raise
    except KillTeamError as exc:
        raise _fail(source, "killzone", str(exc)) from None


def _roster(source: str, base: Path, where: str, value: Any) -> Roster:
    table = _keys(source, where, value, _TEAM_KEYS)
    ref = table.get("team")
    if not isinstance(ref, str) or not ref or "\x00" in ref:
        raise _fail(source, f"{where}.team", "a built-in team id or a team file path")
    _text(source, f"{where}.team", ref, "a team id or path")
    try:
        team = load_team(base / ref) if ref.endswith(".json") else load_builtin_team(ref)
    except KillTeamError as exc:
        raise _fail(source, f"{where}.team", str(exc)) from None
    if "operatives" not in table:
        return _choices(source, where, table, team.default())
    ops = _str_list(source, f"{where}.operatives", table["operatives"])
    known = [o.name for o in team.operatives]
    try:
        parsed = Roster.from_entries(team, ops)
    except ValueError as exc:
        raise _fail(source, f"{where}.operatives", str(exc)) from None
    for o in parsed.operatives:
        if o not in known:
            raise _fail(
                source,
                f"{where}.operatives",
                f"team {team.id!r} has no operative {o!r} (types: {', '.join(known)})",
            )
    if not ops:
        raise _fail(source, f"{where}.operatives", "at least one operative")
    return _choices(source, where, table, parsed)


def _choices(source: str, where: str, table: Mapping[str, Any], roster: Roster) -> Roster:
    """``roster`` with the roster-time choices of ``table`` (``choices = { "Chapter Tactics"
    = ["Aggressive", "Hardy"] }``, ``operative_choices = [{ "Mark of Chaos" = "Khorne" },
    ...]``), checked against the team's declarations."""
    try:
        choices = choice_table(table.get("choices", {}), "choices")
        per_op = table.get("operative_choices", [])
        if not isinstance(per_op, list):
            raise ValueError("field 'operative_choices': one table per operative, in order")
        op_choices = [choice_table(v, f"operative_choices[{k}]") for k, v in enumerate(per_op)]
    except ValueError as exc:
        raise _fail(source, f"{where}.choices", str(exc)) from None
    out = roster.with_choices(choices, op_choices)
    problems = [p for p in out.validate() if p.startswith("choice:")]
    if problems:
        raise _fail(source, f"{where}.choices", "; ".join(problems))
    return out


def _position(source: str, value: Any) -> dict[str, Any]:
    if value is None:
        raise _fail(source, "position", "required: [position] with its [position.operatives]")
    table = _keys(source, "position", value, _POSITION_KEYS)
    out: dict[str, Any] = {}
    if "tp" in table:
        tp = table["tp"]
        if not isinstance(tp, int) or isinstance(tp, bool) or not 1 <= tp <= 4:
            raise _fail(source, "position.tp", f"a turning point 1 to 4, not {shown(tp)}")
        out["tp"] = tp
    if "initiative" in table:
        out["initiative"] = _player(source, "position.initiative", table["initiative"])
    if "turn" in table:
        out["turn"] = _player(source, "position.turn", table["turn"])
    for k in ("cp", "vp"):
        if k in table:
            out[k] = _pair(source, f"position.{k}", table[k])
    if "open_hatchways" in table:
        out["open_hatchways"] = _str_list(
            source, "position.open_hatchways", table["open_hatchways"]
        )
    if "equipment" in table:
        eq = _keys(source, "position.equipment", table["equipment"], {"A", "B"})
        out["equipment"] = {
            p: _str_list(source, f"position.equipment.{p}", v) for p, v in eq.items()
        }
    if "tokens" in table:
        raw_tokens = table["tokens"]
        if not isinstance(raw_tokens, list) or len(raw_tokens) > MAX_LIST_ITEMS:
            raise _fail(
                source, "position.tokens", "expected an array of tables ([[position.tokens]])"
            )
        tokens = []
        for n, raw_t in enumerate(raw_tokens):
            where = f"position.tokens[{n}]"
            t = _keys(source, where, raw_t, _TOKEN_KEYS)
            if "kind" not in t or "at" not in t:
                raise _fail(source, where, "'kind' and 'at' = [x, y] are required")
            item: dict[str, Any] = {
                "kind": _text(source, f"{where}.kind", t["kind"], "a token kind"),
                "at": _point(source, f"{where}.at", t["at"]),
            }
            if "owner" in t:
                item["owner"] = _player(source, f"{where}.owner", t["owner"])
            if "angle" in t:
                item["angle"] = _whole(source, f"{where}.angle", t["angle"], 0, 359)
            tokens.append(item)
        out["tokens"] = tokens
    raw = table.get("operatives", {})
    if not isinstance(raw, Mapping) or not raw:
        raise _fail(source, "position.operatives", "at least one [position.operatives.ID]")
    _keys(source, "position.operatives", raw, None)
    specs: dict[str, dict[str, Any]] = {}
    for op_id, spec in raw.items():
        where = f"position.operatives.{op_id}"
        spec = _keys(source, where, spec, _POS_OP_KEYS)
        if "at" not in spec:
            raise _fail(source, where, "'at' = [x, y] or [x, y, z] is required")
        s: dict[str, Any] = {"at": _point(source, f"{where}.at", spec["at"])}
        if "order" in spec:
            if not isinstance(spec["order"], str) or spec["order"] not in ("engage", "conceal"):
                raise _fail(
                    source, f"{where}.order", f'"engage" or "conceal", not {shown(spec["order"])}'
                )
            s["order"] = spec["order"]
        if "wounds" in spec:
            s["wounds"] = _whole(source, f"{where}.wounds", spec["wounds"])
        for k in ("ready", "counteracted", "on_guard"):
            if k in spec:
                s[k] = _bool(source, f"{where}.{k}", spec[k])
        if "carrying" in spec:
            s["carrying"] = _carrying(source, f"{where}.carrying", spec["carrying"])
        specs[str(op_id)] = s
    out["operatives"] = specs
    return out


def _roll(source: str, where: str, value: Any) -> Action:
    if isinstance(value, list):
        if (
            not value
            or len(value) > MAX_LIST_ITEMS
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            raise _fail(source, where, f"a roll is a list of die faces, not {shown(value)}")
        text = ",".join(str(v) for v in value)
    elif isinstance(value, str):
        text = _text(source, where, value, "a roll").strip()
        if text.lower().startswith("roll"):
            text = text[4:].strip()
    else:
        raise _fail(source, where, f'a roll is "6,4,1" or [6, 4, 1], not {shown(value)}')
    try:
        a = parse_action(f"roll {text}")
    except KillTeamError as exc:
        raise _fail(source, where, f"not a roll: {shown(value)} ({exc})") from None
    return a


def _action(source: str, where: str, value: Any) -> Action:
    _text(source, where, value, "an action in notation")
    try:
        return parse_action(value)
    except KillTeamError as exc:
        raise _fail(source, where, str(exc)) from None


def _step(source: str, k: int, value: Any) -> Step:
    where = f"steps[{k + 1}]"
    table = _keys(source, where, value, _STEP_KEYS)
    name = _text(source, f"{where}.name", table.get("name", f"step {k + 1}"), "a name")
    actions = _str_list(source, f"{where}.actions", table.get("actions", []))
    dice = _list(source, f"{where}.dice", table.get("dice", []), "rolls")
    return Step(
        name=name,
        actions=tuple(
            _action(source, f"{where}.actions[{i + 1}]", a) for i, a in enumerate(actions)
        ),
        dice=tuple(_roll(source, f"{where}.dice[{i + 1}]", d) for i, d in enumerate(dice)),
        expect=_expect(source, f"{where}.expect", table.get("expect", {})),
    )


def _event_specs(source: str, where: str, value: Any) -> list[dict[str, Any]]:
    _list(source, where, value, "event tables ({ kind = ... })")
    out = []
    for i, spec in enumerate(value):
        w = f"{where}[{i + 1}]"
        if not isinstance(spec, Mapping) or not isinstance(spec.get("kind"), str):
            raise _fail(source, w, f"an event table needs a 'kind' string, not {shown(spec)}")
        _text(source, f"{w}.kind", spec["kind"], "an event kind")
        if "count" in spec:
            _whole(source, f"{w}.count", spec["count"])
        out.append(dict(spec))
    return out


def _expect(source: str, where: str, value: Any) -> dict[str, Any]:
    table = _keys(source, where, value, _EXPECT_KEYS)
    out: dict[str, Any] = {}
    for k in ("cp", "vp", "kill_grade"):
        if k in table:
            out[k] = _pair(source, f"{where}.{k}", table[k])
    if "vp_by_op" in table:
        ops = _keys(source, f"{where}.vp_by_op", table["vp_by_op"], _VP_OPS)
        out["vp_by_op"] = {
            op: _pair(source, f"{where}.vp_by_op.{op}", pair) for op, pair in ops.items()
        }
    if "tokens" in table:
        out["tokens"] = _str_list(source, f"{where}.tokens", table["tokens"])
    if "node" in table:
        _text(source, f"{where}.node", table["node"], "a node")
        if not table["node"].split():
            raise _fail(source, f"{where}.node", '"decision B action", "chance attack"...')
        out["node"] = table["node"]
    for k in ("legal", "options"):
        if k in table:
            texts = _str_list(source, f"{where}.{k}", table[k])
            out[k] = [(t, _action(source, f"{where}.{k}[{i + 1}]", t)) for i, t in enumerate(texts)]
    if "illegal" in table:
        items = _list(source, f"{where}.illegal", table["illegal"], "actions")
        ill = []
        for i, item in enumerate(items):
            w = f"{where}.illegal[{i + 1}]"
            if isinstance(item, str):
                text, reason = item, ""
            else:
                item = _keys(source, w, item, {"action", "reason"})
                raw_text, raw_reason = item.get("action"), item.get("reason", "")
                if not isinstance(raw_text, str) or not isinstance(raw_reason, str):
                    raise _fail(source, w, "{ action = '...', reason = '...' } (strings)")
                text = raw_text
                reason = _text(source, f"{w}.reason", raw_reason, "a reason")
            ill.append((text, _action(source, w, text), reason))
        out["illegal"] = ill
    for k in ("events", "no_events"):
        if k in table:
            out[k] = _event_specs(source, f"{where}.{k}", table[k])
    for k in ("effects", "no_effects"):
        if k in table:
            specs = _event_specs(source, f"{where}.{k}", table[k])
            for i, effect_spec in enumerate(specs):
                _keys(source, f"{where}.{k}[{i + 1}]", effect_spec, _EFFECT_KEYS)
            out[k] = specs
    if "operatives" in table:
        ops = _keys(source, f"{where}.operatives", table["operatives"], None)
        checks: dict[str, dict[str, Any]] = {}
        for op_id, spec in ops.items():
            w = f"{where}.operatives.{op_id}"
            spec = _keys(source, w, spec, _EXPECT_OP_KEYS)
            c: dict[str, Any] = {}
            for key, val in spec.items():
                if key == "at":
                    c[key] = _point(source, f"{w}.at", val)
                elif key == "wounds":
                    c[key] = _whole(source, f"{w}.wounds", val)
                elif key == "carrying":
                    c[key] = _carrying(source, f"{w}.{key}", val)
                elif key == "order":
                    c[key] = _text(source, f"{w}.{key}", val, "a string")
                else:
                    c[key] = _bool(source, f"{w}.{key}", val)
            checks[str(op_id)] = c
        out["operatives"] = checks
    return out


# -------------------------------------------------------------------------------------------
# Running
# -------------------------------------------------------------------------------------------


def _request_text(state: GameState) -> str:
    node = state.node
    assert isinstance(node, Chance)
    r = node.request
    return f"{r.dice} dice for player {r.player} ({r.label or r.kind})"


def _play_step(state: GameState, step: Step, where: str) -> tuple[GameState, list[Event]]:
    events: list[Event] = []
    dice = list(step.dice)
    used = 0
    k = 0

    def roll(state: GameState, before: str) -> tuple[GameState, list[Event]]:
        nonlocal used
        if used >= len(dice):
            raise ScenarioScriptError(
                f"{where}: {before}the engine asks for a roll of {_request_text(state)} but "
                f"the step has no roll left ({len(dice)} scripted)"
            )
        a = dice[used]
        try:
            out = state.apply(a)
        except KillTeamError as exc:
            raise ScenarioScriptError(
                f"{where}: scripted roll {used + 1} ({format_action(a)}): {exc}"
            ) from None
        used += 1
        return out

    while True:
        if isinstance(state.node, Chance):
            if k >= len(step.actions) and used >= len(dice):
                break
            before = f"before action {k + 1} ({step.actions[k]}): " if k < len(step.actions) else ""
            state, ev = roll(state, before)
            events += ev
            continue
        if k >= len(step.actions):
            break
        a = step.actions[k]
        if state.is_terminal:
            raise ScenarioScriptError(f"{where}: the battle ended before action {k + 1} ({a})")
        try:
            state, ev = state.apply(a)
        except KillTeamError as exc:
            raise ScenarioScriptError(
                f"{where}: action {k + 1} ({a}) rejected: {type(exc).__name__}: {exc}"
            ) from None
        events += ev
        k += 1
    if used < len(dice):
        raise ScenarioScriptError(
            f"{where}: {len(dice) - used} scripted roll(s) not used (first unused: "
            f"{format_action(dice[used])}); the engine is at {_node_text(state)}"
        )
    return state, events


def _node_text(state: GameState) -> str:
    node = state.node
    if isinstance(node, Decision):
        return f"decision {node.player} {node.kind}"
    if isinstance(node, Chance):
        return f"chance {node.request.kind}"
    assert isinstance(node, Terminal)
    return "terminal"


def _norm(v: Any) -> Any:
    if isinstance(v, tuple | list):
        return [_norm(x) for x in v]
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def _matches(event: Event, spec: Mapping[str, Any]) -> bool:
    if event.kind != spec["kind"]:
        return False
    data = dict(event.data)
    for k, v in spec.items():
        if k in ("kind", "count"):
            continue
        if k not in data or _norm(data[k]) != _norm(v):
            return False
    return True


def _effect_matches(effect: Effect, spec: Mapping[str, Any]) -> bool:
    return all(k in ("count",) or _norm(getattr(effect, k)) == _norm(v) for k, v in spec.items())


def _effects_text(effects: Sequence[Effect], kind: str) -> str:
    same = [e for e in effects if e.kind == kind]
    if not same:
        kinds = sorted({e.kind for e in effects})
        return f"no {kind} effect at all (kinds active: {', '.join(kinds) or 'none'})"
    return "; ".join(
        f"{{op={e.op!r}, player={e.player!r}, value={e.value}, detail={e.detail!r}, "
        f"until={e.until!r}, source={e.source!r}}}"
        for e in same[:8]
    )


def _spec_text(spec: Mapping[str, Any]) -> str:
    inner = ", ".join(f"{k} = {shown(v)}" for k, v in spec.items() if k != "kind")
    return f"{spec['kind']}" + (f" {{{inner}}}" if inner else "")


def _events_text(events: Sequence[Event], kind: str) -> str:
    same = [e for e in events if e.kind == kind]
    if not same:
        kinds = sorted({e.kind for e in events})
        return f"no {kind} event at all (kinds seen: {', '.join(kinds) or 'none'})"
    return "; ".join(str(dict(e.data)) for e in same[:8])


def _check(
    state: GameState, expect: Mapping[str, Any], events: Sequence[Event], where: str
) -> None:
    problems: list[str] = []
    for k, idx in (("cp", "cp"), ("vp", "vp"), ("kill_grade", "kill_grade")):
        if k in expect:
            pair = (getattr(state.players[0], idx), getattr(state.players[1], idx))
            if tuple(expect[k]) != pair:
                problems.append(
                    f"{k}: expected A {expect[k][0]}, B {expect[k][1]}; got A {pair[0]}, "
                    f"B {pair[1]}"
                )
    for op, want_vp in expect.get("vp_by_op", {}).items():
        got_vp = (state.mission.op_vp(op, "A"), state.mission.op_vp(op, "B"))
        if tuple(want_vp) != got_vp:
            problems.append(
                f"vp_by_op.{op}: expected A {want_vp[0]}, B {want_vp[1]}; got A {got_vp[0]}, "
                f"B {got_vp[1]}"
            )
    if "tokens" in expect:
        names = [t.name for t in state.tokens]
        if sorted(names) != sorted(expect["tokens"]):
            problems.append(
                f"tokens: expected {sorted(expect['tokens'])}, on the killzone {sorted(names)}"
            )
    if "node" in expect:
        got_node = _node_text(state)
        want = " ".join(expect["node"].split())
        if got_node != want and not got_node.startswith(want + " "):
            problems.append(f"node: expected {want!r}, the engine is at {got_node!r}")
    for op_id, checks in expect.get("operatives", {}).items():
        try:
            o = state.operative(op_id)
        except KeyError:
            problems.append(f"operatives.{op_id}: no such operative ({', '.join(state.ctx.ids)})")
            continue
        for key, want in checks.items():
            if key == "at":
                got_pt = (o.x, o.y, o.elevation)
                wx, wy = want[0], want[1]
                wz = want[2] if len(want) == 3 else 0.0
                if not o.placed or not all(
                    math.isclose(a, b, abs_tol=_POS_TOL)
                    for a, b in zip(got_pt, (wx, wy, wz), strict=True)
                ):
                    found = f"({o.x:g}, {o.y:g}, {o.elevation:g})" if o.placed else "not placed"
                    problems.append(
                        f"operatives.{op_id}.at: expected ({wx:g}, {wy:g}, {wz:g}), got {found}"
                    )
                continue
            got: Any = o.alive if key == "on_killzone" else getattr(o, key)
            if got != want:
                problems.append(f"operatives.{op_id}.{key}: expected {want!r}, got {got!r}")
    for text, a in expect.get("legal", []):
        if isinstance(state.node, Chance | Terminal):
            problems.append(f"legal: {text!r}: the engine is at {_node_text(state)}")
            continue
        try:
            state.apply(a)
        except KillTeamError as exc:
            problems.append(f"legal: {text!r} was rejected: {exc}")
    for text, a, reason in expect.get("illegal", []):
        try:
            state.apply(a)
        except IllegalActionError as exc:
            if reason not in str(exc):
                problems.append(
                    f"illegal: {text!r} was rejected, but the message does not contain "
                    f"{reason!r}: {exc}"
                )
        except KillTeamError as exc:
            problems.append(
                f"illegal: {text!r} raised {type(exc).__name__} (not an illegal action): {exc}"
            )
        else:
            problems.append(f"illegal: {text!r} was accepted (expected it to be illegal)")
    if "options" in expect:
        listed = [format_action(a) for a in state.legal_actions()]
        wanted = [format_action(a) for _, a in expect["options"]]
        if sorted(listed) != sorted(wanted):
            missing = [t for t in wanted if t not in listed]
            extra = [t for t in listed if t not in wanted]
            problems.append(
                f"options: expected exactly {wanted}; missing {missing}, unexpected {extra}"
            )
    for spec in expect.get("events", []):
        n = sum(1 for e in events if _matches(e, spec))
        if "count" in spec and n != spec["count"]:
            problems.append(
                f"events: expected {spec['count']} x {_spec_text(spec)}, found {n} "
                f"({_events_text(events, spec['kind'])})"
            )
        elif "count" not in spec and n == 0:
            problems.append(
                f"events: expected {_spec_text(spec)}, found none "
                f"({_events_text(events, spec['kind'])})"
            )
    for spec in expect.get("no_events", []):
        hits = [e for e in events if _matches(e, spec)]
        if hits:
            problems.append(f"no_events: {_spec_text(spec)} occurred: {dict(hits[0].data)}")
    for spec in expect.get("effects", []):
        n = sum(1 for e in state.effects if _effect_matches(e, spec))
        if ("count" in spec and n != spec["count"]) or ("count" not in spec and n == 0):
            want = f"{spec['count']} x " if "count" in spec else ""
            problems.append(
                f"effects: expected {want}{_spec_text(spec)}, found {n} "
                f"({_effects_text(state.effects, spec['kind'])})"
            )
    for spec in expect.get("no_effects", []):
        hit = next((e for e in state.effects if _effect_matches(e, spec)), None)
        if hit is not None:
            problems.append(f"no_effects: {_spec_text(spec)} is active: {hit}")
    if problems:
        raise ExpectationError(f"{where}: " + "; ".join(problems))
