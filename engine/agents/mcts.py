"""An information-set Monte Carlo tree search agent (:class:`MCTSAgent`).

The search, in short (``docs/AI.md`` has the long version):

- **Information sets.** Each decision draws :data:`DETERMINISATIONS` *determinisations* of
  the root once: the opponent's secret selections (tac op, primary op...) drawn consistently
  with what the deciding player saw (:func:`_determinise`; equal draws are one, and when
  nothing is hidden there is one). Iteration ``i`` searches draw ``i`` modulo their number.
  The tree is keyed by actions, not states, so every determinisation shares the same
  statistics (single-observer ISMCTS).
- **States kept along the tree.** Each tree node keeps the state it stands for in each
  determinisation that reached it (and a chance node its outcomes, a leaf its value), so an
  iteration applies only the actions on its path that no earlier iteration of its
  determinisation applied: the engine's own memos (legal actions...) live on with the
  states. A candidate of another determinisation illegal in this one (an action of the
  opponent's op, whose op differs) is replaced by the heuristic's choice.
- **Horizon.** An iteration ends at the end of the root's turning point (the first state of
  the next one, scored: the turning point's VP are in it) or of the battle, so no iteration
  spends its time in the next Strategy phase.
- **Chance nodes.** An outcome is drawn by its exact weight
  (:meth:`~engine.game.state.GameState.chance_outcomes`, weights summing to 6^dice), with
  *progressive widening*: a chance node visited ``n`` times has at most ``ceil(sqrt(n + 1))``
  outcome children; once full, the outcome is drawn among those children by their weights
  (so the dice's distribution is kept, and deeper nodes see enough visits to be searched).
- **Which decisions branch.** The decisions that shape the battle branch in the tree:
  :data:`SEARCHED_KINDS` (activations, actions, counteractions, On Guard interrupts, free
  actions). Their candidates are the heuristic's best ones
  (:class:`~engine.agents.heuristic.HeuristicAgent`): for an action, its
  :data:`TOP_CANDIDATES` best scored complete actions
  (:meth:`~engine.agents.heuristic.HeuristicAgent.rank`; a move is one complete action,
  ``Reposition KAS-1 to 8,4``), with a PUCT prior
  from a softmax of its scores (temperature :data:`PRIOR_TEMPERATURE`, in operatives; a
  share :data:`PRIOR_FLOOR` of the prior is spread evenly, so every candidate is tried); for
  an activation or a counteraction, every listed option, the heuristic's choice with half the
  prior. The other decisions (re-rolls, dice ploys, cover saves, set-up, the Strategy phase)
  follow the heuristic inside the tree (one child), and at the root the agent answers them as
  the heuristic does: the search adds nothing there that the exact dice core does not.
- **Selection.** PUCT: ``Q + C_PUCT * P * sqrt(N + 1) / (1 + n)``, ``Q`` the mean value for
  the player to move (the value is the root player's; the opponent minimises it), an
  unvisited child valued at its parent's mean.
- **Leaves.** A searched decision node other than the root is a leaf until it has been
  visited :data:`EXPAND_VISITS` times; a leaf (and the horizon) is valued by
  :func:`evaluate` with the mission in view: the VP difference, plus the VP each side would
  score if the turning point ended now (marker control, the kill op's grades, tac ops:
  :meth:`~engine.agents.mission_choices.MissionSense.end_score`, the scoring of
  ``rules/KT24.md`` 8), plus material (operatives in action and their wounds left).
- **Choice.** The root child with most visits (ties: the better mean, then the heuristic's
  order). :meth:`MCTSAgent.explain` lists the root's alternatives.

Budget and determinism: with ``iterations`` the agent is deterministic (the same choices
every run for a seed: each decision's generator is seeded from the agent's seed and the
state's step); with ``budget_seconds`` (the practical mode) the number of iterations depends
on the machine's speed, so its choices are not bit-reproducible. A decision with one legal
action costs nothing.
"""

from __future__ import annotations

import math
import random
import time
from typing import Final

