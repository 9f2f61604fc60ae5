"""Tac op **Scout Enemy Movement** (Recon; ``rules/KT24.md`` 8.4, Approved Ops 2025).

- *Scout* (mission action, 1AP; not in the first turning point, not with an Engage order,
  not within control range of an enemy operative): select a ready enemy operative visible
  to the active operative and more than 6" from it; that enemy operative is monitored
  until the Ready step of the next Strategy phase. Notation ``Act KAS-1 scout on LEG-2``.
- *Reveal*: the first time a friendly operative performs Scout.
- *Scoring*, at the end of each turning point after the first: 1VP for each monitored
  enemy operative visible to any friendly operative (not necessarily the one that scouted
  it); at most 2VP per turning point.

Scouting an operative already monitored is allowed (it changes nothing) but not listed.
Facts: ``"Scout Enemy Movement:<player>:monitored"`` = the monitored enemy ids, sorted;
cleared at every Ready step.
"""

from __future__ import annotations

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import OperativeState, other
from engine.game.work import Work
from engine.missions.actions import common_problem, offered
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import TAC, fact, initiative_first, score, set_fact

__all__ = ["NAME", "SCOUT", "SPEC", "ScoutAction", "install", "monitored"]

NAME = "Scout Enemy Movement"
TP_CAP = 2
"""The most VP the op scores per turning point."""

SCOUT_DISTANCE = 6.0
"""The scouted operative must be more than this far from the scout (inches)."""


def _key(player: str) -> str:
    return f"{NAME}:{player}:monitored"


def monitored(w: Work, player: str) -> tuple[str, ...]:
    """The ids of the enemy operatives ``player``'s kill team monitors, sorted."""
    found: tuple[str, ...] = fact(w, _key(player), ())
    return found


def _visible(w: Work, viewer: OperativeState, target: OperativeState) -> bool:
    return w.ctx.visible(w.kz, w.place(viewer), w.place(target))


@attrs.frozen(slots=True)
class ScoutAction:
    """The Scout mission action (module docstring), a rule action on an enemy operative."""

    name: str = "Scout"
    text: str = "scout"
    ap: int = 1
    family: str = ""

    def _problem(self, w: Work, o: OperativeState) -> str | None:
        why = common_problem(w, o, self.name, NAME, TAC)
        if why is None and o.order == "engage":
            return f"{self.name} cannot be performed with an Engage order ({NAME})"
        return why

    def _target_problem(self, w: Work, o: OperativeState, t: OperativeState) -> str | None:
        if t.player == o.player or not t.alive:
            return f"{self.name} selects an enemy operative on the killzone ({NAME})"
        if not t.ready:
            return f"{t.id} is expended: {self.name} selects a ready enemy operative ({NAME})"
        if not _visible(w, o, t):
            return f"{t.id} is not visible to {o.id} (4.3, {NAME})"
        if w.distance(w.place(o), w.place(t)) <= SCOUT_DISTANCE:
            return f'{t.id} is not more than 6" from {o.id} ({NAME})'
        return None

    def offered(self, w: Work, o: OperativeState) -> bool:
        """False when :meth:`options` is empty whatever the AP
        (:func:`engine.missions.actions.offered`)."""
        return offered(w, o, NAME, TAC)

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> scout on <enemy>`` for each enemy operative it may scout now that is
        not monitored yet."""
        if self._problem(w, o) is not None:
            return []
        done = monitored(w, o.player)
        return [
            Action("Act", op=o.id, text=self.text, target=t.id)
            for t in w.alive(other(o.player))
            if t.id not in done and self._target_problem(w, o, t) is None
        ]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` is not allowed now (naming the rule), or ``None``."""
        why = self._problem(w, o)
        if why is not None:
            return why
        if a.text != self.text or a.point is not None or not a.target:
            return f"{self.name} names an enemy operative: 'Act {o.id} scout on <operative>'"
        if a.target not in w.ctx.index:
            return f"there is no operative {a.target!r}"
        return self._target_problem(w, o, w.op(a.target))

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """The target is monitored; the op is revealed."""
        w.emit("mission_action", op=o.id, action=self.name, target=a.target, mission_op=NAME)
        found = set(monitored(w, o.player)) | {a.target}
        set_fact(w, _key(o.player), tuple(sorted(found)))
        w.emit("operative_monitored", player=o.player, op=a.target, by=o.id)
        reveal_tac_op(w, o.player, "a friendly operative performed Scout")


SCOUT = ScoutAction()
"""The Scout mission action."""


def _ready_step(w: Work, ev: Event) -> None:
    for p in ("A", "B"):
        if tac_active(w, p, NAME) and monitored(w, p):
            set_fact(w, _key(p), None)


def _score(w: Work, ev: Event) -> None:
    if w.tp < 2:
        return
    for p in initiative_first(w):
        if not tac_active(w, p, NAME):
            continue
        friends = w.alive(p)
        for t_id in monitored(w, p):
            t = w.op(t_id)
            if t.alive and any(_visible(w, f, t) for f in friends):
                score(w, p, TAC, 1, f"{NAME}: {t_id} monitored and visible", tp_cap=TP_CAP)


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the Scout action for ``players``, the end of monitoring at the Ready step and
    the end-of-turning-point scoring."""
    hooks.action(SCOUT, players)
    hooks.on("ready_step", _ready_step)
    hooks.on("turning_point_ending", _score)


add_template(
    "operative_monitored",
    lambda e: f"  {e['player']} monitors {e['op']} (scouted by {e['by']})",
)

SPEC = register(
    OpSpec(
        NAME,
        TAC,
        install,
        archetype="Recon",
        summary="Scout distant ready enemies; score for each still in sight at the end.",
        reveal="the first time a friendly operative performs Scout",
    )
)
