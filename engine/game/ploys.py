"""Ploy windows: where the rules offer ploys, and how one is paid for and used
(``rules/KT24.md`` 1.4 Gambit step, 1.7 order of simultaneous choices, 7.1 ploys).

The core names no ploy (DESIGN.md principle 1): rule modules add ploys to a battle's
:class:`~engine.game.context.Hooks` (``hooks.ploy(ploy, players)``), each at a *trigger*,
and the core opens a window at each trigger it reaches:

=====================  =========================================================================
``gambit``             the Gambit step: strategy ploys and other strategic gambits (1.4)
``turning_point_start`` a turning point begins (before the Initiative step)
``firefight_start``    the Firefight phase begins; ``firefight_end`` it ends
``turning_point_end``  the turning point ends (after the Firefight phase)
``activation_start``   an operative was activated (its order determined, AP generated)
``activation_end``     an operative's activation is ending (before it is expended)
``during_activation``  between the actions of an operative's activation: its player's ploys
                       with this trigger are offered among its action choices (not a window;
                       using one is not an action and the activation goes on)
``counteract_start``   an operative begins a counteraction
``action_declared``    an operative chose an action (``op``; ``mode``: its frame's mode,
                       ``"activation"``, ``"counteract"``, ``"interrupt"``, ``"free"``;
                       ``action``: the verb, ``"Act"`` for a rule action; ``text``), legal
                       then, before it begins; if a ploy used here makes it illegal it is
                       refused (``action_refused``, no AP spent) and its player chooses again
``moved``              an operative finished the movement of a move action (``action``: its
                       verb; ``x0``, ``y0``, ``z0``: where it started), before that action ends
``target_selected``    an enemy operative was selected as the valid target of a Shoot, or
                       as the target of a Fight
``attack_dice``        attack dice were rolled (Shoot; each side of a Fight)
``strike``             a success was chosen to strike in a Fight, before it is resolved
                       (``op`` strikes ``target`` with a ``die`` ``"crit"`` or ``"normal"``)
``defence_dice``       defence dice were rolled (Shoot)
``resolve_start``      the start of a Fight's Resolve Attack Dice step (both sides' dice
                       retained; ``op``: the attacker, ``target``: the defender)
``incapacitated``      an operative was incapacitated (before it is removed)
``stat_changed``       stat changes begun during an action applied as it ended (2.1): one
                       window per operative and changed stat (``op``; ``stat``: the effect
                       kind, ``"apl"``, ``"move"``...)
=====================  =========================================================================

A window is a decision only for a player who has a usable ploy there: one whose player has
the CP (its cost after overrides and ``would_cost_ploy`` hooks), that was not used this
turning point (unless it is repeatable, like Command Re-roll) and whose condition holds. So
random playouts pay nothing for windows nobody can use. With the game option
``open_windows`` every window is a decision (offering ``Pass`` alone when nothing is usable),
for interactive use and for testing.

Players decide in a window as in 1.7: starting with the player with initiative, they
alternate using one ploy or passing, until both pass in succession (a player with nothing
usable passes without being asked). In the attack and defence dice windows of the Shoot and
Fight sequences, the sequence itself offers the ploys (:func:`ploy_options`) among its
choices and applies them (:func:`use_ploy`); a ploy that re-rolls dice returns a
:class:`Reroll` that the sequence carries out.

A rule that is not a ploy but gives a choice at a trigger (the free re-roll of Ammo Resupply,
7.2) is offered the same way with ``kind = "rule"``: it costs no CP, is not limited to once
per turning point and is not counted as a ploy (event ``rule_used``, not ``ploy_used``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.state import other
from engine.game.work import Work

__all__ = [
    "TRIGGERS",
    "PloyLike",
    "PloyWindowFrame",
    "Reroll",
    "open_window",
    "ploy_cost",
    "ploy_options",
    "reroll_refusal",
    "use_ploy",
    "window_wanted",
]

TRIGGERS = (
    "gambit",
    "turning_point_start",
    "firefight_start",
    "firefight_end",
    "turning_point_end",
    "activation_start",
    "activation_end",
    "during_activation",
    "counteract_start",
    "action_declared",
    "moved",
    "target_selected",
    "attack_dice",
    "defence_dice",
    "strike",
    "resolve_start",
    "incapacitated",
    "stat_changed",
)
"""Every trigger the core opens a window at (module docstring)."""


@attrs.frozen(slots=True)
class Reroll:
    """What a ploy returns to re-roll dice of the sequence in progress: the faces of the
    dice to re-roll (each a die not re-rolled yet, 2.4)."""

    faces: tuple[int, ...]


class PloyLike(Protocol):
    """What the core needs of a ploy (:class:`engine.rules.ploys.Ploy` is the usual one).

    Attributes:
        name: as printed (``"Command Re-roll"``); unique among the ploys of a battle.
        kind: ``"strategy"`` (a strategic gambit), ``"firefight"``, or ``"rule"``: not a
            ploy but another rule's option offered in the window (the Ammo Resupply re-roll,
            7.2), used for free, never noted as a ploy used (emits ``rule_used``).
        cp: its printed cost in command points.
        triggers: where it is offered, each one of :data:`TRIGGERS` (Command Re-roll: after
            attack dice and after defence dice).
        repeatable: it may be used more than once per turning point (7.1 exempts Command
            Re-roll); otherwise once per turning point per player.

    It may also have ``rerolls`` (``True``: its use re-rolls dice, so a rule forbidding
    re-rolls refuses it: :func:`reroll_refusal`; absent: ``False``).
    """

    name: str
    kind: str
    cp: int
    triggers: tuple[str, ...]
    repeatable: bool

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """The actions that use this ploy now at ``info["trigger"]`` (empty when its
        condition does not hold)."""
        ...

    def owns(self, action: Action) -> bool:
        """Whether ``action`` is one of this ploy's actions."""
        ...

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> Any:
        """Apply the ploy's effect (CP already paid); may return a :class:`Reroll`.

        A ploy may also have ``refusal(w, player, action, info) -> str | None``: why an action
        of it that is not among its options cannot be used (the error names that rule)."""
        ...


