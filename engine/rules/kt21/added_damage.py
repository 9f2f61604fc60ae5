"""The shared KT21 rule "each of its attack dice inflicts extra damage" (``rules/KT21.md`` 11
step 4, DC 16.23).

Some KT21 rules make each attack die of an operative inflict damage besides the die's own (a
psychic power such as the Grey Knights' hammer-handed strikes: one more damage for each
strike). It is damage *added* to the die, not a change to the weapon's Damage: a rule that
ignores the die's damage leaves it (DC 16.23, :mod:`engine.rules.kt21.die_damage`). One rule
module found by the rule's identity (DESIGN.md "Rulesets"): an operative has it when its
datacard carries an ability whose name slug is in :data:`ADDED_DAMAGE_ABILITIES`, whatever
its team.

:func:`install` subscribes the ``kt21_die_damage`` *would* hook that
:func:`engine.rules.kt21.die_damage.inflict_dice` asks for each die.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.game.context import Hooks
from engine.names import slug
from engine.teams.model import Operative, Roster

__all__ = ["ADDED_DAMAGE_ABILITIES", "added_per_die", "install"]

ADDED_DAMAGE_ABILITIES: Mapping[str, tuple[str, int]] = {"crushing_blows": ("melee", 1)}
"""Ability slug -> ``(kind, damage)``: the attack dice it adds damage to (``"melee"``,
``"ranged"`` or ``""`` for both) and how much each die adds."""


def added_per_die(card: Operative, kind: str) -> int:
    """The damage the abilities of the datacard ``card`` add to each of its ``kind``
    (``"ranged"`` or ``"melee"``) attack dice (0 when none; several abilities add up)."""
    total = 0
    for ab in card.abilities:
        got = ADDED_DAMAGE_ABILITIES.get(slug(ab.name))
        if got is not None and got[0] in ("", kind):
            total += got[1]
    return total


def install(hooks: Hooks, rosters: Mapping[str, Roster]) -> None:
    """Subscribe the rule to ``hooks`` when a team in ``rosters`` (``{"A": roster, "B":
    roster}``) has an operative type with such an ability; a battle without one gets no
    hook (and inflicts its damage exactly as before)."""
    cards = [card for r in rosters.values() for card in r.team.operatives]
    if not any(added_per_die(c, k) for c in cards for k in ("ranged", "melee")):
        return
    hooks.transform("kt21_die_damage", _added)


def _added(w: Any, value: int, *, op: str, target: str, weapon: str, kind: str, crit: bool) -> int:
    """``value`` plus what ``op``'s abilities add to each of its ``kind`` dice."""
    del target, weapon, crit
    return int(value) + added_per_die(w.ctx.datacards[op], kind)
