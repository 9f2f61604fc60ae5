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
                                   # default roster. The roster must be legal (the set-up
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
    open_hatchways = ["west hatch"]   # the hatchways open at the start (9.3); every other
                                   # hatchway starts closed, as in a battle, even one the
                                   # killzone marks ``open = true`` (that flag is the
                                   # drawing's, not the position's): list it here to open it
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

Modules
-------
This module holds the format and the loaded :class:`Scenario`;
:mod:`engine.game.scenario_fields` reads and checks the fields, the errors and the limits;
:mod:`engine.game.scenario_check` plays the steps and checks the expectations. A run is under
a ruleset the caller gives (:meth:`Scenario.run`; ``killteam replay`` uses the one the
options name).

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
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs

from engine.errors import KillTeamError
from engine.game.context import GameOptions
from engine.game.events import Event
from engine.game.scenario import position
from engine.game.scenario_check import check, play_step
from engine.game.scenario_fields import (
    MAX_COUNT,
    MAX_DESCRIPTION_CHARS,
    MAX_LIST_ITEMS,
    MAX_POSITION_OPERATIVES,
    MAX_STEPS,
    MAX_TEXT_CHARS,
    ExpectationError,
    ScenarioFileError,
    ScenarioFileProblem,
    ScenarioScriptError,
    Step,
    scenario_fields,
)
from engine.game.state import GameState, RulesetLike
from engine.geometry import Killzone
from engine.inputs import parse_toml, read_text
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
    "scenario_from_dict",
    "shipped_scenarios",
]

StepCallback = Callable[[int, "Step", list[Event]], None]
"""``on_step(number, step, events)``: called after each step of a run is played."""


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

    def start(self, *, ruleset: RulesetLike) -> GameState:
        """The starting position, in a battle of ``ruleset`` (the one the options name:
        :func:`engine.rulesets.get`).

        Raises:
            ScenarioFileError: the position is invalid (names the operative and field).
        """
        try:
            return position(
                self.killzone,
                self.rosters[0],
                self.rosters[1],
                options=self.options,
                ruleset=ruleset,
                **self.position,
            )
        except KillTeamError as exc:
            raise ScenarioFileError(f"{self.source}: position: {exc}") from None

    def run(self, on_step: StepCallback | None = None, *, ruleset: RulesetLike) -> ScenarioResult:
        """Replay the script and check every expectation.

        Args:
            ruleset: the ruleset of the battle (:meth:`start`).
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
        state = self.start(ruleset=ruleset)
        all_events: list[Event] = []
        per_step: list[list[Event]] = []
        for k, step in enumerate(self.steps):
            where = f"{self.source}: step {k + 1} ({step.name!r})"
            state, events = play_step(state, step, where)
            if on_step is not None:
                on_step(k + 1, step, events)
            per_step.append(events)
            all_events += events
            check(state, step.expect, events, where)
        check(state, self.expect, all_events, f"{self.source}: final expectations")
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


def run_scenario(
    path: str | Path, on_step: StepCallback | None = None, *, ruleset: RulesetLike
) -> ScenarioResult:
    """Load a scenario file, replay it under ``ruleset`` and check its expectations (see
    :meth:`Scenario.run`; ``on_step`` is called after each step is played).

    Raises:
        ScenarioFileError, ScenarioScriptError, ExpectationError: see :meth:`Scenario.run`.
    """
    return load_scenario(path).run(on_step, ruleset=ruleset)


def scenario_from_dict(data: Mapping[str, Any], source: str, base: Path) -> Scenario:
    """Build a :class:`Scenario` from the parsed TOML ``data`` (module docstring); relative
    paths are resolved from ``base`` (:func:`engine.game.scenario_fields.scenario_fields`).

    Raises:
        ScenarioFileError: an unknown or malformed field, a limit exceeded, nesting too deep
            or a number out of range (:func:`engine.inputs.check_tree`), an invalid killzone
            or team.
    """
    return Scenario(**scenario_fields(data, source, base))
