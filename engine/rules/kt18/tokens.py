"""The tokens a KT18 model gains during a battle round (``rules/KT18.md`` 1.1, 3.1-3.13,
5.1, 7.1), kept as strings in :attr:`engine.game.state.OperativeState.done` (no new state
field): the Morale phase clears them all at the end of the round (8.1; the Shaken token is an
effect, ``kt18_shaken``, and survives).

- ``"moved"``: it moved this round (a normal move, Advance, Fall Back, Retreat, charge move;
  Heavy, 5.9). Readying and staying still are not moves.
- ``"advanced"`` (3.7), ``"fell_back"`` (3.6), ``"readied"`` (3.8), ``"charge_attempt"``
  (3.9: it declared a charge), ``"charged"`` (3.13: the charge succeeded), ``"was_charged"``
  (3.13: within 1" of a successful charger at the end of its charge move), ``"retreated"``
  (3.12), ``"shot"`` (5.1), ``"fought"`` (7.1), ``"overwatch"`` (3.11: it fired Overwatch
  this round), ``"reinforced"`` (3.16), ``"psychic"`` (4: it manifested or denied a power).
"""

from __future__ import annotations

from engine.game.state import OperativeState
from engine.game.work import Work

__all__ = ["ACTED", "TOKENS", "add_token", "clear_tokens", "has", "remove_token"]

TOKENS = (
    "moved",
    "advanced",
    "fell_back",
    "readied",
    "charge_attempt",
    "charged",
    "was_charged",
    "retreated",
    "shot",
    "fought",
    "overwatch",
    "reinforced",
    "psychic",
)
"""Every KT18 token (module docstring)."""

ACTED = ("moved", "advanced", "fell_back", "readied", "charge_attempt", "retreated", "reinforced")
"""The tokens of a model that has had its one move of the Movement phase (3.1; reading
chosen: a Retreat uses it too)."""


def _check(token: str) -> None:
    if token not in TOKENS:
        raise ValueError(f"unknown KT18 token {token!r} (known: {', '.join(TOKENS)})")


def has(o: OperativeState, token: str) -> bool:
    """Whether the model ``o`` has ``token`` this battle round.

    Raises:
        ValueError: ``token`` is not one of :data:`TOKENS`."""
    _check(token)
    return token in o.done


def add_token(w: Work, op_id: str, token: str) -> None:
    """Give the model ``op_id`` the token ``token`` (kept sorted, once).

    Raises:
        ValueError: ``token`` is not one of :data:`TOKENS`."""
    _check(token)
    o = w.op(op_id)
    if token not in o.done:
        w.set_op(op_id, done=tuple(sorted((*o.done, token))))


def remove_token(w: Work, op_id: str, token: str) -> None:
    """Take ``token`` away from the model ``op_id`` (a Readied model that moves, 3.8).

    Raises:
        ValueError: ``token`` is not one of :data:`TOKENS`."""
    _check(token)
    o = w.op(op_id)
    if token in o.done:
        w.set_op(op_id, done=tuple(t for t in o.done if t != token))


def clear_tokens(w: Work) -> None:
    """Remove every model's tokens (the end of the Morale phase, ``rules/KT18.md`` 8.1)."""
    for o in list(w.ops):
        if o.done:
            w.set_op(o.id, done=())
