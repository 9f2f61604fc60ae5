"""Ploys as data where primitives suffice, code where they do not (``rules/KT24.md`` 7.1,
stat changes 2.1; DESIGN.md "Growing the rules").

A :class:`Ploy` is what the core's ploy windows offer (:class:`engine.game.ploys.PloyLike`):
its name, kind, cost, triggers, whether it may be used more than once per turning point,
a condition, what it is used on (nothing, a friendly or an enemy operative) and its effect.
The effect is a tuple of *primitives* (:class:`StatChange`, :class:`GainWeaponRule`,
:class:`FreeAction`, :class:`ExtraMove`, :class:`GainToken`) applied in order, and/or a code
hook ``use(w, player, action, info)`` for what the primitives do not say. Durations of the
effects a primitive begins are the :class:`~engine.game.state.Effect` durations:
``"end_activation"`` (the activation in progress), ``"end_next_activation"``,
``"end_tp"``, ``"end_battle"`` and ``"while"`` (a named condition).

The notation of a ploy's use is ``Ploy <name>`` or ``Ploy <name> on <operative>``
(:mod:`engine.game.actions`); Command Re-roll keeps its own, ``Command re-roll <face>``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.registry import Installer

__all__ = [
    "DURATIONS",
    "ExtraMove",
    "FreeAction",
    "GainToken",
    "GainWeaponRule",
    "Ploy",
    "StatChange",
    "op_token",
    "player_token",
    "ploy_action_name",
    "ploy_installer",
    "shoot_frame",
]

DURATIONS = ("end_activation", "end_next_activation", "end_tp", "end_battle", "while")
"""The durations an effect may have (module docstring)."""

TARGETS = ("", "friendly", "enemy", "self")
"""What a ploy is used on: nothing; a friendly operative; an enemy operative; the operative
the trigger names (``info["op"]``), only when it is a friendly one."""

Condition = Callable[[Work, str, Mapping[str, Any]], bool]
Use = Callable[[Work, str, Action, Mapping[str, Any]], Any]


def ploy_action_name(name: str) -> str:
    """The ``text`` of a ploy's action: its name in lower case with single spaces."""
    return " ".join(name.lower().split())


@attrs.frozen(slots=True)
class StatChange:
    """Change a stat of the ploy's operative (or of every operative of its player when the
    ploy names none): ``stat`` one of ``"apl"``, ``"move"`` (inches), ``"hit"``, ``"save"``
    (a positive value worsens a Hit or Save: 4+ to 5+), by ``value``, for ``until``
    (:data:`DURATIONS`; ``condition`` names the condition of ``"while"``). Stat changes are
    summed; APL is clamped to +/-1, Move never below 4" (2.1)."""

    stat: str
    value: int
    until: str = "end_tp"
    condition: str = ""

    def apply(self, w: Work, player: str, op: str, source: str) -> None:
        """Begin the effect (on ``op``, or on ``player``'s kill team when ``op`` is empty)."""
        w.add_effect(
            Effect(
                self.stat,
                op,
                self.until,
                source=source,
                value=self.value,
                detail=self.condition,
                player="" if op else player,
            )
        )


@attrs.frozen(slots=True)
class GainWeaponRule:
    """The ploy's operative's weapons (or its kill team's) gain a weapon rule (``rule`` in
    the notation of :func:`engine.dice.rules.parse_rules`, e.g. ``"Balanced"``), ranged,
    melee or both (``kind`` ``""``), for ``until``."""

    rule: str
    kind: str = ""
    until: str = "end_tp"
    condition: str = ""

    def apply(self, w: Work, player: str, op: str, source: str) -> None:
        """Begin the effect."""
        detail = f"{self.kind}:{self.rule}"
        if self.condition:
            detail += f"|{self.condition}"
        w.add_effect(
            Effect(
                "weapon_rule",
                op,
                self.until,
                source=source,
                detail=detail,
                player="" if op else player,
            )
        )


