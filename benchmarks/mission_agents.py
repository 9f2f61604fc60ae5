"""How the heuristic agent plays the mission: win rate against the random agent, draw rate
against itself, and how often its operatives idle when something would have paid.

Run: ``python benchmarks/mission_agents.py [--games N] [--workers W] [--teams A B]
[--killzone NAME] [--crit-op NAME] [--seed BASE]`` (default 200 games of each kind, 2
workers, the embedded default teams and killzone, the crit op rolled as the pack says).

1. **Heuristic v random**: ``N`` games of :func:`engine.batch.run_batch`, half with the
   heuristic agent as player A (``--agents heuristic,random``, games ``0..N/2-1`` of base
   seed ``BASE``), half as player B (base seed ``BASE + 1``). Prints its wins, draws and
   losses and its win rate with the Wilson score 95% interval (a draw is not a win).
2. **Heuristic v heuristic**: ``N`` games of :func:`engine.play.battle.play_battle` with seeds
   :func:`engine.play.game_seed` ``(BASE + 2, i)``. Prints the draw rate (95% interval) and
   the mean VP per op, and measures every activation of both players:

   - an activation (an operative's own activation, not a counteraction, 1.5/1.6) is
     **idle** when the operative ends it without performing any action;
   - it is **idle with an opportunity** when it is idle and, on the state right after
     ``Activate <operative> engage`` (the order that allows every action; ``conceal`` when
     Engage is not legal), one of its listed actions would have paid: a Shoot or Fight
     whose exact probability of incapacitating its target is at least :data:`KILL_CHANCE`
     (the dice core, with the target's cover and obscured from the killzone, both sides of a
     fight resolving optimally: :func:`engine.agents.position.shot_kill_chance`,
     :func:`~engine.agents.position.fight_kill_chance`), or a mission action (an ``Act`` of
     an op module) that scores: the VP it gives the player at once plus the change of the
     VP the player would score if the turning point ended then is positive
     (:meth:`engine.agents.mission_choices.MissionSense.action_gain`, on the player's own
     view of the state);
   - an activation **leaves a likely kill** when at one of its decisions a listed Shoot or
     Fight had a kill probability of at least :data:`LIKELY_KILL` and the operative
     performed no Shoot or Fight in that activation.

   Prints the number of activations and the share of each kind (the share idle with an
   opportunity with its 95% interval), overall and in turning point 4.

Nothing is asserted: the figures go in the issue note. The measurement itself (the
opportunities at every activation) costs time; it runs only in the second part.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine.advice.view import DecisionView
from engine.agents.mission_choices import MissionSense, is_mission_action
from engine.agents.position import fight_kill_chance, shot_kill_chance
from engine.batch import run_batch, wilson_interval
from engine.game.actions import Action
from engine.game.events import Event
from engine.game.rule_actions import find_rule_action
from engine.game.state import Decision, GameState
from engine.play import game_seed, mission_ops
from engine.play.battle import play_battle
from engine.play.matchup import Matchup, MatchupChoice, make_matchup

KILL_CHANCE = 0.1
"""The least kill probability of a listed Shoot or Fight that counts as an opportunity."""

LIKELY_KILL = 0.5
"""The least kill probability of a Shoot or Fight that counts as a likely kill."""


def best_kill_chance(state: GameState) -> float:
    """The best kill probability among the listed Shoot and Fight actions at an ``action``
    decision (0 when none)."""
    w = DecisionView(state)
    frame = w.top
    o = w.op(frame.op)
    best = 0.0
    for a in state.legal_actions():
        if a.verb == "Shoot":
            best = max(best, shot_kill_chance(w, o, a, frame.mode))
        elif a.verb == "Fight" and a.target is not None:
            best = max(best, fight_kill_chance(w, o, a.weapon, w.op(a.target)))
    return best


def scoring_action(state: GameState, player: str) -> bool:
    """Whether a listed mission action at an ``action`` decision scores (module docstring)."""
    w = DecisionView(state)
    frame = w.top
    o = w.op(frame.op)
    sense: MissionSense | None = None
    for a in state.legal_actions():
        if a.verb != "Act" or not is_mission_action(find_rule_action(w, o, a.text)):
            continue
        sense = sense or MissionSense(state, player)
        if sense.action_gain(o.id, a, frame.mode) > 0:
            return True
    return False


def opportunity(before: GameState, activate: Action, player: str) -> tuple[bool, bool]:
    """``(kill chance, scoring mission action)`` at the start of the activation ``activate``
    chosen at ``before`` (module docstring)."""
    engage = Action("Activate", op=activate.op, text="engage")
    first = engage if before.is_legal(engage) else activate
    after, _ = before.apply(first)
    node = after.node
    if not (isinstance(node, Decision) and node.player == player and node.kind == "action"):
        return False, False
    return best_kill_chance(after) >= KILL_CHANCE, scoring_action(after, player)


class ActivationTally:
    """Every activation of a battle, for ``play_battle(on_step=...)`` (module docstring)."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def on_step(
        self, before: GameState, action: Action, actor: str, after: GameState, ev: list[Event]
    ) -> None:
        node = before.node
        if not isinstance(node, Decision) or actor not in ("A", "B"):
            return
        if node.kind == "activate" and action.verb == "Activate":
            kill, mission = opportunity(before, action, actor)
            row = {"tp": before.tp, "op": action.op, "acted": False, "attacked": False}
            row.update(kill=kill, mission=mission, likely=False)
            self.rows.append(row)
            return
        if node.kind != "action" or not self.rows:
            return
        row = self.rows[-1]
        if getattr(before.stack[-1], "op", None) != row["op"] or before.tp != row["tp"]:
            return
        if getattr(before.stack[-1], "mode", "") != "activation":
            return
        if best_kill_chance(before) >= LIKELY_KILL:
            row["likely"] = True
        if action.verb != "End activation":
            row["acted"] = True
        if action.verb in ("Shoot", "Fight"):
            row["attacked"] = True


