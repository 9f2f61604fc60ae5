"""A Kill Team battle as an OpenSpiel game, registered as ``"kill_team"`` when this module is
imported (``pip install -e ".[rl]"``; ``import engine.envs.openspiel`` then
``pyspiel.load_game("kill_team")``).

The game type: sequential, explicit stochastic (every dice roll is a chance node whose
outcomes have their exact probabilities, weight / 6**dice, :func:`engine.envs.codec.
chance_probabilities`), imperfect information (the opponent's secret selections, ``rules/
KT24.md`` 7.2, 8.1, 8.4), zero-sum, terminal rewards: ``returns()`` is +1/-1 for a win or a
loss and 0/0 for a draw (1.8).

- Actions: the integers of :mod:`engine.envs.codec` (``num_distinct_actions`` =
  ``ACTION_SPACE_SIZE``); chance outcomes: its chance enumeration (``max_chance_outcomes`` =
  ``CHANCE_SPACE_SIZE``). Players 0 and 1 are A and B.
- Parameters (:data:`PARAMETERS`): ``team_a``, ``team_b`` (built-in team ids; ``""``: the
  ruleset's default team for that player, :func:`engine.play.default_teams`), ``killzone``
  (a shipped layout), ``crit_op`` (``""``: rolled at a chance node), ``tac_op_a``,
  ``tac_op_b``, ``primary_op_a``, ``primary_op_b`` (``""``: the player selects in secret),
  ``ruleset`` (``"kt24"`` or ``"kt21"``) and ``mission`` (``""``: the ruleset's default).
  The set-up has no seed of its own: every random event is a chance node. Universal
  equipment is always the players' (secret) choice: OpenSpiel's game strings cannot hold
  the commas and brackets of the selections' names.
- ``max_game_length`` (:data:`MAX_GAME_LENGTH`) = 2000 decisions: the longest of 288 random
  battles (every ordered pair of the six built-in teams on both killzones, 4 seeds) took 533
  decisions (mean 393); 2000 is a margin of 3.75. Random play can loop (``Back`` out of a
  choice and in again) without bound, so a battle that reaches 2000 decisions ends there as
  a draw (``returns()`` 0, 0; ``str(state)`` says ``cut at the decision limit``).
- Information: ``information_state_string(player)`` is
  :func:`engine.game.information.information_state` (what the player may see: the opponent's
  hidden selections are not in it; the state is Markov, so it is the player's view of the
  present, not a transcript of the past); ``observation_string`` is the same text and
  ``observation_tensor(player)`` the three arrays of :mod:`engine.envs.observation`
  (``"operatives"`` 32x78, ``"board"`` 25x22x30, ``"globals"`` 224; 19220 float32 in that
  order), from the player's view.
- Kill Team 2021: ``ruleset=kt21`` plays it (its default teams ``kt21_kasrkin`` and
  ``kt21_legionaries`` when ``team_a``/``team_b`` are left empty, its default mission
  Critical Operations 2022); the action indices add the codec's ``kt21_*`` families, the
  observation tensor keeps its shape (:mod:`engine.envs.observation`).
- Serialisation: ``pyspiel.serialize_game_and_state`` / ``deserialize_game_and_state`` work
  (the game string carries the parameters; the state pickles its engine state). OpenSpiel
  deserialises every Python game's state with ``pickle.loads`` of the text: deserialise only
  text your own process wrote. To store or share a state, use :func:`history_text` and
  :func:`state_from_history`: the action indices as plain text, replayed with every index
  checked, so that text from anyone is safe to read.
- Bad input: ``apply_action`` with an index that is out of range or not legal, or after the
  end, raises :class:`~engine.envs.core.EnvError` and changes nothing (pyspiel itself refuses
  a non-integer with ``TypeError``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,unused-ignore]

from engine.envs.codec import (
    ACTION_SPACE_SIZE,
    CHANCE_SPACE_SIZE,
    ActionCodec,
    CodecError,
    chance_outcome,
    chance_probabilities,
)
from engine.envs.core import EnvConfig, EnvError, result_value
from engine.envs.observation import ObservationEncoder
from engine.game.actions import format_action
from engine.game.information import information_state
from engine.game.state import Chance, Decision, GameState, Terminal
from engine.play import DEFAULT_KILLZONE, DEFAULT_RULESET, default_teams

__all__ = [
    "GAME_NAME",
    "HISTORY_HEADER",
    "MAX_GAME_LENGTH",
    "MAX_HISTORY_ACTIONS",
    "PARAMETERS",
    "KillTeamGame",
    "KillTeamState",
    "history_text",
    "state_from_history",
]

GAME_NAME = "kill_team"
"""The registered short name."""

MAX_GAME_LENGTH = 2000
"""Decisions after which a battle ends as a draw (module docstring)."""

PARAMETERS: dict[str, str] = {
    "team_a": "",
    "team_b": "",
    "killzone": DEFAULT_KILLZONE,
    "crit_op": "",
    "tac_op_a": "",
    "tac_op_b": "",
    "primary_op_a": "",
    "primary_op_b": "",
    "ruleset": DEFAULT_RULESET,
    "mission": "",
}
"""The game parameters and their defaults (module docstring)."""

_PLAYERS = ("A", "B")

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Kill Team (KT24 Approved Ops 2025, or KT21 with ruleset=kt21)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(PARAMETERS),
)


def _config(params: dict[str, Any]) -> EnvConfig:
    """The battle of the game parameters ``params``.

    Raises:
        EnvError: a parameter value that is not text or holds ``(``, ``)``, ``,`` or ``=``
            (OpenSpiel's game strings cannot hold them).
    """
    for key in PARAMETERS:
        value = params.get(key, PARAMETERS[key])
        if not isinstance(value, str) or any(c in value for c in "(),="):
            raise EnvError(f"game parameter {key!r} must be text without ( ) , =, got {value!r}")

    def opt(key: str) -> str | None:
        value = str(params.get(key, PARAMETERS[key]))
        return value or None

    defaults = default_teams(opt("ruleset") or DEFAULT_RULESET)
    teams = (opt("team_a") or defaults[0], opt("team_b") or defaults[1])
    return EnvConfig(
        teams=teams,
        killzone=str(params["killzone"]),
        crit_op=opt("crit_op"),
        tac_ops=(opt("tac_op_a"), opt("tac_op_b")),
        primary_ops=(opt("primary_op_a"), opt("primary_op_b")),
        ruleset=opt("ruleset"),
        mission=opt("mission"),
    )


class KillTeamGame(pyspiel.Game):  # type: ignore[misc]
    """The ``"kill_team"`` game (module docstring).

    Raises:
        EnvError: a bad parameter value.
        BattleError: a team, killzone or op that cannot be used (the message names it).
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**PARAMETERS, **(params or {})}
        self.config = _config(merged)
        self.start: GameState = self.config.matchup().new_game()
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_SPACE_SIZE,
            max_chance_outcomes=CHANCE_SPACE_SIZE,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, merged)

    def new_initial_state(self) -> KillTeamState:
        """The battle's first node (a chance node when the crit op is rolled)."""
        return KillTeamState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> KillTeamObserver:
        """The observer of the information state and observation strings and tensors
        (module docstring); ``params`` must be empty."""
        if params:
            raise EnvError(f"the kill_team observer takes no parameters, got {params!r:.80}")
        return KillTeamObserver()


