"""What one player may see of a battle (``rules/KT24.md`` 8.1, 8.4, 7.2: the secret
selections of the pack): an :class:`Observation` of a state from one player's view.

Agents that play fairly read the observation, not the state. Hidden from the viewer:

- the opponent's tac op until it is revealed, and its primary op until the end of the
  battle (shown as ``"?"`` once selected, ``""`` before);
- the op facts the opponent keeps secret (keys starting ``"secret:<opponent>:"``, e.g. a
  number picked for the crit op Reboot before both picks are revealed);
- the opponent's fields of :class:`~engine.game.state.PlayerState` that a frame in progress
  keeps secret (a frame with a class attribute ``HIDES_OPPONENT``, a tuple of field names:
  the universal equipment selection until both selections are revealed, 7.2);
- the procedures in progress (the frame stack), which may hold such secrets.

Everything else is public: operatives and their orders, wounds and positions, markers,
tokens, effects, CP and VP, initiative cards, the crit op.

The state's own legal actions never depend on the opponent's secrets: a secret selection
only lists the selecting player's own options, and an op's actions are offered only to the
player who selected it.

**Agents.** :func:`engine.game.drivers.play` hands each agent the :class:`Observation` of its
player (unless the agent asks for the full state, ``sees_full_state = True``). An observation
carries what an agent needs to act: :attr:`Observation.legal_actions`, and for look-ahead a
:class:`~engine.game.state.GameState` holding no secret of the opponent:
:meth:`Observation.redacted` (each hidden selection of the opponent replaced by a fixed
placeholder, :func:`engine.game.secrets.redact`) or :meth:`Observation.determinised` (each
redrawn at random among those consistent with what the viewer has seen,
:func:`engine.game.secrets.resample`). Their legal actions are the real state's, so an action
chosen on them is legal in the real state. Which decisions are secret is declared once,
:data:`engine.game.vocabulary.SECRET_DECISIONS`; a player's information state is
:func:`engine.game.information.information_state`.
"""

from __future__ import annotations

import attrs
import numpy as np

from engine.game.actions import Action
from engine.game.secrets import redact, resample
from engine.game.state import Decision, GameState, MissionState, Node, PlayerState, other

__all__ = ["HIDDEN", "Observation", "observe"]

HIDDEN = "?"
"""What a selected but hidden op shows as."""


@attrs.frozen(slots=True)
class Observation:
    """A state as player :attr:`player` sees it (module docstring).

    Attributes:
        player: the viewer (``"A"``/``"B"``).
        tp, phase, initiative, operatives, markers, effects, open_hatchways, tokens, step,
            node: as on :class:`~engine.game.state.GameState`.
        players: :class:`~engine.game.state.PlayerState` of A and B, the opponent's hidden
            fields reset to their defaults.
        mission: the :class:`~engine.game.state.MissionState` with the opponent's secrets
            hidden (:data:`HIDDEN`).
        legal_actions: the viewer's legal actions when the node is the viewer's decision,
            else empty (a move action of an activation as its header, ``Reposition KAS-1``:
            its destinations are those of the ``destination`` decision choosing it opens; a
            Shoot as ``Shoot KAS-1``, its weapons and targets those of the ``attack_target``
            decision).
        hidden: what is hidden, in words (``"B's tac op"``).

    Equality compares the attributes above only: two states the viewer cannot tell apart
    give equal observations.
    """

    player: str
    tp: int
    phase: str
    initiative: str
    players: tuple[PlayerState, PlayerState]
    operatives: tuple[object, ...]
    markers: tuple[object, ...]
    effects: tuple[object, ...]
    open_hatchways: tuple[str, ...]
    tokens: tuple[object, ...]
    mission: MissionState
    node: Node
    step: int
    legal_actions: tuple[Action, ...]
    hidden: tuple[str, ...]
    _view: GameState = attrs.field(eq=False, repr=False, alias="view")

    def redacted(self) -> GameState:
        """The observed state with each secret selection of the opponent still hidden
        replaced by a fixed placeholder (:func:`engine.game.secrets.redact`): a full
        :class:`~engine.game.state.GameState` for look-ahead that holds no secret of the
        opponent. Deterministic; its legal actions are the real state's."""
        return self._view

    def determinised(self, rng: np.random.Generator | int) -> GameState:
        """A state the viewer cannot tell from the observed one, each secret selection of the
        opponent still hidden drawn uniformly among those consistent with what the viewer has
        seen (:func:`engine.game.secrets.resample`; ``rng`` a numpy ``Generator`` or an int
        seed). Its legal actions are the real state's."""
        return resample(self._view, self.player, rng)


def _hidden_fields(state: GameState) -> tuple[str, ...]:
    fields: list[str] = []
    for frame in state.stack:
        for name in getattr(type(frame), "HIDES_OPPONENT", ()):
            if name not in fields:
                fields.append(name)
    return tuple(fields)


def observe(state: GameState, player: str) -> Observation:
    """``state`` from ``player``'s view (module docstring).

    Args:
        state: any state of a battle.
        player: ``"A"`` or ``"B"``.

    Raises:
        ValueError: a player other than A and B.
    """
    if player not in ("A", "B"):
        raise ValueError(f"observe: player must be 'A' or 'B', not {player!r}")
    opp = other(player)
    k = 0 if opp == "A" else 1
    hidden: list[str] = []
    players = list(state.players)
    defaults = PlayerState()
    for name in _hidden_fields(state):
        if getattr(players[k], name) != getattr(defaults, name):
            players[k] = attrs.evolve(players[k], **{name: getattr(defaults, name)})
        hidden.append(f"{opp}'s {name.replace('_', ' ')}")
    m = state.mission
    over = state.phase == "over"
    tac = list(m.tac_ops)
    if tac[k] and not m.tac_revealed[k] and not over:
        tac[k] = HIDDEN
        hidden.append(f"{opp}'s tac op")
    primary = list(m.primary_ops)
    if primary[k] and not over:
        primary[k] = HIDDEN
        hidden.append(f"{opp}'s primary op")
    prefix = f"secret:{opp}:"
    facts = tuple((key, v) for key, v in m.facts if not key.startswith(prefix))
    if len(facts) != len(m.facts):
        hidden.append(f"{opp}'s secret picks")
    mission = attrs.evolve(
        m, tac_ops=(tac[0], tac[1]), primary_ops=(primary[0], primary[1]), facts=facts
    )
    node = state.node
    mine = isinstance(node, Decision) and node.player == player
    return Observation(
        player=player,
        tp=state.tp,
        phase=state.phase,
        initiative=state.initiative,
        players=(players[0], players[1]),
        operatives=state.operatives,
        markers=state.markers,
        effects=state.effects,
        open_hatchways=state.open_hatchways,
        tokens=state.tokens,
        mission=mission,
        node=node,
        step=state.step,
        legal_actions=tuple(state.legal_actions()) if mine else (),
        hidden=tuple(hidden),
        view=redact(state, player),
    )
