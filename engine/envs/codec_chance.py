"""The chance nodes of the action codec (:mod:`engine.envs.codec`, which re-exports this
module's public names): every outcome of a chance node as an integer of
``range(CHANCE_SPACE_SIZE)``: the 36 ordered pairs of a roll-off first, then the multisets of
1 to :data:`MAX_DICE` faces. It also holds what the codec's decision families share with it:
:class:`CodecError` and the die-face multisets (the ``reroll`` family's field).
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from engine.errors import KillTeamError
from engine.game.actions import Action, format_action
from engine.game.state import Chance, GameState

__all__ = [
    "CHANCE_SPACE_SIZE",
    "MAX_DICE",
    "CodecError",
    "chance_outcome",
    "chance_outcome_index",
    "chance_probabilities",
    "multiset_index",
    "multisets",
]


class CodecError(KillTeamError, ValueError):
    """An index or action the codec cannot map: out of range, not legal at this decision, not
    a decision node, or past one of the published bounds (the message names the index or
    action and what is wrong)."""


MAX_DICE = 12
"""The most dice a chance node rolls in :func:`chance_outcome_index`'s enumeration."""


def multisets(most: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of 1 to ``most`` die faces, each in descending order (the notation's),
    by size then in lexicographic order of the descending faces."""
    return tuple(
        combo
        for n in range(1, most + 1)
        for combo in itertools.combinations_with_replacement(range(6, 0, -1), n)
    )


@functools.cache
def multiset_index(most: int) -> dict[tuple[int, ...], int]:
    """The position of each multiset of :func:`multisets` ``(most)``, by its faces."""
    return {m: i for i, m in enumerate(multisets(most))}


CHANCE_SPACE_SIZE: int = 36 + len(multisets(MAX_DICE))
"""The size of the chance outcome enumeration (:func:`chance_outcome_index`)."""

_CHANCE_MEMO = "envs.chance"


def _chance_table(state: GameState) -> dict[int, tuple[Action, int]]:
    got = state._memo.get(_CHANCE_MEMO)
    if got is not None:
        return got  # type: ignore[no-any-return]
    if not isinstance(state, GameState) or not isinstance(state.node, Chance):
        node = state.node if isinstance(state, GameState) else state
        raise CodecError(f"chance outcomes are encoded at a chance node; this node is {node!r}")
    request = state.node.request
    table: dict[int, tuple[Action, int]] = {}
    for action, weight in state.chance_outcomes():
        table[_outcome_index(request.ordered, action)] = (action, weight)
    state._memo[_CHANCE_MEMO] = table
    return table


def _outcome_index(ordered: bool, action: Action) -> int:
    values = action.values
    if action.verb != "roll" or not values or any(not 1 <= d <= 6 for d in values):
        raise CodecError(f"{format_action(action)!r} is not a roll of die faces")
    if ordered and len(values) == 2:
        return (values[0] - 1) * 6 + values[1] - 1
    index = multiset_index(MAX_DICE).get(tuple(sorted(values, reverse=True)))
    if index is None or (ordered and len(values) > 2):
        raise CodecError(
            f"{format_action(action)!r}: the chance enumeration holds ordered pairs and "
            f"multisets of 1 to {MAX_DICE} dice (MAX_DICE)"
        )
    return 36 + index


def chance_outcome_index(state: GameState, action: Action) -> int:
    """The index of the outcome ``action`` (``roll 6,4,1``) of the chance node ``state`` in
    the fixed enumeration of ``range(CHANCE_SPACE_SIZE)``: an ordered roll-off pair ``(a,
    b)`` (A's die first) is ``(a - 1) * 6 + b - 1``; a multiset of ``n`` faces is ``36 +`` its
    position among the multisets of 1 to :data:`MAX_DICE` faces (by size, then by its faces
    in descending order, lexicographically descending).

    Raises:
        CodecError: ``state`` is not at a chance node, or ``action`` is not one of its
            outcomes.
    """
    table = _chance_table(state)
    if not isinstance(action, Action):
        raise CodecError(f"expected an Action, not {type(action).__name__}")
    index = _outcome_index(state.node.request.ordered, action)  # type: ignore[union-attr]
    if index not in table or table[index][0] != action:
        raise CodecError(f"{format_action(action)!r} is not an outcome of this chance node")
    return index


def chance_outcome(state: GameState, index: int) -> Action:
    """The outcome of the chance node ``state`` whose index is ``index``
    (:func:`chance_outcome_index`).

    Raises:
        CodecError: ``index`` is not an integer, or not an outcome of this node, or ``state``
            is not at a chance node.
    """
    if isinstance(index, bool) or not isinstance(index, int | np.integer):
        raise CodecError(f"a chance index must be an integer, not {type(index).__name__}")
    table = _chance_table(state)
    got = table.get(int(index))
    if got is None:
        raise CodecError(
            f"chance index {int(index)} is not an outcome of this chance node "
            f"({len(table)} outcomes, indices 0 to {CHANCE_SPACE_SIZE - 1})"
        )
    return got[0]


def chance_probabilities(state: GameState) -> list[tuple[int, float]]:
    """``(index, probability)`` for every outcome of the chance node ``state``, by index:
    each outcome's weight divided by ``6 ** dice`` (the weights sum to it, so the
    probabilities sum to 1).

    Raises:
        CodecError: ``state`` is not at a chance node.
    """
    table = _chance_table(state)
    total = 6**state.node.request.dice  # type: ignore[union-attr]
    return [(i, table[i][1] / total) for i in sorted(table)]
