"""The composition root of KT18 (``rules/KT18.md``; DESIGN.md "Rulesets"): the shared core,
the KT18 rule modules (:mod:`engine.rules.kt18`) and the KT18 mission (Covert War, the only
one, ``rules/KT18.md`` 9).

The order in which :func:`install` adds the rule modules is part of the rules: hooks run in
the order they were added. It is: the KT18 core rule modules, then the mission.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.game.context import GameOptions, Hooks
from engine.missions import kt18 as kt18_mission
from engine.rules import kt18 as kt18_rules
from engine.rules.kt18.battle import BattleFrame
from engine.rulesets.ruleset import Ruleset, check_battle
from engine.teams.model import Roster

__all__ = ["KT18", "KT18_TEAM_PREFIX", "MISSIONS", "install", "op_name"]

KT18_TEAM_PREFIX = "kt18_"
"""The start of every KT18 team's identity (``kt18_orks``), hence of its rule ids."""

MISSIONS = ("covert_war",)
"""The KT18 missions (``rules/KT18.md`` 9.3)."""


def install(hooks: Hooks, options: GameOptions, rosters: Mapping[str, Roster]) -> None:
    """Add the rules of a KT18 battle to its ``hooks`` (module docstring: the order).

    Args:
        hooks: the new battle's :class:`~engine.game.context.Hooks` builder.
        options: the battle's :class:`~engine.game.context.GameOptions`.
        rosters: ``{"A": roster, "B": roster}``.

    Raises:
        GameOptionsError: a team whose datacards are written for another edition (naming the
            player, the team and both editions); a mission that is not a KT18 mission
            (:data:`MISSIONS`).
    """
    check_battle(options, rosters, edition="kt18", missions=MISSIONS, section="rules/KT18.md 9")
    kt18_rules.install(hooks, options, rosters)
    kt18_mission.install(hooks, options, rosters)


def op_name(name: str, kind: str) -> str | None:
    """The canonical name of the KT18 op of ``kind`` called ``name``: KT18 has no ops
    (``rules/KT18.md`` 9.7 has primary objectives, rolled, not chosen by name)."""
    del name, kind
    return None


KT18 = Ruleset(
    name="kt18",
    title="Kill Team (2018 edition), Covert War",
    installer=install,
    op_lookup=op_name,
    start=BattleFrame,
    layout=kt18_mission.battle_killzone,
    scoring_ops=kt18_mission.SCORING_OPS,
)
"""The KT18 ruleset."""