from engine.advice import DAMAGE_WEIGHT, VP_VALUE
from engine.agents.explain import Alternative
from engine.agents.heuristic import HeuristicAgent
from engine.agents.mission_choices import MissionSense
from engine.game.actions import Action, IllegalActionError
from engine.game.information import resample
from engine.game.observation import Observation
from engine.game.state import Chance, Decision, GameState, Terminal, other

__all__ = [
    "C_PUCT",
    "DEFAULT_SECONDS",
    "DETERMINISATIONS",
    "EXPAND_VISITS",
    "PRIOR_FLOOR",
    "PRIOR_TEMPERATURE",
    "SEARCHED_KINDS",
    "TOP_CANDIDATES",
    "WIN_VALUE",
    "MCTSAgent",
    "evaluate",
    "parse_mcts_spec",
]

#: Decision kinds that branch in the tree (the others follow the heuristic).
SEARCHED_KINDS: Final = frozenset(
    {"activate", "action", "counteract", "interrupt", "guard", "free_action"}
)
#: Decision kinds whose candidates are the heuristic's scored actions (the rest: every option).
_RANKED_KINDS: Final = frozenset({"action", "interrupt", "free_action"})
#: How many of the heuristic's best scored actions are candidates at an action decision.
TOP_CANDIDATES: Final = 6
#: Softmax temperature of the PUCT prior over the heuristic's scores, in operatives.
PRIOR_TEMPERATURE: Final = 0.25
#: The share of the prior spread evenly over the candidates (so each is tried).
PRIOR_FLOOR: Final = 0.25
#: PUCT exploration constant (values are in operatives).
C_PUCT: Final = 1.0
#: Visits before a searched decision node (not the root) gets children.
EXPAND_VISITS: Final = 3
#: The value of winning the battle, in operatives, on top of the VP difference.
WIN_VALUE: Final = 3.0
#: The weight of the VP the position would score at the end of the turning point.
END_WEIGHT: Final = 1.0
#: How many determinisations of the root one decision searches (drawn once per decision;
#: equal draws share their cached states).
DETERMINISATIONS: Final = 8
#: The time budget of ``mcts`` with no budget given, in seconds per decision.
DEFAULT_SECONDS: Final = 1.0


def _determinise(state: GameState, player: str, rng: random.Random) -> GameState:
    """A determinisation of ``state`` for ``player``: the opponent's secrets still hidden
    from ``player`` redrawn uniformly among those consistent with what ``player`` saw
    (:func:`engine.game.information.resample`, seeded from ``rng``; the state itself when
    nothing is hidden)."""
    return resample(state, player, rng.getrandbits(64))


def evaluate(state: GameState, me: str) -> float:
    """The value of ``state`` for player ``me``, in operatives (module docstring).

    ``VP_VALUE * (my VP - their VP)`` plus ``END_WEIGHT * VP_VALUE`` times the difference of
    the VP each would score if the turning point ended now (``rules/KT24.md`` 8: markers
    controlled, kill grades, tac ops; only during turning points 1 to 4), plus material: each
    operative in action counts 1 plus ``DAMAGE_WEIGHT`` times its share of its starting
    wounds left (so incapacitating a whole enemy is worth ``1 + DAMAGE_WEIGHT``, as for the
    heuristic). At the end of the battle: the VP difference plus :data:`WIN_VALUE` for the
    winner (minus for the loser), material counted as above.

    Raises:
        ValueError: ``me`` is not ``"A"`` or ``"B"``.
    """
    if me not in ("A", "B"):
        raise ValueError(f"evaluate: player must be 'A' or 'B', not {me!r}")
    them = other(me)
    k = 0 if me == "A" else 1
    vp = state.players[k].vp - state.players[1 - k].vp
    value = VP_VALUE * vp
    node = state.node
    if isinstance(node, Terminal):
        winner = node.result.winner
        if winner:
            value += WIN_VALUE if winner == me else -WIN_VALUE
    elif 1 <= state.tp <= 4 and state.phase in ("strategy", "firefight"):
        ends = MissionSense(state, me).end_score() - MissionSense(state, them).end_score()
        value += END_WEIGHT * VP_VALUE * ends
    cards = state.ctx.datacards
    for o in state.operatives:
        if o.incapacitated or o.wounds <= 0:
            continue
        worth = 1.0 + DAMAGE_WEIGHT * o.wounds / max(1, cards[o.id].wounds)
        value += worth if o.player == me else -worth
    return value


