"""The shared KT21 rule "a modifier only if the operative is activated within x of this one"
(``rules/KT21.md`` 4.1, 16.9).

Several KT21 rules change a characteristic of an enemy operative only when it *is activated*
within a distance of one of their operatives (the Gellerpox Infected's Rust Emanations
strategic ploy: a Move penalty for enemies activated within Engagement Range of a friendly
operative). DC 16.9: such a modifier applies only when its condition holds: an enemy
activated farther away gets no modifier in that activation, even if it later moves within the
distance; one activated within it keeps the modifier for the whole activation, even after it
moves away (the condition is checked when it is activated).

One rule module found by the rule's identity (DESIGN.md "Rulesets"): an operative has it when
its datacard carries an ability whose name slug is in :data:`ACTIVATED_WITHIN_ABILITIES`,
whatever its team. :func:`install` subscribes a *did* hook on ``activated`` (emitted once the
order is chosen and the AP generated, 1.5): for each living enemy holder of such an ability,
the condition is checked (``conditional_modifier``, ``applies``) and, when it holds, an
effect of the stat's kind begins on the activated operative until the end of its activation
(the core's stat changes: :meth:`engine.game.work.Work.move_stat` for Move, with its floor of
4" and DC 16.6: not a Dash).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import Effect
from engine.game.work import Work
from engine.names import slug
from engine.teams.model import Operative, Roster

__all__ = ["ACTIVATED_WITHIN_ABILITIES", "ActivatedWithin", "install", "rule_of"]

_EPS = 1e-6


class ActivatedWithin(NamedTuple):
    """A modifier an enemy gets when it is activated within ``distance`` inches of the
    ability's holder: ``value`` added to the stat of effect kind ``stat`` (``"move"``:
    inches) until the end of that activation."""

    name: str
    distance: float
    stat: str
    value: int


ACTIVATED_WITHIN_ABILITIES: Mapping[str, ActivatedWithin] = {
    "choking_spores": ActivatedWithin("Choking Spores", 2.0, "move", -2),
}
"""Ability slug -> the modifier and its condition (Choking Spores: Move -● (2") for an enemy
activated within ● (2"), the shape of Rust Emanations)."""


def rule_of(card: Operative) -> ActivatedWithin | None:
    """The "if activated within x" modifier the datacard ``card`` gives enemies, or
    ``None``."""
    for ab in card.abilities:
        got = ACTIVATED_WITHIN_ABILITIES.get(slug(ab.name))
        if got is not None:
            return got
    return None


def install(hooks: Hooks, rosters: Mapping[str, Roster]) -> None:
    """Subscribe the rule to ``hooks`` when a team in ``rosters`` (``{"A": roster, "B":
    roster}``) has an operative type with such an ability; a battle without one gets no
    hook."""
    if not any(rule_of(card) for r in rosters.values() for card in r.team.operatives):
        return
    hooks.on("activated", _activated)


def _activated(w: Work, event: Event) -> None:
    """Check the condition of each enemy holder's rule for the operative just activated and
    begin the modifier where it holds (module docstring)."""
    op_id = str(event["op"])
    o = w.op(op_id)
    for holder in w.enemies_of(op_id):
        rule = rule_of(w.ctx.datacards[holder.id])
        if rule is None or not holder.placed:
            continue
        within = w.distance(w.place(o), w.place(holder)) <= rule.distance + _EPS
        w.emit(
            "conditional_modifier",
            op=op_id,
            source=holder.id,
            rule=rule.name,
            value=rule.value,
            applies=within,
        )
        if within:
            w.add_effect(Effect(rule.stat, op_id, "end_activation", source=op_id, value=rule.value))


def _conditional_text(e: Event) -> str:
    rule = f"{e['source']}'s {e['rule']}"
    if e["applies"]:
        return f"  {e['op']} was activated within range of {rule}: {e['value']:+d}"
    return f"  {e['op']} was not activated within range of {rule}: no change"


add_template("conditional_modifier", _conditional_text)
