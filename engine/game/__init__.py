"""The game engine: immutable state, the KT24 battle loop, actions, chance nodes, records.

The core names no rule module: a battle is created under a ruleset
(:func:`engine.rulesets.new_game`, the composition roots of :mod:`engine.rulesets`).

- :mod:`engine.game.state`: :class:`GameState`, nodes (:class:`Decision`, :class:`Chance`,
  :class:`Terminal`).
- :mod:`engine.game.actions`: :class:`Action`, the notation, the errors.
- :mod:`engine.game.setup`: :func:`~engine.game.setup.start_battle` (given the ruleset).
- :mod:`engine.game.flow`, :mod:`engine.game.universal` (the universal actions and the
  activation frames), :mod:`engine.game.bookkeeping`, :mod:`engine.game.weapons`,
  :mod:`engine.game.markers`, :mod:`engine.game.damage` (what the actions and frames share),
  :mod:`engine.game.attacks` (what the Shoot and Fight sequences share),
  :mod:`engine.game.shoot`, :mod:`engine.game.fight`: the core rules (rule modules:
  :mod:`engine.rules`; missions: :mod:`engine.missions`; both installed by a ruleset,
  :mod:`engine.rulesets`).
- :mod:`engine.game.drivers`: chance drivers and the play loop (agents are handed their
  player's observation).
- :mod:`engine.game.observation`: what one player may see; :mod:`engine.game.secrets`: the
  secret selections and how they are redrawn (``resample``, ``redact``);
  :mod:`engine.game.information`: a player's information state.
- :mod:`engine.game.record`: game records and replay; :mod:`engine.game.record_format`:
  reading and checking a record's lines and header.
"""

from engine.game.actions import (
    Action,
    AmbiguousActionError,
    IllegalActionError,
    InvalidActionError,
    format_action,
    parse_action,
)
from engine.game.context import GameOptions
from engine.game.events import Event, narrate
from engine.game.state import Chance, Decision, DiceRequest, GameState, Result, Terminal

__all__ = [
    "Action",
    "AmbiguousActionError",
    "Chance",
    "Decision",
    "DiceRequest",
    "Event",
    "GameOptions",
    "GameState",
    "IllegalActionError",
    "InvalidActionError",
    "Result",
    "Terminal",
    "format_action",
    "narrate",
    "parse_action",
]
