"""Complete scenario positions (:func:`engine.game.scenario.position`): the phase and step a
position starts in, built from the frames a real battle has at that point (never a stand-in),
and the state beyond the operatives: the players' counters and initiative cards, effects in
force, the mission's state.

Phases (:data:`PHASES`) and their steps (``rules/KT24.md`` 1.2-1.5):

- ``"setup"``: the battle as created, before the set-up roll-off (the crit op's roll first
  when the options leave it to the dice); no operative is on the killzone.
- ``"deployment"``: initiative and drop zones decided (player A's drop zone is ``"A"``);
  step ``"equipment"``: the steps rule modules add before deployment (equipment selection
  and set-up) are next; step ``"deploy"`` (default): the operatives listed are already set
  up and deployment goes on in alternating thirds from there (:class:`DeployFrame`).
- ``"strategy"``: step ``"start"``: the turning point begins (its start window, then the
  initiative step); ``"initiative"`` (default): the initiative step is next, its roll-off
  done when ``initiative_roll`` is given; ``"ready"``: initiative decided, the Ready step
  (CP gained, operatives readied) is next; ``"gambit"``: the Gambit step begins (the steps
  rule modules add at its start, the crit op's picks, run first), or, with ``gambit_turn``,
  is under way with that player to choose.
- ``"firefight"``: the Firefight phase, ``turn`` to activate (the default).
- ``"end"``: the Firefight phase is over: the end of the turning point (its windows, then
  the ops' scoring) is next; every operative is expended.
- ``"initiative"``, ``"movement"``, ``"psychic"``, ``"shooting"``, ``"fight"``,
  ``"morale"`` (:data:`KT18_PHASES`): the phases of a KT18 battle round (``rules/KT18.md``
  2.1), only in a KT18 position (:mod:`engine.rules.kt18.positions` says what each means).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from engine.errors import KillTeamError
from engine.game.flow import (
    DeployFrame,
    FirefightFrame,
    GambitFrame,
    InitiativeFrame,
    SetupFrame,
    TurningPointFrame,
)
from engine.game.state import Effect, other
from engine.game.work import Work

__all__ = [
    "CARDS",
    "EFFECT_UNTIL",
    "KT18_PHASES",
    "PHASES",
    "PHASE_STEPS",
    "PositionStateError",
    "add_effects",
    "default_cards",
    "deploy_frame",
    "set_mission_state",
    "set_players",
    "start_frames",
]


class PositionStateError(KillTeamError, ValueError):
    """A position table is wrong (the message names the field and the value)."""


PHASES = (
    "setup",
    "deployment",
    "strategy",
    "firefight",
    "end",
    "initiative",
    "movement",
    "psychic",
    "shooting",
    "fight",
    "morale",
)
"""The phases a position can start in (module docstring)."""

PHASE_STEPS: Mapping[str, tuple[str, ...]] = {
    "setup": ("roll-off",),
    "deployment": ("deploy", "equipment"),
    "strategy": ("initiative", "start", "ready", "gambit"),
    "firefight": ("activation",),
    "end": ("scoring",),
    # The phases of a KT18 battle round (rules/KT18.md 2.1; engine.rules.kt18.positions):
    "initiative": ("start", "roll"),
    "movement": ("turn",),
    "psychic": ("phase",),
    "shooting": ("phase",),
    "fight": ("phase",),
    "morale": ("phase",),
}
"""The steps of each phase, the default first (module docstring)."""

KT18_PHASES = ("initiative", "movement", "psychic", "shooting", "fight", "morale")
"""The phases only a KT18 position starts in (its ``position_frames`` hook puts its frames
there; ``rules/KT18.md`` 2.1)."""

CARDS = ("re-roll", "1", "2", "3")
"""The initiative cards a player can hold (Approved Ops 2025, 1.4)."""

EFFECT_UNTIL = ("end_activation", "end_next_activation", "end_tp", "end_battle", "while")
"""When an effect ends (:class:`~engine.game.state.Effect` ``until``)."""

_PLAYER_KEYS = {"cards", "ploys_used", "uses", "cp_spent", "kill_grade"}
_EFFECT_KEYS = {"kind", "op", "until", "source", "value", "detail", "player", "pending"}
_MISSION_KEYS = {"tac_revealed", "vp", "tp_vp", "facts"}
_OPS = ("kill", "crit", "tac", "primary")


def _ploy_names(w: Work, player: str) -> set[str]:
    return {
        str(getattr(ploy, "name", ""))
        for entries in w.ctx.hooks.ploys.values()
        for ploy, players in entries
        if player in players
    }


def set_players(w: Work, players: Mapping[str, Mapping[str, Any]]) -> None:
    """Set the players' counters: ``{"A": {"cards": ["re-roll", "1"], "ploys_used":
    [ploy names used this turning point], "uses": {key: count} (the counters rule modules
    keep, :attr:`~engine.game.state.PlayerState.uses`: once-per-battle rules, shared
    equipment), "cp_spent": int, "kill_grade": int}, "B": {...}}``.

    Raises:
        PositionStateError: an unknown player or field, a card that is not one of
            :data:`CARDS`, a ploy the player's rules do not have.
    """
    for p, spec in players.items():
        if p not in ("A", "B"):
            raise PositionStateError(f"players: no player {p!r} (A or B)")
        extra = set(spec) - _PLAYER_KEYS
        if extra:
            raise PositionStateError(f"players.{p}: unknown field(s) {sorted(extra)}")
        changes: dict[str, Any] = {}
        if "cards" in spec:
            cards = tuple(str(c) for c in spec["cards"])
            for c in cards:
                if c not in CARDS:
                    raise PositionStateError(
                        f"players.{p}.cards: {c!r} is not an initiative card ({', '.join(CARDS)})"
                    )
            changes["cards"] = tuple(sorted(cards))
        if "ploys_used" in spec:
            known = _ploy_names(w, p)
            used = tuple(str(n) for n in spec["ploys_used"])
            for n in used:
                if n not in known:
                    raise PositionStateError(
                        f"players.{p}.ploys_used: {n!r} is not a ploy of player {p} "
                        f"(ploys: {', '.join(sorted(known)) or 'none'})"
                    )
            changes["ploys_used"] = used
        if "uses" in spec:
            changes["uses"] = tuple(sorted((str(k), int(v)) for k, v in spec["uses"].items()))
        for k in ("cp_spent", "kill_grade"):
            if k in spec:
                changes[k] = int(spec[k])
        w.set_pl(p, **changes)


def add_effects(w: Work, effects: Sequence[Mapping[str, Any]]) -> None:
    """Put effects in force (:class:`~engine.game.state.Effect`: marks, tokens such as a
    Markerlight or Deathmarked, stuns, ploys, drills), each ``{"kind": str, "op": an
    operative id or "" (an effect on a whole kill team then names ``player``), "until": one
    of :data:`EFFECT_UNTIL` (default ``"end_tp"``), "source", "value", "detail", "player",
    "pending"}`` as the rule module that makes it would (the kinds are the modules' own).

    Raises:
        PositionStateError: an unknown field, operative or player, an effect naming neither
            an operative nor a player, an unknown ``until`` or ``"while"`` condition.
    """
    ids = w.ctx.ids
    for k, spec in enumerate(effects):
        where = f"effects[{k}]"
        extra = set(spec) - _EFFECT_KEYS
        if extra:
            raise PositionStateError(f"{where}: unknown field(s) {sorted(extra)}")
        kind = str(spec.get("kind", ""))
        if not kind:
            raise PositionStateError(f"{where}.kind: every effect needs a kind")
        op = str(spec.get("op", ""))
        if op and op not in ids:
            raise PositionStateError(f"{where}.op: no operative {op!r} (ids: {', '.join(ids)})")
        player = str(spec.get("player", ""))
        if player not in ("", "A", "B"):
            raise PositionStateError(f"{where}.player: {player!r} is not A or B")
        if not op and not player:
            raise PositionStateError(f"{where}: name the operative (op) or the player it is on")
        until = str(spec.get("until", "end_tp"))
        if until not in EFFECT_UNTIL:
            raise PositionStateError(
                f"{where}.until: {until!r} is not one of {', '.join(EFFECT_UNTIL)}"
            )
        detail = str(spec.get("detail", ""))
        if until == "while" and detail not in w.ctx.hooks.conditions:
            known = ", ".join(sorted(w.ctx.hooks.conditions)) or "none"
            raise PositionStateError(
                f"{where}.detail: {detail!r} is not a condition of a rule in play ({known})"
            )
        w.effects.append(
            Effect(
                kind,
                op,
                until,
                source=str(spec.get("source", "")),
                value=int(spec.get("value", 0)),
                detail=detail,
                player=player,
                pending=bool(spec.get("pending", False)),
            )
        )


def _freeze(value: Any) -> Any:
    """A fact's value as the op modules keep it: lists become tuples (hashable)."""
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def set_mission_state(w: Work, mission: Mapping[str, Any]) -> None:
    """Set the mission's state beyond the ops selected (the options fix those): ``{
    "tac_revealed": {"A": bool}, "vp": {op: [A, B]} (VP each op scored in the battle),
    "tp_vp": {op: [A, B]} (this turning point), "facts": {key: value} (the op modules'
    facts, :attr:`~engine.game.state.MissionState.facts`: crit op picks, searched markers;
    lists are kept as tuples)}``.

    Raises:
        PositionStateError: an unknown field, player or op.
    """
    extra = set(mission) - _MISSION_KEYS
    if extra:
        raise PositionStateError(f"mission: unknown field(s) {sorted(extra)}")
    changes: dict[str, Any] = {}
    if "tac_revealed" in mission:
        revealed = list(w.mission.tac_revealed)
        for p, v in mission["tac_revealed"].items():
            if p not in ("A", "B"):
                raise PositionStateError(f"mission.tac_revealed: no player {p!r} (A or B)")
            if v and not w.mission.tac_ops[0 if p == "A" else 1]:
                raise PositionStateError(
                    f"mission.tac_revealed.{p}: player {p} has no tac op to reveal "
                    "(options.tac_ops names it)"
                )
            revealed[0 if p == "A" else 1] = bool(v)
        changes["tac_revealed"] = (revealed[0], revealed[1])
    for k in ("vp", "tp_vp"):
        if k in mission:
            rows = []
            for op, (a, b) in sorted(mission[k].items()):
                if op not in _OPS:
                    raise PositionStateError(f"mission.{k}.{op}: not an op ({', '.join(_OPS)})")
                rows.append((str(op), int(a), int(b)))
            changes[k] = tuple(rows)
    if "facts" in mission:
        facts = dict(w.mission.facts)
        for key, value in mission["facts"].items():
            facts[str(key)] = _freeze(value)
        changes["facts"] = tuple(sorted(facts.items()))
    w.mission = attrs.evolve(w.mission, **changes)


def deploy_frame(w: Work) -> DeployFrame:
    """The deployment frame of a battle whose placed operatives are those set up so far:
    the turns of :meth:`DeployFrame.start` (alternating thirds, the initiative player first)
    advanced past the groups already set up.

    Raises:
        PositionStateError: the numbers set up are not a point deployment reaches (a player
            set up more than its groups so far allow while the other has not finished its).
    """
    frame = DeployFrame.start(w)
    left = {p: sum(1 for o in w.ops if o.player == p and o.placed) for p in ("A", "B")}
    pos = placed = 0
    for player, size in frame.turns:
        if left[player] >= size:
            left[player] -= size
            pos += 1
            continue
        placed = left[player]
        left[player] = 0
        break
    if any(left.values()):
        raise PositionStateError(
            "operatives: deployment alternates groups of a third of each kill team, the "
            f"initiative player ({w.initiative}) first (1.2): the numbers set up "
            f"(A {sum(1 for o in w.ops if o.player == 'A' and o.placed)}, "
            f"B {sum(1 for o in w.ops if o.player == 'B' and o.placed)}) are not a point "
            "deployment reaches"
        )
    return attrs.evolve(frame, pos=pos, placed=placed)


def start_frames(
    w: Work,
    phase: str,
    step: str,
    *,
    turn: str,
    initiative_roll: tuple[int, int] | None = None,
    gambit_turn: str | None = None,
) -> None:
    """Put on ``w`` the frames (and phase, turning point) a real battle has at ``phase``
    and ``step`` (module docstring); ``w.tp`` is the turning point of the position. A
    ruleset with a flow of its own (KT21) puts its frames there instead through the
    ``position_frames`` *would* hooks (they may raise :class:`PositionStateError` too).

    Raises:
        PositionStateError: an unknown phase or step, ``initiative_roll`` outside the
            initiative step or where no roll-off is made, ``gambit_turn`` outside the
            Gambit step, a ready operative at the end of the turning point.
    """
    if phase not in PHASES:
        raise PositionStateError(f"phase: {phase!r} is not one of {', '.join(PHASES)}")
    if step not in PHASE_STEPS[phase]:
        raise PositionStateError(
            f"step: {step!r} is not a step of the {phase} phase ({', '.join(PHASE_STEPS[phase])})"
        )
    if initiative_roll is not None and (phase, step) != ("strategy", "initiative"):
        raise PositionStateError("initiative_roll: only in the strategy phase's initiative step")
    if gambit_turn is not None and (phase, step) != ("strategy", "gambit"):
        raise PositionStateError("gambit_turn: only in the strategy phase's gambit step")
    if "position_frames" in w.ctx.hooks.would and w.would(
        "position_frames",
        False,
        phase=phase,
        step=step,
        turn=turn,
        initiative_roll=initiative_roll,
        gambit_turn=gambit_turn,
    ):
        return  # the ruleset's own flow (rules/KT21.md 1-3) put its frames there
    if phase in KT18_PHASES:
        raise PositionStateError(
            f"phase: {phase!r} is a phase of the KT18 battle round (rules/KT18.md 2.1): "
            "only a KT18 position starts there"
        )
    if phase == "setup":
        return  # the stack start_battle built: the crit op's roll, the set-up roll-off
    if phase == "deployment":
        if step == "equipment":
            placed = [o.id for o in w.ops if o.placed]
            if placed:
                raise PositionStateError(
                    f"operatives.{placed[0]}: no operative is set up before the equipment "
                    "step that precedes deployment (1.2)"
                )
        w.tp, w.phase = 0, "setup"
        w.stack = [SetupFrame(stage="deploy")] if step == "equipment" else [deploy_frame(w)]
        return
    if phase == "end":
        ready = [o.id for o in w.alive() if o.ready]
        if ready:
            raise PositionStateError(
                f"operatives.{ready[0]}.ready: the Firefight phase ends only when every "
                "operative is expended (1.5)"
            )
        w.phase = "firefight"
        w.stack = [TurningPointFrame(stage="end")]
        return
    if phase == "firefight":
        w.phase = "firefight"
        w.stack = [TurningPointFrame(stage="end"), FirefightFrame(turn=turn)]
        return
    if step == "start":
        w.phase = "setup" if w.tp == 1 else "firefight"
        w.tp -= 1  # the frame's start begins the next turning point
        w.stack = [TurningPointFrame(stage="start")]
        return
    w.phase = "strategy"
    if step == "initiative":
        w.stack = [TurningPointFrame(stage="ready"), InitiativeFrame()]
        if initiative_roll is not None:
            if not w.ctx.options.initiative_cards and w.tp == 1:
                raise PositionStateError(
                    "initiative_roll: without initiative cards the first turning point keeps "
                    "the set-up's initiative (1.4): there is no roll-off"
                )
            w.top.rolled(w, initiative_roll)
    elif step == "ready":
        w.stack = [TurningPointFrame(stage="ready")]
    else:
        w.stack = [TurningPointFrame(stage="gambit"), GambitFrame(turn=gambit_turn or w.initiative)]
        if gambit_turn is None:
            for hook in reversed(w.ctx.hooks.gambit_steps):
                frame = hook(w)
                if frame is not None:
                    w.stack.append(frame)


def default_cards(w: Work, phase: str, step: str) -> None:
    """The initiative cards a battle gives by this point when the position names none: the
    set-up gives the player without initiative the re-roll card (1.2) with the cards in
    use; positions from the first turning point's Ready step on name the cards they hold.
    A ruleset with a flow of its own (the ``position_frames`` hooks: KT21 has no initiative
    cards) gets none."""
    if "position_frames" in w.ctx.hooks.would:
        return
    early = phase == "deployment" or (
        phase == "strategy" and w.tp == 1 and step in ("start", "initiative")
    )
    if early and w.ctx.options.initiative_cards and w.initiative:
        w.set_pl(other(w.initiative), cards=("re-roll",))
