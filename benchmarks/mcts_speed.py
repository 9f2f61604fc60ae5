"""Search speed: CPU seconds per iteration of :class:`~engine.agents.mcts.MCTSAgent` on fixed
mid-battle positions; prints figures (nothing is asserted).

Run: ``python benchmarks/mcts_speed.py [--iterations 250] [--every 25] [--compare FILE]``.

- The positions: three heuristic-against-heuristic battles (Kasrkin v Legionaries seed 3,
  Pathfinders v Kommandos seed 5, Angels of Death v Hierotek Circle seed 7, open ruins), every
  ``--every``-th searched decision of the firefight (activation, action, counteraction...)
  with more than one legal action, each searched from its deciding player's observation
  (as :func:`~engine.game.drivers.play` hands it).
- Each position is searched with ``--iterations`` iterations and the agent's seed 11,
  timed in process CPU time (``time.process_time``: other load on the machine does not
  count).
- ``--compare FILE``: another version of ``engine/agents/mcts.py`` (e.g. from
  ``git show <commit>:engine/agents/mcts.py > /tmp/mcts_old.py``) searched on the same
  positions, interleaved (the first of the two alternates, so neither always finds the
  killzone's sight caches warm).
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from pathlib import Path
from types import ModuleType

from engine.agents import HeuristicAgent
from engine.agents import mcts as current
from engine.game.drivers import SeededDice
from engine.game.observation import Observation, observe
from engine.game.state import Decision
from engine.play.matchup import MatchupChoice, make_matchup

BATTLES = (
    (("kasrkin", "legionaries"), 3),
    (("pathfinders", "kommandos"), 5),
    (("angels_of_death", "hierotek_circle"), 7),
)


def positions(every: int) -> list[tuple[str, int, Observation]]:
    """``(decision kind, turning point, observation)`` of the sampled positions."""
    out = []
    for (a, b), seed in BATTLES:
        m = make_matchup(MatchupChoice(teams=(a, b), agents="heuristic"))
        s = m.new_game()
        dice = SeededDice(seed)
        agents = {"A": HeuristicAgent(1), "B": HeuristicAgent(2)}
        k = 0
        while not s.is_terminal:
            n = s.node
            if isinstance(n, Decision):
                view = observe(s, n.player)
                searched = n.kind in current.SEARCHED_KINDS and s.phase == "firefight"
                if searched and len(s.legal_actions()) > 1:
                    k += 1
                    if k % every == 0:
                        out.append((n.kind, s.tp, view))
                s = s.apply(agents[n.player].act(view))[0]
            else:
                s = s.apply(dice.roll(s))[0]
    return out


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("mcts_compared", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main() -> None:
    """Search the positions and print the figures (module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=250, help="iterations per position")
    ap.add_argument("--every", type=int, default=25, help="sample every n-th decision")
    ap.add_argument("--compare", type=Path, help="another mcts.py to time on the same positions")
    args = ap.parse_args()
    versions: list[tuple[str, ModuleType]] = [("current", current)]
    if args.compare is not None:
        versions.append(("compared", _load(args.compare)))
    pos = positions(args.every)
    totals = {name: [0.0, 0] for name, _ in versions}
    for i, (kind, tp, view) in enumerate(pos):
        row = []
        for name, mod in versions if i % 2 == 0 else versions[::-1]:
            agent = mod.MCTSAgent(11, iterations=args.iterations)
            t0 = time.process_time()
            agent.act(view)
            dt = time.process_time() - t0
            totals[name][0] += dt
            totals[name][1] += agent.iterations_run
            row.append(f"{name} {1000 * dt / max(1, agent.iterations_run):.1f} ms/it")
        print(f"{i:3d} TP{tp} {kind:<11} " + ", ".join(row), flush=True)
    for name, (spent, n) in totals.items():
        if n:
            print(f"{name}: {n} iterations in {spent:.1f} s CPU = {n / spent:.0f} iterations/s")


if __name__ == "__main__":
    main()
