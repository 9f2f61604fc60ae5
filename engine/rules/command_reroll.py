"""Command Re-roll, the universal firefight ploy (``rules/KT24.md`` 7.1, decision 9).

1CP, after rolling your attack or defence dice: re-roll one of them, never a die already
re-rolled (2.4). Unlike every other ploy it may be used more than once per turning point.
Its notation is ``Command re-roll <face>`` (the face of the die re-rolled).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.ploys import Reroll
from engine.game.work import Work

__all__ = ["COMMAND_REROLL", "CommandReroll", "install"]


@attrs.frozen(slots=True)
class CommandReroll:
    """The Command Re-roll ploy (module docstring; a :class:`engine.game.ploys.PloyLike`)."""

    name: str = "Command Re-roll"
    kind: str = "firefight"
    cp: int = 1
    triggers: tuple[str, ...] = ("attack_dice", "defence_dice")
    repeatable: bool = True
    rerolls: bool = True

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Command re-roll <face>`` for each face shown by a die not re-rolled yet."""
        dice, flags = info.get("dice", ()), info.get("flags", ())
        faces = sorted({v for v, f in zip(dice, flags, strict=True) if not f}, reverse=True)
        return [Action("Command re-roll", values=(v,)) for v in faces]

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str | None:
        """Why ``action`` is refused: not one die, or no die with that face not re-rolled."""
        if len(action.values) != 1:
            return "Command Re-roll re-rolls one die (7.1)"
        return (
            f"no die showing {action.values[0]} that has not been re-rolled: a die is never "
            "re-rolled twice (2.4, 7.1)"
        )

    def owns(self, action: Action) -> bool:
        """Its actions are ``Command re-roll <face>``."""
        return action.verb == "Command re-roll"

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> Reroll:
        """Re-roll the one die chosen.

        Raises:
            IllegalActionError: not exactly one face."""
        if len(action.values) != 1:
            raise IllegalActionError("Command Re-roll re-rolls one die (7.1)")
        return Reroll(action.values)


COMMAND_REROLL = CommandReroll()


def install(hooks: Hooks) -> None:
    """Offer Command Re-roll to both players."""
    hooks.ploy(COMMAND_REROLL, ("A", "B"))
