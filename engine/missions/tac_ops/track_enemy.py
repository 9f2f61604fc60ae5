"""Tac op **Track Enemy** (Infiltration; ``rules/KT24.md`` 8.4, Approved Ops 2025).

- *Tracking*: an enemy operative is being tracked while it is a valid target (4.5) for a
  friendly operative within 6" of it that has a Conceal order, is not itself a valid
  target for that enemy operative, and is not within control range of any enemy
  operative. "Valid target" is the geometric one of 4.5 (visible, and not a Conceal
  operative in cover), seen from the tracking operative as if it shot (no weapon, so no
  Seek).
- *Scoring*, at the end of each turning point after the first: one enemy operative tracked
  scores 1VP (2VP in the fourth turning point); two or more score 2VP; at most 2VP per
  turning point.
- *Reveal*: the first time the op scores VP.

No actions and no facts.
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import OperativeState, other
from engine.game.work import Work
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import TAC, score

__all__ = ["NAME", "SPEC", "TRACK_RANGE", "install", "tracked", "tracks"]

NAME = "Track Enemy"
TP_CAP = 2
"""The most VP the op scores per turning point."""

TRACK_RANGE = 6.0
"""How close (inches) a tracking operative must be to the enemy operative."""


def _valid_target(w: Work, target: OperativeState, viewer: OperativeState) -> bool:
    kz = w.kz
    return w.ctx.valid_target(kz, w.place(target), w.place(viewer), target.order, None)


def tracks(w: Work, friend: OperativeState, enemy: OperativeState) -> bool:
    """Whether ``friend`` tracks ``enemy`` (module docstring)."""
    if friend.order != "conceal" or not friend.alive or not enemy.alive:
        return False
    if w.distance(w.place(friend), w.place(enemy)) > TRACK_RANGE + 1e-9:
        return False
    if w.in_enemy_control_range(friend):
        return False
    return _valid_target(w, enemy, friend) and not _valid_target(w, friend, enemy)


def tracked(w: Work, player: str) -> list[str]:
    """The ids of the enemy operatives ``player``'s operatives are tracking, in roster
    order."""
    friends = [o for o in w.alive(player) if o.order == "conceal"]
    return [e.id for e in w.alive(other(player)) if any(tracks(w, f, e) for f in friends)]


def _score(w: Work, ev: Event) -> None:
    if w.tp < 2:
        return
    first = w.initiative or "A"
    for p in (first, other(first)):
        if not tac_active(w, p, NAME):
            continue
        found = tracked(w, p)
        if not found:
            continue
        vp = 2 if len(found) >= 2 or w.tp >= 4 else 1
        what = "one enemy operative" if len(found) == 1 else f"{len(found)} enemy operatives"
        if score(w, p, TAC, vp, f"{NAME}: {what} tracked", tp_cap=TP_CAP):
            reveal_tac_op(w, p, "it scored VP for the first time")


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the end-of-turning-point scoring."""
    hooks.on("turning_point_ending", _score)


SPEC = register(
    OpSpec(
        NAME,
        TAC,
        install,
        archetype="Infiltration",
        summary='Track enemies from hidden spots within 6"; score 1-2VP each turning point.',
        reveal="the first time it scores VP",
    )
)
