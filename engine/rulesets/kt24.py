"""The composition root of KT24 (``rules/KT24.md``; DESIGN.md "Rulesets"): the core, the
universal rule modules, the team rule modules and the Approved Ops 2025 mission pack.

The order in which :func:`install` adds the rule modules is part of the rules: hooks run in
the order they were added. It is: the weapon rules with board effects, Close Quarters (9.3),
the universal rule modules (Command Re-roll, effects with durations, the universal
equipment), the rules of the teams in play (:func:`engine.rules.registry.install`), then the
mission (:func:`engine.missions.install`: kill op, crit ops, tac ops, primary op).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping

from engine import missions
from engine.game.context import GameOptions, Hooks
from engine.game.flow import SetupFrame
from engine.missions.pack import find_op
from engine.rules import close_quarters, registry, weapon_rules
from engine.rulesets.ruleset import Ruleset, check_battle
from engine.teams.model import Roster

__all__ = ["KT24", "MISSIONS", "install", "load_team_rules", "op_name"]

MISSIONS = ("approved_ops_2025", "kill_op")
"""The missions a KT24 battle plays (``rules/KT24.md`` 8)."""


def load_team_rules() -> None:
    """Import the rule code of the built-in teams (each package of ``teams/``), whose modules
    register their rules with :mod:`engine.rules.registry` as they load. Run by the registry
    before its first read (:func:`engine.rules.registry.add_rule_loader`)."""
    import teams

    for info in sorted(pkgutil.iter_modules(teams.__path__), key=lambda m: m.name):
        importlib.import_module(f"teams.{info.name}")


registry.add_rule_loader(load_team_rules)


def install(hooks: Hooks, options: GameOptions, rosters: Mapping[str, Roster]) -> None:
    """Add the rules of a KT24 battle to its ``hooks`` (module docstring: the order).

    Args:
        hooks: the new battle's :class:`~engine.game.context.Hooks` builder.
        options: the battle's :class:`~engine.game.context.GameOptions` (the mission).
        rosters: ``{"A": roster, "B": roster}``.

    Raises:
        GameOptionsError: a team whose datacards are written for another edition (naming the
            team and both editions, ``rules/KT21.md`` 4.1); an option the mission pack
            refuses (an unknown crit or tac op).
    """
    check_battle(options, rosters, edition="kt24", missions=MISSIONS, section="rules/KT24.md 8")
    weapon_rules.install(hooks)
    close_quarters.install(hooks)
    registry.install_universal(hooks)
    registry.install(hooks, rosters)
    missions.install(hooks, options, rosters)


def op_name(name: str, kind: str) -> str | None:
    """The canonical name of the Approved Ops 2025 op of ``kind`` (``"crit"``, ``"tac"``)
    called ``name`` in any case, or ``None`` (``rules/KT24.md`` 8)."""
    spec = find_op(name, kind)
    return spec.name if spec is not None else None


KT24 = Ruleset(
    name="kt24",
    title="Kill Team (2024 edition), Approved Ops 2025",
    installer=install,
    op_lookup=op_name,
    start=SetupFrame,
    scoring_ops=(
        ("kill", "Kill op"),
        ("crit", "Crit op"),
        ("tac", "Tac op"),
        ("primary", "Primary op"),
    ),
)
"""The KT24 ruleset."""