MAX_SECONDS = 600.0
"""The largest time budget a spec may ask for, in seconds per decision."""

MAX_ITERATIONS = 1_000_000
"""The largest iteration budget a spec may ask for, per decision."""


def parse_mcts_spec(spec: str) -> tuple[float | None, int | None]:
    """The budget of an agent spec ``mcts``, ``mcts:1s``, ``mcts:0.25s`` (seconds per
    decision) or ``mcts:400`` (iterations per decision), as ``(seconds, iterations)``.

    Raises:
        ValueError: not such a spec, or a budget that is not a positive number, or above
            :data:`MAX_SECONDS` or :data:`MAX_ITERATIONS` (the message shows the accepted
            forms).
    """
    key = spec.strip().lower()
    forms = "mcts, mcts:<seconds>s (e.g. mcts:0.25s) or mcts:<iterations> (e.g. mcts:400)"
    if key == "mcts":
        return DEFAULT_SECONDS, None
    head, sep, budget = key.partition(":")
    if head != "mcts" or not sep:
        raise ValueError(f"not an MCTS agent spec: {spec!r} (use {forms})")
    try:
        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS):
                raise ValueError
            return seconds, None
        iterations = int(budget)
        if not 1 <= iterations <= MAX_ITERATIONS:
            raise ValueError
        return None, iterations
    except ValueError:
        raise ValueError(
            f"agent {spec!r}: the MCTS budget {budget!r} is not a number of seconds up to "
            f"{MAX_SECONDS:g} or of iterations up to {MAX_ITERATIONS:,} (use {forms})"
        ) from None


class _Node:
    """A tree node, reached by a sequence of actions from the root (not a state); it keeps
    the state it stands for in each determinisation that reached it (``states``), so an
    iteration replays no action it has applied before."""

    __slots__ = (
        "cands",
        "children",
        "outcomes",
        "policy",
        "priors",
        "states",
        "total",
        "values",
        "visits",
    )

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0  # sum of the root player's values backed up through it
        self.children: dict[Action, _Node] = {}
        self.cands: list[Action] | None = None  # a searched decision's candidates
        self.priors: list[float] = []
        self.policy: Action | None = None  # a followed decision's heuristic choice
        self.states: dict[int, GameState] = {}  # determinisation -> the state here
        self.values: dict[int, float] = {}  # determinisation -> the leaf value here
        self.outcomes: dict[int, list[tuple[Action, int]]] = {}  # a chance node's outcomes


