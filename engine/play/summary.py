"""The outcome of one battle: VP per mission op, ploys used, operatives left.

:class:`VpTally` and :class:`PloyTally` collect, step by step, what the final state alone does
not keep (which op scored each VP, which ploys were used); :func:`summarise` turns the final
state and the tallies into a :class:`BattleSummary` (its :meth:`~BattleSummary.to_json` is the
JSON summary of ``killteam play --json`` and ``killteam replay --json``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from engine.game.actions import Action
from engine.game.events import Event
from engine.game.state import GameState, Terminal
from engine.play import agent_seeds, mission_ops
from engine.rules import unimplemented_rules

__all__ = [
    "PLOY_KINDS",
    "BattleSummary",
    "OnStep",
    "OperativeLeft",
    "PloyTally",
    "VpTally",
    "summarise",
]

OnStep = Callable[[GameState, Action, str, GameState, list[Event]], None]


class VpTally:
    """Victory points per mission op and player, from the ``vp_scored`` events of a battle
    (pass :meth:`on_step` to :func:`engine.game.drivers.play` or ``replay``)."""

    def __init__(self) -> None:
        self.vp: dict[str, list[int]] = {}

    def on_step(
        self,
        before: GameState,
        action: Action,
        actor: str,
        after: GameState,
        events: list[Event],
    ) -> None:
        """Add the VP scored in one step."""
        for e in events:
            if e.kind == "vp_scored":
                op = str(e.get("op") or "other")
                self.vp.setdefault(op, [0, 0])[0 if e["player"] == "A" else 1] += int(e["vp"])
            elif e.kind == "vp_lost":
                op = str(e.get("op") or "other")
                self.vp.setdefault(op, [0, 0])[0 if e["player"] == "A" else 1] -= int(e["vp"])


#: The kinds of ``ploy_used`` events that are ploys (7.1); kind ``"rule"`` marks other
#: once-per-turning-point gambits paid the same way, which are not counted as ploys.
PLOY_KINDS = ("strategy", "firefight")


class PloyTally:
    """Ploys used per player and ploy name, from the ``ploy_used`` events of a battle whose
    ``ploy_kind`` is a ploy's (:data:`PLOY_KINDS`; ``rules/KT24.md`` 7.1). Each use counts
    once, Command Re-roll each time it is used. Pass :meth:`on_step` to
    :func:`engine.game.drivers.play` or ``replay``."""

    def __init__(self) -> None:
        self.used: dict[str, dict[str, int]] = {"A": {}, "B": {}}

    def on_step(
        self,
        before: GameState,
        action: Action,
        actor: str,
        after: GameState,
        events: list[Event],
    ) -> None:
        """Count the ploys used in one step."""
        for e in events:
            if e.kind == "ploy_used" and e.get("ploy_kind") in PLOY_KINDS:
                mine = self.used[str(e["player"])]
                name = str(e["ploy"])
                mine[name] = mine.get(name, 0) + 1

    def counts(self, player: str) -> tuple[tuple[str, int], ...]:
        """``player``'s ``(ploy name, uses)`` pairs, sorted by name."""
        return tuple(sorted(self.used[player].items()))


@attrs.frozen(slots=True)
class OperativeLeft:
    """An operative at the end: ``id``, ``name`` (its datacard), ``player``, ``wounds`` left
    and its starting ``max_wounds``, whether it was incapacitated, and its ``flesh_wounds``
    (KT18 models, ``rules/KT18.md`` 6.11: one ``kt18_flesh_wound`` effect each; 0 for an
    operative of another ruleset)."""

    id: str
    name: str
    player: str
    wounds: int
    max_wounds: int
    incapacitated: bool
    flesh_wounds: int = 0


