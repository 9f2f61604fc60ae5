"""Rules that trigger when an operative incapacitates an enemy *in combat*
(``rules/KT21.md`` 11, 4.4, DC 16.25), and the shared fixture rule **Combat Vigour**.

:func:`incapacitated_in_combat` is the test such rules make: the enemy was incapacitated by
the other fighter of the KT21 combat in progress (a
:class:`~engine.rules.kt21.fight.Kt21FightFrame` on the stack). A roll made *as if fighting
in combat* (:mod:`engine.rules.kt21.as_if_fighting`) is that same frame, so an enemy it
incapacitates is incapacitated in combat too: DC 16.25 rules that such triggers still work
(its example: the Legionaries' Unending Bloodshed), though the target was not fighting.

**Combat Vigour** is the project's own fixture ability (``scenarios/teams/kt21_dc_r6.json``;
no source the project has prints a KT21 ability with this text): each time the operative
incapacitates an enemy operative in combat, it regains 1 lost wound (event
``wounds_regained``). It is found by the ability's identity (:data:`COMBAT_VIGOUR_ABILITIES`)
as the other shared KT21 rules are (DESIGN.md "Rulesets").
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.work import Work
from engine.names import slug
from engine.rules.kt21.fight import Kt21FightFrame
from engine.teams.model import Operative, Roster

__all__ = [
    "COMBAT_VIGOUR_ABILITIES",
    "COMBAT_VIGOUR_WOUNDS",
    "has_combat_vigour",
    "incapacitated_in_combat",
    "install",
]

COMBAT_VIGOUR_ABILITIES = frozenset({"combat_vigour"})
"""The slugs of the datacard abilities that are the Combat Vigour rule."""
COMBAT_VIGOUR_WOUNDS = 1
"""The lost wounds regained per enemy incapacitated in combat."""


def incapacitated_in_combat(w: Work, victim: str, by: str) -> bool:
    """Whether ``victim``, incapacitated now by ``by``, is incapacitated *in combat*: the
    innermost KT21 combat in progress (a Fight, or a roll as if fighting in combat, DC 16.25)
    is between ``by`` and ``victim``."""
    for f in reversed(w.stack):
        if isinstance(f, Kt21FightFrame):
            return {f.attacker, f.defender} == {victim, by}
    return False


def has_combat_vigour(card: Operative) -> bool:
    """Whether the datacard ``card`` has the Combat Vigour ability (module docstring)."""
    return any(slug(ab.name) in COMBAT_VIGOUR_ABILITIES for ab in card.abilities)


def install(hooks: Hooks, rosters: Mapping[str, Roster]) -> None:
    """Subscribe Combat Vigour when a team in ``rosters`` (``{"A": roster, "B": roster}``)
    has an operative type with the ability; a battle without one gets no hook."""
    if not any(has_combat_vigour(card) for r in rosters.values() for card in r.team.operatives):
        return
    hooks.on("operative_incapacitated", _vigour)


def _vigour(w: Work, ev: Event) -> None:
    """The incapacitating operative, when it has the ability and the enemy fell in combat,
    regains :data:`COMBAT_VIGOUR_WOUNDS` lost wounds (never above its starting wounds)."""
    by, victim = str(ev.get("by", "")), str(ev["op"])
    if not by or by == victim or not has_combat_vigour(w.ctx.datacards[by]):
        return
    o = w.op(by)
    if not o.alive or o.player == w.op(victim).player:
        return
    if not incapacitated_in_combat(w, victim, by):
        return
    regained = min(COMBAT_VIGOUR_WOUNDS, w.ctx.datacards[by].wounds - o.wounds)
    if regained > 0:
        w.set_op(by, wounds=o.wounds + regained)
        w.emit(
            "wounds_regained",
            op=by,
            by=by,
            rule="Combat Vigour",
            source=victim,
            wounds=regained,
        )
