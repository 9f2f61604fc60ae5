"""Victory points by op, with the pack's caps, and the facts op modules keep
(``rules/KT24.md`` 8.1, 8.5).

Every op scores through :func:`score`: an op never gives a player more than
:data:`OP_CAP` VP in the battle, an op's own per-turning-point cap is passed by the op, and
the primary op's bonus (:data:`PRIMARY`) is not capped. VP by op live on
:class:`engine.game.state.MissionState` (``vp`` for the battle, ``tp_vp`` for the current
turning point); :attr:`engine.game.state.PlayerState.vp` stays the total.

Facts (:func:`fact`, :func:`set_fact`) are the ops' memory: which markers are secured, the
tokens on a marker, the picks of a turning point. Keys start with the op's name; a key that
starts ``"secret:A:"`` is hidden from player B (and vice versa) by
:mod:`engine.game.observation`.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.game.state import MissionState, other
from engine.game.work import Work

__all__ = [
    "CRIT",
    "KILL",
    "OP_CAP",
    "OP_KINDS",
    "PRIMARY",
    "TAC",
    "add_vp",
    "fact",
    "initiative_first",
    "op_vp",
    "remove_vp",
    "score",
    "set_fact",
    "set_mission",
]

KILL, CRIT, TAC, PRIMARY = "kill", "crit", "tac", "primary"
OP_KINDS = (KILL, CRIT, TAC, PRIMARY)
"""The ops of a battle as ``vp_by_op`` names them (8.1)."""

OP_CAP = 6
"""The most VP one op (kill, crit or tac) gives a player in a battle (8.1)."""


def initiative_first(w: Work) -> tuple[str, str]:
    """The two players, the one with initiative first (``"A"`` first before initiative is
    decided): the order in which ops score and reveal for both players at once (8.1, the
    initiative player resolves first, 1.7)."""
    first = w.initiative or "A"
    return first, other(first)


def set_mission(w: Work, **changes: Any) -> MissionState:
    """Replace the mission state with ``changes`` applied; returns the new value."""
    w.mission = attrs.evolve(w.mission, **changes)
    return w.mission


def fact(w: Work, key: str, default: Any = None) -> Any:
    """The op fact ``key`` (``default`` when unset)."""
    return w.mission.fact(key, default)


def set_fact(w: Work, key: str, value: Any) -> None:
    """Set the op fact ``key`` to ``value`` (hashable, with a stable ``repr``); ``None``
    removes it."""
    facts = dict(w.mission.facts)
    if value is None:
        facts.pop(key, None)
    else:
        facts[key] = value
    set_mission(w, facts=tuple(sorted(facts.items())))


def op_vp(w: Work, op: str, player: str, *, this_tp: bool = False) -> int:
    """VP ``player`` has scored from ``op`` in the battle (or this turning point)."""
    return w.mission.op_vp(op, player, this_tp=this_tp)


def _added(
    table: tuple[tuple[str, int, int], ...], op: str, player: str, vp: int
) -> tuple[tuple[str, int, int], ...]:
    rows = {name: [a, b] for name, a, b in table}
    row = rows.setdefault(op, [0, 0])
    row[0 if player == "A" else 1] += vp
    return tuple(sorted((name, a, b) for name, (a, b) in rows.items()))


def add_vp(w: Work, player: str, op: str, vp: int, why: str) -> None:
    """Add ``vp`` to ``player`` from ``op`` without any cap (the caller applied them) and
    emit ``vp_scored`` (``player``, ``vp``, ``why``, ``op``)."""
    if vp <= 0:
        return
    set_mission(
        w,
        vp=_added(w.mission.vp, op, player, vp),
        tp_vp=_added(w.mission.tp_vp, op, player, vp),
    )
    w.set_pl(player, vp=w.pl(player).vp + vp)
    w.emit("vp_scored", player=player, vp=vp, why=why, op=op)


def remove_vp(w: Work, player: str, op: str, vp: int, why: str) -> None:
    """Take back ``vp`` that ``player`` scored from ``op`` (a rule that undoes a scoring,
    e.g. a kill grade lost when an operative returns) and emit ``vp_lost`` (``player``,
    ``vp``, ``why``, ``op``); nothing when ``vp`` is 0 or less."""
    if vp <= 0:
        return
    this_tp = min(vp, op_vp(w, op, player, this_tp=True))
    set_mission(
        w,
        vp=_added(w.mission.vp, op, player, -vp),
        tp_vp=_added(w.mission.tp_vp, op, player, -this_tp),
    )
    w.set_pl(player, vp=w.pl(player).vp - vp)
    w.emit("vp_lost", player=player, vp=vp, why=why, op=op)


def score(w: Work, player: str, op: str, vp: int, why: str, *, tp_cap: int | None = None) -> int:
    """Score ``vp`` for ``player`` from ``op`` (``"kill"``, ``"crit"`` or ``"tac"``), capped
    at :data:`OP_CAP` for the battle and at ``tp_cap`` for the turning point (the op's own
    cap, 8.5); emits ``vp_scored`` when anything is scored.

    Returns:
        The VP actually scored (0 when a cap is reached).

    Raises:
        ValueError: for an op that is not kill, crit or tac.
    """
    if op not in (KILL, CRIT, TAC):
        raise ValueError(f"score: op must be kill, crit or tac, not {op!r}")
    room = OP_CAP - op_vp(w, op, player)
    if tp_cap is not None:
        room = min(room, tp_cap - op_vp(w, op, player, this_tp=True))
    got = max(0, min(vp, room))
    add_vp(w, player, op, got, why)
    return got
