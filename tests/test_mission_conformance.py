"""Random-playout conformance of the mission (``rules/KT24.md`` 8; issue 15): for each of the
nine crit ops (:data:`engine.missions.pack.CRIT_ORDER`), :data:`GAMES_PER_OP` seeded games
between random agents of the Approved Ops 2025 pack, alternating the two killzone layouts
and rotating over the built-in teams, with the tac ops and primary ops picked at random by
the agents (as are the picks some crit ops add).

At every node it checks the node-level invariants of ``tests/test_game_conformance.py``
(legal actions listed, canonical and round-tripping through the notation; chance weights;
an illegal input raises and changes nothing; applying an input twice gives the same state
and events; no negative or overflowing resources; weapons from the operative's loadout or
its grenades) and the mission's:

- no player scores more than 6VP from the kill op, the crit op or its tac op (8.1), and at
  most 3VP from the primary op (half of 6, rounded up);
- a player's VP equal the sum of its VP by op (``state.mission.vp``);
- every ``vp_scored`` event names its op: kill, crit, tac or primary;
- a player's legal actions do not depend on the opponent's secrets (its tac op before it
  is revealed, its primary op, its secret facts): they are the same with those removed
  (at one step in :data:`SECRETS_EVERY`, on the games with every check);

and per game: the battle ends after turning point 4 with a result consistent with the VP,
and its record replays to the same final hash. A crit op that is not registered yet is
skipped, naming it.

The random agents pick uniformly among the legal actions, except that a mission action
(``Act`` naming an objective marker) or an op pick (``Op``) is taken, when listed, with
probability :data:`MISSION_BIAS`, and otherwise, with probability :data:`MARKER_BIAS`, the
listed action with a point nearest to an objective marker drawn at random (a move towards
it, a set-up spot): uniform play seldom controls a marker in the right turning point, so the ops'
actions and scoring would hardly be exercised.

Cost: every fifth game (:data:`FULL_EVERY`) has every check (about 0.7s of processor time
a game), the others the mission's checks (about 0.4s).
"""

from __future__ import annotations

import attrs
import pytest

from engine.agents import RandomAgent
from engine.game import GameOptions, IllegalActionError, parse_action
from engine.game.actions import Action, format_action
from engine.game.drivers import SeededDice
from engine.game.flow import _sort_key
from engine.game.record import GameRecorder, make_header, replay
from engine.game.state import Chance, Decision, GameState
from engine.missions.pack import CRIT_ORDER, find_op
from engine.missions.scoring import CRIT, OP_CAP, OP_KINDS, PRIMARY
from engine.rulesets import KT24
from tests.test_game_conformance import (
    _PAIRS,
    _ROUND_TRIPPED,
    _TEAMS,
    _WEAPON_EVENTS,
    LAYOUTS,
    _bogus,
    _check_resources,
    _loadout_weapons,
    _start,
    _weapon_allowed,
)

GAMES_PER_OP = 100
BATCH = 20
FULL_EVERY = 5
"""Every check on one game in this many (module docstring)."""
SECRETS_EVERY = 5
"""A full game checks the secrets' independence at the nodes of every this many steps."""
MISSION_BIAS = 0.5
"""Probability that a random agent takes a listed mission action or op pick."""
MARKER_BIAS = 0.25
"""Probability that it otherwise takes the listed action with a point nearest a marker."""


class MissionRandomAgent(RandomAgent):
    """A :class:`RandomAgent` drawn to the mission: a listed mission action (``Act`` on an
    objective marker) or op pick (``Op``) with probability :data:`MISSION_BIAS`, else the
    action with a point nearest a random objective marker with probability
    :data:`MARKER_BIAS`
    (module docstring)."""

    name = "random-mission"
    sees_full_state = True  # it reads the state's markers

    def __init__(self, seed: int, markers: tuple[str, ...]) -> None:
        super().__init__(seed)
        self.markers = markers

    def _mission(self, a: Action) -> bool:
        if a.verb == "Op":
            return True
        return a.verb == "Act" and a.text.rsplit(" ", 1)[-1] in self.markers

    def act(self, state: GameState) -> Action:
        legal = state.legal_actions()
        mission = [a for a in legal if self._mission(a)]
        if mission and self.rng.random() < MISSION_BIAS:
            return mission[int(self.rng.integers(len(mission)))]
        placed = [a for a in legal if a.point is not None]
        if placed and self.rng.random() < MARKER_BIAS:
            m = state.markers[int(self.rng.integers(len(state.markers)))]
            return min(placed, key=lambda a: _dist2(a, m.x, m.y))
        return legal[int(self.rng.integers(len(legal)))]  # type: ignore[no-any-return]


def _dist2(a: Action, x: float, y: float) -> float:
    assert a.point is not None
    return (a.point[0] - x) ** 2 + (a.point[1] - y) ** 2


def _check_mission(state: GameState) -> None:
    """The mission's invariants at one node (module docstring)."""
    m = state.mission
    for name, a, b in m.vp:
        assert name in OP_KINDS, name
        cap = (OP_CAP + 1) // 2 if name == PRIMARY else OP_CAP
        assert 0 <= a <= cap and 0 <= b <= cap, (name, a, b)
    for k, p in enumerate(state.players):
        assert p.vp == sum(row[1 + k] for row in m.vp), (p.vp, m.vp)


