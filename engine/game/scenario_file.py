"""Scenario files: a position, a script of actions and dice, and the rulings expected.

A scenario file (TOML) sets up a position exactly (through
:func:`engine.game.scenario.start_position`: the Firefight phase, or any phase and step from
the set-up to the end of a turning point), replays a script of steps with strict scripted
dice, and checks expectations after named steps and at the end. Scenario files are tests
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
    choices = "ask"                # optional: how the attack choices the script does not
                                   # name are answered ("Running"): "ask" (default: the
                                   # script names every decision), "decline" or "best".
                                   # A top-level field: before the first [table].

    killzone = "open_ruins"        # a shipped layout name, or a .toml/.json path relative
                                   # to this file; or an inline [killzone] table with the
                                   # structure of engine.geometry.Killzone.from_dict
    ruleset = "kt21"               # optional: the ruleset the scenario plays (default
                                   # "kt24"; engine.game.context.RULESETS): its options'
                                   # ruleset, under which every front door runs it

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

    [options]                      # optional engine.game.context.GameOptions fields
                                   # (the ruleset is the top-level field above):
    objectives_pickup = true       # objectives_pickup, initiative_cards, close_quarters,
                                   # open_windows, mission, crit_op, tac_ops, primary_ops
    crit_op = "Secure"             # the crit op in play (default: none in a position)
    tac_ops = { A = "Flank" }      # the tac ops (and primary_ops) the players selected

    [position]                     # the arguments of engine.game.scenario.position
    phase = "firefight"            # where the position starts (engine.game.scenario_state):
                                   # "setup" (before the set-up roll-off; no operatives,
                                   # no tp, no initiative), "deployment" (drop zones
                                   # decided, A's is "A"), "strategy", "firefight"
                                   # (default) or "end" (the Firefight phase is over: the
                                   # turning point's end and the ops' scoring are next;
                                   # every operative expended, ready = false by default);
                                   # KT18 (ruleset = "kt18"): "setup", "initiative" (steps
                                   # "start", "roll"), "movement" (step "turn"), "psychic",
                                   # "shooting", "fight", "morale" (engine.rules.kt18.positions;
                                   # tp is the battle round)
    step = "gambit"                # the phase's step, default its first: deployment
                                   # "deploy" (the operatives listed are set up, wholly
                                   # within their drop zone, Conceal by default; deployment
                                   # goes on from there) or "equipment" (the set-up steps
                                   # before deployment: equipment selection, tac ops);
                                   # strategy "initiative" (the initiative step is next),
                                   # "start" (the turning point begins: its start window,
                                   # then the initiative step), "ready" (initiative decided;
                                   # the Ready step is next: CP gained, operatives readied)
                                   # or "gambit" (the Gambit step begins: the steps rules
                                   # add at its start - primary op, crit op picks - first)
    initiative_roll = [4, 2]       # strategy "initiative" only: the roll-off made (A, B)
    gambit_turn = "B"              # strategy "gambit" only: the step under way, B to choose
                                   # (the steps at its start already done)
    tp = 1                         # turning point (default 1; not in setup or deployment):
                                   # 1-4, a KT18 battle round 1-5 (context.LAST_ROUNDS)
    initiative = "A"               # default "A"
    turn = "A"                     # firefight only: whose turn it is to activate
                                   # (default: initiative)
    cp = [0, 0]                    # default [2, 2]: the CP before the position's start
                                   # (a "ready" position gains its Ready step's CP)
    vp = [0, 0]                    # default: the sum of [position.mission] vp, else [0, 0]
    open_hatchways = ["west hatch"]   # the hatchways open at the start (9.3); every other
                                   # hatchway starts closed, as in a battle, even one the
                                   # killzone marks ``open = true`` (that flag is the
                                   # drawing's, not the position's): list it here to open it
    equipment = { A = ["Utility Grenades (2 smoke)"] }   # universal equipment selected (7.2)

    [[position.tokens]]            # equipment already on the killzone (repeat the table)
    kind = "mines"                 # a token kind of the rule modules (mines, ammo_cache,
    owner = "B"                    # light_barricade, ladder, smoke...); owner default A
    at = [12, 5]                   # [x, y] or [x, y, z]; angle = 90 (degrees, default 0)
    name = "reanimation HIE-3"     # only for a kind whose rule keys it by name (a
                                   # Reanimation marker names its operative); the Grisly
                                   # marker ("grisly") and mission markers are kinds too
    counters = { "used" = 1 }      # the counters its module keeps on it (Token.counters)

    [position.players.A]           # the players' counters (engine.game.state.PlayerState)
    cards = ["re-roll", "1"]       # initiative cards held (re-roll, 1, 2, 3); default none,
                                   # but in deployment and the first turning point's
                                   # "start"/"initiative" steps the re-roll card for the
                                   # player without initiative (the set-up gives it, 1.2)
    ploys_used = ["Take Cover"]    # ploys used this turning point (7.1: each once)
    uses = { "pf_art_of_war:mont'ka" = 1 }   # the counters rule modules keep for the
                                   # player (once per battle, shared equipment...): keys
                                   # are the modules' own (PlayerState.uses)
    cp_spent = 0                   # also kill_grade (whole numbers)

    [[position.effects]]           # an effect in force (engine.game.state.Effect; repeat):
    kind = "markerlight"           # the kind a rule module makes (markerlight, stun, apl,
    op = "LEG-1"                   # token...), the operative it is on (or player = "A" for
    player = "A"                   # a whole kill team), until ("end_tp" default,
    value = 3                      # "end_activation", "end_next_activation", "end_battle",
    until = "end_battle"           # "while" with detail = a condition of a rule in play),
                                   # source, value, detail, pending: as the module makes them

    [position.mission]             # the mission's state (the ops in play are the options')
    tac_revealed = { A = true }    # tac ops already revealed (8.4)
    vp = { crit = [2, 0] }         # VP each op scored in the battle (tp_vp: this TP)
    facts = { "Secure:centre" = "A" }   # the op modules' facts (secured markers, crit op
                                   # picks: engine.game.state.MissionState.facts; lists are
                                   # kept as tuples); "secret:A:..." keys are A's secrets

    [position.operatives.KAS-1]    # operatives not listed are not on the killzone
    at = [10, 5]                   # [x, y] or [x, y, z] (z: the Vantage level it stands on)
    order = "engage"               # default engage (conceal in deployment)
    wounds = 7                     # default the datacard's
    ready = true                   # also counteracted, on_guard, interrupted (booleans),
                                   # carrying (the name of the marker it carries, or a list
                                   # of names: objective markers or mission markers),
                                   # ap (AP left, 0-9), limited = { "Frag grenade" = 1 }
                                   # (uses of Limited weapons)
    tokens = ["advanced", "moved"] # KT18: its tokens of the battle round (engine.rules.
                                   # kt18.tokens.TOKENS: moved, advanced, fell_back,
                                   # readied, charge_attempt, charged, was_charged,
                                   # retreated, shot, fought, overwatch, reinforced,
                                   # psychic; "charged_by:KAS-1": charged by that enemy
                                   # model this round); refused by a ruleset that keeps
                                   # none (the position_tokens hook)
    [position.operatives.LEG-2]
    incapacitated = true           # a casualty: not on the killzone (no other field)

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
    control = { centre = "A", west = "" }            # who controls each objective marker
                                   # ("" nobody; engine.game.markers.controller)
    sees = { B = { tac_ops = ["?", "Flank"], hidden = ["A's tac op"] } }
                                   # what a player's view shows (engine.game.observation):
                                   # tac_ops, primary_ops ([A, B], "?" hidden),
                                   # tac_revealed ([A, B]), crit_op, hidden (exactly these
                                   # secrets hidden from it), facts (exactly the mission
                                   # fact keys it sees)
    rejected_option = [{ options = { crit_op = "Nonsense" }, reason = "no crit op" }]
                                   # a battle of these rosters and killzone with the
                                   # options changed so is refused, its message containing
                                   # reason (the option names: GameOptions fields)
    tp = 2                         # also phase ("strategy", "firefight"...), initiative

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
    ap = 1                         # AP left

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

The position's start runs what comes before its first decision or roll (the Ready step of a
``"ready"`` position; the end of a turning point and its scoring when no window opens
first): those events are the first step's (and the whole script's).

``choices``: at an attack choice (decision kinds :data:`ATTACK_CHOICE_KINDS`: re-rolls,
ploys on dice, same feature, Accurate, Punishing/Rending/Severe, the cover save, a rule's
"use it?"; and a ploy window while a Shoot or Fight is under way) whose answer the step's
next action is not (that action is not legal there), a policy other than ``"ask"``
answers: ``"decline"`` takes Keep, Decline, Pass, ``Accurate 0`` or ``Cover save none``
(a choice with no way to decline is left to the script); ``"best"`` takes the dice core's
best answer (the heuristic agent's attack choices, :mod:`engine.agents.scenario_choices`;
the agents are above this layer, so the runner is handed it: ``killteam replay`` and the
scenario tests pass it, :meth:`Scenario.run` ``chooser``). The policy answers after the
step's last action too (an attack finishes), except in a step with neither actions nor
dice.

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
:mod:`engine.game.scenario_fields` reads and checks the fields
(:mod:`engine.game.scenario_tables` those of complete positions and their expectations;
:mod:`engine.game.scenario_values` the errors, the limits and the basic values);
:mod:`engine.game.scenario_state` builds the phases, steps and state tables of a position;
:mod:`engine.game.scenario_check` plays the steps (with the ``choices`` policy) and checks
the expectations. A run is under
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
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs

from engine.errors import KillTeamError
from engine.game.context import GameOptions
from engine.game.events import Event
from engine.game.scenario import start_position
from engine.game.scenario_check import (
    ATTACK_CHOICE_KINDS,
    ChoicePolicy,
    Chooser,
    check,
    play_step,
)
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
    "ATTACK_CHOICE_KINDS",
    "MAX_COUNT",
    "MAX_DESCRIPTION_CHARS",
    "MAX_LIST_ITEMS",
    "MAX_POSITION_OPERATIVES",
    "MAX_STEPS",
    "MAX_TEXT_CHARS",
    "Chooser",
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
        choices: the policy answering the attack choices the script does not name
            (``"ask"``, ``"best"`` or ``"decline"``; module docstring).
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
    choices: str = "ask"

    def start(self, *, ruleset: RulesetLike) -> GameState:
        """The starting position, in a battle of ``ruleset`` (the one the options name:
        :func:`engine.rulesets.get`).

        Raises:
            ScenarioFileError: the position is invalid (names the operative and field).
        """
        return self.start_with_events(ruleset=ruleset)[0]

    def start_with_events(self, *, ruleset: RulesetLike) -> tuple[GameState, list[Event]]:
        """:meth:`start` and the events of the position's start
        (:func:`engine.game.scenario.start_position`: a Ready step or an end-of-turning-point
        scoring run before the first decision).

        Raises:
            ScenarioFileError: the position is invalid (names the operative and field).
        """
        try:
            return start_position(
                self.killzone,
                self.rosters[0],
                self.rosters[1],
                options=self.options,
                ruleset=ruleset,
                **self.position,
            )
        except KillTeamError as exc:
            raise ScenarioFileError(f"{self.source}: position: {exc}") from None

    def policy(self, chooser: Chooser | None = None) -> ChoicePolicy:
        """The policy answering the attack choices the script does not name (the file's
        ``choices``; ``chooser``: the best answer, needed by ``"best"``), for
        :func:`engine.game.scenario_check.play_step`.

        Raises:
            ScenarioFileError: ``choices = "best"`` without a ``chooser``.
        """
        if self.choices == "best" and chooser is None:
            raise ScenarioFileError(
                f"{self.source}: choices: 'best' needs the dice core's chooser "
                "(engine.agents.scenario_choices.best_choice; killteam replay passes it)"
            )
        return ChoicePolicy(self.choices, chooser)

    def run(
        self,
        on_step: StepCallback | None = None,
        *,
        ruleset: RulesetLike,
        chooser: Chooser | None = None,
    ) -> ScenarioResult:
        """Replay the script and check every expectation.

        Args:
            ruleset: the ruleset of the battle (:meth:`start`).
            chooser: the dice core's best answer to an attack choice, ``chooser(state) ->
                action`` at such a decision (:func:`engine.agents.scenario_choices.best_choice`),
                needed by ``choices = "best"`` (the agents layer, above this one, holds it).
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
        all_events: list[Event] = []
        per_step: list[list[Event]] = []
        state: GameState | None = None
        started = 0
        for k, step, state, events in self.walk(ruleset=ruleset, chooser=chooser):
            if step is None:
                all_events += events
                started = len(events)
                continue
            if on_step is not None:
                on_step(k, step, events)
            per_step.append(events)
            all_events += events[started:] if k == 1 else events
            check(state, step.expect, events, f"{self.source}: step {k} ({step.name!r})")
        assert state is not None
        check(state, self.expect, all_events, f"{self.source}: final expectations")
        return ScenarioResult(state=state, events=tuple(tuple(e) for e in per_step))

    def walk(
        self, *, ruleset: RulesetLike, chooser: Chooser | None = None, stop: int | None = None
    ) -> Iterator[tuple[int, Step | None, GameState, list[Event]]]:
        """Play the script without checking expectations: yields ``(0, None, start,
        start events)`` and then ``(k, step, state after step k, events of step k)`` for
        each step from 1 (step 1's events begin with the start's), up to step ``stop``
        (default all). The one way the runner, ``killteam explain``, ``render`` and
        ``view`` reach a scenario's positions, with the file's ``choices`` policy.

        Raises:
            ScenarioFileError: an invalid position, or ``choices = "best"`` without
                ``chooser``.
            ScenarioScriptError: a step's action rejected, a roll missing, wrong or unused.
        """
        policy = self.policy(chooser)
        state, started = self.start_with_events(ruleset=ruleset)
        yield 0, None, state, list(started)
        for k, step in enumerate(self.steps[:stop], start=1):
            where = f"{self.source}: step {k} ({step.name!r})"
            state, events = play_step(state, step, where, policy)
            yield k, step, state, [*started, *events] if k == 1 else events


