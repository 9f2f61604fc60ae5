"""Scripted scenarios: a position set up exactly, then a script of actions and dice.

:func:`position` builds a battle state in the Firefight phase of a turning point (or in
any phase and step from the set-up to the end of a turning point,
:mod:`engine.game.scenario_state`) with chosen operatives placed exactly (the others are not
on the killzone), orders, wounds, CP, VP, initiative, whose turn it is, the players'
counters, effects in force and the mission's state; :func:`start_position` also returns the
events of its start. :func:`run` applies a script of actions, taking dice from a strict
:class:`~engine.game.drivers.ScriptedDice` at every chance node, and returns the state and
the events.

Example::

    s = position(kz, kasrkin, legionaries, ruleset=KT24,
                 operatives={"KAS-1": {"at": (10, 5), "order": "engage"},
                             "LEG-1": {"at": (16, 5), "order": "engage"}},
                 turn="A")
    s, events = run(s, ["Activate KAS-1 engage", "Shoot KAS-1 hot-shot lasgun at LEG-1"],
                    dice=["6,5,4,2", "3,1,1"])

The ruleset comes from the caller (:func:`engine.rulesets.position` picks the one the
options name).
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from engine.errors import KillTeamError
from engine.game.actions import Action, parse_action
from engine.game.context import GameOptions
from engine.game.deployment import check_deployment
from engine.game.drivers import ScriptedDice, ScriptError
from engine.game.events import Event
from engine.game.flow import advance
from engine.game.scenario_state import (
    PHASE_STEPS,
    PositionStateError,
    add_effects,
    default_cards,
    set_mission_state,
    set_players,
    start_frames,
)
from engine.game.scenario_values import OPERATIVE_KEYS
from engine.game.setup import start_battle
from engine.game.state import Chance, GameState, PlayerState, RulesetLike
from engine.game.universal import start_carrying
from engine.game.work import Work
from engine.geometry import Killzone
from engine.teams.model import Roster

__all__ = ["ScenarioError", "position", "run", "start_position"]


class ScenarioError(KillTeamError, ValueError):
    """A scenario position or script is wrong (the message names the operative or step)."""


_OP_KEYS = OPERATIVE_KEYS


def _mission_choices(w: Work) -> None:
    """The tac ops and primary ops the game options fix (``rules/KT24.md`` 8.1, 8.4) are
    those of the position: a position starts after the set-up steps that select them. A
    crit op fixed by the options is already chosen by the set-up (the ruleset's mission).
    Op names are the ruleset's (:meth:`~engine.game.state.RulesetLike.op_name`)."""
    opts = w.ctx.options
    if opts.mission != "approved_ops_2025" or not (opts.tac_ops or opts.primary_ops):
        return
    ruleset = w.ctx.rules.ruleset
    tac = dict(zip(("A", "B"), w.mission.tac_ops, strict=True))
    for p, name in opts.tac_ops:
        tac[p] = ruleset.op_name(name, "tac") or name
    primary = dict(zip(("A", "B"), w.mission.primary_ops, strict=True))
    for p, choice in opts.primary_ops:
        primary[p] = choice.lower()
    w.mission = attrs.evolve(
        w.mission, tac_ops=(tac["A"], tac["B"]), primary_ops=(primary["A"], primary["B"])
    )


def position(
    killzone: Killzone,
    roster_a: Roster,
    roster_b: Roster,
    **kwargs: Any,
) -> GameState:
    """A position of a battle (the arguments and errors: :func:`start_position`): its state
    at its first node."""
    return start_position(killzone, roster_a, roster_b, **kwargs)[0]


def start_position(
    killzone: Killzone,
    roster_a: Roster,
    roster_b: Roster,
    *,
    operatives: Mapping[str, Mapping[str, Any]] | None = None,
    tp: int = 1,
    initiative: str = "A",
    turn: str | None = None,
    cp: tuple[int, int] = (2, 2),
    vp: tuple[int, int] | None = None,
    open_hatchways: Iterable[str] = (),
    options: GameOptions | None = None,
    equipment: Mapping[str, Sequence[str]] | None = None,
    tokens: Sequence[Mapping[str, Any]] = (),
    phase: str = "firefight",
    step: str | None = None,
    initiative_roll: tuple[int, int] | None = None,
    gambit_turn: str | None = None,
    players: Mapping[str, Mapping[str, Any]] | None = None,
    effects: Sequence[Mapping[str, Any]] = (),
    mission: Mapping[str, Any] | None = None,
    ruleset: RulesetLike,
) -> tuple[GameState, list[Event]]:
    """A position (module docstring) of a battle of ``ruleset``, in the Firefight phase
    unless ``phase`` says otherwise, and the events of its start: the procedures run from
    the point the position describes to the first decision or roll (the Ready step of a
    position at the Strategy phase's ``"ready"`` step; the scoring at the end of a turning
    point when no ploy window opens first).

    Args:
        ruleset: the ruleset the options name (:class:`~engine.game.state.RulesetLike`;
            :func:`engine.rulesets.position` picks it).
        operatives: id -> ``{"at": (x, y) or (x, y, z) inches, "order": "engage"|"conceal"
            (default engage; conceal in the deployment phase), "wounds": int (default the
            datacard's), "ready": bool (default True; False at the end of a turning point),
            "counteracted": bool, "on_guard": bool, "interrupted": bool (made an On Guard
            interrupt this turning point), "ap": int (action points left), "limited":
            {weapon: uses} (Limited weapons' uses), "incapacitated": True (a casualty: not
            on the killzone, no ``at``), "carrying": the name of a marker it carries, or a
            sequence of names (objective markers, or ``tokens`` that are markers a rule lets
            operatives pick up), "tokens": its tokens of the round, a list of names the
            ruleset's ``position_tokens`` hook accepts (KT18's, ``rules/KT18.md`` 8.1)}``.
            Operatives not listed are not on the killzone; in the deployment phase the
            listed ones are set up (wholly within their drop zone).
        phase, step: where the position starts (:mod:`engine.game.scenario_state`: set-up,
            deployment, the Strategy phase and its steps, Firefight, the end of the
            turning point); ``step`` defaults to the phase's first.
        initiative_roll: the initiative roll-off already made (A's die, B's die), in the
            Strategy phase's initiative step. ``gambit_turn``: the Gambit step under way,
            this player to choose.
        tp: the turning point (1-4; a KT18 battle round, 1-5); ``initiative``: who has
            initiative; ``turn``: whose turn it is to activate (default the initiative
            player).
        cp, vp: command and victory points of A and B (``vp`` default: the sum of the
            ``mission`` VP by op, else 0).
        players: the players' counters and initiative cards
            (:func:`engine.game.scenario_state.set_players`).
        effects: effects in force (:func:`engine.game.scenario_state.add_effects`).
        mission: the mission's state (:func:`engine.game.scenario_state.set_mission_state`).
        open_hatchways: hatchways open at the start.
        equipment: player -> the universal equipment it selected (7.2; names as
            ``Equipment`` takes them), default none.
        tokens: equipment already on the killzone, each ``{"kind": "mines", "owner": "A",
            "at": (x, y) or (x, y, z), "angle": degrees (default 0), "name": what a rule
            keys the token by, for a kind whose maker takes one (a Reanimation marker:
            ``"reanimation HIE-3"``), "counters": {key: int} (the counters its module keeps
            on it: used this turning point, activations left...)}``; the kinds are those
            the rule modules build (``Hooks.token_maker``: equipment, smoke, mission
            markers, mines, the Grisly and Reanimation markers), placed exactly as given
            (the set-up restrictions are not checked; the terrain must fit on the killzone).

    Raises:
        ScenarioError: an unknown operative or field, an illegal placement (off the killzone,
            on terrain, overlapping, outside the drop zone in deployment), a bad order or
            wounds value, an unknown equipment name or token kind, a token that cannot be
            built there, a phase or step that does not exist, a table of
            :mod:`engine.game.scenario_state` that is wrong, operatives in the set-up phase.
    """
    operatives = operatives or {}
    step = step or PHASE_STEPS.get(phase, ("",))[0]
    if phase == "setup" and operatives:
        raise ScenarioError("operatives: none is on the killzone before deployment (1.2)")
    base = start_battle(killzone, roster_a, roster_b, options, ruleset)
    ctx = base.ctx
    w = Work(base)
    setup = phase in ("setup", "deployment")
    w.tp = 0 if setup else tp
    if phase != "setup":
        w.initiative = initiative
    mission_vp = _mission_vp(mission)
    vp = vp if vp is not None else mission_vp
    w.players = [
        PlayerState(cp=cp[0], vp=vp[0], drop_zone="A" if phase != "setup" else ""),
        PlayerState(cp=cp[1], vp=vp[1], drop_zone="B" if phase != "setup" else ""),
    ]
    for player, chosen in (equipment or {}).items():
        if player not in ("A", "B"):
            raise ScenarioError(f"equipment: no player {player!r} (A or B)")
        check = ctx.hooks.equipment_check
        try:
            team = ctx.rosters[player].team
            names_ = check(tuple(chosen), team) if check is not None else tuple(chosen)
        except ValueError as exc:
            raise ScenarioError(f"equipment.{player}: {exc}") from None
        w.set_pl(player, equipment=names_)
    _mission_choices(w)
    for k, spec in enumerate(tokens):
        _token(w, k, spec)
    names = sorted(open_hatchways)
    for n in names:
        if n not in ctx.killzone.hatchways:
            raise ScenarioError(f"open_hatchways: {n!r} is not a hatchway of {killzone.name}")
    w.open_hatchways = tuple(names)
    for op_id, spec in operatives.items():
        _place(w, op_id, spec, phase)
    try:
        default_cards(w, phase, step)
        set_players(w, players or {})
        add_effects(w, effects)
        set_mission_state(w, mission or {})
        start_frames(
            w,
            phase,
            step,
            turn=turn or initiative,
            initiative_roll=initiative_roll,
            gambit_turn=gambit_turn,
        )
    except PositionStateError as exc:
        raise ScenarioError(str(exc)) from None
    w.events = []
    w.node = None
    advance(w)
    events, w.events = w.events, []
    return w.freeze(), events


def _mission_vp(mission: Mapping[str, Any] | None) -> tuple[int, int]:
    """The VP of A and B the mission's ops have scored (``mission["vp"]``)."""
    rows = (mission or {}).get("vp", {})
    try:
        return (sum(int(v[0]) for v in rows.values()), sum(int(v[1]) for v in rows.values()))
    except (TypeError, ValueError, IndexError):
        raise ScenarioError("mission.vp: op = [A, B] whole numbers") from None


def _place(w: Work, op_id: str, spec: Mapping[str, Any], phase: str) -> None:
    """Put operative ``op_id`` of a position on the killzone as ``spec`` says
    (:func:`position`)."""
    ctx = w.ctx
    if op_id not in ctx.index:
        raise ScenarioError(f"operatives: no operative {op_id!r} (ids: {', '.join(ctx.ids)})")
    extra = set(spec) - _OP_KEYS
    if extra:
        raise ScenarioError(f"operatives.{op_id}: unknown field(s) {sorted(extra)}")
    if spec.get("incapacitated"):
        if set(spec) - {"incapacitated"}:
            raise ScenarioError(
                f"operatives.{op_id}: an incapacitated operative is not on the killzone: "
                "no other field"
            )
        w.set_op(op_id, placed=False, incapacitated=True, wounds=0, ready=False)
        return
    if "at" not in spec:
        raise ScenarioError(f"operatives.{op_id}: 'at' (x, y[, z]) is required")
    at = tuple(float(v) for v in spec["at"])
    if len(at) not in (2, 3):
        raise ScenarioError(f"operatives.{op_id}.at must be (x, y) or (x, y, z)")
    x, y, z = at[0], at[1], at[2] if len(at) == 3 else 0.0
    deploying = phase == "deployment"
    order = str(spec.get("order", "conceal" if deploying else "engage")).lower()
    if order not in ("engage", "conceal"):
        raise ScenarioError(f"operatives.{op_id}.order must be engage or conceal")
    card = ctx.datacards[op_id]
    wounds = int(spec.get("wounds", card.wounds))
    if not 1 <= wounds <= card.wounds:
        raise ScenarioError(f"operatives.{op_id}.wounds must be 1 to {card.wounds}")
    o = w.op(op_id)
    p = ctx.placement(op_id, x, y, z)
    w.set_op(op_id, placed=False)
    # Reuse the deployment checks; the drop-zone condition only while deploying.
    try:
        check_deployment(w, o, (p.x, p.y, p.elevation), drop_zone=deploying)
    except KillTeamError as exc:
        raise ScenarioError(f"operatives.{op_id}: {exc}") from None
    limited = spec.get("limited", {})
    w.set_op(
        op_id,
        x=p.x,
        y=p.y,
        elevation=p.elevation,
        placed=True,
        order=order,
        wounds=wounds,
        ready=bool(spec.get("ready", phase != "end")),
        counteracted=bool(spec.get("counteracted", False)),
        on_guard=bool(spec.get("on_guard", False)),
        interrupted=bool(spec.get("interrupted", False)),
        ap=int(spec.get("ap", 0)),
        limited=tuple(sorted((str(k), int(v)) for k, v in limited.items())),
    )
    carrying = spec.get("carrying", ())
    for name in (carrying,) if isinstance(carrying, str) and carrying else carrying:
        try:
            start_carrying(w, op_id, str(name))
        except ValueError as exc:
            raise ScenarioError(f"operatives.{op_id}.carrying: {exc}") from None
    _round_tokens(w, op_id, spec.get("tokens", ()))


MAX_ROUND_TOKENS = 32
"""The most tokens of the round a position gives one operative (bounds the work an input
causes)."""


def _round_tokens(w: Work, op_id: str, tokens: Any) -> None:
    """Give ``op_id`` its ``tokens`` of the round (``OperativeState.done``), when a rule
    module accepts them (the ``position_tokens`` *would* hook: KT18's round tokens)."""
    if not tokens:
        return
    if (
        not isinstance(tokens, (list, tuple))
        or len(tokens) > MAX_ROUND_TOKENS
        or not all(isinstance(t, str) for t in tokens)
    ):
        raise ScenarioError(
            f"operatives.{op_id}.tokens: a list of at most {MAX_ROUND_TOKENS} token names"
        )
    names_ = tuple(sorted(set(tokens)))
    why = w.would(
        "position_tokens",
        "the battle's ruleset keeps no tokens of the round for its operatives",
        op=op_id,
        tokens=names_,
    )
    if why is not None:
        raise ScenarioError(f"operatives.{op_id}.tokens: {why}")
    w.set_op(op_id, done=names_)


_TOKEN_KEYS = {"kind", "owner", "at", "angle", "name", "counters"}


def _token(w: Work, k: int, spec: Mapping[str, Any]) -> None:
    """Build token ``k`` of a position (:func:`position`) and put it on the killzone."""
    where = f"tokens[{k}]"
    extra = set(spec) - _TOKEN_KEYS
    if extra:
        raise ScenarioError(f"{where}: unknown field(s) {sorted(extra)}")
    makers = w.ctx.hooks.token_makers
    kind = spec.get("kind")
    if not isinstance(kind, str) or kind not in makers:
        known = ", ".join(sorted(makers)) or "none"
        raise ScenarioError(f"{where}.kind: unknown token kind {kind!r} (known: {known})")
    owner = spec.get("owner", "A")
    if owner not in ("A", "B"):
        raise ScenarioError(f"{where}.owner must be A or B, not {owner!r}")
    at = tuple(float(v) for v in spec.get("at", ()))
    if len(at) not in (2, 3):
        raise ScenarioError(f"{where}.at must be (x, y) or (x, y, z)")
    angle = int(spec.get("angle", 0))
    maker = makers[kind]
    extra_args: dict[str, Any] = {}
    if "name" in spec:
        if "name" not in inspect.signature(maker).parameters:
            raise ScenarioError(
                f"{where}.name: a {kind} token takes no name (its rule names it itself)"
            )
        extra_args["name"] = str(spec["name"])
    try:
        token = maker(w, owner, at[0], at[1], at[2] if len(at) == 3 else 0.0, angle, **extra_args)
    except (ValueError, KillTeamError) as exc:
        raise ScenarioError(f"{where}: {exc}") from None
    for key, value in sorted(dict(spec.get("counters", {})).items()):
        token = token.with_counter(str(key), int(value))
    w.tokens.append(token)
    try:
        w.kz  # noqa: B018 - build the killzone with it now: its terrain must fit
    except (ValueError, KillTeamError) as exc:
        raise ScenarioError(f"{where}: {exc}") from None


def run(
    state: GameState,
    actions: Sequence[str | Action],
    dice: Iterable[str | Action] = (),
    *,
    strict: bool = True,
) -> tuple[GameState, list[Event]]:
    """Apply ``actions`` in order, rolling scripted ``dice`` at every chance node.

    Chance nodes met after the last action are also rolled while dice remain.

    Raises:
        ScriptError: a roll is needed and the script has none left (strict), or, with
            ``strict``, dice are left over at the end.
        IllegalActionError / InvalidActionError: an action is rejected (the state before it
            is unchanged; the error names the step).
    """
    driver = ScriptedDice(dice)
    events: list[Event] = []
    queue = [a if isinstance(a, Action) else parse_action(a) for a in actions]
    k = 0
    while True:
        if isinstance(state.node, Chance):
            if not queue[k:] and driver.left == 0:
                break
            state, ev = state.apply(driver.roll(state))
            events += ev
            continue
        if k >= len(queue) or state.is_terminal:
            break
        try:
            state, ev = state.apply(queue[k])
        except KillTeamError as exc:
            raise type(exc)(f"script step {k + 1} ({queue[k]}): {exc}") from None
        events += ev
        k += 1
    if k < len(queue):
        raise ScriptError(f"the battle ended before script step {k + 1} ({queue[k]})")
    if strict and driver.left:
        raise ScriptError(f"{driver.left} scripted roll(s) were not used")
    return state, events