def ploy_cost(w: Work, player: str, ploy: PloyLike, action: Action | None = None) -> int:
    """The CP ``player`` pays for ``ploy`` (used by ``action``, when known): the game option
    ``ploy_costs`` override if one names it, else its printed cost, then the
    ``would_cost_ploy`` hooks (``player``, ``ploy``: its name, ``target``: the operative the
    action names or ``""``, ``text``: the action's text or ``""``, e.g. the option a ploy
    selects; a rule that makes a ploy cheaper on some operative or option), never below 0."""
    costs = w.ctx.options.ploy_costs
    cost = dict(costs).get(ploy.name, ploy.cp) if costs else ploy.cp
    if "would_cost_ploy" not in w.ctx.hooks.would:
        return max(0, int(cost))
    target = action.target if action is not None else ""
    text = action.text if action is not None else ""
    cost = w.would("would_cost_ploy", cost, player=player, ploy=ploy.name, target=target, text=text)
    return max(0, int(cost))


def reroll_refusal(
    w: Work, player: str, trigger: str, source: str, info: Mapping[str, Any]
) -> str | None:
    """Why ``player`` cannot re-roll the dice of the ``trigger`` window (``"attack_dice"``
    or ``"defence_dice"``) with ``source`` (a ploy's or weapon rule's name) now, or
    ``None``: the ``would_refuse_reroll`` hooks (``fn(w, None, player=, trigger=, source=,
    op=, target=, kind=) -> why``; ``op`` the operative whose dice they are... as the
    sequence's dice info gives them)."""
    if "would_refuse_reroll" not in w.ctx.hooks.would:
        return None
    why = w.would(
        "would_refuse_reroll",
        None,
        player=player,
        trigger=trigger,
        source=source,
        op=str(info.get("op", "")),
        target=str(info.get("target", "")),
        kind=str(info.get("kind", "")),
    )
    return None if why is None else str(why)


def _refused(w: Work, player: str, ploy: PloyLike, info: Mapping[str, Any]) -> str | None:
    """Why the re-rolling ``ploy`` cannot be used at ``info["trigger"]`` (a rule forbids
    re-rolls there), or ``None`` (it does not re-roll, or nothing forbids it)."""
    if not getattr(ploy, "rerolls", False) or "would_refuse_reroll" not in w.ctx.hooks.would:
        return None
    return reroll_refusal(w, player, str(info.get("trigger", "")), ploy.name, info)


def _usable(w: Work, player: str, ploy: PloyLike) -> bool:
    """Not used this turning point (unless repeatable); the CP is judged per action."""
    if ploy.kind == "rule":  # free, not a ploy: its own options say when it applies
        return True
    return ploy.repeatable or ploy.name not in w.pl(player).ploys_used


def ploy_options(
    w: Work, player: str, trigger: str, info: Mapping[str, Any], *, first: bool = False
) -> list[Action]:
    """The actions with which ``player`` may use a ploy at ``trigger`` now, in the order the
    ploys were added (each affordable, not used this turning point unless repeatable, its
    condition holding); with ``first``, only those of the first ploy that has any (enough to
    know whether a window is wanted)."""
    entries = w.ctx.hooks.ploys.get(trigger)
    if not entries:
        return []
    out: list[Action] = []
    info = {**info, "trigger": trigger}
    cp = w.pl(player).cp
    for ploy, players in entries:
        if player in players and _usable(w, player, ploy) and not _refused(w, player, ploy, info):
            if ploy.kind == "rule" or cp >= ploy_cost(w, player, ploy):
                out += ploy.options(w, player, info)
            elif "would_cost_ploy" in w.ctx.hooks.would:  # cheaper on some operative?
                acts = ploy.options(w, player, info)
                out += [a for a in acts if cp >= ploy_cost(w, player, ploy, a)]
            if first and out:
                return out
    return out


