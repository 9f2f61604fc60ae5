"""How well the heuristic agent plays: idle activations, the ranged weapons it fires, and
heuristic-vs-heuristic matchups of the built-in teams. Seeded; every figure is printed with
its counts.

Run: ``python benchmarks/heuristic_quality.py [--games N] [--seed BASE] [--killzone K]
[--teams T ...] [--weapon-battles M]``.

Definitions:

- An **activation** is an ``Activate`` input of a player whose agent is measured (1.5). It is
  **idle** when the activated operative's first input at an ``action`` decision of that
  activation is ``End activation``: it performs no action at all (no move, shot, fight,
  mission or rule action, no Guard), its AP are thrown away. Activations cut short before
  any action (the operative incapacitated by an interrupt) are not counted. For each idle
  activation the script notes whether a Shoot, a Fight or a move was listed there (something
  the operative could have done).
- **Weapons fired**: for each team, operative type and ranged weapon of the rosters that
  played, the number of ``Shoot`` inputs naming that weapon (profile names included, e.g.
  ``Plasma gun (supercharge)``), against the number of activations of operatives carrying it.
  The first ``--weapon-battles`` battles are the default battle ``killteam play`` plays
  (Kasrkin v Legionaries, open ruins) with seeds 1, 2, ...; the matchup battles are added.
- **Matchups**: for each unordered pair of the teams, ``N`` battles with each team as
  player A (seat-balanced: ``2 N`` battles per pair), battle seed ``game_seed(BASE, i)``,
  heuristic agents on both sides; wins of the first team of the pair, draws and losses, with
  the Wilson 95% interval of its score rate (a draw counts half).

The functions take an agent factory, so the same measures apply to another agent
(``measure(make=...)``).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs

from engine.agents import HeuristicAgent
from engine.batch import wilson_interval
from engine.game.actions import MOVE_VERBS, Action
from engine.game.drivers import Agent, SeededDice, play
from engine.game.events import Event
from engine.game.state import Decision, GameState, Terminal
from engine.game.weapons import weapons_of
from engine.game.work import Work
from engine.play import agent_seeds, game_seed
from engine.play.matchup import Matchup, MatchupChoice, make_matchup
from engine.teams import builtin_teams

AgentFactory = Callable[[int], Agent]


@attrs.define
class Tally:
    """What the measured agents did over the battles played so far."""

    activations: int = 0
    idle: int = 0
    idle_with_shot: int = 0
    idle_with_fight: int = 0
    idle_with_move: int = 0
    cut_short: int = 0
    fired: Counter[tuple[str, str, str]] = attrs.field(factory=Counter)
    carried: Counter[tuple[str, str, str]] = attrs.field(factory=Counter)
    cpu: float = 0.0
    battles: int = 0


class Watcher:
    """An ``on_step`` callback that feeds a :class:`Tally` (module docstring: definitions)."""

    def __init__(self, tally: Tally, players: tuple[str, ...], team_of: dict[str, str]) -> None:
        self.tally = tally
        self.players = players
        self.team_of = team_of
        self.open: tuple[str, str] | None = None  # (player, operative) of the activation
        self.acted = False

    def _close(self) -> None:
        if self.open is not None and not self.acted:
            self.tally.cut_short += 1
        self.open = None

    def __call__(
        self, before: GameState, action: Action, actor: str, after: GameState, events: list[Event]
    ) -> None:
        node = before.node
        if not isinstance(node, Decision) or actor not in self.players:
            return
        t = self.tally
        if node.kind == "activate" and action.verb == "Activate" and action.op:
            self._close()
            self.open, self.acted = (actor, action.op), False
            t.activations += 1
            w = Work(before)
            card = before.ctx.datacards[action.op].name
            for name, _, _ in weapons_of(w, action.op, "ranged"):
                t.carried[(self.team_of[actor], card, name)] += 1
            return
        if action.verb == "Shoot" and action.op and action.weapon:
            card = before.ctx.datacards[action.op].name
            t.fired[(self.team_of[actor], card, action.weapon)] += 1
        if node.kind != "action" or self.open is None or self.open[0] != actor:
            return
        if action.verb == "End activation":
            if not self.acted:
                t.idle += 1
                verbs = {a.verb for a in before.legal_actions()}
                t.idle_with_shot += "Shoot" in verbs
                t.idle_with_fight += "Fight" in verbs
                t.idle_with_move += bool(verbs & set(MOVE_VERBS))
            self.open = None
        else:
            self.acted = True


def play_one(
    matchup: Matchup,
    seed: int,
    make: dict[str, AgentFactory],
    tally: Tally,
    measured: tuple[str, ...] = ("A", "B"),
) -> GameState:
    """Play battle ``seed`` of ``matchup`` with ``make[player](agent seed)`` agents,
    feeding ``tally`` with the inputs of the ``measured`` players (CPU time included)."""
    sa, sb = agent_seeds(seed)
    agents = {"A": make["A"](sa), "B": make["B"](sb)}
    team_of = {p: matchup.rosters[k].team.id for k, p in enumerate("AB")}
    watcher = Watcher(tally, measured, team_of)
    start = time.process_time()
    final = play(
        matchup.new_game(),
        agents,
        SeededDice(seed),
        on_step=watcher,
        max_steps=matchup.options.max_steps,
    )
    tally.cpu += time.process_time() - start
    tally.battles += 1
    return final


def winner(final: GameState) -> str | None:
    """``"A"``, ``"B"`` or ``None`` (a draw, or a battle cut short)."""
    node = final.node
    if not isinstance(node, Terminal):
        return None
    w = getattr(node.result, "winner", None)
    return w if w in ("A", "B") else None


def matchups(
    teams: list[str],
    games: int,
    base: int,
    killzone: str,
    make: dict[str, AgentFactory],
    tally: Tally,
    out: Callable[[str], None] = print,
) -> dict[tuple[str, str], tuple[int, int, int]]:
    """Every unordered pair of ``teams``, seat-balanced (module docstring): ``{(t, u): (t's
    wins, draws, t's losses)}``, printing a Markdown row per pair as it goes."""
    results: dict[tuple[str, str], tuple[int, int, int]] = {}
    out("| pair | first's wins / draws / losses | first's score rate (95% CI) |")
    out("|---|---|---|")
    for t, u in itertools.combinations(teams, 2):
        wins = draws = losses = 0
        for seat, (a, b) in enumerate(((t, u), (u, t))):
            m = make_matchup(MatchupChoice(teams=(a, b), killzone=killzone))
            m.warm()
            for i in range(games):
                r = winner(play_one(m, game_seed(base + seat, i), make, tally))
                mine = "A" if seat == 0 else "B"
                if r is None:
                    draws += 1
                elif r == mine:
                    wins += 1
                else:
                    losses += 1
        results[(t, u)] = (wins, draws, losses)
        n = wins + draws + losses
        lo, hi = wilson_interval(round(wins + draws / 2), n)
        rate = (wins + draws / 2) / n
        out(f"| {t} v {u} | {wins} / {draws} / {losses} | {rate:.0%} ({lo:.0%}-{hi:.0%}) |")
    return results


def report_tally(tally: Tally, out: Callable[[str], None] = print) -> None:
    """Print the idle rate and the weapons fired (module docstring)."""
    t = tally
    rate = t.idle / t.activations if t.activations else 0.0
    out(f"\nBattles: {t.battles}; CPU {t.cpu:.1f} s ({t.cpu / max(1, t.battles):.2f} s a battle)")
    out(
        f"Idle activations: {t.idle} of {t.activations} ({rate:.1%}); of the idle ones a Shoot "
        f"was listed in {t.idle_with_shot}, a Fight in {t.idle_with_fight}, a move in "
        f"{t.idle_with_move}; cut short before any action: {t.cut_short}"
    )
    out("\n| team | operative | ranged weapon | shots | activations carrying it |")
    out("|---|---|---|---|---|")
    for key in sorted(t.carried):
        team, card, weapon = key
        out(f"| {team} | {card} | {weapon} | {t.fired[key]} | {t.carried[key]} |")


def heuristic(seed: int) -> Agent:
    """The heuristic agent of this tree."""
    return HeuristicAgent(seed)


def measure(
    make: AgentFactory = heuristic,
    *,
    games: int = 1,
    base: int = 30,
    killzone: str = "open_ruins",
    teams: list[str] | None = None,
    weapon_battles: int = 2,
    out: Callable[[str], None] = print,
) -> Tally:
    """Every measure of the module docstring for the agent ``make`` builds."""
    tally = Tally()
    both = {"A": make, "B": make}
    default = make_matchup(MatchupChoice())
    default.warm()
    for seed in range(1, weapon_battles + 1):
        play_one(default, seed, both, tally)
    if games > 0:
        out(f"Matchups ({games} battles per seat, {killzone}, base seed {base}):\n")
        matchups(teams or builtin_teams(), games, base, killzone, both, tally, out)
    report_tally(tally, out)
    return tally


def main(argv: list[str] | None = None) -> None:
    """Parse the options and print every measure."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    ap.add_argument("--games", type=int, default=1, help="battles per pair and seat")
    ap.add_argument("--seed", type=int, default=30, help="base seed of the matchups")
    ap.add_argument("--killzone", default="open_ruins", help="killzone layout")
    ap.add_argument("--teams", nargs="+", default=None, help="built-in team ids")
    ap.add_argument("--weapon-battles", type=int, default=2, help="default battles to add")
    args: Any = ap.parse_args(argv)
    if args.games < 0 or args.weapon_battles < 0:
        sys.exit("--games and --weapon-battles must be non-negative")
    measure(
        games=args.games,
        base=args.seed,
        killzone=args.killzone,
        teams=args.teams,
        weapon_battles=args.weapon_battles,
    )


if __name__ == "__main__":
    main()
