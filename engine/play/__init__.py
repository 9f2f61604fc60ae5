"""Whole battles from a few choices: teams, rosters, killzone, agents and a seed.

The ``killteam play``, ``killteam replay`` and ``killteam batch`` commands
(:mod:`engine.cli`) are thin over this package; tests and benchmarks call it directly.

- :mod:`engine.play.matchup`: :func:`~engine.play.matchup.make_matchup` turns the user's
  choices (team names or files, roster files, a killzone name or file, agent names, equipment
  selections, mission ops) into a :class:`~engine.play.matchup.Matchup`.
- :mod:`engine.play.battle`: :func:`~engine.play.battle.play_battle` plays one seeded battle
  (``rules/KT24.md`` 1.2-1.8) and returns the final state with its summary.
- :mod:`engine.play.summary`: :class:`~engine.play.summary.BattleSummary` (VP per mission op
  and player, winner, kills, operatives left with their wounds, ploys used and equipment
  selected) and the tallies that collect it while a battle is played or replayed.
- :mod:`engine.batch` plays many seeded battles of one matchup and reduces them to
  statistics.
- :mod:`engine.play.backends`: many tasks in this process, a process pool or on Ray.
- :mod:`engine.play.tournament` and :mod:`engine.play.ratings`: a seat-balanced round robin
  of agents or teams (``killteam tournament``), rated by Bradley-Terry on the Elo scale.
- :mod:`engine.play.timeline`: the positions of a record or scenario file, one after each
  step (``killteam render`` of a position); :mod:`engine.play.viewer`: one self-contained
  HTML page stepping through them (``killteam view``).

This module holds what the command line needs before it plays anything (it imports no part
of the game): :data:`DEFAULT_TEAMS`, :data:`DEFAULT_KILLZONE`, :data:`DEFAULT_AGENTS` and
:data:`DEFAULT_SEED` (the embedded default battle), the rulesets a battle can be played under
with their default teams (:data:`DEFAULT_RULESET`, :data:`RULESET_TEAMS`,
:func:`default_teams`), the mission ops' titles, :class:`BattleError` and the seed rules.

Seeds (one integer decides a whole battle):

- the dice are :class:`~engine.game.drivers.SeededDice` ``(seed)``;
- player A's agent gets seed ``2 * seed`` and player B's ``2 * seed + 1``
  (:func:`agent_seeds`);
- game ``i`` of a batch with base seed ``base`` uses the battle seed
  ``numpy.random.SeedSequence([base, i]).generate_state(1)[0]`` (:func:`game_seed`, an integer
  below 2**32), so ``killteam play --seed <that seed>`` with the same teams, killzone and agents
  replays it alone, and the results never depend on the number of worker processes.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine import RULESET
from engine.errors import KillTeamError

__all__ = [
    "DEFAULT_AGENTS",
    "DEFAULT_KILLZONE",
    "DEFAULT_RULESET",
    "DEFAULT_SEED",
    "DEFAULT_TEAMS",
    "NO_EQUIPMENT",
    "RULESET_TEAMS",
    "BattleError",
    "agent_seeds",
    "default_teams",
    "game_seed",
    "mission_ops",
    "op_title",
]

#: The embedded default battle: built-in teams (players A and B, default rosters)...
DEFAULT_TEAMS: tuple[str, str] = ("kasrkin", "legionaries")
#: ...on this shipped killzone...
DEFAULT_KILLZONE = "open_ruins"
#: ...between these agents...
DEFAULT_AGENTS: tuple[str, str] = ("heuristic", "heuristic")
#: ...with this seed.
DEFAULT_SEED = 1

#: The ruleset a battle is played under when none is named (``--ruleset``).
DEFAULT_RULESET = RULESET

#: The default teams of each ruleset the engine plays (players A and B, built-in ids): the
#: one table the command line and :func:`engine.play.matchup.make_matchup` read, so a
#: ruleset's defaults are data, never a branch on its name. Its keys are the ruleset names
#: (:data:`engine.game.context.RULESETS`; a test checks they agree), in the order ``--help``
#: shows them. The KT21 teams are the built-in KT21 teams (``teams/kt21_*``), the KT18 ones the
#: built-in KT18 teams (``teams/kt18_*``).
RULESET_TEAMS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "kt24": DEFAULT_TEAMS,
        "kt21": ("kt21_kasrkin", "kt21_legionaries"),
        "kt18": ("kt18_space_marines", "kt18_orks"),
    }
)


def mission_ops(ruleset: str) -> tuple[str, ...]:
    """The ops that score VP in a battle of ``ruleset``, in the order summaries list them
    (its :attr:`~engine.rulesets.Ruleset.scoring_ops`: KT24's kill, crit, tac and primary op,
    ``rules/KT24.md`` 8.1; KT21's mission, tac ops and Battle Ready, ``rules/KT21.md`` 15.2);
    none for a name the engine does not play."""
    from engine.rulesets import RULESETS  # (on use: --help loads no rule module)

    found = RULESETS.get(ruleset) if isinstance(ruleset, str) else None
    return tuple(op for op, _ in found.scoring_ops) if found is not None else ()


def op_title(ruleset: str, op: str) -> str:
    """The column title of ``op`` in summaries of ``ruleset``'s battles (``op`` itself when
    the ruleset names none)."""
    from engine.rulesets import RULESETS  # (on use: --help loads no rule module)

    found = RULESETS.get(ruleset) if isinstance(ruleset, str) else None
    return dict(found.scoring_ops).get(op, op) if found is not None else op


class BattleError(KillTeamError, ValueError):
    """A battle cannot be set up from these choices (the message names the choice)."""


#: The word that selects no universal equipment at all (``--equipment-a none``).
NO_EQUIPMENT = "none"


def default_teams(ruleset: str) -> tuple[str, str]:
    """The built-in team ids players A and B play by default under ``ruleset`` (its row of
    :data:`RULESET_TEAMS`).

    Raises:
        BattleError: a ruleset the engine does not play (the message names it and the known
            ones).
    """
    teams = RULESET_TEAMS.get(ruleset) if isinstance(ruleset, str) else None
    if teams is None:
        raise BattleError(
            f"ruleset {ruleset!r:.60}: not a ruleset the engine plays "
            f"(known: {', '.join(RULESET_TEAMS)})"
        )
    return teams


def agent_seeds(seed: int) -> tuple[int, int]:
    """The agents' own seeds for a battle seed: ``(2 * seed, 2 * seed + 1)`` for A and B."""
    return 2 * seed, 2 * seed + 1


def game_seed(base: int, index: int) -> int:
    """The battle seed of game ``index`` (0-based) of a batch with base seed ``base``:
    ``numpy.random.SeedSequence([base, index]).generate_state(1)[0]`` (below 2**32).

    Raises:
        ValueError: a negative base or index.
    """
    if base < 0 or index < 0:
        raise ValueError(f"seeds are non-negative (base {base}, index {index})")
    import numpy as np  # only where a batch needs it

    return int(np.random.SeedSequence([base, index]).generate_state(1)[0])
