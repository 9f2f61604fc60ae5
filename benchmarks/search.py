"""Search throughput: iterations per second of a plain Monte Carlo tree search (UCT) on
mid-battle positions; prints figures (nothing is asserted).

Run: ``python benchmarks/search.py [--seconds 3] [--positions 3]``.

The positions: the default matchup (Kasrkin v Legionaries, default rosters, open ruins),
random agents and seeded dice, the first decision node at or after steps 60, 120, 180...
of the battle. From each, UCT (exploration constant 1.4) runs for ``--seconds`` of CPU time.
One iteration descends the tree (at a decision node the child with the best UCT value; at a
chance node an outcome drawn by its exact weight, its child made on first draw), expands one
untried action of the first decision node not fully expanded (one ``apply`` and one
``legal_actions()`` of the new state: a search tree node), evaluates the leaf by the victory
point difference for the player to move at the root (no rollout), and backs it up.

Goal (the speed issue): at least 4,000 iterations per second.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from engine.agents import RandomAgent
from engine.game.actions import Action
from engine.game.drivers import SeededDice, ask
from engine.game.state import Chance, Decision, GameState
from engine.geometry import load_killzone
from engine.geometry.movement import move_graph
from engine.rulesets import new_game
from engine.teams import load_builtin_team


class Node:
    """A search tree node: a state, its untried actions and its children."""

    __slots__ = ("children", "outcomes", "state", "total", "untried", "visits")

    def __init__(self, state: GameState, rng: random.Random) -> None:
        self.state = state
        self.visits = 0
        self.total = 0.0
        self.children: dict[Action, Node] = {}
        self.untried: list[Action] = []
        self.outcomes: tuple[list[Action], list[int]] | None = None
        if isinstance(state.node, Decision):
            self.untried = list(state.legal_actions())
            rng.shuffle(self.untried)
        elif isinstance(state.node, Chance):
            pairs = state.chance_outcomes()
            self.outcomes = ([a for a, _ in pairs], [w for _, w in pairs])


def value(state: GameState, me: str) -> float:
    """The leaf value for ``me``: the victory point difference, scaled to about [-1, 1]."""
    a, b = state.player("A").vp, state.player("B").vp
    return (a - b if me == "A" else b - a) / 21.0


def iterate(root: Node, me: str, rng: random.Random) -> None:
    """One UCT iteration from ``root`` (module docstring)."""
    node = root
    path = [node]
    while True:
        s = node.state
        if s.is_terminal:
            break
        if node.outcomes is not None:
            acts, weights = node.outcomes
            a = rng.choices(acts, weights)[0]
            child = node.children.get(a)
            if child is None:
                child = Node(s.apply(a)[0], rng)
                node.children[a] = child
            node = child
            path.append(node)
            continue
        if node.untried:
            a = node.untried.pop()
            child = Node(s.apply(a)[0], rng)
            node.children[a] = child
            node = child
            path.append(node)
            break
        assert isinstance(s.node, Decision)
        sign = 1.0 if s.node.player == me else -1.0
        log_n = math.log(node.visits + 1)

        def uct(c: Node, sign: float = sign, log_n: float = log_n) -> float:
            return sign * c.total / c.visits + 1.4 * math.sqrt(log_n / c.visits)

        node = max(node.children.values(), key=uct)
        path.append(node)
    v = value(node.state, me)
    for n in path:
        n.visits += 1
        n.total += v


def positions(count: int) -> list[GameState]:
    """Mid-battle decision nodes of one random battle (module docstring)."""
    kz = load_killzone("open_ruins")
    rosters = [load_builtin_team(t).default() for t in ("kasrkin", "legionaries")]
    for r in rosters:
        for k in range(len(r.operatives)):
            move_graph(kz, r.datacard(k).base_mm)
    s = new_game(kz, rosters[0], rosters[1])
    agents = {"A": RandomAgent(1), "B": RandomAgent(2)}
    dice = SeededDice(7)
    out: list[GameState] = []
    marks = [60 * (k + 1) for k in range(count)]
    while not s.is_terminal and len(out) < count:
        if isinstance(s.node, Decision):
            if s.step >= marks[len(out)]:
                out.append(s)
            s = s.apply(ask(agents[s.node.player], s))[0]
        else:
            s = s.apply(dice.roll(s))[0]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per position")
    ap.add_argument("--positions", type=int, default=3)
    args = ap.parse_args()
    rates: list[float] = []
    for k, start in enumerate(positions(args.positions)):
        assert isinstance(start.node, Decision)
        rng = random.Random(k)
        root = Node(start, rng)
        me = start.node.player
        n = 0
        t0 = time.process_time()
        while time.process_time() - t0 < args.seconds:
            iterate(root, me, rng)
            n += 1
        rate = n / (time.process_time() - t0)
        rates.append(rate)
        print(
            f"position {k + 1} (step {start.step}, {start.node.kind}, "
            f"{len(list(start.legal_actions()))} legal actions): {n} iterations, "
            f"{rate:.0f} iterations/s, tree {root.visits} visits"
        )
    print(
        f"UCT iterations per second, median over {len(rates)} positions: "
        f"{statistics.median(rates):.0f} (goal: at least 4,000)"
    )


if __name__ == "__main__":
    main()
