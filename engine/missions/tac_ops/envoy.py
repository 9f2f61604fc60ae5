"""Tac op **Envoy** (Security; ``rules/KT24.md`` 8.4, Approved Ops 2025).

- *Envoy* (a strategic gambit in each turning point after the first, 1.4): the player
  selects a friendly operative on the killzone as its envoy, until the Ready step of the next
  Strategy phase. Never one it selected in an earlier turning point, nor one that is ignored
  for the kill op (8.2). Selecting the first envoy reveals the op.
- *Scoring*, at the end of each turning point after the first: if the envoy is wholly within
  enemy territory and not within control range of an enemy operative, 1VP; 2VP if besides it
  has not lost any wounds during that turning point. At most 2VP a turning point (the most
  the text gives).

Choices:

- The gambit is offered through the ploy windows as a rule's option of kind ``"rule"``
  (:mod:`engine.game.ploys`): ``Use envoy on KAS-3`` among the player's strategic gambits,
  free and not a ploy, once per turning point. A player may pass the Gambit step without
  selecting one (it then has no envoy that turning point).
- "Lost wounds" counts the damage inflicted on the envoy from its selection to the end of
  the turning point (``damage_inflicted``; nothing inflicts damage earlier in a turning
  point than its Gambit step in this engine), even if wounds are regained later.
- An operative is ignored for the kill op when a ``would_ignore_for_kill_op`` hook says so
  (``fn(w, False, op=op_id) -> bool``); no rule of this engine does yet.

Facts: ``"Envoy:<player>"`` = the current envoy's id; ``"Envoy:<player>:chosen"`` = every
operative selected so far; ``"Envoy:<player>:tp"`` = the turning point of the last
selection; ``"Envoy:<player>:hurt"`` = the turning point in which the envoy lost wounds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import other
from engine.game.work import Work
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import TAC, fact, score, set_fact
from engine.missions.territory import enemy_territory, operative_wholly_within

__all__ = ["ENVOY_GAMBIT", "NAME", "EnvoyGambit", "envoy", "ignored_for_kill_op", "install"]

NAME = "Envoy"


def envoy(w: Work, player: str) -> str:
    """``player``'s current envoy (an operative id), or ``""``."""
    return str(fact(w, f"{NAME}:{player}", ""))


def ignored_for_kill_op(w: Work, op_id: str) -> bool:
    """Whether operative ``op_id`` is ignored for the kill op (the ``would_ignore_for_kill_op``
    hooks; module docstring)."""
    return bool(w.would("would_ignore_for_kill_op", False, op=op_id))


@attrs.frozen(slots=True)
class EnvoyGambit:
    """The Envoy strategic gambit (module docstring; a
    :class:`engine.game.ploys.PloyLike` of kind ``"rule"``). Its actions are
    ``Use envoy on <operative>``."""

    name: str = NAME
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("gambit",)
    repeatable: bool = True

    def _applies(self, w: Work, player: str) -> str | None:
        if not tac_active(w, player, NAME):
            return f"{NAME} is not player {player}'s tac op (8.4)"
        if w.tp < 2:
            return f"an envoy is selected in each turning point after the first ({NAME})"
        if fact(w, f"{NAME}:{player}:tp") == w.tp:
            return f"{player} already selected an envoy this turning point ({NAME}, 1.4)"
        return None

    def candidates(self, w: Work, player: str) -> list[str]:
        """The operatives ``player`` may select now, in roster order."""
        chosen: tuple[str, ...] = fact(w, f"{NAME}:{player}:chosen", ())
        return [
            o.id for o in w.alive(player) if o.id not in chosen and not ignored_for_kill_op(w, o.id)
        ]

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use envoy on <operative>`` for each operative it may select."""
        if self._applies(w, player) is not None:
            return []
        return [Action("Use", text="envoy", target=i) for i in self.candidates(w, player)]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Use envoy on <operative>``."""
        return action.verb == "Use" and action.text == "envoy"

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str | None:
        """Why ``action`` is refused (naming the rule)."""
        why = self._applies(w, player)
        if why is not None:
            return why
        if not action.target:
            return f"an envoy is a friendly operative: 'Use envoy on <operative>' ({NAME})"
        if action.target in fact(w, f"{NAME}:{player}:chosen", ()):
            return f"{action.target} was selected as envoy in an earlier turning point ({NAME})"
        if action.target in w.ctx.index and ignored_for_kill_op(w, action.target):
            return f"{action.target} is ignored for the kill op: it cannot be an envoy ({NAME})"
        return f"{action.target} is not a friendly operative on the killzone ({NAME})"

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Reveal the op (the first time) and make the operative the envoy."""
        reveal_tac_op(w, player, "an envoy was selected")
        chosen: tuple[str, ...] = fact(w, f"{NAME}:{player}:chosen", ())
        set_fact(w, f"{NAME}:{player}", action.target)
        set_fact(w, f"{NAME}:{player}:chosen", (*chosen, action.target))
        set_fact(w, f"{NAME}:{player}:tp", w.tp)
        w.emit("envoy_selected", player=player, op=action.target)


ENVOY_GAMBIT = EnvoyGambit()


def _on_damage(w: Work, ev: Event) -> None:
    op = ev["op"]
    p = w.ctx.owner.get(op, "")
    if p and envoy(w, p) == op and tac_active(w, p, NAME) and int(ev.get("damage", 0)) > 0:
        set_fact(w, f"{NAME}:{p}:hurt", w.tp)


def _on_ready_step(w: Work, ev: Event) -> None:
    """The envoy of the last turning point is one no longer."""
    for p in ("A", "B"):
        if envoy(w, p):
            set_fact(w, f"{NAME}:{p}", None)
            set_fact(w, f"{NAME}:{p}:hurt", None)


def _score(w: Work, ev: Event) -> None:
    if w.tp < 2:
        return
    first = w.initiative or "A"
    for p in (first, other(first)):
        op = envoy(w, p)
        if not op or not tac_active(w, p, NAME):
            continue
        o = w.op(op)
        if not o.alive or not operative_wholly_within(w, o, enemy_territory(w, p)):
            continue
        if w.in_enemy_control_range(o):
            continue
        if fact(w, f"{NAME}:{p}:hurt") == w.tp:
            score(w, p, TAC, 1, f"{NAME}: {op} in enemy territory", tp_cap=2)
        else:
            score(w, p, TAC, 2, f"{NAME}: {op} in enemy territory, unharmed", tp_cap=2)


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the Envoy gambit for ``players``, the envoy's bookkeeping and the scoring."""
    hooks.ploy(ENVOY_GAMBIT, players)
    hooks.on("damage_inflicted", _on_damage)
    hooks.on("ready_step", _on_ready_step)
    hooks.on("turning_point_ending", _score)


SPEC = register(
    OpSpec(
        NAME,
        TAC,
        install,
        archetype="Security",
        summary="Each turning point send a new envoy into enemy territory; score if it is safe.",
        reveal="the first time the player selects an envoy (a strategic gambit)",
    )
)