class MCTSAgent:
    """Information-set MCTS over the heuristic's candidates (module docstring).

    Args:
        seed: seeds each decision's generator (with the state's step).
        budget_seconds: seconds per decision (wall clock; not bit-reproducible).
        iterations: iterations per decision (deterministic for a seed). With neither, the
            budget is :data:`DEFAULT_SECONDS`; with both, whichever ends first.

    Raises:
        ValueError: a budget that is not positive.

    Attributes:
        decisions, iterations_run, seconds_spent: totals over the searched decisions.
    """

    name = "mcts"

    def __init__(
        self, seed: int = 0, budget_seconds: float | None = None, iterations: int | None = None
    ) -> None:
        if budget_seconds is not None and not (
            budget_seconds > 0 and math.isfinite(budget_seconds)
        ):
            raise ValueError(f"budget_seconds must be a positive number, not {budget_seconds!r}")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations!r}")
        if budget_seconds is None and iterations is None:
            budget_seconds = DEFAULT_SECONDS
        self.seed = seed
        self.budget_seconds = budget_seconds
        self.iterations = iterations
        self._heuristic = HeuristicAgent(seed)
        self._root: _Node | None = None
        self._root_player = "A"
        self.decisions = 0
        self.iterations_run = 0
        self.seconds_spent = 0.0

    # -- the decision ----------------------------------------------------------------------

    def act(self, state: GameState | Observation) -> Action:
        """The chosen action at a decision node (module docstring).

        Args:
            state: the deciding player's :class:`~engine.game.observation.Observation` (what
                :func:`~engine.game.drivers.play` gives it), searched from its redacted
                state (no secret of the opponent: every iteration redraws them), or a
                :class:`GameState` from a caller that holds one.

        Raises:
            ValueError: when the state is not a decision node or has no legal action.
        """
        if isinstance(state, Observation):
            state = state.redacted()
        node = state.node
        if not isinstance(node, Decision):
            raise ValueError(f"not a decision node: {node!r}")
        self._root = None
        legal = state.legal_actions()
        if len(legal) == 0:
            raise ValueError(f"no legal action at {node!r}")
        if len(legal) == 1 and node.kind not in _RANKED_KINDS:
            return legal[0]  # type: ignore[no-any-return]
        if node.kind not in SEARCHED_KINDS:
            return self._heuristic.act(state)
        t0 = time.perf_counter()
        me = node.player
        root = _Node()
        self._expand(root, state, node.kind)
        assert root.cands is not None
        if len(root.cands) == 1:
            return root.cands[0]
        self._root, self._root_player = root, me
        rng = random.Random(self.seed * 1_000_003 + state.step)
        schedule = _determinisations(root, state, me, rng)
        n = 0
        while True:
            if self.iterations is not None and n >= self.iterations:
                break
            spent = time.perf_counter() - t0
            if self.budget_seconds is not None and n > 0 and spent >= self.budget_seconds:
                break
            self._iterate(root, schedule[n % len(schedule)], me, rng)
            n += 1
        self.decisions += 1
        self.iterations_run += n
        self.seconds_spent += time.perf_counter() - t0
        return self._best(root)

    def explain(self) -> list[Alternative]:
        """The root's alternatives at the last searched decision, most visited first:
        ``Alternative(action, score, note)`` with ``score`` the mean value for the deciding
        player (operatives, :func:`evaluate`) and ``note`` ``"<visits> visits, prior <p>"``.
        Empty when the last decision was not searched (one legal action, or a decision the
        heuristic answers)."""
        root = self._root
        if root is None or root.cands is None:
            return []
        out: list[tuple[int, float, int, Alternative]] = []
        for i, (a, p) in enumerate(zip(root.cands, root.priors, strict=True)):
            c = root.children.get(a)
            visits = c.visits if c is not None else 0
            mean = c.total / c.visits if c is not None and c.visits else 0.0
            alt = Alternative(a, round(mean, 4), f"{visits} visits, prior {p:.2f}")
            out.append((-visits, -mean, i, alt))
        out.sort(key=lambda t: t[:3])
        return [t[3] for t in out]

    # -- the tree --------------------------------------------------------------------------

    def _best(self, root: _Node) -> Action:
        """The most visited root child (ties: the better mean, then the candidate order)."""
        assert root.cands is not None
        best: tuple[int, float, int] | None = None
        choice = root.cands[0]
        for i, a in enumerate(root.cands):
            c = root.children.get(a)
            if c is None or c.visits == 0:
                continue
            key = (c.visits, c.total / c.visits, -i)
            if best is None or key > best:
                best, choice = key, a
        return choice

    def _expand(self, node: _Node, state: GameState, kind: str) -> None:
        """Give a searched decision node its candidates and priors (module docstring)."""
        ranked = None
        if kind in _RANKED_KINDS or (
            kind == "counteract"
            and not any(a.verb in ("Counteract", "Pass") for a in state.legal_actions())
        ):
            ranked = self._heuristic.rank(state)
        if ranked:
            top = ranked[:TOP_CANDIDATES]
            hi = top[0][1]
            weights = [math.exp((s - hi) / PRIOR_TEMPERATURE) for _, s in top]
            total = sum(weights)
            floor = PRIOR_FLOOR / len(top)
            node.cands = [a for a, _ in top]
            node.priors = [(1 - PRIOR_FLOOR) * x / total + floor for x in weights]
            return
        pick = self._heuristic.act(state)
        rest = [a for a in state.legal_actions() if a != pick]
        node.cands = [pick, *rest]
        share = 0.5 / len(rest) if rest else 0.0
        node.priors = [1.0 if not rest else 0.5] + [share] * len(rest)

    def _select(self, node: _Node, mine: bool) -> Action:
        """The PUCT choice among a searched node's candidates (module docstring)."""
        assert node.cands is not None
        sign = 1.0 if mine else -1.0
        parent = sign * node.total / node.visits if node.visits else 0.0
        scale = C_PUCT * math.sqrt(node.visits + 1)
        best = -math.inf
        choice = node.cands[0]
        for a, p in zip(node.cands, node.priors, strict=True):
            c = node.children.get(a)
            if c is not None and c.visits:
                u = sign * c.total / c.visits + scale * p / (1 + c.visits)
            else:
                u = parent + scale * p
            if u > best:
                best, choice = u, a
        return choice

    def _chance(self, node: _Node, state: GameState, k: int, rng: random.Random) -> Action:
        """An outcome by its exact weight, with progressive widening (module docstring)."""
        outcomes = node.outcomes.get(k)
        if outcomes is None:
            outcomes = node.outcomes[k] = state.chance_outcomes()
        if len(node.children) < math.ceil(math.sqrt(node.visits + 1)):
            pool = outcomes
        else:
            pool = [(a, w) for a, w in outcomes if a in node.children] or outcomes
        return rng.choices([a for a, _ in pool], [w for _, w in pool])[0]

    def _iterate(self, root: _Node, k: int, me: str, rng: random.Random) -> None:
        """One iteration in determinisation ``k``: descend from the root, reusing the states
        this determinisation reached before, value the leaf, back up (module docstring)."""
        node = root
        s = root.states[k]
        tp = s.tp
        path = [root]
        while True:
            n = s.node
            if isinstance(n, Terminal) or s.tp > tp:
                break  # the end of the battle, or the horizon: the next turning point
            if isinstance(n, Chance):
                a = self._chance(node, s, k, rng)
            else:
                assert isinstance(n, Decision)
                # (Listing an action decision's options is costly: a ranked kind is not
                # counted, its candidates come from the heuristic when it is expanded.)
                legal = None if n.kind in _RANKED_KINDS else s.legal_actions()
                if legal is None or (n.kind in SEARCHED_KINDS and len(legal) > 1):
                    if node is not root and node.visits < EXPAND_VISITS:
                        break
                    if node.cands is None:
                        self._expand(node, s, n.kind)
                    a = self._select(node, n.player == me)
                elif len(legal) == 1:
                    a = legal[0]
                else:
                    a = node.policy if node.policy is not None else self._heuristic.act(s)
                    node.policy = a
            child = node.children.get(a)
            after = child.states.get(k) if child is not None else None
            if after is None:
                try:
                    after = s.apply(a)[0]
                except IllegalActionError:
                    # A candidate of another determinisation, illegal in this one.
                    a = self._heuristic.act(s)
                    child = node.children.get(a)
                    after = child.states.get(k) if child is not None else None
                    if after is None:
                        after = s.apply(a)[0]
                if child is None:
                    child = node.children[a] = _Node()
                child.states[k] = after
            assert child is not None
            node, s = child, after
            path.append(node)
        value = node.values.get(k)
        if value is None:
            value = node.values[k] = evaluate(s, me)
        for x in path:
            x.visits += 1
            x.total += value


def _determinisations(root: _Node, state: GameState, me: str, rng: random.Random) -> list[int]:
    """Draw :data:`DETERMINISATIONS` determinisations of ``state`` for ``me``
    (:func:`_determinise`), store the distinct ones in ``root.states`` (keys 0, 1...) and
    return the schedule: the key of each draw, in draw order (iteration ``i`` searches draw
    ``i mod DETERMINISATIONS``, so equal draws keep their weight). One key when nothing is
    hidden (:func:`resample` returns the state itself)."""
    schedule: list[int] = []
    for _ in range(DETERMINISATIONS):
        s = _determinise(state, me, rng)
        if s is state and not root.states:
            root.states[0] = s
            return [0]
        for k, t in root.states.items():
            if t == s:
                schedule.append(k)
                break
        else:
            k = len(root.states)
            root.states[k] = s
            schedule.append(k)
    return schedule