@attrs.frozen(slots=True)
class ScenarioResult:
    """What a scenario run produced: the final state and the events of each step (the
    first step's begin with the events of the position's start, module docstring)."""

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
    path: str | Path,
    on_step: StepCallback | None = None,
    *,
    ruleset: RulesetLike,
    chooser: Chooser | None = None,
) -> ScenarioResult:
    """Load a scenario file, replay it under ``ruleset`` and check its expectations (see
    :meth:`Scenario.run`; ``on_step`` is called after each step is played; ``chooser``
    answers for ``choices = "best"``).

    Raises:
        ScenarioFileError, ScenarioScriptError, ExpectationError: see :meth:`Scenario.run`.
    """
    return load_scenario(path).run(on_step, ruleset=ruleset, chooser=chooser)


def scenario_from_dict(data: Mapping[str, Any], source: str, base: Path) -> Scenario:
    """Build a :class:`Scenario` from the parsed TOML ``data`` (module docstring); relative
    paths are resolved from ``base`` (:func:`engine.game.scenario_fields.scenario_fields`).

    Raises:
        ScenarioFileError: an unknown or malformed field, a limit exceeded, nesting too deep
            or a number out of range (:func:`engine.inputs.check_tree`), an invalid killzone
            or team.
    """
    return Scenario(**scenario_fields(data, source, base))
