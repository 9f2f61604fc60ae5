"""The shared KT21 rule "roll a D6 for each attack die: on x+ ignore its damage"
(``rules/KT21.md`` 10.1 step 6, 11 step 4, DC 16.23).

Several KT21 teams print a datacard ability by which an operative shrugs off the damage of
an attack die on a D6 roll (Death Guard's resilience, a Kommando ploy ignoring a die's
damage): one D6 per attack die that inflicts damage on it, on x+ that die's damage is
ignored. DC 16.23: only the die's own damage is ignored; damage other rules add to the die
(:mod:`engine.rules.kt21.added_damage`) is still inflicted. Mortal wounds (MWx, Splash,
Hot, Reap) are not attack dice' damage and are never rolled for. One rule module found by
the rule's identity (DESIGN.md "Rulesets"): an operative has it when its datacard carries an
ability whose name slug is in :data:`IGNORE_DAMAGE_ABILITIES`, whatever its team.

:func:`install` subscribes the ``kt21_ignore_die_damage`` *would* hook that
:func:`engine.rules.kt21.die_damage.inflict_dice` asks; the roll itself is
:class:`engine.rules.kt21.die_damage.Kt21IgnoreDamageFrame`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.game.context import Hooks
from engine.names import slug
from engine.teams.model import Operative, Roster

__all__ = ["IGNORE_DAMAGE_ABILITIES", "ignore_roll", "install"]

IGNORE_DAMAGE_ABILITIES: Mapping[str, int] = {"stubborn_hide": 5}
"""Ability slug -> the x of its D6 roll (x+ ignores one attack die's damage)."""


def ignore_roll(card: Operative) -> int:
    """The x of the datacard ``card``'s ignore roll (the best of its abilities), 0 when it
    has none."""
    got = [
        IGNORE_DAMAGE_ABILITIES[s]
        for ab in card.abilities
        if (s := slug(ab.name)) in IGNORE_DAMAGE_ABILITIES
    ]
    return min(got) if got else 0


def install(hooks: Hooks, rosters: Mapping[str, Roster]) -> None:
    """Subscribe the rule to ``hooks`` when a team in ``rosters`` (``{"A": roster, "B":
    roster}``) has an operative type with such an ability; a battle without one gets no
    hook."""
    if not any(ignore_roll(card) for r in rosters.values() for card in r.team.operatives):
        return
    hooks.transform("kt21_ignore_die_damage", _threshold)


def _threshold(w: Any, value: int, *, op: str, target: str, weapon: str, kind: str) -> int:
    """The best (lowest) x of ``value`` and ``target``'s own roll (0: none)."""
    del op, weapon, kind
    mine = ignore_roll(w.ctx.datacards[target])
    have = [x for x in (int(value), mine) if x > 0]
    return min(have) if have else 0
