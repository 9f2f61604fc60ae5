"""Rulesets: the editions the engine plays, each a composition root (DESIGN.md "Rulesets").

A :class:`Ruleset` names the rule modules that make an edition out of the shared core and
installs them, in its order, into each new battle; the core (:mod:`engine.game`) names no
rule module and asks nothing of a ruleset but what :class:`engine.game.state.RulesetLike`
declares. A battle keeps its ruleset (``state.ctx.rules.ruleset``).

- :data:`RULESETS`: name -> :class:`Ruleset` (``"kt24"``, :mod:`engine.rulesets.kt24`;
  ``"kt21"``, :mod:`engine.rulesets.kt21`; ``"kt18"``, :mod:`engine.rulesets.kt18`);
  :func:`get`: the ruleset of a name (:class:`UnknownRulesetError` otherwise).
- :func:`new_game`: a new battle of the ruleset its options name (``options.ruleset``);
  :func:`position`: a scripted position likewise (:func:`engine.game.scenario.position`).
- Replaying a record (:func:`engine.game.record.replay_record`) or running a scenario file
  (:meth:`engine.game.scenario_file.Scenario.run`) is done under a ruleset given by the
  caller; a record of another ruleset is refused.
"""

from __future__ import annotations

import copyreg
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from engine.game.context import GameOptions
from engine.game.scenario import position as _position
from engine.game.setup import start_battle
from engine.game.state import GameState
from engine.geometry import Killzone
from engine.rulesets.kt18 import KT18
from engine.rulesets.kt21 import KT21
from engine.rulesets.kt24 import KT24
from engine.rulesets.ruleset import Ruleset, UnknownRulesetError
from engine.teams.model import Roster

__all__ = [
    "KT18",
    "KT21",
    "KT24",
    "RULESETS",
    "Ruleset",
    "UnknownRulesetError",
    "get",
    "new_game",
    "position",
]

RULESETS: Mapping[str, Ruleset] = MappingProxyType(
    {KT24.name: KT24, KT21.name: KT21, KT18.name: KT18}
)
"""The rulesets the engine plays, by name (the names :data:`engine.game.context.RULESETS`
lists, which :class:`~engine.game.context.GameOptions` accepts)."""


def get(name: str) -> Ruleset:
    """The ruleset called ``name`` (``"kt24"``).

    Raises:
        UnknownRulesetError: no ruleset has that name (the message names it and the known
            ones).
    """
    found = RULESETS.get(name) if isinstance(name, str) else None
    if found is None:
        raise UnknownRulesetError(
            f"unknown ruleset {name!r:.60} (known: {', '.join(sorted(RULESETS))})"
        )
    return found


def _reduce_ruleset(ruleset: Ruleset) -> tuple[Any, ...]:
    """Pickle a ruleset of :data:`RULESETS` by name (it unpickles as that same object, in any
    process); another by its fields (its functions by reference)."""
    if RULESETS.get(ruleset.name) is ruleset:
        return (get, (ruleset.name,))
    return (
        Ruleset,
        (
            ruleset.name,
            ruleset.title,
            ruleset.installer,
            ruleset.op_lookup,
            ruleset.start,
            ruleset.layout,
            ruleset.scoring_ops,
        ),
    )


copyreg.pickle(Ruleset, _reduce_ruleset)


def new_game(
    killzone: Killzone, roster_a: Roster, roster_b: Roster, options: GameOptions | None = None
) -> GameState:
    """A new battle at its first node (the set-up roll-off), under the ruleset
    ``options.ruleset`` names (``rules/KT24.md`` 1.2; :func:`engine.game.setup.start_battle`).

    Args:
        killzone: the layout (its hatchways are all closed at the start).
        roster_a, roster_b: the players' rosters (players ``"A"`` and ``"B"``).
        options: :class:`~engine.game.context.GameOptions` (default: KT24, Approved Ops
            2025).

    Raises:
        SetupError: as :func:`engine.game.setup.start_battle` (arguments of the wrong type,
            an illegal roster, a killzone without room to set up...).
        GameOptionsError: options the ruleset's rules refuse (an unknown op name).
        UnknownRulesetError: options naming a ruleset the engine does not play.
    """
    ruleset = get(options.ruleset) if isinstance(options, GameOptions) else KT24
    return start_battle(killzone, roster_a, roster_b, options, ruleset)


def position(killzone: Killzone, roster_a: Roster, roster_b: Roster, **fields: Any) -> GameState:
    """A Firefight-phase position (:func:`engine.game.scenario.position`, whose keyword
    arguments ``fields`` are) under the ruleset ``options.ruleset`` names (default KT24).

    Raises:
        ScenarioError: as :func:`engine.game.scenario.position`.
        UnknownRulesetError: options naming a ruleset the engine does not play.
    """
    options = fields.get("options")
    ruleset = get(options.ruleset) if isinstance(options, GameOptions) else KT24
    return _position(killzone, roster_a, roster_b, ruleset=ruleset, **fields)