@attrs.frozen(slots=True)
class BattleSummary:
    """The outcome of one battle.

    Attributes:
        seed: the battle seed (``None`` when unknown, e.g. a record without one).
        agents: agent names (A, B); agent_seeds: their seeds (:func:`agent_seeds`).
        teams: team names (A, B); team_ids: their ids; killzone: the layout's name.
        finished: the battle reached its end (TP4 over).
        turning_point: the last turning point played (1-4).
        steps: inputs applied.
        vp: victory points (A, B); vp_by_op: op -> (A, B), the ruleset's scoring ops first
            (:func:`engine.play.mission_ops`)
            (their sum is ``vp``).
        winner: ``"A"``, ``"B"`` or ``""`` (a draw, or not finished).
        kills: enemy operatives incapacitated (A's kills are B's operatives incapacitated,
            whatever did it: the kill op counts them the same, 8.2).
        operatives: every operative at the end, A's then B's, in roster order.
        hash: the final state's hash (:meth:`GameState.hash`).
        unimplemented_rules: the ids of the team rules of A's and B's teams that the engine
            does not play (:func:`unimplemented_rule_ids`).
        ploys_used: per player (A, B), ``(ploy name, uses)`` pairs sorted by name
            (:class:`PloyTally`).
        equipment: per player (A, B), the universal equipment selected (7.2), canonical
            names in selection order.
        crit_op: the crit op played (``""``: the kill op alone, 8.3).
        tac_ops, primary_ops: per player (A, B), the tac op and primary op selected (8.1,
            8.4; revealed at the end of the battle, ``""`` when none).
        ruleset: the ruleset the battle was played under (``"kt24"``, ``"kt21"``);
        mission: its mission or game sequence (:data:`engine.game.context.MISSIONS`).
    """

    seed: int | None
    agents: tuple[str, str]
    agent_seeds: tuple[int, int] | None
    teams: tuple[str, str]
    team_ids: tuple[str, str]
    killzone: str
    finished: bool
    turning_point: int
    steps: int
    vp: tuple[int, int]
    vp_by_op: tuple[tuple[str, tuple[int, int]], ...]
    winner: str
    kills: tuple[int, int]
    operatives: tuple[OperativeLeft, ...]
    hash: str
    unimplemented_rules: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    ploys_used: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]] = ((), ())
    equipment: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    crit_op: str = ""
    tac_ops: tuple[str, str] = ("", "")
    primary_ops: tuple[str, str] = ("", "")
    ruleset: str = "kt24"
    mission: str = ""

    def left(self, player: str) -> list[OperativeLeft]:
        """``player``'s operatives still on the killzone."""
        return [o for o in self.operatives if o.player == player and not o.incapacitated]

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON data (the ``killteam play --json`` object, README)."""
        ab = ("A", "B")
        return {
            "seed": self.seed,
            "ruleset": self.ruleset,
            "mission": self.mission,
            "agents": dict(zip(ab, self.agents, strict=True)),
            "agent_seeds": None
            if self.agent_seeds is None
            else dict(zip(ab, self.agent_seeds, strict=True)),
            "teams": dict(zip(ab, self.teams, strict=True)),
            "team_ids": dict(zip(ab, self.team_ids, strict=True)),
            "killzone": self.killzone,
            "finished": self.finished,
            "turning_point": self.turning_point,
            "steps": self.steps,
            "vp": dict(zip(ab, self.vp, strict=True)),
            "vp_by_op": {op: dict(zip(ab, v, strict=True)) for op, v in self.vp_by_op},
            "winner": self.winner or None,
            "kills": dict(zip(ab, self.kills, strict=True)),
            "ploys_used": {p: dict(used) for p, used in zip(ab, self.ploys_used, strict=True)},
            "equipment": {p: list(eq) for p, eq in zip(ab, self.equipment, strict=True)},
            "crit_op": self.crit_op or None,
            "tac_ops": {p: op or None for p, op in zip(ab, self.tac_ops, strict=True)},
            "primary_ops": {p: op or None for p, op in zip(ab, self.primary_ops, strict=True)},
            "operatives": {
                p: [
                    {
                        "id": o.id,
                        "name": o.name,
                        "wounds": o.wounds,
                        "max_wounds": o.max_wounds,
                        "incapacitated": o.incapacitated,
                        # (KT18 only: flesh wounds, rules/KT18.md 6.11)
                        **({"flesh_wounds": o.flesh_wounds} if o.flesh_wounds else {}),
                    }
                    for o in self.operatives
                    if o.player == p
                ]
                for p in ab
            },
            "hash": self.hash,
            "unimplemented_rules": {
                p: list(ids) for p, ids in zip(ab, self.unimplemented_rules, strict=True)
            },
        }


def summarise(
    final: GameState,
    tally: VpTally | None = None,
    *,
    ploys: PloyTally | None = None,
    seed: int | None = None,
    agents: tuple[str, str] = ("", ""),
) -> BattleSummary:
    """The :class:`BattleSummary` of a battle's ``final`` state.

    Args:
        tally: the VP per op seen while playing; without it (or when it does not add up to
            the state's VP) the difference is put under the op ``"other"``.
        ploys: the ploys seen used while playing; without it none are listed.
        seed: the battle seed; agents: agent names for A and B (for the record).
    """
    ctx = final.ctx
    vp = (final.players[0].vp, final.players[1].vp)
    by_op = {op: list(v) for op, v in (tally.vp.items() if tally else [])}
    ops = mission_ops(ctx.options.ruleset)
    for op in ops:
        by_op.setdefault(op, [0, 0])
    for k in (0, 1):
        rest = vp[k] - sum(v[k] for v in by_op.values())
        if rest:
            by_op.setdefault("other", [0, 0])[k] += rest
    ops_order = [*ops, *(op for op in by_op if op not in ops)]
    node = final.node
    finished = isinstance(node, Terminal)
    winner = node.result.winner if isinstance(node, Terminal) else ""
    down = {p: sum(1 for o in final.operatives if o.player == p and o.incapacitated) for p in "AB"}
    teams = (ctx.rosters["A"].team, ctx.rosters["B"].team)
    return BattleSummary(
        seed=seed,
        agents=agents,
        agent_seeds=None if seed is None else agent_seeds(seed),
        teams=(teams[0].name, teams[1].name),
        team_ids=(teams[0].id, teams[1].id),
        killzone=ctx.killzone.name,
        finished=finished,
        turning_point=min(final.tp, 4),
        steps=final.step,
        vp=vp,
        vp_by_op=tuple((op, (by_op[op][0], by_op[op][1])) for op in ops_order),
        winner=winner,
        kills=(down["B"], down["A"]),
        operatives=tuple(
            OperativeLeft(
                id=o.id,
                name=ctx.datacards[o.id].name,
                player=o.player,
                wounds=max(0, o.wounds),
                max_wounds=ctx.datacards[o.id].wounds,
                incapacitated=o.incapacitated,
                flesh_wounds=sum(
                    1 for f in final.effects if f.kind == "kt18_flesh_wound" and f.op == o.id
                ),
            )
            for o in final.operatives
        ),
        hash=final.hash(),
        unimplemented_rules=(
            tuple(sorted(d.id for d in unimplemented_rules(teams[0]))),
            tuple(sorted(d.id for d in unimplemented_rules(teams[1]))),
        ),
        ploys_used=((), ()) if ploys is None else (ploys.counts("A"), ploys.counts("B")),
        equipment=(final.player("A").equipment, final.player("B").equipment),
        crit_op=final.mission.crit_op,
        tac_ops=final.mission.tac_ops,
        primary_ops=final.mission.primary_ops,
        ruleset=ctx.options.ruleset,
        mission=ctx.options.mission,
    )