def _without_secrets(state: GameState, player: str) -> GameState:
    """``state`` with ``player``'s secrets removed: its tac op if not revealed, its primary
    op and its secret facts."""
    m = state.mission
    k = 0 if player == "A" else 1
    tac, primary = list(m.tac_ops), list(m.primary_ops)
    if not m.tac_revealed[k]:
        tac[k] = ""
    primary[k] = ""
    prefix = f"secret:{player}:"
    facts = tuple((key, v) for key, v in m.facts if not key.startswith(prefix))
    mission = attrs.evolve(
        m, tac_ops=(tac[0], tac[1]), primary_ops=(primary[0], primary[1]), facts=facts
    )
    return attrs.evolve(state, mission=mission)


def _check_secrets(state: GameState, legal: list[Action]) -> None:
    """The deciding player's legal actions do not depend on the opponent's secrets."""
    assert isinstance(state.node, Decision)
    opp = "B" if state.node.player == "A" else "A"
    bare = _without_secrets(state, opp)
    if bare.mission != state.mission:
        assert list(bare.legal_actions()) == legal, (state.node, state.mission)


def _play_mission(crit: str, seed: int, *, full: bool = True) -> dict[str, int]:
    """Play the game of ``seed`` with crit op ``crit`` and the checks of the module
    docstring; without ``full``, only the mission's invariants, the resources, the weapons
    and the result (not the illegal input, the second application, the notation round trip,
    the chosen action's membership, the secrets nor the replay). Returns the VP scored by op (both
    players) and the mission actions performed (``"actions"``)."""
    layout = LAYOUTS[seed % 2]
    a, b = _PAIRS[seed % len(_PAIRS)]
    rosters = (_TEAMS[a], _TEAMS[b])
    state = _start(layout, a, b, GameOptions(crit_op=crit))
    allowed = _loadout_weapons({"A": rosters[0], "B": rosters[1]})
    markers = tuple(m.name.lower() for m in state.markers)
    rec = GameRecorder(make_header(state, seed=seed, agents={"A": "random", "B": "random"}))
    record = rec if full else None
    agents = {
        "A": MissionRandomAgent(2 * seed + 1, markers),
        "B": MissionRandomAgent(2 * seed + 2, markers),
    }
    dice = SeededDice(seed)
    tally = dict.fromkeys((*OP_KINDS, "actions"), 0)
    while not state.is_terminal:
        _check_resources(state)
        _check_mission(state)
        node = state.node
        if full:
            before = state.hash()
            with pytest.raises(IllegalActionError):
                state.apply(_bogus(state))
            assert state.hash() == before
        if isinstance(node, Chance):
            outcomes = state.chance_outcomes()
            assert sum(w for _, w in outcomes) == 6**node.request.dice
            action, actor = dice.roll(state), "chance"
        else:
            assert isinstance(node, Decision)
            legal = list(state.legal_actions())
            assert legal, f"no legal action at {node} ({crit}, seed {seed}, step {state.step})"
            if full:
                assert legal == sorted(set(legal), key=_sort_key), f"not canonical at {node}"
                if state.step % SECRETS_EVERY == 0:
                    _check_secrets(state, legal)
                for act in legal:
                    if act not in _ROUND_TRIPPED:  # once per action, over all games
                        assert parse_action(format_action(act)) == act, format_action(act)
                        _ROUND_TRIPPED.add(act)
            action, actor = agents[node.player].act(state), node.player
            if full:
                assert action in state.legal_actions()
        after, events = state.apply(action)
        if full:
            again, events2 = state.apply(action)
            assert again.hash() == after.hash() and events2 == events
            assert state.hash() == before
        for e in events:
            if e.kind == "vp_scored":
                assert e["op"] in OP_KINDS, e
                tally[e["op"]] += e["vp"]
            elif e.kind == "mission_action":
                tally["actions"] += 1
            elif e.kind in _WEAPON_EVENTS:
                # Its loadout's weapons, a grenade, or a weapon a rule gives it (team
                # equipment such as combat daggers: test_game_conformance._given).
                assert _weapon_allowed(e["weapon"], e["op"], state, after, allowed), (
                    e["op"],
                    e["weapon"],
                    seed,
                )
        if record is not None:
            record.on_step(state, action, actor, after, events)
        state = after
    if record is not None:
        record.finish(state)
    _check_resources(state)
    _check_mission(state)
    assert state.tp == 5 and state.phase == "over"
    assert state.mission.crit_op == crit
    result = state.node.result  # type: ignore[union-attr]
    vp = result.vp
    assert result.winner == ("" if vp[0] == vp[1] else ("A" if vp[0] > vp[1] else "B"))
    assert all(0 <= v <= 3 * OP_CAP + (OP_CAP + 1) // 2 for v in vp)  # 21VP at most (8.1)
    if full:
        assert replay(rec.lines, ruleset=KT24).hash() == state.hash()
    return tally


@pytest.mark.parametrize("batch", range(GAMES_PER_OP // BATCH))
@pytest.mark.parametrize("crit", CRIT_ORDER)
def test_mission_random_playouts_conform(crit: str, batch: int) -> None:
    spec = find_op(crit, CRIT)
    if spec is None:
        pytest.skip(f"crit op {crit} is not registered yet")
    k = CRIT_ORDER.index(crit)
    tally = dict.fromkeys((*OP_KINDS, "actions"), 0)
    for g in range(batch * BATCH, (batch + 1) * BATCH):
        full = g % FULL_EVERY == 0
        for key, n in _play_mission(spec.name, 1000 * k + g, full=full).items():
            tally[key] += n
    # The batch exercised the crit op: it scored.
    assert tally[CRIT] > 0, (crit, tally)
