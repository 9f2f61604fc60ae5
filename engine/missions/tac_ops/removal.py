"""Tokens a player *can* remove to score at the end of a turning point (tac ops Martyrs and
Dominate, ``rules/KT24.md`` 8.4): the removal as that player's decision, asked when it can
matter.

The ops' text says the player *can* remove its tokens; each one removed scores, up to the
op's cap for the turning point. Where removing them all while they score is the best a
player can do (nothing left to gain by keeping one, and it does not matter which go), the op
removes them itself at the ``turning_point_ending`` event. Where it can matter (which token
stays for a later turning point, or whether to keep one), the op's scoring step
(:meth:`engine.game.context.Hooks.scoring_step`) pushes a :class:`TokenRemovalFrame`:
decision kind ``"op tokens"``, the actions ``Op <op> <place>`` (remove one token from that
objective marker or operative and score it) and, where keeping the rest can be better,
``Decline`` (keep them). Each removal is asked again while the cap leaves room; the op does
not remove any more for that player this turning point.

An op declares what the frame needs with :func:`declare_removal` (a :class:`Removal`).
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.work import Work

__all__ = ["Removal", "TokenRemovalFrame", "declare_removal", "removal_of"]


@attrs.frozen(slots=True)
class Removal:
    """How a tac op's tokens are removed one at a time (module docstring).

    Attributes:
        op: the tac op's name (``"Martyrs"``); its notation word is the name in lower case
            (``Op martyrs centre``).
        places: ``places(w, player)``: where a token can be removed now and score (objective
            marker names or operative ids, in a fixed order); empty when the cap is reached.
        remove: ``remove(w, player, place)``: remove one token there and score it.
        optional: ``Decline`` (keep the rest) is offered.
        advice: ``advice(w, player, place) -> float``: how much a player wants that token
            gone first (the heuristic agent takes the greatest; ties: the first listed).
    """

    op: str
    places: Callable[[Work, str], tuple[str, ...]]
    remove: Callable[[Work, str, str], None]
    optional: bool
    advice: Callable[[Work, str, str], float]


_REMOVALS: dict[str, Removal] = {}


def declare_removal(removal: Removal) -> None:
    """Make ``removal`` the way :class:`TokenRemovalFrame` removes the tokens of its op."""
    _REMOVALS[removal.op] = removal


def removal_of(op: str) -> Removal:
    """The :class:`Removal` declared for tac op ``op``.

    Raises:
        KeyError: none was declared.
    """
    return _REMOVALS[op]


@attrs.frozen(slots=True)
class TokenRemovalFrame:
    """``players`` (the one deciding first) each remove tokens of tac op ``op`` one at a time
    while they score, or (when the op allows) keep the rest (module docstring)."""

    op: str
    players: tuple[str, ...]

    @property
    def player(self) -> str:
        """The player deciding now."""
        return self.players[0]

    def _next(self, w: Work) -> None:
        if len(self.players) > 1:
            w.replace_top(players=self.players[1:])
        else:
            w.stack.pop()

    def run(self, w: Work) -> None:
        """Ask the player deciding now, or go on to the next when nothing can score."""
        if not removal_of(self.op).places(w, self.player):
            self._next(w)
            return
        w.decide(self.player, "op tokens")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("no dice here")

    def options(self, w: Work) -> list[Action]:
        """``Decline`` (when the op allows keeping tokens), then ``Op <op> <place>`` for each
        place a token can be removed from and score."""
        removal = removal_of(self.op)
        word = self.op.lower()
        uses = [Action("Op", text=f"{word} {p.lower()}") for p in removal.places(w, self.player)]
        return [Action("Decline"), *uses] if removal.optional else uses

    def place(self, w: Work, a: Action) -> str | None:
        """The place ``a`` removes a token from, or ``None`` (``Decline``, or not one of the
        options)."""
        word = self.op.lower()
        if a.verb != "Op" or a.target or not a.text.startswith(word + " "):
            return None
        named = a.text.removeprefix(word + " ")
        return next(
            (p for p in removal_of(self.op).places(w, self.player) if p.lower() == named), None
        )

    def act(self, w: Work, a: Action) -> None:
        """Remove one token (and score it), or keep the rest.

        Raises:
            IllegalActionError: naming the op and the choices, for any other action.
        """
        removal = removal_of(self.op)
        if a.verb == "Decline" and removal.optional:
            self._next(w)
            return
        place = self.place(w, a)
        if place is None:
            choices = ", ".join(str(x) for x in self.options(w))
            raise IllegalActionError(
                f"{a} is not a choice here: player {self.player} removes a {self.op} token "
                f"with one of: {choices} (rules/KT24.md 8.4)"
            )
        removal.remove(w, self.player, place)