def use_ploy(w: Work, player: str, trigger: str, action: Action, info: Mapping[str, Any]) -> Any:
    """Pay for and use the ploy whose action ``action`` is: CP spent, the ploy noted as used
    this turning point, ``ploy_used`` emitted, then its effect.

    Returns:
        whatever the ploy's ``use`` returns (a :class:`Reroll` or ``None``).

    Raises:
        IllegalActionError: no ploy at this trigger owns ``action``, or it is not among
            the ploy's options now (naming why: CP, once per turning point, condition).
    """
    info = {**info, "trigger": trigger}
    for ploy, players in w.ctx.hooks.ploys.get(trigger, ()):
        if player not in players or not ploy.owns(action):
            continue
        refused = _refused(w, player, ploy, info)
        if refused is not None:
            raise IllegalActionError(refused)
        if ploy.kind == "rule":
            return _use_rule(w, player, trigger, ploy, action, info)
        pl = w.pl(player)
        cost = ploy_cost(w, player, ploy, action)
        if not ploy.repeatable and ploy.name in pl.ploys_used:
            raise IllegalActionError(
                f"{player} already used {ploy.name} this turning point: each ploy at most "
                "once per turning point (7.1)"
            )
        if pl.cp < cost:
            raise IllegalActionError(f"{ploy.name} costs {cost}CP and {player} has {pl.cp}CP (7.1)")
        if action not in ploy.options(w, player, info):
            explain = getattr(ploy, "refusal", None)
            why = explain(w, player, action, info) if explain is not None else None
            raise IllegalActionError(
                why or f"{action} cannot be used now: its condition does not hold (7.1)"
            )
        used = pl.ploys_used if ploy.name in pl.ploys_used else (*pl.ploys_used, ploy.name)
        w.set_pl(player, cp=pl.cp - cost, cp_spent=pl.cp_spent + cost, ploys_used=used)
        if cost:
            w.emit("cp_spent", player=player, cp=cost, ploy=ploy.name)
        w.emit(
            "ploy_used",
            player=player,
            ploy=ploy.name,
            ploy_kind=ploy.kind,
            trigger=trigger,
            cp=cost,
        )
        return ploy.use(w, player, action, info)
    raise IllegalActionError(f"{action} is not a ploy {player} can use here ({trigger}, 7.1)")


def _use_rule(
    w: Work, player: str, trigger: str, rule: PloyLike, action: Action, info: Mapping[str, Any]
) -> Any:
    """Use a rule's option of kind ``"rule"`` (:class:`PloyLike`): no CP, not a ploy used.

    Raises:
        IllegalActionError: ``action`` is not among its options now (naming why)."""
    if action not in rule.options(w, player, info):
        explain = getattr(rule, "refusal", None)
        why = explain(w, player, action, info) if explain is not None else None
        raise IllegalActionError(why or f"{action} cannot be used now: its condition does not hold")
    w.emit("rule_used", player=player, rule=rule.name, trigger=trigger)
    return rule.use(w, player, action, info)


def window_wanted(w: Work, trigger: str, info: Mapping[str, Any]) -> bool:
    """Whether a window at ``trigger`` is a decision for anyone now (module docstring)."""
    if w.ctx.options.open_windows:
        return True
    entries = w.ctx.hooks.ploys.get(trigger)
    if not entries:
        return False
    return any(ploy_options(w, p, trigger, info, first=True) for p in ("A", "B"))


def open_window(w: Work, trigger: str, **info: Any) -> bool:
    """Push a ploy window for ``trigger`` when one is wanted (:func:`window_wanted`);
    ``info`` (hashable values) tells the ploys what happened (``op``, ``target``...).
    Returns whether a window was pushed (the caller's frame resumes when it closes)."""
    if not window_wanted(w, trigger, info):
        return False
    first = w.initiative or "A"
    w.stack.append(PloyWindowFrame(trigger, tuple(sorted(info.items())), turn=first))
    return True


@attrs.frozen(slots=True)
class PloyWindowFrame:
    """A ploy window in progress (module docstring): players alternate, starting with the
    initiative player, until both pass in succession.

    Attributes:
        trigger: one of :data:`TRIGGERS`. info: ``(key, value)`` pairs, sorted.
        turn: the player to decide. passes: passes in succession so far.
    """

    trigger: str
    info: tuple[tuple[str, Any], ...]
    turn: str
    passes: int = 0

    def _info(self) -> dict[str, Any]:
        return dict(self.info)

    def run(self, w: Work) -> None:
        if self.passes >= 2:
            w.stack.pop()
            return
        if w.ctx.options.open_windows or ploy_options(w, self.turn, self.trigger, self._info()):
            w.decide(self.turn, "ploy")
            return
        w.replace_top(turn=other(self.turn), passes=self.passes + 1)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("no dice are rolled in a ploy window")

    def options(self, w: Work) -> list[Action]:
        return [Action("Pass"), *ploy_options(w, self.turn, self.trigger, self._info())]

    def act(self, w: Work, a: Action) -> None:
        if a.verb == "Pass":
            w.emit("passed", player=self.turn, step=self.trigger.replace("_", " "))
            w.replace_top(turn=other(self.turn), passes=self.passes + 1)
            return
        player = self.turn
        w.replace_top(turn=other(player), passes=0)
        use_ploy(w, player, self.trigger, a, self._info())
