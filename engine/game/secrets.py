"""Secret selections and how to redraw them (``rules/KT24.md`` 7.2, 8.1, 8.3, 8.4: the
selections a player makes in secret).

A *secret selection* is the choice a player makes at a decision of a kind in
:data:`~engine.game.vocabulary.SECRET_DECISIONS` (a tac op, a primary op, the universal
equipment, a Reboot pick...): it is kept in the state (a field of
:class:`~engine.game.state.PlayerState` or :class:`~engine.game.state.MissionState`, or a
``"secret:<player>:"`` fact) and hidden from the opponent by
:func:`engine.game.observation.observe` until the rules reveal it.

The core names no op and no item of equipment: the rule module that keeps a secret registers
a :class:`SecretSelection` for its decision kind (:func:`register_secret`, at import), saying
when the owner's selection is hidden, which selections are *consistent with what the opponent
has seen* (the owner's options as the rules give them, narrowed by whatever public fact
betrays part of the choice), and how to write one into a state. On that:

- :func:`resample` redraws every hidden selection of a player's opponent uniformly among the
  consistent ones (a *determinisation*, for information-set search);
- :func:`redact` replaces each by the first consistent one, a fixed placeholder: a state that
  holds no secret of the opponent and that the player cannot tell from the real one.

Neither changes anything the player has seen nor the player's own secrets, so the player's
observation and legal actions are the same before and after (the state's legal actions never
depend on the opponent's secrets: a secret selection lists only the selecting player's
options, and an op's actions are offered only to the player who selected it). A frame must not
hold a secret itself: it keeps it in the field it names in ``HIDES_OPPONENT``, in the mission
or in a secret fact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np

from engine.game.state import GameState, other
from engine.game.vocabulary import SECRET_DECISIONS, undeclared

__all__ = [
    "SecretSelection",
    "hidden_secrets",
    "redact",
    "register_secret",
    "resample",
    "secret_selections",
    "with_facts",
]


@attrs.frozen(slots=True)
class SecretSelection:
    """How one kind of secret selection is hidden and redrawn (module docstring).

    Attributes:
        kind: the decision kind it is made at (one of
            :data:`~engine.game.vocabulary.SECRET_DECISIONS`).
        hidden: ``hidden(state, owner) -> bool``: whether ``owner``'s selection is made (or
            under way) and hidden from its opponent in ``state``.
        choices: ``choices(state, owner) -> sequence``: every selection of ``owner``
            consistent with what its opponent has seen, in a canonical order that depends
            on nothing hidden (the first is :func:`redact`'s placeholder); never empty while
            :attr:`hidden` holds.
        put: ``put(state, owner, choice) -> state``: ``state`` with ``owner``'s selection
            replaced by ``choice`` (and whatever the rules keep secretly about the old one
            dropped), nothing else changed.
    """

    kind: str
    hidden: Callable[[GameState, str], bool]
    choices: Callable[[GameState, str], Sequence[Any]]
    put: Callable[[GameState, str, Any], GameState]


_SECRETS: dict[str, SecretSelection] = {}


def register_secret(spec: SecretSelection) -> SecretSelection:
    """Register how a secret selection is redrawn (at import of the rule module keeping it).

    Raises:
        UndeclaredNameError: ``spec.kind`` is not in
            :data:`~engine.game.vocabulary.SECRET_DECISIONS`.
        ValueError: another spec is already registered for that kind.
    """
    if spec.kind not in SECRET_DECISIONS:
        raise undeclared(SECRET_DECISIONS, spec.kind)
    known = _SECRETS.get(spec.kind)
    if known is not None and known != spec:
        raise ValueError(f"a secret selection of kind {spec.kind!r} is registered twice")
    _SECRETS[spec.kind] = spec
    return spec


def secret_selections() -> tuple[SecretSelection, ...]:
    """The registered secret selections, sorted by kind (the order :func:`resample` draws
    them in)."""
    return tuple(_SECRETS[k] for k in sorted(_SECRETS))


def _check_player(player: str, who: str) -> None:
    if player not in ("A", "B"):
        raise ValueError(f"{who}: player must be 'A' or 'B', not {player!r}")


def hidden_secrets(state: GameState, player: str) -> tuple[SecretSelection, ...]:
    """The secret selections of ``player``'s opponent hidden from ``player`` in ``state``.

    Raises:
        ValueError: a player other than A and B.
    """
    _check_player(player, "hidden_secrets")
    opp = other(player)
    return tuple(s for s in secret_selections() if s.hidden(state, opp))


def _choices(spec: SecretSelection, state: GameState, owner: str) -> Sequence[Any]:
    got = spec.choices(state, owner)
    if not got:  # pragma: no cover - a rule module's bug
        raise RuntimeError(f"secret selection {spec.kind!r} of {owner}: no consistent choice")
    return got


def resample(state: GameState, player: str, rng: np.random.Generator | int) -> GameState:
    """A state ``player`` cannot tell from ``state``: each secret selection of the opponent
    still hidden from ``player`` redrawn uniformly among those consistent with what
    ``player`` has seen (module docstring), drawn in :func:`secret_selections` order.
    Everything ``player`` has seen and ``player``'s own secrets are kept; the result is a
    valid state that plays on.

    Args:
        state: any state of a battle.
        player: ``"A"`` or ``"B"``: whose view is kept.
        rng: a numpy ``Generator``, or an int seed for one: the same seed gives the same
            state.

    Raises:
        ValueError: a player other than A and B.
    """
    _check_player(player, "resample")
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    opp = other(player)
    for spec in hidden_secrets(state, player):
        options = _choices(spec, state, opp)
        state = spec.put(state, opp, options[int(gen.integers(len(options)))])
    return state


def redact(state: GameState, player: str) -> GameState:
    """``state`` with each secret selection of the opponent still hidden from ``player``
    replaced by a fixed placeholder, the first consistent choice (module docstring): it holds
    no secret of the opponent, ``player`` cannot tell it from ``state``, and two states
    ``player`` cannot tell apart redact to equal states.

    Raises:
        ValueError: a player other than A and B.
    """
    _check_player(player, "redact")
    opp = other(player)
    for spec in hidden_secrets(state, player):
        state = spec.put(state, opp, _choices(spec, state, opp)[0])
    return state


def with_facts(state: GameState, changes: dict[str, Any]) -> GameState:
    """``state`` with the mission's facts changed (a value ``None`` removes the key; the
    facts stay sorted by key), for :attr:`SecretSelection.put`."""
    facts = dict(state.mission.facts)
    for key, value in changes.items():
        if value is None:
            facts.pop(key, None)
        else:
            facts[key] = value
    mission = attrs.evolve(state.mission, facts=tuple(sorted(facts.items())))
    return attrs.evolve(state, mission=mission)
