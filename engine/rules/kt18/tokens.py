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
- ``"charged_by:<id>"`` (3.13, 7.5): on a model that was charged, one per model that charged
  it this round (``<id>`` the charger's id): who charged whom, read by the Fight phase (a
  model that charged may only fight the enemies it charged or that charged it, 7.5 step 2).

Every other module reads and writes tokens through :func:`has`, :func:`add_token` and
:func:`remove_token`, which refuse a name that is not a KT18 token (no string typed twice).
A scripted position may give a model its tokens (``tokens = ["advanced"]`` in a scenario
file's ``[position.operatives.X]``): :func:`position_tokens` checks them.
"""

from __future__ import annotations

from engine.game.state import OperativeState
from engine.game.work import Work

__all__ = [
    "ACTED",
    "CHARGED_BY",
    "TOKENS",
    "add_token",
    "charged_by",
    "chargers_of",
    "clear_tokens",
    "has",
    "is_token",
    "position_tokens",
    "remove_token",
]

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


CHARGED_BY = "charged_by:"
"""The start of the token that names a model's charger (module docstring; 3.13, 7.5)."""


def charged_by(charger: str) -> str:
    """The token a model charged by ``charger`` (an operative id) gets (3.13)."""
    return f"{CHARGED_BY}{charger}"


def is_token(token: str) -> bool:
    """Whether ``token`` is a KT18 token: one of :data:`TOKENS`, or ``"charged_by:<id>"``
    with an id."""
    return token in TOKENS or (token.startswith(CHARGED_BY) and len(token) > len(CHARGED_BY))


def chargers_of(o: OperativeState) -> tuple[str, ...]:
    """The ids of the models that charged ``o`` this battle round (3.13, 7.5)."""
    return tuple(t[len(CHARGED_BY) :] for t in o.done if t.startswith(CHARGED_BY))


def _check(token: str) -> None:
    if not is_token(token):
        raise ValueError(
            f"unknown KT18 token {token!r} (known: {', '.join(TOKENS)}, {CHARGED_BY}<id>)"
        )


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


def position_tokens(w: Work, value: str | None, *, op: str, tokens: tuple[str, ...]) -> str | None:
    """The ``position_tokens`` *would* hook of KT18: ``None`` (accepted) when every one of
    ``tokens`` given to ``op`` in a scripted position is a KT18 token (:data:`TOKENS`, or
    ``"charged_by:<id>"`` naming a model of the other player), else why not (the position is
    refused with that text)."""
    del value
    for t in tokens:
        if not is_token(t):
            return (
                f"{t!r:.60} is not a KT18 token of the battle round (known: {', '.join(TOKENS)}, "
                f"{CHARGED_BY}<id>; rules/KT18.md 8.1)"
            )
        if t.startswith(CHARGED_BY):
            charger = t[len(CHARGED_BY) :]
            if charger not in w.ctx.index or w.ctx.owner[charger] == w.ctx.owner[op]:
                return (
                    f"{t!r:.60}: {charger!r:.40} is not an enemy model of {op} (rules/KT18.md 3.13)"
                )
    return None
