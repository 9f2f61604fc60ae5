"""The composition root of KT21 (``rules/KT21.md``; DESIGN.md "Rulesets"): the shared core,
the KT21 rule modules (:mod:`engine.rules.kt21`), the rules of the KT21 teams in play and the
KT21 mission (Critical Operations 2022 by default, ``rules/KT21.md`` 1.2 and 15).

The order in which :func:`install` adds the rule modules is part of the rules: hooks run in
the order they were added. It is: the KT21 core rule modules, then the teams' rules
(:func:`install_team_rules`: the rule code of the KT21 teams in play, ``teams/kt21_*``), then
the mission.

Team rules are keyed by the team's identity (:mod:`engine.rules.registry`): a KT21 team's ids
are ``kt21_<team>/...``, so the rule code of a KT24 team (``kasrkin/...``) is never installed
in a KT21 battle; :func:`install_team_rules` also refuses to play a KT21 team's rule through a
KT24 team's implementation that prints the same text.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.game.context import GameOptions, Hooks
from engine.missions import kt21 as kt21_mission
from engine.rules import kt21 as kt21_rules
from engine.rules import registry
from engine.rules.kt21.setup import SetupFrame
from engine.rulesets.ruleset import Ruleset, check_battle
from engine.teams.model import Roster
from engine.teams.rule_text import team_keyword

__all__ = ["KT21", "KT21_TEAM_PREFIX", "MISSIONS", "install", "install_team_rules", "op_name"]

KT21_TEAM_PREFIX = "kt21_"
"""The start of every KT21 team's identity (``kt21_kasrkin``), hence of its rule ids."""

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
    check_battle(
        options,
        rosters,
        edition="kt21",
        missions=MISSIONS,
        missions_are="game sequences",
        section="rules/KT21.md 1",
    )
    kt21_rules.install(hooks, options, rosters)
    install_team_rules(hooks, rosters)
    kt21_mission.install(hooks, options, rosters)


def install_team_rules(hooks: Hooks, rosters: Mapping[str, Roster]) -> None:
    """Subscribe the implemented rules of the KT21 teams in play (:func:`registry.install`),
    played only by KT21 rule code: a declaration played through another team's
    implementation whose id is not a KT21 team's (``kt21_...``) is left out, so no KT24 rule
    module ever runs in a KT21 battle (module docstring; ``rules/KT21.md`` 4.1).

    Args:
        hooks: the battle's :class:`~engine.game.context.Hooks` builder.
        rosters: ``{"A": roster, "B": roster}``.
    """
    plan: list[tuple[registry.Installer, list[str]]] = []
    for player in sorted(rosters):
        team = rosters[player].team
        keyword = team_keyword(team)
        for decl in registry.team_rules(team):
            if decl.played_by is None or not decl.played_by.startswith(KT21_TEAM_PREFIX):
                continue
            installer = registry.installer_of(decl, keyword)
            if installer is None:
                continue
            for inst, players in plan:
                if inst is installer:
                    if player not in players:
                        players.append(player)
                    break
            else:
                plan.append((installer, [player]))
    for inst, players in plan:
        inst(hooks, tuple(players))


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
    scoring_ops=(("crit", "Mission (Loot)"), ("tac", "Tac ops"), ("battle ready", "Battle Ready")),
)
"""The KT21 ruleset."""
