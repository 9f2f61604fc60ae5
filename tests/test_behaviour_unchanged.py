"""The engine's battles are pinned: a change that is meant to keep behaviour (the architecture
work of issue 28: one vocabulary for rules, rulesets as composition roots, files split by
concept) must leave every battle exactly as it was.

``tests/data/kt24_battle_records.json`` holds, for 80 battles (seeds 1-20, random and
heuristic agents, both shipped killzones, the default teams), the SHA-256 of the record's
step and result lines (every input's notation and actor, a state hash every 25 inputs, the
final state's hash and the result) and the final state hash. The values are not derived from
the code under test: they were written by the engine at commit f3b5fd5, before the first
file of issue 28 moved, with::

    python -m tests.test_behaviour_unchanged --write

An expected difference (a rule fixed on purpose) is written anew the same way, and the commit
says why. The 40 random battles were written anew for issue 29, when a move's destination
became a decision of its own (a random agent picks the move, then its destination: other
inputs, other battles); the 40 heuristic battles kept their values (the heuristic agent
still names each move complete, in one step). The 40 random battles were written anew again
when a Shoot's weapon and target became a decision of their own (a random agent picks
``Shoot KAS-1``, then the weapon and target); the 40 heuristic battles again kept theirs.
The 40 heuristic battles were written anew for issue 30, when the heuristic agent was changed
on purpose (a Torrent shot values its secondary targets; an activation that would end before
any action advances instead, ``engine.agents.position.safe_advance``); the 40 random battles
kept theirs. All 80 were written anew for issue 31, whose rulings fixes change battles on
purpose: the defender allocates its saves as a decision when the allocation changes the
outcome (new inputs), Reboot's number pick is asked in the first turning point too, Martyrs
and Dominate token removal became decisions, the Vox-Trooper's Battle Comms can be performed
twice per activation, the krak grenade has Saturate and Ammo Resupply costs 0AP (as the digest
says), and a Long-Range Scope's Saturate counts for Elimination Pattern.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from engine.game.record import GameRecorder, make_header
from engine.play.battle import play_battle
from engine.play.matchup import MatchupChoice, make_matchup

DATA = Path(__file__).parent / "data" / "kt24_battle_records.json"
SEEDS = range(1, 21)
AGENTS = ("random", "heuristic")
KILLZONES = ("open_ruins", "close_quarters")
CASES = [f"{kz}-{agents}-{seed}" for kz in KILLZONES for agents in AGENTS for seed in SEEDS]
_MATCHUPS: dict[tuple[str, str], object] = {}


def battle_digest(case: str) -> dict[str, object]:
    """Play the battle named ``case`` (``killzone-agents-seed``) and digest its record."""
    kz, agents, seed_text = case.rsplit("-", 2)
    seed = int(seed_text)
    matchup = _MATCHUPS.get((kz, agents))
    if matchup is None:
        matchup = make_matchup(MatchupChoice(killzone=kz, agents=agents))
        _MATCHUPS[(kz, agents)] = matchup
    start = matchup.new_game()  # type: ignore[attr-defined]
    recorder = GameRecorder(make_header(start, seed=seed, agents={"A": agents, "B": agents}))
    final, _ = play_battle(matchup, seed, on_step=recorder.on_step, start=start)  # type: ignore[arg-type]
    recorder.finish(final)
    body = "\n".join(recorder.lines[1:])
    return {
        "steps": final.step,
        "final_hash": final.hash(),
        "lines_sha256": hashlib.sha256(body.encode()).hexdigest(),
    }


def _expected() -> dict[str, dict[str, object]]:
    return json.loads(DATA.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.mark.parametrize("case", CASES)
def test_battle_record_unchanged_by_refactoring(case: str) -> None:
    """Same teams, killzone, agents and seed: the same inputs, the same states (every 25th
    and the last) and the same result as the engine before issue 28 (module docstring)."""
    expected = _expected()[case]
    assert battle_digest(case) == expected


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.test_behaviour_unchanged --write")
    table = {case: battle_digest(case) for case in CASES}
    DATA.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(table)} battles to {DATA}")