@attrs.frozen(slots=True)
class FreeAction:
    """The ploy's operative may perform the action ``verb`` for 0AP (3.1): ``now`` pushes
    it at once, outside any activation; otherwise it is granted for its next (or current)
    activation, ``until`` the end of it."""

    verb: str
    now: bool = False
    until: str = "end_next_activation"

    def apply(self, w: Work, player: str, op: str, source: str) -> None:
        """Grant the free action."""
        from engine.game import universal

        if not op:
            raise IllegalActionError("a free action needs an operative (3.1)")
        if self.now:
            universal.start_free_action(w, op, (self.verb,))
        else:
            w.add_effect(Effect("free_action", op, self.until, source=source, detail=self.verb))


@attrs.frozen(slots=True)
class ExtraMove:
    """The ploy's operative may move up to ``distance`` inches at once, as a free Reposition
    limited to that distance, outside its activation (3.1)."""

    distance: float

    def apply(self, w: Work, player: str, op: str, source: str) -> None:
        """Push the move."""
        from engine.game import universal

        if not op:
            raise IllegalActionError("an extra move needs an operative (3.1)")
        universal.start_free_action(w, op, ("Reposition",), max_move=self.distance)


@attrs.frozen(slots=True)
class GainToken:
    """Give the ploy's operative (or its player) a token: an effect of kind ``"token"``
    with ``name`` in its detail, for ``until``; other rules read it."""

    name: str
    until: str = "end_tp"

    def apply(self, w: Work, player: str, op: str, source: str) -> None:
        """Begin the effect."""
        w.add_effect(
            Effect(
                "token",
                op,
                self.until,
                source=source,
                detail=self.name,
                player="" if op else player,
            )
        )


Primitive = StatChange | GainWeaponRule | FreeAction | ExtraMove | GainToken


def _active_operative(w: Work) -> str:
    """The operative whose activation (or counteraction) is in progress, or ``""``."""
    from engine.game.universal import ActivationFrame

    for f in reversed(w.stack):
        if isinstance(f, ActivationFrame) and f.mode in ("activation", "counteract"):
            return f.op
    return ""


def _always(_w: Work, _player: str, _info: Mapping[str, Any]) -> bool:
    return True


