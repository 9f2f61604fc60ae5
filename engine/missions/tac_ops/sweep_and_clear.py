"""Tac op **Sweep & Clear** (Seek & Destroy; ``rules/KT24.md`` 8.4, Approved Ops 2025).

- *Swept tokens*: when an enemy operative contesting an objective marker is incapacitated
  (by anything), that marker gains one of the player's Swept tokens unless it has one; the
  tokens last until the Ready step of the next Strategy phase. Contest is judged as the
  enemy is incapacitated, before it is removed (event ``operative_incapacitated``).
- *Clear* (mission action, 1AP; not in the first turning point nor within control range of
  an enemy operative): an objective marker the active operative controls is cleared for the
  turning point. Notation ``Act KAS-1 clear centre``.
- *Reveal*: the first time an enemy operative is incapacitated while contesting an objective
  marker, or the first time a friendly operative performs Clear, whichever comes first.
- *Scoring*, at the end of each turning point after the first: 1VP if friendly operatives
  control an objective marker with one of the player's Swept tokens; 2VP if one of those
  markers is also cleared. At most 2VP a turning point.

Choices: a marker counts as cleared for the player whose operative performed Clear (each
player's Clear is its own op's). Clear on a marker already cleared by that player this
turning point is legal (the pack prints no such condition) and changes nothing but the op's
reveal, which its first Clear made already, so it is not offered
(:class:`engine.missions.actions.MarkerAction`).

Facts: ``"Sweep & Clear:<player>:swept"`` = the markers with the player's Swept tokens, in
the layout's order; ``"Sweep & Clear:<player>:cleared"`` = the markers the player cleared
this turning point.
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import OperativeState, other
from engine.game.work import Work
from engine.missions.actions import MarkerAction
from engine.missions.markers import contested_markers, controller, marker_names
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import TAC, fact, initiative_first, score, set_fact

__all__ = ["CLEAR", "NAME", "TP_CAP", "cleared", "install", "swept"]

NAME = "Sweep & Clear"
TP_CAP = 2
"""The most VP Sweep & Clear gives a player in one turning point."""


def swept(w: Work, player: str) -> tuple[str, ...]:
    """The objective markers with one of ``player``'s Swept tokens."""
    return tuple(fact(w, f"{NAME}:{player}:swept", ()))


def cleared(w: Work, player: str) -> tuple[str, ...]:
    """The objective markers ``player`` cleared this turning point."""
    return tuple(fact(w, f"{NAME}:{player}:cleared", ()))


def _on_incapacitated(w: Work, ev: Event) -> None:
    victim = w.op(ev["op"])
    p = other(victim.player)
    if not tac_active(w, p, NAME):
        return
    contested = contested_markers(w, victim)
    if not contested:
        return
    reveal_tac_op(w, p, f"{victim.id} was incapacitated contesting an objective marker")
    have = swept(w, p)
    new = [m for m in contested if m not in have]
    if new:
        set_fact(
            w, f"{NAME}:{p}:swept", tuple(m for m in marker_names(w) if m in have + tuple(new))
        )
        for m in new:
            w.emit("swept_token", player=p, marker=m, op=victim.id)


def _clear(w: Work, o: OperativeState, marker: str) -> None:
    reveal_tac_op(w, o.player, "the Clear action")
    done = cleared(w, o.player)
    set_fact(w, f"{NAME}:{o.player}:cleared", (*done, marker))
    w.emit("marker_cleared", player=o.player, marker=marker)


def _idle(w: Work, o: OperativeState, marker: str) -> str | None:
    if marker in cleared(w, o.player):
        return f"objective marker {marker} is already cleared this turning point ({NAME})"
    return None


CLEAR = MarkerAction("Clear", "clear", NAME, TAC, _clear, idle=_idle)
"""The Clear mission action."""


def _on_ready_step(w: Work, ev: Event) -> None:
    """Swept tokens last until the Ready step of the next Strategy phase."""
    for p in ("A", "B"):
        if swept(w, p):
            set_fact(w, f"{NAME}:{p}:swept", None)


def _on_tp_ended(w: Work, ev: Event) -> None:
    """Markers are cleared for the turning point only."""
    for p in ("A", "B"):
        if cleared(w, p):
            set_fact(w, f"{NAME}:{p}:cleared", None)


def _score(w: Work, ev: Event) -> None:
    if w.tp < 2:
        return
    for p in initiative_first(w):
        if not tac_active(w, p, NAME):
            continue
        held = [m for m in swept(w, p) if controller(w, m) == p]
        if not held:
            continue
        if any(m in cleared(w, p) for m in held):
            score(w, p, TAC, 2, f"{NAME}: a swept, cleared marker controlled", tp_cap=TP_CAP)
        else:
            score(w, p, TAC, 1, f"{NAME}: a swept marker controlled", tp_cap=TP_CAP)


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the Clear action, the Swept tokens and the end-of-turning-point scoring."""
    hooks.action(CLEAR, players)
    hooks.on("operative_incapacitated", _on_incapacitated)
    hooks.on("ready_step", _on_ready_step)
    hooks.on("turning_point_ending", _score)
    hooks.on("turning_point_ended", _on_tp_ended)


add_template(
    "swept_token",
    lambda e: (
        f"  objective marker {e['marker']} gains a Swept token of {e['player']} "
        f"({e['op']} fell contesting it)"
    ),
)
add_template(
    "marker_cleared",
    lambda e: f"  {e['player']} clears objective marker {e['marker']}",
)

SPEC = register(
    OpSpec(
        NAME,
        TAC,
        install,
        archetype="Seek & Destroy",
        summary="Kill enemies on markers, then hold (and clear) those markers.",
        reveal="the first enemy incapacitated while contesting a marker, or the first Clear",
    )
)