class _Frozen:
    """An immutable engine state held by an OpenSpiel state: copied by reference (a
    ``GameState`` is immutable), pickled by value."""

    __slots__ = ("state",)

    def __init__(self, state: GameState) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Frozen:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Frozen, (self.state,))


class KillTeamState(pyspiel.State):  # type: ignore[misc]
    """A state of the ``"kill_team"`` game (module docstring).

    Attributes:
        game_state: the engine's :class:`~engine.game.state.GameState`.
        decisions: decisions applied so far.
    """

    def __init__(self, game: KillTeamGame) -> None:
        super().__init__(game)
        self._held = _Frozen(game.start)
        self.decisions = 0

    @property
    def game_state(self) -> GameState:
        """The engine state."""
        return self._held.state

    @property
    def cut(self) -> bool:
        """Whether the battle was ended at :data:`MAX_GAME_LENGTH` decisions (a draw)."""
        return self.decisions >= MAX_GAME_LENGTH and not self.game_state.is_terminal

    def current_player(self) -> int:
        """0 (A) or 1 (B) at a decision, ``PlayerId.CHANCE`` at dice, ``PlayerId.TERMINAL``
        at the end."""
        node = self.game_state.node
        if isinstance(node, Terminal) or self.cut:
            return int(pyspiel.PlayerId.TERMINAL)
        if isinstance(node, Chance):
            return int(pyspiel.PlayerId.CHANCE)
        assert isinstance(node, Decision)
        return _PLAYERS.index(node.player)

    def _legal_actions(self, player: int) -> list[int]:
        """The codec indices of ``player``'s legal actions, ascending (empty when another
        player decides)."""
        if self.is_terminal() or player != self.current_player():
            return []
        codec = ActionCodec.for_state(self.game_state)
        return [int(i) for i in codec.legal_indices(self.game_state)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome index, probability)`` of the dice roll, exactly weight / 6**dice."""
        return chance_probabilities(self.game_state)

    def _apply_action(self, action: int) -> None:
        """Apply a decision or a chance outcome by index.

        Raises:
            EnvError: the battle is over, or ``action`` is not a legal index here (the
                message names it and the node); nothing changes.
        """
        s = self.game_state
        if self.is_terminal():
            raise EnvError(f"the battle is over: action {action} cannot be applied")
        try:
            if isinstance(s.node, Chance):
                chosen = chance_outcome(s, action)
            else:
                chosen = ActionCodec.for_state(s).decode(s, action)
        except CodecError as exc:
            raise EnvError(str(exc)) from None
        after, _ = s.apply(chosen)
        self._held = _Frozen(after)
        if isinstance(s.node, Decision):
            self.decisions += 1

    def _action_to_string(self, player: int, action: int) -> str:
        """The notation of ``action`` at this state (``"roll 6,4"``, ``"Dash KAS-1 to
        8,4"``), or the codec's description of an index not legal here."""
        s = self.game_state
        try:
            if isinstance(s.node, Chance):
                return format_action(chance_outcome(s, action))
            if isinstance(s.node, Decision):
                return format_action(ActionCodec.for_state(s).decode(s, action))
        except CodecError:
            pass
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"chance outcome {action}"
        return ActionCodec.for_state(s).describe(action)

    def is_terminal(self) -> bool:
        """The battle is over, or cut at :data:`MAX_GAME_LENGTH` decisions."""
        return self.game_state.is_terminal or self.cut

    def returns(self) -> list[float]:
        """``[A, B]``: +1/-1 for the winner and the loser, 0/0 for a draw, a battle cut at
        the decision limit or not over."""
        return [result_value(self.game_state, p) for p in _PLAYERS]

    def __str__(self) -> str:
        """The turning point, phase, VP, node and state hash (equal for equal states)."""
        s = self.game_state
        cut = "; cut at the decision limit (a draw)" if self.cut else ""
        return (
            f"TP{s.tp} {s.phase} VP {s.players[0].vp}-{s.players[1].vp} step {s.step} "
            f"{s.node!r} hash {s.hash()}{cut}"
        )


class KillTeamObserver:
    """The observer of :class:`KillTeamGame` (OpenSpiel's python observer protocol):
    ``tensor`` (19220 float32) with the named views ``dict`` (``"operatives"``, ``"board"``,
    ``"globals"``), filled by ``set_from(state, player)``; ``string_from`` gives the
    information state string."""

    def __init__(self) -> None:
        shapes = ObservationEncoder.shapes
        size = sum(int(np.prod(shape)) for shape in shapes.values())
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        at = 0
        for name, shape in shapes.items():
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + n].reshape(shape)
            at += n

    def set_from(self, state: KillTeamState, player: int) -> None:
        """Fill ``tensor`` with ``state`` from ``player``'s view (0: A, 1: B)."""
        arrays = ObservationEncoder.for_state(state.game_state).encode(
            state.game_state, _PLAYERS[player]
        )
        for name, view in self.dict.items():
            view[...] = arrays[name]

    def string_from(self, state: KillTeamState, player: int) -> str:
        """``player``'s information state string
        (:func:`engine.game.information.information_state`)."""
        return information_state(state.game_state, _PLAYERS[player])


