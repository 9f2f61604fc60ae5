"""Frames for team rules that pause a sequence: a player's choice and a roll of dice
(DESIGN.md principles 3 and 5).

A rule module pushes one of these frames from a hook that runs at a point where the engine
allows it (the ``shoot_started``, ``fight_started``, ``retaliation_weapon``,
``resolve_step_started`` and ``attack_dice_resolved`` events of the Shoot and Fight sequences
are emitted last, so a frame pushed there runs before the sequence goes on).
The frames are plain data (they live in the state); what happens once the choice is made or
the dice are rolled is a function registered under the frame's ``key`` with
:func:`on_choice` / :func:`on_roll`.

- :class:`RuleChoiceFrame`: decision kind ``"team_rule"``; the legal actions are ``Decline``
  and ``Use <rule> on <operative>`` for each candidate (``Use siphon life on LEG-3``), or,
  for a rule used before it names an operative, ``Decline`` and ``Use <rule>``
  (``Use siphon life``); for a rule whose choice is not an operative (a marker...), ``Use
  <rule> <choice>`` for each of its named ``choices``.
- :class:`RuleRollFrame`: a chance node of kind ``"team_rule"`` rolling some D6.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.work import Work

__all__ = ["RuleChoiceFrame", "RuleRollFrame", "on_choice", "on_roll"]

ChoiceHandler = Callable[[Work, "RuleChoiceFrame", str], None]
RollHandler = Callable[[Work, "RuleRollFrame", tuple[int, ...]], None]

_CHOICE: dict[str, ChoiceHandler] = {}
_ROLL: dict[str, RollHandler] = {}


def on_choice(key: str, fn: ChoiceHandler) -> None:
    """Register ``fn(w, frame, chosen)`` for :class:`RuleChoiceFrame` frames with ``key``;
    ``chosen`` is the chosen operative id (the frame's own ``op`` for an untargeted frame),
    or ``""`` when the player declined."""
    _CHOICE[key] = fn


def on_roll(key: str, fn: RollHandler) -> None:
    """Register ``fn(w, frame, values)`` for :class:`RuleRollFrame` frames with ``key``."""
    _ROLL[key] = fn


@attrs.frozen(slots=True)
class RuleChoiceFrame:
    """``player`` may use the team rule ``rule`` on one of ``candidates`` (operative ids, in
    id order), or with one of ``choices`` (names that are not operatives), or decline.

    Attributes:
        player: who decides. rule: the rule's printed name (``"Siphon Life"``).
        key: the handler key (:func:`on_choice`). op: the operative whose rule it is.
        candidates: the operatives it can be used on.
        data: ``(name, value)`` pairs the handler needs (hashable values).
        optional: ``Decline`` is allowed (False: the rule must be used, e.g. when the action
            under way is only legal through it).
        targeted: the use names one of ``candidates`` (``Use <rule> on <operative>``);
            False: the rule is used or declined as a whole (``Use <rule>``), before it names
            any operative; ``candidates`` is then empty.
        choices: names of what the use selects when it is not an operative (``Use <rule>
            <choice>``, the choice in lower case; e.g. an objective marker); the handler gets
            the chosen name as given here. When set, ``candidates`` and ``targeted`` are
            ignored.
    """

    player: str
    rule: str
    key: str
    op: str
    candidates: tuple[str, ...]
    data: tuple[tuple[str, Any], ...] = ()
    optional: bool = True
    targeted: bool = True
    choices: tuple[str, ...] = ()

    def get(self, name: str) -> Any:
        """The value called ``name`` in ``data``."""
        return dict(self.data)[name]

    def run(self, w: Work) -> None:
        w.decide(self.player, "team_rule")

    def options(self, w: Work) -> list[Action]:
        word = self.rule.lower()
        if self.choices:
            uses = [Action("Use", text=f"{word} {c.lower()}") for c in self.choices]
        elif not self.targeted:
            uses = [Action("Use", text=word)]
        else:
            uses = [Action("Use", target=c, text=word) for c in self.candidates]
        return [Action("Decline"), *uses] if self.optional else uses

    def act(self, w: Work, a: Action) -> None:
        named = {f"{self.rule.lower()} {c.lower()}": c for c in self.choices}
        if a.verb == "Decline" and self.optional:
            chosen = ""
        elif self.choices:
            if a.verb != "Use" or a.target or a.text not in named:
                choices = ", ".join(str(x) for x in self.options(w))
                raise IllegalActionError(
                    f"{a} is not a choice here: {self.rule}* of {self.op} allows {choices}"
                )
            chosen = named[a.text]
        elif a.verb == "Use" and a.text == self.rule.lower() and not self.targeted:
            if a.target:
                raise IllegalActionError(
                    f"{a} is not a choice here: {self.rule}* of {self.op} names no operative "
                    f"yet ('Use {self.rule.lower()}' or 'Decline')"
                )
            chosen = self.op
        elif a.verb == "Use" and a.text == self.rule.lower() and a.target in self.candidates:
            chosen = a.target
        else:
            choices = ", ".join(str(x) for x in self.options(w))
            raise IllegalActionError(
                f"{a} is not a choice here: {self.rule}* of {self.op} allows {choices}"
            )
        w.stack.pop()
        _CHOICE[self.key](w, self, chosen)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise RuntimeError("a team rule choice rolls no dice")


@attrs.frozen(slots=True)
class RuleRollFrame:
    """``player`` rolls ``dice`` D6 for the team rule ``rule`` (``label`` for narration).

    Attributes:
        key: the handler key (:func:`on_roll`). op: the operative whose rule it is.
        data: as :class:`RuleChoiceFrame`.
    """

    player: str
    rule: str
    key: str
    op: str
    dice: int
    label: str
    data: tuple[tuple[str, Any], ...] = ()

    def get(self, name: str) -> Any:
        """The value called ``name`` in ``data``."""
        return dict(self.data)[name]

    def run(self, w: Work) -> None:
        w.roll("team_rule", self.player, self.dice, label=self.label)

    def options(self, w: Work) -> list[Action]:  # pragma: no cover
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover
        raise IllegalActionError(f"dice must be rolled here ({self.label}), not {a}")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        w.stack.pop()
        w.emit("dice_rolled", player=self.player, label=self.label, values=values)
        _ROLL[self.key](w, self, values)
