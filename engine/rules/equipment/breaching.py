"""The Breaching Charge universal equipment (``rules/KT24.md`` 7.2, 9.3, 9.5).

Once per battle, when a friendly operative performs the Breach action, that action costs it
1AP less, to a minimum of 1AP (as though its datacard named a breach marker). The engine
applies it the first time it saves AP: to the first Breach action costing 2AP or more that an
operative of a player who selected the option performs in an activation (a 1AP Breach
cannot be made cheaper, so it never spends the charge). The cost change is a
``would_cost_action`` hook (:func:`engine.game.universal.action_cost`) on any action called
``Breach`` (a universal verb or a rule action's name); the charge is spent when a rule action
of that name is performed (its ``rule_action`` event).

**Inert today**: the core offers no Breach action (the Close Quarters actions of
:mod:`engine.rules.close_quarters` are Operate Hatch, Hatchway Fight and Guard), and no shipped
killzone or rule adds one, so the option changes nothing until one does. :data:`INERT_NOTE`
says so; :func:`inert_reason` tells whether a battle offers a Breach action, and when a
player selects the option in a battle that offers none an ``equipment_inert`` event says so
(narrated).
"""

from __future__ import annotations

from typing import Any

from engine.game import universal
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import OperativeState
from engine.game.work import Work

__all__ = ["BREACH", "INERT_NOTE", "OPTION", "USES_KEY", "inert_reason", "install"]

OPTION = "Breaching Charge"
"""The equipment option's name (7.2)."""

BREACH = "breach"
"""The action it applies to, compared in lower case (a verb or a rule action's name)."""

USES_KEY = "breaching_charge"
"""The player counter (:meth:`engine.game.work.Work.count`) of charges spent (at most 1)."""

INERT_NOTE = (
    "Breaching Charge has no effect here: no killzone or rule of this battle offers a Breach action"
)
"""What the CLI or narration shows when the option cannot do anything (module docstring)."""


def inert_reason(w: Work) -> str | None:
    """:data:`INERT_NOTE` when no Breach action exists in this battle (neither a universal
    verb nor a rule action of any player), else None."""
    if any(v.lower() == BREACH for v in universal.ACTION_COST):
        return None
    if any(act.text == BREACH for act, _ in w.ctx.hooks.actions):
        return None
    return INERT_NOTE


def _available(w: Work, player: str) -> bool:
    return OPTION in w.pl(player).equipment and w.count(player, USES_KEY) < 1


def _cost(w: Work, value: int, **info: Any) -> int:
    """The ``would_cost_action`` hook: 1AP less (minimum 1) for a Breach while the charge
    is unspent."""
    action = str(info.get("action", ""))
    o: OperativeState | None = info.get("op")
    if action.lower() != BREACH or o is None or value < 2:
        return value
    if not _available(w, o.player):
        return value
    return max(1, value - 1)


def _printed_ap(w: Work, player: str, name: str) -> int:
    for act, players in w.ctx.hooks.actions:
        if player in players and act.name == name:
            return int(act.ap)
    return 0


def _on_rule_action(w: Work, ev: Event) -> None:
    """A Breach was performed in an activation at a reduced cost: the charge is spent."""
    name = str(ev.get("action", ""))
    if name.lower() != BREACH:
        return
    o = w.op(ev["op"])
    if getattr(w.top, "mode", "") != "activation" or not _available(w, o.player):
        return
    if _printed_ap(w, o.player, name) < 2:
        return
    w.count(o.player, USES_KEY, add=1)
    w.emit("equipment_used", player=o.player, op=o.id, item=OPTION, why="Breach costs 1AP less")


def _on_selected(w: Work, ev: Event) -> None:
    """A player revealed its selection: say when the Breaching Charge cannot do anything."""
    items = tuple(ev.get("items", ()) or ())
    if OPTION not in items:
        return
    why = inert_reason(w)
    if why is not None:
        w.emit("equipment_inert", player=ev["player"], item=OPTION, why=why)


def install(hooks: Hooks) -> None:
    """Add the Breach cost change, its once-per-battle bookkeeping and the note at
    selection (module docstring); once per hooks (a second call adds nothing)."""
    if _cost in hooks.would.get("would_cost_action", ()):
        return
    hooks.transform("would_cost_action", _cost)
    hooks.on("rule_action", _on_rule_action)
    hooks.on("equipment_selected", _on_selected)
