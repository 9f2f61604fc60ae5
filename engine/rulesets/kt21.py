"""The composition root of KT21 (``rules/KT21.md``; DESIGN.md "Rulesets"): the shared core,
the KT21 rule modules (:mod:`engine.rules.kt21`), the rules of the KT21 teams in play and the
KT21 mission (Critical Operations 2022 by default, ``rules/KT21.md`` 1.2 and 15).

The order in which :func:`install` adds the rule modules is part of the rules: hooks run in
the order they were added. It is: the KT21 core rule modules, then the teams' rules, then the
mission.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.game.context import GameOptions, GameOptionsError, Hooks
from engine.missions import kt21 as kt21_mission
from engine.rules import kt21 as kt21_rules
from engine.rules.kt21.setup import SetupFrame
from engine.rulesets.ruleset import Ruleset
from engine.teams.model import Roster, ruleset_problem

__all__ = ["KT21", "MISSIONS", "install", "op_name"]

MISSIONS = ("critical_ops_2022", "corebook_2021", "lite")
"""The KT21 game sequences (``rules/KT21.md`` 1.2, 1.3, 1.4; decision 1)."""


def install(hooks: Hooks, options: GameOptions, rosters: Mapping[str, Roster]) -> None:
    """Add the rules of a KT21 battle to its ``hooks`` (module docstring: the order).

    Args:
        hooks: the new battle's :class:`~engine.game.context.Hooks` builder.
        options: the battle's :class:`~engine.game.context.GameOptions`.
        rosters: ``{"A": roster, "B": roster}``.

    Raises:
        GameOptionsError: a team whose datacards are written for another edition (naming the
            team and both editions, ``rules/KT21.md`` 4.1); a mission that is not a KT21 game
            sequence (:data:`MISSIONS`).
    """
    for player in sorted(rosters):
        problem = ruleset_problem(rosters[player].team, "kt21", player)
        if problem is not None:
            raise GameOptionsError(problem)
    if options.mission not in MISSIONS:
        raise GameOptionsError(
            f"the KT21 ruleset plays the game sequences {', '.join(MISSIONS)}, "
            f"not {options.mission!r:.60} (rules/KT21.md 1)"
        )
    kt21_rules.install(hooks, options, rosters)
    kt21_mission.install(hooks, options, rosters)


def op_name(name: str, kind: str) -> str | None:
    """The canonical name of the KT21 op of ``kind`` called ``name``, or ``None`` (no tac op
    text is sourced yet: ``rules/KT21.md`` 15.3)."""
    del name, kind
    return None


KT21 = Ruleset(
    name="kt21",
    title="Kill Team (2021 edition), Critical Operations 2022",
    installer=install,
    op_lookup=op_name,
    start=SetupFrame,
    layout=kt21_mission.battle_killzone,
)
"""The KT21 ruleset."""
