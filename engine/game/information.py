"""A player's information state (``rules/KT24.md`` 7.2, 8.1, 8.3, 8.4: what a player may know
of a battle where the opponent selects some things in secret).

The :class:`~engine.game.state.GameState` holds everything that matters for the rest of a
battle (it is Markov: the past shows only through it), so what a player knows at a state is
what the state shows the player:

- :func:`information_state`: a canonical, deterministic string of everything ``player`` may
  see: the turning point, phase, initiative, both players' resources, every operative,
  marker, effect, open hatchway and token, the mission with the opponent's secrets replaced by
  ``"?"`` (:func:`engine.game.observation.observe`), the procedures in progress (the frame
  stack: the attack under way, its dice...; frames hold no secret), the node and the number of
  inputs so far. The player's own secret selections are in it; the opponent's hidden ones are
  not. Two states the player cannot tell apart (differing only in the opponent's hidden
  selections) give the same string; states the player can tell apart give different ones.
- :func:`information_key`: a short digest of that string (24 hex digits), a hashable key for
  tables (search trees, regret tables).
- :func:`resample` (from :mod:`engine.game.secrets`): a state of the same information state
  for the player, the opponent's hidden selections drawn uniformly among those consistent with
  what the player has seen: the determinisation of information-set search.

The decisions whose choice is secret are declared in
:data:`engine.game.vocabulary.SECRET_DECISIONS`.
"""

from __future__ import annotations

import hashlib

from engine.game.observation import observe
from engine.game.secrets import resample
from engine.game.state import GameState

__all__ = ["information_key", "information_state", "resample"]


def information_state(state: GameState, player: str) -> str:
    """``player``'s information state at ``state`` (module docstring): a canonical string,
    the same in every process (no object ids, no ``PYTHONHASHSEED``), equal for two states
    ``player`` cannot tell apart.

    Args:
        state: any state of a battle.
        player: ``"A"`` or ``"B"``.

    Raises:
        ValueError: a player other than A and B.
    """
    view = observe(state, player)
    return repr(
        (
            view.player,
            view.tp,
            view.phase,
            view.initiative,
            view.players,
            view.operatives,
            view.markers,
            view.effects,
            view.open_hatchways,
            view.tokens,
            view.mission,
            state.stack,
            view.node,
            view.step,
        )
    )


def information_key(state: GameState, player: str) -> str:
    """A 24-hex-digit digest (BLAKE2b) of :func:`information_state`: equal exactly when the
    information states are (but for a digest collision).

    Raises:
        ValueError: a player other than A and B.
    """
    text = information_state(state, player)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