pyspiel.register_game(_GAME_TYPE, KillTeamGame)


HISTORY_HEADER = "kill_team history 1"
"""The first line of :func:`history_text`."""

MAX_HISTORY_ACTIONS = 50_000
"""The most action indices :func:`state_from_history` reads (decisions and chance outcomes:
random battles take about 900 in all; a battle is cut at :data:`MAX_GAME_LENGTH`
decisions)."""


def history_text(state: KillTeamState) -> str:
    """A state as plain text: :data:`HISTORY_HEADER`, then the action indices applied since
    the start (decisions and chance outcomes, ``state.history()``) separated by commas. The
    game's parameters are not in it (``str(game)`` gives them).

    Read it back with :func:`state_from_history` (never with pickle)."""
    return HISTORY_HEADER + "\n" + ",".join(str(int(a)) for a in state.history())


def state_from_history(game: KillTeamGame, text: str) -> KillTeamState:
    """The state of ``game`` that :func:`history_text` wrote: a new battle with each index
    applied in turn and checked as it is applied (a legal decision or a possible dice
    outcome). The text is data: nothing in it is executed, and at most
    :data:`MAX_HISTORY_ACTIONS` indices are read.

    Raises:
        EnvError: ``text`` is not a history (its header, a field that is not a decimal
            integer, too many indices), or an index is not legal where it is applied
            (named with its position), or the battle ended before the last index.
    """
    if not isinstance(text, str):
        raise EnvError(f"a history is text, not {type(text).__name__}")
    head, _, body = text.partition("\n")
    if head.strip() != HISTORY_HEADER:
        raise EnvError(f"not a kill_team history: its first line must be {HISTORY_HEADER!r}")
    body = body.strip()
    fields = body.split(",") if body else []
    if len(fields) > MAX_HISTORY_ACTIONS:
        raise EnvError(
            f"the history has {len(fields)} indices; at most {MAX_HISTORY_ACTIONS} are read"
        )
    state = game.new_initial_state()
    for k, field in enumerate(fields, 1):
        word = field.strip()
        if not (word.isascii() and word.isdigit()) or len(word) > 9:
            raise EnvError(f"history index {k}: {word[:20]!r} is not a decimal action index")
        if state.is_terminal():
            raise EnvError(f"history index {k}: the battle is already over")
        try:
            state.apply_action(int(word))
        except EnvError as exc:
            raise EnvError(f"history index {k}: {exc}") from None
    return state
