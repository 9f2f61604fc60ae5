"""The shared KT21 rule "a parry discards two" (``rules/KT21.md`` 11 step 4, DC 16.16).

Several KT21 teams print a datacard ability (a storm shield) by which each parry of the
operative discards two of the opponent's retained hits instead of one: a normal parry two
normal hits, a critical parry any two (DC 16.16). It is one rule module found by the rule's
identity (DESIGN.md "Rulesets": a rule printed by several teams is one module), not a team's
own code: an operative has it when its datacard carries an ability whose identity (kind
``ability``, name slug) is in :data:`PARRY_TWO_ABILITIES`, whatever its team.

:func:`install` subscribes the ``kt21_parry_discards`` *would* hook that
:mod:`engine.rules.kt21.fight` asks when it lists and resolves parries; the fight keeps every
other parry rule (Brutal, parrying nothing, DC 16.21).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.game.context import Hooks
from engine.names import slug
from engine.teams.model import Operative, Roster

__all__ = ["PARRY_TWO_ABILITIES", "has_parry_two", "install"]

PARRY_TWO_ABILITIES = frozenset({"storm_shield"})
"""The slugs of the datacard abilities that are the "parry discards two" rule (DC 16.16)."""


def has_parry_two(card: Operative) -> bool:
    """Whether the datacard ``card`` has the "parry discards two" ability (module
    docstring)."""
    return any(slug(ab.name) in PARRY_TWO_ABILITIES for ab in card.abilities)


def install(hooks: Hooks, rosters: Mapping[str, Roster]) -> None:
    """Subscribe the rule to ``hooks`` when a team in ``rosters`` (``{"A": roster, "B":
    roster}``) has an operative type with the ability; a battle without one gets no hook."""
    if not any(has_parry_two(card) for r in rosters.values() for card in r.team.operatives):
        return
    hooks.transform("kt21_parry_discards", _discards)


def _discards(w: Any, value: int, *, op: str, target: str) -> int:
    """Two for an operative with the ability, else ``value`` unchanged."""
    del target
    return max(int(value), 2) if has_parry_two(w.ctx.datacards[op]) else int(value)