@attrs.frozen(slots=True)
class Ploy:
    """A ploy (module docstring; implements :class:`engine.game.ploys.PloyLike`).

    Attributes:
        name: as printed. kind: ``"strategy"`` or ``"firefight"``. cp: printed cost.
        triggers: where it is offered (:data:`engine.game.ploys.TRIGGERS`); a strategy
            ploy's is ``("gambit",)``.
        target: :data:`TARGETS`: what it is used on.
        condition: ``condition(w, player, info) -> bool`` (its printed conditions).
        eligible: for a ploy used on an operative, ``eligible(w, player, op_id, info)``:
            whether it can be used on that one (default: living and of the right side).
        effects: primitives applied in order, to the chosen operative (or the trigger's).
        use: a code hook run after the primitives; its return value goes back to the
            window (a :class:`engine.game.ploys.Reroll`...).
        repeatable: usable more than once per turning point.
        rule_id: the stable id of the rule it implements (team ploys), else ``""``.
        rerolls: its use re-rolls dice (its ``use`` returns a Reroll): a rule that forbids
            re-rolls refuses it (:func:`engine.game.ploys.reroll_refusal`).
        advice: what the heuristic agent reads to value using it now
            (:data:`engine.agents.advice.PloyAdvice`), or ``None``.

    Raises:
        ValueError: an unknown kind, trigger, target or duration.
    """

    name: str
    kind: str
    cp: int = 1
    triggers: tuple[str, ...] = ("gambit",)
    target: str = ""
    condition: Condition = attrs.field(default=_always, eq=False)
    eligible: Callable[[Work, str, str, Mapping[str, Any]], bool] | None = attrs.field(
        default=None, eq=False
    )
    effects: tuple[Primitive, ...] = ()
    use_hook: Use | None = attrs.field(default=None, eq=False)
    repeatable: bool = False
    rule_id: str = ""
    rerolls: bool = False
    advice: Callable[[Work, str, Action, Mapping[str, Any]], float] | None = attrs.field(
        default=None, eq=False
    )

    def __attrs_post_init__(self) -> None:
        from engine.game.ploys import TRIGGERS

        if self.kind not in ("strategy", "firefight"):
            raise ValueError(f"ploy {self.name!r}: kind must be strategy or firefight")
        for t in self.triggers:
            if t not in TRIGGERS:
                raise ValueError(f"ploy {self.name!r}: unknown trigger {t!r}")
        if self.target not in TARGETS:
            raise ValueError(f"ploy {self.name!r}: unknown target {self.target!r}")
        for e in self.effects:
            until = getattr(e, "until", "end_tp")
            if until not in DURATIONS:
                raise ValueError(f"ploy {self.name!r}: unknown duration {until!r}")

    @property
    def text(self) -> str:
        """The ``text`` of this ploy's actions."""
        return ploy_action_name(self.name)

    def _candidates(self, w: Work, player: str, info: Mapping[str, Any]) -> list[str]:
        if self.target == "self":
            # The operative the trigger names, when it is the player's own (a trigger may
            # name an enemy: the target selected, the operative activated by the opponent).
            op = str(info.get("op", ""))
            if not op or w.ctx.owner.get(op) != player:
                return []
            if self.eligible is not None and not self.eligible(w, player, op, info):
                return []
            return [op]
        side = player if self.target == "friendly" else ("B" if player == "A" else "A")
        out = []
        for o in w.alive(side):
            if self.eligible is None or self.eligible(w, player, o.id, info):
                out.append(o.id)
        return out

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """The actions that use it now (empty when its condition does not hold)."""
        if not self.condition(w, player, info):
            return []
        if self.target in ("friendly", "enemy"):
            return [
                Action("Ploy", text=self.text, target=op)
                for op in self._candidates(w, player, info)
            ]
        if self.target == "self" and not self._candidates(w, player, info):
            return []
        return [Action("Ploy", text=self.text)]

    def owns(self, action: Action) -> bool:
        """Whether ``action`` is one of this ploy's actions."""
        return action.verb == "Ploy" and action.text == self.text

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> Any:
        """Apply the primitives then the code hook (the window checked the action)."""
        op = str(info.get("op", "")) if self.target == "self" else action.target
        for e in self.effects:
            source = op or self.name
            if getattr(e, "until", "") == "end_activation":
                # "Until the end of the activation" is the activation in progress, whoever
                # the ploy was used on (Effect.until ends it with its source's activation).
                source = _active_operative(w) or source
            e.apply(w, player, op, source)
        if self.use_hook is not None:
            return self.use_hook(w, player, action, info)
        return None


# -- What the ploys of many teams read and how they are installed ------------------------------


def player_token(w: Work, player: str, name: str) -> bool:
    """``player`` holds the player-wide token ``name`` (a :class:`GainToken` used with no
    operative)."""
    return any(
        e.kind == "token" and not e.op and e.player == player and e.detail == name
        for e in w.effects
    )


def op_token(w: Work, op: str, name: str) -> bool:
    """Operative ``op`` holds the token ``name`` (pending ones included)."""
    return any(e.kind == "token" and e.op == op and e.detail == name for e in w.effects)


def shoot_frame(w: Work) -> Any:
    """The Shoot in progress (the top-most :class:`engine.game.shoot.ShootFrame` on the
    stack), or ``None``."""
    from engine.game.shoot import ShootFrame

    for f in reversed(w.stack):
        if isinstance(f, ShootFrame):
            return f
    return None


def ploy_installer(ploy: Any, extra: Installer | None = None) -> Installer:
    """An installer (:func:`engine.rules.registry.register`) that adds ``ploy`` for its
    players, then runs ``extra`` (the ploy's hooks) when given."""

    def install(hooks: Hooks, players: tuple[str, ...]) -> None:
        hooks.ploy(ploy, players)
        if extra is not None:
            extra(hooks, players)

    return install
