"""Covert War, the KT18 open play mission (``rules/KT18.md`` 9), installed by the KT18
composition root (:mod:`engine.rulesets.kt18`) after the KT18 core rule modules.

One room per concept:

- :mod:`.objectives`: the facts the mission keeps, the deployment zones (halves), the
  placement of objective markers, objective control and Retrieve the Cache's random marker;
- :mod:`.setup`: strategic advantage, the objective markers and the primary objective;
- :mod:`.deployment`: the split of the battlefield, the zones and the models' set-up;
- :mod:`.scoring`: the primary objectives' VP at the end and the result (major and minor
  victories, no draws).

The killzone (:func:`battle_killzone`, the ruleset's ``layout``): Covert War plays on the
killzone's terrain (a KT24 layout or a user layout; the 2018 board is the same 30" x 22",
9.1), without the layout's objective markers, which the players place (9.3); the
layout's drop zones are not used (the deployment zones are halves, 9.5).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.game.context import GameOptions, GameOptionsError, Hooks
from engine.game.events import add_template
from engine.geometry import Killzone
from engine.missions.kt18 import objectives, scoring, setup
from engine.missions.kt18.scoring import OBJECTIVE
from engine.teams.model import Roster

__all__ = [
    "MISSION",
    "OBJECTIVE",
    "SCORING_OPS",
    "battle_killzone",
    "check_options",
    "install",
]

MISSION = "covert_war"
"""The game option ``mission`` of a Covert War battle."""

SCORING_OPS = ((OBJECTIVE, "Primary objective"),)
"""The ``scoring_ops`` of the KT18 ruleset: the one op Covert War scores."""


def check_options(opts: GameOptions) -> None:
    """Refuse the mission options a Covert War battle cannot play.

    Raises:
        GameOptionsError: a crit op, tac ops or primary ops (Covert War has only its rolled
            primary objective, rules/KT18.md 9.7).
    """
    for name, value in (
        ("crit_op", opts.crit_op),
        ("tac_ops", opts.tac_ops),
        ("primary_ops", opts.primary_ops),
    ):
        if value:
            raise GameOptionsError(
                f"game option {name!r}: Covert War has no crit op, tac op nor primary op to "
                "choose: its primary objective is rolled (rules/KT18.md 9.7)"
            )


def install(hooks: Hooks, options: GameOptions, rosters: Mapping[str, Roster]) -> None:
    """Add Covert War (module docstring) to a KT18 battle's ``hooks``: its set-up
    (``setup_step``), Retrieve the Cache (``start_step``), the scoring at ``battle_ending``
    and the ``kt18_victory`` transform.

    Args:
        hooks: the new battle's hooks builder.
        options: its options.
        rosters: ``{"A": roster, "B": roster}`` (unused: Covert War takes any models).

    Raises:
        GameOptionsError: as :func:`check_options`.
    """
    del rosters
    check_options(options)
    hooks.setup_step(setup.covert_war_setup)
    hooks.start_step(objectives.retrieve_the_cache)
    hooks.on("battle_ending", scoring.score_at_end)
    hooks.transform("kt18_victory", scoring.covert_war_victory)


def battle_killzone(killzone: Killzone, options: GameOptions) -> Killzone:
    """The killzone a Covert War battle is played on (module docstring): ``killzone`` without
    its objective markers (the players place theirs, 9.3)."""
    del options
    return killzone.with_objectives(())


def _order_text(order: object) -> str:
    try:
        return " then ".join(str(p) for p in order)  # type: ignore[attr-defined]
    except TypeError:
        return str(order)


add_template(
    "kt18_strategic_advantage",
    lambda e: (
        f"strategic advantage: A {e['a']}, B {e['b']}: "
        + (f"greatest advantage {_order_text(e['order'])}" if e["order"] else "a tie, rolled again")
    ),
)
add_template(
    "kt18_objective_placed",
    lambda e: f"{e['player']} places {e['marker']} at ({e['x']:g}, {e['y']:g})",
)
add_template(
    "kt18_primary_objective",
    lambda e: f"{e['player']} rolls the primary objective: {e['roll']}, {e['objective']}",
)
add_template(
    "kt18_battlefield_split",
    lambda e: (
        f"{e['player']} splits the battlefield into "
        + " and ".join(map(str, e["zones"]))
        + " halves"
    ),
)
add_template(
    "kt18_deployment_zone",
    lambda e: f"{e['player']} deploys in the {e['zone']} half",
)
add_template(
    "kt18_cache_kept",
    lambda e: (
        f"Retrieve the Cache: {e['marker']} stays (rolled {e['roll']}); removed "
        + (", ".join(str(n) for n in e["removed"]) or "none")
    ),
)
add_template(
    "kt18_objective_control",
    lambda e: (
        f'{e["marker"]}: A {e["a"]}, B {e["b"]} models within 2": '
        + (f"controlled by {e['player']}" if e["player"] else "nobody controls it")
    ),
)