_MATCHUP: Matchup | None = None


def _measured_game(job: tuple[int, int]) -> dict[str, Any]:
    """One heuristic v heuristic game with the activation tally."""
    assert _MATCHUP is not None
    base, i = job
    tally = ActivationTally()
    _, summary = play_battle(_MATCHUP, game_seed(base, i), on_step=tally.on_step)
    vp_by_op = {op: list(v) for op, v in summary.vp_by_op}
    return {"winner": summary.winner, "vp_by_op": vp_by_op, "rows": tally.rows}


def measured_games(choice: MatchupChoice, games: int, base: int, workers: int) -> list[Any]:
    """Play the heuristic v heuristic games (forked workers, warm, as ``run_batch``)."""
    global _MATCHUP
    _MATCHUP = make_matchup(choice)
    _MATCHUP.warm()
    jobs = [(base, i) for i in range(games)]
    if workers == 1:
        return [_measured_game(j) for j in jobs]
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        return list(pool.map(_measured_game, jobs, chunksize=2))


def _rate(k: int, n: int) -> str:
    lo, hi = wilson_interval(k, n)
    return f"{k}/{n} = {k / max(1, n):.3f} (95% CI {lo:.3f}-{hi:.3f})"


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games of each kind")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--teams", nargs=2, metavar=("A", "B"), default=None)
    ap.add_argument("--killzone", default=None)
    ap.add_argument("--crit-op", default=None, help="default: rolled as the pack says")
    ap.add_argument("--seed", type=int, default=1, help="base seed")
    args = ap.parse_args(argv)
    teams = tuple(args.teams) if args.teams else None
    common: dict[str, Any] = {"teams": teams, "killzone": args.killzone, "crit_op": args.crit_op}
    t0 = time.perf_counter()

    half = max(1, args.games // 2)
    won = drawn = n = 0
    for side, agents, seed in (
        ("A", "heuristic,random", args.seed),
        ("B", "random,heuristic", args.seed + 1),
    ):
        lines = run_batch(
            MatchupChoice(agents=agents, **common), half, base_seed=seed, workers=args.workers
        )
        n += len(lines)
        won += sum(1 for r in lines if r["winner"] == side)
        drawn += sum(1 for r in lines if r["winner"] == "")
    print(
        f"heuristic v random: {n} games ({half} as A, {half} as B): won {won}, drawn {drawn}, "
        f"lost {n - won - drawn}; win rate {_rate(won, n)}"
    )

    results = measured_games(
        MatchupChoice(agents="heuristic", **common), args.games, args.seed + 2, args.workers
    )
    m = len(results)
    draws = sum(1 for r in results if r["winner"] == "")
    print(f"heuristic v heuristic: {m} games: draw rate {_rate(draws, m)}")
    means = []
    for op in mission_ops("kt24"):
        total = sum(sum(r["vp_by_op"][op]) for r in results) / (2 * m)
        means.append(f"{op} {total:.2f}")
    print("  mean VP per player by op: " + ", ".join(means))
    rows = [row for r in results for row in r["rows"]]
    for label, sel in (
        ("all turning points", rows),
        ("turning point 4", [x for x in rows if x["tp"] == 4]),
    ):
        k = len(sel)
        idle = [x for x in sel if not x["acted"]]
        missed = [x for x in idle if x["kill"] or x["mission"]]
        left = [x for x in sel if x["likely"] and not x["attacked"]]
        print(f"  activations ({label}): {k}")
        print(f"    idle (no action): {_rate(len(idle), k)}")
        kills = sum(1 for x in missed if x["kill"])
        scoring = sum(1 for x in missed if x["mission"])
        print(
            f"    idle although an action would have scored or had a kill chance >= "
            f"{KILL_CHANCE:.0%}: {_rate(len(missed), k)}"
        )
        print(f"      of which a kill chance: {kills}, a scoring mission action: {scoring}")
        print(f"    left a likely kill (>= {LIKELY_KILL:.0%}) unattacked: {_rate(len(left), k)}")
    print(f"({time.perf_counter() - t0:.0f} s, {args.workers} workers)")


if __name__ == "__main__":
    main()
