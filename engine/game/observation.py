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
"""

from __future__ import annotations

import attrs

from engine.game.actions import Action
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
    )
