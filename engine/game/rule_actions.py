"""Actions that rule modules add, and free actions (``rules/KT24.md`` 3.1).

Rule modules add *rule actions* (mission actions, equipment actions, unique actions) to a
battle's hooks (``hooks.action(action, players)``); the core offers them next to the
universal actions and performs them with the same bookkeeping: AP cost, at most once per
activation, one 1AP action in a counteraction, nothing but Shoot or Fight in an On Guard
interrupt. Their notation is ``Act <operative> <name>`` with an optional ``at x,y[,z]`` or
``on <operative>`` (:mod:`engine.game.actions`), or with a word after the name that the
action reads itself (``Act KAS-1 secure centre``: the mission action on a marker).

Free actions (3.1): a rule may let an operative perform an action for 0AP.

- *During its activation*: an effect of kind ``"free_action"`` whose detail names the action
  (its verb, or a rule action's name) makes the next such action cost 0AP; the action still
  counts as performed in that activation (once per activation), and the effect is used up.
- *Outside its activation* (:func:`engine.game.universal.start_free_action`): the operative
  performs one of the allowed actions at once, for 0AP; this neither counts towards nor is
  blocked by the
  once-per-activation limits of its activation (what it did in an activation in progress
  is kept as it was).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from engine.game.actions import Action
from engine.game.state import OperativeState
from engine.game.work import Work

__all__ = [
    "RuleActionLike",
    "actions_of",
    "find_rule_action",
    "free_action_effect",
    "is_mission_action",
    "names_mission_action",
    "use_free_action_effect",
]


class RuleActionLike(Protocol):
    """What the core needs of a rule action.

    Attributes:
        name: as printed (``"Ammo Resupply"``); ``text`` its notation name (lower case).
        ap: its AP cost (0 or more).
        family: the universal action it counts as, if any (Move with Barricade counts as a
            Reposition, 7.2), for once per activation and exclusions; else ``""``.

    Optional: ``mission`` (bool), whether it is a mission action (:func:`is_mission_action`);
    ``offered(w, o) -> bool``, a cheap test the core makes before its bookkeeping checks when
    it lists the actions of ``o``: ``False`` only when :meth:`options` would be empty now
    whatever ``o``'s AP (a mission action of an op not in play), so listing skips it.
    """

    name: str
    text: str
    ap: int
    family: str

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """The listed ``Act`` actions of operative ``o`` now (its conditions hold)."""
        ...

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed now (naming the rule), or ``None``."""
        ...

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Carry out the action (AP already spent)."""
        ...


def _mine(w: Work, o: OperativeState) -> Iterator[RuleActionLike]:
    for act, players in w.ctx.hooks.actions:
        if o.player in players:
            yield act


def find_rule_action(w: Work, o: OperativeState, text: str) -> RuleActionLike | None:
    """The rule action of ``o``'s player whose notation name is ``text``, or else the one
    with the longest notation name that ``text`` starts with followed by a space (an action
    with an argument after its name, ``secure centre``: a mission action on the objective
    marker ``centre``); ``None`` when there is none."""
    actions = w.ctx.hooks.actions
    key = ("rule actions by text", o.player)
    got = w.ctx.peek(key)
    if got is None or got[0] is not actions or got[1] != len(actions):
        by_text: dict[str, RuleActionLike] = {}
        for act in _mine(w, o):
            by_text.setdefault(act.text, act)
        got = (actions, len(actions), by_text)
        w.ctx.remember(key, got)
    by_text = got[2]
    found = by_text.get(text)
    if found is not None:
        return found
    # The longest name followed by a space that ``text`` starts with: the first action of
    # that name (two names of one length that ``text`` starts with are the same name).
    end = text.rfind(" ")
    while end >= 0:
        found = by_text.get(text[:end])
        if found is not None:
            return found
        end = text.rfind(" ", 0, end)
    return None


def is_mission_action(act: RuleActionLike) -> bool:
    """Whether the rule action ``act`` is a mission action (8.3; for the rules that treat
    mission actions apart): its ``mission`` attribute when it has one, else whether an op
    of the mission pack (``engine.missions``) defines it."""
    flag = getattr(act, "mission", None)
    if flag is not None:
        return bool(flag)
    return type(act).__module__.startswith("engine.missions.")


def names_mission_action(w: Work, o: OperativeState, name: str) -> bool:
    """Whether ``name`` (a verb or a rule action's notation name, as the ``would_*`` action
    hooks give it) is a mission action of ``o`` (8.3, :func:`is_mission_action`): ``False``
    for a universal action's verb or a rule action ``o`` cannot name."""
    act = find_rule_action(w, o, name)
    return act is not None and is_mission_action(act)


def free_action_effect(w: Work, o: OperativeState, name: str) -> bool:
    """Whether an effect lets ``o`` perform the action ``name`` (a verb or a rule action's
    notation name) for 0AP now (module docstring)."""
    return any(e.detail == name for e in w.effects_on(o.id, "free_action"))


def use_free_action_effect(w: Work, o: OperativeState, name: str) -> None:
    """Use up the free-action effect of ``o`` for ``name`` (the first one)."""
    for i, e in enumerate(w.effects):
        if e.kind == "free_action" and e.op == o.id and e.detail == name and not e.pending:
            del w.effects[i]
            return


def actions_of(w: Work, o: OperativeState) -> Iterator[RuleActionLike]:
    """The rule actions the operatives of ``o``'s player may perform, in the order added."""
    return _mine(w, o)
