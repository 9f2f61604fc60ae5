"""The heuristic agent's ploy decisions (``rules/KT24.md`` 1.4 Gambit step, 7.1 ploys): the
Gambit step (decision kind ``"gambit"``), the ploy windows at their triggers (``"ploy"``,
:mod:`engine.game.ploys`) and the ploys offered with Command Re-roll after a roll
(``"dice_ploy"``).

A ploy that carries an advice (:mod:`engine.agents.advice`) is valued by it: the agent uses
the advised ploy of greatest value when that value is above
:data:`~engine.agents.advice.PLOY_THRESHOLD` per CP and the cost leaves :data:`KEEP_CP`.
The agent cannot value what any other ploy does (code it has never seen), so for those it
follows a rule of thumb:

- It uses a ploy (an action ``Ploy <name>...``) when it can pay its cost and still keep
  :data:`KEEP_CP` command point for Command Re-roll, the one ploy whose worth it can compute
  (:func:`engine.agents.attack_choices.reroll`); otherwise it passes. A ploy whose cost
  it cannot find (no ploy at this trigger owns the action) or whose cost cannot be computed
  is left alone: an unknown ploy never makes it fail.
- Among the ploys it may use, it prefers one used on the operative the trigger names (the
  activated, targeting, targeted or incapacitated operative: the window's ``op`` and
  ``target``), then one used on no operative, then one on another operative; ties go to
  the first listed (canonical order).
- Other strategic gambits and rule options (``Use`` actions) are passed unless they carry
  an advice: a free rule option (kind ``"rule"``) with an advice is taken at any positive
  value.
- In a dice window it first takes the re-roll decision of
  :func:`engine.agents.attack_choices.reroll` (weapon re-rolls, Command Re-roll when worth
  :data:`~engine.agents.attack_choices.CP_GAIN`); only when that keeps the dice does it
  consider the other ploys by the rule above.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.agents import attack_choices
from engine.agents.advice import PLOY_THRESHOLD, ploy_advice
from engine.game import fight as fight_action
from engine.game import ploys
from engine.game import shoot as shoot_action
from engine.game.actions import Action
from engine.game.work import Work

__all__ = ["KEEP_CP", "choose_ploy", "dice_ploy", "ploy_window"]

KEEP_CP = 1
"""Command points kept for Command Re-roll (module docstring)."""


def _trigger(w: Work) -> tuple[str, dict[str, Any]]:
    """The trigger of the ploy window in progress and what it was told (the Gambit step:
    ``"gambit"``, nothing)."""
    top = w.top
    if isinstance(top, ploys.PloyWindowFrame):
        return top.trigger, dict(top.info)
    return "gambit", {}


def _cost(w: Work, me: str, trigger: str, action: Action) -> tuple[int, Any] | None:
    """The CP ``me`` would pay for ``action`` and the ploy that owns it, or ``None`` when no
    ploy at ``trigger`` owns it or its cost cannot be computed."""
    for ploy, players in w.ctx.hooks.ploys.get(trigger, ()):
        if me not in players:
            continue
        try:
            if ploy.owns(action):
                return ploys.ploy_cost(w, me, ploy, action), ploy
        except Exception:  # an unknown ploy never makes the agent fail (module docstring)
            return None
    return None


def choose_ploy(
    w: Work, me: str, legal: list[Action], trigger: str, info: Mapping[str, Any]
) -> Action | None:
    """The ploy action to use (module docstring), or ``None``: the advised ploy of greatest
    value above :data:`~engine.agents.advice.PLOY_THRESHOLD` per CP first
    (:mod:`engine.agents.advice`), else one without advice by the rule of thumb."""
    cp = w.pl(me).cp
    named = {str(info.get(k, "")) for k in ("op", "target")} - {""}
    best: tuple[int, int, Action] | None = None
    advised: tuple[float, int, Action] | None = None
    for i, a in enumerate(legal):
        if a.verb not in ("Ploy", "Use"):
            continue
        found = _cost(w, me, trigger, a)
        if found is None or (found[0] > 0 and cp - found[0] < KEEP_CP):
            continue  # (a use that costs nothing never touches the kept CP)
        cost, ploy = found
        advice = ploy_advice(ploy)
        if a.verb == "Use" and advice is None:
            continue  # another rule's option without advice: left to its own decision
        if advice is not None:
            value = float(advice(w, me, a, {**info, "trigger": trigger}))
            # A free rule option (kind "rule") is taken at any gain; a ploy must be worth
            # PLOY_THRESHOLD per CP (at least one).
            need = 0.0 if getattr(ploy, "kind", "") == "rule" else PLOY_THRESHOLD * max(1, cost)
            if value > need and (advised is None or value > advised[0]):
                advised = (value, i, a)
            continue
        rank = 0 if a.target in named else 1 if not a.target else 2
        if best is None or (rank, i) < best[:2]:
            best = (rank, i, a)
    if advised is not None:
        return advised[2]
    return best[2] if best is not None else None


def _pass(legal: list[Action]) -> Action:
    for name in ("Pass", "Decline"):
        a = Action(name)
        if a in legal:
            return a
    return legal[0]


def ploy_window(w: Work, me: str, legal: list[Action]) -> Action:
    """A Gambit step or ploy window decision (module docstring)."""
    trigger, info = _trigger(w)
    choice = choose_ploy(w, me, legal, trigger, info)
    return choice if choice is not None else _pass(legal)


def dice_ploy(w: Work, me: str, legal: list[Action]) -> Action:
    """A dice window decision: the re-roll rule first, then the other ploys (module
    docstring)."""
    choice = attack_choices.reroll(w, me, legal)
    if choice.verb != "Decline":
        return choice
    top = w.top
    if isinstance(top, shoot_action.ShootFrame):
        trigger = "attack_dice" if top.stage == "attack_cr" else "defence_dice"
        info = top.dice_info(w)
    elif isinstance(top, fight_action.FightFrame):
        trigger, info = "attack_dice", top.dice_info(top.rturn)
    else:  # pragma: no cover - dice windows only come from these frames
        return choice
    other = choose_ploy(w, me, legal, trigger, info)
    return other if other is not None else choice
